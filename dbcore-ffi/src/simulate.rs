//! Many battles (`dbcore::simulate`) for C programs: one JSON request in, the records and their
//! summary out. Translation only: every battle and every number is dbcore's.

use std::ffi::c_char;

use dbcore::simulate::{simulate, Control, Request};

use crate::boundary::{arg_str, boundary, parse, Out};
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
