//! Reading dbcore's JSON so that a fault names the field it is in.
//!
//! Every entry point that takes JSON from outside (C, Python, the `dbcore` program and the
//! referee server) reads set-ups, actions, states and records through [`from_str`] or
//! [`from_value`]. A failure is [`Error::Json`] (code 102, `InvalidJson`) whose message starts
//! with the path of the field at fault, as a reader of the JSON would write it:
//!
//! ```
//! use dbcore::geometry::Pose;
//! let err = dbcore::json::from_str::<Vec<Pose>>(r#"[{"x":1,"y":2,"facing":0},{"x":1,"y":2,"facing":"north"}]"#)
//!     .unwrap_err();
//! assert!(err.to_string().starts_with("invalid JSON: [1].facing: invalid type: string \"north\", expected f64"));
//! ```
//!
//! Enum values are spelled in snake_case (`"front_to_front"`, `"standard"`, `"gentle_hill"`),
//! one spelling with no aliases; an old PascalCase spelling is refused with a hint naming the
//! right one:
//!
//! ```
//! use dbcore::battlefield::Variant;
//! let err = dbcore::json::from_str::<Variant>(r#""BigBattle""#).unwrap_err();
//! assert!(err.to_string().contains("dbcore spells it `big_battle`"));
//! ```

use serde::de::DeserializeOwned;

use crate::dice::DiceError;
use crate::error::Error;

/// Read `text` as a `T`; a failure names the path of the field at fault.
#[cfg(not(target_family = "wasm"))]
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = serde_path_to_error::deserialize(&mut de).map_err(path_error)?;
    de.end().map_err(|e| Error::Json(e.to_string()))?;
    Ok(value)
}

/// Read `text` as a `T`; a failure names the path of the field at fault.
///
/// In WebAssembly the text is parsed to a JSON value and read by [`from_value`]: each distinct
/// reader is a copy of the reading code of every type it reads, and the browser's module keeps
/// one (see [`plain_from_str`]).
#[cfg(target_family = "wasm")]
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, Error> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| Error::Json(e.to_string()))?;
    from_value(value)
}

/// Read `text` as a `T` by serde's plain reader, quicker than [`from_str`] but with no path in
/// its fault (`None`): for the quick paths that read again with [`from_str`] to name a fault.
///
/// In WebAssembly this is [`from_str`] itself, as are [`plain_from_slice`] and
/// [`plain_from_ref`]: every reader serde is given (text, bytes, a borrowed or an owned value,
/// each plain or tracking the path) is one more copy of the reading code of every type it
/// reads, which made deserialising half of the browser's module. There one reader is kept, the
/// path-tracking one over an owned value; the browser's module is then under its budget of 3 MB
/// (docs/web.md) and reads exactly what the others read, somewhat slower.
#[cfg(not(target_family = "wasm"))]
pub(crate) fn plain_from_str<T: DeserializeOwned>(text: &str) -> Option<T> {
    serde_json::from_str(text).ok()
}

/// [`from_str`], without the fault's message (see the other targets' `plain_from_str`).
#[cfg(target_family = "wasm")]
pub(crate) fn plain_from_str<T: DeserializeOwned>(text: &str) -> Option<T> {
    from_str(text).ok()
}

/// [`plain_from_str`] of UTF-8 bytes.
#[cfg(not(target_family = "wasm"))]
pub(crate) fn plain_from_slice<T: DeserializeOwned>(bytes: &[u8]) -> Option<T> {
    serde_json::from_slice(bytes).ok()
}

/// [`plain_from_str`] of UTF-8 bytes.
#[cfg(target_family = "wasm")]
pub(crate) fn plain_from_slice<T: DeserializeOwned>(bytes: &[u8]) -> Option<T> {
    std::str::from_utf8(bytes).ok().and_then(plain_from_str)
}

/// A `T` read from a borrowed JSON value by serde's plain reader (`None` on a fault): see
/// [`plain_from_str`].
#[cfg(not(target_family = "wasm"))]
pub(crate) fn plain_from_ref<T: DeserializeOwned>(value: &serde_json::Value) -> Option<T> {
    T::deserialize(value).ok()
}

/// A `T` read from a copy of a borrowed JSON value by [`from_value`] (see
/// [`plain_from_str`]).
#[cfg(target_family = "wasm")]
pub(crate) fn plain_from_ref<T: DeserializeOwned>(value: &serde_json::Value) -> Option<T> {
    from_value(value.clone()).ok()
}

/// Read an already parsed JSON value as a `T`; a failure names the path of the field at fault.
pub fn from_value<T: DeserializeOwned>(value: serde_json::Value) -> Result<T, Error> {
    serde_path_to_error::deserialize(value).map_err(path_error)
}

/// The message of a fault at `path` (`armies[0].elements[3].pose.facing`, or `.` for the whole
/// document), with the hint for an old spelling.
pub fn path_message(path: &str, inner: &str) -> String {
    let inner = with_spelling_hint(inner);
    if path.is_empty() || path == "." {
        inner
    } else {
        format!("{path}: {inner}")
    }
}

fn path_error(e: serde_path_to_error::Error<serde_json::Error>) -> Error {
    let inner = e.inner().to_string();
    if let Some(die) = die_fault(&inner) {
        return Error::Dice(die);
    }
    let path = e.path().to_string();
    Error::Json(path_message(&path, &inner))
}

/// A die score outside 1 to 6 in the JSON is the same fault as anywhere else: [`DiceError`]
/// (code 300, §0.3), not unreadable JSON, so that every entry point answers a die of 7 alike.
pub fn die_fault(message: &str) -> Option<DiceError> {
    let probe = DiceError(0).to_string();
    let prefix = probe.strip_suffix('0')?;
    let rest = message.strip_prefix(prefix)?;
    let digits: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '-')
        .collect();
    digits.parse().ok().map(DiceError)
}

/// serde's "unknown variant `FrontToFront`, expected one of `front_to_front`, ..." with a hint
/// added when the refused spelling is the snake_case one written in PascalCase.
pub fn with_spelling_hint(message: &str) -> String {
    let Some(rest) = message.strip_prefix("unknown variant `") else {
        return message.to_string();
    };
    let Some(end) = rest.find('`') else {
        return message.to_string();
    };
    let given = &rest[..end];
    if !given.chars().any(|c| c.is_ascii_uppercase()) {
        return message.to_string();
    }
    let snake = snake_case(given);
    if snake != given && rest[end..].contains(&format!("`{snake}`")) {
        format!("{message} (dbcore spells it `{snake}`: enum values are snake_case)")
    } else {
        message.to_string()
    }
}

/// `FrontToFront` -> `front_to_front`, as serde's `rename_all = "snake_case"` spells it.
fn snake_case(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 4);
    for (i, c) in s.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::ContactKind;

    #[test]
    fn an_old_spelling_is_refused_with_the_new_one_named() {
        let e = from_str::<ContactKind>(r#""FrontToFront""#).unwrap_err();
        let m = e.to_string();
        assert!(m.contains("unknown variant `FrontToFront`"), "{m}");
        assert!(m.contains("dbcore spells it `front_to_front`"), "{m}");
        assert_eq!(
            from_str::<ContactKind>(r#""front_to_front""#).unwrap(),
            ContactKind::FrontToFront
        );
    }

    #[test]
    fn an_unknown_spelling_gets_no_hint() {
        let m = from_str::<ContactKind>(r#""Frontal""#)
            .unwrap_err()
            .to_string();
        assert!(
            m.contains("unknown variant `Frontal`") && !m.contains("spells it"),
            "{m}"
        );
    }

    #[test]
    fn a_die_of_7_is_a_dice_error() {
        // DBA3.md §0.3: a die shows 1 to 6; the fault is the dice family's wherever it comes in.
        use crate::error::{ErrorCode, ErrorInfo};
        let e = from_str::<crate::battle::Action>(r#"{"action":"roll_pips","die":7}"#).unwrap_err();
        assert_eq!(e, Error::Dice(DiceError(7)));
        assert_eq!(e.code(), ErrorCode::InvalidDie);
        assert_eq!(e.rule(), Some("§0.3"));
    }

    #[test]
    fn trailing_text_is_refused() {
        assert!(from_str::<u8>("1 2").is_err());
    }

    #[test]
    fn a_root_fault_has_no_path() {
        let m = from_str::<u8>(r#""x""#).unwrap_err().to_string();
        assert!(m.starts_with("invalid JSON: invalid type"), "{m}");
    }
}
