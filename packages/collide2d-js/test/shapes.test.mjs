// Shapes: every constructor, the errors naming the field, JSON both ways, bounds and moves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Shape } from '../node.js';

test('every constructor builds its type', () => {
  const made = [
    [Shape.point(1, 2), 'point', { minX: 1, minY: 2, maxX: 1, maxY: 2 }],
    [Shape.segment(0, 0, 4, 2), 'segment', { minX: 0, minY: 0, maxX: 4, maxY: 2 }],
    [Shape.circle(1, 1, 2), 'circle', { minX: -1, minY: -1, maxX: 3, maxY: 3 }],
    [Shape.rect(1, 2, 3, 4), 'aabb', { minX: 1, minY: 2, maxX: 4, maxY: 6 }],
    [Shape.aabb(-1, -2, 1, 2), 'aabb', { minX: -1, minY: -2, maxX: 1, maxY: 2 }],
    [Shape.obb(0, 0, 2, 1, 0), 'obb', { minX: -2, minY: -1, maxX: 2, maxY: 1 }],
    [Shape.capsule(0, 0, 4, 0, 1), 'capsule', { minX: -1, minY: -1, maxX: 5, maxY: 1 }],
    [Shape.polygon([0, 0, 4, 0, 4, 4, 2, 1, 0, 4]), 'polygon', { minX: 0, minY: 0, maxX: 4, maxY: 4 }],
    [Shape.convexPolygon(new Float64Array([0, 0, 2, 0, 0, 2])), 'polygon', { minX: 0, minY: 0, maxX: 2, maxY: 2 }],
  ];
  for (const [shape, kind, bounds] of made) {
    assert.equal(shape.kind, kind);
    // Round shapes' boxes are rounded outwards (a few ulps): every point stays inside.
    const got = shape.bounds();
    for (const k of Object.keys(bounds)) {
      assert.ok(Math.abs(got[k] - bounds[k]) < 1e-6, `${kind}.${k}: ${got[k]}`);
      assert.ok(k.startsWith('min') ? got[k] <= bounds[k] : got[k] >= bounds[k], `${kind}.${k} outwards`);
    }
  }
  const body = Shape.rect(0, 0, 2, 4);
  const arm = Shape.rect(2, 2, 3, 1);
  const hitbox = Shape.compound([body, arm]);
  assert.equal(hitbox.kind, 'compound');
  assert.deepEqual(hitbox.bounds(), { minX: 0, minY: 0, maxX: 5, maxY: 4 });
  assert.equal(body.kind, 'aabb', 'the parts stay usable');
});

test('bad shapes throw Errors naming the type, the field and the value', () => {
  const cases = [
    [() => Shape.circle(0, 0, -1), /^circle\.radius must be >= 0, got -1$/],
    [() => Shape.circle(NaN, 0, 1), /^circle\.center\.x must be finite, got NaN$/],
    [() => Shape.rect(0, 0, -2, 1), /^rect\.w must be >= 0, got -2$/],
    [() => Shape.aabb(2, 0, 1, 1), /^aabb\.min\.x must be <= max\.x, got 2 > 1$/],
    [() => Shape.capsule(0, 0, 1, 1, -0.5), /^capsule\.radius must be >= 0/],
    [() => Shape.polygon([0, 0, 1, 1]), /^polygon\.points must hold at least 3 distinct points, got 2$/],
    [() => Shape.polygon([0, 0, 1, 1, 2]), /^polygon\.points must hold x, y pairs, got 5 numbers$/],
    [() => Shape.polygon([0, 0, 6, 0, 0, 4, 2, 6]), /^polygon\.points cross themselves: edge 1 meets edge 3$/],
    [() => Shape.convexPolygon([0, 0, 4, 0, 4, 4, 2, 1, 0, 4]), /^polygon\.points are not convex/],
    [() => Shape.compound([]), /^compound\.parts must not be empty$/],
    [() => Shape.compound([{}]), /^compound\.parts\[0\] must be a Shape$/],
    [() => Shape.fromJSON({ type: 'circle', center: [0, 0], radius: -1 }), /^circle\.radius must be >= 0, got -1/],
    [() => Shape.fromJSON('{"type": "hexagon"}'), /unknown variant `hexagon`|hexagon/],
    [() => Shape.circle(0, 0, 1).transformed(0, 0, Infinity), /^angle must be finite, got inf/],
  ];
  for (const [make, message] of cases) {
    assert.throws(make, (e) => e instanceof Error && message.test(e.message), String(message));
  }
});

test('shapes load from and write FORMAT.md JSON', () => {
  const json = { type: 'rect', x: 1, y: 2, w: 3, h: 4 };
  const box = Shape.fromJSON(json);
  assert.deepEqual(box.toJSON(), { type: 'aabb', min: [1, 2], max: [4, 6] });
  assert.equal(JSON.stringify(box), '{"type":"aabb","min":[1,2],"max":[4,6]}');
  const nested = {
    type: 'compound',
    parts: [
      { type: 'circle', center: [0, 0], radius: 1 },
      { type: 'polygon', points: [[0, 0], [4, 0], [4, 4], [2, 1], [0, 4]] },
    ],
  };
  const again = Shape.fromJSON(JSON.stringify(nested));
  assert.deepEqual(Shape.fromJSON(again.toJSON()).toJSON(), again.toJSON());
  assert.equal(again.kind, 'compound');
});

test('moved and rotated shapes', () => {
  const box = Shape.rect(-1, -1, 2, 2);
  assert.deepEqual(box.translated(5, 1).bounds(), { minX: 4, minY: 0, maxX: 6, maxY: 2 });
  const turned = box.transformed(5, 0, Math.PI / 4);
  assert.equal(turned.kind, 'obb');
  assert.ok(Math.abs(turned.bounds().maxX - (5 + Math.SQRT2)) < 1e-6);
  assert.equal(box.clone().kind, 'aabb');
});
