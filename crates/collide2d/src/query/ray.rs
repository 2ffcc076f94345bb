//! Ray casts against one shape: [`Ray`], [`cast_ray`], [`RayHit`].
//!
//! Each convex part is clipped against the ray's line, in `f64`: polygons by Cyrus-Beck
//! clipping against every edge's half-plane (Cyrus and Beck 1978; Ericson, RTCD 5.3.8), circles
//! by the quadratic in its cancellation-free form (Haines et al., Ray Tracing Gems 7), capsules
//! as the union of two discs and the rectangle between them, zero-radius segments and points by
//! cross products. Concave polygons and compounds take the earliest hit over their parts.

use crate::math::Vec2;
use crate::query::parts::each_part;
use crate::query::point::contains_point;
use crate::shape::convex::Convex;
use crate::shape::Shape;
use core::ops::ControlFlow;
use glam::DVec2;

/// A half-line `origin + dir * t`, `t >= 0`. `dir` need not be unit length: `t` is measured in
/// multiples of it, so with `dir = velocity * dt`, `t = 1` is the end of the frame's motion.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ray {
    /// Where the ray starts.
    pub origin: Vec2,
    /// Its direction; any length, zero allowed.
    pub dir: Vec2,
}

impl Ray {
    /// The ray from `origin` along `dir`.
    #[must_use]
    pub fn new(origin: Vec2, dir: Vec2) -> Ray {
        Ray { origin, dir }
    }

    /// The point `origin + dir * t`.
    #[must_use]
    pub fn at(&self, t: f32) -> Vec2 {
        self.origin + self.dir * t
    }
}

/// Where a ray first meets a shape. See [`cast_ray`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// The ray parameter of the hit, in `[0, max_t]`: `f32::INFINITY` when it overflows `f32`
    /// (a tiny `dir` with `max_t = inf`).
    pub t: f32,
    /// The hit point, `origin + dir * t` computed in `f64` with the unrounded `t` and rounded
    /// once, so it lies on the ray even where `t` overflowed.
    pub point: Vec2,
    /// Unit outward normal of the surface at `point`; `-dir` normalised when the ray starts
    /// inside the shape.
    pub normal: Vec2,
}

/// The first point where `ray` meets `shape` with `t` in `[0, max_t]`, or `None`.
///
/// - A ray that starts inside the shape or on its boundary (exactly, as
///   [`contains_point`]) hits at `t = 0` with `normal = -dir`
///   normalised (`+X` when `dir` is zero).
/// - A zero `dir` hits only when the origin lies in the shape.
/// - Shapes are closed: a ray that only grazes a corner or a circle, or runs along an edge, hits.
///   Outside the start test, hits are decided in `f64`, so a ray passing within rounding error
///   (about `1e-16` relative) of a corner may go either way.
/// - At a polygon corner the normal is that of one of the two faces; where a ray meets a
///   zero-radius segment end-on (running along it), or a point, the normal is `-dir` normalised,
///   as it is where rounding leaves no direction (a small disc about `1e16` times its radius away
///   from the origin). The hit point is clamped to `±f32::MAX`.
/// - `max_t` may be `f32::INFINITY`; a negative or NaN `max_t`, or a non-finite ray, never hits.
///
/// ```
/// use collide2d::{cast_ray, math::Vec2, Aabb, Ray};
/// let wall = Aabb::new(Vec2::new(4.0, -1.0), Vec2::new(5.0, 1.0))?.into();
/// let ray = Ray::new(Vec2::ZERO, Vec2::new(2.0, 0.0));
/// let hit = cast_ray(&wall, &ray, 10.0).unwrap();
/// assert_eq!((hit.t, hit.point, hit.normal), (2.0, Vec2::new(4.0, 0.0), -Vec2::X));
/// assert!(cast_ray(&wall, &ray, 1.5).is_none()); // stops short
/// # Ok::<(), collide2d::ShapeError>(())
/// ```
#[must_use]
pub fn cast_ray(shape: &Shape, ray: &Ray, max_t: f32) -> Option<RayHit> {
    if max_t.is_nan() || max_t < 0.0 || !ray.origin.is_finite() || !ray.dir.is_finite() {
        return None;
    }
    match shape {
        Shape::Circle(c) => ray_circle(c.center(), c.radius(), ray, max_t),
        Shape::Aabb(b) => ray_box(b.min(), b.max(), ray, max_t),
        _ => ray_general(shape, ray, max_t),
    }
}

/// [`cast_ray`] of the closed disc of `center` and `radius`, bit for bit, for a finite ray and
/// a `max_t >= 0`: the same numbers without the `Shape` (the world's records reach it directly).
/// On x86_64, inlined whole into the world's ray walk (see `FirstHit`); elsewhere the wasm
/// build's size counts.
#[cfg_attr(target_arch = "x86_64", inline(always))]
#[cfg_attr(not(target_arch = "x86_64"), inline)]
pub(crate) fn ray_circle(center: Vec2, radius: f32, ray: &Ray, max_t: f32) -> Option<RayHit> {
    if crate::exact::cmp_dist2(ray.origin, center, 0.0, radius).is_le() {
        return Some(start_hit(ray));
    }
    let (o, d) = (ray.origin.as_dvec2(), ray.dir.as_dvec2());
    if d == DVec2::ZERO {
        return None;
    }
    let span = disc_span(center.as_dvec2(), f64::from(radius), o, d)?;
    if span.exit < 0.0 {
        return None;
    }
    finish(span.enter.max(0.0), span.normal, o, d, max_t)
}

/// [`cast_ray`] of the closed box `min..max`, bit for bit, for a finite ray and a
/// `max_t >= 0`: a box of positive width and height is clipped against its four edges as its
/// hull would be, with the edge count known (the general loop divides by it). Inlined as
/// [`ray_circle`] is.
#[cfg_attr(target_arch = "x86_64", inline(always))]
#[cfg_attr(not(target_arch = "x86_64"), inline)]
pub(crate) fn ray_box(min: Vec2, max: Vec2, ray: &Ray, max_t: f32) -> Option<RayHit> {
    let p = ray.origin;
    if min.cmple(p).all() && p.cmple(max).all() {
        return Some(start_hit(ray));
    }
    let (o, d) = (p.as_dvec2(), ray.dir.as_dvec2());
    if d == DVec2::ZERO {
        return None;
    }
    if min.x == max.x || min.y == max.y {
        return ray_flat_box(min, max, ray, max_t);
    }
    let span = box_span(min.as_dvec2(), max.as_dvec2(), o, d)?;
    if span.exit < 0.0 {
        return None;
    }
    let t = if span.enter <= 0.0 {
        first_entry(&crate::shape::convex::box_hull(min, max), ray, span.exit)?
    } else {
        span.enter
    };
    // `finish` with the unit normal known, written out: through a shared helper taking the
    // normal as a closure, the world's rays cost 2 instructions more each.
    (t <= f64::from(max_t)).then(|| RayHit {
        t: (t as f32).min(max_t),
        point: crate::query::convex::clamp_to_f32(o + d * t),
        normal: box_normal(span.normal),
    })
}

/// What [`finish`] makes of a normal [`box_span`] gives, `(+0, ±w)` or `(±h, -0)` with `w`,
/// `h` positive and finite, without normalising: `(+0, ±1)` or `(±1, -0)`. There, `length` is
/// `sqrt(w * w)`, which is `w` (the rounded square's root is exact for any `w` whose square
/// neither overflows nor underflows in `f64`, as an `f32` box's width's cannot); `w * (1 / w)`
/// is within 2^-53 of 1, which rounds to 1 in `f32`; and a zero times the positive `1 / w`
/// keeps its sign (test `box_normals_are_the_normalised_edges`).
#[inline(always)]
fn box_normal(n: DVec2) -> Vec2 {
    DVec2::select(n.cmpne(DVec2::ZERO), DVec2::ONE, DVec2::ZERO)
        .copysign(n)
        .as_vec2()
}

/// [`ray_box`] of a box of zero width or height, a segment or a point: its hull's own path.
/// Rare: out of line.
#[inline(never)]
fn ray_flat_box(min: Vec2, max: Vec2, ray: &Ray, max_t: f32) -> Option<RayHit> {
    let (o, d) = (ray.origin.as_dvec2(), ray.dir.as_dvec2());
    let part = crate::shape::convex::box_hull(min, max);
    first_hit_of_parts(ray, max_t, |consider| {
        consider(line_span(&part, o, d), Some(&part))
    })
}

/// The hit at `t = 0` of a ray that starts in the shape.
fn start_hit(ray: &Ray) -> RayHit {
    let d = ray.dir.as_dvec2();
    let normal = if d == DVec2::ZERO {
        Vec2::X
    } else {
        (-d).normalize().as_vec2()
    };
    RayHit {
        t: 0.0,
        point: ray.origin,
        normal,
    }
}

/// The hit at `t` (`None` past `max_t`) with the outward `normal` there, not unit length.
#[inline]
fn finish(t: f64, normal: DVec2, o: DVec2, d: DVec2, max_t: f32) -> Option<RayHit> {
    (t <= f64::from(max_t)).then(|| RayHit {
        t: (t as f32).min(max_t),
        // Clamped so a hit on a shape reaching past f32::MAX stays finite.
        point: crate::query::convex::clamp_to_f32(o + d * t),
        // Far from the origin, the normal of a small disc can cancel to zero in f64: then the
        // ray's own direction stands in, as for a point.
        normal: normal
            .try_normalize()
            .unwrap_or_else(|| (-d).normalize())
            .as_vec2(),
    })
}

/// [`cast_ray`] of any shape, for a finite ray and a `max_t >= 0`.
fn ray_general(shape: &Shape, ray: &Ray, max_t: f32) -> Option<RayHit> {
    if starts_inside(shape, ray.origin) {
        return Some(start_hit(ray));
    }
    let (o, d) = (ray.origin.as_dvec2(), ray.dir.as_dvec2());
    if d == DVec2::ZERO {
        return None;
    }
    first_hit_of_parts(ray, max_t, |consider| match shape.as_convex() {
        Some(part) => consider(line_span(&part, o, d), Some(&part)),
        None => {
            let _ = each_part(shape, &mut |part| {
                consider(line_span(part, o, d), Some(part));
                ControlFlow::<()>::Continue(())
            });
        }
    })
}

/// The first hit among the spans `parts` hands its `consider`, for a ray whose origin lies
/// outside the shape (exactly) and whose `dir` is not zero.
fn first_hit_of_parts(
    ray: &Ray,
    max_t: f32,
    parts: impl FnOnce(&mut dyn FnMut(Option<LineSpan>, Option<&Convex>)),
) -> Option<RayHit> {
    let (o, d) = (ray.origin.as_dvec2(), ray.dir.as_dvec2());
    // The origin lies outside the shape, so outside every part: the first entry into any part
    // is the first point of the shape.
    let mut best: Option<(f64, DVec2)> = None;
    parts(&mut |span: Option<LineSpan>, part: Option<&Convex>| {
        let Some(span) = span else { return };
        if span.exit < 0.0 {
            return;
        }
        // The origin is outside (exactly), so a polygon's rounded span that starts at or before
        // it is rounding's: the entry is searched for with exact tests instead.
        let t = match part {
            Some(part) if span.enter <= 0.0 => match first_entry(part, ray, span.exit) {
                Some(t) => t,
                None => return,
            },
            _ => span.enter.max(0.0),
        };
        if t <= f64::from(max_t) && best.is_none_or(|(b, _)| t < b) {
            best = Some((t, span.normal));
        }
    });
    let (t, normal) = best?;
    finish(t, normal, o, d, max_t)
}

/// The first `t` in `[0, exit]` at which the ray, its origin outside `part`, meets it: for
/// spans whose rounded clipping starts at or before the origin, which rounding alone can make (a
/// sliver of a polygon along the ray's line, far away, gives one a few ulps long around the
/// origin). Bisection on the exact test of the segment from the origin to `origin + dir * t`
/// (longer segments meet whatever shorter ones meet); `None` when even the whole span's segment
/// misses. Rare, so exact tests are affordable.
#[cold]
#[inline(never)]
fn first_entry(part: &Convex, ray: &Ray, exit: f64) -> Option<f64> {
    let (o, d) = (ray.origin.as_dvec2(), ray.dir.as_dvec2());
    let meets = |t: f64| {
        let end = crate::query::convex::clamp_to_f32(o + d * t);
        let segment = Shape::Segment(crate::shape::Segment::raw(ray.origin, end));
        segment
            .as_convex()
            .is_some_and(|s| crate::query::convex::intersects(&s, part))
    };
    if !meets(exit) {
        return None;
    }
    // `meets(lo)` is false (the origin is outside), `meets(hi)` true.
    let (mut lo, mut hi) = (0.0, exit);
    for _ in 0..80 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if meets(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

/// [`contains_point`]`(shape, p)` for a finite `p`, with the two commonest shapes decided
/// directly: a closed box by comparisons, a closed disc by the exact sign of
/// `|p - centre|^2 - radius^2`.
#[inline]
fn starts_inside(shape: &Shape, p: Vec2) -> bool {
    match shape {
        Shape::Aabb(b) => b.min().cmple(p).all() && p.cmple(b.max()).all(),
        Shape::Circle(c) => crate::exact::cmp_dist2(p, c.center(), 0.0, c.radius()).is_le(),
        _ => contains_point(shape, p),
    }
}

/// Where a line `o + d * t` (every real `t`, `d != 0`) runs through a convex shape.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LineSpan {
    /// The smallest `t` in the shape.
    pub enter: f64,
    /// The largest `t` in the shape, `>= enter`.
    pub exit: f64,
    /// An outward normal (not unit length) at `enter`.
    pub normal: DVec2,
}

/// The interval of the line `o + d * t` inside the convex shape `c`, or `None` if they do not
/// meet (in `f64`). `d` must not be zero.
pub(crate) fn line_span(c: &Convex, o: DVec2, d: DVec2) -> Option<LineSpan> {
    let hull = c.points();
    line_span_parts(
        hull.len(),
        |i| hull[i].as_dvec2(),
        f64::from(c.radius),
        o,
        d,
    )
}

/// [`line_span`] for the hull of `n >= 1` points `vertex(i)` dilated by `r` (ignored when
/// `n >= 3`: polygons here have no radius).
pub(crate) fn line_span_parts(
    n: usize,
    vertex: impl Fn(usize) -> DVec2,
    r: f64,
    o: DVec2,
    d: DVec2,
) -> Option<LineSpan> {
    debug_assert!(d != DVec2::ZERO && n >= 1);
    // Two equal points (a segment that rounded to a point: a part far shorter than the other's
    // coordinates) are that point; as a segment, its direction was NaN and its span the whole
    // line (fuzz crash-45b1).
    let n = if n == 2 && vertex(0) == vertex(1) {
        1
    } else {
        n
    };
    match (n, r > 0.0) {
        (n, _) if n >= 3 => polygon_span(n, vertex, o, d),
        (1, false) => point_span(vertex(0), o, d),
        (_, false) => segment_span(vertex(0), vertex(1), o, d),
        (1, true) => disc_span(vertex(0), r, o, d),
        (_, true) => capsule_span(vertex(0), vertex(1), r, o, d),
    }
}

/// Cyrus-Beck: intersect the line with each edge's closed inner half-plane.
/// The hull has `n >= 3` vertices, counter-clockwise.
fn polygon_span(n: usize, vertex: impl Fn(usize) -> DVec2, o: DVec2, d: DVec2) -> Option<LineSpan> {
    clip_edges(n, vertex, o, d)
}

/// [`polygon_span`]'s edges, each as [`clip`] takes it (a box's are [`box_span`]'s).
#[inline(always)]
fn clip_edges(n: usize, vertex: impl Fn(usize) -> DVec2, o: DVec2, d: DVec2) -> Option<LineSpan> {
    let edges = (0..n).map(|i| {
        let (p, q) = (vertex(i), vertex((i + 1) % n));
        let e = q - p;
        let normal = DVec2::new(e.y, -e.x); // outward for a counter-clockwise hull
        (normal.dot(o - p), normal.dot(d), normal)
    });
    clip(edges, d)
}

/// The span of the line `o + d * t` inside every edge's closed inner half-plane
/// `normal . (o + d t - p) <= 0`, each edge given as `(normal . (o - p), normal . d, normal)`.
#[inline(always)]
fn clip(edges: impl IntoIterator<Item = (f64, f64, DVec2)>, d: DVec2) -> Option<LineSpan> {
    let mut span = LineSpan {
        enter: f64::NEG_INFINITY,
        exit: f64::INFINITY,
        normal: -d,
    };
    for (num, denom, normal) in edges {
        if denom == 0.0 {
            if num > 0.0 {
                return None; // parallel and outside
            }
        } else if denom < 0.0 {
            let t = -num / denom;
            if t > span.enter || (t == span.enter && more_head_on(normal, span.normal, d)) {
                span.enter = t;
                span.normal = normal;
            }
        } else {
            span.exit = span.exit.min(-num / denom);
        }
    }
    (span.enter <= span.exit).then_some(span)
}

/// [`clip_edges`] of the box `min..max` (of positive width and height) as its counter-clockwise
/// hull from `min`, without the products by the zero component of each edge's normal. Each
/// `num` and `denom` is the one remaining product: adding a zero to a non-zero number changes
/// none of its bits, and where the sum is zero only the sign of that zero may differ, which
/// no comparison sees. A zero `t` then reaches the result only as an exit handed to
/// `first_entry`, whose segment from the origin is then the origin itself, outside the box:
/// no hit either way. The normals are the loop's, with the same signed zeros.
#[inline(always)]
fn box_span(min: DVec2, max: DVec2, o: DVec2, d: DVec2) -> Option<LineSpan> {
    let (w, h) = (max.x - min.x, max.y - min.y);
    // Bottom, right, top and left edges: (the products left of normal . (o - p), normal . d,
    // the normal (e.y, -e.x) of edge e, its zero component from `a - a = +0`).
    let edges = [
        (-w * (o.y - min.y), -w * d.y, DVec2::new(0.0, -w)),
        (h * (o.x - max.x), h * d.x, DVec2::new(h, -0.0)),
        (w * (o.y - max.y), w * d.y, DVec2::new(0.0, w)),
        (-h * (o.x - min.x), -h * d.x, DVec2::new(-h, -0.0)),
    ];
    clip(edges, d)
}

/// At a corner where two faces are entered at the same `t`: whether `n` faces the direction
/// `d` more squarely than `m` (then, of two equally square, the one clockwise of `d`). The
/// order is unchanged when `n`, `m` and `d` are all negated, so a shape cast gives the same
/// face in both argument orders.
pub(crate) fn more_head_on(n: DVec2, m: DVec2, d: DVec2) -> bool {
    let (n, m) = (n.normalize(), m.normalize());
    let (dn, dm) = (n.dot(d), m.dot(d));
    dn < dm || (dn == dm && n.perp_dot(d) > m.perp_dot(d))
}

/// The closed disc of centre `c`, radius `r`.
pub(crate) fn disc_span(c: DVec2, r: f64, o: DVec2, d: DVec2) -> Option<LineSpan> {
    let m = o - c;
    let dd = d.length_squared();
    let mid = -m.dot(d) / dd; // t of the point nearest the centre
    let off = m + d * mid; // from the centre to that point, perpendicular to d
    let h2 = r * r - off.length_squared();
    if h2 < 0.0 {
        return None;
    }
    let half = crate::math::sqrt(h2 / dd);
    let enter = mid - half;
    Some(LineSpan {
        enter,
        exit: mid + half,
        normal: m + d * enter,
    })
}

/// The capsule around segment `ab`: the union of the discs at `a` and `b` and the rectangle
/// between them. A rectangle entry through an end face lies inside that end's disc, so only an
/// entry through one of the two sides may give the normal.
pub(crate) fn capsule_span(a: DVec2, b: DVec2, r: f64, o: DVec2, d: DVec2) -> Option<LineSpan> {
    let u = (b - a).normalize();
    let side = u.perp() * r; // to the left of a -> b
    let rect = [a - side, b - side, b + side, a + side]; // counter-clockwise
    let mut out: Option<LineSpan> = None;
    let mut merge = |s: LineSpan, may_enter: bool| {
        out = Some(match out {
            None => s,
            Some(acc) => {
                let enters = may_enter && s.enter < acc.enter;
                LineSpan {
                    enter: if enters { s.enter } else { acc.enter },
                    exit: acc.exit.max(s.exit),
                    normal: if enters { s.normal } else { acc.normal },
                }
            }
        });
    };
    for s in [disc_span(a, r, o, d), disc_span(b, r, o, d)]
        .into_iter()
        .flatten()
    {
        merge(s, true);
    }
    // A radius lost in rounding against the ends' coordinates leaves a rectangle of zero
    // width: its end edges vanish, and so would every bound along the axis. It is the segment.
    let thin = a - side == a + side || b - side == b + side;
    // A segment lost in rounding against the radius leaves one of zero length: its side edges
    // vanish and the clip spans the whole line. The discs are the capsule then (the rectangle
    // adds slivers `|ab|² / r` wide, far below the rounding of `r`).
    let short = a - side == b - side || a + side == b + side;
    let middle = if short {
        None
    } else if thin {
        segment_span(a, b, o, d)
    } else {
        polygon_span(4, |i| rect[i], o, d)
    };
    if let Some(s) = middle {
        merge(s, s.normal.dot(u).abs() < s.normal.dot(u.perp()).abs());
    }
    out
}

/// A zero-radius segment `ab`, `a != b`.
fn segment_span(a: DVec2, b: DVec2, o: DVec2, d: DVec2) -> Option<LineSpan> {
    // Measured from the end nearer the origin: from the far end of a long segment, `a - o`
    // rounds away the origin's offset and a ray far off the near end can seem to hit it.
    let (a, b) = if (b - o).length_squared() < (a - o).length_squared() {
        (b, a)
    } else {
        (a, b)
    };
    let e = b - a;
    let denom = d.perp_dot(e);
    let ao = a - o;
    if denom == 0.0 {
        // Parallel: on the line or not at all, then the interval between the ends.
        if ao.perp_dot(d) != 0.0 {
            return None;
        }
        let dd = d.length_squared();
        let (ta, tb) = (ao.dot(d) / dd, (b - o).dot(d) / dd);
        return Some(LineSpan {
            enter: ta.min(tb),
            exit: ta.max(tb),
            normal: -d,
        });
    }
    let s = ao.perp_dot(d) / denom; // where on ab
    if !(0.0..=1.0).contains(&s) {
        return None;
    }
    let t = ao.perp_dot(e) / denom;
    let n = e.perp();
    let normal = if n.dot(d) > 0.0 { -n } else { n };
    Some(LineSpan {
        enter: t,
        exit: t,
        normal,
    })
}

/// A single point `p`.
fn point_span(p: DVec2, o: DVec2, d: DVec2) -> Option<LineSpan> {
    let m = p - o;
    if m.perp_dot(d) != 0.0 {
        return None;
    }
    let t = m.dot(d) / d.length_squared();
    Some(LineSpan {
        enter: t,
        exit: t,
        normal: -d,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::point::distance_to_point;
    use crate::shape::{Capsule, Circle, Compound, ConvexPolygon, Obb, Point, Segment};
    use crate::test_support::{boxed, l_shape, v};
    use alloc::vec;
    use alloc::vec::Vec;

    fn circle(x: f32, y: f32, r: f32) -> Shape {
        Circle::new(v(x, y), r).unwrap().into()
    }

    /// `box_normal` gives the bits `finish` would normalise each of `box_span`'s edge normals
    /// to, for boxes from any finite `f32` sides: widths from the least subnormal to the
    /// largest, and random ones.
    #[test]
    fn box_normals_are_the_normalised_edges() {
        let mut next = crate::test_support::xorshift(0x2545_f491_4f6c_dd1d);
        let mut sides = vec![
            (0.0, f32::from_bits(1)),
            (-f32::MAX, f32::MAX),
            (1.0, 1.0f32.next_up()),
            (-1e-38, 1e38),
        ];
        for _ in 0..200_000 {
            let seed = next();
            let (a, b) = (
                f32::from_bits(seed as u32),
                f32::from_bits((seed >> 32) as u32),
            );
            if a.is_finite() && b.is_finite() && a != b {
                sides.push((a.min(b), a.max(b)));
            }
        }
        for &(lo, hi) in &sides {
            let w = f64::from(hi) - f64::from(lo);
            for n in [
                DVec2::new(0.0, -w),
                DVec2::new(w, -0.0),
                DVec2::new(0.0, w),
                DVec2::new(-w, -0.0),
            ] {
                let want = n.try_normalize().unwrap().as_vec2();
                let got = box_normal(n);
                assert_eq!(
                    (got.x.to_bits(), got.y.to_bits()),
                    (want.x.to_bits(), want.y.to_bits()),
                    "{n:?}"
                );
            }
        }
    }

    #[test]
    fn a_segment_of_two_equal_points_spans_like_the_point() {
        let (p, d) = (DVec2::new(6.0, 8.0), DVec2::new(-3.0, -4.0));
        let capsule = line_span_parts(2, |_| p, 2.0, DVec2::ZERO, d).unwrap();
        let disc = disc_span(p, 2.0, DVec2::ZERO, d).unwrap();
        assert_eq!((capsule.enter, capsule.exit), (disc.enter, disc.exit));
        assert!(line_span_parts(2, |_| p, 0.0, DVec2::ZERO, d).is_some());
        assert!(line_span_parts(2, |_| p, 0.0, DVec2::ZERO, DVec2::new(4.0, -3.0)).is_none());
    }

    #[test]
    fn a_capsule_whose_segment_rounds_away_against_its_radius_spans_like_its_discs() {
        // A segment 2,000 long with radius 2e28: `a ± side` and `b ± side` round to the same
        // points, so the rectangle between the discs has no length. Its clip spanned the
        // whole line, so every point of the line was inside (fuzz crash-f7db).
        let (a, b, r) = (
            DVec2::new(665.0, -779.0),
            DVec2::new(-673.0, 771.0),
            1.98e28,
        );
        let d = DVec2::new(0.757, 0.654) * 1.6e29;
        let s = capsule_span(a, b, r, DVec2::ZERO, d).unwrap();
        let disc = disc_span(a, r, DVec2::ZERO, d).unwrap();
        assert!(s.enter.is_finite() && s.exit.is_finite(), "{s:?}");
        assert!((s.exit - disc.exit).abs() < 1e-9 && (s.enter - disc.enter).abs() < 1e-9);
        assert!(capsule_span(a, b, r, DVec2::new(1e29, -1e29), d).is_none());
    }

    #[test]
    fn starts_inside_is_contains_point() {
        let shapes = [
            circle(0.5, -0.25, 1.5),
            circle(0.1, 0.2, 0.3),
            circle(3.0, 4.0, 0.0),
            boxed(-1.0, -0.5, 2.0, 0.75),
            boxed(0.5, 0.5, 0.5, 2.0),
        ];
        for shape in &shapes {
            let b = shape.aabb();
            for i in 0..=40 {
                for j in 0..=40 {
                    let p = b.min() - 0.5 + (b.size() + 1.0) * v(i as f32, j as f32) / 40.0;
                    for q in [p, v(p.x, b.min().y), v(b.max().x, p.y), b.min(), b.max()] {
                        assert_eq!(
                            starts_inside(shape, q),
                            contains_point(shape, q),
                            "{shape:?} {q:?}"
                        );
                    }
                }
            }
            // Points of the circle's boundary that floats hold exactly: (3, 4, 5) triangles.
            if let Shape::Circle(c) = shape {
                let r = c.radius();
                for d in [v(0.6, 0.8), v(-0.8, 0.6), v(1.0, 0.0)] {
                    let q = c.center() + d * r;
                    assert_eq!(starts_inside(shape, q), contains_point(shape, q));
                }
            }
        }
    }

    fn cast(shape: &Shape, origin: Vec2, dir: Vec2) -> Option<RayHit> {
        cast_ray(shape, &Ray::new(origin, dir), f32::INFINITY)
    }

    fn assert_hit(hit: Option<RayHit>, t: f32, point: Vec2, normal: Vec2) {
        let h = hit.unwrap_or_else(|| panic!("expected a hit at t = {t}"));
        assert!((h.t - t).abs() < 1e-5, "t: {h:?}, expected {t}");
        assert!(
            h.point.distance(point) < 1e-5,
            "point: {h:?}, expected {point}"
        );
        assert!(
            h.normal.distance(normal) < 1e-5,
            "normal: {h:?}, expected {normal}"
        );
    }

    #[test]
    fn ray_hits_a_box_face_with_the_face_normal() {
        let b = boxed(0.0, 0.0, 2.0, 1.0);
        assert_hit(
            cast(&b, v(-3.0, 0.5), v(1.0, 0.0)),
            3.0,
            v(0.0, 0.5),
            -Vec2::X,
        );
        assert_hit(
            cast(&b, v(1.0, 5.0), v(0.0, -2.0)),
            2.0,
            v(1.0, 1.0),
            Vec2::Y,
        );
        let rotated: Shape = Obb::new(v(0.0, 0.0), v(1.0, 1.0), core::f32::consts::FRAC_PI_4)
            .unwrap()
            .into();
        let s = core::f32::consts::SQRT_2;
        let n = v(1.0, 1.0).normalize();
        assert_hit(
            cast(&rotated, v(3.0, 3.0), v(-1.0, -1.0)),
            3.0 - 0.5 * s,
            v(0.5 * s, 0.5 * s),
            n,
        );
    }

    #[test]
    fn ray_at_a_corner_takes_one_of_the_two_face_normals() {
        let b = boxed(0.0, 0.0, 1.0, 1.0);
        let h = cast(&b, v(3.0, 3.0), v(-1.0, -1.0)).unwrap();
        assert_eq!((h.t, h.point), (2.0, v(1.0, 1.0)));
        assert!(h.normal == Vec2::X || h.normal == Vec2::Y, "{h:?}");
    }

    #[test]
    fn grazing_a_corner_or_running_along_an_edge_hits() {
        let b = boxed(0.0, 0.0, 1.0, 1.0);
        // The line x + y = 2 touches the box only at (1, 1).
        let h = cast(&b, v(0.0, 2.0), v(1.0, -1.0)).unwrap();
        assert_eq!((h.t, h.point), (1.0, v(1.0, 1.0)));
        // Along the top edge, entering through the left one.
        assert_hit(
            cast(&b, v(-1.0, 1.0), v(1.0, 0.0)),
            1.0,
            v(0.0, 1.0),
            -Vec2::X,
        );
        assert!(cast(&b, v(-1.0, 1.0_f32.next_up()), v(1.0, 0.0)).is_none());
        // Tangent to a circle.
        let c = circle(0.0, 0.0, 1.0);
        assert_hit(
            cast(&c, v(-5.0, 1.0), v(1.0, 0.0)),
            5.0,
            v(0.0, 1.0),
            Vec2::Y,
        );
        assert!(cast(&c, v(-5.0, 1.0001), v(1.0, 0.0)).is_none());
    }

    #[test]
    fn ray_hits_circles_and_capsule_ends_with_radial_normals() {
        assert_hit(
            cast(&circle(0.0, 0.0, 1.0), v(-5.0, 0.0), v(2.0, 0.0)),
            2.0,
            v(-1.0, 0.0),
            -Vec2::X,
        );
        let cap: Shape = Capsule::new(v(0.0, 0.0), v(4.0, 0.0), 1.0).unwrap().into();
        assert_hit(
            cast(&cap, v(8.0, 0.0), v(-1.0, 0.0)),
            3.0,
            v(5.0, 0.0),
            Vec2::X,
        );
        assert_hit(
            cast(&cap, v(6.0, 0.6), v(-1.0, 0.0)),
            1.2,
            v(4.8, 0.6),
            v(0.8, 0.6),
        );
        assert_hit(
            cast(&cap, v(-3.0, -0.8), v(1.0, 0.0)),
            2.4,
            v(-0.6, -0.8),
            v(-0.6, -0.8),
        );
        // The flat sides.
        assert_hit(
            cast(&cap, v(2.0, 5.0), v(0.0, -1.0)),
            4.0,
            v(2.0, 1.0),
            Vec2::Y,
        );
        assert_hit(
            cast(&cap, v(0.0, -3.0), v(0.0, 1.0)),
            2.0,
            v(0.0, -1.0),
            -Vec2::Y,
        );
        // Along a side, tangent to both end circles: enters where the first circle starts.
        assert_hit(
            cast(&cap, v(-2.0, 1.0), v(1.0, 0.0)),
            2.0,
            v(0.0, 1.0),
            Vec2::Y,
        );
        assert!(cast(&cap, v(-2.0, 1.001), v(1.0, 0.0)).is_none());
        assert!(cast(&cap, v(6.0, 1.5), v(-1.0, 0.1)).is_none());
    }

    #[test]
    fn rays_miss_shapes_they_pass_or_point_away_from() {
        let b = boxed(0.0, 0.0, 1.0, 1.0);
        assert!(cast(&b, v(-1.0, 2.0), v(1.0, 0.0)).is_none());
        assert!(cast(&b, v(2.0, 0.5), v(1.0, 0.0)).is_none()); // behind the origin
        assert!(cast(&circle(0.0, 0.0, 1.0), v(3.0, 0.0), v(1.0, 0.0)).is_none());
    }

    #[test]
    fn zero_radius_segment_is_hit_across_and_end_on() {
        let s: Shape = Segment::new(v(0.0, 0.0), v(3.0, 0.0)).unwrap().into();
        assert_hit(
            cast(&s, v(1.0, 2.0), v(0.0, -1.0)),
            2.0,
            v(1.0, 0.0),
            Vec2::Y,
        );
        assert_hit(
            cast(&s, v(1.0, -2.0), v(0.0, 0.5)),
            4.0,
            v(1.0, 0.0),
            -Vec2::Y,
        );
        assert_hit(
            cast(&s, v(3.0, 2.0), v(0.0, -1.0)),
            2.0,
            v(3.0, 0.0),
            Vec2::Y,
        ); // at an end
           // Along the segment, from either side: the nearer end, normal against the ray.
        assert_hit(
            cast(&s, v(-2.0, 0.0), v(1.0, 0.0)),
            2.0,
            v(0.0, 0.0),
            -Vec2::X,
        );
        assert_hit(
            cast(&s, v(5.0, 0.0), v(-2.0, 0.0)),
            1.0,
            v(3.0, 0.0),
            Vec2::X,
        );
        assert!(cast(&s, v(5.0, 0.0), v(1.0, 0.0)).is_none()); // along it, pointing away
        assert!(cast(&s, v(-2.0, 0.5), v(1.0, 0.0)).is_none()); // parallel, off the line
        assert!(cast(&s, v(3.5, 2.0), v(0.0, -1.0)).is_none());
        // A single point.
        let p: Shape = Point::new(v(2.0, 2.0)).unwrap().into();
        assert_hit(
            cast(&p, v(0.0, 0.0), v(1.0, 1.0)),
            2.0,
            v(2.0, 2.0),
            v(-1.0, -1.0).normalize(),
        );
        assert!(cast(&p, v(0.0, 0.0), v(1.0, 1.001)).is_none());
    }

    #[test]
    fn ray_starting_inside_or_on_the_boundary_hits_at_zero_facing_back() {
        let b = boxed(0.0, 0.0, 2.0, 2.0);
        assert_hit(
            cast(&b, v(1.0, 1.0), v(0.0, 3.0)),
            0.0,
            v(1.0, 1.0),
            -Vec2::Y,
        );
        assert_hit(
            cast(&b, v(2.0, 1.0), v(1.0, 0.0)),
            0.0,
            v(2.0, 1.0),
            -Vec2::X,
        ); // leaving
        let s: Shape = Segment::new(v(0.0, 0.0), v(3.0, 0.0)).unwrap().into();
        assert_hit(
            cast(&s, v(1.0, 0.0), v(0.0, 1.0)),
            0.0,
            v(1.0, 0.0),
            -Vec2::Y,
        );
    }

    #[test]
    fn zero_direction_hits_only_from_inside() {
        let b = boxed(0.0, 0.0, 2.0, 2.0);
        assert_hit(cast(&b, v(1.0, 1.0), Vec2::ZERO), 0.0, v(1.0, 1.0), Vec2::X);
        assert!(cast(&b, v(3.0, 1.0), Vec2::ZERO).is_none());
        assert!(cast(&circle(0.0, 0.0, 1.0), v(3.0, 1.0), Vec2::ZERO).is_none());
    }

    #[test]
    fn max_t_cuts_the_ray_off_inclusively() {
        let b = boxed(4.0, -1.0, 5.0, 1.0);
        let ray = Ray::new(v(0.0, 0.0), v(1.0, 0.0));
        assert_eq!(cast_ray(&b, &ray, 4.0).map(|h| h.t), Some(4.0));
        assert!(cast_ray(&b, &ray, f32::from_bits(4.0f32.to_bits() - 1)).is_none());
        assert!(cast_ray(&b, &Ray::new(v(4.5, 0.0), Vec2::X), -1.0).is_none());
        assert!(cast_ray(&b, &ray, f32::NAN).is_none());
        assert!(cast_ray(&b, &Ray::new(v(f32::NAN, 0.0), Vec2::X), 10.0).is_none());
    }

    #[test]
    fn concave_polygon_is_hit_in_its_notch_not_at_its_bounding_box() {
        let l = l_shape();
        assert_hit(
            cast(&l, v(1.5, 3.0), v(0.0, -1.0)),
            2.0,
            v(1.5, 1.0),
            Vec2::Y,
        );
        assert_hit(
            cast(&l, v(3.0, 1.5), v(-1.0, 0.0)),
            2.0,
            v(1.0, 1.5),
            Vec2::X,
        );
        assert!(cast(&l, v(1.5, 1.5), v(1.0, 1.0)).is_none());
    }

    /// Found by `world_ops`: a sliver triangle along `y = x` (one coordinate subnormal, so its
    /// area is not zero) and a ray far out on that line, outside it and leaving it. The rounded
    /// clipping gave a span a few ulps long around the origin, reported as a hit at `t = 0`.
    #[test]
    fn a_sliver_along_the_line_far_away_is_not_hit_at_the_origin() {
        let sliver: Shape = crate::shape::Polygon::new(&[
            v(-8.0, -8.0),
            v(0.0, 1.28e-43),
            v(-131_072.0, -131_072.0),
        ])
        .unwrap()
        .into();
        let origin = v(786_432.0, 786_432.0);
        assert!(!contains_point(&sliver, origin));
        assert!(cast(&sliver, origin, Vec2::X).is_none());
        assert!(cast(&sliver, origin, v(1.0, 1.0)).is_none());
        // Towards it along the line, the ray meets its far corner.
        let hit = cast(&sliver, origin, v(-1.0, -1.0)).unwrap();
        assert!(hit.t > 0.0 && hit.point.x <= 1e-3, "{hit:?}");
        // A ray starting just outside a face and entering still hits, near `t = 0`.
        let square = boxed(0.0, 0.0, 1.0, 1.0);
        let outside = v(-f32::MIN_POSITIVE, 0.5);
        assert!(cast(&square, outside, Vec2::X).is_some_and(|h| h.t < 1e-30));
    }

    #[test]
    fn compound_reports_the_earliest_part() {
        let c: Shape = Compound::new(vec![circle(10.0, 0.0, 1.0), boxed(3.0, -1.0, 4.0, 1.0)])
            .unwrap()
            .into();
        assert_hit(
            cast(&c, v(0.0, 0.0), v(1.0, 0.0)),
            3.0,
            v(3.0, 0.0),
            -Vec2::X,
        );
        assert_hit(
            cast(&c, v(0.0, 0.9), v(1.0, 0.0).normalize()),
            3.0,
            v(3.0, 0.9),
            -Vec2::X,
        );
        assert_hit(
            cast(&c, v(20.0, 0.0), v(-1.0, 0.0)),
            9.0,
            v(11.0, 0.0),
            Vec2::X,
        );
    }

    /// xorshift64*: a fixed-seed generator for the brute-force comparison.
    struct Rng(u64);

    impl Rng {
        fn unit(&mut self) -> f32 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 40) as f32 / (1u64 << 24) as f32
        }

        fn range(&mut self, lo: f32, hi: f32) -> f32 {
            lo + (hi - lo) * self.unit()
        }
    }

    #[test]
    fn cast_agrees_with_sampling_the_ray() {
        let pentagon: Shape = ConvexPolygon::new(&[
            v(0.0, -2.0),
            v(2.0, -0.5),
            v(1.0, 2.0),
            v(-1.0, 2.0),
            v(-2.0, -0.5),
        ])
        .unwrap()
        .into();
        let shapes: Vec<Shape> = vec![
            Obb::new(v(0.5, -0.5), v(2.0, 1.0), 0.6).unwrap().into(),
            circle(0.3, 0.2, 1.7),
            Capsule::new(v(-2.0, -1.0), v(1.5, 1.0), 0.8)
                .unwrap()
                .into(),
            pentagon,
            l_shape().transformed(&crate::math::Pose::new(v(-1.0, -1.0), 0.3)),
            Compound::new(vec![
                circle(-2.0, 0.0, 1.0),
                boxed(0.0, -1.0, 2.0, 2.0),
                l_shape(),
            ])
            .unwrap()
            .into(),
        ];
        let (max_t, steps) = (10.0f32, 4000);
        let step = max_t / steps as f32;
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut hits = 0;
        for shape in &shapes {
            for _ in 0..60 {
                let origin = v(rng.range(-6.0, 6.0), rng.range(-6.0, 6.0));
                let target = v(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0));
                let dir = (target - origin).normalize() * rng.range(0.5, 1.5);
                let ray = Ray::new(origin, dir);
                let sampled = (0..=steps)
                    .map(|k| k as f32 * step)
                    .find(|&t| contains_point(shape, ray.at(t)));
                let hit = cast_ray(shape, &ray, max_t);
                match (sampled, hit) {
                    (Some(ts), Some(h)) => {
                        hits += 1;
                        assert!(
                            h.t <= ts + 1e-4 && h.t >= ts - step - 1e-4,
                            "{shape:?} {ray:?}: {h:?} vs sampled {ts}"
                        );
                        assert!((h.normal.length() - 1.0).abs() < 1e-5);
                        assert!(
                            h.t == 0.0 || h.normal.dot(dir) <= 1e-6,
                            "{ray:?}: {h:?} leaves the shape"
                        );
                    }
                    (None, Some(h)) => {
                        // Only a chord shorter than the step can slip between the samples.
                        assert!(distance_to_point(shape, h.point) < 1e-4, "{ray:?}: {h:?}");
                        assert!(!contains_point(shape, ray.at(h.t + step)), "{ray:?}: {h:?}");
                    }
                    (Some(ts), None) => panic!("{shape:?} {ray:?}: missed, sampled a hit at {ts}"),
                    (None, None) => {}
                }
            }
        }
        assert!(hits > 200, "too few hits ({hits}) to compare");
    }

    /// The typed paths give the bits of the general one: a box (its hull clipped edge by edge,
    /// a degenerate box as its segment or point) and a circle (the disc span), for rays from
    /// integer points (corners, faces, edges grazed, along edges) and random ones, every
    /// `max_t` kind.
    #[test]
    fn typed_paths_give_the_general_paths_bits() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let boxes = [
            (v(0.0, 0.0), v(2.0, 1.0)),
            (v(-1.0, -3.0), v(1.0, 3.0)),
            (v(1.0, 1.0), v(1.0, 4.0)),
            (v(2.0, -1.0), v(2.0, -1.0)),
            (v(-0.75, 0.25), v(1.5, 0.5)),
            // Edges at -0 (rounded rays start on them at -0 and +0), a box far wider than
            // the rays' spread, a sliver.
            (v(-2.0, -3.0), v(-0.0, -0.0)),
            (v(-1e20, 0.0), v(1e20, 1.0)),
            (v(0.5, -2.0), v(0.500_001, 2.0)),
        ];
        let mut hits = 0;
        for k in 0..40_000 {
            let (min, max) = boxes[k % boxes.len()];
            let integer = k % 2 == 0;
            let (origin, dir) = if integer {
                let o = v(rng.range(-4.0, 5.0).round(), rng.range(-4.0, 5.0).round());
                let d = v(rng.range(-3.0, 3.0).round(), rng.range(-3.0, 3.0).round());
                (o, d)
            } else {
                let o = v(rng.range(-4.0, 5.0), rng.range(-4.0, 5.0));
                (o, v(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0)))
            };
            let ray = Ray::new(origin, dir);
            let max_t = [f32::INFINITY, 1.0, 0.0, rng.range(0.0, 4.0)][k % 4];
            let b = crate::shape::Aabb::new(min, max).unwrap();
            let general = ray_general(&b.into(), &ray, max_t);
            hits += usize::from(general.is_some());
            let typed = ray_box(min, max, &ray, max_t);
            assert_eq!(
                alloc::format!("{typed:?}"),
                alloc::format!("{general:?}"),
                "{b:?} {ray:?} {max_t}"
            );
            let r = [0.5, 1.0, 2.0, 0.0][k % 4];
            let c = Circle::new(min, r).unwrap();
            let general = ray_general(&c.into(), &ray, max_t);
            let typed = ray_circle(min, r, &ray, max_t);
            assert_eq!(
                alloc::format!("{typed:?}"),
                alloc::format!("{general:?}"),
                "{c:?} {ray:?} {max_t}"
            );
        }
        assert!(hits > 1500, "{hits}");
    }
}
