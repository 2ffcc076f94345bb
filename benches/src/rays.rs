//! The ray-cast bench's inputs and loops: a level of static circles and boxes
//! ([`Scene::many_small`]) in collide2d's world (its default broad phase), parry2d's `Bvh` and
//! Box2D's `b2DynamicTree`, and rays from random points in random directions, each
//! [`RAY_LENGTH`] units long, the first hit wanted.

use crate::box2d_world::Box2dRays;
use crate::world::{Body, Scene};
use crate::Rng;
use collide2d::math::Vec2;
use collide2d::{BroadPhase, CollisionWorld, Filter, ObjectKind};
use parry2d::bounding_volume::Aabb as PAabb;
use parry2d::math::{Pose, Vector};
use parry2d::partitioning::{Bvh, BvhBuildStrategy};
use parry2d::query::Ray as PRay;
use parry2d::shape::Shape as PShape;

/// Ray length in [`RayScene`].
pub const RAY_LENGTH: f32 = 20.0;

/// Rays and static shapes: `shapes` bodies of [`Scene::many_small`] (circles and boxes, 16 units²
/// of level per shape) and `rays` rays from random points of the level in random directions.
pub struct RayScene {
    /// The collide2d world (static objects, default broad phase).
    pub world: CollisionWorld<()>,
    /// parry2d's tree, built once (binned strategy).
    pub bvh: Bvh,
    shapes: Vec<Box<dyn PShape>>,
    poses: Vec<Pose>,
    /// Box2D's static tree and shapes.
    pub box2d: Box2dRays,
    /// The rays, as origin and direction (unit length).
    pub rays: Vec<(Vec2, Vec2)>,
}

impl RayScene {
    /// The seeded scene.
    #[must_use]
    pub fn new(shapes: usize, rays: usize, seed: u64) -> RayScene {
        let scene = Scene::many_small(shapes, seed);
        let mut world = CollisionWorld::new(BroadPhase::default());
        for b in &scene.bodies {
            if let Some(shape) = b.shape() {
                let _ = world.insert(shape, Filter::DEFAULT, ObjectKind::Static, ());
            }
        }
        world.update();
        let parry: Vec<Box<dyn PShape>> = scene.bodies.iter().map(Body::parry_shape).collect();
        let poses: Vec<Pose> = scene.bodies.iter().map(Body::pose).collect();
        let aabbs: Vec<PAabb> = parry
            .iter()
            .zip(&poses)
            .map(|(s, p)| s.compute_aabb(p))
            .collect();
        let bvh = Bvh::from_leaves(BvhBuildStrategy::default(), &aabbs);
        let mut rng = Rng::new(seed ^ 0xabcd);
        let rays = (0..rays)
            .map(|_| {
                (
                    Vec2::new(rng.range(0.0, scene.side), rng.range(0.0, scene.side)),
                    Vec2::from_angle(rng.range(0.0, std::f32::consts::TAU)),
                )
            })
            .collect();
        RayScene {
            world,
            bvh,
            shapes: parry,
            poses,
            box2d: Box2dRays::new(&scene),
            rays,
        }
    }

    /// collide2d's first hit of the ray from `o` along `d`: its distance.
    #[inline(always)]
    fn collide2d_hit(&self, o: Vec2, d: Vec2) -> Option<f32> {
        let ray = collide2d::Ray::new(o, d);
        self.world
            .cast_ray(&ray, RAY_LENGTH, u64::MAX)
            .map(|(_, hit)| hit.t)
    }

    /// parry2d's: `Bvh::cast_ray` with each shape's `cast_ray` at the leaves.
    #[inline(always)]
    fn parry2d_hit(&self, o: Vec2, d: Vec2) -> Option<f32> {
        let ray = PRay::new(Vector::new(o.x, o.y), Vector::new(d.x, d.y));
        self.bvh
            .cast_ray(&ray, RAY_LENGTH, |leaf, best| {
                let i = leaf as usize;
                self.shapes[i].cast_ray(&self.poses[i], &ray, best, true)
            })
            .map(|(_, t)| t)
    }

    /// Box2D's: `b2DynamicTree_RayCast` with each shape's ray cast at the leaves.
    #[inline(always)]
    fn box2d_hit(&self, o: Vec2, d: Vec2) -> Option<f32> {
        self.box2d.cast(o, d * RAY_LENGTH).map(|f| f * RAY_LENGTH)
    }

    /// Every ray through the world's `cast_ray`; returns the sum of the hit distances.
    #[inline(never)]
    #[must_use]
    pub fn collide2d(&self) -> f32 {
        self.rays
            .iter()
            .filter_map(|&(o, d)| self.collide2d_hit(o, d))
            .sum()
    }

    /// Every ray through parry2d's `Bvh::cast_ray`; the sum of the hit distances.
    #[inline(never)]
    #[must_use]
    pub fn parry2d(&self) -> f32 {
        self.rays
            .iter()
            .filter_map(|&(o, d)| self.parry2d_hit(o, d))
            .sum()
    }

    /// Every ray through Box2D's `b2DynamicTree_RayCast`; the sum of the hit distances.
    #[inline(never)]
    #[must_use]
    pub fn box2d(&self) -> f32 {
        self.rays
            .iter()
            .filter_map(|&(o, d)| self.box2d_hit(o, d))
            .sum()
    }

    /// How many rays parry2d and Box2D answer differently from collide2d: a hit against a miss,
    /// or first hits more than `tolerance` apart along the ray. Also the rays that hit (by
    /// collide2d).
    #[must_use]
    pub fn disagreements(&self, tolerance: f32) -> RayCheck {
        let differ = |a: Option<f32>, b: Option<f32>| match (a, b) {
            (Some(a), Some(b)) => (a - b).abs() > tolerance,
            (None, None) => false,
            _ => true,
        };
        let mut check = RayCheck::default();
        for &(o, d) in &self.rays {
            let ours = self.collide2d_hit(o, d);
            check.hits += usize::from(ours.is_some());
            check.parry2d += usize::from(differ(ours, self.parry2d_hit(o, d)));
            check.box2d += usize::from(differ(ours, self.box2d_hit(o, d)));
        }
        check
    }
}

/// [`RayScene::disagreements`]' counts.
#[derive(Clone, Copy, Debug, Default)]
pub struct RayCheck {
    /// Rays collide2d finds a hit for.
    pub hits: usize,
    /// Rays on which parry2d's answer differs.
    pub parry2d: usize,
    /// Rays on which Box2D's answer differs.
    pub box2d: usize,
}
