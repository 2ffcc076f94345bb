// Runs a wasm32-wasip1 program (a test binary) under node's WASI, passing the arguments on.
// Usage: node .ci/wasi-run.mjs PROGRAM.wasm [ARGS...]; exits with the program's status.
import { readFile } from "node:fs/promises";
import { WASI } from "node:wasi";
import { argv, env, exit } from "node:process";

const [path, ...args] = argv.slice(2);
const wasi = new WASI({ version: "preview1", args: [path, ...args], env, returnOnExit: true });
const module = await WebAssembly.compile(await readFile(path));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
exit(wasi.start(instance));
