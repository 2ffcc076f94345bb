#!/usr/bin/env bash
# Builds the playground: collide2d-wasm compiled to WebAssembly, bound for the browser into web/pkg.
# Installs what it needs: the wasm32 target (rustup) and wasm-bindgen-cli from crates.io, at the
# version of the wasm-bindgen crate pinned in crates/collide2d-wasm/Cargo.toml.
# Then serve web/ with `collide2d serve web` (or any static file server) and open the address shown.
set -euo pipefail
cd "$(dirname "$0")/.."
source web/wasm-bindgen.sh crates/collide2d-wasm/Cargo.toml
cargo build --release --target wasm32-unknown-unknown -p collide2d-wasm
wasm-bindgen --target web --no-typescript --out-dir web/pkg \
  target/wasm32-unknown-unknown/release/collide2d_wasm.wasm
echo "built web/pkg ($(du -k web/pkg/collide2d_wasm_bg.wasm | cut -f1) KiB of wasm)"
