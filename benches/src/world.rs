//! World benches' scenes and frames: the same seeded objects and motion for a collide2d
//! [`CollisionWorld`] and for parry2d's [`Bvh`] with its narrow phase, so both run the same frames.
//!
//! - [`Scene::many_small`]: `n` objects, 60% circles of radius 0.5–2 and 40% boxes 1–4 wide,
//!   spread uniformly so each touches one or two others on average, all moving a little each frame.
//! - [`Scene::bullet_hell`]: bullets (radius 0.25–0.5) in one layer that ignores itself, plus
//!   targets (boxes 2–6 wide) that only bullets hit.
//!
//! One frame = move every object, then find every colliding pair (broad + exact narrow phase).

use crate::Rng;
use collide2d::math::Vec2;
use collide2d::{Aabb, BroadPhase, Circle, CollisionWorld, Filter, Handle, ObjectKind, Shape};
use parry2d::bounding_volume::{Aabb as PAabb, BoundingVolume};
use parry2d::math::{Pose, Vector};
use parry2d::partitioning::{Bvh, BvhWorkspace};
use parry2d::shape::{Ball, Cuboid, Shape as PShape};

/// Area per object for [`Scene::many_small`]: about 1.5 overlaps per object.
pub const AREA_PER_OBJECT: f32 = 16.0;

/// Fat-box margin for both libraries' trees.
pub const MARGIN: f32 = 0.2;

/// Grid cell size for [`Scene::many_small`] and [`Scene::bullet_hell`] (objects are at most 4
/// wide).
pub const CELL: f32 = 4.0;

/// The grid broad phase the benches use.
#[must_use]
pub fn grid() -> BroadPhase {
    BroadPhase::grid(CELL).unwrap_or_default()
}

/// The tree broad phase the benches use.
#[must_use]
pub fn tree() -> BroadPhase {
    BroadPhase::tree(MARGIN)
}

/// Layer bits of [`Scene::bullet_hell`].
pub const BULLET: u64 = 1;
/// Targets' layer bit.
pub const TARGET: u64 = 2;

/// One object's motion state and form; a zero velocity makes it static.
#[derive(Clone, Copy, Debug)]
pub struct Body {
    /// Center.
    pub center: Vec2,
    /// Per-frame displacement.
    pub velocity: Vec2,
    /// `Some(radius)` for a circle, else a box of `half` extents.
    pub radius: Option<f32>,
    /// Half extents of a box.
    pub half: Vec2,
    /// Layer and mask.
    pub filter: Filter,
}

impl Body {
    /// Whether the body never moves (zero velocity).
    #[must_use]
    pub fn is_static(&self) -> bool {
        self.velocity == Vec2::ZERO
    }

    /// The collide2d shape at the current center (`None` only for non-finite input).
    #[must_use]
    pub fn shape(&self) -> Option<Shape> {
        match self.radius {
            Some(r) => Circle::new(self.center, r).ok().map(Shape::from),
            None => Aabb::new(self.center - self.half, self.center + self.half)
                .ok()
                .map(Shape::from),
        }
    }

    /// The parry2d shape (in its frame).
    #[must_use]
    pub fn parry_shape(&self) -> Box<dyn PShape> {
        match self.radius {
            Some(r) => Box::new(Ball::new(r)),
            None => Box::new(Cuboid::new(Vector::new(self.half.x, self.half.y))),
        }
    }

    /// The parry2d pose.
    #[must_use]
    pub fn pose(&self) -> Pose {
        Pose::from_translation(Vector::new(self.center.x, self.center.y))
    }
}

/// A seeded scene: bodies in a square `side` wide.
#[derive(Clone, Debug)]
pub struct Scene {
    /// The bodies.
    pub bodies: Vec<Body>,
    /// The square's side.
    pub side: f32,
    /// How many bodies at the start are static: steps and frames skip them without reading
    /// them, so a mostly static scene's harness costs what its movers do.
    pub statics: usize,
}

impl Scene {
    /// `n` circles and boxes at constant density (see the module doc).
    #[must_use]
    pub fn many_small(n: usize, seed: u64) -> Scene {
        let mut rng = Rng::new(seed);
        let side = (n as f32 * AREA_PER_OBJECT).sqrt();
        let bodies = (0..n)
            .map(|_| {
                let center = Vec2::new(rng.range(0.0, side), rng.range(0.0, side));
                let velocity =
                    Vec2::from_angle(rng.range(0.0, std::f32::consts::TAU)) * rng.range(0.02, 0.1);
                if rng.below(10) < 6 {
                    Body {
                        center,
                        velocity,
                        radius: Some(rng.range(0.5, 2.0)),
                        half: Vec2::ZERO,
                        filter: Filter::DEFAULT,
                    }
                } else {
                    Body {
                        center,
                        velocity,
                        radius: None,
                        half: Vec2::new(rng.range(0.5, 2.0), rng.range(0.5, 2.0)),
                        filter: Filter::DEFAULT,
                    }
                }
            })
            .collect();
        Scene {
            bodies,
            side,
            statics: 0,
        }
    }

    /// `bullets` small circles ignoring each other, then `targets` boxes, in a square of
    /// 4 units² per bullet.
    #[must_use]
    pub fn bullet_hell(bullets: usize, targets: usize, seed: u64) -> Scene {
        let mut rng = Rng::new(seed);
        let side = (bullets as f32 * 4.0).sqrt();
        let mut bodies: Vec<Body> = (0..bullets)
            .map(|_| Body {
                center: Vec2::new(rng.range(0.0, side), rng.range(0.0, side)),
                velocity: Vec2::from_angle(rng.range(0.0, std::f32::consts::TAU))
                    * rng.range(0.1, 0.3),
                radius: Some(rng.range(0.25, 0.5)),
                half: Vec2::ZERO,
                filter: Filter::new(BULLET, TARGET),
            })
            .collect();
        bodies.extend((0..targets).map(|_| Body {
            center: Vec2::new(rng.range(0.0, side), rng.range(0.0, side)),
            velocity: Vec2::from_angle(rng.range(0.0, std::f32::consts::TAU)) * 0.05,
            radius: None,
            half: Vec2::new(rng.range(1.0, 3.0), rng.range(1.0, 3.0)),
            filter: Filter::new(TARGET, BULLET),
        }));
        Scene {
            bodies,
            side,
            statics: 0,
        }
    }

    /// Moves every body by its velocity, bouncing off the square's sides.
    pub fn step(&mut self) {
        let side = self.side;
        for b in &mut self.bodies[self.statics..] {
            b.center += b.velocity;
            if b.center.x < 0.0 || b.center.x > side {
                b.velocity.x = -b.velocity.x;
            }
            if b.center.y < 0.0 || b.center.y > side {
                b.velocity.y = -b.velocity.y;
            }
        }
    }
}

/// A collide2d world following a [`Scene`].
#[derive(Debug)]
pub struct Collide2dSim {
    /// The world.
    pub world: CollisionWorld<()>,
    /// Handle of each body.
    pub handles: Vec<Handle>,
    /// Each body's center as the world last saw it, so a frame moves it by the difference.
    centers: Vec<Vec2>,
}

impl Collide2dSim {
    /// A world with every body of `scene` inserted (dynamic).
    #[must_use]
    pub fn new(scene: &Scene, broad: BroadPhase) -> Collide2dSim {
        let mut world = CollisionWorld::new(broad);
        let mut handles = Vec::new();
        let mut centers = Vec::new();
        for b in &scene.bodies {
            let kind = if b.is_static() {
                ObjectKind::Static
            } else {
                ObjectKind::Dynamic
            };
            let inserted = b
                .shape()
                .and_then(|shape| world.insert(shape, b.filter, kind, ()).ok());
            if let Some(h) = inserted {
                handles.push(h);
                centers.push(b.center);
            }
        }
        world.update();
        Collide2dSim {
            world,
            handles,
            centers,
        }
    }

    /// One frame: every body moved by its motion since the last frame
    /// ([`CollisionWorld::move_by`], what a game stepping velocities calls; parry2d's side sets
    /// poses), then one update. Returns the pairs.
    #[inline(never)]
    pub fn frame(&mut self, scene: &Scene) -> usize {
        let skip = scene.statics;
        for ((b, &h), center) in scene.bodies[skip..]
            .iter()
            .zip(&self.handles[skip..])
            .zip(&mut self.centers[skip..])
        {
            if b.is_static() {
                continue;
            }
            // The step's velocity as rounded by the scene (exact when the center is larger than
            // the step, Fast2Sum): the world's shapes follow the scene's, up to rounding.
            if self.world.move_by(h, b.center - *center).is_ok() {
                *center = b.center;
            }
        }
        self.world.update().pairs
    }
}

/// parry2d's incremental path on the same bodies: `insert_or_update_partially` with a change
/// detection margin, `refit`, `optimize_incremental` (as rapier's BVH broad phase does), the
/// tree traversed against itself, then `intersection_test` on candidates whose boxes overlap.
pub struct ParrySim {
    bvh: Bvh,
    workspace: BvhWorkspace,
    shapes: Vec<Box<dyn PShape>>,
    poses: Vec<Pose>,
    aabbs: Vec<PAabb>,
    filters: Vec<Filter>,
    candidates: Vec<(u32, u32)>,
    margin: f32,
    /// How the tree follows the motion.
    pub mode: ParryMode,
}

/// parry2d's incremental update paths; the bench reports the fastest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParryMode {
    /// `insert_or_update_partially` on every leaf, `refit`, then `optimize_incremental` (rapier's
    /// BVH broad phase).
    RefitOptimize,
    /// The same without `optimize_incremental`.
    Refit,
    /// `insert_with_change_detection`, which enlarges the ancestors at once: no refit.
    Propagate,
}

impl ParrySim {
    /// The tree of every body of `scene`.
    #[must_use]
    pub fn new(scene: &Scene, margin: f32) -> ParrySim {
        let shapes: Vec<Box<dyn PShape>> = scene.bodies.iter().map(Body::parry_shape).collect();
        let poses: Vec<Pose> = scene.bodies.iter().map(Body::pose).collect();
        let aabbs: Vec<PAabb> = shapes
            .iter()
            .zip(&poses)
            .map(|(s, p)| s.compute_aabb(p))
            .collect();
        let mut bvh = Bvh::new();
        for (i, a) in aabbs.iter().enumerate() {
            bvh.insert_or_update_partially(*a, i as u32, margin);
        }
        let mut workspace = BvhWorkspace::default();
        bvh.refit(&mut workspace);
        ParrySim {
            bvh,
            workspace,
            shapes,
            poses,
            aabbs,
            filters: scene.bodies.iter().map(|b| b.filter).collect(),
            candidates: Vec::new(),
            margin,
            mode: ParryMode::RefitOptimize,
        }
    }

    /// One frame, as [`Collide2dSim::frame`]. Filters are checked after pairing, as parry's
    /// users do. Returns the pairs.
    #[inline(never)]
    pub fn frame(&mut self, scene: &Scene) -> usize {
        for (i, b) in scene.bodies.iter().enumerate().skip(scene.statics) {
            if b.is_static() {
                continue;
            }
            self.poses[i] = b.pose();
            self.aabbs[i] = self.shapes[i].compute_aabb(&self.poses[i]);
            if self.mode == ParryMode::Propagate {
                self.bvh
                    .insert_with_change_detection(self.aabbs[i], i as u32, self.margin);
            } else {
                self.bvh
                    .insert_or_update_partially(self.aabbs[i], i as u32, self.margin);
            }
        }
        if self.mode != ParryMode::Propagate {
            self.bvh.refit(&mut self.workspace);
        }
        if self.mode == ParryMode::RefitOptimize {
            self.bvh.optimize_incremental(&mut self.workspace);
        }
        self.candidates.clear();
        let candidates = &mut self.candidates;
        self.bvh
            .traverse_bvtt_single_tree::<false>(&mut self.workspace, &mut |a, b| {
                candidates.push((a, b));
            });
        let mut pairs = 0;
        for &(a, b) in &self.candidates {
            let (a, b) = (a as usize, b as usize);
            if !self.filters[a].collides_with(self.filters[b])
                || !self.aabbs[a].intersects(&self.aabbs[b])
            {
                continue;
            }
            let hit = parry2d::query::intersection_test(
                &self.poses[a],
                &*self.shapes[a],
                &self.poses[b],
                &*self.shapes[b],
            );
            if matches!(hit, Ok(r) if r.intersecting) {
                pairs += 1;
            }
        }
        pairs
    }
}
