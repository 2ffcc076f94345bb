//! [`JsWorld::move_shape`]: the character mover, `CollisionWorld::move_shape_with`, with its
//! settings passed as numbers.

use collide2d::math::Vec2;
use collide2d::{MoveSettings, Movement, Obstacles, Response};
use wasm_bindgen::prelude::{wasm_bindgen, JsError};

use crate::scratch;
use crate::shape::JsShape;
use crate::world::{number, JsWorld};

/// A response's code, as [`crate::world::response`] reads it.
fn code(r: Response) -> f64 {
    match r {
        Response::Slide => 0.0,
        Response::Stop => 1.0,
        Response::Cross => 2.0,
        Response::Bounce => 3.0,
        Response::OneWay { .. } => 4.0,
    }
}

/// The names of the numbers of `moveShape`'s `settings`, in order.
const SETTINGS: [&str; 8] = [
    "obstacles",
    "ignore",
    "up.x",
    "up.y",
    "maxSlope",
    "stepHeight",
    "snapToGround",
    "depenetrate",
];

/// A move's answer: `[dx, dy, ground handle (-1: none), nx, ny, px, py]` to the scratch
/// buffer; the contacts, 7 numbers each: `[handle, t, px, py, nx, ny, response]`.
fn answer(moved: &Movement) -> Vec<f64> {
    let ground = moved.ground.map_or([-1.0, 0.0, 0.0, 0.0, 0.0], |g| {
        let rest = [g.normal.x, g.normal.y, g.point.x, g.point.y].map(f64::from);
        [number(g.handle), rest[0], rest[1], rest[2], rest[3]]
    });
    let delta = [moved.delta.x, moved.delta.y].map(f64::from);
    scratch::write(&[
        delta[0], delta[1], ground[0], ground[1], ground[2], ground[3], ground[4],
    ]);
    moved
        .contacts
        .iter()
        .flat_map(|c| {
            let rest = [c.t, c.point.x, c.point.y, c.normal.x, c.normal.y].map(f64::from);
            std::iter::once(number(c.handle))
                .chain(rest)
                .chain([code(c.response)])
        })
        .collect()
}

#[wasm_bindgen(js_class = WorldCore)]
impl JsWorld {
    /// Moves `shape` (a box or capsule) by `(dx, dy)` through the objects whose layer is in
    /// `mask`, each answering with its response, as `move_shape_with` does. `settings` is 8
    /// numbers: `[obstacles (0 static only, 1 all), ignore (a handle, or -1), up.x, up.y,
    /// maxSlope (radians), stepHeight, snapToGround, depenetrate (0 or 1)]`; `platforms` is
    /// `[handle, dx, dy]` for each object moved this frame. Writes `[dx, dy, ground handle (-1:
    /// none), nx, ny, px, py]` to the scratch buffer and returns the contacts in order, 7
    /// numbers each: `[handle, t, px, py, nx, ny, response]` (normal out of the object).
    ///
    /// # Errors
    /// A settings number that is not finite, the wrong count of numbers, or a handle that
    /// names no live object; the message names it.
    #[wasm_bindgen(js_name = moveShape)]
    pub fn move_shape(
        &self,
        shape: &JsShape,
        dx: f32,
        dy: f32,
        mask: u32,
        settings: &[f64],
        platforms: &[f64],
    ) -> Result<Vec<f64>, JsError> {
        if settings.len() != SETTINGS.len() || !platforms.len().is_multiple_of(3) {
            return Err(JsError::new(&format!(
                "expected 8 settings and 3 numbers per platform, got {} and {}",
                settings.len(),
                platforms.len()
            )));
        }
        if let Some((name, v)) = SETTINGS.iter().zip(settings).find(|(_, v)| !v.is_finite()) {
            return Err(JsError::new(&format!("{name} must be finite, got {v}")));
        }
        let ignore = if settings[1] < 0.0 {
            None
        } else {
            let h = self.lookup(settings[1]);
            Some(h.map_err(|e| JsError::new(&format!("ignore: {e}")))?)
        };
        let mut moving = Vec::with_capacity(platforms.len() / 3);
        for (i, p) in platforms.chunks_exact(3).enumerate() {
            let h = self.lookup(p[0]);
            let h = h.map_err(|e| JsError::new(&format!("platforms[{i}]: {e}")))?;
            moving.push((h, Vec2::new(p[1] as f32, p[2] as f32)));
        }
        let obstacles = if settings[0] == 0.0 {
            Obstacles::StaticOnly
        } else {
            Obstacles::All
        };
        let s = MoveSettings {
            obstacles,
            ignore,
            up: Vec2::new(settings[2] as f32, settings[3] as f32),
            max_slope: settings[4] as f32,
            step_height: settings[5] as f32,
            snap_to_ground: settings[6] as f32,
            depenetrate: settings[7] != 0.0,
            platforms: &moving,
        };
        let motion = Vec2::new(dx, dy);
        let moved =
            self.world
                .move_shape_with(&shape.shape, motion, u64::from(mask), &s, |_, r| *r);
        Ok(answer(&moved))
    }
}
