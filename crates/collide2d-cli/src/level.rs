//! Level-editor maps as scenes: `collide2d pairs MAP` and `collide2d render MAP` read Tiled
//! (`.tmx`, `.tmj`) and LDtk (`.ldtk`) maps through `collide2d-level`.
//!
//! Each loaded object becomes a scene object whose id is its
//! [`key`](collide2d_level::LevelObject::key) (`level.tmx/Walls/door#7`,
//! `level.tmx/Ground/cells 0,9 40x1`; a repeated key gets ` (2)`, ` (3)`... in file order) and
//! whose layer is its map layer's name, with every layer in its mask. Tiles and merged cells
//! are level geometry, static: they never pair with each other, only with the map's objects and
//! entities, which pair with everything.

use std::collections::HashMap;
use std::path::Path;

use collide2d_level::{load, ErrorKind, LevelObject, LoadOptions, ObjectSource, YAxis};

use crate::scene::{Scene, SceneObject, MAX_LAYERS};

pub use collide2d_level::is_map_file;

/// Why a map did not become a scene: the message (naming file, layer and object) and whether the
/// map file itself could not be read (the command line's status 2, not 1).
#[derive(Debug)]
pub struct MapError {
    /// The message.
    pub message: String,
    /// The map file could not be read.
    pub unreadable: bool,
}

/// The scene of the map at `path`: only the layers named in `layers` (all when empty), shapes
/// in the `y_axis` convention. Names in `layers` that no object is on are returned too, for a
/// warning.
///
/// ```
/// use collide2d_cli::level::map_scene;
/// use collide2d_level::YAxis;
/// let map = std::path::Path::new("../collide2d-level/tests/maps/level.tmj");
/// let (scene, unused) = map_scene(map, &["Things".to_string()], YAxis::Down).unwrap();
/// assert_eq!(scene.layers, ["Things"]);
/// assert_eq!(scene.objects[0].id, "level.tmj/Things/wall#1");
/// assert!(unused.is_empty());
/// ```
///
/// # Errors
/// The map's [`LevelError`](collide2d_level::LevelError), or a map with more than
/// [`MAX_LAYERS`] layers holding objects.
pub fn map_scene(
    path: &Path,
    layers: &[String],
    y_axis: YAxis,
) -> Result<(Scene, Vec<String>), MapError> {
    let options = LoadOptions {
        y_axis,
        layers: (!layers.is_empty()).then(|| layers.to_vec()),
        ..LoadOptions::default()
    };
    let level = load(path, &options).map_err(|e| MapError {
        unreadable: matches!(&*e.kind, ErrorKind::Read { path: p, .. } if p == path),
        message: e.to_string(),
    })?;
    let unused = layers
        .iter()
        .filter(|name| !level.objects.iter().any(|o| on_layer(o, name)))
        .cloned()
        .collect();
    Ok((scene(path, level.objects)?, unused))
}

/// Whether `o` is on the layer `name`, as `--layer` chooses (a name, a group's name or path).
fn on_layer(o: &LevelObject, name: &str) -> bool {
    o.layer == name
        || o.layer.rsplit('/').next() == Some(name)
        || o.layer.starts_with(&format!("{name}/"))
}

fn is_geometry(o: &LevelObject) -> bool {
    matches!(
        o.source,
        ObjectSource::Tile { .. } | ObjectSource::Cells { .. }
    )
}

fn scene(path: &Path, objects: Vec<LevelObject>) -> Result<Scene, MapError> {
    let mut names: Vec<String> = Vec::new();
    let mut bits = Vec::with_capacity(objects.len());
    for o in &objects {
        let n = match names.iter().position(|l| *l == o.layer) {
            Some(n) => n,
            None if names.len() < MAX_LAYERS => {
                names.push(o.layer.clone());
                names.len() - 1
            }
            None => {
                return Err(MapError {
                    message: format!(
                        "{}: objects on more than {MAX_LAYERS} layers; choose some with --layer",
                        path.display()
                    ),
                    unreadable: false,
                })
            }
        };
        bits.push(1u32 << n);
    }
    let mut seen: HashMap<String, usize> = HashMap::new();
    let objects = objects
        .into_iter()
        .zip(bits)
        .map(|(o, layer)| {
            let key = o.key();
            let count = seen.entry(key.clone()).or_insert(0);
            *count += 1;
            let id = if *count == 1 {
                key
            } else {
                format!("{key} ({count})")
            };
            SceneObject {
                is_static: is_geometry(&o),
                id,
                shape: o.shape,
                layer,
                mask: u32::MAX,
            }
        })
        .collect();
    Ok(Scene {
        objects,
        layers: names,
    })
}
