//! `collide2d pairs SCENE`: every colliding pair of a scene, written as it is found.
//!
//! The lines come in the formats document's order (by position of `a`, then of `b`). A scene
//! with up to [`HELD_PAIRS_PER_OBJECT`] pairs per object gets them from one world update; a
//! denser one is streamed with no list of pairs in between, so a scene whose objects all
//! overlap (10,000 objects: 49,995,000 lines) runs in the memory of its objects.

use std::io::{self, Write};

use collide2d::limits::MAX_UPDATE_PAIRS;
use collide2d::{contact, BroadPhase, CollisionWorld, Filter, UpdateStats};

use crate::json::contact_object;
use crate::scene::Scene;

/// Why [`write_pairs`] stopped.
#[derive(Debug)]
pub enum PairsError {
    /// The scene cannot be run: a message naming the object (`objects[3] "x": ...`).
    Scene(String),
    /// Writing the output failed.
    Write(io::Error),
}

/// Pairs [`write_pairs`] may hold in memory at once, per object of the scene (24 bytes each,
/// less than the object itself takes): a scene with no more pairs than that gets them from one
/// world update, which is faster than one query per object when pairs are few; a denser scene
/// is streamed from queries.
pub const HELD_PAIRS_PER_OBJECT: usize = 8;

/// Writes one line per colliding pair of `scene` to `out`: `{"a": ID, "b": ID}`, with the
/// `contact` object of `query` added when `contacts` is set, in the formats document's order.
/// The pairs are found through a world with the broad phase `broad`; every broad phase gives
/// the same lines. Memory stays that of the scene's objects plus at most
/// [`HELD_PAIRS_PER_OBJECT`] pairs per object, however many pairs there are.
///
/// ```
/// use collide2d::BroadPhase;
/// use collide2d_cli::{pairs::write_pairs, scene::parse_scene};
/// let scene = parse_scene(r#"{"objects": [
///     {"id": "p", "shape": {"type": "circle", "center": [0, 0], "radius": 1}},
///     {"id": "q", "shape": {"type": "point", "p": [1, 0]}}
/// ]}"#)?;
/// let mut out = Vec::new();
/// write_pairs(&scene, BroadPhase::default(), false, &mut out).unwrap();
/// assert_eq!(out, b"{\"a\": \"p\", \"b\": \"q\"}\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`PairsError::Scene`] naming the object when its shape's bounding box is not finite (before
/// anything is written) or when a contact holds a number JSON cannot write (a library bug);
/// [`PairsError::Write`] when `out` fails.
pub fn write_pairs(
    scene: &Scene,
    broad: BroadPhase,
    contacts: bool,
    out: &mut impl Write,
) -> Result<(), PairsError> {
    write_pairs_holding(scene, broad, contacts, held_pairs(scene), out)
}

/// [`write_pairs`], holding at most `max_held` pairs: the world's update answers when the
/// scene has no more pairs than that; otherwise the update stops early and, object by object
/// in file order, the world's [`objects_overlapping`](CollisionWorld::objects_overlapping)
/// query gives the later objects it collides with, in file order.
fn write_pairs_holding(
    scene: &Scene,
    broad: BroadPhase,
    contacts: bool,
    max_held: usize,
    out: &mut impl Write,
) -> Result<(), PairsError> {
    let (world, stats) =
        filtered_world(scene, broad, false, max_held).map_err(PairsError::Scene)?;
    let ids: Vec<String> = scene.objects.iter().map(|o| quoted(&o.id)).collect();
    let line = |out: &mut dyn Write, i: usize, j: usize| -> Result<(), PairsError> {
        if !contacts {
            return writeln!(out, r#"{{"a": {}, "b": {}}}"#, ids[i], ids[j])
                .map_err(PairsError::Write);
        }
        let object = contact(&scene.objects[i].shape, &scene.objects[j].shape)
            .as_ref()
            .and_then(contact_object)
            .ok_or_else(|| {
                PairsError::Scene(format!(
                    "objects[{i}] {} and objects[{j}] {}: internal error: no finite contact for an intersecting pair (please report this scene)",
                    ids[i], ids[j]
                ))
            })?;
        writeln!(
            out,
            r#"{{"a": {}, "b": {}, "contact": {object}}}"#,
            ids[i], ids[j]
        )
        .map_err(PairsError::Write)
    };
    if !stats.truncated {
        // Handles are file positions and the world's pairs are sorted: the formats' order.
        for pair in world.pairs() {
            line(out, pair.a.index() as usize, pair.b.index() as usize)?;
        }
        return Ok(());
    }
    for (i, a) in scene.objects.iter().enumerate() {
        let found = world.objects_overlapping(&a.shape, u64::from(a.mask));
        // In handle order, which is file order: the later objects are the tail.
        let later = found.partition_point(|h| h.index() as usize <= i);
        for handle in &found[later..] {
            let j = handle.index() as usize;
            if scene.objects[i].accepts(&scene.objects[j]) {
                line(out, i, j)?;
            }
        }
    }
    Ok(())
}

/// The lines [`write_pairs`] writes (without line breaks), as a list: for tests and small
/// scenes.
///
/// # Errors
/// As [`write_pairs`], with the message.
pub fn pair_lines(scene: &Scene, broad: BroadPhase, contacts: bool) -> Result<Vec<String>, String> {
    lines_holding(scene, broad, contacts, held_pairs(scene))
}

/// The pairs [`write_pairs`] may hold for `scene`: [`HELD_PAIRS_PER_OBJECT`] per object.
fn held_pairs(scene: &Scene) -> usize {
    scene.objects.len().saturating_mul(HELD_PAIRS_PER_OBJECT)
}

fn lines_holding(
    scene: &Scene,
    broad: BroadPhase,
    contacts: bool,
    max_held: usize,
) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    write_pairs_holding(scene, broad, contacts, max_held, &mut out).map_err(|e| match e {
        PairsError::Scene(message) => message,
        PairsError::Write(e) => e.to_string(),
    })?;
    let text = String::from_utf8(out).map_err(|e| e.to_string())?;
    Ok(text.lines().map(str::to_string).collect())
}

/// `scene`'s objects in a world, in file order (handle index = position in the file, data that
/// position again), with their layers, masks and kinds, updated once with at most `max_pairs`
/// pairs.
fn filtered_world(
    scene: &Scene,
    broad: BroadPhase,
    contacts: bool,
    max_pairs: usize,
) -> Result<(CollisionWorld<usize>, UpdateStats), String> {
    let mut world = CollisionWorld::new(broad);
    world.set_contacts(contacts);
    world.set_max_pairs(max_pairs);
    for (index, object) in scene.objects.iter().enumerate() {
        let filter = Filter::new(u64::from(object.layer), u64::from(object.mask));
        world
            .insert(object.shape.clone(), filter, object.kind(), index)
            .map_err(|e| format!("objects[{index}] {}: {e}", quoted(&object.id)))?;
    }
    let stats = world.update();
    Ok((world, stats))
}

/// A world holding `scene`'s objects with their layers and masks (static ones as
/// [`ObjectKind::Static`], the others dynamic), updated once
/// (with a contact per pair when `contacts` is set). Objects are inserted in file order, so an
/// object's handle index is its position in the file, its data that position again, and the
/// world's sorted pairs are in formats.md's order. `pairs` and `render` both use it.
///
/// ```
/// use collide2d::BroadPhase;
/// use collide2d_cli::{pairs::scene_world, scene::parse_scene};
/// let scene = parse_scene(r#"{"objects": [
///     {"id": "p", "shape": {"type": "circle", "center": [0, 0], "radius": 1}},
///     {"id": "q", "shape": {"type": "point", "p": [1, 0]}}
/// ]}"#)?;
/// let world = scene_world(&scene, BroadPhase::grid(2.0)?, true)?;
/// let pair = world.pairs()[0];
/// assert_eq!((pair.a.index(), pair.b.index()), (0, 1));
/// assert_eq!(world.contacts().len(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// A message naming the object (`objects[3] "x": ...`) when its shape's bounding box is not
/// finite.
pub fn scene_world(
    scene: &Scene,
    broad: BroadPhase,
    contacts: bool,
) -> Result<CollisionWorld<usize>, String> {
    filtered_world(scene, broad, contacts, MAX_UPDATE_PAIRS).map(|(world, _)| world)
}

/// Parses a broad-phase choice of the command line: `grid:SIZE` (the cell size, finite and
/// positive), `tree` (margin 0.1) or `tree:MARGIN` (finite, `>= 0`).
///
/// ```
/// use collide2d::BroadPhase;
/// use collide2d_cli::pairs::parse_broad_phase;
/// assert_eq!(parse_broad_phase("grid:2.5"), Ok(BroadPhase::grid(2.5).unwrap()));
/// assert_eq!(parse_broad_phase("tree"), Ok(BroadPhase::tree(0.1)));
/// assert!(parse_broad_phase("grid").is_err());
/// ```
///
/// # Errors
/// A message naming the expected forms, or the bad number.
pub fn parse_broad_phase(text: &str) -> Result<BroadPhase, String> {
    let number = |s: &str| {
        s.trim()
            .parse::<f32>()
            .map_err(|_| format!("expected a number after the colon, got {s:?}"))
    };
    match text.split_once(':') {
        None if text == "tree" => Ok(BroadPhase::tree(0.1)),
        Some(("tree", margin)) => {
            let margin = number(margin)?;
            if margin.is_finite() && margin >= 0.0 {
                Ok(BroadPhase::tree(margin))
            } else {
                Err(format!("tree margin must be finite and >= 0, got {margin}"))
            }
        }
        Some(("grid", size)) => BroadPhase::grid(number(size)?).map_err(|e| format!("grid {e}")),
        _ => Err(format!(
            "expected grid:SIZE, tree or tree:MARGIN, got {text:?}"
        )),
    }
}

/// `s` as a JSON string literal.
fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| format!("\"{s}\""))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::parse_scene;
    use collide2d::intersects;

    /// A row of unit circles 1.5 apart on layers a, b, c in turn, with varied masks, two in
    /// five static.
    fn row_scene(n: usize) -> String {
        let layers = ["a", "b", "c"];
        let masks = [
            r#"["a", "b", "c"]"#,
            r#"["a"]"#,
            r#"["b", "c"]"#,
            r#"["c"]"#,
        ];
        let objects: Vec<String> = (0..n)
            .map(|i| {
                format!(
                    r#"{{"id": "o{i}", "shape": {{"type": "circle", "center": [{}, {}], "radius": 1}}, "layer": "{}", "mask": {}, "static": {}}}"#,
                    (i % 7) as f32 * 1.5,
                    (i / 7) as f32 * 1.5,
                    layers[i % 3],
                    masks[(i / 3) % 4],
                    i % 5 < 2
                )
            })
            .collect();
        format!(r#"{{"objects": [{}]}}"#, objects.join(", "))
    }

    #[test]
    fn pairs_equal_an_all_pairs_loop_in_file_order() {
        let scene = parse_scene(&row_scene(40)).unwrap();
        let mut want = Vec::new();
        for (i, a) in scene.objects.iter().enumerate() {
            for b in &scene.objects[i + 1..] {
                if a.accepts(b) && intersects(&a.shape, &b.shape) {
                    want.push(format!(r#"{{"a": "{}", "b": "{}"}}"#, a.id, b.id));
                }
            }
        }
        assert!(want.len() > 20);
        for broad in [BroadPhase::default(), BroadPhase::grid(0.7).unwrap()] {
            assert_eq!(pair_lines(&scene, broad, false).unwrap(), want);
        }
    }

    #[test]
    fn broad_phases_parse_or_say_what_is_expected() {
        assert_eq!(parse_broad_phase("tree:0"), Ok(BroadPhase::tree(0.0)));
        assert_eq!(parse_broad_phase("tree:1.5"), Ok(BroadPhase::tree(1.5)));
        assert_eq!(
            parse_broad_phase("grid:4"),
            Ok(BroadPhase::grid(4.0).unwrap())
        );
        let error = |text| parse_broad_phase(text).unwrap_err();
        assert_eq!(
            error("grid:0"),
            "grid cell_size must be finite and > 0, got 0"
        );
        assert_eq!(
            error("tree:-1"),
            "tree margin must be finite and >= 0, got -1"
        );
        assert_eq!(
            error("grid:x"),
            r#"expected a number after the colon, got "x""#
        );
        assert_eq!(
            error("sap"),
            r#"expected grid:SIZE, tree or tree:MARGIN, got "sap""#
        );
    }

    #[test]
    fn every_broad_phase_gives_the_same_pairs() {
        let scene = parse_scene(&row_scene(40)).unwrap();
        let pairs = |broad| {
            let world = scene_world(&scene, broad, true).unwrap();
            world.pairs().to_vec()
        };
        let tree = pairs(BroadPhase::default());
        assert!(tree.len() > 20);
        assert_eq!(pairs(BroadPhase::grid(0.7).unwrap()), tree);
        assert_eq!(pairs(BroadPhase::grid(3.0).unwrap()), tree);
        assert_eq!(pairs(BroadPhase::tree(0.0)), tree);
    }

    #[test]
    fn streamed_lines_are_a_world_updates_pairs_and_contacts() {
        let scene = parse_scene(&row_scene(40)).unwrap();
        for broad in [BroadPhase::default(), BroadPhase::grid(3.0).unwrap()] {
            let world = scene_world(&scene, broad, true).unwrap();
            let want: Vec<String> = world
                .pairs()
                .iter()
                .zip(world.contacts())
                .map(|(p, c)| {
                    let (a, b) = (p.a.index() as usize, p.b.index() as usize);
                    format!(
                        r#"{{"a": "{}", "b": "{}", "contact": {}}}"#,
                        scene.objects[a].id,
                        scene.objects[b].id,
                        contact_object(c).unwrap()
                    )
                })
                .collect();
            assert!(want.len() > 20);
            assert_eq!(pair_lines(&scene, broad, true).unwrap(), want);
        }
    }

    #[test]
    fn streamed_lines_equal_held_ones() {
        // A cap of 3 pairs stops the update at once, so the lines come from queries.
        let scene = parse_scene(&row_scene(40)).unwrap();
        for broad in [BroadPhase::default(), BroadPhase::grid(0.7).unwrap()] {
            for contacts in [false, true] {
                let held = lines_holding(&scene, broad, contacts, usize::MAX).unwrap();
                assert!(held.len() > 20);
                assert_eq!(lines_holding(&scene, broad, contacts, 3).unwrap(), held);
            }
        }
    }

    #[test]
    fn contacts_are_the_query_contact_objects() {
        let scene = parse_scene(&row_scene(10)).unwrap();
        let lines = pair_lines(&scene, BroadPhase::default(), true).unwrap();
        let plain = pair_lines(&scene, BroadPhase::default(), false).unwrap();
        assert_eq!(lines.len(), plain.len());
        for (with, without) in lines.iter().zip(&plain) {
            assert!(with.starts_with(without.trim_end_matches('}')));
            assert!(with.contains(r#", "contact": {"normal": "#), "{with}");
        }
    }
}
