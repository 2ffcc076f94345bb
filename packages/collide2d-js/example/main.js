// The example page: one of two games on the canvas, stepped 60 times a second; window.example
// lets the browser test step them by script.
import { BulletHell } from './bullets.js';
import { Platformer } from './platformer.js';

const canvas = document.getElementById('view');
const ctx = canvas.getContext('2d');
const stats = document.getElementById('stats');
const keys = {};
addEventListener('keydown', (e) => { keys[e.key.replace('Arrow', '').toLowerCase()] = true; });
addEventListener('keyup', (e) => { keys[e.key.replace('Arrow', '').toLowerCase()] = false; });

let game;
let last = {};
function start(name) {
  game?.world.free();
  game = name === 'platformer' ? new Platformer() : new BulletHell();
  for (const b of document.querySelectorAll('button')) b.classList.toggle('on', b.id === name);
  window.example.mode = name;
}

/** Steps the game `frames` times with `input`, draws, and returns the last frame's numbers. */
function run(frames, input = keys) {
  const t0 = performance.now();
  for (let i = 0; i < frames; i++) last = game.step(input);
  const ms = (performance.now() - t0) / frames;
  game.draw(ctx);
  stats.textContent = `${window.example.mode}: ${JSON.stringify(last)} — ${ms.toFixed(2)} ms a frame`;
  return last;
}

window.example = { ready: false, mode: '', start, run };
document.getElementById('bullets').onclick = () => start('bullets');
document.getElementById('platformer').onclick = () => start('platformer');
start('bullets');
window.example.ready = true;

function loop() {
  if (!window.example.paused) run(1);
  requestAnimationFrame(loop);
}
requestAnimationFrame(loop);
