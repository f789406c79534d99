//! The per-state memo (#15) is invisible: valid by construction (the battle empties it when an
//! element changes, and carries only the close-combat flags of elements well clear of every
//! element an event moved), it gives at every state of a played battle the answers a fresh
//! computation gives. Debug builds (these tests) also assert it inside the library whenever a
//! memo answers, in every intermediate state a Fight's check simulates.

use dbcore::battle::engagement::close_combats;
use dbcore::battle::{in_close_combat, Battle, BattleSetup, MoveContext};
use dbcore::battlefield::Variant;
use dbcore::driver::{big_battle_setup, demo_setup, play};

/// Replay the driven battle of `setup` and `seed`, comparing at every state (before anything
/// else asks it) what the memo says with what is worked out afresh: who is in close combat, the
/// close combats and those still to fight; a clone (which starts with an empty memo) agrees.
fn memo_agrees_at_every_state(setup: BattleSetup, seed: u64, bounds: u32) -> usize {
    let driven = play(setup, seed, bounds).expect("plays");
    let mut b = Battle::new(driven.record.setup.clone()).expect("valid");
    let mut states = 0;
    for a in driven.record.actions.iter().cloned() {
        let strongholds = b.held_strongholds();
        let ctx = b.move_context(&strongholds);
        assert!(ctx.close_combat.is_some(), "every state has its memo");
        let plain = MoveContext {
            close_combat: None,
            refusals: Default::default(),
            ..ctx
        };
        for i in 0..b.elements().len() {
            assert_eq!(
                in_close_combat(&ctx, i),
                in_close_combat(&plain, i),
                "element {i}, state {states}"
            );
        }
        assert_eq!(close_combats(&ctx), close_combats(&plain), "state {states}");
        assert_eq!(b.pending_combats(), b.clone().pending_combats());
        states += 1;
        b.apply(a).expect("replays");
    }
    states
}

#[test]
fn s10_2_memo_answers_are_fresh_answers_in_driven_battles() {
    // DBA3.md §10.2 (who fights whom), §8.1 (threat zones of elements not in close combat):
    // the flags carried across moves and outcomes, and every memo of an adopted Fight, answer as
    // a fresh computation.
    let mut states = 0;
    for seed in [1, 7, 42] {
        states += memo_agrees_at_every_state(demo_setup(), seed, 30);
    }
    assert!(states > 100, "{states} states");
}

#[test]
fn s14_memo_answers_are_fresh_answers_in_a_big_battle() {
    // DBA3.md §14: three commands a side on the wider board, many elements moving at once.
    let states = memo_agrees_at_every_state(big_battle_setup(Variant::BigBattle), 3, 12);
    assert!(states > 50, "{states} states");
}
