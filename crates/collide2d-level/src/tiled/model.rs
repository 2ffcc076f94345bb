//! A Tiled map as the converter needs it, whichever file format it came from (`.tmx` through the
//! `tiled` crate, `.tmj` through serde_json): layers, objects, tilesets and their tiles'
//! collision shapes, tile data as global tile ids with their flip bits.

use std::collections::BTreeMap;
use std::path::PathBuf;

use glam::DVec2;

use crate::object::Properties;

/// Bit 31 of a global tile id: flipped horizontally.
pub const FLIP_H: u32 = 0x8000_0000;
/// Bit 30: flipped vertically.
pub const FLIP_V: u32 = 0x4000_0000;
/// Bit 29: flipped diagonally (x and y exchanged).
pub const FLIP_D: u32 = 0x2000_0000;
/// Bit 28: hexagonal maps' 120-degree turn (orthogonal maps never set it).
pub const ROTATE_120: u32 = 0x1000_0000;
/// The tile id bits of a global tile id.
pub const GID_MASK: u32 = !(FLIP_H | FLIP_V | FLIP_D | ROTATE_120);

/// A map: orthogonal only (the converter refuses the others before building one).
#[derive(Debug, Default)]
pub struct Map {
    /// The size of a map cell.
    pub tile_size: DVec2,
    /// Tilesets in increasing `first_gid`.
    pub tilesets: Vec<TilesetRef>,
    /// Layers in file order (bottom to top).
    pub layers: Vec<Layer>,
}

/// A tileset as used by a map: its tiles have global ids `first_gid..`.
#[derive(Debug)]
pub struct TilesetRef {
    /// The global id of its tile 0.
    pub first_gid: u32,
    /// The tileset.
    pub tileset: Tileset,
}

/// A tileset.
#[derive(Debug, Default)]
pub struct Tileset {
    /// Its name.
    pub name: String,
    /// The file that defines it (the map for an embedded tileset), for messages.
    pub file: PathBuf,
    /// Tile size (the largest image of an image-collection tileset).
    pub tile_size: DVec2,
    /// How far tiles are drawn from their cell (`tileoffset`).
    pub offset: DVec2,
    /// Where a tile object's `(x, y)` lies on its tile, as fractions of its size (bottom-left:
    /// `(0, 1)`, the default of orthogonal maps).
    pub anchor: DVec2,
    /// How many tile ids it has (the largest id + 1 for image collections).
    pub tile_count: u32,
    /// Tiles with something to say: a class, properties or collision shapes.
    pub tiles: BTreeMap<u32, Tile>,
}

/// One tile of a tileset.
#[derive(Debug, Default)]
pub struct Tile {
    /// Its class (`type` before Tiled 1.9).
    pub class: String,
    /// Its custom properties.
    pub properties: Properties,
    /// Its own image size (image-collection tilesets), else the tileset's tile size.
    pub size: Option<DVec2>,
    /// Its collision shapes, in tile coordinates (origin at the image's top-left).
    pub collision: Vec<Object>,
}

/// A layer.
#[derive(Debug, Default)]
pub struct Layer {
    /// Its name.
    pub name: String,
    /// Its class.
    pub class: String,
    /// Its offset (`offsetx`, `offsety`), not counting its groups'.
    pub offset: DVec2,
    /// Its custom properties.
    pub properties: Properties,
    /// What it holds.
    pub kind: LayerKind,
}

/// What a layer holds.
#[derive(Debug, Default)]
pub enum LayerKind {
    /// Tiles: one chunk for a finite map, many for an infinite one.
    Tiles(Vec<Chunk>),
    /// Objects.
    Objects(Vec<Object>),
    /// Other layers, whose offsets add to the group's.
    Group(Vec<Layer>),
    /// An image layer: nothing to collide with.
    #[default]
    Image,
}

/// A rectangle of tile cells.
#[derive(Debug, Default)]
pub struct Chunk {
    /// Its first column.
    pub x: i32,
    /// Its first row.
    pub y: i32,
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// `width * height` global tile ids with flip bits, row by row; 0 for an empty cell.
    pub gids: Vec<u32>,
}

/// An object of an object layer or of a tile's collision shapes.
#[derive(Debug, Default, Clone)]
pub struct Object {
    /// Its id (unique in the map; in the tileset for collision shapes).
    pub id: u32,
    /// Its name.
    pub name: String,
    /// Its class (`type` before Tiled 1.9).
    pub class: String,
    /// `x`.
    pub x: f64,
    /// `y`.
    pub y: f64,
    /// `width`.
    pub width: f64,
    /// `height`.
    pub height: f64,
    /// Degrees, clockwise on screen, about `(x, y)`.
    pub rotation: f64,
    /// Its shape.
    pub shape: ObjectShape,
    /// Its custom properties.
    pub properties: Properties,
}

/// An object's shape.
#[derive(Debug, Default, Clone)]
pub enum ObjectShape {
    /// A rectangle `(x, y)`, `width` x `height`.
    #[default]
    Rect,
    /// The ellipse inscribed in that rectangle.
    Ellipse,
    /// The capsule inscribed in that rectangle.
    Capsule,
    /// The point `(x, y)`.
    Point,
    /// A polygon, its points relative to `(x, y)`.
    Polygon(Vec<DVec2>),
    /// A polyline, its points relative to `(x, y)`.
    Polyline(Vec<DVec2>),
    /// A text box: its rectangle.
    Text,
    /// A tile (global id with flip bits), its collision shapes stretched over the rectangle.
    Tile(u32),
}

impl Map {
    /// The tileset holding global id `gid` (flip bits cleared) and the tile's local id.
    pub fn tile(&self, gid: u32) -> Option<(&Tileset, u32)> {
        let set = self
            .tilesets
            .iter()
            .rev()
            .find(|t| t.first_gid <= gid && gid > 0)?;
        let id = gid - set.first_gid;
        (id < set.tileset.tile_count).then_some((&set.tileset, id))
    }
}
