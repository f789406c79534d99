//! Big Battle camps: an allied command's own camp beside the army's, who may defend each, and
//! what each camp lost adds to which command (DBA3.md §14.3, §14.5, §4.6, §4.7).

use dbcore::battle::state::command_camp_followers_id;
use dbcore::battle::{
    Action, Battle, BattleSetup, CommandId, DiceRequest, ElementId, Event, MoveOrder,
    PipAllocation, SetupProblem,
};
use dbcore::battlefield::Variant;
use dbcore::driver::big_battle_setup;
use dbcore::geometry::{Polygon, Pose};

use crate::battle_common;
use battle_common::{d, rect};

/// The Roman allied command 0's camp, in mid-table so that the Britons can reach it at once.
fn allied_camp() -> Polygon {
    rect(9.0, 8.0, 11.0, 9.0)
}

/// The Romans' own camp, also in mid-table.
fn army_camp() -> Polygon {
    rect(19.0, 8.0, 21.0, 9.0)
}

/// The demonstration Big Battle with the Romans' command 0 allied, its own camp and the army's
/// camp in mid-table (a scenario may put camps anywhere), the Britons' camp behind their line,
/// and two British Psiloi (1009 of command 0, 1109 of command 1) brought 2.3 BW from the two Roman
/// camps.
fn camps_setup(followers: bool) -> BattleSetup {
    let mut s = big_battle_setup(Variant::BigBattle);
    let romans = &mut s.armies[0];
    romans.commands[0].allied = true;
    romans.commands[0].camp = Some(allied_camp());
    romans.commands[0].camp_followers = followers;
    romans.pip_allocation = Some(PipAllocation::Ranked {
        order: vec![CommandId(1), CommandId(2)],
    });
    romans.camp = Some(army_camp());
    let britons = &mut s.armies[1];
    britons.camp = Some(rect(14.0, 13.6, 16.0, 14.6));
    for e in &mut britons.elements {
        match e.id.0 {
            1009 => e.pose = Pose::new(9.8, 10.5, 180.0),
            1109 => e.pose = Pose::new(19.8, 10.5, 180.0),
            _ => {}
        }
    }
    s
}

fn problems(setup: BattleSetup) -> Vec<SetupProblem> {
    Battle::new(setup).unwrap_err().problems
}

/// The Romans' first bound passes; the Britons have rolled 6s and are moving.
fn britons_moving(followers: bool) -> Battle {
    let mut b = Battle::new(camps_setup(followers)).unwrap();
    b.apply(Action::RollCommandPips {
        dice: vec![d(1), d(1), d(1)],
    })
    .unwrap();
    b.apply(Action::EndMovement).unwrap();
    b.apply(Action::RollCommandPips {
        dice: vec![d(6), d(6), d(6)],
    })
    .unwrap();
    b
}

fn step_to(b: &mut Battle, id: u32, x: f64, y: f64) -> Vec<Event> {
    b.apply(Action::Move {
        order: MoveOrder::Element {
            id: ElementId(id),
            path: vec![Pose::new(x, y, 180.0)],
        },
    })
    .unwrap_or_else(|e| panic!("{id}: {e}"))
}

/// Each Roman command's camp-and-City losses, in command order.
fn camp_losses(b: &Battle) -> Vec<u32> {
    b.commands()
        .iter()
        .filter(|c| c.army == 0)
        .map(|c| b.losses_of_command(c).camps_and_cities)
        .collect()
}

#[test]
fn s14_3_an_allied_command_and_the_army_each_have_a_camp() {
    // DBA3.md §14.3: each allied command has its own camp, the army one normal camp.
    let b = Battle::new(camps_setup(true)).unwrap();
    let camps: Vec<(usize, Option<CommandId>)> =
        b.camp_refs().iter().map(|c| (c.army, c.command)).collect();
    assert_eq!(
        camps,
        vec![(0, None), (0, Some(CommandId(0))), (1, None)],
        "the army's camp first, then its allied commands'"
    );
    // The allied camp's fixed camp followers hold it; the army's empty camp is held by nobody.
    let held = b.held_strongholds();
    assert_eq!(held.len(), 1);
    assert_eq!(held[0].command, Some(CommandId(0)));
    assert_eq!(
        held[0].civilians,
        Some(command_camp_followers_id(0, CommandId(0)))
    );
    assert!(b.camp_followers_hold(0, Some(CommandId(0))));
    assert!(!b.camp_followers_hold(0, None));
}

#[test]
fn s14_3_only_an_allied_command_has_a_camp_of_its_own() {
    // DBA3.md §14.3: a non-allied command's camp is the army's; a standard army has no commands.
    let mut s = camps_setup(false);
    s.armies[0].commands[1].camp = Some(rect(24.0, 8.0, 26.0, 9.0));
    assert!(problems(s).contains(&SetupProblem::CommandCampRefused {
        army: "Romans".into(),
        command: CommandId(1),
    }));
    let mut s = dbcore::driver::demo_setup();
    s.armies[0].commands = big_battle_setup(Variant::BigBattle).armies[0].commands[..1].to_vec();
    s.armies[0].commands[0].camp = Some(rect(1.0, 0.5, 3.0, 1.5));
    let p = problems(s);
    assert!(p.contains(&SetupProblem::CommandCampRefused {
        army: "Romans".into(),
        command: CommandId(0),
    }));
}

#[test]
fn s14_3_every_allied_command_has_its_camp_once_the_set_up_has_camps() {
    // DBA3.md §14.3: an allied command "must be provided with its own camp"; a set-up with no
    // camp at all is a scenario without camps.
    let mut s = camps_setup(false);
    s.armies[0].commands[0].camp = None;
    assert_eq!(
        problems(s),
        vec![SetupProblem::AlliedCampMissing {
            army: "Romans".into(),
            command: CommandId(0),
        }]
    );
    let mut s = big_battle_setup(Variant::BigBattle);
    s.armies[0].commands[0].allied = true;
    s.armies[0].pip_allocation = Some(PipAllocation::Ranked {
        order: vec![CommandId(1), CommandId(2)],
    });
    assert!(Battle::new(s).is_ok());
}

#[test]
fn s14_3_s4_6_every_allied_camp_problem_is_reported_at_once() {
    // DBA3.md §4.6, §14.3, §17.52: size, on the table, one defender, and that defender of the
    // camp's own command, not El or SCh; the army's camp defended only by a non-allied command.
    let mut s = camps_setup(true);
    // Too long (3.5 + 1 > 4 BW) and partly off the table's south edge.
    s.armies[0].commands[0].camp = Some(rect(1.0, -0.5, 4.5, 0.5));
    // A Roman of command 1 stands in the allied camp beside its camp followers, and one of the
    // allied command 0 in the army's camp.
    for e in &mut s.armies[0].elements {
        match e.id.0 {
            101 => e.pose = Pose::new(2.0, 0.4, 0.0),
            3 => e.pose = Pose::new(20.0, 8.8, 0.0),
            _ => {}
        }
    }
    let p = problems(s);
    let allied = |p: &SetupProblem| {
        matches!(
            p,
            SetupProblem::AlliedCampSize { command: CommandId(0), length, .. } if *length > 3.4
        )
    };
    assert!(p.iter().any(allied), "{p:?}");
    assert!(p.contains(&SetupProblem::AlliedCampOffTable {
        army: "Romans".into(),
        command: CommandId(0),
    }));
    assert!(p.contains(&SetupProblem::AlliedCampDefenders {
        army: "Romans".into(),
        command: CommandId(0),
        count: 2,
    }));
    assert!(p.contains(&SetupProblem::CampDefenderNotEligible {
        army: "Romans".into(),
        command: Some(CommandId(0)),
        id: ElementId(101),
    }));
    assert!(p.contains(&SetupProblem::CampDefenderNotEligible {
        army: "Romans".into(),
        command: None,
        id: ElementId(3),
    }));
    // Each problem names its section.
    let e = Battle::new({
        let mut s = camps_setup(true);
        s.armies[0].commands[0].camp = Some(rect(1.0, -0.5, 4.5, 0.5));
        s
    })
    .unwrap_err();
    assert!(e.to_string().contains("§4.6"), "{e}");
}

#[test]
fn s14_3_an_allied_camp_is_defended_only_by_its_own_commands_element() {
    // DBA3.md §14.3, §17.52: an element of the camp's own command defends it; one of another
    // command standing in it does not (nor would El or SCh).
    let mut s = camps_setup(false);
    s.sandbox = true;
    for e in &mut s.armies[0].elements {
        if e.id.0 == 102 {
            e.pose = Pose::new(10.0, 8.8, 0.0);
        }
    }
    let b = Battle::new(s.clone()).unwrap();
    assert!(
        b.held_strongholds()
            .iter()
            .all(|h| h.command != Some(CommandId(0))),
        "a command-1 element does not hold command 0's camp"
    );
    for e in &mut s.armies[0].elements {
        match e.id.0 {
            102 => e.pose = Pose::new(11.0, 4.0, 0.0),
            2 => e.pose = Pose::new(10.0, 8.8, 0.0),
            _ => {}
        }
    }
    let b = Battle::new(s).unwrap();
    let held: Vec<_> = b
        .held_strongholds()
        .into_iter()
        .filter(|h| h.command == Some(CommandId(0)))
        .collect();
    assert_eq!(held.len(), 1);
    assert_eq!(held[0].defenders, Some(vec![ElementId(2)]));
    assert_eq!(held[0].civilians, None);
}

#[test]
fn s14_5_an_allied_camp_sacked_is_one_more_loss_to_that_command_only() {
    // DBA3.md §14.5, §17.44: an enemy entering the undefended allied camp sacks it; only the
    // allied command counts it.
    let mut b = britons_moving(false);
    let ev = step_to(&mut b, 1009, 10.0, 8.2);
    assert!(
        ev.contains(&Event::CampSacked {
            army: 0,
            command: Some(CommandId(0)),
        }),
        "{ev:?}"
    );
    assert!(b.camp_is_sacked(0, Some(CommandId(0))));
    assert!(!b.camp_is_sacked(0, None));
    assert_eq!(camp_losses(&b), vec![1, 0, 0]);
    // The state keeps it per camp, through the JSON.
    let json = serde_json::to_value(&b).unwrap();
    assert_eq!(json["commands"][0]["camp_sacked"], true);
    let back: Battle = serde_json::from_value(json).unwrap();
    assert_eq!(camp_losses(&back), vec![1, 0, 0]);
    // The narration names whose camp fell.
    let told = dbcore::battle::narrate::narrate(b.setup(), &ev).join("\n");
    assert!(
        told.contains("allied command 0's own camp is sacked"),
        "{told}"
    );
}

#[test]
fn s14_5_the_armys_camp_sacked_is_one_more_loss_to_each_non_allied_command() {
    // DBA3.md §14.5: "any other camp destroyed" counts for every non-allied command, not the
    // allied one.
    let mut b = britons_moving(false);
    let ev = step_to(&mut b, 1109, 20.0, 8.2);
    assert!(
        ev.contains(&Event::CampSacked {
            army: 0,
            command: None
        }),
        "{ev:?}"
    );
    assert_eq!(camp_losses(&b), vec![0, 1, 1]);
    // Both camps sacked: each command counts exactly its own share.
    step_to(&mut b, 1009, 10.0, 8.2);
    assert_eq!(camp_losses(&b), vec![1, 1, 1]);
    let replayed = Battle::replay(&b.record()).unwrap().0;
    assert_eq!(camp_losses(&replayed), vec![1, 1, 1]);
}

#[test]
fn s4_7_s14_3_an_allied_camps_followers_fight_for_it_and_their_loss_sacks_it() {
    // DBA3.md §4.6, §4.7, §14.3: the allied camp's fixed camp followers fight an assaulter in
    // front-edge contact (+2); Psiloi 2 + 6 beat them at 2 + 1, they are destroyed and the
    // Psiloi move in: the camp is sacked, one more loss to the allied command.
    let mut b = britons_moving(true);
    // Front edge on the camp's north side.
    step_to(&mut b, 1009, 10.0, 9.0);
    b.apply(Action::EndMovement).unwrap();
    let cf = command_camp_followers_id(0, CommandId(0));
    assert_eq!(
        b.awaiting(),
        Some(DiceRequest::Combat {
            pairs: vec![(ElementId(1009), cf)]
        })
    );
    let ev = b
        .apply(Action::Fight {
            a: ElementId(1009),
            b: cf,
            dice: [d(6), d(1)],
            recoil_own_depth: Vec::new(),
            c_in_c_bonus: Vec::new(),
        })
        .unwrap();
    assert!(ev.contains(&Event::CampFollowersDestroyed {
        army: 0,
        command: Some(CommandId(0)),
    }));
    assert!(ev.contains(&Event::CampSacked {
        army: 0,
        command: Some(CommandId(0)),
    }));
    assert!(!b.camp_followers_hold(0, Some(CommandId(0))));
    assert_eq!(camp_losses(&b), vec![1, 0, 0]);
}

#[test]
fn s14_3_the_picture_draws_every_camp_in_its_commands_colour_and_labelled() {
    // DBA3.md §14.3: the army's camp in its side's colour, the allied command's own camp in its
    // command's colour, each saying whose it is, and a sacked camp saying so.
    let mut b = britons_moving(false);
    step_to(&mut b, 1009, 10.0, 8.2);
    let svg = b.svg(false);
    let colour = dbcore::svg::COMMAND_COLOURS[0];
    assert!(
        svg.contains(r#"class="camp side-0 command-0""#),
        "the allied camp is drawn"
    );
    assert!(svg.contains(&format!(
        r#"stroke="{colour}" stroke-width="2.000" stroke-dasharray="6,3""#
    )));
    assert!(svg.contains("camp of command 0 (sacked)"));
    assert!(
        svg.contains(r#"class="camp side-0""#),
        "the army's camp too"
    );
    assert!(svg.contains(r#"class="camp side-1""#), "and the Britons'");
    assert_eq!(svg.matches(r#"class="camp-label""#).count(), 3);
}
