//! [`JsShape`]: a collide2d shape owned by wasm memory, `Shape` in JavaScript.
//!
//! Each constructor validates through the library's own, and a bad shape throws a JavaScript
//! `Error` whose message starts with the type and the field (`circle.radius must be >= 0, got
//! -1`), as the command line's messages do.

use collide2d::math::{Pose, Vec2};
use collide2d::{
    Aabb, Capsule, Circle, Compound, ConvexPolygon, Obb, Point, Polygon, Segment, Shape, ShapeError,
};
use wasm_bindgen::prelude::{wasm_bindgen, JsError};

use crate::scratch;

/// A shape in world coordinates: point, segment, circle, box, rotated box, capsule, polygon
/// (concave allowed) or compound. Every shape is a closed set: touching shapes intersect.
#[wasm_bindgen(js_name = Shape)]
#[derive(Clone, Debug)]
pub struct JsShape {
    pub(crate) shape: Shape,
}

/// A constructor's error as a JavaScript `Error`, prefixed with the shape's type.
fn checked<S: Into<Shape>>(kind: &str, made: Result<S, ShapeError>) -> Result<JsShape, JsError> {
    made.map(|s| JsShape { shape: s.into() })
        .map_err(|e| JsError::new(&format!("{kind}.{e}")))
}

/// `[x0, y0, x1, y1, ...]` as points, an odd count or a non-finite number naming its place.
fn points(kind: &str, xy: &[f64]) -> Result<Vec<Vec2>, JsError> {
    if !xy.len().is_multiple_of(2) {
        return Err(JsError::new(&format!(
            "{kind}.points must hold x, y pairs, got {} numbers",
            xy.len()
        )));
    }
    Ok(xy
        .chunks_exact(2)
        .map(|p| Vec2::new(p[0] as f32, p[1] as f32))
        .collect())
}

/// A non-finite number in a pose or motion, named.
pub(crate) fn finite(field: &str, v: f32) -> Result<f32, JsError> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(JsError::new(&format!("{field} must be finite, got {v}")))
    }
}

#[wasm_bindgen(js_class = Shape)]
impl JsShape {
    /// The point `(x, y)`.
    pub fn point(x: f32, y: f32) -> Result<JsShape, JsError> {
        checked("point", Point::new(Vec2::new(x, y)))
    }

    /// The closed segment from `(ax, ay)` to `(bx, by)`.
    pub fn segment(ax: f32, ay: f32, bx: f32, by: f32) -> Result<JsShape, JsError> {
        checked(
            "segment",
            Segment::new(Vec2::new(ax, ay), Vec2::new(bx, by)),
        )
    }

    /// The closed disc of centre `(x, y)` and radius `r >= 0`.
    pub fn circle(x: f32, y: f32, r: f32) -> Result<JsShape, JsError> {
        checked("circle", Circle::new(Vec2::new(x, y), r))
    }

    /// The axis-aligned box with corner `(x, y)` and size `w, h >= 0`.
    pub fn rect(x: f32, y: f32, w: f32, h: f32) -> Result<JsShape, JsError> {
        checked("rect", Aabb::from_rect(x, y, w, h))
    }

    /// The axis-aligned box from `(minX, minY)` to `(maxX, maxY)`.
    pub fn aabb(
        #[wasm_bindgen(js_name = minX)] min_x: f32,
        #[wasm_bindgen(js_name = minY)] min_y: f32,
        #[wasm_bindgen(js_name = maxX)] max_x: f32,
        #[wasm_bindgen(js_name = maxY)] max_y: f32,
    ) -> Result<JsShape, JsError> {
        checked(
            "aabb",
            Aabb::new(Vec2::new(min_x, min_y), Vec2::new(max_x, max_y)),
        )
    }

    /// The box of centre `(cx, cy)` and half sizes `hw, hh`, rotated by `angle` radians.
    pub fn obb(cx: f32, cy: f32, hw: f32, hh: f32, angle: f32) -> Result<JsShape, JsError> {
        checked("obb", Obb::new(Vec2::new(cx, cy), Vec2::new(hw, hh), angle))
    }

    /// Every point within `r` of the segment from `(ax, ay)` to `(bx, by)`.
    pub fn capsule(ax: f32, ay: f32, bx: f32, by: f32, r: f32) -> Result<JsShape, JsError> {
        checked(
            "capsule",
            Capsule::new(Vec2::new(ax, ay), Vec2::new(bx, by), r),
        )
    }

    /// A simple polygon from `[x0, y0, x1, y1, ...]`, either winding, concave allowed.
    pub fn polygon(points_xy: &[f64]) -> Result<JsShape, JsError> {
        checked("polygon", Polygon::new(&points("polygon", points_xy)?))
    }

    /// A convex polygon from `[x0, y0, x1, y1, ...]` (an error if it is not convex).
    #[wasm_bindgen(js_name = convexPolygon)]
    pub fn convex_polygon(points_xy: &[f64]) -> Result<JsShape, JsError> {
        checked(
            "polygon",
            ConvexPolygon::new(&points("polygon", points_xy)?),
        )
    }

    /// The union of `parts`, which this call takes over (the package's `compound` passes
    /// copies, so the caller's shapes stay usable).
    #[wasm_bindgen(js_name = compoundOwned)]
    pub fn compound_owned(parts: Vec<JsShape>) -> Result<JsShape, JsError> {
        let parts = parts.into_iter().map(|p| p.shape).collect();
        checked("compound", Compound::new(parts))
    }

    /// A shape from its formats.md JSON text (`{"type": "circle", "center": [0, 0], "radius": 1}`).
    #[wasm_bindgen(js_name = fromJsonText)]
    pub fn from_json_text(text: &str) -> Result<JsShape, JsError> {
        serde_json::from_str::<Shape>(text)
            .map(|shape| JsShape { shape })
            .map_err(|e| JsError::new(&e.to_string()))
    }

    /// The shape as formats.md JSON text (an `aabb` for a box, `polygon` for every polygon).
    #[wasm_bindgen(js_name = toJsonText)]
    #[must_use]
    pub fn to_json_text(&self) -> String {
        serde_json::to_string(&self.shape).unwrap_or_default()
    }

    /// The formats.md type: `point`, `segment`, `circle`, `aabb`, `obb`, `capsule`, `polygon`
    /// or `compound`.
    #[wasm_bindgen(getter)]
    #[must_use]
    pub fn kind(&self) -> String {
        self.shape.kind().name().to_string()
    }

    /// Writes the bounding box, `[minX, minY, maxX, maxY]`, to the scratch buffer.
    #[wasm_bindgen(js_name = rawBounds)]
    pub fn raw_bounds(&self) {
        let b = self.shape.aabb();
        scratch::write(&[b.min().x, b.min().y, b.max().x, b.max().y].map(f64::from));
    }

    /// The shape moved by `(dx, dy)`.
    pub fn translated(&self, dx: f32, dy: f32) -> Result<JsShape, JsError> {
        self.transformed(dx, dy, 0.0)
    }

    /// The shape rotated by `angle` radians about the origin, then moved by `(x, y)` (a rotated
    /// `aabb` becomes an `obb`).
    pub fn transformed(&self, x: f32, y: f32, angle: f32) -> Result<JsShape, JsError> {
        let pose = Pose::new(
            Vec2::new(finite("x", x)?, finite("y", y)?),
            finite("angle", angle)?,
        );
        let shape = self.shape.transformed(&pose);
        if shape.is_finite() {
            Ok(JsShape { shape })
        } else {
            Err(JsError::new("the moved shape must have finite coordinates"))
        }
    }

    /// A copy (owned by its own wasm memory).
    #[wasm_bindgen(js_name = clone)]
    #[must_use]
    pub fn copy(&self) -> JsShape {
        self.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polygons_are_read_from_flat_coordinates() {
        let square = JsShape::polygon(&[0.0, 0.0, 2.0, 0.0, 2.0, 2.0, 0.0, 2.0]).unwrap();
        assert_eq!(square.kind(), "polygon");
        square.raw_bounds();
        assert_eq!(scratch::read(4), [0.0, 0.0, 2.0, 2.0]);
    }

    #[test]
    fn json_round_trips() {
        let c = JsShape::circle(1.0, 2.0, 3.0).unwrap();
        let text = c.to_json_text();
        assert_eq!(JsShape::from_json_text(&text).unwrap().shape, c.shape);
    }

    #[test]
    fn translation_moves_the_bounds() {
        let r = JsShape::rect(0.0, 0.0, 2.0, 1.0).unwrap();
        r.translated(3.0, 4.0).unwrap().raw_bounds();
        assert_eq!(scratch::read(4), [3.0, 4.0, 5.0, 5.0]);
        assert_eq!(r.transformed(0.0, 0.0, 1.0).unwrap().kind(), "obb");
    }
}
