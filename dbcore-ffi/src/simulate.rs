//! Many battles (`dbcore::simulate`) for C programs: one JSON request in, the records and their
//! summary out. Translation only: every battle and every number is dbcore's.

use std::ffi::c_char;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use dbcore::simulate::{
    check, simulate, simulate_each, BattleSummary, Control, Request, Simulation,
};
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
    /// A streamed batch's records not read yet (`dbcore_simulation_next`); `None` for a batch
    /// that keeps them, or once the stream is dropped.
    stream: Mutex<Option<Receiver<BattleSummary>>>,
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
    /// Up to `max` records of a streamed batch, waiting for the first; none once every record
    /// has been read and the batch has ended, or for a batch that is not streamed.
    fn next(&self, max: usize) -> Result<Vec<BattleSummary>, FfiError> {
        let stream = self
            .stream
            .lock()
            .map_err(|_| FfiError::new(ErrorCode::Internal, "the simulation's lock is poisoned"))?;
        let Some(rx) = stream.as_ref() else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        let Ok(first) = rx.recv() else {
            return Ok(out);
        };
        out.push(first);
        while out.len() < max {
            match rx.try_recv() {
                Ok(r) => out.push(r),
                Err(TryRecvError::Empty | TryRecvError::Disconnected) => break,
            }
        }
        Ok(out)
    }

    /// Drop a streamed batch's unread records, and with it the stream: a batch still running
    /// plays on to its end (or its cancelling) with nobody to read it, and is counted.
    fn drain(&self) {
        if let Ok(mut stream) = self.stream.lock() {
            if let Some(rx) = stream.take() {
                for _ in rx.iter() {}
            }
        }
    }

    /// Join the worker if it has not been joined yet, and hand back its outcome as C text.
    /// Other waiters block on the lock meanwhile; progress and cancel do not take it.
    fn wait(&self) -> Result<*mut c_char, FfiError> {
        let mut state = self
            .state
            .lock()
            .map_err(|_| FfiError::new(ErrorCode::Internal, "the simulation's lock is poisoned"))?;
        if let RunState::Running(_) = &*state {
            // A streamed batch waits for its reader: read on here, dropping the records.
            self.drain();
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
        // A streamed batch waiting for room for its records gives up once nobody reads them.
        if let Ok(stream) = self.stream.get_mut() {
            stream.take();
        }
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
        // SAFETY: the caller's contract, passed on.
        unsafe { started(request_json, out, false) }
    })
}

/// Start the batch `request_json` as `dbcore_simulation_start` does, but streamed: its records
/// are not kept but read in chunks with `dbcore_simulation_next` as the battles finish, in
/// index order, so that a batch of any size takes the same memory. The batch waits while 256
/// records are finished and not read. `dbcore_simulation_wait` then gives the summary of every
/// battle with `"records": []` (it reads and drops any records left unread, waiting for the
/// batch to end); cancel and free work as for any batch.
///
/// # Safety
/// As `dbcore_simulation_start`.
///
/// # Errors
/// As `dbcore_simulation_start`.
///
/// # Example
/// ```c
/// DbcoreSimulation *sim = NULL;
/// if (dbcore_simulation_stream("{\"source\":{\"lists\":[\"II/56\",\"II/5a\"]},"
///                              "\"battles\":1000000,\"threads\":0}", &sim) != DBCORE_STATUS_OK)
///     return 1;
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_simulation_stream(
    request_json: *const c_char,
    out: *mut *mut DbcoreSimulation,
) -> DbcoreStatus {
    boundary(|| {
        // SAFETY: the caller's contract, passed on.
        unsafe { started(request_json, out, true) }
    })
}

/// Records of a streamed batch finished and not read, at most.
const STREAM_WAITING: usize = 256;

/// Most records one `dbcore_simulation_next` gives.
const MAX_CHUNK: u32 = 65_536;

/// Start `request_json`'s batch, streamed or not, and write its handle to `out`.
///
/// # Safety
/// As `dbcore_simulation_start`.
unsafe fn started(
    request_json: *const c_char,
    out: *mut *mut DbcoreSimulation,
    streamed: bool,
) -> Result<(), FfiError> {
    let out = Out::new(out, "out")?;
    // SAFETY: the caller's contract on `request_json`.
    let text = unsafe { arg_str(request_json, "request_json") }?;
    let handle = start(text, streamed)?;
    // SAFETY: the caller's contract on `out`.
    unsafe { out.write(Box::into_raw(handle)) };
    Ok(())
}

fn start(text: &str, streamed: bool) -> Result<Box<DbcoreSimulation>, FfiError> {
    let request: Request = parse(text)?;
    // Refuse a bad request here, where the caller reads the error, not in the worker.
    check(&request)?;
    let cancel = Arc::new(AtomicBool::new(false));
    let done = Arc::new(AtomicU64::new(0));
    let ended = Arc::new(AtomicBool::new(false));
    let (c, d, e) = (Arc::clone(&cancel), Arc::clone(&done), Arc::clone(&ended));
    let total = request.battles;
    let (tx, rx) = mpsc::sync_channel::<BattleSummary>(STREAM_WAITING);
    let worker = std::thread::Builder::new()
        .name("dbcore-simulation".into())
        .spawn(move || {
            let _ended = Ended(e);
            let control = Control {
                cancel: Some(&c),
                done: Some(&d),
            };
            if !streamed {
                return simulate(&request, control).map_err(FfiError::from);
            }
            let s = simulate_each(&request, control, |r| match tx.send(r) {
                Ok(()) => ControlFlow::Continue(()),
                Err(_) => ControlFlow::Break(()),
            })?;
            Ok(Simulation {
                records: Vec::new(),
                summary: s.summary,
                cancelled: s.cancelled,
            })
        })
        .map_err(|e| FfiError::new(ErrorCode::Internal, format!("no thread: {e}")))?;
    Ok(Box::new(DbcoreSimulation {
        guard: Guarded::new(Run {
            cancel,
            done,
            ended,
            total,
            state: Mutex::new(RunState::Running(worker)),
            stream: Mutex::new(streamed.then_some(rx)),
        }),
    }))
}

/// The next records of a streamed batch (`dbcore_simulation_stream`), in index order: waits
/// until at least one battle has finished, then writes to `*out_json` a JSON array of up to
/// `max_records` records (1 to 65536; each as in `dbcore_simulate_json`'s `"records"`), every
/// one that has finished and not been read, up to that number. `[]` once every record has been
/// read and the batch has ended (all played, or cancelled), and always for a batch started with
/// `dbcore_simulation_start` (which keeps its records for `dbcore_simulation_wait`). One reader
/// at a time; others wait their turn. Free the string with `dbcore_string_free`.
///
/// # Safety
/// `simulation` must be a live handle and `out_json` valid for writes; NULL gives
/// `DBCORE_STATUS_NULL_ARGUMENT`.
///
/// # Errors
/// `DBCORE_STATUS_INVALID_ARGUMENT` for `max_records` 0 or above 65536.
///
/// # Example
/// ```c
/// for (;;) {
///     char *chunk = NULL;
///     uint32_t n = 0;
///     if (dbcore_simulation_next(sim, 100, &chunk) != DBCORE_STATUS_OK) break;
///     dbcore_json_array_len(chunk, &n);
///     if (n == 0) { dbcore_string_free(chunk); break; }
///     fputs(chunk, out);
///     dbcore_string_free(chunk);
/// }
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_simulation_next(
    simulation: *const DbcoreSimulation,
    max_records: u32,
    out_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        // SAFETY: the caller's contract on `simulation`.
        let handle = unsafe { arg(simulation, "simulation") }?;
        if max_records == 0 || max_records > MAX_CHUNK {
            return Err(FfiError::new(
                ErrorCode::InvalidArgument,
                format!("max_records must be 1 to {MAX_CHUNK}, not {max_records}"),
            ));
        }
        let records = handle.guard.read(|run| run.next(max_records as usize))?;
        let json = to_c_string(&records)?;
        // SAFETY: the caller's contract on `out_json`.
        unsafe { out.write(json) };
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
