//! BUGS! invariants as properties (BUGS.md §5–15): every legal action is accepted; a refusal
//! changes nothing; Stamina only falls; the dead never act; the state round-trips as JSON; a
//! record replays to the same encounter and events.

use std::collections::{BTreeMap, BTreeSet};

use dbcore::bugs::{Action, Encounter, Event, FigureId};
use dbcore::geometry::Point;
use dbcore::SeededDice;
use proptest::prelude::*;
use rand_core::RngCore;

use crate::bugs_support::*;

/// Actions that are wrong at most moments: a stranger's move, too long a move, the wrong dice.
fn junk(e: &Encounter, r: u32) -> Action {
    let ids: Vec<u32> = e.figures().iter().map(|f| f.id.0).collect();
    let id = ids[r as usize % ids.len()];
    match r % 6 {
        0 => stay(id),
        1 => move_to(id, &[(1.0, 1.0), (35.0, 35.0)]),
        2 => roll(&[2; 5]),
        3 => fire(id, &[id]),
        4 => Action::Charge {
            figure: FigureId(id),
            target: FigureId(ids[(r as usize / 7) % ids.len()]),
            to: Point::new(0.2, 0.2),
        },
        _ => Action::Join {
            leader: FigureId(id),
            joiners: vec![FigureId(id)],
        },
    }
}

/// The figures named as acting in an event.
fn actor(e: &Event) -> Option<FigureId> {
    match e {
        Event::Activated { figure, .. }
        | Event::Stayed { figure, .. }
        | Event::Fired { figure, .. }
        | Event::ChargeDeclared { figure, .. }
        | Event::Moved { figure, .. } => Some(*figure),
        Event::HitRolled { attacker, .. } => Some(*attacker),
        _ => None,
    }
}

fn random_game(k: u8, seed: u64, steps: usize) -> Result<(), TestCaseError> {
    let mut e = Encounter::new(demo(k)).unwrap();
    let mut dice = SeededDice::new(seed);
    let mut pick = SeededDice::new(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 1);
    let mut events = e.opening().to_vec();
    let mut dead: BTreeSet<FigureId> = BTreeSet::new();
    for step in 0..steps {
        if e.is_over() {
            break;
        }
        // A refusal changes nothing.
        let before = e.clone();
        let j = junk(&e, pick.next_u32());
        if e.apply(j).is_err() {
            prop_assert_eq!(&e, &before);
        } else {
            events = Encounter::replay(&e.record()).unwrap().1;
        }
        if e.is_over() {
            break;
        }
        let action = match e.awaiting() {
            Some(req) => Action::Roll {
                dice: (0..req.count).map(|_| dice.roll()).collect(),
            },
            None => {
                let legal = e.legal_actions();
                prop_assert!(
                    !legal.is_empty(),
                    "a choice with no legal action at step {}",
                    step
                );
                // Every legal action is accepted as it stands (checked on every fifth choice, to
                // keep the test quick).
                if step % 5 == 0 {
                    for a in &legal {
                        prop_assert!(e.check(a).is_ok(), "{:?} refused", a);
                    }
                }
                if pick.next_u32() % 3 == 0 {
                    e.suggest().unwrap()
                } else {
                    legal[pick.next_u32() as usize % legal.len()].clone()
                }
            }
        };
        let stamina: BTreeMap<FigureId, i32> = e.figures().iter().map(|f| (f.id, f.stam)).collect();
        let checked = e.check(&action).unwrap();
        let ev = e.apply(action).unwrap();
        prop_assert_eq!(&checked, &ev);
        // Stamina only falls.
        for f in e.figures() {
            if let Some(s) = stamina.get(&f.id) {
                prop_assert!(f.stam <= *s, "{} rose from {} to {}", f.id, s, f.stam);
            }
        }
        // The dead never act.
        for x in &ev {
            if let Some(a) = actor(x) {
                prop_assert!(!dead.contains(&a), "{} acts dead: {:?}", a, x);
            }
            if let Event::Killed { figure, .. } = x {
                dead.insert(*figure);
            }
        }
        events.extend(ev);
    }
    // The state is data: it round-trips as JSON.
    let back: Encounter = serde_json::from_value(serde_json::to_value(&e).unwrap()).unwrap();
    prop_assert_eq!(&back, &e);
    // The record replays to the same encounter and events.
    let (again, replayed) = Encounter::replay(&e.record()).unwrap();
    prop_assert_eq!(&again, &e);
    prop_assert_eq!(&replayed, &events);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]

    // BUGS.md §5–15: random play of each encounter keeps every invariant.
    #[test]
    fn random_play_keeps_the_invariants(k in 1u8..=3, seed in any::<u64>()) {
        random_game(k, seed, 400)?;
    }
}
