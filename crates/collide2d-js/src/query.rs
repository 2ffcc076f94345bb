//! The pair and single-shape queries. Yes/no and number answers are returned; a structured
//! answer is written to the scratch buffer (see each function) and its presence returned.

use collide2d::math::Vec2;
use collide2d::{Contact, Ray};
use wasm_bindgen::prelude::wasm_bindgen;

use crate::scratch;
use crate::shape::JsShape;

/// True when `a` and `b` share a point (touching counts); exact.
#[wasm_bindgen]
#[must_use]
pub fn intersects(a: &JsShape, b: &JsShape) -> bool {
    collide2d::intersects(&a.shape, &b.shape)
}

/// The smallest distance between a point of `a` and a point of `b`; 0 when they intersect.
#[wasm_bindgen]
#[must_use]
pub fn distance(a: &JsShape, b: &JsShape) -> f32 {
    collide2d::distance(&a.shape, &b.shape)
}

/// True when `b` lies entirely inside `a` (boundaries included); exact.
#[wasm_bindgen]
#[must_use]
pub fn contains(a: &JsShape, b: &JsShape) -> bool {
    collide2d::contains(&a.shape, &b.shape)
}

/// True when `(x, y)` lies in `shape` (its boundary included); exact.
#[wasm_bindgen(js_name = containsPoint)]
#[must_use]
pub fn contains_point(shape: &JsShape, x: f32, y: f32) -> bool {
    collide2d::contains_point(&shape.shape, Vec2::new(x, y))
}

/// The distance from `(x, y)` to `shape`; 0 inside.
#[wasm_bindgen(js_name = distanceToPoint)]
#[must_use]
pub fn distance_to_point(shape: &JsShape, x: f32, y: f32) -> f32 {
    collide2d::distance_to_point(&shape.shape, Vec2::new(x, y))
}

/// `contact` as 8 numbers: `[nx, ny, depth, count, p0x, p0y, p1x, p1y]`.
pub(crate) fn contact_numbers(c: &Contact) -> [f64; 8] {
    let p0 = c.points[0];
    let p1 = c.points.get(1).copied().unwrap_or(p0);
    [
        c.normal.x,
        c.normal.y,
        c.depth,
        c.points.len() as f32,
        p0.x,
        p0.y,
        p1.x,
        p1.y,
    ]
    .map(f64::from)
}

/// Whether `a` and `b` intersect; if so writes the contact, `[nx, ny, depth, count, p0x, p0y,
/// p1x, p1y]` (normal from `a` towards `b`, one or two points).
#[wasm_bindgen(js_name = rawContact)]
#[must_use]
pub fn raw_contact(a: &JsShape, b: &JsShape) -> bool {
    collide2d::contact(&a.shape, &b.shape).is_some_and(|c| {
        scratch::write(&contact_numbers(&c));
        true
    })
}

/// Whether `a` and `b` are apart; if so writes `[distance, ax, ay, bx, by]`, the nearest
/// points of `a` and of `b`.
#[wasm_bindgen(js_name = rawClosestPoints)]
#[must_use]
pub fn raw_closest_points(a: &JsShape, b: &JsShape) -> bool {
    collide2d::closest_points(&a.shape, &b.shape).is_some_and(|c| {
        let (pa, pb) = (c.point_a, c.point_b);
        scratch::write(&[c.distance, pa.x, pa.y, pb.x, pb.y].map(f64::from));
        true
    })
}

/// Writes the point of `shape`'s boundary nearest `(x, y)` and whether `(x, y)` is inside:
/// `[px, py, inside]` (inside a box, the nearest wall's point).
#[wasm_bindgen(js_name = rawProjectPoint)]
pub fn raw_project_point(shape: &JsShape, x: f32, y: f32) {
    let p = collide2d::project_point(&shape.shape, Vec2::new(x, y));
    scratch::write(&[p.point.x, p.point.y, f32::from(u8::from(p.is_inside))].map(f64::from));
}

/// Whether the ray from `(ox, oy)` along `(dx, dy)` meets `shape` at some `t` in `[0, maxT]`;
/// if so writes `[t, px, py, nx, ny]` (the point `origin + t * dir` and the surface normal; a
/// ray starting inside hits at `t = 0` with normal 0).
#[wasm_bindgen(js_name = rawCastRay)]
#[must_use]
pub fn raw_cast_ray(
    shape: &JsShape,
    ox: f32,
    oy: f32,
    dx: f32,
    dy: f32,
    #[wasm_bindgen(js_name = maxT)] max_t: f32,
) -> bool {
    let ray = Ray::new(Vec2::new(ox, oy), Vec2::new(dx, dy));
    collide2d::cast_ray(&shape.shape, &ray, max_t).is_some_and(|h| {
        scratch::write(&[h.t, h.point.x, h.point.y, h.normal.x, h.normal.y].map(f64::from));
        true
    })
}

/// Whether `a` moving by `(vax, vay)` and `b` moving by `(vbx, vby)` touch during the step;
/// if so writes `[t, px, py, nx, ny, depth]`: the first time in `[0, 1]`, the point, the
/// normal from `a` towards `b`, and the depth (positive only when they overlap at the start).
#[wasm_bindgen(js_name = rawCastShapes)]
#[must_use]
pub fn raw_cast_shapes(a: &JsShape, vax: f32, vay: f32, b: &JsShape, vbx: f32, vby: f32) -> bool {
    let (va, vb) = (Vec2::new(vax, vay), Vec2::new(vbx, vby));
    collide2d::cast_shapes(&a.shape, va, &b.shape, vb).is_some_and(|h| {
        let numbers = [h.t, h.point.x, h.point.y, h.normal.x, h.normal.y, h.depth];
        scratch::write(&numbers.map(f64::from));
        true
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn circle(x: f32, r: f32) -> JsShape {
        JsShape::circle(x, 0.0, r).unwrap()
    }

    #[test]
    fn touching_circles_have_a_contact_from_a_to_b() {
        let (a, b) = (circle(0.0, 1.0), circle(2.0, 1.0));
        assert!(intersects(&a, &b));
        assert!(raw_contact(&a, &b));
        assert_eq!(scratch::read(6), [1.0, 0.0, 0.0, 1.0, 1.0, 0.0]);
        assert!(!raw_closest_points(&a, &b));
    }

    #[test]
    fn circles_apart_have_closest_points() {
        let (a, b) = (circle(0.0, 1.0), circle(5.0, 1.0));
        assert_eq!(distance(&a, &b), 3.0);
        assert!(!raw_contact(&a, &b));
        assert!(raw_closest_points(&a, &b));
        assert_eq!(scratch::read(5), [3.0, 1.0, 0.0, 4.0, 0.0]);
    }

    #[test]
    fn a_ray_and_a_cast_meet_the_near_side() {
        let wall = JsShape::rect(10.0, -5.0, 1.0, 10.0).unwrap();
        assert!(raw_cast_ray(&wall, 0.0, 0.0, 1.0, 0.0, 100.0));
        assert_eq!(scratch::read(5), [10.0, 10.0, 0.0, -1.0, 0.0]);
        assert!(raw_cast_shapes(
            &circle(0.0, 1.0),
            100.0,
            0.0,
            &wall,
            0.0,
            0.0
        ));
        assert!((scratch::read(1)[0] - 0.09).abs() < 1e-6);
        raw_project_point(&wall, 0.0, 0.0);
        assert_eq!(scratch::read(3), [10.0, 0.0, 0.0]);
        assert!(contains_point(&wall, 10.0, 5.0));
        assert_eq!(distance_to_point(&wall, 8.0, 0.0), 2.0);
    }
}
