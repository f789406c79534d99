//! `cargo run --release -p xtask -- ai-strength [--battles N] [--nodes N] [--max-bounds N]
//! [--lists A B | --demo] [--ai-prebattle]`: the strength of the opponent (`dbcore::ai`, issue #16) against the
//! demonstration driver.
//!
//! By default battle `i` is a whole game between two bundled list armies ([`LIST_PAIRS`] in
//! turn, two games a pair and seed; `--lists A B` for one pair): the pre-battle played by the
//! demonstration driver with dice from seed `i / 2`, so that both games of a pair fight on the
//! same field with the same deployment, and the opponent takes the first army in even games and
//! the second in odd ones (each side plays both colours). `--demo` plays the demonstration's
//! mirrored set-up instead ([`dbcore::ai::mirrored`]: the same army on both sides). It prints
//! the opponent's wins, losses and unfinished games, its win rate with the 95% Wilson interval,
//! and the mean and longest time of one decision at its node budget. A game that reaches the
//! bound limit without a verdict is not a win; one whose pre-battle failed is counted apart and
//! left out of the rate. Not part of the test run.

use std::time::{Duration, Instant};

use dbcore::ai::{mirrored, play_game_with, Ai, AiConfig};
use dbcore::battle::prebattle::PrebattleSetup;
use dbcore::battle::{Action, Battle};
use dbcore::driver::{demo_setup, play_battle_with, play_prebattle, Demonstration, Policy};
use dbcore::{DieScore, SeededDice};

/// The opponent with a stopwatch.
struct Timed {
    ai: Ai,
    total: Duration,
    longest: Duration,
    decisions: u64,
}

impl Policy for Timed {
    fn next_action(&mut self, battle: &Battle, dice: Option<[DieScore; 2]>) -> Option<Action> {
        let t = Instant::now();
        let a = self.ai.next_action(battle, dice);
        let e = t.elapsed();
        self.total += e;
        self.longest = self.longest.max(e);
        self.decisions += 1;
        a
    }
}

/// The 95% Wilson score interval of `wins` out of `n`.
pub fn wilson(wins: u32, n: u32) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let n = f64::from(n);
    let p = f64::from(wins) / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The list pairings played in turn: historical opponents of books I to IV.
pub const LIST_PAIRS: [[&str; 2]; 4] = [
    ["II/56", "II/53"],
    ["II/5a", "II/56"],
    ["I/2a", "I/6a"],
    ["II/33", "II/32a"],
];

pub fn run(args: &[&str]) -> Result<(), String> {
    let mut battles = 200u32;
    let mut lists: Option<[String; 2]> = None;
    let mut demo = false;
    let mut ai_prebattle = false;
    let mut nodes = dbcore::ai::DEFAULT_NODES;
    let mut max_bounds = 60u32;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut num = |name: &str| -> Result<u32, String> {
            it.next()
                .and_then(|v| v.parse().ok())
                .ok_or(format!("{name} needs a number"))
        };
        match *a {
            "--battles" => battles = num("--battles")?,
            "--nodes" => nodes = num("--nodes")?,
            "--max-bounds" => max_bounds = num("--max-bounds")?,
            "--demo" => demo = true,
            "--ai-prebattle" => ai_prebattle = true,
            "--lists" => {
                let mut pair = [String::new(), String::new()];
                for l in &mut pair {
                    *l = it.next().ok_or("--lists takes two list ids")?.to_string();
                }
                lists = Some(pair);
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    let base = demo_setup();
    let (mut wins, mut losses, mut open, mut failed) = (0u32, 0u32, 0u32, 0u32);
    let mut timed = Timed {
        ai: Ai::new(AiConfig { nodes, seed: 0 }),
        total: Duration::ZERO,
        longest: Duration::ZERO,
        decisions: 0,
    };
    let pairs: Vec<[String; 2]> = match &lists {
        Some(p) => vec![p.clone()],
        None => LIST_PAIRS
            .iter()
            .map(|[a, b]| [a.to_string(), b.to_string()])
            .collect(),
    };
    let mut bounds = 0u64;
    let started = Instant::now();
    for i in 0..battles {
        let side = (i % 2) as usize;
        timed.ai.config.seed = u64::from(i);
        let mut driver = Demonstration::new();
        let (bounds_played, winner) = if demo {
            let setup = mirrored(&base, ((i / 2) % 2) as usize);
            let battle = Battle::new(setup).map_err(|e| e.to_string())?;
            let mut dice = SeededDice::new(u64::from(i));
            let mut players: [&mut dyn Policy; 2] = [&mut timed, &mut driver];
            if side == 1 {
                players.swap(0, 1);
            }
            let d = play_battle_with(battle, &mut dice, max_bounds, &mut players);
            (d.bounds, d.verdict.and_then(|v| v.winner))
        } else {
            let [a, b] = &pairs[(i as usize / 2) % pairs.len()];
            let setup = PrebattleSetup::from_lists(a, b).map_err(|e| format!("{a} {b}: {e}"))?;
            let prebattle_config = timed.ai.config;
            let mut players: [&mut dyn Policy; 2] = [&mut timed, &mut driver];
            if side == 1 {
                players.swap(0, 1);
            }
            match play_game_with(
                setup,
                u64::from(i / 2),
                max_bounds,
                &mut |pre, dice| {
                    if ai_prebattle {
                        let mine = [side == 0, side == 1];
                        dbcore::ai::prebattle::play_prebattle(pre, dice, &mine, &prebattle_config)
                    } else {
                        play_prebattle(pre, dice)
                    }
                },
                &mut players,
            ) {
                Ok(g) => (g.bounds, g.verdict.and_then(|v| v.winner)),
                Err(e) => {
                    eprintln!("game {i} ({a} against {b}): {e}");
                    failed += 1;
                    continue;
                }
            }
        };
        bounds += u64::from(bounds_played);
        match winner {
            Some(w) if w == side => wins += 1,
            Some(_) => losses += 1,
            None => open += 1,
        }
    }
    let battles = battles - failed;
    let (lo, hi) = wilson(wins, battles);
    let mean = timed.total.as_secs_f64() / timed.decisions.max(1) as f64;
    let what = if demo {
        "mirrored demonstration battles".to_string()
    } else {
        let names: Vec<String> = pairs.iter().map(|[a, b]| format!("{a}-{b}")).collect();
        format!(
            "whole games from list ids ({}), each side played in both colours",
            names.join(", ")
        )
    };
    println!("opponent (nodes {nodes}) against the demonstration driver: {battles} {what}, at most {max_bounds} bounds");
    if ai_prebattle {
        println!("  the opponent makes its own army's pre-battle choices");
    }
    if failed > 0 {
        println!("  {failed} games failed in the pre-battle and are left out");
    }
    println!(
        "  won {wins}, lost {losses}, unfinished {open}; mean bounds {:.1}",
        bounds as f64 / f64::from(battles.max(1))
    );
    println!(
        "  win rate {:.1}% (95% Wilson interval {:.1}% to {:.1}%)",
        100.0 * f64::from(wins) / f64::from(battles.max(1)),
        100.0 * lo,
        100.0 * hi
    );
    println!(
        "  decision time: mean {:.2} ms, max {:.2} ms over {} decisions",
        mean * 1e3,
        timed.longest.as_secs_f64() * 1e3,
        timed.decisions
    );
    println!("  wall time {:.1} s", started.elapsed().as_secs_f64());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::wilson;

    #[test]
    fn wilson_interval_of_known_counts() {
        // 160 of 200: the interval is about 73.9% to 85.0% (computed by hand).
        let (lo, hi) = wilson(160, 200);
        assert!((lo - 0.7391).abs() < 1e-3, "{lo}");
        assert!((hi - 0.8495).abs() < 1e-3, "{hi}");
        assert_eq!(wilson(0, 0), (0.0, 1.0));
    }
}
