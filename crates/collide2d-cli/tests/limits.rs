//! Issue 16's limits on hostile scene files, through the built `collide2d` binary: each limit is
//! met before the memory is spent, and a refused scene costs a small multiple of its text
//! (checked under `ulimit -v`, so a regression aborts instead of passing slowly).
#![cfg(unix)]
#![allow(clippy::expect_used, clippy::panic)] // a test harness: failing loudly is its job

mod common;

use std::fs;
use std::path::PathBuf;
use std::process::Output;

use collide2d::limits::{MAX_SCENE_BYTES, MAX_SCENE_OBJECTS};

/// A scene file of the test's own, in cargo's temporary directory for integration tests.
fn scene_file(name: &str, text: &[u8]) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("limits-{name}.json"));
    fs::write(&path, text).expect("the test scene is written");
    path
}

/// `collide2d ARGS` with its address space capped at `megabytes`.
fn run_capped(megabytes: u64, args: &[&str], stdin: Option<Vec<u8>>) -> Output {
    common::run(common::collide2d(Some(megabytes)), args, stdin.as_deref())
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_scene_over_max_scene_bytes_is_refused_before_it_is_read() {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("limits-too-large.json");
    let file = fs::File::create(&path).expect("the test file is created");
    // Sparse: no disk space, but its size is one byte over the limit.
    file.set_len(MAX_SCENE_BYTES as u64 + 1)
        .expect("the file takes its size");
    let out = run_capped(64, &["pairs", path.to_str().expect("UTF-8 path")], None);
    fs::remove_file(&path).expect("the test file is removed");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    assert!(
        stderr(&out).ends_with(
            ": the scene is 268435457 bytes long, over the limit of 268435456 bytes (MAX_SCENE_BYTES)\n"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_scene_over_max_scene_bytes_on_standard_input_is_refused_at_the_limit() {
    let mut text = b"{\"objects\": []}".to_vec();
    text.resize(MAX_SCENE_BYTES + 1, b' ');
    let out = run_capped(1024, &["pairs", "-"], Some(text));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).ends_with(
            ": the scene is more than 268435456 bytes long, over the limit of 268435456 bytes (MAX_SCENE_BYTES)\n"
        ),
        "{}",
        stderr(&out)
    );
}

/// `{"objects": [0, 0, ...]}` with `n` items: the count is checked before any item is read.
fn zeros(n: usize) -> Vec<u8> {
    let mut text = b"{\"objects\": [0".to_vec();
    text.extend(b",0".repeat(n - 1));
    text.extend(b"]}");
    text
}

#[test]
fn a_scene_over_max_scene_objects_is_refused_while_it_is_read() {
    let over = scene_file("objects-over", &zeros(MAX_SCENE_OBJECTS + 1));
    let out = run_capped(256, &["pairs", over.to_str().expect("UTF-8 path")], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out)
            .ends_with(": objects holds more than 1048576 objects (limit MAX_SCENE_OBJECTS)\n"),
        "{}",
        stderr(&out)
    );
    // At the limit the objects are read: the first one is the error.
    let at = scene_file("objects-at", &zeros(MAX_SCENE_OBJECTS));
    let out = run_capped(256, &["pairs", at.to_str().expect("UTF-8 path")], None);
    assert!(
        stderr(&out).ends_with(
            ": objects[0]: expected an object {\"id\": ..., \"shape\": ...}, got a number\n"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_refused_polygon_costs_a_small_multiple_of_its_text() {
    // 250,000 `[0, 0]` points: a 2 MB file, refused at point 129, in about 10 MB of address
    // space (most of it the program's own); parsed into a tree of values first (as before
    // issue 16) it took about 30 times its size.
    let mut text =
        br#"{"objects": [{"id": "p", "shape": {"type": "polygon", "points": [[0, 0]"#.to_vec();
    text.extend(b", [0, 0]".repeat(249_999));
    text.extend(b"]}}]}");
    let path = scene_file("many-points", &text);
    let out = run_capped(32, &["pairs", path.to_str().expect("UTF-8 path")], None);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).ends_with(
            ": objects[0] \"p\": polygon.points must hold at most 128 points (limit MAX_POLYGON_POINTS), got 250000\n"
        ),
        "{}",
        stderr(&out)
    );
}
