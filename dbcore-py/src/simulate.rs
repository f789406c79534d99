//! Many battles (`dbcore::simulate`) for Python: the batch runs on Rust threads with the GIL
//! released, while the calling thread wakes every 50 ms to check for signals (Ctrl-C cancels
//! the batch and hands back what finished) and to report progress. Translation only: the
//! Python wrapper `dbcore._simulate` builds requests, chunks for executors and data frames.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use pyo3::types::PyBool;

use dbcore::simulate::{
    army_names, simulate_each, BattleSummary, Control, Request, Simulation, Source, Tally,
};

use crate::battle::from_py;
use crate::errors;
use crate::names::{to_py, AnyInt};

/// Records handed from the batch's thread to the calling thread at most this many at a time;
/// the batch waits while this many are not taken yet (a slow `on_battle` slows the batch rather
/// than fill the memory).
const HANDED_AT_ONCE: usize = 256;

/// Run one batch (`request` as dbcore's JSON `Request`, a dict or text) and return
/// `{"records": [...], "summary": {...}, "cancelled": bool}`. `progress`, when given, is called
/// as `progress(done, total)` from the calling thread as the batch starts, every 50 ms while it
/// runs and once at the end.
/// `on_battle`, when given, is called with each record (a dict) from the calling thread, in
/// index order, as its battle finishes, and the records are not kept (`"records"` is empty, the
/// summary counts them): the batch is streamed and its memory does not grow with its size.
/// `on_battle` returning `False` stops the batch as Ctrl-C does (`"cancelled": True`).
/// Ctrl-C (`KeyboardInterrupt`) stops the batch: battles under way finish, none starts after,
/// and the result says `"cancelled": True`. Any other exception a signal handler, `progress` or
/// `on_battle` raises stops the batch and is raised.
#[pyfunction]
#[pyo3(signature = (request, progress=None, on_battle=None))]
pub fn _simulate<'py>(
    py: Python<'py>,
    request: &Bound<'py, PyAny>,
    progress: Option<&Bound<'py, PyAny>>,
    on_battle: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let request: Request = from_py(request, "a simulation request")?;
    let total = request.battles;
    let cancel = AtomicBool::new(false);
    let done = AtomicU64::new(0);
    let control = Control {
        cancel: Some(&cancel),
        done: Some(&done),
    };
    let mut raised: Option<PyErr> = None;
    // Records are given to `on_battle` until the batch is stopped.
    let mut giving = on_battle.is_some();
    // A KeyboardInterrupt cancels the batch whether it is seen by `check_signals` or raised
    // inside a callback (a signal handler runs at the callback's next bytecode); any other
    // exception cancels it and is raised.
    let mut stop = |e: Option<PyErr>, giving: &mut bool| {
        cancel.store(true, Ordering::Relaxed);
        *giving = false;
        if let Some(e) = e {
            if !e.is_instance_of::<PyKeyboardInterrupt>(py) {
                raised.get_or_insert(e);
            }
        }
    };
    let streaming = on_battle.is_some();
    let (tx, rx) = mpsc::sync_channel::<BattleSummary>(HANDED_AT_ONCE);
    // Read only by the calling thread; the lock makes it shareable with the GIL released.
    let rx = Mutex::new(rx);
    let request = &request;
    let outcome = std::thread::scope(|s| {
        let worker = s.spawn(move || {
            let mut kept = Vec::new();
            let streamed = simulate_each(request, control, |r| {
                if !streaming {
                    kept.push(r);
                    ControlFlow::Continue(())
                } else if tx.send(r).is_ok() {
                    ControlFlow::Continue(())
                } else {
                    ControlFlow::Break(())
                }
            });
            // `tx` is dropped as this returns, however it returns: the calling thread's sign
            // that the batch has ended.
            streamed.map(|s| Simulation {
                records: kept,
                summary: s.summary,
                cancelled: s.cancelled,
            })
        });
        // The first report comes before any wait, as the batch starts, so that a caller (or a
        // test) reacting to it acts while every battle but the first few is still to play.
        let mut finished = false;
        loop {
            if let Some(p) = progress {
                if let Err(e) = p.call1((done.load(Ordering::Relaxed), total)) {
                    stop(Some(e), &mut giving);
                }
            }
            if let Err(e) = py.check_signals() {
                stop(Some(e), &mut giving);
            }
            if finished {
                break;
            }
            // Up to 50 ms for the records that finish meanwhile (none unless streaming), or
            // the end of the batch.
            let (records, ended) = py.detach(|| {
                let until = Instant::now() + Duration::from_millis(50);
                let mut records = Vec::new();
                let rx = rx.lock().unwrap_or_else(PoisonError::into_inner);
                loop {
                    let left = until.saturating_duration_since(Instant::now());
                    match rx.recv_timeout(left) {
                        Ok(r) => {
                            records.push(r);
                            if records.len() >= HANDED_AT_ONCE {
                                return (records, false);
                            }
                        }
                        Err(RecvTimeoutError::Timeout) => return (records, false),
                        Err(RecvTimeoutError::Disconnected) => return (records, true),
                    }
                }
            });
            finished = ended;
            if let Some(f) = on_battle {
                for r in records {
                    if !giving {
                        break;
                    }
                    match to_py(py, &r).and_then(|d| f.call1((d,))) {
                        Err(e) => stop(Some(e), &mut giving),
                        Ok(v) if v.is(PyBool::new(py, false)) => stop(None, &mut giving),
                        Ok(_) => {}
                    }
                }
            }
        }
        py.detach(|| worker.join())
    });
    if let Some(e) = raised {
        return Err(e);
    }
    let sim = match outcome {
        Ok(r) => r.map_err(|e| errors::from_info(&e))?,
        // A panic inside dbcore: reported as InternalError like any other (errors::guard).
        Err(_) => return Err(errors::internal("dbcore panicked in a simulation thread")),
    };
    to_py(py, &sim)
}

/// The summary of `records` (dicts as `_simulate` returns them, from any number of chunks) of a
/// batch from `source`, and of the battles counted in `tally` (as `_simulation_tally` returns
/// it): what merging chunks run elsewhere needs.
#[pyfunction]
#[pyo3(signature = (source, records, tally=None))]
pub fn _simulation_summary<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    records: &Bound<'py, PyAny>,
    tally: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let (names, tally) = counted(source, records, tally)?;
    to_py(py, &tally.summary(names))
}

/// The running counts (`dbcore::simulate::Tally`) of `records` of a batch from `source` added to
/// `tally` (one this returned before, or None): a batch's summary without keeping its records.
#[pyfunction]
#[pyo3(signature = (source, records, tally=None))]
pub fn _simulation_tally<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    records: &Bound<'py, PyAny>,
    tally: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    to_py(py, &counted(source, records, tally)?.1)
}

/// The army names of a batch from `source`, and its `records` added to `tally` (or to nothing
/// counted yet).
fn counted(
    source: &Bound<'_, PyAny>,
    records: &Bound<'_, PyAny>,
    tally: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Vec<String>, Tally)> {
    let source: Source = from_py(source, "a simulation source")?;
    let names = errors::guard(|| army_names(&source).map_err(|e| errors::from_info(&e)))?;
    let records: Vec<BattleSummary> = from_py(records, "simulation records")?;
    let mut out = match tally {
        Some(t) if !t.is_none() => from_py(t, "a simulation tally")?,
        _ => Tally::new(names.len()),
    };
    for (i, r) in records.iter().enumerate() {
        out.add(r)
            .map_err(|e| errors::invalid_argument(format!("simulation records[{i}].{e}")))?;
    }
    Ok((names, out))
}

/// The seed battle `index` of a batch with master seed `seed` is played with.
#[pyfunction]
pub fn battle_seed(seed: AnyInt, index: AnyInt) -> PyResult<u64> {
    Ok(dbcore::simulate::battle_seed(
        seed.to("seed", "0 to 2**64-1")?,
        index.to("index", "0 to 2**64-1")?,
    ))
}
