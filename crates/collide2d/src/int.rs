//! Integer shapes for pixel and tile games: [`IPoint`], [`IRect`] and [`ICircle`].
//!
//! Every shape is a closed set of the real plane with integer coordinates, so shapes that only
//! touch intersect: `IRect::new(0, 0, 16, 16)` and `IRect::new(16, 0, 16, 16)` share the edge
//! `x = 16`. [`intersects`] and [`contains`] are exact over the whole `i32` range: far corners
//! (`x + w`) are computed in `i64` and squared distances in `i128` (the difference of two `i32`
//! can be `2^32 - 1`, and its square does not fit in `i64`).
//!
//! ```
//! use collide2d::int::{intersects, ICircle, IPoint, IRect};
//! let tile = IRect::new(0, 0, 16, 16)?;
//! let next = IRect::new(16, 0, 16, 16)?;
//! assert!(tile.intersects(next)); // touching counts
//! let coin = ICircle::new(IPoint::new(20, 20), 5)?;
//! assert!(intersects(coin, IPoint::new(23, 24))); // 3-4-5: on the circle
//! assert!(!intersects(tile, coin)); // the corner (16, 16) is sqrt(32) > 5 away
//! # Ok::<(), collide2d::ShapeError>(())
//! ```

use crate::error::ShapeError;

/// A point with integer coordinates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct IPoint {
    /// Horizontal coordinate.
    pub x: i32,
    /// Vertical coordinate.
    pub y: i32,
}

impl IPoint {
    /// The point `(x, y)`.
    #[must_use]
    pub const fn new(x: i32, y: i32) -> IPoint {
        IPoint { x, y }
    }

    /// True when `self` and `other` share a point (any shape).
    #[must_use]
    pub fn intersects(self, other: impl Into<IShape>) -> bool {
        intersects(self, other)
    }

    /// True when every point of `other` equals `self`: another equal point, or a rect or circle
    /// of zero size there.
    #[must_use]
    pub fn contains(self, other: impl Into<IShape>) -> bool {
        contains(self, other)
    }
}

impl From<glam::IVec2> for IPoint {
    fn from(v: glam::IVec2) -> IPoint {
        IPoint { x: v.x, y: v.y }
    }
}

impl From<IPoint> for glam::IVec2 {
    fn from(p: IPoint) -> glam::IVec2 {
        glam::IVec2::new(p.x, p.y)
    }
}

/// The closed axis-aligned rectangle `[x, x + w] × [y, y + h]`, `w, h >= 0`.
///
/// The far edges `x + w` and `y + h` may exceed `i32::MAX`; they are returned as `i64`.
/// A 16×16 tile at `(0, 0)` touches the tile at `(16, 0)`; for pixel coverage, where those two
/// tiles must not meet, use `w - 1` and `h - 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IRect {
    x: i32,
    y: i32,
    w: i32,
    h: i32,
}

impl IRect {
    /// The rectangle with corner `(x, y)`, width `w` and height `h`.
    ///
    /// # Errors
    /// [`ShapeError::NegativeInt`] when `w` or `h` is negative (field `w` or `h`).
    ///
    /// ```
    /// use collide2d::int::IRect;
    /// let r = IRect::new(i32::MAX, 0, i32::MAX, 1)?;
    /// assert_eq!(r.max_x(), 2 * i64::from(i32::MAX)); // no overflow
    /// assert!(IRect::new(0, 0, -1, 1).is_err());
    /// # Ok::<(), collide2d::ShapeError>(())
    /// ```
    pub fn new(x: i32, y: i32, w: i32, h: i32) -> Result<IRect, ShapeError> {
        for (field, v) in [("w", w), ("h", h)] {
            if v < 0 {
                return Err(ShapeError::NegativeInt {
                    field,
                    got: i64::from(v),
                });
            }
        }
        Ok(IRect { x, y, w, h })
    }

    /// The left edge.
    #[must_use]
    pub fn x(&self) -> i32 {
        self.x
    }

    /// The top (smaller `y`) edge.
    #[must_use]
    pub fn y(&self) -> i32 {
        self.y
    }

    /// The width, `>= 0`.
    #[must_use]
    pub fn w(&self) -> i32 {
        self.w
    }

    /// The height, `>= 0`.
    #[must_use]
    pub fn h(&self) -> i32 {
        self.h
    }

    /// The far edge `x + w`, without overflow.
    #[must_use]
    pub fn max_x(&self) -> i64 {
        i64::from(self.x) + i64::from(self.w)
    }

    /// The far edge `y + h`, without overflow.
    #[must_use]
    pub fn max_y(&self) -> i64 {
        i64::from(self.y) + i64::from(self.h)
    }

    /// True when `self` and `other` share a point (any shape; touching counts).
    #[must_use]
    pub fn intersects(self, other: impl Into<IShape>) -> bool {
        intersects(self, other)
    }

    /// True when every point of `other` lies in `self` (touching the edge from inside counts).
    #[must_use]
    pub fn contains(self, other: impl Into<IShape>) -> bool {
        contains(self, other)
    }

    fn corners(&self) -> [(i64, i64); 4] {
        let (x0, y0, x1, y1) = (
            i64::from(self.x),
            i64::from(self.y),
            self.max_x(),
            self.max_y(),
        );
        [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    }
}

/// The closed disc of integer `center` and `radius >= 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ICircle {
    center: IPoint,
    radius: i32,
}

impl ICircle {
    /// The closed disc around `center`.
    ///
    /// # Errors
    /// [`ShapeError::NegativeInt`] when `radius` is negative (field `radius`).
    ///
    /// ```
    /// use collide2d::int::{ICircle, IPoint};
    /// let c = ICircle::new(IPoint::new(0, 0), 50_000)?; // r * r overflows i32
    /// assert!(c.contains(IPoint::new(30_000, 40_000)));
    /// assert_eq!(ICircle::new(IPoint::new(0, 0), -1).unwrap_err().to_string(), "radius must be >= 0, got -1");
    /// # Ok::<(), collide2d::ShapeError>(())
    /// ```
    pub fn new(center: IPoint, radius: i32) -> Result<ICircle, ShapeError> {
        if radius < 0 {
            return Err(ShapeError::NegativeInt {
                field: "radius",
                got: i64::from(radius),
            });
        }
        Ok(ICircle { center, radius })
    }

    /// The center.
    #[must_use]
    pub fn center(&self) -> IPoint {
        self.center
    }

    /// The radius, `>= 0`.
    #[must_use]
    pub fn radius(&self) -> i32 {
        self.radius
    }

    /// True when `self` and `other` share a point (any shape; touching counts).
    #[must_use]
    pub fn intersects(self, other: impl Into<IShape>) -> bool {
        intersects(self, other)
    }

    /// True when every point of `other` lies in `self` (touching the circle from inside counts).
    #[must_use]
    pub fn contains(self, other: impl Into<IShape>) -> bool {
        contains(self, other)
    }

    /// `(x - cx)^2 + (y - cy)^2 <= radius^2`, exactly.
    fn covers(&self, x: i64, y: i64) -> bool {
        dist2(x, y, self.center) <= sq(i64::from(self.radius))
    }
}

/// Any integer shape; each of them converts into it, so the queries take any pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IShape {
    /// A single point.
    Point(IPoint),
    /// A closed rectangle.
    Rect(IRect),
    /// A closed disc.
    Circle(ICircle),
}

impl From<IPoint> for IShape {
    fn from(s: IPoint) -> IShape {
        IShape::Point(s)
    }
}

impl From<IRect> for IShape {
    fn from(s: IRect) -> IShape {
        IShape::Rect(s)
    }
}

impl From<ICircle> for IShape {
    fn from(s: ICircle) -> IShape {
        IShape::Circle(s)
    }
}

fn sq(v: i64) -> i128 {
    i128::from(v) * i128::from(v)
}

/// Squared distance from `(x, y)` to `p`: up to `2 * (2^33)^2`, so `i128`.
fn dist2(x: i64, y: i64, p: IPoint) -> i128 {
    sq(x - i64::from(p.x)) + sq(y - i64::from(p.y))
}

fn rect_covers(r: &IRect, x: i64, y: i64) -> bool {
    i64::from(r.x) <= x && x <= r.max_x() && i64::from(r.y) <= y && y <= r.max_y()
}

/// True when `a` and `b` share at least one point (touching counts). Exact for all `i32` inputs.
///
/// ```
/// use collide2d::int::{intersects, ICircle, IPoint, IRect};
/// let wall = IRect::new(0, 0, 10, 10)?;
/// assert!(intersects(wall, IRect::new(10, 10, 5, 5)?)); // corners touch
/// assert!(!intersects(wall, IRect::new(11, 0, 5, 5)?)); // one apart
/// let far = ICircle::new(IPoint::new(i32::MAX, 0), i32::MAX)?;
/// assert!(intersects(far, IPoint::new(0, 0)));
/// # Ok::<(), collide2d::ShapeError>(())
/// ```
#[must_use]
pub fn intersects(a: impl Into<IShape>, b: impl Into<IShape>) -> bool {
    use IShape::{Circle, Point, Rect};
    match (a.into(), b.into()) {
        (Point(p), Point(q)) => p == q,
        (Point(p), Rect(r)) | (Rect(r), Point(p)) => rect_covers(&r, p.x.into(), p.y.into()),
        (Point(p), Circle(c)) | (Circle(c), Point(p)) => c.covers(p.x.into(), p.y.into()),
        (Rect(a), Rect(b)) => {
            i64::from(a.x) <= b.max_x()
                && i64::from(b.x) <= a.max_x()
                && i64::from(a.y) <= b.max_y()
                && i64::from(b.y) <= a.max_y()
        }
        (Rect(r), Circle(c)) | (Circle(c), Rect(r)) => {
            let x = i64::from(c.center.x).clamp(r.x.into(), r.max_x());
            let y = i64::from(c.center.y).clamp(r.y.into(), r.max_y());
            c.covers(x, y)
        }
        (Circle(a), Circle(b)) => {
            let reach = i64::from(a.radius) + i64::from(b.radius);
            dist2(a.center.x.into(), a.center.y.into(), b.center) <= sq(reach)
        }
    }
}

/// True when every point of `b` lies in `a` (touching `a`'s boundary from inside counts).
/// Exact for all `i32` inputs. A point contains only itself and zero-size shapes at it.
///
/// ```
/// use collide2d::int::{contains, ICircle, IPoint, IRect};
/// let room = IRect::new(0, 0, 100, 100)?;
/// assert!(contains(room, ICircle::new(IPoint::new(90, 50), 10)?)); // touches the wall
/// assert!(!contains(room, ICircle::new(IPoint::new(91, 50), 10)?));
/// assert!(!contains(IPoint::new(0, 0), room));
/// # Ok::<(), collide2d::ShapeError>(())
/// ```
#[must_use]
pub fn contains(a: impl Into<IShape>, b: impl Into<IShape>) -> bool {
    use IShape::{Circle, Point, Rect};
    match (a.into(), b.into()) {
        (Point(p), Point(q)) => p == q,
        (Point(p), Rect(r)) => r.w == 0 && r.h == 0 && r.x == p.x && r.y == p.y,
        (Point(p), Circle(c)) => c.radius == 0 && c.center == p,
        (Rect(r), Point(p)) => rect_covers(&r, p.x.into(), p.y.into()),
        (Rect(a), Rect(b)) => {
            a.x <= b.x && b.max_x() <= a.max_x() && a.y <= b.y && b.max_y() <= a.max_y()
        }
        (Rect(r), Circle(c)) => {
            let (cx, cy, cr) = (
                i64::from(c.center.x),
                i64::from(c.center.y),
                i64::from(c.radius),
            );
            i64::from(r.x) <= cx - cr
                && cx + cr <= r.max_x()
                && i64::from(r.y) <= cy - cr
                && cy + cr <= r.max_y()
        }
        (Circle(c), Point(p)) => c.covers(p.x.into(), p.y.into()),
        // A disc is convex, so it holds the rect when it holds the four corners.
        (Circle(c), Rect(r)) => r.corners().iter().all(|&(x, y)| c.covers(x, y)),
        (Circle(a), Circle(b)) => {
            let slack = i64::from(a.radius) - i64::from(b.radius);
            slack >= 0 && dist2(a.center.x.into(), a.center.y.into(), b.center) <= sq(slack)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    const MIN: i32 = i32::MIN;
    const MAX: i32 = i32::MAX;

    fn rect(x: i32, y: i32, w: i32, h: i32) -> IRect {
        IRect::new(x, y, w, h).unwrap()
    }

    fn circle(x: i32, y: i32, r: i32) -> ICircle {
        ICircle::new(IPoint::new(x, y), r).unwrap()
    }

    /// Every query in both argument orders, which must agree for `intersects`.
    fn meets(a: impl Into<IShape>, b: impl Into<IShape>) -> bool {
        let (a, b) = (a.into(), b.into());
        let ab = intersects(a, b);
        assert_eq!(
            ab,
            intersects(b, a),
            "intersects not symmetric for {a:?}, {b:?}"
        );
        ab
    }

    #[test]
    fn negative_sizes_are_rejected_with_the_field_named() {
        assert_eq!(
            IRect::new(0, 0, -1, 0),
            Err(ShapeError::NegativeInt {
                field: "w",
                got: -1
            })
        );
        assert_eq!(
            IRect::new(0, 0, 0, MIN),
            Err(ShapeError::NegativeInt {
                field: "h",
                got: i64::from(MIN)
            })
        );
        let err = ICircle::new(IPoint::new(0, 0), -5).unwrap_err();
        assert_eq!(err.to_string(), "radius must be >= 0, got -5");
        assert!(IRect::new(MIN, MIN, 0, 0).is_ok());
        assert!(ICircle::new(IPoint::new(MAX, MIN), 0).is_ok());
    }

    #[test]
    fn points_meet_only_when_equal() {
        assert!(meets(IPoint::new(MIN, MAX), IPoint::new(MIN, MAX)));
        assert!(!meets(IPoint::new(MIN, MAX), IPoint::new(MIN + 1, MAX)));
    }

    #[test]
    fn rects_touching_at_an_edge_or_corner_intersect_and_one_apart_do_not() {
        let a = rect(0, 0, 10, 10);
        assert!(meets(a, rect(10, 0, 5, 5)));
        assert!(meets(a, rect(10, 10, 5, 5)));
        assert!(meets(a, rect(-5, -5, 5, 5)));
        assert!(!meets(a, rect(11, 0, 5, 5)));
        assert!(!meets(a, rect(0, -6, 5, 5)));
        assert!(meets(a, rect(3, 3, 0, 0))); // a zero-size rect inside
    }

    #[test]
    fn rect_far_edges_beyond_i32_max_do_not_wrap() {
        // x + w = 2^32 - 2 would wrap to -2 in i32 and miss everything on the right.
        let wide = rect(MAX, 0, MAX, 1);
        assert!(meets(wide, IPoint::new(MAX, 1)));
        assert!(!meets(wide, IPoint::new(MAX - 1, 0)));
        assert!(!meets(wide, rect(-10, 0, 5, 5)));
        let everything = rect(MIN, MIN, MAX, MAX); // up to -1, -1
        assert!(meets(everything, IPoint::new(-1, -1)));
        assert!(!meets(everything, IPoint::new(0, -1)));
        assert!(contains(everything, rect(MIN, MIN, MAX, MAX)));
        assert!(!contains(everything, rect(MIN + 1, MIN, MAX, MAX)));
    }

    #[test]
    fn point_on_a_circle_whose_radius_squared_overflows_i32_intersects() {
        // 50_000^2 = 2.5e9 > i32::MAX: `r * r` in i32 would overflow.
        let c = circle(0, 0, 50_000);
        assert!(meets(c, IPoint::new(30_000, 40_000)));
        assert!(meets(c, IPoint::new(-50_000, 0)));
        assert!(!meets(c, IPoint::new(30_000, 40_001)));
        assert!(!meets(c, IPoint::new(50_001, 0)));
    }

    #[test]
    fn circles_at_opposite_extremes_touch_exactly() {
        // Centres 2^32 - 2 apart, radii summing to 2^32 - 2: the squares need i128.
        let a = circle(MIN + 1, 0, MAX);
        let b = circle(MAX, 0, MAX);
        assert!(meets(a, b));
        let a_one_apart = circle(MIN, 0, MAX);
        assert!(!meets(a_one_apart, b));
        // The diagonal between opposite corners of the whole range.
        let far = circle(MIN, MIN, MAX);
        assert!(!meets(far, circle(MAX, MAX, MAX)));
        assert!(!meets(far, IPoint::new(MAX, MAX)));
        assert!(meets(far, IPoint::new(MIN, -1)));
        assert!(!meets(far, IPoint::new(MIN, 0)));
    }

    #[test]
    fn circle_touching_a_rect_corner_intersects_and_one_short_does_not() {
        let r = rect(0, 0, 3, 4);
        assert!(meets(r, circle(6, 8, 5))); // the corner (3, 4) is 5 away
        assert!(!meets(r, circle(6, 8, 4)));
        assert!(meets(r, circle(5, 2, 2))); // touches the right edge
        assert!(!meets(r, circle(6, 2, 2)));
        assert!(meets(r, circle(1, 1, 0))); // centre inside, zero radius
    }

    #[test]
    fn circle_and_rect_at_the_range_extremes() {
        let corner = rect(MIN, MIN, 0, 0);
        let c = circle(MAX, MAX, MAX);
        assert!(!meets(corner, c));
        // The far edge x + w = 2^32 - 2 lies beyond i32 (wrapped, it would be -2).
        let wide = rect(MAX, 0, MAX, 0);
        assert!(meets(wide, circle(MAX, 1, 1)));
        assert!(!meets(wide, circle(MAX, 2, 1)));
        // From (MAX - 1, -1) to the rect's corner (-1, -1) is exactly MAX.
        assert!(meets(rect(MIN, MIN, MAX, MAX), circle(MAX - 1, -1, MAX)));
        assert!(!meets(
            rect(MIN, MIN, MAX, MAX),
            circle(MAX - 1, -1, MAX - 1)
        ));
        assert!(!meets(rect(MIN, MIN, MAX, MAX), circle(MAX, -1, MAX)));
    }

    #[test]
    fn containment_touching_from_inside_counts() {
        let room = rect(0, 0, 100, 100);
        assert!(contains(room, rect(0, 0, 100, 100)));
        assert!(!contains(room, rect(1, 0, 100, 100)));
        assert!(contains(room, circle(10, 10, 10)));
        assert!(!contains(room, circle(9, 10, 10)));
        assert!(contains(room, IPoint::new(100, 0)));
        assert!(!contains(room, IPoint::new(101, 0)));
        let disc = circle(0, 0, 5);
        assert!(contains(disc, rect(0, 0, 3, 4)));
        assert!(!contains(disc, rect(0, 0, 3, 5)));
        assert!(contains(disc, circle(3, 0, 2)));
        assert!(!contains(disc, circle(3, 0, 3)));
        assert!(!contains(circle(0, 0, 1), circle(0, 0, 2)));
        assert!(contains(disc, IPoint::new(-3, -4)));
    }

    #[test]
    fn containment_at_the_range_extremes() {
        let big = circle(0, 0, MAX);
        assert!(contains(big, circle(MIN + 1, 0, 0)));
        assert!(!contains(big, IPoint::new(MIN, 0)));
        // A circle of radius MAX centred at MIN: its left edge lies below i32::MIN.
        assert!(!contains(rect(MIN, MIN, MAX, MAX), circle(MIN, MIN, MAX)));
        assert!(contains(circle(MIN, MIN, MAX), circle(MIN, MIN, MAX)));
        assert!(!contains(circle(MIN, MIN, 0), circle(MAX, MAX, MAX)));
    }

    #[test]
    fn a_point_contains_only_itself() {
        let p = IPoint::new(7, -3);
        assert!(p.contains(p));
        assert!(p.contains(rect(7, -3, 0, 0)));
        assert!(!p.contains(rect(7, -3, 1, 0)));
        assert!(p.contains(circle(7, -3, 0)));
        assert!(!p.contains(circle(7, -3, 1)));
        assert!(!p.contains(IPoint::new(7, -2)));
    }

    #[test]
    fn ivec2_round_trips() {
        let p = IPoint::new(MIN, MAX);
        assert_eq!(IPoint::from(glam::IVec2::from(p)), p);
    }
}
