//! Tile layer data of Tiled's JSON format: an array of global ids, or base64 text, plain or
//! compressed with zlib, gzip or zstd; decompression stops one byte past what the layer needs.

use std::fmt;
use std::io::Read;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;

use crate::error::{At, ErrorKind, LevelError};

/// Tile layer data: an array of global ids, or a base64 string.
pub(super) enum Data {
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

/// The `width * height` global ids of layer or chunk data.
pub(super) fn gids(
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
