//! DBA3.md §6.1 steps 3–5: shooting, close combat, outcome moves and victory in the bound.

use crate::battle_common;

use battle_common::*;
use dbcore::battle::{
    Action, Battle, BattleError, DiceRequest, ElementId, EngagementError, Event, Phase, Status,
};
use dbcore::battlefield::{Battlefield, Board};
use dbcore::{ErrorCode, ErrorInfo, Outcome};

fn start(s: dbcore::battle::BattleSetup) -> Battle {
    let mut b = Battle::new(s).unwrap();
    b.apply(Action::RollPips { die: d(3) }).unwrap();
    b
}

/// Bows 2 BW in front of enemy Cavalry; nobody in contact.
fn shooting_battle() -> Battle {
    start(sandbox(
        Battlefield::new(Board::default()),
        armies(
            vec![
                general(el(1, "Cv", 2.0, 1.0, 0.0)),
                el(2, "4Bw", 7.5, 5.0, 0.0),
            ],
            vec![
                general(el(101, "Cv", 7.5, 7.0, 180.0)),
                el(102, "Sp", 12.0, 12.0, 180.0),
            ],
        ),
    ))
}

#[test]
fn s9_1_after_movement_every_eligible_shooter_shoots() {
    // DBA3.md §6.1 step 3, §9.1: shooting follows movement; the battle names the shooters.
    let mut b = shooting_battle();
    let ev = b.apply(Action::EndMovement).unwrap();
    assert_eq!(
        ev,
        vec![Event::PhaseStarted {
            phase: Phase::Shooting
        }]
    );
    assert_eq!(
        b.awaiting(),
        Some(DiceRequest::Shot {
            shooters: vec![ElementId(2)]
        })
    );
}

#[test]
fn s9_6_a_shot_resolves_and_its_outcome_moves_follow() {
    // DBA3.md §9.6, §11.3: Bows +4 vs mounted against the Cavalry general +3 (vs foot) +1: 10
    // against 5 doubles them, and Cavalry doubled by Bows are destroyed.
    let mut b = shooting_battle();
    b.apply(Action::EndMovement).unwrap();
    let ev = b
        .apply(Action::Shoot {
            shooter: ElementId(2),
            target: ElementId(101),
            support: vec![],
            dice: [d(6), d(1)],
            recoil_own_depth: Vec::new(),
            shoots_back: false,
        })
        .unwrap();
    match &ev[0] {
        Event::Shot { result, .. } => {
            assert_eq!((result.a.total, result.b.total), (10, 5));
            assert_eq!(result.b.outcome, Outcome::Destroyed);
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(ev[1], Event::Outcome { .. }));
    assert!(matches!(
        b.element(ElementId(101)).unwrap().status,
        Status::Lost { .. }
    ));
    // Nobody else can shoot and nobody is in contact: the bound ends.
    assert!(ev.iter().any(|e| matches!(e, Event::BoundEnded { .. })));
    assert_eq!(b.active_army(), 1);
}

#[test]
fn s9_1_an_element_that_moved_more_than_1_bw_does_not_shoot() {
    // DBA3.md §9.1.
    let mut b = shooting_battle();
    let e = b.element(ElementId(2)).unwrap().pose;
    b.apply(Action::Move {
        order: dbcore::battle::MoveOrder::Element {
            id: ElementId(2),
            path: vec![dbcore::geometry::Pose::new(e.x - 1.5, e.y, 0.0)],
        },
    })
    .unwrap();
    let ev = b.apply(Action::EndMovement).unwrap();
    assert!(!ev.contains(&Event::PhaseStarted {
        phase: Phase::Shooting
    }));
}

#[test]
fn s9_1_only_eligible_shooters_at_their_targets() {
    // DBA3.md §9.1–9.3: Cavalry do not shoot; the Spears are out of range.
    let mut b = shooting_battle();
    b.apply(Action::EndMovement).unwrap();
    let before = b.clone();
    let e = b
        .apply(Action::Shoot {
            shooter: ElementId(1),
            target: ElementId(101),
            support: vec![],
            dice: [d(3), d(3)],
            recoil_own_depth: Vec::new(),
            shoots_back: false,
        })
        .unwrap_err();
    assert_eq!(e, BattleError::CannotShoot { id: ElementId(1) });
    let e = b
        .apply(Action::Shoot {
            shooter: ElementId(2),
            target: ElementId(102),
            support: vec![],
            dice: [d(3), d(3)],
            recoil_own_depth: Vec::new(),
            shoots_back: false,
        })
        .unwrap_err();
    // The Spears stand beyond the zone's side lines: §9.2 says why, not §9.3.
    assert!(
        matches!(
            e,
            BattleError::Engagement(EngagementError::OutOfReach { .. })
        ),
        "{e}"
    );
    assert_eq!(e.rule(), Some("§9.2"));
    assert_eq!(b, before);
    let e = b.apply(Action::RollPips { die: d(2) }).unwrap_err();
    assert_eq!(e.code(), ErrorCode::WrongPhase);
}

/// Blades in frontal contact with Warband, and Knights in contact with Psiloi.
fn combat_battle() -> Battle {
    start(sandbox(
        Battlefield::new(Board::default()),
        armies(
            vec![
                general(el(1, "3Kn", 3.0, 7.0, 0.0)),
                el(2, "4Bd", 9.0, 7.0, 0.0),
            ],
            vec![
                general(el(101, "Ps", 3.0, 7.0, 180.0)),
                el(102, "4Wb", 9.0, 7.0, 180.0),
            ],
        ),
    ))
}

#[test]
fn s10_2_after_movement_every_contact_is_fought_once() {
    // DBA3.md §6.1 step 4, §10.2.
    let mut b = combat_battle();
    let ev = b.apply(Action::EndMovement).unwrap();
    assert_eq!(
        ev,
        vec![Event::PhaseStarted {
            phase: Phase::CloseCombat
        }]
    );
    match b.awaiting() {
        Some(DiceRequest::Combat { pairs }) => assert_eq!(pairs.len(), 2),
        other => panic!("{other:?}"),
    }
    b.apply(Action::Fight {
        a: ElementId(2),
        b: ElementId(102),
        dice: [d(3), d(3)],
        recoil_own_depth: Vec::new(),
        c_in_c_bonus: Vec::new(),
    })
    .unwrap();
    let e = b
        .apply(Action::Fight {
            a: ElementId(2),
            b: ElementId(102),
            dice: [d(3), d(3)],
            recoil_own_depth: Vec::new(),
            c_in_c_bonus: Vec::new(),
        })
        .unwrap_err();
    assert_eq!(
        e,
        BattleError::NotInCombat {
            a: ElementId(2),
            b: ElementId(102)
        }
    );
}

#[test]
fn s12_5_the_winner_pursues_half_a_base_width() {
    // DBA3.md §11.2, §12.1, §12.5: Blades +5 beat Warband +3 (8 to 6): the Warband recoil their
    // depth (⅜ BW, less than ½ BW) and the Blades follow up ½ BW, meeting them again after ⅜ BW
    // and lining up there (the combat is fought next bound).
    let mut b = combat_battle();
    b.apply(Action::EndMovement).unwrap();
    let y0 = b.element(ElementId(2)).unwrap().pose.y;
    let ev = b
        .apply(Action::Fight {
            a: ElementId(2),
            b: ElementId(102),
            dice: [d(3), d(3)],
            recoil_own_depth: Vec::new(),
            c_in_c_bonus: Vec::new(),
        })
        .unwrap();
    match &ev[0] {
        Event::Fought { result, .. } => {
            assert_eq!(result.b.outcome, Outcome::Recoil);
            assert_eq!(result.pursuit.map(|p| p.distance), Some(0.5));
        }
        other => panic!("{other:?}"),
    }
    assert!((b.element(ElementId(2)).unwrap().pose.y - (y0 + 0.375)).abs() < 1e-6);
}

#[test]
fn s12_5_a_pursuer_is_remembered_until_the_bound_ends() {
    // DBA3.md §12.5: a pursuer's new contact is fought next bound, so the battle keeps who
    // pursued for the rest of this bound, also in its saved state, while another combat is still
    // to fight; the list is emptied when the bound ends.
    let mut b = combat_battle();
    b.apply(Action::EndMovement).unwrap();
    b.apply(Action::Fight {
        a: ElementId(2),
        b: ElementId(102),
        dice: [d(3), d(3)],
        recoil_own_depth: Vec::new(),
        c_in_c_bonus: Vec::new(),
    })
    .unwrap();
    assert_eq!(b.phase(), Phase::CloseCombat);
    assert_eq!(b.state_value()["pursued"], serde_json::json!([2]));
    let back = Battle::from_state_json(&b.state_json()).unwrap();
    assert_eq!(back.state_value()["pursued"], serde_json::json!([2]));
    b.apply(Action::Fight {
        a: ElementId(1),
        b: ElementId(101),
        dice: [d(3), d(3)],
        recoil_own_depth: Vec::new(),
        c_in_c_bonus: Vec::new(),
    })
    .unwrap();
    assert!(b.state_value().get("pursued").is_none());
}

#[test]
fn s13_2_an_army_that_loses_four_and_more_than_the_enemy_loses_the_battle() {
    // DBA3.md §13.2: four Psiloi caught by Knights in good going are destroyed (§11.2) and the
    // general among them counts one more: the battle is over and refuses further actions.
    let mut b = start(sandbox(
        Battlefield::new(Board::default()),
        armies(
            vec![
                general(el(1, "3Kn", 2.0, 7.0, 0.0)),
                el(2, "3Kn", 5.0, 7.0, 0.0),
                el(3, "3Kn", 8.0, 7.0, 0.0),
                el(4, "3Kn", 11.0, 7.0, 0.0),
            ],
            vec![
                general(el(101, "Ps", 2.0, 7.0, 180.0)),
                el(102, "Ps", 5.0, 7.0, 180.0),
                el(103, "Ps", 8.0, 7.0, 180.0),
                el(104, "Ps", 11.0, 7.0, 180.0),
            ],
        ),
    ));
    b.apply(Action::EndMovement).unwrap();
    let mut last = Vec::new();
    for (a, t) in [(1, 101), (2, 102), (3, 103), (4, 104)] {
        last = b
            .apply(Action::Fight {
                a: ElementId(a),
                b: ElementId(t),
                dice: [d(4), d(4)],
                recoil_own_depth: Vec::new(),
                c_in_c_bonus: Vec::new(),
            })
            .unwrap();
    }
    let won = last.iter().find_map(|e| match e {
        Event::BattleWon { verdict } => Some(verdict.clone()),
        _ => None,
    });
    let v = won.expect("the battle is won");
    assert_eq!(v.winner, Some(0));
    assert_eq!(v.totals, vec![0, 5]);
    assert_eq!(b.phase(), Phase::Finished { winner: Some(0) });
    let e = b.apply(Action::EndMovement).unwrap_err();
    assert_eq!(e, BattleError::Finished);
    assert_eq!(e.code(), ErrorCode::BattleOver);
    let (alive, lost): (usize, usize) = b
        .counts()
        .iter()
        .fold((0, 0), |(a, l), (x, y)| (a + x, l + y));
    assert_eq!(alive + lost, 8);
}

#[test]
fn driven_battles_end_replay_and_keep_every_element_accounted_for() {
    // DBA3.md §13: every driven battle ends (or reaches the bound limit), replays to the same
    // events, and alive + lost = deployed, with no two elements overlapping at the end.
    for seed in 0..6 {
        let d = dbcore::driver::play(dbcore::driver::demo_setup(), seed, 40).unwrap();
        assert!(d.verdict.is_some() || d.bounds > 40, "seed {seed}");
        let (b, events) = Battle::replay(&d.record).unwrap();
        assert_eq!(events, d.events, "seed {seed}");
        let deployed: usize = d.record.setup.armies.iter().map(|a| a.elements.len()).sum();
        let total: usize = b.counts().iter().map(|(a, l)| a + l).sum();
        assert_eq!(total, deployed);
        let cfg = &b.setup().config;
        let live: Vec<_> = b.elements().iter().filter(|e| e.in_play()).collect();
        for (i, x) in live.iter().enumerate() {
            for y in &live[i + 1..] {
                assert!(
                    !dbcore::battle::setup::overlapping(&x.rect(cfg), &y.rect(cfg)),
                    "seed {seed}: {} and {} overlap",
                    x.id,
                    y.id
                );
            }
        }
    }
}

#[test]
fn s9_1_artillery_answers_enemy_artillery_in_the_enemy_bound() {
    // DBA3.md §9.1: Artillery shoots only in its own bound, except back at enemy Artillery that
    // shot at it in the enemy's bound.
    let mut b = start(sandbox(
        Battlefield::new(Board::default()),
        armies(
            vec![
                general(el(1, "Cv", 1.0, 1.0, 0.0)),
                el(2, "Art", 7.5, 5.0, 0.0),
            ],
            vec![
                general(el(101, "Cv", 14.0, 14.0, 180.0)),
                el(102, "Art", 7.5, 9.0, 180.0),
            ],
        ),
    ));
    b.apply(Action::EndMovement).unwrap();
    // Only the moving army's Artillery may shoot first.
    assert_eq!(
        b.awaiting(),
        Some(DiceRequest::Shot {
            shooters: vec![ElementId(2)]
        })
    );
    let ev = b
        .apply(Action::Shoot {
            shooter: ElementId(2),
            target: ElementId(102),
            support: vec![],
            dice: [d(1), d(1)],
            recoil_own_depth: Vec::new(),
            shoots_back: false,
        })
        .unwrap();
    assert!(
        !ev.iter().any(|e| matches!(e, Event::BoundEnded { .. })),
        "{ev:#?}"
    );
    // Now the enemy Artillery answers, and only at the Artillery that shot at it.
    assert_eq!(
        b.awaiting(),
        Some(DiceRequest::Shot {
            shooters: vec![ElementId(102)]
        })
    );
    b.apply(Action::Shoot {
        shooter: ElementId(102),
        target: ElementId(2),
        support: vec![],
        dice: [d(1), d(1)],
        recoil_own_depth: Vec::new(),
        shoots_back: false,
    })
    .unwrap();
}

#[test]
fn s9_3_an_enemy_shooting_at_the_shooter_comes_before_free_choice() {
    // DBA3.md §9.3: after an enemy in its threat zone, an enemy shooting at it is the target.
    let mut b = start(sandbox(
        Battlefield::new(Board::default()),
        armies(
            vec![general(el(1, "4Bw", 7.5, 5.0, 0.0))],
            vec![
                general(el(101, "4Bw", 7.5, 7.5, 180.0)),
                el(102, "Cv", 9.0, 6.5, 180.0),
            ],
        ),
    ));
    b.apply(Action::EndMovement).unwrap();
    // The enemy Bows shoot first (the moving army may choose the order).
    b.apply(Action::Shoot {
        shooter: ElementId(101),
        target: ElementId(1),
        support: vec![],
        dice: [d(1), d(6)],
        recoil_own_depth: Vec::new(),
        shoots_back: false,
    })
    .unwrap();
    // Now the Bows must answer the Bows that shot at them, not the nearer Cavalry.
    let e = b
        .apply(Action::Shoot {
            shooter: ElementId(1),
            target: ElementId(102),
            support: vec![],
            dice: [d(3), d(3)],
            recoil_own_depth: Vec::new(),
            shoots_back: false,
        })
        .unwrap_err();
    assert_eq!(
        e,
        BattleError::NotATarget {
            shooter: ElementId(1),
            target: ElementId(102)
        }
    );
    b.apply(Action::Shoot {
        shooter: ElementId(1),
        target: ElementId(101),
        support: vec![],
        dice: [d(3), d(3)],
        recoil_own_depth: Vec::new(),
        shoots_back: false,
    })
    .unwrap();
}

#[test]
fn s12_5_elements_in_column_behind_a_pursuer_follow_it() {
    // DBA3.md §12.5: the winner "and all elements in column behind" it pursue. Pikes with Pikes
    // behind (+3 rear support, §10.3) beat Spears 7 to 6: the Spears recoil their depth and the
    // Pikes follow up, the rear rank with them.
    let mut b = start(sandbox(
        Battlefield::new(Board::default()),
        armies(
            vec![
                general(el(1, "Cv", 2.0, 1.0, 0.0)),
                el(2, "4Pk", 7.5, 7.0, 0.0),
                el(3, "4Pk", 7.5, 6.625, 0.0),
            ],
            vec![
                general(el(101, "Cv", 13.0, 14.0, 180.0)),
                el(102, "Sp", 7.5, 7.0, 180.0),
            ],
        ),
    ));
    b.apply(Action::EndMovement).unwrap();
    let lead0 = b.element(ElementId(2)).unwrap().pose.y;
    let rear0 = b.element(ElementId(3)).unwrap().pose.y;
    let ev = b
        .apply(Action::Fight {
            a: ElementId(2),
            b: ElementId(102),
            dice: [d(1), d(2)],
            recoil_own_depth: Vec::new(),
            c_in_c_bonus: Vec::new(),
        })
        .unwrap();
    match &ev[0] {
        Event::Fought { result, .. } => {
            assert_eq!((result.a.total, result.b.total), (7, 6));
            assert_eq!(result.b.outcome, Outcome::Recoil);
        }
        other => panic!("{other:?}"),
    }
    let lead = b.element(ElementId(2)).unwrap().pose.y - lead0;
    let rear = b.element(ElementId(3)).unwrap().pose.y - rear0;
    assert!(lead > 0.3, "the leader pursued: {lead}");
    assert!(
        (lead - rear).abs() < 1e-6,
        "the rear rank followed: {lead} {rear}"
    );
}

/// Cavalry 2 and enemy Cavalry 102 front to front at (7.5, 5).
fn cavalry_fight() -> Battle {
    let mut b = start(sandbox(
        Battlefield::new(Board::default()),
        armies(
            vec![
                general(el(1, "Cv", 2.0, 1.0, 0.0)),
                el(2, "Cv", 7.5, 5.0, 0.0),
            ],
            vec![
                general(el(101, "Cv", 12.0, 12.0, 180.0)),
                el(102, "Cv", 7.5, 5.0, 180.0),
            ],
        ),
    ));
    b.apply(Action::EndMovement).unwrap();
    b
}

#[test]
fn s12_1_mounted_recoil_1_bw_or_at_the_owners_choice_their_depth() {
    // DBA3.md §12.1, §17.40: Cavalry beaten by Cavalry (9 to 7) recoil 1 BW by default; their
    // owner may choose their own depth (¾ BW) instead, on the action that resolves the combat.
    let fight = |own: Vec<ElementId>| {
        let mut b = cavalry_fight();
        b.apply(Action::Fight {
            a: ElementId(2),
            b: ElementId(102),
            dice: [d(6), d(4)],
            recoil_own_depth: own,
            c_in_c_bonus: Vec::new(),
        })
        .unwrap();
        b.element(ElementId(102)).unwrap().pose.y
    };
    assert!((fight(Vec::new()) - 6.0).abs() < 1e-3, "default 1 BW");
    assert!(
        (fight(vec![ElementId(102)]) - 5.75).abs() < 1e-3,
        "its depth"
    );
    // Naming the winner (which does not recoil) changes nothing.
    assert!((fight(vec![ElementId(2)]) - 6.0).abs() < 1e-3);
    // Old records without the option still load, and the default is not written out.
    let json = r#"{"action":"fight","a":2,"b":102,"dice":[6,4]}"#;
    let a: Action = serde_json::from_str(json).unwrap();
    assert!(matches!(&a, Action::Fight { recoil_own_depth, .. } if recoil_own_depth.is_empty()));
    assert_eq!(serde_json::to_string(&a).unwrap(), json);
}

#[test]
fn s9_refused_shots_name_the_one_reason() {
    // DBA3.md §9.1, §9.2, §9.3, §9.5: a refused shot says exactly why, with that reason's
    // section: out of range (§9.1), outside the target zone (§9.2), sight blocked (§9.5), a target
    // of higher priority (§9.3), not an eligible shooter (§9.1).
    let mut b = start(sandbox(
        Battlefield::new(Board::default()),
        armies(
            vec![
                general(el(1, "4Bw", 7.5, 5.0, 0.0)),
                el(2, "Sp", 3.0, 6.0, 0.0),
                el(3, "4Bw", 3.0, 5.0, 0.0),
                el(4, "Cv", 12.0, 2.0, 0.0),
            ],
            vec![
                general(el(101, "Cv", 7.5, 9.5, 180.0)),
                el(102, "Sp", 12.5, 6.0, 180.0),
                el(103, "Cv", 3.0, 7.5, 180.0),
                el(104, "Cv", 6.9, 5.8, 180.0),
                el(105, "Cv", 8.6, 6.5, 180.0),
            ],
        ),
    ));
    b.apply(Action::EndMovement).unwrap();
    let before = b.clone();
    let shoot = |b: &mut Battle, shooter: u32, target: u32| {
        b.apply(Action::Shoot {
            shooter: ElementId(shooter),
            target: ElementId(target),
            support: vec![],
            dice: [d(3), d(3)],
            recoil_own_depth: Vec::new(),
            shoots_back: false,
        })
        .unwrap_err()
    };
    let e = shoot(&mut b, 1, 101);
    assert!(
        matches!(e, BattleError::Engagement(EngagementError::OutOfRange { range, .. }) if range == 3.0),
        "{e}"
    );
    assert_eq!(e.rule(), Some("§9.1"));
    let e = shoot(&mut b, 1, 102);
    assert!(
        matches!(
            e,
            BattleError::Engagement(EngagementError::OutOfReach { .. })
        ),
        "{e}"
    );
    assert_eq!(e.rule(), Some("§9.2"));
    let e = shoot(&mut b, 3, 103);
    assert!(
        matches!(
            e,
            BattleError::Engagement(EngagementError::LineOfSight { .. })
        ),
        "{e}"
    );
    assert_eq!(e.rule(), Some("§9.5"));
    let e = shoot(&mut b, 1, 105);
    assert_eq!(
        e,
        BattleError::NotATarget {
            shooter: ElementId(1),
            target: ElementId(105)
        }
    );
    assert_eq!(e.rule(), Some("§9.3"));
    let e = shoot(&mut b, 4, 101);
    assert_eq!(e, BattleError::CannotShoot { id: ElementId(4) });
    assert_eq!(e.rule(), Some("§9.1"));
    assert_eq!(b, before);
}

#[test]
fn s7_3_a_distance_refusal_names_its_section_in_rule_and_message() {
    // DBA3.md §7.3: a move longer than the element's allowance is refused under §7.3, and the
    // message leads with the section it cites.
    let mut b = shooting_battle();
    let before = b.clone();
    let e = b
        .apply(Action::Move {
            order: dbcore::battle::MoveOrder::Element {
                id: ElementId(2),
                path: vec![dbcore::geometry::Pose::new(7.5, 8.0, 0.0)],
            },
        })
        .unwrap_err();
    assert!(
        matches!(
            &e,
            BattleError::Move(dbcore::battle::MoveError::TooFar { .. })
        ),
        "{e}"
    );
    assert_eq!(e.rule(), Some("§7.3"));
    assert!(e.to_string().starts_with("§7.3"), "{e}");
    assert_eq!(b, before);
}

#[test]
fn s12_5_a_pursuit_not_made_is_not_reported() {
    // DBA3.md §12.5: Blades partly in a wood (bad going) beat Warband, who recoil; the Blades do
    // not follow up from bad going, so the combat's event reports no pursuit.
    let mut bf = Battlefield::new(Board::default());
    bf.features.push(dbcore::terrain::TerrainFeature::Area(
        dbcore::terrain::AreaFeature::rectangle(
            dbcore::terrain::AreaKind::Wood,
            dbcore::geometry::Point::new(7.0, 5.0),
            dbcore::geometry::Point::new(11.0, 6.9),
        ),
    ));
    let mut b = start(sandbox(
        bf,
        armies(
            vec![
                general(el(1, "3Kn", 3.0, 2.0, 0.0)),
                el(2, "4Bd", 9.0, 7.0, 0.0),
            ],
            vec![
                general(el(101, "Cv", 3.0, 12.0, 180.0)),
                el(102, "4Wb", 9.0, 7.0, 180.0),
            ],
        ),
    ));
    b.apply(Action::EndMovement).unwrap();
    let ev = b
        .apply(Action::Fight {
            a: ElementId(2),
            b: ElementId(102),
            dice: [d(6), d(2)],
            recoil_own_depth: Vec::new(),
            c_in_c_bonus: Vec::new(),
        })
        .unwrap();
    let Event::Fought { result, .. } = &ev[0] else {
        panic!("{ev:?}")
    };
    assert_eq!(result.b.outcome, Outcome::Recoil, "{result:?}");
    assert_eq!(result.pursuit, None);
    let bd = b.element(ElementId(2)).unwrap();
    assert_eq!(bd.pose.y, 7.0, "the Blades stayed where they fought");
}

/// Our Spear 2 and the enemy Warband 102 touching front edges 0.4 BW off line; `blocked` adds
/// a friend beside each that leaves neither room to conform.
fn off_line(blocked: bool) -> Battle {
    let mut south = vec![
        general(el(1, "3Kn", 2.0, 1.0, 0.0)),
        el(2, "Sp", 5.0, 5.0, 0.0),
    ];
    let mut north = vec![
        general(el(101, "Cv", 12.0, 12.0, 180.0)),
        el(102, "4Wb", 5.4, 5.0, 180.0),
    ];
    if blocked {
        south.push(el(3, "Sp", 6.2, 4.9, 0.0));
        north.push(el(103, "4Wb", 4.3, 5.1, 180.0));
    }
    start(sandbox(
        Battlefield::new(Board::default()),
        armies(south, north),
    ))
}

#[test]
fn s8_3_s12_6_elements_in_front_contact_off_line_conform_before_they_fight() {
    // DBA3.md §8.3, §12.6: front edges touching without lining up conform automatically, the
    // contacted element (not of the moving army) moving; then they fight front to front.
    let mut b = off_line(false);
    let ev = b.apply(Action::EndMovement).unwrap();
    assert!(
        ev.iter().any(|e| matches!(
            e,
            Event::Outcome { effect: dbcore::battle::Effect::Moved { id, .. } } if *id == ElementId(102)
        )),
        "{ev:?}"
    );
    let w = b.element(ElementId(102)).unwrap().pose;
    assert!(
        (w.x - 5.0).abs() < 1e-3 && (w.y - 5.0).abs() < 1e-3,
        "{w:?}"
    );
    let pairs = b.pending_combats();
    assert_eq!(pairs.len(), 1);
    assert_eq!(
        pairs[0].contact,
        dbcore::battle::CombatContact::FrontToFront
    );
}

#[test]
fn s8_3_elements_that_cannot_conform_fight_as_if_in_full_contact_and_overlapped() {
    // DBA3.md §8.3: when neither can line up, a front edge in contact still means combat: they
    // fight as if in full front contact, the contacted Warband counting as overlapped (−1).
    let mut b = off_line(true);
    b.apply(Action::EndMovement).unwrap();
    assert_eq!(b.phase(), Phase::CloseCombat);
    let pairs = b.pending_combats();
    let pair = pairs
        .iter()
        .find(|p| p.a == ElementId(2) && p.b == ElementId(102))
        .expect("the off-line pair fights");
    assert_eq!(pair.contact, dbcore::battle::CombatContact::NotLinedUp);
    let ev = b
        .apply(Action::Fight {
            a: ElementId(2),
            b: ElementId(102),
            dice: [d(3), d(3)],
            recoil_own_depth: Vec::new(),
            c_in_c_bonus: Vec::new(),
        })
        .unwrap();
    let Event::Fought { result, .. } = &ev[0] else {
        panic!("{ev:?}")
    };
    // Spear +4, Warband +3 less 1 for being overlapped.
    assert_eq!(result.a.total, 7, "{result:?}");
    assert_eq!(result.b.total, 5, "{result:?}");
}

#[test]
fn s17_24_mutual_shooting_both_suffer_their_outcomes() {
    // DBA3.md §9.6, §17.24: a shooter suffers an outcome only if its target shoots back at it in
    // the same exchange; then both outcomes apply and the target has shot.
    let bows = || {
        start(sandbox(
            Battlefield::new(Board::default()),
            armies(
                vec![
                    general(el(1, "Cv", 2.0, 1.0, 0.0)),
                    el(2, "4Bw", 7.5, 5.0, 0.0),
                ],
                vec![
                    general(el(101, "Cv", 12.0, 12.0, 180.0)),
                    el(102, "4Bw", 7.5, 7.0, 180.0),
                ],
            ),
        ))
    };
    let shot = |back: bool| {
        let mut b = bows();
        b.apply(Action::EndMovement).unwrap();
        let ev = b
            .apply(Action::Shoot {
                shooter: ElementId(2),
                target: ElementId(102),
                support: vec![],
                dice: [d(1), d(6)],
                recoil_own_depth: Vec::new(),
                shoots_back: back,
            })
            .unwrap();
        (b, ev)
    };
    // One-way: the beaten shooter is untouched and the target still has its own shot.
    let (b, ev) = shot(false);
    let Event::Shot { result, .. } = &ev[0] else {
        panic!("{ev:?}")
    };
    assert_eq!(result.a.outcome, Outcome::NoEffect);
    assert!(b.element(ElementId(2)).unwrap().in_play());
    assert_eq!(b.pending_shooters(), vec![ElementId(102)]);
    // Mutual: 3 against 8 doubles the shooter, which suffers it; the exchange is both shots.
    let (b, ev) = shot(true);
    let Event::Shot {
        result, shot_back, ..
    } = &ev[0]
    else {
        panic!("{ev:?}")
    };
    assert!(*shot_back);
    assert_ne!(result.a.outcome, Outcome::NoEffect, "{result:?}");
    let e2 = b.element(ElementId(2)).unwrap();
    assert!(!e2.in_play() || e2.pose.y < 5.0, "{e2:?}");
    assert!(!b.pending_shooters().contains(&ElementId(102)));
    // A target that has already shot this bound cannot shoot back (§9.1: once a bound).
    let mut b = bows();
    b.apply(Action::EndMovement).unwrap();
    b.apply(Action::Shoot {
        shooter: ElementId(102),
        target: ElementId(2),
        support: vec![],
        dice: [d(3), d(3)],
        recoil_own_depth: Vec::new(),
        shoots_back: false,
    })
    .unwrap();
    let before = b.clone();
    let e = b
        .apply(Action::Shoot {
            shooter: ElementId(2),
            target: ElementId(102),
            support: vec![],
            dice: [d(1), d(6)],
            recoil_own_depth: Vec::new(),
            shoots_back: true,
        })
        .unwrap_err();
    assert_eq!(e, BattleError::CannotShoot { id: ElementId(102) });
    assert_eq!(e.rule(), Some("§9.1"));
    assert_eq!(b, before);
}
