//! Big Battle and Giant armies chosen from the lists: the limits of §14.1 (and §14.6), every
//! problem reported at once, and a battle set up from list ids (DBA3.md §14.1, §14.3, §14.6).

use dbcore::armies::{
    choose_big, default_big_choice, list, ArmyProblem, BigArmyChoice, BigArmyError, BigArmyProblem,
    CommandChoice, EntryChoice, ListId,
};
use dbcore::battle::{Battle, CommandId};
use dbcore::battlefield::Variant;
use dbcore::driver::big_battle_lists_setup;

fn id(s: &str) -> ListId {
    s.parse().unwrap()
}

fn entry(package: usize, codes: &[&str]) -> EntryChoice {
    EntryChoice {
        package,
        elements: codes.iter().map(|c| c.parse().unwrap()).collect(),
    }
}

fn roman_choice() -> BigArmyChoice {
    default_big_choice(list(&id("II/56")).unwrap(), Variant::BigBattle, 3)
}

/// The default army of a list as one allied command.
fn allied(list_id: &str) -> CommandChoice {
    let l = list(&id(list_id)).unwrap();
    CommandChoice {
        ally: Some(l.id),
        entries: dbcore::armies::choose::default_choice(l).entries,
        general: None,
        c_in_c: false,
    }
}

fn problems(choice: &BigArmyChoice) -> Vec<BigArmyProblem> {
    match choose_big(choice) {
        Err(BigArmyError::Invalid(p)) => p,
        other => panic!("expected problems, got {other:?}"),
    }
}

#[test]
fn s14_1_three_commands_of_one_list_make_a_36_element_army_with_a_general_each() {
    // DBA3.md §14.1: 36 elements in 3 commands, each under a general; one C-in-C.
    let army = choose_big(&roman_choice()).unwrap();
    assert_eq!(army.commands.len(), 3);
    let total: usize = army.commands.iter().map(|c| c.elements.len()).sum();
    assert_eq!(total, 36);
    for c in &army.commands {
        assert_eq!(c.elements.iter().filter(|e| e.general).count(), 1);
        assert!(c.ally.is_none());
    }
    assert_eq!(army.commands.iter().filter(|c| c.c_in_c).count(), 1);
}

#[test]
fn s14_1_a_single_list_army_triples_every_list_maximum() {
    // DBA3.md §14.1: single list, every maximum tripled: the list's one `1xCv` entry gives 3
    // Cv to the army, in any split between its commands.
    let mut c = roman_choice();
    // Command 1 takes both of command 2's Cv of entry 1; command 2 takes a fifth 4Bd instead.
    c.commands[1].entries[1] = entry(0, &["Cv", "Cv"]);
    c.commands[1].entries[2] = entry(0, &["4Bd", "4Bd", "4Bd"]);
    c.commands[2].entries[1] = entry(0, &[]);
    c.commands[2].entries[2] = entry(0, &["4Bd", "4Bd", "4Bd", "4Bd", "4Bd"]);
    let army = choose_big(&c).unwrap();
    assert_eq!(army.commands[1].elements.len(), 12);
    // A fourth Cv from that entry is over the tripled maximum of 3.
    c.commands[2].entries[1] = entry(0, &["Cv"]);
    c.commands[2].entries[2] = entry(0, &["4Bd", "4Bd", "4Bd", "4Bd"]);
    let p = problems(&c);
    assert!(
        p.iter().any(|p| matches!(
            p,
            BigArmyProblem::List {
                command: None,
                detail: ArmyProblem::TooManyElements {
                    allowed: 3,
                    given: 4,
                    ..
                }
            }
        )),
        "{p:?}"
    );
}

#[test]
fn s14_1_with_one_allied_command_the_rest_is_limited_to_its_list_doubled() {
    // DBA3.md §14.1: one allied command (a whole army of its own list): the other two
    // commands together take each entry at most twice.
    let mut c = roman_choice();
    c.commands[2] = allied("II/53");
    assert!(choose_big(&c).is_ok(), "{:?}", choose_big(&c));
    let army = choose_big(&c).unwrap();
    assert_eq!(army.commands[2].ally, Some(id("II/53")));
    assert_eq!(army.commands[2].elements.len(), 12);
    // Three Cv from the one `1xCv` entry are one more than twice its maximum.
    c.commands[1].entries[1] = entry(0, &["Cv", "Cv"]);
    c.commands[1].entries[2] = entry(0, &["4Bd", "4Bd", "4Bd"]);
    let p = problems(&c);
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(matches!(
        p[0],
        BigArmyProblem::List {
            command: None,
            detail: ArmyProblem::TooManyElements {
                allowed: 2,
                given: 3,
                ..
            }
        }
    ));
}

#[test]
fn s14_1_two_allied_commands_come_from_two_lists_and_the_third_is_a_normal_army() {
    // DBA3.md §14.1: two allied commands from two different lists; the third command is a
    // normal 12-element army of its own list (its maxima once).
    let mut c = roman_choice();
    c.commands[1] = allied("II/53");
    c.commands[2] = allied("II/53");
    let p = problems(&c);
    assert!(p.contains(&BigArmyProblem::SameAllyTwice { list: id("II/53") }));
    // A second Cv from the `1xCv` entry is over the third command's single maximum.
    c.commands[0].entries[1] = entry(0, &["Cv", "Cv"]);
    c.commands[0].entries[2] = entry(0, &["4Bd", "4Bd", "4Bd"]);
    let p = problems(&c);
    assert!(p.iter().any(|p| matches!(
        p,
        BigArmyProblem::List {
            command: None,
            detail: ArmyProblem::TooManyElements { allowed: 1, .. }
        }
    )));
}

#[test]
fn s14_1_an_allied_command_is_a_whole_army_of_another_list_of_the_same_years() {
    // DBA3.md §14.1: an ally is of the same year but another list (another number, or the
    // same number with another letter), a full 12-element army of its own list.
    let mut c = roman_choice();
    c.commands[2] = allied("II/56");
    let p = problems(&c);
    assert!(p.contains(&BigArmyProblem::AllyOwnList {
        command: CommandId(2),
        list: id("II/56")
    }));
    // I/1a, thousands of years earlier, is not of the Romans' years.
    let old = dbcore::armies::lists()[0].id;
    c.commands[2] = allied(&old.to_string());
    let p = problems(&c);
    assert!(
        p.iter().any(
            |p| matches!(p, BigArmyProblem::AllyYears { command, .. } if *command == CommandId(2))
        ),
        "{p:?}"
    );
    // An allied command short of its 12 elements breaks its own list.
    c.commands[2] = allied("II/53");
    c.commands[2].entries[3] = entry(0, &["3Wb", "3Wb", "3Wb", "3Wb"]);
    let p = problems(&c);
    assert!(p.iter().any(|p| matches!(
        p,
        BigArmyProblem::List {
            command: Some(CommandId(2)),
            detail: ArmyProblem::WrongTotal { .. }
        }
    )));
}

#[test]
fn s14_1_the_c_in_c_is_the_list_general_type_and_other_generals_are_not_lit_cwg_cp_hd_sch_or_art() {
    // DBA3.md §14.1: the C-in-C's element is the list's general type; any other general may be
    // any element of the list but Lit, CWg, CP, Hd, SCh or Art.
    let mut c = roman_choice();
    // The C-in-C's general named as one of his 4Bd of entry 2 (not of the general's entry).
    c.commands[0].general = Some(2);
    // Command 1's general: its entry-6 element fielded as Art.
    c.commands[1].entries[6] = entry(0, &["Art"]);
    c.commands[1].general = Some(11);
    let p = problems(&c);
    assert!(p.iter().any(|p| matches!(
        p,
        BigArmyProblem::GeneralType {
            command: CommandId(0),
            ..
        }
    )));
    assert!(p.iter().any(|p| matches!(
        p,
        BigArmyProblem::SubGeneralKind {
            command: CommandId(1),
            ..
        }
    )));
    // A sub-general on a 4Bd of the list is allowed.
    let mut c = roman_choice();
    c.commands[2].general = Some(3);
    let army = choose_big(&c).unwrap();
    assert_eq!(army.commands[2].elements[3].kind.code(), "4Bd");
    assert!(army.commands[2].elements[3].general);
}

#[test]
fn s14_1_an_elephant_general_only_if_the_c_in_c_rides_one() {
    // DBA3.md §14.1: a general may ride an elephant only if the C-in-C could (read: the
    // C-in-C's own element is an Elephant).
    let l = list(&id("II/49")).unwrap();
    let mut c = default_big_choice(l, Variant::BigBattle, 3);
    let last = l.troops.len() - 1;
    c.commands[1].entries[last] = entry(0, &["El"]);
    c.commands[1].general = Some(11);
    let p = problems(&c);
    assert!(p.iter().any(|p| matches!(
        p,
        BigArmyProblem::SubGeneralKind {
            command: CommandId(1),
            ..
        }
    )));
}

#[test]
fn s14_1_every_problem_of_an_army_is_reported_at_once() {
    // DBA3.md §14.1: validation reports every problem together.
    let mut c = roman_choice();
    c.commands[0].c_in_c = false;
    c.commands[1].entries.truncate(2); // 2 elements only
    c.commands.push(allied("II/56"));
    let p = problems(&c);
    for want in [
        "CommandCount",
        "CInC",
        "CommandTooSmall",
        "AllyOwnList",
        "ArmySize",
    ] {
        assert!(
            p.iter().any(|x| format!("{x:?}").starts_with(want)),
            "{want} missing from {p:?}"
        );
    }
    // Each names its section.
    assert!(p.iter().all(|x| x.to_string().starts_with("§14.1")));
}

#[test]
fn s14_6_a_giant_army_has_12_elements_per_general() {
    // DBA3.md §14.6: army = 12 elements × number of generals; §14.1: a command has at least 6.
    let l = list(&id("II/56")).unwrap();
    let c = default_big_choice(l, Variant::Giant, 4);
    let army = choose_big(&c).unwrap();
    assert_eq!(army.commands.len(), 4);
    let mut short = c.clone();
    short.commands[3].entries.truncate(3);
    short.commands[3].entries[2] = entry(0, &["4Bd", "4Bd", "4Bd"]);
    let p = problems(&short);
    assert!(p.contains(&BigArmyProblem::CommandTooSmall {
        command: CommandId(3),
        count: 5
    }));
    assert!(p.contains(&BigArmyProblem::ArmySize {
        count: 41,
        expected: 48
    }));
}

#[test]
fn s14_3_a_big_battle_and_a_giant_battle_start_from_list_ids() {
    // DBA3.md §14.1, §14.3: the armies of two lists, each command within 8 BW of its own
    // general, pass the battle's validation and play to a verdict.
    for v in [Variant::BigBattle, Variant::Giant] {
        let setup = big_battle_lists_setup(v, "II/56", "II/53").unwrap();
        assert_eq!(setup.armies[0].commands.len(), 3);
        let battle = Battle::new(setup.clone()).unwrap();
        assert!(battle.has_commands());
        let driven = dbcore::driver::play(setup, 1, 300).unwrap();
        assert!(driven.verdict.is_some(), "{v:?} undecided");
    }
    assert!(big_battle_lists_setup(Variant::BigBattle, "II/56", "IX/1").is_err());
}
