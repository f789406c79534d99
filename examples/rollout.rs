//! Random rollouts through the one surface, the loop `dbcore-py/bench/bench_rollout.py` runs
//! from Python: the demonstration battle played to its end (or `MAX_ACTIONS`) by choosing each
//! action from `legal_actions` with a fixed generator, so that both languages play exactly the
//! same games. Prints the actions played and the best time of `ROUNDS` rounds.
//!
//! ```text
//! cargo run --release -p dbcore --example rollout [GAMES]
//! ```

use std::time::Instant;

use dbcore::surface::{Session, Stage};
use serde_json::{json, Value};

const MAX_ACTIONS: usize = 3000;
const ROUNDS: usize = 5;

/// The chooser both languages share: a 64-bit LCG, the index from its high bits.
struct Pick(u64);

impl Pick {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// One game from `seed`: the actions played.
fn rollout(seed: u64) -> usize {
    let mut s = Session::new(json!({ "demo": "battle", "seed": seed })).expect("the demonstration");
    let mut pick = Pick(seed);
    let mut played = 0;
    while played < MAX_ACTIONS && s.stage() != Stage::Finished {
        let listed = s.call("legal_actions", Value::Null).expect("legal actions");
        let actions = listed["actions"].as_array().expect("a list");
        let a = actions[pick.below(actions.len())].clone();
        s.call("apply", json!({ "action": a }))
            .expect("a listed action is accepted");
        played += 1;
    }
    played
}

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(20);
    let mut best = f64::INFINITY;
    let mut actions = 0;
    for _ in 0..ROUNDS {
        let t = Instant::now();
        actions = (1..=games).map(rollout).sum::<usize>();
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "rust: {games} games, {actions} actions, best of {ROUNDS}: {:.3} s ({:.1} us an action)",
        best,
        best * 1e6 / actions as f64
    );
}
