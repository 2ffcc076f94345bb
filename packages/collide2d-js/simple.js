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

// Where the JS-side numbers live. Each circle or box has a row of four doubles in one shared
// array, ROWS (a circle: x, y, r and an unused fourth; a box: minX, minY, maxX, maxY), and
// every Shape object one small-integer field, under a symbol so that no user property can
// collide with it: its row's index plus its kind (CIRCLE or BOX; rows start at multiples of
// 4), or OTHER for every other shape and for a freed one, which the wasm test answers (and
// throws for). Every Shape gets the field when it is made (`init`, from api.js's hook on
// wasm-bindgen's Shape.__wrap), so all shapes share one hidden class.
// Why a shared array, measured in node 20 on the bench's circle pairs: doubles kept as fields
// of the shape objects are boxed by V8 (each field points to its own HeapNumber, and the
// garbage collector moves the objects and their boxes apart), so a test read four places per
// shape. ROWS holds its doubles unboxed, 32 bytes a shape, beside the rows of the shapes made
// just before and after: past the caches (16,384 pairs, the bench's alternating rounds, same
// seed) a pair took 18 ns against 23 with the fields, and as long in the caches (6 ns at 256
// pairs, 8 at 2,048). ROWS is a `const` plain array of doubles, never a typed array: once wasm
// memory has grown, V8 checks a typed array's buffer for detachment at every access.
// (Measured again: rows in a Float32Array, half the bytes, took 1.1 to 1.4 times as long a
// pair, in a Float64Array 1.0 to 1.3; see README's JavaScript section.)
// Rows are reused: a shape freed (free(), Symbol.dispose, or passed by value to wasm) gives its
// row back at once (`forget`), one dropped without that through a FinalizationRegistry.
const ROWS = [NaN, NaN, NaN, NaN]; // row 0 is never handed out: a plain array of doubles from the start
const freeRows = [];
const rowsOfDropped = new FinalizationRegistry((row) => freeRows.push(row));
const SLOT = Symbol('collide2d.slot');
const CIRCLE = 1;
const BOX = 2;
const OTHER = 3;

const kindOf = (slot) => slot & 3;

/** Gives a new Shape object its field (no JS-side numbers yet). */
export function init(shape) {
  shape[SLOT] = OTHER;
  return shape;
}

/** 'circle' or 'box' when the shape has JS-side numbers, else undefined (for tests). */
export function simpleKind(shape) {
  const kind = kindOf(shape[SLOT]);
  return kind === CIRCLE ? 'circle' : kind === BOX ? 'box' : undefined;
}

/** How many rows ROWS holds, in use or free (for tests that nothing leaks). */
export const simpleRows = () => ROWS.length / 4 - 1;

/** A row for `shape`'s four numbers, given back when the shape is dropped. */
function keep(shape, kind, a, b, c, d) {
  let row = freeRows.pop();
  if (row === undefined) {
    row = ROWS.length;
    ROWS.push(a, b, c, d);
  } else {
    ROWS[row] = a;
    ROWS[row + 1] = b;
    ROWS[row + 2] = c;
    ROWS[row + 3] = d;
  }
  rowsOfDropped.register(shape, row, shape);
  shape[SLOT] = row + kind;
  return shape;
}

/** Attaches a circle's numbers (the f32 values the Rust circle holds). */
export function keepCircle(shape, x, y, r) {
  return keep(shape, CIRCLE, Math.fround(x), Math.fround(y), Math.fround(r), NaN);
}

/** Attaches a box's numbers, read from its bounds (the Rust box's own min and max). */
export function keepBox(shape, minX, minY, maxX, maxY) {
  return keep(shape, BOX, minX, minY, maxX, maxY);
}

/** Copies `from`'s numbers, if it has any, to its copy `to`. */
export function keepCopy(from, to) {
  const slot = from[SLOT];
  const kind = kindOf(slot);
  if (kind === OTHER) return to;
  const row = slot - kind;
  return keep(to, kind, ROWS[row], ROWS[row + 1], ROWS[row + 2], ROWS[row + 3]);
}

/** Forgets a shape's numbers and frees its row (it is being freed): wasm answers, and throws. */
export function forget(shape) {
  const slot = shape[SLOT];
  const kind = kindOf(slot);
  if (kind === OTHER) return;
  shape[SLOT] = OTHER;
  rowsOfDropped.unregister(shape);
  freeRows.push(slot - kind);
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
  // Two circles, the costliest case to leave to wasm next to its work, written out. A circle's
  // slot is its row + 1 (x, y, r at slot - 1, slot, slot + 1), and the kinds' bits are 1 for a
  // circle, 2 for a box and 3 for the others, so one test of both slots' bits tells two circles.
  const i = a[SLOT];
  const j = b[SLOT];
  if (((i | j) & 3) === CIRCLE) {
    const dx = ROWS[j - 1] - ROWS[i - 1];
    const dy = ROWS[j] - ROWS[i];
    const s = ROWS[i + 1] + ROWS[j + 1];
    const d2 = dx * dx + dy * dy;
    const s2 = s * s;
    if (d2 * K < s2) return true;
    if (s2 * K < d2) return false;
  } else {
    const f = withBoxes(i, j);
    if (f !== undefined) return f;
  }
  return wasmIntersects(a, b);
}

/** Indices of the pairs `intersectsMany` leaves to its second pass (reused, grown as needed). */
let rest = new Int32Array(64);

/**
 * `intersects(as[k], bs[k])` for every k, as 1 or 0 in `out` (a new Uint8Array by default).
 * Circles and boxes are decided without a branch on the answer: both certainty tests are
 * computed, and only the rare pair neither settles (within the band around touching) is left,
 * with the pairs of other kinds, to a second pass through `intersects`. A loop that branches on each
 * answer mispredicts about every other pair when the answers are mixed, and waits for that
 * pair's numbers before going on; kept small, the first loop also stays fast when V8 has seen
 * every kind of pair.
 */
export function intersectsMany(as, bs, out = new Uint8Array(as.length)) {
  const n = as.length;
  if (bs.length !== n) throw new Error(`intersectsMany.bs must hold as many shapes as as (${n}), got ${bs.length}`);
  if (out.length < n) throw new Error(`intersectsMany.out must hold at least ${n} answers, got ${out.length}`);
  if (rest.length < n) rest = new Int32Array(n);
  const left = rest;
  const rows = ROWS; // locals, not module bindings: measured a little faster in the loop
  const k1 = K;
  let m = 0;
  for (let k = 0; k < n; k++) {
    const i = as[k][SLOT];
    const j = bs[k][SLOT];
    // As `intersects` and `withBoxes`, with the answers as numbers (comparisons to bits).
    let d2 = 0;
    let s2 = 0;
    if (((i | j) & 3) === CIRCLE) {
      const dx = rows[j - 1] - rows[i - 1];
      const dy = rows[j] - rows[i];
      const s = rows[i + 1] + rows[j + 1];
      d2 = dx * dx + dy * dy;
      s2 = s * s;
    } else if (((i | j) & 3) === BOX) {
      out[k] = (rows[i - 2] <= rows[j]) & (rows[j - 2] <= rows[i]) & (rows[i - 1] <= rows[j + 1]) & (rows[j - 1] <= rows[i + 1]);
      continue;
    } else if (((i ^ j) & 3) === (CIRCLE ^ BOX)) {
      // `circleBox`'s clamp: the same squares (it differs at most in the sign of a zero).
      const c = (i & 3) === CIRCLE ? i : j;
      const b = i + j - c;
      const x = rows[c - 1];
      const y = rows[c];
      const r = rows[c + 1];
      const dx = Math.max(rows[b - 2], Math.min(x, rows[b])) - x;
      const dy = Math.max(rows[b - 1], Math.min(y, rows[b + 1])) - y;
      d2 = dx * dx + dy * dy;
      s2 = r * r;
    } else {
      left[m++] = k;
      continue;
    }
    const hit = +(d2 * k1 < s2);
    const miss = +(s2 * k1 < d2);
    out[k] = hit;
    if ((hit | miss) === 0) left[m++] = k;
  }
  for (let r = 0; r < m; r++) {
    const k = left[r];
    out[k] = +intersects(as[k], bs[k]);
  }
  return out;
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
  const i = p[SLOT];
  const j = q[SLOT];
  if (kindOf(i) === CIRCLE && kindOf(j) === CIRCLE) {
    const f = discPoint(ROWS[i - 1], ROWS[i], ROWS[i + 1] + ROWS[j + 1], ROWS[j - 1], ROWS[j]);
    return f === 0 ? undefined : f > 0;
  }
  return withBoxes(i, j);
}

/**
 * `simpleIntersects` of two shapes (by their slots) that are not both circles, with one call of
 * each helper: V8 inlines `intersects` into its callers only while its own optimised code, with
 * all it inlined, stays within a budget (920 bytecodes in node 20): once it inlined every
 * branch twice, a game's loop called it instead (13.8 ns a circle pair against 8.2).
 */
function withBoxes(i, j) {
  const iBox = kindOf(i) === BOX;
  const jBox = kindOf(j) === BOX;
  // A box's slot is its row + 2: minX, minY, maxX, maxY at slot - 2 .. slot + 1.
  if (iBox && jBox) {
    return ROWS[i - 2] <= ROWS[j] && ROWS[j - 2] <= ROWS[i] && ROWS[i - 1] <= ROWS[j + 1] && ROWS[j - 1] <= ROWS[i + 1];
  }
  const c = iBox ? j : i;
  const b = iBox ? i : j;
  return kindOf(c) === CIRCLE && kindOf(b) === BOX ? circleBox(c, b) : undefined;
}

/** A circle against a box, by their slots: the disc against the box's point nearest its center. */
function circleBox(c, b) {
  const x = ROWS[c - 1];
  const y = ROWS[c];
  const f = discPoint(x, y, ROWS[c + 1], clamp(x, ROWS[b - 2], ROWS[b]), clamp(y, ROWS[b - 1], ROWS[b + 1]));
  return f === 0 ? undefined : f > 0;
}

/** Whether the simple shape holds the point (x, y): true, false, or undefined as above. */
export function simpleContainsPoint(p, x, y) {
  const i = p[SLOT];
  const kind = kindOf(i);
  if (kind !== CIRCLE && kind !== BOX) return undefined;
  const px = Math.fround(x);
  const py = Math.fround(y);
  // NaN or beyond f32: the wasm test's answer, whatever it is.
  if (!Number.isFinite(px) || !Number.isFinite(py)) return undefined;
  if (kind === BOX) return ROWS[i - 2] <= px && px <= ROWS[i] && ROWS[i - 1] <= py && py <= ROWS[i + 1];
  const f = discPoint(ROWS[i - 1], ROWS[i], ROWS[i + 1], px, py);
  return f === 0 ? undefined : f > 0;
}

/** Whether box p holds box q (boundaries included): exact, or undefined when not two boxes. */
export function simpleContains(p, q) {
  const i = p[SLOT];
  const j = q[SLOT];
  if (kindOf(i) !== BOX || kindOf(j) !== BOX) return undefined;
  return ROWS[i - 2] <= ROWS[j - 2] && ROWS[j] <= ROWS[i] && ROWS[i - 1] <= ROWS[j - 1] && ROWS[j + 1] <= ROWS[i + 1];
}
