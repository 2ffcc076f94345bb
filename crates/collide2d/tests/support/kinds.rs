//! Random shapes of every kind for the cast tests: on a small integer grid (touching and
//! grazing motions are common) or from random `f32`s, and `COLLIDE2D_SOAK` case counts.

use super::reference;
use collide2d::math::Vec2;
use collide2d::{
    Aabb, Capsule, Circle, Compound, ConvexPolygon, Obb, Point, Polygon, Segment, Shape,
};
use proptest::prelude::*;

pub const KINDS: [&str; 9] = [
    "point", "segment", "circle", "aabb", "obb", "capsule", "convex", "polygon", "compound",
];

/// Integers in -8..=8 (`small`) or random `f32`s in -16..16.
pub fn coord(small: bool) -> BoxedStrategy<f32> {
    if small {
        (-8i32..=8).prop_map(|i| i as f32).boxed()
    } else {
        (-16.0f32..16.0).boxed()
    }
}

pub fn radius(small: bool) -> BoxedStrategy<f32> {
    if small {
        (0i32..=4).prop_map(|i| i as f32).boxed()
    } else {
        (0.0f32..4.0).boxed()
    }
}

pub fn vec2(small: bool) -> impl Strategy<Value = Vec2> {
    (coord(small), coord(small)).prop_map(|(x, y)| Vec2::new(x, y))
}

/// A motion: integers in -24..=24 on the small grid, often axis-aligned or zero.
pub fn motion(small: bool) -> BoxedStrategy<Vec2> {
    let c = move || {
        if small {
            (-24i32..=24).prop_map(|i| i as f32).boxed()
        } else {
            (-48.0f32..48.0).boxed()
        }
    };
    prop_oneof![
        3 => (c(), c()).prop_map(|(x, y)| Vec2::new(x, y)),
        1 => c().prop_map(|x| Vec2::new(x, 0.0)),
        1 => c().prop_map(|y| Vec2::new(0.0, y)),
        1 => Just(Vec2::ZERO),
    ]
    .boxed()
}

pub fn angle() -> impl Strategy<Value = f32> {
    use std::f32::consts::{FRAC_PI_4, PI};
    prop_oneof![Just(0.0), Just(FRAC_PI_4), -PI..PI]
}

/// A valid shape of kind `KINDS[kind]`.
pub fn shape(kind: usize, small: bool) -> BoxedStrategy<Shape> {
    let g = small;
    match kind {
        0 => vec2(g).prop_map(|p| Point::new(p).unwrap().into()).boxed(),
        1 => (vec2(g), vec2(g))
            .prop_map(|(a, b)| Segment::new(a, b).unwrap().into())
            .boxed(),
        2 => (vec2(g), radius(g))
            .prop_map(|(c, r)| Circle::new(c, r).unwrap().into())
            .boxed(),
        3 => (vec2(g), vec2(g))
            .prop_map(|(a, b)| Aabb::new(a.min(b), a.max(b)).unwrap().into())
            .boxed(),
        4 => (vec2(g), radius(g), radius(g), angle())
            .prop_map(|(c, w, h, a)| Obb::new(c, Vec2::new(w, h), a).unwrap().into())
            .boxed(),
        5 => (vec2(g), vec2(g), radius(g))
            .prop_map(|(a, b, r)| Capsule::new(a, b, r).unwrap().into())
            .boxed(),
        6 => prop::collection::vec(vec2(g), 3..=6)
            .prop_filter_map("collinear", |pts| {
                let hull = reference::convex_hull(&pts);
                ConvexPolygon::new(&hull).ok().map(Shape::from)
            })
            .boxed(),
        // A U: concave, with a notch a shape can fall into.
        7 => (vec2(g), 1i32..=3, 1i32..=3, 1i32..=3)
            .prop_map(|(o, w, n, h)| {
                let (w, n, h) = (w as f32, n as f32, h as f32);
                let pts = [
                    (0.0, 0.0),
                    (2.0 * w + n, 0.0),
                    (2.0 * w + n, 1.0 + h),
                    (w + n, 1.0 + h),
                    (w + n, 1.0),
                    (w, 1.0),
                    (w, 1.0 + h),
                    (0.0, 1.0 + h),
                ];
                let pts: Vec<Vec2> = pts.iter().map(|&(x, y)| o + Vec2::new(x, y)).collect();
                Polygon::new(&pts).unwrap().into()
            })
            .boxed(),
        _ => prop::collection::vec((0usize..8).prop_flat_map(move |k| shape(k, g)), 1..=3)
            .prop_map(|parts| Compound::new(parts).unwrap().into())
            .boxed(),
    }
}

/// Case counts are multiplied by `COLLIDE2D_SOAK` (default 1).
pub fn soak(cases: u32) -> u32 {
    let factor = std::env::var("COLLIDE2D_SOAK")
        .ok()
        .and_then(|v| v.parse::<u32>().ok());
    cases.saturating_mul(factor.unwrap_or(1).max(1))
}
