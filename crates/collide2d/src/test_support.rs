//! Shared fixtures for the unit tests.

use crate::math::Vec2;
use crate::shape::{Aabb, Polygon, Shape};

/// Shorthand for `Vec2::new`.
pub(crate) fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// The axis-aligned box from `(x0, y0)` to `(x1, y1)`.
pub(crate) fn boxed(x0: f32, y0: f32, x1: f32, y1: f32) -> Shape {
    Aabb::new(v(x0, y0), v(x1, y1)).unwrap().into()
}

/// An L of area 3, counter-clockwise, with its reflex corner at `(1, 1)`.
pub(crate) fn l_ring() -> [Vec2; 6] {
    [
        (0.0, 0.0),
        (2.0, 0.0),
        (2.0, 1.0),
        (1.0, 1.0),
        (1.0, 2.0),
        (0.0, 2.0),
    ]
    .map(|(x, y)| v(x, y))
}

/// [`l_ring`] as a polygon.
pub(crate) fn l_shape() -> Shape {
    Polygon::new(&l_ring()).unwrap().into()
}

/// Marsaglia's xorshift64 from `state` (not zero): many varied cases for a seeded test
/// without a strategy.
pub(crate) fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
    move || xorshift_next(&mut state)
}

/// One step of [`xorshift`] (shifts 13, 7, 17), for a test that keeps its own state.
pub(crate) fn xorshift_next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// One step of Marsaglia's 32-bit xorshift (shifts 13, 17, 5) from `state` (not zero).
pub(crate) fn xorshift32_next(state: &mut u32) -> u32 {
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    *state
}
