//! The narration tells a battle in correct English, with outcome moves told as what they are
//! (issue #11).

use dbcore::battle::narrate::{describe, narrate};
use dbcore::battle::outcome::Effect;
use dbcore::battle::{BattleSetup, ElementId, Event, Phase};

fn golden(name: &str) -> (BattleSetup, Vec<Event>) {
    let path = format!("{}/../tests/golden/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let setup: BattleSetup = serde_json::from_value(v["record"]["setup"].clone()).unwrap();
    let events: Vec<Event> = serde_json::from_value(v["events"].clone()).unwrap();
    (setup, events)
}

#[test]
fn pips_are_counted_in_english_and_the_verb_agrees() {
    let (mut setup, _) = golden("into_contact");
    let rolled = |pips: u8| Event::PipsRolled {
        army: 0,
        die: dbcore::DieScore::new(pips).unwrap(),
        pips,
    };
    setup.armies[0].name = "Romans".into();
    // DBA3.md §6.2: the PIP die.
    assert_eq!(describe(&setup, &rolled(1)), "the Romans roll 1 PIP");
    assert_eq!(describe(&setup, &rolled(4)), "the Romans roll 4 PIPs");
    setup.armies[0].name = "South".into();
    assert_eq!(describe(&setup, &rolled(1)), "South rolls 1 PIP");
    assert_eq!(
        describe(
            &setup,
            &Event::PhaseStarted {
                phase: Phase::CloseCombat
            }
        ),
        "Close combat:"
    );
}

#[test]
fn outcome_moves_are_told_as_recoils_flights_and_pursuits() {
    // DBA3.md §12: the loser recoils or flees; some winners pursue.
    let mut told = Vec::new();
    let mut named = 0;
    for name in [
        "whole_battle_seed_1",
        "whole_battle_seed_2",
        "whole_battle_seed_3",
        "whole_game_II_56_v_II_53",
        "whole_game_I_2a_v_I_6a",
    ] {
        let (setup, events) = golden(name);
        let lines = narrate(&setup, &events);
        assert_eq!(lines.len(), events.len());
        // Every outcome move of an element in the last combat is named: a recoil, a flight or
        // a pursuit, never the bare "moves".
        let mut in_combat: Vec<ElementId> = Vec::new();
        for (e, line) in events.iter().zip(&lines) {
            match e {
                Event::Fought { a, b, .. } => in_combat = vec![*a, *b],
                Event::Shot {
                    shooter, target, ..
                } => in_combat = vec![*shooter, *target],
                Event::Outcome {
                    effect: Effect::Moved { id, .. },
                } if in_combat.contains(id) => {
                    assert!(
                        [" recoils ", " flees ", " pursues "]
                            .iter()
                            .any(|v| line.contains(v)),
                        "{name}: {line}"
                    );
                    named += 1;
                }
                _ => {}
            }
        }
        told.extend(lines);
    }
    assert!(named > 0);
    let all = told.join("\n");
    assert!(all.contains(" recoils 0.50 BW"), "{all}");
    assert!(all.contains(" pursues "), "{all}");
    assert!(!all.contains(" 1 PIPs"), "{all}");
    assert!(
        !all.contains("AwaitingPips") && !all.contains("CloseCombat"),
        "{all}"
    );
}

#[test]
fn s14_big_battle_commands_are_told_with_their_dice_and_demoralisation() {
    // DBA3.md §14.4: a PIP die per command; §14.5: a command that has lost a third is
    // demoralised and its elements flee, one that has lost half leaves the table.
    let (setup, events) = golden("big_battle_seed_1");
    let lines = narrate(&setup, &events);
    let has = |want: &str| lines.iter().any(|l| l == want);
    assert!(
        has("the Romans roll their PIP dice: 2 PIPs for command 0, 5 PIPs for command 1, 2 PIPs for command 2"),
        "{:?}",
        &lines[..6]
    );
    assert!(has("the Romans roll their PIP dice: 3 PIPs for command 0, 6 PIPs for command 1, 1 PIP for command 2"));
    assert!(has(
        "The Britons' command 1 is demoralised: 5 of its 12 elements lost (§14.5)"
    ));
    assert!(has(
        "The Britons' command 1 has lost 9 of its 12 elements and leaves the table (§14.5)"
    ));
    // The demoralised command's elements flee at the start of their bound.
    assert!(has("    Britons Ps #1109 flees 3.00 BW"));
    assert!(!has("    Britons Ps #1109 moves 3.00 BW"));
}

#[test]
fn s11_a_combat_line_gives_each_total_with_its_die_and_factors_then_only_what_happens() {
    // DBA3.md §10, §11: totals are the die plus the factors; the beaten side recoils.
    let (setup, events) = golden("whole_battle_seed_1");
    let lines = narrate(&setup, &events);
    let want = "  combat: Romans 4Bd #3 9 (die 5, +5 combat factor vs foot, -1 flank or rear \
                overlapped or contacted) v Britons 3Wb #103 6 (die 3, +3 combat factor vs foot): \
                Britons 3Wb #103 recoils";
    assert!(lines.iter().any(|l| l == want), "{want}");
    // Equal totals: nobody gives ground, and the line says so.
    assert!(lines.iter().any(|l| l
        == "  combat: Romans Ps #10 3 (die 1, +2 combat factor vs foot) v Britons Ps #111 3 \
            (die 1, +2 combat factor vs foot): no effect on either"));
    assert!(lines
        .iter()
        .all(|l| !l.contains(") vs ") && !l.contains("no effect,")));
}

#[test]
fn camps_cities_and_landings_are_told_with_the_verb_agreeing_and_counted_in_english() {
    // DBA3.md §4.2, §4.6, §5.5.
    let (mut setup, _) = golden("into_contact");
    setup.armies[0].name = "Romans".into();
    setup.armies[1].name = "South".into();
    let told = |e: Event| describe(&setup, &e);
    assert_eq!(
        told(Event::CampSacked {
            army: 0,
            command: None
        }),
        "  the Romans' camp is sacked"
    );
    assert_eq!(
        told(Event::CampFollowersDestroyed {
            army: 1,
            command: None
        }),
        "  South's camp followers are destroyed"
    );
    assert_eq!(
        told(Event::CityCaptured {
            city: 3,
            by: 1,
            sacker: Some(ElementId(104))
        }),
        "  South takes the City (feature 3): element #104 sacks it"
    );
    assert_eq!(
        told(Event::CityCaptured {
            city: 3,
            by: 0,
            sacker: None
        }),
        "  the Romans occupy the City (feature 3)"
    );
    assert_eq!(
        told(Event::NotLanded {
            army: 1,
            ids: vec![ElementId(7)]
        }),
        "  South's 1 element held back never lands and is lost"
    );
    assert_eq!(
        told(Event::NotLanded {
            army: 0,
            ids: vec![ElementId(7), ElementId(8)]
        }),
        "  the Romans' 2 elements held back never land and are lost"
    );
    assert_eq!(
        told(Event::Landed {
            army: 1,
            moves: Vec::new()
        }),
        "  South lands 0 elements from the sea"
    );
}

#[test]
fn s5_the_pre_battle_is_told_with_game_names_and_verbs_agreeing() {
    // DBA3.md §5.1, §5.2, §3.7, §3.8: roles, features, base edges and the first bound.
    use dbcore::battle::prebattle::{describe as tell, PrebattleEvent};
    use dbcore::battle::{ArmyEntry, PrebattleSetup};
    use dbcore::battlefield::BoardEdge;
    use dbcore::terrain::{FeatureType, HomeTerrain};
    let army = |name: &str| ArmyEntry {
        name: name.into(),
        aggression: 2,
        home_terrain: HomeTerrain::Arable,
        littoral: false,
        elements: Vec::new(),
        commands: Vec::new(),
    };
    let setup = PrebattleSetup::new(vec![army("Romans"), army("Ancient British Army (II/53)")]);
    let told = |e: PrebattleEvent| tell(&setup, &e);
    assert_eq!(
        told(PrebattleEvent::RolesDecided {
            defender: 1,
            invader: 0
        }),
        "Ancient British Army (II/53) defends, the Romans invade"
    );
    assert_eq!(
        told(PrebattleEvent::FeaturesChosen {
            order: vec![
                FeatureType::DifficultHill,
                FeatureType::Rocky,
                FeatureType::River
            ]
        }),
        "The defender chooses, in placing order: difficult hill, rocky ground, river"
    );
    assert_eq!(
        told(PrebattleEvent::BaseEdgesChosen {
            invader: BoardEdge::West,
            defender: BoardEdge::East
        }),
        "The invader takes the west edge, the defender the east edge"
    );
    assert_eq!(
        told(PrebattleEvent::DeploymentEnded { army: 0 }),
        "The Romans have deployed"
    );
    assert_eq!(
        told(PrebattleEvent::DeploymentEnded { army: 1 }),
        "Ancient British Army (II/53) has deployed"
    );
    assert_eq!(
        told(PrebattleEvent::BattleReady { first: 0 }),
        "The battle begins with the Romans' bound"
    );
    assert_eq!(
        told(PrebattleEvent::BattleReady { first: 1 }),
        "The battle begins with Ancient British Army (II/53)'s bound"
    );
}

#[test]
fn s14_4_plough_turning_rough_is_told_by_the_rule_of_the_variant() {
    // DBA3.md §14.4, §17.7b: in Big Battle plough turns rough on the first bound's PIP total
    // (below 8 by default), not on a first score of 1 as in the standard game (§3.1).
    let (mut setup, _) = golden("big_battle_seed_1");
    assert_eq!(
        describe(&setup, &Event::PloughTurnedRough),
        "the first bound's PIP total is under 8: plough is rough going"
    );
    let (standard, _) = golden("whole_battle_seed_1");
    assert_eq!(
        describe(&standard, &Event::PloughTurnedRough),
        "the first PIP score is 1: plough is rough going"
    );
    setup.config.pips.big_battle_plough_below = 10;
    assert_eq!(
        describe(&setup, &Event::PloughTurnedRough),
        "the first bound's PIP total is under 10: plough is rough going"
    );
}
