//! What a tutorial would write: straightforward `f32` intersection tests, no exactness, no
//! tolerance. The baseline that shows what collide2d's exact predicates cost.

/// A disc.
#[derive(Clone, Copy, Debug)]
pub struct Circle {
    /// Center x.
    pub x: f32,
    /// Center y.
    pub y: f32,
    /// Radius.
    pub r: f32,
}

/// An axis-aligned box.
#[derive(Clone, Copy, Debug)]
pub struct Aabb {
    /// Lower x.
    pub min_x: f32,
    /// Lower y.
    pub min_y: f32,
    /// Upper x.
    pub max_x: f32,
    /// Upper y.
    pub max_y: f32,
}

/// A rotated box: center, half extents along its own axes, and the rotation's cos and sin.
#[derive(Clone, Copy, Debug)]
pub struct Obb {
    /// Center x.
    pub cx: f32,
    /// Center y.
    pub cy: f32,
    /// Half width along the box's x axis.
    pub hx: f32,
    /// Half height along the box's y axis.
    pub hy: f32,
    /// Cosine of the rotation.
    pub cos: f32,
    /// Sine of the rotation.
    pub sin: f32,
}

/// A convex polygon, counter-clockwise.
#[derive(Clone, Debug)]
pub struct Polygon {
    /// The vertices.
    pub points: Vec<[f32; 2]>,
}

/// A segment `ab` plus a radius.
#[derive(Clone, Copy, Debug)]
pub struct Capsule {
    /// First end x.
    pub ax: f32,
    /// First end y.
    pub ay: f32,
    /// Second end x.
    pub bx: f32,
    /// Second end y.
    pub by: f32,
    /// Radius.
    pub r: f32,
}

/// `dx² + dy² <= (r1 + r2)²`.
#[inline]
#[must_use]
pub fn circle_circle(a: &Circle, b: &Circle) -> bool {
    let (dx, dy, r) = (b.x - a.x, b.y - a.y, a.r + b.r);
    dx * dx + dy * dy <= r * r
}

/// Clamp the center into the box, then compare the squared distance.
#[inline]
#[must_use]
pub fn circle_aabb(c: &Circle, b: &Aabb) -> bool {
    let dx = c.x - c.x.clamp(b.min_x, b.max_x);
    let dy = c.y - c.y.clamp(b.min_y, b.max_y);
    dx * dx + dy * dy <= c.r * c.r
}

/// Interval overlap on both axes.
#[inline]
#[must_use]
pub fn aabb_aabb(a: &Aabb, b: &Aabb) -> bool {
    a.min_x <= b.max_x && b.min_x <= a.max_x && a.min_y <= b.max_y && b.min_y <= a.max_y
}

/// Separating axis test on the four box axes (Ericson, RTCD 4.4.1, in 2D).
#[inline]
#[must_use]
pub fn obb_obb(a: &Obb, b: &Obb) -> bool {
    let (dx, dy) = (b.cx - a.cx, b.cy - a.cy);
    let axes = [
        (a.cos, a.sin),
        (-a.sin, a.cos),
        (b.cos, b.sin),
        (-b.sin, b.cos),
    ];
    // Projected half width of a box on a unit axis.
    let radius = |o: &Obb, (x, y): (f32, f32)| {
        o.hx * (o.cos * x + o.sin * y).abs() + o.hy * (-o.sin * x + o.cos * y).abs()
    };
    axes.iter()
        .all(|&(x, y)| (dx * x + dy * y).abs() <= radius(a, (x, y)) + radius(b, (x, y)))
}

/// Projections of `points` on `(nx, ny)`: (min, max).
#[inline]
fn project(points: &[[f32; 2]], nx: f32, ny: f32) -> (f32, f32) {
    points
        .iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), p| {
            let s = p[0] * nx + p[1] * ny;
            (lo.min(s), hi.max(s))
        })
}

/// Some edge normal of `a` separates the projections of `a` and `b`.
#[inline]
fn edge_separates(a: &[[f32; 2]], b: &[[f32; 2]]) -> bool {
    let n = a.len();
    (0..n).any(|i| {
        let (p, q) = (a[i], a[if i + 1 == n { 0 } else { i + 1 }]);
        let (nx, ny) = (q[1] - p[1], p[0] - q[0]);
        let (amin, amax) = project(a, nx, ny);
        let (bmin, bmax) = project(b, nx, ny);
        amax < bmin || bmax < amin
    })
}

/// Separating axis test over the edge normals of both polygons.
#[inline]
#[must_use]
pub fn polygon_polygon(a: &Polygon, b: &Polygon) -> bool {
    !edge_separates(&a.points, &b.points) && !edge_separates(&b.points, &a.points)
}

/// Squared distance from the center to the closest point of the segment, against `(r1 + r2)²`.
#[inline]
#[must_use]
pub fn capsule_circle(k: &Capsule, c: &Circle) -> bool {
    let (ex, ey) = (k.bx - k.ax, k.by - k.ay);
    let (wx, wy) = (c.x - k.ax, c.y - k.ay);
    let len2 = ex * ex + ey * ey;
    let t = if len2 > 0.0 {
        ((wx * ex + wy * ey) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (dx, dy) = (wx - t * ex, wy - t * ey);
    let r = k.r + c.r;
    dx * dx + dy * dy <= r * r
}

/// Some edge normal of `a` separates the projections of `a` and `b` ([`edge_separates`] on
/// collide2d's points).
#[inline]
fn edge_separates_vec2(a: &[collide2d::math::Vec2], b: &[collide2d::math::Vec2]) -> bool {
    let project = |points: &[collide2d::math::Vec2], nx: f32, ny: f32| {
        points
            .iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), p| {
                let s = p.x * nx + p.y * ny;
                (lo.min(s), hi.max(s))
            })
    };
    let n = a.len();
    (0..n).any(|i| {
        let (p, q) = (a[i], a[if i + 1 == n { 0 } else { i + 1 }]);
        let (nx, ny) = (q.y - p.y, p.x - q.x);
        let (amin, amax) = project(a, nx, ny);
        let (bmin, bmax) = project(b, nx, ny);
        amax < bmin || bmax < amin
    })
}

/// The plain `f32` tests above behind the same `Shape` enum dispatch collide2d has: the same
/// inputs (`&Shape` pairs) and the same match on both kinds, with the tutorial arithmetic
/// instead of exact predicates. The fairer baseline for the cost of exactness alone (`plain_f32`
/// also leaves out the dispatch). Pairs the bench does not time answer with the shapes' boxes.
#[inline]
#[must_use]
pub fn dispatch_intersects(a: &collide2d::Shape, b: &collide2d::Shape) -> bool {
    use collide2d::Shape as S;
    let circle = |c: &collide2d::Circle| Circle {
        x: c.center().x,
        y: c.center().y,
        r: c.radius(),
    };
    let aabb = |b: &collide2d::Aabb| Aabb {
        min_x: b.min().x,
        min_y: b.min().y,
        max_x: b.max().x,
        max_y: b.max().y,
    };
    let obb = |o: &collide2d::Obb| Obb {
        cx: o.center().x,
        cy: o.center().y,
        hx: o.half_extents().x,
        hy: o.half_extents().y,
        cos: o.rotation().x,
        sin: o.rotation().y,
    };
    let capsule = |k: &collide2d::Capsule| Capsule {
        ax: k.a().x,
        ay: k.a().y,
        bx: k.b().x,
        by: k.b().y,
        r: k.radius(),
    };
    match (a, b) {
        (S::Circle(x), S::Circle(y)) => circle_circle(&circle(x), &circle(y)),
        (S::Circle(c), S::Aabb(r)) | (S::Aabb(r), S::Circle(c)) => {
            circle_aabb(&circle(c), &aabb(r))
        }
        (S::Aabb(x), S::Aabb(y)) => aabb_aabb(&aabb(x), &aabb(y)),
        (S::Obb(x), S::Obb(y)) => obb_obb(&obb(x), &obb(y)),
        (S::ConvexPolygon(x), S::ConvexPolygon(y)) => {
            !edge_separates_vec2(x.points(), y.points())
                && !edge_separates_vec2(y.points(), x.points())
        }
        (S::Capsule(k), S::Circle(c)) | (S::Circle(c), S::Capsule(k)) => {
            capsule_circle(&capsule(k), &circle(c))
        }
        _ => aabb_aabb(&aabb(&a.aabb()), &aabb(&b.aabb())),
    }
}
