//! [`Convex`]: what the generic path sees of a convex shape: a hull (points) plus a radius.
//!
//! As in Box2D, every convex shape is the set of points within `radius` of the convex hull of
//! 1, 2 or more points: a circle is one point plus a radius, a capsule two points plus a radius,
//! a box four points and radius 0. Hulls of 3 or more points are strictly convex and
//! counter-clockwise; boxes of zero width reduce to a segment or a point.

use crate::math::Vec2;
use crate::shape::{Aabb, Capsule, Circle, Obb, Point, Segment};

/// A borrowed convex shape: the hull `points` dilated by `radius`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Convex<'a> {
    points: Points<'a>,
    pub radius: f32,
}

#[derive(Clone, Copy, Debug)]
enum Points<'a> {
    Inline([Vec2; 4], u8),
    Slice(&'a [Vec2]),
}

impl<'a> Convex<'a> {
    /// A hull of up to four points held inline.
    pub fn inline(points: &[Vec2], radius: f32) -> Convex<'static> {
        debug_assert!(!points.is_empty() && points.len() <= 4);
        let mut buf = [Vec2::ZERO; 4];
        buf[..points.len()].copy_from_slice(points);
        Convex {
            points: Points::Inline(buf, points.len() as u8),
            radius,
        }
    }

    /// A hull borrowed from a shape.
    pub fn slice(points: &'a [Vec2], radius: f32) -> Convex<'a> {
        debug_assert!(!points.is_empty());
        Convex {
            points: Points::Slice(points),
            radius,
        }
    }

    /// The hull's vertices.
    #[inline]
    pub fn points(&self) -> &[Vec2] {
        match &self.points {
            Points::Inline(buf, n) => &buf[..usize::from(*n)],
            Points::Slice(s) => s,
        }
    }

    /// The hull's edges `(start, end)`; a single point is one degenerate edge, and a segment is
    /// one edge (not two).
    pub fn edges(&self) -> impl Iterator<Item = (Vec2, Vec2)> + '_ {
        let pts = self.points();
        let n = pts.len();
        let count = if n <= 2 { 1 } else { n };
        (0..count).map(move |i| (pts[i], pts[(i + 1) % n]))
    }
}

/// A box's hull: its corners, or a segment or point when it has no width or height.
pub(crate) fn box_hull(min: Vec2, max: Vec2) -> Convex<'static> {
    match (min.x == max.x, min.y == max.y) {
        (true, true) => Convex::inline(&[min], 0.0),
        (true, false) | (false, true) => Convex::inline(&[min, max], 0.0),
        (false, false) => Convex::inline(
            &[min, Vec2::new(max.x, min.y), max, Vec2::new(min.x, max.y)],
            0.0,
        ),
    }
}

/// A segment's hull: one point when its ends are equal.
pub(crate) fn segment_hull(a: Vec2, b: Vec2, radius: f32) -> Convex<'static> {
    if a == b {
        Convex::inline(&[a], radius)
    } else {
        Convex::inline(&[a, b], radius)
    }
}

/// The convex view of a primitive shape type: what [`Shape::as_convex`](crate::Shape) gives for
/// it, so that typed queries run the generic path without copying into a `Shape`.
pub(crate) trait ConvexView {
    /// The hull and radius.
    fn convex(&self) -> Convex<'_>;
}

impl ConvexView for Point {
    #[inline]
    fn convex(&self) -> Convex<'_> {
        Convex::inline(&[self.p()], 0.0)
    }
}

impl ConvexView for Segment {
    #[inline]
    fn convex(&self) -> Convex<'_> {
        segment_hull(self.a(), self.b(), 0.0)
    }
}

impl ConvexView for Circle {
    #[inline]
    fn convex(&self) -> Convex<'_> {
        Convex::inline(&[self.center()], self.radius())
    }
}

impl ConvexView for Aabb {
    #[inline]
    fn convex(&self) -> Convex<'_> {
        box_hull(self.min(), self.max())
    }
}

impl ConvexView for Obb {
    #[inline]
    fn convex(&self) -> Convex<'_> {
        Convex::slice(self.hull(), 0.0)
    }
}

impl ConvexView for Capsule {
    #[inline]
    fn convex(&self) -> Convex<'_> {
        segment_hull(self.a(), self.b(), self.radius())
    }
}
