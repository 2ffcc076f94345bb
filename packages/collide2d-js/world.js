// World: the wasm WorldCore plus each object's value, kept here by slot (any JS value, never
// copied into wasm), string options, and plain objects for the query answers.
import { WorldCore } from './wasm/collide2d_js.js';
import { code, contactAt, list, out, xy } from './core.js';

const SLOTS = 4294967296;
const ALL = 0xffffffff;
const KINDS = { dynamic: 0, static: 1, fast: 2 };
const RESPONSES = { slide: 0, stop: 1, cross: 2, bounce: 3, oneWay: 4 };
const RESPONSE_NAMES = Object.keys(RESPONSES);
const OBSTACLES = { static: 0, all: 1 };

/** The slot of a handle: objects of a new world with no removal get 0, 1, 2, ... */
export function handleIndex(handle) {
  return handle % SLOTS;
}

const rayHit = (o, i) => ({ handle: o[i], t: o[i + 1], point: xy(o[i + 2], o[i + 3]), normal: xy(o[i + 4], o[i + 5]) });
const castHit = (o, i) => ({ ...rayHit(o, i), depth: o[i + 6] });
const moveContact = (o, i) => ({ ...rayHit(o, i), response: RESPONSE_NAMES[o[i + 6]] });

export class World {
  #core;
  #values = [];

  constructor({ broadPhase = 'tree', cellSize = 0, margin = 0, contacts = false } = {}) {
    if (broadPhase === 'grid') this.#core = WorldCore.grid(cellSize);
    else if (broadPhase === 'tree') this.#core = WorldCore.tree(margin);
    else throw new Error(`broadPhase must be 'tree' or 'grid', got ${JSON.stringify(broadPhase)}`);
    this.#core.setContacts(contacts);
  }

  get size() {
    return this.#core.size;
  }

  insert(shape, { x = 0, y = 0, layer = 1, mask = ALL, kind = 'dynamic', response = 'slide', up = { x: 0, y: 1 }, value } = {}) {
    const k = code(KINDS, 'kind', kind);
    const r = code(RESPONSES, 'response', response);
    const h = this.#core.insert(shape, x, y, layer, mask, k, r, up.x, up.y);
    this.#values[h % SLOTS] = value;
    return h;
  }

  remove(handle) {
    this.#core.remove(handle);
    const i = handle % SLOTS;
    const value = this.#values[i];
    this.#values[i] = undefined;
    return value;
  }

  has(handle) {
    return this.#core.contains(handle);
  }

  value(handle) {
    return this.#core.contains(handle) ? this.#values[handle % SLOTS] : undefined;
  }

  setValue(handle, value) {
    if (!this.#core.contains(handle)) this.#core.remove(handle); // throws, naming the handle
    this.#values[handle % SLOTS] = value;
  }

  values(handles) {
    const values = new Array(handles.length);
    for (let i = 0; i < handles.length; i++) values[i] = this.#values[handles[i] % SLOTS];
    return values;
  }

  shape(handle) {
    return this.#core.shape(handle);
  }

  position(handle) {
    this.#core.rawPosition(handle);
    const o = out();
    return xy(o[0], o[1]);
  }

  setShape(handle, shape) {
    this.#core.setShape(handle, shape);
  }

  setFilter(handle, layer, mask = ALL) {
    this.#core.setFilter(handle, layer, mask);
  }

  setResponse(handle, response, up = { x: 0, y: 1 }) {
    this.#core.setResponse(handle, code(RESPONSES, 'response', response), up.x, up.y);
  }

  moveBy(handle, dx, dy) {
    this.#core.moveBy(handle, dx, dy);
  }

  setPosition(handle, x, y) {
    this.#core.setPosition(handle, x, y);
  }

  moveMany(handles, deltas) {
    this.#core.moveMany(handles, deltas);
  }

  setPositions(handles, positions) {
    this.#core.setPositions(handles, positions);
  }

  update() {
    this.#core.update();
    const o = out();
    return { objects: o[0], candidates: o[1], pairs: o[2], began: o[3], ended: o[4] };
  }

  pairs() {
    return this.#core.pairs();
  }

  pairTimes() {
    return this.#core.pairTimes();
  }

  contacts() {
    return list(this.#core.contacts(), 8, contactAt);
  }

  began() {
    return this.#core.began();
  }

  ended() {
    return this.#core.ended();
  }

  objectsAtPoint(x, y, mask = ALL) {
    return this.#core.objectsAtPoint(x, y, mask);
  }

  objectsOverlapping(shape, mask = ALL) {
    return this.#core.objectsOverlapping(shape, mask);
  }

  castRay(ox, oy, dx, dy, { maxT = Infinity, mask = ALL } = {}) {
    return list(this.#core.castRay(ox, oy, dx, dy, maxT, mask, false), 6, rayHit)[0] ?? null;
  }

  castRayAll(ox, oy, dx, dy, { maxT = Infinity, mask = ALL } = {}) {
    return list(this.#core.castRay(ox, oy, dx, dy, maxT, mask, true), 6, rayHit);
  }

  castShape(shape, dx, dy, { mask = ALL } = {}) {
    return list(this.#core.castShape(shape, dx, dy, mask, false), 7, castHit)[0] ?? null;
  }

  castShapeAll(shape, dx, dy, { mask = ALL } = {}) {
    return list(this.#core.castShape(shape, dx, dy, mask, true), 7, castHit);
  }

  moveShape(shape, dx, dy, {
    mask = ALL, obstacles = 'static', ignore = -1, up = { x: 0, y: 1 }, maxSlope = Math.PI / 2,
    stepHeight = 0, snapToGround = 0, depenetrate = false, platforms = [],
  } = {}) {
    const all = code(OBSTACLES, 'obstacles', obstacles);
    const settings = new Float64Array([all, ignore, up.x, up.y, maxSlope, stepHeight, snapToGround, depenetrate ? 1 : 0]);
    const moving = new Float64Array(platforms.flatMap((p) => [p.handle, p.dx, p.dy]));
    const contacts = this.#core.moveShape(shape, dx, dy, mask, settings, moving);
    const o = out();
    const ground = o[2] < 0 ? null : { handle: o[2], normal: xy(o[3], o[4]), point: xy(o[5], o[6]) };
    return { dx: o[0], dy: o[1], contacts: list(contacts, 7, moveContact), ground };
  }

  free() {
    if (this.#core !== undefined) this.#core.free();
    this.#core = undefined;
    this.#values = [];
  }

  [Symbol.dispose ?? Symbol.for('Symbol.dispose')]() {
    this.free();
  }
}
