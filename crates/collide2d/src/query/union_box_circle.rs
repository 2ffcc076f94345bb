//! The union contact of a hitbox of axis-aligned boxes and a circle (either order), without
//! the general search: each difference `D_k` of a box and the circle is a rounded
//! rectangle, a box `[lo, hi]` grown by the radius `r`, whose signed distance is cheap.
//!
//! The union's nearest boundary point is the deepest pair's own (when no other difference
//! covers it: that pair's contact, bit for bit as the certificate gives it), or one of these
//! candidates: a rounded rectangle's nearest point on a side or arc, a side's end, or a
//! crossing of two rounded rectangles' boundaries (side-side, side-arc, arc-arc). Nearest
//! first, the first candidate no difference covers and whose differences' outward normals
//! leave a way out (two face to face are a seam) is the answer.
//!
//! Every decision is taken only when it is clear by a margin far above rounding and the
//! general search's tolerance: where a point is within that margin of another difference,
//! two normals are nearly opposite, two pairs are equally deep, or two candidates nearly
//! equally near, this path steps aside and the general search
//! ([`union_rounded`](crate::query::union_rounded)) decides, so the two never disagree on a
//! decision.
//!
//! This file takes the misses and the pairs the deepest pair decides; `search` the others
//! (with `crossings`), and `touch` builds the contact at the point found.

use crate::query::{circle_aabb, Contact};
use crate::shape::{Aabb, Shape};
use glam::DVec2;

mod crossings;
mod few;
mod search;
mod touch;

/// The most boxes this path takes.
const MOST_PARTS: usize = 8;

/// A decision is clear when its distance passes this margin, relative to the largest
/// coordinate: the certificate's, four times the convex contacts' documented error.
const CLEAR: f64 = 4e-6;

/// A point lies on a difference's boundary when within this of it, relative to the largest
/// coordinate: below the general search's tolerance (`1e-9`), above rounding.
const ON: f64 = 1e-11;

/// Normals at a point whose cross product is below this are face to face: undecided.
const OPPOSITE: f64 = 1e-6;

/// A rounded rectangle: the box `[lo, hi]` grown by `r`.
#[derive(Clone, Copy)]
struct Rounded {
    lo: DVec2,
    hi: DVec2,
    r: f64,
}

impl Rounded {
    /// The signed distance from `x` to the boundary (negative inside), and the outward
    /// normal there.
    #[inline]
    fn distance(&self, x: DVec2) -> (f64, DVec2) {
        let q = x.clamp(self.lo, self.hi);
        let d = x - q;
        if d != DVec2::ZERO {
            let len = d.length();
            return (len - self.r, d / len);
        }
        // Inside the box: the nearest side.
        let sides = [
            (x.x - self.lo.x, DVec2::NEG_X),
            (self.hi.x - x.x, DVec2::X),
            (x.y - self.lo.y, DVec2::NEG_Y),
            (self.hi.y - x.y, DVec2::Y),
        ];
        let (t, n) = sides
            .iter()
            .fold(sides[0], |m, &s| if s.0 < m.0 { s } else { m });
        (-t - self.r, n)
    }
}

/// The parts of a hitbox, when they are few, and its bounding box (the caller checks that
/// each part is an axis-aligned box).
fn boxes(s: &Shape) -> Option<(&[Shape], Aabb)> {
    let Shape::Compound(c) = s else {
        return None;
    };
    let parts = c.parts();
    (parts.len() <= MOST_PARTS).then_some((parts, c.aabb()))
}

/// The contact of `a` and `b` when one is a hitbox of boxes and the other a circle:
/// `Some(None)` when they do not intersect; `None` when this path does not apply or steps
/// aside (see the module's docs).
pub(crate) fn contact(a: &Shape, b: &Shape) -> Option<Option<Contact>> {
    let ((parts, hull), circle, flipped) = match (a, b) {
        (_, Shape::Circle(c)) => (boxes(a)?, c, false),
        (Shape::Circle(c), _) => (boxes(b)?, c, true),
        _ => return None,
    };
    let r = f64::from(circle.radius());
    let centre = circle.center().as_dvec2();
    if r <= 0.0 {
        return None;
    }
    // (A circle clear of the hull `dispatch::contact` answers before this.) The deepest
    // pair, as the certificate finds it; equally deep pairs step aside.
    let mut deepest: Option<(f32, usize)> = None;
    let mut tied = false;
    for (k, part) in parts.iter().enumerate() {
        let Shape::Aabb(bx) = part else {
            return None;
        };
        // The depth `dispatch::contact` gives the pair; its contact only for the deepest.
        if circle_aabb::intersects(circle, bx) {
            let depth = circle_aabb::depth(circle, bx);
            match deepest {
                Some((best, _)) if depth < best => {}
                Some((best, _)) if depth == best => tied = true,
                _ => {
                    tied = false;
                    deepest = Some((depth, k));
                }
            }
        }
    }
    let Some((_, k0)) = deepest else {
        return Some(None);
    };
    let Shape::Aabb(bx) = &parts[k0] else {
        return None;
    };
    let first = circle_aabb::contact(circle, bx);
    let first = if flipped { first } else { first.flipped() };
    // The largest coordinate of the two boxes (in the order of a fold from 0).
    let scale = {
        let (big, around) = (|v: crate::math::Vec2| v.abs().max_element(), circle.aabb());
        let corners = [hull.min(), hull.max(), around.min(), around.max()];
        f64::from(corners.into_iter().fold(0.0f32, |m, v| m.max(big(v))))
    };
    let margin = CLEAR * scale;
    let low = f64::from(first.depth);
    if tied || low <= margin {
        return None;
    }
    // The differences, as rounded rectangles around the origin.
    let difference = |part: &Shape| {
        let Shape::Aabb(bx) = part else {
            return None;
        };
        let (min, max) = (bx.min().as_dvec2(), bx.max().as_dvec2());
        let (lo, hi) = if flipped {
            (min - centre, max - centre)
        } else {
            (centre - max, centre - min)
        };
        Some(Rounded { lo, hi, r })
    };
    let x0 = -first.normal.as_dvec2() * low;
    // The deepest pair's point, clear of every other difference: its contact is the answer.
    let mut covered = false;
    // (Clearly outside a difference, by its squared distance, `x0` is not measured.)
    let apart = r + 2.0 * margin;
    for (k, part) in parts.iter().enumerate() {
        let piece = difference(part)?;
        if k == k0 || (x0 - x0.clamp(piece.lo, piece.hi)).length_squared() > apart * apart {
            continue;
        }
        let (sd, _) = piece.distance(x0);
        if sd < -margin {
            covered = true;
        } else if sd <= margin {
            return None;
        }
    }
    if !covered {
        return Some(Some(first));
    }
    // Covered: the search over the union's boundary, on all the differences.
    let mut d = [Rounded {
        lo: DVec2::ZERO,
        hi: DVec2::ZERO,
        r,
    }; MOST_PARTS];
    for (piece, part) in d.iter_mut().zip(parts) {
        *piece = difference(part)?;
    }
    let d = &d[..parts.len()];
    let found = search::nearest(d, low, scale).ok()?;
    let (depth, x, on) = found?;
    let normal = -x / depth;
    // The boxes `x` lies on (the first two distinct points are kept).
    let on = parts.iter().enumerate().filter_map(|(k, part)| match part {
        Shape::Aabb(bx) if on & (1 << k) != 0 => Some(bx),
        _ => None,
    });
    Some(Some(touch::contact_at(
        x, normal, depth, circle, on, flipped,
    )))
}

#[cfg(test)]
mod tests;
