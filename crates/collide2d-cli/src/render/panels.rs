//! Several small worlds on one page, each in its own cell at its own scale (`demo --cases
//! --svg`): a title above each cell, its drawing fitted to the cell, its scale bar below.

use std::io::{self, Write};

use collide2d::{CollisionWorld, Handle};

use super::drawer::{SvgDraw, MAX_LABELS};
use super::labels::text_width;
use super::legend::{self, LEGEND_ROW, SCALE_BAND};
use super::view::{escape, n, View};
use super::{header, Options, Survey, MARGIN};

/// One cell of the page: a title and the world drawn under it.
pub struct Panel<'a, T> {
    /// The cell's title.
    pub title: &'a str,
    /// What the cell shows, as of its last update.
    pub world: &'a CollisionWorld<T>,
}

/// Space between cells.
const GAP: f64 = 18.0;
/// Height of a cell's title band.
const TITLE: f64 = 22.0;
/// Font size of the labels inside a cell.
const CELL_FONT: f64 = 12.0;

/// Writes `panels` as one page, `columns` cells to a row, each world drawn as
/// [`world_svg_to`](super::world_svg_to) draws it but fitted to its own cell (its own scale,
/// with its own scale bar); one legend below all. Each cell is `<g class="case"
/// data-title="...">`. `name` names objects as for `world_svg_to`.
///
/// # Errors
/// The first error writing to `out`.
pub fn panels_svg_to<T, S: AsRef<str>>(
    panels: &[Panel<'_, T>],
    name: impl Fn(Handle, &T) -> Option<S>,
    columns: usize,
    options: &Options,
    out: &mut impl Write,
) -> io::Result<()> {
    let columns = columns.max(1);
    let width = options.page_width();
    let inner = width - 2.0 * MARGIN;
    let cell_w = ((inner - GAP * (columns - 1) as f64) / columns as f64).max(1.0);
    let drawing_h = cell_w * 0.7;
    let cell_h = TITLE + drawing_h + SCALE_BAND;
    let rows = panels.len().div_ceil(columns);
    let surveys: Vec<Survey> = panels
        .iter()
        .map(|p| Survey::of(p.world, &name, options.debug))
        .collect();
    let mut kinds = legend::Kinds::default();
    for s in &surveys {
        for (seen, all) in [
            (s.kinds.cell, &mut kinds.cell),
            (s.kinds.large, &mut kinds.large),
            (s.kinds.node, &mut kinds.node),
            (s.kinds.leaf, &mut kinds.leaf),
        ] {
            *all |= seen;
        }
    }
    let crowd = surveys.iter().any(|s| s.crowd);
    let samples = legend::samples(crowd, options.debug, kinds);
    let legend_rows = legend::rows(&samples, MARGIN, width - MARGIN);
    let legend_top = MARGIN + rows as f64 * (cell_h + GAP);
    let height = legend_top + legend_rows * LEGEND_ROW + 20.0 + MARGIN / 2.0;
    header(out, width, height)?;

    for (i, (panel, survey)) in panels.iter().zip(&surveys).enumerate() {
        let x = MARGIN + (i % columns) as f64 * (cell_w + GAP);
        let y = MARGIN + (i / columns) as f64 * (cell_h + GAP);
        // The title's font shrinks to fit the cell's width.
        let font = (cell_w / text_width(panel.title, 1.0)).min(13.0);
        writeln!(
            out,
            r##"<g class="case" data-title="{t}"><text class="title" x="{}" y="{}" font-size="{}" font-weight="bold">{t}</text><rect class="frame" x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#e5e7eb"/>"##,
            n(x),
            n(y + TITLE - 7.0),
            n(font),
            n(x),
            n(y + TITLE),
            n(cell_w),
            n(drawing_h),
            t = escape(panel.title),
        )?;
        let view = View::fit(
            survey.bounds,
            x,
            y + TITLE,
            cell_w,
            Some(drawing_h),
            options.y_down,
        );
        let mut draw = SvgDraw::new(out, view, CELL_FONT, survey.named <= MAX_LABELS);
        panel
            .world
            .debug_draw(&mut draw, &options.draw_options(), &name);
        draw.finish()?;
        let mut bar = String::new();
        legend::scale_bar(&mut bar, &view, x, x + cell_w, y + TITLE + drawing_h, "");
        out.write_all(bar.as_bytes())?;
        writeln!(out, "</g>")?;
    }

    let mut tail = String::new();
    legend::legend(&mut tail, &samples, MARGIN, width - MARGIN, legend_top);
    let axis = options.axis();
    let _ = std::fmt::Write::write_fmt(
        &mut tail,
        format_args!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"#6b7280\">each cell at its own scale; {axis}</text>\n</svg>\n",
            n(width - MARGIN),
            n(legend_top + legend_rows * LEGEND_ROW + 14.0)
        ),
    );
    out.write_all(tail.as_bytes())
}
