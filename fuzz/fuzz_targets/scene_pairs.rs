//! Scene files into `collide2d pairs`: bytes as a scene file's text (or, after a leading `0`
//! byte, an `Arbitrary` scene written as JSON, which must load), then `pair_lines` with contacts
//! off and on. Never a panic; an error is a message naming an object, never an "internal
//! error"; every output line is a JSON object; the pairs are exactly those of a brute-force
//! loop over every pair (layers and masks both ways, exact `contact`), in file order, with the
//! same contact objects as `collide2d query`.
#![no_main]

use std::collections::HashMap;

use collide2d::{BroadPhase, Contact, Shape};
use collide2d_cli::json::contact_object;
use collide2d_cli::pairs::pair_lines;
use collide2d_cli::scene::{parse_scene, Scene};
use libfuzzer_sys::arbitrary::{Arbitrary, Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};

const LAYERS: [&str; 4] = ["player", "enemy", "wall", "default"];

/// A scene of at most 16 objects on a few layers, as a scene file's text, and its shapes.
fn arbitrary_scene(u: &mut Unstructured) -> Result<(String, Vec<Shape>)> {
    let n = u.int_in_range(0usize..=16)?;
    let mut objects = Vec::with_capacity(n);
    let mut shapes = Vec::with_capacity(n);
    for i in 0..n {
        let shape = Shape::arbitrary(u)?;
        let mut object = json!({ "id": format!("o{i}"), "shape": shape });
        if bool::arbitrary(u)? {
            object["layer"] = json!(u.choose(&LAYERS)?);
        }
        if bool::arbitrary(u)? {
            let mut mask = Vec::new();
            for layer in LAYERS {
                if bool::arbitrary(u)? {
                    mask.push(layer);
                }
            }
            object["mask"] = json!(mask);
        }
        if bool::arbitrary(u)? {
            object["static"] = json!(bool::arbitrary(u)?);
        }
        objects.push(object);
        shapes.push(shape);
    }
    Ok((json!({ "objects": objects }).to_string(), shapes))
}

fn quoted(s: &str) -> String {
    serde_json::to_string(s).expect("a string serialises")
}

fn finite_box(shape: &Shape) -> bool {
    let b = shape.aabb();
    b.min().is_finite() && b.max().is_finite()
}

/// Every pair `(a, b)`, `a < b` in file order, whose layers and masks accept each other and whose
/// shapes touch, with their contact: no broad phase, no bounding-box shortcut.
fn brute_force_pairs(scene: &Scene) -> Vec<(usize, usize, Contact)> {
    let objects = &scene.objects;
    let mut hits = Vec::new();
    for (a, oa) in objects.iter().enumerate() {
        for (b, ob) in objects.iter().enumerate().skip(a + 1) {
            if oa.accepts(ob) {
                if let Some(contact) = collide2d::contact(&oa.shape, &ob.shape) {
                    hits.push((a, b, contact));
                }
            }
        }
    }
    hits
}

fn check(scene: &Scene) {
    let index: HashMap<&str, usize> = scene
        .objects
        .iter()
        .enumerate()
        .map(|(i, o)| (o.id.as_str(), i))
        .collect();
    assert_eq!(index.len(), scene.objects.len(), "ids are unique");
    let hits = brute_force_pairs(scene);
    // Every broad phase gives the same lines: the default tree, a coarse grid and a fine one.
    let broad_phases = [
        BroadPhase::default(),
        BroadPhase::grid(4.0).expect("valid cell size"),
        BroadPhase::grid(0.25).expect("valid cell size"),
    ];
    for (contacts, broad) in [false, true].into_iter().flat_map(|c| broad_phases.map(|b| (c, b))) {
        let lines = match pair_lines(scene, broad, contacts) {
            Ok(lines) => lines,
            Err(message) => {
                assert!(message.starts_with("objects["), "{message}");
                assert!(!message.contains("internal error"), "{message}");
                // Only a shape whose bounding box is not finite is refused.
                assert!(
                    scene.objects.iter().any(|o| !finite_box(&o.shape)),
                    "{message}"
                );
                continue;
            }
        };
        let mut found = Vec::with_capacity(lines.len());
        for line in &lines {
            let value: Value = serde_json::from_str(line).expect("each line is JSON");
            let object = value.as_object().expect("each line is an object");
            assert_eq!(object.len(), if contacts { 3 } else { 2 }, "{line}");
            let id = |key: &str| index[object[key].as_str().expect("ids are strings")];
            found.push((id("a"), id("b")));
        }
        let want: Vec<(usize, usize)> = hits.iter().map(|&(a, b, _)| (a, b)).collect();
        assert_eq!(found, want, "the brute-force pairs, in file order");
        assert!(found.windows(2).all(|w| w[0] < w[1]) && found.iter().all(|(a, b)| a < b));
        if contacts {
            for (line, (a, b, contact)) in lines.iter().zip(&hits) {
                let want = format!(
                    r#"{{"a": {}, "b": {}, "contact": {}}}"#,
                    quoted(&scene.objects[*a].id),
                    quoted(&scene.objects[*b].id),
                    contact_object(contact).expect("finite contact")
                );
                assert_eq!(line, &want);
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    if let Some((&0, rest)) = data.split_first() {
        let mut u = Unstructured::new(rest);
        let Ok((text, shapes)) = arbitrary_scene(&mut u) else {
            return;
        };
        let scene = parse_scene(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        // The same shapes, as JSON: a thin triangle built as a `ConvexPolygon` may load as a
        // one-part `Polygon`, the same points.
        let json = |s: &Shape| serde_json::to_value(s).expect("a shape serialises");
        let loaded: Vec<Value> = scene.objects.iter().map(|o| json(&o.shape)).collect();
        assert_eq!(
            loaded,
            shapes.iter().map(json).collect::<Vec<_>>(),
            "{text}"
        );
        check(&scene);
        return;
    }
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match parse_scene(text) {
        Ok(scene) => check(&scene),
        Err(e) => assert!(!e.0.is_empty()),
    }
});
