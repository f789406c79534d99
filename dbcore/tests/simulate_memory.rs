//! A streamed batch (`simulate_each`) takes memory that does not grow with its number of
//! battles (#44): a global allocator in this test binary follows the bytes live on the heap, and
//! the peak while 20 and while 400 battles stream to a sink that keeps nothing is compared with
//! one battle's own and with the collecting `simulate`, whose peak grows with every record.
//!
//! One test only: the counter is global, and other tests running at the same time would move it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicUsize, Ordering};

use dbcore::driver;
use dbcore::simulate::{simulate, simulate_each, Control, Request, Source};

/// The system allocator, following the bytes live and their peak.
struct Following;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = LIVE.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

fn shrank(by: usize) {
    LIVE.fetch_sub(by, Ordering::Relaxed);
}

// SAFETY: every call is passed on unchanged to `System`, which upholds `GlobalAlloc`'s contract.
unsafe impl GlobalAlloc for Following {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size >= layout.size() {
            grew(new_size - layout.size());
        } else {
            shrank(layout.size() - new_size);
        }
        // SAFETY: the caller's contract, passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        shrank(layout.size());
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static FOLLOWING: Following = Following;

/// The peak of live heap bytes while `f` runs, above what was live when it began.
fn peak_of<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let out = f();
    (PEAK.load(Ordering::Relaxed).saturating_sub(base), out)
}

/// `battles` short battles from the demonstration set-up (no pre-battle: quick in a debug build).
fn request(battles: u64, threads: usize) -> Request {
    let mut r = Request::new(Source::Setup(driver::demo_setup()), battles, 7);
    r.max_bounds = 3;
    r.threads = threads;
    r
}

#[test]
fn a_streamed_batch_takes_the_same_memory_for_20_and_for_400_battles() {
    // A first run, so that whatever is made once (the bundled lists, a thread's locals) is made.
    simulate_each(&request(2, 1), Control::default(), |_| {
        ControlFlow::Continue(())
    })
    .unwrap();
    // A battle's own working memory, on one thread: what every later peak is measured against.
    let mut one_battle = 0;
    for threads in [1, 2] {
        let streamed = |n| {
            peak_of(|| {
                let mut seen = 0u64;
                let s = simulate_each(&request(n, threads), Control::default(), |r| {
                    assert_eq!(r.index, seen, "in index order");
                    seen += 1;
                    ControlFlow::Continue(())
                })
                .unwrap();
                assert_eq!(seen, n);
                s
            })
        };
        let (small, _) = streamed(20);
        let (large, large_summary) = streamed(400);
        let (collected, sim) = peak_of(|| simulate(&request(400, threads), Control::default()));
        let sim = sim.unwrap();
        assert_eq!(sim.summary, large_summary.summary);
        eprintln!(
            "{threads} thread(s): peak {small} B streaming 20 battles, {large} B streaming 400, \
             {collected} B collecting 400"
        );
        // The records alone of 380 more battles take more than 380 × 100 bytes. On one thread
        // the streamed peak is one battle's working memory whatever the batch; on two it is
        // up to two battles under way at once and the few records waiting for a slower one
        // (at most 4 a thread), whose peak depends on how the battles happen to overlap.
        if threads == 1 {
            one_battle = small;
            assert!(
                large < small + 16 * 1024,
                "{threads} thread(s): {small} B for 20 battles, {large} B for 400"
            );
        } else {
            assert!(
                large < threads * one_battle + 32 * 1024,
                "{threads} thread(s): {large} B for 400 battles, {one_battle} B for a battle"
            );
        }
        assert!(
            collected > large + 380 * 100,
            "{threads} thread(s): collecting took {collected} B, streaming {large} B"
        );
    }
}
