//! `collide2d cast`: shape casts as JSON Lines, `{"a": SHAPE, "va": [x, y], "b": SHAPE,
//! "vb": [x, y]}` in, `{"hit": true, "t": T, "point": [x, y], "normal": [x, y]}` or
//! `{"hit": false}` out. Lines are read, checked and written with `json.rs`'s helpers, so
//! errors read exactly as `query`'s.

use crate::json::{number, parse_object, take_shape, vector};
use crate::raw::{self, Fields};
use collide2d::{cast_shapes, math::Vec2, CastHit, Shape};

const FIELDS: &[&str] = &["a", "va", "b", "vb"];
const TEMPLATE: &str = r#"{"a": SHAPE, "va": [x, y], "b": SHAPE, "vb": [x, y]}"#;

/// One input line: two shapes and how far each moves.
#[derive(Debug)]
pub struct CastQuery {
    /// The first shape; the normal points away from it.
    pub a: Shape,
    /// How far `a` moves over the step.
    pub va: Vec2,
    /// The second shape.
    pub b: Shape,
    /// How far `b` moves over the step.
    pub vb: Vec2,
}

/// Parses one line (without its line break), or says why it is not a cast line. The message
/// has no `line N: ` prefix.
pub fn parse_line(line: &str) -> Result<CastQuery, String> {
    let object = parse_object(line, TEMPLATE, "a cast line", FIELDS)?;
    let a = take_shape(&object, "a", FIELDS)?;
    let va = take_vector(&object, "va")?;
    let b = take_shape(&object, "b", FIELDS)?;
    let vb = take_vector(&object, "vb")?;
    Ok(CastQuery { a, va, b, vb })
}

/// Reads field `name` as `[x, y]`, two numbers finite as `f32`.
fn take_vector(object: &Fields<'_>, name: &str) -> Result<Vec2, String> {
    let value = object
        .get(name)
        .ok_or_else(|| format!("{name} is missing (expected {})", FIELDS.join(", ")))?;
    raw::vector(value, name)
}

impl CastQuery {
    /// The cast of `a` moving by `va` against `b` moving by `vb`.
    #[must_use]
    pub fn answer(&self) -> Option<CastHit> {
        cast_shapes(&self.a, self.va, &self.b, self.vb)
    }
}

/// The output line for a cast's result (without line break).
///
/// # Errors
/// A message when a number is not finite (a library bug), rather than print invalid JSON.
pub fn to_line(hit: Option<CastHit>) -> Result<String, String> {
    let Some(h) = hit else {
        return Ok(r#"{"hit": false}"#.to_string());
    };
    let line = (|| {
        Some(format!(
            r#"{{"hit": true, "t": {}, "point": {}, "normal": {}}}"#,
            number(h.t)?,
            vector(h.point)?,
            vector(h.normal)?
        ))
    })();
    line.ok_or_else(|| {
        "internal error: a result is not a finite number (please report this line)".to_string()
    })
}

/// Answers one input line: the output line, or the error message for it.
pub fn answer_line(line: &str) -> Result<String, String> {
    parse_line(line).and_then(|q| to_line(q.answer()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bullet_against_a_wall_hits_and_a_miss_says_so() {
        let line = r#"{"a": {"type": "circle", "center": [0, 0], "radius": 1}, "va": [100, 0], "b": {"type": "rect", "x": 10, "y": -5, "w": 1, "h": 10}, "vb": [0, 0]}"#;
        assert_eq!(
            answer_line(line).unwrap(),
            r#"{"hit": true, "t": 0.09, "point": [10, 0], "normal": [1, 0]}"#
        );
        let miss = line.replace("[100, 0]", "[0, 100]");
        assert_eq!(answer_line(&miss).unwrap(), r#"{"hit": false}"#);
    }

    #[test]
    fn line_errors_name_the_problem() {
        let err = |line: &str| parse_line(line).unwrap_err();
        let p = r#"{"type": "point", "p": [0, 0]}"#;
        assert_eq!(err(""), format!("empty line, expected {TEMPLATE}"));
        assert_eq!(
            err(&format!(r#"{{"a": {p}, "b": {p}, "vb": [0, 0]}}"#)),
            "va is missing (expected a, va, b, vb)"
        );
        assert_eq!(
            err(&format!(
                r#"{{"a": {p}, "va": [0, 0], "b": {p}, "vb": [0, 0], "w": 1}}"#
            )),
            "w is not a field of a cast line (expected a, va, b, vb)"
        );
        let with_va = |va: &str| format!(r#"{{"a": {p}, "va": {va}, "b": {p}, "vb": [0, 0]}}"#);
        assert_eq!(
            err(&with_va("[1, 2, 3]")),
            "va: invalid length 3, expected [x, y]"
        );
        assert_eq!(err(&with_va("7")), "va must be [x, y], got a number");
        assert_eq!(
            err(&with_va(r#"[1, "2"]"#)),
            "va.y must be a number, got a string"
        );
        assert_eq!(
            err(&with_va("[1e39, 0]")),
            "va.x is out of the f32 range (about ±3.4e38), got 1e39"
        );
        assert_eq!(
            err(&with_va("[0, -1E999]")),
            "va.y is out of the f32 range (about ±3.4e38), got -1E999"
        );
        assert_eq!(
            err(&format!(
                r#"{{"a": {p}, "va": [0, 0], "va": [1, 1], "b": {p}, "vb": [0, 0]}}"#
            )),
            "va is repeated (each field may appear once)"
        );
    }
}
