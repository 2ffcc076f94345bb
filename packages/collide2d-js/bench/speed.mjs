// Speed in node, one run: a world update of 10,000 moving circles and boxes with their exact
// pairs (collide2d's World vs detect-collisions' and check2d's System: positions set, the tree
// updated, then checkAll), and pair tests (collide2d's intersects, which decides circles and
// boxes in JS outside a narrow band around touching and calls into wasm otherwise, vs
// SAT.js). Each library times the same frames or pairs; medians of a few rounds, ratios in
// one run. Times are the process's CPU time (user + system), not the wall clock, so a machine
// shared with other work still gives steady ratios. Usage: node speed.mjs [objects] (10000).
import SAT from 'sat';
import * as dc from 'detect-collisions';
import * as c2 from 'check2d';
import { World, Shape, intersects } from 'collide2d';
import { manySmall, rng } from './scenes.mjs';

const N = Number(process.argv[2] ?? 10000);
const FRAMES = 30;
const ROUNDS = 3;

/** CPU milliseconds used by this process so far. */
function now() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

/** ms per frame over FRAMES frames, median of ROUNDS rounds, and the pair count per frame. */
function time(setup, frame) {
  const times = [];
  let pairs = [];
  for (let r = 0; r < ROUNDS; r++) {
    const state = setup();
    const counts = [];
    const t0 = now();
    for (let f = 0; f < FRAMES; f++) counts.push(frame(state, f));
    times.push((now() - t0) / FRAMES);
    pairs = counts;
  }
  return { ms: median(times), pairs };
}

const scene = manySmall(N, FRAMES);

function collide2d() {
  const world = new World({ broadPhase: 'grid', cellSize: 4 });
  const handles = new Float64Array(N);
  scene.bodies.forEach((b, i) => {
    const shape = b.circle ? Shape.circle(0, 0, b.r) : Shape.aabb(-b.hw, -b.hh, b.hw, b.hh);
    handles[i] = world.insert(shape, { x: 0, y: 0 });
    shape.free();
  });
  return { world, handles };
}
const ours = time(collide2d, ({ world, handles }, f) => {
  world.setPositions(handles, scene.positions[f]);
  return world.update().pairs;
});

/** detect-collisions and check2d share one API (check2d is its continuation). */
function system(lib) {
  return () => {
    const sys = new lib.System();
    const bodies = scene.bodies.map((b) => (b.circle
      ? sys.createCircle({ x: 0, y: 0 }, b.r)
      : sys.createBox({ x: 0, y: 0 }, b.hw * 2, b.hh * 2, { isCentered: true })));
    return { sys, bodies };
  };
}
/** Positions set without touching the tree, then one update of the whole tree, then checkAll. */
const systemFrame = ({ sys, bodies }, f) => {
  const p = scene.positions[f];
  for (let i = 0; i < bodies.length; i++) bodies[i].setPosition(p[2 * i], p[2 * i + 1], false);
  sys.update();
  let hits = 0;
  sys.checkAll(() => { hits++; });
  return hits / 2; // each pair is reported from both sides
};
/** Each body's place in the tree updated as it is moved, then checkAll. */
const bodyFrame = ({ sys, bodies }, f) => {
  const p = scene.positions[f];
  for (let i = 0; i < bodies.length; i++) bodies[i].setPosition(p[2 * i], p[2 * i + 1]);
  let hits = 0;
  sys.checkAll(() => { hits++; });
  return hits / 2;
};
/** The faster of the two ways for a library. */
function fastest(lib) {
  const [a, b] = [time(system(lib), systemFrame), time(system(lib), bodyFrame)];
  return a.ms <= b.ms ? { ...a, how: 'update()' } : { ...b, how: 'per body' };
}
const theirs = { 'detect-collisions 9.27.6': fastest(dc), 'check2d 9.36.4': fastest(c2) };

console.log(`world update, ${N} moving circles and boxes, CPU ms per frame (median of ${ROUNDS} x ${FRAMES} frames):`);
console.log(`  collide2d (wasm, grid)        ${ours.ms.toFixed(3)}`);
for (const [name, r] of Object.entries(theirs)) {
  const differ = r.pairs.filter((n, f) => n !== ours.pairs[f]).length;
  console.log(`  ${name.padEnd(29)} ${r.ms.toFixed(3)}  (${(r.ms / ours.ms).toFixed(1)}x collide2d's time, tree updated ${r.how}; pair count differs on ${differ} of ${FRAMES} frames)`);
}
console.log(`  pairs per frame: ${ours.pairs[0]} at the first frame`);

// Pair tests: 4096 pairs of each kind, near each other so about half intersect.
const random = rng(3);
const range = (lo, hi) => lo + (hi - lo) * random();
const PAIRS = 4096;
const kinds = {
  'circle-circle': () => [{ circle: true, x: 0, y: 0, r: range(1, 3) }, { circle: true, x: range(-5, 5), y: range(-5, 5), r: range(1, 3) }],
  'circle-box': () => [{ circle: true, x: range(-5, 5), y: range(-5, 5), r: range(1, 3) }, { circle: false, x: 0, y: 0, w: range(2, 6), h: range(2, 6) }],
  'box-box': () => [{ circle: false, x: 0, y: 0, w: range(2, 6), h: range(2, 6) }, { circle: false, x: range(-6, 6), y: range(-6, 6), w: range(2, 6), h: range(2, 6) }],
};
const ourShape = (s) => (s.circle ? Shape.circle(s.x, s.y, s.r) : Shape.rect(s.x, s.y, s.w, s.h));
const satShape = (s) => (s.circle ? new SAT.Circle(new SAT.Vector(s.x, s.y), s.r) : new SAT.Box(new SAT.Vector(s.x, s.y), s.w, s.h).toPolygon());
const satTest = (a, b) => {
  if (a instanceof SAT.Circle) return b instanceof SAT.Circle ? SAT.testCircleCircle(a, b) : SAT.testPolygonCircle(b, a);
  return b instanceof SAT.Circle ? SAT.testPolygonCircle(a, b) : SAT.testPolygonPolygon(a, b);
};
/**
 * The timing loop, compiled afresh for each library and kind: one shared loop would see every
 * library's test function at its call site, and V8 would shape (and stop inlining) the loop
 * after whichever ran first, charging each library for the others.
 */
const pairLoop = () => new Function('pairs', 'test', `
  let hits = 0;
  for (let i = 0; i < pairs.length; i++) if (test(pairs[i][0], pairs[i][1])) hits++;
  return hits;`);
function pairTime(pairs, test) {
  const loop = pairLoop();
  const times = [];
  let hits = 0;
  for (let r = 0; r < ROUNDS * 5; r++) {
    hits = 0;
    const t0 = now();
    for (let k = 0; k < 50; k++) hits += loop(pairs, test);
    times.push(((now() - t0) * 1e6) / (pairs.length * 50));
  }
  return { ns: median(times), hits: hits / 50 };
}
console.log(`pair tests, CPU ns per test (median; ${PAIRS} pairs, ours as the package's intersects answers them):`);
for (const [name, make] of Object.entries(kinds)) {
  const specs = Array.from({ length: PAIRS }, make);
  const ours2 = pairTime(specs.map(([a, b]) => [ourShape(a), ourShape(b)]), intersects);
  const sat = pairTime(specs.map(([a, b]) => [satShape(a), satShape(b)]), satTest);
  console.log(`  ${name.padEnd(14)} collide2d ${ours2.ns.toFixed(1).padStart(6)}  SAT.js ${sat.ns.toFixed(1).padStart(6)}  (${(sat.ns / ours2.ns).toFixed(2)}x; hits ${ours2.hits} vs ${sat.hits})`);
}
