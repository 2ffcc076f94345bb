// Memory: objects owning wasm memory are freed by free(), by Symbol.dispose, or by the
// garbage collector (FinalizationRegistry); the wasm heap does not grow across 10,000 worlds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as tick } from 'node:timers/promises';
import { World, Shape, heapBytes } from '../node.js';

/** A small world with a few objects and one update, as a level or a test would make. */
function oneWorld() {
  const world = new World({ broadPhase: 'grid', cellSize: 8 });
  const ball = Shape.circle(0, 0, 2);
  for (let i = 0; i < 20; i++) world.insert(ball, { x: i * 3, y: 0, value: { i } });
  world.update();
  ball.free();
  return world;
}

test('10,000 worlds created and freed leave the wasm heap as it was', () => {
  for (let i = 0; i < 100; i++) oneWorld().free();
  const before = heapBytes();
  for (let i = 0; i < 10000; i++) oneWorld().free();
  assert.equal(heapBytes(), before);
});

test('Symbol.dispose frees a world and a shape', () => {
  assert.equal(typeof Symbol.dispose, 'symbol');
  for (let i = 0; i < 100; i++) oneWorld()[Symbol.dispose]();
  const before = heapBytes();
  for (let i = 0; i < 10000; i++) {
    oneWorld()[Symbol.dispose]();
    Shape.polygon([0, 0, 4, 0, 4, 4, 2, 1, 0, 4])[Symbol.dispose]();
  }
  assert.equal(heapBytes(), before);
  const shape = Shape.circle(0, 0, 1);
  shape[Symbol.dispose]();
  assert.throws(() => shape.bounds(), /null pointer passed to rust|Cannot read|null/);
});

/** Collects garbage; FinalizationRegistry callbacks run after a collection, on a later task. */
async function collect() {
  for (let k = 0; k < 3; k++) {
    globalThis.gc();
    await tick();
  }
}

/** Asserts that 8 more rounds of `drop` and a collection, after 2, leave the wasm heap as it was. */
async function heapKeepsAcross(drop, message) {
  const round = async () => {
    drop();
    await collect();
  };
  for (let i = 0; i < 2; i++) await round();
  const before = heapBytes();
  for (let i = 0; i < 8; i++) await round();
  assert.equal(heapBytes(), before, message);
}

const needsGc = { skip: typeof globalThis.gc !== 'function' && 'run node with --expose-gc' };

test('worlds dropped without free are reclaimed by the garbage collector', needsGc, async () => {
  await heapKeepsAcross(() => {
    for (let i = 0; i < 1000; i++) oneWorld();
  }, 'the heap of 2,000 dropped worlds held 8,000 more');
});

test('shapes dropped without free are reclaimed by the garbage collector', needsGc, async () => {
  // wasm-bindgen's FinalizationRegistry frees their wasm memory (api.js hooks the making and
  // the freeing of every shape): 1,000 polygons of 64 corners hold about 1 MB.
  const corners = Array.from({ length: 64 }, (_, i) => [Math.cos(i / 10.2), Math.sin(i / 10.2)]).flat();
  await heapKeepsAcross(() => {
    for (let i = 0; i < 1000; i++) {
      Shape.polygon(corners);
      Shape.circle(i, 0, 1).clone();
    }
  }, 'the wasm heap grew over 8 rounds of 2,000 dropped shapes');
});

test('a freed shape is not freed again when the garbage collector drops it', needsGc, async () => {
  // A second free of the same wasm memory would hand it to two later shapes at once.
  const live = [];
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < 1000; i++) {
      Shape.circle(i, 0, 1).free();
      live.push(Shape.circle(live.length, 1, 2));
    }
    await collect();
    for (let i = 0; i < 1000; i++) live.push(Shape.circle(live.length, 1, 2));
  }
  live.forEach((s, i) => assert.deepEqual(s.toJSON(), { type: 'circle', center: [i, 1], radius: 2 }, `shape ${i}`));
});
