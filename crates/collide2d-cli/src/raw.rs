//! JSON read in two steps, for `query` and `cast` lines and scene files: the structure first,
//! each field's value kept as its raw text (a `&RawValue` borrowed from the input, never
//! copied), then each field read on its own, with a message naming it.
//!
//! The first step checks the JSON syntax of the whole input, so a syntax error is reported as
//! such (`invalid JSON at line 2 column 10: expected value`) before any other; it builds no tree
//! of values, so a refused input costs little more than its own text (a `serde_json::Value`
//! costs about 30 times the text). Shapes are then read by the library's loader, which keeps at
//! most [`MAX_POLYGON_POINTS`](collide2d::limits::MAX_POLYGON_POINTS) points of a list.

use collide2d::Shape;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::fmt;

/// The bytes of a UTF-8 byte-order mark, which JSON does not allow at the start of a text.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The message for an input that starts with a byte-order mark, or `None`.
#[must_use]
pub fn bom_message(bytes: &[u8]) -> Option<String> {
    bytes.starts_with(BOM).then(|| {
        "starts with a UTF-8 byte-order mark (bytes EF BB BF), which JSON does not allow; save it without one".to_string()
    })
}

/// A JSON syntax error (serde_json's message without its position) with its position:
/// `invalid JSON at line L column C: ...`; `column_only` leaves the line out (for one-line inputs).
#[must_use]
pub fn syntax_message(e: &serde_json::Error, column_only: bool) -> String {
    // The syntax is read without recursion (serde_json skips values with a stack of its own),
    // so nesting depth alone is no error here; the shape loader limits compounds.
    let message = without_position(e);
    if column_only {
        format!("invalid JSON at column {}: {message}", e.column())
    } else {
        format!(
            "invalid JSON at line {} column {}: {message}",
            e.line(),
            e.column()
        )
    }
}

/// `e`'s message without serde_json's ` at line L column C` suffix.
fn without_position(e: &serde_json::Error) -> String {
    let message = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    message
        .strip_suffix(&suffix)
        .map_or_else(|| message.clone(), str::to_string)
}

/// How a message names the JSON type of a raw value (`an array`).
#[must_use]
pub fn type_name(raw: &RawValue) -> &'static str {
    match raw.get().as_bytes().first() {
        Some(b'{') => "an object",
        Some(b'[') => "an array",
        Some(b'"') => "a string",
        Some(b't' | b'f') => "a boolean",
        Some(b'n') => "null",
        _ => "a number",
    }
}

/// The fields of a JSON object in input order, each value raw.
pub struct Fields<'a> {
    fields: Vec<(String, &'a RawValue)>,
}

impl<'a> Fields<'a> {
    /// Reads `raw` as an object; `None` when it is not one.
    ///
    /// # Errors
    /// `KEY is repeated (each field may appear once)` for the first repeated key.
    pub fn of(raw: &'a RawValue) -> Result<Option<Fields<'a>>, String> {
        if !raw.get().starts_with('{') {
            return Ok(None);
        }
        let fields: FieldList<'a> = serde_json::from_str(raw.get()).map_err(|e| e.to_string())?;
        let fields = fields.0;
        for (i, (key, _)) in fields.iter().enumerate() {
            if fields[..i].iter().any(|(k, _)| k == key) {
                return Err(format!("{key} is repeated (each field may appear once)"));
            }
        }
        Ok(Some(Fields { fields }))
    }

    /// The first field whose name is not in `allowed`.
    #[must_use]
    pub fn extra(&self, allowed: &[&str]) -> Option<&str> {
        self.fields
            .iter()
            .map(|(k, _)| k.as_str())
            .find(|k| !allowed.contains(k))
    }

    /// The raw value of field `name`, if present.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&'a RawValue> {
        self.fields.iter().find(|(k, _)| k == name).map(|(_, v)| *v)
    }
}

/// An object's fields as a list, for [`Fields::of`].
struct FieldList<'a>(Vec<(String, &'a RawValue)>);

impl<'de: 'a, 'a> serde::Deserialize<'de> for FieldList<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<FieldList<'a>, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = FieldList<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<FieldList<'a>, A::Error> {
                let mut fields = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    fields.push((key, map.next_value::<&'a RawValue>()?));
                }
                Ok(FieldList(fields))
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

/// The items of a raw JSON array, at most `max` of them; `None` when `raw` is not an array.
///
/// # Errors
/// `more than MAX items` when the array is longer (read no further than item `max + 1`).
pub fn items(raw: &RawValue, max: usize) -> Result<Option<Vec<&RawValue>>, usize> {
    if !raw.get().starts_with('[') {
        return Ok(None);
    }
    let mut de = serde_json::Deserializer::from_str(raw.get());
    match de.deserialize_seq(ItemsVisitor { max }) {
        Ok(items) => Ok(Some(items)),
        // The array is valid JSON (checked in the first step): only the limit stops it.
        Err(_) => Err(max),
    }
}

struct ItemsVisitor {
    max: usize,
}

impl<'de> Visitor<'de> for ItemsVisitor {
    type Value = Vec<&'de RawValue>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<&'de RawValue>, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<&'de RawValue>()? {
            if items.len() == self.max {
                return Err(de::Error::custom("too many items"));
            }
            items.push(item);
        }
        Ok(items)
    }
}

/// The string `raw` holds, or `None` when it is not a string.
#[must_use]
pub fn string(raw: &RawValue) -> Option<String> {
    serde_json::from_str(raw.get()).ok()
}

/// Loads `raw` (checked to be an object) as a shape with the library's loader.
///
/// # Errors
/// The loader's message (`circle.radius must be >= 0, got -1`), without input positions; a
/// number beyond the range of JSON's `f64` (`1e999`) is named with its field and echoed as
/// written, as the loader does for one beyond `f32`.
pub fn shape(raw: &RawValue) -> Result<Shape, String> {
    serde_json::from_str::<Shape>(raw.get()).map_err(|e| {
        let message = without_position(&e);
        match message.strip_suffix(": number out of range") {
            Some(field) => format!(
                "{field} {}",
                out_of_range(number_at(raw.get(), e.line(), e.column()))
            ),
            None => message,
        }
    })
}

/// The end of a message for a number too large for an `f32`, `written` as in the input.
#[must_use]
pub fn out_of_range(written: &str) -> String {
    format!("is out of the f32 range (about ±3.4e38), got {written}")
}

/// The number ending at (`line`, `column`) of `text`, as serde_json reports the position of a
/// number out of range (1-based line; the column of the number's last character).
fn number_at(text: &str, line: usize, column: usize) -> &str {
    let start_of_line: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let end = (start_of_line + column).min(text.len());
    let is_number = |b: &u8| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E');
    let bytes = text.as_bytes();
    let end = end + bytes[end..].iter().take_while(|b| is_number(b)).count();
    let start = end
        - bytes[..end]
            .iter()
            .rev()
            .take_while(|b| is_number(b))
            .count();
    // Never a panic on input: a position off a character boundary names the number vaguely.
    text.get(start..end)
        .filter(|n| !n.is_empty())
        .unwrap_or("a number")
}

/// Reads `raw` as `[x, y]`, two numbers finite as `f32`; `name` prefixes the messages.
///
/// # Errors
/// A message naming the field and coordinate (`va.y must be a number, got null`), echoing a
/// number out of range as written.
pub fn vector(raw: &RawValue, name: &str) -> Result<collide2d::math::Vec2, String> {
    let items = match items(raw, usize::MAX) {
        Ok(Some(items)) if items.len() == 2 => items,
        Ok(Some(items)) => {
            return Err(format!(
                "{name}: invalid length {}, expected [x, y]",
                items.len()
            ))
        }
        _ => return Err(format!("{name} must be [x, y], got {}", type_name(raw))),
    };
    let mut xy = [0.0f32; 2];
    for (slot, (axis, item)) in xy.iter_mut().zip(["x", "y"].iter().zip(items)) {
        *slot = number(item, &format!("{name}.{axis}"))?;
    }
    Ok(collide2d::math::Vec2::new(xy[0], xy[1]))
}

/// Reads `raw` as a number finite as `f32`; `name` prefixes the messages.
///
/// # Errors
/// A message naming the field (`wa must be a number, got a string`), echoing a number out of
/// range as written.
pub fn number(raw: &RawValue, name: &str) -> Result<f32, String> {
    if type_name(raw) != "a number" {
        return Err(format!("{name} must be a number, got {}", type_name(raw)));
    }
    // Rust's float syntax takes every JSON number; a huge one reads as infinity.
    let x = raw.get().parse::<f64>().unwrap_or(f64::INFINITY) as f32;
    if !x.is_finite() {
        return Err(format!("{name} {}", out_of_range(raw.get())));
    }
    Ok(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &str) -> &RawValue {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn numbers_out_of_range_are_found_where_serde_json_stops() {
        let text = "{\"type\": \"circle\",\n \"center\": [0, -12.5e999], \"radius\": 1}";
        assert_eq!(
            shape(raw(text)).unwrap_err(),
            "circle.center.y is out of the f32 range (about ±3.4e38), got -12.5e999"
        );
        let scalar = r#"{"type": "circle", "center": [0, 0], "radius": 1E+400}"#;
        assert_eq!(
            shape(raw(scalar)).unwrap_err(),
            "circle.radius is out of the f32 range (about ±3.4e38), got 1E+400"
        );
        // Characters of several bytes before it do not move the echo.
        let wide = "{\"type\": \"circle\", \"ééé\": 1,\n\"center\": [0, 0], \"radius\": -2e400}";
        assert_eq!(
            shape(raw(wide)).unwrap_err(),
            "circle.radius is out of the f32 range (about ±3.4e38), got -2e400"
        );
    }

    #[test]
    fn fields_keep_their_order_and_refuse_repeats() {
        let fields = Fields::of(raw(r#"{"b": 1, "a": [2]}"#)).unwrap().unwrap();
        assert_eq!(fields.get("a").unwrap().get(), "[2]");
        assert_eq!(fields.extra(&["a"]), Some("b"));
        assert_eq!(
            Fields::of(raw(r#"{"a": 1, "a": 2}"#)).err().unwrap(),
            "a is repeated (each field may appear once)"
        );
        assert!(Fields::of(raw("[1]")).unwrap().is_none());
    }

    #[test]
    fn items_stop_past_the_limit() {
        assert_eq!(items(raw("[1, 2, 3]"), 3).unwrap().unwrap().len(), 3);
        assert_eq!(items(raw("[1, 2, 3, 4]"), 3).unwrap_err(), 3);
        assert!(items(raw("{}"), 3).unwrap().is_none());
    }

    #[test]
    fn vectors_name_the_coordinate() {
        assert_eq!(
            vector(raw("[1, 2]"), "va").unwrap(),
            collide2d::math::Vec2::new(1.0, 2.0)
        );
        assert_eq!(
            vector(raw("[1e39, 2]"), "va").unwrap_err(),
            "va.x is out of the f32 range (about ±3.4e38), got 1e39"
        );
        assert_eq!(
            vector(raw("[1, null]"), "vb").unwrap_err(),
            "vb.y must be a number, got null"
        );
        assert_eq!(
            vector(raw("[1, 2, 3]"), "va").unwrap_err(),
            "va: invalid length 3, expected [x, y]"
        );
    }
}
