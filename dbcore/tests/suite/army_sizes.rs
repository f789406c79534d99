//! Armies of the right size (DBA3.md §2.5, §14.1, §14.6): a standard army has 12 troop
//! elements, a Big Battle army 36, a Giant army 12 a general, an allied command 12. The battle's
//! set-up and the pre-battle refuse other numbers, naming the section, unless the set-up records
//! the scenario's own sizes (`free_army_size`).

use dbcore::battle::prebattle::{EntryProblem, PrebattleError};
use dbcore::battle::{
    validate, ArmyEntry, Battle, BattleSetup, ElementId, EntryElement, Prebattle, PrebattleSetup,
    SetupProblem,
};
use dbcore::battlefield::Variant;
use dbcore::driver::{big_battle_setup, demo_armies, demo_setup};
use dbcore::geometry::Pose;
use dbcore::ErrorInfo;

/// The demonstration set-up with army 0's last element taken off (11) or a copy of it added
/// beside the army (13).
fn resized(setup: &BattleSetup, grow: bool) -> BattleSetup {
    let mut s = setup.clone();
    let elements = &mut s.armies[0].elements;
    if grow {
        let mut extra = elements.last().unwrap().clone();
        extra.id = ElementId(99);
        extra.pose = Pose::new(14.0, 1.0, 0.0);
        elements.push(extra);
    } else {
        elements.pop();
    }
    s
}

fn size_problems(s: &BattleSetup) -> Vec<SetupProblem> {
    validate(s)
        .into_iter()
        .filter(|p| {
            matches!(
                p,
                SetupProblem::StandardArmySize { .. } | SetupProblem::ArmySize { .. }
            )
        })
        .collect()
}

#[test]
fn s2_5_a_standard_set_up_refuses_an_army_that_is_not_12_unless_it_chooses_its_own_sizes() {
    // DBA3.md §2.5: "one element of the 12 is the general's element".
    let s = demo_setup();
    assert_eq!(s.armies[0].elements.len(), 12);
    assert!(Battle::new(s.clone()).is_ok());
    for (grow, count) in [(false, 11), (true, 13)] {
        let bad = resized(&s, grow);
        assert_eq!(
            size_problems(&bad),
            vec![SetupProblem::StandardArmySize {
                army: "Romans".into(),
                count,
            }]
        );
        let e = Battle::new(bad.clone()).unwrap_err();
        assert_eq!(e.rule(), Some("§2.5"), "{e}");
        assert!(e.to_string().contains("§2.5"), "{e}");
        // The scenario's own numbers, recorded in the set-up.
        let free = BattleSetup {
            free_army_size: true,
            ..bad
        };
        assert!(Battle::new(free.clone()).is_ok());
        let json = serde_json::to_value(&free).unwrap();
        assert_eq!(json["free_army_size"], serde_json::Value::Bool(true));
    }
    // A set-up that does not say so reads as before, and writes no flag.
    let json = serde_json::to_value(&s).unwrap();
    assert!(json.get("free_army_size").is_none());
    let back: BattleSetup = serde_json::from_value(json).unwrap();
    assert!(!back.free_army_size);
}

#[test]
fn s2_6_a_camp_follower_element_is_not_one_of_the_12() {
    // DBA3.md §2.6: camp followers are not troop elements and not among the 12.
    let mut s = demo_setup();
    let mut cf = s.armies[0].elements[0].clone();
    cf.id = ElementId(99);
    cf.kind = "CF".parse().unwrap();
    cf.general = false;
    cf.pose = Pose::new(14.0, 1.0, 0.0);
    s.armies[0].elements.push(cf);
    assert_eq!(size_problems(&s), vec![]);
}

#[test]
fn s14_1_s14_6_big_battle_and_giant_armies_are_36_and_12_a_general() {
    // DBA3.md §14.1: "36 elements in 3 commands"; §14.6: "12 elements × number of generals".
    for (variant, expected) in [(Variant::BigBattle, 36), (Variant::Giant, 36)] {
        let s = big_battle_setup(variant);
        assert!(Battle::new(s.clone()).is_ok());
        let mut bad = s.clone();
        bad.armies[1].elements.retain(|e| e.id != ElementId(1012));
        for c in &mut bad.armies[1].commands {
            c.elements.retain(|id| *id != ElementId(1012));
        }
        assert_eq!(
            size_problems(&bad),
            vec![SetupProblem::ArmySize {
                army: "Britons".into(),
                count: 35,
                expected,
            }],
            "{variant:?}"
        );
        assert_eq!(Battle::new(bad.clone()).unwrap_err().rule(), Some("§14.1"));
        assert!(Battle::new(BattleSetup {
            free_army_size: true,
            ..bad
        })
        .is_ok());
    }
}

#[test]
fn s14_1_an_allied_command_of_other_than_12_is_a_scenarios_choice_only() {
    // DBA3.md §14.1: allied commands "are full 12-element armies from their own list".
    let mut s = big_battle_setup(Variant::BigBattle);
    s.armies[1].commands[2].allied = true;
    // Its last element moves to command 1: 11 and 13.
    let moved = s.armies[1].commands[2].elements.pop().unwrap();
    s.armies[1].commands[1].elements.push(moved);
    let allied = |s: &BattleSetup| {
        validate(s)
            .into_iter()
            .filter(|p| matches!(p, SetupProblem::AlliedCommandSize { .. }))
            .count()
    };
    assert_eq!(allied(&s), 1);
    s.free_army_size = true;
    assert_eq!(allied(&s), 0);
}

fn shrunk_entry(entry: &ArmyEntry) -> ArmyEntry {
    let mut e = entry.clone();
    e.elements.pop();
    e
}

#[test]
fn s2_5_the_pre_battle_refuses_an_army_that_is_not_12_unless_it_chooses_its_own_sizes() {
    // DBA3.md §2.5.
    let s = demo_armies();
    assert!(Prebattle::new(s.clone()).is_ok());
    let mut bad = s.clone();
    bad.armies[1] = shrunk_entry(&bad.armies[1]);
    let mut grown = bad.armies[0].clone();
    grown
        .elements
        .push(EntryElement::new("4Bd".parse().unwrap()));
    bad.armies[0] = grown;
    let e = Prebattle::new(bad.clone()).unwrap_err();
    assert_eq!(e.rule(), Some("§2.5"), "{e}");
    match &e {
        PrebattleError::Entries { problems } => assert_eq!(
            problems,
            &vec![
                EntryProblem::ArmySize {
                    army: "Romans".into(),
                    count: 13
                },
                EntryProblem::ArmySize {
                    army: "Britons".into(),
                    count: 11
                },
            ]
        ),
        other => panic!("{other}"),
    }
    // Chosen, the sizes are the scenario's and the battle's set-up records the choice.
    let free = PrebattleSetup {
        free_army_size: true,
        ..bad
    };
    let mut pre = Prebattle::new(free).unwrap();
    let mut dice = dbcore::SeededDice::new(3);
    dbcore::driver::play_prebattle(&mut pre, &mut dice).unwrap();
    let setup = pre.battle_setup().unwrap();
    assert!(setup.free_army_size);
    assert_eq!(setup.armies[0].elements.len(), 13);
    assert!(Battle::new(setup).is_ok());
}

#[test]
fn s14_1_the_big_battle_pre_battle_refuses_an_army_that_is_not_36() {
    // DBA3.md §14.1, checked by the battle's own command rules.
    let mut s = PrebattleSetup::from_big_lists(Variant::BigBattle, "II/56", "II/53").unwrap();
    assert!(Prebattle::new(s.clone()).is_ok());
    let last = s.armies[0].elements.len() - 1;
    s.armies[0].elements.pop();
    for c in &mut s.armies[0].commands {
        c.elements.retain(|&i| i != last);
    }
    let e = Prebattle::new(s.clone()).unwrap_err();
    assert_eq!(e.rule(), Some("§14.1"), "{e}");
    match &e {
        PrebattleError::Entries { problems } => assert!(
            matches!(
                &problems[..],
                [EntryProblem::Commands { problems }]
                    if problems.iter().any(|p| matches!(p, SetupProblem::ArmySize { count: 35, .. }))
            ),
            "{problems:?}"
        ),
        other => panic!("{other}"),
    }
    s.free_army_size = true;
    assert!(Prebattle::new(s).is_ok());
}
