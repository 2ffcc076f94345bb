//! Ray casts through a tree: its inner nodes laid out as four-wide [`Quad`]s, walked with
//! four-lane slab tests (on x86_64 CPUs with AVX, eight-wide nodes instead: `oct.rs`).

use super::dynamic::{perimeter, Tree};
use super::NULL;
use crate::broad::{ray_box, RayLeaf};
use crate::math::Vec2;
use crate::query::Ray;
use crate::shape::Aabb;
use alloc::vec;
use alloc::vec::Vec;
use core::mem::MaybeUninit;
use glam::Vec4;
use once_cell::race::OnceBox;

/// An inner node laid out for ray casts: up to four children's boxes as four-lane columns, so a
/// visit tests them all as one four-lane slab test and a ray passes half as many levels as in the
/// binary tree. Built by opening the inner child with the largest perimeter until four children
/// (or only leaves) are left; nodes in depth-first order, so a first inner child is the next node.
///
/// Aligned to 64 bytes (128 a node, 88 of them used): the four columns fill one cache line, the
/// children the next, and an index scales by one shift. Against 16 bytes (96 a node, which often
/// straddles three lines), callgrind's cache model counted 8% fewer first-level data misses at
/// 100,000 shapes, and 10 fewer instructions a ray.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub(super) struct Quad {
    /// Each child's bounds, lane by lane: the columns [`MIN_X`], [`MIN_Y`], [`MAX_X`] and
    /// [`MAX_Y`]. An array, so a ray picks the column of the side it enters by by index.
    bounds: [Vec4; 4],
    /// Each child's index in the quad array, or its slot when a leaf.
    child: [u32; 4],
    /// Bit `i` set when lane `i` holds a child; bit `4 + i` when that child is a leaf.
    mask: u32,
    /// Lane `i`'s traversal tag: `i`, plus 4 when its child is a leaf (see [`walk`]).
    tag: [u8; 4],
}

/// [`Quad::bounds`]' column of each child's min x.
pub(super) const MIN_X: usize = 0;
/// Its column of min y.
pub(super) const MIN_Y: usize = 1;
/// Its column of max x.
pub(super) const MAX_X: usize = 2;
/// Its column of max y.
pub(super) const MAX_Y: usize = 3;

/// A tree's inner nodes as [`Quad`]s, root first (none when the root is a leaf), and how deep
/// [`walk`]'s stack can grow over them; or on an x86_64 CPU with AVX, as eight-wide
/// [`Oct`](super::oct::Oct)s instead.
#[derive(Debug)]
pub(super) struct RayTree {
    quads: Vec<Quad>,
    /// Three entries for each quad on the longest path from the root: a visit pushes at most
    /// three children and goes on into the fourth, and the stack holds, for each quad on the
    /// path to the one visited, at most those three (the entries pushed below a popped one
    /// were popped before it).
    stack: usize,
    #[cfg(target_arch = "x86_64")]
    octs: Option<super::oct::Octs>,
}

/// Unit tests: lay trees out as quads even where the CPU has AVX, to compare the two layouts'
/// answers (any test may get either layout meanwhile: they answer the same).
#[cfg(test)]
pub(super) static QUADS_ONLY: core::sync::atomic::AtomicBool =
    core::sync::atomic::AtomicBool::new(false);

impl RayTree {
    /// The layout of `tree` for ray casts: [`Oct`](super::oct::Oct)s where the CPU has AVX,
    /// else [`Quad`]s (in unit tests, also while [`QUADS_ONLY`] is set).
    pub(super) fn of(tree: &Tree) -> RayTree {
        #[cfg(test)]
        let quads = QUADS_ONLY.load(core::sync::atomic::Ordering::Relaxed);
        #[cfg(not(test))]
        let quads = false;
        #[cfg(target_arch = "x86_64")]
        if !quads && tree.root != NULL && !tree.is_leaf(tree.root) {
            if let Some(octs) = super::oct::Avx::detect().and_then(|avx| tree.flatten_octs(avx)) {
                return RayTree {
                    quads: Vec::new(),
                    stack: 0,
                    octs: Some(octs),
                };
            }
        }
        let _ = quads;
        tree.flatten()
    }

    /// [`walk`] over this layout (the tree's root is not a leaf) of `ray`, whose
    /// [`inverse_dir`](crate::broad::inverse_dir) is `inv`.
    #[inline(always)]
    pub(super) fn walk<F: RayLeaf>(&self, ray: &Ray, inv: Vec2, max_t: &mut f32, f: &mut F) {
        #[cfg(target_arch = "x86_64")]
        if let Some(octs) = &self.octs {
            return super::oct::walk(octs, ray, inv, max_t, f);
        }
        self.walk_quads(ray, inv, max_t, f);
    }

    /// [`walk`](Self::walk) over [`Quad`]s. Out of line on x86_64, where most CPUs take the
    /// octs: inlined, its set-up (the slab columns) was hoisted into every ray's path.
    #[cfg_attr(target_arch = "x86_64", inline(never))]
    #[cfg_attr(not(target_arch = "x86_64"), inline(always))]
    fn walk_quads<F: RayLeaf>(&self, ray: &Ray, inv: Vec2, max_t: &mut f32, f: &mut F) {
        let slabs = &RaySlabs::with_inv(ray, inv);
        // The hot loop without the parallel-ray case, so it keeps the ray in registers.
        if slabs.parallel {
            walk::<true, _>(self, slabs, max_t, f);
        } else {
            walk::<false, _>(self, slabs, max_t, f);
        }
    }
}

impl Tree {
    /// The children of inner node `id` for a node `N` wide: its two, then the inner child with
    /// the largest perimeter opened in their place, until `N` are left (or only leaves); and how
    /// many.
    pub(super) fn open_children<const N: usize>(&self, id: u32) -> ([u32; N], usize) {
        let n = &self.nodes[id as usize];
        let mut kids = [NULL; N];
        (kids[0], kids[1]) = (n.child1, n.child2);
        let mut count = 2;
        while count < N {
            // The largest inner child gives way to its two children, in its place.
            let mut open: Option<(usize, f32)> = None;
            for (i, &c) in kids[..count].iter().enumerate() {
                if !self.is_leaf(c) {
                    let p = perimeter(&self.nodes[c as usize].aabb);
                    if open.is_none_or(|(_, best)| p > best) {
                        open = Some((i, p));
                    }
                }
            }
            let Some((i, _)) = open else {
                break;
            };
            let c = &self.nodes[kids[i] as usize];
            kids.copy_within(i + 1..count, i + 2);
            kids[i] = c.child1;
            kids[i + 1] = c.child2;
            count += 1;
        }
        (kids, count)
    }

    /// The inner nodes as [`Quad`]s, root first; none when the root is a leaf.
    pub(super) fn flatten(&self) -> RayTree {
        let mut out: Vec<Quad> = Vec::with_capacity(self.leaves / 2);
        let mut depth = 0;
        if self.root == NULL || self.is_leaf(self.root) {
            return RayTree {
                quads: out,
                stack: 0,
                #[cfg(target_arch = "x86_64")]
                octs: None,
            };
        }
        // (node, parent's quad index, lane under it, quads on the path from the root to it)
        let mut stack = vec![(self.root, NULL, 0usize, 1usize)];
        while let Some((id, parent, lane, at)) = stack.pop() {
            depth = depth.max(at);
            let q = out.len() as u32;
            if parent != NULL {
                out[parent as usize].child[lane] = q;
            }
            let (kids, count) = self.open_children::<4>(id);
            let mut node = Quad {
                bounds: [Vec4::ZERO; 4],
                child: [NULL; 4],
                mask: 0,
                tag: [0, 1, 2, 3],
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
                    node.child[lane] = cn.slot;
                    node.mask |= 16 << lane;
                    node.tag[lane] |= 4;
                }
            }
            // Later lanes' subtrees go on the stack first, so the first inner child's is laid
            // out right after this node.
            for lane in (0..count).rev() {
                if node.mask & (16 << lane) == 0 {
                    stack.push((kids[lane], q, lane, at + 1));
                }
            }
            out.push(node);
        }
        RayTree {
            quads: out,
            stack: 3 * depth,
            #[cfg(target_arch = "x86_64")]
            octs: None,
        }
    }
}

/// The ray traversal of one tree's [`Quad`]s from the root: calls `f` with the slot of every
/// leaf whose box the ray meets before `max_t`, nearer children first, and lowers `max_t` to
/// what `f` returns. `PARALLEL` says whether `slabs.parallel` is set. The tree's root is not a
/// leaf.
///
/// A child reached is a quad index or a slot with a key: its entry `t`'s bits with the low three
/// replaced by the lane's tag (leaf flag and lane). An entry is never negative, so keys order as
/// entries do up to those three bits (which only reorders near-ties), and a key's `t` (its bits
/// with the low three cleared) is at most the entry: the pruning by it stays safe.
///
/// Inner nodes are walked by [`descend`], a function of its own that calls nothing, so the
/// ray's constants and the bound stay in registers there (a call clobbers every vector
/// register); a leaf leaves it for `f`. A node's nearest child hit is visited without the
/// bound's test, which it passed (up to the slab test's slack) in the same bound: only entries
/// taken from the stack are pruned.
#[inline(always)]
pub(super) fn walk<const PARALLEL: bool, F: RayLeaf>(
    tree: &RayTree,
    slabs: &RaySlabs,
    max_t: &mut f32,
    f: &mut F,
) {
    let quads = &tree.quads[..];
    debug_assert!(!quads.is_empty());
    // The stack of children reached, `(quad or slot, key)`, with room for as many as the tree
    // can leave on it ([`RayTree::stack`]): a local array (its length in a register), or for a
    // tree deeper than any balanced one, the heap. Left uninitialised: zeroing it was a sixth of
    // a short ray's set-up, and only entries below `len`, each pushed, are read.
    let mut inline = [MaybeUninit::<(u32, u32)>::uninit(); RAY_STACK];
    let mut heap = Vec::new();
    let stack: &mut [MaybeUninit<(u32, u32)>] = if tree.stack <= RAY_STACK {
        &mut inline
    } else {
        heap.resize(tree.stack, MaybeUninit::uninit());
        &mut heap
    };
    let mut len = 0usize;
    let mut current = (0u32, 0u32);
    loop {
        let Some(leaf) = descend::<PARALLEL>(quads, slabs, *max_t, stack, &mut len, current) else {
            return;
        };
        *max_t = max_t.min(f.leaf(leaf));
        current = match pop::<7>(stack, &mut len, *max_t) {
            Some(next) => next,
            None => return,
        };
    }
}

/// [`walk`] from `current` down to the next leaf reached (its slot), pushing the other
/// children hit on `stack` (`len` entries) and popping from it at a node none of whose children
/// is hit; `None` once the stack is empty. Not inlined: a function that calls nothing, so the
/// ray's constants are loaded into registers once a descent, not at every node (in `walk`,
/// around `f`'s call, they lived on its stack).
#[inline(never)]
fn descend<const PARALLEL: bool>(
    quads: &[Quad],
    slabs: &RaySlabs,
    bound: f32,
    stack: &mut [MaybeUninit<(u32, u32)>],
    len: &mut usize,
    mut current: (u32, u32),
) -> Option<u32> {
    let mut at = *len;
    loop {
        let (id, key) = current;
        if key & 4 != 0 {
            *len = at;
            return Some(id);
        }
        debug_assert!((id as usize) < quads.len());
        #[allow(unsafe_code)]
        // SAFETY: `current` is the root (0, and the root is not a leaf, so there are quads) or a
        // child of an inner lane of a quad, which `flatten` set to the index of a quad it made.
        let node = unsafe { quads.get_unchecked(id as usize) };
        let (entered, hit) = if PARALLEL {
            slabs.enter_quad_parallel(node, bound)
        } else {
            slabs.enter_quad(node, bound)
        };
        let hit = hit & node.mask;
        // Lane `i`'s key: its entry time with the lane's tag in the low bits; and the stack
        // entry of a key (the tag's low two bits are the lane). The entries are worked out only
        // where a key is read: not for the commonest visits, with one lane hit or none.
        let keys = || {
            let t = slabs.early::<PARALLEL>(entered).to_array();
            move |i: usize| (t[i].to_bits() & !7) | u32::from(node.tag[i])
        };
        let entry = |k: u32| (node.child[(k & 3) as usize], k);
        current = if hit == 0 {
            pop::<7>(stack, &mut at, bound)?
        } else if hit & (hit - 1) == 0 {
            // One lane (the commonest case of a short ray): its child is next, nothing to
            // sort or push, and its key's `t` unread (the next visit does not test it).
            let lane = hit.trailing_zeros() as usize;
            (node.child[lane], u32::from(node.tag[lane]))
        } else if (hit & (hit - 1)) & ((hit & (hit - 1)) - 1) == 0 {
            // Two lanes (the next commonest): the nearer is next, the other pushed.
            let key = keys();
            let (a, b) = (
                key(hit.trailing_zeros() as usize),
                key(31 - hit.leading_zeros() as usize),
            );
            stack[at] = MaybeUninit::new(entry(a.max(b)));
            at += 1;
            entry(a.min(b))
        } else {
            // The hit lanes sorted by key without branches, a miss last: the nearest is
            // next, the others go on the stack farthest first.
            // A miss's bits all set by a mask rather than a branch, which would mispredict.
            let key = keys();
            let key = |i: usize| key(i) | ((hit >> i) & 1).wrapping_sub(1);
            let [mut k0, mut k1, mut k2, mut k3] = [key(0), key(1), key(2), key(3)];
            let sort = |a: &mut u32, b: &mut u32| {
                let (lo, hi) = ((*a).min(*b), (*a).max(*b));
                (*a, *b) = (lo, hi);
            };
            sort(&mut k0, &mut k1);
            sort(&mut k2, &mut k3);
            sort(&mut k0, &mut k2);
            sort(&mut k1, &mut k3);
            sort(&mut k1, &mut k2);
            // Each written, kept unless a miss: no branch. The writes stay below `at + 3`,
            // within the room left for this quad's level.
            for item in [entry(k3), entry(k2), entry(k1)] {
                stack[at] = MaybeUninit::new(item);
                at += usize::from(item.1 != u32::MAX);
            }
            entry(k0)
        };
    }
}

/// [`walk`]'s pop: the last entry pushed whose key's `t` (its bits but the low `TAG` bits)
/// is not past `bound` (the others are dropped: a nearer hit was found since they were
/// reached), or `None` once the stack is empty.
#[inline(always)]
pub(super) fn pop<const TAG: u32>(
    stack: &[MaybeUninit<(u32, u32)>],
    len: &mut usize,
    bound: f32,
) -> Option<(u32, u32)> {
    while *len > 0 {
        *len -= 1;
        #[allow(unsafe_code)]
        // SAFETY: every entry below `len` was written by a push.
        let next = unsafe { stack[*len].assume_init() };
        if f32::from_bits(next.1 & !TAG) <= bound {
            return Some(next);
        }
    }
    None
}

/// Drops a tree's ray layout (checked first: most trees that change are never cast against).
#[inline]
pub(super) fn drop_quads(quads: &mut OnceBox<RayTree>) {
    if quads.get().is_some() {
        *quads = OnceBox::new();
    }
}

/// A ray set up for box tests: [`ray_box`] for the four boxes of a [`Quad`] as
/// four-lane operations. Scalars only: each walk spreads them across its lanes once.
pub(super) struct RaySlabs {
    /// The ray.
    ray: Ray,
    /// [`inverse_dir`](crate::broad::inverse_dir)`(dir)`.
    pub(super) inv: Vec2,
    /// The [`Quad::bounds`] columns of the sides the ray enters by, x then y: the min's where
    /// `inv`'s component is positive, the max's where negative.
    near: [usize; 2],
    /// The columns of the sides it leaves by.
    far: [usize; 2],
    /// Whether a direction component is zero: its slabs are then containment tests, which
    /// `ray_box` decides (products would give an origin on an edge the empty slab `[0, 0]`).
    pub(super) parallel: bool,
}

impl RaySlabs {
    #[cfg(test)]
    pub(super) fn new(ray: &Ray) -> RaySlabs {
        RaySlabs::with_inv(ray, crate::broad::inverse_dir(ray.dir))
    }

    /// [`new`](Self::new) with `inv`, [`inverse_dir`](crate::broad::inverse_dir)`(ray.dir)`, known.
    #[inline(always)]
    pub(super) fn with_inv(ray: &Ray, inv: Vec2) -> RaySlabs {
        let (x, y) = (
            usize::from(inv.x.is_sign_negative()),
            usize::from(inv.y.is_sign_negative()),
        );
        RaySlabs {
            ray: *ray,
            inv,
            near: [MIN_X + 2 * x, MIN_Y + 2 * y],
            far: [MAX_X - 2 * x, MAX_Y - 2 * y],
            parallel: ray.dir.x == 0.0 || ray.dir.y == 0.0,
        }
    }

    /// As [`ray_box`]`(ray, inverse_dir(ray.dir), child, max_t)` for each lane's
    /// child, bit for bit: the entries (before [`early`](Self::early) makes them early), and bit
    /// `i` set when lane `i` is hit (empty lanes included: mask them). Only when `parallel` is
    /// not set.
    ///
    /// Each lane rounds the same subtractions and products. As the ray is finite and `inv`
    /// finite and non-zero, no lane is NaN, and rounding keeps the order of the sides: where
    /// `inv.x` is positive, `(min_x - o.x) * inv.x <= (max_x - o.x) * inv.x`, so the near side's
    /// product is the min that `ray_box` takes and the far side's the max (up to the sign of a
    /// zero, which no result keeps: `enter - enter * 2e-6` is `+0` for either zero). The lane-wise
    /// min and max pick what `f32::min` and `f32::max` pick.
    #[inline(always)]
    pub(super) fn enter_quad(&self, q: &Quad, max_t: f32) -> (Vec4, u32) {
        debug_assert!(!self.parallel);
        // `& 3`: the compiler then knows each column exists.
        let column = |c: usize| q.bounds[c & 3];
        let (origin_x, origin_y) = (
            Vec4::splat(self.ray.origin.x),
            Vec4::splat(self.ray.origin.y),
        );
        let (inv_x, inv_y) = (Vec4::splat(self.inv.x), Vec4::splat(self.inv.y));
        let (x0, x1) = (
            (column(self.near[0]) - origin_x) * inv_x,
            (column(self.far[0]) - origin_x) * inv_x,
        );
        let (y0, y1) = (
            (column(self.near[1]) - origin_y) * inv_y,
            (column(self.far[1]) - origin_y) * inv_y,
        );
        let enter = x0.max(y0).max(Vec4::ZERO);
        let exit = x1.min(y1).min(Vec4::splat(max_t));
        let slack = enter.max(exit.abs()) * 2e-6 + f32::MIN_POSITIVE;
        (enter, enter.cmple(exit + slack).bitmask())
    }

    /// The entries of the lanes [`enter_quad`](Self::enter_quad) found (`PARALLEL` false), or
    /// [`enter_quad_parallel`](Self::enter_quad_parallel) (true): that much early, as `ray_box`
    /// returns them. For `enter_quad`'s, without `ray_box`'s last `max(0)`, which changes no
    /// bits here: `enter` is a zero or more, and less 2e-6 of itself stays so (a zero of either
    /// sign gives `+0`: `x - x` rounds to `+0`).
    #[inline(always)]
    fn early<const PARALLEL: bool>(&self, entered: Vec4) -> Vec4 {
        if PARALLEL {
            entered
        } else {
            entered - entered * 2e-6
        }
    }

    /// [`RaySlabs::enter_quad`] when `parallel` is set: `ray_box` lane by lane (its entries
    /// already early).
    #[inline(never)]
    pub(super) fn enter_quad_parallel(&self, q: &Quad, max_t: f32) -> (Vec4, u32) {
        if !self.parallel {
            return self.enter_quad(q, max_t);
        }
        let ray = &self.ray;
        let (mut early, mut hit) = (Vec4::ZERO, 0);
        for lane in 0..4 {
            let b = Aabb::raw(
                Vec2::new(q.bounds[MIN_X][lane], q.bounds[MIN_Y][lane]),
                Vec2::new(q.bounds[MAX_X][lane], q.bounds[MAX_Y][lane]),
            );
            if let Some(t) = ray_box(ray, self.inv, &b, max_t) {
                early[lane] = t;
                hit |= 1 << lane;
            }
        }
        (early, hit)
    }
}

/// Entries of [`walk`]'s stack kept inline: 128, enough for a tree 42 quads deep (a balanced
/// tree of a million leaves is about 10). 4 in unit tests, so they reach the heap.
pub(super) const RAY_STACK: usize = if cfg!(test) { 4 } else { 128 };

#[cfg(test)]
#[path = "ray_tests.rs"]
mod tests;
