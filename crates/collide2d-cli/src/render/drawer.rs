//! [`SvgDraw`]: the library's [`DebugDraw`] callbacks written as SVG elements, straight to a
//! writer.
//!
//! Named objects (the player, enemies, a scene's objects) are each a `<g class="object">` with
//! their id; the crowd (unnamed objects: bullets, tiles) is merged into long `<path>`s, a few
//! dozen bytes an object, drawn lighter the larger it is. Contacts are dots and arrows; labels
//! are placed by [`labels`](super::labels) so they never cover an arrow or each other. Memory:
//! one pending path (flushed every 64 KiB) and the placement grid, whatever the world's size.

use std::fmt::Write as _;
use std::io::{self, Write};

use collide2d::debug_draw::{DebugDraw, DrawnObject, DrawnPair, Layer, Role};
use collide2d::math::Vec2;
use collide2d::{Aabb, BroadBox};

use super::labels::{self, Occupancy, ARROW, CROWD, SHAFT, SHAPE};
use super::style::{self, hex};
use super::view::{escape, fixed, n, Rect, View};

/// Screen length of a normal arrow, whatever the depth.
pub(crate) const ARROW_LENGTH: f64 = 28.0;
/// Objects are labelled only up to this many (beyond, labels hide the picture).
pub(crate) const MAX_LABELS: usize = 200;
/// A pending crowd path is written out at this size.
const FLUSH_BYTES: usize = 64 * 1024;

/// Writes the primitives of one drawing area as SVG.
pub(crate) struct SvgDraw<'w, W: Write> {
    out: &'w mut W,
    error: Option<io::Error>,
    view: View,
    grid: Occupancy,
    /// Font size of the labels.
    font: f64,
    layer: Option<Layer>,
    /// Subpaths of the crowd (or of unnamed bounding boxes) not yet written.
    pending: String,
    /// The current pair's names, for `data-a` and `data-b`.
    pair: (String, String),
    /// Whether this drawing labels its named objects (not beyond [`MAX_LABELS`]).
    labelling: bool,
    /// Labels that found no free place (not drawn).
    pub unplaced: usize,
}

impl<'w, W: Write> SvgDraw<'w, W> {
    /// A drawer into `view`'s area; `labelling` when there are few enough named objects to
    /// label (at most [`MAX_LABELS`]).
    pub fn new(out: &'w mut W, view: View, font: f64, labelling: bool) -> SvgDraw<'w, W> {
        SvgDraw {
            out,
            error: None,
            grid: Occupancy::new(view.area),
            view,
            font,
            layer: None,
            pending: String::new(),
            pair: (String::new(), String::new()),
            labelling,
            unplaced: 0,
        }
    }

    /// The first write error, if any.
    pub fn finish(self) -> io::Result<usize> {
        match self.error {
            Some(e) => Err(e),
            None => Ok(self.unplaced),
        }
    }

    fn write(&mut self, args: std::fmt::Arguments<'_>) {
        if self.error.is_none() {
            if let Err(e) = self.out.write_fmt(args) {
                self.error = Some(e);
            }
        }
    }

    /// Whether primitives now go into the pending path.
    fn merging(&self) -> bool {
        matches!(
            self.layer,
            Some(Layer::Crowd | Layer::CrowdColliding | Layer::BoundingBoxes)
        )
    }

    fn flush(&mut self) {
        if !self.pending.is_empty() {
            let d = std::mem::take(&mut self.pending);
            self.write(format_args!("<path d=\"{d}\"/>\n"));
        }
    }

    fn push(&mut self, d: std::fmt::Arguments<'_>) {
        let _ = self.pending.write_fmt(d);
        if self.pending.len() >= FLUSH_BYTES {
            self.flush();
        }
    }

    /// A page coordinate for a merged path: one decimal is a tenth of a pixel.
    fn p(&self, at: Vec2) -> (String, String) {
        let (x, y) = self.view.point(at);
        (fixed(x, 1), fixed(y, 1))
    }

    fn points(&self, points: &[Vec2]) -> String {
        let mut s = String::new();
        for (i, &p) in points.iter().enumerate() {
            let (x, y) = self.view.point(p);
            let _ = write!(s, "{}{},{}", if i == 0 { "" } else { " " }, n(x), n(y));
        }
        s
    }

    /// A disc's outline as a subpath.
    fn disc_path(&mut self, (x, y): (f64, f64), r: f64) {
        let (r1, d) = (fixed(r, 1), fixed(2.0 * r, 1));
        self.push(format_args!(
            "M{} {}a{r1} {r1} 0 1 0 {d} 0a{r1} {r1} 0 1 0 -{d} 0z",
            fixed(x - r, 1),
            fixed(y, 1)
        ));
    }

    /// A capsule's outline: two straight sides and two half circles (sweep flag 0: both arcs
    /// turn the same way on screen). `None` when its ends coincide on screen.
    fn capsule_d(&self, a: Vec2, b: Vec2, radius: f32) -> Option<String> {
        let ((ax, ay), (bx, by)) = (self.view.point(a), self.view.point(b));
        let r = self.view.length(radius);
        let len = (bx - ax).hypot(by - ay);
        if len == 0.0 || !len.is_finite() {
            return None;
        }
        let (nx, ny) = (-(by - ay) / len * r, (bx - ax) / len * r);
        Some(format!(
            "M {} {} L {} {} A {r} {r} 0 0 0 {} {} L {} {} A {r} {r} 0 0 0 {} {} Z",
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
        ))
    }

    /// A box on the page, at least 2 pixels on each side (a segment's box has no height).
    fn visible(&self, b: &Aabb) -> Rect {
        let mut r = self.view.rect(b);
        for (at, size) in [(&mut r.x, &mut r.w), (&mut r.y, &mut r.h)] {
            if *size < 2.0 {
                *at -= (2.0 - *size) / 2.0;
                *size = 2.0;
            }
        }
        r
    }

    fn rect_attributes(r: &Rect) -> String {
        format!(
            r#"x="{}" y="{}" width="{}" height="{}""#,
            n(r.x),
            n(r.y),
            n(r.w),
            n(r.h)
        )
    }
}

impl<W: Write> DebugDraw for SvgDraw<'_, W> {
    fn polygon(&mut self, points: &[Vec2], role: Role) {
        if self.merging() {
            for (i, &p) in points.iter().enumerate() {
                let (x, y) = self.p(p);
                self.push(format_args!(
                    "{}{x} {y}",
                    if i == 0 {
                        "M"
                    } else if i == 1 {
                        "L"
                    } else {
                        " "
                    }
                ));
            }
            self.push(format_args!("z"));
        } else if role == Role::ConvexPart {
            let points = self.points(points);
            self.write(format_args!(
                "<polygon class=\"part\" points=\"{points}\" fill=\"none\" stroke-dasharray=\"3 3\" stroke-width=\"0.75\"/>\n"
            ));
        } else {
            let points = self.points(points);
            self.write(format_args!("<polygon points=\"{points}\"/>\n"));
        }
    }

    fn circle(&mut self, center: Vec2, radius: f32, _: Role) {
        let (x, y) = self.view.point(center);
        let r = self.view.length(radius);
        if self.merging() {
            self.disc_path((x, y), r);
        } else {
            self.write(format_args!(
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\"/>\n",
                n(x),
                n(y),
                n(r)
            ));
        }
    }

    fn capsule(&mut self, a: Vec2, b: Vec2, radius: f32, role: Role) {
        match self.capsule_d(a, b, radius) {
            None => self.circle(a, radius, role),
            Some(d) if self.merging() => self.push(format_args!("{d}")),
            Some(d) => self.write(format_args!("<path d=\"{d}\"/>\n")),
        }
    }

    fn segment(&mut self, a: Vec2, b: Vec2, _: Role) {
        if self.merging() {
            let ((x1, y1), (x2, y2)) = (self.p(a), self.p(b));
            self.push(format_args!("M{x1} {y1}L{x2} {y2}"));
        } else {
            let ((x1, y1), (x2, y2)) = (self.view.point(a), self.view.point(b));
            self.write(format_args!(
                "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>\n",
                n(x1),
                n(y1),
                n(x2),
                n(y2)
            ));
        }
    }

    fn point(&mut self, p: Vec2, role: Role) {
        let (x, y) = self.view.point(p);
        if role == Role::ContactPoint {
            let (a, b) = (escape(&self.pair.0), escape(&self.pair.1));
            self.write(format_args!(
                "<circle class=\"contact-point\" data-a=\"{a}\" data-b=\"{b}\" cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"{}\"/>\n",
                n(x),
                n(y),
                hex(role.colour())
            ));
            let dot = Rect {
                x: x - 4.0,
                y: y - 4.0,
                w: 8.0,
                h: 8.0,
            };
            self.grid.mark(&dot, ARROW);
        } else if self.merging() {
            self.disc_path((x, y), 2.0);
        } else {
            self.write(format_args!(
                "<circle cx=\"{}\" cy=\"{}\" r=\"3\"/>\n",
                n(x),
                n(y)
            ));
        }
    }

    fn arrow(&mut self, from: Vec2, direction: Vec2, role: Role) {
        let (x, y) = self.view.point(from);
        let (dx, dy) = self.view.direction(direction);
        // Two normals from (nearly) the same point along (nearly) the same line would be drawn
        // over each other: the later one moves aside, parallel, by a few pixels.
        let shaft = |k: f64| {
            let (sx, sy) = (x - dy * k, y + dx * k);
            ((sx, sy), (sx + dx * ARROW_LENGTH, sy + dy * ARROW_LENGTH))
        };
        let clear = |k: f64| {
            let (s, e) = shaft(k);
            // From a third of the way: arrows may share their start.
            let mid = (s.0 + (e.0 - s.0) / 3.0, s.1 + (e.1 - s.1) / 3.0);
            self.grid.segment_free(mid, e, 3.0, SHAFT)
        };
        let offset = [0.0, 6.0, -6.0, 12.0, -12.0, 18.0, -18.0, 24.0, -24.0]
            .into_iter()
            .find(|&k| clear(k))
            .unwrap_or(0.0);
        let ((x1, y1), (ex, ey)) = shaft(offset);
        let (a, b) = (escape(&self.pair.0), escape(&self.pair.1));
        let moved = if offset == 0.0 {
            String::new()
        } else {
            format!(" data-offset=\"{}\"", n(offset))
        };
        self.write(format_args!(
            "<line class=\"normal\" data-a=\"{a}\" data-b=\"{b}\"{moved} x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"1.5\" marker-end=\"url(#arrow)\"><title>{a} → {b}: normal ({}, {})</title></line>\n",
            n(x1),
            n(y1),
            n(ex),
            n(ey),
            hex(role.colour()),
            direction.x,
            direction.y,
        ));
        // The shaft and the head (about 11 pixels wide at the tip).
        self.grid.mark_segment((x1, y1), (ex, ey), 6.0, ARROW);
        self.grid.mark_segment((x1, y1), (ex, ey), 1.0, SHAFT);
    }

    fn rect(&mut self, aabb: &Aabb, _: Role) {
        if self.merging() {
            // Relative moves: a box costs about twenty bytes.
            let r = self.view.rect(aabb);
            let (w, h) = (fixed(r.w, 1), fixed(r.h, 1));
            self.push(format_args!(
                "M{} {}h{w}v{h}h-{w}z",
                fixed(r.x, 1),
                fixed(r.y, 1)
            ));
        } else {
            let r = Self::rect_attributes(&self.visible(aabb));
            self.write(format_args!("<rect {r}/>\n"));
        }
    }

    fn broad_box(&mut self, b: &BroadBox, name: Option<&str>) {
        let r = Self::rect_attributes(&self.visible(&b.aabb));
        if let Some(element) = style::broad_rect(b, name, &r) {
            self.write(format_args!("{element}\n"));
        }
    }

    fn bounding_box(&mut self, object: &DrawnObject<'_>) {
        let aabb = object.shape.aabb();
        match object.name {
            None => self.rect(&aabb, Role::BoundingBox),
            Some(name) => {
                let r = Self::rect_attributes(&self.visible(&aabb));
                self.write(format_args!(
                    "<rect class=\"aabb\" data-id=\"{}\" {r}/>\n",
                    escape(name)
                ));
            }
        }
    }

    fn label(&mut self, object: &DrawnObject<'_>) {
        let Some(text) = object.name.filter(|_| self.labelling) else {
            return;
        };
        let anchor = self.visible(&object.shape.aabb());
        let width = labels::text_width(text, self.font);
        let Some(place) = labels::place(&mut self.grid, &anchor, width, self.font) else {
            self.unplaced += 1;
            return;
        };
        if let Some(((x1, y1), (x2, y2))) = place.leader {
            self.write(format_args!(
                "<line class=\"leader\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#9ca3af\" stroke-width=\"0.75\"/>\n",
                n(x1),
                n(y1),
                n(x2),
                n(y2)
            ));
        }
        let (x, y) = place.baseline(self.font);
        self.write(format_args!(
            "<text x=\"{}\" y=\"{}\">{}</text>\n",
            n(x),
            n(y),
            escape(text)
        ));
    }

    fn begin_layer(&mut self, layer: Layer, count: usize) {
        self.layer = Some(layer);
        let group = style::layer_group(layer, count, self.font);
        self.write(format_args!("{group}\n"));
    }

    fn end_layer(&mut self, _: Layer) {
        self.flush();
        self.layer = None;
        self.write(format_args!("</g>\n"));
    }

    fn begin_object(&mut self, object: &DrawnObject<'_>) {
        let Some(name) = object.name else {
            let r = self.view.rect(&object.shape.aabb());
            self.grid.mark(&r, CROWD);
            return;
        };
        if self.labelling {
            self.grid.mark_shape(&self.view, object.shape, SHAPE);
        }
        let colour = hex(Role::Object {
            colliding: object.colliding,
            named: true,
        }
        .colour());
        let kind = object.shape.kind().name();
        let id = escape(name);
        self.write(format_args!(
            "<g class=\"object{}\" data-id=\"{id}\" data-kind=\"{kind}\" fill=\"{colour}\" fill-opacity=\"0.3\" stroke=\"{colour}\" stroke-width=\"2\">\n<title>{id} ({kind})</title>\n",
            if object.colliding { " hit" } else { "" },
        ));
    }

    fn end_object(&mut self, object: &DrawnObject<'_>) {
        if object.name.is_some() {
            self.write(format_args!("</g>\n"));
        }
    }

    fn begin_pair(&mut self, pair: &DrawnPair<'_>) {
        self.pair = (
            pair.a_name.map_or_else(|| pair.a.to_string(), String::from),
            pair.b_name.map_or_else(|| pair.b.to_string(), String::from),
        );
    }
}
