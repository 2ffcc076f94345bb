// The package as a user gets it: installed from its tarball, imported by name from plain ESM.
import assert from 'node:assert/strict';
import { Shape, World, intersects, contact } from 'collide2d';

const player = Shape.rect(0, 0, 16, 32);
const bullet = Shape.circle(20, 10, 4);
assert.equal(intersects(player, bullet), true); // touching counts
assert.deepEqual(contact(player, bullet).normal, { x: 1, y: 0 });

const world = new World({ broadPhase: 'grid', cellSize: 16 });
const me = world.insert(player, { value: { name: 'player' } });
world.insert(bullet, { value: { name: 'bullet' } });
world.update();
assert.deepEqual([...world.pairs()], [me, 1]);
assert.deepEqual(world.values(world.pairs()).map((v) => v.name), ['player', 'bullet']);
world.free();
console.log('use.mjs: ok');
