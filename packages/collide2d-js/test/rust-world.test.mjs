// The JavaScript world against the Rust world: every few frames the scene as the JS world
// holds it (each object's shape, layer, mask and kind) is written as a FORMAT.md scene and
// given to `collide2d pairs`, whose Rust CollisionWorld must find the same pairs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { World, Shape } from '../node.js';
import { populate } from './scene.mjs';

const binary = process.env.COLLIDE2D_BIN
  ?? fileURLToPath(new URL('../../../target/debug/collide2d', import.meta.url));

/** Layer bits as FORMAT.md layer names. */
const names = (bits) => [...Array(32).keys()].filter((b) => (bits >>> b) & 1).map((b) => `l${b}`);

test('pairs equal the Rust world\'s on the same scene, frame after frame', () => {
  assert.ok(existsSync(binary), `${binary} is missing: cargo build -p collide2d-cli (or set COLLIDE2D_BIN)`);
  const dir = mkdtempSync(join(tmpdir(), 'collide2d-js-'));
  const world = new World({ broadPhase: 'grid', cellSize: 10 });
  const count = 400;
  // This CLI's scenes have no static objects: every object moves.
  const { handles, deltas } = populate(world, Shape, count, 11, { statics: false });
  const moving = handles;
  let compared = 0;
  for (let frame = 0; frame < 12; frame++) {
    world.moveMany(moving, deltas().subarray(0, moving.length * 2));
    world.update();
    if (frame % 3 !== 2) continue;
    const objects = [...handles].map((h, i) => {
      const shape = world.shape(h);
      const json = shape.toJSON();
      shape.free();
      const [layer, mask] = i % 5 === 0 ? [2, 1] : [1, 0xffffffff];
      return { id: String(h), shape: json, layer: names(layer)[0], mask: names(mask) };
    });
    const scene = join(dir, `frame${frame}.json`);
    writeFileSync(scene, JSON.stringify({ objects }));
    const rust = execFileSync(binary, ['pairs', scene], { encoding: 'utf8' })
      .split('\n').filter(Boolean).flatMap((line) => {
        const { a, b } = JSON.parse(line);
        return [Number(a), Number(b)];
      });
    const js = [...world.pairs()];
    assert.ok(js.length > 20, `frame ${frame} has pairs`);
    assert.deepEqual(js, rust, `frame ${frame}`);
    compared++;
  }
  assert.equal(compared, 4);
  world.free();
});
