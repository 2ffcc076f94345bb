//! Inputs for the benches under `benches/benches`: seeded random pairs of shapes, each pair in
//! five forms (collide2d's typed shapes and [`Shape`]s, a parry2d shape with its pose, a Box2D
//! shape with its transform, a plain `f32` struct), plus [`plain`], the hand-written `f32` tests
//! a tutorial would give.
//!
//! Everything here runs before a timer starts.

use box2d::{B2Placed, B2Shape};
use boxdd_sys::ffi::{b2Capsule, b2Circle, b2ComputeHull, b2MakeBox, b2MakePolygon, b2Polygon};
use collide2d::{math::Vec2, Aabb, Capsule, Circle, ConvexPolygon, Obb, Shape};
use parry2d::math::{Pose, Vector};

pub mod batch;
pub mod box2d;
pub mod box2d_world;
pub mod concave;
pub mod families;
pub mod game;
pub mod level;
pub mod plain;
pub mod rays;
pub mod rotating;
pub mod runs;
pub mod select;
pub mod sweeps;
pub mod world;

/// Pairs per group; every timed iteration runs over all of them.
pub const PAIRS: usize = 1024;

/// Moving pairs per shape-cast group. More than [`PAIRS`]: a cast takes tens of branches whose
/// outcomes depend on the shapes, and a CPU's branch predictor learns the outcomes of 1024
/// pairs replayed every iteration (a game's frame brings new ones), which flatters whichever
/// code branches most; at 4096 it no longer can.
pub const SWEEPS: usize = 4096;

/// The pair names, in bench order, with the seed of each one's inputs.
pub const SEEDS: [(&str, u64); 6] = [
    ("circle_circle", 1),
    ("circle_aabb", 2),
    ("aabb_aabb", 3),
    ("obb_obb", 4),
    ("polygon_polygon", 5),
    ("capsule_circle", 6),
];

/// The seed of the pair called `name` (0 for an unknown name).
#[must_use]
pub fn seed(name: &str) -> u64 {
    SEEDS
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(0, |&(_, s)| s)
}

/// SplitMix64: a tiny seeded generator, so every run and both libraries see the same inputs.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    #[must_use]
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        let unit = (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        lo + (hi - lo) * unit
    }

    /// Uniform in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// `count` items drawn by `draw` (which may decline to build one), exactly half of them
/// passing `hit`, in random order (shuffled by `rng`).
pub fn balanced<T>(
    rng: &mut Rng,
    count: usize,
    mut draw: impl FnMut(&mut Rng) -> Option<T>,
    hit: impl Fn(&T) -> bool,
) -> Vec<T> {
    let (mut hits, mut misses) = (Vec::new(), Vec::new());
    while hits.len() < count / 2 || misses.len() < count - count / 2 {
        let Some(built) = draw(rng) else {
            continue;
        };
        match hit(&built) {
            true if hits.len() < count / 2 => hits.push(built),
            false if misses.len() < count - count / 2 => misses.push(built),
            _ => {}
        }
    }
    let mut all: Vec<_> = hits.into_iter().chain(misses).collect();
    for i in (1..all.len()).rev() {
        all.swap(i, rng.below(i + 1));
    }
    all
}

fn pv(v: Vec2) -> Vector {
    Vector::new(v.x, v.y)
}

/// A shape description from which the three forms are built.
pub trait Spec: Sized {
    /// The parry2d shape (placed by a [`Pose`]).
    type Parry: parry2d::shape::Shape;
    /// The plain `f32` form, in world coordinates.
    type Plain;
    /// The Box2D shape (placed by a transform).
    type Box2d: B2Shape;
    /// The collide2d shape type (`Circle`, `Aabb`, ...), stored as such.
    type Typed: Clone;
    /// A random shape centred at the origin.
    fn random(rng: &mut Rng) -> Self;
    /// Moves the shape so that it is centred at `center`.
    fn set_center(&mut self, center: Vec2);
    /// A radius around the center that holds the whole shape.
    fn bound(&self) -> f32;
    /// The collide2d shape, in world coordinates.
    fn collide(&self) -> Option<Shape>;
    /// The same collide2d shape as its own type.
    fn typed(&self) -> Option<Self::Typed>;
    /// The parry2d shape in its own frame, and its pose.
    fn parry(&self) -> Option<(Pose, Self::Parry)>;
    /// The plain `f32` form.
    fn plain(&self) -> Self::Plain;
    /// The Box2D shape in its own frame, and its transform.
    fn box2d(&self) -> Option<B2Placed<Self::Box2d>>;
}

/// A circle.
#[derive(Clone, Copy, Debug)]
pub struct CircleSpec {
    center: Vec2,
    radius: f32,
}

impl Spec for CircleSpec {
    type Parry = parry2d::shape::Ball;
    type Plain = plain::Circle;
    type Box2d = b2Circle;
    type Typed = Circle;
    fn random(rng: &mut Rng) -> Self {
        CircleSpec {
            center: Vec2::ZERO,
            radius: rng.range(2.0, 40.0),
        }
    }
    fn set_center(&mut self, center: Vec2) {
        self.center = center;
    }
    fn bound(&self) -> f32 {
        self.radius
    }
    fn collide(&self) -> Option<Shape> {
        self.typed().map(Shape::from)
    }
    fn typed(&self) -> Option<Circle> {
        Circle::new(self.center, self.radius).ok()
    }
    fn parry(&self) -> Option<(Pose, Self::Parry)> {
        Some((
            Pose::from_translation(pv(self.center)),
            parry2d::shape::Ball::new(self.radius),
        ))
    }
    fn plain(&self) -> plain::Circle {
        plain::Circle {
            x: self.center.x,
            y: self.center.y,
            r: self.radius,
        }
    }
    fn box2d(&self) -> Option<B2Placed<b2Circle>> {
        let circle = b2Circle {
            center: box2d::vec(Vec2::ZERO),
            radius: self.radius,
        };
        Some((box2d::transform(self.center, 0.0), circle))
    }
}

/// An axis-aligned box.
#[derive(Clone, Copy, Debug)]
pub struct AabbSpec {
    min: Vec2,
    max: Vec2,
}

impl Spec for AabbSpec {
    type Parry = parry2d::shape::Cuboid;
    type Plain = plain::Aabb;
    type Box2d = b2Polygon;
    type Typed = Aabb;
    fn random(rng: &mut Rng) -> Self {
        let half = Vec2::new(rng.range(2.0, 40.0), rng.range(2.0, 40.0));
        AabbSpec {
            min: -half,
            max: half,
        }
    }
    fn set_center(&mut self, center: Vec2) {
        let half = (self.max - self.min) * 0.5;
        (self.min, self.max) = (center - half, center + half);
    }
    fn bound(&self) -> f32 {
        (self.max - self.min).length() * 0.5
    }
    fn collide(&self) -> Option<Shape> {
        self.typed().map(Shape::from)
    }
    fn typed(&self) -> Option<Aabb> {
        Aabb::new(self.min, self.max).ok()
    }
    fn parry(&self) -> Option<(Pose, Self::Parry)> {
        let (center, half) = ((self.min + self.max) * 0.5, (self.max - self.min) * 0.5);
        Some((
            Pose::from_translation(pv(center)),
            parry2d::shape::Cuboid::new(pv(half)),
        ))
    }
    fn plain(&self) -> plain::Aabb {
        plain::Aabb {
            min_x: self.min.x,
            min_y: self.min.y,
            max_x: self.max.x,
            max_y: self.max.y,
        }
    }
    fn box2d(&self) -> Option<B2Placed<b2Polygon>> {
        let (center, half) = ((self.min + self.max) * 0.5, (self.max - self.min) * 0.5);
        // SAFETY: a plain function of two floats.
        let shape = unsafe { b2MakeBox(half.x, half.y) };
        Some((box2d::transform(center, 0.0), shape))
    }
}

/// A rotated box.
#[derive(Clone, Copy, Debug)]
pub struct ObbSpec {
    center: Vec2,
    half: Vec2,
    angle: f32,
}

impl Spec for ObbSpec {
    type Parry = parry2d::shape::Cuboid;
    type Plain = plain::Obb;
    type Box2d = b2Polygon;
    type Typed = Obb;
    fn random(rng: &mut Rng) -> Self {
        let half = Vec2::new(rng.range(2.0, 40.0), rng.range(2.0, 40.0));
        ObbSpec {
            center: Vec2::ZERO,
            half,
            angle: rng.range(-std::f32::consts::PI, std::f32::consts::PI),
        }
    }
    fn set_center(&mut self, center: Vec2) {
        self.center = center;
    }
    fn bound(&self) -> f32 {
        self.half.length()
    }
    fn collide(&self) -> Option<Shape> {
        self.typed().map(Shape::from)
    }
    fn typed(&self) -> Option<Obb> {
        Obb::new(self.center, self.half, self.angle).ok()
    }
    fn parry(&self) -> Option<(Pose, Self::Parry)> {
        Some((
            Pose::new(pv(self.center), self.angle),
            parry2d::shape::Cuboid::new(pv(self.half)),
        ))
    }
    fn plain(&self) -> plain::Obb {
        let (s, c) = self.angle.sin_cos();
        plain::Obb {
            cx: self.center.x,
            cy: self.center.y,
            hx: self.half.x,
            hy: self.half.y,
            cos: c,
            sin: s,
        }
    }
    fn box2d(&self) -> Option<B2Placed<b2Polygon>> {
        // SAFETY: a plain function of two floats.
        let shape = unsafe { b2MakeBox(self.half.x, self.half.y) };
        Some((box2d::transform(self.center, self.angle), shape))
    }
}

/// A convex polygon of 6 to 8 vertices on a rotated ellipse, counter-clockwise.
#[derive(Clone, Debug)]
pub struct PolygonSpec {
    center: Vec2,
    /// Vertices relative to the center.
    local: Vec<Vec2>,
}

impl PolygonSpec {
    fn world(&self) -> Vec<Vec2> {
        self.local.iter().map(|&p| p + self.center).collect()
    }
}

impl Spec for PolygonSpec {
    type Parry = parry2d::shape::ConvexPolygon;
    type Plain = plain::Polygon;
    type Box2d = b2Polygon;
    type Typed = ConvexPolygon;
    fn random(rng: &mut Rng) -> Self {
        let n = 6 + rng.below(3);
        let (rx, ry) = (rng.range(5.0, 40.0), rng.range(5.0, 40.0));
        let rot = Vec2::from_angle(rng.range(-std::f32::consts::PI, std::f32::consts::PI));
        let step = std::f32::consts::TAU / n as f32;
        let start = rng.range(0.0, step);
        let local = (0..n)
            .map(|i| {
                // Jittered but well-spread angles keep the polygon strictly convex.
                let t = start + step * (i as f32 + rng.range(-0.3, 0.3));
                rot.rotate(Vec2::new(rx * t.cos(), ry * t.sin()))
            })
            .collect();
        PolygonSpec {
            center: Vec2::ZERO,
            local,
        }
    }
    fn set_center(&mut self, center: Vec2) {
        self.center = center;
    }
    fn bound(&self) -> f32 {
        self.local.iter().fold(0.0, |m, p| m.max(p.length()))
    }
    fn collide(&self) -> Option<Shape> {
        self.typed().map(Shape::from)
    }
    fn typed(&self) -> Option<ConvexPolygon> {
        let poly = ConvexPolygon::new(&self.world()).ok()?;
        // Only use polygons that both libraries keep as drawn.
        (poly.points().len() == self.local.len()).then_some(poly)
    }
    fn parry(&self) -> Option<(Pose, Self::Parry)> {
        let poly = parry2d::shape::ConvexPolygon::from_convex_polyline(
            self.local.iter().map(|&p| pv(p)).collect(),
        )?;
        (poly.points().len() == self.local.len())
            .then(|| (Pose::from_translation(pv(self.center)), poly))
    }
    fn plain(&self) -> plain::Polygon {
        plain::Polygon {
            points: self.world().iter().map(|p| [p.x, p.y]).collect(),
        }
    }
    fn box2d(&self) -> Option<B2Placed<b2Polygon>> {
        let points: Vec<_> = self.local.iter().map(|&p| box2d::vec(p)).collect();
        let count = i32::try_from(points.len()).ok()?;
        // SAFETY: `points` holds `count` points for the call.
        let hull = unsafe { b2ComputeHull(points.as_ptr(), count) };
        // Only use polygons that Box2D keeps as drawn too.
        (hull.count == count).then(|| {
            // SAFETY: `hull` is a hull Box2D computed.
            let shape = unsafe { b2MakePolygon(&hull, 0.0) };
            (box2d::transform(self.center, 0.0), shape)
        })
    }
}

/// A capsule: a rotated segment through the center, plus a radius.
#[derive(Clone, Copy, Debug)]
pub struct CapsuleSpec {
    center: Vec2,
    /// Half the segment, as a vector from the center to one end.
    half: Vec2,
    radius: f32,
}

impl Spec for CapsuleSpec {
    type Parry = parry2d::shape::Capsule;
    type Plain = plain::Capsule;
    type Box2d = b2Capsule;
    type Typed = Capsule;
    fn random(rng: &mut Rng) -> Self {
        let half = Vec2::from_angle(rng.range(-std::f32::consts::PI, std::f32::consts::PI))
            * rng.range(2.0, 40.0);
        CapsuleSpec {
            center: Vec2::ZERO,
            half,
            radius: rng.range(2.0, 20.0),
        }
    }
    fn set_center(&mut self, center: Vec2) {
        self.center = center;
    }
    fn bound(&self) -> f32 {
        self.half.length() + self.radius
    }
    fn collide(&self) -> Option<Shape> {
        self.typed().map(Shape::from)
    }
    fn typed(&self) -> Option<Capsule> {
        Capsule::new(
            self.center - self.half,
            self.center + self.half,
            self.radius,
        )
        .ok()
    }
    fn parry(&self) -> Option<(Pose, Self::Parry)> {
        let shape = parry2d::shape::Capsule::new(pv(-self.half), pv(self.half), self.radius);
        Some((Pose::from_translation(pv(self.center)), shape))
    }
    fn plain(&self) -> plain::Capsule {
        let (a, b) = (self.center - self.half, self.center + self.half);
        plain::Capsule {
            ax: a.x,
            ay: a.y,
            bx: b.x,
            by: b.y,
            r: self.radius,
        }
    }
    fn box2d(&self) -> Option<B2Placed<b2Capsule>> {
        let capsule = b2Capsule {
            center1: box2d::vec(-self.half),
            center2: box2d::vec(self.half),
            radius: self.radius,
        };
        Some((box2d::transform(self.center, 0.0), capsule))
    }
}

/// A parry2d shape with its pose.
pub type Placed<S> = (Pose, S);

/// One pair as parry2d shapes with their poses.
pub type ParryPair<A, B> = (Placed<<A as Spec>::Parry>, Placed<<B as Spec>::Parry>);

/// One pair as Box2D shapes with their transforms.
pub type Box2dPair<A, B> = (B2Placed<<A as Spec>::Box2d>, B2Placed<<B as Spec>::Box2d>);

/// One pair as collide2d's shape types.
pub type TypedPair<A, B> = (<A as Spec>::Typed, <B as Spec>::Typed);

/// One pair in the five forms.
type Row<A, B> = (
    TypedPair<A, B>,
    (Shape, Shape),
    ParryPair<A, B>,
    (<A as Spec>::Plain, <B as Spec>::Plain),
    Box2dPair<A, B>,
);

/// The same pairs in the five forms, index for index.
pub struct Pairs<A: Spec, B: Spec> {
    /// collide2d shapes stored by type (`Circle`, `Aabb`, ...), in world coordinates.
    pub typed: Vec<TypedPair<A, B>>,
    /// The same collide2d shapes as [`Shape`]s.
    pub collide: Vec<(Shape, Shape)>,
    /// parry2d shapes with their poses.
    pub parry: Vec<ParryPair<A, B>>,
    /// Plain `f32` structs in world coordinates.
    pub plain: Vec<(A::Plain, B::Plain)>,
    /// Box2D shapes with their transforms.
    pub box2d: Vec<Box2dPair<A, B>>,
}

impl<A: Spec, B: Spec> Pairs<A, B> {
    /// `count` random pairs from `seed`, exactly half of them intersecting according to collide2d,
    /// in random order. Shapes sit in a 1000 x 1000 world, `b` near `a`: the distance between
    /// centers is drawn up to 1.3 times the sum of their bounding radii, so most misses are
    /// near misses that a bounding-box test would not reject.
    #[must_use]
    pub fn generate(seed: u64, count: usize) -> Pairs<A, B> {
        let mut rng = Rng::new(seed);
        let all = balanced(&mut rng, count, Self::random_pair, |built| {
            collide2d::intersects(&built.1 .0, &built.1 .1)
        });
        let mut pairs = Pairs {
            typed: Vec::new(),
            collide: Vec::new(),
            parry: Vec::new(),
            plain: Vec::new(),
            box2d: Vec::new(),
        };
        for (t, c, p, f, b) in all {
            pairs.typed.push(t);
            pairs.collide.push(c);
            pairs.parry.push(p);
            pairs.plain.push(f);
            pairs.box2d.push(b);
        }
        pairs
    }

    fn random_pair(rng: &mut Rng) -> Option<Row<A, B>> {
        let mut a = A::random(rng);
        let center = Vec2::new(rng.range(-500.0, 500.0), rng.range(-500.0, 500.0));
        a.set_center(center);
        let mut b = B::random(rng);
        let dist = rng.range(0.0, 1.3) * (a.bound() + b.bound());
        let dir = Vec2::from_angle(rng.range(-std::f32::consts::PI, std::f32::consts::PI));
        b.set_center(center + dir * dist);
        Some((
            (a.typed()?, b.typed()?),
            (a.collide()?, b.collide()?),
            (a.parry()?, b.parry()?),
            (a.plain(), b.plain()),
            (a.box2d()?, b.box2d()?),
        ))
    }
}

/// How far apart (or how deep) a pair may be and still count as touching when the libraries
/// disagree: a few `f32` ulps at the benches' coordinates (up to about 600).
pub const TOUCHING: f32 = 1e-3;

/// How far apart (or how deep) a pair may be when only parry2d disagrees: its GJK stops within
/// a tolerance of its own, and on polygons of 7 or 8 vertices near 450 units from the origin it
/// called a pair 0.0018 apart intersecting (one in 65,536).
pub const PARRY_TOLERANCE: f32 = 1e-2;

impl<A: Spec, B: Spec> Pairs<A, B> {
    /// Checks once, before timing, that collide2d, parry2d and `plain` agree on `intersects` for
    /// every pair, except pairs that touch to within [`TOUCHING`] (by collide2d's distance or
    /// depth), or to within [`PARRY_TOLERANCE`] when only parry2d disagrees. Returns the number of intersecting pairs and of touching disagreements.
    ///
    /// # Errors
    /// A description of the first pair on which they disagree, or that parry2d does not support.
    pub fn check(
        &self,
        plain: impl Fn(&A::Plain, &B::Plain) -> bool,
    ) -> Result<(usize, usize), String> {
        let (mut hits, mut touching) = (0, 0);
        for (i, ((ca, cb), (((pa, sa), (pb, sb)), (fa, fb)))) in self
            .collide
            .iter()
            .zip(self.parry.iter().zip(&self.plain))
            .enumerate()
        {
            let c = collide2d::intersects(ca, cb);
            let p = parry2d::query::intersection_test(pa, sa, pb, sb)
                .map_err(|e| format!("pair {i}: parry2d: {e:?}"))?
                .intersecting;
            let f = plain(fa, fb);
            hits += usize::from(c);
            if c == p && c == f {
                continue;
            }
            let gap = if c {
                collide2d::contact(ca, cb).map_or(0.0, |k| k.depth)
            } else {
                collide2d::distance(ca, cb)
            };
            let tolerance = if c == f { PARRY_TOLERANCE } else { TOUCHING };
            if gap > tolerance {
                return Err(format!(
                    "pair {i}: collide2d {c}, parry2d {p}, plain_f32 {f}, gap {gap}: {ca:?} {cb:?}"
                ));
            }
            touching += 1;
        }
        Ok((hits, touching))
    }
}

impl<A: Spec, B: Spec> Pairs<A, B>
where
    A::Box2d: box2d::Manifold<B::Box2d>,
{
    /// Compares Box2D's hit or miss ([`box2d::hit`] on its manifold) with collide2d's on every
    /// pair. Box2D works to its own tolerances (its polygons' clipping, `f32` in the first
    /// shape's frame), so disagreements are counted, not fatal: returns how many there were and
    /// the largest distance or depth (by collide2d) of a pair on which they disagreed.
    #[must_use]
    pub fn check_box2d(&self) -> (usize, f32) {
        let (mut count, mut worst) = (0, 0.0f32);
        for ((ca, cb), (ba, bb)) in self.collide.iter().zip(&self.box2d) {
            let c = collide2d::intersects(ca, cb);
            if c == box2d::hit(&box2d::manifold(ba, bb)) {
                continue;
            }
            count += 1;
            let gap = if c {
                collide2d::contact(ca, cb).map_or(0.0, |k| k.depth)
            } else {
                collide2d::distance(ca, cb)
            };
            worst = worst.max(gap);
        }
        (count, worst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agrees<A: Spec, B: Spec>(plain: fn(&A::Plain, &B::Plain) -> bool) {
        let pairs = Pairs::<A, B>::generate(42, 256);
        assert_eq!(pairs.collide.len(), 256);
        assert_eq!(pairs.check(plain).map(|(hits, _)| hits), Ok(128));
    }

    #[test]
    fn every_pair_type_is_balanced_and_the_three_tests_agree() {
        agrees::<CircleSpec, CircleSpec>(plain::circle_circle);
        agrees::<CircleSpec, AabbSpec>(plain::circle_aabb);
        agrees::<AabbSpec, AabbSpec>(plain::aabb_aabb);
        agrees::<ObbSpec, ObbSpec>(plain::obb_obb);
        agrees::<PolygonSpec, PolygonSpec>(plain::polygon_polygon);
        agrees::<CapsuleSpec, CircleSpec>(plain::capsule_circle);
    }

    #[test]
    fn the_same_seed_gives_the_same_pairs() {
        let (a, b) = (
            Pairs::<ObbSpec, ObbSpec>::generate(1, 16),
            Pairs::<ObbSpec, ObbSpec>::generate(1, 16),
        );
        assert_eq!(a.collide, b.collide);
    }
}
