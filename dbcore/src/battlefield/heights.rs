//! Hills and heights (§3.3): a point's height up a hill's slope and whether one element is
//! uphill of another (§10.3), with the boxes that spare the measures far from every hill.

use super::*;

/// Heights closer than this count as level (§3.3 needs "higher up", not "as high").
pub(super) const HEIGHT_EPS: f64 = 1e-6;

/// The bounding box of `pts`: min x, min y, max x, max y (the box of [`points_bounds`], whose
/// bounds may differ from `f64::min`'s only in a zero's sign, which the comparisons and the
/// slack of [`HillBox`] never see).
pub(super) fn points_box(pts: &[Point]) -> [f64; 4] {
    let (lo, hi) = points_bounds(pts);
    [lo.x, lo.y, hi.x, hi.y]
}

/// A hill with the box of its outline, widened by a slack far above any rounding: a point
/// outside that box is outside the outline for [`Polygon::contains_strictly`] too (no edge
/// crosses its horizontal line, or every crossing lies on one side of it, an even number), so
/// its [`Battlefield::hill_height`] is exactly 0 and need not be worked out (#15).
#[derive(Clone)]
pub(super) struct HillBox<'a> {
    hill: &'a AreaFeature,
    lo: Point,
    hi: Point,
}

impl<'a> HillBox<'a> {
    /// `None` for an outline with a non-finite point (every point is then measured).
    pub(super) fn of(hill: &'a AreaFeature) -> Option<HillBox<'a>> {
        HillBox::of_box(hill, points_box(&hill.outline.points))
    }

    /// [`HillBox::of`] given `points_box` of the hill's outline (kept in an [`AreaBoxes`]).
    pub(super) fn of_box(hill: &'a AreaFeature, [x0, y0, x1, y1]: [f64; 4]) -> Option<HillBox<'a>> {
        if !(x0.is_finite() && y0.is_finite() && x1.is_finite() && y1.is_finite()) {
            return None;
        }
        let slack = 1e-9 * (1.0 + x0.abs().max(x1.abs()).max(y0.abs()).max(y1.abs()));
        Some(HillBox {
            hill,
            lo: Point::new(x0 - slack, y0 - slack),
            hi: Point::new(x1 + slack, y1 + slack),
        })
    }

    /// `p` lies outside the box (never for a non-finite point).
    pub(super) fn clear_of(&self, p: Point) -> bool {
        p.x < self.lo.x || p.x > self.hi.x || p.y < self.lo.y || p.y > self.hi.y
    }

    /// The box meets `b` (min x, min y, max x, max y) widened by a tolerance, or `b` is not
    /// finite.
    pub(super) fn meets(&self, b: &[f64; 4]) -> bool {
        let m = TOLERANCE;
        !(b[2] + m < self.lo.x
            || b[0] - m > self.hi.x
            || b[3] + m < self.lo.y
            || b[1] - m > self.hi.y)
    }
}

/// A box (min x, min y, max x, max y) holding the front edge of `a` and every corner of `b`,
/// worked out from the poses alone, without a sine or cosine (#15). A corner is
/// `m ± r·(w/2) − f·d` (or `m ± r·(w/2)` on the front edge) for the front-edge midpoint `m` and
/// unit vectors `r` and `f` whose coordinates are at most 1 in size, so each coordinate lies
/// within `|w/2| + |d|` of `m`'s, and rounding (monotone) keeps it inside the rounded bound too;
/// the box is widened by a slack besides. A non-finite pose or size gives a box that is not
/// finite, which [`HillBox::meets`] always meets.
pub(super) fn loose_reach(a: &ElementRect, b: &ElementRect) -> [f64; 4] {
    let around = |m: Point, r: f64| {
        let slack = 1e-9 * (1.0 + m.x.abs() + m.y.abs() + r);
        [
            m.x - r - slack,
            m.y - r - slack,
            m.x + r + slack,
            m.y + r + slack,
        ]
    };
    let ra = (a.width * 0.5).abs();
    let rb = (b.width * 0.5).abs() + b.depth.abs();
    let (ba, bb) = (
        around(a.pose.front_mid(), ra),
        around(b.pose.front_mid(), rb),
    );
    // A NaN bound stays a NaN (never `f64::min`, which would pass over it).
    let lesser = |x: f64, y: f64| if x < y || x.is_nan() { x } else { y };
    let greater = |x: f64, y: f64| if x > y || x.is_nan() { x } else { y };
    [
        lesser(ba[0], bb[0]),
        lesser(ba[1], bb[1]),
        greater(ba[2], bb[2]),
        greater(ba[3], bb[3]),
    ]
}

/// The hills [`Battlefield::is_uphill_of`] looks at, in feature order, without a heap block
/// for the few a table has (a table with more spills to the heap).
#[derive(Default)]
pub(super) struct HillsInReach<'a> {
    few: [Option<HillBox<'a>>; 4],
    more: Vec<HillBox<'a>>,
}

impl<'a> HillsInReach<'a> {
    pub(super) fn push(&mut self, h: HillBox<'a>) {
        match self.few.iter_mut().find(|s| s.is_none()) {
            Some(slot) if self.more.is_empty() => *slot = Some(h),
            _ => self.more.push(h),
        }
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = &HillBox<'a>> {
        self.few
            .iter()
            .map_while(|s| s.as_ref())
            .chain(self.more.iter())
    }
}

/// One hill as [`Battlefield::hill_height`] measures it at the points of one small region
/// (#47): the edges that can matter there, the crest or middle worked out once. The height it
/// gives at a point of the region is the very same number.
///
/// - An edge toggles [`Polygon::contains_strictly`] only for points whose `y` lies in its own
///   span, and only for points to its left (the crossing is interpolated between its ends, so
///   it lies within rounding of them). Edges whose span misses the region's `y`, or that lie
///   wholly left of it, by more than a slack far above rounding, never toggle there, and the
///   parity is that of the rest.
/// - The distance from a point to an edge is convex in the point, so over the region it is at
///   most its greatest at the region's corners. That greatest, for one edge (the one nearest the
///   region's middle), bounds the nearest edge's distance from every point of the region. An
///   edge whose box lies further from the region's box than that bound, by a thousandth and a
///   slack, is never the nearest nor within the millionth `hill_height` keeps, so the least
///   distance and the edges kept are the same.
/// - The middle of a hill without a crest (its centroid) is the same number at every point.
pub(super) struct HillNear<'a> {
    /// The hill, its box: [`HillBox::clear_of`] still spares the points off it.
    pub(super) hill: HillBox<'a>,
    /// The region's corners (the first `corners.1`).
    corners: ([Point; MOST_REGION_CORNERS], usize),
    /// The edges and middle, worked out when first a point of the region is not clear of the
    /// hill's box (a hill near two elements but under neither costs no more than its box).
    kept: std::cell::OnceCell<Kept>,
}

/// The most corners a region of [`HillNear`] has: a front edge's two and a base's four.
const MOST_REGION_CORNERS: usize = 6;

/// What [`HillNear`] keeps of a hill for its region.
struct Kept {
    /// The edges that may toggle the inside test at a point of the region.
    crossing: Vec<Segment>,
    /// The edges that may be nearest to a point of the region.
    near: Vec<Segment>,
    /// The middle the height rises to when the hill has no crest.
    middle: Point,
}

impl Kept {
    /// The edges of `hill` that matter at the points of the convex hull of `region` (their
    /// box, give or take rounding), every edge when a number is not finite.
    fn new(hill: &HillBox, region: &[Point]) -> Kept {
        let outline = &hill.hill.outline;
        let edges = || outline.edges();
        let [x0, y0, x1, y1] = points_box(region);
        let middle = if hill.hill.crest.is_empty() {
            crate::terrain::centroid(outline)
        } else {
            Point::default()
        };
        let all = || Kept {
            crossing: edges().collect(),
            near: edges().collect(),
            middle,
        };
        let scale = [x0, y0, x1, y1, hill.lo.x, hill.lo.y, hill.hi.x, hill.hi.y]
            .iter()
            .fold(0.0, |m: f64, v| m.max(v.abs()));
        if !scale.is_finite() {
            return all();
        }
        let slack = 1e-9 * (1.0 + scale);
        let centre = Point::new(0.5 * (x0 + x1), 0.5 * (y0 + y1));
        let square = |e: &Segment, p: Point| {
            let d = e.closest_point(p) - p;
            d.dot(d)
        };
        let Some(reference) =
            edges().min_by(|e, f| square(e, centre).total_cmp(&square(f, centre)))
        else {
            return all();
        };
        let bound = region
            .iter()
            .map(|&c| reference.distance_to_point(c))
            .fold(0.0, f64::max);
        if !bound.is_finite() {
            return all();
        }
        let reach = bound * (1.0 + 1e-3) + slack;
        let crossing = edges()
            .filter(|e| {
                let (lo, hi) = (e.a.y.min(e.b.y), e.a.y.max(e.b.y));
                !(hi < y0 - slack || lo > y1 + slack || e.a.x.max(e.b.x) + slack < x0)
            })
            .collect();
        let near = edges()
            .filter(|e| {
                let dx = (e.a.x.min(e.b.x) - x1).max(x0 - e.a.x.max(e.b.x)).max(0.0);
                let dy = (e.a.y.min(e.b.y) - y1).max(y0 - e.a.y.max(e.b.y)).max(0.0);
                dx.hypot(dy) <= reach
            })
            .collect();
        Kept {
            crossing,
            near,
            middle,
        }
    }
}

impl<'a> HillNear<'a> {
    /// The hill of `hill` at the points of the convex hull of `region`, a region of at most
    /// [`MOST_REGION_CORNERS`] corners (their box, give or take rounding).
    pub(super) fn new(hill: HillBox<'a>, region: &[Point]) -> HillNear<'a> {
        assert!(
            region.len() <= MOST_REGION_CORNERS,
            "a region of {} corners",
            region.len()
        );
        let mut corners = [Point::default(); MOST_REGION_CORNERS];
        corners[..region.len()].copy_from_slice(region);
        HillNear {
            hill,
            corners: (corners, region.len()),
            kept: std::cell::OnceCell::new(),
        }
    }

    /// The edges and middle kept for the region.
    fn kept(&self) -> &Kept {
        self.kept.get_or_init(|| {
            let (corners, n) = &self.corners;
            Kept::new(&self.hill, &corners[..*n])
        })
    }

    /// [`Battlefield::hill_height`] of the hill at a point of the region, step for step.
    pub(super) fn height(&self, p: Point) -> f64 {
        if !self.hill.hill.kind.is_hill() {
            return 0.0;
        }
        let kept = self.kept();
        if !kept.contains_strictly(p) {
            return 0.0;
        }
        let c = kept.crest_distance(&self.hill.hill.crest, p);
        height_inside(kept.near.iter().copied(), c, p)
    }
}

impl Kept {
    /// [`Polygon::contains_strictly`] of the outline at a point of the region.
    fn contains_strictly(&self, p: Point) -> bool {
        crate::geometry::inside_by_crossings(self.crossing.iter().copied(), p)
    }

    /// The least distance from a point of the region to the outline.
    fn edge_distance(&self, p: Point) -> f64 {
        self.near
            .iter()
            .map(|e| e.distance_to_point(p))
            .fold(f64::INFINITY, f64::min)
    }

    /// The distance from a point to the hill's `crest`, or to its middle when it has none.
    fn crest_distance(&self, crest: &[Point], p: Point) -> f64 {
        if crest.is_empty() {
            self.middle.distance(p)
        } else {
            polyline_distance_to_point(crest, p)
        }
    }
}

/// The height `b / (b + c)` of a point `p` inside a hill (§3.3), `b` its least distance to
/// `edges` (the outline's, or those of them that can be nearest) and `c` its distance to the
/// crest or middle. Pure speed: the squared distances (no square root) pick out the edges that
/// can be nearest (within a millionth of the least, far above rounding); only those are
/// measured exactly, so the least is the very same number.
#[inline]
fn height_inside(edges: impl Iterator<Item = Segment> + Clone, c: f64, p: Point) -> f64 {
    let square = |e: &Segment| {
        let d = e.closest_point(p) - p;
        d.dot(d)
    };
    let nearest2 = edges
        .clone()
        .map(|e| square(&e))
        .fold(f64::INFINITY, f64::min);
    let b = if nearest2.is_normal() {
        let cut = nearest2 * (1.0 + 1e-6);
        edges
            .filter(|e| {
                // A distance that is not a number is kept (the least ignores it either way).
                let d2 = square(e);
                d2 <= cut || d2.is_nan()
            })
            .map(|e| e.distance_to_point(p))
            .fold(f64::INFINITY, f64::min)
    } else {
        edges
            .map(|e| e.distance_to_point(p))
            .fold(f64::INFINITY, f64::min)
    };
    if b + c <= 0.0 {
        1.0
    } else {
        b / (b + c)
    }
}

/// A bound on [`Battlefield::hill_height`] of `hills` at every point within `reach` of
/// `middle` (#15), `middle` a point of their region. A point's height is `b / (b + c)`, `b` its
/// distance from the hill's edge
/// (0 outside the hill) and `c` its distance from the crest (or the middle): it grows with `b`
/// and falls with `c`, and each distance changes by at most `reach` from `middle`'s, so the
/// height is at most `(b + reach) / (b + reach + c - reach)` with `middle`'s distances. 1 when
/// that does not bound it (`c` within `reach`, or a distance not a number).
pub(super) fn height_bound(hills: &[HillNear], middle: Point, reach: f64) -> f64 {
    hills
        .iter()
        .map(|h| {
            let kept = h.kept();
            let edge = kept.edge_distance(middle);
            let crest = kept.crest_distance(&h.hill.hill.crest, middle);
            let (b, c) = (edge + reach, crest - reach);
            if b >= 0.0 && c > 0.0 && b.is_finite() && c.is_finite() {
                b / (b + c)
            } else {
                1.0
            }
        })
        .fold(0.0, f64::max)
}

impl Battlefield {
    /// Height of a point up a hill's slope, 0 at the hill's edge (and off it) rising to 1 on its
    /// crest line (§3.3). Inside the hill the height is `b / (b + c)`, with `b` the distance to the
    /// hill's outline and `c` the distance to its crest: it depends only on distances, so it does
    /// not change when the table is moved or turned, and every hill's slope runs from its edge
    /// straight up to its crest, as §3.3 describes. A hill without a crest rises to its middle.
    pub fn hill_height(hill: &AreaFeature, p: Point) -> f64 {
        if !hill.kind.is_hill() || !hill.outline.contains_strictly(p) {
            return 0.0;
        }
        let c = if hill.crest.is_empty() {
            crate::terrain::centroid(&hill.outline).distance(p)
        } else {
            polyline_distance_to_point(&hill.crest, p)
        };
        height_inside(hill.outline.edges(), c, p)
    }

    /// Height of a point: the greatest over all hills (hills never overlap, §3.8), skipping hills
    /// that carry a City or Fort when `combat` (§17.34).
    pub(super) fn height(&self, p: Point, combat: bool) -> f64 {
        self.areas()
            .filter(|(_, a)| a.kind.is_hill() && !(combat && self.hill_is_fortified(a)))
            .map(|(_, a)| Battlefield::hill_height(a, p))
            .fold(0.0, f64::max)
    }

    /// Height of a point up any hill's slope (0..=1), see [`Battlefield::hill_height`].
    pub fn height_at(&self, p: Point) -> f64 {
        self.height(p, false)
    }

    /// Whether element `a` fights uphill of element `b` (§3.3, §10.3): some part of `a`'s front
    /// edge is higher up a slope than every part of `b`. Parts are sampled (33 points along `a`'s
    /// front edge, a 17 × 17 grid over `b`). The parts of `b` lying on `a`'s front edge (within
    /// [`TOLERANCE`]) are left out: where two elements touch they are level by definition, and
    /// counting them would mean that two elements in full frontal contact could never be uphill
    /// of one another. A hill under a City or Fort gives no uphill (§17.34).
    pub fn is_uphill_of(&self, a: &ElementRect, b: &ElementRect) -> bool {
        self.uphill_boxed(a, b, None)
    }

    /// [`Battlefield::is_uphill_of`] with the outlines' boxes kept in `boxes` when they are this
    /// table's (#15), the same answer.
    pub(crate) fn is_uphill_of_boxed(
        &self,
        a: &ElementRect,
        b: &ElementRect,
        boxes: Option<&AreaBoxes>,
    ) -> bool {
        self.uphill_boxed(a, b, boxes.and_then(|k| k.of_table(self)))
    }

    /// [`Battlefield::is_uphill_of`], the hills' boxes read from `boxes` (by feature index) when
    /// given: they are the `points_box` of each outline that [`HillBox::of`] works out.
    pub(super) fn uphill_boxed<'a>(
        &'a self,
        a: &ElementRect,
        b: &ElementRect,
        boxes: Option<&[OutlineBox]>,
    ) -> bool {
        // Before any sine or cosine (#15): the hills whose box meets `loose_reach` of the two
        // poses, a box holding every corner below whichever way the elements face. A hill it
        // misses misses the corners' own box too, so with no hill near the answer is no.
        let loose = loose_reach(a, b);
        let hill_box = |i: usize, h: &'a AreaFeature| match boxes {
            Some(k) => {
                let ((lo, hi), _) = k[i];
                HillBox::of_box(h, [lo.x, lo.y, hi.x, hi.y])
            }
            None => HillBox::of(h),
        };
        // The hills in reach, each condition pure: the box first, the cheapest (#15), so that
        // with no hill near (the common case) nothing more is worked out or kept.
        let in_reach = |&(i, h): &(usize, &'a AreaFeature)| {
            h.kind.is_hill()
                && hill_box(i, h).is_some_and(|hb| hb.meets(&loose))
                && !self.hill_is_fortified(h)
        };
        if !self.areas().any(|ih| in_reach(&ih)) {
            return false;
        }
        let mut near = HillsInReach::default();
        for (i, h) in self.areas().filter(in_reach) {
            if let Some(hb) = hill_box(i, h) {
                near.push(hb);
            }
        }
        let front = a.edge(Edge::Front);
        // Only the hills whose box meets the sampled parts can lift a sample (#15); every other
        // hill gives each sample a height of exactly 0, which the maxima below never miss.
        let [b0, b1, b2, b3] = b.corners();
        let reach = points_box(&[front.a, front.b, b0, b1, b2, b3]);
        // Each hill measured with the edges that matter at the samples (#47): all of them lie
        // in the hull of the front edge and `b`'s corners.
        let region = [front.a, front.b, b0, b1, b2, b3];
        let hills: Vec<HillNear> = near
            .iter()
            .filter(|hb| hb.meets(&reach))
            .map(|hb| HillNear::new(hb.clone(), &region))
            .collect();
        if hills.is_empty() {
            // No hill in reach: the front edge stands nowhere above 0.
            return false;
        }
        let height = |p: Point| {
            hills
                .iter()
                .filter(|h| !h.hill.clear_of(p))
                .map(|h| h.height(p))
                .fold(0.0, f64::max)
        };
        // The samples of `segment_samples(&front, 33)`, worked out in place.
        let mut top_a: f64 = 0.0;
        for i in 0..33 {
            let p = front.a + (front.b - front.a) * (i as f64 / 32.0);
            top_a = top_a.max(height(p));
        }
        if top_a <= HEIGHT_EPS {
            return false;
        }
        // The samples of `rect_samples(b, 17)`, in its order; the answer is settled as soon as
        // some part of `b` stands as high as the front edge less the margin.
        let (across, back) = (b1 - b0, b3 - b0);
        // Pure speed (#15): the quarters of `b` (samples 0 to 8 and 8 to 16 each way) that stand
        // below the front edge less the margin, by a bound on the height over the whole quarter
        // ([`height_bound`]) with a slack far above rounding. None of their samples can settle
        // the answer, and the answer is whether any sample does, so they are passed over.
        let mut low = [[false; 2]; 2];
        for (qi, row) in low.iter_mut().enumerate() {
            for (qj, q) in row.iter_mut().enumerate() {
                let (s0, t0) = (qi as f64 * 0.5, qj as f64 * 0.5);
                let corners = [
                    (s0, t0),
                    (s0 + 0.5, t0),
                    (s0 + 0.5, t0 + 0.5),
                    (s0, t0 + 0.5),
                ]
                .map(|(s, t)| b0 + across * s + back * t);
                let middle = b0 + across * (s0 + 0.25) + back * (t0 + 0.25);
                let reach = corners
                    .iter()
                    .map(|c| c.distance(middle))
                    .fold(0.0, f64::max);
                let bound = height_bound(&hills, middle, reach + 1e-9);
                *q = top_a > bound + HEIGHT_EPS + 1e-9;
            }
        }
        let low_at = |i: usize, j: usize| {
            let quarters = |k: usize| [(k <= 8).then_some(0), (k >= 8).then_some(1)];
            quarters(i)
                .into_iter()
                .flatten()
                .any(|qi| quarters(j).into_iter().flatten().any(|qj| low[qi][qj]))
        };
        let mut top_b: f64 = 0.0;
        for i in 0..17 {
            for j in 0..17 {
                let (s, t) = (i as f64 / 16.0, j as f64 / 16.0);
                let p = b0 + across * s + back * t;
                if low_at(i, j)
                    || hills.iter().all(|h| h.hill.clear_of(p))
                    || front.distance_to_point(p) <= TOLERANCE
                {
                    continue;
                }
                top_b = top_b.max(height(p));
                if top_a <= top_b + HEIGHT_EPS {
                    return false;
                }
            }
        }
        top_a > top_b + HEIGHT_EPS
    }
}

#[cfg(test)]
mod uphill_agreement {
    use super::*;
    use crate::geometry::Pose;

    /// [`Battlefield::is_uphill_of`] as it stood before the hill boxes (#15): every sample
    /// measured against every hill.
    fn uphill_reference(bf: &Battlefield, a: &ElementRect, b: &ElementRect) -> bool {
        let front = a.edge(Edge::Front);
        let top_a = segment_samples(&front, 33)
            .into_iter()
            .map(|p| bf.height(p, true))
            .fold(0.0, f64::max);
        if top_a <= HEIGHT_EPS {
            return false;
        }
        let top_b = rect_samples(b, 17)
            .into_iter()
            .filter(|&p| front.distance_to_point(p) > TOLERANCE)
            .map(|p| bf.height(p, true))
            .fold(0.0, f64::max);
        top_a > top_b + HEIGHT_EPS
    }

    fn ellipse(kind: AreaKind, cx: f64, cy: f64, rx: f64, ry: f64) -> AreaFeature {
        let pts = (0..24)
            .map(|k| {
                let t = f64::from(k) * std::f64::consts::TAU / 24.0;
                Point::new(cx + rx * t.cos(), cy + ry * t.sin())
            })
            .collect();
        AreaFeature::new(kind, Polygon::new(pts))
    }

    /// Two hills (one with a crest, one rising to its middle), a hill under a Fort and a wood.
    fn table() -> Battlefield {
        let mut bf = Battlefield::new(Board::default());
        let mut h = ellipse(AreaKind::GentleHill, 6.0, 6.0, 3.0, 2.0);
        h.crest = vec![Point::new(4.5, 6.0), Point::new(7.5, 6.0)];
        bf.features.push(TerrainFeature::Area(h));
        bf.features.push(TerrainFeature::Area(ellipse(
            AreaKind::DifficultHill,
            12.0,
            6.0,
            2.0,
            2.5,
        )));
        bf.features.push(TerrainFeature::Area(ellipse(
            AreaKind::GentleHill,
            6.0,
            12.0,
            2.5,
            2.0,
        )));
        let fort = Polygon::new(vec![
            Point::new(5.5, 11.5),
            Point::new(6.5, 11.5),
            Point::new(6.5, 12.5),
            Point::new(5.5, 12.5),
        ]);
        bf.features
            .push(TerrainFeature::Area(AreaFeature::new(AreaKind::Fort, fort)));
        bf.features.push(TerrainFeature::Area(ellipse(
            AreaKind::Wood,
            12.0,
            12.0,
            2.0,
            2.0,
        )));
        bf
    }

    // DBA3.md §3.3, §10.3: the hill boxes and the early answer (#15) never change whether an
    // element fights uphill, on the slopes, across hill edges and crests, and off every hill.
    #[test]
    fn uphill_with_hill_boxes_is_the_reference() {
        let bf = table();
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let facings = [0.0, 90.0, 180.0, 270.0, 45.0, 137.5];
        let (mut up, mut not) = (0, 0);
        for _ in 0..6_000 {
            let x = (next() % 4096) as f64 / 4096.0 * 17.0;
            let y = (next() % 4096) as f64 / 4096.0 * 17.0;
            let f = facings[(next() % 6) as usize];
            let a = ElementRect::new(Pose::new(x, y, f), 1.0, 0.5);
            // The opponent in front-to-front contact, or somewhere near.
            let b = if next() % 2 == 0 {
                let m = a.pose.front_mid();
                ElementRect::new(Pose::new(m.x, m.y, f + 180.0), 1.0, 0.5)
            } else {
                let dx = (next() % 64) as f64 / 32.0 - 1.0;
                let dy = (next() % 64) as f64 / 32.0 - 1.0;
                ElementRect::new(
                    Pose::new(x + dx, y + dy, facings[(next() % 6) as usize]),
                    1.0,
                    0.75,
                )
            };
            let want = uphill_reference(&bf, &a, &b);
            assert_eq!(bf.is_uphill_of(&a, &b), want, "{a:?} {b:?}");
            if want {
                up += 1;
            } else {
                not += 1;
            }
        }
        assert!(
            up > 300 && not > 300,
            "both answers met ({up} uphill, {not} not)"
        );
    }
}

#[cfg(test)]
mod height_bound_tests {
    use super::*;
    use crate::geometry::unit_stream;

    // DBA3.md §3.3 (heights up a slope): the bound on a quarter of an element's height holds every
    // point within its reach, on crested hills and hills rising to their middle, inside, across
    // and beyond their edges; and it is below 1 often enough to pass quarters over.
    #[test]
    fn height_bound_holds_every_point_within_reach() {
        // The uphill tests' table: a crested hill, a hill rising to its middle, and a hill with a
        // point that is not finite. Each hill is bounded alone, as every one in reach is.
        let bf = super::uphill_reach_agreement::table();
        let hills: Vec<HillBox> = bf.areas().filter_map(|(_, h)| HillBox::of(h)).collect();
        assert_eq!(hills.len(), 3);
        let mut next = unit_stream(0x6a09_e667_f3bc_c909);
        let (mut useful, mut points) = (0, 0);
        for _ in 0..3_000 {
            let middle = Point::new(next() * 16.0, next() * 16.0);
            let reach = next() * 0.8;
            for h in &hills {
                let one = [HillNear::new(h.clone(), &[middle])];
                let bound = height_bound(&one, middle, reach);
                useful += usize::from(bound < 0.9);
                for _ in 0..20 {
                    let (angle, r) = (next() * std::f64::consts::TAU, next().sqrt() * reach);
                    let p = middle + Point::new(angle.cos(), angle.sin()) * r;
                    // A height that is not a number (the odd hill's, whose middle is not one)
                    // is dropped by the maxima of `is_uphill_of`, so it needs no bound.
                    let height = Battlefield::hill_height(h.hill, p);
                    assert!(
                        height.is_nan() || height <= bound + 1e-12,
                        "{height} above {bound} at {p:?} ({middle:?}, {reach})"
                    );
                    points += usize::from(height > 0.0);
                }
            }
        }
        assert!(useful > 1_000 && points > 3_000, "{useful} {points}");
    }
}

#[cfg(test)]
mod uphill_reach_agreement {
    use super::*;
    use crate::geometry::Pose;

    /// [`Battlefield::is_uphill_of`] as it stood before the box of the poses (#15).
    fn uphill_before_loose_reach(bf: &Battlefield, a: &ElementRect, b: &ElementRect) -> bool {
        let front = a.edge(Edge::Front);
        let [b0, b1, b2, b3] = b.corners();
        let reach = points_box(&[front.a, front.b, b0, b1, b2, b3]);
        let mut hills = HillsInReach::default();
        for (_, h) in bf.areas() {
            if h.kind.is_hill() && !bf.hill_is_fortified(h) {
                if let Some(hb) = HillBox::of(h) {
                    if hb.meets(&reach) {
                        hills.push(hb);
                    }
                }
            }
        }
        if hills.iter().next().is_none() {
            return false;
        }
        let height = |p: Point| {
            hills
                .iter()
                .filter(|h| !h.clear_of(p))
                .map(|h| Battlefield::hill_height(h.hill, p))
                .fold(0.0, f64::max)
        };
        let top_a = segment_samples(&front, 33)
            .into_iter()
            .map(height)
            .fold(0.0, f64::max);
        if top_a <= HEIGHT_EPS {
            return false;
        }
        let top_b = rect_samples(b, 17)
            .into_iter()
            .filter(|&p| front.distance_to_point(p) > TOLERANCE)
            .map(height)
            .fold(0.0, f64::max);
        top_a > top_b + HEIGHT_EPS
    }

    /// A crested hill, a hill rising to its middle, and a hill with a non-finite point.
    pub(super) fn table() -> Battlefield {
        let mut bf = Battlefield::new(Board::default());
        let ellipse = |cx: f64, cy: f64, rx: f64, ry: f64| {
            let pts = (0..20)
                .map(|k| {
                    let t = f64::from(k) * std::f64::consts::TAU / 20.0;
                    Point::new(cx + rx * t.cos(), cy + ry * t.sin())
                })
                .collect();
            AreaFeature::new(AreaKind::GentleHill, Polygon::new(pts))
        };
        let mut h = ellipse(5.0, 5.0, 2.5, 1.5);
        h.crest = vec![Point::new(3.5, 5.0), Point::new(6.5, 5.0)];
        bf.features.push(TerrainFeature::Area(h));
        bf.features
            .push(TerrainFeature::Area(ellipse(11.0, 10.0, 1.5, 2.0)));
        let mut odd = ellipse(4.0, 12.0, 1.0, 1.0);
        odd.outline.points[3] = Point::new(f64::NAN, 12.0);
        bf.features.push(TerrainFeature::Area(odd));
        bf
    }

    // DBA3.md §3.3, §10.3: the early no of the poses' box (#15) never changes whether an element
    // fights uphill: elements of every size and facing, on, beside and far from the hills, and
    // poses that are not finite.
    #[test]
    fn uphill_with_the_poses_box_is_the_reference() {
        let bf = table();
        let boxes = AreaBoxes::of(&bf);
        let other = AreaBoxes::of(&table());
        let mut state = 0x6a09_e667_f3bc_c909u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut unit = move || (next() % 4097) as f64 / 4096.0;
        let mut rects = Vec::new();
        for _ in 0..8_000 {
            let pose = Pose::new(unit() * 16.0 - 0.5, unit() * 16.0 - 0.5, unit() * 360.0);
            let (w, d) = match (unit() * 4.0) as u32 {
                0 => (0.0, unit()),
                1 => (unit() * 3.0, 0.0),
                _ => (1.0, 0.5),
            };
            rects.push(ElementRect::new(pose, w, d));
        }
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            rects.push(ElementRect::new(Pose::new(bad, 5.0, 0.0), 1.0, 0.5));
            rects.push(ElementRect::new(Pose::new(5.0, bad, 90.0), 1.0, 0.5));
            rects.push(ElementRect::new(Pose::new(5.0, 5.0, bad), 1.0, 0.5));
            rects.push(ElementRect::new(Pose::new(5.0, 5.0, 0.0), bad, 0.5));
            rects.push(ElementRect::new(Pose::new(5.0, 5.0, 0.0), 1.0, bad));
        }
        let (mut up, mut not) = (0, 0);
        for pair in rects.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            // The second of each pair in front-to-front contact with the first, or anywhere.
            let m = a.pose.front_mid();
            let facing = ElementRect::new(Pose::new(m.x, m.y, a.pose.facing + 180.0), 1.0, 0.5);
            for b in [b, &facing] {
                let want = uphill_before_loose_reach(&bf, a, b);
                assert_eq!(bf.is_uphill_of(a, b), want, "{a:?} {b:?}");
                // The boxes kept for the table (#15), and boxes of another table, which are
                // not used.
                assert_eq!(
                    bf.is_uphill_of_boxed(a, b, Some(&boxes)),
                    want,
                    "{a:?} {b:?}"
                );
                assert_eq!(bf.is_uphill_of_boxed(a, b, Some(&other)), want);
                if want {
                    up += 1;
                } else {
                    not += 1;
                }
            }
        }
        assert!(
            up > 300 && not > 300,
            "both answers met ({up} uphill, {not} not)"
        );
    }
}

#[cfg(test)]
mod hill_near_agreement {
    use super::*;
    use crate::geometry::unit_stream;

    // DBA3.md §3.3 (heights up a slope): a hill measured with only the edges that matter in a
    // region gives every point of that region the very height `hill_height` gives it, to the
    // bit, on crested hills and hills rising to their middle, inside, across and off their edges.
    #[test]
    fn hill_near_height_is_hill_height_to_the_bit() {
        let bf = super::uphill_reach_agreement::table();
        let hills: Vec<HillBox> = bf.areas().filter_map(|(_, h)| HillBox::of(h)).collect();
        let mut next = unit_stream(0x3c6e_f372_fe94_f82b);
        let (mut inside, mut points) = (0, 0);
        for _ in 0..2_000 {
            // A region the size of two elements in contact: up to six corners around a point.
            let at = Point::new(next() * 16.0, next() * 16.0);
            let corners: Vec<Point> = (0..2 + (next() * 5.0) as usize)
                .map(|_| at + Point::new(next() * 2.0 - 1.0, next() * 2.0 - 1.0))
                .collect();
            for h in &hills {
                let near = HillNear::new(h.clone(), &corners);
                for _ in 0..20 {
                    // A point of the hull: a mix of the corners.
                    let weights: Vec<f64> = corners.iter().map(|_| next()).collect();
                    let total: f64 = weights.iter().sum();
                    let p = corners
                        .iter()
                        .zip(&weights)
                        .fold(Point::default(), |acc, (c, w)| acc + *c * (w / total));
                    let want = Battlefield::hill_height(h.hill, p);
                    let got = near.height(p);
                    assert!(
                        got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                        "{got} against {want} at {p:?} in {corners:?}"
                    );
                    points += 1;
                    inside += usize::from(want > 0.0);
                }
                // The corners themselves, where the bound is reached.
                for &c in &corners {
                    let (got, want) = (near.height(c), Battlefield::hill_height(h.hill, c));
                    assert!(got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()));
                }
            }
        }
        assert!(inside > 2_000 && points > 100_000, "{inside} of {points}");
    }
}
