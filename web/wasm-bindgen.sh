#!/usr/bin/env bash
# Sourced by web/build.sh and packages/collide2d-js/build.sh: installs the wasm32 target
# (rustup) and wasm-bindgen-cli of exactly the version pinned in the crate manifest given as
# $1 (crates.io; about 5 minutes to build on 2 cores, once).
manifest=$1
version=$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)"$/\1/p' "$manifest")
if [ -z "$version" ]; then
  echo "no pinned wasm-bindgen version in $manifest" >&2
  exit 2
fi
rustup target add wasm32-unknown-unknown
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $version" ]; then
  # No TLS features: the command-line tool never downloads anything here, and this halves its build.
  cargo install wasm-bindgen-cli --version "$version" --no-default-features
fi
