//! Placement in the board's quarters (DBA3.md §3.8 items 3–5).

use super::*;

/// The part of `poly` inside the convex polygon `clip` (Sutherland–Hodgman; `clip` anticlockwise).
pub fn clip_to_convex(poly: &Polygon, clip: &Polygon) -> Polygon {
    let mut pts = poly.points.clone();
    for e in clip.edges() {
        if pts.is_empty() {
            break;
        }
        let inside = |q: Point| (e.b - e.a).cross(q - e.a) >= 0.0;
        let cut = |p: Point, q: Point| {
            let d = q - p;
            let den = (e.b - e.a).cross(d);
            if den == 0.0 {
                return p;
            }
            let t = (e.b - e.a).cross(e.a - p) / den;
            p + d * t
        };
        let input = std::mem::take(&mut pts);
        for k in 0..input.len() {
            let cur = input[k];
            let prev = input[(k + input.len() - 1) % input.len()];
            match (inside(prev), inside(cur)) {
                (true, true) => pts.push(cur),
                (true, false) => pts.push(cut(prev, cur)),
                (false, true) => {
                    pts.push(cut(prev, cur));
                    pts.push(cur);
                }
                (false, false) => {}
            }
        }
    }
    Polygon::new(pts)
}

/// `clip_to_convex(poly, cell).area()`, the very same number, settled from the boxes when `cell`
/// is an upright rectangle (as the quarters of §3.8 are) and the outline's box lies within it or
/// clearly apart from it (#15: the placement search clipped every candidate against each
/// quarter, most of the pre-battle's time).
///
/// Within: every vertex passes each of the clip's half-plane tests (for an upright rectangle
/// whose corners run anticlockwise from the least, the test of each edge is the comparison of
/// one coordinate with its line), so the clip keeps the outline's vertices as they are, in
/// their order, and the area is the outline's own. Apart by more than a slack far above
/// rounding: every vertex, and every point the clip cuts between two of them, fails the test of
/// the edge whose line separates them, so nothing is left.
pub(crate) fn clipped_area(poly: &Polygon, cell: &Polygon) -> f64 {
    if let [lo, p1, hi, p3] = cell.points.as_slice() {
        if (p1.x, p1.y) == (hi.x, lo.y) && (p3.x, p3.y) == (lo.x, hi.y) {
            let settled =
                area_settled_by_boxes(finite_bounds(&poly.points), *lo, *hi, || poly.area());
            if let Some(area) = settled {
                return area;
            }
        }
    }
    clip_to_convex(poly, cell).area()
}

/// The shortcut of [`clipped_area`] for the upright rectangle from `lo` to `hi` and an outline
/// whose [`finite_bounds`] are `bounds`: `Some(area())` when the outline's box lies within the
/// rectangle, `Some(0.0)` when it is clearly apart, `None` when the boxes do not settle it (or
/// the rectangle is not upright, or a coordinate is not finite or is huge) and the clip must be
/// worked out. Callers that meet one outline with several rectangles (the four quarters) work
/// its box out once.
pub(super) fn area_settled_by_boxes(
    bounds: Option<(f64, f64, f64, f64)>,
    lo: Point,
    hi: Point,
    area: impl FnOnce() -> f64,
) -> Option<f64> {
    let (x0, y0, x1, y1) = bounds?;
    let upright =
        lo.x < hi.x && lo.y < hi.y && [lo, hi].iter().all(|p| p.x.is_finite() && p.y.is_finite());
    let size = [x0, y0, x1, y1, lo.x, lo.y, hi.x, hi.y]
        .iter()
        .fold(1.0f64, |m, v| m.max(v.abs()));
    // (Below 10¹⁰⁰ no product of the half-plane tests overflows.)
    if !(upright && size <= 1e100) {
        return None;
    }
    if lo.x <= x0 && x1 <= hi.x && lo.y <= y0 && y1 <= hi.y {
        return Some(area());
    }
    let slack = 1e-9 * size;
    if x1 < lo.x - slack || x0 > hi.x + slack || y1 < lo.y - slack || y0 > hi.y + slack {
        return Some(0.0);
    }
    None
}

/// `clipped_area(outline, quarter's polygon)` for an outline whose [`finite_bounds`] are
/// `bounds`, with the quarter's polygon built only when the boxes do not settle it.
pub(super) fn area_in_quarter(
    outline: &Polygon,
    bounds: Option<(f64, f64, f64, f64)>,
    board: &Board,
    q: Quarter,
    defender_base: BoardEdge,
) -> Option<f64> {
    let (lo, hi) = board.quarter_box(q, defender_base)?;
    // The polygon of `quarter_polygon` runs anticlockwise from `lo`, so `clipped_area` would
    // take this very shortcut with it.
    if let Some(area) = area_settled_by_boxes(bounds, lo, hi, || outline.area()) {
        return Some(area);
    }
    let cell = board.quarter_polygon(q, defender_base)?;
    Some(clip_to_convex(outline, &cell).area())
}

/// Why a feature may not be placed as diced (§3.8 items 3-5: such a feature is discarded).
#[derive(Debug, Clone, PartialEq, Error, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub enum PlacementProblem {
    /// A quarter number outside 1 to 4 (§3.8).
    #[error("§3.8: quarter {0} does not exist (quarters are 1 to 4)")]
    NoSuchQuarter(Quarter),
    /// The feature must lie wholly in its quarter (§3.8).
    #[error("§3.8: the {kind} must lie wholly in quarter {quarter}")]
    NotWhollyInQuarter {
        /// The feature's kind.
        kind: AreaKind,
        /// Its quarter.
        quarter: Quarter,
    },
    /// A gentle hill must have its larger part in its quarter and the rest in at most one adjacent
    /// quarter (§3.8).
    #[error("§3.8: the gentle hill must have its larger part in quarter {quarter} and the rest in at most one adjacent quarter")]
    HillSpread {
        /// Its quarter.
        quarter: Quarter,
    },
    /// The feature must lie in its quarter and reach into exactly one adjacent quarter (§3.8).
    #[error("§3.8: the feature must lie in quarter {quarter} and extend into exactly one adjacent quarter (it touches quarters {})", listed(.touched))]
    NotIntoOneAdjacent {
        /// Its quarter.
        quarter: Quarter,
        /// The quarters it touches.
        touched: Vec<Quarter>,
    },
}

/// The quarters (1–4) a feature reaches into by more than [`TOLERANCE`] of area or length.
pub fn quarters_touched(
    feature: &TerrainFeature,
    board: &Board,
    defender_base: BoardEdge,
) -> Vec<Quarter> {
    // An area feature's box, worked out once for the four quarters (#15).
    let bounds = match feature {
        TerrainFeature::Area(a) => finite_bounds(&a.outline.points),
        _ => None,
    };
    (1..=4)
        .map(Quarter)
        .filter(|&q| {
            if let TerrainFeature::Area(a) = feature {
                return area_in_quarter(&a.outline, bounds, board, q, defender_base)
                    .is_some_and(|area| area > TOLERANCE * TOLERANCE);
            }
            let Some(cell) = board.quarter_polygon(q, defender_base) else {
                return false;
            };
            match feature {
                TerrainFeature::Waterway(w) => {
                    clipped_area(&w.water_polygon(board), &cell) > TOLERANCE * TOLERANCE
                }
                TerrainFeature::River(r) => {
                    polyline_segments(&r.course).any(|s| length_inside(&s, &cell) > TOLERANCE)
                }
                TerrainFeature::Road(r) => {
                    polyline_segments(&r.path).any(|s| length_inside(&s, &cell) > TOLERANCE)
                }
                // (Answered above.)
                TerrainFeature::Area(_) => false,
            }
        })
        .collect()
}

/// Check a feature's position against the quarter its die gave it (§3.8 items 3-4): area
/// features other than Plough and Gentle hill wholly in the quarter; a Gentle hill with its larger
/// part there and any smaller part in one adjacent quarter; Plough and every linear feature in the
/// quarter and extending into exactly one adjacent quarter.
pub fn check_quarter_placement(
    feature: &TerrainFeature,
    board: &Board,
    defender_base: BoardEdge,
    quarter: Quarter,
) -> Result<(), PlacementProblem> {
    if board.quarter_box(quarter, defender_base).is_none() {
        return Err(PlacementProblem::NoSuchQuarter(quarter));
    }
    let touched = quarters_touched(feature, board, defender_base);
    let others: Vec<Quarter> = touched.iter().copied().filter(|&q| q != quarter).collect();
    let into_one_adjacent = touched.contains(&quarter)
        && others.len() == 1
        && Board::quarters_adjacent(quarter, others[0]);
    match feature {
        TerrainFeature::Area(a) if a.kind == AreaKind::Plough => {
            if into_one_adjacent {
                Ok(())
            } else {
                Err(PlacementProblem::NotIntoOneAdjacent { quarter, touched })
            }
        }
        TerrainFeature::Area(a) if a.kind == AreaKind::GentleHill => {
            let total = a.outline.area();
            let bounds = finite_bounds(&a.outline.points);
            let here =
                area_in_quarter(&a.outline, bounds, board, quarter, defender_base).unwrap_or(0.0);
            let ok = here * 2.0 >= total
                && (others.is_empty()
                    || (others.len() == 1 && Board::quarters_adjacent(quarter, others[0])));
            if ok {
                Ok(())
            } else {
                Err(PlacementProblem::HillSpread { quarter })
            }
        }
        TerrainFeature::Area(a) => {
            if others.is_empty() && touched.contains(&quarter) {
                Ok(())
            } else {
                Err(PlacementProblem::NotWhollyInQuarter {
                    kind: a.kind,
                    quarter,
                })
            }
        }
        _ => {
            if into_one_adjacent {
                Ok(())
            } else {
                Err(PlacementProblem::NotIntoOneAdjacent { quarter, touched })
            }
        }
    }
}
