//! The browser benchmark's loop run natively: whole demonstration battles played through the
//! surface exactly as the page's benchmark plays them (`driver` then `apply`, each a surface call
//! with JSON-able values), for comparison with `web/test/run.sh --bench`.
//!
//! ```sh
//! cargo run --release -p dbcore-wasm --example demo_battles -- [SECONDS]
//! ```

use std::time::Instant;

use dbcore::surface::Session;
use serde_json::json;

fn main() {
    let seconds: f64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(8.0);
    let t0 = Instant::now();
    let mut battles = 0u32;
    let mut actions = 0u64;
    while t0.elapsed().as_secs_f64() < seconds || battles < 2 {
        let mut game = Session::new(json!({"demo": "battle", "seed": battles + 1}))
            .expect("the demonstration set-up is valid");
        for _ in 0..20_000 {
            if game.call("info", json!({})).expect("info")["stage"] == "finished" {
                break;
            }
            let action =
                game.call("driver", json!({})).expect("the driver chooses")["action"].clone();
            game.call("apply", json!({ "action": action }))
                .expect("the driver's action is legal");
            actions += 1;
        }
        battles += 1;
    }
    let s = t0.elapsed().as_secs_f64();
    println!(
        "native, through the surface: {battles} demonstration battles in {s:.1} s: {:.2} battles/s ({:.0} actions/s)",
        f64::from(battles) / s,
        actions as f64 / s
    );
}
