//! Work done once (#15): a set-up validated once and shared, and an action checked once and
//! committed without a second check. Neither changes a result.

use dbcore::battle::{Action, Battle, BattleError, ValidatedSetup};
use dbcore::driver::{demo_setup, play, play_validated};
use dbcore::DieScore;

fn die(n: u8) -> DieScore {
    DieScore::new(n).expect("a die score")
}

/// The demonstration battle after its first PIP roll, in the movement phase.
fn moving() -> Battle {
    let mut b = Battle::new(demo_setup()).expect("demo set-up is valid");
    b.apply(Action::RollPips { die: die(4) }).expect("PIPs");
    b
}

#[test]
fn a_battle_started_from_a_validated_setup_is_the_battle_of_new() {
    let v = ValidatedSetup::new(demo_setup()).expect("valid");
    assert_eq!(Battle::start(&v), Battle::new(demo_setup()).expect("valid"));
    assert_eq!(v.setup(), &demo_setup());
}

#[test]
fn a_validated_setup_refuses_what_new_refuses() {
    let mut s = demo_setup();
    let moved = s.armies[0].elements[0].pose;
    s.armies[0].elements[1].pose = moved;
    let a = ValidatedSetup::new(s.clone()).expect_err("overlapping elements");
    let b = Battle::new(s).expect_err("overlapping elements");
    assert_eq!(a, b);
    assert!(!a.problems.is_empty());
}

#[test]
fn driven_battles_of_a_validated_setup_are_those_of_play() {
    let v = ValidatedSetup::new(demo_setup()).expect("valid");
    for seed in [1, 2, 7] {
        let a = play(demo_setup(), seed, 30).expect("plays");
        let b = play_validated(&v, seed, 30).expect("plays");
        assert_eq!(a, b, "seed {seed}");
    }
}

#[test]
fn a_checked_action_commits_the_events_and_state_of_apply() {
    let b = moving();
    let first = b.elements()[1].clone();
    let mut to = first.pose;
    to.y += 1.0;
    let action = Action::Move {
        order: dbcore::battle::MoveOrder::Element {
            id: first.id,
            path: vec![to],
        },
    };
    let checked = b.check_action(action.clone()).expect("a legal step");
    assert_eq!(checked.action(), &action);
    let mut by_apply = b.clone();
    let mut by_token = b.clone();
    let expected = by_apply.apply(action.clone()).expect("legal");
    // The token was checked against `b`, not against the clone: it is checked again, same answer.
    assert_eq!(
        by_token.apply_checked(checked.clone()),
        Ok(expected.clone())
    );
    assert_eq!(by_token, by_apply);
    assert_eq!(by_token.record(), by_apply.record());

    // Against the state it was checked on, it commits without a second check: same again.
    let mut own = b;
    let token = own.check_action(action).expect("legal");
    assert_eq!(token.events(), expected.as_slice());
    assert_eq!(own.apply_checked(token), Ok(expected));
    assert_eq!(own, by_apply);
    assert_eq!(
        serde_json::to_string(&own).expect("json"),
        serde_json::to_string(&by_apply).expect("json")
    );
}

#[test]
fn a_stale_token_is_checked_again_and_refused_as_apply_refuses_it() {
    let mut b = moving();
    let id = b.elements()[1].id;
    let mut to = b.elements()[1].pose;
    to.y += 1.0;
    let step = |path| Action::Move {
        order: dbcore::battle::MoveOrder::Element { id, path },
    };
    let token = b.check_action(step(vec![to])).expect("legal");
    // §7.5: the element moves once this bound; the token of its first move is now stale.
    b.apply(step(vec![to])).expect("legal");
    let before = b.clone();
    let refused = b
        .apply_checked(token)
        .expect_err("a second move of the same element");
    let mut again = before.clone();
    assert_eq!(again.apply(step(vec![to])), Err(refused));
    assert_eq!(b, before, "a refusal changes nothing");
}

#[test]
fn the_stamp_is_not_part_of_the_state() {
    let b = moving();
    let c = b.clone();
    assert_eq!(b, c);
    let text = serde_json::to_string(&b).expect("json");
    assert!(!text.contains("stamp"));
    let back: Battle = serde_json::from_str(&text).expect("reads back");
    assert_eq!(back, b);
    assert!(matches!(
        Battle::new(demo_setup())
            .expect("valid")
            .check_action(Action::EndMovement),
        Err(BattleError::WrongPhase { .. })
    ));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 12, ..Default::default() })]

    /// DBA3.md §7.1, §10.2: who is in close combat is the same whether the battle's per-state
    /// cache answers or every element is classified afresh, at every state of a driven battle.
    #[test]
    fn cached_and_uncached_close_combat_agree(seed in 0u64..1_000) {
        let driven = play(demo_setup(), seed, 12).expect("plays");
        let mut b = Battle::new(driven.record.setup.clone()).expect("valid");
        for a in driven.record.actions.iter().cloned() {
            let strongholds = b.held_strongholds();
            let ctx = b.move_context(&strongholds);
            proptest::prop_assert!(ctx.close_combat.is_some(), "a fresh state has its cache");
            let plain = dbcore::battle::MoveContext { close_combat: None, ..ctx };
            for round in 0..2 {
                for i in 0..b.elements().len() {
                    let uncached = dbcore::battle::in_close_combat(&plain, i);
                    proptest::prop_assert_eq!(dbcore::battle::in_close_combat(&ctx, i), uncached, "round {}", round);
                    // A clone, or another question to the same state, answers the same.
                    let c = b.clone();
                    let strongholds = c.held_strongholds();
                    proptest::prop_assert_eq!(dbcore::battle::in_close_combat(&c.move_context(&strongholds), i), uncached);
                    let again = b.move_context(&strongholds);
                    proptest::prop_assert_eq!(dbcore::battle::in_close_combat(&again, i), uncached);
                }
            }
            b.apply(a).expect("replays");
        }
    }

    /// DBA3.md §10.2, §8.1: the close combats of a state, and every move checked against its
    /// threat zones, are the same whether the battle's per-state memo answers or they are worked
    /// out afresh, asked once or twice, at every state of a driven battle.
    #[test]
    fn cached_and_uncached_combats_and_moves_agree(seed in 0u64..1_000) {
        use dbcore::battle::engagement::close_combats;
        use dbcore::battle::{plan_move, ContactWanted, MoveOrder};
        use dbcore::geometry::Pose;
        let driven = play(demo_setup(), seed, 12).expect("plays");
        let mut b = Battle::new(driven.record.setup.clone()).expect("valid");
        for a in driven.record.actions.iter().cloned() {
            let strongholds = b.held_strongholds();
            let ctx = b.move_context(&strongholds);
            let plain = dbcore::battle::MoveContext { close_combat: None, ..ctx };
            let fresh = close_combats(&plain);
            proptest::prop_assert_eq!(&close_combats(&ctx), &fresh);
            proptest::prop_assert_eq!(&close_combats(&b.move_context(&strongholds)), &fresh);
            let enemy = b.elements().iter().find(|e| e.army != b.active_army()).map(|e| e.id);
            for e in b.elements().iter().filter(|e| e.army == b.active_army()) {
                let ahead = e.pose.front_mid() + e.pose.forward() * 1.5;
                let mut orders = vec![MoveOrder::Element {
                    id: e.id,
                    path: vec![Pose::new(ahead.x, ahead.y, e.pose.facing)],
                }];
                if let Some(target) = enemy {
                    orders.push(MoveOrder::IntoContact {
                        ids: vec![e.id],
                        target,
                        contact: ContactWanted::Front,
                    });
                }
                for order in &orders {
                    let uncached = plan_move(&plain, order);
                    proptest::prop_assert_eq!(&plan_move(&ctx, order), &uncached);
                    proptest::prop_assert_eq!(&plan_move(&ctx, order), &uncached);
                }
            }
            b.apply(a).expect("replays");
        }
    }
}
