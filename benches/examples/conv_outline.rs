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
//!
//! Findings (conv17, callgrind instructions a pair over the 256 pairs, 10 rounds): star_box
//! 7,524 (library 32,319, parry2d 11,643, per-part 4,531), star_star 33,000 (library 311,324,
//! parry2d 39,194, per-part 20,185); depths agree with the library's on all 512 pairs within
//! 1e-6 relative. `points` (candidate points, no stretch samples): 9,075 / 51,303. Not counted:
//! contact points, exact predicates (the `f64` SAT needs a 1e-9 tolerance: sample points lie
//! where a vertex touches an edge, so the touching pair's sign is rounding noise).
// A measuring tool: bad arguments end the program.
#![allow(clippy::panic, clippy::expect_used)]

use collide2d::Shape;
use collide2d_benches::concave::{pairs, Both, CASES, COUNT};
use std::hint::black_box;

type P = [f64; 2];

/// SAT values within the tolerance: what a float filter could not decide (compare mode).
static NEAR_ZERO: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

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

/// One shape as the search sees it: its outline's edges and convex corners, and its convex
/// parts counter-clockwise, in `f64`.
pub struct Outlined {
    parts: Vec<Part>,
    /// Edges as start, end, direction.
    edges: Vec<(P, P, P)>,
    /// Convex vertices with their incoming and outgoing directions.
    corners: Vec<(P, P, P)>,
}

impl Outlined {
    fn new(outline: Vec<P>, parts: Vec<Part>) -> Outlined {
        let n = outline.len();
        let edges = (0..n)
            .map(|i| {
                let (s, e) = (outline[i], outline[(i + 1) % n]);
                (s, e, sub(e, s))
            })
            .collect();
        let corners = (0..n)
            .map(|j| {
                let v = outline[j];
                (
                    v,
                    sub(v, outline[(j + n - 1) % n]),
                    sub(outline[(j + 1) % n], v),
                )
            })
            .filter(|&(_, din, dout)| cross(din, dout) > 0.0)
            .collect();
        Outlined {
            parts,
            edges,
            corners,
        }
    }
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
        Shape::Polygon(p) => Outlined::new(
            f64s(p.points()),
            p.parts()
                .iter()
                .map(|c| Part::new(f64s(c.points())))
                .collect(),
        ),
        Shape::Aabb(b) => {
            let (lo, hi) = (b.min(), b.max());
            let pts = f64s(&[
                lo,
                collide2d::math::Vec2::new(hi.x, lo.y),
                hi,
                collide2d::math::Vec2::new(lo.x, hi.y),
            ]);
            Outlined::new(pts.clone(), vec![Part::new(pts)])
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
        if other.iter().all(|&v| {
            let c = cross(e, sub(v, p));
            if c.abs() <= tol {
                NEAR_ZERO.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            c <= tol
        }) {
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
/// incoming side for `p`'s edges, on the outgoing side when `p` is `-B`, so an edge of `A` and
/// a parallel edge of `-B` follow each other, `A`'s first, as in `collide2d`'s
/// `union_outline`; the same side for both left gaps).
/// `ps`, `qs`: +1 or -1, the outline as it is or negated (`-B`); negating both factors of a
/// cross product keeps it, so only mixed products take the sign.
fn convolution(p: &Outlined, ps: f64, q: &Outlined, qs: f64, out: &mut Vec<(P, P)>) {
    let sign = ps * qs;
    let scale = |k: f64, v: P| [k * v[0], k * v[1]];
    let a_edges = ps > 0.0;
    for &(s, e, d) in &p.edges {
        for &(v, din, dout) in &q.corners {
            let (after_in, before_out) = (sign * cross(din, d), sign * cross(d, dout));
            let held = if a_edges {
                after_in > 0.0 && before_out >= 0.0
            } else {
                after_in >= 0.0 && before_out > 0.0
            };
            if held {
                let v = scale(qs, v);
                out.push((add(scale(ps, s), v), add(scale(ps, e), v)));
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
    let mut segs = Vec::with_capacity(64);
    convolution(a, 1.0, b, -1.0, &mut segs);
    convolution(b, -1.0, a, 1.0, &mut segs);
    n.segments += segs.len();
    let lower: Vec<f64> = segs
        .iter()
        .map(|&s| stretch_distance(s, 0.0, 1.0).0)
        .collect();
    let mut done = vec![false; segs.len()];
    let mut best = (f64::INFINITY, [0.0, 0.0]);
    let mut cuts: Vec<f64> = Vec::with_capacity(32);
    loop {
        // The nearest segment not visited yet (few are visited: select, don't sort).
        let mut next = None;
        for (i, &d) in lower.iter().enumerate() {
            if !done[i] && d < best.0 && next.is_none_or(|(_, e)| d < e) {
                next = Some((i, d));
            }
        }
        let Some((i, _)) = next else { break };
        done[i] = true;
        n.visited += 1;
        let s = segs[i];
        cut_at_crossings(&segs, i, &mut cuts, n);
        // Stretches nearest first: distances grow away from the origin's foot on the segment,
        // so walk out from the stretch holding the foot, taking the nearer side each step.
        let r = sub(s.1, s.0);
        let foot = -dot(s.0, r) / dot(r, r);
        let k = cuts
            .partition_point(|&u| u <= foot)
            .clamp(1, cuts.len() - 1);
        let (mut left, mut right) = (k - 1, k);
        loop {
            let take = |j: usize| stretch_distance(s, cuts[j - 1], cuts[j]);
            let dl = (left >= 1).then(|| take(left));
            let dr = (right < cuts.len()).then(|| take(right));
            let (j, (d, p)) = match (dl, dr) {
                (Some(l), Some(r)) if l.0 <= r.0 => (left, l),
                (_, Some(r)) => (right, r),
                (Some(l), None) => (left, l),
                (None, None) => break,
            };
            if d >= best.0 {
                break;
            }
            if j == left {
                left -= 1;
            } else {
                right += 1;
            }
            if cuts[j] > cuts[j - 1] && !in_s(a, b, point_at(s, (cuts[j - 1] + cuts[j]) * 0.5), n) {
                best = (d, p);
                break;
            }
        }
    }
    Some((best.0.sqrt(), best.1))
}

/// The same search shaped for exact predicates: no sample points inside stretches. The nearest
/// point of the closed set `∂S ∩ s` is the origin's foot on `s`, an end of `s` or a crossing
/// with another segment; each such candidate lies on the convolution, so it is on `∂S` iff it is
/// not in `S`. Candidates nearest first; the first not in `S` is the segment's answer. A
/// candidate is `f32` sums over a degree-2 denominator: the strict SAT at it is a degree-4 sign,
/// within what `exact`'s filter and expansions decide. Crossings only come from segments whose
/// distance is below the best so far (a crossing farther away cannot win).
pub fn outline_contact_points(a: &Outlined, b: &Outlined, n: &mut Counts) -> Option<(f64, P)> {
    if !in_s(a, b, [0.0, 0.0], n) {
        return None;
    }
    let mut segs = Vec::with_capacity(64);
    convolution(a, 1.0, b, -1.0, &mut segs);
    convolution(b, -1.0, a, 1.0, &mut segs);
    n.segments += segs.len();
    let lower: Vec<f64> = segs
        .iter()
        .map(|&s| stretch_distance(s, 0.0, 1.0).0)
        .collect();
    let mut done = vec![false; segs.len()];
    let mut best = (f64::INFINITY, [0.0, 0.0]);
    let mut candidates: Vec<(f64, P)> = Vec::with_capacity(32);
    loop {
        // The nearest segment not visited yet (few are visited: select, don't sort).
        let mut next = None;
        for (i, &d) in lower.iter().enumerate() {
            if !done[i] && d < best.0 && next.is_none_or(|(_, e)| d < e) {
                next = Some((i, d));
            }
        }
        let Some((i, _)) = next else { break };
        done[i] = true;
        n.visited += 1;
        let s = segs[i];
        candidates.clear();
        for u in [0.0, 1.0] {
            let p = point_at(s, u);
            candidates.push((dot(p, p), p));
        }
        let (d, foot) = stretch_distance(s, 0.0, 1.0);
        candidates.push((d, foot));
        for (k, &o) in segs.iter().enumerate() {
            if k == i || lower[k] >= best.0 {
                continue;
            }
            n.crossing_tests += 1;
            if let Some(u) = crossing(s, o) {
                n.crossings += 1;
                let p = point_at(s, u);
                candidates.push((dot(p, p), p));
            }
        }
        candidates.sort_unstable_by(|x, y| x.0.total_cmp(&y.0));
        for &(d, p) in &candidates {
            if d >= best.0 {
                break;
            }
            if !in_s(a, b, p, n) {
                best = (d, p);
                break;
            }
        }
    }
    Some((best.0.sqrt(), best.1))
}

/// The prototype on every pair (the part callgrind counts); `points`: the exact-shaped search.
#[inline(never)]
pub fn outline_contacts(inputs: &[(Outlined, Outlined)], points: bool, n: &mut Counts) {
    for (a, b) in inputs {
        if points {
            black_box(outline_contact_points(a, b, n));
        } else {
            black_box(outline_contact(a, b, n));
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (group, mode, points) = match &args[..] {
        [g, m] => (g.clone(), m.clone(), false),
        [g, m, v] if v == "points" => (g.clone(), m.clone(), true),
        _ => panic!("usage: conv_outline <star_box|star_star> <compare|time> [points]"),
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
    if let Some(k) = mode.strip_prefix("dump") {
        // One pair's shapes as Rust literals, for a check against the exact reference in
        // crates/collide2d/tests/union_contact.rs (`check_pair`).
        let k: usize = k.parse().expect("dumpN");
        for s in [&pairs[k].0.collide, &pairs[k].1.collide] {
            match s {
                Shape::Polygon(p) => println!("polygon {:?}", p.points()),
                Shape::Aabb(b) => println!("aabb {:?} {:?}", b.min(), b.max()),
                _ => {}
            }
        }
        return;
    }
    if mode == "time" {
        for _ in 0..10 {
            outline_contacts(&inputs, points, &mut n);
        }
        println!("rounds 10 pairs {}", inputs.len());
        return;
    }
    let (mut hits, mut agree, mut worst) = (0, 0, 0.0f64);
    for (k, ((a, b), (oa, ob))) in pairs.iter().zip(&inputs).enumerate() {
        let lib = collide2d::contact(&a.collide, &b.collide);
        let mine = if points {
            outline_contact_points(oa, ob, &mut n)
        } else {
            outline_contact(oa, ob, &mut n)
        };
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
                    convolution(oa, 1.0, ob, -1.0, &mut segs);
                    convolution(ob, -1.0, oa, 1.0, &mut segs);
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
        "SAT values within 1e-9 (undecidable by a filter) per searched pair: {:.1}",
        per_hit(NEAR_ZERO.load(std::sync::atomic::Ordering::Relaxed))
    );
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
