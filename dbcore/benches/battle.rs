//! Whole battles per second with the demonstration driver (issue: shooting, combat, victory),
//! and the bound's commonest questions.
use criterion::{black_box, criterion_group, criterion_main, Criterion};
use dbcore::battle::{Action, Battle};
use dbcore::driver::{demo_setup, play};
use dbcore::DieScore;

fn bench(c: &mut Criterion) {
    let setup = demo_setup();
    let mut seed = 0u64;
    let mut g = c.benchmark_group("battle");
    g.sample_size(20);
    g.bench_function("whole driven battle (demo armies)", |b| {
        b.iter(|| {
            seed += 1;
            play(black_box(setup.clone()), seed, 40).unwrap()
        })
    });
    let d = play(setup.clone(), 1, 40).unwrap();
    g.bench_function("replay a whole battle", |b| {
        b.iter(|| Battle::replay(black_box(&d.record)).unwrap())
    });
    let mut battle = Battle::new(setup.clone()).unwrap();
    battle
        .apply(Action::RollPips {
            die: DieScore::new(6).unwrap(),
        })
        .unwrap();
    let end = Action::EndMovement;
    g.bench_function("check end of movement (shooting and combat scan)", |b| {
        b.iter(|| battle.check(black_box(&end)).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
