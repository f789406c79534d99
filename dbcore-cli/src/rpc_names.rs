//! Client element ids: a battle created over the protocol may name its elements (or DBAix
//! figures) with the client's own strings. dbcore numbers elements; the server keeps the two
//! spellings of each element and converts at the edge, as it converts frames: strings to numbers
//! in every request, numbers to strings in every answer.
//!
//! What is converted: the values of the fields in [`ELEMENT_KEYS`] (a number, or an array of
//! them, arrays nested as in the pairs of a combat request), and nothing else. Inbound, a string
//! there must be a name of this battle; outbound, a number becomes its name when the element has
//! one. Elements the battle creates itself (camp followers, City denizens) and elements the
//! client left unnamed keep their numbers, and a client may always send a number.

use std::collections::{BTreeMap, BTreeSet};

use dbcore::limits::MAX_NAME_BYTES;

use serde_json::Value;

/// The fields whose values are element or figure ids, in every message of a battle: set-ups,
/// actions, events, legal actions, state, snaps, outlines and contacts (DBA and DBAix alike).
/// A test checks that every field the schema types as an element id is here, but for
/// [`NOT_CONVERTED`].
pub const ELEMENT_KEYS: [&str; 36] = [
    "a",
    "also_shooting_at_it",
    "attacker",
    "b",
    "binders",
    "blocker",
    "c_in_c_bonus",
    "civilians",
    "contactor",
    "element",
    "enemies",
    "figure",
    "figures",
    "friend",
    "general",
    "guard",
    "held_back",
    "husband",
    "id",
    "ids",
    "landing",
    "movers",
    "opponent",
    "other",
    "pairs",
    "pursued",
    "recoil_own_depth",
    "remaining",
    "sacker",
    "shooter",
    "shooters",
    "support",
    "target",
    "targets",
    "towards",
    "turn_to_face",
];

/// Id fields left as numbers: `elements` is the id list of a Big Battle command but also the
/// element objects of an army and the troop codes of an army choice, so a client names the
/// elements of a command by number (a known gap of client names in Big Battle and Giant).
pub const NOT_CONVERTED: [&str; 1] = ["elements"];

/// The two spellings of a battle's named elements.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Names {
    by_number: BTreeMap<u32, String>,
    by_name: BTreeMap<String, u32>,
}

/// Why a set of names cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameError {
    /// JSON pointer to the offending value, under the walked value's base.
    pub pointer: String,
    pub message: String,
}

fn is_key(k: &str) -> bool {
    ELEMENT_KEYS.binary_search(&k).is_ok()
}

impl Names {
    /// No element named: every conversion is the identity.
    pub fn is_empty(&self) -> bool {
        self.by_number.is_empty()
    }

    /// Name element `number` `name`; refuses an empty, overlong or repeated name, or a number
    /// named twice.
    pub fn insert(&mut self, number: u32, name: &str) -> Result<(), String> {
        if name.is_empty() {
            return Err("an element name is a non-empty string".into());
        }
        if name.len() > MAX_NAME_BYTES {
            return Err(format!(
                "an element name is at most {MAX_NAME_BYTES} bytes, not {}",
                name.len()
            ));
        }
        if self.by_name.contains_key(name) {
            return Err(format!(
                "the name `{}` is given to two elements",
                dbcore::limits::quote(name)
            ));
        }
        if self.by_number.contains_key(&number) {
            return Err(format!("element {number} is named twice"));
        }
        self.by_number.insert(number, name.to_string());
        self.by_name.insert(name.to_string(), number);
        Ok(())
    }

    /// The name of element `number`, if it has one.
    pub fn name(&self, number: u32) -> Option<&str> {
        self.by_number.get(&number).map(String::as_str)
    }

    /// Every (number, name), by number.
    pub fn pairs(&self) -> impl Iterator<Item = (u32, &str)> {
        self.by_number.iter().map(|(n, s)| (*n, s.as_str()))
    }

    /// Names to numbers in a request (in place). `base` is the JSON pointer of `v`.
    pub fn inbound(&self, v: &mut Value, base: &str) -> Result<(), NameError> {
        match v {
            Value::Object(m) => {
                for (k, x) in m.iter_mut() {
                    let p = format!("{base}/{}", k.replace('~', "~0").replace('/', "~1"));
                    if is_key(k) {
                        self.ids_in(x, &p)?;
                    } else {
                        self.inbound(x, &p)?;
                    }
                }
            }
            Value::Array(a) => {
                for (i, x) in a.iter_mut().enumerate() {
                    self.inbound(x, &format!("{base}/{i}"))?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The value of an id field (a name, a number, an array of them, or an object to walk) to
    /// numbers, in place. `pointer` is its JSON pointer.
    pub fn ids_in(&self, v: &mut Value, pointer: &str) -> Result<(), NameError> {
        match v {
            Value::String(s) => match self.by_name.get(s.as_str()) {
                Some(n) => *v = Value::from(*n),
                None => {
                    return Err(NameError {
                        pointer: pointer.to_string(),
                        message: format!(
                            "{pointer}: no element of this battle is named `{}`",
                            dbcore::limits::quote(s)
                        ),
                    })
                }
            },
            Value::Array(a) => {
                for (i, x) in a.iter_mut().enumerate() {
                    self.ids_in(x, &format!("{pointer}/{i}"))?;
                }
            }
            Value::Object(_) => self.inbound(v, pointer)?,
            _ => {}
        }
        Ok(())
    }

    /// Numbers to names in an answer (in place).
    pub fn outbound(&self, v: &mut Value) {
        if self.is_empty() {
            return;
        }
        match v {
            Value::Object(m) => {
                for (k, x) in m.iter_mut() {
                    if is_key(k) {
                        self.names_in(x);
                    } else {
                        self.outbound(x);
                    }
                }
            }
            Value::Array(a) => a.iter_mut().for_each(|x| self.outbound(x)),
            _ => {}
        }
    }

    fn names_in(&self, v: &mut Value) {
        match v {
            Value::Number(n) => {
                if let Some(name) = n
                    .as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .and_then(|n| self.by_number.get(&n))
                {
                    *v = Value::String(name.clone());
                }
            }
            Value::Array(a) => a.iter_mut().for_each(|x| self.names_in(x)),
            Value::Object(_) => self.outbound(v),
            _ => {}
        }
    }
}

/// Give numbers to the elements of `items` (the set-up's element or figure objects, each with an
/// `id`) whose `id` is a string, recording the names. `preferred(i)` is the number element `i`
/// gets when it is free; otherwise the lowest free number from 1. Numeric ids stay as they are.
pub fn number_items(
    items: &mut [(&mut Value, String)],
    preferred: impl Fn(usize) -> u32,
    names: &mut Names,
) -> Result<(), NameError> {
    // A set, not a list: a set-up at the element limit is numbered in n log n, not n².
    let mut used: BTreeSet<u32> = items
        .iter()
        .filter_map(|(v, _)| v.get("id").and_then(Value::as_u64))
        .filter_map(|n| u32::try_from(n).ok())
        .collect();
    let mut next = 1u32;
    for (i, (item, pointer)) in items.iter_mut().enumerate() {
        let Some(name) = item.get("id").and_then(Value::as_str).map(str::to_string) else {
            continue;
        };
        let mut n = preferred(i);
        if used.contains(&n) {
            while used.contains(&next) {
                next += 1;
            }
            n = next;
        }
        used.insert(n);
        names.insert(n, &name).map_err(|message| NameError {
            pointer: format!("{pointer}/id"),
            message,
        })?;
        item["id"] = Value::from(n);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_keys_are_sorted_for_the_binary_search() {
        let mut k = ELEMENT_KEYS.to_vec();
        k.sort_unstable();
        assert_eq!(k, ELEMENT_KEYS.to_vec());
    }

    #[test]
    fn names_go_both_ways_in_nested_fields_only() {
        let mut n = Names::default();
        n.insert(2, "blade").unwrap();
        n.insert(102, "spear").unwrap();
        let mut v = json!({"action": "fight", "a": "blade", "b": 102, "dice": [2, 2],
            "order": {"type": "into_contact", "ids": ["blade"], "target": "spear"},
            "pairs": [["blade", "spear"]]});
        n.inbound(&mut v, "/params/action").unwrap();
        assert_eq!(
            v,
            json!({"action": "fight", "a": 2, "b": 102, "dice": [2, 2],
            "order": {"type": "into_contact", "ids": [2], "target": 102},
            "pairs": [[2, 102]]})
        );
        n.outbound(&mut v);
        assert_eq!(v["b"], "spear");
        assert_eq!(v["dice"], json!([2, 2]));
        assert_eq!(v["pairs"], json!([["blade", "spear"]]));
        let mut bad = json!({"order": {"ids": ["nobody"]}});
        let e = n.inbound(&mut bad, "/params/action").unwrap_err();
        assert_eq!(e.pointer, "/params/action/order/ids/0");
    }
}
