//! [`Aabb`]: an axis-aligned box, also built from the corner-plus-size `rect` form.

use crate::error::{finite, finite_vec, non_negative, ShapeError};
use crate::math::Vec2;

/// A closed axis-aligned box from `min` to `max` (zero width or height allowed).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    min: Vec2,
    max: Vec2,
}

impl Aabb {
    /// The box from `min` to `max`.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] for a NaN or infinite coordinate; [`ShapeError::MinAboveMax`]
    /// when `min.x > max.x` or `min.y > max.y`.
    ///
    /// ```
    /// use collide2d::{math::Vec2, Aabb};
    /// let b = Aabb::new(Vec2::ZERO, Vec2::new(4.0, 2.0))?;
    /// assert_eq!(b.size(), Vec2::new(4.0, 2.0));
    /// let err = Aabb::new(Vec2::new(3.0, 0.0), Vec2::new(1.0, 1.0)).unwrap_err();
    /// assert_eq!(err.to_string(), "min.x must be <= max.x, got 3 > 1");
    /// # Ok::<(), collide2d::ShapeError>(())
    /// ```
    pub fn new(min: Vec2, max: Vec2) -> Result<Aabb, ShapeError> {
        finite_vec("min", min)?;
        finite_vec("max", max)?;
        for (axis, lo, hi) in [("x", min.x, max.x), ("y", min.y, max.y)] {
            if lo > hi {
                return Err(ShapeError::MinAboveMax {
                    axis,
                    min: lo,
                    max: hi,
                });
            }
        }
        Ok(Aabb { min, max })
    }

    /// The box with corner `(x, y)` and size `(w, h)`, as most game code writes rectangles:
    /// `min = (x, y)`, `max = (x + w, y + h)`, the sums rounded as `f32` addition rounds them.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] for a NaN or infinite field; [`ShapeError::Negative`] for a
    /// negative `w` or `h`; [`ShapeError::Overflow`] when `x + w` or `y + h` is not finite.
    ///
    /// ```
    /// use collide2d::{math::Vec2, Aabb};
    /// let r = Aabb::from_rect(10.0, 20.0, 32.0, 16.0)?;
    /// assert_eq!(r.max(), Vec2::new(42.0, 36.0));
    /// # Ok::<(), collide2d::ShapeError>(())
    /// ```
    pub fn from_rect(x: f32, y: f32, w: f32, h: f32) -> Result<Aabb, ShapeError> {
        let (x, y) = (finite("x", x)?, finite("y", y)?);
        let (w, h) = (non_negative("w", w)?, non_negative("h", h)?);
        let far = Vec2::new(x + w, y + h);
        if !far.x.is_finite() {
            return Err(ShapeError::Overflow {
                field: "x + w",
                origin: x,
                size: w,
            });
        }
        if !far.y.is_finite() {
            return Err(ShapeError::Overflow {
                field: "y + h",
                origin: y,
                size: h,
            });
        }
        Ok(Aabb {
            min: Vec2::new(x, y),
            max: far,
        })
    }

    /// The box from `min` to `max`, with no check in release builds: for values known valid
    /// (finite, `min <= max` on each axis), in hot loops or constants. Debug builds assert
    /// validity (in a constant, at compile time); [`new`](Self::new) checks and returns
    /// errors.
    ///
    /// ```
    /// use collide2d::{math::Vec2, Aabb};
    /// const TILE: Aabb = Aabb::new_unchecked(Vec2::ZERO, Vec2::splat(16.0));
    /// assert_eq!(TILE, Aabb::from_rect(0.0, 0.0, 16.0, 16.0)?);
    /// # Ok::<(), collide2d::ShapeError>(())
    /// ```
    #[must_use]
    pub const fn new_unchecked(min: Vec2, max: Vec2) -> Aabb {
        debug_assert!(
            min.x.is_finite()
                && min.y.is_finite()
                && max.x.is_finite()
                && max.y.is_finite()
                && min.x <= max.x
                && min.y <= max.y,
            "Aabb::new_unchecked: a coordinate is not finite or min is above max"
        );
        Aabb { min, max }
    }

    /// A box with no check beyond `min <= max` where comparable, for the library's own: the
    /// box of a shape moved past `±f32::MAX` has infinite or NaN coordinates, which the world
    /// refuses.
    pub(crate) fn raw(min: Vec2, max: Vec2) -> Aabb {
        debug_assert!(!min.cmpgt(max).any(), "bad box {min} {max}");
        Aabb { min, max }
    }

    /// The box widened by one ulp on every side, so rounding never leaves a shape outside it,
    /// and clamped to `±f32::MAX` (a shape reaching past `f32::MAX` still overlaps every box
    /// it meets, as no other shape reaches further than that).
    ///
    /// Every world move and update takes boxes through here, so the steps are written without
    /// branches; they give the bits of `x.next_down().max(f32::MIN)` and
    /// `x.next_up().min(f32::MAX)` for every `x` (tested on every class of input).
    #[inline]
    pub(crate) fn outward(self) -> Aabb {
        Aabb::outward_of([self.min.x, self.min.y, -self.max.x, -self.max.y])
    }

    /// [`outward`](Self::outward) of the box `[min.x, min.y, -max.x, -max.y]`: the four steps at
    /// once (`max` stepped as `-down(-max)`), one vector pass when the lanes come from one.
    #[inline]
    pub(crate) fn outward_of(lanes: [f32; 4]) -> Aabb {
        let [x0, y0, x1, y1] = down_clamped(lanes);
        Aabb {
            min: Vec2::new(x0, y0),
            max: Vec2::new(-x1, -y1),
        }
    }

    /// The lower corner.
    #[must_use]
    pub fn min(&self) -> Vec2 {
        self.min
    }

    /// The upper corner.
    #[must_use]
    pub fn max(&self) -> Vec2 {
        self.max
    }

    /// `max - min`, rounded once; infinite on an axis where the box spans more than
    /// `f32::MAX`.
    #[must_use]
    pub fn size(&self) -> Vec2 {
        self.max - self.min
    }

    /// `(max - min) / 2`, rounded once (finite for every box).
    pub(crate) fn half_size(&self) -> Vec2 {
        ((self.max.as_dvec2() - self.min.as_dvec2()) * 0.5).as_vec2()
    }

    /// The midpoint of the box, rounded once (finite for every box, even one near `f32::MAX`).
    #[must_use]
    pub fn center(&self) -> Vec2 {
        ((self.min.as_dvec2() + self.max.as_dvec2()) * 0.5).as_vec2()
    }

    /// The smallest box containing both.
    #[must_use]
    pub fn union(&self, other: &Aabb) -> Aabb {
        Aabb {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }

    /// The box itself (every shape has `aabb()`).
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        *self
    }

    /// The four corners, counter-clockwise from `min` (y up).
    #[must_use]
    pub fn corners(&self) -> [Vec2; 4] {
        [
            self.min,
            Vec2::new(self.max.x, self.min.y),
            self.max,
            Vec2::new(self.min.x, self.max.y),
        ]
    }

    /// True when the closed boxes share a point (touching counts). Exact: only comparisons,
    /// all four made (`&`, not `&&`): whether boxes overlap is seldom a pattern a branch could
    /// learn.
    #[must_use]
    #[inline]
    pub fn overlaps(&self, other: &Aabb) -> bool {
        (self.min.x <= other.max.x)
            & (other.min.x <= self.max.x)
            & (self.min.y <= other.max.y)
            & (other.min.y <= self.max.y)
    }
}

/// `x.next_down().max(f32::MIN)` of each lane, without branches: one step down in the bit
/// pattern (up in magnitude for a negative `x`), `-0.0` and `+0.0` to the smallest negative
/// subnormal, `-inf` and NaN to `f32::MIN`. On x86-64 as one SSE2 vector: the compiler splits
/// the portable loop into halves, twice the instructions.
#[cfg(target_arch = "x86_64")]
#[inline]
fn down_clamped(x: [f32; 4]) -> [f32; 4] {
    // SAFETY: SSE2 is part of the x86-64 baseline, so every x86-64 CPU runs `down_clamped_sse2`.
    #[allow(unsafe_code)]
    unsafe {
        down_clamped_sse2(x)
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
fn down_clamped_sse2(x: [f32; 4]) -> [f32; 4] {
    use core::arch::x86_64::*;
    let bits = _mm_castps_si128(glam::Vec4::from_array(x).into());
    let splat = _mm_set1_epi32;
    let select = |mask, a, b| _mm_or_si128(_mm_and_si128(mask, a), _mm_andnot_si128(mask, b));
    let magnitude = _mm_and_si128(bits, splat(0x7fff_ffff));
    let step = _mm_sub_epi32(bits, _mm_or_si128(_mm_srai_epi32(bits, 31), splat(1)));
    let nan = _mm_cmpgt_epi32(magnitude, splat(0x7f80_0000));
    let lowest = _mm_and_si128(
        _mm_cmplt_epi32(bits, _mm_setzero_si128()),
        _mm_cmpgt_epi32(magnitude, splat(0x7f7f_fffe)),
    );
    let clamp = _mm_or_si128(nan, lowest);
    let zero = _mm_cmpeq_epi32(magnitude, _mm_setzero_si128());
    let next = select(clamp, splat(f32::MIN.to_bits() as i32), step);
    let out = select(zero, splat(0x8000_0001_u32 as i32), next);
    glam::Vec4::from(_mm_castsi128_ps(out)).to_array()
}

#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn down_clamped(x: [f32; 4]) -> [f32; 4] {
    down_clamped_portable(x)
}

/// [`down_clamped`] lane by lane, the same integer steps.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline]
fn down_clamped_portable(x: [f32; 4]) -> [f32; 4] {
    // Integer masks rather than `if`s, which the compiler keeps as branches per lane.
    let select = |mask: i32, a: i32, b: i32| (a & mask) | (b & !mask);
    x.map(|x| {
        let bits = x.to_bits() as i32;
        let magnitude = bits & 0x7fff_ffff;
        // A positive pattern steps down, a negative one up (further from zero).
        let step = bits - ((bits >> 31) | 1);
        // NaN, and `f32::MIN` and `-inf` (which would step to `-inf` and a NaN), clamp to
        // `f32::MIN`; either zero goes to the smallest negative subnormal.
        let clamp =
            -i32::from((magnitude > 0x7f80_0000) | ((bits < 0) & (magnitude >= 0x7f7f_ffff)));
        let zero = -i32::from(magnitude == 0);
        let next = select(clamp, f32::MIN.to_bits() as i32, step);
        f32::from_bits(select(zero, 0x8000_0001_u32 as i32, next) as u32)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn outward_steps_are_next_down_and_next_up_clamped() {
        let reference_down = |x: f32| x.next_down().max(f32::MIN);
        let reference_up = |x: f32| x.next_up().min(f32::MAX);
        let mut cases = vec![
            0.0,
            -0.0,
            f32::MIN_POSITIVE,
            -f32::MIN_POSITIVE,
            f32::from_bits(1),
            -f32::from_bits(1),
            f32::MAX,
            f32::MIN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            -f32::NAN,
            f32::from_bits(0x7fff_ffff),
            f32::from_bits(0xffff_ffff),
            f32::from_bits(0x7f80_0001),
            f32::from_bits(0xff80_0001),
            1.0,
            -1.0,
        ];
        // A spread of patterns: every exponent, both signs, low and high mantissas.
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..200_000 {
            crate::test_support::xorshift_next(&mut state);
            cases.push(f32::from_bits(state as u32));
            cases.push(f32::from_bits((state >> 32) as u32 & 0x8000_00ff));
            cases.push(f32::from_bits((state >> 32) as u32 | 0x7f7f_ff00));
        }
        for x in cases {
            let b = Aabb {
                min: Vec2::splat(x),
                max: Vec2::splat(x),
            }
            .outward();
            let bits = x.to_bits();
            assert_eq!(
                b.min.x.to_bits(),
                reference_down(x).to_bits(),
                "down {bits:#x}"
            );
            assert_eq!(b.max.x.to_bits(), reference_up(x).to_bits(), "up {bits:#x}");
            let portable = down_clamped_portable([x, -x, x, x])[..2].to_vec();
            assert_eq!(
                portable[0].to_bits(),
                b.min.x.to_bits(),
                "portable {bits:#x}"
            );
            assert_eq!(
                (-portable[1]).to_bits(),
                b.max.x.to_bits(),
                "portable {bits:#x}"
            );
        }
    }
}
