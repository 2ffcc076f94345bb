//! Box2D v3's broad phase on the world benches' scenes: its `b2DynamicTree` used as Box2D's
//! `b2BroadPhase` uses it, then its manifolds on every contact, so a frame does what
//! `b2World_Step` does for collision (without solving):
//!
//! 1. every shape's box is recomputed; one that left its fat box gets a new fat box (the box
//!    plus `B2_AABB_MARGIN`, 0.1), `b2DynamicTree_EnlargeProxy`, and goes into the move buffer;
//! 2. `b2DynamicTree_Rebuild(tree, false)` rebuilds the enlarged part of the tree;
//! 3. every moved proxy queries the tree with its fat box; a new pair whose filters accept each
//!    other becomes a contact (a pair both of whose proxies moved is taken once);
//! 4. every contact whose fat boxes no longer overlap is destroyed, the others get a manifold,
//!    and those with a point at separation `<= 0` are the frame's colliding pairs.
//!
//! And [`Box2dRays`]: `b2DynamicTree_RayCast` with each shape's ray cast at the leaves, as
//! `b2World_CastRay` does for the closest hit.

use crate::box2d::{self, Manifold};
use crate::world::{Body, Scene};
use boxdd_sys::ffi::{
    b2AABB, b2CastOutput, b2Circle, b2DynamicTree, b2DynamicTree_Create, b2DynamicTree_CreateProxy,
    b2DynamicTree_Destroy, b2DynamicTree_EnlargeProxy, b2DynamicTree_Query, b2DynamicTree_RayCast,
    b2DynamicTree_Rebuild, b2LocalManifold, b2MakeBox, b2Polygon, b2RayCastCircle, b2RayCastInput,
    b2RayCastPolygon, b2Transform, b2Vec2,
};
use collide2d::math::Vec2;
use collide2d::Filter;
use std::collections::HashSet;
use std::ffi::c_void;

/// Box2D's fat-box margin (`B2_AABB_MARGIN`, 0.1 length units).
pub const B2_MARGIN: f32 = 0.1;

/// A scene body as a Box2D shape in its own frame.
#[derive(Clone, Copy, Debug)]
enum B2Body {
    Circle(b2Circle),
    Box(b2Polygon),
}

impl B2Body {
    fn of(b: &Body) -> B2Body {
        match b.radius {
            Some(radius) => B2Body::Circle(b2Circle {
                center: box2d::vec(Vec2::ZERO),
                radius,
            }),
            // SAFETY: a plain function of two floats.
            None => B2Body::Box(unsafe { b2MakeBox(b.half.x, b.half.y) }),
        }
    }

    /// The manifold with `other`, `xf` being `other`'s transform in this one's frame.
    fn manifold(&self, other: &B2Body, xf: b2Transform) -> b2LocalManifold {
        match (self, other) {
            (B2Body::Circle(a), B2Body::Circle(b)) => a.manifold(b, xf),
            (B2Body::Circle(a), B2Body::Box(b)) => a.manifold(b, xf),
            (B2Body::Box(a), B2Body::Box(b)) => a.manifold(b, xf),
            (B2Body::Box(a), B2Body::Circle(b)) => {
                // SAFETY: both pointers are to live shapes for the call.
                unsafe { boxdd_sys::ffi::b2CollidePolygonAndCircle(a, b, xf) }
            }
        }
    }
}

/// A body's tight box.
fn aabb(b: &Body) -> b2AABB {
    let half = b.radius.map_or(b.half, Vec2::splat);
    b2AABB {
        lowerBound: box2d::vec(b.center - half),
        upperBound: box2d::vec(b.center + half),
    }
}

fn grown(a: &b2AABB, by: f32) -> b2AABB {
    b2AABB {
        lowerBound: b2Vec2 {
            x: a.lowerBound.x - by,
            y: a.lowerBound.y - by,
        },
        upperBound: b2Vec2 {
            x: a.upperBound.x + by,
            y: a.upperBound.y + by,
        },
    }
}

fn contains(outer: &b2AABB, inner: &b2AABB) -> bool {
    outer.lowerBound.x <= inner.lowerBound.x
        && outer.lowerBound.y <= inner.lowerBound.y
        && inner.upperBound.x <= outer.upperBound.x
        && inner.upperBound.y <= outer.upperBound.y
}

fn overlaps(a: &b2AABB, b: &b2AABB) -> bool {
    a.lowerBound.x <= b.upperBound.x
        && b.lowerBound.x <= a.upperBound.x
        && a.lowerBound.y <= b.upperBound.y
        && b.lowerBound.y <= a.upperBound.y
}

/// Box2D's broad phase and contacts following a [`Scene`] (see the module doc).
pub struct Box2dSim {
    tree: b2DynamicTree,
    /// Each body's proxy id in the tree.
    proxies: Vec<i32>,
    shapes: Vec<B2Body>,
    transforms: Vec<b2Transform>,
    filters: Vec<Filter>,
    fat: Vec<b2AABB>,
    moved: Vec<bool>,
    move_buffer: Vec<i32>,
    pair_set: HashSet<u64>,
    contacts: Vec<(u32, u32)>,
}

/// What a tree query's callback sees.
struct QueryContext<'a> {
    query: i32,
    filter: Filter,
    moved: &'a [bool],
    filters: &'a [Filter],
    pair_set: &'a mut HashSet<u64>,
    contacts: &'a mut Vec<(u32, u32)>,
}

fn key(a: u32, b: u32) -> u64 {
    (u64::from(a.min(b)) << 32) | u64::from(a.max(b))
}

/// Box2D's pair callback (`b2PairQueryCallback`): skips itself and pairs both of whose proxies
/// moved from the higher one, filters, then adds the pair once. Bodies are named by the user
/// data (the body's index): a proxy id is a tree node's, not the body's.
unsafe extern "C" fn pair_callback(_proxy: i32, user: u64, context: *mut c_void) -> bool {
    // SAFETY: `context` is the `QueryContext` `Box2dSim::frame` passes, alive for the query.
    let cx = unsafe { &mut *context.cast::<QueryContext<'_>>() };
    let body = user as i32;
    if body == cx.query {
        return true;
    }
    let p = body as usize;
    if cx.moved[p] && body < cx.query {
        return true;
    }
    if !cx.filter.collides_with(cx.filters[p]) {
        return true;
    }
    let (a, b) = (body as u32, cx.query as u32);
    if cx.pair_set.insert(key(a, b)) {
        cx.contacts.push((a.min(b), a.max(b)));
    }
    true
}

impl Box2dSim {
    /// A tree with every body of `scene`, each with its fat box, all in the move buffer.
    #[must_use]
    pub fn new(scene: &Scene) -> Box2dSim {
        let n = scene.bodies.len();
        // SAFETY: creates an empty tree that `Drop` destroys.
        let mut tree = unsafe { b2DynamicTree_Create(i32::try_from(n).unwrap_or(i32::MAX)) };
        let mut fat = Vec::with_capacity(n);
        let mut proxies = Vec::with_capacity(n);
        for (i, b) in scene.bodies.iter().enumerate() {
            let f = grown(&aabb(b), B2_MARGIN);
            // SAFETY: `tree` is live.
            proxies
                .push(unsafe { b2DynamicTree_CreateProxy(&mut tree, f, b.filter.layer, i as u64) });
            fat.push(f);
        }
        let mut sim = Box2dSim {
            tree,
            proxies,
            shapes: scene.bodies.iter().map(B2Body::of).collect(),
            transforms: scene
                .bodies
                .iter()
                .map(|b| box2d::transform(b.center, 0.0))
                .collect(),
            filters: scene.bodies.iter().map(|b| b.filter).collect(),
            fat,
            moved: vec![true; n],
            move_buffer: (0..n as i32).collect(),
            pair_set: HashSet::new(),
            contacts: Vec::new(),
        };
        sim.find_pairs();
        sim
    }

    /// Step 3: new contacts from the move buffer.
    fn find_pairs(&mut self) {
        for &query in &self.move_buffer {
            let q = query as usize;
            let mut cx = QueryContext {
                query,
                filter: self.filters[q],
                moved: &self.moved,
                filters: &self.filters,
                pair_set: &mut self.pair_set,
                contacts: &mut self.contacts,
            };
            // SAFETY: the tree is live and `cx` outlives the query.
            unsafe {
                b2DynamicTree_Query(
                    &self.tree,
                    self.fat[q],
                    self.filters[q].mask,
                    Some(pair_callback),
                    std::ptr::from_mut(&mut cx).cast(),
                )
            };
        }
        for &query in &self.move_buffer {
            self.moved[query as usize] = false;
        }
        self.move_buffer.clear();
    }

    /// One frame (see the module doc). Returns the colliding pairs.
    #[inline(never)]
    pub fn frame(&mut self, scene: &Scene) -> usize {
        for (i, b) in scene.bodies.iter().enumerate().skip(scene.statics) {
            if b.is_static() {
                continue;
            }
            self.transforms[i] = box2d::transform(b.center, 0.0);
            let tight = aabb(b);
            if !contains(&self.fat[i], &tight) {
                self.fat[i] = grown(&tight, B2_MARGIN);
                // SAFETY: the tree is live and `i` is one of its proxies.
                unsafe { b2DynamicTree_EnlargeProxy(&mut self.tree, self.proxies[i], self.fat[i]) };
                if !self.moved[i] {
                    self.moved[i] = true;
                    self.move_buffer.push(i as i32);
                }
            }
        }
        // SAFETY: the tree is live.
        unsafe { b2DynamicTree_Rebuild(&mut self.tree, false) };
        self.find_pairs();
        let mut pairs = 0;
        let mut k = 0;
        while k < self.contacts.len() {
            let (a, b) = self.contacts[k];
            let (a, b) = (a as usize, b as usize);
            if !overlaps(&self.fat[a], &self.fat[b]) {
                self.pair_set.remove(&key(a as u32, b as u32));
                self.contacts.swap_remove(k);
                continue;
            }
            let xf = box2d::relative(&self.transforms[a], &self.transforms[b]);
            if box2d::hit(&self.shapes[a].manifold(&self.shapes[b], xf)) {
                pairs += 1;
            }
            k += 1;
        }
        pairs
    }
}

impl Drop for Box2dSim {
    fn drop(&mut self) {
        // SAFETY: the tree was created by `b2DynamicTree_Create` and is destroyed once.
        unsafe { b2DynamicTree_Destroy(&mut self.tree) };
    }
}

/// The static shapes of a [`Scene`] in one Box2D tree, for first-hit rays.
pub struct Box2dRays {
    tree: b2DynamicTree,
    shapes: Vec<(Vec2, B2Body)>,
}

/// A ray's closest hit so far.
struct RayContext<'a> {
    shapes: &'a [(Vec2, B2Body)],
    best: Option<f32>,
}

/// `b2RayCastClosestFcn`'s part: the shape's own ray cast in its frame; a hit clips the ray.
unsafe extern "C" fn ray_callback(
    input: *const b2RayCastInput,
    _proxy: i32,
    user: u64,
    context: *mut c_void,
) -> f32 {
    // SAFETY: Box2D passes a live input; `context` is the `RayContext` of `Box2dRays::cast`.
    let (input, cx) = unsafe { (&*input, &mut *context.cast::<RayContext<'_>>()) };
    let (center, shape) = &cx.shapes[user as usize];
    let local = b2RayCastInput {
        origin: b2Vec2 {
            x: input.origin.x - center.x,
            y: input.origin.y - center.y,
        },
        ..*input
    };
    // SAFETY: both pointers are live for the call.
    let out: b2CastOutput = unsafe {
        match shape {
            B2Body::Circle(c) => b2RayCastCircle(c, &local),
            B2Body::Box(p) => b2RayCastPolygon(p, &local),
        }
    };
    if out.hit {
        cx.best = Some(out.fraction);
        out.fraction
    } else {
        input.maxFraction
    }
}

impl Box2dRays {
    /// The tree of every body of `scene` (tight boxes: static shapes get no margin in Box2D).
    #[must_use]
    pub fn new(scene: &Scene) -> Box2dRays {
        let n = scene.bodies.len();
        // SAFETY: creates an empty tree that `Drop` destroys.
        let mut tree = unsafe { b2DynamicTree_Create(i32::try_from(n).unwrap_or(i32::MAX)) };
        for (i, b) in scene.bodies.iter().enumerate() {
            // SAFETY: `tree` is live.
            unsafe { b2DynamicTree_CreateProxy(&mut tree, aabb(b), b.filter.layer, i as u64) };
        }
        // SAFETY: the tree is live; Box2D rebuilds its static tree in full once built.
        unsafe { b2DynamicTree_Rebuild(&mut tree, true) };
        let shapes = scene
            .bodies
            .iter()
            .map(|b| (b.center, B2Body::of(b)))
            .collect();
        Box2dRays { tree, shapes }
    }

    /// The closest hit of the ray from `origin` along `translation` (whole length), as a
    /// fraction of it.
    #[must_use]
    pub fn cast(&self, origin: Vec2, translation: Vec2) -> Option<f32> {
        let input = b2RayCastInput {
            origin: box2d::vec(origin),
            translation: box2d::vec(translation),
            maxFraction: 1.0,
        };
        let mut cx = RayContext {
            shapes: &self.shapes,
            best: None,
        };
        // SAFETY: the tree, the input and `cx` are live for the call.
        unsafe {
            b2DynamicTree_RayCast(
                &self.tree,
                &input,
                u64::MAX,
                Some(ray_callback),
                std::ptr::from_mut(&mut cx).cast(),
            )
        };
        cx.best
    }
}

impl Drop for Box2dRays {
    fn drop(&mut self) {
        // SAFETY: the tree was created by `b2DynamicTree_Create` and is destroyed once.
        unsafe { b2DynamicTree_Destroy(&mut self.tree) };
    }
}
