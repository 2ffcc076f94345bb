// Page geometry shared by the browser tests: boxes are {x, y, width, height} in CSS pixels,
// segments [[x, y], [x, y]].

// Whether the segment a-b comes within `reach` pixels of box r (sampled every half pixel).
export function near(r, [a, b], reach) {
  const steps = Math.max(1, Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1]) * 2));
  for (let i = 0; i <= steps; i++) {
    const x = a[0] + ((b[0] - a[0]) * i) / steps;
    const y = a[1] + ((b[1] - a[1]) * i) / steps;
    if (x > r.x - reach && x < r.x + r.width + reach && y > r.y - reach && y < r.y + r.height + reach) return true;
  }
  return false;
}

// Whether two boxes overlap.
export const overlap = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
