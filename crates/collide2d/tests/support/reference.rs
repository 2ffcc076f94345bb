//! A slow, exact reference for `intersects`, `contains` and distances, written from scratch.
//!
//! Every `f32` converts exactly to a [`BigRational`], so every comparison here is exact. A shape
//! is a union of primitives: a *core* (one point, a segment, or the closed region bounded by a
//! ring of three or more points, possibly concave or of zero area) dilated by a radius.
//! Nothing here calls the library's predicates; from the library it reads only shape data
//! (points, corners, radii, and `Polygon::parts()` where `contains`' documented compound rule
//! needs the pieces of a concave `b`).

use collide2d::math::Vec2;
use collide2d::{ConvexPolygon, Shape};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use std::cmp::Ordering;

type Q = BigRational;

/// An exact point.
#[derive(Clone, Debug, PartialEq)]
pub struct P {
    x: Q,
    y: Q,
}

/// The exact value of an `f32`.
pub fn q(x: f32) -> Q {
    Q::from_float(x).expect("finite f32")
}

/// The exact point of a `Vec2`.
pub fn p(v: Vec2) -> P {
    P {
        x: q(v.x),
        y: q(v.y),
    }
}

fn sub(a: &P, b: &P) -> P {
    P {
        x: &a.x - &b.x,
        y: &a.y - &b.y,
    }
}

fn cross(u: &P, v: &P) -> Q {
    &u.x * &v.y - &u.y * &v.x
}

fn dotp(u: &P, v: &P) -> Q {
    &u.x * &v.x + &u.y * &v.y
}

fn norm2(u: &P) -> Q {
    dotp(u, u)
}

/// Sign of `(b - a) x (c - a)`.
fn orient(a: &P, b: &P, c: &P) -> Ordering {
    cross(&sub(b, a), &sub(c, a)).cmp(&Q::zero())
}

/// A core dilated by a radius `r >= 0`.
#[derive(Clone, Debug)]
pub struct Prim {
    /// 1 point, 2 points (a segment), or a closed ring of >= 3 points.
    pub ring: Vec<P>,
    /// The radius.
    pub r: Q,
}

impl Prim {
    fn new(points: &[Vec2], r: f32) -> Prim {
        Prim {
            ring: points.iter().map(|&v| p(v)).collect(),
            r: q(r),
        }
    }

    fn edges(&self) -> Vec<(P, P)> {
        ring_edges(&self.ring)
    }
}

fn ring_edges(ring: &[P]) -> Vec<(P, P)> {
    let n = ring.len();
    if n == 1 {
        return vec![(ring[0].clone(), ring[0].clone())];
    }
    (0..n)
        .map(|i| (ring[i].clone(), ring[(i + 1) % n].clone()))
        .collect()
}

/// `v` lies on the closed segment `ab`.
fn on_segment(v: &P, a: &P, b: &P) -> bool {
    orient(a, b, v).is_eq()
        && v.x >= a.x.clone().min(b.x.clone())
        && v.x <= a.x.clone().max(b.x.clone())
        && v.y >= a.y.clone().min(b.y.clone())
        && v.y <= a.y.clone().max(b.y.clone())
}

/// `v` lies in the closed region of `ring`: on an edge, or inside by counting crossings of the
/// ray towards +x (computed with exact division, not orientations).
pub fn in_region(ring: &[P], v: &P) -> bool {
    let edges = ring_edges(ring);
    if edges.iter().any(|(a, b)| on_segment(v, a, b)) {
        return true;
    }
    if ring.len() < 3 {
        return false;
    }
    let mut inside = false;
    for (a, b) in &edges {
        if (a.y > v.y) != (b.y > v.y) {
            let x = &a.x + (&v.y - &a.y) * (&b.x - &a.x) / (&b.y - &a.y);
            if x > v.x {
                inside = !inside;
            }
        }
    }
    inside
}

/// The closed segments share a point.
fn segments_meet(a: &P, b: &P, c: &P, d: &P) -> bool {
    let (o1, o2, o3, o4) = (
        orient(a, b, c),
        orient(a, b, d),
        orient(c, d, a),
        orient(c, d, b),
    );
    let proper = o1.is_ne() && o2.is_ne() && o1 != o2 && o3.is_ne() && o4.is_ne() && o3 != o4;
    proper
        || on_segment(c, a, b)
        || on_segment(d, a, b)
        || on_segment(a, c, d)
        || on_segment(b, c, d)
}

/// Squared distance from `v` to the closed segment `ab`.
pub fn point_segment_dist2(v: &P, a: &P, b: &P) -> Q {
    let e = sub(b, a);
    let len2 = norm2(&e);
    if len2.is_zero() {
        return norm2(&sub(v, a));
    }
    let t = dotp(&sub(v, a), &e) / len2;
    let t = t.max(Q::zero()).min(Q::from_integer(BigInt::from(1)));
    let c = P {
        x: &a.x + &t * &e.x,
        y: &a.y + &t * &e.y,
    };
    norm2(&sub(v, &c))
}

fn segment_segment_dist2(a: &P, b: &P, c: &P, d: &P) -> Q {
    if segments_meet(a, b, c, d) {
        return Q::zero();
    }
    [
        point_segment_dist2(a, c, d),
        point_segment_dist2(b, c, d),
        point_segment_dist2(c, a, b),
        point_segment_dist2(d, a, b),
    ]
    .into_iter()
    .min()
    .expect("four values")
}

/// Squared distance between the closed regions of two rings.
pub fn region_dist2(ra: &[P], rb: &[P]) -> Q {
    if ra.iter().any(|v| in_region(rb, v)) || rb.iter().any(|v| in_region(ra, v)) {
        return Q::zero();
    }
    let (ea, eb) = (ring_edges(ra), ring_edges(rb));
    let mut best: Option<Q> = None;
    for (a, b) in &ea {
        for (c, d) in &eb {
            let d2 = segment_segment_dist2(a, b, c, d);
            if best.as_ref().is_none_or(|x| d2 < *x) {
                best = Some(d2);
            }
        }
    }
    best.expect("rings have edges")
}

/// The primitives share a point: the cores are within the sum of the radii.
pub fn prim_intersects(a: &Prim, b: &Prim) -> bool {
    let r = &a.r + &b.r;
    region_dist2(&a.ring, &b.ring) <= &r * &r
}

/// The core region of `b` lies in the closed region of ring `a`.
fn core_inside(a: &[P], b: &[P]) -> bool {
    if !b.iter().all(|v| in_region(a, v)) {
        return false;
    }
    // Split every edge of b where it meets a's boundary; each open piece between splits is
    // wholly inside or wholly outside, so its midpoint decides.
    let one = Q::from_integer(BigInt::from(1));
    for (u, v) in ring_edges(b) {
        let e = sub(&v, &u);
        let len2 = norm2(&e);
        if len2.is_zero() {
            continue;
        }
        let mut ts = vec![Q::zero(), one.clone()];
        for (p1, p2) in ring_edges(a) {
            let f = sub(&p2, &p1);
            let w = sub(&p1, &u);
            let den = cross(&e, &f);
            if !den.is_zero() {
                let t = cross(&w, &f) / &den;
                let s = cross(&w, &e) / &den;
                if t >= Q::zero() && t <= one && s >= Q::zero() && s <= one {
                    ts.push(t);
                }
            } else if cross(&w, &e).is_zero() {
                for end in [&p1, &p2] {
                    let t = dotp(&sub(end, &u), &e) / &len2;
                    if t >= Q::zero() && t <= one {
                        ts.push(t);
                    }
                }
            }
        }
        ts.sort();
        ts.dedup();
        for w in ts.windows(2) {
            let mid = (&w[0] + &w[1]) / Q::from_integer(BigInt::from(2));
            let m = P {
                x: &u.x + &mid * &e.x,
                y: &u.y + &mid * &e.y,
            };
            if !in_region(a, &m) {
                return false;
            }
        }
    }
    // A ring's boundary inside a simply connected region puts the ring's region inside too.
    true
}

/// Every point of `b` lies in `a`.
pub fn prim_contains(a: &Prim, b: &Prim) -> bool {
    if a.r.is_zero() {
        if !core_inside(&a.ring, &b.ring) {
            return false;
        }
        if b.r.is_zero() {
            return true;
        }
        // Every point of b's core at least b.r from a's boundary.
        let r2 = &b.r * &b.r;
        return a
            .edges()
            .iter()
            .all(|(s, t)| region_dist2(&b.ring, &[s.clone(), t.clone()]) >= r2);
    }
    // a is a disc or a capsule (core: a point or a segment, a convex set): b's core within
    // a.r - b.r of it; the distance to a convex set is convex, so b's vertices decide.
    if b.r > a.r {
        return false;
    }
    let slack = &a.r - &b.r;
    let s2 = &slack * &slack;
    let (s, t) = (&a.ring[0], &a.ring[a.ring.len() - 1]);
    b.ring.iter().all(|v| point_segment_dist2(v, s, t) <= s2)
}

/// Exact convex hull (counter-clockwise, collinear points dropped) by brute force: a pair
/// `(i, j)` is a hull edge when no point lies to its right and none lies beyond its ends.
pub fn convex_hull(points: &[Vec2]) -> Vec<Vec2> {
    let mut pts: Vec<Vec2> = Vec::new();
    for &v in points {
        if !pts.contains(&v) {
            pts.push(v);
        }
    }
    if pts.len() <= 2 {
        return pts;
    }
    let ps: Vec<P> = pts.iter().map(|&v| p(v)).collect();
    let n = ps.len();
    let is_edge = |i: usize, j: usize| {
        i != j
            && (0..n).all(|k| match orient(&ps[i], &ps[j], &ps[k]) {
                Ordering::Greater => true,
                Ordering::Less => false,
                Ordering::Equal => on_segment(&ps[k], &ps[i], &ps[j]),
            })
    };
    let Some((s, mut j)) = (0..n)
        .flat_map(|i| (0..n).map(move |j| (i, j)))
        .find(|&(i, j)| is_edge(i, j))
    else {
        // All collinear: the two extremes.
        let lo = (0..n)
            .min_by(|&a, &b| ps[a].x.cmp(&ps[b].x).then(ps[a].y.cmp(&ps[b].y)))
            .expect("points");
        let hi = (0..n)
            .max_by(|&a, &b| ps[a].x.cmp(&ps[b].x).then(ps[a].y.cmp(&ps[b].y)))
            .expect("points");
        return vec![pts[lo], pts[hi]];
    };
    let mut hull = vec![pts[s]];
    let mut guard = 0;
    while j != s && guard <= n {
        hull.push(pts[j]);
        j = (0..n).find(|&k| is_edge(j, k)).expect("hull continues");
        guard += 1;
    }
    hull
}

/// The shape as a union of primitives; a concave polygon is one primitive (its whole ring).
pub fn prims(shape: &Shape) -> Vec<Prim> {
    match shape {
        Shape::Point(s) => vec![Prim::new(&[s.p()], 0.0)],
        Shape::Segment(s) => vec![Prim::new(&[s.a(), s.b()], 0.0)],
        Shape::Circle(s) => vec![Prim::new(&[s.center()], s.radius())],
        Shape::Aabb(s) => {
            let (lo, hi) = (s.min(), s.max());
            vec![Prim::new(
                &[lo, Vec2::new(hi.x, lo.y), hi, Vec2::new(lo.x, hi.y)],
                0.0,
            )]
        }
        Shape::Obb(s) => vec![Prim::new(&convex_hull(&s.corners()), 0.0)],
        Shape::Capsule(s) => vec![Prim::new(&[s.a(), s.b()], s.radius())],
        Shape::ConvexPolygon(s) => vec![Prim::new(s.points(), 0.0)],
        Shape::Polygon(s) => vec![Prim::new(s.points(), 0.0)],
        Shape::Compound(s) => s.parts().iter().flat_map(prims).collect(),
    }
}

/// The convex pieces `contains` checks one by one when `a` is a compound: a concave polygon's
/// parts, a compound's parts' pieces, or the shape itself.
fn pieces(shape: &Shape) -> Vec<Prim> {
    match shape {
        Shape::Polygon(s) if s.parts().len() > 1 => s
            .parts()
            .iter()
            .map(|part: &ConvexPolygon| Prim::new(part.points(), 0.0))
            .collect(),
        Shape::Compound(s) => s.parts().iter().flat_map(pieces).collect(),
        _ => prims(shape),
    }
}

/// Reference `intersects`: some primitive of `a` meets some primitive of `b`.
pub fn intersects(a: &Shape, b: &Shape) -> bool {
    let (pa, pb) = (prims(a), prims(b));
    pa.iter().any(|x| pb.iter().any(|y| prim_intersects(x, y)))
}

/// Reference `contains`: exact when `a` is not a compound; for a compound `a`, the documented
/// rule (each convex piece of `b` inside one part of `a`).
pub fn contains(a: &Shape, b: &Shape) -> bool {
    match a {
        Shape::Compound(_) => {
            let parts = prims(a);
            pieces(b)
                .iter()
                .all(|piece| parts.iter().any(|part| prim_contains(part, piece)))
        }
        _ => {
            let whole = &prims(a)[0];
            prims(b).iter().all(|x| prim_contains(whole, x))
        }
    }
}

fn to_f64(x: &Q) -> f64 {
    x.to_f64().expect("representable")
}

/// The distance between the shapes (rounded to `f64` at the end only).
pub fn distance(a: &Shape, b: &Shape) -> f64 {
    let (pa, pb) = (prims(a), prims(b));
    pa.iter()
        .flat_map(|x| pb.iter().map(move |y| (x, y)))
        .map(|(x, y)| {
            (to_f64(&region_dist2(&x.ring, &y.ring)).sqrt() - to_f64(&x.r) - to_f64(&y.r)).max(0.0)
        })
        .fold(f64::INFINITY, f64::min)
}

/// The distance from a point to the shape (0 inside).
pub fn point_distance(shape: &Shape, v: Vec2) -> f64 {
    let v = [p(v)];
    prims(shape)
        .iter()
        .map(|x| (to_f64(&region_dist2(&x.ring, &v)).sqrt() - to_f64(&x.r)).max(0.0))
        .fold(f64::INFINITY, f64::min)
}
