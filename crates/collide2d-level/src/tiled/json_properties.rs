//! Custom properties of Tiled's JSON format, checked against their declared type.

use serde::Deserialize;
use serde_json::Value;

use crate::error::{At, ErrorKind, LevelError};
use crate::object::{Properties, Property};

#[derive(Deserialize)]
pub(super) struct RawProperty {
    name: String,
    #[serde(rename = "type", default = "string_type")]
    kind: String,
    #[serde(default)]
    propertytype: String,
    value: Value,
}

fn string_type() -> String {
    "string".to_string()
}

/// Custom properties; a value that does not match its declared type is an error naming it.
pub(super) fn properties(raw: Vec<RawProperty>, at: &At) -> Result<Properties, LevelError> {
    raw.into_iter()
        .map(|p| {
            let value = property(&p.kind, &p.propertytype, p.value).map_err(|got| {
                at.err(ErrorKind::PropertyType {
                    name: p.name.clone(),
                    expected: declared(&p.kind),
                    got,
                })
            })?;
            Ok((p.name, value))
        })
        .collect()
}

/// The declared type's name for messages.
fn declared(kind: &str) -> &'static str {
    match kind {
        "bool" => "bool",
        "int" => "int",
        "float" => "float",
        "color" => "color",
        "file" => "file",
        "object" => "object",
        "class" => "class",
        "list" => "list",
        _ => "string",
    }
}

/// The JSON type of a value, for messages.
fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_i64() || n.is_u64() => "int",
        Value::Number(_) => "float",
        Value::String(_) => "string",
        Value::Array(_) => "list",
        Value::Object(_) => "object",
    }
}

fn property(kind: &str, class: &str, value: Value) -> Result<Property, &'static str> {
    let got = json_type(&value);
    Ok(match (kind, value) {
        ("bool", Value::Bool(b)) => Property::Bool(b),
        ("int", Value::Number(n)) => Property::Int(n.as_i64().ok_or(got)?),
        ("float", Value::Number(n)) => Property::Float(n.as_f64().ok_or(got)?),
        ("color", Value::String(s)) => Property::Color(s),
        ("file", Value::String(s)) => Property::File(s),
        ("object", Value::Number(n)) => {
            Property::Object(n.as_u64().and_then(|i| u32::try_from(i).ok()).ok_or(got)?)
        }
        ("class", Value::Object(members)) => Property::Class {
            class: class.to_string(),
            // Class members hold bare values: their types live in the project file.
            properties: members.into_iter().map(|(k, v)| (k, bare(v))).collect(),
        },
        ("list", Value::Array(items)) => Property::List(items.into_iter().map(bare).collect()),
        ("string" | "", Value::String(s)) => Property::String(s),
        _ => return Err(got),
    })
}

/// A value whose declared type is not at hand (class members, list items), by its JSON type.
fn bare(v: Value) -> Property {
    match v {
        Value::Bool(b) => Property::Bool(b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => Property::Int(i),
            None => Property::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => Property::String(s),
        other => Property::Json(other),
    }
}
