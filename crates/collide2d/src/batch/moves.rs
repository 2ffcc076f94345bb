//! Moving the elements of [`Circles`] and [`Aabbs`] in place: all by one translation, or each
//! by its own (bullets stepped by their velocities). One pass over the columns, with no branch
//! per element, so the loop vectorises: moving 20,000 discs costs less than one query over
//! them. An element whose moved coordinates would not all be finite stays where it is (the
//! elements stay valid), and the first such one is reported.

use super::{Aabbs, Circles};
use crate::error::ShapeError;
use crate::math::Vec2;
use alloc::format;

/// True for a finite `v`, as integer operations that vectorise (its exponent is not all ones).
#[inline(always)]
fn finite(v: f32) -> bool {
    v.to_bits() & 0x7f80_0000 != 0x7f80_0000
}

/// Rows moved per chunk: the moved values of a chunk are computed into arrays on the stack,
/// in loops of fixed shape that vectorise, then copied back when all are finite.
const CHUNK: usize = 64;

/// Moves row `i` of `columns` (of one length: a disc's center, or a box's corners, even
/// columns moved along x and odd ones along y) by its delta, unless a moved coordinate of the
/// row would not be finite; returns the first row that stayed, if any. `fill(start, dx, dy)`
/// writes the deltas of the rows from `start` on, a chunk at a time.
fn step<const N: usize>(
    mut columns: [&mut [f32]; N],
    fill: impl Fn(usize, &mut [f32; CHUNK], &mut [f32; CHUNK]),
) -> Option<usize> {
    let n = columns.iter().map(|c| c.len()).min().unwrap_or(0);
    let (mut dx, mut dy) = ([0.0f32; CHUNK], [0.0f32; CHUNK]);
    let mut moved = [[0.0f32; CHUNK]; N];
    let mut first_stayed = None;
    let mut start = 0;
    while start < n {
        let len = CHUNK.min(n - start);
        fill(start, &mut dx, &mut dy);
        let mut bad = 0u32;
        for (k, (column, out)) in columns.iter().zip(&mut moved).enumerate() {
            let d = if k % 2 == 0 { &dx } else { &dy };
            let column = &column[start..start + len];
            bad |= match <&[f32; CHUNK]>::try_from(column) {
                // A whole chunk: loops of a fixed length, which vectorise fully.
                Ok(column) => add(column, d, out),
                Err(_) => add_tail(column, d, out),
            };
        }
        if bad == 0 {
            for (column, out) in columns.iter_mut().zip(&moved) {
                column[start..start + len].copy_from_slice(&out[..len]);
            }
        } else {
            // Rare: row by row, the rows with a coordinate out of range stay.
            for j in 0..len {
                if moved.iter().all(|out| finite(out[j])) {
                    for (column, out) in columns.iter_mut().zip(&moved) {
                        column[start + j] = out[j];
                    }
                } else {
                    first_stayed.get_or_insert(start + j);
                }
            }
        }
        start += len;
    }
    first_stayed
}

/// `out = column + d`, lane by lane; nonzero when a sum is not finite.
#[inline(always)]
fn add(column: &[f32; CHUNK], d: &[f32; CHUNK], out: &mut [f32; CHUNK]) -> u32 {
    let mut bad = 0;
    for j in 0..CHUNK {
        out[j] = column[j] + d[j];
        bad |= u32::from(!finite(out[j]));
    }
    bad
}

/// [`add`] for the last, shorter chunk.
fn add_tail(column: &[f32], d: &[f32; CHUNK], out: &mut [f32; CHUNK]) -> u32 {
    let mut bad = 0;
    for ((o, &x), &d) in out.iter_mut().zip(column).zip(d) {
        *o = x + d;
        bad |= u32::from(!finite(*o));
    }
    bad
}

/// `fill` for [`step`] from one delta per row.
fn each(deltas: &[Vec2]) -> impl Fn(usize, &mut [f32; CHUNK], &mut [f32; CHUNK]) + '_ {
    move |start, dx, dy| {
        let chunk = deltas.get(start..).unwrap_or_default();
        match <&[Vec2; CHUNK]>::try_from(chunk.get(..CHUNK).unwrap_or_default()) {
            Ok(chunk) => {
                for j in 0..CHUNK {
                    (dx[j], dy[j]) = (chunk[j].x, chunk[j].y);
                }
            }
            Err(_) => {
                for ((x, y), d) in dx.iter_mut().zip(dy.iter_mut()).zip(chunk) {
                    (*x, *y) = (d.x, d.y);
                }
            }
        }
    }
}

/// `fill` for [`step`] from one delta for all.
fn all(delta: Vec2) -> impl Fn(usize, &mut [f32; CHUNK], &mut [f32; CHUNK]) {
    move |_, dx, dy| {
        dx.fill(delta.x);
        dy.fill(delta.y);
    }
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
        self.translate_by(n, all(delta), |_| delta)
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
        self.translate_by(n, each(deltas), |i| deltas[i])
    }

    /// Moves the first `n` discs by the deltas `fill` gives, `delta(i)` for disc `i`.
    fn translate_by(
        &mut self,
        n: usize,
        fill: impl Fn(usize, &mut [f32; CHUNK], &mut [f32; CHUNK]),
        delta: impl Fn(usize) -> Vec2,
    ) -> Result<(), ShapeError> {
        let Some(i) = step([&mut self.xs[..n], &mut self.ys[..n]], fill) else {
            return Ok(());
        };
        let columns = [(&self.xs[..n], "xs"), (&self.ys[..n], "ys")];
        Err(stayed(columns, i, delta(i)))
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
        self.translate_by(n, all(delta), |_| delta)
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
        self.translate_by(n, each(deltas), |i| deltas[i])
    }

    /// Moves the first `n` boxes by the deltas `fill` gives, `delta(i)` for box `i`.
    fn translate_by(
        &mut self,
        n: usize,
        fill: impl Fn(usize, &mut [f32; CHUNK], &mut [f32; CHUNK]),
        delta: impl Fn(usize) -> Vec2,
    ) -> Result<(), ShapeError> {
        let columns = [
            &mut self.min_xs[..n],
            &mut self.min_ys[..n],
            &mut self.max_xs[..n],
            &mut self.max_ys[..n],
        ];
        let Some(i) = step(columns, fill) else {
            return Ok(());
        };
        let names = ["min_xs", "min_ys", "max_xs", "max_ys"];
        let columns = [&self.min_xs, &self.min_ys, &self.max_xs, &self.max_ys];
        let columns: [(&[f32], &str); 4] = core::array::from_fn(|k| (&columns[k][..n], names[k]));
        Err(stayed(columns, i, delta(i)))
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
        for i in 0..200 {
            discs.push(Vec2::new(i as f32, 0.0), 1.0).unwrap();
        }
        discs.replace(
            150,
            &crate::Circle::new(Vec2::new(f32::MAX, 0.0), 1.0).unwrap(),
        );
        let before = discs.clone();
        let err = discs.translate_all(Vec2::new(f32::MAX, 1.0)).unwrap_err();
        assert_eq!(err.to_string(), "xs[150] moved must be finite, got inf");
        for i in 0..200 {
            let moved = if i == 150 {
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
