//! `collide2d cast`: shape casts as JSON Lines, `{"a": SHAPE, "va": [x, y], "b": SHAPE,
//! "vb": [x, y]}` in (with optional turns `wa`, `wb` and pivots `ca`, `cb`),
//! `{"hit": true, "t": T, "point": [x, y], "normal": [x, y]}` or `{"hit": false}` out. Lines
//! are read, checked and written with `json.rs`'s helpers, so errors read exactly as `query`'s.

use crate::json::{number, parse_object, take_shape, vector};
use crate::raw::{self, Fields};
use collide2d::{cast_shapes_rotating, math::Vec2, CastHit, Shape, Sweep};

/// The fields every line has.
const REQUIRED: &[&str] = &["a", "va", "b", "vb"];
/// Every field a line may have.
const FIELDS: &[&str] = &["a", "va", "b", "vb", "wa", "wb", "ca", "cb"];
const TEMPLATE: &str = r#"{"a": SHAPE, "va": [x, y], "b": SHAPE, "vb": [x, y]}"#;

/// One input line: two shapes and how each moves and turns.
#[derive(Debug)]
pub struct CastQuery {
    /// The first shape; the normal points away from it.
    pub a: Shape,
    /// How `a` moves over the step.
    pub sa: Sweep,
    /// The second shape.
    pub b: Shape,
    /// How `b` moves over the step.
    pub sb: Sweep,
}

/// Parses one line (without its line break), or says why it is not a cast line. The message
/// has no `line N: ` prefix.
pub fn parse_line(line: &str) -> Result<CastQuery, String> {
    let object = parse_object(line, TEMPLATE, "a cast line", FIELDS)?;
    let a = take_shape(&object, "a", REQUIRED)?;
    let va = take_vector(&object, "va")?;
    let b = take_shape(&object, "b", REQUIRED)?;
    let vb = take_vector(&object, "vb")?;
    let sa = take_sweep(&object, &a, va, ("wa", "ca"))?;
    let sb = take_sweep(&object, &b, vb, ("wb", "cb"))?;
    Ok(CastQuery { a, sa, b, sb })
}

/// Reads field `name` as `[x, y]`, two numbers finite as `f32`.
fn take_vector(object: &Fields<'_>, name: &str) -> Result<Vec2, String> {
    let value = object
        .get(name)
        .ok_or_else(|| format!("{name} is missing (expected {})", REQUIRED.join(", ")))?;
    raw::vector(value, name)
}

/// The sweep of `shape` moving by `v`: its turn (field `names.0`, default 0) about its pivot
/// (field `names.1`, default the center of its bounding box).
fn take_sweep(
    object: &Fields<'_>,
    shape: &Shape,
    v: Vec2,
    names: (&str, &str),
) -> Result<Sweep, String> {
    let turn = match object.get(names.0) {
        Some(value) => raw::number(value, names.0)?,
        None => 0.0,
    };
    let pivot = match object.get(names.1) {
        Some(value) => raw::vector(value, names.1)?,
        None => shape.aabb().center(),
    };
    Ok(Sweep::new(v, turn, pivot))
}

impl CastQuery {
    /// The cast of `a` moving by its sweep against `b` moving by its own.
    #[must_use]
    pub fn answer(&self) -> Option<CastHit> {
        cast_shapes_rotating(&self.a, self.sa, &self.b, self.sb)
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
    fn a_spinning_bar_hits_a_coin_that_its_end_poses_miss() {
        let bar = r#"{"type": "segment", "a": [-5, 0], "b": [5, 0]}"#;
        let coin = r#"{"type": "circle", "center": [0, 4], "radius": 0.5}"#;
        let line = |w: &str| {
            format!(r#"{{"a": {bar}, "va": [0, 0], "wa": {w}, "b": {coin}, "vb": [0, 0]}}"#)
        };
        let q = parse_line(&line("3.14159")).unwrap();
        let t = q.answer().unwrap().t;
        assert!(t > 0.4 && t < 0.5, "{t}");
        assert_eq!(answer_line(&line("0")).unwrap(), r#"{"hit": false}"#);
        // About one end instead of the center, the bar never reaches the coin's side.
        let about_end = line("3.14159").replace(r#""wa""#, r#""ca": [5, 0], "wa""#);
        assert!(parse_line(&about_end).unwrap().answer().is_none());
    }

    #[test]
    fn turn_and_pivot_errors_name_the_field() {
        let p = r#"{"type": "point", "p": [0, 0]}"#;
        let err = |extra: &str| {
            parse_line(&format!(
                r#"{{"a": {p}, "va": [0, 0], "b": {p}, "vb": [0, 0], {extra}}}"#
            ))
            .unwrap_err()
        };
        assert_eq!(err(r#""wa": "fast""#), "wa must be a number, got a string");
        assert_eq!(
            err(r#""wb": -1e39"#),
            "wb is out of the f32 range (about ±3.4e38), got -1e39"
        );
        assert_eq!(err(r#""ca": 1"#), "ca must be [x, y], got a number");
        assert_eq!(err(r#""cb": [0, null]"#), "cb.y must be a number, got null");
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
            "w is not a field of a cast line (expected a, va, b, vb, wa, wb, ca, cb)"
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
