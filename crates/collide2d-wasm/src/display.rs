//! The playground's two-shape tab drawn through the library's debug-draw walk: [`draw`] puts
//! the two shapes in a [`CollisionWorld`], and a [`DebugDraw`] drawer records each primitive
//! as a JSON item for the page to paint. So the page shows what `collide2d render` shows, in
//! the same order and palette, and only paints.

use collide2d::debug_draw::{DebugDraw, DrawOptions, DrawnObject, Role};
use collide2d::math::Vec2;
use collide2d::{BroadPhase, CollisionWorld, Filter, ObjectKind, Shape};
use serde_json::{json, Value};
use wasm_bindgen::prelude::wasm_bindgen;

use crate::{error, parse, xy};

/// Records primitives as JSON items: `{"op": "polygon" | "circle" | "capsule" | "segment" |
/// "point" | "arrow" | "label", ..., "colour": "#rrggbb", "role": "object" | ...}`.
#[derive(Default)]
struct Display(Vec<Value>);

fn style(role: Role) -> (String, &'static str) {
    let c = role.colour();
    let name = match role {
        Role::Object { .. } => "object",
        Role::ContactPoint => "contact-point",
        Role::Normal => "normal",
        Role::ConvexPart => "part",
        _ => "debug",
    };
    (format!("#{:02x}{:02x}{:02x}", c.r, c.g, c.b), name)
}

impl Display {
    fn push(&mut self, mut item: Value, role: Role) {
        let (colour, name) = style(role);
        item["colour"] = json!(colour);
        item["role"] = json!(name);
        self.0.push(item);
    }
}

impl DebugDraw for Display {
    fn polygon(&mut self, points: &[Vec2], role: Role) {
        let points: Vec<Value> = points.iter().copied().map(xy).collect();
        self.push(json!({"op": "polygon", "points": points}), role);
    }
    fn circle(&mut self, center: Vec2, radius: f32, role: Role) {
        self.push(
            json!({"op": "circle", "center": xy(center), "radius": radius}),
            role,
        );
    }
    fn capsule(&mut self, a: Vec2, b: Vec2, radius: f32, role: Role) {
        self.push(
            json!({"op": "capsule", "a": xy(a), "b": xy(b), "radius": radius}),
            role,
        );
    }
    fn segment(&mut self, a: Vec2, b: Vec2, role: Role) {
        self.push(json!({"op": "segment", "a": xy(a), "b": xy(b)}), role);
    }
    fn point(&mut self, p: Vec2, role: Role) {
        self.push(json!({"op": "point", "p": xy(p)}), role);
    }
    fn arrow(&mut self, from: Vec2, direction: Vec2, role: Role) {
        self.push(
            json!({"op": "arrow", "from": xy(from), "direction": xy(direction)}),
            role,
        );
    }
    fn label(&mut self, object: &DrawnObject<'_>) {
        let b = object.shape.aabb();
        let item = json!({"op": "label", "text": object.name, "box": [xy(b.min()), xy(b.max())]});
        self.0.push(item);
    }
}

/// The drawing of two placed shapes `a` and `b` (formats.md JSON), named `A` and `B`: the
/// library's debug-draw walk of a world holding both, as `{"items": [...]}` in drawing order
/// (shapes, colliding ones on top; contact points and normals from A towards B; labels last),
/// or `{"error": message}`.
#[wasm_bindgen]
#[must_use]
pub fn draw(a: &str, b: &str) -> String {
    let shapes: Result<Vec<Shape>, String> = [("a", a), ("b", b)]
        .into_iter()
        .map(|(side, text)| parse(text).map_err(|e| format!("{side}: {e}")))
        .collect();
    let shapes = match shapes {
        Ok(shapes) => shapes,
        Err(e) => return error(&e),
    };
    let mut world = CollisionWorld::new(BroadPhase::default());
    world.set_contacts(true);
    for (shape, name) in shapes.into_iter().zip(["A", "B"]) {
        if let Err(e) = world.insert(shape, Filter::DEFAULT, ObjectKind::Dynamic, name) {
            return error(&format!("{name}: {e}"));
        }
    }
    world.update();
    let mut display = Display::default();
    world.debug_draw(&mut display, &DrawOptions::default(), |_, name| Some(*name));
    json!({ "items": display.0 }).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlapping_shapes_are_red_with_a_normal_from_a_to_b_and_two_labels_last() {
        let a = r#"{"type": "aabb", "min": [-1, -1], "max": [1, 1]}"#;
        let b = r#"{"type": "circle", "center": [1.5, 0], "radius": 1}"#;
        let drawn: Value = serde_json::from_str(&draw(a, b)).unwrap();
        let items = drawn["items"].as_array().unwrap();
        let ops: Vec<&str> = items.iter().map(|i| i["op"].as_str().unwrap()).collect();
        assert_eq!(
            ops,
            ["polygon", "circle", "point", "arrow", "label", "label"]
        );
        assert_eq!(items[0]["colour"], "#dc2626");
        assert_eq!(items[3]["direction"], json!([1.0, 0.0]));
        assert_eq!(
            (items[4]["text"].as_str(), items[5]["text"].as_str()),
            (Some("A"), Some("B"))
        );
        // The circle's box (rounded outward by the library).
        let corner = |i: usize, j: usize| items[5]["box"][i][j].as_f64().unwrap();
        let expected = [[0.5, -1.0], [2.5, 1.0]];
        for (i, j) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
            assert!((corner(i, j) - expected[i][j]).abs() < 1e-6);
        }
    }

    #[test]
    fn shapes_apart_are_blue_without_contacts_and_bad_ones_are_errors() {
        let a = r#"{"type": "point", "p": [0, 0]}"#;
        let b = r#"{"type": "segment", "a": [5, 0], "b": [6, 1]}"#;
        let drawn: Value = serde_json::from_str(&draw(a, b)).unwrap();
        let ops: Vec<&str> = drawn["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["op"].as_str().unwrap())
            .collect();
        assert_eq!(ops, ["point", "segment", "label", "label"]);
        assert_eq!(drawn["items"][0]["colour"], "#2563eb");
        let bad: Value = serde_json::from_str(&draw(a, "{")).unwrap();
        assert!(bad["error"].as_str().unwrap().starts_with("b: "));
    }
}
