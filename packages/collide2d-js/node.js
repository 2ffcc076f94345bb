// Entry point for node: reads the .wasm beside this file and instantiates it synchronously,
// then the package's API.
import { readFileSync } from 'node:fs';
import { initSync } from './wasm/collide2d_js.js';
import { setup } from './core.js';

setup(initSync({ module: readFileSync(new URL('./wasm/collide2d_js_bg.wasm', import.meta.url)) }));

export * from './api.js';
