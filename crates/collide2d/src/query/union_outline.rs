//! The reduced convolution of two polygon outlines, the segments that hold the boundary of the
//! set of moves making two polygons overlap: what [`union_outline_search`] searches (issue 17).
//!
//! Moving `b` by `t` makes the interiors of `a` and `b` overlap iff `t` lies in the open set
//! `S = int(A - B)`; `S`'s boundary lies on the reduced convolution of `A` and `-B`: each edge of
//! one outline plus each convex corner of the other whose turn holds the edge's direction.
//!
//! [`reduced_convolution`] names segments by their generating edge and corner (exact degree-2
//! signs from `exact.rs`, no allocation but the caller's reused buffer; all edge-corner pairs
//! are tested, `O(n m)`). [`crossing`] and [`cut_at_crossings`] give where the other segments
//! meet one, as exact fractions of degree-2 cross products (`union_exact::Ratio`), ordered
//! exactly (degree 4); collinear overlaps cut at the other segment's ends ([`overlap_cuts`]).
//! Tested against integer brute force and integer fractions.
//!
//! [`union_outline_search`]: crate::query::union_outline_search

use crate::exact;
use crate::math::Vec2;
use crate::query::union_exact::{sum_sign, Prod, Ratio, Sum};
use alloc::vec::Vec;
use core::cmp::Ordering;
use glam::DVec2;

/// Which outline a convolution segment's edge comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum EdgeOf {
    /// Edge `edge` of `a` plus corner `corner` of `-b`: from `a[edge] - b[corner]` to
    /// `a[edge + 1] - b[corner]`.
    A,
    /// Edge `edge` of `-b` plus corner `corner` of `a`: from `a[corner] - b[edge]` to
    /// `a[corner] - b[edge + 1]`.
    B,
}

/// One segment of the reduced convolution of `a` and `-b`, named by what generates it (its ends
/// are differences of `f32` points, kept implicit so later predicates can be exact).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Segment {
    pub(crate) edge_of: EdgeOf,
    /// Index of the edge's start in its outline.
    pub(crate) edge: u32,
    /// Index of the corner in the other outline.
    pub(crate) corner: u32,
}

impl Segment {
    /// The segment's ends, `a`'s point minus `b`'s (rounded to `f64`: for distances, not signs).
    pub(crate) fn ends(self, a: &[Vec2], b: &[Vec2]) -> (glam::DVec2, glam::DVec2) {
        let (e, c) = (self.edge as usize, self.corner as usize);
        match self.edge_of {
            EdgeOf::A => {
                let (p, q) = (a[e].as_dvec2(), a[(e + 1) % a.len()].as_dvec2());
                let v = b[c].as_dvec2();
                (p - v, q - v)
            }
            EdgeOf::B => {
                let (p, q) = (b[e].as_dvec2(), b[(e + 1) % b.len()].as_dvec2());
                let v = a[c].as_dvec2();
                (v - p, v - q)
            }
        }
    }
}

impl Segment {
    /// The segment's start, `a`'s point minus `b`'s, exactly.
    pub(crate) fn start(self, a: &[Vec2], b: &[Vec2]) -> (Vec2, Vec2) {
        let (e, c) = (self.edge as usize, self.corner as usize);
        match self.edge_of {
            EdgeOf::A => (a[e], b[c]),
            EdgeOf::B => (a[c], b[e]),
        }
    }

    /// The segment's end, `a`'s point minus `b`'s, exactly.
    pub(crate) fn end(self, a: &[Vec2], b: &[Vec2]) -> (Vec2, Vec2) {
        let (e, c) = (self.edge as usize, self.corner as usize);
        match self.edge_of {
            EdgeOf::A => (a[(e + 1) % a.len()], b[c]),
            EdgeOf::B => (a[c], b[(e + 1) % b.len()]),
        }
    }

    /// The segment's direction (end minus start), exactly.
    pub(crate) fn dir(self, a: &[Vec2], b: &[Vec2]) -> Sum {
        let e = self.edge as usize;
        match self.edge_of {
            EdgeOf::A => Sum::diff(a[(e + 1) % a.len()], a[e]),
            EdgeOf::B => Sum::diff(b[e], b[(e + 1) % b.len()]),
        }
    }
}

/// Where `o` meets `s`, as the exact parameter along `s` (0 at its start, 1 at its end), when
/// the closed segments meet and are not parallel. Parallel ones give `None`, also when they
/// overlap: [`overlap_cuts`] cuts those.
pub(crate) fn crossing(s: Segment, o: Segment, a: &[Vec2], b: &[Vec2]) -> Option<Ratio> {
    let (r, w) = (s.dir(a, b), o.dir(a, b));
    let mut den = Prod::cross(r, w);
    let flip = match den.sign() {
        Ordering::Equal => return None,
        Ordering::Less => true,
        Ordering::Greater => false,
    };
    let ((sa, sb), (oa, ob)) = (s.start(a, b), o.start(a, b));
    // From `s`'s start to `o`'s: `(oa - ob) - (sa - sb)`.
    let d = Sum::of(oa, ob, sb, sa);
    let (mut u, mut v) = (Prod::cross(d, w), Prod::cross(d, r));
    if flip {
        (den, u, v) = (den.neg(), u.neg(), v.neg());
    }
    // `0 <= u / den <= 1` and the same for `v`: `num >= 0` and `den - num >= 0`.
    let within =
        |num: Prod| num.sign() != Ordering::Less && sum_sign(&den, &num.neg()) != Ordering::Less;
    (within(u) && within(v)).then(|| Ratio::new(u, den))
}

/// [`crossing`] for segments known to cross strictly inside both (by `f64` values with a
/// proven error bound), `flip` when their directions' cross product is negative: the same
/// fraction, without the exact checks.
pub(crate) fn known_crossing(s: Segment, o: Segment, a: &[Vec2], b: &[Vec2], flip: bool) -> Ratio {
    let (r, w) = (s.dir(a, b), o.dir(a, b));
    let ((sa, sb), (oa, ob)) = (s.start(a, b), o.start(a, b));
    let d = Sum::of(oa, ob, sb, sa);
    let (den, u) = (Prod::cross(r, w), Prod::cross(d, w));
    if flip {
        Ratio::new(u.neg(), den.neg())
    } else {
        Ratio::new(u, den)
    }
}

/// Where `o`'s ends lie on `s` when the two are collinear: the cuts a collinear overlap makes
/// (each end's exact parameter along `s`, pushed to `cuts` when within `[0, 1]`).
pub(crate) fn overlap_cuts(s: Segment, o: Segment, a: &[Vec2], b: &[Vec2], cuts: &mut Vec<Cut>) {
    let r = s.dir(a, b);
    let (sa, sb) = s.start(a, b);
    let from_start = |(pa, pb): (Vec2, Vec2)| Sum::of(pa, pb, sb, sa);
    let (d0, d1) = (from_start(o.start(a, b)), from_start(o.end(a, b)));
    if Prod::cross(r, o.dir(a, b)).sign() != Ordering::Equal
        || Prod::cross(d0, r).sign() != Ordering::Equal
    {
        return;
    }
    let len2 = Prod::dot(r, r);
    for d in [d0, d1] {
        let along = Prod::dot(d, r);
        if along.sign() != Ordering::Less && sum_sign(&len2, &along.neg()) != Ordering::Less {
            cuts.push(Cut {
                u: Ratio::new(along, len2),
                by: Some(o),
            });
        }
    }
}

/// Cuts `segs[i]` where the others meet it: `cuts` (cleared first) gets 0, 1, every
/// crossing's parameter and the ends of collinear overlaps, in exact increasing order (equal
/// ones may repeat, next to each other; a segment sharing an end adds no cut there).
#[cfg(test)]
pub(crate) fn cut_at_crossings(
    segs: &[Segment],
    i: usize,
    a: &[Vec2],
    b: &[Vec2],
    cuts: &mut Vec<Ratio>,
) {
    let others = segs.iter().enumerate().filter(|&(k, _)| k != i);
    let mut made = Vec::new();
    cut_by(segs[i], others.map(|(_, &o)| (o, None)), a, b, &mut made);
    cuts.clear();
    cuts.extend(made.iter().map(|c| c.u));
}

/// A cut of a segment: its parameter along it and the segment that made it (`None` for the
/// segment's ends). That segment's generating corner touches its generating edge there.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cut {
    pub(crate) u: Ratio,
    pub(crate) by: Option<Segment>,
}

/// [`cut_at_crossings`] with the other segments given one by one (the search's, without
/// gathering them first), each with `Some(flip)` when known to cross strictly inside both
/// (see [`known_crossing`]).
#[inline]
pub(crate) fn cut_by(
    s: Segment,
    others: impl Iterator<Item = (Segment, Option<bool>)>,
    a: &[Vec2],
    b: &[Vec2],
    cuts: &mut Vec<Cut>,
) {
    let ends = [s.start(a, b), s.end(a, b)];
    cuts.clear();
    for k in [0.0, 1.0] {
        cuts.push(Cut {
            u: Ratio::int(k),
            by: None,
        });
    }
    for (o, known) in others {
        if let Some(flip) = known {
            cuts.push(Cut {
                u: known_crossing(s, o, a, b, flip),
                by: Some(o),
            });
            continue;
        }
        // Segments sharing an end (neighbours on the convolution, mostly) meet only there, a
        // cut already, unless they are parallel.
        if ends.contains(&o.start(a, b)) || ends.contains(&o.end(a, b)) {
            if Prod::cross(s.dir(a, b), o.dir(a, b)).sign() == Ordering::Equal {
                overlap_cuts(s, o, a, b, cuts);
            }
            continue;
        }
        match crossing(s, o, a, b) {
            Some(u) => cuts.push(Cut { u, by: Some(o) }),
            None => overlap_cuts(s, o, a, b, cuts),
        }
    }
    cuts.sort_unstable_by(|x, y| x.u.cmp(&y.u));
}

/// `(v.y, -v.x)`: exact in `f32`, and `u . perp(w) == u x w`.
fn perp(v: Vec2) -> Vec2 {
    Vec2::new(v.y, -v.x)
}

/// Exact sign of `(p1 - p0) x (q1 - q0)`.
pub(crate) fn cross_sign(p0: Vec2, p1: Vec2, q0: Vec2, q1: Vec2) -> Ordering {
    exact::dot(p0, p1, perp(q0), perp(q1))
}

/// Does the convex corner entered along `din` and left along `dout` hold the direction `d`
/// (each given as `(from, to)`)? Half-open, so that an edge of `a` and a parallel edge of `-b`
/// make one stretch of the boundary, `a`'s edge first: `a`'s edges (`a_edge`) are held by the
/// corner of `-b` the parallel edge leaves (parallel to `dout`), `-b`'s edges by the corner of
/// `a` the parallel edge enters (parallel to `din`). (The prototype held both at `dout`: the two
/// then start at one point and the longer hides the shorter, a gap in the boundary.)
fn holds(din: (Vec2, Vec2), dout: (Vec2, Vec2), d: (Vec2, Vec2), a_edge: bool) -> bool {
    let after_in = cross_sign(din.0, din.1, d.0, d.1);
    let before_out = cross_sign(d.0, d.1, dout.0, dout.1);
    if a_edge {
        after_in == Ordering::Greater && before_out != Ordering::Less
    } else {
        after_in != Ordering::Less && before_out == Ordering::Greater
    }
}

/// Appends to `out` (cleared first) the reduced convolution of the counter-clockwise outlines
/// `a` and `-b`: its segments, ordered by generating edge side, then corner, then edge.
#[cfg(test)]
pub(crate) fn reduced_convolution(a: &[Vec2], b: &[Vec2], out: &mut Vec<Segment>) {
    out.clear();
    each_convolution_segment(a, b, |s| out.push(s));
}

/// [`reduced_convolution`]'s segments handed to `out` one by one, in the same order.
///
/// Each turn test first in `f64` (a corner's directions worked out once for all the edges):
/// a direction's coordinates are differences of two points, each within `E` (twice the
/// largest coordinate) and rounded once, so a cross product of two is within `8 ε E²` of the exact one (`ε` = `2^-53`); only
/// a value within `32 ε E²` of zero takes the exact sign. Same segments, same order.
#[inline]
pub(crate) fn each_convolution_segment(a: &[Vec2], b: &[Vec2], mut out: impl FnMut(Segment)) {
    let (n, m) = (a.len(), b.len());
    let largest = |p: &[Vec2]| {
        p.iter()
            .fold(0.0f64, |l, v| l.max(v.abs().max_element().into()))
    };
    let reach = 2.0 * largest(a).max(largest(b));
    let bound = 32.0 * (f64::EPSILON * 0.5) * reach * reach + f64::MIN_POSITIVE;
    let dir = |(p, q): (Vec2, Vec2)| q.as_dvec2() - p.as_dvec2();
    // Does the corner (`din`, `dout`, and their directions `i`, `o`) hold the direction of `d`:
    // clear signs in `f64`, else exact.
    let holds_f = |(din, dout), (i, o): (DVec2, DVec2), d, a_edge| {
        let e = dir(d);
        let (after_in, before_out) = (i.perp_dot(e), e.perp_dot(o));
        if after_in < -bound || before_out < -bound {
            false
        } else if after_in > bound && before_out > bound {
            true
        } else {
            holds(din, dout, d, a_edge)
        }
    };
    // Convex corners of `-b` with `a`'s edges.
    for j in 0..m {
        let (prev, v, next) = (b[(j + m - 1) % m], b[j], b[(j + 1) % m]);
        // `-b`'s corner at `-v` enters along `v - prev` negated, i.e. from `v` to `prev`.
        let corner = ((v, prev), (next, v));
        if cross_sign(v, prev, next, v) != Ordering::Greater {
            continue;
        }
        let dirs = (dir(corner.0), dir(corner.1));
        for i in 0..n {
            if holds_f(corner, dirs, (a[i], a[(i + 1) % n]), true) {
                out(Segment {
                    edge_of: EdgeOf::A,
                    edge: i as u32,
                    corner: j as u32,
                });
            }
        }
    }
    // Corners of `a` with `-b`'s edges (edge `j` of `-b` runs along `b[j] -> b[j + 1]` negated).
    for i in 0..n {
        let (prev, v, next) = (a[(i + n - 1) % n], a[i], a[(i + 1) % n]);
        let corner = ((prev, v), (v, next));
        if cross_sign(prev, v, v, next) != Ordering::Greater {
            continue;
        }
        let dirs = (dir(corner.0), dir(corner.1));
        for j in 0..m {
            if holds_f(corner, dirs, (b[(j + 1) % m], b[j]), false) {
                out(Segment {
                    edge_of: EdgeOf::B,
                    edge: j as u32,
                    corner: i as u32,
                });
            }
        }
    }
}

#[cfg(test)]
#[path = "union_outline_tests.rs"]
mod tests;
