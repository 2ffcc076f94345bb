//! Pictures of hitboxes: a scene or a collision world drawn as a standalone SVG document,
//! written by hand.
//!
//! Every object is drawn with its true outline (circles and capsule ends as arcs, polygons
//! with their vertices, compounds part by part). Objects in at least one colliding pair are
//! drawn in red, the others in blue; each contact point is a black dot and each contact
//! normal an arrow from that point, pointing from the pair's `a` towards its `b`. The pairs
//! are a [`CollisionWorld`]'s ([`world_svg`]). With [`Options::debug`] the bounding boxes and
//! the convex parts of concave polygons are drawn dashed, and beneath everything the world's
//! broad phase, faintly ([`CollisionWorld::broad_phase_boxes`]): the grid's cells holding
//! objects (darker for more objects) and its large objects, or the trees' nodes (fading with
//! depth) and leaves. A legend and a scale bar sit below the drawing.
//!
//! Axes: world units, drawn with the y axis pointing **up** (mathematical convention, so
//! counter-clockwise angles look counter-clockwise) unless [`Options::y_down`] asks for screen
//! convention. Only the coordinates are flipped, never the text. The view is the union of the
//! objects' bounding boxes plus a margin, scaled to [`Options::width`] pixels.
//!
//! The SVG is meant to be read by tools as well as people: each object is a `<g>` with
//! `class="object"` (plus `hit` when it collides), `data-id` and `data-kind`; contact points
//! are `<circle class="contact-point">` and normals `<line class="normal">` with
//! `data-a`/`data-b` naming the pair. The broad phase is `<g class="broad">`: `<rect
//! class="cell">` with `data-x`, `data-y`, `data-objects`; `<rect class="large">`, `<rect
//! class="node">` and `<rect class="leaf">` with `data-id` (leaves and large objects),
//! `data-tree` and `data-depth` (nodes and leaves). Output depends only on the input: same
//! scene, same bytes.

use std::borrow::Cow;
use std::fmt::Write as _;

use collide2d::math::Vec2;
use collide2d::{Aabb, BroadBox, BroadBoxKind, BroadPhase, CollisionWorld, Contact, Handle, Shape};

use crate::pairs::scene_world;
use crate::scene::{parse_scene, SceneError};

/// One object to draw.
#[derive(Clone, Copy, Debug)]
pub struct Object<'a> {
    /// Its name, in `data-id` and its tooltip.
    pub id: &'a str,
    /// Text written above its top left corner, if any (scenes use the id).
    pub label: Option<&'a str>,
    /// Its shape, in world coordinates.
    pub shape: &'a Shape,
}

/// A colliding pair: indices into the object list, and their contact (normal from `a` to `b`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit {
    /// Index of the first object.
    pub a: usize,
    /// Index of the second object.
    pub b: usize,
    /// Their contact.
    pub contact: Contact,
}

/// How to draw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// Width of the drawing area in pixels (the legend adds height below it).
    pub width: f64,
    /// Draw the y axis pointing down (screen convention) instead of up.
    pub y_down: bool,
    /// Also draw bounding boxes, the convex parts of concave polygons and the broad phase
    /// passed to [`svg`].
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

/// The picture of a scene file's text: `collide2d render`. The pairs are those of a
/// [`CollisionWorld`] with the given broad phase ([`scene_world`]), whose structure
/// [`Options::debug`] draws.
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
/// The scene's load error ([`parse_scene`]), naming the object; the same for a shape the world
/// refuses (a bounding box that is not finite).
pub fn render_scene(
    text: &str,
    broad: BroadPhase,
    options: &Options,
) -> Result<String, SceneError> {
    let scene = parse_scene(text)?;
    let world = scene_world(&scene, broad, true).map_err(SceneError)?;
    Ok(world_svg(
        &world,
        |_, &index| {
            let id = scene.objects[index].id.clone();
            (id, true)
        },
        options,
    ))
}

/// The picture of `world` as of its last update: every object in handle order, its pairs
/// highlighted with their contacts (computed here when the world's contacts are off), and with
/// [`Options::debug`] its broad phase. `name(handle, data)` gives an object's `data-id` and
/// whether to also write it as a label.
pub fn world_svg<T>(
    world: &CollisionWorld<T>,
    name: impl Fn(Handle, &T) -> (String, bool),
    options: &Options,
) -> String {
    let bodies: Vec<(Handle, Cow<'_, Shape>, String, bool)> = world
        .iter()
        .map(|(handle, shape, data)| {
            let (id, labelled) = name(handle, data);
            (handle, shape, id, labelled)
        })
        .collect();
    let index = |h: Handle| bodies.binary_search_by_key(&h, |b| b.0).ok();
    let hits: Vec<Hit> = world
        .pairs()
        .iter()
        .enumerate()
        .filter_map(|(i, pair)| {
            let (a, b) = (index(pair.a)?, index(pair.b)?);
            let contact = world
                .contacts()
                .get(i)
                .copied()
                .or_else(|| collide2d::contact(&bodies[a].1, &bodies[b].1))?;
            Some(Hit { a, b, contact })
        })
        .collect();
    let objects: Vec<Object<'_>> = bodies
        .iter()
        .map(|(_, shape, id, labelled)| Object {
            id,
            label: labelled.then_some(id.as_str()),
            shape,
        })
        .collect();
    let broad = if options.debug {
        world.broad_phase_boxes()
    } else {
        Vec::new()
    };
    let ids = |h: Handle| index(h).map_or_else(|| h.to_string(), |i| bodies[i].2.clone());
    let broad: Vec<(BroadBox, Option<String>)> = broad
        .into_iter()
        .map(|b| {
            let id = match b.kind {
                BroadBoxKind::Large { object } | BroadBoxKind::Leaf { object, .. } => {
                    Some(ids(object))
                }
                _ => None,
            };
            (b, id)
        })
        .collect();
    svg(&objects, &hits, &broad, options)
}

const BLUE: &str = "#2563eb";
const RED: &str = "#dc2626";
const GREY: &str = "#6b7280";
/// The broad phase: grid cells and tree nodes.
const GREEN: &str = "#059669";
const PURPLE: &str = "#7c3aed";
const MARGIN: f64 = 24.0;
const LEGEND_HEIGHT: f64 = 64.0;
/// Height of each further row of legend samples.
const LEGEND_ROW: f64 = 22.0;
/// Screen length of a normal arrow, whatever the depth.
const ARROW: f64 = 28.0;
/// Objects are labelled only up to this many (beyond, labels hide the picture).
const MAX_LABELS: usize = 200;

/// World to screen: a uniform scale, a translation and an optional flip of y.
struct View {
    min: (f64, f64),
    max_y: f64,
    scale: f64,
    y_down: bool,
}

impl View {
    fn fit(bounds: Option<Aabb>, options: &Options) -> (View, f64) {
        let (min, max) = bounds.map_or(((0.0, 0.0), (1.0, 1.0)), |b| {
            let (min, max) = (b.min(), b.max());
            (
                (f64::from(min.x), f64::from(min.y)),
                (f64::from(max.x), f64::from(max.y)),
            )
        });
        // A point or a line still gets an area: at least one unit, or 1/10 of the other side.
        let extent = (max.0 - min.0).max(max.1 - min.1);
        let extent = if extent > 0.0 { extent } else { 1.0 };
        // Each side at least a tenth of the other, the view at most 1.5 times taller than wide,
        // 5% margins.
        let pad = |lo: f64, hi: f64, at_least: f64| {
            let grow = ((at_least).max(hi - lo) - (hi - lo)) / 2.0 + extent * 0.05;
            (lo - grow, hi + grow)
        };
        let (y0, y1) = pad(min.1, max.1, extent * 0.1);
        let (x0, x1) = pad(min.0, max.0, (max.1 - min.1) / 1.5);
        let inner = (options.width - 2.0 * MARGIN).max(1.0);
        let scale = inner / (x1 - x0);
        let view = View {
            min: (x0, y0),
            max_y: y1,
            scale,
            y_down: options.y_down,
        };
        (view, (y1 - y0) * scale)
    }

    fn point(&self, p: Vec2) -> (f64, f64) {
        let x = (f64::from(p.x) - self.min.0) * self.scale + MARGIN;
        let y = if self.y_down {
            f64::from(p.y) - self.min.1
        } else {
            self.max_y - f64::from(p.y)
        };
        (x, y * self.scale + MARGIN)
    }

    /// A world direction on screen (unit length in, unit length out).
    fn direction(&self, d: Vec2) -> (f64, f64) {
        let y = f64::from(d.y);
        (f64::from(d.x), if self.y_down { y } else { -y })
    }

    fn length(&self, l: f32) -> f64 {
        f64::from(l) * self.scale
    }
}

/// A number for an attribute: at most two decimals, no trailing zeros.
fn n(x: f64) -> String {
    let s = format!("{x:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// The outline of one shape as SVG elements (no style: the enclosing group has it).
fn outline(out: &mut String, view: &View, shape: &Shape, debug: bool) {
    let points = |points: &[Vec2]| {
        points
            .iter()
            .map(|&p| {
                let (x, y) = view.point(p);
                format!("{},{}", n(x), n(y))
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    // Writing to a String cannot fail.
    let _ = match shape {
        Shape::Point(s) => {
            let (x, y) = view.point(s.p());
            writeln!(out, r#"<circle cx="{}" cy="{}" r="3"/>"#, n(x), n(y))
        }
        Shape::Segment(s) => {
            let ((x1, y1), (x2, y2)) = (view.point(s.a()), view.point(s.b()));
            writeln!(
                out,
                r#"<line x1="{}" y1="{}" x2="{}" y2="{}"/>"#,
                n(x1),
                n(y1),
                n(x2),
                n(y2)
            )
        }
        Shape::Circle(s) => {
            let (x, y) = view.point(s.center());
            let r = view.length(s.radius());
            writeln!(out, r#"<circle cx="{}" cy="{}" r="{}"/>"#, n(x), n(y), n(r))
        }
        Shape::Aabb(s) => writeln!(out, r#"<polygon points="{}"/>"#, points(&s.corners())),
        Shape::Obb(s) => writeln!(out, r#"<polygon points="{}"/>"#, points(&s.corners())),
        Shape::Capsule(s) => capsule(out, view, s.a(), s.b(), s.radius()),
        Shape::ConvexPolygon(s) => writeln!(out, r#"<polygon points="{}"/>"#, points(s.points())),
        Shape::Polygon(s) => {
            let _ = writeln!(out, r#"<polygon points="{}"/>"#, points(s.points()));
            if debug && !s.is_convex() {
                for part in s.parts() {
                    let _ = writeln!(
                        out,
                        r#"<polygon class="part" points="{}" fill="none" stroke-dasharray="3 3" stroke-width="0.75"/>"#,
                        points(part.points())
                    );
                }
            }
            Ok(())
        }
        Shape::Compound(s) => {
            for part in s.parts() {
                outline(out, view, part, debug);
            }
            Ok(())
        }
    };
}

/// A capsule: two straight sides and two half circles (a circle when `a == b`).
fn capsule(out: &mut String, view: &View, a: Vec2, b: Vec2, radius: f32) -> std::fmt::Result {
    let ((ax, ay), (bx, by)) = (view.point(a), view.point(b));
    let r = view.length(radius);
    let len = (bx - ax).hypot(by - ay);
    if len == 0.0 || !len.is_finite() {
        return writeln!(
            out,
            r#"<circle cx="{}" cy="{}" r="{}"/>"#,
            n(ax),
            n(ay),
            n(r)
        );
    }
    // Side offset on screen; both arcs turn with decreasing screen angle (sweep flag 0).
    let (nx, ny) = (-(by - ay) / len * r, (bx - ax) / len * r);
    writeln!(
        out,
        r#"<path d="M {} {} L {} {} A {r} {r} 0 0 0 {} {} L {} {} A {r} {r} 0 0 0 {} {} Z"/>"#,
        n(ax + nx),
        n(ay + ny),
        n(bx + nx),
        n(by + ny),
        n(bx - nx),
        n(by - ny),
        n(ax - nx),
        n(ay - ny),
        n(ax + nx),
        n(ay + ny),
        r = n(r),
    )
}

/// A round length for the scale bar: 1, 2 or 5 times a power of ten, near `target`.
fn nice_length(target: f64) -> f64 {
    if !(target.is_finite() && target > 0.0) {
        return 1.0;
    }
    let power = 10f64.powf(target.log10().floor());
    let m = target / power;
    let step = if m >= 5.0 {
        5.0
    } else if m >= 2.0 {
        2.0
    } else {
        1.0
    };
    step * power
}

/// A length for the scale bar's label: as short as its value allows.
fn label_number(x: f64) -> String {
    if (1e-3..1e6).contains(&x) {
        let s = format!("{x:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        format!("{x:e}")
    }
}

/// The `x`, `y`, `width` and `height` attributes of a world box on screen.
fn rect(view: &View, b: &Aabb) -> String {
    let ((x0, y0), (x1, y1)) = (view.point(b.min()), view.point(b.max()));
    format!(
        r#"x="{}" y="{}" width="{}" height="{}""#,
        n(x0.min(x1)),
        n(y0.min(y1)),
        n((x1 - x0).abs()),
        n((y1 - y0).abs())
    )
}

/// The broad phase, beneath everything else: cells shaded by how many objects they hold, tree
/// nodes fading with depth, leaves (fat boxes) dotted.
fn broad_phase(out: &mut String, view: &View, broad: &[(BroadBox, Option<String>)]) {
    let _ = writeln!(out, r#"<g class="broad" stroke-width="0.75">"#);
    for (b, id) in broad {
        let r = rect(view, &b.aabb);
        let id = id.as_deref().map(escape).unwrap_or_default();
        let _ = match b.kind {
            BroadBoxKind::Cell { x, y, objects } => writeln!(
                out,
                r#"<rect class="cell" data-x="{x}" data-y="{y}" data-objects="{objects}" {r} fill="{GREEN}" fill-opacity="{}" stroke="{GREEN}" stroke-opacity="0.35"/>"#,
                n(cell_opacity(objects)),
            ),
            BroadBoxKind::Large { .. } => writeln!(
                out,
                r#"<rect class="large" data-id="{id}" {r} fill="{GREEN}" fill-opacity="0.08" stroke="{GREEN}" stroke-width="1.5" stroke-dasharray="6 3"/>"#,
            ),
            BroadBoxKind::Node { tree, depth } => writeln!(
                out,
                r#"<rect class="node" data-tree="{tree}" data-depth="{depth}" {r} fill="none" stroke="{PURPLE}" stroke-opacity="{}"/>"#,
                n(node_opacity(depth)),
            ),
            BroadBoxKind::Leaf { tree, depth, .. } => writeln!(
                out,
                r#"<rect class="leaf" data-id="{id}" data-tree="{tree}" data-depth="{depth}" {r} fill="{PURPLE}" fill-opacity="0.04" stroke="{PURPLE}" stroke-opacity="0.6" stroke-dasharray="1 2"/>"#,
            ),
            _ => Ok(()),
        };
    }
    let _ = writeln!(out, "</g>");
}

/// A grid cell's fill: darker the more objects it holds, up to five.
fn cell_opacity(objects: u32) -> f64 {
    0.03 + 0.03 * f64::from(objects.min(5))
}

/// A tree node's stroke: the root strongest, fading by a fifth a level down to 0.1.
fn node_opacity(depth: u32) -> f64 {
    (0.7 * 0.8f64.powi(depth.min(64) as i32)).max(0.1)
}

/// The whole SVG document for `objects`, with `hits` highlighted and, with
/// [`Options::debug`], the boxes of a broad phase beneath (each with the `data-id` of the
/// object it names, for leaves and large objects; see [`world_svg`]).
///
/// `hits` index into `objects`; an index out of range is ignored.
#[must_use]
pub fn svg(
    objects: &[Object<'_>],
    hits: &[Hit],
    broad: &[(BroadBox, Option<String>)],
    options: &Options,
) -> String {
    let broad = if options.debug { broad } else { &[] };
    let bounds = objects
        .iter()
        .map(|o| o.shape.aabb())
        .chain(broad.iter().map(|(b, _)| b.aabb))
        .reduce(|a, b| a.union(&b));
    let (view, drawing_height) = View::fit(bounds, options);
    let width = options.width.max(2.0 * MARGIN + 1.0);
    let samples = legend_samples(options, broad);
    let rows = legend_layout(&samples, width).last().map_or(0.0, |p| p.1);
    let height = drawing_height + 2.0 * MARGIN + LEGEND_HEIGHT + rows * LEGEND_ROW;
    let mut hit = vec![false; objects.len()];
    for h in hits {
        for i in [h.a, h.b] {
            if let Some(flag) = hit.get_mut(i) {
                *flag = true;
            }
        }
    }

    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#,
        w = n(width),
        h = n(height),
    );
    let _ = writeln!(
        out,
        r#"<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="black"/></marker></defs>"#
    );
    let _ = writeln!(
        out,
        r#"<rect class="background" x="0" y="0" width="{}" height="{}" fill="white"/>"#,
        n(width),
        n(height)
    );
    let _ = writeln!(
        out,
        r##"<rect class="frame" x="{m}" y="{m}" width="{}" height="{}" fill="none" stroke="#e5e7eb"/>"##,
        n(width - 2.0 * MARGIN),
        n(drawing_height),
        m = n(MARGIN),
    );

    if !broad.is_empty() {
        broad_phase(&mut out, &view, broad);
    }
    if options.debug {
        let _ = writeln!(
            out,
            r#"<g class="aabbs" fill="none" stroke="{GREY}" stroke-width="0.75" stroke-dasharray="4 3">"#
        );
        for o in objects {
            let _ = writeln!(
                out,
                r#"<rect class="aabb" data-id="{}" {}/>"#,
                escape(o.id),
                rect(&view, &o.shape.aabb())
            );
        }
        let _ = writeln!(out, "</g>");
    }

    for (o, &is_hit) in objects.iter().zip(&hit) {
        let (class, colour) = if is_hit {
            ("object hit", RED)
        } else {
            ("object", BLUE)
        };
        let _ = writeln!(
            out,
            r#"<g class="{class}" data-id="{}" data-kind="{}" fill="{colour}" fill-opacity="0.2" stroke="{colour}" stroke-width="1.5">"#,
            escape(o.id),
            o.shape.kind().name(),
        );
        let _ = writeln!(
            out,
            "<title>{} ({})</title>",
            escape(o.id),
            o.shape.kind().name()
        );
        outline(&mut out, &view, o.shape, options.debug);
        let _ = writeln!(out, "</g>");
    }

    if objects.len() <= MAX_LABELS {
        let _ = writeln!(out, r##"<g class="labels" fill="#111827" font-size="11">"##);
        for o in objects {
            let Some(label) = o.label else { continue };
            let b = o.shape.aabb();
            let top_left = Vec2::new(
                b.min().x,
                if options.y_down { b.min().y } else { b.max().y },
            );
            let (x, y) = view.point(top_left);
            let _ = writeln!(
                out,
                r#"<text x="{}" y="{}">{}</text>"#,
                n(x),
                n(y - 3.0),
                escape(label)
            );
        }
        let _ = writeln!(out, "</g>");
    }

    let _ = writeln!(out, r#"<g class="contacts">"#);
    for h in hits {
        let (Some(a), Some(b)) = (objects.get(h.a), objects.get(h.b)) else {
            continue;
        };
        let (dx, dy) = view.direction(h.contact.normal);
        for &p in h.contact.points.iter() {
            let (x, y) = view.point(p);
            let _ = writeln!(
                out,
                r#"<line class="normal" data-a="{ia}" data-b="{ib}" x1="{}" y1="{}" x2="{}" y2="{}" stroke="black" stroke-width="1.5" marker-end="url(#arrow)"><title>{ia} → {ib}: normal ({}, {}), depth {}</title></line>"#,
                n(x),
                n(y),
                n(x + dx * ARROW),
                n(y + dy * ARROW),
                h.contact.normal.x,
                h.contact.normal.y,
                h.contact.depth,
                ia = escape(a.id),
                ib = escape(b.id),
            );
            let _ = writeln!(
                out,
                r#"<circle class="contact-point" data-a="{}" data-b="{}" cx="{}" cy="{}" r="3" fill="black"/>"#,
                escape(a.id),
                escape(b.id),
                n(x),
                n(y)
            );
        }
    }
    let _ = writeln!(out, "</g>");

    legend(
        &mut out,
        &view,
        width,
        drawing_height + 2.0 * MARGIN,
        &samples,
        options,
    );
    let _ = writeln!(out, "</svg>");
    out
}

/// A legend entry: what its picture shows, and its text.
type Sample = (Swatch, &'static str);

/// The picture of a legend entry.
#[derive(Clone, Copy, Debug)]
enum Swatch {
    Fill(&'static str),
    Dot,
    Arrow,
    Dashed(&'static str, &'static str),
    Cell,
    Large,
}

/// The legend's entries: the debug ones only with [`Options::debug`], each kind of broad-phase
/// box only when there is one.
fn legend_samples(options: &Options, broad: &[(BroadBox, Option<String>)]) -> Vec<Sample> {
    let mut samples = vec![
        (Swatch::Fill(BLUE), "object"),
        (Swatch::Fill(RED), "colliding"),
        (Swatch::Dot, "contact point"),
        (Swatch::Arrow, "normal, a → b"),
    ];
    if !options.debug {
        return samples;
    }
    samples.push((Swatch::Dashed(GREY, "4 3"), "bounding box"));
    let has = |f: fn(&BroadBoxKind) -> bool| broad.iter().any(|(b, _)| f(&b.kind));
    if has(|k| matches!(k, BroadBoxKind::Cell { .. })) {
        samples.push((Swatch::Cell, "grid cell of min corners (darker: more)"));
    }
    if has(|k| matches!(k, BroadBoxKind::Large { .. })) {
        samples.push((Swatch::Large, "too large for a cell"));
    }
    if has(|k| matches!(k, BroadBoxKind::Node { .. })) {
        samples.push((
            Swatch::Dashed(PURPLE, "none"),
            "tree node (fainter: deeper)",
        ));
    }
    if has(|k| matches!(k, BroadBoxKind::Leaf { .. })) {
        samples.push((Swatch::Dashed(PURPLE, "1 2"), "tree leaf (fat box)"));
    }
    samples
}

/// Where each legend entry goes: `(x, row)`, a new row whenever one would run past the right
/// margin.
fn legend_layout(samples: &[Sample], width: f64) -> Vec<(f64, f64)> {
    let mut at = Vec::with_capacity(samples.len());
    let (mut x, mut row) = (MARGIN, 0.0);
    for (_, label) in samples {
        let advance = 22.0 + 7.0 * label.chars().count() as f64;
        if x > MARGIN && x + advance > width - MARGIN {
            (x, row) = (MARGIN, row + 1.0);
        }
        at.push((x, row));
        x += advance + 16.0;
    }
    at
}

/// The legend (rows of samples) and the scale bar (below them), from the top `y`.
fn legend(
    out: &mut String,
    view: &View,
    width: f64,
    y: f64,
    samples: &[Sample],
    options: &Options,
) {
    let _ = writeln!(out, r#"<g class="legend">"#);
    let layout = legend_layout(samples, width);
    for (&(swatch, label), &(x, row)) in samples.iter().zip(&layout) {
        let top = y + 8.0 + row * LEGEND_ROW;
        let _ = match swatch {
            Swatch::Fill(colour) => writeln!(
                out,
                r#"<rect x="{}" y="{}" width="16" height="12" fill="{colour}" fill-opacity="0.2" stroke="{colour}" stroke-width="1.5"/>"#,
                n(x),
                n(top)
            ),
            Swatch::Dot => writeln!(
                out,
                r#"<circle cx="{}" cy="{}" r="3" fill="black"/>"#,
                n(x + 8.0),
                n(top + 6.0)
            ),
            Swatch::Arrow => writeln!(
                out,
                r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="black" stroke-width="1.5" marker-end="url(#arrow)"/>"#,
                n(x),
                n(top + 6.0),
                n(x + 16.0),
                n(top + 6.0)
            ),
            Swatch::Dashed(colour, dashes) => writeln!(
                out,
                r#"<rect x="{}" y="{}" width="16" height="12" fill="none" stroke="{colour}" stroke-dasharray="{dashes}"/>"#,
                n(x),
                n(top)
            ),
            Swatch::Large => writeln!(
                out,
                r#"<rect x="{}" y="{}" width="16" height="12" fill="{GREEN}" fill-opacity="0.08" stroke="{GREEN}" stroke-width="1.5" stroke-dasharray="6 3"/>"#,
                n(x),
                n(top)
            ),
            Swatch::Cell => writeln!(
                out,
                r#"<rect x="{}" y="{}" width="16" height="12" fill="{GREEN}" fill-opacity="{}" stroke="{GREEN}" stroke-opacity="0.35"/>"#,
                n(x),
                n(top),
                n(cell_opacity(2))
            ),
        };
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}">{label}</text>"#,
            n(x + 22.0),
            n(top + 10.0)
        );
    }
    let rows = layout.last().map_or(0.0, |p| p.1);
    let row = y + 8.0 + rows * LEGEND_ROW;

    // Scale bar: a round world length about a fifth of the drawing's width.
    let target = (width - 2.0 * MARGIN) / 5.0 / view.scale;
    let length = nice_length(target);
    let pixels = length * view.scale;
    let bar_y = row + 34.0;
    let _ = writeln!(
        out,
        r#"<g class="scale" data-length="{}"><path d="M {x0} {t} L {x0} {b} L {x1} {b} L {x1} {t}" fill="none" stroke="black" stroke-width="1.5"/><text x="{}" y="{}">{} units</text></g>"#,
        label_number(length),
        n(MARGIN + pixels + 8.0),
        n(bar_y + 4.0),
        label_number(length),
        x0 = n(MARGIN),
        x1 = n(MARGIN + pixels),
        t = n(bar_y - 5.0),
        b = n(bar_y),
    );
    let axis = if options.y_down {
        "y axis points down"
    } else {
        "y axis points up"
    };
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" text-anchor="end" fill="{GREY}">{axis}</text>"#,
        n(width - MARGIN),
        n(bar_y + 4.0)
    );
    let _ = writeln!(out, "</g>");
}

#[cfg(test)]
mod tests {
    use super::*;
    use collide2d::{Aabb, Capsule, Circle, Compound, Obb, Point, Polygon, Segment};

    fn v(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    /// One object of every kind, laid out on a row; the box and the circle overlap.
    fn zoo() -> Vec<(&'static str, Shape)> {
        let l = [
            v(30., 0.),
            v(34., 0.),
            v(34., 1.),
            v(31., 1.),
            v(31., 4.),
            v(30., 4.),
        ];
        vec![
            ("box", Aabb::new(v(0., 0.), v(4., 4.)).unwrap().into()),
            ("ball", Circle::new(v(5., 2.), 2.).unwrap().into()),
            ("dot", Point::new(v(10., 1.)).unwrap().into()),
            ("line", Segment::new(v(12., 0.), v(14., 4.)).unwrap().into()),
            (
                "crate",
                Obb::new(v(18., 2.), v(2., 1.), 0.5).unwrap().into(),
            ),
            (
                "pill",
                Capsule::new(v(22., 1.), v(26., 3.), 1.).unwrap().into(),
            ),
            ("ell", Polygon::new(&l).unwrap().into()),
            (
                "hitbox",
                Compound::new(vec![
                    Aabb::new(v(40., 0.), v(42., 4.)).unwrap().into(),
                    Circle::new(v(41., 5.), 1.).unwrap().into(),
                ])
                .unwrap()
                .into(),
            ),
        ]
    }

    /// The shapes in a world (tree broad phase, contacts on), drawn; and the world's pairs.
    fn draw(shapes: &[(&'static str, Shape)], options: &Options) -> (String, Vec<Hit>) {
        draw_with(shapes, BroadPhase::default(), options)
    }

    fn draw_with(
        shapes: &[(&'static str, Shape)],
        broad: BroadPhase,
        options: &Options,
    ) -> (String, Vec<Hit>) {
        let mut world = CollisionWorld::new(broad);
        world.set_contacts(true);
        for &(id, ref shape) in shapes {
            world
                .insert(
                    shape.clone(),
                    collide2d::Filter::DEFAULT,
                    collide2d::ObjectKind::Dynamic,
                    id,
                )
                .unwrap();
        }
        world.update();
        let hits = world
            .pairs()
            .iter()
            .zip(world.contacts())
            .map(|(p, &contact)| Hit {
                a: p.a.index() as usize,
                b: p.b.index() as usize,
                contact,
            })
            .collect();
        let text = world_svg(&world, |_, id| (id.to_string(), true), options);
        (text, hits)
    }

    #[test]
    fn every_kind_is_drawn_once_and_only_colliding_objects_are_red() {
        let shapes = zoo();
        let (text, hits) = draw(&shapes, &Options::default());
        assert_eq!(hits.len(), 1);
        assert_eq!((hits[0].a, hits[0].b), (0, 1));
        let doc = roxmltree::Document::parse(&text).unwrap();
        let objects: Vec<_> = doc
            .descendants()
            .filter(|e| {
                e.attribute("class")
                    .is_some_and(|c| c.starts_with("object"))
            })
            .collect();
        let drawn: Vec<_> = objects
            .iter()
            .map(|e| {
                (
                    e.attribute("data-id").unwrap(),
                    e.attribute("data-kind").unwrap(),
                )
            })
            .collect();
        assert_eq!(
            drawn,
            [
                ("box", "aabb"),
                ("ball", "circle"),
                ("dot", "point"),
                ("line", "segment"),
                ("crate", "obb"),
                ("pill", "capsule"),
                ("ell", "polygon"),
                ("hitbox", "compound")
            ]
        );
        for e in &objects {
            let hit = matches!(e.attribute("data-id"), Some("box" | "ball"));
            assert_eq!(e.attribute("class") == Some("object hit"), hit);
            assert_eq!(e.attribute("stroke"), Some(if hit { RED } else { BLUE }));
        }
        let element = |id: &str| {
            let group = objects
                .iter()
                .find(|e| e.attribute("data-id") == Some(id))
                .unwrap();
            group
                .children()
                .filter(|c| c.is_element() && c.tag_name().name() != "title")
                .map(|c| c.tag_name().name())
                .collect::<Vec<_>>()
        };
        assert_eq!(element("ball"), ["circle"]);
        assert_eq!(element("crate"), ["polygon"]);
        assert_eq!(element("pill"), ["path"]);
        assert_eq!(element("hitbox"), ["polygon", "circle"]);
        // No debug drawing unless asked.
        assert!(!text.contains("class=\"aabb\""));
    }

    #[test]
    fn contact_points_and_normals_point_from_a_to_b() {
        let shapes = zoo();
        let (text, hits) = draw(&shapes, &Options::default());
        let doc = roxmltree::Document::parse(&text).unwrap();
        let normals: Vec<_> = doc
            .descendants()
            .filter(|e| e.attribute("class") == Some("normal"))
            .collect();
        assert_eq!(normals.len(), hits[0].contact.points.len());
        for line in normals {
            assert_eq!(line.attribute("data-a"), Some("box"));
            assert_eq!(line.attribute("data-b"), Some("ball"));
            let x = |name| line.attribute(name).unwrap().parse::<f64>().unwrap();
            // Box at the left, ball at the right: the normal points right on screen.
            assert!((x("x2") - x("x1") - ARROW).abs() < 0.01, "{text}");
            assert!((x("y2") - x("y1")).abs() < 0.01);
        }
        let dots = doc
            .descendants()
            .filter(|e| e.attribute("class") == Some("contact-point"))
            .count();
        assert_eq!(dots, hits[0].contact.points.len());
    }

    #[test]
    fn y_axis_points_up_unless_asked_otherwise() {
        let low: Shape = Circle::new(v(0., 0.), 1.).unwrap().into();
        let high: Shape = Circle::new(v(0., 10.), 1.).unwrap().into();
        let cy = |options: &Options| {
            let objects = [
                Object {
                    id: "low",
                    label: None,
                    shape: &low,
                },
                Object {
                    id: "high",
                    label: None,
                    shape: &high,
                },
            ];
            let text = svg(&objects, &[], &[], options);
            let doc = roxmltree::Document::parse(&text).unwrap();
            let centre = |id| {
                doc.descendants()
                    .find(|e| e.attribute("data-id") == Some(id))
                    .and_then(|g| g.children().find(|c| c.has_tag_name("circle")))
                    .and_then(|c| c.attribute("cy"))
                    .unwrap()
                    .parse::<f64>()
                    .unwrap()
            };
            (centre("low"), centre("high"))
        };
        let (low_up, high_up) = cy(&Options::default());
        assert!(
            high_up < low_up,
            "y up: the higher circle is nearer the top"
        );
        let (low_down, high_down) = cy(&Options {
            y_down: true,
            ..Options::default()
        });
        assert!(low_down < high_down);
    }

    #[test]
    fn debug_draws_a_bounding_box_per_object_and_concave_parts() {
        let shapes = zoo();
        let options = Options {
            debug: true,
            ..Options::default()
        };
        let (text, _) = draw(&shapes, &options);
        let doc = roxmltree::Document::parse(&text).unwrap();
        let boxes: Vec<_> = doc
            .descendants()
            .filter(|e| e.attribute("class") == Some("aabb"))
            .map(|e| e.attribute("data-id").unwrap())
            .collect();
        assert_eq!(boxes.len(), shapes.len());
        let parts = doc
            .descendants()
            .filter(|e| e.attribute("class") == Some("part"))
            .count();
        assert_eq!(parts, 2, "the L polygon is split in two convex parts");
        assert!(text.contains("bounding box"));
    }

    #[test]
    fn ids_are_escaped_and_an_empty_scene_is_still_a_picture() {
        let dot: Shape = Point::new(v(1., 1.)).unwrap().into();
        let text = svg(
            &[Object {
                id: "<a&b>\"",
                label: Some("<label>"),
                shape: &dot,
            }],
            &[],
            &[],
            &Options::default(),
        );
        let doc = roxmltree::Document::parse(&text).unwrap();
        assert!(doc
            .descendants()
            .any(|e| e.attribute("data-id") == Some("<a&b>\"")));
        assert!(doc.descendants().any(|e| e.text() == Some("<label>")));
        let empty = svg(&[], &[], &[], &Options::default());
        assert!(roxmltree::Document::parse(&empty).is_ok());
        assert!(empty.contains("units"));
    }

    /// `(class, data-depth)` of every box the broad phase drew, in document order.
    fn broad_boxes(text: &str) -> Vec<(String, Option<u32>)> {
        let doc = roxmltree::Document::parse(text).unwrap();
        doc.descendants()
            .filter(|e| {
                e.is_element()
                    && e.parent_element().and_then(|p| p.attribute("class")) == Some("broad")
            })
            .map(|e| {
                (
                    e.attribute("class").unwrap().to_string(),
                    e.attribute("data-depth").map(|d| d.parse().unwrap()),
                )
            })
            .collect()
    }

    #[test]
    fn debug_draws_the_tree_nodes_and_leaves_beneath_the_objects() {
        let shapes = zoo();
        let options = Options {
            debug: true,
            ..Options::default()
        };
        let (text, _) = draw(&shapes, &options);
        let boxes = broad_boxes(&text);
        // Eight leaves, seven inner nodes, the root first.
        let count = |class: &str| boxes.iter().filter(|b| b.0 == class).count();
        assert_eq!((count("leaf"), count("node")), (8, 7));
        assert_eq!(boxes[0], ("node".to_string(), Some(0)));
        assert!(text.find(r#"class="broad""#) < text.find(r#"class="object"#));
        assert!(
            text.contains(">tree node (fainter: deeper)<")
                && text.contains(">tree leaf (fat box)<")
        );
        assert!(!text.contains(">grid cell"));
        // Leaves name their objects.
        let doc = roxmltree::Document::parse(&text).unwrap();
        let mut leaves: Vec<_> = doc
            .descendants()
            .filter(|e| e.attribute("class") == Some("leaf"))
            .map(|e| e.attribute("data-id").unwrap())
            .collect();
        leaves.sort_unstable();
        let mut ids: Vec<_> = shapes.iter().map(|s| s.0).collect();
        ids.sort_unstable();
        assert_eq!(leaves, ids);
        // Without --debug, no broad phase.
        let (plain, _) = draw(&shapes, &Options::default());
        assert!(broad_boxes(&plain).is_empty() && !plain.contains("tree node"));
    }

    #[test]
    fn debug_draws_the_grid_cells_holding_objects_and_the_large_ones() {
        let shapes = zoo();
        let options = Options {
            debug: true,
            ..Options::default()
        };
        // 4-unit cells: an object fits when it spans at most two cells on each axis.
        let (text, hits) = draw_with(&shapes, BroadPhase::grid(4.0).unwrap(), &options);
        assert_eq!(hits.len(), 1, "the same pairs with any broad phase");
        let doc = roxmltree::Document::parse(&text).unwrap();
        let cells: Vec<(i32, i32, u32)> = doc
            .descendants()
            .filter(|e| e.attribute("class") == Some("cell"))
            .map(|e| {
                let a = |name| e.attribute(name).unwrap().parse::<i64>().unwrap();
                (
                    a("data-x") as i32,
                    a("data-y") as i32,
                    a("data-objects") as u32,
                )
            })
            .collect();
        let large: Vec<_> = doc
            .descendants()
            .filter(|e| e.attribute("class") == Some("large"))
            .map(|e| e.attribute("data-id").unwrap())
            .collect();
        // Each object in the cell of its min corner: box and ball (0, 0) and (3, 0), dot
        // (10, 1), line (12, 0), pill (21, 0), ell (30, 0), hitbox (40, 0) but a compound's box
        // is rounded outward, to just below 40. The crate, rotated, spans x 15.8 to 20.2:
        // three cells, so it is kept aside.
        assert_eq!(
            cells,
            [
                (0, 0, 2),
                (2, 0, 1),
                (3, 0, 1),
                (5, 0, 1),
                (7, 0, 1),
                (9, 0, 1)
            ]
        );
        assert_eq!(large, ["crate"]);
        assert!(text.contains(">grid cell of min corners (darker: more)<"));
        assert!(text.contains(">too large for a cell<") && !text.contains("tree node"));
    }

    #[test]
    fn scale_bar_lengths_are_round() {
        assert_eq!(nice_length(7.3), 5.0);
        assert_eq!(nice_length(0.031), 0.02);
        assert_eq!(nice_length(1.0), 1.0);
        assert_eq!(nice_length(0.0), 1.0);
        assert_eq!(label_number(0.02), "0.02");
        assert_eq!(label_number(5000.0), "5000");
        assert_eq!(n(-0.001), "0");
        assert_eq!(n(2.50), "2.5");
    }
}
