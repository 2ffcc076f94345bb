// The example page in a real browser: Debian's chromium, driven by playwright-core, loads the
// page served by `collide2d serve` (the package folder, so the page imports ../index.js as a
// browser or bundler would), plays both games by script and checks what happened.
// Screenshots: target/example-bullets.png and target/example-platformer.png.
// Needs wasm/ built (build.sh) and the collide2d binary. Environment: COLLIDE2D_BIN (default
// target/debug/collide2d), CHROMIUM (default /usr/bin/chromium), SCREENSHOT_DIR (default target).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../../../web/tests/serve.mjs';

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repo = resolve(packageDir, '../..');
const bin = process.env.COLLIDE2D_BIN ?? join(repo, 'target/debug/collide2d');
const screenshots = process.env.SCREENSHOT_DIR ?? join(repo, 'target');

let server;
let browser;
let page;
const pageErrors = [];

before(async () => {
  let url;
  ({ server, url } = await serve(bin, packageDir));
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox'], // CI runs as root, where chromium's sandbox cannot start
  });
  page = await browser.newPage({ viewport: { width: 840, height: 760 } });
  page.on('pageerror', (error) => pageErrors.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  await page.goto(`${url}example/`);
  await page.waitForFunction(() => window.example && window.example.ready);
  await page.evaluate(() => { window.example.paused = true; });
  mkdirSync(screenshots, { recursive: true });
});

after(async () => {
  await browser?.close();
  server?.removeAllListeners('exit');
  server?.kill();
});

test('bullet hell: rings of bullets hit the still player and the cover, never each other', async () => {
  const last = await page.evaluate(() => {
    window.example.start('bullets');
    return window.example.run(240, {});
  });
  assert.ok(last.bullets > 100, `bullets in flight: ${last.bullets}`);
  assert.ok(last.hits > 0, 'the player was hit');
  assert.ok(last.blocked > 0, 'the cover stopped bullets');
  assert.equal(last.pairs, last.candidates, 'every candidate is a bullet touching a target');
  await page.screenshot({ path: join(screenshots, 'example-bullets.png') });
});

test('platformer: lands, runs over tile seams, collects coins, stands on a one-way platform', async () => {
  const states = await page.evaluate(() => {
    window.example.start('platformer');
    const landed = window.example.run(60, {});
    const ran = window.example.run(50, { right: true });
    // Under the platform (x 256 to 480, y 416): jump up through it, then land on it.
    let onPlatform = false;
    for (let i = 0; i < 60 && !onPlatform; i++) onPlatform = window.example.run(1, { right: true, up: i < 2 }).onPlatform;
    return { landed, ran, onPlatform, after: window.example.run(1, { right: true }) };
  });
  assert.equal(states.landed.grounded, true);
  assert.equal(states.landed.y, 512 - 30, 'standing on the ground row');
  assert.equal(states.ran.y, 512 - 30, 'no snag on the seams');
  assert.ok(states.ran.coins >= 1, 'the coin on the way was collected');
  assert.equal(states.onPlatform, true, 'jumped up through the one-way platform and landed on it');
  assert.equal(states.after.y, 416 - 30);
  await page.screenshot({ path: join(screenshots, 'example-platformer.png') });
});

test('no errors on the page', () => {
  assert.deepEqual(pageErrors, []);
});
