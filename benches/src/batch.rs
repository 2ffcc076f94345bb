//! Inputs and timed loops for `benches/batch.rs`: one probe disc against a seeded crowd of
//! 100,000 discs (bullets) or boxes (tiles), in collide2d's structure-of-arrays stores, as
//! parry2d shapes with poses, and as plain `f32` columns.

use crate::Rng;
use collide2d::batch::{Aabbs, Circles, Kernel};
use collide2d::{math::Vec2, Aabb, Circle, Shape};
use parry2d::math::{Pose, Vector};
use parry2d::shape::{Ball, Cuboid};
use std::hint::black_box;

/// Elements per crowd.
pub const CROWD: usize = 100_000;

/// Side of the square world the crowd fills.
pub const WORLD: f32 = 4096.0;

/// The probe: a player-sized disc in the middle of the world (radius 24: about a dozen hits).
#[must_use]
pub fn probe() -> Circle {
    Circle::new(Vec2::splat(WORLD / 2.0), 24.0).unwrap_or_else(|_| unreachable!())
}

/// A crowd in the three forms.
pub struct Crowd<P: HasParry> {
    /// collide2d's store.
    pub store: P,
    /// parry2d shapes, placed.
    pub parry: Vec<(Pose, P::Parry)>,
}

/// The parry2d form of a store's elements.
pub trait HasParry {
    /// The parry2d shape.
    type Parry;
}

impl HasParry for Circles {
    type Parry = Ball;
}

impl HasParry for Aabbs {
    type Parry = Cuboid;
}

/// 100,000 bullets: centres uniform over the world, radii in `[1, 4)`, from seed 11.
#[must_use]
pub fn bullets() -> Crowd<Circles> {
    let mut rng = Rng::new(11);
    let mut store = Circles::with_capacity(CROWD);
    let mut parry = Vec::with_capacity(CROWD);
    for _ in 0..CROWD {
        let c = Vec2::new(rng.range(0.0, WORLD), rng.range(0.0, WORLD));
        let r = rng.range(1.0, 4.0);
        if let Ok(circle) = Circle::new(c, r) {
            store.push_circle(&circle);
            parry.push((Pose::from_translation(Vector::new(c.x, c.y)), Ball::new(r)));
        }
    }
    Crowd { store, parry }
}

/// 100,000 boxes: lower corners uniform over the world, sides in `[2, 8)`, from seed 12.
#[must_use]
pub fn tiles() -> Crowd<Aabbs> {
    let mut rng = Rng::new(12);
    let mut store = Aabbs::with_capacity(CROWD);
    let mut parry = Vec::with_capacity(CROWD);
    for _ in 0..CROWD {
        let min = Vec2::new(rng.range(0.0, WORLD), rng.range(0.0, WORLD));
        let size = Vec2::new(rng.range(2.0, 8.0), rng.range(2.0, 8.0));
        if let Ok(b) = Aabb::new(min, min + size) {
            store.push_aabb(&b);
            let (c, half) = (b.center(), size * 0.5);
            parry.push((
                Pose::from_translation(Vector::new(c.x, c.y)),
                Cuboid::new(Vector::new(half.x, half.y)),
            ));
        }
    }
    Crowd { store, parry }
}

/// The probe in parry2d's form.
#[must_use]
pub fn parry_probe() -> (Pose, Ball) {
    let p = probe();
    (
        Pose::from_translation(Vector::new(p.center().x, p.center().y)),
        Ball::new(p.radius()),
    )
}

/// collide2d's batch query on `kernel`: the indices of the discs the probe hits.
#[inline(never)]
pub fn collide2d_circles(kernel: Kernel, store: &Circles, probe: &Shape, out: &mut Vec<usize>) {
    store.intersecting_with(kernel, probe, out);
    black_box(out.len());
}

/// collide2d's batch query on `kernel`: the indices of the boxes the probe hits.
#[inline(never)]
pub fn collide2d_aabbs(kernel: Kernel, store: &Aabbs, probe: &Shape, out: &mut Vec<usize>) {
    store.intersecting_with(kernel, probe, out);
    black_box(out.len());
}

/// A loop of `parry2d::query::intersection_test`, collecting the indices hit.
#[inline(never)]
pub fn parry2d_loop<S: parry2d::shape::Shape>(
    probe: &(Pose, Ball),
    crowd: &[(Pose, S)],
    out: &mut Vec<usize>,
) {
    out.clear();
    for (i, (pose, shape)) in crowd.iter().enumerate() {
        let hit = parry2d::query::intersection_test(&probe.0, &probe.1, pose, shape);
        if matches!(hit, Ok(r) if r.intersecting) {
            out.push(i);
        }
    }
    black_box(out.len());
}

/// What a game would write over the same columns: `dx^2 + dy^2 <= (r1 + r2)^2` in `f32`
/// (not exact near touching), collecting the indices hit.
#[inline(never)]
pub fn plain_circles(store: &Circles, probe: &Circle, out: &mut Vec<usize>) {
    out.clear();
    let (q, qr) = (probe.center(), probe.radius());
    let columns = store.xs().iter().zip(store.ys()).zip(store.radii());
    for (i, ((&x, &y), &r)) in columns.enumerate() {
        let (dx, dy, s) = (x - q.x, y - q.y, r + qr);
        if dx * dx + dy * dy <= s * s {
            out.push(i);
        }
    }
    black_box(out.len());
}

/// The plain `f32` disc-box test (clamp, squared distance) over the box columns.
#[inline(never)]
pub fn plain_aabbs(store: &Aabbs, probe: &Circle, out: &mut Vec<usize>) {
    out.clear();
    let (q, qr) = (probe.center(), probe.radius());
    let columns = store
        .min_xs()
        .iter()
        .zip(store.min_ys())
        .zip(store.max_xs())
        .zip(store.max_ys());
    for (i, (((&x0, &y0), &x1), &y1)) in columns.enumerate() {
        let (dx, dy) = (q.x - q.x.clamp(x0, x1), q.y - q.y.clamp(y0, y1));
        if dx * dx + dy * dy <= qr * qr {
            out.push(i);
        }
    }
    black_box(out.len());
}
