// The package's types as a TypeScript user sees them (checked with tsc --noEmit): every export.
import {
  Shape, World, intersects, intersectsMany, contact, distance, closestPoints, contains, containsPoint,
  distanceToPoint, projectPoint, castRay, castShapes, heapBytes, handleIndex,
  type Contact, type Handle, type Movement, type UpdateStats, type WorldRayHit,
} from 'collide2d';

interface Enemy { hp: number }

const shapes: Shape[] = [
  Shape.point(0, 0), Shape.segment(0, 0, 1, 1), Shape.circle(0, 0, 1), Shape.rect(0, 0, 1, 1),
  Shape.aabb(0, 0, 1, 1), Shape.obb(0, 0, 1, 1, 0.5), Shape.capsule(0, 0, 1, 0, 0.5),
  Shape.polygon([0, 0, 1, 0, 0, 1]), Shape.convexPolygon(new Float64Array([0, 0, 1, 0, 0, 1])),
  Shape.fromJSON({ type: 'circle', center: [0, 0], radius: 1 }), Shape.fromJSON('{"type":"point","p":[0,0]}'),
];
const hitbox: Shape = Shape.compound(shapes);
const kind: string = hitbox.kind;
const hit: boolean = intersects(shapes[0], hitbox) && contains(hitbox, shapes[0]) && containsPoint(hitbox, 0, 0);
const answers: Uint8Array = intersectsMany(shapes, [...shapes].reverse(), new Uint8Array(shapes.length));
const c: Contact | null = contact(shapes[2], shapes[3]);
const d: number = distance(shapes[2], shapes[3]) + distanceToPoint(hitbox, 5, 5) + heapBytes();
const near = closestPoints(shapes[2], shapes[3].translated(5, 0));
const inside: boolean = projectPoint(hitbox, 3, 3).inside;
const t: number | undefined = castRay(hitbox, -5, 0, 1, 0)?.t ?? castShapes(shapes[2], 1, 0, shapes[3], 0, 0)?.depth;
const json = hitbox.toJSON();
const bounds = hitbox.transformed(1, 2, 0.5).bounds();

using world = new World<Enemy>({ broadPhase: 'tree', margin: 1, contacts: true });
const h: Handle = world.insert(shapes[2], { x: 1, y: 2, kind: 'dynamic', layer: 1, mask: 3, value: { hp: 3 } });
world.insert(shapes[3], { kind: 'static', response: 'oneWay', up: { x: 0, y: 1 } });
world.moveBy(h, 1, 0);
world.setPosition(h, 2, 2);
world.moveMany(new Float64Array([h]), new Float32Array([1, 1]));
world.setPositions(new Float64Array([h]), new Float32Array([0, 0]));
const stats: UpdateStats = world.update();
const hp: number | undefined = world.value(h)?.hp;
const values: (Enemy | undefined)[] = world.values(world.pairs());
const slot: number = handleIndex(h);
const ray: WorldRayHit | null = world.castRay(0, 0, 1, 0, { maxT: 10, mask: 1 });
const moved: Movement = world.moveShape(Shape.rect(0, 5, 1, 1), 0, -10);
const lists = [world.began(), world.ended(), world.objectsAtPoint(0, 0), world.objectsOverlapping(hitbox)];
const times: Float32Array = world.pairTimes();
const contacts: Contact[] = world.contacts();
world.setShape(h, shapes[0]);
world.setFilter(h, 2);
world.setResponse(h, 'bounce');
world.setValue(h, { hp: 2 });
const all = [world.castRayAll(0, 0, 1, 0), world.castShapeAll(hitbox, 1, 0), world.castShape(hitbox, 1, 0)];
const here = world.position(h);
const copy: Shape = world.shape(h).clone();
world.remove(h);
console.log(kind, hit, c, d, near, inside, t, json, bounds, stats, hp, values, slot, ray, moved,
  lists, times, contacts, all, here, copy, world.has(h), world.size);
copy.free();
hitbox[Symbol.dispose]();
