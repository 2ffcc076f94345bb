//! `collide2d demo`: the classic collision cases of 2D games, answered and laid out as a table.
//!
//! Each row is one pair `a`, `b`: whether their bounding boxes overlap (all a box-only test
//! sees), whether they really intersect, their distance, and the contact normal (from `a`
//! towards `b`) and depth. Rows where the boxes overlap but the shapes do not are marked: those
//! are the false hits a box-only test would report.
//!
//! With files, each line of each file (formats.md's `query` lines) becomes a row named
//! `FILE:LINE`, and a bad line a row with its error. The rows are gathered before printing so
//! the columns line up: this is for a reader, `collide2d query` is for streams.

use std::io::{self, BufRead, BufReader, Write};
use std::path::Path;

use collide2d::math::Vec2;
use collide2d::{
    Aabb, BroadPhase, Capsule, Circle, CollisionWorld, Compound, Filter, Obb, ObjectKind, Polygon,
    Segment, Shape, ShapeError,
};
use collide2d_cli::render;

use collide2d_cli::json::Query;

/// One demo row.
struct Case {
    name: String,
    a: Shape,
    b: Shape,
}

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn rect(x: f32, y: f32, w: f32, h: f32) -> Result<Shape, ShapeError> {
    Aabb::from_rect(x, y, w, h).map(Shape::from)
}

fn circle(x: f32, y: f32, r: f32) -> Result<Shape, ShapeError> {
    Circle::new(v(x, y), r).map(Shape::from)
}

fn polygon(points: &[(f32, f32)]) -> Result<Shape, ShapeError> {
    let points: Vec<Vec2> = points.iter().map(|&(x, y)| v(x, y)).collect();
    Polygon::new(&points).map(Shape::from)
}

/// The cases, in the order they are printed.
fn cases() -> Result<Vec<Case>, ShapeError> {
    let case = |name,
                a: Result<Shape, ShapeError>,
                b: Result<Shape, ShapeError>|
     -> Result<Case, ShapeError> {
        Ok(Case {
            name: String::from(name),
            a: a?,
            b: b?,
        })
    };
    let crate_box = || rect(0.0, 0.0, 10.0, 10.0);
    let l_shape = || {
        polygon(&[
            (0.0, 0.0),
            (4.0, 0.0),
            (4.0, 1.0),
            (1.0, 1.0),
            (1.0, 4.0),
            (0.0, 4.0),
        ])
    };
    // A character hitbox: body, head and an arm held out to the right.
    let hitbox = || -> Result<Shape, ShapeError> {
        let parts = vec![
            rect(0.0, 0.0, 4.0, 8.0)?,
            rect(1.0, 8.0, 2.0, 2.0)?,
            rect(4.0, 5.0, 4.0, 1.0)?,
        ];
        Compound::new(parts).map(Shape::from)
    };
    let hexagon = || {
        let points: Vec<(f32, f32)> = (0..6u8)
            .map(|i| {
                let t = f32::from(i) * core::f32::consts::FRAC_PI_3;
                (4.0 + 2.0 * t.cos(), 2.0 * t.sin())
            })
            .collect();
        polygon(&points)
    };
    [
        case(
            "circle overlapping a box's edge",
            crate_box(),
            circle(11.0, 5.0, 2.0),
        ),
        case(
            "circle clear of a box's edge",
            crate_box(),
            circle(13.0, 5.0, 2.0),
        ),
        case(
            "circle overlapping a box's corner",
            crate_box(),
            circle(11.0, 11.0, 2.0),
        ),
        case(
            "circle near a box's corner (the trap)",
            crate_box(),
            circle(11.5, 11.5, 2.0),
        ),
        case(
            "circles touching",
            circle(0.0, 0.0, 1.0),
            circle(2.0, 0.0, 1.0),
        ),
        case(
            "circles overlapping",
            circle(0.0, 0.0, 1.0),
            circle(1.5, 0.0, 1.0),
        ),
        case(
            "boxes touching along an edge",
            crate_box(),
            rect(10.0, 0.0, 10.0, 10.0),
        ),
        case(
            "boxes touching at a corner",
            crate_box(),
            rect(10.0, 10.0, 5.0, 5.0),
        ),
        case("boxes overlapping", crate_box(), rect(8.0, 3.0, 10.0, 10.0)),
        case(
            "rotated box overlapping a rotated box",
            Obb::new(v(0.0, 0.0), v(2.0, 1.0), 0.5).map(Shape::from),
            Obb::new(v(3.0, 1.0), v(1.0, 1.0), -0.3).map(Shape::from),
        ),
        case(
            "diamond near a box's corner",
            crate_box(),
            Obb::new(v(12.0, 12.0), v(2.0, 2.0), core::f32::consts::FRAC_PI_4).map(Shape::from),
        ),
        case(
            "triangle overlapping a hexagon",
            polygon(&[(0.0, -1.0), (3.0, 0.0), (0.0, 1.0)]),
            hexagon(),
        ),
        case(
            "triangle clear of a hexagon",
            polygon(&[(0.0, -1.0), (1.5, 0.0), (0.0, 1.0)]),
            hexagon(),
        ),
        case("circle in an L's notch", l_shape(), circle(2.5, 2.5, 1.0)),
        case("circle on an L's arm", l_shape(), circle(3.0, 1.5, 1.0)),
        case(
            "bullet hitting a hitbox's arm",
            hitbox(),
            circle(7.0, 6.5, 0.75),
        ),
        case(
            "bullet between arm and head",
            hitbox(),
            circle(5.5, 8.0, 0.75),
        ),
        case(
            "capsule against a box",
            Capsule::new(v(-3.0, 2.0), v(-3.0, 8.0), 1.0).map(Shape::from),
            rect(-2.5, 0.0, 4.0, 4.0),
        ),
        case(
            "capsule clear of a circle",
            Capsule::new(v(0.0, 0.0), v(0.0, 4.0), 1.0).map(Shape::from),
            circle(2.5, 2.0, 1.0),
        ),
        case(
            "segment crossing a circle",
            Segment::new(v(-2.0, 0.5), v(2.0, 0.5)).map(Shape::from),
            circle(0.0, 0.0, 1.0),
        ),
    ]
    .into_iter()
    .collect()
}

/// `x` rounded to 3 decimals, without trailing zeros (`-0` as `0`).
fn short(x: f32) -> String {
    let text = format!("{x:.3}");
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.')
    } else {
        &text
    };
    if text == "-0" {
        "0".to_string()
    } else {
        text.to_string()
    }
}

/// The table cells of one case.
fn row(case: &Case) -> [String; 6] {
    let bounds = case.a.aabb().overlaps(&case.b.aabb());
    let query = Query {
        a: case.a.clone(),
        b: case.b.clone(),
    };
    let (hit, distance, normal, depth) = match query.answer() {
        Ok(answer) => {
            let (normal, depth) = match answer.contact {
                Some(c) => (
                    format!("({}, {})", short(c.normal.x), short(c.normal.y)),
                    short(c.depth),
                ),
                None => ("-".to_string(), "-".to_string()),
            };
            let hit = if answer.intersects {
                "hit"
            } else if bounds {
                "miss *"
            } else {
                "miss"
            };
            (hit.to_string(), short(answer.distance), normal, depth)
        }
        Err(message) => (message, String::new(), String::new(), String::new()),
    };
    let bounds = if bounds { "overlap" } else { "apart" };
    [
        case.name.clone(),
        bounds.to_string(),
        hit,
        distance,
        normal,
        depth,
    ]
}

/// A table row: the cells of an answered pair, or a name and the reason it has no answer.
type Row = Result<[String; 6], (String, String)>;

/// Prints the classic cases on `out`.
///
/// # Errors
/// A write error, or a demo shape the library rejects (a bug in this file).
pub fn run(out: &mut impl Write) -> io::Result<()> {
    let cases = cases().map_err(|e| io::Error::other(format!("demo shape rejected: {e}")))?;
    let rows: Vec<Row> = cases.iter().map(|c| Ok(row(c))).collect();
    table(out, "collide2d demo: classic 2D collision cases", &rows)
}

/// The classic cases drawn as one SVG picture, three to a row: each case's two shapes, `a`
/// and `b`, in a world of their own drawn in its own cell at its own scale, titled with the
/// case's name, red with their contact when they collide.
///
/// # Errors
/// A demo shape the library or the world rejects (a bug in this file).
pub fn svg(options: &render::Options) -> Result<String, String> {
    const COLUMNS: usize = 3;
    let cases = cases().map_err(|e| e.to_string())?;
    let mut worlds = Vec::with_capacity(cases.len());
    for case in &cases {
        let mut world = CollisionWorld::new(BroadPhase::default());
        world.set_contacts(true);
        for (shape, name) in [(&case.a, "a"), (&case.b, "b")] {
            world
                .insert(shape.clone(), Filter::DEFAULT, ObjectKind::Dynamic, name)
                .map_err(|e| e.to_string())?;
        }
        world.update();
        worlds.push(world);
    }
    let panels: Vec<render::Panel<'_, &str>> = cases
        .iter()
        .zip(&worlds)
        .map(|(case, world)| render::Panel {
            title: &case.name,
            world,
        })
        .collect();
    let mut out = Vec::new();
    // Writing to a Vec cannot fail.
    let _ = render::panels_svg_to(&panels, |_, name| Some(*name), COLUMNS, options, &mut out);
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// Why [`run_files`] stopped.
pub enum FileError {
    /// A file could not be opened or read.
    Read(String, io::Error),
    /// The table could not be written.
    Write(io::Error),
}

/// Prints one row per query line of `files` on `out`; `Ok(true)` when no line had an error.
///
/// # Errors
/// An unreadable file (nothing is printed), or a write error.
pub fn run_files(out: &mut impl Write, files: &[impl AsRef<Path>]) -> Result<bool, FileError> {
    let mut rows: Vec<Row> = Vec::new();
    for file in files {
        let path = file.as_ref();
        let read_error = |e| FileError::Read(path.display().to_string(), e);
        let reader = BufReader::new(std::fs::File::open(path).map_err(read_error)?);
        for (i, line) in reader.lines().enumerate() {
            let line = line.map_err(read_error)?;
            let name = format!("{}:{}", path.display(), i + 1);
            rows.push(match collide2d_cli::json::parse_line(&line) {
                Ok(Query { a, b }) => Ok(row(&Case { name, a, b })),
                Err(message) => Err((name, message)),
            });
        }
    }
    let title = format!(
        "collide2d demo: {} pairs from {} file(s)",
        rows.len(),
        files.len()
    );
    table(out, &title, &rows).map_err(FileError::Write)?;
    Ok(rows.iter().all(Result::is_ok))
}

/// Prints `rows` as an aligned table under `title`, then the legend.
fn table(out: &mut impl Write, title: &str, rows: &[Row]) -> io::Result<()> {
    let header = [
        "case (a vs b)",
        "boxes",
        "shapes",
        "distance",
        "normal a->b",
        "depth",
    ]
    .map(String::from);
    let mut widths = header.each_ref().map(|h| h.chars().count());
    for r in rows {
        match r {
            Ok(cells) => {
                for (w, cell) in widths.iter_mut().zip(cells) {
                    *w = (*w).max(cell.chars().count());
                }
            }
            Err((name, _)) => widths[0] = widths[0].max(name.chars().count()),
        }
    }
    writeln!(out, "{title}")?;
    writeln!(out)?;
    let print = |out: &mut dyn Write, cells: &[String; 6]| -> io::Result<()> {
        let line: Vec<String> = cells
            .iter()
            .zip(widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        writeln!(out, "{}", line.join("  ").trim_end())
    };
    print(out, &header)?;
    let rule = widths.map(|w| "-".repeat(w));
    print(out, &rule)?;
    for r in rows {
        match r {
            Ok(cells) => print(out, cells)?,
            Err((name, message)) => writeln!(out, "{name:<w$}  error: {message}", w = widths[0])?,
        }
    }
    writeln!(out)?;
    writeln!(
        out,
        "boxes:  do the bounding boxes overlap? (all a box-only test sees)"
    )?;
    writeln!(
        out,
        "shapes: do the shapes themselves intersect? Shapes are closed, so touching (distance 0) is a hit."
    )?;
    writeln!(
        out,
        "miss *: the boxes overlap but the shapes do not: a box-only test would report a false hit."
    )?;
    writeln!(
        out,
        "normal: unit vector from a towards b; depth: how far b must move along it to only touch."
    )?;
    writeln!(
        out,
        "Query your own pairs with `collide2d query FILE` (JSON Lines, see docs/formats.md)."
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_numbers_drop_trailing_zeros() {
        assert_eq!(short(0.0), "0");
        assert_eq!(short(-0.0001), "0");
        assert_eq!(short(2.5), "2.5");
        assert_eq!(short(0.12132), "0.121");
        assert_eq!(short(10.0), "10");
    }

    fn answer(name: &str) -> (bool, f32) {
        let all = cases().unwrap();
        let case = all.iter().find(|c| c.name == name).unwrap();
        let a = Query {
            a: case.a.clone(),
            b: case.b.clone(),
        }
        .answer()
        .unwrap();
        (a.intersects, a.distance)
    }

    #[test]
    fn the_corner_trap_is_a_miss_with_overlapping_boxes() {
        let (hit, distance) = answer("circle near a box's corner (the trap)");
        assert!(!hit);
        assert!(
            (distance - (1.5f32.hypot(1.5) - 2.0)).abs() < 1e-5,
            "{distance}"
        );
        let all = cases().unwrap();
        let case = all.iter().find(|c| c.name.contains("the trap")).unwrap();
        assert!(case.a.aabb().overlaps(&case.b.aabb()));
    }

    #[test]
    fn touching_cases_are_hits_at_distance_zero() {
        for name in [
            "circles touching",
            "boxes touching along an edge",
            "boxes touching at a corner",
        ] {
            assert_eq!(answer(name), (true, 0.0), "{name}");
        }
    }

    #[test]
    fn table_has_a_row_per_case_and_no_errors() {
        let mut out = Vec::new();
        run(&mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        for case in cases().unwrap() {
            let line = text.lines().find(|l| l.starts_with(&case.name)).unwrap();
            assert!(line.contains(" hit") || line.contains(" miss"), "{line}");
        }
        assert!(!text.contains("internal error"), "{text}");
    }

    #[test]
    fn files_give_a_row_per_line_and_errors_in_place() {
        let path =
            std::env::temp_dir().join(format!("collide2d-demo-{}.jsonl", std::process::id()));
        let good = r#"{"a": {"type": "circle", "center": [0, 0], "radius": 1}, "b": {"type": "circle", "center": [2, 0], "radius": 1}}"#;
        std::fs::write(&path, format!("{good}\n{{\n")).unwrap();
        let mut out = Vec::new();
        let ok = run_files(&mut out, &[&path]).ok().unwrap();
        std::fs::remove_file(&path).unwrap();
        assert!(!ok);
        let text = String::from_utf8(out).unwrap();
        let name = path.display().to_string();
        let first = text
            .lines()
            .find(|l| l.starts_with(&format!("{name}:1 ")))
            .unwrap();
        assert!(first.contains("hit") && first.contains("(1, 0)"), "{first}");
        let second = text
            .lines()
            .find(|l| l.starts_with(&format!("{name}:2 ")))
            .unwrap();
        assert!(second.contains("error: invalid JSON"), "{second}");
    }
}
