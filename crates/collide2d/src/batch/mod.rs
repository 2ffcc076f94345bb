//! One shape against many: discs or boxes stored as structure-of-arrays ([`Circles`],
//! [`Aabbs`]), tested in bulk by a SIMD filter, for "did anything hit the player" queries.
//!
//! Answers are exact and the same as [`intersects`](crate::intersects) on each pair (shapes
//! are closed: touching is a hit). A point, circle or box probe goes through a certified
//! `f32` filter (AVX-512, AVX2 or portable Rust, chosen at run time: [`Kernel`]); the few
//! lanes it cannot certify, such as touching pairs, go to the exact scalar test. Any other
//! probe is filtered by its bounding box, then each candidate is tested exactly. Every kernel
//! gives the same indices in the same (ascending) order.
//!
//! ```
//! use collide2d::{batch::Circles, math::Vec2, Circle, Shape};
//! let mut bullets = Circles::new();
//! for x in 0..100 {
//!     bullets.push(Vec2::new(x as f32 * 10.0, 0.0), 2.0)?;
//! }
//! let player: Shape = Circle::new(Vec2::new(25.0, 0.0), 3.0)?.into();
//! let mut hits = Vec::new();
//! bullets.intersecting(&player, &mut hits);
//! assert_eq!(hits, [2, 3]); // the bullets at x = 20 and 30 touch the player
//! assert!(bullets.intersects_any(&player));
//! # Ok::<(), collide2d::ShapeError>(())
//! ```

use alloc::vec::Vec;
mod column;
mod filter;
mod kernel;
// The 4-lane kernels, chosen when the crate is built (no run-time detection on these targets).
#[cfg(any(
    all(target_arch = "wasm32", target_feature = "simd128"),
    all(target_arch = "aarch64", target_feature = "neon")
))]
mod lanes4;
mod moves;
mod portable;
mod soa;
// The SIMD kernels hold the crate's only unsafe code; each block states why it is sound.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod avx2;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod avx2_moves;
// `build.rs` sets `collide2d_avx512` only for Rust 1.89 or later, which has the intrinsics;
// Miri lacks them.
#[cfg(all(target_arch = "x86_64", collide2d_avx512, not(miri)))]
#[allow(unsafe_code)]
#[clippy::msrv = "1.89"]
mod avx512;
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
#[allow(unsafe_code)]
mod neon;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128;
#[cfg(test)]
mod tests;

pub use column::Column;
pub use kernel::Kernel;
pub use soa::{Aabbs, Circles};

use crate::shape::Shape;
use core::ops::ControlFlow;
use kernel::Filter;

/// A structure-of-arrays store the batch queries run over.
trait Items {
    /// The filter for `probe` and whether its certain hits are final (`true` for a point,
    /// circle or box probe) or only candidates for the exact test (a bounding-box filter).
    fn filter(&self, probe: &Shape) -> (Filter<'_>, bool);
    /// Element `i` as a shape, for the exact test.
    fn shape(&self, i: usize) -> Shape;
}

/// Calls `found` with each index of `items` that `probe` intersects, in ascending order,
/// until it breaks.
fn scan(
    kernel: Kernel,
    items: &impl Items,
    probe: &Shape,
    found: &mut dyn FnMut(usize) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let (filter, certain) = items.filter(probe);
    kernel.scan(filter, &mut |base, hit, undecided| {
        let mut lanes = hit | undecided;
        while lanes != 0 {
            let k = lanes.trailing_zeros();
            lanes &= lanes - 1;
            let i = base + k as usize;
            let is_hit = if certain && hit >> k & 1 == 1 {
                true
            } else {
                crate::intersects(probe, &items.shape(i))
            };
            if is_hit {
                found(i)?;
            }
        }
        ControlFlow::Continue(())
    })
}

/// Replaces `out`'s contents by the indices `probe` intersects, ascending.
fn collect(kernel: Kernel, items: &impl Items, probe: &Shape, out: &mut Vec<usize>) {
    out.clear();
    let _ = scan(kernel, items, probe, &mut |i| {
        out.push(i);
        ControlFlow::Continue(())
    });
}

/// True when `probe` intersects some element; stops at the first.
fn any(kernel: Kernel, items: &impl Items, probe: &Shape) -> bool {
    scan(kernel, items, probe, &mut |_| ControlFlow::Break(())).is_break()
}
