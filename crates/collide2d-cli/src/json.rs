//! The serde model of formats.md's `query` lines: `{"a": SHAPE, "b": SHAPE}` in, one answer out.
//!
//! A line is first read as raw fields (`raw.rs`), then each shape is loaded from its text, so
//! error messages carry no JSON position and read like formats.md's
//! `circle.radius must be >= 0, got -1`, after the side: `b: circle.radius ...`. Output is written by hand so the numbers are exactly
//! as formats.md wants them: integral values without `.0`, `-0` as `0`, others in the shortest
//! form that reads back to the same `f32`.

use collide2d::{contact, distance, intersects, math::Vec2, Contact, Shape};
use serde_json::value::RawValue;

use crate::raw::{self, Fields};

/// One input line: the pair to query.
#[derive(Debug)]
pub struct Query {
    /// The first shape; contact normals point away from it.
    pub a: Shape,
    /// The second shape.
    pub b: Shape,
}

/// The answer to one [`Query`].
#[derive(Debug)]
pub struct Answer {
    /// Whether the shapes intersect (touching counts).
    pub intersects: bool,
    /// The distance between them, 0 when they intersect.
    pub distance: f32,
    /// The contact, present exactly when they intersect.
    pub contact: Option<Contact>,
}

/// Parses one line (without its line break) into a [`Query`], or says why it is not one.
///
/// The message has no `line N: ` prefix; the caller adds it. A shape's message starts with its
/// side: `b: circle.radius must be >= 0, got -1`.
pub fn parse_line(line: &str) -> Result<Query, String> {
    const FIELDS: &[&str] = &["a", "b"];
    let object = parse_object(line, r#"{"a": SHAPE, "b": SHAPE}"#, "a query line", FIELDS)?;
    let a = take_shape(&object, "a", FIELDS)?;
    let b = take_shape(&object, "b", FIELDS)?;
    Ok(Query { a, b })
}

/// Reads one line as a JSON object with no repeated key and no field outside `fields`, each
/// field's value kept raw. `template` (such as `{"a": SHAPE, "b": SHAPE}`) and `kind` (`a query
/// line`) word the messages.
pub fn parse_object<'a>(
    line: &'a str,
    template: &str,
    kind: &str,
    fields: &[&str],
) -> Result<Fields<'a>, String> {
    if line.trim().is_empty() {
        return Err(format!("empty line, expected {template}"));
    }
    if let Some(message) = raw::bom_message(line.as_bytes()) {
        return Err(format!("the line {message}"));
    }
    let top: &RawValue = serde_json::from_str(line).map_err(|e| raw::syntax_message(&e, true))?;
    let object = Fields::of(top)?
        .ok_or_else(|| format!("expected an object {template}, got {}", raw::type_name(top)))?;
    if let Some(extra) = object.extra(fields) {
        return Err(format!(
            "{extra} is not a field of {kind} (expected {})",
            fields.join(", ")
        ));
    }
    Ok(object)
}

/// Loads field `name` of `object` as a shape, its messages starting with `name: `; `fields`
/// lists the line's fields for the message when it is missing.
pub fn take_shape(object: &Fields<'_>, name: &str, fields: &[&str]) -> Result<Shape, String> {
    let value = object
        .get(name)
        .ok_or_else(|| format!("{name} is missing (expected {})", fields.join(", ")))?;
    if raw::type_name(value) != "an object" {
        return Err(format!(
            r#"{name} must be a shape object {{"type": ...}}, got {}"#,
            raw::type_name(value)
        ));
    }
    raw::shape(value).map_err(|e| format!("{name}: {e}"))
}

impl Query {
    /// Runs the queries of formats.md on the pair.
    ///
    /// # Errors
    /// A message when the library's answers disagree with each other (a library bug: an
    /// intersecting pair without a contact, or the reverse), rather than print a line that
    /// contradicts itself.
    pub fn answer(&self) -> Result<Answer, String> {
        let hit = intersects(&self.a, &self.b);
        let contact = contact(&self.a, &self.b);
        let distance = if hit { 0.0 } else { distance(&self.a, &self.b) };
        if hit != contact.is_some() || (!hit && distance <= 0.0) {
            return Err(format!(
                "internal error: intersects = {hit} but contact is {} and distance = {distance} (please report this line)",
                if contact.is_some() { "present" } else { "absent" }
            ));
        }
        Ok(Answer {
            intersects: hit,
            distance,
            contact,
        })
    }
}

/// `x` as a JSON number: `0` for both zeros, integral values without `.0`, others in the
/// shortest decimal form that reads back to the same `f32`; `None` for NaN and infinities,
/// which JSON cannot hold.
#[must_use]
pub fn number(x: f32) -> Option<String> {
    if !x.is_finite() {
        return None;
    }
    if x == 0.0 {
        return Some("0".to_string());
    }
    // `Display` for f32 is the shortest round-trip form and never uses an exponent or `.0`.
    Some(format!("{x}"))
}

/// `v` as `[x, y]` with [`number`]s; `None` when a coordinate is not finite.
pub fn vector(v: Vec2) -> Option<String> {
    Some(format!("[{}, {}]", number(v.x)?, number(v.y)?))
}

/// The `contact` object of a `query` answer line: `{"normal": [nx, ny], "depth": d, "points":
/// [[x, y], ...]}`; `None` when a number is not finite.
#[must_use]
pub fn contact_object(c: &Contact) -> Option<String> {
    let points = c
        .points
        .iter()
        .map(|p| vector(*p))
        .collect::<Option<Vec<_>>>()?
        .join(", ");
    Some(format!(
        r#"{{"normal": {}, "depth": {}, "points": [{points}]}}"#,
        vector(c.normal)?,
        number(c.depth)?
    ))
}

impl Answer {
    /// The output line (without line break), or an error message when a number is not finite.
    pub fn to_line(&self) -> Result<String, String> {
        self.try_line().ok_or_else(|| {
            "internal error: a result is not a finite number (please report this line)".to_string()
        })
    }

    fn try_line(&self) -> Option<String> {
        let contact = match &self.contact {
            None => "null".to_string(),
            Some(c) => contact_object(c)?,
        };
        Some(format!(
            r#"{{"intersects": {}, "distance": {}, "contact": {contact}}}"#,
            self.intersects,
            number(self.distance)?
        ))
    }
}

/// The error line for input line `line_number` (counted from 1).
#[must_use]
pub fn error_line(line_number: u64, message: &str) -> String {
    let text = format!("line {line_number}: {message}");
    // Serialising a string cannot fail; the fallback keeps the line valid JSON regardless.
    let quoted = serde_json::to_string(&text).unwrap_or_else(|_| "\"line error\"".to_string());
    format!(r#"{{"error": {quoted}}}"#)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_as_format_md_wants() {
        assert_eq!(number(0.0).unwrap(), "0");
        assert_eq!(number(-0.0).unwrap(), "0");
        assert_eq!(number(3.0).unwrap(), "3");
        assert_eq!(number(-2.0).unwrap(), "-2");
        assert_eq!(number(3.5).unwrap(), "3.5");
        assert_eq!(number(0.1).unwrap(), "0.1");
        assert_eq!(number(1e-7).unwrap(), "0.0000001");
        assert_eq!(number(16777216.0).unwrap(), "16777216");
        assert_eq!(number(f32::NAN), None);
        assert_eq!(number(f32::INFINITY), None);
        for x in [
            0.1f32,
            1.0 / 3.0,
            1e-30,
            3.4e38,
            -7.25e-12,
            core::f32::consts::PI,
        ] {
            let text = number(x).unwrap();
            assert_eq!(text.parse::<f32>().unwrap(), x, "{text}");
            assert!(
                serde_json::from_str::<serde_json::Number>(&text).is_ok(),
                "{text}"
            );
        }
    }

    #[test]
    fn separated_circles_answer_without_contact() {
        let q = parse_line(r#"{"a": {"type": "circle", "center": [0, 0], "radius": 1}, "b": {"type": "circle", "center": [5.5, 0], "radius": 1}}"#).unwrap();
        assert_eq!(
            q.answer().unwrap().to_line().unwrap(),
            r#"{"intersects": false, "distance": 3.5, "contact": null}"#
        );
    }

    #[test]
    fn line_errors_name_the_problem() {
        let err = |line: &str| parse_line(line).unwrap_err();
        assert_eq!(err(""), r#"empty line, expected {"a": SHAPE, "b": SHAPE}"#);
        assert_eq!(
            err("  \t"),
            r#"empty line, expected {"a": SHAPE, "b": SHAPE}"#
        );
        assert_eq!(
            err(r#"{"a": 1"#),
            "invalid JSON at column 7: EOF while parsing an object"
        );
        assert_eq!(
            err("[1, 2]"),
            r#"expected an object {"a": SHAPE, "b": SHAPE}, got an array"#
        );
        assert_eq!(
            err(r#"{"a": {"type": "point", "p": [0, 0]}}"#),
            "b is missing (expected a, b)"
        );
        let extra =
            r#"{"a": {"type": "point", "p": [0, 0]}, "b": {"type": "point", "p": [0, 0]}, "c": 1}"#;
        assert_eq!(
            err(extra),
            "c is not a field of a query line (expected a, b)"
        );
        let bad = r#"{"a": {"type": "point", "p": [0, 0]}, "b": {"type": "circle", "center": [0, 0], "radius": -1}}"#;
        assert_eq!(err(bad), "b: circle.radius must be >= 0, got -1");
        let twice = r#"{"a": {"type": "point", "p": [0, 0], "p": [1, 1]}, "b": {"type": "point", "p": [0, 0]}}"#;
        assert_eq!(err(twice), "a: point.p: repeated field");
        let deep = r#"{"a": {"type": "compound", "parts": [{"type": "point", "p": [0, 0]}, {"type": "point", "type": "point", "p": [0, 0]}]}, "b": {"type": "point", "p": [0, 0]}}"#;
        assert_eq!(
            err(deep),
            "a: compound.parts[1]: point.type: repeated field"
        );
        let top = r#"{"a": {"type": "point", "p": [0, 0]}, "a": {"type": "point", "p": [0, 0]}, "b": {"type": "point", "p": [0, 0]}}"#;
        assert_eq!(err(top), "a is repeated (each field may appear once)");
        let not_shape = r#"{"a": {"type": "point", "p": [0, 0]}, "b": [0, 0]}"#;
        assert_eq!(
            err(not_shape),
            r#"b must be a shape object {"type": ...}, got an array"#
        );
    }

    #[test]
    fn deep_input_is_an_error_naming_the_limits() {
        let point = r#"{"type": "point", "p": [0, 0]}"#;
        let nest = |depth: usize| {
            let open = r#"{"type": "compound", "parts": ["#.repeat(depth);
            format!(
                r#"{{"a": {open}{point}{}, "b": {point}}}"#,
                "]}".repeat(depth)
            )
        };
        let err = parse_line(&nest(33)).unwrap_err();
        assert!(
            err.starts_with("a: compound.parts[0]: compound.parts[0]: ")
                && err.ends_with(
                    "compound.parts nest compounds deeper than 32 levels (limit MAX_COMPOUND_DEPTH)"
                ),
            "{err}"
        );
        assert!(parse_line(&nest(32)).is_ok());
        // The loader stops at the 33rd level, without reading (or recursing) further.
        let err = parse_line(&nest(100_000)).unwrap_err();
        assert!(err.ends_with("(limit MAX_COMPOUND_DEPTH)"), "{err}");
        // Deep JSON that is no shape: its syntax is read without recursion, then refused.
        let arrays = format!(
            r#"{{"a": {}{}, "b": 1}}"#,
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        assert_eq!(
            parse_line(&arrays).unwrap_err(),
            r#"a must be a shape object {"type": ...}, got an array"#
        );
        assert_eq!(
            parse_line(&"[".repeat(100_000)).unwrap_err(),
            "invalid JSON at column 100000: EOF while parsing a list"
        );
    }

    #[test]
    fn error_line_is_json_with_the_line_number() {
        assert_eq!(
            error_line(7, "circle.radius must be >= 0, got -1"),
            r#"{"error": "line 7: circle.radius must be >= 0, got -1"}"#
        );
        assert_eq!(
            error_line(1, r#"type "x" is unknown"#),
            r#"{"error": "line 1: type \"x\" is unknown"}"#
        );
    }
}
