//! # collide2d
//!
//! Exact 2D collision detection for games: points, segments, circles, boxes (axis-aligned and
//! rotated), capsules, convex and concave polygons and compound hitboxes, every shape against
//! every shape.
//!
//! - Every shape is a closed set: shapes that only touch intersect.
//! - [`intersects`], [`contains`] and the point tests are exact for the `f32` coordinates given:
//!   no false hit or miss when shapes touch or miss by one unit, at any magnitude (a float filter
//!   with an exact fallback, Shewchuk 1997).
//! - [`contact`] gives a unit normal from `a` towards `b`, a depth and one or two points (for
//!   concave and compound shapes, the shortest move of the whole shape, seams inside);
//!   [`distance`] and [`closest_points`] when apart. `intersects(a, b)` ⇔ `contact(a, b)` is
//!   `Some` ⇔ `distance(a, b) == 0`, and swapping the arguments flips the normal.
//! - [`contains_point`] (exact), [`distance_to_point`], [`project_point`] and [`cast_ray`] query
//!   one shape; [`cast_shapes`] finds when two moving shapes first touch (no tunnelling).
//! - [`int`] has integer shapes for pixel and tile games, exact over the whole `i32` range.
//! - [`CollisionWorld`] holds many objects with layers and masks and finds their colliding
//!   pairs, begin and end events, and point, shape, ray and shape-cast queries, over a choice
//!   of [`BroadPhase`] (uniform grid or bounding-volume trees); fast objects (bullets) are
//!   swept over their motion, with the time of impact; queries see the objects as they are now,
//!   at the same cost with or without an `update`. Objects move one by one or many at once
//!   ([`CollisionWorld::move_many`]), or keep a local shape placed by a pose with no
//!   allocation per frame ([`CollisionWorld::set_pose`]); pairs and events come by layer, with
//!   both objects' data ([`CollisionWorld::pairs_between`]);
//!   [`CollisionWorld::move_shape`] moves a box or capsule through its static objects with a
//!   [`Response`] per contact (slide, stop, cross, bounce, one-way), snag-free on tile seams.
//! - [`batch`] tests one shape against many discs or boxes stored as structure-of-arrays,
//!   with SIMD kernels (AVX2, AVX-512) picked at run time and the same exact answers.
//! - Input sizes are bounded by the constants of [`limits`] (compound depth, polygon points).
//! - Constructors validate and return a `Result`; for values known valid, the `const`
//!   `new_unchecked` constructors ([`Circle::new_unchecked`], [`Aabb::new_unchecked`], ...)
//!   skip the checks in release builds and assert them in debug builds.
//!
//! ## Units and axes
//! The library has no units: coordinates, sizes, radii and motions are whatever your game uses
//! (pixels, tiles, metres), as long as they are consistent. Angles are radians, counter-clockwise
//! from +x towards +y. No query depends on the direction of the y axis, so y up and y down both
//! work; the few places where "up" matters take it as an argument: [`Response::OneWay`]'s `up`
//! (pass `Vec2::Y` with y up, `Vec2::NEG_Y` with y down, as screen coordinates have it) and the
//! grounded test a platformer makes on a contact's normal. Normals point from the first shape
//! (`a`) towards the second (`b`); [`Pose`](math::Pose) rotates counter-clockwise in a y-up frame,
//! which is clockwise on a y-down screen.
//!
//! ## Accuracy
//! Every finite `f32` works, subnormal numbers and `±f32::MAX` included; no query panics or
//! answers NaN. The predicates are exact at every magnitude. Distances, depths and points are
//! computed in `f64` and rounded once, within `1e-6` times the largest coordinate of the two
//! shapes (near `1e7` from the origin, about 1 unit); a positive distance is at least
//! `f32::MIN_POSITIVE`, and distances, depths and points saturate at `f32::MAX`. Rotations use
//! the `libm` crate's `sincosf`, so results are the same bits on every platform.
//!
//! ```
//! use collide2d::{contact, intersects, math::Vec2, Aabb, Circle, Shape};
//! let player: Shape = Aabb::from_rect(0.0, 0.0, 16.0, 32.0)?.into();
//! let bullet: Shape = Circle::new(Vec2::new(20.0, 10.0), 4.0)?.into();
//! assert!(intersects(&player, &bullet)); // touching counts
//! let hit = contact(&player, &bullet).unwrap();
//! assert_eq!(hit.normal, Vec2::X); // from player towards bullet
//! assert_eq!(hit.depth, 0.0);
//! # Ok::<(), collide2d::ShapeError>(())
//! ```
//!
//! ## Features
//! - `std` (default): the standard library: run-time SIMD detection for [`batch`] and the
//!   `Error` impls. Without it the crate is `no_std` with `alloc`, for consoles, embedded and
//!   `wasm32-unknown-unknown`; math comes from `libm` and [`batch`] uses its portable kernel.
//! - `mint`: glam's conversions to and from the `mint` types, for other math crates.
//! - `serde`: the shapes' JSON form of [`formats`] (`{"type": "circle", ...}`), validated on load.
//! - `rayon`: [`CollisionWorld::update`] runs its exact tests in parallel (same results).
//! - `arbitrary`: `Arbitrary` for [`Shape`], valid shapes built through the constructors, for
//!   fuzzing (the repository's `fuzz/` targets use it).
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(missing_docs)]
// Unsafe code lives only in the SIMD kernels (`batch/avx2.rs`, `batch/avx512.rs`), which
// allow it one module at a time; every block there carries its `// SAFETY:` argument.
#![deny(unsafe_code)]
#![deny(unsafe_op_in_unsafe_fn)]

extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

pub mod batch;
#[doc = include_str!("../formats.md")]
pub mod formats {}
mod broad;
pub mod debug_draw;
mod error;
mod exact;
#[cfg(feature = "concave-search")]
mod exact_small;
pub mod int;
pub mod limits;
pub mod math;
pub mod motion;
mod prefetch;
pub mod query;
pub mod shape;
mod sort;
mod sync;
#[cfg(test)]
mod test_support;
pub mod world;

pub use broad::{BroadBox, BroadBoxKind, BroadPhase, BroadPhaseKind};
pub use error::ShapeError;
pub use motion::{
    Ground, MoveContact, MoveSettings, Movement, Obstacles, Response, MAX_MOVE_STEPS,
};
pub use query::{
    cast_ray, cast_shapes, cast_shapes_rotating, closest_points, contact, contains, contains_point,
    distance, distance_to_point, intersects, project_point, CastHit, ClosestPoints, Contact,
    ContactPoints, PairQuery, PointProjection, Ray, RayHit, Sweep,
};
pub use shape::{
    Aabb, Capsule, Circle, Compound, ConvexPolygon, Obb, Point, Polygon, Segment, Shape, ShapeKind,
};
pub use world::{CollisionWorld, Filter, Handle, ObjectKind, Pair, Side, UpdateStats, WorldError};

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
