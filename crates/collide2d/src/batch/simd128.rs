//! The wasm32 `simd128` kernel: [`Simd4`] on `core::arch::wasm32`'s `v128`. WebAssembly has
//! no run-time feature detection, so this kernel exists only in builds that target the
//! feature (`-C target-feature=+simd128`), and every operation is safe there.

use super::filter::Sink;
use super::kernel::Filter;
use super::lanes4::{self, Simd4};
use core::arch::wasm32::*;
use core::ops::ControlFlow;

/// Proof that the build targets `simd128` (the type exists only then).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Simd128(());

impl Simd128 {
    /// Always `Some`: the build targets `simd128`, so every engine that loads it runs it.
    pub(super) fn detect() -> Option<Simd128> {
        Some(Simd128(()))
    }

    /// Runs `filter` over whole steps of lanes; returns how many lanes it covered.
    pub(super) fn scan(self, filter: Filter<'_>, sink: Sink<'_>) -> ControlFlow<(), usize> {
        lanes4::scan(self, filter, sink)
    }
}

impl Simd4 for Simd128 {
    type V = v128;
    type M = v128;
    #[inline(always)]
    fn load(self, l: &[f32; 4]) -> v128 {
        // One 16-byte load once compiled; safe, unlike `v128_load`.
        f32x4(l[0], l[1], l[2], l[3])
    }
    #[inline(always)]
    fn splat(self, v: f32) -> v128 {
        f32x4_splat(v)
    }
    #[inline(always)]
    fn add(self, a: v128, b: v128) -> v128 {
        f32x4_add(a, b)
    }
    #[inline(always)]
    fn sub(self, a: v128, b: v128) -> v128 {
        f32x4_sub(a, b)
    }
    #[inline(always)]
    fn mul(self, a: v128, b: v128) -> v128 {
        f32x4_mul(a, b)
    }
    #[inline(always)]
    fn clamp(self, c: v128, lo: v128, hi: v128) -> v128 {
        // The pseudo-min and -max (`b < a ? b : a`): one instruction each on x86 and ARM
        // (the NaN-propagating ones are several), equal to `filter::gap`'s selects.
        f32x4_pmin(f32x4_pmax(c, lo), hi)
    }
    #[inline(always)]
    fn abs(self, a: v128) -> v128 {
        f32x4_abs(a)
    }
    #[inline(always)]
    fn gt(self, a: v128, b: v128) -> v128 {
        f32x4_gt(a, b)
    }
    #[inline(always)]
    fn le(self, a: v128, b: v128) -> v128 {
        f32x4_le(a, b)
    }
    #[inline(always)]
    fn not(self, m: v128) -> v128 {
        v128_not(m)
    }
    #[inline(always)]
    fn and(self, a: v128, b: v128) -> v128 {
        v128_and(a, b)
    }
    #[inline(always)]
    fn or(self, a: v128, b: v128) -> v128 {
        v128_or(a, b)
    }
    #[inline(always)]
    fn any(self, m: v128) -> bool {
        v128_any_true(m)
    }
    #[inline(always)]
    fn bits(self, m: v128) -> u32 {
        u32::from(i32x4_bitmask(m))
    }
    #[inline(always)]
    fn signs(self, v: v128) -> u32 {
        // The sign bit of an f32 is that of the i32 with the same bits.
        u32::from(i32x4_bitmask(v))
    }
}
