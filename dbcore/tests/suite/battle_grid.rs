//! The per-state grid of elements (#15) is a pre-test only: on a crowded table, every move
//! planned and every close-combat question answered with the battle's per-state memo (which
//! holds the grid) is the same as worked out over every element.

use crate::battle_common;
use battle_common::*;

use dbcore::battle::{
    in_close_combat, plan_move, Battle, ContactWanted, ElementSetup, MoveContext, MoveOrder,
};
use dbcore::battlefield::{Battlefield, Board};
use dbcore::geometry::Pose;

/// Two armies of `n` in ranks of 15, close enough to meet within a few bounds.
fn crowded(n: u32) -> dbcore::battle::BattleSetup {
    let line = |first: u32, y0: f64, facing: f64, codes: [&str; 3]| -> Vec<ElementSetup> {
        (0..n)
            .map(|i| {
                let (rank, file) = (f64::from(i / 15), f64::from(i % 15));
                let y = if facing == 0.0 { y0 - rank } else { y0 + rank };
                let e = el(first + i, codes[(i % 3) as usize], 2.0 + file, y, facing);
                if i == 7 {
                    general(e)
                } else {
                    e
                }
            })
            .collect()
    };
    sandbox(
        Battlefield::new(Board {
            width: 20.0,
            depth: 16.0,
        }),
        armies(
            line(1, 6.0, 0.0, ["4Bd", "4Ax", "Ps"]),
            line(101, 10.0, 180.0, ["3Wb", "3Wb", "LH"]),
        ),
    )
}

#[test]
fn s7_2_s8_2_grid_answers_are_those_of_every_element() {
    // DBA3.md §7.2 (paths blocked), §8.2 (contacts), §7.1/§10.2 (who is in close combat).
    let driven = dbcore::driver::play(crowded(45), 3, 10).expect("plays");
    // The battle comes to blows, so contacts and close combats are asked about too.
    assert!(driven
        .record
        .actions
        .iter()
        .any(|a| matches!(a, dbcore::battle::Action::Fight { .. })));
    let mut b = Battle::new(driven.record.setup.clone()).expect("valid");
    let mut states = 0;
    for a in driven.record.actions.iter().cloned() {
        let strongholds = b.held_strongholds();
        let ctx = b.move_context(&strongholds);
        assert!(ctx.close_combat.is_some());
        let plain = MoveContext {
            close_combat: None,
            refusals: Default::default(),
            ..ctx
        };
        for i in 0..b.elements().len() {
            assert_eq!(in_close_combat(&ctx, i), in_close_combat(&plain, i));
        }
        let enemies: Vec<_> = b
            .elements()
            .iter()
            .filter(|e| e.army != b.active_army() && e.in_play())
            .map(|e| e.id)
            .collect();
        for (k, e) in b
            .elements()
            .iter()
            .filter(|e| e.army == b.active_army())
            .enumerate()
        {
            let ahead = e.pose.front_mid() + e.pose.forward() * 1.5;
            let mut orders = vec![MoveOrder::Element {
                id: e.id,
                path: vec![Pose::new(ahead.x, ahead.y, e.pose.facing)],
            }];
            if !enemies.is_empty() {
                orders.push(MoveOrder::IntoContact {
                    ids: vec![e.id],
                    target: enemies[k % enemies.len()],
                    contact: ContactWanted::Front,
                });
            }
            for order in &orders {
                assert_eq!(
                    plan_move(&ctx, order),
                    plan_move(&plain, order),
                    "{order:?}"
                );
            }
        }
        states += 1;
        b.apply(a).expect("replays");
    }
    assert!(states > 20, "{states} states");
}
