//! The union contact when every part of both shapes is an axis-aligned box (hitboxes,
//! rectangles of a decomposed polygon, boxes, axis-parallel segments, points): each
//! difference `D_k = B_j − A_i` is the box `[b.min − a.max, b.max − a.min]`, and the search
//! needs only comparisons of coordinates.
//!
//! The union's boundary runs along the lines `x = X` and `y = Y` of the boxes' sides, so its
//! point nearest the origin is the foot `(X, 0)` or `(0, Y)` of such a line, a corner
//! `(X, Y)`, or the origin itself. A point is on the boundary when some box holds it and some
//! open quadrant around it is covered by no box (boxes covering all four quadrants around a
//! point meet there face to face, a seam: inside). Every coordinate is a difference of two
//! `f32`s, exact in `f64` (checked; otherwise the general search decides), so every decision
//! is an exact comparison; only the distance that picks the nearest candidate is rounded.

use crate::math::Vec2;
use crate::query::convex::clamp_to_f32;
use crate::query::parts::each_part;
use crate::query::Contact;
use crate::shape::convex::Convex;
use crate::shape::Shape;
use core::f64::consts::FRAC_1_SQRT_2;
use core::ops::ControlFlow;
use glam::DVec2;

/// The most parts of one shape, and of pairs, this search takes: its candidates grow with
/// the square of the pairs.
const MOST_PARTS: usize = 8;
const MOST_PAIRS: usize = 8;

/// Boxes as `(min, max)`.
type Boxes = ([(Vec2, Vec2); MOST_PARTS], usize);

/// The contact of `a` and `b` when every part of both is an axis-aligned box: `Some(None)`
/// when they do not intersect; `None` when the search does not apply (another kind of part,
/// too many parts, or a difference that `f64` does not hold exactly).
#[inline]
pub(crate) fn contact(a: &Shape, b: &Shape) -> Option<Option<Contact>> {
    let (pa, na) = boxes(a)?;
    let (pb, nb) = boxes(b)?;
    if na * nb > MOST_PAIRS {
        return None;
    }
    // The differences, `(lo, hi, a part, b part)`, of pairs whose boxes meet or nearly.
    let mut d = [(DVec2::ZERO, DVec2::ZERO, 0usize, 0usize); MOST_PAIRS];
    let mut n = 0;
    for (i, &(amin, amax)) in pa[..na].iter().enumerate() {
        for (j, &(bmin, bmax)) in pb[..nb].iter().enumerate() {
            d[n] = (diff(bmin, amax)?, diff(bmax, amin)?, i, j);
            n += 1;
        }
    }
    let d = &d[..n];
    if !d.iter().any(|k| holds(k, DVec2::ZERO)) {
        return Some(None);
    }
    // The candidates' coordinates: 0 and every side, as keys sorted by size.
    let mut xs = [size_key(0.0); 2 * MOST_PAIRS + 1];
    let mut ys = [size_key(0.0); 2 * MOST_PAIRS + 1];
    for (k, &(lo, hi, _, _)) in d.iter().enumerate() {
        (xs[2 * k + 1], xs[2 * k + 2]) = (size_key(lo.x), size_key(hi.x));
        (ys[2 * k + 1], ys[2 * k + 2]) = (size_key(lo.y), size_key(hi.y));
    }
    let m = 2 * n + 1;
    xs[..m].sort_unstable();
    ys[..m].sort_unstable();
    // The nearest boundary candidate, nearest coordinates first (a candidate farther than
    // the best found ends its row, a row that starts farther ends the search); ties to the
    // smaller coordinates, for determinism.
    let mut best: Option<(f64, DVec2)> = None;
    // Every box holding the origin lies in the union: nothing nearer than its depth there is
    // on the boundary (rounded down a little, so that no candidate is skipped by rounding).
    let deepest = d
        .iter()
        .filter(|k| holds(k, DVec2::ZERO))
        .map(|&(lo, hi, _, _)| (-lo).min(hi).min_element())
        .fold(0.0f64, f64::max);
    let inside = deepest * deepest * (1.0 - 1e-12);
    for x in xs[..m].iter().map(|&k| from_size_key(k)) {
        if best.is_some_and(|(s, _)| x * x > s) {
            break;
        }
        for y in ys[..m].iter().map(|&k| from_size_key(k)) {
            let p = DVec2::new(x, y);
            let r = p.length_squared();
            if best.is_some_and(|(s, _)| r > s) {
                break;
            }
            // Not farther: nearer, or as near with smaller coordinates.
            let nearer = best.is_none_or(|(s, q)| r < s || (p.x, p.y) < (q.x, q.y));
            if nearer && r >= inside && on_boundary(d, p) {
                best = Some((r, p));
            }
        }
    }
    // The origin is held, so some candidate (at worst a corner of the union's box) is on
    // the boundary.
    let (_, p) = best?;
    let (normal, depth) = if p == DVec2::ZERO {
        (-exit_direction(d), 0.0)
    } else {
        let depth = p.length();
        (-p / depth, depth)
    };
    // Where the pair holding `p` touches after `b` moves by `−p`, taken back half of it.
    let &(_, _, i, j) = d.iter().find(|k| holds(k, p))?;
    let ((amin, amax), (bmin, bmax)) = (pa[i], pb[j]);
    let lo = amin.as_dvec2().max(bmin.as_dvec2() - p);
    let hi = amax.as_dvec2().min(bmax.as_dvec2() - p);
    let point = clamp_to_f32((lo + hi) * 0.5 + p * 0.5);
    Some(Some(Contact::new(normal.as_vec2(), depth as f32, &[point])))
}

/// The parts of `s` as boxes, when each is one (and they are few).
fn boxes(s: &Shape) -> Option<Boxes> {
    let mut out: Boxes = ([(Vec2::ZERO, Vec2::ZERO); MOST_PARTS], 0);
    // Boxes and hitboxes of boxes directly.
    match s {
        Shape::Aabb(b) => {
            out.0[0] = (b.min(), b.max());
            return Some((out.0, 1));
        }
        Shape::Compound(c) if c.parts().len() <= MOST_PARTS => {
            for (k, part) in c.parts().iter().enumerate() {
                let Shape::Aabb(b) = part else {
                    return boxes_of_parts(s);
                };
                out.0[k] = (b.min(), b.max());
            }
            return Some((out.0, c.parts().len()));
        }
        _ => {}
    }
    boxes_of_parts(s)
}

/// The parts of `s` as boxes, part by part, when each is one (and they are few).
fn boxes_of_parts(s: &Shape) -> Option<Boxes> {
    let mut out: Boxes = ([(Vec2::ZERO, Vec2::ZERO); MOST_PARTS], 0);
    let r = each_part(s, &mut |c: &Convex| match as_box(c) {
        Some(b) if out.1 < MOST_PARTS => {
            out.0[out.1] = b;
            out.1 += 1;
            ControlFlow::Continue(())
        }
        _ => ControlFlow::Break(()),
    });
    r.is_continue().then_some(out)
}

/// The part as `(min, max)` when it is an axis-aligned box: a rectangle's four corners, an
/// axis-parallel segment or a point, without radius.
fn as_box(c: &Convex) -> Option<(Vec2, Vec2)> {
    let pts = c.points();
    if c.radius != 0.0 || pts.is_empty() {
        return None;
    }
    let (min, max) = pts
        .iter()
        .fold((pts[0], pts[0]), |(lo, hi), &q| (lo.min(q), hi.max(q)));
    let corner = |q: &Vec2| (q.x == min.x || q.x == max.x) && (q.y == min.y || q.y == max.y);
    let is_box = match pts.len() {
        1 => true,
        2 => min.x == max.x || min.y == max.y,
        // A convex hull's points are distinct: four corners are the rectangle.
        4 => pts.iter().all(corner),
        _ => false,
    };
    is_box.then_some((min, max))
}

/// `p − q` in `f64`, when exact (a difference of `f32`s with exponents far apart rounds).
fn diff(p: Vec2, q: Vec2) -> Option<DVec2> {
    let (p, q) = (p.as_dvec2(), q.as_dvec2());
    let d = p - q;
    // Knuth's two-sum error of `p + (−q)`, both coordinates at once: zero exactly when the
    // difference is exact.
    let bv = d - p;
    let err = (p - (d - bv)) + (-q - bv);
    err.cmpeq(DVec2::ZERO).all().then_some(d)
}

const SIGN: u64 = 1 << 63;

/// A key that orders as `(|x|, x)` does in `total_cmp`'s order, sizes first, then negative
/// before positive (−0 before +0): `|x|`'s bits (the sign bit clear, so an unsigned
/// comparison is `total_cmp`'s), then 0 for negative, 1 for positive. Cheaper to sort than
/// the floats.
fn size_key(x: f64) -> u64 {
    (x.to_bits() & !SIGN) << 1 | u64::from(x.to_bits() & SIGN == 0)
}

/// The `x` of [`size_key`]`(x)`.
fn from_size_key(k: u64) -> f64 {
    let sign = if k & 1 == 0 { SIGN } else { 0 };
    f64::from_bits(k >> 1 | sign)
}

/// The closed box of difference `k` holds `p`.
fn holds(k: &(DVec2, DVec2, usize, usize), p: DVec2) -> bool {
    k.0.cmple(p).all() && p.cmple(k.1).all()
}

/// Which open quadrants around `p` some box covers: bit `q` for quadrant `q`,
/// counter-clockwise from `(+, +)`.
fn covered(d: &[(DVec2, DVec2, usize, usize)], p: DVec2) -> u8 {
    let mut bits = 0;
    for &(lo, hi, _, _) in d {
        let (right, left) = (lo.x <= p.x && p.x < hi.x, lo.x < p.x && p.x <= hi.x);
        let (up, down) = (lo.y <= p.y && p.y < hi.y, lo.y < p.y && p.y <= hi.y);
        bits |= u8::from(right && up)
            | u8::from(left && up) << 1
            | u8::from(left && down) << 2
            | u8::from(right && down) << 3;
    }
    bits
}

/// `p` is on the union's boundary: held by a box, with a quadrant around it covered by none.
fn on_boundary(d: &[(DVec2, DVec2, usize, usize)], p: DVec2) -> bool {
    let (mut held, mut bits) = (false, 0u8);
    for &(lo, hi, _, _) in d {
        let (lx, hx) = (lo.x <= p.x, p.x <= hi.x);
        let (ly, hy) = (lo.y <= p.y, p.y <= hi.y);
        if !(lx && hx && ly && hy) {
            // A box not holding `p` covers no quadrant around it either.
            continue;
        }
        held = true;
        let (right, left) = (p.x < hi.x, lo.x < p.x);
        let (up, down) = (p.y < hi.y, lo.y < p.y);
        bits |= u8::from(right && up)
            | u8::from(left && up) << 1
            | u8::from(left && down) << 2
            | u8::from(right && down) << 3;
        if bits == 0b1111 {
            return false;
        }
    }
    held
}

/// At the origin on the boundary: the middle of the widest run of uncovered quadrants (the
/// first such run counter-clockwise from `+x` on ties), a direction that leaves the union.
fn exit_direction(d: &[(DVec2, DVec2, usize, usize)]) -> DVec2 {
    let bits = covered(d, DVec2::ZERO);
    let free = |q: usize| bits & (1 << (q % 4)) == 0;
    let (mut start, mut len) = (0, 0);
    for s in 0..4 {
        // Runs start after a covered quadrant (or anywhere, when none is covered).
        if !free(s) || (bits != 0 && free(s + 3)) {
            continue;
        }
        let l = (0..4).take_while(|&k| free(s + k)).count();
        if l > len {
            (start, len) = (s, l);
        }
    }
    // The middle, in eighths of a turn: `2 start + len`.
    const R: f64 = FRAC_1_SQRT_2;
    const EIGHTHS: [(f64, f64); 8] = [
        (1.0, 0.0),
        (R, R),
        (0.0, 1.0),
        (-R, R),
        (-1.0, 0.0),
        (-R, -R),
        (0.0, -1.0),
        (R, -R),
    ];
    let (x, y) = EIGHTHS[(2 * start + len) % 8];
    DVec2::new(x, y)
}

#[cfg(all(test, feature = "concave-search"))]
mod tests {
    use super::*;
    use crate::query::union_polygons;
    use crate::shape::{Aabb, Compound};
    use crate::test_support::xorshift;
    use alloc::vec::Vec;

    /// A hitbox of 1 to 4 boxes on a small integer grid, often flush or overlapping.
    fn hitbox(next: &mut dyn FnMut(i32) -> f32, parts: usize) -> Shape {
        let parts: Vec<Shape> = (0..parts)
            .map(|_| {
                let (x, y) = (next(7) - 3.0, next(7) - 3.0);
                let (w, h) = (next(4) + 1.0, next(4) + 1.0);
                Aabb::raw(Vec2::new(x, y), Vec2::new(x + w, y + h)).into()
            })
            .collect();
        match Compound::new(parts) {
            Ok(c) => c.into(),
            Err(e) => unreachable!("{e}"),
        }
    }

    /// Some part of `a` and some part of `b` moved by `by` share interior.
    fn interiors_meet(a: &Shape, b: &Shape, by: Vec2) -> bool {
        let (Some((pa, na)), Some((pb, nb))) = (boxes(a), boxes(b)) else {
            unreachable!("hitboxes are boxes")
        };
        pa[..na].iter().any(|&(amin, amax)| {
            pb[..nb]
                .iter()
                .any(|&(bmin, bmax)| (bmin + by).cmplt(amax).all() && amin.cmplt(bmax + by).all())
        })
    }

    #[test]
    fn size_keys_order_as_size_then_value() {
        let by_size = |v: &f64, w: &f64| v.abs().total_cmp(&w.abs()).then(v.total_cmp(w));
        let mut values = alloc::vec![0.0, -0.0, 1.5, -1.5, 3.0, -0.25, 1e-300, -1e300, 7.0];
        let mut keys: Vec<u64> = values.iter().map(|&v| size_key(v)).collect();
        values.sort_unstable_by(by_size);
        keys.sort_unstable();
        let back: Vec<u64> = keys.iter().map(|&k| from_size_key(k).to_bits()).collect();
        let want: Vec<u64> = values.iter().map(|v| v.to_bits()).collect();
        assert_eq!(back, want);
    }

    #[test]
    fn boxes_agree_with_the_general_exact_search() {
        // The general search decides the same union by exact predicates on faces: the two
        // must give the same depth, and this one's normal must lead out of the union.
        let mut bits = xorshift(0x2545_f491_4f6c_dd1d);
        let mut next = |n: i32| (bits() % n as u64) as f32;
        let mut decided = 0;
        for round in 0..4000 {
            let a = hitbox(&mut next, 2 + round % 3);
            let b = hitbox(&mut next, 1 + round % 2);
            let Some(got) = contact(&a, &b) else {
                continue;
            };
            decided += 1;
            let want = union_polygons::contact(&a, &b).unwrap();
            match (got, want) {
                (None, None) => {}
                (Some(g), Some(w)) => {
                    assert!((g.depth - w.depth).abs() <= 1e-5, "{a:?} {b:?} {g:?} {w:?}");
                    // Equally deep ways out may differ; each must part the interiors.
                    let by = g.normal * (g.depth + 1e-3);
                    assert!(!interiors_meet(&a, &b, by), "{a:?} {b:?} {g:?} {w:?}");
                }
                other => panic!("{a:?} {b:?} {other:?}"),
            }
        }
        assert!(decided > 3000, "{decided}");
    }
}
