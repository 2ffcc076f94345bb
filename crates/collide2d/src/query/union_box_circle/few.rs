//! A short list on the stack: the path's candidates and edges, without an allocation in most
//! searches.

use alloc::vec::Vec;

/// A list held on the stack while it has at most `N` items (most searches), on the heap after.
pub(super) struct Few<T: Copy, const N: usize> {
    inline: [T; N],
    /// The items held; more than `N` means they are all in `heap`.
    len: usize,
    heap: Vec<T>,
}

impl<T: Copy, const N: usize> Few<T, N> {
    pub(super) fn new(blank: T) -> Self {
        Few {
            inline: [blank; N],
            len: 0,
            heap: Vec::new(),
        }
    }

    #[inline]
    pub(super) fn push(&mut self, item: T) {
        if self.len < N {
            self.inline[self.len] = item;
            self.len += 1;
        } else {
            self.spill(item);
        }
    }

    #[cold]
    #[inline(never)]
    pub(super) fn spill(&mut self, item: T) {
        if self.len == N {
            self.heap.extend_from_slice(&self.inline);
            self.len += 1;
        }
        self.heap.push(item);
    }

    pub(super) fn as_slice(&self) -> &[T] {
        if self.len <= N {
            &self.inline[..self.len]
        } else {
            &self.heap
        }
    }

    pub(super) fn as_mut_slice(&mut self) -> &mut [T] {
        if self.len <= N {
            &mut self.inline[..self.len]
        } else {
            &mut self.heap
        }
    }

    pub(super) fn clear(&mut self) {
        self.len = 0;
        self.heap.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec2;

    #[test]
    fn candidates_past_the_inline_ones_go_on_the_heap_in_order() {
        let mut near = Few::<(f64, DVec2), 48>::new((0.0, DVec2::ZERO));
        for round in 0..4 {
            near.clear();
            let count = 20 + 30 * (round % 2) + round;
            for k in 0..count {
                near.push((k as f64, DVec2::splat(k as f64)));
            }
            let all = near.as_mut_slice();
            assert_eq!(all.len(), count);
            assert!(all.iter().enumerate().all(|(k, c)| c.0 == k as f64));
        }
    }
}
