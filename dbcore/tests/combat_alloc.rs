//! `resolve` allocates nothing (#15): a counting global allocator in this test binary counts the
//! heap blocks each call asks for, on the calling thread only (the test harness runs other tests
//! on other threads at the same time).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use dbcore::combat::{
    resolve, Combatant, Engagement, Going, Prepared, ShooterSide, Shot, Situation, Stronghold,
};
use dbcore::{DieScore, RulesConfig};

/// The system allocator, counting the blocks this thread allocates or grows.
struct Counting;

thread_local! {
    static BLOCKS: Cell<u64> = const { Cell::new(0) };
}

fn count() {
    // `try_with`: a thread being torn down has no counter left, and nothing to count.
    let _ = BLOCKS.try_with(|b| b.set(b.get() + 1));
}

// SAFETY: every call is passed on unchanged to `System`, which upholds `GlobalAlloc`'s contract.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: the caller's contract, passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// Heap blocks allocated by `f` on this thread.
fn blocks<T>(f: impl FnOnce() -> T) -> (u64, T) {
    let before = BLOCKS.with(Cell::get);
    let out = f();
    (BLOCKS.with(Cell::get) - before, out)
}

fn c(code: &str) -> Combatant {
    Combatant::new(code.parse().expect("a valid element code"))
}

fn d(n: u8) -> DieScore {
    DieScore::new(n).expect("1 to 6")
}

/// Situations that between them count most factors: general, uphill, supports, flanks, bad
/// going, a stronghold, a shot with support shooters.
fn situations() -> Vec<Situation> {
    vec![
        Situation::close_combat(c("4Bd").general().uphill(), c("3Kn").flanked(1)),
        Situation::close_combat(
            c("4Pk").rear_supported_by("4Pk".parse().unwrap()),
            c("Sp")
                .side_supported_by("Sp".parse().unwrap())
                .side_supported_by("4Bd".parse().unwrap())
                .in_going(Going::Good),
        ),
        Situation::close_combat(c("3Kn").in_going(Going::Bad).demoralised(), c("3Wb")),
        Situation::close_combat(
            c("4Bd").defending(Stronghold::City, 2),
            c("4Ax").assaulting(Stronghold::City),
        ),
        Situation {
            a: c("4Bw"),
            b: c("Cv"),
            engagement: Engagement::Shooting(Shot {
                shooter: ShooterSide::A,
                support_shooters: 2,
                target_shoots_back: false,
                from_behind: true,
            }),
        },
    ]
}

#[test]
fn resolve_allocates_nothing_for_any_dice() {
    // DBA3.md §10, §11: every pair of scores, close combat and shooting, resolved with no heap.
    let cfg = RulesConfig::default();
    for sit in situations() {
        for da in 1..=6 {
            for db in 1..=6 {
                let (n, r) = blocks(|| resolve(&sit, [d(da), d(db)], &cfg));
                let r = r.expect("a legal situation");
                assert_eq!(
                    n, 0,
                    "resolve of {sit:?} with {da}, {db} allocated {n} blocks"
                );
                assert_eq!(
                    r.a.total,
                    i32::from(da) + r.a.factors.iter().map(|f| f.value).sum::<i32>()
                );
                // Dropping the result frees nothing either, as nothing was allocated.
                let (n, ()) = blocks(|| drop(r));
                assert_eq!(n, 0);
            }
        }
    }
}

#[test]
fn a_prepared_combat_resolves_and_counts_odds_without_allocating_per_roll() {
    // DBA3.md §11: the factors are counted once; each roll then costs no heap.
    let cfg = RulesConfig::default();
    for sit in situations() {
        let p = Prepared::new(&sit, &cfg).expect("a legal situation");
        let (n, r) = blocks(|| p.resolve([d(3), d(5)]));
        assert_eq!(n, 0, "Prepared::resolve of {sit:?} allocated {n} blocks");
        assert_eq!(r, resolve(&sit, [d(3), d(5)], &cfg).unwrap());
        let (n, _) = blocks(|| p.outcomes([d(6), d(1)]));
        assert_eq!(n, 0);
    }
}

#[test]
fn the_counter_sees_an_allocation() {
    // The check above means something only if the counter counts: a Vec of one element is one
    // block.
    let (n, v) = blocks(|| vec![1u8]);
    assert_eq!(n, 1);
    drop(v);
}
