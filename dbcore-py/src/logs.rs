//! dbcore's logs in Python's `logging`. The rules crate logs through `tracing` and installs no
//! subscriber; here tracing's `log` feature turns each event into a `log` record, and
//! `pyo3-log` hands the records to the Python logger named after the Rust module
//! (`dbcore.simulate`, `dbcore.driver`, children of the `dbcore` logger). Nothing is installed
//! at import: until `enable_logging` is called `log`'s level is off, so an event costs one
//! comparison. Records from the Rust threads of a batch are handed over with the GIL taken for
//! each, which the batch's waiting thread gives up while it waits.

use std::sync::Mutex;

use pyo3::prelude::*;

use crate::errors;

/// The installed bridge's handle for forgetting cached logger levels (None until installed).
static BRIDGE: Mutex<Option<pyo3_log::ResetHandle>> = Mutex::new(None);

/// Send dbcore's logs to Python's `logging` (logger `dbcore` and its children), setting the
/// `dbcore` logger's level to `level` when given (a number such as `logging.DEBUG`, or a name
/// such as `"DEBUG"`). Call it again after changing the level of a `dbcore` logger: the bridge
/// caches each logger's level, and this call forgets what it cached.
#[pyfunction]
#[pyo3(signature = (level=None))]
pub fn enable_logging(py: Python<'_>, level: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
    let logging = py.import("logging")?;
    let logger = logging.call_method1("getLogger", ("dbcore",))?;
    if let Some(level) = level {
        logger.call_method1("setLevel", (level,))?;
    }
    let mut bridge = BRIDGE
        .lock()
        .map_err(|_| errors::internal("the logging bridge's lock was poisoned"))?;
    match &*bridge {
        Some(handle) => {
            handle.reset();
            log::set_max_level(log::LevelFilter::Trace);
        }
        None => {
            let handle = pyo3_log::Logger::new(py, pyo3_log::Caching::LoggersAndLevels)?
                .filter(log::LevelFilter::Trace)
                .install()
                .map_err(|e| {
                    errors::internal(format!(
                        "another Rust logger is installed in this process: {e}"
                    ))
                })?;
            *bridge = Some(handle);
        }
    }
    Ok(())
}

/// Stop handing dbcore's logs to Python (`log`'s level back to off); `enable_logging` turns
/// them on again.
#[pyfunction]
pub fn disable_logging() {
    log::set_max_level(log::LevelFilter::Off);
}
