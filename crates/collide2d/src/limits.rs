//! Limits on input size: each keeps one hostile input from exhausting the stack, the memory or
//! the time of a program that loads shapes it did not write (level files, network messages,
//! JSON Lines fed to the `collide2d` command).
//!
//! Each limit has one constant here, and going past it is an error that names the constant:
//! [`ShapeError::TooDeep`](crate::ShapeError::TooDeep),
//! [`ShapeError::TooManyPoints`](crate::ShapeError::TooManyPoints) and
//! [`ShapeError::TooManyParts`](crate::ShapeError::TooManyParts) from the constructors and the
//! serde loader, and the command line's error lines for [`MAX_LINE_BYTES`] and the scene limits.

/// The deepest nesting of compounds: a compound whose parts are not compounds has depth 1, and a
/// compound holding a compound of depth `d` has depth `d + 1`.
///
/// Queries, [`Shape::transformed`](crate::Shape::transformed) and dropping a shape recurse once
/// per level, so this bounds their stack use. The serde loader stops at the first level too
/// deep, before reading further (serde_json's own limit, 128 levels of JSON, is higher: a
/// compound level takes two).
pub const MAX_COMPOUND_DEPTH: usize = 32;

/// The most points a [`Polygon`](crate::Polygon) or [`ConvexPolygon`](crate::ConvexPolygon)
/// may be given (before repeated and straight points are dropped).
///
/// A polygon's validation (the simplicity check) is quadratic in its points and its convex
/// decomposition cubic in the worst case. At 128 points the slowest shapes measured (a thick
/// spiral of 82 convex parts, a 64-pointed star, a 128-gon) take 1.0–1.7 ms to build in a
/// release build on a 2-core x86_64 machine; 256 points take up to 26 ms. Larger outlines can
/// be split into a [`Compound`](crate::Compound) of polygons.
pub const MAX_POLYGON_POINTS: usize = 128;

/// The most convex pieces one shape may hold, nesting included: 1024. A convex shape is one
/// piece, a [`Polygon`](crate::Polygon) as many as its convex parts, and a
/// [`Compound`](crate::Compound) the sum over its parts (so this also bounds the parts given to
/// any one compound).
///
/// A compound indexes its parts in a tree of boxes built with it, so a query between two
/// compounds tests only the pairs of pieces whose boxes meet: near-linear time when few of them
/// overlap. Pieces that all overlap each other still meet pair by pair, which this limit bounds:
/// two compounds of 1024 equal boxes on one point take 0.9 s for a contact and 0.7 s for a
/// cast (release build, a loaded 2-core x86_64 machine; 4096 pieces took 11 s and 18 s). The
/// serde loader counts pieces as it reads, and stops at the first piece past the limit.
pub const MAX_COMPOUND_PARTS: usize = 1024;

/// The most candidate pairs a [`CollisionWorld::update`](crate::CollisionWorld::update) tests
/// unless [`set_max_pairs`](crate::CollisionWorld::set_max_pairs) says otherwise: 4,194,304
/// (about 256 MB of pair lists without contacts). Past it the update stops and sets
/// [`UpdateStats::truncated`](crate::UpdateStats::truncated), rather than abort on an
/// allocation failure (20,000 objects on one point make 200 million pairs).
pub const MAX_UPDATE_PAIRS: usize = 1 << 22;

/// The longest line `collide2d query` reads, in bytes (without the line break): 1 MiB. A longer
/// line is answered with an error line naming this limit and skipped without being held in
/// memory; the lines after it are still answered.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// The most objects a `collide2d pairs` scene may hold: 1,048,576.
pub const MAX_SCENE_OBJECTS: usize = 1 << 20;

/// The largest `collide2d pairs` scene file, in bytes: 256 MiB (the scene is one JSON object,
/// read whole).
pub const MAX_SCENE_BYTES: usize = 256 << 20;
