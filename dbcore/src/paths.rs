//! Paths of moving elements: the area swept by a straight move or a wheel (DBA3.md §7.2, §7.4), the
//! distance a corner travels in a wheel, and the first thing met along a straight path (moves,
//! recoils §12.1, flight §12.4), all computed exactly rather than by stepping.
//!
//! ```
//! use dbcore::geometry::{ElementRect, Point, Pose};
//! use dbcore::paths::{first_met, BoardBounds, Met, MoveDirection, Obstacle, ObstacleKind, ObstacleShape};
//!
//! // A recoil (§12.1): the rear edge leads; a friend 0.3 BW behind stops it.
//! let recoiler = ElementRect::new(Pose::new(5.0, 5.0, 0.0), 1.0, 0.5);
//! let friend = ElementRect::new(Pose::new(5.0, 4.2, 0.0), 1.0, 0.5);
//! let board = BoardBounds { min: Point::new(0.0, 0.0), max: Point::new(12.0, 12.0) };
//! let obstacles = [Obstacle { id: 7, kind: ObstacleKind::Element, shape: ObstacleShape::Rect(friend) }];
//! let out = first_met(&recoiler, MoveDirection::Backward, 0.5, &obstacles, &board);
//! assert!((out.distance - 0.3).abs() < 1e-9);
//! assert_eq!(out.met, vec![Met::Obstacle { id: 7, kind: ObstacleKind::Element }]);
//! ```

use crate::geometry::{
    convex_hull, Corner, Edge, ElementRect, Point, Polygon, Pose, Segment, TOLERANCE,
};
use serde::{Deserialize, Serialize};

/// The area swept by `rect` moving straight by `distance` along `direction` (any length; normalised
/// here): the convex hull of its start and end positions.
pub fn swept_by_straight_move(rect: &ElementRect, direction: Point, distance: f64) -> Polygon {
    let len = direction.length();
    let shift = if len == 0.0 {
        Point::new(0.0, 0.0)
    } else {
        direction * (distance / len)
    };
    let c = rect.corners();
    let mut pts = c.to_vec();
    pts.extend(c.iter().map(|&p| p + shift));
    convex_hull(&pts)
}

/// A wheel: the front edge pivoting forward about one front corner (DBA3.md §7.2, §7.4).
///
/// Pivoting about the front-left corner turns the element left (the front-right corner swings
/// forward); about the front-right corner it turns right. A negative angle wheels backward.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Wheel {
    /// The front corner that stays put.
    pub pivot: Corner,
    /// Degrees turned.
    pub angle: f64,
}

impl Wheel {
    /// Clockwise rotation in degrees that the wheel applies about the pivot.
    fn clockwise(&self) -> f64 {
        match self.pivot {
            Corner::FrontRight => self.angle,
            _ => -self.angle,
        }
    }

    /// The other front corner, the one that swings.
    fn swinging(&self) -> Corner {
        match self.pivot {
            Corner::FrontRight => Corner::FrontLeft,
            _ => Corner::FrontRight,
        }
    }

    /// Where `rect` stands after the wheel.
    pub fn apply(&self, rect: &ElementRect) -> ElementRect {
        let p = rect.corner(self.pivot);
        let cw = self.clockwise();
        let mid = p + (rect.pose.front_mid() - p).rotated_cw(cw);
        ElementRect::new(
            Pose::new(mid.x, mid.y, (rect.pose.facing + cw).rem_euclid(360.0)),
            rect.width,
            rect.depth,
        )
    }

    /// The area swept by the front edge: a circular sector about the pivot with the width as
    /// radius. Only the front edge matters: rear corners may pass through elements, zones and
    /// terrain while wheeling (§7.2). The arc is drawn with vertices on the circle, close enough that
    /// no point of the true arc is more than half the [`TOLERANCE`] outside the polygon.
    pub fn swept_by_front_edge(&self, rect: &ElementRect) -> Polygon {
        let pivot = rect.corner(self.pivot);
        let arm = rect.corner(self.swinging()) - pivot;
        let r = arm.length();
        let cw = self.clockwise();
        let step = if r > TOLERANCE {
            2.0 * (1.0 - 0.5 * TOLERANCE / r).acos().to_degrees()
        } else {
            90.0
        };
        let n = ((cw.abs() / step).ceil() as usize).max(1);
        let mut pts = Vec::with_capacity(n + 2);
        pts.push(pivot);
        for k in 0..=n {
            pts.push(pivot + arm.rotated_cw(cw * k as f64 / n as f64));
        }
        Polygon::new(pts)
    }
}

impl Wheel {
    /// The obstacles (in the order given) that the front edge would sweep into by more than
    /// [`TOLERANCE`] during the wheel (§7.2: only the front edge counts; rear corners may pass
    /// through). Things touching the swept sector only at its edges, such as a friend beside the
    /// pivot corner, are not obstructions. Wheels of more than 180 degrees are tested as 180.
    pub fn obstructions(&self, rect: &ElementRect, obstacles: &[Obstacle]) -> Vec<Met> {
        let capped = Wheel {
            pivot: self.pivot,
            angle: self.angle.clamp(-180.0, 180.0),
        };
        let sector = capped.swept_by_front_edge(rect);
        let Some(core) = inset_convex(&sector, TOLERANCE) else {
            return Vec::new();
        };
        obstacles
            .iter()
            .filter(|ob| convex_meets_polygon(&core, &ob.shape.polygon()))
            .map(|ob| Met::Obstacle {
                id: ob.id,
                kind: ob.kind,
            })
            .collect()
    }
}

/// The convex polygon `poly` with every edge moved inward by `by`; `None` when nothing is left.
fn inset_convex(poly: &Polygon, by: f64) -> Option<Polygon> {
    let sign = if poly.signed_area() >= 0.0 { 1.0 } else { -1.0 };
    let mut pts = poly.points.clone();
    for e in poly.edges() {
        let d = e.b - e.a;
        let len = d.length();
        if len == 0.0 {
            continue;
        }
        // Inward normal: left of the edge for anticlockwise polygons.
        let n = Point::new(-d.y, d.x) * (sign / len);
        let keep = |p: Point| (p - e.a).dot(n) - by;
        let mut out = Vec::with_capacity(pts.len() + 1);
        for i in 0..pts.len() {
            let (p, q) = (pts[i], pts[(i + 1) % pts.len()]);
            let (fp, fq) = (keep(p), keep(q));
            if fp >= 0.0 {
                out.push(p);
            }
            if (fp >= 0.0) != (fq >= 0.0) {
                out.push(p + (q - p) * (fp / (fp - fq)));
            }
        }
        pts = out;
        if pts.len() < 3 {
            return None;
        }
    }
    Some(Polygon::new(pts))
}

/// Whether the convex polygon `convex` and the polygon `other` (any simple polygon) share a point:
/// an edge of `other` meets `convex` (clipped exactly, Cyrus-Beck), or `convex` lies inside `other`.
fn convex_meets_polygon(convex: &Polygon, other: &Polygon) -> bool {
    let sign = if convex.signed_area() >= 0.0 {
        1.0
    } else {
        -1.0
    };
    let planes: Vec<(Point, Point)> = convex
        .edges()
        .map(|e| {
            let d = e.b - e.a;
            (e.a, Point::new(-d.y, d.x) * sign)
        })
        .collect();
    let segment_meets = |a: Point, b: Point| {
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        for &(p, n) in &planes {
            // keep (a + t (b - a) - p) . n >= 0
            let f0 = (a - p).dot(n);
            let f1 = (b - a).dot(n);
            if f1.abs() < 1e-15 {
                if f0 < 0.0 {
                    return false;
                }
            } else {
                let t = -f0 / f1;
                if f1 > 0.0 {
                    lo = lo.max(t);
                } else {
                    hi = hi.min(t);
                }
                if lo > hi {
                    return false;
                }
            }
        }
        true
    };
    other.edges().any(|e| segment_meets(e.a, e.b))
        || convex
            .points
            .first()
            .is_some_and(|&p| other.contains_strictly(p))
}

/// Straight-line distance from start to end of the swinging front corner in a wheel through
/// `angle` degrees with an edge `width` long: what §7.2 measures ("from the start position of the
/// front corner that moves furthest to where that corner ends"). The chord, `2 w sin(θ/2)`.
pub fn wheel_corner_distance(width: f64, angle: f64) -> f64 {
    2.0 * width * (angle.to_radians() * 0.5).sin().abs()
}

/// Length of the arc the swinging corner follows in a wheel, `w θ`; larger than
/// [`wheel_corner_distance`], for callers that prefer to charge the path actually walked.
pub fn wheel_corner_arc_length(width: f64, angle: f64) -> f64 {
    width * angle.to_radians().abs()
}

/// What an obstacle is, so the caller can decide what meeting it means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ObstacleKind {
    /// Another element.
    Element,
    /// Terrain the mover may not enter.
    Impassable,
    /// Terrain that stops the movement on entry (e.g. bad going for a fleeing element).
    StopsMovement,
    /// A city, fort or camp.
    Stronghold,
    /// A river.
    River,
    /// Anything else the caller wants stopped at.
    Other,
}

/// The shape of an obstacle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ObstacleShape {
    /// An element's rectangle.
    Rect(ElementRect),
    /// Any polygon, BW.
    Polygon(Polygon),
}

impl ObstacleShape {
    fn polygon(&self) -> Polygon {
        match self {
            ObstacleShape::Rect(r) => r.polygon(),
            ObstacleShape::Polygon(p) => p.clone(),
        }
    }
}

/// Something a moving element may meet.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Obstacle {
    /// The caller's id, opaque here.
    pub id: u32,
    /// What it is.
    pub kind: ObstacleKind,
    /// Its outline.
    pub shape: ObstacleShape,
}

/// Which way an element moves along its own axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum MoveDirection {
    /// Straight ahead, led by the front edge.
    Forward,
    /// Straight back without turning, led by the rear edge (recoil, push-back, §12.1).
    Backward,
}

/// An edge of the battlefield, by compass (north is +y): the battlefield's own
/// [`crate::battlefield::BoardEdge`], so that what a path met is the edge the rules name (same
/// JSON spelling, `"north"` ...).
pub use crate::battlefield::BoardEdge;

/// The battlefield's rectangle, axis-aligned.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct BoardBounds {
    /// The south-west corner.
    pub min: Point,
    /// The north-east corner.
    pub max: Point,
}

/// What a moving element met.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub enum Met {
    /// An obstacle.
    Obstacle {
        /// The caller's id of it.
        id: u32,
        /// What it is.
        kind: ObstacleKind,
    },
    /// A battlefield edge.
    BoardEdge(BoardEdge),
}

/// The result of a straight path: how far the element travels and what stopped it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct PathOutcome {
    /// Distance travelled, at most the distance asked for.
    pub distance: f64,
    /// Everything met at that distance (within [`TOLERANCE`]), obstacles in the order given, then
    /// board edges; empty when the full distance was free.
    pub met: Vec<Met>,
}

/// The first thing met when `rect` moves straight `Forward` or `Backward` up to `max_distance`.
///
/// Contact is measured on the leading edge: the front edge and front corners going forward, the rear
/// edge and rear corners going back (§12.1, §12.4); see [`first_met_by_edge`].
pub fn first_met(
    rect: &ElementRect,
    direction: MoveDirection,
    max_distance: f64,
    obstacles: &[Obstacle],
    board: &BoardBounds,
) -> PathOutcome {
    let f = rect.pose.forward();
    let (edge, dir) = match direction {
        MoveDirection::Forward => (rect.edge(Edge::Front), f),
        MoveDirection::Backward => (rect.edge(Edge::Rear), -f),
    };
    first_met_by_edge(edge, dir, max_distance, obstacles, board)
}

/// The first thing the segment `leading` meets moving along `direction` (normalised here) up to
/// `max_distance`.
///
/// An obstacle is met when the strip swept by the segment first reaches into it, counting only
/// the part of the strip more than [`TOLERANCE`] inside its two side lines: things the leading edge
/// merely grazes with an end (an element beside the mover, front edges level) are passed by. An
/// obstacle already straddling the leading edge is met at distance 0; so is one wholly covering
/// it, which is why callers leave out terrain the mover is already in and may go on through. The
/// board edge is met when an end of the leading edge reaches it.
pub fn first_met_by_edge(
    leading: Segment,
    direction: Point,
    max_distance: f64,
    obstacles: &[Obstacle],
    board: &BoardBounds,
) -> PathOutcome {
    let len = direction.length();
    if len == 0.0 {
        return PathOutcome {
            distance: 0.0,
            met: Vec::new(),
        };
    }
    let d = direction * (1.0 / len);
    let mut hits: Vec<(f64, Met)> = Vec::new();
    for ob in obstacles {
        if let Some(t) = strip_contact(leading, d, &ob.shape.polygon()) {
            hits.push((
                t,
                Met::Obstacle {
                    id: ob.id,
                    kind: ob.kind,
                },
            ));
        }
    }
    let walls = [
        (BoardEdge::North, Point::new(0.0, 1.0), board.max.y),
        (BoardEdge::East, Point::new(1.0, 0.0), board.max.x),
        (BoardEdge::South, Point::new(0.0, -1.0), -board.min.y),
        (BoardEdge::West, Point::new(-1.0, 0.0), -board.min.x),
    ];
    for (which, n, bound) in walls {
        let v = d.dot(n);
        if v <= 1e-12 {
            continue;
        }
        let reach = leading.a.dot(n).max(leading.b.dot(n));
        let t = ((bound - reach) / v).max(0.0);
        hits.push((t, Met::BoardEdge(which)));
    }
    let first = hits.iter().map(|h| h.0).fold(f64::INFINITY, f64::min);
    if first > max_distance {
        return PathOutcome {
            distance: max_distance,
            met: Vec::new(),
        };
    }
    PathOutcome {
        distance: first,
        met: hits
            .into_iter()
            .filter(|h| h.0 <= first + TOLERANCE)
            .map(|h| h.1)
            .collect(),
    }
}

/// Distance along unit `d` at which the strip swept by `seg` first reaches into `poly`.
fn strip_contact(seg: Segment, d: Point, poly: &Polygon) -> Option<f64> {
    let e = seg.b - seg.a;
    let den = e.cross(d);
    // |e x d| is the strip's width across the motion.
    if den.abs() <= 2.0 * TOLERANCE {
        return None;
    }
    // For X = a + lambda e + t d: lambda = (X - a) x d / (e x d), t = e x (X - a) / (e x d).
    let lam = |x: Point| (x - seg.a).cross(d) / den;
    let tee = |x: Point| e.cross(x - seg.a) / den;
    // Keep the strip's lateral extent more than TOLERANCE (measured across the motion) inside.
    let margin = TOLERANCE / den.abs();
    let (lam_lo, lam_hi) = (margin, 1.0 - margin);
    if lam_lo >= lam_hi {
        return None;
    }
    // Already covering the leading edge.
    if poly.contains_strictly(seg.midpoint()) {
        return Some(0.0);
    }
    let mut best = f64::INFINITY;
    for edge in poly.edges() {
        let (l0, l1) = (lam(edge.a), lam(edge.b));
        let (t0, t1) = (tee(edge.a), tee(edge.b));
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        for (f0, f1, c, sign) in [
            (l0, l1 - l0, lam_lo, -1.0),
            (l0, l1 - l0, lam_hi, 1.0),
            (t0, t1 - t0, -TOLERANCE, -1.0),
        ] {
            // keep sign * (f0 + f1 s) <= sign * c
            let (g0, g1, gc) = (sign * f0, sign * f1, sign * c);
            if g1.abs() < 1e-15 {
                if g0 > gc {
                    lo = 1.0;
                    hi = 0.0;
                }
            } else {
                let s = (gc - g0) / g1;
                if g1 > 0.0 {
                    hi = hi.min(s);
                } else {
                    lo = lo.max(s);
                }
            }
        }
        if lo > hi {
            continue;
        }
        let t_lo = t0 + (t1 - t0) * lo;
        let t_hi = t0 + (t1 - t0) * hi;
        best = best.min(t_lo.min(t_hi).max(0.0));
    }
    best.is_finite().then_some(best)
}

/// Least distance between two segments, 0 when they cross or touch.
///
/// Written here rather than using `Segment::distance_to_segment` because nearly collinear,
/// end-to-end segments (the side edges of two elements in a line) must not be taken for crossing
/// on rounding noise: a crossing needs each segment's ends clearly on both sides of the other.
pub(crate) fn segment_distance(s: &Segment, t: &Segment) -> f64 {
    let cross = |p: Point, q: Point, r: Point| (q - p).cross(r - p);
    let (v1, v2) = (cross(t.a, t.b, s.a), cross(t.a, t.b, s.b));
    let (v3, v4) = (cross(s.a, s.b, t.a), cross(s.a, s.b, t.b));
    // A crossing needs each segment's ends on both sides of the other, beyond rounding noise (a
    // side within it counts as none). Pure speed (#15): the noise is taken off only when the
    // plain signs already differ both ways, since taking it off only ever turns a side to none.
    if v1 * v2 < 0.0 && v3 * v4 < 0.0 {
        let side = |v: f64, p: Point, q: Point, r: Point| {
            let scale = (q - p).length() * (r - p).length();
            if v.abs() <= 1e-12 * scale.max(1e-300) {
                0.0
            } else {
                v
            }
        };
        let (d1, d2) = (side(v1, t.a, t.b, s.a), side(v2, t.a, t.b, s.b));
        let (d3, d4) = (side(v3, s.a, s.b, t.a), side(v4, s.a, s.b, t.b));
        if d1 * d2 < 0.0 && d3 * d4 < 0.0 {
            return 0.0;
        }
    }
    s.distance_to_point(t.a)
        .min(s.distance_to_point(t.b))
        .min(t.distance_to_point(s.a))
        .min(t.distance_to_point(s.b))
}

/// Distance along unit `dir` at which the convex polygon `moving` first comes within `r` of any
/// of `segments` (exact: vertex rays against offset segments and end-point circles, and end-point
/// rays against offset edges). Zero when already within `r` (plus [`TOLERANCE`]); `None` when never.
pub fn first_within(moving: &[Point], dir: Point, segments: &[Segment], r: f64) -> Option<f64> {
    let n = moving.len();
    let mpoly = Polygon::new(moving.to_vec());
    let medges: Vec<Segment> = mpoly.edges().collect();
    let already = segments.iter().any(|s| {
        mpoly.contains_strictly(s.a)
            || medges
                .iter()
                .any(|m| segment_distance(m, s) <= r + TOLERANCE)
    });
    if already {
        return Some(0.0);
    }
    let mut best = f64::INFINITY;
    let offsets = |s: &Segment| -> Vec<Segment> {
        let d = s.b - s.a;
        let l = d.length();
        if l == 0.0 || r == 0.0 {
            return vec![*s];
        }
        let nrm = Point::new(-d.y, d.x) * (r / l);
        vec![
            Segment::new(s.a + nrm, s.b + nrm),
            Segment::new(s.a - nrm, s.b - nrm),
        ]
    };
    for s in segments {
        let offs = offsets(s);
        for &v in moving {
            for o in &offs {
                if let Some(t) = ray_segment(v, dir, o) {
                    best = best.min(t);
                }
            }
            if r > 0.0 {
                for c in [s.a, s.b] {
                    if let Some(t) = ray_circle(v, dir, c, r) {
                        best = best.min(t);
                    }
                }
            }
        }
        for i in 0..n {
            let m = Segment::new(moving[i], moving[(i + 1) % n]);
            for o in offsets(&m) {
                for c in [s.a, s.b] {
                    if let Some(t) = ray_segment(c, -dir, &o) {
                        best = best.min(t);
                    }
                }
            }
        }
    }
    best.is_finite().then_some(best)
}

/// First `t >= 0` at which `o + t d` lies on segment `s`.
fn ray_segment(o: Point, d: Point, s: &Segment) -> Option<f64> {
    let e = s.b - s.a;
    let den = d.cross(e);
    let w = s.a - o;
    if den.abs() < 1e-12 {
        // Parallel: only a collinear segment can be met, at its nearer end (or at once).
        if w.cross(d).abs() > 1e-9 {
            return None;
        }
        let (ta, tb) = (w.dot(d), (s.b - o).dot(d));
        let (lo, hi) = (ta.min(tb), ta.max(tb));
        if hi < 0.0 {
            return None;
        }
        return Some(lo.max(0.0));
    }
    let t = w.cross(e) / den;
    let u = w.cross(d) / den;
    (t >= -1e-12 && (-1e-12..=1.0 + 1e-12).contains(&u)).then_some(t.max(0.0))
}

/// First `t >= 0` at which `o + t d` (unit `d`) is on or in the circle of radius `r` about `c`.
fn ray_circle(o: Point, d: Point, c: Point, r: f64) -> Option<f64> {
    let w = o - c;
    let b = w.dot(d);
    let cc = w.dot(w) - r * r;
    let disc = b * b - cc;
    if disc < 0.0 {
        return None;
    }
    let sq = disc.sqrt();
    let (t0, t1) = (-b - sq, -b + sq);
    if t1 < 0.0 {
        return None;
    }
    Some(t0.max(0.0))
}
