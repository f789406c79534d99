//! JSON Schema of the types that serialise by hand (feature `schema`): die scores and element
//! codes. Every other serde type derives its schema where it is defined.

use std::borrow::Cow;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};

use crate::dice::DieScore;
use crate::troops::{BaseKind, ElementKind};

impl JsonSchema for DieScore {
    fn schema_name() -> Cow<'static, str> {
        "DieScore".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A die score (§0.3): dice are inputs, supplied by the players.",
            "type": "integer",
            "minimum": 1,
            "maximum": 6
        })
    }
}

impl JsonSchema for BaseKind {
    fn schema_name() -> Cow<'static, str> {
        "BaseKind".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let codes: Vec<&str> = BaseKind::ALL.iter().map(|k| k.code()).collect();
        json_schema!({
            "description": "A troop kind's base code (§2.1), such as 4Bd or 3Kn.",
            "type": "string",
            "enum": codes
        })
    }
}

impl JsonSchema for ElementKind {
    fn schema_name() -> Cow<'static, str> {
        "ElementKind".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let codes: Vec<String> = ElementKind::all().iter().map(|k| k.code()).collect();
        json_schema!({
            "description": "An element code (§2.1): a base code such as 4Bd, or Mtd- and a foot code for mounted infantry.",
            "type": "string",
            "enum": codes
        })
    }
}
