//! Pictures of hitboxes: a scene or a collision world drawn as a standalone SVG document,
//! streamed to a writer.
//!
//! What is drawn, and in which order, is the library's [`CollisionWorld::debug_draw`]: the SVG is
//! one more [`DebugDraw`](collide2d::debug_draw::DebugDraw) drawer (`render/drawer.rs`). Every
//! object is drawn with its true outline (circles and capsule ends as arcs, polygons with their
//! vertices, compounds part by part). Objects in at least one colliding pair are red, the others
//! blue; each contact point is a dark dot and each contact normal an arrow from that point,
//! pointing from the pair's `a` towards its `b`. Named objects are drawn above the crowd of unnamed
//! ones (bullets, tiles), which is merged into a few paths and drawn lighter the larger it is.
//! Labels sit where they cover no other label, arrow or contact point, and no named shape when a
//! place can be found (`render/labels.rs`), with a leader line when they had to move away; their
//! font grows with the picture. With [`Options::debug`] the bounding boxes and the convex parts of
//! concave polygons are drawn dashed, and beneath everything the world's broad phase, faintly. A
//! legend and a scale bar sit below the drawing.
//!
//! Axes: world units, drawn with the y axis pointing **up** (mathematical convention) unless
//! [`Options::y_down`] asks for screen convention. Only the coordinates are flipped, never the
//! text. The view is the union of the objects' bounding boxes plus a margin, scaled to
//! [`Options::width`] pixels; the document has a `viewBox` and a width and height of 100%, so
//! it scales to any window without scroll bars.
//!
//! The SVG is meant to be read by tools as well as people: each named object is a `<g>` with
//! `class="object"` (plus `hit` when it collides), `data-id` and `data-kind`; the crowd is
//! `<g class="crowd">` (or `crowd hit`) with `data-count`; contact points are `<circle
//! class="contact-point">` and normals `<line class="normal">` with `data-a`/`data-b` naming
//! the pair (a handle such as `3v0` for an unnamed object); labels are the `<text>` of `<g
//! class="labels">`. The broad phase is `<g class="broad">`: `<rect class="cell">` with
//! `data-x`, `data-y`, `data-objects`; `<rect class="large">`, `<rect class="node">` and
//! `<rect class="leaf">` with `data-id` (leaves and large objects), `data-tree` and
//! `data-depth` (nodes and leaves). Output depends only on the input: same scene, same bytes.
//! Memory beyond the world is bounded: the document is written as it is drawn.

mod drawer;
mod labels;
mod legend;
mod panels;
mod style;
mod view;

use std::io::{self, Write};

use collide2d::debug_draw::DrawOptions;
use collide2d::{Aabb, BroadPhase, CollisionWorld, Handle};

use crate::pairs::scene_world;
use crate::scene::{parse_scene, Scene, SceneError};
use drawer::{SvgDraw, MAX_LABELS};
use legend::{Kinds, LEGEND_ROW, SCALE_BAND};
pub use panels::{panels_svg_to, Panel};
use view::{n, View};

/// How to draw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// Width of the document in pixels (the legend adds height below the drawing).
    pub width: f64,
    /// Draw the y axis pointing down (screen convention) instead of up.
    pub y_down: bool,
    /// Also draw bounding boxes, the convex parts of concave polygons and the broad phase.
    pub debug: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            width: 800.0,
            y_down: false,
            debug: false,
        }
    }
}

impl Options {
    /// What the library's walk draws for these options.
    fn draw_options(&self) -> DrawOptions {
        if self.debug {
            DrawOptions::debug()
        } else {
            DrawOptions::default()
        }
    }

    /// Which way the y axis points, for the legend.
    fn axis(&self) -> &'static str {
        if self.y_down {
            "y axis points down"
        } else {
            "y axis points up"
        }
    }

    /// The document's width, at least the margins and a pixel.
    fn page_width(&self) -> f64 {
        if self.width.is_finite() {
            self.width.max(2.0 * MARGIN + 1.0)
        } else {
            800.0
        }
    }
}

/// Margin around the drawing, in pixels.
pub(crate) const MARGIN: f64 = 24.0;

/// The labels' font size in a picture `width` pixels wide: larger pictures, larger text.
pub(crate) fn label_font(width: f64) -> f64 {
    (width / 75.0).clamp(11.0, 20.0)
}

/// The document's start: a `viewBox` of `width` by `height` that scales to its container, the
/// arrowhead and a white background.
pub(crate) fn header(out: &mut impl Write, width: f64, height: f64) -> io::Result<()> {
    let (w, h) = (n(width), n(height));
    writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="100%" height="100%" preserveAspectRatio="xMidYMid meet" data-width="{w}" data-height="{h}" font-family="DejaVu Sans, Verdana, sans-serif" font-size="12">"#
    )?;
    writeln!(
        out,
        r#"<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="{}"/></marker></defs>"#,
        style::hex(collide2d::debug_draw::INK)
    )?;
    writeln!(
        out,
        r#"<rect class="background" x="0" y="0" width="{w}" height="{h}" fill="white"/>"#
    )
}

/// What a picture needs to know before drawing: the world's extent, how many objects are
/// named, whether there is a crowd, and (with `debug`) the broad phase's kinds of box.
pub(crate) struct Survey {
    pub bounds: Option<Aabb>,
    pub named: usize,
    pub crowd: bool,
    pub kinds: Kinds,
}

impl Survey {
    pub fn of<T, S: AsRef<str>>(
        world: &CollisionWorld<T>,
        name: &impl Fn(Handle, &T) -> Option<S>,
        debug: bool,
    ) -> Survey {
        let mut survey = Survey {
            bounds: None,
            named: 0,
            crowd: false,
            kinds: Kinds::default(),
        };
        let mut grow = |b: Aabb| {
            survey.bounds = Some(survey.bounds.map_or(b, |u: Aabb| u.union(&b)));
        };
        for (handle, shape, data) in world.iter() {
            grow(shape.aabb());
            if name(handle, data).is_some() {
                survey.named += 1;
            } else {
                survey.crowd = true;
            }
        }
        if debug {
            for b in world.broad_phase_boxes() {
                grow(b.aabb);
                survey.kinds.add(b.kind);
            }
        }
        survey
    }
}

/// Writes the picture of `world` as of its last update to `out`: the drawing of
/// [`CollisionWorld::debug_draw`] (pairs highlighted with their contacts, computed when the
/// world's contacts are off; with [`Options::debug`] its bounding boxes and broad phase), then
/// the legend and the scale bar. `name(handle, data)` gives an object's `data-id` and label,
/// or `None` to leave it in the crowd.
///
/// # Errors
/// The first error writing to `out`.
pub fn world_svg_to<T, S: AsRef<str>>(
    world: &CollisionWorld<T>,
    name: impl Fn(Handle, &T) -> Option<S>,
    options: &Options,
    out: &mut impl Write,
) -> io::Result<()> {
    let survey = Survey::of(world, &name, options.debug);
    let width = options.page_width();
    let inner = width - 2.0 * MARGIN;
    let view = View::fit(survey.bounds, MARGIN, MARGIN, inner, None, options.y_down);
    let samples = legend::samples(survey.crowd, options.debug, survey.kinds);
    let rows = legend::rows(&samples, MARGIN, width - MARGIN);
    let legend_top = MARGIN + view.area.h + 8.0;
    let height = legend_top + rows * LEGEND_ROW + SCALE_BAND + MARGIN / 2.0;
    header(out, width, height)?;
    writeln!(
        out,
        r##"<rect class="frame" x="{m}" y="{m}" width="{}" height="{}" fill="none" stroke="#e5e7eb"/>"##,
        n(inner),
        n(view.area.h),
        m = n(MARGIN),
    )?;
    let mut draw = SvgDraw::new(out, view, label_font(width), survey.named <= MAX_LABELS);
    world.debug_draw(&mut draw, &options.draw_options(), name);
    let unplaced = draw.finish()?;
    if unplaced > 0 {
        writeln!(out, "<desc class=\"unplaced\">{unplaced} labels found no free place and are not drawn</desc>")?;
    }
    let mut tail = String::new();
    legend::legend(&mut tail, &samples, MARGIN, width - MARGIN, legend_top);
    let axis = options.axis();
    legend::scale_bar(
        &mut tail,
        &view,
        MARGIN,
        width - MARGIN,
        legend_top + rows * LEGEND_ROW,
        axis,
    );
    tail.push_str("</svg>\n");
    out.write_all(tail.as_bytes())
}

/// [`world_svg_to`] into a string.
#[must_use]
pub fn world_svg<T, S: AsRef<str>>(
    world: &CollisionWorld<T>,
    name: impl Fn(Handle, &T) -> Option<S>,
    options: &Options,
) -> String {
    let mut out = Vec::new();
    // Writing to a Vec cannot fail.
    let _ = world_svg_to(world, name, options, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// A scene file loaded into a world, ready to draw: `collide2d render`.
pub struct ScenePicture {
    scene: Scene,
    world: CollisionWorld<usize>,
}

impl ScenePicture {
    /// Loads a scene file's text into a [`CollisionWorld`] with the given broad phase
    /// ([`scene_world`]) and finds its pairs, with contacts.
    ///
    /// # Errors
    /// The scene's load error ([`parse_scene`]), naming the object; the same for a shape the
    /// world refuses (a bounding box that is not finite).
    pub fn load(text: &str, broad: BroadPhase) -> Result<ScenePicture, SceneError> {
        let scene = parse_scene(text)?;
        let world = scene_world(&scene, broad, true).map_err(SceneError)?;
        Ok(ScenePicture { scene, world })
    }

    /// Writes the picture to `out`, every object named and labelled by its id
    /// ([`world_svg_to`]).
    ///
    /// # Errors
    /// The first error writing to `out`.
    pub fn write_svg(&self, options: &Options, out: &mut impl Write) -> io::Result<()> {
        let ids = |_, &index: &usize| self.scene.objects.get(index).map(|o| o.id.as_str());
        world_svg_to(&self.world, ids, options, out)
    }
}

/// The picture of a scene file's text as a string ([`ScenePicture`]).
///
/// ```
/// use collide2d::BroadPhase;
/// use collide2d_cli::render::{render_scene, Options};
/// let svg = render_scene(r#"{"objects": [
///     {"id": "wall", "shape": {"type": "rect", "x": 0, "y": 0, "w": 4, "h": 4}},
///     {"id": "ball", "shape": {"type": "circle", "center": [5, 2], "radius": 2}}
/// ]}"#, BroadPhase::default(), &Options::default())?;
/// assert!(svg.contains(r#"class="object hit" data-id="ball""#));
/// # Ok::<(), collide2d_cli::scene::SceneError>(())
/// ```
///
/// # Errors
/// As [`ScenePicture::load`].
pub fn render_scene(
    text: &str,
    broad: BroadPhase,
    options: &Options,
) -> Result<String, SceneError> {
    let picture = ScenePicture::load(text, broad)?;
    let mut out = Vec::new();
    // Writing to a Vec cannot fail.
    let _ = picture.write_svg(options, &mut out);
    Ok(String::from_utf8_lossy(&out).into_owned())
}

#[cfg(test)]
mod tests;
