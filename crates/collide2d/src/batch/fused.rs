//! Moving every element by its own delta and querying the moved elements in one pass
//! (`translate_each_xy_and_intersecting`): each row is moved, stored, and tested while its
//! moved position is still in registers, so the centers are read once where
//! `translate_each_xy` then `intersecting` read them twice. The same results as those two
//! calls, bit for bit: each row moves or stays by its own sums, and each lane's test is the
//! filter of `filter.rs` on the position the row ends at.
//!
//! The AVX-512 and AVX2 kernels have a pass of their own (`avx512_fused.rs`,
//! `avx2_fused.rs`); the other kernels move a block of [`BLOCK`] rows, then query it while it
//! is in L1.

use super::kernel::{Filter, Kernel};
use super::moves::Deltas;
use super::{Aabbs, Circles, Items};
use crate::error::ShapeError;
use crate::math::Vec2;
use crate::shape::{Aabb, Circle, Shape};
use alloc::vec::Vec;
use core::ops::{ControlFlow, Range};

/// Rows per block of the pass of the kernels without one of their own.
const BLOCK: usize = 256;

/// Receives the lanes of one step that the filter hit or left undecided, as the scan's
/// [`Sink`](super::filter::Sink) does, with the item columns (moved) from the step's first
/// row on: `(base, hit, undecided, items)`, lane `k` being row `base + k` and `items[c][k]`.
pub(super) type FusedSink<'a> = &'a mut dyn FnMut(usize, u32, u32, [&[f32]; 4]);

/// The columns of a fused pass over `n` rows: the moved pairs (a disc's center; a box's two
/// corners), the radii for discs (empty for boxes) and the deltas; every one holds `n` rows.
pub(super) struct Rows<'a, const N: usize> {
    pub(super) pairs: [(&'a mut [f32], &'a mut [f32]); N],
    pub(super) radii: &'a [f32],
    pub(super) dxs: &'a [f32],
    pub(super) dys: &'a [f32],
    pub(super) n: usize,
}

impl<const N: usize> Rows<'_, N> {
    /// The item columns of `rows`, in the filter's order: `[xs, ys, radii, -]` for discs,
    /// `[min xs, min ys, max xs, max ys]` for boxes.
    pub(super) fn items(&self, rows: Range<usize>) -> [&[f32]; 4] {
        let mut items: [&[f32]; 4] = [&[]; 4];
        for (k, (xs, ys)) in self.pairs.iter().enumerate() {
            items[2 * k] = &xs[rows.clone()];
            items[2 * k + 1] = &ys[rows.clone()];
        }
        if N == 1 {
            items[2] = &self.radii[rows];
        }
        items
    }

    /// Moves `rows` by `kernel`'s step; returns the first that stayed.
    fn step(&mut self, kernel: Kernel, rows: Range<usize>) -> Option<usize> {
        let pairs = self
            .pairs
            .each_mut()
            .map(|(xs, ys)| (&mut xs[rows.clone()], &mut ys[rows.clone()]));
        let deltas = Deltas::Columns(&self.dxs[rows.clone()], &self.dys[rows.clone()]);
        kernel.step(pairs, deltas).map(|k| rows.start + k)
    }
}

/// Moves rows `start..rows.n` and runs `filter` (its items unused) over them as moved, a block
/// of [`BLOCK`] rows at a time, on `kernel`'s step and scan; returns the first row that
/// stayed.
pub(super) fn blocks<const N: usize>(
    kernel: Kernel,
    rows: &mut Rows<'_, N>,
    start: usize,
    filter: Filter<'_>,
    sink: FusedSink<'_>,
) -> Option<usize> {
    let mut first_stayed = None;
    let mut begin = start;
    while begin < rows.n {
        let end = rows.n.min(begin + BLOCK);
        first_stayed = first_stayed.or(rows.step(kernel, begin..end));
        let rows = &*rows;
        let _ = kernel.scan(
            filter.over(rows.items(begin..end)),
            &mut |base, hit, undecided| {
                let at = begin + base;
                sink(at, hit, undecided, rows.items(at..end));
                ControlFlow::Continue(())
            },
        );
        begin = end;
    }
    first_stayed
}

/// A store whose elements can be moved and queried in one pass.
trait Fused: Items {
    /// Element `k` of `items` (as [`Rows::items`] gives them), as a shape.
    fn shape_of(items: [&[f32]; 4], k: usize) -> Shape;
    /// The number of elements.
    fn count(&self) -> usize;
    /// [`run`] over the elements: the pass over the first `deltas.0.len()` (which the
    /// deltas cover), the query alone over the others.
    fn pass(
        &mut self,
        kernel: Kernel,
        deltas: (&[f32], &[f32]),
        filter: Filter<'_>,
        probe: (&Shape, bool),
        out: &mut Vec<usize>,
    ) -> Option<usize>;
    /// The error for element `i` of the first `n`, which `delta` would have moved past the
    /// finite numbers.
    fn refused(&self, n: usize, i: usize, delta: Vec2) -> ShapeError;
}

impl Fused for Circles {
    fn shape_of([xs, ys, radii, _]: [&[f32]; 4], k: usize) -> Shape {
        Shape::Circle(Circle::raw(Vec2::new(xs[k], ys[k]), radii[k]))
    }

    fn count(&self) -> usize {
        self.len()
    }

    fn pass(
        &mut self,
        kernel: Kernel,
        (dxs, dys): (&[f32], &[f32]),
        filter: Filter<'_>,
        probe: (&Shape, bool),
        out: &mut Vec<usize>,
    ) -> Option<usize> {
        let n = dxs.len();
        let (xs, xs_tail) = self.xs.split_at_mut(n);
        let (ys, ys_tail) = self.ys.split_at_mut(n);
        let (radii, radii_tail) = self.radii.split_at(n);
        let (pairs, tail) = ([(xs, ys)], [&xs_tail[..], &ys_tail[..], radii_tail, &[]]);
        let rows = Rows {
            pairs,
            radii,
            dxs,
            dys,
            n,
        };
        run::<Circles, 1>(kernel, rows, filter, probe, tail, out)
    }

    fn refused(&self, n: usize, i: usize, delta: Vec2) -> ShapeError {
        Circles::refused(self, n, i, delta)
    }
}

impl Fused for Aabbs {
    fn shape_of([x0s, y0s, x1s, y1s]: [&[f32]; 4], k: usize) -> Shape {
        Shape::Aabb(Aabb::raw(
            Vec2::new(x0s[k], y0s[k]),
            Vec2::new(x1s[k], y1s[k]),
        ))
    }

    fn count(&self) -> usize {
        self.len()
    }

    fn pass(
        &mut self,
        kernel: Kernel,
        (dxs, dys): (&[f32], &[f32]),
        filter: Filter<'_>,
        probe: (&Shape, bool),
        out: &mut Vec<usize>,
    ) -> Option<usize> {
        let n = dxs.len();
        let (x0s, x0s_tail) = self.min_xs.split_at_mut(n);
        let (y0s, y0s_tail) = self.min_ys.split_at_mut(n);
        let (x1s, x1s_tail) = self.max_xs.split_at_mut(n);
        let (y1s, y1s_tail) = self.max_ys.split_at_mut(n);
        let pairs = [(x0s, y0s), (x1s, y1s)];
        let tail = [&x0s_tail[..], &y0s_tail[..], &x1s_tail[..], &y1s_tail[..]];
        let rows = Rows {
            pairs,
            radii: &[],
            dxs,
            dys,
            n,
        };
        run::<Aabbs, 2>(kernel, rows, filter, probe, tail, out)
    }

    fn refused(&self, n: usize, i: usize, delta: Vec2) -> ShapeError {
        Aabbs::refused(self, n, i, delta)
    }
}

/// Moves element `i` of `store` by `(dxs[i], dys[i])` for each `i` below the three lengths,
/// then puts in `out` the indices of the elements `probe` intersects, in one pass on `kernel`.
fn fused<T: Fused>(
    store: &mut T,
    kernel: Kernel,
    (dxs, dys): (&[f32], &[f32]),
    probe: &Shape,
    out: &mut Vec<usize>,
) -> Result<(), ShapeError> {
    let n = store.count().min(dxs.len()).min(dys.len());
    let (filter, certain) = store.filter(probe);
    let filter = filter.over([&[]; 4]);
    match store.pass(
        kernel,
        (&dxs[..n], &dys[..n]),
        filter,
        (probe, certain),
        out,
    ) {
        None => Ok(()),
        Some(i) => Err(store.refused(n, i, Vec2::new(dxs[i], dys[i]))),
    }
}

/// Adds to `out` the lanes of one step that `probe` intersects: the certain hits when they
/// are final, and each other candidate that the exact test confirms.
fn confirm<T: Fused>(
    probe: &Shape,
    certain: bool,
    (base, hit, undecided): (usize, u32, u32),
    items: [&[f32]; 4],
    out: &mut Vec<usize>,
) {
    let mut lanes = hit | undecided;
    while lanes != 0 {
        let k = lanes.trailing_zeros() as usize;
        lanes &= lanes - 1;
        if (certain && hit >> k & 1 == 1) || crate::intersects(probe, &T::shape_of(items, k)) {
            out.push(base + k);
        }
    }
}

/// The fused pass over `rows`, then the query alone over the rows `tail` past them (those
/// without deltas), collecting into `out`; returns the first row that stayed.
fn run<T: Fused, const N: usize>(
    kernel: Kernel,
    mut rows: Rows<'_, N>,
    filter: Filter<'_>,
    (probe, certain): (&Shape, bool),
    tail: [&[f32]; 4],
    out: &mut Vec<usize>,
) -> Option<usize> {
    out.clear();
    let stayed = kernel.step_and_scan(&mut rows, filter, &mut |base, hit, undecided, items| {
        confirm::<T>(probe, certain, (base, hit, undecided), items, out);
    });
    let n = rows.n;
    let _ = kernel.scan(filter.over(tail), &mut |base, hit, undecided| {
        let items = tail.map(|c| c.get(base..).unwrap_or(&[]));
        confirm::<T>(probe, certain, (n + base, hit, undecided), items, out);
        ControlFlow::Continue(())
    });
    stayed
}

impl Circles {
    /// [`translate_each_xy`](Circles::translate_each_xy)`(dxs, dys)` then
    /// [`intersecting`](Circles::intersecting)`(probe, out)` in one pass over the discs: each
    /// disc is moved and tested while its moved center is in registers, so the centers are
    /// read once. The same discs and indices as the two calls, bit for bit; `out` is filled
    /// even when a disc stays (the error). For bullets stepped and tested every frame.
    ///
    /// ```
    /// use collide2d::{batch::{Circles, Column}, math::Vec2, Circle};
    /// let mut bullets = Circles::new();
    /// let (mut vxs, mut vys) = (Column::new(), Column::new());
    /// for i in 0..100 {
    ///     bullets.push(Vec2::new(i as f32 * 4.0, 0.0), 1.0)?;
    ///     (vxs.push(1.0), vys.push(0.0));
    /// }
    /// let player = Circle::new(Vec2::new(20.0, 0.0), 2.0)?.into();
    /// let mut hits = Vec::new();
    /// bullets.translate_each_xy_and_intersecting(&vxs, &vys, &player, &mut hits)?;
    /// // Bullets 4 and 5 now at x = 17 and 21; 17 touches the player.
    /// assert_eq!(hits, [4, 5]);
    /// assert_eq!(bullets.xs()[4], 17.0);
    /// # Ok::<(), collide2d::ShapeError>(())
    /// ```
    ///
    /// # Errors
    /// As [`translate_each_xy`](Circles::translate_each_xy): [`ShapeError::NonFinite`] for the
    /// first disc whose moved center would not be finite; such discs stay (and are queried
    /// where they are), the others move.
    pub fn translate_each_xy_and_intersecting(
        &mut self,
        dxs: &[f32],
        dys: &[f32],
        probe: &Shape,
        out: &mut Vec<usize>,
    ) -> Result<(), ShapeError> {
        self.translate_each_xy_and_intersecting_with(Kernel::best(), dxs, dys, probe, out)
    }

    /// [`translate_each_xy_and_intersecting`](Circles::translate_each_xy_and_intersecting)
    /// on a given kernel (same results, other speed).
    ///
    /// # Errors
    /// As [`translate_each_xy`](Circles::translate_each_xy).
    pub fn translate_each_xy_and_intersecting_with(
        &mut self,
        kernel: Kernel,
        dxs: &[f32],
        dys: &[f32],
        probe: &Shape,
        out: &mut Vec<usize>,
    ) -> Result<(), ShapeError> {
        fused(self, kernel, (dxs, dys), probe, out)
    }
}

impl Aabbs {
    /// [`translate_each_xy`](Aabbs::translate_each_xy)`(dxs, dys)` then
    /// [`intersecting`](Aabbs::intersecting)`(probe, out)` in one pass over the boxes, as
    /// [`Circles::translate_each_xy_and_intersecting`] does for discs: the same boxes and
    /// indices as the two calls, bit for bit; `out` is filled even when a box stays.
    ///
    /// ```
    /// use collide2d::{batch::Aabbs, math::Vec2, Aabb};
    /// let mut crates = Aabbs::new();
    /// crates.push(Vec2::ZERO, Vec2::ONE)?;
    /// crates.push(Vec2::new(10.0, 0.0), Vec2::new(11.0, 1.0))?;
    /// let player = Aabb::new(Vec2::new(3.0, 0.0), Vec2::new(4.0, 1.0))?.into();
    /// let mut hits = Vec::new();
    /// crates.translate_each_xy_and_intersecting(&[2.0, -6.0], &[0.0, 0.0], &player, &mut hits)?;
    /// assert_eq!(hits, [0, 1]); // [2, 3] and [4, 5] touch [3, 4]
    /// # Ok::<(), collide2d::ShapeError>(())
    /// ```
    ///
    /// # Errors
    /// As [`translate_each_xy`](Aabbs::translate_each_xy): [`ShapeError::NonFinite`] for the
    /// first box whose moved corners would not be finite; such boxes stay (and are queried
    /// where they are), the others move.
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
    /// a given kernel (same results, other speed).
    ///
    /// # Errors
    /// As [`translate_each_xy`](Aabbs::translate_each_xy).
    pub fn translate_each_xy_and_intersecting_with(
        &mut self,
        kernel: Kernel,
        dxs: &[f32],
        dys: &[f32],
        probe: &Shape,
        out: &mut Vec<usize>,
    ) -> Result<(), ShapeError> {
        fused(self, kernel, (dxs, dys), probe, out)
    }
}
