//! [`LayerFilters`]: map layer names to collide2d layers, masks and object kinds.

use collide2d::{CollisionWorld, Filter, Handle, ObjectKind, WorldError};

use crate::object::LevelObject;

/// Which collide2d [`Filter`] and [`ObjectKind`] the objects of each map layer get, by the
/// layer's name; objects of layers not named are left out.
///
/// ```
/// use collide2d::{BroadPhase, CollisionWorld, Filter, ObjectKind};
/// use collide2d_level::{merge_cells, LayerFilters, LevelObject, ObjectSource};
/// const WALL: u64 = 1;
/// const PLAYER: u64 = 2;
/// let filters = LayerFilters::new().layer("Walls", Filter::new(WALL, PLAYER), ObjectKind::Static);
/// # let wall: collide2d::Shape = collide2d::Aabb::from_rect(0.0, 0.0, 32.0, 16.0)?.into();
/// # let object = |layer: &str| LevelObject { shape: wall.clone(), map: "a.tmx".into(), layer: layer.into(),
/// #     name: String::new(), class: String::new(), properties: Default::default(),
/// #     source: ObjectSource::Cells { x: 0, y: 0, w: 2, h: 1 } };
/// let objects = [object("Walls"), object("Decoration")];
/// let mut world = CollisionWorld::new(BroadPhase::default());
/// let handles = filters.insert_into(&mut world, &objects, |i, _| i)?;
/// assert_eq!(handles.len(), 1); // Decoration is not named: left out
/// assert_eq!(world.filter(handles[0])?, Filter::new(WALL, PLAYER));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct LayerFilters {
    rules: Vec<(String, Filter, ObjectKind)>,
}

impl LayerFilters {
    /// No layer named yet.
    #[must_use]
    pub fn new() -> LayerFilters {
        LayerFilters::default()
    }

    /// Objects of the map layer `name` get `filter` and `kind` (a later rule for the same name
    /// replaces an earlier one).
    #[must_use]
    pub fn layer(mut self, name: &str, filter: Filter, kind: ObjectKind) -> LayerFilters {
        self.rules.retain(|(n, _, _)| n != name);
        self.rules.push((name.to_string(), filter, kind));
        self
    }

    /// The filter and kind of `object`'s layer, `None` when its layer is not named.
    #[must_use]
    pub fn get(&self, object: &LevelObject) -> Option<(Filter, ObjectKind)> {
        self.rules
            .iter()
            .find(|(n, _, _)| *n == object.layer)
            .map(|&(_, f, k)| (f, k))
    }

    /// Inserts every object of a named layer into `world`, in order, with
    /// `data(index in objects, object)`; returns their handles.
    ///
    /// # Errors
    /// The world's error for an object it refuses (a shape whose bounding box is not finite);
    /// the objects before it stay inserted.
    pub fn insert_into<T>(
        &self,
        world: &mut CollisionWorld<T>,
        objects: &[LevelObject],
        mut data: impl FnMut(usize, &LevelObject) -> T,
    ) -> Result<Vec<Handle>, WorldError> {
        let mut handles = Vec::new();
        for (i, object) in objects.iter().enumerate() {
            if let Some((filter, kind)) = self.get(object) {
                handles.push(world.insert(object.shape.clone(), filter, kind, data(i, object))?);
            }
        }
        Ok(handles)
    }
}
