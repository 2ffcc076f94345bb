//! The unchecked constructors: `const`, the same values as the checked ones, and asserted in
//! debug builds.

use collide2d::math::Vec2;
use collide2d::{Aabb, Capsule, Circle, Point, Segment};

const TILE: Aabb = Aabb::new_unchecked(Vec2::ZERO, Vec2::new(16.0, 8.0));
const COIN: Circle = Circle::new_unchecked(Vec2::new(4.0, 4.0), 2.0);
const PILL: Capsule = Capsule::new_unchecked(Vec2::ZERO, Vec2::Y, 0.5);
const EDGE: Segment = Segment::new_unchecked(Vec2::ZERO, Vec2::X);
const SPOT: Point = Point::new_unchecked(Vec2::ONE);

#[test]
fn unchecked_constructors_are_const_and_equal_the_checked_ones() {
    assert_eq!(Ok(TILE), Aabb::new(Vec2::ZERO, Vec2::new(16.0, 8.0)));
    assert_eq!(Ok(COIN), Circle::new(Vec2::new(4.0, 4.0), 2.0));
    assert_eq!(Ok(PILL), Capsule::new(Vec2::ZERO, Vec2::Y, 0.5));
    assert_eq!(Ok(EDGE), Segment::new(Vec2::ZERO, Vec2::X));
    assert_eq!(Ok(SPOT), Point::new(Vec2::ONE));
    assert!(collide2d::intersects(&TILE.into(), &COIN.into()));
}

#[cfg(debug_assertions)]
#[test]
fn invalid_values_are_caught_in_debug_builds() {
    let caught = |f: fn()| std::panic::catch_unwind(f).is_err();
    assert!(caught(|| {
        let _ = Circle::new_unchecked(Vec2::ZERO, -1.0);
    }));
    assert!(caught(|| {
        let _ = Aabb::new_unchecked(Vec2::ONE, Vec2::ZERO);
    }));
    assert!(caught(|| {
        let _ = Aabb::new_unchecked(Vec2::ZERO, Vec2::new(f32::INFINITY, 1.0));
    }));
    assert!(caught(|| {
        let _ = Capsule::new_unchecked(Vec2::ZERO, Vec2::X, f32::NAN);
    }));
    assert!(caught(|| {
        let _ = Segment::new_unchecked(Vec2::new(f32::NAN, 0.0), Vec2::X);
    }));
    assert!(caught(|| {
        let _ = Point::new_unchecked(Vec2::new(0.0, f32::NEG_INFINITY));
    }));
}
