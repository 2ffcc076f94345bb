//! Investigation prototype (issue 17, not wired into the library): the union contact of two
//! polygons searched directly on the reduced convolution of their OUTLINES, in plain `f64`
//! (not exact). Compares its answers with `collide2d::contact` on the `concave` bench's
//! star_box / star_star pairs and prints the cost split; callgrind counts its instructions:
//!
//! ```sh
//! (cd benches && cargo build --profile bench --example conv_outline)
//! valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*outline_contacts*' \
//!     target/release/examples/conv_outline star_star time
//! ```
//!
//! Moving `b` by `t` makes the interiors overlap iff `t` is in `S`, the union of the open
//! Minkowski differences `int(Ai - Bj)` of the convex parts. `S`'s boundary lies on the reduced
//! convolution of `A` and `-B`: an edge of one plus a convex vertex of the other whose turn holds
//! the edge's direction. The depth is the distance from the origin to that boundary: segments
//! are visited nearest first; a segment is cut at its crossings with all the others, and a
//! stretch is on the boundary iff its midpoint is not in `S` (no pair of parts overlaps by strict
//! SAT there). The search stops when the next segment's distance is no better than the best.
// A measuring tool: bad arguments end the program.
#![allow(clippy::panic, clippy::expect_used)]

use collide2d::Shape;
use collide2d_benches::concave::{pairs, Both, CASES, COUNT};
use std::hint::black_box;

type P = [f64; 2];

fn sub(a: P, b: P) -> P {
    [a[0] - b[0], a[1] - b[1]]
}
fn add(a: P, b: P) -> P {
    [a[0] + b[0], a[1] + b[1]]
}
fn cross(a: P, b: P) -> f64 {
    a[0] * b[1] - a[1] * b[0]
}
fn dot(a: P, b: P) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}

/// One shape as the search sees it: outline and convex parts counter-clockwise, in `f64`.
pub struct Outlined {
    outline: Vec<P>,
    parts: Vec<Part>,
}

/// A convex part with its bounding box.
struct Part {
    points: Vec<P>,
    lo: P,
    hi: P,
}

impl Part {
    fn new(points: Vec<P>) -> Part {
        let mut lo = [f64::INFINITY; 2];
        let mut hi = [f64::NEG_INFINITY; 2];
        for p in &points {
            for k in 0..2 {
                lo[k] = lo[k].min(p[k]);
                hi[k] = hi[k].max(p[k]);
            }
        }
        Part { points, lo, hi }
    }
}

fn f64s(points: &[collide2d::math::Vec2]) -> Vec<P> {
    points
        .iter()
        .map(|v| [f64::from(v.x), f64::from(v.y)])
        .collect()
}

/// The bench's star or box in the prototype's form.
pub fn outlined(shape: &Shape) -> Outlined {
    match shape {
        Shape::Polygon(p) => Outlined {
            outline: f64s(p.points()),
            parts: p
                .parts()
                .iter()
                .map(|c| Part::new(f64s(c.points())))
                .collect(),
        },
        Shape::Aabb(b) => {
            let (lo, hi) = (b.min(), b.max());
            let pts = f64s(&[
                lo,
                collide2d::math::Vec2::new(hi.x, lo.y),
                hi,
                collide2d::math::Vec2::new(lo.x, hi.y),
            ]);
            Outlined {
                outline: pts.clone(),
                parts: vec![Part::new(pts)],
            }
        }
        _ => panic!("stars and boxes only"),
    }
}

/// What one search did.
#[derive(Default, Clone, Copy)]
pub struct Counts {
    segments: usize,
    visited: usize,
    crossing_tests: usize,
    crossings: usize,
    samples: usize,
    pair_tests: usize,
    sat_runs: usize,
}

/// Strict SAT: do the interiors of `a` and `b + t` overlap?
fn interiors_overlap(a: &Part, b: &Part, t: P, n: &mut Counts) -> bool {
    n.pair_tests += 1;
    if a.hi[0] <= b.lo[0] + t[0]
        || b.hi[0] + t[0] <= a.lo[0]
        || a.hi[1] <= b.lo[1] + t[1]
        || b.hi[1] + t[1] <= a.lo[1]
    {
        return false;
    }
    n.sat_runs += 1;
    !separated_by_edges(&a.points, &b.points, t, false)
        && !separated_by_edges(&b.points, &a.points, t, true)
}

/// Does an edge normal of `own` separate it from `other` (one of them moved by `t`)?
/// `own_moved`: `own` is the one moved by `t`.
fn separated_by_edges(own: &[P], other: &[P], t: P, own_moved: bool) -> bool {
    let shift = if own_moved { [-t[0], -t[1]] } else { t };
    let n = own.len();
    for i in 0..n {
        let (p, q) = (own[i], own[(i + 1) % n]);
        let e = sub(q, p);
        // All of `other` (moved into `own`'s frame) on or right of the edge's line: separated.
        // Sample points lie on the convolution, where a vertex touches an edge: the touching
        // pair's cross product is zero up to rounding, so `f64` needs a tolerance (1e-9 units of
        // distance) where the exact version would decide the sign exactly.
        let p = sub(p, shift);
        let tol = 1e-9 * (e[0].abs() + e[1].abs());
        if other.iter().all(|&v| cross(e, sub(v, p)) <= tol) {
            return true;
        }
    }
    false
}

#[inline(never)]
/// Is `t` in `S`: do `a` and `b` moved by `t` have overlapping interiors?
fn in_s(a: &Outlined, b: &Outlined, t: P, n: &mut Counts) -> bool {
    n.samples += 1;
    a.parts
        .iter()
        .any(|pa| b.parts.iter().any(|pb| interiors_overlap(pa, pb, t, n)))
}

#[inline(never)]
/// Reduced convolution segments of `p` and `q` (both counter-clockwise): each edge of one plus
/// each convex vertex of the other whose turn holds the edge's direction (half-open on the
/// incoming side, so parallel edges give one segment each).
fn convolution(p: &[P], q: &[P], out: &mut Vec<(P, P)>) {
    let (np, nq) = (p.len(), q.len());
    for i in 0..np {
        let (s, e) = (p[i], p[(i + 1) % np]);
        let d = sub(e, s);
        for j in 0..nq {
            let v = q[j];
            let din = sub(v, q[(j + nq - 1) % nq]);
            let dout = sub(q[(j + 1) % nq], v);
            if cross(din, dout) > 0.0 && cross(din, d) > 0.0 && cross(d, dout) >= 0.0 {
                out.push((add(s, v), add(e, v)));
            }
        }
    }
}

/// Parameter along `s` where it meets `o`, if they cross or touch (not collinear).
fn crossing(s: (P, P), o: (P, P)) -> Option<f64> {
    let r = sub(s.1, s.0);
    let w = sub(o.1, o.0);
    let den = cross(r, w);
    if den == 0.0 {
        return None;
    }
    let d = sub(o.0, s.0);
    let u = cross(d, w) / den;
    let v = cross(d, r) / den;
    ((0.0..=1.0).contains(&u) && (0.0..=1.0).contains(&v)).then_some(u)
}

fn point_at(s: (P, P), u: f64) -> P {
    let r = sub(s.1, s.0);
    [s.0[0] + r[0] * u, s.0[1] + r[1] * u]
}

/// Squared distance from the origin to the stretch `[u0, u1]` of `s`, and the nearest point.
fn stretch_distance(s: (P, P), u0: f64, u1: f64) -> (f64, P) {
    let r = sub(s.1, s.0);
    let rr = dot(r, r);
    let foot = if rr > 0.0 { -dot(s.0, r) / rr } else { 0.0 };
    let p = point_at(s, foot.clamp(u0, u1));
    (dot(p, p), p)
}

/// The parameters along `segs[i]` of its ends and its crossings with the others, sorted.
#[inline(never)]
fn cut_at_crossings(segs: &[(P, P)], i: usize, cuts: &mut Vec<f64>, n: &mut Counts) {
    let s = segs[i];
    cuts.clear();
    cuts.push(0.0);
    cuts.push(1.0);
    for (k, &o) in segs.iter().enumerate() {
        if k == i {
            continue;
        }
        n.crossing_tests += 1;
        if let Some(u) = crossing(s, o) {
            n.crossings += 1;
            cuts.push(u);
        }
    }
    cuts.sort_unstable_by(f64::total_cmp);
}

/// The shortest move of `b` (its squared length's root and the move) that leaves the interiors
/// disjoint, or `None` when they do not overlap.
pub fn outline_contact(a: &Outlined, b: &Outlined, n: &mut Counts) -> Option<(f64, P)> {
    if !in_s(a, b, [0.0, 0.0], n) {
        return None;
    }
    let minus_b: Vec<P> = b.outline.iter().map(|v| [-v[0], -v[1]]).collect();
    let mut segs = Vec::with_capacity(64);
    convolution(&a.outline, &minus_b, &mut segs);
    convolution(&minus_b, &a.outline, &mut segs);
    n.segments += segs.len();
    let mut order: Vec<(f64, usize)> = segs
        .iter()
        .enumerate()
        .map(|(i, &s)| (stretch_distance(s, 0.0, 1.0).0, i))
        .collect();
    order.sort_unstable_by(|x, y| x.0.total_cmp(&y.0));
    let mut best = (f64::INFINITY, [0.0, 0.0]);
    let mut cuts: Vec<f64> = Vec::with_capacity(32);
    for &(lower, i) in &order {
        if lower >= best.0 {
            break;
        }
        n.visited += 1;
        let s = segs[i];
        cut_at_crossings(&segs, i, &mut cuts, n);
        // Stretches nearest first: distances grow away from the origin's foot on the segment.
        let mut stretches: Vec<(f64, P, f64)> = cuts
            .windows(2)
            .filter(|w| w[1] > w[0])
            .map(|w| {
                let (d, p) = stretch_distance(s, w[0], w[1]);
                (d, p, (w[0] + w[1]) * 0.5)
            })
            .collect();
        stretches.sort_unstable_by(|x, y| x.0.total_cmp(&y.0));
        for (d, p, mid) in stretches {
            if d >= best.0 {
                break;
            }
            if !in_s(a, b, point_at(s, mid), n) {
                best = (d, p);
                break;
            }
        }
    }
    Some((best.0.sqrt(), best.1))
}

/// The prototype on every pair (the part callgrind counts).
#[inline(never)]
pub fn outline_contacts(inputs: &[(Outlined, Outlined)], n: &mut Counts) {
    for (a, b) in inputs {
        black_box(outline_contact(a, b, n));
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (group, mode) = match &args[..] {
        [g, m] => (g.clone(), m.clone()),
        _ => panic!("usage: conv_outline <star_box|star_star> <compare|time>"),
    };
    let Some(&(_, ka, kb, seed)) = CASES.iter().find(|c| c.0 == group) else {
        panic!("unknown group {group}");
    };
    let pairs: Vec<(Both, Both)> = pairs(ka, kb, seed, COUNT);
    let inputs: Vec<(Outlined, Outlined)> = pairs
        .iter()
        .map(|(a, b)| (outlined(&a.collide), outlined(&b.collide)))
        .collect();
    let mut n = Counts::default();
    if mode == "time" {
        for _ in 0..10 {
            outline_contacts(&inputs, &mut n);
        }
        println!("rounds 10 pairs {}", inputs.len());
        return;
    }
    let (mut hits, mut agree, mut worst) = (0, 0, 0.0f64);
    for (k, ((a, b), (oa, ob))) in pairs.iter().zip(&inputs).enumerate() {
        let lib = collide2d::contact(&a.collide, &b.collide);
        let mine = outline_contact(oa, ob, &mut n);
        match (lib, mine) {
            (None, None) => agree += 1,
            (Some(c), Some((d, p))) => {
                hits += 1;
                let depth = f64::from(c.depth);
                let diff = (depth - d).abs();
                worst = worst.max(diff);
                if diff <= 1e-6 * (1.0 + depth) {
                    agree += 1;
                } else {
                    let nn = [f64::from(c.normal.x), f64::from(c.normal.y)];
                    let t = [nn[0] * depth * (1.0 + 1e-5), nn[1] * depth * (1.0 + 1e-5)];
                    let t0 = [nn[0] * depth * (1.0 - 1e-5), nn[1] * depth * (1.0 - 1e-5)];
                    let mut segs = Vec::new();
                    let minus_b: Vec<P> = ob.outline.iter().map(|v| [-v[0], -v[1]]).collect();
                    convolution(&oa.outline, &minus_b, &mut segs);
                    convolution(&minus_b, &oa.outline, &mut segs);
                    let near = segs
                        .iter()
                        .map(|&s| {
                            let r = sub(s.1, s.0);
                            let u = (dot(sub(t, s.0), r) / dot(r, r)).clamp(0.0, 1.0);
                            let q = point_at(s, u);
                            dot(sub(q, t), sub(q, t)).sqrt()
                        })
                        .fold(f64::INFINITY, f64::min);
                    println!(
                        "  lib move past: in S {}; short of: in S {}; nearest segment {near:e}",
                        in_s(oa, ob, t, &mut Counts::default()),
                        in_s(oa, ob, t0, &mut Counts::default())
                    );
                    println!(
                        "pair {k}: library depth {depth} normal ({}, {}); outline {d} move ({}, {})",
                        c.normal.x, c.normal.y, p[0], p[1]
                    );
                }
            }
            (l, m) => println!("pair {k}: library {:?} outline {:?}", l.map(|c| c.depth), m),
        }
    }
    println!(
        "{group}: {} pairs, {hits} hits, {agree} agree (1e-6 relative), largest depth diff {worst:e}",
        pairs.len()
    );
    let per_hit = |x: usize| x as f64 / hits.max(1) as f64;
    println!(
        "per searched pair: segments {:.1}, visited {:.1}, crossing tests {:.1}, crossings {:.1}, \
         samples {:.1} (incl. origin), part-pair tests {:.1}, SAT runs {:.1}",
        per_hit(n.segments),
        per_hit(n.visited),
        per_hit(n.crossing_tests),
        per_hit(n.crossings),
        per_hit(n.samples),
        per_hit(n.pair_tests),
        per_hit(n.sat_runs),
    );
}
