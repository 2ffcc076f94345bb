//! Every kernel against the exact pairwise `intersects`, on random, touching, one-ulp-apart,
//! huge and tiny inputs, at lengths around the lane counts. These tests also run under Miri
//! (`.ci/miri`), with fewer and smaller cases.

use super::{Aabbs, Circles, Kernel};
use crate::math::Vec2;
use crate::shape::{Aabb, Capsule, Circle, ConvexPolygon, Obb, Point, Segment, Shape};
use crate::{intersects, ShapeError};
use alloc::string::ToString;
use alloc::vec;
use alloc::vec::Vec;

/// Scenes per random test: Miri interprets every lane, so it gets a few.
const SCENES: usize = if cfg!(miri) { 4 } else { 200 };
/// Longest scene: past three SIMD steps (32 lanes each) natively, one step and a tail under
/// Miri.
const MAX_LEN: usize = if cfg!(miri) { 40 } else { 100 };

/// SplitMix64, so every run sees the same scenes.
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
        self.next() % n
    }
    /// A small integer in `-n..=n`: many exactly touching pairs.
    fn int(&mut self, n: i32) -> f32 {
        (self.below(2 * n as u64 + 1) as i32 - n) as f32
    }
    /// A coordinate of one of several kinds: small integer, integer scaled up to 2^20, random
    /// fraction, huge, tiny.
    fn coord(&mut self) -> f32 {
        match self.below(8) {
            0..=3 => self.int(6),
            4 => self.int(6) * 2f32.powi(self.below(15) as i32 + 6),
            5 => (self.next() >> 40) as f32 / (1u64 << 20) as f32 * 16.0 - 8.0,
            6 => self.int(3) * 1e30,
            _ => self.int(3) * f32::from_bits(1 + self.below(4) as u32),
        }
    }
    /// A radius of the same kinds, `>= 0`.
    fn radius(&mut self) -> f32 {
        self.coord().abs()
    }
}

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn random_circles(rng: &mut Rng, n: usize) -> Circles {
    (0..n)
        .map(|_| Circle::new(v(rng.coord(), rng.coord()), rng.radius()).unwrap())
        .collect()
}

fn random_aabb(rng: &mut Rng) -> Aabb {
    let (x, y) = (rng.coord(), rng.coord());
    let (w, h) = (rng.radius(), rng.radius());
    Aabb::new(v(x.min(x + w), y.min(y + h)), v(x.max(x + w), y.max(y + h))).unwrap()
}

fn random_aabbs(rng: &mut Rng, n: usize) -> Aabbs {
    (0..n).map(|_| random_aabb(rng)).collect()
}

/// A probe of every kind: the three with a certified filter, and others through the box filter.
fn random_probe(rng: &mut Rng) -> Shape {
    let p = v(rng.int(6), rng.int(6));
    let q = v(rng.int(6), rng.int(6));
    let r = rng.int(4).abs();
    match rng.below(8) {
        0 => Point::new(v(rng.coord(), rng.coord())).unwrap().into(),
        1 | 2 => Circle::new(v(rng.coord(), rng.coord()), rng.radius())
            .unwrap()
            .into(),
        3 | 4 => random_aabb(rng).into(),
        5 => Segment::new(p, q).unwrap().into(),
        6 => Capsule::new(p, q, r).unwrap().into(),
        _ => match rng.below(2) {
            0 => Obb::new(p, v(r + 1.0, 1.0), 0.5).unwrap().into(),
            _ => ConvexPolygon::new(&[p, p + v(3.0, 0.0), p + v(1.0, 2.0)])
                .unwrap()
                .into(),
        },
    }
}

/// The indices `intersects` finds, one pair at a time.
fn brute(probe: &Shape, items: impl Iterator<Item = Shape>) -> Vec<usize> {
    items
        .enumerate()
        .filter(|(_, s)| intersects(probe, s))
        .map(|(i, _)| i)
        .collect()
}

/// Every kernel finds exactly `brute`'s indices, in order, and `intersects_any` agrees.
fn check_circles(circles: &Circles, probe: &Shape) {
    let expected = brute(probe, circles.iter().map(Shape::from));
    let mut got = vec![usize::MAX]; // must be cleared
    for k in Kernel::available() {
        circles.intersecting_with(k, probe, &mut got);
        assert_eq!(got, expected, "{} kernel, probe {probe:?}", k.name());
        let any = circles.intersects_any_with(k, probe);
        assert_eq!(any, !expected.is_empty(), "{} kernel any", k.name());
    }
}

fn check_aabbs(aabbs: &Aabbs, probe: &Shape) {
    let expected = brute(probe, aabbs.iter().map(Shape::from));
    let mut got = vec![usize::MAX];
    for k in Kernel::available() {
        aabbs.intersecting_with(k, probe, &mut got);
        assert_eq!(got, expected, "{} kernel, probe {probe:?}", k.name());
        let any = aabbs.intersects_any_with(k, probe);
        assert_eq!(any, !expected.is_empty(), "{} kernel any", k.name());
    }
}

#[test]
fn batch_random_scenes_match_pairwise_intersects() {
    let mut rng = Rng(1);
    for scene in 0..SCENES {
        let n = match scene {
            0 => MAX_LEN,
            _ => rng.below(MAX_LEN as u64 + 1) as usize,
        };
        let (circles, aabbs) = (random_circles(&mut rng, n), random_aabbs(&mut rng, n));
        for _ in 0..4 {
            let probe = random_probe(&mut rng);
            check_circles(&circles, &probe);
            check_aabbs(&aabbs, &probe);
        }
        // Every length from 0 up (natively), so every tail size meets every kernel.
        if scene == 0 {
            let lens: Vec<usize> = if cfg!(miri) {
                vec![0, 1, 8, 17, 31, 32, 33, 40]
            } else {
                (0..=n).collect()
            };
            for len in lens {
                let c: Circles = circles.iter().take(len).collect();
                let b: Aabbs = aabbs.iter().take(len).collect();
                let probe = random_probe(&mut rng);
                check_circles(&c, &probe);
                check_aabbs(&b, &probe);
            }
        }
    }
}

/// Pythagorean triples `(a, b, c)`: points `(a, b)` apart touch discs with radii summing to `c`.
const TRIPLES: [(f32, f32, f32); 5] = [
    (3.0, 4.0, 5.0),
    (5.0, 12.0, 13.0),
    (8.0, 15.0, 17.0),
    (20.0, 21.0, 29.0),
    (119.0, 120.0, 169.0),
];

/// Discs touching a probe of radius `169 * scale / 2` at `origin`, and their one-ulp
/// neighbours (radius one ulp smaller: apart; center one ulp nearer: overlapping).
fn touching_scene(origin: Vec2, scale: f32) -> Circles {
    let mut out = Circles::new();
    for (a, b, c) in TRIPLES {
        let (a, b, c) = (a * scale, b * scale, c * scale);
        for (sx, sy) in [(1.0, 1.0), (-1.0, 1.0), (1.0, -1.0), (-1.0, -1.0)] {
            let center = origin + v(sx * a, sy * b);
            // The probe has radius `c / 2`; this disc the other half.
            let r = c - c / 2.0;
            out.push(center, r).unwrap();
            out.push(center, r.next_down()).unwrap();
            out.push(center, r.next_up()).unwrap();
            let nearer = v(
                center.x - sx * center.x.abs().max(1.0) * f32::EPSILON,
                center.y,
            );
            out.push(nearer, r).unwrap();
        }
    }
    out
}

#[test]
fn batch_touching_and_one_ulp_apart_discs_at_large_coordinates() {
    // At scales 101, 157 and 233 the f32 squares of the 119-120-169 triple round so that
    // `d2 - rr` comes out positive for exactly touching discs: an unsound filter says "miss".
    let scales: &[f32] = if cfg!(miri) {
        &[1.0, 101.0]
    } else {
        &[1.0, 2.0, 101.0, 157.0, 233.0, 1024.0, 4096.0, 7919.0]
    };
    for &scale in scales {
        for origin in [
            v(0.0, 0.0),
            v(1_048_576.0, -1_048_576.0),
            v(-1_000_000.0, 3.0),
        ] {
            let circles = touching_scene(origin, scale);
            let r = 169.0 * scale / 2.0;
            // Point probes at the discs' centres and on their rims, and the disc probe.
            check_circles(&circles, &Circle::new(origin, r).unwrap().into());
            check_circles(&circles, &Point::new(origin).unwrap().into());
            for c in circles.iter().take(8) {
                let rim = c.center() + v(c.radius(), 0.0);
                check_circles(&circles, &Point::new(rim).unwrap().into());
            }
            // A box probe touching the first disc's left side, and one an ulp away.
            let first = circles.get(0).unwrap();
            let left = first.center().x - first.radius();
            let (lo, hi) = (
                v(left - 8.0, first.center().y - 1.0),
                v(left, first.center().y),
            );
            check_circles(&circles, &Aabb::new(lo, hi).unwrap().into());
            let apart = v(left.next_down(), hi.y);
            check_circles(&circles, &Aabb::new(lo, apart).unwrap().into());
        }
    }
}

#[test]
fn batch_discs_touching_box_edges_and_corners() {
    // Tiles at integer positions up to 2^20, discs touching an edge, a corner (3-4-5), or a
    // corner one ulp beyond.
    let base = [0.0, 1024.0, 1_048_576.0];
    let mut tiles = Aabbs::new();
    for &b in &base {
        for i in 0..12 {
            let x = b + (i * 16) as f32;
            tiles.push(v(x, b), v(x + 8.0, b + 8.0)).unwrap();
        }
    }
    for &b in &base {
        let corner = v(b + 8.0, b + 8.0);
        for probe in [
            Circle::new(corner + v(3.0, 4.0), 5.0).unwrap(),
            Circle::new(corner + v(3.0, 4.0), 5f32.next_down()).unwrap(),
            Circle::new(v(b - 2.0, b + 4.0), 2.0).unwrap(),
            Circle::new(v(b - 2.0, b + 4.0), 2f32.next_down()).unwrap(),
            Circle::new(v(b + 12.0, b + 4.0), 4.0).unwrap(),
        ] {
            check_aabbs(&tiles, &probe.into());
        }
        check_aabbs(&tiles, &Point::new(corner).unwrap().into());
        check_aabbs(
            &tiles,
            &Point::new(v(corner.x.next_up(), corner.y)).unwrap().into(),
        );
    }
}

#[test]
fn batch_huge_and_tiny_values_go_to_the_exact_test() {
    let t = f32::from_bits(1);
    let circles: Circles = [
        Circle::new(v(f32::MAX, 0.0), f32::MAX).unwrap(),
        Circle::new(v(-f32::MAX, 0.0), f32::MAX).unwrap(),
        Circle::new(v(f32::MAX, f32::MAX), 0.0).unwrap(),
        Circle::new(v(t, 0.0), 0.0).unwrap(),
        Circle::new(v(t, t), t).unwrap(),
        Circle::new(v(3.0 * t, 4.0 * t), 4.0 * t).unwrap(),
    ]
    .into_iter()
    .cycle()
    .take(70) // so that the SIMD steps (32 lanes) see them, not only the portable tail
    .collect();
    for probe in [
        Circle::new(Vec2::ZERO, 0.0).unwrap(),
        Circle::new(Vec2::ZERO, t).unwrap(),
        Circle::new(v(0.0, f32::MAX), f32::MAX).unwrap(),
    ] {
        check_circles(&circles, &probe.into());
    }
    let boxes: Aabbs = [
        Aabb::new(v(-f32::MAX, -f32::MAX), v(f32::MAX, f32::MAX)).unwrap(),
        Aabb::new(v(t, t), v(2.0 * t, 2.0 * t)).unwrap(),
    ]
    .into_iter()
    .cycle()
    .take(70)
    .collect();
    check_aabbs(
        &boxes,
        &Circle::new(v(f32::MAX, 0.0), f32::MAX).unwrap().into(),
    );
    check_aabbs(&boxes, &Circle::new(Vec2::ZERO, t).unwrap().into());
    check_aabbs(&boxes, &Point::new(v(t, t)).unwrap().into());
}

#[test]
fn batch_empty_stores_hit_nothing() {
    let probe: Shape = Circle::new(Vec2::ZERO, 1.0).unwrap().into();
    for k in Kernel::available() {
        let mut out = vec![7];
        Circles::new().intersecting_with(k, &probe, &mut out);
        assert!(out.is_empty());
        Aabbs::new().intersecting_with(k, &probe, &mut out);
        assert!(out.is_empty());
        assert!(!Circles::new().intersects_any_with(k, &probe));
        assert!(!Aabbs::new().intersects_any_with(k, &probe));
    }
}

#[test]
fn batch_push_rejects_what_the_constructors_reject() {
    let mut c = Circles::new();
    assert_eq!(
        c.push(Vec2::ZERO, -1.0),
        Err(Circle::new(Vec2::ZERO, -1.0).unwrap_err())
    );
    assert!(matches!(
        c.push(v(f32::NAN, 0.0), 1.0),
        Err(ShapeError::NonFinite { .. })
    ));
    assert!(c.is_empty());
    let mut b = Aabbs::new();
    let err = b.push(v(1.0, 0.0), v(0.0, 1.0)).unwrap_err();
    assert_eq!(err.to_string(), "min.x must be <= max.x, got 1 > 0");
    assert!(b.push(v(0.0, f32::INFINITY), v(1.0, 1.0)).is_err());
    assert!(b.is_empty());
}

#[test]
fn batch_replace_and_swap_remove_keep_columns_in_step() {
    let mut c = Circles::new();
    for i in 0..3 {
        c.push(v(i as f32, 0.0), 1.0).unwrap();
    }
    let moved = Circle::new(v(10.0, 10.0), 2.0).unwrap();
    assert_eq!(c.replace(1, &moved), Circle::new(v(1.0, 0.0), 1.0).ok());
    assert_eq!(c.replace(3, &moved), None);
    assert_eq!(c.swap_remove(0), Circle::new(v(0.0, 0.0), 1.0).ok());
    assert_eq!(
        c.iter().collect::<Vec<_>>(),
        [Circle::new(v(2.0, 0.0), 1.0).unwrap(), moved]
    );
    assert_eq!(
        (c.xs(), c.ys(), c.radii()),
        (&[2.0, 10.0][..], &[0.0, 10.0][..], &[1.0, 2.0][..])
    );
    let mut b = Aabbs::new();
    b.push(Vec2::ZERO, Vec2::ONE).unwrap();
    b.push(Vec2::ONE, v(2.0, 2.0)).unwrap();
    assert_eq!(b.swap_remove(0).map(|a| a.max()), Some(Vec2::ONE));
    assert_eq!(b.min_xs(), &[1.0]);
    assert_eq!(b.swap_remove(5), None);
}

#[test]
fn batch_kernels_are_found_by_name_and_best_is_the_widest() {
    let all = Kernel::available();
    assert_eq!(all[0], Kernel::portable());
    assert_eq!(Kernel::best(), *all.last().unwrap());
    for k in &all {
        assert_eq!(Kernel::by_name(k.name()), Some(*k));
    }
    assert_eq!(Kernel::by_name("sse9"), None);
    // `.ci/miri` enables AVX2 at compile time so that Miri checks the AVX2 kernel too.
    #[cfg(all(miri, target_feature = "avx2"))]
    assert!(Kernel::avx2().is_some());
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    {
        assert_eq!(
            Kernel::avx2().is_some(),
            std::is_x86_feature_detected!("avx2")
        );
        #[cfg(collide2d_avx512)]
        assert_eq!(
            Kernel::avx512().is_some(),
            std::is_x86_feature_detected!("avx512f")
        );
    }
}

#[cfg(not(miri))]
mod properties {
    use super::*;
    use proptest::prelude::*;

    /// Integers up to 2^20 (many touching pairs), or any float in a range.
    fn coord() -> impl Strategy<Value = f32> {
        prop_oneof![
            (-16i32..=16).prop_map(|i| i as f32),
            (-(1i32 << 20)..=1 << 20).prop_map(|i| i as f32),
            -1e4f32..1e4,
        ]
    }

    fn radius() -> impl Strategy<Value = f32> {
        prop_oneof![(0i32..=8).prop_map(|i| i as f32), 0f32..1e4]
    }

    fn circles() -> impl Strategy<Value = Circles> {
        prop::collection::vec((coord(), coord(), radius()), 0..80).prop_map(|v| {
            v.into_iter()
                .map(|(x, y, r)| Circle::new(Vec2::new(x, y), r).unwrap())
                .collect()
        })
    }

    fn aabb() -> impl Strategy<Value = Aabb> {
        (coord(), coord(), radius(), radius())
            .prop_map(|(x, y, w, h)| Aabb::new(Vec2::new(x, y), Vec2::new(x + w, y + h)).unwrap())
    }

    fn probe() -> impl Strategy<Value = Shape> {
        prop_oneof![
            (coord(), coord()).prop_map(|(x, y)| Point::new(Vec2::new(x, y)).unwrap().into()),
            (coord(), coord(), radius())
                .prop_map(|(x, y, r)| Circle::new(Vec2::new(x, y), r).unwrap().into()),
            aabb().prop_map(Shape::from),
            (coord(), coord(), coord(), coord()).prop_map(|(a, b, c, d)| {
                Segment::new(Vec2::new(a, b), Vec2::new(c, d))
                    .unwrap()
                    .into()
            }),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn batch_circles_match_pairwise_intersects(items in circles(), probe in probe()) {
            check_circles(&items, &probe);
        }

        #[test]
        fn batch_aabbs_match_pairwise_intersects(
            items in prop::collection::vec(aabb(), 0..80),
            probe in probe(),
        ) {
            check_aabbs(&items.into_iter().collect(), &probe);
        }

        #[test]
        fn batch_touching_pairs_at_any_offset_are_hits(
            (dx, dy, ox, oy) in (-(1i32 << 10)..1 << 10, -(1i32 << 10)..1 << 10,
                                 -(1i32 << 20)..1 << 20, -(1i32 << 20)..1 << 20),
            k in 0usize..5,
        ) {
            // A triple scaled to (dx, dy)'s size: exactly touching, or one ulp short.
            let (a, b, c) = TRIPLES[k];
            let s = (dx.unsigned_abs().max(1)) as f32;
            let center = Vec2::new(ox as f32, oy as f32);
            let far = center + Vec2::new(a * s * dx.signum() as f32, b * s * dy.signum() as f32);
            let mut items = Circles::new();
            let half = (c * s / 2.0).floor();
            items.push(far, c * s - half).unwrap();
            items.push(far, (c * s - half).next_down()).unwrap();
            check_circles(&items, &Circle::new(center, half).unwrap().into());
        }
    }
}
