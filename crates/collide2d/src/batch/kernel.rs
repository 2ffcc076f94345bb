//! [`Kernel`]: which instruction set runs the batch filters and moves, chosen once at run
//! time.

#[cfg(target_arch = "x86_64")]
use super::avx2::Avx2;
#[cfg(all(target_arch = "x86_64", collide2d_avx512, not(miri)))]
use super::avx512::Avx512;
use super::filter::Sink;
use super::moves::Deltas;
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
use super::neon::Neon;
use super::portable;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
use super::simd128::Simd128;
use alloc::vec::Vec;
use core::ops::ControlFlow;

/// A filter kernel: portable Rust, AVX2 or AVX-512 (x86_64, detected at run time), NEON
/// (aarch64) or `simd128` (wasm32; both when the build targets them). A value exists only for
/// a kernel this CPU runs, so every `Kernel` is safe to use.
///
/// Every kernel gives the same answers, exactly (each lane the filter cannot certify is
/// decided by the exact scalar test); they differ only in speed. [`Kernel::best`] picks the
/// fastest one the CPU has (with `std`; without it, the fastest the build targets); the others are there for tests and benchmarks.
///
/// ```
/// use collide2d::batch::Kernel;
/// let best = Kernel::best();
/// assert!(Kernel::available().contains(&best));
/// assert_eq!(Kernel::by_name("portable"), Some(Kernel::portable()));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernel(Isa);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Isa {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2(Avx2),
    #[cfg(all(target_arch = "x86_64", collide2d_avx512, not(miri)))]
    Avx512(Avx512),
    #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
    Neon(Neon),
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    Simd128(Simd128),
}

impl Kernel {
    /// The portable kernel, on every target.
    #[must_use]
    pub fn portable() -> Kernel {
        Kernel(Isa::Portable)
    }

    /// The AVX2 kernel (8 lanes), if this CPU has AVX2.
    #[must_use]
    pub fn avx2() -> Option<Kernel> {
        #[cfg(target_arch = "x86_64")]
        {
            Avx2::detect().map(|t| Kernel(Isa::Avx2(t)))
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            None
        }
    }

    /// The AVX-512 kernel (16 lanes), if this CPU has AVX-512F and the crate was built by
    /// Rust 1.89 or later (which has the intrinsics). Never under Miri, which lacks them.
    #[must_use]
    pub fn avx512() -> Option<Kernel> {
        #[cfg(all(target_arch = "x86_64", collide2d_avx512, not(miri)))]
        {
            Avx512::detect().map(|t| Kernel(Isa::Avx512(t)))
        }
        #[cfg(not(all(target_arch = "x86_64", collide2d_avx512, not(miri))))]
        {
            None
        }
    }

    /// The NEON kernel (4 lanes), in builds for aarch64 with NEON (every aarch64 OS target).
    #[must_use]
    pub fn neon() -> Option<Kernel> {
        #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
        {
            Neon::detect().map(|t| Kernel(Isa::Neon(t)))
        }
        #[cfg(not(all(target_arch = "aarch64", target_feature = "neon")))]
        {
            None
        }
    }

    /// The wasm32 `simd128` kernel (4 lanes), in builds for wasm32 with
    /// `-C target-feature=+simd128` (WebAssembly cannot detect it at run time).
    #[must_use]
    pub fn simd128() -> Option<Kernel> {
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        {
            Simd128::detect().map(|t| Kernel(Isa::Simd128(t)))
        }
        #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
        {
            None
        }
    }

    /// The fastest kernel this CPU runs: AVX-512, else AVX2, else NEON or `simd128`, else
    /// portable. Detected on the first call, then cached.
    #[must_use]
    pub fn best() -> Kernel {
        let detect = || {
            Kernel::avx512()
                .or_else(Kernel::avx2)
                .or_else(Kernel::neon)
                .or_else(Kernel::simd128)
                .unwrap_or_else(Kernel::portable)
        };
        #[cfg(feature = "std")]
        {
            static BEST: std::sync::OnceLock<Kernel> = std::sync::OnceLock::new();
            *BEST.get_or_init(detect)
        }
        // Without std the kernels are known when the crate is built: nothing to cache.
        #[cfg(not(feature = "std"))]
        detect()
    }

    /// Every kernel this CPU runs, portable first.
    #[must_use]
    pub fn available() -> Vec<Kernel> {
        [
            Some(Kernel::portable()),
            Kernel::neon(),
            Kernel::simd128(),
            Kernel::avx2(),
            Kernel::avx512(),
        ]
        .into_iter()
        .flatten()
        .collect()
    }

    /// The kernel called `name` (`"portable"`, `"avx2"`, `"avx512"`, `"neon"` or
    /// `"simd128"`), if this CPU runs it.
    #[must_use]
    pub fn by_name(name: &str) -> Option<Kernel> {
        match name {
            "portable" => Some(Kernel::portable()),
            "avx2" => Kernel::avx2(),
            "avx512" => Kernel::avx512(),
            "neon" => Kernel::neon(),
            "simd128" => Kernel::simd128(),
            _ => None,
        }
    }

    /// Its name: `"portable"`, `"avx2"`, `"avx512"`, `"neon"` or `"simd128"`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self.0 {
            Isa::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2(_) => "avx2",
            #[cfg(all(target_arch = "x86_64", collide2d_avx512, not(miri)))]
            Isa::Avx512(_) => "avx512",
            #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
            Isa::Neon(_) => "neon",
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Isa::Simd128(_) => "simd128",
        }
    }

    /// Moves the rows of `columns` by `deltas`: [`moves::step`](super::moves::step) on this
    /// kernel's vectors (the same results, bit for bit).
    pub(super) fn step<const N: usize>(
        self,
        columns: [(&mut [f32], &mut [f32]); N],
        deltas: Deltas<'_>,
    ) -> Option<usize> {
        match self.0 {
            Isa::Portable => super::moves::step(columns, deltas),
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2(t) => t.step(columns, deltas),
            // Moving is bound by memory: an AVX-512 kernel of its own measured no faster than
            // AVX2's (which every AVX-512 CPU has), so that one runs.
            #[cfg(all(target_arch = "x86_64", collide2d_avx512, not(miri)))]
            Isa::Avx512(_) => match Avx2::detect() {
                Some(t) => t.step(columns, deltas),
                None => super::moves::step(columns, deltas),
            },
            // The portable step vectorises on these targets as it is (no kernel of their own).
            #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
            Isa::Neon(_) => super::moves::step(columns, deltas),
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Isa::Simd128(_) => super::moves::step(columns, deltas),
        }
    }

    /// Runs `filter`: the SIMD kernel over whole steps of lanes, the portable one over the rest.
    pub(super) fn scan(self, filter: Filter<'_>, sink: Sink<'_>) -> ControlFlow<()> {
        let done = match self.0 {
            Isa::Portable => 0,
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2(t) => t.scan(filter, sink)?,
            #[cfg(all(target_arch = "x86_64", collide2d_avx512, not(miri)))]
            Isa::Avx512(t) => t.scan(filter, sink)?,
            #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
            Isa::Neon(t) => t.scan(filter, sink)?,
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Isa::Simd128(t) => t.scan(filter, sink)?,
        };
        portable::scan(filter.skip(done), done, sink)
    }
}

/// One filter over structure-of-arrays columns, with the probe's numbers. Lane `i` reads
/// element `i` of every column; the shortest column sets the number of lanes.
#[derive(Clone, Copy, Debug)]
pub(super) enum Filter<'a> {
    /// Probe disc `q = [x, y, r]` against discs `items = [xs, ys, radii]`.
    CircleCircles { items: [&'a [f32]; 3], q: [f32; 3] },
    /// Probe box `q = [min x, min y, max x, max y]` against discs.
    BoxCircles { items: [&'a [f32]; 3], q: [f32; 4] },
    /// Probe disc against boxes `items = [min xs, min ys, max xs, max ys]`.
    CircleBoxes { items: [&'a [f32]; 4], q: [f32; 3] },
    /// Probe box against boxes: comparisons only, never undecided.
    BoxBoxes { items: [&'a [f32]; 4], q: [f32; 4] },
}

impl<'a> Filter<'a> {
    /// The same filter over the lanes from `start` on.
    fn skip(self, start: usize) -> Filter<'a> {
        let tail = |c: &'a [f32]| c.get(start..).unwrap_or(&[]);
        match self {
            Filter::CircleCircles { items, q } => Filter::CircleCircles {
                items: items.map(tail),
                q,
            },
            Filter::BoxCircles { items, q } => Filter::BoxCircles {
                items: items.map(tail),
                q,
            },
            Filter::CircleBoxes { items, q } => Filter::CircleBoxes {
                items: items.map(tail),
                q,
            },
            Filter::BoxBoxes { items, q } => Filter::BoxBoxes {
                items: items.map(tail),
                q,
            },
        }
    }
}
