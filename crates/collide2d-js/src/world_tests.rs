//! The world's handles, positions and bulk moves, natively (error messages are checked from
//! JavaScript, by the package's node tests: a `JsError` needs a JavaScript engine).

use collide2d::{intersects, ObjectKind};

use crate::scratch;
use crate::shape::JsShape;
use crate::world::JsWorld;

fn world_of_circles(n: u32) -> (JsWorld, Vec<f64>) {
    let mut world = JsWorld::tree(0.0);
    let ball = JsShape::circle(0.0, 0.0, 1.0).unwrap();
    let handles = (0..n)
        .map(|i| {
            world
                .insert(&ball, i as f32 * 3.0, 0.0, 1, u32::MAX, 0, 0, 0.0, 1.0)
                .unwrap()
        })
        .collect();
    (world, handles)
}

#[test]
fn bulk_moves_and_positions_give_the_pairs_of_an_all_pairs_loop() {
    let (mut world, handles) = world_of_circles(50);
    world.update();
    assert!(world.pairs().is_empty(), "3 apart, radius 1: no pair");
    // Every other circle one unit right: touching its right neighbour (2 apart).
    let deltas: Vec<f32> = (0..50).flat_map(|i| [(i % 2) as f32, 0.0]).collect();
    world.move_many(&handles, &deltas).unwrap();
    world.update();
    let inner = world.inner();
    let shapes: Vec<_> = handles
        .iter()
        .map(|&h| inner.shape(world.handle_of(h)).unwrap().into_owned())
        .collect();
    let mut expected = Vec::new();
    for i in 0..shapes.len() {
        for j in i + 1..shapes.len() {
            if intersects(&shapes[i], &shapes[j]) {
                expected.extend([handles[i], handles[j]]);
            }
        }
    }
    assert_eq!(world.pairs(), expected);
    assert_eq!(
        world.pairs().len(),
        48,
        "each odd circle touches its right neighbour"
    );
    // Back to where they were, by positions.
    let positions: Vec<f32> = (0..50).flat_map(|i| [i as f32 * 3.0, 0.0]).collect();
    world.set_positions(&handles, &positions).unwrap();
    world.update();
    assert!(world.pairs().is_empty());
    assert_eq!(world.ended().len(), 48);
    world.raw_position(handles[7]).unwrap();
    assert_eq!(scratch::read(2), [21.0, 0.0]);
}

#[test]
fn positions_set_are_kept_exactly_whatever_the_rounding_of_the_move() {
    let (mut world, handles) = world_of_circles(1);
    for to in [0.1f32, 1e6 + 0.3, -7.7, 123_456.79] {
        world.set_positions(&handles, &[to, to]).unwrap();
        world.raw_position(handles[0]).unwrap();
        assert_eq!(scratch::read(2), [f64::from(to); 2]);
    }
}

#[test]
fn a_reused_slot_gets_a_new_generation_in_the_handle_number() {
    let (mut world, handles) = world_of_circles(3);
    world.remove(handles[1]).unwrap();
    assert!(!world.contains(handles[1]));
    let ball = JsShape::circle(0.0, 0.0, 1.0).unwrap();
    let again = world.insert(&ball, 0.0, 0.0, 1, 1, 2, 0, 0.0, 1.0).unwrap();
    assert_eq!(again, 1.0 + 4_294_967_296.0);
    assert!(world.contains(again) && !world.contains(handles[1]));
    assert_eq!(
        world.inner().kind(world.handle_of(again)),
        Ok(ObjectKind::Fast)
    );
    assert!(!world.contains(0.5) && !world.contains(-1.0) && !world.contains(f64::NAN));
    assert_eq!(world.size(), 3);
}

#[test]
fn move_shape_reports_the_distance_and_contacts() {
    let mut world = JsWorld::tree(0.0);
    let floor = JsShape::rect(0.0, 0.0, 100.0, 10.0).unwrap();
    let h = world
        .insert(&floor, 0.0, 0.0, 1, u32::MAX, 1, 0, 0.0, 1.0)
        .unwrap();
    let player = JsShape::rect(10.0, 20.0, 4.0, 8.0).unwrap();
    let defaults = [
        0.0,
        -1.0,
        0.0,
        1.0,
        std::f64::consts::FRAC_PI_2,
        0.0,
        0.0,
        0.0,
    ];
    let contacts = world
        .move_shape(&player, 5.0, -20.0, u32::MAX, &defaults, &[])
        .unwrap();
    assert_eq!(scratch::read(3), [5.0, -10.0, h]);
    assert_eq!(contacts.len(), 7);
    assert_eq!((contacts[0], contacts[5], contacts[6]), (h, 1.0, 0.0));
}

#[test]
fn move_shape_with_a_lift_and_steps() {
    let mut world = JsWorld::tree(0.0);
    let floor = JsShape::rect(0.0, 0.0, 100.0, 10.0).unwrap();
    world
        .insert(&floor, 0.0, 0.0, 1, u32::MAX, 1, 0, 0.0, 1.0)
        .unwrap();
    let step = JsShape::rect(20.0, 10.0, 10.0, 2.0).unwrap();
    world
        .insert(&step, 0.0, 0.0, 1, u32::MAX, 1, 0, 0.0, 1.0)
        .unwrap();
    let lift = JsShape::rect(40.0, 10.0, 10.0, 2.0).unwrap();
    let lift = world
        .insert(&lift, 0.0, 0.0, 1, u32::MAX, 0, 0, 0.0, 1.0)
        .unwrap();
    let settings = [1.0, -1.0, 0.0, 1.0, 0.9, 3.0, 3.0, 1.0];
    let player = JsShape::rect(10.0, 10.0, 4.0, 8.0).unwrap();
    world
        .move_shape(&player, 12.0, -1.0, u32::MAX, &settings, &[])
        .unwrap();
    assert_eq!(scratch::read(2), [12.0, 2.0], "stepped up");
    // Standing on the lift, which rises by 3.
    let rider = JsShape::rect(42.0, 12.0, 4.0, 8.0).unwrap();
    world.move_by(lift, 0.0, 3.0).unwrap();
    world
        .move_shape(&rider, 0.0, -1.0, u32::MAX, &settings, &[lift, 0.0, 3.0])
        .unwrap();
    assert_eq!(scratch::read(3), [0.0, 3.0, lift]);
}
