// Entry point for browsers and bundlers: fetches and instantiates the .wasm beside this file
// (top-level await: importers wait until it is ready), then the package's API.
import init from './wasm/collide2d_js.js';
import { setup } from './core.js';

setup(await init({ module_or_path: new URL('./wasm/collide2d_js_bg.wasm', import.meta.url) }));

export * from './api.js';
