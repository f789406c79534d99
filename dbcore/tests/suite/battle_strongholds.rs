//! DBA3.md §4.2, §4.6, §4.7, §6.3, §12.5, §13.2, §17.30–17.32, §17.44: the fight for cities and
//! camps in the battle: capture, sacking, denizens, camp followers and their losses.

use crate::battle_common;

use battle_common::*;
use dbcore::battle::state::{camp_followers_id, denizens_id, Denizens, RESERVED_IDS};
use dbcore::battle::{
    shooters, shot_situation, Action, Battle, BattleError, BattleSetup, DiceRequest, ElementId,
    EngagementError, Event, MoveOrder, Phase, SetupProblem,
};
use dbcore::battlefield::{Battlefield, Board};
use dbcore::geometry::{Point, Pose};
use dbcore::terrain::{AreaFeature, AreaKind, TerrainFeature};
use dbcore::ErrorInfo;

/// A City from (6, 6) to (8, 8): feature 0.
fn city_field() -> Battlefield {
    let mut bf = Battlefield::new(Board::default());
    bf.features
        .push(TerrainFeature::Area(AreaFeature::rectangle(
            AreaKind::City,
            Point::new(6.0, 6.0),
            Point::new(8.0, 8.0),
        )));
    bf
}

/// Blades (1) of the south army with their front edge on the City's south wall; the generals far
/// off. `garrison`: a Psiloi (101) of the north army inside the City; otherwise the City belongs to
/// the north army and its denizens defend it.
fn city_battle(garrison: bool, north_camp: bool) -> Battle {
    let mut north = vec![general(el(102, "Cv", 12.0, 13.0, 180.0))];
    if garrison {
        north.push(el(101, "Ps", 7.0, 7.25, 180.0));
    }
    let mut armies = armies(
        vec![
            el(1, "4Bd", 7.0, 6.0, 0.0),
            general(el(2, "Cv", 2.0, 1.0, 0.0)),
        ],
        north,
    );
    if north_camp {
        armies[1].camp = Some(rect(1.0, 13.5, 3.0, 14.5));
    }
    let mut s = sandbox(city_field(), armies);
    s.city_owner = Some(1);
    let mut b = Battle::new(s).unwrap();
    b.apply(Action::RollPips { die: d(3) }).unwrap();
    b
}

fn fight(b: &mut Battle, a: ElementId, o: ElementId, dice: [u8; 2]) -> Vec<Event> {
    b.apply(Action::Fight {
        a,
        b: o,
        dice: [d(dice[0]), d(dice[1])],
        recoil_own_depth: Vec::new(),
        c_in_c_bonus: Vec::new(),
    })
    .unwrap()
}

/// Play on to the start of the next bound's movement with the given PIP die.
fn next_bound(b: &mut Battle, pips: u8) -> Vec<Event> {
    if b.phase() == Phase::Movement {
        b.apply(Action::EndMovement).unwrap();
    }
    assert_eq!(b.phase(), Phase::AwaitingPips, "{:?}", b.awaiting());
    b.apply(Action::RollPips { die: d(pips) }).unwrap()
}

#[test]
fn s4_2_s12_5_destroying_the_garrison_captures_the_city_and_the_winner_sacks_it() {
    // DBA3.md §4.2, §4.7, §12.5: Blades +5 (vs foot) + 6 = 11 against a Psiloi garrison +2 +4
    // (garrison) + 1 = 7: a beaten defender is destroyed, and the Blades move ½ BW into the City
    // and sack it.
    let mut b = city_battle(true, false);
    b.apply(Action::EndMovement).unwrap();
    let ev = fight(&mut b, ElementId(1), ElementId(101), [6, 1]);
    assert!(ev.contains(&Event::CityCaptured {
        city: 0,
        by: 0,
        sacker: Some(ElementId(1))
    }));
    assert!(ev.contains(&Event::DenizensDestroyed { city: 0 }));
    let c = &b.cities()[0];
    assert_eq!((c.owner, c.controller), (Some(1), Some(0)));
    assert_eq!(c.sacker, Some(ElementId(1)));
    // §4.2: the garrison destroyed, the denizens do not defend the City again.
    assert_eq!(c.denizens, Denizens::Destroyed);
    assert!((b.element(ElementId(1)).unwrap().pose.y - 6.5).abs() < 1e-6);
}

#[test]
fn s13_2_a_city_held_by_the_enemy_counts_two_without_a_camp_and_one_with_one() {
    // DBA3.md §13.2, §17.31: the City occupied by the enemy at the end of a bound counts +2 for
    // an army that used it instead of a camp, +1 for one that also had a camp.
    for (camp, count) in [(false, 2), (true, 1)] {
        let mut b = city_battle(true, camp);
        assert_eq!(b.city_held(1), 0);
        b.apply(Action::EndMovement).unwrap();
        let ev = fight(&mut b, ElementId(1), ElementId(101), [6, 1]);
        assert!(ev.iter().any(|e| matches!(e, Event::BoundEnded { .. })));
        assert_eq!(b.city_held(1), count, "camp: {camp}");
        assert_eq!(b.city_held(0), 0);
    }
}

#[test]
fn s4_2_s17_32_a_sacker_cannot_move_until_its_side_scores_5_or_6() {
    // DBA3.md §4.2, §6.3, §17.32: while sacking it cannot move; a PIP score of 5 or 6 at the start
    // of one of its side's bounds ends the sacking.
    let mut b = city_battle(true, false);
    b.apply(Action::EndMovement).unwrap();
    fight(&mut b, ElementId(1), ElementId(101), [6, 1]);
    next_bound(&mut b, 3); // the north army's bound
    let ev = next_bound(&mut b, 4);
    assert!(!ev.iter().any(|e| matches!(e, Event::SackingEnded { .. })));
    let order = MoveOrder::Element {
        id: ElementId(1),
        path: vec![Pose::new(7.0, 7.0, 0.0)],
    };
    let e = b
        .check(&Action::Move {
            order: order.clone(),
        })
        .unwrap_err();
    assert_eq!(e, BattleError::Sacking { id: ElementId(1) });
    assert_eq!(e.rule(), Some("§4.2"));
    next_bound(&mut b, 6); // the north army's die does not end the south army's sacking
    assert!(b.sacking(ElementId(1)).is_some());
    let ev = next_bound(&mut b, 5);
    assert!(ev.contains(&Event::SackingEnded {
        city: 0,
        id: ElementId(1)
    }));
    assert!(b.sacking(ElementId(1)).is_none());
    assert!(!matches!(
        b.check(&Action::Move { order }),
        Err(BattleError::Sacking { .. })
    ));
}

#[test]
fn s4_2_a_sacker_neither_shoots_nor_is_shot_at() {
    // DBA3.md §4.2: while sacking it cannot shoot or be shot at. Bows (201) of the north army
    // 2 BW north of the City face it; the sacker is a Bow element here.
    let mut b = city_battle(true, false);
    b.apply(Action::EndMovement).unwrap();
    fight(&mut b, ElementId(1), ElementId(101), [6, 1]);
    let mut els = b.elements().to_vec();
    let mut bow = els.iter().find(|e| e.id == ElementId(102)).unwrap().clone();
    bow.id = ElementId(201);
    bow.general = false;
    bow.kind = "4Bw".parse().unwrap();
    bow.pose = Pose::new(7.0, 8.5, 180.0);
    els.push(bow);
    let held = b.held_strongholds();
    assert_eq!(held[0].sacker, Some(ElementId(1)));
    let mut ctx = b.move_context(&held);
    ctx.elements = &els;
    assert_eq!(
        shot_situation(&ctx, ElementId(201), ElementId(1), &[], false).unwrap_err(),
        EngagementError::Sacking { id: ElementId(1) }
    );
    // The sacker as a shooter: make it Bows too.
    let mut els2 = els.clone();
    let i = els2.iter().position(|e| e.id == ElementId(1)).unwrap();
    els2[i].kind = "4Bw".parse().unwrap();
    ctx.elements = &els2;
    let none = |_: ElementId| false;
    let moved = |_: ElementId| 0.0;
    assert!(!shooters(&ctx, &moved, 0, &none).contains(&ElementId(1)));
    assert_eq!(
        shot_situation(&ctx, ElementId(1), ElementId(201), &[], false).unwrap_err(),
        EngagementError::Sacking { id: ElementId(1) }
    );
}

#[test]
fn s4_2_s17_30_denizens_defend_a_city_without_a_garrison() {
    // DBA3.md §4.2, §4.7: with no garrison, the denizens (+2 in their City) fight each assaulter
    // under their reserved id. Blades 5 + 1 = 6 against denizens +2 +2 + 6 = 10: a beaten
    // assaulter recoils, and the City holds.
    let mut b = city_battle(false, false);
    let dz = denizens_id(0);
    assert!(dz.0 >= RESERVED_IDS);
    assert_eq!(b.held_strongholds()[0].civilians, Some(dz));
    b.apply(Action::EndMovement).unwrap();
    assert_eq!(
        b.awaiting(),
        Some(DiceRequest::Combat {
            pairs: vec![(ElementId(1), dz)]
        })
    );
    let ev = fight(&mut b, ElementId(1), dz, [1, 6]);
    match &ev[0] {
        Event::Fought { result, .. } => {
            assert_eq!(result.b.total, 10);
            assert_eq!(result.a.outcome, dbcore::Outcome::Recoil);
        }
        other => panic!("{other:?}"),
    }
    assert!(b.element(ElementId(1)).unwrap().pose.y < 6.0);
    let c = &b.cities()[0];
    assert_eq!((c.controller, c.denizens), (Some(1), Denizens::Loyal));
}

#[test]
fn s4_2_destroyed_denizens_let_one_assaulter_enter_and_sack() {
    // DBA3.md §4.2, §11.2 row 1, §12.5: Blades 5 + 6 = 11 beat denizens 4 + 1 = 5: defenders beaten
    // are destroyed; the Blades move in and sack the City, which counts +2 for its owner.
    let mut b = city_battle(false, false);
    b.apply(Action::EndMovement).unwrap();
    let ev = fight(&mut b, ElementId(1), denizens_id(0), [6, 1]);
    assert!(ev.contains(&Event::DenizensDestroyed { city: 0 }));
    assert!(ev.contains(&Event::CityCaptured {
        city: 0,
        by: 0,
        sacker: Some(ElementId(1))
    }));
    assert_eq!(b.cities()[0].denizens, Denizens::Destroyed);
    assert_eq!(b.city_held(1), 2);
    // §13.2: denizens are no element of the army and no loss.
    assert_eq!(b.counts()[1], (1, 0));
}

/// South Blades (1) with their front edge on the north army's camp (x 6..8, y 13..14), and Light
/// Horse (3) 1 BW short of it.
fn camp_battle(followers: bool) -> Battle {
    let mut a = armies(
        vec![
            el(1, "4Bd", 6.5, 13.0, 0.0),
            general(el(2, "Cv", 2.0, 1.0, 0.0)),
            el(3, "LH", 7.5, 12.0, 0.0),
        ],
        vec![general(el(102, "Cv", 2.0, 10.0, 180.0))],
    );
    a[1].camp = Some(rect(6.0, 13.0, 8.0, 14.0));
    a[1].camp_followers = followers;
    let mut b = Battle::new(sandbox(Battlefield::new(Board::default()), a)).unwrap();
    b.apply(Action::RollPips { die: d(3) }).unwrap();
    b
}

#[test]
fn s4_6_s4_7_camp_followers_defend_the_camp_and_its_capture_sacks_it() {
    // DBA3.md §4.6, §4.7, §13.2: fixed camp followers fight the assaulter (+2 in their camp);
    // destroyed, the winner moves in and the camp is sacked (+1 loss).
    let mut b = camp_battle(true);
    let cf = camp_followers_id(1);
    b.apply(Action::EndMovement).unwrap();
    assert_eq!(
        b.awaiting(),
        Some(DiceRequest::Combat {
            pairs: vec![(ElementId(1), cf)]
        })
    );
    let ev = fight(&mut b, ElementId(1), cf, [6, 1]);
    assert!(ev.contains(&Event::CampFollowersDestroyed {
        army: 1,
        command: None
    }));
    assert!(ev.contains(&Event::CampSacked {
        army: 1,
        command: None
    }));
    assert!(!b.camp_followers_defend(1));
}

#[test]
fn s17_44_an_undefended_camp_entered_by_the_enemy_is_sacked() {
    // DBA3.md §4.6, §17.44: a camp with no element and no camp followers is undefended; an enemy
    // element entering it sacks it.
    let mut b = camp_battle(false);
    assert!(b.held_strongholds().is_empty());
    let ev = b
        .apply(Action::Move {
            order: MoveOrder::Element {
                id: ElementId(3),
                path: vec![Pose::new(7.5, 13.9, 0.0)],
            },
        })
        .unwrap();
    assert!(
        ev.contains(&Event::CampSacked {
            army: 1,
            command: None
        }),
        "{ev:?}"
    );
}

#[test]
fn setup_refuses_ids_reserved_for_civilians() {
    // DBA3.md §4.2, §4.6: the ids of denizens and camp followers are not for elements.
    let mut s: BattleSetup = open_battle();
    s.armies[0].elements[1].id = ElementId(RESERVED_IDS);
    let e = Battle::new(s.clone()).unwrap_err();
    assert!(e
        .problems
        .iter()
        .any(|p| matches!(p, SetupProblem::ReservedId { .. })));
    s.armies[0].elements[1].id = ElementId(7);
    s.city_owner = Some(2);
    let e = Battle::new(s).unwrap_err();
    assert_eq!(
        e.problems,
        vec![SetupProblem::NoSuchCityOwner { owner: 2, count: 2 }]
    );
    assert_eq!(e.rule(), Some("§4.2"));
}

#[test]
fn s4_2_denizens_destroyed_by_artillery_shooting_surrender_the_city() {
    // DBA3.md §4.2, §9.6, §11.3: Artillery 2 BW from the City's wall shoots at its denizens:
    // Artillery +4 + 6 = 10 against denizens +2 +2 + 1 = 5. Defenders beaten are destroyed; the
    // City surrenders to the shooter's army instead of being sacked, and its puppet denizens now
    // defend it for that army while nobody occupies it.
    let mut s = sandbox(
        city_field(),
        armies(
            vec![
                el(1, "Art", 7.0, 4.0, 0.0),
                general(el(2, "Cv", 2.0, 1.0, 0.0)),
            ],
            vec![general(el(102, "Cv", 12.0, 13.0, 180.0))],
        ),
    );
    s.city_owner = Some(1);
    let mut b = Battle::new(s).unwrap();
    b.apply(Action::RollPips { die: d(3) }).unwrap();
    b.apply(Action::EndMovement).unwrap();
    let dz = denizens_id(0);
    assert_eq!(
        b.awaiting(),
        Some(DiceRequest::Shot {
            shooters: vec![ElementId(1)]
        })
    );
    let ev = b
        .apply(Action::Shoot {
            shooter: ElementId(1),
            target: dz,
            support: vec![],
            dice: [d(6), d(1)],
            recoil_own_depth: Vec::new(),
            shoots_back: false,
        })
        .unwrap();
    assert!(ev.contains(&Event::CitySurrendered { city: 0, to: 0 }));
    assert!(!ev.iter().any(|e| matches!(
        e,
        Event::CityCaptured { .. } | Event::DenizensDestroyed { .. }
    )));
    let c = &b.cities()[0];
    assert_eq!(
        (c.controller, c.denizens, c.sacker),
        (Some(0), Denizens::Surrendered, None)
    );
    let held = b.held_strongholds();
    assert_eq!((held[0].army, held[0].civilians), (0, Some(dz)));
    // §17.31: surrendered but not occupied by the enemy: not yet held against its owner.
    assert_eq!(b.city_held(1), 0);
}

#[test]
fn s4_2_only_artillery_shoots_at_denizens() {
    // DBA3.md §4.2 (reading): Bows in range of the City wall have no target in its denizens.
    let mut s = sandbox(
        city_field(),
        armies(
            vec![
                el(1, "4Bw", 7.0, 5.0, 0.0),
                general(el(2, "Cv", 2.0, 1.0, 0.0)),
            ],
            vec![general(el(102, "Cv", 12.0, 13.0, 180.0))],
        ),
    );
    s.city_owner = Some(1);
    let mut b = Battle::new(s).unwrap();
    b.apply(Action::RollPips { die: d(3) }).unwrap();
    let ev = b.apply(Action::EndMovement).unwrap();
    assert!(!ev.contains(&Event::PhaseStarted {
        phase: Phase::Shooting
    }));
}

#[test]
fn s13_2_the_city_held_decides_the_battle() {
    // DBA3.md §13.2: the north army loses its garrison and two Psiloi caught by Knights in good
    // going (§11.3): 3 elements, plus 2 for its City held by the enemy (it has no camp) = 5,
    // at least 4 and more than the south army's 0, so it loses at the end of the bound.
    let mut s = sandbox(
        city_field(),
        armies(
            vec![
                el(1, "4Bd", 7.0, 6.0, 0.0),
                general(el(2, "Cv", 12.0, 1.0, 0.0)),
                el(3, "3Kn", 2.0, 9.0, 0.0),
                el(4, "3Kn", 4.0, 9.0, 0.0),
            ],
            vec![
                general(el(102, "Cv", 12.0, 13.0, 180.0)),
                el(101, "Ps", 7.0, 7.25, 180.0),
                el(110, "Ps", 2.0, 9.0, 180.0),
                el(111, "Ps", 4.0, 9.0, 180.0),
            ],
        ),
    );
    s.city_owner = Some(1);
    let mut b = Battle::new(s).unwrap();
    b.apply(Action::RollPips { die: d(3) }).unwrap();
    b.apply(Action::EndMovement).unwrap();
    fight(&mut b, ElementId(3), ElementId(110), [6, 1]);
    fight(&mut b, ElementId(4), ElementId(111), [6, 1]);
    let ev = fight(&mut b, ElementId(1), ElementId(101), [6, 1]);
    let won = ev.iter().find_map(|e| match e {
        Event::BattleWon { verdict } => Some(verdict.clone()),
        _ => None,
    });
    let v = won.expect("the north army has lost");
    assert_eq!(v.totals, vec![0, 5]);
    assert_eq!(v.winner, Some(0));
}

#[test]
fn s4_2_an_element_entering_an_undefended_city_occupies_it() {
    // DBA3.md §4.2, §17.31: a City nobody garrisons and no denizens defend may be entered
    // without combat; the army entering it controls it.
    let mut b = Battle::new(sandbox(
        city_field(),
        armies(
            vec![
                el(1, "4Bd", 7.0, 5.0, 0.0),
                general(el(2, "Cv", 2.0, 1.0, 0.0)),
            ],
            vec![general(el(102, "Cv", 12.0, 13.0, 180.0))],
        ),
    ))
    .unwrap();
    assert!(b.held_strongholds().is_empty());
    b.apply(Action::RollPips { die: d(3) }).unwrap();
    let ev = b
        .apply(Action::Move {
            order: MoveOrder::Element {
                id: ElementId(1),
                path: vec![Pose::new(7.0, 7.0, 0.0)],
            },
        })
        .unwrap();
    assert!(ev.contains(&Event::CityCaptured {
        city: 0,
        by: 0,
        sacker: None
    }));
    assert_eq!(b.cities()[0].controller, Some(0));
    assert_eq!(b.held_strongholds()[0].army, 0);
}

#[test]
fn s4_7_the_denizens_fight_each_assaulter_in_turn() {
    // DBA3.md §4.7: up to 3 assaulters fight the defenders one after another; the defenders count
    // −1 for each other assaulter still in contact. Two Blades on the south wall: the first fights
    // denizens +2 +2 −1 = +3; beaten, it recoils; the second then fights them at +4.
    let mut s = sandbox(
        city_field(),
        armies(
            vec![
                el(1, "4Bd", 6.5, 6.0, 0.0),
                el(3, "4Bd", 7.5, 6.0, 0.0),
                general(el(2, "Cv", 2.0, 1.0, 0.0)),
            ],
            vec![general(el(102, "Cv", 12.0, 13.0, 180.0))],
        ),
    );
    s.city_owner = Some(1);
    let mut b = Battle::new(s).unwrap();
    b.apply(Action::RollPips { die: d(3) }).unwrap();
    b.apply(Action::EndMovement).unwrap();
    let dz = denizens_id(0);
    assert_eq!(
        b.awaiting(),
        Some(DiceRequest::Combat {
            pairs: vec![(ElementId(1), dz), (ElementId(3), dz)]
        })
    );
    let total = |ev: &[Event]| match &ev[0] {
        Event::Fought { result, .. } => result.b.total,
        other => panic!("{other:?}"),
    };
    let ev = fight(&mut b, ElementId(1), dz, [1, 6]);
    assert_eq!(total(&ev), 9);
    assert_eq!(
        b.awaiting(),
        Some(DiceRequest::Combat {
            pairs: vec![(ElementId(3), dz)]
        })
    );
    let ev = fight(&mut b, ElementId(3), dz, [1, 6]);
    assert_eq!(total(&ev), 10);
    assert!(ev.iter().any(|e| matches!(e, Event::BoundEnded { .. })));
}

#[test]
fn s4_2_s17_36_elephants_may_not_occupy_an_undefended_city() {
    // DBA3.md §4.2, §17.36: any troop element except El, SCh and WWg may enter an undefended City.
    let mut b = Battle::new(sandbox(
        city_field(),
        armies(
            vec![
                el(1, "El", 7.0, 5.0, 0.0),
                general(el(2, "Cv", 2.0, 1.0, 0.0)),
            ],
            vec![general(el(102, "Cv", 12.0, 13.0, 180.0))],
        ),
    ))
    .unwrap();
    b.apply(Action::RollPips { die: d(3) }).unwrap();
    let e = b
        .check(&Action::Move {
            order: MoveOrder::Element {
                id: ElementId(1),
                path: vec![Pose::new(7.0, 7.5, 0.0)],
            },
        })
        .unwrap_err();
    assert!(matches!(e, BattleError::MayNotOccupy { .. }), "{e}");
    assert_eq!(e.rule(), Some("§4.2"));
}

#[test]
fn s4_2_when_the_garrison_leaves_the_denizens_defend_again() {
    // DBA3.md §4.2: if the garrison leaves, the denizens defend the City again.
    let mut s = sandbox(
        city_field(),
        armies(
            vec![general(el(2, "Cv", 2.0, 1.0, 0.0))],
            vec![
                general(el(102, "Cv", 12.0, 13.0, 180.0)),
                el(101, "Sp", 7.0, 7.5, 0.0),
            ],
        ),
    );
    s.first = 1;
    let mut b = Battle::new(s).unwrap();
    assert_eq!(b.cities()[0].owner, Some(1));
    let held = b.held_strongholds();
    assert_eq!((held[0].army, held[0].civilians), (1, None));
    b.apply(Action::RollPips { die: d(3) }).unwrap();
    b.apply(Action::Move {
        order: MoveOrder::Element {
            id: ElementId(101),
            path: vec![Pose::new(7.0, 9.0, 0.0)],
        },
    })
    .unwrap();
    let held = b.held_strongholds();
    assert_eq!((held[0].army, held[0].civilians), (1, Some(denizens_id(0))));
}

#[test]
fn a_city_battle_replays_and_round_trips() {
    // Replaying the record of a capture gives the same events and state; the battle's state,
    // cities included, survives serde.
    let mut b = city_battle(true, false);
    b.apply(Action::EndMovement).unwrap();
    fight(&mut b, ElementId(1), ElementId(101), [6, 1]);
    next_bound(&mut b, 3);
    next_bound(&mut b, 6);
    let (again, events) = Battle::replay(&b.record()).unwrap();
    assert_eq!(again, b);
    assert!(events.contains(&Event::SackingEnded {
        city: 0,
        id: ElementId(1)
    }));
    let json = serde_json::to_string(&b).unwrap();
    let back: Battle = serde_json::from_str(&json).unwrap();
    assert_eq!(back, b);
}

#[test]
fn s4_2_a_garrison_destroyed_by_shooting_leaves_no_denizens() {
    // DBA3.md §4.2: if the garrison is destroyed, the denizens do not defend the City. Artillery
    // +4 + 6 = 10 against a Psiloi garrison +2 +4 + 1 = 7: beaten defenders are destroyed.
    let mut s = sandbox(
        city_field(),
        armies(
            vec![
                el(1, "Art", 7.0, 4.0, 0.0),
                general(el(2, "Cv", 2.0, 1.0, 0.0)),
            ],
            vec![
                general(el(102, "Cv", 12.0, 13.0, 180.0)),
                el(101, "Ps", 7.0, 6.5, 180.0),
            ],
        ),
    );
    s.city_owner = Some(1);
    let mut b = Battle::new(s).unwrap();
    b.apply(Action::RollPips { die: d(3) }).unwrap();
    b.apply(Action::EndMovement).unwrap();
    assert_eq!(b.shot_targets(ElementId(1)), vec![ElementId(101)]);
    let ev = b
        .apply(Action::Shoot {
            shooter: ElementId(1),
            target: ElementId(101),
            support: vec![],
            dice: [d(6), d(1)],
            recoil_own_depth: Vec::new(),
            shoots_back: false,
        })
        .unwrap();
    assert!(ev.contains(&Event::DenizensDestroyed { city: 0 }), "{ev:?}");
    assert_eq!(b.cities()[0].controller, Some(1));
    assert!(b.held_strongholds().is_empty());
}

#[test]
fn s4_6_a_camp_holding_only_an_allied_element_is_undefended() {
    // DBA3.md §4.6: allied elements never defend the camp, so a camp holding only one (and no
    // camp followers) is undefended: it projects no threat zone and is held by nobody.
    use dbcore::battle::Battle;
    let mut setup = battle_common::open_battle();
    setup.armies[0].camp = Some(dbcore::geometry::Polygon::new(vec![
        dbcore::geometry::Point::new(11.0, 0.5),
        dbcore::geometry::Point::new(13.0, 0.5),
        dbcore::geometry::Point::new(13.0, 2.0),
        dbcore::geometry::Point::new(11.0, 2.0),
    ]));
    let mut ally = battle_common::el(7, "4Bd", 12.0, 1.5, 0.0);
    ally.contingent = Some(1);
    setup.armies[0].elements.push(ally);
    let b = Battle::new(setup.clone()).unwrap();
    assert!(
        b.held_strongholds().is_empty(),
        "{:?}",
        b.held_strongholds()
    );
    // The same element not allied holds it.
    setup.armies[0].elements.last_mut().unwrap().contingent = None;
    let b = Battle::new(setup).unwrap();
    assert_eq!(b.held_strongholds().len(), 1);
}
