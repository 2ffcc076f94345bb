// The bullet hell: a player ship with a two-box hitbox, rotated-box turrets firing rings of
// bullets, static cover. Layers and masks keep bullets from ever pairing with each other;
// bullets move many at a time from one Float32Array of deltas.
import { Shape, World } from '../index.js';

const PLAYER = 1, ENEMY = 2, BULLET = 4, COVER = 8;
const W = 800, H = 600;

export class BulletHell {
  constructor(seed = 1) {
    this.world = new World({ broadPhase: 'grid', cellSize: 16 });
    this.seed = seed;
    this.frame = 0;
    this.hits = 0;
    this.blocked = 0;
    this.player = { x: W / 2, y: H - 60 };
    const hull = Shape.compound([Shape.rect(-8, -12, 16, 24), Shape.rect(-20, 0, 40, 6)]);
    this.playerHandle = this.world.insert(hull, { ...this.player, layer: PLAYER, mask: BULLET, value: { type: 'player' } });
    this.turrets = [];
    for (let i = 0; i < 4; i++) {
      const x = 130 + i * 180, y = 110;
      const shape = Shape.obb(0, 0, 18, 10, 0.4 * i);
      this.world.insert(shape, { x, y, layer: ENEMY, mask: 0, kind: 'static', value: { type: 'turret' } });
      this.turrets.push({ x, y });
    }
    for (let i = 0; i < 3; i++) {
      const shape = Shape.rect(0, 0, 70, 14);
      this.world.insert(shape, { x: 170 + i * 200, y: 330, layer: COVER, mask: BULLET, kind: 'static', value: { type: 'cover' } });
    }
    this.bulletShape = Shape.circle(0, 0, 3);
    this.screen = Shape.rect(0, 0, W, H);
    this.bullets = []; // { handle, vx, vy }
    this.handles = new Float64Array(0);
    this.deltas = new Float32Array(0);
  }

  random() {
    this.seed = (this.seed * 1103515245 + 12345) % 2147483648;
    return this.seed / 2147483648;
  }

  fire() {
    for (const [k, t] of this.turrets.entries()) {
      const phase = this.frame * 0.07 + k;
      for (let i = 0; i < 12; i++) {
        const a = phase + (i / 12) * Math.PI * 2;
        const vx = Math.cos(a) * 2.2, vy = Math.sin(a) * 2.2;
        const handle = this.world.insert(this.bulletShape, { x: t.x, y: t.y, layer: BULLET, mask: PLAYER | COVER, value: { type: 'bullet' } });
        this.bullets.push({ handle, vx, vy });
      }
    }
  }

  /** One frame: input, fire, move every bullet at once, update, respond to the pairs. */
  step(input = {}) {
    this.frame++;
    const dx = ((input.right ? 1 : 0) - (input.left ? 1 : 0)) * 4;
    const dy = ((input.down ? 1 : 0) - (input.up ? 1 : 0)) * 4;
    this.player.x = Math.min(W - 20, Math.max(20, this.player.x + dx));
    this.player.y = Math.min(H - 12, Math.max(H / 2, this.player.y + dy));
    this.world.setPosition(this.playerHandle, this.player.x, this.player.y);
    if (this.frame % 20 === 1) this.fire();
    const n = this.bullets.length;
    if (this.handles.length < n) {
      this.handles = new Float64Array(n * 2);
      this.deltas = new Float32Array(n * 4);
    }
    for (let i = 0; i < n; i++) {
      const b = this.bullets[i];
      this.handles[i] = b.handle;
      this.deltas[2 * i] = b.vx;
      this.deltas[2 * i + 1] = b.vy;
    }
    this.world.moveMany(this.handles.subarray(0, n), this.deltas.subarray(0, 2 * n));
    const stats = this.world.update();
    const pairs = this.world.pairs();
    const values = this.world.values(pairs);
    const gone = new Set();
    for (let i = 0; i < pairs.length; i += 2) {
      const [va, vb] = [values[i], values[i + 1]];
      const bullet = va.type === 'bullet' ? pairs[i] : pairs[i + 1];
      const other = va.type === 'bullet' ? vb : va;
      if (other.type === 'player') this.hits++;
      else this.blocked++;
      gone.add(bullet);
    }
    this.bullets = this.bullets.filter((b) => {
      const p = this.world.position(b.handle);
      const out = p.x < -10 || p.x > W + 10 || p.y < -10 || p.y > H + 10;
      if (out || gone.has(b.handle)) {
        this.world.remove(b.handle);
        return false;
      }
      return true;
    });
    return { ...stats, bullets: this.bullets.length, hits: this.hits, blocked: this.blocked };
  }

  draw(ctx) {
    ctx.clearRect(0, 0, W, H);
    ctx.fillStyle = '#fe6';
    for (const b of this.bullets) {
      const p = this.world.position(b.handle);
      ctx.beginPath();
      ctx.arc(p.x, p.y, 3, 0, Math.PI * 2);
      ctx.fill();
    }
    // The few other objects, from their shapes as the world holds them.
    for (const h of this.world.objectsOverlapping(this.screen, PLAYER | ENEMY | COVER)) {
      const shape = this.world.shape(h);
      ctx.fillStyle = { player: '#4cf', turret: '#f84', cover: '#888' }[this.world.value(h).type];
      drawShape(ctx, shape.toJSON());
      shape.free();
    }
  }
}

/** Fills a shape from its formats.md JSON. */
export function drawShape(ctx, s) {
  ctx.beginPath();
  if (s.type === 'circle') ctx.arc(s.center[0], s.center[1], s.radius, 0, Math.PI * 2);
  else if (s.type === 'aabb') ctx.rect(s.min[0], s.min[1], s.max[0] - s.min[0], s.max[1] - s.min[1]);
  else if (s.type === 'obb') {
    const [c, h, a] = [s.center, s.half_extents, s.angle];
    const [cos, sin] = [Math.cos(a), Math.sin(a)];
    for (const [u, v] of [[-1, -1], [1, -1], [1, 1], [-1, 1]]) {
      ctx.lineTo(c[0] + u * h[0] * cos - v * h[1] * sin, c[1] + u * h[0] * sin + v * h[1] * cos);
    }
  } else if (s.type === 'compound') {
    for (const part of s.parts) drawShape(ctx, part);
    return;
  }
  ctx.fill();
}
