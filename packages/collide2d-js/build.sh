#!/usr/bin/env bash
# Builds the npm package's wasm/ folder: crates/collide2d-js compiled to WebAssembly (profile
# wasm-release), bound by wasm-bindgen (--target web: index.js fetches the .wasm, node.js reads
# it), then shrunk by wasm-opt when `npm install` has put binaryen in node_modules.
# Installs what it needs through web/wasm-bindgen.sh: the wasm32 target and wasm-bindgen-cli of
# the version pinned in crates/collide2d-js/Cargo.toml.
set -euo pipefail
cd "$(dirname "$0")/../.."
source web/wasm-bindgen.sh crates/collide2d-js/Cargo.toml
cargo build --profile wasm-release --target wasm32-unknown-unknown -p collide2d-js
out=packages/collide2d-js/wasm
rm -rf "$out"
wasm-bindgen --target web --no-typescript --remove-name-section --remove-producers-section --out-dir "$out" \
  target/wasm32-unknown-unknown/wasm-release/collide2d_js.wasm
wasm="$out/collide2d_js_bg.wasm"
before=$(wc -c <"$wasm")
opt=packages/collide2d-js/node_modules/.bin/wasm-opt
if [ -x "$opt" ]; then
  # The features rustc's wasm32 target enables by default, so wasm-opt accepts its output.
  # -Os, run to a fixed point: 2.1 KB smaller gzipped than -O3, and no slower in node
  # (bench/speed.mjs, alternated runs: world update 3.5-4.2 ms against 4.8-5.0).
  # --low-memory-unused: no load or store reaches the first 1,024 bytes (rustc puts the stack
  # first, below the data at 1 MiB, growing down), so constant offsets fold into the
  # instructions: 1.5 KB smaller gzipped.
  "$opt" -Os --converge --low-memory-unused --enable-bulk-memory --enable-sign-ext --enable-mutable-globals \
    --enable-nontrapping-float-to-int --enable-reference-types --enable-multivalue \
    "$wasm" -o "$wasm.opt"
  mv "$wasm.opt" "$wasm"
fi
echo "built $out: $before bytes of wasm from wasm-bindgen, $(wc -c <"$wasm") after wasm-opt," \
  "$(gzip -9c "$wasm" | wc -c) gzipped"
