// The collide2d playground: two shapes to drag and rotate, every query answered by the library
// compiled to WebAssembly (crates/collide2d-wasm), and a tab of many moving shapes.
// Shapes are formats.md JSON in a local frame plus a pose {x, y, angle}; `place` applies the pose
// in Rust, so what is drawn is exactly what the queries see.

import init, { place, query, contains, draw, Swarm } from "./pkg/collide2d_wasm.js";

const BLUE = "#2563eb";
const RED = "#dc2626";
const GREY = "#6b7280";

// One preset per formats.md type, centred on the origin of its frame.
const PRESETS = {
  point: () => ({ type: "point", p: [0, 0] }),
  segment: () => ({ type: "segment", a: [-60, -25], b: [60, 25] }),
  circle: () => ({ type: "circle", center: [0, 0], radius: 50 }),
  aabb: () => ({ type: "aabb", min: [-55, -40], max: [55, 40] }),
  rect: () => ({ type: "rect", x: -40, y: -40, w: 80, h: 80 }),
  obb: () => ({ type: "obb", center: [0, 0], half_extents: [70, 25], angle: 0.4 }),
  capsule: () => ({ type: "capsule", a: [-50, 0], b: [50, 0], radius: 25 }),
  polygon: () => ({
    type: "polygon",
    points: [[-50, -50], [50, -50], [50, -20], [-20, -20], [-20, 50], [-50, 50]],
  }),
  compound: () => ({
    type: "compound",
    parts: [
      { type: "rect", x: -20, y: -30, w: 40, h: 70 },
      { type: "circle", center: [0, -48], radius: 16 },
      { type: "rect", x: 20, y: -20, w: 40, h: 10 },
    ],
  }),
};
const DRAW_POLYGON = "polygon: draw by clicking";

// ---------------------------------------------------------------- two shapes

const canvas = document.getElementById("pair-canvas");
const ctx = canvas.getContext("2d");
const statusEl = document.getElementById("status");
const detailsEl = document.getElementById("details");
const hintEl = document.getElementById("hint");
const finishButton = document.getElementById("finish-polygon");
const labelEls = { A: document.getElementById("label-a"), B: document.getElementById("label-b") };
let drawn = { arrows: [], labels: [] };

const bodies = [
  { name: "A", kind: "aabb", local: PRESETS.aabb(), x: 220, y: 280, angle: 0, placed: null },
  { name: "B", kind: "circle", local: PRESETS.circle(), x: 640, y: 280, angle: 0, placed: null },
];
let error = null; // the library's message for a shape it rejected
let drawing = null; // {body, points} while a polygon is being drawn
let drag = null; // {body, mode: "move" | "rotate", ...}

function placeBody(body) {
  const placed = JSON.parse(place(JSON.stringify(body.local), body.x, body.y, body.angle));
  if (placed.error) {
    return placed.error;
  }
  body.placed = placed;
  return null;
}

function mouse(event) {
  const r = canvas.getBoundingClientRect();
  return [
    ((event.clientX - r.left) * canvas.width) / r.width,
    ((event.clientY - r.top) * canvas.height) / r.height,
  ];
}

// The body under the mouse: inside it, or within 6 pixels (so points and segments can be held).
function pick([x, y]) {
  for (const body of [...bodies].reverse()) {
    const shape = JSON.stringify(body.placed);
    if (contains(shape, x, y)) return body;
    const probe = JSON.stringify({ type: "point", p: [x, y] });
    if (JSON.parse(query(probe, shape)).distance <= 6) return body;
  }
  return null;
}

function tracePath(shape, path) {
  switch (shape.type) {
    case "point":
      path.moveTo(shape.p[0] + 4, shape.p[1]);
      path.arc(shape.p[0], shape.p[1], 4, 0, 2 * Math.PI);
      break;
    case "segment":
      path.moveTo(...shape.a);
      path.lineTo(...shape.b);
      break;
    case "circle":
      path.moveTo(shape.center[0] + shape.radius, shape.center[1]);
      path.arc(shape.center[0], shape.center[1], shape.radius, 0, 2 * Math.PI);
      break;
    case "aabb":
      path.rect(shape.min[0], shape.min[1], shape.max[0] - shape.min[0], shape.max[1] - shape.min[1]);
      break;
    case "rect":
      path.rect(shape.x, shape.y, shape.w, shape.h);
      break;
    case "obb": {
      const [cx, cy] = shape.center;
      const [hx, hy] = shape.half_extents;
      const c = Math.cos(shape.angle);
      const s = Math.sin(shape.angle);
      const corner = (u, v) => [cx + u * c - v * s, cy + u * s + v * c];
      path.moveTo(...corner(-hx, -hy));
      path.lineTo(...corner(hx, -hy));
      path.lineTo(...corner(hx, hy));
      path.lineTo(...corner(-hx, hy));
      path.closePath();
      break;
    }
    case "capsule": {
      const [ax, ay] = shape.a;
      const [bx, by] = shape.b;
      const t = Math.atan2(by - ay, bx - ax);
      path.moveTo(ax + shape.radius * Math.cos(t + Math.PI / 2), ay + shape.radius * Math.sin(t + Math.PI / 2));
      path.arc(ax, ay, shape.radius, t + Math.PI / 2, t + (3 * Math.PI) / 2);
      path.arc(bx, by, shape.radius, t - Math.PI / 2, t + Math.PI / 2);
      path.closePath();
      break;
    }
    case "polygon":
      path.moveTo(...shape.points[0]);
      for (const p of shape.points.slice(1)) path.lineTo(...p);
      path.closePath();
      break;
    case "compound":
      for (const part of shape.parts) tracePath(part, path);
      break;
  }
}

// Screen length of a normal arrow, and the gap between a label and what it names.
const ARROW = 40;
const GAP = 4;

function arrow(g, [x, y], [dx, dy], length) {
  const ex = x + dx * length;
  const ey = y + dy * length;
  g.beginPath();
  g.moveTo(x, y);
  g.lineTo(ex, ey);
  g.stroke();
  const head = 9;
  const t = Math.atan2(dy, dx);
  g.beginPath();
  g.moveTo(ex, ey);
  g.lineTo(ex - head * Math.cos(t - 0.4), ey - head * Math.sin(t - 0.4));
  g.lineTo(ex - head * Math.cos(t + 0.4), ey - head * Math.sin(t + 0.4));
  g.closePath();
  g.fill();
}

// Paints one item of the library's debug-draw walk (crates/collide2d-wasm `draw`): the page
// decides nothing about what is drawn, only how a primitive looks.
function paint(g, item) {
  g.strokeStyle = item.colour;
  g.fillStyle = item.colour;
  g.lineWidth = 2;
  const path = new Path2D();
  switch (item.op) {
    case "polygon":
      path.moveTo(...item.points[0]);
      for (const p of item.points.slice(1)) path.lineTo(...p);
      path.closePath();
      break;
    case "circle":
      path.arc(item.center[0], item.center[1], item.radius, 0, 2 * Math.PI);
      break;
    case "capsule":
      tracePath({ type: "capsule", a: item.a, b: item.b, radius: item.radius }, path);
      break;
    case "segment":
      g.beginPath();
      g.moveTo(...item.a);
      g.lineTo(...item.b);
      g.stroke();
      return;
    case "point":
      g.beginPath();
      g.arc(item.p[0], item.p[1], 4, 0, 2 * Math.PI);
      g.fill();
      return;
    case "arrow":
      arrow(g, item.from, item.direction, ARROW);
      return;
    default:
      return;
  }
  if (item.role === "part") {
    g.setLineDash([4, 4]);
    g.lineWidth = 1;
    g.stroke(path);
    g.setLineDash([]);
    return;
  }
  g.globalAlpha = 0.2;
  g.fill(path);
  g.globalAlpha = 1;
  g.stroke(path);
}

const overlaps = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
const overlapArea = (a, b) =>
  Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x)) *
  Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y));

// Boxes (canvas pixels) no label may cover: each arrow's shaft and head, each contact point.
function blockedBoxes(items) {
  const boxes = [];
  for (const item of items) {
    if (item.op === "arrow") {
      const [x, y] = item.from;
      const ex = x + item.direction[0] * ARROW;
      const ey = y + item.direction[1] * ARROW;
      const reach = 7; // the head is 9 long and about 7 wide each side
      boxes.push({ x: Math.min(x, ex) - reach, y: Math.min(y, ey) - reach, w: Math.abs(ex - x) + 2 * reach, h: Math.abs(ey - y) + 2 * reach });
    } else if (item.op === "point" && item.role === "contact-point") {
      boxes.push({ x: item.p[0] - 6, y: item.p[1] - 6, w: 12, h: 12 });
    }
  }
  return boxes;
}

// Places each label (an HTML element over the canvas) beside its shape's box: the first place
// that covers no arrow, contact point or other label and stays on the canvas, preferring places
// off both shapes; farther out when nothing near is free.
function placeLabels(items) {
  const rect = canvas.getBoundingClientRect();
  const toCanvas = canvas.width / rect.width;
  const blocked = blockedBoxes(items);
  const labels = items.filter((i) => i.op === "label");
  const shapes = labels.map((l) => ({ x: l.box[0][0], y: l.box[0][1], w: l.box[1][0] - l.box[0][0], h: l.box[1][1] - l.box[0][1] }));
  const placed = [];
  for (const [i, label] of labels.entries()) {
    const el = labelEls[label.text];
    el.hidden = false;
    const w = el.offsetWidth * toCanvas;
    const h = el.offsetHeight * toCanvas;
    const b = shapes[i];
    let best = null;
    for (let ring = 0; ring <= 12 && !(best && best.cost === 0); ring++) {
      const d = GAP + ring * 12;
      const mx = b.x + b.w / 2 - w / 2;
      const my = b.y + b.h / 2 - h / 2;
      const places = [
        [b.x, b.y - d - h], [b.x + b.w - w, b.y - d - h], [b.x, b.y + b.h + d], [b.x + b.w - w, b.y + b.h + d],
        [b.x + b.w + d, my], [b.x - d - w, my], [mx, b.y - d - h], [mx, b.y + b.h + d],
      ];
      for (const [x, y] of places) {
        const box = { x, y, w, h };
        const inside = x >= 0 && y >= 0 && x + w <= canvas.width && y + h <= canvas.height;
        if (!inside || blocked.some((o) => overlaps(o, box)) || placed.some((o) => overlaps(o, box))) continue;
        const cost = shapes.reduce((sum, s) => sum + overlapArea(s, box), 0);
        if (!best || cost < best.cost) best = { box, cost };
      }
    }
    if (!best) {
      el.hidden = true;
      continue;
    }
    placed.push(best.box);
    el.style.left = `${best.box.x / toCanvas}px`;
    el.style.top = `${best.box.y / toCanvas}px`;
  }
  // For the browser test: the arrows and labels as placed, in canvas pixels.
  drawn = { arrows: items.filter((i) => i.op === "arrow").map((i) => [i.from, [i.from[0] + i.direction[0] * ARROW, i.from[1] + i.direction[1] * ARROW]]), labels: placed };
}

const fmt = (x) => (Number.isInteger(x) ? String(x) : x.toFixed(3));
const fmtVec = (v) => `(${fmt(v[0])}, ${fmt(v[1])})`;

function update() {
  error = null;
  for (const body of bodies) {
    const message = placeBody(body);
    if (message) error = `${body.name}: ${message}`;
  }
  const answer = error ? null : JSON.parse(query(JSON.stringify(bodies[0].placed), JSON.stringify(bodies[1].placed)));
  if (answer && answer.error) error = answer.error;
  render(error ? null : answer);
}

function render(answer) {
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  const hit = answer && answer.intersects;
  const picture = error ? null : JSON.parse(draw(JSON.stringify(bodies[0].placed), JSON.stringify(bodies[1].placed)));
  const items = picture && picture.items ? picture.items : [];
  for (const item of items) paint(ctx, item);
  if (answer && !answer.contact && answer.closest) {
    const [pa, pb] = answer.closest;
    ctx.strokeStyle = GREY;
    ctx.setLineDash([5, 4]);
    ctx.beginPath();
    ctx.moveTo(...pa);
    ctx.lineTo(...pb);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = GREY;
    for (const p of [pa, pb]) {
      ctx.beginPath();
      ctx.arc(p[0], p[1], 3, 0, 2 * Math.PI);
      ctx.fill();
    }
  }
  placeLabels(items);

  if (drawing) {
    ctx.strokeStyle = "black";
    ctx.fillStyle = "black";
    ctx.beginPath();
    drawing.points.forEach((p, i) => (i ? ctx.lineTo(...p) : ctx.moveTo(...p)));
    ctx.stroke();
    for (const p of drawing.points) {
      ctx.beginPath();
      ctx.arc(p[0], p[1], 3, 0, 2 * Math.PI);
      ctx.fill();
    }
  }

  // The one readout, below the canvas.
  let lines;
  if (error) {
    statusEl.textContent = "error";
    statusEl.className = "";
    lines = [error];
  } else {
    statusEl.textContent = hit ? "hit" : "no hit";
    statusEl.className = hit ? "hit" : "miss";
    lines = [`distance ${fmt(answer.distance)}`];
    if (answer.contact) {
      lines.push(`normal ${fmtVec(answer.contact.normal)} (A → B)`);
      lines.push(`depth ${fmt(answer.contact.depth)}`);
      lines.push(`points ${answer.contact.points.map(fmtVec).join(" ")}`);
    }
  }
  detailsEl.textContent = lines.join("\n");
}

canvas.addEventListener("contextmenu", (event) => event.preventDefault());

canvas.addEventListener("pointerdown", (event) => {
  const at = mouse(event);
  if (drawing) {
    drawing.points.push(at);
    update();
    return;
  }
  const body = pick(at);
  if (!body) return;
  canvas.setPointerCapture(event.pointerId);
  if (event.shiftKey || event.button === 2) {
    drag = { body, mode: "rotate", from: Math.atan2(at[1] - body.y, at[0] - body.x) - body.angle };
  } else {
    drag = { body, mode: "move", dx: body.x - at[0], dy: body.y - at[1] };
  }
});

canvas.addEventListener("pointermove", (event) => {
  if (!drag) return;
  const [x, y] = mouse(event);
  if (drag.mode === "move") {
    drag.body.x = x + drag.dx;
    drag.body.y = y + drag.dy;
  } else {
    drag.body.angle = Math.atan2(y - drag.body.y, x - drag.body.x) - drag.from;
  }
  update();
});

const endDrag = () => {
  drag = null;
};
canvas.addEventListener("pointerup", endDrag);
canvas.addEventListener("pointercancel", endDrag);

canvas.addEventListener(
  "wheel",
  (event) => {
    const body = pick(mouse(event));
    if (!body) return;
    event.preventDefault();
    body.angle += Math.sign(event.deltaY) * 0.08;
    update();
  },
  { passive: false },
);

// The shape pickers: every formats.md type, and a polygon drawn by clicking.
function finishPolygon() {
  const { body, points, previous } = drawing;
  drawing = null;
  finishButton.hidden = true;
  hintEl.textContent = "Drag a shape to move it; drag with Shift (or the right button) or turn the wheel over it to rotate it.";
  const cx = points.reduce((s, p) => s + p[0], 0) / Math.max(points.length, 1);
  const cy = points.reduce((s, p) => s + p[1], 0) / Math.max(points.length, 1);
  const local = { type: "polygon", points: points.map(([x, y]) => [x - cx, y - cy]) };
  const saved = { local: body.local, x: body.x, y: body.y, angle: body.angle };
  Object.assign(body, { local, x: cx, y: cy, angle: 0 });
  const message = placeBody(body);
  if (message) {
    // The library refused it (too few points, zero area, crossing itself): keep the old shape.
    Object.assign(body, saved, { kind: previous });
    selects[bodies.indexOf(body)].value = previous;
    update();
    error = `polygon refused: ${message}`;
    statusEl.textContent = "error";
    detailsEl.textContent = error;
    return;
  }
  update();
}

finishButton.addEventListener("click", finishPolygon);
canvas.addEventListener("dblclick", () => drawing && finishPolygon());
window.addEventListener("keydown", (event) => {
  if (drawing && event.key === "Enter") finishPolygon();
});

const selects = ["kind-a", "kind-b"].map((id) => document.getElementById(id));
selects.forEach((select, i) => {
  for (const kind of [...Object.keys(PRESETS), DRAW_POLYGON]) {
    const option = document.createElement("option");
    option.value = kind;
    option.textContent = kind;
    select.appendChild(option);
  }
  select.value = bodies[i].kind;
  select.addEventListener("change", () => {
    const body = bodies[i];
    if (select.value === DRAW_POLYGON) {
      drawing = { body, points: [], previous: body.kind };
      finishButton.hidden = false;
      hintEl.textContent = `Click the corners of ${body.name}'s polygon, then Finish (or double-click, or Enter).`;
      return;
    }
    body.kind = select.value;
    body.local = PRESETS[select.value]();
    body.angle = 0;
    update();
  });
});

// ---------------------------------------------------------------- many shapes

const swarmCanvas = document.getElementById("swarm-canvas");
const sctx = swarmCanvas.getContext("2d");
const statsEl = document.getElementById("swarm-stats");
let swarm = null;
let swarmShapes = [];
let running = false;
let paused = false;
let last = 0;
let stepTimes = [];

function restartSwarm() {
  const count = Math.max(10, Math.min(20000, Number(document.getElementById("swarm-count").value) || 3000));
  if (swarm) swarm.free();
  swarm = new Swarm(count, swarmCanvas.width, swarmCanvas.height, 1);
  swarmShapes = JSON.parse(swarm.shapes());
  stepTimes = [];
}

function swarmFrame(now) {
  if (!running) return;
  const dt = last ? (now - last) / 1000 : 1 / 60;
  last = now;
  if (!paused) {
    const t0 = performance.now();
    swarm.step(dt);
    stepTimes.push(performance.now() - t0);
    if (stepTimes.length > 60) stepTimes.shift();
  }
  const t1 = performance.now();
  const positions = swarm.positions();
  const colliding = swarm.colliding();
  const paths = [new Path2D(), new Path2D()];
  swarmShapes.forEach((shape, i) => {
    const x = positions[2 * i];
    const y = positions[2 * i + 1];
    const path = paths[colliding[i]];
    if (shape.type === "circle") {
      path.moveTo(x + shape.radius, y);
      path.arc(x, y, shape.radius, 0, 2 * Math.PI);
    } else {
      path.rect(x + shape.min[0], y + shape.min[1], shape.max[0] - shape.min[0], shape.max[1] - shape.min[1]);
    }
  });
  sctx.clearRect(0, 0, swarmCanvas.width, swarmCanvas.height);
  [BLUE, RED].forEach((colour, i) => {
    sctx.fillStyle = colour;
    sctx.globalAlpha = 0.35;
    sctx.fill(paths[i]);
    sctx.globalAlpha = 1;
    sctx.strokeStyle = colour;
    sctx.lineWidth = 1;
    sctx.stroke(paths[i]);
  });
  const drawMs = performance.now() - t1;
  const stepMs = stepTimes.reduce((a, b) => a + b, 0) / Math.max(stepTimes.length, 1);
  const text = [
    `${swarm.len()} objects, ${swarm.pair_count()} colliding pairs (${swarm.candidate_count()} candidates)`,
    `move + world update (grid): ${stepMs.toFixed(2)} ms a frame (mean of the last ${stepTimes.length})`,
    `drawing: ${drawMs.toFixed(2)} ms`,
  ];
  // Below the canvas, never over the shapes.
  statsEl.textContent = text.join("\n");
  requestAnimationFrame(swarmFrame);
}

document.getElementById("swarm-restart").addEventListener("click", restartSwarm);
document.getElementById("swarm-pause").addEventListener("click", (event) => {
  paused = !paused;
  event.target.textContent = paused ? "Resume" : "Pause";
});

// ---------------------------------------------------------------- tabs

function showTab(which) {
  for (const name of ["pair", "swarm"]) {
    document.getElementById(`tab-${name}`).setAttribute("aria-selected", String(name === which));
    document.getElementById(name).hidden = name !== which;
  }
  running = which === "swarm";
  if (running) {
    if (!swarm) restartSwarm();
    last = 0;
    requestAnimationFrame(swarmFrame);
  }
}
document.getElementById("tab-pair").addEventListener("click", () => showTab("pair"));
document.getElementById("tab-swarm").addEventListener("click", () => showTab("swarm"));

await init();
update();
// For tests and the console: where the shapes are, in canvas pixels.
window.playground = { bodies, ready: true, drawn: () => drawn };
