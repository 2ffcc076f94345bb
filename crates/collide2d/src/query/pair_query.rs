//! [`PairQuery`]: the pair queries on the shape types themselves, so that a game can store
//! compact arrays of `Circle`s or `Aabb`s (12 and 16 bytes) rather than [`Shape`]s (96).
//!
//! Every answer is the one the free functions give on the same shapes as [`Shape`]s, bit for
//! bit: each method runs the same pair code, without the match on two enums (the shapes'
//! types are known) and without reading a 96-byte enum from memory.

use crate::math::Vec2;
use crate::query::cast::{cast_circle_pair, cast_convex_polygons, cast_convex_typed};
use crate::query::cast_closed::{self, Motion};
use crate::query::dispatch::{
    aabb_obb_contact, aabb_obb_intersect, aabbs_contact, circles_contact, obbs_contact,
    obbs_intersect, polygons_contact, polygons_intersect,
};
use crate::query::{
    aabb_aabb, cast_shapes, circle_aabb, circle_capsule, circle_circle, contact, intersects,
    CastHit, Contact,
};
use crate::shape::{Aabb, Capsule, Circle, ConvexPolygon, Obb, Point, Segment, Shape};

/// [`intersects`], [`contact`] and [`cast_shapes`] on two shapes of known types, `self` as `a`
/// and `other` as `b`: the same answers, bit for bit, as the free functions on the shapes
/// converted to [`Shape`]s.
///
/// Implemented for every pair of [`Point`], [`Segment`], [`Circle`], [`Aabb`], [`Obb`] and
/// [`Capsule`], for two [`ConvexPolygon`]s and for two [`Shape`]s. A loop over a million stored
/// pairs reads the shapes from memory; stored by type they take a fraction of the room a
/// [`Shape`] takes, and the query skips the dispatch on two enums.
///
/// ```
/// use collide2d::{math::Vec2, Aabb, Circle, PairQuery};
/// let bullets = [Circle::new(Vec2::new(3.0, 1.0), 1.0)?, Circle::new(Vec2::new(9.0, 9.0), 1.0)?];
/// let wall = Aabb::new(Vec2::ZERO, Vec2::new(2.0, 2.0))?;
/// let hits: Vec<bool> = bullets.iter().map(|b| b.intersects(&wall)).collect();
/// assert_eq!(hits, [true, false]); // the first touches the wall
/// let c = bullets[0].contact(&wall).unwrap();
/// assert_eq!(c, collide2d::contact(&bullets[0].into(), &wall.into()).unwrap());
/// let hit = bullets[1].cast(Vec2::new(0.0, -20.0), &wall, Vec2::ZERO);
/// assert!(hit.is_none()); // falls past the wall
/// # Ok::<(), collide2d::ShapeError>(())
/// ```
pub trait PairQuery<B: ?Sized = Self> {
    /// True when `self` and `other` share at least one point, as [`intersects`].
    #[must_use]
    fn intersects(&self, other: &B) -> bool;

    /// The contact of `self` (`a`) and `other` (`b`), or `None` when they do not intersect,
    /// as [`contact`].
    #[must_use]
    fn contact(&self, other: &B) -> Option<Contact>;

    /// The first time in `[0, 1]` at which `self` moved by `va` touches `other` moved by
    /// `vb`, as [`cast_shapes`].
    #[must_use]
    fn cast(&self, va: Vec2, other: &B, vb: Vec2) -> Option<CastHit>;
}

impl PairQuery for Shape {
    #[inline]
    fn intersects(&self, other: &Shape) -> bool {
        intersects(self, other)
    }
    #[inline]
    fn contact(&self, other: &Shape) -> Option<Contact> {
        contact(self, other)
    }
    #[inline]
    fn cast(&self, va: Vec2, other: &Shape, vb: Vec2) -> Option<CastHit> {
        cast_shapes(self, va, other, vb)
    }
}

impl PairQuery for ConvexPolygon {
    #[inline]
    fn intersects(&self, other: &ConvexPolygon) -> bool {
        polygons_intersect(self, other)
    }
    #[inline]
    fn contact(&self, other: &ConvexPolygon) -> Option<Contact> {
        polygons_contact(self, other)
    }
    #[inline]
    fn cast(&self, va: Vec2, other: &ConvexPolygon, vb: Vec2) -> Option<CastHit> {
        cast_convex_polygons(self, self.points(), va, other, other.points(), vb)
    }
}

/// A pair whose `intersects`, `contact` and cast are written out below (the arms of
/// `dispatch.rs` and `cast.rs`).
macro_rules! specialised {
    ($a:ident, $b:ident, |$x:ident, $y:ident| $hit:expr, $contact:expr, |$va:ident, $vb:ident| $cast:expr) => {
        impl PairQuery<$b> for $a {
            #[inline]
            fn intersects(&self, other: &$b) -> bool {
                let ($x, $y) = (self, other);
                $hit
            }
            #[inline]
            fn contact(&self, other: &$b) -> Option<Contact> {
                let ($x, $y) = (self, other);
                $contact
            }
            #[inline]
            fn cast(&self, va: Vec2, other: &$b, vb: Vec2) -> Option<CastHit> {
                let ($x, $y, $va, $vb) = (self, other, va, vb);
                $cast
            }
        }
    };
}

specialised!(
    Circle,
    Aabb,
    |c, r| circle_aabb::intersects(c, r),
    circle_aabb::intersects(c, r).then(|| circle_aabb::contact(c, r)),
    |va, vb| Motion::of(va, vb).and_then(|m| cast_closed::circle_aabb((c, c), (r, r), m))
);
specialised!(
    Aabb,
    Circle,
    |r, c| circle_aabb::intersects(c, r),
    circle_aabb::intersects(c, r).then(|| circle_aabb::contact(c, r).flipped()),
    |va, vb| Motion::of(va, vb).and_then(|m| cast_closed::aabb_circle((r, r), (c, c), m))
);
specialised!(
    Aabb,
    Aabb,
    |x, y| aabb_aabb::intersects(x, y),
    aabbs_contact(x, y),
    |va, vb| Motion::of(va, vb).and_then(|m| cast_closed::aabbs((x, x), (y, y), m))
);
specialised!(
    Aabb,
    Obb,
    |x, y| aabb_obb_intersect(x, y),
    aabb_obb_contact(x, y),
    |va, vb| cast_convex_typed(x, va, y, vb)
);
specialised!(
    Obb,
    Aabb,
    |x, y| aabb_obb_intersect(y, x),
    aabb_obb_contact(y, x).map(Contact::flipped),
    |va, vb| cast_convex_typed(x, va, y, vb)
);
specialised!(
    Circle,
    Capsule,
    |c, k| circle_capsule::intersects(c, k),
    circle_capsule::contact_checked(c, k),
    |va, vb| Motion::of(va, vb).and_then(|m| cast_closed::circle_capsule((c, c), (k, k), m))
);
specialised!(
    Capsule,
    Circle,
    |k, c| circle_capsule::intersects(c, k),
    circle_capsule::contact_flipped(c, k),
    |va, vb| Motion::of(va, vb).and_then(|m| cast_closed::capsule_circle((k, k), (c, c), m))
);

impl PairQuery for Obb {
    #[inline]
    fn intersects(&self, other: &Obb) -> bool {
        obbs_intersect(self, other)
    }
    #[inline]
    fn contact(&self, other: &Obb) -> Option<Contact> {
        obbs_contact(self, other)
    }
    #[inline]
    fn cast(&self, va: Vec2, other: &Obb, vb: Vec2) -> Option<CastHit> {
        cast_convex_polygons(self, self.hull(), va, other, other.hull(), vb)
    }
}

impl PairQuery for Circle {
    #[inline]
    fn intersects(&self, other: &Circle) -> bool {
        circle_circle::intersects(self, other)
    }
    #[inline]
    fn contact(&self, other: &Circle) -> Option<Contact> {
        circles_contact(self, other)
    }
    #[inline]
    fn cast(&self, va: Vec2, other: &Circle, vb: Vec2) -> Option<CastHit> {
        cast_circle_pair(self, va, other, vb)
    }
}

/// Pairs of the generic path: `intersects` and `contact` through the free functions on the
/// shapes copied into [`Shape`]s (a match on two known variants, which the compiler folds); the
/// cast on their convex views, as [`cast_shapes`] casts them.
macro_rules! through_shape {
    ($($a:ident: $($b:ident)*;)*) => {$($(
        impl PairQuery<$b> for $a {
            #[inline]
            fn intersects(&self, other: &$b) -> bool {
                intersects(&Shape::$a(*self), &Shape::$b(*other))
            }
            #[inline]
            fn contact(&self, other: &$b) -> Option<Contact> {
                contact(&Shape::$a(*self), &Shape::$b(*other))
            }
            #[inline]
            fn cast(&self, va: Vec2, other: &$b, vb: Vec2) -> Option<CastHit> {
                cast_convex_typed(self, va, other, vb)
            }
        }
    )*)*};
}

through_shape! {
    Point: Point Segment Circle Aabb Obb Capsule;
    Segment: Point Segment Circle Aabb Obb Capsule;
    Circle: Point Segment Obb;
    Aabb: Point Segment Capsule;
    Obb: Point Segment Circle Capsule;
    Capsule: Point Segment Aabb Obb Capsule;
}
