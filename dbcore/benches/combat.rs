//! Speed of one combat resolution and one odds table (issue: foundation).
use criterion::{black_box, criterion_group, criterion_main, Criterion};
use dbcore::combat::{odds, resolve, Combatant, Prepared, Situation};
use dbcore::{DieScore, RulesConfig};

fn situation() -> Situation {
    Situation::close_combat(
        Combatant::new("4Bd".parse().unwrap()).general().uphill(),
        Combatant::new("3Kn".parse().unwrap()).flanked(1),
    )
}

fn bench(c: &mut Criterion) {
    let cfg = RulesConfig::default();
    let s = situation();
    let dice = [DieScore::new(4).unwrap(), DieScore::new(3).unwrap()];
    c.bench_function("resolve one combat", |b| {
        b.iter(|| resolve(black_box(&s), black_box(dice), &cfg).unwrap())
    });
    c.bench_function("odds table (36 pairs)", |b| {
        b.iter(|| odds(black_box(&s), &cfg).unwrap())
    });
    let p = Prepared::new(&s, &cfg).unwrap();
    c.bench_function("prepared outcomes only", |b| {
        b.iter(|| p.outcomes(black_box(dice)))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
