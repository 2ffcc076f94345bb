// The JS-side tests of circles and boxes (simple.js) against the exact wasm tests, in both
// argument orders: random and touching / one-apart integer cases, the same scaled to
// subnormal and to near f32::MAX sizes, random magnitudes, and near touching at every size.
import { test } from 'node:test';
import { setImmediate as tick } from 'node:timers/promises';
import assert from 'node:assert/strict';
import { Shape, intersects, intersectsMany, contains, containsPoint } from '../node.js';
import * as raw from '../wasm/collide2d_js.js';
import { simpleKind, simpleIntersects, simpleRows } from '../simple.js';
import { rng } from './scene.mjs';

const F32_MAX = 3.4028234663852886e38;

/** Checks every fast query of a and b against wasm in both orders; counts JS decisions. */
function agree(a, b, counts, what) {
  for (const [p, q] of [[a, b], [b, a]]) {
    const fast = simpleIntersects(p, q);
    if (fast === undefined) counts.wasm++; else counts.js++;
    assert.equal(intersects(p, q), raw.intersects(p, q), `intersects ${what(p, q)}`);
    assert.equal(contains(p, q), raw.contains(p, q), `contains ${what(p, q)}`);
  }
}

function agreePoint(s, x, y, what) {
  assert.equal(containsPoint(s, x, y), raw.containsPoint(s, x, y), `containsPoint ${what(s)} (${x}, ${y})`);
}

const describe = (s) => JSON.stringify(s.toJSON());
const pair = (p, q) => `${describe(p)} ${describe(q)}`;

/** Integer circles and boxes near each other (many touching or one apart), scaled by `scale`. */
function integerCases(scale, seed, n) {
  const random = rng(seed);
  const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
  const make = () => {
    if (random() < 0.5) return Shape.circle(int(-8, 8) * scale, int(-8, 8) * scale, int(0, 5) * scale);
    const [x, y] = [int(-8, 8), int(-8, 8)];
    return Shape.aabb(x * scale, y * scale, (x + int(0, 6)) * scale, (y + int(0, 6)) * scale);
  };
  const counts = { js: 0, wasm: 0 };
  for (let i = 0; i < n; i++) {
    const [a, b] = [make(), make()];
    agree(a, b, counts, pair);
    agreePoint(a, int(-10, 10) * scale, int(-10, 10) * scale, describe);
    a.free();
    b.free();
  }
  return counts;
}

test('integer circles and boxes: the JS answers equal the exact wasm ones', () => {
  const counts = integerCases(1, 1, 4000);
  // Both paths are exercised: most pairs are decided in JS, touching ones in wasm.
  assert.ok(counts.js > 4000 && counts.wasm > 100, JSON.stringify(counts));
});

test('touching integer circles (3-4-5 triangles) always go to wasm, one apart never', () => {
  for (const [dx, dy] of [[3, 4], [4, -3], [-5, 0], [0, 13], [12, 5], [-8, -15]]) {
    const d = Math.hypot(dx, dy);
    for (const r1 of [0, 1, 2, d]) {
      const a = Shape.circle(7, -2, r1);
      const touching = Shape.circle(7 + dx, -2 + dy, d - r1);
      assert.equal(simpleIntersects(a, touching), undefined);
      assert.equal(intersects(a, touching), true);
      assert.equal(intersects(touching, a), true);
      if (d - r1 >= 1) {
        const apart = Shape.circle(7 + dx, -2 + dy, d - r1 - 1);
        assert.equal(simpleIntersects(a, apart), false);
        assert.equal(intersects(apart, a), false);
      }
    }
  }
  // A circle touching a box's corner and one a unit short of it.
  const box = Shape.rect(0, 0, 10, 10);
  assert.equal(intersects(Shape.circle(13, 14, 5), box), true);
  assert.equal(intersects(box, Shape.circle(13, 14, 4)), false);
  assert.equal(containsPoint(Shape.circle(0, 0, 5), 3, 4), true);
  assert.equal(containsPoint(Shape.circle(0, 0, 5), 3, 5), false);
});

test('the integer cases scaled to subnormal and to near f32::MAX sizes agree too', () => {
  integerCases(2 ** -149, 2, 1500); // every coordinate subnormal (or 0)
  integerCases(2 ** -140, 3, 1500);
  integerCases(2 ** 123, 4, 1500); // up to 8 * 2^123 + 6 * 2^123 < f32::MAX
});

/** A random f32 of random sign and magnitude from subnormal to near f32::MAX. */
function anyMagnitude(random) {
  const e = -149 + Math.floor(random() * 277);
  const v = Math.fround((1 + random()) * 2 ** e);
  const sized = Number.isFinite(v) ? v : F32_MAX;
  return random() < 0.5 ? -sized : sized;
}

test('random magnitudes, subnormal to f32::MAX, in both argument orders', () => {
  const random = rng(5);
  const make = () => {
    if (random() < 0.5) return Shape.circle(anyMagnitude(random), anyMagnitude(random), Math.abs(anyMagnitude(random)));
    const [x0, x1, y0, y1] = [anyMagnitude(random), anyMagnitude(random), anyMagnitude(random), anyMagnitude(random)];
    return Shape.aabb(Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1));
  };
  const counts = { js: 0, wasm: 0 };
  for (let i = 0; i < 3000; i++) {
    const [a, b] = [make(), make()];
    agree(a, b, counts, pair);
    agreePoint(a, anyMagnitude(random), anyMagnitude(random), describe);
    agreePoint(b, F32_MAX, -F32_MAX, describe);
    a.free();
    b.free();
  }
});

test('near touching at every size: 3-4-5-like triangles and gaps of one in 2^48', () => {
  const random = rng(6);
  const counts = { js: 0, wasm: 0 };
  const check = (a, b) => {
    agree(a, b, counts, pair);
    a.free();
    b.free();
  };
  for (let i = 0; i < 3000; i++) {
    // Integers below 2^24 scaled by a power of two are exact in f32: a triangle with sides
    // m^2 - n^2, 2mn, m^2 + n^2 gives circles touching, overlapping by one, or one apart.
    const scale = 2 ** (-149 + Math.floor(random() * 253));
    const m = 2 + Math.floor(random() * 2000);
    const n = 1 + Math.floor(random() * (m - 1));
    const [dx, dy, c] = [m * m - n * n, 2 * m * n, m * m + n * n];
    const r1 = Math.floor(random() * (c + 1));
    const k = Math.floor(random() * 3) - 1;
    const [x, y] = [Math.floor(random() * 64), Math.floor(random() * 64)];
    const a = Shape.circle(x * scale, y * scale, r1 * scale);
    check(a, Shape.circle((x + dx) * scale, (y + dy) * scale, Math.max(0, c - r1 + k) * scale));
    // The same distance to a box's corner.
    const b = Shape.circle(x * scale, y * scale, (c + k) * scale);
    check(b, Shape.rect((x + dx) * scale, (y + dy) * scale, scale, scale));
  }
  // d2 = s2 + 1 with s2 = 2^48: a relative gap of 2^-48, inside the band, decided by wasm.
  for (const scale of [2 ** -149, 1, 2 ** 103]) {
    const a = Shape.circle(0, 0, 2 ** 23 * scale);
    const b = Shape.circle(2 ** 24 * scale, scale, 2 ** 23 * scale);
    assert.equal(simpleIntersects(a, b), undefined);
    assert.equal(intersects(a, b), false);
    assert.equal(intersects(b, a), false);
    const box = Shape.rect(2 ** 23 * scale, scale, scale, scale);
    assert.equal(intersects(a, box), false);
    assert.equal(containsPoint(a, 2 ** 23 * scale, scale), false);
    assert.equal(containsPoint(a, 2 ** 23 * scale, 0), true);
  }
  assert.ok(counts.js > 4000 && counts.wasm > 1000, JSON.stringify(counts));
});

test('intersectsMany answers as the exact wasm test, every kind and near touching', () => {
  const random = rng(8);
  const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
  const scaled = () => 2 ** (-149 + Math.floor(random() * 253));
  const make = () => {
    const scale = random() < 0.5 ? 1 : scaled();
    const [x, y] = [int(-8, 8) * scale, int(-8, 8) * scale];
    switch (int(0, 4)) {
      case 0: case 1: return Shape.circle(x, y, int(0, 5) * scale);
      case 2: return Shape.rect(x, y, int(0, 6) * scale, int(0, 6) * scale);
      case 3: return Shape.circle(0, 0, int(0, 5)).translated(int(-8, 8), int(-8, 8)); // wasm only
      default: return Shape.polygon([0, 0, 4, 0, 4, 4, 2, 1, 0, 4]).translated(int(-8, 8), int(-8, 8)); // concave
    }
  };
  const as = [];
  const bs = [];
  for (let i = 0; i < 4000; i++) {
    const [a, b] = [make(), make()];
    as.push(a, b);
    bs.push(b, a);
  }
  // Circles touching exactly (3-4-5 triangles), one apart, and one in 2^48 apart.
  for (const k of [-1, 0, 1]) {
    const a = Shape.circle(0, 0, 2);
    as.push(a, a, Shape.circle(0, 0, 2 ** 23));
    bs.push(Shape.circle(3, 4, 3 + k), Shape.circle(30, 40, 48 + k), Shape.circle(2 ** 24, 1, 2 ** 23 + k));
  }
  const got = intersectsMany(as, bs);
  assert.ok(got instanceof Uint8Array && got.length === as.length);
  const want = as.map((a, i) => +raw.intersects(a, bs[i]));
  assert.deepEqual([...got], want);
  assert.ok(want.some((w) => w === 1) && want.some((w) => w === 0));
  // Into the caller's array (longer is fine), and the errors name the argument.
  const out = new Uint8Array(as.length + 3).fill(7);
  assert.equal(intersectsMany(as, bs, out), out);
  assert.deepEqual([...out.subarray(0, as.length)], want);
  assert.throws(() => intersectsMany(as, bs.slice(1)), /intersectsMany\.bs must hold as many shapes/);
  assert.throws(() => intersectsMany(as, bs, new Uint8Array(1)), /intersectsMany\.out must hold at least/);
  const freed = Shape.circle(0, 0, 1);
  freed.free();
  assert.throws(() => intersectsMany([as[0]], [freed]));
  for (const s of new Set([...as, ...bs])) s.free();
});

test('shapes made other ways, copies, and freed shapes', () => {
  const c = Shape.circle(0, 0, 2);
  const copy = c.clone();
  const moved = c.translated(4, 0); // no JS-side numbers: the wasm test answers
  assert.equal(simpleKind(copy), simpleKind(c));
  assert.equal(simpleKind(c), 'circle');
  assert.equal(simpleIntersects(copy, c), true);
  assert.equal(simpleKind(moved), undefined);
  assert.equal(intersects(copy, Shape.fromJSON({ type: 'circle', center: [4, 0], radius: 2 })), true);
  assert.equal(intersects(moved, Shape.circle(0, 0, 1.9)), false);
  c.free();
  assert.throws(() => intersects(c, copy), /null pointer passed to rust|null/);
  assert.throws(() => containsPoint(c, 0, 0), /null pointer passed to rust|null/);
  const box = Shape.rect(0, 0, 1, 1);
  box[Symbol.dispose]?.();
  if (Symbol.dispose) assert.throws(() => contains(box, copy), /null pointer passed to rust|null/);
});

test('every shape has the one hidden class of all shapes, freed or not', () => {
  // V8's own check (node runs the tests with --allow-natives-syntax): with one class per kind,
  // a test that had seen several kinds read a circle's numbers through a polymorphic load.
  const sameClass = new Function('a', 'b', 'return %HaveSameMap(a, b)');
  const circle = Shape.circle(0.5, 1, 2);
  const others = [
    Shape.circle(0, 0, 0),
    Shape.rect(0, 0, 1, 1),
    Shape.aabb(-1.5, -1, 2, 3),
    Shape.point(1, 2),
    Shape.capsule(0, 0, 1, 1, 0.5),
    Shape.polygon([0, 0, 4, 0, 4, 4, 2, 1, 0, 4]),
    Shape.compound([Shape.circle(0, 0, 1), Shape.rect(0, 0, 1, 1)]),
    circle.translated(1, 1),
    circle.clone(),
    Shape.fromJSON({ type: 'circle', center: [4, 0], radius: 2 }),
  ];
  const freed = Shape.rect(0, 0, 1, 1);
  freed.free();
  for (const s of [...others, freed]) assert.ok(sameClass(circle, s), describe(circle) + ' and another shape');
  assert.equal(simpleKind(freed), undefined);
});

test('a freed shape throws even when a new shape reuses its wasm memory', () => {
  // wasm's allocator hands the freed memory to the next shape of the same size: the old
  // handle must not answer with the new shape's numbers, from JS or from wasm.
  const far = Shape.circle(100, 100, 1);
  const other = Shape.rect(-50, -50, 1, 1);
  for (const make of [() => Shape.circle(0, 0, 5), () => Shape.rect(0, 0, 5, 5)]) {
    const old = make();
    old.free();
    const fresh = [make(), Shape.circle(100, 100, 2), Shape.rect(99, 99, 2, 2)];
    assert.equal(simpleKind(old), undefined);
    for (const b of [far, other, ...fresh]) {
      assert.throws(() => intersects(old, b), /null pointer passed to rust|null/);
      assert.throws(() => intersects(b, old), /null pointer passed to rust|null/);
    }
    assert.throws(() => containsPoint(old, 100, 100), /null pointer passed to rust|null/);
    assert.throws(() => contains(old, fresh[0]), /null pointer passed to rust|null/);
    assert.equal(intersects(fresh[1], far), true);
    for (const f of fresh) f.free();
  }
});

test('the rows of JS-side numbers are reused: freed, consumed, dropped shapes give theirs back', async () => {
  // free(), Symbol.dispose and compound's by-value parts give a row back at once.
  const cycle = () => {
    const c = Shape.circle(1, 2, 3);
    const b = Shape.rect(0, 0, 2, 2);
    Shape.compound([c, b]).free(); // its parts are clones, passed to wasm by value
    const copy = c.clone();
    c.free();
    b[Symbol.dispose]();
    copy.free();
  };
  for (let i = 0; i < 100; i++) cycle();
  const before = simpleRows();
  for (let i = 0; i < 10000; i++) cycle();
  assert.equal(simpleRows(), before);
  // Dropped without free(): the garbage collector gives them back.
  if (typeof globalThis.gc !== 'function') return;
  const drop = async () => {
    for (let i = 0; i < 1000; i++) Shape.circle(i, 0, 1).clone();
    for (let k = 0; k < 3; k++) {
      globalThis.gc();
      await tick();
    }
  };
  await drop();
  const kept = simpleRows();
  for (let i = 0; i < 5; i++) await drop();
  assert.equal(simpleRows(), kept, 'the rows of 5,000 dropped circles were not reused');
});
