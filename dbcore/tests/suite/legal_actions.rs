//! The concrete legal actions (`Battle::legal_actions`, DBA3.md §6–§10): every action listed is
//! accepted as it stands, a battle can be played from them alone with no refused try, and the
//! demonstration driver's and the opponent's choices are listed or are shorter moves along a
//! listed move.

use dbcore::ai::{Ai, AiConfig};
use dbcore::battle::{Action, Battle, DiceRequest, GroupStep, MoveOrder, Phase};
use dbcore::driver::{Demonstration, Policy};
use dbcore::{DieScore, SeededDice};

/// Pick one of `n` with the dice tray's stream (no modulo bias worth caring about here).
fn pick(dice: &mut SeededDice, n: usize) -> usize {
    use rand_core::RngCore;
    (dice.next_u64() % n as u64) as usize
}

fn throw(dice: &mut SeededDice) -> Vec<DieScore> {
    (0..4).map(|_| dice.roll()).collect()
}

/// Whether `a` is `listed`, or a shorter move along a listed move: the same mover, the same
/// straight line and end facing, no further; a group's or column's shorter advance; a shot with
/// support or shooting back added to a listed shot.
fn covered(battle: &Battle, listed: &[Action], a: &Action) -> bool {
    if listed.contains(a) {
        return true;
    }
    listed.iter().any(|l| along(battle, l, a))
}

fn along(battle: &Battle, l: &Action, a: &Action) -> bool {
    let same_facing = |x: f64, y: f64| {
        let d = (x - y).rem_euclid(360.0);
        d.min(360.0 - d) < 1e-6
    };
    match (l, a) {
        (
            Action::Move {
                order: MoveOrder::Element { id: li, path: lp },
            },
            Action::Move {
                order: MoveOrder::Element { id: ai, path: ap },
            },
        ) if li == ai && lp.len() == 1 && ap.len() == 1 => {
            let Some(e) = battle.element(*ai) else {
                return false;
            };
            let from = e.pose.front_mid();
            let (lv, av) = (lp[0].front_mid() - from, ap[0].front_mid() - from);
            same_facing(lp[0].facing, ap[0].facing)
                && lv.cross(av).abs() < 1e-6 * (1.0 + lv.length() * av.length())
                && lv.dot(av) >= -1e-9
                && av.length() <= lv.length() + 1e-6
        }
        (
            Action::Move {
                order: MoveOrder::Group { ids: li, steps: ls },
            },
            Action::Move {
                order:
                    MoveOrder::Group {
                        ids: ai,
                        steps: as_,
                    },
            },
        ) if li == ai => match (&ls[..], &as_[..]) {
            ([GroupStep::Advance { distance: ld }], [GroupStep::Advance { distance: ad }]) => {
                ld.signum() == ad.signum() && ad.abs() <= ld.abs() + 1e-6
            }
            _ => false,
        },
        (
            Action::Move {
                order: MoveOrder::Column { ids: li, path: lp },
            },
            Action::Move {
                order: MoveOrder::Column { ids: ai, path: ap },
            },
        ) if li == ai && lp.len() == 1 && ap.len() == 1 => {
            let Some(e) = battle.element(ai[0]) else {
                return false;
            };
            let from = e.pose.front_mid();
            let (lv, av) = (lp[0].front_mid() - from, ap[0].front_mid() - from);
            lv.cross(av).abs() < 1e-6 && av.length() <= lv.length() + 1e-6
        }
        (
            Action::Shoot {
                shooter: ls,
                target: lt,
                dice: ld,
                ..
            },
            Action::Shoot {
                shooter: s,
                target: t,
                dice: d,
                ..
            },
        ) => ls == s && lt == t && ld == d,
        _ => false,
    }
}

/// The dice an action carries, as a throw for the list it is compared with.
fn dice_of(a: &Action) -> Vec<DieScore> {
    let one = DieScore::new(1).expect("a die");
    match a {
        Action::RollPips { die } | Action::DiceRiver { die } => vec![*die, one, one, one],
        Action::RollCommandPips { dice } => dice.clone(),
        Action::Shoot { dice, .. } | Action::Fight { dice, .. } => {
            vec![dice[0], dice[1], one, one]
        }
        _ => vec![one; 4],
    }
}

#[test]
fn a_battle_played_from_the_legal_actions_alone_has_no_refused_try() {
    // DBA3.md §6–§13: a random player choosing only among the listed actions plays on to the
    // verdict (or the bound cap) with every listed action accepted by `check` as it stands.
    for seed in [3u64, 11] {
        let mut battle = Battle::new(dbcore::driver::demo_setup()).expect("demo set-up");
        let mut dice = SeededDice::new(seed);
        let mut listed_total = 0;
        for _ in 0..2000 {
            if matches!(battle.phase(), Phase::Finished { .. }) || battle.bound() > 20 {
                break;
            }
            let throw = throw(&mut dice);
            let list = battle.legal_actions(&throw);
            assert!(!list.is_empty(), "nothing listed in {:?}", battle.phase());
            listed_total += list.len();
            for a in &list {
                assert!(
                    battle.check(a).is_ok(),
                    "listed but refused: {a:?}: {:?}",
                    battle.check(a)
                );
            }
            // Prefer moves a little less than ending them, so the armies meet and fight.
            let k = pick(&mut dice, list.len());
            battle
                .apply(list[k].clone())
                .expect("a listed action is applied");
        }
        assert!(listed_total > 200, "the lists were nearly empty");
        assert!(battle.bound() > 2);
    }
}

#[test]
fn the_drivers_choices_are_listed_or_shorter_moves_along_a_listed_one() {
    // DBA3.md §7: the demonstration driver takes each element's contact or its step straight
    // towards the nearest enemy, which the list offers at its farthest.
    let mut battle = Battle::new(dbcore::driver::demo_setup()).expect("demo set-up");
    let mut dice = SeededDice::new(5);
    let mut driver = Demonstration::new();
    let (mut moves, mut uncovered) = (0, Vec::new());
    for _ in 0..400 {
        if matches!(battle.phase(), Phase::Finished { .. }) || battle.bound() > 12 {
            break;
        }
        let action = match battle.awaiting() {
            Some(DiceRequest::Pips { .. }) => Action::RollPips { die: dice.roll() },
            Some(DiceRequest::Shot { .. } | DiceRequest::Combat { .. }) => driver
                .next_action(&battle, Some(dice.roll_pair()))
                .expect("the driver acts"),
            _ => driver
                .next_action(&battle, None)
                .unwrap_or(Action::EndMovement),
        };
        let list = battle.legal_actions(&dice_of(&action));
        if matches!(action, Action::Move { .. }) {
            moves += 1;
            if !covered(&battle, &list, &action) {
                uncovered.push(action.clone());
            }
        } else {
            assert!(covered(&battle, &list, &action), "not listed: {action:?}");
        }
        battle.apply(action).expect("the driver's action is legal");
    }
    assert!(moves > 20, "the driver moved too little to tell");
    assert!(
        uncovered.is_empty(),
        "{} of {moves} moves are not along a listed one: {uncovered:?}",
        uncovered.len()
    );
}

#[test]
fn the_opponents_choices_are_listed_or_shorter_moves_along_a_listed_one() {
    // The opponent's candidates are the list's contacts, steps, groups, columns and road moves.
    let mut battle = Battle::new(dbcore::driver::demo_setup()).expect("demo set-up");
    let mut dice = SeededDice::new(9);
    let mut ai = Ai::new(AiConfig { nodes: 60, seed: 9 });
    let (mut moves, mut uncovered) = (0, Vec::new());
    for _ in 0..150 {
        if matches!(battle.phase(), Phase::Finished { .. }) || battle.bound() > 6 {
            break;
        }
        let roll = dice.roll_pair();
        let action = ai
            .next_action(&battle, Some(roll))
            .expect("the opponent acts");
        let list = battle.legal_actions(&dice_of(&action));
        if let Action::Move { .. } = action {
            moves += 1;
            if !covered(&battle, &list, &action) {
                uncovered.push(action.clone());
            }
        } else {
            assert!(covered(&battle, &list, &action), "not listed: {action:?}");
        }
        battle
            .apply(action)
            .expect("the opponent's action is legal");
    }
    assert!(moves > 5);
    // Its backward steps of 1 BW, half steps and shorter group advances are along listed moves;
    // every one must be.
    assert!(
        uncovered.is_empty(),
        "{} of {moves} moves are not along a listed one: {uncovered:?}",
        uncovered.len()
    );
}

#[test]
fn the_dice_given_are_the_dice_of_the_listed_actions() {
    // DBA3.md §6.2: the PIP roll listed is the die given; with no dice, no roll is listed.
    let battle = Battle::new(dbcore::driver::demo_setup()).expect("demo set-up");
    assert!(battle.legal_actions(&[]).is_empty());
    let six = DieScore::new(6).expect("a die");
    assert_eq!(
        battle.legal_actions(&[six]),
        vec![Action::RollPips { die: six }]
    );
}

#[test]
fn big_battle_and_giant_are_played_from_the_legal_actions_and_by_the_opponent() {
    // DBA3.md §14.4, §14.5: one PIP die a command, holds and the flight of demoralised
    // commands are listed like any action; the opponent answers the command dice the battle
    // awaits (#44: it rolled one die).
    for variant in [
        dbcore::battlefield::Variant::BigBattle,
        dbcore::battlefield::Variant::Giant,
    ] {
        let setup = dbcore::driver::big_battle_setup(variant);
        let mut battle = Battle::new(setup.clone()).expect("the set-up");
        let mut dice = SeededDice::new(21);
        for _ in 0..600 {
            if matches!(battle.phase(), Phase::Finished { .. }) || battle.bound() > 8 {
                break;
            }
            let list = battle.legal_actions(&throw(&mut dice));
            assert!(!list.is_empty(), "{variant:?}: nothing listed");
            let k = pick(&mut dice, list.len());
            battle
                .apply(list[k].clone())
                .unwrap_or_else(|e| panic!("{variant:?}: a listed action refused: {e}"));
        }
        assert!(battle.bound() > 2, "{variant:?}");
        // The opponent on both sides, with few nodes: every action it chooses is accepted.
        let mut battle = Battle::new(setup).expect("the set-up");
        let mut ai = Ai::new(AiConfig { nodes: 8, seed: 3 });
        for _ in 0..400 {
            if matches!(battle.phase(), Phase::Finished { .. }) || battle.bound() > 6 {
                break;
            }
            let roll = dice.roll_pair();
            let action = ai
                .next_action(&battle, Some(roll))
                .unwrap_or_else(|| panic!("{variant:?}: the opponent has no action"));
            battle
                .apply(action)
                .unwrap_or_else(|e| panic!("{variant:?}: the opponent's action refused: {e}"));
        }
        assert!(battle.bound() > 2, "{variant:?}");
    }
}
