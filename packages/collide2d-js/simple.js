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
  intersects as wasmIntersects,
  contains as wasmContains,
  containsPoint as wasmContainsPoint,
} from './wasm/collide2d_js.js';

const K = 1 + 2 ** -48;

/** Kinds of JS-side numbers: none (undefined or 0: ask wasm), circle [x, y, r], box [minX, minY, maxX, maxY]. */
export const CIRCLE = 1;
export const BOX = 2;

// The JS-side numbers live on the shape object itself (one load each, no record to follow),
// under symbols so that no user property can collide with them: KIND, then A..D.
export const KIND = Symbol('collide2d.kind');
const A = Symbol('collide2d.a');
const B = Symbol('collide2d.b');
const C = Symbol('collide2d.c');
const D = Symbol('collide2d.d');

function keep(shape, kind, a, b, c, d) {
  shape[KIND] = kind;
  shape[A] = a;
  shape[B] = b;
  shape[C] = c;
  shape[D] = d;
  return shape;
}

/** Attaches a circle's numbers (the f32 values the Rust circle holds). */
export const keepCircle = (shape, x, y, r) => keep(shape, CIRCLE, Math.fround(x), Math.fround(y), Math.fround(r), 0);

/** Attaches a box's numbers, read from its bounds (the Rust box's own min and max). */
export const keepBox = (shape, minX, minY, maxX, maxY) => keep(shape, BOX, minX, minY, maxX, maxY);

/** Copies `from`'s numbers, if it has any, to its copy `to`. */
export function keepCopy(from, to) {
  if (from[KIND] > 0) keep(to, from[KIND], from[A], from[B], from[C], from[D]);
  return to;
}

/** Forgets a shape's numbers (it is being freed): its tests go to wasm, which throws. */
export function forget(shape) {
  if (shape[KIND] > 0) shape[KIND] = 0;
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
  if (a[KIND] === CIRCLE && b[KIND] === CIRCLE) {
    const dx = b[A] - a[A];
    const dy = b[B] - a[B];
    const s = a[C] + b[C];
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
  const kp = p[KIND];
  const kq = q[KIND];
  if (kp === CIRCLE && kq === CIRCLE) {
    const dx = q[A] - p[A];
    const dy = q[B] - p[B];
    const s = p[C] + q[C];
    const f = filter(dx * dx + dy * dy, s * s);
    return f === 0 ? undefined : f > 0;
  }
  if (kp === BOX) {
    if (kq === BOX) return p[A] <= q[C] && q[A] <= p[C] && p[B] <= q[D] && q[B] <= p[D];
    if (kq === CIRCLE) return circleBox(q, p);
  } else if (kp === CIRCLE && kq === BOX) {
    return circleBox(p, q);
  }
  return undefined;
}

function circleBox(c, b) {
  const [x, y] = [c[A], c[B]];
  const f = discPoint(x, y, c[C], clamp(x, b[A], b[C]), clamp(y, b[B], b[D]));
  return f === 0 ? undefined : f > 0;
}

/** Whether the simple shape holds the point (x, y): true, false, or undefined as above. */
export function simpleContainsPoint(p, x, y) {
  const kind = p[KIND];
  if (kind !== CIRCLE && kind !== BOX) return undefined;
  const px = Math.fround(x);
  const py = Math.fround(y);
  // NaN or beyond f32: the wasm test's answer, whatever it is.
  if (!Number.isFinite(px) || !Number.isFinite(py)) return undefined;
  if (kind === BOX) return p[A] <= px && px <= p[C] && p[B] <= py && py <= p[D];
  const f = discPoint(p[A], p[B], p[C], px, py);
  return f === 0 ? undefined : f > 0;
}

/** Whether box p holds box q (boundaries included): exact, or undefined when not two boxes. */
export function simpleContains(p, q) {
  if (p[KIND] !== BOX || q[KIND] !== BOX) return undefined;
  return p[A] <= q[A] && q[C] <= p[C] && p[B] <= q[B] && q[D] <= p[D];
}
