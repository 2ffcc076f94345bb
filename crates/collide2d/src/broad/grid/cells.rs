//! The grid's entries and cell keys: an object's cell is the one holding its box's `min` corner,
//! and a list sorted by `(row, min x)` is also sorted by cell key.

use crate::math::Vec2;
use crate::shape::Aabb;

/// One object in a list: its row and `min x` as one sort key, the column of its cell (the cell
/// of its box's `min` corner), its slot, and a copy of its box so the sweep reads memory in order.
/// Sorted by `order` (then slot), a list is also sorted by cell key, rows then columns, as the
/// column is a monotone function of `min x`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    /// The row, biased as in [`key`], in the high half; [`ordered`]`(min x)` in the low half.
    pub(super) order: u64,
    pub(super) slot: u32,
    /// The column.
    pub(super) cx: i32,
    pub(super) aabb: Aabb,
}

impl Entry {
    #[inline]
    pub(super) fn order(&self) -> (u64, u32) {
        (self.order, self.slot)
    }

    /// The biased row: consecutive rows give consecutive values.
    #[inline]
    pub(super) fn row(&self) -> u64 {
        self.order >> 32
    }

    /// The cell key, as [`key`].
    #[inline]
    pub(super) fn key(&self) -> u64 {
        (self.order & !0xffff_ffff) | u64::from(self.cx as u32 ^ 0x8000_0000)
    }
}

/// The bits of `x` as an integer with the order of the floats (`-0.0` just below `0.0`).
#[inline]
pub(super) fn ordered(x: f32) -> u32 {
    let b = x.to_bits();
    b ^ (((b as i32 >> 31) as u32) | 0x8000_0000)
}

/// The integer cell coordinate of `x`: `floor(x * inv)`, saturating at the `i32` range.
#[inline]
pub(super) fn cell_of(x: f32, inv: f32) -> i32 {
    let t = x * inv;
    let i = t as i32;
    // One less where the cast rounded up (a negative non-integer), without a branch.
    i.saturating_sub(i32::from((i as f32) > t))
}

/// [`cell_of`] of both coordinates of `p`. On x86-64 as one SSE2 vector: truncate, then one less
/// where that rounded up; a lane the truncation could not represent (`i32::MIN`, also for NaN and
/// out-of-range values) takes the scalar path, so the results are [`cell_of`]'s exactly. The
/// scalar form spends most of its instructions on saturation, twice.
#[inline]
pub(super) fn cells_of(p: Vec2, inv: f32) -> (i32, i32) {
    let [x, y, _, _] = cells4([p.x, p.y, 0.0, 0.0], inv);
    (x, y)
}

/// [`cell_of`] of each of `v`, by SSE2 when no lane needs the scalar path.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(super) fn cells4(v: [f32; 4], inv: f32) -> [i32; 4] {
    // SAFETY: SSE2 is part of the x86-64 baseline, so every x86-64 CPU runs `cells4_sse2`.
    #[allow(unsafe_code)]
    let cells = unsafe { cells4_sse2(v, inv) };
    cells.unwrap_or_else(|| v.map(|x| cell_of(x, inv)))
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
fn cells4_sse2(v: [f32; 4], inv: f32) -> Option<[i32; 4]> {
    use core::arch::x86_64::*;
    let t = _mm_mul_ps(_mm_set_ps(v[3], v[2], v[1], v[0]), _mm_set1_ps(inv));
    let i = _mm_cvttps_epi32(t);
    // The all-ones mask of a lane rounded up (negative non-integers) adds -1.
    let floor = _mm_add_epi32(i, _mm_castps_si128(_mm_cmpgt_ps(_mm_cvtepi32_ps(i), t)));
    let invalid = _mm_movemask_epi8(_mm_cmpeq_epi32(i, _mm_set1_epi32(i32::MIN)));
    (invalid == 0).then(|| {
        [
            _mm_cvtsi128_si32(floor),
            _mm_cvtsi128_si32(_mm_shuffle_epi32(floor, 1)),
            _mm_cvtsi128_si32(_mm_shuffle_epi32(floor, 2)),
            _mm_cvtsi128_si32(_mm_shuffle_epi32(floor, 3)),
        ]
    })
}

#[cfg(not(target_arch = "x86_64"))]
#[inline]
pub(super) fn cells4(v: [f32; 4], inv: f32) -> [i32; 4] {
    v.map(|x| cell_of(x, inv))
}

/// True when the box spans at most two cells on each axis: then any box overlapping it is keyed
/// within one cell of its key (`cell_of` is monotone), whatever the rounding.
#[inline]
pub(super) fn fits(b: &Aabb, inv: f32) -> bool {
    let span = |lo: f32, hi: f32| i64::from(cell_of(hi, inv)) - i64::from(cell_of(lo, inv)) <= 1;
    span(b.min().x, b.max().x) && span(b.min().y, b.max().y)
}

/// The sort key of cell `(cx, cy)`: rows first, then columns, both in increasing order.
#[inline]
pub(super) fn key(cx: i32, cy: i32) -> u64 {
    (u64::from(cy as u32 ^ 0x8000_0000) << 32) | u64::from(cx as u32 ^ 0x8000_0000)
}

#[inline]
pub(super) fn unkey(k: u64) -> (i32, i32) {
    (
        (k as u32 ^ 0x8000_0000) as i32,
        ((k >> 32) as u32 ^ 0x8000_0000) as i32,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_cells_match_cell_of() {
        let xs = [
            0.0f32,
            -0.0,
            0.5,
            -0.5,
            -1.0,
            3.999_999_8,
            -4.000_000_5,
            1e-40,
            -1e-40,
            8.589_934e9,
            -8.589_934e9,
            8.589_935e9,
            -8.589_936e9,
            1e30,
            -1e30,
            f32::MAX,
            f32::MIN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        for inv in [0.25f32, 1.0, 0.3, 4.0] {
            for &x in &xs {
                for &y in &xs {
                    let want = (cell_of(x, inv), cell_of(y, inv));
                    assert_eq!(cells_of(Vec2::new(x, y), inv), want, "{x} {y} {inv}");
                    // The four lanes with the other two on the vector path or off it (a NaN
                    // lane takes the scalar path for all four), and a box's corners.
                    for z in [0.0, x, f32::NAN] {
                        let want4 = [x, y, z, y].map(|v| cell_of(v, inv));
                        assert_eq!(cells4([x, y, z, y], inv), want4, "{x} {y} {z} {inv}");
                    }
                }
            }
        }
    }

    #[test]
    fn floor_matches_the_standard_one() {
        for x in [-2.5f32, -2.0, -1e-30, -0.0, 0.0, 0.3, 1.0, 7.9, 1e20, -1e20] {
            let want = (x * 0.5).floor() as i32;
            assert_eq!(cell_of(x, 0.5), want, "{x}");
        }
        assert_eq!(cell_of(f32::NAN, 1.0), 0);
    }

    #[test]
    fn ordered_bits_sort_as_the_floats() {
        let xs = [
            f32::MIN,
            -1e20,
            -2.5,
            -1e-40,
            -0.0,
            0.0,
            1e-40,
            0.3,
            7.9,
            f32::MAX,
        ];
        for w in xs.windows(2) {
            assert!(ordered(w[0]) < ordered(w[1]), "{} {}", w[0], w[1]);
        }
    }

    #[test]
    fn keys_sort_rows_then_columns() {
        assert!(key(5, -1) < key(-5, 0));
        assert!(key(-1, 0) < key(0, 0));
        assert_eq!(unkey(key(-7, 9)), (-7, 9));
    }
}
