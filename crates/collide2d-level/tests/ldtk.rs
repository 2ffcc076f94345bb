//! An LDtk project written for the tests (tests/maps/world.ldtk, one level in its own file):
//! IntGrid values merged per value, entities with their fields, levels at their world positions.
#![cfg(feature = "ldtk")]
#![allow(clippy::unwrap_used, clippy::panic)]

use std::path::{Path, PathBuf};

use collide2d::math::Vec2;
use collide2d::{Aabb, Shape};
use collide2d_level::{
    load, IntGridSolid, LevelObject, LoadOptions, ObjectSource, Property, TileMode, YAxis,
};

fn project() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/maps/world.ldtk")
}

fn objects(options: &LoadOptions) -> Vec<LevelObject> {
    load(&project(), options).unwrap().objects
}

fn rect(x: f32, y: f32, w: f32, h: f32) -> Shape {
    Aabb::from_rect(x, y, w, h).unwrap().into()
}

#[test]
fn int_grid_values_merge_per_value_and_levels_sit_at_their_world_position() {
    let o = objects(&LoadOptions::default());
    let cells: Vec<(&str, &str, &str, Shape)> = o
        .iter()
        .filter(|o| o.layer == "Collisions")
        .map(|o| {
            (
                o.map.as_str(),
                o.class.as_str(),
                o.name.as_str(),
                o.shape.clone(),
            )
        })
        .collect();
    assert_eq!(
        cells,
        [
            ("Start", "wall", "", rect(0.0, 0.0, 16.0, 64.0)),
            ("Start", "wall", "", rect(112.0, 0.0, 16.0, 64.0)),
            ("Start", "ladder", "", rect(80.0, 16.0, 16.0, 32.0)),
            ("Start", "wall", "", rect(16.0, 48.0, 96.0, 16.0)),
            // The Cave level, from its own file: world (128, 32), layer offset 8 down.
            ("Cave", "wall", "", rect(128.0, 56.0, 64.0, 16.0)),
        ]
    );
    assert_eq!(o[o.len() - 1].key(), "Cave/Collisions/cells 0,1 4x1");
}

#[test]
fn solid_values_are_the_callers_choice() {
    let walls = LoadOptions {
        int_grid_solid: IntGridSolid::Values(vec![1]),
        tiles: TileMode::PerTile,
        layers: Some(vec!["Collisions".into()]),
        ..LoadOptions::default()
    };
    let o = objects(&walls);
    assert!(o.iter().all(|o| o.class == "wall"));
    assert_eq!(o.len(), 14 + 4); // one per wall cell
    assert_eq!(
        o[0].source,
        ObjectSource::Cells {
            x: 0,
            y: 0,
            w: 1,
            h: 1
        }
    );
}

#[test]
fn entities_are_boxes_from_their_pivot_with_their_fields() {
    let o = objects(&LoadOptions::default());
    let player = o.iter().find(|o| o.name == "Player").unwrap();
    // px (40, 48) is the bottom-centre pivot of a 12 x 24 box.
    assert_eq!(player.shape, rect(34.0, 24.0, 12.0, 24.0));
    assert_eq!(
        (player.layer.as_str(), player.class.as_str()),
        ("Entities", "Player")
    );
    assert_eq!(player.source, ObjectSource::Entity { iid: "e1".into() });
    assert_eq!(player.int_property("hp").unwrap(), Some(3));
    assert_eq!(player.float_property("speed").unwrap(), Some(1.5));
    assert_eq!(player.string_property("team").unwrap(), Some("Blue"));
    assert_eq!(
        player.properties["loot"],
        Property::List(vec![
            Property::String("key".into()),
            Property::String("gem".into())
        ])
    );
    assert!(matches!(player.properties["target"], Property::Json(_)));
    let e = player.bool_property("hp").unwrap_err().to_string();
    assert_eq!(
        e,
        r#"Start: layer "Entities": Start/Entities/Player#e1: property "hp" must be bool, got int"#
    );
    let marker = o.iter().find(|o| o.name == "Marker").unwrap();
    let Shape::Point(p) = &marker.shape else {
        panic!()
    };
    assert_eq!(p.p(), Vec2::new(8.0, 8.0));
}

#[test]
fn y_up_mirrors_levels_too() {
    let up = objects(&LoadOptions {
        y_axis: YAxis::Up,
        ..LoadOptions::default()
    });
    let cave = up.iter().find(|o| o.map == "Cave").unwrap();
    assert_eq!(cave.shape, rect(128.0, -72.0, 64.0, 16.0));
}

#[test]
fn a_missing_level_file_and_a_short_grid_are_errors() {
    let dir = std::env::temp_dir().join(format!("collide2d-level-ldtk-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(project()).unwrap();
    std::fs::write(dir.join("p.ldtk"), &text).unwrap();
    let e = load(&dir.join("p.ldtk"), &LoadOptions::default())
        .unwrap_err()
        .to_string();
    let d = dir.display();
    assert!(
        e.starts_with(&format!("{d}/p.ldtk: cannot read {d}/world/Cave.ldtkl: ")),
        "{e}"
    );
    let short = text.replace("1, 1, 1, 1, 1, 1, 1, 1 ]", "1 ]");
    std::fs::write(dir.join("q.ldtk"), short).unwrap();
    let e = load(&dir.join("q.ldtk"), &LoadOptions::default())
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        format!(
            r#"{d}/q.ldtk: layer "Start/Collisions": intGridCsv holds 25 values, expected 8 x 4 = 32"#
        )
    );
}
