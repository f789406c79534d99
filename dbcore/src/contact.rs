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

mod overlap;
mod scan;

pub use overlap::*;
pub use scan::*;

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
mod pre_test_agreement;
