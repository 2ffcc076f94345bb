//! `CollisionWorld` against brute force: on seeded random scenes (layers, masks, static objects,
//! moves, reshapes, refilters, removals, reinsertions), every broad phase finds exactly the pairs
//! of an all-pairs loop, begin and end events are the set differences between updates, queries
//! equal a scan of every object, and results do not depend on the run or the thread count.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use collide2d::math::{Pose, Vec2};
use collide2d::query::Ray;
use collide2d::{
    cast_ray, contact, contains_point, intersects, Aabb, BroadPhase, Capsule, Circle,
    CollisionWorld, Compound, Filter, Handle, Obb, ObjectKind, Point, Polygon, Segment, Shape,
    WorldError,
};
use std::collections::BTreeSet;

mod support;
use support::scenes::{broad_phases, filter, Rng};

impl Rng {
    /// Integer coordinates half the time, so touching cases are common.
    fn coord(&mut self, extent: f32) -> f32 {
        if self.below(2) == 0 {
            self.f(0.0, extent).round()
        } else {
            self.f(0.0, extent)
        }
    }
    fn v(&mut self, extent: f32) -> Vec2 {
        Vec2::new(self.coord(extent), self.coord(extent))
    }
}

fn shape(rng: &mut Rng, extent: f32) -> Shape {
    let c = rng.v(extent);
    let size = |rng: &mut Rng| rng.f(0.0, 3.0).round().max(0.5);
    match rng.below(10) {
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
        6 => Capsule::new(c, c + Vec2::new(rng.f(-3.0, 3.0), 0.0), size(rng) * 0.5)
            .unwrap()
            .into(),
        7 => {
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
        8 => Compound::new(vec![
            Circle::new(c, 1.0).unwrap().into(),
            Aabb::new(c + Vec2::new(2.0, 0.0), c + Vec2::new(3.0, 1.0))
                .unwrap()
                .into(),
        ])
        .unwrap()
        .into(),
        // A long wall: large against a small grid cell.
        _ => Aabb::new(c, c + Vec2::new(rng.f(5.0, 30.0).round(), 1.0))
            .unwrap()
            .into(),
    }
}

/// The world and a plain list mirroring it.
struct Scene {
    world: CollisionWorld<u32>,
    objects: Vec<(Handle, Shape, Filter, ObjectKind)>,
    previous: BTreeSet<(Handle, Handle)>,
    contacts: bool,
    /// Filters with random unused mask bits, so nearly every object's filter is its own.
    many_filters: bool,
}

impl Scene {
    /// A filter of [`filter`]; with `many_filters`, its mask has random bits above the three
    /// layers, so it is almost always a filter no other object has.
    fn filter(&self, rng: &mut Rng) -> Filter {
        let f = filter(rng);
        if self.many_filters {
            Filter::new(f.layer, f.mask | rng.next() << 3)
        } else {
            f
        }
    }

    fn brute_pairs(&self) -> BTreeSet<(Handle, Handle)> {
        let mut out = BTreeSet::new();
        for (i, (ha, sa, fa, ka)) in self.objects.iter().enumerate() {
            for (hb, sb, fb, kb) in &self.objects[i + 1..] {
                let both_static = *ka == ObjectKind::Static && *kb == ObjectKind::Static;
                if !both_static && fa.collides_with(*fb) && intersects(sa, sb) {
                    out.insert((*ha.min(hb), *ha.max(hb)));
                }
            }
        }
        out
    }

    fn edit(&mut self, rng: &mut Rng, extent: f32, next_data: &mut u32) {
        match rng.below(10) {
            0..=4 if !self.objects.is_empty() => {
                // Move a little (or teleport).
                let i = rng.below(self.objects.len() as u64) as usize;
                let step = if rng.below(5) == 0 { 20.0 } else { 0.7 };
                let d = Vec2::new(rng.f(-step, step), rng.f(-step, step));
                let moved = self.objects[i].1.transformed(&Pose::from_translation(d));
                self.world
                    .set_shape(self.objects[i].0, moved.clone())
                    .unwrap();
                self.objects[i].1 = moved;
            }
            5 if !self.objects.is_empty() => {
                let i = rng.below(self.objects.len() as u64) as usize;
                let s = shape(rng, extent);
                self.world.set_shape(self.objects[i].0, s.clone()).unwrap();
                self.objects[i].1 = s;
            }
            6 if !self.objects.is_empty() => {
                let i = rng.below(self.objects.len() as u64) as usize;
                let f = self.filter(rng);
                self.world.set_filter(self.objects[i].0, f).unwrap();
                self.objects[i].2 = f;
            }
            7 if !self.objects.is_empty() => {
                let i = rng.below(self.objects.len() as u64) as usize;
                let (h, ..) = self.objects.remove(i);
                self.world.remove(h).unwrap();
                assert_eq!(
                    self.world.remove(h),
                    Err(WorldError::StaleHandle { handle: h })
                );
            }
            _ => self.add(rng, extent, next_data),
        }
    }

    fn add(&mut self, rng: &mut Rng, extent: f32, next_data: &mut u32) {
        let s = shape(rng, extent);
        let f = self.filter(rng);
        let kind = if rng.below(4) == 0 {
            ObjectKind::Static
        } else {
            ObjectKind::Dynamic
        };
        let h = self.world.insert(s.clone(), f, kind, *next_data).unwrap();
        *next_data += 1;
        self.objects.push((h, s, f, kind));
    }

    /// Updates and checks pairs, events and contacts against brute force.
    fn check_update(&mut self, what: &str) {
        let stats = self.world.update();
        let want = self.brute_pairs();
        let got: Vec<(Handle, Handle)> = self.world.pairs().iter().map(|p| (p.a, p.b)).collect();
        let got_set: BTreeSet<_> = got.iter().copied().collect();
        assert_eq!(got_set, want, "{what}: pairs");
        assert!(
            got.windows(2).all(|w| w[0] < w[1]),
            "{what}: sorted, no repeat"
        );
        assert_eq!(stats.pairs, got.len());
        let began: Vec<_> = want.difference(&self.previous).copied().collect();
        let ended: Vec<_> = self.previous.difference(&want).copied().collect();
        assert_eq!(self.world.began(), &began[..], "{what}: began");
        assert_eq!(self.world.ended(), &ended[..], "{what}: ended");
        let contacts = self.world.contacts();
        let pairs = self.world.pairs();
        assert_eq!(contacts.len(), if self.contacts { pairs.len() } else { 0 });
        for (i, p) in pairs.iter().enumerate() {
            let (sa, sb) = (
                self.world.shape(p.a).unwrap(),
                self.world.shape(p.b).unwrap(),
            );
            let want = if self.contacts {
                contact(&sa, &sb)
            } else {
                None
            };
            assert_eq!(contacts.get(i).copied(), want, "{what}: contact");
        }
        self.previous = want;
    }

    /// Queries against a scan of every object.
    fn check_queries(&self, rng: &mut Rng, extent: f32, what: &str) {
        let mask = if rng.below(2) == 0 {
            u64::MAX
        } else {
            rng.below(8)
        };
        let visible = |f: &Filter| f.layer & mask != 0;
        let p = rng.v(extent);
        let want: Vec<Handle> = self
            .sorted()
            .filter(|(_, s, f, _)| visible(f) && contains_point(s, p))
            .map(|o| o.0)
            .collect();
        assert_eq!(self.world.objects_at_point(p, mask), want, "{what}: point");
        let region = shape(rng, extent);
        let want: Vec<Handle> = self
            .sorted()
            .filter(|(_, s, f, _)| visible(f) && intersects(s, &region))
            .map(|o| o.0)
            .collect();
        assert_eq!(
            self.world.objects_overlapping(&region, mask),
            want,
            "{what}: overlap"
        );
        let dir = Vec2::new(rng.f(-1.0, 1.0), rng.f(-1.0, 1.0)) * rng.f(0.5, 40.0);
        let dir = if rng.below(6) == 0 {
            Vec2::new(dir.x, 0.0)
        } else {
            dir
        };
        let ray = Ray::new(rng.v(extent), dir);
        let max_t = if rng.below(2) == 0 {
            f32::INFINITY
        } else {
            rng.f(0.0, 2.0)
        };
        let mut want: Vec<(Handle, f32)> = self
            .sorted()
            .filter(|(_, _, f, _)| visible(f))
            .filter_map(|(h, s, _, _)| cast_ray(s, &ray, max_t).map(|hit| (*h, hit.t)))
            .collect();
        want.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        let all: Vec<(Handle, f32)> = self
            .world
            .cast_ray_all(&ray, max_t, mask)
            .iter()
            .map(|(h, hit)| (*h, hit.t))
            .collect();
        assert_eq!(all, want, "{what}: ray all {ray:?} {max_t}");
        let first = self
            .world
            .cast_ray(&ray, max_t, mask)
            .map(|(h, hit)| (h, hit.t));
        assert_eq!(
            first,
            want.first().copied(),
            "{what}: first ray hit {ray:?}"
        );
    }

    fn sorted(&self) -> impl Iterator<Item = &(Handle, Shape, Filter, ObjectKind)> {
        let mut v: Vec<_> = self.objects.iter().collect();
        v.sort_by_key(|o| o.0);
        v.into_iter()
    }
}

fn soak() -> u64 {
    std::env::var("COLLIDE2D_SOAK")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

#[test]
fn every_broad_phase_finds_the_brute_force_pairs_events_and_query_answers() {
    run_scenes(0..12 * soak(), false);
}

/// Issue 16, items 2 and 3: objects past the first 64 filters in use share a group, filters are
/// tested pair by pair there, and groups are freed and reused as filters change.
#[test]
fn many_distinct_filters_give_the_brute_force_pairs_events_and_query_answers() {
    run_scenes(100..104 * soak(), true);
}

fn run_scenes(seeds: core::ops::Range<u64>, many_filters: bool) {
    for seed in seeds {
        for (name, broad) in broad_phases() {
            let mut rng = Rng(seed);
            let extent = [10.0, 30.0, 60.0][(seed % 3) as usize];
            let mut scene = Scene {
                world: CollisionWorld::new(broad),
                objects: Vec::new(),
                previous: BTreeSet::new(),
                contacts: seed % 2 == 0,
                many_filters,
            };
            scene.world.set_contacts(scene.contacts);
            let mut next = 0;
            for _ in 0..if many_filters { 120 } else { 40 } {
                scene.add(&mut rng, extent, &mut next);
            }
            for frame in 0..12 {
                let what = format!("seed {seed} {name} frame {frame}");
                // Queries before the update see the edits already.
                for _ in 0..rng.below(30) {
                    scene.edit(&mut rng, extent, &mut next);
                }
                scene.check_queries(&mut rng, extent, &what);
                scene.check_update(&what);
                scene.check_queries(&mut rng, extent, &what);
            }
        }
    }
}

#[test]
fn a_pair_begins_once_and_ends_once() {
    for (name, broad) in broad_phases() {
        let mut world = CollisionWorld::new(broad);
        let circle = |x: f32| Shape::from(Circle::new(Vec2::new(x, 0.0), 1.0).unwrap());
        let a = world
            .insert(circle(0.0), Filter::DEFAULT, ObjectKind::Dynamic, ())
            .unwrap();
        let b = world
            .insert(circle(5.0), Filter::DEFAULT, ObjectKind::Static, ())
            .unwrap();
        let mut begins = 0;
        let mut ends = 0;
        // Approach, overlap for a while (touching at x = 3), leave.
        for step in 0..=40 {
            let x = step as f32 * 0.25;
            world.set_shape(a, circle(x)).unwrap();
            world.update();
            begins += world.began().len();
            ends += world.ended().len();
            let touching = (3.0..=7.0).contains(&x);
            assert_eq!(world.pairs().len(), usize::from(touching), "{name} x {x}");
            if x == 3.0 {
                assert_eq!(world.began(), &[(a, b)], "{name}");
            }
            if x == 7.25 {
                assert_eq!(world.ended(), &[(a, b)], "{name}");
            }
        }
        assert_eq!((begins, ends), (1, 1), "{name}");
    }
}

#[test]
fn removing_an_object_ends_its_pairs_and_its_handle_goes_stale() {
    for (name, broad) in broad_phases() {
        let mut world = CollisionWorld::new(broad);
        let s: Shape = Circle::new(Vec2::ZERO, 1.0).unwrap().into();
        let a = world
            .insert(s.clone(), Filter::DEFAULT, ObjectKind::Dynamic, 1)
            .unwrap();
        let b = world
            .insert(s.clone(), Filter::DEFAULT, ObjectKind::Dynamic, 2)
            .unwrap();
        world.update();
        assert_eq!(world.began(), &[(a, b)], "{name}");
        assert_eq!(world.remove(b), Ok(2));
        // The slot is reused; the old handle still fails.
        let c = world
            .insert(s.clone(), Filter::DEFAULT, ObjectKind::Dynamic, 3)
            .unwrap();
        assert_eq!(c.index(), b.index());
        assert_ne!(c, b);
        let stale = Err(WorldError::StaleHandle { handle: b });
        assert_eq!(world.data(b), stale.map(|_: ()| &0));
        assert!(world.set_shape(b, s.clone()).is_err());
        assert!(world.set_filter(b, Filter::DEFAULT).is_err());
        assert!(world.shape(b).is_err() && world.remove(b).is_err());
        assert!(!world.contains(b) && world.contains(c));
        world.update();
        assert_eq!(world.ended(), &[(a, b)], "{name}");
        assert_eq!(world.began(), &[(a, c)], "{name}");
        assert_eq!(*world.data(c).unwrap(), 3);
    }
}

#[test]
fn filters_static_objects_and_takes_huge_shapes() {
    let mut world = CollisionWorld::new(BroadPhase::grid(2.0).unwrap());
    let s: Shape = Aabb::new(Vec2::ZERO, Vec2::ONE).unwrap().into();
    let bullets = Filter::new(0b01, 0b10); // bullets ignore bullets
    let b1 = world
        .insert(s.clone(), bullets, ObjectKind::Dynamic, ())
        .unwrap();
    let _b2 = world
        .insert(s.clone(), bullets, ObjectKind::Dynamic, ())
        .unwrap();
    let walls = Filter::new(0b100, u64::MAX);
    let _w1 = world
        .insert(s.clone(), walls, ObjectKind::Static, ())
        .unwrap();
    let _w2 = world
        .insert(s.clone(), walls, ObjectKind::Static, ())
        .unwrap();
    let stats = world.update();
    assert_eq!((stats.candidates, stats.pairs), (0, 0));
    let target = world
        .insert(s.clone(), Filter::new(0b10, 0b01), ObjectKind::Dynamic, ())
        .unwrap();
    let stats = world.update();
    assert_eq!((stats.candidates, stats.pairs, stats.began), (2, 2, 2));
    assert_eq!(world.pairs()[0].a, b1);
    assert_eq!(world.pairs()[0].b, target);
    assert_eq!(
        BroadPhase::grid(0.0),
        Err(WorldError::BadCellSize { got: 0.0 })
    );
    // Valid and as large as f32 goes: its bounding box saturates at ±f32::MAX, and the world
    // takes it like any other shape (it overlaps everything its filter accepts).
    let huge: Shape = Circle::new(Vec2::new(f32::MAX, 0.0), f32::MAX)
        .unwrap()
        .into();
    let giant = world
        .insert(
            huge.clone(),
            Filter::new(0b01, 0b10),
            ObjectKind::Dynamic,
            (),
        )
        .unwrap();
    world.update();
    assert!(world.pairs().iter().any(|p| p.b == giant || p.a == giant));
    world.set_shape(b1, huge).unwrap();
    world.update();
}

/// The pairs, events and contacts of one seeded run, as text.
fn run_log(broad: BroadPhase, seed: u64) -> String {
    let mut rng = Rng(seed);
    let mut scene = Scene {
        world: CollisionWorld::new(broad),
        objects: Vec::new(),
        previous: BTreeSet::new(),
        contacts: true,
        many_filters: false,
    };
    scene.world.set_contacts(true);
    let mut next = 0;
    for _ in 0..300 {
        scene.add(&mut rng, 40.0, &mut next);
    }
    let mut log = String::new();
    for _ in 0..8 {
        for _ in 0..60 {
            scene.edit(&mut rng, 40.0, &mut next);
        }
        scene.world.update();
        log += &format!(
            "{:?}\n{:?}\n{:?}\n",
            scene.world.pairs(),
            scene.world.began(),
            scene.world.ended()
        );
    }
    log
}

#[test]
fn runs_give_the_same_results_bit_for_bit() {
    for (name, broad) in broad_phases() {
        let first = run_log(broad, 7);
        assert!(first.len() > 1000, "{name}: the run finds pairs");
        assert_eq!(first, run_log(broad, 7), "{name}");
    }
}

#[cfg(feature = "rayon")]
#[test]
fn thread_counts_give_the_same_results_bit_for_bit() {
    for (name, broad) in broad_phases() {
        let logs: Vec<String> = [1, 2]
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
        // And the same as a plain loop: the sequential path is checked against brute force above;
        // here the parallel path must match the same brute force too.
        assert_eq!(logs[0], run_log(broad, 11), "{name}");
    }
}

/// Found by `world_ops` (a timeout): with a fine grid and two objects two million units apart,
/// a ray or region query walked each of the billions of rows between them, one search per
/// row. Queries now jump from one occupied row to the next.
#[test]
fn fine_grid_queries_skip_the_empty_rows_between_far_objects() {
    let mut world = CollisionWorld::new(BroadPhase::grid(1e-3).unwrap());
    // Points: anything wider than a cell would go to the grid's side list at this scale.
    let dot = |y: f32| -> Shape { Point::new(Vec2::new(0.0, y)).unwrap().into() };
    let low = world
        .insert(dot(-1e6), Filter::DEFAULT, ObjectKind::Dynamic, ())
        .unwrap();
    let high = world
        .insert(dot(1e6), Filter::DEFAULT, ObjectKind::Dynamic, ())
        .unwrap();
    world.update();
    let up = Ray::new(Vec2::new(0.0, -2e6), Vec2::Y);
    assert_eq!(world.cast_ray(&up, f32::INFINITY, u64::MAX).unwrap().0, low);
    let down = Ray::new(Vec2::new(0.0, 2e6), -Vec2::Y);
    assert_eq!(
        world.cast_ray(&down, f32::INFINITY, u64::MAX).unwrap().0,
        high
    );
    let all: Vec<Handle> = world
        .cast_ray_all(&up, f32::INFINITY, u64::MAX)
        .into_iter()
        .map(|(h, _)| h)
        .collect();
    assert_eq!(all, [low, high]);
    let column: Shape = Aabb::new(Vec2::new(-1.0, -2e6), Vec2::new(1.0, 2e6))
        .unwrap()
        .into();
    assert_eq!(world.objects_overlapping(&column, u64::MAX), [low, high]);
}

/// Found by `scene_pairs`: the grid's sweeps test the next two entries of a row whatever their
/// start and reserved room for those two per object up front, but the loop past them (many
/// entries starting before an object ends) used up that room, and a later test wrote past the
/// buffer. Crowded cells in two rows, with counts that vary, give every shape of that.
#[test]
fn crowded_cells_in_neighbouring_rows_give_every_pair() {
    for crowd in [3usize, 7, 40, 130] {
        let mut world = CollisionWorld::new(BroadPhase::grid(4.0).unwrap());
        let mut handles = Vec::new();
        for i in 0..crowd {
            // Two rows (cells 0 and 1 on y) that overlap, all starting within one cell on x:
            // every box meets every other.
            let x = (i % 5) as f32 * 0.25;
            let y = if i % 2 == 0 { 3.0 } else { 4.5 };
            let b = Aabb::new(Vec2::new(x, y), Vec2::new(x + 3.0, y + 2.0)).unwrap();
            handles.push(
                world
                    .insert(b.into(), Filter::DEFAULT, ObjectKind::Dynamic, ())
                    .unwrap(),
            );
        }
        world.update();
        assert_eq!(world.pairs().len(), crowd * (crowd - 1) / 2, "{crowd}");
        // Again after a move, through the lists' refresh.
        for &h in &handles {
            world.move_by(h, Vec2::new(0.5, 0.0)).unwrap();
        }
        world.update();
        assert_eq!(world.pairs().len(), crowd * (crowd - 1) / 2, "{crowd}");
    }
}

/// Found by `world_ops`: with cells so small that every cell index saturates at the `i32`
/// range, the grid's ray walk looked only inside the few cells' worth of space around the
/// origin, and missed a ray starting inside an object at (-48, -48).
#[test]
fn grid_with_saturated_cell_indices_still_finds_ray_hits() {
    let mut world = CollisionWorld::new(BroadPhase::grid(2.8e-36).unwrap());
    let disc: Shape = Circle::new(Vec2::new(-48.0, -48.0), 1.0).unwrap().into();
    let h = world
        .insert(disc, Filter::DEFAULT, ObjectKind::Dynamic, ())
        .unwrap();
    world.update();
    let from_inside = Ray::new(Vec2::new(-48.0, -48.0), Vec2::new(2.0, -3.0));
    assert_eq!(world.cast_ray(&from_inside, 0.0, u64::MAX).unwrap().0, h);
    let from_afar = Ray::new(Vec2::new(-48.0, 100.0), -Vec2::Y);
    assert_eq!(
        world
            .cast_ray(&from_afar, f32::INFINITY, u64::MAX)
            .unwrap()
            .1
            .t,
        147.0
    );
}

/// Found by `world_ops`: two points a ray reaches at the same `t` (7/3, which rounds to a
/// later `f32` as a box entry than as a hit found in `f64`) tie, and the tie goes to the lower
/// handle; the tree had pruned the lower one, in a later group's tree, once the other was hit.
#[test]
fn ray_ties_across_groups_go_to_the_lower_handle() {
    for broad in [BroadPhase::tree(0.0), BroadPhase::grid(16.0).unwrap()] {
        let mut world = CollisionWorld::new(broad);
        let dot = |x: f32, y: f32| -> Shape { Point::new(Vec2::new(x, y)).unwrap().into() };
        // The first group (dynamic, default filter) is searched first.
        world
            .insert(dot(40.0, 40.0), Filter::DEFAULT, ObjectKind::Dynamic, ())
            .unwrap();
        let lower = world
            .insert(dot(-4.0, -4.0), Filter::DEFAULT, ObjectKind::Static, ())
            .unwrap();
        let higher = world
            .insert(dot(-4.0, -4.0), Filter::DEFAULT, ObjectKind::Dynamic, ())
            .unwrap();
        world.update();
        let ray = Ray::new(Vec2::new(3.0, -4.0), Vec2::new(-3.0, 0.0));
        let (first, hit) = world.cast_ray(&ray, f32::INFINITY, u64::MAX).unwrap();
        assert_eq!((first, hit.t), (lower, 7.0 / 3.0), "{broad:?}");
        let all: Vec<Handle> = world
            .cast_ray_all(&ray, f32::INFINITY, u64::MAX)
            .into_iter()
            .map(|(h, _)| h)
            .collect();
        assert_eq!(all, [lower, higher]);
    }
}

/// Found by `world_ops`: a ray along an axis through a point, or along a box's edge, had a
/// zero direction component times `1e30` for the slab of that axis, which gave the empty slab
/// `[0, 0]`, so the tree never looked at the object.
#[test]
fn axis_parallel_rays_along_an_edge_or_through_a_point_hit_it() {
    for broad in [BroadPhase::tree(0.0), BroadPhase::grid(12.0).unwrap()] {
        let mut world = CollisionWorld::new(broad);
        let dot: Shape = Point::new(Vec2::ZERO).unwrap().into();
        let p = world
            .insert(dot, Filter::DEFAULT, ObjectKind::Static, ())
            .unwrap();
        let wall: Shape = Aabb::new(Vec2::new(15.0, -18.0), Vec2::new(30.0, -6.0))
            .unwrap()
            .into();
        let w = world
            .insert(wall, Filter::DEFAULT, ObjectKind::Dynamic, ())
            .unwrap();
        world.update();
        let up = Ray::new(Vec2::new(0.0, -12.0), Vec2::new(0.0, 2.0));
        let (h, hit) = world.cast_ray(&up, f32::INFINITY, u64::MAX).unwrap();
        assert_eq!((h, hit.t), (p, 6.0), "{broad:?}");
        assert_eq!(world.cast_ray_all(&up, f32::INFINITY, u64::MAX).len(), 1);
        let along = Ray::new(Vec2::new(30.0, -40.0), Vec2::Y);
        let (h, hit) = world.cast_ray(&along, f32::INFINITY, u64::MAX).unwrap();
        assert_eq!((h, hit.t), (w, 22.0), "{broad:?}");
    }
}

#[test]
fn move_by_equals_set_shape_of_the_translated_shape() {
    for (name, broad) in broad_phases() {
        let mut rng = Rng(11);
        let mut by: CollisionWorld = CollisionWorld::new(broad);
        let mut set: CollisionWorld = CollisionWorld::new(broad);
        by.set_contacts(true);
        set.set_contacts(true);
        let mut handles = Vec::new();
        for i in 0..200 {
            let s = shape(&mut rng, 40.0);
            let kind = if i % 5 == 0 {
                ObjectKind::Static
            } else {
                ObjectKind::Dynamic
            };
            let f = filter(&mut rng);
            let h = by.insert(s.clone(), f, kind, ()).unwrap();
            assert_eq!(set.insert(s, f, kind, ()), Ok(h));
            handles.push(h);
        }
        for round in 0..6 {
            for &h in &handles {
                // Integer steps (touching cases), fractions, and signed zeros.
                let d = match rng.below(4) {
                    0 => Vec2::new(rng.f(-2.0, 2.0).round(), rng.f(-2.0, 2.0).round()),
                    1 => Vec2::new(-0.0, rng.f(-0.5, 0.5)),
                    _ => Vec2::new(rng.f(-1.0, 1.0), rng.f(-1.0, 1.0)),
                };
                by.move_by(h, d).unwrap();
                let moved = set
                    .shape(h)
                    .unwrap()
                    .transformed(&Pose::from_translation(d));
                set.set_shape(h, moved).unwrap();
                assert_eq!(by.motion(h), Ok(Vec2::ZERO));
            }
            let (a, b) = (by.update(), set.update());
            assert_eq!(a, b, "{name} round {round}");
            assert!(a.pairs > 0, "{name}: the scene has pairs");
            for &h in &handles {
                let (x, y) = (by.shape(h).unwrap(), set.shape(h).unwrap());
                assert_eq!(format!("{x:?}"), format!("{y:?}"), "{name} {h}");
            }
            assert_eq!(format!("{:?}", by.pairs()), format!("{:?}", set.pairs()));
            assert_eq!(by.began(), set.began());
            assert_eq!(by.ended(), set.ended());
        }
        // Moves past `f32::MAX`: refused (a box's bounding box is then not finite) or not, the
        // same way, and a refused move changes nothing.
        let mut refused = 0;
        for _ in 0..2 {
            for &h in &handles {
                let d = Vec2::new(f32::MAX, 0.0);
                let moved = set
                    .shape(h)
                    .unwrap()
                    .transformed(&Pose::from_translation(d));
                let result = by.move_by(h, d);
                assert_eq!(result, set.set_shape(h, moved), "{name} {h}");
                refused += usize::from(result.is_err());
                let (x, y) = (by.shape(h).unwrap(), set.shape(h).unwrap());
                assert_eq!(format!("{x:?}"), format!("{y:?}"), "{name} {h}");
            }
        }
        assert!(refused > 0, "{name}: some moves are refused");
        let h = handles[1];
        let before = format!("{:?}", by.shape(h).unwrap());
        let nan = Vec2::new(f32::NAN, 0.0);
        assert_eq!(by.move_by(h, nan), Err(WorldError::NonFiniteMotion));
        assert_eq!(format!("{:?}", by.shape(h).unwrap()), before);
    }
}

/// Issue 16, item 8: a subnormal direction makes `t` overflow to infinity for both boxes; the
/// nearer box (inserted second) still comes first, and its point lies on the ray.
#[test]
fn subnormal_ray_direction_orders_hits_along_the_ray() {
    for (name, broad) in broad_phases() {
        let mut world = CollisionWorld::new(broad);
        let far = Aabb::from_rect(10.0, -1.0, 1.0, 2.0).unwrap().into();
        let near = Aabb::from_rect(2.0, -1.0, 1.0, 2.0).unwrap().into();
        let far = world
            .insert(far, Filter::DEFAULT, ObjectKind::Static, 0)
            .unwrap();
        let near = world
            .insert(near, Filter::DEFAULT, ObjectKind::Static, 1)
            .unwrap();
        world.update();
        let ray = Ray::new(Vec2::ZERO, Vec2::new(1e-45, 0.0));
        let (first, hit) = world.cast_ray(&ray, f32::INFINITY, u64::MAX).unwrap();
        assert_eq!(first, near, "{name}");
        assert_eq!(hit.point, Vec2::new(2.0, 0.0), "{name}");
        let all: Vec<Handle> = world
            .cast_ray_all(&ray, f32::INFINITY, u64::MAX)
            .iter()
            .map(|h| h.0)
            .collect();
        assert_eq!(all, [near, far], "{name}");
    }
}

/// Issue 16, item 6: 20,000 objects on one point make 200 million pairs, which aborted on
/// allocation; the update stops at the cap of candidate pairs and says so. (The default cap,
/// `MAX_UPDATE_PAIRS`, would take this debug build half a minute of exact tests.)
#[test]
fn a_crowd_on_one_point_stops_at_the_pair_cap() {
    const CAP: usize = 200_000;
    for (name, broad) in [
        ("tree", BroadPhase::tree(0.1)),
        ("grid", BroadPhase::grid(1.0).unwrap()),
    ] {
        let mut world = CollisionWorld::new(broad);
        for i in 0..20_000 {
            let disc = Circle::new(Vec2::ZERO, 0.5).unwrap().into();
            world
                .insert(disc, Filter::DEFAULT, ObjectKind::Dynamic, i)
                .unwrap();
        }
        world.set_max_pairs(CAP);
        let stats = world.update();
        assert!(stats.truncated, "{name}");
        assert_eq!(stats.pairs, CAP, "{name}");
        assert_eq!(world.pairs().len(), CAP, "{name}");
    }
}

/// Below the cap nothing is cut; at a small cap, the pairs are some of the colliding pairs,
/// the same ones on every run.
#[test]
fn a_capped_update_gives_a_subset_of_the_pairs_the_same_every_time() {
    for (name, broad) in broad_phases() {
        let build = || {
            let mut rng = Rng(7);
            let mut world = CollisionWorld::new(broad);
            for i in 0..300 {
                let at = Vec2::new(rng.f(0.0, 20.0), rng.f(0.0, 20.0));
                let disc = Circle::new(at, rng.f(0.5, 2.0)).unwrap().into();
                world
                    .insert(disc, Filter::DEFAULT, ObjectKind::Dynamic, i)
                    .unwrap();
            }
            world
        };
        let mut full = build();
        let all = full.update();
        assert!(!all.truncated && all.pairs > 200, "{name}: {all:?}");
        let keys = |w: &CollisionWorld<i32>| -> Vec<(Handle, Handle)> {
            w.pairs().iter().map(|p| (p.a, p.b)).collect()
        };
        let everything: BTreeSet<_> = keys(&full).into_iter().collect();
        let capped = |max: usize| {
            let mut w = build();
            w.set_max_pairs(max);
            let stats = w.update();
            (stats, keys(&w))
        };
        let (stats, some) = capped(100);
        assert!(
            stats.truncated && stats.candidates == 100,
            "{name}: {stats:?}"
        );
        assert!(some.iter().all(|p| everything.contains(p)), "{name}");
        assert_eq!(capped(100).1, some, "{name}: the same subset");
        let (stats, again) = capped(all.candidates + 1);
        assert!(!stats.truncated, "{name}");
        assert_eq!(again, keys(&full), "{name}");
    }
}
