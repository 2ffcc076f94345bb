//! `.tmj` maps and `.tsj` tilesets (Tiled's JSON format), read with serde_json into the
//! [`model`](super::model): the `tiled` crate reads only the XML format. A `.tmj` map may use
//! `.tsx` tilesets too (read by the crate). Object templates (`.tj`) are not read.

use std::collections::BTreeMap;
use std::path::Path;

use glam::DVec2;
use serde::Deserialize;
use serde_json::Value;

use super::json_properties::{properties, RawProperty};
use super::layer_data::{gids, Data};
use super::model::{self, Chunk, LayerKind, ObjectShape};
use crate::error::{read_json, At, ErrorKind, LevelError};

#[derive(Deserialize)]
struct RawMap {
    #[serde(default)]
    orientation: String,
    #[serde(default)]
    infinite: bool,
    #[serde(default)]
    width: u32,
    #[serde(default)]
    height: u32,
    tilewidth: f64,
    tileheight: f64,
    #[serde(default)]
    layers: Vec<RawLayer>,
    #[serde(default)]
    tilesets: Vec<RawTilesetRef>,
}

#[derive(Deserialize)]
struct RawTilesetRef {
    firstgid: u32,
    source: Option<String>,
    #[serde(flatten)]
    embedded: RawTileset,
}

#[derive(Deserialize, Default)]
struct RawTileset {
    #[serde(default)]
    name: String,
    #[serde(default)]
    tilewidth: f64,
    #[serde(default)]
    tileheight: f64,
    #[serde(default)]
    tilecount: u32,
    tileoffset: Option<RawXy>,
    objectalignment: Option<String>,
    #[serde(default)]
    tiles: Vec<RawTile>,
}

#[derive(Deserialize)]
struct RawXy {
    x: f64,
    y: f64,
}

#[derive(Deserialize)]
struct RawTile {
    id: u32,
    #[serde(rename = "type", alias = "class", default)]
    class: String,
    #[serde(default)]
    properties: Vec<RawProperty>,
    objectgroup: Option<RawObjectGroup>,
    imagewidth: Option<f64>,
    imageheight: Option<f64>,
}

#[derive(Deserialize)]
struct RawObjectGroup {
    #[serde(default)]
    objects: Vec<RawObject>,
}

#[derive(Deserialize)]
struct RawLayer {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    class: String,
    #[serde(default)]
    offsetx: f64,
    #[serde(default)]
    offsety: f64,
    #[serde(default)]
    properties: Vec<RawProperty>,
    #[serde(default)]
    width: u32,
    #[serde(default)]
    height: u32,
    data: Option<Data>,
    encoding: Option<String>,
    compression: Option<String>,
    chunks: Option<Vec<RawChunk>>,
    #[serde(default)]
    objects: Vec<RawObject>,
    #[serde(default)]
    layers: Vec<RawLayer>,
}

#[derive(Deserialize)]
struct RawChunk {
    data: Data,
    x: i32,
    y: i32,
    width: u32,
    height: u32,
}

#[derive(Deserialize)]
struct RawObject {
    #[serde(default)]
    id: u32,
    #[serde(default)]
    name: String,
    #[serde(rename = "type", alias = "class", default)]
    class: String,
    #[serde(default)]
    x: f64,
    #[serde(default)]
    y: f64,
    #[serde(default)]
    width: f64,
    #[serde(default)]
    height: f64,
    #[serde(default)]
    rotation: f64,
    #[serde(default)]
    ellipse: bool,
    #[serde(default)]
    point: bool,
    #[serde(default)]
    capsule: bool,
    polygon: Option<Vec<RawXy>>,
    polyline: Option<Vec<RawXy>>,
    text: Option<Value>,
    gid: Option<u32>,
    template: Option<String>,
    #[serde(default)]
    properties: Vec<RawProperty>,
}

/// Reads the `.tmj` map at `path` with its tilesets.
pub(crate) fn read(path: &Path) -> Result<model::Map, LevelError> {
    let at = At::file(path);
    let raw: RawMap = read_json(path, &at)?;
    if raw.orientation != "orthogonal" {
        return Err(at.err(ErrorKind::Unsupported(format!(
            "a map of orientation {:?} (only orthogonal maps are read)",
            raw.orientation
        ))));
    }
    let mut tilesets = Vec::with_capacity(raw.tilesets.len());
    for t in raw.tilesets {
        let tileset = match &t.source {
            Some(source) => {
                external_tileset(&path.parent().unwrap_or(Path::new("")).join(source), &at)?
            }
            None => tileset(t.embedded, path, &at)?,
        };
        tilesets.push(model::TilesetRef {
            first_gid: t.firstgid,
            tileset,
        });
    }
    tilesets.sort_by_key(|t| t.first_gid);
    let size = (raw.width, raw.height, raw.infinite);
    let layers = raw
        .layers
        .into_iter()
        .map(|l| layer(l, size, "", &at))
        .collect::<Result<_, _>>()?;
    Ok(model::Map {
        tile_size: DVec2::new(raw.tilewidth, raw.tileheight),
        tilesets,
        layers,
    })
}

/// A tileset in its own file: `.tsj` (or `.json`) here, `.tsx` through the `tiled` crate.
fn external_tileset(path: &Path, at: &At) -> Result<model::Tileset, LevelError> {
    if !path.is_file() {
        return Err(at.err(ErrorKind::Read {
            path: path.to_path_buf(),
            message: "no such tileset file".to_string(),
        }));
    }
    if path.extension().is_some_and(|e| e == "tsx") {
        return super::xml::read_tileset(path);
    }
    let raw: RawTileset = read_json(path, at)?;
    tileset(raw, path, &At::file(path))
}

fn tileset(raw: RawTileset, file: &Path, at: &At) -> Result<model::Tileset, LevelError> {
    let at = at.object(format!("tileset {:?}", raw.name));
    let mut tiles = BTreeMap::new();
    let mut count = raw.tilecount;
    for t in raw.tiles {
        count = count.max(t.id.saturating_add(1));
        let tile_at = at.object(format!("tile {} of tileset {:?}", t.id, raw.name));
        let collision = t
            .objectgroup
            .map(|g| g.objects.into_iter().map(|o| object(o, &tile_at)).collect())
            .transpose()?
            .unwrap_or_default();
        let size = match (t.imagewidth, t.imageheight) {
            (Some(w), Some(h)) => Some(DVec2::new(w, h)),
            _ => None,
        };
        tiles.insert(
            t.id,
            model::Tile {
                class: t.class,
                properties: properties(t.properties, &tile_at)?,
                size,
                collision,
            },
        );
    }
    let anchor = match raw.objectalignment.as_deref() {
        None | Some("unspecified" | "bottomleft") => (0.0, 1.0),
        Some("topleft") => (0.0, 0.0),
        Some("top") => (0.5, 0.0),
        Some("topright") => (1.0, 0.0),
        Some("left") => (0.0, 0.5),
        Some("center") => (0.5, 0.5),
        Some("right") => (1.0, 0.5),
        Some("bottom") => (0.5, 1.0),
        Some("bottomright") => (1.0, 1.0),
        Some(other) => {
            return Err(at.invalid(format!("objectalignment {other:?} is not an alignment")))
        }
    };
    Ok(model::Tileset {
        name: raw.name,
        file: file.to_path_buf(),
        tile_size: DVec2::new(raw.tilewidth, raw.tileheight),
        offset: raw.tileoffset.map_or(DVec2::ZERO, |o| DVec2::new(o.x, o.y)),
        anchor: DVec2::new(anchor.0, anchor.1),
        tile_count: count,
        tiles,
    })
}

/// A layer; `size` is the map's width, height and whether it is infinite.
fn layer(
    raw: RawLayer,
    size: (u32, u32, bool),
    parent: &str,
    at: &At,
) -> Result<model::Layer, LevelError> {
    let path = if parent.is_empty() {
        raw.name.clone()
    } else {
        format!("{parent}/{}", raw.name)
    };
    let at = at.layer(&path);
    let kind = match raw.kind.as_str() {
        "tilelayer" => {
            let codec = (raw.encoding.as_deref(), raw.compression.as_deref());
            let chunks = match (raw.chunks, raw.data) {
                (Some(chunks), _) => chunks
                    .into_iter()
                    .map(|c| {
                        let chunk_at = at.object(format!("chunk ({}, {})", c.x, c.y));
                        let gids = gids(c.data, codec, c.width, c.height, &chunk_at)?;
                        Ok(Chunk {
                            x: c.x,
                            y: c.y,
                            width: c.width,
                            height: c.height,
                            gids,
                        })
                    })
                    .collect::<Result<_, LevelError>>()?,
                (None, _) if size.2 => {
                    return Err(at.invalid("an infinite map's tile layer has no chunks"))
                }
                (None, Some(data)) => {
                    let gids = gids(data, codec, raw.width, raw.height, &at)?;
                    vec![Chunk {
                        x: 0,
                        y: 0,
                        width: raw.width,
                        height: raw.height,
                        gids,
                    }]
                }
                (None, None) => return Err(at.invalid("data is missing")),
            };
            LayerKind::Tiles(chunks)
        }
        "objectgroup" => LayerKind::Objects(
            raw.objects
                .into_iter()
                .map(|o| {
                    let object_at = at.object(format!("object {} {:?}", o.id, o.name));
                    object(o, &object_at)
                })
                .collect::<Result<_, _>>()?,
        ),
        "group" => LayerKind::Group(
            raw.layers
                .into_iter()
                .map(|l| layer(l, size, &path, &at))
                .collect::<Result<_, _>>()?,
        ),
        "imagelayer" => LayerKind::Image,
        other => return Err(at.invalid(format!("type {other:?} is not a layer type"))),
    };
    Ok(model::Layer {
        name: raw.name,
        class: raw.class,
        offset: DVec2::new(raw.offsetx, raw.offsety),
        properties: properties(raw.properties, &at)?,
        kind,
    })
}

fn object(raw: RawObject, at: &At) -> Result<model::Object, LevelError> {
    if let Some(template) = &raw.template {
        return Err(at.err(ErrorKind::Unsupported(format!(
            "an object template ({template}) in a JSON map"
        ))));
    }
    let points = |p: Vec<RawXy>| p.into_iter().map(|q| DVec2::new(q.x, q.y)).collect();
    let shape = if let Some(gid) = raw.gid {
        ObjectShape::Tile(gid)
    } else if let Some(p) = raw.polygon {
        ObjectShape::Polygon(points(p))
    } else if let Some(p) = raw.polyline {
        ObjectShape::Polyline(points(p))
    } else if raw.ellipse {
        ObjectShape::Ellipse
    } else if raw.point {
        ObjectShape::Point
    } else if raw.capsule {
        ObjectShape::Capsule
    } else if raw.text.is_some() {
        ObjectShape::Text
    } else {
        ObjectShape::Rect
    };
    Ok(model::Object {
        id: raw.id,
        name: raw.name,
        class: raw.class,
        x: raw.x,
        y: raw.y,
        width: raw.width,
        height: raw.height,
        rotation: raw.rotation,
        shape,
        properties: properties(raw.properties, at)?,
    })
}
