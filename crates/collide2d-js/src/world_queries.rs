//! A world's queries: point, overlap, ray and shape casts.

use collide2d::math::Vec2;
use collide2d::{Handle, Ray};
use wasm_bindgen::prelude::wasm_bindgen;

use crate::shape::JsShape;
use crate::world::{number, JsWorld};

fn numbers(handles: Vec<Handle>) -> Vec<f64> {
    handles.into_iter().map(number).collect()
}

#[wasm_bindgen(js_class = WorldCore)]
impl JsWorld {
    /// The objects containing `(x, y)` (boundary included) whose layer is in `mask`, in handle
    /// order.
    #[wasm_bindgen(js_name = objectsAtPoint)]
    #[must_use]
    pub fn objects_at_point(&self, x: f32, y: f32, mask: u32) -> Vec<f64> {
        numbers(
            self.world
                .objects_at_point(Vec2::new(x, y), u64::from(mask)),
        )
    }

    /// The objects intersecting `shape` (touching counts) whose layer is in `mask`.
    #[wasm_bindgen(js_name = objectsOverlapping)]
    #[must_use]
    pub fn objects_overlapping(&self, shape: &JsShape, mask: u32) -> Vec<f64> {
        numbers(
            self.world
                .objects_overlapping(&shape.shape, u64::from(mask)),
        )
    }

    /// Every object the ray from `(ox, oy)` along `(dx, dy)` meets for `t` in `[0, maxT]`,
    /// first hit first, 6 numbers each: `[handle, t, px, py, nx, ny]`. With `all` false, only
    /// the first.
    #[wasm_bindgen(js_name = castRay)]
    #[must_use]
    #[allow(clippy::too_many_arguments)]
    pub fn cast_ray(
        &self,
        ox: f32,
        oy: f32,
        dx: f32,
        dy: f32,
        #[wasm_bindgen(js_name = maxT)] max_t: f32,
        mask: u32,
        all: bool,
    ) -> Vec<f64> {
        let ray = Ray::new(Vec2::new(ox, oy), Vec2::new(dx, dy));
        let hits = if all {
            self.world.cast_ray_all(&ray, max_t, u64::from(mask))
        } else {
            self.world
                .cast_ray(&ray, max_t, u64::from(mask))
                .into_iter()
                .collect()
        };
        hits.into_iter()
            .flat_map(|(h, r)| {
                let rest = [r.t, r.point.x, r.point.y, r.normal.x, r.normal.y].map(f64::from);
                std::iter::once(number(h)).chain(rest)
            })
            .collect()
    }

    /// Every object `shape` touches when moved by `(dx, dy)`, by time then handle, 7 numbers
    /// each: `[handle, t, px, py, nx, ny, depth]` (normal from `shape` towards the object).
    /// With `all` false, only the first.
    #[wasm_bindgen(js_name = castShape)]
    #[must_use]
    pub fn cast_shape(&self, shape: &JsShape, dx: f32, dy: f32, mask: u32, all: bool) -> Vec<f64> {
        let (motion, mask) = (Vec2::new(dx, dy), u64::from(mask));
        let hits = if all {
            self.world.cast_shape_all(&shape.shape, motion, mask)
        } else {
            self.world
                .cast_shape(&shape.shape, motion, mask)
                .into_iter()
                .collect()
        };
        hits.into_iter()
            .flat_map(|(h, c)| {
                let rest = [c.t, c.point.x, c.point.y, c.normal.x, c.normal.y, c.depth];
                std::iter::once(number(h)).chain(rest.map(f64::from))
            })
            .collect()
    }
}
