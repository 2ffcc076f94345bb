//! `.tmj` maps and `.tsj` tilesets (Tiled's JSON format), read with serde_json into the
//! [`model`](super::model): the `tiled` crate reads only the XML format. A `.tmj` map may use
//! `.tsx` tilesets too (read by the crate). Object templates (`.tj`) are not read.

use std::collections::BTreeMap;
use std::fmt;
use std::io::Read;
use std::path::Path;

use glam::DVec2;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;

use super::model::{self, Chunk, LayerKind, ObjectShape};
use crate::error::{At, ErrorKind, LevelError};
use crate::object::{Properties, Property};

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

#[derive(Deserialize)]
struct RawProperty {
    name: String,
    #[serde(rename = "type", default = "string_type")]
    kind: String,
    #[serde(default)]
    propertytype: String,
    value: Value,
}

fn string_type() -> String {
    "string".to_string()
}

/// Tile layer data: an array of global ids, or a base64 string.
enum Data {
    Gids(Vec<u32>),
    Text(String),
}

impl<'de> Deserialize<'de> for Data {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Data, D::Error> {
        struct DataVisitor;
        impl<'de> Visitor<'de> for DataVisitor {
            type Value = Data;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an array of tile ids or a base64 string")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Data, E> {
                Ok(Data::Text(s.to_string()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Data, A::Error> {
                let mut gids = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 20));
                while let Some(g) = seq.next_element()? {
                    gids.push(g);
                }
                Ok(Data::Gids(gids))
            }
        }
        d.deserialize_any(DataVisitor)
    }
}

/// Reads the `.tmj` map at `path` with its tilesets.
pub(crate) fn read(path: &Path) -> Result<model::Map, LevelError> {
    let at = At::file(path);
    let raw: RawMap = parse(path, &at)?;
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

fn parse<T: for<'de> Deserialize<'de>>(path: &Path, at: &At) -> Result<T, LevelError> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        at.err(ErrorKind::Read {
            path: path.to_path_buf(),
            message: e.to_string(),
        })
    })?;
    serde_json::from_str(&text).map_err(|e| At::file(path).err(ErrorKind::Syntax(e.to_string())))
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
    let raw: RawTileset = parse(path, at)?;
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

/// The `width * height` global ids of layer or chunk data.
fn gids(
    data: Data,
    codec: (Option<&str>, Option<&str>),
    width: u32,
    height: u32,
    at: &At,
) -> Result<Vec<u32>, LevelError> {
    let expected = width as usize * height as usize;
    let gids = match (data, codec) {
        (Data::Gids(gids), (None | Some("csv"), None | Some(""))) => gids,
        (Data::Text(text), (Some("base64"), compression)) => {
            let bytes = base64_decode(&text, at)?;
            let bytes = decompress(&bytes, compression, expected, at)?;
            bytes
                .chunks_exact(4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect()
        }
        (_, (encoding, compression)) => {
            return Err(at.err(ErrorKind::Encoding {
                encoding: encoding.map(str::to_string),
                compression: compression.map(str::to_string),
            }))
        }
    };
    if gids.len() != expected {
        return Err(at.invalid(format!(
            "data holds {} tiles, expected {width} x {height} = {expected}",
            gids.len()
        )));
    }
    Ok(gids)
}

fn base64_decode(text: &str, at: &At) -> Result<Vec<u8>, LevelError> {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD
        .decode(text.trim())
        .map_err(|e| at.invalid(format!("data is not base64: {e}")))
}

/// The bytes of `data` decompressed, reading at most one byte more than `expected` tiles need
/// (a bomb stops there).
fn decompress(
    data: &[u8],
    compression: Option<&str>,
    expected: usize,
    at: &At,
) -> Result<Vec<u8>, LevelError> {
    let limit = (expected as u64 * 4) + 1;
    let mut out = Vec::new();
    let read = match compression {
        None | Some("") => return Ok(data.to_vec()),
        Some("zlib") => flate2::read::ZlibDecoder::new(data)
            .take(limit)
            .read_to_end(&mut out),
        Some("gzip") => flate2::read::GzDecoder::new(data)
            .take(limit)
            .read_to_end(&mut out),
        Some("zstd") => {
            zstd::stream::read::Decoder::new(data).and_then(|d| d.take(limit).read_to_end(&mut out))
        }
        Some(other) => {
            return Err(at.err(ErrorKind::Encoding {
                encoding: Some("base64".to_string()),
                compression: Some(other.to_string()),
            }))
        }
    };
    read.map_err(|e| {
        at.invalid(format!(
            "data does not decompress ({}): {e}",
            compression.unwrap_or("")
        ))
    })?;
    if out.len() % 4 != 0 {
        return Err(at.invalid(format!(
            "data holds {} bytes, not a whole number of tile ids",
            out.len()
        )));
    }
    Ok(out)
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

/// Custom properties; a value that does not match its declared type is an error naming it.
fn properties(raw: Vec<RawProperty>, at: &At) -> Result<Properties, LevelError> {
    raw.into_iter()
        .map(|p| {
            let value = property(&p.kind, &p.propertytype, p.value).map_err(|got| {
                at.err(ErrorKind::PropertyType {
                    name: p.name.clone(),
                    expected: declared(&p.kind),
                    got,
                })
            })?;
            Ok((p.name, value))
        })
        .collect()
}

/// The declared type's name for messages.
fn declared(kind: &str) -> &'static str {
    match kind {
        "bool" => "bool",
        "int" => "int",
        "float" => "float",
        "color" => "color",
        "file" => "file",
        "object" => "object",
        "class" => "class",
        "list" => "list",
        _ => "string",
    }
}

/// The JSON type of a value, for messages.
fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_i64() || n.is_u64() => "int",
        Value::Number(_) => "float",
        Value::String(_) => "string",
        Value::Array(_) => "list",
        Value::Object(_) => "object",
    }
}

fn property(kind: &str, class: &str, value: Value) -> Result<Property, &'static str> {
    let got = json_type(&value);
    Ok(match (kind, value) {
        ("bool", Value::Bool(b)) => Property::Bool(b),
        ("int", Value::Number(n)) => Property::Int(n.as_i64().ok_or(got)?),
        ("float", Value::Number(n)) => Property::Float(n.as_f64().ok_or(got)?),
        ("color", Value::String(s)) => Property::Color(s),
        ("file", Value::String(s)) => Property::File(s),
        ("object", Value::Number(n)) => {
            Property::Object(n.as_u64().and_then(|i| u32::try_from(i).ok()).ok_or(got)?)
        }
        ("class", Value::Object(members)) => Property::Class {
            class: class.to_string(),
            // Class members hold bare values: their types live in the project file.
            properties: members.into_iter().map(|(k, v)| (k, bare(v))).collect(),
        },
        ("list", Value::Array(items)) => Property::List(items.into_iter().map(bare).collect()),
        ("string" | "", Value::String(s)) => Property::String(s),
        _ => return Err(got),
    })
}

/// A value whose declared type is not at hand (class members, list items), by its JSON type.
fn bare(v: Value) -> Property {
    match v {
        Value::Bool(b) => Property::Bool(b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => Property::Int(i),
            None => Property::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => Property::String(s),
        other => Property::Json(other),
    }
}
