//! Contact between element rectangles: how two elements touch (DBA3.md §8.2), whether one overlaps
//! an enemy (§10.4), and whether a mover may go for an enemy's flank or rear (§8.4).
//!
//! Everything here looks only at rectangles ([`ElementRect`]) and a few flags; troop types are the
//! caller's business. "Touching" always means within [`TOLERANCE`] (DBA3.md §0.3).
//!
//! # How a contact is classified
//!
//! 1. If the two rectangles interpenetrate by more than [`TOLERANCE`] they are
//!    [`ContactKind::Intersecting`] (an illegal position the caller should never produce).
//! 2. Otherwise, if an edge of each runs along the other (antiparallel, both ends of the shared
//!    portion within [`TOLERANCE`] of the other edge) for more than [`TOLERANCE`] of length, it is an
//!    edge contact, named by the two edges (front, side, rear).
//! 3. Otherwise, if a corner of each is within [`TOLERANCE`] of the other, it is corner to corner.
//! 4. Otherwise, if a corner of one is within [`TOLERANCE`] of an edge of the other, it is corner to
//!    edge.
//!
//! The result is computed for a canonical order of the pair and swapped if needed, so that it is
//! exactly the same seen from either element.
//!
//! ```
//! use dbcore::contact::{classify_contact, overlap, ContactKind, OverlapKind};
//! use dbcore::geometry::{ElementRect, Pose};
//!
//! let spear = ElementRect::new(Pose::new(0.0, 0.0, 0.0), 1.0, 0.375);
//! let warband = ElementRect::new(Pose::new(0.0, 0.0, 180.0), 1.0, 0.375);
//! let c = classify_contact(&spear, &warband).unwrap();
//! assert_eq!(c.kind, ContactKind::FrontToFront);
//! assert!(c.lined_up); // §8.2 (a)
//! // A second spear beside the first overlaps the warband by the front corners (§10.4).
//! let spear2 = ElementRect::new(Pose::new(1.0, 0.0, 0.0), 1.0, 0.375);
//! assert_eq!(overlap(&spear2, false, &warband, false), Some(OverlapKind::FrontCorners));
//! ```

use crate::geometry::{
    beyond_tolerance, within_tolerance, Corner, Edge, ElementRect, Point, Segment, TOLERANCE,
};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// The part of an element that takes part in a contact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ContactPart {
    /// One of its edges.
    Edge(Edge),
    /// One of its corners.
    Corner(Corner),
}

/// How element A touches element B (named from A's point of view).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ContactKind {
    /// Mutual front edges (§8.2 (a) when lined up; otherwise offset).
    FrontToFront,
    /// A's front edge against B's rear edge (§8.2 (b) when lined up).
    FrontToRear,
    /// A's rear edge against B's front edge (B is the contactor of §8.2 (b)).
    RearToFront,
    /// A's front edge against one of B's side edges (§8.2 (c) when lined up).
    FrontToSide,
    /// One of A's side edges against B's front edge.
    SideToFront,
    /// Mutual side-edge contact: an overlap (§8.2, §10.4).
    SideToSide,
    /// Any other pair of edges (rear to rear, side to rear, rear to side).
    OtherEdges,
    /// Only corners touch.
    CornerToCorner,
    /// A corner of A touches an edge of B (not at B's corners).
    CornerToEdge,
    /// An edge of A touches a corner of B (not at A's corners).
    EdgeToCorner,
    /// The rectangles interpenetrate by more than the tolerance.
    Intersecting,
}

impl ContactKind {
    /// The same relation named from B's point of view.
    pub fn swapped(self) -> ContactKind {
        match self {
            ContactKind::FrontToRear => ContactKind::RearToFront,
            ContactKind::RearToFront => ContactKind::FrontToRear,
            ContactKind::FrontToSide => ContactKind::SideToFront,
            ContactKind::SideToFront => ContactKind::FrontToSide,
            ContactKind::CornerToEdge => ContactKind::EdgeToCorner,
            ContactKind::EdgeToCorner => ContactKind::CornerToEdge,
            k => k,
        }
    }
}

/// A contact between elements A and B.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Contact {
    /// How the two touch.
    pub kind: ContactKind,
    /// The part of A involved (`None` only for [`ContactKind::Intersecting`]).
    pub a: Option<ContactPart>,
    /// The part of B involved (`None` only for [`ContactKind::Intersecting`]).
    pub b: Option<ContactPart>,
    /// Length of the shared portion of the two edges (0 for corner contacts).
    pub shared_length: f64,
    /// Squared up in one of the legal positions §8.2 (a)-(c): full front-to-front, full
    /// front-to-rear, or front-to-side with the front corners together.
    pub lined_up: bool,
}

impl Contact {
    /// The same contact seen from B.
    pub fn swapped(&self) -> Contact {
        Contact {
            kind: self.kind.swapped(),
            a: self.b,
            b: self.a,
            shared_length: self.shared_length,
            lined_up: self.lined_up,
        }
    }
}

const EDGES: [Edge; 4] = [Edge::Front, Edge::Right, Edge::Rear, Edge::Left];
const CORNERS: [Corner; 4] = [
    Corner::FrontLeft,
    Corner::FrontRight,
    Corner::RearRight,
    Corner::RearLeft,
];

/// The edge of a rectangle from its corners (in [`CORNERS`] order), as [`ElementRect::edge`] gives
/// it, without recomputing the corners.
fn edge_of(c: &[Point; 4], e: Edge) -> Segment {
    match e {
        Edge::Front => Segment::new(c[0], c[1]),
        Edge::Right => Segment::new(c[1], c[2]),
        Edge::Rear => Segment::new(c[2], c[3]),
        Edge::Left => Segment::new(c[3], c[0]),
    }
}

/// A rectangle's corners (in [`CORNERS`] order) with what every contact test derives from them:
/// each edge's length and the unit normal of each edge that the separating-axis gap projects on
/// (edge `i` runs from corner `i` to corner `i + 1`, in [`EDGES`] order). Worked out once per
/// rectangle, by exactly the arithmetic [`crate::geometry::convex_gap_up_to`] and [`Segment::length`] use, so a
/// scan that meets one rectangle in many pairs pays its square roots once and every answer stays
/// the same to the last bit (#15).
#[derive(Debug, Clone, Copy)]
pub(crate) struct RectOutline {
    c: [Point; 4],
    len: [f64; 4],
    /// The axes, kept only for a rectangle that is not aligned: two aligned rectangles take
    /// their gap from their boxes, and an aligned one met by another works its axes out on the
    /// way ([`RectOutline::axis_and_own`]), so a table of squared-up lines builds none (#15).
    axis: [Point; 4],
    /// The least and greatest projection of the rectangle's own corners on each of its axes, as
    /// the gap projects them: half the gap's dot products are the same for every pair. Kept,
    /// like `axis`, only when not aligned.
    own: [(f64, f64); 4],
    /// Whether the rectangle is aligned: its edges run along x and y in turn (each edge's two
    /// ends share their y or their x to the bit), none of length zero or beyond the largest
    /// float. Then each edge's axis, `(-d.y / l, d.x / l)` with `l = |d|`, is `(±0, ±1)` or
    /// `(±1, ±0)` exactly, every projection on it is a corner's coordinate or its negation
    /// exactly, and the gap along it is one of the two differences of boxes [`box_gap`] takes.
    /// 0 when not; 1 when its front and rear edges run along x, 2 when they run along y.
    aligned: u8,
    /// Aligned, with every coordinate within ±10¹⁰⁰ and every edge at least 10⁻¹⁰⁰ long: no
    /// step of the edge contact's arithmetic overflows, underflows or makes a NaN, which
    /// [`aligned_edges_apart`] relies on.
    moderate: bool,
}

impl RectOutline {
    /// The outline of the rectangle with corners `c` ([`ElementRect::corners`] order).
    pub(crate) fn of_corners(c: [Point; 4]) -> RectOutline {
        let mut len = [0.0; 4];
        // Which edges run along x (their ends share y) and which along y, as bits 0 to 3.
        let (mut along_x, mut along_y) = (0u8, 0u8);
        for i in 0..4 {
            let d = c[(i + 1) % 4] - c[i];
            along_x |= u8::from(d.y == 0.0) << i;
            along_y |= u8::from(d.x == 0.0) << i;
            len[i] = edge_length(d);
        }
        // Edges along x and y in turn, each of a length that is neither zero nor beyond the
        // largest float (so every corner is finite too: a difference with an infinite or NaN end
        // is not finite).
        let aligned = match (along_x, along_y) {
            _ if !len.iter().all(|&l| l != 0.0 && l.is_finite()) => 0,
            (0b0101, 0b1010) => 1,
            (0b1010, 0b0101) => 2,
            _ => 0,
        };
        let moderate = aligned != 0
            && c.iter().all(|p| p.x.abs() <= 1e100 && p.y.abs() <= 1e100)
            && len.iter().all(|&l| l >= 1e-100);
        let mut o = RectOutline {
            c,
            len,
            axis: [Point::new(0.0, 0.0); 4],
            own: [(0.0, 0.0); 4],
            aligned,
            moderate,
        };
        if aligned == 0 {
            for i in 0..4 {
                (o.axis[i], o.own[i]) = o.axis_and_own(i);
            }
        }
        o
    }

    /// Edge `i`'s axis and the rectangle's own projection on it, worked out from the corners
    /// (for an edge of length zero, which the gap skips, the zero axis).
    #[inline]
    fn axis_and_own(&self, i: usize) -> (Point, (f64, f64)) {
        let (c, l) = (&self.c, self.len[i]);
        let d = c[(i + 1) % 4] - c[i];
        let axis = if l != 0.0 {
            Point::new(-d.y / l, d.x / l)
        } else {
            Point::new(0.0, 0.0)
        };
        (axis, projection(c, axis))
    }

    /// Edge `i`'s axis and own projection: kept, or worked out for an aligned rectangle.
    #[inline]
    fn axis_and_own_kept(&self, i: usize) -> (Point, (f64, f64)) {
        if self.aligned == 0 {
            (self.axis[i], self.own[i])
        } else {
            self.axis_and_own(i)
        }
    }

    /// The outline of `r`.
    pub(crate) fn of(r: &ElementRect) -> RectOutline {
        RectOutline::of_corners(r.corners())
    }

    /// The corners the outline was made of.
    pub(crate) fn corners(&self) -> &[Point; 4] {
        &self.c
    }
}

/// [`crate::geometry::convex_gap_up_to`] of two rectangles from their outlines: the same axes in the same order,
/// the same projections and the same early stop, without working the axes out again.
fn outline_gap_up_to(a: &RectOutline, b: &RectOutline, limit: f64) -> f64 {
    /// The gap along `src`'s axes; `src_is_a` says which side of the gap its own projections
    /// (kept in the outline) stand for.
    fn axes_gap(src: &RectOutline, other: &[Point; 4], src_is_a: bool, best: &mut f64, limit: f64) {
        for i in 0..4 {
            if src.len[i] == 0.0 {
                continue;
            }
            let (axis, mine) = src.axis_and_own_kept(i);
            let theirs = projection(other, axis);
            let ((amin, amax), (bmin, bmax)) = if src_is_a {
                (mine, theirs)
            } else {
                (theirs, mine)
            };
            *best = best.max((bmin - amax).max(amin - bmax));
            if *best > limit {
                return;
            }
        }
    }
    let mut best = f64::NEG_INFINITY;
    axes_gap(a, &b.c, true, &mut best, limit);
    if best > limit {
        return best;
    }
    axes_gap(b, &a.c, false, &mut best, limit);
    best
}

/// `d.length()` to the bit: a hypotenuse with one side zero is the other side's magnitude
/// (`hypot(x, ±0)` is `|x|`, infinities included), so a side along a board axis needs no
/// square root. A NaN goes to the hypotenuse, which gives it as it always has.
fn edge_length(d: Point) -> f64 {
    if d.y == 0.0 && !d.x.is_nan() {
        d.x.abs()
    } else if d.x == 0.0 && !d.y.is_nan() {
        d.y.abs()
    } else {
        d.length()
    }
}

/// The box of an aligned rectangle ([`RectOutline::aligned`]): least and greatest x, then least
/// and greatest y. Opposite corners differ in both coordinates, so two of them give the box.
fn aligned_box(c: &[Point; 4]) -> (f64, f64, f64, f64) {
    // Finite and different in both coordinates (its edges have lengths), so plain comparisons.
    let (p, q) = (c[0], c[2]);
    let (x0, x1) = if p.x < q.x { (p.x, q.x) } else { (q.x, p.x) };
    let (y0, y1) = if p.y < q.y { (p.y, q.y) } else { (q.y, p.y) };
    (x0, x1, y0, y1)
}

/// [`outline_gap_up_to`] of two aligned rectangles, as far as anyone compares it with a limit:
/// every axis of either is a board axis, and the gap along a board axis is the same difference of
/// the two boxes (projections on a negated axis are the negated coordinates, and
/// `(-a) - (-b)` is `b - a` to the bit), so the greatest over the axes is the greatest of the two
/// differences, and the early stop at a limit is above the limit exactly when this is.
fn box_gap(a: &RectOutline, b: &RectOutline) -> f64 {
    let (ax0, ax1, ay0, ay1) = aligned_box(&a.c);
    let (bx0, bx1, by0, by1) = aligned_box(&b.c);
    // Differences of finite numbers are never NaN, so plain comparisons pick the greatest (the
    // sign of a zero, which only a comparison with a limit sees, does not matter).
    let greater = |u: f64, v: f64| if u < v { v } else { u };
    greater(greater(bx0 - ax1, ax0 - bx1), greater(by0 - ay1, ay0 - by1))
}

/// The least and greatest of `pts` projected on `axis`, in order (as the separating-axis gap
/// folds them).
fn projection(pts: &[Point; 4], axis: Point) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for p in pts {
        let v = p.dot(axis);
        lo = lo.min(v);
        hi = hi.max(v);
    }
    (lo, hi)
}

fn corner_of(c: &[Point; 4], k: Corner) -> Point {
    match k {
        Corner::FrontLeft => c[0],
        Corner::FrontRight => c[1],
        Corner::RearRight => c[2],
        Corner::RearLeft => c[3],
    }
}

fn is_side(e: Edge) -> bool {
    matches!(e, Edge::Left | Edge::Right)
}

/// Length along which two edges lie against each other, if more than [`TOLERANCE`].
///
/// The edges must run in opposite directions (both rectangles list their edges clockwise, so edges
/// facing each other are antiparallel) and both ends of the shared portion must be within
/// [`TOLERANCE`] of the other edge.
pub fn edge_contact_length(ea: Segment, eb: Segment) -> Option<f64> {
    let (la, lb) = ((ea.b - ea.a).length(), (eb.b - eb.a).length());
    edge_contact_length_of(ea, eb, la, lb)
}

/// [`edge_contact_length`] of edges whose lengths (`(b - a).length()` of each) are known.
fn edge_contact_length_of(ea: Segment, eb: Segment, la: f64, lb: f64) -> Option<f64> {
    let da = ea.b - ea.a;
    let db = eb.b - eb.a;
    if la == 0.0 || lb == 0.0 {
        return None;
    }
    let ua = da * (1.0 / la);
    let ub = db * (1.0 / lb);
    if ua.dot(ub) > -0.5 {
        return None;
    }
    let s0 = (eb.a - ea.a).dot(ua);
    let s1 = (eb.b - ea.a).dot(ua);
    let lo = s0.min(s1).max(0.0);
    let hi = s0.max(s1).min(la);
    if hi - lo <= TOLERANCE {
        return None;
    }
    let span = s1 - s0;
    for s in [lo, hi] {
        let pa = ea.a + ua * s;
        let pb = eb.a + db * ((s - s0) / span);
        // `distance_to_point(..) > TOLERANCE` of each, decided on squares when clear (#15).
        if beyond_tolerance(eb.closest_point(pa) - pa)
            || beyond_tolerance(ea.closest_point(pb) - pb)
        {
            return None;
        }
    }
    Some(hi - lo)
}

fn rect_cmp(a: &ElementRect, b: &ElementRect) -> Ordering {
    a.pose
        .x
        .total_cmp(&b.pose.x)
        .then(a.pose.y.total_cmp(&b.pose.y))
        .then(a.pose.facing.total_cmp(&b.pose.facing))
        .then(a.width.total_cmp(&b.width))
        .then(a.depth.total_cmp(&b.depth))
}

/// Classify how `a` touches `b`; `None` when they are further apart than [`TOLERANCE`].
///
/// The answer from `b`'s side is always `classify_contact(a, b).map(|c| c.swapped())`.
pub fn classify_contact(a: &ElementRect, b: &ElementRect) -> Option<Contact> {
    if clearly_apart(a, b) {
        return None;
    }
    if rect_cmp(a, b) == Ordering::Greater {
        classify_ordered(b, a).map(|c| c.swapped())
    } else {
        classify_ordered(a, b)
    }
}

/// A refusal without trigonometry, for the commonest case of every contact question (two
/// elements far apart): every point of a rectangle lies within `width / 2 + depth` of its front
/// midpoint (its pose), so when the poses are further apart than the sum of those reaches plus a
/// margin of four tolerances, the exact gap would be more than [`TOLERANCE`] too and
/// [`classify_ordered`] would answer `None`. The margin is far above any rounding of the exact
/// test, so the answer is always the same as without this pre-test; non-finite numbers never
/// refuse here (the exact test decides them as before).
/// [`classify_contact`] of two rectangles whose outlines ([`RectOutline::of`]) are already known.
pub(crate) fn classify_with_outlines(
    (a, ca): (&ElementRect, &RectOutline),
    (b, cb): (&ElementRect, &RectOutline),
) -> Option<Contact> {
    if clearly_apart(a, b) {
        return None;
    }
    classify_known_outlines((a, ca), (b, cb))
}

/// [`classify_with_outlines`] without the pose-distance refusal, for a caller whose own box test
/// has already let through only pairs that refusal would not refuse, or whose refusal would
/// change nothing (it never changes an answer, only skips work).
fn classify_known_outlines(
    (a, ca): (&ElementRect, &RectOutline),
    (b, cb): (&ElementRect, &RectOutline),
) -> Option<Contact> {
    if rect_cmp(a, b) == Ordering::Greater {
        classify_outlines(cb, ca).map(|c| c.swapped())
    } else {
        classify_outlines(ca, cb)
    }
}

fn clearly_apart(a: &ElementRect, b: &ElementRect) -> bool {
    let reach =
        0.5 * (a.width.abs() + b.width.abs()) + a.depth.abs() + b.depth.abs() + 4.0 * TOLERANCE;
    let dx = a.pose.x - b.pose.x;
    let dy = a.pose.y - b.pose.y;
    if !(dx.is_finite() && dy.is_finite() && reach.is_finite()) {
        return false;
    }
    dx.abs() > reach || dy.abs() > reach || dx * dx + dy * dy > reach * reach
}

fn classify_ordered(a: &ElementRect, b: &ElementRect) -> Option<Contact> {
    classify_outlines(&RectOutline::of(a), &RectOutline::of(b))
}

/// [`classify_ordered`] of two rectangles given by their outlines ([`RectOutline`]), so that a
/// scan works each rectangle's corners, edge lengths and axes out once, not once per pair.
fn classify_outlines(oa: &RectOutline, ob: &RectOutline) -> Option<Contact> {
    let (ca, cb) = (oa.c, ob.c);
    // Only compared with the tolerance below, so the gap may stop at the first axis above it;
    // two rectangles along the board's axes (most of a battle line) take it from their boxes.
    let gap = if oa.aligned != 0 && ob.aligned != 0 {
        box_gap(oa, ob)
    } else {
        outline_gap_up_to(oa, ob, TOLERANCE)
    };
    if gap > TOLERANCE {
        return None;
    }
    if gap < -TOLERANCE {
        return Some(Contact {
            kind: ContactKind::Intersecting,
            a: None,
            b: None,
            shared_length: 0.0,
            lined_up: false,
        });
    }
    // Edge to edge: the longest shared portion wins (two rectangles that do not interpenetrate
    // can share only one edge pair; the maximum only settles near-degenerate ties).
    let mut best: Option<(Edge, Edge, f64)> = None;
    // Each edge's length once, not once per pair of edges (the outline's, the same numbers as
    // `edge_of(..).length()`: a hypotenuse does not depend on the signs of its sides).
    let (length_a, length_b) = (oa.len, ob.len);
    // Each edge's direction once, not once per pair of edges; segments and midpoints only for
    // the pairs that run opposite ways (the same arithmetic as `edge_of(..)`'s `b - a` and
    // `midpoint()`, so the same bits, #15).
    let dirs = |c: &[Point; 4]| [c[1] - c[0], c[2] - c[1], c[3] - c[2], c[0] - c[3]];
    let (dirs_a, dirs_b) = (dirs(&ca), dirs(&cb));
    /// One pair of edges, `i` of A and `j` of B, kept in `best` if it is the longest contact
    /// so far; inlined, so that the few pairs an aligned pair tries cost no calls.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn try_pair(
        (ca, cb): (&[Point; 4], &[Point; 4]),
        (dirs_a, dirs_b): (&[Point; 4], &[Point; 4]),
        (length_a, length_b): (&[f64; 4], &[f64; 4]),
        best: &mut Option<(Edge, Edge, f64)>,
        i: usize,
        j: usize,
    ) {
        // Cheap rejections first: edges that do not run opposite ways, or whose midpoints are
        // too far apart for the edges to meet.
        // (A distance is never below either of its sides, so midpoints further apart than
        // the limit along an axis are refused without the square root.)
        if dirs_a[i].dot(dirs_b[j]) >= 0.0 {
            return;
        }
        let (ea, eb) = (EDGES[i], EDGES[j]);
        let (sa, sb) = (edge_of(ca, ea), edge_of(cb, eb));
        let limit = 0.5 * (length_a[i] + length_b[j]) + TOLERANCE;
        let gap = sa.midpoint() - sb.midpoint();
        if gap.x.abs() > limit || gap.y.abs() > limit || !midpoints_within(gap, limit) {
            return;
        }
        if let Some(len) = edge_contact_length_of(sa, sb, length_a[i], length_b[j]) {
            if best.is_none_or(|(_, _, l)| len > l) {
                *best = Some((ea, eb, len));
            }
        }
    }
    let mut try_pair = |i: usize, j: usize| {
        try_pair(
            (&ca, &cb),
            (&dirs_a, &dirs_b),
            (&length_a, &length_b),
            &mut best,
            i,
            j,
        )
    };
    if oa.aligned != 0 && ob.aligned != 0 {
        // Two aligned rectangles: an edge of one along x and one of the other along y have the
        // dot product ±0 (each has a zero side), which the test above refuses; so only the
        // edges of B along A's edge's axis are tried, in the same order.
        let shift = usize::from(oa.aligned != ob.aligned);
        for i in 0..4 {
            let j = (i + shift) % 2;
            // Edge `i` of A runs along x when A's front does and `i` is even (or neither), and
            // B's edges `j` along the same axis; each edge's ends share the other coordinate.
            let along_x = (oa.aligned == 1) == (i % 2 == 0);
            for j in [j, j + 2] {
                if oa.moderate && ob.moderate && aligned_edges_apart(&ca, i, &cb, j, along_x) {
                    continue;
                }
                try_pair(i, j);
            }
        }
    } else {
        for i in 0..4 {
            for j in 0..4 {
                try_pair(i, j);
            }
        }
    }
    if let Some((ea, eb, len)) = best {
        // `Point::near` of the two corners, decided on squares when clear (#15).
        let near = |p: Corner, q: Corner| within_tolerance(corner_of(&ca, p) - corner_of(&cb, q));
        let (kind, lined_up) = match (ea, eb) {
            (Edge::Front, Edge::Front) => (
                ContactKind::FrontToFront,
                near(Corner::FrontLeft, Corner::FrontRight)
                    && near(Corner::FrontRight, Corner::FrontLeft),
            ),
            (Edge::Front, Edge::Rear) => (
                ContactKind::FrontToRear,
                near(Corner::FrontLeft, Corner::RearLeft)
                    && near(Corner::FrontRight, Corner::RearRight),
            ),
            (Edge::Rear, Edge::Front) => (
                ContactKind::RearToFront,
                near(Corner::RearLeft, Corner::FrontLeft)
                    && near(Corner::RearRight, Corner::FrontRight),
            ),
            (Edge::Front, side) if is_side(side) => {
                let theirs = if side == Edge::Left {
                    Corner::FrontLeft
                } else {
                    Corner::FrontRight
                };
                (
                    ContactKind::FrontToSide,
                    near(Corner::FrontLeft, theirs) || near(Corner::FrontRight, theirs),
                )
            }
            (side, Edge::Front) if is_side(side) => {
                let mine = if side == Edge::Left {
                    Corner::FrontLeft
                } else {
                    Corner::FrontRight
                };
                (
                    ContactKind::SideToFront,
                    near(mine, Corner::FrontLeft) || near(mine, Corner::FrontRight),
                )
            }
            (x, y) if is_side(x) && is_side(y) => (ContactKind::SideToSide, false),
            _ => (ContactKind::OtherEdges, false),
        };
        return Some(Contact {
            kind,
            a: Some(ContactPart::Edge(ea)),
            b: Some(ContactPart::Edge(eb)),
            shared_length: len,
            lined_up,
        });
    }
    // Corner to corner: the nearest pair within tolerance.
    let mut best_c: Option<(Corner, Corner, f64)> = None;
    for (i, p) in ca.iter().enumerate() {
        for (j, q) in cb.iter().enumerate() {
            // A distance is never below either of its sides: corners further apart than the
            // tolerance along an axis are refused without the square root.
            if (p.x - q.x).abs() > TOLERANCE || (p.y - q.y).abs() > TOLERANCE {
                continue;
            }
            let d = p.distance(*q);
            if d <= TOLERANCE && best_c.is_none_or(|(_, _, bd)| d < bd) {
                best_c = Some((CORNERS[i], CORNERS[j], d));
            }
        }
    }
    if let Some((p, q, _)) = best_c {
        return Some(Contact {
            kind: ContactKind::CornerToCorner,
            a: Some(ContactPart::Corner(p)),
            b: Some(ContactPart::Corner(q)),
            shared_length: 0.0,
            lined_up: false,
        });
    }
    // Corner to edge, either way round.
    let mut best_e: Option<(ContactKind, ContactPart, ContactPart, f64)> = None;
    for (i, p) in ca.iter().enumerate() {
        for eb in EDGES {
            if clearly_beyond(edge_of(&cb, eb), *p) {
                continue;
            }
            let d = edge_of(&cb, eb).distance_to_point(*p);
            if d <= TOLERANCE && best_e.as_ref().is_none_or(|x| d < x.3) {
                best_e = Some((
                    ContactKind::CornerToEdge,
                    ContactPart::Corner(CORNERS[i]),
                    ContactPart::Edge(eb),
                    d,
                ));
            }
        }
    }
    for (j, q) in cb.iter().enumerate() {
        for ea in EDGES {
            if clearly_beyond(edge_of(&ca, ea), *q) {
                continue;
            }
            let d = edge_of(&ca, ea).distance_to_point(*q);
            if d <= TOLERANCE && best_e.as_ref().is_none_or(|x| d < x.3) {
                best_e = Some((
                    ContactKind::EdgeToCorner,
                    ContactPart::Edge(ea),
                    ContactPart::Corner(CORNERS[j]),
                    d,
                ));
            }
        }
    }
    best_e.map(|(kind, pa, pb, _)| Contact {
        kind,
        a: Some(pa),
        b: Some(pb),
        shared_length: 0.0,
        lined_up: false,
    })
}

/// Whether edge `i` of A and edge `j` of B, edges of moderate aligned rectangles
/// ([`RectOutline::moderate`]) along the same board axis (along x when `along_x`), lie on lines
/// more than two tolerances apart: then [`edge_contact_length_of`] refuses them, to the same
/// `None`. Its points on A's edge keep A's line coordinate exactly (the unit direction's other
/// side is `0 * (1 / l)`, a zero, and every step is finite) and so do the nearest points on B's
/// edge (`0 * t` again, `t` finite), so the first distance it measures has the side
/// `cb[j] - ca[i]` across the lines, this very difference, and its square alone is beyond the
/// tolerance's (#15).
fn aligned_edges_apart(
    ca: &[Point; 4],
    i: usize,
    cb: &[Point; 4],
    j: usize,
    along_x: bool,
) -> bool {
    let across = if along_x {
        cb[j].y - ca[i].y
    } else {
        cb[j].x - ca[i].x
    };
    across.abs() > 2.0 * TOLERANCE
}

/// `!(gap.length() > limit)`, without the square root when the squared length is clearly
/// inside or clearly outside (a margin of a millionth of the limit, far above the rounding of
/// either side); the hypotenuse decides the rest exactly as before (#15).
fn midpoints_within(gap: Point, limit: f64) -> bool {
    let inside = limit * (1.0 - 1e-6);
    let squared = gap.x * gap.x + gap.y * gap.y;
    if limit.is_finite() && limit > 0.0 && squared < inside * inside {
        return true;
    }
    // Outside: only for a limit whose square is far from underflow and overflow, so that the
    // squares keep their relative precision (a NaN compares false and goes on).
    let outside = limit * (1.0 + 1e-6);
    if (1e-100..=1e100).contains(&limit) && squared > outside * outside {
        return false;
    }
    // Not `<=`: a NaN length is not refused here, as before.
    !matches!(gap.length().partial_cmp(&limit), Some(Ordering::Greater))
}

/// Whether `p` lies further than [`TOLERANCE`] outside the bounding box of `seg`, with a slack
/// far above any rounding of [`Segment::distance_to_point`] (whose nearest point lies in that box
/// up to rounding): then its distance to the segment is above the tolerance too, and the corner
/// tests need not work it out. Non-finite numbers are never beyond (the exact test decides them).
fn clearly_beyond(seg: Segment, p: Point) -> bool {
    let (a, b) = (seg.a, seg.b);
    let slack = TOLERANCE + 1e-9 * (1.0 + a.x.abs() + a.y.abs() + b.x.abs() + b.y.abs());
    p.x < a.x.min(b.x) - slack
        || p.x > a.x.max(b.x) + slack
        || p.y < a.y.min(b.y) - slack
        || p.y > a.y.max(b.y) + slack
}

/// Why an element overlaps an enemy (DBA3.md §10.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum OverlapKind {
    /// Front corners touching right-to-right or left-to-left.
    FrontCorners,
    /// Mutual side-edge contact, which always counts as overlap.
    SideEdges,
}

/// Whether `element` overlaps `enemy` (DBA3.md §10.4, §8.2 (d)).
///
/// * `element_in_frontal_combat`: the element has an enemy in front-edge contact; such an element
///   does not overlap by corners (it is fighting to its front).
/// * `enemy_is_psiloi_or_scythed_chariot`: Psiloi and Scythed Chariots are never overlapped by
///   corner-to-corner contact, though mutual side contact still overlaps them.
///
/// Front-edge contact against an enemy's side is a flank contact, not an overlap, and is reported by
/// [`classify_contact`] as [`ContactKind::FrontToSide`]. A battlefield edge never overlaps (§17.21);
/// only elements are looked at here.
pub fn overlap(
    element: &ElementRect,
    element_in_frontal_combat: bool,
    enemy: &ElementRect,
    enemy_is_psiloi_or_scythed_chariot: bool,
) -> Option<OverlapKind> {
    let c = classify_contact(element, enemy)?;
    overlap_of_contact(
        c,
        || element_in_frontal_combat,
        enemy_is_psiloi_or_scythed_chariot,
    )
}

/// [`overlap`] of an element whose contact with the enemy (seen from the element) is known;
/// whether it is in frontal combat is asked only when the answer depends on it.
pub(crate) fn overlap_of_contact(
    c: Contact,
    element_in_frontal_combat: impl Fn() -> bool,
    enemy_is_psiloi_or_scythed_chariot: bool,
) -> Option<OverlapKind> {
    match (c.kind, c.a, c.b) {
        (ContactKind::SideToSide, _, _) => Some(OverlapKind::SideEdges),
        (
            ContactKind::CornerToCorner,
            Some(ContactPart::Corner(p)),
            Some(ContactPart::Corner(q)),
        ) if !enemy_is_psiloi_or_scythed_chariot
            && p == q
            && matches!(p, Corner::FrontLeft | Corner::FrontRight)
            && !element_in_frontal_combat() =>
        {
            Some(OverlapKind::FrontCorners)
        }
        _ => None,
    }
}

/// One contact found by [`scan_contacts`], between the elements with ids `a` and `b`, where `a`
/// comes earlier in the scanned slice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ContactReport {
    /// The earlier element's id.
    pub a: u32,
    /// The later element's id.
    pub b: u32,
    /// Whether both belong to the same side (friends) or not (enemies).
    pub same_side: bool,
    /// The contact seen from `a`.
    pub contact: Contact,
}

/// Every contact among `elements` (id, side, rectangle), ordered by the slice positions of the pair.
///
/// Pairs are first filtered by bounding boxes on a sweep along x (sort by the boxes' left
/// ends), so a table of a few dozen elements costs little more than the touching pairs themselves.
pub fn scan_contacts<S: PartialEq>(elements: &[(u32, S, ElementRect)]) -> Vec<ContactReport> {
    scan(elements, false)
}

/// The contacts of [`scan_contacts`] between elements of different sides only, in the same
/// order: what close combat and conforming ask (§8.3, §10.2), without classifying the contacts
/// of every pair of friends standing side by side in a line.
pub fn scan_enemy_contacts<S: PartialEq>(elements: &[(u32, S, ElementRect)]) -> Vec<ContactReport> {
    scan(elements, true)
}

fn scan<S: PartialEq>(
    elements: &[(u32, S, ElementRect)],
    enemies_only: bool,
) -> Vec<ContactReport> {
    // Each rectangle's outline once (one sine and cosine, four square roots), and its bounding
    // box from the outline's corners, widened by four tolerances: two rectangles within one
    // tolerance of each other (the most a contact allows) always have overlapping widened boxes,
    // so the sweep below only ever lets through pairs the exact test then refuses, never the
    // reverse (#15). A rectangle with a non-finite corner is paired with every other.
    let outlines: Vec<RectOutline> = elements.iter().map(|e| RectOutline::of(&e.2)).collect();
    let boxes: Vec<(f64, f64, f64, f64)> = outlines.iter().map(scan_box).collect();
    // Sweep along x: sorted by the boxes' left ends (then by position), each box meets only
    // those starting before its right end.
    let mut order: Vec<usize> = (0..elements.len()).collect();
    sort_by(&mut order, |&p, &q| {
        boxes[p].0.total_cmp(&boxes[q].0).then(p.cmp(&q))
    });
    // Room for a contact an element at once: a battle line's count, without regrowing.
    let mut found: Vec<(usize, usize, Contact)> = Vec::with_capacity(elements.len());
    for (k, &p) in order.iter().enumerate() {
        let bp = boxes[p];
        for &q in &order[k + 1..] {
            let bq = boxes[q];
            if bq.0 > bp.2 {
                break;
            }
            if bq.1 > bp.3 || bp.1 > bq.3 {
                continue;
            }
            if enemies_only && elements[p].1 == elements[q].1 {
                continue;
            }
            let (i, j) = if p < q { (p, q) } else { (q, p) };
            // The pose-distance refusal of `classify_with_outlines` never changes an answer, and
            // of pairs whose widened boxes meet it refuses few: the exact test decides them.
            if let Some(c) = classify_known_outlines(
                (&elements[i].2, &outlines[i]),
                (&elements[j].2, &outlines[j]),
            ) {
                found.push((i, j, c));
            }
        }
    }
    sort_by(&mut found, |x, y| (x.0, x.1).cmp(&(y.0, y.1)));
    found
        .into_iter()
        .map(|(i, j, contact)| ContactReport {
            a: elements[i].0,
            b: elements[j].0,
            same_side: elements[i].1 == elements[j].1,
            contact,
        })
        .collect()
}

/// The box the scan sweeps for a rectangle, widened by two tolerances each way (so two boxes of
/// rectangles within a tolerance of each other overlap): the least and greatest x and y of its
/// corners, or the whole plane when a corner is not finite (#15).
fn scan_box(o: &RectOutline) -> (f64, f64, f64, f64) {
    let reach = 2.0 * TOLERANCE;
    if o.aligned != 0 {
        // Two opposite corners give the extremes (the others repeat their coordinates, up to
        // the sign of a zero, which adding the reach erases).
        let (x0, x1, y0, y1) = aligned_box(&o.c);
        return (x0 - reach, y0 - reach, x1 + reach, y1 + reach);
    }
    let c = &o.c;
    if c.iter().all(|p| p.x.is_finite() && p.y.is_finite()) {
        let (mut b0, mut b1, mut b2, mut b3) = (c[0].x, c[0].y, c[0].x, c[0].y);
        for p in &c[1..] {
            b0 = b0.min(p.x);
            b1 = b1.min(p.y);
            b2 = b2.max(p.x);
            b3 = b3.max(p.y);
        }
        (b0 - reach, b1 - reach, b2 + reach, b3 + reach)
    } else {
        (
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
            f64::INFINITY,
            f64::INFINITY,
        )
    }
}

/// Sort `v` by `cmp`, a total order under which no two items are equal (so every sort gives the
/// same order): by insertion for the few dozen items of a table, which the sweep meets nearly in
/// order, and by the library's sort beyond (#15).
fn sort_by<T>(v: &mut [T], cmp: impl Fn(&T, &T) -> Ordering) {
    if v.len() > 32 {
        v.sort_unstable_by(cmp);
        return;
    }
    for k in 1..v.len() {
        let mut m = k;
        while m > 0 && cmp(&v[m], &v[m - 1]) == Ordering::Less {
            v.swap(m, m - 1);
            m -= 1;
        }
    }
}

/// Signed distance of `p` beyond the line of `edge` of `rect` (positive outside the element).
fn beyond(rect: &ElementRect, edge: Edge, p: Point) -> f64 {
    let s = rect.edge(edge);
    let d = s.b - s.a;
    let n = Point::new(-d.y, d.x) * (1.0 / d.length());
    (p - s.a).dot(n)
}

/// Whether a mover standing at `mover` may move into contact with `edge` of the enemy `target`
/// (DBA3.md §8.4).
///
/// * Front edge: no geometric restriction here.
/// * Side edge: the mover must start entirely beyond the line extending that side edge, or partly
///   beyond both that line and the rear edge's line. "Partly beyond both" is read as: some part of
///   the mover lies beyond both lines at once (in the quarter behind and outside that rear corner).
/// * Rear edge: the mover must start wholly beyond the line extending the rear edge.
///
/// A point on a line, or within [`TOLERANCE`] of it, counts as beyond it for "entirely/wholly
/// beyond" (an element whose own edge lies along the line is not on the target's side of it);
/// "partly beyond" needs more than [`TOLERANCE`].
pub fn may_contact_edge(mover: &ElementRect, target: &ElementRect, edge: Edge) -> bool {
    let corners = mover.corners();
    let wholly_beyond = |e: Edge| corners.iter().all(|&p| beyond(target, e, p) >= -TOLERANCE);
    match edge {
        Edge::Front => true,
        Edge::Rear => wholly_beyond(Edge::Rear),
        side => {
            if wholly_beyond(side) {
                return true;
            }
            // Greatest value over the mover of min(beyond side, beyond rear): a concave function on a
            // convex polygon, so it peaks at a corner or where the two distances are equal on an edge.
            let f = |p: Point| beyond(target, side, p).min(beyond(target, Edge::Rear, p));
            let mut best = corners
                .iter()
                .map(|&p| f(p))
                .fold(f64::NEG_INFINITY, f64::max);
            for i in 0..4 {
                let (p, q) = (corners[i], corners[(i + 1) % 4]);
                let gp = beyond(target, side, p) - beyond(target, Edge::Rear, p);
                let gq = beyond(target, side, q) - beyond(target, Edge::Rear, q);
                if (gp <= 0.0) != (gq <= 0.0) {
                    let t = gp / (gp - gq);
                    best = best.max(f(p + (q - p) * t));
                }
            }
            best > TOLERANCE
        }
    }
}

#[cfg(test)]
mod pre_test_agreement {
    use super::*;
    use crate::geometry::{boxes_apart, convex_gap, exact_bits, tolerance_side, Pose};

    /// A small xorshift generator, so the random cases are the same on every run.
    fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        }
    }

    /// Pairs of rectangles around the reach of the pre-tests: grid positions (the 2^-12 BW storage
    /// grid makes exact touches common), a spread of bearings and the base depths of §1.3.
    fn pairs() -> Vec<(ElementRect, ElementRect)> {
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        let depths = [0.5, 0.75, 1.0, 1.5, 2.0];
        let facings = [0.0, 90.0, 180.0, 270.0, 45.0, 30.0, 137.5];
        (0..20_000)
            .map(|_| {
                let at = |n: u64| (n % 32_768) as f64 / 4096.0;
                let a = ElementRect::new(
                    Pose::new(0.0, 0.0, facings[(next() % 7) as usize]),
                    1.0,
                    depths[(next() % 5) as usize],
                );
                let b = ElementRect::new(
                    Pose::new(
                        at(next()) - 2.0,
                        at(next()) - 2.0,
                        facings[(next() % 7) as usize],
                    ),
                    1.0,
                    depths[(next() % 5) as usize],
                );
                (a, b)
            })
            .collect()
    }

    // DBA3.md §0.3: contact is decided within the tolerance; the cheap refusals in front of the
    // exact tests (issue #15) must never change an answer.
    #[test]
    fn pose_distance_refusal_agrees_with_the_exact_classification() {
        let mut refused = 0;
        for (a, b) in pairs() {
            let exact = if rect_cmp(&a, &b) == Ordering::Greater {
                classify_ordered(&b, &a).map(|c| c.swapped())
            } else {
                classify_ordered(&a, &b)
            };
            if clearly_apart(&a, &b) {
                refused += 1;
                assert_eq!(exact, None, "{a:?} {b:?}");
            }
            assert_eq!(classify_contact(&a, &b), exact, "{a:?} {b:?}");
        }
        assert!(
            refused > 1000,
            "the sample reaches the pre-test ({refused})"
        );
    }

    // DBA3.md §0.3: the outline kept per rectangle (#15) gives the separating-axis gap and the
    // edge lengths bit for bit as worked out afresh from the corners, and the corner refusals
    // without square roots only refuse corners and edges further apart than the tolerance.
    #[test]
    fn outlines_and_corner_refusals_agree_with_a_fresh_computation() {
        use crate::geometry::convex_gap_up_to;
        let mut beyond = 0;
        for (a, b) in pairs() {
            let (oa, ob) = (RectOutline::of(&a), RectOutline::of(&b));
            for limit in [TOLERANCE, f64::INFINITY] {
                assert_eq!(
                    outline_gap_up_to(&oa, &ob, limit).to_bits(),
                    convex_gap_up_to(&a.corners(), &b.corners(), limit).to_bits(),
                    "{a:?} {b:?}"
                );
            }
            for (k, e) in EDGES.into_iter().enumerate() {
                assert_eq!(oa.len[k].to_bits(), edge_of(&oa.c, e).length().to_bits());
                for p in ob.c {
                    if clearly_beyond(edge_of(&oa.c, e), p) {
                        beyond += 1;
                        assert!(edge_of(&oa.c, e).distance_to_point(p) > TOLERANCE);
                    }
                }
            }
        }
        assert!(beyond > 1000, "the sample reaches the refusal ({beyond})");
    }

    /// The classification written plainly, as it stood before the outlines (#15): the same
    /// decisions on `Segment` and `Point` arithmetic, the gap afresh from the corners.
    fn classify_reference(a: &ElementRect, b: &ElementRect) -> Option<Contact> {
        if rect_cmp(a, b) == Ordering::Greater {
            return classify_reference(b, a).map(|c| c.swapped());
        }
        let (ca, cb) = (a.corners(), b.corners());
        // Only compared with the tolerance below, so the gap may stop at the first axis above it.
        let gap = crate::geometry::convex_gap_up_to(&ca, &cb, TOLERANCE);
        if gap > TOLERANCE {
            return None;
        }
        if gap < -TOLERANCE {
            return Some(Contact {
                kind: ContactKind::Intersecting,
                a: None,
                b: None,
                shared_length: 0.0,
                lined_up: false,
            });
        }
        // Edge to edge: the longest shared portion wins (two rectangles that do not interpenetrate
        // can share only one edge pair; the maximum only settles near-degenerate ties).
        let mut best: Option<(Edge, Edge, f64)> = None;
        // Each edge's length once, not once per pair of edges.
        let lengths = |c: &[Point; 4]| EDGES.map(|e| edge_of(c, e).length());
        let (length_a, length_b) = (lengths(&ca), lengths(&cb));
        for (i, ea) in EDGES.into_iter().enumerate() {
            let sa = edge_of(&ca, ea);
            for (j, eb) in EDGES.into_iter().enumerate() {
                let sb = edge_of(&cb, eb);
                // Cheap rejections first: edges that do not run opposite ways, or whose midpoints are
                // too far apart for the edges to meet.
                // (A distance is never below either of its sides, so midpoints further apart than
                // the limit along an axis are refused without the square root.)
                let limit = 0.5 * (length_a[i] + length_b[j]) + TOLERANCE;
                let gap = sa.midpoint() - sb.midpoint();
                if (sa.b - sa.a).dot(sb.b - sb.a) >= 0.0
                    || gap.x.abs() > limit
                    || gap.y.abs() > limit
                    || sa.midpoint().distance(sb.midpoint()) > limit
                {
                    continue;
                }
                if let Some(len) = edge_contact_length_of(sa, sb, length_a[i], length_b[j]) {
                    if best.is_none_or(|(_, _, l)| len > l) {
                        best = Some((ea, eb, len));
                    }
                }
            }
        }
        if let Some((ea, eb, len)) = best {
            let near = |p: Corner, q: Corner| corner_of(&ca, p).near(corner_of(&cb, q));
            let (kind, lined_up) = match (ea, eb) {
                (Edge::Front, Edge::Front) => (
                    ContactKind::FrontToFront,
                    near(Corner::FrontLeft, Corner::FrontRight)
                        && near(Corner::FrontRight, Corner::FrontLeft),
                ),
                (Edge::Front, Edge::Rear) => (
                    ContactKind::FrontToRear,
                    near(Corner::FrontLeft, Corner::RearLeft)
                        && near(Corner::FrontRight, Corner::RearRight),
                ),
                (Edge::Rear, Edge::Front) => (
                    ContactKind::RearToFront,
                    near(Corner::RearLeft, Corner::FrontLeft)
                        && near(Corner::RearRight, Corner::FrontRight),
                ),
                (Edge::Front, side) if is_side(side) => {
                    let theirs = if side == Edge::Left {
                        Corner::FrontLeft
                    } else {
                        Corner::FrontRight
                    };
                    (
                        ContactKind::FrontToSide,
                        near(Corner::FrontLeft, theirs) || near(Corner::FrontRight, theirs),
                    )
                }
                (side, Edge::Front) if is_side(side) => {
                    let mine = if side == Edge::Left {
                        Corner::FrontLeft
                    } else {
                        Corner::FrontRight
                    };
                    (
                        ContactKind::SideToFront,
                        near(mine, Corner::FrontLeft) || near(mine, Corner::FrontRight),
                    )
                }
                (x, y) if is_side(x) && is_side(y) => (ContactKind::SideToSide, false),
                _ => (ContactKind::OtherEdges, false),
            };
            return Some(Contact {
                kind,
                a: Some(ContactPart::Edge(ea)),
                b: Some(ContactPart::Edge(eb)),
                shared_length: len,
                lined_up,
            });
        }
        // Corner to corner: the nearest pair within tolerance.
        let mut best_c: Option<(Corner, Corner, f64)> = None;
        for (i, p) in ca.iter().enumerate() {
            for (j, q) in cb.iter().enumerate() {
                // A distance is never below either of its sides: corners further apart than the
                // tolerance along an axis are refused without the square root.
                if (p.x - q.x).abs() > TOLERANCE || (p.y - q.y).abs() > TOLERANCE {
                    continue;
                }
                let d = p.distance(*q);
                if d <= TOLERANCE && best_c.is_none_or(|(_, _, bd)| d < bd) {
                    best_c = Some((CORNERS[i], CORNERS[j], d));
                }
            }
        }
        if let Some((p, q, _)) = best_c {
            return Some(Contact {
                kind: ContactKind::CornerToCorner,
                a: Some(ContactPart::Corner(p)),
                b: Some(ContactPart::Corner(q)),
                shared_length: 0.0,
                lined_up: false,
            });
        }
        // Corner to edge, either way round.
        let mut best_e: Option<(ContactKind, ContactPart, ContactPart, f64)> = None;
        for (i, p) in ca.iter().enumerate() {
            for eb in EDGES {
                if clearly_beyond(edge_of(&cb, eb), *p) {
                    continue;
                }
                let d = edge_of(&cb, eb).distance_to_point(*p);
                if d <= TOLERANCE && best_e.as_ref().is_none_or(|x| d < x.3) {
                    best_e = Some((
                        ContactKind::CornerToEdge,
                        ContactPart::Corner(CORNERS[i]),
                        ContactPart::Edge(eb),
                        d,
                    ));
                }
            }
        }
        for (j, q) in cb.iter().enumerate() {
            for ea in EDGES {
                if clearly_beyond(edge_of(&ca, ea), *q) {
                    continue;
                }
                let d = edge_of(&ca, ea).distance_to_point(*q);
                if d <= TOLERANCE && best_e.as_ref().is_none_or(|x| d < x.3) {
                    best_e = Some((
                        ContactKind::EdgeToCorner,
                        ContactPart::Edge(ea),
                        ContactPart::Corner(CORNERS[j]),
                        d,
                    ));
                }
            }
        }
        best_e.map(|(kind, pa, pb, _)| Contact {
            kind,
            a: Some(pa),
            b: Some(pb),
            shared_length: 0.0,
            lined_up: false,
        })
    }

    fn same_bits(x: &Option<Contact>, y: &Option<Contact>) -> bool {
        x == y
            && x.as_ref().map(|c| c.shared_length.to_bits())
                == y.as_ref().map(|c| c.shared_length.to_bits())
    }

    // DBA3.md §0.3, §8.2: the classification with the outline's kept numbers and the square
    // roots skipped when clear (#15) gives every contact exactly as before, to the bit.
    #[test]
    fn classification_is_the_reference_to_the_bit() {
        let mut touching = 0;
        for (a, b) in pairs() {
            let want = classify_reference(&a, &b);
            touching += usize::from(want.is_some());
            let got = classify_contact(&a, &b);
            assert!(same_bits(&got, &want), "{a:?} {b:?}: {got:?} {want:?}");
            let (oa, ob) = (RectOutline::of(&a), RectOutline::of(&b));
            let got = classify_with_outlines((&a, &oa), (&b, &ob));
            assert!(same_bits(&got, &want), "{a:?} {b:?}");
        }
        assert!(touching > 1000, "the sample reaches contacts ({touching})");
    }

    // DBA3.md §8.2: the box sweep of the scan (#15) finds exactly the contacts of every pair,
    // in pair order, on crowded tables cut from the sample.
    #[test]
    fn scan_finds_every_pair_contact() {
        let all = pairs();
        let mut found = 0;
        // Tables of 24 (sorted by insertion) and of 80 (by the library's sort).
        let tables = all.chunks(12).chain(all.chunks(40).take(100));
        for (t, chunk) in tables.enumerate() {
            let table: Vec<(u32, u8, ElementRect)> = chunk
                .iter()
                .enumerate()
                .flat_map(|(k, (a, b))| {
                    // Pairs side by side, 1.5 BW apart, so that pairs meet pairs too.
                    let dx = f64::from(k as u32 % 3) * 1.5;
                    let at = |r: &ElementRect| {
                        let p = Pose::new(r.pose.x + dx, r.pose.y, r.pose.facing);
                        ElementRect::new(p, r.width, r.depth)
                    };
                    let k = k as u32;
                    [
                        (2 * k, (k % 2) as u8, at(a)),
                        (2 * k + 1, ((k + t as u32) % 2) as u8, at(b)),
                    ]
                })
                .collect();
            for enemies_only in [false, true] {
                let mut want = Vec::new();
                for i in 0..table.len() {
                    for j in i + 1..table.len() {
                        if enemies_only && table[i].1 == table[j].1 {
                            continue;
                        }
                        if let Some(c) = classify_reference(&table[i].2, &table[j].2) {
                            want.push((table[i].0, table[j].0, c));
                        }
                    }
                }
                let got = scan(&table, enemies_only);
                assert_eq!(got.len(), want.len(), "table {t}");
                for (g, (a, b, c)) in got.iter().zip(&want) {
                    assert_eq!((g.a, g.b), (*a, *b), "table {t}");
                    assert!(same_bits(&Some(g.contact.clone()), &Some(c.clone())));
                }
                found += got.len();
            }
        }
        assert!(found > 1000, "the tables have contacts ({found})");
    }

    #[test]
    fn box_refusal_agrees_with_the_separating_axis_gap() {
        let mut refused = 0;
        for (a, b) in pairs() {
            let (ca, cb) = (a.corners(), b.corners());
            if boxes_apart(&ca, &cb, 0.0) {
                refused += 1;
                assert!(convex_gap(&ca, &cb) >= -TOLERANCE, "{a:?} {b:?}");
            }
            if boxes_apart(&ca, &cb, 1e-6) {
                assert!(convex_gap(&ca, &cb) > 1e-9, "{a:?} {b:?}");
            }
        }
        assert!(
            refused > 1000,
            "the sample reaches the pre-test ({refused})"
        );
    }
    /// A number in [0, 1) from the generator.
    fn unit(next: &mut impl FnMut() -> u64) -> f64 {
        (next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// One of `k` choices from the generator.
    fn pick(next: &mut impl FnMut() -> u64, k: usize) -> usize {
        ((unit(next) * k as f64) as usize).min(k - 1)
    }

    /// A width (most often 1) and a depth, zero and tiny among them.
    fn size(next: &mut impl FnMut() -> u64) -> (f64, f64) {
        let sizes = [1.0, 0.5, 0.75, 1.5, 2.0, 0.0, 1e-300, 3.0];
        let width = if pick(next, 6) == 0 {
            sizes[pick(next, 8)]
        } else {
            1.0
        };
        (width, sizes[pick(next, 8)])
    }

    /// Pairs of rectangles placed every way a contact can come about (#15): touching along any
    /// edge pair at an offset, square or a little turned, corner to corner, apart by about a
    /// tolerance, overlapping, along the board's axes on the storage grid, rotated at random,
    /// degenerate (width or depth zero), and with huge, tiny, infinite and NaN numbers.
    fn placed_pairs(n: usize, seed: u64) -> Vec<(ElementRect, ElementRect)> {
        let mut next = xorshift(seed);
        let next = &mut next;
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            let square = [0.0, 90.0, 180.0, 270.0];
            let facing_a = match pick(next, 4) {
                0 | 1 => square[pick(next, 4)],
                2 => (unit(next) * 360.0 * 4096.0).round() / 4096.0,
                _ => unit(next) * 360.0,
            };
            let (wa, da) = size(next);
            let (wb, db) = size(next);
            let grid = |v: f64| (v * 4096.0).round() / 4096.0;
            let (xa, ya) = match pick(next, 3) {
                0 => (0.0, 0.0),
                1 => (grid(unit(next) * 30.0), grid(unit(next) * 20.0)),
                _ => (unit(next) * 30.0 - 15.0, unit(next) * 20.0 - 10.0),
            };
            let a = ElementRect::new(Pose::new(xa, ya, facing_a), wa, da);
            let ca = a.corners();
            let offsets = [0.0, 1e-12, -1e-12, 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0];
            let off =
                offsets[pick(next, 10)] * TOLERANCE + if pick(next, 4) == 0 { 1e-15 } else { 0.0 };
            let turn = [0.0, 0.0, 0.0, 1e-9, -1e-9, 0.01, 1.0, 90.0, 180.0, 270.0][pick(next, 10)];
            let mut b = match pick(next, 6) {
                // Near at random, any facing.
                0 => ElementRect::new(
                    Pose::new(
                        xa + unit(next) * 4.0 - 2.0,
                        ya + unit(next) * 4.0 - 2.0,
                        unit(next) * 360.0,
                    ),
                    wb,
                    db,
                ),
                // An edge of B against an edge of A, moved along it and out by `off`.
                1 | 2 => {
                    let (k, m) = (pick(next, 4), pick(next, 4));
                    let (sa, along) = (edge_of(&ca, EDGES[k]), unit(next) * 2.0 - 0.5);
                    let d = sa.b - sa.a;
                    let l = d.length().max(1e-300);
                    let normal = Point::new(d.y / l, -d.x / l);
                    let target = sa.a + d * along + normal * off;
                    // B facing so that its edge `m` faces A's edge `k`, then turned a little.
                    let inward = facing_a + [180.0, 0.0, 90.0, 270.0][k];
                    let face = inward + [0.0, 270.0, 180.0, 90.0][m] + turn;
                    let trial = ElementRect::new(Pose::new(0.0, 0.0, face), wb, db);
                    let mid = edge_of(&trial.corners(), EDGES[m]).midpoint();
                    let at = target - mid;
                    ElementRect::new(Pose::new(at.x, at.y, face), wb, db)
                }
                // A corner of B on a corner of A, give or take `off`.
                3 => {
                    let face = facing_a + turn + [0.0, 90.0, 180.0, 270.0, 45.0][pick(next, 5)];
                    let trial = ElementRect::new(Pose::new(0.0, 0.0, face), wb, db);
                    let at =
                        ca[pick(next, 4)] - trial.corners()[pick(next, 4)] + Point::new(off, -off);
                    ElementRect::new(Pose::new(at.x, at.y, face), wb, db)
                }
                // On the storage grid, square to the board (exact touches are common).
                4 => ElementRect::new(
                    Pose::new(
                        xa + grid(unit(next) * 4.0 - 2.0),
                        ya + grid(unit(next) * 4.0 - 2.0),
                        square[pick(next, 4)],
                    ),
                    wb,
                    db,
                ),
                // Overlapping or inside.
                _ => ElementRect::new(
                    Pose::new(
                        xa + unit(next) - 0.5,
                        ya + unit(next) - 0.5,
                        facing_a + turn,
                    ),
                    wb,
                    db,
                ),
            };
            let mut a = a;
            match pick(next, 24) {
                0 => a.pose.x = f64::NAN,
                1 => b.pose.y = f64::INFINITY,
                2 => b.depth = f64::NAN,
                3 => b.pose.facing = f64::NEG_INFINITY,
                4 => a.width = f64::INFINITY,
                5 | 6 => {
                    // Huge or tiny: the same pair scaled.
                    let k = [1e300, 1e-300][pick(next, 2)];
                    for r in [&mut a, &mut b] {
                        r.pose.x *= k;
                        r.pose.y *= k;
                        r.width *= k;
                        r.depth *= k;
                    }
                }
                7 => b.pose.x = -0.0,
                _ => {}
            }
            out.push((a, b));
        }
        out
    }

    // DBA3.md §0.3, §8.2: the classifier with the box gap of aligned rectangles, the lengths
    // along the board's axes without a square root and the distance tests on squares (#15)
    // gives every contact exactly as the plain classifier, to the bit, on pairs placed every
    // way, either way round.
    #[test]
    fn classification_of_placed_pairs_is_the_reference_to_the_bit() {
        let (mut aligned, mut edges, mut corners, mut crossing, mut apart) = (0, 0, 0, 0, 0);
        for (a, b) in placed_pairs(120_000, 0x9e37_79b9_7f4a_7c15) {
            for (a, b) in [(a, b), (b, a)] {
                // The classifier as it stood: the pose pre-test, then the plain classification
                // (the pre-test refuses some degenerate pairs the plain gap calls intersecting).
                let want = if clearly_apart(&a, &b) {
                    None
                } else {
                    classify_reference(&a, &b)
                };
                let got = classify_contact(&a, &b);
                assert!(same_bits(&got, &want), "{a:?} {b:?}: {got:?} {want:?}");
                let (oa, ob) = (RectOutline::of(&a), RectOutline::of(&b));
                let got = classify_with_outlines((&a, &oa), (&b, &ob));
                assert!(same_bits(&got, &want), "{a:?} {b:?}: {got:?} {want:?}");
                aligned += usize::from(oa.aligned != 0 && ob.aligned != 0);
                match want.map(|c| c.kind) {
                    None => apart += 1,
                    Some(ContactKind::Intersecting) => crossing += 1,
                    Some(ContactKind::CornerToCorner)
                    | Some(ContactKind::CornerToEdge)
                    | Some(ContactKind::EdgeToCorner) => corners += 1,
                    Some(_) => edges += 1,
                }
            }
        }
        // The sample reaches every branch.
        for (what, n) in [
            ("aligned pairs", aligned),
            ("edge contacts", edges),
            ("corner contacts", corners),
            ("intersecting pairs", crossing),
            ("pairs apart", apart),
        ] {
            assert!(n > 2000, "{what}: {n}");
        }
    }

    // DBA3.md §0.3: an aligned outline's lengths and the box gap are what the outline's axes
    // give: each length `Point::length`'s to the bit, and the gap on the same side of the
    // tolerance as the separating-axis gap (and equal to it when not above), with grid, random,
    // huge and tiny pairs.
    #[test]
    fn box_gap_and_lengths_agree_with_the_axes() {
        let mut boxed = 0;
        for (a, b) in placed_pairs(60_000, 0x1234_5678_9abc_def1) {
            let (oa, ob) = (RectOutline::of(&a), RectOutline::of(&b));
            for o in [&oa, &ob] {
                for (k, e) in EDGES.into_iter().enumerate() {
                    assert_eq!(o.len[k].to_bits(), edge_of(&o.c, e).length().to_bits());
                }
            }
            if oa.aligned == 0 || ob.aligned == 0 {
                continue;
            }
            boxed += 1;
            let full = convex_gap(&oa.c, &ob.c);
            let (got, early) = (box_gap(&oa, &ob), outline_gap_up_to(&oa, &ob, TOLERANCE));
            assert_eq!(got > TOLERANCE, early > TOLERANCE, "{a:?} {b:?}");
            if got <= TOLERANCE {
                assert_eq!(got, full, "{a:?} {b:?}");
                assert_eq!(got, early, "{a:?} {b:?}");
            }
        }
        assert!(boxed > 1000, "the sample reaches aligned pairs ({boxed})");
    }

    // DBA3.md §0.3: a length is within the tolerance, or beyond it, on squares exactly when the
    // hypotenuse says so: lengths a hair either side of it in every direction, along the axes,
    // zeros of both signs, tiny, huge, infinite and NaN sides.
    #[test]
    fn squared_tolerance_tests_agree_with_the_hypotenuse() {
        let mut next = xorshift(0x0bad_5eed_1234_4321);
        let next = &mut next;
        let special = [
            0.0,
            -0.0,
            TOLERANCE,
            -TOLERANCE,
            f64::MIN_POSITIVE,
            5e-324,
            1e300,
            f64::MAX,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
        ];
        let mut checked = 0;
        for k in 0..200_000 {
            let v = match k % 4 {
                0 => {
                    let angle = unit(next) * std::f64::consts::TAU;
                    let scale = 1.0 + (unit(next) * 2.0 - 1.0) * [1e-5, 1e-6, 1e-9, 1e-15][k % 3];
                    Point::new(angle.cos(), angle.sin()) * (TOLERANCE * scale)
                }
                1 => {
                    let l = TOLERANCE * (1.0 + (unit(next) - 0.5) * 1e-5);
                    [Point::new(l, 0.0), Point::new(-0.0, -l)][k % 2]
                }
                2 => Point::new(
                    special[(unit(next) * 11.0) as usize % 11],
                    special[(unit(next) * 11.0) as usize % 11],
                ),
                _ => Point::new(unit(next) * 0.01 - 0.005, unit(next) * 0.01 - 0.005),
            };
            assert_eq!(beyond_tolerance(v), v.length() > TOLERANCE, "{v:?}");
            assert_eq!(within_tolerance(v), v.length() <= TOLERANCE, "{v:?}");
            assert_eq!(edge_length(v).to_bits(), v.length().to_bits(), "{v:?}");
            checked += usize::from(tolerance_side(v).is_none());
        }
        assert!(checked > 100, "the sample reaches close calls ({checked})");
    }

    /// The scan's box as it was first written (#15): the extremes of the four corners, widened.
    fn scan_box_reference(o: &RectOutline) -> (f64, f64, f64, f64) {
        let reach = 2.0 * TOLERANCE;
        let c = &o.c;
        if !c.iter().all(|p| p.x.is_finite() && p.y.is_finite()) {
            let inf = f64::INFINITY;
            return (-inf, -inf, inf, inf);
        }
        let xs = c.iter().map(|p| p.x);
        let ys = c.iter().map(|p| p.y);
        (
            xs.clone().fold(f64::INFINITY, f64::min) - reach,
            ys.clone().fold(f64::INFINITY, f64::min) - reach,
            xs.fold(f64::NEG_INFINITY, f64::max) + reach,
            ys.fold(f64::NEG_INFINITY, f64::max) + reach,
        )
    }

    /// Rectangles of every kind the outline meets: the random pairs, the placed pairs, and poses
    /// with zeros of both signs, huge and non-finite coordinates and degenerate sizes.
    fn outline_sample() -> Vec<ElementRect> {
        let mut rects: Vec<ElementRect> = pairs()
            .into_iter()
            .chain(placed_pairs(4_000, 0x5eed_c0de_0001))
            .flat_map(|(a, b)| [a, b])
            .collect();
        let coords = [0.0, -0.0, 1.0, -2.5, 1e300, f64::INFINITY, f64::NAN];
        let facings = [0.0, -0.0, 90.0, 180.0, 270.0, 45.0, f64::NAN];
        let sizes = [0.0, -0.0, 1.0, 0.5, f64::INFINITY];
        for (k, &x) in coords.iter().enumerate() {
            for &f in &facings {
                for &w in &sizes {
                    let y = coords[(k + 2) % coords.len()];
                    rects.push(ElementRect::new(Pose::new(x, y, f), w, 0.75));
                    rects.push(ElementRect::new(Pose::new(x, -y, f), 1.0, w));
                }
            }
        }
        rects
    }

    // DBA3.md §8.2: the scan's box (#15) of an aligned rectangle, taken from two opposite
    // corners, is the box of all four to the bit; the others take it as before.
    #[test]
    fn scan_box_is_the_box_of_the_four_corners() {
        let (mut aligned, mut not) = (0, 0);
        for r in outline_sample() {
            let o = RectOutline::of(&r);
            let (got, want) = (scan_box(&o), scan_box_reference(&o));
            let bits = |b: (f64, f64, f64, f64)| {
                [b.0.to_bits(), b.1.to_bits(), b.2.to_bits(), b.3.to_bits()]
            };
            assert_eq!(bits(got), bits(want), "{r:?}");
            if o.aligned != 0 {
                aligned += 1;
            } else {
                not += 1;
            }
        }
        assert!(
            aligned > 1000 && not > 1000,
            "both kinds ({aligned}, {not})"
        );
    }

    // DBA3.md §0.3: an outline keeps no axes when it is aligned (#15); the axes it works out on
    // the way are those a full outline keeps, to the bit.
    #[test]
    fn axes_worked_out_on_the_way_are_the_kept_ones() {
        let mut aligned = 0;
        for r in outline_sample() {
            let o = RectOutline::of(&r);
            aligned += usize::from(o.aligned != 0);
            for i in 0..4 {
                let d = o.c[(i + 1) % 4] - o.c[i];
                let l = d.length();
                let axis = if l != 0.0 {
                    Point::new(-d.y / l, d.x / l)
                } else {
                    Point::new(0.0, 0.0)
                };
                let own = projection(&o.c, axis);
                let (got_axis, got_own) = o.axis_and_own_kept(i);
                assert_eq!(
                    [got_axis.x, got_axis.y, got_own.0, got_own.1].map(f64::to_bits),
                    [axis.x, axis.y, own.0, own.1].map(f64::to_bits),
                    "{r:?} edge {i}"
                );
            }
        }
        assert!(
            aligned > 1000,
            "the sample has aligned outlines ({aligned})"
        );
    }

    // DBA3.md §8.2: aligned edges on lines more than two tolerances apart (#15) are exactly those
    // the edge contact refuses without looking further; nearer ones are left to it, and some of
    // them are in contact.
    #[test]
    fn aligned_edges_apart_are_refused_by_the_edge_contact() {
        let (mut apart, mut near_contact) = (0, 0);
        for (a, b) in pairs()
            .into_iter()
            .chain(placed_pairs(20_000, 0x5eed_c0de_0002))
        {
            let (oa, ob) = (RectOutline::of(&a), RectOutline::of(&b));
            if oa.aligned == 0 || ob.aligned == 0 {
                continue;
            }
            for (i, ea) in EDGES.into_iter().enumerate() {
                let along_x = (oa.aligned == 1) == (i % 2 == 0);
                for (j, eb) in EDGES.into_iter().enumerate() {
                    // Only edges along the same axis are asked.
                    let j_along_x = (ob.aligned == 1) == (j % 2 == 0);
                    if j_along_x != along_x {
                        continue;
                    }
                    let (sa, sb) = (edge_of(&oa.c, ea), edge_of(&ob.c, eb));
                    let exact = edge_contact_length_of(sa, sb, oa.len[i], ob.len[j]);
                    if oa.moderate
                        && ob.moderate
                        && aligned_edges_apart(&oa.c, i, &ob.c, j, along_x)
                    {
                        apart += 1;
                        assert_eq!(exact, None, "{a:?} {b:?} {i} {j}");
                    } else if exact.is_some() {
                        near_contact += 1;
                    }
                }
            }
        }
        assert!(
            apart > 1000 && near_contact > 100,
            "both outcomes ({apart}, {near_contact})"
        );
    }

    // The squared tests of the midpoints (#15) answer as the hypotenuse does, inside, outside
    // and at the limit, with zeros, huge, tiny and non-finite numbers.
    #[test]
    fn midpoint_squares_agree_with_the_hypotenuse() {
        let mut next = xorshift(0x1357_9bdf_2468_ace0);
        let next = &mut next;
        let special = [
            0.0,
            -0.0,
            1e-160,
            5e-324,
            1e160,
            f64::MAX,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
        ];
        let (mut inside, mut outside) = (0, 0);
        for k in 0..200_000 {
            let limit = match k % 5 {
                0 => special[pick(next, special.len())],
                1 => TOLERANCE,
                _ => 0.5 + unit(next) * 2.0,
            };
            let gap = match k % 3 {
                0 => {
                    let angle = unit(next) * std::f64::consts::TAU;
                    let scale = 1.0 + (unit(next) * 2.0 - 1.0) * [1e-5, 1e-7, 1e-15][k % 4 % 3];
                    Point::new(angle.cos(), angle.sin()) * (limit * scale)
                }
                1 => Point::new(
                    special[pick(next, special.len())],
                    special[pick(next, special.len())],
                ),
                _ => Point::new(unit(next) * 6.0 - 3.0, unit(next) * 6.0 - 3.0),
            };
            let want = !matches!(gap.length().partial_cmp(&limit), Some(Ordering::Greater));
            assert_eq!(midpoints_within(gap, limit), want, "{gap:?} {limit}");
            if want {
                inside += 1;
            } else {
                outside += 1;
            }
        }
        assert!(
            inside > 1000 && outside > 1000,
            "both ({inside}, {outside})"
        );
    }

    // DBA3.md §1.3: the edges read from the corners worked out with one sine and cosine (#15),
    // which the close combat's supporters and battlefield-edge overlaps read, are
    // `ElementRect::edge` to the bit.
    #[test]
    fn edges_of_the_corners_are_the_edges_to_the_bit() {
        let mut turned = 0;
        for r in outline_sample() {
            let bits = |c: [Point; 4]| c.map(|p| [exact_bits(p.x), exact_bits(p.y)]);
            for e in EDGES {
                let (got, want) = (edge_of(&r.corners(), e), r.edge(e));
                assert_eq!(
                    bits([got.a, got.b, got.a, got.b]),
                    bits([want.a, want.b, want.a, want.b])
                );
            }
            turned += usize::from(r.pose.facing != 0.0);
        }
        assert!(turned > 1000, "the sample has turned elements ({turned})");
    }
}
