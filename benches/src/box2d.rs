//! Box2D v3 (the C library through `boxdd-sys`), the second anchor: its shapes built from the
//! same [`Spec`](crate::Spec)s, its manifold functions for pair tests and contacts, and its
//! `b2ShapeCast` for casts.
//!
//! Box2D has no boolean pair test: a contact's overlap is its manifold (`b2Collide*`, which
//! also keeps points up to its speculative distance), so [`hit`] reads a manifold as a hit when
//! one of its points has separation 0 or less.

use boxdd_sys::ffi::{
    b2Capsule, b2Circle, b2CollideCapsuleAndCircle, b2CollideCircles, b2CollidePolygonAndCircle,
    b2CollidePolygons, b2LocalManifold, b2MakeProxy, b2Polygon, b2Rot, b2ShapeCastPairInput,
    b2ShapeProxy, b2Transform, b2Vec2,
};
use collide2d::math::Vec2;

/// A Box2D shape in its own frame, placed by a transform (as a Box2D body holds it).
pub type B2Placed<S> = (b2Transform, S);

/// A point as Box2D takes it.
#[must_use]
pub fn vec(v: Vec2) -> b2Vec2 {
    b2Vec2 { x: v.x, y: v.y }
}

/// The transform of a body at `center` turned by `angle` radians.
#[must_use]
pub fn transform(center: Vec2, angle: f32) -> b2Transform {
    let (s, c) = angle.sin_cos();
    b2Transform {
        p: vec(center),
        q: b2Rot { c, s },
    }
}

/// `b`'s transform in `a`'s frame (Box2D's `b2InvMulTransforms`, an inline function in its
/// headers, so not in the bindings): what Box2D computes per contact before the manifold.
#[inline]
#[must_use]
pub fn relative(a: &b2Transform, b: &b2Transform) -> b2Transform {
    let (qa, qb) = (a.q, b.q);
    let (dx, dy) = (b.p.x - a.p.x, b.p.y - a.p.y);
    b2Transform {
        p: b2Vec2 {
            x: qa.c * dx + qa.s * dy,
            y: -qa.s * dx + qa.c * dy,
        },
        q: b2Rot {
            c: qa.c * qb.c + qa.s * qb.s,
            s: qa.c * qb.s - qa.s * qb.c,
        },
    }
}

/// A Box2D shape: its point cloud in its own frame and its radius (for `b2MakeProxy`).
pub trait B2Shape: Copy {
    /// The points and the radius around them.
    fn cloud(&self) -> (Vec<b2Vec2>, f32);
}

impl B2Shape for b2Circle {
    fn cloud(&self) -> (Vec<b2Vec2>, f32) {
        (vec![self.center], self.radius)
    }
}

impl B2Shape for b2Capsule {
    fn cloud(&self) -> (Vec<b2Vec2>, f32) {
        (vec![self.center1, self.center2], self.radius)
    }
}

impl B2Shape for b2Polygon {
    fn cloud(&self) -> (Vec<b2Vec2>, f32) {
        let n = usize::try_from(self.count).unwrap_or(0);
        (self.vertices[..n].to_vec(), self.radius)
    }
}

/// The Box2D manifold function for a pair of shape types, `xf` being `b`'s transform in `a`'s
/// frame.
pub trait Manifold<B> {
    /// The manifold, in `a`'s frame.
    fn manifold(&self, b: &B, xf: b2Transform) -> b2LocalManifold;
}

impl Manifold<b2Circle> for b2Circle {
    #[inline]
    fn manifold(&self, b: &b2Circle, xf: b2Transform) -> b2LocalManifold {
        // SAFETY: both pointers are to live shapes for the call; Box2D only reads them.
        unsafe { b2CollideCircles(self, b, xf) }
    }
}

impl Manifold<b2Polygon> for b2Circle {
    #[inline]
    fn manifold(&self, b: &b2Polygon, xf: b2Transform) -> b2LocalManifold {
        // Box2D has polygon-and-circle only: the same pair the other way round, as its contact
        // table does for a circle fixture listed first.
        let identity = transform(Vec2::ZERO, 0.0);
        // SAFETY: as above.
        unsafe { b2CollidePolygonAndCircle(b, self, relative(&xf, &identity)) }
    }
}

impl Manifold<b2Polygon> for b2Polygon {
    #[inline]
    fn manifold(&self, b: &b2Polygon, xf: b2Transform) -> b2LocalManifold {
        // SAFETY: as above.
        unsafe { b2CollidePolygons(self, b, xf) }
    }
}

impl Manifold<b2Circle> for b2Capsule {
    #[inline]
    fn manifold(&self, b: &b2Circle, xf: b2Transform) -> b2LocalManifold {
        // SAFETY: as above.
        unsafe { b2CollideCapsuleAndCircle(self, b, xf) }
    }
}

/// Whether a manifold says the shapes overlap or touch: a point with separation `<= 0`.
#[inline]
#[must_use]
pub fn hit(m: &b2LocalManifold) -> bool {
    let n = usize::try_from(m.pointCount).unwrap_or(0).min(2);
    m.points[..n].iter().any(|p| p.separation <= 0.0)
}

/// The manifold of one placed pair, as Box2D's contact update computes it.
#[inline]
pub fn manifold<A: Manifold<B>, B>(a: &B2Placed<A>, b: &B2Placed<B>) -> b2LocalManifold {
    a.1.manifold(&b.1, relative(&a.0, &b.0))
}

/// The `b2ShapeCast` input for `a` moving by `va` and `b` by `vb`: both point clouds in `a`'s
/// frame (each shape's points turned by its transform's rotation), `b` moving by `vb - va`
/// relative to `a`, the whole step (`maxFraction` 1).
#[must_use]
pub fn cast_input<A: B2Shape, B: B2Shape>(
    a: &B2Placed<A>,
    va: Vec2,
    b: &B2Placed<B>,
    vb: Vec2,
) -> b2ShapeCastPairInput {
    let offset = b2Vec2 {
        x: b.0.p.x - a.0.p.x,
        y: b.0.p.y - a.0.p.y,
    };
    let rel = vb - va;
    b2ShapeCastPairInput {
        proxyA: turned_proxy(a),
        proxyB: turned_proxy(b),
        transform: b2Transform {
            p: offset,
            q: b2Rot { c: 1.0, s: 0.0 },
        },
        translationB: b2Vec2 { x: rel.x, y: rel.y },
        maxFraction: 1.0,
        canEncroach: false,
    }
}

/// A shape's `b2MakeProxy` with its points turned by its transform's rotation (not moved).
fn turned_proxy<S: B2Shape>((xf, shape): &B2Placed<S>) -> b2ShapeProxy {
    proxy(shape, xf.q)
}

/// A shape's `b2MakeProxy` with its points turned by `q` (the identity: in its own frame, as
/// `b2TimeOfImpact` takes it).
pub fn proxy<S: B2Shape>(shape: &S, q: b2Rot) -> b2ShapeProxy {
    let (points, radius) = shape.cloud();
    let turned: Vec<b2Vec2> = points
        .iter()
        .map(|p| b2Vec2 {
            x: q.c * p.x - q.s * p.y,
            y: q.s * p.x + q.c * p.y,
        })
        .collect();
    let count = i32::try_from(turned.len()).unwrap_or(0);
    // SAFETY: `turned` holds `count` points (at most 8) for the call.
    unsafe { b2MakeProxy(turned.as_ptr(), count, radius) }
}
