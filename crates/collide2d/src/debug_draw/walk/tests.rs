//! The walk's order and content, recorded by a drawer that writes down every call.

use crate::debug_draw::{DebugDraw, DrawOptions, DrawnObject, DrawnPair, Layer, Role};
use crate::math::Vec2;
use crate::{
    Aabb, BroadBox, BroadPhase, Circle, CollisionWorld, Compound, Filter, ObjectKind, Polygon,
    Shape,
};
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

/// Every call, as text.
#[derive(Default)]
struct Record(Vec<String>);

impl DebugDraw for Record {
    fn polygon(&mut self, points: &[Vec2], role: Role) {
        self.0.push(format!("polygon {} {role:?}", points.len()));
    }
    fn circle(&mut self, center: Vec2, radius: f32, role: Role) {
        self.0.push(format!(
            "circle {} {} {radius} {role:?}",
            center.x, center.y
        ));
    }
    fn capsule(&mut self, _: Vec2, _: Vec2, _: f32, role: Role) {
        self.0.push(format!("capsule {role:?}"));
    }
    fn segment(&mut self, _: Vec2, _: Vec2, role: Role) {
        self.0.push(format!("segment {role:?}"));
    }
    fn point(&mut self, p: Vec2, role: Role) {
        self.0.push(format!("point {} {} {role:?}", p.x, p.y));
    }
    fn arrow(&mut self, from: Vec2, direction: Vec2, role: Role) {
        self.0.push(format!(
            "arrow {} {} to {} {} {role:?}",
            from.x, from.y, direction.x, direction.y
        ));
    }
    fn broad_box(&mut self, b: &BroadBox, name: Option<&str>) {
        self.0.push(format!("broad {:?} {name:?}", b.kind));
    }
    fn label(&mut self, object: &DrawnObject<'_>) {
        self.0.push(format!("label {:?}", object.name));
    }
    fn begin_layer(&mut self, layer: Layer, count: usize) {
        self.0.push(format!("layer {layer:?} {count}"));
    }
    fn begin_object(&mut self, object: &DrawnObject<'_>) {
        self.0
            .push(format!("object {:?} {:?}", object.name, object.kind));
    }
    fn begin_pair(&mut self, pair: &DrawnPair<'_>) {
        self.0
            .push(format!("pair {:?} {:?}", pair.a_name, pair.b_name));
    }
}

fn disc(x: f32, r: f32) -> Shape {
    Circle::new(Vec2::new(x, 0.0), r).unwrap().into()
}

/// A tile (static, unnamed), two bullets (unnamed; one hits the player), the player (named,
/// hit) and a named enemy far away.
fn world() -> CollisionWorld<&'static str> {
    let mut world = CollisionWorld::new(BroadPhase::tree(0.0));
    let mut add =
        |shape: Shape, kind, data| world.insert(shape, Filter::DEFAULT, kind, data).unwrap();
    add(disc(1.5, 0.5), ObjectKind::Dynamic, "");
    add(
        Aabb::from_rect(-20.0, -5.0, 4.0, 1.0).unwrap().into(),
        ObjectKind::Static,
        "",
    );
    add(disc(0.0, 1.0), ObjectKind::Dynamic, "player");
    add(disc(9.0, 0.5), ObjectKind::Dynamic, "");
    add(disc(30.0, 1.0), ObjectKind::Dynamic, "enemy");
    world.update();
    world
}

fn names(_: crate::Handle, data: &&'static str) -> Option<&'static str> {
    (!data.is_empty()).then_some(*data)
}

#[test]
fn the_crowd_is_beneath_the_named_objects_and_colliding_ones_on_top() {
    let mut record = Record::default();
    world().debug_draw(&mut record, &DrawOptions::default(), names);
    let expected = [
        "layer Crowd 2",
        "object None Static",
        "polygon 4 Object { colliding: false, named: false }",
        "object None Dynamic",
        "circle 9 0 0.5 Object { colliding: false, named: false }",
        "layer CrowdColliding 1",
        "object None Dynamic",
        "circle 1.5 0 0.5 Object { colliding: true, named: false }",
        "layer Named 1",
        "object Some(\"enemy\") Dynamic",
        "circle 30 0 1 Object { colliding: false, named: true }",
        "layer NamedColliding 1",
        "object Some(\"player\") Dynamic",
        "circle 0 0 1 Object { colliding: true, named: true }",
        // Handle order: the bullet (0) is a, the player (2) b; the normal points from a to b.
        "layer Contacts 1",
        "pair None Some(\"player\")",
        "point 1 0 ContactPoint",
        "arrow 1 0 to -1 -0 Normal",
        "layer Labels 2",
        "label Some(\"player\")",
        "label Some(\"enemy\")",
    ];
    assert_eq!(record.0, expected);
}

#[test]
fn debug_options_add_the_broad_phase_boxes_and_parts_beneath() {
    let mut world = world();
    let ell = [(0., 0.), (4., 0.), (4., 1.), (1., 1.), (1., 4.), (0., 4.)]
        .map(|(x, y)| Vec2::new(x, y + 10.0));
    let parts = vec![Polygon::new(&ell).unwrap().into(), disc(50.0, 1.0)];
    world
        .insert(
            Compound::new(parts).unwrap().into(),
            Filter::DEFAULT,
            ObjectKind::Dynamic,
            "hitbox",
        )
        .unwrap();
    world.update();
    let mut record = Record::default();
    world.debug_draw(&mut record, &DrawOptions::debug(), names);
    let text = record.0;
    assert_eq!(text[0], "layer BroadPhase 10", "{text:#?}");
    let leaves: Vec<&String> = text.iter().filter(|l| l.contains("Leaf")).collect();
    assert_eq!(leaves.len(), 6);
    assert!(leaves.iter().any(|l| l.ends_with("Some(\"hitbox\")")));
    assert_eq!(leaves.iter().filter(|l| l.ends_with("None")).count(), 3);
    let boxes = text
        .iter()
        .position(|l| l == "layer BoundingBoxes 6")
        .unwrap();
    assert_eq!(text[boxes + 1], "polygon 4 BoundingBox");
    // The compound: its L outline, the L's two convex parts, its disc.
    let hitbox = text
        .iter()
        .position(|l| l == "object Some(\"hitbox\") Dynamic")
        .unwrap();
    assert_eq!(
        text[hitbox + 1..hitbox + 5],
        [
            "polygon 6 Object { colliding: false, named: true }",
            "polygon 4 ConvexPart",
            "polygon 4 ConvexPart",
            "circle 50 0 1 Object { colliding: false, named: true }"
        ]
    );
    // Without contacts and labels, the walk ends with the objects.
    let mut plain = Record::default();
    let options = DrawOptions {
        contacts: false,
        labels: false,
        ..DrawOptions::default()
    };
    world.debug_draw(&mut plain, &options, names);
    assert_eq!(
        plain.0.last().map(String::as_str),
        Some("circle 0 0 1 Object { colliding: true, named: true }")
    );
}

#[test]
fn contacts_are_computed_when_the_world_keeps_none_and_equal_its_own() {
    let mut world = world();
    let mut without = Record::default();
    world.debug_draw(&mut without, &DrawOptions::default(), names);
    world.set_contacts(true);
    world.update();
    let mut with = Record::default();
    world.debug_draw(&mut with, &DrawOptions::default(), names);
    assert_eq!(without.0, with.0);
    assert_eq!(
        crate::debug_draw::Role::Normal.colour(),
        crate::debug_draw::INK
    );
}
