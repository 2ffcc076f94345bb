//! `collide2d`: the command line of `docs/formats.md`.
//!
//! - `collide2d query [FILE]`: pair queries as JSON Lines, from FILE or standard input (`-` also
//!   means standard input). Exactly one output line per input line, in order; a blank line is
//!   a line too and gets an `error` answer, so output line N always answers input line N. A
//!   `\r` before the line break is ignored (and not counted). Input is streamed line by line, in
//!   constant memory: a line longer than `collide2d::limits::MAX_LINE_BYTES` (1 MiB) gets an
//!   error line naming the limit and is skipped without being held in memory.
//! - `collide2d cast [FILE]`: shape casts as JSON Lines, `{"a": SHAPE, "va": [x, y], "b": SHAPE,
//!   "vb": [x, y]}` with optional turns `wa`, `wb` and pivots `ca`, `cb`, each line answered as
//!   by `query` (see `cast.rs`).
//! - `collide2d pairs SCENE [--contacts] [--broad grid:SIZE|tree[:MARGIN]]`: every colliding
//!   pair of a scene file (the broad phase does not change the output), sorted by the
//!   positions of `a` then `b` in the file and written as found, with no list of pairs held; a
//!   scene that fails to load (`MAX_SCENE_BYTES` and `MAX_SCENE_OBJECTS` included) prints
//!   nothing on standard output, its message (naming the object) on standard error, and exits
//!   with status 1.
//! - `collide2d pairs MAP [--layer NAME]...` and `collide2d render MAP [--layer NAME]...`: the
//!   same for a Tiled (`.tmx`, `.tmj`) or LDtk (`.ldtk`) map, chosen by the file's extension
//!   (see `maps.rs`).
//! - `collide2d demo`: a shoot-'em-up on a collision world, per-frame figures and a summary;
//!   `--svg OUT` draws its last frame (`--debug`: with the world's grid). `demo --cases` prints the classic cases as a table,
//!   `demo FILE...` the query lines of FILEs (exit status as for `query`); `--svg OUT` then
//!   draws the classic cases.
//! - `collide2d render SCENE [-o OUT.svg] [--debug] [--broad grid:SIZE|tree[:MARGIN]]`: the
//!   scene as an SVG picture, colliding objects (a collision world's pairs) in red with their
//!   contacts; `--debug` adds bounding boxes and the broad phase's cells or tree nodes (status 1
//!   for a scene that does not load).
//! - `collide2d serve [--port N] [DIR]`: serves DIR (default `web`) on 127.0.0.1 for the
//!   playground.
//!
//! Exit status: 0 when every line was answered without error, 1 when some line had an error,
//! 2 for a bad command line, an unreadable input or an unwritable output (the message goes to
//! standard error, as does clap's usage message).

mod cast;
mod demo;
mod maps;
mod sim;

use collide2d::limits::{MAX_LINE_BYTES, MAX_SCENE_BYTES};
use collide2d_cli::lines::{read_line, Line};
use collide2d_cli::pairs::PairsError;
use collide2d_cli::scene_file::{self, LoadError};
use collide2d_cli::{json, pairs, raw, render, serve};

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Exact 2D collision queries: JSON Lines in, one answer per line out.
#[derive(Debug, Parser)]
#[command(
    name = "collide2d",
    version,
    about,
    after_help = "Shapes, scenes, query and cast lines, answers and exit statuses: docs/formats.md in the collide2d repository."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Answer one {"a": SHAPE, "b": SHAPE} query per line (JSON Lines, see docs/formats.md).
    Query {
        /// Input file; standard input when absent or `-`.
        file: Option<PathBuf>,
    },
    /// Print every colliding pair of a scene file, one {"a": ID, "b": ID} line each
    /// (docs/formats.md), or of a Tiled (.tmx, .tmj) or LDtk (.ldtk) map.
    Pairs {
        /// Scene file ({"objects": [...]}), standard input when `-`; or a .tmx, .tmj or .ldtk map.
        scene: PathBuf,
        /// With a map: only the layers of this name (repeatable; a group's name brings its layers).
        #[arg(long = "layer", value_name = "NAME")]
        layers: Vec<String>,
        /// Add the `contact` object of `query` to each line.
        #[arg(long)]
        contacts: bool,
        /// The collision world's broad phase: grid:SIZE (square cells SIZE wide), tree, or
        /// tree:MARGIN (leaves enlarged by MARGIN; tree is tree:0.1; it suits any mix of
        /// sizes). The pairs are the same with any of them; only the time differs.
        #[arg(long, default_value = "tree", value_name = "grid:SIZE|tree[:MARGIN]", value_parser = pairs::parse_broad_phase)]
        broad: collide2d::BroadPhase,
    },
    /// Answer one {"a": SHAPE, "va": [x, y], "b": SHAPE, "vb": [x, y]} shape cast per line:
    /// when the moving shapes first touch (optional "wa", "wb": radians turned over the step;
    /// "ca", "cb": the pivots, by default each shape's box center).
    Cast {
        /// Input file; standard input when absent or `-`.
        file: Option<PathBuf>,
    },
    /// Run a small shoot-'em-up on a collision world and print per-frame figures; with
    /// --cases, the classic collision cases as a table; with FILEs, their query lines as a table.
    Demo {
        /// Query files (JSON Lines, as for `query`) to show as a table.
        files: Vec<PathBuf>,
        /// Also draw the last frame (or the classic cases) as an SVG picture in this file.
        #[arg(long, value_name = "OUT")]
        svg: Option<PathBuf>,
        /// With --svg: also draw bounding boxes, concave parts and the world's grid cells.
        #[arg(long, requires = "svg")]
        debug: bool,
        /// Print the classic collision cases (circle against a box's corner, touching shapes...).
        #[arg(long)]
        cases: bool,
        /// Frames to simulate.
        #[arg(long, default_value_t = 300)]
        frames: u32,
        /// The enemies fire rings of bullets while fewer than this many are in the air.
        #[arg(long, default_value_t = 30_000)]
        bullets: usize,
        /// Seed of the bullet speeds and sizes.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Print a row every this many frames.
        #[arg(long, default_value_t = 20)]
        every: u32,
    },
    /// Draw a scene (the `pairs` input of docs/formats.md) as SVG: every object, colliding ones in red,
    /// contact points and normals (from a towards b), a legend and a scale bar.
    Render {
        /// The scene file, or a .tmx, .tmj or .ldtk map (drawn as its editor shows it).
        scene: PathBuf,
        /// With a map: only the layers of this name (repeatable; a group's name brings its layers).
        #[arg(long = "layer", value_name = "NAME")]
        layers: Vec<String>,
        /// Output file; standard output when absent or `-`.
        #[arg(short, long, value_name = "OUT")]
        output: Option<PathBuf>,
        /// Also draw bounding boxes, the convex parts of concave polygons and the broad phase's
        /// cells or tree nodes.
        #[arg(long)]
        debug: bool,
        /// The collision world's broad phase: grid:SIZE (square cells SIZE wide), tree, or
        /// tree:MARGIN (leaves enlarged by MARGIN; tree is tree:0.1). The pairs are the same;
        /// --debug draws the structure.
        #[arg(long, default_value = "tree", value_name = "grid:SIZE|tree[:MARGIN]", value_parser = pairs::parse_broad_phase)]
        broad: collide2d::BroadPhase,
        /// Draw the y axis pointing down (screen convention); by default it points up.
        #[arg(long)]
        y_down: bool,
        /// Width of the picture in pixels.
        #[arg(long, default_value_t = 800, value_parser = clap::value_parser!(u32).range(64..=16384))]
        width: u32,
    },
    /// Serve the playground (or any directory) on http://127.0.0.1:PORT/ until interrupted.
    Serve {
        /// Port to listen on; 0 picks a free one (the address is printed).
        #[arg(long, default_value_t = 8000)]
        port: u16,
        /// Directory to serve.
        #[arg(default_value = "web")]
        dir: PathBuf,
    },
}

/// Why a run stopped before the end of its input.
enum Fatal {
    Read(io::Error),
    Write(io::Error),
}

fn main() -> ExitCode {
    // `parse` prints clap's message and exits: status 2 for a usage error, 0 for --help.
    let cli = Cli::parse();
    match cli.command {
        Command::Query { file } => query(file, query_line),
        Command::Cast { file } => query(file, cast::answer_line),
        Command::Pairs {
            scene,
            layers,
            contacts,
            broad,
        } => match map_or_scene(&scene, &layers) {
            Err(code) => code,
            Ok(true) => maps::pairs_command(&scene, &layers, contacts, broad),
            Ok(false) => pairs_command(&scene, contacts, broad),
        },
        Command::Render {
            scene,
            layers,
            output,
            debug,
            broad,
            y_down,
            width,
        } => {
            let options = render::Options {
                width: f64::from(width),
                y_down,
                debug,
            };
            match map_or_scene(&scene, &layers) {
                Err(code) => code,
                Ok(true) => {
                    maps::render_command(&scene, &layers, output.as_deref(), broad, &options)
                }
                Ok(false) => render_command(&scene, output.as_deref(), broad, &options),
            }
        }
        Command::Serve { port, dir } => serve_command(port, &dir),
        Command::Demo {
            files,
            cases,
            frames,
            bullets,
            seed,
            every,
            svg,
            debug,
        } => {
            if files.is_empty() && !cases {
                let settings = sim::Settings {
                    frames,
                    bullets,
                    seed,
                    every,
                };
                return simulate(&settings, svg.as_deref(), debug);
            }
            if let Some(path) = svg {
                let options = render::Options {
                    width: 960.0,
                    debug,
                    ..render::Options::default()
                };
                let picture = match demo::svg(&options) {
                    Ok(picture) => picture,
                    Err(e) => {
                        eprintln!("collide2d: demo shape: {e}");
                        return ExitCode::from(2);
                    }
                };
                if let Err(e) = std::fs::write(&path, picture) {
                    eprintln!("collide2d: cannot write {}: {e}", path.display());
                    return ExitCode::from(2);
                }
            }
            let mut out = BufWriter::new(io::stdout().lock());
            let result = if files.is_empty() {
                demo::run(&mut out)
                    .map(|()| true)
                    .map_err(demo::FileError::Write)
            } else {
                demo::run_files(&mut out, &files)
            };
            match result.and_then(|ok| out.flush().map(|()| ok).map_err(demo::FileError::Write)) {
                Ok(true) => ExitCode::SUCCESS,
                Ok(false) => ExitCode::from(1),
                Err(demo::FileError::Read(name, e)) => {
                    eprintln!("collide2d: cannot read {name}: {e}");
                    ExitCode::from(2)
                }
                Err(demo::FileError::Write(e)) => {
                    eprintln!("collide2d: cannot write output: {e}");
                    ExitCode::from(2)
                }
            }
        }
    }
}

/// Whether `path` is a map (by its extension); `--layer` with a scene file is a usage error.
fn map_or_scene(path: &Path, layers: &[String]) -> Result<bool, ExitCode> {
    let map = collide2d_cli::level::is_map_file(path);
    if !map && !layers.is_empty() {
        eprintln!(
            "collide2d: --layer applies to maps only (.tmx, .tmj, .ldtk), not to {}",
            path.display()
        );
        return Err(ExitCode::from(2));
    }
    Ok(map)
}

fn render_command(
    scene: &Path,
    output: Option<&Path>,
    broad: collide2d::BroadPhase,
    options: &render::Options,
) -> ExitCode {
    let text = scene_file::read_scene_file(scene, MAX_SCENE_BYTES).and_then(|bytes| {
        String::from_utf8(bytes)
            .map_err(|e| LoadError::Read(io::Error::new(io::ErrorKind::InvalidData, e)))
    });
    let text = match text {
        Ok(text) => text,
        Err(e) => return load_failed(scene, e),
    };
    let picture = match render::ScenePicture::load(&text, broad) {
        Ok(picture) => picture,
        Err(e) => {
            eprintln!("collide2d: {}: {e}", scene.display());
            return ExitCode::from(1);
        }
    };
    write_output(output, |out| picture.write_svg(options, out))
}

/// Streams what `write` writes to `output` (standard output when `None` or `-`), so a picture
/// is never held whole in memory; status 2 with a message when it cannot be written.
fn write_output(
    output: Option<&Path>,
    write: impl FnOnce(&mut io::BufWriter<Box<dyn Write + '_>>) -> io::Result<()>,
) -> ExitCode {
    let (sink, name): (Box<dyn Write>, String) = match output {
        Some(path) if path.as_os_str() != "-" => match File::create(path) {
            Ok(file) => (Box::new(file), path.display().to_string()),
            Err(e) => {
                eprintln!("collide2d: cannot write {}: {e}", path.display());
                return ExitCode::from(2);
            }
        },
        _ => (Box::new(io::stdout().lock()), "output".to_string()),
    };
    let mut out = io::BufWriter::new(sink);
    match write(&mut out).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("collide2d: cannot write {name}: {e}");
            ExitCode::from(2)
        }
    }
}

fn serve_command(port: u16, dir: &Path) -> ExitCode {
    if !dir.is_dir() {
        eprintln!("collide2d: cannot serve {}: not a directory", dir.display());
        return ExitCode::from(2);
    }
    let listener = match serve::bind(port) {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("collide2d: cannot listen on 127.0.0.1:{port}: {e}");
            return ExitCode::from(2);
        }
    };
    let address = listener
        .local_addr()
        .map_or_else(|_| format!("127.0.0.1:{port}"), |a| a.to_string());
    // Scripts (the browser test) read this line to learn the port.
    println!("serving {} at http://{address}/", dir.display());
    let _ = io::stdout().flush();
    match serve::run(&listener, dir) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("collide2d: serving stopped: {e}");
            ExitCode::from(2)
        }
    }
}

/// `collide2d demo` without files: the shoot-'em-up, and its last frame as SVG when asked.
fn simulate(settings: &sim::Settings, svg: Option<&std::path::Path>, debug: bool) -> ExitCode {
    let mut out = BufWriter::new(io::stdout().lock());
    let picture = svg.map(|_| render::Options {
        width: 1200.0,
        y_down: true,
        debug,
    });
    match sim::run(&mut out, settings, picture.as_ref()).and_then(|p| Ok((p, out.flush()?))) {
        Ok((picture, ())) => match (svg, picture) {
            (Some(path), Some(picture)) => {
                if let Err(e) = std::fs::write(path, picture) {
                    eprintln!("collide2d: cannot write {}: {e}", path.display());
                    return ExitCode::from(2);
                }
                ExitCode::SUCCESS
            }
            _ => ExitCode::SUCCESS,
        },
        Err(sim::Fault::Write(e)) => {
            eprintln!("collide2d: cannot write output: {e}");
            ExitCode::from(2)
        }
        Err(sim::Fault::Game(e)) => {
            eprintln!("collide2d: the demo stopped: {e} (please report this)");
            ExitCode::from(1)
        }
    }
}

/// One `query` line answered: the output line or the error message.
fn query_line(line: &str) -> Result<String, String> {
    json::parse_line(line)
        .and_then(|q| q.answer())
        .and_then(|a| a.to_line())
}

/// Answers every line of `file` (standard input when `None` or `-`) with `answer`.
fn query(file: Option<PathBuf>, answer: fn(&str) -> Result<String, String>) -> ExitCode {
    let input: Box<dyn BufRead> = match file.as_deref() {
        None => Box::new(io::stdin().lock()),
        Some(path) if path.as_os_str() == "-" => Box::new(io::stdin().lock()),
        Some(path) => match File::open(path) {
            Ok(f) => Box::new(BufReader::new(f)),
            Err(e) => {
                eprintln!("collide2d: cannot read {}: {e}", path.display());
                return ExitCode::from(2);
            }
        },
    };
    let name = file.map_or_else(|| "standard input".to_string(), |p| p.display().to_string());
    let mut out = BufWriter::new(io::stdout().lock());
    let result = answer_lines(input, &mut out, answer)
        .and_then(|ok| out.flush().map(|()| ok).map_err(Fatal::Write));
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(Fatal::Read(e)) => {
            // Answers to the lines before the failure are still delivered.
            let _ = out.flush();
            eprintln!("collide2d: cannot read {name}: {e}");
            ExitCode::from(2)
        }
        Err(Fatal::Write(e)) => {
            eprintln!("collide2d: cannot write output: {e}");
            ExitCode::from(2)
        }
    }
}

/// Says why the scene at `path` did not load: status 2 when it could not be read, 1 when it is
/// not a scene within the limits.
fn load_failed(path: &Path, e: LoadError) -> ExitCode {
    match e {
        LoadError::Read(e) => {
            eprintln!("collide2d: cannot read {}: {e}", path.display());
            ExitCode::from(2)
        }
        LoadError::Scene(e) => {
            eprintln!("collide2d: {}: {e}", path.display());
            ExitCode::from(1)
        }
    }
}

/// `collide2d pairs`: loads the whole scene (so a scene that fails prints nothing on standard
/// output: status 1, the message on standard error), then writes each pair as it is found.
fn pairs_command(path: &Path, contacts: bool, broad: collide2d::BroadPhase) -> ExitCode {
    let scene = match scene_file::load_scene(path) {
        Ok(scene) => scene,
        Err(e) => return load_failed(path, e),
    };
    write_scene_pairs(path, &scene, broad, contacts)
}

/// Writes a loaded scene's pairs to standard output as they are found; status 1 with the
/// message when an object cannot enter the world, 2 when the output cannot be written.
fn write_scene_pairs(
    path: &Path,
    scene: &collide2d_cli::scene::Scene,
    broad: collide2d::BroadPhase,
    contacts: bool,
) -> ExitCode {
    let mut out = BufWriter::new(io::stdout().lock());
    match pairs::write_pairs(scene, broad, contacts, &mut out)
        .and_then(|()| out.flush().map_err(PairsError::Write))
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(PairsError::Scene(message)) => {
            let _ = out.flush();
            eprintln!("collide2d: {}: {message}", path.display());
            ExitCode::from(1)
        }
        Err(PairsError::Write(e)) => {
            eprintln!("collide2d: cannot write output: {e}");
            ExitCode::from(2)
        }
    }
}

/// Answers every line of `input` on `out`; `Ok(true)` when no line had an error.
fn answer_lines(
    mut input: impl BufRead,
    out: &mut impl Write,
    answer: fn(&str) -> Result<String, String>,
) -> Result<bool, Fatal> {
    let mut buf = Vec::new();
    let mut all_ok = true;
    let mut line_number = 0u64;
    while let Some(line) = read_line(&mut input, &mut buf, MAX_LINE_BYTES).map_err(Fatal::Read)? {
        line_number += 1;
        let answer = match line {
            Line::TooLong { len } => Err(format!(
                "line is {len} bytes long, over the limit of {MAX_LINE_BYTES} bytes (MAX_LINE_BYTES)"
            )),
            Line::Fits => {
                let bytes = buf.strip_suffix(b"\r").unwrap_or(&buf);
                std::str::from_utf8(bytes)
                    .map_err(|e| format!("invalid UTF-8 at byte {}", e.valid_up_to() + 1))
                    .and_then(answer)
            }
        };
        let line = answer.unwrap_or_else(|message| {
            all_ok = false;
            json::error_line(line_number, &message)
        });
        writeln!(out, "{line}").map_err(Fatal::Write)?;
    }
    Ok(all_ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(input: &str) -> (bool, String) {
        let mut out = Vec::new();
        let ok = answer_lines(input.as_bytes(), &mut out, query_line)
            .ok()
            .unwrap();
        (ok, String::from_utf8(out).unwrap())
    }

    #[test]
    fn every_line_gets_one_answer_in_order() {
        let good = r#"{"a": {"type": "point", "p": [0, 0]}, "b": {"type": "point", "p": [3, 4]}}"#;
        let (ok, out) = run(&format!("{good}\n\n{good}\r\nnot json\n{good}"));
        assert!(!ok);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 5);
        let miss = r#"{"intersects": false, "distance": 5, "contact": null}"#;
        assert_eq!(lines[0], miss);
        assert!(
            lines[1].starts_with(r#"{"error": "line 2: empty line"#),
            "{}",
            lines[1]
        );
        assert_eq!(lines[2], miss);
        assert!(
            lines[3].starts_with(r#"{"error": "line 4: invalid JSON"#),
            "{}",
            lines[3]
        );
        assert_eq!(lines[4], miss);
    }

    #[test]
    fn a_line_over_the_length_limit_is_an_error_and_the_rest_is_answered() {
        let good = r#"{"a": {"type": "point", "p": [0, 0]}, "b": {"type": "point", "p": [3, 4]}}"#;
        // A valid query padded with spaces past the limit: still refused, by its length.
        let long = format!("{}{good}", " ".repeat(MAX_LINE_BYTES));
        let (ok, out) = run(&format!("{good}\n{long}\n{good}\n"));
        assert!(!ok);
        let lines: Vec<&str> = out.lines().collect();
        let miss = r#"{"intersects": false, "distance": 5, "contact": null}"#;
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0], miss);
        assert_eq!(
            lines[1],
            format!(
                r#"{{"error": "line 2: line is {} bytes long, over the limit of 1048576 bytes (MAX_LINE_BYTES)"}}"#,
                long.len()
            )
        );
        assert_eq!(lines[2], miss);
        // Exactly at the limit, the line is read.
        let at_limit = format!("{}{good}", " ".repeat(MAX_LINE_BYTES - good.len()));
        assert_eq!(run(&at_limit), (true, format!("{miss}\n")));
    }

    #[test]
    fn a_line_of_exactly_the_limit_ending_in_crlf_is_read() {
        // The `\r` before the break is ignored, so it does not count against the limit.
        let good = r#"{"a": {"type": "point", "p": [0, 0]}, "b": {"type": "point", "p": [3, 4]}}"#;
        let at_limit = format!("{}{good}", " ".repeat(MAX_LINE_BYTES - good.len()));
        let miss = r#"{"intersects": false, "distance": 5, "contact": null}"#;
        let crlf = format!("{at_limit}\r\n{at_limit}\r\n");
        assert_eq!(run(&crlf), (true, format!("{miss}\n{miss}\n")));
        // One byte more is over it, and says the length without the `\r`.
        let (ok, out) = run(&format!(" {at_limit}\r\n"));
        assert!(!ok);
        assert!(
            out.contains("line is 1048577 bytes long, over the limit of 1048576 bytes"),
            "{out}"
        );
    }

    #[test]
    fn invalid_utf8_is_an_error_line() {
        let mut out = Vec::new();
        let ok = answer_lines(&b"{\"a\xff\n"[..], &mut out, query_line)
            .ok()
            .unwrap();
        assert!(!ok);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"error\": \"line 1: invalid UTF-8 at byte 4\"}\n"
        );
    }

    #[test]
    fn empty_input_is_answered_by_nothing() {
        assert_eq!(run(""), (true, String::new()));
    }
}
