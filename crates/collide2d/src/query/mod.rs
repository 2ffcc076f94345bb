//! Queries between two shapes: [`intersects`], [`distance`], [`closest_points`], [`contact`],
//! [`contains`], plus point queries and ray casts against one shape, and [`cast_shapes`] for two
//! moving shapes ([`cast_shapes_rotating`] when they turn too).
//!
//! Conventions, for every query and every pair of shape types:
//! - shapes are closed sets, so shapes that only touch intersect;
//! - the normal points from `a` towards `b`, and swapping the arguments flips it;
//! - `intersects(a, b)` ⇔ `contact(a, b).is_some()` ⇔ `distance(a, b) == 0.0`;
//! - the boolean queries are exact for the `f32` coordinates given; distances, depths and
//!   points are computed in `f64` and rounded to `f32` (relative error around `1e-6`).

mod aabb_aabb;
mod cast;
mod cast_closed;
mod cast_pairs;
mod cast_rotating;
mod circle_aabb;
mod circle_capsule;
mod circle_circle;
pub(crate) mod convex;
mod dispatch;
mod gjk;
mod minkowski;
mod obb_obb;
mod pair_query;
mod part_pairs;
mod parts;
mod point;
mod ray;
mod soa;
mod sweep;
#[cfg(feature = "concave-search")]
mod union_boundary;
mod union_bounded;
#[cfg(feature = "concave-search")]
mod union_box_circle;
#[cfg(feature = "concave-search")]
mod union_boxes;
mod union_certified;
mod union_contact;
#[cfg(feature = "concave-search")]
mod union_exact;
#[cfg(feature = "concave-search")]
mod union_exposed;
#[cfg(feature = "concave-search")]
mod union_faces;
#[cfg(feature = "concave-search")]
mod union_outline;
#[cfg(feature = "concave-search")]
mod union_outline_parts;
#[cfg(feature = "concave-search")]
mod union_outline_probe;
#[cfg(feature = "concave-search")]
mod union_outline_search;
#[cfg(feature = "concave-search")]
mod union_polygons;
#[cfg(feature = "concave-search")]
mod union_rounded;

use crate::math::Vec2;
use crate::shape::Shape;

pub use cast::{cast_shapes, CastHit};
pub use cast_rotating::{cast_shapes_rotating, MAX_ADVANCES};
pub(crate) use obb_obb::obb_filter_err;
pub use pair_query::PairQuery;
pub use point::{contains_point, distance_to_point, project_point, PointProjection};
pub use ray::{cast_ray, Ray, RayHit};
pub(crate) use ray::{ray_box, ray_circle};
pub use sweep::Sweep;

/// How two intersecting shapes overlap.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// Unit vector from `a` towards `b`: moving `b` along it separates them.
    pub normal: Vec2,
    /// How far `b` must move along `normal` until the shapes only touch; `>= 0`, 0 when touching.
    pub depth: f32,
    /// Contact points, midway between the two surfaces: one or two for a convex pair.
    pub points: ContactPoints,
}

/// One or two contact points, stored inline. Dereferences to `[Vec2]`.
#[derive(Clone, Copy, PartialEq)]
pub struct ContactPoints {
    buf: [Vec2; 2],
    len: PointCount,
}

/// How many of `ContactPoints::buf` are used: an enum without a zero, so that
/// `Option<Contact>` fits in a `Contact` (the niche saves a tag to write and copy).
#[derive(Clone, Copy, Debug, PartialEq)]
/// `u32`, not `u8`: with no padding after it, a `Contact` moves as two 16-byte copies.
#[repr(u32)]
enum PointCount {
    One = 1,
    Two = 2,
}

impl core::fmt::Debug for ContactPoints {
    /// The points in use, as a list: the storage behind them is not part of the value.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl core::ops::Deref for ContactPoints {
    type Target = [Vec2];
    fn deref(&self) -> &[Vec2] {
        &self.buf[..self.len as usize]
    }
}

impl Contact {
    /// A contact with one or two `points` (extra points are ignored). The depth and the points
    /// are clamped to `f32::MAX` in magnitude (only shapes reaching past it get there).
    #[inline]
    pub(crate) fn new(normal: Vec2, depth: f32, points: &[Vec2]) -> Contact {
        debug_assert!(!points.is_empty());
        // Shapes moved past `±f32::MAX` (infinite or NaN coordinates) get unspecified contacts.
        debug_assert!(
            normal.is_finite() && depth >= 0.0 || points.iter().any(|p| !p.is_finite()),
            "contact {normal} {depth} {points:?}"
        );
        let (len, count) = if points.len() >= 2 {
            (2, PointCount::Two)
        } else {
            (1, PointCount::One)
        };
        let mut buf = [Vec2::ZERO; 2];
        let (lo, hi) = (Vec2::splat(f32::MIN), Vec2::splat(f32::MAX));
        for (slot, p) in buf.iter_mut().zip(points.iter().take(len)) {
            *slot = p.clamp(lo, hi);
        }
        Contact {
            normal,
            depth: depth.min(f32::MAX),
            points: ContactPoints { buf, len: count },
        }
    }

    /// The same contact seen from `b`: the normal negated, depth and points unchanged.
    #[must_use]
    #[inline]
    pub fn flipped(self) -> Contact {
        Contact {
            normal: -self.normal,
            ..self
        }
    }
}

/// True when `a` and `b` share at least one point (touching counts). Exact.
///
/// ```
/// use collide2d::{intersects, math::Vec2, Aabb, Circle};
/// let circle = Circle::new(Vec2::new(3.0, 3.0), 1.0)?;
/// let corner = Aabb::new(Vec2::ZERO, Vec2::new(2.0, 2.0))?;
/// // A box-against-box test would call this a hit; the corner is sqrt(2) away.
/// assert!(!intersects(&circle.into(), &corner.into()));
/// let touching = Circle::new(Vec2::new(3.0, 1.0), 1.0)?;
/// assert!(intersects(&touching.into(), &corner.into()));
/// # Ok::<(), collide2d::ShapeError>(())
/// ```
#[must_use]
#[inline]
pub fn intersects(a: &Shape, b: &Shape) -> bool {
    dispatch::intersects(a, b)
}

/// The smallest distance between a point of `a` and a point of `b`: exactly 0 when they
/// intersect, otherwise positive (at least `f32::MIN_POSITIVE`, even when rounding would say 0)
/// and finite (at most `f32::MAX`, which shapes at opposite ends of the `f32` range exceed).
///
/// ```
/// use collide2d::{distance, math::Vec2, Circle, Segment};
/// let c = Circle::new(Vec2::new(0.0, 5.0), 1.0)?;
/// let floor = Segment::new(Vec2::new(-10.0, 0.0), Vec2::new(10.0, 0.0))?;
/// assert_eq!(distance(&c.into(), &floor.into()), 4.0);
/// # Ok::<(), collide2d::ShapeError>(())
/// ```
#[must_use]
pub fn distance(a: &Shape, b: &Shape) -> f32 {
    closest_points(a, b).map_or(0.0, |c| c.distance)
}

/// The closest points of two shapes that do not intersect.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClosestPoints {
    /// The distance between the shapes, `> 0`.
    pub distance: f32,
    /// The point of `a` nearest to `b`.
    pub point_a: Vec2,
    /// The point of `b` nearest to `a`.
    pub point_b: Vec2,
}

/// The closest points of `a` and `b`, or `None` when they intersect.
///
/// ```
/// use collide2d::{closest_points, math::Vec2, Circle};
/// let a = Circle::new(Vec2::ZERO, 1.0)?;
/// let b = Circle::new(Vec2::new(4.0, 0.0), 1.0)?;
/// let c = closest_points(&a.into(), &b.into()).unwrap();
/// assert_eq!((c.distance, c.point_a, c.point_b), (2.0, Vec2::new(1.0, 0.0), Vec2::new(3.0, 0.0)));
/// # Ok::<(), collide2d::ShapeError>(())
/// ```
#[must_use]
pub fn closest_points(a: &Shape, b: &Shape) -> Option<ClosestPoints> {
    dispatch::closest_points(a, b)
}

/// The contact between `a` and `b`, or `None` if they do not intersect.
///
/// For a concave polygon or a compound (either argument), the contact is the minimum
/// translation of the whole shape: `depth` is the shortest move of `b` after which the shapes
/// only touch, in any direction, and `normal` is that direction; it is the distance from the
/// origin to the boundary of the union of the parts' Minkowski differences `B_j − A_i`. A
/// seam, where two parts meet face to face (the diagonals of a concave polygon's
/// decomposition, flush boxes of a hitbox), is inside the shape, not on its boundary: a point
/// on it is pushed out through the shape's real edges. The points are where the shapes touch
/// after the move, taken back half of it (midway, as for convex pairs). The move may end with
/// `b` touching two parts at once where any further move along `normal` overlaps again:
/// wedged (a circle pushed up between two stacked circles), or at the tip of a notch (a round
/// part of `b` leaving past the corner of a wall that another part of `b` rests against): it
/// is still the shortest move, and the depth is that distance exactly. When the deepest pair
/// of parts' own contact is the whole shapes' (most pairs: no other pair of parts comes near
/// its move), that contact is the answer, with its one or two points; otherwise one point. A
/// touching contact's normal is a direction along which any small move of `b` separates them
/// when one exists: the touching pair's own normal when no other pair touches there, else the
/// middle of the widest range of such directions (a point at a reflex corner gets a normal
/// out of the notch). None exists where a round part of one shape touches the other at the
/// tip of a notch whose one side is a flat face and the other curves away from it (a circle
/// at a wall's corner while another part rests against the wall; two rounded corners back to
/// back): then the normal runs along that flat face, and a small move along it keeps the
/// shapes touching without overlap. A shape in a zero-width notch (two parts flush, or a gap
/// between them exactly its own width: a circle of radius 1 between two boxes 2 apart) is
/// inside the union by the seam rule, so its contact has a positive depth: the move out along
/// the gap. (One exception: a segment or point part of one shape lying along the only way out
/// counts as no obstacle, so moving along the normal may keep the two touching along it.)
///
/// Whether they intersect is exact. For shapes made of polygons, boxes, segments and points,
/// which parts of the differences' boundaries the other parts cover (seams included) and
/// whether the contact is touching are exact too: a slit one `f32` step wide between two
/// parts is a slit, not a seam. With a circle or capsule among the parts these decisions are
/// taken within `1e-9` of the largest coordinate. Depths and points carry the accuracy of
/// convex contacts.
///
/// The work of that search is bounded. Two polygons or boxes (no compound) of at most 16
/// convex parts each, whose outlines' corners multiply to at most 1,024, are searched on
/// their outlines whatever the count of pairs of parts. Otherwise, above 64 pairs of parts
/// (pairs whose boxes overlap, or whose differences lie within the search's reach; 128 when a
/// part is a circle or capsule, with the crossings of faces counted past 64), or past a fixed
/// count of the search's own steps, the depth is the shortest separating move along the deepest pair of parts'
/// normal, not always the shortest of all: `b` moves along it past every pair of parts'
/// interval of overlap (computed so that rounding can only lengthen the move), with one
/// point, midway between the surfaces of the last pair passed. Moving `b` by
/// `normal * depth` leaves the interiors disjoint, and a shorter move along `normal` does not
/// (up to the rounding). Shapes of a few parts (a 12-vertex concave polygon has at most 8)
/// stay below the bound; hostile input (hundreds of tiny parts, faces exactly on each other)
/// gets its answer in milliseconds, not seconds. Without the `concave-search` feature (on by
/// default) the search is not built, and every pair it would decide gets that move.
///
/// ```
/// use collide2d::{contact, math::Vec2, Point, Polygon};
/// // An L of two parts; the point sits near the diagonal between them, 1 from the floor.
/// let l = [(0.0, 0.0), (4.0, 0.0), (4.0, 2.0), (2.0, 2.0), (2.0, 4.0), (0.0, 4.0)];
/// let l = Polygon::new(&l.map(|(x, y)| Vec2::new(x, y)))?;
/// let p = Point::new(Vec2::new(1.9, 1.0))?;
/// let c = contact(&p.into(), &l.into()).unwrap();
/// assert_eq!(c.normal, Vec2::Y); // moving the L up by 1 leaves the point on its floor
/// assert!((c.depth - 1.0).abs() < 1e-6);
/// # Ok::<(), collide2d::ShapeError>(())
/// ```
///
/// ```
/// use collide2d::{contact, math::Vec2, Circle};
/// let a = Circle::new(Vec2::ZERO, 1.0)?;
/// let b = Circle::new(Vec2::new(1.5, 0.0), 1.0)?;
/// let c = contact(&a.into(), &b.into()).unwrap();
/// assert_eq!(c.normal, Vec2::X); // from a towards b
/// assert!((c.depth - 0.5).abs() < 1e-6);
/// assert_eq!(c.points.len(), 1);
/// # Ok::<(), collide2d::ShapeError>(())
/// ```
#[must_use]
#[inline]
pub fn contact(a: &Shape, b: &Shape) -> Option<Contact> {
    dispatch::contact(a, b)
}

/// True when every point of `b` lies in `a` (touching `a`'s boundary from inside counts). Exact,
/// except that a shape straddling two parts of a compound `a` counts as outside it.
///
/// ```
/// use collide2d::{contains, math::Vec2, Aabb, Circle};
/// let room = Aabb::new(Vec2::ZERO, Vec2::new(10.0, 10.0))?;
/// let coin = Circle::new(Vec2::new(9.0, 5.0), 1.0)?;
/// assert!(contains(&room.into(), &coin.into())); // touches the wall from inside
/// assert!(!contains(&coin.into(), &room.into()));
/// # Ok::<(), collide2d::ShapeError>(())
/// ```
#[must_use]
pub fn contains(a: &Shape, b: &Shape) -> bool {
    dispatch::contains(a, b)
}
