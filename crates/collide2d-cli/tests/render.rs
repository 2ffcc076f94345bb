//! `collide2d render` and `demo --svg` on the real binary: the SVG is parsed and its objects,
//! highlights and contacts checked against what the scene says.

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_collide2d");

fn scene(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/scenes")
        .join(name)
}

fn out_file(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    dir.join(format!("{}-{name}", std::process::id()))
}

/// (id, kind, is hit) of every object group, in document order.
fn objects(doc: &roxmltree::Document<'_>) -> Vec<(String, String, bool)> {
    doc.descendants()
        .filter(|e| e.has_tag_name("g"))
        .filter_map(|e| {
            let class = e.attribute("class")?;
            class.starts_with("object").then(|| {
                (
                    e.attribute("data-id").unwrap_or_default().to_string(),
                    e.attribute("data-kind").unwrap_or_default().to_string(),
                    class == "object hit",
                )
            })
        })
        .collect()
}

fn pairs_of(doc: &roxmltree::Document<'_>, class: &str) -> Vec<(String, String)> {
    doc.descendants()
        .filter(|e| e.attribute("class") == Some(class))
        .map(|e| {
            (
                e.attribute("data-a").unwrap_or_default().to_string(),
                e.attribute("data-b").unwrap_or_default().to_string(),
            )
        })
        .collect()
}

#[test]
fn a_platformer_scene_shows_its_objects_hits_and_contacts() {
    let out = out_file("platformer.svg");
    let status = Command::new(BIN)
        .args(["render", "--debug", "-o"])
        .arg(&out)
        .arg(scene("platformer.json"))
        .status()
        .unwrap();
    assert!(status.success());
    let text = std::fs::read_to_string(&out).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    assert_eq!(doc.root_element().tag_name().name(), "svg");

    // Only the player and bullet b1 collide: the floor is 0.5 below the player, and b2
    // overlaps b1 but bullets do not collide with bullets (their masks name only the player).
    let expected = [
        ("player", "compound", true),
        ("b1", "circle", true),
        ("b2", "circle", false),
        ("b3", "circle", false),
        ("laser", "capsule", false),
        ("crate", "obb", false),
        ("floor", "segment", false),
        ("rock", "polygon", false),
        ("spark", "point", false),
    ];
    let expected: Vec<_> = expected
        .iter()
        .map(|&(id, kind, hit)| (id.to_string(), kind.to_string(), hit))
        .collect();
    assert_eq!(objects(&doc), expected);

    // The player's compound is drawn part by part: a box (polygon) and a circle.
    let player = doc
        .descendants()
        .find(|e| e.attribute("data-id") == Some("player") && e.has_tag_name("g"))
        .unwrap();
    let parts: Vec<_> = player
        .children()
        .filter(|c| c.is_element() && !c.has_tag_name("title"))
        .map(|c| c.tag_name().name().to_string())
        .collect();
    assert_eq!(parts, ["polygon", "circle"]);

    // One contact (box edge against circle: one point), its normal from player to b1.
    let contact = [("player".to_string(), "b1".to_string())];
    assert_eq!(pairs_of(&doc, "normal"), contact);
    assert_eq!(pairs_of(&doc, "contact-point"), contact);
    let normal = doc
        .descendants()
        .find(|e| e.attribute("class") == Some("normal"))
        .unwrap();
    let x = |name| normal.attribute(name).unwrap().parse::<f64>().unwrap();
    assert!(x("x2") > x("x1"), "b1 is to the right of the player");

    // --debug: one bounding box per object; the legend and the scale bar are there.
    let boxes = doc
        .descendants()
        .filter(|e| e.attribute("class") == Some("aabb"))
        .count();
    assert_eq!(boxes, expected.len());
    assert!(doc
        .descendants()
        .any(|e| e.attribute("class") == Some("scale")));
    assert!(text.contains(">colliding<") && text.contains("y axis points up"));
}

#[test]
fn the_same_scene_gives_the_same_bytes() {
    let run = || {
        Command::new(BIN)
            .arg("render")
            .arg(scene("platformer.json"))
            .output()
            .unwrap()
    };
    let (first, second) = (run(), run());
    assert!(first.status.success());
    assert!(first.stdout.starts_with(b"<svg"));
    assert_eq!(first.stdout, second.stdout);
}

#[test]
fn a_bad_scene_exits_1_naming_the_object_and_writes_nothing() {
    let bad = out_file("bad.json");
    std::fs::write(
        &bad,
        r#"{"objects": [{"id": "x", "shape": {"type": "circle", "center": [0, 0], "radius": -1}}]}"#,
    )
    .unwrap();
    let out = out_file("bad.svg");
    let output = Command::new(BIN)
        .args(["render", "-o"])
        .arg(&out)
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(r#"objects[0] "x": circle.radius must be >= 0, got -1"#),
        "{stderr}"
    );
    assert!(!out.exists());
    let missing = Command::new(BIN)
        .args(["render", "no/such/scene.json"])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
}

#[test]
fn demo_svg_draws_every_classic_case() {
    let out = out_file("demo.svg");
    let output = Command::new(BIN)
        .args(["demo", "--svg"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(output.status.success());
    let table = String::from_utf8(output.stdout).unwrap();
    let text = std::fs::read_to_string(&out).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let drawn = objects(&doc);
    // Two objects per table row, red exactly when the table says "hit".
    let rows: Vec<&str> = table
        .lines()
        .filter(|l| l.contains(" hit ") || l.contains(" miss"))
        .collect();
    assert_eq!(drawn.len(), 2 * rows.len(), "{table}");
    for (row, pair) in rows.iter().zip(drawn.chunks(2)) {
        let name = pair[0].0.strip_suffix(": a").unwrap();
        assert!(row.starts_with(name), "{row} / {name}");
        let hit = row.contains(" hit ");
        assert_eq!((pair[0].2, pair[1].2), (hit, hit), "{row}");
    }
}
