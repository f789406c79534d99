//! A whole three-sided DBAix game played by the demonstration driver, told event by event.
//!
//! `cargo run -p dbcore --example dbaix -- [SEED] [--svg FILE]`

use dbcore::dbaix::driver::{demo_setup, narrate, play};
use dbcore::dbaix::{svg::table_svg, Battle};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let seed = args.iter().find_map(|a| a.parse::<u64>().ok()).unwrap_or(1);
    let svg = args
        .iter()
        .position(|a| a == "--svg")
        .and_then(|i| args.get(i + 1).cloned());
    let setup = demo_setup();
    let played = match play(setup.clone(), seed, 2000) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("the driver was refused: {e}");
            std::process::exit(1);
        }
    };
    println!("DBAix, seed {seed}: Romans, Gauls and Pirates.");
    for line in narrate(&setup, &played.events) {
        println!("{line}");
    }
    println!(
        "{} bounds, {} actions.",
        played.bounds,
        played.record.actions.len()
    );
    if let Some(path) = svg {
        let (b, _) = Battle::replay(&played.record).expect("the record replays");
        std::fs::write(&path, table_svg(&b)).expect("the picture is written");
        println!("table drawn in {path}");
    }
}
