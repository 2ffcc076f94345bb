//! Issue 16's inputs, from a few bytes: the bytes pick a mode, sizes and a seed, and a seeded
//! generator builds what 4 KB of JSON could not (compounds of up to `MAX_COMPOUND_PARTS`
//! pieces, worlds of hundreds of distinct filters).
//!
//! - Two compounds of many parts (discs, boxes, rotated boxes, capsules, concave polygons, some
//!   nested), spread over an area that grows with their count, so the part trees matter: the
//!   queries keep their laws (symmetry, `intersects` ⇔ `contact` ⇔ `distance == 0`), and, up to
//!   64 pieces each, equal a scan of every pair of pieces (`intersects` exactly, `distance` and
//!   the cast's `t` within rounding).
//! - A world of objects with hundreds of distinct filters (past the 64 that get groups of their
//!   own), edited between updates (fresh filters, removals, inserts), under both broad phases,
//!   sometimes with a small cap on pairs: the pairs equal an all-pairs loop (a subset of it, in
//!   handle order, when the update says it was truncated), and point queries with a mask equal
//!   a scan.
#![no_main]

use collide2d::math::Vec2;
use collide2d::{
    cast_shapes, contact, distance, intersects, Aabb, BroadPhase, Capsule, Circle,
    CollisionWorld, Compound, Filter, Handle, Obb, ObjectKind, Polygon, Shape,
};
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;

/// SplitMix64, seeded by the input.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    /// An integer coordinate in `[0, n)`, as `f32` (touching cases are common and exact).
    fn at(&mut self, n: u64) -> f32 {
        self.below(n) as f32
    }
}

/// A small convex or concave part near `(x, y)`.
fn part(rng: &mut Rng, x: f32, y: f32) -> Shape {
    let s = 1.0 + rng.at(3);
    let built = match rng.below(5) {
        0 => Circle::new(Vec2::new(x, y), s * 0.5).map(Shape::from),
        1 => Aabb::new(Vec2::new(x, y), Vec2::new(x + s, y + s)).map(Shape::from),
        2 => Obb::new(Vec2::new(x, y), Vec2::new(s * 0.5, 0.5), rng.at(8) * 0.4).map(Shape::from),
        3 => Capsule::new(Vec2::new(x, y), Vec2::new(x + s, y), 0.5).map(Shape::from),
        _ => {
            let l = [(0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (1.0, 1.0), (1.0, 2.0), (0.0, 2.0)];
            Polygon::new(&l.map(|(px, py)| Vec2::new(x + px * s, y + py * s))).map(Shape::from)
        }
    };
    built.unwrap_or_else(|_| Shape::from(Circle::new(Vec2::new(x, y), 0.5).expect("valid")))
}

/// A compound of about `pieces` convex pieces (an L polygon is two), some in nested compounds,
/// over a square whose area grows with the count (`density` parts per 16 square units).
fn compound(rng: &mut Rng, pieces: usize, density: u64, offset: Vec2) -> Shape {
    let side = ((pieces as f64 * 16.0 / density.max(1) as f64).sqrt() as u64).max(2);
    let mut parts: Vec<Shape> = Vec::new();
    let mut count = 0;
    while count + 4 <= pieces.max(4) {
        let (x, y) = (rng.at(side) + offset.x, rng.at(side) + offset.y);
        let p = if rng.below(16) == 0 {
            let inner = vec![part(rng, x, y), part(rng, x + 1.0, y)];
            Compound::new(inner).map(Shape::from).expect("small")
        } else {
            part(rng, x, y)
        };
        count += pieces_of(&p);
        parts.push(p);
    }
    Compound::new(parts).map(Shape::from).expect("within the limit")
}

fn pieces_of(s: &Shape) -> usize {
    match s {
        Shape::Compound(c) => c.pieces(),
        Shape::Polygon(p) => p.parts().len(),
        _ => 1,
    }
}

/// The convex pieces of a shape, nested compounds flattened.
fn flatten(s: &Shape, out: &mut Vec<Shape>) {
    match s {
        Shape::Compound(c) => c.parts().iter().for_each(|p| flatten(p, out)),
        Shape::Polygon(p) if !p.is_convex() => {
            out.extend(p.parts().iter().map(|q| Shape::from(q.clone())));
        }
        other => out.push(other.clone()),
    }
}

fn compounds(u: &mut Unstructured, rng: &mut Rng) -> Result<()> {
    let limit = collide2d::limits::MAX_COMPOUND_PARTS;
    let na = u.int_in_range(1..=limit)?;
    let nb = u.int_in_range(1..=limit)?;
    let density = u.int_in_range(1..=16u64)?;
    let shift = Vec2::new(f32::from(u.int_in_range(-40i8..=40)?), f32::from(u.int_in_range(-40i8..=40)?));
    let a = compound(rng, na, density, Vec2::ZERO);
    let b = compound(rng, nb, density, shift);
    let hit = intersects(&a, &b);
    assert_eq!(intersects(&b, &a), hit, "intersects is symmetric");
    assert_eq!(contact(&a, &b).is_some(), hit, "contact exactly when intersecting");
    let d = distance(&a, &b);
    assert_eq!(distance(&b, &a).to_bits(), d.to_bits(), "distance is symmetric");
    assert_eq!(d == 0.0, hit, "distance {d} is 0 exactly when intersecting");
    let motion = Vec2::new(f32::from(u.int_in_range(-30i8..=30)?), f32::from(u.int_in_range(-30i8..=30)?));
    let cast = cast_shapes(&a, motion, &b, Vec2::ZERO);
    if hit {
        assert_eq!(cast.map(|h| h.t), Some(0.0), "touching at the start");
    }
    if pieces_of(&a) > 64 || pieces_of(&b) > 64 {
        return Ok(());
    }
    // The scan of every pair of pieces.
    let (mut pa, mut pb) = (Vec::new(), Vec::new());
    flatten(&a, &mut pa);
    flatten(&b, &mut pb);
    let pairs = || pa.iter().flat_map(|x| pb.iter().map(move |y| (x, y)));
    assert_eq!(hit, pairs().any(|(x, y)| intersects(x, y)), "intersects: scan");
    let nearest = pairs().map(|(x, y)| distance(x, y)).fold(f32::INFINITY, f32::min);
    let scale = 1e-5 * (1.0 + d.max(nearest));
    assert!((d - nearest).abs() <= scale, "distance {d}, scan {nearest}");
    let first = pairs()
        .filter_map(|(x, y)| cast_shapes(x, motion, y, Vec2::ZERO).map(|h| h.t))
        .fold(f32::INFINITY, f32::min);
    // Within rounding; a hit the other misses only grazes at the very end of the motion.
    let t = cast.map_or(f32::INFINITY, |h| h.t);
    let agree = if t.is_finite() && first.is_finite() {
        (t - first).abs() <= 1e-4
    } else {
        t.min(first) >= 1.0 - 1e-4
    };
    assert!(agree, "cast t {t}, scan {first}");
    Ok(())
}

/// A filter from a wide set: a layer of eight and a mask of random bits over them, with random
/// bits above (so almost every filter is distinct) unless `few`.
fn filter(rng: &mut Rng, few: bool) -> Filter {
    let layer = 1u64 << rng.below(8);
    let mask = rng.next() & 0xff;
    if few {
        Filter::new(layer, mask)
    } else {
        Filter::new(layer, mask | rng.next() << 8)
    }
}

struct Object {
    handle: Handle,
    shape: Shape,
    filter: Filter,
    is_static: bool,
}

fn worlds(u: &mut Unstructured, rng: &mut Rng) -> Result<()> {
    let n = u.int_in_range(1..=400usize)?;
    let few = u.ratio(1, 8)?;
    let side = 2 + n as u64 / 8;
    let cap = if u.ratio(1, 4)? { Some(u.int_in_range(0..=200usize)?) } else { None };
    let broads = [BroadPhase::tree(0.1), BroadPhase::grid(1.0 + rng.at(4)).expect("positive")];
    let mut ws: Vec<CollisionWorld<u32>> = broads.iter().map(|b| CollisionWorld::new(*b)).collect();
    let mut objects: Vec<Object> = Vec::new();
    let insert = |rng: &mut Rng, ws: &mut Vec<CollisionWorld<u32>>, objects: &mut Vec<Object>| {
        let (x, y) = (rng.at(side), rng.at(side));
        let shape = part(rng, x, y);
        let f = filter(rng, few);
        let is_static = rng.below(4) == 0;
        let kind = if is_static { ObjectKind::Static } else { ObjectKind::Dynamic };
        let handles: Vec<Handle> = ws
            .iter_mut()
            .map(|w| w.insert(shape.clone(), f, kind, 0).expect("finite"))
            .collect();
        assert!(handles.windows(2).all(|h| h[0] == h[1]));
        objects.push(Object { handle: handles[0], shape, filter: f, is_static });
    };
    for _ in 0..n {
        insert(rng, &mut ws, &mut objects);
    }
    for w in &mut ws {
        if let Some(cap) = cap {
            w.set_max_pairs(cap);
        }
    }
    for _frame in 0..u.int_in_range(1..=4u8)? {
        // Edits: fresh filters, removals, inserts.
        for _ in 0..u.int_in_range(0..=n)? {
            match rng.below(3) {
                0 if !objects.is_empty() => {
                    let i = rng.below(objects.len() as u64) as usize;
                    let f = filter(rng, few);
                    for w in &mut ws {
                        w.set_filter(objects[i].handle, f).expect("live");
                    }
                    objects[i].filter = f;
                }
                1 if !objects.is_empty() => {
                    let i = rng.below(objects.len() as u64) as usize;
                    let o = objects.swap_remove(i);
                    for w in &mut ws {
                        w.remove(o.handle).expect("live");
                    }
                }
                _ => insert(rng, &mut ws, &mut objects),
            }
        }
        objects.sort_by_key(|o| o.handle);
        let mut want = Vec::new();
        for (i, a) in objects.iter().enumerate() {
            for b in &objects[i + 1..] {
                if !(a.is_static && b.is_static)
                    && a.filter.collides_with(b.filter)
                    && intersects(&a.shape, &b.shape)
                {
                    want.push((a.handle, b.handle));
                }
            }
        }
        let p = Vec2::new(rng.at(side), rng.at(side));
        let mask = rng.next();
        let at_point: Vec<Handle> = objects
            .iter()
            .filter(|o| o.filter.layer & mask != 0 && collide2d::contains_point(&o.shape, p))
            .map(|o| o.handle)
            .collect();
        for w in &mut ws {
            assert_eq!(w.objects_at_point(p, mask), at_point, "objects_at_point");
            let stats = w.update();
            let got: Vec<(Handle, Handle)> = w.pairs().iter().map(|q| (q.a, q.b)).collect();
            assert!(got.windows(2).all(|q| q[0] < q[1]), "sorted");
            if stats.truncated {
                assert!(cap.is_some_and(|c| stats.candidates <= c), "{stats:?}");
                assert!(got.iter().all(|q| want.binary_search(q).is_ok()), "a subset");
            } else {
                assert_eq!(got, want, "pairs");
            }
        }
    }
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok(mode) = u.int_in_range(0..=1u8) else {
        return;
    };
    let Ok(seed) = u.arbitrary::<u64>() else {
        return;
    };
    let mut rng = Rng(seed);
    let _ = if mode == 0 {
        compounds(&mut u, &mut rng)
    } else {
        worlds(&mut u, &mut rng)
    };
});
