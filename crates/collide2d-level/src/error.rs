//! [`LevelError`]: why a map did not load, naming the file, the layer and the object.

use std::fmt;
use std::path::{Path, PathBuf};

/// Why a map did not load. Loading is all or nothing: on an error no object is returned.
///
/// `Display` names where the problem is, then what it is:
/// `level.tmx: layer "Walls": object 7 "door": polygon: points cross each other ...`.
#[derive(Debug)]
pub struct LevelError {
    /// The file at fault: the map, or the tileset or level file it refers to.
    pub file: PathBuf,
    /// The layer, when the problem is inside one (a path `Group/Layer` for nested Tiled layers).
    pub layer: Option<String>,
    /// The object, tile or entity, when the problem is inside one (`object 7 "door"`,
    /// `tile 3 of tileset "terrain"`, `cell (4, 2)`, `entity "Player"`).
    pub object: Option<String>,
    /// What is wrong (boxed: the error stays small on the success path).
    pub kind: Box<ErrorKind>,
}

/// What is wrong with a map (see [`LevelError`] for where).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A file could not be read: the map itself, or a tileset or level file it refers to.
    #[error("cannot read {}: {message}", path.display())]
    Read {
        /// The file that could not be read.
        path: PathBuf,
        /// The operating system's or the parser's reason.
        message: String,
    },
    /// The text is not a well-formed map of its format (the parser's message).
    #[error("{0}")]
    Syntax(String),
    /// Tile layer data in an encoding or compression this loader does not read.
    #[error("layer data: unknown encoding {encoding:?} with compression {compression:?} (expected csv, or base64 with no compression, zlib, gzip or zstd)")]
    Encoding {
        /// The `encoding` given (`None`: none given).
        encoding: Option<String>,
        /// The `compression` given (`None`: none given).
        compression: Option<String>,
    },
    /// A field holds a value the format does not allow (the message names the field).
    #[error("{0}")]
    Invalid(String),
    /// A shape collide2d refuses (a polygon that crosses itself, too many points...).
    #[error("{what}: {source}")]
    Shape {
        /// The kind of map object (`polygon`, `rectangle`...).
        what: &'static str,
        /// collide2d's reason, naming the field.
        source: collide2d::ShapeError,
    },
    /// An ellipse that is not a circle, when exact shapes were asked for
    /// ([`Ellipses::Exact`](crate::Ellipses::Exact)).
    #[error("ellipse {width} x {height} is not a circle, and only exact shapes were asked for (Ellipses::Exact)")]
    InexactEllipse {
        /// The ellipse's width.
        width: f64,
        /// The ellipse's height.
        height: f64,
    },
    /// An ellipse too large to be approximated within the tolerance by a polygon of at most
    /// [`MAX_POLYGON_POINTS`](collide2d::limits::MAX_POLYGON_POINTS) points.
    #[error("ellipse with semi-axis {semi_axis} needs more than {max} points to stay within {tolerance} of it")]
    EllipseTooLarge {
        /// The larger semi-axis.
        semi_axis: f64,
        /// The tolerance asked for.
        tolerance: f64,
        /// The most points a polygon may have.
        max: usize,
    },
    /// A custom property of a type other than the one asked for.
    #[error("property {name:?} must be {expected}, got {got}")]
    PropertyType {
        /// The property's name.
        name: String,
        /// The type asked for (`bool`, `int`...).
        expected: &'static str,
        /// The type found.
        got: &'static str,
    },
    /// A part of the format this loader does not handle (the message says which).
    #[error("{0} is not supported")]
    Unsupported(String),
    /// A file name whose extension is none of `.tmx`, `.tmj`, `.json` (Tiled) or `.ldtk`.
    #[error("unknown map format (expected a .tmx or .tmj Tiled map or a .ldtk LDtk project)")]
    UnknownFormat,
}

impl fmt::Display for LevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.file.display())?;
        if let Some(layer) = &self.layer {
            write!(f, "layer {layer:?}: ")?;
        }
        if let Some(object) = &self.object {
            write!(f, "{object}: ")?;
        }
        write!(f, "{}", self.kind)
    }
}

impl std::error::Error for LevelError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.kind)
    }
}

/// Where the loader is: the file, layer and object that an error would name.
#[derive(Clone, Debug, Default)]
pub(crate) struct At {
    pub file: PathBuf,
    pub layer: Option<String>,
    pub object: Option<String>,
}

impl At {
    /// At the top of `file`.
    pub fn file(file: &Path) -> At {
        At {
            file: file.to_path_buf(),
            ..At::default()
        }
    }

    /// Inside `layer` of the same file.
    pub fn layer(&self, layer: &str) -> At {
        At {
            file: self.file.clone(),
            layer: Some(layer.to_string()),
            object: None,
        }
    }

    /// On `object` (already described: `object 7 "door"`) of the same layer.
    pub fn object(&self, object: String) -> At {
        At {
            object: Some(object),
            ..self.clone()
        }
    }

    /// The error `kind`, here.
    pub fn err(&self, kind: ErrorKind) -> LevelError {
        LevelError {
            file: self.file.clone(),
            layer: self.layer.clone(),
            object: self.object.clone(),
            kind: Box::new(kind),
        }
    }

    /// An [`ErrorKind::Invalid`] error here.
    pub fn invalid(&self, message: impl Into<String>) -> LevelError {
        self.err(ErrorKind::Invalid(message.into()))
    }
}

/// The JSON file at `path` as a `T`: a file that cannot be read is an error at `at` (the file
/// that refers to it), JSON that does not fit `T` an error in the file itself.
pub(crate) fn read_json<T: for<'de> serde::Deserialize<'de>>(
    path: &Path,
    at: &At,
) -> Result<T, LevelError> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        at.err(ErrorKind::Read {
            path: path.to_path_buf(),
            message: e.to_string(),
        })
    })?;
    serde_json::from_str(&text).map_err(|e| At::file(path).err(ErrorKind::Syntax(e.to_string())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_names_file_layer_and_object() {
        let at = At::file(Path::new("maps/a.tmx"))
            .layer("Walls")
            .object(r#"object 7 "door""#.to_string());
        let e = at.err(ErrorKind::PropertyType {
            name: "solid".into(),
            expected: "bool",
            got: "string",
        });
        assert_eq!(
            e.to_string(),
            r#"maps/a.tmx: layer "Walls": object 7 "door": property "solid" must be bool, got string"#
        );
        let e = At::file(Path::new("b.ldtk")).invalid("levels is missing");
        assert_eq!(e.to_string(), "b.ldtk: levels is missing");
    }
}
