//! What a map turns into: [`LevelObject`]s carrying a shape and the map's names for it.

use std::collections::BTreeMap;

use collide2d::Shape;

use crate::error::{At, ErrorKind, LevelError};

/// Custom properties by name, in name order (Tiled's custom properties, LDtk's entity fields).
pub type Properties = BTreeMap<String, Property>;

/// One custom property's value, with the type the editor gave it.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Property {
    /// `bool`.
    Bool(bool),
    /// `int`.
    Int(i64),
    /// `float`.
    Float(f64),
    /// `string`, and LDtk's `Enum` values (the value's name).
    String(String),
    /// `color`, as the editor writes it (`#aarrggbb` in Tiled, `#rrggbb` in LDtk).
    Color(String),
    /// `file`: a path relative to the map.
    File(String),
    /// Tiled's `object`: the id of another object of the map (0: none).
    Object(u32),
    /// Tiled's `class` properties: a class name and its members.
    Class {
        /// The class name (`propertytype`).
        class: String,
        /// Its members.
        properties: Properties,
    },
    /// A list of values (Tiled's `list`, LDtk's `Array<...>` fields).
    List(Vec<Property>),
    /// Any other LDtk field (a point, an entity reference, a tile), as the project's JSON.
    Json(serde_json::Value),
}

impl Property {
    /// The name of its type, for messages: `bool`, `int`, `float`, `string`, `color`, `file`,
    /// `object`, `class`, `list` or `json`.
    #[must_use]
    pub fn type_name(&self) -> &'static str {
        match self {
            Property::Bool(_) => "bool",
            Property::Int(_) => "int",
            Property::Float(_) => "float",
            Property::String(_) => "string",
            Property::Color(_) => "color",
            Property::File(_) => "file",
            Property::Object(_) => "object",
            Property::Class { .. } => "class",
            Property::List(_) => "list",
            Property::Json(_) => "json",
        }
    }
}

/// Which part of the map a [`LevelObject`] comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ObjectSource {
    /// A Tiled object of an object layer, by its id (unique in the map).
    Object {
        /// The object's id.
        id: u32,
    },
    /// One placed tile of a Tiled tile layer (its collision shapes, or the whole cell).
    Tile {
        /// The tile's column.
        x: i32,
        /// The tile's row (counted downwards, as in the editor).
        y: i32,
        /// The tile's id within its tileset.
        tile: u32,
    },
    /// A rectangle of whole cells, merged from solid tiles or LDtk IntGrid values (one cell
    /// when [`TileMode::PerTile`](crate::TileMode::PerTile)).
    Cells {
        /// The first column.
        x: i32,
        /// The first row (counted downwards).
        y: i32,
        /// Columns covered.
        w: u32,
        /// Rows covered.
        h: u32,
    },
    /// An LDtk entity, by its instance id.
    Entity {
        /// The entity's `iid`.
        iid: String,
    },
}

/// One collision shape loaded from a map, with the names the map gives it: the caller decides
/// from these its collide2d layer, mask and kind (static or dynamic).
#[derive(Clone, Debug, PartialEq)]
pub struct LevelObject {
    /// The shape, in the level's [`YAxis`](crate::YAxis) convention, in map units (pixels).
    pub shape: Shape,
    /// The map: a Tiled map's file name, or an LDtk level's identifier.
    pub map: String,
    /// The layer's name (`Group/Layer` for a Tiled layer inside a group layer).
    pub layer: String,
    /// The object's name (Tiled), the entity's identifier (LDtk), or empty.
    pub name: String,
    /// The class (Tiled's class or type; the tile's class for a placed tile; the layer's class
    /// for merged tiles), the LDtk entity's identifier, or the IntGrid value's identifier (its
    /// number when it has none).
    pub class: String,
    /// Custom properties (an object's, a placed tile's, the layer's for merged tiles; an LDtk
    /// entity's fields).
    pub properties: Properties,
    /// Where in the map it comes from.
    pub source: ObjectSource,
}

impl LevelObject {
    /// A short name, map, layer and object: `a.tmx/Walls/door#7`, `a.tmx/Walls/tile 3,4`,
    /// `a.tmx/Walls/cells 0,9 40x1`, `Level_0/Entities/Player#<iid>` (the command line's ids).
    #[must_use]
    pub fn key(&self) -> String {
        let prefix = format!("{}/{}", self.map, self.layer);
        match &self.source {
            ObjectSource::Object { id } => format!("{prefix}/{}#{id}", self.name),
            ObjectSource::Tile { x, y, .. } => format!("{prefix}/tile {x},{y}"),
            ObjectSource::Cells { x, y, w, h } => format!("{prefix}/cells {x},{y} {w}x{h}"),
            ObjectSource::Entity { iid } => format!("{prefix}/{}#{iid}", self.name),
        }
    }

    /// The `bool` property `name`, `None` when absent.
    ///
    /// # Errors
    /// [`ErrorKind::PropertyType`] when it has another type; the error names the map, layer
    /// and object.
    pub fn bool_property(&self, name: &str) -> Result<Option<bool>, LevelError> {
        match self.properties.get(name) {
            None => Ok(None),
            Some(Property::Bool(b)) => Ok(Some(*b)),
            Some(other) => Err(self.type_error(name, "bool", other)),
        }
    }

    /// The `int` property `name`, `None` when absent.
    ///
    /// # Errors
    /// [`ErrorKind::PropertyType`] when it has another type.
    pub fn int_property(&self, name: &str) -> Result<Option<i64>, LevelError> {
        match self.properties.get(name) {
            None => Ok(None),
            Some(Property::Int(i)) => Ok(Some(*i)),
            Some(other) => Err(self.type_error(name, "int", other)),
        }
    }

    /// The `float` property `name` (an `int` converts), `None` when absent.
    ///
    /// # Errors
    /// [`ErrorKind::PropertyType`] when it has another type.
    pub fn float_property(&self, name: &str) -> Result<Option<f64>, LevelError> {
        match self.properties.get(name) {
            None => Ok(None),
            Some(Property::Float(x)) => Ok(Some(*x)),
            #[allow(clippy::cast_precision_loss)]
            Some(Property::Int(i)) => Ok(Some(*i as f64)),
            Some(other) => Err(self.type_error(name, "float", other)),
        }
    }

    /// The `string` property `name` (or an LDtk enum value's name), `None` when absent.
    ///
    /// # Errors
    /// [`ErrorKind::PropertyType`] when it has another type.
    pub fn string_property(&self, name: &str) -> Result<Option<&str>, LevelError> {
        match self.properties.get(name) {
            None => Ok(None),
            Some(Property::String(s)) => Ok(Some(s)),
            Some(other) => Err(self.type_error(name, "string", other)),
        }
    }

    fn type_error(&self, name: &str, expected: &'static str, got: &Property) -> LevelError {
        let at = At {
            file: self.map.clone().into(),
            layer: Some(self.layer.clone()),
            object: Some(self.key()),
        };
        at.err(ErrorKind::PropertyType {
            name: name.to_string(),
            expected,
            got: got.type_name(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use collide2d::{math::Vec2, Point};

    fn door() -> LevelObject {
        let mut properties = Properties::new();
        properties.insert("solid".into(), Property::String("yes".into()));
        properties.insert("hp".into(), Property::Int(3));
        LevelObject {
            shape: Point::new(Vec2::ZERO).unwrap().into(),
            map: "a.tmx".into(),
            layer: "Walls".into(),
            name: "door".into(),
            class: "Door".into(),
            properties,
            source: ObjectSource::Object { id: 7 },
        }
    }

    #[test]
    fn a_property_of_the_wrong_type_is_an_error_naming_map_layer_and_object() {
        let e = door().bool_property("solid").unwrap_err();
        assert_eq!(
            e.to_string(),
            r#"a.tmx: layer "Walls": a.tmx/Walls/door#7: property "solid" must be bool, got string"#
        );
        assert_eq!(door().int_property("hp").unwrap(), Some(3));
        assert_eq!(door().float_property("hp").unwrap(), Some(3.0));
        assert_eq!(door().bool_property("absent").unwrap(), None);
    }

    #[test]
    fn keys_name_layer_and_object() {
        let mut o = door();
        assert_eq!(o.key(), "a.tmx/Walls/door#7");
        o.source = ObjectSource::Cells {
            x: 0,
            y: 9,
            w: 40,
            h: 1,
        };
        assert_eq!(o.key(), "a.tmx/Walls/cells 0,9 40x1");
        o.map = "Level_0".into();
        o.source = ObjectSource::Tile {
            x: 3,
            y: 4,
            tile: 1,
        };
        assert_eq!(o.key(), "Level_0/Walls/tile 3,4");
    }
}
