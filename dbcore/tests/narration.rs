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
