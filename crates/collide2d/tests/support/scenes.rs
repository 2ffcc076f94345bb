//! Seeded random worlds, shared by the world tests (`world.rs`, `fast.rs`): the generator, the
//! filters and the broad phases every scene runs under. Each file draws its own shapes.

use collide2d::{BroadPhase, Filter};

/// SplitMix64.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn f(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next() >> 40) as f32 / (1u64 << 24) as f32)
    }
}

/// A layer of three and a mask of any subset of them (or every layer): many pairs rejected
/// one way only.
pub fn filter(rng: &mut Rng) -> Filter {
    let layer = 1u64 << rng.below(3);
    let mask = match rng.below(4) {
        0 => u64::MAX,
        _ => rng.below(8),
    };
    Filter::new(layer, mask)
}

/// Every broad phase the world tests compare: trees with and without a margin, grids with cells
/// smaller than, about as large as, and larger than most objects.
pub fn broad_phases() -> Vec<(&'static str, BroadPhase)> {
    vec![
        ("tree(0)", BroadPhase::tree(0.0)),
        ("tree(0.5)", BroadPhase::tree(0.5)),
        ("grid(1)", BroadPhase::grid(1.0).unwrap()),
        ("grid(4)", BroadPhase::grid(4.0).unwrap()),
        ("grid(16)", BroadPhase::grid(16.0).unwrap()),
        ("auto", BroadPhase::auto()),
    ]
}
