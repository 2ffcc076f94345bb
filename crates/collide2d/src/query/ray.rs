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
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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
    /// The ray parameter of the hit, in `[0, max_t]`.
    pub t: f32,
    /// The hit point, `origin + dir * t` (rounded once from `f64`).
    pub point: Vec2,
    /// Unit outward normal of the surface at `point`; `-dir` normalised when the ray starts
    /// inside the shape.
    pub normal: Vec2,
}

/// The first point where `ray` meets `shape` with `t` in `[0, max_t]`, or `None`.
///
/// - A ray that starts inside the shape or on its boundary (exactly, as
///   [`contains_point`](crate::contains_point)) hits at `t = 0` with `normal = -dir`
///   normalised (`+X` when `dir` is zero).
/// - A zero `dir` hits only when the origin lies in the shape.
/// - Shapes are closed: a ray that only grazes a corner or a circle, or runs along an edge, hits.
///   Outside the start test, hits are decided in `f64`, so a ray passing within rounding error
///   (about `1e-16` relative) of a corner may go either way.
/// - At a polygon corner the normal is that of one of the two faces; where a ray meets a
///   zero-radius segment end-on (running along it), or a point, the normal is `-dir` normalised.
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
    // `!(max_t >= 0)` also rejects NaN.
    if !(max_t >= 0.0) || !ray.origin.is_finite() || !ray.dir.is_finite() {
        return None;
    }
    let (o, d) = (ray.origin.as_dvec2(), ray.dir.as_dvec2());
    if contains_point(shape, ray.origin) {
        let normal = if d == DVec2::ZERO { Vec2::X } else { (-d).normalize().as_vec2() };
        return Some(RayHit { t: 0.0, point: ray.origin, normal });
    }
    if d == DVec2::ZERO {
        return None;
    }
    // The origin lies outside the shape, so outside every part: the first entry into any part
    // is the first point of the shape.
    let mut best: Option<(f64, DVec2)> = None;
    let _ = each_part(shape, &mut |part| {
        if let Some(span) = line_span(part, o, d) {
            let t = span.enter.max(0.0);
            if span.exit >= 0.0 && t <= f64::from(max_t) && best.is_none_or(|(b, _)| t < b) {
                best = Some((t, span.normal));
            }
        }
        ControlFlow::<()>::Continue(())
    });
    best.map(|(t, normal)| RayHit {
        t: (t as f32).min(max_t),
        point: (o + d * t).as_vec2(),
        normal: normal.normalize().as_vec2(),
    })
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
    debug_assert!(d != DVec2::ZERO);
    let hull = c.points();
    let r = f64::from(c.radius);
    match (hull.len(), r > 0.0) {
        (n, _) if n >= 3 => polygon_span(n, |i| hull[i].as_dvec2(), o, d),
        (1, false) => point_span(hull[0].as_dvec2(), o, d),
        (_, false) => segment_span(hull[0].as_dvec2(), hull[1].as_dvec2(), o, d),
        (1, true) => disc_span(hull[0].as_dvec2(), r, o, d),
        (_, true) => capsule_span(hull[0].as_dvec2(), hull[1].as_dvec2(), r, o, d),
    }
}

/// Cyrus-Beck: intersect the line with each edge's closed inner half-plane.
/// The hull has `n >= 3` vertices, counter-clockwise.
fn polygon_span(n: usize, vertex: impl Fn(usize) -> DVec2, o: DVec2, d: DVec2) -> Option<LineSpan> {
    let mut span = LineSpan { enter: f64::NEG_INFINITY, exit: f64::INFINITY, normal: -d };
    for i in 0..n {
        let (p, q) = (vertex(i), vertex((i + 1) % n));
        let e = q - p;
        let normal = DVec2::new(e.y, -e.x); // outward for a counter-clockwise hull
        // Inside the half-plane: normal . (o + d t - p) <= 0.
        let (num, denom) = (normal.dot(o - p), normal.dot(d));
        if denom == 0.0 {
            if num > 0.0 {
                return None; // parallel and outside
            }
        } else if denom < 0.0 {
            let t = -num / denom;
            if t > span.enter {
                span.enter = t;
                span.normal = normal;
            }
        } else {
            span.exit = span.exit.min(-num / denom);
        }
    }
    (span.enter <= span.exit).then_some(span)
}

/// The closed disc of centre `c`, radius `r`.
fn disc_span(c: DVec2, r: f64, o: DVec2, d: DVec2) -> Option<LineSpan> {
    let m = o - c;
    let dd = d.length_squared();
    let mid = -m.dot(d) / dd; // t of the point nearest the centre
    let off = m + d * mid; // from the centre to that point, perpendicular to d
    let h2 = r * r - off.length_squared();
    if h2 < 0.0 {
        return None;
    }
    let half = (h2 / dd).sqrt();
    let enter = mid - half;
    Some(LineSpan { enter, exit: mid + half, normal: m + d * enter })
}

/// The capsule around segment `ab`: the union of the discs at `a` and `b` and the rectangle
/// between them. A rectangle entry through an end face lies inside that end's disc, so only an
/// entry through one of the two sides may give the normal.
fn capsule_span(a: DVec2, b: DVec2, r: f64, o: DVec2, d: DVec2) -> Option<LineSpan> {
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
    for s in [disc_span(a, r, o, d), disc_span(b, r, o, d)].into_iter().flatten() {
        merge(s, true);
    }
    if let Some(s) = polygon_span(4, |i| rect[i], o, d) {
        merge(s, s.normal.dot(u).abs() < s.normal.dot(u.perp()).abs());
    }
    out
}

/// A zero-radius segment `ab`, `a != b`.
fn segment_span(a: DVec2, b: DVec2, o: DVec2, d: DVec2) -> Option<LineSpan> {
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
        return Some(LineSpan { enter: ta.min(tb), exit: ta.max(tb), normal: -d });
    }
    let s = ao.perp_dot(d) / denom; // where on ab
    if !(0.0..=1.0).contains(&s) {
        return None;
    }
    let t = ao.perp_dot(e) / denom;
    let n = e.perp();
    let normal = if n.dot(d) > 0.0 { -n } else { n };
    Some(LineSpan { enter: t, exit: t, normal })
}

/// A single point `p`.
fn point_span(p: DVec2, o: DVec2, d: DVec2) -> Option<LineSpan> {
    let m = p - o;
    if m.perp_dot(d) != 0.0 {
        return None;
    }
    let t = m.dot(d) / d.length_squared();
    Some(LineSpan { enter: t, exit: t, normal: -d })
}
