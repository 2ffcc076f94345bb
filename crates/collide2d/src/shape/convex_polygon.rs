//! [`ConvexPolygon`]: a convex polygon, the generic path's native shape.

use crate::error::{finite_vec, ShapeError};
use crate::exact::area_sign;
use crate::limits::MAX_POLYGON_POINTS;
use crate::math::Vec2;
use crate::shape::hull::convex_hull;
use crate::shape::vertices::Vertices;
use crate::shape::Aabb;
use alloc::format;
use alloc::vec::Vec;

/// A closed convex polygon with positive area, stored counter-clockwise without repeated or
/// collinear vertices. Up to 8 vertices are stored in the value itself (72 bytes), more on the
/// heap.
#[derive(Clone)]
pub struct ConvexPolygon {
    /// The points, with their largest coordinate magnitude (for the float filters' error bounds).
    vertices: Vertices,
}

impl PartialEq for ConvexPolygon {
    fn eq(&self, other: &ConvexPolygon) -> bool {
        self.points() == other.points() && self.extent() == other.extent()
    }
}

impl core::fmt::Debug for ConvexPolygon {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ConvexPolygon")
            .field("points", &self.points())
            .field("extent", &self.extent())
            .finish()
    }
}

impl ConvexPolygon {
    /// The convex polygon through `points`, in either winding. Repeated points and points in the
    /// middle of an edge are dropped.
    ///
    /// # Errors
    /// [`ShapeError::TooManyPoints`] for more than
    /// [`MAX_POLYGON_POINTS`] points;
    /// [`ShapeError::NonFinite`] for a NaN or infinite coordinate (`points[i].x`);
    /// [`ShapeError::TooFewPoints`], [`ShapeError::ZeroArea`]; [`ShapeError::NotConvex`] when the
    /// points, in order, do not trace a convex polygon once.
    ///
    /// ```
    /// use collide2d::{math::Vec2, ConvexPolygon};
    /// let tri = ConvexPolygon::new(&[Vec2::ZERO, Vec2::new(0.0, 2.0), Vec2::new(2.0, 0.0)])?;
    /// assert_eq!(tri.points().len(), 3); // stored counter-clockwise
    /// # Ok::<(), collide2d::ShapeError>(())
    /// ```
    pub fn new(points: &[Vec2]) -> Result<ConvexPolygon, ShapeError> {
        let ring = clean_ring(points)?;
        let hull = convex_hull(&ring);
        // The input traces its hull once, in order, exactly when it is a rotation of the hull.
        let start = ring.iter().position(|&p| p == hull[0]);
        let traces_hull = ring.len() == hull.len()
            && start
                .is_some_and(|s| (0..ring.len()).all(|i| ring[(s + i) % ring.len()] == hull[i]));
        if !traces_hull {
            return Err(ShapeError::NotConvex);
        }
        Ok(ConvexPolygon::new_unchecked(hull))
    }

    /// A polygon the caller knows to be strictly convex and counter-clockwise.
    pub(crate) fn new_unchecked(points: Vec<Vec2>) -> ConvexPolygon {
        ConvexPolygon {
            vertices: Vertices::from_vec(points),
        }
    }

    /// The vertices, counter-clockwise.
    #[must_use]
    #[inline]
    pub fn points(&self) -> &[Vec2] {
        self.vertices.as_slice()
    }

    /// The largest magnitude of a vertex coordinate.
    #[inline]
    pub(crate) fn extent(&self) -> f32 {
        self.vertices.extent()
    }

    /// Its bounding box.
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        points_aabb(self.points())
    }

    /// The polygon with every vertex mapped by the rigid motion `f`, then reduced to the convex
    /// hull of the rounded vertices: rounding can make a vertex reflex, or collapse a small
    /// polygon far from the origin to a segment or a point (fewer than 3 points, which the
    /// queries read as that segment or point).
    pub(crate) fn map_points(&self, f: impl Fn(Vec2) -> Vec2) -> ConvexPolygon {
        let mapped: Vec<Vec2> = self.points().iter().map(|&p| f(p)).collect();
        ConvexPolygon::new_unchecked(convex_hull(&mapped))
    }

    /// [`map_points`](Self::map_points) into `out`, reusing its heap memory: the mapped ring is
    /// kept when it is still strictly convex (the usual case: [`convex_hull`] would give the
    /// same points, from the lowest `(x, y)`), else replaced by its hull.
    pub(crate) fn map_points_into(&self, f: impl Fn(Vec2) -> Vec2, out: &mut ConvexPolygon) {
        out.vertices.set_mapped(self.points(), f);
    }
}

/// The bounding box of a non-empty point list.
pub(crate) fn points_aabb(points: &[Vec2]) -> Aabb {
    let first = points.first().copied().unwrap_or_default();
    let (lo, hi) = points
        .iter()
        .fold((first, first), |(lo, hi), &p| (lo.min(p), hi.max(p)));
    Aabb::raw(lo, hi)
}

/// Validates a closed ring of points and returns it counter-clockwise, with consecutive repeats
/// (including last == first) and vertices in the middle of a straight run removed.
///
/// # Errors
/// More than [`MAX_POLYGON_POINTS`] points, non-finite coordinates, fewer than 3 distinct
/// points, zero area.
pub(crate) fn clean_ring(points: &[Vec2]) -> Result<Vec<Vec2>, ShapeError> {
    if points.len() > MAX_POLYGON_POINTS {
        return Err(ShapeError::TooManyPoints {
            got: points.len(),
            limit: MAX_POLYGON_POINTS,
        });
    }
    for (i, &p) in points.iter().enumerate() {
        finite_vec(&format!("points[{i}]"), p)?;
    }
    let mut ring: Vec<Vec2> = Vec::with_capacity(points.len());
    for &p in points {
        if ring.last() != Some(&p) {
            ring.push(p);
        }
    }
    while ring.len() > 1 && ring.first() == ring.last() {
        ring.pop();
    }
    let mut distinct = ring.clone();
    crate::sort::sort_by(&mut distinct, |a, b| {
        a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y))
    });
    distinct.dedup();
    if distinct.len() < 3 {
        return Err(ShapeError::TooFewPoints {
            distinct: distinct.len(),
        });
    }
    match area_sign(&ring) {
        core::cmp::Ordering::Equal => return Err(ShapeError::ZeroArea),
        core::cmp::Ordering::Less => ring.reverse(),
        core::cmp::Ordering::Greater => {}
    }
    Ok(remove_straight_vertices(ring))
}

/// Drops each vertex that lies strictly between its neighbours on a straight line. Spikes
/// (a vertex where the boundary folds back on itself) are kept for the simplicity check to reject.
fn remove_straight_vertices(mut ring: Vec<Vec2>) -> Vec<Vec2> {
    use crate::exact::{dot, orient};
    let mut changed = true;
    while changed && ring.len() > 3 {
        changed = false;
        let n = ring.len();
        for i in 0..n {
            let (a, b, c) = (ring[(i + n - 1) % n], ring[i], ring[(i + 1) % n]);
            if orient(a, b, c).is_eq() && dot(a, b, b, c).is_gt() {
                ring.remove(i);
                changed = true;
                break;
            }
        }
    }
    ring
}
