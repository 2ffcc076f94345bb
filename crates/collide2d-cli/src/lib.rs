//! The library half of the `collide2d` command: formats.md's file formats, shared by the
//! subcommands, the tests and the fuzz targets.
//!
//! - [`json`]: `query` lines in, answer lines out, number formatting, error lines.
//! - [`lines`]: input lines read in bounded memory
//!   ([`MAX_LINE_BYTES`](collide2d::limits::MAX_LINE_BYTES)).
//! - [`pairs`]: the output lines of `collide2d pairs`, found by a `CollisionWorld`.
//! - [`raw`]: JSON read as raw fields first, then field by field (lines and scenes).
//! - [`scene`]: scene files (`pairs`, `render`), with layers and masks resolved to bits.
//! - [`scene_file`]: scene files read within `MAX_SCENE_BYTES`.
//! - [`level`]: Tiled and LDtk maps as scenes (`pairs MAP`, `render MAP`).
//! - [`render`]: a scene drawn as SVG, collisions highlighted (`render`, `demo --svg`).
//! - [`serve`]: a small static file server for the playground under `web/` (`serve`).

pub mod json;
pub mod level;
pub mod lines;
pub mod pairs;
pub mod raw;
pub mod render;
pub mod scene;
pub mod scene_file;
pub mod serve;
