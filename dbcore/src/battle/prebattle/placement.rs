//! Where a terrain feature may go (DBA3.md §3.2–§3.8): the legality test of one placement, and the
//! referee's own search for a legal spot, which decides whether a feature "cannot legally be
//! placed" and may be discarded (§3.8 item 5).
//!
//! The search tries a fixed family of shapes of each feature type (see [`candidates`]): circles
//! and ellipses 3 BW across for most area features, a 1.1 × 3.6 BW gully, a 3 × 3 BW plough
//! across a quarter line, 2 × 2 BW BUAs, a 2 BW deep waterway, straight rivers and roads across the
//! table, at ½ BW steps. A feature is discarded only when none of them fits; a player may of course
//! place any other legal shape with [`super::PrebattleAction::PlaceFeature`].

use serde::{Deserialize, Serialize};

use crate::battlefield::{Battlefield, Board, BoardEdge, Quarter, Variant};
use crate::geometry::{boxes_apart, Point, Polygon, TOLERANCE};
use crate::terrain::{
    check_quarter_placement, fort_on_hill, has_measurable_outline, polyline_distance_to_polygon,
    under_three_wide, validate_terrain, AreaFeature, AreaKind, FeatureType, River, Road,
    RoadSurface, TerrainFeature, TerrainProblem, Waterway,
};

/// The edge the defender sits at while laying out terrain: quarters are numbered from it (§1.2,
/// §17.54). The base edges are chosen only afterwards (§5.2), so the numbering needs a seat that
/// does not depend on them; we read it as the board's south edge.
pub const PLACEMENT_SEAT: BoardEdge = BoardEdge::South;

/// One reason a feature may not go where it was put, with the section that forbids it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub struct FeatureProblem {
    /// The section that forbids it (`§3.4`).
    pub rule: String,
    /// What is wrong, in the player's words, beginning with that section.
    pub message: String,
}

/// Every reason `feature` may not be added to `table` in `quarter` (empty when it may): the
/// quarter rule of §3.8 items 3–4 and every rule of [`validate_terrain`] that the table with the
/// feature breaks, except "the table needs a difficult feature", which only the finished table
/// must meet.
pub fn placement_problems(
    table: &Battlefield,
    feature: &TerrainFeature,
    quarter: Quarter,
    variant: Variant,
) -> Vec<FeatureProblem> {
    let mut out = Vec::new();
    if let Err(p) = check_quarter_placement(feature, &table.board, PLACEMENT_SEAT, quarter) {
        out.push(FeatureProblem {
            rule: "§3.8".into(),
            message: p.to_string(),
        });
        return out;
    }
    let mut with = table.clone();
    with.features.push(feature.clone());
    for p in validate_terrain(&with, variant) {
        if p == TerrainProblem::NoDifficultTerrain {
            continue;
        }
        out.push(FeatureProblem {
            rule: p.rule().to_string(),
            message: p.to_string(),
        });
    }
    out
}

/// The BUA kinds, in the order the search tries them.
pub const BUA_KINDS: [AreaKind; 4] = [
    AreaKind::Hamlet,
    AreaKind::City,
    AreaKind::Fort,
    AreaKind::Edifice,
];

/// The area kind a feature type stands for when it is not a BUA.
fn area_kind(t: FeatureType) -> Option<AreaKind> {
    use FeatureType as F;
    Some(match t {
        F::GentleHill => AreaKind::GentleHill,
        F::DifficultHill => AreaKind::DifficultHill,
        F::Wood => AreaKind::Wood,
        F::Marsh => AreaKind::Marsh,
        F::Gully => AreaKind::Gully,
        F::Dunes => AreaKind::Dunes,
        F::Oasis => AreaKind::Oasis,
        F::Rocky => AreaKind::Rocky,
        F::Scrub => AreaKind::Scrub,
        F::Boggy => AreaKind::Boggy,
        F::Enclosures => AreaKind::Enclosures,
        F::Plough => AreaKind::Plough,
        F::Bua | F::River | F::Road | F::Waterway => return None,
    })
}

/// Steps of ½ BW from `lo` to `hi` inclusive.
fn steps(lo: f64, hi: f64) -> Vec<f64> {
    let mut v = Vec::new();
    let mut x = lo;
    while x <= hi + 1e-9 {
        v.push(x);
        x += 0.5;
    }
    v
}

/// The quarter's cell as (low corner, high corner).
fn cell(board: &Board, q: Quarter) -> Option<(Point, Point)> {
    let poly = board.quarter_polygon(q, PLACEMENT_SEAT)?;
    Some(poly.bounds())
}

/// The shapes the search tries for a feature of type `t` in quarter `q`, with `bua` the BUA kind
/// wanted when `t` is a BUA. Deterministic; the order is the search order.
pub fn candidates(board: &Board, t: FeatureType, bua: AreaKind, q: Quarter) -> Vec<TerrainFeature> {
    let list = candidate_list(board, t, bua, q);
    (0..list.len()).map(|i| list.get(i).into_owned()).collect()
}

/// The candidates of [`candidates`], in its order, with the ellipses kept as a shape and a
/// centre until one is wanted: the search tries few of them, and building every outline first
/// was most of its cost for a wood or a marsh (#15).
struct CandidateList {
    /// Every candidate of a family other than the ellipses.
    built: Vec<TerrainFeature>,
    /// The ellipses' kind, and each shape's vertices about its centre, x radius and turn.
    kind: AreaKind,
    shapes: Vec<(Vec<Point>, f64, f64)>,
    /// The ellipses after `built`, as (shape, centre).
    ellipses: Vec<(usize, Point)>,
}

impl CandidateList {
    fn len(&self) -> usize {
        self.built.len() + self.ellipses.len()
    }

    /// Candidate `i` (below [`Self::len`]), the very feature [`candidates`] lists there.
    fn get(&self, i: usize) -> std::borrow::Cow<'_, TerrainFeature> {
        use std::borrow::Cow;
        match self.built.get(i) {
            Some(f) => Cow::Borrowed(f),
            None => {
                let (shape, centre) = self.ellipses[i - self.built.len()];
                let (offsets, rx, rot) = &self.shapes[shape];
                Cow::Owned(TerrainFeature::Area(AreaFeature::ellipse_at(
                    self.kind, centre, offsets, *rx, *rot,
                )))
            }
        }
    }
}

/// The candidates of a feature of type `t` in quarter `q` ([`candidates`]), the ellipses not yet
/// built.
fn candidate_list(board: &Board, t: FeatureType, bua: AreaKind, q: Quarter) -> CandidateList {
    let mut list = CandidateList {
        built: Vec::new(),
        kind: bua,
        shapes: Vec::new(),
        ellipses: Vec::new(),
    };
    let Some((lo, hi)) = cell(board, q) else {
        return list;
    };
    let (w, d) = (board.width, board.depth);
    let v = &mut list.built;
    let area = |f: AreaFeature| TerrainFeature::Area(f);
    match t {
        FeatureType::Waterway => {
            for edge in BoardEdge::ALL {
                let (a, b) = board.edge_segment(edge);
                let touches = [a, b, (a + b) * 0.5]
                    .iter()
                    .any(|&p| board.quarter(p, PLACEMENT_SEAT) == q);
                // The edge must run along the quarter: its half inside the cell.
                let along = [a + (b - a) * 0.25, a + (b - a) * 0.75]
                    .iter()
                    .any(|&p| board.quarter(p, PLACEMENT_SEAT) == q);
                if touches && along {
                    for depth in [2.0, 1.5] {
                        v.push(TerrainFeature::Waterway(Waterway::uniform(
                            edge, depth, 0.0,
                        )));
                    }
                }
            }
        }
        FeatureType::River | FeatureType::Road => {
            let line = |a: Point, b: Point| -> TerrainFeature {
                if t == FeatureType::River {
                    TerrainFeature::River(River {
                        course: vec![a, b],
                        width: 0.5,
                        state: None,
                    })
                } else {
                    TerrainFeature::Road(Road {
                        path: vec![a, b],
                        surface: RoadSurface::Track,
                        width: 0.5,
                    })
                }
            };
            let (xlo, xhi) = (lo.x.max(4.0), hi.x.min(w - 4.0));
            for x in steps(xlo, xhi) {
                if (x - w * 0.5).abs() > 0.4 {
                    v.push(line(Point::new(x, 0.0), Point::new(x, d)));
                }
            }
            let (ylo, yhi) = (lo.y.max(4.0), hi.y.min(d - 4.0));
            for y in steps(ylo, yhi) {
                if (y - d * 0.5).abs() > 0.4 {
                    v.push(line(Point::new(0.0, y), Point::new(w, y)));
                }
            }
        }
        FeatureType::Plough => {
            // Across the quarter's inner vertical or horizontal line, the larger part inside.
            let (mx, my) = (w * 0.5, d * 0.5);
            let left = lo.x < mx - 1e-9;
            let low = lo.y < my - 1e-9;
            let (x0, x1) = if left {
                (mx - 2.0, mx + 1.0)
            } else {
                (mx - 1.0, mx + 2.0)
            };
            for y in steps(lo.y + 1.0, hi.y - 4.0) {
                v.push(area(AreaFeature::rectangle(
                    AreaKind::Plough,
                    Point::new(x0, y),
                    Point::new(x1, y + 3.0),
                )));
            }
            let (y0, y1) = if low {
                (my - 2.0, my + 1.0)
            } else {
                (my - 1.0, my + 2.0)
            };
            for x in steps(lo.x + 1.0, hi.x - 4.0) {
                v.push(area(AreaFeature::rectangle(
                    AreaKind::Plough,
                    Point::new(x, y0),
                    Point::new(x + 3.0, y1),
                )));
            }
        }
        FeatureType::Bua => {
            let mut gated = |mut f: AreaFeature, lo: Point, hi: Point| {
                let c = (lo + hi) * 0.5;
                let toward = Point::new(w * 0.5, d * 0.5) - c;
                let gate_x = Point::new(if toward.x >= 0.0 { hi.x } else { lo.x }, c.y);
                let gate_y = Point::new(c.x, if toward.y >= 0.0 { hi.y } else { lo.y });
                f.gates = match bua {
                    AreaKind::City => vec![gate_x, gate_y],
                    AreaKind::Fort => vec![gate_y],
                    _ => Vec::new(),
                };
                v.push(area(f));
            };
            for x in steps(lo.x, hi.x - 2.0) {
                for y in steps(lo.y, hi.y - 2.0) {
                    let (a, b) = (Point::new(x, y), Point::new(x + 2.0, y + 2.0));
                    if bua.is_fortified() {
                        let within_x = b.x <= 6.0 + 1e-9 || a.x >= w - 6.0 - 1e-9;
                        let within_y = b.y <= 6.0 + 1e-9 || a.y >= d - 6.0 - 1e-9;
                        if !(within_x && within_y) {
                            continue;
                        }
                    }
                    gated(AreaFeature::rectangle(bua, a, b), a, b);
                }
            }
        }
        _ => {
            let Some(kind) = area_kind(t) else {
                return list;
            };
            list.kind = kind;
            let sizes: &[(f64, f64, f64)] = if kind == AreaKind::Gully {
                &[(1.8, 0.55, 0.0), (1.8, 0.55, 90.0)]
            } else {
                &[(1.6, 1.5, 0.0), (1.5, 1.5, 0.0)]
            };
            for &(rx, ry, rot) in sizes {
                let (ex, ey) = if rot == 0.0 { (rx, ry) } else { (ry, rx) };
                // One shape at many centres: its vertices about the centre worked out once.
                let shape = list.shapes.len();
                list.shapes
                    .push((AreaFeature::ellipse_offsets(rx, ry, rot, 24), rx, rot));
                for x in steps(lo.x + ex + 0.1, hi.x - ex - 0.1) {
                    for y in steps(lo.y + ey + 0.1, hi.y - ey - 0.1) {
                        list.ellipses.push((shape, Point::new(x, y)));
                    }
                }
            }
        }
    }
    list
}

/// Quick tests that rule out most illegal candidates before the full check: the quarter rule and
/// the 1 BW gaps (§3.8), and rivers clear of hills, dunes, oases and BUAs (§3.5).
fn plausible(table: &Battlefield, f: &TerrainFeature, q: Quarter) -> bool {
    // The quarter rule is tested last: the candidates are drawn in their quarter, so it rarely
    // refuses one, and it costs more than the gaps that do (#15). Each test is a plain yes or
    // no, so their order changes nothing but the time.
    gaps_plausible(table, f) && check_quarter_placement(f, &table.board, PLACEMENT_SEAT, q).is_ok()
}

/// The gap tests of [`plausible`]: the 1 BW gaps (§3.8) and rivers clear of hills, dunes,
/// oases and BUAs (§3.5).
fn gaps_plausible(table: &Battlefield, f: &TerrainFeature) -> bool {
    let board = &table.board;
    match f {
        TerrainFeature::Area(a) => {
            if !a.kind.is_bua() {
                let edge_ok = BoardEdge::ALL.iter().all(|&e| {
                    a.outline
                        .points
                        .iter()
                        .all(|&p| board.distance_to_edge(p, e) >= 1.0 + TOLERANCE)
                });
                if !edge_ok {
                    return false;
                }
            }
            table.features.iter().all(|g| match g {
                TerrainFeature::Area(b) => {
                    // Pure speed (#15): outlines whose boxes are more than 1 BW and a tolerance
                    // apart (a margin far above any rounding) are more than 1 BW apart, and
                    // need no measuring.
                    let apart =
                        boxes_apart(&a.outline.points, &b.outline.points, 1.0 + 2.0 * TOLERANCE);
                    debug_assert!(
                        !apart || a.outline.distance_to_polygon(&b.outline) >= 1.0 + TOLERANCE,
                        "outlines passed over as apart"
                    );
                    // (`closer_than` is the distance's comparison, answered without measuring
                    // every pair of edges.)
                    apart || !a.outline.closer_than(&b.outline, 1.0 + TOLERANCE)
                }
                TerrainFeature::Waterway(w) => {
                    !a.outline.within(&w.with_beach_polygon(board), TOLERANCE)
                }
                TerrainFeature::River(r) => {
                    !blocks_river(a.kind)
                        || polyline_distance_to_polygon(&r.course, &a.outline) > r.width
                }
                TerrainFeature::Road(_) => true,
            })
        }
        TerrainFeature::River(r) => table.features.iter().all(|g| match g {
            TerrainFeature::Area(b) => {
                !blocks_river(b.kind)
                    || polyline_distance_to_polygon(&r.course, &b.outline) > r.width
            }
            TerrainFeature::River(_) => false,
            _ => true,
        }),
        TerrainFeature::Road(r) => {
            let ends_ok = [r.path.first(), r.path.last()]
                .into_iter()
                .flatten()
                .all(|&p| {
                    !table.features.iter().any(|g| {
                    matches!(g, TerrainFeature::Waterway(w) if board.edge_at(p) == Some(w.edge))
                })
                });
            let joins = table.features.iter().all(|g| match g {
                TerrainFeature::Road(o) => crate::terrain::polyline_segments(&r.path)
                    .any(|s| crate::terrain::segment_crosses_polyline(&s, &o.path)),
                _ => true,
            });
            ends_ok && joins
        }
        TerrainFeature::Waterway(_) => true,
    }
}

/// Rivers may not cross hills, dunes, oasis or BUAs (§3.5).
fn blocks_river(k: AreaKind) -> bool {
    k.is_hill() || k.is_bua() || matches!(k, AreaKind::Dunes | AreaKind::Oasis)
}

/// The first legal placement of a feature of type `t` in quarter `q`, searching [`candidates`]
/// from position `start` (modulo their number) so that callers may vary where features go; BUAs
/// try `bua` first, then the other kinds. `None` when no candidate fits: the feature cannot
/// legally be placed and is discarded (§3.8 item 5).
pub fn find_placement(
    table: &Battlefield,
    t: FeatureType,
    bua: AreaKind,
    q: Quarter,
    variant: Variant,
    start: usize,
) -> Option<TerrainFeature> {
    let kinds: Vec<AreaKind> = if t == FeatureType::Bua {
        std::iter::once(bua)
            .chain(BUA_KINDS.into_iter().filter(|&k| k != bua))
            .collect()
    } else {
        vec![bua]
    };
    let narrow = NarrowOnTable::of(table);
    for kind in kinds {
        let all = candidate_list(&table.board, t, kind, q);
        let n = all.len();
        for i in 0..n {
            let f = all.get((start + i) % n);
            if plausible(table, &f, q)
                && !narrow.refuses(table, &f)
                && full_check(table, &f, q, variant)
            {
                return Some(f.into_owned());
            }
        }
    }
    None
}

thread_local! {
    static FULL_CHECKS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many candidates [`find_placement`] has put through the full check
/// ([`placement_problems`]) on this thread: the work a search does, for a test that bounds it
/// without timing it.
#[doc(hidden)]
pub fn full_checks_on_this_thread() -> u64 {
    FULL_CHECKS.with(std::cell::Cell::get)
}

fn full_check(table: &Battlefield, f: &TerrainFeature, q: Quarter, variant: Variant) -> bool {
    FULL_CHECKS.with(|c| c.set(c.get() + 1));
    placement_problems(table, f, q, variant).is_empty()
}

/// The §3.2 "at most one feature under 3 BW wide" rule, worked out once for the table a search
/// adds to (#44): with a narrow feature already there, a narrow candidate breaks it wherever it
/// goes, and the full check of every such candidate (a copy of the table and all of
/// [`validate_terrain`](crate::terrain::validate_terrain)) was most of the time of a search that
/// ends in a discard. A pure shortcut: it refuses only candidates the full check refuses (the
/// same features counted the same way), so the search finds the very same placement.
struct NarrowOnTable {
    /// The table's area features that count as narrow with any candidate that is not a hill (a
    /// hill could carry a City or Fort, which then no longer counts).
    count: usize,
}

impl NarrowOnTable {
    fn of(table: &Battlefield) -> NarrowOnTable {
        let count = areas(table)
            .filter(|a| has_measurable_outline(a) && under_three_wide(a))
            .filter(|a| !areas(table).any(|h| fort_on_hill(a, h)))
            .count();
        NarrowOnTable { count }
    }

    /// Whether adding `f` to `table` certainly breaks the rule.
    fn refuses(&self, table: &Battlefield, f: &TerrainFeature) -> bool {
        match f {
            TerrainFeature::Area(a) if a.kind.is_hill() => false,
            TerrainFeature::Area(a) => {
                self.count >= 2
                    || (self.count == 1
                        && has_measurable_outline(a)
                        && under_three_wide(a)
                        && !areas(table).any(|h| fort_on_hill(a, h)))
            }
            _ => self.count >= 2,
        }
    }
}

fn areas(table: &Battlefield) -> impl Iterator<Item = &AreaFeature> {
    table.features.iter().filter_map(|g| match g {
        TerrainFeature::Area(a) => Some(a),
        _ => None,
    })
}

/// The outline of a camp of `length` × `depth` BW standing on `base` at `along` BW from the edge's
/// start ([`Board::edge_segment`]), its rear on the edge or, with `offset`, that far inward (the
/// shore of a waterway).
pub fn camp_outline(
    board: &Board,
    base: BoardEdge,
    along: f64,
    length: f64,
    depth: f64,
    offset: f64,
) -> Polygon {
    let (a, b) = board.edge_segment(base);
    let u = (b - a) * (1.0 / board.edge_length(base));
    let n = board.inward(base);
    let p0 = a + u * along + n * offset;
    let pts = vec![
        p0,
        p0 + u * length,
        p0 + u * length + n * depth,
        p0 + n * depth,
    ];
    let poly = Polygon::new(pts);
    if poly.signed_area() < 0.0 {
        Polygon::new(poly.points.into_iter().rev().collect())
    } else {
        poly
    }
}
