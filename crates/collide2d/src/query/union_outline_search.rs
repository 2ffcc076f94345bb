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

use crate::math::Vec2;
use crate::query::union_exact::{Prod, Ratio, Sum};
use crate::query::union_outline::{cut_by, each_convolution_segment};
use crate::query::union_outline::{Cut, EdgeOf, Segment};
use crate::query::union_outline_parts::{Outlined, Pair, Planes, MAX_PARTS};
use crate::query::union_outline_probe::{Probe, EPS};
use crate::query::{convex, Contact};
use crate::shape::Shape;
use alloc::vec::Vec;
use core::cmp::Ordering;
use glam::DVec2;

/// Most outline corners of the two shapes, multiplied: past it (hostile sizes) the caller's
/// search, with its own bounds, answers.
const MAX_CORNERS: usize = 1024;

/// Work past which the search gives up to the caller's (crossing tests and part pairs tested
/// at a point, each one unit).
const WORK: usize = 1 << 16;

/// A segment's start, exactly.
fn start_of(s: Segment, a: &[Vec2], b: &[Vec2]) -> Sum {
    let (sa, sb) = s.start(a, b);
    Sum::diff(sa, sb)
}

/// A move this small against its segment's start and direction is computed exactly: `f64`
/// rounds it by `2^-52` of those, which can be most of it.
const CANCELS: f64 = 1.0 / (1u64 << 40) as f64;

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
    let pair = Pair::new(oa, ob);
    if !pair.origin_in_s() {
        return None;
    }
    let found = search(&pair)?;
    Some(finish(&pair, &found))
}

/// A segment in `f64`: its start, direction, box and squared distance from the origin
/// (made infinite once the search has visited it).
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

impl Near {
    /// [`meets`](Self::meets)' bound on the error of its values, `reach`
    /// (`E`) bounding every coordinate of the outlines' points' differences. A segment's start
    /// is within `ε E` of the exact one (`ε` = `EPS`), its direction within `3 ε E`, the offset
    /// between two starts (up to `2E`) within `4 ε E`; so each cross product is within
    /// `28 ε E²`, and a difference of two within `50 ε E²`. Doubled, and the smallest normal
    /// number for underflow.
    fn miss_bound(reach: f64) -> f64 {
        128.0 * EPS * reach * reach + f64::MIN_POSITIVE
    }

    /// Do the two segments cross, by `f64` values with error at most `bound`? Both answers
    /// that decide need them not parallel. Clearly outside one of them: then
    /// [`crossing`](crate::query::union_outline::crossing) finds no crossing and no collinear
    /// overlap cuts, and the exact test is skipped. Clearly inside both (so sharing no end):
    /// the exact fraction without the exact checks. Same cuts either way.
    fn meets(&self, o: &Near, bound: f64) -> Meets {
        let den = self.r.perp_dot(o.r);
        let d = o.s0 - self.s0;
        let (u, v) = (d.perp_dot(o.r), d.perp_dot(self.r));
        let flip = den < 0.0;
        let (den, u, v) = if flip { (-den, -u, -v) } else { (den, u, v) };
        if den <= bound {
            Meets::Unsure
        } else if u < -bound || v < -bound || u - den > bound || v - den > bound {
            Meets::No
        } else if u > bound && v > bound && den - u > bound && den - v > bound {
            Meets::Inside { flip }
        } else {
            Meets::Unsure
        }
    }
}

/// What `f64` values tell of two segments' crossing.
enum Meets {
    No,
    /// Strictly inside both; `flip`: their directions' cross product is negative.
    Inside {
        flip: bool,
    },
    Unsure,
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

/// A convolution segment with its `f64` summary; `held`: found inside one part pair's open
/// difference all along ([`Pair::holds`]).
#[derive(Clone, Copy)]
struct Entry {
    s: Segment,
    near: Near,
    held: bool,
}

/// Cuts whose `f64` values [`search`] keeps on the stack; more (rare) take a buffer.
const CUTS_ON_STACK: usize = 32;

/// The nearest point of `S`'s boundary, `None` past the work bound. Allocates three buffers a
/// call (the segments, the cuts, the part pairs' planes), none per segment visited.
fn search(pair: &Pair) -> Option<Found> {
    let (a, b) = (pair.a.outline(), pair.b.outline());
    let mut segs: Vec<Entry> = Vec::with_capacity(4 * (a.len() + b.len()));
    each_convolution_segment(a, b, |s| {
        segs.push(Entry {
            s,
            near: Near::of(s, a, b),
            held: false,
        });
    });
    let mut best: Option<Found> = None;
    let mut cuts: Vec<Cut> = Vec::with_capacity(16);
    let (mut uf_stack, mut uf_heap) = ([0.0f64; CUTS_ON_STACK], Vec::new());
    let mut work = 0usize;
    let mut planes = Planes::new(pair);
    let miss_bound = Near::miss_bound(pair.reach);
    loop {
        // The nearest segment not visited yet (few are visited: select, don't sort).
        let beat = best.map_or(f64::INFINITY, |f| f.d2);
        let (mut next, mut nearest) = (None, beat);
        for (i, e) in segs.iter().enumerate() {
            if e.near.d2 < nearest {
                (next, nearest) = (Some(i), e.near.d2);
            }
        }
        let Some(i) = next else { break };
        // Visited: its distance made infinite (no other use), so the scan skips it.
        segs[i].near.d2 = f64::INFINITY;
        let (s, g) = (segs[i].s, segs[i].near);
        // Inside one part pair's difference all along: no stretch to cut and walk. Its ends
        // are differences of `f32` points rounded once.
        let ends = s.ends(a, b);
        let err = 2.0 * EPS * ends.0.abs().max(ends.1.abs()).max_element() + f64::MIN_POSITIVE;
        work += pair.a.part_count() * pair.b.part_count();
        if pair.holds(ends, err, &mut planes) {
            segs[i].held = true;
            continue;
        }
        // The segments whose boxes meet this one's: the only ones that can cut it (counted
        // as they go; past the bound the cuts are dropped). A held one lies inside `S`, off
        // its boundary: crossing it changes no stretch's side, and its cut is never a
        // boundary point (all near it is inside), so it is left out.
        let mut met = 1;
        let crossing = segs
            .iter()
            .enumerate()
            .filter(|&(k, e)| {
                k != i && !e.held && e.near.lo.cmple(g.hi).all() && g.lo.cmple(e.near.hi).all()
            })
            .inspect(|_| met += 1)
            .filter_map(|(_, e)| match g.meets(&e.near, miss_bound) {
                Meets::No => None,
                Meets::Inside { flip } => Some((e.s, Some(flip))),
                Meets::Unsure => Some((e.s, None)),
            });
        cut_by(s, crossing, a, b, &mut cuts);
        work += met;
        if work > WORK {
            return None;
        }
        let uf: &[f64] = if cuts.len() <= CUTS_ON_STACK {
            let uf = &mut uf_stack[..cuts.len()];
            for (v, c) in uf.iter_mut().zip(&cuts) {
                *v = c.u.approx();
            }
            uf
        } else {
            uf_heap.clear();
            uf_heap.extend(cuts.iter().map(|c| c.u.approx()));
            &uf_heap
        };
        if let Some(found) = walk(pair, s, &g, (&cuts, uf), beat, &mut work, &mut planes) {
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
    planes: &mut Planes,
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
        if !pair.in_s(&probe, planes, work) {
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
