//! Tile layer data in every encoding and compression, infinite maps' chunks, and bad maps:
//! each error names the file, the layer and the object, and nothing is loaded.
#![cfg(feature = "tiled")]
#![allow(clippy::unwrap_used, clippy::panic)]

use std::io::Write;
use std::path::{Path, PathBuf};

use collide2d_level::{load, ErrorKind, LevelObject, LoadOptions};

const GIDS: [u32; 32] = [
    0, 0, 0, 0, 0, 0, 0, 4, //
    0, 0, 0, 0, 0, 0, 2147483650, 0, //
    1073741827, 1, 1, 1, 1, 2684354563, 1, 1, //
    1, 1, 1, 1, 1, 1, 1, 1,
];

fn maps() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/maps")
}

/// A scratch directory holding copies of the test tilesets.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("collide2d-level-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["terrain.tsx", "terrain.tsj"] {
        std::fs::copy(maps().join(f), dir.join(f)).unwrap();
    }
    dir
}

fn encode(compression: &str) -> String {
    use base64::Engine;
    let bytes: Vec<u8> = GIDS.iter().flat_map(|g| g.to_le_bytes()).collect();
    let packed = match compression {
        "" => bytes,
        "zlib" => {
            let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
            e.write_all(&bytes).unwrap();
            e.finish().unwrap()
        }
        "gzip" => {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            e.write_all(&bytes).unwrap();
            e.finish().unwrap()
        }
        "zstd" => zstd::encode_all(&bytes[..], 3).unwrap(),
        _ => unreachable!(),
    };
    base64::engine::general_purpose::STANDARD.encode(packed)
}

fn tmx(data: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="8" height="4" tilewidth="16" tileheight="16" infinite="0">
 <tileset firstgid="1" source="terrain.tsx"/>
 <layer id="1" name="Ground" width="8" height="4">
  {data}
 </layer>
</map>"#
    )
}

fn tmj(data: &str, tileset: &str) -> String {
    format!(
        r#"{{"type": "map", "orientation": "orthogonal", "width": 8, "height": 4, "tilewidth": 16,
  "tileheight": 16, "infinite": false, "tilesets": [{{"firstgid": 1, "source": "{tileset}"}}],
  "layers": [{{"type": "tilelayer", "name": "Ground", "width": 8, "height": 4, {data}}}]}}"#
    )
}

fn load_text(
    dir: &Path,
    file: &str,
    text: &str,
) -> Result<Vec<LevelObject>, collide2d_level::LevelError> {
    let path = dir.join(file);
    std::fs::write(&path, text).unwrap();
    load(&path, &LoadOptions::default()).map(|l| l.objects)
}

fn shapes(objects: &[LevelObject]) -> Vec<(collide2d::Shape, collide2d_level::ObjectSource)> {
    objects
        .iter()
        .map(|o| (o.shape.clone(), o.source.clone()))
        .collect()
}

#[test]
fn every_encoding_and_compression_loads_the_same_tiles() {
    let dir = scratch("encodings");
    let csv: Vec<String> = GIDS.iter().map(u32::to_string).collect();
    let want = shapes(
        &load_text(
            &dir,
            "csv.tmx",
            &tmx(&format!(r#"<data encoding="csv">{}</data>"#, csv.join(","))),
        )
        .unwrap(),
    );
    assert_eq!(want.len(), 7);
    let json = load_text(
        &dir,
        "csv.tmj",
        &tmj(&format!(r#""data": [{}]"#, csv.join(",")), "terrain.tsj"),
    )
    .unwrap();
    assert_eq!(shapes(&json), want);
    // A JSON map with an XML tileset.
    let mixed = load_text(
        &dir,
        "mixed.tmj",
        &tmj(&format!(r#""data": [{}]"#, csv.join(",")), "terrain.tsx"),
    )
    .unwrap();
    assert_eq!(shapes(&mixed), want);
    for compression in ["", "zlib", "gzip", "zstd"] {
        let data = encode(compression);
        let attr = if compression.is_empty() {
            String::new()
        } else {
            format!(r#" compression="{compression}""#)
        };
        let xml = tmx(&format!(r#"<data encoding="base64"{attr}>{data}</data>"#));
        let got = load_text(&dir, &format!("b64{compression}.tmx"), &xml).unwrap();
        assert_eq!(shapes(&got), want, "tmx {compression}");
        let json = tmj(
            &format!(r#""encoding": "base64", "compression": "{compression}", "data": "{data}""#),
            "terrain.tsj",
        );
        let got = load_text(&dir, &format!("b64{compression}.tmj"), &json).unwrap();
        assert_eq!(shapes(&got), want, "tmj {compression}");
    }
}

#[test]
fn infinite_maps_merge_across_chunks() {
    let dir = scratch("infinite");
    // Two 16 x 16 chunks side by side, a floor on row 5 of both: one rectangle from x = -16 to 16.
    let chunk = |x: i32| {
        let mut cells = vec!["0"; 256];
        for c in &mut cells[5 * 16..6 * 16] {
            *c = "1";
        }
        (x, cells.join(","))
    };
    let (a, b) = (chunk(-16), chunk(0));
    let xml = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="30" height="20" tilewidth="16" tileheight="16" infinite="1">
 <tileset firstgid="1" source="terrain.tsx"/>
 <layer id="1" name="Ground" width="30" height="20">
  <data encoding="csv">
   <chunk x="{}" y="0" width="16" height="16">{}</chunk>
   <chunk x="{}" y="0" width="16" height="16">{}</chunk>
  </data>
 </layer>
</map>"#,
        b.0, b.1, a.0, a.1
    );
    let json = format!(
        r#"{{"type": "map", "orientation": "orthogonal", "width": 30, "height": 20, "tilewidth": 16,
  "tileheight": 16, "infinite": true, "tilesets": [{{"firstgid": 1, "source": "terrain.tsj"}}],
  "layers": [{{"type": "tilelayer", "name": "Ground", "width": 30, "height": 20, "startx": -16, "starty": 0,
    "chunks": [{{"x": {}, "y": 0, "width": 16, "height": 16, "data": [{}]}},
               {{"x": {}, "y": 0, "width": 16, "height": 16, "data": [{}]}}]}}]}}"#,
        b.0, b.1, a.0, a.1
    );
    for (file, text) in [("inf.tmx", xml), ("inf.tmj", json)] {
        let o = load_text(&dir, file, &text).unwrap();
        assert_eq!(o.len(), 1, "{file}");
        assert_eq!(
            o[0].source,
            collide2d_level::ObjectSource::Cells {
                x: -16,
                y: 5,
                w: 32,
                h: 1
            }
        );
        assert_eq!(
            o[0].shape.aabb(),
            collide2d::Aabb::from_rect(-256.0, 80.0, 512.0, 16.0).unwrap()
        );
    }
}

fn error(dir: &Path, file: &str, text: &str) -> (String, collide2d_level::LevelError) {
    let e = load_text(dir, file, text).unwrap_err();
    (e.to_string(), e)
}

#[test]
fn bad_maps_are_errors_naming_file_layer_and_object() {
    let dir = scratch("errors");
    let d = dir.display();
    // A missing tileset file.
    let (m, e) = error(&dir, "m1.tmj", &tmj(r#""data": [0]"#, "nowhere.tsj"));
    assert!(matches!(*e.kind, ErrorKind::Read { .. }));
    assert_eq!(
        m,
        format!("{d}/m1.tmj: cannot read {d}/nowhere.tsj: no such tileset file")
    );
    let (m, _) = error(
        &dir,
        "m1.tmx",
        &tmx(r#"<data encoding="csv">0</data>"#).replace("terrain.tsx", "nowhere.tsx"),
    );
    assert!(
        m.starts_with(&format!("{d}/m1.tmx: cannot read {d}/nowhere.tsx")),
        "{m}"
    );
    // An unknown compression.
    let (m, e) = error(
        &dir,
        "m2.tmj",
        &tmj(
            r#""encoding": "base64", "compression": "lz4", "data": "AAAA""#,
            "terrain.tsj",
        ),
    );
    assert!(matches!(*e.kind, ErrorKind::Encoding { .. }));
    assert!(m.starts_with(&format!(r#"{d}/m2.tmj: layer "Ground": layer data: unknown encoding Some("base64") with compression Some("lz4")"#)), "{m}");
    let (_, e) = error(
        &dir,
        "m2.tmx",
        &tmx(r#"<data encoding="base64" compression="lz4">AAAA</data>"#),
    );
    assert!(matches!(*e.kind, ErrorKind::Encoding { .. }), "{e}");
    // Data of the wrong size, in a chunk of an infinite map.
    let bad_chunk = r#"{"type": "map", "orientation": "orthogonal", "width": 4, "height": 4, "tilewidth": 16,
      "tileheight": 16, "infinite": true, "tilesets": [],
      "layers": [{"type": "tilelayer", "name": "Ground", "chunks": [{"x": 0, "y": 0, "width": 16, "height": 16, "data": [1, 2]}]}]}"#;
    let (m, _) = error(&dir, "m3.tmj", bad_chunk);
    assert_eq!(
        m,
        format!(
            r#"{d}/m3.tmj: layer "Ground": chunk (0, 0): data holds 2 tiles, expected 16 x 16 = 256"#
        )
    );
    // A polygon that crosses itself.
    let objects = |object: &str| {
        format!(
            r#"{{"type": "map", "orientation": "orthogonal", "width": 4, "height": 4, "tilewidth": 16,
      "tileheight": 16, "tilesets": [], "layers": [{{"type": "objectgroup", "name": "Walls", "objects": [{object}]}}]}}"#
        )
    };
    let bow = r#"{"id": 6, "name": "bow", "x": 0, "y": 0, "polygon": [{"x": 0, "y": 0}, {"x": 4, "y": 4}, {"x": 4, "y": 0}, {"x": 0, "y": 4}]}"#;
    let (m, e) = error(&dir, "m4.tmj", &objects(bow));
    assert!(matches!(
        *e.kind,
        ErrorKind::Shape {
            what: "polygon",
            ..
        }
    ));
    assert!(
        m.starts_with(&format!(
            r#"{d}/m4.tmj: layer "Walls": object 6 "bow": polygon: "#
        )),
        "{m}"
    );
    // A property of the wrong type.
    let hp = r#"{"id": 2, "name": "orc", "x": 0, "y": 0, "width": 4, "height": 4, "properties": [{"name": "hp", "type": "int", "value": "three"}]}"#;
    let (m, _) = error(&dir, "m5.tmj", &objects(hp));
    assert_eq!(
        m,
        format!(
            r#"{d}/m5.tmj: layer "Walls": object 2 "orc": property "hp" must be int, got string"#
        )
    );
    // An ellipse when only exact shapes are wanted.
    let oval =
        r#"{"id": 3, "name": "oval", "x": 0, "y": 0, "width": 8, "height": 4, "ellipse": true}"#;
    let path = dir.join("m6.tmj");
    std::fs::write(&path, objects(oval)).unwrap();
    let exact = LoadOptions {
        ellipses: collide2d_level::Ellipses::Exact,
        ..LoadOptions::default()
    };
    let m = load(&path, &exact).unwrap_err().to_string();
    assert!(
        m.starts_with(&format!(
            r#"{d}/m6.tmj: layer "Walls": object 3 "oval": ellipse 8 x 4 is not a circle"#
        )),
        "{m}"
    );
    // Not orthogonal.
    let (m, _) = error(
        &dir,
        "m7.tmj",
        &objects("").replace("orthogonal", "isometric"),
    );
    assert_eq!(
        m,
        format!(
            r#"{d}/m7.tmj: a map of orientation "isometric" (only orthogonal maps are read) is not supported"#
        )
    );
    // Not a map at all, and an unknown extension.
    let (m, _) = error(&dir, "m8.tmj", "{\"layers\": 3}");
    assert!(m.starts_with(&format!("{d}/m8.tmj: ")), "{m}");
    let (m, _) = error(&dir, "m9.txt", "");
    assert_eq!(m, format!("{d}/m9.txt: unknown map format (expected a .tmx or .tmj Tiled map or a .ldtk LDtk project)"));
}

#[test]
fn a_tile_property_of_the_wrong_type_names_the_tileset_and_tile() {
    let dir = scratch("tileprop");
    let csv: Vec<String> = GIDS.iter().map(u32::to_string).collect();
    let path = dir.join("p.tmj");
    std::fs::write(
        &path,
        tmj(&format!(r#""data": [{}]"#, csv.join(",")), "terrain.tsj"),
    )
    .unwrap();
    let options = LoadOptions {
        solid_tiles: collide2d_level::SolidTiles::Property("friction".into()),
        ..LoadOptions::default()
    };
    let m = load(&path, &options).unwrap_err().to_string();
    assert_eq!(
        m,
        format!(
            r#"{}/terrain.tsj: tile 0 of tileset "terrain": property "friction" must be bool, got float"#,
            dir.display()
        )
    );
}

#[test]
fn the_tiled_crates_errors_in_a_tmx_are_located_in_layer_and_object() {
    let dir = scratch("tmxerrors");
    let d = dir.display();
    let level = std::fs::read_to_string(maps().join("level.tmx")).unwrap();
    let bad_int = level.replace(
        r#"name="hp" type="int" value="3""#,
        r#"name="hp" type="int" value="three""#,
    );
    let (m, _) = error(&dir, "p.tmx", &bad_int);
    assert_eq!(
        m,
        format!(
            r#"{d}/p.tmx: layer "Things": object 1 "wall": property "hp" must be int, got "three""#
        )
    );
    let (m, e) = error(
        &dir,
        "c.tmx",
        &level.replace(
            r#"encoding="csv""#,
            r#"encoding="base64" compression="lz4""#,
        ),
    );
    assert!(matches!(*e.kind, ErrorKind::Encoding { .. }));
    assert!(
        m.starts_with(&format!(
            r#"{d}/c.tmx: layer "Ground": layer data: unknown encoding"#
        )),
        "{m}"
    );
    // In an external tileset: its file and tile are named.
    let tsx = std::fs::read_to_string(dir.join("terrain.tsx")).unwrap();
    std::fs::write(
        dir.join("bad.tsx"),
        tsx.replace(
            r#"type="float" value="0.5""#,
            r#"type="float" value="half""#,
        ),
    )
    .unwrap();
    let (m, _) = error(&dir, "t.tmx", &level.replace("terrain.tsx", "bad.tsx"));
    assert_eq!(
        m,
        format!(
            r#"{d}/bad.tsx: tile 0 of tileset "terrain": property "friction" must be float, got "half""#
        )
    );
}

#[test]
fn rotated_and_flipped_tile_objects_turn_their_collision_shapes_about_their_corner() {
    let dir = scratch("tileobjects");
    // Tile 2's shape is the box (0, 8)-(8, 16) of its 16 x 16 tile. Placed with its bottom-left
    // corner at (0, 16) and turned 90 degrees (clockwise on screen) about that corner.
    let text = |gid: u32| {
        format!(
            r#"{{"type": "map", "orientation": "orthogonal", "width": 4, "height": 4, "tilewidth": 16,
      "tileheight": 16, "tilesets": [{{"firstgid": 1, "source": "terrain.tsj"}}],
      "layers": [{{"type": "objectgroup", "name": "Props", "objects": [
        {{"id": 1, "name": "crate", "gid": {gid}, "x": 0, "y": 16, "width": 16, "height": 16, "rotation": 90}}]}}]}}"#
        )
    };
    let turned = load_text(&dir, "r.tmj", &text(3)).unwrap();
    assert_eq!(
        turned[0].shape,
        collide2d::Aabb::from_rect(0.0, 16.0, 8.0, 8.0)
            .unwrap()
            .into()
    );
    // Flipped horizontally first: the box (8, 8)-(16, 16), then turned.
    let flipped = load_text(&dir, "f.tmj", &text(3 | 0x8000_0000)).unwrap();
    assert_eq!(
        flipped[0].shape,
        collide2d::Aabb::from_rect(0.0, 24.0, 8.0, 8.0)
            .unwrap()
            .into()
    );
}
