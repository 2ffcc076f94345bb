//! The union contact of two polygon-like shapes (polygons, boxes, oriented boxes), one of them
//! concave, searched on the reduced convolution of their outlines ([`union_outline`]).
//!
//! Moving `b` by `t` makes the interiors overlap iff `t` lies in `S`, the union of the open
//! differences `int(A_i − B_j)` of their convex parts; the depth is the distance from the origin
//! to `S`'s boundary, which lies on the convolution. Each segment has its generating pair's
//! difference on its left, so a stretch of it (between consecutive cuts by the others) is on
//! the boundary iff its right side is outside `S`; seams and zero-width slits, with `S` on
//! both sides, are inside (the documented rule).
//!
//! ```text
//! the origin not in S (exactly): not answered here (apart or touching: the caller's path)
//! segments nearest first, while one may beat the best found:
//!     cut it where the others meet it (exact fractions, exactly ordered)
//!     stretches walked out from the origin's foot, nearest first, while nearer than the best:
//!         its nearest point q, pushed an infinitesimal step into the stretch and a smaller
//!         one to the segment's right, in no part pair's open difference (strict SAT with
//!         symbolic perturbation, exact signs past a float filter): q is the segment's answer
//! b moves by the best q; the generating corner touches the generating edge there
//! ```
//!
//! [`union_outline`]: crate::query::union_outline

use crate::exact;
use crate::math::Vec2;
use crate::query::union_exact::{products_sign, Prod, Ratio, Sum};
use crate::query::union_outline::{cut_by, each_convolution_segment};
use crate::query::union_outline::{Cut, EdgeOf, Segment};
use crate::query::{convex, Contact};
use crate::shape::{ConvexPolygon, Shape};
use alloc::vec::Vec;
use core::cmp::Ordering;
use glam::DVec2;

/// Most convex parts of one shape the search takes; past it the caller's search answers.
const MAX_PARTS: usize = 16;

/// Most outline corners of the two shapes, multiplied: past it (hostile sizes) the caller's
/// search, with its own bounds, answers.
const MAX_CORNERS: usize = 1024;

/// Work past which the search gives up to the caller's (crossing tests and part pairs tested
/// at a point, each one unit).
const WORK: usize = 1 << 16;

/// Half an ulp of `f64`.
const EPS: f64 = f64::EPSILON * 0.5;

/// A shape as the search sees it: its counter-clockwise outline and its convex parts.
struct Outlined<'s> {
    /// A box's outline (when `outline` is `None`).
    ring: [Vec2; 4],
    outline: Option<&'s [Vec2]>,
    /// A concave polygon's parts; otherwise the outline is the one part.
    parts: Option<&'s [ConvexPolygon]>,
}

impl<'s> Outlined<'s> {
    fn of(shape: &'s Shape) -> Option<Outlined<'s>> {
        let (ring, outline, parts) = match shape {
            Shape::Polygon(p) => ([Vec2::ZERO; 4], Some(p.points()), Some(p.parts())),
            Shape::ConvexPolygon(p) if p.points().len() >= 3 => {
                ([Vec2::ZERO; 4], Some(p.points()), None)
            }
            Shape::Obb(o) if o.hull().len() >= 3 => ([Vec2::ZERO; 4], Some(o.hull()), None),
            Shape::Aabb(b) if b.min().cmplt(b.max()).all() => (b.corners(), None, None),
            _ => return None,
        };
        Some(Outlined {
            ring,
            outline,
            parts,
        })
    }

    fn outline(&self) -> &[Vec2] {
        self.outline.unwrap_or(&self.ring)
    }

    fn part_count(&self) -> usize {
        self.parts.map_or(1, <[ConvexPolygon]>::len)
    }

    fn part(&self, i: usize) -> &[Vec2] {
        match self.parts {
            Some(parts) => parts[i].points(),
            None => self.outline(),
        }
    }
}

/// A part's box, in `f64`.
#[derive(Clone, Copy, Default)]
struct Box2 {
    lo: DVec2,
    hi: DVec2,
}

fn box_of(points: &[Vec2]) -> Box2 {
    points.iter().fold(
        Box2 {
            lo: DVec2::INFINITY,
            hi: DVec2::NEG_INFINITY,
        },
        |b, p| Box2 {
            lo: b.lo.min(p.as_dvec2()),
            hi: b.hi.max(p.as_dvec2()),
        },
    )
}

/// The point probed: `q = start + dir u` on a segment, pushed by `ε` along `dir` (`forward`)
/// or against it, then by `ε²` to the segment's right, `ε` infinitesimal. `t` is `q` in
/// `f64`, within `err` in each coordinate.
struct Probe {
    /// `q = sa − sb + dir u`.
    sa: Vec2,
    sb: Vec2,
    dir: Sum,
    u: Ratio,
    forward: bool,
    t: DVec2,
    err: f64,
    /// The segment's generating edge and corner, and whether the edge is `a`'s: that pair
    /// touches all along the segment, its sign known without arithmetic.
    edge: (Vec2, Vec2),
    corner: Vec2,
    edge_of_a: bool,
    /// The same for the segment whose cut the probe starts from: that pair is exactly on its
    /// line at `q`, only the orders of `ε` decide its sign.
    touching: Option<Touch>,
}

/// A segment's generating edge and corner, and whether the edge is `a`'s.
#[derive(Clone, Copy)]
struct Touch {
    edge: (Vec2, Vec2),
    corner: Vec2,
    edge_of_a: bool,
}

impl Touch {
    fn of(s: Segment, a: &[Vec2], b: &[Vec2]) -> Touch {
        let (e, c) = (s.edge as usize, s.corner as usize);
        match s.edge_of {
            EdgeOf::A => Touch {
                edge: (a[e], a[(e + 1) % a.len()]),
                corner: b[c],
                edge_of_a: true,
            },
            EdgeOf::B => Touch {
                edge: (b[e], b[(e + 1) % b.len()]),
                corner: a[c],
                edge_of_a: false,
            },
        }
    }

    /// Is `p` against the edge `p0 -> p1` (`moved_b` as in [`Probe::left_of`]) this pair?
    #[inline]
    fn is(&self, p0: Vec2, p1: Vec2, p: Vec2, moved_b: bool) -> bool {
        moved_b == self.edge_of_a && (p0, p1) == self.edge && p == self.corner
    }
}

impl Probe {
    fn new(s: Segment, cut: &Cut, forward: bool, a: &[Vec2], b: &[Vec2]) -> Probe {
        let u = cut.u;
        let (sa, sb) = s.start(a, b);
        let dir = s.dir(a, b);
        let (start_f, start_m) = (sa.as_dvec2() - sb.as_dvec2(), magnitude(sa) + magnitude(sb));
        let (dir_f, dir_m) = dir.approx_bounded();
        let (nf, df) = u.filtered();
        let (n, d, en, ed) = (nf.value(), df.value(), nf.error(), df.error());
        let (t, err) = if d - ed > 0.0 {
            let uf = n / d;
            let du = (en + uf.abs() * ed) / (d - ed) + 4.0 * EPS * uf.abs();
            let t = start_f + dir_f * uf;
            let rounding = 8.0 * EPS * (start_m + dir_m * (1.0 + uf.abs()));
            (
                t,
                rounding + du * dir_f.abs().max_element() * 2.0 + du * dir_m * 4.0 * EPS,
            )
        } else {
            // The denominator's `f64` value may be all rounding: the point from exact numbers.
            let t = u.point_on(Sum::diff(sa, sb), dir);
            (t, 16.0 * EPS * t.abs().max_element() + f64::MIN_POSITIVE)
        };
        let Touch {
            edge,
            corner,
            edge_of_a,
        } = Touch::of(s, a, b);
        Probe {
            sa,
            sb,
            dir,
            u,
            forward,
            t,
            err,
            edge,
            corner,
            edge_of_a,
            touching: cut.by.map(|o| Touch::of(o, a, b)),
        }
    }

    /// Is `p` against `p0 -> p1` the pair of the segment the probe's cut came from?
    #[inline]
    fn touches(&self, p0: Vec2, p1: Vec2, p: Vec2, moved_b: bool) -> bool {
        self.touching.is_some_and(|t| t.is(p0, p1, p, moved_b))
    }

    /// Is `p + v` strictly left of the line `p0 -> p1` at the probe, `v` being `b`'s moved
    /// vertex (`moved_b`: `p` is `b`'s point, the line `a`'s edge) or the line moving with `b`
    /// (`p` is `a`'s point)? Lexicographic in the orders of `ε`; `None` when the `f64` filter
    /// cannot tell ([`left_of_exact`](Self::left_of_exact) can).
    #[inline]
    fn left_of(&self, p0: Vec2, p1: Vec2, p: Vec2, moved_b: bool) -> Option<bool> {
        let e = p1.as_dvec2() - p0.as_dvec2();
        // `p − p0 + t` for `b`'s point, `p − p0 − t` for `a`'s.
        let t = if moved_b { self.t } else { -self.t };
        let w = (p.as_dvec2() - p0.as_dvec2()) + t;
        let (l, r) = (e.x * w.y, e.y * w.x);
        let v = l - r;
        let wm = magnitude(p) + magnitude(p0) + self.t.abs().max_element();
        let bound = (e.x.abs() + e.y.abs()) * (8.0 * EPS * wm + self.err) * 2.0
            + (l.abs() + r.abs()) * 8.0 * EPS
            + f64::MIN_POSITIVE;
        if v > bound {
            Some(true)
        } else if v < -bound {
            Some(false)
        } else {
            None
        }
    }

    /// Does the edge `p0 -> p1` of one part leave some point of `other` strictly on its left
    /// at the probe (see [`left_of`](Self::left_of))? The filter on every point first: a
    /// point clearly left decides without the exact signs of the touching ones.
    fn any_left(&self, p0: Vec2, p1: Vec2, other: &[Vec2], moved_b: bool) -> bool {
        // The generating edge itself: its corner touches it all along the segment, and the
        // probe, pushed to the segment's right, leaves the corner on its outer side.
        let generating = moved_b == self.edge_of_a && (p0, p1) == self.edge;
        let mut unsure = false;
        for &v in other {
            if generating && v == self.corner {
                continue;
            }
            if self.touches(p0, p1, v, moved_b) {
                // Zero at `q`: the filter cannot tell.
                unsure = true;
                continue;
            }
            match self.left_of(p0, p1, v, moved_b) {
                Some(true) => return true,
                Some(false) => {}
                None => unsure = true,
            }
        }
        unsure
            && other.iter().any(|&v| {
                if generating && v == self.corner {
                    false
                } else if self.touches(p0, p1, v, moved_b) {
                    self.left_of_exact(p0, p1, v, moved_b, true)
                } else {
                    self.left_of(p0, p1, v, moved_b).is_none()
                        && self.left_of_exact(p0, p1, v, moved_b, false)
                }
            })
    }

    #[cold]
    #[inline(never)]
    fn left_of_exact(&self, p0: Vec2, p1: Vec2, p: Vec2, moved_b: bool, on_line: bool) -> bool {
        let e = Sum::diff(p1, p0);
        let along = if moved_b {
            Prod::cross(e, self.dir)
        } else {
            Prod::cross(e, self.dir).neg()
        };
        // `on_line`: the cut's own pair, zero at `q` (the cut is exactly on its segment's line).
        if !on_line {
            let (num, den) = self.u.terms();
            // The value times `den`: `den (e × w0) ± num (e × dir)`, `w0` the offset at the start.
            let w0 = if moved_b {
                Sum::of(p, p0, self.sa, self.sb)
            } else {
                Sum::of(p, p0, self.sb, self.sa)
            };
            let first = products_sign(&den, &Prod::cross(e, w0), &num.neg(), &along);
            if first != Ordering::Equal {
                return first == Ordering::Greater;
            }
        }
        // `ε` along the segment, forward or back.
        let along_sign = along.sign();
        let along_sign = if self.forward {
            along_sign
        } else {
            along_sign.reverse()
        };
        if along_sign != Ordering::Equal {
            return along_sign == Ordering::Greater;
        }
        // `ε²` to the right, `(dir.y, −dir.x)`: `e × right = −(e · dir)`, negated for `a`'s.
        let right = Prod::dot(e, self.dir);
        let right = if moved_b { right.neg() } else { right };
        right.sign() == Ordering::Greater
    }
}

/// A segment's start, exactly.
fn start_of(s: Segment, a: &[Vec2], b: &[Vec2]) -> Sum {
    let (sa, sb) = s.start(a, b);
    Sum::diff(sa, sb)
}

/// A move this small against its segment's start and direction is computed exactly: `f64`
/// rounds it by `2^-52` of those, which can be most of it.
const CANCELS: f64 = 1.0 / (1u64 << 40) as f64;

/// The sum of a point's coordinates' magnitudes.
fn magnitude(p: Vec2) -> f64 {
    p.as_dvec2().abs().element_sum()
}

/// The two shapes with their parts' boxes.
struct Pair<'s> {
    a: Outlined<'s>,
    b: Outlined<'s>,
    boxes_a: [Box2; MAX_PARTS],
    boxes_b: [Box2; MAX_PARTS],
}

impl Pair<'_> {
    /// Do parts `i` of `a` and `j` of `b`, `b` moved to the probe, have overlapping
    /// interiors? Strict SAT: no edge of either has all of the other on or outside it.
    fn overlap(&self, i: usize, j: usize, probe: &Probe) -> bool {
        let (ba, bb) = (&self.boxes_a[i], &self.boxes_b[j]);
        let pad = probe.err
            + 4.0 * EPS * (ba.lo.abs() + ba.hi.abs() + bb.lo.abs() + bb.hi.abs()).max_element();
        // Outside the closed difference's box by more than the rounding: apart.
        let (lo, hi) = (ba.lo - bb.hi, ba.hi - bb.lo);
        if (probe.t + pad).cmple(lo).any() || (probe.t - pad).cmpge(hi).any() {
            return false;
        }
        let (pa, pb) = (self.a.part(i), self.b.part(j));
        let inside = |own: &[Vec2], other: &[Vec2], moved_b: bool| {
            let n = own.len();
            (0..n).all(|k| probe.any_left(own[k], own[(k + 1) % n], other, moved_b))
        };
        inside(pa, pb, true) && inside(pb, pa, false)
    }

    /// Is the probe in `S`? `last` is the part pair that overlapped last time, tried first
    /// (nearby probes tend to share it), and updated.
    fn in_s(&self, probe: &Probe, work: &mut usize, last: &mut (usize, usize)) -> bool {
        let (n, m) = (self.a.part_count(), self.b.part_count());
        *work += n * m;
        if self.overlap(last.0, last.1, probe) {
            return true;
        }
        for i in 0..n {
            for j in 0..m {
                if (i, j) != *last && self.overlap(i, j, probe) {
                    *last = (i, j);
                    return true;
                }
            }
        }
        false
    }

    /// Is the origin in `S`, exactly (no perturbation)?
    fn origin_in_s(&self) -> bool {
        let (n, m) = (self.a.part_count(), self.b.part_count());
        (0..n).any(|i| {
            (0..m).any(|j| {
                let (ba, bb) = (&self.boxes_a[i], &self.boxes_b[j]);
                if ba.hi.cmple(bb.lo).any() || bb.hi.cmple(ba.lo).any() {
                    return false;
                }
                let (pa, pb) = (self.a.part(i), self.b.part(j));
                let inside = |own: &[Vec2], other: &[Vec2]| {
                    let k = own.len();
                    (0..k).all(|e| {
                        let (p0, p1) = (own[e], own[(e + 1) % k]);
                        other.iter().any(|&v| exact::orient(p0, p1, v).is_gt())
                    })
                };
                inside(pa, pb) && inside(pb, pa)
            })
        })
    }
}

/// A boundary point found: the segment, its parameter there, the move `t` (in `f64`) and its
/// squared length.
#[derive(Clone, Copy)]
struct Found {
    s: Segment,
    u: Ratio,
    t: DVec2,
    d2: f64,
}

/// The contact of `a` and `b`, both polygon-like (one concave); `None` when this search does
/// not answer: another kind of shape, sizes past its bounds, or interiors that do not overlap
/// (apart or touching: the caller's path answers those).
pub(crate) fn contact(a: &Shape, b: &Shape) -> Option<Contact> {
    let (oa, ob) = (Outlined::of(a)?, Outlined::of(b)?);
    let (n, m) = (oa.part_count(), ob.part_count());
    if n > MAX_PARTS
        || m > MAX_PARTS
        || oa.outline().len().saturating_mul(ob.outline().len()) > MAX_CORNERS
    {
        return None;
    }
    let mut pair = Pair {
        a: oa,
        b: ob,
        boxes_a: [Box2::default(); MAX_PARTS],
        boxes_b: [Box2::default(); MAX_PARTS],
    };
    for i in 0..n {
        pair.boxes_a[i] = box_of(pair.a.part(i));
    }
    for j in 0..m {
        pair.boxes_b[j] = box_of(pair.b.part(j));
    }
    if !pair.origin_in_s() {
        return None;
    }
    let found = search(&pair)?;
    Some(finish(&pair, &found))
}

/// A segment in `f64`: its start, direction, box and squared distance from the origin.
#[derive(Clone, Copy)]
struct Near {
    s0: DVec2,
    r: DVec2,
    lo: DVec2,
    hi: DVec2,
    d2: f64,
}

impl Near {
    fn of(s: Segment, a: &[Vec2], b: &[Vec2]) -> Near {
        let (p, q) = s.ends(a, b);
        let r = q - p;
        let pad = 1e-12 * p.abs().max(q.abs()).max_element() + f64::MIN_POSITIVE;
        let c = nearest(p, r, foot(p, r), 0.0, 1.0);
        Near {
            s0: p,
            r,
            lo: p.min(q) - pad,
            hi: p.max(q) + pad,
            d2: c.length_squared(),
        }
    }
}

/// The point of `p + r u`, `u` in `[lo, hi]`, nearest the origin, given the foot's parameter:
/// at the foot, along the normal (`r` turned a quarter) so that a segment along an axis gives
/// a move exactly along the other axis; else at the nearer end.
fn nearest(p: DVec2, r: DVec2, foot: f64, lo: f64, hi: f64) -> DVec2 {
    if foot > lo && foot < hi {
        let n = r.perp();
        n * (n.dot(p) / r.length_squared())
    } else if foot <= lo {
        p + r * lo
    } else {
        p + r * hi
    }
}

/// The parameter of the origin's foot on the line `p + r u`.
fn foot(p: DVec2, r: DVec2) -> f64 {
    let rr = r.length_squared();
    if rr > 0.0 {
        -p.dot(r) / rr
    } else {
        0.0
    }
}

/// A convolution segment with its `f64` summary, and whether the search has visited it.
#[derive(Clone, Copy)]
struct Entry {
    s: Segment,
    near: Near,
    done: bool,
}

/// The nearest point of `S`'s boundary, `None` past the work bound. Allocates three buffers a
/// call (the segments, the cuts and their `f64` values), none per segment visited.
fn search(pair: &Pair) -> Option<Found> {
    let (a, b) = (pair.a.outline(), pair.b.outline());
    let mut segs: Vec<Entry> = Vec::with_capacity(4 * (a.len() + b.len()));
    each_convolution_segment(a, b, |s| {
        segs.push(Entry {
            s,
            near: Near::of(s, a, b),
            done: false,
        });
    });
    let mut best: Option<Found> = None;
    let mut cuts: Vec<Cut> = Vec::with_capacity(16);
    let mut uf: Vec<f64> = Vec::with_capacity(16);
    let mut work = 0usize;
    let mut last = (0, 0);
    loop {
        // The nearest segment not visited yet (few are visited: select, don't sort).
        let beat = best.map_or(f64::INFINITY, |f| f.d2);
        let mut next: Option<usize> = None;
        for (i, e) in segs.iter().enumerate() {
            if !e.done && e.near.d2 < beat && next.is_none_or(|k| e.near.d2 < segs[k].near.d2) {
                next = Some(i);
            }
        }
        let Some(i) = next else { break };
        segs[i].done = true;
        let (s, g) = (segs[i].s, segs[i].near);
        // The segments whose boxes meet this one's: the only ones that can cut it (counted
        // as they go; past the bound the cuts are dropped).
        let mut met = 1;
        let crossing = segs
            .iter()
            .enumerate()
            .filter(|&(k, e)| k != i && e.near.lo.cmple(g.hi).all() && g.lo.cmple(e.near.hi).all());
        cut_by(
            s,
            crossing.map(|(_, e)| e.s).inspect(|_| met += 1),
            a,
            b,
            &mut cuts,
        );
        work += met;
        if work > WORK {
            return None;
        }
        uf.clear();
        uf.extend(cuts.iter().map(|c| c.u.approx()));
        if let Some(found) = walk(pair, s, &g, (&cuts, &uf), beat, &mut work, &mut last) {
            best = Some(found);
        }
        if work > WORK {
            return None;
        }
    }
    best
}

/// The nearest stretch of `s` (cut at `cuts`, `uf` their `f64` values) on the boundary, when
/// nearer than `beat` (squared): walked out from the origin's foot, the nearer side each step.
fn walk(
    pair: &Pair,
    s: Segment,
    g: &Near,
    (cuts, uf): (&[Cut], &[f64]),
    beat: f64,
    work: &mut usize,
    last: &mut (usize, usize),
) -> Option<Found> {
    let (a, b) = (pair.a.outline(), pair.b.outline());
    let foot_f = foot(g.s0, g.r);
    let k = uf
        .partition_point(|&u| u <= foot_f)
        .clamp(1, cuts.len() - 1);
    let (mut left, mut right) = (k - 1, k);
    // Stretch `j` runs from cut `j − 1` to cut `j`; its nearest point's parameter and distance.
    let take = |j: usize| {
        let u = foot_f.clamp(uf[j - 1], uf[j]);
        let p = nearest(g.s0, g.r, foot_f, uf[j - 1], uf[j]);
        (p.length_squared(), p, u)
    };
    loop {
        let dl = (left >= 1).then(|| take(left));
        let dr = (right < cuts.len()).then(|| take(right));
        let (j, (d2, p, u)) = match (dl, dr) {
            (Some(l), Some(r)) if l.0 <= r.0 => (left, l),
            (_, Some(r)) => (right, r),
            (Some(l), None) => (left, l),
            (None, None) => return None,
        };
        if d2 >= beat {
            return None;
        }
        if j == left {
            left -= 1;
        } else {
            right += 1;
        }
        let (u0, u1) = (&cuts[j - 1], &cuts[j]);
        if u0.u.cmp(&u1.u) != Ordering::Less {
            continue;
        }
        // Probed just inside the stretch from its nearest point: its start unless that lies
        // before the foot; its end when the foot lies past it (the stretch before the foot).
        let probe = if j < k {
            Probe::new(s, u1, false, a, b)
        } else {
            Probe::new(s, u0, true, a, b)
        };
        if !pair.in_s(&probe, work, last) {
            let u = if u == uf[j - 1] {
                u0.u
            } else if u == uf[j] {
                u1.u
            } else {
                let (start, dir) = (start_of(s, a, b), s.dir(a, b));
                Ratio::new(Prod::dot(start, dir).neg(), Prod::dot(dir, dir))
            };
            return Some(Found { s, u, t: p, d2 });
        }
    }
}

/// The contact for the boundary point found: `b` moves by `t`; after it the generating corner
/// lies on the generating edge, taken back half the move (midway, as the other searches).
fn finish(pair: &Pair, found: &Found) -> Contact {
    let (a, b) = (pair.a.outline(), pair.b.outline());
    let s = found.s;
    let mut t = found.t;
    let (start, dir) = (start_of(s, a, b), s.dir(a, b));
    let scale = start.approx().abs().max(dir.approx().abs()).max_element();
    if t.abs().max_element() <= CANCELS * scale {
        // The sum cancelled (the point near the origin, the segment's start far): its
        // rounding may be most of it. Exactly, then rounded.
        t = found.u.point_on(start, dir);
    }
    let c = s.corner as usize;
    let on = match found.s.edge_of {
        EdgeOf::A => b[c].as_dvec2() + t * 0.5,
        EdgeOf::B => a[c].as_dvec2() - t * 0.5,
    };
    // Scaled first: the square of a tiny distance can underflow.
    let x = t / t.abs().max_element();
    let normal = x.normalize();
    let depth = t.abs().max_element() * x.length();
    Contact::new(normal.as_vec2(), depth as f32, &[convex::clamp_to_f32(on)])
}

#[cfg(test)]
#[path = "union_outline_search_tests.rs"]
mod tests;
