//! A short list on the stack: the path's candidates and edges, without an allocation in most
//! searches.

use alloc::vec::Vec;
use core::mem::MaybeUninit;

/// A list held in a buffer on the caller's stack while it has at most `N` items (most
/// searches), on the heap after. The buffer is not initialised until pushed: the edges' list
/// is 1.7 KB, and clearing it cost a search more than filling it. (Held in the list itself,
/// it was zeroed all the same: moving the new list copied it, and the compiler made that
/// copy of mostly uninitialised bytes a `memset`.)
pub(super) struct Few<'a, T: Copy, const N: usize> {
    inline: &'a mut MaybeUninit<[T; N]>,
    /// The items held; more than `N` means they are all in `heap`.
    len: usize,
    heap: Vec<T>,
}

impl<'a, T: Copy, const N: usize> Few<'a, T, N> {
    pub(super) fn new(inline: &'a mut MaybeUninit<[T; N]>) -> Self {
        Few {
            inline,
            len: 0,
            heap: Vec::new(),
        }
    }

    #[inline]
    pub(super) fn push(&mut self, item: T) {
        if self.len < N {
            #[allow(unsafe_code)]
            // SAFETY: slot `len` lies within the `N` inline items.
            unsafe {
                self.inline
                    .as_mut_ptr()
                    .cast::<T>()
                    .add(self.len)
                    .write(item);
            }
            self.len += 1;
        } else {
            self.spill(item);
        }
    }

    #[cold]
    #[inline(never)]
    pub(super) fn spill(&mut self, item: T) {
        if self.len == N {
            self.heap.extend_from_slice(written(self.inline, N));
            self.len += 1;
        }
        self.heap.push(item);
    }

    pub(super) fn as_slice(&self) -> &[T] {
        if self.len <= N {
            written(self.inline, self.len)
        } else {
            &self.heap
        }
    }

    pub(super) fn as_mut_slice(&mut self) -> &mut [T] {
        if self.len <= N {
            #[allow(unsafe_code)]
            // SAFETY: as in `written`, the first `len` slots (`len <= N` here) are written.
            unsafe {
                core::slice::from_raw_parts_mut(self.inline.as_mut_ptr().cast::<T>(), self.len)
            }
        } else {
            &mut self.heap
        }
    }

    pub(super) fn clear(&mut self) {
        self.len = 0;
        self.heap.clear();
    }
}

/// The first `len` of the inline items, which `Few::push` wrote (it counts a slot only once
/// written, and nothing un-writes one).
fn written<T, const N: usize>(slots: &MaybeUninit<[T; N]>, len: usize) -> &[T] {
    let len = len.min(N);
    #[allow(unsafe_code)]
    // SAFETY: the caller passes `len` at most the count of written slots (`Few::len`, up to
    // `N`), which lie within the array.
    unsafe {
        core::slice::from_raw_parts(slots.as_ptr().cast::<T>(), len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec2;

    #[test]
    fn candidates_past_the_inline_ones_go_on_the_heap_in_order() {
        let mut buffer = MaybeUninit::uninit();
        let mut near = Few::<(f64, DVec2), 48>::new(&mut buffer);
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
