//! Shape casts: [`cast_shapes`] finds when two translating shapes first touch, [`CastHit`].
//!
//! Shapes already touching at `t = 0` are decided by the exact [`intersects`] and answered by
//! [`contact`]. Otherwise a convex pair's time of impact is where the ray `t (va − vb)` enters
//! their Minkowski difference `B − A` (see `minkowski.rs`), clipped in `f64` like
//! [`cast_ray`](crate::cast_ray), with closed forms for circles, boxes and circle–capsule
//! (`cast_pairs.rs`);
//! the contact point lies between the two shapes' supporting features at that time. Concave polygons and compounds take the earliest pair of parts whose
//! swept bounding boxes meet.

use crate::math::Vec2;
use crate::query::cast_closed::{self, Motion};
use crate::query::cast_pairs;
use crate::query::dispatch::circles_contact;
use crate::query::minkowski::{apart_along, difference, polygons_span, polygons_span_and_gap};
use crate::query::part_pairs::{search, PairSearch};
use crate::query::ray::LineSpan;
use crate::query::{contact, intersects, Contact, PairQuery};
use crate::shape::convex::{Convex, ConvexView};
use crate::shape::{Aabb, Circle, Shape};
use core::ops::ControlFlow;
use glam::DVec2;

/// Where two moving shapes first touch. See [`cast_shapes`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CastHit {
    /// The time of impact, in `[0, 1]`: the shapes touch after moving by `t` times their motion.
    pub t: f32,
    /// A point where the shapes touch at time `t` (midway between their surfaces), in world
    /// space at that time; the middle of the contact points when they overlap at `t = 0`.
    pub point: Vec2,
    /// Unit normal from `a` towards `b` at time `t`: moving `b` along it separates them.
    pub normal: Vec2,
    /// How deep the shapes overlap at `t`: the [`contact`] depth when `t = 0`, else 0.
    pub depth: f32,
}

impl CastHit {
    /// The same hit seen from `b`: the normal negated, the rest unchanged.
    #[must_use]
    pub fn flipped(self) -> CastHit {
        CastHit {
            normal: -self.normal,
            ..self
        }
    }
}

/// The first time `t` in `[0, 1]` at which `a` moved by `t * va` touches `b` moved by `t * vb`,
/// or `None` if they stay apart for the whole motion.
///
/// - Shapes that intersect at `t = 0` (exactly, as [`intersects`]) hit at `t = 0` with their
///   [`contact`]'s normal and depth. A compound or concave shape hits at its earliest part.
/// - Only the relative motion `va − vb` matters; when it is zero only `t = 0` can hit. Touching
///   counts, so shapes that only graze, or first touch at `t = 1`, hit.
/// - Tolerance: for `t > 0` the time of impact is computed in `f64` from the `f32` inputs and
///   rounded to the nearest `f32`. Let `t*` be the exact first time of contact and `L` the
///   largest coordinate involved: `|t − t*| · |va − vb| <= 1e-9 · L + 2^-24 · t · |va − vb|`.
///   So shapes placed at `t` overlap by at most that distance (about `6e-8` of the motion at
///   worst, the size of rounding the placed coordinates to `f32`), and they do not touch earlier
///   than `t` minus that tolerance. A thin wall crossed during the motion is always hit; a
///   contact within the tolerance of `t = 1`, or a miss by less than it, may go either way.
/// - The normal at a corner is that of one of the faces meeting there; where only the motion
///   decides (a point or segment end meeting end-on) it is `va − vb` normalised.
/// - A non-finite `va` or `vb` never hits.
///
/// ```
/// use collide2d::{cast_shapes, math::Vec2, Aabb, Circle};
/// let bullet = Circle::new(Vec2::ZERO, 1.0)?.into();
/// let wall = Aabb::new(Vec2::new(10.0, -5.0), Vec2::new(11.0, 5.0))?.into();
/// // 100 units in one step passes through the wall, but the cast stops at it.
/// let hit = cast_shapes(&bullet, Vec2::new(100.0, 0.0), &wall, Vec2::ZERO).unwrap();
/// assert!((hit.t - 0.09).abs() < 1e-6);
/// assert_eq!(hit.normal, Vec2::X); // from the bullet towards the wall
/// assert!((hit.point - Vec2::new(10.0, 0.0)).length() < 1e-5);
/// assert!(cast_shapes(&bullet, Vec2::new(0.0, 100.0), &wall, Vec2::ZERO).is_none());
/// # Ok::<(), collide2d::ShapeError>(())
/// ```
#[must_use]
#[inline]
pub fn cast_shapes(a: &Shape, va: Vec2, b: &Shape, vb: Vec2) -> Option<CastHit> {
    // Two circles, the commonest pair, without leaving the caller; the rest out of line.
    if let (Shape::Circle(x), Shape::Circle(y)) = (a, b) {
        return cast_circle_pair(x, va, y, vb);
    }
    cast_shapes_any(a, va, b, vb)
}

/// [`cast_shapes`] of two circles.
#[inline]
pub(crate) fn cast_circle_pair(x: &Circle, va: Vec2, y: &Circle, vb: Vec2) -> Option<CastHit> {
    cast_circles(x, va, y, vb).unwrap_or_else(|| circles_close(x, va, y, vb))
}

/// Two circles: `Some(answer)` when they are apart at `t = 0` beyond doubt (the float test of
/// [`cast_pairs::clearly_apart`]); `None` when the exact test must decide.
#[allow(clippy::option_option)] // outer: whether the float test decided
#[allow(clippy::neg_cmp_op_on_partial_ord)] // NaN must fail the tests
#[inline]
fn cast_circles(x: &Circle, va: Vec2, y: &Circle, vb: Vec2) -> Option<Option<CastHit>> {
    let (va64, vb64) = (va.as_dvec2(), vb.as_dvec2());
    // Not finite exactly when `va` or `vb` is not (a difference of f32s cannot overflow in f64);
    // then the tests below, written to fail on NaN, answer no hit: `b` or `disc` is NaN or
    // `b` is -inf (`dd` is +inf and `k > 0`, so `b = +inf` gives `disc = inf - inf`).
    let d = va64 - vb64;
    let (ca, cb) = (x.center().as_dvec2(), y.center().as_dvec2());
    let (ra, rb) = (f64::from(x.radius()), f64::from(y.radius()));
    let c = cb - ca;
    let r = ra + rb;
    let (cc, rr) = (c.length_squared(), r * r);
    if !cast_pairs::clearly_apart(cc, rr) {
        return None;
    }
    // Clearly apart: as `cast_pairs::circle_circle` (a zero `d` gives `b = 0`, no hit).
    let k = cc - rr;
    let (dd, b) = (d.length_squared(), c.dot(d));
    let disc = b * b - dd * k;
    if !(b > 0.0 && disc >= 0.0) {
        return Some(None);
    }
    let t = (k / (b + crate::math::sqrt(disc))).max(0.0);
    if !(t <= 1.0) {
        return Some(None);
    }
    let n = cast_pairs::unit_or(c - d * t, d);
    Some(Some(circles_hit(x, va64, y, vb64, t, n)))
}

/// The hit of two circles at time `t` with normal `n`: midway between their surfaces.
#[inline]
fn circles_hit(x: &Circle, va: DVec2, y: &Circle, vb: DVec2, t: f64, n: DVec2) -> CastHit {
    let pa = x.center().as_dvec2() + va * t + n * f64::from(x.radius());
    let pb = y.center().as_dvec2() + vb * t - n * f64::from(y.radius());
    CastHit {
        t: round_t(t),
        point: ((pa + pb) * 0.5).as_vec2(),
        normal: n.as_vec2(),
        depth: 0.0,
    }
}

/// Two circles that the float test could not prove apart: the exact test
/// (through [`contact`]) decides whether they hit at `t = 0`.
#[cold]
#[inline(never)]
fn circles_close(x: &Circle, va: Vec2, y: &Circle, vb: Vec2) -> Option<CastHit> {
    if !va.is_finite() || !vb.is_finite() {
        return None;
    }
    if let Some(h) = start_hit(circles_contact(x, y)) {
        return Some(h);
    }
    let (va64, vb64) = (va.as_dvec2(), vb.as_dvec2());
    let d = va64 - vb64;
    if d == DVec2::ZERO {
        return None;
    }
    cast_pairs::circle_circle(x, y, d).map(|(t, n)| circles_hit(x, va64, y, vb64, t, n))
}

/// [`cast_shapes`] on any pair.
fn cast_shapes_any(a: &Shape, va: Vec2, b: &Shape, vb: Vec2) -> Option<CastHit> {
    if !va.is_finite() || !vb.is_finite() {
        return None;
    }
    let d = va.as_dvec2() - vb.as_dvec2();
    if let (Some(pa), Some(pb)) = (polygon_points(a), polygon_points(b)) {
        return cast_polygon_points(a, pa, va, b, pb, vb, d);
    }
    if let Some(answer) = cast_closed_form(a, va, b, vb, d) {
        return answer;
    }
    let (Some(ca), Some(cb)) = (a.as_convex(), b.as_convex()) else {
        return cast_parts(a, va, b, vb, d);
    };
    cast_convex_views(a, &ca, va, b, &cb, vb, d)
}

/// [`cast_shapes`] of two convex polygons or rotated boxes, typed.
pub(crate) fn cast_convex_polygons<P, Q>(
    a: &P,
    pa: &[Vec2],
    va: Vec2,
    b: &Q,
    pb: &[Vec2],
    vb: Vec2,
) -> Option<CastHit>
where
    P: PairQuery<Q> + ?Sized,
    Q: ?Sized,
{
    if !va.is_finite() || !vb.is_finite() {
        return None;
    }
    let d = va.as_dvec2() - vb.as_dvec2();
    if pa.len() >= 3 && pb.len() >= 3 {
        return cast_polygon_points(a, pa, va, b, pb, vb, d);
    }
    cast_convex_views(
        a,
        &Convex::slice(pa, 0.0),
        va,
        b,
        &Convex::slice(pb, 0.0),
        vb,
        d,
    )
}

/// [`cast_shapes`] of two hulls of 3 or more points (no radius), `pa` of `a` and `pb` of `b`,
/// with finite motions `d = va - vb`: the convex path below without building the convex views
/// first.
#[allow(clippy::too_many_arguments)]
fn cast_polygon_points<P, Q>(
    a: &P,
    pa: &[Vec2],
    va: Vec2,
    b: &Q,
    pb: &[Vec2],
    vb: Vec2,
    d: DVec2,
) -> Option<CastHit>
where
    P: PairQuery<Q> + ?Sized,
    Q: ?Sized,
{
    let (ca, cb) = (Convex::slice(pa, 0.0), Convex::slice(pb, 0.0));
    let (box_a, box_b) = (convex_bounds(&ca), convex_bounds(&cb));
    if !swept_overlap(box_a, box_b, d) {
        return None;
    }
    if d != DVec2::ZERO {
        return cast_polygons(a, &ca, va, b, &cb, vb, (box_a, box_b), d);
    }
    if a.intersects(b) {
        start_hit(a.contact(b))
    } else {
        None
    }
}

/// [`cast_shapes`] of two convex shapes `a` and `b` (their views `ca` and `cb`), finite motions
/// `d = va - vb`.
#[allow(clippy::too_many_arguments)]
fn cast_convex_views<P, Q>(
    a: &P,
    ca: &Convex,
    va: Vec2,
    b: &Q,
    cb: &Convex,
    vb: Vec2,
    d: DVec2,
) -> Option<CastHit>
where
    P: PairQuery<Q> + ?Sized,
    Q: ?Sized,
{
    let (box_a, box_b) = (convex_bounds(ca), convex_bounds(cb));
    if !swept_overlap(box_a, box_b, d) {
        return None;
    }
    let (pa, pb) = (ca.points(), cb.points());
    let polygons = pa.len() >= 3 && pb.len() >= 3 && ca.radius == 0.0 && cb.radius == 0.0;
    if polygons && d != DVec2::ZERO {
        return cast_polygons(a, ca, va, b, cb, vb, (box_a, box_b), d);
    }
    if a.intersects(b) {
        return start_hit(a.contact(b));
    }
    if d == DVec2::ZERO {
        return None;
    }
    cast_convex(ca, cb, d).map(|(t, n)| hit(ca, va.as_dvec2(), cb, vb.as_dvec2(), t, n))
}

/// The hull of a box or a convex polygon when it has 3 or more points (as its convex view).
#[inline]
fn polygon_points(s: &Shape) -> Option<&[Vec2]> {
    let pts = match s {
        Shape::Obb(o) => o.hull(),
        Shape::ConvexPolygon(p) => p.points(),
        _ => return None,
    };
    (pts.len() >= 3).then_some(pts)
}

/// [`cast_shapes`] on two polygons (hulls of 3 or more points, no radius) whose swept boxes
/// meet, `d != 0`: as the convex path (exact [`intersects`] at `t = 0`, else the span of the
/// ray through `B − A`), but the span comes first, and when its numbers put the origin clearly
/// outside one half-plane ([`apart_along`] confirms it with a margin above their rounding
/// error) the shapes are apart at `t = 0` and the exact test is skipped.
#[allow(clippy::too_many_arguments)]
fn cast_polygons<P, Q>(
    a: &P,
    ca: &Convex,
    va: Vec2,
    b: &Q,
    cb: &Convex,
    vb: Vec2,
    boxes: ((DVec2, DVec2), (DVec2, DVec2)),
    d: DVec2,
) -> Option<CastHit>
where
    P: PairQuery<Q> + ?Sized,
    Q: ?Sized,
{
    let (pa, pb) = (ca.points(), cb.points());
    let ((lo_a, hi_a), (lo_b, hi_b)) = boxes;
    let (span, gap) = polygons_span_and_gap(pa, pb, d);
    let scale = lo_a
        .abs()
        .max(hi_a.abs())
        .max(lo_b.abs().max(hi_b.abs()))
        .max_element();
    // The boxes first (a few products), then the points.
    let apart = gap.is_some_and(|w| {
        boxes_apart_along((lo_a, hi_a), (lo_b, hi_b), w, scale) || apart_along(pa, pb, w, scale)
    });
    if !apart && a.intersects(b) {
        return start_hit(a.contact(b));
    }
    // The largest coordinate magnitude of each hull, from its bounds (radius 0).
    let (scale_a, scale_b) = (
        lo_a.abs().max(hi_a.abs()).max_element(),
        lo_b.abs().max(hi_b.abs()).max_element(),
    );
    convex_time(span?, d).map(|(t, n)| {
        hit_scaled(
            ca,
            va.as_dvec2(),
            cb,
            vb.as_dvec2(),
            t,
            n,
            (Some(scale_a), Some(scale_b)),
        )
    })
}

/// The boxes `a` and `b` (`(min, max)`, bounding two hulls) are apart beyond doubt along `w`,
/// with [`apart_along`]'s margin: the lowest corner of `a` along `w` lies above the highest
/// corner of `b`. Each of these sums of two products is within `2.3e-16 |w|_1 L` of its exact
/// value (`L` bounding every coordinate's magnitude, as `scale`), the difference within
/// `4.5e-16 |w|_1 L` more, far below the margin; and the points of each hull lie in its box, so
/// the hulls are apart too.
#[inline]
fn boxes_apart_along(a: (DVec2, DVec2), b: (DVec2, DVec2), w: DVec2, scale: f64) -> bool {
    let (a_lo, a_hi) = (w * a.0, w * a.1);
    let (b_lo, b_hi) = (w * b.0, w * b.1);
    let low_a = a_lo.min(a_hi).element_sum();
    let high_b = b_lo.max(b_hi).element_sum();
    low_a - high_b > 1e-12 * (w.x.abs() + w.y.abs()) * scale
}

/// Circles against boxes and capsules, and boxes, by their closed forms (`cast_closed.rs`);
/// `None` for every other pair (two circles never get here: [`cast_circles`]).
#[allow(clippy::option_option)] // outer: whether the pair has a closed form
fn cast_closed_form(a: &Shape, va: Vec2, b: &Shape, vb: Vec2, d: DVec2) -> Option<Option<CastHit>> {
    let m = Motion {
        va: va.as_dvec2(),
        vb: vb.as_dvec2(),
        d,
    };
    Some(match (a, b) {
        // The start tested on the typed shapes (`PairQuery`'s same bits), without a second
        // dispatch on the two `Shape`s.
        (Shape::Circle(c), Shape::Aabb(r)) => cast_closed::circle_aabb((c, c), (r, r), m),
        (Shape::Aabb(r), Shape::Circle(c)) => cast_closed::aabb_circle((r, r), (c, c), m),
        (Shape::Aabb(x), Shape::Aabb(y)) => cast_closed::aabbs((x, x), (y, y), m),
        (Shape::Circle(c), Shape::Capsule(k)) => cast_closed::circle_capsule((c, c), (k, k), m),
        (Shape::Capsule(k), Shape::Circle(c)) => cast_closed::capsule_circle((k, k), (c, c), m),
        _ => return None,
    })
}

/// [`cast_shapes`] of two typed convex shapes that have no closed form and are not both
/// polygons: the path [`cast_shapes`] takes for them, on their convex views, with no copy into
/// [`Shape`]s.
#[inline]
pub(crate) fn cast_convex_typed<P, Q>(a: &P, va: Vec2, b: &Q, vb: Vec2) -> Option<CastHit>
where
    P: PairQuery<Q> + ConvexView,
    Q: ConvexView,
{
    let m = Motion::of(va, vb)?;
    cast_convex_views(a, &a.convex(), va, b, &b.convex(), vb, m.d)
}

/// The hit at `t = 0` of two shapes that intersect there: their contact; `None` exactly when
/// they do not intersect (as [`contact`], decided by the exact [`intersects`]).
pub(crate) fn at_start(a: &Shape, b: &Shape) -> Option<CastHit> {
    start_hit(contact(a, b))
}

/// The hit at `t = 0` of a contact there.
#[inline]
pub(crate) fn start_hit(contact: Option<Contact>) -> Option<CastHit> {
    contact.map(|c| {
        let sum = c.points.iter().fold(Vec2::ZERO, |s, &p| s + p);
        CastHit {
            t: 0.0,
            point: sum / c.points.len() as f32,
            normal: c.normal,
            depth: c.depth,
        }
    })
}

/// [`cast_shapes`] where `a` or `b` is a compound or a concave polygon: the earliest hit over
/// pairs of parts.
fn cast_parts(a: &Shape, va: Vec2, b: &Shape, vb: Vec2, d: DVec2) -> Option<CastHit> {
    let bounds = |s: &Shape| {
        let r = s.aabb();
        (r.min().as_dvec2(), r.max().as_dvec2())
    };
    if !swept_overlap(bounds(a), bounds(b), d) {
        return None;
    }
    if intersects(a, b) {
        return at_start(a, b);
    }
    if d == DVec2::ZERO {
        return None;
    }
    // Apart at t = 0, so every pair of parts is apart: the earliest part pair's hit (the
    // first in part order on ties), among those whose swept boxes meet.
    let mut earliest = Earliest {
        va: va.as_dvec2(),
        vb: vb.as_dvec2(),
        d,
        best: None,
    };
    let _ = search(a, b, &mut earliest);
    earliest.best.map(|(_, hit, _)| hit)
}

/// The earliest hit so far between pieces of `a` moving by `va` and `b` by `vb` (`d = va - vb`),
/// with its exact time and the pieces' numbers.
struct Earliest {
    va: DVec2,
    vb: DVec2,
    d: DVec2,
    best: Option<(f64, CastHit, (u32, u32))>,
}

impl PairSearch for Earliest {
    type Break = ();

    fn keep(&mut self, a: &Aabb, b: &Aabb) -> Option<f64> {
        let bounds = |r: &Aabb| (r.min().as_dvec2(), r.max().as_dvec2());
        swept_overlap(bounds(a), bounds(b), self.d).then_some(0.0)
    }

    fn visit(&mut self, pa: &Convex, ia: u32, pb: &Convex, ib: u32) -> ControlFlow<()> {
        if swept_overlap(convex_bounds(pa), convex_bounds(pb), self.d) {
            if let Some((t, n)) = cast_convex(pa, pb, self.d) {
                let earlier = self
                    .best
                    .as_ref()
                    .is_none_or(|&(bt, _, key)| t < bt || (t == bt && (ia, ib) < key));
                if earlier {
                    let h = hit(pa, self.va, pb, self.vb, t, n);
                    self.best = Some((t, h, (ia, ib)));
                }
            }
        }
        ControlFlow::Continue(())
    }
}

/// The exact-in-`f64` time of impact of two convex shapes apart at `t = 0`, relative motion
/// `d = va − vb != 0`, with the unit normal from `a` towards `b`.
fn cast_convex(a: &Convex, b: &Convex, d: DVec2) -> Option<(f64, DVec2)> {
    let (pa, pb) = (a.points(), b.points());
    let span = if pa.len() >= 3 && pb.len() >= 3 && a.radius == 0.0 && b.radius == 0.0 {
        polygons_span(pa, pb, d)?
    } else {
        difference(a, b).line_span(d)?
    };
    convex_time(span, d)
}

/// The time of impact and unit normal from `a` towards `b` from the span of the ray `t d`
/// through `B − A`: `None` when it misses `[0, 1]`.
fn convex_time(span: LineSpan, d: DVec2) -> Option<(f64, DVec2)> {
    if span.exit < 0.0 || span.enter > 1.0 {
        return None;
    }
    // The outward normal of `B − A` points from `b` towards `a`.
    let n = (-span.normal).try_normalize().unwrap_or(d.normalize());
    Some((span.enter.max(0.0), n))
}

/// The generic path on two convex shapes, for comparing the closed forms with it.
#[cfg(test)]
pub(crate) fn cast_convex_for_tests(a: &Shape, b: &Shape, d: DVec2) -> Option<(f64, DVec2)> {
    cast_convex(&a.as_convex()?, &b.as_convex()?, d)
}

/// The hit at time `t` with normal `n`: the point midway between the shapes' supporting
/// features, in the middle of where they overlap along the tangent.
fn hit(a: &Convex, va: DVec2, b: &Convex, vb: DVec2, t: f64, n: DVec2) -> CastHit {
    hit_scaled(a, va, b, vb, t, n, (None, None))
}

/// [`hit`], given the largest coordinate magnitude of each hull's points when known
/// (`scales`).
#[inline(always)]
fn hit_scaled(
    a: &Convex,
    va: DVec2,
    b: &Convex,
    vb: DVec2,
    t: f64,
    n: DVec2,
    scales: (Option<f64>, Option<f64>),
) -> CastHit {
    let (oa, ob) = (va * t, vb * t);
    let (fa, fb) = (
        feature(a.points(), oa, n, scales.0),
        feature(b.points(), ob, -n, scales.1),
    );
    let along = (fa.height + f64::from(a.radius) - fb.height - f64::from(b.radius)) * 0.5;
    let across = (fa.lo.max(-fb.hi) + fa.hi.min(-fb.lo)) * 0.5;
    CastHit {
        t: round_t(t),
        point: (n * along + n.perp() * across).as_vec2(),
        normal: n.as_vec2(),
        depth: 0.0,
    }
}

/// The points of a hull that are extreme along a direction: their height along it, and the
/// interval they span along its perpendicular.
struct Feature {
    height: f64,
    lo: f64,
    hi: f64,
}

/// The feature of the hull `pts` moved by `offset` that is extreme along the unit `n`; points
/// within a relative `1e-6` of the extreme height count (a face meets a face in an interval, even
/// when rounding the inputs to `f32` tilted one of them slightly). `known_scale` is the largest
/// coordinate magnitude of `pts` when the caller knows it.
#[inline(always)]
fn feature(pts: &[Vec2], offset: DVec2, n: DVec2, known_scale: Option<f64>) -> Feature {
    let tangent = n.perp();
    let height = |p: &Vec2| n.dot(p.as_dvec2() + offset);
    // Plain comparisons rather than `f64::max`: every value here is finite.
    let (mut top, mut scale) = (f64::NEG_INFINITY, DVec2::ZERO);
    for p in pts {
        let h = height(p);
        if h > top {
            top = h;
        }
        if known_scale.is_none() {
            scale = scale.max(p.as_dvec2().abs());
        }
    }
    let scale = known_scale.unwrap_or_else(|| scale.max_element());
    let slack = 1e-6 * (scale + offset.abs().max_element());
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for p in pts {
        // Whether a point counts is a coin toss for the branch predictor: every point goes
        // through min and max, one that does not count raised to +inf for the min and
        // lowered to -inf for the max. The infinity's sign is that of `top - slack - height`
        // (`+ 0.0` makes a zero positive), by bit operations, which the compiler keeps free of
        // branches (it turns selects between two floats into branches).
        let below = height(p) - (top - slack) + 0.0;
        let cap = f64::INFINITY.copysign(-below); // -inf when the point counts
        let s = tangent.dot(p.as_dvec2() + offset);
        let s_lo = if s > cap { s } else { cap };
        let s_hi = if s < -cap { s } else { -cap };
        lo = if s_lo < lo { s_lo } else { lo };
        hi = if s_hi > hi { s_hi } else { hi };
    }
    Feature {
        height: top,
        lo,
        hi,
    }
}

/// `t` rounded to the nearest `f32`, in `[0, 1]`.
#[inline]
pub(crate) fn round_t(t: f64) -> f32 {
    (t as f32).clamp(0.0, 1.0)
}

/// The bounds of a convex part, in `f64`.
fn convex_bounds(c: &Convex) -> (DVec2, DVec2) {
    let r = DVec2::splat(f64::from(c.radius));
    let pts = c.points();
    let first = pts[0].as_dvec2();
    let (lo, hi) = pts.iter().fold((first, first), |(lo, hi), p| {
        (lo.min(p.as_dvec2()), hi.max(p.as_dvec2()))
    });
    (lo - r, hi + r)
}

/// Box `a` swept by `d` (relative to a still `b`) meets box `b` at some time in `[0, 1]`.
fn swept_overlap(a: (DVec2, DVec2), b: (DVec2, DVec2), d: DVec2) -> bool {
    let lo = a.0 + d.min(DVec2::ZERO);
    let hi = a.1 + d.max(DVec2::ZERO);
    lo.x <= b.1.x && b.0.x <= hi.x && lo.y <= b.1.y && b.0.y <= hi.y
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Capsule, Circle, Compound, ConvexPolygon, Obb, Point, Segment};
    use crate::test_support::{boxed, l_shape, v};
    use alloc::vec;

    fn circle(x: f32, y: f32, r: f32) -> Shape {
        Circle::new(v(x, y), r).unwrap().into()
    }

    fn assert_hit(h: Option<CastHit>, t: f32, point: Vec2, normal: Vec2) -> CastHit {
        let h = h.unwrap_or_else(|| panic!("expected a hit at t = {t}"));
        assert!((h.t - t).abs() < 1e-6, "t: {h:?}, expected {t}");
        assert!(
            h.point.distance(point) < 1e-5,
            "point: {h:?}, expected {point}"
        );
        assert!(
            h.normal.distance(normal) < 1e-6,
            "normal: {h:?}, expected {normal}"
        );
        h
    }

    /// Both argument orders: the same `t` and point, the normal flipped.
    fn cast_both(a: &Shape, va: Vec2, b: &Shape, vb: Vec2) -> Option<CastHit> {
        let ab = cast_shapes(a, va, b, vb);
        let ba = cast_shapes(b, vb, a, va);
        match (ab, ba) {
            (Some(x), Some(y)) => {
                assert_eq!(x.t, y.t, "{x:?} vs {y:?}");
                assert!(x.point.distance(y.point) < 1e-5, "{x:?} vs {y:?}");
                assert!(x.normal.distance(-y.normal) < 1e-6, "{x:?} vs {y:?}");
            }
            (x, y) => assert_eq!(x.is_some(), y.is_some(), "{x:?} vs {y:?}"),
        }
        ab
    }

    #[test]
    fn boxes_apart_along_a_direction_only_with_a_gap() {
        let b = |x0: f64, y0: f64, x1: f64, y1: f64| (DVec2::new(x0, y0), DVec2::new(x1, y1));
        let (a, other) = (b(2.0, 0.0, 3.0, 1.0), b(0.0, 0.0, 1.0, 1.0));
        assert!(boxes_apart_along(a, other, DVec2::X, 3.0));
        assert!(boxes_apart_along(a, other, DVec2::new(1.0, 0.5), 3.0));
        assert!(!boxes_apart_along(a, other, -DVec2::X, 3.0));
        assert!(!boxes_apart_along(a, other, DVec2::Y, 3.0));
        // Touching, and apart only through the diagonal corners: not confirmed.
        assert!(!boxes_apart_along(
            b(1.0, 0.0, 2.0, 1.0),
            other,
            DVec2::X,
            2.0
        ));
        assert!(!boxes_apart_along(
            b(1.5, 1.5, 2.0, 2.0),
            b(0.0, 0.0, 1.6, 1.6),
            DVec2::ONE,
            2.0
        ));
    }

    #[test]
    fn separated_circles_meet_head_on() {
        let a = circle(0.0, 0.0, 1.0);
        let b = circle(10.0, 0.0, 2.0);
        // Closing speed 14, gap 7: half way through the step.
        let h = cast_both(&a, v(8.0, 0.0), &b, v(-6.0, 0.0));
        assert_hit(h, 0.5, v(5.0, 0.0), Vec2::X);
        assert!(cast_both(&a, v(6.0, 0.0), &b, Vec2::ZERO).is_none()); // one short
        assert_hit(
            cast_both(&a, v(7.0, 0.0), &b, Vec2::ZERO),
            1.0,
            v(8.0, 0.0),
            Vec2::X,
        ); // touches at the end: a hit
    }

    #[test]
    fn box_falling_onto_a_floor_lands_on_its_face() {
        let b = boxed(0.0, 5.0, 2.0, 6.0);
        let floor = boxed(-10.0, -1.0, 10.0, 0.0);
        let h = cast_both(&b, v(0.0, -10.0), &floor, Vec2::ZERO);
        let h = assert_hit(h, 0.5, v(1.0, 0.0), -Vec2::Y);
        assert_eq!(h.depth, 0.0);
    }

    #[test]
    fn thin_wall_crossed_in_one_step_is_hit() {
        let wall: Shape = Segment::new(v(5.0, -1.0), v(5.0, 1.0)).unwrap().into();
        let bullet: Shape = Point::new(v(0.0, 0.0)).unwrap().into();
        assert_hit(
            cast_both(&bullet, v(1000.0, 0.0), &wall, Vec2::ZERO),
            0.005,
            v(5.0, 0.0),
            Vec2::X,
        );
        let thin = boxed(5.0, -1.0, 5.0, 1.0); // zero width
        assert_hit(
            cast_both(&circle(0.0, 0.0, 0.0), v(0.0, 0.0), &thin, v(-1000.0, 0.0)),
            0.005,
            Vec2::ZERO,
            Vec2::X,
        );
    }

    #[test]
    fn grazing_a_corner_hits_and_passing_by_one_unit_misses() {
        let b = boxed(0.0, 0.0, 2.0, 2.0);
        let c = circle(-5.0, 3.0, 1.0); // its bottom runs along y = 2
        let h = assert_hit(
            cast_both(&c, v(10.0, 0.0), &b, Vec2::ZERO),
            0.5,
            v(0.0, 2.0),
            -Vec2::Y,
        );
        assert_eq!(h.depth, 0.0);
        assert!(cast_both(&circle(-5.0, 4.0, 1.0), v(10.0, 0.0), &b, Vec2::ZERO).is_none());
        // Point along the top edge: enters through the corner, end-on.
        let p: Shape = Point::new(v(-3.0, 2.0)).unwrap().into();
        assert_hit(
            cast_both(&p, v(6.0, 0.0), &b, Vec2::ZERO),
            0.5,
            v(0.0, 2.0),
            Vec2::X,
        );
    }

    #[test]
    fn parallel_motion_never_closes_the_gap() {
        let a = boxed(0.0, 0.0, 1.0, 1.0);
        let b = boxed(0.0, 3.0, 1.0, 4.0);
        assert!(cast_both(&a, v(100.0, 0.0), &b, v(100.0, 0.0)).is_none());
        assert!(cast_both(&a, v(50.0, 0.0), &b, v(-50.0, 0.0)).is_none());
        assert!(cast_both(&a, Vec2::ZERO, &b, Vec2::ZERO).is_none());
        // Parallel segments sliding onto each other end to end.
        let s: Shape = Segment::new(v(0.0, 0.0), v(2.0, 0.0)).unwrap().into();
        let u: Shape = Segment::new(v(5.0, 0.0), v(6.0, 0.0)).unwrap().into();
        assert_hit(
            cast_both(&s, v(6.0, 0.0), &u, Vec2::ZERO),
            0.5,
            v(5.0, 0.0),
            Vec2::X,
        );
    }

    #[test]
    fn overlapping_shapes_hit_at_zero_with_their_contact() {
        let a = circle(0.0, 0.0, 2.0);
        let b = circle(3.0, 0.0, 2.0);
        let h = assert_hit(
            cast_both(&a, v(-10.0, 0.0), &b, Vec2::ZERO),
            0.0,
            v(1.5, 0.0),
            Vec2::X,
        );
        assert_eq!(h.depth, 1.0);
        // Touching at zero, even with no motion at all.
        let h = cast_both(
            &boxed(0.0, 0.0, 1.0, 1.0),
            Vec2::ZERO,
            &boxed(1.0, 0.0, 2.0, 1.0),
            Vec2::ZERO,
        );
        assert_hit(h, 0.0, v(1.0, 0.5), Vec2::X);
    }

    #[test]
    fn rotated_boxes_meet_corner_to_face() {
        let a: Shape = Obb::new(v(0.0, 0.0), v(1.0, 1.0), core::f32::consts::FRAC_PI_4)
            .unwrap()
            .into();
        let b = boxed(4.0, -3.0, 6.0, 3.0);
        let corner = core::f32::consts::SQRT_2;
        let h = cast_both(&a, v(8.0, 0.0), &b, Vec2::ZERO);
        assert_hit(h, (4.0 - corner) / 8.0, v(4.0, 0.0), Vec2::X);
    }

    #[test]
    fn capsule_swept_into_a_polygon_and_a_circle() {
        let k: Shape = Capsule::new(v(0.0, 0.0), v(0.0, 4.0), 1.0).unwrap().into();
        let tri: Shape = ConvexPolygon::new(&[v(6.0, 0.0), v(9.0, 0.0), v(6.0, 3.0)])
            .unwrap()
            .into();
        assert_hit(
            cast_both(&k, v(10.0, 0.0), &tri, Vec2::ZERO),
            0.5,
            v(6.0, 1.5),
            Vec2::X,
        );
        // Circle dropping onto the capsule's rounded top.
        let c = circle(0.0, 10.0, 1.0);
        assert_hit(
            cast_both(&c, v(0.0, -8.0), &k, Vec2::ZERO),
            0.5,
            v(0.0, 5.0),
            -Vec2::Y,
        );
    }

    #[test]
    fn concave_and_compound_shapes_hit_at_their_earliest_part() {
        // A point dropping into the L's notch lands on the inner step at y = 1, not at y = 2.
        let p: Shape = Point::new(v(1.5, 5.0)).unwrap().into();
        assert_hit(
            cast_both(&p, v(0.0, -8.0), &l_shape(), Vec2::ZERO),
            0.5,
            v(1.5, 1.0),
            -Vec2::Y,
        );
        let c: Shape = Compound::new(vec![circle(10.0, 0.0, 1.0), boxed(5.0, -1.0, 6.0, 1.0)])
            .unwrap()
            .into();
        assert_hit(
            cast_both(&circle(0.0, 0.0, 1.0), v(8.0, 0.0), &c, Vec2::ZERO),
            0.5,
            v(5.0, 0.0),
            Vec2::X,
        );
        assert!(cast_both(&circle(0.0, 3.0, 1.0), v(20.0, 0.0), &c, Vec2::ZERO).is_none());
    }

    #[test]
    fn circles_with_a_motion_not_finite_never_hit() {
        let (inf, nan) = (f32::INFINITY, f32::NAN);
        let a = circle(0.0, 0.0, 1.0);
        for b in [
            circle(5.0, 0.0, 1.0),
            circle(1.0, 0.0, 1.0),
            circle(0.0, 5.0, 0.0),
        ] {
            for v in [
                v(inf, 0.0),
                v(-inf, 0.0),
                v(nan, 0.0),
                v(0.0, inf),
                v(inf, inf),
            ] {
                assert!(cast_both(&a, v, &b, Vec2::ZERO).is_none(), "{b:?} {v}");
                assert!(cast_both(&a, v, &b, v).is_none(), "{b:?} {v}");
                assert!(cast_both(&a, Vec2::X, &b, v).is_none(), "{b:?} {v}");
            }
        }
    }

    #[test]
    fn degenerate_inputs_do_not_panic() {
        let shapes = [
            circle(0.0, 0.0, 0.0),
            boxed(1.0, 1.0, 1.0, 1.0),
            Segment::new(v(2.0, 2.0), v(2.0, 2.0)).unwrap().into(),
            Capsule::new(v(3.0, 0.0), v(3.0, 0.0), 0.0).unwrap().into(),
            Obb::new(v(0.0, 3.0), Vec2::ZERO, 1.0).unwrap().into(),
            l_shape(),
        ];
        for a in &shapes {
            for b in &shapes {
                for va in [Vec2::ZERO, v(5.0, 5.0), v(-1e30, 3.0), v(f32::NAN, 0.0)] {
                    if let Some(h) = cast_shapes(a, va, b, Vec2::ZERO) {
                        assert!(h.t.is_finite() && (0.0..=1.0).contains(&h.t), "{h:?}");
                        assert!((h.normal.length() - 1.0).abs() < 1e-5, "{h:?}");
                    }
                }
            }
        }
    }
}
