//! The `f32` separating-axis filters of the convex path: most polygon pairs decided in `f32`,
//! four vertices or faces a lane, with error bounds (in each doc comment) proving the answer
//! is the exact path's, bit for bit; the rest left to it. Native only (see `convex.rs`).

use super::{
    axis_depth, clip_contact, contact_on_axis, polygons_axis_n, polygons_hit, scan_face, Axis,
    FaceBest,
};
use crate::math::Vec2;
use crate::query::Contact;
use crate::shape::convex::Convex;
use glam::{Vec4, Vec4Swizzles};

/// [`super::polygons_intersect`] in `f32` for polygons of at most 8 points, when certain:
/// `None` near touching (and for larger polygons, or coordinates beyond `2^40` or all below
/// `2^-60`).
///
/// Each face's offsets `s = e.y (v.x - p.x) - e.x (v.y - p.y)` of the other polygon's points
/// `v` (`-orient(p, q, v)`: positive strictly outside) are computed in `f32`, and only their
/// least is kept. With coordinates at most `X` in magnitude, the exact `e` and `w = v - p`
/// are at most `2 X` a component, each rounded once (relative `2^-24`; a subnormal difference
/// is exact), then two products and their difference: the computed `s` is within `4.001 *
/// 2^-24 (|e.y w.x| + |e.x w.y|) + 2^-148 <= 2^-19 X^2 (1.0001) + 2^-148` of the exact one.
/// `bound = 2^-18 X^2 + 2^-140` (computed from a normal `X^2`, rounded down at most `2^-24`)
/// is past that: a face whose least offset exceeds it has every point strictly outside, so
/// it separates (`false`); when every face of both has an offset below `-bound`, none
/// separates (`true`). Otherwise the exact test decides. Magnitudes stay below `2^84`.
#[inline(always)]
pub(super) fn polygons_intersect(a: &[Vec2], b: &[Vec2], extent: f32) -> Option<bool> {
    if a.len() > 8
        || b.len() > 8
        || !((1.0 / (1u128 << 60) as f32..=(1u64 << 40) as f32).contains(&extent))
    {
        return None;
    }
    let bound = extent * extent * (1.0 / (1u64 << 18) as f32)
        + 1.0 / (1u128 << 120) as f32 / (1u64 << 20) as f32;
    // Whether some face of `hull` has its least offset of `other` within `bound` of 0; `None`
    // when one separates them.
    let near = |hull: &[Vec2], other: &[Vec2]| {
        let (other, n) = (Soa32::new(other), hull.len());
        let mut near = false;
        for i in 0..n {
            let p = hull[i];
            let least = other.min_offset(p, hull[if i + 1 == n { 0 } else { i + 1 }] - p);
            if least > bound {
                return None;
            }
            near |= least >= -bound;
        }
        Some(near)
    };
    let Some(near_a) = near(a, b) else {
        return Some(false);
    };
    let Some(near_b) = near(b, a) else {
        return Some(false);
    };
    (!(near_a || near_b)).then_some(true)
}

/// [`super::polygons_contact`] for two quadrilaterals (rotated boxes' hulls), bit for bit: the same
/// scan and clipping, on arrays whose fixed size unrolls both (not on wasm32: see
/// `obb_obb::hulls_contact`).
pub(crate) fn quads_contact(a: &[Vec2; 4], b: &[Vec2; 4], extent: f32) -> Option<Contact> {
    let axis = quads_axis(a, b, extent).unwrap_or_else(|| {
        polygons_axis_n::<8>(&Convex::slice(a, 0.0), &Convex::slice(b, 0.0), extent)
    })?;
    // `contact_on_axis` without radii: its face path.
    let depth = axis_depth(0.0, 0.0, axis.sep);
    Some(match axis.face {
        Some((true, i)) => clip_contact(a, i, 0.0, b, 0.0, false, depth),
        Some((false, i)) => clip_contact(b, i, 0.0, a, 0.0, true, depth),
        None => contact_on_axis(
            &Convex::slice(a, 0.0),
            &Convex::slice(b, 0.0),
            axis,
            f64::from(extent),
            None,
        ),
    })
}

/// A polygon of up to 8 vertices in `f32` for the filter pass of
/// [`polygons_axis`]: x and y as two 4-lane vectors each, the spare slots
/// repeating the last vertex (a repeated vertex changes no minimum).
struct Soa32 {
    x: [Vec4; 2],
    y: [Vec4; 2],
}

impl Soa32 {
    #[inline(always)]
    fn new(points: &[Vec2]) -> Soa32 {
        debug_assert!(!points.is_empty() && points.len() <= 8);
        let last = points.len() - 1;
        let at = |i: usize| points[i.min(last)];
        let (p0, p1, p2, p3) = (at(0), at(1), at(2), at(3));
        let (p4, p5, p6, p7) = (at(4), at(5), at(6), at(7));
        Soa32 {
            x: [
                Vec4::new(p0.x, p1.x, p2.x, p3.x),
                Vec4::new(p4.x, p5.x, p6.x, p7.x),
            ],
            y: [
                Vec4::new(p0.y, p1.y, p2.y, p3.y),
                Vec4::new(p4.y, p5.y, p6.y, p7.y),
            ],
        }
    }

    /// The least `(e.y, -e.x) . (v - p)` over the vertices `v`, in `f32`.
    #[inline(always)]
    fn min_offset(&self, p: Vec2, e: Vec2) -> f32 {
        let (px, py) = (Vec4::splat(p.x), Vec4::splat(p.y));
        let (ex, ey) = (Vec4::splat(e.x), Vec4::splat(e.y));
        let s0 = ey * (self.x[0] - px) - ex * (self.y[0] - py);
        let s1 = ey * (self.x[1] - px) - ex * (self.y[1] - py);
        s0.min(s1).min_element()
    }
}

/// Faces shorter than this (squared, in `f32`) leave [`filter_faces`]'s error bound.
const FILTER_MIN_L2: f32 = 1.0 / (1u128 << 120) as f32;

/// The filter pass over the faces of `hull` (counter-clockwise, at most 8 points) against
/// `other`, in `f32`: each face's least offset `e.y (v.x - p.x) - e.x (v.y - p.y)` and squared
/// length into lanes (the unused lanes stay `-inf` and 1). `true` as soon as a least offset
/// exceeds `bound`.
#[inline(always)]
fn filter_faces(
    hull: &[Vec2],
    other: &Soa32,
    bound: f32,
    least: &mut [f32; 8],
    l2: &mut [f32; 8],
) -> bool {
    let n = hull.len();
    for i in 0..n {
        let p = hull[i];
        let e = hull[if i + 1 == n { 0 } else { i + 1 }] - p;
        l2[i] = e.length_squared();
        least[i] = other.min_offset(p, e);
        if least[i] > bound {
            return true;
        }
    }
    false
}

/// [`super::polygons_axis`] for polygons of at most 8 vertices (the axis of a contact, `None` for
/// none), the same bits, with most of the separating-axis scan in `f32`; `None` when the
/// filter does not apply (coordinates beyond
/// `2^40` or all below `2^-60` in magnitude, or an edge under `2^-60` long).
///
/// A first pass computes every face's separation in `f32` four vertices at a time. Against
/// the exact separation (that of `scan_faces`, within `2^-50` relative), each is off by at most
/// `2^-19.5 extent`: per vertex, `e` and `w = v - p` rounded (`|w| <= 2 extent`), two products
/// and a difference, `4 * 2^-24 (|e.y w.x| + |e.x w.y|) <= 8 sqrt(2) 2^-24 |e| extent`; then
/// `|e|`'s square, root and the division, `4 * 2^-24` relative of a separation at most
/// `2 sqrt(2) extent`; subnormal products add under `2^-148`, negligible against `|e| >=
/// 2^-60`. So with `delta = 2^-18 extent`: a face past `tol + delta` proves the polygons
/// apart, which `contact_checked` answers `None` (its scan finds a separation above `tol`).
/// Otherwise, with `top` the greatest `f32` separation, a face below `top - 3 delta` has an
/// exact separation at least `delta` under the best face's (far beyond the `2^-50` of the
/// `key` comparisons), and below `tol`: in `scan_faces`' order it can only be `best` before
/// the first face within `3 delta` of `top`, which then replaces it, and never stops the scan.
/// So the `f64` scan of only the faces within `3 delta` of `top`, in the same order, ends with
/// the same `best` and stops at the same face.
#[inline(always)]
pub(super) fn polygons_axis(a: &Convex, b: &Convex, extent: f32) -> Option<Option<Axis>> {
    if !((1.0 / (1u128 << 60) as f32..=(1u64 << 40) as f32).contains(&extent)) {
        return None;
    }
    let (pa, pb) = (a.points(), b.points());
    let delta = extent * (1.0 / (1u64 << 18) as f32);
    // At least `tol + delta`, `tol = 1e-9 extent` below (in f64).
    let stop = extent * 1.01e-9 + delta;
    let (sa, sb) = (Soa32::new(pa), Soa32::new(pb));
    // A face whose least offset is past `polygons_intersect`'s bound has every point
    // of the other polygon strictly outside: apart, which `contact_checked` answers `None`
    // (its scan's best separation cannot fall below `-tol` then), decided before any root.
    let bound = extent * extent * (1.0 / (1u64 << 18) as f32)
        + 1.0 / (1u128 << 120) as f32 / (1u64 << 20) as f32;
    let mut least = [[f32::NEG_INFINITY; 8]; 2];
    let mut l2 = [[1.0; 8]; 2];
    let (least_a, least_b) = least.split_at_mut(1);
    let (l2_a, l2_b) = l2.split_at_mut(1);
    if filter_faces(pa, &sb, bound, &mut least_a[0], &mut l2_a[0])
        || filter_faces(pb, &sa, bound, &mut least_b[0], &mut l2_b[0])
    {
        return Some(None);
    }
    // Lanes 0-1: the faces of a; 2-3: those of b.
    let lanes =
        |s: &[[f32; 8]; 2]| [&s[0][..4], &s[0][4..], &s[1][..4], &s[1][4..]].map(Vec4::from_slice);
    let (least, l2) = (lanes(&least), lanes(&l2));
    let min_l2 = Vec4::splat(FILTER_MIN_L2);
    if (l2[0].min(l2[1]).min(l2[2].min(l2[3]))).cmplt(min_l2).any() {
        return None;
    }
    let seps = [0, 1, 2, 3].map(|k| least[k] / l2[k].sqrt());
    let most = seps[0].max(seps[1]).max(seps[2].max(seps[3]));
    if most.cmpgt(Vec4::splat(stop)).any() {
        return Some(None);
    }
    let floor = Vec4::splat(most.max_element() - 3.0 * delta);
    let near = seps.map(|s| s.cmpge(floor).bitmask());
    let (near_a, near_b) = (near[0] | near[1] << 4, near[2] | near[3] << 4);
    Some(near_axis(pa, pb, near_a, near_b, extent))
}

/// The `f64` scan that ends both filters: `scan_faces`' over the faces of `pa` whose bits are
/// set in `near_a`, then those of `pb` in `near_b`, in the same order; the axis of a contact,
/// `None` for none.
#[inline(always)]
fn near_axis(pa: &[Vec2], pb: &[Vec2], near_a: u32, near_b: u32, extent: f32) -> Option<Axis> {
    // `contact_checked`'s scale (the largest coordinate magnitude) is `extent`; its radii are 0.
    let tol = 1e-9 * f64::from(extent);
    let stop2 = tol * tol;
    let mut best = FaceBest::NONE;
    let _ = scan_near_faces(pa, pb, near_a, true, stop2, &mut best)
        || scan_near_faces(pb, pa, near_b, false, stop2, &mut best);
    let axis = best.axis();
    polygons_hit(&axis, tol, pa, pb, extent).then_some(axis)
}

/// [`scan_face`] over the faces of `hull` whose bits are set in `mask`, in increasing order
/// (a step per set bit: the loop's branches follow how many faces are near, not which);
/// `true` as soon as one separates by more than `sqrt(stop2)`.
#[inline(always)]
fn scan_near_faces(
    hull: &[Vec2],
    other: &[Vec2],
    mut mask: u32,
    of_a: bool,
    stop2: f64,
    best: &mut FaceBest,
) -> bool {
    while mask != 0 {
        let i = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        if scan_face(hull, i, other, of_a, stop2, best) {
            return true;
        }
    }
    false
}

/// A quadrilateral's x and y coordinates, one vertex a lane.
#[inline(always)]
fn quad_lanes(p: &[Vec2]) -> (Vec4, Vec4) {
    (
        Vec4::new(p[0].x, p[1].x, p[2].x, p[3].x),
        Vec4::new(p[0].y, p[1].y, p[2].y, p[3].y),
    )
}

/// The filter pass of [`polygons_axis`] over the four faces of the quadrilateral
/// `(x, y)` against the quadrilateral `(ox, oy)`, one face a lane: the same `f32`
/// expressions (`e = q - p`, `l2 = e.x e.x + e.y e.y`, the least `e.y (v.x - p.x) - e.x (v.y -
/// p.y)` over the vertices `v`, divided by `sqrt(l2)`), so the same error bound. `None` when a
/// face is too short for it.
#[inline(always)]
fn quad_face_seps(x: Vec4, y: Vec4, ox: Vec4, oy: Vec4) -> Option<Vec4> {
    let (ex, ey) = (x.yzwx() - x, y.yzwx() - y);
    let l2 = ex * ex + ey * ey;
    if l2.cmplt(Vec4::splat(FILTER_MIN_L2)).any() {
        return None;
    }
    let offset = |vx: f32, vy: f32| ey * (Vec4::splat(vx) - x) - ex * (Vec4::splat(vy) - y);
    let least = offset(ox.x, oy.x)
        .min(offset(ox.y, oy.y))
        .min(offset(ox.z, oy.z).min(offset(ox.w, oy.w)));
    Some(least / l2.sqrt())
}

/// [`quads_axis`] for slices: `None` (undecided) unless both hold 4 points.
#[inline(always)]
pub(super) fn quad_slices_axis(pa: &[Vec2], pb: &[Vec2], extent: f32) -> Option<Option<Axis>> {
    quads_axis(pa.try_into().ok()?, pb.try_into().ok()?, extent)
}

/// [`polygons_axis`] for two quadrilaterals (rotated boxes' hulls), the same answer
/// by the same argument: each face's filter separation is computed by the same `f32`
/// expressions, four faces at a time, and the `f64` scan visits the faces within `3 delta` of
/// the greatest in the same order.
/// (Arrays: their known length takes the bounds checks out of the scan, which `polygons_axis`'s
/// slices of length 4 did only when this and its callers shared a codegen unit.)
#[inline(never)]
fn quads_axis(pa: &[Vec2; 4], pb: &[Vec2; 4], extent: f32) -> Option<Option<Axis>> {
    if !((1.0 / (1u128 << 60) as f32..=(1u64 << 40) as f32).contains(&extent)) {
        return None;
    }
    let delta = extent * (1.0 / (1u64 << 18) as f32);
    let stop = extent * 1.01e-9 + delta;
    let ((ax, ay), (bx, by)) = (quad_lanes(pa), quad_lanes(pb));
    let seps_a = quad_face_seps(ax, ay, bx, by)?;
    let seps_b = quad_face_seps(bx, by, ax, ay)?;
    if seps_a.max(seps_b).cmpgt(Vec4::splat(stop)).any() {
        return Some(None);
    }
    let floor = Vec4::splat(seps_a.max(seps_b).max_element() - 3.0 * delta);
    let (near_a, near_b) = (seps_a.cmpge(floor).bitmask(), seps_b.cmpge(floor).bitmask());
    Some(near_axis(pa, pb, near_a, near_b, extent))
}
