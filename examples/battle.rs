//! The referee at work: two armies fight a whole DBA 3.0 battle, both sides played by the
//! demonstration driver, with a readable account bound by bound and a picture of the end.
//!
//! ```text
//! cargo run --release --example battle                 # seed 1, picture in battle.svg
//! cargo run --release --example battle -- 42 end.svg   # another seed, another file
//! ```

use dbcore::battle::{narrate, Battle, Event};
use dbcore::driver::{demo_setup, play};
use dbcore::table::{PlacedElement, Table};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let seed: u64 = match args.first().map(|s| s.parse()) {
        None => 1,
        Some(Ok(s)) => s,
        Some(Err(_)) => {
            eprintln!("usage: battle [SEED] [SVG-PATH]");
            return ExitCode::from(2);
        }
    };
    let svg_path = args.get(1).cloned().unwrap_or_else(|| "battle.svg".into());
    let setup = demo_setup();
    let driven = match play(setup.clone(), seed, 60) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("battle: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!(
        "DBA 3.0: {} against {}, seed {seed}\n",
        setup.armies[0].name, setup.armies[1].name
    );
    for e in &driven.events {
        let line = narrate::describe(&setup, e);
        if matches!(e, Event::PipsSpent { .. }) || line.is_empty() {
            continue;
        }
        println!("{line}");
    }
    // The final table, drawn from the replayed battle.
    let (battle, _) = Battle::replay(&driven.record).expect("a driven battle replays");
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
    match &driven.verdict {
        Some(v) => println!(
            "after {} bounds: {}",
            driven.bounds,
            v.winner.map_or("no winner".to_string(), |w| format!(
                "{} win",
                setup.armies[w].name
            ))
        ),
        None => println!("no decision after {} bounds", driven.bounds),
    }
    println!("picture of the final table: {svg_path}");
    ExitCode::SUCCESS
}
