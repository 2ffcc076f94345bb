//! [`Vertices`]: a convex polygon's points and their extent, kept inline up to [`INLINE`]
//! points (Box2D's limit) so that a loop over stored polygons finds them where the polygon is,
//! and on the heap beyond that.

use crate::math::Vec2;
use crate::shape::hull::{convex_hull, in_hull_order};
use alloc::vec::Vec;

/// The most points kept inline: 8 points, their extent and count make 72 bytes, which keeps
/// [`Shape`](crate::Shape) at its size (its compound variant is larger).
pub(crate) const INLINE: usize = 8;

/// The points of a polygon (or, after rounding, of a segment or point) and the largest
/// magnitude of their coordinates. Polygons of up to [`INLINE`] points are always inline, larger
/// ones always on the heap, and unused inline slots hold zeros.
#[derive(Clone)]
pub(crate) enum Vertices {
    /// At most [`INLINE`] points: the first `len` of `points`.
    Inline {
        len: u8,
        extent: f32,
        points: [Vec2; INLINE],
    },
    /// More than [`INLINE`] points.
    Heap { extent: f32, points: Vec<Vec2> },
}

impl Vertices {
    /// The vertices `points`, inline when they fit.
    pub(crate) fn from_vec(points: Vec<Vec2>) -> Vertices {
        if points.len() <= INLINE {
            return Vertices::inline(&points);
        }
        Vertices::Heap {
            extent: points_extent(&points),
            points,
        }
    }

    /// At most [`INLINE`] points, inline.
    fn inline(points: &[Vec2]) -> Vertices {
        debug_assert!(points.len() <= INLINE);
        let mut buf = [Vec2::ZERO; INLINE];
        buf[..points.len()].copy_from_slice(points);
        Vertices::Inline {
            len: points.len() as u8,
            extent: points_extent(points),
            points: buf,
        }
    }

    /// The points, in order.
    #[inline(always)]
    pub(crate) fn as_slice(&self) -> &[Vec2] {
        match self {
            Vertices::Inline { len, points, .. } => &points[..usize::from(*len)],
            Vertices::Heap { points, .. } => points,
        }
    }

    /// The largest magnitude of a coordinate of the points.
    #[inline(always)]
    pub(crate) fn extent(&self) -> f32 {
        match self {
            Vertices::Inline { extent, .. } | Vertices::Heap { extent, .. } => *extent,
        }
    }

    /// `source` mapped by `f`, kept when still strictly convex (as `in_hull_order` leaves it),
    /// else its convex hull; reuses the heap memory of `self` when both are large.
    pub(crate) fn set_mapped(&mut self, source: &[Vec2], f: impl Fn(Vec2) -> Vec2) {
        if source.len() <= INLINE {
            let mut buf = [Vec2::ZERO; INLINE];
            for (to, &p) in buf.iter_mut().zip(source) {
                *to = f(p);
            }
            let ring = &mut buf[..source.len()];
            *self = if in_hull_order(ring) {
                Vertices::inline(ring)
            } else {
                Vertices::from_vec(convex_hull(ring))
            };
            return;
        }
        let mut points = match core::mem::replace(self, Vertices::inline(&[])) {
            Vertices::Heap { points, .. } => points,
            Vertices::Inline { .. } => Vec::with_capacity(source.len()),
        };
        points.clear();
        points.extend(source.iter().map(|&p| f(p)));
        if !in_hull_order(&mut points) {
            points = convex_hull(&points);
        }
        *self = Vertices::from_vec(points);
    }
}

/// The largest magnitude of a coordinate of `points`.
fn points_extent(points: &[Vec2]) -> f32 {
    points
        .iter()
        .fold(0.0_f32, |m, p| m.max(p.abs().max_element()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    #[cfg(target_pointer_width = "64")]
    fn an_inline_polygon_keeps_shape_at_its_size() {
        use core::mem::size_of;
        assert_eq!(size_of::<crate::ConvexPolygon>(), 72);
        assert_eq!(size_of::<crate::Shape>(), size_of::<crate::Compound>());
    }

    #[test]
    fn small_polygons_are_inline_and_large_ones_on_the_heap() {
        let ring = |n: usize| -> Vec<Vec2> {
            (0..n)
                .map(|k| Vec2::from_angle(k as f32 * core::f32::consts::TAU / n as f32) * 8.0)
                .collect()
        };
        for n in [3, INLINE, INLINE + 1, 40] {
            let v = Vertices::from_vec(ring(n));
            assert_eq!(v.as_slice(), &ring(n)[..]);
            assert_eq!(matches!(v, Vertices::Inline { .. }), n <= INLINE);
            assert_eq!(v.extent(), points_extent(&ring(n)));
        }
    }

    #[test]
    fn mapping_moves_between_inline_and_heap_as_the_hull_shrinks_or_grows() {
        let square = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)].map(|(x, y)| Vec2::new(x, y));
        let mut v = Vertices::from_vec(vec![Vec2::ZERO; 12]);
        v.set_mapped(&square, |p| p * 2.0);
        assert!(matches!(v, Vertices::Inline { len: 4, .. }));
        assert_eq!(v.extent(), 2.0);
        // Collapsed by the map: the hull of the rounded points, 2 of them.
        v.set_mapped(&square, |p| Vec2::new(p.x, 0.0));
        assert_eq!(v.as_slice(), &[Vec2::ZERO, Vec2::X][..]);
    }
}
