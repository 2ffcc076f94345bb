//! A frame of bullets in one pass: move every element by its velocity, then test them all
//! against one probe ([`Circles::translate_each_xy_and_intersecting`],
//! [`Aabbs::translate_each_xy_and_intersecting`]). The two are done chunk by chunk: a chunk is
//! moved, then tested while its columns are still in L1, so the test reads no memory of its own
//! but the radii. Each chunk runs the same kernels as the separate calls, so the elements, the
//! indices and the error are theirs, bit for bit.

use super::moves::Deltas;
use super::{scan_rows, Aabbs, Circles, Items, Kernel};
use crate::error::ShapeError;
use crate::shape::Shape;
use alloc::vec::Vec;
use core::ops::{ControlFlow, Range};

/// Rows per chunk: a multiple of every kernel's block (32), and small enough that a chunk's
/// columns (positions, velocities, radii: 10 KiB for discs, 12 KiB for boxes) stay in L1
/// between the move and the test.
const CHUNK: usize = 512;

/// Moves rows `0..moved` of `items` (of `len` rows) by `step` (which moves the rows it is given
/// and returns the first that stayed), then tests every row against `probe` into `out`, chunk by
/// chunk. Returns the first row that stayed.
fn fused<I: Items>(
    kernel: Kernel,
    items: &mut I,
    (len, moved): (usize, usize),
    mut step: impl FnMut(&mut I, Range<usize>) -> Option<usize>,
    probe: &Shape,
    out: &mut Vec<usize>,
) -> Option<usize> {
    out.clear();
    let mut first_stayed = None;
    let mut start = 0;
    while start < len {
        let end = len.min(start + CHUNK);
        if start < moved {
            first_stayed = first_stayed.or(step(items, start..end.min(moved)));
        }
        let _ = scan_rows(kernel, items, probe, start..end, &mut |i| {
            out.push(i);
            ControlFlow::Continue(())
        });
        start = end;
    }
    first_stayed
}

impl Circles {
    /// [`translate_each_xy`](Circles::translate_each_xy)`(dxs, dys)`, then
    /// [`intersecting`](Circles::intersecting)`(probe, out)`, in one pass: a game's frame of
    /// bullets, stepped by their velocities and tested against the player. The discs, `out` and
    /// the result are those of the two calls, bit for bit (the query runs even when a disc
    /// stayed); it costs about the query alone plus the move's own writes, as the test reads
    /// the centers the move just wrote, from L1.
    ///
    /// ```
    /// use collide2d::{batch::{Circles, Column}, math::Vec2, Circle, Shape};
    /// let mut bullets = Circles::new();
    /// let (mut vxs, mut vys) = (Column::new(), Column::new());
    /// for i in 0..100 {
    ///     bullets.push(Vec2::new(i as f32 * 4.0, 10.0), 1.0)?;
    ///     (vxs.push(0.0), vys.push(-1.0));
    /// }
    /// let player: Shape = Circle::new(Vec2::new(20.0, 6.0), 2.0)?.into();
    /// let mut hits = Vec::new();
    /// bullets.translate_each_xy_and_intersecting(&vxs, &vys, &player, &mut hits)?;
    /// assert_eq!(hits, [5]); // the bullet at (20, 9) touches the player
    /// bullets.translate_each_xy_and_intersecting(&vxs, &vys, &player, &mut hits)?;
    /// assert_eq!(hits, [4, 5, 6]); // (20, 8), and (16, 8) and (24, 8) on the player's edge
    /// # Ok::<(), collide2d::ShapeError>(())
    /// ```
    ///
    /// # Errors
    /// As [`translate_each_xy`](Circles::translate_each_xy): [`ShapeError::NonFinite`] for the
    /// first disc whose moved center would not be finite; such discs stay, the others move,
    /// and `out` holds the hits all the same.
    pub fn translate_each_xy_and_intersecting(
        &mut self,
        dxs: &[f32],
        dys: &[f32],
        probe: &Shape,
        out: &mut Vec<usize>,
    ) -> Result<(), ShapeError> {
        self.translate_each_xy_and_intersecting_with(Kernel::best(), dxs, dys, probe, out)
    }

    /// [`translate_each_xy_and_intersecting`](Circles::translate_each_xy_and_intersecting) on
    /// `kernel`.
    fn translate_each_xy_and_intersecting_with(
        &mut self,
        kernel: Kernel,
        dxs: &[f32],
        dys: &[f32],
        probe: &Shape,
        out: &mut Vec<usize>,
    ) -> Result<(), ShapeError> {
        let len = self.len();
        let n = len.min(dxs.len()).min(dys.len());
        let step = |discs: &mut Circles, rows: Range<usize>| {
            let deltas = Deltas::Columns(&dxs[rows.clone()], &dys[rows.clone()]);
            let columns = [(&mut discs.xs[rows.clone()], &mut discs.ys[rows.clone()])];
            Some(rows.start + kernel.step(columns, deltas)?)
        };
        let stayed = fused(kernel, self, (len, n), step, probe, out);
        self.moved(n, Deltas::Columns(&dxs[..n], &dys[..n]), stayed)
    }
}

impl Aabbs {
    /// [`translate_each_xy`](Aabbs::translate_each_xy)`(dxs, dys)`, then
    /// [`intersecting`](Aabbs::intersecting)`(probe, out)`, in one pass, as
    /// [`Circles::translate_each_xy_and_intersecting`] does for discs: the boxes, `out` and the
    /// result are those of the two calls, bit for bit.
    ///
    /// ```
    /// use collide2d::{batch::Aabbs, math::Vec2, Aabb, Shape};
    /// let mut crates = Aabbs::new();
    /// crates.push(Vec2::new(0.0, 0.0), Vec2::new(1.0, 1.0))?;
    /// crates.push(Vec2::new(5.0, 0.0), Vec2::new(6.0, 1.0))?;
    /// let wall: Shape = Aabb::new(Vec2::new(2.0, -5.0), Vec2::new(3.0, 5.0))?.into();
    /// let mut hits = Vec::new();
    /// crates.translate_each_xy_and_intersecting(&[1.0, 0.5], &[0.0, 0.0], &wall, &mut hits)?;
    /// assert_eq!(hits, [0]); // moved to x = 1..2: touches the wall
    /// # Ok::<(), collide2d::ShapeError>(())
    /// ```
    ///
    /// # Errors
    /// As [`translate_each_xy`](Aabbs::translate_each_xy): [`ShapeError::NonFinite`] for the
    /// first box whose moved corners would not be finite; such boxes stay, the others move,
    /// and `out` holds the hits all the same.
    pub fn translate_each_xy_and_intersecting(
        &mut self,
        dxs: &[f32],
        dys: &[f32],
        probe: &Shape,
        out: &mut Vec<usize>,
    ) -> Result<(), ShapeError> {
        self.translate_each_xy_and_intersecting_with(Kernel::best(), dxs, dys, probe, out)
    }

    /// [`translate_each_xy_and_intersecting`](Aabbs::translate_each_xy_and_intersecting) on
    /// `kernel`.
    fn translate_each_xy_and_intersecting_with(
        &mut self,
        kernel: Kernel,
        dxs: &[f32],
        dys: &[f32],
        probe: &Shape,
        out: &mut Vec<usize>,
    ) -> Result<(), ShapeError> {
        let len = self.len();
        let n = len.min(dxs.len()).min(dys.len());
        let step = |boxes: &mut Aabbs, rows: Range<usize>| {
            let deltas = Deltas::Columns(&dxs[rows.clone()], &dys[rows.clone()]);
            let columns = [
                (
                    &mut boxes.min_xs[rows.clone()],
                    &mut boxes.min_ys[rows.clone()],
                ),
                (
                    &mut boxes.max_xs[rows.clone()],
                    &mut boxes.max_ys[rows.clone()],
                ),
            ];
            Some(rows.start + kernel.step(columns, deltas)?)
        };
        let stayed = fused(kernel, self, (len, n), step, probe, out);
        self.moved(n, Deltas::Columns(&dxs[..n], &dys[..n]), stayed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec2;
    use crate::shape::{Aabb, Circle, Segment};
    use alloc::vec;

    /// Seeded numbers: small integers (touching pairs), fractions, and now and then a huge
    /// value (moves that overflow and stay) or a signed zero.
    struct Numbers(u32);

    impl Numbers {
        fn next(&mut self) -> f32 {
            let x = &mut self.0;
            *x ^= *x << 13;
            *x ^= *x >> 17;
            *x ^= *x << 5;
            let small = (*x >> 20) as f32 / 64.0 - 32.0;
            match *x % 61 {
                0 => f32::MAX,
                1 => -f32::MAX,
                2 => -0.0,
                3..=30 => small.round(),
                _ => small,
            }
        }
    }

    fn bits(columns: &[&[f32]]) -> Vec<Vec<u32>> {
        columns
            .iter()
            .map(|c| c.iter().map(|v| v.to_bits()).collect())
            .collect()
    }

    #[test]
    fn one_pass_is_the_move_then_the_query_bit_for_bit() {
        let lengths: &[usize] = if cfg!(miri) {
            &[0, 37, 530]
        } else {
            &[0, 1, 31, 32, 100, 511, 512, 513, 1000, 1536, 2100]
        };
        let (mut seed, mut refused, mut hit) = (1, 0, 0);
        for &len in lengths {
            for kernel in Kernel::available() {
                seed += 1;
                let mut num = Numbers(seed * 7919);
                let (mut discs, mut boxes) = (Circles::new(), Aabbs::new());
                for _ in 0..len {
                    let at = Vec2::new(num.next(), num.next());
                    let (r, size) = (num.next().abs().min(4.0), Vec2::new(1.0, 2.0));
                    discs.push_circle(&Circle::new(at, r).unwrap_or(Circle::raw(at, 1.0)));
                    boxes.push_aabb(&Aabb::raw(at, at + size));
                }
                // Velocities for most rows only (the others stay), y's column shorter.
                let dxs: Vec<f32> = (0..len - len / 7).map(|_| num.next() * 0.25).collect();
                let dys: Vec<f32> = (0..len - len / 5).map(|_| num.next() * 0.25).collect();
                let probes: [Shape; 3] = [
                    Circle::raw(Vec2::new(num.next(), num.next()), 12.0).into(),
                    Aabb::raw(Vec2::new(-9.0, -3.0), Vec2::new(4.0, 6.0)).into(),
                    Segment::new(Vec2::new(-20.0, -20.0), Vec2::new(20.0, 15.0))
                        .unwrap()
                        .into(),
                ];
                for probe in &probes {
                    let name = kernel.name();
                    let (mut want_discs, mut got_discs) = (discs.clone(), discs.clone());
                    let (mut want, mut got) = (vec![], vec![]);
                    let want_result = want_discs.translate_each_xy(&dxs, &dys);
                    want_discs.intersecting_with(kernel, probe, &mut want);
                    let got_result = got_discs.translate_each_xy_and_intersecting_with(
                        kernel, &dxs, &dys, probe, &mut got,
                    );
                    assert_eq!(got_result, want_result, "{name} {len}");
                    assert_eq!(got, want, "{name} {len}");
                    (refused, hit) = (refused + usize::from(got_result.is_err()), hit + got.len());
                    let columns = |d: &Circles| bits(&[d.xs(), d.ys(), d.radii()]);
                    assert_eq!(columns(&got_discs), columns(&want_discs), "{name} {len}");

                    let (mut want_boxes, mut got_boxes) = (boxes.clone(), boxes.clone());
                    let want_result = want_boxes.translate_each_xy(&dxs, &dys);
                    want_boxes.intersecting_with(kernel, probe, &mut want);
                    let got_result = got_boxes.translate_each_xy_and_intersecting_with(
                        kernel, &dxs, &dys, probe, &mut got,
                    );
                    assert_eq!(got_result, want_result, "{name} {len}");
                    assert_eq!(got, want, "{name} {len}");
                    let columns =
                        |b: &Aabbs| bits(&[b.min_xs(), b.min_ys(), b.max_xs(), b.max_ys()]);
                    assert_eq!(columns(&got_boxes), columns(&want_boxes), "{name} {len}");
                }
            }
        }
        // Some moves were refused, and some probes hit.
        assert!(refused > 0 && hit > 0, "{refused} {hit}");
    }
}
