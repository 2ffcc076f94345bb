//! The ray layout for x86_64 CPUs with AVX, chosen at run time: inner nodes eight wide
//! ([`Oct`]), each tested as one eight-lane slab test, so a ray passes a third fewer levels than
//! through [`Quad`](super::ray::Quad)s. The same tests lane by lane as the four-lane walk, so
//! the same leaves are reported (in another order, which changes no answer: the caller keeps
//! the nearest hit, ties to the lower handle).

use super::dynamic::Tree;
use super::ray::{pop, MAX_X, MAX_Y, MIN_X, MIN_Y, RAY_STACK};
use super::NULL;
use crate::broad::{ray_box, RayLeaf};
use crate::math::Vec2;
use crate::query::Ray;
use crate::shape::Aabb;
use alloc::vec;
use alloc::vec::Vec;
use core::arch::x86_64::{
    __m256, _mm256_add_ps, _mm256_and_ps, _mm256_castsi256_ps, _mm256_cmp_ps, _mm256_load_ps,
    _mm256_max_ps, _mm256_min_ps, _mm256_movemask_ps, _mm256_mul_ps, _mm256_set1_epi32,
    _mm256_set1_ps, _mm256_setzero_ps, _mm256_storeu_ps, _mm256_sub_ps, _CMP_LE_OQ,
};
use core::mem::MaybeUninit;

/// An inner node eight wide: up to eight children's boxes as eight-lane columns (as
/// [`Quad`](super::ray::Quad)'s, twice as wide), built the same way.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub(super) struct Oct {
    /// Each child's bounds, lane by lane: the columns `MIN_X`, `MIN_Y`, `MAX_X`, `MAX_Y`.
    bounds: [[f32; 8]; 4],
    /// Each child's index in the oct array, or when a leaf, its slot with [`LEAF`] set.
    child: [u32; 8],
    /// Bit `i` set when lane `i` holds a child.
    mask: u32,
}

/// The bit of [`Oct::child`] that marks a leaf's slot: the walk tells a leaf by its child alone,
/// and its stack entries are `(child, entry t's bits)`, sorted and pruned by the bits as they
/// are (no lane tag to add or clear). A tree with a slot this large keeps the four-wide layout.
pub(super) const LEAF: u32 = 1 << 31;

/// Proof that the CPU has AVX: only [`Avx::detect`] makes one.
#[derive(Clone, Copy, Debug)]
pub(super) struct Avx(());

impl Avx {
    /// `Some` when the CPU has AVX (std caches the detection; without std, when the build
    /// targets it).
    pub(super) fn detect() -> Option<Avx> {
        #[cfg(feature = "std")]
        let found = std::is_x86_feature_detected!("avx");
        #[cfg(not(feature = "std"))]
        let found = cfg!(target_feature = "avx");
        found.then_some(Avx(()))
    }
}

/// A tree's inner nodes as [`Oct`]s, root first, and how deep the walk's stack can grow: seven
/// entries for each oct on the longest path (see `RayTree::stack`).
#[derive(Debug)]
pub(super) struct Octs {
    nodes: Vec<Oct>,
    stack: usize,
    avx: Avx,
}

impl Tree {
    /// The inner nodes as [`Oct`]s, root first, the first inner child of each right after it;
    /// the root is not a leaf. `None` when a slot has the [`LEAF`] bit set.
    pub(super) fn flatten_octs(&self, avx: Avx) -> Option<Octs> {
        debug_assert!(self.root != NULL && !self.is_leaf(self.root));
        let mut out: Vec<Oct> = Vec::with_capacity(self.leaves / 4);
        let mut depth = 0;
        // (node, parent's oct index, lane under it, octs on the path from the root to it)
        let mut stack = vec![(self.root, NULL, 0usize, 1usize)];
        while let Some((id, parent, lane, at)) = stack.pop() {
            depth = depth.max(at);
            let q = out.len() as u32;
            if parent != NULL {
                out[parent as usize].child[lane] = q;
            }
            let (kids, count) = self.open_children::<8>(id);
            let mut node = Oct {
                bounds: [[0.0; 8]; 4],
                child: [NULL; 8],
                mask: 0,
            };
            for (lane, &c) in kids[..count].iter().enumerate() {
                let cn = &self.nodes[c as usize];
                let (lo, hi) = (cn.aabb.min(), cn.aabb.max());
                node.bounds[MIN_X][lane] = lo.x;
                node.bounds[MIN_Y][lane] = lo.y;
                node.bounds[MAX_X][lane] = hi.x;
                node.bounds[MAX_Y][lane] = hi.y;
                node.mask |= 1 << lane;
                if cn.child1 == NULL {
                    if cn.slot & LEAF != 0 {
                        return None;
                    }
                    node.child[lane] = cn.slot | LEAF;
                }
            }
            for lane in (0..count).rev() {
                if !self.is_leaf(kids[lane]) {
                    stack.push((kids[lane], q, lane, at + 1));
                }
            }
            out.push(node);
        }
        Some(Octs {
            nodes: out,
            stack: 7 * depth,
            avx,
        })
    }
}

/// [`walk`](super::ray::walk) over [`Oct`]s, of `ray` with `inv`, its
/// [`inverse_dir`](crate::broad::inverse_dir).
#[inline(always)]
pub(super) fn walk<F: RayLeaf>(octs: &Octs, ray: &Ray, inv: Vec2, max_t: &mut f32, f: &mut F) {
    if octs.stack > RAY_STACK {
        return walk_deep(octs, ray, inv, max_t, f);
    }
    walk_on(
        octs,
        ray,
        inv,
        max_t,
        &mut [MaybeUninit::uninit(); RAY_STACK],
        f,
    );
}

/// [`walk`] for a tree deeper than any balanced one: its stack on the heap. Out of line, so
/// the common walk sets up no `Vec`.
#[cold]
#[inline(never)]
fn walk_deep<F: RayLeaf>(octs: &Octs, ray: &Ray, inv: Vec2, max_t: &mut f32, f: &mut F) {
    let mut heap = vec![MaybeUninit::uninit(); octs.stack];
    walk_on(octs, ray, inv, max_t, &mut heap, f);
}

/// [`walk`] with `stack` (room for `octs.stack` entries).
#[inline(always)]
fn walk_on<F: RayLeaf>(
    octs: &Octs,
    ray: &Ray,
    inv: Vec2,
    max_t: &mut f32,
    stack: &mut [MaybeUninit<(u32, u32)>],
    f: &mut F,
) {
    let _: Avx = octs.avx;
    #[allow(unsafe_code)]
    // SAFETY: `octs.avx` exists only because `Avx::detect` found AVX on this CPU.
    unsafe {
        let nodes = &octs.nodes;
        // One instance for each pair of signs of the direction: the columns a node's test
        // reads are then constants, not four registers. A zero direction component (its slabs
        // are containment tests, as `ray_box` decides them) takes the lane-by-lane test.
        if ray.dir.x == 0.0 || ray.dir.y == 0.0 {
            return walk_avx::<true, 0, 1, F>(nodes, ray, inv, max_t, stack, f);
        }
        match (inv.x.is_sign_negative(), inv.y.is_sign_negative()) {
            (false, false) => walk_avx::<false, MIN_X, MIN_Y, F>(nodes, ray, inv, max_t, stack, f),
            (false, true) => walk_avx::<false, MIN_X, MAX_Y, F>(nodes, ray, inv, max_t, stack, f),
            (true, false) => walk_avx::<false, MAX_X, MIN_Y, F>(nodes, ray, inv, max_t, stack, f),
            (true, true) => walk_avx::<false, MAX_X, MAX_Y, F>(nodes, ray, inv, max_t, stack, f),
        }
    }
}

/// The column of the far side of an axis whose near side is `near`: the max's for the min's.
const fn far(near: usize) -> usize {
    near ^ 2
}

/// The eight lanes' entries and hit bits of one [`Oct`], as
/// [`RaySlabs::enter_quad`] computes them for four (each lane the same operations in the same
/// order, so the same bits), the entries already early.
///
/// # Safety
/// The CPU has AVX.
#[allow(unsafe_code)]
#[target_feature(enable = "avx")]
#[inline]
unsafe fn enter_oct<const NEAR_X: usize, const NEAR_Y: usize>(
    s: &Lanes,
    q: &Oct,
    bound: __m256,
) -> (__m256, u32) {
    // SAFETY: each column is 32 bytes at a multiple of 32 in a 64-byte aligned `Oct`.
    let (near_x, far_x, near_y, far_y) = unsafe {
        (
            _mm256_load_ps(q.bounds[NEAR_X].as_ptr()),
            _mm256_load_ps(q.bounds[far(NEAR_X)].as_ptr()),
            _mm256_load_ps(q.bounds[NEAR_Y].as_ptr()),
            _mm256_load_ps(q.bounds[far(NEAR_Y)].as_ptr()),
        )
    };
    let (x0, x1) = (
        _mm256_mul_ps(_mm256_sub_ps(near_x, s.origin_x), s.inv_x),
        _mm256_mul_ps(_mm256_sub_ps(far_x, s.origin_x), s.inv_x),
    );
    let (y0, y1) = (
        _mm256_mul_ps(_mm256_sub_ps(near_y, s.origin_y), s.inv_y),
        _mm256_mul_ps(_mm256_sub_ps(far_y, s.origin_y), s.inv_y),
    );
    let enter = _mm256_max_ps(_mm256_max_ps(x0, y0), _mm256_setzero_ps());
    let exit = _mm256_min_ps(_mm256_min_ps(x1, y1), bound);
    let abs = _mm256_and_ps(exit, s.abs);
    let slack = _mm256_add_ps(_mm256_mul_ps(_mm256_max_ps(enter, abs), s.slack), s.tiny);
    let hit = _mm256_cmp_ps::<_CMP_LE_OQ>(enter, _mm256_add_ps(exit, slack));
    (enter, _mm256_movemask_ps(hit) as u32)
}

/// The ray's slab test in eight lanes, with its constants.
struct Lanes {
    origin_x: __m256,
    origin_y: __m256,
    inv_x: __m256,
    inv_y: __m256,
    abs: __m256,
    slack: __m256,
    tiny: __m256,
}

/// [`walk`] with AVX: the whole walk, `f`'s calls included, in one function with AVX (which
/// its callers do not have, so it is not inlined into them), the ray's lanes set up once.
/// `NEAR_X` and `NEAR_Y` are the columns of the sides the ray enters by (the min's where `inv`'s
/// component is positive, the max's where negative; unread when `PARALLEL`: a zero direction
/// component).
///
/// # Safety
/// The CPU has AVX.
#[allow(unsafe_code)]
#[target_feature(enable = "avx")]
unsafe fn walk_avx<const PARALLEL: bool, const NEAR_X: usize, const NEAR_Y: usize, F: RayLeaf>(
    nodes: &[Oct],
    ray: &Ray,
    inv: Vec2,
    max_t: &mut f32,
    stack: &mut [MaybeUninit<(u32, u32)>],
    f: &mut F,
) {
    let origin = ray.origin;
    let s = Lanes {
        origin_x: _mm256_set1_ps(origin.x),
        origin_y: _mm256_set1_ps(origin.y),
        inv_x: _mm256_set1_ps(inv.x),
        inv_y: _mm256_set1_ps(inv.y),
        abs: _mm256_castsi256_ps(_mm256_set1_epi32(i32::MAX)),
        slack: _mm256_set1_ps(2e-6),
        tiny: _mm256_set1_ps(f32::MIN_POSITIVE),
    };
    let mut bound = *max_t;
    let mut bound8 = _mm256_set1_ps(bound);
    let mut at = 0;
    let mut current = (0u32, 0u32);
    // The bound is written back once, at the end.
    loop {
        let (id, _) = current;
        if id & LEAF != 0 {
            // `bound.min` without its NaN case: a NaN leaves the bound as it is all the same.
            let left = f.leaf(id & !LEAF);
            if left < bound {
                bound = left;
            }
            bound8 = _mm256_set1_ps(bound);
            let Some(next) = pop::<0>(stack, &mut at, bound) else {
                break;
            };
            current = next;
            continue;
        }
        debug_assert!((id as usize) < nodes.len());
        // SAFETY: `current` is the root (0; the root is not a leaf, so there are octs) or the
        // child of an inner lane, which `flatten_octs` set to the index of an oct it made.
        let node = unsafe { nodes.get_unchecked(id as usize) };
        let (entered, hit) = if PARALLEL {
            enter_oct_parallel(ray, inv, node, bound)
        } else {
            // SAFETY: AVX, by this function's contract.
            unsafe { enter_oct::<NEAR_X, NEAR_Y>(&s, node, bound8) }
        };
        let hit = hit & node.mask;
        current = if hit == 0 {
            let Some(next) = pop::<0>(stack, &mut at, bound) else {
                break;
            };
            next
        } else if hit & (hit - 1) == 0 {
            // One lane: its child is next, its entry unread (the visit does not test it).
            (node.child[hit.trailing_zeros() as usize], 0)
        } else {
            let mut t = [0.0f32; 8];
            let early = if PARALLEL {
                entered
            } else {
                _mm256_sub_ps(entered, _mm256_mul_ps(entered, s.slack))
            };
            // SAFETY: `t` has room for eight `f32`s.
            unsafe { _mm256_storeu_ps(t.as_mut_ptr(), early) };
            // Lane `i`'s stack entry; its entry's bits order as the entries do (none is
            // negative).
            let entry = |i: u32| (node.child[i as usize], t[i as usize].to_bits());
            let (first, rest) = (entry(hit.trailing_zeros()), hit & (hit - 1));
            if rest & (rest - 1) == 0 {
                // Two lanes (the commonest case here): the nearer is next, the other pushed.
                let second = entry(rest.trailing_zeros());
                let (near, far) = if second.1 < first.1 {
                    (second, first)
                } else {
                    (first, second)
                };
                stack[at] = MaybeUninit::new(far);
                at += 1;
                near
            } else {
                // The hit lanes' entries as `t` bits over child, farthest first (an insertion
                // sort: a few lanes): the nearest is next, the others go on the stack.
                // Left uninitialised (filling it cost more than the sort): only the first `n`
                // keys, each written, are read.
                let key = |(child, t): (u32, u32)| u64::from(t) << 32 | u64::from(child);
                let mut keys = [MaybeUninit::<u64>::uninit(); 8];
                keys[0] = MaybeUninit::new(key(first));
                let mut n = 1;
                let mut rest = rest;
                while rest != 0 {
                    let mut k = key(entry(rest.trailing_zeros()));
                    rest &= rest - 1;
                    for slot in &mut keys[..n] {
                        // SAFETY: the first `n` keys are written.
                        let s = unsafe { slot.assume_init() };
                        if k > s {
                            *slot = MaybeUninit::new(k);
                            k = s;
                        }
                    }
                    keys[n] = MaybeUninit::new(k);
                    n += 1;
                }
                let entry = |i: usize| {
                    // SAFETY: `i < n`, and the first `n` keys are written.
                    let k = unsafe { keys[i].assume_init() };
                    (k as u32, (k >> 32) as u32)
                };
                for i in 0..n - 1 {
                    stack[at] = MaybeUninit::new(entry(i));
                    at += 1;
                }
                entry(n - 1)
            }
        };
    }
    *max_t = bound;
}

/// [`enter_oct`] when the ray has a zero direction component: `ray_box` lane by lane.
#[inline(never)]
fn enter_oct_parallel(ray: &Ray, inv: Vec2, q: &Oct, max_t: f32) -> (__m256, u32) {
    debug_assert!(ray.dir.x == 0.0 || ray.dir.y == 0.0);
    let (mut early, mut hit) = ([0.0f32; 8], 0);
    for (lane, early) in early.iter_mut().enumerate() {
        let b = Aabb::raw(
            Vec2::new(q.bounds[MIN_X][lane], q.bounds[MIN_Y][lane]),
            Vec2::new(q.bounds[MAX_X][lane], q.bounds[MAX_Y][lane]),
        );
        if let Some(t) = ray_box(ray, inv, &b, max_t) {
            *early = t;
            hit |= 1 << lane;
        }
    }
    #[allow(unsafe_code)]
    // SAFETY: `__m256` is eight `f32`s, any bits valid.
    (
        unsafe { core::mem::transmute::<[f32; 8], __m256>(early) },
        hit,
    )
}

#[cfg(test)]
#[path = "oct_tests.rs"]
mod tests;
