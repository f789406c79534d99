//! Helpers shared by the rules tests.
#![allow(dead_code)]

use dbcore::combat::{Band, CombatResult, Combatant, Outcome, Prepared, Shot, Situation};
use dbcore::{DieScore, ElementKind, FactorName, Going, RulesConfig};

pub fn kind(code: &str) -> ElementKind {
    code.parse().unwrap()
}

pub fn c(code: &str) -> Combatant {
    Combatant::new(kind(code))
}

pub fn cc(a: Combatant, b: Combatant) -> Situation {
    Situation::close_combat(a, b)
}

/// `a` shoots at `b`.
pub fn shoot(a: Combatant, b: Combatant) -> Situation {
    Situation::shooting(a, b, Shot::default())
}

pub fn prepared(s: &Situation) -> Prepared {
    Prepared::new(s, &RulesConfig::default()).expect("situation should be legal")
}

/// Every result of the 36 dice pairs in which `a` ends in `band`.
pub fn results_where_a(s: &Situation, band: Band) -> Vec<CombatResult> {
    let p = prepared(s);
    let mut v = Vec::new();
    for da in DieScore::ALL {
        for db in DieScore::ALL {
            let r = p.resolve([da, db]);
            if r.a.band == band {
                v.push(r);
            }
        }
    }
    v
}

/// The outcome of `a` whenever its total stands in `band` against `b`; panics if no dice give
/// that band or if the outcome is not the same for all of them.
pub fn a_outcome(s: &Situation, band: Band) -> Outcome {
    let rs = results_where_a(s, band);
    assert!(!rs.is_empty(), "no dice put a in band {band:?} for {s:?}");
    let o = rs[0].a.outcome;
    assert!(
        rs.iter().all(|r| r.a.outcome == o),
        "outcome varies within a band"
    );
    o
}

/// The outcome of `b` when `b`'s total stands in `band` against `a`.
pub fn b_outcome(s: &Situation, band: Band) -> Outcome {
    a_outcome(&s.swapped(), band)
}

/// The rule text given for `a` in `band`.
pub fn a_rule(s: &Situation, band: Band) -> String {
    results_where_a(s, band)[0].a.rule.to_string()
}

/// The value of a named factor in `a`'s total (0 when absent).
pub fn a_factor(s: &Situation, name: FactorName) -> i32 {
    prepared(s)
        .a_factors()
        .iter()
        .filter(|f| f.name == name)
        .map(|f| f.value)
        .sum()
}

pub fn in_going(mut x: Combatant, g: Going) -> Combatant {
    x.going = g;
    x
}
