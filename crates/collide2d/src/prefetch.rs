//! [`prefetch`]: asking for a cache line before it is read, for the loops whose reads land at
//! random in large arrays (a mover's cells in a static index, its tiles' records).

/// Asks for the cache line of `x`, without waiting for it (nothing off x86-64).
#[inline(always)]
pub(crate) fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch never faults nor changes memory (SSE is part of the x86-64
        // baseline), and `x` is a valid reference anyway.
        #[allow(unsafe_code)]
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>((x as *const T).cast());
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}
