// index.d.ts declares every export of the package (node.js and index.js export the same
// api.js), and the TypeScript check in .ci/npm (consumer/use.ts) uses every one of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as api from '../node.js';

const read = (path) => readFileSync(new URL(path, import.meta.url), 'utf8');

test('every export is declared in index.d.ts and used by consumer/use.ts', () => {
  const declared = new Set([...read('../index.d.ts').matchAll(/^export (?:declare )?(?:function|class) (\w+)/gm)].map((m) => m[1]));
  const exported = Object.keys(api).sort();
  assert.deepEqual(exported, [...declared].sort());
  const imports = read('../consumer/use.ts').match(/import \{([^}]*)\} from 'collide2d'/)[1];
  const used = imports.split(',').map((s) => s.trim()).filter((s) => s && !s.startsWith('type '));
  assert.deepEqual(used.sort(), exported);
  assert.match(read('../index.js'), /export \* from '\.\/api\.js';/);
});
