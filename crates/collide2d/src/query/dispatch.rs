//! The one place a pair of shapes meets its algorithm.
//!
//! Specialised pairs come first; everything else that is convex takes the generic hull-plus-
//! radius path, and compound or concave shapes go part by part. A mirrored pair `(b, a)` is the
//! same algorithm with the arguments swapped and the contact flipped. Contacts and closest
//! points are computed in a canonical argument order, so both orders agree bit for bit.

use crate::query::{
    aabb_aabb, circle_aabb, circle_capsule, circle_circle, convex, obb_obb, obb_obb::BoxView,
    parts, union_contact, ClosestPoints, Contact,
};
use crate::shape::convex::{box_hull, Convex};
use crate::shape::{Aabb, Circle, ConvexPolygon, Obb, Shape};
use core::cmp::Ordering;

#[inline]
pub(crate) fn intersects(a: &Shape, b: &Shape) -> bool {
    match (a, b) {
        // Two arms, not one or-pattern: merging the two orders' references costs every
        // pair's loop a register (one more instruction each, measured).
        (Shape::Circle(c), Shape::Capsule(k)) => circle_capsule::intersects(c, k),
        (Shape::Capsule(k), Shape::Circle(c)) => circle_capsule::intersects(c, k),
        (Shape::Circle(a), Shape::Circle(b)) => circle_circle::intersects(a, b),
        (Shape::Aabb(a), Shape::Aabb(b)) => aabb_aabb::intersects(a, b),
        (Shape::Circle(c), Shape::Aabb(r)) | (Shape::Aabb(r), Shape::Circle(c)) => {
            circle_aabb::intersects(c, r)
        }
        (Shape::Obb(x), Shape::Obb(y)) => obbs_intersect(x, y),
        (Shape::Aabb(x), Shape::Obb(y)) => aabb_obb_intersect(x, y),
        (Shape::Obb(x), Shape::Aabb(y)) => aabb_obb_intersect(y, x),
        (Shape::ConvexPolygon(x), Shape::ConvexPolygon(y))
            if x.points().len() >= 3 && y.points().len() >= 3 =>
        {
            convex::polygons_intersect(x.points(), y.points(), x.extent().max(y.extent()))
        }
        _ => match (a.as_convex(), b.as_convex()) {
            (Some(ca), Some(cb)) => convex::intersects(&ca, &cb),
            _ => a.aabb().overlaps(&b.aabb()) && parts::intersects(a, b),
        },
    }
}

#[inline]
pub(crate) fn contact(a: &Shape, b: &Shape) -> Option<Contact> {
    match (a, b) {
        // Circles apart, or overlapping with centers that differ in both coordinates, need
        // no canonical order (see `contact_or`); the others take it. (Concentric circles get
        // `+X`.)
        (Shape::Circle(x), Shape::Circle(y)) => return circles_contact(x, y),
        // Pairs of different kinds run in kind order, which is what `canonical_order` picks for
        // them (it compares kinds first), so these skip it and give the same bits.
        (Shape::Circle(c), Shape::Capsule(k)) => {
            return circle_capsule::contact_checked(c, k);
        }
        (Shape::Capsule(k), Shape::Circle(c)) => {
            return circle_capsule::contact_flipped(c, k);
        }
        (Shape::Circle(c), Shape::Aabb(r)) => {
            return circle_aabb::intersects(c, r).then(|| circle_aabb::contact(c, r));
        }
        (Shape::Aabb(r), Shape::Circle(c)) => {
            return circle_aabb::intersects(c, r).then(|| circle_aabb::contact(c, r).flipped());
        }
        // Boxes the float box test proves apart have no contact, in either order.
        (Shape::Obb(x), Shape::Obb(y)) => return obbs_contact(x, y),
        (Shape::Aabb(x), Shape::Obb(y)) => return aabb_obb_contact(x, y),
        (Shape::Obb(x), Shape::Aabb(y)) => return aabb_obb_contact(y, x).map(Contact::flipped),
        // Two boxes in the canonical order, without `contact_canonical`'s compound arms.
        (Shape::Aabb(x), Shape::Aabb(y)) => return aabbs_contact(x, y),
        // A circle clear of a compound's box (exactly) meets none of its parts: answered here,
        // not three calls down (most hitbox–circle pairs of a scene). The others go straight
        // to the union contact in kind order (the circle first), as `contact_canonical` sends
        // them.
        (Shape::Circle(c), Shape::Compound(h)) => {
            if !circle_aabb::intersects(c, &h.aabb()) {
                return None;
            }
            return circle_compound_contact(a, b);
        }
        (Shape::Compound(h), Shape::Circle(c)) => {
            if !circle_aabb::intersects(c, &h.aabb()) {
                return None;
            }
            return circle_compound_contact(b, a).map(Contact::flipped);
        }
        _ => {}
    }
    contact_canonical(a, b)
}

/// The union contact of a circle `a` and a compound `b` that meets its box: the
/// hitbox–circle path first, straight from here (its call from the union contact cost a
/// pair more than its test), then the union contact where it steps aside.
#[inline(always)]
fn circle_compound_contact(a: &Shape, b: &Shape) -> Option<Contact> {
    #[cfg(feature = "concave-search")]
    if let Some(decided) = crate::query::union_box_circle::contact(a, b) {
        return decided;
    }
    union_contact::contact(a, b)
}

/// Two boxes share a point, exactly: the float box test, the hulls' exact test near touching.
#[inline(always)]
pub(crate) fn obbs_intersect(x: &Obb, y: &Obb) -> bool {
    obb_obb::intersects(BoxView::of_obb(x), BoxView::of_obb(y), || {
        (Convex::slice(x.hull(), 0.0), Convex::slice(y.hull(), 0.0))
    })
}

/// [`obbs_intersect`] of an axis-aligned and a rotated box (symmetric).
#[inline(always)]
pub(crate) fn aabb_obb_intersect(x: &Aabb, y: &Obb) -> bool {
    obb_obb::intersects(BoxView::of_aabb(x), BoxView::of_obb(y), || {
        (box_hull(x.min(), x.max()), Convex::slice(y.hull(), 0.0))
    })
}

/// The contact of two circles, as [`contact`] gives it for them.
#[inline(always)]
pub(crate) fn circles_contact(x: &Circle, y: &Circle) -> Option<Contact> {
    circle_circle::contact_or(x, y, || circle_contact_canonical(x, y))
}

/// The contact of two rotated boxes, as [`contact`] gives it: none for boxes the float box
/// test proves apart, else the hulls' contact in the canonical order (their [`small_key`]s).
#[inline(always)]
pub(crate) fn obbs_contact(x: &Obb, y: &Obb) -> Option<Contact> {
    if obb_obb::certainly_apart(BoxView::of_obb(x), BoxView::of_obb(y)) {
        return None;
    }
    obbs_contact_near(x, y)
}

fn obbs_contact_near(x: &Obb, y: &Obb) -> Option<Contact> {
    if cmp_numbers(&obb_key(x), &obb_key(y)).is_gt() {
        return obb_obb::hulls_contact(y.hull(), x.hull()).map(Contact::flipped);
    }
    obb_obb::hulls_contact(x.hull(), y.hull())
}

/// The contact of an axis-aligned box `x` and a rotated box `y`, as [`contact`] gives it (the
/// axis-aligned box comes first in kind order).
#[inline(always)]
pub(crate) fn aabb_obb_contact(x: &Aabb, y: &Obb) -> Option<Contact> {
    if obb_obb::certainly_apart(BoxView::of_aabb(x), BoxView::of_obb(y)) {
        return None;
    }
    aabb_obb_contact_near(x, y)
}

fn aabb_obb_contact_near(x: &Aabb, y: &Obb) -> Option<Contact> {
    convex::contact_checked(&box_hull(x.min(), x.max()), &Convex::slice(y.hull(), 0.0))
}

/// The contact of two axis-aligned boxes, as [`contact`] gives it (in the canonical order).
#[inline]
pub(crate) fn aabbs_contact(x: &Aabb, y: &Aabb) -> Option<Contact> {
    let ordered =
        |x: &Aabb, y: &Aabb| aabb_aabb::intersects(x, y).then(|| aabb_aabb::contact(x, y));
    if cmp_numbers(&aabb_key(x), &aabb_key(y)).is_gt() {
        return ordered(y, x).map(Contact::flipped);
    }
    ordered(x, y)
}

/// The contact of two convex polygons, as [`contact`] gives it (in the canonical order).
#[inline]
pub(crate) fn polygons_contact(x: &ConvexPolygon, y: &ConvexPolygon) -> Option<Contact> {
    let extent = x.extent().max(y.extent());
    if cmp_points(x.points(), y.points()).is_gt() {
        return convex::polygons_contact(y.points(), x.points(), extent).map(Contact::flipped);
    }
    convex::polygons_contact(x.points(), y.points(), extent)
}

/// Two convex polygons share a point, as [`intersects`] answers it.
#[inline]
pub(crate) fn polygons_intersect(x: &ConvexPolygon, y: &ConvexPolygon) -> bool {
    if x.points().len() >= 3 && y.points().len() >= 3 {
        convex::polygons_intersect(x.points(), y.points(), x.extent().max(y.extent()))
    } else {
        convex::intersects(
            &Convex::slice(x.points(), 0.0),
            &Convex::slice(y.points(), 0.0),
        )
    }
}

/// The contact computed in the canonical argument order.
#[inline(always)]
fn contact_canonical(a: &Shape, b: &Shape) -> Option<Contact> {
    // A compound and a shape of another kind: kind order (the compound's is the last) puts
    // the compound second, and `contact_ordered` sends the pair to the union contact.
    match (a, b) {
        (Shape::Compound(_), Shape::Compound(_)) => {}
        (Shape::Compound(_), _) => return union_contact::contact(b, a).map(Contact::flipped),
        (_, Shape::Compound(_)) => return union_contact::contact(a, b),
        _ => {}
    }
    if canonical_order(a, b).is_gt() {
        return contact_ordered(b, a).map(Contact::flipped);
    }
    contact_ordered(a, b)
}

/// [`contact_canonical`] of two circles, out of line for the rare pairs `contact_or` leaves
/// to it: [`canonical_order`] of two circles compares their [`small_key`]s.
#[cold]
#[inline(never)]
fn circle_contact_canonical(a: &Circle, b: &Circle) -> Option<Contact> {
    let key = |c: &Circle| [c.center().x, c.center().y, c.radius()];
    if cmp_numbers(&key(a), &key(b)).is_gt() {
        return circle_circle::contact_checked(b, a).map(Contact::flipped);
    }
    circle_circle::contact_checked(a, b)
}

fn contact_ordered(a: &Shape, b: &Shape) -> Option<Contact> {
    match (a, b) {
        (Shape::Circle(a), Shape::Circle(b)) => circle_circle::contact_checked(a, b),
        (Shape::Aabb(a), Shape::Aabb(b)) => {
            aabb_aabb::intersects(a, b).then(|| aabb_aabb::contact(a, b))
        }
        (Shape::Circle(c), Shape::Aabb(r)) => {
            circle_aabb::intersects(c, r).then(|| circle_aabb::contact(c, r))
        }
        (Shape::Circle(c), Shape::Capsule(k)) => circle_capsule::contact_checked(c, k),
        // The views `as_convex` would build, without its call.
        (Shape::ConvexPolygon(x), Shape::ConvexPolygon(y)) => {
            convex::polygons_contact(x.points(), y.points(), x.extent().max(y.extent()))
        }
        (Shape::Obb(x), Shape::Obb(y)) => {
            convex::contact_checked(&Convex::slice(x.hull(), 0.0), &Convex::slice(y.hull(), 0.0))
        }
        // A compound has no convex view: no need to build the other's.
        (Shape::Compound(_), _) | (_, Shape::Compound(_)) => union_contact::contact(a, b),
        _ => match (a.as_convex(), b.as_convex()) {
            (Some(ca), Some(cb)) => convex::contact_checked(&ca, &cb),
            _ => union_contact::contact(a, b),
        },
    }
}

pub(crate) fn closest_points(a: &Shape, b: &Shape) -> Option<ClosestPoints> {
    if canonical_order(a, b).is_gt() {
        return closest_points(b, a).map(|c| ClosestPoints {
            distance: c.distance,
            point_a: c.point_b,
            point_b: c.point_a,
        });
    }
    match (a.as_convex(), b.as_convex()) {
        (Some(ca), Some(cb)) => {
            if intersects(a, b) {
                return None;
            }
            let (distance, point_a, point_b) = convex::closest_points(&ca, &cb);
            Some(ClosestPoints {
                distance,
                point_a,
                point_b,
            })
        }
        _ => parts::closest_points(a, b),
    }
}

pub(crate) fn contains(a: &Shape, b: &Shape) -> bool {
    match (a.as_convex(), b.as_convex()) {
        (Some(ca), Some(cb)) => convex::contains(&ca, &cb),
        _ => parts::contains(a, b),
    }
}

/// A total order on shapes (kind, then defining numbers bit by bit), used only to pick which
/// argument order a symmetric computation runs in.
#[inline]
pub(crate) fn canonical_order(a: &Shape, b: &Shape) -> Ordering {
    a.kind().cmp(&b.kind()).then_with(|| match (a, b) {
        (Shape::ConvexPolygon(x), Shape::ConvexPolygon(y)) => cmp_points(x.points(), y.points()),
        (Shape::Polygon(x), Shape::Polygon(y)) => cmp_points(x.points(), y.points()),
        (Shape::Compound(x), Shape::Compound(y)) => {
            let pairs = x.parts().iter().zip(y.parts());
            pairs
                .map(|(p, q)| canonical_order(p, q))
                .find(|o| o.is_ne())
                .unwrap_or(x.parts().len().cmp(&y.parts().len()))
        }
        _ => {
            // The first defining number almost always decides; build the full keys only if not.
            let first = first_number(a).total_cmp(&first_number(b));
            if first.is_ne() {
                return first;
            }
            cmp_numbers(&small_key(a), &small_key(b))
        }
    })
}

/// `small_key(s)[0]`, without building the key.
#[inline]
fn first_number(s: &Shape) -> f32 {
    match s {
        Shape::Point(s) => s.p().x,
        Shape::Segment(s) => s.a().x,
        Shape::Circle(s) => s.center().x,
        Shape::Aabb(s) => s.min().x,
        Shape::Obb(s) => s.center().x,
        Shape::Capsule(s) => s.a().x,
        Shape::ConvexPolygon(_) | Shape::Polygon(_) | Shape::Compound(_) => 0.0,
    }
}

fn cmp_numbers(xs: &[f32], ys: &[f32]) -> Ordering {
    xs.iter()
        .zip(ys)
        .map(|(x, y)| x.total_cmp(y))
        .find(|o| o.is_ne())
        .unwrap_or(xs.len().cmp(&ys.len()))
}

fn cmp_points(xs: &[crate::math::Vec2], ys: &[crate::math::Vec2]) -> Ordering {
    xs.iter()
        .zip(ys)
        .map(|(p, q)| p.x.total_cmp(&q.x).then(p.y.total_cmp(&q.y)))
        .find(|o| o.is_ne())
        .unwrap_or(xs.len().cmp(&ys.len()))
}

/// The defining numbers of a shape of fixed size (zeros for the others, which never get here).
#[inline]
fn small_key(s: &Shape) -> [f32; 7] {
    match s {
        Shape::Point(s) => [s.p().x, s.p().y, 0.0, 0.0, 0.0, 0.0, 0.0],
        Shape::Segment(s) => [s.a().x, s.a().y, s.b().x, s.b().y, 0.0, 0.0, 0.0],
        Shape::Circle(s) => [s.center().x, s.center().y, s.radius(), 0.0, 0.0, 0.0, 0.0],
        Shape::Aabb(s) => aabb_key(s),
        Shape::Obb(s) => obb_key(s),
        Shape::Capsule(s) => [s.a().x, s.a().y, s.b().x, s.b().y, s.radius(), 0.0, 0.0],
        Shape::ConvexPolygon(_) | Shape::Polygon(_) | Shape::Compound(_) => [0.0; 7],
    }
}

/// [`small_key`] of a box.
#[inline]
fn aabb_key(s: &Aabb) -> [f32; 7] {
    [s.min().x, s.min().y, s.max().x, s.max().y, 0.0, 0.0, 0.0]
}

/// [`small_key`] of a rotated box.
#[inline]
fn obb_key(s: &Obb) -> [f32; 7] {
    let (c, h, r) = (s.center(), s.half_extents(), s.rotation());
    [c.x, c.y, h.x, h.y, s.angle(), r.x, r.y]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec2;

    /// Circle pairs that share a coordinate (or more), overlapping or touching, in both
    /// orders: the circles' own canonical path gives what the general one gives, bit for bit.
    #[test]
    fn circle_contact_canonical_is_contact_canonical() {
        let circle = |x: f32, y: f32, r: f32| Circle::new(Vec2::new(x, y), r).unwrap();
        let pairs = [
            (circle(0.0, 0.0, 1.0), circle(0.0, 1.5, 1.0)),
            (circle(0.0, 0.0, 1.0), circle(1.5, 0.0, 1.0)),
            (circle(1.0, 1.0, 1.0), circle(1.0, 1.0, 2.0)),
            (circle(1.0, 1.0, 2.0), circle(1.0, 1.0, 2.0)),
            (circle(-2.0, 3.0, 0.5), circle(-2.0, 4.0, 0.5)),
            (circle(0.1, 0.2, 0.3), circle(0.4, 0.6, 0.25)),
        ];
        for (x, y) in pairs {
            for (p, q) in [(x, y), (y, x)] {
                let (a, b) = (Shape::Circle(p), Shape::Circle(q));
                let general = contact_canonical(&a, &b);
                assert_eq!(circle_contact_canonical(&p, &q), general, "{p:?} {q:?}");
                assert_eq!(contact(&a, &b), general, "{p:?} {q:?}");
                assert!(general.is_some(), "{p:?} {q:?}");
            }
        }
    }
}
