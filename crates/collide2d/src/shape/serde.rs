//! `Serialize` and `Deserialize` for [`Shape`] in formats.md's JSON form (feature `serde`).
//!
//! A shape is an object with a `type` tag and the fields of that type's formats.md row:
//! `{"type": "circle", "center": [x, y], "radius": r}`. Loading validates through the
//! constructors, so a bad shape is an error that starts with `<type>.<field>`
//! (`circle.radius must be >= 0, got -1`, `compound.parts[2]: circle.radius ...`), never a panic.
//! An unknown `type`, a missing, repeated or extra field is an error too. `rect` loads as an
//! [`Aabb`] (`Aabb::from_rect`); an [`Aabb`] is written as `aabb` and a [`ConvexPolygon`](crate::ConvexPolygon) as
//! `polygon`.
//!
//! The limits of [`crate::limits`] hold while loading: a compound nested deeper than
//! [`MAX_COMPOUND_DEPTH`] is an error as soon as the first level too deep is reached, and a
//! `points` list longer than [`MAX_POLYGON_POINTS`] is counted without being kept, and reading
//! stops at the first convex piece past [`MAX_COMPOUND_PARTS`] in one shape.
//!
//! Error messages hold no input position when read from a `serde_json::Value`; a streaming
//! deserializer such as `serde_json::from_str` may add its own position to them.

use alloc::format;
use alloc::string::String;
use alloc::string::ToString;
use alloc::vec::Vec;
use core::cell::Cell;
use core::fmt;

use serde::de::{
    self, Deserialize, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor,
};
use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::error::ShapeError;
use crate::limits::{MAX_COMPOUND_DEPTH, MAX_COMPOUND_PARTS, MAX_POLYGON_POINTS};
use crate::math::Vec2;
use crate::shape::{
    compound, Aabb, Capsule, Circle, Compound, Obb, Point, Polygon, Segment, Shape,
};

/// A point or vector as formats.md writes it: `[x, y]`.
fn xy(v: Vec2) -> [f32; 2] {
    [v.x, v.y]
}

/// A list of points as `[[x, y], ...]`.
fn xys(points: &[Vec2]) -> Vec<[f32; 2]> {
    points.iter().copied().map(xy).collect()
}

impl Serialize for Shape {
    /// Writes the shape as formats.md's tagged object (`{"type": "circle", ...}`); an `Aabb` as `aabb`, a
    /// `ConvexPolygon` as `polygon`.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let field_count = match self {
            Shape::Point(_) | Shape::Polygon(_) | Shape::ConvexPolygon(_) | Shape::Compound(_) => 1,
            Shape::Segment(_) | Shape::Circle(_) | Shape::Aabb(_) => 2,
            Shape::Obb(_) | Shape::Capsule(_) => 3,
        };
        let mut s = serializer.serialize_struct("Shape", field_count + 1)?;
        s.serialize_field("type", self.kind().name())?;
        match self {
            Shape::Point(p) => s.serialize_field("p", &xy(p.p()))?,
            Shape::Segment(g) => {
                s.serialize_field("a", &xy(g.a()))?;
                s.serialize_field("b", &xy(g.b()))?;
            }
            Shape::Circle(c) => {
                s.serialize_field("center", &xy(c.center()))?;
                s.serialize_field("radius", &c.radius())?;
            }
            Shape::Aabb(b) => {
                s.serialize_field("min", &xy(b.min()))?;
                s.serialize_field("max", &xy(b.max()))?;
            }
            Shape::Obb(o) => {
                s.serialize_field("center", &xy(o.center()))?;
                s.serialize_field("half_extents", &xy(o.half_extents()))?;
                s.serialize_field("angle", &o.angle())?;
            }
            Shape::Capsule(c) => {
                s.serialize_field("a", &xy(c.a()))?;
                s.serialize_field("b", &xy(c.b()))?;
                s.serialize_field("radius", &c.radius())?;
            }
            Shape::ConvexPolygon(p) => s.serialize_field("points", &xys(p.points()))?,
            Shape::Polygon(p) => s.serialize_field("points", &xys(p.points()))?,
            Shape::Compound(c) => s.serialize_field("parts", c.parts())?,
        }
        s.end()
    }
}

/// Every `type` tag, in formats.md's row order, with its fields.
const TYPES: [(&str, &[&str]); 9] = [
    ("point", &["p"]),
    ("segment", &["a", "b"]),
    ("circle", &["center", "radius"]),
    ("aabb", &["min", "max"]),
    ("rect", &["x", "y", "w", "h"]),
    ("obb", &["center", "half_extents", "angle"]),
    ("capsule", &["a", "b", "radius"]),
    ("polygon", &["points"]),
    ("compound", &["parts"]),
];

/// The fields read so far, each at most once.
#[derive(Default)]
struct Fields {
    kind: Option<String>,
    vectors: [Option<Vec2>; 7],
    scalars: [Option<f32>; 6],
    points: Option<Vec<Vec2>>,
    parts: Option<Vec<Shape>>,
    /// Names of the fields present, in input order (for the extra-field check).
    present: Vec<String>,
}

const VECTOR_FIELDS: [&str; 7] = ["p", "a", "b", "center", "min", "max", "half_extents"];
const SCALAR_FIELDS: [&str; 6] = ["radius", "x", "y", "w", "h", "angle"];

impl Fields {
    fn vector(&self, name: &str) -> Vec2 {
        let i = VECTOR_FIELDS.iter().position(|f| *f == name);
        // Only called after the presence check, so the value is there.
        i.and_then(|i| self.vectors[i]).unwrap_or(Vec2::NAN)
    }

    fn scalar(&self, name: &str) -> f32 {
        let i = SCALAR_FIELDS.iter().position(|f| *f == name);
        i.and_then(|i| self.scalars[i]).unwrap_or(f32::NAN)
    }
}

/// Reads `[x, y]`, exactly two numbers, each within the range of `f32`. A coordinate's error
/// starts with `.x` or `.y`, for the caller to put after the field's name.
struct XyVisitor;

impl<'de> Visitor<'de> for XyVisitor {
    type Value = Vec2;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("[x, y]")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec2, A::Error> {
        let mut xy = [0.0f32; 2];
        for (i, axis) in ["x", "y"].into_iter().enumerate() {
            let n = seq
                .next_element::<Number>()
                .map_err(|e| de::Error::custom(format_args!(".{axis}: {e}")))?
                .ok_or_else(|| de::Error::invalid_length(i, &self))?;
            xy[i] = n
                .to_f32()
                .map_err(|m| de::Error::custom(format_args!(".{axis} {m}")))?;
        }
        let mut len = 2;
        while seq.next_element::<IgnoredAny>()?.is_some() {
            len += 1;
        }
        if len > 2 {
            return Err(de::Error::invalid_length(len, &self));
        }
        Ok(Vec2::new(xy[0], xy[1]))
    }
}

/// A JSON number, read as `f64` so one beyond the range of `f32` can be refused and echoed
/// (`f32`'s own loader would turn `1e39` into infinity).
struct Number(f64);

impl Number {
    /// The number as `f32`, or the end of a message: `is out of the f32 range (about ±3.4e38),
    /// got 1e39`.
    fn to_f32(&self) -> Result<f32, String> {
        let x = self.0 as f32;
        if x.is_infinite() && self.0.is_finite() {
            return Err(format!(
                "is out of the f32 range (about ±3.4e38), got {:e}",
                self.0
            ));
        }
        Ok(x)
    }
}

impl<'de> Deserialize<'de> for Number {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Number, D::Error> {
        struct NumberVisitor;
        impl Visitor<'_> for NumberVisitor {
            type Value = Number;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("f32")
            }
            fn visit_f64<E>(self, v: f64) -> Result<Number, E> {
                Ok(Number(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Number, E> {
                Ok(Number(v as f64))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Number, E> {
                Ok(Number(v as f64))
            }
        }
        d.deserialize_f64(NumberVisitor)
    }
}

/// `[x, y]` as a `Deserialize` value.
struct Xy(Vec2);

impl<'de> Deserialize<'de> for Xy {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Xy, D::Error> {
        d.deserialize_seq(XyVisitor).map(Xy)
    }
}

/// Reads a list whose element errors are prefixed with `name[i]: `, each element with `seed`;
/// with `limit = Some((max, error))`, more than `max` elements is `error(count)` (the elements
/// past `max` are counted, not kept).
struct ListVisitor<S> {
    name: &'static str,
    expecting: &'static str,
    seed: S,
    limit: Option<Limit>,
}

/// The most elements a list may have, and the error for a longer one given its length.
type Limit = (usize, fn(usize) -> ShapeError);

impl<'de, S: DeserializeSeed<'de> + Copy> Visitor<'de> for ListVisitor<S> {
    type Value = Vec<S::Value>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.expecting)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<S::Value>, A::Error> {
        let max = self.limit.map_or(usize::MAX, |(max, _)| max);
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(max).min(1024));
        loop {
            let index = items.len();
            if let Some((max, too_many)) = self.limit.filter(|&(max, _)| index == max) {
                let mut got = index;
                while seq.next_element::<IgnoredAny>()?.is_some() {
                    got += 1;
                }
                if got > max {
                    return Err(de::Error::custom(too_many(got)));
                }
                return Ok(items);
            }
            match seq.next_element_seed(self.seed) {
                Ok(Some(item)) => items.push(item),
                Ok(None) => return Ok(items),
                Err(e) => {
                    // `.y ...` continues the path: `points[2].y is out of ...`.
                    let e = e.to_string();
                    let sep = if e.starts_with('.') { "" } else { ": " };
                    return Err(de::Error::custom(format_args!(
                        "{}[{index}]{sep}{e}",
                        self.name
                    )));
                }
            }
        }
    }
}

/// The `points` list, at most [`MAX_POLYGON_POINTS`] long.
struct PointList(Vec<Vec2>);

impl<'de> Deserialize<'de> for PointList {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<PointList, D::Error> {
        let visitor = ListVisitor {
            name: "points",
            expecting: "a list of [x, y] points",
            seed: core::marker::PhantomData::<Xy>,
            limit: Some((MAX_POLYGON_POINTS, |got| ShapeError::TooManyPoints {
                got,
                limit: MAX_POLYGON_POINTS,
            })),
        };
        let list = d.deserialize_seq(visitor)?;
        Ok(PointList(list.into_iter().map(|p| p.0).collect()))
    }
}

/// Reads the `parts` list of a compound nested `depth` levels deep (1 for an outermost
/// compound); its parts are read as shapes inside `depth` compounds.
#[derive(Clone, Copy)]
struct PartsSeed<'p> {
    depth: usize,
    pieces: &'p Cell<usize>,
}

impl<'de> DeserializeSeed<'de> for PartsSeed<'_> {
    type Value = Vec<Shape>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<Shape>, D::Error> {
        d.deserialize_seq(ListVisitor {
            name: "parts",
            expecting: "a list of shapes",
            seed: ShapeVisitor {
                depth: self.depth,
                pieces: self.pieces,
            },
            limit: None,
        })
    }
}

/// Reads one shape object lying inside `depth` compounds (0 for a shape at the top); `pieces`
/// counts the convex pieces read so far in the whole shape (against [`MAX_COMPOUND_PARTS`]).
#[derive(Clone, Copy)]
struct ShapeVisitor<'p> {
    depth: usize,
    pieces: &'p Cell<usize>,
}

impl<'de> DeserializeSeed<'de> for ShapeVisitor<'_> {
    type Value = Shape;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Shape, D::Error> {
        d.deserialize_map(self)
    }
}

impl ShapeVisitor<'_> {
    /// Reads the value of field `key` into `fields`.
    fn read_value<'de, A: MapAccess<'de>>(
        self,
        map: &mut A,
        key: &str,
        fields: &mut Fields,
    ) -> Result<(), A::Error> {
        if key == "type" {
            fields.kind = Some(map.next_value::<String>()?);
        } else if let Some(i) = VECTOR_FIELDS.iter().position(|f| *f == key) {
            fields.vectors[i] = Some(map.next_value::<Xy>()?.0);
        } else if let Some(i) = SCALAR_FIELDS.iter().position(|f| *f == key) {
            let n = map.next_value::<Number>()?;
            let x = n
                .to_f32()
                .map_err(|m| de::Error::custom(format_args!("{key} {m}")))?;
            fields.scalars[i] = Some(x);
        } else if key == "points" {
            fields.points = Some(map.next_value::<PointList>()?.0);
        } else if key == "parts" {
            // Only a compound has parts, so this object is a compound `depth + 1` levels deep:
            // stop here, before reading deeper, if that is too deep.
            let depth = self.depth + 1;
            if depth > MAX_COMPOUND_DEPTH {
                map.next_value::<IgnoredAny>()?;
                return Err(de::Error::custom(ShapeError::TooDeep {
                    limit: MAX_COMPOUND_DEPTH,
                }));
            }
            fields.parts = Some(map.next_value_seed(PartsSeed {
                depth,
                pieces: self.pieces,
            })?);
        } else {
            map.next_value::<IgnoredAny>()?;
        }
        Ok(())
    }

    /// After a bad value for `key`, looks ahead for the `type` tag so the message can name it;
    /// gives up quietly at the first further error.
    fn find_kind<'de, A: MapAccess<'de>>(map: &mut A, fields: &Fields) -> Option<String> {
        if let Some(kind) = &fields.kind {
            return Some(kind.clone());
        }
        while let Ok(Some(key)) = map.next_key::<String>() {
            if key == "type" {
                return map.next_value::<String>().ok();
            }
            map.next_value::<IgnoredAny>().ok()?;
        }
        None
    }
}

/// `<type>.<field>: <message>`, or `<type>.<message>` when the message already starts with the
/// field's name (`points[2]: ...`, `points must hold at most ...`), or `<type>.<field><message>`
/// when it continues the path (`.y is out of ...`).
fn field_message(kind: Option<&str>, key: &str, message: &str) -> String {
    let prefix = kind.map(|k| format!("{k}.")).unwrap_or_default();
    if message.starts_with('.') {
        return format!("{prefix}{key}{message}");
    }
    let indexed = message
        .strip_prefix(key)
        .is_some_and(|rest| rest.starts_with('[') || rest.starts_with(' '));
    if indexed {
        format!("{prefix}{message}")
    } else {
        format!("{prefix}{key}: {message}")
    }
}

impl<'de> Visitor<'de> for ShapeVisitor<'_> {
    type Value = Shape;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(
            "a shape object such as {\"type\": \"circle\", \"center\": [x, y], \"radius\": r}",
        )
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Shape, A::Error> {
        let mut fields = Fields::default();
        while let Some(key) = map.next_key::<String>()? {
            if fields.present.contains(&key) {
                let kind = ShapeVisitor::find_kind(&mut map, &fields);
                return Err(de::Error::custom(field_message(
                    kind.as_deref(),
                    &key,
                    "repeated field",
                )));
            }
            if let Err(e) = self.read_value(&mut map, &key, &mut fields) {
                let kind = ShapeVisitor::find_kind(&mut map, &fields);
                return Err(de::Error::custom(field_message(
                    kind.as_deref(),
                    &key,
                    &e.to_string(),
                )));
            }
            fields.present.push(key);
        }
        let shape = build(&fields).map_err(de::Error::custom)?;
        // A compound's pieces were counted as its parts were read; the others count here, so
        // a compound of too many parts stops at the first one past the limit.
        if self.depth > 0 && !matches!(shape, Shape::Compound(_)) {
            let total = self.pieces.get() + compound::pieces(&shape);
            self.pieces.set(total);
            if total > MAX_COMPOUND_PARTS {
                return Err(de::Error::custom(ShapeError::TooManyParts {
                    limit: MAX_COMPOUND_PARTS,
                }));
            }
        }
        Ok(shape)
    }
}

/// Checks the fields against the type's formats.md row and builds the shape.
fn build(fields: &Fields) -> Result<Shape, String> {
    let names = || TYPES.iter().map(|(t, _)| *t).collect::<Vec<_>>().join(", ");
    let kind = fields
        .kind
        .as_deref()
        .ok_or_else(|| format!("type is missing (one of {})", names()))?;
    let (kind, expected) = TYPES
        .iter()
        .find(|(t, _)| *t == kind)
        .ok_or_else(|| format!("type {kind:?} is unknown (expected one of {})", names()))?;
    let list = expected.join(", ");
    if let Some(extra) = fields
        .present
        .iter()
        .find(|f| *f != "type" && !expected.contains(&f.as_str()))
    {
        return Err(format!(
            "{kind}.{extra} is not a field of {kind} (expected {list})"
        ));
    }
    if let Some(missing) = expected
        .iter()
        .find(|f| !fields.present.iter().any(|p| p == *f))
    {
        return Err(format!("{kind}.{missing} is missing (expected {list})"));
    }
    let (v, s) = (|n| fields.vector(n), |n| fields.scalar(n));
    let shape: Result<Shape, ShapeError> = match *kind {
        "point" => Point::new(v("p")).map(Shape::from),
        "segment" => Segment::new(v("a"), v("b")).map(Shape::from),
        "circle" => Circle::new(v("center"), s("radius")).map(Shape::from),
        "aabb" => Aabb::new(v("min"), v("max")).map(Shape::from),
        "rect" => Aabb::from_rect(s("x"), s("y"), s("w"), s("h")).map(Shape::from),
        "obb" => Obb::new(v("center"), v("half_extents"), s("angle")).map(Shape::from),
        "capsule" => Capsule::new(v("a"), v("b"), s("radius")).map(Shape::from),
        "polygon" => Polygon::new(fields.points.as_deref().unwrap_or_default()).map(Shape::from),
        _ => Compound::new(fields.parts.clone().unwrap_or_default()).map(Shape::from),
    };
    shape.map_err(|e| format!("{kind}.{e}"))
}

impl<'de> Deserialize<'de> for Shape {
    /// Reads formats.md's tagged object and validates it through the shape's constructor; errors start
    /// with `<type>.<field>` (`circle.radius must be >= 0, got -1`). `rect` loads as an `Aabb`.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Shape, D::Error> {
        let pieces = Cell::new(0);
        deserializer.deserialize_map(ShapeVisitor {
            depth: 0,
            pieces: &pieces,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::ConvexPolygon;
    use alloc::vec;
    use serde_json::{json, Value};

    fn load(v: Value) -> Result<Shape, String> {
        Shape::deserialize(v).map_err(|e| e.to_string())
    }

    fn v(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    fn every_shape() -> Vec<Shape> {
        let square = [v(0.0, 0.0), v(2.0, 0.0), v(2.0, 2.0), v(0.0, 2.0)];
        let l = [
            v(0.0, 0.0),
            v(2.0, 0.0),
            v(2.0, 1.0),
            v(1.0, 1.0),
            v(1.0, 2.0),
            v(0.0, 2.0),
        ];
        let shapes: Vec<Result<Shape, ShapeError>> = vec![
            Point::new(v(1.5, -2.0)).map(Shape::from),
            Segment::new(v(0.0, 0.0), v(3.0, 4.0)).map(Shape::from),
            Circle::new(v(1.0, 2.0), 0.5).map(Shape::from),
            Aabb::new(v(-1.0, -2.0), v(3.0, 4.0)).map(Shape::from),
            Obb::new(v(1.0, 1.0), v(2.0, 0.5), 0.7).map(Shape::from),
            Capsule::new(v(0.0, 0.0), v(0.0, 5.0), 1.25).map(Shape::from),
            Polygon::new(&square).map(Shape::from),
            Polygon::new(&l).map(Shape::from),
        ];
        let mut shapes: Vec<Shape> = shapes.into_iter().collect::<Result<_, _>>().unwrap();
        let compound = Compound::new(shapes.clone()).unwrap();
        shapes.push(compound.clone().into());
        shapes.push(Compound::new(vec![compound.into()]).unwrap().into());
        shapes
    }

    #[test]
    fn every_shape_round_trips() {
        for shape in every_shape() {
            let text = serde_json::to_string(&shape).unwrap();
            let back: Shape = serde_json::from_str(&text).unwrap();
            assert_eq!(back, shape, "{text}");
            assert_eq!(
                load(serde_json::from_str(&text).unwrap()).unwrap(),
                shape,
                "{text}"
            );
        }
    }

    #[test]
    fn circle_is_written_in_format_md_form() {
        let c: Shape = Circle::new(v(1.0, 2.0), 0.5).unwrap().into();
        assert_eq!(
            serde_json::to_value(&c).unwrap(),
            json!({"type": "circle", "center": [1.0, 2.0], "radius": 0.5})
        );
    }

    #[test]
    fn rect_loads_as_the_aabb_from_corner_and_size() {
        let r = load(json!({"type": "rect", "x": 10, "y": 20, "w": 32, "h": 16})).unwrap();
        assert_eq!(r, Aabb::new(v(10.0, 20.0), v(42.0, 36.0)).unwrap().into());
        assert_eq!(
            serde_json::to_value(&r).unwrap(),
            json!({"type": "aabb", "min": [10.0, 20.0], "max": [42.0, 36.0]})
        );
    }

    #[test]
    fn convex_polygon_is_written_as_polygon() {
        let tri = [v(0.0, 0.0), v(1.0, 0.0), v(0.0, 1.0)];
        let c: Shape = ConvexPolygon::new(&tri).unwrap().into();
        let value = serde_json::to_value(&c).unwrap();
        assert_eq!(value["type"], "polygon");
        assert_eq!(load(value).unwrap(), Polygon::new(&tri).unwrap().into());
    }

    #[test]
    fn fields_may_come_in_any_order() {
        let c = load(json!({"radius": 1, "center": [0, 0], "type": "circle"})).unwrap();
        assert_eq!(c, Circle::new(Vec2::ZERO, 1.0).unwrap().into());
        let text = r#"{"radius": 1, "center": [0, 0], "type": "circle"}"#;
        assert_eq!(serde_json::from_str::<Shape>(text).unwrap(), c);
    }

    #[test]
    fn invalid_shapes_name_the_type_and_field() {
        let cases = [
            (
                json!({"type": "circle", "center": [0, 0], "radius": -1}),
                "circle.radius must be >= 0, got -1",
            ),
            (
                json!({"type": "circle", "center": [0, 1e39], "radius": 1}),
                "circle.center.y is out of the f32 range (about ±3.4e38), got 1e39",
            ),
            (
                json!({"type": "circle", "center": [0, 0], "radius": -3.5e38}),
                "circle.radius is out of the f32 range (about ±3.4e38), got -3.5e38",
            ),
            (
                json!({"type": "polygon", "points": [[0, 0], [1, 0], [1e300, 1]]}),
                "polygon.points[2].x is out of the f32 range (about ±3.4e38), got 1e300",
            ),
            (
                json!({"type": "rect", "x": 0, "y": 0, "w": -2, "h": 1}),
                "rect.w must be >= 0, got -2",
            ),
            (
                json!({"type": "aabb", "min": [3, 0], "max": [1, 1]}),
                "aabb.min.x must be <= max.x, got 3 > 1",
            ),
            (
                json!({"type": "polygon", "points": [[0, 0], [1, 1]]}),
                "polygon.points must hold at least 3 distinct points, got 2",
            ),
            (
                json!({"type": "polygon", "points": [[0, 0], [1, 1], [2, 2]]}),
                "polygon.points enclose zero area",
            ),
            (
                json!({"type": "compound", "parts": []}),
                "compound.parts must not be empty",
            ),
            (
                json!({"type": "compound", "parts": [{"type": "point", "p": [0, 0]}, {"type": "circle", "center": [0, 0], "radius": -1}]}),
                "compound.parts[1]: circle.radius must be >= 0, got -1",
            ),
        ];
        for (input, message) in cases {
            assert_eq!(load(input).unwrap_err(), message);
        }
    }

    #[test]
    fn malformed_objects_are_errors_that_name_the_field() {
        let cases = [
            (json!({"center": [0, 0], "radius": 1}), "type is missing (one of point, segment, circle, aabb, rect, obb, capsule, polygon, compound)"),
            (json!({"type": "disc"}), "type \"disc\" is unknown (expected one of point, segment, circle, aabb, rect, obb, capsule, polygon, compound)"),
            (json!({"type": "circle", "center": [0, 0]}), "circle.radius is missing (expected center, radius)"),
            (json!({"type": "circle", "center": [0, 0], "radius": 1, "min": [0, 0]}), "circle.min is not a field of circle (expected center, radius)"),
            (json!({"type": "circle", "center": [0, 0], "radius": 1, "colour": "red"}), "circle.colour is not a field of circle (expected center, radius)"),
            (json!({"type": "circle", "center": [0, 0, 0], "radius": 1}), "circle.center: invalid length 3, expected [x, y]"),
            (json!({"type": "circle", "center": [0], "radius": 1}), "circle.center: invalid length 1, expected [x, y]"),
            (json!({"radius": "big", "center": [0, 0], "type": "circle"}), "circle.radius: invalid type: string \"big\", expected f32"),
            (json!({"type": "polygon", "points": [[0, 0], [1, 0], "x"]}), "polygon.points[2]: invalid type: string \"x\", expected [x, y]"),
            (json!({"type": "compound", "parts": {}}), "compound.parts: invalid type: map, expected a list of shapes"),
            (json!({"type": 3}), "type: invalid type: integer `3`, expected a string"),
        ];
        for (input, message) in cases {
            assert_eq!(load(input).unwrap_err(), message);
        }
        let not_a_shape = load(json!([1, 2])).unwrap_err();
        assert!(
            not_a_shape.starts_with("invalid type: sequence, expected a shape object"),
            "{not_a_shape}"
        );
    }

    /// `{"type": "compound", "parts": [...]}` nested `depth` levels around a point.
    fn nested_json(depth: usize) -> String {
        let open = r#"{"type": "compound", "parts": ["#.repeat(depth);
        let close = "]}".repeat(depth);
        format!(r#"{open}{{"type": "point", "p": [0, 0]}}{close}"#)
    }

    #[test]
    fn compounds_load_up_to_the_depth_limit() {
        let text = nested_json(MAX_COMPOUND_DEPTH);
        let Shape::Compound(c) = serde_json::from_str::<Shape>(&text).unwrap() else {
            panic!("a compound")
        };
        assert_eq!(c.depth(), MAX_COMPOUND_DEPTH);
        let value: Value = serde_json::from_str(&text).unwrap();
        assert!(load(value).is_ok());
    }

    #[test]
    fn deeper_compounds_are_an_error_naming_the_limit() {
        let limit_message =
            "compound.parts nest compounds deeper than 32 levels (limit MAX_COMPOUND_DEPTH)";
        let path = "compound.parts[0]: ".repeat(MAX_COMPOUND_DEPTH);
        let text = nested_json(MAX_COMPOUND_DEPTH + 1);
        let from_value = load(serde_json::from_str(&text).unwrap()).unwrap_err();
        assert_eq!(from_value, format!("{path}{limit_message}"));
        let from_str = serde_json::from_str::<Shape>(&text)
            .unwrap_err()
            .to_string();
        assert!(
            from_str.starts_with(&format!("{path}{limit_message}")),
            "{from_str}"
        );
    }

    #[test]
    fn very_deep_input_is_an_error_not_a_stack_overflow() {
        // The loader stops at level 33, long before serde_json's own limit of 128 JSON levels,
        // and skips the rest without recursing.
        let text = nested_json(100_000);
        let err = serde_json::from_str::<Shape>(&text)
            .unwrap_err()
            .to_string();
        assert!(err.contains("(limit MAX_COMPOUND_DEPTH)"), "{err}");
    }

    #[test]
    fn too_many_points_is_an_error_naming_the_limit() {
        let points = |n: usize| {
            let pts: Vec<String> = (0..n)
                .map(|k| {
                    let p = Vec2::from_angle(k as f32 * core::f32::consts::TAU / n as f32) * 100.0;
                    format!("[{}, {}]", p.x, p.y)
                })
                .collect();
            format!(r#"{{"type": "polygon", "points": [{}]}}"#, pts.join(", "))
        };
        let ok = serde_json::from_str::<Shape>(&points(MAX_POLYGON_POINTS));
        assert!(ok.is_ok(), "{ok:?}");
        let err = load(serde_json::from_str(&points(1000)).unwrap()).unwrap_err();
        assert_eq!(
            err,
            "polygon.points must hold at most 128 points (limit MAX_POLYGON_POINTS), got 1000"
        );
    }

    /// A compound of `n` point parts, nested in `levels` more compounds of one part each.
    fn points_compound(n: usize, levels: usize) -> String {
        let parts: Vec<String> = (0..n)
            .map(|i| format!(r#"{{"type": "point", "p": [{i}, 0]}}"#))
            .collect();
        let mut text = format!(r#"{{"type": "compound", "parts": [{}]}}"#, parts.join(", "));
        for _ in 0..levels {
            text = format!(r#"{{"type": "compound", "parts": [{text}]}}"#);
        }
        text
    }

    #[test]
    fn too_many_parts_is_an_error_naming_the_limit() {
        let ok = serde_json::from_str::<Shape>(&points_compound(MAX_COMPOUND_PARTS, 2));
        assert!(ok.is_ok(), "{:?}", ok.err());
        let err = serde_json::from_str::<Shape>(&points_compound(MAX_COMPOUND_PARTS + 1, 1))
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with(
                "compound.parts[0]: compound.parts[1024]: parts must hold at most 1024 convex \
                 pieces, nesting included (limit MAX_COMPOUND_PARTS)"
            ),
            "{err}"
        );
        // Pieces count across nested compounds: two halves and one more point is too many.
        let half = points_compound(MAX_COMPOUND_PARTS / 2, 0);
        let text = format!(
            r#"{{"type": "compound", "parts": [{half}, {half}, {{"type": "point", "p": [0, 0]}}]}}"#
        );
        let err = serde_json::from_str::<Shape>(&text)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("compound.parts[2]: parts must hold at most 1024"),
            "{err}"
        );
    }

    #[test]
    fn repeated_field_is_an_error() {
        let err = serde_json::from_str::<Shape>(r#"{"type": "point", "p": [0, 0], "p": [1, 1]}"#)
            .unwrap_err();
        assert!(
            err.to_string().starts_with("point.p: repeated field"),
            "{err}"
        );
    }
}
