//! A small polygon's vertices in `f64`, x and y in separate fixed arrays: what the polygon
//! scans of [`convex`](super::convex) and [`minkowski`](super::minkowski) read two vertices per
//! SIMD operation, with no loop bounds to test.

use crate::math::Vec2;

/// A polygon's vertices in `f64`, x and y in separate arrays of `N` (even) slots: the slots
/// past the last vertex repeat it (a repeated vertex changes no minimum or maximum).
pub(crate) struct Soa<const N: usize> {
    pub(crate) x: [f64; N],
    pub(crate) y: [f64; N],
    /// The number of vertices given.
    pub(crate) len: usize,
}

impl<const N: usize> Soa<N> {
    /// The copy of `points` (1 to `N` of them).
    #[inline(always)]
    pub(crate) fn new(points: &[Vec2]) -> Soa<N> {
        debug_assert!(!points.is_empty() && points.len() <= N && N.is_multiple_of(2));
        let last = points.len() - 1;
        let at = |i: usize| points[i.min(last)];
        Soa {
            x: core::array::from_fn(|i| f64::from(at(i).x)),
            y: core::array::from_fn(|i| f64::from(at(i).y)),
            len: points.len(),
        }
    }
}
