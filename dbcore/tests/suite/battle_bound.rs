//! DBA3.md §6: the bound, PIP dice and PIP costs; saving and replaying a battle.

use crate::battle_common;

use battle_common::*;
use dbcore::battle::{
    Action, Battle, BattleError, BattleRecord, DiceRequest, ElementId, Event, MoveOrder, Phase,
    PipExtra, SetupProblem,
};
use dbcore::battlefield::{Battlefield, Board};
use dbcore::geometry::{Point, Pose};
use dbcore::terrain::{AreaFeature, AreaKind, River, TerrainFeature};
use dbcore::{ErrorCode, ErrorInfo};

fn step(id: u32, b: &Battle, dy: f64) -> Action {
    let e = b.element(ElementId(id)).unwrap();
    let f = e.pose.forward();
    Action::Move {
        order: MoveOrder::Element {
            id: ElementId(id),
            path: vec![Pose::new(
                e.pose.x + f.x * dy,
                e.pose.y + f.y * dy,
                e.pose.facing,
            )],
        },
    }
}

fn pips(b: &mut Battle, v: u8) {
    b.apply(Action::RollPips { die: d(v) }).unwrap();
}

fn end(b: &mut Battle) {
    b.apply(Action::EndMovement).unwrap();
}

#[test]
fn s6_1_the_defender_starts_awaiting_its_pip_die() {
    // DBA3.md §5.3, §6.1: the defender has the first bound, which starts with the PIP roll.
    let b = Battle::new(open_battle()).unwrap();
    assert_eq!(b.phase(), Phase::AwaitingPips);
    assert_eq!(b.awaiting(), Some(DiceRequest::Pips { army: 0 }));
    assert_eq!(b.active_army(), 0);
    assert_eq!(b.bound(), 1);
}

#[test]
fn s6_2_the_pip_score_is_the_bounds_pips() {
    // DBA3.md §6.2.
    let mut b = Battle::new(open_battle()).unwrap();
    let ev = b.apply(Action::RollPips { die: d(4) }).unwrap();
    assert_eq!(
        ev,
        vec![Event::PipsRolled {
            army: 0,
            die: d(4),
            pips: 4
        }]
    );
    assert_eq!(b.pips(), 4);
    assert_eq!(b.phase(), Phase::Movement);
    assert_eq!(b.awaiting(), None);
}

#[test]
fn s6_1_actions_out_of_phase_are_refused_and_change_nothing() {
    // DBA3.md §6.1: PIPs first, then moves; a refusal leaves the battle as it was.
    let mut b = Battle::new(open_battle()).unwrap();
    let before = b.clone();
    let e = b.apply(step(2, &b.clone(), 1.0)).unwrap_err();
    assert!(matches!(e, BattleError::WrongPhase { .. }));
    assert_eq!(e.code(), ErrorCode::WrongPhase);
    assert_eq!(e.rule(), Some("§6.1"));
    // The phase by its game name, not the Rust one.
    assert_eq!(
        e.to_string(),
        "§6.1: a tactical move is not possible in the PIP roll (the moving army rolls its PIP \
         die first, §6.2)"
    );
    assert_eq!(
        b.apply(Action::EndMovement).unwrap_err().code(),
        ErrorCode::WrongPhase
    );
    assert_eq!(b, before);
    pips(&mut b, 3);
    let e = b.apply(Action::RollPips { die: d(3) }).unwrap_err();
    assert!(matches!(e, BattleError::WrongPhase { .. }));
    assert_eq!(
        e.to_string(),
        "§6.1: rolling PIPs is not possible in the movement phase"
    );
}

#[test]
fn s3_1_a_first_pip_score_of_1_turns_plough_rough() {
    // DBA3.md §3.1, §17.13: the game's first PIP score decides; later 1s do not.
    let mut b = Battle::new(open_battle()).unwrap();
    let ev = b.apply(Action::RollPips { die: d(1) }).unwrap();
    assert!(ev.contains(&Event::PloughTurnedRough));
    assert!(b.plough_rough());
    let mut b = Battle::new(open_battle()).unwrap();
    pips(&mut b, 2);
    end(&mut b);
    let ev = b.apply(Action::RollPips { die: d(1) }).unwrap();
    assert!(!ev.contains(&Event::PloughTurnedRough));
    assert!(!b.plough_rough());
}

#[test]
fn s6_2_unused_pips_are_lost_and_the_other_army_moves_next() {
    // DBA3.md §6.1, §6.2.
    let mut b = Battle::new(open_battle()).unwrap();
    pips(&mut b, 5);
    let ev = b.apply(Action::EndMovement).unwrap();
    assert_eq!(
        ev,
        vec![
            Event::BoundEnded {
                army: 0,
                bound: 1,
                unused_pips: 5
            },
            Event::BoundStarted { army: 1, bound: 2 },
        ]
    );
    assert_eq!(b.pips(), 0);
    assert_eq!(b.active_army(), 1);
    assert_eq!(b.awaiting(), Some(DiceRequest::Pips { army: 1 }));
}

#[test]
fn s6_3_a_move_costs_a_pip() {
    // DBA3.md §6.3: each tactical move by an element or group costs 1 PIP.
    let mut b = Battle::new(open_battle()).unwrap();
    pips(&mut b, 2);
    let ev = b.apply(step(2, &b.clone(), 2.0)).unwrap();
    assert!(matches!(ev[0], Event::Moved { .. }));
    match &ev[1] {
        Event::PipsSpent { cost, left, .. } => {
            assert_eq!((cost.total, *left), (1, 1));
            assert!(cost.extras.is_empty());
        }
        other => panic!("{other:?}"),
    }
    let e = b.element(ElementId(2)).unwrap();
    assert!((e.pose.y - 5.0).abs() < 1e-9);
    assert_eq!(e.moves_this_bound, 1);
}

#[test]
fn s6_3_not_enough_pips_refuses_the_move_and_changes_nothing() {
    // DBA3.md §6.3.
    let mut b = Battle::new(open_battle()).unwrap();
    pips(&mut b, 1);
    b.apply(step(2, &b.clone(), 1.0)).unwrap();
    let before = b.clone();
    let e = b.apply(step(3, &b.clone(), 1.0)).unwrap_err();
    assert_eq!(e, BattleError::NotEnoughPips { cost: 1, left: 0 });
    assert_eq!(e.code(), ErrorCode::NotEnoughPips);
    assert_eq!(b, before);
}

#[test]
fn s6_3_only_the_moving_army_moves() {
    // DBA3.md §6.1.
    let mut b = Battle::new(open_battle()).unwrap();
    pips(&mut b, 6);
    let e = b.apply(step(102, &b.clone(), 1.0)).unwrap_err();
    assert_eq!(
        e,
        BattleError::NotYourElement {
            id: ElementId(102),
            army: 1
        }
    );
    let ghost = Action::Move {
        order: MoveOrder::Element {
            id: ElementId(999),
            path: vec![Pose::new(1.0, 1.0, 0.0)],
        },
    };
    let e = b.apply(ghost).unwrap_err();
    assert_eq!(e.code(), ErrorCode::UnknownElement);
}

/// Army 0's second bound with `die` PIPs.
fn second_bound(die: u8) -> Battle {
    let mut b = Battle::new(open_battle()).unwrap();
    pips(&mut b, 6);
    end(&mut b);
    pips(&mut b, 6);
    end(&mut b);
    pips(&mut b, die);
    b
}

fn cost_of(b: &Battle, a: &Action) -> dbcore::battle::PipCost {
    match &b.check(a).unwrap()[1] {
        Event::PipsSpent { cost, .. } => cost.clone(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn s6_3_a_elephants_cost_an_extra_pip_except_in_the_first_bound() {
    // DBA3.md §6.3 (a), §17.14.
    let mut b = Battle::new(open_battle()).unwrap();
    pips(&mut b, 6);
    assert_eq!(cost_of(&b, &step(4, &b, 1.0)).total, 1);
    let b = second_bound(6);
    let c = cost_of(&b, &step(4, &b, 1.0));
    assert_eq!(c.total, 2);
    assert_eq!(c.extras, vec![PipExtra::Unwieldy]);
}

#[test]
fn s6_3_b_beyond_command_distance_costs_an_extra_pip() {
    // DBA3.md §6.3 (b), §6.4: Psiloi 6.5 BW from the general are within 8 BW; the Light Horse
    // far away need 20 BW and have it; a Blades element 8 BW off by itself does not.
    let b = second_bound(6);
    assert_eq!(cost_of(&b, &step(5, &b, 1.0)).total, 1);
    assert_eq!(cost_of(&b, &step(6, &b, 1.0)).total, 1);
    let mut setup = open_battle();
    setup.armies[0].elements[4].pose = Pose::new(14.0, 1.0, 0.0);
    setup.armies[0].elements[0].pose = Pose::new(2.0, 6.0, 0.0);
    let mut b = Battle::new(setup).unwrap();
    for _ in 0..2 {
        pips(&mut b, 6);
        end(&mut b);
    }
    pips(&mut b, 6);
    let c = cost_of(&b, &step(5, &b, 1.0));
    assert_eq!(c.extras, vec![PipExtra::BeyondCommand { limit: 8.0 }]);
    // Never for the general's own element.
    assert!(cost_of(&b, &step(1, &b, 1.0)).extras.is_empty());
}

#[test]
fn s6_3_b_a_general_in_a_wood_costs_every_other_move_an_extra_pip() {
    // DBA3.md §6.3 (b): the general's element wholly inside a wood.
    let mut bf = Battlefield::new(Board::default());
    bf.features.push(TerrainFeature::Area(AreaFeature::ellipse(
        AreaKind::Wood,
        Point::new(7.5, 2.6),
        1.6,
        1.2,
        0.0,
        24,
    )));
    let mut setup = open_battle();
    setup.battlefield = bf;
    let mut b = Battle::new(setup).unwrap();
    for _ in 0..2 {
        pips(&mut b, 6);
        end(&mut b);
    }
    pips(&mut b, 6);
    let c = cost_of(&b, &step(5, &b, 1.0));
    assert_eq!(c.extras, vec![PipExtra::GeneralSheltered]);
}

#[test]
fn s3_5_the_river_is_diced_once() {
    // DBA3.md §3.5: one die fixes the river's state for the game.
    let mut b = Battle::new(open_battle()).unwrap();
    pips(&mut b, 3);
    assert_eq!(
        b.apply(Action::DiceRiver { die: d(4) }).unwrap_err(),
        BattleError::NoRiver
    );
    let mut setup = open_battle();
    setup
        .battlefield
        .features
        .push(TerrainFeature::River(River {
            course: vec![Point::new(0.0, 7.5), Point::new(15.0, 7.5)],
            width: 0.5,
            state: None,
        }));
    let mut b = Battle::new(setup).unwrap();
    pips(&mut b, 3);
    let ev = b.apply(Action::DiceRiver { die: d(4) }).unwrap();
    assert_eq!(
        ev,
        vec![Event::RiverDiced {
            die: d(4),
            state: dbcore::terrain::RiverState::Slows
        }]
    );
    assert_eq!(
        b.apply(Action::DiceRiver { die: d(2) }).unwrap_err(),
        BattleError::RiverKnown
    );
}

#[test]
fn s5_setup_problems_are_all_reported_at_once() {
    // DBA3.md §1.2, §2.5: every problem of the set-up in one error.
    let mut setup = open_battle();
    setup.armies[0].elements[1].id = ElementId(3); // duplicate id
    setup.armies[0].elements[2].general = true; // two generals
    setup.armies[1].elements[3].pose = Pose::new(14.9, 12.0, 180.0); // off the table
    setup.armies[1].elements[2].pose = Pose::new(7.5, 12.0, 180.0); // overlaps the general
    let e = Battle::new(setup).unwrap_err();
    let p = &e.problems;
    assert!(
        p.iter()
            .any(|x| matches!(x, SetupProblem::DuplicateId { .. })),
        "{p:?}"
    );
    assert!(
        p.iter().any(|x| matches!(x, SetupProblem::Generals { .. })),
        "{p:?}"
    );
    assert!(
        p.iter().any(|x| matches!(x, SetupProblem::OffTable { .. })),
        "{p:?}"
    );
    assert!(
        p.iter().any(|x| matches!(x, SetupProblem::Overlap { .. })),
        "{p:?}"
    );
    assert_eq!(e.code(), ErrorCode::InvalidSetup);
}

#[test]
fn s14_1_a_big_battle_army_must_list_its_commands() {
    // DBA3.md §14.1: a Big Battle army is three commands, each under its general.
    let mut setup = open_battle();
    setup.variant = dbcore::battlefield::Variant::BigBattle;
    let e = Battle::new(setup).unwrap_err();
    assert!(e
        .problems
        .iter()
        .any(|x| matches!(x, SetupProblem::NoCommands { .. })));
}

#[test]
fn a_saved_battle_replays_to_the_same_events_and_state() {
    let mut b = Battle::new(open_battle()).unwrap();
    let mut events = Vec::new();
    events.extend(b.apply(Action::RollPips { die: d(3) }).unwrap());
    events.extend(b.apply(step(2, &b.clone(), 1.5)).unwrap());
    events.extend(b.apply(step(3, &b.clone(), 2.0)).unwrap());
    events.extend(b.apply(Action::EndMovement).unwrap());
    events.extend(b.apply(Action::RollPips { die: d(2) }).unwrap());
    events.extend(b.apply(step(102, &b.clone(), 1.0)).unwrap());
    let record = b.record();
    let json = serde_json::to_string(&record).unwrap();
    let back: BattleRecord = serde_json::from_str(&json).unwrap();
    let (replayed, replay_events) = Battle::replay(&back).unwrap();
    assert_eq!(replay_events, events);
    assert_eq!(replayed, b);
    let state_json = serde_json::to_string(&b).unwrap();
    assert_eq!(serde_json::from_str::<Battle>(&state_json).unwrap(), b);
}

/// The battle in `open_battle`'s third bound (army 0's second) with `edit` made to its saved
/// state first (for situations a test cannot reach quickly by play).
fn edited_second_bound(
    setup: dbcore::battle::BattleSetup,
    edit: impl Fn(&mut serde_json::Value),
) -> Battle {
    let mut b = Battle::new(setup).unwrap();
    for _ in 0..2 {
        pips(&mut b, 6);
        end(&mut b);
    }
    let mut v = serde_json::to_value(&b).unwrap();
    edit(&mut v);
    let mut b: Battle = serde_json::from_value(v).unwrap();
    pips(&mut b, 6);
    b
}

#[test]
fn s6_3_b_every_move_costs_an_extra_pip_once_the_general_is_lost() {
    // DBA3.md §6.3 (b): with the general's element lost every move costs +1 (not in the side's
    // first bound, §17.14).
    let b = edited_second_bound(open_battle(), |v| {
        v["elements"][0]["status"] = serde_json::json!({"status": "lost", "cause": "destroyed"});
    });
    assert!(!b.element(ElementId(1)).unwrap().in_play());
    let c = cost_of(&b, &step(2, &b, 1.0));
    assert_eq!(c.extras, vec![PipExtra::GeneralLost]);
    assert_eq!(c.total, 2);
}

#[test]
fn s6_3_a_a_single_element_garrisoning_its_camp_costs_an_extra_pip() {
    // DBA3.md §6.3 (a): a single element acting as a camp's garrison pays +1 to move.
    let mut setup = open_battle();
    setup.armies[0].camp = Some(dbcore::geometry::Polygon::new(vec![
        Point::new(11.0, 0.5),
        Point::new(13.0, 0.5),
        Point::new(13.0, 2.0),
        Point::new(11.0, 2.0),
    ]));
    setup.armies[0].elements.push(el(7, "4Bd", 12.0, 1.5, 0.0)); // wholly inside the camp
    let b = edited_second_bound(setup, |_| {});
    let c = cost_of(&b, &step(7, &b, 1.0));
    assert_eq!(c.extras, vec![PipExtra::Unwieldy]);
    // The same Blades outside it do not.
    assert!(cost_of(&b, &step(2, &b, 1.0)).extras.is_empty());
}

#[test]
fn s6_3_a_scythed_chariots_moving_into_contact_pay_no_extra_pip() {
    // DBA3.md §6.3 (a), §17.11: Scythed Chariots pay +1 to move, waived when the move ends in
    // contact with enemy; the switch `pips.sch_extra_pip_waived_into_contact` charges it as the
    // seed reads.
    let setup = |waived: bool| {
        let mut s = open_battle();
        s.armies[0].elements.push(el(7, "SCh", 10.5, 8.5, 0.0));
        s.config.pips.sch_extra_pip_waived_into_contact = waived;
        s
    };
    let into = Action::Move {
        order: MoveOrder::IntoContact {
            ids: vec![ElementId(7)],
            target: ElementId(104),
            contact: dbcore::battle::ContactWanted::Front,
        },
    };
    let b = edited_second_bound(setup(true), |_| {});
    assert_eq!(
        cost_of(&b, &step(7, &b, 1.0)).extras,
        vec![PipExtra::Unwieldy]
    );
    assert!(cost_of(&b, &into).extras.is_empty(), "waived into contact");
    let b = edited_second_bound(setup(false), |_| {});
    assert_eq!(cost_of(&b, &into).extras, vec![PipExtra::Unwieldy]);
}

#[test]
fn s5_4_artillery_and_war_wagons_may_not_deploy_off_road_in_bad_going() {
    // DBA3.md §5.4: Art and WWg may not be deployed off-road in bad going; others may, and on a
    // road through it they may too.
    let wood = || {
        TerrainFeature::Area(AreaFeature::rectangle(
            AreaKind::Wood,
            Point::new(1.0, 4.0),
            Point::new(5.0, 6.0),
        ))
    };
    for code in ["Art", "WWg"] {
        let mut setup = open_battle();
        setup.battlefield.features.push(wood());
        setup.armies[0].elements.push(el(7, code, 3.0, 5.5, 0.0));
        let e = Battle::new(setup).unwrap_err();
        assert!(
            e.problems.iter().any(|p| matches!(
                p,
                SetupProblem::BadGoingDeployment { id, .. } if *id == ElementId(7)
            )),
            "{code}: {e}"
        );
        let mut setup = open_battle();
        setup.battlefield.features.push(wood());
        setup
            .battlefield
            .features
            .push(TerrainFeature::Road(dbcore::terrain::Road {
                path: vec![Point::new(3.0, 0.0), Point::new(3.0, 15.0)],
                surface: dbcore::terrain::RoadSurface::Track,
                width: 0.5,
            }));
        setup.armies[0].elements.push(el(7, code, 3.0, 5.5, 0.0));
        assert!(Battle::new(setup).is_ok(), "{code} on the road");
    }
    let mut setup = open_battle();
    setup.battlefield.features.push(wood());
    setup.armies[0].elements.push(el(7, "4Bd", 3.0, 5.5, 0.0));
    assert!(Battle::new(setup).is_ok(), "Blades may stand in a wood");
}

#[test]
fn s2_3_only_mounted_elements_dismount_and_only_into_foot() {
    // DBA3.md §2.3, §7.9: `X//Y` mounted elements dismount into foot; anything else is a set-up
    // problem.
    let with = |code: &str, into: &str| {
        let mut setup = open_battle();
        let mut e = el(7, code, 12.0, 5.0, 0.0);
        e.dismounts_as = Some(into.parse().unwrap());
        setup.armies[0].elements.push(e);
        Battle::new(setup)
    };
    assert!(with("3Kn", "4Bd").is_ok());
    for (code, into) in [("4Bd", "4Sp"), ("Cv", "LH")] {
        let e = with(code, into).unwrap_err();
        assert!(
            e.problems
                .iter()
                .any(|p| matches!(p, SetupProblem::Dismount { id, .. } if *id == ElementId(7))),
            "{code}//{into}: {e}"
        );
    }
}

#[test]
fn s4_3_s5_4_initial_garrisons_one_non_allied_foot_element_and_forts_garrisoned() {
    // DBA3.md §4.2, §4.3, §5.4, §17.36: one non-allied foot element may start as a City's or
    // Fort's garrison; no more than one; a Fort must start garrisoned.
    let place = |kind: AreaKind| {
        TerrainFeature::Area(AreaFeature::rectangle(
            kind,
            Point::new(10.0, 5.0),
            Point::new(12.0, 7.0),
        ))
    };
    let with = |kind: AreaKind, inside: Vec<dbcore::battle::ElementSetup>| {
        let mut setup = open_battle();
        setup.battlefield.features.push(place(kind));
        setup.armies[0].elements.extend(inside);
        Battle::new(setup)
    };
    let has = |r: Result<Battle, dbcore::battle::SetupError>, f: fn(&SetupProblem) -> bool| {
        r.err().is_some_and(|e| e.problems.iter().any(f))
    };
    assert!(
        with(AreaKind::City, vec![]).is_ok(),
        "a City may start empty"
    );
    assert!(with(AreaKind::City, vec![el(7, "4Bd", 11.0, 6.2, 0.0)]).is_ok());
    assert!(with(AreaKind::Fort, vec![el(7, "4Bd", 11.0, 6.2, 0.0)]).is_ok());
    assert!(has(with(AreaKind::Fort, vec![]), |p| matches!(
        p,
        SetupProblem::FortUngarrisoned { .. }
    )));
    assert!(has(
        with(AreaKind::City, vec![el(7, "Cv", 11.0, 6.2, 0.0)]),
        |p| matches!(p, SetupProblem::GarrisonNotEligible { id, .. } if *id == ElementId(7))
    ));
    let mut allied = el(7, "4Bd", 11.0, 6.2, 0.0);
    allied.contingent = Some(1);
    assert!(has(with(AreaKind::City, vec![allied]), |p| matches!(
        p,
        SetupProblem::GarrisonNotEligible { .. }
    )));
    assert!(has(
        with(
            AreaKind::City,
            vec![el(7, "4Bd", 10.5, 6.2, 0.0), el(8, "4Bd", 11.5, 6.2, 0.0)]
        ),
        |p| matches!(p, SetupProblem::GarrisonTooLarge { count: 2, .. })
    ));
    let e = with(AreaKind::Fort, vec![]).unwrap_err();
    assert_eq!(e.rule(), Some("§4.3"));
}
