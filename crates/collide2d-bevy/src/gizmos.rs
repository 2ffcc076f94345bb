//! Debug drawing through Bevy gizmos: the world's own debug-draw walk
//! ([`collide2d::CollisionWorld::debug_draw`]) with gizmos as the drawer.

use bevy_app::{App, PostUpdate};
use bevy_color::{Color, Srgba};
use bevy_ecs::prelude::*;
use bevy_gizmos::prelude::Gizmos;
use collide2d::debug_draw::{DebugDraw, DrawOptions, Role};
use collide2d::math::Vec2;

use crate::collisions::Collisions;
use crate::plugin::CollideSystems;

/// Whether and what the collision overlay draws (a resource; flip `enabled` at run time, e.g.
/// on a key). Off by default. Needs Bevy's `GizmoPlugin` (in `DefaultPlugins`).
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct DebugDrawConfig {
    /// Draw the overlay.
    pub enabled: bool,
    /// What to draw: outlines (red when colliding) and contact normals by default;
    /// [`DrawOptions::debug`] adds bounding boxes, concave polygons' parts and the broad phase.
    pub options: DrawOptions,
    /// The length of a contact normal's arrow, in world units.
    pub normal_length: f32,
}

impl Default for DebugDrawConfig {
    fn default() -> DebugDrawConfig {
        DebugDrawConfig {
            enabled: false,
            options: DrawOptions {
                labels: false,
                ..DrawOptions::default()
            },
            normal_length: 16.0,
        }
    }
}

/// The gizmos as a collide2d drawer: every primitive a line drawing in its role's colour.
pub struct CollisionGizmos<'a, 'w, 's> {
    gizmos: &'a mut Gizmos<'w, 's>,
    normal_length: f32,
}

impl<'a, 'w, 's> CollisionGizmos<'a, 'w, 's> {
    /// A drawer onto `gizmos`, contact normals `normal_length` long.
    pub fn new(gizmos: &'a mut Gizmos<'w, 's>, normal_length: f32) -> Self {
        CollisionGizmos {
            gizmos,
            normal_length,
        }
    }
}

fn colour(role: Role) -> Color {
    let c = role.colour();
    let alpha = match role {
        Role::Broad(_) => 0.35,
        _ => f32::from(c.a) / 255.0,
    };
    Color::Srgba(Srgba::rgba_u8(c.r, c.g, c.b, (alpha * 255.0) as u8))
}

impl DebugDraw for CollisionGizmos<'_, '_, '_> {
    fn polygon(&mut self, points: &[Vec2], role: Role) {
        let closed = points.iter().copied().chain(points.first().copied());
        self.gizmos.linestrip_2d(closed, colour(role));
    }

    fn circle(&mut self, center: Vec2, radius: f32, role: Role) {
        self.gizmos.circle_2d(center, radius, colour(role));
    }

    fn capsule(&mut self, a: Vec2, b: Vec2, radius: f32, role: Role) {
        let along = (b - a).normalize_or(Vec2::X);
        let side = along.perp() * radius;
        let colour = colour(role);
        self.gizmos.line_2d(a + side, b + side, colour);
        self.gizmos.line_2d(a - side, b - side, colour);
        // Half circles at the ends, from one side round the end to the other.
        const STEPS: usize = 12;
        for (centre, out) in [(b, along), (a, -along)] {
            let arc = (0..=STEPS).map(|i| {
                let angle = std::f32::consts::PI * i as f32 / STEPS as f32;
                let (sin, cos) = angle.sin_cos();
                centre + (out.perp() * cos + out * sin) * radius
            });
            self.gizmos.linestrip_2d(arc, colour);
        }
    }

    fn segment(&mut self, a: Vec2, b: Vec2, role: Role) {
        self.gizmos.line_2d(a, b, colour(role));
    }

    fn point(&mut self, p: Vec2, role: Role) {
        self.gizmos
            .cross_2d(p, self.normal_length * 0.15, colour(role));
    }

    fn arrow(&mut self, from: Vec2, direction: Vec2, role: Role) {
        self.gizmos
            .arrow_2d(from, from + direction * self.normal_length, colour(role));
    }
}

/// Draws the world when the overlay is on.
fn draw(collisions: Res<Collisions>, config: Res<DebugDrawConfig>, mut gizmos: Gizmos) {
    let mut drawer = CollisionGizmos::new(&mut gizmos, config.normal_length);
    collisions
        .world
        .debug_draw(&mut drawer, &config.options, |_, _| None::<&str>);
}

pub(crate) fn build(app: &mut App) {
    app.init_resource::<DebugDrawConfig>().add_systems(
        PostUpdate,
        draw.after(CollideSystems::Publish)
            .run_if(|config: Res<DebugDrawConfig>| config.enabled),
    );
}
