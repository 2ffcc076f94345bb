//! The outline search's probe: is a point just past a cut of a convolution segment, pushed
//! infinitesimally along it and to its right, strictly left of a part's edge once `b` moves
//! there? An `f64` filter with a proven bound first, exact signs (symbolic perturbation in the
//! orders of `ε`) when it cannot tell.

use crate::exact;
use crate::math::Vec2;
use crate::query::union_exact::{products_sign, Prod, Ratio, Sum};
use crate::query::union_outline::{cross_sign, Cut, EdgeOf, Segment};
use core::cmp::Ordering;
use glam::DVec2;

/// Half an ulp of `f64`.
pub(crate) const EPS: f64 = f64::EPSILON * 0.5;

/// The point probed: `q = start + dir u` on a segment, pushed by `ε` along `dir` (`forward`)
/// or against it, then by `ε²` to the segment's right, `ε` infinitesimal. `t` is `q` in
/// `f64`, within `err` in each coordinate.
pub(crate) struct Probe<'c> {
    /// `q = sa − sb + dir u`, `dir` the generating edge's direction (reversed for `b`'s).
    sa: Vec2,
    sb: Vec2,
    u: &'c Ratio,
    forward: bool,
    pub(crate) t: DVec2,
    pub(crate) err: f64,
    /// The segment's generating edge and corner, and whether the edge is `a`'s: that pair
    /// touches all along the segment, its sign known without arithmetic.
    edge: (Vec2, Vec2),
    corner: Vec2,
    edge_of_a: bool,
    /// The same for the segment whose cut the probe starts from: that pair is exactly on its
    /// line at `q`, only the orders of `ε` decide its sign.
    touching: Option<Touch>,
    /// At a segment's end (a cut made by no other segment): `a`'s point and `b`'s point whose
    /// difference `q` is. Every edge with the one as an end, against the other point, is
    /// exactly on its line at `q`: only the orders of `ε` decide its sign.
    vertex: Option<(Vec2, Vec2)>,
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

    /// Is the edge `p0 -> p1` (`moved_b` as in [`Probe::left_of`]) this pair's edge?
    #[inline]
    fn is_edge(&self, p0: Vec2, p1: Vec2, moved_b: bool) -> bool {
        moved_b == self.edge_of_a && (p0, p1) == self.edge
    }
}

impl<'c> Probe<'c> {
    pub(crate) fn new(s: Segment, cut: &'c Cut, forward: bool, a: &[Vec2], b: &[Vec2]) -> Self {
        let u = &cut.u;
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
            u,
            forward,
            t,
            err,
            edge,
            corner,
            edge_of_a,
            touching: cut.by.map(|o| Touch::of(o, a, b)),
            // A cut by no segment is the integer 0 or 1: the segment's start or end.
            vertex: match cut.by {
                Some(_) => None,
                None if u.approx() < 0.5 => Some(s.start(a, b)),
                None => Some(s.end(a, b)),
            },
        }
    }

    /// Are `pa` (a part of `a`) and `pb` (of `b`) a pair holding the segment's generating edge
    /// (as an edge) and corner? Then their interiors do not overlap at the probe: the edge's
    /// part lies on its inner side, and the corner is extreme in its part against the edge's
    /// outward normal (it is in the outline, by the convolution's turn test, and the part's
    /// angle there is within the outline's), so that part lies on or past the line, which
    /// the `ε²` push to the segment's right (along that normal) makes strictly past.
    #[inline]
    pub(crate) fn generated_by(&self, pa: &[Vec2], pb: &[Vec2]) -> bool {
        let (own, other) = if self.edge_of_a { (pa, pb) } else { (pb, pa) };
        let n = own.len();
        other.contains(&self.corner)
            && (0..n).any(|k| (own[k], own[if k + 1 == n { 0 } else { k + 1 }]) == self.edge)
    }

    /// Is `p` against `p0 -> p1` exactly on its line at `q`, a pair meeting at the segment's
    /// end the probe starts from?
    #[inline]
    fn touches(&self, p0: Vec2, p1: Vec2, p: Vec2, moved_b: bool) -> bool {
        self.vertex.is_some_and(|(pa, pb)| {
            // `b`'s point `pb` moved by `q` is `pa`: on any line through `pa`, and `a`'s
            // point `pa` on any of `b`'s lines through `pb` once moved.
            let (point, end) = if moved_b { (pb, pa) } else { (pa, pb) };
            p == point && (p0 == end || p1 == end)
        })
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
    pub(crate) fn any_left(&self, p0: Vec2, p1: Vec2, other: &[Vec2], moved_b: bool) -> bool {
        // The generating edge itself: its corner touches it all along the segment, and the
        // probe, pushed to the segment's right, leaves the corner on its outer side.
        let generating = moved_b == self.edge_of_a && (p0, p1) == self.edge;
        // The edge of the segment the probe's cut came from, against a part holding that
        // segment's corner: the corner is exactly on the line at `q` and extreme in its part
        // against the edge's outward normal (as in [`generated_by`](Self::generated_by)), so
        // every other point of the part is on the line (the same orders of `ε`: the same sign)
        // or strictly outside it. The corner's sign is the answer.
        if let Some(t) = self.touching {
            if t.is_edge(p0, p1, moved_b) && other.contains(&t.corner) {
                let left = self.perturbed_left(p0, p1, moved_b);
                debug_assert_eq!(
                    left,
                    other.iter().any(|&v| !(generating && v == self.corner)
                        && self.left_of_exact(p0, p1, v, moved_b, false))
                );
                return left;
            }
        }
        // The points the filter could not tell, by index (the first 64), and which of them
        // touch: the exact pass visits only those.
        let (mut unsure, mut on_line) = (0u64, 0u64);
        let mut any_unsure = false;
        for (k, &v) in other.iter().enumerate() {
            if generating && v == self.corner {
                continue;
            }
            let bit = if k < 64 { 1 << k } else { 0 };
            if self.touches(p0, p1, v, moved_b) {
                // Zero at `q`: the filter cannot tell.
                (unsure, on_line, any_unsure) = (unsure | bit, on_line | bit, true);
                continue;
            }
            match self.left_of(p0, p1, v, moved_b) {
                Some(true) => return true,
                Some(false) => {}
                None => (unsure, any_unsure) = (unsure | bit, true),
            }
        }
        if !any_unsure {
            return false;
        }
        if other.len() <= 64 {
            return (0..other.len()).any(|k| {
                unsure >> k & 1 == 1
                    && self.left_of_exact(p0, p1, other[k], moved_b, on_line >> k & 1 == 1)
            });
        }
        other.iter().any(|&v| {
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

    /// The segment's direction, from the one point to the other: its generating edge,
    /// reversed for `b`'s.
    #[inline]
    fn dir(&self) -> (Vec2, Vec2) {
        if self.edge_of_a {
            self.edge
        } else {
            (self.edge.1, self.edge.0)
        }
    }

    #[cold]
    #[inline(never)]
    fn left_of_exact(&self, p0: Vec2, p1: Vec2, p: Vec2, moved_b: bool, on_line: bool) -> bool {
        let e = Sum::diff(p1, p0);
        let (d0, d1) = self.dir();
        let along = if moved_b {
            Prod::cross(e, Sum::diff(d1, d0))
        } else {
            Prod::cross(e, Sum::diff(d1, d0)).neg()
        };
        // `on_line`: a pair meeting at the segment's end, zero at `q`.
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
        self.perturbed_left(p0, p1, moved_b)
    }

    /// [`left_of_exact`](Self::left_of_exact) for a point exactly on the line `p0 -> p1` at
    /// `q`: the orders of `ε` alone, the same for every such point (exact signs of degree 2).
    fn perturbed_left(&self, p0: Vec2, p1: Vec2, moved_b: bool) -> bool {
        let (d0, d1) = self.dir();
        // `ε` along the segment, forward or back: `e × dir`, negated for `a`'s points.
        let along = cross_sign(p0, p1, d0, d1);
        let along = if moved_b { along } else { along.reverse() };
        let along = if self.forward { along } else { along.reverse() };
        if along != Ordering::Equal {
            return along == Ordering::Greater;
        }
        // `ε²` to the right, `(dir.y, −dir.x)`: `e × right = −(e · dir)`, negated for `a`'s.
        let right = exact::dot(p0, p1, d0, d1);
        let right = if moved_b { right.reverse() } else { right };
        right == Ordering::Greater
    }
}

/// The sum of a point's coordinates' magnitudes.
pub(crate) fn magnitude(p: Vec2) -> f64 {
    p.as_dvec2().abs().element_sum()
}
