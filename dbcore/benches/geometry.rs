//! Geometry benchmarks: a full contact scan of a 24-element table and one overlap test.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use dbcore::contact::{overlap, scan_contacts};
use dbcore::geometry::{ElementRect, Pose};

/// Two armies of 12 on a 15 BW table: lines facing each other, some in full contact, some offset,
/// some a little apart, a few on the flanks at angles.
fn battle_table() -> Vec<(u32, u8, ElementRect)> {
    let mut v = Vec::with_capacity(24);
    for i in 0..10 {
        let x = 2.5 + i as f64;
        v.push((i, 0u8, ElementRect::new(Pose::new(x, 7.0, 0.0), 1.0, 0.5)));
        let (dx, dy) = match i % 3 {
            0 => (0.0, 0.0),
            1 => (0.25, 0.0),
            _ => (0.0, 0.5),
        };
        v.push((
            100 + i,
            1u8,
            ElementRect::new(Pose::new(x + dx, 7.0 + dy, 180.0), 1.0, 0.75),
        ));
    }
    v.push((
        20,
        0,
        ElementRect::new(Pose::new(1.0, 5.0, 30.0), 1.0, 0.75),
    ));
    v.push((
        21,
        0,
        ElementRect::new(Pose::new(13.5, 4.0, 330.0), 1.0, 0.75),
    ));
    v.push((
        120,
        1,
        ElementRect::new(Pose::new(1.5, 10.0, 200.0), 1.0, 0.5),
    ));
    v.push((
        121,
        1,
        ElementRect::new(Pose::new(13.0, 11.0, 160.0), 1.0, 1.0),
    ));
    v
}

fn bench(c: &mut Criterion) {
    let table = battle_table();
    assert_eq!(table.len(), 24);
    c.bench_function("scan_contacts_24_elements", |b| {
        b.iter(|| scan_contacts(black_box(&table)))
    });
    let overlapper = ElementRect::new(Pose::new(1.0, 0.0, 0.0), 1.0, 0.5);
    let enemy = ElementRect::new(Pose::new(0.0, 0.0, 180.0), 1.0, 0.5);
    c.bench_function("overlap_front_corners", |b| {
        b.iter(|| overlap(black_box(&overlapper), false, black_box(&enemy), false))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
