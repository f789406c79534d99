//! Bug holes (BUGS §13; readings R38–R41): the chance, the direction and tremors, the distance,
//! where the hole lands, the kind of each bug that comes out, and the encounter step that opens
//! holes and lets bugs out.

use serde::{Deserialize, Serialize};

use super::field::{BoardType, Field};
use super::sheets::Sheet;
use super::tasks::Task;
use super::{BugHole, DiceReading, Encounter, Event, Figure, HoleState, Roll};
use super::{FigureId, Side};
use crate::geometry::Point;

/// The base chance of a bug hole (BUGS §13.1).
pub const BASE_CHANCE: i32 = 9;

/// A term of the bug-hole chance (BUGS §13.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "term")]
#[serde(deny_unknown_fields)]
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

impl Encounter {
    pub(super) fn hole(&self, id: u32) -> &BugHole {
        &self.holes[id as usize - 1]
    }
    pub(super) fn hole_mut(&mut self, id: u32) -> &mut BugHole {
        &mut self.holes[id as usize - 1]
    }

    /// The bug-hole chance now (BUGS §13.1).
    pub(super) fn chance(&self) -> (i32, Vec<super::holes::ChanceTerm>) {
        let open = self
            .holes
            .iter()
            .filter(|h| matches!(h.state, HoleState::Open { .. }))
            .count() as u32;
        let soldiers = self
            .figures
            .iter()
            .filter(|f| f.on_table() && f.sheet.is_soldier())
            .count() as u32;
        hole_chance(self.board.unwrap_or(BoardType::Clear), open, soldiers)
    }

    /// The party's centre: the centroid of the humans on the table (reading R39).
    fn party(&self) -> Point {
        let humans: Vec<Point> = self
            .figures
            .iter()
            .filter(|f| f.side == Side::Humans && f.on_table())
            .map(|f| f.at)
            .collect();
        if humans.is_empty() {
            return Point::new(self.field.width / 2.0, self.field.depth / 2.0);
        }
        let n = humans.len() as f64;
        let s = humans.iter().fold(Point::new(0.0, 0.0), |a, p| a + *p);
        s * (1.0 / n)
    }

    pub(super) fn locate_hole(&mut self, task: &Task, hole: u32, after: bool, ev: &mut Vec<Event>) {
        let roll = Roll::HoleDirection {
            hole,
            after_tremors: after,
        };
        let Some(d) = self.dice(task, 1, DiceReading::Total, roll) else {
            return;
        };
        let direction = Direction::from_die(d[0].get());
        ev.push(Event::HoleDirection {
            hole,
            die: d[0],
            direction,
        });
        match direction {
            Some(direction) => self.stack.push(Task::HoleDistance { hole, direction }),
            // Tremors after tremors: roll again (BUGS §13.3).
            None if after => self.stack.push(task.clone()),
            // Tremors: it opens in the next encounter step.
            None => {}
        }
    }

    pub(super) fn hole_distance(
        &mut self,
        task: &Task,
        hole: u32,
        dir: Direction,
        ev: &mut Vec<Event>,
    ) {
        let Some(d) = self.dice(task, 2, DiceReading::Product, Roll::HoleDistance { hole }) else {
            return;
        };
        let distance = f64::from(d[0].get()) * f64::from(d[1].get());
        let at = hole_point(
            &self.field,
            self.party(),
            dir.bearing(self.setup.front),
            distance,
        );
        let turn = self.turn;
        let h = self.hole_mut(hole);
        h.at = Some(at);
        h.state = HoleState::Open { turn };
        self.holes_opened += 1;
        ev.push(Event::HoleOpened {
            hole,
            at,
            dice: d,
            distance,
        });
        // Anyone standing where it opens is killed (BUGS §13.5).
        let under: Vec<FigureId> = self
            .figures
            .iter()
            .filter(|f| f.on_table() && base_contains(f, at))
            .map(|f| f.id)
            .collect();
        for id in under {
            self.kill(id, super::DeathCause::BugHole, ev);
        }
        self.stack.push(Task::Emerge { hole, left: 1 });
        self.stack.push(Task::HoleOwes { hole });
    }

    /// A free place for the next bug out of a hole (reading R40; dbcore reading B9: on the hole
    /// itself, else as near it as there is room, on rings 1, 2 and 3 in about it tried from north
    /// clockwise; never touching a human).
    fn bug_place(&self, hole: u32) -> Option<Point> {
        let at = self.hole(hole).at?;
        let free = |p: Point| {
            self.field.on_table(p)
                && self.field.passable(p)
                && self.figures.iter().filter(|f| f.on_table()).all(|f| {
                    let d = f.at.distance(p);
                    d >= super::field::OVERLAP
                        && (f.side == Side::Bugs || d > super::field::CONTACT)
                })
        };
        if free(at) {
            return Some(at);
        }
        for ring in 1..=3 {
            let n = 8 * ring;
            for k in 0..n {
                let b = 360.0 * f64::from(k) / f64::from(n);
                let p = (at + Point::from_bearing(b) * f64::from(ring)).snapped();
                if free(p) {
                    return Some(p);
                }
            }
        }
        None
    }

    pub(super) fn emerge(&mut self, task: &Task, hole: u32, left: u32, ev: &mut Vec<Event>) {
        if left == 0 || self.hole(hole).owes == 0 {
            return;
        }
        let Some(at) = self.bug_place(hole) else {
            ev.push(Event::BugWaits { hole });
            return;
        };
        let Some(d) = self.dice(task, 2, DiceReading::Total, Roll::BugType { hole }) else {
            return;
        };
        let sheet = bug_type(d[0].get() + d[1].get());
        let id = FigureId(self.figures.iter().map(|f| f.id.0).max().unwrap_or(0) + 1);
        let n = self.figures.iter().filter(|f| f.sheet == sheet).count() + 1;
        let party = self.party();
        let v = party - at;
        let facing = if v.length() > 1e-9 {
            crate::geometry::snap_bearing(v.x.atan2(v.y).to_degrees())
        } else {
            0.0
        };
        let name = format!("{} {n}", sheet.name());
        let mut bug = Figure::fresh(id, name.clone(), sheet, false, at, facing, &self.tables);
        // It activates from the next turn (reading R40).
        bug.activated = true;
        bug.hole = Some(hole);
        bug.emerged = Some(self.turn);
        self.figures.push(bug);
        self.hole_mut(hole).owes -= 1;
        ev.push(Event::BugEmerged {
            hole,
            figure: id,
            name,
            sheet,
            dice: d,
            at,
        });
        self.stack.push(Task::Emerge {
            hole,
            left: left - 1,
        });
        // Humans who see it take What Now checks (BUGS §12.3, reading R30).
        let checkers: Vec<FigureId> = self
            .figures
            .iter()
            .filter(|f| f.side == Side::Humans && f.on_table() && !f.running)
            .filter(|f| self.sees(f.id, id))
            .map(|f| f.id)
            .collect();
        self.what_now_checks(checkers, id);
    }
}

/// Whether a figure's square base contains a point (BUGS §13.5: the hole kills whoever stands on
/// it).
fn base_contains(f: &Figure, p: Point) -> bool {
    let v = p - f.at;
    let fwd = Point::from_bearing(f.facing);
    let right = fwd.right();
    v.dot(fwd).abs() <= 0.5 + 1e-9 && v.dot(right).abs() <= 0.5 + 1e-9
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
