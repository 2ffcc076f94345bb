// The package README's example runs as written (its import pointed at this checkout), and the
// answers its comments state are the ones it gets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Shape } from '../node.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

test('the README example runs and answers what its comments say', async () => {
  const example = readme.match(/```js\n([\s\S]*?)```/)[1];
  const node = new URL('../node.js', import.meta.url).href;
  const source = example.replace("from 'collide2d'", `from '${node}'`) +
    'export const answers = { hit: intersects(wall, ball), contact: contact(wall, ball), began: world.values(world.began()) };\n';
  const { answers } = await import(`data:text/javascript,${encodeURIComponent(source)}`);
  assert.equal(answers.hit, true);
  assert.deepEqual(answers.contact.normal, { x: 0, y: 1 });
  assert.equal(answers.contact.depth, 0);
  assert.deepEqual(answers.began, ['floor', 'rock']);
  const [, message] = readme.match(/`Shape\.circle\(0, 0, -1\)` throws `([^`]+)`/);
  assert.throws(() => Shape.circle(0, 0, -1), { message });
});
