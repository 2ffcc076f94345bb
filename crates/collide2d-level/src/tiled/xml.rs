//! `.tmx` maps and `.tsx` tilesets through the `tiled` crate, into the [`model`](super::model).
//!
//! The crate reads every encoding and compression of the TMX format (CSV, base64 plain, zlib,
//! gzip, zstd), external tilesets and object templates, infinite maps' chunks and every object
//! shape. It does not read JSON maps (`.tmj`, see `json.rs`), and its errors carry no layer or
//! object: a bad property value or layer encoding is then located by `locate.rs`; other broken
//! `.tmx` files are reported with the file and the crate's message.

use std::path::Path;
use std::sync::Arc;

use glam::DVec2;
use tiled::{LayerType, ObjectAlignment, Orientation, PropertyValue, TileLayer, TilesetLocation};

use super::model::{self, Chunk, LayerKind, ObjectShape, FLIP_D, FLIP_H, FLIP_V};
use crate::error::{At, ErrorKind, LevelError};
use crate::object::{Properties, Property};

/// Reads the `.tmx` map at `path` with its tilesets.
pub(crate) fn read(path: &Path) -> Result<model::Map, LevelError> {
    let at = At::file(path);
    let map = tiled::Loader::new()
        .load_tmx_map(path)
        .map_err(|e| super::locate::locate(path, &e).unwrap_or_else(|| error(&at, e)))?;
    if map.orientation != Orientation::Orthogonal {
        return Err(at.err(ErrorKind::Unsupported(format!(
            "a map of orientation {} (only orthogonal maps are read)",
            map.orientation
        ))));
    }
    let mut tilesets = Tilesets::default();
    for tileset in map.tilesets() {
        tilesets.add(tileset);
    }
    let layers = map.layers().map(|l| layer(&l, &mut tilesets)).collect();
    Ok(model::Map {
        tile_size: DVec2::new(f64::from(map.tile_width), f64::from(map.tile_height)),
        tilesets: tilesets.sets,
        layers,
    })
}

/// Reads the `.tsx` tileset at `path` (used by a `.tmj` map).
pub(crate) fn read_tileset(path: &Path) -> Result<model::Tileset, LevelError> {
    let t = tiled::Loader::new()
        .load_tsx_tileset(path)
        .map_err(|e| error(&At::file(path), e))?;
    Ok(tileset(&t))
}

/// The crate's error, located at the map file; a tileset file that cannot be read is named.
fn error(at: &At, e: tiled::Error) -> LevelError {
    let kind = match e {
        tiled::Error::ResourceLoadingError { path, err } => ErrorKind::Read {
            path,
            message: err.to_string(),
        },
        tiled::Error::InvalidEncodingFormat {
            encoding,
            compression,
        } => ErrorKind::Encoding {
            encoding,
            compression,
        },
        tiled::Error::InvalidPropertyValue { description } => {
            ErrorKind::Invalid(format!("a property: {description}"))
        }
        other => ErrorKind::Syntax(other.to_string()),
    };
    at.err(kind)
}

/// The tilesets met so far with the global ids given to them: the map's own in order, then
/// those of object templates. Ids are the crate's (tileset index, tile id), renumbered.
#[derive(Default)]
struct Tilesets {
    sets: Vec<model::TilesetRef>,
    /// The template tilesets already added, by address, with their index in `sets`.
    templates: Vec<(*const tiled::Tileset, usize)>,
}

impl Tilesets {
    fn add(&mut self, t: &tiled::Tileset) -> usize {
        let first_gid = self
            .sets
            .last()
            .map_or(1, |s| s.first_gid + s.tileset.tile_count);
        let tileset = tileset(t);
        self.sets.push(model::TilesetRef { first_gid, tileset });
        self.sets.len() - 1
    }

    /// The global id of tile `id` of the map's tileset `index`, with flip bits.
    fn gid(&self, index: usize, id: u32, h: bool, v: bool, d: bool) -> u32 {
        let base = self.sets.get(index).map_or(0, |s| s.first_gid + id);
        base | if h { FLIP_H } else { 0 } | if v { FLIP_V } else { 0 } | if d { FLIP_D } else { 0 }
    }

    /// The index of a template's tileset, added on first use.
    fn template(&mut self, t: &Arc<tiled::Tileset>) -> usize {
        let key = Arc::as_ptr(t);
        if let Some(&(_, i)) = self.templates.iter().find(|(p, _)| *p == key) {
            return i;
        }
        let i = self.add(t);
        self.templates.push((key, i));
        i
    }
}

fn tileset(t: &tiled::Tileset) -> model::Tileset {
    let mut tiles = std::collections::BTreeMap::new();
    let mut count = t.tilecount;
    for (id, tile) in t.tiles() {
        count = count.max(id + 1);
        let collision = tile
            .collision
            .as_ref()
            .map(|c| c.object_data().iter().map(object).collect())
            .unwrap_or_default();
        let size = tile
            .image
            .as_ref()
            .map(|i| DVec2::new(f64::from(i.width), f64::from(i.height)));
        let empty = tile.user_type.is_empty() && tile.properties.is_empty();
        if empty && size.is_none() && tile.collision.is_none() {
            continue;
        }
        tiles.insert(
            id,
            model::Tile {
                class: tile.user_type.clone(),
                properties: properties(&tile.properties),
                size,
                collision,
            },
        );
    }
    model::Tileset {
        name: t.name.clone(),
        file: t.source.clone(),
        tile_size: DVec2::new(f64::from(t.tile_width), f64::from(t.tile_height)),
        offset: DVec2::new(f64::from(t.offset_x), f64::from(t.offset_y)),
        anchor: anchor(t.object_alignment),
        tile_count: count,
        tiles,
    }
}

/// Where a tile object's `(x, y)` lies on the tile, as fractions of its size.
fn anchor(alignment: ObjectAlignment) -> DVec2 {
    let (x, y) = match alignment {
        ObjectAlignment::TopLeft => (0.0, 0.0),
        ObjectAlignment::Top => (0.5, 0.0),
        ObjectAlignment::TopRight => (1.0, 0.0),
        ObjectAlignment::Left => (0.0, 0.5),
        ObjectAlignment::Center => (0.5, 0.5),
        ObjectAlignment::Right => (1.0, 0.5),
        ObjectAlignment::Bottom => (0.5, 1.0),
        ObjectAlignment::BottomRight => (1.0, 1.0),
        ObjectAlignment::Unspecified | ObjectAlignment::BottomLeft => (0.0, 1.0),
    };
    DVec2::new(x, y)
}

fn layer(l: &tiled::Layer<'_>, sets: &mut Tilesets) -> model::Layer {
    let kind = match l.layer_type() {
        LayerType::Tiles(TileLayer::Finite(t)) => {
            let (w, h) = (t.width(), t.height());
            let mut gids = Vec::with_capacity(w as usize * h as usize);
            for y in 0..h as i32 {
                for x in 0..w as i32 {
                    gids.push(t.get_tile_data(x, y).map_or(0, |d| {
                        sets.gid(d.tileset_index(), d.id(), d.flip_h, d.flip_v, d.flip_d)
                    }));
                }
            }
            LayerKind::Tiles(vec![Chunk {
                x: 0,
                y: 0,
                width: w,
                height: h,
                gids,
            }])
        }
        LayerType::Tiles(TileLayer::Infinite(t)) => {
            let side = tiled::ChunkData::WIDTH;
            let mut chunks: Vec<Chunk> = t
                .chunk_data()
                .map(|((cx, cy), data)| {
                    let mut gids = Vec::with_capacity(tiled::ChunkData::TILE_COUNT);
                    for y in 0..side as i32 {
                        for x in 0..side as i32 {
                            gids.push(data.get_tile_data(x, y).map_or(0, |d| {
                                sets.gid(d.tileset_index(), d.id(), d.flip_h, d.flip_v, d.flip_d)
                            }));
                        }
                    }
                    Chunk {
                        x: cx * side as i32,
                        y: cy * side as i32,
                        width: side,
                        height: side,
                        gids,
                    }
                })
                .collect();
            // The crate keeps chunks in a hash map: sort them for a deterministic result.
            chunks.sort_by_key(|c| (c.y, c.x));
            LayerKind::Tiles(chunks)
        }
        LayerType::Objects(o) => LayerKind::Objects(
            o.object_data()
                .iter()
                .map(|data| {
                    let mut object = object(data);
                    if let Some(tile) = data.tile_data() {
                        let index = match tile.tileset_location() {
                            TilesetLocation::Map(i) => *i,
                            TilesetLocation::Template(t) => sets.template(t),
                        };
                        object.shape = ObjectShape::Tile(sets.gid(
                            index,
                            tile.id(),
                            tile.flip_h,
                            tile.flip_v,
                            tile.flip_d,
                        ));
                    }
                    object
                })
                .collect(),
        ),
        LayerType::Group(g) => LayerKind::Group(g.layers().map(|l| layer(&l, sets)).collect()),
        LayerType::Image(_) => LayerKind::Image,
    };
    model::Layer {
        name: l.name.clone(),
        class: l.user_type.clone(),
        offset: DVec2::new(f64::from(l.offset_x), f64::from(l.offset_y)),
        properties: properties(&l.properties),
        kind,
    }
}

fn object(o: &tiled::ObjectData) -> model::Object {
    let points = |p: &[(f32, f32)]| {
        p.iter()
            .map(|&(x, y)| DVec2::new(f64::from(x), f64::from(y)))
            .collect()
    };
    let (shape, width, height) = match &o.shape {
        tiled::ObjectShape::Rect { width, height } => (ObjectShape::Rect, *width, *height),
        tiled::ObjectShape::Ellipse { width, height } => (ObjectShape::Ellipse, *width, *height),
        tiled::ObjectShape::Capsule { width, height } => (ObjectShape::Capsule, *width, *height),
        tiled::ObjectShape::Polygon { points: p } => (ObjectShape::Polygon(points(p)), 0.0, 0.0),
        tiled::ObjectShape::Polyline { points: p } => (ObjectShape::Polyline(points(p)), 0.0, 0.0),
        tiled::ObjectShape::Point(..) => (ObjectShape::Point, 0.0, 0.0),
        tiled::ObjectShape::Text { width, height, .. } => (ObjectShape::Text, *width, *height),
    };
    model::Object {
        id: o.id(),
        name: o.name.clone(),
        class: o.user_type.clone(),
        x: f64::from(o.x),
        y: f64::from(o.y),
        width: f64::from(width),
        height: f64::from(height),
        rotation: f64::from(o.rotation),
        shape,
        properties: properties(&o.properties),
    }
}

fn properties(p: &tiled::Properties) -> Properties {
    p.iter().map(|(k, v)| (k.clone(), property(v))).collect()
}

fn property(v: &PropertyValue) -> Property {
    match v {
        PropertyValue::BoolValue(b) => Property::Bool(*b),
        PropertyValue::FloatValue(x) => Property::Float(f64::from(*x)),
        PropertyValue::IntValue(i) => Property::Int(i64::from(*i)),
        PropertyValue::ColorValue(c) => Property::Color(format!(
            "#{:02x}{:02x}{:02x}{:02x}",
            c.alpha, c.red, c.green, c.blue
        )),
        PropertyValue::StringValue(s) => Property::String(s.clone()),
        PropertyValue::FileValue(s) => Property::File(s.clone()),
        PropertyValue::ObjectValue(id) => Property::Object(*id),
        PropertyValue::ListValue(items) => Property::List(items.iter().map(property).collect()),
        PropertyValue::ClassValue {
            property_type,
            properties: members,
        } => Property::Class {
            class: property_type.clone(),
            properties: properties(members),
        },
    }
}
