//! Sorting an update's candidate pairs `(a, b)` into `(a, b)` order, the order of
//! [`CollisionWorld::pairs`](super::CollisionWorld::pairs) and of the events: by counting on
//! the high bits of `a`, then sorting each bucket's few pairs.

use alloc::vec::Vec;

/// Runs of pairs of one bucket up to this long are sorted by the insertion sort of the whole
/// list; longer ones by a sort of their own.
const SHORT_RUN: u32 = 8;

/// Past this many pairs the sort's scratch is filled before its scatter, to bring it into cache.
const WARM_PAIRS: usize = 8_192;

/// The sort's scratch, kept between updates so a frame allocates nothing.
#[derive(Debug, Default)]
pub(super) struct PairSort {
    /// Per bucket (of first slots): how many pairs it holds, then where its run ends.
    counts: Vec<u32>,
    /// The buckets holding more than one pair.
    multi: Vec<u32>,
    scratch: Vec<(u32, u32)>,
}

impl PairSort {
    /// Sorts pairs `(a, b)` of slots below `slots`: a counting sort on `a`'s high bits (linear),
    /// then each run of equal bits by `(a, b)` (short runs by one insertion sort of the whole
    /// list, which moves pairs only within their run). All of `a` when the pairs are
    /// many for the slots; when they are few among many slots (movers over a large static
    /// level), its high bits only, a bucket per two pairs: a pass over every slot would cost each
    /// frame what the static objects number, and a sort by comparison half as much again as
    /// the buckets.
    pub(super) fn sort(&mut self, pairs: &mut Vec<(u32, u32)>, slots: usize) {
        if pairs.len() < 32 {
            pairs.sort_unstable();
            return;
        }
        // A bucket per slot up to eight slots per pair; past that, up to one bucket per two
        // pairs (fewer buckets cost less to scan, but lengthen the runs; the insertion sort
        // takes runs of a few cheaply).
        let mut shift = 0;
        if slots / 8 > pairs.len() {
            while (slots >> shift) > pairs.len() / 2 {
                shift += 1;
            }
        }
        self.counting_sort(pairs, slots >> shift, shift);
    }

    /// The counting sort on `a >> shift`, of which there are `buckets + 1` values at most.
    fn counting_sort(&mut self, pairs: &mut Vec<(u32, u32)>, buckets: usize, shift: u32) {
        let Self {
            counts,
            multi,
            scratch,
        } = self;
        let bucket = |a: u32| (u64::from(a) >> shift) as usize;
        let n = pairs.len();
        counts.clear();
        counts.resize(buckets + 2, 0);
        for &(a, _) in pairs.iter() {
            counts[bucket(a) + 1] += 1;
        }
        // The runs longer than `SHORT_RUN`, at most one per two pairs; `multi[runs]` is written
        // whether or not it is kept (no branch), so only its length is needed, not its old
        // contents.
        if multi.len() < n / 2 + 1 {
            multi.resize(n / 2 + 1, 0);
        }
        // The runs are listed here, in bucket order, not as the counts reach two (the pairs'
        // random order): they are then sorted front to back, reading `counts` and `pairs` in
        // order, where a random order missed the cache on each run at 100k objects.
        let mut runs = 0;
        let mut sum = 0;
        for (i, count) in counts.iter_mut().enumerate() {
            // `counts[i]` is bucket `i - 1`'s count (nothing at 0, so the wrap is never kept).
            multi[runs] = (i as u32).wrapping_sub(1);
            runs += usize::from(*count > SHORT_RUN);
            sum += *count;
            *count = sum;
        }
        // Every place below `n` is written by the scatter, but many pairs are filled first all
        // the same: the fill's writes in order bring `scratch` into cache, where at 100k
        // objects each random write of the scatter missed it (its lines were last used a frame
        // ago) and held up the writes behind. Fewer stay in cache from one update to the next
        // (64 KB): they keep the old contents, and only places past them are filled.
        if n > WARM_PAIRS {
            scratch.clear();
        }
        if scratch.len() < n {
            scratch.resize(n, (0, 0));
        }
        for &p in pairs.iter() {
            let at = &mut counts[bucket(p.0)];
            scratch[*at as usize] = p;
            *at += 1;
        }
        core::mem::swap(pairs, scratch);
        pairs.truncate(n);
        // `counts[k]` is now the end of bucket `k`'s run, and so `counts[k - 1]` its start.
        for &k in &multi[..runs] {
            let start = if k == 0 { 0 } else { counts[k as usize - 1] };
            pairs[start as usize..counts[k as usize] as usize].sort_unstable();
        }
        // Then the short runs, by one insertion sort of the whole list: every pair of a later
        // bucket is greater, so a pair moves only within its run (at most `SHORT_RUN - 1`
        // places), and a pair already in place costs one comparison. Cheaper than finding and
        // sorting each run on its own: they are many, mostly two or three long.
        for i in 1..n {
            let p = pairs[i];
            if p < pairs[i - 1] {
                let mut j = i;
                while j > 0 && p < pairs[j - 1] {
                    pairs[j] = pairs[j - 1];
                    j -= 1;
                }
                pairs[j] = p;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_sort_the_same_by_every_path() {
        // Runs of one to five pairs per first slot (slot 0's three long: its run starts at 0),
        // in a scrambled order.
        let mut pairs = Vec::new();
        let mut x = 12345u32;
        for a in 0..400u32 {
            for _ in 0..((a + 2) % 5 + 1) {
                x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                pairs.push((a, a + 1 + (x >> 20) % 50));
            }
        }
        for i in (1..pairs.len()).rev() {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            pairs.swap(i, x as usize % (i + 1));
        }
        let mut sort = PairSort::default();
        // A few (by comparison); many for 460 slots (a bucket per slot); scattered among a
        // million slots (buckets of 1,024 slots); a bucket per slot again, on the scratch the
        // others left.
        for (take, slots) in [(20, 460), (1_200, 460), (1_200, 1_000_000), (1_100, 460)] {
            let mut got = pairs[..take].to_vec();
            let mut want = got.clone();
            want.sort_unstable();
            sort.sort(&mut got, slots);
            assert_eq!(got, want, "{take} pairs of {slots} slots");
        }
        // Slots up to the largest index: buckets of up to every slot.
        let mut got: Vec<(u32, u32)> = pairs.iter().map(|&(a, b)| (a, u32::MAX - b)).collect();
        got.extend([(7, u32::MAX), (u32::MAX - 1, u32::MAX), (7, u32::MAX)]);
        let mut want = got.clone();
        want.sort_unstable();
        sort.sort(&mut got, usize::MAX);
        assert_eq!(got, want);
    }
}
