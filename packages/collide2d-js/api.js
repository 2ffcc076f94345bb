// The package's shapes and pair queries: the wasm module's, with plain objects out of the
// scratch buffer (./core.js) for the structured answers, no JSON on the way.
import {
  Shape,
  intersects,
  distance,
  contains,
  containsPoint,
  distanceToPoint,
  rawContact,
  rawClosestPoints,
  rawProjectPoint,
  rawCastRay,
  rawCastShapes,
} from './wasm/collide2d_js.js';
import { contactAt, out, xy, heapBytes } from './core.js';

export { Shape, intersects, distance, contains, containsPoint, distanceToPoint, heapBytes };
export { World, handleIndex } from './world.js';

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
if (typeof Symbol.dispose === 'symbol' && !Shape.prototype[Symbol.dispose]) {
  Shape.prototype[Symbol.dispose] = Shape.prototype.free;
}

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
