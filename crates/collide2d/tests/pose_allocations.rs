//! A spinning hitbox placed each frame with `CollisionWorld::set_pose` allocates nothing after
//! its first pose: counted by a global allocator, on the test's own thread only (the test
//! harness's main thread may allocate meanwhile, e.g. to warn that a test runs long under load).

use collide2d::math::{Pose, Vec2};
use collide2d::{Aabb, BroadPhase, CollisionWorld, Compound, ConvexPolygon, Filter, ObjectKind};
use collide2d::{Polygon, Shape};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    // Const-initialised and without a destructor, so reading it never allocates.
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

fn count() {
    if COUNTING.try_with(Cell::get).unwrap_or(false) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

// SAFETY: every call is forwarded to `System` unchanged; only a counter is added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller's contract is `System`'s.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn spinning_hitboxes_allocate_nothing_per_frame() {
    let v = Vec2::new;
    let blade = ConvexPolygon::new(&[v(-4.0, -0.5), v(4.0, -0.5), v(4.0, 0.5), v(-4.0, 0.5)]);
    let l_shape = Polygon::new(&[
        v(0.0, 0.0),
        v(3.0, 0.0),
        v(3.0, 1.0),
        v(1.0, 1.0),
        v(1.0, 3.0),
        v(0.0, 3.0),
    ]);
    let body = Aabb::new(v(-1.0, -2.0), v(1.0, 2.0));
    let (Ok(blade), Ok(l_shape), Ok(body)) = (blade, l_shape, body) else {
        panic!("valid shapes");
    };
    let ship = Compound::new(vec![
        body.into(),
        blade.clone().into(),
        l_shape.clone().into(),
    ]);
    let Ok(ship) = ship else {
        panic!("a valid compound")
    };
    let locals: Vec<Shape> = vec![blade.into(), l_shape.into(), body.into(), ship.into()];
    let mut world = CollisionWorld::new(BroadPhase::default());
    let handles: Vec<_> = locals
        .iter()
        .map(|s| world.insert(s.clone(), Filter::DEFAULT, ObjectKind::Dynamic, ()))
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("{e}"));
    let pose = |frame: usize, k: usize| {
        let angle = frame as f32 * 0.05 + k as f32;
        Pose::new(v(k as f32 * 20.0 + frame as f32 * 0.1, 5.0), angle)
    };
    // The first pose keeps each local shape (one allocation each).
    for (k, &h) in handles.iter().enumerate() {
        world
            .set_pose(h, pose(0, k))
            .unwrap_or_else(|e| panic!("{e}"));
    }
    COUNTING.with(|c| c.set(true));
    for frame in 1..200 {
        for (k, &h) in handles.iter().enumerate() {
            world
                .set_pose(h, pose(frame, k))
                .unwrap_or_else(|e| panic!("{e}"));
        }
    }
    COUNTING.with(|c| c.set(false));
    let allocations = ALLOCATIONS.load(Ordering::Relaxed);
    assert_eq!(
        allocations, 0,
        "allocations in 199 frames of 4 spinning hitboxes"
    );
    // And the world holds what `transformed` gives.
    for (k, (&h, local)) in handles.iter().zip(&locals).enumerate() {
        let placed = world.shape(h).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(*placed, local.transformed(&pose(199, k)));
    }
}
