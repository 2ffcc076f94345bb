//! Unit tests of `reduced_convolution`: the same segments as an all-pairs brute force in integer
//! arithmetic, both argument orders, and on random integer polygons every move between an
//! overlapping and a disjoint position meets some segment (the segments hold `S`'s boundary).

use super::*;
use crate::shape::Aabb;
use crate::test_support::{l_ring, xorshift};

/// An axis-aligned box's counter-clockwise outline.
fn box_ring(min: Vec2, max: Vec2) -> [Vec2; 4] {
    Aabb::new(min, max).unwrap().corners()
}

type I = [i64; 2];

fn sub(p: I, q: I) -> I {
    [p[0] - q[0], p[1] - q[1]]
}

fn cross(u: I, w: I) -> i64 {
    u[0] * w[1] - u[1] * w[0]
}

/// Sign of `(b - a) x (c - a)`.
fn orient(a: I, b: I, c: I) -> i64 {
    cross(sub(b, a), sub(c, a)).signum()
}

fn f32s(ring: &[I]) -> Vec<Vec2> {
    ring.iter()
        .map(|p| Vec2::new(p[0] as f32, p[1] as f32))
        .collect()
}

fn ints(ring: &[Vec2]) -> Vec<I> {
    ring.iter().map(|p| [p.x as i64, p.y as i64]).collect()
}

/// A random counter-clockwise simple polygon with integer corners: points around an inner
/// centre sorted by angle, one a direction, every angular gap under a half turn (so star-shaped).
/// Collinear corners (zero turns) are kept: they are part of what is tested.
fn random_ring(next: &mut impl FnMut() -> u64, max_points: u64) -> Vec<I> {
    loop {
        let k = 3 + next() % (max_points - 2);
        let mut pts: Vec<I> = (0..k)
            .map(|_| [(next() % 41) as i64 - 20, (next() % 41) as i64 - 20])
            .filter(|p| *p != [0, 0])
            .collect();
        let half = |p: &I| p[1] < 0 || (p[1] == 0 && p[0] < 0);
        pts.sort_by(|p, q| half(p).cmp(&half(q)).then(0.cmp(&cross(*p, *q))));
        pts.dedup_by(|p, q| half(p) == half(q) && cross(*p, *q) == 0);
        let n = pts.len();
        if n >= 3 && (0..n).all(|i| cross(pts[i], pts[(i + 1) % n]) > 0) {
            let shift = [(next() % 11) as i64 - 5, (next() % 11) as i64 - 5];
            return pts
                .iter()
                .map(|&p| [p[0] + shift[0], p[1] + shift[1]])
                .collect();
        }
    }
}

/// Does the convex corner `din` then `dout` hold direction `d` (half-open, as the module: an
/// edge of `a` at `dout`, an edge of `-b` at `din`)?
fn holds_int(din: I, dout: I, d: I, a_edge: bool) -> bool {
    let (after_in, before_out) = (cross(din, d), cross(d, dout));
    cross(din, dout) > 0
        && if a_edge {
            after_in > 0 && before_out >= 0
        } else {
            after_in >= 0 && before_out > 0
        }
}

/// Every edge of each outline against every corner of the other, in integers.
fn brute_force(a: &[I], b: &[I]) -> Vec<Segment> {
    let (n, m) = (a.len(), b.len());
    let mut out = Vec::new();
    for i in 0..n {
        for j in 0..m {
            // `-b`'s corner `j` and `a`'s edge `i`.
            let din = sub(b[(j + m - 1) % m], b[j]);
            let dout = sub(b[j], b[(j + 1) % m]);
            if holds_int(din, dout, sub(a[(i + 1) % n], a[i]), true) {
                let (edge, corner) = (i as u32, j as u32);
                out.push(Segment {
                    edge_of: EdgeOf::A,
                    edge,
                    corner,
                });
            }
            // `a`'s corner `i` and `-b`'s edge `j`.
            let din = sub(a[i], a[(i + n - 1) % n]);
            let dout = sub(a[(i + 1) % n], a[i]);
            if holds_int(din, dout, sub(b[j], b[(j + 1) % m]), false) {
                let (edge, corner) = (j as u32, i as u32);
                out.push(Segment {
                    edge_of: EdgeOf::B,
                    edge,
                    corner,
                });
            }
        }
    }
    out.sort_unstable();
    out
}

/// The module's segments, sorted.
fn convolution(a: &[I], b: &[I]) -> Vec<Segment> {
    let mut out = Vec::new();
    reduced_convolution(&f32s(a), &f32s(b), &mut out);
    out.sort_unstable();
    out
}

/// A segment's ends in integers.
fn ends(s: Segment, a: &[I], b: &[I]) -> (I, I) {
    let (e, c) = (s.edge as usize, s.corner as usize);
    match s.edge_of {
        EdgeOf::A => (sub(a[e], b[c]), sub(a[(e + 1) % a.len()], b[c])),
        EdgeOf::B => (sub(a[c], b[e]), sub(a[c], b[(e + 1) % b.len()])),
    }
}

fn on_segment(p: I, s: (I, I)) -> bool {
    orient(s.0, s.1, p) == 0
        && p[0] >= s.0[0].min(s.1[0])
        && p[0] <= s.0[0].max(s.1[0])
        && p[1] >= s.0[1].min(s.1[1])
        && p[1] <= s.0[1].max(s.1[1])
}

/// Do the closed segments meet?
fn meet(s: (I, I), t: (I, I)) -> bool {
    let (d1, d2) = (orient(s.0, s.1, t.0), orient(s.0, s.1, t.1));
    let (d3, d4) = (orient(t.0, t.1, s.0), orient(t.0, t.1, s.1));
    (d1 * d2 < 0 && d3 * d4 < 0)
        || on_segment(t.0, s)
        || on_segment(t.1, s)
        || on_segment(s.0, t)
        || on_segment(s.1, t)
}

fn moved(ring: &[I], t: I) -> Vec<I> {
    ring.iter().map(|p| [p[0] + t[0], p[1] + t[1]]).collect()
}

fn edges(ring: &[I]) -> impl Iterator<Item = (I, I)> + '_ {
    (0..ring.len()).map(move |i| (ring[i], ring[(i + 1) % ring.len()]))
}

/// Is `p` strictly inside `ring` (`p` off its boundary)? Crossing number, half-open in `y`.
fn inside(p: I, ring: &[I]) -> bool {
    edges(ring)
        .filter(|&(s, e)| (s[1] > p[1]) != (e[1] > p[1]))
        .filter(|&(s, e)| (orient(s, e, p) > 0) == (e[1] > s[1]))
        .count()
        % 2
        == 1
}

/// Do the interiors of `a` and `b + t` overlap, when no corner of either lies on the other's
/// boundary (`None` otherwise: then edges meet only by crossing properly, and the answer is a
/// proper crossing or a corner inside the other)?
fn overlap(a: &[I], b: &[I], t: I) -> Option<bool> {
    let b = moved(b, t);
    for (x, y) in [(a, &b[..]), (&b[..], a)] {
        if x.iter().any(|&p| edges(y).any(|e| on_segment(p, e))) {
            return None;
        }
    }
    let crossing = edges(a).any(|s| edges(&b).any(|e| meet(s, e)));
    Some(crossing || inside(b[0], a) || inside(a[0], &b))
}

#[test]
fn two_boxes_give_one_segment_per_edge() {
    let a = box_ring(Vec2::new(0.0, 0.0), Vec2::new(2.0, 1.0));
    let b = box_ring(Vec2::new(-1.0, 3.0), Vec2::new(4.0, 5.0));
    let mut out = Vec::new();
    reduced_convolution(&a, &b, &mut out);
    assert_eq!(out.len(), 8);
    let (ai, bi) = (ints(&a), ints(&b));
    assert_eq!(convolution(&ai, &bi), brute_force(&ai, &bi));
    // Parallel edges one after the other: one closed chain around `A - B`.
    let mut chain: Vec<(I, I)> = out.iter().map(|&s| ends(s, &ai, &bi)).collect();
    let mut at = chain[0].0;
    for _ in 0..8 {
        let k = chain.iter().position(|s| s.0 == at).unwrap();
        at = chain.swap_remove(k).1;
    }
    assert!(chain.is_empty() && at == ends(out[0], &ai, &bi).0);
    let mut corners: Vec<I> = out.iter().map(|&s| ends(s, &ai, &bi).0).collect();
    corners.sort_unstable();
    for c in [[-4, -5], [-4, -2], [3, -5], [3, -2]] {
        assert!(corners.contains(&c), "{c:?}");
    }
}

/// Is the segment's edge parallel to an edge at its corner (where the tie-break decides)?
fn parallel_tie(s: Segment, a: &[I], b: &[I]) -> bool {
    let (e, c) = (s.edge as usize, s.corner as usize);
    let (edges, corners) = match s.edge_of {
        EdgeOf::A => (a, b),
        EdgeOf::B => (b, a),
    };
    let (n, m) = (edges.len(), corners.len());
    let d = sub(edges[(e + 1) % n], edges[e]);
    cross(d, sub(corners[c], corners[(c + m - 1) % m])) == 0
        || cross(d, sub(corners[(c + 1) % m], corners[c])) == 0
}

#[test]
fn matches_brute_force_on_random_polygons_both_orders() {
    let mut next = xorshift(0x5eed_17b0);
    let l = ints(&l_ring());
    for round in 0..300 {
        let a = if round % 10 == 0 {
            l.clone()
        } else {
            random_ring(&mut next, 12)
        };
        let b = random_ring(&mut next, 12);
        let ab = convolution(&a, &b);
        assert_eq!(ab, brute_force(&a, &b), "{a:?} {b:?}");
        // `b` with `-a` is `a` with `-b` negated: the same generators, sides swapped, except
        // where parallel edges meet (the tie-break puts the first argument's edge first).
        let ba: Vec<Segment> = convolution(&b, &a)
            .into_iter()
            .map(|s| Segment {
                edge_of: match s.edge_of {
                    EdgeOf::A => EdgeOf::B,
                    EdgeOf::B => EdgeOf::A,
                },
                ..s
            })
            .collect();
        for s in ab.iter().filter(|s| !ba.contains(s)) {
            assert!(parallel_tie(*s, &a, &b), "{s:?} {a:?} {b:?}");
        }
        for s in ba.iter().filter(|s| !ab.contains(s)) {
            assert!(parallel_tie(*s, &a, &b), "{s:?} {a:?} {b:?}");
        }
        // `ends` agrees with the integer ends.
        let (af, bf) = (f32s(&a), f32s(&b));
        for &s in &ab {
            let (p, q) = ends(s, &a, &b);
            let (pf, qf) = s.ends(&af, &bf);
            assert_eq!(
                [pf.x as i64, pf.y as i64, qf.x as i64, qf.y as i64],
                [p[0], p[1], q[0], q[1]]
            );
        }
    }
}

#[test]
fn moves_between_overlap_and_separation_meet_a_segment() {
    let mut next = xorshift(0x0c05_5017);
    let mut checked = 0;
    for _ in 0..150 {
        let (a, b) = (random_ring(&mut next, 10), random_ring(&mut next, 10));
        let segs: Vec<(I, I)> = convolution(&a, &b)
            .into_iter()
            .map(|s| ends(s, &a, &b))
            .collect();
        let mut point = || [(next() % 81) as i64 - 40, (next() % 81) as i64 - 40];
        for _ in 0..40 {
            let (p, q) = (point(), point());
            let (Some(op), Some(oq)) = (overlap(&a, &b, p), overlap(&a, &b, q)) else {
                continue;
            };
            if op != oq {
                checked += 1;
                assert!(
                    segs.iter().any(|&s| meet(s, (p, q))),
                    "{a:?} {b:?} {p:?} {q:?}"
                );
            }
        }
    }
    assert!(checked > 500, "{checked}");
}

/// Where `o` meets `s` in integers: the parameter along `s` as `(num, den)`, `den > 0`, when
/// the closed segments meet and are not parallel.
fn crossing_int(s: Segment, o: Segment, a: &[I], b: &[I]) -> Option<(i128, i128)> {
    let ((p0, p1), (q0, q1)) = (ends(s, a, b), ends(o, a, b));
    let (r, w, d) = (sub(p1, p0), sub(q1, q0), sub(q0, p0));
    let (mut den, mut u, mut v) = (cross(r, w), cross(d, w), cross(d, r));
    if den == 0 {
        return None;
    }
    if den < 0 {
        (den, u, v) = (-den, -u, -v);
    }
    let within = |num: i64| (0..=den).contains(&num);
    (within(u) && within(v)).then_some((i128::from(u), i128::from(den)))
}

/// The ends of `o` on `s` when they are collinear, as parameters along `s` in integers.
fn overlap_cuts_int(s: Segment, o: Segment, a: &[I], b: &[I]) -> Vec<(i128, i128)> {
    let ((p0, p1), (q0, q1)) = (ends(s, a, b), ends(o, a, b));
    let r = sub(p1, p0);
    if cross(r, sub(q1, q0)) != 0 || cross(sub(q0, p0), r) != 0 {
        return Vec::new();
    }
    let len2 = i128::from(r[0] * r[0] + r[1] * r[1]);
    [q0, q1]
        .iter()
        .map(|&q| {
            let d = sub(q, p0);
            i128::from(d[0]) * i128::from(r[0]) + i128::from(d[1]) * i128::from(r[1])
        })
        .filter(|along| (0..=len2).contains(along))
        .map(|along| (along, len2))
        .collect()
}

#[test]
fn cuts_ordered_exactly_as_integer_fractions() {
    let mut next = xorshift(0xc055_17b3);
    let (mut compared, mut overlaps, mut inner) = (0, 0, 0);
    for round in 0..100 {
        // Half the rounds scaled up to 2^23: degree-4 comparisons then round in `f64`.
        let k = if round % 2 == 0 {
            1
        } else {
            1 + (next() % (1 << 18)) as i64
        };
        let scaled = |r: Vec<I>| r.iter().map(|p| [p[0] * k, p[1] * k]).collect::<Vec<I>>();
        let mut ring = |boxed: bool| {
            if !boxed {
                return scaled(random_ring(&mut next, 12));
            }
            // Boxes: parallel edges everywhere, collinear overlaps often.
            let mut c = || (next() % 9) as f32 - 4.0;
            let (x, y) = (c(), c());
            let (w, h) = (1.0 + c().abs(), 1.0 + c().abs());
            scaled(ints(&box_ring(Vec2::new(x, y), Vec2::new(x + w, y + h))))
        };
        let mut a = ring(round % 4 == 1);
        let b = ring(round % 4 >= 2);
        if round % 4 == 3 {
            // An L against a box: collinear edges of different corners overlap.
            let m = 1 + (round / 4 % 3) as i64;
            a = scaled(
                ints(&l_ring())
                    .iter()
                    .map(|p| [p[0] * m, p[1] * m])
                    .collect(),
            );
        }
        let (af, bf) = (f32s(&a), f32s(&b));
        let segs = convolution(&a, &b);
        let mut cuts = Vec::new();
        for (i, &s) in segs.iter().enumerate() {
            let found: Vec<(Ratio, (i128, i128))> = segs
                .iter()
                .filter(|&&o| o != s)
                .filter_map(|&o| {
                    let exact = crossing(s, o, &af, &bf);
                    let int = crossing_int(s, o, &a, &b);
                    assert_eq!(exact.is_some(), int.is_some(), "{s:?} {o:?} {a:?} {b:?}");
                    Some((exact?, int?))
                })
                .collect();
            for (x, (xn, xd)) in &found {
                assert!((x.approx() - *xn as f64 / *xd as f64).abs() < 1e-12);
                for (y, (yn, yd)) in &found {
                    assert_eq!(x.cmp(y), (xn * yd).cmp(&(yn * xd)));
                    compared += 1;
                }
            }
            // All cuts in integers: the ends, the crossings, collinear overlaps' ends.
            let mut int_cuts: Vec<(i128, i128)> = found.iter().map(|f| f.1).collect();
            int_cuts.extend([(0, 1), (1, 1)]);
            for &o in segs.iter().filter(|&&o| o != s) {
                let more = overlap_cuts_int(s, o, &a, &b);
                overlaps += more.len();
                inner += more.iter().filter(|&&(n, d)| 0 < n && n < d).count();
                int_cuts.extend(more);
            }
            int_cuts.sort_unstable_by(|x, y| (x.0 * y.1).cmp(&(y.0 * x.1)));
            cut_at_crossings(&segs, i, &af, &bf, &mut cuts);
            // The same values: a crossing at a shared end is not repeated.
            int_cuts.dedup_by(|x, y| x.0 * y.1 == y.0 * x.1);
            cuts.dedup_by(|x, y| x.cmp(y).is_eq());
            assert_eq!(cuts.len(), int_cuts.len());
            for (k, (n, d)) in int_cuts.iter().enumerate() {
                assert!((cuts[k].approx() - *n as f64 / *d as f64).abs() < 1e-12);
                if let Some((n2, d2)) = int_cuts.get(k + 1) {
                    assert_eq!(cuts[k].cmp(&cuts[k + 1]), (n * d2).cmp(&(n2 * d)));
                }
            }
        }
    }
    assert!(compared > 5_000, "{compared}");
    assert!(overlaps > 40 && inner > 0, "{overlaps} {inner}");
}
