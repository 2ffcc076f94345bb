//! `collide2d render` and `demo --svg` on the real binary: the SVG is parsed and its objects,
//! highlights, contacts and (with `--debug`) broad-phase boxes checked against what the scene
//! says.

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

/// The broad-phase boxes of class `class`, each as its `data-*` attributes (name, value) in
/// document order.
fn broad_boxes(doc: &roxmltree::Document<'_>, class: &str) -> Vec<Vec<(String, String)>> {
    doc.descendants()
        .filter(|e| e.attribute("class") == Some(class))
        .filter(|e| e.parent_element().and_then(|p| p.attribute("class")) == Some("broad"))
        .map(|e| {
            e.attributes()
                .filter(|a| a.name().starts_with("data-"))
                .map(|a| (a.name()[5..].to_string(), a.value().to_string()))
                .collect()
        })
        .collect()
}

/// `collide2d render ARGS -o OUT platformer.json`, and the SVG written.
#[allow(clippy::unwrap_used)] // a helper of the tests: a failure fails the test
fn render(name: &str, args: &[&str]) -> String {
    let out = out_file(name);
    let status = Command::new(BIN)
        .arg("render")
        .args(args)
        .arg("-o")
        .arg(&out)
        .arg(scene("platformer.json"))
        .status()
        .unwrap();
    assert!(status.success());
    std::fs::read_to_string(&out).unwrap()
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
    // The colliding objects are drawn last, above the others.
    let expected = [
        ("b2", "circle", false),
        ("b3", "circle", false),
        ("laser", "capsule", false),
        ("crate", "obb", false),
        ("floor", "segment", false),
        ("rock", "polygon", false),
        ("spark", "point", false),
        ("player", "compound", true),
        ("b1", "circle", true),
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

    // --debug also draws the broad phase, trees by default: one per filter group (the player;
    // the five bullets, laser and spark; the three walls), so 9 leaves and 0 + 4 + 2 inner
    // nodes, each tree's root at depth 0.
    let leaves = broad_boxes(&doc, "leaf");
    let mut leaf_ids: Vec<&str> = leaves
        .iter()
        .map(|l| l.iter().find(|a| a.0 == "id").unwrap().1.as_str())
        .collect();
    leaf_ids.sort_unstable();
    let mut ids: Vec<&str> = expected.iter().map(|o| o.0.as_str()).collect();
    ids.sort_unstable();
    assert_eq!(leaf_ids, ids);
    let nodes = broad_boxes(&doc, "node");
    assert_eq!(nodes.len(), 6);
    let roots = leaves
        .iter()
        .chain(&nodes)
        .filter(|b| b.contains(&("depth".to_string(), "0".to_string())))
        .count();
    assert_eq!(roots, 3);
    assert!(
        text.contains(">tree node (fainter: deeper)<") && text.contains(">tree leaf (fat box)<")
    );
    assert!(broad_boxes(&doc, "cell").is_empty());
    // Without --debug: none of it.
    let plain = render("platformer-plain.svg", &[]);
    assert!(!plain.contains(r#"class="broad""#) && !plain.contains(r#"class="aabb""#));
}

#[test]
fn a_grid_shows_the_cells_holding_objects_and_the_large_objects() {
    let text = render("platformer-grid.svg", &["--debug", "--broad", "grid:4"]);
    let doc = roxmltree::Document::parse(&text).unwrap();
    // The same pairs as with trees.
    let hit: Vec<String> = objects(&doc)
        .into_iter()
        .filter(|o| o.2)
        .map(|o| o.0)
        .collect();
    assert_eq!(hit, ["player", "b1"]);
    // Each object in the cell of its min corner (circles' boxes are rounded outward, so b3's
    // corner (8, 8) falls just inside cell (1, 1)): b1 (3.8, 2.8), b2 (4.3, 3.8), b3, rock
    // (16, 6), spark (17.5, 8). The player (11 high), laser, crate and floor span three cells
    // or more and are kept aside.
    let cells: Vec<(i32, i32, u32)> = broad_boxes(&doc, "cell")
        .iter()
        .map(|c| {
            let get = |k: &str| {
                c.iter()
                    .find(|a| a.0 == k)
                    .unwrap()
                    .1
                    .parse::<i64>()
                    .unwrap()
            };
            (get("x") as i32, get("y") as i32, get("objects") as u32)
        })
        .collect();
    assert_eq!(
        cells,
        [(0, 0, 1), (1, 0, 1), (1, 1, 1), (4, 1, 1), (4, 2, 1)]
    );
    let large: Vec<String> = broad_boxes(&doc, "large")
        .into_iter()
        .map(|l| l[0].1.clone())
        .collect();
    assert_eq!(large, ["player", "laser", "crate", "floor"]);
    // A cell is a 4-unit square on screen, and the legend names what is drawn.
    let cell = doc
        .descendants()
        .find(|e| e.attribute("class") == Some("cell"))
        .unwrap();
    let size = |name| cell.attribute(name).unwrap().parse::<f64>().unwrap();
    assert!((size("width") - size("height")).abs() < 0.02);
    assert!(text.contains(">grid cell of min corners (darker: more)<"));
    assert!(text.contains(">too large for a cell<") && !text.contains("tree node"));

    let bad = Command::new(BIN)
        .args(["render", "--broad", "grid:0"])
        .arg(scene("platformer.json"))
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("cell_size must be finite and > 0"));
}

#[test]
fn the_same_scene_gives_the_same_bytes() {
    let run = || {
        Command::new(BIN)
            .args(["render", "--debug"])
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
        .args(["demo", "--cases", "--svg"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(output.status.success());
    let table = String::from_utf8(output.stdout).unwrap();
    let text = std::fs::read_to_string(&out).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    // One cell per table row, titled with its name, holding a and b, red exactly when the
    // table says "hit"; each cell has its own scale bar.
    let rows: Vec<&str> = table
        .lines()
        .filter(|l| l.contains(" hit ") || l.contains(" miss"))
        .collect();
    let cells: Vec<_> = doc
        .descendants()
        .filter(|e| e.attribute("class") == Some("case"))
        .collect();
    assert_eq!(cells.len(), rows.len(), "{table}");
    for (row, cell) in rows.iter().zip(&cells) {
        let title = cell.attribute("data-title").unwrap();
        assert!(row.starts_with(title), "{row} / {title}");
        let drawn: Vec<(String, String, bool)> = cell
            .descendants()
            .filter(|e| e.has_tag_name("g"))
            .filter_map(|e| {
                let class = e.attribute("class")?;
                class.starts_with("object").then(|| {
                    (
                        e.attribute("data-id").unwrap_or_default().to_string(),
                        String::new(),
                        class == "object hit",
                    )
                })
            })
            .collect();
        let mut ids: Vec<&str> = drawn.iter().map(|o| o.0.as_str()).collect();
        ids.sort_unstable();
        assert_eq!(ids, ["a", "b"], "{title}");
        let hit = row.contains(" hit ");
        assert!(drawn.iter().all(|o| o.2 == hit), "{row}");
        let scales = cell
            .descendants()
            .filter(|e| e.attribute("class") == Some("scale"))
            .count();
        assert_eq!(scales, 1, "{title}");
    }
}

#[test]
fn demo_svg_draws_the_last_frame_of_the_simulation() {
    let out = out_file("demo-sim.svg");
    let output = Command::new(BIN)
        .args([
            "demo",
            "--frames",
            "40",
            "--bullets",
            "2000",
            "--debug",
            "--svg",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = std::fs::read_to_string(&out).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let drawn = objects(&doc);
    let ids: Vec<&str> = drawn.iter().map(|o| o.0.as_str()).collect();
    // The ships are named and labelled; bullets and cover are the crowd, merged into paths.
    assert!(ids.contains(&"player"), "{ids:?}");
    assert_eq!(ids.iter().filter(|id| id.starts_with("enemy ")).count(), 12);
    assert_eq!(ids.len(), 13);
    let crowd: usize = doc
        .descendants()
        .filter(|e| e.attribute("class").is_some_and(|c| c.starts_with("crowd")))
        .map(|e| e.attribute("data-count").unwrap().parse::<usize>().unwrap())
        .sum();
    assert!(crowd > 500, "{crowd}");
    let labels: Vec<&str> = doc
        .descendants()
        .filter(|e| e.has_tag_name("text"))
        .filter(|e| e.parent_element().and_then(|p| p.attribute("class")) == Some("labels"))
        .filter_map(|e| e.text())
        .collect();
    assert!(
        labels.contains(&"player") && labels.len() == 13,
        "{labels:?}"
    );
    // --debug: the world's grid, every cell holding an object; the cover blocks (80 wide, in
    // 24-unit cells) are kept aside.
    let cells = broad_boxes(&doc, "cell");
    assert!(cells.len() > 100);
    let held: usize = cells
        .iter()
        .map(|c| {
            c.iter()
                .find(|a| a.0 == "objects")
                .unwrap()
                .1
                .parse::<usize>()
                .unwrap()
        })
        .sum();
    let large = broad_boxes(&doc, "large");
    assert_eq!(held + large.len(), drawn.len() + crowd);
    assert!(large.len() >= 8);
}
