// Pair and point tests of circles and axis-aligned boxes decided in JavaScript, without the
// call into wasm, where floating point proves the answer; the others go to the exact wasm test.
//
// Each circle and box made by Shape.circle, Shape.rect or Shape.aabb keeps its numbers on the
// JS side as well, as the f32 values the Rust shape holds: a circle's center and radius are
// Math.fround of the arguments (wasm-bindgen rounds a number to f32 the same way), a box's
// min/max are read back from the wasm shape once (so `x + w` is rounded exactly as Rust did).
//
// Box-box and point-in-box are comparisons only: exact in any arithmetic, decided here always.
//
// Circle tests compare d2 = dx^2 + dy^2 with s2 = s^2 (s = r1 + r2, or r for a point or a
// box's nearest point, which clamping finds exactly) in f64. The bound:
// - The inputs are f32: finite, |v| <= f32::MAX < 2^128, and multiples of 2^-149. A difference
//   or sum of two is 0 or at least 2^-149 in size and below 2^129; its square is 0 or between
//   2^-298 and 2^258. All of this lies in f64's normal range (2^-1022 .. 2^1024), so no result
//   underflows or overflows and each f64 operation is correctly rounded with relative error at
//   most u = 2^-53: fl(a op b) = (a op b)(1 + e), |e| <= u (a 0 is exact).
// - dx' = dx(1+e1); dx'^2 computed = dx^2 (1+e1)^2 (1+e2); likewise dy; their sum is rounded
//   once more, so d2' = d2 (1+t), (1-u)^4 <= 1+t <= (1+u)^4 (both terms are >= 0, so the
//   factors bound the sum). s' = s(1+e), s2' = s2 (1+t'), (1-u)^3 <= 1+t' <= (1+u)^3.
// - A hit is certain when d2 < s2, implied by d2'/(1-u)^4 < s2'/(1+u)^3, i.e. by
//   d2' (1+u)^3/(1-u)^4 < s2'. The test computes fl(d2' K) < s2' with K = 1 + 2^-48 = 1 + 32u;
//   fl(d2' K) >= d2' K (1-u) >= d2' (1+u)^3/(1-u)^4 because (1+32u)(1-u)^5 >= (1+u)^3 (the
//   left is 1 + 27u - O(u^2), the right 1 + 3u + O(u^2)). A miss is certain when
//   fl(s2' K) < d2', by the same argument with (1+u)^4/(1-u)^3 <= (1+32u)(1-u).
// - Between the two (a relative band of about 2^-47) the exact wasm test answers.
// Integer coordinates below 2^24 in size (exact in f32): dx, dy, s are integers below 2^25,
// their squares below 2^50 and d2 below 2^51, all exact in f64, so d2' = d2 and s2' = s2.
// Touching (d2 = s2) then never passes either strict test (K > 1), so it always goes to wasm;
// every other integer case is decided here exactly or, if within the band, by wasm.

import {
  Shape,
  intersects as wasmIntersects,
  contains as wasmContains,
  containsPoint as wasmContainsPoint,
} from './wasm/collide2d_js.js';

const K = 1 + 2 ** -48;

// The JS-side numbers live on the shape object itself, under symbols so that no user property
// can collide with them, and circles and boxes under different symbols: the object's hidden
// class then says which it is (no kind field to load and compare), and a circle's three
// numbers fill the three in-object slots left after wasm-bindgen's pointer (an object made by
// Object.create has four), so a circle-circle test reads no property array.
// A live circle has CR >= 0 and a live box X0 >= -Infinity; on any other shape these read
// undefined, and on a freed one NaN, and the comparison is false: the wasm test answers (or
// throws, for a freed shape).
const CX = Symbol('collide2d.cx');
const CY = Symbol('collide2d.cy');
const CR = Symbol('collide2d.cr');
const X0 = Symbol('collide2d.x0');
const Y0 = Symbol('collide2d.y0');
const X1 = Symbol('collide2d.x1');
const Y1 = Symbol('collide2d.y1');

const isCircle = (shape) => shape[CR] >= 0;
const isBox = (shape) => shape[X0] >= -Infinity;

// Fields first made with a fraction, so V8 gives them the double representation at once: a
// first circle at integer coordinates would make them small-integer fields, and the first
// fraction would then deprecate every circle made so far (and the code compiled for them).
{
  const circle = Object.create(Shape.prototype);
  circle.__wbg_ptr = 0;
  keepCircle(circle, 0.5, 0.5, 0.5);
  const box = Object.create(Shape.prototype);
  box.__wbg_ptr = 0;
  keepBox(box, 0.5, 0.5, 1.5, 1.5);
}

/** 'circle' or 'box' when the shape has JS-side numbers, else undefined (for tests). */
export const simpleKind = (shape) => (isCircle(shape) ? 'circle' : isBox(shape) ? 'box' : undefined);

/** Attaches a circle's numbers (the f32 values the Rust circle holds). */
export function keepCircle(shape, x, y, r) {
  shape[CX] = Math.fround(x);
  shape[CY] = Math.fround(y);
  shape[CR] = Math.fround(r);
  return shape;
}

/** Attaches a box's numbers, read from its bounds (the Rust box's own min and max). */
export function keepBox(shape, minX, minY, maxX, maxY) {
  shape[X0] = minX;
  shape[Y0] = minY;
  shape[X1] = maxX;
  shape[Y1] = maxY;
  return shape;
}

/** Copies `from`'s numbers, if it has any, to its copy `to`. */
export function keepCopy(from, to) {
  if (isCircle(from)) return keepCircle(to, from[CX], from[CY], from[CR]);
  if (isBox(from)) return keepBox(to, from[X0], from[Y0], from[X1], from[Y1]);
  return to;
}

/** Forgets a shape's numbers (it is being freed): its tests go to wasm, which throws. */
export function forget(shape) {
  if (isCircle(shape)) shape[CR] = NaN;
  else if (isBox(shape)) shape[X0] = NaN;
}

/** 1 when d2 <= s2 is certain, -1 when d2 > s2 is, 0 when only the exact test can tell. */
function filter(d2, s2) {
  if (d2 * K < s2) return 1;
  if (s2 * K < d2) return -1;
  return 0;
}

/** Disc (x, y, r) against point (px, py): 1, -1 or 0 as `filter`. */
function discPoint(x, y, r, px, py) {
  const dx = px - x;
  const dy = py - y;
  return filter(dx * dx + dy * dy, r * r);
}

const clamp = (v, lo, hi) => (v < lo ? lo : v > hi ? hi : v);

/** True when `a` and `b` share a point (touching counts); exact. */
export function intersects(a, b) {
  // Two circles, the costliest case to leave to wasm next to its work, written out.
  const ar = a[CR];
  const br = b[CR];
  if (ar >= 0 && br >= 0) {
    const dx = b[CX] - a[CX];
    const dy = b[CY] - a[CY];
    const s = ar + br;
    const d2 = dx * dx + dy * dy;
    const s2 = s * s;
    if (d2 * K < s2) return true;
    if (s2 * K < d2) return false;
    return wasmIntersects(a, b);
  }
  return simpleIntersects(a, b) ?? wasmIntersects(a, b);
}

/** True when `b` lies entirely inside `a` (boundaries included); exact. */
export function contains(a, b) {
  return simpleContains(a, b) ?? wasmContains(a, b);
}

/** True when `(x, y)` lies in `shape` (its boundary included); exact. */
export function containsPoint(shape, x, y) {
  return simpleContainsPoint(shape, x, y) ?? wasmContainsPoint(shape, x, y);
}

/**
 * Whether the two shapes intersect as their JS-side numbers tell: true, false, or undefined
 * when the exact wasm test must decide (or either shape has no JS-side numbers).
 */
export function simpleIntersects(p, q) {
  if (isCircle(p)) {
    if (isCircle(q)) {
      const dx = q[CX] - p[CX];
      const dy = q[CY] - p[CY];
      const s = p[CR] + q[CR];
      const f = filter(dx * dx + dy * dy, s * s);
      return f === 0 ? undefined : f > 0;
    }
    return isBox(q) ? circleBox(p, q) : undefined;
  }
  if (isBox(p)) {
    if (isBox(q)) return p[X0] <= q[X1] && q[X0] <= p[X1] && p[Y0] <= q[Y1] && q[Y0] <= p[Y1];
    if (isCircle(q)) return circleBox(q, p);
  }
  return undefined;
}

function circleBox(c, b) {
  const x = c[CX];
  const y = c[CY];
  const f = discPoint(x, y, c[CR], clamp(x, b[X0], b[X1]), clamp(y, b[Y0], b[Y1]));
  return f === 0 ? undefined : f > 0;
}

/** Whether the simple shape holds the point (x, y): true, false, or undefined as above. */
export function simpleContainsPoint(p, x, y) {
  const circle = isCircle(p);
  if (!circle && !isBox(p)) return undefined;
  const px = Math.fround(x);
  const py = Math.fround(y);
  // NaN or beyond f32: the wasm test's answer, whatever it is.
  if (!Number.isFinite(px) || !Number.isFinite(py)) return undefined;
  if (!circle) return p[X0] <= px && px <= p[X1] && p[Y0] <= py && py <= p[Y1];
  const f = discPoint(p[CX], p[CY], p[CR], px, py);
  return f === 0 ? undefined : f > 0;
}

/** Whether box p holds box q (boundaries included): exact, or undefined when not two boxes. */
export function simpleContains(p, q) {
  if (!isBox(p) || !isBox(q)) return undefined;
  return p[X0] <= q[X0] && q[X1] <= p[X1] && p[Y0] <= q[Y0] && q[Y1] <= p[Y1];
}
