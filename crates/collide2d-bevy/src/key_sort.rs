//! Sorting a frame's began or ended pairs into [`Entity`](bevy_ecs::entity::Entity) order, as
//! keys of both entities' bits: a counting sort on the first entity's high bits, then each
//! bucket's few keys. The world lists the pairs in handle order, which the entities' order
//! does not follow (Bevy orders fresh entities last spawned first, the world gives fresh
//! handles in order of insertion), so the keys come in scrambled; a sort by comparison was
//! most of `publish`'s cost.

/// The sort's scratch, kept from frame to frame so a frame allocates nothing.
#[derive(Debug, Default)]
pub(crate) struct KeySort {
    /// Per bucket: where its run starts, then (after the scatter) where it ends.
    counts: Vec<u32>,
    scratch: Vec<u128>,
}

/// Below this many keys a sort by comparison is as quick.
const FEW: usize = 64;

impl KeySort {
    /// Sorts `keys` ascending. Each key is a pair of entities' bits, the first in its high 64
    /// bits: the buckets are of the first entity's bits less the least of them, shifted so
    /// that there are at most twice as many buckets as keys. A bucket is a monotone function
    /// of the key, so sorting each bucket's run sorts them all. Entities of one generation
    /// spread over the buckets; when generations differ the buckets are coarse and the runs
    /// long, sorted by comparison as before.
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
        let Self { counts, scratch } = self;
        counts.clear();
        counts.resize(buckets + 1, 0);
        for &k in keys.iter() {
            counts[bucket(k) + 1] += 1;
        }
        let mut sum = 0;
        for count in counts.iter_mut() {
            sum += *count;
            *count = sum;
        }
        // Every place below `n` is written by the scatter: `scratch` only grows (no fill of
        // what is there), and the keys' old list becomes the next scratch.
        if scratch.len() < n {
            scratch.resize(n, 0);
        }
        for &k in keys.iter() {
            let at = &mut counts[bucket(k)];
            scratch[*at as usize] = k;
            *at += 1;
        }
        core::mem::swap(keys, scratch);
        keys.truncate(n);
        // `counts[b]` is now where bucket `b`'s run ends, and the next one's starts.
        let mut start = 0;
        for &end in &counts[..buckets] {
            match &mut keys[start as usize..end as usize] {
                [] | [_] => {}
                [x, y] => (*x, *y) = (*x.min(y), *x.max(y)),
                run => run.sort_unstable(),
            }
            start = end;
        }
    }
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
}
