//! LDtk projects (`.ldtk`, levels inside or in separate `.ldtkl` files) into [`LevelObject`]s:
//! IntGrid layers' solid values as merged cells, entity layers' entities as boxes, each level
//! placed at its world position. Tile and auto-layer layers draw pictures and are skipped.

use std::path::Path;

use glam::DVec2;
use serde::Deserialize;
use serde_json::Value;

use crate::error::{read_json, At, LevelError};
use crate::geom::{AxisMap, Geom};
use crate::merge::{merge_cells, single_cells};
use crate::object::{LevelObject, ObjectSource, Properties, Property};
use crate::options::{LoadOptions, TileMode, YAxis};

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Project {
    #[serde(default)]
    defs: Defs,
    #[serde(default)]
    levels: Vec<Level>,
    #[serde(default)]
    worlds: Vec<World>,
    world_layout: Option<String>,
}

#[derive(Deserialize, Default)]
struct Defs {
    #[serde(default)]
    layers: Vec<LayerDef>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct LayerDef {
    uid: i64,
    #[serde(default)]
    int_grid_values: Vec<IntGridValue>,
}

#[derive(Deserialize)]
struct IntGridValue {
    value: i64,
    identifier: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct World {
    #[serde(default)]
    levels: Vec<Level>,
    world_layout: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Level {
    identifier: String,
    #[serde(default)]
    world_x: f64,
    #[serde(default)]
    world_y: f64,
    #[serde(default)]
    px_wid: f64,
    #[serde(default)]
    px_hei: f64,
    external_rel_path: Option<String>,
    layer_instances: Option<Vec<LayerInstance>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct LayerInstance {
    #[serde(rename = "__identifier")]
    identifier: String,
    #[serde(rename = "__type")]
    kind: String,
    #[serde(rename = "__cWid")]
    c_wid: u32,
    #[serde(rename = "__cHei")]
    c_hei: u32,
    #[serde(rename = "__gridSize")]
    grid_size: f64,
    #[serde(rename = "__pxTotalOffsetX", default)]
    px_total_offset_x: f64,
    #[serde(rename = "__pxTotalOffsetY", default)]
    px_total_offset_y: f64,
    #[serde(default)]
    layer_def_uid: i64,
    #[serde(default)]
    int_grid_csv: Vec<i64>,
    #[serde(default)]
    entity_instances: Vec<Entity>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Entity {
    #[serde(rename = "__identifier")]
    identifier: String,
    #[serde(default)]
    iid: String,
    #[serde(rename = "__pivot", default)]
    pivot: [f64; 2],
    px: [f64; 2],
    #[serde(default)]
    width: f64,
    #[serde(default)]
    height: f64,
    #[serde(default)]
    field_instances: Vec<Field>,
}

#[derive(Deserialize)]
struct Field {
    #[serde(rename = "__identifier")]
    identifier: String,
    #[serde(rename = "__type")]
    kind: String,
    #[serde(rename = "__value")]
    value: Value,
}

/// Loads every level of the LDtk project at `path`.
///
/// # Errors
/// See [`load`](crate::load).
pub fn load_ldtk(path: &Path, options: &LoadOptions) -> Result<Vec<LevelObject>, LevelError> {
    let at = At::file(path);
    let project: Project = read_json(path, &at)?;
    let mut groups = vec![(project.levels, project.world_layout)];
    groups.extend(
        project
            .worlds
            .into_iter()
            .map(|w| (w.levels, w.world_layout)),
    );
    let mut out = Vec::new();
    for (levels, layout) in groups {
        let mut along = 0.0;
        for mut level in levels {
            let level_at = match &level.external_rel_path {
                Some(rel) if level.layer_instances.is_none() => {
                    let file = path.parent().unwrap_or(Path::new("")).join(rel);
                    let external: Level = read_json(&file, &at)?;
                    level.layer_instances = external.layer_instances;
                    At::file(&file)
                }
                _ => at.clone(),
            };
            // Linear layouts leave world positions at -1: levels follow each other.
            let origin = match layout.as_deref() {
                Some("LinearHorizontal") => DVec2::new(along, 0.0),
                Some("LinearVertical") => DVec2::new(0.0, along),
                _ => DVec2::new(level.world_x, level.world_y),
            };
            along += if layout.as_deref() == Some("LinearVertical") {
                level.px_hei
            } else {
                level.px_wid
            };
            level_objects(&level, origin, &project.defs, &level_at, options, &mut out)?;
        }
    }
    Ok(out)
}

fn level_objects(
    level: &Level,
    origin: DVec2,
    defs: &Defs,
    at: &At,
    options: &LoadOptions,
    out: &mut Vec<LevelObject>,
) -> Result<(), LevelError> {
    let place = |geom: Geom, at: &At| -> Result<collide2d::Shape, LevelError> {
        let g = geom
            .mapped(&AxisMap::translation(origin))
            .map_err(|k| at.err(k))?;
        let g = match options.y_axis {
            YAxis::Down => g,
            YAxis::Up => g.mapped(&AxisMap::Y_UP).map_err(|k| at.err(k))?,
        };
        g.to_shape(options.ellipses).map_err(|k| at.err(k))
    };
    for layer in level.layer_instances.iter().flatten() {
        if !options.wants_layer(&layer.identifier) {
            continue;
        }
        let at = at.layer(&format!("{}/{}", level.identifier, layer.identifier));
        let offset = DVec2::new(layer.px_total_offset_x, layer.px_total_offset_y);
        let object = |shape, name: &str, class: String, properties, source| LevelObject {
            shape,
            map: level.identifier.clone(),
            layer: layer.identifier.clone(),
            name: name.to_string(),
            class,
            properties,
            source,
        };
        match layer.kind.as_str() {
            "IntGrid" => {
                let cells = layer.c_wid as usize * layer.c_hei as usize;
                if layer.int_grid_csv.len() != cells {
                    return Err(at.invalid(format!(
                        "intGridCsv holds {} values, expected {} x {} = {cells}",
                        layer.int_grid_csv.len(),
                        layer.c_wid,
                        layer.c_hei
                    )));
                }
                let mut labels = Vec::with_capacity(cells);
                for (i, &v) in layer.int_grid_csv.iter().enumerate() {
                    let solid = options.int_grid_solid.is_solid(v);
                    let label = match u32::try_from(v) {
                        Ok(label) => label,
                        Err(_) if !solid => 0,
                        Err(_) => {
                            let cell = format!(
                                "cell ({}, {})",
                                i % layer.c_wid.max(1) as usize,
                                i / layer.c_wid.max(1) as usize
                            );
                            return Err(at
                                .object(cell)
                                .invalid(format!("IntGrid value {v} is out of range")));
                        }
                    };
                    labels.push(if solid { label } else { 0 });
                }
                let rects = match options.tiles {
                    TileMode::Merged => merge_cells(&labels, layer.c_wid as usize),
                    TileMode::PerTile => single_cells(&labels, layer.c_wid as usize),
                };
                let names = defs.layers.iter().find(|d| d.uid == layer.layer_def_uid);
                for r in rects {
                    let g = layer.grid_size;
                    let min = offset + DVec2::new(f64::from(r.x), f64::from(r.y)) * g;
                    let max = min + DVec2::new(f64::from(r.w), f64::from(r.h)) * g;
                    let cell_at = at.object(format!("cells ({}, {}) {}x{}", r.x, r.y, r.w, r.h));
                    let shape = place(Geom::Rect { min, max }, &cell_at)?;
                    let class = names
                        .and_then(|d| {
                            d.int_grid_values
                                .iter()
                                .find(|v| v.value == i64::from(r.label))
                        })
                        .and_then(|v| v.identifier.clone())
                        .unwrap_or_else(|| r.label.to_string());
                    let source = ObjectSource::Cells {
                        x: r.x as i32,
                        y: r.y as i32,
                        w: r.w,
                        h: r.h,
                    };
                    out.push(object(shape, "", class, Properties::new(), source));
                }
            }
            "Entities" => {
                for e in &layer.entity_instances {
                    let e_at = at.object(format!("entity {:?} {}", e.identifier, e.iid));
                    let size = DVec2::new(e.width, e.height);
                    let min = offset + DVec2::from(e.px) - DVec2::from(e.pivot) * size;
                    let geom = if size == DVec2::ZERO {
                        Geom::Point(min)
                    } else {
                        Geom::Rect {
                            min,
                            max: min + size,
                        }
                    };
                    let shape = place(geom, &e_at)?;
                    let properties = e
                        .field_instances
                        .iter()
                        .map(|f| (f.identifier.clone(), field(&f.kind, f.value.clone())))
                        .collect();
                    let source = ObjectSource::Entity { iid: e.iid.clone() };
                    out.push(object(
                        shape,
                        &e.identifier,
                        e.identifier.clone(),
                        properties,
                        source,
                    ));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// An entity field's value by its LDtk type.
fn field(kind: &str, value: Value) -> Property {
    if let Some(item) = kind
        .strip_prefix("Array<")
        .and_then(|k| k.strip_suffix('>'))
    {
        if let Value::Array(items) = value {
            return Property::List(items.into_iter().map(|v| field(item, v)).collect());
        }
    }
    match (kind, value) {
        ("Int", Value::Number(n)) if n.is_i64() => Property::Int(n.as_i64().unwrap_or_default()),
        ("Float" | "Int", Value::Number(n)) => Property::Float(n.as_f64().unwrap_or(f64::NAN)),
        ("Bool", Value::Bool(b)) => Property::Bool(b),
        ("String" | "Multilines", Value::String(s)) => Property::String(s),
        ("Color", Value::String(s)) => Property::Color(s),
        ("FilePath", Value::String(s)) => Property::File(s),
        (k, Value::String(s)) if k.starts_with("LocalEnum.") || k.starts_with("ExternEnum.") => {
            Property::String(s)
        }
        (_, other) => Property::Json(other),
    }
}
