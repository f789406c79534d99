//! `cargo run --release -p xtask -- ai-strength [--battles N] [--nodes N] [--max-bounds N]`: the
//! strength of the opponent (`dbcore::ai`, issue #16) against the demonstration driver.
//!
//! Battle `i` is played on a mirrored set-up ([`dbcore::ai::mirrored`]: the same army on both
//! sides, the demonstration's Romans for one pair of battles, its Britons for the next, and so
//! on), the opponent taking the first army in even battles and the second in odd ones, with dice
//! from seed `i`. It prints the opponent's wins, losses and unfinished battles, its win rate with
//! the 95% Wilson interval, and the mean and longest time of one decision. A battle that reaches
//! the bound limit without a verdict is not a win. Not part of the test run.

use std::time::{Duration, Instant};

use dbcore::ai::{mirrored, Ai, AiConfig};
use dbcore::battle::{Action, Battle};
use dbcore::driver::{demo_setup, play_battle_with, Demonstration, Policy};
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

pub fn run(args: &[&str]) -> Result<(), String> {
    let mut battles = 200u32;
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
            other => return Err(format!("unknown argument {other}")),
        }
    }
    let base = demo_setup();
    let (mut wins, mut losses, mut open) = (0u32, 0u32, 0u32);
    let mut timed = Timed {
        ai: Ai::new(AiConfig { nodes, seed: 0 }),
        total: Duration::ZERO,
        longest: Duration::ZERO,
        decisions: 0,
    };
    let mut bounds = 0u64;
    for i in 0..battles {
        let setup = mirrored(&base, ((i / 2) % 2) as usize);
        let battle = Battle::new(setup).map_err(|e| e.to_string())?;
        let side = (i % 2) as usize;
        timed.ai.config.seed = u64::from(i);
        let mut driver = Demonstration;
        let mut dice = SeededDice::new(u64::from(i));
        let d = if side == 0 {
            play_battle_with(
                battle,
                &mut dice,
                max_bounds,
                &mut [&mut timed, &mut driver],
            )
        } else {
            play_battle_with(
                battle,
                &mut dice,
                max_bounds,
                &mut [&mut driver, &mut timed],
            )
        };
        bounds += u64::from(d.bounds);
        match d.verdict.and_then(|v| v.winner) {
            Some(w) if w == side => wins += 1,
            Some(_) => losses += 1,
            None => open += 1,
        }
    }
    let (lo, hi) = wilson(wins, battles);
    let mean = timed.total.as_secs_f64() / timed.decisions.max(1) as f64;
    println!("opponent (nodes {nodes}) against the demonstration driver, {battles} mirrored battles, at most {max_bounds} bounds");
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
