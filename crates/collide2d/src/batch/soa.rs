//! [`Circles`] and [`Aabbs`]: shapes stored as structure-of-arrays, one column per number.

use super::column::Column;
use super::kernel::{Filter, Kernel};
use super::Items;
use crate::error::ShapeError;
use crate::math::Vec2;
use crate::shape::{Aabb, Circle, Point, Shape};
use alloc::vec::Vec;

/// Discs stored as three columns (center x, center y, radius), for batch queries.
///
/// Elements are validated on the way in, as [`Circle::new`] validates them, and keep their
/// index until [`swap_remove`](Circles::swap_remove) moves the last one into a gap.
///
/// ```
/// use collide2d::{batch::Circles, math::Vec2, Aabb};
/// let mut coins = Circles::new();
/// coins.push(Vec2::new(0.0, 0.0), 1.0)?;
/// coins.push(Vec2::new(8.0, 0.0), 1.0)?;
/// assert!(coins.push(Vec2::ZERO, -1.0).is_err());
/// let player = Aabb::new(Vec2::new(5.0, -1.0), Vec2::new(7.0, 1.0))?.into();
/// let mut hits = Vec::new();
/// coins.intersecting(&player, &mut hits);
/// assert_eq!(hits, [1]); // touches at (7, 0)
/// # Ok::<(), collide2d::ShapeError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Circles {
    pub(super) xs: Column,
    pub(super) ys: Column,
    radii: Column,
}

impl Circles {
    /// No discs.
    #[must_use]
    pub fn new() -> Circles {
        Circles::default()
    }

    /// No discs, with room for `n` before reallocating.
    #[must_use]
    pub fn with_capacity(n: usize) -> Circles {
        Circles {
            xs: Column::with_capacity(n),
            ys: Column::with_capacity(n),
            radii: Column::with_capacity(n),
        }
    }

    /// Appends the disc of `radius` around `center`; returns its index.
    ///
    /// # Errors
    /// As [`Circle::new`]: [`ShapeError::NonFinite`] for a NaN or infinite field,
    /// [`ShapeError::Negative`] for a negative radius. Nothing is appended then.
    pub fn push(&mut self, center: Vec2, radius: f32) -> Result<usize, ShapeError> {
        Ok(self.push_circle(&Circle::new(center, radius)?))
    }

    /// Appends a disc; returns its index.
    pub fn push_circle(&mut self, c: &Circle) -> usize {
        self.xs.push(c.center().x);
        self.ys.push(c.center().y);
        self.radii.push(c.radius());
        self.xs.len() - 1
    }

    /// Element `i`, if there is one.
    #[must_use]
    pub fn get(&self, i: usize) -> Option<Circle> {
        Some(Circle::new_unchecked(
            Vec2::new(*self.xs.get(i)?, *self.ys.get(i)?),
            *self.radii.get(i)?,
        ))
    }

    /// Replaces element `i` by `c`; returns the old one, or `None` (and changes nothing) if
    /// there is no element `i`.
    pub fn replace(&mut self, i: usize, c: &Circle) -> Option<Circle> {
        let old = self.get(i)?;
        self.xs[i] = c.center().x;
        self.ys[i] = c.center().y;
        self.radii[i] = c.radius();
        Some(old)
    }

    /// Removes element `i` and moves the last element into its place (O(1)); `None` if there
    /// is no element `i`.
    pub fn swap_remove(&mut self, i: usize) -> Option<Circle> {
        let old = self.get(i)?;
        self.xs.swap_remove(i);
        self.ys.swap_remove(i);
        self.radii.swap_remove(i);
        Some(old)
    }

    /// Removes every element, keeping the allocations.
    pub fn clear(&mut self) {
        self.xs.clear();
        self.ys.clear();
        self.radii.clear();
    }

    /// The number of discs.
    #[must_use]
    pub fn len(&self) -> usize {
        self.xs.len()
    }

    /// True when there are no discs.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.xs.is_empty()
    }

    /// The discs in index order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Circle> + '_ {
        (0..self.len())
            .map(|i| Circle::new_unchecked(Vec2::new(self.xs[i], self.ys[i]), self.radii[i]))
    }

    /// The center x column.
    #[must_use]
    pub fn xs(&self) -> &[f32] {
        &self.xs
    }

    /// The center y column.
    #[must_use]
    pub fn ys(&self) -> &[f32] {
        &self.ys
    }

    /// The radius column.
    #[must_use]
    pub fn radii(&self) -> &[f32] {
        &self.radii
    }

    /// Replaces `out`'s contents by the indices of the discs `probe` intersects (touching
    /// counts), ascending: exactly those `i` with [`intersects`](crate::intersects)`(probe,
    /// disc i)`. Runs on [`Kernel::best`]; allocates only if `out` must grow.
    ///
    /// ```
    /// use collide2d::{batch::Circles, math::Vec2, Point};
    /// let discs: Circles = (0..10)
    ///     .map(|i| collide2d::Circle::new(Vec2::new(i as f32, 0.0), 0.5))
    ///     .collect::<Result<_, _>>()?;
    /// let mut hits = Vec::new();
    /// discs.intersecting(&Point::new(Vec2::new(3.5, 0.0))?.into(), &mut hits);
    /// assert_eq!(hits, [3, 4]); // on both circles
    /// # Ok::<(), collide2d::ShapeError>(())
    /// ```
    pub fn intersecting(&self, probe: &Shape, out: &mut Vec<usize>) {
        self.intersecting_with(Kernel::best(), probe, out);
    }

    /// [`intersecting`](Circles::intersecting) on a given kernel (same answers, other speed).
    pub fn intersecting_with(&self, kernel: Kernel, probe: &Shape, out: &mut Vec<usize>) {
        super::collect(kernel, self, probe, out);
    }

    /// True when `probe` intersects some disc (touching counts); stops at the first hit.
    #[must_use]
    pub fn intersects_any(&self, probe: &Shape) -> bool {
        self.intersects_any_with(Kernel::best(), probe)
    }

    /// [`intersects_any`](Circles::intersects_any) on a given kernel.
    #[must_use]
    pub fn intersects_any_with(&self, kernel: Kernel, probe: &Shape) -> bool {
        super::any(kernel, self, probe)
    }
}

impl Items for Circles {
    fn filter(&self, probe: &Shape) -> (Filter<'_>, bool) {
        let items = [&self.xs[..], &self.ys[..], &self.radii[..]];
        let circle = |c: Vec2, r: f32| Filter::CircleCircles {
            items,
            q: [c.x, c.y, r],
        };
        let boxed = |b: Aabb| Filter::BoxCircles {
            items,
            q: [b.min().x, b.min().y, b.max().x, b.max().y],
        };
        match probe {
            Shape::Point(p) => (circle(p.p(), 0.0), true),
            Shape::Circle(c) => (circle(c.center(), c.radius()), true),
            Shape::Aabb(b) => (boxed(*b), true),
            other => (boxed(other.aabb()), false),
        }
    }

    fn shape(&self, i: usize) -> Shape {
        Shape::Circle(Circle::new_unchecked(
            Vec2::new(self.xs[i], self.ys[i]),
            self.radii[i],
        ))
    }
}

impl FromIterator<Circle> for Circles {
    fn from_iter<I: IntoIterator<Item = Circle>>(iter: I) -> Circles {
        let mut out = Circles::new();
        out.extend(iter);
        out
    }
}

impl Extend<Circle> for Circles {
    fn extend<I: IntoIterator<Item = Circle>>(&mut self, iter: I) {
        for c in iter {
            self.push_circle(&c);
        }
    }
}

/// Axis-aligned boxes stored as four columns (min x, min y, max x, max y), for batch queries.
///
/// Elements are validated on the way in, as [`Aabb::new`] validates them, and keep their
/// index until [`swap_remove`](Aabbs::swap_remove) moves the last one into a gap.
///
/// ```
/// use collide2d::{batch::Aabbs, math::Vec2, Circle};
/// let mut tiles = Aabbs::new();
/// for x in 0..4 {
///     tiles.push(Vec2::new(x as f32, 0.0), Vec2::new(x as f32 + 1.0, 1.0))?;
/// }
/// let ball = Circle::new(Vec2::new(2.0, 2.0), 1.0)?.into();
/// let mut hits = Vec::new();
/// tiles.intersecting(&ball, &mut hits);
/// assert_eq!(hits, [1, 2]); // both touch the ball at (2, 1)
/// # Ok::<(), collide2d::ShapeError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Aabbs {
    pub(super) min_xs: Column,
    pub(super) min_ys: Column,
    pub(super) max_xs: Column,
    pub(super) max_ys: Column,
}

impl Aabbs {
    /// No boxes.
    #[must_use]
    pub fn new() -> Aabbs {
        Aabbs::default()
    }

    /// No boxes, with room for `n` before reallocating.
    #[must_use]
    pub fn with_capacity(n: usize) -> Aabbs {
        Aabbs {
            min_xs: Column::with_capacity(n),
            min_ys: Column::with_capacity(n),
            max_xs: Column::with_capacity(n),
            max_ys: Column::with_capacity(n),
        }
    }

    /// Appends the box from `min` to `max`; returns its index.
    ///
    /// # Errors
    /// As [`Aabb::new`]: [`ShapeError::NonFinite`] for a NaN or infinite coordinate,
    /// [`ShapeError::MinAboveMax`] when `min` exceeds `max` on an axis. Nothing is appended
    /// then.
    pub fn push(&mut self, min: Vec2, max: Vec2) -> Result<usize, ShapeError> {
        Ok(self.push_aabb(&Aabb::new(min, max)?))
    }

    /// Appends a box; returns its index.
    pub fn push_aabb(&mut self, b: &Aabb) -> usize {
        self.min_xs.push(b.min().x);
        self.min_ys.push(b.min().y);
        self.max_xs.push(b.max().x);
        self.max_ys.push(b.max().y);
        self.min_xs.len() - 1
    }

    /// Element `i`, if there is one.
    #[must_use]
    pub fn get(&self, i: usize) -> Option<Aabb> {
        Some(Aabb::raw(
            Vec2::new(*self.min_xs.get(i)?, *self.min_ys.get(i)?),
            Vec2::new(*self.max_xs.get(i)?, *self.max_ys.get(i)?),
        ))
    }

    /// Replaces element `i` by `b`; returns the old one, or `None` (and changes nothing) if
    /// there is no element `i`.
    pub fn replace(&mut self, i: usize, b: &Aabb) -> Option<Aabb> {
        let old = self.get(i)?;
        self.min_xs[i] = b.min().x;
        self.min_ys[i] = b.min().y;
        self.max_xs[i] = b.max().x;
        self.max_ys[i] = b.max().y;
        Some(old)
    }

    /// Removes element `i` and moves the last element into its place (O(1)); `None` if there
    /// is no element `i`.
    pub fn swap_remove(&mut self, i: usize) -> Option<Aabb> {
        let old = self.get(i)?;
        self.min_xs.swap_remove(i);
        self.min_ys.swap_remove(i);
        self.max_xs.swap_remove(i);
        self.max_ys.swap_remove(i);
        Some(old)
    }

    /// Removes every element, keeping the allocations.
    pub fn clear(&mut self) {
        self.min_xs.clear();
        self.min_ys.clear();
        self.max_xs.clear();
        self.max_ys.clear();
    }

    /// The number of boxes.
    #[must_use]
    pub fn len(&self) -> usize {
        self.min_xs.len()
    }

    /// True when there are no boxes.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.min_xs.is_empty()
    }

    /// The boxes in index order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Aabb> + '_ {
        (0..self.len()).map(|i| self.at(i))
    }

    /// The min x column.
    #[must_use]
    pub fn min_xs(&self) -> &[f32] {
        &self.min_xs
    }

    /// The min y column.
    #[must_use]
    pub fn min_ys(&self) -> &[f32] {
        &self.min_ys
    }

    /// The max x column.
    #[must_use]
    pub fn max_xs(&self) -> &[f32] {
        &self.max_xs
    }

    /// The max y column.
    #[must_use]
    pub fn max_ys(&self) -> &[f32] {
        &self.max_ys
    }

    /// Replaces `out`'s contents by the indices of the boxes `probe` intersects (touching
    /// counts), ascending: exactly those `i` with [`intersects`](crate::intersects)`(probe,
    /// box i)`. Runs on [`Kernel::best`]; allocates only if `out` must grow.
    ///
    /// ```
    /// use collide2d::{batch::Aabbs, math::Vec2, Segment};
    /// let mut walls = Aabbs::new();
    /// walls.push(Vec2::new(0.0, 0.0), Vec2::new(1.0, 1.0))?;
    /// walls.push(Vec2::new(3.0, 0.0), Vec2::new(4.0, 1.0))?;
    /// let ray = Segment::new(Vec2::new(-1.0, 2.0), Vec2::new(2.0, -1.0))?.into();
    /// let mut hits = Vec::new();
    /// walls.intersecting(&ray, &mut hits);
    /// assert_eq!(hits, [0]);
    /// # Ok::<(), collide2d::ShapeError>(())
    /// ```
    pub fn intersecting(&self, probe: &Shape, out: &mut Vec<usize>) {
        self.intersecting_with(Kernel::best(), probe, out);
    }

    /// [`intersecting`](Aabbs::intersecting) on a given kernel (same answers, other speed).
    pub fn intersecting_with(&self, kernel: Kernel, probe: &Shape, out: &mut Vec<usize>) {
        super::collect(kernel, self, probe, out);
    }

    /// True when `probe` intersects some box (touching counts); stops at the first hit.
    #[must_use]
    pub fn intersects_any(&self, probe: &Shape) -> bool {
        self.intersects_any_with(Kernel::best(), probe)
    }

    /// [`intersects_any`](Aabbs::intersects_any) on a given kernel.
    #[must_use]
    pub fn intersects_any_with(&self, kernel: Kernel, probe: &Shape) -> bool {
        super::any(kernel, self, probe)
    }

    fn at(&self, i: usize) -> Aabb {
        Aabb::raw(
            Vec2::new(self.min_xs[i], self.min_ys[i]),
            Vec2::new(self.max_xs[i], self.max_ys[i]),
        )
    }
}

impl Items for Aabbs {
    fn filter(&self, probe: &Shape) -> (Filter<'_>, bool) {
        let items = [
            &self.min_xs[..],
            &self.min_ys[..],
            &self.max_xs[..],
            &self.max_ys[..],
        ];
        let boxed = |b: Aabb| Filter::BoxBoxes {
            items,
            q: [b.min().x, b.min().y, b.max().x, b.max().y],
        };
        match probe {
            Shape::Point(p) => (boxed(Point::aabb(p)), true),
            Shape::Circle(c) => (
                Filter::CircleBoxes {
                    items,
                    q: [c.center().x, c.center().y, c.radius()],
                },
                true,
            ),
            Shape::Aabb(b) => (boxed(*b), true),
            other => (boxed(other.aabb()), false),
        }
    }

    fn shape(&self, i: usize) -> Shape {
        Shape::Aabb(self.at(i))
    }
}

impl FromIterator<Aabb> for Aabbs {
    fn from_iter<I: IntoIterator<Item = Aabb>>(iter: I) -> Aabbs {
        let mut out = Aabbs::new();
        out.extend(iter);
        out
    }
}

impl Extend<Aabb> for Aabbs {
    fn extend<I: IntoIterator<Item = Aabb>>(&mut self, iter: I) {
        for b in iter {
            self.push_aabb(&b);
        }
    }
}
