//! A level of static tiles (enough for the grid's static index) with movers of every speed,
//! while tiles are added, removed, moved and refiltered: each update's pairs equal brute force
//! and a fresh world's, and the events are the differences between updates: any state the
//! static index keeps across updates must survive these changes.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use collide2d::math::Vec2;
use collide2d::{intersects, Aabb, BroadPhase, Circle, CollisionWorld, Filter, Handle};
use collide2d::{ObjectKind, Shape};
use std::collections::BTreeSet;

mod support;
use support::scenes::Rng;

struct Object {
    handle: Handle,
    shape: Shape,
    filter: Filter,
    kind: ObjectKind,
    velocity: Vec2,
}

struct Level {
    world: CollisionWorld<u32>,
    /// By data (the order of insertion).
    objects: Vec<Option<Object>>,
    broad: BroadPhase,
}

fn tile(at: Vec2) -> Shape {
    Aabb::new(at, at + Vec2::ONE).unwrap().into()
}

/// Layer 1 meets everything; layer 2 only layer 1.
fn filter(rng: &mut Rng) -> Filter {
    if rng.below(8) == 0 {
        Filter::new(2, 1)
    } else {
        Filter::DEFAULT
    }
}

impl Level {
    fn new(broad: BroadPhase, rng: &mut Rng) -> Level {
        let mut level = Level {
            world: CollisionWorld::new(broad),
            objects: Vec::new(),
            broad,
        };
        // 24 x 24 tiles 1.5 apart (and a few circles among them), then movers at speeds from
        // rest to bullets.
        for i in 0..576 {
            let at = Vec2::new((i % 24) as f32, (i / 24) as f32) * 1.5;
            let shape = if i % 11 == 0 {
                Circle::new(at + 0.5, 0.5).unwrap().into()
            } else {
                tile(at)
            };
            level.add(shape, Filter::DEFAULT, ObjectKind::Static, Vec2::ZERO);
        }
        let speeds = [0.0, 0.02, 0.25, 0.6, 2.5];
        for i in 0..40 {
            let at = Vec2::new(rng.f(0.0, 36.0), rng.f(0.0, 36.0));
            let size = rng.f(0.3, 2.0);
            let shape = if i % 3 == 0 {
                Circle::new(at, size * 0.5).unwrap().into()
            } else {
                Aabb::new(at, at + Vec2::new(size, size * 0.7))
                    .unwrap()
                    .into()
            };
            let v = Vec2::from_angle(rng.f(0.0, std::f32::consts::TAU)) * speeds[i % speeds.len()];
            let f = filter(rng);
            level.add(shape, f, ObjectKind::Dynamic, v);
        }
        level
    }

    fn add(&mut self, shape: Shape, filter: Filter, kind: ObjectKind, velocity: Vec2) {
        let data = self.objects.len() as u32;
        let handle = self
            .world
            .insert(shape.clone(), filter, kind, data)
            .unwrap();
        self.objects.push(Some(Object {
            handle,
            shape,
            filter,
            kind,
            velocity,
        }));
    }

    /// The movers' steps (bouncing off the level's sides; now and then one teleports), and
    /// every few updates a change to the tiles.
    fn step(&mut self, rng: &mut Rng, frame: u32) {
        for o in self.objects.iter_mut().flatten() {
            if o.kind == ObjectKind::Static {
                continue;
            }
            let c = o.shape.aabb().center();
            let mut d = o.velocity;
            if !(-2.0..38.0).contains(&(c.x + d.x)) || !(-2.0..38.0).contains(&(c.y + d.y)) {
                o.velocity = -o.velocity;
                d = o.velocity;
            }
            if rng.below(40) == 0 {
                d = Vec2::new(rng.f(0.0, 36.0), rng.f(0.0, 36.0)) - c;
            }
            self.world.move_by(o.handle, d).unwrap();
            o.shape = self.world.shape(o.handle).unwrap().into_owned();
        }
        if !frame.is_multiple_of(5) {
            return;
        }
        let statics: Vec<usize> = (0..self.objects.len())
            .filter(|&i| matches!(&self.objects[i], Some(o) if o.kind == ObjectKind::Static))
            .collect();
        let i = statics[rng.below(statics.len() as u64) as usize];
        match (frame / 5) % 4 {
            0 => {
                let at = Vec2::new(rng.f(0.0, 36.0), rng.f(0.0, 36.0));
                self.add(tile(at), Filter::DEFAULT, ObjectKind::Static, Vec2::ZERO);
            }
            1 => {
                let o = self.objects[i].take().unwrap();
                self.world.remove(o.handle).unwrap();
            }
            2 => {
                let o = self.objects[i].as_mut().unwrap();
                let d = Vec2::new(rng.f(-2.0, 2.0), rng.f(-2.0, 2.0));
                self.world.move_by(o.handle, d).unwrap();
                o.shape = self.world.shape(o.handle).unwrap().into_owned();
            }
            _ => {
                let o = self.objects[i].as_mut().unwrap();
                o.filter = filter(rng);
                self.world.set_filter(o.handle, o.filter).unwrap();
            }
        }
    }

    /// The pairs by data, from brute force: every mover against every object.
    fn brute(&self) -> BTreeSet<(u32, u32)> {
        let mut out = BTreeSet::new();
        let live: Vec<(u32, &Object)> = (0..self.objects.len())
            .filter_map(|i| self.objects[i].as_ref().map(|o| (i as u32, o)))
            .collect();
        for &(i, a) in &live {
            if a.kind == ObjectKind::Static {
                continue;
            }
            for &(j, b) in &live {
                let counted = b.kind != ObjectKind::Static && j < i;
                if i != j
                    && !counted
                    && a.filter.collides_with(b.filter)
                    && intersects(&a.shape, &b.shape)
                {
                    out.insert((i.min(j), i.max(j)));
                }
            }
        }
        out
    }

    fn found(world: &CollisionWorld<u32>) -> BTreeSet<(u32, u32)> {
        let data = |h| *world.data(h).unwrap();
        world
            .pairs()
            .iter()
            .map(|p| (data(p.a).min(data(p.b)), data(p.a).max(data(p.b))))
            .collect()
    }

    /// A new world of the same objects, in the same order (so with the same handles' order).
    fn fresh(&self) -> CollisionWorld<u32> {
        let mut world = CollisionWorld::new(self.broad);
        for (i, o) in self.objects.iter().enumerate() {
            if let Some(o) = o {
                world
                    .insert(o.shape.clone(), o.filter, o.kind, i as u32)
                    .unwrap();
            }
        }
        world.update();
        world
    }
}

#[test]
fn statics_changed_between_updates_give_the_pairs_of_brute_force_and_of_a_fresh_world() {
    for (seed, broad) in [
        (1, BroadPhase::default()),
        (2, BroadPhase::grid(2.0).unwrap()),
        (3, BroadPhase::grid(1.0).unwrap()),
    ] {
        let mut rng = Rng(seed);
        let mut level = Level::new(broad, &mut rng);
        let mut before = BTreeSet::new();
        let (mut most, mut began) = (0, 0);
        for frame in 0..120 {
            level.step(&mut rng, frame);
            level.world.update();
            let found = Level::found(&level.world);
            let want = level.brute();
            assert_eq!(found, want, "seed {seed} frame {frame}");
            // The events are the differences (by data: no handle is reused here but removed
            // ones, whose pairs ended).
            let data = |h| *level.world.data(h).unwrap();
            let began_now: BTreeSet<(u32, u32)> = level
                .world
                .began()
                .iter()
                .map(|&(a, b)| (data(a).min(data(b)), data(a).max(data(b))))
                .collect();
            let want_began: BTreeSet<(u32, u32)> = want.difference(&before).copied().collect();
            assert_eq!(began_now, want_began, "seed {seed} frame {frame}");
            assert_eq!(
                level.world.ended().len(),
                before.difference(&want).count(),
                "seed {seed} frame {frame}"
            );
            if frame % 10 == 9 {
                assert_eq!(
                    Level::found(&level.fresh()),
                    found,
                    "seed {seed} frame {frame}"
                );
            }
            most = most.max(found.len());
            began += began_now.len();
            before = want;
        }
        // Movers met tiles, and pairs came and went.
        assert!(most > 20 && began > 100, "seed {seed}: {most} {began}");
    }
}
