//! Many battles (`dbcore::simulate`): seeds, threads, chunks, cancellation and the interval
//! arithmetic.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use dbcore::battle::prebattle::GameRecord;
use dbcore::battle::Battle;
use dbcore::simulate::{
    battle_seed, simulate, simulate_each, wilson, BattleSummary, Control, Ending, FullRecord, Rate,
    Request, SimulateError, Source, Streamed, Summary, Tally, Z_95,
};
use dbcore::{driver, ErrorCode, ErrorInfo};

/// Short battles keep the debug test run quick; the records are as real as long ones.
fn lists(battles: u64, seed: u64, threads: usize) -> Request {
    let mut r = Request::lists("II/56", "II/5a", battles, seed);
    r.max_bounds = 12;
    r.threads = threads;
    r
}

fn close(a: f64, b: f64, eps: f64) -> bool {
    (a - b).abs() < eps
}

#[test]
fn wilson_matches_published_and_hand_computed_intervals() {
    // Newcombe (1998), Statistics in Medicine 17, table I, method 3 (the score interval without
    // continuity correction), to the four places printed there.
    for (k, n, lo, hi) in [
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ] {
        let (l, h) = wilson(k, n, Z_95);
        assert!(close(l, lo, 5e-5) && close(h, hi, 5e-5), "{k}/{n}: {l} {h}");
    }
    // By hand. k = 0: p = 0, the centre and half-width are both (z²/2n)/(1 + z²/n), so the
    // interval is [0, z²/(n + z²)]; with z = 2 and n = 12 that is 4/16 = 1/4.
    let (l, h) = wilson(0, 12, 2.0);
    assert_eq!(l, 0.0);
    assert!(close(h, 0.25, 1e-12), "{h}");
    // k = n = 12, z = 2: the mirror image, [12/16, 1].
    let (l, h) = wilson(12, 12, 2.0);
    assert!(close(l, 0.75, 1e-12) && close(h, 1.0, 1e-12), "{l} {h}");
    // k = 2, n = 4, z = 2: p = 1/2, centre (1/2 + 4/8)/(1 + 1) = 1/2, half-width
    // 2·sqrt(1/16 + 4/64)/2 = sqrt(1/8) = 0.353553..., so [0.146447, 0.853553].
    let (l, h) = wilson(2, 4, 2.0);
    let half = (0.125f64).sqrt();
    assert!(
        close(l, 0.5 - half, 1e-12) && close(h, 0.5 + half, 1e-12),
        "{l} {h}"
    );
    // No trials say nothing.
    assert_eq!(wilson(0, 0, Z_95), (0.0, 1.0));
    // The "62% ± 9%" a reader quotes for 62 of 100.
    let r = Rate::new(62, 100);
    assert!(close(r.rate, 0.62, 1e-12));
    assert!(close(r.low, 0.5221, 1e-4) && close(r.high, 0.7090, 1e-4));
    assert!(close(r.margin(), 0.0935, 1e-4), "{}", r.margin());
}

#[test]
fn battle_seeds_are_splitmix64_of_the_master_and_index() {
    // SplitMix64 started at 0: its first two outputs are well known.
    assert_eq!(battle_seed(0, 0), 0xE220_A839_7B1D_CDAF);
    assert_eq!(battle_seed(0, 1), 0x6E78_9E6A_A1B9_65F4);
    // Battle i of master m is output i + 1 of the generator started at m: the generator started
    // one step on gives the same seed one index earlier.
    let gamma = 0x9E37_79B9_7F4A_7C15u64;
    assert_eq!(battle_seed(7, 5), battle_seed(7u64.wrapping_add(gamma), 4));
    let seeds: std::collections::BTreeSet<u64> = (0..1000).map(|i| battle_seed(1, i)).collect();
    assert_eq!(seeds.len(), 1000);
}

#[test]
fn the_same_master_seed_gives_the_same_records_on_one_and_two_threads() {
    let one = simulate(&lists(6, 1, 1), Control::default()).unwrap();
    let two = simulate(&lists(6, 1, 2), Control::default()).unwrap();
    assert_eq!(one, two);
    assert!(!one.cancelled);
    assert_eq!(
        one.records.iter().map(|r| r.index).collect::<Vec<_>>(),
        (0..6).collect::<Vec<_>>()
    );
    // Every record is a battle fought, its vectors one entry an army.
    for r in &one.records {
        assert_ne!(r.ended, Ending::Failed, "{r:?}");
        assert_eq!(r.losses.len(), 2);
        assert_eq!(r.seed, battle_seed(1, r.index));
        // DBA3.md §13.2: a winner means the loser lost at least 4 and more than the winner.
        if let Some(w) = r.winner {
            assert_eq!(r.ended, Ending::Decided);
            assert!(
                r.losses[1 - w] >= 4 && r.losses[1 - w] > r.losses[w],
                "{r:?}"
            );
        }
    }
    let other = simulate(&lists(6, 2, 1), Control::default()).unwrap();
    assert_ne!(one.records, other.records);
}

#[test]
fn chunks_by_index_merge_into_the_whole_batch() {
    let whole = simulate(&lists(5, 9, 1), Control::default()).unwrap();
    let mut merged: Vec<BattleSummary> = Vec::new();
    for (first, battles) in [(0, 2), (2, 1), (3, 2)] {
        let mut r = lists(battles, 9, 1);
        r.first = first;
        merged.extend(simulate(&r, Control::default()).unwrap().records);
    }
    assert_eq!(merged, whole.records);
    let names = dbcore::simulate::army_names(&lists(1, 0, 1).source).unwrap();
    assert_eq!(Summary::of(names, &merged).unwrap(), whole.summary);
}

#[test]
fn each_record_replays_alone_from_its_seed() {
    let mut r = lists(2, 4, 1);
    r.first = 10;
    r.full_records = true;
    let sim = simulate(&r, Control::default()).unwrap();
    for rec in &sim.records {
        let game = driver::play_lists("II/56", "II/5a", rec.seed, 12).unwrap();
        assert_eq!(game.verdict.as_ref().and_then(|v| v.winner), rec.winner);
        let Some(FullRecord::Game(full)) = &rec.record else {
            panic!("no full record: {rec:?}");
        };
        assert_eq!(full, &game.record);
        let text = serde_json::to_string(full).unwrap();
        let back: GameRecord = serde_json::from_str(&text).unwrap();
        assert!(back.replay().is_ok());
    }
}

#[test]
fn a_set_up_source_varies_only_the_dice() {
    let mut r = Request::new(Source::Setup(driver::demo_setup()), 3, 5);
    r.max_bounds = 10;
    r.full_records = true;
    let sim = simulate(&r, Control::default()).unwrap();
    assert_eq!(sim.records.len(), 3);
    assert_eq!(sim.summary.armies.len(), 2);
    for rec in &sim.records {
        let Some(FullRecord::Battle(record)) = &rec.record else {
            panic!("no full record: {rec:?}");
        };
        assert_eq!(record.setup, driver::demo_setup());
        let (battle, _) = Battle::replay(record).unwrap();
        assert_eq!(battle.bound().min(10), rec.bounds);
        let again = driver::play(driver::demo_setup(), rec.seed, 10).unwrap();
        assert_eq!(&again.record, record);
    }
}

#[test]
fn cancelling_returns_what_finished_and_progress_counts_it() {
    let cancel = AtomicBool::new(true);
    let done = AtomicU64::new(0);
    let control = Control {
        cancel: Some(&cancel),
        done: Some(&done),
    };
    let sim = simulate(&lists(4, 1, 2), control).unwrap();
    assert!(sim.cancelled);
    assert!(sim.records.is_empty());
    assert_eq!(sim.summary.fought, 0);
    // Not cancelled: the counter ends at the number of battles.
    cancel.store(false, Ordering::Relaxed);
    let sim = simulate(&lists(3, 1, 2), control).unwrap();
    assert!(!sim.cancelled);
    assert_eq!(done.load(Ordering::Relaxed), 3);
    // Cancelled by another thread part way: the records that came back are whole battles, a
    // subset of the full run's.
    let full = simulate(&lists(6, 3, 1), Control::default()).unwrap();
    let done = AtomicU64::new(0);
    let cancel = AtomicBool::new(false);
    let part = std::thread::scope(|s| {
        s.spawn(|| {
            while done.load(Ordering::Relaxed) < 2 {
                std::thread::yield_now();
            }
            cancel.store(true, Ordering::Relaxed);
        });
        simulate(
            &lists(6, 3, 1),
            Control {
                cancel: Some(&cancel),
                done: Some(&done),
            },
        )
        .unwrap()
    });
    assert!(part.records.len() >= 2);
    for r in &part.records {
        assert_eq!(r, &full.records[r.index as usize]);
    }
}

#[test]
fn summaries_count_wins_draws_and_losses() {
    let rec = |index: u64, winner: Option<usize>, losses: Vec<u32>, ended: Ending| BattleSummary {
        index,
        seed: index,
        winner,
        bounds: 10 + index as u32,
        losses,
        camp_sacked: vec![index == 0, false],
        general_lost: vec![false, index == 1],
        ended,
        error: None,
        record: None,
    };
    let records = vec![
        rec(0, Some(1), vec![4, 1], Ending::Decided),
        rec(1, Some(0), vec![2, 5], Ending::Decided),
        rec(2, Some(0), vec![0, 4], Ending::Decided),
        rec(3, None, vec![1, 1], Ending::BoundLimit),
        rec(4, None, vec![0, 0], Ending::Failed),
    ];
    let s = Summary::of(vec!["A".into(), "B".into()], &records).unwrap();
    assert_eq!((s.battles, s.fought, s.failed), (5, 4, 1));
    assert_eq!(s.wins[0], Rate::new(2, 4));
    assert_eq!(s.wins[1], Rate::new(1, 4));
    assert_eq!(s.draws, Rate::new(1, 4));
    assert_eq!((s.bound_limit, s.stalled), (1, 0));
    assert_eq!(s.mean_bounds, (10.0 + 11.0 + 12.0 + 13.0) / 4.0);
    assert_eq!(s.mean_losses, vec![7.0 / 4.0, 11.0 / 4.0]);
    assert_eq!(s.losses_histogram[0], vec![1, 1, 1, 0, 1]);
    assert_eq!(s.losses_histogram[1], vec![0, 2, 0, 0, 1, 1]);
    assert_eq!(s.camp_sacked[0].count, 1);
    assert_eq!(s.general_lost[1].count, 1);
}

#[test]
fn requests_outside_the_limits_are_refused_before_any_battle() {
    let mut r = lists(1, 0, 1);
    r.threads = 10_000;
    let e = simulate(&r, Control::default()).unwrap_err();
    assert!(matches!(e, SimulateError::Limit(_)), "{e}");
    assert_eq!(e.code(), ErrorCode::InvalidArgument);
    let mut r = lists(1, 0, 1);
    r.first = u64::MAX;
    assert!(matches!(
        simulate(&r, Control::default()),
        Err(SimulateError::Limit(_))
    ));
    let r = Request::lists("II/56", "XX/99", 1, 0);
    assert!(matches!(
        simulate(&r, Control::default()),
        Err(SimulateError::Lists(_))
    ));
    // Serde: the request reads from JSON with its defaults.
    let r: Request =
        serde_json::from_str(r#"{"source": {"lists": ["II/56", "II/5a"]}, "battles": 2}"#).unwrap();
    assert_eq!(r, Request::lists("II/56", "II/5a", 2, 0));
}

/// The records a sink is given, in the order given.
fn streamed(r: &Request, stop_after: Option<usize>) -> (Vec<BattleSummary>, Streamed) {
    let mut seen = Vec::new();
    let s = simulate_each(r, Control::default(), |rec| {
        seen.push(rec);
        if stop_after.is_some_and(|n| seen.len() >= n) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
    .unwrap();
    (seen, s)
}

#[test]
fn a_streamed_batch_hands_over_the_collected_records_in_index_order_with_the_same_summary() {
    for threads in [1, 2, 3] {
        let r = lists(7, 11, threads);
        let whole = simulate(&r, Control::default()).unwrap();
        let (seen, s) = streamed(&r, None);
        assert_eq!(seen, whole.records, "{threads} threads");
        assert_eq!(s.summary, whole.summary, "{threads} threads");
        assert!(!s.cancelled);
    }
}

#[test]
fn a_sink_that_says_break_stops_the_batch_and_the_summary_counts_what_it_was_given() {
    for threads in [1, 2] {
        let r = lists(20, 3, threads);
        let (seen, s) = streamed(&r, Some(3));
        assert_eq!(seen.len(), 3, "{threads} threads");
        assert_eq!(
            seen.iter().map(|r| r.index).collect::<Vec<_>>(),
            vec![0, 1, 2]
        );
        assert!(s.cancelled);
        assert_eq!(s.summary.battles, 3);
        assert_eq!(
            s.summary,
            Summary::of(s.summary.armies.clone(), &seen).unwrap()
        );
    }
}

#[test]
fn tallies_of_chunks_merge_into_the_summary_of_the_whole() {
    let whole = simulate(&lists(6, 2, 1), Control::default()).unwrap();
    let (a, b) = whole.records.split_at(2);
    let mut left = Tally::new(2);
    a.iter().for_each(|r| left.add(r).unwrap());
    let mut right = Tally::new(2);
    b.iter().for_each(|r| right.add(r).unwrap());
    left.merge(&right);
    assert_eq!(left.summary(whole.summary.armies.clone()), whole.summary);
    assert_eq!(left.battles(), 6);
}

#[test]
fn a_record_no_battle_could_end_with_is_refused_and_not_counted() {
    // DBA3.md §13.2: an army loses its elements, some counted double, so no more than twice
    // the largest set-up; a forged record claiming four billion would size the histogram.
    let whole = simulate(&lists(2, 2, 1), Control::default()).unwrap();
    let mut forged = whole.records.clone();
    forged[1].losses[0] = u32::MAX;
    let mut tally = Tally::new(2);
    tally.add(&forged[0]).unwrap();
    let before = tally.clone();
    let e = tally.add(&forged[1]).unwrap_err();
    assert_eq!(e.what, "losses[0]");
    assert_eq!(tally, before, "a refused record counts nothing");
    let e = Summary::of(whole.summary.armies.clone(), &forged).unwrap_err();
    assert_eq!(e.what, "records[1].losses[0]");
    assert!(
        e.allowed
            .contains(&dbcore::simulate::MAX_LOSSES.to_string()),
        "{e}"
    );
    forged[1].losses[0] = dbcore::simulate::MAX_LOSSES;
    Summary::of(whole.summary.armies.clone(), &forged).unwrap();
}
