//! Pictures of hitboxes: a scene drawn as a standalone SVG document, written by hand.
//!
//! Every object is drawn with its true outline (circles and capsule ends as arcs, polygons
//! with their vertices, compounds part by part). Objects in at least one colliding pair are
//! drawn in red, the others in blue; each contact point is a black dot and each contact
//! normal an arrow from that point, pointing from the pair's `a` towards its `b`. With
//! [`Options::debug`] the bounding boxes (what a broad phase sees) and the convex parts of
//! concave polygons are drawn dashed. A legend and a scale bar sit below the drawing.
//!
//! Axes: world units, drawn with the y axis pointing **up** (mathematical convention, so
//! counter-clockwise angles look counter-clockwise) unless [`Options::y_down`] asks for screen
//! convention. Only the coordinates are flipped, never the text. The view is the union of the
//! objects' bounding boxes plus a margin, scaled to [`Options::width`] pixels.
//!
//! The SVG is meant to be read by tools as well as people: each object is a `<g>` with
//! `class="object"` (plus `hit` when it collides), `data-id` and `data-kind`; contact points
//! are `<circle class="contact-point">` and normals `<line class="normal">` with
//! `data-a`/`data-b` naming the pair. Output depends only on the input: same scene, same bytes.

use std::fmt::Write as _;

use collide2d::math::Vec2;
use collide2d::{Aabb, Contact, Shape};

use crate::scene::{parse_scene, Scene, SceneError};

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
    /// Also draw bounding boxes and the convex parts of concave polygons.
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

/// Every colliding pair of `objects` by brute force, in FORMAT.md's `pairs` order: `a` before
/// `b` in the list, sorted by (a, b). `may_collide(i, j)` is the layer and mask filter.
///
/// This is O(n²) tests; it is what the picture needs until the collision world's broad phase
/// can answer the same question, and it stays the reference the world is checked against.
#[must_use]
pub fn colliding_pairs(shapes: &[&Shape], may_collide: impl Fn(usize, usize) -> bool) -> Vec<Hit> {
    let mut hits = Vec::new();
    for (a, shape_a) in shapes.iter().enumerate() {
        let box_a = shape_a.aabb();
        for (b, shape_b) in shapes.iter().enumerate().skip(a + 1) {
            if !box_a.overlaps(&shape_b.aabb()) || !may_collide(a, b) {
                continue;
            }
            if let Some(contact) = collide2d::contact(shape_a, shape_b) {
                hits.push(Hit { a, b, contact });
            }
        }
    }
    hits
}

/// The colliding pairs of a loaded scene, its layers and masks applied (brute force; see
/// [`colliding_pairs`]).
#[must_use]
pub fn scene_pairs(scene: &Scene) -> Vec<Hit> {
    let shapes: Vec<&Shape> = scene.objects.iter().map(|o| &o.shape).collect();
    colliding_pairs(&shapes, |a, b| scene.objects[a].accepts(&scene.objects[b]))
}

/// The picture of a scene file's text: `collide2d render`.
///
/// ```
/// use collide2d_cli::render::{render_scene, Options};
/// let svg = render_scene(r#"{"objects": [
///     {"id": "wall", "shape": {"type": "rect", "x": 0, "y": 0, "w": 4, "h": 4}},
///     {"id": "ball", "shape": {"type": "circle", "center": [5, 2], "radius": 2}}
/// ]}"#, &Options::default())?;
/// assert!(svg.contains(r#"class="object hit" data-id="ball""#));
/// # Ok::<(), collide2d_cli::scene::SceneError>(())
/// ```
///
/// # Errors
/// The scene's load error ([`parse_scene`]), naming the object.
pub fn render_scene(text: &str, options: &Options) -> Result<String, SceneError> {
    let scene = parse_scene(text)?;
    let hits = scene_pairs(&scene);
    let objects: Vec<Object<'_>> = scene
        .objects
        .iter()
        .map(|o| Object {
            id: &o.id,
            label: Some(&o.id),
            shape: &o.shape,
        })
        .collect();
    Ok(svg(&objects, &hits, options))
}

const BLUE: &str = "#2563eb";
const RED: &str = "#dc2626";
const GREY: &str = "#6b7280";
const MARGIN: f64 = 24.0;
const LEGEND_HEIGHT: f64 = 64.0;
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

/// The whole SVG document for `objects`, with `hits` highlighted.
///
/// `hits` index into `objects`; an index out of range is ignored.
#[must_use]
pub fn svg(objects: &[Object<'_>], hits: &[Hit], options: &Options) -> String {
    let bounds = objects
        .iter()
        .map(|o| o.shape.aabb())
        .reduce(|a, b| a.union(&b));
    let (view, drawing_height) = View::fit(bounds, options);
    let width = options.width.max(2.0 * MARGIN + 1.0);
    let height = drawing_height + 2.0 * MARGIN + LEGEND_HEIGHT;
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

    if options.debug {
        let _ = writeln!(
            out,
            r#"<g class="aabbs" fill="none" stroke="{GREY}" stroke-width="0.75" stroke-dasharray="4 3">"#
        );
        for o in objects {
            let b = o.shape.aabb();
            let ((x0, y0), (x1, y1)) = (view.point(b.min()), view.point(b.max()));
            let _ = writeln!(
                out,
                r#"<rect class="aabb" data-id="{}" x="{}" y="{}" width="{}" height="{}"/>"#,
                escape(o.id),
                n(x0.min(x1)),
                n(y0.min(y1)),
                n((x1 - x0).abs()),
                n((y1 - y0).abs())
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
        options,
    );
    let _ = writeln!(out, "</svg>");
    out
}

/// A legend entry: its picture drawn at a given x, and its text.
type Sample<'a> = (Box<dyn Fn(f64) -> String + 'a>, &'static str);

/// The legend (one row of samples) and the scale bar (below it), from the top `y`.
fn legend(out: &mut String, view: &View, width: f64, y: f64, options: &Options) {
    let _ = writeln!(out, r#"<g class="legend">"#);
    let row = y + 8.0;
    let swatch = |colour: &'static str| {
        move |x: f64| {
            format!(
                r#"<rect x="{}" y="{}" width="16" height="12" fill="{colour}" fill-opacity="0.2" stroke="{colour}" stroke-width="1.5"/>"#,
                n(x),
                n(row)
            )
        }
    };
    let dot = |x: f64| {
        format!(
            r#"<circle cx="{}" cy="{}" r="3" fill="black"/>"#,
            n(x + 8.0),
            n(row + 6.0)
        )
    };
    let arrow = |x: f64| {
        format!(
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="black" stroke-width="1.5" marker-end="url(#arrow)"/>"#,
            n(x),
            n(row + 6.0),
            n(x + 16.0),
            n(row + 6.0)
        )
    };
    let aabb = |x: f64| {
        format!(
            r#"<rect x="{}" y="{}" width="16" height="12" fill="none" stroke="{GREY}" stroke-dasharray="4 3"/>"#,
            n(x),
            n(row)
        )
    };
    let mut samples: Vec<Sample<'_>> = vec![
        (Box::new(swatch(BLUE)), "object"),
        (Box::new(swatch(RED)), "colliding"),
        (Box::new(dot), "contact point"),
        (Box::new(arrow), "normal, a → b"),
    ];
    if options.debug {
        samples.push((Box::new(aabb), "bounding box"));
    }
    let mut x = MARGIN;
    for (draw, label) in samples {
        let _ = writeln!(out, "{}", draw(x));
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}">{label}</text>"#,
            n(x + 22.0),
            n(row + 10.0)
        );
        x += 22.0 + 7.0 * label.chars().count() as f64 + 16.0;
    }

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

    fn draw(shapes: &[(&'static str, Shape)], options: &Options) -> (String, Vec<Hit>) {
        let refs: Vec<&Shape> = shapes.iter().map(|(_, s)| s).collect();
        let hits = colliding_pairs(&refs, |_, _| true);
        let objects: Vec<Object> = shapes
            .iter()
            .map(|(id, shape)| Object {
                id,
                label: Some(id),
                shape,
            })
            .collect();
        (svg(&objects, &hits, options), hits)
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
            let text = svg(&objects, &[], options);
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
            &Options::default(),
        );
        let doc = roxmltree::Document::parse(&text).unwrap();
        assert!(doc
            .descendants()
            .any(|e| e.attribute("data-id") == Some("<a&b>\"")));
        assert!(doc.descendants().any(|e| e.text() == Some("<label>")));
        let empty = svg(&[], &[], &Options::default());
        assert!(roxmltree::Document::parse(&empty).is_ok());
        assert!(empty.contains("units"));
    }

    #[test]
    fn the_filter_decides_which_pairs_are_tested() {
        let shapes: Vec<Shape> = (0..4)
            .map(|i| Circle::new(v(i as f32, 0.), 1.).unwrap().into())
            .collect();
        let refs: Vec<&Shape> = shapes.iter().collect();
        let all: Vec<_> = colliding_pairs(&refs, |_, _| true)
            .iter()
            .map(|h| (h.a, h.b))
            .collect();
        assert_eq!(all, [(0, 1), (0, 2), (1, 2), (1, 3), (2, 3)]);
        let odd: Vec<_> = colliding_pairs(&refs, |a, b| a % 2 == 1 || b % 2 == 1)
            .iter()
            .map(|h| (h.a, h.b))
            .collect();
        assert_eq!(odd, [(0, 1), (1, 2), (1, 3), (2, 3)]);
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
