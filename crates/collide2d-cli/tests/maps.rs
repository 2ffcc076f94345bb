//! `collide2d pairs MAP` and `collide2d render MAP` on Tiled and LDtk maps (the test maps of
//! crates/collide2d-level), on the real binary.
#![allow(clippy::unwrap_used, clippy::panic)]

use std::path::PathBuf;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_collide2d");

fn map(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../collide2d-level/tests/maps")
        .join(name)
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

#[test]
fn pairs_of_a_tiled_map_pair_objects_with_tiles_but_never_tiles_with_tiles() {
    let path = map("level.tmx");
    let out = run(&["pairs", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let want = [
        r#"{"a": "level.tmx/Ground/tile 6,1", "b": "level.tmx/Things/notch#6"}"#,
        r#"{"a": "level.tmx/Ground/tile 6,1", "b": "level.tmx/Things/ramp#9"}"#,
        r#"{"a": "level.tmx/Ground/tile 0,2", "b": "level.tmx/Things/rope#7"}"#,
        r#"{"a": "level.tmx/Ground/cells 1,2 4x2", "b": "level.tmx/Things/tilted#3"}"#,
        r#"{"a": "level.tmx/Ground/cells 1,2 4x2", "b": "level.tmx/Things/spawn#8"}"#,
        r#"{"a": "level.tmx/Ground/cells 1,2 4x2", "b": "level.tmx/Things/pill#10"}"#,
        r#"{"a": "level.tmx/Ground/cells 6,2 2x2", "b": "level.tmx/Things/ramp#9"}"#,
        r#"{"a": "level.tmx/Ground/cells 0,3 1x1", "b": "level.tmx/Things/rope#7"}"#,
        r#"{"a": "level.tmx/Ground/cells 0,3 1x1", "b": "level.tmx/Things/pill#10"}"#,
        r#"{"a": "level.tmx/Things/oval#5", "b": "level.tmx/Things/notch#6"}"#,
    ];
    assert_eq!(text(&out.stdout).lines().collect::<Vec<_>>(), want);
    // The JSON form gives the same pairs.
    let json = run(&["pairs", map("level.tmj").to_str().unwrap()]);
    assert_eq!(
        text(&json.stdout),
        text(&out.stdout).replace("level.tmx", "level.tmj")
    );
}

#[test]
fn layer_chooses_layers_and_warns_about_names_with_no_object() {
    let path = map("level.tmj");
    let out = run(&[
        "pairs",
        path.to_str().unwrap(),
        "--layer",
        "Things",
        "--layer",
        "Nope",
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout),
        "{\"a\": \"level.tmj/Things/oval#5\", \"b\": \"level.tmj/Things/notch#6\"}\n"
    );
    assert_eq!(
        text(&out.stderr),
        "collide2d: warning: --layer \"Nope\": no object of the map is on a layer of that name\n"
    );
}

#[test]
fn pairs_of_an_ldtk_project_with_contacts() {
    let out = run(&[
        "pairs",
        map("world.ldtk").to_str().unwrap(),
        "--contacts",
        "--layer",
        "Entities",
        "--layer",
        "Collisions",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let lines = text(&out.stdout);
    let lines: Vec<&str> = lines.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0].starts_with(r#"{"a": "Start/Entities/Player#e1", "b": "Start/Collisions/cells 1,3 6x1", "contact": {"normal": [0, 1], "depth": 0"#), "{}", lines[0]);
}

#[test]
fn bad_and_missing_maps_print_nothing_and_exit_1_or_2() {
    let missing = run(&["pairs", map("nothere.tmx").to_str().unwrap()]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(missing.stdout.is_empty());
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let bad = dir.join(format!("{}-bad.tmj", std::process::id()));
    std::fs::write(&bad, r#"{"type": "map", "orientation": "orthogonal", "width": 1, "height": 1, "tilewidth": 16,
        "tileheight": 16, "tilesets": [], "layers": [{"type": "objectgroup", "name": "Walls", "objects": [
        {"id": 6, "name": "bow", "x": 0, "y": 0, "polygon": [{"x": 0, "y": 0}, {"x": 4, "y": 4}, {"x": 4, "y": 0}, {"x": 0, "y": 4}]}]}]}"#).unwrap();
    let out = run(&["pairs", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let message = text(&out.stderr);
    assert!(
        message.starts_with(&format!(
            r#"collide2d: {}: layer "Walls": object 6 "bow": polygon: "#,
            bad.display()
        )),
        "{message}"
    );
    // --layer with a scene file is a usage error.
    let scene = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/scenes/platformer.json");
    let out = run(&["pairs", scene.to_str().unwrap(), "--layer", "x"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn render_draws_every_object_of_a_map() {
    let out = run(&[
        "render",
        map("level.tmx").to_str().unwrap(),
        "--layer",
        "Ground",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let svg = text(&out.stdout);
    assert!(svg.contains("<svg"));
    for id in [
        "level.tmx/Ground/tile 6,1",
        "level.tmx/Ground/cells 1,2 4x2",
        "level.tmx/Ground/cells 5,3 1x1",
    ] {
        assert!(svg.contains(&format!(r#"data-id="{id}""#)), "{id}");
    }
    assert!(!svg.contains("Things/"));
}
