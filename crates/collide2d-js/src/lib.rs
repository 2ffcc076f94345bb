//! collide2d for JavaScript and TypeScript: the WebAssembly half of the npm package in
//! `packages/collide2d-js`.
//!
//! Shapes are wasm-owned objects ([`JsShape`], `Shape` in JavaScript) built by checked
//! constructors whose errors name the field (`circle.radius must be >= 0, got -1`). Queries
//! take shapes and plain numbers; a query with a structured answer (a contact, a ray hit)
//! returns whether there is one and writes its numbers into a small scratch buffer in wasm
//! memory ([`scratch`]), which the package's JavaScript reads through a `Float64Array` view to
//! build a plain object: no JSON, no allocation in wasm, across the boundary. The world
//! ([`JsWorld`], `WorldCore` in JavaScript) names objects by handles that are JavaScript
//! numbers (`index + generation * 2^32`) and returns lists as typed arrays.
//!
//! Every function is plain Rust as well, and is tested natively.

mod frame;
mod query;
mod scratch;
mod shape;
mod world;
mod world_move;
mod world_queries;
#[cfg(test)]
mod world_tests;

pub use query::*;
pub use scratch::scratch;
pub use shape::JsShape;
pub use world::JsWorld;
