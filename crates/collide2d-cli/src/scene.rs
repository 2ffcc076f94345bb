//! The scene files of `docs/formats.md`: `{"objects": [{"id", "shape", "layer", "mask", "static"}, ...]}`.
//!
//! Layer names become bits: the n-th distinct layer name, in order of first appearance in the
//! file (as a `layer` or in a `mask`), is bit n, so the same file always gives the same bits.
//! An absent `mask` means every layer (all bits set). A mask may name a layer no object is on:
//! it selects nothing, which is what a level without such objects means.
//!
//! A scene loads whole or not at all. Errors name the object as formats.md says,
//! `objects[12] "b17": circle.radius must be >= 0, got -1`, or `objects[12]: ...` while its id
//! is not known. The file is read in two steps (`raw.rs`): its syntax and its list of objects,
//! counted up to [`MAX_SCENE_OBJECTS`], with each value kept as raw text; then object by
//! object. Memory stays within a small multiple of the file's size, whatever it holds.

use std::fmt;

use collide2d::limits::MAX_SCENE_OBJECTS;
use collide2d::{ObjectKind, Shape};
use serde_json::value::RawValue;

use crate::raw::{self, type_name, Fields};

/// The most distinct layer names a scene may use: one bit each of a `u32`.
pub const MAX_LAYERS: usize = 32;

/// The layer of an object that names none.
pub const DEFAULT_LAYER: &str = "default";

/// A loaded scene: its objects in file order and the layer names behind the bits.
#[derive(Debug, Clone)]
pub struct Scene {
    /// The objects, in the order of the file's `objects` list.
    pub objects: Vec<SceneObject>,
    /// `layers[n]` is the name of layer bit `1 << n`, in order of first appearance.
    pub layers: Vec<String>,
}

/// One object of a [`Scene`].
#[derive(Debug, Clone)]
pub struct SceneObject {
    /// The object's `id`, unique in the scene.
    pub id: String,
    /// Its shape, validated.
    pub shape: Shape,
    /// Its layer as a single bit (see [`Scene::layers`]).
    pub layer: u32,
    /// The layers it collides with, one bit each; `u32::MAX` when the file gives no `mask`.
    pub mask: u32,
    /// Level geometry (`"static": true`): two static objects are never a pair.
    pub is_static: bool,
}

impl SceneObject {
    /// Whether the pair is tested at all: each one's layer is in the other's mask, and they
    /// are not both static.
    #[must_use]
    pub fn accepts(&self, other: &SceneObject) -> bool {
        self.layer & other.mask != 0
            && other.layer & self.mask != 0
            && !(self.is_static && other.is_static)
    }

    /// The world kind it is inserted as: `Static` for level geometry, else `Dynamic`.
    #[must_use]
    pub fn kind(&self) -> ObjectKind {
        if self.is_static {
            ObjectKind::Static
        } else {
            ObjectKind::Dynamic
        }
    }
}

/// Why a scene did not load: a message naming the object and field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SceneError(pub String);

impl fmt::Display for SceneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SceneError {}

const OBJECT_FIELDS: [&str; 5] = ["id", "shape", "layer", "mask", "static"];

/// Loads a scene from the text of a scene file.
///
/// ```
/// use collide2d_cli::scene::parse_scene;
/// let scene = parse_scene(r#"{"objects": [
///     {"id": "player", "shape": {"type": "rect", "x": 0, "y": 0, "w": 16, "h": 32},
///      "layer": "player", "mask": ["enemy_bullet"]},
///     {"id": "b17", "shape": {"type": "circle", "center": [20, 10], "radius": 4},
///      "layer": "enemy_bullet", "mask": ["player"]}
/// ]}"#)?;
/// assert_eq!(scene.layers, ["player", "enemy_bullet"]);
/// assert!(scene.objects[0].accepts(&scene.objects[1]));
/// # Ok::<(), collide2d_cli::scene::SceneError>(())
/// ```
///
/// # Errors
/// Invalid JSON, a repeated key, a missing or extra field, a bad shape, a repeated `id`, more
/// than [`MAX_LAYERS`] distinct layer names or more than [`MAX_SCENE_OBJECTS`] objects; the
/// message names the object.
pub fn parse_scene(text: &str) -> Result<Scene, SceneError> {
    parse_scene_bytes(text.as_bytes())
}

/// [`parse_scene`] from the bytes of a scene file, which must be UTF-8 without a byte-order
/// mark.
///
/// # Errors
/// As [`parse_scene`]; a byte-order mark is named.
pub fn parse_scene_bytes(bytes: &[u8]) -> Result<Scene, SceneError> {
    if let Some(message) = raw::bom_message(bytes) {
        return Err(SceneError(format!("the file {message}")));
    }
    let top: &RawValue =
        serde_json::from_slice(bytes).map_err(|e| SceneError(raw::syntax_message(&e, false)))?;
    let top_fields = Fields::of(top).map_err(SceneError)?.ok_or_else(|| {
        SceneError(format!(
            r#"expected a scene object {{"objects": [...]}}, got {}"#,
            type_name(top)
        ))
    })?;
    if let Some(extra) = top_fields.extra(&["objects"]) {
        return Err(SceneError(format!(
            "{extra} is not a field of a scene (expected objects)"
        )));
    }
    let list = top_fields
        .get("objects")
        .ok_or_else(|| SceneError("objects is missing".to_string()))?;
    let items = match raw::items(list, MAX_SCENE_OBJECTS) {
        Ok(Some(items)) => items,
        Ok(None) => {
            return Err(SceneError(format!(
                "objects must be an array, got {}",
                type_name(list)
            )))
        }
        Err(max) => {
            return Err(SceneError(format!(
                "objects holds more than {max} objects (limit MAX_SCENE_OBJECTS)"
            )))
        }
    };
    let mut loader = Loader::default();
    let mut objects = Vec::with_capacity(items.len());
    for (index, item) in items.into_iter().enumerate() {
        objects.push(loader.object(index, item)?);
    }
    Ok(Scene {
        objects,
        layers: loader.layers,
    })
}

/// The state carried from one object to the next: layer bits and the ids seen.
#[derive(Default)]
struct Loader {
    layers: Vec<String>,
    /// Every id seen so far with its index, for the repeated-id message.
    ids: std::collections::HashMap<String, usize>,
}

impl Loader {
    fn object(&mut self, index: usize, item: &RawValue) -> Result<SceneObject, SceneError> {
        let in_object = |message: String| SceneError(format!("objects[{index}]: {message}"));
        let fields = Fields::of(item).map_err(in_object)?.ok_or_else(|| {
            in_object(format!(
                r#"expected an object {{"id": ..., "shape": ...}}, got {}"#,
                type_name(item)
            ))
        })?;
        let id = match fields.get("id") {
            None => return Err(in_object("id is missing".to_string())),
            Some(raw) => raw::string(raw)
                .ok_or_else(|| in_object(format!("id must be a string, got {}", type_name(raw))))?,
        };
        let at =
            |message: String| SceneError(format!("objects[{index}] {}: {message}", quoted(&id)));
        if let Some(&first) = self.ids.get(&id) {
            return Err(at(format!("id is repeated (first at objects[{first}])")));
        }
        if let Some(extra) = fields.extra(&OBJECT_FIELDS) {
            return Err(at(format!(
                "{extra} is not a field of an object (expected {})",
                OBJECT_FIELDS.join(", ")
            )));
        }
        let shape = match fields.get("shape") {
            None => return Err(at("shape is missing".to_string())),
            Some(raw) if type_name(raw) == "an object" => raw::shape(raw).map_err(at)?,
            Some(raw) => {
                return Err(at(format!(
                    r#"shape must be a shape object {{"type": ...}}, got {}"#,
                    type_name(raw)
                )))
            }
        };
        let layer_name = match fields.get("layer") {
            None => DEFAULT_LAYER.to_string(),
            Some(raw) => raw::string(raw)
                .ok_or_else(|| at(format!("layer must be a string, got {}", type_name(raw))))?,
        };
        let layer = self.layer_bit(&layer_name).map_err(at)?;
        let mask = match fields.get("mask") {
            None => u32::MAX,
            Some(raw) => match raw::items(raw, usize::MAX) {
                Ok(Some(names)) => self.mask_bits(&names).map_err(at)?,
                _ => {
                    return Err(at(format!(
                        "mask must be an array of layer names, got {}",
                        type_name(raw)
                    )))
                }
            },
        };
        let is_static = match fields.get("static") {
            None => false,
            Some(raw) => match raw.get() {
                "true" => true,
                "false" => false,
                _ => {
                    return Err(at(format!(
                        "static must be true or false, got {}",
                        type_name(raw)
                    )))
                }
            },
        };
        self.ids.insert(id.clone(), index);
        Ok(SceneObject {
            id,
            shape,
            layer,
            mask,
            is_static,
        })
    }

    /// The bit of layer `name`, given a new bit on its first appearance.
    fn layer_bit(&mut self, name: &str) -> Result<u32, String> {
        let n = match self.layers.iter().position(|l| l == name) {
            Some(n) => n,
            None if self.layers.len() < MAX_LAYERS => {
                self.layers.push(name.to_string());
                self.layers.len() - 1
            }
            None => {
                return Err(format!(
                    "layer {} would be layer number {}; a scene may use at most {MAX_LAYERS} layer names",
                    quoted(name),
                    MAX_LAYERS + 1
                ))
            }
        };
        Ok(1 << n)
    }

    /// The bits of the layers a mask names.
    fn mask_bits(&mut self, names: &[&RawValue]) -> Result<u32, String> {
        let mut bits = 0;
        for (i, name) in names.iter().enumerate() {
            let Some(name) = raw::string(name) else {
                return Err(format!(
                    "mask[{i}] must be a layer name (a string), got {}",
                    type_name(name)
                ));
            };
            bits |= self.layer_bit(&name)?;
        }
        Ok(bits)
    }
}

/// `s` as a JSON string literal, for messages.
fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| format!("\"{s}\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    const CIRCLE: &str = r#"{"type": "circle", "center": [0, 0], "radius": 1}"#;

    fn err(text: &str) -> String {
        parse_scene(text).unwrap_err().0
    }

    #[test]
    fn layers_become_bits_in_order_of_first_appearance() {
        let text = format!(
            r#"{{"objects": [
                {{"id": "player", "shape": {CIRCLE}, "layer": "player", "mask": ["enemy", "enemy_bullet"]}},
                {{"id": "b17", "shape": {CIRCLE}, "layer": "enemy_bullet", "mask": ["player"]}},
                {{"id": "rock", "shape": {CIRCLE}}}
            ]}}"#
        );
        let scene = parse_scene(&text).unwrap();
        assert_eq!(scene.layers, ["player", "enemy", "enemy_bullet", "default"]);
        let [player, bullet, rock] = &scene.objects[..] else {
            panic!("three objects")
        };
        assert_eq!(
            (player.id.as_str(), player.layer, player.mask),
            ("player", 1, 0b110)
        );
        assert_eq!((bullet.layer, bullet.mask), (0b100, 0b001));
        assert_eq!((rock.layer, rock.mask), (0b1000, u32::MAX));
        assert!(player.accepts(bullet) && bullet.accepts(player));
        // The rock collides with everything, but the player's mask leaves it out: both must agree.
        assert!(!player.accepts(rock) && !rock.accepts(player));
        assert!(!bullet.accepts(rock));
    }

    #[test]
    fn static_objects_never_accept_each_other() {
        let text = format!(
            r#"{{"objects": [
                {{"id": "wall", "shape": {CIRCLE}, "static": true}},
                {{"id": "floor", "shape": {CIRCLE}, "static": true}},
                {{"id": "ball", "shape": {CIRCLE}, "static": false}}
            ]}}"#
        );
        let scene = parse_scene(&text).unwrap();
        let [wall, floor, ball] = &scene.objects[..] else {
            panic!("three objects")
        };
        assert!(wall.is_static && floor.is_static && !ball.is_static);
        assert!(!wall.accepts(floor) && !floor.accepts(wall));
        assert!(wall.accepts(ball) && ball.accepts(floor));
        let bad = format!(r#"{{"objects": [{{"id": "x", "shape": {CIRCLE}, "static": 1}}]}}"#);
        assert_eq!(
            err(&bad),
            r#"objects[0] "x": static must be true or false, got a number"#
        );
    }

    #[test]
    fn an_empty_scene_loads() {
        let scene = parse_scene(r#"{"objects": []}"#).unwrap();
        assert!(scene.objects.is_empty() && scene.layers.is_empty());
    }

    #[test]
    fn errors_name_the_object_and_field() {
        let bad_radius = r#"{"objects": [{"id": "a", "shape": {"type": "point", "p": [0, 0]}},
            {"id": "b17", "shape": {"type": "circle", "center": [0, 0], "radius": -1}}]}"#;
        assert_eq!(
            err(bad_radius),
            r#"objects[1] "b17": circle.radius must be >= 0, got -1"#
        );
        let twice = format!(
            r#"{{"objects": [{{"id": "a", "shape": {CIRCLE}}}, {{"id": "a", "shape": {CIRCLE}}}]}}"#
        );
        assert_eq!(
            err(&twice),
            r#"objects[1] "a": id is repeated (first at objects[0])"#
        );
        assert_eq!(
            err(&format!(r#"{{"objects": [{{"shape": {CIRCLE}}}]}}"#)),
            "objects[0]: id is missing"
        );
        assert_eq!(
            err(r#"{"objects": [{"id": 3}]}"#),
            "objects[0]: id must be a string, got a number"
        );
        assert_eq!(
            err(r#"{"objects": [{"id": "x"}]}"#),
            r#"objects[0] "x": shape is missing"#
        );
        assert_eq!(
            err(&format!(
                r#"{{"objects": [{{"id": "x", "shape": {CIRCLE}, "colour": "red"}}]}}"#
            )),
            r#"objects[0] "x": colour is not a field of an object (expected id, shape, layer, mask, static)"#
        );
        assert_eq!(
            err(&format!(
                r#"{{"objects": [{{"id": "x", "shape": {CIRCLE}, "mask": "player"}}]}}"#
            )),
            r#"objects[0] "x": mask must be an array of layer names, got a string"#
        );
        assert_eq!(
            err(&format!(
                r#"{{"objects": [{{"id": "x", "shape": {CIRCLE}, "mask": ["a", 2]}}]}}"#
            )),
            r#"objects[0] "x": mask[1] must be a layer name (a string), got a number"#
        );
        assert_eq!(
            err(&format!(
                r#"{{"objects": [{{"id": "x", "shape": {CIRCLE}, "layer": null}}]}}"#
            )),
            r#"objects[0] "x": layer must be a string, got null"#
        );
    }

    #[test]
    fn errors_in_the_file_as_a_whole() {
        assert_eq!(
            err("[]"),
            r#"expected a scene object {"objects": [...]}, got an array"#
        );
        assert_eq!(err("{}"), "objects is missing");
        assert_eq!(
            err(r#"{"objects": {}}"#),
            "objects must be an array, got an object"
        );
        assert_eq!(
            err(r#"{"objects": [], "extra": 1}"#),
            "extra is not a field of a scene (expected objects)"
        );
        assert_eq!(
            err("{\"objects\": [\n  {\"id\": }]}"),
            "invalid JSON at line 2 column 10: expected value"
        );
        let repeated =
            r#"{"objects": [{"id": "a", "id": "b", "shape": {"type": "point", "p": [0, 0]}}]}"#;
        assert_eq!(
            err(repeated),
            "objects[0]: id is repeated (each field may appear once)"
        );
    }

    #[test]
    fn more_than_thirty_two_layer_names_is_an_error() {
        let objects: Vec<String> = (0..=MAX_LAYERS)
            .map(|i| format!(r#"{{"id": "o{i}", "shape": {CIRCLE}, "layer": "l{i}"}}"#))
            .collect();
        let text = format!(r#"{{"objects": [{}]}}"#, objects.join(", "));
        assert_eq!(
            err(&text),
            r#"objects[32] "o32": layer "l32" would be layer number 33; a scene may use at most 32 layer names"#
        );
        let fits = format!(r#"{{"objects": [{}]}}"#, objects[..MAX_LAYERS].join(", "));
        let scene = parse_scene(&fits).unwrap();
        assert_eq!(scene.objects[31].layer, 1 << 31);
    }
}
