//! The union contact's work bound: when the search would face more than [`LIMIT`] pairs of
//! parts ([`LIMIT_ROUNDED`] with rounded parts, their crossings within [`WORK_CROSSINGS`]),
//! or its steps pass [`WORK`] (polygons) or [`WORK_ROUNDED`] (rounded parts), the
//! shortest move that separates the whole shapes along the deepest pair's normal, cheaply,
//! instead of the shortest move of all.
//!
//! The searches' ([`union_polygons`](crate::query::union_polygons),
//! [`union_rounded`](crate::query::union_rounded)) cost grows faster than the number of
//! pairs of parts they weigh: hostile input (hundreds of tiny parts whose faces lie exactly
//! on each other, coordinates from `1e-36` to `3e38`) took seconds for one contact. Past the
//! bounds the answer is, along the deepest pair's normal `n`, the least move `t >= 0` of `b`
//! past every pair's interval of overlap. Those intervals are found in two passes:
//! - `B_j` moved by `t n` can meet `A_i` only where their extents across `n` overlap and `t`
//!   lies in `[min A_i·n − max B_j·n, max A_i·n − min B_j·n] / |n|²`: supersets of the true
//!   intervals, widened past rounding, so the least move past them bounds the answer;
//! - each pair whose superset starts within that bound then takes its true interval, where the
//!   line `−t n` runs through `B_j − A_i` dilated past rounding. Taking the supersets instead
//!   bridged gaps between the pairs' true intervals: a move twice as long as needed, and one
//!   that a shorter move along `n` already separated.
//!
//! The move leaves every pair at most touching, and any shorter move along `n` leaves some
//! pair overlapping (up to the rounding): the shortest separating move along `n`, not always
//! the shortest of all. Its cost is one pass over the parts, one over the pairs whose extents
//! across `n` overlap, and a Minkowski difference for each of those within the bound.

use crate::math::Vec2;
use crate::query::convex::clamp_to_f32;
use crate::query::minkowski;
use crate::query::parts::each_part;
use crate::query::Contact;
use crate::shape::convex::Convex;
use crate::shape::Shape;
use alloc::vec::Vec;
use core::ops::ControlFlow;
use glam::DVec2;

/// The most pairs of parts (pairs whose boxes overlap, or whose differences lie within the
/// search's reach) the search weighs; above it, [`contact`] answers. The bench's shapes stay
/// within it: two 12-vertex stars of at most 8 parts each have at most 64 pairs.
pub(crate) const LIMIT: usize = 64;

/// The most pairs of parts (whose boxes meet, or whose differences lie within reach) the
/// search with rounded parts weighs, when its crossing step stays within [`WORK_CROSSINGS`]:
/// two 12-vertex stars each with a disc have 72 pairs of parts within reach.
#[cfg(feature = "concave-search")]
pub(crate) const LIMIT_ROUNDED: usize = 2 * LIMIT;

/// Past [`LIMIT`] pairs of parts, the most pairs of faces the search with rounded parts
/// weighs for crossings (within [`LIMIT`] the pieces bound them). Two 12-vertex stars each
/// with a disc: 99 faces within the bound, 4,851 pairs.
#[cfg(feature = "concave-search")]
pub(crate) const WORK_CROSSINGS: usize = 1 << 14;

/// The most work the exact search of polygons does before [`contact`] answers instead: faces
/// weighed against one part pair's difference, each decision that needs exact products
/// counting 16 more, or 16 × 32 on heap expansions (coordinates far apart in magnitude). The
/// bench's two 12-vertex stars take at most 60,943 over 2,048 pairs, in both orders.
///
/// It counts only the work done: a face skipped by the cheap `f64` checks (inside one piece,
/// or all its exposed points surely farther than the best found) and the rest of a piece
/// dropped once its interval surely misses the face count nothing. Skipped faces only remove
/// counted work, and a dropped piece's own decisions too; the sort of the remaining spans
/// can, in principle, meet an undecided comparison the full sort did not (so a search within
/// a few decisions of the bound may end on its other side; a search that finishes answers
/// the same). The worst case stays bounded: the skips are `f64` passes over the at most
/// [`LIMIT`] pieces' faces for each of their faces, and everything that can be slow (exact
/// products, heap expansions) is still counted.
#[cfg(feature = "concave-search")]
pub(crate) const WORK: usize = 1 << 17;

/// The most points the search with rounded parts classifies against one part pair's
/// difference before [`contact`] answers instead (the bench's hitbox against a circle: at
/// most 52; a 12-vertex star against a 10-vertex star and a disc, 48 pairs: about 780, once
/// the faces inside one piece are dropped, a pass with a bound of its own of this size).
#[cfg(feature = "concave-search")]
pub(crate) const WORK_ROUNDED: usize = 1 << 12;

/// A search found more than [`LIMIT`] pairs of parts within its reach: [`contact`] answers.
#[cfg(feature = "concave-search")]
#[derive(Debug)]
pub(crate) struct OverLimit;

/// One convex part's extent along `n` and across it, its support points along `n` and `−n`,
/// and its hull (`points[hull.0..hull.1]` of [`extents`]' buffer) and radius.
struct Extent {
    along: (f64, f64),
    across: (f64, f64),
    bottom: DVec2,
    top: DVec2,
    hull: (usize, usize),
    radius: f32,
}

/// The extents of every part of `shape` along `n` and across it (`m`, perpendicular, of the
/// same length), each within rounding of its true extent (widened by a pad afterwards); the
/// parts' hull points go to `points`.
fn extents(shape: &Shape, n: DVec2, m: DVec2, out: &mut Vec<Extent>, points: &mut Vec<Vec2>) {
    let len = n.length();
    let _ = each_part(shape, &mut |part| {
        let start = points.len();
        points.extend_from_slice(part.points());
        let r = f64::from(part.radius) * len;
        // The radius along the unit normal; `n` is `−n` when the arguments are swapped, so
        // either order finds the same points.
        let out_along = n * (f64::from(part.radius) / len.max(f64::MIN_POSITIVE));
        let mut e = Extent {
            along: (f64::INFINITY, f64::NEG_INFINITY),
            across: (f64::INFINITY, f64::NEG_INFINITY),
            bottom: DVec2::ZERO,
            top: DVec2::ZERO,
            hull: (start, points.len()),
            radius: part.radius,
        };
        for p in part.points().iter().map(|p| p.as_dvec2()) {
            let (s, c) = (p.dot(n), p.dot(m));
            if s - r < e.along.0 {
                e.bottom = p - out_along;
            }
            if s + r > e.along.1 {
                e.top = p + out_along;
            }
            e.along = (e.along.0.min(s - r), e.along.1.max(s + r));
            e.across = (e.across.0.min(c - r), e.across.1.max(c + r));
        }
        out.push(e);
        ControlFlow::<()>::Continue(())
    });
}

/// The largest coordinate of the shape's box: the scale of the rounding here.
fn scale(shape: &Shape) -> f64 {
    let b = shape.aabb();
    f64::from(b.min().abs().max(b.max().abs()).max_element())
}

/// The contact of `a` and `b` that moves `b` along `normal` (the deepest pair of parts'
/// normal, `deepest` that pair's contact) past every pair of parts: see the module docs.
/// Swapping the arguments (and so negating the normal) gives the same contact, flipped.
pub(crate) fn contact(a: &Shape, b: &Shape, deepest: &Contact) -> Contact {
    let n = deepest.normal.as_dvec2();
    let m = n.perp();
    let (mut pa, mut pb, mut hulls_a, mut hulls_b) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    extents(a, n, m, &mut pa, &mut hulls_a);
    extents(b, n, m, &mut pb, &mut hulls_b);
    // Products of `f32` values are exact in `f64`; each sum, radius and difference below rounds
    // by at most a few units of `2^-53` of the shapes' scale (and `|n|` is 1 within `1e-6`).
    let pad = 1e-12 * (scale(a) + scale(b)) * 2.0 + f64::MIN_POSITIVE;
    let n2 = n.length_squared();
    // Each pair's interval of `t` from the extents (a superset of its true one), with the pair.
    let mut spans: Vec<(f64, f64, usize, usize)> = Vec::new();
    for (i, x) in pa.iter().enumerate() {
        for (j, y) in pb.iter().enumerate() {
            let apart = y.across.0 - pad > x.across.1 || y.across.1 + pad < x.across.0;
            if apart {
                continue;
            }
            let lo = (x.along.0 - y.along.1 - pad) / n2;
            let hi = (x.along.1 - y.along.0 + pad) / n2;
            spans.push((lo * (1.0 - 1e-12), hi * (1.0 + 1e-12) + pad, i, j));
        }
    }
    // The true move lies within the one past the supersets: only pairs starting by then count.
    let far = past_every(spans.iter().map(|s| (s.0, s.1))).max(pad) * 2.0;
    // Each of those pairs' true interval: where the line `−t n` runs through `B_j − A_i`
    // dilated by the pad (so it holds the true interval past the rounding: the dilation moves
    // each end out by at least the pad), and where the pair touches at its end (midway between
    // `A_i`'s support along `n` and `B_j`'s along `−n`, as `b` is before the move).
    let exact: Vec<(f64, f64, DVec2)> = spans
        .iter()
        .filter(|s| s.0 <= far)
        .filter_map(|&(_, _, i, j)| {
            let (x, y) = (&pa[i], &pb[j]);
            let part_a = Convex::slice(&hulls_a[x.hull.0..x.hull.1], x.radius);
            let part_b = Convex::slice(&hulls_b[y.hull.0..y.hull.1], y.radius);
            let mut diff = minkowski::difference(&part_a, &part_b);
            diff.radius += pad;
            let s = diff.line_span(-n * far)?;
            Some((s.enter * far, s.exit * far, (x.top + y.bottom) * 0.5))
        })
        .collect();
    let reach = past_every(exact.iter().map(|s| (s.0, s.1)));
    let depth = up_to_f32(reach);
    // The point of a pair that ends exactly there (the least, so both orders agree).
    let point = exact
        .iter()
        .filter(|s| s.1 == reach && s.0 <= reach)
        .map(|s| clamp_to_f32(s.2))
        .min_by(|p, q| p.x.total_cmp(&q.x).then(p.y.total_cmp(&q.y)))
        .unwrap_or(deepest.points[0]);
    Contact::new(deepest.normal, depth, &[point])
}

/// The least `t >= 0` that no interval `(lo, hi)` holds inside: every interval starting at or
/// before it is passed (one only touching it is passed too: moving on would enter it).
fn past_every(spans: impl Iterator<Item = (f64, f64)>) -> f64 {
    let mut spans: Vec<(f64, f64)> = spans.collect();
    crate::sort::sort_by(&mut spans, |x, y| {
        x.0.total_cmp(&y.0).then(x.1.total_cmp(&y.1))
    });
    let mut reach = 0.0f64;
    for (lo, hi) in spans {
        if lo > reach {
            break;
        }
        reach = reach.max(hi);
    }
    reach
}

/// The least `f32` at least `x` (`x >= 0`), `f32::MAX` past it.
fn up_to_f32(x: f64) -> f32 {
    let d = x as f32;
    let d = if f64::from(d) < x { d.next_up() } else { d };
    d.min(f32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec2;
    use crate::shape::{Aabb, Compound};
    use alloc::vec;

    fn boxed(x0: f32, y0: f32, x1: f32, y1: f32) -> Shape {
        Aabb::new(Vec2::new(x0, y0), Vec2::new(x1, y1))
            .unwrap()
            .into()
    }

    #[test]
    fn the_move_passes_every_pair_across_the_normal() {
        // `a`: two boxes side by side along x; `b` a box overlapping the first. Pushed along
        // +x, `b` must pass both (x from 0 to 4), not just the first.
        let a: Shape = Compound::new(vec![boxed(0.0, 0.0, 2.0, 2.0), boxed(2.0, 0.0, 4.0, 2.0)])
            .unwrap()
            .into();
        let b = boxed(1.0, 0.5, 1.5, 1.5);
        let deepest = Contact::new(Vec2::X, 0.5, &[Vec2::ZERO]);
        let c = contact(&a, &b, &deepest);
        assert_eq!(c.normal, Vec2::X);
        assert!(c.depth >= 3.0 && c.depth < 3.0 + 1e-5, "{c:?}");
    }

    #[test]
    fn parts_beside_the_path_do_not_lengthen_it() {
        let a: Shape = Compound::new(vec![boxed(0.0, 0.0, 2.0, 2.0), boxed(2.0, 5.0, 9.0, 6.0)])
            .unwrap()
            .into();
        let b = boxed(1.0, 0.5, 1.5, 1.5);
        let deepest = Contact::new(Vec2::X, 0.5, &[Vec2::ZERO]);
        let c = contact(&a, &b, &deepest);
        assert!(c.depth >= 1.0 && c.depth < 1.0 + 1e-5, "{c:?}");
    }
}
