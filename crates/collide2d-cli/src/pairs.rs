//! `collide2d pairs SCENE`: every colliding pair of a scene, through a
//! [`CollisionWorld`].
//!
//! Objects are inserted in file order into an empty world, so handle order is file order and the
//! world's sorted pairs are already in FORMAT.md's order: by position of `a`, then of `b`.

use collide2d::{BroadPhase, CollisionWorld, Filter};

use crate::json::contact_object;
use crate::scene::Scene;

/// The output lines (without line breaks) for `scene`: `{"a": ID, "b": ID}` per colliding pair,
/// with the `contact` object of `query` added when `contacts` is set. The pairs are found by a
/// world with the broad phase `broad`; every broad phase gives the same lines.
///
/// ```
/// use collide2d::BroadPhase;
/// use collide2d_cli::{pairs::pair_lines, scene::parse_scene};
/// let scene = parse_scene(r#"{"objects": [
///     {"id": "p", "shape": {"type": "circle", "center": [0, 0], "radius": 1}},
///     {"id": "q", "shape": {"type": "point", "p": [1, 0]}}
/// ]}"#)?;
/// let lines = pair_lines(&scene, BroadPhase::default(), false)?;
/// assert_eq!(lines, [r#"{"a": "p", "b": "q"}"#]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// A message naming the object (`objects[3] "x": ...`) when its shape's bounding box is not
/// finite, or when a contact holds a number JSON cannot write.
pub fn pair_lines(scene: &Scene, broad: BroadPhase, contacts: bool) -> Result<Vec<String>, String> {
    let world = scene_world(scene, broad, contacts)?;
    let mut lines = Vec::with_capacity(world.pairs().len());
    let contacts = world
        .contacts()
        .iter()
        .map(Some)
        .chain(core::iter::repeat(None));
    for (pair, contact) in world.pairs().iter().zip(contacts) {
        let (a, b) = (pair.a.index() as usize, pair.b.index() as usize);
        let mut line = format!(
            r#"{{"a": {}, "b": {}"#,
            quoted(&scene.objects[a].id),
            quoted(&scene.objects[b].id)
        );
        if let Some(c) = contact {
            let object = contact_object(c).ok_or_else(|| {
                format!(
                    "objects[{a}] {} and objects[{b}] {}: internal error: a contact number is not finite (please report this scene)",
                    quoted(&scene.objects[a].id),
                    quoted(&scene.objects[b].id)
                )
            })?;
            line += &format!(r#", "contact": {object}"#);
        }
        line.push('}');
        lines.push(line);
    }
    Ok(lines)
}

/// A world holding `scene`'s objects with their layers and masks, all dynamic, updated once
/// (with a contact per pair when `contacts` is set). Objects are inserted in file order, so an
/// object's handle index is its position in the file, its data that position again, and the
/// world's sorted pairs are in FORMAT.md's order. `pairs` and `render` both use it.
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
    let mut world = CollisionWorld::new(broad);
    world.set_contacts(contacts);
    for (index, object) in scene.objects.iter().enumerate() {
        let filter = Filter::new(u64::from(object.layer), u64::from(object.mask));
        world
            .insert(object.shape.clone(), filter, object.kind(), index)
            .map_err(|e| format!("objects[{index}] {}: {e}", quoted(&object.id)))?;
    }
    world.update();
    Ok(world)
}

/// Parses a broad-phase choice of the command line: `grid:SIZE` (the cell size, finite and
/// positive), `tree` (margin 0.1, the world's default) or `tree:MARGIN` (finite, `>= 0`).
///
/// ```
/// use collide2d::BroadPhase;
/// use collide2d_cli::pairs::parse_broad_phase;
/// assert_eq!(parse_broad_phase("grid:2.5"), Ok(BroadPhase::grid(2.5).unwrap()));
/// assert_eq!(parse_broad_phase("tree"), Ok(BroadPhase::default()));
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
        None if text == "tree" => Ok(BroadPhase::default()),
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

    /// A row of unit circles 1.5 apart on layers a, b, c in turn, with varied masks.
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
                    r#"{{"id": "o{i}", "shape": {{"type": "circle", "center": [{}, {}], "radius": 1}}, "layer": "{}", "mask": {}}}"#,
                    (i % 7) as f32 * 1.5,
                    (i / 7) as f32 * 1.5,
                    layers[i % 3],
                    masks[(i / 3) % 4]
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
        assert_eq!(
            pair_lines(&scene, BroadPhase::default(), false).unwrap(),
            want
        );
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
