//! Compact states forged the way an attacker forges them (issue #44): the text edited, then
//! resealed with the public digest. Each is refused with every problem named, or plays on
//! (its legal actions asked and a few applied) without a panic or a hang.

use std::sync::mpsc;
use std::time::Duration;

use dbcore::battle::saved::StateHasher;
use dbcore::battle::{Action, Battle, StateError};
use dbcore::{DieScore, ErrorCode, ErrorInfo, SeededDice};
use proptest::prelude::*;
use serde_json::{json, Value};

/// `value` written as the compact state's text with the digest an attacker computes for it.
fn reseal(mut value: Value) -> String {
    value
        .as_object_mut()
        .expect("a compact state is an object")
        .shift_remove("digest");
    let body = serde_json::to_string(&value).expect("serialises");
    let mut h = StateHasher::default();
    h.update(body.as_bytes());
    let digest = h.finish_hex();
    format!("{},\"digest\":\"{digest}\"}}", &body[..body.len() - 1])
}

/// The demonstration battle after `actions` of the demonstration driver's dice.
fn driven(actions: usize) -> Battle {
    let record = dbcore::driver::play(dbcore::driver::demo_setup(), 7, 40)
        .expect("the demonstration set-up is valid")
        .record;
    let mut b = Battle::new(record.setup).expect("valid");
    for a in record.actions.into_iter().take(actions) {
        b.apply(a).expect("the driver's action applies");
    }
    b
}

/// Runs `f` on a thread of its own and fails if it takes more than `secs` seconds.
fn within<T: Send + 'static>(secs: u64, what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    match rx.recv_timeout(Duration::from_secs(secs)) {
        Ok(v) => v,
        Err(_) => panic!("{what}: no answer in {secs} s"),
    }
}

/// Reads `text`; if it is accepted, asks for its legal actions and applies a few of them (the
/// first each time), with dice from `seed`. Refusals are fine; a panic or a hang is not.
fn read_and_play(text: String, seed: u64) -> Result<(), StateError> {
    let mut battle = Battle::from_state_json(&text)?;
    let mut dice = SeededDice::new(seed);
    for _ in 0..6 {
        let roll: Vec<DieScore> = (0..6).map(|_| dice.roll()).collect();
        let Some(action) = battle.legal_actions(&roll).into_iter().next() else {
            break;
        };
        battle
            .apply(action)
            .expect("a legal action of an accepted state applies");
    }
    Ok(())
}

fn refused(text: String) -> StateError {
    let err = within(10, "reading a forged state", move || {
        Battle::from_state_json(&text)
    })
    .expect_err("a forged state is refused");
    assert_eq!(err.code(), ErrorCode::InvalidArgument, "{err}");
    err
}

#[test]
fn a_resealed_honest_state_is_read_back() {
    let battle = driven(30);
    let text = reseal(battle.state_value());
    assert_eq!(Battle::from_state_json(&text), Ok(battle));
}

#[test]
fn a_command_of_an_army_that_does_not_exist_is_refused() {
    // Issue #44: one extra command `{"army": 7}` and a recomputed digest passed, and the next
    // end of movement indexed army 7 of 2.
    let mut v = driven(1).state_value();
    v["commands"] = json!([{
        "army": 7, "id": 0, "general": 1, "elements": [1, 2], "allied": false,
        "c_in_c": true, "original": 2, "pips": 3
    }]);
    let err = refused(reseal(v));
    let text = err.to_string();
    assert!(text.contains("commands[0]"), "{text}");
    assert!(text.contains("army 7"), "{text}");
}

#[test]
fn elements_stacked_on_one_pose_are_refused_with_every_overlap() {
    // Issue #44: 11 Roman and 5 British elements on one pose, with element 8 in 5 combats at
    // once, made `fight 8 101` loop for ever.
    let mut v = driven(1).state_value();
    let pose = json!({"x": 10.5, "y": 8.0, "facing": 0.0});
    let elements = v["elements"].as_array_mut().expect("elements");
    for e in elements.iter_mut().take(11) {
        e["pose"] = pose.clone();
    }
    for e in elements.iter_mut().skip(12).take(5) {
        e["pose"] = json!({"x": 10.5, "y": 8.0, "facing": 180.0});
    }
    v["phase"] = json!({"phase": "close_combat"});
    let err = refused(reseal(v));
    let StateError::Invalid { problems } = &err else {
        panic!("not the invariants' error: {err}");
    };
    // 16 elements on one spot: 120 overlapping pairs, reported up to the cap and counted.
    assert!(problems.len() > 10, "{err}");
    assert!(err.to_string().contains("overlap"), "{err}");
}

/// One edit an attacker makes to a compact state, then reseals.
#[derive(Debug, Clone)]
enum Edit {
    /// An element moved anywhere (board or far off it), facing anywhere.
    Pose(usize, f64, f64, f64),
    /// An element put on another's pose.
    Stack(usize, usize),
    /// An element's status set.
    Status(usize, u8),
    /// An element's kind changed.
    Kind(usize, &'static str),
    /// The phase changed.
    Phase(u8),
    /// The active army.
    Active(u64),
    /// The PIPs.
    Pips(u64),
    /// An id listed as having shot, fought or pursued.
    Listed(&'static str, u64),
    /// A command added.
    Command(u64, u64),
    /// A sallied element added.
    Sallied(u64, u64),
    /// A verdict added.
    Verdict(u64, u64),
    /// An element's moves this bound.
    Moves(u64, f64),
}

fn edit() -> impl Strategy<Value = Edit> {
    let coord = prop_oneof![0.0..16.0f64, -50.0..50.0f64];
    prop_oneof![
        (0..24usize, coord.clone(), coord, 0.0..360.0f64)
            .prop_map(|(i, x, y, f)| Edit::Pose(i, x, y, f)),
        (0..24usize, 0..24usize).prop_map(|(i, j)| Edit::Stack(i, j)),
        (0..24usize, 0..4u8).prop_map(|(i, s)| Edit::Status(i, s)),
        (
            0..24usize,
            prop::sample::select(vec!["4Bd", "El", "Art", "CWg", "Cv", "Ps"])
        )
            .prop_map(|(i, k)| Edit::Kind(i, k)),
        (0..5u8).prop_map(Edit::Phase),
        (0..4u64).prop_map(Edit::Active),
        (0..300u64).prop_map(Edit::Pips),
        (
            prop::sample::select(vec!["shot", "fought", "pursued"]),
            prop_oneof![
                1..13u64,
                100..113u64,
                Just(0xFFFF_0005u64),
                Just(4_000_000_000u64)
            ]
        )
            .prop_map(|(f, id)| Edit::Listed(f, id)),
        (0..9u64, 0..120u64).prop_map(|(a, g)| Edit::Command(a, g)),
        (
            0..4u64,
            prop_oneof![1..13u64, Just(0xFFFF_0000u64), Just(777u64)]
        )
            .prop_map(|(a, id)| Edit::Sallied(a, id)),
        (0..4u64, 0..4u64).prop_map(|(l, w)| Edit::Verdict(l, w)),
        (0..255u64, -5.0..50.0f64).prop_map(|(n, d)| Edit::Moves(n, d)),
    ]
}

fn forge(v: &mut Value, e: &Edit) {
    let elements = v["elements"].as_array_mut().expect("elements");
    let n = elements.len();
    match *e {
        Edit::Pose(i, x, y, f) => {
            elements[i % n]["pose"] = json!({"x": x, "y": y, "facing": f});
        }
        Edit::Stack(i, j) => {
            let pose = elements[j % n]["pose"].clone();
            elements[i % n]["pose"] = pose;
        }
        Edit::Status(i, s) => {
            let status = match s {
                0 => json!({"status": "in_play"}),
                1 => json!({"status": "lost", "cause": "destroyed"}),
                2 => json!({"status": "lost", "cause": "removed"}),
                _ => json!({"status": "afloat"}),
            };
            elements[i % n]["status"] = status;
        }
        Edit::Kind(i, k) => elements[i % n]["kind"] = json!(k),
        Edit::Moves(i, d) => {
            elements[i as usize % n]["moves_this_bound"] = json!(i);
            elements[i as usize % n]["moved_this_bound"] = json!(d);
        }
        Edit::Phase(p) => {
            v["phase"] = match p {
                0 => json!({"phase": "awaiting_pips"}),
                1 => json!({"phase": "movement"}),
                2 => json!({"phase": "shooting"}),
                3 => json!({"phase": "close_combat"}),
                _ => json!({"phase": "finished", "winner": 5}),
            }
        }
        Edit::Active(a) => v["active"] = json!(a),
        Edit::Pips(p) => v["pips"] = json!(p),
        Edit::Listed(field, id) => v[field] = json!([id]),
        Edit::Command(army, general) => {
            v["commands"] = json!([{
                "army": army, "id": 0, "general": general, "elements": [general, 2, 3],
                "allied": false, "c_in_c": true, "original": 3, "pips": 2
            }]);
        }
        Edit::Sallied(army, id) => {
            v["sallied"] = json!([{
                "id": id, "army": army, "kind": "7Hd", "pose": {"x": 5.0, "y": 6.0, "facing": 0.0},
                "general": false, "contingent": null, "dismounts_as": null,
                "status": {"status": "in_play"}, "moves_this_bound": 0, "moved_this_bound": 0.0
            }]);
        }
        Edit::Verdict(loser, winner) => {
            v["verdict"] = json!({"totals": [4, 0], "loser": loser, "winner": winner});
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn a_forged_state_is_refused_or_plays_on(
        at in 0usize..60,
        edits in prop::collection::vec(edit(), 1..4),
        seed in any::<u64>(),
    ) {
        let mut v = driven(at).state_value();
        for e in &edits {
            forge(&mut v, e);
        }
        let text = reseal(v);
        let outcome = within(20, "a forged state", move || {
            std::panic::catch_unwind(|| read_and_play(text, seed)).map_err(|_| ())
        });
        prop_assert!(outcome.is_ok(), "panicked on {:?}", edits);
        if let Ok(Err(e)) = outcome {
            prop_assert!(
                matches!(e.code(), ErrorCode::InvalidArgument | ErrorCode::InvalidJson),
                "{:?}: {}", edits, e
            );
        }
    }
}

/// Every state of `setup`'s battle along `actions` is read back as itself: the checks refuse
/// nothing a battle played by dbcore can be in.
fn every_state_reads_back(name: &str, setup: dbcore::battle::BattleSetup, actions: &[Action]) {
    let mut b = Battle::new(setup).expect("a driven set-up is valid");
    for (i, a) in actions.iter().enumerate() {
        let text = b.state_json();
        assert_eq!(
            Battle::from_state_json(&text).as_ref(),
            Ok(&b),
            "{name} before action {i}"
        );
        b.apply(a.clone()).expect("the driver's action applies");
    }
    assert_eq!(Battle::from_state_json(&b.state_json()), Ok(b), "{name}");
}

#[test]
fn every_state_of_driven_games_passes_the_checks() {
    use dbcore::battlefield::Variant;
    for seed in 0..4 {
        let d = dbcore::driver::play(dbcore::driver::demo_setup(), seed, 60).expect("valid");
        every_state_reads_back(&format!("demo {seed}"), d.record.setup, &d.record.actions);
    }
    // Lists with Cities, camps, rivers and littoral landings, and the wider games.
    for (a, b, seed) in [
        ("II/56", "II/53", 1),
        ("II/29", "II/5a", 2),
        ("I/2a", "I/6a", 3),
    ] {
        let g = dbcore::driver::play_lists(a, b, seed, 60).expect("valid lists");
        every_state_reads_back(&format!("{a} {b}"), g.setup, &g.record.battle);
    }
    for variant in [Variant::BigBattle, Variant::Giant] {
        let g = dbcore::driver::play_big_lists(variant, "II/56", "II/53", 5, 40).expect("valid");
        every_state_reads_back(&format!("{variant:?}"), g.setup, &g.record.battle);
    }
}

#[test]
fn the_bound_of_a_state_is_checked_at_its_edge() {
    // docs/limits.md: `MAX_STATE_BOUND`.
    let most = dbcore::limits::MAX_STATE_BOUND;
    let mut v = driven(3).state_value();
    v["bound"] = json!(most);
    assert!(Battle::from_state_json(&reseal(v.clone())).is_ok());
    v["bound"] = json!(most + 1);
    let err = refused(reseal(v));
    assert!(err.to_string().contains("bound"), "{err}");
}
