//! The shapes: one file each, and [`Shape`], the enum every query takes.

mod aabb;
#[cfg(feature = "arbitrary")]
mod arbitrary;
mod capsule;
mod circle;
pub(crate) mod compound;
pub(crate) mod convex;
mod convex_polygon;
mod decompose;
pub(crate) mod hull;
mod obb;
pub(crate) mod part_tree;
mod point;
mod polygon;
mod segment;
#[cfg(feature = "serde")]
mod serde;
mod vertices;

pub use aabb::Aabb;
pub use capsule::Capsule;
pub use circle::Circle;
pub use compound::Compound;
pub use convex_polygon::ConvexPolygon;
pub use obb::Obb;
pub use point::Point;
pub use polygon::Polygon;
pub use segment::Segment;

use crate::math::{Pose, Vec2};
use convex::{Convex, ConvexView};

/// Any shape. Every query takes two `&Shape`s; `From` converts each shape type into it.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// A single point.
    Point(Point),
    /// A closed segment.
    Segment(Segment),
    /// A closed disc.
    Circle(Circle),
    /// An axis-aligned box.
    Aabb(Aabb),
    /// A rotated box.
    Obb(Obb),
    /// A segment with a radius.
    Capsule(Capsule),
    /// A convex polygon.
    ConvexPolygon(ConvexPolygon),
    /// A simple polygon, possibly concave.
    Polygon(Polygon),
    /// A union of shapes.
    Compound(Compound),
}

/// The type of a [`Shape`], in the row order of formats.md's table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ShapeKind {
    /// [`Point`]
    Point,
    /// [`Segment`]
    Segment,
    /// [`Circle`]
    Circle,
    /// [`Aabb`] (formats.md's `aabb` and `rect`)
    Aabb,
    /// [`Obb`]
    Obb,
    /// [`Capsule`]
    Capsule,
    /// [`ConvexPolygon`] (formats.md's `polygon`, when convex and built as such)
    ConvexPolygon,
    /// [`Polygon`]
    Polygon,
    /// [`Compound`]
    Compound,
}

impl ShapeKind {
    /// The formats.md `type` tag (`"polygon"` for both polygon kinds).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            ShapeKind::Point => "point",
            ShapeKind::Segment => "segment",
            ShapeKind::Circle => "circle",
            ShapeKind::Aabb => "aabb",
            ShapeKind::Obb => "obb",
            ShapeKind::Capsule => "capsule",
            ShapeKind::ConvexPolygon | ShapeKind::Polygon => "polygon",
            ShapeKind::Compound => "compound",
        }
    }
}

impl Shape {
    /// Its type.
    #[must_use]
    pub fn kind(&self) -> ShapeKind {
        match self {
            Shape::Point(_) => ShapeKind::Point,
            Shape::Segment(_) => ShapeKind::Segment,
            Shape::Circle(_) => ShapeKind::Circle,
            Shape::Aabb(_) => ShapeKind::Aabb,
            Shape::Obb(_) => ShapeKind::Obb,
            Shape::Capsule(_) => ShapeKind::Capsule,
            Shape::ConvexPolygon(_) => ShapeKind::ConvexPolygon,
            Shape::Polygon(_) => ShapeKind::Polygon,
            Shape::Compound(_) => ShapeKind::Compound,
        }
    }

    /// True when every coordinate defining the shape is finite, as for every shape the
    /// constructors build; a shape [`transformed`](Self::transformed) past `±f32::MAX` is not
    /// (and a [`CollisionWorld`](crate::CollisionWorld) refuses it).
    ///
    /// ```
    /// use collide2d::{math::{Pose, Vec2}, Circle, Shape};
    /// let c: Shape = Circle::new(Vec2::new(3e38, 0.0), 1.0)?.into();
    /// assert!(c.is_finite());
    /// assert!(!c.transformed(&Pose::from_translation(Vec2::new(3e38, 0.0))).is_finite());
    /// # Ok::<(), collide2d::ShapeError>(())
    /// ```
    #[must_use]
    pub fn is_finite(&self) -> bool {
        let all = |points: &[Vec2]| points.iter().all(|p| p.is_finite());
        match self {
            Shape::Point(s) => s.p().is_finite(),
            Shape::Segment(s) => s.a().is_finite() && s.b().is_finite(),
            Shape::Circle(s) => s.center().is_finite(),
            Shape::Aabb(s) => s.min().is_finite() && s.max().is_finite(),
            Shape::Obb(s) => s.center().is_finite() && all(s.hull()),
            Shape::Capsule(s) => s.a().is_finite() && s.b().is_finite(),
            Shape::ConvexPolygon(s) => all(s.points()),
            Shape::Polygon(s) => all(s.points()) && s.parts().iter().all(|p| all(p.points())),
            Shape::Compound(s) => s.parts().iter().all(Shape::is_finite),
        }
    }

    /// Its bounding box: every point of the shape lies inside it.
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        match self {
            Shape::Point(s) => s.aabb(),
            Shape::Segment(s) => s.aabb(),
            Shape::Circle(s) => s.aabb(),
            Shape::Aabb(s) => s.aabb(),
            Shape::Obb(s) => s.aabb(),
            Shape::Capsule(s) => s.aabb(),
            Shape::ConvexPolygon(s) => s.aabb(),
            Shape::Polygon(s) => s.aabb(),
            Shape::Compound(s) => s.aabb(),
        }
    }

    /// The shape placed by `pose` (rotated about the origin of its frame, then translated).
    ///
    /// No validation is repeated. A rotated [`Aabb`] becomes an [`Obb`]; coordinates are
    /// rounded to `f32` once, and predicates are exact for the rounded result (a convex
    /// polygon, or a part of a concave one, is the convex hull of its rounded vertices: a small
    /// polygon moved far from the origin may round to a segment or a point). The pose must be
    /// finite, and the placed coordinates must stay within `±f32::MAX`: a shape moved past it
    /// has infinite coordinates, and queries on it give unspecified (but never panicking)
    /// answers.
    ///
    /// ```
    /// use collide2d::{math::{Pose, Vec2}, Circle, Shape};
    /// let local: Shape = Circle::new(Vec2::ZERO, 1.0)?.into();
    /// let placed = local.transformed(&Pose::from_translation(Vec2::new(5.0, 0.0)));
    /// assert_eq!(placed.aabb().center(), Vec2::new(5.0, 0.0));
    /// # Ok::<(), collide2d::ShapeError>(())
    /// ```
    #[must_use]
    pub fn transformed(&self, pose: &Pose) -> Shape {
        let p = placer(pose);
        match self {
            Shape::Point(s) => Shape::Point(Point::raw(p(s.p()))),
            Shape::Segment(s) => Shape::Segment(Segment::raw(p(s.a()), p(s.b()))),
            Shape::Circle(s) => Shape::Circle(Circle::raw(p(s.center()), s.radius())),
            Shape::Capsule(s) => Shape::Capsule(Capsule::raw(p(s.a()), p(s.b()), s.radius())),
            Shape::Aabb(s) if pose.is_translation() => {
                Shape::Aabb(Aabb::raw(p(s.min()), p(s.max())))
            }
            Shape::Aabb(s) => Shape::Obb(Obb::from_parts(
                p(s.center()),
                s.half_size(),
                pose.angle(),
                pose.rotation,
            )),
            Shape::Obb(s) => {
                let rotation = pose.rotation.rotate(s.rotation());
                Shape::Obb(Obb::from_parts(
                    p(s.center()),
                    s.half_extents(),
                    crate::math::angle_of(rotation),
                    rotation,
                ))
            }
            Shape::ConvexPolygon(s) => Shape::ConvexPolygon(s.map_points(p)),
            Shape::Polygon(s) => Shape::Polygon(s.map_points(p)),
            Shape::Compound(s) => Shape::Compound(s.map_parts(|part| part.transformed(pose))),
        }
    }

    /// Makes this shape `local.transformed(pose)`, the same numbers, reusing this shape's
    /// memory when it is a polygon or compound of `local`'s kind and size (the last placement
    /// of the same local shape): placing a spinning polygon each frame then allocates nothing.
    ///
    /// ```
    /// use collide2d::{math::{Pose, Vec2}, ConvexPolygon, Shape};
    /// let local: Shape = ConvexPolygon::new(&[Vec2::ZERO, Vec2::X, Vec2::Y])?.into();
    /// let mut placed = local.clone();
    /// for frame in 0..60 {
    ///     let pose = Pose::new(Vec2::new(frame as f32, 0.0), frame as f32 * 0.1);
    ///     placed.set_transformed(&local, &pose); // no allocation
    ///     assert_eq!(placed, local.transformed(&pose));
    /// }
    /// # Ok::<(), collide2d::ShapeError>(())
    /// ```
    pub fn set_transformed(&mut self, local: &Shape, pose: &Pose) {
        match (&mut *self, local) {
            (Shape::ConvexPolygon(out), Shape::ConvexPolygon(l)) => {
                l.map_points_into(placer(pose), out);
            }
            (Shape::Polygon(out), Shape::Polygon(l)) if out.parts().len() == l.parts().len() => {
                l.map_points_into(placer(pose), out);
            }
            (Shape::Compound(out), Shape::Compound(l)) if out.parts().len() == l.parts().len() => {
                out.set_transformed(l, pose);
            }
            (out, l) => *out = l.transformed(pose),
        }
    }

    /// The convex view of a convex shape; `None` for a compound or a polygon of several parts.
    pub(crate) fn as_convex(&self) -> Option<Convex<'_>> {
        Some(match self {
            Shape::Point(s) => s.convex(),
            Shape::Segment(s) => s.convex(),
            Shape::Circle(s) => s.convex(),
            Shape::Aabb(s) => s.convex(),
            Shape::Obb(s) => s.convex(),
            Shape::Capsule(s) => s.convex(),
            Shape::ConvexPolygon(s) => Convex::slice(s.points(), 0.0),
            Shape::Polygon(s) if s.is_convex() => Convex::slice(s.parts()[0].points(), 0.0),
            Shape::Polygon(_) | Shape::Compound(_) => return None,
        })
    }
}

/// The placement of a point by `pose`. A translation adds, with no rotation by `(1, 0)` to
/// round (the same numbers up to the sign of a zero, and what `CollisionWorld::move_by` does in
/// place).
fn placer(pose: &Pose) -> impl Fn(Vec2) -> Vec2 + Copy + '_ {
    let translation = pose.is_translation();
    move |v: Vec2| {
        if translation {
            v + pose.position
        } else {
            pose.transform_point(v)
        }
    }
}

macro_rules! impl_from_shape {
    ($($variant:ident),*) => {$(
        impl From<$variant> for Shape {
            fn from(s: $variant) -> Shape {
                Shape::$variant(s)
            }
        }
    )*};
}
impl_from_shape!(
    Point,
    Segment,
    Circle,
    Aabb,
    Obb,
    Capsule,
    ConvexPolygon,
    Polygon,
    Compound
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intersects;
    use alloc::vec;

    #[test]
    fn rotated_aabb_becomes_an_obb_with_the_same_corners() {
        let b: Shape = Aabb::new(Vec2::new(-1.0, -2.0), Vec2::new(1.0, 2.0))
            .unwrap()
            .into();
        let placed = b.transformed(&Pose::new(
            Vec2::new(10.0, 0.0),
            core::f32::consts::FRAC_PI_2,
        ));
        let Shape::Obb(obb) = &placed else {
            panic!("expected an obb, got {placed:?}")
        };
        assert!((obb.center() - Vec2::new(10.0, 0.0)).length() < 1e-6);
        // Rotated a quarter turn: now 4 wide, 2 tall.
        let size = obb.aabb().size();
        assert!((size - Vec2::new(4.0, 2.0)).length() < 1e-5, "{size}");
    }

    #[test]
    fn translating_both_shapes_keeps_the_answer() {
        let a: Shape = Circle::new(Vec2::ZERO, 1.0).unwrap().into();
        let b: Shape = Obb::new(Vec2::new(2.0, 0.0), Vec2::ONE, 0.0)
            .unwrap()
            .into();
        let pose = Pose::from_translation(Vec2::new(1024.0, -4096.0));
        assert!(intersects(&a, &b));
        assert!(intersects(&a.transformed(&pose), &b.transformed(&pose)));
    }

    #[test]
    fn compound_moves_all_its_parts() {
        let parts = vec![
            Point::new(Vec2::ZERO).unwrap().into(),
            Point::new(Vec2::X).unwrap().into(),
        ];
        let c: Shape = Compound::new(parts).unwrap().into();
        let moved = c.transformed(&Pose::from_translation(Vec2::new(0.0, 3.0)));
        assert_eq!(moved.aabb().min(), Vec2::new(0.0, 3.0));
        assert_eq!(moved.aabb().max(), Vec2::new(1.0, 3.0));
    }
}
