//! Detects whether the compiler has the AVX-512 intrinsics (stable since Rust 1.89), so the
//! crate keeps building on its MSRV (1.87, the first with safe `_mm_*` calls inside
//! `#[target_feature]` functions) and gets the AVX-512 kernel on newer compilers.

use std::env;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rustc-check-cfg=cfg(collide2d_avx512)");
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let minor = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .and_then(|v| {
            // "rustc 1.95.0 (...)" or "rustc 1.97.0-nightly (...)"
            let version = v.split_whitespace().nth(1)?.to_owned();
            let mut parts = version.split('.');
            let major: u32 = parts.next()?.parse().ok()?;
            let minor: u32 = parts.next()?.parse().ok()?;
            (major == 1).then_some(minor)
        });
    if minor.is_some_and(|m| m >= 89) {
        println!("cargo:rustc-cfg=collide2d_avx512");
    }
}
