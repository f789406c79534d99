//! The cost of the C ABI: one resolution and one odds table through `dbcore_resolve` and
//! `dbcore_odds` (struct in, struct out), and the same through the JSON functions.
//!
//! Run briefly: `cargo bench -p dbcore-ffi -- --quick`.

use std::ffi::{c_char, CStr};
use std::hint::black_box;
use std::ptr;

use criterion::{criterion_group, criterion_main, Criterion};
use dbcore_ffi::*;

fn kind(code: &CStr) -> DbcoreElementKind {
    let mut k = DbcoreElementKind::default();
    let s = unsafe { dbcore_element_kind_parse(code.as_ptr(), &mut k) };
    assert_eq!(s, DbcoreStatus::Ok);
    k
}

fn situation() -> DbcoreSituation {
    let mut s = DbcoreSituation::default();
    s.a.kind = kind(c"4Bd");
    s.a.general = 1;
    s.a.side_supporters[0].present = 1;
    s.a.side_supporters[0].kind = kind(c"4Bd");
    s.b.kind = kind(c"4Wb");
    s.b.rear_supporter.present = 1;
    s.b.rear_supporter.kind = kind(c"4Wb");
    s
}

const RESOLVE: &CStr =
    cr#"{"situation":{"a":{"kind":"4Bd","general":true},"b":{"kind":"4Wb"}},"dice":[3,5]}"#;
const ODDS: &CStr = cr#"{"situation":{"a":{"kind":"4Bd","general":true},"b":{"kind":"4Wb"}}}"#;

fn json(f: unsafe extern "C" fn(*const c_char, *mut *mut c_char) -> DbcoreStatus, req: &CStr) {
    let mut out = ptr::null_mut();
    let s = unsafe { f(black_box(req.as_ptr()), &mut out) };
    assert_eq!(s, DbcoreStatus::Ok);
    unsafe { dbcore_string_free(black_box(out)) };
}

fn bench(c: &mut Criterion) {
    let sit = situation();
    c.bench_function("dbcore_resolve", |b| {
        let mut out = std::mem::MaybeUninit::<DbcoreCombatResult>::uninit();
        b.iter(|| {
            let s = unsafe { dbcore_resolve(black_box(&sit), 3, 5, out.as_mut_ptr()) };
            assert_eq!(s, DbcoreStatus::Ok);
        })
    });
    c.bench_function("dbcore_odds", |b| {
        let mut out = std::mem::MaybeUninit::<DbcoreOdds>::uninit();
        b.iter(|| {
            let s = unsafe { dbcore_odds(black_box(&sit), out.as_mut_ptr()) };
            assert_eq!(s, DbcoreStatus::Ok);
        })
    });
    c.bench_function("dbcore_resolve_json", |b| {
        b.iter(|| json(dbcore_resolve_json, RESOLVE))
    });
    c.bench_function("dbcore_odds_json", |b| {
        b.iter(|| json(dbcore_odds_json, ODDS))
    });
}

/// What the handle guard costs a single thread: a dice roll bare, inside the guard alone, and
/// through `dbcore_dice_roll` (NULL checks, guard, panic boundary); and a battle read.
fn handle_guard(c: &mut Criterion) {
    let mut bare = dbcore::SeededDice::new(1);
    c.bench_function("dice roll, bare", |b| b.iter(|| black_box(bare.roll())));
    let guarded = dbcore_ffi::boundary::Guarded::new(dbcore::SeededDice::new(1));
    c.bench_function("dice roll, inside the guard", |b| {
        b.iter(|| black_box(guarded.write(|d| Ok(d.roll())).unwrap()))
    });
    let mut h = ptr::null_mut();
    assert_eq!(unsafe { dbcore_dice_new(1, &mut h) }, DbcoreStatus::Ok);
    c.bench_function("dbcore_dice_roll", |b| {
        let mut v = 0u8;
        b.iter(|| {
            let s = unsafe { dbcore_dice_roll(black_box(h), &mut v) };
            assert_eq!(s, DbcoreStatus::Ok);
        })
    });
    unsafe { dbcore_dice_free(h) };
    let mut setup = ptr::null_mut();
    assert_eq!(
        unsafe { dbcore_demo_setup_json(&mut setup) },
        DbcoreStatus::Ok
    );
    let mut battle = ptr::null_mut();
    assert_eq!(
        unsafe { dbcore_battle_new_json(setup, &mut battle) },
        DbcoreStatus::Ok
    );
    c.bench_function("dbcore_battle_pips", |b| {
        let mut v = 0u32;
        b.iter(|| {
            let s = unsafe { dbcore_battle_pips(black_box(battle), &mut v) };
            assert_eq!(s, DbcoreStatus::Ok);
        })
    });
    unsafe {
        dbcore_battle_free(battle);
        dbcore_string_free(setup);
    }
}

criterion_group!(benches, bench, handle_guard);
criterion_main!(benches);
