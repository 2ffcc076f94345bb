//! The character settings the course and the character properties walk with: every feature on.

use collide2d::{MoveSettings, Obstacles};

/// Dynamic obstacles, a 50-degree slope limit, steps and snapping of half a unit, and pushing
/// out of overlaps.
pub fn platformer() -> MoveSettings<'static> {
    MoveSettings {
        obstacles: Obstacles::All,
        max_slope: 50f32.to_radians(),
        step_height: 0.5,
        snap_to_ground: 0.5,
        depenetrate: true,
        ..MoveSettings::default()
    }
}
