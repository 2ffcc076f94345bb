//! The outline search's shapes and their convex parts: is a point (a [`Probe`]) inside the
//! union of the parts' open differences `S`?
//!
//! [`Probe`]: crate::query::union_outline_probe::Probe

use crate::exact;
use crate::math::Vec2;
use crate::query::union_outline_probe::{Probe, EPS};
use crate::shape::{ConvexPolygon, Shape};
use alloc::vec::Vec;
use glam::DVec2;

/// Most convex parts of one shape the search takes; past it the caller's search answers.
pub(crate) const MAX_PARTS: usize = 16;

/// A shape as the search sees it: its counter-clockwise outline and its convex parts.
pub(crate) struct Outlined<'s> {
    /// A box's outline (when `outline` is `None`).
    ring: [Vec2; 4],
    outline: Option<&'s [Vec2]>,
    /// A concave polygon's parts; otherwise the outline is the one part.
    parts: Option<&'s [ConvexPolygon]>,
}

impl<'s> Outlined<'s> {
    pub(crate) fn of(shape: &'s Shape) -> Option<Outlined<'s>> {
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

    pub(crate) fn outline(&self) -> &[Vec2] {
        self.outline.unwrap_or(&self.ring)
    }

    /// An axis-aligned box (its one part is its box's four corners).
    fn is_box(&self) -> bool {
        self.outline.is_none()
    }

    pub(crate) fn part_count(&self) -> usize {
        self.parts.map_or(1, <[ConvexPolygon]>::len)
    }

    pub(crate) fn part(&self, i: usize) -> &[Vec2] {
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

/// Folded in `f32` (exact) and widened once: the same box as folding the widened points.
fn box_of(points: &[Vec2]) -> Box2 {
    let first = points.first().copied().unwrap_or_default();
    let (lo, hi) = points
        .iter()
        .fold((first, first), |(lo, hi), &p| (lo.min(p), hi.max(p)));
    Box2 {
        lo: lo.as_dvec2(),
        hi: hi.as_dvec2(),
    }
}

/// The two shapes with their parts' boxes.
pub(crate) struct Pair<'s> {
    pub(crate) a: Outlined<'s>,
    pub(crate) b: Outlined<'s>,
    boxes_a: [Box2; MAX_PARTS],
    boxes_b: [Box2; MAX_PARTS],
    /// Twice the largest coordinate magnitude of any part or outline point: bounds the
    /// coordinates of every edge and of every difference of two points (for error bounds).
    pub(crate) reach: f64,
}

/// What the probes ask of each pair of parts, kept for the call: the difference as
/// half-planes in `f64`, worked out the first time a probe (or [`Pair::holds`]) gets past
/// the pair's boxes: for edge `p0 -> p1` (`e`) of one part, the greatest `e × (v − p0)` over
/// the other part's points `v`. A probe `t` is then strictly left of `e` by some `v + t`
/// (`b`'s points moved) when `h + e × t > 0`, or by some `v − t` (`a`'s points against `b`'s
/// moved edge) when `h − e × t > 0`: two products a test instead of one per point. Where the
/// bound cannot tell, [`Probe::any_left`] decides exactly, so the answers are the exact ones.
pub(crate) struct Planes<'p> {
    /// Where pair `(i, j)`'s planes start in `planes`, at `i * m + j` (`u32::MAX`: not yet
    /// worked out): `a`'s part's edges, then `b`'s. On the stack (1 KB): cheaper to fill
    /// than to allocate.
    at: [u32; MAX_PARTS * MAX_PARTS],
    planes: Vec<Plane>,
    m: usize,
    /// The part pair that overlapped last, tried first (nearby probes tend to share it).
    last: (usize, usize),
    /// The parts' boxes when one shape is an axis-aligned box: planes from the other part's
    /// box ([`push_planes_by_box`]).
    by_box: Option<(&'p [Box2; MAX_PARTS], &'p [Box2; MAX_PARTS])>,
}

/// A part's edge direction `e` and the greatest `e × (v − p0)` over the other part's points.
#[derive(Clone, Copy)]
struct Plane {
    e: DVec2,
    h: f64,
}

impl Plane {
    /// The plane's `f64` value at `t`, for `b`'s points moved by `t` (`moved_b`) or `a`'s
    /// points against `b`'s edge moved by `t`: above the error bound, some point is strictly
    /// left; below its negative, none is.
    #[inline(always)]
    fn at(&self, t: DVec2, moved_b: bool) -> f64 {
        let along = self.e.x * t.y - self.e.y * t.x;
        if moved_b {
            self.h + along
        } else {
            self.h - along
        }
    }
}

impl<'p> Planes<'p> {
    pub(crate) fn new(pair: &'p Pair) -> Planes<'p> {
        let m = pair.b.part_count();
        // A part has at most its outline's points: room for two pairs' planes up front
        // (growing from empty cost several reallocations a call).
        let room = 2 * (pair.a.outline().len() + pair.b.outline().len());
        Planes {
            at: [u32::MAX; MAX_PARTS * MAX_PARTS],
            planes: Vec::with_capacity(room),
            m,
            last: (0, 0),
            by_box: (pair.a.is_box() || pair.b.is_box()).then_some((&pair.boxes_a, &pair.boxes_b)),
        }
    }

    /// Pair `(i, j)`'s planes (`pa`, `pb` its parts), worked out now if not yet.
    fn of(&mut self, i: usize, j: usize, pa: &[Vec2], pb: &[Vec2]) -> &[Plane] {
        let k = i * self.m + j;
        if self.at[k] == u32::MAX {
            self.at[k] = self.planes.len() as u32;
            self.planes.reserve(pa.len() + pb.len());
            if let Some((boxes_a, boxes_b)) = self.by_box {
                push_planes_by_box(pa, pb, &boxes_b[j], &mut self.planes);
                push_planes_by_box(pb, pa, &boxes_a[i], &mut self.planes);
            } else {
                push_planes(pa, pb, &mut self.planes);
                push_planes(pb, pa, &mut self.planes);
            }
        }
        let at = self.at[k] as usize;
        &self.planes[at..at + pa.len() + pb.len()]
    }
}

/// For each edge `p0 -> p1` of `own`, the greatest `(p1 − p0) × (v − p0)` over `other`'s
/// points `v`, in `f64` (a plain comparison: no value is NaN).
fn push_planes(own: &[Vec2], other: &[Vec2], planes: &mut Vec<Plane>) {
    for k in 0..own.len() {
        let (p0, e) = edge(own, k);
        planes.push(Plane {
            e,
            h: most_left(p0, e, other),
        });
    }
}

/// The greatest `e × (v − p0)` over `other`'s points `v`.
#[inline(always)]
fn most_left(p0: DVec2, e: DVec2, other: &[Vec2]) -> f64 {
    let mut most = f64::NEG_INFINITY;
    for v in other {
        let w = v.as_dvec2() - p0;
        let c = e.x * w.y - e.y * w.x;
        if c > most {
            most = c;
        }
    }
    most
}

/// [`push_planes`] when one of the two parts is an axis-aligned box, from `other_box`
/// (`other`'s box): the corner of it the edge's signs pick. Each rounded step is monotone in
/// `v`'s coordinates, so no point gives more, and the corner gives exactly the greatest
/// value (a zero's sign aside, which no test against a bound sees): it is one of `other`'s
/// points when `other` is the box, and when `own` is, its edge is along an axis and the
/// value depends on one coordinate only, whose extreme some point of `other` has.
fn push_planes_by_box(own: &[Vec2], other: &[Vec2], other_box: &Box2, planes: &mut Vec<Plane>) {
    let b = other_box;
    for k in 0..own.len() {
        let (p0, e) = edge(own, k);
        let v = DVec2::new(
            if e.y > 0.0 { b.lo.x } else { b.hi.x },
            if e.x > 0.0 { b.hi.y } else { b.lo.y },
        );
        let w = v - p0;
        let h = e.x * w.y - e.y * w.x;
        debug_assert_eq!(h, most_left(p0, e, other));
        planes.push(Plane { e, h });
    }
}

/// Edge `k` of `own`: its start and its direction, in `f64`.
#[inline]
fn edge(own: &[Vec2], k: usize) -> (DVec2, DVec2) {
    let p0 = own[k].as_dvec2();
    let next = if k + 1 == own.len() { 0 } else { k + 1 };
    (p0, own[next].as_dvec2() - p0)
}

impl<'s> Pair<'s> {
    pub(crate) fn new(a: Outlined<'s>, b: Outlined<'s>) -> Pair<'s> {
        let (n, m) = (a.part_count(), b.part_count());
        let mut pair = Pair {
            a,
            b,
            boxes_a: [Box2::default(); MAX_PARTS],
            boxes_b: [Box2::default(); MAX_PARTS],
            reach: 0.0,
        };
        for i in 0..n {
            pair.boxes_a[i] = box_of(pair.a.part(i));
        }
        for j in 0..m {
            pair.boxes_b[j] = box_of(pair.b.part(j));
        }
        // Every outline point is a point of some part (a polygon's parts are its ear-clipped
        // triangles merged; other shapes' one part is the outline), so the parts' boxes bound
        // the outlines too.
        let largest = |b: &Box2| b.lo.abs().max(b.hi.abs()).max_element();
        let boxes = pair.boxes_a[..n].iter().chain(&pair.boxes_b[..m]);
        pair.reach = 2.0 * boxes.fold(0.0, |r, b| largest(b).max(r));
        pair
    }

    /// Part `i` of `a`'s box moved by `−t` (so that `b`'s parts stay put), widened by the
    /// probe's error and by more than this sum's rounding (at most `2 ε` of the magnitudes a
    /// coordinate, plus `ε` of the widening): a part of `b` whose box it misses, or only
    /// touches, is strictly apart from part `i` at the probe.
    #[inline(always)]
    fn moved_box(&self, i: usize, probe: &Probe) -> Box2 {
        let (ba, t, err) = (&self.boxes_a[i], probe.t, probe.err);
        let grow =
            err + 4.0 * EPS * (ba.lo.abs().max(ba.hi.abs()) + t.abs() + err) + f64::MIN_POSITIVE;
        Box2 {
            lo: ba.lo - t - grow,
            hi: ba.hi - t + grow,
        }
    }

    /// Do parts `i` of `a` and `j` of `b`, `b` moved to the probe, have overlapping
    /// interiors? Strict SAT: no edge of either has all of the other on or outside it.
    /// `moved` is [`Pair::moved_box`] of part `i`, `bound` [`Pair::plane_bound`] at the probe.
    #[inline(always)]
    fn overlap(
        &self,
        (i, j): (usize, usize),
        moved: &Box2,
        probe: &Probe,
        planes: &mut Planes,
        bound: f64,
    ) -> bool {
        let bb = &self.boxes_b[j];
        // Clear of the closed difference's box: apart.
        if moved.hi.cmple(bb.lo).any() || moved.lo.cmpge(bb.hi).any() {
            return false;
        }
        self.overlap_sat(i, j, probe, planes, bound)
    }

    /// [`overlap`](Self::overlap) past its box test (out of line: most pairs stop there).
    #[inline(never)]
    fn overlap_sat(
        &self,
        i: usize,
        j: usize,
        probe: &Probe,
        planes: &mut Planes,
        bound: f64,
    ) -> bool {
        let (pa, pb) = (self.a.part(i), self.b.part(j));
        if probe.generated_by(pa, pb) {
            return false;
        }
        let planes = planes.of(i, j, pa, pb);
        let t = probe.t;
        let inside = |own: &[Vec2], other: &[Vec2], planes: &[Plane], moved_b: bool| {
            planes.iter().enumerate().all(|(k, plane)| {
                let v = plane.at(t, moved_b);
                if v > bound {
                    true
                } else if v < -bound {
                    false
                } else {
                    probe.any_left(own[k], own[(k + 1) % own.len()], other, moved_b)
                }
            })
        };
        let (of_a, of_b) = planes.split_at(pa.len());
        inside(pa, pb, of_a, true) && inside(pb, pa, of_b, false)
    }

    /// A bound on the error of [`Planes`]' test at the probe: `reach` (`E`) bounds every
    /// coordinate of an edge and of a point's offset from it, `T` those of `t`, `err` its
    /// error. `h` is within `4 ε E²` (`ε` = [`EPS`]), `e × t` within `2 E err + 7 ε E T`,
    /// their sum rounds by `ε (2 E² + 2 E T)` more; the bound doubles the rounding's part.
    fn plane_bound(&self, t: DVec2, err: f64) -> f64 {
        let (e, t) = (self.reach, t.abs().max_element() + err);
        2.0 * e * err * (1.0 + 1e-9) + 16.0 * EPS * e * (e + t) + f64::MIN_POSITIVE
    }

    /// Does one part pair's open difference hold the whole segment from `p` to `q` (each
    /// within `err` of the exact point in every coordinate)? Then it holds every point of the
    /// segment pushed infinitesimally too (the difference is convex and open): no stretch
    /// of the segment is on `S`'s boundary. [`Planes`]' test past its bound at both ends:
    /// `true` is always right, `false` may be (a difference's box first, as a filter only).
    pub(crate) fn holds(&self, (p, q): (DVec2, DVec2), err: f64, planes: &mut Planes) -> bool {
        let (n, m) = (self.a.part_count(), self.b.part_count());
        let bound = self.plane_bound(p.abs().max(q.abs()), err);
        let (lo, hi) = (p.min(q), p.max(q));
        // Strictly left of every plane at `t` (`b`'s points moved by `t`, or `a`'s against
        // `b`'s moved edges).
        let clear = |plane: &Plane, t: DVec2, moved_b: bool| plane.at(t, moved_b) > bound;
        for i in 0..n {
            for j in 0..m {
                let (ba, bb) = (&self.boxes_a[i], &self.boxes_b[j]);
                if (ba.lo - bb.hi).cmpge(lo).any() || (ba.hi - bb.lo).cmple(hi).any() {
                    continue;
                }
                let (pa, pb) = (self.a.part(i), self.b.part(j));
                let (of_a, of_b) = planes.of(i, j, pa, pb).split_at(pa.len());
                if of_a
                    .iter()
                    .all(|pl| clear(pl, p, true) && clear(pl, q, true))
                    && of_b
                        .iter()
                        .all(|pl| clear(pl, p, false) && clear(pl, q, false))
                {
                    return true;
                }
            }
        }
        false
    }

    /// Is the probe in `S`? The part pair that overlapped last time is tried first (the answer
    /// does not depend on the order).
    pub(crate) fn in_s(&self, probe: &Probe, planes: &mut Planes, work: &mut usize) -> bool {
        let (n, m) = (self.a.part_count(), self.b.part_count());
        *work += n * m;
        let bound = self.plane_bound(probe.t, probe.err);
        let last = planes.last;
        if self.overlap(last, &self.moved_box(last.0, probe), probe, planes, bound) {
            return true;
        }
        for i in 0..n {
            let moved = self.moved_box(i, probe);
            for j in 0..m {
                if (i, j) != last && self.overlap((i, j), &moved, probe, planes, bound) {
                    planes.last = (i, j);
                    return true;
                }
            }
        }
        false
    }

    /// Is the origin in `S`, exactly (no perturbation)?
    pub(crate) fn origin_in_s(&self) -> bool {
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
