//! BUGS! bug holes and terrain (BUGS.md §13, BUGS §14; readings R38–R42).

use dbcore::bugs::{
    hole_chance, BoardType, BugsSetup, ChanceTerm, DeathCause, Direction, Encounter, EncounterKind,
    Event, FigureId, HoleState, Need, Roll, Sheet,
};
use dbcore::geometry::Point;

use crate::bugs_support::*;

fn until_roll(e: &mut Encounter, f: fn(&Roll) -> bool) -> Vec<Event> {
    until(e, move |n| matches!(n, Need::Dice(d) if f(&d.roll)))
}

fn is_chance(r: &Roll) -> bool {
    matches!(r, Roll::HoleChance { .. })
}

/// Three soldiers escorting two citizens across clear terrain: the booklet's worked example.
fn worked_example() -> BugsSetup {
    let mut s = open_table(vec![
        fig(1, Sheet::Soldier, 16.0, 4.0, 0.0),
        fig(2, Sheet::Soldier, 18.0, 4.0, 0.0),
        fig(3, Sheet::Soldier, 20.0, 4.0, 0.0),
        fig(4, Sheet::Citizen, 17.0, 2.0, 0.0),
        fig(5, Sheet::Citizen, 19.0, 2.0, 0.0),
    ]);
    s.encounter = EncounterKind::Escort {
        goal: dbcore::bugs::Edge::North,
    };
    s
}

// BUGS.md §13.10: the worked example, step by step: chance 9 − 3 + 1 = 7; a 4 opens a hole; 1 is
// in front; 2 × 6 = 12 in; 5 humans + 4 = 9 bugs; a type roll of 3 is a big un.
#[test]
fn the_worked_example() {
    let mut e = Encounter::new(worked_example()).unwrap();
    until_roll(&mut e, is_chance);
    assert_eq!(awaited(&e), Roll::HoleChance { chance: 7 });
    let ev = go(&mut e, roll(&[1, 3]));
    match &ev[0] {
        Event::HoleChance {
            terms,
            chance: 7,
            opens: true,
            ..
        } => assert_eq!(
            terms,
            &[
                ChanceTerm::Base { value: 9 },
                ChanceTerm::Board {
                    board: BoardType::Clear,
                    value: 1
                },
                ChanceTerm::Holes { count: 0, value: 0 },
                ChanceTerm::Soldiers {
                    count: 3,
                    value: -3
                },
            ]
        ),
        e => panic!("{e:?}"),
    }
    assert_eq!(
        awaited(&e),
        Roll::HoleDirection {
            hole: 1,
            after_tremors: false
        }
    );
    let ev = go(&mut e, roll(&[1]));
    assert!(matches!(
        ev[0],
        Event::HoleDirection {
            direction: Some(Direction::Front),
            ..
        }
    ));
    let want = e.awaiting().unwrap();
    assert_eq!(
        (want.count, want.notation()),
        (2, "2D6 multiplied".to_string())
    );
    let ev = go(&mut e, roll(&[2, 6]));
    // The party's centre is (18, 3.2); 12 in in front of it.
    assert!(
        matches!(ev[0], Event::HoleOpened { hole: 1, at, distance, .. } if distance == 12.0 && at.distance(Point::new(18.0, 15.2)) < 1e-3)
    );
    let ev = go(&mut e, roll(&[4]));
    assert!(matches!(
        ev[0],
        Event::BugsOwed {
            humans: 5,
            owes: 9,
            ..
        }
    ));
    let ev = go(&mut e, roll(&[1, 2]));
    assert!(matches!(
        &ev[0],
        Event::BugEmerged {
            sheet: Sheet::BigUn,
            ..
        }
    ));
    assert_eq!(e.holes()[0].owes, 8);
}

// BUGS.md §13.3 and reading R39: a 5 or 6 is tremors: the hole is located in the next turn,
// where a 5 or 6 is rolled again.
#[test]
fn tremors_put_the_hole_off_a_turn() {
    let mut e = Encounter::new(worked_example()).unwrap();
    until_roll(&mut e, is_chance);
    go(&mut e, roll(&[1, 1]));
    let ev = go(&mut e, roll(&[5]));
    assert!(matches!(
        ev[0],
        Event::HoleDirection {
            direction: None,
            ..
        }
    ));
    assert_eq!(e.holes()[0].state, HoleState::Tremors);
    // Turn 2's encounter step: no new roll while a hole is pending; the tremor hole is located.
    until_roll(&mut e, |r| {
        matches!(r, Roll::HoleDirection { .. } | Roll::HoleChance { .. })
    });
    assert_eq!(
        awaited(&e),
        Roll::HoleDirection {
            hole: 1,
            after_tremors: true
        }
    );
    go(&mut e, roll(&[6]));
    assert_eq!(
        awaited(&e),
        Roll::HoleDirection {
            hole: 1,
            after_tremors: true
        }
    );
    go(&mut e, roll(&[2]));
    let ev = go(&mut e, roll(&[1, 3]));
    // To the right of the party (east, the front being north), 3 in.
    assert!(
        matches!(ev[0], Event::HoleOpened { at, .. } if at.distance(Point::new(21.0, 3.2)) < 1e-3)
    );
}

// BUGS.md §13.5 and reading R39: anyone standing where the hole opens is killed; the bugs then
// owed count the humans left.
#[test]
fn a_hole_kills_whoever_stands_on_it() {
    let mut e = Encounter::new(open_table(vec![
        fig(1, Sheet::Soldier, 18.0, 2.0, 0.0),
        fig(2, Sheet::Citizen, 18.0, 26.0, 0.0),
    ]))
    .unwrap();
    until_roll(&mut e, is_chance);
    assert_eq!(awaited(&e), Roll::HoleChance { chance: 9 });
    go(&mut e, roll(&[1, 1]));
    go(&mut e, roll(&[1]));
    let ev = go(&mut e, roll(&[3, 4]));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Killed {
            figure: FigureId(2),
            cause: DeathCause::BugHole
        }
    )));
    let ev = go(&mut e, roll(&[2]));
    assert!(matches!(
        ev[0],
        Event::BugsOwed {
            humans: 1,
            owes: 3,
            ..
        }
    ));
}

// BUGS.md §13.6–13.8 and reading R40: one bug in the hole's first turn, 1D6 (no more than it
// owes) in each later one, each of a kind rolled on 2D6 (2, 3, 10, 11, 12 big uns).
#[test]
fn emergence_one_then_a_die_each_turn() {
    let mut e = Encounter::new(open_table(vec![fig(1, Sheet::Soldier, 18.0, 2.0, 0.0)])).unwrap();
    until_roll(&mut e, is_chance);
    go(&mut e, roll(&[1, 1]));
    go(&mut e, roll(&[1]));
    go(&mut e, roll(&[2, 5]));
    // 1 human + 2 = 3 bugs; the first comes out now.
    go(&mut e, roll(&[2]));
    let ev = go(&mut e, roll(&[3, 3]));
    assert!(matches!(
        &ev[0],
        Event::BugEmerged {
            sheet: Sheet::LittleUn,
            ..
        }
    ));
    until_roll(&mut e, |r| matches!(r, Roll::Release { .. }));
    let ev = go(&mut e, roll(&[6]));
    assert!(matches!(ev[0], Event::BugsReleased { die, count: 2, .. } if die.get() == 6));
    let ev = go(&mut e, roll(&[6, 6]));
    assert!(matches!(
        &ev[0],
        Event::BugEmerged {
            sheet: Sheet::BigUn,
            ..
        }
    ));
    until_roll(&mut e, |r| matches!(r, Roll::BugType { .. }));
    go(&mut e, roll(&[5, 5]));
    assert_eq!(e.holes()[0].owes, 0);
    let bugs: Vec<Sheet> = e.figures().iter().skip(1).map(|f| f.sheet).collect();
    assert_eq!(bugs, [Sheet::LittleUn, Sheet::BigUn, Sheet::BigUn]);
    // The new bugs come out next to the hole, not on each other.
    let at: Vec<Point> = e.figures().iter().skip(1).map(|f| f.at).collect();
    assert!(at[0].distance(at[1]) >= 0.999 && at[1].distance(at[2]) >= 0.999);
}

// Reading R39: a hole rolled off the table comes back along its line to the edge.
#[test]
fn a_hole_off_the_table_comes_back_to_the_edge() {
    let mut e = Encounter::new(open_table(vec![fig(1, Sheet::Soldier, 18.0, 30.0, 0.0)])).unwrap();
    until_roll(&mut e, is_chance);
    go(&mut e, roll(&[1, 1]));
    go(&mut e, roll(&[1]));
    let ev = go(&mut e, roll(&[6, 6]));
    assert!(
        matches!(ev[0], Event::HoleOpened { at, distance, .. } if distance == 36.0 && at == Point::new(18.0, 36.0))
    );
}

// Reading R38: no hole is rolled while bugs are on the table or a hole still owes bugs.
#[test]
fn no_new_hole_while_bugs_remain() {
    let mut e = Encounter::new(open_table(vec![
        fig(1, Sheet::Soldier, 18.0, 2.0, 0.0),
        fig(2, Sheet::LittleUn, 18.0, 30.0, 180.0),
    ]))
    .unwrap();
    let mut ev = go(&mut e, stay(1));
    ev.extend(until_active(&mut e, 1));
    assert!(ev.iter().any(|e| matches!(e, Event::TurnBegan { turn: 2 })));
    assert!(!ev.iter().any(|e| matches!(e, Event::HoleChance { .. })));
}

// BUGS.md §14 and reading R42: the board is rolled on 2D6 when the set-up leaves it open, and the
// areas laid out for that board come into play.
#[test]
fn terrain_by_dice() {
    let mut s = open_table(vec![fig(1, Sheet::Soldier, 18.0, 2.0, 0.0)]);
    s.board = None;
    let mut m = rect(dbcore::bugs::AreaKind::Mountain, 0.0, 10.0, 14.0, 30.0);
    m.only_on = Some(BoardType::Mountainous);
    s.areas.push(m);
    let e = Encounter::new(s).unwrap();
    assert_eq!(awaited(&e), Roll::Terrain);
    assert!(e.field().passable(Point::new(5.0, 20.0)));
    let mut high = e.clone();
    let ev = go(&mut high, roll(&[6, 6]));
    assert!(matches!(
        ev[0],
        Event::TerrainRolled {
            board: BoardType::Mountainous,
            ..
        }
    ));
    assert!(!high.field().passable(Point::new(5.0, 20.0)));
    let mut mid = e.clone();
    go(&mut mid, roll(&[3, 4]));
    assert_eq!(mid.board(), Some(BoardType::Clear));
    assert!(mid.field().passable(Point::new(5.0, 20.0)));
}

// BUGS.md §13.1: the terrain modifiers, +1 per hole on the table, −1 per soldier to at most −6.
#[test]
fn the_chance_of_a_hole() {
    let c = |b, h, s| hole_chance(b, h, s).0;
    assert_eq!(c(BoardType::JungleSwamp, 0, 0), 11);
    assert_eq!(c(BoardType::Clear, 0, 0), 10);
    assert_eq!(c(BoardType::Rocky, 0, 0), 8);
    assert_eq!(c(BoardType::Mountainous, 0, 0), 7);
    assert_eq!(c(BoardType::CitySettlement, 0, 0), 7);
    assert_eq!(c(BoardType::Clear, 2, 0), 12);
    assert_eq!(c(BoardType::Clear, 0, 6), 4);
    assert_eq!(c(BoardType::Clear, 0, 9), 4);
}
