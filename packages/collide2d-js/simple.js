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
// can collide with them. Every Shape gets the same five fields, in the same order, when it is
// made (`init`, from api.js's hook on wasm-bindgen's Shape.__wrap), all of them doubles from
// the start (NaN): every shape then has one hidden class, so the loads of a test that sees
// circles, boxes and other shapes alike stay monomorphic (with one class per kind, a test
// that had seen boxes too read a circle's numbers through a polymorphic load whose answers
// were no longer plain doubles, and circle-circle took twice the time).
// An object made by Object.create has four in-object slots: wasm-bindgen's pointer, then X, Y
// and R, so a circle-circle test reads no property array; a box's X1 and Y1 go to the
// property array.
// A circle: X, Y its center, R >= 0 its radius, X1 = Y1 = NaN. A box: X, Y its min corner,
// X1, Y1 its max corner, R = NaN. Other and freed shapes: R = X1 = NaN. So `R >= 0` tells a
// live circle and `X1 >= -Infinity` a live box (NaN compares false): the others go to the
// wasm test (which throws for a freed shape).
// Double fields were kept after measuring three other homes for the numbers in node 20 (the
// bench's circle pairs): a shared Float32Array indexed by a small-integer slot in the shape, the
// same in a plain array of doubles, and the f32 bit patterns as small-integer fields turned back
// into numbers through a scratch Int32Array/Float32Array. Each took 8 to 12 ns a pair in the
// caches, where the fields take about 6 (once wasm memory has grown, V8 checks a typed array's
// buffer for detachment at every access), and none was reliably faster past them (16,384
// pairs: 17 to 22 ns against 18 to 27), where reading one field of each shape object alone
// takes 10.
const X = Symbol('collide2d.x');
const Y = Symbol('collide2d.y');
const R = Symbol('collide2d.r');
const X1 = Symbol('collide2d.x1');
const Y1 = Symbol('collide2d.y1');

const isCircle = (shape) => shape[R] >= 0;
const isBox = (shape) => shape[X1] >= -Infinity;

/** Gives a new Shape object its five fields (no JS-side numbers yet). */
export function init(shape) {
  shape[X] = NaN;
  shape[Y] = NaN;
  shape[R] = NaN;
  shape[X1] = NaN;
  shape[Y1] = NaN;
  return shape;
}

/** 'circle' or 'box' when the shape has JS-side numbers, else undefined (for tests). */
export const simpleKind = (shape) => (isCircle(shape) ? 'circle' : isBox(shape) ? 'box' : undefined);

/** Attaches a circle's numbers (the f32 values the Rust circle holds). */
export function keepCircle(shape, x, y, r) {
  shape[X] = Math.fround(x);
  shape[Y] = Math.fround(y);
  shape[R] = Math.fround(r);
  return shape;
}

/** Attaches a box's numbers, read from its bounds (the Rust box's own min and max). */
export function keepBox(shape, minX, minY, maxX, maxY) {
  shape[X] = minX;
  shape[Y] = minY;
  shape[X1] = maxX;
  shape[Y1] = maxY;
  return shape;
}

/** Copies `from`'s numbers, if it has any, to its copy `to`. */
export function keepCopy(from, to) {
  if (isCircle(from)) return keepCircle(to, from[X], from[Y], from[R]);
  if (isBox(from)) return keepBox(to, from[X], from[Y], from[X1], from[Y1]);
  return to;
}

/** Forgets a shape's numbers (it is being freed): its tests go to wasm, which throws. */
export function forget(shape) {
  shape[R] = NaN;
  shape[X1] = NaN;
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
  // Two circles, the costliest case to leave to wasm next to its work, written out. Radii are
  // >= 0 and other shapes' R is NaN, so one comparison of the sum tells two live circles.
  const s = a[R] + b[R];
  if (s >= 0) {
    const dx = b[X] - a[X];
    const dy = b[Y] - a[Y];
    const d2 = dx * dx + dy * dy;
    const s2 = s * s;
    if (d2 * K < s2) return true;
    if (s2 * K < d2) return false;
  } else {
    const f = withBoxes(a, b);
    if (f !== undefined) return f;
  }
  return wasmIntersects(a, b);
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
  if (isCircle(p) && isCircle(q)) {
    const dx = q[X] - p[X];
    const dy = q[Y] - p[Y];
    const s = p[R] + q[R];
    const f = filter(dx * dx + dy * dy, s * s);
    return f === 0 ? undefined : f > 0;
  }
  return withBoxes(p, q);
}

/**
 * `simpleIntersects` of two shapes that are not both circles, with one call of each helper:
 * V8 inlines `intersects` into its callers only while its own optimised code, with all it
 * inlined, stays within a budget (920 bytecodes in node 20): once it inlined every branch
 * twice, a game's loop called it instead (13.8 ns a circle pair against 8.2).
 */
function withBoxes(p, q) {
  const pBox = isBox(p);
  if (pBox && isBox(q)) return p[X] <= q[X1] && q[X] <= p[X1] && p[Y] <= q[Y1] && q[Y] <= p[Y1];
  const c = pBox ? q : p;
  const b = pBox ? p : q;
  return isCircle(c) && isBox(b) ? circleBox(c, b) : undefined;
}

function circleBox(c, b) {
  const x = c[X];
  const y = c[Y];
  const f = discPoint(x, y, c[R], clamp(x, b[X], b[X1]), clamp(y, b[Y], b[Y1]));
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
  if (!circle) return p[X] <= px && px <= p[X1] && p[Y] <= py && py <= p[Y1];
  const f = discPoint(p[X], p[Y], p[R], px, py);
  return f === 0 ? undefined : f > 0;
}

/** Whether box p holds box q (boundaries included): exact, or undefined when not two boxes. */
export function simpleContains(p, q) {
  if (!isBox(p) || !isBox(q)) return undefined;
  return p[X] <= q[X] && q[X1] <= p[X1] && p[Y] <= q[Y] && q[Y1] <= p[Y1];
}
