/// <reference lib="esnext.disposable" />
// Types of the collide2d npm package: every export of index.js and node.js.

/** A point or vector. */
export interface XY {
  x: number;
  y: number;
}

/** A shape's bounding box. */
export interface Bounds {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** How two intersecting shapes overlap. */
export interface Contact {
  /** Unit vector from `a` towards `b`: moving `b` along it separates them. */
  normal: XY;
  /** How far `b` must move along `normal` until the shapes only touch; 0 when touching. */
  depth: number;
  /** One or two contact points. */
  points: XY[];
}

/** The nearest points of two shapes apart. */
export interface ClosestPoints {
  distance: number;
  /** On the first shape. */
  a: XY;
  /** On the second shape. */
  b: XY;
}

/** The point of a shape's boundary nearest a point (inside a box, on the nearest wall), and whether that point is inside. */
export interface PointProjection extends XY {
  inside: boolean;
}

/** Where a ray meets a shape: `origin + t * dir`, with the surface normal there. */
export interface RayHit {
  t: number;
  point: XY;
  normal: XY;
}

/** When two moving shapes first touch (`t` in [0, 1]); normal from the first towards the second. */
export interface CastHit extends RayHit {
  /** Positive only when they overlap at the start. */
  depth: number;
}

/** A formats.md shape object, e.g. `{ type: "circle", center: [0, 0], radius: 1 }`. */
export type ShapeJSON = { type: string; [field: string]: unknown };

/**
 * A shape in world coordinates, owned by wasm memory: free it with `free()` (or `using`), or
 * leave it to the garbage collector. Constructors throw an `Error` naming the field:
 * `circle.radius must be >= 0, got -1`. Every shape is a closed set: touching shapes intersect.
 */
export class Shape {
  private constructor();
  static point(x: number, y: number): Shape;
  static segment(ax: number, ay: number, bx: number, by: number): Shape;
  static circle(x: number, y: number, r: number): Shape;
  /** Corner `(x, y)` and size `w, h >= 0`. */
  static rect(x: number, y: number, w: number, h: number): Shape;
  static aabb(minX: number, minY: number, maxX: number, maxY: number): Shape;
  /** A box of centre `(cx, cy)` and half sizes `hw, hh`, rotated by `angle` radians. */
  static obb(cx: number, cy: number, hw: number, hh: number, angle: number): Shape;
  static capsule(ax: number, ay: number, bx: number, by: number, r: number): Shape;
  /** A simple polygon from `[x0, y0, x1, y1, ...]`, either winding, concave allowed. */
  static polygon(points: ArrayLike<number>): Shape;
  /** A convex polygon from `[x0, y0, x1, y1, ...]`. */
  static convexPolygon(points: ArrayLike<number>): Shape;
  /** The union of `parts` (copied: the parts stay usable). */
  static compound(parts: Shape[]): Shape;
  /** A shape from its formats.md JSON form, as text or as an object. */
  static fromJSON(value: string | ShapeJSON): Shape;
  /** The formats.md type: point, segment, circle, aabb, obb, capsule, polygon or compound. */
  readonly kind: string;
  /** The formats.md JSON form (JSON.stringify uses it). */
  toJSON(): ShapeJSON;
  bounds(): Bounds;
  /** The shape moved by `(dx, dy)`. */
  translated(dx: number, dy: number): Shape;
  /** The shape rotated by `angle` radians about the origin, then moved by `(x, y)`. */
  transformed(x: number, y: number, angle: number): Shape;
  clone(): Shape;
  /** Frees its wasm memory now; the shape is unusable afterwards. */
  free(): void;
  [Symbol.dispose](): void;
}

/** True when `a` and `b` share a point (touching counts); exact. */
export function intersects(a: Shape, b: Shape): boolean;
/**
 * `intersects(as[k], bs[k])` for every pair, 1 or 0, written to `out` (a new `Uint8Array` of
 * `as.length` by default; a longer one keeps its tail) and returned. Circle and box pairs are
 * answered without a branch on the answer: faster than a loop of `intersects` once the pairs
 * outgrow the processor's caches (thousands), about as fast below.
 * Throws when `bs` is not as long as `as` or `out` is shorter.
 */
export function intersectsMany(as: ArrayLike<Shape>, bs: ArrayLike<Shape>, out?: Uint8Array): Uint8Array;
/**
 * The contact when `a` and `b` intersect, else null: moving `b` by `normal * depth` leaves the
 * two only touching. For convex pairs and most concave or compound ones that move is the
 * shortest; where the package would need the Rust crate's exact search over the parts (left
 * out of the .wasm for size), it separates along the deepest pair of parts' normal instead.
 */
export function contact(a: Shape, b: Shape): Contact | null;
/** The smallest distance between `a` and `b`; 0 when they intersect. */
export function distance(a: Shape, b: Shape): number;
/** The nearest points when `a` and `b` are apart, else null. */
export function closestPoints(a: Shape, b: Shape): ClosestPoints | null;
/** True when `b` lies entirely inside `a`; exact. */
export function contains(a: Shape, b: Shape): boolean;
/** True when `(x, y)` lies in `shape`, its boundary included; exact. */
export function containsPoint(shape: Shape, x: number, y: number): boolean;
export function distanceToPoint(shape: Shape, x: number, y: number): number;
export function projectPoint(shape: Shape, x: number, y: number): PointProjection;
/** The first point where the ray from `(ox, oy)` along `(dx, dy)` meets `shape`, `t` in [0, maxT]. */
export function castRay(shape: Shape, ox: number, oy: number, dx: number, dy: number, maxT?: number): RayHit | null;
/** When `a` moving by `(vax, vay)` and `b` moving by `(vbx, vby)` first touch during the step. */
export function castShapes(a: Shape, vax: number, vay: number, b: Shape, vbx: number, vby: number): CastHit | null;
/** The wasm heap's size in bytes (it only grows). */
export function heapBytes(): number;
/** The slot of a handle (`handle % 2 ** 32`): 0, 1, 2, ... in a new world with no removal. */
export function handleIndex(handle: Handle): number;

/** Names one object of a World: `index + generation * 2 ** 32`, an integer. */
export type Handle = number;
export type ObjectKind = 'dynamic' | 'static' | 'fast';
export type Response = 'slide' | 'stop' | 'cross' | 'bounce' | 'oneWay';

export interface WorldOptions {
  /** 'tree' (default, any mix of sizes) or 'grid' (many similar small objects). */
  broadPhase?: 'tree' | 'grid';
  /** The grid's cell size, > 0 (a cell should hold the usual object whole). */
  cellSize?: number;
  /** How much the tree enlarges each box (default 0). */
  margin?: number;
  /** Whether update() computes a contact per pair (default false). */
  contacts?: boolean;
}

export interface InsertOptions<T> {
  /** Where the shape, given in its own frame, is placed (default 0, 0). */
  x?: number;
  y?: number;
  /** Layer bits (default 1) and the layers it collides with (default all 32). */
  layer?: number;
  mask?: number;
  kind?: ObjectKind;
  /** What moveShape does on meeting this object (default 'slide'). */
  response?: Response;
  /** For 'oneWay': the side the object is solid from (default { x: 0, y: 1 }). */
  up?: XY;
  /** Any value, kept on the JavaScript side. */
  value?: T;
}

export interface UpdateStats {
  objects: number;
  candidates: number;
  pairs: number;
  began: number;
  ended: number;
}

export interface WorldRayHit extends RayHit {
  handle: Handle;
}

export interface WorldCastHit extends CastHit {
  handle: Handle;
}

export interface MoveContact extends WorldRayHit {
  response: Response;
}

/** The ground a mover stands on: the object, its surface normal (out of it) and the point. */
export interface Ground {
  handle: Handle;
  normal: XY;
  point: XY;
}

/** The result of moveShape: the distance moved, the contacts met, in order, and the ground. */
export interface Movement {
  dx: number;
  dy: number;
  contacts: MoveContact[];
  /** Walkable ground (by maxSlope) just below the mover at its final place, or null. */
  ground: Ground | null;
}

/** A moving platform for moveShape: an object the game moved by (dx, dy) this frame. */
export interface PlatformMotion {
  handle: Handle;
  dx: number;
  dy: number;
}

/** moveShape's options: the defaults are a plain slide through static objects. */
export interface MoveOptions extends QueryOptions {
  /** Which objects block: 'static' (default) or 'all' (crates, enemies, doors too). */
  obstacles?: 'static' | 'all';
  /** An object that never blocks: the mover's own. */
  ignore?: Handle;
  /** The up direction (default { x: 0, y: 1 }). */
  up?: XY;
  /** The steepest walkable surface, in radians (default π/2); steeper ones are walls. */
  maxSlope?: number;
  /** The highest ledge stepped up onto while on the ground (default 0). */
  stepHeight?: number;
  /** How far a mover that was on the ground is pulled down onto it (default 0). */
  snapToGround?: number;
  /** Push the mover out of solid objects it starts inside, the shortest way (default false). */
  depenetrate?: boolean;
  /** Objects moved this frame (already moved): their riders are carried, others pushed. */
  platforms?: PlatformMotion[];
}

export interface QueryOptions {
  /** Only objects whose layer is in the mask (default all). */
  mask?: number;
}

export interface RayOptions extends QueryOptions {
  maxT?: number;
}

/**
 * Objects, each with a shape, layer, mask, kind and a value of yours, and their colliding
 * pairs at each update. Owns wasm memory: free it with `free()` (or `using`), or leave it to
 * the garbage collector.
 */
export class World<T = unknown> {
  constructor(options?: WorldOptions);
  readonly size: number;
  insert(shape: Shape, options?: InsertOptions<T>): Handle;
  /** Removes the object; returns its value. */
  remove(handle: Handle): T | undefined;
  has(handle: Handle): boolean;
  value(handle: Handle): T | undefined;
  setValue(handle: Handle, value: T): void;
  /** The value of each handle, in order (pairs() gives [va0, vb0, va1, vb1, ...]). */
  values(handles: ArrayLike<Handle>): (T | undefined)[];
  /** A copy of the object's shape where it is now. */
  shape(handle: Handle): Shape;
  position(handle: Handle): XY;
  /** A new shape (in its own frame) at the object's position. */
  setShape(handle: Handle, shape: Shape): void;
  setFilter(handle: Handle, layer: number, mask?: number): void;
  setResponse(handle: Handle, response: Response, up?: XY): void;
  moveBy(handle: Handle, dx: number, dy: number): void;
  setPosition(handle: Handle, x: number, y: number): void;
  /** Moves handles[i] by (deltas[2i], deltas[2i + 1]). */
  moveMany(handles: Float64Array, deltas: Float32Array): void;
  /** Moves handles[i] to (positions[2i], positions[2i + 1]). */
  setPositions(handles: Float64Array, positions: Float32Array): void;
  update(): UpdateStats;
  /** The colliding pairs, [a0, b0, a1, b1, ...], a before b, sorted. */
  pairs(): Float64Array;
  /** Each pair's time of impact in [0, 1] (with a fast object), NaN otherwise. */
  pairTimes(): Float32Array;
  /** Each pair's contact (with contacts on). */
  contacts(): Contact[];
  began(): Float64Array;
  ended(): Float64Array;
  objectsAtPoint(x: number, y: number, mask?: number): Float64Array;
  objectsOverlapping(shape: Shape, mask?: number): Float64Array;
  castRay(ox: number, oy: number, dx: number, dy: number, options?: RayOptions): WorldRayHit | null;
  castRayAll(ox: number, oy: number, dx: number, dy: number, options?: RayOptions): WorldRayHit[];
  castShape(shape: Shape, dx: number, dy: number, options?: QueryOptions): WorldCastHit | null;
  castShapeAll(shape: Shape, dx: number, dy: number, options?: QueryOptions): WorldCastHit[];
  /** Moves a box or capsule through the static objects, each answering with its response. */
  moveShape(shape: Shape, dx: number, dy: number, options?: MoveOptions): Movement;
  free(): void;
  [Symbol.dispose](): void;
}
