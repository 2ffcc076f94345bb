//! Running an example unattended, for CI: with `COLLIDE2D_EXIT_AFTER_FRAMES=N` set, the
//! example steps its clock by a fixed 1/60 s a frame (so frame N shows the same scene however
//! slow the renderer is), turns the collision overlay on, and exits after frame N; with
//! `COLLIDE2D_SCREENSHOT=PATH` also set, it first saves frame N's window as a binary PPM
//! (`P6`, 8-bit RGB) at PATH and exits once it is written. Without the variables the plugin
//! does nothing. `.ci/bevy` runs both examples this way under a virtual display.

use std::path::PathBuf;
use std::time::Duration;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};
use bevy::time::TimeUpdateStrategy;
use collide2d_bevy::DebugDrawConfig;

/// Frames after the screenshot's request within which it must arrive (else the run fails).
const SCREENSHOT_PATIENCE: u32 = 240;

/// Exits after a set number of frames, with a screenshot (see the module docs).
pub struct ExitAfterFrames;

#[derive(Resource)]
struct Unattended {
    frames: u32,
    screenshot: Option<PathBuf>,
}

impl Plugin for ExitAfterFrames {
    fn build(&self, app: &mut App) {
        let Some(frames) = std::env::var("COLLIDE2D_EXIT_AFTER_FRAMES")
            .ok()
            .and_then(|n| n.trim().parse::<u32>().ok())
        else {
            return;
        };
        let screenshot = std::env::var_os("COLLIDE2D_SCREENSHOT").map(PathBuf::from);
        app.insert_resource(Unattended { frames, screenshot })
            .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
                1.0 / 60.0,
            )))
            .add_systems(Startup, overlay_on)
            .add_systems(Last, count_frames);
    }
}

fn overlay_on(mut config: ResMut<DebugDrawConfig>) {
    config.enabled = true;
}

fn count_frames(
    mut commands: Commands,
    unattended: Res<Unattended>,
    mut frame: Local<u32>,
    mut exit: MessageWriter<AppExit>,
) {
    *frame += 1;
    if *frame == unattended.frames {
        let Some(path) = unattended.screenshot.clone() else {
            exit.write(AppExit::Success);
            return;
        };
        commands.spawn(Screenshot::primary_window()).observe(
            move |captured: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>| {
                let code = match write_ppm(&captured.image, &path) {
                    Ok(()) => {
                        info!("screenshot saved at {}", path.display());
                        AppExit::Success
                    }
                    Err(error) => {
                        error!("screenshot not saved at {}: {error}", path.display());
                        AppExit::from_code(2)
                    }
                };
                exit.write(code);
            },
        );
    } else if *frame > unattended.frames + SCREENSHOT_PATIENCE {
        error!("no screenshot {SCREENSHOT_PATIENCE} frames after asking for it");
        exit.write(AppExit::from_code(3));
    }
}

/// Writes `image` as a binary PPM: a header, then 8-bit RGB rows from the top.
fn write_ppm(image: &Image, path: &std::path::Path) -> Result<(), BevyError> {
    let rgb = image.clone().try_into_dynamic()?.to_rgb8();
    let mut bytes = format!("P6\n{} {}\n255\n", rgb.width(), rgb.height()).into_bytes();
    bytes.extend_from_slice(rgb.as_raw());
    std::fs::write(path, bytes)?;
    Ok(())
}
