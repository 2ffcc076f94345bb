//! The grid's queries: the boxes it holds (for debug drawing), objects in a region, and the
//! cells a ray crosses.

use super::cells::{cell_of, key, unkey, Entry};
use super::{Grid, NONE};
use crate::broad::{inverse_dir, ray_box, BroadBox, BroadBoxKind, Sight, View};
use crate::math::Vec2;
use crate::query::Ray;
use crate::shape::Aabb;
use crate::world::Handle;
use alloc::vec::Vec;

impl Grid {
    /// Every cell holding an object (all groups together), by row then column, then the large
    /// objects by slot.
    pub(crate) fn boxes(
        &self,
        view: &View<'_>,
        handle: &dyn Fn(u32) -> Handle,
        out: &mut Vec<BroadBox>,
    ) {
        let mut keys: Vec<u64> = self.lists.iter().flatten().map(Entry::key).collect();
        keys.sort_unstable();
        let c = self.cell;
        for run in keys.chunk_by(|a, b| a == b) {
            let (x, y) = unkey(run[0]);
            let min = Vec2::new(x as f32 * c, y as f32 * c);
            out.push(BroadBox {
                aabb: Aabb::raw(min, min + c),
                kind: BroadBoxKind::Cell {
                    x,
                    y,
                    objects: run.len() as u32,
                },
            });
        }
        for &l in &self.large {
            out.push(BroadBox {
                aabb: view.aabbs[l as usize],
                kind: BroadBoxKind::Large { object: handle(l) },
            });
        }
    }

    /// Calls `f` for the slots of visible groups keyed in row `cy` with `x0 <= cx <= x1`.
    fn row(
        &self,
        view: &View<'_>,
        cy: i32,
        x0: i32,
        x1: i32,
        sight: Sight,
        f: &mut dyn FnMut(u32),
    ) {
        let (lo, hi) = (key(x0, cy), key(x1, cy));
        for (g, list) in self.lists.iter().enumerate() {
            if list.is_empty() || !sight.sees(view.table, g as u32) {
                continue;
            }
            let start = list.partition_point(|e| e.key() < lo);
            for e in &list[start..] {
                if e.key() > hi {
                    break;
                }
                f(e.slot);
            }
        }
    }

    /// The row of the nearest entry of a visible group at or above row `cy` (`up`) or at or
    /// below it, so walks over rows skip the empty ones: a small cell in a spread-out world has
    /// billions of rows.
    fn next_row(&self, view: &View<'_>, cy: i32, sight: Sight, up: bool) -> Option<i32> {
        let mut best: Option<i32> = None;
        for (g, list) in self.lists.iter().enumerate() {
            if list.is_empty() || !sight.sees(view.table, g as u32) {
                continue;
            }
            let row = if up {
                let i = list.partition_point(|e| e.key() < key(i32::MIN, cy));
                list.get(i).map(|e| unkey(e.key()).1)
            } else {
                let i = list.partition_point(|e| e.key() <= key(i32::MAX, cy));
                i.checked_sub(1).map(|i| unkey(list[i].key()).1)
            };
            best = match (best, row) {
                (Some(b), Some(r)) => Some(if up { b.min(r) } else { b.max(r) }),
                (b, r) => b.or(r),
            };
        }
        best
    }

    /// The large objects of visible groups whose box overlaps `region`: in each group's run,
    /// those starting on `x` from the region's left minus the run's widest box to its right.
    fn each_large(&self, view: &View<'_>, region: &Aabb, sight: Sight, f: &mut dyn FnMut(u32)) {
        let (left, right) = (region.min().x, region.max().x);
        for &(g, i0, i1, width) in &self.large_runs {
            if !sight.sees(view.table, g) {
                continue;
            }
            let run = &self.large_order[i0..i1];
            // `min x >= left - width` for any box reaching `left`; a little lower for rounding.
            let from = f64::from(left) - width * (1.0 + 1e-9);
            let start = run.partition_point(|e| f64::from(e.1) < from);
            for e in run[start..].iter().take_while(|e| e.1 <= right) {
                if view.aabbs[e.2 as usize].overlaps(region) {
                    f(e.2);
                }
            }
        }
    }

    pub(crate) fn query(
        &self,
        view: &View<'_>,
        region: &Aabb,
        sight: Sight,
        f: &mut dyn FnMut(u32),
    ) {
        self.each_large(view, region, sight, f);
        let Some((ex0, ey0, ex1, ey1)) = self.extent else {
            return;
        };
        // An object keyed one cell left of or below the region may still reach into it.
        let x0 = cell_of(region.min().x, self.inv).saturating_sub(1).max(ex0);
        let y0 = cell_of(region.min().y, self.inv).saturating_sub(1).max(ey0);
        let x1 = cell_of(region.max().x, self.inv).min(ex1);
        let y1 = cell_of(region.max().y, self.inv).min(ey1);
        if x0 > x1 || y0 > y1 {
            return;
        }
        let mut cy = y0;
        while let Some(row) = self.next_row(view, cy, sight, true).filter(|&r| r <= y1) {
            self.row(view, row, x0, x1, sight, f);
            match row.checked_add(1) {
                Some(next) => cy = next,
                None => break,
            }
        }
    }

    pub(crate) fn ray(
        &self,
        view: &View<'_>,
        ray: &Ray,
        max_t: f32,
        sight: Sight,
        f: &mut dyn FnMut(u32) -> f32,
    ) {
        let mut max_t = max_t;
        let inv_dir = inverse_dir(ray.dir);
        for &l in &self.large {
            let g = view.groups[l as usize];
            if g != NONE
                && sight.sees(view.table, g)
                // One ulp wider, as the trees' leaves: a ray along an edge stays in.
                && ray_box(ray, inv_dir, &view.aabbs[l as usize].outward(), max_t).is_some()
            {
                max_t = max_t.min(f(l));
            }
        }
        let Some((ex0, ey0, ex1, ey1)) = self.extent else {
            return;
        };
        // Rows and cells of the ray are found in `f64` and widened by a relative `1e-6` (more
        // than the rounding of `cell_of`'s `f32` product), so neither a far ray origin nor a
        // cell index beyond `f32`'s integers drops an object. Rows saturated at the edges of the
        // `i32` range hold everything beyond.
        let c = f64::from(self.cell);
        let (o, d) = (ray.origin.as_dvec2(), ray.dir.as_dvec2());
        // `v` on `axis`, moved by a relative `1e-6` of it and of the origin (a `t` rounded to
        // `f32` moves the point by a relative `6e-8` of its distance from the origin).
        let widen = |v: f64, axis: usize, up: bool| {
            let slack = (v.abs() + o[axis].abs()) * 1e-6;
            let v = if up { v + slack } else { v - slack };
            // `as f32` saturates to an infinity, which `cell_of` saturates to the `i32` range.
            cell_of(v as f32, self.inv)
        };
        let at = |t: f64, axis: usize| {
            if d[axis] == 0.0 {
                o[axis]
            } else {
                o[axis] + d[axis] * t
            }
        };
        let t_max = f64::from(max_t);
        // Rows in the order the ray crosses them; each row's cells from the ray's x span there,
        // one cell wider on each side (objects reach one cell right and up from their key), and
        // one row more below.
        let (ya, yb) = (at(0.0, 1), at(t_max, 1));
        let r0 = widen(ya.min(yb), 1, false).saturating_sub(1).max(ey0);
        let r1 = widen(ya.max(yb), 1, true).saturating_add(1).min(ey1);
        if r0 > r1 {
            return;
        }
        let up = ray.dir.y >= 0.0;
        let mut cy = if up { r0 } else { r1 };
        loop {
            match self.next_row(view, cy, sight, up) {
                Some(row) if (r0..=r1).contains(&row) => cy = row,
                _ => break,
            }
            // The ray's t-span over the rows this row's objects can reach (cy to cy + 1),
            // widened by a hundredth of a cell and the relative rounding of `cell_of`.
            let row = f64::from(cy);
            let slack = 0.01 + row.abs() * 1e-6;
            let band0 = if cy == i32::MIN {
                f64::NEG_INFINITY
            } else {
                (row - slack) * c
            };
            let band1 = if cy >= i32::MAX - 1 {
                f64::INFINITY
            } else {
                (row + 2.0 + slack) * c
            };
            let (mut ta, mut tb) = (0.0, f64::from(max_t));
            if d.y != 0.0 {
                let (a, b) = ((band0 - o.y) / d.y, (band1 - o.y) / d.y);
                ta = a.min(b).max(0.0);
                tb = tb.min(a.max(b));
            }
            if ta <= tb {
                let (xa, xb) = (at(ta, 0), at(tb, 0));
                let x0 = widen(xa.min(xb), 0, false).saturating_sub(1).max(ex0);
                let x1 = widen(xa.max(xb), 0, true).saturating_add(1).min(ex1);
                if x0 <= x1 {
                    self.row(view, cy, x0, x1, sight, &mut |slot| {
                        max_t = max_t.min(f(slot));
                    });
                }
            }
            if up {
                if cy >= r1 {
                    break;
                }
                cy += 1;
            } else {
                if cy <= r0 {
                    break;
                }
                cy -= 1;
            }
        }
    }
}
