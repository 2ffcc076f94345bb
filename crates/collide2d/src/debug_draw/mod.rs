//! Debug drawing, decided once: [`CollisionWorld::debug_draw`] walks a world's broad phase,
//! bounding boxes, objects, contacts and names, and calls a [`DebugDraw`]'s callbacks for
//! polygons, circles, capsules, segments, points, arrows and labels, each with the [`Role`] of
//! what it stands for (as Box2D's `b2DebugDraw`). A drawer only turns primitives into pixels:
//! the SVG pictures of `collide2d render`, the browser playground and a game engine's gizmos
//! implement it and so show the same things in the same order, with the same [`Role::colour`]
//! palette.
//!
//! The order is the one a viewer needs: the broad phase beneath everything, then bounding
//! boxes, then the [`Layer`]s of objects, the crowd (unnamed objects: bullets, tiles) below the
//! named ones (player, enemies) and colliding objects above the others, then contact points
//! with their normals, and the names last, on top.
//!
//! ```
//! use collide2d::debug_draw::{DebugDraw, DrawOptions, Role};
//! use collide2d::{math::Vec2, BroadPhase, Circle, CollisionWorld, Filter, ObjectKind};
//!
//! /// Counts what would be drawn.
//! #[derive(Default)]
//! struct Count { circles: usize, arrows: usize, labels: Vec<String> }
//! impl DebugDraw for Count {
//!     fn polygon(&mut self, _: &[Vec2], _: Role) {}
//!     fn circle(&mut self, _: Vec2, _: f32, _: Role) { self.circles += 1; }
//!     fn capsule(&mut self, _: Vec2, _: Vec2, _: f32, _: Role) {}
//!     fn segment(&mut self, _: Vec2, _: Vec2, _: Role) {}
//!     fn point(&mut self, _: Vec2, _: Role) {}
//!     fn arrow(&mut self, _: Vec2, _: Vec2, role: Role) { assert_eq!(role, Role::Normal); self.arrows += 1; }
//!     fn label(&mut self, object: &collide2d::debug_draw::DrawnObject<'_>) {
//!         self.labels.extend(object.name.map(String::from));
//!     }
//! }
//!
//! let mut world = CollisionWorld::new(BroadPhase::default());
//! for (x, name) in [(0.0, "player"), (1.5, "coin")] {
//!     let disc = Circle::new(Vec2::new(x, 0.0), 1.0)?.into();
//!     world.insert(disc, Filter::DEFAULT, ObjectKind::Dynamic, name)?;
//! }
//! world.update();
//! let mut count = Count::default();
//! world.debug_draw(&mut count, &DrawOptions::default(), |_, name| Some(*name));
//! assert_eq!((count.circles, count.arrows), (2, 1)); // two discs, one contact normal
//! assert_eq!(count.labels, ["player", "coin"]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod walk;

use crate::broad::{BroadBox, BroadBoxKind};
use crate::math::Vec2;
use crate::query::Contact;
use crate::shape::{Aabb, Shape};
use crate::world::{Handle, ObjectKind};
#[cfg(doc)]
use crate::CollisionWorld;

/// An sRGB colour with alpha, 8 bits a channel (`a = 255` is opaque).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Colour {
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
    /// Opacity.
    pub a: u8,
}

impl Colour {
    /// An opaque colour.
    #[must_use]
    pub const fn rgb(r: u8, g: u8, b: u8) -> Colour {
        Colour { r, g, b, a: 255 }
    }
}

/// Objects not colliding.
pub const BLUE: Colour = Colour::rgb(0x25, 0x63, 0xeb);
/// Objects in at least one colliding pair.
pub const RED: Colour = Colour::rgb(0xdc, 0x26, 0x26);
/// Bounding boxes and convex parts.
pub const GREY: Colour = Colour::rgb(0x6b, 0x72, 0x80);
/// Grid cells and large objects of a grid broad phase.
pub const GREEN: Colour = Colour::rgb(0x05, 0x96, 0x69);
/// Tree nodes and leaves of a tree broad phase.
pub const PURPLE: Colour = Colour::rgb(0x7c, 0x3a, 0xed);
/// Contact points, normals and names.
pub const INK: Colour = Colour::rgb(0x11, 0x18, 0x27);

/// What a primitive stands for: the drawer picks colour and style from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Role {
    /// An object's outline and interior (a compound's parts, a polygon's outline).
    Object {
        /// The object is in at least one colliding pair of the last update.
        colliding: bool,
        /// The object has a name: one the viewer looks for, drawn above the crowd.
        named: bool,
    },
    /// A convex part of a concave polygon (drawn over its outline, dashed).
    ConvexPart,
    /// An object's bounding box.
    BoundingBox,
    /// A box of the broad phase.
    Broad(BroadBoxKind),
    /// A contact point.
    ContactPoint,
    /// A contact normal, from the pair's `a` towards its `b`.
    Normal,
}

impl Role {
    /// The palette every drawer of this crate's pictures uses: blue objects, red when
    /// colliding, grey bounding boxes and parts, green grid, purple trees, dark ink for
    /// contacts. Broad-phase boxes are faint (more transparent deeper in a tree).
    #[must_use]
    pub fn colour(self) -> Colour {
        match self {
            Role::Object {
                colliding: true, ..
            } => RED,
            Role::Object { .. } => BLUE,
            Role::ConvexPart | Role::BoundingBox => GREY,
            Role::Broad(BroadBoxKind::Cell { .. } | BroadBoxKind::Large { .. }) => GREEN,
            Role::Broad(_) => PURPLE,
            Role::ContactPoint | Role::Normal => INK,
        }
    }
}

/// The groups of a walk, in drawing order; see [`DebugDraw::begin_layer`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Layer {
    /// The broad phase's boxes.
    BroadPhase,
    /// Every object's bounding box.
    BoundingBoxes,
    /// Unnamed objects in no colliding pair (static ones first).
    Crowd,
    /// Unnamed objects in a colliding pair.
    CrowdColliding,
    /// Named objects in no colliding pair.
    Named,
    /// Named objects in a colliding pair.
    NamedColliding,
    /// Contact points and normals, pair by pair.
    Contacts,
    /// Names of the named objects, colliding ones first.
    Labels,
}

/// One object as the walk gives it to a drawer.
#[derive(Clone, Copy, Debug)]
pub struct DrawnObject<'a> {
    /// Its handle.
    pub handle: Handle,
    /// Its shape, in world coordinates.
    pub shape: &'a Shape,
    /// Static, dynamic or fast.
    pub kind: ObjectKind,
    /// In at least one colliding pair of the last update.
    pub colliding: bool,
    /// Its name, if the caller gave one.
    pub name: Option<&'a str>,
}

/// One colliding pair as the walk gives it to a drawer: its contact goes from `a` to `b`.
#[derive(Clone, Copy, Debug)]
pub struct DrawnPair<'a> {
    /// The first object.
    pub a: Handle,
    /// The second object.
    pub b: Handle,
    /// The first object's name, if any.
    pub a_name: Option<&'a str>,
    /// The second object's name, if any.
    pub b_name: Option<&'a str>,
    /// Their contact (normal from `a` towards `b`).
    pub contact: &'a Contact,
}

/// What a walk draws. [`Default`] draws objects, contacts and labels; [`DrawOptions::debug`]
/// everything.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::struct_excessive_bools)] // independent switches, as Box2D's draw flags
pub struct DrawOptions {
    /// The broad phase's boxes ([`CollisionWorld::broad_phase_boxes`]).
    pub broad_phase: bool,
    /// Every object's bounding box.
    pub bounding_boxes: bool,
    /// The convex parts of concave polygons.
    pub convex_parts: bool,
    /// Contact points and normals of the colliding pairs.
    pub contacts: bool,
    /// The names of named objects.
    pub labels: bool,
}

impl Default for DrawOptions {
    fn default() -> DrawOptions {
        DrawOptions {
            broad_phase: false,
            bounding_boxes: false,
            convex_parts: false,
            contacts: true,
            labels: true,
        }
    }
}

impl DrawOptions {
    /// Everything: broad phase, bounding boxes, convex parts, contacts and labels.
    #[must_use]
    pub fn debug() -> DrawOptions {
        DrawOptions {
            broad_phase: true,
            bounding_boxes: true,
            convex_parts: true,
            contacts: true,
            labels: true,
        }
    }
}

/// Drawing callbacks, called by [`CollisionWorld::debug_draw`] in drawing order (later on
/// top). Coordinates are world coordinates; the drawer maps them to its screen. Only the
/// primitives are required; the `begin_*`/`end_*` brackets, bounding and broad-phase boxes
/// and labels have defaults (brackets and labels do nothing, boxes are polygons).
pub trait DebugDraw {
    /// A closed polygon, its points in order.
    fn polygon(&mut self, points: &[Vec2], role: Role);
    /// A disc.
    fn circle(&mut self, center: Vec2, radius: f32, role: Role);
    /// A capsule: every point within `radius` of the segment `a`-`b`.
    fn capsule(&mut self, a: Vec2, b: Vec2, radius: f32, role: Role);
    /// A segment.
    fn segment(&mut self, a: Vec2, b: Vec2, role: Role);
    /// A point.
    fn point(&mut self, p: Vec2, role: Role);
    /// An arrow from `from` along the unit `direction`; the drawer picks its length on screen
    /// (a contact normal's depth may be 0).
    fn arrow(&mut self, from: Vec2, direction: Vec2, role: Role);

    /// An axis-aligned box (bounding and broad-phase boxes); a polygon by default. Its width
    /// or height may be zero (a horizontal segment's box).
    fn rect(&mut self, aabb: &Aabb, role: Role) {
        self.polygon(&aabb.corners(), role);
    }
    /// A box of the broad phase, with the name of the object it holds (leaves of a tree, a
    /// grid's large objects); [`rect`](Self::rect) by default.
    fn broad_box(&mut self, b: &BroadBox, name: Option<&str>) {
        let _ = name;
        self.rect(&b.aabb, Role::Broad(b.kind));
    }
    /// An object's bounding box; [`rect`](Self::rect) by default.
    fn bounding_box(&mut self, object: &DrawnObject<'_>) {
        self.rect(&object.shape.aabb(), Role::BoundingBox);
    }
    /// The name of a named object (`object.name` is `Some`), drawn near its shape.
    fn label(&mut self, object: &DrawnObject<'_>) {
        let _ = object;
    }
    /// Starts a layer with `count` items (objects, pairs or boxes) in it.
    fn begin_layer(&mut self, layer: Layer, count: usize) {
        let _ = (layer, count);
    }
    /// Ends the layer begun last.
    fn end_layer(&mut self, layer: Layer) {
        let _ = layer;
    }
    /// Starts one object's outline (a compound draws several primitives).
    fn begin_object(&mut self, object: &DrawnObject<'_>) {
        let _ = object;
    }
    /// Ends the object begun last.
    fn end_object(&mut self, object: &DrawnObject<'_>) {
        let _ = object;
    }
    /// Starts one pair's contact points and normals.
    fn begin_pair(&mut self, pair: &DrawnPair<'_>) {
        let _ = pair;
    }
    /// Ends the pair begun last.
    fn end_pair(&mut self, pair: &DrawnPair<'_>) {
        let _ = pair;
    }
}

/// Draws `shape`'s outline through `draw`: compounds part by part, concave polygons by their
/// outline and, with `convex_parts`, their convex parts over it.
pub fn draw_shape(
    draw: &mut (impl DebugDraw + ?Sized),
    shape: &Shape,
    role: Role,
    convex_parts: bool,
) {
    match shape {
        Shape::Point(s) => draw.point(s.p(), role),
        Shape::Segment(s) => draw.segment(s.a(), s.b(), role),
        Shape::Circle(s) => draw.circle(s.center(), s.radius(), role),
        Shape::Aabb(s) => draw.polygon(&s.corners(), role),
        Shape::Obb(s) => draw.polygon(&s.corners(), role),
        Shape::Capsule(s) => draw.capsule(s.a(), s.b(), s.radius(), role),
        Shape::ConvexPolygon(s) => draw.polygon(s.points(), role),
        Shape::Polygon(s) => {
            draw.polygon(s.points(), role);
            if convex_parts && !s.is_convex() {
                for part in s.parts() {
                    draw.polygon(part.points(), Role::ConvexPart);
                }
            }
        }
        Shape::Compound(s) => {
            for part in s.parts() {
                draw_shape(draw, part, role, convex_parts);
            }
        }
    }
}
