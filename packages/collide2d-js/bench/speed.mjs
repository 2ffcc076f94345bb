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
import { World, Shape, intersects, intersectsMany } from 'collide2d';
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

// Pair tests: both libraries answer the same random pairs of each kind, new ones every run
// (the seed is printed; SEED=<n> repeats a run), near each other so about half intersect, at
// several sizes: the fewest stay in the processor's caches, the most do not. The numbers are
// f32 values and boxes are given by their corners, so both libraries hold exactly the same
// shapes, and their answers are checked equal pair by pair (outside the timing).
// collide2d is called through its one `intersects`, which finds the kinds itself. SAT.js has a
// function per pair of kinds; it is timed twice: dispatched on the kinds by instanceof (what a
// game with mixed shapes writes around it, the same work as ours) and its function for the
// kind called directly (the best case for SAT.js: the caller knows the kinds). No response
// object is asked for. The shapes of each library are in two flat arrays, first and second of
// each pair. collide2d is also timed through `intersectsMany(as, bs, out)`, which answers all
// the pairs into a Uint8Array in one call; SAT.js has no such call, so its equivalent is the
// same loop over its function (the two SAT.js times above: each answer is consumed as it
// comes, which is no more work than storing it).
const seed = Number(process.env.SEED ?? Math.floor(Math.random() * 2 ** 31));
const random = rng(seed);
const range = (lo, hi) => Math.fround(lo + (hi - lo) * random());
const SIZES = [256, 2048, 16384];
const circle = (x, y) => ({ circle: true, x, y, r: range(1, 3) });
const box = (x, y) => ({ circle: false, x, y, x1: Math.fround(x + range(2, 6)), y1: Math.fround(y + range(2, 6)) });
const kinds = {
  'circle-circle': { make: () => [circle(0, 0), circle(range(-5, 5), range(-5, 5))], sat: SAT.testCircleCircle },
  'circle-box': { make: () => [circle(range(-5, 5), range(-5, 5)), box(0, 0)], sat: (c, p) => SAT.testPolygonCircle(p, c) },
  'box-box': { make: () => [box(0, 0), box(range(-6, 6), range(-6, 6))], sat: SAT.testPolygonPolygon },
};
const ourShape = (s) => (s.circle ? Shape.circle(s.x, s.y, s.r) : Shape.aabb(s.x, s.y, s.x1, s.y1));
const satShape = (s) => (s.circle
  ? new SAT.Circle(new SAT.Vector(s.x, s.y), s.r)
  : new SAT.Box(new SAT.Vector(s.x, s.y), s.x1 - s.x, s.y1 - s.y).toPolygon());
const satTest = (a, b) => {
  if (a instanceof SAT.Circle) return b instanceof SAT.Circle ? SAT.testCircleCircle(a, b) : SAT.testPolygonCircle(b, a);
  return b instanceof SAT.Circle ? SAT.testPolygonCircle(a, b) : SAT.testPolygonPolygon(a, b);
};
// A game tests every kind against every other: both dispatching tests see them all before
// anything is timed, whatever the order below, so no kind is timed in a state that knows only
// that kind.
{
  const mixed = Object.values(kinds).flatMap((k) => k.make());
  const [ours, sat] = [mixed.map(ourShape), mixed.map(satShape)];
  const swapped = [...ours].reverse();
  for (let k = 0; k < 2000; k++) {
    intersectsMany(ours, swapped);
    for (let i = 0; i < mixed.length; i++) {
      for (let j = 0; j < mixed.length; j++) {
        intersects(ours[i], ours[j]);
        satTest(sat[i], sat[j]);
      }
    }
  }
  for (const s of ours) s.free();
}
/**
 * The timing loop, compiled afresh for each library, kind and size: one shared loop would see
 * every library's test function at its call site, and V8 would shape (and stop inlining) the
 * loop after whichever ran first, charging each library for the others. Each source differs
 * (its number): V8 caches `new Function` by source, and identical sources shared one function,
 * so a later loop ran with code made for an earlier one. The answers are consumed (counted).
 */
let loops = 0;
const pairLoop = () => new Function('as', 'bs', 'test', `// timing loop ${++loops}
  let hits = 0;
  for (let i = 0; i < as.length; i++) if (test(as[i], bs[i])) hits++;
  return hits;`);
/** The same for a test that answers all the pairs in one call, into one reused array. */
const batchLoop = () => new Function('as', 'bs', 'test', `// timing loop ${++loops}
  return test(as, bs, this.out ??= new Uint8Array(as.length))[0];`);
/**
 * CPU ns per test for each `[as, bs, test]` of `runs`, medians of rounds of about 100,000
 * tests each. The rounds of the runs alternate, so a change in the machine's load (other
 * processes come and go on a shared machine) falls on every library alike rather than on
 * whichever was being timed then.
 */
function pairTimes(runs) {
  const timed = runs.map(([as, bs, test, batch]) => ({ as, bs, test, loop: (batch ? batchLoop : pairLoop)().bind({}), times: [] }));
  for (let r = 0; r < ROUNDS * 5; r++) {
    for (const t of timed) {
      const reps = Math.ceil(100000 / t.as.length);
      const t0 = now();
      for (let k = 0; k < reps; k++) t.loop(t.as, t.bs, t.test);
      t.times.push(((now() - t0) * 1e6) / (t.as.length * reps));
    }
  }
  return timed.map((t) => median(t.times));
}
const answers = (test, [as, bs]) => as.map((a, i) => test(a, bs[i]));
let differ = 0;
console.log(`pair tests, CPU ns per test (median of ${ROUNDS * 5} alternating rounds; seed ${seed}); SAT.js dispatched by kind, and its kind's function called directly:`);
for (const [name, kind] of Object.entries(kinds)) {
  for (const size of SIZES) {
    const specs = Array.from({ length: size }, kind.make);
    const ours = [specs.map((p) => ourShape(p[0])), specs.map((p) => ourShape(p[1]))];
    const sat = [specs.map((p) => satShape(p[0])), specs.map((p) => satShape(p[1]))];
    const ourAnswers = answers(intersects, ours);
    const wrong = [answers(satTest, sat), answers(kind.sat, sat)]
      .map((theirs) => ourAnswers.filter((hit, i) => hit !== theirs[i]).length);
    differ += wrong[0] + wrong[1];
    const hits = ourAnswers.filter(Boolean).length;
    const manyAnswers = intersectsMany(...ours);
    const manyWrong = ourAnswers.filter((hit, i) => +hit !== manyAnswers[i]).length;
    differ += manyWrong;
    const [ns, dispatched, direct, many] = pairTimes([[...ours, intersects], [...sat, satTest], [...sat, kind.sat], [...ours, intersectsMany, true]]);
    const cell = (t) => `${t.toFixed(1).padStart(6)} (${(t / ns).toFixed(2)}x)`;
    console.log(`  ${name.padEnd(14)}${String(size).padStart(6)} pairs  collide2d ${ns.toFixed(1).padStart(5)}  SAT.js ${cell(dispatched)} ${cell(direct)}  ${hits} hits, answers differ on ${wrong.join(' and ')}`);
    console.log(`  ${''.padEnd(20)}  intersectsMany ${many.toFixed(1).padStart(5)}: SAT.js takes ${(dispatched / many).toFixed(2)}x and ${(direct / many).toFixed(2)}x its time${manyWrong ? `, answers differ on ${manyWrong}` : ''}`);
    for (const s of [...ours[0], ...ours[1]]) s.free();
  }
}
if (differ > 0) {
  console.error(`the libraries' answers differ on ${differ} pairs`);
  process.exitCode = 1;
}
