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
import { near, overlap } from "./geometry.mjs";
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
  // Counts text painted on a canvas: the page has one readout, in HTML, and none in pictures.
  await page.addInitScript(() => {
    window.canvasTexts = 0;
    const fillText = CanvasRenderingContext2D.prototype.fillText;
    CanvasRenderingContext2D.prototype.fillText = function (...args) {
      window.canvasTexts += 1;
      return fillText.apply(this, args);
    };
  });
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

// The page boxes (CSS pixels) of the shape labels, and the arrows (shaft from the contact point
// to the tip) with their heads, from the page itself.
async function labelsAndArrows() {
  const labels = [];
  for (const id of ["#label-a", "#label-b"]) {
    if (await page.locator(id).isVisible()) labels.push(await page.locator(id).boundingBox());
  }
  const arrows = await page.evaluate(() => {
    const canvas = document.getElementById("pair-canvas");
    const rect = canvas.getBoundingClientRect();
    const scale = rect.width / canvas.width;
    const at = ([x, y]) => [rect.left + x * scale, rect.top + y * scale];
    return window.playground.drawn().arrows.map(([a, b]) => [at(a), at(b)]);
  });
  return { labels, arrows };
}


test("one readout: the verdict is printed once, below the canvas, and no text is painted on it", async () => {
  assert.equal(await page.evaluate(() => window.canvasTexts), 0);
  const verdicts = await page.locator("text=/^(hit|no hit)$/").count();
  assert.equal(verdicts, 1);
  const canvas = await page.locator("#pair-canvas").boundingBox();
  const readout = await page.locator("#status").boundingBox();
  assert.ok(readout.y >= canvas.y + canvas.height, JSON.stringify({ canvas, readout }));
});

test("labels stay clear of the arrows and of each other wherever the box touches the circle", async () => {
  const circle = await onPage("B");
  let contacts = 0;
  // The box around the circle: left, above-left, above, right, below.
  for (const [dx, dy] of [[-80, -20], [-70, -60], [0, -85], [80, 10], [20, 80], [-60, 60]]) {
    const box = await onPage("A");
    await drag(box, { x: circle.x + dx, y: circle.y + dy });
    assert.equal(await status(), "hit", `${dx}, ${dy}`);
    const { labels, arrows } = await labelsAndArrows();
    assert.equal(labels.length, 2, `${dx}, ${dy}`);
    contacts += arrows.length;
    assert.ok(!overlap(labels[0], labels[1]), `labels overlap at ${dx}, ${dy}`);
    for (const label of labels) {
      for (const a of arrows) {
        // The head reaches about 4 pixels either side of the shaft.
        assert.ok(!near(label, a, 4), `label ${JSON.stringify(label)} on arrow ${JSON.stringify(a)} at ${dx}, ${dy}`);
      }
    }
  }
  assert.ok(contacts >= 6);
  await page.screenshot({ path: join(screenshots, "playground-labels.png") });
  assert.equal(await page.evaluate(() => window.canvasTexts), 0);
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
  // The statistics are a panel below the canvas, never over the shapes.
  const canvas = await page.locator("#swarm-canvas").boundingBox();
  const panel = await page.locator("#swarm-stats").boundingBox();
  assert.ok(!overlap(canvas, panel) && panel.y >= canvas.y + canvas.height, JSON.stringify({ canvas, panel }));
  assert.equal(await page.evaluate(() => window.canvasTexts), 0);
  await page.screenshot({ path: join(screenshots, "playground-swarm.png") });
});

test("no errors on the page", () => {
  assert.deepEqual(pageErrors, []);
});
