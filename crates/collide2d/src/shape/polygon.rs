//! [`Polygon`]: a simple polygon, possibly concave, kept with its convex parts.

use crate::error::ShapeError;
use crate::exact::{dot, orient, segments_intersect};
use crate::math::Vec2;
use crate::shape::convex_polygon::{clean_ring, points_aabb};
use crate::shape::{decompose::convex_parts, Aabb, ConvexPolygon};
use alloc::vec::Vec;

/// A closed simple polygon (its boundary does not cross or touch itself), either winding,
/// concave allowed. It is stored counter-clockwise together with convex parts whose union it is;
/// queries run part by part.
#[derive(Clone, Debug, PartialEq)]
pub struct Polygon {
    points: Vec<Vec2>,
    parts: Vec<ConvexPolygon>,
}

impl Polygon {
    /// The polygon through `points`, in either winding. Repeated points (including a closing
    /// copy of the first) and points in the middle of a straight edge are dropped.
    ///
    /// # Errors
    /// [`ShapeError::TooManyPoints`] for more than
    /// [`MAX_POLYGON_POINTS`](crate::limits::MAX_POLYGON_POINTS) points,
    /// [`ShapeError::NonFinite`] (`points[i].x`), [`ShapeError::TooFewPoints`],
    /// [`ShapeError::ZeroArea`], [`ShapeError::SelfIntersecting`] naming two edges that meet.
    ///
    /// ```
    /// use collide2d::{math::Vec2, Polygon};
    /// // An L shape: concave, split into convex parts.
    /// let l = [(0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (1.0, 1.0), (1.0, 2.0), (0.0, 2.0)];
    /// let poly = Polygon::new(&l.map(|(x, y)| Vec2::new(x, y)))?;
    /// assert_eq!(poly.parts().len(), 2);
    /// let bowtie = [(0.0, 0.0), (2.0, 2.0), (2.0, 0.0), (0.0, 2.0)];
    /// assert!(Polygon::new(&bowtie.map(|(x, y)| Vec2::new(x, y))).is_err());
    /// # Ok::<(), collide2d::ShapeError>(())
    /// ```
    pub fn new(points: &[Vec2]) -> Result<Polygon, ShapeError> {
        let ring = clean_ring(points)?;
        check_simple(&ring)?;
        let parts = convex_parts(&ring);
        Ok(Polygon {
            points: ring,
            parts,
        })
    }

    /// The boundary, counter-clockwise, cleaned as described in [`Polygon::new`].
    #[must_use]
    pub fn points(&self) -> &[Vec2] {
        &self.points
    }

    /// Convex parts whose union is the polygon.
    #[must_use]
    pub fn parts(&self) -> &[ConvexPolygon] {
        &self.parts
    }

    /// True when the polygon is convex (a single part).
    #[must_use]
    pub fn is_convex(&self) -> bool {
        self.parts.len() == 1
    }

    /// Its bounding box.
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        points_aabb(&self.points)
    }

    /// The polygon with every vertex mapped by the rigid motion `f`.
    pub(crate) fn map_points(&self, f: impl Fn(Vec2) -> Vec2 + Copy) -> Polygon {
        Polygon {
            points: self.points.iter().map(|&p| f(p)).collect(),
            parts: self.parts.iter().map(|part| part.map_points(f)).collect(),
        }
    }

    /// [`map_points`](Self::map_points) into `out`, which has as many parts, reusing its memory.
    pub(crate) fn map_points_into(&self, f: impl Fn(Vec2) -> Vec2 + Copy, out: &mut Polygon) {
        debug_assert_eq!(self.parts.len(), out.parts.len());
        out.points.clear();
        out.points.extend(self.points.iter().map(|&p| f(p)));
        for (part, into) in self.parts.iter().zip(&mut out.parts) {
            part.map_points_into(f, into);
        }
    }
}

/// Rejects a ring whose edges meet anywhere but at the shared vertex of neighbouring edges.
fn check_simple(ring: &[Vec2]) -> Result<(), ShapeError> {
    let n = ring.len();
    let edge = |i: usize| (ring[i], ring[(i + 1) % n]);
    for i in 0..n {
        let (a, b) = edge(i);
        let c = ring[(i + 2) % n];
        // Neighbours share `b`; they overlap only when the boundary folds back at `b`.
        if orient(a, b, c).is_eq() && dot(a, b, b, c).is_lt() {
            return Err(ShapeError::SelfIntersecting {
                first: i,
                second: (i + 1) % n,
            });
        }
        for j in (i + 2)..n {
            if i == 0 && j == n - 1 {
                continue; // neighbours through the closing vertex
            }
            let (c, d) = edge(j);
            if segments_intersect(a, b, c, d) {
                return Err(ShapeError::SelfIntersecting {
                    first: i,
                    second: j,
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::MAX_POLYGON_POINTS;
    use alloc::string::ToString;

    /// A regular `n`-gon of radius 1000.
    fn ngon(n: usize) -> Vec<Vec2> {
        (0..n)
            .map(|k| Vec2::from_angle(k as f32 * core::f32::consts::TAU / n as f32) * 1000.0)
            .collect()
    }

    #[test]
    fn polygons_take_up_to_the_point_limit() {
        assert!(Polygon::new(&ngon(MAX_POLYGON_POINTS)).is_ok());
        assert!(ConvexPolygon::new(&ngon(MAX_POLYGON_POINTS)).is_ok());
    }

    #[test]
    fn too_many_points_is_an_error_naming_the_limit() {
        let n = MAX_POLYGON_POINTS + 1;
        let expected = ShapeError::TooManyPoints {
            got: n,
            limit: MAX_POLYGON_POINTS,
        };
        assert_eq!(Polygon::new(&ngon(n)), Err(expected.clone()));
        assert_eq!(ConvexPolygon::new(&ngon(n)), Err(expected.clone()));
        assert_eq!(
            expected.to_string(),
            "points must hold at most 128 points (limit MAX_POLYGON_POINTS), got 129"
        );
    }
}
