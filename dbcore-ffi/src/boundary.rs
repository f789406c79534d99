//! The panic boundary, the status codes and the thread-local last error.
//!
//! Every exported function's body is one call to [`boundary`]: it runs the Rust code under
//! `catch_unwind`, turns an `Err` into a [`DbcoreStatus`] and records the detail where
//! `dbcore_last_error_*` can read it right after the call. A test (`tests/suite/boundary.rs`) reads the
//! sources and fails if an exported body does anything else.

use std::any::Any;
use std::cell::{RefCell, UnsafeCell};
use std::ffi::{c_char, CStr};
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use dbcore::{ErrorCode, ErrorInfo};

/// The result of every fallible function. `DBCORE_STATUS_OK` is 0; every other value is the
/// stable number of a `dbcore::ErrorCode`, grouped by family: 100–199 bad arguments, 200–299
/// rule refusals, 300–399 dice, 400–499 set-up, 900–999 internal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum DbcoreStatus {
    /// Success; the out-parameters are written.
    Ok = 0,
    /// A required pointer was NULL (or misaligned).
    NullArgument = 100,
    /// Text was not valid UTF-8.
    InvalidUtf8 = 101,
    /// JSON could not be read as the expected type.
    InvalidJson = 102,
    /// A value is out of its allowed range (an enum, a 0/1 flag, an index).
    InvalidArgument = 103,
    /// An element id the battle or table does not have.
    UnknownElement = 104,
    /// A handle was used by another call at the same time where one of them must have it alone
    /// (a `T *` call beside any other, a read during a free).
    HandleBusy = 105,
    /// An element code could not be parsed (§2.1).
    ElementCode = 110,
    /// The combat situation breaks the rules.
    IllegalSituation = 200,
    /// The action is not possible in the battle's present phase (§6.1).
    WrongPhase = 201,
    /// Not enough PIPs left for the move (§6.3).
    NotEnoughPips = 202,
    /// A tactical move the rules forbid (§7, §8).
    IllegalMove = 203,
    /// The battle is over (§13.2).
    BattleOver = 204,
    /// A die score outside 1..=6 (§0.3).
    InvalidDie = 300,
    /// Set-up data breaks the rules.
    InvalidSetup = 400,
    /// A panic was caught at the boundary; a handle involved is poisoned.
    Panic = 900,
    /// A handle was used after a panic poisoned it.
    Poisoned = 901,
    /// A failure inside dbcore that is not the caller's doing.
    Internal = 902,
}

impl DbcoreStatus {
    /// The status of a dbcore error code: the same number.
    pub const fn from_code(code: ErrorCode) -> DbcoreStatus {
        match code {
            ErrorCode::NullArgument => DbcoreStatus::NullArgument,
            ErrorCode::InvalidUtf8 => DbcoreStatus::InvalidUtf8,
            ErrorCode::InvalidJson => DbcoreStatus::InvalidJson,
            ErrorCode::InvalidArgument => DbcoreStatus::InvalidArgument,
            ErrorCode::UnknownElement => DbcoreStatus::UnknownElement,
            ErrorCode::HandleBusy => DbcoreStatus::HandleBusy,
            ErrorCode::ElementCode => DbcoreStatus::ElementCode,
            ErrorCode::IllegalSituation => DbcoreStatus::IllegalSituation,
            ErrorCode::WrongPhase => DbcoreStatus::WrongPhase,
            ErrorCode::NotEnoughPips => DbcoreStatus::NotEnoughPips,
            ErrorCode::IllegalMove => DbcoreStatus::IllegalMove,
            ErrorCode::BattleOver => DbcoreStatus::BattleOver,
            ErrorCode::InvalidDie => DbcoreStatus::InvalidDie,
            ErrorCode::InvalidSetup => DbcoreStatus::InvalidSetup,
            ErrorCode::Panic => DbcoreStatus::Panic,
            ErrorCode::Poisoned => DbcoreStatus::Poisoned,
            ErrorCode::Internal => DbcoreStatus::Internal,
        }
    }

    /// The NUL-terminated name as the header spells it.
    pub const fn name(self) -> &'static CStr {
        match self {
            DbcoreStatus::Ok => c"DBCORE_STATUS_OK",
            DbcoreStatus::NullArgument => c"DBCORE_STATUS_NULL_ARGUMENT",
            DbcoreStatus::InvalidUtf8 => c"DBCORE_STATUS_INVALID_UTF8",
            DbcoreStatus::InvalidJson => c"DBCORE_STATUS_INVALID_JSON",
            DbcoreStatus::InvalidArgument => c"DBCORE_STATUS_INVALID_ARGUMENT",
            DbcoreStatus::UnknownElement => c"DBCORE_STATUS_UNKNOWN_ELEMENT",
            DbcoreStatus::HandleBusy => c"DBCORE_STATUS_HANDLE_BUSY",
            DbcoreStatus::ElementCode => c"DBCORE_STATUS_ELEMENT_CODE",
            DbcoreStatus::IllegalSituation => c"DBCORE_STATUS_ILLEGAL_SITUATION",
            DbcoreStatus::WrongPhase => c"DBCORE_STATUS_WRONG_PHASE",
            DbcoreStatus::NotEnoughPips => c"DBCORE_STATUS_NOT_ENOUGH_PIPS",
            DbcoreStatus::IllegalMove => c"DBCORE_STATUS_ILLEGAL_MOVE",
            DbcoreStatus::BattleOver => c"DBCORE_STATUS_BATTLE_OVER",
            DbcoreStatus::InvalidDie => c"DBCORE_STATUS_INVALID_DIE",
            DbcoreStatus::InvalidSetup => c"DBCORE_STATUS_INVALID_SETUP",
            DbcoreStatus::Panic => c"DBCORE_STATUS_PANIC",
            DbcoreStatus::Poisoned => c"DBCORE_STATUS_POISONED",
            DbcoreStatus::Internal => c"DBCORE_STATUS_INTERNAL",
        }
    }

    /// The status with this number, if any.
    pub fn from_number(n: u32) -> Option<DbcoreStatus> {
        if n == 0 {
            Some(DbcoreStatus::Ok)
        } else {
            ErrorCode::from_number(n).map(DbcoreStatus::from_code)
        }
    }
}

/// A failure on its way to C: the code, the rules section when one refuses, and a message.
#[derive(Debug, Clone, PartialEq)]
pub struct FfiError {
    pub code: ErrorCode,
    pub rule: Option<&'static str>,
    pub message: String,
}

impl FfiError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> FfiError {
        FfiError {
            code,
            rule: None,
            message: message.into(),
        }
    }
    /// A NULL (or misaligned) pointer argument.
    pub fn null(what: &str) -> FfiError {
        FfiError::new(
            ErrorCode::NullArgument,
            format!("{what} must be a non-NULL, aligned pointer"),
        )
    }
    /// A value out of its range.
    pub fn invalid(message: impl Into<String>) -> FfiError {
        FfiError::new(ErrorCode::InvalidArgument, message)
    }
    fn from_panic(payload: &(dyn Any + Send)) -> FfiError {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic with no message".to_string());
        FfiError::new(
            ErrorCode::Panic,
            format!("internal error: dbcore panicked ({what})"),
        )
    }
}

impl<E: ErrorInfo> From<E> for FfiError {
    fn from(e: E) -> FfiError {
        FfiError {
            code: e.code(),
            rule: e.rule(),
            message: e.to_string(),
        }
    }
}

/// JSON text read as `T` through `dbcore::json`, so that a fault names the path of the field
/// (`armies[0].elements[3].pose.facing: invalid type ...`), `DBCORE_STATUS_INVALID_JSON`.
pub fn parse<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, FfiError> {
    dbcore::json::from_str(text).map_err(FfiError::from)
}

/// A parsed JSON value read as `T`, a fault naming its path like [`parse`].
pub fn parse_value<T: serde::de::DeserializeOwned>(v: serde_json::Value) -> Result<T, FfiError> {
    dbcore::json::from_value(v).map_err(FfiError::from)
}

/// The detail of the last failure on this thread, ready to copy out.
struct LastError {
    code: u32,
    message: Vec<u8>,
    rule: Vec<u8>,
}

thread_local! {
    static LAST_ERROR: RefCell<Option<LastError>> = const { RefCell::new(None) };
}

/// Bytes for C: no interior NUL can cut the message short.
fn c_bytes(s: &str) -> Vec<u8> {
    s.replace('\0', "\\0").into_bytes()
}

fn set_last_error(e: &FfiError) {
    let last = LastError {
        code: e.code.number(),
        message: c_bytes(&e.message),
        rule: e.rule.map(c_bytes).unwrap_or_default(),
    };
    // `try_with`: during thread teardown there is nowhere to record it, and that is fine.
    let _ = LAST_ERROR.try_with(|l| *l.borrow_mut() = Some(last));
}

fn clear_last_error() {
    let _ = LAST_ERROR.try_with(|l| *l.borrow_mut() = None);
}

/// Read the last error: its code (0 when none), message and rule.
pub(crate) fn with_last_error<T>(f: impl FnOnce(u32, &[u8], &[u8]) -> T) -> T {
    let mut f = Some(f);
    let mut call = |code: u32, message: &[u8], rule: &[u8]| {
        let f = f.take().expect("called once");
        f(code, message, rule)
    };
    match LAST_ERROR.try_with(|l| match &*l.borrow() {
        Some(e) => Some(call(e.code, &e.message, &e.rule)),
        None => Some(call(0, b"", b"")),
    }) {
        Ok(Some(v)) => v,
        _ => call(0, b"", b""),
    }
}

/// How a kind of exported function returns: what C sees on success and on failure, and whether
/// the call counts as a call that clears the last error when it succeeds.
pub trait Returns {
    type C;
    /// A fallible call clears the last error when it succeeds; readers and frees leave it.
    const CLEARS_LAST_ERROR: bool;
    fn ok(self) -> Self::C;
    fn failed(status: DbcoreStatus) -> Self::C;
}

/// A fallible call: `DBCORE_STATUS_OK`, or the failure's status.
impl Returns for () {
    type C = DbcoreStatus;
    const CLEARS_LAST_ERROR: bool = true;
    fn ok(self) -> DbcoreStatus {
        DbcoreStatus::Ok
    }
    fn failed(status: DbcoreStatus) -> DbcoreStatus {
        status
    }
}

/// A reader or a free that leaves the last error alone: its value, or `T::default()` after a
/// panic.
#[derive(Debug)]
pub struct Quiet<T>(pub T);

impl<T: Default> Returns for Quiet<T> {
    type C = T;
    const CLEARS_LAST_ERROR: bool = false;
    fn ok(self) -> T {
        self.0
    }
    fn failed(_: DbcoreStatus) -> T {
        T::default()
    }
}

/// THE panic boundary: every exported function's body is one call to this. A panic becomes
/// `DBCORE_STATUS_PANIC`; an error becomes its status with the detail recorded for
/// `dbcore_last_error_*`; a successful fallible call clears that detail.
pub fn boundary<R: Returns>(f: impl FnOnce() -> Result<R, FfiError>) -> R::C {
    let result = catch_unwind(AssertUnwindSafe(f))
        .unwrap_or_else(|payload| Err(FfiError::from_panic(payload.as_ref())));
    match result {
        Ok(v) => {
            if R::CLEARS_LAST_ERROR {
                clear_last_error();
            }
            v.ok()
        }
        Err(e) => {
            set_last_error(&e);
            R::failed(DbcoreStatus::from_code(e.code))
        }
    }
}

/// The contents of a C handle behind its guard: a poison flag, and a use count that makes the
/// header's sharing rule (`T *` exclusive, `const T *` shared by readers) something the library
/// checks rather than trusts. A writer takes the whole handle for the call, readers share it;
/// a call that finds the handle taken the other way returns `DBCORE_STATUS_HANDLE_BUSY` and
/// touches nothing, instead of racing. One compare-and-swap and one release store per call.
#[derive(Debug)]
pub struct Guarded<T> {
    /// 0: free; [`WRITER`]: one writer; otherwise the number of readers.
    uses: AtomicU32,
    poisoned: AtomicBool,
    inner: UnsafeCell<T>,
}

/// The use count of a handle held by a writer (or being freed).
const WRITER: u32 = u32::MAX;

// SAFETY: the use count gives `inner` either to one writer or to readers only, as a `RwLock`
// does, so the handle may be shared and sent between threads when `T` may.
unsafe impl<T: Send> Send for Guarded<T> {}
// SAFETY: as above.
unsafe impl<T: Send + Sync> Sync for Guarded<T> {}

fn busy() -> FfiError {
    FfiError::new(
        ErrorCode::HandleBusy,
        "this handle is in use by another call (a `T *` handle is for one thread at a time, \
         and a `const T *` one may not be read while it is written or freed)",
    )
}

fn poisoned() -> FfiError {
    FfiError::new(
        ErrorCode::Poisoned,
        "this handle was poisoned by an earlier panic; free it",
    )
}

/// Gives the handle back when the call ends, a panic included.
struct Release<'a> {
    uses: &'a AtomicU32,
    writer: bool,
}

impl Drop for Release<'_> {
    fn drop(&mut self) {
        if self.writer {
            self.uses.store(0, Ordering::Release);
        } else {
            self.uses.fetch_sub(1, Ordering::Release);
        }
    }
}

impl<T> Guarded<T> {
    pub fn new(inner: T) -> Guarded<T> {
        Guarded {
            uses: AtomicU32::new(0),
            poisoned: AtomicBool::new(false),
            inner: UnsafeCell::new(inner),
        }
    }

    fn run<R, U>(
        &self,
        release: Release<'_>,
        inner: U,
        f: impl FnOnce(U) -> Result<R, FfiError>,
    ) -> Result<R, FfiError> {
        if self.poisoned.load(Ordering::Acquire) {
            return Err(poisoned());
        }
        let result = catch_unwind(AssertUnwindSafe(|| f(inner)));
        drop(release);
        match result {
            Ok(r) => r,
            Err(payload) => {
                self.poisoned.store(true, Ordering::Release);
                resume_unwind(payload)
            }
        }
    }

    /// Run `f` with the contents alone: refused while any other call reads or writes them.
    pub fn write<R>(&self, f: impl FnOnce(&mut T) -> Result<R, FfiError>) -> Result<R, FfiError> {
        self.uses
            .compare_exchange(0, WRITER, Ordering::Acquire, Ordering::Relaxed)
            .map_err(|_| busy())?;
        let release = Release {
            uses: &self.uses,
            writer: true,
        };
        // SAFETY: the use count is WRITER until `release` drops: no other reference exists.
        let inner = unsafe { &mut *self.inner.get() };
        self.run(release, inner, f)
    }

    /// Run `f` reading the contents, with other readers: refused while a call writes them.
    pub fn read<R>(&self, f: impl FnOnce(&T) -> Result<R, FfiError>) -> Result<R, FfiError> {
        let mut n = self.uses.load(Ordering::Relaxed);
        loop {
            if n >= WRITER - 1 {
                return Err(busy());
            }
            match self
                .uses
                .compare_exchange_weak(n, n + 1, Ordering::Acquire, Ordering::Relaxed)
            {
                Ok(_) => break,
                Err(now) => n = now,
            }
        }
        let release = Release {
            uses: &self.uses,
            writer: false,
        };
        // SAFETY: the use count counts this reader until `release` drops: no writer exists.
        let inner = unsafe { &*self.inner.get() };
        self.run(release, inner, f)
    }

    /// Take the handle for good, before it is freed: refused while any call uses it (the
    /// handle is then left alone rather than freed under that call).
    pub fn claim_for_free(&self) -> Result<(), FfiError> {
        self.uses
            .compare_exchange(0, WRITER, Ordering::Acquire, Ordering::Relaxed)
            .map(|_| ())
            .map_err(|_| busy())
    }
}

/// Free a boxed handle whose guard `guard` finds, unless a call is using it.
///
/// # Safety
/// `p` must be NULL or a pointer from `Box::into_raw` not freed before.
pub unsafe fn free_handle<H, T>(
    p: *mut H,
    guard: impl FnOnce(&H) -> &Guarded<T>,
) -> Result<Quiet<()>, FfiError> {
    if p.is_null() {
        return Ok(Quiet(()));
    }
    // SAFETY: non-NULL; live by the caller's contract.
    guard(unsafe { &*p }).claim_for_free()?;
    // SAFETY: from `Box::into_raw` (the caller's contract); no call uses it any more.
    drop(unsafe { Box::from_raw(p) });
    Ok(Quiet(()))
}

/// A read-only pointer argument, checked for NULL and alignment.
///
/// # Safety
/// If non-NULL and aligned, `p` must point to a valid `T` that outlives `'a` and is not written
/// meanwhile.
pub unsafe fn arg<'a, T>(p: *const T, what: &str) -> Result<&'a T, FfiError> {
    if p.is_null() || !p.is_aligned() {
        return Err(FfiError::null(what));
    }
    // SAFETY: non-NULL and aligned; validity is the caller's contract.
    Ok(unsafe { &*p })
}

/// An out-parameter, checked before any work is done so that a failure writes nothing.
#[derive(Debug)]
pub struct Out<T>(*mut T);

impl<T> Out<T> {
    /// Check `p` for NULL and alignment.
    pub fn new(p: *mut T, what: &str) -> Result<Out<T>, FfiError> {
        if p.is_null() || !p.is_aligned() {
            return Err(FfiError::null(what));
        }
        Ok(Out(p))
    }
    /// The pointer, checked non-NULL and aligned, for a caller that writes the value field by
    /// field.
    pub fn as_ptr(&self) -> *mut T {
        self.0
    }
    /// Write the value (without reading or dropping what was there).
    ///
    /// # Safety
    /// The pointer given to [`Out::new`] must be valid for writes of a `T`.
    pub unsafe fn write(self, v: T) {
        // SAFETY: checked non-NULL and aligned in `new`; validity is the caller's contract.
        unsafe { self.0.write(v) }
    }
}

/// A NUL-terminated UTF-8 string argument.
///
/// # Safety
/// If non-NULL, `p` must point to a NUL-terminated string that outlives `'a`.
pub unsafe fn arg_str<'a>(p: *const c_char, what: &str) -> Result<&'a str, FfiError> {
    if p.is_null() {
        return Err(FfiError::null(what));
    }
    // SAFETY: non-NULL; NUL termination is the caller's contract.
    let c = unsafe { CStr::from_ptr(p) };
    c.to_str().map_err(|e| {
        FfiError::new(
            ErrorCode::InvalidUtf8,
            format!("{what} is not valid UTF-8: {e}"),
        )
    })
}

/// The longest prefix of `src` that fits in `cap` bytes without splitting a UTF-8 character.
pub fn utf8_prefix(src: &[u8], cap: usize) -> &[u8] {
    if src.len() <= cap {
        return src;
    }
    let mut end = cap;
    // Back off over continuation bytes (10xxxxxx) so a character is never cut in two.
    while end > 0 && (src[end] & 0xC0) == 0x80 {
        end -= 1;
    }
    &src[..end]
}

/// Copy `src` into a C buffer of `len` bytes as a NUL-terminated string, truncated (at a UTF-8
/// character boundary) to fit; return `src.len()`, the length of the whole string without its
/// NUL, as `snprintf` does. Nothing is written when `buf` is NULL or `len` is 0.
///
/// # Safety
/// If non-NULL, `buf` must be valid for writes of `len` bytes.
pub unsafe fn copy_out(src: &[u8], buf: *mut c_char, len: usize) -> usize {
    if buf.is_null() || len == 0 {
        return src.len();
    }
    let part = utf8_prefix(src, len - 1);
    // SAFETY: `buf` has room for `len` bytes and `part.len() + 1 <= len`.
    unsafe {
        std::ptr::copy_nonoverlapping(part.as_ptr(), buf.cast::<u8>(), part.len());
        *buf.add(part.len()) = 0;
    }
    src.len()
}

/// Where a value sits in the caller's arguments (`situation.a.side_supporters[1].going`), spelled
/// only when an error message needs it, so that a successful call allocates nothing for it.
#[derive(Debug, Clone, Copy)]
pub struct Field<'a> {
    parent: Option<&'a Field<'a>>,
    name: &'a str,
    index: Option<usize>,
}

impl<'a> Field<'a> {
    /// An argument.
    pub const fn root(name: &'a str) -> Field<'a> {
        Field {
            parent: None,
            name,
            index: None,
        }
    }
    /// A member of this struct.
    pub fn member(&'a self, name: &'a str) -> Field<'a> {
        Field {
            parent: Some(self),
            name,
            index: None,
        }
    }
    /// An element of an array member of this struct.
    pub fn item(&'a self, name: &'a str, index: usize) -> Field<'a> {
        Field {
            parent: Some(self),
            name,
            index: Some(index),
        }
    }
}

impl std::fmt::Display for Field<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(p) = self.parent {
            write!(f, "{p}.")?;
        }
        f.write_str(self.name)?;
        if let Some(i) = self.index {
            write!(f, "[{i}]")?;
        }
        Ok(())
    }
}

/// A C `uint32_t` used as a flag: only 0 and 1 are accepted, so that a binding that passes
/// garbage hears about it.
#[inline]
pub fn flag(v: u32, what: Field<'_>) -> Result<bool, FfiError> {
    match v {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(not_a_flag(v, what)),
    }
}

/// The refusal of a flag out of range, out of the hot path (every struct argument reads flags).
#[cold]
#[inline(never)]
fn not_a_flag(v: u32, what: Field<'_>) -> FfiError {
    FfiError::invalid(format!("{what} must be 0 or 1, not {v}"))
}

/// A `bool` as a C flag.
pub fn to_flag(b: bool) -> u32 {
    u32::from(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_code_has_a_status_with_the_same_number() {
        for code in ErrorCode::ALL {
            let s = DbcoreStatus::from_code(code);
            assert_eq!(s as u32, code.number(), "{code:?}");
            assert_eq!(DbcoreStatus::from_number(code.number()), Some(s));
            let name = s.name().to_str().unwrap();
            assert!(name.starts_with("DBCORE_STATUS_"), "{name}");
        }
        assert_eq!(DbcoreStatus::Ok as u32, 0);
        assert_eq!(DbcoreStatus::from_number(0), Some(DbcoreStatus::Ok));
        assert_eq!(DbcoreStatus::from_number(7), None);
    }

    #[test]
    fn truncation_never_splits_a_character() {
        let s = "§11.1".as_bytes(); // '§' is two bytes
        assert_eq!(utf8_prefix(s, 1), b"");
        assert_eq!(utf8_prefix(s, 2), "§".as_bytes());
        let mut buf = [0x55 as c_char; 4];
        let n = unsafe { copy_out(s, buf.as_mut_ptr(), buf.len()) };
        assert_eq!(n, s.len());
        assert_eq!(
            &buf[..3].iter().map(|&c| c as u8).collect::<Vec<_>>(),
            b"\xc2\xa71"
        );
        assert_eq!(buf[3], 0);
    }

    #[test]
    fn an_exclusive_handle_refuses_a_second_user_and_readers_share() {
        let g = Guarded::new(5u32);
        // A reader beside a reader: both run.
        let r = g.read(|a| g.read(|b| Ok(a + b)));
        assert_eq!(r, Ok(10));
        // A writer beside a reader, a reader beside a writer, a writer beside a writer: busy.
        let busy = |r: Result<u32, FfiError>| r.unwrap_err().code == ErrorCode::HandleBusy;
        assert!(g.read(|_| Ok(busy(g.write(|v| Ok(*v))))).unwrap());
        assert!(g.write(|_| Ok(busy(g.read(|v| Ok(*v))))).unwrap());
        assert!(g.write(|_| Ok(busy(g.write(|v| Ok(*v))))).unwrap());
        // Nor may it be freed while in use.
        assert!(g
            .read(|_| Ok(g.claim_for_free().unwrap_err().code == ErrorCode::HandleBusy))
            .unwrap());
        // Each use gives the handle back, a refusal and a panic included.
        assert_eq!(g.write(|v| Ok(*v)), Ok(5));
        let _ = catch_unwind(AssertUnwindSafe(|| {
            g.write(|_| -> Result<(), FfiError> { panic!("x") })
        }));
        assert_eq!(g.read(|v| Ok(*v)).unwrap_err().code, ErrorCode::Poisoned);
        assert!(g.claim_for_free().is_ok());
    }

    #[test]
    fn a_panic_becomes_a_status_and_a_message() {
        let s = boundary::<()>(|| panic!("boom"));
        assert_eq!(s, DbcoreStatus::Panic);
        with_last_error(|code, msg, _| {
            assert_eq!(code, 900);
            assert!(String::from_utf8_lossy(msg).contains("boom"));
        });
        assert_eq!(boundary::<()>(|| Ok(())), DbcoreStatus::Ok);
        with_last_error(|code, msg, rule| {
            assert_eq!((code, msg, rule), (0, &b""[..], &b""[..]));
        });
    }
}
