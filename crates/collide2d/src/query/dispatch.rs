//! The one place a pair of shapes meets its algorithm.
//!
//! Specialised pairs come first; everything else that is convex takes the generic hull-plus-
//! radius path, and compound or concave shapes go part by part. A mirrored pair `(b, a)` is the
//! same algorithm with the arguments swapped and the contact flipped. Contacts and closest
//! points are computed in a canonical argument order, so both orders agree bit for bit.

use crate::query::{aabb_aabb, circle_aabb, circle_circle, convex, parts, ClosestPoints, Contact};
use crate::shape::Shape;
use core::cmp::Ordering;

pub(crate) fn intersects(a: &Shape, b: &Shape) -> bool {
    match (a, b) {
        (Shape::Circle(a), Shape::Circle(b)) => circle_circle::intersects(a, b),
        (Shape::Aabb(a), Shape::Aabb(b)) => aabb_aabb::intersects(a, b),
        (Shape::Circle(c), Shape::Aabb(r)) | (Shape::Aabb(r), Shape::Circle(c)) => {
            circle_aabb::intersects(c, r)
        }
        _ => match (a.as_convex(), b.as_convex()) {
            (Some(ca), Some(cb)) => convex::intersects(&ca, &cb),
            _ => a.aabb().overlaps(&b.aabb()) && parts::intersects(a, b),
        },
    }
}

pub(crate) fn contact(a: &Shape, b: &Shape) -> Option<Contact> {
    if canonical_order(a, b).is_gt() {
        return contact_ordered(b, a).map(Contact::flipped);
    }
    contact_ordered(a, b)
}

fn contact_ordered(a: &Shape, b: &Shape) -> Option<Contact> {
    if !intersects(a, b) {
        return None;
    }
    Some(match (a, b) {
        (Shape::Circle(a), Shape::Circle(b)) => circle_circle::contact(a, b),
        (Shape::Aabb(a), Shape::Aabb(b)) => aabb_aabb::contact(a, b),
        (Shape::Circle(c), Shape::Aabb(r)) => circle_aabb::contact(c, r),
        _ => match (a.as_convex(), b.as_convex()) {
            (Some(ca), Some(cb)) => convex::contact(&ca, &cb),
            _ => return parts::contact(a, b),
        },
    })
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
fn canonical_order(a: &Shape, b: &Shape) -> Ordering {
    a.kind()
        .cmp(&b.kind())
        .then_with(|| match (small_key(a), small_key(b)) {
            (Some(x), Some(y)) => cmp_numbers(&x, &y),
            _ => {
                let (mut xs, mut ys) = (Vec::new(), Vec::new());
                numbers(a, &mut |x| xs.push(x));
                numbers(b, &mut |y| ys.push(y));
                cmp_numbers(&xs, &ys)
            }
        })
}

fn cmp_numbers(xs: &[f32], ys: &[f32]) -> Ordering {
    xs.iter()
        .zip(ys)
        .map(|(x, y)| x.total_cmp(y))
        .find(|o| o.is_ne())
        .unwrap_or(xs.len().cmp(&ys.len()))
}

/// The defining numbers of a shape with at most five of them, without allocating.
fn small_key(s: &Shape) -> Option<[f32; 5]> {
    let (mut key, mut len) = ([0.0; 5], 0);
    if matches!(
        s,
        Shape::ConvexPolygon(_) | Shape::Polygon(_) | Shape::Compound(_)
    ) {
        return None;
    }
    numbers(s, &mut |x| {
        key[len] = x;
        len += 1;
    });
    Some(key)
}

/// Every number that defines the shape, in a fixed order.
fn numbers(s: &Shape, f: &mut dyn FnMut(f32)) {
    let pt = |p: crate::math::Vec2, f: &mut dyn FnMut(f32)| {
        f(p.x);
        f(p.y);
    };
    match s {
        Shape::Point(s) => pt(s.p(), f),
        Shape::Segment(s) => {
            pt(s.a(), f);
            pt(s.b(), f);
        }
        Shape::Circle(s) => {
            pt(s.center(), f);
            f(s.radius());
        }
        Shape::Aabb(s) => {
            pt(s.min(), f);
            pt(s.max(), f);
        }
        Shape::Obb(s) => {
            pt(s.center(), f);
            pt(s.half_extents(), f);
            f(s.angle());
        }
        Shape::Capsule(s) => {
            pt(s.a(), f);
            pt(s.b(), f);
            f(s.radius());
        }
        Shape::ConvexPolygon(s) => s.points().iter().for_each(|&p| pt(p, f)),
        Shape::Polygon(s) => s.points().iter().for_each(|&p| pt(p, f)),
        Shape::Compound(s) => s.parts().iter().for_each(|p| numbers(p, f)),
    }
}
