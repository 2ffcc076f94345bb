//! collide2d for the browser: the queries behind the playground under `web/`.
//!
//! Shapes cross the boundary as formats.md JSON (`{"type": "circle", ...}`), so the page can
//! build every shape type and gets the library's own validation messages back. The page keeps
//! each shape in a local frame plus a pose; [`place`] applies the pose with
//! [`Shape::transformed`], so what the page draws is exactly what the queries see (a rotated
//! `aabb` comes back as an `obb`).
//!
//! [`Swarm`] is the playground's second tab: a few thousand moving circles and boxes. Its
//! colliding pairs are found by a [`collide2d::CollisionWorld`] on a uniform grid, as a game
//! would find them, and the page shows what a frame of that costs.
//!
//! [`draw`] gives the two-shape tab's picture as a list of primitives from the library's
//! debug-draw walk, so the page paints what `collide2d render` would draw.
//!
//! Every function is plain Rust as well, and is tested natively.

mod display;
mod swarm;

use collide2d::math::{Pose, Vec2};
use collide2d::{closest_points, contact, contains_point, Shape};
use serde_json::{json, Value};
use wasm_bindgen::prelude::wasm_bindgen;

pub use display::draw;
pub use swarm::Swarm;

/// Parses one formats.md shape; the error names the field, as the CLI's messages do.
fn parse(text: &str) -> Result<Shape, String> {
    serde_json::from_str::<Shape>(text).map_err(|e| e.to_string())
}

fn xy(v: Vec2) -> Value {
    json!([v.x, v.y])
}

/// The shape `shape` (formats.md JSON) moved by `pose`: rotated by `angle` radians about its own
/// origin, then translated to `(x, y)`. Returns formats.md JSON, or `{"error": message}`.
#[wasm_bindgen]
#[must_use]
pub fn place(shape: &str, x: f32, y: f32, angle: f32) -> String {
    match parse(shape) {
        Ok(s) => {
            let placed = s.transformed(&Pose::new(Vec2::new(x, y), angle));
            serde_json::to_string(&placed).unwrap_or_else(|e| error(&e.to_string()))
        }
        Err(e) => error(&e),
    }
}

fn error(message: &str) -> String {
    json!({ "error": message }).to_string()
}

/// Every pair query between two placed shapes, as one JSON object:
/// `{"intersects", "distance", "contact": {"normal", "depth", "points"} | null,
/// "closest": [[x, y], [x, y]] | null}`, or `{"error": message}` for a bad shape.
///
/// The normal points from `a` towards `b`; `closest` holds the nearest points of `a` and `b`
/// when they are apart.
#[wasm_bindgen]
#[must_use]
pub fn query(a: &str, b: &str) -> String {
    let (a, b) = match (parse(a), parse(b)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) => return error(&format!("a: {e}")),
        (_, Err(e)) => return error(&format!("b: {e}")),
    };
    let contact = contact(&a, &b);
    let closest = closest_points(&a, &b);
    json!({
        "intersects": contact.is_some(),
        "distance": closest.map_or(0.0, |c| c.distance),
        "contact": contact.map(|c| json!({
            "normal": xy(c.normal),
            "depth": c.depth,
            "points": c.points.iter().copied().map(xy).collect::<Vec<_>>(),
        })),
        "closest": closest.map(|c| json!([xy(c.point_a), xy(c.point_b)])),
    })
    .to_string()
}

/// Whether the placed shape contains the point `(x, y)` (its boundary included); false for a
/// bad shape. The page uses it to pick the shape under the mouse.
#[wasm_bindgen]
#[must_use]
pub fn contains(shape: &str, x: f32, y: f32) -> bool {
    parse(shape).is_ok_and(|s| contains_point(&s, Vec2::new(x, y)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(text: &str) -> Value {
        serde_json::from_str(text).unwrap()
    }

    const BOX: &str = r#"{"type": "aabb", "min": [-1, -1], "max": [1, 1]}"#;
    const BALL: &str = r#"{"type": "circle", "center": [0, 0], "radius": 1}"#;

    #[test]
    fn placing_a_box_with_a_rotation_gives_an_obb() {
        let moved = value(&place(BOX, 5.0, 0.0, 0.0));
        assert_eq!(
            moved,
            value(r#"{"type": "aabb", "min": [4.0, -1.0], "max": [6.0, 1.0]}"#)
        );
        let turned = value(&place(BOX, 5.0, 0.0, 0.5));
        assert_eq!(turned["type"], "obb");
        assert_eq!(turned["center"], json!([5.0, 0.0]));
    }

    #[test]
    fn overlapping_shapes_hit_with_a_normal_from_a_to_b() {
        let a = place(BOX, 0.0, 0.0, 0.0);
        let b = place(BALL, 1.5, 0.0, 0.0);
        let answer = value(&query(&a, &b));
        assert_eq!(answer["intersects"], true);
        assert_eq!(answer["distance"], 0.0);
        assert_eq!(answer["contact"]["normal"], json!([1.0, 0.0]));
        assert_eq!(answer["contact"]["depth"], 0.5);
        assert_eq!(answer["closest"], Value::Null);
    }

    #[test]
    fn shapes_apart_have_a_distance_and_closest_points() {
        let a = place(BOX, 0.0, 0.0, 0.0);
        let b = place(BALL, 5.0, 0.0, 0.0);
        let answer = value(&query(&a, &b));
        assert_eq!(answer["intersects"], false);
        assert_eq!(answer["distance"], 3.0);
        assert_eq!(answer["contact"], Value::Null);
        assert_eq!(answer["closest"], json!([[1.0, 0.0], [4.0, 0.0]]));
    }

    #[test]
    fn bad_shapes_come_back_as_errors_naming_the_field() {
        let bad = r#"{"type": "circle", "center": [0, 0], "radius": -1}"#;
        let answer = value(&query(bad, BALL));
        let message = answer["error"].as_str().unwrap();
        assert!(
            message.starts_with("a: circle.radius must be >= 0"),
            "{message}"
        );
        assert!(value(&place("{", 0.0, 0.0, 0.0))["error"].is_string());
        assert!(!contains(bad, 0.0, 0.0));
    }

    #[test]
    fn contains_counts_the_boundary() {
        let b = place(BALL, 2.0, 0.0, 0.0);
        assert!(contains(&b, 3.0, 0.0));
        assert!(!contains(&b, 3.01, 0.0));
    }
}
