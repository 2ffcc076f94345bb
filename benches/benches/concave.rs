//! Contacts of compound and concave shapes, collide2d against parry2d's compound contact, on the
//! same seeded pairs (`collide2d_benches::concave`): ids
//! `contact/<pair>/{collide2d, per_part, parry2d}`, where `per_part` is the deepest pair of
//! parts (what collide2d answered before issue 17); each iteration runs all pairs.

use collide2d_benches::concave::{pairs, per_part_contact, Both, Kind};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

/// Pairs per group.
const COUNT: usize = 256;

/// `collide2d::contact` on every pair.
#[inline(never)]
fn collide2d_contacts(pairs: &[(Both, Both)]) {
    for (a, b) in pairs {
        black_box(collide2d::contact(&a.collide, &b.collide));
    }
}

/// The per-part contact (the answer before issue 17) on every pair.
#[inline(never)]
fn per_part_contacts(pairs: &[(Both, Both)]) {
    for (a, b) in pairs {
        black_box(per_part_contact(a, b));
    }
}

/// `parry2d::query::contact` on every pair.
#[inline(never)]
fn parry2d_contacts(pairs: &[(Both, Both)]) {
    for (a, b) in pairs {
        let ((pa, sa), (pb, sb)) = (&a.parry, &b.parry);
        black_box(parry2d::query::contact(
            pa,
            sa.as_ref(),
            pb,
            sb.as_ref(),
            0.0,
        ))
        .ok();
    }
}

fn concave(c: &mut Criterion) {
    let cases = [
        ("hitbox_circle", Kind::Hitbox, Kind::Circle, 11),
        ("hitbox_box", Kind::Hitbox, Kind::Box, 12),
        ("star_box", Kind::Star, Kind::Box, 13),
        ("star_star", Kind::Star, Kind::Star, 14),
    ];
    for (name, a, b, seed) in cases {
        let pairs = pairs(a, b, seed, COUNT);
        let hits = pairs
            .iter()
            .filter(|(a, b)| collide2d::intersects(&a.collide, &b.collide))
            .count();
        eprintln!("{name}: {} pairs, {hits} intersecting", pairs.len());
        let mut g = c.benchmark_group(format!("contact/{name}"));
        g.throughput(Throughput::Elements(pairs.len() as u64));
        g.bench_function("collide2d", |b| {
            b.iter(|| collide2d_contacts(black_box(&pairs)))
        });
        g.bench_function("per_part", |b| {
            b.iter(|| per_part_contacts(black_box(&pairs)))
        });
        g.bench_function("parry2d", |b| {
            b.iter(|| parry2d_contacts(black_box(&pairs)))
        });
        g.finish();
    }
}

criterion_group!(benches, concave);
criterion_main!(benches);
