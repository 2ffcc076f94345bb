//! Tiled maps written for the tests (tests/maps/), in XML and JSON: every object type, rotated
//! objects, flipped tiles with collision shapes, layer and group offsets, merged cells.
#![cfg(feature = "tiled")]
#![allow(clippy::unwrap_used, clippy::panic)]

use std::path::{Path, PathBuf};

use collide2d::math::Vec2;
use collide2d::{Aabb, Shape, ShapeKind};
use collide2d_level::{load, LevelObject, LoadOptions, ObjectSource, Property, TileMode, YAxis};

fn maps() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/maps")
}

fn objects(file: &str, options: &LoadOptions) -> Vec<LevelObject> {
    load(&maps().join(file), options).unwrap().objects
}

fn by_name<'a>(objects: &'a [LevelObject], name: &str) -> &'a LevelObject {
    objects.iter().find(|o| o.name == name).unwrap()
}

fn aabb(x: f32, y: f32, w: f32, h: f32) -> Shape {
    Aabb::from_rect(x, y, w, h).unwrap().into()
}

/// The objects without the map's file name, to compare the XML and JSON loads.
fn unnamed(mut objects: Vec<LevelObject>) -> Vec<LevelObject> {
    for o in &mut objects {
        o.map.clear();
    }
    objects
}

#[test]
fn the_xml_and_json_forms_of_a_map_load_the_same_objects() {
    let options = LoadOptions::default();
    let xml = objects("level.tmx", &options);
    let json = objects("level.tmj", &options);
    assert_eq!(xml.len(), 7 + 11 + 2);
    assert_eq!(unnamed(xml.clone()), unnamed(json));
    assert!(xml.iter().all(|o| o.map == "level.tmx"));
}

#[test]
fn every_object_type_becomes_its_shape_with_the_layer_offset() {
    let o = objects("level.tmj", &LoadOptions::default());
    let wall = by_name(&o, "wall");
    assert_eq!(wall.shape, aabb(4.0, -2.0, 16.0, 8.0));
    assert_eq!(
        (wall.layer.as_str(), wall.class.as_str()),
        ("Things", "Wall")
    );
    assert_eq!(wall.properties["solid"], Property::Bool(true));
    assert_eq!(wall.int_property("hp").unwrap(), Some(3));
    assert_eq!(wall.source, ObjectSource::Object { id: 1 });
    assert_eq!(wall.key(), "level.tmj/Things/wall#1");
    // A quarter turn about the top-left corner, clockwise on screen: still a box.
    assert_eq!(by_name(&o, "turned").shape, aabb(28.0, -2.0, 8.0, 16.0));
    let Shape::Obb(tilted) = &by_name(&o, "tilted").shape else {
        panic!()
    };
    assert!((tilted.angle() - 30f32.to_radians()).abs() < 1e-6);
    assert!(tilted
        .corners()
        .iter()
        .any(|c| c.distance(Vec2::new(44.0, 18.0)) < 1e-4));
    let Shape::Circle(ball) = &by_name(&o, "ball").shape else {
        panic!()
    };
    assert_eq!((ball.center(), ball.radius()), (Vec2::new(73.0, 3.0), 5.0));
    assert_eq!(by_name(&o, "oval").shape.kind(), ShapeKind::ConvexPolygon);
    let Shape::Polygon(notch) = &by_name(&o, "notch").shape else {
        panic!()
    };
    assert!(!notch.is_convex());
    assert_eq!(notch.points()[0], Vec2::new(84.0, 14.0));
    let Shape::Compound(rope) = &by_name(&o, "rope").shape else {
        panic!()
    };
    assert_eq!(rope.parts().len(), 2);
    let Shape::Point(spawn) = &by_name(&o, "spawn").shape else {
        panic!()
    };
    assert_eq!(spawn.p(), Vec2::new(54.0, 48.0));
    let Shape::Capsule(pill) = &by_name(&o, "pill").shape else {
        panic!()
    };
    assert_eq!(
        (pill.a(), pill.b(), pill.radius()),
        (Vec2::new(18.0, 62.0), Vec2::new(30.0, 62.0), 4.0)
    );
    assert_eq!(by_name(&o, "sign").shape, aabb(24.0, 68.0, 40.0, 12.0));
    // Hidden layers load; group offsets add up.
    assert_eq!(by_name(&o, "kill").shape, aabb(0.0, 100.0, 128.0, 4.0));
    let door = by_name(&o, "door");
    assert_eq!(
        (door.layer.as_str(), &door.shape),
        ("Decor/Triggers", &aabb(10.0, 10.0, 8.0, 16.0))
    );
}

#[test]
fn a_flipped_tile_object_carries_its_tiles_shape_stretched() {
    let o = objects("level.tmx", &LoadOptions::default());
    let ramp = by_name(&o, "ramp");
    assert_eq!(ramp.class, "Slope"); // from its tile
    let Shape::Polygon(p) = &ramp.shape else {
        panic!("{:?}", ramp.shape)
    };
    let mut points = p.points().to_vec();
    points.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    // The slope (0,16) (16,0) (16,16), mirrored, doubled, its bottom-left at (100, 48), offset (4, -2).
    assert_eq!(
        points,
        [
            Vec2::new(104.0, 14.0),
            Vec2::new(104.0, 46.0),
            Vec2::new(136.0, 46.0)
        ]
    );
}

#[test]
fn flipped_tiles_place_their_collision_shapes_and_full_tiles_merge() {
    let o = objects("level.tmx", &LoadOptions::default());
    let ground: Vec<&LevelObject> = o.iter().filter(|o| o.layer == "Ground").collect();
    let shapes: Vec<(&ObjectSource, &Shape)> =
        ground.iter().map(|o| (&o.source, &o.shape)).collect();
    let Shape::Polygon(slope) = shapes[0].1 else {
        panic!()
    };
    let mut points = slope.points().to_vec();
    points.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    assert_eq!(
        points,
        [
            Vec2::new(96.0, 16.0),
            Vec2::new(96.0, 32.0),
            Vec2::new(112.0, 32.0)
        ]
    );
    assert_eq!(
        shapes[0].0,
        &ObjectSource::Tile {
            x: 6,
            y: 1,
            tile: 1
        }
    );
    assert_eq!(ground[0].class, "Slope");
    // Flipped vertically: the bottom-left quarter box goes to the top left.
    assert_eq!(
        shapes[1],
        (
            &ObjectSource::Tile {
                x: 0,
                y: 2,
                tile: 2
            },
            &aabb(0.0, 32.0, 8.0, 8.0)
        )
    );
    // Flipped diagonally then horizontally (a quarter turn clockwise): top left again.
    assert_eq!(
        shapes[2],
        (
            &ObjectSource::Tile {
                x: 5,
                y: 2,
                tile: 2
            },
            &aabb(80.0, 32.0, 8.0, 8.0)
        )
    );
    let cells: Vec<(&ObjectSource, &Shape)> = shapes[3..].to_vec();
    let want = [(1, 2, 4, 2), (6, 2, 2, 2), (0, 3, 1, 1), (5, 3, 1, 1)];
    assert_eq!(cells.len(), want.len());
    for ((source, shape), (x, y, w, h)) in cells.iter().zip(want) {
        assert_eq!(**source, ObjectSource::Cells { x, y, w, h });
        let (fx, fy) = (x as f32 * 16.0, y as f32 * 16.0);
        assert_eq!(**shape, aabb(fx, fy, w as f32 * 16.0, h as f32 * 16.0));
    }
    // Merged cells carry the layer's class and properties.
    assert_eq!(ground[3].class, "Terrain");
    assert_eq!(
        ground[3].properties["material"],
        Property::String("stone".into())
    );
}

#[test]
fn per_tile_mode_gives_one_box_per_solid_tile_with_its_tile() {
    let options = LoadOptions {
        tiles: TileMode::PerTile,
        layers: Some(vec!["Ground".into()]),
        ..LoadOptions::default()
    };
    let o = objects("level.tmj", &options);
    assert_eq!(o.len(), 3 + 14);
    let first = &o[3];
    assert_eq!(
        first.source,
        ObjectSource::Tile {
            x: 1,
            y: 2,
            tile: 0
        }
    );
    assert_eq!(first.class, "Solid");
    assert_eq!(first.properties["friction"], Property::Float(0.5));
}

#[test]
fn y_up_negates_every_y() {
    let up = LoadOptions {
        y_axis: YAxis::Up,
        ..LoadOptions::default()
    };
    let level = load(&maps().join("level.tmx"), &up).unwrap();
    assert_eq!(level.y_axis, YAxis::Up);
    let down = objects("level.tmx", &LoadOptions::default());
    assert_eq!(level.objects.len(), down.len());
    for (u, d) in level.objects.iter().zip(&down) {
        let (bu, bd) = (u.shape.aabb(), d.shape.aabb());
        let close = |a: f32, b: f32| (a - b).abs() <= 1e-4 * (1.0 + a.abs());
        assert!(
            close(bu.min().x, bd.min().x) && close(bu.max().x, bd.max().x),
            "{}",
            u.name
        );
        assert!(
            close(bu.min().y, -bd.max().y) && close(bu.max().y, -bd.min().y),
            "{}",
            u.name
        );
    }
    let Shape::Obb(tilted) = &by_name(&level.objects, "tilted").shape else {
        panic!()
    };
    assert!((tilted.angle() + 30f32.to_radians()).abs() < 1e-6);
}

#[test]
fn layers_are_chosen_by_name_or_group_path() {
    let only = |names: &[&str]| {
        let options = LoadOptions {
            layers: Some(names.iter().map(|s| s.to_string()).collect()),
            ..LoadOptions::default()
        };
        let mut layers: Vec<String> = objects("level.tmx", &options)
            .into_iter()
            .map(|o| o.layer)
            .collect();
        layers.dedup();
        layers
    };
    assert_eq!(only(&["Hidden"]), ["Hidden"]);
    assert_eq!(only(&["Triggers"]), ["Decor/Triggers"]);
    assert_eq!(only(&["Decor"]), ["Decor/Triggers"]);
    assert_eq!(
        only(&["Things", "Decor/Triggers"]),
        ["Things", "Decor/Triggers"]
    );
    assert!(only(&["Nothing"]).is_empty());
}
