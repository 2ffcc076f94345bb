//! Runs the built `collide2d` binary on formats.md's contract.
//!
//! Every `tests/conformance/NAME.jsonl` at the workspace root is fed to `collide2d query NAME.jsonl`
//! (and every `tests/conformance/cast/NAME.jsonl` to `collide2d cast`); its sibling
//! `NAME.expected` holds the exact standard output. The exit status must follow from
//! that output as formats.md says: 1 when some expected line is an `error` object, else 0. One
//! formats.md rule per file. Every scene `tests/conformance/pairs/NAME.json` is fed to
//! `collide2d pairs` (with `--contacts` when NAME starts with `contacts_`): standard output must
//! equal `NAME.expected`; when `NAME.stderr` exists the status must be 1 and standard error must
//! end with `: ` and its text, else the status is 0. The other tests cover standard input and exit
//! status 2.
#![allow(clippy::expect_used, clippy::panic)] // a test harness: failing loudly is its job

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

fn conformance_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance")
}

fn run(args: &[&str], stdin: Option<&str>) -> Output {
    common::run(common::collide2d(None), args, stdin.map(str::as_bytes))
}

#[test]
fn every_case_file_gives_its_expected_output_and_status() {
    check_case_files(&conformance_dir(), "query", 5);
}

#[test]
fn every_cast_case_file_gives_its_expected_output_and_status() {
    check_case_files(&conformance_dir().join("cast"), "cast", 2);
}

/// Feeds every `dir/NAME.jsonl` to `collide2d COMMAND NAME.jsonl` and compares with
/// `NAME.expected`; at least `min_cases` files.
fn check_case_files(dir: &Path, command: &str, min_cases: usize) {
    let mut cases: Vec<PathBuf> = fs::read_dir(dir)
        .expect("tests/conformance exists")
        .map(|entry| entry.expect("readable directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    cases.sort();
    assert!(
        cases.len() >= min_cases,
        "expected the conformance cases, found {cases:?}"
    );
    let mut failures = Vec::new();
    for case in &cases {
        let expected_path = case.with_extension("expected");
        let expected = fs::read_to_string(&expected_path).unwrap_or_else(|e| {
            panic!("{} needs {}: {e}", case.display(), expected_path.display())
        });
        let input_lines = fs::read_to_string(case)
            .expect("readable case")
            .lines()
            .count();
        assert_eq!(
            expected.lines().count(),
            input_lines,
            "{}: one expected line per input line",
            case.display()
        );
        let out = run(&[command, case.to_str().expect("UTF-8 path")], None);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let want_status = if expected.lines().any(|l| l.starts_with(r#"{"error": "#)) {
            1
        } else {
            0
        };
        if stdout != expected || out.status.code() != Some(want_status) {
            failures.push(format!(
                "{}: status {:?} (want {want_status})\n--- got\n{stdout}--- want\n{expected}--- stderr\n{}",
                case.display(),
                out.status.code(),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_scene_gives_its_expected_pairs_and_status() {
    let mut cases: Vec<PathBuf> = fs::read_dir(conformance_dir().join("pairs"))
        .expect("tests/conformance/pairs exists")
        .map(|entry| entry.expect("readable directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    cases.sort();
    assert!(
        cases.len() >= 5,
        "expected the scene cases, found {cases:?}"
    );
    let mut failures = Vec::new();
    for case in &cases {
        let expected_path = case.with_extension("expected");
        let expected = fs::read_to_string(&expected_path).unwrap_or_else(|e| {
            panic!("{} needs {}: {e}", case.display(), expected_path.display())
        });
        let want_error = fs::read_to_string(case.with_extension("stderr")).ok();
        let name = case
            .file_name()
            .and_then(|n| n.to_str())
            .expect("UTF-8 name");
        let path = case.to_str().expect("UTF-8 path");
        // The default broad phase, then others, which must not change a byte.
        for broad in [None, Some("grid:1.5"), Some("tree:0")] {
            let mut args = vec!["pairs", path];
            if name.starts_with("contacts_") {
                args.push("--contacts");
            }
            if let Some(broad) = broad {
                args.extend(["--broad", broad]);
            }
            let out = run(&args, None);
            let stdout = String::from_utf8_lossy(&out.stdout);
            let stderr = String::from_utf8_lossy(&out.stderr);
            let (want_status, stderr_ok) = match &want_error {
                Some(message) => (1, stderr.ends_with(&format!(": {message}"))),
                None => (0, stderr.is_empty()),
            };
            if stdout != expected || out.status.code() != Some(want_status) || !stderr_ok {
                failures.push(format!(
                    "{} {args:?}: status {:?} (want {want_status})\n--- got\n{stdout}--- want\n{expected}--- stderr\n{stderr}--- want stderr ending\n{}",
                    case.display(),
                    out.status.code(),
                    want_error.as_deref().unwrap_or("(nothing)")
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn pairs_with_a_bad_broad_phase_exit_2_and_say_what_is_expected() {
    let out = run(
        &[
            "pairs",
            "tests/conformance/pairs/no-such-scene.json",
            "--broad",
            "grid:0",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("grid cell_size must be finite and > 0, got 0"),
        "{stderr}"
    );
}

#[test]
fn pairs_of_an_unreadable_scene_exit_2() {
    let out = run(
        &["pairs", "tests/conformance/pairs/no-such-scene.json"],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

#[test]
fn mixed_good_and_bad_lines_on_stdin_answer_every_line_and_exit_1() {
    let good = r#"{"a": {"type": "circle", "center": [0, 0], "radius": 1}, "b": {"type": "rect", "x": 2, "y": -1, "w": 2, "h": 2}}"#;
    let hit = r#"{"a": {"type": "circle", "center": [0, 0], "radius": 1}, "b": {"type": "circle", "center": [2, 0], "radius": 1}}"#;
    let bad_radius = r#"{"a": {"type": "circle", "center": [0, 0], "radius": -1}, "b": {"type": "point", "p": [0, 0]}}"#;
    let input = [good, "{not json", hit, "", bad_radius, good].join("\n") + "\n";
    let out = run(&["query"], Some(&input));
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).expect("UTF-8 output");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 6, "{stdout}");
    let miss = r#"{"intersects": false, "distance": 1, "contact": null}"#;
    assert_eq!(lines[0], miss);
    assert!(
        lines[1].starts_with(r#"{"error": "line 2: invalid JSON"#),
        "{}",
        lines[1]
    );
    assert_eq!(
        lines[2],
        r#"{"intersects": true, "distance": 0, "contact": {"normal": [1, 0], "depth": 0, "points": [[1, 0]]}}"#
    );
    assert!(
        lines[3].starts_with(r#"{"error": "line 4: empty line"#),
        "{}",
        lines[3]
    );
    assert_eq!(
        lines[4],
        r#"{"error": "line 5: a: circle.radius must be >= 0, got -1"}"#
    );
    assert_eq!(lines[5], miss);
    for line in lines {
        serde_json::from_str::<serde_json::Value>(line).expect("every output line is JSON");
    }
}

#[test]
fn good_lines_on_stdin_exit_0_and_last_line_needs_no_line_break() {
    let line = r#"{"a": {"type": "point", "p": [0, 0]}, "b": {"type": "point", "p": [3, 4]}}"#;
    let out = run(&["query", "-"], Some(&format!("{line}\r\n{line}")));
    assert_eq!(out.status.code(), Some(0));
    let miss = r#"{"intersects": false, "distance": 5, "contact": null}"#;
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("{miss}\n{miss}\n")
    );
}

#[test]
fn unreadable_file_exits_2_with_a_message() {
    let out = run(&["query", "tests/conformance/no-such-file.jsonl"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("cannot read tests/conformance/no-such-file.jsonl"),
        "{stderr}"
    );

    let dir = conformance_dir();
    let out = run(&["query", dir.to_str().expect("UTF-8 path")], None);
    assert_eq!(
        out.status.code(),
        Some(2),
        "a directory is not a readable file"
    );
}

#[test]
fn bad_command_lines_exit_2_with_usage_and_no_backtrace() {
    for args in [
        &[][..],
        &["frobnicate"],
        &["query", "a.jsonl", "b.jsonl"],
        &["query", "--bogus"],
    ] {
        let out = run(args, None);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("Usage: collide2d"), "{args:?}: {stderr}");
        assert!(
            !stderr.contains("panicked") && !stderr.contains("backtrace"),
            "{args:?}: {stderr}"
        );
    }
    let help = run(&["--help"], None);
    assert_eq!(help.status.code(), Some(0));
}

#[test]
fn demo_runs_the_shoot_em_up_and_sums_it_up() {
    let out = run(&["demo", "--frames", "60", "--bullets", "3000"], None);
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout);
    for label in [
        "frame",
        "summary",
        "colliding pairs",
        "update time",
        "checksum",
    ] {
        assert!(stdout.contains(label), "{label}: {stdout}");
    }
    // Rows for frames 0, 20, 40 and the last one, 59.
    let rows = stdout
        .lines()
        .filter(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|w| w.parse::<u32>().is_ok())
        })
        .count();
    assert_eq!(rows, 4, "{stdout}");
}

#[test]
fn demo_cases_prints_the_table() {
    let out = run(&["demo", "--cases"], None);
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let trap = stdout
        .lines()
        .find(|l| l.starts_with("circle near a box's corner"))
        .expect("the corner trap row");
    assert!(
        trap.contains("overlap") && trap.contains("miss *"),
        "{trap}"
    );
}

#[test]
fn cast_reads_standard_input_and_an_unreadable_file_exits_2() {
    let line = r#"{"a": {"type": "point", "p": [0, 0]}, "va": [4, 0], "b": {"type": "point", "p": [1, 0]}, "vb": [0, 0]}"#;
    let out = run(&["cast", "-"], Some(&format!("{line}\n{line}")));
    assert_eq!(out.status.code(), Some(0));
    let hit = r#"{"hit": true, "t": 0.25, "point": [1, 0], "normal": [1, 0]}"#;
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("{hit}\n{hit}\n")
    );
    let out = run(&["cast", "tests/conformance/no-such-file.jsonl"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}
