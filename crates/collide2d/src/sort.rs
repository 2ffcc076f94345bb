//! Sorting by comparison, in one place so that a size-bound build can keep one copy of the code.
//!
//! `slice::sort_by` compiles the standard library's whole stable sort (about 3 KB of
//! WebAssembly) once per call site. With the `small-sorts` feature (the npm package's `.wasm`,
//! which must stay within its download budget) every call site sorts a list of indices with
//! one shared copy of it, comparing through a `dyn` call, then moves the items into that
//! order. A stable sort's result is unique, so both ways give the same order, bit for bit;
//! without the feature, [`sort_by`] is `slice::sort_by` itself. An unstable sort's order is
//! unique too when no two different items compare equal ([`sort_distinct_by`]).

#[cfg(any(feature = "small-sorts", test))]
use alloc::vec::Vec;
use core::cmp::Ordering;

/// Sorts `v` by `cmp`, keeping equal items in their order: `slice::sort_by`'s result.
#[inline]
pub(crate) fn sort_by<T>(v: &mut [T], cmp: impl FnMut(&T, &T) -> Ordering) {
    #[cfg(feature = "small-sorts")]
    {
        let mut cmp = cmp;
        // Indices are u32 (always so on wasm32, where this branch folds away).
        let Ok(n) = u32::try_from(v.len()) else {
            return v.sort_by(cmp);
        };
        let order = stable_order(n, &mut |i, j| cmp(&v[i as usize], &v[j as usize]));
        permute(v, order);
    }
    #[cfg(not(feature = "small-sorts"))]
    v.sort_by(cmp);
}

/// Sorts `v` by `cmp`, under which two items are equal only when they are the same (distinct
/// keys): then every sort gives one order, `slice::sort_unstable_by`'s.
#[inline]
pub(crate) fn sort_distinct_by<T>(v: &mut [T], cmp: impl FnMut(&T, &T) -> Ordering) {
    #[cfg(feature = "small-sorts")]
    sort_by(v, cmp);
    #[cfg(not(feature = "small-sorts"))]
    v.sort_unstable_by(cmp);
}

/// `0..n` stably sorted by `cmp` of the indices: the one instance of the standard sort.
#[cfg(any(feature = "small-sorts", test))]
#[inline(never)]
fn stable_order(n: u32, cmp: &mut dyn FnMut(u32, u32) -> Ordering) -> Vec<u32> {
    let mut order: Vec<u32> = (0..n).collect();
    order.sort_by(|&i, &j| cmp(i, j));
    order
}

/// Moves `v[order[k]]` to place `k` for every `k`, cycle by cycle (`order` is a permutation).
#[cfg(any(feature = "small-sorts", test))]
fn permute<T>(v: &mut [T], mut order: Vec<u32>) {
    for start in 0..order.len() {
        // The item that was at `start` rides along the cycle until the place that takes it.
        let mut at = start;
        loop {
            let from = order[at] as usize;
            order[at] = at as u32; // done: a fixed point
            if from == start {
                break;
            }
            v.swap(at, from);
            at = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::xorshift;

    /// Both ways give `slice::sort_by`'s order, equal keys included (the payload tells them apart).
    #[test]
    fn indices_then_permutation_match_the_standard_stable_sort() {
        let mut next = xorshift(0x5eed);
        for len in (0..40).chain([100, 1000]) {
            for keys in [3u64, 1000] {
                let v: Vec<(u64, usize)> = (0..len).map(|i| (next() % keys, i)).collect();
                let by_key = |a: &(u64, usize), b: &(u64, usize)| a.0.cmp(&b.0);
                let mut want = v.clone();
                want.sort_by(by_key);
                let mut got = v.clone();
                let n = u32::try_from(got.len()).unwrap();
                let order = stable_order(n, &mut |i, j| by_key(&v[i as usize], &v[j as usize]));
                permute(&mut got, order);
                assert_eq!(got, want, "len {len}, keys {keys}");
                let mut through = v.clone();
                sort_by(&mut through, by_key);
                assert_eq!(through, want);
            }
        }
    }
}
