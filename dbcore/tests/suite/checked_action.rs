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

/// Every action of a driven battle of `seed`.
fn driven_actions(seed: u64) -> Vec<Action> {
    play(demo_setup(), seed, 30).expect("plays").record.actions
}

/// The index of the first action of `actions` that is a tactical move.
fn first_move(actions: &[Action]) -> usize {
    actions
        .iter()
        .position(|a| matches!(a, Action::Move { .. }))
        .expect("a driven battle moves")
}

#[test]
fn checked_simulated_actions_commit_the_state_of_apply() {
    // DBA3.md §6.1, §9, §10: the end of the tactical moves, a shot and a close combat are
    // played out by their check on a clone; committing the token adopts that clone, and the
    // battle is the one `apply` makes, event for event, field for field and in its JSON.
    let v = ValidatedSetup::new(demo_setup()).expect("valid");
    let mut simulated = 0;
    for seed in [1, 2, 3] {
        let mut by_apply = Battle::start(&v);
        let mut by_token = Battle::start(&v);
        for a in driven_actions(seed) {
            if matches!(
                a,
                Action::EndMovement | Action::Shoot { .. } | Action::Fight { .. }
            ) {
                simulated += 1;
            }
            let expected = by_apply.apply(a.clone()).expect("replays");
            let token = by_token.check_action(a).expect("replays");
            assert_eq!(token.events(), expected.as_slice());
            assert_eq!(by_token.apply_checked(token), Ok(expected));
            assert_eq!(by_token, by_apply);
            assert_eq!(by_token.state_json(), by_apply.state_json());
        }
    }
    assert!(simulated > 10, "the battles end bounds and fight");
}

#[test]
fn a_refused_simulated_action_changes_nothing() {
    // DBA3.md §10.2: a Fight between two elements not in close combat with each other is
    // refused, and the state is exactly as it was, whether applied or checked first.
    let actions = driven_actions(1);
    let at = actions
        .iter()
        .position(|a| matches!(a, Action::Fight { .. }))
        .expect("a driven battle fights");
    let v = ValidatedSetup::new(demo_setup()).expect("valid");
    let (mut b, _) = Battle::replay_validated(&v, &actions[..at]).expect("replays");
    let Action::Fight { a, dice, .. } = actions[at].clone() else {
        unreachable!("found above")
    };
    let army = b.element(a).expect("fights").army;
    let friend = b
        .elements()
        .iter()
        .find(|e| e.army == army && e.id != a)
        .expect("a friend")
        .id;
    let fight = Action::Fight {
        a,
        b: friend,
        dice,
        recoil_own_depth: vec![],
        c_in_c_bonus: vec![],
    };
    let before = b.clone();
    let refused = b.apply(fight.clone()).expect_err("not in combat");
    assert!(matches!(refused, BattleError::NotInCombat { .. }));
    assert_eq!(b.check_action(fight), Err(refused));
    assert_eq!(b, before);
    assert_eq!(b.state_json(), before.state_json());
    // The recorded Fight still commits after the refusal.
    assert!(b.apply(actions[at].clone()).is_ok());
}

#[test]
fn records_of_one_validated_setup_replay_as_replay_does() {
    let v = ValidatedSetup::new(demo_setup()).expect("valid");
    for seed in [1, 2, 5] {
        let record = play(demo_setup(), seed, 30).expect("plays").record;
        let shared = Battle::replay_validated(&v, &record.actions).expect("replays");
        assert_eq!(
            shared,
            Battle::replay(&record).expect("replays"),
            "seed {seed}"
        );
        assert_eq!(shared.0.record(), record);
    }
}

#[test]
fn a_tampered_record_is_still_refused() {
    use dbcore::battle::{MoveOrder, ReplayError};
    let v = ValidatedSetup::new(demo_setup()).expect("valid");
    let actions = driven_actions(1);
    let i = first_move(&actions);

    // §7.3: a recorded move stretched to 10 BW is refused where it stands in the record.
    let mut stretched = actions.clone();
    if let Action::Move {
        order: MoveOrder::Element { path, .. },
    } = &mut stretched[i]
    {
        for p in path.iter_mut() {
            p.y += 10.0;
        }
    } else if let Action::Move { order } = &mut stretched[i] {
        *order = MoveOrder::Element {
            id: dbcore::battle::ElementId(9999),
            path: vec![],
        };
    }
    let err = Battle::replay_validated(&v, &stretched).expect_err("tampered");
    assert!(matches!(err, ReplayError::Action { index, .. } if index == i));
    let mut record = play(demo_setup(), 1, 30).expect("plays").record;
    record.actions = stretched.clone();
    assert!(matches!(
        Battle::replay(&record),
        Err(ReplayError::Action { index, .. }) if index == i
    ));

    // §6.1: an action dropped from the record (the first PIP roll) leaves the rest out of phase.
    let err = Battle::replay_validated(&v, &actions[1..]).expect_err("tampered");
    assert!(matches!(err, ReplayError::Action { index: 0, .. }));

    // A full state whose history was tampered with does not read back, and neither does one
    // whose position was: the replay disagrees with it.
    let (end, _) = Battle::replay_validated(&v, &actions).expect("replays");
    let full = serde_json::to_value(&end).expect("json");
    assert_eq!(
        Battle::from_state_value(full.clone()).expect("its own record"),
        end
    );
    let mut bad = full.clone();
    bad["actions"] = serde_json::to_value(&stretched).expect("json");
    assert!(Battle::from_state_value(bad).is_err());
    let mut moved = full;
    let y = moved["elements"][0]["pose"]["y"].as_f64().expect("a pose");
    moved["elements"][0]["pose"]["y"] = serde_json::json!(y + 0.5);
    assert!(matches!(
        Battle::from_state_value(moved),
        Err(dbcore::battle::StateError::NotItsRecord)
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

/// At every movement decision, asks about a spread of moves of every element of the moving
/// army (front contact with its nearest enemies, steps towards them of several lengths, and a
/// group step of the whole army) both ways and holds `legal_action` to `check_action`.
struct ComparingRefusals {
    accepted: usize,
    refused: usize,
    blocked: usize,
}

impl ComparingRefusals {
    fn compare(&mut self, b: &Battle) {
        use dbcore::battle::{ContactWanted, MoveError, MoveOrder};
        use dbcore::geometry::{Point, Pose};
        let els = b.elements();
        let mine: Vec<_> = els
            .iter()
            .filter(|e| e.in_play() && e.army == b.active_army())
            .collect();
        let mut actions = Vec::new();
        for me in &mine {
            let here = me.pose.front_mid();
            let mut enemies: Vec<_> = els
                .iter()
                .filter(|e| e.in_play() && e.army != me.army)
                .map(|e| (e.pose.front_mid().distance(here), e))
                .collect();
            enemies.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.id.cmp(&y.1.id)));
            for (_, enemy) in enemies.iter().take(2) {
                actions.push(Action::Move {
                    order: MoveOrder::IntoContact {
                        ids: vec![me.id],
                        target: enemy.id,
                        contact: ContactWanted::Front,
                    },
                });
                let to = enemy.pose.front_mid() - here;
                let facing = to.x.atan2(to.y).to_degrees();
                for d in [0.5, 1.5, 2.5, 3.5] {
                    let dest = here + Point::from_bearing(facing) * d;
                    actions.push(Action::Move {
                        order: MoveOrder::Element {
                            id: me.id,
                            path: vec![Pose::new(dest.x, dest.y, facing)],
                        },
                    });
                }
            }
            // Straight ahead, as it faces.
            let dest = here + Point::from_bearing(me.pose.facing) * 2.0;
            actions.push(Action::Move {
                order: MoveOrder::Element {
                    id: me.id,
                    path: vec![Pose::new(dest.x, dest.y, me.pose.facing)],
                },
            });
        }
        for a in actions {
            let named = b.check_action(a.clone());
            let any = b.legal_action(a.clone());
            match &named {
                Ok(_) => self.accepted += 1,
                Err(BattleError::Move(MoveError::Blocked { .. })) => self.blocked += 1,
                Err(_) => self.refused += 1,
            }
            assert_eq!(any, named.ok(), "bound {}: {a:?}", b.bound());
        }
    }
}

impl dbcore::driver::Policy for ComparingRefusals {
    fn next_action(&mut self, battle: &Battle, dice: Option<[DieScore; 2]>) -> Option<Action> {
        if battle.phase() == dbcore::battle::Phase::Movement {
            self.compare(battle);
        }
        dbcore::driver::Demonstration::new().next_action(battle, dice)
    }
}

/// #15: asking only whether a move is legal (`legal_action`, which may look for elements in the
/// way before the going and the distance, DBA3.md §7.2, §7.3) accepts exactly the moves
/// `check_action` accepts, with the same checked action, through whole standard and Big Battle
/// games; the moves tried include many blocked ones.
#[test]
fn legal_action_accepts_what_check_action_accepts() {
    use dbcore::battlefield::Variant;
    use dbcore::driver::{big_battle_setup, drive_with};
    let mut policy = ComparingRefusals {
        accepted: 0,
        refused: 0,
        blocked: 0,
    };
    for (setup, seeds, bounds) in [
        (demo_setup(), 1..7, 40),
        (big_battle_setup(Variant::BigBattle), 1..3, 12),
    ] {
        let v = ValidatedSetup::new(setup).expect("valid");
        for seed in seeds {
            let mut battle = Battle::start(&v);
            drive_with(
                &mut battle,
                &mut dbcore::SeededDice::new(seed),
                bounds,
                &mut [&mut policy],
            );
        }
    }
    assert!(policy.accepted > 100, "{} accepted", policy.accepted);
    assert!(policy.blocked > 100, "{} blocked", policy.blocked);
    assert!(policy.refused > 100, "{} refused otherwise", policy.refused);
}
