//! End to end: a platformer map loaded, its layers mapped to a collision world, and a character
//! moved through it with `CollisionWorld::move_shape`, landing where the map's geometry says.
#![cfg(feature = "tiled")]
#![allow(clippy::unwrap_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use collide2d::math::Vec2;
use collide2d::{Aabb, BroadPhase, CollisionWorld, Filter, ObjectKind, Response, Shape};
use collide2d_level::{load, LayerFilters, LoadOptions, SolidTiles, YAxis};

const WALL: u64 = 1;
const PLAYER: u64 = 2;

/// A 40 x 15 map of 16-pixel tiles: a floor on row 14, a platform on row 9 (columns 10 to 19),
/// a wall in column 30 (rows 10 to 13), and two spawn points. Written once per test process:
/// the tests run in parallel, and one test rewriting the file while another reads it gives the
/// reader an empty file.
fn map() -> &'static Path {
    static MAP: OnceLock<PathBuf> = OnceLock::new();
    MAP.get_or_init(write_map)
}

fn write_map() -> PathBuf {
    let mut cells = vec![0u32; 40 * 15];
    for x in 0..40 {
        cells[14 * 40 + x] = 1;
    }
    for x in 10..20 {
        cells[9 * 40 + x] = 1;
    }
    for y in 10..14 {
        cells[y * 40 + 30] = 1;
    }
    let data: Vec<String> = cells.iter().map(u32::to_string).collect();
    let text = format!(
        r#"{{"type": "map", "orientation": "orthogonal", "width": 40, "height": 15, "tilewidth": 16,
  "tileheight": 16, "infinite": false,
  "tilesets": [{{"firstgid": 1, "name": "t", "tilewidth": 16, "tileheight": 16, "tilecount": 1}}],
  "layers": [
    {{"type": "tilelayer", "name": "Ground", "width": 40, "height": 15, "data": [{}]}},
    {{"type": "objectgroup", "name": "Spawns", "objects": [
      {{"id": 1, "name": "above_platform", "x": 196, "y": 48, "point": true}},
      {{"id": 2, "name": "left", "x": 40, "y": 100, "point": true}}]}}]}}"#,
        data.join(",")
    );
    let dir =
        std::env::temp_dir().join(format!("collide2d-level-platformer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("platformer.tmj");
    std::fs::write(&path, text).unwrap();
    path
}

/// The map's world (the Ground layer, static walls) and its spawn points.
fn world(y_axis: YAxis) -> (CollisionWorld<usize>, Vec<(String, Vec2)>, usize) {
    let options = LoadOptions {
        y_axis,
        solid_tiles: SolidTiles::EveryTile,
        ..LoadOptions::default()
    };
    let level = load(map(), &options).unwrap();
    let filters =
        LayerFilters::new().layer("Ground", Filter::new(WALL, PLAYER), ObjectKind::Static);
    let mut world = CollisionWorld::new(BroadPhase::default());
    let handles = filters
        .insert_into(&mut world, &level.objects, |i, _| i)
        .unwrap();
    let spawns = level
        .objects
        .iter()
        .filter(|o| o.layer == "Spawns")
        .map(|o| (o.name.clone(), o.shape.aabb().min()))
        .collect();
    (world, spawns, handles.len())
}

fn spawn(spawns: &[(String, Vec2)], name: &str) -> Vec2 {
    spawns.iter().find(|(n, _)| n == name).unwrap().1
}

#[test]
fn the_floor_and_walls_merge_into_few_boxes() {
    let (_, _, boxes) = world(YAxis::Down);
    // 40 + 10 + 4 = 54 solid tiles: the platform, the wall down to the floor (it grows down
    // first), and the floor on either side of it.
    assert_eq!(boxes, 4);
}

#[test]
fn a_character_falls_onto_the_platform_and_runs_into_the_wall() {
    let (world, spawns, _) = world(YAxis::Down);
    let slide = |_, _: &usize| Response::Slide;
    // A 12 x 24 character whose top-left corner is at the spawn point, falling (y down).
    let start = spawn(&spawns, "above_platform");
    let player: Shape = Aabb::from_rect(start.x, start.y, 12.0, 24.0)
        .unwrap()
        .into();
    let fall = world.move_shape(&player, Vec2::new(0.0, 300.0), WALL, slide);
    // The platform's top is row 9: y = 144, so the character's top rests at 120.
    assert_eq!(fall.delta, Vec2::new(0.0, 144.0 - 24.0 - start.y));
    assert!(fall
        .contacts
        .iter()
        .any(|c| c.normal == Vec2::new(0.0, -1.0)));
    // From the left spawn: down onto the floor (y = 224), then right along the seams of
    // 40 merged tiles into the wall at x = 480.
    let start = spawn(&spawns, "left");
    let player: Shape = Aabb::from_rect(start.x, start.y, 12.0, 24.0)
        .unwrap()
        .into();
    let fall = world.move_shape(&player, Vec2::new(0.0, 300.0), WALL, slide);
    assert_eq!(start.y + fall.delta.y + 24.0, 224.0);
    let run = world.move_shape(&fall.shape, Vec2::new(600.0, 0.0), WALL, slide);
    assert_eq!(fall.shape.aabb().max().x + run.delta.x, 480.0);
    assert_eq!(run.delta.y, 0.0);
}

#[test]
fn with_y_up_the_character_falls_down_the_axis_onto_the_same_platform() {
    let (world, spawns, _) = world(YAxis::Up);
    let start = spawn(&spawns, "above_platform");
    // The spawn point's y is negated; the character hangs below it in y up.
    let player: Shape = Aabb::from_rect(start.x, start.y - 24.0, 12.0, 24.0)
        .unwrap()
        .into();
    let fall = world.move_shape(&player, Vec2::new(0.0, -300.0), WALL, |_, _| {
        Response::Slide
    });
    assert_eq!(fall.shape.aabb().min().y, -144.0);
    assert!(fall.contacts.iter().any(|c| c.normal == Vec2::Y));
}
