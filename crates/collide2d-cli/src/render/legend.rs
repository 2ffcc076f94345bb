//! The legend below a picture (what each colour and mark means) and scale bars.

use std::fmt::Write as _;

use collide2d::debug_draw::{BLUE, GREEN, GREY, INK, PURPLE, RED};
use collide2d::BroadBoxKind;

use super::style::{cell_opacity, hex};
use super::view::{label_number, n, nice_length, View};

/// Height of one row of legend samples.
pub(crate) const LEGEND_ROW: f64 = 22.0;
/// Height of the scale bar's band.
pub(crate) const SCALE_BAND: f64 = 26.0;

/// A legend entry: what its picture shows, and its text.
pub(crate) type Sample = (Swatch, &'static str);

/// The picture of a legend entry.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Swatch {
    Fill(bool),
    Crowd,
    Dot,
    Arrow,
    Dashed(bool, &'static str),
    Cell,
    Large,
}

/// What the broad phase holds, for the legend.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Kinds {
    pub cell: bool,
    pub large: bool,
    pub node: bool,
    pub leaf: bool,
}

impl Kinds {
    pub fn add(&mut self, kind: BroadBoxKind) {
        match kind {
            BroadBoxKind::Cell { .. } => self.cell = true,
            BroadBoxKind::Large { .. } => self.large = true,
            BroadBoxKind::Node { .. } => self.node = true,
            BroadBoxKind::Leaf { .. } => self.leaf = true,
            _ => {}
        }
    }
}

/// The legend's entries: the crowd's only when there is one, the debug ones only with `debug`,
/// each kind of broad-phase box only when there is one.
pub(crate) fn samples(crowd: bool, debug: bool, kinds: Kinds) -> Vec<Sample> {
    let mut samples = vec![
        (Swatch::Fill(false), "object"),
        (Swatch::Fill(true), "colliding"),
    ];
    if crowd {
        samples.push((Swatch::Crowd, "crowd (unnamed, lighter)"));
    }
    samples.push((Swatch::Dot, "contact point"));
    samples.push((Swatch::Arrow, "normal, a → b"));
    if !debug {
        return samples;
    }
    samples.push((Swatch::Dashed(false, "4 3"), "bounding box"));
    if kinds.cell {
        samples.push((Swatch::Cell, "grid cell of min corners (darker: more)"));
    }
    if kinds.large {
        samples.push((Swatch::Large, "too large for a cell"));
    }
    if kinds.node {
        samples.push((Swatch::Dashed(true, "none"), "tree node (fainter: deeper)"));
    }
    if kinds.leaf {
        samples.push((Swatch::Dashed(true, "1 2"), "tree leaf (fat box)"));
    }
    samples
}

/// Where each legend entry goes: `(x, row)` from `left`, a new row whenever one would run past
/// `right`.
pub(crate) fn layout(samples: &[Sample], left: f64, right: f64) -> Vec<(f64, f64)> {
    let mut at = Vec::with_capacity(samples.len());
    let (mut x, mut row) = (left, 0.0);
    for (_, label) in samples {
        let advance = 22.0 + 7.0 * label.chars().count() as f64;
        if x > left && x + advance > right {
            (x, row) = (left, row + 1.0);
        }
        at.push((x, row));
        x += advance + 16.0;
    }
    at
}

/// How many rows the legend takes between `left` and `right`.
pub(crate) fn rows(samples: &[Sample], left: f64, right: f64) -> f64 {
    layout(samples, left, right)
        .last()
        .map_or(0.0, |p| p.1 + 1.0)
}

/// The legend's rows of samples from the top `y`, between `left` and `right`.
pub(crate) fn legend(out: &mut String, samples: &[Sample], left: f64, right: f64, y: f64) {
    let _ = writeln!(out, r#"<g class="legend" font-size="12">"#);
    for (&(swatch, label), &(x, row)) in samples.iter().zip(&layout(samples, left, right)) {
        let top = y + 4.0 + row * LEGEND_ROW;
        let (x_, top_) = (n(x), n(top));
        let _ = match swatch {
            Swatch::Fill(hit) => {
                let c = hex(if hit { RED } else { BLUE });
                writeln!(
                    out,
                    r#"<rect x="{x_}" y="{top_}" width="16" height="12" fill="{c}" fill-opacity="0.2" stroke="{c}" stroke-width="1.5"/>"#
                )
            }
            Swatch::Crowd => {
                let c = hex(BLUE);
                writeln!(
                    out,
                    r#"<rect x="{x_}" y="{top_}" width="16" height="12" fill="{c}" fill-opacity="0.1" stroke="{c}" stroke-width="0.6" stroke-opacity="0.5"/>"#
                )
            }
            Swatch::Dot => writeln!(
                out,
                r#"<circle cx="{}" cy="{}" r="3" fill="{}"/>"#,
                n(x + 8.0),
                n(top + 6.0),
                hex(INK)
            ),
            Swatch::Arrow => writeln!(
                out,
                r#"<line x1="{x_}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="1.5" marker-end="url(#arrow)"/>"#,
                n(top + 6.0),
                n(x + 16.0),
                n(top + 6.0),
                hex(INK)
            ),
            Swatch::Dashed(tree, dashes) => {
                let c = hex(if tree { PURPLE } else { GREY });
                writeln!(
                    out,
                    r#"<rect x="{x_}" y="{top_}" width="16" height="12" fill="none" stroke="{c}" stroke-dasharray="{dashes}"/>"#
                )
            }
            Swatch::Large => {
                let c = hex(GREEN);
                writeln!(
                    out,
                    r#"<rect x="{x_}" y="{top_}" width="16" height="12" fill="{c}" fill-opacity="0.08" stroke="{c}" stroke-width="1.5" stroke-dasharray="6 3"/>"#
                )
            }
            Swatch::Cell => {
                let c = hex(GREEN);
                writeln!(
                    out,
                    r#"<rect x="{x_}" y="{top_}" width="16" height="12" fill="{c}" fill-opacity="{}" stroke="{c}" stroke-opacity="0.35"/>"#,
                    n(cell_opacity(2))
                )
            }
        };
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}">{label}</text>"#,
            n(x + 22.0),
            n(top + 10.0)
        );
    }
    let _ = writeln!(out, "</g>");
}

/// A scale bar at `(left, y)`: a round world length about a fifth of `span` pixels, and
/// `note` (the y axis' direction) right-aligned at `right`.
pub(crate) fn scale_bar(out: &mut String, view: &View, left: f64, right: f64, y: f64, note: &str) {
    let length = nice_length((right - left) / 5.0 / view.scale);
    let pixels = length * view.scale;
    let bar = y + 14.0;
    let _ = writeln!(
        out,
        r#"<g class="scale" data-length="{}" font-size="12"><path d="M {x0} {t} L {x0} {b} L {x1} {b} L {x1} {t}" fill="none" stroke="black" stroke-width="1.5"/><text x="{}" y="{}">{} {}</text><text x="{}" y="{}" text-anchor="end" fill="{}">{note}</text></g>"#,
        label_number(length),
        n(left + pixels + 8.0),
        n(bar + 4.0),
        label_number(length),
        if length == 1.0 { "unit" } else { "units" },
        n(right),
        n(bar + 4.0),
        hex(GREY),
        x0 = n(left),
        x1 = n(left + pixels),
        t = n(bar - 5.0),
        b = n(bar),
    );
}
