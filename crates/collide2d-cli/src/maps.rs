//! `collide2d pairs MAP` and `collide2d render MAP` for Tiled and LDtk maps (`.tmx`, `.tmj`,
//! `.ldtk`), with `--layer NAME` to choose layers: the map becomes a scene
//! ([`collide2d_cli::level`]), then the scene's pairs or picture as for a scene file.

use std::path::Path;
use std::process::ExitCode;

use collide2d::BroadPhase;
use collide2d_cli::level::{map_scene, MapError};
use collide2d_cli::scene::Scene;
use collide2d_cli::{pairs, render};
use collide2d_level::YAxis;

/// `collide2d pairs MAP`: the map's colliding pairs, shapes in the map's own coordinates (y down).
pub fn pairs_command(
    path: &Path,
    layers: &[String],
    contacts: bool,
    broad: BroadPhase,
) -> ExitCode {
    let scene = match load(path, layers, YAxis::Down) {
        Ok(scene) => scene,
        Err(code) => return code,
    };
    crate::write_scene_pairs(path, &scene, broad, contacts)
}

/// `collide2d render MAP`: drawn as the editor shows it (loaded y up unless `--y-down`, which
/// draws y downwards, so the picture is never upside down).
pub fn render_command(
    path: &Path,
    layers: &[String],
    output: Option<&Path>,
    broad: BroadPhase,
    options: &render::Options,
) -> ExitCode {
    let y_axis = if options.y_down {
        YAxis::Down
    } else {
        YAxis::Up
    };
    let scene = match load(path, layers, y_axis) {
        Ok(scene) => scene,
        Err(code) => return code,
    };
    let world = match pairs::scene_world(&scene, broad, true) {
        Ok(world) => world,
        Err(message) => {
            eprintln!("collide2d: {}: {message}", path.display());
            return ExitCode::from(1);
        }
    };
    let ids = |_, &i: &usize| scene.objects.get(i).map(|o| o.id.as_str());
    crate::write_output(output, |out| {
        render::world_svg_to(&world, ids, options, out)
    })
}

/// The map's scene, or the exit status after its message: 2 when the map cannot be read, 1 for
/// a bad map. Names given to `--layer` that no object is on get a warning.
fn load(path: &Path, layers: &[String], y_axis: YAxis) -> Result<Scene, ExitCode> {
    match map_scene(path, layers, y_axis) {
        Ok((scene, unused)) => {
            for name in unused {
                eprintln!("collide2d: warning: --layer {name:?}: no object of the map is on a layer of that name");
            }
            Ok(scene)
        }
        Err(MapError {
            message,
            unreadable,
        }) => {
            eprintln!("collide2d: {message}");
            Err(ExitCode::from(if unreadable { 2 } else { 1 }))
        }
    }
}
