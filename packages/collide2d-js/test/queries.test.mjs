// Every pair and single-shape query, with touching cases (touching counts) and their answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  Shape, intersects, contact, distance, closestPoints, contains, containsPoint,
  distanceToPoint, projectPoint, castRay, castShapes,
} from '../node.js';

const close = (a, b) => Math.abs(a - b) < 1e-6;

test('a box and a circle touching: a hit with a contact from a towards b', () => {
  const player = Shape.rect(0, 0, 16, 32);
  const bullet = Shape.circle(20, 10, 4);
  assert.equal(intersects(player, bullet), true);
  assert.deepEqual(contact(player, bullet), { normal: { x: 1, y: 0 }, depth: 0, points: [{ x: 16, y: 10 }] });
  assert.deepEqual(contact(bullet, player).normal, { x: -1, y: 0 });
  assert.equal(distance(player, bullet), 0);
  assert.equal(closestPoints(player, bullet), null);
});

test('shapes one unit apart: no hit, their distance and closest points', () => {
  const a = Shape.rect(0, 0, 10, 10);
  const b = Shape.rect(11, 0, 10, 10);
  assert.equal(intersects(a, b), false);
  assert.equal(contact(a, b), null);
  assert.equal(distance(a, b), 1);
  const c = closestPoints(a, Shape.circle(20, 5, 2));
  assert.equal(c.distance, 8);
  assert.deepEqual([c.a, c.b], [{ x: 10, y: 5 }, { x: 18, y: 5 }]);
});

test('overlapping boxes have two contact points and a depth', () => {
  const c = contact(Shape.rect(0, 0, 4, 4), Shape.rect(3, 1, 4, 2));
  assert.deepEqual(c.normal, { x: 1, y: 0 });
  assert.equal(c.depth, 1);
  assert.equal(c.points.length, 2);
});

test('concave polygons and compounds: the notch is outside', () => {
  const u = Shape.polygon([0, 0, 6, 0, 6, 6, 4, 6, 4, 2, 2, 2, 2, 6, 0, 6]);
  const inNotch = Shape.circle(3, 4, 0.9);
  assert.equal(intersects(u, inNotch), false);
  assert.equal(intersects(u, Shape.circle(3, 4, 1)), true, 'touching the notch walls');
  assert.equal(containsPoint(u, 3, 4), false);
  assert.equal(containsPoint(u, 2, 4), true, 'boundary');
  const hitbox = Shape.compound([Shape.rect(0, 0, 1, 1), Shape.rect(5, 0, 1, 1)]);
  assert.equal(intersects(hitbox, Shape.point(3, 0.5)), false);
  assert.equal(intersects(hitbox, Shape.segment(1, 0.5, 5, 0.5)), true);
});

test('containment and point queries', () => {
  const big = Shape.circle(0, 0, 10);
  assert.equal(contains(big, Shape.rect(-5, -5, 10, 10)), true);
  assert.equal(contains(big, Shape.rect(-5, -5, 20, 10)), false);
  assert.equal(containsPoint(big, 10, 0), true);
  assert.equal(distanceToPoint(big, 13, 4), Math.fround(Math.hypot(13, 4) - 10));
  assert.deepEqual(projectPoint(Shape.rect(0, 0, 2, 2), 5, 1), { x: 2, y: 1, inside: false });
  assert.deepEqual(projectPoint(Shape.rect(0, 0, 2, 2), 1, 1.5), { x: 1, y: 2, inside: true }, "the nearest wall");
});

test('rays and moving shapes meet the near side first', () => {
  const wall = Shape.rect(10, -5, 1, 10);
  assert.deepEqual(castRay(wall, 0, 0, 1, 0), { t: 10, point: { x: 10, y: 0 }, normal: { x: -1, y: 0 } });
  assert.equal(castRay(wall, 0, 0, 1, 0, 9.5), null);
  assert.equal(castRay(wall, 0, 0, -1, 0), null);
  const hit = castShapes(Shape.circle(0, 0, 1), 100, 0, wall, 0, 0);
  assert.ok(close(hit.t, 0.09), hit.t);
  assert.deepEqual([hit.point, hit.normal, hit.depth], [{ x: 10, y: 0 }, { x: 1, y: 0 }, 0]);
  assert.equal(castShapes(Shape.circle(0, 0, 1), 0, 100, wall, 0, 0), null);
});

test('exact at touching and one unit apart, far from the origin', () => {
  // Every coordinate here is an f32 integer (below 2^24).
  for (const base of [0, 1000, 1e6, 8e6]) {
    const a = Shape.rect(base, base, 100, 100);
    assert.equal(intersects(a, Shape.rect(base + 100, base, 100, 100)), true);
    assert.equal(intersects(a, Shape.rect(base + 101, base, 100, 100)), false);
    assert.equal(intersects(Shape.circle(base, 0, 3), Shape.circle(base + 5, 0, 2)), true);
    assert.equal(intersects(Shape.circle(base, 0, 3), Shape.circle(base + 6, 0, 2)), false);
  }
  // 3-4-5: circles whose centres are exactly 5 apart, radii 2 + 3.
  assert.equal(intersects(Shape.circle(0, 0, 2), Shape.circle(3, 4, 3)), true);
  assert.equal(intersects(Shape.circle(0, 0, 2), Shape.circle(3, 4, 2.999999)), false);
});
