//! `resolve` takes short cuts (#15): a quick validity test for the common case and a table of
//! the outcomes in the open. `Prepared` counts the same situation the long way (every check,
//! every band of §11 worked out by its rows); these tests hold the two to the same result, byte
//! for byte in JSON, for every pair of kinds and a spread of factors, and to the same refusal.

use dbcore::combat::{
    resolve, resolve_brief, BriefResult, BriefSide, CombatResult, Combatant, Engagement, Going,
    Prepared, ShooterSide, Shot, Situation, Stronghold,
};
use dbcore::troops::{BaseKind, ElementKind};
use dbcore::{DieScore, RulesConfig};

fn every_kind() -> Vec<ElementKind> {
    let mut v: Vec<ElementKind> = BaseKind::ALL.into_iter().map(ElementKind::new).collect();
    v.extend(
        BaseKind::ALL
            .into_iter()
            .filter_map(|b| ElementKind::mounted_infantry(b).ok()),
    );
    v
}

/// Ways to dress a pair of kinds: plain, and with the factors of §9.4, §10.3, §14 and the
/// places of §4.7, one situation each.
fn variants(x: ElementKind, w: ElementKind) -> Vec<Situation> {
    let c = Combatant::new;
    let spear: ElementKind = "Sp".parse().expect("Sp");
    let shot = |shooter, support_shooters, target_shoots_back, from_behind| {
        Engagement::Shooting(Shot {
            shooter,
            support_shooters,
            target_shoots_back,
            from_behind,
        })
    };
    vec![
        Situation::close_combat(c(x), c(w)),
        Situation::close_combat(c(x).general().uphill(), c(w).flanked(1)),
        Situation::close_combat(c(x).in_going(Going::Bad), c(w).in_going(Going::Rough)),
        Situation::close_combat(c(x).in_going(Going::Rough), c(w).in_going(Going::Bad)),
        Situation::close_combat(
            c(x).side_supported_by(spear).side_supported_by(x),
            c(w).rear_supported_by(w).demoralised(),
        ),
        Situation::close_combat(c(x).rear_supported_by(x).defending_bank(), c(w).flanked(3)),
        Situation::close_combat(
            Combatant {
                cinc_bonus: true,
                ..c(x).general()
            },
            c(w).flanked(4),
        ),
        Situation::close_combat(
            c(x).defending(Stronghold::City, 1),
            c(w).assaulting(Stronghold::City),
        ),
        Situation::close_combat(
            c(x).assaulting(Stronghold::Camp),
            c(w).defending(Stronghold::Camp, 0),
        ),
        Situation::close_combat(c(x).defending(Stronghold::Fort, 0), c(w)),
        Situation {
            a: c(x),
            b: c(w),
            engagement: shot(ShooterSide::A, 1, false, false),
        },
        Situation {
            a: c(x).in_going(Going::Bad),
            b: c(w),
            engagement: shot(ShooterSide::B, 0, true, true),
        },
    ]
}

// DBA3.md §10, §11: for every ordered pair of kinds (mounted infantry included) and each way of
// dressing it, `resolve` gives what `Prepared` gives, for every pair of dice of the plain combat
// and six pairs of the others: the same totals, factors, bands, outcomes, rules and pursuit, or
// the same refusal; and `Prepared::totals` gives the same totals.
#[test]
fn resolve_gives_what_the_long_count_gives_for_every_kind_pair() {
    let cfg = RulesConfig::default();
    let kinds = every_kind();
    let dice: Vec<[DieScore; 2]> = DieScore::ALL
        .into_iter()
        .flat_map(|a| DieScore::ALL.into_iter().map(move |b| [a, b]))
        .collect();
    let mut compared = 0u64;
    for (i, &x) in kinds.iter().enumerate() {
        for (j, &w) in kinds.iter().enumerate() {
            for (v, sit) in variants(x, w).into_iter().enumerate() {
                let long = Prepared::new(&sit, &cfg);
                let some: Vec<[DieScore; 2]> = if v == 0 {
                    dice.clone()
                } else {
                    (0..6)
                        .map(|k| dice[(i * 7 + j * 5 + v * 3 + k * 6 + k) % 36])
                        .collect()
                };
                for d in some {
                    let fast = resolve(&sit, d, &cfg);
                    match &long {
                        Ok(p) => {
                            let want = p.resolve(d);
                            let got = fast.as_ref().unwrap_or_else(|e| {
                                panic!("{sit:?} refused by resolve ({e}) but not by Prepared")
                            });
                            assert_eq!(got, &want, "{sit:?} with {d:?}");
                            // The totals the packed batches read without a full result.
                            assert_eq!(p.totals(d), (want.a.total, want.b.total), "{sit:?}");
                            assert_eq!(
                                serde_json::to_string(got).expect("json"),
                                serde_json::to_string(&want).expect("json")
                            );
                        }
                        Err(e) => assert_eq!(fast.as_ref().err(), Some(e), "{sit:?}"),
                    }
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 100_000, "{compared}");
}

/// What `resolve_brief` must give: `resolve`'s result without the factor lists.
fn brief_of(r: &CombatResult) -> BriefResult {
    let side = |s: &dbcore::combat::SideResult| BriefSide {
        total: s.total,
        factor: s.factors.iter().map(|f| f.value).sum(),
        band: s.band,
        outcome: s.outcome,
        rule: match s.rule {
            std::borrow::Cow::Borrowed(text) => text,
            std::borrow::Cow::Owned(_) => panic!("resolve gave an owned rule text"),
        },
    };
    BriefResult {
        a: side(&r.a),
        b: side(&r.b),
        pursuit: r.pursuit,
    }
}

// DBA3.md §10, §11: `resolve_brief` counts each side's factors into a sum instead of a list; for
// every ordered pair of kinds, each way of dressing it and every pair of dice, it gives exactly
// `resolve`'s totals, factor sums, bands, outcomes, rules (the same static text) and pursuit, or
// the same refusal.
#[test]
fn resolve_brief_is_resolve_without_the_factor_lists() {
    let cfg = RulesConfig::default();
    let kinds = every_kind();
    let mut compared = 0u64;
    let mut refused = 0u64;
    for &x in &kinds {
        for &w in &kinds {
            for sit in variants(x, w) {
                for da in DieScore::ALL {
                    for db in DieScore::ALL {
                        let d = [da, db];
                        match (resolve(&sit, d, &cfg), resolve_brief(&sit, d, &cfg)) {
                            (Ok(full), Ok(brief)) => {
                                assert_eq!(brief, brief_of(&full), "{sit:?} with {d:?}");
                                assert_eq!(brief.a.total - brief.a.factor, i32::from(da.get()));
                                assert!(std::ptr::eq(brief.a.rule, &*full.a.rule));
                                assert!(std::ptr::eq(brief.b.rule, &*full.b.rule));
                            }
                            (Err(e), Err(f)) => {
                                assert_eq!(e, f, "{sit:?}");
                                refused += 1;
                            }
                            (full, brief) => panic!("{sit:?}: resolve {full:?}, brief {brief:?}"),
                        }
                        compared += 1;
                    }
                }
            }
        }
    }
    assert!(compared > 500_000, "{compared}");
    assert!(refused > 0 && refused < compared, "{refused} of {compared}");
}
