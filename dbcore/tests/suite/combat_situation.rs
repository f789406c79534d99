//! `Battle::combat_situation`: the close combat of a pair in contact, read from the state, is the
//! one a Fight of that pair resolves (#15: a combat derived from the table, situation + resolve).

use dbcore::battle::{Action, Battle, BattleError, DiceRequest, ElementId, Event, Phase};
use dbcore::battlefield::Variant;
use dbcore::combat::resolve;
use dbcore::driver::{big_battle_setup, demo_setup, play};
use dbcore::DieScore;

fn d(n: u8) -> DieScore {
    DieScore::new(n).expect("1 to 6")
}

/// Replays a driven battle; at every state awaiting combat dice, for every pending pair and a few
/// dice, the query plus `resolve` gives exactly the result the checked Fight reports. Returns how
/// many combats were compared.
fn compare_every_combat(setup: dbcore::battle::BattleSetup, seed: u64, bounds: u32) -> usize {
    let driven = play(setup, seed, bounds).expect("a valid set-up");
    let record = driven.record;
    let mut b = Battle::new(record.setup.clone()).expect("valid");
    let mut compared = 0;
    for a in &record.actions {
        if b.phase() == Phase::CloseCombat {
            if let Some(DiceRequest::Combat { pairs }) = b.awaiting() {
                for &(x, y) in &pairs {
                    for dice in [[d(4), d(3)], [d(1), d(6)], [d(5), d(5)]] {
                        let fight = Action::Fight {
                            a: x,
                            b: y,
                            dice,
                            recoil_own_depth: Vec::new(),
                            c_in_c_bonus: Vec::new(),
                        };
                        let events = b.check(&fight).expect("a pending pair fights");
                        let fought = events
                            .iter()
                            .find_map(|e| match e {
                                Event::Fought { result, .. } => Some(result.as_ref().clone()),
                                _ => None,
                            })
                            .expect("a Fight reports its result");
                        let situation = b.combat_situation(x, y).expect("a pending pair");
                        let r = resolve(&situation, dice, &b.setup().config).expect("legal");
                        let what = format!("combat {x:?} against {y:?}, dice {dice:?}");
                        assert_eq!((&r.a, &r.b), (&fought.a, &fought.b), "{what}");
                        // §12.5: `resolve` says who follows up by the rules; the Fight reports
                        // no pursuit when the table stopped it (an edge or bad going ahead).
                        assert!(
                            fought.pursuit.is_none() || fought.pursuit == r.pursuit,
                            "{what}"
                        );
                        compared += 1;
                    }
                }
            }
        }
        b.apply(a.clone()).expect("the record replays");
    }
    compared
}

#[test]
fn the_situation_of_a_pending_pair_resolves_as_its_fight() {
    // DBA3.md §10.2: each pair in close combat this bound fights once, with the factors of §10.3
    // read from the table as the Fight reads them.
    let mut compared = 0;
    for seed in 1..=3 {
        compared += compare_every_combat(demo_setup(), seed, 40);
    }
    assert!(compared > 0, "the driven battles fought no close combat");
}

#[test]
fn big_battle_situations_count_demoralisation_as_the_fight_does() {
    // DBA3.md §14.5: a demoralised command's elements fight at −2; the query counts it as the
    // Fight does.
    let compared = compare_every_combat(big_battle_setup(Variant::BigBattle), 1, 200);
    assert!(compared > 0, "the driven Big Battle fought no close combat");
}

#[test]
fn elements_not_in_contact_have_no_situation() {
    // DBA3.md §10.2: only elements in close combat this bound fight.
    let b = Battle::new(demo_setup()).expect("valid");
    let ids: Vec<ElementId> = b.elements().iter().map(|e| e.id).collect();
    let (x, y) = (ids[0], ids[ids.len() - 1]);
    assert_eq!(
        b.combat_situation(x, y),
        Err(BattleError::NotInCombat { a: x, b: y })
    );
}
