//! Moving the elements of [`Circles`] and [`Aabbs`] in place: all by one translation, or each
//! by its own (bullets stepped by their velocities). Chunk by chunk, the sums are checked and
//! then written in place, in loops with no branch per element that vectorise (on AVX2's 8
//! lanes when the CPU has it): moving 20,000 discs costs less than one query over them. An
//! element whose moved coordinates would not all be finite stays where it is (the elements
//! stay valid), and the first such one is reported.

use super::{Aabbs, Circles};
use crate::error::ShapeError;
use crate::math::Vec2;
use alloc::format;
use core::ops::Range;

/// True for a finite `v`, as integer operations that vectorise (its exponent is not all ones).
#[inline(always)]
fn finite(v: f32) -> bool {
    v.to_bits() & 0x7f80_0000 != 0x7f80_0000
}

/// Rows per chunk: a chunk's sums are checked first (a read-only pass, which leaves the chunk
/// in L1 cache), then written in place when all are finite, so each column comes from memory
/// and goes back once, with no copy through the stack.
const CHUNK: usize = 256;

/// [`step`] compiled for the widest vectors this CPU has (AVX2's 8 lanes when found, else
/// the build's).
fn fastest_step<const N: usize>(
    columns: [(&mut [f32], &mut [f32]); N],
    deltas: Deltas<'_>,
) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if let Some(avx2) = super::avx2::Avx2::detect() {
        return avx2.step(columns, deltas);
    }
    step(columns, deltas)
}

/// The deltas of a move: one for all rows, or one per row.
#[derive(Clone, Copy)]
pub(super) enum Deltas<'a> {
    All(Vec2),
    Each(&'a [Vec2]),
}

/// Moves row `i` of each pair of `columns` (of one length: a disc's center, or a box's two
/// corners, as `(xs, ys)`) by its delta, unless a moved coordinate of the row would not be
/// finite; returns the first row that stayed, if any. Inlined into [`fastest_step`]'s
/// versions, each compiled for its CPU.
#[inline(always)]
pub(super) fn step<const N: usize>(
    mut columns: [(&mut [f32], &mut [f32]); N],
    deltas: Deltas<'_>,
) -> Option<usize> {
    let n = columns
        .iter()
        .map(|(x, y)| x.len().min(y.len()))
        .min()
        .unwrap_or(0);
    let mut first_stayed = None;
    let mut start = 0;
    while start < n {
        let rows = start..n.min(start + CHUNK);
        let mut bad = 0u32;
        for (xs, ys) in &mut columns {
            let (xs, ys) = (&mut xs[rows.clone()], &mut ys[rows.clone()]);
            bad |= deltas.chunk(rows.clone(), xs, ys, false);
        }
        if bad == 0 {
            for (xs, ys) in &mut columns {
                let (xs, ys) = (&mut xs[rows.clone()], &mut ys[rows.clone()]);
                deltas.chunk(rows.clone(), xs, ys, true);
            }
        } else {
            // Rare: row by row, the rows with a coordinate out of range stay.
            for i in rows.clone() {
                let d = deltas.at(i);
                let fits = |(xs, ys): &(&mut [f32], &mut [f32])| {
                    finite(xs[i] + d.x) && finite(ys[i] + d.y)
                };
                if columns.iter().all(fits) {
                    for (xs, ys) in &mut columns {
                        (xs[i], ys[i]) = (xs[i] + d.x, ys[i] + d.y);
                    }
                } else {
                    first_stayed.get_or_insert(i);
                }
            }
        }
        start = rows.end;
    }
    first_stayed
}

impl Deltas<'_> {
    /// The delta of row `i`.
    fn at(self, i: usize) -> Vec2 {
        match self {
            Deltas::All(d) => d,
            Deltas::Each(ds) => ds[i],
        }
    }

    /// [`chunk`] of `xs` and `ys`, rows `rows` of the columns, with these deltas.
    #[inline(always)]
    fn chunk(self, rows: Range<usize>, xs: &mut [f32], ys: &mut [f32], write: bool) -> u32 {
        match self {
            Deltas::All(d) => chunk(xs, ys, |_| d, write),
            Deltas::Each(ds) => {
                let ds = &ds[rows];
                match <&[Vec2; CHUNK]>::try_from(ds) {
                    Ok(ds) => chunk(xs, ys, |j| ds[j % CHUNK], write),
                    Err(_) => chunk(xs, ys, |j| ds[j], write),
                }
            }
        }
    }
}

/// Over rows `j` of `xs` and `ys` (at most [`CHUNK`]), the sums `(xs[j], ys[j]) + delta(j)`:
/// written when `write`, else only checked; nonzero when a sum is not finite. A whole chunk
/// runs as a loop of fixed length, which vectorises.
#[inline(always)]
fn chunk(xs: &mut [f32], ys: &mut [f32], delta: impl Fn(usize) -> Vec2, write: bool) -> u32 {
    let whole = (
        <&mut [f32; CHUNK]>::try_from(&mut *xs),
        <&mut [f32; CHUNK]>::try_from(&mut *ys),
    );
    if let (Ok(xs), Ok(ys)) = whole {
        return sums(xs, ys, delta, write);
    }
    sums(xs, ys, delta, write)
}

/// [`chunk`]'s loop.
#[inline(always)]
fn sums(xs: &mut [f32], ys: &mut [f32], delta: impl Fn(usize) -> Vec2, write: bool) -> u32 {
    let mut bad = 0;
    for (j, (x, y)) in xs.iter_mut().zip(ys).enumerate() {
        let (sx, sy) = (*x + delta(j).x, *y + delta(j).y);
        if write {
            (*x, *y) = (sx, sy);
        } else {
            bad |= u32::from(!finite(sx)) | u32::from(!finite(sy));
        }
    }
    bad
}

/// The error for row `i` of `columns`, which `delta` would move past the finite numbers (and
/// which [`step`] left where it was).
#[cold]
fn stayed<const N: usize>(columns: [(&[f32], &str); N], i: usize, delta: Vec2) -> ShapeError {
    for (k, (column, name)) in columns.iter().enumerate() {
        let got = column.get(i).map_or(f32::NAN, |x| x + delta[k % 2]);
        if !finite(got) {
            return ShapeError::NonFinite {
                field: format!("{name}[{i}] moved"),
                got,
            };
        }
    }
    ShapeError::NonFinite {
        field: format!("[{i}] moved"),
        got: f32::NAN,
    }
}

impl Circles {
    /// Moves every disc by `delta`.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] for the first disc whose moved center would not be finite
    /// (`delta` is not, or a center would pass `±f32::MAX`); such discs stay, the others move.
    pub fn translate_all(&mut self, delta: Vec2) -> Result<(), ShapeError> {
        let n = self.xs.len();
        self.translate_by(n, Deltas::All(delta))
    }

    /// Moves disc `i` by `deltas[i]`, for each `i` below both lengths (the discs past the end
    /// of `deltas` stay): 20,000 bullets stepped by their velocities in one call, costing less
    /// than one [`intersecting`](Circles::intersecting) query over them.
    ///
    /// ```
    /// use collide2d::{batch::Circles, math::Vec2};
    /// let mut bullets = Circles::new();
    /// bullets.push(Vec2::ZERO, 1.0)?;
    /// bullets.push(Vec2::new(5.0, 0.0), 1.0)?;
    /// let velocities = [Vec2::new(1.0, 0.0), Vec2::new(0.0, -2.0)];
    /// bullets.translate_each(&velocities)?;
    /// assert_eq!((bullets.xs(), bullets.ys()), (&[1.0, 5.0][..], &[0.0, -2.0][..]));
    /// # Ok::<(), collide2d::ShapeError>(())
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] for the first disc whose moved center would not be finite;
    /// such discs stay, the others move.
    pub fn translate_each(&mut self, deltas: &[Vec2]) -> Result<(), ShapeError> {
        let n = self.xs.len().min(deltas.len());
        self.translate_by(n, Deltas::Each(&deltas[..n]))
    }

    /// Moves the first `n` discs, disc `i` by `delta(i)`.
    fn translate_by(&mut self, n: usize, deltas: Deltas<'_>) -> Result<(), ShapeError> {
        let Some(i) = fastest_step([(&mut self.xs[..n], &mut self.ys[..n])], deltas) else {
            return Ok(());
        };
        let columns = [(&self.xs[..n], "xs"), (&self.ys[..n], "ys")];
        Err(stayed(columns, i, deltas.at(i)))
    }
}

impl Aabbs {
    /// Moves every box by `delta`.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] for the first box whose moved corners would not be finite;
    /// such boxes stay, the others move.
    pub fn translate_all(&mut self, delta: Vec2) -> Result<(), ShapeError> {
        let n = self.min_xs.len();
        self.translate_by(n, Deltas::All(delta))
    }

    /// Moves box `i` by `deltas[i]`, for each `i` below both lengths (the boxes past the end
    /// of `deltas` stay). A box's size may round by an ulp; `min <= max` holds (adding the same
    /// number keeps the order).
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] for the first box whose moved corners would not be finite;
    /// such boxes stay, the others move.
    pub fn translate_each(&mut self, deltas: &[Vec2]) -> Result<(), ShapeError> {
        let n = self.min_xs.len().min(deltas.len());
        self.translate_by(n, Deltas::Each(&deltas[..n]))
    }

    /// Moves the first `n` boxes, box `i` by `delta(i)`.
    fn translate_by(&mut self, n: usize, deltas: Deltas<'_>) -> Result<(), ShapeError> {
        let columns = [
            (&mut self.min_xs[..n], &mut self.min_ys[..n]),
            (&mut self.max_xs[..n], &mut self.max_ys[..n]),
        ];
        let Some(i) = fastest_step(columns, deltas) else {
            return Ok(());
        };
        let names = ["min_xs", "min_ys", "max_xs", "max_ys"];
        let columns = [&self.min_xs, &self.min_ys, &self.max_xs, &self.max_ys];
        let columns: [(&[f32], &str); 4] = core::array::from_fn(|k| (&columns[k][..n], names[k]));
        Err(stayed(columns, i, deltas.at(i)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec;
    use alloc::vec::Vec;

    #[test]
    fn moves_are_the_sums_and_a_refused_element_stays() {
        let mut discs = Circles::new();
        let mut boxes = Aabbs::new();
        for i in 0..40 {
            let at = Vec2::new(i as f32, -(i as f32));
            discs.push(at, 0.5).unwrap();
            boxes.push(at, at + 1.0).unwrap();
        }
        let deltas: Vec<Vec2> = (0..30).map(|i| Vec2::new(0.25 * i as f32, 3.0)).collect();
        let (d0, b0) = (discs.clone(), boxes.clone());
        discs.translate_each(&deltas).unwrap();
        boxes.translate_each(&deltas).unwrap();
        for i in 0..40 {
            let d = deltas.get(i).copied().unwrap_or(Vec2::ZERO);
            let (was, now) = (d0.get(i).unwrap(), discs.get(i).unwrap());
            assert_eq!(
                (now.center(), now.radius()),
                (was.center() + d, was.radius())
            );
            let (was, now) = (b0.get(i).unwrap(), boxes.get(i).unwrap());
            assert_eq!((now.min(), now.max()), (was.min() + d, was.max() + d));
        }
        discs.translate_all(Vec2::new(-1.0, 2.0)).unwrap();
        boxes.translate_all(Vec2::new(-1.0, 2.0)).unwrap();
        assert_eq!(discs.get(39).unwrap().center(), Vec2::new(38.0, -37.0));
        assert_eq!(boxes.get(0).unwrap().max(), Vec2::new(0.0, 6.0));
        // One element moved past f32::MAX (its y only): it stays, the others move; a NaN
        // moves none.
        let mut far = vec![Vec2::new(0.5, 0.0); 40];
        far[17] = Vec2::new(1.0, f32::MAX);
        far[20] = Vec2::new(0.0, f32::MAX);
        discs.translate_each(&far).unwrap();
        boxes.translate_each(&far).unwrap();
        let (d1, b1) = (discs.clone(), boxes.clone());
        let err = boxes.translate_each(&far).unwrap_err();
        assert_eq!(err.to_string(), "min_ys[17] moved must be finite, got inf");
        assert_eq!(
            discs.translate_each(&far).unwrap_err().to_string(),
            "ys[17] moved must be finite, got inf"
        );
        for (i, &step) in far.iter().enumerate() {
            let moved = if i == 17 || i == 20 { Vec2::ZERO } else { step };
            assert_eq!(
                discs.get(i).unwrap().center(),
                d1.get(i).unwrap().center() + moved,
                "{i}"
            );
            assert_eq!(
                boxes.get(i).unwrap().max(),
                b1.get(i).unwrap().max() + moved,
                "{i}"
            );
        }
        let (d1, b1) = (discs.clone(), boxes.clone());
        assert!(discs.translate_all(Vec2::new(f32::NAN, 0.0)).is_err());
        assert!(boxes.translate_all(Vec2::new(0.0, f32::INFINITY)).is_err());
        assert_eq!((discs, boxes), (d1, b1));
    }

    #[test]
    fn chunks_past_the_first_move_and_refuse_alike() {
        let mut discs = Circles::new();
        // Whole chunks of `CHUNK` rows, a bad row in the second, and a shorter last chunk.
        let n = 2 * CHUNK + 37;
        for i in 0..n {
            discs.push(Vec2::new(i as f32, 0.0), 1.0).unwrap();
        }
        discs.replace(
            CHUNK + 150,
            &crate::Circle::new(Vec2::new(f32::MAX, 0.0), 1.0).unwrap(),
        );
        let before = discs.clone();
        let err = discs.translate_all(Vec2::new(f32::MAX, 1.0)).unwrap_err();
        let want = format!("xs[{}] moved must be finite, got inf", CHUNK + 150);
        assert_eq!(err.to_string(), want);
        for i in 0..n {
            let moved = if i == CHUNK + 150 {
                Vec2::ZERO
            } else {
                Vec2::new(f32::MAX, 1.0)
            };
            assert_eq!(
                discs.get(i).unwrap().center(),
                before.get(i).unwrap().center() + moved
            );
        }
    }
}
