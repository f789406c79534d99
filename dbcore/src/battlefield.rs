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
//! # Import circle
//!
//! The battlefield and [`crate::terrain`] import each other: a [`Battlefield`] is a board and its
//! terrain features, and the terrain's placement rules ([`crate::terrain::validate_terrain`])
//! take a whole battlefield, while the features are drawn in the board's frame ([`Board`],
//! [`BoardEdge`], [`Quarter`]). The test of the module graph (`dbcore/tests/suite/module_graph.rs`)
//! allows that circle until the board's own vocabulary moves below both (issue #48).

use crate::geometry::{Edge, ElementRect, Point, Polygon, Segment, TOLERANCE};
use crate::terrain::{
    fort_on_hill, inset_rect, length_inside, outline_box, points_bounds, polygons_intersect,
    polyline_distance_to_point, polyline_distance_to_polygon, polyline_distance_to_segment,
    segment_crosses_polyline, AreaFeature, AreaKind, Going, GoingContext, InsetRect, OutlineBox,
    TerrainFeature,
};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The game variant, which sets the board's proportions (§1.2) and the terrain counts (§3.7,
/// §14.2, §14.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// DBA 3.0: two armies of 12 elements on a square board (§1.2).
    Standard,
    /// Big Battle DBA: three commands a side on a wider board (§14).
    BigBattle,
    /// Giant DBA: 12 elements per general, on a board up to half as deep again (§14.6).
    Giant,
    /// The three-sided Asterix variant, played by [`crate::dbaix`] on its own table in inches.
    Dbaix,
}

/// A board edge, by compass in the board frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum BoardEdge {
    /// y = 0.
    South,
    /// x = width.
    East,
    /// y = depth.
    North,
    /// x = 0.
    West,
}

impl BoardEdge {
    /// All four, clockwise from south.
    pub const ALL: [BoardEdge; 4] = [
        BoardEdge::South,
        BoardEdge::East,
        BoardEdge::North,
        BoardEdge::West,
    ];

    /// The edge across the board.
    pub fn opposite(self) -> BoardEdge {
        match self {
            BoardEdge::South => BoardEdge::North,
            BoardEdge::North => BoardEdge::South,
            BoardEdge::East => BoardEdge::West,
            BoardEdge::West => BoardEdge::East,
        }
    }

    /// The two edges adjacent to this one (the side edges when this is a base edge).
    pub fn sides(self) -> [BoardEdge; 2] {
        match self {
            BoardEdge::South | BoardEdge::North => [BoardEdge::West, BoardEdge::East],
            BoardEdge::East | BoardEdge::West => [BoardEdge::South, BoardEdge::North],
        }
    }
}

/// What an edge is for, once the defender's base edge is known (§1.2, §5.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum EdgeRole {
    /// The defender's base edge (§5.2).
    DefenderBase,
    /// The invader's base edge, opposite the defender's (§5.2).
    InvaderBase,
    /// A side edge (§1.2).
    Side,
}

/// Why a board size is refused (§1.2).
#[derive(Debug, Clone, PartialEq, Error, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum BoardError {
    /// A board side outside 15 to 20 BW (§1.2).
    #[error("§1.2: the board side must be 15 to 20 BW, not {0}")]
    SideOutOfRange(f64),
    /// A Giant board deepened by a factor outside 1 to 1.5 (§14.6).
    #[error(
        "§1.2, §14.6: Giant DBA may deepen the board by up to half (factor 1 to 1.5), not {0}"
    )]
    DepthFactorOutOfRange(f64),
}

/// One of the four quarters, numbered 1–4 (§1.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Quarter(pub u8);

/// A quarter by its number, as in "quarter 3".
impl std::fmt::Display for Quarter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// An edge by its compass name, as in "the north edge".
impl std::fmt::Display for BoardEdge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            BoardEdge::South => "south",
            BoardEdge::North => "north",
            BoardEdge::East => "east",
            BoardEdge::West => "west",
        })
    }
}

/// The variant as players name it: "standard DBA", "Big Battle", "Giant", "DBAix".
impl std::fmt::Display for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Variant::Standard => "standard DBA",
            Variant::BigBattle => "Big Battle",
            Variant::Giant => "Giant",
            Variant::Dbaix => "DBAix",
        })
    }
}

/// The board: a rectangle `width` × `depth` in BW, origin at its south-west corner (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Board {
    /// Its extent west to east, BW.
    pub width: f64,
    /// Its extent south to north, BW.
    pub depth: f64,
}

impl Default for Board {
    /// The usual 15 BW square (§1.2).
    fn default() -> Self {
        Board {
            width: Board::DEFAULT_SIDE,
            depth: Board::DEFAULT_SIDE,
        }
    }
}

impl Board {
    /// The usual and competition side (§1.2).
    pub const DEFAULT_SIDE: f64 = 15.0;

    fn check_side(side: f64) -> Result<(), BoardError> {
        if (15.0..=20.0).contains(&side) {
            Ok(())
        } else {
            Err(BoardError::SideOutOfRange(side))
        }
    }

    /// A standard square board of `side` BW (15..=20, §1.2).
    pub fn standard(side: f64) -> Result<Board, BoardError> {
        Board::check_side(side)?;
        Ok(Board {
            width: side,
            depth: side,
        })
    }

    /// Big Battle DBA: twice as wide, same depth (§1.2, §14.2).
    pub fn big_battle(side: f64) -> Result<Board, BoardError> {
        Board::check_side(side)?;
        Ok(Board {
            width: 2.0 * side,
            depth: side,
        })
    }

    /// Giant DBA: three times as wide; depth multiplied by `depth_factor` in 1..=1.5 (§1.2, §14.6).
    pub fn giant(side: f64, depth_factor: f64) -> Result<Board, BoardError> {
        Board::check_side(side)?;
        if !(1.0..=1.5).contains(&depth_factor) {
            return Err(BoardError::DepthFactorOutOfRange(depth_factor));
        }
        Ok(Board {
            width: 3.0 * side,
            depth: side * depth_factor,
        })
    }

    /// The board for a variant with the default depth (Giant undeepened).
    pub fn for_variant(variant: Variant, side: f64) -> Result<Board, BoardError> {
        match variant {
            // A DBA board for DBAix is the standard one; its own table is dbaix::DbaixConfig's.
            Variant::Standard | Variant::Dbaix => Board::standard(side),
            Variant::BigBattle => Board::big_battle(side),
            Variant::Giant => Board::giant(side, 1.0),
        }
    }

    /// The board's outline, anticlockwise from the origin.
    pub fn polygon(&self) -> Polygon {
        Polygon::new(vec![
            Point::new(0.0, 0.0),
            Point::new(self.width, 0.0),
            Point::new(self.width, self.depth),
            Point::new(0.0, self.depth),
        ])
    }

    /// The point lies on the board (within [`TOLERANCE`] of it).
    pub fn contains(&self, p: Point) -> bool {
        p.x >= -TOLERANCE
            && p.y >= -TOLERANCE
            && p.x <= self.width + TOLERANCE
            && p.y <= self.depth + TOLERANCE
    }

    /// The edge's end points: west to east for South/North, south to north for West/East.
    pub fn edge_segment(&self, edge: BoardEdge) -> (Point, Point) {
        let (w, d) = (self.width, self.depth);
        match edge {
            BoardEdge::South => (Point::new(0.0, 0.0), Point::new(w, 0.0)),
            BoardEdge::North => (Point::new(0.0, d), Point::new(w, d)),
            BoardEdge::West => (Point::new(0.0, 0.0), Point::new(0.0, d)),
            BoardEdge::East => (Point::new(w, 0.0), Point::new(w, d)),
        }
    }

    /// Length of an edge.
    pub fn edge_length(&self, edge: BoardEdge) -> f64 {
        match edge {
            BoardEdge::South | BoardEdge::North => self.width,
            BoardEdge::East | BoardEdge::West => self.depth,
        }
    }

    /// Unit vector pointing from the edge into the board.
    pub fn inward(&self, edge: BoardEdge) -> Point {
        match edge {
            BoardEdge::South => Point::new(0.0, 1.0),
            BoardEdge::North => Point::new(0.0, -1.0),
            BoardEdge::West => Point::new(1.0, 0.0),
            BoardEdge::East => Point::new(-1.0, 0.0),
        }
    }

    /// Perpendicular distance from `p` to the line of the edge (positive on the board side).
    pub fn distance_to_edge(&self, p: Point, edge: BoardEdge) -> f64 {
        match edge {
            BoardEdge::South => p.y,
            BoardEdge::North => self.depth - p.y,
            BoardEdge::West => p.x,
            BoardEdge::East => self.width - p.x,
        }
    }

    /// The edge `p` lies on (within [`TOLERANCE`]); at a corner the nearer edge, ties in
    /// [`BoardEdge::ALL`] order.
    pub fn edge_at(&self, p: Point) -> Option<BoardEdge> {
        if !self.contains(p) {
            return None;
        }
        BoardEdge::ALL
            .into_iter()
            .map(|e| (e, self.distance_to_edge(p, e).abs()))
            .filter(|&(_, d)| d <= TOLERANCE)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(e, _)| e)
    }

    /// The edges a base edge may be on in this variant: BBDBA base edges are the long sides (§5.2,
    /// §14.3), and so are Giant's (§14.6: it differs from Big Battle only as it says); otherwise
    /// any edge.
    pub fn possible_base_edges(&self, variant: Variant) -> Vec<BoardEdge> {
        match variant {
            Variant::BigBattle | Variant::Giant => vec![BoardEdge::South, BoardEdge::North],
            _ => BoardEdge::ALL.to_vec(),
        }
    }

    /// The centre line: parallel to the base edges, midway between them (§1.2). Runs in the
    /// direction of [`Board::edge_segment`] of the base edge.
    pub fn centre_line(&self, base: BoardEdge) -> Segment {
        let (a, b) = self.edge_segment(base);
        let half = self.inward(base) * (self.across(base) * 0.5);
        Segment::new(a + half, b + half)
    }

    /// Distance across the board from `edge` to its opposite edge.
    pub fn across(&self, edge: BoardEdge) -> f64 {
        match edge {
            BoardEdge::South | BoardEdge::North => self.depth,
            BoardEdge::East | BoardEdge::West => self.width,
        }
    }

    /// `p` in the defender's view: (distance to the right of the defender's left side edge,
    /// distance forward from the defender's base edge).
    fn defender_view(&self, p: Point, defender_base: BoardEdge) -> (f64, f64) {
        let (w, d) = (self.width, self.depth);
        match defender_base {
            BoardEdge::South => (p.x, p.y),
            BoardEdge::North => (w - p.x, d - p.y),
            BoardEdge::West => (d - p.y, p.x),
            BoardEdge::East => (p.y, w - p.x),
        }
    }

    /// The quarter containing `p` (§1.2, §17.54), numbered 1–4 clockwise (seen from above) starting
    /// from the defender's left as he sits at `defender_base` looking across the table:
    /// 1 = his near left, 2 = far left, 3 = far right, 4 = near right. We start at the near-left
    /// quarter because the count runs from the defender's own seat. A point on a dividing line
    /// belongs to the quarter to its right or farther from the defender.
    pub fn quarter(&self, p: Point, defender_base: BoardEdge) -> Quarter {
        let (lx, ly) = self.defender_view(p, defender_base);
        let left = lx < self.edge_length(defender_base) * 0.5;
        let near = ly < self.across(defender_base) * 0.5;
        Quarter(match (left, near) {
            (true, true) => 1,
            (true, false) => 2,
            (false, false) => 3,
            (false, true) => 4,
        })
    }

    /// The role of `edge` when the defender's base edge is `defender_base`: the invader's base edge
    /// is the opposite one (§5.2), the other two are side edges (§1.2).
    pub fn edge_role(&self, edge: BoardEdge, defender_base: BoardEdge) -> EdgeRole {
        if edge == defender_base {
            EdgeRole::DefenderBase
        } else if edge == defender_base.opposite() {
            EdgeRole::InvaderBase
        } else {
            EdgeRole::Side
        }
    }

    /// Whether two quarters share a side (not just a corner): 1–2, 2–3, 3–4 and 4–1.
    pub fn quarters_adjacent(a: Quarter, b: Quarter) -> bool {
        let d = (a.0 as i16 - b.0 as i16).rem_euclid(4);
        (1..=4).contains(&a.0) && (1..=4).contains(&b.0) && (d == 1 || d == 3)
    }

    /// The outline of quarter `q` (1–4) for the defender at `defender_base`; `None` for other
    /// numbers.
    pub fn quarter_polygon(&self, q: Quarter, defender_base: BoardEdge) -> Option<Polygon> {
        let (lo, hi) = self.quarter_box(q, defender_base)?;
        Some(Polygon::new(vec![
            lo,
            Point::new(hi.x, lo.y),
            hi,
            Point::new(lo.x, hi.y),
        ]))
    }

    /// The corners (least, greatest) of quarter `q`'s cell, as [`Board::quarter_polygon`]
    /// gives it, without building the polygon; `None` outside quarters 1 to 4.
    pub fn quarter_box(&self, q: Quarter, defender_base: BoardEdge) -> Option<(Point, Point)> {
        if !(1..=4).contains(&q.0) {
            return None;
        }
        let (hw, hd) = (self.width * 0.5, self.depth * 0.5);
        let cells = [(0.0, 0.0), (hw, 0.0), (hw, hd), (0.0, hd)];
        cells.into_iter().find_map(|(x0, y0)| {
            let c = Point::new(x0 + hw * 0.5, y0 + hd * 0.5);
            (self.quarter(c, defender_base) == q)
                .then(|| (Point::new(x0, y0), Point::new(x0 + hw, y0 + hd)))
        })
    }
}

/// Why terrain stops a line of sight or a shot (§9.5).
#[derive(Debug, Clone, PartialEq, Error, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub enum SightBlock {
    /// The crest of a hill lies between, and the target is wholly beyond it (§9.5).
    #[error("§9.5: the crest of hill {feature} lies between (target wholly beyond it)")]
    HillCrest {
        /// The hill's index among the battlefield's features.
        feature: usize,
    },
    /// A City, Fort or other built-up area lies between (§9.5).
    #[error("§9.5: the {kind} (feature {feature}) lies between")]
    Fortification {
        /// Its index among the battlefield's features.
        feature: usize,
        /// Its kind.
        kind: AreaKind,
    },
    /// Half a BW or more of a feature that blocks sight lies between (§9.5).
    #[error("§9.5: {} of the {kind} (feature {feature}) lies between (½ BW or more blocks)", bw_text(*.depth))]
    DeepFeature {
        /// Its index among the battlefield's features.
        feature: usize,
        /// Its kind.
        kind: AreaKind,
        /// How much of it lies between, BW.
        depth: f64,
    },
    /// The shooter is in a gully (§9.5).
    #[error("§9.5: no shooting out of gully {feature}")]
    ShooterInGully {
        /// The gully's index among the battlefield's features.
        feature: usize,
    },
    /// The target is in a gully (§9.5).
    #[error("§9.5: no shooting into gully {feature}")]
    TargetInGully {
        /// The gully's index among the battlefield's features.
        feature: usize,
    },
    /// The shooter is partly in a marsh (§9.5).
    #[error("§9.5: no shooting by an element partly in marsh {feature}")]
    ShooterInMarsh {
        /// The marsh's index among the battlefield's features.
        feature: usize,
    },
    /// The shooter is partly in a river (§9.5).
    #[error("§9.5: no shooting by an element partly in river {feature}")]
    ShooterInRiver {
        /// The river's index among the battlefield's features.
        feature: usize,
    },
}

impl SightBlock {
    /// The digest section.
    pub fn rule(&self) -> &'static str {
        "§9.5"
    }
}

/// How far a move along a road may stray from the road's centre line and still be "wholly on the
/// road" (§3.6): the mover's reference point (midpoint of its front edge, which sits on the road
/// when the element is astride and centred on it) must stay within ¼ BW of the centre line. Roads
/// are drawn less than 1 BW wide, so ¼ BW keeps an astride element's centre on the drawn road.
pub const ROAD_ASTRIDE_TOLERANCE: f64 = 0.25;

/// Command distance for a mover made entirely of Light Horse (§6.4).
pub const COMMAND_DISTANCE_LIGHT_HORSE: f64 = 20.0;
/// Command distance otherwise (§6.4).
pub const COMMAND_DISTANCE: f64 = 8.0;
/// Command distance when the whole mover lies beyond screening terrain (§6.4).
pub const COMMAND_DISTANCE_SCREENED: f64 = 4.0;

/// Heights closer than this count as level (§3.3 needs "higher up", not "as high").
const HEIGHT_EPS: f64 = 1e-6;

/// The table: a board and the terrain on it.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Battlefield {
    /// The board's size.
    pub board: Board,
    /// Every terrain feature; a feature's index here is how problems and events name it.
    pub features: Vec<TerrainFeature>,
}

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

/// The bounding box of `pts`: min x, min y, max x, max y (the box of [`points_bounds`], whose
/// bounds may differ from `f64::min`'s only in a zero's sign, which the comparisons and the
/// slack of [`HillBox`] never see).
fn points_box(pts: &[Point]) -> [f64; 4] {
    let (lo, hi) = points_bounds(pts);
    [lo.x, lo.y, hi.x, hi.y]
}

/// A hill with the box of its outline, widened by a slack far above any rounding: a point
/// outside that box is outside the outline for [`Polygon::contains_strictly`] too (no edge
/// crosses its horizontal line, or every crossing lies on one side of it, an even number), so
/// its [`Battlefield::hill_height`] is exactly 0 and need not be worked out (#15).
#[derive(Clone)]
struct HillBox<'a> {
    hill: &'a AreaFeature,
    lo: Point,
    hi: Point,
}

impl<'a> HillBox<'a> {
    /// `None` for an outline with a non-finite point (every point is then measured).
    fn of(hill: &'a AreaFeature) -> Option<HillBox<'a>> {
        HillBox::of_box(hill, points_box(&hill.outline.points))
    }

    /// [`HillBox::of`] given `points_box` of the hill's outline (kept in an [`AreaBoxes`]).
    fn of_box(hill: &'a AreaFeature, [x0, y0, x1, y1]: [f64; 4]) -> Option<HillBox<'a>> {
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
    fn clear_of(&self, p: Point) -> bool {
        p.x < self.lo.x || p.x > self.hi.x || p.y < self.lo.y || p.y > self.hi.y
    }

    /// The box meets `b` (min x, min y, max x, max y) widened by a tolerance, or `b` is not
    /// finite.
    fn meets(&self, b: &[f64; 4]) -> bool {
        let m = TOLERANCE;
        !(b[2] + m < self.lo.x
            || b[0] - m > self.hi.x
            || b[3] + m < self.lo.y
            || b[1] - m > self.hi.y)
    }
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

/// A box (min x, min y, max x, max y) holding the front edge of `a` and every corner of `b`,
/// worked out from the poses alone, without a sine or cosine (#15). A corner is
/// `m ± r·(w/2) − f·d` (or `m ± r·(w/2)` on the front edge) for the front-edge midpoint `m` and
/// unit vectors `r` and `f` whose coordinates are at most 1 in size, so each coordinate lies
/// within `|w/2| + |d|` of `m`'s, and rounding (monotone) keeps it inside the rounded bound too;
/// the box is widened by a slack besides. A non-finite pose or size gives a box that is not
/// finite, which [`HillBox::meets`] always meets.
fn loose_reach(a: &ElementRect, b: &ElementRect) -> [f64; 4] {
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

/// The hills [`Battlefield::is_uphill_of`] looks at, in feature order, without a heap block
/// for the few a table has (a table with more spills to the heap).
#[derive(Default)]
struct HillsInReach<'a> {
    few: [Option<HillBox<'a>>; 4],
    more: Vec<HillBox<'a>>,
}

impl<'a> HillsInReach<'a> {
    fn push(&mut self, h: HillBox<'a>) {
        match self.few.iter_mut().find(|s| s.is_none()) {
            Some(slot) if self.more.is_empty() => *slot = Some(h),
            _ => self.more.push(h),
        }
    }

    fn is_empty(&self) -> bool {
        self.few[0].is_none()
    }

    fn iter(&self) -> impl Iterator<Item = &HillBox<'a>> {
        self.few
            .iter()
            .map_while(|s| s.as_ref())
            .chain(self.more.iter())
    }
}

/// A bound on [`Battlefield::hill_height`] of `hills` at every point within `reach` of
/// `middle` (#15). A point's height is `b / (b + c)`, `b` its distance from the hill's edge
/// (0 outside the hill) and `c` its distance from the crest (or the middle): it grows with `b`
/// and falls with `c`, and each distance changes by at most `reach` from `middle`'s, so the
/// height is at most `(b + reach) / (b + reach + c - reach)` with `middle`'s distances. 1 when
/// that does not bound it (`c` within `reach`, or a distance not a number).
fn height_bound(hills: &HillsInReach, middle: Point, reach: f64) -> f64 {
    hills
        .iter()
        .map(|h| {
            let hill = h.hill;
            let edge = hill
                .outline
                .edges()
                .map(|e| e.distance_to_point(middle))
                .fold(f64::INFINITY, f64::min);
            let crest = if hill.crest.is_empty() {
                crate::terrain::centroid(&hill.outline).distance(middle)
            } else {
                polyline_distance_to_point(&hill.crest, middle)
            };
            let (b, c) = (edge + reach, crest - reach);
            if b >= 0.0 && c > 0.0 && b.is_finite() && c.is_finite() {
                b / (b + c)
            } else {
                1.0
            }
        })
        .fold(0.0, f64::max)
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

    fn going_impl(&self, rect: &ElementRect, ctx: GoingContext, combat: bool) -> Going {
        self.going_boxed(rect, ctx, combat, None)
    }

    /// [`Self::going_impl`], the outlines' boxes read from `boxes` (by feature index) when
    /// given: the same going, since they are the boxes [`InsetRect::meets`] works out.
    fn going_boxed(
        &self,
        rect: &ElementRect,
        ctx: GoingContext,
        combat: bool,
        boxes: Option<&[OutlineBox]>,
    ) -> Going {
        // Pure speed (#15): the shrunk rectangle is worked out only when some feature is tested
        // against it (a table of gentle hills and plough needs it never), and of an area's three
        // conditions the cheapest come first. The conditions are pure and only their conjunction
        // counts (a fortified hill in combat was skipped, which changes nothing, exactly as a
        // failed condition does), so the going found is the same as testing them in any order.
        // The shrunk rectangle keeps its box, and builds its polygon only for a feature whose
        // box comes near; `InsetRect::meets` is `polygons_intersect` against `inset_rect` (#15).
        let mut poly: Option<InsetRect> = None;
        let mut going = Going::Good;
        for (i, f) in self.features.iter().enumerate() {
            match f {
                TerrainFeature::Area(a) => {
                    if let Some(g) = a.going(ctx) {
                        if g > going
                            && !(combat && a.kind.is_hill() && self.hill_is_fortified(a))
                            && poly
                                .get_or_insert_with(|| InsetRect::new(rect))
                                .meets_boxed(&a.outline, || match boxes {
                                    Some(b) => b[i],
                                    None => outline_box(&a.outline),
                                })
                        {
                            going = g;
                        }
                    }
                }
                TerrainFeature::Waterway(w) => {
                    if poly
                        .get_or_insert_with(|| InsetRect::new(rect))
                        .meets(&w.water_polygon(&self.board))
                    {
                        going = Going::Impassable;
                    }
                }
                TerrainFeature::River(_) | TerrainFeature::Road(_) => {}
            }
        }
        going
    }

    /// The going an element stands in: the worst going any part of it is in (§3.1). Touching a
    /// feature's edge is not being in it (the rectangle is shrunk by [`TOLERANCE`]). Rivers and
    /// roads do not change the going (§3.5, §3.6: a road helps only a move wholly along it, see
    /// [`Battlefield::move_along_road`]); City and Fort have no going class (§4.2–4.3); any part in
    /// a waterway gives [`Going::Impassable`].
    pub fn going_under(&self, rect: &ElementRect, ctx: GoingContext) -> Going {
        self.going_impl(rect, ctx, false)
    }

    /// The going for close-combat factors (§10.3): as [`Battlefield::going_under`], except that a
    /// hill carrying a City or Fort gives attackers no bad-going penalty (§17.34).
    pub fn combat_going_under(&self, rect: &ElementRect, ctx: GoingContext) -> Going {
        self.going_impl(rect, ctx, true)
    }

    /// [`Battlefield::combat_going_under`] with the outlines' boxes kept in `boxes` when they are
    /// this table's (#15), the same answer.
    pub(crate) fn combat_going_under_boxed(
        &self,
        rect: &ElementRect,
        ctx: GoingContext,
        boxes: Option<&AreaBoxes>,
    ) -> Going {
        self.going_boxed(rect, ctx, true, boxes.and_then(|b| b.of_table(self)))
    }

    /// Index of a river any part of the element is in (reaching over the bank by more than
    /// [`TOLERANCE`]).
    pub fn river_under(&self, rect: &ElementRect) -> Option<usize> {
        let poly = inset_rect(rect);
        self.features.iter().enumerate().find_map(|(i, f)| match f {
            TerrainFeature::River(r)
                if polyline_distance_to_polygon(&r.course, &poly) < r.width * 0.5 =>
            {
                Some(i)
            }
            _ => None,
        })
    }

    /// Whether any part of the element's front edge is in a river (reaching over the bank by more
    /// than [`TOLERANCE`]); used for crossings (§7.8) and bank defence (§3.5, §10.3).
    pub fn front_edge_in_river(&self, rect: &ElementRect) -> bool {
        let front = rect.edge(Edge::Front);
        self.features.iter().any(|f| match f {
            TerrainFeature::River(r) => {
                polyline_distance_to_segment(&r.course, &front) < r.width * 0.5 - TOLERANCE
            }
            _ => false,
        })
    }

    /// Whether a move path (the successive positions of the mover's front-edge midpoint) lies
    /// wholly along roads (§3.6): every point of it within [`ROAD_ASTRIDE_TOLERANCE`] of some road's
    /// centre line. Paths are checked at least every 1/16 BW.
    pub fn move_along_road(&self, path: &[Point]) -> bool {
        let roads: Vec<&[Point]> = self
            .features
            .iter()
            .filter_map(|f| match f {
                TerrainFeature::Road(r) => Some(r.path.as_slice()),
                _ => None,
            })
            .collect();
        if roads.is_empty() || path.is_empty() {
            return false;
        }
        let on_road = |p: Point| {
            roads
                .iter()
                .any(|r| polyline_distance_to_point(r, p) <= ROAD_ASTRIDE_TOLERANCE + TOLERANCE)
        };
        if path.len() == 1 {
            return on_road(path[0]);
        }
        path.windows(2).all(|w| {
            let n = ((w[0].distance(w[1]) * 16.0).ceil() as usize).max(1);
            (0..=n).all(|k| on_road(w[0] + (w[1] - w[0]) * (k as f64 / n as f64)))
        })
    }

    /// Height of a point up a hill's slope, 0 at the hill's edge (and off it) rising to 1 on its
    /// crest line (§3.3). Inside the hill the height is `b / (b + c)`, with `b` the distance to the
    /// hill's outline and `c` the distance to its crest: it depends only on distances, so it does
    /// not change when the table is moved or turned, and every hill's slope runs from its edge
    /// straight up to its crest, as §3.3 describes. A hill without a crest rises to its middle.
    pub fn hill_height(hill: &AreaFeature, p: Point) -> f64 {
        if !hill.kind.is_hill() || !hill.outline.contains_strictly(p) {
            return 0.0;
        }
        // The least distance to an edge. Pure speed: the squared distances (no square root)
        // pick out the edges that can be nearest (within a millionth of the least, far above
        // rounding); only those are measured exactly, so the least is the very same number.
        let square = |e: &crate::geometry::Segment| {
            let d = e.closest_point(p) - p;
            d.dot(d)
        };
        let nearest2 = hill
            .outline
            .edges()
            .map(|e| square(&e))
            .fold(f64::INFINITY, f64::min);
        let b = if nearest2.is_normal() {
            let cut = nearest2 * (1.0 + 1e-6);
            hill.outline
                .edges()
                .filter(|e| {
                    // A distance that is not a number is kept (the least ignores it either way).
                    let d2 = square(e);
                    d2 <= cut || d2.is_nan()
                })
                .map(|e| e.distance_to_point(p))
                .fold(f64::INFINITY, f64::min)
        } else {
            hill.outline
                .edges()
                .map(|e| e.distance_to_point(p))
                .fold(f64::INFINITY, f64::min)
        };
        let c = if hill.crest.is_empty() {
            crate::terrain::centroid(&hill.outline).distance(p)
        } else {
            polyline_distance_to_point(&hill.crest, p)
        };
        if b + c <= 0.0 {
            1.0
        } else {
            b / (b + c)
        }
    }

    /// Height of a point: the greatest over all hills (hills never overlap, §3.8), skipping hills
    /// that carry a City or Fort when `combat` (§17.34).
    fn height(&self, p: Point, combat: bool) -> f64 {
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
    fn uphill_boxed<'a>(
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
        let mut hills = HillsInReach::default();
        for hb in near.iter() {
            if hb.meets(&reach) {
                hills.push(hb.clone());
            }
        }
        if hills.is_empty() {
            // No hill in reach: the front edge stands nowhere above 0.
            return false;
        }
        let height = |p: Point| {
            hills
                .iter()
                .filter(|h| !h.clear_of(p))
                .map(|h| Battlefield::hill_height(h.hill, p))
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
                    || hills.iter().all(|h| h.clear_of(p))
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

    /// The terrain blocking the straight line `s`, if any (§9.5), in feature order.
    fn ray_block(&self, s: &Segment, gully_points: bool) -> Option<SightBlock> {
        for (i, f) in self.features.iter().enumerate() {
            let TerrainFeature::Area(a) = f else { continue };
            if gully_points && a.kind == AreaKind::Gully {
                if a.outline.contains_strictly(s.a) {
                    return Some(SightBlock::ShooterInGully { feature: i });
                }
                if a.outline.contains_strictly(s.b) {
                    return Some(SightBlock::TargetInGully { feature: i });
                }
            }
            if a.kind.is_hill() && segment_crosses_polyline(s, &a.crest) {
                return Some(SightBlock::HillCrest { feature: i });
            }
            if a.kind.is_fortified()
                && !a.outline.contains(s.a)
                && !a.outline.contains(s.b)
                && length_inside(s, &a.outline) > TOLERANCE
            {
                return Some(SightBlock::Fortification {
                    feature: i,
                    kind: a.kind,
                });
            }
            if matches!(
                a.kind,
                AreaKind::DifficultHill
                    | AreaKind::Wood
                    | AreaKind::Oasis
                    | AreaKind::Dunes
                    | AreaKind::Hamlet
                    | AreaKind::Edifice
            ) {
                let depth = length_inside(s, &a.outline);
                if depth >= 0.5 - TOLERANCE {
                    return Some(SightBlock::DeepFeature {
                        feature: i,
                        kind: a.kind,
                        depth,
                    });
                }
            }
        }
        None
    }

    /// Terrain line of sight between two points (§9.5): blocked by a hill crest crossed on the way
    /// (a point on the crest itself sees both slopes), by a City or Fort neither point is in, by
    /// ½ BW or more of difficult hill, wood, oasis, dunes, hamlet or edifice along the line, and
    /// when either point is inside a gully. Elements in the way are not terrain and are not
    /// checked here.
    pub fn line_of_sight(&self, from: Point, to: Point) -> Result<(), SightBlock> {
        match self.ray_block(&Segment::new(from, to), true) {
            Some(b) => Err(b),
            None => Ok(()),
        }
    }

    fn sight_between_impl(
        &self,
        from: &Segment,
        to: &Segment,
        gully_points: bool,
    ) -> Result<(), SightBlock> {
        let mut first = None;
        let fs = segment_samples(from, 9);
        let ts = segment_samples(to, 9);
        for &p in &fs {
            for &q in &ts {
                match self.ray_block(&Segment::new(p, q), gully_points) {
                    None => return Ok(()),
                    Some(b) => {
                        if first.is_none() {
                            first = Some(b);
                        }
                    }
                }
            }
        }
        // Report the block of the central line, the one a player would look along.
        match self.ray_block(&Segment::new(from.midpoint(), to.midpoint()), gully_points) {
            Some(b) => Err(b),
            None => Err(first.expect("some line was blocked")),
        }
    }

    /// Terrain line of sight between two segments (e.g. a shooter's front edge and a target's
    /// edge): clear when at least one straight line from a point of `from` to a point of `to` is
    /// clear (9 × 9 sampled lines). So a target only partly beyond a crest can be seen, as §9.5's
    /// "wholly beyond" requires.
    pub fn sight_between(&self, from: &Segment, to: &Segment) -> Result<(), SightBlock> {
        self.sight_between_impl(from, to, true)
    }

    /// Terrain checks for one element shooting at another (§9.5): no shooting by an element partly
    /// in a gully, marsh or river, nor at one partly in a gully; then sight from the shooter's
    /// front edge to any edge of the target.
    pub fn element_line_of_sight(
        &self,
        shooter: &ElementRect,
        target: &ElementRect,
    ) -> Result<(), SightBlock> {
        let sp = inset_rect(shooter);
        let tp = inset_rect(target);
        for (i, a) in self.areas() {
            if a.kind == AreaKind::Gully && polygons_intersect(&sp, &a.outline) {
                return Err(SightBlock::ShooterInGully { feature: i });
            }
            if a.kind == AreaKind::Gully && polygons_intersect(&tp, &a.outline) {
                return Err(SightBlock::TargetInGully { feature: i });
            }
            if a.kind == AreaKind::Marsh && polygons_intersect(&sp, &a.outline) {
                return Err(SightBlock::ShooterInMarsh { feature: i });
            }
        }
        if let Some(i) = self.river_under(shooter) {
            return Err(SightBlock::ShooterInRiver { feature: i });
        }
        let front = shooter.edge(Edge::Front);
        let mut first = None;
        for e in [Edge::Front, Edge::Left, Edge::Right, Edge::Rear] {
            match self.sight_between_impl(&front, &target.edge(e), false) {
                Ok(()) => return Ok(()),
                Err(b) => {
                    if first.is_none() {
                        first = Some(b);
                    }
                }
            }
        }
        Err(first.expect("four edges were tried"))
    }

    /// Whether the point `q` of a mover is screened from the general's viewpoint `g` (§6.4).
    ///
    /// "Beyond" reading: `q` is screened when the straight line from `g` to `q` crosses a hill's
    /// crest; or passes through a difficult hill, wood, oasis, dunes, BUA or camp that does not
    /// contain `g` (more than [`TOLERANCE`] of the line inside it); or when `q` is itself on a
    /// difficult hill or inside a wood, oasis or dunes ("on", "inside").
    ///
    /// `boxes` are the outlines' boxes by feature index, when known (#15): an outline whose box
    /// stands clear of the sight line's by more than twice the tolerance can neither hold `q`
    /// (within the tolerance of an edge, or inside) nor have any of the line inside it (the line
    /// meets none of its edges, and its middle is outside), so its tests are passed over. A
    /// hill's crest is tested whatever its outline's box, as before.
    fn point_screened(
        &self,
        g: Point,
        q: Point,
        camps: &[Polygon],
        boxes: Option<&[OutlineBox]>,
    ) -> bool {
        let s = Segment::new(g, q);
        for (i, a) in self.areas() {
            if a.kind.is_hill() && segment_crosses_polyline(&s, &a.crest) {
                return true;
            }
            if boxes.is_some_and(|k| sight_clear_of_box(g, q, k[i])) {
                continue;
            }
            let area_screen = matches!(
                a.kind,
                AreaKind::DifficultHill | AreaKind::Wood | AreaKind::Oasis | AreaKind::Dunes
            );
            if area_screen && a.outline.contains(q) {
                return true;
            }
            if (area_screen || a.kind.is_bua())
                && !a.outline.contains(g)
                && length_inside(&s, &a.outline) > TOLERANCE
            {
                return true;
            }
        }
        camps
            .iter()
            .any(|c| !c.contains(g) && length_inside(&s, c) > TOLERANCE)
    }

    /// Whether the whole mover lies beyond screening terrain as seen from the general (§6.4):
    /// every sampled point of every mover element (a 5 × 5 grid over each) is screened, possibly by
    /// different features. The viewpoint is the centre of the general's element.
    pub fn mover_screened(
        &self,
        general: &ElementRect,
        mover: &[ElementRect],
        camps: &[Polygon],
    ) -> bool {
        self.mover_screened_boxed(general, mover, camps, None)
    }

    /// [`Battlefield::mover_screened`] with the outlines' boxes kept in `boxes` when they are
    /// this table's (#15), the same answer.
    fn mover_screened_boxed(
        &self,
        general: &ElementRect,
        mover: &[ElementRect],
        camps: &[Polygon],
        boxes: Option<&AreaBoxes>,
    ) -> bool {
        let g = general.centre();
        let boxes = boxes.and_then(|k| k.of_table(self));
        !mover.is_empty()
            && mover
                .iter()
                .flat_map(|m| rect_samples(m, 5))
                .all(|q| self.point_screened(g, q, camps, boxes))
    }

    /// The command distance that applies to a mover (§6.4): 20 BW when it is all Light Horse;
    /// otherwise 4 BW when [`Battlefield::mover_screened`], else 8 BW.
    pub fn command_distance(
        &self,
        general: &ElementRect,
        mover: &[ElementRect],
        camps: &[Polygon],
        all_light_horse: bool,
    ) -> f64 {
        self.command_distance_boxed(general, mover, camps, all_light_horse, None)
    }

    /// [`Battlefield::command_distance`] with the outlines' boxes kept in `boxes` when they are
    /// this table's (#15), the same answer.
    pub(crate) fn command_distance_boxed(
        &self,
        general: &ElementRect,
        mover: &[ElementRect],
        camps: &[Polygon],
        all_light_horse: bool,
        boxes: Option<&AreaBoxes>,
    ) -> f64 {
        if all_light_horse {
            COMMAND_DISTANCE_LIGHT_HORSE
        } else if self.mover_screened_boxed(general, mover, camps, boxes) {
            COMMAND_DISTANCE_SCREENED
        } else {
            COMMAND_DISTANCE
        }
    }

    /// Whether a mover (an element, or a group's elements) is within command distance of its
    /// general (§6.4, "within" = at or closer, §0.3). Measured between the nearest points of the
    /// general's element and the nearest element of the mover, at the start of its move.
    pub fn within_command(
        &self,
        general: &ElementRect,
        mover: &[ElementRect],
        camps: &[Polygon],
        all_light_horse: bool,
    ) -> bool {
        let limit = self.command_distance(general, mover, camps, all_light_horse);
        let gp = general.polygon();
        // The least distance is within the limit exactly when one mover's is (`within` is
        // that comparison, #15).
        mover
            .iter()
            .any(|m| gp.within(&m.polygon(), limit + TOLERANCE))
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
                let mut one = HillsInReach::default();
                one.push(h.clone());
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
        if hills.is_empty() {
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
mod going_agreement {
    use super::*;
    use crate::geometry::Pose;
    use crate::terrain::Waterway;

    /// [`Battlefield::going_impl`] as it stood before the shrunk rectangle was made lazy and the
    /// cheap conditions put first (#15).
    fn going_reference(
        bf: &Battlefield,
        rect: &ElementRect,
        ctx: GoingContext,
        combat: bool,
    ) -> Going {
        let poly = inset_rect(rect);
        let mut going = Going::Good;
        for f in &bf.features {
            match f {
                TerrainFeature::Area(a) => {
                    if combat && a.kind.is_hill() && bf.hill_is_fortified(a) {
                        continue;
                    }
                    if let Some(g) = a.going(ctx) {
                        if g > going && polygons_intersect(&poly, &a.outline) {
                            going = g;
                        }
                    }
                }
                TerrainFeature::Waterway(w) => {
                    if polygons_intersect(&poly, &w.water_polygon(&bf.board)) {
                        going = Going::Impassable;
                    }
                }
                TerrainFeature::River(_) | TerrainFeature::Road(_) => {}
            }
        }
        going
    }

    fn ellipse(kind: AreaKind, cx: f64, cy: f64, rx: f64, ry: f64) -> AreaFeature {
        let pts = (0..20)
            .map(|k| {
                let t = f64::from(k) * std::f64::consts::TAU / 20.0;
                Point::new(cx + rx * t.cos(), cy + ry * t.sin())
            })
            .collect();
        AreaFeature::new(kind, Polygon::new(pts))
    }

    /// A difficult hill under a Fort, a gentle hill, a wood, dunes, plough, rocky ground and a
    /// waterway, some of them overlapping so that the worst going decides.
    pub(super) fn table() -> Battlefield {
        let mut bf = Battlefield::new(Board::default());
        let areas = [
            ellipse(AreaKind::DifficultHill, 4.0, 4.0, 2.5, 2.0),
            ellipse(AreaKind::GentleHill, 11.0, 5.0, 2.5, 2.0),
            ellipse(AreaKind::Wood, 6.0, 10.0, 2.0, 2.0),
            ellipse(AreaKind::Dunes, 12.0, 11.0, 2.0, 1.5),
            AreaFeature::rectangle(
                AreaKind::Plough,
                Point::new(7.0, 6.0),
                Point::new(10.0, 9.0),
            ),
            ellipse(AreaKind::Rocky, 9.0, 9.0, 1.5, 1.5),
            AreaFeature::rectangle(AreaKind::Fort, Point::new(3.5, 3.5), Point::new(4.5, 4.5)),
        ];
        for a in areas {
            bf.features.push(TerrainFeature::Area(a));
        }
        bf.features.push(TerrainFeature::Waterway(Waterway::uniform(
            BoardEdge::South,
            1.5,
            0.5,
        )));
        bf
    }

    // DBA3.md §3.1, §17.34: the lazy shrunk rectangle and the reordered conditions (#15) never
    // change the going an element stands or fights in, for every context, on and off features.
    #[test]
    fn going_is_the_reference() {
        let bf = table();
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let facings = [0.0, 90.0, 180.0, 270.0, 30.0, 212.5];
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..4_000 {
            let x = (next() % 4096) as f64 / 4096.0 * 16.0;
            let y = (next() % 4096) as f64 / 4096.0 * 16.0;
            let f = facings[(next() % 6) as usize];
            let rect = ElementRect::new(Pose::new(x, y, f), 1.0, 0.5);
            for (camel_mounted, plough_is_rough, combat) in [
                (false, false, false),
                (true, false, true),
                (false, true, true),
                (true, true, false),
            ] {
                let ctx = GoingContext {
                    camel_mounted,
                    plough_is_rough,
                };
                let want = going_reference(&bf, &rect, ctx, combat);
                assert_eq!(bf.going_impl(&rect, ctx, combat), want, "{rect:?} {ctx:?}");
                seen.insert(want);
            }
        }
        assert_eq!(seen.len(), 4, "every going met: {seen:?}");
    }

    // DBA3.md §3.1, §17.34: the going with the outlines' boxes kept for the table (#15) is the
    // going without them, on a table with outlines that are not finite too; boxes kept for
    // another table are not used.
    #[test]
    fn going_with_kept_boxes_is_the_reference() {
        let mut odd = table();
        if let TerrainFeature::Area(a) = &mut odd.features[2] {
            a.outline.points[4] = Point::new(f64::NAN, 10.0);
        }
        if let TerrainFeature::Area(a) = &mut odd.features[3] {
            a.outline.points[7].y = f64::INFINITY;
        }
        odd.features.push(TerrainFeature::Area(AreaFeature::new(
            AreaKind::Wood,
            Polygon::new(Vec::new()),
        )));
        let mut rng = crate::terrain::intersect_agreement::Rng(0x9e37_79b9_7f4a_7c15);
        let mut next = move || rng.next();
        let facings = [0.0, 90.0, 180.0, 270.0, 30.0, 212.5, f64::NAN];
        for bf in [table(), odd] {
            let (boxes, other) = (AreaBoxes::of(&bf), AreaBoxes::of(&table()));
            let mut seen = std::collections::BTreeSet::new();
            for k in 0..4_000 {
                let x = (next() % 4096) as f64 / 4096.0 * 16.0;
                let y = (next() % 4096) as f64 / 4096.0 * 16.0;
                let f = facings[(next() % 7) as usize];
                let x = if k % 500 == 0 { f64::INFINITY } else { x };
                let rect = ElementRect::new(Pose::new(x, y, f), 1.0, 0.5);
                for (camel_mounted, plough_is_rough) in [(false, false), (true, true)] {
                    let ctx = GoingContext {
                        camel_mounted,
                        plough_is_rough,
                    };
                    let want = going_reference(&bf, &rect, ctx, true);
                    for kept in [None, Some(&boxes), Some(&other)] {
                        let got = bf.combat_going_under_boxed(&rect, ctx, kept);
                        assert_eq!(got, want, "{rect:?} {ctx:?}");
                    }
                    seen.insert(want);
                }
            }
            assert!(seen.len() >= 3, "goings met: {seen:?}");
        }
    }
}

#[cfg(test)]
mod screening_agreement {
    use super::*;
    use crate::geometry::{unit_stream as stream, Pose};

    // DBA3.md §6.4: the command distance with the outlines' boxes kept (#15) is the distance
    // worked out with every outline tested, for generals and movers all over a table with a
    // wood, dunes, a difficult hill and a camp, screened and not.
    #[test]
    fn command_distance_with_boxes_is_the_distance() {
        let bf = super::going_agreement::table();
        let boxes = AreaBoxes::of(&bf);
        let camp = Polygon::new(vec![
            Point::new(13.0, 1.0),
            Point::new(15.0, 1.0),
            Point::new(15.0, 2.5),
            Point::new(13.0, 2.5),
        ]);
        let camps = std::slice::from_ref(&camp);
        let mut unit = stream(0x9e37_79b9_7f4a_7c15);
        let at = |unit: &mut dyn FnMut() -> f64| {
            let facing = [0.0, 90.0, 180.0, 270.0, 33.0][(unit() * 5.0) as usize];
            ElementRect::new(Pose::new(unit() * 16.0, unit() * 16.0, facing), 1.0, 0.5)
        };
        let mut screened = 0;
        for _ in 0..3_000 {
            let general = at(&mut unit);
            let movers: Vec<ElementRect> = (0..1 + (unit() * 2.0) as usize)
                .map(|_| at(&mut unit))
                .collect();
            let want = bf.command_distance(&general, &movers, camps, false);
            let got = bf.command_distance_boxed(&general, &movers, camps, false, Some(&boxes));
            assert_eq!(got.to_bits(), want.to_bits(), "{general:?} {movers:?}");
            screened += usize::from(want == COMMAND_DISTANCE_SCREENED);
        }
        assert!(screened > 50, "only {screened} screened movers");
    }

    // DBA3.md §6.4 (#15): a sight line more than twice the tolerance clear of an outline's box
    // has no length inside the outline and its far end is not in it, for lines passing near,
    // along and across the box's sides.
    #[test]
    fn a_sight_line_clear_of_the_box_misses_the_outline() {
        let bf = super::going_agreement::table();
        let mut unit = stream(0x2545_f491_4f6c_dd1d);
        let mut clear = 0;
        for (_, a) in bf.areas() {
            let b = outline_box(&a.outline);
            let ((lo, hi), _) = b;
            for _ in 0..2_000 {
                // Ends anywhere within 1 BW of the box, many just past the margin.
                let mut end = || {
                    Point::new(
                        lo.x - 1.0 + unit() * (hi.x - lo.x + 2.0),
                        lo.y - 1.0 + unit() * (hi.y - lo.y + 2.0),
                    )
                };
                let (g, q) = (end(), end());
                if sight_clear_of_box(g, q, b) {
                    clear += 1;
                    assert!(!a.outline.contains(q), "{q:?}");
                    let inside = length_inside(&Segment::new(g, q), &a.outline);
                    assert!(inside <= TOLERANCE, "{g:?} {q:?}: {inside}");
                }
            }
        }
        assert!(clear > 1_000, "only {clear} lines clear");
        let nan = Point::new(f64::NAN, 0.0);
        let (_, a) = bf.areas().next().expect("an area");
        assert!(!sight_clear_of_box(nan, nan, outline_box(&a.outline)));
    }
}
