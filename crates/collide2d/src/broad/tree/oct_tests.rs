//! The eight-wide AVX layout: every leaf held once, the leaves `ray_box` accepts, and a world answering as with the four-wide one.

use super::*;
use crate::broad::tree::ray::{RaySlabs, QUADS_ONLY};
use crate::query::Ray;
use crate::shape::{Capsule, Circle, Shape};
use crate::{CollisionWorld, Filter, ObjectKind};
use core::sync::atomic::Ordering;

/// Seeded boxes of mixed sizes in a tree.
fn tree(n: u32) -> (Tree, Vec<Aabb>) {
    let mut tree = Tree::new();
    let mut boxes = Vec::new();
    for slot in 0..n {
        let at = Vec2::new((slot * 37 % 53) as f32, (slot * 11 % 47) as f32 * 0.7);
        let b = Aabb::raw(at, at + Vec2::splat(0.5 + (slot % 4) as f32));
        tree.insert(b, slot);
        boxes.push(b);
    }
    (tree, boxes)
}

/// The octs hold every leaf once and every oct but the root under one parent, a parent's
/// first inner child right after it.
#[test]
fn octs_hold_every_leaf_once() {
    let Some(avx) = Avx::detect() else {
        return;
    };
    for n in [2u32, 3, 9, 17, 300] {
        let octs = tree(n).0.flatten_octs(avx).unwrap();
        let mut seen = vec![0; n as usize];
        let mut reached = vec![0; octs.nodes.len()];
        reached[0] = 1;
        for (q, oct) in octs.nodes.iter().enumerate() {
            assert!(oct.mask & 3 == 3, "at least two children");
            let mut first_inner = true;
            for lane in (0..8).filter(|l| oct.mask & (1 << l) != 0) {
                let c = (oct.child[lane] & !LEAF) as usize;
                if oct.child[lane] & LEAF != 0 {
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

/// Without pruning, the walk over octs reports exactly the leaves whose boxes `ray_box`
/// accepts, each once (through the heap stack too: 4 entries inline in unit tests), for
/// rays in every direction, axis-parallel ones included.
#[test]
fn oct_walk_reports_the_leaves_ray_box_accepts() {
    let Some(avx) = Avx::detect() else {
        return;
    };
    let (mut tree, boxes) = tree(500);
    tree.rebuild(&mut Vec::new(), &mut |_, _| {});
    let octs = tree.flatten_octs(avx).unwrap();
    assert!(octs.stack > RAY_STACK, "the stack is on the heap");
    for k in 0..300u32 {
        let dir = match k % 5 {
            0 => Vec2::new(1.0, 0.0),
            1 => Vec2::new(0.0, -1.0),
            _ => Vec2::from_angle(k as f32 * 0.137),
        };
        let origin = Vec2::new((k * 7 % 53) as f32, (k * 3 % 33) as f32);
        let ray = Ray::new(origin, dir);
        let slabs = RaySlabs::new(&ray);
        for max_t in [3.0, f32::INFINITY] {
            let mut got = Vec::new();
            let mut limit = max_t;
            walk(&octs, &ray, slabs.inv, &mut limit, &mut |slot: u32| {
                got.push(slot);
                max_t
            });
            got.sort_unstable();
            let want: Vec<u32> = (0..500)
                .filter(|&s| ray_box(&ray, slabs.inv, &boxes[s as usize], max_t).is_some())
                .collect();
            assert_eq!(got, want, "{ray:?} {max_t}");
        }
    }
}

/// A world answers every ray the same, bit for bit, whether its trees are laid out as octs
/// (where the CPU has AVX) or as quads.
#[test]
fn worlds_answer_the_same_through_octs_and_quads() {
    let mut seed = 0x2545_f491_u32;
    let mut next =
        move || (crate::test_support::xorshift32_next(&mut seed) >> 8) as f32 / (1 << 24) as f32;
    let mut shapes: Vec<(Shape, ObjectKind)> = Vec::new();
    for i in 0..600 {
        let at = Vec2::new(next() * 60.0, next() * 60.0);
        // Integer-aligned boxes too, so rays along their edges and ties in `t` come up.
        let size = 0.2 + next() * 2.0;
        let shape: Shape = match i % 4 {
            0 => Circle::raw(at, size).into(),
            1 => Aabb::raw(at.floor(), at.floor() + Vec2::new(1.0, 2.0)).into(),
            2 => Aabb::raw(at, at + Vec2::new(size, size * 0.5)).into(),
            _ => Capsule::raw(at, at + Vec2::new(size, 1.0), 0.3).into(),
        };
        let kind = if i % 3 == 0 {
            ObjectKind::Dynamic
        } else {
            ObjectKind::Static
        };
        shapes.push((shape, kind));
    }
    let mut rays = Vec::new();
    for k in 0..2000u32 {
        let origin = Vec2::new(next() * 60.0, next() * 60.0);
        let dir = match k % 6 {
            0 => Vec2::new(0.0, 1.0),
            1 => Vec2::new(-1.0, 0.0),
            2 => origin.floor() - origin + Vec2::new(0.0, 1.0),
            _ => Vec2::from_angle(next() * 7.0),
        };
        let origin = if k % 6 == 2 { origin.floor() } else { origin };
        rays.push((
            Ray::new(origin, dir),
            [5.0, 40.0, f32::INFINITY][k as usize % 3],
        ));
    }
    let answers = |quads: bool| {
        QUADS_ONLY.store(quads, Ordering::Relaxed);
        let mut world: CollisionWorld = CollisionWorld::new(crate::BroadPhase::default());
        for (shape, kind) in &shapes {
            let _ = world.insert(shape.clone(), Filter::DEFAULT, *kind, ());
        }
        world.update();
        // The first cast lays the trees out.
        let first = rays
            .iter()
            .map(|(ray, max_t)| world.cast_ray(ray, *max_t, u64::MAX))
            .collect::<Vec<_>>();
        QUADS_ONLY.store(false, Ordering::Relaxed);
        let all = rays
            .iter()
            .map(|(ray, max_t)| world.cast_ray_all(ray, *max_t, u64::MAX))
            .collect::<Vec<_>>();
        (first, all)
    };
    let (quads, octs) = (answers(true), answers(false));
    assert!(quads.0.iter().filter(|a| a.is_some()).count() > 500);
    for (a, b) in quads.0.iter().zip(&octs.0) {
        let bits = |x: &Option<(crate::world::Handle, crate::query::RayHit)>| {
            x.map(|(h, hit)| {
                (
                    h,
                    hit.t.to_bits(),
                    hit.point.to_array().map(f32::to_bits),
                    hit.normal.to_array().map(f32::to_bits),
                )
            })
        };
        assert_eq!(bits(a), bits(b));
    }
    assert_eq!(quads.1, octs.1);
}
