//! `collide2d demo`: a small shoot-'em-up run on a [`CollisionWorld`], frame by frame.
//!
//! The built-in scene: a player ship with a two-rectangle hitbox weaving along the bottom, a row
//! of rotated-box enemies along the top firing rings of bullets, the player's own stream of
//! shots, and static cover blocks in between. Every frame moves each bullet, runs one world
//! update and acts on its pairs: a bullet that hits something is removed, as is one that leaves
//! the arena; an enemy that has taken enough shots respawns. The run starts with
//! [`WARM_UP`] frames that are played but not shown, so frame 0 is already mid-game.
//!
//! The layers are those of a real shoot-'em-up: enemy bullets collide only with the player and
//! the cover, so tens of thousands of them never pair with each other (the world filters them
//! before pairing). Everything is seeded and uses no trigonometry at run time, so the pairs, hits
//! and the final checksum are the same on every run; only the times differ.

use std::io::{self, IsTerminal, Write};
use std::time::{Duration, Instant};

use collide2d::math::Vec2;
use collide2d::{
    Aabb, BroadPhase, Circle, CollisionWorld, Compound, Filter, Handle, Obb, ObjectKind, Shape,
    ShapeError, UpdateStats, WorldError,
};
use collide2d_cli::render;

/// The arena: x in `[0, WIDTH]`, y in `[0, HEIGHT]`, y pointing down (screen coordinates).
const WIDTH: f32 = 1600.0;
const HEIGHT: f32 = 1200.0;

const PLAYER: u64 = 1 << 0;
const ENEMY: u64 = 1 << 1;
const PLAYER_BULLET: u64 = 1 << 2;
const ENEMY_BULLET: u64 = 1 << 3;
const COVER: u64 = 1 << 4;

const ENEMIES: usize = 12;
/// Frames played before frame 0, neither printed nor counted, so the first frames shown
/// already have bullets on the cover and shots on the enemies (a bullet needs 80 to 200
/// frames to cross from the enemies to the cover).
pub const WARM_UP: u32 = 120;
/// Shots an enemy takes before it respawns.
const ENEMY_HEALTH: u32 = 10;
/// Directions in one ring of bullets.
const RING: usize = 64;

/// Settings of one run (`collide2d demo --frames N --bullets N --seed N`).
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Frames to simulate.
    pub frames: u32,
    /// The enemies fire rings while fewer than this many of their bullets are in the air.
    pub bullets: usize,
    /// Seed of the bullet speeds and sizes.
    pub seed: u64,
    /// Print a table row every this many frames (the first and last frames always).
    pub every: u32,
}

/// What an object of the world is.
#[derive(Clone, Copy, Debug)]
enum Body {
    Player,
    Enemy(usize),
    Cover,
    Bullet {
        at: Vec2,
        velocity: Vec2,
        radius: f32,
        from_player: bool,
    },
}

/// SplitMix64: a small seeded generator, the same numbers everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[lo, hi)`.
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        let unit = (self.next() >> 40) as f32 / (1u64 << 24) as f32;
        lo + (hi - lo) * unit
    }
}

/// The `RING` unit directions, built by repeated rotation (basic arithmetic only, so the same
/// bits on every platform, unlike `sin`/`cos`).
fn ring_directions() -> [Vec2; RING] {
    // cos and sin of 2π / 64.
    let (c, s) = (0.995_184_7_f32, 0.098_017_14_f32);
    let mut out = [Vec2::X; RING];
    for i in 1..RING {
        let p = out[i - 1];
        let next = Vec2::new(p.x * c - p.y * s, p.x * s + p.y * c);
        out[i] = next / next.length();
    }
    out
}

/// A triangle wave in `[0, 1]` with the given period in frames.
fn triangle(frame: u32, period: u32, phase: u32) -> f32 {
    let t = (frame + phase) % period;
    let half = period / 2;
    if t < half {
        t as f32 / half as f32
    } else {
        (period - t) as f32 / (period - half) as f32
    }
}

/// The running game: the world, and the handles the game keeps.
struct Game {
    world: CollisionWorld<Body>,
    player: Handle,
    enemies: Vec<(Handle, u32)>,
    bullets: Vec<Handle>,
    directions: [Vec2; RING],
    rng: Rng,
    target_bullets: usize,
    totals: Totals,
    checksum: u64,
}

/// Counts over the whole run.
#[derive(Debug, Default)]
struct Totals {
    player_hits: u64,
    enemy_hits: u64,
    enemies_destroyed: u64,
    cover_hits: u64,
    fired: u64,
    pairs: u64,
    candidates: u64,
}

/// One frame's figures.
struct Frame {
    stats: UpdateStats,
    player_hits: u64,
    enemy_hits: u64,
    update: Duration,
    total: Duration,
}

fn player_hitbox(x: f32, y: f32) -> Result<Shape, ShapeError> {
    // A fuselage and a pair of wings: the multi-rectangle hitbox of a sprite.
    let body = Aabb::from_rect(x - 4.0, y - 12.0, 8.0, 24.0)?;
    let wings = Aabb::from_rect(x - 14.0, y + 2.0, 28.0, 6.0)?;
    Ok(Compound::new(vec![body.into(), wings.into()])?.into())
}

fn enemy_at(i: usize, frame: u32) -> Result<Shape, ShapeError> {
    let slot = WIDTH / ENEMIES as f32;
    let sway = 40.0 * (triangle(frame, 240, i as u32 * 20) - 0.5);
    let center = Vec2::new(
        slot * (i as f32 + 0.5) + sway,
        120.0 + 20.0 * (i % 3) as f32,
    );
    // Fixed angles per enemy: rotated boxes, no run-time trigonometry.
    let angle = [0.0, 0.3, 0.6, core::f32::consts::FRAC_PI_4][i % 4];
    Ok(Obb::new(center, Vec2::new(22.0, 14.0), angle)?.into())
}

impl Game {
    fn new(settings: &Settings) -> Result<Game, Fault> {
        // Cells a little larger than the biggest bullet; the enemies and cover blocks span a
        // few cells each.
        let broad = BroadPhase::grid(24.0)?;
        let mut world = CollisionWorld::new(broad);
        let player = world.insert(
            player_hitbox(WIDTH / 2.0, HEIGHT - 80.0)?,
            Filter::new(PLAYER, ENEMY | ENEMY_BULLET),
            ObjectKind::Dynamic,
            Body::Player,
        )?;
        let mut enemies = Vec::with_capacity(ENEMIES);
        for i in 0..ENEMIES {
            let handle = world.insert(
                enemy_at(i, 0)?,
                Filter::new(ENEMY, PLAYER | PLAYER_BULLET),
                ObjectKind::Dynamic,
                Body::Enemy(i),
            )?;
            enemies.push((handle, ENEMY_HEALTH));
        }
        for k in 0..8 {
            let x = 120.0 + 190.0 * k as f32;
            let cover = Aabb::from_rect(x, 720.0 + 60.0 * (k % 2) as f32, 80.0, 24.0)?;
            world.insert(
                cover.into(),
                Filter::new(COVER, ENEMY_BULLET),
                ObjectKind::Static,
                Body::Cover,
            )?;
        }
        Ok(Game {
            world,
            player,
            enemies,
            bullets: Vec::new(),
            directions: ring_directions(),
            rng: Rng(settings.seed),
            target_bullets: settings.bullets,
            totals: Totals::default(),
            checksum: FNV_START,
        })
    }

    fn fire(
        &mut self,
        at: Vec2,
        velocity: Vec2,
        radius: f32,
        from_player: bool,
    ) -> Result<(), Fault> {
        let shape = Circle::new(at, radius)?.into();
        let filter = if from_player {
            Filter::new(PLAYER_BULLET, ENEMY)
        } else {
            Filter::new(ENEMY_BULLET, PLAYER | COVER)
        };
        let body = Body::Bullet {
            at,
            velocity,
            radius,
            from_player,
        };
        let handle = self
            .world
            .insert(shape, filter, ObjectKind::Dynamic, body)?;
        self.bullets.push(handle);
        self.totals.fired += 1;
        Ok(())
    }

    /// Moves the ships and bullets, spawns new bullets, removes those that left the arena.
    fn step_bodies(&mut self, frame: u32) -> Result<(), Fault> {
        let px = 100.0 + (WIDTH - 200.0) * triangle(frame, 360, 0);
        let py = HEIGHT - 80.0 - 40.0 * triangle(frame, 90, 0);
        self.world.set_shape(self.player, player_hitbox(px, py)?)?;
        for (i, &(handle, _)) in self.enemies.iter().enumerate() {
            self.world.set_shape(handle, enemy_at(i, frame)?)?;
        }

        let world = &mut self.world;
        let mut error = None;
        self.bullets.retain(|&handle| {
            let moved = match world.data_mut(handle) {
                Ok(Body::Bullet {
                    at,
                    velocity,
                    radius,
                    ..
                }) => {
                    *at += *velocity;
                    let r = *radius;
                    let inside = at.x > -r && at.x < WIDTH + r && at.y > -r && at.y < HEIGHT + r;
                    inside.then_some((*at, r))
                }
                // Removed by a hit last frame.
                _ => return false,
            };
            let result = match moved {
                Some((at, r)) => Circle::new(at, r)
                    .map_err(Fault::from)
                    .and_then(|c| world.set_shape(handle, c.into()).map_err(Fault::from))
                    .map(|()| true),
                None => world.remove(handle).map(|_| false).map_err(Fault::from),
            };
            result.unwrap_or_else(|e| {
                error.get_or_insert(e);
                false
            })
        });
        if let Some(e) = error {
            return Err(e);
        }

        // The player fires a spread of four shots every other frame.
        if frame.is_multiple_of(2) {
            for k in 0..4 {
                let dx = (k as f32 - 1.5) * 0.8;
                self.fire(Vec2::new(px, py - 16.0), Vec2::new(dx, -14.0), 3.0, true)?;
            }
        }
        // Each enemy fires a ring now and then, more often while the screen is empty.
        let missing = self.target_bullets.saturating_sub(self.bullets.len());
        let rings = if missing < RING {
            0
        } else {
            missing.div_ceil(RING * 16).min(ENEMIES)
        };
        for r in 0..rings {
            let i = (frame as usize * 5 + r * 7) % ENEMIES;
            let center = match &*self.world.shape(self.enemies[i].0)? {
                Shape::Obb(o) => o.center(),
                other => other.aabb().center(),
            };
            let speed = self.rng.range(3.0, 7.0);
            let radius = self.rng.range(2.0, 5.0);
            let twist = (frame as usize + i) % RING;
            for d in 0..RING {
                let dir = self.directions[(d + twist) % RING];
                self.fire(center + dir * 26.0, dir * speed, radius, false)?;
            }
        }
        Ok(())
    }

    /// Acts on the pairs of the last update: hits remove bullets and wear enemies down.
    fn resolve(&mut self, frame: u32) -> Result<(u64, u64), Fault> {
        let (mut player_hits, mut enemy_hits) = (0, 0);
        let mut spent = Vec::new();
        for pair in self.world.pairs() {
            self.checksum = fnv(self.checksum, &[pair.a.index(), pair.b.index(), frame]);
            let a = *self.world.data(pair.a)?;
            let b = *self.world.data(pair.b)?;
            for (this, other, handle) in [(a, b, pair.a), (b, a, pair.b)] {
                let Body::Bullet { from_player, .. } = this else {
                    continue;
                };
                spent.push(handle);
                match (from_player, other) {
                    (false, Body::Player) => player_hits += 1,
                    (true, Body::Enemy(i)) => {
                        enemy_hits += 1;
                        let health = &mut self.enemies[i].1;
                        *health = health.saturating_sub(1);
                    }
                    (_, Body::Cover) => self.totals.cover_hits += 1,
                    _ => {}
                }
            }
        }
        // A bullet touching two things at once is spent once.
        spent.sort_unstable();
        spent.dedup();
        for handle in spent {
            self.world.remove(handle)?;
        }
        for i in 0..ENEMIES {
            if self.enemies[i].1 == 0 {
                // Destroyed: a fresh enemy takes its place (a new handle).
                self.world.remove(self.enemies[i].0)?;
                let handle = self.world.insert(
                    enemy_at(i, frame)?,
                    Filter::new(ENEMY, PLAYER | PLAYER_BULLET),
                    ObjectKind::Dynamic,
                    Body::Enemy(i),
                )?;
                self.enemies[i] = (handle, ENEMY_HEALTH);
                self.totals.enemies_destroyed += 1;
            }
        }
        self.totals.player_hits += player_hits;
        self.totals.enemy_hits += enemy_hits;
        Ok((player_hits, enemy_hits))
    }

    /// A frame, and when `picture` is given, the SVG of the world right after its update
    /// (before the hits are acted on, so the bullets that hit are still in it).
    fn frame(
        &mut self,
        frame: u32,
        picture: Option<&render::Options>,
    ) -> Result<(Frame, Option<String>), Fault> {
        let start = Instant::now();
        self.step_bodies(frame)?;
        let before_update = Instant::now();
        let stats = self.world.update();
        let update = before_update.elapsed();
        let svg = picture.map(|options| self.draw(options));
        let (player_hits, enemy_hits) = self.resolve(frame)?;
        self.totals.pairs += stats.pairs as u64;
        self.totals.candidates += stats.candidates as u64;
        let figures = Frame {
            stats,
            player_hits,
            enemy_hits,
            update,
            total: start.elapsed(),
        };
        Ok((figures, svg))
    }

    /// The world as it is now, with the last update's pairs and their contacts (and with
    /// `--debug`, its grid), drawn as `collide2d render` draws a scene.
    fn draw(&self, options: &render::Options) -> String {
        render::world_svg(
            &self.world,
            // The ships are what a viewer looks for: named, labelled, drawn on top. Bullets and
            // cover are the crowd.
            |_, body| match body {
                Body::Player => Some("player".to_string()),
                Body::Enemy(i) => Some(format!("enemy {i}")),
                Body::Cover | Body::Bullet { .. } => None,
            },
            options,
        )
    }
}

/// FNV-1a's offset basis: the checksum of no pair.
const FNV_START: u64 = 0xCBF2_9CE4_8422_2325;

/// FNV-1a over 32-bit words: the run's checksum of every pair of every frame.
fn fnv(mut hash: u64, words: &[u32]) -> u64 {
    for word in words {
        for byte in word.to_le_bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01B3);
        }
    }
    hash
}

/// Why a run stopped.
#[derive(Debug)]
pub enum Fault {
    /// Writing the table failed.
    Write(io::Error),
    /// A shape or world operation was refused (a bug in the scene: please report it).
    Game(String),
}

impl From<io::Error> for Fault {
    fn from(e: io::Error) -> Fault {
        Fault::Write(e)
    }
}

impl From<ShapeError> for Fault {
    fn from(e: ShapeError) -> Fault {
        Fault::Game(e.to_string())
    }
}

impl From<WorldError> for Fault {
    fn from(e: WorldError) -> Fault {
        Fault::Game(e.to_string())
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Runs the simulation, writing the table to `out` and a progress bar to standard error when
/// it is a terminal.
///
/// With `picture`, returns the last frame drawn as SVG (see [`render::world_svg`]).
pub fn run(
    out: &mut impl Write,
    settings: &Settings,
    picture: Option<&render::Options>,
) -> Result<Option<String>, Fault> {
    let mut game = Game::new(settings)?;
    for frame in 0..WARM_UP {
        game.frame(frame, None)?;
    }
    game.totals = Totals::default();
    game.checksum = FNV_START;
    writeln!(
        out,
        "collide2d demo: a shoot-'em-up, {} frames after {WARM_UP} of warm-up; the enemies fire \
         rings while fewer than {} of their bullets are in the air; seed {}",
        settings.frames, settings.bullets, settings.seed
    )?;
    writeln!(
        out,
        "player (2-rectangle hitbox), {ENEMIES} rotated-box enemies, 8 static cover blocks; \
         enemy bullets ignore each other (layers and masks)\n"
    )?;
    writeln!(
        out,
        "{:>6} {:>8} {:>11} {:>6} {:>6} {:>6} {:>12} {:>11} {:>10} {:>9}",
        "frame",
        "objects",
        "candidates",
        "pairs",
        "began",
        "ended",
        "player hits",
        "enemy hits",
        "update ms",
        "frame ms"
    )?;
    let progress = io::stderr().is_terminal();
    let mut updates = Vec::with_capacity(settings.frames as usize);
    let mut max_objects = 0;
    let every = settings.every.max(1);
    let mut svg = None;
    for frame in 0..settings.frames {
        let last = frame + 1 == settings.frames;
        let (f, drawn) = game.frame(WARM_UP + frame, picture.filter(|_| last))?;
        if drawn.is_some() {
            svg = drawn;
        }
        updates.push(f.update);
        max_objects = max_objects.max(f.stats.objects);
        if frame % every == 0 || frame + 1 == settings.frames {
            if progress {
                eprint!("\r{:60}\r", "");
            }
            writeln!(
                out,
                "{frame:>6} {:>8} {:>11} {:>6} {:>6} {:>6} {:>12} {:>11} {:>10.3} {:>9.3}",
                f.stats.objects,
                f.stats.candidates,
                f.stats.pairs,
                f.stats.began,
                f.stats.ended,
                f.player_hits,
                f.enemy_hits,
                ms(f.update),
                ms(f.total)
            )?;
            out.flush()?;
        }
        if progress {
            let done = (frame + 1) as usize * 40 / settings.frames.max(1) as usize;
            eprint!(
                "\r[{}{}] frame {}/{}",
                "#".repeat(done),
                " ".repeat(40 - done),
                frame + 1,
                settings.frames
            );
        }
    }
    if progress {
        eprint!("\r{:60}\r", "");
    }
    let t = &game.totals;
    updates.sort_unstable();
    let pick = |q: usize| {
        updates
            .get(updates.len().saturating_sub(1) * q / 100)
            .copied()
    };
    let total: Duration = updates.iter().sum();
    writeln!(out, "\nsummary")?;
    writeln!(out, "  frames             {}", settings.frames)?;
    writeln!(out, "  objects (peak)     {max_objects}")?;
    writeln!(out, "  bullets fired      {}", t.fired)?;
    writeln!(
        out,
        "  candidate pairs    {} (narrow-phase tests)",
        t.candidates
    )?;
    writeln!(out, "  colliding pairs    {}", t.pairs)?;
    writeln!(out, "  player hit         {} times", t.player_hits)?;
    writeln!(
        out,
        "  enemies hit        {} times, {} destroyed",
        t.enemy_hits, t.enemies_destroyed
    )?;
    writeln!(out, "  cover hit          {} times", t.cover_hits)?;
    if let (Some(p50), Some(p99), Some(max)) = (pick(50), pick(99), updates.last().copied()) {
        writeln!(
            out,
            "  update time        median {:.3} ms, p99 {:.3} ms, max {:.3} ms, total {:.1} ms",
            ms(p50),
            ms(p99),
            ms(max),
            ms(total)
        )?;
    }
    writeln!(
        out,
        "  checksum           {:016x} (pairs of every frame: the same on every run)",
        game.checksum
    )?;
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(frames: u32, bullets: usize) -> Settings {
        Settings {
            frames,
            bullets,
            seed: 7,
            every: 10,
        }
    }

    fn checksum_line(out: &str) -> String {
        out.lines()
            .find(|l| l.trim_start().starts_with("checksum"))
            .unwrap()
            .to_string()
    }

    #[test]
    fn the_last_frame_is_drawn_with_its_hits() {
        let options = render::Options::default();
        let svg = run(&mut Vec::new(), &settings(150, 3000), Some(&options))
            .unwrap()
            .unwrap();
        assert!(
            svg.starts_with("<svg") || svg.starts_with("<?xml"),
            "{}",
            &svg[..80]
        );
        assert!(svg.contains(r#"data-id="player""#));
        assert!(svg.contains(r#"data-id="enemy 0""#));
        assert!(svg.contains("object hit"));
    }

    #[test]
    fn ring_directions_are_unit_and_evenly_spread() {
        let dirs = ring_directions();
        for (i, d) in dirs.iter().enumerate() {
            assert!((d.length() - 1.0).abs() < 1e-6, "{i}: {d}");
        }
        assert!((dirs[RING / 4] - Vec2::Y).length() < 1e-4);
        assert!((dirs[RING / 2] + Vec2::X).length() < 1e-4);
    }

    #[test]
    fn a_run_hits_things_and_repeats_exactly() {
        let mut first = Vec::new();
        run(&mut first, &settings(120, 4000), None).unwrap();
        let first = String::from_utf8(first).unwrap();
        let number = |label: &str| -> u64 {
            let line = first
                .lines()
                .find(|l| l.trim_start().starts_with(label))
                .unwrap();
            line.split_whitespace()
                .find_map(|w| w.parse().ok())
                .unwrap()
        };
        // The warm-up filled the arena: most bullets were fired before frame 0.
        assert!(number("bullets fired") > 0, "{first}");
        // The first row shown already has colliding pairs (bullets on the cover).
        let row: Vec<u64> = first
            .lines()
            .find(|l| l.split_whitespace().next() == Some("0"))
            .unwrap()
            .split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect();
        assert!(row[1] > 3000 && row[3] > 0, "frame 0: {row:?}");
        assert!(number("colliding pairs") > 0, "{first}");
        assert!(number("enemies hit") > 0, "{first}");
        assert!(number("cover hit") > 0, "{first}");
        let mut second = Vec::new();
        run(&mut second, &settings(120, 4000), None).unwrap();
        let second = String::from_utf8(second).unwrap();
        assert_eq!(checksum_line(&first), checksum_line(&second));
    }

    #[test]
    fn pairs_agree_with_a_brute_force_check_each_frame() {
        let mut game = Game::new(&settings(60, 3000)).unwrap();
        for frame in 0..60 {
            game.step_bodies(frame).unwrap();
            game.world.update();
            let mut expected = Vec::new();
            let objects: Vec<(Handle, Shape)> = game
                .world
                .iter()
                .map(|(h, s, _)| (h, s.into_owned()))
                .collect();
            for (i, (ha, sa)) in objects.iter().enumerate() {
                for (hb, sb) in &objects[i + 1..] {
                    let (fa, fb) = (
                        game.world.filter(*ha).unwrap(),
                        game.world.filter(*hb).unwrap(),
                    );
                    let both_static = game.world.kind(*ha).unwrap() == ObjectKind::Static
                        && game.world.kind(*hb).unwrap() == ObjectKind::Static;
                    if fa.collides_with(fb) && !both_static && collide2d::intersects(sa, sb) {
                        expected.push((*ha.min(hb), *ha.max(hb)));
                    }
                }
            }
            expected.sort_unstable();
            let found: Vec<(Handle, Handle)> =
                game.world.pairs().iter().map(|p| (p.a, p.b)).collect();
            assert_eq!(found, expected, "frame {frame}");
            game.resolve(frame).unwrap();
        }
    }
}
