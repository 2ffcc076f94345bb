//! The generic convex path: every convex pair as hull-plus-radius against hull-plus-radius.
//!
//! Predicates are exact (crate::exact). Contacts follow Box2D's `b2CollidePolygons`: the axis
//! of least penetration over both hulls' face normals (separating axis theorem, both shapes'
//! normals), then the incident edge clipped to the reference face; for rounded shapes whose
//! hulls are apart, the closest points of the hulls give the normal.

use crate::exact::{
    cmp_line_dist2, orient, orient_from, point_segment_within, segments_intersect, ERR_2,
};
use crate::math::Vec2;
use crate::query::soa::Soa;
use crate::query::Contact;
use crate::shape::convex::Convex;
use glam::DVec2;
#[cfg(not(target_arch = "wasm32"))]
use glam::{Vec4, Vec4Swizzles};

// ---- exact predicates ----

/// Some edge of `a` (counter-clockwise, >= 3 points) has every point of `b` strictly outside.
/// (`orient(p, q, v)` for each `v`, with the edge's `f64` values computed once per edge.)
fn face_separates(a: &[Vec2], b: &[Vec2]) -> bool {
    let Some(&last) = a.last() else {
        return false;
    };
    let mut p = last;
    a.iter().any(|&q| {
        let dp = p.as_dvec2();
        let u = q.as_dvec2() - dp;
        let separates = b.iter().all(|&v| orient_from(p, q, dp, u, v).is_lt());
        p = q;
        separates
    })
}

/// [`face_separates`] for polygons whose coordinates are at most `extent` in magnitude, with a
/// filter bound per edge instead of per point.
///
/// `orient`'s filter decides when `|det| > ERR_2 (|t1| + |t2|)`, `t1 = u.x w.y`, `t2 = u.y w.x`
/// with `w = v - p`. Every `|w|` component is at most `2 extent (1 + 2^-53)` (a difference of
/// two coordinates, rounded once), so `|t1| + |t2| <= 2 extent (|u.x| + |u.y|) (1 + 2^-52)`.
/// The per-edge bound `4 ERR_2 extent (|u.x| + |u.y|)` is at least that times `ERR_2` even
/// after its own few roundings (a factor of 2 to spare), so a `|det|` above it is one `orient`
/// decides the same way; the others take `orient` itself. Same answer as `face_separates`.
#[inline]
fn face_separates_within(a: &[Vec2], b: &[Vec2], extent: f64) -> bool {
    let Some(&last) = a.last() else {
        return false;
    };
    let mut p = last;
    a.iter().any(|&q| {
        let dp = p.as_dvec2();
        let u = q.as_dvec2() - dp;
        let bound = (u.x.abs() + u.y.abs()) * (extent * (4.0 * ERR_2));
        let (p0, q0) = (p, q);
        p = q;
        b.iter().all(|&v| {
            let w = v.as_dvec2() - dp;
            let det = u.x * w.y - u.y * w.x;
            if det < -bound {
                true
            } else if det > bound {
                false
            } else {
                orient_from(p0, q0, dp, u, v).is_lt()
            }
        })
    })
}

/// Two convex polygons (counter-clockwise, >= 3 points each, coordinates at most `extent` in
/// magnitude) share a point. Exact: what [`intersects`] answers for them, without building
/// their [`Convex`] views.
#[inline]
pub(crate) fn polygons_intersect(a: &[Vec2], b: &[Vec2], extent: f32) -> bool {
    debug_assert!(a.len() >= 3 && b.len() >= 3);
    // Not on wasm32, where code size counts more (the npm package's `.wasm` has a budget).
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(answer) = polygons_intersect_filtered(a, b, extent) {
        return answer;
    }
    let extent = f64::from(extent);
    !face_separates_within(a, b, extent) && !face_separates_within(b, a, extent)
}

/// [`polygons_intersect`] in `f32` for polygons of at most 8 points, when certain: `None` near
/// touching (and for larger polygons, or coordinates beyond `2^40` or all below `2^-60`).
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
#[cfg(not(target_arch = "wasm32"))]
#[inline(always)]
fn polygons_intersect_filtered(a: &[Vec2], b: &[Vec2], extent: f32) -> Option<bool> {
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

/// `p` lies in the closed convex polygon `poly` (counter-clockwise, >= 3 points).
pub(crate) fn polygon_contains_point(poly: &[Vec2], p: Vec2) -> bool {
    let n = poly.len();
    (0..n).all(|i| orient(poly[i], poly[(i + 1) % n], p).is_ge())
}

/// The convex hulls share a point.
pub(crate) fn hulls_intersect(a: &Convex, b: &Convex) -> bool {
    let (pa, pb) = (a.points(), b.points());
    if pa.len() >= 3 && pb.len() >= 3 {
        return !face_separates(pa, pb) && !face_separates(pb, pa);
    }
    if (pa.len() >= 3 && polygon_contains_point(pa, pb[0]))
        || (pb.len() >= 3 && polygon_contains_point(pb, pa[0]))
    {
        return true;
    }
    a.edges()
        .any(|(p, q)| b.edges().any(|(r, s)| segments_intersect(p, q, r, s)))
}

/// The shapes share a point. Exact.
pub(crate) fn intersects(a: &Convex, b: &Convex) -> bool {
    if hulls_intersect(a, b) {
        return true;
    }
    if a.radius == 0.0 && b.radius == 0.0 {
        return false;
    }
    // The hulls are apart, so their nearest features are a vertex and an edge.
    let (ra, rb) = (a.radius, b.radius);
    a.points().iter().any(|&v| {
        b.edges()
            .any(|(p, q)| point_segment_within(v, p, q, ra, rb))
    }) || b.points().iter().any(|&v| {
        a.edges()
            .any(|(p, q)| point_segment_within(v, p, q, ra, rb))
    })
}

/// Every point of `b` lies in `a`. Exact.
pub(crate) fn contains(a: &Convex, b: &Convex) -> bool {
    let hull = a.points();
    if hull.len() >= 3 {
        // A polygon (radius 0): b's hull, dilated by b's radius, inside every edge's half-plane.
        debug_assert!(a.radius == 0.0, "rounded polygons are never built");
        let n = hull.len();
        return b.points().iter().all(|&v| {
            (0..n).all(|i| {
                let (p, q) = (hull[i], hull[(i + 1) % n]);
                orient(p, q, v).is_ge()
                    && (b.radius == 0.0 || cmp_line_dist2(p, q, v, b.radius, 0.0).is_ge())
            })
        });
    }
    // A point, segment, circle or capsule: its hull has no interior, so b's farthest point from
    // it is a hull vertex of b pushed out by b's radius.
    let (p, q) = (hull[0], hull[hull.len() - 1]);
    b.points()
        .iter()
        .all(|&v| point_segment_within(v, p, q, a.radius, -b.radius))
}

// ---- distances and contacts, in f64 ----

/// The index after `i` around a hull of `n` points (a compare, not `%`'s division).
#[inline(always)]
fn next(i: usize, n: usize) -> usize {
    if i + 1 == n {
        0
    } else {
        i + 1
    }
}

fn d(v: Vec2) -> DVec2 {
    v.as_dvec2()
}

/// The closest point to `v` on the segment `pq`.
///
/// Measured from the nearer end: on a segment much longer than the distance from `v` to its
/// end, `p + e * t` with `t` near 1 would cancel and land up to `1e-16 |pq|` off.
pub(crate) fn closest_on_segment(v: DVec2, p: DVec2, q: DVec2) -> DVec2 {
    let e = q - p;
    let len2 = e.length_squared();
    if len2 == 0.0 {
        return p;
    }
    let t = ((v - p).dot(e) / len2).clamp(0.0, 1.0);
    if t <= 0.5 {
        p + e * t
    } else {
        q - e * (-(v - q).dot(e) / len2).clamp(0.0, 1.0)
    }
}

/// Closest points of two hulls that do not intersect: (on a, on b, squared distance).
fn hull_closest(a: &Convex, b: &Convex) -> (DVec2, DVec2, f64) {
    let mut best = (DVec2::ZERO, DVec2::ZERO, f64::INFINITY);
    for &v in a.points() {
        for (p, q) in b.edges() {
            let c = closest_on_segment(d(v), d(p), d(q));
            let d2 = (c - d(v)).length_squared();
            if d2 < best.2 {
                best = (d(v), c, d2);
            }
        }
    }
    for &v in b.points() {
        for (p, q) in a.edges() {
            let c = closest_on_segment(d(v), d(p), d(q));
            let d2 = (c - d(v)).length_squared();
            if d2 < best.2 {
                best = (c, d(v), d2);
            }
        }
    }
    best
}

/// Distance and closest points (on a, on b) of two convex shapes known not to intersect.
/// The distance is at least the smallest positive normal `f32`, so it is never 0.
pub(crate) fn closest_points(a: &Convex, b: &Convex) -> (f32, Vec2, Vec2) {
    let (ha, hb, d2) = hull_closest(a, b);
    let dist_hulls = crate::math::sqrt(d2);
    let n = if dist_hulls > 0.0 {
        (hb - ha) / dist_hulls
    } else {
        DVec2::X
    };
    let (ra, rb) = (f64::from(a.radius), f64::from(b.radius));
    let pa = ha + n * ra;
    let pb = hb - n * rb;
    // Shapes at opposite ends of the f32 range are up to 2√2 f32::MAX apart: saturate, so
    // every output is finite (documented on `distance`).
    let dist = ((dist_hulls - ra - rb) as f32).clamp(f32::MIN_POSITIVE, f32::MAX);
    (dist, clamp_to_f32(pa), clamp_to_f32(pb))
}

/// `p` rounded to `f32`, clamped to `±f32::MAX` (a point of a circle or capsule reaching past
/// the range).
pub(crate) fn clamp_to_f32(p: DVec2) -> Vec2 {
    let limit = DVec2::splat(f64::from(f32::MAX));
    p.clamp(-limit, limit).as_vec2()
}

/// A face of a hull: outward unit normal and a point on it. A 2-point hull has two faces
/// (both sides of the segment); a 1-point hull has none.
fn faces(hull: &[Vec2]) -> impl Iterator<Item = (usize, DVec2, DVec2)> + '_ {
    let n = hull.len();
    let count = if n >= 2 { n } else { 0 };
    (0..count).filter_map(move |i| {
        let (p, q) = (d(hull[i]), d(hull[(i + 1) % n]));
        let e = q - p;
        let normal = DVec2::new(e.y, -e.x).try_normalize()?;
        Some((i, normal, p))
    })
}

fn support_min(hull: &[Vec2], n: DVec2) -> f64 {
    hull.iter()
        .map(|&v| n.dot(d(v)))
        .fold(f64::INFINITY, f64::min)
}

fn support_max(hull: &[Vec2], n: DVec2) -> f64 {
    hull.iter()
        .map(|&v| n.dot(d(v)))
        .fold(f64::NEG_INFINITY, f64::max)
}

/// A candidate separating axis, `n` pointing from a towards b.
#[derive(Clone, Copy)]
struct Axis {
    /// The unit normal, for an axis without a face only: a face's contact recomputes it from
    /// the face (in [`clip_contact`]), so a face axis leaves `DVec2::X` here.
    n: DVec2,
    sep: f64,
    /// The face of a (`Some((true, i))`) or of b (`Some((false, i))`) whose normal this is.
    face: Option<(bool, usize)>,
}

/// The best face axis found so far, kept unnormalised: the separation along the unit normal is
/// `u / sqrt(l2)`, ordered without a square root by `key = u * |u|` (`key / l2` is the signed
/// square of the separation, so `key1 * l2_2 > key2 * l2_1` compares separations, up to a few
/// ulps, which only matters for ties).
///
/// Range: `f32` coordinates are multiples of 2^-149 below 2^128 in magnitude, so in `f64` every
/// nonzero edge or offset component lies in [2^-149, 2^129], every nonzero product in
/// [2^-298, 2^258] (its ulp at least 2^-350), so nonzero `|u|` and `l2` lie in [2^-350, 2^260]
/// and every `key * l2` in [2^-998, 2^780]: normal `f64`s, no overflow or underflow to 0.
#[derive(Clone, Copy)]
struct FaceBest {
    key: f64,
    l2: f64,
    u: f64,
    face: Option<(bool, usize)>,
}

/// Scans the faces of `hull` against `other`, keeping the greatest separation in `best`.
/// Returns `true` as soon as a face separates by more than `stop` (when `stop` is finite).
#[inline]
fn scan_faces(hull: &[Vec2], other: &[Vec2], of_a: bool, stop: f64, best: &mut FaceBest) -> bool {
    let n = hull.len();
    if n < 2 {
        return false;
    }
    let stop2 = stop * stop;
    for i in 0..n {
        if scan_face(hull, i, other, of_a, stop2, best) {
            return true;
        }
    }
    false
}

/// One face of [`scan_faces`]: face `i` of `hull` (of at least 2 points) against `other`;
/// `true` when it separates them by more than `sqrt(stop2)` and became `best`.
#[inline(always)]
fn scan_face(
    hull: &[Vec2],
    i: usize,
    other: &[Vec2],
    of_a: bool,
    stop2: f64,
    best: &mut FaceBest,
) -> bool {
    let n = hull.len();
    let (p, q) = (d(hull[i]), d(hull[next(i, n)]));
    let e = q - p;
    let normal = DVec2::new(e.y, -e.x);
    let l2 = normal.length_squared();
    if l2 == 0.0 {
        return false;
    }
    let mut u = f64::INFINITY;
    for &v in other {
        let s = normal.dot(d(v) - p);
        if s < u {
            u = s;
        }
    }
    best.offer(u, l2, (of_a, i), stop2)
}

impl FaceBest {
    /// No face yet: any face beats it.
    const NONE: FaceBest = FaceBest {
        key: f64::NEG_INFINITY,
        l2: 1.0,
        u: f64::NEG_INFINITY,
        face: None,
    };

    /// The face's axis: its separation along the unit normal (the normal itself is left to
    /// clipping, see [`Axis::n`]).
    #[inline]
    fn axis(&self) -> Axis {
        Axis {
            n: DVec2::X,
            sep: match self.face {
                Some(_) => self.u / crate::math::sqrt(self.l2),
                None => f64::NEG_INFINITY,
            },
            face: self.face,
        }
    }

    /// Takes face `face` (normal of squared length `l2`, least offset `u` of the other
    /// polygon along it) when it separates more than the best so far (compared as
    /// `u |u| / l2` without dividing); `true` when it separates by more than `sqrt(stop2)`.
    #[inline(always)]
    fn offer(&mut self, u: f64, l2: f64, face: (bool, usize), stop2: f64) -> bool {
        let key = u * u.abs();
        if key * self.l2 > self.key * l2 {
            *self = FaceBest {
                key,
                l2,
                u,
                face: Some(face),
            };
            return u > 0.0 && u * u > stop2 * l2;
        }
        false
    }
}

/// The axis of greatest separation (least penetration) between the hulls. With a finite
/// `stop`, returns the first face axis found separating them by more than `stop` instead.
fn best_axis(a: &[Vec2], b: &[Vec2], stop: f64) -> Axis {
    let mut faces_best = FaceBest::NONE;
    let stopped = scan_faces(a, b, true, stop, &mut faces_best)
        || scan_faces(b, a, false, stop, &mut faces_best);
    let mut best = faces_best.axis();
    if stopped || (a.len() >= 3 && b.len() >= 3) {
        return best;
    }
    // Degenerate hulls need their own directions too (collinear segments, point pairs). Where
    // such a direction is parallel to a face normal (a segment perpendicular to a face of the
    // other hull), it ties that face up to rounding; the face must win then, as its contact
    // points come from clipping, not from one arbitrary vertex of b's deepest edge.
    let scale = a
        .iter()
        .chain(b)
        .fold(0.0_f64, |m, v| m.max(d(*v).abs().max_element()));
    let mut extra = |n: DVec2| {
        let sep = support_min(b, n) - support_max(a, n);
        if sep > best.sep + 1e-12 * scale {
            best = Axis { n, sep, face: None };
        }
    };
    for hull in [a, b] {
        if hull.len() == 2 {
            if let Some(t) = (d(hull[1]) - d(hull[0])).try_normalize() {
                extra(t);
                extra(-t);
            }
        }
    }
    if a.len() == 1 && b.len() == 1 {
        extra((d(b[0]) - d(a[0])).try_normalize().unwrap_or(DVec2::X));
    }
    best
}

impl<const N: usize> Soa<N> {
    /// The least `n . (v - p)` over the vertices `v`, `n = (e.y, -e.x)`: what [`scan_faces`]
    /// computes per face, with the same roundings (`n . w = e.y w.x + (-e.x) w.y` is
    /// `e.y w.x - e.x w.y` exactly), two lanes at a time.
    #[inline(always)]
    fn min_offset(&self, px: f64, py: f64, ex: f64, ey: f64) -> f64 {
        let mut m = [f64::INFINITY; 2];
        for k in 0..N / 2 {
            for (l, m) in m.iter_mut().enumerate() {
                let s = ey * (self.x[2 * k + l] - px) - ex * (self.y[2 * k + l] - py);
                *m = if s < *m { s } else { *m };
            }
        }
        if m[1] < m[0] {
            m[1]
        } else {
            m[0]
        }
    }
}

/// [`scan_faces`] on the `f64` copies: the same faces in the same order, the same values.
#[inline(always)]
fn scan_faces_soa<const N: usize>(
    hull: &Soa<N>,
    other: &Soa<N>,
    of_a: bool,
    stop: f64,
    best: &mut FaceBest,
) -> bool {
    let n = hull.len;
    let stop2 = stop * stop;
    for i in 0..n {
        let j = if i + 1 == n { 0 } else { i + 1 };
        let (px, py) = (hull.x[i], hull.y[i]);
        let (ex, ey) = (hull.x[j] - px, hull.y[j] - py);
        let normal = DVec2::new(ey, -ex);
        let l2 = normal.length_squared();
        if l2 == 0.0 {
            continue;
        }
        let u = other.min_offset(px, py, ex, ey);
        if best.offer(u, l2, (of_a, i), stop2) {
            return true;
        }
    }
    false
}

/// The contact of two convex polygons (counter-clockwise, coordinates at most `extent` in
/// magnitude): [`contact_checked`] on their [`Convex`] views, bit for bit, with the
/// separating-axis scan on `f64` copies made once (for up to 16 vertices; 8, Box2D's limit,
/// take the smallest copies).
pub(crate) fn polygons_contact(a: &[Vec2], b: &[Vec2], extent: f32) -> Option<Contact> {
    let (ca, cb) = (Convex::slice(a, 0.0), Convex::slice(b, 0.0));
    match polygons_axis(&ca, &cb, extent) {
        PolygonsAxis::Apart => None,
        PolygonsAxis::Hit(axis) => Some(contact_on_axis(&ca, &cb, axis, f64::from(extent), None)),
        PolygonsAxis::Checked => contact_checked(&ca, &cb),
    }
}

/// [`polygons_contact`] for two quadrilaterals (rotated boxes' hulls), bit for bit: the same
/// scan and clipping, on arrays whose fixed size unrolls both (not on wasm32: see
/// `obb_obb::hulls_contact`).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn quads_contact(a: &[Vec2; 4], b: &[Vec2; 4], extent: f32) -> Option<Contact> {
    let axis = quads_axis_filtered(a, b, extent).unwrap_or_else(|| {
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

/// The depth of [`polygons_contact`]`(a, b, extent)`, bit for bit, and `None` exactly when it
/// is `None`, without clipping a manifold. Clipping changes neither: with no radii,
/// [`contact_on_axis`] always returns a contact, of depth `max(0 - sep, 0)` in `f64` rounded
/// to `f32` (and capped at `f32::MAX` by [`Contact::new`]) on every path.
pub(crate) fn polygons_depth(a: &[Vec2], b: &[Vec2], extent: f32) -> Option<f32> {
    let (ca, cb) = (Convex::slice(a, 0.0), Convex::slice(b, 0.0));
    match polygons_axis(&ca, &cb, extent) {
        PolygonsAxis::Apart => None,
        PolygonsAxis::Hit(axis) => Some(sharp_axis_depth(axis.sep)),
        PolygonsAxis::Checked => contact_checked(&ca, &cb).map(|c| c.depth),
    }
}

/// What the separating-axis scan of [`polygons_contact`] decides.
enum PolygonsAxis {
    /// No contact.
    Apart,
    /// A contact, on this axis of least penetration.
    Hit(Axis),
    /// Polygons of under 3 or over 16 points: [`contact_checked`] decides.
    Checked,
}

/// The scan shared by [`polygons_contact`] and [`polygons_depth`].
#[inline(always)]
fn polygons_axis(a: &Convex, b: &Convex, extent: f32) -> PolygonsAxis {
    let (la, lb) = (a.points().len(), b.points().len());
    if la < 3 || lb < 3 {
        return PolygonsAxis::Checked;
    }
    let axis = match la.max(lb) {
        #[cfg(not(target_arch = "wasm32"))]
        4 if la == 4 && lb == 4 => quads_axis_filtered(a.points(), b.points(), extent)
            .unwrap_or_else(|| polygons_axis_n::<8>(a, b, extent)),
        #[cfg(not(target_arch = "wasm32"))]
        ..=8 => polygons_axis_filtered(a, b, extent)
            .unwrap_or_else(|| polygons_axis_n::<8>(a, b, extent)),
        // On wasm32 the `f32` filters are left out for code size (the npm package's `.wasm`
        // has a budget): the scan they shorten gives the same axis.
        #[cfg(target_arch = "wasm32")]
        ..=8 => polygons_axis_n::<8>(a, b, extent),
        9..=16 => polygons_axis_n::<16>(a, b, extent),
        _ => return PolygonsAxis::Checked,
    };
    axis.map_or(PolygonsAxis::Apart, PolygonsAxis::Hit)
}

/// A polygon of up to 8 vertices in `f32` for the filter pass of
/// [`polygons_axis_filtered`]: x and y as two 4-lane vectors each, the spare slots
/// repeating the last vertex (a repeated vertex changes no minimum).
#[cfg(not(target_arch = "wasm32"))]
struct Soa32 {
    x: [Vec4; 2],
    y: [Vec4; 2],
}

#[cfg(not(target_arch = "wasm32"))]
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
#[cfg(not(target_arch = "wasm32"))]
const FILTER_MIN_L2: f32 = 1.0 / (1u128 << 120) as f32;

/// The filter pass over the faces of `hull` (counter-clockwise, at most 8 points) against
/// `other`, in `f32`: each face's least offset `e.y (v.x - p.x) - e.x (v.y - p.y)` and squared
/// length into lanes (the unused lanes stay `-inf` and 1). `true` as soon as a least offset
/// exceeds `bound`.
#[cfg(not(target_arch = "wasm32"))]
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

/// [`polygons_axis`] for polygons of at most 8 vertices (the axis of a contact, `None` for
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
#[cfg(not(target_arch = "wasm32"))]
#[inline(always)]
fn polygons_axis_filtered(a: &Convex, b: &Convex, extent: f32) -> Option<Option<Axis>> {
    if !((1.0 / (1u128 << 60) as f32..=(1u64 << 40) as f32).contains(&extent)) {
        return None;
    }
    let (pa, pb) = (a.points(), b.points());
    let delta = extent * (1.0 / (1u64 << 18) as f32);
    // At least `tol + delta`, `tol = 1e-9 extent` below (in f64).
    let stop = extent * 1.01e-9 + delta;
    let (sa, sb) = (Soa32::new(pa), Soa32::new(pb));
    // A face whose least offset is past `polygons_intersect_filtered`'s bound has every point
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
    // `contact_checked`'s scale (the largest coordinate magnitude) is `extent`; its radii are 0.
    let scale = f64::from(extent);
    let tol = 1e-9 * scale;
    let stop2 = tol * tol;
    let mut best = FaceBest::NONE;
    let _ = near_faces(near_a).any(|i| scan_face(pa, i, pb, true, stop2, &mut best))
        || near_faces(near_b).any(|i| scan_face(pb, i, pa, false, stop2, &mut best));
    let axis = best.axis();
    Some(polygons_hit(&axis, tol, pa, pb, extent).then_some(axis))
}

/// The faces whose bits are set in `mask`, in increasing order (a step per set bit: the
/// loop's branches follow how many faces are near, not which).
#[cfg(not(target_arch = "wasm32"))]
#[inline(always)]
fn near_faces(mut mask: u32) -> impl Iterator<Item = usize> {
    core::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            i
        })
    })
}

/// A quadrilateral's x and y coordinates, one vertex a lane.
#[cfg(not(target_arch = "wasm32"))]
#[inline(always)]
fn quad_lanes(p: &[Vec2]) -> (Vec4, Vec4) {
    (
        Vec4::new(p[0].x, p[1].x, p[2].x, p[3].x),
        Vec4::new(p[0].y, p[1].y, p[2].y, p[3].y),
    )
}

/// The filter pass of [`polygons_axis_filtered`] over the four faces of the quadrilateral
/// `(x, y)` against the quadrilateral `(ox, oy)`, one face a lane: the same `f32`
/// expressions (`e = q - p`, `l2 = e.x e.x + e.y e.y`, the least `e.y (v.x - p.x) - e.x (v.y -
/// p.y)` over the vertices `v`, divided by `sqrt(l2)`), so the same error bound. `None` when a
/// face is too short for it.
#[cfg(not(target_arch = "wasm32"))]
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

/// [`polygons_axis_filtered`] for two quadrilaterals (rotated boxes' hulls), the same answer
/// by the same argument: each face's filter separation is computed by the same `f32`
/// expressions, four faces at a time, and the `f64` scan visits the faces within `3 delta` of
/// the greatest in the same order.
#[cfg(not(target_arch = "wasm32"))]
#[inline(never)]
fn quads_axis_filtered(pa: &[Vec2], pb: &[Vec2], extent: f32) -> Option<Option<Axis>> {
    debug_assert!(pa.len() == 4 && pb.len() == 4);
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
    let scale = f64::from(extent);
    let tol = 1e-9 * scale;
    let stop2 = tol * tol;
    let mut best = FaceBest::NONE;
    let _ = near_faces(near_a).any(|i| scan_face(pa, i, pb, true, stop2, &mut best))
        || near_faces(near_b).any(|i| scan_face(pb, i, pa, false, stop2, &mut best));
    let axis = best.axis();
    Some(polygons_hit(&axis, tol, pa, pb, extent).then_some(axis))
}

/// Whether polygons `pa` and `pb` intersect, given their best separating axis: its separation
/// decides beyond `tol` either way, the exact test within.
#[inline(always)]
fn polygons_hit(axis: &Axis, tol: f64, pa: &[Vec2], pb: &[Vec2], extent: f32) -> bool {
    if axis.sep < -tol {
        true
    } else if axis.sep > tol {
        false
    } else {
        polygons_intersect(pa, pb, extent)
    }
}

/// [`polygons_axis`] with copies of `N` slots: the axis of a contact, `None` for none.
#[inline(always)]
fn polygons_axis_n<const N: usize>(a: &Convex, b: &Convex, extent: f32) -> Option<Axis> {
    let (pa, pb) = (a.points(), b.points());
    let (sa, sb) = (Soa::<N>::new(pa), Soa::<N>::new(pb));
    // `contact_checked`'s scale (the largest coordinate magnitude) is `extent`; its radii are 0.
    let scale = f64::from(extent);
    let tol = 1e-9 * scale;
    let mut best = FaceBest::NONE;
    let _ = scan_faces_soa(&sa, &sb, true, tol, &mut best)
        || scan_faces_soa(&sb, &sa, false, tol, &mut best);
    let axis = best.axis();
    polygons_hit(&axis, tol, pa, pb, extent).then_some(axis)
}

/// The contact of two convex shapes, or `None` when they do not intersect.
///
/// The separating-axis pass that finds the contact also decides most pairs: the exact test runs
/// only when the hulls' separation, or their distance against the radii, is within rounding.
pub(crate) fn contact_checked(a: &Convex, b: &Convex) -> Option<Contact> {
    let (axis, scale, closest) = checked_axis(a, b)?;
    Some(contact_on_axis(a, b, axis, scale, closest))
}

/// The depth of [`contact_checked`]`(a, b)` for hulls without radii, bit for bit, and `None`
/// exactly when it is `None`, without clipping a manifold: with no radii, [`contact_on_axis`]
/// takes the face or vertex path, of depth `max(0 - sep, 0)` rounded to `f32` (and capped at
/// `f32::MAX` by [`Contact::new`]).
pub(crate) fn sharp_depth(a: &Convex, b: &Convex) -> Option<(f32, SharpAxis)> {
    debug_assert!(a.radius == 0.0 && b.radius == 0.0);
    let (axis, scale, closest) = checked_axis(a, b)?;
    debug_assert!(closest.is_none(), "measured only for radii");
    let depth = sharp_axis_depth(axis.sep);
    Some((depth, SharpAxis { axis, scale }))
}

/// What [`sharp_depth`] found, to finish its hulls' contact without a second scan.
#[derive(Clone, Copy)]
pub(crate) struct SharpAxis {
    axis: Axis,
    scale: f64,
}

impl SharpAxis {
    /// [`contact_checked`]`(a, b)`, bit for bit, for the hulls [`sharp_depth`] was given.
    pub(crate) fn contact(self, a: &Convex, b: &Convex) -> Contact {
        contact_on_axis(a, b, self.axis, self.scale, None)
    }
}

/// Two hulls' closest points and squared distance, as `hull_closest` gives them.
type Closest = (DVec2, DVec2, f64);

/// [`contact_checked`]'s decision: the axis of least penetration, the hulls' largest
/// coordinate magnitude and their closest points when measured, or `None` when apart.
#[inline(always)]
fn checked_axis(a: &Convex, b: &Convex) -> Option<(Axis, f64, Option<Closest>)> {
    let (pa, pb) = (a.points(), b.points());
    let (ra, rb) = (f64::from(a.radius), f64::from(b.radius));
    let points_scale = pa
        .iter()
        .chain(pb)
        .fold(0.0_f64, |m, v| m.max(d(*v).abs().max_element()));
    let tol = 1e-9 * points_scale.max(ra + rb);
    let axis = best_axis(pa, pb, if ra + rb == 0.0 { tol } else { f64::INFINITY });
    let sep = axis.sep;
    let mut closest = None;
    let certain = if sep < -tol {
        true
    } else if sep > tol && ra + rb == 0.0 {
        false
    } else if sep > tol {
        let hc = hull_closest(a, b);
        closest = Some(hc);
        let dist = crate::math::sqrt(hc.2);
        if dist > ra + rb + tol {
            false
        } else {
            dist < ra + rb - tol || intersects(a, b)
        }
    } else {
        intersects(a, b)
    };
    certain.then_some((axis, points_scale, closest))
}

/// The contact of two intersecting convex shapes, given their axis of least penetration.
/// `scale` is the largest coordinate magnitude of the hulls; `closest` is `hull_closest(a, b)`
/// when already known.
fn contact_on_axis(
    a: &Convex,
    b: &Convex,
    axis: Axis,
    scale: f64,
    closest: Option<(DVec2, DVec2, f64)>,
) -> Contact {
    let (pa, pb) = (a.points(), b.points());
    let (ra, rb) = (f64::from(a.radius), f64::from(b.radius));
    // Hulls clearly apart: only the radii overlap. (Hulls that touch, up to rounding, take the
    // face path, whose normal does not depend on a vanishing distance's direction.)
    if axis.sep > 1e-9 * scale && ra + rb > 0.0 {
        return rounded_contact(a, b, closest.unwrap_or_else(|| hull_closest(a, b)));
    }
    let depth = axis_depth(ra, rb, axis.sep);
    match axis.face {
        Some((true, i)) => clip_contact(pa, i, ra, pb, rb, false, depth),
        Some((false, i)) => clip_contact(pb, i, rb, pa, ra, true, depth),
        None => {
            // Deepest point of b along -n, against a's support plane.
            let n = axis.n;
            let deepest = pb
                .iter()
                .map(|&v| d(v))
                .fold((DVec2::ZERO, f64::INFINITY), |best, v| {
                    let s = n.dot(v);
                    if s < best.1 {
                        (v, s)
                    } else {
                        best
                    }
                });
            let s = deepest.1 - support_max(pa, n);
            let point = deepest.0 - n * ((rb + s - ra) * 0.5);
            Contact::new(n.as_vec2(), depth as f32, &[point.as_vec2()])
        }
    }
}

/// The depth of a contact on a face axis of separation `sep`, radii `ra` and `rb`.
#[inline(always)]
fn axis_depth(ra: f64, rb: f64, sep: f64) -> f64 {
    (ra + rb - sep).max(0.0)
}

/// The depth a contact of hulls without radii on an axis of separation `sep` stores:
/// [`axis_depth`] rounded to `f32` and capped at `f32::MAX`, as [`Contact::new`] caps it.
#[inline(always)]
fn sharp_axis_depth(sep: f64) -> f32 {
    (axis_depth(0.0, 0.0, sep) as f32).min(f32::MAX)
}

/// Contact of rounded shapes whose hulls are apart but within the sum of the radii.
/// `closest` is `hull_closest(a, b)`.
fn rounded_contact(a: &Convex, b: &Convex, closest: (DVec2, DVec2, f64)) -> Contact {
    let (ha, hb, d2) = closest;
    let dist = crate::math::sqrt(d2);
    let (ra, rb) = (f64::from(a.radius), f64::from(b.radius));
    let n = if dist > 0.0 {
        (hb - ha) / dist
    } else {
        DVec2::X
    };
    let depth = (ra + rb - dist).max(0.0) as f32;
    // Parallel faces (a capsule lying on a box): two points, clipped as for hulls that overlap.
    const PARALLEL: f64 = 0.999_999;
    let (pa, pb) = (a.points(), b.points());
    if pa.len() >= 2 && pb.len() >= 2 {
        let face_a = faces(pa).find(|&(_, m, _)| m.dot(n) >= PARALLEL);
        let face_b = faces(pb).any(|(_, m, _)| m.dot(-n) >= PARALLEL);
        if let (Some((i, _, _)), true) = (face_a, face_b) {
            let clipped = clip_contact(pa, i, ra, pb, rb, false, f64::from(depth));
            if clipped.points.len() == 2 {
                return Contact {
                    normal: n.as_vec2(),
                    ..clipped
                };
            }
        }
    }
    let point = ((ha + n * ra) + (hb - n * rb)) * 0.5;
    Contact::new(n.as_vec2(), depth, &[point.as_vec2()])
}

/// Clips the incident hull against face `i` of the reference hull and returns the contact,
/// the normal pointing from reference to incident (flipped when `flip`, so it runs a to b).
/// (Inlined: a caller with arrays of known size gets its loops unrolled; measured fewer
/// instructions for polygons too; not on wasm32, where code size counts: the npm package's
/// `.wasm` has a budget.)
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
fn clip_contact(
    reference: &[Vec2],
    i: usize,
    r_ref: f64,
    incident: &[Vec2],
    r_inc: f64,
    flip: bool,
    depth: f64,
) -> Contact {
    let m = reference.len();
    let (p1, p2) = (d(reference[i]), d(reference[next(i, m)]));
    let e = p2 - p1;
    let en = DVec2::new(e.y, -e.x);
    let n = en.normalize_or(DVec2::X);
    // The incident edge: the face of the incident hull most opposed to n, that is with the least
    // `m . en / |m|` over its normals `m`, compared without square roots as the least
    // `key / l2` with `key = c * |c|`, `c = m . en`, `l2 = |m|^2` (see `FaceBest` for why these
    // products of `f32` differences neither overflow nor underflow to 0).
    let k = incident.len();
    let mut incident_face = None;
    let (mut best_key, mut best_l2) = (f64::INFINITY, 1.0);
    if k >= 2 {
        for j in 0..k {
            let (p, q) = (d(incident[j]), d(incident[next(j, k)]));
            let f = q - p;
            let m = DVec2::new(f.y, -f.x);
            let l2 = m.length_squared();
            if l2 == 0.0 {
                continue;
            }
            let c = m.dot(en);
            let key = c * c.abs();
            if key * best_l2 < best_key * l2 {
                (best_key, best_l2, incident_face) = (key, l2, Some((p, q)));
            }
        }
    }
    let (v1, v2) = incident_face.unwrap_or((d(incident[0]), d(incident[0])));
    // e / |e|, exactly as `e.normalize()` would round it.
    let t = DVec2::new(-n.y, n.x);
    let (lo, hi) = (t.dot(p1), t.dot(p2));
    let clip = |x: DVec2, y: DVec2| -> Option<(DVec2, DVec2)> {
        let (sx, sy) = (t.dot(x), t.dot(y));
        let lerp = |s: f64| {
            if sy == sx {
                x
            } else {
                x + (y - x) * ((s - sx) / (sy - sx))
            }
        };
        let (smin, smax) = (sx.min(sy), sx.max(sy));
        if smax < lo || smin > hi {
            return None;
        }
        let a = if sx < lo {
            lerp(lo)
        } else if sx > hi {
            lerp(hi)
        } else {
            x
        };
        let b = if sy < lo {
            lerp(lo)
        } else if sy > hi {
            lerp(hi)
        } else {
            y
        };
        Some((a, b))
    };
    let limit = r_ref + r_inc;
    let (mut points, mut count) = ([Vec2::ZERO; 2], 0);
    if let Some((c1, c2)) = clip(v1, v2) {
        let ends = [c1, c2];
        for &c in &ends[..if c1 == c2 { 1 } else { 2 }] {
            let s = n.dot(c - p1);
            if s <= limit + 1e-9 * (limit.abs() + c.abs().max_element()) {
                points[count] = (c - n * ((r_inc + s - r_ref) * 0.5)).as_vec2();
                count += 1;
            }
        }
    }
    if count == 0 {
        // The incident edge lies beyond the face's ends: use the incident hull's deepest vertex.
        let deepest = incident
            .iter()
            .map(|&v| d(v))
            .min_by(|x, y| n.dot(*x).total_cmp(&n.dot(*y)));
        let c = deepest.unwrap_or(p1);
        let s = n.dot(c - p1);
        points[0] = (c - n * ((r_inc + s - r_ref) * 0.5)).as_vec2();
        count = 1;
    }
    let normal = if flip { -n } else { n };
    Contact::new(normal.as_vec2(), depth as f32, &points[..count])
}

#[cfg(test)]
mod tests {
    use crate::math::Vec2;
    use crate::shape::{Aabb, Capsule, ConvexPolygon, Point, Segment, Shape};

    /// The point `(-7, -2) * u` against the capsule `(-3, 0)-(-6, 0)` of radius `3 * u`.
    fn point_in_capsule_end(u: f32) -> (Shape, Shape) {
        let p = Point::new(Vec2::new(-7.0, -2.0) * u).unwrap();
        let c = Capsule::new(Vec2::new(-3.0, 0.0) * u, Vec2::new(-6.0, 0.0) * u, 3.0 * u).unwrap();
        (p.into(), c.into())
    }

    #[test]
    fn tiny_shapes_get_the_same_contact_as_unit_ones() {
        // Found by the property tests: the "hulls clearly apart" threshold had an absolute floor
        // of 1e-9, so below that size a capsule end got a face normal (0, 1) and depth 1 * u
        // instead of the closest-points normal and 3 - sqrt(5) = 0.764 * u.
        let unit =
            crate::query::contact(&point_in_capsule_end(1.0).0, &point_in_capsule_end(1.0).1)
                .unwrap();
        for e in [-34, -60, -140] {
            let u = 2f64.powi(e) as f32;
            let (a, b) = point_in_capsule_end(u);
            let c = crate::query::contact(&a, &b).unwrap();
            assert!(
                (c.normal - unit.normal).length() < 1e-6,
                "2^{e}: normal {} vs {}",
                c.normal,
                unit.normal
            );
            assert!(
                (c.depth / u - unit.depth).abs() < 1e-2,
                "2^{e}: depth {} vs {}",
                c.depth / u,
                unit.depth
            );
        }
    }

    #[test]
    fn perpendicular_segments_get_a_contact_point_where_they_cross() {
        // Found by the property tests: b's tangent axis tied a's face normal up to rounding and
        // won, and the contact point became b's first vertex, (4.88, 1.08), about 5 units from
        // the crossing near (2, -3).
        let a: Shape = Segment::new(Vec2::new(2.0, -3.0), Vec2::new(8.0, -7.0))
            .unwrap()
            .into();
        let b: Shape = Segment::new(Vec2::new(5.0, 1.0), Vec2::new(-1.0, -8.0))
            .unwrap()
            .into();
        let c = crate::query::contact(&a, &b).unwrap();
        assert!(
            (c.depth - 1.0 / 13f32.sqrt()).abs() < 1e-6,
            "depth {}",
            c.depth
        );
        assert_eq!(c.points.len(), 1);
        assert!(
            c.points[0].distance(Vec2::new(2.0, -3.0)) < 0.2,
            "point {}",
            c.points[0]
        );
    }

    #[test]
    fn tiny_shapes_keep_only_contact_points_within_reach() {
        // Found by the property tests: the clipping tolerance had an absolute floor of 1e-9, so
        // at 2^-140 a point about one unit (scaled) outside the overlap was kept as a second
        // contact point. Unit scale keeps one point; so must every scale.
        let contact_at = |u: f32| {
            let v = |x: f32, y: f32| Vec2::new(x, y) * u;
            let flat = Aabb::new(v(-7.0, 8.0), v(0.0, 8.0)).unwrap();
            let hull = [
                v(-1.4375, 9.050781),
                v(4.109375, 0.73046875),
                v(7.4375, 2.9492188),
                v(1.890625, 11.269531),
            ];
            let tilted = ConvexPolygon::new(&hull).unwrap();
            crate::query::contact(&flat.into(), &tilted.into()).unwrap()
        };
        let unit = contact_at(1.0);
        assert_eq!(unit.points.len(), 1);
        let u = 2f64.powi(-140) as f32;
        let tiny = contact_at(u);
        assert_eq!(tiny.points.len(), 1, "{tiny:?}");
        assert!(
            (tiny.points[0] / u - unit.points[0]).length() < 0.01,
            "{tiny:?}"
        );
    }

    mod polygons {
        use super::super::*;
        use crate::shape::hull::convex_hull;
        use alloc::vec;
        use alloc::vec::Vec;
        use proptest::prelude::*;

        /// The hull of `pts` on a grid of `unit`, moved by `(ox, oy)`.
        fn hull(pts: &[(i8, i8)], unit: f32, ox: f32, oy: f32) -> Vec<Vec2> {
            let pts: Vec<Vec2> = pts
                .iter()
                .map(|&(x, y)| Vec2::new(f32::from(x) * unit + ox, f32::from(y) * unit + oy))
                .collect();
            convex_hull(&pts)
        }

        /// Two hulls of fewer than `most` grid points each, at one of five scales, `b` moved
        /// from `a` on or off the grid, both near the origin or far from it: on the grid,
        /// edges and vertices of the two meet exactly; far away, the `f32` filters' rounding is
        /// large against the polygons.
        fn grid_hulls(most: usize) -> impl Strategy<Value = (Vec<Vec2>, Vec<Vec2>)> {
            let points = || prop::collection::vec((-6i8..=6, -6i8..=6), 3..most);
            (
                points(),
                points(),
                prop_oneof![
                    Just(1.0f32),
                    Just(0.37),
                    Just(1e-20),
                    Just(3e-17),
                    Just(1e10)
                ],
                (-3.0f32..3.0, -3.0f32..3.0, any::<bool>()),
                prop_oneof![Just(0.0f32), Just(1e4), Just(3e6)],
            )
                .prop_map(|(pa, pb, unit, (ox, oy, on_grid), far)| {
                    let (ox, oy) = if on_grid {
                        (ox.round(), oy.round())
                    } else {
                        (ox, oy)
                    };
                    let a = hull(&pa, unit, far * unit, 0.0);
                    (a, hull(&pb, unit, (far + ox) * unit, oy * unit))
                })
        }

        fn extent(pts: &[Vec2]) -> f32 {
            pts.iter().fold(0.0, |m, p| m.max(p.abs().max_element()))
        }

        /// The contact's numbers as bits: normal, depth, then the points.
        fn bits(c: Option<Contact>) -> Option<Vec<u32>> {
            c.map(|c| {
                let mut out = vec![
                    c.normal.x.to_bits(),
                    c.normal.y.to_bits(),
                    c.depth.to_bits(),
                ];
                out.extend(c.points.iter().flat_map(|p| [p.x.to_bits(), p.y.to_bits()]));
                out
            })
        }

        proptest! {
            #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

            /// Grid points touch, share edges and tie often; 3 to 24 points cover the 8- and
            /// 16-slot copies and the fallback; the scales cover the `f32` filter and both
            /// ends it leaves to the `f64` scan.
            #[test]
            fn polygons_contact_is_contact_checked_bit_for_bit((a, b) in grid_hulls(24)) {
                prop_assume!(a.len() >= 3 && b.len() >= 3);
                let e = extent(&a).max(extent(&b));
                let fast = polygons_contact(&a, &b, e);
                let generic = contact_checked(&Convex::slice(&a, 0.0), &Convex::slice(&b, 0.0));
                prop_assert_eq!(bits(fast), bits(generic));
                let depth = polygons_depth(&a, &b, e).map(f32::to_bits);
                prop_assert_eq!(depth, fast.map(|c| c.depth.to_bits()));
            }

            /// Grid hulls touching, sharing edges and crossing at every scale: the `f32`
            /// filter of `polygons_intersect` answers as the exact face test, whenever it answers.
            #[test]
            fn polygons_intersect_is_the_exact_face_test((a, b) in grid_hulls(12)) {
                prop_assume!(a.len() >= 3 && b.len() >= 3);
                let e = extent(&a).max(extent(&b));
                let exact = !face_separates(&a, &b) && !face_separates(&b, &a);
                prop_assert_eq!(polygons_intersect(&a, &b, e), exact);
                #[cfg(not(target_arch = "wasm32"))]
                if let Some(answer) = polygons_intersect_filtered(&a, &b, e) {
                    prop_assert_eq!(answer, exact);
                }
            }

            /// A triangle with a corner on (rounded off) an edge of another, at several
            /// scales and offsets: where rounding decides, the filter must leave it to the
            /// exact test.
            #[test]
            fn polygons_intersect_at_a_rounded_touch_is_exact(
                pts in prop::collection::vec((-1.0f32..1.0, -1.0f32..1.0), 3),
                (edge, t, spread) in (0usize..3, 0.05f32..0.95, 0.1f32..2.0),
                scale in prop_oneof![Just(1.0f32), Just(3e-15), Just(1e12)],
                far in prop_oneof![Just(0.0f32), Just(10.0), Just(3e3)],
            ) {
                let pts: Vec<Vec2> = pts.iter().map(|&(x, y)| (Vec2::new(x, y) + far) * scale).collect();
                let a = convex_hull(&pts);
                prop_assume!(a.len() == 3);
                let (p, q) = (a[edge], a[(edge + 1) % 3]);
                let e = q - p;
                let out = Vec2::new(e.y, -e.x);
                let v = p + e * t;
                let b = convex_hull(&[v, v + out + e * spread, v + out - e * spread]);
                prop_assume!(b.len() == 3);
                let x = extent(&a).max(extent(&b));
                let exact = !face_separates(&a, &b) && !face_separates(&b, &a);
                prop_assert_eq!(polygons_intersect(&a, &b, x), exact);
            }

            /// A grid hull against a box (or the segment or point of a flat one) touching
            /// it, or random, at several scales: `sharp_depth` gives `contact_checked`'s depth
            /// and its axis the same contact, bit for bit, and `None` together.
            #[test]
            fn sharp_depth_is_contact_checked_bit_for_bit(
                pa in prop::collection::vec((-6i8..=6, -6i8..=6), 1..12),
                (bx, by, bw, bh) in (-8i8..=8, -8i8..=8, 0i8..=6, 0i8..=6),
                unit in prop_oneof![Just(1.0f32), Just(0.37), Just(1e-20), Just(1e10)],
                (ox, oy, on_grid) in (-3.0f32..3.0, -3.0f32..3.0, any::<bool>()),
                far in prop_oneof![Just(0.0f32), Just(1e4), Just(3e6)],
            ) {
                let (ox, oy) = if on_grid { (ox.round(), oy.round()) } else { (ox, oy) };
                let a = hull(&pa, unit, far * unit, 0.0);
                let min = Vec2::new((f32::from(bx) + far + ox) * unit, (f32::from(by) + oy) * unit);
                let max = min + Vec2::new(f32::from(bw), f32::from(bh)) * unit;
                let boxed = crate::shape::convex::box_hull(min, max);
                let part = Convex::slice(&a, 0.0);
                for (x, y) in [(&part, &boxed), (&boxed, &part)] {
                    let generic = contact_checked(x, y);
                    let fast = sharp_depth(x, y);
                    prop_assert_eq!(fast.map(|f| f.0.to_bits()), generic.map(|c| c.depth.to_bits()));
                    prop_assert_eq!(bits(fast.map(|f| f.1.contact(x, y))), bits(generic));
                }
            }

            /// Hulls of random points (of 1 to 24, so segments and points too) at random
            /// scales: the depth pass answers as the contact does, bit for bit.
            #[test]
            fn polygons_depth_is_polygons_contact_depth_bit_for_bit(
                pa in prop::collection::vec((-1.0f32..1.0, -1.0f32..1.0), 1..24),
                pb in prop::collection::vec((-1.0f32..1.0, -1.0f32..1.0), 1..24),
                (ox, oy) in (-2.5f32..2.5, -2.5f32..2.5),
                scale in prop_oneof![Just(1.0f32), Just(3e-15), Just(7e-25), Just(1e12), Just(1e30)],
            ) {
                let at = |p: &[(f32, f32)], dx: f32, dy: f32| -> Vec<Vec2> {
                    let pts: Vec<Vec2> =
                        p.iter().map(|&(x, y)| Vec2::new(x + dx, y + dy) * scale).collect();
                    convex_hull(&pts)
                };
                let (a, b) = (at(&pa, 0.0, 0.0), at(&pb, ox, oy));
                let e = extent(&a).max(extent(&b));
                let fast = polygons_contact(&a, &b, e);
                let depth = polygons_depth(&a, &b, e).map(f32::to_bits);
                prop_assert_eq!(depth, fast.map(|c| c.depth.to_bits()));
            }
        }
    }

    mod shapes {
        use super::super::*;
        use crate::shape::Shape;
        use crate::{Aabb, Capsule, Obb, Segment};

        fn hit(a: &Shape, b: &Shape) -> Contact {
            let (ca, cb) = (a.as_convex().unwrap(), b.as_convex().unwrap());
            assert!(intersects(&ca, &cb));
            contact_checked(&ca, &cb).unwrap()
        }

        #[test]
        fn capsule_lying_on_a_box_gets_two_points() {
            let floor: Shape = Aabb::new(Vec2::new(-10.0, -2.0), Vec2::new(10.0, 0.0))
                .unwrap()
                .into();
            let capsule: Shape = Capsule::new(Vec2::new(-1.0, 0.5), Vec2::new(1.0, 0.5), 0.75)
                .unwrap()
                .into();
            let c = hit(&floor, &capsule);
            assert_eq!(c.normal, Vec2::Y);
            assert!((c.depth - 0.25).abs() < 1e-6);
            assert_eq!(c.points.len(), 2);
            for p in c.points.iter() {
                assert!(
                    (p.y + 0.125).abs() < 1e-6,
                    "midway between the surfaces: {p}"
                );
            }
        }

        #[test]
        fn rotated_boxes_overlapping_push_along_a_face_normal() {
            let a: Shape = Obb::new(Vec2::ZERO, Vec2::new(2.0, 1.0), 0.0)
                .unwrap()
                .into();
            let b: Shape = Obb::new(
                Vec2::new(2.5, 0.0),
                Vec2::new(1.0, 1.0),
                core::f32::consts::FRAC_PI_4,
            )
            .unwrap()
            .into();
            let c = hit(&a, &b);
            assert!((c.normal - Vec2::X).length() < 1e-6);
            // b's left corner is at 2.5 - sqrt(2), a's right face at 2.
            assert!((c.depth - (2.0 - (2.5 - core::f32::consts::SQRT_2))).abs() < 1e-5);
            assert_eq!(c.points.len(), 1);
        }

        #[test]
        fn crossing_segments_touch_with_zero_depth() {
            let a: Shape = Segment::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0))
                .unwrap()
                .into();
            let b: Shape = Segment::new(Vec2::new(0.0, -1.0), Vec2::new(0.0, 1.0))
                .unwrap()
                .into();
            let c = hit(&a, &b);
            assert_eq!(c.depth, 1.0); // b must move 1 along a's normal to stop crossing
            assert!((c.normal.length() - 1.0).abs() < 1e-6);
        }

        #[test]
        fn collinear_segments_apart_do_not_intersect() {
            let a: Shape = Segment::new(Vec2::ZERO, Vec2::new(1.0, 1.0))
                .unwrap()
                .into();
            let b: Shape = Segment::new(Vec2::new(2.0, 2.0), Vec2::new(3.0, 3.0))
                .unwrap()
                .into();
            assert!(!intersects(
                &a.as_convex().unwrap(),
                &b.as_convex().unwrap()
            ));
            let b_touching: Shape = Segment::new(Vec2::new(1.0, 1.0), Vec2::new(3.0, 3.0))
                .unwrap()
                .into();
            let c = hit(&a, &b_touching);
            assert_eq!(c.depth, 0.0);
        }

        #[test]
        fn capsule_contains_a_circle_touching_its_end_from_inside() {
            let capsule: Shape = Capsule::new(Vec2::ZERO, Vec2::new(4.0, 0.0), 2.0)
                .unwrap()
                .into();
            let inside: Shape = crate::Circle::new(Vec2::new(5.0, 0.0), 1.0).unwrap().into();
            let poking: Shape = crate::Circle::new(Vec2::new(5.0, 0.5), 1.0).unwrap().into();
            let (cap, c_in, c_out) = (
                capsule.as_convex().unwrap(),
                inside.as_convex().unwrap(),
                poking.as_convex().unwrap(),
            );
            assert!(contains(&cap, &c_in));
            assert!(!contains(&cap, &c_out));
        }
    }
}
