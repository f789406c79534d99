//! The opponent (`dbcore::ai`, issue #16): it never submits an action the referee refuses, it
//! always finishes a battle, and a decision is a function of the battle, the node budget and the
//! seed.

use dbcore::ai::{choose, choose_until, mirrored, plan_bound, Ai, AiConfig};
use dbcore::battle::{Action, Battle, Phase};
use dbcore::driver::{demo_setup, play_battle_with, Demonstration, Policy};
use dbcore::{DieScore, SeededDice};
use proptest::prelude::*;

/// A policy that checks every action its inner policy returns against the battle before the
/// game loop applies it, counting refusals.
struct Checked<P> {
    inner: P,
    refused: Vec<(Action, String)>,
    actions: usize,
}

impl<P: Policy> Policy for Checked<P> {
    fn next_action(&mut self, battle: &Battle, dice: Option<[DieScore; 2]>) -> Option<Action> {
        let a = self.inner.next_action(battle, dice);
        match &a {
            Some(a) => {
                self.actions += 1;
                if let Err(e) = battle.check(a) {
                    self.refused.push((a.clone(), e.to_string()));
                }
            }
            // DBA3.md §6.1: in shooting and close combat there is always a legal choice while
            // the battle awaits one; giving none would stop the game.
            None => assert_eq!(
                battle.phase(),
                Phase::Movement,
                "no action outside movement"
            ),
        }
        a
    }
}

const MAX_BOUNDS: u32 = 40;

fn checked(nodes: u32, seed: u64) -> Checked<Ai> {
    Checked {
        inner: Ai::new(AiConfig { nodes, seed }),
        refused: Vec::new(),
        actions: 0,
    }
}

/// The game ended as a game ends: a verdict, or the bound limit.
fn finished(d: &dbcore::driver::DrivenBattle) -> bool {
    d.verdict.is_some() || d.bounds > MAX_BOUNDS
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    // DBA3.md §6.1–§13.2: over any seed and side, every action the opponent gives is accepted
    // and the battle is played to its end.
    #[test]
    fn the_opponent_is_never_refused_and_always_finishes(
        seed in any::<u64>(), army in 0usize..2, side in 0usize..2, nodes in 40u32..200,
    ) {
        let setup = mirrored(&demo_setup(), army);
        let battle = Battle::new(setup).expect("mirrored set-up is valid");
        let mut ai = checked(nodes, seed);
        let mut driver = Demonstration::new();
        let mut dice = SeededDice::new(seed);
        let d = if side == 0 {
            play_battle_with(battle, &mut dice, MAX_BOUNDS, &mut [&mut ai, &mut driver])
        } else {
            play_battle_with(battle, &mut dice, MAX_BOUNDS, &mut [&mut driver, &mut ai])
        };
        prop_assert!(ai.refused.is_empty(), "refused: {:?}", ai.refused);
        prop_assert!(ai.actions > 0);
        prop_assert!(finished(&d), "stopped at bound {} without a verdict", d.bounds);
        // The record replays to the same events.
        let (_, events) = Battle::replay(&d.record).expect("the record replays");
        prop_assert_eq!(events, d.events);
    }
}

// DBA3.md §6.1: two opponents against each other on the demonstration's (unmirrored) armies.
#[test]
fn opponent_against_opponent_is_never_refused() {
    for seed in 0..3u64 {
        let battle = Battle::new(demo_setup()).expect("demo set-up");
        let mut a = checked(120, seed);
        let mut b = checked(120, seed + 7);
        let mut dice = SeededDice::new(seed);
        let d = play_battle_with(battle, &mut dice, MAX_BOUNDS, &mut [&mut a, &mut b]);
        assert!(a.refused.is_empty() && b.refused.is_empty());
        assert!(finished(&d), "seed {seed}: stopped at bound {}", d.bounds);
    }
}

/// The demonstration battle advanced to the Romans' first movement phase.
fn first_movement() -> Battle {
    let mut b = Battle::new(demo_setup()).expect("demo set-up");
    b.apply(Action::RollPips {
        die: DieScore::new(4).expect("die"),
    })
    .expect("PIP roll");
    b
}

// The same battle, budget in nodes and seed give the same choice; a caller's stop after n nodes
// gives what a budget of n nodes gives.
#[test]
fn a_decision_depends_only_on_the_battle_the_nodes_and_the_seed() {
    let b = first_movement();
    let cfg = AiConfig { nodes: 60, seed: 5 };
    let first = choose(&b, None, &cfg).expect("a move");
    assert_eq!(choose(&b, None, &cfg).expect("a move"), first);
    let mut asked = 0u32;
    let mut stop = || {
        asked += 1;
        asked > 60
    };
    let big = AiConfig {
        nodes: 10_000,
        seed: 5,
    };
    assert_eq!(
        choose_until(&b, None, &big, &mut stop).expect("a move"),
        first
    );
    assert!(b.check(&first).is_ok());
}

// DBA3.md §6.2, §6.3: the PIP die is rolled from the seed when awaited; the bound the opponent
// plans spends its PIPs and ends with the bound.
#[test]
fn a_planned_bound_is_accepted_from_its_first_action_to_its_last() {
    let b = Battle::new(demo_setup()).expect("demo set-up");
    let plan = plan_bound(&b, &AiConfig { nodes: 80, seed: 2 }).expect("a plan");
    assert!(matches!(plan[0], Action::RollPips { .. }));
    assert!(plan.contains(&Action::EndMovement));
    let mut replay = b.clone();
    for a in &plan {
        replay
            .apply(a.clone())
            .expect("every planned action is accepted");
    }
    assert_ne!(replay.active_army(), b.active_army());
}

// §13.2: there is nothing to choose once the battle is over.
#[test]
fn a_finished_battle_has_no_choice() {
    let battle = Battle::new(demo_setup()).expect("demo set-up");
    let mut a = Ai::new(AiConfig {
        nodes: 100,
        seed: 1,
    });
    let mut b = Ai::new(AiConfig {
        nodes: 100,
        seed: 2,
    });
    let mut dice = SeededDice::new(3);
    let d = play_battle_with(battle, &mut dice, 200, &mut [&mut a, &mut b]);
    let (end, _) = Battle::replay(&d.record).expect("replays");
    assert!(
        matches!(end.phase(), Phase::Finished { .. }),
        "{:?}",
        end.phase()
    );
    let e = choose(&end, None, &AiConfig::default()).unwrap_err();
    assert_eq!(e, dbcore::ai::AiError::Finished);
}

// DBA3.md §3.7, §5.4, §6.1: whole games between two list armies, the opponent making its own
// pre-battle choices (terrain, quarters, spots, base edge, camp, deployment) and playing the battle, against the
// driver and against itself: every pre-battle choice and every battle action is accepted.
#[test]
fn whole_games_from_list_ids_are_never_refused() {
    use dbcore::ai::{play_game_with, prebattle};
    use dbcore::battle::prebattle::PrebattleSetup;
    for (seed, [a, b], ai_armies) in [
        (1u64, ["II/56", "II/53"], [true, false]),
        (2, ["I/2a", "I/6a"], [false, true]),
        (3, ["II/5a", "II/56"], [true, true]),
    ] {
        let setup = PrebattleSetup::from_lists(a, b).expect("bundled lists");
        let config = AiConfig { nodes: 60, seed };
        let mut first = checked(60, seed);
        let mut second = checked(60, seed + 1);
        let mut d1 = Demonstration::new();
        let mut d2 = Demonstration::new();
        let players: [&mut dyn Policy; 2] = [
            if ai_armies[0] { &mut first } else { &mut d1 },
            if ai_armies[1] { &mut second } else { &mut d2 },
        ];
        let mut players = players;
        let game = play_game_with(
            setup,
            seed,
            12,
            &mut |pre, dice| prebattle::play_prebattle(pre, dice, &ai_armies, &config),
            &mut players,
        )
        .unwrap_or_else(|e| panic!("{a} against {b}: {e}"));
        assert!(first.refused.is_empty() && second.refused.is_empty());
        assert!(first.actions + second.actions > 0);
        assert!(game.verdict.is_some() || game.bounds > 12 || !game.events.is_empty());
        // The record replays: the opponent's pre-battle choices are ordinary actions.
        let replayed = game.record.replay().expect("the game replays");
        assert_eq!(replayed.events, game.events);
    }
}

// DBA3.md §3.8, §4.6, §5.2, §5.4: the opponent makes every pre-battle choice of its army
// (quarters and feature spots, the invader's base edge, its camp, its deployment) and the
// referee accepts each one and the battle they set up, for either army or both, over many
// seeds and list pairs.
#[test]
fn the_opponents_whole_pre_battle_is_accepted() {
    use dbcore::ai::prebattle::play_prebattle;
    use dbcore::battle::prebattle::{Prebattle, PrebattleAction, PrebattleSetup};
    let pairs = [
        ["II/56", "II/53"],
        ["II/5a", "II/56"],
        ["I/2a", "I/6a"],
        ["II/33", "II/32a"],
    ];
    let mut chosen = [0usize; 4];
    for seed in 0..16u64 {
        for (k, [a, b]) in pairs.iter().enumerate() {
            let ai = [seed % 3 != 1, seed % 3 != 0];
            let setup = PrebattleSetup::from_lists(a, b).expect("bundled lists");
            let mut pre = Prebattle::new(setup).expect("a legal set-up");
            let mut dice = SeededDice::new(seed * 7 + k as u64);
            let config = AiConfig { nodes: 60, seed };
            play_prebattle(&mut pre, &mut dice, &ai, &config)
                .unwrap_or_else(|e| panic!("seed {seed}, {a} against {b}: {e}"));
            assert!(pre.awaiting().is_none(), "the pre-battle is over");
            // DBA3.md §4.6: and the battle it sets up is legal (no element in a camp that has
            // camp followers, among the rest).
            let setup = pre
                .battle_setup()
                .expect("a finished pre-battle sets up a battle");
            dbcore::battle::Battle::new(setup)
                .unwrap_or_else(|e| panic!("seed {seed}, {a} against {b}: {e}"));
            for action in pre.actions() {
                match action {
                    PrebattleAction::ChooseQuarter { .. } => chosen[0] += 1,
                    PrebattleAction::PlaceFeature { .. } | PrebattleAction::DiscardFeature => {
                        chosen[1] += 1
                    }
                    PrebattleAction::ChooseBaseEdge { .. } => chosen[2] += 1,
                    PrebattleAction::PlaceCamp { .. } | PrebattleAction::NoCamp => chosen[3] += 1,
                    _ => {}
                }
            }
        }
    }
    assert!(
        chosen.iter().all(|&n| n > 0),
        "every kind of choice was made: {chosen:?}"
    );
}

// DBA3.md §5.2, §4.6, §5.4: once the table is laid out, the opponent's base edge, camp and
// deployment are its own evaluation's, not chance: from the same table, two different dice
// streams give the same choices.
#[test]
fn the_opponents_edge_camp_and_deployment_do_not_depend_on_the_dice() {
    use dbcore::ai::prebattle::play_prebattle;
    use dbcore::battle::prebattle::{Prebattle, PrebattleRequest, PrebattleSetup};
    for (seed, [a, b]) in [(3u64, ["II/56", "II/53"]), (5, ["I/2a", "I/6a"])] {
        let setup = PrebattleSetup::from_lists(a, b).expect("bundled lists");
        let mut pre = Prebattle::new(setup).expect("a legal set-up");
        let mut dice = SeededDice::new(seed);
        // The demonstration lays out the table, up to the invader's choice of base edge.
        while let Some(req) = pre.awaiting() {
            if matches!(req, PrebattleRequest::BaseEdge { .. }) {
                break;
            }
            let action = dbcore::driver::prebattle_choice(&pre, &req, &mut dice).unwrap();
            pre.apply(action).unwrap();
        }
        let config = AiConfig { nodes: 60, seed };
        let played = |dice_seed: u64| {
            let mut p = pre.clone();
            play_prebattle(
                &mut p,
                &mut SeededDice::new(dice_seed),
                &[true, true],
                &config,
            )
            .unwrap_or_else(|e| panic!("{a} against {b}: {e}"));
            p.actions().to_vec()
        };
        assert_eq!(played(11), played(12), "{a} against {b}");
    }
}

// Issue #44: the opponent honours a budget of no nodes. It tries no move (its movement is to
// stand, DBA3.md §6.3: a bound may end with its PIPs unspent) and still answers what the battle
// awaits: the PIP die (§6.2) at once.
#[test]
fn with_no_nodes_the_opponent_tries_nothing_and_still_answers() {
    let b = first_movement();
    let mut ai = Ai::new(AiConfig { nodes: 0, seed: 3 });
    assert_eq!(ai.next_action(&b, None), Some(Action::EndMovement));
    assert_eq!(ai.nodes_spent, 0);
    let fresh = Battle::new(demo_setup()).expect("demo set-up");
    let roll = ai
        .next_action(&fresh, None)
        .expect("the PIP die is answered");
    assert!(matches!(roll, Action::RollPips { .. }), "{roll:?}");
    assert!(fresh.check(&roll).is_ok());
    assert_eq!(ai.nodes_spent, 0);
}
