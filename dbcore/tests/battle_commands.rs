//! Big Battle and Giant DBA: commands in the set-up and the state, the bound with a PIP die per
//! command, losses, demoralisation, removal and defeat (DBA3.md §14).

use dbcore::battle::{
    Action, Battle, BattleError, BattleSetup, CommandId, DiceRequest, ElementId, Event, LossCause,
    MoveOrder, PipAllocation, PipExtra, SetupProblem, Status,
};
use dbcore::battlefield::Variant;
use dbcore::driver::{big_battle_setup, demo_setup};
use dbcore::geometry::Pose;
use dbcore::{DieScore, Outcome};

fn d(n: u8) -> DieScore {
    DieScore::new(n).unwrap()
}

fn dice(v: &[u8]) -> Action {
    Action::RollCommandPips {
        dice: v.iter().map(|&n| d(n)).collect(),
    }
}

fn problems(setup: BattleSetup) -> Vec<SetupProblem> {
    Battle::new(setup).unwrap_err().problems
}

/// The battle with elements `ids` marked lost (destroyed), as a saved state would have them.
fn with_lost(b: &Battle, ids: &[u32]) -> Battle {
    let mut v = serde_json::to_value(b).unwrap();
    let lost = serde_json::to_value(Status::Lost {
        cause: LossCause::Destroyed,
    })
    .unwrap();
    for e in v["elements"].as_array_mut().unwrap() {
        if ids.contains(&(e["id"].as_u64().unwrap() as u32)) {
            e["status"] = lost.clone();
        }
    }
    serde_json::from_value(v).unwrap()
}

fn rolls(events: &[Event]) -> Vec<(CommandId, u8)> {
    events
        .iter()
        .find_map(|e| match e {
            Event::CommandPipsRolled { rolls, .. } => {
                Some(rolls.iter().map(|r| (r.command, r.pips)).collect())
            }
            _ => None,
        })
        .expect("the PIP dice were rolled")
}

fn step(id: u32, b: &Battle, dy: f64) -> Action {
    let p = b.element(ElementId(id)).unwrap().pose;
    Action::Move {
        order: MoveOrder::Element {
            id: ElementId(id),
            path: vec![Pose::new(p.x, p.y + dy, p.facing)],
        },
    }
}

#[test]
fn s14_1_the_demonstration_big_battle_and_giant_set_ups_are_valid() {
    // DBA3.md §14.1, §14.6: 3 commands of 12 under their generals, one C-in-C.
    for v in [Variant::BigBattle, Variant::Giant] {
        let b = Battle::new(big_battle_setup(v)).unwrap_or_else(|e| panic!("{v:?}: {e}"));
        assert_eq!(b.commands().len(), 6);
        assert_eq!(b.commands().iter().filter(|c| c.c_in_c).count(), 2);
        assert!(b.commands().iter().all(|c| c.original == 12));
    }
    // DBA3.md §1.2: 30 x 15 BW, Giant 45 x 15.
    let bb = big_battle_setup(Variant::BigBattle).battlefield.board;
    let giant = big_battle_setup(Variant::Giant).battlefield.board;
    assert_eq!((bb.width, bb.depth), (30.0, 15.0));
    assert_eq!((giant.width, giant.depth), (45.0, 15.0));
}

#[test]
fn s14_1_a_standard_army_is_one_command_and_keeps_its_json() {
    // DBA3.md §14.1: a standard game has no command state and writes no command fields.
    let b = Battle::new(demo_setup()).unwrap();
    assert!(b.commands().is_empty());
    let json = serde_json::to_string(&b).unwrap();
    assert!(!json.contains("commands") && !json.contains("pip_allocation"));
    let mut s = demo_setup();
    s.armies[0].commands = big_battle_setup(Variant::BigBattle).armies[0].commands[..1].to_vec();
    assert!(problems(s)
        .iter()
        .any(|p| matches!(p, SetupProblem::CommandsInStandard { .. })));
}

#[test]
fn s14_1_every_command_problem_is_reported_at_once() {
    // DBA3.md §14.1, §14.4: at least 6 elements a command, every element in one command, one
    // C-in-C, 3 commands, a declared ranking: all reported together.
    let mut s = big_battle_setup(Variant::BigBattle);
    let a = &mut s.armies[0];
    a.commands[2].elements.truncate(5);
    a.commands[0].c_in_c = true;
    a.pip_allocation = None;
    s.armies[1].commands.truncate(2);
    let p = problems(s);
    let has = |f: &dyn Fn(&SetupProblem) -> bool| p.iter().any(f);
    assert!(
        has(&|x| matches!(x, SetupProblem::CommandTooSmall { count: 5, .. })),
        "{p:?}"
    );
    assert!(has(&|x| matches!(
        x,
        SetupProblem::ElementCommands { count: 0, .. }
    )));
    assert!(has(&|x| matches!(x, SetupProblem::CInC { count: 2, .. })));
    assert!(has(&|x| matches!(x, SetupProblem::PipRanking { .. })));
    assert!(has(&|x| matches!(
        x,
        SetupProblem::CommandCount {
            count: 2,
            expected: 3,
            ..
        }
    )));
    // The second army's dropped command leaves a general commanding nothing.
    assert!(has(&|x| matches!(
        x,
        SetupProblem::GeneralWithoutCommand { .. }
    )));
}

#[test]
fn s14_1_sub_generals_and_allied_commands() {
    // DBA3.md §14.1: a general other than the C-in-C or an ally general may not be Artillery;
    // an allied command is a whole 12-element army and never the C-in-C's.
    let mut s = big_battle_setup(Variant::BigBattle);
    s.armies[0].elements[0].kind = "Art".parse().unwrap();
    s.armies[0].commands[1].allied = true;
    s.armies[0].commands[2].elements.push(ElementId(2));
    let p = problems(s);
    assert!(p
        .iter()
        .any(|x| matches!(x, SetupProblem::SubGeneralKind { .. })));
    assert!(p.iter().any(|x| matches!(x, SetupProblem::CInC { .. })));
    assert!(p.iter().any(|x| matches!(
        x,
        SetupProblem::ElementCommands {
            id: ElementId(2),
            count: 2,
            ..
        }
    )));
}

#[test]
fn s14_3_elements_deploy_within_8_bw_of_their_own_general() {
    // DBA3.md §14.3: every element not in a City, Fort or camp within 8 BW of its general.
    let mut s = big_battle_setup(Variant::BigBattle);
    // Element 2 (command 0, general at x = 5) moved beside command 1 (x = 15).
    s.armies[0].elements[1].pose = Pose::new(17.0, 6.5, 0.0);
    let p = problems(s);
    assert!(
        p.iter().any(|x| matches!(
            x,
            SetupProblem::FarFromGeneral {
                id: ElementId(2),
                command: CommandId(0),
                ..
            }
        )),
        "{p:?}"
    );
}

#[test]
fn s14_4_one_die_per_command_given_out_by_the_declared_ranking() {
    // DBA3.md §14.4: one die per command; the ranking (centre, left, right) takes the
    // highest, middle and lowest scores.
    let mut b = Battle::new(big_battle_setup(Variant::BigBattle)).unwrap();
    assert_eq!(
        b.awaiting(),
        Some(DiceRequest::CommandPips {
            army: 0,
            commands: vec![CommandId(0), CommandId(1), CommandId(2)],
        })
    );
    let before = b.clone();
    assert_eq!(
        b.apply(Action::RollPips { die: d(4) }).unwrap_err(),
        BattleError::CommandDice {
            needed: 3,
            given: 1
        }
    );
    assert!(b.apply(dice(&[2, 6])).is_err());
    assert_eq!(b, before);
    let ev = b.apply(dice(&[2, 6, 4])).unwrap();
    assert_eq!(
        rolls(&ev),
        vec![(CommandId(0), 4), (CommandId(1), 6), (CommandId(2), 2)]
    );
    assert_eq!(b.pips(), 12);
    // DBA3.md §14.4, §17.7b: a first bound total of 12 leaves Plough as it is.
    assert!(!b.plough_rough());
}

#[test]
fn s14_4_plough_turns_rough_when_the_first_bound_totals_less_than_8() {
    // DBA3.md §14.4, §17.7b: the first bound's PIP total below 8 makes Plough rough.
    let mut b = Battle::new(big_battle_setup(Variant::BigBattle)).unwrap();
    let ev = b.apply(dice(&[1, 2, 4])).unwrap();
    assert!(ev.contains(&Event::PloughTurnedRough));
    let mut b = Battle::new(big_battle_setup(Variant::BigBattle)).unwrap();
    let ev = b.apply(dice(&[3, 3, 2])).unwrap();
    assert!(!ev.contains(&Event::PloughTurnedRough));
    // The threshold is a rules-configuration value.
    let mut s = big_battle_setup(Variant::BigBattle);
    s.config.pips.big_battle_plough_below = 9;
    let mut b = Battle::new(s).unwrap();
    assert!(b
        .apply(dice(&[3, 3, 2]))
        .unwrap()
        .contains(&Event::PloughTurnedRough));
}

#[test]
fn s14_6_giant_generals_may_each_roll_their_own_die() {
    // DBA3.md §14.6: the C-in-C may have every general roll his own die.
    let mut b = Battle::new(big_battle_setup(Variant::Giant)).unwrap();
    let ev = b.apply(dice(&[2, 6, 4])).unwrap();
    assert_eq!(
        rolls(&ev),
        vec![(CommandId(0), 2), (CommandId(1), 6), (CommandId(2), 4)]
    );
    // Or a fixed ranking, as in Big Battle.
    let mut s = big_battle_setup(Variant::Giant);
    s.armies[0].pip_allocation = Some(PipAllocation::Ranked {
        order: vec![CommandId(2), CommandId(1), CommandId(0)],
    });
    let mut b = Battle::new(s).unwrap();
    let ev = b.apply(dice(&[2, 6, 4])).unwrap();
    assert_eq!(
        rolls(&ev),
        vec![(CommandId(0), 2), (CommandId(1), 4), (CommandId(2), 6)]
    );
}

#[test]
fn s14_4_an_allied_command_always_has_its_own_die() {
    // DBA3.md §14.4: the allied command's die is its own; the ranking is of the others.
    let mut s = big_battle_setup(Variant::BigBattle);
    s.armies[0].commands[0].allied = true;
    s.armies[0].pip_allocation = Some(PipAllocation::Ranked {
        order: vec![CommandId(2), CommandId(1)],
    });
    let mut b = Battle::new(s).unwrap();
    let ev = b.apply(dice(&[1, 4, 6])).unwrap();
    assert_eq!(
        rolls(&ev),
        vec![(CommandId(0), 1), (CommandId(1), 4), (CommandId(2), 6)]
    );
}

#[test]
fn s14_4_each_move_is_paid_by_its_own_command() {
    // DBA3.md §14.4: PIPs are spent per command; a group is of one command only (§7.4).
    let mut b = Battle::new(big_battle_setup(Variant::BigBattle)).unwrap();
    b.apply(dice(&[1, 6, 4])).unwrap(); // command 0: 4, command 1: 6, command 2: 1
    let ev = b.apply(step(2, &b.clone(), 1.0)).unwrap();
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::PipsSpent {
            left: 3,
            command: Some(CommandId(0)),
            ..
        }
    )));
    assert_eq!(b.commands()[0].pips, 3);
    assert_eq!(b.commands()[1].pips, 6);
    assert_eq!(b.pips(), 10);
    // Command 2 has one PIP: its second move is refused though the army has PIPs left.
    b.apply(step(202, &b.clone(), 1.0)).unwrap();
    let before = b.clone();
    assert_eq!(
        b.apply(step(203, &b.clone(), 1.0)).unwrap_err(),
        BattleError::NotEnoughPips { cost: 1, left: 0 }
    );
    assert_eq!(b, before);
    let mixed = Action::Move {
        order: MoveOrder::Group {
            ids: vec![ElementId(10), ElementId(102)],
            steps: vec![],
        },
    };
    assert!(matches!(
        b.apply(mixed).unwrap_err(),
        BattleError::MixedCommands { .. }
    ));
}

#[test]
fn s14_4_command_distance_is_to_the_elements_own_general() {
    // DBA3.md §14.4, §6.4: an element beside another command's general is still out of its own
    // general's command distance.
    let mut s = big_battle_setup(Variant::BigBattle);
    s.sandbox = true; // the element stands beyond the 8 BW of §14.3
    s.armies[0].elements[7].pose = Pose::new(17.0, 6.5, 0.0); // element 8, command 0
    let mut b = Battle::new(s).unwrap();
    b.apply(dice(&[6, 6, 6])).unwrap();
    b.apply(Action::EndMovement).unwrap();
    b.apply(dice(&[6, 6, 6])).unwrap();
    b.apply(Action::EndMovement).unwrap();
    b.apply(dice(&[6, 6, 6])).unwrap();
    let cost = |ev: &[Event]| {
        ev.iter()
            .find_map(|e| match e {
                Event::PipsSpent { cost, .. } => Some(cost.clone()),
                _ => None,
            })
            .unwrap()
    };
    let far = b.apply(step(8, &b.clone(), 0.5)).unwrap();
    assert!(cost(&far)
        .extras
        .iter()
        .any(|x| matches!(x, PipExtra::BeyondCommand { .. })));
    let near = b.apply(step(102, &b.clone(), 0.5)).unwrap();
    assert!(cost(&near).extras.is_empty(), "{:?}", cost(&near));
}

#[test]
fn s14_4_a_command_whose_elements_are_all_lost_stops_rolling() {
    // DBA3.md §14.4: its dice cease to be diced for.
    let b = Battle::new(big_battle_setup(Variant::BigBattle)).unwrap();
    let mut b = with_lost(&b, &(201..=212).collect::<Vec<_>>());
    assert_eq!(
        b.awaiting(),
        Some(DiceRequest::CommandPips {
            army: 0,
            commands: vec![CommandId(0), CommandId(1)],
        })
    );
    let ev = b.apply(dice(&[2, 5])).unwrap();
    // The ranking skips the command that no longer rolls: centre highest, then left.
    assert_eq!(rolls(&ev), vec![(CommandId(0), 2), (CommandId(1), 5)]);
}

/// A Big Battle where army 1's element 1002 stands in front contact with army 0's C-in-C
/// (element 101), all else as the demonstration.
fn c_in_c_in_contact() -> Battle {
    let mut s = big_battle_setup(Variant::BigBattle);
    s.sandbox = true;
    let e = s.armies[1]
        .elements
        .iter_mut()
        .find(|e| e.id == ElementId(1002))
        .unwrap();
    e.pose = Pose::new(15.0, 2.5, 180.0);
    Battle::new(s).unwrap()
}

#[test]
fn s14_4_the_c_in_c_adds_one_once_a_game() {
    // DBA3.md §14.4: once a game the C-in-C's element adds +1 after its total is calculated.
    let mut b = c_in_c_in_contact();
    b.apply(dice(&[6, 6, 6])).unwrap();
    b.apply(Action::EndMovement).unwrap();
    let fight = |dice: [u8; 2], bonus: Vec<u32>| Action::Fight {
        a: ElementId(101),
        b: ElementId(1002),
        dice: [d(dice[0]), d(dice[1])],
        recoil_own_depth: vec![],
        c_in_c_bonus: bonus.into_iter().map(ElementId).collect(),
    };
    // Not a C-in-C: refused, nothing changes.
    let before = b.clone();
    assert_eq!(
        b.apply(fight([3, 3], vec![1002])).unwrap_err(),
        BattleError::CInCBonus {
            id: ElementId(1002)
        }
    );
    assert_eq!(b, before);
    // Dice that leave both in contact (no effect for either), so they fight again next bound.
    let tie = (1..=6)
        .flat_map(|x| (1..=6).map(move |y| [x, y]))
        .find(|&dd| {
            b.check(&fight(dd, vec![101])).is_ok_and(|ev| {
                ev.iter().any(|e| {
                    matches!(e, Event::Fought { result, .. }
                        if result.a.outcome == Outcome::NoEffect && result.b.outcome == Outcome::NoEffect)
                })
            })
        })
        .expect("some dice tie");
    let ev = b.apply(fight(tie, vec![101])).unwrap();
    assert!(ev.contains(&Event::CInCBonusUsed {
        army: 0,
        id: ElementId(101)
    }));
    let factors = ev
        .iter()
        .find_map(|e| match e {
            Event::Fought { result, .. } => Some(result.a.factors.clone()),
            _ => None,
        })
        .unwrap();
    assert!(factors
        .iter()
        .any(|f| f.name == dbcore::FactorName::CinC && f.value == 1));
    // Next bound they fight again: the bonus is spent.
    b.apply(dice(&[6, 6, 6])).unwrap();
    b.apply(Action::EndMovement).unwrap();
    assert_eq!(
        b.check(&fight([3, 3], vec![101])).unwrap_err(),
        BattleError::CInCBonus { id: ElementId(101) }
    );
    assert!(b.check(&fight([3, 3], vec![])).is_ok());
}
