//! Label placement: every label in a free place near its object, never over another label, an
//! arrow or a contact point, and over a named shape's interior only when nothing else is free.
//!
//! The drawing is covered by a grid of small cells; as the picture is written, each cell
//! records what covers it (the crowd, a named shape, an arrow, a label). A label then tries
//! places around its object's box (above, below, beside), then rings farther out joined to
//! the object by a leader line, and takes the first free one, or the least covered one that
//! crosses no arrow and no label. Text boxes come from conservative font metrics (wider than
//! DejaVu Sans and Verdana), so the boxes checked are at least the boxes drawn. Memory is the
//! grid's, whatever the world's size.

use collide2d::{intersects, Aabb, Shape};

use super::view::{Rect, View};

/// The crowd (unnamed objects) covers the cell: a label there costs a little.
pub(crate) const CROWD: u8 = 1;
/// A named shape's interior: a label there costs much.
pub(crate) const SHAPE: u8 = 2;
/// An arrow or a contact point: never under a label.
pub(crate) const ARROW: u8 = 4;
/// A label or a leader line: never under another label.
pub(crate) const LABEL: u8 = 8;
/// The shaft of a normal arrow: another arrow is moved aside rather than drawn over it.
pub(crate) const SHAFT: u8 = 16;

/// The cost of a cell of named shape under a label: more than any crowd a label can cover,
/// so a label over the crowd (the text has a halo) beats one over a named shape.
const SHAPE_COST: u32 = 1 << 20;

/// What covers each cell of a drawing.
pub(crate) struct Occupancy {
    area: Rect,
    cell: f64,
    cols: usize,
    rows: usize,
    bits: Vec<u8>,
}

impl Occupancy {
    /// An empty grid over `area`: 4-pixel cells, larger for a huge drawing (at most about
    /// four million cells).
    pub fn new(area: Rect) -> Occupancy {
        let cell = (area.w * area.h / 4e6).sqrt().max(4.0);
        let cols = (area.w / cell).ceil().max(1.0) as usize;
        let rows = (area.h / cell).ceil().max(1.0) as usize;
        Occupancy {
            area,
            cell,
            cols,
            rows,
            bits: vec![0; cols * rows],
        }
    }

    /// The cells `r` touches (clamped to the grid): columns and rows, half-open.
    fn span(&self, r: &Rect) -> (usize, usize, usize, usize) {
        let index = |v: f64, count: usize| {
            if v.is_nan() {
                0
            } else {
                (v / self.cell).floor().clamp(0.0, count as f64) as usize
            }
        };
        let c0 = index(r.x - self.area.x, self.cols);
        let r0 = index(r.y - self.area.y, self.rows);
        let c1 = (index(r.right() - self.area.x, self.cols) + 1).min(self.cols);
        let r1 = (index(r.bottom() - self.area.y, self.rows) + 1).min(self.rows);
        (c0, c1, r0, r1)
    }

    /// Marks every cell `r` touches with `bit`.
    pub fn mark(&mut self, r: &Rect, bit: u8) {
        let (c0, c1, r0, r1) = self.span(r);
        for row in r0..r1 {
            for b in &mut self.bits[row * self.cols + c0..row * self.cols + c1.max(c0)] {
                *b |= bit;
            }
        }
    }

    /// Squares of half-size `radius` every half cell along the segment from `a` to `b`: together
    /// they cover every point within `radius` of it.
    fn along(&self, a: (f64, f64), b: (f64, f64), radius: f64) -> impl Iterator<Item = Rect> {
        let length = (b.0 - a.0).hypot(b.1 - a.1);
        let steps = (length / (self.cell / 2.0)).ceil().clamp(1.0, 100_000.0) as usize;
        (0..=steps).map(move |i| {
            let t = i as f64 / steps as f64;
            let (x, y) = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
            Rect {
                x: x - radius,
                y: y - radius,
                w: 2.0 * radius,
                h: 2.0 * radius,
            }
        })
    }

    /// Marks the cells within `radius` of the segment from `a` to `b`.
    pub fn mark_segment(&mut self, a: (f64, f64), b: (f64, f64), radius: f64, bit: u8) {
        for r in self.along(a, b, radius).collect::<Vec<_>>() {
            self.mark(&r, bit);
        }
    }

    /// Whether no cell within `radius` of the segment from `a` to `b` has `bit`.
    pub fn segment_free(&self, a: (f64, f64), b: (f64, f64), radius: f64, bit: u8) -> bool {
        self.along(a, b, radius).all(|r| {
            let (c0, c1, r0, r1) = self.span(&r);
            (r0..r1).all(|row| {
                self.bits[row * self.cols + c0..row * self.cols + c1.max(c0)]
                    .iter()
                    .all(|&b| b & bit == 0)
            })
        })
    }

    /// Marks the cells a shape covers (exactly: each cell's box is tested against the shape).
    pub fn mark_shape(&mut self, view: &View, shape: &Shape, bit: u8) {
        let (c0, c1, r0, r1) = self.span(&view.rect(&shape.aabb()));
        for row in r0..r1 {
            for col in c0..c1 {
                let x = self.area.x + col as f64 * self.cell;
                let y = self.area.y + row as f64 * self.cell;
                let (p, q) = (view.world(x, y), view.world(x + self.cell, y + self.cell));
                let Ok(cell) = Aabb::new(p.min(q), p.max(q)) else {
                    continue;
                };
                if intersects(shape, &cell.into()) {
                    self.bits[row * self.cols + col] |= bit;
                }
            }
        }
    }

    /// What a label at `r` costs: `None` when it leaves the drawing or covers an arrow or a
    /// label; else [`SHAPE_COST`] a cell of named shape and 1 a cell of crowd.
    fn cost(&self, r: &Rect) -> Option<u32> {
        if !self.area.contains(r) {
            return None;
        }
        let (c0, c1, r0, r1) = self.span(r);
        let mut cost = 0u32;
        for row in r0..r1 {
            for &b in &self.bits[row * self.cols + c0..row * self.cols + c1.max(c0)] {
                if b & (ARROW | LABEL) != 0 {
                    return None;
                }
                cost += if b & SHAPE != 0 {
                    SHAPE_COST
                } else {
                    u32::from(b & CROWD)
                };
            }
        }
        Some(cost)
    }
}

/// Width of one character in ems, rounded up from DejaVu Sans and Verdana (the widest common
/// sans-serif fonts), so a text box estimated from it holds the text drawn: in Chromium with
/// DejaVu Sans, 4% to 30% wider than the text (measured with `getBBox`).
fn em(c: char) -> f64 {
    match c {
        'i' | 'j' | 'l' | 'I' | '.' | ',' | ':' | ';' | '\'' | '!' | '|' | ' ' => 0.36,
        'f' | 'r' | 't' | '(' | ')' | '[' | ']' | '-' => 0.48,
        'm' | 'w' | 'M' | 'W' | '@' | '%' => 1.04,
        'A'..='Z' => 0.8,
        // CJK and other wide scripts: a full em.
        c if u32::from(c) >= 0x2e80 => 1.04,
        _ => 0.66,
    }
}

/// The estimated width of `text` at font size `size` (at least the width drawn).
pub(crate) fn text_width(text: &str, size: f64) -> f64 {
    text.chars().map(em).sum::<f64>() * size
}

/// The box of a line of text whose baseline starts at `(x, baseline)`: from the ascender
/// (0.95 em above) to the descender (0.25 em below).
#[cfg(test)]
pub(crate) fn text_box(x: f64, baseline: f64, width: f64, size: f64) -> Rect {
    Rect {
        x,
        y: baseline - 0.95 * size,
        w: width,
        h: 1.2 * size,
    }
}

/// Where a label goes: its text box, and a leader line from the box to its object when it
/// could not sit next to it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Placement {
    pub text: Rect,
    pub leader: Option<((f64, f64), (f64, f64))>,
}

impl Placement {
    /// The baseline's start of the text.
    pub fn baseline(&self, size: f64) -> (f64, f64) {
        (self.text.x, self.text.y + 0.95 * size)
    }
}

/// The nearest point of `r` to `p`.
fn nearest(r: &Rect, p: (f64, f64)) -> (f64, f64) {
    (p.0.clamp(r.x, r.right()), p.1.clamp(r.y, r.bottom()))
}

/// Finds a place for a label `width` wide at font size `size` by the object whose box on the
/// page is `anchor`, marks it taken, and returns it; `None` when every place crosses an arrow
/// or another label or leaves the drawing.
pub(crate) fn place(
    grid: &mut Occupancy,
    anchor: &Rect,
    width: f64,
    size: f64,
) -> Option<Placement> {
    let h = 1.2 * size;
    // More than a cell of the grid, so a label beside a shape need not share a cell with it.
    let gap = 5.0;
    let (cx, cy) = (anchor.x + anchor.w / 2.0, anchor.y + anchor.h / 2.0);
    let at = |x: f64, y: f64| Rect { x, y, w: width, h };
    // Above, below, right and left of the box `b`, at its corners first.
    let around = |b: &Rect| {
        let (mid_x, mid_y) = (b.x + b.w / 2.0, b.y + b.h / 2.0);
        [
            at(b.x, b.y - gap - h),
            at(b.right() - width, b.y - gap - h),
            at(b.x, b.bottom() + gap),
            at(b.right() - width, b.bottom() + gap),
            at(b.right() + gap, mid_y - h / 2.0),
            at(b.x - gap - width, mid_y - h / 2.0),
            at(mid_x - width / 2.0, b.y - gap - h),
            at(mid_x - width / 2.0, b.bottom() + gap),
            at(b.right() + gap, b.y - gap - h),
            at(b.x - gap - width, b.y - gap - h),
            at(b.right() + gap, b.bottom() + gap),
            at(b.x - gap - width, b.bottom() + gap),
        ]
    };
    // The least costly of `places`, if it covers no arrow or label, kept in `best` when it
    // beats it; true when it covers no named shape either.
    let mut best: Option<(u32, Placement)> = None;
    let mut consider = |places: &[Rect], leader: bool| {
        for &r in places {
            let Some(cost) = grid.cost(&r) else {
                continue;
            };
            if best.as_ref().is_none_or(|(c, _)| cost < *c) {
                let leader = leader.then(|| {
                    let from = nearest(&r, (cx, cy));
                    (from, nearest(anchor, from))
                });
                best = Some((cost, Placement { text: r, leader }));
            }
        }
        best.as_ref().is_some_and(|(c, _)| *c < SHAPE_COST)
    };
    // Beside the object first, over the crowd if need be; then the same places around ever
    // larger boxes, with a leader line back to the object.
    let mut found = consider(&around(anchor), false);
    let mut ring = 1;
    while !found && ring <= 16 {
        let d = f64::from(ring) * h * 0.75;
        let grown = Rect {
            x: anchor.x - d,
            y: anchor.y - d,
            w: anchor.w + 2.0 * d,
            h: anchor.h + 2.0 * d,
        };
        found = consider(&around(&grown), true);
        ring += 1;
    }
    let (_, placement) = best?;
    grid.mark(&placement.text, LABEL);
    if let Some((a, b)) = placement.leader {
        grid.mark_segment(a, b, 1.0, LABEL);
    }
    Some(placement)
}
