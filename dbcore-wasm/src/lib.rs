//! dbcore as WebAssembly for JavaScript, through a small raw ABI over JSON text (like the C
//! ABI): no generated glue, no JavaScript values built in Rust. The page's `dbcore.js`
//! (`dbcore-wasm/js/`) is the whole JavaScript side.
//!
//! * Memory: [`alloc`]`(len) -> ptr` gives JavaScript room to write UTF-8 text into, and
//!   [`dealloc`]`(ptr, len)` gives it back.
//! * [`call`]`(method, params)` answers a method that needs no game (`dbcore::surface::call`);
//!   [`game_new`]`(how)` starts a game (`dbcore::surface::Session`) held inside the module under
//!   a number, [`game_call`]`(id, method, params)` answers one of its methods and
//!   [`game_free`]`(id)` forgets it. Every text is a pointer and a length.
//! * Each of them writes its answer as one JSON text, `{"ok": value}` or `{"error": {"code",
//!   "kind", "name", "rule", "detail"}}`, into a buffer the module keeps until the next call:
//!   [`result_ptr`] and [`result_len`] say where it is (`call` and `game_call` also return the
//!   pointer).
//!
//! No rule is decided here: this file only moves text, so a method added to the surface reaches
//! JavaScript without a line here.
//!
//! A panic (a bug in dbcore) cannot unwind through WebAssembly: the module traps. The panic hook
//! keeps its message for [`last_panic`], and `dbcore.js` turns the trap into an `InternalError`
//! and rebuilds the games in a fresh instance, so that a page is never left with a broken
//! referee.

use std::alloc::Layout;
use std::cell::RefCell;

use serde_json::{json, Value};

use dbcore::surface::{Session, SurfaceError};
use dbcore::ErrorCode;

thread_local! {
    /// The message of the last panic, for the JavaScript wrapper to report after the trap.
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
    /// The last answer, as JSON text, until the next call.
    static RESULT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The games in progress: game `id` is at `id - 1`; a freed slot is reused.
    static GAMES: RefCell<Vec<Option<Session>>> = const { RefCell::new(Vec::new()) };
}

/// Set the panic hook once: a panic's message and place are kept for [`last_panic`].
fn hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        #[cfg(not(target_family = "wasm"))]
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let text = info.to_string();
            LAST_PANIC.with(|p| *p.borrow_mut() = Some(text));
            // On the host (the tests), the usual report as well.
            #[cfg(not(target_family = "wasm"))]
            previous(info);
        }));
    });
}

/// The class name a family of codes is thrown as in JavaScript, as in Python.
fn family_name(code: ErrorCode) -> &'static str {
    use dbcore::error::ErrorFamily as F;
    match code.family() {
        F::Argument => "ArgumentError",
        F::Rule => "RuleError",
        F::Dice => "DiceError",
        F::Setup => "SetupError",
        F::Internal => "InternalError",
    }
}

/// A surface error as the JSON the JavaScript side throws.
fn error_value(e: &SurfaceError) -> Value {
    json!({"error": {
        "code": e.code.number(),
        "kind": e.code,
        "name": family_name(e.code),
        "rule": e.rule,
        "detail": e.message,
    }})
}

/// Keep `answer` as the result text; its pointer.
fn set_result(answer: Result<Value, SurfaceError>) -> *const u8 {
    let v = match answer {
        Ok(v) => json!({ "ok": v }),
        Err(e) => error_value(&e),
    };
    let text = serde_json::to_vec(&v).unwrap_or_else(|e| {
        // A Value always serialises; kept as an error all the same rather than a panic.
        serde_json::to_vec(&error_value(&SurfaceError::new(
            ErrorCode::Internal,
            format!("cannot write the answer: {e}"),
        )))
        .unwrap_or_default()
    });
    RESULT.with(|r| {
        let mut r = r.borrow_mut();
        *r = text;
        r.as_ptr()
    })
}

/// The text at `ptr` (`len` bytes), as a string.
///
/// # Safety
/// `ptr` must point to `len` readable bytes (or `len` be 0).
unsafe fn text<'a>(ptr: *const u8, len: usize, what: &str) -> Result<&'a str, SurfaceError> {
    let bytes: &[u8] = if len == 0 || ptr.is_null() {
        &[]
    } else {
        // SAFETY: the caller's promise.
        unsafe { std::slice::from_raw_parts(ptr, len) }
    };
    std::str::from_utf8(bytes)
        .map_err(|e| SurfaceError::new(ErrorCode::InvalidUtf8, format!("{what}: {e}")))
}

/// The JSON text at `ptr` as a value; empty text (or `null`) is `{}`: no parameters.
///
/// # Safety
/// As [`text`].
unsafe fn json_at(ptr: *const u8, len: usize, what: &str) -> Result<Value, SurfaceError> {
    // SAFETY: the caller's promise.
    let t = unsafe { text(ptr, len, what) }?;
    if t.trim().is_empty() {
        return Ok(Value::Object(Default::default()));
    }
    match serde_json::from_str::<Value>(t) {
        Ok(Value::Null) => Ok(Value::Object(Default::default())),
        Ok(v) => Ok(v),
        Err(e) => Err(SurfaceError::new(
            ErrorCode::InvalidJson,
            format!("{what} is not JSON: {e}"),
        )),
    }
}

/// Room for `len` bytes that JavaScript writes text into; give it back with [`dealloc`].
/// Null when there is no memory left.
#[cfg_attr(target_family = "wasm", no_mangle)]
pub extern "C" fn alloc(len: usize) -> *mut u8 {
    if len == 0 {
        return std::ptr::NonNull::<u8>::dangling().as_ptr();
    }
    match Layout::array::<u8>(len) {
        // SAFETY: the layout's size is not zero.
        Ok(layout) => unsafe { std::alloc::alloc(layout) },
        Err(_) => std::ptr::null_mut(),
    }
}

/// Give back the room [`alloc`] gave.
///
/// # Safety
/// `ptr` and `len` must be those of one earlier [`alloc`], not given back yet.
#[cfg_attr(target_family = "wasm", no_mangle)]
pub unsafe extern "C" fn dealloc(ptr: *mut u8, len: usize) {
    if len == 0 || ptr.is_null() {
        return;
    }
    if let Ok(layout) = Layout::array::<u8>(len) {
        // SAFETY: the caller's promise: allocated by `alloc` with this layout.
        unsafe { std::alloc::dealloc(ptr, layout) }
    }
}

/// Where the last answer's JSON text is (until the next call).
#[cfg_attr(target_family = "wasm", no_mangle)]
pub extern "C" fn result_ptr() -> *const u8 {
    RESULT.with(|r| r.borrow().as_ptr())
}

/// How many bytes the last answer's JSON text has.
#[cfg_attr(target_family = "wasm", no_mangle)]
pub extern "C" fn result_len() -> usize {
    RESULT.with(|r| r.borrow().len())
}

/// Answer a method that needs no game (`version`, `methods`, `armies.lookup`, `record.replay`,
/// `render`, `odds`, ...): the pointer of the answer's JSON text ([`result_len`] bytes).
///
/// # Safety
/// Each pointer must point to its length in readable bytes (a length may be 0).
#[cfg_attr(target_family = "wasm", no_mangle)]
pub unsafe extern "C" fn call(
    method_ptr: *const u8,
    method_len: usize,
    params_ptr: *const u8,
    params_len: usize,
) -> *const u8 {
    hook();
    // SAFETY: the caller's promise.
    let answer = unsafe { method_and_params(method_ptr, method_len, params_ptr, params_len) }
        .and_then(|(method, params)| dbcore::surface::call(method, params));
    set_result(answer)
}

/// The method's name and its parameters, read from the host's memory.
///
/// # Safety
/// Each pointer must point to its length in readable bytes (a length may be 0).
unsafe fn method_and_params<'a>(
    method_ptr: *const u8,
    method_len: usize,
    params_ptr: *const u8,
    params_len: usize,
) -> Result<(&'a str, Value), SurfaceError> {
    // SAFETY: the caller's promise, for both.
    let method = unsafe { text(method_ptr, method_len, "the method's name") }?;
    let params = unsafe { json_at(params_ptr, params_len, "the parameters") }?;
    Ok((method, params))
}

/// Start a game from how it starts (JSON text: `{"lists": ["II/56", "II/53"], "variant"?,
/// "prebattle"?, "seed"?}`, `{"setup"}`, `{"game": record}`, `{"state"}` or `{"demo"}`): its id
/// (1 or more), the answer `{"ok": id}`; 0 when it is refused, the answer then the error.
///
/// # Safety
/// `ptr` must point to `len` readable bytes.
#[cfg_attr(target_family = "wasm", no_mangle)]
pub unsafe extern "C" fn game_new(ptr: *const u8, len: usize) -> u32 {
    hook();
    // SAFETY: the caller's promise.
    let started = unsafe { json_at(ptr, len, "how the game starts") }.and_then(Session::new);
    match started {
        Ok(session) => {
            let id = GAMES.with(|g| {
                let mut g = g.borrow_mut();
                let slot = match g.iter().position(Option::is_none) {
                    Some(free) => free,
                    None => {
                        g.push(None);
                        g.len() - 1
                    }
                };
                g[slot] = Some(session);
                slot + 1
            });
            // Far more games than memory could hold would overflow; refused instead.
            match u32::try_from(id) {
                Ok(id) => {
                    set_result(Ok(json!(id)));
                    id
                }
                Err(_) => {
                    game_free_at(id);
                    set_result(Err(SurfaceError::new(
                        ErrorCode::Internal,
                        "too many games at once",
                    )));
                    0
                }
            }
        }
        Err(e) => {
            set_result(Err(e));
            0
        }
    }
}

/// Answer one of game `id`'s methods (`info`, `legal_actions`, `check`, `apply`, `play`,
/// `undo`, `record`, `scene`, `destinations`, ...; `methods` lists them): the pointer of the
/// answer's JSON text ([`result_len`] bytes). A refusal changes nothing.
///
/// # Safety
/// Each pointer must point to its length in readable bytes (a length may be 0).
#[cfg_attr(target_family = "wasm", no_mangle)]
pub unsafe extern "C" fn game_call(
    id: u32,
    method_ptr: *const u8,
    method_len: usize,
    params_ptr: *const u8,
    params_len: usize,
) -> *const u8 {
    hook();
    // SAFETY: the caller's promise.
    let answer = unsafe { method_and_params(method_ptr, method_len, params_ptr, params_len) }
        .and_then(|(method, params)| {
            GAMES.with(|g| {
                let mut g = g.borrow_mut();
                match (id as usize)
                    .checked_sub(1)
                    .and_then(|i| g.get_mut(i))
                    .and_then(Option::as_mut)
                {
                    Some(session) => session.call(method, params),
                    None => Err(SurfaceError::new(
                        ErrorCode::InvalidArgument,
                        format!("there is no game {id} (never started, or freed)"),
                    )),
                }
            })
        });
    set_result(answer)
}

fn game_free_at(id: usize) {
    GAMES.with(|g| {
        let mut g = g.borrow_mut();
        if let Some(slot) = id.checked_sub(1).and_then(|i| g.get_mut(i)) {
            *slot = None;
        }
        while g.last().is_some_and(Option::is_none) {
            g.pop();
        }
    });
}

/// Forget game `id` and give back its memory (an unknown id is ignored).
#[cfg_attr(target_family = "wasm", no_mangle)]
pub extern "C" fn game_free(id: u32) {
    game_free_at(id as usize);
}

/// How many games the module holds now.
#[cfg_attr(target_family = "wasm", no_mangle)]
pub extern "C" fn game_count() -> u32 {
    GAMES.with(|g| g.borrow().iter().flatten().count() as u32)
}

/// The message of the last panic inside the referee, as the answer text (empty when there was
/// none), and forget it: its pointer ([`result_len`] bytes).
#[cfg_attr(target_family = "wasm", no_mangle)]
pub extern "C" fn last_panic() -> *const u8 {
    let message = LAST_PANIC
        .with(|p| p.borrow_mut().take())
        .unwrap_or_default();
    RESULT.with(|r| {
        // After a trap the buffer may still be borrowed where the panic struck: then a fresh
        // one (the instance is thrown away anyway).
        match r.try_borrow_mut() {
            Ok(mut r) => {
                *r = message.into_bytes();
                r.as_ptr()
            }
            Err(_) => std::ptr::null(),
        }
    })
}

/// Panic on purpose. The browser test calls it to check that a panic inside the referee reaches
/// the page as an `InternalError` and leaves every game working (see `dbcore.js`).
#[cfg_attr(target_family = "wasm", no_mangle)]
pub extern "C" fn panic_for_test() {
    hook();
    panic_now();
}

fn panic_now() {
    panic!("a panic asked for by the test of the panic boundary");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The answer text as JSON.
    fn answer() -> Value {
        let (ptr, len) = (result_ptr(), result_len());
        // SAFETY: the module's own buffer, unchanged since the call.
        let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
        serde_json::from_slice(bytes).expect("the answer is JSON")
    }

    fn call_text(method: &str, params: &str) -> Value {
        // SAFETY: both are live strings.
        let p = unsafe { call(method.as_ptr(), method.len(), params.as_ptr(), params.len()) };
        assert_eq!(p, result_ptr());
        answer()
    }

    fn new_game(how: &str) -> u32 {
        // SAFETY: a live string.
        unsafe { game_new(how.as_ptr(), how.len()) }
    }

    fn game_text(id: u32, method: &str, params: &str) -> Value {
        // SAFETY: both are live strings.
        unsafe {
            game_call(
                id,
                method.as_ptr(),
                method.len(),
                params.as_ptr(),
                params.len(),
            )
        };
        answer()
    }

    #[test]
    fn memory_given_to_javascript_is_written_and_given_back() {
        for len in [0, 1, 7, 100_000] {
            let p = alloc(len);
            assert!(!p.is_null());
            if len > 0 {
                // SAFETY: `len` bytes were just allocated.
                unsafe {
                    p.write_bytes(0x5a, len);
                    assert_eq!(*p.add(len - 1), 0x5a);
                }
            }
            // SAFETY: the pair alloc gave.
            unsafe { dealloc(p, len) };
        }
    }

    #[test]
    fn a_gameless_method_answers_ok_with_its_value() {
        let v = call_text("version", "");
        assert!(v["ok"].is_object() || v["ok"].is_string(), "{v}");
        let found = call_text("armies.lookup", r#"{"text": "Ancient British"}"#);
        assert_eq!(found["ok"]["id"], "II/53", "{found}");
        // `null` parameters are none, as empty text is.
        assert!(
            call_text("methods", "null")["ok"].is_object()
                || call_text("methods", "null")["ok"].is_array()
        );
    }

    #[test]
    fn errors_carry_code_kind_family_rule_and_detail() {
        let e = call_text("no.such.method", "{}");
        let err = &e["error"];
        assert_eq!(err["name"], "ArgumentError", "{e}");
        assert!(err["code"].as_u64().unwrap() / 100 == 1);
        assert!(err["kind"].is_string() && err["detail"].as_str().unwrap().len() > 5);
        assert!(err.get("rule").is_some());
        let e = call_text("version", "{not json");
        assert_eq!(e["error"]["kind"], "invalid_json", "{e}");
        // Text that is not UTF-8.
        let bad = [b'{', 0xff, b'}'];
        let m = "version";
        // SAFETY: live slices.
        unsafe { call(m.as_ptr(), m.len(), bad.as_ptr(), bad.len()) };
        assert_eq!(answer()["error"]["kind"], "invalid_utf8");
    }

    #[test]
    fn a_game_is_started_called_refused_and_freed_by_its_id() {
        let id = new_game(r#"{"demo": "battle", "seed": 7}"#);
        assert!(id >= 1);
        assert_eq!(answer()["ok"], id);
        let info = game_text(id, "info", "");
        assert_eq!(info["ok"]["revision"], 0, "{info}");
        let legal = game_text(id, "legal_actions", "{}");
        let first = legal["ok"]["actions"][0].clone();
        let applied = game_text(id, "apply", &json!({ "action": first }).to_string());
        assert!(!applied["ok"]["events"].as_array().unwrap().is_empty());
        assert_eq!(game_text(id, "info", "{}")["ok"]["revision"], 1);
        // A refusal is an error of the rules' family, and changes nothing.
        let refused = game_text(
            id,
            "apply",
            r#"{"action": {"action": "roll_pips", "dice": [3]}}"#,
        );
        let name = refused["error"]["name"].as_str().unwrap().to_string();
        assert!(
            name.ends_with("Error") && name != "InternalError",
            "{refused}"
        );
        assert_eq!(game_text(id, "info", "{}")["ok"]["revision"], 1);
        game_free(id);
        let gone = game_text(id, "info", "{}");
        assert_eq!(gone["error"]["kind"], "invalid_argument", "{gone}");
        assert_eq!(gone["error"]["name"], "ArgumentError");
        assert_eq!(
            game_text(0, "info", "{}")["error"]["kind"],
            "invalid_argument"
        );
    }

    #[test]
    fn a_refused_start_answers_0_and_the_error() {
        assert_eq!(new_game(r#"{"lists": ["II/56", "no such army"]}"#), 0);
        let e = answer();
        assert!(
            e["error"]["code"].is_u64() && e["error"]["detail"].is_string(),
            "{e}"
        );
        assert_eq!(new_game("[1, 2"), 0);
        assert_eq!(answer()["error"]["kind"], "invalid_json");
    }

    #[test]
    fn freed_ids_are_reused_and_games_stay_apart() {
        let a = new_game(r#"{"demo": "battle", "seed": 1}"#);
        let b = new_game(r#"{"demo": "battle", "seed": 2}"#);
        assert_ne!(a, b);
        let first = game_text(a, "legal_actions", "{}")["ok"]["actions"][0].clone();
        game_text(a, "apply", &json!({ "action": first }).to_string());
        assert_eq!(game_text(b, "info", "{}")["ok"]["revision"], 0);
        game_free(a);
        let c = new_game(r#"{"demo": "battle", "seed": 3}"#);
        assert_eq!(c, a, "the freed slot is taken again");
        game_free(b);
        game_free(c);
        game_free(999); // unknown: ignored
    }

    #[test]
    fn a_panic_leaves_its_message() {
        // On the host a panic may not leave an `extern "C"` function (the process aborts): the
        // panic itself, behind the same hook.
        let caught = std::panic::catch_unwind(|| {
            hook();
            panic_now();
        });
        assert!(caught.is_err());
        let p = last_panic();
        // SAFETY: the module's own buffer.
        let text = unsafe { std::slice::from_raw_parts(p, result_len()) };
        let text = std::str::from_utf8(text).unwrap();
        assert!(text.contains("asked for by the test"), "{text}");
        // Read once: then forgotten.
        last_panic();
        assert_eq!(result_len(), 0);
    }
}
