//! The distance between the convex hulls of two point sets in `f64` by GJK (Gilbert, Johnson
//! and Keerthi 1988; the 2D simplex solver as in Ericson, RTCD 9.5 and Box2D's `b2ShapeDistance`),
//! warm-started from the previous call's simplex (as Box2D's simplex cache), for the advances of
//! [`cast_shapes_rotating`](crate::cast_shapes_rotating). It returns both bounds: the distance
//! between two points of the hulls (at least the distance) and the separation along an axis (at
//! most the distance, whatever the axis), so a caller that steps by the lower bound stays
//! conservative even when the iteration stops early.

use glam::DVec2;

/// The most iterations one call makes: polygons up to 16 vertices need far fewer.
const MAX_ITERATIONS: u32 = 32;

/// What [`hull_gap`] found.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HullGap {
    /// The distance between a point of each hull: at least their distance, 0 when they touch or
    /// overlap.
    pub upper: f64,
    /// The hulls' separation along `axis`: at most their distance (negative when overlapping).
    pub lower: f64,
    /// The unit axis from `a` towards `b` of `lower` (zero when they touch or overlap).
    pub axis: DVec2,
    /// The vertex of `a` farthest along `axis` and the vertex of `b` farthest against it (the
    /// first of equals), whose projections give `lower`.
    pub supports: (usize, usize),
    /// The simplex the call ended on, to start the next call from.
    pub start: Start,
    /// The points of `a`'s hull and of `b`'s that are `upper` apart.
    pub points: (DVec2, DVec2),
}

/// The vertex pairs (indices in `a` and in `b`) of a simplex to start a call from: one or two,
/// the simplex a call ended on (Box2D's simplex cache).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Start {
    pairs: [(usize, usize); 2],
    len: usize,
}

impl Start {
    /// A start from the single vertex pair `(ia, ib)`.
    pub(crate) fn pair(ia: usize, ib: usize) -> Start {
        Start {
            pairs: [(ia, ib); 2],
            len: 1,
        }
    }

    /// Whether the simplex is an edge of `a` against a vertex of `b` (`Some(true)`), a vertex
    /// of `a` against an edge of `b` (`Some(false)`) or two edges (`Some(true)`); `None` for a
    /// single vertex pair.
    pub(crate) fn edge_of_a(&self) -> Option<bool> {
        let [(a0, b0), (a1, b1)] = self.pairs;
        (self.len == 2).then_some(a0 != a1 || b0 == b1)
    }

    fn of(simplex: &[Vertex]) -> Start {
        let mut start = Start::pair(simplex[0].ia, simplex[0].ib);
        if let Some(second) = simplex.get(1) {
            start.pairs[1] = (second.ia, second.ib);
            start.len = 2;
        }
        start
    }
}

/// A vertex of the simplex on `b − a`, with its weight in the simplex's closest point.
#[derive(Clone, Copy)]
struct Vertex {
    w: DVec2,
    ia: usize,
    ib: usize,
    weight: f64,
}

/// The distance between the hulls of `a` and `b` (both non-empty), from the simplex `start`,
/// iterating until the bounds are within `eps` of each other.
pub(crate) fn hull_gap(a: &[DVec2], b: &[DVec2], start: Start, eps: f64) -> HullGap {
    let vertex = |(ia, ib): (usize, usize)| {
        let (ia, ib) = (ia.min(a.len() - 1), ib.min(b.len() - 1));
        Vertex {
            w: b[ib] - a[ia],
            ia,
            ib,
            weight: 1.0,
        }
    };
    let first = vertex(start.pairs[0]);
    let mut simplex = [first; 3];
    let mut len = 1;
    if start.len == 2 && start.pairs[1] != start.pairs[0] {
        simplex[1] = vertex(start.pairs[1]);
        len = 2;
    }
    let mut best = HullGap {
        upper: f64::INFINITY,
        lower: f64::NEG_INFINITY,
        axis: DVec2::ZERO,
        supports: (0, 0),
        start: Start::pair(first.ia, first.ib),
        points: (a[first.ia], b[first.ib]),
    };
    for _ in 0..MAX_ITERATIONS {
        let Some(v) = solve(&mut simplex, &mut len) else {
            return touching(best.start);
        };
        let upper = v.length();
        if upper == 0.0 {
            return touching(best.start);
        }
        if upper < best.upper {
            best.upper = upper;
            let on = |points: &[DVec2], pick: fn(&Vertex) -> usize| {
                let sum = simplex[..len].iter().map(|s| points[pick(s)] * s.weight);
                sum.fold(DVec2::ZERO, |acc, p| acc + p)
            };
            best.points = (on(a, |s| s.ia), on(b, |s| s.ib));
        }
        best.start = Start::of(&simplex[..len]);
        let n = v / upper;
        let ia = farthest(a, n);
        let ib = farthest(b, -n);
        let lower = n.dot(b[ib]) - n.dot(a[ia]);
        if lower > best.lower {
            best.lower = lower;
            best.axis = n;
            best.supports = (ia, ib);
        }
        let known = simplex[..len].iter().any(|s| s.ia == ia && s.ib == ib);
        if known || best.upper - best.lower <= eps {
            break;
        }
        simplex[len] = vertex((ia, ib));
        len += 1;
    }
    best
}

/// The answer for hulls that touch or overlap.
fn touching(start: Start) -> HullGap {
    HullGap {
        upper: 0.0,
        lower: f64::NEG_INFINITY,
        axis: DVec2::ZERO,
        supports: (0, 0),
        start,
        points: (DVec2::ZERO, DVec2::ZERO),
    }
}

/// The index of the point of `points` farthest along `n` (the first of equals).
fn farthest(points: &[DVec2], n: DVec2) -> usize {
    let mut best = (0, n.dot(points[0]));
    for (i, p) in points.iter().enumerate().skip(1) {
        let d = n.dot(*p);
        if d > best.1 {
            best = (i, d);
        }
    }
    best.0
}

/// Reduces the simplex to the vertices whose hull holds its point closest to the origin, and
/// returns that point; `None` when the origin lies in a triangle (the hulls overlap).
fn solve(s: &mut [Vertex; 3], len: &mut usize) -> Option<DVec2> {
    match *len {
        1 => {
            s[0].weight = 1.0;
            Some(s[0].w)
        }
        2 => Some(solve_segment(s, len)),
        _ => solve_triangle(s, len),
    }
}

fn solve_segment(s: &mut [Vertex; 3], len: &mut usize) -> DVec2 {
    let (w1, w2) = (s[0].w, s[1].w);
    let e = w2 - w1;
    // Barycentric weights of the origin's projection, unnormalised.
    let (u, v) = (w2.dot(e), -w1.dot(e));
    if v <= 0.0 {
        *len = 1;
        s[0].weight = 1.0;
        return w1;
    }
    if u <= 0.0 {
        s[0] = s[1];
        *len = 1;
        s[0].weight = 1.0;
        return w2;
    }
    let sum = u + v;
    (s[0].weight, s[1].weight) = (u / sum, v / sum);
    (w1 * u + w2 * v) / sum
}

fn solve_triangle(s: &mut [Vertex; 3], len: &mut usize) -> Option<DVec2> {
    let (w1, w2, w3) = (s[0].w, s[1].w, s[2].w);
    let (e12, e13, e23) = (w2 - w1, w3 - w1, w3 - w2);
    let (u12, v12) = (w2.dot(e12), -w1.dot(e12));
    let (u13, v13) = (w3.dot(e13), -w1.dot(e13));
    let (u23, v23) = (w3.dot(e23), -w2.dot(e23));
    // The triangle's orientation times twice the signed areas each vertex is weighted by.
    let area = e12.perp_dot(e13);
    let (a1, a2, a3) = (
        area * w2.perp_dot(w3),
        area * w3.perp_dot(w1),
        area * w1.perp_dot(w2),
    );
    let keep = |s: &mut [Vertex; 3], len: &mut usize, i: usize| {
        s[0] = s[i];
        s[0].weight = 1.0;
        *len = 1;
        Some(s[0].w)
    };
    let edge = |s: &mut [Vertex; 3], len: &mut usize, i: usize, j: usize, u: f64, v: f64| {
        let (p, q) = (s[i], s[j]);
        let sum = u + v;
        s[0] = Vertex {
            weight: u / sum,
            ..p
        };
        s[1] = Vertex {
            weight: v / sum,
            ..q
        };
        *len = 2;
        Some((p.w * u + q.w * v) / sum)
    };
    if v12 <= 0.0 && v13 <= 0.0 {
        return keep(s, len, 0);
    }
    if u12 > 0.0 && v12 > 0.0 && a3 <= 0.0 {
        return edge(s, len, 0, 1, u12, v12);
    }
    if u13 > 0.0 && v13 > 0.0 && a2 <= 0.0 {
        return edge(s, len, 0, 2, u13, v13);
    }
    if u12 <= 0.0 && v23 <= 0.0 {
        return keep(s, len, 1);
    }
    if u13 <= 0.0 && u23 <= 0.0 {
        return keep(s, len, 2);
    }
    if u23 > 0.0 && v23 > 0.0 && a1 <= 0.0 {
        return edge(s, len, 1, 2, u23, v23);
    }
    // The origin is inside the triangle (or on it).
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    fn d(x: f64, y: f64) -> DVec2 {
        DVec2::new(x, y)
    }

    /// The hull distance by brute force: every vertex against every edge, both ways.
    fn brute(a: &[DVec2], b: &[DVec2]) -> f64 {
        let seg = |p: DVec2, q: DVec2, x: DVec2| {
            let e = q - p;
            let t = if e == DVec2::ZERO {
                0.0
            } else {
                ((x - p).dot(e) / e.length_squared()).clamp(0.0, 1.0)
            };
            (p + e * t - x).length()
        };
        let one = |a: &[DVec2], b: &[DVec2]| {
            let mut best = f64::INFINITY;
            for &x in a {
                for i in 0..b.len() {
                    best = best.min(seg(b[i], b[(i + 1) % b.len()], x));
                }
            }
            best
        };
        one(a, b).min(one(b, a))
    }

    /// True when an edge normal of either polygon separates them (the polygons overlap or
    /// touch otherwise).
    fn separated(a: &[DVec2], b: &[DVec2]) -> bool {
        let by_edges_of = |p: &[DVec2], q: &[DVec2]| {
            (0..p.len()).any(|i| {
                let e = p[(i + 1) % p.len()] - p[i];
                let n = DVec2::new(e.y, -e.x);
                let span = |s: &[DVec2]| s.iter().map(|x| n.dot(*x)).fold(f64::INFINITY, f64::min);
                let top = |s: &[DVec2]| {
                    s.iter()
                        .map(|x| n.dot(*x))
                        .fold(f64::NEG_INFINITY, f64::max)
                };
                span(q) > top(p) || span(p) > top(q)
            })
        };
        by_edges_of(a, b) || by_edges_of(b, a)
    }

    #[test]
    fn bounds_enclose_the_distance_of_separated_hulls() {
        let square = [d(0.0, 0.0), d(1.0, 0.0), d(1.0, 1.0), d(0.0, 1.0)];
        let mut seed = 12345u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        // Half the calls start from the simplex the last one ended on (a pair or an edge).
        let mut last = Start::pair(0, 0);
        for round in 0..500 {
            let (ox, oy, turn) = (next() * 6.0 - 3.0, next() * 6.0 - 3.0, next() * 6.3);
            let (s, c) = libm::sincos(turn);
            let b: Vec<DVec2> = [d(-0.5, 0.0), d(0.5, 0.0), d(0.0, 0.7)]
                .iter()
                .map(|p| d(ox + c * p.x - s * p.y, oy + s * p.x + c * p.y))
                .collect();
            let start = Start::pair((next() * 4.0) as usize, (next() * 3.0) as usize);
            let start = if round % 2 == 0 { start } else { last };
            let g = hull_gap(&square, &b, start, 1e-12);
            last = g.start;
            let exact = brute(&square, &b);
            if !separated(&square, &b) {
                assert!(g.upper < 1e-12, "{g:?} overlapping");
                continue;
            }
            assert!(
                g.lower <= exact + 1e-12 && exact <= g.upper + 1e-12,
                "{g:?} {exact}"
            );
            assert!(g.upper - g.lower <= 1e-9, "{g:?} {exact}");
            assert!((g.axis.length() - 1.0).abs() < 1e-12);
            // The supports are the first vertices farthest along the axis and against it, and
            // their projections give `lower` bit for bit (the rotating cast's bound takes it).
            let along = |p: &DVec2| g.axis.dot(*p);
            let top = square.iter().map(along).fold(f64::NEG_INFINITY, f64::max);
            let low = b.iter().map(along).fold(f64::INFINITY, f64::min);
            let (ia, ib) = g.supports;
            assert_eq!(square.iter().position(|p| along(p) == top), Some(ia));
            assert_eq!(b.iter().position(|p| along(p) == low), Some(ib));
            assert_eq!(g.lower.to_bits(), (low - top).to_bits(), "{g:?}");
            // The points are on the hulls (within them), `upper` apart.
            assert!(
                ((g.points.1 - g.points.0).length() - g.upper).abs() < 1e-12,
                "{g:?}"
            );
            let (pa, pb) = g.points;
            assert!(
                pa.x.min(pa.y) >= -1e-12 && pa.x.max(pa.y) <= 1.0 + 1e-12,
                "{g:?}"
            );
            let tri = [b[0], b[1], b[2]];
            let area = |p: DVec2, q: DVec2, r: DVec2| (q - p).perp_dot(r - p);
            let whole = area(tri[0], tri[1], tri[2]).abs();
            let parts: f64 = (0..3)
                .map(|i| area(pb, tri[i], tri[(i + 1) % 3]).abs())
                .sum();
            assert!(parts <= whole + 1e-9, "{g:?}");
        }
    }

    #[test]
    fn points_and_segments_are_hulls_too() {
        let g = hull_gap(&[d(0.0, 0.0)], &[d(3.0, 4.0)], Start::pair(0, 0), 0.0);
        assert_eq!((g.upper, g.lower), (5.0, 5.0));
        let g = hull_gap(
            &[d(-1.0, 0.0), d(1.0, 0.0)],
            &[d(0.0, 2.0)],
            Start::pair(1, 0),
            0.0,
        );
        assert!(
            (g.upper - 2.0).abs() < 1e-15 && (g.lower - 2.0).abs() < 1e-15,
            "{g:?}"
        );
        assert_eq!(g.axis, d(0.0, 1.0));
        let crossing = hull_gap(
            &[d(-1.0, 0.0), d(1.0, 0.0)],
            &[d(0.0, -1.0), d(0.0, 1.0)],
            Start::pair(0, 0),
            0.0,
        );
        assert_eq!(crossing.upper, 0.0);
    }
}
