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

test('worlds dropped without free are reclaimed by the garbage collector', { skip: typeof globalThis.gc !== 'function' && 'run node with --expose-gc' }, async () => {
  const batch = async () => {
    for (let i = 0; i < 1000; i++) oneWorld();
    // FinalizationRegistry callbacks run after a collection, on a later task.
    for (let k = 0; k < 3; k++) {
      globalThis.gc();
      await tick();
    }
  };
  for (let i = 0; i < 2; i++) await batch();
  const before = heapBytes();
  for (let i = 0; i < 8; i++) await batch();
  assert.equal(heapBytes(), before, 'the heap of 2,000 dropped worlds held 8,000 more');
});
