//! The library half of the `collide2d` command: FORMAT.md's file formats, shared by the
//! subcommands, the tests and the fuzz targets.
//!
//! - [`json`]: `query` lines in, answer lines out, number formatting, error lines.
//! - [`scene`]: scene files (`pairs`, `render`), with layers and masks resolved to bits.

pub mod json;
pub mod scene;
