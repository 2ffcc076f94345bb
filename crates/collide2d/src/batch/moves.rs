//! Moving the elements of [`Circles`] and [`Aabbs`] in place: all by one translation, or each
//! by its own (bullets stepped by their velocities). One pass, block by block: a block's sums
//! are made and checked, then written in place when all are finite, with no branch per
//! element, so it vectorises (on AVX2's 8 lanes when the CPU has them, with a kernel of its own
//! in `avx2_moves.rs`; an AVX-512 one measured no faster, moving being bound by memory). The
//! deltas come as one for all, a `Vec2` per row, or per-row x and y columns (added as they
//! are, the cheapest per-row form). An element whose moved coordinates would not all be
//! finite stays where it is (the elements stay valid), and the first such one is reported.

use super::{Aabbs, Circles, Kernel};
use crate::error::ShapeError;
use crate::math::Vec2;
use alloc::format;
use core::ops::Range;

/// True for a finite `v`, as integer operations that vectorise (its exponent is not all ones).
#[inline(always)]
fn finite(v: f32) -> bool {
    v.to_bits() & 0x7f80_0000 != 0x7f80_0000
}

/// Rows per block of the portable [`step`]: its sums fit in registers (four 4-lane vectors a
/// column), so each column is read and written once.
const BLOCK: usize = 16;

/// [`step`] on the fastest kernel this CPU runs ([`Kernel::best`]: AVX2 or portable).
fn fastest_step<const N: usize>(
    columns: [(&mut [f32], &mut [f32]); N],
    deltas: Deltas<'_>,
) -> Option<usize> {
    Kernel::best().step(columns, deltas)
}

/// The deltas of a move: one for all rows, one per row, or one per row as x and y columns.
#[derive(Clone, Copy)]
pub(super) enum Deltas<'a> {
    All(Vec2),
    Each(&'a [Vec2]),
    Columns(&'a [f32], &'a [f32]),
}

impl Deltas<'_> {
    /// The delta of row `i`.
    pub(super) fn at(self, i: usize) -> Vec2 {
        match self {
            Deltas::All(d) => d,
            Deltas::Each(ds) => ds[i],
            Deltas::Columns(dxs, dys) => Vec2::new(dxs[i], dys[i]),
        }
    }

    /// The rows these deltas cover: any for `All`.
    pub(super) fn len(self) -> usize {
        match self {
            Deltas::All(_) => usize::MAX,
            Deltas::Each(ds) => ds.len(),
            Deltas::Columns(dxs, dys) => dxs.len().min(dys.len()),
        }
    }
}

/// The rows of `columns` (and of `deltas`) that [`step`] moves: the shortest length.
pub(super) fn rows<const N: usize>(
    columns: &[(&mut [f32], &mut [f32]); N],
    deltas: Deltas<'_>,
) -> usize {
    columns
        .iter()
        .map(|(x, y)| x.len().min(y.len()))
        .fold(deltas.len(), usize::min)
}

/// Moves row `i` of each pair of `columns` (of one length: a disc's center, or a box's two
/// corners, as `(xs, ys)`) by its delta, unless a moved coordinate of the row would not be
/// finite; returns the first row that stayed, if any.
pub(super) fn step<const N: usize>(
    mut columns: [(&mut [f32], &mut [f32]); N],
    deltas: Deltas<'_>,
) -> Option<usize> {
    let n = rows(&columns, deltas);
    let mut first_stayed = None;
    let mut start = 0;
    while start + BLOCK <= n {
        if !block(&mut columns, deltas, start) {
            first_stayed = first_stayed.or(one_by_one(&mut columns, deltas, start..start + BLOCK));
        }
        start += BLOCK;
    }
    first_stayed.or(one_by_one(&mut columns, deltas, start..n))
}

/// Moves rows `start..start + BLOCK` when every moved coordinate is finite (then `true`), else
/// changes nothing (`false`). The rows must exist.
#[inline(always)]
fn block<const N: usize>(
    columns: &mut [(&mut [f32], &mut [f32]); N],
    deltas: Deltas<'_>,
    start: usize,
) -> bool {
    let rows = start..start + BLOCK;
    let (mut dx, mut dy) = ([0.0; BLOCK], [0.0; BLOCK]);
    match deltas {
        Deltas::All(d) => (dx, dy) = ([d.x; BLOCK], [d.y; BLOCK]),
        Deltas::Each(ds) => {
            let Some(Ok(ds)) = ds.get(rows.clone()).map(<&[Vec2; BLOCK]>::try_from) else {
                return false;
            };
            for j in 0..BLOCK {
                (dx[j], dy[j]) = (ds[j].x, ds[j].y);
            }
        }
        Deltas::Columns(dxs, dys) => {
            let (Some(Ok(x)), Some(Ok(y))) = (
                dxs.get(rows.clone()).map(<[f32; BLOCK]>::try_from),
                dys.get(rows.clone()).map(<[f32; BLOCK]>::try_from),
            ) else {
                return false;
            };
            (dx, dy) = (x, y);
        }
    }
    let mut sums = [[[0.0f32; BLOCK]; 2]; N];
    let mut bad = 0u32;
    for ((xs, ys), sums) in columns.iter().zip(&mut sums) {
        let (Some(xs), Some(ys)) = (xs.get(rows.clone()), ys.get(rows.clone())) else {
            return false;
        };
        for j in 0..BLOCK {
            sums[0][j] = xs[j] + dx[j];
            sums[1][j] = ys[j] + dy[j];
            bad |= u32::from(!finite(sums[0][j])) | u32::from(!finite(sums[1][j]));
        }
    }
    if bad != 0 {
        return false;
    }
    for ((xs, ys), sums) in columns.iter_mut().zip(&sums) {
        xs[rows.clone()].copy_from_slice(&sums[0]);
        ys[rows.clone()].copy_from_slice(&sums[1]);
    }
    true
}

/// Moves each row of `rows` whose moved coordinates are all finite; returns the first that
/// stayed. The rare path: a block with a row that stays, and the last rows.
pub(super) fn one_by_one<const N: usize>(
    columns: &mut [(&mut [f32], &mut [f32]); N],
    deltas: Deltas<'_>,
    rows: Range<usize>,
) -> Option<usize> {
    let mut first_stayed = None;
    for i in rows {
        let d = deltas.at(i);
        let fits = |(xs, ys): &(&mut [f32], &mut [f32])| finite(xs[i] + d.x) && finite(ys[i] + d.y);
        if columns.iter().all(fits) {
            for (xs, ys) in columns.iter_mut() {
                (xs[i], ys[i]) = (xs[i] + d.x, ys[i] + d.y);
            }
        } else {
            first_stayed.get_or_insert(i);
        }
    }
    first_stayed
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
    /// of `deltas` stay): 20,000 bullets stepped by their velocities in one call. Moving reads
    /// more bytes than a query and writes the centers back: from L1 it takes less time than
    /// one [`intersecting`](Circles::intersecting) query over them, past it about as long or
    /// longer; velocities kept as x and y columns
    /// ([`translate_each_xy`](Circles::translate_each_xy)) cost fewer instructions.
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

    /// Moves disc `i` by `(dxs[i], dys[i])`, for each `i` below the three lengths (the others
    /// stay): [`translate_each`](Circles::translate_each) for velocities kept as two columns,
    /// as the discs' centers are. The cheapest way to step bullets by their own velocities:
    /// the columns are added lane by lane, with no pairs to split. Keep them in
    /// [`Column`](super::Column)s, 64-byte aligned as the centers are, so no load straddles
    /// two cache lines.
    ///
    /// ```
    /// use collide2d::{batch::{Circles, Column}, math::Vec2};
    /// let mut bullets = Circles::new();
    /// let (mut vxs, mut vys) = (Column::new(), Column::new());
    /// for i in 0..100 {
    ///     bullets.push(Vec2::new(i as f32, 0.0), 1.0)?;
    ///     (vxs.push(0.5), vys.push(i as f32 * 0.25));
    /// }
    /// bullets.translate_each_xy(&vxs, &vys)?; // one frame
    /// assert_eq!(bullets.get(8).unwrap().center(), Vec2::new(8.5, 2.0));
    /// # Ok::<(), collide2d::ShapeError>(())
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] for the first disc whose moved center would not be finite;
    /// such discs stay, the others move.
    pub fn translate_each_xy(&mut self, dxs: &[f32], dys: &[f32]) -> Result<(), ShapeError> {
        let n = self.xs.len().min(dxs.len()).min(dys.len());
        self.translate_by(n, Deltas::Columns(&dxs[..n], &dys[..n]))
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

    /// Moves box `i` by `(dxs[i], dys[i])`, for each `i` below the three lengths (the others
    /// stay): [`translate_each`](Aabbs::translate_each) for velocities kept as two columns
    /// (no pairs to split: the cheapest per-box move).
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] for the first box whose moved corners would not be finite;
    /// such boxes stay, the others move.
    pub fn translate_each_xy(&mut self, dxs: &[f32], dys: &[f32]) -> Result<(), ShapeError> {
        let n = self.min_xs.len().min(dxs.len()).min(dys.len());
        self.translate_by(n, Deltas::Columns(&dxs[..n], &dys[..n]))
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
    fn columns_of_deltas_move_as_their_pairs() {
        let (mut discs, mut boxes) = (Circles::new(), Aabbs::new());
        for i in 0..90 {
            let at = Vec2::new(i as f32 * 0.5, 7.0 - i as f32);
            discs.push(at, 1.0).unwrap();
            boxes.push(at, at + 2.0).unwrap();
        }
        // Deltas for the first 70 rows (y's column shorter: the first 60), one overflowing.
        let mut dxs: Vec<f32> = (0..70).map(|i| i as f32 * 0.3 - 5.0).collect();
        let dys: Vec<f32> = (0..60).map(|i| 1.0 / (i as f32 + 1.0)).collect();
        dxs[41] = f32::MAX;
        discs.replace(
            41,
            &crate::Circle::new(Vec2::new(f32::MAX, 0.0), 1.0).unwrap(),
        );
        boxes.replace(
            41,
            &crate::Aabb::new(Vec2::ZERO, Vec2::new(f32::MAX, 1.0)).unwrap(),
        );
        let pairs: Vec<Vec2> = dxs
            .iter()
            .zip(&dys)
            .map(|(&x, &y)| Vec2::new(x, y))
            .collect();
        let (mut want_discs, mut want_boxes) = (discs.clone(), boxes.clone());
        let want = want_discs.translate_each(&pairs).unwrap_err().to_string();
        assert_eq!(
            discs.translate_each_xy(&dxs, &dys).unwrap_err().to_string(),
            want
        );
        let want = want_boxes.translate_each(&pairs).unwrap_err().to_string();
        assert_eq!(
            boxes.translate_each_xy(&dxs, &dys).unwrap_err().to_string(),
            want
        );
        assert_eq!(want, "max_xs[41] moved must be finite, got inf");
        assert_eq!((discs, boxes), (want_discs, want_boxes));
    }

    #[test]
    fn blocks_past_the_first_move_and_refuse_alike() {
        let mut discs = Circles::new();
        // Whole blocks (of 16 rows, or 32 on AVX2), a bad row in the fourth, and shorter last
        // rows.
        let n = 4 * 32 + 37;
        for i in 0..n {
            discs.push(Vec2::new(i as f32, 0.0), 1.0).unwrap();
        }
        let bad = 3 * 32 + 5;
        discs.replace(
            bad,
            &crate::Circle::new(Vec2::new(f32::MAX, 0.0), 1.0).unwrap(),
        );
        let before = discs.clone();
        let err = discs.translate_all(Vec2::new(f32::MAX, 1.0)).unwrap_err();
        let want = format!("xs[{bad}] moved must be finite, got inf");
        assert_eq!(err.to_string(), want);
        for i in 0..n {
            let moved = if i == bad {
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

    /// Seeded columns and deltas of `n` rows: ordinary values, and a few huge ones (some sums
    /// overflow, or come near it: the blocks' own checks then overflow), signed zeros and
    /// subnormals.
    fn columns(seed: u32, n: usize) -> (Vec<Vec<f32>>, Vec<Vec2>) {
        let mut x = seed;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let v = (x >> 8) as f32 - 8e6;
            match x % 23 {
                0..=3 => f32::MAX * v.signum(),
                4 => f32::MAX / 6.0 * v.signum(),
                5 => -0.0,
                6 => f32::MIN_POSITIVE / 4.0 * v.signum(),
                _ => v * 0.37,
            }
        };
        let columns = (0..4).map(|_| (0..n).map(|_| next()).collect()).collect();
        let deltas = (0..n).map(|_| Vec2::new(next(), next())).collect();
        (columns, deltas)
    }

    fn bits(columns: &[Vec<f32>]) -> Vec<Vec<u32>> {
        columns
            .iter()
            .map(|c| c.iter().map(|v| v.to_bits()).collect())
            .collect()
    }

    #[test]
    fn every_kernel_steps_as_the_portable_one() {
        let kernels = Kernel::available();
        // Fewer under Miri (.ci/miri checks the kernels' unsafe code there): still every length
        // class below, around the blocks and longer.
        let seeds = if cfg!(miri) { 16 } else { 300 };
        for seed in 1..seeds {
            // Lengths around the blocks' (16, 32), and longer.
            let n = match seed % 4 {
                0 => seed as usize % 70,
                1 => 32 * (seed as usize % 5),
                _ => 100 + seed as usize * 7,
            };
            let (cols, deltas) = columns(seed, n);
            // Deltas per row (some rows shorter), as x and y columns (one shorter), and one
            // delta for all.
            let all = Deltas::All(deltas.first().copied().unwrap_or(Vec2::ONE));
            let dxs: Vec<f32> = deltas.iter().map(|d| d.x).collect();
            let dys: Vec<f32> = deltas.iter().map(|d| d.y).collect();
            let columns_of = [
                Deltas::Columns(&dxs, &dys),
                Deltas::Columns(&dxs, &dys[..n - n / 3]),
            ];
            let each = [Deltas::Each(&deltas), Deltas::Each(&deltas[..n / 2])];
            for deltas in each.into_iter().chain(columns_of).chain([all]) {
                let mut want = cols.clone();
                let [ax, ay, bx, by] = &mut want[..] else {
                    unreachable!()
                };
                let stayed = step([(&mut ax[..], &mut ay[..]), (bx, by)], deltas);
                let mut want_discs = cols.clone();
                let [ax, ay, ..] = &mut want_discs[..] else {
                    unreachable!()
                };
                let discs_stayed = step([(&mut ax[..], &mut ay[..])], deltas);
                for &kernel in &kernels {
                    let name = kernel.name();
                    let mut got = cols.clone();
                    let [ax, ay, bx, by] = &mut got[..] else {
                        unreachable!()
                    };
                    let got_stayed = kernel.step([(&mut ax[..], &mut ay[..]), (bx, by)], deltas);
                    assert_eq!(got_stayed, stayed, "{name} seed {seed}");
                    assert_eq!(bits(&got), bits(&want), "{name} seed {seed}");
                    let mut got = cols.clone();
                    let [ax, ay, ..] = &mut got[..] else {
                        unreachable!()
                    };
                    let got_stayed = kernel.step([(&mut ax[..], &mut ay[..])], deltas);
                    assert_eq!(got_stayed, discs_stayed, "{name} seed {seed}");
                    assert_eq!(bits(&got), bits(&want_discs), "{name} seed {seed}");
                }
                // Some rows stay (both coordinates huge and of one sign).
                if let (Deltas::Each(_) | Deltas::Columns(..), true) = (deltas, n >= 200) {
                    assert!(stayed.is_some_and(|i| i < deltas.len()), "seed {seed}");
                }
            }
        }
    }
}
