// Shared by the package's modules, not exported from it: the scratch buffer through which the
// wasm module hands back numbers, and the helpers that turn them into plain objects.
import { scratchAddress } from './wasm/collide2d_js.js';

let memory;
let view = new Float64Array(0);

/** Called once by the entry point with the instantiated module's exports. */
export function setup(exports) {
  memory = exports.memory;
}

/** The scratch buffer's numbers: a view, remade when wasm memory has grown. */
export function out() {
  if (view.buffer !== memory.buffer) {
    view = new Float64Array(memory.buffer, scratchAddress(), 16);
  }
  return view;
}

/** The wasm heap's size in bytes (it only grows): for tests that nothing leaks. */
export function heapBytes() {
  return memory.buffer.byteLength;
}

// `+ 0` turns -0 into 0: a normal (1, -0) reads as (1, 0).
export const xy = (x, y) => ({ x: x + 0, y: y + 0 });

/** The code of a string option, or an Error naming the field and the values it takes. */
export function code(table, field, value) {
  const c = Object.hasOwn(table, value) ? table[value] : undefined;
  if (c === undefined) {
    const names = Object.keys(table).map((k) => `'${k}'`).join(', ');
    throw new Error(`${field} must be one of ${names}, got ${JSON.stringify(value)}`);
  }
  return c;
}

/** `numbers` read `stride` at a time into objects. */
export function list(numbers, stride, make) {
  const items = [];
  for (let i = 0; i < numbers.length; i += stride) items.push(make(numbers, i));
  return items;
}

/** 8 numbers from `at` (`[nx, ny, depth, count, p0x, p0y, p1x, p1y]`) as a contact. */
export function contactAt(o, at) {
  const points = [xy(o[at + 4], o[at + 5])];
  if (o[at + 3] === 2) points.push(xy(o[at + 6], o[at + 7]));
  return { normal: xy(o[at], o[at + 1]), depth: o[at + 2], points };
}
