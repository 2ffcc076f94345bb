//! `collide2d`: the command line of FORMAT.md.
//!
//! - `collide2d query [FILE]`: pair queries as JSON Lines, from FILE or standard input (`-` also
//!   means standard input). Exactly one output line per input line, in order; a blank line is
//!   a line too and gets an `error` answer, so output line N always answers input line N. A
//!   `\r` before the line break is ignored. Input is streamed line by line, in constant memory:
//!   a line longer than `collide2d::limits::MAX_LINE_BYTES` (1 MiB) gets an error line naming
//!   the limit and is skipped without being held in memory.
//! - `collide2d demo [FILE...]`: the classic cases as a table, or the query lines of FILEs
//!   (exit status as for `query`).
//!
//! Exit status: 0 when every line was answered without error, 1 when some line had an error,
//! 2 for a bad command line, an unreadable input or an unwritable output (the message goes to
//! standard error, as does clap's usage message).

mod demo;

use collide2d::limits::MAX_LINE_BYTES;
use collide2d_cli::json;
use collide2d_cli::lines::{read_line, Line};

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Exact 2D collision queries: JSON Lines in, one answer per line out.
#[derive(Debug, Parser)]
#[command(name = "collide2d", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Answer one {"a": SHAPE, "b": SHAPE} query per line (JSON Lines, see FORMAT.md).
    Query {
        /// Input file; standard input when absent or `-`.
        file: Option<PathBuf>,
    },
    /// Print the classic collision cases as a table, or the query lines of FILEs.
    Demo {
        /// Query files (JSON Lines, as for `query`) to show instead of the classic cases.
        files: Vec<PathBuf>,
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
        Command::Query { file } => query(file),
        Command::Demo { files } => {
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

fn query(file: Option<PathBuf>) -> ExitCode {
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
    let result =
        answer_lines(input, &mut out).and_then(|ok| out.flush().map(|()| ok).map_err(Fatal::Write));
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

/// Answers every line of `input` on `out`; `Ok(true)` when no line had an error.
fn answer_lines(mut input: impl BufRead, out: &mut impl Write) -> Result<bool, Fatal> {
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
                    .and_then(json::parse_line)
                    .and_then(|q| q.answer())
                    .and_then(|a| a.to_line())
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
        let ok = answer_lines(input.as_bytes(), &mut out).ok().unwrap();
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
    fn invalid_utf8_is_an_error_line() {
        let mut out = Vec::new();
        let ok = answer_lines(&b"{\"a\xff\n"[..], &mut out).ok().unwrap();
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
