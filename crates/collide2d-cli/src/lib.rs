//! The library half of the `collide2d` command: FORMAT.md's file formats, shared by the
//! subcommands, the tests and the fuzz targets.
//!
//! - [`json`]: `query` lines in, answer lines out, number formatting, error lines.
//! - [`lines`]: input lines read in bounded memory
//!   ([`MAX_LINE_BYTES`](collide2d::limits::MAX_LINE_BYTES)).
//! - [`scene`]: scene files (`pairs`, `render`), with layers and masks resolved to bits.

pub mod json;
pub mod lines;
pub mod scene;
