//! Exact-enough plane geometry in base widths (BW).
//!
//! # Representation and tolerance (the one place they are defined)
//!
//! * Every distance is an `f64` number of **base widths** (BW, DBA3.md §0.3, §1.1). Conversion to
//!   millimetres or inches happens only at the API's edge ([`Scale`]).
//! * Positions and facings stored in game state are **snapped** to a fixed grid after every
//!   transition: coordinates to multiples of [`GRID`] (2⁻¹² BW, about 0.01 mm with 40 mm bases) and
//!   facings to multiples of [`ANGLE_GRID`] (2⁻¹² degree). Grid values are exactly representable
//!   binary fractions, so a saved battle replays bit-identically on every platform: what is stored
//!   never depends on the last bits of a platform's `sin`/`cos`.
//! * Two things **touch**, and a distance is **within** a limit ("at or closer", DBA3.md §0.3), when
//!   the difference is at most [`TOLERANCE`] (2⁻⁹ BW = 8 grid steps, about 0.08 mm with 40 mm
//!   bases): far finer than a player's measuring, far coarser than the snapping error.
//!
//! Facings are compass bearings in degrees: 0 faces +y ("north", up the table), 90 faces +x,
//! increasing clockwise.

use serde::{Deserialize, Serialize};
use std::ops::{Add, Mul, Neg, Sub};

/// Grid to which stored coordinates are snapped: 2⁻¹² BW.
pub const GRID: f64 = 1.0 / 4096.0;
/// Grid to which stored facings are snapped: 2⁻¹² degree.
pub const ANGLE_GRID: f64 = 1.0 / 4096.0;
/// The one tolerance for "touching" and "within": 2⁻⁹ BW.
pub const TOLERANCE: f64 = 1.0 / 512.0;

/// Snap a coordinate to [`GRID`].
pub fn snap(v: f64) -> f64 {
    (v / GRID).round() * GRID
}

/// Snap a bearing to [`ANGLE_GRID`] and normalise it into `[0, 360)`.
pub fn snap_bearing(deg: f64) -> f64 {
    let d = (deg / ANGLE_GRID).round() * ANGLE_GRID;
    let d = d.rem_euclid(360.0);
    if d >= 360.0 {
        0.0
    } else {
        d
    }
}

/// `a` and `b` are equal within [`TOLERANCE`].
pub fn near(a: f64, b: f64) -> bool {
    (a - b).abs() <= TOLERANCE
}

/// The squares of [`TOLERANCE`] less and more a millionth of it: a squared length below the
/// first (or above the second) is that of a length below (above) the tolerance, whatever the
/// rounding of the squares (a few parts in 10¹⁶) and of the hypotenuse (one part in 10¹⁶).
const TOLERANCE_SQUARED_IN: f64 = (TOLERANCE * (1.0 - 1e-6)) * (TOLERANCE * (1.0 - 1e-6));
const TOLERANCE_SQUARED_OUT: f64 = (TOLERANCE * (1.0 + 1e-6)) * (TOLERANCE * (1.0 + 1e-6));

/// `Some(v.length() > TOLERANCE)` when the squared length decides it (see
/// [`TOLERANCE_SQUARED_IN`]); `None` for a close call or a NaN. A square that overflows is
/// above, one that underflows below, as the length is.
pub(crate) fn tolerance_side(v: Point) -> Option<bool> {
    let s = v.x * v.x + v.y * v.y;
    if s < TOLERANCE_SQUARED_IN {
        Some(false)
    } else if s > TOLERANCE_SQUARED_OUT {
        Some(true)
    } else {
        None
    }
}

/// `v.length() > TOLERANCE`, to the same answer, without the square root when clear.
pub(crate) fn beyond_tolerance(v: Point) -> bool {
    tolerance_side(v).unwrap_or_else(|| v.length() > TOLERANCE)
}

/// `v.length() <= TOLERANCE` (false for a NaN), to the same answer, without the square root
/// when clear.
pub(crate) fn within_tolerance(v: Point) -> bool {
    match tolerance_side(v) {
        Some(beyond) => !beyond,
        None => v.length() <= TOLERANCE,
    }
}

/// A point (or a displacement) on the table, in BW.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Point {
    /// East, BW from the board's west edge (or inches on a DBAix table).
    pub x: f64,
    /// North, BW from the board's south edge (or inches on a DBAix table).
    pub y: f64,
}

impl Point {
    /// The point `(x, y)`.
    pub const fn new(x: f64, y: f64) -> Self {
        Point { x, y }
    }
    /// The unit vector of a compass bearing (0 = +y, 90 = +x).
    pub fn from_bearing(deg: f64) -> Self {
        // Due north, the commonest facing, needs no trigonometry: the sine of ±0 is ±0 and its
        // cosine 1, exactly (#15).
        if deg == 0.0 {
            return Point::new(deg, 1.0);
        }
        // Due south, east and west, the other facings of a battle line, are constants (#15).
        if deg == 180.0 {
            return DUE_SOUTH;
        }
        if deg == 90.0 {
            return DUE_EAST;
        }
        if deg == 270.0 {
            return DUE_WEST;
        }
        Point::by_trigonometry(deg)
    }
    /// The unit vector of a compass bearing from its sine and cosine, always worked out.
    fn by_trigonometry(deg: f64) -> Self {
        let r = deg.to_radians();
        Point::new(r.sin(), r.cos())
    }
    /// The dot product.
    pub fn dot(self, o: Point) -> f64 {
        self.x * o.x + self.y * o.y
    }
    /// z-component of the 3-D cross product; positive when `o` is anticlockwise of `self`.
    pub fn cross(self, o: Point) -> f64 {
        self.x * o.y - self.y * o.x
    }
    /// The length of the vector from the origin.
    pub fn length(self) -> f64 {
        self.x.hypot(self.y)
    }
    /// The straight-line distance to `o`.
    pub fn distance(self, o: Point) -> f64 {
        (self - o).length()
    }
    /// Rotated 90 degrees clockwise (a bearing + 90).
    pub fn right(self) -> Point {
        Point::new(self.y, -self.x)
    }
    /// Snapped to [`GRID`].
    pub fn snapped(self) -> Point {
        Point::new(snap(self.x), snap(self.y))
    }
    /// Rotate about the origin by `deg` degrees clockwise.
    pub fn rotated_cw(self, deg: f64) -> Point {
        let r = deg.to_radians();
        let (s, c) = r.sin_cos();
        Point::new(self.x * c + self.y * s, -self.x * s + self.y * c)
    }
    /// Equal within [`TOLERANCE`] in distance.
    pub fn near(self, o: Point) -> bool {
        // `self.distance(o) <= TOLERANCE`, on squares when clear (#15).
        within_tolerance(self - o)
    }
}

// [`Point::from_bearing`] of 90, 180 and 270 degrees, to the bit: the sine and cosine of each
// bearing in radians as `to_radians` gives it. That angle is within a unit in the last place of
// the right angle, so its sine and cosine are 1 (or -1) and the small distance between the two,
// which is exactly what a sine and cosine rounded correctly give. A test holds them to the
// functions as they run on the machine (`right_angles_are_their_trigonometry`). Constants rather
// than values worked out once: the compiler can merge them as it merges the trigonometry of the
// same bearing, which a value behind a lock stops it from doing.
const DUE_EAST: Point = Point::new(1.0, 6.123233995736766e-17);
const DUE_SOUTH: Point = Point::new(1.2246467991473532e-16, -1.0);
const DUE_WEST: Point = Point::new(-1.0, -1.8369701987210297e-16);

impl Add for Point {
    type Output = Point;
    fn add(self, o: Point) -> Point {
        Point::new(self.x + o.x, self.y + o.y)
    }
}
impl Sub for Point {
    type Output = Point;
    fn sub(self, o: Point) -> Point {
        Point::new(self.x - o.x, self.y - o.y)
    }
}
impl Mul<f64> for Point {
    type Output = Point;
    fn mul(self, k: f64) -> Point {
        Point::new(self.x * k, self.y * k)
    }
}
impl Neg for Point {
    type Output = Point;
    fn neg(self) -> Point {
        Point::new(-self.x, -self.y)
    }
}

/// A straight segment.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Segment {
    /// One end.
    pub a: Point,
    /// The other end.
    pub b: Point,
}

impl Segment {
    /// The segment from `a` to `b`.
    pub const fn new(a: Point, b: Point) -> Self {
        Segment { a, b }
    }
    /// Its length.
    pub fn length(&self) -> f64 {
        self.a.distance(self.b)
    }
    /// The point halfway along it.
    pub fn midpoint(&self) -> Point {
        (self.a + self.b) * 0.5
    }
    /// The nearest point of the segment to `p`.
    pub fn closest_point(&self, p: Point) -> Point {
        let d = self.b - self.a;
        let len2 = d.dot(d);
        if len2 == 0.0 {
            return self.a;
        }
        let t = ((p - self.a).dot(d) / len2).clamp(0.0, 1.0);
        self.a + d * t
    }
    /// The shortest distance from `p` to any point of the segment.
    pub fn distance_to_point(&self, p: Point) -> f64 {
        self.closest_point(p).distance(p)
    }
    /// Whether the two segments cross or touch (no tolerance).
    ///
    /// Solved parametrically: two segments that are parallel or nearly so (where orientation signs
    /// are only rounding noise) are judged by their end-point distances instead, so segments lying
    /// end to end on one line with a gap never count as crossing.
    pub fn intersects(&self, o: &Segment) -> bool {
        let r = self.b - self.a;
        let s = o.b - o.a;
        let denom = r.cross(s);
        // Pure speed: the comparison of `denom` with 1e-9 times the product of the lengths is
        // first made on squares (no square roots), and taken only when they differ by far more
        // than their rounding (a millionth, against a few parts in 1e16); a close call, or any
        // square out of the normal range, is made exactly as before.
        let (d2, bound) = (denom * denom, 1e-18 * (r.dot(r) * s.dot(s)));
        let crossing = if bound.is_normal() && d2 > bound * (1.0 + 1e-6) {
            true
        } else if bound.is_normal() && d2 < bound * (1.0 - 1e-6) {
            false
        } else {
            denom.abs() > 1e-9 * (r.length() * s.length())
        };
        if crossing {
            let q = o.a - self.a;
            let t = q.cross(s) / denom;
            let u = q.cross(r) / denom;
            return (0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u);
        }
        // Parallel: they meet only if an end point of one lies on the other.
        self.distance_to_point(o.a) == 0.0
            || self.distance_to_point(o.b) == 0.0
            || o.distance_to_point(self.a) == 0.0
            || o.distance_to_point(self.b) == 0.0
    }
    /// The least distance between two segments (0 when they cross).
    pub fn distance_to_segment(&self, o: &Segment) -> f64 {
        if self.intersects(o) {
            return 0.0;
        }
        self.distance_to_point(o.a)
            .min(self.distance_to_point(o.b))
            .min(o.distance_to_point(self.a))
            .min(o.distance_to_point(self.b))
    }
}

/// A simple polygon (vertices in order, either winding, not closed explicitly).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Polygon {
    /// The vertices in order, not repeating the first at the end.
    pub points: Vec<Point>,
}

impl Polygon {
    /// A polygon through these vertices, in order.
    pub fn new(points: Vec<Point>) -> Self {
        Polygon { points }
    }
    /// The polygon's edges, closing back to the first vertex.
    pub fn edges(&self) -> impl Iterator<Item = Segment> + Clone + '_ {
        let n = self.points.len();
        (0..n).map(move |i| Segment::new(self.points[i], self.points[(i + 1) % n]))
    }
    /// Signed area (positive when anticlockwise in x-right, y-up axes).
    pub fn signed_area(&self) -> f64 {
        self.edges().map(|e| e.a.cross(e.b)).sum::<f64>() * 0.5
    }
    /// The area enclosed, whichever way the vertices run.
    pub fn area(&self) -> f64 {
        self.signed_area().abs()
    }
    /// Strictly inside or on the boundary (by even-odd ray casting plus a boundary check with
    /// [`TOLERANCE`]).
    pub fn contains(&self, p: Point) -> bool {
        // `e.distance_to_point(p) <= TOLERANCE`, on squares when clear (#15).
        if self
            .edges()
            .any(|e| within_tolerance(e.closest_point(p) - p))
        {
            return true;
        }
        self.contains_strictly(p)
    }
    /// Inside by ray casting, ignoring the tolerance band.
    pub fn contains_strictly(&self, p: Point) -> bool {
        inside_by_crossings(self.edges(), p)
    }
    /// Least distance from the polygon's boundary or interior to `p` (0 when inside).
    pub fn distance_to_point(&self, p: Point) -> f64 {
        if self.contains_strictly(p) {
            return 0.0;
        }
        self.edges()
            .map(|e| e.distance_to_point(p))
            .fold(f64::INFINITY, f64::min)
    }
    /// Least distance between two polygons (0 when they overlap or touch exactly).
    pub fn distance_to_polygon(&self, o: &Polygon) -> f64 {
        if self.has_vertex_strictly_in(o) || o.has_vertex_strictly_in(self) {
            return 0.0;
        }
        let mut best = f64::INFINITY;
        for e in self.edges() {
            for f in o.edges() {
                // Pure speed (#15): two edges whose boxes are apart (along x or y) by more than
                // the least distance so far, with a slack far above any rounding of either, are
                // further apart than it, and the least distance stays what it is.
                if best.is_finite() && segment_boxes_gap(&e, &f) > best + rounding_slack(&e, &f) {
                    continue;
                }
                best = best.min(e.distance_to_segment(&f));
            }
        }
        best
    }
    /// Whether a vertex of this polygon is [`Polygon::contains_strictly`] in `o`.
    ///
    /// Pure speed (#15: the terrain search measures each candidate against every feature near
    /// it): a vertex beside `o`'s box is passed over without casting its ray. At or above the
    /// box's top, or below its bottom, no edge of `o` straddles the vertex's level (those tests
    /// compare coordinates exactly), so the ray crosses nothing. Left of the box by more than a
    /// slack far above rounding, the ray crosses every straddling edge, an even number for a
    /// closed outline; right of it by as much, it crosses none. Either way it is not inside.
    fn has_vertex_strictly_in(&self, o: &Polygon) -> bool {
        let Some((x0, y0, x1, y1)) = finite_bounds(&o.points) else {
            return self.points.iter().any(|&p| o.contains_strictly(p));
        };
        self.points.iter().any(|&p| {
            let slack = 1e-9 * (1.0 + p.x.abs() + x0.abs() + x1.abs());
            let beside = p.y >= y1 || p.y < y0 || p.x < x0 - slack || p.x > x1 + slack;
            debug_assert!(
                !beside || !o.contains_strictly(p),
                "a vertex beside the box is in"
            );
            !beside && o.contains_strictly(p)
        })
    }
    /// Whether the polygons are closer than `d`: exactly `self.distance_to_polygon(o) < d`,
    /// for callers that only compare the distance with a limit (#15: the terrain search keeps
    /// each candidate 1 BW from every feature near it).
    ///
    /// The least distance is the least over every pair of edges (or 0 when a vertex of one is
    /// inside the other), so it is below `d` exactly when some pair's is. A pair whose boxes are
    /// apart by more than `d` and a slack far above rounding is further apart than `d`, as
    /// [`Polygon::distance_to_polygon`] already reasons with its least distance so far; an edge
    /// that far from the other polygon's whole box is so from each of its edges. The first pair
    /// found closer ends the search.
    pub fn closer_than(&self, o: &Polygon, d: f64) -> bool {
        self.nearer(o, d, |dist, d| dist < d)
    }
    /// Whether the polygons are at most `d` apart: exactly `self.distance_to_polygon(o) <= d`,
    /// found as [`Polygon::closer_than`] finds its answer.
    pub fn within(&self, o: &Polygon, d: f64) -> bool {
        self.nearer(o, d, |dist, d| dist <= d)
    }
    /// [`Polygon::closer_than`] (`near` being `<`) or [`Polygon::within`] (`<=`): whether
    /// `near(self.distance_to_polygon(o), d)`.
    fn nearer(&self, o: &Polygon, d: f64, near: impl Fn(f64, f64) -> bool) -> bool {
        let (Some(_), Some(b)) = (finite_bounds(&self.points), finite_bounds(&o.points)) else {
            return near(self.distance_to_polygon(o), d);
        };
        if !d.is_finite() {
            return near(self.distance_to_polygon(o), d);
        }
        if self.has_vertex_strictly_in(o) || o.has_vertex_strictly_in(self) {
            return near(0.0, d);
        }
        // The slack of any pair with an edge of `o`, from the largest coordinates of its box
        // (at least `rounding_slack` of every such pair).
        let o_size = 2.0 * (b.0.abs().max(b.2.abs()) + b.1.abs().max(b.3.abs()));
        let o_box = Segment {
            a: Point::new(b.0, b.1),
            b: Point::new(b.2, b.3),
        };
        self.edges().any(|e| {
            let size = |p: Point| p.x.abs() + p.y.abs();
            let slack = 1e-9 * (1.0 + size(e.a) + size(e.b) + o_size);
            if segment_boxes_gap(&e, &o_box) > d + slack {
                return false;
            }
            o.edges().any(|f| {
                segment_boxes_gap(&e, &f) <= d + rounding_slack(&e, &f)
                    && near(e.distance_to_segment(&f), d)
            })
        })
    }
    /// Axis-aligned bounding box as (min, max).
    pub fn bounds(&self) -> (Point, Point) {
        let mut lo = Point::new(f64::INFINITY, f64::INFINITY);
        let mut hi = Point::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
        for p in &self.points {
            lo.x = lo.x.min(p.x);
            lo.y = lo.y.min(p.y);
            hi.x = hi.x.max(p.x);
            hi.y = hi.y.max(p.y);
        }
        (lo, hi)
    }
}

/// The greater of the gaps along x and along y between the boxes of two segments (at most their
/// distance, up to a rounding; negative where the boxes overlap; NaN with a NaN end).
fn segment_boxes_gap(e: &Segment, f: &Segment) -> f64 {
    let span = |u: f64, v: f64| if u < v { (u, v) } else { (v, u) };
    let ((ex0, ex1), (ey0, ey1)) = (span(e.a.x, e.b.x), span(e.a.y, e.b.y));
    let ((fx0, fx1), (fy0, fy1)) = (span(f.a.x, f.b.x), span(f.a.y, f.b.y));
    let gx = (fx0 - ex1).max(ex0 - fx1);
    let gy = (fy0 - ey1).max(ey0 - fy1);
    gx.max(gy)
}

/// A slack far above the rounding of any distance between two segments: a billionth of one plus
/// the sizes of their coordinates (infinite or NaN with such a coordinate, so never exceeded).
fn rounding_slack(e: &Segment, f: &Segment) -> f64 {
    let size = |p: Point| p.x.abs() + p.y.abs();
    1e-9 * (1.0 + size(e.a) + size(e.b) + size(f.a) + size(f.b))
}

/// Where an element stands: the **midpoint of its front edge** and the compass bearing it faces.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Pose {
    /// Midpoint of the front edge, in BW.
    pub x: f64,
    /// Midpoint of the front edge, in BW: north of the south edge.
    pub y: f64,
    /// Compass bearing the element faces, degrees clockwise from +y.
    pub facing: f64,
}

impl Pose {
    /// A pose with its front-edge midpoint at `(x, y)` BW, facing `facing` degrees clockwise from
    /// +y (north).
    pub fn new(x: f64, y: f64, facing: f64) -> Self {
        Pose { x, y, facing }
    }
    /// The same pose snapped to the storage grids.
    pub fn snapped(self) -> Pose {
        Pose {
            x: snap(self.x),
            y: snap(self.y),
            facing: snap_bearing(self.facing),
        }
    }
    /// The midpoint of the front edge as a point.
    pub fn front_mid(&self) -> Point {
        Point::new(self.x, self.y)
    }
    /// Unit vector the element faces.
    pub fn forward(&self) -> Point {
        Point::from_bearing(self.facing)
    }
}

/// Which corner of an element's rectangle, seen from behind the element looking the way it faces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Corner {
    /// The front edge's left end.
    FrontLeft,
    /// The front edge's right end.
    FrontRight,
    /// The rear edge's right end.
    RearRight,
    /// The rear edge's left end.
    RearLeft,
}

/// Which edge of an element's rectangle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Edge {
    /// The front edge, facing the way the element faces.
    Front,
    /// The right side edge.
    Right,
    /// The rear edge.
    Rear,
    /// The left side edge.
    Left,
}

/// The rectangle of an element on the table: width along the front edge, depth behind it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ElementRect {
    /// Where it stands: front-edge midpoint and facing.
    pub pose: Pose,
    /// Frontage in BW (1 for every element, DBA3.md §0.3).
    pub width: f64,
    /// Base depth in BW (DBA3.md §1.3).
    pub depth: f64,
}

impl ElementRect {
    /// The rectangle of an element at `pose`, `width` BW wide and `depth` BW deep.
    pub fn new(pose: Pose, width: f64, depth: f64) -> Self {
        ElementRect { pose, width, depth }
    }
    /// Whether every point of the front edge is further than `margin` from the box `bounds`
    /// (min x, min y, max x, max y: an outline's [`finite_bounds`]) along x or y, so that no
    /// front corner is within `margin` of anything in the box.
    ///
    /// A pre-test in front of exact tests (#15): the front edge's ends lie half the width from
    /// its middle (the pose), so a middle further from the box than half the width, `margin`
    /// and a slack far above rounding settles it without working out a corner. A position or
    /// box that is not a number is never clear, and goes to the exact test.
    #[inline]
    pub(crate) fn front_clear_of_box(
        &self,
        bounds: Option<(f64, f64, f64, f64)>,
        margin: f64,
    ) -> bool {
        let Some((x0, y0, x1, y1)) = bounds else {
            return false;
        };
        // (Where the comparison is close, the box's side stands within `reach` of the middle,
        // so the middle's coordinates and the width bound every magnitude rounded.)
        let (x, y, w) = (self.pose.x, self.pose.y, self.width.abs());
        let reach = w * 0.5 + margin + 1e-9 * (1.0 + x.abs() + y.abs() + w);
        x + reach < x0 || x - reach > x1 || y + reach < y0 || y - reach > y1
    }
    /// The corner `c`, in board coordinates.
    pub fn corner(&self, c: Corner) -> Point {
        let f = self.pose.forward();
        let r = f.right();
        let m = self.pose.front_mid();
        let hw = self.width * 0.5;
        match c {
            Corner::FrontLeft => m - r * hw,
            Corner::FrontRight => m + r * hw,
            Corner::RearRight => m + r * hw - f * self.depth,
            Corner::RearLeft => m - r * hw - f * self.depth,
        }
    }
    /// Corners in order front-left, front-right, rear-right, rear-left (clockwise).
    #[inline]
    pub fn corners(&self) -> [Point; 4] {
        self.corners_and_forward().0
    }
    /// [`ElementRect::corners`] and the facing's unit vector (`pose.forward()`): each corner as
    /// `corner` gives it, by the same arithmetic, the unit vector worked out once (#15).
    #[inline]
    pub(crate) fn corners_and_forward(&self) -> ([Point; 4], Point) {
        let f = self.pose.forward();
        let r = f.right();
        let m = self.pose.front_mid();
        let hw = self.width * 0.5;
        let corners = [
            m - r * hw,
            m + r * hw,
            m + r * hw - f * self.depth,
            m - r * hw - f * self.depth,
        ];
        (corners, f)
    }
    /// The edge as a segment; front runs left to right, right runs front to rear, rear runs right to
    /// left, left runs rear to front (clockwise round the rectangle).
    pub fn edge(&self, e: Edge) -> Segment {
        let [fl, fr, rr, rl] = self.corners();
        match e {
            Edge::Front => Segment::new(fl, fr),
            Edge::Right => Segment::new(fr, rr),
            Edge::Rear => Segment::new(rr, rl),
            Edge::Left => Segment::new(rl, fl),
        }
    }
    /// The outline as a polygon, corners in the order of [`ElementRect::corners`].
    pub fn polygon(&self) -> Polygon {
        Polygon::new(self.corners().to_vec())
    }
    /// The centre of the rectangle.
    pub fn centre(&self) -> Point {
        self.pose.front_mid() - self.pose.forward() * (self.depth * 0.5)
    }
}

/// Figure scale of the bases, to convert BW to real lengths at the API's edge (DBA3.md §1.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Scale {
    /// 15 mm and smaller figures: 1 BW = 40 mm.
    Mm15,
    /// 25/28 mm figures: 1 BW = 60 mm.
    Mm25,
}

impl Scale {
    /// Millimetres in one base width.
    pub fn mm_per_bw(self) -> f64 {
        match self {
            Scale::Mm15 => 40.0,
            Scale::Mm25 => 60.0,
        }
    }
    /// A length in BW as millimetres at this scale.
    pub fn bw_to_mm(self, bw: f64) -> f64 {
        bw * self.mm_per_bw()
    }
    /// A length in millimetres as BW at this scale.
    pub fn mm_to_bw(self, mm: f64) -> f64 {
        mm / self.mm_per_bw()
    }
    /// A length in BW as inches at this scale.
    pub fn bw_to_inches(self, bw: f64) -> f64 {
        self.bw_to_mm(bw) / 25.4
    }
    /// A length in inches as BW at this scale.
    pub fn inches_to_bw(self, inches: f64) -> f64 {
        self.mm_to_bw(inches * 25.4)
    }
}

// --- Convex helpers used by `contact`, `zones` and `paths` (appended by the geometry helper). ---

/// Convex hull of `points`, anticlockwise (x right, y up), without repeated or collinear points
/// (Andrew's monotone chain). Swept areas of straight moves are hulls of start and end corners.
pub fn convex_hull(points: &[Point]) -> Polygon {
    // Up to this many points are sorted and hulled on the stack: swept pieces are hulls of 4
    // or 8 points (#15), so the hull's own vertices are the one allocation.
    const ON_STACK: usize = 16;
    if points.len() <= ON_STACK {
        let mut pts = [Point::new(0.0, 0.0); ON_STACK];
        let mut hull = [Point::new(0.0, 0.0); 2 * ON_STACK];
        let k = hull_into(points, &mut pts, &mut hull);
        return Polygon::new(hull[..k].to_vec());
    }
    let mut pts = points.to_vec();
    let mut hull = vec![Point::new(0.0, 0.0); 2 * points.len()];
    let k = hull_into(points, &mut pts, &mut hull);
    hull.truncate(k);
    Polygon::new(hull)
}

/// The vertices of [`convex_hull`]`(points)` written to the start of `hull`, giving how many,
/// with `pts` (at least as long as `points`) to sort them in and `hull` at least twice as long
/// as `points`. Callers with few points keep both on the stack ([`crate::battle`]'s swept
/// pieces, #15); the hull is the same points in the same order either way.
pub(crate) fn hull_into(points: &[Point], pts: &mut [Point], hull: &mut [Point]) -> usize {
    let pts = &mut pts[..points.len()];
    pts.copy_from_slice(points);
    pts.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    // Repeated points dropped in place, the first of each run kept.
    let mut n = 0;
    for i in 0..pts.len() {
        if n == 0 || pts[i].x != pts[n - 1].x || pts[i].y != pts[n - 1].y {
            pts[n] = pts[i];
            n += 1;
        }
    }
    let pts = &pts[..n];
    if n < 3 {
        hull[..n].copy_from_slice(pts);
        return n;
    }
    let turn = |o: Point, a: Point, b: Point| (a - o).cross(b - o);
    // Andrew's two chains in one buffer: the lower chain left to right, then the upper chain
    // right to left from the lower chain's last point, which both chains share. The lower
    // chain holds at most `n` points and the upper one adds at most `n - 1`.
    let mut len = 0;
    for &p in pts {
        while len >= 2 && turn(hull[len - 2], hull[len - 1], p) <= 0.0 {
            len -= 1;
        }
        hull[len] = p;
        len += 1;
    }
    let lower = len;
    for &p in pts.iter().rev().skip(1) {
        while len > lower && turn(hull[len - 2], hull[len - 1], p) <= 0.0 {
            len -= 1;
        }
        hull[len] = p;
        len += 1;
    }
    // The upper chain ends at the first point, where the lower chain began.
    len - 1
}

/// Whether the axis-aligned bounding boxes of two point sets are apart by more than `margin` on
/// x or y (false when either set is empty or has a coordinate that is not finite, so such sets go
/// to the exact tests). A pre-test in front of exact geometry: boxes apart mean disjoint sets.
#[inline]
pub(crate) fn boxes_apart(a: &[Point], b: &[Point], margin: f64) -> bool {
    match (finite_bounds(a), finite_bounds(b)) {
        (Some((ax0, ay0, ax1, ay1)), Some((bx0, by0, bx1, by1))) => {
            ax1 + margin < bx0 || bx1 + margin < ax0 || ay1 + margin < by0 || by1 + margin < ay0
        }
        _ => false,
    }
}

/// The bounding box (min x, min y, max x, max y) of a non-empty set of finite points.
#[inline]
pub(crate) fn finite_bounds(s: &[Point]) -> Option<(f64, f64, f64, f64)> {
    let first = s.first()?;
    let mut b = (first.x, first.y, first.x, first.y);
    for p in s {
        if !(p.x.is_finite() && p.y.is_finite()) {
            return None;
        }
        b = (b.0.min(p.x), b.1.min(p.y), b.2.max(p.x), b.3.max(p.y));
    }
    Some(b)
}

/// Separating-axis gap between two convex polygons given by their vertices (either winding): the
/// largest separation of their projections on any edge normal of either. Positive: they are at
/// least that far apart (a lower bound on their distance); zero: touching; negative: they overlap on
/// every axis, and minus the value is how deep they interpenetrate. One cheap number serves both
/// "clearly apart" and "clearly overlapping" tests against [`TOLERANCE`].
pub fn convex_gap(a: &[Point], b: &[Point]) -> f64 {
    convex_gap_up_to(a, b, f64::INFINITY)
}

/// [`convex_gap`], stopping at the first axis whose separation is above `limit`: the answer is
/// then that separation (above `limit`, though perhaps not the largest); otherwise it is exactly
/// [`convex_gap`]'s, worked out by the same steps in the same order. For callers that only ask
/// whether the gap exceeds `limit` before they look closer (two elements apart by more than
/// [`TOLERANCE`] are not in contact): the same decisions, at about half the cost for sets apart.
pub(crate) fn convex_gap_up_to(a: &[Point], b: &[Point], limit: f64) -> f64 {
    fn axes_gap(src: &[Point], a: &[Point], b: &[Point], best: &mut f64, limit: f64) {
        let n = src.len();
        for i in 0..n {
            let d = src[(i + 1) % n] - src[i];
            let len = d.length();
            if len == 0.0 {
                continue;
            }
            let axis = Point::new(-d.y / len, d.x / len);
            let (mut amin, mut amax) = (f64::INFINITY, f64::NEG_INFINITY);
            for p in a {
                let v = p.dot(axis);
                amin = amin.min(v);
                amax = amax.max(v);
            }
            let (mut bmin, mut bmax) = (f64::INFINITY, f64::NEG_INFINITY);
            for p in b {
                let v = p.dot(axis);
                bmin = bmin.min(v);
                bmax = bmax.max(v);
            }
            *best = best.max((bmin - amax).max(amin - bmax));
            if *best > limit {
                return;
            }
        }
    }
    let mut best = f64::NEG_INFINITY;
    axes_gap(a, a, b, &mut best, limit);
    if best > limit {
        return best;
    }
    axes_gap(b, a, b, &mut best, limit);
    best
}

/// Whether the horizontal ray from `p` towards +x crosses `edges` an odd number of times: what
/// [`Polygon::contains_strictly`] asks of all of a polygon's edges. The edges that do not
/// cross the ray may be left out, in any order, and the answer is the same. Always inlined
/// (#47): as a call of its own it made every inside test of a polygon one, 0.6 % of a driven
/// battle.
#[inline(always)]
pub(crate) fn inside_by_crossings(edges: impl IntoIterator<Item = Segment>, p: Point) -> bool {
    let mut inside = false;
    for e in edges {
        let (a, b) = (e.a, e.b);
        if (a.y > p.y) != (b.y > p.y) {
            let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x);
            if p.x < x {
                inside = !inside;
            }
        }
    }
    inside
}

/// The bits of `x` for tests that hold new code to old code "to the bit", with every NaN as one
/// value: Rust leaves a NaN's sign and payload to the optimiser, so an optimised build may give
/// either sign for the same computation (opt-level 1 does, for a corner worked out from an
/// infinite facing), while whether a result is NaN, and every other bit, is fixed.
#[cfg(test)]
pub(crate) fn exact_bits(x: f64) -> u64 {
    if x.is_nan() {
        f64::NAN.to_bits()
    } else {
        x.to_bits()
    }
}

/// Tests: a stream of numbers uniform in [0, 1) from `seed` (xorshift), the same on every
/// machine, for property tests that draw their own shapes.
#[cfg(test)]
pub(crate) fn unit_stream(mut seed: u64) -> impl FnMut() -> f64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // DBA3.md §3.8 (the 1 BW between features): passing over the vertices beside the other
    // outline's box gives the answer of casting every vertex's ray, for outlines apart, touching,
    // overlapping and one within the other, with vertices on the box's lines.
    #[test]
    fn vertices_beside_a_box_are_not_inside() {
        let mut next = unit_stream(0x9e37_79b9_7f4a_7c15u64);
        let mut u = move |scale: f64| next() * scale;
        let mut inside = 0;
        for n in 0..3_000 {
            let shape = |u: &mut dyn FnMut(f64) -> f64, c: (f64, f64), k: usize| {
                let turn = u(360.0);
                Polygon::new(
                    (0..k)
                        .map(|i| {
                            let p = Point::from_bearing(turn + i as f64 * 360.0 / k as f64)
                                * (0.3 + u(2.0));
                            // Every fifth vertex snapped to a whole number, so that some stand
                            // exactly on the other outline's box lines.
                            if i % 5 == 0 {
                                Point::new((c.0 + p.x).round(), (c.1 + p.y).round())
                            } else {
                                Point::new(c.0 + p.x, c.1 + p.y)
                            }
                        })
                        .collect(),
                )
            };
            let ca = (u(8.0), u(8.0));
            let a = shape(&mut u, ca, 3 + n % 12);
            let cb = (u(8.0), u(8.0));
            let b = shape(&mut u, cb, 3 + (n / 3) % 12);
            let cast = a.points.iter().any(|&p| b.contains_strictly(p));
            assert_eq!(a.has_vertex_strictly_in(&b), cast, "{a:?} {b:?}");
            inside += usize::from(cast);
        }
        assert!(inside > 300, "{inside}");
    }

    #[test]
    fn corners_of_a_north_facing_element() {
        let r = ElementRect::new(Pose::new(5.0, 5.0, 0.0), 1.0, 0.5);
        assert!(r.corner(Corner::FrontLeft).near(Point::new(4.5, 5.0)));
        assert!(r.corner(Corner::FrontRight).near(Point::new(5.5, 5.0)));
        assert!(r.corner(Corner::RearRight).near(Point::new(5.5, 4.5)));
        assert!(r.corner(Corner::RearLeft).near(Point::new(4.5, 4.5)));
    }

    #[test]
    fn east_facing_element_has_its_front_on_the_east() {
        let r = ElementRect::new(Pose::new(5.0, 5.0, 90.0), 1.0, 1.0);
        assert!(r.corner(Corner::FrontLeft).near(Point::new(5.0, 5.5)));
        assert!(r.corner(Corner::FrontRight).near(Point::new(5.0, 4.5)));
        assert!(r.centre().near(Point::new(4.5, 5.0)));
    }

    #[test]
    fn snapping_is_idempotent_and_on_grid() {
        let p = Pose::new(1.234_567, -3.3, 361.5).snapped();
        assert_eq!(p, p.snapped());
        assert_eq!((p.x / GRID).fract(), 0.0);
        assert!(p.facing >= 0.0 && p.facing < 360.0);
    }

    #[test]
    fn collinear_segments_end_to_end_do_not_cross() {
        // Two side edges end to end with a gap of 4 tolerances along a slanted line.
        let dir = Point::from_bearing(33.3);
        let a = Segment::new(Point::new(0.1, 0.2), Point::new(0.1, 0.2) + dir * 0.75);
        let start = a.b + dir * (4.0 * TOLERANCE);
        let b = Segment::new(start, start + dir * 0.5);
        assert!(!a.intersects(&b));
        assert!((a.distance_to_segment(&b) - 4.0 * TOLERANCE).abs() < 1e-9);
        let c = Segment::new(Point::new(0.0, 0.0), Point::new(1.0, 1.0));
        let d = Segment::new(Point::new(0.0, 1.0), Point::new(1.0, 0.0));
        assert!(c.intersects(&d));
    }

    #[test]
    fn scale_conversions() {
        // DBA3.md §1.1: 40 mm per BW at 15 mm, 60 mm at 25/28 mm.
        assert_eq!(Scale::Mm15.bw_to_mm(1.5), 60.0);
        assert_eq!(Scale::Mm25.mm_to_bw(120.0), 2.0);
    }

    #[test]
    fn polygon_distance_and_containment() {
        let a = ElementRect::new(Pose::new(0.0, 0.0, 0.0), 1.0, 1.0).polygon();
        let b = ElementRect::new(Pose::new(0.0, 3.0, 0.0), 1.0, 1.0).polygon();
        assert!(near(a.distance_to_polygon(&b), 2.0));
        assert!(a.contains(Point::new(0.0, -0.5)));
        assert!(!a.contains(Point::new(0.0, 0.5)));
        assert!(near(a.area(), 1.0));
    }
    /// A small xorshift generator, so the random cases are the same on every run.
    fn xorshift(mut state: u64) -> impl FnMut() -> f64 {
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    // DBA3.md §0.3: "within" the tolerance on squares (#15) answers exactly as the distance did,
    // for points on, a hair inside and a hair outside polygons' edges and corners, far off,
    // with NaN and infinite points, and for degenerate polygons.
    #[test]
    fn containment_and_nearness_on_squares_agree_with_the_distances() {
        let contains_reference = |poly: &Polygon, p: Point| {
            poly.edges().any(|e| e.distance_to_point(p) <= TOLERANCE) || poly.contains_strictly(p)
        };
        let mut unit = xorshift(0x005e_ed0f_c0ff_ee42);
        let (mut inside, mut outside) = (0, 0);
        for k in 0..40_000 {
            let pose = Pose::new(
                unit() * 20.0,
                unit() * 20.0,
                [0.0, 90.0, unit() * 360.0][k % 3],
            );
            let rect = ElementRect::new(pose, 1.0, [0.5, 0.0, 1.5][k % 3]);
            let mut poly = match k % 5 {
                0 => Polygon::new(vec![pose.front_mid()]),
                1 => convex_hull(&[
                    rect.corners()[0],
                    rect.corners()[2],
                    pose.front_mid() + Point::new(unit(), unit()),
                ]),
                _ => rect.polygon(),
            };
            if k % 97 == 0 {
                poly.points[0].x = [f64::NAN, f64::INFINITY][k % 2];
            }
            // A point on an edge, moved out or in by about a tolerance, or anywhere near.
            let n = poly.points.len();
            let e = Segment::new(poly.points[k % n], poly.points[(k + 1) % n]);
            let along = e.a + (e.b - e.a) * (unit() * 1.4 - 0.2);
            let scale = 1.0 + [0.0, 1e-7, -1e-7, 1e-12, -1e-12, 0.5, -0.5][k % 7];
            let dir = Point::from_bearing(unit() * 360.0);
            let p = match k % 4 {
                0 | 1 => along + dir * (TOLERANCE * scale),
                2 => e.a + dir * (TOLERANCE * scale),
                _ => Point::new(unit() * 22.0 - 1.0, unit() * 22.0 - 1.0),
            };
            let want = contains_reference(&poly, p);
            assert_eq!(poly.contains(p), want, "{poly:?} {p:?}");
            assert_eq!(p.near(e.a), p.distance(e.a) <= TOLERANCE, "{p:?} {:?}", e.a);
            inside += usize::from(want);
            outside += usize::from(!want);
        }
        for (x, y) in [
            (f64::NAN, 0.0),
            (0.0, f64::INFINITY),
            (-0.0, -0.0),
            (1e-300, 0.0),
        ] {
            let p = Point::new(x, y);
            assert_eq!(
                p.near(Point::new(0.0, 0.0)),
                p.length() <= TOLERANCE,
                "{p:?}"
            );
        }
        assert!(inside > 5000 && outside > 5000, "{inside} {outside}");
    }

    // DBA3.md §0.3: a rectangle's four corners worked out together (#15) are each corner as
    // `corner` gives it, to the bit, at right angles and at any other facing.
    #[test]
    fn corners_are_each_corner() {
        let mut unit = unit_stream(0x5eed_c0de);
        let corner_bits = |p: Point| (p.x.to_bits(), p.y.to_bits());
        for k in 0..4000 {
            let facing = match k % 4 {
                0 => [0.0, 90.0, 180.0, 270.0][k / 4 % 4],
                _ => unit() * 720.0 - 360.0,
            };
            let pose = Pose::new(unit() * 24.0 - 6.0, unit() * 24.0 - 6.0, facing);
            let rect = ElementRect::new(pose, 0.5 + unit(), 0.25 + unit());
            let corners = [
                Corner::FrontLeft,
                Corner::FrontRight,
                Corner::RearRight,
                Corner::RearLeft,
            ]
            .map(|c| corner_bits(rect.corner(c)));
            assert_eq!(rect.corners().map(corner_bits), corners, "{rect:?}");
        }
    }
    // DBA3.md §0.3: due north without trigonometry, and east, south and west as constants
    // (#15), are the sine and cosine of their bearing to the bit; every other bearing is worked
    // out as before.
    #[test]
    fn right_angles_are_their_trigonometry() {
        let bearings = [
            0.0,
            -0.0,
            1e-300,
            -5e-324,
            90.0,
            180.0,
            270.0,
            -90.0,
            -180.0,
            360.0,
            89.999,
            180.000_000_000_000_03,
            269.999,
            359.999,
            f64::NAN,
        ];
        for deg in bearings {
            let r = f64::to_radians(std::hint::black_box(deg));
            let (got, want) = (Point::from_bearing(deg), Point::new(r.sin(), r.cos()));
            assert_eq!(
                (got.x.to_bits(), got.y.to_bits()),
                (want.x.to_bits(), want.y.to_bits()),
                "bearing {deg}"
            );
        }
    }
    // DBA3.md §0.3: the least distance between polygons with far edge pairs skipped (#15) is
    // the distance over every pair, to the bit: rectangles and hulls near, touching, crossing
    // and far, turned every way, with huge coordinates and NaN.
    #[test]
    fn polygon_distance_skips_only_far_edges() {
        let reference = |a: &Polygon, b: &Polygon| {
            if a.points.iter().any(|&p| b.contains_strictly(p))
                || b.points.iter().any(|&p| a.contains_strictly(p))
            {
                return 0.0;
            }
            let mut best = f64::INFINITY;
            for e in a.edges() {
                for f in b.edges() {
                    best = best.min(e.distance_to_segment(&f));
                }
            }
            best
        };
        let mut unit = xorshift(0x00d1_57a9_ce00_0001);
        let mut apart = 0;
        for k in 0..20_000 {
            let scale = [1.0, 1.0, 1.0, 1e12, 1e-12][k % 5];
            let rect = |x: f64, y: f64, f: f64, d: f64| {
                ElementRect::new(Pose::new(x * scale, y * scale, f), scale, d * scale).polygon()
            };
            let a = rect(unit() * 4.0, unit() * 4.0, unit() * 360.0, 0.5);
            let mut b = match k % 3 {
                0 => rect(unit() * 6.0, unit() * 6.0, [0.0, 90.0, 180.0][k % 3], 1.0),
                1 => convex_hull(&[
                    Point::new(unit() * 8.0, unit() * 8.0) * scale,
                    Point::new(unit() * 8.0, unit() * 8.0) * scale,
                    Point::new(unit() * 8.0, unit() * 8.0) * scale,
                    Point::new(unit() * 8.0, unit() * 8.0) * scale,
                ]),
                _ => {
                    // Touching: an edge of `a` moved out by about a tolerance.
                    let off = Point::new(unit() - 0.5, unit() - 0.5) * (4.0 * TOLERANCE * scale);
                    Polygon::new(a.points.iter().map(|&p| p + off + off).collect())
                }
            };
            if k % 101 == 0 {
                b.points[0].y = f64::NAN;
            }
            let (got, want) = (a.distance_to_polygon(&b), reference(&a, &b));
            assert_eq!(got.to_bits(), want.to_bits(), "{a:?} {b:?}");
            apart += usize::from(want > 0.0);
            // `closer_than` is the comparison of that distance with any limit, at it and beside.
            let next_up = |x: f64| f64::from_bits(x.to_bits() + 1);
            let limits = [
                0.0,
                TOLERANCE,
                0.5,
                1.0 + TOLERANCE,
                got,
                next_up(got),
                3.0 * scale,
            ];
            for d in limits.into_iter().chain([f64::INFINITY, f64::NAN]) {
                assert_eq!(a.closer_than(&b, d), got < d, "{d} {a:?} {b:?}");
                assert_eq!(a.within(&b, d), got <= d, "{d} {a:?} {b:?}");
            }
        }
        assert!(apart > 5000, "the sample reaches apart pairs ({apart})");
    }
}
