//! Exact odds (DBA3.md §10.2, §11) and the properties every resolution keeps.

use crate::common;

use common::*;
use dbcore::combat::{odds, resolve, Band, Combatant, Outcome, Shot, Situation, Stronghold};
use dbcore::{DieScore, ElementKind, Going, RulesConfig};
use proptest::prelude::*;

#[test]
fn s11_factor_4_vs_2_gives_the_published_five_outcome_counts() {
    // DBA3.md §11 margins: combat factors 4 vs 2 → 9 doubled the opponent, 17 won, 4 tied,
    // 6 lost, 0 doubled out of 36. Spears (+4 vs foot) against Psiloi (+2).
    let o = odds(&cc(c("Sp"), c("Ps")), &RulesConfig::default()).unwrap();
    assert_eq!((o.a_factor, o.b_factor), (4, 2));
    let m = o.margins;
    assert_eq!(
        (m.a_doubled_b, m.a_won, m.tied, m.b_won, m.b_doubled_a),
        (9, 17, 4, 6, 0)
    );
}

#[test]
fn s11_equal_factors_are_symmetric() {
    // DBA3.md §11: equal factors: 6 ties out of 36 and the same chances either way.
    let o = odds(&cc(c("4Bd"), c("4Bd")), &RulesConfig::default()).unwrap();
    let m = o.margins;
    assert_eq!(m.tied, 6);
    assert_eq!(m.a_won, m.b_won);
    assert_eq!(m.a_doubled_b, m.b_doubled_a);
}

#[test]
fn s11_1_knights_against_blades_outcome_pairs() {
    // DBA3.md §11.1-11.3: 3Kn (+3 vs foot) vs 4Bd (+3 vs mounted): ties kill the Knights.
    let o = odds(&cc(c("3Kn"), c("4Bd")), &RulesConfig::default()).unwrap();
    assert_eq!(
        o.count(Outcome::Destroyed, Outcome::NoEffect),
        6 + o.margins.b_doubled_a
    );
    assert_eq!(o.a_count(Outcome::Recoil), o.margins.b_won);
    // Blades beaten by Knights in good going are destroyed; doubled too.
    assert_eq!(
        o.b_count(Outcome::Destroyed),
        o.margins.a_won + o.margins.a_doubled_b
    );
}

#[test]
fn s11_1_a_higher_score_can_be_worse_for_knights_against_blades() {
    // DBA3.md §11.1 against §11.2: Knights beaten by Blades recoil, but Knights tying them are
    // destroyed. A higher die is not always better: this is the rule, not an error.
    let s = cc(c("3Kn"), c("4Bd"));
    let cfg = RulesConfig::default();
    let d = |v| DieScore::new(v).unwrap();
    assert_eq!(
        resolve(&s, [d(2), d(3)], &cfg).unwrap().a.outcome,
        Outcome::Recoil
    );
    assert_eq!(
        resolve(&s, [d(3), d(3)], &cfg).unwrap().a.outcome,
        Outcome::Destroyed
    );
}

fn any_kind() -> impl Strategy<Value = ElementKind> {
    let all = ElementKind::all();
    (0..all.len()).prop_map(move |i| all[i])
}

fn any_going() -> impl Strategy<Value = Going> {
    prop_oneof![Just(Going::Good), Just(Going::Rough), Just(Going::Bad)]
}

fn any_combatant() -> impl Strategy<Value = Combatant> {
    (
        any_kind(),
        any_going(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        0u8..=3,
        proptest::option::of(any_kind()),
        proptest::collection::vec(any_kind(), 0..=2),
        any::<bool>(),
    )
        .prop_map(|(k, g, general, uphill, bank, flank, rear, side, demor)| {
            let mut x = Combatant::new(k).in_going(g);
            x.general = general;
            x.uphill = uphill;
            x.defending_bank = bank;
            x.flank_rear_contacts = flank;
            x.rear_supporter = rear.map(dbcore::combat::Supporter::new);
            x.side_supporters = side
                .into_iter()
                .map(dbcore::combat::Supporter::new)
                .collect();
            x.demoralised = demor;
            x
        })
}

fn any_situation() -> impl Strategy<Value = Situation> {
    (
        any_combatant(),
        any_combatant(),
        0u8..4,
        0u8..=2,
        any::<bool>(),
        any::<bool>(),
        prop_oneof![
            Just(Stronghold::City),
            Just(Stronghold::Fort),
            Just(Stronghold::Camp)
        ],
    )
        .prop_map(|(a, b, mode, support, back, behind, place)| match mode {
            0 => Situation::close_combat(a, b),
            1 => Situation::shooting(
                a,
                b,
                Shot {
                    support_shooters: support,
                    target_shoots_back: back,
                    from_behind: behind,
                    ..Shot::default()
                },
            ),
            2 => Situation::close_combat(a.assaulting(place), b.defending(place, support)),
            _ => Situation::shooting(
                a,
                b.defending(place, 0),
                Shot {
                    support_shooters: support,
                    ..Shot::default()
                },
            ),
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn odds_count_to_36(s in any_situation()) {
        // DBA3.md §10.2: two d6, 36 equally likely pairs.
        if let Ok(o) = odds(&s, &RulesConfig::default()) {
            let sum: u32 = o.outcomes.iter().map(|e| u32::from(e.count)).sum();
            prop_assert_eq!(sum, 36);
            prop_assert_eq!(o.a.iter().map(|&v| u32::from(v)).sum::<u32>(), 36);
            let m = o.margins;
            prop_assert_eq!(
                u32::from(m.a_doubled_b) + u32::from(m.a_won) + u32::from(m.tied)
                    + u32::from(m.b_won) + u32::from(m.b_doubled_a),
                36
            );
        }
    }

    #[test]
    fn swapping_sides_swaps_outcomes(s in any_situation(), da in 1u8..=6, db in 1u8..=6) {
        // §11 is applied to each element separately: naming them the other way round changes
        // nothing.
        let cfg = RulesConfig::default();
        let d = |v| DieScore::new(v).unwrap();
        if let Ok(r) = resolve(&s, [d(da), d(db)], &cfg) {
            let w = resolve(&s.swapped(), [d(db), d(da)], &cfg).unwrap();
            prop_assert_eq!(r.a.outcome, w.b.outcome);
            prop_assert_eq!(r.b.outcome, w.a.outcome);
            prop_assert_eq!(r.a.total, w.b.total);
            prop_assert_eq!(&r.a.factors, &w.b.factors);
            let o = odds(&s, &cfg).unwrap();
            let ow = odds(&s.swapped(), &cfg).unwrap();
            prop_assert_eq!(o.a, ow.b);
            prop_assert_eq!(o.margins.a_doubled_b, ow.margins.b_doubled_a);
        }
    }

    #[test]
    fn a_higher_die_never_gives_a_worse_result_except_a_quick_kill_tie(
        s in any_situation(), da in 1u8..=5, db in 1u8..=6
    ) {
        // DBA3.md §11: a higher score moves an element up the bands (doubled, beaten, equal,
        // higher). Its outcome never gets worse, except that the tie rules of §11.1 can be
        // harsher than being beaten (Knights tied by Blades die but recoil when beaten; Scythed
        // Chariots tied die but flee when beaten by shooting).
        let cfg = RulesConfig::default();
        let d = |v| DieScore::new(v).unwrap();
        if let Ok(lo) = resolve(&s, [d(da), d(db)], &cfg) {
            let hi = resolve(&s, [d(da + 1), d(db)], &cfg).unwrap();
            prop_assert!(band_rank(hi.a.band) >= band_rank(lo.a.band));
            if hi.a.band != Band::Equal {
                prop_assert!(hi.a.outcome.severity() <= lo.a.outcome.severity(),
                    "{:?} -> {:?}", lo.a, hi.a);
            }
        }
    }

    #[test]
    fn resolve_agrees_with_odds(s in any_situation()) {
        // Odds are nothing but resolution over every pair.
        let cfg = RulesConfig::default();
        if let Ok(o) = odds(&s, &cfg) {
            let mut counts = [[0u8; 4]; 4];
            for da in DieScore::ALL {
                for db in DieScore::ALL {
                    let r = resolve(&s, [da, db], &cfg).unwrap();
                    counts[r.a.outcome as usize][r.b.outcome as usize] += 1;
                }
            }
            for e in &o.outcomes {
                prop_assert_eq!(counts[e.a as usize][e.b as usize], e.count);
            }
        }
    }

    #[test]
    fn situations_round_trip_through_json(s in any_situation()) {
        let json = serde_json::to_string(&s).unwrap();
        let back: Situation = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(back, s);
    }
}

fn band_rank(b: Band) -> u8 {
    match b {
        Band::Doubled => 0,
        Band::Beaten => 1,
        Band::Equal => 2,
        Band::Higher => 3,
    }
}
