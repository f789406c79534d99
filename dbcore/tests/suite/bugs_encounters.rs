//! BUGS! encounters: the objectives of the three scenarios and whole games played by the
//! demonstration player (BUGS.md §15; reading R44).

use dbcore::bugs::{
    narrate, play, svg, Edge, Encounter, EncounterKind, Event, FigureId, FigureStatus, Outcome,
    Sheet,
};

use crate::bugs_support::*;

fn ended(ev: &[Event]) -> Option<dbcore::bugs::Verdict> {
    ev.iter().find_map(|e| match e {
        Event::EncounterEnded { verdict } => Some(verdict.clone()),
        _ => None,
    })
}

fn escort(citizen_at: (f64, f64)) -> Encounter {
    let mut s = open_table(vec![
        fig(1, Sheet::Soldier, 18.0, 33.0, 0.0),
        fig(2, Sheet::Citizen, citizen_at.0, citizen_at.1, 0.0),
        fig(3, Sheet::BigUn, 18.0, 3.0, 0.0),
    ]);
    s.encounter = EncounterKind::Escort { goal: Edge::North };
    s.turn_limit = Some(5);
    Encounter::new(s).unwrap()
}

// BUGS.md §15 and reading R44: the escort ends when no human is on the table, a success when
// every citizen left by the goal edge.
#[test]
fn the_escort_succeeds_when_every_citizen_leaves_by_the_goal_edge() {
    let mut e = escort((20.0, 33.0));
    go(&mut e, stay(3));
    let ev = go(&mut e, move_to(1, &[(18.0, 36.5)]));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Exited {
            figure: FigureId(1),
            edge: Edge::North
        }
    )));
    let ev = go(&mut e, move_to(2, &[(20.0, 36.5)]));
    let v = ended(&ev).expect("no human is left");
    assert_eq!(
        (v.outcome, v.citizens_safe, v.turn),
        (Some(Outcome::Success), 1, 1)
    );
    assert!(e.is_over() && e.need().is_none() && e.legal_actions().is_empty());
    assert!(e.apply(stay(3)).is_err());
}

// Reading R44: a citizen leaving by another edge is not safe.
#[test]
fn the_escort_fails_when_a_citizen_leaves_elsewhere() {
    let mut e = escort((34.0, 20.0));
    go(&mut e, stay(3));
    go(&mut e, move_to(1, &[(18.0, 36.5)]));
    let ev = go(&mut e, move_to(2, &[(36.5, 20.0)]));
    let v = ended(&ev).unwrap();
    assert_eq!(
        (v.outcome, v.citizens_safe, v.humans.exited),
        (Some(Outcome::Failure), 0, 2)
    );
}

// BUGS.md §15 and reading R44: the settlement holds if no citizen is killed or runs off by the
// turn limit.
#[test]
fn the_defence_is_judged_at_the_turn_limit() {
    let mut s = open_table(vec![
        fig(1, Sheet::Soldier, 18.0, 18.0, 0.0),
        fig(2, Sheet::Citizen, 20.0, 18.0, 0.0),
        fig(3, Sheet::BigUn, 18.0, 30.0, 180.0),
    ]);
    s.encounter = EncounterKind::Defend;
    s.turn_limit = Some(1);
    let mut e = Encounter::new(s.clone()).unwrap();
    to_the_end(&mut e);
    let v = e.verdict();
    assert_eq!((v.over, v.outcome), (true, Some(Outcome::Success)));
    // A citizen that ran off is lost.
    let e = Encounter::new(s).unwrap();
    let i = at_index(&e, 2);
    let mut e = edit(&e, |v| {
        v["figures"][i]["running"] = true.into();
        v["figures"][i]["will"] = 0.into();
        v["figures"][i]["at"]["x"] = 34.0.into();
    });
    go(&mut e, stay(3));
    let ev = go(&mut e, stay(1));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::RanOff {
            figure: FigureId(2),
            ..
        }
    )));
    let v = ended(&ev).unwrap();
    assert_eq!(v.outcome, Some(Outcome::Failure));
    assert_eq!(v.citizens.run_off, 1);
}

// BUGS.md §15 and reading R44: the raid succeeds when at the end no bug is on the table and no
// hole owes bugs.
#[test]
fn the_raid_is_won_by_clearing_the_bugs() {
    let mut s = open_table(vec![
        fig(1, Sheet::Soldier, 18.0, 10.0, 0.0),
        fig(2, Sheet::BigUn, 18.0, 20.0, 180.0),
    ]);
    s.turn_limit = Some(1);
    let mut e = Encounter::new(s.clone()).unwrap();
    go(&mut e, stay(2));
    go(&mut e, still(1));
    go(&mut e, fire(1, &[2]));
    go(&mut e, roll(&[1, 1]));
    go(&mut e, roll(&[1, 1, 1]));
    go(&mut e, roll(&[5, 5]));
    go(&mut e, roll(&[6, 6]));
    // The big un is dead; the encounter step rolls for a new hole: a 12 opens none.
    let ev = go(&mut e, roll(&[6, 6]));
    assert_eq!(ended(&ev).unwrap().outcome, Some(Outcome::Success));
    // A bug left standing at the limit: failure.
    let mut e = Encounter::new(s).unwrap();
    go(&mut e, stay(2));
    let ev = go(&mut e, stay(1));
    assert_eq!(ended(&ev).unwrap().outcome, Some(Outcome::Failure));
}

// BUGS.md §15: each encounter plays whole from a seed and the synthetic tables; the same seed
// gives the same game; its record replays to the same events; its narration and picture are
// made.
#[test]
fn whole_encounters_from_a_seed() {
    for k in 1..=3 {
        for seed in [1, 2] {
            let p = play(demo(k), seed).unwrap();
            assert!(p.verdict.over && p.verdict.outcome.is_some());
            assert_eq!(
                play(demo(k), seed).unwrap().record,
                p.record,
                "deterministic"
            );
            let (e, again) = Encounter::replay(&p.record).unwrap();
            assert_eq!(again, p.events);
            assert_eq!(e.verdict(), p.verdict);
            let lines = narrate(&p.record.setup, &p.events);
            assert_eq!(lines.len(), p.events.len());
            assert!(lines.last().unwrap().starts_with("The encounter ends"));
            let picture = svg(&e);
            assert!(picture.starts_with("<svg") && picture.contains("Legend"));
            // The roster: Stamina below 0 still counts (BUGS.md §10.4, R22), so a living
            // figure's negative Stamina comes with the Stamina at which it dies.
            for f in e.figures() {
                // Negative with a true minus (U+2212), as the limit is written.
                let now = f.stam.to_string().replace('-', "\u{2212}");
                let shown = if f.stam < 0 && f.status != FigureStatus::Dead {
                    format!("{now}/{} (dies at −{})", f.stam_start, f.stam_start)
                } else {
                    format!("{now}/{} ·", f.stam_start)
                };
                assert!(
                    picture.contains(&shown),
                    "#{}: {shown} not in the legend",
                    f.id.0
                );
            }
            // The record is one JSON spelling and reads back.
            let text = serde_json::to_string(&p.record).unwrap();
            assert!(text.starts_with(r#"{"format":"dbcore-bugs-record","version":1"#));
            assert_eq!(
                serde_json::from_str::<dbcore::bugs::BugsRecord>(&text).unwrap(),
                p.record
            );
        }
    }
}
