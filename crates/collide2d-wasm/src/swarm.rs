//! The playground's second tab: many moving circles and boxes, bouncing in a field, with
//! their colliding pairs found by a [`CollisionWorld`] on a uniform grid (every shape is at most
//! 9 units wide, so 10-unit cells hold each one whole), then its exact narrow phase.

use collide2d::math::{Pose, Vec2};
use collide2d::{Aabb, BroadPhase, Circle, CollisionWorld, Filter, Handle, ObjectKind, Shape};
use wasm_bindgen::prelude::wasm_bindgen;

/// The grid's cell size: the widest shape (two half sizes of 4.5) and a unit to spare.
const CELL: f32 = 10.0;

/// Moving shapes in a `width` × `height` field, and which of them collide.
#[wasm_bindgen]
#[derive(Debug)]
pub struct Swarm {
    /// Each shape in its own frame, centred on the origin.
    local: Vec<Shape>,
    /// Each shape moved to its position, its handle's index its index here.
    world: CollisionWorld,
    handles: Vec<Handle>,
    positions: Vec<Vec2>,
    velocities: Vec<Vec2>,
    size: Vec2,
    colliding: Vec<u8>,
    pairs: u32,
    candidates: u32,
}

/// SplitMix64: a small seeded generator, so a seed always gives the same swarm.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `[lo, hi)`.
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        // 24 random bits: every value is an exact f32 in [0, 1).
        let unit = (self.next() >> 40) as f32 / (1u32 << 24) as f32;
        lo + (hi - lo) * unit
    }
}

#[wasm_bindgen]
impl Swarm {
    /// `count` shapes (half circles, half boxes; radii and half sizes 1.5 to 4.5 units) at
    /// seeded random places and velocities (10 to 80 units per second) in a `width` × `height`
    /// field (each at least 16).
    #[wasm_bindgen(constructor)]
    #[must_use]
    pub fn new(count: u32, width: f32, height: f32, seed: u32) -> Swarm {
        let mut rng = Rng(u64::from(seed));
        let size = Vec2::new(width.max(16.0), height.max(16.0));
        let mut local = Vec::new();
        let mut positions = Vec::new();
        let mut velocities = Vec::new();
        for i in 0..count {
            let shape = if i % 2 == 0 {
                Circle::new(Vec2::ZERO, rng.range(1.5, 4.5)).map(Shape::from)
            } else {
                let half = Vec2::new(rng.range(1.5, 4.5), rng.range(1.5, 4.5));
                Aabb::new(-half, half).map(Shape::from)
            };
            // Radii and sizes above are positive and finite, so construction cannot fail;
            // a failure would only skip the object.
            let Ok(shape) = shape else { continue };
            local.push(shape);
            positions.push(Vec2::new(
                rng.range(8.0, size.x - 8.0),
                rng.range(8.0, size.y - 8.0),
            ));
            let angle = rng.range(0.0, core::f32::consts::TAU);
            velocities.push(Vec2::from_angle(angle) * rng.range(10.0, 80.0));
        }
        let mut world = CollisionWorld::new(BroadPhase::grid(CELL).unwrap_or_default());
        let handles = local
            .iter()
            .zip(&positions)
            .filter_map(|(shape, &p)| {
                // Finite positions in a finite field: the world accepts every shape.
                world
                    .insert(
                        shape.transformed(&Pose::from_translation(p)),
                        Filter::DEFAULT,
                        ObjectKind::Dynamic,
                        (),
                    )
                    .ok()
            })
            .collect();
        let mut swarm = Swarm {
            colliding: vec![0; local.len()],
            local,
            world,
            handles,
            positions,
            velocities,
            size,
            pairs: 0,
            candidates: 0,
        };
        swarm.find_pairs();
        swarm
    }

    /// Moves every shape by `dt` seconds (bouncing off the field's edges), then finds the
    /// colliding pairs; returns how many there are.
    pub fn step(&mut self, dt: f32) -> u32 {
        let dt = if dt.is_finite() {
            dt.clamp(0.0, 0.1)
        } else {
            0.0
        };
        for ((p, v), shape) in self
            .positions
            .iter_mut()
            .zip(&mut self.velocities)
            .zip(&self.local)
        {
            *p += *v * dt;
            let half = shape.aabb().max();
            for axis in 0..2 {
                if p[axis] < half[axis] {
                    p[axis] = half[axis];
                    v[axis] = v[axis].abs();
                } else if p[axis] > self.size[axis] - half[axis] {
                    p[axis] = self.size[axis] - half[axis];
                    v[axis] = -v[axis].abs();
                }
            }
        }
        self.find_pairs();
        self.pairs
    }

    /// How many pairs collided at the last step.
    #[must_use]
    pub fn pair_count(&self) -> u32 {
        self.pairs
    }

    /// How many pairs the grid passed to the exact test at the last step (boxes overlapping).
    #[must_use]
    pub fn candidate_count(&self) -> u32 {
        self.candidates
    }

    /// How many shapes there are.
    #[must_use]
    pub fn len(&self) -> u32 {
        u32::try_from(self.local.len()).unwrap_or(u32::MAX)
    }

    /// True when there are no shapes.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.local.is_empty()
    }

    /// Positions as `[x0, y0, x1, y1, ...]`.
    #[must_use]
    pub fn positions(&self) -> Vec<f32> {
        self.positions.iter().flat_map(|p| [p.x, p.y]).collect()
    }

    /// One byte per shape: 1 when it is in at least one colliding pair.
    #[must_use]
    pub fn colliding(&self) -> Vec<u8> {
        self.colliding.clone()
    }

    /// The shapes in their own frames, as a formats.md JSON array (read once, for drawing).
    #[must_use]
    pub fn shapes(&self) -> String {
        serde_json::to_string(&self.local).unwrap_or_else(|_| String::from("[]"))
    }
}

impl Swarm {
    /// Moves each shape in the world to its position, then one world update.
    fn find_pairs(&mut self) {
        for ((shape, &p), &handle) in self.local.iter().zip(&self.positions).zip(&self.handles) {
            // The handles are live and the positions finite: this cannot fail.
            let _ = self
                .world
                .set_shape(handle, shape.transformed(&Pose::from_translation(p)));
        }
        let stats = self.world.update();
        self.colliding.fill(0);
        for pair in self.world.pairs() {
            for h in [pair.a, pair.b] {
                if let Some(flag) = self.colliding.get_mut(h.index() as usize) {
                    *flag = 1;
                }
            }
        }
        self.pairs = u32::try_from(stats.pairs).unwrap_or(u32::MAX);
        self.candidates = u32::try_from(stats.candidates).unwrap_or(u32::MAX);
    }

    /// The placed shapes, in order (for tests).
    #[cfg(test)]
    fn placed(&self) -> Vec<Shape> {
        self.world
            .iter()
            .map(|(_, shape, ())| shape.into_owned())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use collide2d::intersects;

    #[test]
    fn same_seed_same_swarm_and_pairs() {
        let mut a = Swarm::new(300, 400.0, 300.0, 7);
        let mut b = Swarm::new(300, 400.0, 300.0, 7);
        for _ in 0..20 {
            assert_eq!(a.step(1.0 / 60.0), b.step(1.0 / 60.0));
        }
        assert_eq!(a.positions(), b.positions());
        assert_eq!(a.colliding(), b.colliding());
        assert_ne!(Swarm::new(300, 400.0, 300.0, 8).positions(), a.positions());
    }

    #[test]
    fn pairs_and_flags_match_every_pair_tested_by_brute_force() {
        let mut swarm = Swarm::new(200, 200.0, 200.0, 3);
        for _ in 0..5 {
            swarm.step(0.05);
            let placed = swarm.placed();
            let mut flags = vec![0u8; placed.len()];
            let mut pairs = 0;
            for i in 0..placed.len() {
                for j in i + 1..placed.len() {
                    if intersects(&placed[i], &placed[j]) {
                        flags[i] = 1;
                        flags[j] = 1;
                        pairs += 1;
                    }
                }
            }
            assert!(pairs > 0, "a crowded field has collisions");
            assert_eq!(swarm.pair_count(), pairs);
            assert!(swarm.candidate_count() >= pairs);
            assert_eq!(swarm.colliding(), flags);
        }
    }

    #[test]
    fn shapes_stay_inside_the_field() {
        let mut swarm = Swarm::new(100, 120.0, 80.0, 1);
        for _ in 0..600 {
            swarm.step(0.1);
        }
        // Placing a shape at the edge rounds once: allow a few ulps.
        let slack = 1e-4;
        for shape in &swarm.placed() {
            let b = shape.aabb();
            assert!(b.min().x >= -slack && b.min().y >= -slack, "{b:?}");
            assert!(
                b.max().x <= 120.0 + slack && b.max().y <= 80.0 + slack,
                "{b:?}"
            );
        }
        assert_eq!(swarm.len(), 100);
        let shapes: serde_json::Value = serde_json::from_str(&swarm.shapes()).unwrap();
        assert_eq!(shapes.as_array().unwrap().len(), 100);
    }
}
