//! Tile layers: solid cells merged (or one box per tile), other tiles' collision shapes placed
//! on every tile with its flips.

use std::collections::HashMap;

use glam::DVec2;

use super::convert::{flip_of, Converter};
use super::model::{Chunk, Layer, ObjectShape, Tile, Tileset, GID_MASK};
use crate::error::{At, ErrorKind, LevelError};
use crate::geom::{AxisMap, Geom};
use crate::merge::{merge_cells, single_cells};
use crate::object::{LevelObject, ObjectSource, Property};
use crate::options::{SolidTiles, TileMode};

/// The most cells a tile layer may span (an infinite map's chunks, first to last): 2^26,
/// 256 MiB of tile ids.
pub const MAX_LAYER_CELLS: usize = 1 << 26;

/// How a placed tile collides.
#[derive(Clone, Copy)]
pub(super) enum Solidity<'m> {
    Empty,
    /// The whole cell: merged with its neighbours.
    Full,
    /// Its collision shapes, placed one by one.
    Shapes(&'m Tile),
}

impl<'m> Converter<'m> {
    /// A tile layer: solid cells merged (or one per tile), other tiles' shapes placed.
    pub(super) fn tiles(
        &self,
        layer: &Layer,
        chunks: &[Chunk],
        path: &str,
        offset: DVec2,
        out: &mut Vec<LevelObject>,
    ) -> Result<(), LevelError> {
        let at = self.at.layer(path);
        let Some((x0, y0, width, height)) = bounds(chunks, &at)? else {
            return Ok(());
        };
        let mut gids = vec![0u32; width * height];
        for chunk in chunks {
            let (cw, dx, dy) = (
                chunk.width as usize,
                (chunk.x - x0) as usize,
                (chunk.y - y0) as usize,
            );
            let rows = chunk
                .gids
                .chunks_exact(cw.max(1))
                .take(chunk.height as usize);
            for (r, row) in rows.enumerate() {
                let start = (dy + r) * width + dx;
                gids[start..start + cw].copy_from_slice(row);
            }
        }
        let cell = self.map.tile_size;
        let mut solidity: HashMap<u32, Solidity<'m>> = HashMap::new();
        let mut last = (0u32, Solidity::Empty);
        let mut labels = vec![0u32; width * height];
        for (i, &gid) in gids.iter().enumerate() {
            let bare = gid & GID_MASK;
            if bare == 0 {
                continue;
            }
            let kind = if bare == last.0 {
                last.1
            } else {
                let (col, row) = (x0 + (i % width) as i32, y0 + (i / width) as i32);
                let kind = match solidity.get(&bare) {
                    Some(k) => *k,
                    None => {
                        let k = self.solidity(bare, &at, col, row)?;
                        solidity.insert(bare, k);
                        k
                    }
                };
                last = (bare, kind);
                kind
            };
            match kind {
                Solidity::Empty => {}
                Solidity::Full => labels[i] = 1,
                Solidity::Shapes(tile) => {
                    let (col, row) = (x0 + (i % width) as i32, y0 + (i / width) as i32);
                    out.push(self.placed_tile(tile, gid, col, row, path, offset, &at)?);
                }
            }
        }
        let rects = match self.options.tiles {
            TileMode::Merged => merge_cells(&labels, width),
            TileMode::PerTile => single_cells(&labels, width),
        };
        for r in rects {
            let (x, y) = (x0 + r.x as i32, y0 + r.y as i32);
            let min = DVec2::new(f64::from(x), f64::from(y)) * cell;
            let size = DVec2::new(f64::from(r.w), f64::from(r.h)) * cell;
            let at = at.object(format!("cells ({x}, {y}) {}x{}", r.w, r.h));
            let shape = self.finish(
                vec![Geom::Rect {
                    min,
                    max: min + size,
                }],
                offset,
                &at,
            )?;
            let (class, properties, source) = match self.options.tiles {
                TileMode::Merged => (
                    layer.class.clone(),
                    layer.properties.clone(),
                    ObjectSource::Cells {
                        x,
                        y,
                        w: r.w,
                        h: r.h,
                    },
                ),
                TileMode::PerTile => {
                    let gid = gids[r.y as usize * width + r.x as usize] & GID_MASK;
                    let found = self.map.tile(gid);
                    let id = found.map_or(0, |(_, id)| id);
                    let tile = found.and_then(|(tileset, id)| tileset.tiles.get(&id));
                    (
                        tile.map(|t| t.class.clone()).unwrap_or_default(),
                        tile.map(|t| t.properties.clone()).unwrap_or_default(),
                        ObjectSource::Tile { x, y, tile: id },
                    )
                }
            };
            out.push(LevelObject {
                shape,
                map: self.map_name.to_string(),
                layer: path.to_string(),
                name: String::new(),
                class,
                properties,
                source,
            });
        }
        Ok(())
    }

    /// How the tile `gid` (flip bits cleared) collides, per [`SolidTiles`].
    fn solidity(&self, gid: u32, at: &At, col: i32, row: i32) -> Result<Solidity<'m>, LevelError> {
        let (tileset, id) = self.map.tile(gid).ok_or_else(|| {
            at.object(format!("cell ({col}, {row})"))
                .invalid(format!("tile gid {gid} is in no tileset of the map"))
        })?;
        let tile = tileset.tiles.get(&id);
        let shapes = match tile {
            Some(t) if !t.collision.is_empty() => Solidity::Shapes(t),
            _ => Solidity::Empty,
        };
        Ok(match &self.options.solid_tiles {
            SolidTiles::EveryTile => Solidity::Full,
            SolidTiles::Collision => match tile {
                Some(t) if self.fills_cell(t, tileset) => Solidity::Full,
                _ => shapes,
            },
            SolidTiles::Property(name) => match tile.and_then(|t| t.properties.get(name)) {
                Some(Property::Bool(true)) => Solidity::Full,
                None | Some(Property::Bool(false)) => shapes,
                Some(other) => {
                    return Err(At::file(&tileset.file)
                        .object(format!("tile {id} of tileset {:?}", tileset.name))
                        .err(ErrorKind::PropertyType {
                            name: name.clone(),
                            expected: "bool",
                            got: other.type_name(),
                        }))
                }
            },
        })
    }

    /// Whether a tile's only collision shape is an unturned rectangle over the whole map cell.
    fn fills_cell(&self, tile: &Tile, tileset: &Tileset) -> bool {
        let size = tile.size.unwrap_or(tileset.tile_size);
        match &tile.collision[..] {
            [c] => {
                matches!(c.shape, ObjectShape::Rect)
                    && c.rotation == 0.0
                    && (c.x, c.y) == (0.0, 0.0)
                    && DVec2::new(c.width, c.height) == size
                    && size == self.map.tile_size
                    && tileset.offset == DVec2::ZERO
            }
            _ => false,
        }
    }

    /// A tile of a tile layer with its collision shapes, flipped as placed.
    #[allow(clippy::too_many_arguments)]
    fn placed_tile(
        &self,
        tile: &Tile,
        gid: u32,
        col: i32,
        row: i32,
        path: &str,
        offset: DVec2,
        at: &At,
    ) -> Result<LevelObject, LevelError> {
        let (tileset, id) = self
            .map
            .tile(gid & GID_MASK)
            .ok_or_else(|| at.invalid(format!("tile gid {} is in no tileset", gid & GID_MASK)))?;
        let tile_size = tile.size.unwrap_or(tileset.tile_size);
        let (flip, flipped) = flip_of(gid, tile_size);
        let cell = self.map.tile_size;
        // Tiles are drawn from the bottom-left of their cell (taller tiles reach upwards).
        let top_left = DVec2::new(
            f64::from(col) * cell.x,
            f64::from(row + 1) * cell.y - flipped.y,
        ) + tileset.offset;
        let at = at.object(format!("tile at cell ({col}, {row})"));
        let geoms = self
            .collision_geoms(tile, tileset, id)?
            .into_iter()
            .map(|g| {
                g.mapped(&flip)
                    .and_then(|g| g.mapped(&AxisMap::translation(top_left)))
                    .map_err(|k| at.err(k))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(LevelObject {
            shape: self.finish(geoms, offset, &at)?,
            map: self.map_name.to_string(),
            layer: path.to_string(),
            name: String::new(),
            class: tile.class.clone(),
            properties: tile.properties.clone(),
            source: ObjectSource::Tile {
                x: col,
                y: row,
                tile: id,
            },
        })
    }
}

/// The cells spanned by `chunks`: first column and row, width and height; `None` when empty.
fn bounds(chunks: &[Chunk], at: &At) -> Result<Option<(i32, i32, usize, usize)>, LevelError> {
    let spans = chunks.iter().filter(|c| c.width > 0 && c.height > 0);
    let mut b: Option<(i64, i64, i64, i64)> = None;
    for c in spans {
        let (x, y) = (i64::from(c.x), i64::from(c.y));
        let (x1, y1) = (x + i64::from(c.width), y + i64::from(c.height));
        b = Some(match b {
            None => (x, y, x1, y1),
            Some((a, b0, c1, d)) => (a.min(x), b0.min(y), c1.max(x1), d.max(y1)),
        });
    }
    let Some((x0, y0, x1, y1)) = b else {
        return Ok(None);
    };
    let (w, h) = ((x1 - x0) as u64, (y1 - y0) as u64);
    if w.saturating_mul(h) > MAX_LAYER_CELLS as u64 {
        return Err(at.invalid(format!(
            "tile layer spans {w} x {h} cells, over the limit of {MAX_LAYER_CELLS} cells"
        )));
    }
    // x0 and y0 are chunk coordinates, so they fit an i32.
    #[allow(clippy::cast_possible_truncation)]
    Ok(Some((x0 as i32, y0 as i32, w as usize, h as usize)))
}
