//! How a map is loaded: [`LoadOptions`] and its choices.

/// Which way the y axis of the loaded shapes points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum YAxis {
    /// Down, as in Tiled and LDtk (the default): shapes have the editor's pixel coordinates.
    #[default]
    Down,
    /// Up: every y coordinate negated (`y' = -y`), so the map's top edge lies at `y = 0` and
    /// the map extends to negative y; rotations turn the other way.
    Up,
}

/// What becomes of an ellipse that is not a circle (a circle always becomes a `Circle`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Ellipses {
    /// A convex polygon with its corners on the ellipse, with enough corners (at least 8) that
    /// every point of the ellipse lies within `tolerance` map units of it. The polygon lies
    /// inside the ellipse: it can miss a touch by up to `tolerance`, never report a false one.
    /// An ellipse needing more than `MAX_POLYGON_POINTS` corners is an error.
    Polygon {
        /// The largest distance from a point of the ellipse to the polygon, in map units.
        tolerance: f64,
    },
    /// Only exact shapes: an ellipse that is not a circle is an error
    /// ([`ErrorKind::InexactEllipse`](crate::ErrorKind::InexactEllipse)).
    Exact,
}

impl Default for Ellipses {
    /// `Polygon { tolerance: 0.25 }`: a quarter of a pixel.
    fn default() -> Ellipses {
        Ellipses::Polygon { tolerance: 0.25 }
    }
}

/// How whole solid cells of a tile or IntGrid layer become objects.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TileMode {
    /// As few axis-aligned rectangles as a greedy pass finds (the default): each rectangle
    /// grows right along its row, then down while the whole row below is solid; the cells
    /// covered are exactly the solid ones, with no overlap. Merged cells lose their tiles'
    /// own class and properties (they get the layer's).
    #[default]
    Merged,
    /// One box per solid cell, with its tile's class and properties.
    PerTile,
}

/// Which placed tiles of a Tiled tile layer are solid whole cells.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum SolidTiles {
    /// Tiles with collision shapes drawn in the tileset's collision editor (the default): a
    /// tile whose only shape is a rectangle covering the whole tile is a solid cell (merged
    /// per [`TileMode`]); any other shapes are placed as they are, flipped and rotated with
    /// the tile, one object per placed tile. Tiles without shapes are not solid.
    #[default]
    Collision,
    /// Every non-empty cell is solid (a layer drawn only for collision).
    EveryTile,
    /// Tiles whose `bool` property of this name is `true` are solid cells (other tiles' collision
    /// shapes are still placed); the property with another type is an error.
    Property(String),
}

/// Which LDtk IntGrid values are solid.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum IntGridSolid {
    /// Every value but 0 (empty), the default.
    #[default]
    NonZero,
    /// Only these values.
    Values(Vec<i64>),
}

impl IntGridSolid {
    /// Whether cells holding `value` are solid.
    #[must_use]
    pub fn is_solid(&self, value: i64) -> bool {
        match self {
            IntGridSolid::NonZero => value != 0,
            IntGridSolid::Values(values) => value != 0 && values.contains(&value),
        }
    }
}

/// Every choice of a load, with defaults that suit a platformer.
///
/// ```
/// use collide2d_level::{LoadOptions, TileMode, YAxis};
/// let options = LoadOptions { y_axis: YAxis::Up, tiles: TileMode::PerTile, ..LoadOptions::default() };
/// assert!(options.layers.is_none()); // every layer
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LoadOptions {
    /// The y convention of the shapes returned (default: down, as the editors draw).
    pub y_axis: YAxis,
    /// What becomes of ellipses that are not circles.
    pub ellipses: Ellipses,
    /// Merged rectangles or one box per cell.
    pub tiles: TileMode,
    /// Which Tiled tiles are solid cells.
    pub solid_tiles: SolidTiles,
    /// Which LDtk IntGrid values are solid.
    pub int_grid_solid: IntGridSolid,
    /// Only the layers with these names (a Tiled layer inside a group answers to its own name
    /// and to its path `Group/Layer`, and the group's name brings all its layers); `None`:
    /// every layer. Hidden layers load too: collision
    /// layers are often hidden in the editor.
    pub layers: Option<Vec<String>>,
}

impl LoadOptions {
    /// Whether the layer `path` (`Group/Layer`, or a top layer's name) is to be loaded.
    pub(crate) fn wants_layer(&self, path: &str) -> bool {
        let Some(names) = &self.layers else {
            return true;
        };
        let own = path.rsplit('/').next().unwrap_or(path);
        // A group chosen by name brings its layers.
        names
            .iter()
            .any(|n| n == path || n == own || path.starts_with(&format!("{n}/")))
    }
}
