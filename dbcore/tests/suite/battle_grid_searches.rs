//! The neighbour searches that go through the per-state grid (#15): shooting targets and shots,
//! the facts of a close combat (supporters, flank and rear contacts, overlaps) and the paths of
//! outcome moves (recoil, flight, pursuit). The grid only narrows which elements the exact tests
//! look at, so with the battle's per-state memo every answer must be exactly what the same
//! question gives over every element (a context without the memo), on random tables and in
//! played battles alike.

use crate::battle_common;
use battle_common::*;

use dbcore::battle::{
    close_combat_situation, close_combats, flee, pursue, recoil, shooting_targets, shot_situation,
    Battle, BattleSetup, ElementSetup, MoveContext,
};
use dbcore::battlefield::{Battlefield, Board};
use proptest::prelude::*;

/// Two armies of `n` in ranks of 12, bows and artillery among them, every position jittered by
/// up to `jitter` BW and every facing by up to `turn` degrees (from `seed`), so that contacts of
/// every kind, overlaps, blocked shots and crowded paths occur.
fn table(n: u32, seed: u64, jitter: f64, turn: f64) -> BattleSetup {
    let mut s = seed | 1;
    let mut next = move || {
        // xorshift64*: a fixed, seeded sequence.
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        (s.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64 - 0.5
    };
    let mut line = |first: u32, y0: f64, facing: f64, codes: [&str; 4]| -> Vec<ElementSetup> {
        (0..n)
            .map(|i| {
                let (rank, file) = (f64::from(i / 12), f64::from(i % 12));
                let y = if facing == 0.0 { y0 - rank } else { y0 + rank };
                let (dx, dy, df) = (next() * jitter, next() * jitter, next() * turn);
                let e = el(
                    first + i,
                    codes[(i % 4) as usize],
                    2.0 + file + dx,
                    y + dy,
                    facing + df,
                );
                if i == 5 {
                    general(e)
                } else {
                    e
                }
            })
            .collect()
    };
    let south = line(1, 6.0, 0.0, ["4Bd", "4Bw", "Ps", "Art"]);
    let north = line(101, 8.5, 180.0, ["3Wb", "4Bw", "LH", "4Sp"]);
    sandbox(
        Battlefield::new(Board {
            width: 16.0,
            depth: 14.0,
        }),
        armies(south, north),
    )
}

/// Every grid-backed question about `b`, asked with the memo and without: the same answers.
/// Returns how many answers were compared that were not empty (to show the test bites).
fn same_answers(b: &Battle) -> usize {
    let strongholds = b.held_strongholds();
    let ctx = b.move_context(&strongholds);
    assert!(ctx.close_combat.is_some());
    let plain = MoveContext {
        close_combat: None,
        refusals: Default::default(),
        ..ctx
    };
    let mut seen = 0;
    let ids: Vec<_> = b
        .elements()
        .iter()
        .filter(|e| e.in_play())
        .map(|e| (e.id, e.army))
        .collect();
    // §9.2–9.5: targets, their priorities and distances, and each shot's facts.
    for &(id, _) in &ids {
        let got = shooting_targets(&ctx, id, &[]);
        assert_eq!(got, shooting_targets(&plain, id, &[]), "targets of {id:?}");
        for t in got.iter().flatten() {
            seen += 1;
            for back in [false, true] {
                assert_eq!(
                    shot_situation(&ctx, id, t.target, &[], back),
                    shot_situation(&plain, id, t.target, &[], back),
                    "shot of {id:?} at {:?}",
                    t.target
                );
            }
        }
        // A shot at every enemy, blocked or not: the same refusal naming the same blocker.
        for &(other, army) in &ids {
            if army
                != b.elements()
                    .iter()
                    .find(|e| e.id == id)
                    .map_or(0, |e| e.army)
            {
                assert_eq!(
                    shot_situation(&ctx, id, other, &[], false),
                    shot_situation(&plain, id, other, &[], false)
                );
            }
        }
    }
    // §10.2–10.4: every close combat's situation (supporters, flanks, overlaps).
    let pairs = close_combats(&plain);
    assert_eq!(close_combats(&ctx), pairs);
    for p in &pairs {
        seen += 1;
        assert_eq!(
            close_combat_situation(&ctx, p.a, p.b),
            close_combat_situation(&plain, p.a, p.b),
            "combat {p:?}"
        );
    }
    // §12.1, §12.4, §12.5: the outcome moves of every element, through the crowd.
    for &(id, army) in &ids {
        let base = b.setup().armies[army].base_edge;
        for full in [false, true] {
            let r = recoil(&ctx, id, None, full, full);
            assert_eq!(r, recoil(&plain, id, None, full, full), "recoil of {id:?}");
            seen += usize::from(!r.is_empty());
        }
        let f = flee(&ctx, id, base);
        assert_eq!(f, flee(&plain, id, base), "flight of {id:?}");
        seen += usize::from(!f.is_empty());
        for d in [0.5, 2.0] {
            assert_eq!(
                pursue(&ctx, id, d),
                pursue(&plain, id, d),
                "pursuit of {id:?}"
            );
        }
    }
    seen
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Random tables: jittered, turned, crowded armies facing each other 2.5 BW apart.
    #[test]
    fn s9_s10_s12_grid_searches_agree_on_random_tables(
        seed in any::<u64>(),
        n in 6u32..30,
        jitter in 0.0f64..0.6,
        turn in 0.0f64..40.0,
    ) {
        // DBA3.md §9.2 (targets), §10.3 (supporters, flank contacts), §12.1 (recoil paths).
        let Ok(b) = Battle::new(table(n, seed, jitter, turn)) else {
            return Ok(());
        };
        same_answers(&b);
    }
}

/// Played battles: every state of several driven battles, from set-up to the end.
#[test]
fn s9_s10_s12_grid_searches_agree_over_played_battles() {
    // DBA3.md §9 (shooting), §10 (close combat), §12 (outcome moves), state after state.
    let mut seen = 0;
    let mut states = 0;
    for (k, seed) in [3u64, 11, 29].into_iter().enumerate() {
        let setup = table(24, seed, 0.0, 0.0);
        let driven = dbcore::driver::play(setup, seed + k as u64, 8).expect("plays");
        let mut b = Battle::new(driven.record.setup.clone()).expect("valid");
        for a in driven.record.actions.iter().cloned() {
            seen += same_answers(&b);
            states += 1;
            b.apply(a).expect("replays");
        }
    }
    assert!(states > 30, "{states} states");
    assert!(seen > 100, "only {seen} answers were not empty");
}
