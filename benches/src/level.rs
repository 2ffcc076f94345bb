//! A 1,000 x 1,000 tile platformer level for the `level` bench, written as Tiled maps the way
//! the editor saves them (`.tmx` with base64 zlib data, Tiled's default, and `.tmj` with a CSV
//! array), and the rectangles a caller would build by hand from the same cells.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use collide2d::{Aabb, Shape};
use collide2d_level::merge_cells;

use crate::Rng;

/// Cells per side.
pub const SIDE: usize = 1000;

/// Pixels per tile.
pub const TILE: f32 = 16.0;

/// The level's cells, row by row (1: a solid tile, 0: empty): a border, 50 rows of ground,
/// platforms on every sixth row with random lengths and gaps, and 300 pillars.
#[must_use]
pub fn platformer_cells(seed: u64) -> Vec<u32> {
    let mut rng = Rng::new(seed);
    let mut cells = vec![0u32; SIDE * SIDE];
    fill(&mut cells, 0, SIDE, 0, 1);
    fill(&mut cells, 0, 1, 0, SIDE);
    fill(&mut cells, SIDE - 1, SIDE, 0, SIDE);
    fill(&mut cells, 0, SIDE, 950, SIDE);
    for y in (10..940).step_by(6) {
        let mut x = 1 + rng.below(20);
        while x < SIDE - 1 {
            let len = 4 + rng.below(46);
            fill(&mut cells, x, x + len, y, y + 1);
            x += len + 3 + rng.below(22);
        }
    }
    for _ in 0..300 {
        let (x, y) = (1 + rng.below(SIDE - 2), 1 + rng.below(900));
        let (x1, y1) = (x + 1 + rng.below(3), y + 5 + rng.below(35));
        fill(&mut cells, x, x1, y, y1);
    }
    cells
}

/// Sets the cells of columns `x0..x1` and rows `y0..y1` (clipped to the level) solid.
fn fill(cells: &mut [u32], x0: usize, x1: usize, y0: usize, y1: usize) {
    for y in y0..y1.min(SIDE) {
        for x in x0..x1.min(SIDE) {
            cells[y * SIDE + x] = 1;
        }
    }
}

/// The boxes a caller would make by hand from `cells`: merged, in the loader's order.
#[must_use]
pub fn rectangles_by_hand(cells: &[u32]) -> Vec<Shape> {
    merge_cells(cells, SIDE)
        .iter()
        .filter_map(|r| {
            let (x, y) = (r.x as f32 * TILE, r.y as f32 * TILE);
            Aabb::from_rect(x, y, r.w as f32 * TILE, r.h as f32 * TILE)
                .ok()
                .map(Shape::from)
        })
        .collect()
}

/// The map header and a one-tile tileset whose collision shape fills the tile.
fn tmx_head(encoding: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="{SIDE}" height="{SIDE}" tilewidth="16" tileheight="16" infinite="0">
 <tileset firstgid="1" name="solid" tilewidth="16" tileheight="16" tilecount="1" columns="1">
  <tile id="0"><objectgroup><object id="1" x="0" y="0" width="16" height="16"/></objectgroup></tile>
 </tileset>
 <layer id="1" name="Ground" width="{SIDE}" height="{SIDE}">
  <data {encoding}>"#
    )
}

/// Writes the level as `level.tmx` in `dir` (base64, zlib).
///
/// # Panics
/// When the file cannot be written (a bench set-up failure).
#[must_use]
pub fn write_tmx(dir: &Path, cells: &[u32]) -> PathBuf {
    use base64::Engine;
    let bytes: Vec<u8> = cells.iter().flat_map(|g| g.to_le_bytes()).collect();
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    let packed = z
        .write_all(&bytes)
        .and_then(|()| z.finish())
        .unwrap_or_default();
    let data = base64::engine::general_purpose::STANDARD.encode(packed);
    let text = format!(
        "{}{data}</data>\n </layer>\n</map>\n",
        tmx_head(r#"encoding="base64" compression="zlib""#)
    );
    write(dir.join("level.tmx"), &text)
}

/// Writes the level as `level.tmj` in `dir` (a CSV array of tile ids).
///
/// # Panics
/// When the file cannot be written.
#[must_use]
pub fn write_tmj(dir: &Path, cells: &[u32]) -> PathBuf {
    let mut data = String::with_capacity(cells.len() * 2);
    for (i, c) in cells.iter().enumerate() {
        let _ = write!(data, "{}{c}", if i == 0 { "" } else { "," });
    }
    let text = format!(
        r#"{{"type": "map", "orientation": "orthogonal", "width": {SIDE}, "height": {SIDE}, "tilewidth": 16,
  "tileheight": 16, "infinite": false,
  "tilesets": [{{"firstgid": 1, "name": "solid", "tilewidth": 16, "tileheight": 16, "tilecount": 1,
    "tiles": [{{"id": 0, "objectgroup": {{"objects": [{{"id": 1, "x": 0, "y": 0, "width": 16, "height": 16}}]}}}}]}}],
  "layers": [{{"type": "tilelayer", "name": "Ground", "width": {SIDE}, "height": {SIDE}, "data": [{data}]}}]}}"#
    );
    write(dir.join("level.tmj"), &text)
}

fn write(path: PathBuf, text: &str) -> PathBuf {
    if let Err(e) = std::fs::write(&path, text) {
        #[allow(clippy::panic)]
        {
            panic!("cannot write {}: {e}", path.display());
        }
    }
    path
}
