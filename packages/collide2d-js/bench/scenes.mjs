// The scenes every library gets, the same numbers for each: many small moving circles and
// boxes (the Rust benches' many_small: 60% circles of radius 0.5 to 2, 40% boxes 1 to 4 wide,
// 16 units² per object, so about 1.5 overlaps each), positions precomputed per frame.
import { rng } from '../test/scene.mjs';

export { rng };

/** `n` bodies `{ circle, r, hw, hh }` and `frames` Float32Arrays of centres `[x0, y0, ...]`. */
export function manySmall(n, frames, seed = 1) {
  const random = rng(seed);
  const range = (lo, hi) => lo + (hi - lo) * random();
  const side = Math.sqrt(n * 16);
  const bodies = [];
  const p = new Float32Array(n * 2);
  const v = new Float32Array(n * 2);
  for (let i = 0; i < n; i++) {
    const circle = random() < 0.6;
    bodies.push(circle ? { circle, r: range(0.5, 2) } : { circle, hw: range(0.5, 2), hh: range(0.5, 2) });
    p[2 * i] = range(0, side);
    p[2 * i + 1] = range(0, side);
    const a = range(0, Math.PI * 2), speed = range(0.02, 0.1);
    v[2 * i] = Math.cos(a) * speed;
    v[2 * i + 1] = Math.sin(a) * speed;
  }
  const positions = [];
  for (let f = 0; f < frames; f++) {
    for (let k = 0; k < p.length; k++) {
      p[k] += v[k];
      if (p[k] < 0 || p[k] > side) v[k] = -v[k];
    }
    positions.push(Float32Array.from(p));
  }
  return { bodies, positions, side };
}
