//! Exported functions that describe statuses and the last failure.

use std::ffi::c_char;

use crate::boundary::{boundary, copy_out, with_last_error, DbcoreStatus, Quiet};

/// The name of a status number, e.g. `"DBCORE_STATUS_INVALID_DIE"` for 300, or
/// `"DBCORE_STATUS_UNKNOWN"` for a number that is no status. The string is static: never free it.
///
/// # Safety
/// Always safe to call.
///
/// # Example
/// ```c
/// DbcoreStatus s = dbcore_resolve(&sit, 0, 4, &res);
/// if (s != DBCORE_STATUS_OK) fprintf(stderr, "%s\n", dbcore_status_name(s));
/// ```
#[no_mangle]
pub extern "C" fn dbcore_status_name(status: u32) -> *const c_char {
    // Allowlisted: a table lookup of static strings, no allocation, cannot panic.
    match DbcoreStatus::from_number(status) {
        Some(s) => s.name().as_ptr(),
        None => c"DBCORE_STATUS_UNKNOWN".as_ptr(),
    }
}

/// The status number of the last failure on this thread, or 0 (`DBCORE_STATUS_OK`) when the
/// last fallible call succeeded. Reading it does not clear it.
///
/// # Safety
/// Always safe to call.
///
/// # Example
/// ```c
/// if (dbcore_dice_roll(NULL, &die) != DBCORE_STATUS_OK)
///     assert(dbcore_last_error_code() == DBCORE_STATUS_NULL_ARGUMENT);
/// ```
#[no_mangle]
pub extern "C" fn dbcore_last_error_code() -> u32 {
    boundary(|| Ok(Quiet(with_last_error(|code, _, _| code))))
}

/// Copy the message of the last failure on this thread into `buf` as a NUL-terminated UTF-8
/// string, truncated (at a character boundary) to fit `len` bytes, and return the length of the
/// whole message without its NUL, as `snprintf` does: the copy was cut short when the result is
/// `>= len`. The message is empty when the last call succeeded. Reading it does not clear it.
///
/// # Safety
/// `buf` must be valid for writes of `len` bytes, or NULL (then nothing is written and only the
/// length is returned).
///
/// # Example
/// ```c
/// char msg[256];
/// if (dbcore_element_kind_parse("9Zz", &kind) != DBCORE_STATUS_OK) {
///     dbcore_last_error_message(msg, sizeof msg);
///     fprintf(stderr, "%s\n", msg);
/// }
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_last_error_message(buf: *mut c_char, len: usize) -> usize {
    boundary(|| {
        Ok(Quiet(with_last_error(|_, message, _| {
            // SAFETY: the caller's contract on `buf` and `len`.
            unsafe { copy_out(message, buf, len) }
        })))
    })
}

/// Copy the rules section that refused the last failed call (e.g. `"§0.3"`) into `buf`, as
/// [`dbcore_last_error_message`] does; empty when no rule refused it (a NULL pointer, bad JSON)
/// or the last call succeeded.
///
/// # Safety
/// `buf` must be valid for writes of `len` bytes, or NULL (then nothing is written).
///
/// # Example
/// ```c
/// char rule[32];
/// if (dbcore_resolve(&sit, 7, 1, &res) == DBCORE_STATUS_INVALID_DIE) {
///     dbcore_last_error_rule(rule, sizeof rule); // "§0.3"
/// }
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_last_error_rule(buf: *mut c_char, len: usize) -> usize {
    boundary(|| {
        Ok(Quiet(with_last_error(|_, _, rule| {
            // SAFETY: the caller's contract on `buf` and `len`.
            unsafe { copy_out(rule, buf, len) }
        })))
    })
}
