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
            Event::Fought { result, .. } => Some(result.a.factors),
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

fn demoralised_events(ev: &[Event]) -> Vec<(usize, CommandId, u32)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::CommandDemoralised {
                army,
                command,
                losses,
                ..
            } => Some((*army, *command, *losses)),
            _ => None,
        })
        .collect()
}

fn fled(ev: &[Event]) -> Vec<ElementId> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Outcome {
                effect:
                    dbcore::battle::Effect::Moved { id, .. }
                    | dbcore::battle::Effect::LostOffTable { id, .. },
            } => Some(*id),
            _ => None,
        })
        .collect()
}

/// The demonstration Big Battle with the Britons' command 0 chariots 1011 and 1012 brought
/// forward from behind its line (where its first flight would take them over the base edge, and
/// the command to half its elements lost, §14.5) to stand 1.5 BW in front of it.
fn chariots_forward() -> BattleSetup {
    let mut s = big_battle_setup(Variant::BigBattle);
    for e in &mut s.armies[1].elements {
        match e.id.0 {
            1011 => e.pose = Pose::new(3.0, 9.5, 180.0),
            1012 => e.pose = Pose::new(7.0, 9.5, 180.0),
            _ => {}
        }
    }
    s
}

#[test]
fn s14_5_a_command_at_a_third_is_demoralised_as_its_bound_begins_and_flees() {
    // DBA3.md §14.5: its general lost counts one more, so the general and two elements lost are
    // 4 of 12: a third. The command is demoralised when its next bound begins, and its elements
    // flee at once.
    let b = Battle::new(chariots_forward()).unwrap();
    let mut b = with_lost(&b, &[1001, 1002, 1003]);
    assert_eq!(b.losses_of_command(&b.commands()[3].clone()).total(), 4);
    b.apply(dice(&[3, 3, 3])).unwrap();
    let ev = b.apply(Action::EndMovement).unwrap();
    assert_eq!(demoralised_events(&ev), vec![(1, CommandId(0), 4)]);
    assert!(b.commands()[3].demoralised);
    let first_flight = fled(&ev);
    assert!(first_flight.contains(&ElementId(1004)), "{ev:?}");
    assert!(first_flight.iter().all(|id| (1001..=1012).contains(&id.0)));
    // Not again in this bound of the Britons' (§14.5: "at the start of every later friendly
    // bound").
    b.apply(dice(&[3, 3, 3])).unwrap();
    assert!(fled(&b.apply(Action::EndMovement).unwrap()).is_empty());
    b.apply(dice(&[3, 3, 3])).unwrap();
    b.apply(Action::EndMovement).unwrap();
    // Their next bound: the flight comes first, after the holds; a hold costs its command 1 PIP.
    b.apply(dice(&[3, 3, 3])).unwrap();
    let before = b.clone();
    assert!(matches!(
        b.apply(step(1004, &b.clone(), -0.5)).unwrap_err(),
        BattleError::FlightDue { army: 1 }
    ));
    assert_eq!(b, before);
    let held = b
        .apply(Action::Hold {
            ids: vec![ElementId(1004)],
        })
        .unwrap();
    assert!(matches!(held[0], Event::Held { left, .. } if left == b.commands()[3].pips));
    // A command that is not demoralised holds nothing.
    assert!(matches!(
        b.apply(Action::Hold {
            ids: vec![ElementId(1102)],
        })
        .unwrap_err(),
        BattleError::NotHeld { .. }
    ));
    // The flight: every unheld element of it flees again; the held one stays.
    let ev = b.apply(Action::Flee).unwrap();
    let again = fled(&ev);
    assert!(!again.contains(&ElementId(1004)), "{again:?}");
    assert!(!again.is_empty());
    // Then its only tactical move is a single element turning where it stands.
    let before = b.clone();
    assert!(matches!(
        b.apply(step(1004, &b.clone(), -0.5)).unwrap_err(),
        BattleError::Demoralised { .. }
    ));
    assert_eq!(b, before);
}

#[test]
fn s14_5_a_demoralised_element_fights_at_minus_two() {
    // DBA3.md §14.5, §17.63: −2 in close combat outside a city, fort or camp.
    let b = c_in_c_in_contact();
    // Army 1's command 0 (element 1002's) demoralised: its general and two others lost.
    let mut b = with_lost(&b, &[1001, 1003, 1004]);
    b.apply(dice(&[6, 6, 6])).unwrap();
    let ev = b.apply(Action::EndMovement).unwrap();
    assert_eq!(demoralised_events(&ev), vec![]);
    // Still army 0's bound: close combat first; 1002 is not yet demoralised.
    let fight = Action::Fight {
        a: ElementId(101),
        b: ElementId(1002),
        dice: [d(1), d(1)],
        recoil_own_depth: vec![],
        c_in_c_bonus: vec![],
    };
    let factors = |ev: &[Event]| {
        ev.iter()
            .find_map(|e| match e {
                Event::Fought { result, .. } => Some(result.b.factors),
                _ => None,
            })
            .unwrap()
    };
    let ev = b.check(&fight).unwrap();
    assert!(!factors(&ev)
        .iter()
        .any(|f| f.name == dbcore::FactorName::Demoralised));
    let mut demoralised = b.clone();
    let mut v = serde_json::to_value(&demoralised).unwrap();
    v["commands"][3]["demoralised"] = serde_json::Value::Bool(true);
    demoralised = serde_json::from_value(v).unwrap();
    let ev = demoralised.check(&fight).unwrap();
    assert!(factors(&ev)
        .iter()
        .any(|f| f.name == dbcore::FactorName::Demoralised && f.value == -2));
}

#[test]
fn s14_5_a_command_at_half_is_removed_and_stops_rolling() {
    // DBA3.md §14.5: half its original troop elements lost (5 elements and its general, 6 of
    // 12) and the command is taken off at the end of the bound.
    let b = Battle::new(big_battle_setup(Variant::BigBattle)).unwrap();
    let mut b = with_lost(&b, &[1001, 1002, 1003, 1004, 1005]);
    b.apply(dice(&[3, 3, 3])).unwrap();
    let ev = b.apply(Action::EndMovement).unwrap();
    let removed: Vec<ElementId> = ev
        .iter()
        .find_map(|e| match e {
            Event::CommandRemoved {
                army: 1,
                command: CommandId(0),
                ids,
                ..
            } => Some(ids.clone()),
            _ => None,
        })
        .expect("the command is removed");
    assert_eq!(removed, (1006..=1012).map(ElementId).collect::<Vec<_>>());
    assert!(b.commands()[3].removed);
    for id in &removed {
        assert_eq!(
            b.element(*id).unwrap().status,
            Status::Lost {
                cause: LossCause::Removed
            }
        );
    }
    // Removal adds no losses of its own; the command no longer rolls.
    assert_eq!(b.losses_of_command(&b.commands()[3].clone()).total(), 6);
    assert_eq!(
        b.awaiting(),
        Some(DiceRequest::CommandPips {
            army: 1,
            commands: vec![CommandId(1), CommandId(2)],
        })
    );
    assert!(b.phase() != dbcore::battle::Phase::Finished { winner: Some(0) });
}

#[test]
fn s14_5_two_commands_demoralised_and_more_losses_than_the_enemy_lose_the_battle() {
    // DBA3.md §14.5, §17.8: checked at the end of every bound.
    let b = Battle::new(big_battle_setup(Variant::BigBattle)).unwrap();
    let mut b = with_lost(&b, &[1001, 1002, 1003, 1101, 1102, 1103]);
    b.apply(dice(&[3, 3, 3])).unwrap();
    let ev = b.apply(Action::EndMovement).unwrap();
    // At the end of army 0's bound nobody is demoralised yet: 8 of 36 is not half.
    assert!(!ev.iter().any(|e| matches!(e, Event::BattleWon { .. })));
    assert_eq!(demoralised_events(&ev).len(), 2);
    b.apply(dice(&[3, 3, 3])).unwrap();
    let ev = b.apply(Action::EndMovement).unwrap();
    let verdict = ev
        .iter()
        .find_map(|e| match e {
            Event::BattleWon { verdict } => Some(verdict.clone()),
            _ => None,
        })
        .expect("the army with two demoralised commands loses");
    assert_eq!((verdict.loser, verdict.winner), (Some(1), Some(0)));
    assert!(verdict.totals[1] >= 8 && verdict.totals[0] == 0);
}

#[test]
fn s14_5_losses_alone_do_not_defeat_an_army_that_has_lost_no_more_than_the_enemy() {
    // DBA3.md §17.8: the army must also have lost more than the enemy.
    let b = Battle::new(big_battle_setup(Variant::BigBattle)).unwrap();
    let mut b = with_lost(
        &b,
        &[1001, 1002, 1003, 1101, 1102, 1103, 1, 2, 3, 101, 102, 103],
    );
    b.apply(dice(&[3, 3, 3])).unwrap();
    let ev = b.apply(Action::EndMovement).unwrap();
    assert!(!ev.iter().any(|e| matches!(e, Event::BattleWon { .. })));
}

#[test]
fn s14_the_driver_plays_a_big_battle_and_a_giant_battle_to_a_verdict() {
    for v in [Variant::BigBattle, Variant::Giant] {
        let t = std::time::Instant::now();
        let driven = dbcore::driver::play(big_battle_setup(v), 1, 300).unwrap();
        eprintln!(
            "{v:?}: {} bounds, {:?}, {:?}",
            driven.bounds,
            driven.verdict,
            t.elapsed()
        );
        assert!(driven.verdict.is_some(), "{v:?} undecided");
    }
}

#[test]
fn s14_4_a_city_sally_in_big_battle_is_paid_from_the_c_in_c_commands_pips() {
    // DBA3.md §14.4: PIPs are spent per command; the denizens (§4.2) belong to no command, so
    // (our reading) the C-in-C's command pays for their sally.
    use dbcore::geometry::Point;
    use dbcore::terrain::{AreaFeature, AreaKind, TerrainFeature};
    let mut s = big_battle_setup(Variant::BigBattle);
    // A City between the lines, its south wall 1 BW in front of the Romans' centre command and
    // its north wall 1.5 BW from the Britons.
    s.battlefield
        .features
        .push(TerrainFeature::Area(AreaFeature::rectangle(
            AreaKind::City,
            Point::new(12.0, 5.0),
            Point::new(15.0, 9.5),
        )));
    s.sandbox = true;
    s.city_owner = Some(0);
    let mut b = Battle::new(s).unwrap();
    b.apply(dice(&[3, 6, 2])).unwrap();
    let before: Vec<u8> = b.commands().iter().map(|c| c.pips).collect();
    let dz_depth = b.setup().config.depth("Dz".parse().unwrap());
    let events = b
        .apply(Action::Sally {
            // The fourth feature, after the wood and the two hills.
            city: 3,
            pose: Pose::new(13.5, 9.5 + dz_depth, 0.0),
        })
        .unwrap();
    // The C-in-C's command (1) had the highest score, 6, and pays 1 (the army's first bound).
    assert!(events.iter().any(|e| matches!(
        e,
        Event::PipsSpent {
            command: Some(CommandId(1)),
            left: 5,
            ..
        }
    )));
    let after: Vec<u8> = b.commands().iter().map(|c| c.pips).collect();
    assert_eq!(before[0..3], [3, 6, 2]);
    assert_eq!(after[0..3], [3, 5, 2]);
    assert_eq!(
        u32::from(b.pips()),
        after[0..3].iter().map(|p| u32::from(*p)).sum::<u32>()
    );
}

#[test]
fn s14_5_the_driver_holds_demoralised_elements_whose_flight_would_leave_the_table() {
    // DBA3.md §14.5: a demoralised command may spend PIPs to hold elements, who then do not
    // flee; §13.1: an element fleeing over a battlefield edge is lost. The demonstration driver
    // buys the holds that keep its elements on the table, while their command has PIPs.
    use dbcore::driver::{Demonstration, Policy};
    let b = Battle::new(chariots_forward()).unwrap();
    let mut b = with_lost(&b, &[1001, 1002, 1003]);
    b.apply(dice(&[3, 3, 3])).unwrap();
    b.apply(Action::EndMovement).unwrap();
    assert!(b.commands()[3].demoralised);
    // The Britons' bound of demoralisation, then the Romans'.
    for _ in 0..2 {
        b.apply(dice(&[3, 3, 3])).unwrap();
        b.apply(Action::EndMovement).unwrap();
    }
    // The Britons' next bound: their demoralised command 0 has 2 PIPs.
    b.apply(dice(&[2, 2, 2])).unwrap();
    let pips = b.commands()[3].pips;
    let depth = b.setup().battlefield.board.depth;
    let cfg = b.setup().config.clone();
    let mut held = Vec::new();
    let mut driver = Demonstration::new();
    let mut after_holds = None;
    while let Some(choice) = driver.next_choice(&b, None) {
        let action = choice.into_action();
        let Action::Hold { ids } = &action else {
            after_holds = Some(action);
            break;
        };
        for id in ids {
            let e = b.element(*id).unwrap();
            let gap = e
                .rect(&cfg)
                .corners()
                .iter()
                .map(|p| depth - p.y)
                .fold(f64::INFINITY, f64::min);
            assert!(
                gap < cfg.move_distance(e.kind, false),
                "{id} is safe at {gap}"
            );
        }
        held.extend(ids.iter().copied());
        b.apply(action).unwrap();
    }
    assert_eq!(held.len(), usize::from(pips), "one hold per PIP: {held:?}");
    assert!(held.iter().all(|id| b.commands()[3].elements.contains(id)));
    // Then it orders the flight, before any move.
    assert_eq!(after_holds, Some(Action::Flee));
}

/// A Big Battle with a waterway 1 BW deep along the west edge, the Britons (army 1) moving
/// first and holding back `held` for a landing. The Romans' west command stands 1 BW further
/// east, out of the water.
fn landing_battle(held: Vec<ElementId>) -> Result<Battle, dbcore::battle::SetupError> {
    use dbcore::battlefield::BoardEdge;
    use dbcore::terrain::{TerrainFeature, Waterway};
    let mut s = big_battle_setup(Variant::BigBattle);
    s.battlefield
        .features
        .push(TerrainFeature::Waterway(Waterway::uniform(
            BoardEdge::West,
            1.0,
            0.0,
        )));
    for e in s.armies[0].elements.iter_mut().filter(|e| e.id.0 <= 12) {
        e.pose.x += 1.0;
    }
    s.sandbox = true;
    s.first = 1;
    s.held_back = held;
    Battle::new(s)
}

#[test]
fn s14_3_a_littoral_landing_is_a_whole_command_all_within_1_bw_of_the_waterway() {
    // DBA3.md §14.3 (§5.5 for Big Battle): the landing is one whole command, and every one of
    // its elements lands within 1 BW of the waterway; its own command's die pays (§14.4).
    let command: Vec<ElementId> = (1001..=1012).map(ElementId).collect();
    // Three elements, the standard landing, are not a whole command.
    let e = landing_battle(command[..3].to_vec()).unwrap_err();
    assert!(
        e.problems.iter().any(
            |p| matches!(p, SetupProblem::Landing { reason } if reason.contains("whole command"))
        ),
        "{e:?}"
    );
    let mut b = landing_battle(command.clone()).unwrap();
    // The command afloat still rolls its die, to pay for the landing.
    b.apply(dice(&[4, 5, 6])).unwrap();
    let cfg = b.setup().config.clone();
    let kinds: Vec<_> = command
        .iter()
        .map(|id| b.element(*id).unwrap().kind)
        .collect();
    let depth = |id: ElementId| cfg.depth(kinds[command.iter().position(|c| *c == id).unwrap()]);
    // Two files of six along the shore, facing east: the first with its rear edges on the
    // shore, the second in front of it, each within 1 BW of the water.
    let poses: Vec<Pose> = command
        .iter()
        .enumerate()
        .map(|(i, id)| {
            let y = 5.0 + (i % 6) as f64;
            if i < 6 {
                Pose::new(1.0 + depth(*id), y, 90.0)
            } else {
                let ahead = command[i - 6];
                Pose::new(1.0 + depth(ahead) + depth(*id), y, 90.0)
            }
        })
        .collect();
    // The last element a third rank deep, in front of the tenth: more than 1 BW from the
    // water, though the group still holds together.
    let mut third_rank = poses.clone();
    let tenth = poses[10];
    third_rank[11] = Pose::new(tenth.x + depth(command[11]), tenth.y, 90.0);
    let before = b.clone();
    let far = b.apply(Action::Land {
        ids: command.clone(),
        poses: third_rank,
    });
    assert!(
        matches!(&far, Err(BattleError::Landing { reason }) if reason.contains("1 BW")),
        "{far:?}"
    );
    assert_eq!(b, before);
    let pips = b.command_of(command[0]).unwrap().pips;
    let events = b
        .apply(Action::Land {
            ids: command.clone(),
            poses,
        })
        .unwrap();
    assert!(events.iter().any(|e| matches!(
        e,
        Event::PipsSpent {
            command: Some(CommandId(0)),
            left,
            ..
        } if *left == pips - 1
    )));
    assert!(command.iter().all(|id| b.element(*id).unwrap().in_play()));
}

mod recount {
    use super::*;
    use dbcore::battle::Effect;
    use dbcore::geometry::{Point, Polygon};
    use dbcore::TroopType;
    use proptest::prelude::*;
    use proptest::test_runner::TestCaseError;
    use std::collections::BTreeSet;

    fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> Polygon {
        Polygon::new(vec![
            Point::new(x0, y0),
            Point::new(x1, y0),
            Point::new(x1, y1),
            Point::new(x0, y1),
        ])
    }

    /// The demonstration Big Battle with the Romans' command 0 allied, its own camp and the
    /// army's camp undefended in mid-table (a scenario may put camps anywhere), the Britons'
    /// camp behind their line; in the Britons' first bound one of them enters the allied camp
    /// and sacks it, and another the army's camp too when `both`.
    pub fn allied_camp_sacked(both: bool) -> Battle {
        let mut s = big_battle_setup(Variant::BigBattle);
        let romans = &mut s.armies[0];
        romans.commands[0].allied = true;
        romans.commands[0].camp = Some(rect(9.0, 8.0, 11.0, 9.0));
        romans.pip_allocation = Some(PipAllocation::Ranked {
            order: vec![CommandId(1), CommandId(2)],
        });
        romans.camp = Some(rect(19.0, 8.0, 21.0, 9.0));
        let britons = &mut s.armies[1];
        britons.camp = Some(rect(14.0, 13.6, 16.0, 14.6));
        for e in &mut britons.elements {
            match e.id.0 {
                1009 => e.pose = Pose::new(9.8, 10.5, 180.0),
                1109 => e.pose = Pose::new(19.8, 10.5, 180.0),
                _ => {}
            }
        }
        let mut b = Battle::new(s).unwrap();
        b.apply(dice(&[1, 1, 1])).unwrap();
        b.apply(Action::EndMovement).unwrap();
        b.apply(dice(&[6, 6, 6])).unwrap();
        let mut enter = |id: u32, x: f64| {
            b.apply(Action::Move {
                order: MoveOrder::Element {
                    id: ElementId(id),
                    path: vec![Pose::new(x, 8.2, 180.0)],
                },
            })
            .unwrap()
        };
        enter(1009, 10.0);
        if both {
            enter(1109, 20.0);
        }
        b
    }

    /// Drive `start` on with `seed` and check the battle's losses, demoralisation, removal and
    /// verdict against a recount of its whole event log; the camps sacked, by (army, command).
    fn recount(start: Battle, seed: u64) -> Result<Vec<(usize, Option<CommandId>)>, TestCaseError> {
        // DBA3.md §14.5, §17.8: what the battle says of its commands is what its events say.
        let mut driven = start.clone();
        let before = Battle::replay(&start.record()).unwrap().1;
        let (more, _) = dbcore::driver::drive(&mut driven, &mut dbcore::SeededDice::new(seed), 200);
        let (b, events) = Battle::replay(&driven.record()).unwrap();
        prop_assert_eq!(&events[..before.len()], &before[..]);
        prop_assert_eq!(&events[before.len()..], &more[..]);
        let mut lost = BTreeSet::new();
        let mut removed = BTreeSet::new();
        let mut demoralised = BTreeSet::new();
        let mut removed_commands = BTreeSet::new();
        let mut sacked = Vec::new();
        for e in &events {
            match e {
                Event::Outcome {
                    effect: Effect::Destroyed { id, .. },
                }
                | Event::Outcome {
                    effect: Effect::LostOffTable { id, .. },
                } => {
                    prop_assert!(lost.insert(*id), "{} lost twice", id);
                }
                Event::CommandRemoved {
                    army,
                    command,
                    ids,
                    losses,
                    original,
                } => {
                    prop_assert!(2 * losses >= *original);
                    removed_commands.insert((*army, *command));
                    removed.extend(ids.iter().copied());
                }
                Event::CommandDemoralised {
                    army,
                    command,
                    losses,
                    original,
                } => {
                    prop_assert!(3 * losses >= *original);
                    demoralised.insert((*army, *command));
                }
                Event::CampSacked { army, command } => {
                    prop_assert!(!sacked.contains(&(*army, *command)), "a camp sacked twice");
                    sacked.push((*army, *command));
                }
                _ => {}
            }
        }
        prop_assert!(lost.is_disjoint(&removed));
        let mut totals = vec![0u32; 2];
        let mut originals = [0u32; 2];
        let mut down = [0usize; 2];
        for c in b.commands() {
            let counted: Vec<&ElementId> = c
                .elements
                .iter()
                .filter(|id| lost.contains(id))
                .filter(|id| {
                    !matches!(
                        b.element(**id).unwrap().kind.troop_type(),
                        TroopType::SCh
                            | TroopType::Hd
                            | TroopType::CampFollowers
                            | TroopType::Denizens
                    )
                })
                .collect();
            // §14.5: an allied command's own camp counts for it alone; the army's camp for
            // each non-allied command.
            let camps = sacked
                .iter()
                .filter(|(army, command)| {
                    *army == c.army
                        && match command {
                            Some(id) => *id == c.id,
                            None => !c.allied,
                        }
                })
                .count() as u32;
            let recount = counted.len() as u32
                + u32::from(
                    counted
                        .iter()
                        .any(|id| b.element(**id).unwrap().kind.is_double()),
                )
                + u32::from(counted.contains(&&c.general))
                + camps;
            prop_assert_eq!(b.losses_of_command(c).total(), recount);
            prop_assert_eq!(b.losses_of_command(c).camps_and_cities, camps);
            prop_assert_eq!(c.camp_sacked, sacked.contains(&(c.army, Some(c.id))));
            prop_assert_eq!(c.demoralised, demoralised.contains(&(c.army, c.id)));
            prop_assert_eq!(c.removed, removed_commands.contains(&(c.army, c.id)));
            totals[c.army] += recount;
            originals[c.army] += c.original;
            down[c.army] += usize::from(c.demoralised || c.removed);
            for id in &c.elements {
                let e = b.element(*id).unwrap();
                let gone = lost.contains(id) || removed.contains(id);
                prop_assert_eq!(e.in_play(), !gone);
            }
        }
        match events.iter().find_map(|e| match e {
            Event::BattleWon { verdict } => Some(verdict.clone()),
            _ => None,
        }) {
            Some(verdict) => {
                prop_assert_eq!(&verdict.totals, &totals);
                let l = verdict.loser.unwrap();
                prop_assert!(2 * totals[l] >= originals[l] || down[l] >= 2);
                prop_assert!(totals[l] > totals[1 - l]);
            }
            // Undecided only when the bound limit came first (a command demoralised as the
            // last bound began is judged at that bound's end, which was not played).
            None => prop_assert!(driven.bound() > 200),
        }
        Ok(sacked)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 4, ..ProptestConfig::default() })]
        #[test]
        fn s14_5_losses_removal_and_defeat_agree_with_a_recount_of_the_event_log(
            seed in 0u64..10_000,
            giant in any::<bool>(),
        ) {
            let v = if giant { Variant::Giant } else { Variant::BigBattle };
            recount(Battle::new(big_battle_setup(v)).unwrap(), seed)?;
        }

        #[test]
        fn s14_5_allied_camps_sacked_agree_with_a_recount_of_the_event_log(
            seed in 0u64..10_000,
            both in any::<bool>(),
        ) {
            // DBA3.md §14.3, §14.5: the same recount once an allied command's own camp, and
            // perhaps the army's camp, has been sacked: each counted for its own commands.
            let sacked = recount(allied_camp_sacked(both), seed)?;
            let at = |camp| sacked.iter().position(|&c| c == camp);
            let allied = at((0, Some(CommandId(0))));
            prop_assert!(allied.is_some());
            // With `both` the army's camp falls with the allied one; without, the battle may
            // still take it later (seed 1548 does), but never before the allied camp.
            match at((0, None)) {
                Some(army) => prop_assert!(both || allied < Some(army), "{:?}", sacked),
                None => prop_assert!(!both),
            }
        }
    }
}

#[test]
fn s14_the_picture_marks_each_command_on_the_wider_board() {
    // DBA3.md §1.2, §14: a 30 BW board (40 px a BW and a 1 BW margin each side, then the 8 BW
    // key), and every element outlined in its command's colour with its number.
    let b = Battle::new(big_battle_setup(Variant::BigBattle)).unwrap();
    let svg = b.svg(false);
    assert!(svg.contains(r#"width="1600.000""#), "{}", &svg[..200]);
    for c in 0..3 {
        let class = format!(r#"class="command command-{c}""#);
        assert_eq!(svg.matches(&class).count(), 24, "command {c}");
    }
    // A standard battle's picture has no command marks.
    let standard = Battle::new(demo_setup()).unwrap().svg(false);
    assert!(!standard.contains("class=\"command") && !standard.contains("Commands"));
}

#[test]
fn s17_9_lost_hordes_count_toward_defeat_only_when_configured() {
    // DBA3.md §17.9: the defeat count leaves Hordes out unless the configuration says otherwise.
    let total = |hordes: bool| {
        let mut s = big_battle_setup(Variant::BigBattle);
        s.config.pips.big_battle_defeat_counts_hordes = hordes;
        let b = Battle::new(s).unwrap();
        // Element 1108 is a Horde of army 1's command 1.
        let mut b = with_lost(&b, &[1001, 1002, 1003, 1101, 1102, 1103, 1108]);
        let mut events = Vec::new();
        for _ in 0..2 {
            events.extend(b.apply(dice(&[3, 3, 3])).unwrap());
            events.extend(b.apply(Action::EndMovement).unwrap());
        }
        match b.phase() {
            dbcore::battle::Phase::Finished { winner: Some(0) } => {}
            p => panic!("army 1 should have lost: {p:?}"),
        }
        events
            .iter()
            .find_map(|e| match e {
                Event::BattleWon { verdict } => Some(verdict.totals[1]),
                _ => None,
            })
            .unwrap()
    };
    assert_eq!(total(true), total(false) + 1);
}
