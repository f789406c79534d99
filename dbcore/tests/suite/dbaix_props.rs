//! Property tests of the DBAix state machine (DBAIX.md §2, DBAIX.md §3): refusals leave the state equal,
//! `check` equals `apply`, records replay identically through JSON, and no figure overlaps another
//! or the table edge after any legal transition.

use dbcore::dbaix::driver::{demo_setup, play};
use dbcore::dbaix::{Action, Battle, BattleRecord, FigureId};
use proptest::prelude::*;

fn replay_checked(record: &BattleRecord) {
    let mut b = Battle::new(record.setup.clone()).unwrap();
    assert!(b.misplaced().is_empty());
    for a in &record.actions {
        let checked = b.check(a).unwrap();
        let applied = b.apply(a.clone()).unwrap();
        // DBAIX.md §2: check is apply without the commit.
        assert_eq!(checked, applied);
        // DBAIX.md §3: nobody stands on anybody after a legal transition.
        assert!(b.misplaced().is_empty(), "{:?} after {a:?}", b.misplaced());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    // DBAIX.md §2: a whole driven game replays to the same events and state, also from JSON.
    #[test]
    fn driven_games_replay_identically(seed in 0u64..10_000) {
        let p = play(demo_setup(), seed, 600).unwrap();
        let (b, events) = Battle::replay(&p.record).unwrap();
        prop_assert_eq!(&events, &p.events);
        prop_assert_eq!(b.record(), p.record.clone());
        let json = serde_json::to_string(&p.record).unwrap();
        let back: BattleRecord = serde_json::from_str(&json).unwrap();
        let (b2, events2) = Battle::replay(&back).unwrap();
        prop_assert_eq!(events2, events);
        prop_assert_eq!(b2, b);
        replay_checked(&p.record);
    }

    // DBAIX.md §3: any move, legal or not, at any point of a game: a refusal leaves the state
    // exactly as it was; an accepted move leaves nobody overlapping.
    #[test]
    fn random_moves_refused_cleanly_or_legal(
        seed in 0u64..1000,
        prefix in 0usize..200,
        ids in proptest::collection::vec(0u32..26, 1..4),
        bearing in -360.0f64..720.0,
        distance in -1.0f64..6.0,
        face in proptest::option::of(0.0f64..360.0),
    ) {
        let p = play(demo_setup(), seed, prefix).unwrap();
        let (mut b, _) = Battle::replay(&p.record).unwrap();
        let before = b.clone();
        let a = Action::Move {
            figures: ids.into_iter().map(FigureId).collect(),
            bearing,
            distance,
            face,
        };
        let checked = b.check(&a);
        match b.apply(a) {
            Ok(events) => {
                prop_assert_eq!(checked.unwrap(), events);
                prop_assert!(b.misplaced().is_empty());
            }
            Err(e) => {
                prop_assert_eq!(checked.unwrap_err(), e);
                prop_assert_eq!(b, before);
            }
        }
    }
}
