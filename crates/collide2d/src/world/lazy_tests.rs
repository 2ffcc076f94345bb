//! Tests of the lazily refreshed broad phase (`lazy.rs`): a query of static objects alone
//! takes in only the static objects' changes, and every query answers as it would after an
//! `update`, whatever changed in between.

use super::*;
use crate::motion::{MoveSettings, Movement};
use crate::query::{intersects, Ray};
use crate::shape::Circle;
use crate::test_support::boxed;
use crate::Response;
use alloc::format;
use alloc::string::String;
use alloc::vec;

fn add(world: &mut CollisionWorld, shape: Shape, filter: Filter, kind: ObjectKind) -> Handle {
    let added = world.insert(shape, filter, kind, ());
    added.unwrap_or_else(|e| panic!("{e}"))
}

fn slide(world: &CollisionWorld, player: &Shape, motion: Vec2) -> Movement {
    world.move_shape(player, motion, u64::MAX, |_, ()| Response::Slide)
}

#[test]
fn move_shape_takes_in_no_dynamic_object_moved_since_the_last_update() {
    for broad in [
        BroadPhase::tree(0.1),
        BroadPhase::grid(1.0).unwrap_or_default(),
        BroadPhase::auto(),
    ] {
        // The same level twice: one world updated before each query, one never.
        let mut worlds = [CollisionWorld::new(broad), CollisionWorld::new(broad)];
        let mut movers = Vec::new();
        let mut tiles = Vec::new();
        for world in &mut worlds {
            tiles = (0..2000)
                .map(|i| {
                    let (x, y) = ((i % 200) as f32, (i / 200) as f32);
                    add(
                        world,
                        boxed(x, y, x + 1.0, y + 1.0),
                        Filter::DEFAULT,
                        ObjectKind::Static,
                    )
                })
                .collect();
            // Ten walkers on the tiles and five bullets above them.
            movers = (0..10)
                .map(|k| {
                    let x = k as f32 * 20.0;
                    add(
                        world,
                        boxed(x, 10.0, x + 1.0, 12.0),
                        Filter::DEFAULT,
                        ObjectKind::Dynamic,
                    )
                })
                .collect();
            for k in 0..5 {
                let disc = Circle::new_unchecked(Vec2::new(k as f32 * 30.0 + 5.0, 20.0), 0.5);
                movers.push(add(world, disc.into(), Filter::DEFAULT, ObjectKind::Fast));
            }
            world.update();
        }
        let player = boxed(100.5, 11.0, 101.5, 13.0);
        let [updated, lazy] = &mut worlds;
        for frame in 0..6 {
            let step = if frame % 2 == 0 { 1.0 } else { -1.0 };
            for world in [&mut *updated, &mut *lazy] {
                for &h in &movers {
                    assert_eq!(world.move_by(h, Vec2::new(step, 0.0)), Ok(()));
                }
            }
            updated.update();
            let before = lazy.broad.touched();
            for _ in 0..5 {
                let want = slide(updated, &player, Vec2::new(0.5, -4.0));
                assert_eq!(want.delta, Vec2::new(0.5, -1.0));
                assert_eq!(slide(lazy, &player, Vec2::new(0.5, -4.0)), want);
            }
            assert_eq!(lazy.broad.touched() - before, 0, "frame {frame}");
        }
        // A query that meets dynamic objects takes them in (each once), and sees them where
        // they are.
        let before = lazy.broad.touched();
        let at = Vec2::new(0.5, 11.0);
        assert_eq!(lazy.objects_at_point(at, u64::MAX), [movers[0]]);
        assert_eq!(lazy.broad.touched() - before, 15);
        // A tile raised into the player's way is taken in alone, and blocks.
        let raised = boxed(101.0, 9.0, 102.0, 10.5);
        for world in [&mut *updated, &mut *lazy] {
            assert_eq!(world.set_shape(tiles[1901], raised.clone()), Ok(()));
        }
        updated.update();
        let before = lazy.broad.touched();
        let want = slide(updated, &player, Vec2::new(0.5, -4.0));
        assert_eq!(want.delta, Vec2::new(0.5, -0.5));
        assert_eq!(slide(lazy, &player, Vec2::new(0.5, -4.0)), want);
        assert_eq!(lazy.broad.touched() - before, 1);
    }
}

#[test]
fn a_query_of_static_objects_reads_no_stale_entry_of_a_reused_group() {
    for broad in [
        BroadPhase::tree(0.1),
        BroadPhase::grid(4.0).unwrap_or_default(),
    ] {
        let mut world = CollisionWorld::new(broad);
        let layer2 = Filter::new(2, u64::MAX);
        let d1 = add(
            &mut world,
            boxed(0.0, 0.0, 2.0, 2.0),
            layer2,
            ObjectKind::Dynamic,
        );
        let d2 = add(
            &mut world,
            boxed(10.0, 0.0, 12.0, 2.0),
            layer2,
            ObjectKind::Dynamic,
        );
        world.update();
        // Both removed, their group's number freed: a static object takes it (and `d2`'s
        // slot), a dynamic one `d1`'s slot, whose entry in that group the broad phase still
        // holds (a query of static objects does not take in dynamic changes).
        assert_eq!((world.remove(d1), world.remove(d2)), (Ok(()), Ok(())));
        let tile = add(
            &mut world,
            boxed(20.0, 0.0, 22.0, 2.0),
            Filter::DEFAULT,
            ObjectKind::Static,
        );
        let crate_ = add(
            &mut world,
            boxed(0.0, 0.0, 2.0, 2.0),
            Filter::DEFAULT,
            ObjectKind::Dynamic,
        );
        assert_eq!((tile.index(), crate_.index()), (d2.index(), d1.index()));
        let everywhere = boxed(-1.0, -1.0, 30.0, 3.0);
        assert_eq!(world.statics_overlapping(&everywhere, u64::MAX), [tile]);
        assert_eq!(
            world.objects_overlapping(&everywhere, u64::MAX),
            [crate_, tile]
        );
    }
}

/// A seeded generator of small integers.
struct Seeded(u32);

impl Seeded {
    fn below(&mut self, n: u32) -> u32 {
        crate::test_support::xorshift32_next(&mut self.0) % n
    }

    /// A box or a disc with integer coordinates in a 24 x 24 square (so many touch).
    fn shape(&mut self) -> Shape {
        let (x, y) = (self.below(24) as f32, self.below(24) as f32);
        let size = self.below(3) as f32 + 1.0;
        if self.below(3) == 0 {
            Circle::new_unchecked(Vec2::new(x, y), size).into()
        } else {
            boxed(x, y, x + size, y + self.below(3) as f32 + 1.0)
        }
    }

    fn filter(&mut self) -> Filter {
        [Filter::DEFAULT, Filter::new(2, 1), Filter::new(4, 6)][self.below(3) as usize]
    }

    fn kind(&mut self) -> ObjectKind {
        [ObjectKind::Static, ObjectKind::Dynamic, ObjectKind::Fast][self.below(3) as usize]
    }
}

/// What the queries answer: moves among static objects (with a dynamic platform listed), and
/// queries of every object.
fn answers(world: &CollisionWorld, platform: Option<Handle>, probe: &Shape) -> Vec<String> {
    let platforms: Vec<(Handle, Vec2)> = platform.map(|h| (h, Vec2::ZERO)).into_iter().collect();
    let settings = MoveSettings {
        platforms: &platforms,
        ..MoveSettings::default()
    };
    let mut out = vec![];
    for (motion, mask) in [(Vec2::new(7.0, -5.0), u64::MAX), (Vec2::new(-4.0, 9.0), 1)] {
        let m = world.move_shape(probe, motion, mask, |_, ()| Response::Slide);
        out.push(format!("{m:?}"));
        let m = world.move_shape_with(probe, motion, mask, &settings, |_, ()| Response::Slide);
        out.push(format!("{m:?}"));
    }
    out.push(format!("{:?}", world.objects_overlapping(probe, 5)));
    out.push(format!(
        "{:?}",
        world.objects_at_point(Vec2::new(12.0, 12.0), u64::MAX)
    ));
    let ray = Ray::new(Vec2::new(-1.0, 11.5), Vec2::new(1.0, 0.05));
    out.push(format!("{:?}", world.cast_ray_all(&ray, 40.0, u64::MAX)));
    out
}

#[test]
fn queries_answer_as_after_an_update_whatever_changed_in_between() {
    let broads = [
        BroadPhase::tree(0.5),
        BroadPhase::grid(2.0).unwrap_or_default(),
        BroadPhase::auto(),
    ];
    for (seed, broad) in broads.into_iter().enumerate() {
        let mut rng = Seeded(0x9e37_79b9 + seed as u32);
        let mut worlds = [CollisionWorld::new(broad), CollisionWorld::new(broad)];
        let mut live: Vec<Handle> = Vec::new();
        for round in 0..300 {
            // A change, the same in both worlds (a removal frees a slot the next insertion
            // reuses, maybe with another kind).
            let pick = |rng: &mut Seeded| live[rng.below(live.len() as u32) as usize];
            let change = if live.len() < 8 { 1 } else { rng.below(6) };
            match change {
                0 => {
                    let h = live.swap_remove(rng.below(live.len() as u32) as usize);
                    worlds
                        .iter_mut()
                        .for_each(|w| assert_eq!(w.remove(h), Ok(())));
                }
                1 => {
                    let (shape, filter, kind) = (rng.shape(), rng.filter(), rng.kind());
                    let handles = worlds
                        .each_mut()
                        .map(|w| add(w, shape.clone(), filter, kind));
                    assert_eq!(handles[0], handles[1]);
                    live.push(handles[0]);
                }
                2 => {
                    let (h, shape) = (pick(&mut rng), rng.shape());
                    worlds
                        .iter_mut()
                        .for_each(|w| assert_eq!(w.set_shape(h, shape.clone()), Ok(())));
                }
                3 => {
                    let (h, filter) = (pick(&mut rng), rng.filter());
                    worlds
                        .iter_mut()
                        .for_each(|w| assert_eq!(w.set_filter(h, filter), Ok(())));
                }
                _ => {
                    let h = pick(&mut rng);
                    let d = Vec2::new(rng.below(5) as f32 - 2.0, rng.below(5) as f32 - 2.0);
                    worlds
                        .iter_mut()
                        .for_each(|w| assert_eq!(w.move_by(h, d), Ok(())));
                }
            }
            // One world updated before every query, the other now and then.
            worlds[0].update();
            if rng.below(10) == 0 {
                worlds[1].update();
            }
            let probe = rng.shape();
            let platform = live
                .iter()
                .copied()
                .find(|&h| worlds[0].kind(h) == Ok(ObjectKind::Dynamic));
            let want = answers(&worlds[0], platform, &probe);
            assert_eq!(answers(&worlds[1], platform, &probe), want, "round {round}");
            // The static objects among those overlapping, against every object tested.
            let mask = 1 | 4;
            let statics: Vec<Handle> = worlds[0]
                .iter()
                .filter(|(h, shape, _)| {
                    worlds[0].kind(*h) == Ok(ObjectKind::Static)
                        && worlds[0].filter(*h).is_ok_and(|f| f.layer & mask != 0)
                        && intersects(shape, &probe)
                })
                .map(|(h, _, _)| h)
                .collect();
            for world in &worlds {
                assert_eq!(
                    world.statics_overlapping(&probe, mask),
                    statics,
                    "round {round}"
                );
            }
        }
    }
}

/// Queries from several threads at once of a world with changes not yet taken in (static and
/// dynamic objects inserted and moved since its last update): every thread answers as the
/// updated world does, whichever query takes the changes in (a full refresh, or the static
/// objects' alone, which reads under the lock while a full refresh may wait) and whichever
/// reads the broad phase without the lock once it is fresh.
#[test]
fn queries_from_several_threads_at_once_answer_as_after_an_update() {
    for (seed, broad) in [BroadPhase::tree(0.5), BroadPhase::auto()]
        .into_iter()
        .enumerate()
    {
        let mut rng = Seeded(0x51ab_c0de + seed as u32);
        let mut worlds = [CollisionWorld::new(broad), CollisionWorld::new(broad)];
        let mut live: Vec<Handle> = Vec::new();
        for round in 0..60 {
            // Changes, the same in both worlds: a few insertions and moves.
            for _ in 0..6 {
                if live.len() < 10 || rng.below(2) == 0 {
                    let (shape, filter, kind) = (rng.shape(), rng.filter(), rng.kind());
                    let handles = worlds
                        .each_mut()
                        .map(|w| add(w, shape.clone(), filter, kind));
                    live.push(handles[0]);
                } else {
                    let h = live[rng.below(live.len() as u32) as usize];
                    let d = Vec2::new(rng.below(5) as f32 - 2.0, rng.below(5) as f32 - 2.0);
                    worlds
                        .iter_mut()
                        .for_each(|w| assert_eq!(w.move_by(h, d), Ok(())));
                }
            }
            worlds[0].update();
            let probe = rng.shape();
            let rays: Vec<Ray> = (0..8)
                .map(|_| {
                    let from = Vec2::new(rng.below(30) as f32 - 3.0, rng.below(30) as f32 - 3.0);
                    let angle = rng.below(360) as f32 * 0.0175;
                    Ray::new(from, Vec2::new(angle.cos(), angle.sin()))
                })
                .collect();
            let ask = |world: &CollisionWorld, statics_first: bool| {
                let mut out = Vec::new();
                if statics_first {
                    out.push(format!("{:?}", world.statics_overlapping(&probe, 1 | 4)));
                }
                for ray in &rays {
                    out.push(format!("{:?}", world.cast_ray(ray, 30.0, u64::MAX)));
                }
                out.extend(answers(world, None, &probe));
                if !statics_first {
                    out.push(format!("{:?}", world.statics_overlapping(&probe, 1 | 4)));
                }
                out
            };
            let want = [ask(&worlds[0], true), ask(&worlds[0], false)];
            let shared = &worlds[1];
            std::thread::scope(|scope| {
                let threads: Vec<_> = (0..4)
                    .map(|i| scope.spawn(move || (i % 2, ask(shared, i % 2 == 0))))
                    .collect();
                for thread in threads {
                    let (order, got) = thread.join().unwrap_or_else(|_| panic!("a query panicked"));
                    assert_eq!(got, want[order], "round {round}");
                }
            });
            // Now and then taken in by an update instead.
            if rng.below(8) == 0 {
                worlds[1].update();
            }
        }
    }
}
