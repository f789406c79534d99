//! `cargo run --release -p xtask -- simulate-bench [--battles N] [--threads N] [--rounds N]
//! [--lists A B]`: the threads row of issue #16. The same batch ([`dbcore::simulate`], battles
//! from two list ids, master seed 1) is run on 1 thread and on N (2 unless told), in interleaved
//! rounds; it prints each wall time (the minimum over the rounds), battles per second and the
//! speed-up, and checks that every thread count gave the same records. Measure on a quiet
//! machine: on a shared one the speed-up says more about the neighbours than about dbcore.

use std::time::{Duration, Instant};

use dbcore::simulate::{simulate, Control, Request};

pub fn run(args: &[&str]) -> Result<(), String> {
    let mut battles = 200u64;
    let mut threads = 2usize;
    let mut rounds = 3u32;
    let mut lists = ["II/56".to_string(), "II/5a".to_string()];
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut num = |name: &str| -> Result<u64, String> {
            it.next()
                .and_then(|v| v.parse().ok())
                .ok_or(format!("{name} needs a number"))
        };
        match *a {
            "--battles" => battles = num("--battles")?,
            "--threads" => threads = num("--threads")? as usize,
            "--rounds" => rounds = num("--rounds")?.max(1) as u32,
            "--lists" => {
                for l in &mut lists {
                    *l = it.next().ok_or("--lists takes two list ids")?.to_string();
                }
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    let counts = [1, threads.max(1)];
    let mut best = [Duration::MAX; 2];
    let mut records = [None, None];
    for _ in 0..rounds {
        for (k, &t) in counts.iter().enumerate() {
            let mut request = Request::lists(&lists[0], &lists[1], battles, 1);
            request.threads = t;
            let start = Instant::now();
            let sim = simulate(&request, Control::default()).map_err(|e| e.to_string())?;
            best[k] = best[k].min(start.elapsed());
            records[k] = Some(sim.records);
        }
    }
    if records[0] != records[1] {
        return Err("1 thread and more gave different records".into());
    }
    println!(
        "{battles} battles {} against {}, master seed 1, minimum of {rounds} interleaved rounds",
        lists[0], lists[1]
    );
    println!(
        "{:>8} {:>10} {:>14} {:>9}",
        "threads", "wall", "battles/s", "speed-up"
    );
    for (k, &t) in counts.iter().enumerate() {
        let secs = best[k].as_secs_f64();
        println!(
            "{t:>8} {:>9.3}s {:>14.1} {:>8.2}x",
            secs,
            battles as f64 / secs.max(1e-9),
            best[0].as_secs_f64() / secs.max(1e-9)
        );
    }
    println!(
        "records identical on 1 and {} threads; {} cores available",
        counts[1],
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    Ok(())
}
