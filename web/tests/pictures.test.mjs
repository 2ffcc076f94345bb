// The SVG pictures of `collide2d render` and `collide2d demo --svg`, rasterised in Debian's
// chromium (driven by playwright-core) and checked with the browser's own text metrics: every
// picture fits the window without scroll bars at its own size and at 900 x 700, and no label's
// text box overlaps another label or a contact normal (shaft and head). Screenshots go to
// target/pictures-*.png (CI keeps them as artifacts).
//
// Needs the collide2d binary (cargo build -p collide2d-cli). Environment: COLLIDE2D_BIN,
// CHROMIUM, SCREENSHOT_DIR as for playground.test.mjs.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { near, overlap } from "./geometry.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const bin = process.env.COLLIDE2D_BIN ?? join(repo, "target/debug/collide2d");
const screenshots = process.env.SCREENSHOT_DIR ?? join(repo, "target");
const scenes = join(repo, "crates/collide2d-cli/tests/scenes");

let browser;

before(async () => {
  mkdirSync(screenshots, { recursive: true });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox"],
  });
});

after(async () => {
  await browser?.close();
});

// Writes target/pictures-NAME.svg with `collide2d ARGS`.
function picture(name, args) {
  const out = join(screenshots, `pictures-${name}.svg`);
  execFileSync(bin, args(out), { stdio: ["ignore", "ignore", "inherit"] });
  return out;
}


// Opens the SVG at `width` x `height` CSS pixels, checks it, and saves a screenshot.
async function check(file, name, width, height) {
  const page = await browser.newPage({ viewport: { width, height } });
  await page.goto(pathToFileURL(file).href);
  const found = await page.evaluate(() => {
    const screen = (el, x, y) => {
      const m = el.getScreenCTM();
      return [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f];
    };
    const root = document.documentElement;
    const labels = [...document.querySelectorAll("g.labels text")].map((t) => {
      const r = t.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height, text: t.textContent };
    });
    const arrows = [...document.querySelectorAll("line.normal")].map((l) => [
      screen(l, l.x1.baseVal.value, l.y1.baseVal.value),
      screen(l, l.x2.baseVal.value, l.y2.baseVal.value),
    ]);
    const scale = root.getScreenCTM().a;
    return { labels, arrows, scale, scroll: [root.scrollWidth, root.scrollHeight, innerWidth, innerHeight] };
  });
  const [sw, sh, iw, ih] = found.scroll;
  assert.ok(sw <= iw && sh <= ih, `${name}: scroll bars at ${width} x ${height}: ${found.scroll}`);
  for (const [i, a] of found.labels.entries()) {
    for (const b of found.labels.slice(i + 1)) {
      assert.ok(!overlap(a, b), `${name}: labels "${a.text}" and "${b.text}" overlap`);
    }
    for (const arrow of found.arrows) {
      // The head: 7 x 7 stroke widths of 1.5 at the tip, so about 5 pixels either side.
      assert.ok(!near(a, arrow, 5 * found.scale), `${name}: label "${a.text}" on a normal`);
    }
  }
  await page.screenshot({ path: join(screenshots, `pictures-${name}-${width}.png`) });
  await page.close();
  return found;
}

function size(file) {
  const m = readFileSync(file, "utf8").match(/data-width="([\d.]+)" data-height="([\d.]+)"/);
  return [Math.ceil(Number(m[1])), Math.ceil(Number(m[2]))];
}

const pictures = {
  platformer: (out) => ["render", join(scenes, "platformer.json"), "-o", out],
  "platformer-debug": (out) => ["render", "--debug", join(scenes, "platformer.json"), "-o", out],
  crowded: (out) => ["render", join(scenes, "crowded.json"), "-o", out],
  "crowded-y-down": (out) => ["render", "--y-down", "--width", "500", join(scenes, "crowded.json"), "-o", out],
  cases: (out) => ["demo", "--cases", "--svg", out],
  demo: (out) => ["demo", "--frames", "20", "--bullets", "6000", "--svg", out],
};

for (const [name, args] of Object.entries(pictures)) {
  test(`${name}: fits any window, labels clear of each other and of the normals`, async () => {
    const file = picture(name, args);
    const [w, h] = size(file);
    const found = await check(file, name, w, h);
    await check(file, name, 900, 700);
    if (name !== "cases") assert.ok(found.labels.length > 0, name);
    if (name.startsWith("crowded")) assert.equal(found.labels.length, 14);
  });
}
