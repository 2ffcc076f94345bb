//! Unit tests of the world's internals: swept boxes, in-place moves, fast objects at rest,
//! shape-cast ties.

use super::*;
use crate::query::contact;
use crate::shape::Circle;

fn circle(x: f32, r: f32) -> Shape {
    Circle::new_unchecked(Vec2::new(x, 0.0), r).into()
}

fn world_with_wall(broad: BroadPhase) -> (CollisionWorld, Handle) {
    let mut world = CollisionWorld::new(broad);
    let wall = Aabb::new_unchecked(Vec2::new(10.0, -5.0), Vec2::new(11.0, 5.0));
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
        world.epoch = u32::MAX - 2;
        // `e` as if marked 2^32 updates before the epoch the loop ends on.
        world.marked[e.index as usize] = 4;
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
        assert_eq!(world.epoch, 4);
        assert_eq!(world.move_by(e, Vec2::new(50.0, 0.0)), Ok(()));
        world.update();
        assert!(world.pairs().iter().any(|p| (p.a, p.b) == (wall, e)));
    }
}
