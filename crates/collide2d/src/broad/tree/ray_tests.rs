//! The four-wide layout and its walk against the plain `ray_box`: every leaf held once, the same leaves accepted at the same entry.

use super::*;
use crate::broad::inverse_dir;

/// The four-lane slab tests accept the same boxes as `ray_box`, at the same entry.
#[test]
fn ray_slabs_agree_with_ray_box() {
    let mut seed = 0x9e37_79b9_u32;
    let mut next = move || {
        (crate::test_support::xorshift32_next(&mut seed) >> 8) as f32 / (1 << 24) as f32 * 20.0
            - 10.0
    };
    let dirs = [
        Vec2::new(1.0, 0.0),
        Vec2::new(-0.0, -2.0),
        Vec2::new(0.6, -0.8),
        Vec2::new(-3.0, 0.5),
        Vec2::new(1e-40, 1.0),
    ];
    for k in 0..4000 {
        let origin = Vec2::new(next(), next());
        let dir = if k % 3 == 0 {
            Vec2::new(next(), next())
        } else {
            dirs[k % dirs.len()]
        };
        let ray = Ray::new(origin, dir);
        let slabs = RaySlabs::new(&ray);
        let inv = inverse_dir(dir);
        let mut boxes = [Aabb::raw(Vec2::ZERO, Vec2::ZERO); 4];
        for b in &mut boxes {
            let (p, q) = (Vec2::new(next(), next()), Vec2::new(next(), next()) * 0.2);
            *b = Aabb::raw(p.min(p + q), p.max(p + q));
        }
        // A box the ray starts on the edge of.
        if k % 5 == 0 {
            boxes[1] = Aabb::raw(origin, origin + Vec2::splat(1.0));
        }
        let quad = Quad {
            bounds: [
                Vec4::from_array(boxes.map(|b| b.min().x)),
                Vec4::from_array(boxes.map(|b| b.min().y)),
                Vec4::from_array(boxes.map(|b| b.max().x)),
                Vec4::from_array(boxes.map(|b| b.max().y)),
            ],
            child: [0; 4],
            mask: 15,
            tag: [0, 1, 2, 3],
        };
        for max_t in [0.0, 0.5, 3.0, f32::INFINITY] {
            let want = boxes.map(|b| ray_box(&ray, inv, &b, max_t));
            let (early, hit) = if slabs.parallel {
                let (entered, hit) = slabs.enter_quad_parallel(&quad, max_t);
                (slabs.early::<true>(entered), hit)
            } else {
                let (entered, hit) = slabs.enter_quad(&quad, max_t);
                (slabs.early::<false>(entered), hit)
            };
            let got: [Option<f32>; 4] =
                core::array::from_fn(|i| (hit & (1 << i) != 0).then_some(early[i]));
            assert_eq!(got, want);
            for t in got.into_iter().flatten() {
                assert_eq!(t.to_bits() >> 31, 0, "never negative, nor -0");
            }
        }
    }
}

/// The quads hold every leaf once and every quad but the root under one parent, a parent's
/// first inner child right after it (depth first).
#[test]
fn quads_hold_every_leaf_once() {
    for n in [2u32, 3, 5, 17, 300] {
        let mut tree = Tree::new();
        for slot in 0..n {
            let at = Vec2::new((slot * 37 % 23) as f32, (slot * 11 % 19) as f32 * 1.5);
            tree.insert(
                Aabb::raw(at, at + Vec2::splat(1.0 + (slot % 3) as f32)),
                slot,
            );
        }
        let ray_tree = tree.flatten();
        let quads = &ray_tree.quads;
        let mut seen = vec![0; n as usize];
        let mut reached = vec![0; quads.len()];
        reached[0] = 1;
        for (q, quad) in quads.iter().enumerate() {
            assert!(quad.mask & 3 == 3, "at least two children");
            let mut first_inner = true;
            for lane in (0..4).filter(|l| quad.mask & (1 << l) != 0) {
                let c = quad.child[lane] as usize;
                if quad.mask & (16 << lane) != 0 {
                    seen[c] += 1;
                } else {
                    assert!(c > q);
                    if first_inner {
                        assert_eq!(c, q + 1, "depth first");
                        first_inner = false;
                    }
                    reached[c] += 1;
                }
            }
        }
        assert!(seen.iter().all(|&k| k == 1), "{n}: {seen:?}");
        assert!(reached.iter().all(|&k| k == 1), "{n}");
    }
}

/// Without pruning, the walk reports exactly the leaves whose boxes `ray_box` accepts, each
/// once (through the heap part of its stack too), for rays in every direction, axis-parallel
/// ones included.
#[test]
fn walk_reports_the_leaves_ray_box_accepts() {
    let mut tree = Tree::new();
    let mut boxes = Vec::new();
    for slot in 0..500u32 {
        let at = Vec2::new((slot * 37 % 53) as f32, (slot * 11 % 47) as f32 * 0.7);
        let b = Aabb::raw(at, at + Vec2::splat(0.5 + (slot % 4) as f32));
        tree.insert(b, slot);
        boxes.push(b);
    }
    let mut leaves = Vec::new();
    tree.rebuild(&mut Vec::new(), &mut |slot, _| leaves.push(slot));
    assert_eq!(leaves.len(), 500);
    let quads = tree.flatten();
    assert!(quads.stack > RAY_STACK, "the stack is on the heap");
    for k in 0..200u32 {
        let angle = k as f32 * 0.137;
        let dir = match k % 5 {
            0 => Vec2::new(1.0, 0.0),
            1 => Vec2::new(0.0, -1.0),
            _ => Vec2::from_angle(angle),
        };
        let origin = Vec2::new((k * 7 % 53) as f32, (k * 3 % 33) as f32);
        let ray = Ray::new(origin, dir);
        let slabs = RaySlabs::new(&ray);
        for max_t in [3.0, f32::INFINITY] {
            let mut got = Vec::new();
            let mut f = |slot: u32| {
                got.push(slot);
                max_t
            };
            let mut limit = max_t;
            if slabs.parallel {
                walk::<true, _>(&quads, &slabs, &mut limit, &mut f);
            } else {
                walk::<false, _>(&quads, &slabs, &mut limit, &mut f);
            }
            got.sort_unstable();
            let want: Vec<u32> = (0..500)
                .filter(|&s| ray_box(&ray, slabs.inv, &boxes[s as usize], max_t).is_some())
                .collect();
            assert_eq!(got, want, "{ray:?} {max_t}");
        }
    }
}
