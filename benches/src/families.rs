//! World workload families beyond [`Scene::many_small`]: how far objects move per frame
//! against their size, mixed sizes, crowds, and a mostly static world. A body whose velocity
//! is zero is static: inserted as `ObjectKind::Static`, never moved, never updated in parry2d's
//! tree or in Box2D's move buffer.

use crate::world::{Body, Scene};
use crate::Rng;
use collide2d::math::Vec2;
use collide2d::Filter;

/// A body at `center` moving `speed` units a frame in a random direction: a circle of
/// diameter `size` or (two in five) a box of sides `size` by 0.5 to 1 times `size`.
fn body(rng: &mut Rng, center: Vec2, size: f32, speed: f32) -> Body {
    let velocity = Vec2::from_angle(rng.range(0.0, std::f32::consts::TAU)) * speed;
    let (radius, half) = if rng.below(5) < 3 {
        (Some(size * 0.5), Vec2::ZERO)
    } else {
        (None, Vec2::new(size * 0.5, size * rng.range(0.25, 0.5)))
    };
    Body {
        center,
        velocity,
        radius,
        half,
        filter: Filter::DEFAULT,
    }
}

/// Sizes around 1 (0.7 to 1.3).
fn unit_size(rng: &mut Rng) -> f32 {
    rng.range(0.7, 1.3)
}

impl Scene {
    /// `n` objects of size about 1 moving `speed` units a frame (the benches use 0.01, 0.25
    /// and 2), 3 units² per object: each touches about one other.
    #[must_use]
    pub fn moving(n: usize, speed: f32, seed: u64) -> Scene {
        let mut rng = Rng::new(seed);
        let side = (n as f32 * 3.0).sqrt();
        let bodies = (0..n)
            .map(|_| {
                let center = Vec2::new(rng.range(0.0, side), rng.range(0.0, side));
                let size = unit_size(&mut rng);
                body(&mut rng, center, size, speed)
            })
            .collect();
        Scene {
            bodies,
            side,
            statics: 0,
        }
    }

    /// `n` objects of sizes 1 to 100, log-uniform (most small, a few huge), moving 0.25 a
    /// frame, 1000 units² per object.
    #[must_use]
    pub fn mixed_sizes(n: usize, seed: u64) -> Scene {
        let mut rng = Rng::new(seed);
        let side = (n as f32 * 1000.0).sqrt();
        let bodies = (0..n)
            .map(|_| {
                let center = Vec2::new(rng.range(0.0, side), rng.range(0.0, side));
                let size = 100f32.powf(rng.range(0.0, 1.0));
                body(&mut rng, center, size, 0.25)
            })
            .collect();
        Scene {
            bodies,
            side,
            statics: 0,
        }
    }

    /// `n` objects of size about 1 moving 0.25 a frame, nine in ten in 8 crowded discs (a unit
    /// and a half of area per object there), the rest spread over a square of 30 units² per object.
    #[must_use]
    pub fn clustered(n: usize, seed: u64) -> Scene {
        let mut rng = Rng::new(seed);
        let side = (n as f32 * 30.0).sqrt();
        let crowds: Vec<(Vec2, f32)> = (0..8)
            .map(|_| {
                let center = Vec2::new(rng.range(0.1, 0.9) * side, rng.range(0.1, 0.9) * side);
                let radius = (n as f32 * 0.9 / 8.0 * 1.5 / std::f32::consts::PI).sqrt();
                (center, radius)
            })
            .collect();
        let bodies = (0..n)
            .map(|_| {
                let center = if rng.below(10) < 9 {
                    let (c, r) = crowds[rng.below(crowds.len())];
                    let at = Vec2::from_angle(rng.range(0.0, std::f32::consts::TAU));
                    c + at * r * rng.range(0.0, 1.0).sqrt()
                } else {
                    Vec2::new(rng.range(0.0, side), rng.range(0.0, side))
                };
                let size = unit_size(&mut rng);
                body(&mut rng, center, size, 0.25)
            })
            .collect();
        Scene {
            bodies,
            side,
            statics: 0,
        }
    }

    /// `movers` objects of size about 1 moving 0.25 a frame over `tiles` static unit tiles
    /// laid on a grid with a spacing of 1.5 (so tiles never touch each other); the square is
    /// the tiles' (the movers' own when there are fewer tiles). The movers alone on the same
    /// square: [`Scene::without_statics`].
    #[must_use]
    pub fn mostly_static(tiles: usize, movers: usize, seed: u64) -> Scene {
        let mut rng = Rng::new(seed);
        let per_row = (tiles.max(movers) as f32).sqrt().ceil() as usize;
        let side = per_row as f32 * 1.5;
        let mut bodies: Vec<Body> = (0..tiles)
            .map(|i| Body {
                center: Vec2::new((i % per_row) as f32 * 1.5, (i / per_row) as f32 * 1.5),
                velocity: Vec2::ZERO,
                radius: None,
                half: Vec2::splat(0.5),
                filter: Filter::DEFAULT,
            })
            .collect();
        bodies.extend((0..movers).map(|_| {
            let center = Vec2::new(rng.range(0.0, side), rng.range(0.0, side));
            let size = unit_size(&mut rng);
            body(&mut rng, center, size, 0.25)
        }));
        Scene {
            bodies,
            side,
            statics: tiles,
        }
    }

    /// The same scene without its static bodies: the movers alone, where they were, on the
    /// same square (the baseline "a mostly static world costs at most 2x its movers alone").
    #[must_use]
    pub fn without_statics(mut self) -> Scene {
        self.bodies.drain(..self.statics);
        self.statics = 0;
        self
    }
}
