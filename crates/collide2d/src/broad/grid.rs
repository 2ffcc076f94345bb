//! A uniform grid rebuilt every update: each object's box is cut into integer cell keys, the
//! `(cell, group, slot)` entries are sorted, and pairs come from runs of equal cells, group by
//! group (the sort-based spatial hash of Le Grand, GPU Gems 3 ch. 32, with Box2D-style filters
//! applied to groups before any pair is made).
//!
//! A pair of boxes overlapping in several cells is reported only in the cell holding the corner
//! `max(a.min, b.min)`, which both boxes cover, so no deduplication pass is needed.

use super::{ray_box, View};
use crate::math::Vec2;
use crate::query::Ray;
use crate::shape::Aabb;

/// An object covering more cells than this is kept in a side list and tested against everyone.
const MAX_CELLS: i64 = 32;

#[derive(Debug)]
pub(crate) struct Grid {
    cell: f32,
    inv: f32,
    /// `(cell key << 64) | (group << 32) | slot`, sorted after each rebuild.
    entries: Vec<u128>,
    /// Slots whose boxes cover more than `MAX_CELLS` cells.
    large: Vec<u32>,
    is_large: Vec<bool>,
    /// The occupied cell range `(x0, y0, x1, y1)`, if any entry.
    extent: Option<(i32, i32, i32, i32)>,
    /// Scratch: the group runs of one cell, `(start, end, group)`.
    runs: Vec<(usize, usize, u32)>,
}

/// The integer cell coordinate of `x` (saturating at the `i32` range).
#[inline]
fn cell_of(x: f32, inv: f32) -> i32 {
    (x * inv).floor() as i32
}

/// The sort key of cell `(cx, cy)`: rows first, then columns, both in increasing order.
#[inline]
fn key(cx: i32, cy: i32) -> u64 {
    (u64::from(cy as u32 ^ 0x8000_0000) << 32) | u64::from(cx as u32 ^ 0x8000_0000)
}

#[inline]
fn unkey(k: u64) -> (i32, i32) {
    (
        (k as u32 ^ 0x8000_0000) as i32,
        ((k >> 32) as u32 ^ 0x8000_0000) as i32,
    )
}

impl Grid {
    pub(crate) fn new(cell: f32) -> Grid {
        Grid {
            cell,
            inv: 1.0 / cell,
            entries: Vec::new(),
            large: Vec::new(),
            is_large: Vec::new(),
            extent: None,
            runs: Vec::new(),
        }
    }

    fn range(&self, b: &Aabb) -> (i32, i32, i32, i32) {
        (
            cell_of(b.min().x, self.inv),
            cell_of(b.min().y, self.inv),
            cell_of(b.max().x, self.inv),
            cell_of(b.max().y, self.inv),
        )
    }

    /// Recomputes every entry from the current boxes.
    pub(crate) fn rebuild(&mut self, view: &View<'_>) {
        self.entries.clear();
        self.large.clear();
        self.is_large.clear();
        self.is_large.resize(view.groups.len(), false);
        let mut extent: Option<(i32, i32, i32, i32)> = None;
        for (slot, (&group, aabb)) in view.groups.iter().zip(view.aabbs).enumerate() {
            if group == u32::MAX {
                continue;
            }
            let (x0, y0, x1, y1) = self.range(aabb);
            let cells = (i64::from(x1) - i64::from(x0) + 1) * (i64::from(y1) - i64::from(y0) + 1);
            if cells > MAX_CELLS {
                self.large.push(slot as u32);
                self.is_large[slot] = true;
                continue;
            }
            extent = Some(match extent {
                None => (x0, y0, x1, y1),
                Some((a, b, c, d)) => (a.min(x0), b.min(y0), c.max(x1), d.max(y1)),
            });
            let low = (u128::from(group) << 32) | slot as u128;
            for cy in y0..=y1 {
                for cx in x0..=x1 {
                    self.entries.push((u128::from(key(cx, cy)) << 64) | low);
                }
            }
        }
        self.extent = extent;
        self.entries.sort_unstable();
    }

    pub(crate) fn pairs(&mut self, view: &View<'_>, out: &mut Vec<(u32, u32)>) {
        let entries = &self.entries;
        let n = entries.len();
        let mut i = 0;
        while i < n {
            let cell = (entries[i] >> 64) as u64;
            let mut j = i + 1;
            while j < n && (entries[j] >> 64) as u64 == cell {
                j += 1;
            }
            if j - i >= 2 {
                // Split the cell into runs of one group each.
                self.runs.clear();
                let mut s = i;
                while s < j {
                    let g = (entries[s] >> 32) as u32;
                    let mut e = s + 1;
                    while e < j && (entries[e] >> 32) as u32 == g {
                        e += 1;
                    }
                    self.runs.push((s, e, g));
                    s = e;
                }
                let (cx, cy) = unkey(cell);
                for (r, &(s0, e0, g0)) in self.runs.iter().enumerate() {
                    for &(s1, e1, g1) in &self.runs[r..] {
                        if !view.table.compatible(g0, g1) {
                            continue;
                        }
                        for p in s0..e0 {
                            let a = entries[p] as u32;
                            let aabb_a = &view.aabbs[a as usize];
                            let start = if s1 == s0 { p + 1 } else { s1 };
                            for &entry in &entries[start..e1] {
                                let b = entry as u32;
                                let aabb_b = &view.aabbs[b as usize];
                                if aabb_a.overlaps(aabb_b) {
                                    let corner = aabb_a.min().max(aabb_b.min());
                                    if cell_of(corner.x, self.inv) == cx
                                        && cell_of(corner.y, self.inv) == cy
                                    {
                                        out.push((a.min(b), a.max(b)));
                                    }
                                }
                            }
                        }
                    }
                }
            }
            i = j;
        }
        // Large objects against every object.
        for &l in &self.large {
            let gl = view.groups[l as usize];
            let aabb_l = &view.aabbs[l as usize];
            for (o, &go) in view.groups.iter().enumerate() {
                if go == u32::MAX || o as u32 == l || (self.is_large[o] && (o as u32) < l) {
                    continue;
                }
                if view.table.compatible(gl, go) && aabb_l.overlaps(&view.aabbs[o]) {
                    let o = o as u32;
                    out.push((l.min(o), l.max(o)));
                }
            }
        }
    }

    /// Calls `f` for every entry in row `cy` with `x0 <= cx <= x1` whose group is visible.
    fn row(&self, view: &View<'_>, cy: i32, x0: i32, x1: i32, mask: u64, f: &mut dyn FnMut(u32)) {
        let (lo, hi) = (key(x0, cy), key(x1, cy));
        let start = self.entries.partition_point(|&e| ((e >> 64) as u64) < lo);
        for &e in &self.entries[start..] {
            if ((e >> 64) as u64) > hi {
                break;
            }
            if view.table.visible((e >> 32) as u32, mask) {
                f(e as u32);
            }
        }
    }

    fn each_large(&self, view: &View<'_>, mask: u64, f: &mut dyn FnMut(u32)) {
        for &l in &self.large {
            let g = view.groups[l as usize];
            if g != u32::MAX && view.table.visible(g, mask) {
                f(l);
            }
        }
    }

    pub(crate) fn query(&self, view: &View<'_>, region: &Aabb, mask: u64, f: &mut dyn FnMut(u32)) {
        self.each_large(view, mask, f);
        let Some((ex0, ey0, ex1, ey1)) = self.extent else {
            return;
        };
        let (x0, y0, x1, y1) = self.range(region);
        let (x0, y0, x1, y1) = (x0.max(ex0), y0.max(ey0), x1.min(ex1), y1.min(ey1));
        if x0 > x1 || y0 > y1 {
            return;
        }
        for cy in y0..=y1 {
            self.row(view, cy, x0, x1, mask, f);
        }
    }

    pub(crate) fn ray(
        &self,
        view: &View<'_>,
        ray: &Ray,
        max_t: f32,
        mask: u64,
        f: &mut dyn FnMut(u32) -> f32,
    ) {
        let mut max_t = max_t;
        for &l in &self.large {
            let g = view.groups[l as usize];
            if g != u32::MAX && view.table.visible(g, mask) {
                max_t = max_t.min(f(l));
            }
        }
        let Some((ex0, ey0, ex1, ey1)) = self.extent else {
            return;
        };
        let c = self.cell;
        let world = Aabb::new_unchecked(
            Vec2::new(ex0 as f32 * c, ey0 as f32 * c),
            Vec2::new((ex1 as f32 + 1.0) * c, (ey1 as f32 + 1.0) * c),
        );
        let inv_dir = ray.dir.recip();
        let Some(t0) = ray_box(ray, inv_dir, &world, max_t) else {
            return;
        };
        // Rows in the order the ray crosses them; each row's cells from the ray's x span there,
        // one cell wider on each side so rounding never drops a cell.
        let row_of = |t: f32| cell_of(ray.at(t).y, self.inv);
        let far = if ray.dir == Vec2::ZERO {
            t0
        } else if max_t.is_finite() {
            max_t
        } else {
            // Beyond the occupied cells nothing can be hit.
            exit_t(ray, inv_dir, &world)
        };
        let (ra, rb) = (row_of(t0), row_of(far));
        let (r0, r1) = ((ra.min(rb) - 1).max(ey0), (ra.max(rb) + 1).min(ey1));
        if r0 > r1 {
            return;
        }
        let up = ray.dir.y >= 0.0;
        let mut cy = if up { r0 } else { r1 };
        loop {
            // The ray's t-span inside this row (widened by a hundredth of a cell).
            let (band0, band1) = ((cy as f32 - 0.01) * c, (cy as f32 + 1.01) * c);
            let (mut ta, mut tb) = (t0, far.min(max_t));
            if ray.dir.y != 0.0 {
                let (a, b) = (
                    (band0 - ray.origin.y) * inv_dir.y,
                    (band1 - ray.origin.y) * inv_dir.y,
                );
                ta = ta.max(a.min(b));
                tb = tb.min(a.max(b));
            }
            if ta <= tb {
                let (xa, xb) = (ray.at(ta).x, ray.at(tb).x);
                let x0 = (cell_of(xa.min(xb), self.inv) - 1).max(ex0);
                let x1 = (cell_of(xa.max(xb), self.inv) + 1).min(ex1);
                if x0 <= x1 {
                    self.row(view, cy, x0, x1, mask, &mut |slot| {
                        max_t = max_t.min(f(slot));
                    });
                }
            } else if ray.dir.y != 0.0 && ta > max_t {
                break; // this row starts beyond the best hit so far, and so do the next ones
            }
            if up {
                if cy == r1 {
                    break;
                }
                cy += 1;
            } else {
                if cy == r0 {
                    break;
                }
                cy -= 1;
            }
        }
    }
}

/// The `t` at which `ray` leaves `aabb` (which it is known to meet).
fn exit_t(ray: &Ray, inv_dir: Vec2, aabb: &Aabb) -> f32 {
    let mut t1 = f32::INFINITY;
    for axis in 0..2 {
        if ray.dir[axis] != 0.0 {
            let a = (aabb.min()[axis] - ray.origin[axis]) * inv_dir[axis];
            let b = (aabb.max()[axis] - ray.origin[axis]) * inv_dir[axis];
            t1 = t1.min(a.max(b));
        }
    }
    // A little past the exit, for rounding.
    t1 + t1.abs() * 1e-5 + f32::MIN_POSITIVE
}
