//! The union contact's fast path: the deepest pair of parts' own contact, kept when a
//! certificate shows it is also the whole shapes' contact.
//!
//! Moving `b` by `v` makes the shapes overlap when `−v` lies in `D = ∪ D_k`, the union of the
//! parts' Minkowski differences `D_k = B_j − A_i`. Each `D_k` holding the origin lies inside
//! `D`, so its depth bounds the union's depth from below. The deepest pair's contact (normal
//! `n`, depth `d`) names `x = −n d`, where the ray along `−n` leaves that pair's `D_k`, within
//! the convex contacts' error (README, "Numbers at the edges": `1e-6` of the largest
//! coordinate). When no other difference comes within `m` of `x`, `m` above that error, the
//! ray leaves the union where it leaves `D_k`: the union's depth is `d` along `n`, to the
//! same accuracy, and the pair's contact is the answer, bit for bit (a touching one too: a
//! small move along `n` parts that pair and meets no other). Otherwise the exact search
//! decides ([`union_contact`](crate::query::union_contact)).
//!
//! `x` lies in `B_j − A_i` exactly when `A_i` moved by `x` meets `B_j`: the test is the
//! distance of two parts, one moved, in `f64`, against the radii plus `m` (whose rounding is
//! far below `m`). Both searches go through the compounds' part trees.

use crate::math::Vec2;
use crate::query::convex::SharpAxis;
use crate::query::part_pairs::{search, PairSearch, Piece, Whole};
use crate::query::{convex, dispatch, Contact};
use crate::shape::convex::Convex;
use crate::shape::{Aabb, Shape};
use core::ops::ControlFlow;
use glam::DVec2;

/// The margin `m`, relative to the largest coordinate of the two shapes: four times the
/// convex contacts' documented error.
const MARGIN: f64 = 4e-6;

/// What the fast path found.
pub(crate) enum Fast {
    /// Decided: `None` when the shapes do not intersect, else the certified deepest pair's
    /// contact.
    Decided(Option<Contact>),
    /// The search must decide: the deepest pair's contact, and how many pairs of pieces have
    /// overlapping boxes (a measure of the search's work).
    Search { deepest: Contact, pairs: usize },
}

/// The contact of `a` and `b` when the fast path decides it, else what the search needs.
pub(crate) fn contact(a: &Shape, b: &Shape) -> Fast {
    let scale = [a.aabb(), b.aabb()]
        .iter()
        .flat_map(|r| [r.min().abs().max_element(), r.max().abs().max_element()])
        .fold(0.0f32, f32::max);
    let mut deepest = Deepest {
        best: None,
        pairs: 0,
        slack: MARGIN * f64::from(scale),
        boxes: Boxes::NONE,
        copies: Copies {
            a: [Vec2::ZERO; COPY],
            b: [Vec2::ZERO; COPY],
        },
    };
    let _ = search(a, b, &mut deepest);
    let pairs = deepest.pairs;
    let Some((_, key, later)) = deepest.best else {
        return Fast::Decided(None);
    };
    let contact = later.contact(&deepest.copies);
    debug_assert!(
        contact.is_some(),
        "the deepest pair's depth came with a contact"
    );
    let Some(c) = contact else {
        return Fast::Decided(None);
    };
    // `n d` is exact in `f64` (two `f32` factors).
    let x = -c.normal.as_dvec2() * f64::from(c.depth);
    let mut near = Near {
        x,
        margin: MARGIN * f64::from(scale),
        skip: key,
        boxes: &mut deepest.boxes,
    };
    if search(a, b, &mut near).is_continue() {
        Fast::Decided(Some(c))
    } else {
        Fast::Search { deepest: c, pairs }
    }
}

/// Two pieces' points and extent when their kernel is `convex::polygons_contact`.
fn polygons<'p>(a: &'p Piece, b: &'p Piece) -> Option<(&'p [Vec2], &'p [Vec2], f32)> {
    let (x, y) = match (a.whole, b.whole) {
        (Whole::Part(x), Whole::Part(y)) => (x, y),
        (Whole::Part(x), Whole::Shape(Shape::ConvexPolygon(y))) => (x, y),
        (Whole::Shape(Shape::ConvexPolygon(x)), Whole::Part(y)) => (x, y),
        _ => return None,
    };
    Some((x.points(), y.points(), x.extent().max(y.extent())))
}

/// Two pieces whose kernel is the separating-axis scan of hulls without radii
/// (`convex::polygons_contact` or `convex::contact_checked`).
fn sharp(a: &Piece, b: &Piece) -> bool {
    let whole_shapes = matches!((a.whole, b.whole), (Whole::Shape(_), Whole::Shape(_)));
    !whole_shapes && a.convex.radius == 0.0 && b.convex.radius == 0.0
}

/// A polygon part and a box (their kernel `convex::contact_checked`, whose depth
/// `convex::sharp_depth` gives alone).
fn part_and_box(a: &Piece, b: &Piece) -> bool {
    matches!(
        (a.whole, b.whole),
        (Whole::Part(_), Whole::Shape(Shape::Aabb(_)))
            | (Whole::Shape(Shape::Aabb(_)), Whole::Part(_))
    )
}

/// The contact of two pieces whose kernel is not `convex::polygons_contact`.
fn other_contact(a: &Piece, b: &Piece) -> Option<Contact> {
    match (a.whole, b.whole) {
        (Whole::Shape(x), Whole::Shape(y)) => dispatch::contact(x, y),
        _ => convex::contact_checked(&a.convex, &b.convex),
    }
}

/// Points a polygon copy holds: the 16 of `polygons_contact`'s largest copies.
const COPY: usize = 16;

/// The deepest pair's contact, or what makes it from the [`Copies`] of its points: only that
/// pair's manifold is clipped.
#[derive(Clone, Copy)]
enum Later {
    /// The contact (`polygons_depth` or `sharp_depth` found one: never `None`).
    Done(Option<Contact>),
    /// Two polygons of `la` and `lb` points and their extent, for `convex::polygons_contact`.
    Polygons { la: usize, lb: usize, extent: f32 },
    /// A part's and a box's hulls of `la` and `lb` points and their axis:
    /// `convex::contact_checked`'s contact without its scan again.
    Checked {
        la: usize,
        lb: usize,
        axis: SharpAxis,
    },
}

/// The deepest pair's points, written in place (one pair lives on the stack per query; moved
/// with each deeper pair, the copies cost more than the clips they save).
struct Copies {
    a: [Vec2; COPY],
    b: [Vec2; COPY],
}

impl Copies {
    /// Copies `a` and `b`, and gives their lengths, when they fit.
    fn keep(&mut self, a: &[Vec2], b: &[Vec2]) -> Option<(usize, usize)> {
        if a.len().max(b.len()) > COPY {
            return None;
        }
        self.a[..a.len()].copy_from_slice(a);
        self.b[..b.len()].copy_from_slice(b);
        Some((a.len(), b.len()))
    }
}

impl Later {
    fn polygons(copies: &mut Copies, a: &[Vec2], b: &[Vec2], extent: f32) -> Later {
        match copies.keep(a, b) {
            Some((la, lb)) => Later::Polygons { la, lb, extent },
            None => Later::Done(convex::polygons_contact(a, b, extent)),
        }
    }

    /// A part and a box (either first) whose `convex::sharp_depth` gave `axis`.
    fn part_and_box(copies: &mut Copies, a: &Convex, b: &Convex, axis: SharpAxis) -> Later {
        match copies.keep(a.points(), b.points()) {
            Some((la, lb)) => Later::Checked { la, lb, axis },
            None => Later::Done(Some(axis.contact(a, b))),
        }
    }

    /// The contact: never `None` (`polygons_depth` answers as `polygons_contact`,
    /// `sharp_depth` as `contact_checked`).
    fn contact(self, copies: &Copies) -> Option<Contact> {
        let points = |la: usize, lb: usize| (&copies.a[..la], &copies.b[..lb]);
        match self {
            Later::Done(c) => c,
            Later::Polygons { la, lb, extent } => {
                let (a, b) = points(la, lb);
                convex::polygons_contact(a, b, extent)
            }
            Later::Checked { la, lb, axis } => {
                let (a, b) = points(la, lb);
                Some(axis.contact(&Convex::slice(a, 0.0), &Convex::slice(b, 0.0)))
            }
        }
    }
}

/// The deepest contact so far between pieces whose boxes overlap, and their numbers (the
/// lower numbers on ties, as [`parts::contact`](crate::query::parts::contact)).
struct Deepest {
    best: Option<(f32, (u32, u32), Later)>,
    copies: Copies,
    /// Pairs of pieces whose boxes overlap.
    pairs: usize,
    /// Above the kernels' error: a pair whose boxes overlap by less than this under the best
    /// depth cannot tie it.
    slack: f64,
    boxes: Boxes,
}

/// Slots of [`Boxes`] for the second shape's pieces.
const BOX_SLOTS: usize = 16;

/// The boxes of the pieces last seen, by number: a polygon part's box is a pass over its
/// points, and the searches meet each piece in many pairs.
#[derive(Clone, Copy)]
struct Boxes {
    a: (u32, Aabb),
    /// Piece `ib` of the second shape in slot `ib % BOX_SLOTS`.
    b: [(u32, Aabb); BOX_SLOTS],
}

impl Boxes {
    const NONE: Boxes = Boxes {
        a: (u32::MAX, Aabb::new_unchecked(Vec2::ZERO, Vec2::ZERO)),
        b: [(u32::MAX, Aabb::new_unchecked(Vec2::ZERO, Vec2::ZERO)); BOX_SLOTS],
    };

    /// The boxes of piece `a`, numbered `ia` of the first shape, and `b`, `ib` of the second.
    #[inline(always)]
    fn of(&mut self, a: &Piece, ia: u32, b: &Piece, ib: u32) -> (Aabb, Aabb) {
        if self.a.0 != ia {
            self.a = (ia, a.aabb());
        }
        let slot = &mut self.b[ib as usize % BOX_SLOTS];
        if slot.0 != ib {
            *slot = (ib, b.aabb());
        }
        (self.a.1, slot.1)
    }
}

impl Deepest {
    /// Two [`sharp`] pieces in boxes `a` and `b` have a contact shallower than the deepest so
    /// far by more than the slack. Their depth (the least overlap along a face normal, up to
    /// rounding) is their penetration depth, at most the move along `x` or `y` that parts
    /// their boxes (exact: differences of `f32`s in `f64`).
    fn shallower(&self, a: &Aabb, b: &Aabb) -> bool {
        let Some((best, ..)) = &self.best else {
            return false;
        };
        let (a_lo, a_hi) = (a.min().as_dvec2(), a.max().as_dvec2());
        let (b_lo, b_hi) = (b.min().as_dvec2(), b.max().as_dvec2());
        let part = (a_hi - b_lo).min(b_hi - a_lo);
        part.min_element() + self.slack < f64::from(*best)
    }
}

/// What a pair's depth came with: what its contact is made from.
enum Found<'p> {
    Contact(Contact),
    /// Two polygons' points and extent.
    Polygons(&'p [Vec2], &'p [Vec2], f32),
    /// A part and a box's axis.
    Axis(SharpAxis),
}

impl PairSearch for Deepest {
    type Break = ();

    fn keep(&mut self, a: &Aabb, b: &Aabb) -> Option<f64> {
        a.overlaps(b).then_some(0.0)
    }

    fn visit(&mut self, _: &Convex, _: u32, _: &Convex, _: u32) -> ControlFlow<()> {
        debug_assert!(false, "visit_piece is the entry point");
        ControlFlow::Continue(())
    }

    fn visit_piece(&mut self, a: &Piece, ia: u32, b: &Piece, ib: u32) -> ControlFlow<()> {
        // Pieces of one polygon come without a box test of their own.
        let (ba, bb) = self.boxes.of(a, ia, b, ib);
        if !ba.overlaps(&bb) {
            return ControlFlow::Continue(());
        }
        self.pairs += 1;
        // Sharp pieces whose boxes show them clearly shallower than the deepest pair so far
        // are skipped; two polygons get their depth only (only the deepest pair is clipped).
        let polys = polygons(a, b);
        if sharp(a, b) && self.shallower(&ba, &bb) {
            return ControlFlow::Continue(());
        }
        let found = match polys {
            Some((x, y, extent)) => {
                convex::polygons_depth(x, y, extent).map(|d| (d, Found::Polygons(x, y, extent)))
            }
            None if part_and_box(a, b) => {
                convex::sharp_depth(&a.convex, &b.convex).map(|(d, axis)| (d, Found::Axis(axis)))
            }
            None => other_contact(a, b).map(|c| (c.depth, Found::Contact(c))),
        };
        let Some((depth, found)) = found else {
            return ControlFlow::Continue(());
        };
        let deeper = self
            .best
            .as_ref()
            .is_none_or(|(best, key, _)| depth > *best || (depth == *best && (ia, ib) < *key));
        if deeper {
            let later = match found {
                Found::Contact(c) => Later::Done(Some(c)),
                Found::Polygons(x, y, extent) => Later::polygons(&mut self.copies, x, y, extent),
                Found::Axis(axis) => {
                    Later::part_and_box(&mut self.copies, &a.convex, &b.convex, axis)
                }
            };
            self.best = Some((depth, (ia, ib), later));
        }
        ControlFlow::Continue(())
    }
}

/// Stops at a pair of pieces, other than `skip`, whose difference comes within `margin` of
/// `x`.
struct Near<'b> {
    x: DVec2,
    margin: f64,
    skip: (u32, u32),
    boxes: &'b mut Boxes,
}

impl Near<'_> {
    /// The difference of pieces inside boxes `a` and `b` may come within the margin of `x`.
    fn boxes_near(&self, a: &Aabb, b: &Aabb) -> bool {
        let lo = b.min().as_dvec2() - a.max().as_dvec2() - self.margin;
        let hi = b.max().as_dvec2() - a.min().as_dvec2() + self.margin;
        !(self.x.cmplt(lo).any() || self.x.cmpgt(hi).any())
    }
}

impl PairSearch for Near<'_> {
    type Break = ();

    fn keep(&mut self, a: &Aabb, b: &Aabb) -> Option<f64> {
        self.boxes_near(a, b).then_some(0.0)
    }

    fn visit(&mut self, _: &Convex, _: u32, _: &Convex, _: u32) -> ControlFlow<()> {
        debug_assert!(false, "visit_piece is the entry point");
        ControlFlow::Continue(())
    }

    fn visit_piece(&mut self, a: &Piece, ia: u32, b: &Piece, ib: u32) -> ControlFlow<()> {
        if (ia, ib) == self.skip {
            return ControlFlow::Continue(());
        }
        let (ba, bb) = self.boxes.of(a, ia, b, ib);
        if !self.boxes_near(&ba, &bb) {
            return ControlFlow::Continue(());
        }
        let reach = f64::from(a.convex.radius) + f64::from(b.convex.radius) + self.margin;
        if hull_gap(a.convex.points(), self.x, b.convex.points()) <= reach {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}

/// A lower bound on the distance between the hull of `p` moved by `x` and the hull of `q`
/// (0 when they meet), in `f64`; hulls of 3 or more points are counter-clockwise.
fn hull_gap(p: &[Vec2], x: DVec2, q: &[Vec2]) -> f64 {
    let at = |i: usize| p[i].as_dvec2() + x;
    let (np, nq) = (p.len(), q.len());
    if np >= 3 && nq >= 3 {
        // The widest separation along a face normal: a lower bound on the distance.
        let sep_p = faces_sep(np, &at, nq, &|j| q[j].as_dvec2());
        let sep_q = faces_sep(nq, &|j| q[j].as_dvec2(), np, &at);
        return sep_p.max(sep_q).max(0.0);
    }
    let bq = |j: usize| q[j].as_dvec2();
    if (np >= 3 && (0..nq).any(|j| inside(np, &at, bq(j))))
        || (nq >= 3 && (0..np).any(|i| inside(nq, &bq, at(i))))
        || edges_cross(np, &at, nq, &bq)
    {
        return 0.0;
    }
    let to_edges = |n: usize, f: &dyn Fn(usize) -> DVec2, v: DVec2| {
        edges(n).fold(f64::INFINITY, |m, (s, t)| {
            m.min(convex::closest_on_segment(v, f(s), f(t)).distance(v))
        })
    };
    let from_p = (0..np).fold(f64::INFINITY, |m, i| m.min(to_edges(nq, &bq, at(i))));
    let from_q = (0..nq).fold(f64::INFINITY, |m, j| m.min(to_edges(np, &at, bq(j))));
    from_p.min(from_q)
}

/// The greatest separation of the polygon `v` (`n` points) from the points `w` (`m`) along
/// `v`'s outward face normals.
fn faces_sep(n: usize, v: &dyn Fn(usize) -> DVec2, m: usize, w: &dyn Fn(usize) -> DVec2) -> f64 {
    let mut best = f64::NEG_INFINITY;
    for i in 0..n {
        let (s, e) = (v(i), v((i + 1) % n) - v(i));
        let normal = DVec2::new(e.y, -e.x).normalize_or_zero();
        let sep = (0..m).fold(f64::INFINITY, |lo, j| lo.min(normal.dot(w(j) - s)));
        best = best.max(sep);
    }
    best
}

/// The edges of a hull of `n` points, as index pairs: one for a segment, a degenerate one for
/// a point.
fn edges(n: usize) -> impl Iterator<Item = (usize, usize)> {
    let count = if n <= 2 { 1 } else { n };
    (0..count).map(move |i| (i, (i + 1) % n))
}

/// `y` lies in the counter-clockwise polygon `v` (`n >= 3` points), up to rounding.
fn inside(n: usize, v: &dyn Fn(usize) -> DVec2, y: DVec2) -> bool {
    (0..n).all(|i| (v((i + 1) % n) - v(i)).perp_dot(y - v(i)) >= 0.0)
}

/// Some edge of one hull crosses some edge of the other, up to rounding.
fn edges_cross(n: usize, v: &dyn Fn(usize) -> DVec2, m: usize, w: &dyn Fn(usize) -> DVec2) -> bool {
    edges(n).any(|(s, t)| {
        edges(m).any(|(u, z)| {
            let (p, r, a, c) = (v(s), v(t), w(u), w(z));
            let side = |o: DVec2, e: DVec2, y: DVec2| e.perp_dot(y - o);
            let (d1, d2) = (side(p, r - p, a), side(p, r - p, c));
            let (d3, d4) = (side(a, c - a, p), side(a, c - a, r));
            d1 * d2 < 0.0 && d3 * d4 < 0.0
        })
    })
}
