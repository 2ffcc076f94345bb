//! Fast objects and shape casts in `CollisionWorld` against brute force: on seeded random scenes
//! (layers, masks, static, dynamic and fast objects, sweeps, teleports, refilters, removals), every
//! broad phase finds exactly the pairs of an all-pairs loop over `cast_shapes` (for pairs with a
//! fast object) and `intersects` (the rest), with the same times of impact and contacts;
//! `cast_shape` and `cast_shape_all` equal a scan of every object; thin walls crossed in one step
//! are always hit; teleports are not swept; results do not depend on the thread count.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use collide2d::math::{Pose, Vec2};
use collide2d::{
    cast_shapes, contact, intersects, Aabb, BroadPhase, CastHit, Circle, CollisionWorld, Compound,
    Contact, Filter, Handle, Obb, ObjectKind, Point, Polygon, Segment, Shape, WorldError,
};
use std::collections::BTreeMap;

mod support;
use support::scenes::{broad_phases, filter, Rng};

impl Rng {
    /// Integer values half the time, so touching cases are common.
    fn coord(&mut self, lo: f32, hi: f32) -> f32 {
        if self.below(2) == 0 {
            self.f(lo, hi).round()
        } else {
            self.f(lo, hi)
        }
    }
    fn v(&mut self, lo: f32, hi: f32) -> Vec2 {
        Vec2::new(self.coord(lo, hi), self.coord(lo, hi))
    }
}

fn shape(rng: &mut Rng, extent: f32) -> Shape {
    let c = rng.v(0.0, extent);
    let size = |rng: &mut Rng| rng.f(0.0, 3.0).round().max(0.5);
    match rng.below(9) {
        0 => Point::new(c).unwrap().into(),
        1 => Segment::new(c, c + Vec2::new(rng.f(-3.0, 3.0), rng.f(-3.0, 3.0)))
            .unwrap()
            .into(),
        2 | 3 => Circle::new(c, size(rng)).unwrap().into(),
        4 => Aabb::new(c, c + Vec2::new(size(rng), size(rng)))
            .unwrap()
            .into(),
        5 => Obb::new(c, Vec2::new(size(rng), size(rng)), rng.f(0.0, 6.3))
            .unwrap()
            .into(),
        6 => {
            // An L, concave.
            let pts = [
                (0.0, 0.0),
                (2.0, 0.0),
                (2.0, 1.0),
                (1.0, 1.0),
                (1.0, 2.0),
                (0.0, 2.0),
            ]
            .map(|(x, y)| c + Vec2::new(x, y));
            Polygon::new(&pts).unwrap().into()
        }
        7 => Compound::new(vec![
            Circle::new(c, 1.0).unwrap().into(),
            Aabb::new(c + Vec2::new(2.0, 0.0), c + Vec2::new(3.0, 1.0))
                .unwrap()
                .into(),
        ])
        .unwrap()
        .into(),
        // A thin wall, large against a small grid cell.
        _ => Aabb::new(c, c + Vec2::new(1.0, rng.f(5.0, 30.0).round()))
            .unwrap()
            .into(),
    }
}

/// One object as the test sees it: where it is now, and, for a fast object, where it was at the
/// previous update and its motion since.
#[derive(Clone, Debug)]
struct Model {
    handle: Handle,
    now: Shape,
    start: Shape,
    motion: Vec2,
    filter: Filter,
    kind: ObjectKind,
}

/// What a pair should report: its time of impact and contact.
type Expected = BTreeMap<(Handle, Handle), (Option<f32>, Option<Contact>)>;

/// The world and a plain list mirroring it.
struct Scene {
    world: CollisionWorld<u32>,
    objects: Vec<Model>,
    previous: Expected,
    contacts: bool,
}

/// The contact the world reports for a pair found by casting at `t > 0`.
fn same_contact(got: &Contact, hit: &CastHit) -> bool {
    got.normal == hit.normal && got.depth == hit.depth && got.points[..] == [hit.point]
}

impl Scene {
    fn new(broad: BroadPhase, contacts: bool) -> Scene {
        let mut world = CollisionWorld::new(broad);
        world.set_contacts(contacts);
        Scene {
            world,
            objects: Vec::new(),
            previous: Expected::new(),
            contacts,
        }
    }

    /// Every pair by brute force, as the world defines it.
    fn brute_pairs(&self) -> Expected {
        let mut objects: Vec<&Model> = self.objects.iter().collect();
        objects.sort_by_key(|o| o.handle);
        let mut out = Expected::new();
        for (i, a) in objects.iter().enumerate() {
            for b in &objects[i + 1..] {
                let both_static = a.kind == ObjectKind::Static && b.kind == ObjectKind::Static;
                if both_static || !a.filter.collides_with(b.filter) {
                    continue;
                }
                let key = (a.handle, b.handle);
                if a.kind == ObjectKind::Fast || b.kind == ObjectKind::Fast {
                    let (sa, va) = if a.kind == ObjectKind::Fast {
                        (&a.start, a.motion)
                    } else {
                        (&a.now, Vec2::ZERO)
                    };
                    let (sb, vb) = if b.kind == ObjectKind::Fast {
                        (&b.start, b.motion)
                    } else {
                        (&b.now, Vec2::ZERO)
                    };
                    if let Some(hit) = cast_shapes(sa, va, sb, vb) {
                        let c = if !self.contacts {
                            None
                        } else if hit.t == 0.0 {
                            Some(contact(sa, sb).unwrap())
                        } else {
                            None // checked against the hit in `check_update`
                        };
                        out.insert(key, (Some(hit.t), c));
                    }
                } else if intersects(&a.now, &b.now) {
                    let c = if self.contacts {
                        Some(contact(&a.now, &b.now).unwrap())
                    } else {
                        None
                    };
                    out.insert(key, (None, c));
                }
            }
        }
        out
    }

    fn pick(&self, rng: &mut Rng) -> usize {
        rng.below(self.objects.len() as u64) as usize
    }

    fn edit(&mut self, rng: &mut Rng, extent: f32, next_data: &mut u32) {
        match rng.below(12) {
            0..=5 if !self.objects.is_empty() => {
                // A step: fast objects go far (through whatever is in the way).
                let i = self.pick(rng);
                let o = &mut self.objects[i];
                let far = o.kind == ObjectKind::Fast && rng.below(4) != 0;
                let step = if far { extent } else { 0.7 };
                let d = rng.v(-step, step);
                self.world.move_by(o.handle, d).unwrap();
                o.now = o.now.transformed(&Pose::from_translation(d));
                if o.kind == ObjectKind::Fast {
                    o.motion += d;
                } else {
                    o.start = o.now.clone();
                }
                assert_eq!(self.world.motion(o.handle).unwrap(), o.motion);
                assert_eq!(*self.world.shape(o.handle).unwrap(), o.now);
            }
            6 if !self.objects.is_empty() => {
                // A teleport or reshape: not swept.
                let i = self.pick(rng);
                let s = shape(rng, extent);
                let o = &mut self.objects[i];
                self.world.set_shape(o.handle, s.clone()).unwrap();
                o.now = s.clone();
                o.start = s;
                o.motion = Vec2::ZERO;
            }
            7 if !self.objects.is_empty() => {
                let i = self.pick(rng);
                let f = filter(rng);
                self.world.set_filter(self.objects[i].handle, f).unwrap();
                self.objects[i].filter = f;
            }
            8 if !self.objects.is_empty() => {
                let i = self.pick(rng);
                let h = self.objects.remove(i).handle;
                self.world.remove(h).unwrap();
                assert_eq!(
                    self.world.move_by(h, Vec2::X),
                    Err(WorldError::StaleHandle { handle: h })
                );
            }
            _ => self.add(rng, extent, next_data),
        }
    }

    fn add(&mut self, rng: &mut Rng, extent: f32, next_data: &mut u32) {
        let s = shape(rng, extent);
        let f = filter(rng);
        let kind = match rng.below(5) {
            0 => ObjectKind::Static,
            1 | 2 => ObjectKind::Fast,
            _ => ObjectKind::Dynamic,
        };
        let handle = self.world.insert(s.clone(), f, kind, *next_data).unwrap();
        *next_data += 1;
        self.objects.push(Model {
            handle,
            now: s.clone(),
            start: s,
            motion: Vec2::ZERO,
            filter: f,
            kind,
        });
    }

    /// Updates and checks pairs, times of impact, events and contacts against brute force.
    fn check_update(&mut self, what: &str) {
        let stats = self.world.update();
        let want = self.brute_pairs();
        let pairs = self.world.pairs();
        assert!(
            pairs
                .windows(2)
                .all(|w| (w[0].a, w[0].b) < (w[1].a, w[1].b)),
            "{what}: sorted, no repeat"
        );
        assert_eq!(stats.pairs, pairs.len());
        let got: Vec<(Handle, Handle, Option<f32>)> =
            pairs.iter().map(|p| (p.a, p.b, p.toi)).collect();
        let expected: Vec<(Handle, Handle, Option<f32>)> =
            want.iter().map(|(k, v)| (k.0, k.1, v.0)).collect();
        assert_eq!(got, expected, "{what}: pairs and times of impact");
        let contacts = self.world.contacts();
        assert_eq!(contacts.len(), if self.contacts { pairs.len() } else { 0 });
        for (i, p) in pairs.iter().enumerate() {
            let (toi, c) = want[&(p.a, p.b)];
            match (toi, self.contacts) {
                (Some(t), true) if t > 0.0 => {
                    let (a, b) = (self.model(p.a), self.model(p.b));
                    let va = if a.kind == ObjectKind::Fast {
                        a.motion
                    } else {
                        Vec2::ZERO
                    };
                    let vb = if b.kind == ObjectKind::Fast {
                        b.motion
                    } else {
                        Vec2::ZERO
                    };
                    let sa = if a.kind == ObjectKind::Fast {
                        &a.start
                    } else {
                        &a.now
                    };
                    let sb = if b.kind == ObjectKind::Fast {
                        &b.start
                    } else {
                        &b.now
                    };
                    let hit = cast_shapes(sa, va, sb, vb).unwrap();
                    let got = contacts[i];
                    assert!(same_contact(&got, &hit), "{what}: contact at toi");
                }
                _ => assert_eq!(contacts.get(i).copied(), c, "{what}: contact"),
            }
        }
        let began: Vec<_> = want
            .keys()
            .filter(|k| !self.previous.contains_key(k))
            .copied()
            .collect();
        let ended: Vec<_> = self
            .previous
            .keys()
            .filter(|k| !want.contains_key(k))
            .copied()
            .collect();
        assert_eq!(self.world.began(), &began[..], "{what}: began");
        assert_eq!(self.world.ended(), &ended[..], "{what}: ended");
        self.used_up();
        self.previous = want;
    }

    /// After an update: the motions are used up.
    fn used_up(&mut self) {
        for o in &mut self.objects {
            o.start = o.now.clone();
            o.motion = Vec2::ZERO;
            assert_eq!(self.world.motion(o.handle).unwrap(), Vec2::ZERO);
        }
    }

    fn model(&self, h: Handle) -> &Model {
        self.objects.iter().find(|o| o.handle == h).unwrap()
    }

    /// `cast_shape` and `cast_shape_all` against a scan of every object.
    fn check_casts(&self, rng: &mut Rng, extent: f32, what: &str) {
        let mask = if rng.below(2) == 0 {
            u64::MAX
        } else {
            rng.below(8)
        };
        let probe = shape(rng, extent);
        let motion = match rng.below(4) {
            0 => Vec2::ZERO,
            1 => Vec2::new(rng.coord(-extent, extent), 0.0),
            _ => rng.v(-extent, extent),
        };
        let mut want: Vec<(Handle, CastHit)> = self
            .objects
            .iter()
            .filter(|o| o.filter.layer & mask != 0)
            .filter_map(|o| cast_shapes(&probe, motion, &o.now, Vec2::ZERO).map(|h| (o.handle, h)))
            .collect();
        want.sort_by(|x, y| x.1.t.total_cmp(&y.1.t).then(x.0.cmp(&y.0)));
        let all = self.world.cast_shape_all(&probe, motion, mask);
        assert_eq!(all, want, "{what}: cast all {probe:?} {motion}");
        assert_eq!(
            self.world.cast_shape(&probe, motion, mask),
            want.first().copied(),
            "{what}: first cast hit {probe:?} {motion}"
        );
    }
}

fn soak() -> u64 {
    std::env::var("COLLIDE2D_SOAK")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

#[test]
fn fast_pairs_equal_brute_force_casts_for_every_broad_phase() {
    for seed in 0..8 * soak() {
        for (name, broad) in broad_phases() {
            let mut rng = Rng(seed);
            let extent = [10.0, 30.0, 60.0][(seed % 3) as usize];
            let mut scene = Scene::new(broad, seed % 2 == 0);
            let mut next = 0;
            for _ in 0..40 {
                scene.add(&mut rng, extent, &mut next);
            }
            for frame in 0..10 {
                let what = format!("seed {seed} {name} frame {frame}");
                for _ in 0..rng.below(40) {
                    scene.edit(&mut rng, extent, &mut next);
                }
                // Queries before the update see the edits already, after it the swept boxes.
                scene.check_casts(&mut rng, extent, &what);
                scene.check_update(&what);
                scene.check_casts(&mut rng, extent, &what);
            }
        }
    }
}

#[test]
fn a_thin_wall_crossed_in_one_step_is_always_hit_at_the_cast_time() {
    let mut rng = Rng(3);
    for (name, broad) in broad_phases() {
        for round in 0..40 {
            let mut world = CollisionWorld::new(broad);
            // A wall 2 units thick across x in [0, 2], at a random height.
            let y = rng.f(-50.0, 50.0);
            let wall: Shape = Aabb::new(Vec2::new(0.0, y - 20.0), Vec2::new(2.0, y + 20.0))
                .unwrap()
                .into();
            let wall_h = world
                .insert(wall.clone(), Filter::DEFAULT, ObjectKind::Static, ())
                .unwrap();
            // A bullet from the left going 50 units per step to the right, a little up or down.
            let start = Vec2::new(rng.f(-30.0, -1.5), y + rng.f(-10.0, 10.0));
            let bullet: Shape = Circle::new(start, rng.f(0.0, 1.0)).unwrap().into();
            let b = world
                .insert(bullet.clone(), Filter::DEFAULT, ObjectKind::Fast, ())
                .unwrap();
            world.update();
            let step = Vec2::new(50.0, rng.f(-5.0, 5.0));
            world.move_by(b, step).unwrap();
            world.update();
            let want = cast_shapes(&wall, Vec2::ZERO, &bullet, step).unwrap();
            let what = format!("{name} round {round}");
            assert_eq!(world.pairs().len(), 1, "{what}");
            let p = world.pairs()[0];
            assert_eq!((p.a, p.b, p.toi), (wall_h, b, Some(want.t)), "{what}");
            assert!(
                !intersects(&wall, &world.shape(b).unwrap()),
                "{what}: ends past the wall"
            );
            assert_eq!(world.began(), &[(wall_h, b)]);
            // The next step goes on, away from the wall: the pair ends.
            world.move_by(b, step).unwrap();
            world.update();
            assert!(world.pairs().is_empty(), "{what}");
            assert_eq!(world.ended(), &[(wall_h, b)]);
        }
    }
}

#[test]
fn two_fast_objects_meet_by_their_relative_motion() {
    for (name, broad) in broad_phases() {
        let mut world = CollisionWorld::new(broad);
        let circle = |x: f32| Shape::from(Circle::new(Vec2::new(x, 0.0), 1.0).unwrap());
        let a = world
            .insert(circle(-20.0), Filter::DEFAULT, ObjectKind::Fast, ())
            .unwrap();
        let b = world
            .insert(circle(20.0), Filter::DEFAULT, ObjectKind::Fast, ())
            .unwrap();
        world.update();
        // Head on, 60 units each: they swap sides and meet at t = 38 / 120.
        world.move_by(a, Vec2::new(60.0, 0.0)).unwrap();
        world.move_by(b, Vec2::new(-60.0, 0.0)).unwrap();
        world.update();
        let t = world.pairs().first().and_then(|p| p.toi);
        assert_eq!(t, Some(38.0 / 120.0), "{name}");
        // Side by side, same motion: they never meet.
        world.set_shape(a, circle(0.0)).unwrap();
        world.set_shape(b, circle(3.0)).unwrap();
        world.update();
        world.move_by(a, Vec2::new(0.0, 90.0)).unwrap();
        world.move_by(b, Vec2::new(0.0, 90.0)).unwrap();
        world.update();
        assert!(world.pairs().is_empty(), "{name}");
    }
}

#[test]
fn a_teleport_is_not_swept() {
    for (name, broad) in broad_phases() {
        let mut world = CollisionWorld::new(broad);
        let wall: Shape = Aabb::new(Vec2::new(0.0, -10.0), Vec2::new(2.0, 10.0))
            .unwrap()
            .into();
        world
            .insert(wall, Filter::DEFAULT, ObjectKind::Static, ())
            .unwrap();
        let circle = |x: f32| Shape::from(Circle::new(Vec2::new(x, 0.0), 1.0).unwrap());
        let b = world
            .insert(circle(-20.0), Filter::DEFAULT, ObjectKind::Fast, ())
            .unwrap();
        world.update();
        // Moved towards the wall, then teleported past it: the earlier motion is forgotten.
        world.move_by(b, Vec2::new(10.0, 0.0)).unwrap();
        world.set_shape(b, circle(20.0)).unwrap();
        assert_eq!(world.motion(b).unwrap(), Vec2::ZERO);
        world.update();
        assert!(world.pairs().is_empty(), "{name}");
        // A move after a teleport sweeps from the teleport's place.
        world.set_shape(b, circle(-20.0)).unwrap();
        world.move_by(b, Vec2::new(5.0, 0.0)).unwrap();
        world.update();
        assert!(world.pairs().is_empty(), "{name}");
        world.move_by(b, Vec2::new(30.0, 0.0)).unwrap();
        world.update();
        assert_eq!(world.pairs()[0].toi, Some(14.0 / 30.0), "{name}");
    }
}

#[test]
fn bad_motions_are_refused_and_change_nothing() {
    let mut world = CollisionWorld::new(BroadPhase::default());
    let c: Shape = Circle::new(Vec2::ZERO, 1.0).unwrap().into();
    let b = world
        .insert(c.clone(), Filter::DEFAULT, ObjectKind::Fast, ())
        .unwrap();
    assert_eq!(
        world.move_by(b, Vec2::new(f32::NAN, 0.0)),
        Err(WorldError::NonFiniteMotion)
    );
    world.move_by(b, Vec2::new(f32::MAX, 0.0)).unwrap();
    let there = world.shape(b).unwrap().into_owned();
    // Past the end of `f32`: the shape, or the sum of motions, would not be finite.
    assert!(world.move_by(b, Vec2::new(f32::MAX, 0.0)).is_err());
    assert_eq!(world.motion(b).unwrap(), Vec2::new(f32::MAX, 0.0));
    assert_eq!(*world.shape(b).unwrap(), there);
    world.update();
    assert!(world.cast_shape(&c, Vec2::INFINITY, u64::MAX).is_none());
    assert!(world.cast_shape_all(&c, Vec2::NAN, u64::MAX).is_empty());
}

#[test]
fn many_fast_bullets_that_ignore_each_other_make_no_bullet_pairs() {
    const BULLET: u64 = 1 << 1;
    const WALL: u64 = 1 << 0;
    for (name, broad) in broad_phases() {
        let mut world = CollisionWorld::new(broad);
        world
            .insert(
                Aabb::new(Vec2::new(100.0, -500.0), Vec2::new(101.0, 500.0))
                    .unwrap()
                    .into(),
                Filter::new(WALL, BULLET),
                ObjectKind::Static,
                (),
            )
            .unwrap();
        let bullets: Vec<Handle> = (0..2000)
            .map(|i| {
                let c = Vec2::new(0.0, i as f32 * 0.25 - 250.0);
                let s = Circle::new(c, 0.1).unwrap().into();
                world
                    .insert(s, Filter::new(BULLET, WALL), ObjectKind::Fast, ())
                    .unwrap()
            })
            .collect();
        world.update();
        // Each bullet's swept box is 200 units long and overlaps hundreds of others.
        for &b in &bullets {
            world.move_by(b, Vec2::new(200.0, 0.0)).unwrap();
        }
        let stats = world.update();
        assert_eq!((stats.pairs, stats.candidates), (2000, 2000), "{name}");
        let t = 99.9 / 200.0;
        let close = |p: &collide2d::Pair| p.toi.is_some_and(|toi| (toi - t).abs() < 1e-6);
        assert!(world.pairs().iter().all(close), "{name}");
    }
}

/// The pairs, times of impact, events and contacts of one seeded run, as text.
fn run_log(broad: BroadPhase, seed: u64) -> String {
    let mut rng = Rng(seed);
    let mut scene = Scene::new(broad, true);
    let mut next = 0;
    // Dense enough for more than a thousand candidates: the parallel narrow phase splits.
    for _ in 0..800 {
        scene.add(&mut rng, 40.0, &mut next);
    }
    let mut log = String::new();
    for _ in 0..8 {
        for _ in 0..200 {
            scene.edit(&mut rng, 40.0, &mut next);
        }
        let stats = scene.world.update();
        scene.used_up();
        log += &format!(
            "{stats:?}\n{:?}\n{:?}\n{:?}\n{:?}\n",
            scene.world.pairs(),
            scene.world.contacts(),
            scene.world.began(),
            scene.world.ended()
        );
    }
    log
}

#[test]
fn runs_with_fast_objects_give_the_same_results_bit_for_bit() {
    for (name, broad) in broad_phases() {
        let first = run_log(broad, 7);
        assert!(
            first.contains("toi: Some"),
            "{name}: the run has fast pairs"
        );
        assert_eq!(first, run_log(broad, 7), "{name}");
    }
}

#[cfg(feature = "rayon")]
#[test]
fn thread_counts_give_the_same_fast_pairs_bit_for_bit() {
    for (name, broad) in broad_phases() {
        let logs: Vec<String> = [1, 2, 3]
            .iter()
            .map(|&threads| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap()
                    .install(|| run_log(broad, 11))
            })
            .collect();
        assert_eq!(logs[0], logs[1], "{name}");
        assert_eq!(logs[0], logs[2], "{name}");
    }
}

/// FNV-1a of the log of [`run_log`] for seed 5, the same for every broad phase, with or without
/// the `rayon` feature: run the tests both ways to check the parity. (Re-pinned when contacts
/// left `Pair` for `CollisionWorld::contacts`: the log written in the old layout from the new
/// lists gave the old hash, `0x3ec2_ef40_27ad_50e3`. Re-pinned again when `UpdateStats` gained
/// `truncated`: the log without its `, truncated: false` gives the previous hash,
/// `0x8927_fe31_31bf_eecd`. Re-pinned again when the contacts of concave and compound shapes
/// became the whole shape's minimum translation, issue 17: the per-part contacts gave the
/// previous hash; the first version of it, with tolerances, `0x7342_7bec_1b26_b8d9`; the
/// union search alone, exact, `0x9602_233b_517e_9462`. Re-pinned again when a certified
/// deepest pair of parts answers with its own contact, by its kinds' kernel, bit for bit.
/// Re-pinned again when a flat face meeting an arc's tangent at a point of the union's
/// boundary stopped counting as a seam: the previous hash, `0xaf77_ce6f_9c8f_4a09`.
/// Re-pinned again when the polygon search weighed only faces on the outlines' reduced
/// convolution: the previous hash, `0xbd28_41f6_34f0_1499`; of the run's 42,664 direct
/// contacts with an L or a compound, 14 moved, each to another contact point at the same
/// normal and depth (another face through the same nearest point answers first), and each
/// passes `union_contact.rs`'s checks against the exact reference in both orders.
/// Re-pinned again when two polygons or boxes left to the search took the outline search
/// (`union_outline_search`): the previous hash, `0xcee2_49a6_1021_aa0d`; of the run's 22,984
/// logged contacts 467 changed (156 distinct), every one at the same depth, bit for bit: 121
/// another contact point at the same normal, 29 a zero normal component of the other sign,
/// 5 an axis normal exactly (it had a `1e-15` component), 1 the opposite normal at the same
/// depth (2.0, a box centred in a gap).)
const EXPECTED_LOG_HASH: u64 = 0x445e_cd8f_5d9b_f4e9;

fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xCBF2_9CE4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3)
    })
}

#[test]
fn every_broad_phase_and_feature_set_gives_the_checked_in_log() {
    let logs: Vec<(&str, String)> = broad_phases()
        .into_iter()
        .map(|(name, broad)| (name, run_log(broad, 5)))
        .collect();
    for (name, log) in &logs {
        assert_eq!(log, &logs[0].1, "{name} against {}", logs[0].0);
    }
    assert_eq!(
        fnv(logs[0].1.as_bytes()),
        EXPECTED_LOG_HASH,
        "{:#x}",
        fnv(logs[0].1.as_bytes())
    );
}
