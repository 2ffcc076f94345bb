//! A world's frame: [`JsWorld::update`] and what it found, as typed arrays.

use collide2d::Handle;
use wasm_bindgen::prelude::wasm_bindgen;

use crate::scratch;
use crate::world::{contact_list, number, JsWorld};

/// `[a0, b0, a1, b1, ...]` as handle numbers.
fn flat(pairs: impl Iterator<Item = (Handle, Handle)>) -> Vec<f64> {
    pairs.flat_map(|(a, b)| [number(a), number(b)]).collect()
}

#[wasm_bindgen(js_class = WorldCore)]
impl JsWorld {
    /// Finds the colliding pairs; writes `[objects, candidates, pairs, began, ended]`.
    pub fn update(&mut self) {
        let s = self.world.update();
        let counts = [s.objects, s.candidates, s.pairs, s.began, s.ended];
        scratch::write(&counts.map(|n| n as f64));
    }

    /// The colliding pairs of the last update, `[a0, b0, a1, b1, ...]`: `a` before `b` in
    /// handle order, pairs sorted by `a` then `b`.
    #[must_use]
    pub fn pairs(&self) -> Vec<f64> {
        flat(self.world.pairs().iter().map(|p| (p.a, p.b)))
    }

    /// Each pair's time of impact in `[0, 1]` (a pair with a fast object), NaN for the others.
    #[wasm_bindgen(js_name = pairTimes)]
    #[must_use]
    pub fn pair_times(&self) -> Vec<f32> {
        self.world
            .pairs()
            .iter()
            .map(|p| p.toi.unwrap_or(f32::NAN))
            .collect()
    }

    /// Each pair's contact when contacts are on, 8 numbers each: `[nx, ny, depth, count, p0x,
    /// p0y, p1x, p1y]` (normal from `a` towards `b`); empty when they are off.
    #[must_use]
    pub fn contacts(&self) -> Vec<f32> {
        contact_list(self.world.contacts())
    }

    /// The pairs that began colliding at the last update, as [`pairs`](Self::pairs).
    #[must_use]
    pub fn began(&self) -> Vec<f64> {
        flat(self.world.began().iter().copied())
    }

    /// The pairs that stopped colliding (or lost an object) at the last update.
    #[must_use]
    pub fn ended(&self) -> Vec<f64> {
        flat(self.world.ended().iter().copied())
    }
}
