//! Broad phases: what [`CollisionWorld`](crate::CollisionWorld) asks of a spatial structure.
//!
//! Two structures sit behind one interface, [`BroadPhase`] picks one (or, by default, lets
//! [`auto`] choose from the objects):
//! - [`grid`]: a uniform grid as lists sorted by integer cell key, one per group, for many similar
//!   small objects (bullets);
//! - [`tree`]: dynamic bounding-volume trees with enlarged (fat) boxes, one per filter group, for
//!   mixed sizes and large static geometry.
//!
//! Both filter by [group](Groups) before making candidate pairs: objects whose groups cannot
//! collide (a bullet layer that ignores itself, two static objects) are never paired, so they
//! cost what lone objects cost.
//!
//! [`CollisionWorld::broad_phase_boxes`](crate::CollisionWorld::broad_phase_boxes) shows the
//! structure, read only, as a list of [`BroadBox`]es (grid cells, tree nodes), for debug drawing.

use alloc::vec::Vec;
mod auto;
pub(crate) mod grid;
mod groups;
pub(crate) mod tree;

use crate::math::Vec2;
use crate::query::Ray;
use crate::shape::Aabb;
use crate::world::Handle;
pub(crate) use groups::Groups;

/// Which broad-phase structure a [`CollisionWorld`](crate::CollisionWorld) uses.
///
/// Every choice finds exactly the same pairs; only the cost differs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BroadPhase(pub(crate) BroadKind);

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum BroadKind {
    Grid { cell_size: f32 },
    Tree { margin: f32 },
    Auto,
}

/// The structure a [`CollisionWorld`](crate::CollisionWorld) uses now:
/// [`CollisionWorld::broad_phase_kind`](crate::CollisionWorld::broad_phase_kind). With
/// [`BroadPhase::auto`] (the default) this is what it chose from the objects.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum BroadPhaseKind {
    /// A uniform grid of square cells `cell_size` wide ([`BroadPhase::grid`]).
    Grid {
        /// The cells' width.
        cell_size: f32,
    },
    /// Bounding-volume trees with leaves enlarged by `margin` ([`BroadPhase::tree`]).
    Tree {
        /// How far each leaf's box reaches past its object's.
        margin: f32,
    },
}

impl BroadPhase {
    /// A uniform grid of square cells `cell_size` wide: best for many objects of similar size,
    /// with `cell_size` at least the width of almost all of them. An object wider or taller than a
    /// cell is kept aside: such objects are tested against each other by brute force and against
    /// the rest by searching the rows they cover, so keep them few (or use [`BroadPhase::tree`]).
    ///
    /// # Errors
    /// [`WorldError::BadCellSize`](crate::WorldError::BadCellSize) unless `cell_size` is finite
    /// and positive.
    pub fn grid(cell_size: f32) -> Result<BroadPhase, crate::WorldError> {
        if cell_size.is_finite() && cell_size > 0.0 {
            Ok(BroadPhase(BroadKind::Grid { cell_size }))
        } else {
            Err(crate::WorldError::BadCellSize { got: cell_size })
        }
    }

    /// Dynamic bounding-volume trees whose leaves hold each box enlarged by `margin` on every
    /// side (a negative or non-finite margin counts as 0): an object is re-inserted only when it
    /// leaves its enlarged box. Good for any scene, best for mixed sizes and static geometry.
    #[must_use]
    pub fn tree(margin: f32) -> BroadPhase {
        let margin = if margin.is_finite() && margin > 0.0 {
            margin
        } else {
            0.0
        };
        BroadPhase(BroadKind::Tree { margin })
    }

    /// The structure chosen from the objects, and chosen again whenever their number has
    /// doubled or halved since: a [grid](BroadPhase::grid) when many objects move and almost
    /// all of them have similar sizes (its cell the power of two at or above the 90th
    /// percentile of the moving objects' widths), else a [tree](BroadPhase::tree) with a margin
    /// of `0.1` (mixed sizes, a static level, a few objects).
    /// [`CollisionWorld::broad_phase_kind`](crate::CollisionWorld::broad_phase_kind) says
    /// which. The choice depends only on the objects, so the same operations make the same
    /// choice; and every structure finds the same pairs.
    #[must_use]
    pub fn auto() -> BroadPhase {
        BroadPhase(BroadKind::Auto)
    }
}

impl Default for BroadPhase {
    /// [`BroadPhase::auto`].
    fn default() -> Self {
        BroadPhase::auto()
    }
}

/// One box of the broad phase's structure, for debug drawing: see
/// [`CollisionWorld::broad_phase_boxes`](crate::CollisionWorld::broad_phase_boxes).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BroadBox {
    /// The box in world space: a cell's square, a tree node's (fat) box, a large object's box.
    pub aabb: Aabb,
    /// What the box is.
    pub kind: BroadBoxKind,
}

/// What a [`BroadBox`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BroadBoxKind {
    /// A grid cell holding at least one object: each object sits in the cell of its box's
    /// `min` corner and reaches at most one cell further right and up. Cell `(x, y)` spans
    /// `x * cell_size ..= (x + 1) * cell_size` (and the same for `y`).
    Cell {
        /// Column.
        x: i32,
        /// Row.
        y: i32,
        /// How many objects sit in it.
        objects: u32,
    },
    /// An object spanning more than two cells on an axis, kept in the grid's side list; the
    /// box is its own.
    Large {
        /// The object.
        object: Handle,
    },
    /// An inner node of a bounding-volume tree: the union of its children's boxes.
    Node {
        /// Which tree: one per group of objects with the same filter and static-ness (objects
        /// of filters past the first 64 in use share one group per static-ness), numbered in
        /// order of first use; a group's number is reused once no object uses it.
        tree: u32,
        /// Distance from the tree's root (0).
        depth: u32,
    },
    /// A leaf of a bounding-volume tree: one object's box enlarged by the margin.
    Leaf {
        /// Which tree, as for [`BroadBoxKind::Node`].
        tree: u32,
        /// Distance from the tree's root (0).
        depth: u32,
        /// The object.
        object: Handle,
    },
}

/// What the broad phase reads about each object slot.
#[derive(Clone, Copy)]
pub(crate) struct View<'a> {
    /// Tight boxes, by slot.
    pub(crate) aabbs: &'a [Aabb],
    /// Group of each slot, `u32::MAX` for an empty slot.
    pub(crate) groups: &'a [u32],
    pub(crate) table: &'a Groups,
}

/// Which groups a query reads: those whose layer is in `mask` (shared groups always: their
/// objects' own layers decide), and with `statics_only` only groups of static objects (after a
/// [`Broad::sync_part`] of the static objects' changes, the others may be stale).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Sight {
    pub(crate) mask: u64,
    pub(crate) statics_only: bool,
}

impl Sight {
    /// Every group whose layer is in `mask`.
    pub(crate) fn all(mask: u64) -> Sight {
        Sight {
            mask,
            statics_only: false,
        }
    }

    /// True when a query reads group `g`.
    #[inline]
    pub(crate) fn sees(self, table: &Groups, g: u32) -> bool {
        table.visible(g, self.mask) && (!self.statics_only || table.is_static(g))
    }
}

/// The structure behind [`BroadPhase`], and for [`BroadPhase::auto`] what chooses it.
#[derive(Debug)]
pub(crate) struct Broad {
    now: Structure,
    kind: BroadKind,
    chooser: Option<auto::Chooser>,
}

#[derive(Debug)]
enum Structure {
    Grid(grid::Grid),
    Tree(tree::Trees),
}

impl Structure {
    /// A grid or a tree (`kind` is not `Auto`).
    fn new(kind: BroadKind) -> Structure {
        match kind {
            BroadKind::Grid { cell_size } => Structure::Grid(grid::Grid::new(cell_size)),
            BroadKind::Tree { margin } => Structure::Tree(tree::Trees::new(margin)),
            BroadKind::Auto => Structure::Tree(tree::Trees::new(auto::TREE_MARGIN)),
        }
    }
}

impl Broad {
    pub(crate) fn new(kind: BroadPhase) -> Broad {
        let chooser = (kind.0 == BroadKind::Auto).then(auto::Chooser::new);
        let kind = if chooser.is_some() {
            BroadKind::Tree {
                margin: auto::TREE_MARGIN,
            }
        } else {
            kind.0
        };
        Broad {
            now: Structure::new(kind),
            kind,
            chooser,
        }
    }

    /// The structure in use.
    pub(crate) fn kind(&self) -> BroadPhaseKind {
        match self.kind {
            BroadKind::Grid { cell_size } => BroadPhaseKind::Grid { cell_size },
            BroadKind::Tree { margin } => BroadPhaseKind::Tree { margin },
            BroadKind::Auto => BroadPhaseKind::Tree {
                margin: auto::TREE_MARGIN,
            },
        }
    }

    /// Brings the structure up to date: `changed` lists the slots inserted, moved, refiltered or
    /// removed since the last call (removed slots have group `u32::MAX`); `filled_or_emptied`
    /// is false when none of them was inserted or removed (then the number of objects is the
    /// same, and [`BroadPhase::auto`] need not count them).
    pub(crate) fn sync(&mut self, view: &View<'_>, changed: &[u32], filled_or_emptied: bool) {
        if let Some(chooser) = &mut self.chooser {
            if let Some(kind) = chooser.track(view, changed, filled_or_emptied, self.kind) {
                // A new structure, filled with every object at once.
                self.kind = kind;
                self.now = Structure::new(kind);
                let live = chooser.live_slots();
                return self.now.sync(view, &live);
            }
        }
        self.now.sync(view, changed);
    }

    /// Brings the structure up to date with the slots in `part` alone, which changed since
    /// they were last synced: the groups of those slots' objects (before and after the
    /// changes) are then up to date, the others as they were. [`BroadPhase::auto`] counts the
    /// objects but chooses again only at a [`sync`](Self::sync), whose `changed` then need not
    /// list these slots again.
    pub(crate) fn sync_part(&mut self, view: &View<'_>, part: &[u32], filled_or_emptied: bool) {
        if let (Some(chooser), true) = (&mut self.chooser, filled_or_emptied) {
            chooser.count(view, part);
        }
        self.now.sync(view, part);
    }
}

impl Structure {
    fn sync(&mut self, view: &View<'_>, changed: &[u32]) {
        match self {
            Structure::Grid(g) => g.sync(view, changed),
            Structure::Tree(t) => t.sync(view, changed),
        }
    }
}

impl Broad {
    /// Every pair of slots `(a, b)`, `a < b`, whose groups are compatible and whose tight boxes
    /// overlap, each once, in no particular order (but the same order for the same operations),
    /// in place of `out`'s old contents. At most `max` pairs: the search stops once it has found
    /// that many, and the result is `false` when it stopped early (`true` when every pair is in
    /// `out`).
    pub(crate) fn pairs(&mut self, view: &View<'_>, out: &mut Vec<(u32, u32)>, max: usize) -> bool {
        let limit = max;
        match &mut self.now {
            // The grid writes over the old contents: clearing them first would have it grow
            // `out` back, zero-filling it, every update.
            Structure::Grid(g) => g.pairs(view, out, limit),
            Structure::Tree(t) => {
                out.clear();
                t.pairs(view, out, limit);
            }
        }
        // The searches check the limit now and then, not at every pair.
        let complete = out.len() < limit;
        out.truncate(limit);
        // Objects in a shared group are paired by group with every compatible group: their
        // own filters decide now (one pass, only while some object is in a shared group).
        if view.table.any_shared() {
            let mut kept = 0;
            for i in 0..out.len() {
                let (a, b) = out[i];
                if view.table.accepts(a, b) {
                    out[kept] = (a, b);
                    kept += 1;
                }
            }
            out.truncate(kept);
        }
        complete
    }

    /// The structure as of the last `sync`, into `out`: see [`BroadBox`]. `handle` names a
    /// slot's object.
    pub(crate) fn boxes(
        &self,
        view: &View<'_>,
        handle: &dyn Fn(u32) -> Handle,
        out: &mut Vec<BroadBox>,
    ) {
        match &self.now {
            Structure::Grid(g) => g.boxes(view, handle, out),
            Structure::Tree(t) => t.boxes(handle, out),
        }
    }

    /// Calls `f` with every slot (possibly more than once) whose box, as of the last `sync`,
    /// overlaps `region` and whose group `sight` sees.
    pub(crate) fn query(
        &self,
        view: &View<'_>,
        region: &Aabb,
        sight: Sight,
        f: &mut dyn FnMut(u32),
    ) {
        if view.table.any_shared() {
            // A shared group is visible to every mask: its objects' own layers decide.
            let f = &mut |slot: u32| {
                if view.table.shows(slot, sight.mask) {
                    f(slot);
                }
            };
            return match &self.now {
                Structure::Grid(g) => g.query(view, region, sight, f),
                Structure::Tree(t) => t.query(view, region, sight, f),
            };
        }
        match &self.now {
            Structure::Grid(g) => g.query(view, region, sight, f),
            Structure::Tree(t) => t.query(view, region, sight, f),
        }
    }

    /// Calls `f` with every slot (possibly more than once) whose box, as of the last `sync`,
    /// may meet `ray` for `t` in `[0, max_t]`. `f` returns a new, smaller `max_t` (or the same)
    /// so a first-hit search can prune. Generic so the trees' walk calls `f` directly; inlined
    /// into its caller (each instance has one), which then keeps the ray in registers. The
    /// trees read `table` alone: `view`, what a grid reads, is built only for a grid (built
    /// up front, it was stores on every ray).
    #[inline(always)]
    pub(crate) fn ray<'v, F: RayLeaf>(
        &self,
        table: &Groups,
        view: impl FnOnce() -> View<'v>,
        ray: &Ray,
        max_t: f32,
        mask: u64,
        f: &mut F,
    ) {
        if table.any_shared() {
            // As for `query`; a hidden object leaves the bound as it is.
            let f = &mut |slot: u32| {
                if table.shows(slot, mask) {
                    f.leaf(slot)
                } else {
                    f32::INFINITY
                }
            };
            return match &self.now {
                Structure::Grid(g) => g.ray(&view(), ray, max_t, Sight::all(mask), f),
                Structure::Tree(t) => t.ray(table, ray, max_t, Sight::all(mask), f),
            };
        }
        match &self.now {
            Structure::Grid(g) => g.ray(&view(), ray, max_t, Sight::all(mask), &mut |s| f.leaf(s)),
            Structure::Tree(t) => t.ray(table, ray, max_t, Sight::all(mask), f),
        }
    }
}

/// What a ray walk calls with each slot it reaches ([`Broad::ray`]): the new, smaller `max_t`
/// (or the same). A closure is one; a trait rather than `FnMut` so a first-hit search can mark
/// its leaf test to be inlined into the trees' walk (a closure's call is left to the compiler,
/// which kept it a call: registers saved and restored around each leaf).
pub(crate) trait RayLeaf {
    fn leaf(&mut self, slot: u32) -> f32;
}

impl<F: FnMut(u32) -> f32> RayLeaf for F {
    #[inline(always)]
    fn leaf(&mut self, slot: u32) -> f32 {
        self(slot)
    }
}

/// `1 / dir` per axis, with a zero (or subnormal) component's infinity replaced by `1e30`, so
/// [`ray_box`] never multiplies zero by infinity.
pub(crate) fn inverse_dir(dir: Vec2) -> Vec2 {
    let inv = dir.recip();
    Vec2::select(inv.is_finite_mask(), inv, Vec2::splat(1e30))
}

/// The `t` at which `ray` enters `aabb` (0 if it starts inside), or `None` when it misses the box
/// for `t` in `[0, max_t]`; `inv_dir` is [`inverse_dir`]`(ray.dir)`. Conservative: a relative
/// slack of `2e-6` on the slab interval keeps rounding from dropping a box the ray grazes, and
/// the entry returned is that much early, so a hit found at the box's edge (in `f64`, then
/// rounded) never lies before it; the exact ray cast decides.
#[inline]
pub(crate) fn ray_box(ray: &Ray, inv_dir: Vec2, aabb: &Aabb, max_t: f32) -> Option<f32> {
    let (mut enter, mut exit) = (0.0f32, max_t);
    for axis in 0..2 {
        let (lo, hi, o) = (aabb.min()[axis], aabb.max()[axis], ray.origin[axis]);
        if ray.dir[axis] == 0.0 {
            // Parallel to the slab: inside it (its edges included) at every `t`, or never. As
            // products, an origin on an edge would give the empty slab `[0, 0]`.
            if o < lo || o > hi {
                return None;
            }
            continue;
        }
        let (a, b) = ((lo - o) * inv_dir[axis], (hi - o) * inv_dir[axis]);
        enter = enter.max(a.min(b));
        exit = exit.min(a.max(b));
    }
    let slack = enter.abs().max(exit.abs()) * 2e-6 + f32::MIN_POSITIVE;
    (enter <= exit + slack).then_some((enter - enter * 2e-6).max(0.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::v;
    use crate::{Circle, CollisionWorld, Filter, ObjectKind, Shape};

    /// 60 circles and boxes of mixed sizes (a few much larger than a grid cell) on two layers,
    /// one of them static, inserted in a scrambled order.
    fn world(broad: BroadPhase) -> CollisionWorld<usize> {
        let mut world = CollisionWorld::new(broad);
        for k in 0..60usize {
            let i = (k * 37) % 60;
            let at = v((i % 10) as f32 * 3.1 - 7.0, (i / 10) as f32 * 2.7 - 4.0);
            let size = if i % 13 == 0 {
                9.0
            } else {
                0.4 + (i % 4) as f32 * 0.3
            };
            let shape: Shape = if i % 2 == 0 {
                Circle::new(at, size).unwrap().into()
            } else {
                Aabb::new(at - size, at + v(size, 0.5 * size))
                    .unwrap()
                    .into()
            };
            let (filter, kind) = if i % 3 == 0 {
                (Filter::new(2, 1), ObjectKind::Static)
            } else {
                (Filter::DEFAULT, ObjectKind::Dynamic)
            };
            world.insert(shape, filter, kind, i).unwrap();
        }
        world.update();
        world
    }

    fn contains(outer: &Aabb, inner: &Aabb) -> bool {
        outer.min().cmple(inner.min()).all() && inner.max().cmple(outer.max()).all()
    }

    #[test]
    fn every_object_is_in_one_tree_leaf_covering_its_box() {
        let world = world(BroadPhase::tree(0.25));
        let boxes = world.broad_phase_boxes();
        for (handle, shape, _) in world.iter() {
            let leaves: Vec<_> = boxes
                .iter()
                .filter(|b| matches!(b.kind, BroadBoxKind::Leaf { object, .. } if object == handle))
                .collect();
            assert_eq!(leaves.len(), 1, "{handle}");
            assert!(contains(&leaves[0].aabb, &shape.aabb()), "{handle}");
        }
        // Depth first: each tree starts at depth 0, each node's children follow it one deeper
        // and lie inside it.
        let mut path: Vec<Aabb> = Vec::new();
        let mut trees = Vec::new();
        for b in &boxes {
            let (tree, depth) = match b.kind {
                BroadBoxKind::Node { tree, depth } | BroadBoxKind::Leaf { tree, depth, .. } => {
                    (tree, depth as usize)
                }
                other => panic!("a tree gives no {other:?}"),
            };
            if depth == 0 {
                trees.push(tree);
            }
            path.truncate(depth);
            assert_eq!(path.len(), depth, "a node follows its parent");
            if let Some(parent) = path.last() {
                assert!(contains(parent, &b.aabb));
            }
            path.push(b.aabb);
        }
        assert_eq!(trees, [0, 1], "one tree per group, in order");
        assert_eq!(
            boxes.len(),
            2 * 60 - 2,
            "n leaves, n - 1 inner nodes per tree"
        );
    }

    #[test]
    fn every_object_is_in_a_grid_cell_or_kept_aside_as_large() {
        // A power-of-two cell size: cell edges are exact, so a box is exactly inside its cells.
        let cell = 2.0;
        let world = world(BroadPhase::grid(cell).unwrap());
        let boxes = world.broad_phase_boxes();
        let mut held = 0;
        let mut last_key = None;
        for b in &boxes {
            if let BroadBoxKind::Cell { x, y, objects } = b.kind {
                assert!(
                    (y, x) > last_key.unwrap_or((i32::MIN, i32::MIN)),
                    "sorted, each once"
                );
                last_key = Some((y, x));
                assert_eq!(b.aabb.min(), v(x as f32, y as f32) * cell);
                assert_eq!(b.aabb.max(), b.aabb.min() + cell);
                held += objects as usize;
            }
        }
        let mut large = 0;
        for (handle, shape, _) in world.iter() {
            let aabb = shape.aabb();
            let aside = boxes
                .iter()
                .any(|b| b.kind == BroadBoxKind::Large { object: handle });
            if aside {
                assert!(aabb.size().max_element() > cell);
                large += 1;
                continue;
            }
            // In the cell of its min corner, reaching at most one cell right and up.
            let corner = aabb.min();
            let cell_box = boxes
                .iter()
                .find(|b| {
                    matches!(b.kind, BroadBoxKind::Cell { .. })
                        && b.aabb.min().cmple(corner).all()
                        && corner.cmplt(b.aabb.max()).all()
                })
                .unwrap_or_else(|| panic!("{handle} {aabb:?}"));
            let reach = Aabb::raw(cell_box.aabb.min(), cell_box.aabb.max() + cell);
            assert!(contains(&reach, &aabb), "{handle}");
        }
        assert!(large >= 4, "the test scene has large objects");
        assert_eq!(held + large, world.len());
    }

    #[test]
    fn the_same_operations_give_the_same_boxes() {
        for broad in [BroadPhase::tree(0.1), BroadPhase::grid(1.5).unwrap()] {
            let (mut a, mut b) = (world(broad), world(broad));
            assert_eq!(a.broad_phase_boxes(), b.broad_phase_boxes());
            // Move every object a little, then remove a few: still the same on both sides.
            for w in [&mut a, &mut b] {
                let moved: Vec<_> = w
                    .iter()
                    .map(|(h, s, _)| {
                        (
                            h,
                            s.transformed(&crate::math::Pose::from_translation(v(0.3, -0.2))),
                        )
                    })
                    .collect();
                for (h, s) in moved.into_iter().step_by(2) {
                    w.set_shape(h, s).unwrap();
                }
                let first = w.iter().next().unwrap().0;
                w.remove(first).unwrap();
                w.update();
            }
            assert_eq!(a.broad_phase_boxes(), b.broad_phase_boxes());
            assert!(!a.broad_phase_boxes().is_empty());
        }
    }
}
