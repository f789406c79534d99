//! Many battles (`dbcore::simulate`) for C programs: one JSON request in, the records and their
//! summary out. Translation only: every battle and every number is dbcore's.

use std::ffi::c_char;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use dbcore::simulate::{check, simulate, Control, Request, Simulation};
use dbcore::ErrorCode;

use crate::boundary::{
    arg, arg_str, boundary, free_handle, parse, to_flag, FfiError, Guarded, Out,
};
use crate::json::to_c_string;
use crate::DbcoreStatus;

/// Play a batch of seeded battles with dbcore's demonstration driver on `threads` threads (the
/// calling thread when 1, one per core when 0). `request_json` is a `dbcore::simulate::Request`:
/// `{"source": {"lists": ["II/56", "II/5a"]}, "battles": 100, "seed": 1}` with optional
/// `"first"` (index of the first battle, for one chunk of a larger batch), `"max_bounds"` (60),
/// `"threads"` (1) and `"full_records"` (false); the source may instead be `{"setup": SETUP}`
/// (a deployed battle; only the dice vary) or `{"armies": PREBATTLE_SETUP}`. Battle `i`'s dice
/// come from a seed that depends only on the master seed and `i`, so the records are the same on
/// any number of threads and any split into chunks. `*out_json` becomes `{"records": [{"index",
/// "seed", "winner", "bounds", "losses", "camp_sacked", "general_lost", "ended"}, ...],
/// "summary": {"wins": [{"count", "out_of", "rate", "low", "high"}, ...], "draws", ...},
/// "cancelled": false}` with the records in index order and 95% Wilson intervals. Free it with
/// `dbcore_string_free`. A panic in a worker thread is caught like any other
/// (`DBCORE_STATUS_PANIC`).
///
/// # Safety
/// `request_json` must be a NUL-terminated string and `out_json` valid for writes; NULL gives
/// `DBCORE_STATUS_NULL_ARGUMENT`.
///
/// # Errors
/// `DBCORE_STATUS_INVALID_UTF8`, `DBCORE_STATUS_INVALID_JSON`; `DBCORE_STATUS_INVALID_ARGUMENT`
/// for a count, index or thread number beyond dbcore's limits or an unknown list id;
/// `DBCORE_STATUS_INVALID_SETUP` for a set-up or armies dbcore refuses.
///
/// # Example
/// ```c
/// char *out = NULL;
/// if (dbcore_simulate_json("{\"source\":{\"lists\":[\"II/56\",\"II/5a\"]},"
///                          "\"battles\":100,\"seed\":1,\"threads\":0}", &out) == DBCORE_STATUS_OK)
///     puts(out);
/// dbcore_string_free(out);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_simulate_json(
    request_json: *const c_char,
    out_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        // SAFETY: the caller's contract on `request_json`.
        let text = unsafe { arg_str(request_json, "request_json") }?;
        let request: Request = parse(text)?;
        let sim = simulate(&request, Control::default())?;
        let json = to_c_string(&sim)?;
        // SAFETY: the caller's contract on `out_json`.
        unsafe { out.write(json) };
        Ok(())
    })
}

/// What a running batch shares between its worker thread and the C caller.
#[derive(Debug)]
struct Run {
    cancel: Arc<AtomicBool>,
    done: Arc<AtomicU64>,
    /// Set by the worker as it ends (a panic included): read without the lock.
    ended: Arc<AtomicBool>,
    total: u64,
    /// The worker until it is joined, then its outcome as JSON (or the failure).
    state: Mutex<RunState>,
}

#[derive(Debug)]
enum RunState {
    Running(JoinHandle<Result<Simulation, FfiError>>),
    Finished(Box<Result<Simulation, FfiError>>),
}

/// Sets its flag when dropped: the worker's end, however it ends.
struct Ended(Arc<AtomicBool>);

impl Drop for Ended {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Release);
    }
}

impl Run {
    /// Join the worker if it has not been joined yet, and hand back its outcome as C text.
    /// Other waiters block on the lock meanwhile; progress and cancel do not take it.
    fn wait(&self) -> Result<*mut c_char, FfiError> {
        let mut state = self
            .state
            .lock()
            .map_err(|_| FfiError::new(ErrorCode::Internal, "the simulation's lock is poisoned"))?;
        if let RunState::Running(_) = &*state {
            let RunState::Running(worker) = std::mem::replace(
                &mut *state,
                RunState::Finished(Box::new(Err(FfiError::new(ErrorCode::Internal, "joining")))),
            ) else {
                unreachable!("matched just above")
            };
            let outcome = match worker.join() {
                Ok(r) => r,
                Err(_) => Err(FfiError::new(
                    ErrorCode::Panic,
                    "internal error: dbcore panicked in a simulation thread",
                )),
            };
            *state = RunState::Finished(Box::new(outcome));
        }
        match &*state {
            RunState::Finished(r) => match &**r {
                Ok(sim) => to_c_string(sim),
                Err(e) => Err(e.clone()),
            },
            RunState::Running(_) => unreachable!("joined above"),
        }
    }
}

impl Drop for Run {
    /// A batch freed while it runs is cancelled and waited for: no thread outlives its handle.
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
        if let Ok(state) = self.state.get_mut() {
            if let RunState::Running(_) = state {
                let RunState::Running(worker) = std::mem::replace(
                    state,
                    RunState::Finished(Box::new(Err(FfiError::new(ErrorCode::Internal, "freed")))),
                ) else {
                    return;
                };
                let _ = worker.join();
            }
        }
    }
}

/// A batch of battles running on its own threads (an opaque handle): started by
/// `dbcore_simulation_start`, watched with `dbcore_simulation_progress`, stopped early with
/// `dbcore_simulation_cancel`, collected with `dbcore_simulation_wait` and freed with
/// `dbcore_simulation_free`. Every call but the free takes `const DbcoreSimulation *`: one thread
/// may wait while another polls or cancels.
#[derive(Debug)]
pub struct DbcoreSimulation {
    guard: Guarded<Run>,
}

/// Start the batch `request_json` (the request of `dbcore_simulate_json`) on threads of its own
/// and return at once; `*out` becomes the handle. Its `"threads"` workers play the battles while
/// the caller goes on.
///
/// # Safety
/// `request_json` must be a NUL-terminated string and `out` valid for writes; NULL gives
/// `DBCORE_STATUS_NULL_ARGUMENT`.
///
/// # Errors
/// As `dbcore_simulate_json`: `DBCORE_STATUS_INVALID_JSON`, `DBCORE_STATUS_INVALID_ARGUMENT`,
/// `DBCORE_STATUS_INVALID_SETUP`, all found before any thread starts; `DBCORE_STATUS_INTERNAL`
/// when the system gives no thread.
///
/// # Example
/// ```c
/// DbcoreSimulation *sim = NULL;
/// if (dbcore_simulation_start("{\"source\":{\"lists\":[\"II/56\",\"II/5a\"]},"
///                             "\"battles\":10000,\"threads\":0}", &sim) != DBCORE_STATUS_OK)
///     return 1;
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_simulation_start(
    request_json: *const c_char,
    out: *mut *mut DbcoreSimulation,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out, "out")?;
        // SAFETY: the caller's contract on `request_json`.
        let text = unsafe { arg_str(request_json, "request_json") }?;
        let request: Request = parse(text)?;
        // Refuse a bad request here, where the caller reads the error, not in the worker.
        check(&request)?;
        let cancel = Arc::new(AtomicBool::new(false));
        let done = Arc::new(AtomicU64::new(0));
        let ended = Arc::new(AtomicBool::new(false));
        let (c, d, e) = (Arc::clone(&cancel), Arc::clone(&done), Arc::clone(&ended));
        let total = request.battles;
        let worker = std::thread::Builder::new()
            .name("dbcore-simulation".into())
            .spawn(move || {
                let _ended = Ended(e);
                let control = Control {
                    cancel: Some(&c),
                    done: Some(&d),
                };
                simulate(&request, control).map_err(FfiError::from)
            })
            .map_err(|e| FfiError::new(ErrorCode::Internal, format!("no thread: {e}")))?;
        let handle = Box::new(DbcoreSimulation {
            guard: Guarded::new(Run {
                cancel,
                done,
                ended,
                total,
                state: Mutex::new(RunState::Running(worker)),
            }),
        });
        // SAFETY: the caller's contract on `out`.
        unsafe { out.write(Box::into_raw(handle)) };
        Ok(())
    })
}

/// How far the batch has come: `*done` battles finished out of `*total`, and `*finished` 1 once
/// no battle is under way any more (all played, or cancelled and the battles under way ended),
/// so that `dbcore_simulation_wait` returns at once. Any of the three may be NULL.
///
/// # Safety
/// `simulation` must be a live handle; the out-pointers NULL or valid for writes.
///
/// # Example
/// ```c
/// uint64_t done = 0, total = 0;
/// uint32_t finished = 0;
/// dbcore_simulation_progress(sim, &done, &total, &finished);
/// printf("%llu of %llu\n", (unsigned long long)done, (unsigned long long)total);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_simulation_progress(
    simulation: *const DbcoreSimulation,
    done: *mut u64,
    total: *mut u64,
    finished: *mut u32,
) -> DbcoreStatus {
    boundary(|| {
        // SAFETY: the caller's contract on `simulation`.
        let handle = unsafe { arg(simulation, "simulation") }?;
        let (d, t, f) = handle.guard.read(|run| {
            Ok((
                run.done.load(Ordering::Relaxed),
                run.total,
                to_flag(run.ended.load(Ordering::Acquire)),
            ))
        })?;
        // SAFETY: the caller's contract on the out-pointers; each written only when non-NULL.
        unsafe {
            if let Ok(o) = Out::new(done, "done") {
                o.write(d);
            }
            if let Ok(o) = Out::new(total, "total") {
                o.write(t);
            }
            if let Ok(o) = Out::new(finished, "finished") {
                o.write(f);
            }
        }
        Ok(())
    })
}

/// Ask the batch to stop: the battles under way finish, no other starts. It returns at once;
/// `dbcore_simulation_wait` then gives the battles that finished, with `"cancelled": true`.
/// Cancelling twice, or after the end, changes nothing.
///
/// # Safety
/// `simulation` must be a live handle (NULL gives `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Example
/// ```c
/// dbcore_simulation_cancel(sim);
/// dbcore_simulation_wait(sim, &json);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_simulation_cancel(
    simulation: *const DbcoreSimulation,
) -> DbcoreStatus {
    boundary(|| {
        // SAFETY: the caller's contract on `simulation`.
        let handle = unsafe { arg(simulation, "simulation") }?;
        handle.guard.read(|run| {
            run.cancel.store(true, Ordering::Relaxed);
            Ok(())
        })
    })
}

/// Wait until the batch has ended (every battle played, or cancelled) and write its outcome to
/// `*out_json`, as `dbcore_simulate_json` would: the records of the battles that finished, in
/// index order, their summary and `"cancelled"`. It may be called again (the same JSON each
/// time); free each string with `dbcore_string_free`.
///
/// # Safety
/// `simulation` must be a live handle and `out_json` valid for writes; NULL gives
/// `DBCORE_STATUS_NULL_ARGUMENT`.
///
/// # Errors
/// `DBCORE_STATUS_PANIC` when a battle panicked in a worker thread (the panic stays there).
///
/// # Example
/// ```c
/// char *json = NULL;
/// if (dbcore_simulation_wait(sim, &json) == DBCORE_STATUS_OK) puts(json);
/// dbcore_string_free(json);
/// dbcore_simulation_free(sim);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_simulation_wait(
    simulation: *const DbcoreSimulation,
    out_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        // SAFETY: the caller's contract on `simulation`.
        let handle = unsafe { arg(simulation, "simulation") }?;
        let json = handle.guard.read(|run| run.wait())?;
        // SAFETY: the caller's contract on `out_json`.
        unsafe { out.write(json) };
        Ok(())
    })
}

/// Free a batch handle. A batch still running is cancelled and waited for first (the battles
/// under way finish), so no thread outlives it. NULL is ignored.
///
/// # Safety
/// `simulation` must be NULL or a handle from `dbcore_simulation_start` not freed before, with
/// no other call on it under way.
///
/// # Example
/// ```c
/// dbcore_simulation_free(sim);
/// sim = NULL;
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_simulation_free(simulation: *mut DbcoreSimulation) {
    boundary(|| {
        // SAFETY: NULL or from `Box::into_raw` in `dbcore_simulation_start` (the caller's
        // contract).
        unsafe { free_handle(simulation, |h| &h.guard) }
    })
}
