// The world: inserting with values, moving one and many, pairs and events over frames (equal
// to an all-pairs loop over the same shapes), fast objects, contacts, queries, errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { World, Shape, intersects, handleIndex } from '../node.js';
import { populate } from './scene.mjs';

/** Every colliding pair by testing all of them, as the world should find them. */
function bruteForce(world, handles, kinds, filters) {
  const shapes = [...handles].map((h) => world.shape(h));
  const pairs = [];
  for (let i = 0; i < shapes.length; i++) {
    for (let j = i + 1; j < shapes.length; j++) {
      if (kinds[i] === 'static' && kinds[j] === 'static') continue;
      const [a, b] = [filters[i], filters[j]];
      if ((a.layer & b.mask) === 0 || (b.layer & a.mask) === 0) continue;
      if (intersects(shapes[i], shapes[j])) pairs.push(handles[i], handles[j]);
    }
  }
  for (const s of shapes) s.free();
  return pairs;
}

test('pairs, values and events for a player and bullets', () => {
  const world = new World({ broadPhase: 'grid', cellSize: 4 });
  const PLAYER = 1, BULLET = 2;
  const player = world.insert(Shape.circle(0, 0, 1), { layer: PLAYER, mask: BULLET, value: 'player' });
  for (let i = 0; i < 100; i++) {
    world.insert(Shape.circle(0, 0, 0.5), { x: 1.5 + i * 0.1, layer: BULLET, mask: PLAYER, value: `bullet ${i}` });
  }
  assert.deepEqual(world.update(), { objects: 101, candidates: 1, pairs: 1, began: 1, ended: 0 });
  const pairs = world.pairs();
  assert.ok(pairs instanceof Float64Array);
  assert.deepEqual([...pairs], [player, 1]);
  assert.deepEqual(world.values(pairs), ['player', 'bullet 0']);
  assert.deepEqual([...world.began()], [player, 1]);
  world.setPosition(player, -5, 0);
  assert.deepEqual(world.position(player), { x: -5, y: 0 });
  assert.equal(world.update().ended, 1);
  assert.deepEqual([...world.ended()], [player, 1]);
  assert.equal(world.objectsAtPoint(1.5, 0, BULLET).length, 6);
  world.free();
});

test('moving many from Float32Arrays: pairs equal an all-pairs loop over 30 frames', () => {
  for (const options of [{ broadPhase: 'grid', cellSize: 10 }, { broadPhase: 'tree', margin: 1 }]) {
    const world = new World(options);
    const count = 300;
    const { handles, deltas } = populate(world, Shape, count, 7);
    const kinds = [...handles].map((_, i) => (i % 7 === 0 ? 'static' : 'dynamic'));
    const filters = kinds.map((_, i) => (i % 5 === 0 ? { layer: 2, mask: 1 } : { layer: 1, mask: 0xffffffff }));
    const moving = handles.filter((_, i) => kinds[i] !== 'static');
    let previous = new Set();
    for (let frame = 0; frame < 30; frame++) {
      if (frame % 2 === 0) {
        world.moveMany(moving, deltas().subarray(0, moving.length * 2));
      } else {
        const to = new Float32Array(moving.length * 2);
        moving.forEach((h, i) => {
          const p = world.position(h);
          to.set([p.x + (i % 3) - 1, p.y + 1 - (i % 3)], i * 2);
        });
        world.setPositions(moving, to);
      }
      const stats = world.update();
      const pairs = world.pairs();
      assert.deepEqual([...pairs], bruteForce(world, handles, kinds, filters), `frame ${frame}`);
      assert.equal(stats.pairs * 2, pairs.length);
      const now = new Set();
      for (let i = 0; i < pairs.length; i += 2) now.add(`${pairs[i]},${pairs[i + 1]}`);
      const began = world.began();
      const ended = world.ended();
      assert.equal(began.length / 2, [...now].filter((p) => !previous.has(p)).length);
      assert.equal(ended.length / 2, [...previous].filter((p) => !now.has(p)).length);
      previous = now;
    }
    assert.ok(previous.size > 0, 'a crowded field has collisions');
    world.free();
  }
});

test('a fast bullet is caught by a wall it passes in one step, with its time of impact', () => {
  const world = new World({ contacts: true });
  const wall = world.insert(Shape.rect(10, -5, 2, 10), { kind: 'static', value: 'wall' });
  const bullet = world.insert(Shape.circle(0, 0, 1), { kind: 'fast', value: 'bullet' });
  world.update();
  world.moveBy(bullet, 50, 0);
  world.update();
  assert.deepEqual([...world.pairs()], [wall, bullet]);
  assert.ok(Math.abs(world.pairTimes()[0] - 0.18) < 1e-6);
  const [c] = world.contacts();
  assert.deepEqual(c.normal, { x: -1, y: 0 }, 'from the wall (a) towards the bullet (b)');
  world.free();
});

test('point, overlap, ray and shape-cast queries', () => {
  const world = new World();
  const a = world.insert(Shape.rect(10, -5, 1, 10), { value: 'near' });
  const b = world.insert(Shape.rect(20, -5, 1, 10), { value: 'far', layer: 2 });
  assert.deepEqual([...world.objectsAtPoint(10, 5)], [a]);
  assert.deepEqual([...world.objectsOverlapping(Shape.rect(0, 0, 30, 1))], [a, b]);
  assert.deepEqual([...world.objectsOverlapping(Shape.rect(0, 0, 30, 1), 2)], [b]);
  assert.deepEqual(world.castRay(0, 0, 1, 0), { handle: a, t: 10, point: { x: 10, y: 0 }, normal: { x: -1, y: 0 } });
  assert.deepEqual(world.castRay(0, 0, 1, 0, { mask: 2 }).handle, b);
  assert.equal(world.castRay(0, 0, 1, 0, { maxT: 5 }), null);
  assert.deepEqual(world.castRayAll(0, 0, 1, 0).map((h) => h.handle), [a, b]);
  const probe = Shape.circle(0, 0, 1);
  const hit = world.castShape(probe, 100, 0);
  assert.equal(hit.handle, a);
  assert.ok(Math.abs(hit.t - 0.09) < 1e-6);
  assert.deepEqual(world.castShapeAll(probe, 100, 0).map((h) => world.value(h.handle)), ['near', 'far']);
  assert.equal(world.castShape(probe, 0, 100), null);
  world.free();
});

test('moveShape: slide on flush tiles, cross a coin, stop, bounce, one-way platforms', () => {
  const world = new World();
  for (let i = 0; i < 8; i++) world.insert(Shape.rect(i * 16, 0, 16, 16), { kind: 'static', value: 'ground' });
  const coin = world.insert(Shape.rect(72, 20, 8, 8), { kind: 'static', response: 'cross', value: 'coin' });
  const player = Shape.rect(8, 40, 12, 24);
  const moved = world.moveShape(player, 80, -40);
  assert.deepEqual([moved.dx, moved.dy], [80, -24], 'standing on the ground at y = 16');
  assert.ok(moved.contacts.some((c) => c.normal.y > 0.7 && c.response === 'slide'), 'grounded');
  assert.ok(moved.contacts.some((c) => c.handle === coin && c.response === 'cross'));
  assert.deepEqual(world.moveShape(player, 80, -40, { mask: 0 }), { dx: 80, dy: -40, contacts: [], ground: null });

  const walls = new World();
  const wall = walls.insert(Shape.rect(10, -10, 2, 20), { kind: 'static', response: 'stop' });
  const box = Shape.rect(0, 0, 2, 2);
  const stopped = walls.moveShape(box, 20, 5);
  assert.deepEqual([stopped.dx, stopped.contacts[0].response], [8, 'stop']);
  walls.setResponse(wall, 'bounce');
  const bounced = walls.moveShape(box, 20, 0);
  assert.deepEqual([bounced.dx, bounced.contacts[0].response], [-4, 'bounce']);
  walls.setResponse(wall, 'oneWay', { x: -1, y: 0 });
  assert.equal(walls.moveShape(box, 20, 0).dx, 8, 'solid from the left');
  assert.equal(walls.moveShape(box.translated(20, 0), -20, 0).dx, -20, 'open from the right');
  walls.free();
  world.free();
});

test('moveShape as a character: steps, crates, a lift carrying its rider, ground', () => {
  const world = new World();
  world.insert(Shape.rect(0, 0, 200, 16), { kind: 'static' });
  world.insert(Shape.rect(40, 16, 40, 4), { kind: 'static' }); // a ledge 4 high
  const crate = world.insert(Shape.rect(100, 16, 8, 8));
  const lift = world.insert(Shape.rect(150, 16, 30, 4));
  const options = { obstacles: 'all', maxSlope: 0.9, stepHeight: 6, snapToGround: 6, depenetrate: true };
  const stepped = world.moveShape(Shape.rect(20, 16, 12, 24), 30, -1, options);
  assert.deepEqual([stepped.dx, stepped.dy], [30, 4], 'onto the ledge');
  assert.equal(stepped.ground.normal.y, 1);
  const blocked = world.moveShape(Shape.rect(84, 16, 12, 24), 10, -1, { ...options, stepHeight: 0 });
  assert.deepEqual([blocked.dx, blocked.contacts.at(-1).handle], [4, crate], 'the crate blocks');
  world.moveBy(lift, 0, 3);
  const rider = Shape.rect(160, 20, 12, 24);
  const carried = world.moveShape(rider, 0, -1, { ...options, platforms: [{ handle: lift, dx: 0, dy: 3 }] });
  assert.deepEqual([carried.dx, carried.dy, carried.ground.handle], [0, 3, lift]);
  assert.throws(() => world.moveShape(rider, 0, 0, { obstacles: 'some' }), /^Error: obstacles must be one of/);
  assert.throws(() => world.moveShape(rider, 0, 0, { stepHeight: NaN }), /^Error: stepHeight must be finite, got NaN$/);
  assert.throws(() => world.moveShape(rider, 0, 0, { platforms: [{ handle: 99, dx: 0, dy: 1 }] }), /^Error: platforms\[0\]: handle 99v0 does not name a live object$/);
  world.free();
});

test('removal, stale handles and bad options throw Errors naming them', () => {
  const world = new World();
  const first = world.insert(Shape.point(0, 0), { value: 'first' });
  assert.equal(world.remove(first), 'first');
  assert.equal(world.has(first), false);
  const second = world.insert(Shape.point(0, 0), { value: 'second' });
  assert.equal(handleIndex(second), handleIndex(first), 'the slot is reused');
  assert.notEqual(second, first, 'with a new generation');
  assert.equal(world.value(first), undefined);
  assert.equal(world.value(second), 'second');
  assert.throws(() => world.moveBy(first, 1, 0), /^Error: handle 0v0 does not name a live object$/);
  assert.throws(() => world.remove(first), /handle 0v0 does not name a live object/);
  assert.throws(() => world.moveMany(new Float64Array([second, first]), new Float32Array(4)), /^Error: handles\[1\]: handle 0v0 does not name/);
  assert.deepEqual(world.position(second), { x: 0, y: 0 }, 'nothing moved');
  assert.throws(() => world.moveMany(new Float64Array([second]), new Float32Array(3)), /expected 2 numbers per handle \(2\), got 3/);
  assert.throws(() => world.moveBy(second, NaN, 0), /motion must be finite/);
  assert.throws(() => world.insert(Shape.point(0, 0), { kind: 'flying' }), /^Error: kind must be one of 'dynamic', 'static', 'fast', got "flying"$/);
  assert.throws(() => world.insert(Shape.point(0, 0), { response: 'teleport' }), /^Error: response must be one of/);
  assert.throws(() => world.insert(Shape.point(0, 0), { x: Infinity }), /^Error: x must be finite, got inf$/);
  assert.throws(() => new World({ broadPhase: 'grid', cellSize: -1 }), /cell_size must be finite and > 0, got -1/);
  assert.throws(() => new World({ broadPhase: 'quadtree' }), /broadPhase must be 'tree' or 'grid'/);
  assert.throws(() => world.setValue(first, 1), /does not name a live object/);
  world.free();
});
