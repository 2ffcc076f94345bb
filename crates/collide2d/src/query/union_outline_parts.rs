//! The outline search's shapes and their convex parts: is a point (a [`Probe`]) inside the
//! union of the parts' open differences `S`?
//!
//! [`Probe`]: crate::query::union_outline_probe::Probe

use crate::exact;
use crate::math::Vec2;
use crate::query::union_outline_probe::{Probe, EPS};
use crate::shape::{ConvexPolygon, Shape};
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
pub(crate) struct Box2 {
    lo: DVec2,
    hi: DVec2,
}

pub(crate) fn box_of(points: &[Vec2]) -> Box2 {
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

/// The two shapes with their parts' boxes.
pub(crate) struct Pair<'s> {
    pub(crate) a: Outlined<'s>,
    pub(crate) b: Outlined<'s>,
    pub(crate) boxes_a: [Box2; MAX_PARTS],
    pub(crate) boxes_b: [Box2; MAX_PARTS],
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
    pub(crate) fn in_s(&self, probe: &Probe, work: &mut usize, last: &mut (usize, usize)) -> bool {
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
