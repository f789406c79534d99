//! dbcore as WebAssembly for JavaScript: a [`Game`] (one game in progress of any kind,
//! `dbcore::surface::Session`) answering every session method by name, and [`call`] for the
//! methods that need no game. Parameters and results are plain JavaScript values read and built
//! directly from dbcore's serde JSON; a refusal is thrown as a JavaScript `Error` with `code`,
//! `name`, `kind`, `rule` and `detail`. No rule is decided here: this file only translates, so
//! a method added to the surface reaches JavaScript without a line here.
//!
//! A panic (a bug in dbcore) cannot unwind through WebAssembly: the module traps. The panic hook
//! set by [`start`] keeps its message for [`last_panic`], and the JavaScript wrapper shipped
//! with the package (`dbcore.js`) turns the trap into an `InternalError` and rebuilds the game
//! in a fresh instance, so that a page is never left with a broken referee.

use std::cell::RefCell;

use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;

use dbcore::surface::{Session, SurfaceError};
use dbcore::ErrorCode;

thread_local! {
    /// The message of the last panic, for the JavaScript wrapper to report after the trap.
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Set the panic hook: a panic's message and place are kept for [`last_panic`]. Runs when the
/// module is instantiated.
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        let text = info.to_string();
        LAST_PANIC.with(|p| *p.borrow_mut() = Some(text));
    }));
}

/// The message of the last panic inside the referee, if there was one (and forget it).
#[wasm_bindgen(js_name = lastPanic)]
pub fn last_panic() -> Option<String> {
    LAST_PANIC.with(|p| p.borrow_mut().take())
}

/// The class name a family of codes is thrown as, as in Python.
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

/// A surface error as a JavaScript `Error`: `message` and `detail` the sentence, `code` the
/// stable number, `kind` its snake_case name, `rule` the section or null, `name` the family.
fn js_error(e: &SurfaceError) -> JsValue {
    let err = js_sys::Error::new(&e.message);
    err.set_name(family_name(e.code));
    let set = |k: &str, v: JsValue| {
        // Setting a property on a fresh Error object cannot fail.
        let _ = js_sys::Reflect::set(&err, &JsValue::from_str(k), &v);
    };
    set("code", JsValue::from(e.code.number()));
    let kind = serde_json::to_value(e.code)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    set("kind", JsValue::from_str(&kind));
    set("rule", e.rule.map_or(JsValue::NULL, JsValue::from_str));
    set("detail", JsValue::from_str(&e.message));
    err.into()
}

/// A JavaScript value as serde JSON (`undefined` and `null` as `{}`: no parameters).
fn from_js(v: JsValue, what: &str) -> Result<Value, JsValue> {
    if v.is_undefined() || v.is_null() {
        return Ok(Value::Object(Default::default()));
    }
    serde_wasm_bindgen::from_value(v).map_err(|e| {
        js_error(&SurfaceError::new(
            ErrorCode::InvalidJson,
            format!("{what} is not a JSON value: {e}"),
        ))
    })
}

/// A serde JSON value as a plain JavaScript value (objects as plain objects, not Maps).
fn to_js(v: &Value) -> Result<JsValue, JsValue> {
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| {
            js_error(&SurfaceError::new(
                ErrorCode::Internal,
                format!("cannot build the JavaScript value: {e}"),
            ))
        })
}

/// One game in progress: a DBA 3.0 battle (Big Battle and Giant included), its pre-battle from
/// two army lists, or a DBAix game, with every event so far, its history for `undo` and a seeded
/// dice tray.
#[wasm_bindgen]
pub struct Game {
    session: Session,
}

#[wasm_bindgen]
impl Game {
    /// Start a game: `how` is `{lists: ["II/56", "Ancient British"], variant?, prebattle?,
    /// seed?}`, `{setup}`, `{game: <a game record>}`, `{state}` or `{demo: "battle"}`.
    #[wasm_bindgen(constructor)]
    pub fn new(how: JsValue) -> Result<Game, JsValue> {
        let how = from_js(how, "how the game starts")?;
        let session = Session::new(how).map_err(|e| js_error(&e))?;
        Ok(Game { session })
    }

    /// Answer one of the game's methods by name with its parameters (an object, or nothing):
    /// `info`, `legal_actions`, `check`, `apply`, `play`, `undo`, `record`, `scene`, ...
    /// (`call("methods")` lists them). A refusal is thrown and changes nothing.
    pub fn call(&mut self, method: &str, params: JsValue) -> Result<JsValue, JsValue> {
        let params = from_js(params, "the parameters")?;
        let v = self
            .session
            .call(method, params)
            .map_err(|e| js_error(&e))?;
        to_js(&v)
    }
}

/// Answer a method that needs no game: `version`, `methods`, `armies.lookup`, `armies.find`,
/// `armies.get`, `armies.default`, `record.read`, `record.replay`, `render`, `validate`, `odds`,
/// `resolve`, `setup.demo`.
#[wasm_bindgen]
pub fn call(method: &str, params: JsValue) -> Result<JsValue, JsValue> {
    let params = from_js(params, "the parameters")?;
    let v = dbcore::surface::call(method, params).map_err(|e| js_error(&e))?;
    to_js(&v)
}

/// Panic on purpose. The browser test calls it to check that a panic inside the referee reaches
/// the page as an `InternalError` and leaves every game working (see `dbcore.js`).
#[wasm_bindgen(js_name = panicForTest)]
pub fn panic_for_test() {
    panic!("a panic asked for by the test of the panic boundary");
}
