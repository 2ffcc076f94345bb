//! [`Column`]: a growable column of `f32` whose first element sits on a 64-byte boundary, so a
//! SIMD kernel's loads of 8 or 16 lanes from a multiple of 16 rows never straddle two cache
//! lines. Safe code over a `Vec<f32>`: the column starts past a few unused floats, and the
//! column grows only into a buffer it aligns itself (a `Vec`'s own growth would move it
//! anywhere).

use alloc::vec::Vec;
use core::fmt;
use core::ops::{Deref, DerefMut};

/// The boundary the first element sits on, in bytes: a cache line, and an AVX-512 vector.
const ALIGN: usize = 64;
/// The most unused floats before the first element (a `Vec<f32>` starts on a 4-byte boundary).
const PAD: usize = ALIGN / 4 - 1;

/// A column of `f32` (a `Vec<f32>` in use) whose first element is 64-byte aligned, as
/// [`Circles`](super::Circles) and [`Aabbs`](super::Aabbs) keep their coordinates. Keep the
/// per-row numbers a batch call reads beside them in columns of this type too (the velocities
/// of [`Circles::translate_each_xy`](super::Circles::translate_each_xy)): a SIMD kernel then
/// reads whole cache lines.
///
/// It derefs to `[f32]`: index it, iterate it, or pass `&column` where a `&[f32]` is wanted.
///
/// ```
/// use collide2d::batch::Column;
/// let mut vxs: Column = (0..100).map(|i| i as f32 * 0.5).collect();
/// vxs.push(7.0);
/// vxs[0] = -1.0;
/// assert_eq!((vxs.len(), vxs[0], vxs[100]), (101, -1.0, 7.0));
/// assert_eq!(vxs.as_ptr() as usize % 64, 0);
/// let sum: f32 = vxs.iter().sum(); // a slice's methods
/// assert_eq!(sum, -1.0 + 2475.0 + 7.0);
/// ```
///
/// (Under Miri, or wherever the address of an allocation cannot be aligned by offsetting it,
/// it is a plain column: the kernels read it as well, only more slowly.)
#[derive(Default)]
pub struct Column {
    /// `head` unused floats, then the column; its spare capacity is the column's.
    buf: Vec<f32>,
    head: usize,
}

impl Column {
    /// An empty column (allocates nothing).
    #[must_use]
    pub fn new() -> Column {
        Column::default()
    }

    /// An empty column with room for `n` floats before it moves.
    #[must_use]
    pub fn with_capacity(n: usize) -> Column {
        let mut column = Column::new();
        column.regrow(n);
        column
    }

    /// The number of floats it can hold before it moves.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.buf.capacity() - self.head
    }

    /// Appends `value`.
    #[inline]
    pub fn push(&mut self, value: f32) {
        if self.buf.len() == self.buf.capacity() {
            self.regrow(self.len().saturating_mul(2).max(16));
        }
        self.buf.push(value);
    }

    /// Removes element `i` and moves the last one into its place (O(1)); `None` when there is
    /// no element `i`.
    pub fn swap_remove(&mut self, i: usize) -> Option<f32> {
        let at = self.head.checked_add(i)?;
        (at < self.buf.len()).then(|| self.buf.swap_remove(at))
    }

    /// Shortens it to `len` floats (nothing when it is not longer), keeping its capacity.
    pub fn truncate(&mut self, len: usize) {
        self.buf.truncate(self.head.saturating_add(len));
    }

    /// Removes every float, keeping the capacity.
    pub fn clear(&mut self) {
        self.truncate(0);
    }

    /// Moves the floats into a buffer aligned again with room for `capacity`.
    fn regrow(&mut self, capacity: usize) {
        let capacity = capacity.max(self.len());
        let mut buf: Vec<f32> = Vec::with_capacity(capacity.saturating_add(PAD));
        // `usize::MAX` when the address cannot be aligned (Miri may answer so): none then.
        let head = buf.as_ptr().align_offset(ALIGN);
        let head = if head <= PAD { head } else { 0 };
        buf.resize(head, 0.0);
        buf.extend_from_slice(self);
        (self.buf, self.head) = (buf, head);
    }
}

impl Deref for Column {
    type Target = [f32];

    #[inline]
    fn deref(&self) -> &[f32] {
        self.buf.get(self.head..).unwrap_or(&[])
    }
}

impl DerefMut for Column {
    #[inline]
    fn deref_mut(&mut self) -> &mut [f32] {
        self.buf.get_mut(self.head..).unwrap_or(&mut [])
    }
}

impl Clone for Column {
    fn clone(&self) -> Column {
        // A copy of the `Vec` would sit anywhere: aligned afresh.
        let mut column = Column::with_capacity(self.len());
        column.buf.extend_from_slice(self);
        column
    }
}

impl PartialEq for Column {
    fn eq(&self, other: &Column) -> bool {
        **self == **other
    }
}

impl fmt::Debug for Column {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Extend<f32> for Column {
    fn extend<I: IntoIterator<Item = f32>>(&mut self, iter: I) {
        let iter = iter.into_iter();
        let wanted = self.len().saturating_add(iter.size_hint().0);
        if wanted > self.capacity() {
            self.regrow(wanted.max(self.len().saturating_mul(2)));
        }
        for value in iter {
            self.push(value);
        }
    }
}

impl FromIterator<f32> for Column {
    fn from_iter<I: IntoIterator<Item = f32>>(iter: I) -> Column {
        let mut column = Column::new();
        column.extend(iter);
        column
    }
}

impl From<&[f32]> for Column {
    fn from(values: &[f32]) -> Column {
        let mut column = Column::with_capacity(values.len());
        column.buf.extend_from_slice(values);
        column
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn aligned(column: &Column) -> bool {
        // Miri may not align: its columns are plain.
        cfg!(miri) || (column.as_ptr() as usize).is_multiple_of(ALIGN)
    }

    #[test]
    fn stays_aligned_and_holds_what_a_vec_holds() {
        let mut column = Column::new();
        let mut want = Vec::new();
        assert!(column.is_empty() && column.capacity() == 0);
        for i in 0..1000 {
            column.push(i as f32);
            want.push(i as f32);
            assert!(aligned(&column), "{i}");
            assert_eq!(&column[..], &want[..]);
            if i % 97 == 3 {
                assert_eq!(column.swap_remove(i / 2), Some(want.swap_remove(i / 2)));
            }
        }
        assert_eq!(column.swap_remove(want.len()), None);
        assert_eq!(column.swap_remove(usize::MAX), None);
        let copy = column.clone();
        assert!(aligned(&copy) && copy == column && copy[..] == want[..]);
        column.truncate(10);
        column.extend((0..500).map(|i| -(i as f32)));
        want.truncate(10);
        want.extend((0..500).map(|i| -(i as f32)));
        assert!(aligned(&column) && column[..] == want[..]);
        column.clear();
        assert!(column.is_empty() && column.capacity() >= 510);
        let from: Column = Column::from(&want[..]);
        assert!(aligned(&from) && from[..] == want[..]);
        let some: Column = [1.0, -0.0].into_iter().collect();
        assert_eq!(alloc::format!("{some:?}"), "[1.0, -0.0]");
        assert!(aligned(&Column::with_capacity(3)));
    }
}
