// The playground in a real browser: Debian's chromium, driven by playwright-core, loads the page
// served by `collide2d serve`, drags the box onto the circle and away again with the mouse, and
// reads the page's verdict. Screenshots go to target/ (CI keeps them as artifacts).
//
// Needs web/pkg built (web/build.sh) and the collide2d binary (cargo build -p collide2d-cli).
// Environment: COLLIDE2D_BIN (default target/debug/collide2d), CHROMIUM (default
// /usr/bin/chromium), SCREENSHOT_DIR (default target).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { serve } from "./serve.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const bin = process.env.COLLIDE2D_BIN ?? join(repo, "target/debug/collide2d");
const screenshots = process.env.SCREENSHOT_DIR ?? join(repo, "target");

let server;
let url;
let browser;
let page;
const pageErrors = [];

before(async () => {
  ({ server, url } = await serve(bin, join(repo, "web")));
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    // CI runs as root, where chromium's sandbox cannot start.
    args: ["--no-sandbox"],
  });
  page = await browser.newPage({ viewport: { width: 1000, height: 860 } });
  page.on("pageerror", (error) => pageErrors.push(String(error)));
  page.on("console", (message) => {
    if (message.type() === "error") pageErrors.push(message.text());
  });
  await page.goto(url);
  await page.waitForFunction(() => window.playground && window.playground.ready);
  mkdirSync(screenshots, { recursive: true });
});

after(async () => {
  await browser?.close();
  server?.removeAllListeners("exit");
  server?.kill();
});

// Where a body's pose origin is on the page, in CSS pixels.
async function onPage(name) {
  return page.evaluate((name) => {
    const body = window.playground.bodies.find((b) => b.name === name);
    const rect = document.getElementById("pair-canvas").getBoundingClientRect();
    const canvas = document.getElementById("pair-canvas");
    return {
      x: rect.left + (body.x * rect.width) / canvas.width,
      y: rect.top + (body.y * rect.height) / canvas.height,
    };
  }, name);
}

async function drag(from, to) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 12 });
  await page.mouse.up();
}

const status = () => page.locator("#status").textContent();

test("the page loads with the box clear of the circle", async () => {
  assert.equal(await status(), "no hit");
  assert.match(await page.locator("#details").textContent(), /^distance \d/);
});

test("dragging the box onto the circle reads hit, away again reads no hit", async () => {
  const box = await onPage("A");
  const circle = await onPage("B");
  // Box half-width 55, circle radius 50: 80 to the left of the centre, they overlap by 25.
  await drag(box, { x: circle.x - 80, y: circle.y - 20 });
  assert.equal(await status(), "hit");
  const details = await page.locator("#details").textContent();
  assert.match(details, /normal \(/);
  assert.match(details, /depth \d/);
  assert.match(details, /points \(/);
  await page.screenshot({ path: join(screenshots, "playground.png") });

  const moved = await onPage("A");
  await drag(moved, { x: moved.x, y: moved.y + 220 });
  assert.equal(await status(), "no hit");
  await page.screenshot({ path: join(screenshots, "playground-apart.png") });
});

test("turning the wheel over the box rotates it (an aabb turned is an obb)", async () => {
  const box = await onPage("A");
  await page.mouse.move(box.x, box.y);
  await page.mouse.wheel(0, 100);
  await page.mouse.wheel(0, 100);
  const body = await page.evaluate(() => window.playground.bodies[0]);
  assert.ok(Math.abs(body.angle - 0.16) < 1e-9, String(body.angle));
  assert.equal(body.placed.type, "obb");
  assert.match(await status(), /^(hit|no hit)$/);
});

test("every shape type can be picked, and a polygon drawn by clicking", async () => {
  const kinds = await page.locator("#kind-a option").allTextContents();
  for (const kind of ["point", "segment", "circle", "aabb", "rect", "obb", "capsule", "polygon", "compound"]) {
    assert.ok(kinds.includes(kind), kind);
    await page.selectOption("#kind-a", kind);
    assert.match(await status(), /^(hit|no hit)$/, kind);
  }
  await page.selectOption("#kind-a", "polygon: draw by clicking");
  const canvas = await page.locator("#pair-canvas").boundingBox();
  for (const [x, y] of [[100, 100], [300, 120], [200, 200], [300, 300], [90, 280]]) {
    await page.mouse.click(canvas.x + x, canvas.y + y);
  }
  await page.click("#finish-polygon");
  assert.match(await status(), /^(hit|no hit)$/);
  const local = await page.evaluate(() => window.playground.bodies[0].local);
  assert.equal(local.type, "polygon");
  assert.equal(local.points.length, 5);
});

test("the many-shapes tab runs and shows its pairs and frame time", async () => {
  await page.click("#tab-swarm");
  await page.waitForFunction(() => /colliding pairs/.test(document.getElementById("swarm-stats").textContent));
  await page.waitForTimeout(1000);
  const stats = await page.locator("#swarm-stats").textContent();
  assert.match(stats, /^3000 objects, \d+ colliding pairs \(\d+ candidates\)/);
  assert.match(stats, /world update \(grid\): [\d.]+ ms a frame/);
  assert.doesNotMatch(stats, /brute/);
  console.log(stats);
  await page.screenshot({ path: join(screenshots, "playground-swarm.png") });
});

test("no errors on the page", () => {
  assert.deepEqual(pageErrors, []);
});
