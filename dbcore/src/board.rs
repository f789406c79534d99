//! The board (§1.2): the game variant and the board's proportions, its edges and their roles,
//! and the quarters the placement rules count in (§3.8). The board's own vocabulary, below both
//! the terrain (whose features are drawn in the board's frame) and the battlefield; its items
//! are re-exported by [`crate::battlefield`], where users find them.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::geometry::{Point, Polygon, Segment, TOLERANCE};

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

    pub(super) fn check_side(side: f64) -> Result<(), BoardError> {
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
    pub(super) fn defender_view(&self, p: Point, defender_base: BoardEdge) -> (f64, f64) {
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
