//! Zones measured from elements: threat zones (DBA3.md §8.1), the shooting zone and range (§9.2),
//! line of sight past other elements (§9.5), and the plain distances the rules measure.
//!
//! Only rectangles, polygons and flags come in; troop types stay with the caller.
//!
//! ```
//! use dbcore::geometry::{ElementRect, Pose};
//! use dbcore::zones::{shot_geometry, ThreatZone, ZoneRelation};
//!
//! let archers = ElementRect::new(Pose::new(0.0, 0.0, 0.0), 1.0, 0.5);
//! let blades = ElementRect::new(Pose::new(0.0, 2.0, 180.0), 1.0, 0.375);
//! // 2 BW away: outside the archers' threat zone but within bow range (§8.1, §9.2).
//! let tz = ThreatZone::of_element(&archers, false);
//! assert_eq!(tz.relation(&blades), ZoneRelation::Outside);
//! let shot = shot_geometry(&archers, false, 3.0, &blades).expect("in range");
//! assert!((shot.distance - 2.0).abs() < 1e-9);
//! ```

use crate::battlefield::{Battlefield, SightBlock};
use crate::geometry::{
    boxes_apart, convex_gap, convex_hull, Edge, ElementRect, Point, Polygon, Segment, TOLERANCE,
};
use crate::paths::{first_within, segment_distance};
use serde::{Deserialize, Serialize};

/// How far a threat zone reaches: 1 BW (DBA3.md §8.1).
pub const THREAT_ZONE_DEPTH: f64 = 1.0;

/// Unit direction of a segment and its outward normal, for an edge listed clockwise round an element
/// (the outside is on the left of the direction of travel in x-right, y-up axes).
fn frame(s: &Segment) -> (Point, Point) {
    let d = s.b - s.a;
    let u = d * (1.0 / d.length());
    (u, Point::new(-u.y, u.x))
}

/// The box straight out from `edge`, from `near` to `far` beyond it and widened by `lateral` at
/// each end.
fn edge_box(edge: &Segment, near: f64, far: f64, lateral: f64) -> [Point; 4] {
    let (u, n) = frame(edge);
    let a = edge.a - u * lateral;
    let b = edge.b + u * lateral;
    [a + n * near, b + n * near, b + n * far, a + n * far]
}

/// A threat zone (DBA3.md §8.1).
///
/// Whether an element projects a zone at all is the caller's call: elements already in close
/// combat project none (§17.15), so no zone is built for them.
///
/// The zone is closed: an element that reaches its outer boundary (within [`TOLERANCE`]) is in it,
/// because §8.1 restricts a mover that "reaches its outer boundary" exactly as one inside. The one
/// exception is the projecting edge itself: touching the zone only along the line of that edge (an
/// element beside the projecting element, front edges level) is not being in the zone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ThreatZone {
    /// Boxes 1 BW deep straight out from the listed edges of an element: its front edge, or all four
    /// edges for War Wagons. The corner squares between two boxes are not part of the zone (the zone
    /// extends "straight out" from the edges).
    Edges(Vec<Segment>),
    /// Every point within 1 BW of the perimeter of a camp, city or fort holding enemy (inside or
    /// outside the wall; points deeper inside than 1 BW are not in the zone, but only its
    /// defenders stand there).
    Perimeter(Polygon),
}

/// Where a rectangle stands relative to a threat zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ZoneRelation {
    /// Clear of the zone by more than [`TOLERANCE`].
    Outside,
    /// Touching the outer boundary within [`TOLERANCE`] but not inside by more than that.
    OnBoundary,
    /// Inside by more than [`TOLERANCE`].
    Inside,
}

impl ThreatZone {
    /// The threat zone of an element: from its front edge, or from all four edges when `all_round`
    /// (War Wagons, §8.1).
    pub fn of_element(rect: &ElementRect, all_round: bool) -> ThreatZone {
        match KeptZone::of_element(rect, all_round) {
            KeptZone::Edges { edges, n } => ThreatZone::Edges(edges[..n].to_vec()),
            KeptZone::Perimeter(poly) => ThreatZone::Perimeter(poly),
        }
    }

    /// The threat zone of a camp, city or fort with the given perimeter (§8.1).
    pub fn of_stronghold(perimeter: Polygon) -> ThreatZone {
        ThreatZone::Perimeter(perimeter)
    }

    /// The zone's shape, lent.
    pub(crate) fn view(&self) -> ZoneView<'_> {
        match self {
            ThreatZone::Edges(edges) => ZoneView::Edges(edges),
            ThreatZone::Perimeter(poly) => ZoneView::Perimeter(poly),
        }
    }

    /// The axis-aligned box (min x, min y, max x, max y) holding the whole zone, or `None` when
    /// a coordinate is not finite. A rectangle whose box is clear of it by more than
    /// [`TOLERANCE`] is [`ZoneRelation::Outside`] and never enters the zone on a path that stays
    /// clear of it too.
    pub fn bounds(&self) -> Option<(f64, f64, f64, f64)> {
        self.view().bounds()
    }

    /// Whether a point is in the zone (boundary included within [`TOLERANCE`], projecting edge
    /// excluded).
    pub fn contains_point(&self, p: Point) -> bool {
        self.view().contains_point(p)
    }

    /// Where `rect` stands relative to the zone.
    pub fn relation(&self, rect: &ElementRect) -> ZoneRelation {
        self.view().relation(rect)
    }

    /// How far `rect` is from the zone: positive outside it, zero on its outer boundary,
    /// negative by how deep it is inside (the measure [`ThreatZone::relation`] compares with
    /// [`TOLERANCE`]).
    pub fn gap(&self, rect: &ElementRect) -> f64 {
        self.view().gap(rect)
    }

    /// Whether the rectangle is in the zone: inside it or on its boundary (§8.1).
    pub fn holds(&self, rect: &ElementRect) -> bool {
        self.view().holds(rect)
    }

    /// How far `rect` can move straight along `direction` (any length; normalised here) before it
    /// reaches the zone, if it does so within `max_distance`. Zero when it is already in the zone.
    ///
    /// Reaching the outer boundary and entering are the same moment, the zone being closed.
    pub fn entry_distance(
        &self,
        rect: &ElementRect,
        direction: Point,
        max_distance: f64,
    ) -> Option<f64> {
        self.view().entry_distance(rect, direction, max_distance)
    }
}

/// A threat zone's shape, lent: the edges an element's zone stands out from, or a camp's, city's
/// or fort's perimeter. Every question about a zone is answered here, for a [`ThreatZone`] and for
/// a [`KeptZone`] alike (each method as the [`ThreatZone`] method of the same name).
#[derive(Debug, Clone, Copy)]
pub(crate) enum ZoneView<'a> {
    Edges(&'a [Segment]),
    Perimeter(&'a Polygon),
}

/// A threat zone as the battle's per-state memo keeps it, an element's edges inline (#15: a list
/// allocated for every enemy's zone at every state a move was checked in). The same zone as
/// [`ThreatZone`], edge for edge.
#[derive(Debug, Clone)]
pub(crate) enum KeptZone {
    /// The first `n` of `edges`.
    Edges {
        edges: [Segment; 4],
        n: usize,
    },
    Perimeter(Polygon),
}

impl KeptZone {
    /// [`ThreatZone::of_element`], kept inline.
    pub(crate) fn of_element(rect: &ElementRect, all_round: bool) -> KeptZone {
        if all_round {
            KeptZone::Edges {
                edges: [Edge::Front, Edge::Right, Edge::Rear, Edge::Left].map(|e| rect.edge(e)),
                n: 4,
            }
        } else {
            let front = rect.edge(Edge::Front);
            KeptZone::Edges {
                edges: [front; 4],
                n: 1,
            }
        }
    }

    /// The zone's shape, lent.
    pub(crate) fn view(&self) -> ZoneView<'_> {
        match self {
            KeptZone::Edges { edges, n } => ZoneView::Edges(&edges[..*n]),
            KeptZone::Perimeter(poly) => ZoneView::Perimeter(poly),
        }
    }
}

impl ZoneView<'_> {
    /// The axis-aligned box (min x, min y, max x, max y) holding the whole zone, or `None` when
    /// a coordinate is not finite. A rectangle whose box is clear of it by more than
    /// [`TOLERANCE`] is [`ZoneRelation::Outside`] and never enters the zone on a path that stays
    /// clear of it too.
    pub(crate) fn bounds(self) -> Option<(f64, f64, f64, f64)> {
        let mut b: Option<(f64, f64, f64, f64)> = None;
        let mut add = |p: Point| {
            b = Some(match b {
                None => (p.x, p.y, p.x, p.y),
                Some(a) => (a.0.min(p.x), a.1.min(p.y), a.2.max(p.x), a.3.max(p.y)),
            });
        };
        match self {
            ZoneView::Edges(edges) => {
                for e in edges {
                    for p in edge_box(e, 0.0, THREAT_ZONE_DEPTH, 0.0) {
                        add(p);
                    }
                }
            }
            ZoneView::Perimeter(poly) => {
                for p in &poly.points {
                    add(*p - Point::new(THREAT_ZONE_DEPTH, THREAT_ZONE_DEPTH));
                    add(*p + Point::new(THREAT_ZONE_DEPTH, THREAT_ZONE_DEPTH));
                }
            }
        }
        b.filter(|b| b.0.is_finite() && b.1.is_finite() && b.2.is_finite() && b.3.is_finite())
    }

    /// Whether a point is in the zone (boundary included within [`TOLERANCE`], projecting edge
    /// excluded).
    pub(crate) fn contains_point(self, p: Point) -> bool {
        match self {
            ZoneView::Edges(edges) => edges.iter().any(|e| {
                let (u, n) = frame(e);
                let x = (p - e.a).dot(u);
                let y = (p - e.a).dot(n);
                y > TOLERANCE
                    && y <= THREAT_ZONE_DEPTH + TOLERANCE
                    && x >= -TOLERANCE
                    && x <= e.length() + TOLERANCE
            }),
            ZoneView::Perimeter(poly) => poly
                .edges()
                .any(|e| e.distance_to_point(p) <= THREAT_ZONE_DEPTH + TOLERANCE),
        }
    }

    /// Where `rect` stands relative to the zone.
    pub(crate) fn relation(self, rect: &ElementRect) -> ZoneRelation {
        let corners = rect.corners();
        match self {
            ZoneView::Edges(edges) => {
                let mut rel = ZoneRelation::Outside;
                for e in edges {
                    // Box pre-tests, pure speed: both sets are rectangles, so their Minkowski
                    // difference has edge normals at most 90 degrees apart and the
                    // separating-axis gap is at least 1/sqrt(2) of their distance, itself at
                    // least the separation of the boxes. Boxes apart by 1e-6 thus mean a gap
                    // above 7e-7: neither exact test below would succeed (the exact box lies
                    // inside the grown one).
                    let grown = edge_box(e, TOLERANCE, THREAT_ZONE_DEPTH + TOLERANCE, TOLERANCE);
                    if boxes_apart(&corners, &grown, 1e-6) {
                        continue;
                    }
                    let exact = edge_box(e, 0.0, THREAT_ZONE_DEPTH, 0.0);
                    if convex_gap(&corners, &exact) < -TOLERANCE {
                        return ZoneRelation::Inside;
                    }
                    // 1e-9 absorbs the rounding of a position computed by `entry_distance`.
                    if convex_gap(&corners, &grown) <= 1e-9 {
                        rel = ZoneRelation::OnBoundary;
                    }
                }
                rel
            }
            ZoneView::Perimeter(poly) => {
                let rp = rect.polygon();
                let d = poly
                    .edges()
                    .flat_map(|e| rp.edges().map(move |f| segment_distance(&e, &f)))
                    .fold(f64::INFINITY, f64::min);
                if d < THREAT_ZONE_DEPTH - TOLERANCE {
                    ZoneRelation::Inside
                } else if d <= THREAT_ZONE_DEPTH + TOLERANCE {
                    ZoneRelation::OnBoundary
                } else {
                    ZoneRelation::Outside
                }
            }
        }
    }

    /// Whether `rect` is in the zone or has reached its outer boundary (§8.1).
    /// How far `rect` is from the zone: positive outside it, zero on its outer boundary,
    /// negative by how deep it is inside (the measure [`ThreatZone::relation`] compares with
    /// [`TOLERANCE`]).
    pub(crate) fn gap(self, rect: &ElementRect) -> f64 {
        let corners = rect.corners();
        match self {
            ZoneView::Edges(edges) => edges
                .iter()
                .map(|e| convex_gap(&corners, &edge_box(e, 0.0, THREAT_ZONE_DEPTH, 0.0)))
                .fold(f64::INFINITY, f64::min),
            ZoneView::Perimeter(poly) => {
                let rp = rect.polygon();
                poly.edges()
                    .flat_map(|e| rp.edges().map(move |f| segment_distance(&e, &f)))
                    .fold(f64::INFINITY, f64::min)
                    - THREAT_ZONE_DEPTH
            }
        }
    }

    /// Whether the rectangle is in the zone: inside it or on its boundary (§8.1).
    pub(crate) fn holds(self, rect: &ElementRect) -> bool {
        self.relation(rect) != ZoneRelation::Outside
    }

    /// How far `rect` can move straight along `direction` (any length; normalised here) before it
    /// reaches the zone, if it does so within `max_distance`. Zero when it is already in the zone.
    ///
    /// Reaching the outer boundary and entering are the same moment, the zone being closed.
    pub(crate) fn entry_distance(
        &self,
        rect: &ElementRect,
        direction: Point,
        max_distance: f64,
    ) -> Option<f64> {
        if self.holds(rect) {
            return Some(0.0);
        }
        let len = direction.length();
        if len == 0.0 {
            return None;
        }
        let dir = direction * (1.0 / len);
        let corners = rect.corners();
        let t = match self {
            ZoneView::Edges(edges) => edges
                .iter()
                .filter_map(|e| {
                    let grown = edge_box(e, TOLERANCE, THREAT_ZONE_DEPTH + TOLERANCE, TOLERANCE);
                    sweep_interval(&corners, dir, &grown)
                        .filter(|&(_, t1)| t1 >= 0.0)
                        .map(|(t0, _)| t0.max(0.0))
                })
                .fold(f64::INFINITY, f64::min),
            ZoneView::Perimeter(poly) => {
                let segs: Vec<Segment> = poly.edges().collect();
                first_within(&corners, dir, &segs, THREAT_ZONE_DEPTH + TOLERANCE)
                    .unwrap_or(f64::INFINITY)
            }
        };
        (t <= max_distance).then_some(t)
    }
}

/// The interval of distances `t` along the unit `dir` for which the convex `moving` polygon,
/// translated by `t * dir`, meets the convex `fixed` polygon (closed sets, exact, by separating
/// axes). `None` when it never does.
pub fn sweep_interval(moving: &[Point], dir: Point, fixed: &[Point]) -> Option<(f64, f64)> {
    let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
    for src in [moving, fixed] {
        let n = src.len();
        for i in 0..n {
            let d = src[(i + 1) % n] - src[i];
            let len = d.length();
            if len == 0.0 {
                continue;
            }
            let axis = Point::new(-d.y / len, d.x / len);
            let proj = |pts: &[Point]| {
                pts.iter()
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
                        (a.min(p.dot(axis)), b.max(p.dot(axis)))
                    })
            };
            let (mmin, mmax) = proj(moving);
            let (fmin, fmax) = proj(fixed);
            let v = dir.dot(axis);
            // Overlap while mmin + t v <= fmax and mmax + t v >= fmin.
            if v.abs() < 1e-12 {
                if mmin > fmax || mmax < fmin {
                    return None;
                }
                continue;
            }
            let t_a = (fmin - mmax) / v;
            let t_b = (fmax - mmin) / v;
            lo = lo.max(t_a.min(t_b));
            hi = hi.min(t_a.max(t_b));
            if lo > hi {
                return None;
            }
        }
    }
    Some((lo, hi))
}

/// The shooting zone of one shooting edge (DBA3.md §9.2, §17.23): the points in front of the edge
/// (strictly: not on its line), no further than 1 BW beyond either end laterally, and within the
/// range of the nearest point of the edge. Boundaries count as inside within [`TOLERANCE`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ShootingZone {
    /// The shooting edge, listed clockwise round the shooter (the zone lies on its outer side).
    pub edge: Segment,
    /// Range in BW.
    pub range: f64,
}

/// Clip the parameter interval `[lo, hi]` to where `f0 + f1 * t <= c`.
fn clip_le(lo: &mut f64, hi: &mut f64, f0: f64, f1: f64, c: f64) {
    if f1.abs() < 1e-15 {
        if f0 > c {
            *lo = 1.0;
            *hi = 0.0;
        }
        return;
    }
    let t = (c - f0) / f1;
    if f1 > 0.0 {
        *hi = hi.min(t);
    } else {
        *lo = lo.max(t);
    }
}

impl ShootingZone {
    /// The shooting zone of the shooting edge `edge` for a range of `range` BW (§9.2).
    pub fn new(edge: Segment, range: f64) -> ShootingZone {
        ShootingZone { edge, range }
    }

    /// Local coordinates: `x` along the edge from its start, `y` outward.
    fn local(&self, p: Point) -> (f64, f64) {
        let (u, n) = frame(&self.edge);
        ((p - self.edge.a).dot(u), (p - self.edge.a).dot(n))
    }

    /// Whether `p` lies in the zone.
    pub fn contains(&self, p: Point) -> bool {
        let (x, y) = self.local(p);
        let w = self.edge.length();
        y > TOLERANCE
            && x >= -1.0 - TOLERANCE
            && x <= w + 1.0 + TOLERANCE
            && self.edge.distance_to_point(p) <= self.range + TOLERANCE
    }

    /// The part of `s` inside the zone, if any.
    pub fn portion_inside(&self, s: Segment) -> Option<Segment> {
        let w = self.edge.length();
        let r = self.range + TOLERANCE;
        let (x0, y0) = self.local(s.a);
        let (x1, y1) = self.local(s.b);
        let (dx, dy) = (x1 - x0, y1 - y0);
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        clip_le(&mut lo, &mut hi, -y0, -dy, -TOLERANCE);
        clip_le(&mut lo, &mut hi, -x0, -dx, 1.0 + TOLERANCE);
        clip_le(&mut lo, &mut hi, x0, dx, w + 1.0 + TOLERANCE);
        if lo > hi {
            return None;
        }
        // Within range of the edge: the capsule round the edge, a union of a strip and two discs,
        // which is convex, so the line meets it in one interval: the hull of the three pieces.
        let mut cap: Option<(f64, f64)> = None;
        let mut add = |a: f64, b: f64| {
            if a <= b {
                cap = Some(match cap {
                    None => (a, b),
                    Some((p, q)) => (p.min(a), q.max(b)),
                });
            }
        };
        {
            let (mut a, mut b) = (f64::NEG_INFINITY, f64::INFINITY);
            clip_le(&mut a, &mut b, -x0, -dx, 0.0);
            clip_le(&mut a, &mut b, x0, dx, w);
            clip_le(&mut a, &mut b, y0, dy, r);
            clip_le(&mut a, &mut b, -y0, -dy, r);
            add(a, b);
        }
        for cx in [0.0, w] {
            // |(x0 - cx, y0) + t (dx, dy)|^2 <= r^2
            let (px, py) = (x0 - cx, y0);
            let qa = dx * dx + dy * dy;
            let qb = 2.0 * (px * dx + py * dy);
            let qc = px * px + py * py - r * r;
            if qa < 1e-15 {
                if qc <= 0.0 {
                    add(f64::NEG_INFINITY, f64::INFINITY);
                }
                continue;
            }
            let disc = qb * qb - 4.0 * qa * qc;
            if disc >= 0.0 {
                let sq = disc.sqrt();
                add((-qb - sq) / (2.0 * qa), (-qb + sq) / (2.0 * qa));
            }
        }
        let (a, b) = cap?;
        lo = lo.max(a);
        hi = hi.min(b);
        if lo > hi {
            return None;
        }
        let d = s.b - s.a;
        Some(Segment::new(s.a + d * lo, s.a + d * hi))
    }

    /// Length of `s` inside the zone.
    pub fn length_inside(&self, s: Segment) -> f64 {
        self.portion_inside(s).map_or(0.0, |p| p.length())
    }
}

/// Minimum length of a target's nearest edge that must lie in the shooting zone (§9.2).
pub const SHOOTING_EDGE_MIN_LENGTH: f64 = 0.5;

/// How a shooter can shoot at a target (§9.2).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ShotGeometry {
    /// The shooter's edge used (the front edge except for War Wagons).
    pub shooting_edge: Edge,
    /// The target's edge nearest that shooting edge.
    pub target_edge: Edge,
    /// Distance from the nearest point of the shooting edge to the nearest point of the target.
    pub distance: f64,
    /// The part of the target's nearest edge inside the shooting zone (at least ½ BW long).
    pub target_portion: Segment,
}

/// Whether `shooter` can shoot at `target` at `range` (DBA3.md §9.2), and how.
///
/// The target's nearest edge is the one nearest the shooting edge; when two are equally near
/// (within [`TOLERANCE`], i.e. a corner is nearest) the one facing the shooting edge most squarely
/// wins (the edge a player would say faces the shooter), and between two facing it equally (a
/// target at 45 degrees) the one with more of its length in the zone. With `all_round` (War Wagons) every edge may
/// shoot and the one nearest the target is used (ties: front, right, rear, left).
pub fn shot_geometry(
    shooter: &ElementRect,
    all_round: bool,
    range: f64,
    target: &ElementRect,
) -> Option<ShotGeometry> {
    let shooting_edges: &[Edge] = if all_round {
        &[Edge::Front, Edge::Right, Edge::Rear, Edge::Left]
    } else {
        &[Edge::Front]
    };
    // The target's corners worked out once (#15: its outline and each of its edges took them
    // again): its outline is these corners, and each edge two of them.
    let corners = target.corners();
    let target_edge = |te: Edge| {
        let [fl, fr, rr, rl] = corners;
        match te {
            Edge::Front => Segment::new(fl, fr),
            Edge::Right => Segment::new(fr, rr),
            Edge::Rear => Segment::new(rr, rl),
            Edge::Left => Segment::new(rl, fl),
        }
    };
    let mut best: Option<ShotGeometry> = None;
    for &se in shooting_edges {
        let edge = shooter.edge(se);
        let distance = convex_distance(&corners, &[edge.a, edge.b]);
        if distance > range + TOLERANCE {
            continue;
        }
        let (_, n_shoot) = frame(&edge);
        let mut cands = [Edge::Front, Edge::Right, Edge::Rear, Edge::Left].map(|te| {
            let s = target_edge(te);
            let (_, n_t) = frame(&s);
            (segment_distance(&s, &edge), -n_t.dot(n_shoot), te)
        });
        let nearest = cands.iter().map(|c| c.0).fold(f64::INFINITY, f64::min);
        // The edges as near as the nearest, kept in order at the front (a list of them before).
        let mut kept = 0;
        for i in 0..cands.len() {
            if cands[i].0 <= nearest + TOLERANCE {
                cands[kept] = cands[i];
                kept += 1;
            }
        }
        let cands = &mut cands[..kept];
        // Among equally near edges, the one facing the shooting edge most squarely; if two face it
        // equally (a target at 45 degrees), the one with more of its length in the zone.
        let zone = ShootingZone::new(edge, range);
        cands.sort_by(|p, q| {
            let by_facing = if (p.1 - q.1).abs() <= 1e-9 {
                std::cmp::Ordering::Equal
            } else {
                q.1.total_cmp(&p.1)
            };
            by_facing
                .then_with(|| {
                    zone.length_inside(target_edge(q.2))
                        .total_cmp(&zone.length_inside(target_edge(p.2)))
                })
                .then(p.2.cmp(&q.2))
        });
        let te = cands[0].2;
        let Some(portion) = zone.portion_inside(target_edge(te)) else {
            continue;
        };
        if portion.length() < SHOOTING_EDGE_MIN_LENGTH - TOLERANCE {
            continue;
        }
        let g = ShotGeometry {
            shooting_edge: se,
            target_edge: te,
            distance,
            target_portion: portion,
        };
        if best.is_none_or(|b| g.distance < b.distance - TOLERANCE) {
            best = Some(g);
        }
    }
    best
}

/// A possible obstruction to a shot (§9.5).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ShotBlocker {
    /// The element's rectangle.
    pub rect: ElementRect,
    /// Enemy Psiloi (of the shooter), which Artillery shoots over or through.
    pub is_enemy_psiloi: bool,
}

/// The first element (index into `blockers`) in the way of a shot, or `None` when the line of sight
/// is clear (DBA3.md §9.5).
///
/// "In the way" is tested thus: the field of fire is the convex hull of the shooting edge and the
/// portion of the target's nearest edge inside the shooting zone ([`ShotGeometry::target_portion`]);
/// an element is in the way when it overlaps that hull by more than [`TOLERANCE`]. Elements merely
/// touching it (a friend beside the shooter, front edges level) do not block. `blockers` should not
/// include the shooter or the target. With `shooter_is_artillery`, enemy Psiloi never block.
pub fn line_of_sight_blocker(
    shooter: &ElementRect,
    shot: &ShotGeometry,
    blockers: &[ShotBlocker],
    shooter_is_artillery: bool,
) -> Option<usize> {
    let se = shooter.edge(shot.shooting_edge);
    let field = convex_hull(&[se.a, se.b, shot.target_portion.a, shot.target_portion.b]);
    blockers.iter().position(|b| {
        !(shooter_is_artillery && b.is_enemy_psiloi)
            && convex_gap(&b.rect.corners(), &field.points) < -TOLERANCE
    })
}

/// Least distance between a convex polygon (given by its vertices) and a set of points forming a
/// convex shape (a segment's two ends, or another convex polygon): 0 when they meet. For disjoint
/// convex shapes the nearest points include a vertex of one, so vertex-to-edge distances suffice.
pub(crate) fn convex_distance(a: &[Point], b: &[Point]) -> f64 {
    // Only the sign of the gap is asked: the scan of the axes stops at the first that separates
    // the sets (#15), which decides it as the whole scan would.
    if crate::geometry::convex_gap_up_to(a, b, 0.0) <= 0.0 {
        return 0.0;
    }
    // The edges of a point set as the least distance sees them: a segment's two ends are one
    // edge, a polygon's vertices close round (walked in place, #15: two lists per question).
    fn edge(p: &[Point], i: usize) -> Segment {
        Segment::new(p[i], p[(i + 1) % p.len()])
    }
    let edges = |p: &[Point]| if p.len() == 2 { 1 } else { p.len() };
    let mut best = f64::INFINITY;
    for i in 0..edges(a) {
        let e = edge(a, i);
        for &q in b {
            best = best.min(e.distance_to_point(q));
        }
    }
    for i in 0..edges(b) {
        let e = edge(b, i);
        for &q in a {
            best = best.min(e.distance_to_point(q));
        }
    }
    best
}

fn segment_to_polygon_distance(s: &Segment, poly: &Polygon) -> f64 {
    convex_distance(&poly.points, &[s.a, s.b])
}

/// Least distance between two element rectangles (0 when they touch or overlap).
pub fn nearest_distance(a: &ElementRect, b: &ElementRect) -> f64 {
    convex_distance(&a.corners(), &b.corners())
}

/// Least distance from `a`'s front edge to any point of `b` (0 when they touch or overlap).
pub fn front_edge_distance(a: &ElementRect, b: &ElementRect) -> f64 {
    segment_to_polygon_distance(&a.edge(Edge::Front), &b.polygon())
}

/// A shooter as the one target scan ([`scan_shots`]) sees it.
pub(crate) struct Shooter<'a> {
    /// Where it stands.
    pub(crate) rect: &'a ElementRect,
    /// War Wagons shoot from every edge (§9.2).
    pub(crate) all_round: bool,
    /// Artillery's field of fire is not blocked the way other shooters' is (§9.5).
    pub(crate) artillery: bool,
    /// Its range, BW (§9.2).
    pub(crate) range: f64,
    /// Its own threat zone (§8.1), which ranks targets (§9.3).
    pub(crate) zone: &'a ThreatZone,
}

/// How [`scan_shots`] found one candidate target.
pub(crate) enum ShotAt<B> {
    /// It may be shot at, `distance` BW away; `in_threat_zone`: it is in the shooter's own
    /// threat zone (§9.3).
    Clear { distance: f64, in_threat_zone: bool },
    /// Within reach and range, but the blocker named `B` stands in the way (§9.5).
    Element(B),
    /// Within reach and range, but terrain blocks sight (§9.5).
    Terrain(SightBlock),
}

/// The one shooting-target scan (§9.2, §9.5) behind `battle::engagement::shooting_targets` and
/// [`crate::table::Table::shooting_targets`]: for each candidate (in the order given, each with
/// its rectangle) the shot geometry within range (a candidate outside the zone or range is
/// passed over silently), then the elements in the way (`blockers` of the candidate gives each
/// blocker's name and shape, in the order the first one is to be named), then terrain, and
/// `found` hears the answer. The callers choose the candidates (enemies in play, not sacking)
/// and order the answers.
pub(crate) fn scan_shots<T: Copy, B: Copy>(
    shooter: &Shooter,
    battlefield: &Battlefield,
    candidates: impl IntoIterator<Item = (T, ElementRect)>,
    mut blockers: impl FnMut(T) -> (Vec<B>, Vec<ShotBlocker>),
    mut found: impl FnMut(T, ShotAt<B>),
) {
    for (t, rt) in candidates {
        let Some(shot) = shot_geometry(shooter.rect, shooter.all_round, shooter.range, &rt) else {
            continue;
        };
        let (names, shapes) = blockers(t);
        if let Some(b) = line_of_sight_blocker(shooter.rect, &shot, &shapes, shooter.artillery) {
            found(t, ShotAt::Element(names[b]));
            continue;
        }
        if let Err(block) = battlefield.element_line_of_sight(shooter.rect, &rt) {
            found(t, ShotAt::Terrain(block));
            continue;
        }
        let in_threat_zone = shooter.zone.relation(&rt) != ZoneRelation::Outside;
        found(
            t,
            ShotAt::Clear {
                distance: shot.distance,
                in_threat_zone,
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{exact_bits, unit_stream};

    /// Segments of every kind two element edges make: apart, crossing, touching at an end, end to
    /// end on one line, nearly parallel, and through each other's ends (points on a grid of
    /// quarters, so that many fall exactly on one line).
    fn segments(n: usize) -> Vec<(Segment, Segment)> {
        let mut next = unit_stream(0x2545_f491_4f6c_dd1d);
        let mut u = move |scale: f64| next() * scale;
        let point = |u: &mut dyn FnMut(f64) -> f64| {
            if u(1.0) < 0.5 {
                Point::new((u(12.0)).round() * 0.25, (u(12.0)).round() * 0.25)
            } else {
                Point::new(u(3.0), u(3.0))
            }
        };
        (0..n)
            .map(|_| {
                let s = Segment::new(point(&mut u), point(&mut u));
                let t = match (u(1.0) * 4.0) as u32 {
                    // Beyond `s`'s end on its line, or back over it.
                    0 => Segment::new(s.b, s.b + (s.b - s.a) * (u(2.0) - 0.5)),
                    // Nearly parallel, a hair off.
                    1 => {
                        let off = Point::new(u(1e-9), u(1e-9));
                        Segment::new(s.a + off, s.b + off * 2.0)
                    }
                    _ => Segment::new(point(&mut u), point(&mut u)),
                };
                (s, t)
            })
            .collect()
    }

    // DBA3.md §8.1 (threat zones): the zone the per-state memo keeps inline is the element's
    // zone edge for edge, front only or all round (War Wagons), and answers every question alike.
    #[test]
    fn a_kept_zone_is_the_threat_zone() {
        let mut next = unit_stream(0x6a09_e667_f3bc_c909);
        for n in 0..2_000 {
            let rect = ElementRect::new(
                crate::geometry::Pose::new(next() * 10.0, next() * 10.0, next() * 360.0),
                1.0,
                0.5,
            );
            let other = ElementRect::new(
                crate::geometry::Pose::new(next() * 10.0, next() * 10.0, next() * 360.0),
                1.0,
                0.75,
            );
            let all_round = n % 3 == 0;
            let (tz, kept) = (
                ThreatZone::of_element(&rect, all_round),
                KeptZone::of_element(&rect, all_round),
            );
            let (ZoneView::Edges(a), ZoneView::Edges(b)) = (tz.view(), kept.view()) else {
                panic!("an element's zone stands out from its edges");
            };
            assert_eq!(a, b);
            assert_eq!(a.len(), if all_round { 4 } else { 1 });
            assert_eq!(tz.relation(&other), kept.view().relation(&other));
            let d = Point::new(next() - 0.5, next() - 0.5);
            assert_eq!(
                tz.entry_distance(&other, d, 5.0),
                kept.view().entry_distance(&other, d, 5.0)
            );
        }
    }

    // DBA3.md §9.2 (a target's nearest edge): taking the rounding noise off the sides only when
    // the plain signs differ gives, to the bit, the distance of taking it off every time.
    #[test]
    fn segment_distance_is_that_of_the_full_side_test() {
        let full = |s: &Segment, t: &Segment| {
            let ends = s
                .distance_to_point(t.a)
                .min(s.distance_to_point(t.b))
                .min(t.distance_to_point(s.a))
                .min(t.distance_to_point(s.b));
            let side = |p: Point, q: Point, r: Point| {
                let v = (q - p).cross(r - p);
                let scale = (q - p).length() * (r - p).length();
                if v.abs() <= 1e-12 * scale.max(1e-300) {
                    0.0
                } else {
                    v
                }
            };
            let (d1, d2) = (side(t.a, t.b, s.a), side(t.a, t.b, s.b));
            let (d3, d4) = (side(s.a, s.b, t.a), side(s.a, s.b, t.b));
            if d1 * d2 < 0.0 && d3 * d4 < 0.0 {
                0.0
            } else {
                ends
            }
        };
        let (mut crossing, mut apart) = (0, 0);
        for (s, t) in segments(20_000) {
            let d = segment_distance(&s, &t);
            assert_eq!(exact_bits(d), exact_bits(full(&s, &t)), "{s:?} {t:?}");
            if d == 0.0 {
                crossing += 1;
            } else {
                apart += 1;
            }
        }
        assert!(crossing > 1_000 && apart > 1_000, "{crossing} {apart}");
    }

    // DBA3.md §9.2 (a shot's distance): stopping the axis scan at the first separating axis and
    // walking the edges in place gives, to the bit, the distance of the full gap and edge lists.
    #[test]
    fn convex_distance_is_that_of_the_full_gap() {
        let full = |a: &[Point], b: &[Point]| {
            if crate::geometry::convex_gap(a, b) <= 0.0 {
                return 0.0;
            }
            let edges = |p: &[Point]| -> Vec<Segment> {
                if p.len() == 2 {
                    return vec![Segment::new(p[0], p[1])];
                }
                (0..p.len())
                    .map(|i| Segment::new(p[i], p[(i + 1) % p.len()]))
                    .collect()
            };
            let mut best = f64::INFINITY;
            for e in edges(a) {
                for &q in b {
                    best = best.min(e.distance_to_point(q));
                }
            }
            for e in edges(b) {
                for &q in a {
                    best = best.min(e.distance_to_point(q));
                }
            }
            best
        };
        let mut next = unit_stream(0x9e37_79b9_7f4a_7c15);
        let mut u = move |scale: f64| next() * scale;
        let (mut meeting, mut apart) = (0, 0);
        for (s, t) in segments(5_000) {
            let rect = ElementRect::new(
                crate::geometry::Pose::new(u(3.0), u(3.0), u(360.0)),
                1.0,
                0.5,
            );
            let corners = rect.corners();
            for (a, b) in [
                (&corners[..], &[s.a, s.b][..]),
                (&[s.a, s.b][..], &[t.a, t.b][..]),
                (&[t.a][..], &corners[..]),
            ] {
                let d = convex_distance(a, b);
                assert_eq!(exact_bits(d), exact_bits(full(a, b)), "{a:?} {b:?}");
                if d == 0.0 {
                    meeting += 1;
                } else {
                    apart += 1;
                }
            }
        }
        assert!(meeting > 1_000 && apart > 1_000, "{meeting} {apart}");
    }
}
