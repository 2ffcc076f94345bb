//! World to screen, and the text of numbers and names in the SVG.

use collide2d::math::Vec2;
use collide2d::Aabb;

/// A rectangle on the page, in pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Rect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl Rect {
    pub fn right(&self) -> f64 {
        self.x + self.w
    }

    pub fn bottom(&self) -> f64 {
        self.y + self.h
    }

    #[cfg(test)]
    pub fn overlaps(&self, o: &Rect) -> bool {
        self.x < o.right() && o.x < self.right() && self.y < o.bottom() && o.y < self.bottom()
    }

    pub fn contains(&self, o: &Rect) -> bool {
        o.x >= self.x && o.y >= self.y && o.right() <= self.right() && o.bottom() <= self.bottom()
    }
}

/// World to screen: a uniform scale, a translation and an optional flip of y, into `area`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct View {
    /// World point drawn at the area's left edge (x) and top (y, or bottom with y up).
    min: (f64, f64),
    max_y: f64,
    pub scale: f64,
    y_down: bool,
    /// Where on the page the drawing goes.
    pub area: Rect,
}

impl View {
    /// The view of `bounds` (plus a 5% margin, each side at least a tenth of the other) in a
    /// drawing `width` pixels wide at `(x, y)`: its height follows the bounds' shape, at most
    /// 1.5 times the width, or `height` when given, the drawing centred in it.
    pub fn fit(
        bounds: Option<Aabb>,
        x: f64,
        y: f64,
        width: f64,
        height: Option<f64>,
        y_down: bool,
    ) -> View {
        let (min, max) = bounds.map_or(((0.0, 0.0), (1.0, 1.0)), |b| {
            let (min, max) = (b.min(), b.max());
            (
                (f64::from(min.x), f64::from(min.y)),
                (f64::from(max.x), f64::from(max.y)),
            )
        });
        // A point or a line still gets an area: at least one unit, or 1/10 of the other side.
        let extent = (max.0 - min.0).max(max.1 - min.1);
        let extent = if extent > 0.0 && extent.is_finite() {
            extent
        } else {
            1.0
        };
        let pad = |lo: f64, hi: f64, at_least: f64| {
            let grow = (at_least.max(hi - lo) - (hi - lo)) / 2.0 + extent * 0.05;
            (lo - grow, hi + grow)
        };
        let (mut y0, mut y1) = pad(min.1, max.1, extent * 0.1);
        let (mut x0, x1) = pad(min.0, max.0, (max.1 - min.1) / 1.5);
        let width = width.max(1.0);
        let (scale, height) = match height {
            None => {
                let scale = width / (x1 - x0);
                (scale, (y1 - y0) * scale)
            }
            Some(h) => {
                let h = h.max(1.0);
                let scale = (width / (x1 - x0)).min(h / (y1 - y0));
                // Centre the drawing: widen the world window on the loose axis.
                let (gx, gy) = (
                    (width / scale - (x1 - x0)) / 2.0,
                    (h / scale - (y1 - y0)) / 2.0,
                );
                (x0, y1) = (x0 - gx, y1 + gy);
                y0 -= gy;
                (scale, h)
            }
        };
        View {
            min: (x0, y0),
            max_y: y1,
            scale,
            y_down,
            area: Rect {
                x,
                y,
                w: width,
                h: height,
            },
        }
    }

    /// A world point on the page.
    pub fn point(&self, p: Vec2) -> (f64, f64) {
        let x = (f64::from(p.x) - self.min.0) * self.scale + self.area.x;
        let y = if self.y_down {
            f64::from(p.y) - self.min.1
        } else {
            self.max_y - f64::from(p.y)
        };
        (x, y * self.scale + self.area.y)
    }

    /// A page point in the world (the inverse of [`point`](Self::point)).
    pub fn world(&self, x: f64, y: f64) -> Vec2 {
        let wx = (x - self.area.x) / self.scale + self.min.0;
        let dy = (y - self.area.y) / self.scale;
        let wy = if self.y_down {
            dy + self.min.1
        } else {
            self.max_y - dy
        };
        Vec2::new(wx as f32, wy as f32)
    }

    /// A world direction on the page (unit length in, unit length out).
    pub fn direction(&self, d: Vec2) -> (f64, f64) {
        let y = f64::from(d.y);
        (f64::from(d.x), if self.y_down { y } else { -y })
    }

    pub fn length(&self, l: f32) -> f64 {
        f64::from(l) * self.scale
    }

    /// A world box on the page.
    pub fn rect(&self, b: &Aabb) -> Rect {
        let ((x0, y0), (x1, y1)) = (self.point(b.min()), self.point(b.max()));
        Rect {
            x: x0.min(x1),
            y: y0.min(y1),
            w: (x1 - x0).abs(),
            h: (y1 - y0).abs(),
        }
    }
}

/// A number for an attribute: at most `decimals` decimals, no trailing zeros.
pub(crate) fn fixed(x: f64, decimals: usize) -> String {
    let s = format!("{x:.decimals$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        &s
    };
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// A number for an attribute: at most two decimals, no trailing zeros.
pub(crate) fn n(x: f64) -> String {
    fixed(x, 2)
}

/// Text for an attribute or element: markup escaped, control characters replaced.
pub(crate) fn escape(text: &str) -> String {
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

/// A round length for the scale bar: 1, 2 or 5 times a power of ten, near `target`.
pub(crate) fn nice_length(target: f64) -> f64 {
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
pub(crate) fn label_number(x: f64) -> String {
    if (1e-3..1e6).contains(&x) {
        fixed(x, 3)
    } else {
        format!("{x:e}")
    }
}
