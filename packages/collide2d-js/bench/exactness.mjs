// Exactness: touching shapes (which intersect: every shape is a closed set) and shapes one
// unit apart (which do not), near the origin and far from it, asked of each library. Prints
// how many each gets wrong; exits 1 if collide2d gets any wrong (CI runs it).
import SAT from 'sat';
import * as dc from 'detect-collisions';
import * as c2 from 'check2d';
import { Shape, intersects } from 'collide2d';

/**
 * Cases as [a, b, expected, what]: circles { x, y, r }, boxes { x, y, w, h } (corner + size)
 * and polygons { points }. Every coordinate is an integer, exact in f32 and f64, so the right
 * answer is known exactly; the slanted edges make other libraries normalise axes and round.
 */
function cases() {
  const out = [];
  const circle = (x, y, r) => ({ circle: true, x, y, r });
  const box = (x, y, w, h) => ({ circle: false, x, y, w, h });
  const poly = (o, ...xy) => ({ points: xy.map(([x, y]) => [x + o, y + o]) });
  for (const o of [0, 100, 1000, 100000, 1000000]) {
    for (const [gap, hit] of [[0, true], [1, false]]) {
      out.push([circle(o, o, 3), circle(o + 5 + gap, o, 2), hit, 'circles side by side']);
      out.push([circle(o, o, 2), circle(o + 3 + (3 * gap) / 5, o + 4 + (4 * gap) / 5, 3), hit, 'circles on a 3-4-5 diagonal']);
      out.push([box(o, o, 10, 10), box(o + 10 + gap, o, 10, 10), hit, 'boxes edge to edge']);
      out.push([box(o, o, 10, 10), box(o + 10 + gap, o + 10 + gap, 10, 10), hit, 'boxes corner to corner']);
      out.push([box(o, o, 10, 10), circle(o + 15 + gap, o + 5, 5), hit, 'circle on a box edge']);
      out.push([box(o, o, 10, 10), circle(o + 13 + (3 * gap) / 5, o + 14 + (4 * gap) / 5, 5), hit, 'circle on a box corner (3-4-5)']);
      // The edge from (7, 1) to (-1, 7) lies on 3x + 4y = 25; the circle's centre is 5 from it.
      out.push([poly(o, [0, 0], [7, 1], [-1, 7]), circle(o + 6, o + 8, 5 - gap), hit, 'circle on a slanted edge']);
      // A square turned by the 3-4-5 angle, its corner (4, 3) on a box's left edge.
      out.push([poly(o, [0, 0], [4, 3], [1, 7], [-3, 4]), box(o + 4 + gap, o, 10, 10), hit, 'turned square corner on a box edge']);
      // Two triangles sharing a slanted edge (or one unit apart along x).
      out.push([poly(o, [0, 0], [7, 0], [0, 3]), poly(o, [7 + gap, 0], [7 + gap, 3], [gap, 3]), hit, 'triangles along a slanted edge']);
    }
  }
  return out;
}

const libraries = {
  collide2d: (a, b) => {
    const make = (s) => (s.points ? Shape.polygon(s.points.flat()) : s.circle ? Shape.circle(s.x, s.y, s.r) : Shape.rect(s.x, s.y, s.w, s.h));
    return intersects(make(a), make(b));
  },
  'SAT.js 0.9.0': (a, b) => {
    const make = (s) => {
      if (s.points) return new SAT.Polygon(new SAT.Vector(), s.points.map(([x, y]) => new SAT.Vector(x, y)));
      return s.circle ? new SAT.Circle(new SAT.Vector(s.x, s.y), s.r) : new SAT.Box(new SAT.Vector(s.x, s.y), s.w, s.h).toPolygon();
    };
    const [p, q] = [make(a), make(b)];
    if (a.circle && b.circle) return SAT.testCircleCircle(p, q);
    if (a.circle) return SAT.testPolygonCircle(q, p);
    if (b.circle) return SAT.testPolygonCircle(p, q);
    return SAT.testPolygonPolygon(p, q);
  },
  'detect-collisions 9.27.6': system(dc),
  'check2d 9.36.4': system(c2),
};

function system(lib) {
  return (a, b) => {
    const sys = new lib.System();
    const make = (s) => {
      if (s.points) return sys.createPolygon({ x: 0, y: 0 }, s.points.map(([x, y]) => ({ x, y })));
      return s.circle ? sys.createCircle({ x: s.x, y: s.y }, s.r) : sys.createBox({ x: s.x, y: s.y }, s.w, s.h);
    };
    return sys.checkCollision(make(a), make(b));
  };
}

const all = cases();
let ours = 0;
console.log(`exactness: ${all.length} cases (touching ones intersect, one unit apart ones do not), wrong answers:`);
for (const [name, test] of Object.entries(libraries)) {
  const wrong = all.filter(([a, b, hit]) => test(a, b) !== hit);
  if (name === 'collide2d') ours = wrong.length;
  const kinds = [...new Set(wrong.map(([, , hit, what]) => `${what} (${hit ? 'touching' : 'apart'})`))];
  console.log(`  ${name.padEnd(26)} ${String(wrong.length).padStart(3)} of ${all.length}${kinds.length ? `: ${kinds.slice(0, 4).join('; ')}${kinds.length > 4 ? '; ...' : ''}` : ''}`);
}
process.exit(ours === 0 ? 0 : 1);
