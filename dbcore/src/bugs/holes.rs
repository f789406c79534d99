//! Bug holes (BUGS §13; readings R38–R41): the chance, the direction and tremors, the distance,
//! where the hole lands, and the kind of each bug that comes out.

use serde::{Deserialize, Serialize};

use super::field::{BoardType, Field};
use super::sheets::Sheet;
use crate::geometry::Point;

/// The base chance of a bug hole (BUGS §13.1).
pub const BASE_CHANCE: i32 = 9;

/// A term of the bug-hole chance (BUGS §13.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "term")]
pub enum ChanceTerm {
    /// The base chance, 9.
    Base {
        /// 9.
        value: i32,
    },
    /// The board's terrain: +2 jungle or swamp, +1 clear, −1 rocky, −2 mountainous or a city.
    Board {
        /// The board.
        board: BoardType,
        /// Its modifier.
        value: i32,
    },
    /// +1 for each bug hole on the table.
    Holes {
        /// Holes on the table.
        count: u32,
        /// +1 each.
        value: i32,
    },
    /// −1 for each soldier in the encounter, at most −6 (reading R41).
    Soldiers {
        /// Soldiers alive on the table.
        count: u32,
        /// −1 each, at most −6.
        value: i32,
    },
}

impl ChanceTerm {
    /// What the term adds.
    pub fn value(self) -> i32 {
        match self {
            ChanceTerm::Base { value }
            | ChanceTerm::Board { value, .. }
            | ChanceTerm::Holes { value, .. }
            | ChanceTerm::Soldiers { value, .. } => value,
        }
    }
}

/// The chance of a bug hole, with its terms (BUGS §13.1). A 2D6 roll equal to or lower opens one
/// (BUGS §13.2).
///
/// ```
/// use dbcore::bugs::{hole_chance, BoardType};
///
/// // BUGS §13.10: three soldiers in clear terrain: 9 - 3 + 1 = 7.
/// assert_eq!(hole_chance(BoardType::Clear, 0, 3).0, 7);
/// ```
pub fn hole_chance(board: BoardType, holes: u32, soldiers: u32) -> (i32, Vec<ChanceTerm>) {
    let terms = vec![
        ChanceTerm::Base { value: BASE_CHANCE },
        ChanceTerm::Board {
            board,
            value: board.hole_modifier(),
        },
        ChanceTerm::Holes {
            count: holes,
            value: holes.min(1000) as i32,
        },
        ChanceTerm::Soldiers {
            count: soldiers,
            value: -(soldiers.min(6) as i32),
        },
    ];
    (terms.iter().map(|t| t.value()).sum(), terms)
}

/// Where a hole lies from the party (BUGS §13.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// In front (1).
    Front,
    /// To the right (2).
    Right,
    /// Behind (3).
    Rear,
    /// To the left (4).
    Left,
}

impl Direction {
    /// The direction a 1D6 gives; `None` for 5 or 6, the tremors (BUGS §13.3).
    pub fn from_die(die: u8) -> Option<Direction> {
        match die {
            1 => Some(Direction::Front),
            2 => Some(Direction::Right),
            3 => Some(Direction::Rear),
            4 => Some(Direction::Left),
            _ => None,
        }
    }
    /// Its bearing, given the bearing of the party's front (reading R39).
    pub fn bearing(self, front: f64) -> f64 {
        let turn = match self {
            Direction::Front => 0.0,
            Direction::Right => 90.0,
            Direction::Rear => 180.0,
            Direction::Left => 270.0,
        };
        (front + turn).rem_euclid(360.0)
    }
    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Direction::Front => "in front of",
            Direction::Right => "to the right of",
            Direction::Rear => "behind",
            Direction::Left => "to the left of",
        }
    }
}

/// The kind of bug a 2D6 total brings out (BUGS §13.8): big uns on 2, 3, 10, 11 and 12.
pub fn bug_type(total: u8) -> Sheet {
    match total {
        4..=9 => Sheet::LittleUn,
        _ => Sheet::BigUn,
    }
}

/// Where a hole opens (reading R39): `distance` inches from the party's centre on `bearing`; a
/// point off the table comes back along the ray to the edge, and one in impassable terrain comes
/// back toward the party to the first passable point.
pub fn hole_point(field: &Field, party: Point, bearing: f64, distance: f64) -> Point {
    let dir = Point::from_bearing(bearing);
    let mut d = distance;
    for e in super::field::Edge::ALL {
        if let Some(t) = field.to_edge(party, dir, e, 0.0) {
            d = d.min(t);
        }
    }
    let step = 1.0 / 64.0;
    loop {
        let p = party + dir * d;
        if field.passable(p) || d <= 0.0 {
            return p.snapped();
        }
        d = (d - step).max(0.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn soldiers_count_at_most_six() {
        // BUGS §13.1.
        assert_eq!(hole_chance(BoardType::JungleSwamp, 2, 9).0, 9 + 2 + 2 - 6);
        assert_eq!(hole_chance(BoardType::Mountainous, 0, 0).0, 7);
    }

    #[test]
    fn type_and_direction_from_the_dice() {
        // BUGS §13.3, BUGS §13.8.
        let big: Vec<u8> = (2..=12).filter(|t| bug_type(*t) == Sheet::BigUn).collect();
        assert_eq!(big, [2, 3, 10, 11, 12]);
        assert_eq!(Direction::from_die(5), None);
        assert_eq!(Direction::from_die(2), Some(Direction::Right));
        assert_eq!(Direction::Left.bearing(90.0), 0.0);
    }
}
