//! Unit tests of the world's internals: swept boxes, in-place moves, fast objects at rest,
//! shape-cast ties.

use super::*;
use crate::query::contact;
use crate::shape::Circle;
use alloc::vec;

fn circle(x: f32, r: f32) -> Shape {
    Circle::new_unchecked(Vec2::new(x, 0.0), r).into()
}

fn world_with_wall(broad: BroadPhase) -> (CollisionWorld, Handle) {
    let mut world = CollisionWorld::new(broad);
    let wall = Aabb::raw(Vec2::new(10.0, -5.0), Vec2::new(11.0, 5.0));
    let wall = world.insert(wall.into(), Filter::DEFAULT, ObjectKind::Static, ());
    (world, wall.unwrap_or_else(|e| panic!("{e}")))
}

fn both() -> [BroadPhase; 2] {
    [
        BroadPhase::tree(0.1),
        BroadPhase::grid(1.0).unwrap_or_default(),
    ]
}

#[test]
fn swept_box_shrinks_back_when_a_fast_object_stops() {
    for broad in both() {
        let (mut world, _) = world_with_wall(broad);
        let b = world.insert(circle(0.0, 0.5), Filter::DEFAULT, ObjectKind::Fast, ());
        let b = b.unwrap_or_else(|e| panic!("{e}"));
        world.update();
        assert_eq!(world.move_by(b, Vec2::new(0.0, 20.0)), Ok(()));
        assert_eq!(world.move_by(b, Vec2::new(20.0, 0.0)), Ok(()));
        // One straight line from (0, 0) to (20, 20): it crosses the wall's box's corner
        // region only above y = 5, so the candidate is made and no pair.
        assert_eq!(world.motion(b), Ok(Vec2::new(20.0, 20.0)));
        assert_eq!(world.update().candidates, 1);
        assert!(world.pairs().is_empty());
        // Queries after the update see the object where it is.
        assert!(world
            .objects_at_point(Vec2::new(5.0, 5.0), u64::MAX)
            .is_empty());
        // Not moved again: tested where it is, with its own box.
        assert_eq!(world.update().candidates, 0);
    }
}

#[test]
fn fast_objects_armed_by_an_update_sweep_as_if_placed_there() {
    // The same moves in two worlds; in the second, each update is followed by placing the
    // fast objects where they are (a teleport: nothing kept), so their next moves record
    // their starts afresh. The pairs, times of impact included, are the same.
    for broad in both() {
        let [mut armed, mut placed] = [0, 1].map(|_| world_with_wall(broad).0);
        let shapes = [
            circle(-20.0, 0.5),
            Aabb::raw(Vec2::new(-30.0, 2.0), Vec2::new(-29.0, 3.0)).into(),
        ];
        let mut handles = Vec::new();
        for world in [&mut armed, &mut placed] {
            handles = shapes
                .iter()
                .map(|s| world.insert(s.clone(), Filter::DEFAULT, ObjectKind::Fast, ()))
                .collect::<Result<Vec<_>, _>>()
                .unwrap_or_else(|e| panic!("{e}"));
            world.update();
        }
        // Frames of one move, of two, of none, then the wall crossed.
        let frames: [&[f32]; 5] = [&[5.0], &[3.0, 4.0], &[], &[2.5], &[30.0, 1.0]];
        for (frame, steps) in frames.iter().enumerate() {
            for world in [&mut armed, &mut placed] {
                for &step in *steps {
                    for &h in &handles {
                        assert_eq!(world.move_by(h, Vec2::new(step, 0.0)), Ok(()));
                    }
                }
                let want: f32 = steps.iter().sum();
                assert_eq!(world.motion(handles[1]), Ok(Vec2::new(want, 0.0)));
                world.update();
                assert_eq!(world.motion(handles[1]), Ok(Vec2::ZERO));
            }
            for &h in &handles {
                let here = placed.shape(h).map(|s| s.into_owned());
                let here = here.unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(placed.set_shape(h, here), Ok(()));
            }
            assert_eq!(armed.pairs(), placed.pairs(), "frame {frame}");
        }
        assert_eq!(armed.pairs().len(), 2);
        // Refused moves change nothing, whether the start is kept or not.
        let b = handles[0];
        let far = Circle::new_unchecked(Vec2::new(-0.9 * f32::MAX, 0.0), 0.5);
        assert_eq!(armed.set_shape(b, far.into()), Ok(()));
        let step = Vec2::new(0.8 * f32::MAX, 0.0);
        let refused = |world: &mut CollisionWorld, delta: Vec2, error: WorldError| {
            let (at, motion) = (world.shape(b).map(|s| s.into_owned()), world.motion(b));
            assert_eq!(world.move_by(b, delta), Err(error));
            assert_eq!(
                (world.shape(b).map(|s| s.into_owned()), world.motion(b)),
                (at, motion)
            );
        };
        assert_eq!(armed.move_by(b, step), Ok(()));
        // The sum of motions past `f32::MAX`, the shape not.
        refused(&mut armed, step, WorldError::NonFiniteMotion);
        armed.update();
        refused(
            &mut armed,
            Vec2::new(f32::NAN, 0.0),
            WorldError::NonFiniteMotion,
        );
        assert_eq!(armed.move_by(b, Vec2::new(f32::MAX, 0.0)), Ok(()));
        armed.update();
        refused(&mut armed, step, WorldError::NonFiniteShape);
        assert_eq!(armed.move_by(b, -Vec2::X), Ok(()));
        assert_eq!(armed.motion(b), Ok(-Vec2::X));
    }
}

#[test]
fn the_fast_byte_follows_each_change_of_the_slot() {
    let (mut world, _) = world_with_wall(BroadPhase::default());
    let byte = |world: &CollisionWorld, h: Handle| world.fast[h.index as usize];
    let bullet = world.insert(circle(0.0, 0.5), Filter::DEFAULT, ObjectKind::Fast, ());
    let bullet = bullet.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(byte(&world, bullet), FAST);
    assert_eq!(world.move_by(bullet, Vec2::X), Ok(()));
    assert_eq!(byte(&world, bullet), FAST_CIRCLE);
    world.update();
    // Armed: the next move is the quick one.
    assert_eq!(byte(&world, bullet), FAST_CIRCLE);
    // Removed and its slot given to a dynamic object before the update that disarms it.
    assert_eq!(world.remove(bullet), Ok(()));
    let crate_ = world.insert(circle(0.0, 0.5), Filter::DEFAULT, ObjectKind::Dynamic, ());
    let crate_ = crate_.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(crate_.index, bullet.index);
    world.update();
    assert_eq!(byte(&world, crate_), NOT_FAST);
    assert_eq!(world.move_by(crate_, Vec2::X), Ok(()));
    assert_eq!(world.motion(crate_), Ok(Vec2::ZERO));
    // A fast box: quick once moved, not once a pose turns it, quick again upright.
    let b = Aabb::raw(Vec2::new(-1.0, -1.0), Vec2::new(1.0, 1.0));
    let b = world.insert(b.into(), Filter::DEFAULT, ObjectKind::Fast, ());
    let b = b.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(world.move_by(b, Vec2::Y), Ok(()));
    assert_eq!(byte(&world, b), FAST_BOX);
    let turned = Pose::new(Vec2::new(0.0, 2.0), 0.5);
    assert_eq!(world.set_pose(b, turned), Ok(()));
    assert_eq!(byte(&world, b), FAST);
    assert_eq!(world.move_by(b, Vec2::Y), Ok(()));
    assert_eq!(
        world.set_pose(b, Pose::new(Vec2::new(0.0, 4.0), 0.0)),
        Ok(())
    );
    assert_eq!(byte(&world, b), FAST);
    world.update();
    assert_eq!(byte(&world, b), FAST);
    assert_eq!(world.move_by(b, Vec2::Y), Ok(()));
    assert_eq!(byte(&world, b), FAST_BOX);
    world.update();
    assert_eq!(byte(&world, b), FAST_BOX);
    // A teleport forgets the start.
    let here = world.shape(b).map(|s| s.into_owned());
    assert_eq!(
        world.set_shape(b, here.unwrap_or_else(|e| panic!("{e}"))),
        Ok(())
    );
    assert_eq!(byte(&world, b), FAST);
}

#[test]
fn dynamic_objects_moved_by_are_only_translated() {
    for broad in both() {
        let (mut world, wall) = world_with_wall(broad);
        let d = world.insert(circle(0.0, 0.5), Filter::DEFAULT, ObjectKind::Dynamic, ());
        let d = d.unwrap_or_else(|e| panic!("{e}"));
        world.update();
        assert_eq!(world.move_by(d, Vec2::new(30.0, 0.0)), Ok(()));
        assert_eq!(world.motion(d), Ok(Vec2::ZERO));
        assert_eq!(world.update().pairs, 0); // passed through: not fast
        assert_eq!(world.move_by(d, Vec2::new(-19.5, 0.0)), Ok(()));
        world.update();
        assert_eq!(world.pairs()[0].b, d);
        assert_eq!((world.pairs()[0].a, world.pairs()[0].toi), (wall, None));
    }
}

#[test]
fn fast_object_at_rest_pairs_at_t0_with_its_contact() {
    let (mut world, _) = world_with_wall(BroadPhase::default());
    world.set_contacts(true);
    let f = world.insert(circle(9.0, 1.5), Filter::DEFAULT, ObjectKind::Fast, ());
    assert!(f.is_ok());
    world.update();
    let p = world.pairs()[0];
    assert_eq!(p.toi, Some(0.0));
    let want = contact(&circle(10.5, 1.0), &circle(9.0, 1.5));
    assert_eq!(world.contacts().len(), 1);
    assert_eq!(world.contacts()[0].depth, 0.5);
    assert_eq!(Some(world.contacts()[0].normal), want.map(|c| c.normal));
}

#[test]
fn cast_shape_ties_go_to_the_lower_handle() {
    for broad in both() {
        let mut world: CollisionWorld = CollisionWorld::new(broad);
        let mut handles = Vec::new();
        for _ in 0..3 {
            handles.push(world.insert(circle(5.0, 1.0), Filter::DEFAULT, ObjectKind::Static, ()));
        }
        let first = world.cast_shape(&circle(0.0, 1.0), Vec2::new(10.0, 0.0), u64::MAX);
        assert_eq!(first.map(|(h, hit)| (h.index(), hit.t)), Some((0, 0.3)));
        let all = world.cast_shape_all(&circle(0.0, 1.0), Vec2::new(10.0, 0.0), u64::MAX);
        assert_eq!(
            all.iter().map(|(h, _)| h.index()).collect::<Vec<_>>(),
            [0, 1, 2]
        );
        // Filtered out by the mask.
        assert!(world
            .cast_shape(&circle(0.0, 1.0), Vec2::X * 10.0, 2)
            .is_none());
    }
}

#[test]
fn moves_are_seen_across_the_wrap_of_the_change_epoch() {
    for broad in both() {
        let (mut world, wall) = world_with_wall(broad);
        let d = world.insert(circle(0.0, 0.5), Filter::DEFAULT, ObjectKind::Dynamic, ());
        let d = d.unwrap_or_else(|e| panic!("{e}"));
        let e = world.insert(circle(-40.0, 0.5), Filter::DEFAULT, ObjectKind::Dynamic, ());
        let e = e.unwrap_or_else(|e| panic!("{e}"));
        world.update();
        // `e` as if marked a whole cycle of epochs before the one the loop ends on (each step
        // refreshes once, at its query: the update after finds nothing new).
        world
            .broad
            .set_epoch(super::lazy::LAST_EPOCH - 2, e.index, 4);
        // In and out of the wall, each move seen whatever the epoch's value.
        for step in 0..6 {
            let x = if step % 2 == 0 { 10.0 } else { -10.0 };
            assert_eq!(world.move_by(d, Vec2::new(x, 0.0)), Ok(()));
            // Between a move and the update, queries see the object where it now is.
            let at = world.objects_at_point(Vec2::new(10.0, 0.0), u64::MAX);
            assert_eq!(at.contains(&d), step % 2 == 0, "step {step}");
            let pairs = world.update().pairs;
            assert_eq!(pairs, usize::from(step % 2 == 0), "step {step}");
            if pairs == 1 {
                assert_eq!((world.pairs()[0].a, world.pairs()[0].b), (wall, d));
            }
        }
        assert_eq!(world.broad.epoch(), 4);
        assert_eq!(world.move_by(e, Vec2::new(50.0, 0.0)), Ok(()));
        world.update();
        assert!(world.pairs().iter().any(|p| (p.a, p.b) == (wall, e)));
    }
}

#[test]
fn queries_before_any_update_refresh_the_broad_phase_once_and_keep_it() {
    for broad in both() {
        let mut world = CollisionWorld::new(broad);
        for i in 0..500 {
            let tile = Aabb::raw(Vec2::new(i as f32, 0.0), Vec2::new(i as f32 + 1.0, 1.0));
            let tile = world.insert(tile.into(), Filter::DEFAULT, ObjectKind::Static, ());
            tile.unwrap_or_else(|e| panic!("{e}"));
        }
        // The structure holds every object before any update (it held none before).
        let boxes = world.broad_phase_boxes();
        let held = boxes.iter().map(|b| match b.kind {
            crate::BroadBoxKind::Cell { objects, .. } => objects as usize,
            crate::BroadBoxKind::Node { .. } => 0,
            _ => 1,
        });
        assert_eq!(held.sum::<usize>(), 500);
        // Many queries, one refresh: the changes are taken in once, not scanned at each query.
        let player: Shape = Aabb::raw(Vec2::new(3.0, 1.0), Vec2::new(4.0, 3.0)).into();
        for _ in 0..10 {
            let m = world.move_shape(&player, Vec2::new(2.0, -4.0), u64::MAX, |_, ()| {
                crate::Response::Slide
            });
            assert_eq!(m.delta, Vec2::new(2.0, 0.0));
            assert_eq!(
                world.objects_at_point(Vec2::new(7.5, 0.5), u64::MAX).len(),
                1
            );
        }
        assert_eq!(world.broad.refreshes(), 1);
        // A move is taken in by the next query, once; the update after has nothing to do.
        let first = world.iter().next().map(|(h, _, _)| h);
        let first = first.unwrap_or_else(|| panic!("a tile"));
        assert_eq!(world.move_by(first, Vec2::new(0.0, 10.0)), Ok(()));
        assert_eq!(
            world.objects_at_point(Vec2::new(0.5, 10.5), u64::MAX),
            [first]
        );
        assert!(world
            .cast_ray(
                &crate::Ray::new(Vec2::new(0.5, 20.0), -Vec2::Y),
                100.0,
                u64::MAX
            )
            .is_some_and(|(h, _)| h == first));
        world.update();
        assert_eq!(world.broad.refreshes(), 2);
    }
}

#[test]
fn queries_take_in_only_the_objects_that_changed() {
    for broad in both() {
        let mut world = CollisionWorld::new(broad);
        let mut add = |shape: Shape, kind| {
            let added = world.insert(shape, Filter::DEFAULT, kind, ());
            added.unwrap_or_else(|e| panic!("{e}"))
        };
        for i in 0..2000 {
            let (x, y) = ((i % 200) as f32, (i / 200) as f32);
            add(
                Aabb::raw(Vec2::new(x, y), Vec2::new(x + 1.0, y + 1.0)).into(),
                ObjectKind::Static,
            );
        }
        // Ten walkers on the tiles and five bullets above them.
        let mut movers: Vec<Handle> = (0..10)
            .map(|k| {
                let x = k as f32 * 20.0;
                add(
                    Aabb::raw(Vec2::new(x, 10.0), Vec2::new(x + 1.0, 12.0)).into(),
                    ObjectKind::Dynamic,
                )
            })
            .collect();
        for k in 0..5 {
            let at = Vec2::new(k as f32 * 30.0 + 5.0, 20.0);
            movers.push(add(Circle::new_unchecked(at, 0.5).into(), ObjectKind::Fast));
        }
        let player: Shape = Aabb::raw(Vec2::new(100.5, 11.0), Vec2::new(101.5, 13.0)).into();
        let query = |world: &CollisionWorld| {
            let m = world.move_shape(&player, Vec2::new(0.5, -4.0), u64::MAX, |_, ()| {
                crate::Response::Slide
            });
            let under = world.objects_at_point(Vec2::new(100.5, 9.5), u64::MAX);
            (m.delta, under.len())
        };
        // The first query takes in every object, once; the next ones nothing.
        let first = query(&world);
        assert_eq!(first, (Vec2::new(0.5, -1.0), 1));
        for _ in 0..5 {
            assert_eq!(query(&world), first);
        }
        assert_eq!(world.broad.touched(), 2015);
        for frame in 0..6 {
            let before = world.broad.touched();
            let step = if frame % 2 == 0 { 1.0 } else { -1.0 };
            for &h in &movers {
                assert_eq!(world.move_by(h, Vec2::new(step, 0.0)), Ok(()));
            }
            // Queries first, then the update; or the other way round: the movers are taken
            // in once, and the update adds the bullets' swept boxes; never a tile.
            if frame % 2 == 0 {
                for _ in 0..5 {
                    assert_eq!(query(&world), first);
                }
                assert_eq!(world.broad.touched() - before, 15, "frame {frame}");
                world.update();
                assert_eq!(world.broad.touched() - before, 20, "frame {frame}");
            } else {
                world.update();
                for _ in 0..5 {
                    assert_eq!(query(&world), first);
                }
                assert_eq!(world.broad.touched() - before, 15, "frame {frame}");
            }
        }
    }
}

#[test]
fn set_pose_places_the_local_shape_as_transformed_does() {
    use crate::math::Pose;
    use crate::shape::{Capsule, Compound, ConvexPolygon, Polygon};
    let v = Vec2::new;
    let hexagon: Vec<Vec2> = (0..6)
        .map(|k| Vec2::from_angle(k as f32 * core::f32::consts::FRAC_PI_3) * 3.0)
        .collect();
    let convex = ConvexPolygon::new(&hexagon).unwrap();
    let concave = Polygon::new(&crate::test_support::l_ring()).unwrap();
    let body = Aabb::new(v(-1.0, -2.0), v(1.0, 2.0)).unwrap();
    let compound = Compound::new(vec![body.into(), concave.clone().into()]).unwrap();
    let capsule = Capsule::new(v(-2.0, 0.0), v(2.0, 0.0), 0.5).unwrap();
    let locals: Vec<Shape> = vec![
        convex.into(),
        concave.into(),
        body.into(),
        compound.into(),
        capsule.into(),
        circle(1.0, 0.5),
    ];
    for broad in both() {
        let mut world = CollisionWorld::new(broad);
        for (k, local) in locals.iter().enumerate() {
            let h = world
                .insert(local.clone(), Filter::DEFAULT, ObjectKind::Dynamic, ())
                .unwrap();
            // Rotations, a pure translation (a box is a box again), and back.
            for (frame, angle) in [0.3, 1.1, 0.0, 2.9, -0.7, 0.0].into_iter().enumerate() {
                let pose = Pose::new(v(frame as f32 * 3.5 - 7.0, k as f32 * 1.25), angle);
                world.set_pose(h, pose).unwrap();
                let want = local.transformed(&pose);
                assert_eq!(*world.shape(h).unwrap(), want, "{k} {frame}");
                // Queries and pairs see it there.
                let centre = want.aabb().center();
                let near = world.objects_overlapping(&want, u64::MAX);
                assert!(near.contains(&h), "{k} {frame} {centre}");
            }
            // A move translates the placed shape; the next pose places the local one afresh.
            world.move_by(h, v(100.0, 0.0)).unwrap();
            let pose = Pose::new(v(1.0, 2.0), 0.5);
            world.set_pose(h, pose).unwrap();
            assert_eq!(*world.shape(h).unwrap(), local.transformed(&pose));
            // A bad pose is refused and changes nothing.
            let bad = Pose::new(v(f32::NAN, 0.0), 0.5);
            assert_eq!(world.set_pose(h, bad), Err(WorldError::NonFiniteShape));
            let spin = Pose {
                position: v(1.0, 2.0),
                rotation: v(f32::INFINITY, 0.0),
            };
            assert_eq!(world.set_pose(h, spin), Err(WorldError::NonFiniteShape));
            assert_eq!(*world.shape(h).unwrap(), local.transformed(&pose));
            // `set_shape` gives a new local shape: the next pose places that one.
            world.set_shape(h, circle(0.0, 2.0)).unwrap();
            world.set_pose(h, Pose::new(v(5.0, 5.0), 1.0)).unwrap();
            assert_eq!(
                *world.shape(h).unwrap(),
                circle(0.0, 2.0).transformed(&Pose::new(v(5.0, 5.0), 1.0))
            );
            world.remove(h).unwrap();
            assert!(world.set_pose(h, pose).is_err());
        }
    }
}

#[test]
fn move_many_moves_every_object_and_reports_the_first_error() {
    for broad in both() {
        let (mut world, wall) = world_with_wall(broad);
        let mut handles = Vec::new();
        for i in 0..20 {
            let kind = if i % 2 == 0 {
                ObjectKind::Fast
            } else {
                ObjectKind::Dynamic
            };
            // Hitting the wall (layer 1), not each other.
            let filter = Filter::new(2, 1);
            handles.push(world.insert(circle(0.0, 0.25), filter, kind, ()).unwrap());
        }
        let gone = handles.remove(7);
        world.remove(gone).unwrap();
        world.update();
        let mut moves: Vec<(Handle, Vec2)> =
            handles.iter().map(|&h| (h, Vec2::new(30.0, 0.0))).collect();
        moves.insert(3, (gone, Vec2::X));
        moves.push((handles[0], Vec2::new(f32::NAN, 0.0)));
        let err = WorldError::StaleHandle { handle: gone };
        assert_eq!(world.move_many(moves), Err(err));
        let stats = world.update();
        // The fast ones are swept through the wall; the dynamic ones jumped over it.
        assert_eq!(stats.pairs, 10);
        assert!(world.pairs().iter().all(|p| p.a == wall && p.toi.is_some()));
        for &h in &handles {
            assert_eq!(*world.shape(h).unwrap(), circle(30.0, 0.25));
        }
    }
}
