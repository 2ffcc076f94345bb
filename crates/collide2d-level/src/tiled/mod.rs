//! Tiled maps: `.tmx` (XML, through the `tiled` crate) and `.tmj` (JSON), with external `.tsx`
//! and `.tsj` tilesets, into [`LevelObject`]s.

mod convert;
mod json;
mod json_properties;
mod layer_data;
mod locate;
pub(crate) mod model;
mod tile_layer;
mod xml;

use std::path::Path;

pub use tile_layer::MAX_LAYER_CELLS;

use crate::error::{At, LevelError};
use crate::object::LevelObject;
use crate::options::LoadOptions;

/// Loads the Tiled map at `path`: XML for `.tmx`, JSON for `.tmj` and `.json`.
///
/// # Errors
/// See [`load`](crate::load).
pub fn load_tiled(path: &Path, options: &LoadOptions) -> Result<Vec<LevelObject>, LevelError> {
    let map = if path.extension().is_some_and(|e| e == "tmx") {
        xml::read(path)?
    } else {
        json::read(path)?
    };
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    convert::convert(&map, &At::file(path), &name, options)
}
