//! Many battles (`dbcore::simulate`) for Python: the batch runs on Rust threads with the GIL
//! released, while the calling thread wakes every 50 ms to check for signals (Ctrl-C cancels
//! the batch and hands back what finished) and to report progress. Translation only: the
//! Python wrapper `dbcore._simulate` builds requests, chunks for executors and data frames.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;

use dbcore::simulate::{army_names, simulate, BattleSummary, Control, Request, Source, Summary};

use crate::battle::from_py;
use crate::errors;
use crate::names::{to_py, AnyInt};

/// Run one batch (`request` as dbcore's JSON `Request`, a dict or text) and return
/// `{"records": [...], "summary": {...}, "cancelled": bool}`. `progress`, when given, is called
/// as `progress(done, total)` from the calling thread as the batch starts, every 50 ms while it
/// runs and once at the end.
/// Ctrl-C (`KeyboardInterrupt`) stops the batch: battles under way finish, none starts after,
/// and the result says `"cancelled": True`. Any other exception a signal handler raises stops
/// the batch and is raised.
#[pyfunction]
#[pyo3(signature = (request, progress=None))]
pub fn _simulate<'py>(
    py: Python<'py>,
    request: &Bound<'py, PyAny>,
    progress: Option<&Bound<'py, PyAny>>,
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
    // A KeyboardInterrupt cancels the batch whether it is seen by `check_signals` or raised
    // inside the progress callback (a signal handler runs at the callback's next bytecode);
    // any other exception cancels it and is raised.
    let mut stop = |e: PyErr| {
        cancel.store(true, Ordering::Relaxed);
        if !e.is_instance_of::<PyKeyboardInterrupt>(py) {
            raised.get_or_insert(e);
        }
    };
    let outcome = std::thread::scope(|s| {
        let worker = s.spawn(|| simulate(&request, control));
        // The first report comes before any wait, as the batch starts, so that a caller (or a
        // test) reacting to it acts while every battle but the first few is still to play.
        let mut finished = false;
        loop {
            if let Some(p) = progress {
                if let Err(e) = p.call1((done.load(Ordering::Relaxed), total)) {
                    stop(e);
                }
            }
            if let Err(e) = py.check_signals() {
                stop(e);
            }
            if finished {
                break;
            }
            finished = py.detach(|| {
                for _ in 0..5 {
                    if worker.is_finished() {
                        return true;
                    }
                    std::thread::sleep(Duration::from_millis(10));
                }
                worker.is_finished()
            });
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
/// batch from `source`: what merging chunks run elsewhere needs.
#[pyfunction]
pub fn _simulation_summary<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    records: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let source: Source = from_py(source, "a simulation source")?;
    let records: Vec<BattleSummary> = from_py(records, "simulation records")?;
    let names = errors::guard(|| army_names(&source).map_err(|e| errors::from_info(&e)))?;
    to_py(py, &Summary::of(names, &records))
}

/// The seed battle `index` of a batch with master seed `seed` is played with.
#[pyfunction]
pub fn battle_seed(seed: AnyInt, index: AnyInt) -> PyResult<u64> {
    Ok(dbcore::simulate::battle_seed(
        seed.to("seed", "0 to 2**64-1")?,
        index.to("index", "0 to 2**64-1")?,
    ))
}
