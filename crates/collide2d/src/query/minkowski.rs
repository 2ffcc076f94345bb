//! The Minkowski difference `B − A` of two convex shapes, and where a line first enters it.
//!
//! Two convex shapes moving by `va` and `vb` touch at time `t` exactly when `t (va − vb)` lies in
//! `B − A = {b − a}`, so their time of impact is where the ray from the origin along `va − vb`
//! enters `B − A` (van den Bergen 2004, "Ray casting against general convex objects"). Here the
//! difference is built explicitly, in `f64`: its hull is the sum of `b`'s hull and `a`'s negated
//! hull, merged edge by edge in angle order (de Berg et al., Computational Geometry 13.3), and
//! its radius is the sum of the radii. A point is a hull without edges and a segment a hull of
//! two opposite edges, so every pair of hull sizes takes the same merge, and parallel segments
//! give a segment.

use crate::math::Vec2;
use crate::query::ray::{capsule_span, disc_span, line_span_parts, more_head_on, LineSpan};
use crate::query::soa::Soa;
use crate::shape::convex::Convex;
use alloc::vec::Vec;
use core::cmp::Ordering;
use glam::DVec2;

/// Hull points kept on the stack; bigger differences go to the heap.
const INLINE: usize = 16;

/// `B − A`: the convex hull of `points` (counter-clockwise, no repeated or collinear
/// neighbours) dilated by `radius`.
pub(crate) struct Difference {
    inline: [DVec2; INLINE],
    heap: Vec<DVec2>,
    len: usize,
    /// The sum of the two radii.
    pub radius: f64,
}

impl Difference {
    /// The hull's vertices.
    pub fn points(&self) -> &[DVec2] {
        if self.heap.is_empty() {
            &self.inline[..self.len]
        } else {
            &self.heap
        }
    }

    fn push(&mut self, p: DVec2) {
        if self.len < INLINE {
            self.inline[self.len] = p;
        } else {
            if self.heap.is_empty() {
                self.heap.extend_from_slice(&self.inline);
            }
            self.heap.push(p);
        }
        self.len += 1;
    }

    /// Where the line `d * t` through the origin (every real `t`, `d != 0`) runs through the
    /// difference; `None` when they do not meet, and possibly when they meet only outside
    /// `t` in `[0, 1]`.
    #[inline]
    pub fn line_span(&self, d: DVec2) -> Option<LineSpan> {
        let pts = self.points();
        let o = DVec2::ZERO;
        if pts.len() >= 3 {
            return if self.radius > 0.0 {
                rounded_polygon_span(pts, self.radius, o, d)
            } else {
                polygon_span(pts, d)
            };
        }
        line_span_parts(pts.len(), |i| pts[i], self.radius, o, d)
    }
}

/// `B − A` for the convex shapes `a` and `b`.
#[inline]
pub(crate) fn difference(a: &Convex, b: &Convex) -> Difference {
    let (pa, pb) = (a.points(), b.points());
    let p = |i: usize| pb[i].as_dvec2();
    let q = |j: usize| -pa[j].as_dvec2();
    let (np, nq) = (pb.len(), pa.len());
    let (ep, eq) = (edge_count(np), edge_count(nq));
    let next = |i: usize, n: usize| if i + 1 == n { 0 } else { i + 1 };
    let mut out = Difference {
        inline: [DVec2::ZERO; INLINE],
        heap: Vec::new(),
        len: 0,
        radius: f64::from(a.radius) + f64::from(b.radius),
    };
    // The current vertex of each hull and the one after it.
    let (mut ip, mut iq) = (lowest(np, p), lowest(nq, q));
    let (mut cp, mut cq) = (p(ip), q(iq));
    let (mut np_, mut nq_) = (p(next(ip, np)), q(next(iq, nq)));
    let (mut i, mut j) = (0, 0);
    out.push(cp + cq);
    while i < ep || j < eq {
        let order = if i == ep {
            Ordering::Greater
        } else if j == eq {
            Ordering::Less
        } else {
            angle_order(np_ - cp, nq_ - cq)
        };
        if order.is_le() {
            i += 1;
            ip = next(ip, np);
            cp = np_;
            np_ = p(next(ip, np));
        }
        if order.is_ge() {
            j += 1;
            iq = next(iq, nq);
            cq = nq_;
            nq_ = q(next(iq, nq));
        }
        // Each vertex is one sum `b - a` (not a running sum), so both argument orders build
        // the same vertices, negated.
        if i < ep || j < eq {
            out.push(cp + cq);
        }
    }
    out
}

/// The index of the lowest point (smallest `y`, then smallest `x`): the merge starts there, with
/// every edge after it turning counter-clockwise through less than a full turn.
fn lowest(n: usize, p: impl Fn(usize) -> DVec2) -> usize {
    let mut best = 0;
    let mut low = p(0);
    for i in 1..n {
        let a = p(i);
        if a.y < low.y || (a.y == low.y && a.x < low.x) {
            (best, low) = (i, a);
        }
    }
    best
}

/// A point has no edges, a segment two (there and back), a polygon one per vertex.
fn edge_count(n: usize) -> usize {
    if n <= 1 {
        0
    } else {
        n
    }
}

/// The order of two edge directions by angle in `[0, 2π)`; `Equal` when parallel and alike.
fn angle_order(e: DVec2, f: DVec2) -> Ordering {
    let upper = |v: DVec2| v.y > 0.0 || (v.y == 0.0 && v.x > 0.0);
    match (upper(e), upper(f)) {
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        _ => 0.0.partial_cmp(&e.perp_dot(f)).unwrap_or(Ordering::Equal),
    }
}

/// Cyrus-Beck clipping of the ray `t d` (origin 0) against a convex polygon (`>= 3` points,
/// counter-clockwise), as `ray::polygon_span` but comparing the candidate times as fractions,
/// so only the two chosen ones are divided.
fn polygon_span(pts: &[DVec2], d: DVec2) -> Option<LineSpan> {
    let mut clip = Clip::new(d);
    let mut prev = pts[pts.len() - 1];
    for &p in pts {
        let e = p - prev;
        let outward = DVec2::new(e.y, -e.x); // counter-clockwise hull
        clip.add(-outward.dot(prev), outward.dot(d), outward)?;
        prev = p;
    }
    clip.span()
}

/// Where the ray `t d` runs through `B − A` for two polygons (`>= 3` points each, no radius)
/// (`None` when not for any `t` in `[0, 1]`),
/// without building it: `B − A` is the intersection of one half-plane per edge of either
/// polygon, `n · x <= n · b_i − min_j n · a_j` for an edge of `b` with outward normal `n`, and
/// the mirror for an edge of `a`. Cyrus-Beck over those `n + m` half-planes, on fractions; the
/// numbers are the same, negated, in the other argument order.
pub(crate) fn polygons_span(a: &[Vec2], b: &[Vec2], d: DVec2) -> Option<LineSpan> {
    polygons_span_and_gap(a, b, d).0
}

/// [`polygons_span`], and the outward normal `w` of a half-plane the origin lies outside of
/// by the `f64` numbers (`None` when none was found): a direction along which `a` and `b` are
/// likely apart at `t = 0`, for [`apart_along`] to confirm.
pub(crate) fn polygons_span_and_gap(
    a: &[Vec2],
    b: &[Vec2],
    d: DVec2,
) -> (Option<LineSpan>, Option<DVec2>) {
    // Two quadrilaterals (or smaller) leave the walk few choices to get wrong: it stays.
    if a.len() <= SMALL && b.len() <= SMALL && a.len() + b.len() > 8 {
        if let Some(found) = small_span_and_gap(a, b, d) {
            return found;
        }
    }
    let mut clip = Clip::new(d);
    // Edges of b: inside where n . x <= n . b_i - min_j n . a_j.
    // Edges of a, seen in -A with normal -n: inside where -n . x <= n . a_i - min_j n . b_j.
    let span = match faces::<false>(b, a, &mut clip).and_then(|()| faces::<true>(a, b, &mut clip)) {
        Some(()) => clip.span(),
        None => None,
    };
    (span, clip.gap_normal())
}

/// Polygons of at most this many points take [`small_span_and_gap`].
const SMALL: usize = 8;

/// A polygon of at most [`SMALL`] points in `f64`, padded with its last point.
type Padded = Soa<SMALL>;

/// The lowest value of `normal · q` over the first `K` points of `pts` (as `DVec2::dot`).
#[inline(always)]
fn lowest_dot<const K: usize>(normal: DVec2, pts: &Padded) -> f64 {
    // Two running minima (even and odd points), which the compiler can keep in one vector.
    let (mut low0, mut low1) = (f64::INFINITY, f64::INFINITY);
    for j in (0..K).step_by(2) {
        let x0 = normal.x * pts.x[j] + normal.y * pts.y[j];
        let x1 = normal.x * pts.x[j + 1] + normal.y * pts.y[j + 1];
        low0 = if x0 < low0 { x0 } else { low0 };
        low1 = if x1 < low1 { x1 } else { low1 };
    }
    if low1 < low0 {
        low1
    } else {
        low0
    }
}

/// The bounds on a half-plane's time as an entry and as an exit, by the sign of its
/// denominator (bit 0: negative, an entry; bit 1: positive, an exit; neither: parallel): a
/// table, so that choosing them does not branch.
const CAPS: [(f64, f64); 4] = [
    (f64::NEG_INFINITY, f64::INFINITY),
    (f64::INFINITY, f64::INFINITY),
    (f64::NEG_INFINITY, f64::NEG_INFINITY),
    (f64::NEG_INFINITY, f64::INFINITY),
];

/// No half-plane (an index past every edge).
const NONE: usize = usize::MAX;

/// [`polygons_span_and_gap`] for two polygons of at most [`SMALL`] points, without branching
/// on the data (at these sizes the walk's choices are coin tosses the branch predictor loses,
/// and they cost more than the work they save): each edge's lowest point of the other polygon
/// by a scan of all of them, each half-plane's time as one quotient, the latest entry and the
/// earliest exit kept by selects. The same half-planes as [`faces`] with the same numbers:
/// its extreme values, and its kept fractions divided (`(-h) / (-denom)` is `h / denom`
/// exactly). `None` when two entries tie exactly, which [`faces`]'s order of edges and its
/// more-head-on rule decide.
#[inline(never)]
#[allow(clippy::type_complexity)]
fn small_span_and_gap(
    a: &[Vec2],
    b: &[Vec2],
    d: DVec2,
) -> Option<(Option<LineSpan>, Option<DVec2>)> {
    let (n, m) = (b.len(), a.len());
    debug_assert!(n <= SMALL && m <= SMALL);
    if n == 0 || m == 0 {
        return None;
    }
    let (mut hs, mut denoms) = ([0.0; 2 * SMALL], [0.0; 2 * SMALL]);
    let (mut enter, mut exit) = (f64::NEG_INFINITY, f64::INFINITY);
    let (mut enter_k, mut exit_k, mut parallel_k) = (NONE, NONE, NONE);
    let mut tie = false;
    let mut k = 0;
    // Each polygon in `f64`, padded by repeating its last point (which leaves the lowest value
    // unchanged), so that the scans below read a fixed 4 or 8 points.
    let (pad_a, pad_b) = (Padded::new(a), Padded::new(b));
    // Edges of `b`, then of `a` (its normals negated: it is `−A`), as [`faces`] takes them.
    for (own, other, sign) in [(b, &pad_a, 1.0), (a, &pad_b, -1.0)] {
        let short = other.len <= 4;
        let mut prev = own[own.len() - 1].as_dvec2();
        for p in own {
            let p = p.as_dvec2();
            let e = p - prev;
            let normal = DVec2::new(e.y, -e.x); // outward, counter-clockwise
            let low = if short {
                lowest_dot::<4>(normal, other)
            } else {
                lowest_dot::<SMALL>(normal, other)
            };
            let h = normal.dot(prev) - low;
            let denom = (normal * sign).dot(d);
            let t = h / denom;
            // Entries (denom < 0) and exits (denom > 0) kept as `min` and `max` against
            // infinities chosen by the sign (selects of constants, not of `t`, which the
            // compiler would make branches).
            let side = usize::from(denom < 0.0) | usize::from(denom > 0.0) << 1;
            let (cap_in, cap_out) = CAPS[side];
            let t_in = if t < cap_in { t } else { cap_in };
            let t_out = if t > cap_out { t } else { cap_out };
            tie |= (t_in == enter) & (denom < 0.0);
            let later = t_in > enter;
            enter = if later { t_in } else { enter };
            enter_k = if later { k } else { enter_k };
            let earlier = t_out < exit;
            exit = if earlier { t_out } else { exit };
            exit_k = if earlier { k } else { exit_k };
            // Parallel to the ray with the origin outside: num = -h > 0.
            parallel_k = if (denom == 0.0) & (h < 0.0) {
                k
            } else {
                parallel_k
            };
            (hs[k], denoms[k]) = (h, denom);
            prev = p;
            k += 1;
        }
    }
    if tie {
        return None;
    }
    // The outward normal of half-plane `k`, as above.
    let outward = |k: usize| {
        let (own, i, sign) = if k < n { (b, k, 1.0) } else { (a, k - n, -1.0) };
        let prev = if i == 0 { own.len() - 1 } else { i - 1 };
        let e = own[i].as_dvec2() - own[prev].as_dvec2();
        DVec2::new(e.y, -e.x) * sign
    };
    if parallel_k != NONE {
        return Some((None, Some(outward(parallel_k))));
    }
    // As [`Clip`]: entry `(-h, -denom)`, exit `(h, denom)`, each `(∓1, 0)` when none.
    let (en, ed) = if enter_k == NONE {
        (-1.0, 0.0)
    } else {
        (-hs[enter_k], -denoms[enter_k])
    };
    let (xn, xd) = if exit_k == NONE {
        (1.0, 0.0)
    } else {
        (hs[exit_k], denoms[exit_k])
    };
    let normal = if enter_k == NONE {
        -d
    } else {
        outward(enter_k)
    };
    let open = en * xd <= xn * ed && en <= ed && xn >= 0.0 && enter <= exit;
    let span = open.then_some(LineSpan {
        enter,
        exit,
        normal,
    });
    let gap = if en > 0.0 {
        Some(normal)
    } else if xn < 0.0 {
        Some(outward(exit_k))
    } else {
        None
    };
    Some((span, gap))
}

/// `a` and `b` (convex hulls of their points) are apart beyond doubt: along `w`, the lowest
/// point of `a` lies above the highest point of `b` by more than the rounding error of these
/// `f64` dot products (below `3e-16 |w|_1 L` each, `L` bounding every coordinate's magnitude).
#[cold]
#[inline(never)]
pub(crate) fn apart_along(a: &[Vec2], b: &[Vec2], w: DVec2, scale: f64) -> bool {
    let dot = |p: &Vec2| w.dot(p.as_dvec2());
    let (mut low_a, mut high_b) = (f64::INFINITY, f64::NEG_INFINITY);
    for p in a {
        let x = dot(p);
        if x < low_a {
            low_a = x;
        }
    }
    for p in b {
        let x = dot(p);
        if x > high_b {
            high_b = x;
        }
    }
    low_a - high_b > 1e-12 * (w.x.abs() + w.y.abs()) * scale
}

/// Adds the half-planes of `own`'s edges, the other polygon `other` on the far side, to `clip`;
/// `NEG` when `own` is the negated shape. `None` once the ray is shut out (a parallel
/// half-plane it lies outside of, an empty span, or one outside `[0, 1]`).
#[inline(never)]
fn faces<const NEG: bool>(own: &[Vec2], other: &[Vec2], clip: &mut Clip) -> Option<()> {
    // `other`'s points converted where used (exactly, f32 to f64), not copied first.
    let m = other.len();
    let Some((&last, _)) = own.split_last() else {
        return Some(());
    };
    if m == 0 {
        return Some(());
    }
    let at = |k: usize| other[k].as_dvec2();
    let mut prev = last.as_dvec2();
    // The vertex of `other` lowest along the current normal: found by a scan for the first
    // edge, then, as the normals turn counter-clockwise, by walking forward (rotating
    // calipers, Toussaint 1983), so all edges cost O(n + m).
    let mut j = {
        let e = own[0].as_dvec2() - prev;
        let n = DVec2::new(e.y, -e.x);
        let mut j = 0;
        let mut low = n.dot(at(0));
        for (k, q) in other.iter().enumerate().skip(1) {
            let x = n.dot(q.as_dvec2());
            if x < low {
                (j, low) = (k, x);
            }
        }
        j
    };
    let d = clip.d;
    for p in own {
        let p = p.as_dvec2();
        let e = p - prev;
        let n = DVec2::new(e.y, -e.x); // outward, counter-clockwise
        let mut low = n.dot(at(j));
        // At most `m` steps (a full turn).
        let mut steps = m;
        loop {
            let next = if j + 1 >= m { 0 } else { j + 1 };
            let x = n.dot(at(next));
            // Equal values are an edge square to `n`: walk across it.
            if x > low {
                break;
            }
            (j, low) = (next, x);
            steps -= 1;
            if steps == 0 {
                break;
            }
        }
        let h = n.dot(prev) - low;
        prev = p;
        // Origin 0: num = -h, denom = (sign n) . d (negating `n` negates the dot exactly).
        let (outward, denom) = if NEG { (-n, -n.dot(d)) } else { (n, n.dot(d)) };
        clip.add(-h, denom, outward)?;
    }
    Some(())
}

/// Cyrus-Beck clipping of the ray `t d` (origin 0) by half-planes `num + t denom <= 0`, keeping
/// the entry and exit as fractions with positive denominators.
struct Clip {
    d: DVec2,
    enter: (f64, f64),
    exit: (f64, f64),
    normal: DVec2,
    /// The outward normal of the half-plane that set `exit`.
    exit_normal: DVec2,
    /// The outward normal of a half-plane parallel to `d` that shut the ray out.
    parallel: DVec2,
}

impl Clip {
    fn new(d: DVec2) -> Clip {
        Clip {
            d,
            enter: (-1.0, 0.0),
            exit: (1.0, 0.0),
            normal: -d,
            exit_normal: DVec2::ZERO,
            parallel: DVec2::ZERO,
        }
    }

    /// One half-plane with outward normal `outward`; `None` when the ray is shut out: parallel
    /// and outside, or what is left of it misses `[0, 1]`.
    #[inline(always)]
    fn add(&mut self, num: f64, denom: f64, outward: DVec2) -> Option<()> {
        if denom < 0.0 {
            let (lhs, rhs) = (num * self.enter.1, self.enter.0 * -denom);
            if lhs > rhs || (lhs == rhs && more_head_on(outward, self.normal, self.d)) {
                (self.enter, self.normal) = ((num, -denom), outward);
                return self.open();
            }
        } else if denom > 0.0 {
            if -num * self.exit.1 < self.exit.0 * denom {
                (self.exit, self.exit_normal) = ((-num, denom), outward);
                return self.open();
            }
        } else if num > 0.0 {
            self.parallel = outward;
            return None;
        }
        // Neither end moved: still open, as checked when one last did (or at the start).
        Some(())
    }

    /// `Some` while the span is not shut out: entry after exit, after the step, or exit before
    /// it.
    #[inline(always)]
    fn open(&self) -> Option<()> {
        let ((en, ed), (xn, xd)) = (self.enter, self.exit);
        (en * xd <= xn * ed && en <= ed && xn >= 0.0).then_some(())
    }

    /// The outward normal of a half-plane the origin lies outside of (its `num > 0`), among
    /// those that set the entry or the exit or shut the ray out; `None` when the origin is
    /// inside all of those. Every shut-out has one: an entry after 0 (after the exit or after
    /// 1), an exit before 0, or a parallel half-plane missed.
    fn gap_normal(&self) -> Option<DVec2> {
        if self.enter.0 > 0.0 {
            Some(self.normal)
        } else if self.exit.0 < 0.0 {
            Some(self.exit_normal)
        } else if self.parallel != DVec2::ZERO {
            Some(self.parallel)
        } else {
            None
        }
    }

    fn span(&self) -> Option<LineSpan> {
        let enter = if self.enter.1 > 0.0 {
            self.enter.0 / self.enter.1
        } else {
            f64::NEG_INFINITY
        };
        let exit = if self.exit.1 > 0.0 {
            self.exit.0 / self.exit.1
        } else {
            f64::INFINITY
        };
        (enter <= exit).then_some(LineSpan {
            enter,
            exit,
            normal: self.normal,
        })
    }
}

/// A convex polygon (`>= 3` points) dilated by `r > 0`: the union of the capsules around its
/// edges (which cover its boundary) and its inside, entered through a capsule.
fn rounded_polygon_span(pts: &[DVec2], r: f64, o: DVec2, d: DVec2) -> Option<LineSpan> {
    let n = pts.len();
    let mut out: Option<LineSpan> = None;
    for i in 0..n {
        let (p, q) = (pts[i], pts[(i + 1) % n]);
        let span = if p == q {
            disc_span(p, r, o, d)
        } else {
            capsule_span(p, q, r, o, d)
        };
        if let Some(s) = span {
            out = Some(match out {
                None => s,
                Some(acc) => LineSpan {
                    enter: acc.enter.min(s.enter),
                    exit: acc.exit.max(s.exit),
                    normal: if s.enter < acc.enter {
                        s.normal
                    } else {
                        acc.normal
                    },
                },
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Shape;
    use crate::test_support::{boxed, v};
    use crate::{Capsule, Circle, Point, Segment};
    use alloc::vec;

    fn diff(a: &Shape, b: &Shape) -> Vec<(f64, f64)> {
        let d = difference(&a.as_convex().unwrap(), &b.as_convex().unwrap());
        d.points().iter().map(|p| (p.x, p.y)).collect()
    }

    #[test]
    fn boxes_give_the_box_of_their_differences() {
        let a = boxed(0.0, 0.0, 1.0, 1.0);
        let b = boxed(3.0, 0.0, 5.0, 2.0);
        assert_eq!(
            diff(&a, &b),
            vec![(2.0, -1.0), (5.0, -1.0), (5.0, 2.0), (2.0, 2.0)]
        );
    }

    #[test]
    fn point_minus_point_is_one_point_and_segments_sum_by_parallelism() {
        let p: Shape = Point::new(v(1.0, 2.0)).unwrap().into();
        let q: Shape = Point::new(v(4.0, 6.0)).unwrap().into();
        assert_eq!(diff(&p, &q), vec![(3.0, 4.0)]);
        let s: Shape = Segment::new(v(0.0, 0.0), v(2.0, 0.0)).unwrap().into();
        let t: Shape = Segment::new(v(5.0, 1.0), v(6.0, 1.0)).unwrap().into();
        // Parallel: a segment, from 5 - 2 to 6 - 0.
        assert_eq!(diff(&s, &t), vec![(3.0, 1.0), (6.0, 1.0)]);
        let u: Shape = Segment::new(v(5.0, 1.0), v(5.0, 3.0)).unwrap().into();
        assert_eq!(
            diff(&s, &u),
            vec![(3.0, 1.0), (5.0, 1.0), (5.0, 3.0), (3.0, 3.0)]
        );
    }

    #[test]
    fn box_minus_segment_is_a_hexagon_or_a_box_when_parallel() {
        let b = boxed(0.0, 0.0, 2.0, 2.0);
        let s: Shape = Segment::new(v(0.0, 0.0), v(1.0, 1.0)).unwrap().into();
        assert_eq!(
            diff(&s, &b),
            vec![
                (-1.0, -1.0),
                (1.0, -1.0),
                (2.0, 0.0),
                (2.0, 2.0),
                (0.0, 2.0),
                (-1.0, 1.0)
            ]
        );
        // Parallel edges merge: no collinear vertex is left.
        let s: Shape = Segment::new(v(0.0, 0.0), v(1.0, 0.0)).unwrap().into();
        assert_eq!(
            diff(&s, &b),
            vec![(-1.0, 0.0), (2.0, 0.0), (2.0, 2.0), (-1.0, 2.0)]
        );
    }

    #[test]
    fn clipping_by_both_polygons_faces_agrees_with_the_built_difference() {
        use crate::shape::{ConvexPolygon, Obb};
        // xorshift64*, fixed seed.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut int = |lo: i32, hi: i32| {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            let r = state.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33;
            (lo + (r % (hi - lo + 1) as u64) as i32) as f32
        };
        let mut compared = 0;
        for _ in 0..2000 {
            let mut shape = || -> Shape {
                let k = int(-1, 1);
                let c = v(int(-6, 6), int(-6, 6));
                if k > 0.0 {
                    Obb::new(c, v(int(0, 3), int(1, 3)), int(-3, 3) * 0.5)
                        .unwrap()
                        .into()
                } else {
                    // A random triangle to hexagon (hull of integer points), or a box.
                    let pts: Vec<_> = (0..6).map(|_| c + v(int(-3, 3), int(-3, 3))).collect();
                    let hull = crate::shape::hull::convex_hull(&pts);
                    match ConvexPolygon::new(&hull) {
                        Ok(p) => p.into(),
                        Err(_) => boxed(c.x, c.y, c.x + 1.0, c.y + 2.0),
                    }
                }
            };
            let (a, b) = (shape(), shape());
            let d = DVec2::new(f64::from(int(-12, 12)), f64::from(int(-12, 12)));
            let (ca, cb) = (a.as_convex().unwrap(), b.as_convex().unwrap());
            if ca.points().len() < 3 || cb.points().len() < 3 || d == DVec2::ZERO {
                continue;
            }
            let within = |s: &LineSpan| s.enter <= 1.0 && s.exit >= 0.0;
            let fast = polygons_span(ca.points(), cb.points(), d);
            let built = difference(&ca, &cb).line_span(d).filter(within);
            match (fast, built) {
                (Some(f), Some(g)) => {
                    compared += 1;
                    assert!(
                        (f.enter - g.enter).abs() < 1e-9,
                        "{a:?} {b:?} {d}: {f:?} {g:?}"
                    );
                    let (nf, ng) = (f.normal.normalize(), g.normal.normalize());
                    assert!(nf.distance(ng) < 1e-9, "{a:?} {b:?} {d}: {f:?} {g:?}");
                }
                (f, g) => assert_eq!(f.is_some(), g.is_some(), "{a:?} {b:?} {d}: {f:?} {g:?}"),
            }
        }
        assert!(compared > 300, "{compared}");
    }

    /// The clipping walk alone, as [`polygons_span`] takes it for larger polygons.
    fn walk_span(a: &[Vec2], b: &[Vec2], d: DVec2) -> Option<LineSpan> {
        let mut clip = Clip::new(d);
        match faces::<false>(b, a, &mut clip).and_then(|()| faces::<true>(a, b, &mut clip)) {
            Some(()) => clip.span(),
            None => None,
        }
    }

    #[test]
    fn small_polygons_get_the_walks_numbers_bit_for_bit() {
        // xorshift64*, fixed seed.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut unit = || {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            (state.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 40) as f32 / (1u64 << 24) as f32
        };
        let (mut small, mut hits) = (0, 0);
        for i in 0..40_000 {
            // Real coordinates, then quarter integers, integers and axis-aligned boxes (exact
            // ties: vertices met head-on, faces of both polygons on one line).
            let grid = [0.0, 4.0, 1.0, 1.0][i % 4];
            let polygon = |unit: &mut dyn FnMut() -> f32| -> Vec<Vec2> {
                let c = Vec2::new(unit() * 40.0 - 20.0, unit() * 40.0 - 20.0);
                let snap = |p: Vec2| {
                    if grid > 0.0 {
                        (p * grid).round() / grid
                    } else {
                        p
                    }
                };
                if i % 8 == 3 {
                    let (lo, size) = (snap(c), Vec2::new(1.0 + unit() * 3.0, 1.0 + unit() * 3.0));
                    let hi = lo + size.round();
                    return vec![lo, Vec2::new(hi.x, lo.y), hi, Vec2::new(lo.x, hi.y)];
                }
                let k = 3 + (unit() * 8.0) as usize;
                let pts: Vec<_> = (0..k)
                    .map(|_| snap(c + Vec2::new(unit() * 8.0 - 4.0, unit() * 8.0 - 4.0)))
                    .collect();
                crate::shape::hull::convex_hull(&pts)
            };
            let (a, b) = (polygon(&mut unit), polygon(&mut unit));
            let d = DVec2::new(
                f64::from(unit()) * 60.0 - 30.0,
                f64::from(unit()) * 60.0 - 30.0,
            );
            let d = if grid > 0.0 { d.round() } else { d };
            if a.len() < 3 || b.len() < 3 || a.len().max(b.len()) > SMALL || d == DVec2::ZERO {
                continue;
            }
            let (Some(found), walked) = (small_span_and_gap(&a, &b, d), walk_span(&a, &b, d))
            else {
                continue; // a tie: the walk decides
            };
            small += 1;
            match (found.0, walked) {
                (Some(x), Some(y)) => {
                    hits += 1;
                    let bits =
                        |s: LineSpan| [s.enter, s.exit, s.normal.x, s.normal.y].map(f64::to_bits);
                    assert_eq!(bits(x), bits(y), "{a:?} {b:?} {d}: {x:?} {y:?}");
                }
                (x, y) => assert_eq!(x.is_some(), y.is_some(), "{a:?} {b:?} {d}: {x:?} {y:?}"),
            }
        }
        assert!(small > 30_000 && hits > 1_000, "{small} {hits}");
    }

    #[test]
    fn radii_add_and_rounded_polygons_are_entered_on_their_rounded_corner() {
        let c: Shape = Circle::new(v(0.0, 0.0), 1.0).unwrap().into();
        let k: Shape = Capsule::new(v(0.0, 0.0), v(1.0, 0.0), 2.0).unwrap().into();
        let d = difference(&c.as_convex().unwrap(), &k.as_convex().unwrap());
        assert_eq!(d.radius, 3.0);
        let b = boxed(1.0, 1.0, 2.0, 2.0);
        let d = difference(&c.as_convex().unwrap(), &b.as_convex().unwrap());
        // From the origin towards the corner (1, 1): enters at distance sqrt(2) - 1.
        let s = d.line_span(DVec2::new(1.0, 1.0)).unwrap();
        assert!((s.enter - (1.0 - core::f64::consts::FRAC_1_SQRT_2)).abs() < 1e-12);
        assert!(
            s.normal
                .normalize()
                .distance(DVec2::new(-1.0, -1.0).normalize())
                < 1e-12
        );
    }
}
