//! Invariants of the bound under random play (DBA3.md §6–§8): a refusal changes nothing, check
//! agrees with apply, no two elements overlap after any legal move, replay is deterministic.

use crate::battle_common;

use battle_common::*;
use dbcore::battle::{
    setup::overlapping, Action, Battle, ContactWanted, DiceRequest, Flank, GroupStep, MoveOrder,
};
use dbcore::geometry::Pose;
use dbcore::DieScore;
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Choice {
    Pips(u8),
    Wild {
        pick: usize,
        x: f64,
        y: f64,
        facing: f64,
    },
    Resolve {
        da: u8,
        db: u8,
        pick: usize,
    },
    Forward {
        pick: usize,
        distance: f64,
        turn: f64,
        side: f64,
    },
    Group {
        distance: f64,
    },
    Wheel {
        degrees: f64,
        right: bool,
    },
    Contact {
        pick: usize,
        target: usize,
        kind: u8,
    },
    End,
}

fn choice() -> impl Strategy<Value = Choice> {
    prop_oneof![
        1 => (1u8..=6).prop_map(Choice::Pips),
        3 => (0usize..8, -1.0f64..4.5, -90.0f64..90.0, -1.0f64..1.0)
            .prop_map(|(pick, distance, turn, side)| Choice::Forward { pick, distance, turn, side }),
        1 => (-1.0f64..3.0).prop_map(|distance| Choice::Group { distance }),
        1 => (-60.0f64..60.0, any::<bool>()).prop_map(|(degrees, right)| Choice::Wheel { degrees, right }),
        3 => (0usize..8, 0usize..8, 0u8..6).prop_map(|(pick, target, kind)| Choice::Contact { pick, target, kind }),
        1 => Just(Choice::End),
        1 => (0usize..8, -1e7f64..1e7, -1e7f64..1e7, -1e5f64..1e5)
            .prop_map(|(pick, x, y, facing)| Choice::Wild { pick, x, y, facing }),
        3 => (1u8..=6, 1u8..=6, 0usize..8).prop_map(|(da, db, pick)| Choice::Resolve { da, db, pick }),
    ]
}

fn action(b: &Battle, c: &Choice) -> Action {
    let mine: Vec<_> = b
        .elements()
        .iter()
        .filter(|e| e.army == b.active_army())
        .collect();
    let theirs: Vec<_> = b
        .elements()
        .iter()
        .filter(|e| e.army != b.active_army())
        .collect();
    match *c {
        Choice::Pips(v) => Action::RollPips {
            die: DieScore::new(v).unwrap(),
        },
        Choice::End => Action::EndMovement,
        Choice::Wild { pick, x, y, facing } => {
            // Far off the table and turned any number of times: refused, never a panic.
            let e = mine[pick % mine.len()];
            Action::Move {
                order: MoveOrder::Element {
                    id: e.id,
                    path: vec![
                        Pose::new(x, y, facing),
                        Pose::new(e.pose.x, e.pose.y + 0.5, facing),
                    ],
                },
            }
        }
        Choice::Resolve { da, db, pick } => {
            let dice = [DieScore::new(da).unwrap(), DieScore::new(db).unwrap()];
            match b.awaiting() {
                Some(DiceRequest::Combat { pairs }) if !pairs.is_empty() => {
                    let (a, t) = pairs[pick % pairs.len()];
                    Action::Fight {
                        a,
                        b: t,
                        dice,
                        recoil_own_depth: Vec::new(),
                        c_in_c_bonus: Vec::new(),
                    }
                }
                Some(DiceRequest::Shot { shooters }) if !shooters.is_empty() => {
                    let shooter = shooters[pick % shooters.len()];
                    let army = b.element(shooter).unwrap().army;
                    let target = b
                        .elements()
                        .iter()
                        .filter(|e| e.army != army && e.in_play())
                        .map(|e| e.id)
                        .find(|t| {
                            b.check(&Action::Shoot {
                                shooter,
                                target: *t,
                                support: vec![],
                                dice,
                                recoil_own_depth: Vec::new(),
                                shoots_back: false,
                            })
                            .is_ok()
                        })
                        .unwrap_or(shooter);
                    Action::Shoot {
                        shooter,
                        target,
                        support: vec![],
                        dice,
                        recoil_own_depth: Vec::new(),
                        shoots_back: false,
                    }
                }
                _ => Action::EndMovement,
            }
        }
        Choice::Forward {
            pick,
            distance,
            turn,
            side,
        } => {
            let e = mine[pick % mine.len()];
            let f = e.pose.forward();
            let r = f.right();
            Action::Move {
                order: MoveOrder::Element {
                    id: e.id,
                    path: vec![Pose::new(
                        e.pose.x + f.x * distance + r.x * side,
                        e.pose.y + f.y * distance + r.y * side,
                        e.pose.facing + turn,
                    )],
                },
            }
        }
        Choice::Group { distance } => Action::Move {
            order: MoveOrder::Group {
                ids: mine.iter().take(3).map(|e| e.id).collect(),
                steps: vec![GroupStep::Advance { distance }],
            },
        },
        Choice::Wheel { degrees, right } => Action::Move {
            order: MoveOrder::Group {
                ids: mine.iter().take(3).map(|e| e.id).collect(),
                steps: vec![GroupStep::Wheel {
                    pivot: if right { Flank::Right } else { Flank::Left },
                    degrees,
                }],
            },
        },
        Choice::Contact { pick, target, kind } => Action::Move {
            order: MoveOrder::IntoContact {
                ids: vec![mine[pick % mine.len()].id],
                target: theirs[target % theirs.len()].id,
                contact: match kind {
                    0 => ContactWanted::Front,
                    1 => ContactWanted::Flank(Flank::Left),
                    2 => ContactWanted::Flank(Flank::Right),
                    3 => ContactWanted::Rear,
                    4 => ContactWanted::Overlap(Flank::Left),
                    _ => ContactWanted::Overlap(Flank::Right),
                },
            },
        },
    }
}

/// Armies 4 BW apart so that contact happens.
fn close_battle() -> Battle {
    let mut s = open_battle();
    for e in &mut s.armies[1].elements {
        e.pose.y -= 6.5;
    }
    Battle::new(s).unwrap()
}

fn no_overlaps(b: &Battle) -> Result<(), TestCaseError> {
    let cfg = &b.setup().config;
    let live: Vec<_> = b.elements().iter().filter(|e| e.in_play()).collect();
    for (i, x) in live.iter().enumerate() {
        for y in &live[i + 1..] {
            prop_assert!(
                !overlapping(&x.rect(cfg), &y.rect(cfg)),
                "{} and {} overlap: {:?} {:?}",
                x.id,
                y.id,
                x.pose,
                y.pose
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn random_play_keeps_every_invariant(
        start_close in any::<bool>(),
        choices in proptest::collection::vec(choice(), 1..40)
    ) {
        let mut b = if start_close { close_battle() } else { Battle::new(open_battle()).unwrap() };
        let mut events = Vec::new();
        for c in &choices {
            let a = action(&b, c);
            let checked = b.check(&a);
            let before = b.clone();
            match b.apply(a) {
                Ok(ev) => {
                    // check agrees with apply
                    prop_assert_eq!(Ok(ev.clone()), checked);
                    events.extend(ev);
                    no_overlaps(&b)?;
                    prop_assert!(b.pips() <= 6);
                    let total: usize = b.counts().iter().map(|(a, l)| a + l).sum();
                    prop_assert_eq!(total, b.elements().len());
                }
                Err(e) => {
                    // a refusal leaves the battle exactly as it was
                    prop_assert_eq!(Err(e), checked);
                    prop_assert_eq!(&b, &before);
                }
            }
        }
        let (replayed, replay_events) = Battle::replay(&b.record()).unwrap();
        prop_assert_eq!(replay_events, events);
        prop_assert_eq!(replayed, b.clone());
        let counts = b.counts();
        prop_assert_eq!(counts.iter().map(|(a, l)| a + l).sum::<usize>(), b.elements().len());
    }
}
