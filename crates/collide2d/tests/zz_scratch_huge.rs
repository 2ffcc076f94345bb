#![allow(clippy::unwrap_used, clippy::panic)]
use collide2d::math::Vec2;
use collide2d::{contact, Aabb, Compound, Polygon, Shape};
use std::time::Instant;

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn f(&mut self) -> f32 {
        let k = self.next();
        let choices = [
            0.0f32,
            1.0,
            -1.0,
            1.8e38,
            -1.8e38,
            1.7e38,
            -1.7e38,
            3.0e-38,
            -2.0e-40,
            0.5,
            1e20,
            -1e-20,
            2.0,
            1.8e38,
            1.8e38 * 0.999,
        ];
        choices[(k % choices.len() as u64) as usize]
    }
}

#[test]
fn scratch_huge() {
    let mut rng = Rng(0x9e3779b97f4a7c15);
    let mut worst = (0u128, String::new());
    let mut n = 0;
    for _ in 0..6000 {
        let k = 3 + (rng.next() % 5) as usize;
        let pa: Vec<Vec2> = (0..k).map(|_| v(rng.f(), rng.f())).collect();
        let kb = 3 + (rng.next() % 5) as usize;
        let pb: Vec<Vec2> = (0..kb).map(|_| v(rng.f(), rng.f())).collect();
        let Ok(a) = Polygon::new(&pa) else { continue };
        let b: Shape = if rng.next() % 2 == 0 {
            match Polygon::new(&pb) {
                Ok(p) => p.into(),
                Err(_) => continue,
            }
        } else {
            let lo = v(rng.f(), rng.f());
            let hi = v(rng.f(), rng.f());
            let Ok(r1) = Aabb::new(lo.min(hi), lo.max(hi)) else {
                continue;
            };
            let lo2 = v(rng.f(), rng.f());
            let hi2 = v(rng.f(), rng.f());
            let Ok(r2) = Aabb::new(lo2.min(hi2), lo2.max(hi2)) else {
                continue;
            };
            Compound::new(vec![
                r1.into(),
                r2.into(),
                Polygon::new(&pb).map(Shape::from).unwrap_or(r1.into()),
            ])
            .unwrap()
            .into()
        };
        let a: Shape = a.into();

        n += 1;
        let t = Instant::now();
        let c = contact(&a, &b);
        let c2 = contact(&b, &a);
        let e = t.elapsed().as_micros();
        if e > worst.0 {
            worst = (e, format!("{a:?}\n{b:?}\n{c:?} {c2:?}"));
        }
    }
    println!("pairs {n} worst {} us\n{}", worst.0, worst.1);
}
