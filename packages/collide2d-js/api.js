// The package's shapes and pair queries: the wasm module's, with plain objects out of the
// scratch buffer (./core.js) for the structured answers, no JSON on the way; the yes/no tests
// of circles and boxes mostly decided in JS (./simple.js).
import {
  Shape,
  distance,
  distanceToPoint,
  rawContact,
  rawClosestPoints,
  rawProjectPoint,
  rawCastRay,
  rawCastShapes,
} from './wasm/collide2d_js.js';
import { contactAt, out, xy, heapBytes } from './core.js';
import { init, keepCircle, keepBox, keepCopy, forget } from './simple.js';

export { Shape, distance, distanceToPoint, heapBytes };
export { intersects, intersectsMany, contains, containsPoint } from './simple.js';
export { World, handleIndex } from './world.js';

// Circles and boxes keep their numbers on the JS side too (./simple.js), so that most of
// their pair and point tests need no call into wasm. Every Shape object, however it is made
// (wasm-bindgen makes them all in its static Shape.__wrap, which its generated code calls by
// that name), first gets the fields those numbers go in, so that all shapes share one hidden
// class.
const wrap = Shape.__wrap;
Shape.__wrap = (ptr) => init(wrap(ptr));
const wasm = {
  circle: Shape.circle,
  rect: Shape.rect,
  aabb: Shape.aabb,
  clone: Shape.prototype.clone,
  destroy: Shape.prototype.__destroy_into_raw,
};
Shape.circle = (x, y, r) => keepCircle(wasm.circle(x, y, r), x, y, r);
const keptBox = (shape) => {
  shape.rawBounds();
  const o = out();
  return keepBox(shape, o[0], o[1], o[2], o[3]);
};
Shape.rect = (x, y, w, h) => keptBox(wasm.rect(x, y, w, h));
Shape.aabb = (minX, minY, maxX, maxY) => keptBox(wasm.aabb(minX, minY, maxX, maxY));
Shape.prototype.clone = function clone() {
  return keepCopy(this, wasm.clone.call(this));
};
// Every way a shape gives up its wasm memory (free(), Symbol.dispose, or being passed by value
// to a wasm function that takes it) goes through wasm-bindgen's __destroy_into_raw: the shape
// forgets its JS-side numbers there, so that using it afterwards throws, as before.
Shape.prototype.__destroy_into_raw = function destroyIntoRaw() {
  forget(this);
  return wasm.destroy.call(this);
};

Shape.compound = (parts) => {
  if (!Array.isArray(parts)) throw new Error(`compound.parts must be an array, got ${typeof parts}`);
  for (const [i, p] of parts.entries()) {
    if (!(p instanceof Shape)) throw new Error(`compound.parts[${i}] must be a Shape`);
  }
  return Shape.compoundOwned(parts.map((p) => p.clone()));
};
Shape.fromJSON = (value) => Shape.fromJsonText(typeof value === 'string' ? value : JSON.stringify(value));
Shape.prototype.toJSON = function toJSON() {
  return JSON.parse(this.toJsonText());
};
Shape.prototype.bounds = function bounds() {
  this.rawBounds();
  const o = out();
  return { minX: o[0], minY: o[1], maxX: o[2], maxY: o[3] };
};

export function contact(a, b) {
  return rawContact(a, b) ? contactAt(out(), 0) : null;
}

export function closestPoints(a, b) {
  if (!rawClosestPoints(a, b)) return null;
  const o = out();
  return { distance: o[0], a: xy(o[1], o[2]), b: xy(o[3], o[4]) };
}

export function projectPoint(shape, x, y) {
  rawProjectPoint(shape, x, y);
  const o = out();
  return { x: o[0], y: o[1], inside: o[2] === 1 };
}

export function castRay(shape, ox, oy, dx, dy, maxT = Infinity) {
  if (!rawCastRay(shape, ox, oy, dx, dy, maxT)) return null;
  const o = out();
  return { t: o[0], point: xy(o[1], o[2]), normal: xy(o[3], o[4]) };
}

export function castShapes(a, vax, vay, b, vbx, vby) {
  if (!rawCastShapes(a, vax, vay, b, vbx, vby)) return null;
  const o = out();
  return { t: o[0], point: xy(o[1], o[2]), normal: xy(o[3], o[4]), depth: o[5] };
}
