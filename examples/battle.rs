//! The referee at work: a whole DBA 3.0 game between two army lists, both sides played by the
//! demonstration driver: aggression, terrain diced and placed, base edges, camps, deployment,
//! then the battle bound by bound, and a picture of the end on the diced table.
//!
//! ```text
//! cargo run --release --example battle                           # II/56 v II/53, seed 1
//! cargo run --release --example battle -- I/52 II/33 42 end.svg  # two lists, a seed, a file
//! ```

use dbcore::battle::prebattle::describe as describe_prebattle;
use dbcore::battle::{narrate, Event};
use dbcore::driver::play_lists;
use dbcore::table::{PlacedElement, Table};
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut lists: Vec<String> = Vec::new();
    let mut seed: u64 = 1;
    let mut svg_path = "battle.svg".to_string();
    for a in std::env::args().skip(1) {
        if a.contains('/') && !a.ends_with(".svg") {
            lists.push(a);
        } else if let Ok(s) = a.parse() {
            seed = s;
        } else if a.ends_with(".svg") {
            svg_path = a;
        } else {
            eprintln!("usage: battle [LIST-ID LIST-ID] [SEED] [SVG-PATH]   (e.g. II/56 II/53 1 battle.svg)");
            return ExitCode::from(2);
        }
    }
    let first = lists.first().map_or("II/56", String::as_str);
    let second = lists.get(1).map_or("II/53", String::as_str);
    let game = match play_lists(first, second, seed, 60) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("battle: {e}");
            return ExitCode::FAILURE;
        }
    };
    let entries = &game.record.prebattle.setup;
    println!(
        "DBA 3.0: {} against {}, seed {seed}\n",
        entries.armies[0].name, entries.armies[1].name
    );
    for e in &game.prebattle_events {
        let line = describe_prebattle(entries, e);
        if !line.is_empty() {
            println!("{line}");
        }
    }
    println!();
    let setup = &game.setup;
    for (e, line) in game
        .events
        .iter()
        .zip(narrate::narrate(setup, &game.events))
    {
        if matches!(e, Event::PipsSpent { .. }) || line.is_empty() {
            continue;
        }
        println!("{line}");
    }
    // The final table, drawn from the replayed game on the terrain that was diced.
    let replayed = game.record.replay().expect("a driven game replays");
    let battle = &replayed.battle;
    let elements = battle
        .elements()
        .iter()
        .filter(|e| e.in_play())
        .map(|e| PlacedElement {
            id: e.id.0,
            side: e.army as u8,
            kind: e.kind,
            pose: e.pose,
            general: e.general,
        })
        .collect();
    let table = Table::new(setup.battlefield.clone(), elements).expect("ids are unique");
    if let Err(e) = std::fs::write(&svg_path, table.svg(&setup.config, false)) {
        eprintln!("battle: cannot write {svg_path}: {e}");
        return ExitCode::FAILURE;
    }
    let counts = battle.counts();
    println!();
    for (i, (alive, lost)) in counts.iter().enumerate() {
        println!("{}: {alive} in play, {lost} lost", setup.armies[i].name);
    }
    match &game.verdict {
        Some(v) => println!(
            "after {} bounds: {}",
            game.bounds,
            v.winner.map_or("no winner".to_string(), |w| format!(
                "{} win",
                setup.armies[w].name
            ))
        ),
        None => println!("no decision after {} bounds", game.bounds),
    }
    println!("picture of the final table: {svg_path}");
    ExitCode::SUCCESS
}
