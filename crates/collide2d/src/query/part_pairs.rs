//! Pairs of convex pieces of two shapes, found through the compounds' part trees: a search over
//! pairs of tree nodes that a [`PairSearch`] prunes by their boxes, so two compounds of many
//! parts that do not overlap cost near-linear time, not the product of their part counts.
//!
//! Pieces are numbered as [`each_part`] gives them, so a search that keeps the least pair by
//! `(number in a, number in b)` among equals finds what a scan of every pair in that order
//! would find first.

use crate::shape::convex::Convex;
use crate::shape::part_tree::{Link, PartTree};
use crate::shape::{Aabb, Compound, ConvexPolygon, Shape};
use alloc::vec::Vec;
use core::ops::ControlFlow;

/// What a search over pairs of pieces wants.
pub(crate) trait PairSearch {
    /// What stops the search early.
    type Break;

    /// Whether pieces inside box `a` (of the first shape) and box `b` (of the second) may
    /// matter: `None` prunes them, `Some(p)` keeps them, those of lower `p` visited first. It
    /// must be monotone: a pair of boxes it prunes holds no pair of smaller boxes it keeps.
    fn keep(&mut self, a: &Aabb, b: &Aabb) -> Option<f64>;

    /// One pair of pieces: `a`, the piece numbered `ia` of the first shape, and `b`, numbered
    /// `ib` of the second.
    fn visit(&mut self, a: &Convex, ia: u32, b: &Convex, ib: u32) -> ControlFlow<Self::Break>;

    /// [`visit`](Self::visit) with what each piece is ([`Piece`]), for searches that run a
    /// kernel made for the pieces' kinds; by default, `visit` on their hulls.
    #[inline]
    fn visit_piece(&mut self, a: &Piece, ia: u32, b: &Piece, ib: u32) -> ControlFlow<Self::Break> {
        self.visit(&a.convex, ia, &b.convex, ib)
    }
}

/// A convex piece: a convex shape (an argument or a compound's part) or one part of a concave
/// polygon.
#[derive(Clone, Copy)]
pub(crate) enum Whole<'a> {
    Shape(&'a Shape),
    Part(&'a ConvexPolygon),
}

/// A convex piece as a search hands it over: its hull and radius, and what it is.
pub(crate) struct Piece<'a> {
    pub convex: Convex<'a>,
    pub whole: Whole<'a>,
}

impl Piece<'_> {
    /// The piece's bounding box.
    pub fn aabb(&self) -> Aabb {
        match self.whole {
            Whole::Shape(s) => s.aabb(),
            Whole::Part(p) => p.aabb(),
        }
    }
}

/// Calls `f` on every convex piece of `shape`, a convex shape or a concave polygon (a
/// compound's pieces are its parts', through its tree), in order, until `f` breaks ([`each_part`](crate::query::parts::each_part) hands over the hulls).
pub(crate) fn each_piece<B>(
    shape: &Shape,
    f: &mut dyn FnMut(&Piece) -> ControlFlow<B>,
) -> ControlFlow<B> {
    if let Some(convex) = shape.as_convex() {
        return f(&Piece {
            convex,
            whole: Whole::Shape(shape),
        });
    }
    match shape {
        Shape::Polygon(p) => {
            for part in p.parts() {
                f(&Piece {
                    convex: Convex::slice(part.points(), 0.0),
                    whole: Whole::Part(part),
                })?;
            }
        }
        Shape::Compound(c) => {
            for part in c.parts() {
                each_piece(part, f)?;
            }
        }
        _ => debug_assert!(false, "as_convex covers every other shape"),
    }
    ControlFlow::Continue(())
}

/// Calls `search.visit` on every pair of pieces of `a` and `b` that lie in a kept pair of part
/// boxes (every pair, when neither is a compound), until it breaks.
pub(crate) fn search<S: PairSearch>(a: &Shape, b: &Shape, search: &mut S) -> ControlFlow<S::Break> {
    pairs(a, 0, b, 0, search)
}

/// One side of a pair of nodes: a node of a compound's tree, or a whole shape that is not a
/// compound.
#[derive(Clone, Copy)]
enum Side<'a> {
    Node(&'a Compound, usize),
    /// The shape and its box.
    Whole(&'a Shape, Aabb),
}

impl<'a> Side<'a> {
    fn of(shape: &'a Shape) -> Side<'a> {
        match shape {
            Shape::Compound(c) => Side::Node(c, PartTree::ROOT),
            other => Side::Whole(other, other.aabb()),
        }
    }

    fn aabb(self) -> Aabb {
        match self {
            Side::Node(c, i) => c.tree().node(i).aabb,
            Side::Whole(_, b) => b,
        }
    }

    /// The part and its first piece's number (relative to the compound's), or the children.
    fn open(self) -> Opened<'a> {
        match self {
            Side::Whole(s, _) => Opened::Part(s, 0),
            Side::Node(c, i) => match c.tree().link(i) {
                Link::Part(p) => Opened::Part(&c.parts()[p], c.first_piece(p)),
                Link::Children(x, y) => Opened::Children(Side::Node(c, x), Side::Node(c, y)),
            },
        }
    }
}

/// Node pairs still to open, popped last in, first out: the first [`Pending::INLINE`] in the
/// call's own frame, more (deep trees only) on the heap, so a search of small compounds
/// allocates nothing.
struct Pending<'a> {
    inline: [(Side<'a>, Side<'a>); Pending::INLINE],
    len: usize,
    /// Used only while `inline` is full: its entries are the newest.
    spill: Vec<(Side<'a>, Side<'a>)>,
}

impl<'a> Pending<'a> {
    const INLINE: usize = 16;

    /// A stack holding `first`.
    fn new(first: (Side<'a>, Side<'a>)) -> Pending<'a> {
        Pending {
            inline: [first; Pending::INLINE],
            len: 1,
            spill: Vec::new(),
        }
    }

    fn push(&mut self, pair: (Side<'a>, Side<'a>)) {
        if self.len < Pending::INLINE {
            self.inline[self.len] = pair;
            self.len += 1;
        } else {
            self.spill.push(pair);
        }
    }

    fn pop(&mut self) -> Option<(Side<'a>, Side<'a>)> {
        if let Some(pair) = self.spill.pop() {
            return Some(pair);
        }
        self.len = self.len.checked_sub(1)?;
        Some(self.inline[self.len])
    }
}

/// What a [`Side`] holds.
enum Opened<'a> {
    /// A part and the number of its first piece.
    Part(&'a Shape, u32),
    /// Two child nodes.
    Children(Side<'a>, Side<'a>),
}

/// [`search`] on `a`, whose pieces are numbered from `oa`, and `b`, from `ob`.
fn pairs<S: PairSearch>(
    a: &Shape,
    oa: u32,
    b: &Shape,
    ob: u32,
    search: &mut S,
) -> ControlFlow<S::Break> {
    if !matches!(a, Shape::Compound(_)) && !matches!(b, Shape::Compound(_)) {
        return every_pair(a, oa, b, ob, search);
    }
    let (root_a, root_b) = (Side::of(a), Side::of(b));
    if search.keep(&root_a.aabb(), &root_b.aabb()).is_none() {
        return ControlFlow::Continue(());
    }
    let mut stack = Pending::new((root_a, root_b));
    while let Some((x, y)) = stack.pop() {
        // Open the side that is not a leaf; of two inner nodes, the larger.
        let children = match (x.open(), y.open()) {
            (Opened::Part(pa, fa), Opened::Part(pb, fb)) => {
                // A part may be a compound itself: its own tree takes over.
                pairs(pa, oa + fa, pb, ob + fb, search)?;
                continue;
            }
            (Opened::Children(x1, x2), Opened::Part(..)) => [(x1, y), (x2, y)],
            (Opened::Part(..), Opened::Children(y1, y2)) => [(x, y1), (x, y2)],
            (Opened::Children(x1, x2), Opened::Children(y1, y2)) => {
                if perimeter(&x.aabb()) >= perimeter(&y.aabb()) {
                    [(x1, y), (x2, y)]
                } else {
                    [(x, y1), (x, y2)]
                }
            }
        };
        let [p1, p2] = children.map(|(u, v)| search.keep(&u.aabb(), &v.aabb()));
        // The kept pair of lower priority on top of the stack.
        let mut push = |i: usize| stack.push(children[i]);
        match (p1, p2) {
            (Some(k1), Some(k2)) if k1 < k2 => {
                push(1);
                push(0);
            }
            (Some(_), Some(_)) => {
                push(0);
                push(1);
            }
            (Some(_), None) => push(0),
            (None, Some(_)) => push(1),
            (None, None) => {}
        }
    }
    ControlFlow::Continue(())
}

/// Every pair of pieces of two shapes that are not compounds, `a`'s pieces outermost.
fn every_pair<S: PairSearch>(
    a: &Shape,
    oa: u32,
    b: &Shape,
    ob: u32,
    search: &mut S,
) -> ControlFlow<S::Break> {
    let mut ia = oa;
    each_piece(a, &mut |pa| {
        let mut ib = ob;
        each_piece(b, &mut |pb| {
            search.visit_piece(pa, ia, pb, ib)?;
            ib += 1;
            ControlFlow::Continue(())
        })?;
        ia += 1;
        ControlFlow::Continue(())
    })
}

fn perimeter(b: &Aabb) -> f32 {
    let s = b.size();
    s.x + s.y
}

/// The distance between two boxes, a lower bound on the distance between any shapes inside
/// them (in `f64`: every `f32` box difference is exact there up to rounding of the squares).
pub(crate) fn box_distance(a: &Aabb, b: &Aabb) -> f64 {
    let gap = |lo_a: f32, hi_a: f32, lo_b: f32, hi_b: f32| {
        (f64::from(lo_b) - f64::from(hi_a))
            .max(f64::from(lo_a) - f64::from(hi_b))
            .max(0.0)
    };
    let dx = gap(a.min().x, a.max().x, b.min().x, b.max().x);
    let dy = gap(a.min().y, a.max().y, b.min().y, b.max().y);
    crate::math::sqrt(dx * dx + dy * dy)
}

/// A search that keeps every pair of boxes: what a search finds without pruning.
#[cfg(test)]
pub(crate) struct KeepAll<'s, S>(pub(crate) &'s mut S);

#[cfg(test)]
impl<S: PairSearch> PairSearch for KeepAll<'_, S> {
    type Break = S::Break;

    fn keep(&mut self, _: &Aabb, _: &Aabb) -> Option<f64> {
        Some(0.0)
    }

    fn visit(&mut self, a: &Convex, ia: u32, b: &Convex, ib: u32) -> ControlFlow<S::Break> {
        self.0.visit(a, ia, b, ib)
    }
}

/// Seeded compounds for the tests of the searches: boxes, discs, capsules and L-shaped
/// polygons scattered over `[0, spread]²`, some in nested compounds.
#[cfg(test)]
pub(crate) fn scattered_compound(seed: u64, parts: usize, spread: f32) -> Shape {
    use crate::shape::{Capsule, Circle, Polygon};
    use crate::test_support::{boxed, l_ring, v, xorshift};
    let mut bits = xorshift(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut next = move |n: u64| bits() % n;
    let leaf = |next: &mut dyn FnMut(u64) -> u64| -> Shape {
        // Integer coordinates: touching cases are common and exact.
        let (x, y) = (next(spread as u64) as f32, next(spread as u64) as f32);
        let s = 1.0 + next(3) as f32;
        match next(4) {
            0 => boxed(x, y, x + s, y + s),
            1 => Circle::new(v(x, y), s * 0.5).unwrap().into(),
            2 => Capsule::new(v(x, y), v(x + s, y), 0.5).unwrap().into(),
            _ => Polygon::new(&l_ring().map(|p| p * s + v(x, y)))
                .unwrap()
                .into(),
        }
    };
    let mut out: Vec<Shape> = Vec::new();
    while out.len() < parts {
        if next(8) == 0 {
            let inner: Vec<Shape> = (0..1 + next(4)).map(|_| leaf(&mut next)).collect();
            out.push(Compound::new(inner).unwrap().into());
        } else {
            out.push(leaf(&mut next));
        }
    }
    Compound::new(out).unwrap().into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Point;

    /// `n` point parts on a circle of radius `r` about the origin.
    fn ring(n: usize, r: f32) -> Shape {
        let parts = (0..n)
            .map(|k| {
                let at = glam::Vec2::from_angle(k as f32 * core::f32::consts::TAU / n as f32) * r;
                Point::new(at).unwrap().into()
            })
            .collect();
        Compound::new(parts).unwrap().into()
    }

    /// Counts the pairs of pieces a search visits, keeping boxes within `reach` of each other.
    struct Count {
        reach: f64,
        visits: usize,
    }

    impl PairSearch for Count {
        type Break = ();

        fn keep(&mut self, a: &Aabb, b: &Aabb) -> Option<f64> {
            let gap = box_distance(a, b);
            (gap <= self.reach).then_some(gap)
        }

        fn visit(&mut self, _: &Convex, _: u32, _: &Convex, _: u32) -> ControlFlow<()> {
            self.visits += 1;
            ControlFlow::Continue(())
        }
    }

    /// Issue 16, item 1: two concentric rings of point parts one unit apart, at the same
    /// spacing: four times the parts visit about four times the pairs (a scan of every pair
    /// visits sixteen times as many).
    #[test]
    fn compound_pairs_grow_linearly_with_parts_that_do_not_overlap() {
        let visits = |n: usize| {
            let r = n as f32 / core::f32::consts::TAU; // one unit between points
            let mut count = Count {
                reach: 1.5,
                visits: 0,
            };
            let _ = search(&ring(n, r), &ring(n, r + 1.0), &mut count);
            count.visits
        };
        let (small, large) = (visits(250), visits(1000));
        assert!(
            small >= 250,
            "every point has a neighbour within reach: {small}"
        );
        let growth = large as f64 / small as f64;
        assert!(
            growth < 4.5,
            "{small} -> {large} pairs visited: x{growth:.2}"
        );
    }

    #[test]
    fn box_distance_is_the_gap_between_boxes() {
        let b = |x0: f32, y0: f32, x1: f32, y1: f32| {
            Aabb::new(glam::Vec2::new(x0, y0), glam::Vec2::new(x1, y1)).unwrap()
        };
        assert_eq!(
            box_distance(&b(0.0, 0.0, 1.0, 1.0), &b(4.0, 5.0, 6.0, 6.0)),
            5.0
        );
        assert_eq!(
            box_distance(&b(0.0, 0.0, 1.0, 1.0), &b(1.0, 0.5, 2.0, 2.0)),
            0.0
        );
        assert_eq!(
            box_distance(&b(0.0, 0.0, 1.0, 1.0), &b(0.5, -3.0, 0.7, -2.0)),
            2.0
        );
    }

    #[test]
    fn pending_pairs_pop_last_in_first_out_past_the_inline_room() {
        // 40 pairs: 16 inline, 24 spilled to the heap; each told apart by its box.
        let shape: Shape = Point::new(glam::Vec2::ZERO).unwrap().into();
        let side = |k: usize| {
            let at = glam::Vec2::splat(k as f32);
            Side::Whole(&shape, Aabb::raw(at, at))
        };
        let mut stack = Pending::new((side(0), side(0)));
        for k in 1..40 {
            stack.push((side(k), side(k)));
        }
        // Popping some and pushing again, across the boundary, keeps the order.
        for k in (30..40).rev() {
            let (x, _) = stack.pop().unwrap();
            assert_eq!(x.aabb().min().x, k as f32);
        }
        stack.push((side(30), side(30)));
        for k in (0..31).rev() {
            let (x, _) = stack.pop().unwrap();
            assert_eq!(x.aabb().min().x, k as f32);
        }
        assert!(stack.pop().is_none());
    }
}
