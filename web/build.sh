#!/usr/bin/env bash
# Builds the playground: collide2d-wasm compiled to WebAssembly, bound for the browser into web/pkg.
# Installs what it needs: the wasm32 target (rustup) and wasm-bindgen-cli from crates.io, at the
# version of the wasm-bindgen crate pinned in crates/collide2d-wasm/Cargo.toml.
# Then serve web/ with `collide2d serve web` (or any static file server) and open the address shown.
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)"$/\1/p' crates/collide2d-wasm/Cargo.toml)
if [ -z "$version" ]; then
  echo "build.sh: no pinned wasm-bindgen version in crates/collide2d-wasm/Cargo.toml" >&2
  exit 2
fi
rustup target add wasm32-unknown-unknown
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $version" ]; then
  # No TLS features: the command-line tool never downloads anything here, and this halves its build.
  cargo install wasm-bindgen-cli --version "$version" --no-default-features
fi
cargo build --release --target wasm32-unknown-unknown -p collide2d-wasm
wasm-bindgen --target web --no-typescript --out-dir web/pkg \
  target/wasm32-unknown-unknown/release/collide2d_wasm.wasm
echo "built web/pkg ($(du -k web/pkg/collide2d_wasm_bg.wasm | cut -f1) KiB of wasm)"
