//! [`ShapeError`]: why a shape was rejected at construction.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::string::ToString;
use thiserror::Error;

/// Why a shape could not be built. Each variant names the offending field and holds its value.
///
/// `Display` is lower case with no final period, and starts with the field's name, so a caller
/// can prefix the shape type: `circle.radius must be >= 0, got -1`.
#[derive(Clone, Debug, PartialEq, Error)]
#[non_exhaustive]
pub enum ShapeError {
    /// A coordinate, radius, size or angle was NaN or infinite.
    #[error("{field} must be finite, got {got}")]
    NonFinite {
        /// The field, for example `radius` or `points[3].x`.
        field: String,
        /// The value given.
        got: f32,
    },
    /// A radius, size or half extent was negative.
    #[error("{field} must be >= 0, got {got}")]
    Negative {
        /// The field, for example `radius` or `w`.
        field: &'static str,
        /// The value given.
        got: f32,
    },
    /// An integer size or radius was negative.
    #[error("{field} must be >= 0, got {got}")]
    NegativeInt {
        /// The field, for example `radius` or `w`.
        field: &'static str,
        /// The value given.
        got: i64,
    },
    /// A box's `min` exceeded its `max` on one axis.
    #[error("min.{axis} must be <= max.{axis}, got {min} > {max}")]
    MinAboveMax {
        /// `"x"` or `"y"`.
        axis: &'static str,
        /// The `min` coordinate given.
        min: f32,
        /// The `max` coordinate given.
        max: f32,
    },
    /// A corner-plus-size box whose far corner overflows `f32`, or a rotated box whose corner
    /// does.
    #[error("{field} overflows: {origin} + {size} is not finite")]
    Overflow {
        /// `"x + w"`, `"y + h"` or `"center + half_extents"`.
        field: &'static str,
        /// The corner (or center) coordinate.
        origin: f32,
        /// The size (or the larger half extent).
        size: f32,
    },
    /// A polygon with fewer than three distinct points.
    #[error("points must hold at least 3 distinct points, got {distinct}")]
    TooFewPoints {
        /// How many distinct points there were.
        distinct: usize,
    },
    /// A polygon whose points all lie on one line.
    #[error("points enclose zero area")]
    ZeroArea,
    /// A polygon whose boundary crosses or touches itself.
    #[error("points cross themselves: edge {first} meets edge {second}")]
    SelfIntersecting {
        /// Index of the first edge (from `points[i]` to `points[i + 1]`).
        first: usize,
        /// Index of the second edge.
        second: usize,
    },
    /// A convex polygon whose points are not in convex position.
    #[error("points are not convex (use a polygon, which may be concave)")]
    NotConvex,
    /// A compound with no parts.
    #[error("parts must not be empty")]
    EmptyCompound,
    /// A polygon given more points than [`MAX_POLYGON_POINTS`](crate::limits::MAX_POLYGON_POINTS).
    #[error("points must hold at most {limit} points (limit MAX_POLYGON_POINTS), got {got}")]
    TooManyPoints {
        /// How many points were given.
        got: usize,
        /// The limit, [`MAX_POLYGON_POINTS`](crate::limits::MAX_POLYGON_POINTS).
        limit: usize,
    },
    /// Compounds nested deeper than [`MAX_COMPOUND_DEPTH`](crate::limits::MAX_COMPOUND_DEPTH).
    #[error("parts nest compounds deeper than {limit} levels (limit MAX_COMPOUND_DEPTH)")]
    TooDeep {
        /// The limit, [`MAX_COMPOUND_DEPTH`](crate::limits::MAX_COMPOUND_DEPTH).
        limit: usize,
    },
    /// A compound holding more than
    /// [`MAX_COMPOUND_PARTS`](crate::limits::MAX_COMPOUND_PARTS) convex pieces, nesting
    /// included.
    #[error(
        "parts must hold at most {limit} convex pieces, nesting included (limit MAX_COMPOUND_PARTS)"
    )]
    TooManyParts {
        /// The limit, [`MAX_COMPOUND_PARTS`](crate::limits::MAX_COMPOUND_PARTS).
        limit: usize,
    },
    /// A compound part was rejected.
    #[error("parts[{index}]: {kind}.{source}")]
    InPart {
        /// Position of the part in `parts`.
        index: usize,
        /// The part's type name, as in formats.md (`circle`, `aabb`, ...).
        kind: &'static str,
        /// Why the part was rejected.
        source: Box<ShapeError>,
    },
}

/// Checks that `value` is finite, naming `field` otherwise.
pub(crate) fn finite(field: &str, value: f32) -> Result<f32, ShapeError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(ShapeError::NonFinite {
            field: field.to_string(),
            got: value,
        })
    }
}

/// Checks that both coordinates of `value` are finite, naming `field.x` or `field.y` otherwise.
pub(crate) fn finite_vec(field: &str, value: glam::Vec2) -> Result<glam::Vec2, ShapeError> {
    if value.is_finite() {
        return Ok(value);
    }
    let (axis, got) = if value.x.is_finite() {
        ("y", value.y)
    } else {
        ("x", value.x)
    };
    Err(ShapeError::NonFinite {
        field: format!("{field}.{axis}"),
        got,
    })
}

/// Checks that `value` is finite and `>= 0`.
pub(crate) fn non_negative(field: &'static str, value: f32) -> Result<f32, ShapeError> {
    finite(field, value)?;
    if value < 0.0 {
        Err(ShapeError::Negative { field, got: value })
    } else {
        Ok(value)
    }
}
