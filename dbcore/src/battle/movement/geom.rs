//! Geometry of one mover's path: legs, the distance §7.2 counts, and the areas a leg sweeps.
//!
//! A path is a list of legs, each from one pose to the next. A leg that keeps the facing is a
//! straight move: the whole rectangle sweeps the hull of its start and end. A leg that turns is
//! read as the front edge going straight from where it was to where it ends while the element
//! pivots: only the front edge's sweep (the hull of its two positions) and the end position are
//! checked, since rear corners may pass through things while the front edge pivots (§7.2).

use crate::few::Few;
use crate::geometry::{
    boxes_apart, convex_gap_up_to, hull_into, Corner, Edge, ElementRect, Point, Pose, TOLERANCE,
};

/// Facings closer than this (degrees) are the same facing.
pub(crate) const ANGLE_TOLERANCE: f64 = 1e-6;

/// Signed difference `b - a` of two bearings, in `(-180, 180]`.
pub(crate) fn angle_diff(a: f64, b: f64) -> f64 {
    let d = (b - a).rem_euclid(360.0);
    if d > 180.0 {
        d - 360.0
    } else {
        d
    }
}

pub(crate) fn same_facing(a: f64, b: f64) -> bool {
    angle_diff(a, b).abs() <= ANGLE_TOLERANCE
}

/// One leg of a path.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Leg {
    pub from: ElementRect,
    pub to: ElementRect,
    /// A wheel about this point by this many degrees clockwise (group and column wheels, §7.4):
    /// the front edge sweeps the arc, not the chord.
    pub wheel: Option<(Point, f64)>,
}

impl Leg {
    pub fn new(from: Pose, to: Pose, width: f64, depth: f64) -> Leg {
        Leg {
            from: ElementRect::new(from, width, depth),
            to: ElementRect::new(to, width, depth),
            wheel: None,
        }
    }

    /// A wheel of `from` about `pivot` by `cw` degrees clockwise.
    pub fn wheel(from: Pose, pivot: Point, cw: f64, width: f64, depth: f64) -> Leg {
        let to = rotate_pose(&from, pivot, cw);
        Leg {
            from: ElementRect::new(from, width, depth),
            to: ElementRect::new(to, width, depth),
            wheel: Some((pivot, cw)),
        }
    }

    pub fn turns(&self) -> bool {
        !same_facing(self.from.pose.facing, self.to.pose.facing)
    }

    /// §7.2: the distance moved by the front corner that moves furthest, start to end.
    pub fn distance(&self) -> f64 {
        [Corner::FrontLeft, Corner::FrontRight]
            .iter()
            .map(|&c| self.from.corner(c).distance(self.to.corner(c)))
            .fold(0.0, f64::max)
    }

    /// Translation of the front-edge midpoint.
    pub fn shift(&self) -> Point {
        self.to.pose.front_mid() - self.from.pose.front_mid()
    }

    /// Convex pieces that together cover what the leg may not pass through (see module docs).
    pub fn swept(&self) -> Few<Piece> {
        if let Some((pivot, cw)) = self.wheel {
            // Chords of the arc, fine enough that the arc bulges less than half the tolerance
            // beyond them (as `paths::Wheel::swept_by_front_edge`).
            let fe = self.from.edge(Edge::Front);
            let r = pivot.distance(fe.a).max(pivot.distance(fe.b));
            let step = if r > TOLERANCE {
                2.0 * (1.0 - 0.5 * TOLERANCE / r).acos().to_degrees()
            } else {
                90.0
            };
            let n = ((cw.abs() / step).ceil() as usize).clamp(1, 720);
            let at = |k: usize| {
                let q = cw * k as f64 / n as f64;
                [
                    pivot + (fe.a - pivot).rotated_cw(q),
                    pivot + (fe.b - pivot).rotated_cw(q),
                ]
            };
            // Each chord end worked out once (each is shared by two pieces).
            let mut v = Vec::with_capacity(n + 1);
            let mut prev = at(0);
            for k in 1..=n {
                let next = at(k);
                let ([a, b], [c, d]) = (prev, next);
                v.push(Piece::hull(&[a, b, c, d]));
                prev = next;
            }
            v.push(Piece::of(&self.to.corners()));
            return Few::from(v);
        }
        if self.turns() {
            let a = self.from.edge(Edge::Front);
            let b = self.to.edge(Edge::Front);
            Few::Two([
                Piece::hull(&[a.a, a.b, b.a, b.b]),
                Piece::of(&self.to.corners()),
            ])
        } else {
            let ([a, b, c, d], [e, f, g, h]) = (self.from.corners(), self.to.corners());
            Few::one(Piece::hull(&[a, b, c, d, e, f, g, h]))
        }
    }
}

/// One convex piece of what a move sweeps ([`Leg::swept`]): at most [`Piece::MAX`] vertices,
/// kept in place rather than on the heap (#15: a straight leg's piece was two allocations).
/// It reads as the slice of its vertices.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Piece {
    pts: [Point; Piece::MAX],
    len: u8,
}

impl Piece {
    /// The most vertices a piece holds: a hull of two rectangles' corners.
    pub const MAX: usize = 8;

    /// The piece with vertices `pts` as they are (at most [`Piece::MAX`]; any more are dropped).
    pub fn of(pts: &[Point]) -> Piece {
        let len = pts.len().min(Piece::MAX);
        let mut p = Piece {
            pts: [Point::new(0.0, 0.0); Piece::MAX],
            len: len as u8,
        };
        p.pts[..len].copy_from_slice(&pts[..len]);
        p
    }

    /// The convex hull of at most [`Piece::MAX`] points: the vertices of
    /// [`crate::geometry::convex_hull`], in its order, worked out on the stack.
    pub fn hull(points: &[Point]) -> Piece {
        debug_assert!(
            points.len() <= Piece::MAX,
            "a piece is a hull of at most 8 points"
        );
        let points = &points[..points.len().min(Piece::MAX)];
        let mut pts = [Point::new(0.0, 0.0); Piece::MAX];
        let mut hull = [Point::new(0.0, 0.0); 2 * Piece::MAX];
        let k = hull_into(points, &mut pts, &mut hull);
        Piece::of(&hull[..k])
    }
}

impl std::ops::Deref for Piece {
    type Target = [Point];
    fn deref(&self) -> &[Point] {
        &self.pts[..usize::from(self.len)]
    }
}

/// The legs of a path of poses starting at `start`.
pub(crate) fn legs(start: Pose, path: &[Pose], width: f64, depth: f64) -> Few<Leg> {
    legs_of(start, path.iter().copied(), width, depth)
}

/// [`legs`] of the poses `path` gives, in order.
pub(crate) fn legs_of(
    start: Pose,
    path: impl ExactSizeIterator<Item = Pose>,
    width: f64,
    depth: f64,
) -> Few<Leg> {
    let mut at = start;
    path.map(|p| {
        let leg = Leg::new(at, p, width, depth);
        at = p;
        leg
    })
    .collect()
}

/// Whether two convex point sets overlap by more than [`TOLERANCE`] (touching is not
/// overlapping). Degenerate sets (a point or a segment) never overlap anything.
pub(crate) fn overlaps(a: &[Point], b: &[Point]) -> bool {
    if a.len() < 3 || b.len() < 3 {
        return false;
    }
    // Boxes strictly apart: the sets are disjoint, so their separating-axis gap is not negative
    // (up to rounding far below a tolerance) and the exact test would say no. Pure speed: most
    // pairs a move is tested against are nowhere near it.
    if boxes_apart(a, b, 0.0) {
        return false;
    }
    // The gap only decides whether it is below `-TOLERANCE`: `convex_gap_up_to` stops at the
    // first axis that separates the sets by more than that (the gap, the largest of the axes'
    // separations, is then above it too) and otherwise gives the very gap `convex_gap` does, so
    // the answer is the same; neighbours that touch or stand apart are settled on their first
    // axes (#15: half the instructions of the test for most pairs).
    convex_gap_up_to(a, b, -TOLERANCE) < -TOLERANCE
}

/// The convex polygon `pts` (either winding) with every edge moved inward by `by`; `None` when
/// nothing is left. Used to test "partly in" a feature without counting a touch.
///
/// Each edge clips the polygon into the other of two buffers, sized once (#15: a fresh list per
/// edge was most of its cost); the same points by the same arithmetic.
pub(crate) fn inset_convex(pts: &[Point], by: f64) -> Option<Vec<Point>> {
    if pts.len() < 3 {
        return None;
    }
    let area: f64 = (0..pts.len())
        .map(|i| pts[i].cross(pts[(i + 1) % pts.len()]))
        .sum();
    let sign = if area >= 0.0 { 1.0 } else { -1.0 };
    // A clip adds at most one point to the polygon it cuts.
    let room = 2 * pts.len() + 1;
    let mut cur = Vec::with_capacity(room);
    cur.extend_from_slice(pts);
    let mut out = Vec::with_capacity(room);
    for i in 0..pts.len() {
        let (a, b) = (pts[i], pts[(i + 1) % pts.len()]);
        let d = b - a;
        let len = d.length();
        if len == 0.0 {
            continue;
        }
        let n = Point::new(-d.y, d.x) * (sign / len);
        let keep = |p: Point| (p - a).dot(n) - by;
        out.clear();
        for j in 0..cur.len() {
            let (p, q) = (cur[j], cur[(j + 1) % cur.len()]);
            let (fp, fq) = (keep(p), keep(q));
            if fp >= 0.0 {
                out.push(p);
            }
            if (fp >= 0.0) != (fq >= 0.0) {
                out.push(p + (q - p) * (fp / (fp - fq)));
            }
        }
        std::mem::swap(&mut cur, &mut out);
        if cur.len() < 3 {
            return None;
        }
    }
    Some(cur)
}

/// Coordinates of `p` in the frame of `pose`: (to the right, forward) of the front-edge midpoint.
pub(crate) fn local(pose: &Pose, p: Point) -> (f64, f64) {
    let f = pose.forward();
    let d = p - pose.front_mid();
    (d.dot(f.right()), d.dot(f))
}

/// The pose whose front-edge midpoint is at `(right, forward)` in the frame of `pose`, facing
/// `pose.facing + turn`.
pub(crate) fn pose_at(pose: &Pose, right: f64, forward: f64, turn: f64) -> Pose {
    let f = pose.forward();
    let p = pose.front_mid() + f.right() * right + f * forward;
    Pose::new(p.x, p.y, (pose.facing + turn).rem_euclid(360.0))
}

/// Rotate a pose clockwise by `deg` about `pivot`.
pub(crate) fn rotate_pose(pose: &Pose, pivot: Point, deg: f64) -> Pose {
    let m = pivot + (pose.front_mid() - pivot).rotated_cw(deg);
    Pose::new(m.x, m.y, (pose.facing + deg).rem_euclid(360.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{convex_gap, convex_hull, exact_bits};
    use rand_core::{RngCore, SeedableRng};

    /// A piece's hull is `convex_hull`'s, the same points to the bit in the same order, for
    /// every count up to eight, with repeats, flat sets and either winding (#15: the pieces a
    /// move sweeps decide what blocks it, so the stack-built hull may not differ).
    #[test]
    fn piece_hull_is_convex_hull() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(15);
        let mut coordinate = |scale: f64| {
            let r = rng.next_u64();
            match r % 7 {
                0 => 0.0,
                1 => 1.0,
                _ => ((r >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * scale,
            }
        };
        for n in 0..20_000 {
            let k = n % (Piece::MAX + 1);
            let pts: Vec<Point> = (0..k)
                .map(|_| Point::new(coordinate(10.0), coordinate(10.0)))
                .collect();
            let bits = |v: &[Point]| -> Vec<(u64, u64)> {
                v.iter()
                    .map(|p| (exact_bits(p.x), exact_bits(p.y)))
                    .collect()
            };
            assert_eq!(
                bits(&Piece::hull(&pts)),
                bits(&convex_hull(&pts).points),
                "{pts:?}"
            );
        }
        let corners = ElementRect::new(Pose::new(3.0, 4.0, 30.0), 1.0, 0.5).corners();
        assert_eq!(&*Piece::of(&corners), &corners[..]);
    }

    /// `overlaps` as it was before #15 stopped the gap early: the reference it must equal.
    fn overlaps_reference(a: &[Point], b: &[Point]) -> bool {
        if a.len() < 3 || b.len() < 3 {
            return false;
        }
        if boxes_apart(a, b, 0.0) {
            return false;
        }
        convex_gap(a, b) < -TOLERANCE
    }

    /// `inset_convex` as it was before #15 kept its two buffers: the reference it must equal.
    fn inset_convex_reference(pts: &[Point], by: f64) -> Option<Vec<Point>> {
        if pts.len() < 3 {
            return None;
        }
        let area: f64 = (0..pts.len())
            .map(|i| pts[i].cross(pts[(i + 1) % pts.len()]))
            .sum();
        let sign = if area >= 0.0 { 1.0 } else { -1.0 };
        let mut cur = pts.to_vec();
        for i in 0..pts.len() {
            let (a, b) = (pts[i], pts[(i + 1) % pts.len()]);
            let d = b - a;
            let len = d.length();
            if len == 0.0 {
                continue;
            }
            let n = Point::new(-d.y, d.x) * (sign / len);
            let keep = |p: Point| (p - a).dot(n) - by;
            let mut out = Vec::with_capacity(cur.len() + 1);
            for j in 0..cur.len() {
                let (p, q) = (cur[j], cur[(j + 1) % cur.len()]);
                let (fp, fq) = (keep(p), keep(q));
                if fp >= 0.0 {
                    out.push(p);
                }
                if (fp >= 0.0) != (fq >= 0.0) {
                    out.push(p + (q - p) * (fp / (fp - fq)));
                }
            }
            cur = out;
            if cur.len() < 3 {
                return None;
            }
        }
        Some(cur)
    }

    #[test]
    fn inset_convex_equals_the_old_clipping() {
        // DBA3.md §3.1: a path only touching a feature is not in it; the going tests the path
        // shrunk by a tolerance. Compared bit for bit with the old clipping.
        let mut rng = rand_pcg::Pcg64::seed_from_u64(31);
        let bits = |v: &Option<Vec<Point>>| {
            v.as_ref().map(|v| {
                v.iter()
                    .map(|p| (p.x.to_bits(), p.y.to_bits()))
                    .collect::<Vec<_>>()
            })
        };
        let mut kept = [0usize; 2];
        for n in 0..40_000 {
            let pts: Vec<Point> = match n % 5 {
                // Element-sized rectangles and the hulls a leg sweeps.
                0 => ElementRect::new(
                    Pose::new(
                        coordinate(&mut rng, 5.0),
                        5.0,
                        (rng.next_u32() % 360) as f64,
                    ),
                    [1.0, 0.5, 1e-12, 0.0, 4.0 * TOLERANCE][(rng.next_u32() % 5) as usize],
                    0.5,
                )
                .corners()
                .to_vec(),
                1 => {
                    let k = 3 + (rng.next_u32() % 9) as usize;
                    let pts: Vec<Point> = (0..k)
                        .map(|_| Point::new(coordinate(&mut rng, 5.0), coordinate(&mut rng, 5.0)))
                        .collect();
                    convex_hull(&pts).points
                }
                // Either winding, repeated points, flat sets, huge and tiny values.
                2 => {
                    let mut v = convex_hull(&[
                        Point::new(0.0, 0.0),
                        Point::new(1e-300, 0.0),
                        Point::new(coordinate(&mut rng, 1e6), 3.0),
                        Point::new(-0.0, coordinate(&mut rng, 2.0)),
                    ])
                    .points;
                    v.reverse();
                    v
                }
                3 => vec![
                    Point::new(1.0, 1.0),
                    Point::new(1.0, 1.0),
                    Point::new(coordinate(&mut rng, 2.0), 1.0),
                    Point::new(3.0, 1.0),
                ],
                _ => (0..3 + rng.next_u32() % 3)
                    .map(|_| Point::new(coordinate(&mut rng, 0.0), coordinate(&mut rng, 0.0)))
                    .collect(),
            };
            let by = [TOLERANCE, 0.0, -TOLERANCE, 0.3, 1e300, f64::NAN][n % 6];
            let got = inset_convex(&pts, by);
            assert_eq!(
                bits(&got),
                bits(&inset_convex_reference(&pts, by)),
                "case {n}: {pts:?} by {by}"
            );
            kept[usize::from(got.is_some())] += 1;
        }
        // Both answers are met many times, so the comparison tests something.
        assert!(kept[0] > 1_000 && kept[1] > 1_000, "{kept:?}");
    }

    /// A value for a coordinate: mostly ordinary, sometimes an edge case.
    fn coordinate(rng: &mut rand_pcg::Pcg64, base: f64) -> f64 {
        match rng.next_u32() % 40 {
            0 => f64::NAN,
            1 => f64::INFINITY,
            2 => f64::NEG_INFINITY,
            3 => base,
            _ => base + (rng.next_u32() as f64 / u32::MAX as f64 - 0.5) * 4.0,
        }
    }

    #[test]
    fn overlaps_equals_the_full_gap_test() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(15);
        let mut answers = [0usize; 2];
        for n in 0..40_000 {
            let ra = ElementRect::new(Pose::new(5.0, 5.0, (rng.next_u32() % 360) as f64), 1.0, 0.5);
            // Rectangles touching (within the tolerance either way), exactly side by side,
            // overlapping, apart, degenerate, and sets with non-finite corners.
            let b: Vec<Point> = match n % 6 {
                0 => {
                    let off = [
                        0.0,
                        TOLERANCE,
                        -TOLERANCE,
                        0.5 * TOLERANCE,
                        -2.0 * TOLERANCE,
                    ][(rng.next_u32() % 5) as usize];
                    let p = ra.pose;
                    let right = Point::from_bearing(p.facing + 90.0);
                    let at = Point::new(p.x, p.y) + right * (1.0 + off);
                    ElementRect::new(Pose::new(at.x, at.y, p.facing), 1.0, 0.5)
                        .corners()
                        .to_vec()
                }
                1 => ElementRect::new(
                    Pose::new(coordinate(&mut rng, 5.0), coordinate(&mut rng, 5.0), 45.0),
                    1.0,
                    0.5,
                )
                .corners()
                .to_vec(),
                2 => vec![
                    Point::new(5.0, 5.0),
                    Point::new(6.0, 5.0),
                    Point::new(7.0, 5.0),
                ],
                3 => vec![Point::new(5.0, 5.0), Point::new(6.0, 6.0)],
                _ => {
                    let k = 3 + (rng.next_u32() % 6) as usize;
                    let pts: Vec<Point> = (0..k)
                        .map(|_| Point::new(coordinate(&mut rng, 5.0), coordinate(&mut rng, 5.0)))
                        .collect();
                    convex_hull(&pts).points
                }
            };
            let a = ra.corners();
            let got = overlaps(&a, &b);
            assert_eq!(got, overlaps_reference(&a, &b), "case {n}: {a:?} and {b:?}");
            assert_eq!(
                overlaps(&b, &a),
                overlaps_reference(&b, &a),
                "case {n} swapped"
            );
            answers[usize::from(got)] += 1;
        }
        // Both answers are met many times, so the comparison tests something.
        assert!(answers[0] > 1_000 && answers[1] > 1_000, "{answers:?}");
    }

    /// #47: a lone leg `lone_leg_beyond` calls too far is too far as the engine measures it
    /// (DBA3.md §7.2: the front corner moving furthest; §7.3), from the snapped end pose of a
    /// path and from the end of a front contact, which is turned about the front-edge midpoint
    /// and shifted onto the target's, then snapped (`plan_into_contact`).
    #[test]
    fn a_leg_beyond_is_too_far_once_snapped() {
        use crate::geometry::TOLERANCE;
        let mut rng = rand_pcg::Pcg64::seed_from_u64(47);
        let mut unit = move || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let mut beyond = 0;
        for _ in 0..100_000 {
            let from = Pose::new(unit() * 24.0, unit() * 24.0, unit() * 360.0).snapped();
            let reach = [1.0, 2.0, 3.0, 4.0][(unit() * 4.0) as usize % 4];
            let depth = [0.5, 0.75, 1.0, 1.5][(unit() * 4.0) as usize % 4];
            // Ends near the reach, where the corners decide.
            let (r, bearing) = (reach - 1.0 + unit() * 1.2, unit() * 360.0);
            let at = from.front_mid() + Point::from_bearing(bearing) * r;
            let to = Pose::new(at.x, at.y, unit() * 360.0);
            if !crate::battle::movement::lone_leg_beyond(from, to, depth, reach) {
                continue;
            }
            beyond += 1;
            let path = Leg::new(from, to.snapped(), 1.0, depth).distance();
            assert!(path > reach + TOLERANCE, "{from:?} to {to:?}: {path}");
            let dest = to.snapped();
            let turned = rotate_pose(
                &from,
                from.front_mid(),
                angle_diff(from.facing, dest.facing),
            );
            let shift = dest.front_mid() - from.front_mid();
            let end = Pose::new(turned.x + shift.x, turned.y + shift.y, turned.facing).snapped();
            let contact = Leg::new(from, end, 1.0, depth).distance();
            assert!(contact > reach + TOLERANCE, "{from:?} to {to:?}: {contact}");
        }
        assert!(beyond > 10_000, "{beyond}");
    }
}
