//! # collide2d-level
//!
//! Level-editor maps into collide2d shapes: [Tiled](https://www.mapeditor.org) `.tmx` and
//! `.tmj` maps (with external `.tsx` / `.tsj` tilesets) and [LDtk](https://ldtk.io) `.ldtk`
//! projects. Each [`LevelObject`] carries its shape with the map's names for it (map, layer,
//! object name, class, custom properties), so the caller decides layers, masks and static or
//! dynamic; [`LayerFilters`] does that by layer name.
//!
//! - **Tiled objects:** rectangles (rotated ones become `Obb`s), ellipses, capsules, polygons
//!   (concave allowed), polylines (segments), points, text boxes, and tile objects (their tile's
//!   collision shapes, flipped and stretched with the object, else the tile's rectangle); layer
//!   and group offsets added. Hidden layers load too.
//! - **Tiled tiles:** the collision shapes drawn in the tileset's collision editor, placed on
//!   every tile with its flips; tiles whose shape is the whole cell (or per [`SolidTiles`]) are
//!   merged into few rectangles ([`TileMode`], [`merge_cells`]). Infinite maps' chunks too.
//! - **LDtk:** IntGrid layers (solid values per [`IntGridSolid`], merged per value), entities as
//!   boxes (points when sized zero) with their fields, levels at their world positions (levels
//!   in separate `.ldtkl` files included). Tile and auto-layer layers are skipped.
//! - **Ellipses:** a circle when the axes are equal, else a polygon within a tolerance, or an
//!   error with [`Ellipses::Exact`].
//! - **Coordinates:** map units (pixels), y down as in the editors ([`YAxis::Down`], the
//!   default), or y up ([`YAxis::Up`], y negated).
//! - **Errors:** a [`LevelError`] names the file, the layer and the object; nothing is returned
//!   from a map that fails. Only orthogonal Tiled maps are read; JSON maps' object templates
//!   (`.tj`) are not; the `tiled` crate's errors (for `.tmx`) name the file but not the layer.
//!
//! ```
//! use collide2d_level::{load, LoadOptions, ObjectSource};
//! # let dir = std::env::temp_dir().join(format!("collide2d-level-doc-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir)?;
//! # let path = dir.join("room.tmj");
//! # std::fs::write(&path, r#"{"type": "map", "orientation": "orthogonal", "width": 4, "height": 2,
//! #   "tilewidth": 16, "tileheight": 16, "infinite": false,
//! #   "tilesets": [{"firstgid": 1, "name": "t", "tilewidth": 16, "tileheight": 16, "tilecount": 1}],
//! #   "layers": [{"type": "tilelayer", "name": "Walls", "width": 4, "height": 2,
//! #                "data": [0, 0, 0, 0, 1, 1, 1, 1]}]}"#)?;
//! let options = LoadOptions { solid_tiles: collide2d_level::SolidTiles::EveryTile, ..LoadOptions::default() };
//! let level = load(&path, &options)?; // a 4 x 2 map of 16-pixel tiles, the bottom row solid
//! assert_eq!(level.objects.len(), 1); // four tiles, one rectangle
//! assert_eq!(level.objects[0].layer, "Walls");
//! assert_eq!(level.objects[0].source, ObjectSource::Cells { x: 0, y: 1, w: 4, h: 1 });
//! assert_eq!(level.objects[0].shape.aabb(), collide2d::Aabb::from_rect(0.0, 16.0, 64.0, 16.0)?);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Features
//! - `tiled` (default): Tiled maps, through the `tiled` crate (its `zstd` feature compiles the
//!   zstd C library) plus serde_json for the JSON format.
//! - `ldtk` (default): LDtk projects, through serde_json.
#![deny(missing_docs)]
// With one format left out, parts of the shared geometry have no caller.
#![cfg_attr(
    not(all(feature = "tiled", feature = "ldtk")),
    allow(dead_code, unused_variables, unreachable_code)
)]

mod error;
mod filters;
mod geom;
#[cfg(feature = "ldtk")]
mod ldtk;
mod merge;
mod object;
mod options;
#[cfg(feature = "tiled")]
mod tiled;

use std::path::Path;

pub use error::{ErrorKind, LevelError};
pub use filters::LayerFilters;
#[cfg(feature = "ldtk")]
pub use ldtk::load_ldtk;
pub use merge::{merge_cells, single_cells, CellRect};
pub use object::{LevelObject, ObjectSource, Properties, Property};
pub use options::{Ellipses, IntGridSolid, LoadOptions, SolidTiles, TileMode, YAxis};
#[cfg(feature = "tiled")]
pub use tiled::{load_tiled, MAX_LAYER_CELLS};

/// A loaded map: its objects and the y convention of their shapes.
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    /// Which way y points in the shapes ([`LoadOptions::y_axis`]).
    pub y_axis: YAxis,
    /// The objects, layer by layer in the map's order (bottom to top); within a tile layer, the
    /// placed tiles' shapes in reading order, then the solid cells' rectangles.
    pub objects: Vec<LevelObject>,
}

/// Whether `path` names a map this crate reads: `.tmx`, `.tmj`, `.ldtk` (case-insensitive).
/// (Tiled's older `.json` maps load through [`load`] too but are not claimed here, since
/// plain JSON is also the command line's scene format.)
#[must_use]
pub fn is_map_file(path: &Path) -> bool {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    matches!(ext.as_deref(), Some("tmx" | "tmj" | "ldtk"))
}

/// Loads the map at `path`, by its extension: `.tmx` (Tiled XML), `.tmj` or `.json` (Tiled
/// JSON), `.ldtk` (LDtk).
///
/// # Errors
/// A [`LevelError`] naming the file, layer and object: a file that cannot be read (the map, a
/// tileset, an LDtk level file), text that is not a map, a layer data encoding or compression
/// not read ([`ErrorKind::Encoding`]), a shape collide2d refuses (a polygon that crosses itself:
/// [`ErrorKind::Shape`]), an ellipse [`Ellipses::Exact`] refuses, a property whose value is not
/// of its declared type, an unsupported part of the format (isometric maps, JSON object
/// templates), or an unknown extension ([`ErrorKind::UnknownFormat`]).
pub fn load(path: &Path, options: &LoadOptions) -> Result<Level, LevelError> {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    let objects = match ext.as_deref() {
        #[cfg(feature = "tiled")]
        Some("tmx" | "tmj" | "json") => load_tiled(path, options)?,
        #[cfg(feature = "ldtk")]
        Some("ldtk") => load_ldtk(path, options)?,
        _ => return Err(error::At::file(path).err(ErrorKind::UnknownFormat)),
    };
    Ok(Level {
        y_axis: options.y_axis,
        objects,
    })
}
