//! The pre-battle of issue #44's slowest seed: `play_lists("II/29", "II/5a", battle_seed(0, 0))`,
//! timed, for `valgrind --tool=callgrind` or a before/after comparison:
//! `cargo run --example slow_seed [ROUNDS [INDEX]]` (INDEX: another battle of master seed 0, for
//! comparison).

use std::time::Instant;

use dbcore::driver;
use dbcore::simulate::battle_seed;

fn main() {
    let rounds: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1);
    let index: u64 = std::env::args()
        .nth(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(0);
    for _ in 0..rounds {
        let t = Instant::now();
        let game = driver::play_lists("II/29", "II/5a", battle_seed(0, index), 0);
        let ok = game.is_ok();
        println!(
            "{:.3} s (a game: {ok}), {} placements fully checked so far",
            t.elapsed().as_secs_f64(),
            dbcore::battle::prebattle::placement::full_checks_on_this_thread()
        );
    }
}
