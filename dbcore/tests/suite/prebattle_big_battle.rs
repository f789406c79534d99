//! The pre-battle of Big Battle and Giant DBA (DBA3.md §14.2, §14.3, §14.4, §14.6): the same
//! typed steps as the standard game, with commands. Refusals name their rule and change nothing.

use dbcore::battle::prebattle::{
    element_id, ArmyEntry, DeploymentProblem, EntryCommand, EntryElement, EntryProblem, Prebattle,
    PrebattleAction as A, PrebattleError as Err, PrebattleEvent as E, PrebattleRequest,
    PrebattleSetup, Step,
};
use dbcore::battle::{validate, CommandId, PipAllocation};
use dbcore::battlefield::{BoardEdge, Variant};
use dbcore::driver::{play_big_lists, prebattle_choice};
use dbcore::geometry::Pose;
use dbcore::terrain::{FeatureType as F, HomeTerrain};
use dbcore::{DieScore, ErrorInfo, SeededDice};

const KINDS: [&str; 12] = [
    "Cv", "4Bd", "4Bd", "4Bd", "4Bd", "4Bd", "4Bd", "4Ax", "4Ax", "Ps", "LH", "4Bw",
];

fn d(n: u8) -> DieScore {
    DieScore::new(n).unwrap()
}

/// Three commands of twelve listed directly, command 0 the C-in-C's; command 2 allied if asked.
fn army(name: &str, aggression: u8, home: HomeTerrain, allied: bool) -> ArmyEntry {
    let mut elements = Vec::new();
    for _ in 0..3 {
        for (i, k) in KINDS.iter().enumerate() {
            elements.push(EntryElement {
                general: i == 0,
                ..EntryElement::new(k.parse().unwrap())
            });
        }
    }
    ArmyEntry {
        name: name.into(),
        aggression,
        home_terrain: home,
        littoral: false,
        elements,
        commands: (0..3)
            .map(|c| EntryCommand {
                id: CommandId(c as u8),
                general: c * 12,
                elements: (c * 12..c * 12 + 12).collect(),
                allied: allied && c == 2,
                c_in_c: c == 0,
                littoral: false,
            })
            .collect(),
    }
}

fn setup(variant: Variant, allied: bool) -> PrebattleSetup {
    let mut s = PrebattleSetup::new(vec![
        army("Defenders", 0, HomeTerrain::Hilly, allied),
        army("Invaders", 4, HomeTerrain::Steppe, false),
    ]);
    s.variant = variant;
    s
}

/// Army 0 defends (§5.1: totals 1 against 5).
fn defended(variant: Variant, allied: bool) -> Prebattle {
    let mut pre = Prebattle::new(setup(variant, allied)).unwrap();
    pre.apply(A::RollAggression {
        dice: vec![d(1), d(1)],
    })
    .unwrap();
    pre
}

/// Let the demonstration driver answer every request until `stop` holds.
fn drive_until(pre: &mut Prebattle, dice: &mut SeededDice, stop: impl Fn(&Prebattle) -> bool) {
    for _ in 0..10_000 {
        if stop(pre) {
            return;
        }
        let req = pre.awaiting().expect("the pre-battle is not finished");
        let a = prebattle_choice(pre, &req, dice).unwrap();
        pre.apply(a).unwrap();
    }
    panic!("the driver never reached the step");
}

fn refused(pre: &mut Prebattle, a: A, rule: &str) -> Err {
    let before = pre.clone();
    let e = pre.apply(a).expect_err("the action should be refused");
    assert_eq!(e.rule(), Some(rule), "{e}");
    assert_eq!(*pre, before, "a refusal changes nothing");
    e
}

#[test]
fn s14_2_the_boards_are_wider_and_giant_may_be_deeper() {
    // DBA3.md §14.2: a Big Battle board is twice as wide, as deep (30 x 15 BW).
    let pre = Prebattle::new(setup(Variant::BigBattle, false)).unwrap();
    let b = pre.battlefield().board;
    assert_eq!((b.width, b.depth), (30.0, 15.0));
    // DBA3.md §14.6: Giant three times as wide, optionally up to half as deep again.
    let pre = Prebattle::new(setup(Variant::Giant, false)).unwrap();
    let b = pre.battlefield().board;
    assert_eq!((b.width, b.depth), (45.0, 15.0));
    let mut s = setup(Variant::Giant, false);
    s.depth_factor = 1.5;
    let b = Prebattle::new(s).unwrap().battlefield().board;
    assert_eq!((b.width, b.depth), (45.0, 22.5));
    // Deeper than half again, or a deeper Big Battle board, is refused.
    for (variant, factor) in [(Variant::Giant, 1.6), (Variant::BigBattle, 1.5)] {
        let mut s = setup(variant, false);
        s.depth_factor = factor;
        match Prebattle::new(s).unwrap_err() {
            Err::Entries { problems } => {
                assert!(problems.contains(&EntryProblem::DepthFactor { factor }))
            }
            other => panic!("{other}"),
        }
    }
}

#[test]
fn s14_1_entering_armies_are_checked_by_command() {
    // DBA3.md §14.1: a Big Battle army is in commands, each under its own general; every
    // problem is reported at once.
    let mut s = setup(Variant::BigBattle, false);
    s.armies[1].commands.clear();
    s.armies[0].commands[1].general = 13; // a 4Bd, not a general's element
    match Prebattle::new(s).unwrap_err() {
        e @ Err::Entries { .. } => {
            let text = e.to_string();
            assert!(text.contains("§14.1"), "{text}");
            let Err::Entries { problems } = e else {
                unreachable!()
            };
            let Some(EntryProblem::Commands { problems }) = problems.first() else {
                panic!("{problems:?}")
            };
            assert!(problems.len() >= 2, "{problems:?}");
        }
        other => panic!("{other}"),
    }
    // A standard army lists no commands.
    let mut s = setup(Variant::BigBattle, false);
    s.variant = Variant::Standard;
    assert!(Prebattle::new(s).is_err());
}

#[test]
fn s14_2_terrain_counts_of_big_battle_and_giant() {
    // DBA3.md §14.2: Big Battle compulsory 1-3, optional 2-4, maxima as standard.
    let mut pre = defended(Variant::BigBattle, false);
    let three = A::ChooseFeatures {
        compulsory: vec![F::DifficultHill; 3],
        optional: vec![F::River, F::Wood, F::Road, F::Bua, F::Wood],
    };
    refused(&mut pre, three, "§3.7");
    pre.apply(A::ChooseFeatures {
        compulsory: vec![F::DifficultHill; 3],
        optional: vec![F::River, F::Wood, F::Road, F::Bua],
    })
    .unwrap();
    // The same choice is too many compulsory features in a standard game (§3.7).
    let mut std = Prebattle::new({
        let mut s = setup(Variant::BigBattle, false);
        s.variant = Variant::Standard;
        for a in &mut s.armies {
            a.elements.truncate(12);
            a.commands.clear();
        }
        s
    })
    .unwrap();
    std.apply(A::RollAggression {
        dice: vec![d(1), d(1)],
    })
    .unwrap();
    refused(
        &mut std,
        A::ChooseFeatures {
            compulsory: vec![F::DifficultHill; 3],
            optional: vec![F::River, F::Wood],
        },
        "§3.7",
    );
    // DBA3.md §14.6: Giant compulsory 1-4, optional 3-6, at most 4 of one type.
    let mut giant = defended(Variant::Giant, false);
    refused(
        &mut giant,
        A::ChooseFeatures {
            compulsory: vec![F::DifficultHill; 4],
            optional: vec![F::River, F::DifficultHill],
        },
        "§3.7",
    );
    giant
        .apply(A::ChooseFeatures {
            compulsory: vec![F::DifficultHill; 4],
            optional: vec![F::River, F::Wood, F::Wood, F::Wood, F::Wood, F::Road],
        })
        .unwrap();
}

#[test]
fn s14_3_the_invader_takes_a_long_side() {
    // DBA3.md §14.3: the invader chooses a long side as base edge, the defender the opposite.
    for variant in [Variant::BigBattle, Variant::Giant] {
        let mut pre = defended(variant, false);
        let mut dice = SeededDice::new(3);
        drive_until(&mut pre, &mut dice, |p| {
            matches!(p.step(), Step::BaseEdge { .. })
        });
        let Some(PrebattleRequest::BaseEdge { allowed, .. }) = pre.awaiting() else {
            panic!()
        };
        assert!(!allowed.is_empty());
        assert!(allowed
            .iter()
            .all(|e| matches!(e, BoardEdge::South | BoardEdge::North)));
        refused(
            &mut pre,
            A::ChooseBaseEdge {
                edge: BoardEdge::West,
            },
            "§5.2",
        );
        let ev = pre.apply(A::ChooseBaseEdge { edge: allowed[0] }).unwrap();
        assert_eq!(
            ev,
            vec![E::BaseEdgesChosen {
                invader: allowed[0],
                defender: allowed[0].opposite()
            }]
        );
    }
}

#[test]
fn s14_4_the_pip_ranking_is_declared_after_terrain_and_base_edges() {
    // DBA3.md §14.4: after terrain and base edges each player declares which non-allied
    // command always gets the highest, the middle and the lowest die.
    let mut pre = defended(Variant::BigBattle, true);
    let mut dice = SeededDice::new(5);
    drive_until(&mut pre, &mut dice, |p| {
        matches!(p.step(), Step::PipAllocation { .. })
    });
    assert_eq!(pre.step(), Step::PipAllocation { army: 0 });
    assert!(pre.base_edge(0).is_some(), "base edges come first");
    assert_eq!(
        pre.awaiting(),
        Some(PrebattleRequest::PipAllocation {
            army: 0,
            ranked: vec![CommandId(0), CommandId(1)],
            each_rolls_allowed: false,
        })
    );
    // Only Giant lets every general roll (§14.6); the allied command keeps its own die.
    refused(
        &mut pre,
        A::DeclarePipAllocation {
            allocation: PipAllocation::EachRolls,
        },
        "§14.4",
    );
    refused(
        &mut pre,
        A::DeclarePipAllocation {
            allocation: PipAllocation::Ranked {
                order: vec![CommandId(2), CommandId(0), CommandId(1)],
            },
        },
        "§14.4",
    );
    let ranked = PipAllocation::Ranked {
        order: vec![CommandId(1), CommandId(0)],
    };
    pre.apply(A::DeclarePipAllocation {
        allocation: ranked.clone(),
    })
    .unwrap();
    assert_eq!(pre.step(), Step::PipAllocation { army: 1 });
    // DBA3.md §14.6: a Giant C-in-C may have every general roll his own die.
    let mut giant = defended(Variant::Giant, false);
    drive_until(&mut giant, &mut dice, |p| {
        matches!(p.step(), Step::PipAllocation { .. })
    });
    giant
        .apply(A::DeclarePipAllocation {
            allocation: PipAllocation::EachRolls,
        })
        .unwrap();
    // The declarations end in the battle's set-up.
    drive_until(&mut pre, &mut dice, |p| p.step() == Step::Done);
    let s = pre.battle_setup().unwrap();
    assert_eq!(s.armies[0].pip_allocation, Some(ranked));
    assert!(validate(&s).is_empty(), "{:?}", validate(&s));
}

#[test]
fn s14_3_an_allied_command_has_its_own_camp() {
    // DBA3.md §14.3: each allied command has its own camp, placed with the army's camps.
    let mut pre = defended(Variant::BigBattle, true);
    let mut dice = SeededDice::new(7);
    drive_until(&mut pre, &mut dice, |p| {
        matches!(
            p.step(),
            Step::Camp {
                command: Some(_),
                ..
            }
        )
    });
    assert_eq!(
        pre.step(),
        Step::Camp {
            army: 0,
            command: Some(CommandId(2))
        }
    );
    assert!(pre.camp(0).is_some(), "the army's camp comes first");
    refused(&mut pre, A::NoCamp, "§4.6");
    // The same §4.6 checks: not overlapping the army's camp.
    let army_camp = pre.camp(0).unwrap().clone();
    let e = refused(
        &mut pre,
        A::PlaceCamp {
            outline: army_camp,
            camp_followers: true,
        },
        "§4.6",
    );
    assert!(e.to_string().contains("overlaps"), "{e}");
    drive_until(&mut pre, &mut dice, |p| p.step() == Step::Done);
    let s = pre.battle_setup().unwrap();
    let allied = &s.armies[0].commands[2];
    assert!(allied.allied && allied.camp.is_some());
    assert!(s.armies[0].commands[0].camp.is_none());
    assert!(validate(&s).is_empty(), "{:?}", validate(&s));
}

/// Drive to the defender's deployment (army 0 defends).
fn deploying(seed: u64) -> (Prebattle, SeededDice) {
    let mut pre = defended(Variant::BigBattle, false);
    let mut dice = SeededDice::new(seed);
    drive_until(&mut pre, &mut dice, |p| {
        matches!(p.step(), Step::Deployment { .. })
    });
    (pre, dice)
}

/// The driver's next action, applied, while it places an element of `command` of `army`.
fn deploy_command(pre: &mut Prebattle, dice: &mut SeededDice, army: usize, command: usize) {
    loop {
        let req = pre.awaiting().unwrap();
        let a = prebattle_choice(pre, &req, dice).unwrap();
        let A::Deploy { id, .. } = a else { return };
        let index = (id.0 as usize - 1) % 100;
        if index / 12 != command || army != (id.0 as usize - 1) / 100 {
            return;
        }
        pre.apply(a).unwrap();
    }
}

#[test]
fn s14_3_elements_deploy_within_8_bw_of_their_general() {
    // DBA3.md §14.3: every element not in a City, Fort or camp within 8 BW of its own
    // command's general.
    let (mut pre, mut dice) = deploying(11);
    let req = pre.awaiting().unwrap();
    let a = prebattle_choice(&pre, &req, &mut dice).unwrap();
    let A::Deploy { id, pose } = a.clone() else {
        panic!("{a:?}")
    };
    assert_eq!(id, element_id(0, 0), "the driver places the general first");
    pre.apply(a).unwrap();
    // An element of his command 10 BW along the line from him.
    let x = if pose.x > 15.0 {
        pose.x - 10.0
    } else {
        pose.x + 10.0
    };
    let far = A::Deploy {
        id: element_id(0, 1),
        pose: Pose::new(x, pose.y, pose.facing),
    };
    let before = pre.clone();
    let e = pre.apply(far).unwrap_err();
    assert_eq!(pre, before);
    let Err::Deployment { problems } = e else {
        panic!("{e}")
    };
    assert!(
        problems
            .iter()
            .any(|p| matches!(p, DeploymentProblem::FarFromGeneral { other, .. } if *other == element_id(0, 0))),
        "{problems:?}"
    );
    // An element of another command may stand there: it is near its own general only.
    deploy_command(&mut pre, &mut dice, 0, 0);
}

#[test]
fn s14_3_deployment_by_command_alternating() {
    // DBA3.md §14.3: the defender sets out one or more commands, then the sides alternate
    // placing one command each.
    let (mut pre, mut dice) = deploying(13);
    refused(&mut pre, A::EndDeployment, "§14.3");
    deploy_command(&mut pre, &mut dice, 0, 0);
    let ev = pre.apply(A::EndDeployment).unwrap();
    assert_eq!(
        ev,
        vec![E::CommandsDeployed {
            army: 0,
            commands: vec![CommandId(0)]
        }]
    );
    assert!(pre.alternating());
    assert_eq!(pre.step(), Step::Deployment { army: 1 });
    // The invader sets out one command; a second before ending the turn is refused.
    deploy_command(&mut pre, &mut dice, 1, 0);
    let req = pre.awaiting().unwrap();
    let next = prebattle_choice(&pre, &req, &mut dice).unwrap();
    assert_eq!(next, A::EndDeployment, "the driver ends the turn too");
    let second = A::Deploy {
        id: element_id(1, 12),
        pose: Pose::new(15.0, 12.0, 180.0),
    };
    refused(&mut pre, second, "§14.3");
    pre.apply(A::EndDeployment).unwrap();
    assert_eq!(pre.step(), Step::Deployment { army: 0 });
    // And so on to the end: the defender still has the first bound (§5.3).
    drive_until(&mut pre, &mut dice, |p| p.step() == Step::Done);
    assert_eq!(pre.deployed_commands(0).len(), 3);
    let s = pre.battle_setup().unwrap();
    assert_eq!(s.first, 0);
    assert!(validate(&s).is_empty(), "{:?}", validate(&s));
}

#[test]
fn s14_3_deployment_by_command_army_by_army() {
    // DBA3.md §14.3: or the defender sets out every command and then the invader his.
    let (mut pre, mut dice) = deploying(17);
    for c in 0..3 {
        deploy_command(&mut pre, &mut dice, 0, c);
    }
    let ev = pre.apply(A::EndDeployment).unwrap();
    assert_eq!(
        ev,
        vec![
            E::CommandsDeployed {
                army: 0,
                commands: vec![CommandId(0), CommandId(1), CommandId(2)]
            },
            E::DeploymentEnded { army: 0 }
        ]
    );
    assert!(!pre.alternating());
    assert_eq!(pre.step(), Step::Deployment { army: 1 });
}

#[test]
fn s14_whole_big_battle_and_giant_games_from_lists_replay() {
    // DBA3.md §14.2-§14.4: a whole game from two list ids through the pre-battle; the record
    // replays to the same events and the set-up lists the commands and their dice.
    for variant in [Variant::BigBattle, Variant::Giant] {
        let g = play_big_lists(variant, "II/56", "II/53", 1, 6).unwrap();
        assert_eq!(g.setup.variant, variant);
        for a in &g.setup.armies {
            assert_eq!(a.commands.len(), 3);
            assert_eq!(a.elements.len(), 36);
            assert!(a.pip_allocation.is_some());
        }
        let r = g.record.replay().unwrap();
        assert_eq!(r.prebattle_events, g.prebattle_events);
        assert_eq!(r.events, g.events);
        let json = serde_json::to_string(&g.record).unwrap();
        let back: dbcore::battle::GameRecord = serde_json::from_str(&json).unwrap();
        assert_eq!(back, g.record);
    }
}

/// A Big Battle whose defender (army 0) is a Littoral army, at its deployment with a waterway
/// on the table.
fn littoral_deploying(seed: u64) -> (Prebattle, SeededDice) {
    let mut s = setup(Variant::BigBattle, false);
    s.armies[0].home_terrain = HomeTerrain::Littoral;
    s.armies[0].littoral = true;
    let mut pre = Prebattle::new(s).unwrap();
    pre.apply(A::RollAggression {
        dice: vec![d(1), d(1)],
    })
    .unwrap();
    let mut dice = SeededDice::new(seed);
    drive_until(&mut pre, &mut dice, |p| {
        matches!(p.step(), Step::Deployment { .. })
    });
    assert!(pre
        .battlefield()
        .features
        .iter()
        .any(|f| matches!(f, dbcore::terrain::TerrainFeature::Waterway(_))));
    (pre, dice)
}

#[test]
fn s14_3_a_littoral_landing_is_a_whole_command() {
    // DBA3.md §14.3: a littoral landing is by a whole command of a Littoral army.
    let (mut pre, mut dice) = littoral_deploying(19);
    for i in 12..23 {
        pre.apply(A::HoldBack {
            id: element_id(0, i),
        })
        .unwrap();
    }
    // An element of another command may not be held back with them.
    refused(
        &mut pre,
        A::HoldBack {
            id: element_id(0, 0),
        },
        "§5.5",
    );
    // The rest deployed (the last of command 1 with them), the turn may not end with the
    // command partly held back.
    loop {
        let req = pre.awaiting().unwrap();
        let a = prebattle_choice(&pre, &req, &mut dice).unwrap();
        if a == A::EndDeployment {
            break;
        }
        pre.apply(a).unwrap();
    }
    refused(&mut pre, A::EndDeployment, "§5.5");

    // The whole command held back: the battle's set-up lands it in the first bound.
    let (mut pre, mut dice) = littoral_deploying(19);
    for i in 12..24 {
        pre.apply(A::HoldBack {
            id: element_id(0, i),
        })
        .unwrap();
    }
    drive_until(&mut pre, &mut dice, |p| p.step() == Step::Done);
    let s = pre.battle_setup().unwrap();
    assert_eq!(s.held_back.len(), 12);
    assert!(validate(&s).is_empty(), "{:?}", validate(&s));
}

#[test]
fn s14_the_drivers_pre_battle_always_gives_a_valid_set_up() {
    // DBA3.md §14.2, §14.3: on either board (Giant also at its full depth, 45 x 22.5 BW) the
    // driver's terrain, camps and deployment by command pass the battle's own set-up checks.
    for (seed, variant, depth) in [
        (2, Variant::BigBattle, 1.0),
        (3, Variant::Giant, 1.5),
        (4, Variant::BigBattle, 1.0),
        (5, Variant::Giant, 1.0),
    ] {
        let mut s = PrebattleSetup::from_big_lists(variant, "II/56", "II/53").unwrap();
        s.depth_factor = depth;
        let mut pre = Prebattle::new(s).unwrap();
        dbcore::driver::play_prebattle(&mut pre, &mut SeededDice::new(seed)).unwrap();
        let setup = pre.battle_setup().expect("the pre-battle is done");
        assert_eq!(setup.battlefield.board.depth, 15.0 * depth);
        assert!(
            validate(&setup).is_empty(),
            "{seed}: {:?}",
            validate(&setup)
        );
        dbcore::battle::Battle::new(setup).unwrap();
    }
}
