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

mod clip;
// Left out on wasm32, where code size counts (the npm package's `.wasm` has a budget): the
// exact paths the filters shorten give the same answers.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) mod filter;
#[cfg(test)]
mod tests;

use clip::clip_contact;

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
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(answer) = filter::polygons_intersect(a, b, extent) {
        return answer;
    }
    let extent = f64::from(extent);
    !face_separates_within(a, b, extent) && !face_separates_within(b, a, extent)
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
        4 if la == 4 && lb == 4 => filter::quad_slices_axis(a.points(), b.points(), extent)
            .unwrap_or_else(|| polygons_axis_n::<8>(a, b, extent)),
        #[cfg(not(target_arch = "wasm32"))]
        ..=8 => filter::polygons_axis(a, b, extent)
            .unwrap_or_else(|| polygons_axis_n::<8>(a, b, extent)),
        #[cfg(target_arch = "wasm32")]
        ..=8 => polygons_axis_n::<8>(a, b, extent),
        9..=16 => polygons_axis_n::<16>(a, b, extent),
        _ => return PolygonsAxis::Checked,
    };
    axis.map_or(PolygonsAxis::Apart, PolygonsAxis::Hit)
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
