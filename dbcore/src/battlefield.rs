//! The board and the questions other rules ask of the table (DBA3.md §1.2, §3, §6.4, §9.5, §10.3).
//!
//! # Frame
//!
//! The origin is the **south-west corner** of the board; +x runs east along the south edge, +y runs
//! **up the table** (north), both in BW, matching the compass bearings of [`crate::geometry`]
//! (0 = +y). The board covers `0..=width` × `0..=depth`. Edges are named by compass
//! ([`BoardEdge`]); which two are the base edges is a set-up fact given by the defender's base edge
//! (the invader's is the opposite one, §5.2), and the other two are the side edges.
//!
//! # Queries
//!
//! Every query is a pure function of the [`Battlefield`] and its arguments and ignores the board's
//! edges, so it gives the same answer when the whole table and the question are moved or turned
//! together (the property tests check this).
//!
//! ```
//! use dbcore::battlefield::{Battlefield, Board};
//! use dbcore::geometry::{ElementRect, Point, Pose};
//! use dbcore::terrain::{AreaFeature, AreaKind, Going, GoingContext, TerrainFeature};
//!
//! let mut table = Battlefield::new(Board::standard(15.0).unwrap());
//! table.features.push(TerrainFeature::Area(AreaFeature::ellipse(
//!     AreaKind::Wood, Point::new(7.5, 7.5), 1.8, 1.5, 0.0, 32,
//! )));
//! // An element reaching into the wood is in bad going (§3.1).
//! let spear = ElementRect::new(Pose::new(7.5, 6.2, 0.0), 1.0, 0.5);
//! assert_eq!(table.going_under(&spear, GoingContext::default()), Going::Bad);
//! // Sight across the wood's 3 BW depth is blocked (§9.5).
//! assert!(table.line_of_sight(Point::new(4.0, 7.5), Point::new(11.0, 7.5)).is_err());
//! ```
//!
//! # Layers
//!
//! The battlefield stands on [`crate::terrain`] and imports it; the terrain does not import the
//! battlefield. The board's own vocabulary ([`Board`], [`BoardEdge`], [`Quarter`], [`Variant`]),
//! in whose frame the features are drawn, stands below both and is re-exported here; and the
//! [`Battlefield`] type is declared beside the features, since the terrain's placement rules
//! ([`crate::terrain::validate_terrain`]) take a whole table, while its methods are this
//! module's (issue #48).

use crate::geometry::{Edge, ElementRect, Point, Polygon, Segment, TOLERANCE};
use crate::terrain::{
    fort_on_hill, inset_rect, length_inside, outline_box, points_bounds, polygons_intersect,
    polyline_distance_to_point, polyline_distance_to_polygon, polyline_distance_to_segment,
    segment_crosses_polyline, AreaFeature, AreaKind, Going, GoingContext, InsetRect, OutlineBox,
    TerrainFeature,
};
use serde::{Deserialize, Serialize};
use thiserror::Error;

mod going;
mod heights;
mod sight;

pub use crate::board::*;
pub use going::*;
pub use sight::*;

// The table's type is declared beside the terrain, whose placement rules take a whole table
// (`validate_terrain`); its methods are this module's.
#[doc(inline)]
pub use crate::terrain::Battlefield;

/// Points spread over an element's rectangle: an `n` × `n` grid including the edges and corners.
fn rect_samples(r: &ElementRect, n: usize) -> Vec<Point> {
    let [fl, fr, _, rl] = r.corners();
    let across = fr - fl;
    let back = rl - fl;
    let mut v = Vec::with_capacity(n * n);
    for i in 0..n {
        for j in 0..n {
            let a = i as f64 / (n - 1) as f64;
            let b = j as f64 / (n - 1) as f64;
            v.push(fl + across * a + back * b);
        }
    }
    v
}

/// The box of every area feature's outline on one table ([`OutlineBox`]), worked out once and
/// kept (by a battle state's memo) for the going and uphill questions of many elements (#15: a
/// 20-gon's box was worked out again for every element asked about).
///
/// It names the table it was worked out from by the address of the battlefield and of its
/// feature list and by the list's length, and answers only for that table
/// ([`AreaBoxes::of_table`]), as the battle's other memos name the battlefield by address; a
/// battle's table cannot change while its battle lives (it is shared, never written). Debug
/// builds check the boxes against fresh ones whenever they answer.
#[derive(Debug)]
pub(crate) struct AreaBoxes {
    /// The addresses of the battlefield and of its feature list, and the list's length.
    features: (usize, usize, usize),
    /// By feature index; the box of an empty outline for a feature that is not an area.
    boxes: Vec<OutlineBox>,
}

impl AreaBoxes {
    /// The boxes of `bf`'s area outlines.
    pub(crate) fn of(bf: &Battlefield) -> AreaBoxes {
        AreaBoxes {
            features: AreaBoxes::key(bf),
            boxes: bf
                .features
                .iter()
                .map(|f| match f {
                    TerrainFeature::Area(a) => outline_box(&a.outline),
                    _ => outline_box(&Polygon::new(Vec::new())),
                })
                .collect(),
        }
    }

    fn key(bf: &Battlefield) -> (usize, usize, usize) {
        let at = bf as *const Battlefield as usize;
        (at, bf.features.as_ptr() as usize, bf.features.len())
    }

    /// The boxes by feature index when they were worked out from `bf`.
    pub(crate) fn of_table(&self, bf: &Battlefield) -> Option<&[OutlineBox]> {
        if AreaBoxes::key(bf) != self.features {
            return None;
        }
        #[cfg(debug_assertions)]
        {
            let bits = |b: &[OutlineBox]| -> Vec<[u64; 5]> {
                b.iter()
                    .map(|((lo, hi), f)| {
                        let (x0, y0) = (lo.x.to_bits(), lo.y.to_bits());
                        [x0, y0, hi.x.to_bits(), hi.y.to_bits(), u64::from(*f)]
                    })
                    .collect()
            };
            debug_assert!(
                bits(&self.boxes) == bits(&AreaBoxes::of(bf).boxes),
                "kept outline boxes differ from the table's"
            );
        }
        Some(self.boxes.as_slice())
    }
}

/// Whether the sight line from `g` to `q` stands more than twice [`TOLERANCE`] clear of the box
/// of an outline ([`OutlineBox`]) along x or y: false when a coordinate is not finite or the
/// outline has no point, so that such values reach the exact tests as before.
pub(crate) fn sight_clear_of_box(g: Point, q: Point, ((lo, hi), finite): OutlineBox) -> bool {
    let margin = 2.0 * TOLERANCE;
    let known = finite
        && lo.x <= hi.x
        && lo.y <= hi.y
        && g.x.is_finite()
        && g.y.is_finite()
        && q.x.is_finite()
        && q.y.is_finite();
    known
        && (g.x.max(q.x) + margin < lo.x
            || hi.x + margin < g.x.min(q.x)
            || g.y.max(q.y) + margin < lo.y
            || hi.y + margin < g.y.min(q.y))
}

/// `n` evenly spaced points along a segment, ends included.
fn segment_samples(s: &Segment, n: usize) -> Vec<Point> {
    (0..n)
        .map(|i| s.a + (s.b - s.a) * (i as f64 / (n - 1) as f64))
        .collect()
}

impl Battlefield {
    /// An empty table on `board`.
    pub fn new(board: Board) -> Self {
        Battlefield {
            board,
            features: Vec::new(),
        }
    }

    /// The same table with every feature point mapped by `f` (the board is kept, and so are
    /// waterways, which are anchored to a board edge). Used to move or turn a table, e.g. to check
    /// that queries do not depend on where the table sits, or to snap it to the storage grid.
    pub fn map_points(&self, f: &dyn Fn(Point) -> Point) -> Battlefield {
        let poly = |p: &Polygon| Polygon::new(p.points.iter().map(|&q| f(q)).collect());
        let line = |v: &[Point]| v.iter().map(|&q| f(q)).collect::<Vec<_>>();
        let features = self
            .features
            .iter()
            .map(|feat| match feat {
                TerrainFeature::Area(a) => TerrainFeature::Area(AreaFeature {
                    kind: a.kind,
                    outline: poly(&a.outline),
                    straight_edged: a.straight_edged,
                    crest: line(&a.crest),
                    gates: line(&a.gates),
                }),
                TerrainFeature::River(r) => {
                    let mut r = r.clone();
                    r.course = line(&r.course);
                    TerrainFeature::River(r)
                }
                TerrainFeature::Road(r) => {
                    let mut r = r.clone();
                    r.path = line(&r.path);
                    TerrainFeature::Road(r)
                }
                TerrainFeature::Waterway(w) => TerrainFeature::Waterway(w.clone()),
            })
            .collect();
        Battlefield {
            board: self.board,
            features,
        }
    }

    /// Area features with their indices.
    pub fn areas(&self) -> impl Iterator<Item = (usize, &AreaFeature)> {
        self.features
            .iter()
            .enumerate()
            .filter_map(|(i, f)| match f {
                TerrainFeature::Area(a) => Some((i, a)),
                _ => None,
            })
    }

    /// A hill carrying a City or Fort (§3.2): §17.34 takes away its uphill and bad-going effects
    /// in combat.
    fn hill_is_fortified(&self, hill: &AreaFeature) -> bool {
        self.areas().any(|(_, a)| fort_on_hill(a, hill))
    }
}

/// A distance as a player says it: "1 BW", "1.5 BW", "0.25 BW".
pub(crate) fn bw_text(distance: f64) -> String {
    if let Some(text) = quarter_bw_text(distance) {
        return text;
    }
    let text = format!("{distance:.2}");
    format!("{} BW", text.trim_end_matches('0').trim_end_matches('.'))
}

/// [`bw_text`] of a whole number of quarters from 0 to 10,000 BW (the moves, ranges and depths
/// the rules give), written out directly: `{:.2}` of `k / 4` is exactly its whole part and ".00",
/// ".25", ".50" or ".75", which the trimming makes "", ".25", ".5" and ".75". `None` for any
/// other value (and for -0). A refused move names its allowance in words, and the driver has a
/// few thousand refused each battle: formatting a float took most of the refusal (#15).
fn quarter_bw_text(distance: f64) -> Option<String> {
    let quarters = distance * 4.0;
    if !(distance.is_sign_positive() && quarters <= 40_000.0 && quarters.fract() == 0.0) {
        return None;
    }
    let quarters = quarters as u32;
    let mut text = String::with_capacity(12);
    let whole = quarters / 4;
    let mut digits = [0u8; 5];
    let mut n = 0;
    let mut rest = whole;
    loop {
        digits[n] = b'0' + (rest % 10) as u8;
        n += 1;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    for &d in digits[..n].iter().rev() {
        text.push(char::from(d));
    }
    text.push_str(match quarters % 4 {
        0 => " BW",
        1 => ".25 BW",
        2 => ".5 BW",
        _ => ".75 BW",
    });
    Some(text)
}

#[cfg(test)]
mod bw_text_tests {
    use super::*;
    use rand_core::{RngCore, SeedableRng};

    /// `bw_text` as it was before #15 wrote quarters out directly: the reference it must equal.
    fn bw_text_reference(distance: f64) -> String {
        let text = format!("{distance:.2}");
        format!("{} BW", text.trim_end_matches('0').trim_end_matches('.'))
    }

    #[test]
    fn bw_text_equals_the_formatted_text() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(15);
        let mut values = vec![
            0.0,
            -0.0,
            f64::NAN,
            -f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MIN_POSITIVE,
            f64::EPSILON,
            1e-300,
            0.125,
            0.375,
            0.005,
            0.995,
            9_999.75,
            10_000.0,
            10_000.25,
            1e9,
            f64::MAX,
        ];
        // Every quarter to past the fast path's end, their neighbours one bit either side, and
        // their negatives.
        for k in 0..=40_010u32 {
            let q = f64::from(k) / 4.0;
            for v in [q, -q, f64::from_bits(q.to_bits() + 1)] {
                values.push(v);
            }
            if q > 0.0 {
                values.push(f64::from_bits(q.to_bits() - 1));
            }
        }
        for _ in 0..20_000 {
            values.push(f64::from(rng.next_u32()) / 1e5);
            values.push(f64::from_bits(rng.next_u64()));
        }
        for v in values {
            assert_eq!(
                bw_text(v),
                bw_text_reference(v),
                "{v:e} ({:#x})",
                v.to_bits()
            );
        }
    }
}
