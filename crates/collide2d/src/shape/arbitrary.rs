//! `Arbitrary` for [`Shape`] (feature `arbitrary`): fuzzers build valid shapes through the
//! constructors.
//!
//! Numbers are drawn so that the cases where exactness matters come up often: small integers
//! (touching and one-unit-apart shapes), small integers scaled by any power of two from
//! subnormal to near `f32::MAX`, a large offset plus a small integer, values at the edges
//! (`0`, `-0`, the smallest subnormal and normal numbers, `±f32::MAX`, `1e7`), and raw `f32`
//! bits. Input the constructor rejects (a NaN, a self-crossing polygon) is
//! [`arbitrary::Error::IncorrectFormat`], so a fuzzer moves on to the next input. Compounds
//! nest at most three deep and hold at most four parts; polygons have at most eight points.

use alloc::vec::Vec;
use arbitrary::{Arbitrary, Error, Result, Unstructured};

use crate::math::Vec2;
use crate::shape::{
    Aabb, Capsule, Circle, Compound, ConvexPolygon, Obb, Point, Polygon, Segment, Shape,
};

/// Numbers at the edges of `f32`.
const EDGES: [f32; 12] = [
    0.0,
    -0.0,
    1.0e-45,
    -1.0e-45,
    f32::MIN_POSITIVE,
    1.0e7,
    -1.0e7,
    16_777_216.0,
    1.0e30,
    f32::MAX,
    f32::MIN,
    f32::EPSILON,
];

/// One coordinate.
fn number(u: &mut Unstructured) -> Result<f32> {
    let small = |u: &mut Unstructured| -> Result<f32> { Ok(f32::from(u.int_in_range(-8i8..=8)?)) };
    Ok(match u.int_in_range(0u8..=9)? {
        0..=3 => small(u)?,
        4 | 5 => {
            let exp = u.int_in_range(-149i32..=127)?;
            small(u)? * 2f64.powi(exp) as f32
        }
        6 => {
            let exp = u.int_in_range(10i32..=30)?;
            2f64.powi(exp) as f32 + small(u)?
        }
        7 => *u.choose(&EDGES)?,
        _ => f32::from_bits(u32::arbitrary(u)?),
    })
}

fn vec2(u: &mut Unstructured) -> Result<Vec2> {
    Ok(Vec2::new(number(u)?, number(u)?))
}

/// Between 3 and 8 points, either as drawn or sorted by angle about their mean (which makes a
/// simple polygon far more likely).
fn points(u: &mut Unstructured) -> Result<Vec<Vec2>> {
    let n = u.int_in_range(3usize..=8)?;
    let mut pts = (0..n).map(|_| vec2(u)).collect::<Result<Vec<_>>>()?;
    if bool::arbitrary(u)? {
        let c = pts.iter().fold(glam::DVec2::ZERO, |s, p| s + p.as_dvec2()) / n as f64;
        let angle = |p: &Vec2| {
            let d = p.as_dvec2() - c;
            d.y.atan2(d.x)
        };
        pts.sort_by(|a, b| angle(a).total_cmp(&angle(b)));
    }
    Ok(pts)
}

/// A shape, compounds at most `depth` deep.
fn shape(u: &mut Unstructured, depth: u32) -> Result<Shape> {
    let max_kind = if depth == 0 { 8 } else { 9 };
    let built = match u.int_in_range(0u8..=max_kind)? {
        0 => Point::new(vec2(u)?).map(Shape::from),
        1 => Segment::new(vec2(u)?, vec2(u)?).map(Shape::from),
        2 => Circle::new(vec2(u)?, number(u)?.abs()).map(Shape::from),
        3 => Aabb::new(vec2(u)?, vec2(u)?).map(Shape::from),
        4 => Aabb::from_rect(number(u)?, number(u)?, number(u)?.abs(), number(u)?.abs())
            .map(Shape::from),
        5 => {
            let half = vec2(u)?.abs();
            let angle = if bool::arbitrary(u)? {
                f32::from(u.int_in_range(0u8..=7)?) * core::f32::consts::FRAC_PI_4
            } else {
                number(u)?
            };
            Obb::new(vec2(u)?, half, angle).map(Shape::from)
        }
        6 => Capsule::new(vec2(u)?, vec2(u)?, number(u)?.abs()).map(Shape::from),
        7 => ConvexPolygon::new(&points(u)?).map(Shape::from),
        8 => Polygon::new(&points(u)?).map(Shape::from),
        _ => {
            let n = u.int_in_range(1usize..=4)?;
            let parts = (0..n)
                .map(|_| shape(u, depth - 1))
                .collect::<Result<Vec<_>>>()?;
            Compound::new(parts).map(Shape::from)
        }
    };
    built.map_err(|_| Error::IncorrectFormat)
}

impl<'a> Arbitrary<'a> for Shape {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Shape> {
        shape(u, 3)
    }
}
