//! The contact of two shapes where either is concave or compound: the shortest move of the
//! whole of `b` that leaves the two only touching.
//!
//! Moving `b` by `v` makes the shapes overlap exactly when `−v` lies inside
//! `D = B − A = ∪ (B_j − A_i)`, the union of the Minkowski differences of their convex parts.
//! The depth is the distance from the origin to the boundary of that union, and the normal
//! points from the nearest boundary point `x` back through the origin (`v = −x`). Where two
//! parts' differences meet face to face (a seam) the union has no boundary: a point of `b`
//! on the diagonal of a concave polygon's decomposition is inside it, not on its edge.
//!
//! Shapes whose parts are all axis-aligned boxes take [`union_boxes`], exact comparisons of
//! coordinates; a hitbox of boxes and a circle takes
//! [`union_box_circle`](crate::query::union_box_circle) first (called from
//! `dispatch::contact`), which decides what it can clearly by the rounded rectangles'
//! distances and leaves the rest to the others. Of the others, most pairs are decided by
//! [`union_certified`]: the deepest pair of parts' own contact, when no other pair's
//! difference comes near its point. The rest take a search:
//! two polygons or boxes (no compound) whose interiors overlap [`union_outline_search`], on
//! the reduced convolution of their outlines; other shapes made of polygons, segments and
//! points [`union_polygons`], whose decisions are exact; shapes with a rounded part (a circle
//! or capsule, in a compound or as the other shape) [`union_rounded`], whose decisions carry
//! a tolerance. Where more than [`LIMIT`](union_bounded::LIMIT) pairs of parts would enter
//! the search over parts (twice that with a rounded part, while its crossings stay within a
//! bound of their own), and the outline search does not take the pair (compounds, rounded
//! parts, more than its own limits), [`union_bounded`] answers the shortest separating move
//! along the deepest pair's normal, not always the shortest of all.
//!
//! The searches are the crate's largest code; the `concave-search` feature (on by default)
//! builds them, [`union_boxes`] and [`union_box_circle`](crate::query::union_box_circle).
//! Without it, the pairs the certificate leaves undecided take [`union_bounded`]'s move
//! too: it separates the shapes, but is not always the shortest.

#[cfg(feature = "concave-search")]
use crate::query::parts::each_part;
use crate::query::union_bounded::{self, LIMIT};
use crate::query::union_certified::Fast;
#[cfg(feature = "concave-search")]
use crate::query::{union_boxes, union_outline_search, union_polygons, union_rounded};
use crate::query::{union_certified, Contact};
use crate::shape::Shape;
#[cfg(feature = "concave-search")]
use core::ops::ControlFlow;

/// Some convex part of `shape` has a radius.
#[cfg(feature = "concave-search")]
fn rounded(shape: &Shape) -> bool {
    each_part(shape, &mut |p| {
        if p.radius == 0.0 {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    })
    .is_break()
}

/// The contact of `a` and `b`, at least one of them concave or compound: the minimum
/// translation of the whole of `b`; `None` when they do not intersect.
///
/// (`#[inline]`: whether `dispatch::contact` inlined it, and the box-only search with it,
/// hung on how the crate fell into codegen units; hitbox–box pairs paid 24 instructions
/// when it did not.)
#[inline]
pub(crate) fn contact(a: &Shape, b: &Shape) -> Option<Contact> {
    // (A hitbox of boxes and a circle `dispatch::contact` sends to `union_box_circle`
    // first: it reaches here only when that path steps aside.)
    // All boxes: exact comparisons of coordinates, cheaper than the certificate.
    #[cfg(feature = "concave-search")]
    if let Some(decided) = union_boxes::contact(a, b) {
        return decided;
    }
    let deepest = match union_certified::contact(a, b) {
        Fast::Decided(decided) => return decided,
        // `pairs > LIMIT` first: below it, no walk over the parts for `limit`.
        Fast::Search { deepest, pairs } if pairs > LIMIT && pairs > limit(a, b) => {
            return Some(beyond_limit(a, b, &deepest));
        }
        Fast::Search { deepest, .. } => deepest,
    };
    search(a, b, &deepest)
}

/// More pairs of parts than the searches over parts take: two polygons or boxes still get
/// the outline search (its own limits count outline corners, not pairs), the others
/// [`union_bounded`]'s move.
fn beyond_limit(a: &Shape, b: &Shape, deepest: &Contact) -> Contact {
    #[cfg(feature = "concave-search")]
    if let Some(found) = union_outline_search::contact(a, b) {
        return found;
    }
    union_bounded::contact(a, b, deepest)
}

/// The most pairs of parts whose boxes meet that enter the search: [`LIMIT`], or for rounded
/// shapes [`LIMIT_ROUNDED`](union_bounded::LIMIT_ROUNDED), as that search also counts its
/// crossings past [`LIMIT`].
#[cfg(feature = "concave-search")]
fn limit(a: &Shape, b: &Shape) -> usize {
    if rounded(a) || rounded(b) {
        union_bounded::LIMIT_ROUNDED
    } else {
        LIMIT
    }
}

#[cfg(not(feature = "concave-search"))]
fn limit(_: &Shape, _: &Shape) -> usize {
    LIMIT
}

/// The shortest move, searched over the union of the parts' differences.
#[cfg(feature = "concave-search")]
fn search(a: &Shape, b: &Shape, deepest: &Contact) -> Option<Contact> {
    // Polygons and boxes whose interiors overlap: the search on their outlines.
    if let Some(found) = union_outline_search::contact(a, b) {
        return Some(found);
    }
    let searched = if rounded(a) || rounded(b) {
        union_rounded::contact(a, b)
    } else {
        union_polygons::contact(a, b)
    };
    // The search's own reach held more than `LIMIT` pairs.
    searched.unwrap_or_else(|_| Some(union_bounded::contact(a, b, deepest)))
}

/// Without the search: a separating move along the deepest pair's normal.
#[cfg(not(feature = "concave-search"))]
fn search(a: &Shape, b: &Shape, deepest: &Contact) -> Option<Contact> {
    Some(union_bounded::contact(a, b, deepest))
}
