//! A Tiled [`Map`] into [`LevelObject`]s: layers walked with their offsets, objects placed
//! (tile objects with their tile's collision shapes); tile layers in `tile_layer.rs`.

use collide2d::{Compound, Shape};
use glam::DVec2;

use super::model::{Layer, LayerKind, Map, Object, ObjectShape, Tile, Tileset};
use super::model::{FLIP_D, FLIP_H, FLIP_V, GID_MASK};
use crate::error::{At, ErrorKind, LevelError};
use crate::geom::{AxisMap, Geom};
use crate::object::{LevelObject, ObjectSource};
use crate::options::{LoadOptions, YAxis};

/// Every object of `map` the options ask for, in layer order; `at` names the map file.
pub(crate) fn convert(
    map: &Map,
    at: &At,
    map_name: &str,
    options: &LoadOptions,
) -> Result<Vec<LevelObject>, LevelError> {
    let cx = Converter {
        map,
        map_name,
        options,
        at,
    };
    let mut out = Vec::new();
    for layer in &map.layers {
        cx.layer(layer, "", DVec2::ZERO, &mut out)?;
    }
    Ok(out)
}

pub(super) struct Converter<'m> {
    pub(super) map: &'m Map,
    pub(super) map_name: &'m str,
    pub(super) options: &'m LoadOptions,
    pub(super) at: &'m At,
}

impl<'m> Converter<'m> {
    fn layer(
        &self,
        layer: &'m Layer,
        parent: &str,
        parent_offset: DVec2,
        out: &mut Vec<LevelObject>,
    ) -> Result<(), LevelError> {
        let path = if parent.is_empty() {
            layer.name.clone()
        } else {
            format!("{parent}/{}", layer.name)
        };
        let offset = parent_offset + layer.offset;
        match &layer.kind {
            LayerKind::Group(children) => {
                for child in children {
                    self.layer(child, &path, offset, out)?;
                }
            }
            _ if !self.options.wants_layer(&path) => {}
            LayerKind::Image => {}
            LayerKind::Objects(objects) => {
                let at = self.at.layer(&path);
                for o in objects {
                    out.push(self.object(o, &path, offset, &at)?);
                }
            }
            LayerKind::Tiles(chunks) => self.tiles(layer, chunks, &path, offset, out)?,
        }
        Ok(())
    }

    /// An object of an object layer.
    fn object(
        &self,
        o: &Object,
        path: &str,
        offset: DVec2,
        at: &At,
    ) -> Result<LevelObject, LevelError> {
        let at = at.object(format!("object {} {:?}", o.id, o.name));
        let geoms = self.object_geoms(o, false, &at)?;
        let mut class = o.class.clone();
        let mut properties = o.properties.clone();
        if let ObjectShape::Tile(gid) = o.shape {
            // A tile object inherits its tile's class and properties; its own come first.
            if let Some(tile) = self
                .map
                .tile(gid & GID_MASK)
                .and_then(|(t, id)| t.tiles.get(&id))
            {
                if class.is_empty() {
                    class.clone_from(&tile.class);
                }
                for (k, v) in &tile.properties {
                    properties.entry(k.clone()).or_insert_with(|| v.clone());
                }
            }
        }
        Ok(LevelObject {
            shape: self.finish(geoms, offset, &at)?,
            map: self.map_name.to_string(),
            layer: path.to_string(),
            name: o.name.clone(),
            class,
            properties,
            source: ObjectSource::Object { id: o.id },
        })
    }

    /// The geometry of an object in map coordinates (before layer offsets). `nested`: a tile's
    /// collision shape, where a tile reference is not followed again.
    pub(super) fn object_geoms(
        &self,
        o: &Object,
        nested: bool,
        at: &At,
    ) -> Result<Vec<Geom>, LevelError> {
        let origin = DVec2::new(o.x, o.y);
        let size = DVec2::new(o.width, o.height);
        let rect = Geom::Rect {
            min: origin,
            max: origin + size,
        };
        let geom = match &o.shape {
            ObjectShape::Rect | ObjectShape::Text => rect,
            ObjectShape::Tile(_) if nested => rect,
            ObjectShape::Tile(gid) => return self.tile_object(o, *gid, at),
            ObjectShape::Ellipse => Geom::Ellipse {
                center: origin + size * 0.5,
                u: DVec2::new(size.x * 0.5, 0.0),
                v: DVec2::new(0.0, size.y * 0.5),
            },
            ObjectShape::Capsule => {
                let radius = size.x.min(size.y) * 0.5;
                let a = origin + DVec2::splat(radius);
                let b = if size.x >= size.y {
                    DVec2::new(origin.x + size.x - radius, a.y)
                } else {
                    DVec2::new(a.x, origin.y + size.y - radius)
                };
                Geom::Capsule { a, b, radius }
            }
            ObjectShape::Point => Geom::Point(origin),
            ObjectShape::Polygon(points) => {
                Geom::Polygon(points.iter().map(|&p| origin + p).collect())
            }
            ObjectShape::Polyline(points) => {
                Geom::Polyline(points.iter().map(|&p| origin + p).collect())
            }
        };
        Ok(vec![geom.rotated(origin, o.rotation)])
    }

    /// A tile object: its tile's collision shapes (else the tile's rectangle), flipped,
    /// stretched over the object's size, then turned with the object.
    fn tile_object(&self, o: &Object, gid: u32, at: &At) -> Result<Vec<Geom>, LevelError> {
        let (tileset, id) = self.map.tile(gid & GID_MASK).ok_or_else(|| {
            at.invalid(format!(
                "tile gid {} is in no tileset of the map",
                gid & GID_MASK
            ))
        })?;
        let tile = tileset.tiles.get(&id);
        let tile_size = tile.and_then(|t| t.size).unwrap_or(tileset.tile_size);
        let size = if o.width > 0.0 && o.height > 0.0 {
            DVec2::new(o.width, o.height)
        } else {
            tile_size
        };
        let origin = DVec2::new(o.x, o.y);
        let local = match tile {
            Some(t) if !t.collision.is_empty() => self.collision_geoms(t, tileset, id)?,
            _ => vec![Geom::Rect {
                min: DVec2::ZERO,
                max: tile_size,
            }],
        };
        let (flip, flipped) = flip_of(gid, tile_size);
        let stretch = AxisMap {
            swap: false,
            scale: size / flipped,
            offset: origin - tileset.anchor * size,
        };
        local
            .into_iter()
            .map(|g| {
                g.mapped(&flip)
                    .and_then(|g| g.mapped(&stretch))
                    .map(|g| g.rotated(origin, o.rotation))
                    .map_err(|k| at.err(k))
            })
            .collect()
    }

    /// A tile's collision shapes in tile coordinates; errors name the tileset's file and the tile.
    pub(super) fn collision_geoms(
        &self,
        tile: &Tile,
        tileset: &Tileset,
        id: u32,
    ) -> Result<Vec<Geom>, LevelError> {
        let at = At::file(&tileset.file).object(format!("tile {id} of tileset {:?}", tileset.name));
        let mut geoms = Vec::new();
        for c in &tile.collision {
            geoms.extend(self.object_geoms(c, true, &at)?);
        }
        Ok(geoms)
    }

    /// Geometry moved by the layer offset, into the asked y convention, rounded to one shape
    /// (a compound when there are several).
    pub(super) fn finish(
        &self,
        geoms: Vec<Geom>,
        offset: DVec2,
        at: &At,
    ) -> Result<Shape, LevelError> {
        let mut shapes = geoms
            .into_iter()
            .map(|g| {
                let g = g.mapped(&AxisMap::translation(offset))?;
                let g = match self.options.y_axis {
                    YAxis::Down => g,
                    YAxis::Up => g.mapped(&AxisMap::Y_UP)?,
                };
                g.to_shape(self.options.ellipses)
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(|k| at.err(k))?;
        if shapes.len() == 1 {
            return Ok(shapes.remove(0));
        }
        Compound::new(shapes).map(Shape::from).map_err(|source| {
            at.err(ErrorKind::Shape {
                what: "compound",
                source,
            })
        })
    }
}

/// The flips of global id `gid` for a `size` tile, and the tile's size once flipped.
pub(super) fn flip_of(gid: u32, size: DVec2) -> (AxisMap, DVec2) {
    let d = gid & FLIP_D != 0;
    let map = AxisMap::tile_flip(size, gid & FLIP_H != 0, gid & FLIP_V != 0, d);
    (map, if d { DVec2::new(size.y, size.x) } else { size })
}
