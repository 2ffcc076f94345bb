//! Where in a `.tmx` map (or its `.tsx` tilesets) the `tiled` crate's error lies: the crate
//! says what is wrong but not where, so the files are scanned again (with roxmltree) for the
//! layer and object of a property whose value does not fit its type, or of layer data in an
//! encoding or compression the crate does not read.

use std::path::Path;

use roxmltree::{Document, Node};

use crate::error::{At, ErrorKind, LevelError};

/// The located error for `e`, when `e` is of a kind worth locating and the scan finds its place.
pub(super) fn locate(path: &Path, e: &tiled::Error) -> Option<LevelError> {
    let wanted = matches!(
        e,
        tiled::Error::InvalidPropertyValue { .. } | tiled::Error::InvalidEncodingFormat { .. }
    );
    if !wanted {
        return None;
    }
    let text = std::fs::read_to_string(path).ok()?;
    let doc = Document::parse(&text).ok()?;
    if let Some(found) = scan(doc.root_element(), &At::file(path), "") {
        return Some(found);
    }
    // Then the external tilesets, each in its own file.
    let dir = path.parent().unwrap_or(Path::new(""));
    doc.root_element()
        .children()
        .filter(|n| n.has_tag_name("tileset"))
        .filter_map(|n| n.attribute("source"))
        .find_map(|source| {
            let file = dir.join(source);
            let text = std::fs::read_to_string(&file).ok()?;
            let doc = Document::parse(&text).ok()?;
            scan(doc.root_element(), &At::file(&file), "")
        })
}

/// The first bad property or layer data under `node`; `path` is the enclosing layer's path.
fn scan(node: Node<'_, '_>, at: &At, path: &str) -> Option<LevelError> {
    for child in node.children().filter(Node::is_element) {
        let name = child.attribute("name").unwrap_or_default();
        let found = match child.tag_name().name() {
            "layer" | "objectgroup" | "imagelayer" | "group" => {
                let path = if path.is_empty() {
                    name.to_string()
                } else {
                    format!("{path}/{name}")
                };
                scan(child, &at.layer(&path), &path)
            }
            "object" => {
                let id = child.attribute("id").unwrap_or("?");
                scan(child, &at.object(format!("object {id} {name:?}")), path)
            }
            "tileset" => scan(
                child,
                &At {
                    object: None,
                    ..at.clone()
                },
                path,
            ),
            "tile" => {
                let id = child.attribute("id").unwrap_or("?");
                let set = node.attribute("name").unwrap_or_default();
                scan(
                    child,
                    &at.object(format!("tile {id} of tileset {set:?}")),
                    path,
                )
            }
            "property" => bad_property(child).map(|message| at.invalid(message)),
            "data" => bad_encoding(child).map(|kind| at.err(kind)),
            _ => scan(child, at, path),
        };
        if found.is_some() {
            return found;
        }
    }
    None
}

/// Why a property's value does not fit its declared type, if it does not.
fn bad_property(p: Node<'_, '_>) -> Option<String> {
    let kind = p.attribute("type").unwrap_or("string");
    let value = p
        .attribute("value")
        .or_else(|| p.text())
        .unwrap_or_default();
    let fits = match kind {
        "int" => value.parse::<i32>().is_ok(),
        "float" => value.parse::<f32>().is_ok(),
        "bool" => value == "true" || value == "false",
        "object" => value.parse::<u32>().is_ok(),
        _ => true,
    };
    let name = p.attribute("name").unwrap_or_default();
    (!fits).then(|| format!("property {name:?} must be {kind}, got {value:?}"))
}

/// The encoding error of layer data the crate does not read, if so.
fn bad_encoding(data: Node<'_, '_>) -> Option<ErrorKind> {
    let (encoding, compression) = (data.attribute("encoding"), data.attribute("compression"));
    let known = matches!(
        (encoding, compression),
        (None | Some("csv"), None) | (Some("base64"), None | Some("zlib" | "gzip" | "zstd"))
    );
    (!known).then(|| ErrorKind::Encoding {
        encoding: encoding.map(str::to_string),
        compression: compression.map(str::to_string),
    })
}
