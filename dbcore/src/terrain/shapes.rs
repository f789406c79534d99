//! Shape helpers used by the terrain rules (DBA3.md §3.2, §3.8): lengths and distances of
//! polylines, polygons that meet, the part of a segment inside a polygon, a feature's measured
//! size.

use super::*;

/// Total length of a polyline.
pub fn polyline_length(pts: &[Point]) -> f64 {
    pts.windows(2).map(|w| w[0].distance(w[1])).sum()
}

/// The segments of an open polyline.
pub fn polyline_segments(pts: &[Point]) -> impl Iterator<Item = Segment> + '_ {
    pts.windows(2).map(|w| Segment::new(w[0], w[1]))
}

/// Least distance from `p` to an open polyline (infinite when it has no points).
pub fn polyline_distance_to_point(pts: &[Point], p: Point) -> f64 {
    if pts.len() == 1 {
        return pts[0].distance(p);
    }
    polyline_segments(pts)
        .map(|s| s.distance_to_point(p))
        .fold(f64::INFINITY, f64::min)
}

/// Least distance from a segment to an open polyline.
pub fn polyline_distance_to_segment(pts: &[Point], s: &Segment) -> f64 {
    if pts.len() == 1 {
        return s.distance_to_point(pts[0]);
    }
    polyline_segments(pts)
        .map(|t| t.distance_to_segment(s))
        .fold(f64::INFINITY, f64::min)
}

/// Least distance from a polygon (boundary or interior) to an open polyline.
pub fn polyline_distance_to_polygon(pts: &[Point], poly: &Polygon) -> f64 {
    if pts.iter().any(|&p| poly.contains_strictly(p)) {
        return 0.0;
    }
    poly.edges()
        .map(|e| polyline_distance_to_segment(pts, &e))
        .fold(f64::INFINITY, f64::min)
}

/// The bounding box of `pts` as (min, max), the same box as [`Polygon::bounds`] (infinite and
/// inverted for no points; a NaN coordinate is passed over, as `f64::min` passes it over). Pure
/// speed (#15): one comparison per coordinate instead of the NaN-aware `f64::min`, which cost
/// most of a 20-gon's box; the two differ at most in the sign of a zero bound, and every caller
/// only compares the bounds or adds to them, where a zero's sign changes nothing.
pub(crate) fn points_bounds(pts: &[Point]) -> (Point, Point) {
    bounds_and_finite(pts).0
}

/// An outline's box (least and greatest corner) and whether every coordinate of it is finite:
/// what the going and uphill questions test first, and what a table's memo keeps (#15).
pub(crate) type OutlineBox = ((Point, Point), bool);

/// The [`OutlineBox`] of `outline`: [`points_bounds`] of its points and their finiteness.
pub(crate) fn outline_box(outline: &Polygon) -> OutlineBox {
    bounds_and_finite(&outline.points)
}

/// [`points_bounds`], and whether every coordinate of `pts` is finite, in the same pass (#15:
/// the separate pass over a 20-gon cost twice its box). `p · 0` is a zero for a finite
/// coordinate and a NaN for an infinite or NaN one, and a NaN stays in the sum, so the sum is 0
/// exactly when every coordinate is finite.
pub(super) fn bounds_and_finite(pts: &[Point]) -> ((Point, Point), bool) {
    let mut lo = Point::new(f64::INFINITY, f64::INFINITY);
    let mut hi = Point::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
    let mut zero = Point::new(0.0, 0.0);
    for &p in pts {
        lo.x = lesser(lo.x, p.x);
        lo.y = lesser(lo.y, p.y);
        hi.x = greater(hi.x, p.x);
        hi.y = greater(hi.y, p.y);
        zero = zero + p * 0.0;
    }
    ((lo, hi), zero.x == 0.0 && zero.y == 0.0)
}

/// `a.min(b)` for an `a` that is not a NaN, by one comparison (#15): `a` for a NaN `b`, as
/// `f64::min` gives; of two zeros either may come back, as with `f64::min`.
#[inline]
pub(super) fn lesser(a: f64, b: f64) -> f64 {
    if b < a {
        b
    } else {
        a
    }
}

/// `a.max(b)` for an `a` that is not a NaN, by one comparison (#15), as [`lesser`].
#[inline]
pub(super) fn greater(a: f64, b: f64) -> f64 {
    if b > a {
        b
    } else {
        a
    }
}

/// Bounding boxes apart by more than any rounding of the exact tests of
/// [`polygons_intersect`]: no point of one is strictly inside the other and no edges cross.
pub(super) fn boxes_apart((alo, ahi): (Point, Point), (blo, bhi): (Point, Point)) -> bool {
    const APART: f64 = 1e-9;
    ahi.x + APART < blo.x || bhi.x + APART < alo.x || ahi.y + APART < blo.y || bhi.y + APART < alo.y
}

/// Two polygons share at least one point (touching included).
pub fn polygons_intersect(a: &Polygon, b: &Polygon) -> bool {
    if a.points.is_empty() || b.points.is_empty() {
        return false;
    }
    // Bounding boxes apart: the answer is already known. Pure speed (swept paths against 20-gon
    // woods and hills, most of them far away). Only finite outlines are pre-tested (a NaN is
    // skipped by the box), so others are decided by the exact tests as before.
    let ((ab, a_finite), (bb, b_finite)) =
        (bounds_and_finite(&a.points), bounds_and_finite(&b.points));
    if boxes_apart(ab, bb) && a_finite && b_finite {
        return false;
    }
    polygons_intersect_near(a, b, ab, bb, a_finite && b_finite)
}

/// The exact tests of [`polygons_intersect`] for two outlines with points, given their boxes and
/// whether both are finite.
pub(super) fn polygons_intersect_near(
    a: &Polygon,
    b: &Polygon,
    (alo, ahi): (Point, Point),
    (blo, bhi): (Point, Point),
    finite: bool,
) -> bool {
    let inside = a.points.iter().any(|&p| b.contains_strictly(p))
        || b.points.iter().any(|&p| a.contains_strictly(p));
    if inside {
        return true;
    }
    if !finite {
        return a.edges().any(|e| b.edges().any(|f| e.intersects(&f)));
    }
    // Pure speed: two edges whose boxes are apart by more than `margin` do not cross, and
    // `Segment::intersects` never says they do: its rounding moves a crossing by about a
    // millionth of the coordinates' size, and `margin` is a thousandth of it (plus a thousandth
    // of a BW). So only edges with boxes that close are tested exactly; the answer is the same.
    // Every coordinate is finite here, so `lesser` and `greater` are the edges' true bounds.
    let size = [alo.x, alo.y, ahi.x, ahi.y, blo.x, blo.y, bhi.x, bhi.y]
        .iter()
        .fold(0.0f64, |m, v| m.max(v.abs()));
    let margin = 1e-3 * (1.0 + size);
    let apart = |e: &Segment, lo: Point, hi: Point| {
        greater(e.a.x, e.b.x) + margin < lo.x
            || hi.x + margin < lesser(e.a.x, e.b.x)
            || greater(e.a.y, e.b.y) + margin < lo.y
            || hi.y + margin < lesser(e.a.y, e.b.y)
    };
    a.edges().any(|e| {
        !apart(&e, blo, bhi)
            && b.edges().any(|f| {
                let (lo, hi) = (
                    Point::new(lesser(f.a.x, f.b.x), lesser(f.a.y, f.b.y)),
                    Point::new(greater(f.a.x, f.b.x), greater(f.a.y, f.b.y)),
                );
                !apart(&e, lo, hi) && e.intersects(&f)
            })
    })
}

/// An element's shrunk rectangle ([`inset_rect`]) with its box, for testing it against many
/// outlines: the box is worked out once, and the polygon only for an outline whose box comes
/// near (#15: most features are far from any one element, and then nothing is allocated).
pub(crate) struct InsetRect {
    corners: [Point; 4],
    bounds: (Point, Point),
    finite: bool,
    polygon: Option<Polygon>,
}

impl InsetRect {
    pub(crate) fn new(r: &ElementRect) -> InsetRect {
        let corners = inset_corners(r);
        let (bounds, finite) = bounds_and_finite(&corners);
        InsetRect {
            corners,
            bounds,
            finite,
            polygon: None,
        }
    }

    /// `polygons_intersect(&inset_rect(r), outline)`, the same answer.
    pub(crate) fn meets(&mut self, outline: &Polygon) -> bool {
        self.meets_boxed(outline, || outline_box(outline))
    }

    /// [`Self::meets`] with the outline's [`outline_box`] given by `boxed` (kept from an
    /// earlier question, #15), the same answer when it is that box.
    pub(crate) fn meets_boxed(
        &mut self,
        outline: &Polygon,
        boxed: impl FnOnce() -> OutlineBox,
    ) -> bool {
        if outline.points.is_empty() {
            return false;
        }
        let (ob, finite) = boxed();
        let finite = finite && self.finite;
        if boxes_apart(self.bounds, ob) && finite {
            return false;
        }
        let corners = self.corners;
        let poly = self
            .polygon
            .get_or_insert_with(|| Polygon::new(corners.to_vec()));
        polygons_intersect_near(poly, outline, self.bounds, ob, finite)
    }
}

/// The element's rectangle shrunk by [`TOLERANCE`] on every side: an element merely touching a
/// feature's edge is not "in" it (§3.1 "partly in"), only one reaching over it is.
pub fn inset_rect(r: &ElementRect) -> Polygon {
    Polygon::new(inset_corners(r).to_vec())
}

/// The corners of [`inset_rect`], in the order of [`ElementRect::corners`]: those of the
/// rectangle `ElementRect::new(Pose::new(front.x, front.y, facing), width - 2t, depth - 2t)`,
/// worked out as [`ElementRect::corner`] does, with the one facing vector both need (#15: the
/// sine and cosine were half the cost of a shrunk rectangle).
pub(super) fn inset_corners(r: &ElementRect) -> [Point; 4] {
    let t = TOLERANCE.min(r.width * 0.25).min(r.depth * 0.25);
    let f = r.pose.forward();
    let front = r.pose.front_mid() - f * t;
    let (width, depth) = (r.width - 2.0 * t, r.depth - 2.0 * t);
    let right = f.right();
    let hw = width * 0.5;
    [
        front - right * hw,
        front + right * hw,
        front + right * hw - f * depth,
        front - right * hw - f * depth,
    ]
}

/// Length of the part of segment `s` that lies inside polygon `poly`.
pub fn length_inside(s: &Segment, poly: &Polygon) -> f64 {
    let len = s.length();
    if len == 0.0 || poly.points.len() < 3 {
        return 0.0;
    }
    let d = s.b - s.a;
    let mut ts = vec![0.0, 1.0];
    for e in poly.edges() {
        ts.extend(edge_crossing(s.a, d, e.a, e.b - e.a));
    }
    inside_between(&mut ts, s.a, d, len, |p| poly.contains_strictly(p))
}

/// Where the segment from `from` along `d` crosses the edge from `a` along `f`, as a fraction
/// of the segment (0 to 1), or `None` where they are parallel or miss each other. Where along
/// the edge (`u`) is worked out first, with a sliver of slack at its ends so that a crossing at
/// a vertex is not lost; it refuses most edges, and the segment's fraction `t` is then not
/// needed. [`length_inside`] and the tabled sections of [`measure`] share it, so they find the
/// same crossings to the bit.
#[inline(always)]
pub(super) fn edge_crossing(from: Point, d: Point, a: Point, f: Point) -> Option<f64> {
    let den = d.cross(f);
    if den.abs() < 1e-15 {
        return None;
    }
    let w = a - from;
    let u = w.cross(d) / den;
    if !(-1e-12..=1.0 + 1e-12).contains(&u) {
        return None;
    }
    let t = w.cross(f) / den;
    (0.0..=1.0).contains(&t).then_some(t)
}

/// The length inside a polygon of the segment from `a` along `d` (of length `len`), given where
/// along it (`ts`, 0 to 1, its ends included) it crosses the polygon's edges: each stretch
/// between two crossings is inside or out as its midpoint is (`contains`). Sorts `ts`.
/// [`length_inside`] and the tabled sections of [`measure`] share it, so both add the same
/// stretches in the same order.
pub(super) fn inside_between(
    ts: &mut [f64],
    a: Point,
    d: Point,
    len: f64,
    contains: impl Fn(Point) -> bool,
) -> f64 {
    sort_crossings(ts);
    let mut inside = 0.0;
    for w in ts.windows(2) {
        if w[1] - w[0] <= 0.0 {
            continue;
        }
        let mid = a + d * ((w[0] + w[1]) * 0.5);
        if contains(mid) {
            inside += (w[1] - w[0]) * len;
        }
    }
    inside
}

/// `ts` sorted by [`f64::total_cmp`]: by insertion when short (a section has a few crossings),
/// which saves the general sort's set-up (#15). A total order leaves one sorted arrangement
/// (values it holds equal have the same bits), so any sort by it gives the same slice.
pub(super) fn sort_crossings(ts: &mut [f64]) {
    if ts.len() > 16 {
        ts.sort_by(|x, y| x.total_cmp(y));
        return;
    }
    for i in 1..ts.len() {
        let x = ts[i];
        let mut j = i;
        while j > 0 && ts[j - 1].total_cmp(&x).is_gt() {
            ts[j] = ts[j - 1];
            j -= 1;
        }
        ts[j] = x;
    }
}

/// The segment properly crosses the polyline: they intersect and neither end of the segment is
/// on the polyline (within [`TOLERANCE`]).
pub fn segment_crosses_polyline(s: &Segment, pts: &[Point]) -> bool {
    if pts.len() < 2 {
        return false;
    }
    polyline_distance_to_point(pts, s.a) > TOLERANCE
        && polyline_distance_to_point(pts, s.b) > TOLERANCE
        && polyline_segments(pts).any(|t| t.intersects(s))
}

/// The area's centroid (vertex mean if the area is zero).
pub fn centroid(poly: &Polygon) -> Point {
    let a = poly.signed_area();
    if a.abs() < 1e-12 {
        let n = poly.points.len().max(1) as f64;
        let s = poly.points.iter().fold(Point::default(), |acc, &p| acc + p);
        return s * (1.0 / n);
    }
    let mut c = Point::default();
    for e in poly.edges() {
        let k = e.a.cross(e.b);
        c = c + (e.a + e.b) * k;
    }
    c * (1.0 / (6.0 * a))
}

/// Size of an area feature as §3.2 measures it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FeatureSize {
    /// Long side of the enclosing rectangle with the least length + width.
    pub length: f64,
    /// Short side of that rectangle.
    pub breadth: f64,
    /// Width at the centre: the shortest section of the polygon through its centroid (searched in
    /// ¼ degree steps), i.e. how wide the feature is where it is narrowest across its middle.
    pub centre_width: f64,
}

/// Measure an outline for §3.2. The enclosing rectangle is searched over orientations in steps of
/// ¼ degree (exact for rectangles; well within a player's measuring for curves).
pub fn measure(poly: &Polygon) -> FeatureSize {
    // Pure speed, the same arithmetic in the same order as measuring directly (the plain version
    // is kept in the tests, which compare the two bit for bit): the 720 bearings are read from a
    // table of `from_bearing`'s bits instead of worked out, each vertex's offset from the
    // centroid is worked out once instead of once a bearing, and the sections through the
    // centroid reuse one table of the outline's edges and one buffer of crossings instead of
    // allocating for every bearing.
    let c = centroid(poly);
    let dirs = &bearings::BEARINGS;
    let rel: Vec<Point> = poly.points.iter().map(|&p| p - c).collect();
    let (length, breadth) = rectangle_of(&rel);
    let reach = (length + breadth) * 2.0 + 1.0;
    let mut sections = Sections::new(poly);
    sections.through(c, &rel, reach);
    let centre_width = dirs
        .iter()
        .enumerate()
        .map(|(i, &across)| sections.section(i, across))
        .fold(f64::INFINITY, f64::min);
    FeatureSize {
        length,
        breadth,
        centre_width,
    }
}

/// The length and breadth of [`measure`] alone, without the width at the centre: for callers
/// that need only the enclosing rectangle (a camp's size, §4.6), the same two numbers to the bit
/// at about half the work (#15).
pub(crate) fn measure_rectangle(poly: &Polygon) -> (f64, f64) {
    let c = centroid(poly);
    let rel: Vec<Point> = poly.points.iter().map(|&p| p - c).collect();
    rectangle_of(&rel)
}

/// `(length, breadth)` of the least enclosing rectangle of the offsets `rel` (from the
/// centroid), as [`measure`] gives them: the longer side first.
pub(super) fn rectangle_of(rel: &[Point]) -> (f64, f64) {
    let (_, lu, lv) = least_rectangle(&bearings::BEARINGS, rel);
    if lu >= lv {
        (lu, lv)
    } else {
        (lv, lu)
    }
}

/// The enclosing-rectangle search of [`measure`]: for each bearing `u` of `dirs` (and `v`, its
/// [`Point::right`]), the spread of the offsets `rel` along `u` and along `v`; the first bearing
/// whose `lu + lv` is less than the best so far by more than 10⁻¹² wins. Gives
/// `(lu + lv, lu, lv)` of the winner, or `(∞, 0, 0)` when none wins.
///
/// Pure speed (#15): the vertices are the outer loop and the bearings the inner one, with the
/// four running extremes of every bearing kept in tables, so the inner loop is the same few
/// operations over arrays, which the compiler does two bearings at a time; four vertices go
/// through each pass (each bearing's extremes loaded and stored once for the four), still one
/// after the other. Each bearing still sees the same dot products (`r.dot(u)`, `r.dot(v)`, as
/// [`Point::dot`] works them out) in the same vertex order, so its extremes, and the winner,
/// are the bits of one bearing at a time (the tests compare it with the plain measure, which
/// folds with `f64::min` and `max`). The fold is a plain comparison: a running extreme starts
/// infinite and only takes a value that compares beyond it, so it is never NaN, and a NaN
/// offset, failing the comparison, is passed over, as `f64::min` passes it over; on a tie (`+0`
/// against `-0`) the running extreme stays, which is also what `f64::min` and `max` compile to
/// here (the minimum instruction with the new value first). Without `f64::min`'s NaN repair the
/// loop is about half the instructions.
pub(super) fn least_rectangle(dirs: &[Point; 720], rel: &[Point]) -> (f64, f64, f64) {
    let ux: [f64; 720] = std::array::from_fn(|i| dirs[i].x);
    let uy: [f64; 720] = std::array::from_fn(|i| dirs[i].y);
    let vx: [f64; 720] = std::array::from_fn(|i| dirs[i].right().x);
    let vy: [f64; 720] = std::array::from_fn(|i| dirs[i].right().y);
    let mut ulo = [f64::INFINITY; 720];
    let mut uhi = [f64::NEG_INFINITY; 720];
    let mut vlo = [f64::INFINITY; 720];
    let mut vhi = [f64::NEG_INFINITY; 720];
    let mut fours = rel.chunks_exact(4);
    for q in &mut fours {
        let r = [q[0], q[1], q[2], q[3]];
        for i in 0..720 {
            let (mut lo, mut hi, mut wlo, mut whi) = (ulo[i], uhi[i], vlo[i], vhi[i]);
            for r in r {
                let du = r.x * ux[i] + r.y * uy[i];
                let dv = r.x * vx[i] + r.y * vy[i];
                lo = if du < lo { du } else { lo };
                hi = if du > hi { du } else { hi };
                wlo = if dv < wlo { dv } else { wlo };
                whi = if dv > whi { dv } else { whi };
            }
            (ulo[i], uhi[i], vlo[i], vhi[i]) = (lo, hi, wlo, whi);
        }
    }
    for &r in fours.remainder() {
        for i in 0..720 {
            let du = r.x * ux[i] + r.y * uy[i];
            let dv = r.x * vx[i] + r.y * vy[i];
            ulo[i] = if du < ulo[i] { du } else { ulo[i] };
            uhi[i] = if du > uhi[i] { du } else { uhi[i] };
            vlo[i] = if dv < vlo[i] { dv } else { vlo[i] };
            vhi[i] = if dv > vhi[i] { dv } else { vhi[i] };
        }
    }
    let mut best = (f64::INFINITY, 0.0, 0.0);
    for i in 0..720 {
        let (lu, lv) = (uhi[i] - ulo[i], vhi[i] - vlo[i]);
        if lu + lv < best.0 - 1e-12 {
            best = (lu + lv, lu, lv);
        }
    }
    best
}

/// [`length_inside`] for many segments and one polygon: its edges tabled once (start, end, and
/// end − start, each worked out as `length_inside` and [`Polygon::contains_strictly`] work them
/// out), and one buffer of crossings reused, so every section gives the very same bits.
pub(super) struct Sections<'a> {
    pub(super) poly: &'a Polygon,
    /// Every edge in the order of [`Polygon::edges`]: its start, its end, and end − start.
    pub(super) edges: Vec<(Point, Point, Point)>,
    /// The crossings of the current segment (a parameter along it each).
    pub(super) ts: Vec<f64>,
    /// Bounds beyond which no point is strictly inside (see [`Sections::contains_strictly`]):
    /// the least and greatest vertex `y`, and the greatest `x` an edge's crossing can be
    /// worked out at; `None` unless every vertex is finite.
    pub(super) outside: Option<(f64, f64, f64)>,
    /// The edges again, by bands of `y` (see [`Bands`]); `None` unless every vertex is finite
    /// and the outline has some height.
    pub(super) bands: Option<Bands>,
    /// The sections through one point (see [`Sections::through`]).
    pub(super) line: Option<Line>,
}

/// The edges of an outline sorted into `n` bands of `y` of height `h` from `ylo`: band `k`
/// holds, in the order of [`Polygon::edges`], every edge whose lower end is in a band at most
/// `k` and whose upper end in one at least `k`. [`Bands::band`] is monotone in `y` (a
/// subtraction, a division and a saturating conversion, each monotone), so any `y` between an
/// edge's ends falls in a band that holds it.
pub(super) struct Bands {
    pub(super) ylo: f64,
    pub(super) h: f64,
    pub(super) n: usize,
    /// Where each band's edges start in `edges` (`n + 1` entries).
    pub(super) start: Vec<usize>,
    pub(super) edges: Vec<(Point, Point, Point)>,
}

impl Bands {
    pub(super) fn new(edges: &[(Point, Point, Point)], ylo: f64, yhi: f64) -> Option<Bands> {
        let n = (edges.len() / 2).clamp(1, 64);
        let h = (yhi - ylo) / n as f64;
        if !(h > 0.0 && h.is_finite()) {
            return None;
        }
        let mut bands = Bands {
            ylo,
            h,
            n,
            start: vec![0; n + 1],
            edges: Vec::new(),
        };
        let span = |b: &Bands, &(a, e, _): &(Point, Point, Point)| {
            let (lo, hi) = if a.y <= e.y { (a.y, e.y) } else { (e.y, a.y) };
            (b.band(lo), b.band(hi))
        };
        for edge in edges {
            let (k0, k1) = span(&bands, edge);
            for k in k0..=k1 {
                bands.start[k + 1] += 1;
            }
        }
        for k in 0..n {
            bands.start[k + 1] += bands.start[k];
        }
        let mut fill = bands.start.clone();
        bands.edges = vec![edges[0]; bands.start[n]];
        for edge in edges {
            let (k0, k1) = span(&bands, edge);
            for slot in &mut fill[k0..=k1] {
                bands.edges[*slot] = *edge;
                *slot += 1;
            }
        }
        Some(bands)
    }

    pub(super) fn band(&self, y: f64) -> usize {
        (((y - self.ylo) / self.h) as usize).min(self.n - 1)
    }

    /// The edges of the band that `y` falls in.
    pub(super) fn at(&self, y: f64) -> &[(Point, Point, Point)] {
        let k = self.band(y);
        &self.edges[self.start[k]..self.start[k + 1]]
    }
}

/// The sections of [`measure`]: through `c`, `reach` either way along each bearing of the
/// table. `tried`, when the pre-test is sure to hold (see [`Sections::through`]), holds for
/// each bearing a mask of the edges that may cross its line (`words` words a bearing, edge
/// `j` at bit `j % 64` of word `j / 64`); every other edge has both ends clear of the line on
/// one side.
pub(super) struct Line {
    pub(super) c: Point,
    pub(super) reach: f64,
    pub(super) words: usize,
    pub(super) tried: Option<Vec<u64>>,
}

impl<'a> Sections<'a> {
    pub(super) fn new(poly: &'a Polygon) -> Sections<'a> {
        let edges: Vec<(Point, Point, Point)> =
            poly.edges().map(|e| (e.a, e.b, e.b - e.a)).collect();
        let ts = Vec::with_capacity(edges.len() + 2);
        let finite = poly
            .points
            .iter()
            .all(|p| p.x.is_finite() && p.y.is_finite());
        let outside = finite.then(|| {
            edges.iter().fold(
                (f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY),
                |(ylo, yhi, xcap), &(a, _, f)| {
                    (ylo.min(a.y), yhi.max(a.y), xcap.max(a.x).max(a.x + f.x))
                },
            )
        });
        let bands = outside.and_then(|(ylo, yhi, _)| Bands::new(&edges, ylo, yhi));
        Sections {
            poly,
            edges,
            ts,
            outside,
            bands,
            line: None,
        }
    }

    /// Make ready for [`Sections::section`]: sections through `c`, `reach` either way, with
    /// `rel` each vertex's offset from `c` as [`measure`] works it out.
    ///
    /// The pre-test is taken only when every coordinate of `c` and of the vertices is finite,
    /// `reach >= 1`, and `S`, the greatest of `reach` and of every coordinate's size, is at
    /// most `100 reach` and `10¹⁰⁰` (so no product overflows, and the margin `K = 10⁻⁷ S`
    /// stays far above the rounding of a section's arithmetic: see [`Sections::section`]).
    ///
    /// Which bearings a vertex is clear at: with `r` its offset and `a` a bearing of the table
    /// (the sine and cosine of `θ`, each within 2⁻⁵³ of the exact one), the offset across the
    /// line, `r.x·a.y − r.y·a.x`, is `|r| cos(θ + φ)` (`φ` the angle of `r`) within
    /// `3·2⁻⁵³ |r|`. It is zero at one bearing `p` of the half turn (in table steps of ¼
    /// degree, worked out with `atan2` to far better than 10⁻¹⁰ of a step), below it of one
    /// sign and above it of the other, and at a bearing at least 2 steps (½ degree, round the
    /// half turn) from `p` its size is at least `|r| sin ½° − 3·2⁻⁵³|r| > 0.0087 |r|`, which is
    /// beyond `K` when `|r| >= 200 K`. A vertex nearer `c` than that is clear at no bearing.
    /// An edge is tried at every bearing within 2 steps of either end's `p` (taken wide, from
    /// the floor and the ceiling), and at every bearing where its ends' signs differ; at any
    /// other bearing both ends are clear on one side.
    pub(super) fn through(&mut self, c: Point, rel: &[Point], reach: f64) {
        let mut big = reach;
        let mut finite = self.outside.is_some() && c.x.is_finite() && c.y.is_finite();
        for p in self.poly.points.iter().chain([&c]) {
            finite &= p.x.is_finite() && p.y.is_finite();
            big = big.max(p.x.abs()).max(p.y.abs());
        }
        let n = self.edges.len();
        let words = n.div_ceil(64).max(1);
        let sure = finite && reach >= 1.0 && big <= 100.0 * reach && big <= 1e100 && n >= 3;
        let tried = sure.then(|| {
            let near = 200.0 * 1e-7 * big;
            // Each vertex: the step `p` where its side changes and its side above `p`, or
            // `None` when it is too near `c` to be clear anywhere.
            let turns: Vec<Option<(f64, i8)>> = rel
                .iter()
                .map(|r| {
                    (r.x.hypot(r.y) >= near).then(|| {
                        let q = ((90.0 - r.y.atan2(r.x).to_degrees()) * 4.0).rem_euclid(1440.0);
                        if q < 720.0 {
                            (q, -1)
                        } else {
                            (q - 720.0, 1)
                        }
                    })
                })
                .collect();
            let mut tried = vec![0u64; 720 * words];
            let mut mark = |i: usize, j: usize| tried[i * words + j / 64] |= 1 << (j % 64);
            for j in 0..n {
                let (ta, tb) = (turns[j], turns[(j + 1) % n]);
                let (Some((pa, aa)), Some((pb, ab))) = (ta, tb) else {
                    (0..720).for_each(|i| mark(i, j));
                    continue;
                };
                for p in [pa, pb] {
                    let lo = p.floor() as i64 - 2;
                    let hi = p.ceil() as i64 + 2;
                    for i in lo..=hi {
                        mark(i.rem_euclid(720) as usize, j);
                    }
                }
                // Steps below `p` take the sign opposite the one above: the ends' signs differ
                // between the two `p`s when they agree above, and outside them otherwise.
                let (lo, hi) = (pa.min(pb).ceil() as usize, pa.max(pb).ceil() as usize);
                if aa == ab {
                    (lo..hi).for_each(|i| mark(i, j));
                } else {
                    (0..lo).chain(hi..720).for_each(|i| mark(i, j));
                }
            }
            tried
        });
        self.line = Some(Line {
            c,
            reach,
            words,
            tried,
        });
    }

    /// [`length_inside`] of the section through the point of [`Sections::through`] along
    /// bearing `i` of the table (`across`, `reach` either way), step for step, trying only the
    /// edges that may cross its line.
    ///
    /// An edge whose ends are both clear of the line on one side (the offset across it beyond
    /// `K = 10⁻⁷ S`) would be passed over by `length_inside` too: where along the edge it meets
    /// the line is `u = g(a) / (g(a) − g(b))` exactly, with `g(p) = (p − s.a) × d`, which is
    /// within some `100·2⁻⁵³ S²` of `2 reach` times the offset across (every coordinate worked
    /// with is at most `4 S`), so `g(a)` and `g(b)` share a sign and are at least
    /// `2 reach K − 100·2⁻⁵³ S² > 10⁻⁹ S²` each; `u` is then below 0 or above 1 by at least
    /// that over `|g(a) − g(b)| <= 24 S²`, and the rounding of `u` as worked out (errors of
    /// about `150·2⁻⁵³ S²` at most in its numerator and denominator) brings it nowhere near the
    /// `[−10⁻¹², 1 + 10⁻¹²]` an edge needs to give a crossing. Every other edge is tried in
    /// full, in the same order, so the crossings, and the length, are the same bits.
    pub(super) fn section(&mut self, i: usize, across: Point) -> f64 {
        let line = self.line.as_ref().expect("through comes first");
        let s = Segment::new(line.c - across * line.reach, line.c + across * line.reach);
        let Some(tried) = &line.tried else {
            return self.length_inside(&s);
        };
        let len = s.length();
        if len == 0.0 || self.poly.points.len() < 3 {
            return 0.0;
        }
        let d = s.b - s.a;
        self.ts.clear();
        self.ts.extend([0.0, 1.0]);
        for (w, &word) in tried[i * line.words..(i + 1) * line.words]
            .iter()
            .enumerate()
        {
            let mut bits = word;
            while bits != 0 {
                let j = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let (a, _, f) = self.edges[j];
                self.ts.extend(edge_crossing(s.a, d, a, f));
            }
        }
        self.inside_crossed(s.a, d, len)
    }

    /// [`length_inside`]`(s, poly)`, step for step.
    pub(super) fn length_inside(&mut self, s: &Segment) -> f64 {
        let len = s.length();
        if len == 0.0 || self.poly.points.len() < 3 {
            return 0.0;
        }
        let d = s.b - s.a;
        self.ts.clear();
        self.ts.extend([0.0, 1.0]);
        for &(a, _, f) in &self.edges {
            self.ts.extend(edge_crossing(s.a, d, a, f));
        }
        self.inside_crossed(s.a, d, len)
    }

    /// [`inside_between`] over the crossings gathered in `self.ts`, whose buffer is kept for
    /// the next section.
    pub(super) fn inside_crossed(&mut self, from: Point, d: Point, len: f64) -> f64 {
        let mut ts = std::mem::take(&mut self.ts);
        let inside = inside_between(&mut ts, from, d, len, |p| self.contains_strictly(p));
        self.ts = ts;
        inside
    }

    /// [`Polygon::contains_strictly`]`(p)`, step for step, after an exact pre-test, over the
    /// edges of `p.y`'s band only.
    ///
    /// The pre-test (every vertex finite): an edge flips the answer only when its ends straddle
    /// `p.y` (`a.y > p.y` differs from `b.y > p.y`), which no edge does when `p.y` is at least
    /// the greatest vertex `y` (every `a.y > p.y` is false) or below the least (every one is
    /// true). A straddling edge has `q = p.y - a.y` and `f.y = b.y - a.y` of one sign with
    /// `|q| <= |f.y|` before rounding, so after it (rounding is monotone) `0 <= q / f.y <= 1`,
    /// `q / f.y * f.x` lies between 0 and `f.x`, and the crossing `x = a.x + q / f.y * f.x`
    /// between `a.x` and `a.x + f.x` as computed: it is at most their greatest over all edges,
    /// and `p.x` at least that is never `< x`. A `p` with a NaN fails every comparison and is
    /// tested in full.
    ///
    /// The bands: the answer is the parity of the straddling edges that `p` is left of, in any
    /// order, and every edge that straddles `p.y` has its ends on either side of it, so it is
    /// in `p.y`'s band (see [`Bands`]); the band's other edges flip nothing.
    pub(super) fn contains_strictly(&self, p: Point) -> bool {
        let mut edges = &self.edges[..];
        if let Some((ylo, yhi, xcap)) = self.outside {
            if p.y >= yhi || p.y < ylo || p.x >= xcap {
                return false;
            }
            if let (Some(bands), true) = (&self.bands, p.y >= ylo) {
                edges = bands.at(p.y);
            }
        }
        let mut inside = false;
        for &(a, b, f) in edges {
            if (a.y > p.y) != (b.y > p.y) {
                let x = a.x + (p.y - a.y) / f.y * f.x;
                if p.x < x {
                    inside = !inside;
                }
            }
        }
        inside
    }
}
