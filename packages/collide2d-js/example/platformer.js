// The platformer: a box player run through a tile map by World.moveShape, y down (screen
// coordinates): ground tiles slide, coins are crossed and collected, a one-way platform is
// solid from above only (its `up` is -y), and a spring bounces.
import { Shape, World } from '../index.js';

const TILE = 32, W = 800, H = 600;
const GRAVITY = 0.5, RUN = 4, JUMP = 11;
// A map of 25 x 19 tiles: # ground, = one-way platform, o coin, ^ spring.
const MAP = [
  ...Array(11).fill(''),
  '                         ',
  '          o   o          ',
  '        =======      o   ',
  '                   ###   ',
  '    o          ^  #####  ',
  '#########################',
  '#########################',
  '#########################',
];

export class Platformer {
  constructor() {
    this.world = new World();
    this.tiles = [];
    MAP.forEach((row, j) => [...row].forEach((c, i) => {
      if (c === ' ') return;
      const [x, y] = [i * TILE, j * TILE];
      const options = {
        '#': { response: 'slide', value: 'ground' },
        '=': { response: 'oneWay', up: { x: 0, y: -1 }, value: 'platform' },
        '^': { response: 'bounce', value: 'spring' },
        o: { response: 'cross', value: 'coin' },
      }[c];
      const shape = c === 'o' ? Shape.rect(8, 8, 16, 16) : c === '=' ? Shape.rect(0, 0, TILE, 8) : Shape.rect(0, 0, TILE, TILE);
      const handle = this.world.insert(shape, { x, y, kind: 'static', ...options });
      this.tiles.push({ handle, x, y, c });
      shape.free();
    }));
    this.body = Shape.rect(0, 0, 20, 30);
    this.x = 40;
    this.y = 250;
    this.vx = 0;
    this.vy = 0;
    this.grounded = false;
    this.coins = 0;
    this.onPlatform = false;
  }

  step(input = {}) {
    this.vx = ((input.right ? 1 : 0) - (input.left ? 1 : 0)) * RUN;
    if (input.up && this.grounded) this.vy = -JUMP;
    this.vy = Math.min(this.vy + GRAVITY, 16);
    const mover = this.body.translated(this.x, this.y);
    const moved = this.world.moveShape(mover, this.vx, this.vy);
    mover.free();
    this.x += moved.dx;
    this.y += moved.dy;
    this.grounded = false;
    this.onPlatform = false;
    for (const c of moved.contacts) {
      const what = this.world.value(c.handle);
      if (what === 'coin') {
        this.world.remove(c.handle);
        this.coins++;
      } else if (what === 'spring' && c.normal.y < -0.7) {
        this.vy = -JUMP * 1.4;
      } else if (c.normal.y < -0.7) {
        this.grounded = true;
        this.vy = 0;
        this.onPlatform ||= what === 'platform';
      } else if (c.normal.y > 0.7) {
        this.vy = Math.max(this.vy, 0);
      }
    }
    return { x: this.x, y: this.y, grounded: this.grounded, onPlatform: this.onPlatform, coins: this.coins };
  }

  draw(ctx) {
    ctx.clearRect(0, 0, W, H);
    const colours = { '#': '#6a5', '=': '#a86', '^': '#e5e', o: '#fd3' };
    for (const t of this.tiles) {
      if (!this.world.has(t.handle)) continue;
      const b = this.world.shape(t.handle);
      const { minX, minY, maxX, maxY } = b.bounds();
      b.free();
      ctx.fillStyle = colours[t.c];
      ctx.fillRect(minX, minY, maxX - minX, maxY - minY);
    }
    ctx.fillStyle = this.grounded ? '#4cf' : '#8df';
    ctx.fillRect(this.x, this.y, 20, 30);
  }
}
