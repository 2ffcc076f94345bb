//! Running the built `collide2d` binary from the integration tests.
#![allow(dead_code)] // each test file uses its own part

use std::io::Write;
use std::process::{Command, Output, Stdio};

pub const BIN: &str = env!("CARGO_BIN_EXE_collide2d");

/// The `collide2d` command, its address space capped at `megabytes` (`ulimit -v`, through
/// `sh`) when given.
pub fn collide2d(megabytes: Option<u64>) -> Command {
    match megabytes {
        None => Command::new(BIN),
        Some(mb) => {
            let mut sh = Command::new("sh");
            sh.arg("-c")
                .arg(format!("ulimit -v {}; exec \"$0\" \"$@\"", mb * 1024))
                .arg(BIN);
            sh
        }
    }
}

/// Runs `command` with `args`, standard input from `stdin` when given (a broken pipe is
/// ignored: the command may stop reading early), and collects its output.
pub fn run(mut command: Command, args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = command
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the collide2d binary runs");
    if let Some(input) = stdin {
        let mut pipe = child.stdin.take().expect("piped stdin");
        let _ = pipe.write_all(input);
    }
    child
        .wait_with_output()
        .expect("the collide2d binary finishes")
}
