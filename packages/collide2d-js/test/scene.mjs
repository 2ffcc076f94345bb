// A seeded scene shared by the world tests: moving circles and boxes, some static walls.
export function rng(seed) {
  let s = seed >>> 0;
  return () => {
    // Mulberry32: small and seeded.
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Inserts `count` shapes (integer sizes and places, so many pairs touch exactly). */
export function populate(world, Shape, count, seed, { size = 200, statics = true } = {}) {
  const random = rng(seed);
  const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
  const handles = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const local = i % 2 === 0 ? Shape.circle(0, 0, int(1, 4)) : Shape.rect(-int(1, 4), -int(1, 4), int(2, 8), int(2, 8));
    const kind = statics && i % 7 === 0 ? 'static' : 'dynamic';
    const layer = i % 5 === 0 ? 2 : 1;
    const mask = i % 5 === 0 ? 1 : 0xffffffff;
    handles[i] = world.insert(local, { x: int(0, size), y: int(0, size), kind, layer, mask, value: { i } });
    local.free();
  }
  const deltas = () => {
    const d = new Float32Array(count * 2);
    for (let i = 0; i < d.length; i++) d[i] = int(-3, 3);
    return d;
  };
  return { handles, deltas };
}
