//! The aarch64 NEON kernel: [`Simd4`] on `core::arch::aarch64`. NEON is part of every
//! aarch64 target that has `target_feature = "neon"` (all the Linux, macOS, Android and
//! Windows ones), so this kernel is chosen when the crate is built, like `simd128`.
// Before Rust 1.87 every intrinsic call needs `unsafe`; since, only the load does.
#![allow(unused_unsafe)]

use super::filter::Sink;
use super::kernel::Filter;
use super::lanes4::{self, Simd4};
use core::arch::aarch64::*;
use core::ops::ControlFlow;

/// Proof that the build targets NEON (the type exists only then).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Neon(());

impl Neon {
    /// Always `Some`: the build targets NEON.
    pub(super) fn detect() -> Option<Neon> {
        Some(Neon(()))
    }

    /// Runs `filter` over whole steps of lanes; returns how many lanes it covered.
    pub(super) fn scan(self, filter: Filter<'_>, sink: Sink<'_>) -> ControlFlow<(), usize> {
        lanes4::scan(self, filter, sink)
    }
}

// SAFETY (every block below): the build targets NEON (this module is compiled only then),
// and the intrinsics touch registers only, except `vld1q_f32`, which reads the four floats of
// the array it is given.
impl Simd4 for Neon {
    type V = float32x4_t;
    type M = uint32x4_t;
    #[inline(always)]
    fn load(self, l: &[f32; 4]) -> float32x4_t {
        unsafe { vld1q_f32(l.as_ptr()) }
    }
    #[inline(always)]
    fn splat(self, v: f32) -> float32x4_t {
        unsafe { vdupq_n_f32(v) }
    }
    #[inline(always)]
    fn add(self, a: float32x4_t, b: float32x4_t) -> float32x4_t {
        unsafe { vaddq_f32(a, b) }
    }
    #[inline(always)]
    fn sub(self, a: float32x4_t, b: float32x4_t) -> float32x4_t {
        unsafe { vsubq_f32(a, b) }
    }
    #[inline(always)]
    fn mul(self, a: float32x4_t, b: float32x4_t) -> float32x4_t {
        unsafe { vmulq_f32(a, b) }
    }
    #[inline(always)]
    fn clamp(self, c: float32x4_t, lo: float32x4_t, hi: float32x4_t) -> float32x4_t {
        unsafe { vminq_f32(vmaxq_f32(c, lo), hi) }
    }
    #[inline(always)]
    fn abs(self, a: float32x4_t) -> float32x4_t {
        unsafe { vabsq_f32(a) }
    }
    #[inline(always)]
    fn gt(self, a: float32x4_t, b: float32x4_t) -> uint32x4_t {
        unsafe { vcgtq_f32(a, b) }
    }
    #[inline(always)]
    fn le(self, a: float32x4_t, b: float32x4_t) -> uint32x4_t {
        unsafe { vcleq_f32(a, b) }
    }
    #[inline(always)]
    fn not(self, m: uint32x4_t) -> uint32x4_t {
        unsafe { vmvnq_u32(m) }
    }
    #[inline(always)]
    fn and(self, a: uint32x4_t, b: uint32x4_t) -> uint32x4_t {
        unsafe { vandq_u32(a, b) }
    }
    #[inline(always)]
    fn or(self, a: uint32x4_t, b: uint32x4_t) -> uint32x4_t {
        unsafe { vorrq_u32(a, b) }
    }
    #[inline(always)]
    fn any(self, m: uint32x4_t) -> bool {
        unsafe { vmaxvq_u32(m) != 0 }
    }
    #[inline(always)]
    fn bits(self, m: uint32x4_t) -> u32 {
        // Lane k's mask ANDed with 2^k, summed across lanes.
        unsafe { vaddvq_u32(vandq_u32(m, vld1q_u32([1, 2, 4, 8].as_ptr()))) }
    }
    #[inline(always)]
    fn signs(self, v: float32x4_t) -> u32 {
        // The sign bit of an f32 is that of the i32 with the same bits.
        unsafe { self.bits(vcltzq_s32(vreinterpretq_s32_f32(v))) }
    }
}
