//! Sorting a frame's began or ended pairs into [`Entity`](bevy_ecs::entity::Entity) order, as
//! keys of both entities' bits: a counting sort on the first entity's high bits, then a pass
//! of insertion. The world lists the pairs in handle order, which the entities' order does not
//! follow (Bevy orders fresh entities last spawned first, the world gives fresh handles in
//! order of insertion), so the keys come in scrambled; a sort by comparison was most of
//! `publish`'s cost.

/// The sort's scratch, kept from frame to frame so a frame allocates nothing.
#[derive(Debug, Default)]
pub(crate) struct KeySort {
    /// Per bucket: where its run ends, then (after the scatter) where it starts.
    ends: Vec<u32>,
    scratch: Vec<u128>,
}

/// Below this many keys a sort by comparison is as quick.
const FEW: usize = 64;

/// The insertion pass gives up (and the keys are sorted by comparison) after this many moves
/// of a key by one place, per key: a few when the buckets hold a few keys each.
const MOVES_PER_KEY: usize = 4;

impl KeySort {
    /// Sorts `keys` ascending. Each key is a pair of entities' bits, the first in its high 64
    /// bits: the buckets are of the first entity's bits less the least of them, shifted so
    /// that there are at most twice as many buckets as keys. A bucket is a monotone function
    /// of the key, so after the scatter only keys of one bucket are out of order, and a pass
    /// of insertion sorts them. Entities of one generation spread over the buckets; when
    /// generations differ the buckets are coarse and the runs long, and the keys are sorted by
    /// comparison as before.
    pub(crate) fn sort(&mut self, keys: &mut Vec<u128>) {
        let n = keys.len();
        if n < FEW {
            keys.sort_unstable();
            return;
        }
        let first = |k: u128| (k >> 64) as u64;
        let (lo, hi) = keys.iter().fold((u64::MAX, 0), |(lo, hi), &k| {
            (lo.min(first(k)), hi.max(first(k)))
        });
        let span = hi - lo;
        // `span >> shift` has at most as many bits as `n`, so it is below `2 n`.
        let shift =
            (u64::BITS - span.leading_zeros()).saturating_sub(usize::BITS - n.leading_zeros());
        let buckets = (span >> shift) as usize + 1;
        let bucket = |k: u128| ((first(k) - lo) >> shift) as usize;
        let Self { ends, scratch } = self;
        ends.clear();
        ends.resize(buckets, 0);
        for &k in keys.iter() {
            ends[bucket(k)] += 1;
        }
        let mut sum = 0;
        for end in ends.iter_mut() {
            sum += *end;
            *end = sum;
        }
        // Every place below `n` is written by the scatter: `scratch` only grows (no fill of
        // what is there), and the keys' old list becomes the next scratch.
        if scratch.len() < n {
            scratch.resize(n, 0);
        }
        // Each bucket is filled from its end, so its keys come out in the reverse of their
        // order in the list. A pair's first entity is the one with the later handle among
        // entities spawned fresh (Bevy's order is the reverse of spawning), and the list has a
        // first entity's pairs in the order of their other handles, the reverse of the other
        // entities' order: reversed, a bucket's keys are mostly in order already.
        for &k in keys.iter() {
            let at = &mut ends[bucket(k)];
            *at -= 1;
            scratch[*at as usize] = k;
        }
        core::mem::swap(keys, scratch);
        keys.truncate(n);
        if !insertion_sort(keys, MOVES_PER_KEY * n) {
            keys.sort_unstable();
        }
    }
}

/// Sorts `keys` by insertion if that takes at most `moves` moves of a key by one place, and
/// answers whether it did (if not, `keys` holds the same keys in some order).
fn insertion_sort(keys: &mut [u128], mut moves: usize) -> bool {
    for i in 1..keys.len() {
        let key = keys[i];
        if keys[i - 1] <= key {
            continue;
        }
        // The place of `key` is free: each move passes it one place down.
        let mut at = i;
        while at > 0 && keys[at - 1] > key {
            if moves == 0 {
                keys[at] = key;
                return false;
            }
            moves -= 1;
            keys[at] = keys[at - 1];
            at -= 1;
        }
        keys[at] = key;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The keys come out as a sort by comparison leaves them: entities of one generation
    /// (dense, sparse, near the ends of the range), of many generations, duplicates, few and
    /// many keys, on scratch reused from larger and smaller sorts.
    #[test]
    fn sorts_as_a_sort_by_comparison() {
        let mut next = crate::xorshift(0x2545_f491_4f6c_dd1d_u64);
        let mut sort = KeySort::default();
        for case in 0..400 {
            let n = [0, 1, 2, 63, 64, 65, 200, 1_700, 5_000][case % 9];
            let spread = [1_u64, 100, 200_000, u64::from(u32::MAX)][(case / 9) % 4];
            let generations = [1_u64, 3, 1 << 20][(case / 36) % 3];
            let entity = |next: &mut dyn FnMut() -> u64| {
                let index = u64::from(u32::MAX) - next() % spread;
                ((next() % generations) << 32) | index
            };
            let mut keys: Vec<u128> = (0..n)
                .map(|_| {
                    let (a, b) = (entity(&mut next), entity(&mut next));
                    (u128::from(a.min(b)) << 64) | u128::from(a.max(b))
                })
                .collect();
            let mut want = keys.clone();
            want.sort_unstable();
            sort.sort(&mut keys);
            assert_eq!(keys, want, "case {case}: {n} keys");
        }
    }

    /// Out of moves, the insertion pass says so and leaves the same keys; with enough, it
    /// sorts them.
    #[test]
    fn insertion_out_of_moves_keeps_every_key() {
        let mut next = crate::xorshift(0x9e37_79b9_7f4a_7c15_u64);
        for case in 0..200 {
            let keys: Vec<u128> = (0..case % 40).map(|_| u128::from(next() % 16)).collect();
            let mut want = keys.clone();
            want.sort_unstable();
            let moves = (next() % 400) as usize;
            let mut got = keys.clone();
            let sorted = insertion_sort(&mut got, moves);
            if sorted {
                assert_eq!(got, want, "case {case}");
            }
            got.sort_unstable();
            assert_eq!(got, want, "case {case}: a key lost");
            let inversions = (0..keys.len())
                .flat_map(|i| (i + 1..keys.len()).map(move |j| (i, j)))
                .filter(|&(i, j)| keys[i] > keys[j])
                .count();
            assert_eq!(sorted, inversions <= moves, "case {case}");
        }
    }
}
