//! Random sequences of world operations (insert static, dynamic or fast objects, move, `move_by`,
//! reshape, refilter, remove, also by a stale handle, update, every query) on two
//! `CollisionWorld`s, one per broad phase (a grid with an arbitrary cell size, a tree with an
//! arbitrary margin), checked after each step against a brute-force model: a list of the live
//! objects and O(n²) loops over it.
//!
//! After each update: the pairs are exactly the live pairs, not both static, whose filters accept
//! each other both ways and that `intersects` (with the same `contact` when contacts are on) or,
//! when one is fast, that `cast_shapes` finds touching over their motions since the previous
//! update (with that time of impact), sorted by handle; began and ended are the differences from
//! the previous update. Queries, at any time (pending changes included), give the brute-force
//! handle sets; the first ray or shape-cast hit is the least `t`, ties to the lower handle;
//! `cast_ray_all` and `cast_shape_all` are every hit sorted by `t`, then handle. `move_shape`
//! never panics and keeps its contract's invariants. Shapes stay within about `±1e6` (moves add
//! up to `±1e6` each).
#![no_main]

use collide2d::math::{Pose, Vec2};
use collide2d::query::{cast_ray, contact, contains_point, intersects, Ray, RayHit};
use collide2d::{
    cast_shapes, Aabb, BroadPhase, Capsule, CastHit, Circle, CollisionWorld, Compound, Contact,
    ConvexPolygon, Filter, Handle, Obb, ObjectKind, Point, Response, Segment, Shape, WorldError,
};
use libfuzzer_sys::arbitrary::{Arbitrary, Result, Unstructured};
use libfuzzer_sys::fuzz_target;

/// The most operations one input runs, so each run stays short.
const MAX_OPS: usize = 64;

/// Layers and masks from a small set, so filters often meet and often refuse.
const LAYERS: [u64; 5] = [1, 2, 4, 3, 0];
const MASKS: [u64; 7] = [u64::MAX, 1, 2, 3, 6, 5, 0];

/// The largest coordinate an `Arbitrary` shape may have.
const WORLD_BOUND: f32 = 1e6;

/// Coordinate scales: every small-shape coordinate is an integer in `-16..=16` times one of
/// these, so shapes stay within `±1e6` and touch exactly often.
const SCALES: [f32; 7] = [1.0, 0.25, 0.1, 3.0, 1000.0, 65536.0, 62_500.0];

struct Gen<'a, 'b> {
    u: &'a mut Unstructured<'b>,
    scale: f32,
}

impl Gen<'_, '_> {
    fn coord(&mut self) -> Result<f32> {
        Ok(f32::from(self.u.int_in_range(-16i8..=16)?) * self.scale)
    }

    fn size(&mut self) -> Result<f32> {
        Ok(f32::from(self.u.int_in_range(0u8..=8)?) * self.scale)
    }

    fn vec2(&mut self) -> Result<Vec2> {
        Ok(Vec2::new(self.coord()?, self.coord()?))
    }

    /// A shape built from small coordinates, or (one time in eight) any `Arbitrary` shape,
    /// numbers at the edges of `f32` included.
    fn shape(&mut self, depth: u32) -> Result<Shape> {
        let kind = self.u.int_in_range(0u8..=if depth == 0 { 8 } else { 9 })?;
        let built = match kind {
            0 => Point::new(self.vec2()?).map(Shape::from),
            1 => Circle::new(self.vec2()?, self.size()?).map(Shape::from),
            2 => {
                let (x, y, w, h) = (self.coord()?, self.coord()?, self.size()?, self.size()?);
                Aabb::from_rect(x, y, w, h).map(Shape::from)
            }
            3 => Segment::new(self.vec2()?, self.vec2()?).map(Shape::from),
            4 => Capsule::new(self.vec2()?, self.vec2()?, self.size()?).map(Shape::from),
            5 => {
                let (c, half) = (self.vec2()?, Vec2::new(self.size()?, self.size()?));
                let angle = f32::from(self.u.int_in_range(0u8..=15)?) * core::f32::consts::PI / 8.0;
                Obb::new(c, half, angle).map(Shape::from)
            }
            6 => {
                let n = self.u.int_in_range(3usize..=6)?;
                let pts = (0..n).map(|_| self.vec2()).collect::<Result<Vec<_>>>()?;
                ConvexPolygon::new(&pts).map(Shape::from)
            }
            7 => {
                // Any constructor-built shape (subnormal sizes, thin capsules, concave
                // polygons), kept within the world bounds: at 1e29 a ray cast's `f64` rounding
                // (documented as relative) exceeds the gap a bounding box leaves.
                let s = Shape::arbitrary(self.u)?;
                let b = s.aabb();
                let bound = b.min().abs().max(b.max().abs()).max_element();
                return Ok(if bound <= WORLD_BOUND {
                    s
                } else {
                    Shape::from(Point::new(Vec2::ZERO).expect("finite"))
                });
            }
            8 => Circle::new(self.vec2()?, 0.0).map(Shape::from),
            _ => {
                let parts = vec![self.shape(depth - 1)?, self.shape(depth - 1)?];
                Compound::new(parts).map(Shape::from)
            }
        };
        // A rejected shape (a self-crossing polygon, ...) becomes a point.
        Ok(built.unwrap_or_else(|_| Shape::from(Point::new(Vec2::ZERO).expect("finite"))))
    }

    fn filter(&mut self) -> Result<Filter> {
        Ok(Filter::new(
            *self.u.choose(&LAYERS)?,
            *self.u.choose(&MASKS)?,
        ))
    }

    fn mask(&mut self) -> Result<u64> {
        Ok(*self.u.choose(&MASKS)?)
    }

    /// A motion: small coordinates, or now and then a non-finite or huge one.
    fn motion(&mut self) -> Result<Vec2> {
        Ok(match self.u.int_in_range(0u8..=15)? {
            0 => Vec2::new(f32::NAN, 0.0),
            1 => Vec2::new(0.0, f32::INFINITY),
            2 => Vec2::new(f32::MAX, -f32::MAX),
            3 => Vec2::ZERO,
            _ => self.vec2()?,
        })
    }

    fn ray(&mut self) -> Result<(Ray, f32)> {
        let origin = self.vec2()?;
        let dir = Vec2::new(
            f32::from(self.u.int_in_range(-3i8..=3)?),
            f32::from(self.u.int_in_range(-3i8..=3)?),
        );
        let max_t = match self.u.int_in_range(0u8..=7)? {
            0 => 0.0,
            1 => 1.0,
            2 => 0.5,
            3 => 40.0 * self.scale,
            4 => f32::NAN,
            5 => -1.0,
            6 => f32::from_bits(u32::arbitrary(self.u)?),
            _ => f32::INFINITY,
        };
        Ok((Ray::new(origin, dir), max_t))
    }
}

#[derive(Debug)]
struct Live {
    handle: Handle,
    shape: Shape,
    filter: Filter,
    kind: ObjectKind,
    /// A fast object moved by `move_by` since the previous update: where it was then, and the
    /// sum of its deltas.
    sweep: Option<(Shape, Vec2)>,
}

impl Live {
    /// Where the object was at the previous update, and its motion since.
    fn start(&self) -> (&Shape, Vec2) {
        match &self.sweep {
            Some((shape, motion)) => (shape, *motion),
            None => (&self.shape, Vec2::ZERO),
        }
    }
}

/// A contact as normal, depth and points.
type ContactParts = (Vec2, f32, Vec<Vec2>);

fn parts(c: &Contact) -> ContactParts {
    (c.normal, c.depth, c.points.to_vec())
}

/// A pair the model expects from an update: handles, contact, time of impact.
type ModelPair = (Handle, Handle, Option<ContactParts>, Option<f32>);

/// The brute-force model of a world.
#[derive(Default)]
struct Model {
    /// Live objects in handle order.
    live: Vec<Live>,
    /// Handles of removed objects.
    dead: Vec<Handle>,
    previous: Vec<(Handle, Handle)>,
    contacts: bool,
}

/// A shape a world takes: finite coordinates and a finite bounding box.
fn finite_box(shape: &Shape) -> bool {
    let b = shape.aabb();
    b.min().is_finite() && b.max().is_finite() && shape.is_finite()
}

impl Model {
    fn pairs(&self) -> Vec<ModelPair> {
        let mut out = Vec::new();
        for (i, a) in self.live.iter().enumerate() {
            for b in &self.live[i + 1..] {
                let both_static = a.kind == ObjectKind::Static && b.kind == ObjectKind::Static;
                if both_static || !a.filter.collides_with(b.filter) {
                    continue;
                }
                if a.kind == ObjectKind::Fast || b.kind == ObjectKind::Fast {
                    let ((sa, va), (sb, vb)) = (a.start(), b.start());
                    if let Some(hit) = cast_shapes(sa, va, sb, vb) {
                        let contact = self.contacts.then(|| {
                            // The contact at the time of impact: the hit's, or at t = 0 the
                            // shapes' own contact.
                            let from_hit = (hit.normal, hit.depth, vec![hit.point]);
                            match contact(sa, sb) {
                                Some(c) if hit.t == 0.0 => parts(&c),
                                _ => from_hit,
                            }
                        });
                        out.push((a.handle, b.handle, contact, Some(hit.t)));
                    }
                } else if intersects(&a.shape, &b.shape) {
                    let contact = self.contacts.then(|| {
                        parts(&contact(&a.shape, &b.shape).expect("intersecting shapes have a contact"))
                    });
                    out.push((a.handle, b.handle, contact, None));
                }
            }
        }
        out
    }

    /// Every visible object `shape` touches when moved by `motion`, sorted by `t`, then handle.
    fn cast_all(&self, shape: &Shape, motion: Vec2, mask: u64) -> Vec<(Handle, CastHit)> {
        if !motion.is_finite() || !finite_box(shape) {
            return Vec::new();
        }
        let mut hits: Vec<(Handle, CastHit)> = self
            .visible(mask)
            .filter_map(|o| cast_shapes(shape, motion, &o.shape, Vec2::ZERO).map(|h| (o.handle, h)))
            .collect();
        hits.sort_by(|x, y| x.1.t.total_cmp(&y.1.t).then(x.0.cmp(&y.0)));
        hits
    }

    fn visible(&self, mask: u64) -> impl Iterator<Item = &Live> {
        self.live.iter().filter(move |o| o.filter.layer & mask != 0)
    }

    fn at_point(&self, p: Vec2, mask: u64) -> Vec<Handle> {
        self.visible(mask)
            .filter(|o| contains_point(&o.shape, p))
            .map(|o| o.handle)
            .collect()
    }

    fn overlapping(&self, shape: &Shape, mask: u64) -> Vec<Handle> {
        if !finite_box(shape) {
            return Vec::new();
        }
        self.visible(mask)
            .filter(|o| intersects(&o.shape, shape))
            .map(|o| o.handle)
            .collect()
    }

    fn ray_all(&self, ray: &Ray, max_t: f32, mask: u64) -> Vec<(Handle, RayHit)> {
        let valid = max_t >= 0.0 && ray.origin.is_finite() && ray.dir.is_finite();
        if !valid {
            return Vec::new();
        }
        let mut hits: Vec<(Handle, RayHit)> = self
            .visible(mask)
            .filter_map(|o| cast_ray(&o.shape, ray, max_t).map(|h| (o.handle, h)))
            .collect();
        hits.sort_by(|x, y| x.1.t.total_cmp(&y.1.t).then(x.0.cmp(&y.0)));
        hits
    }

    fn find(&self, handle: Handle) -> Option<usize> {
        self.live.binary_search_by_key(&handle, |o| o.handle).ok()
    }
}

/// Sorted differences `a \ b` of two sorted lists.
fn minus(a: &[(Handle, Handle)], b: &[(Handle, Handle)]) -> Vec<(Handle, Handle)> {
    a.iter()
        .filter(|p| b.binary_search(p).is_err())
        .copied()
        .collect()
}

fn same_hits(got: &[(Handle, RayHit)], want: &[(Handle, RayHit)]) -> bool {
    got.len() == want.len()
        && got.iter().zip(want).all(|((gh, g), (wh, w))| {
            gh == wh && g.t.to_bits() == w.t.to_bits() && g.point == w.point && g.normal == w.normal
        })
}

fn run(u: &mut Unstructured) -> Result<()> {
    let scale = *u.choose(&SCALES)?;
    let cell = match u.int_in_range(0u8..=6)? {
        0 => 1.0,
        1 => 0.5,
        2 => 4.0,
        3 => 16.0,
        4 => 1000.0,
        5 => 4.0 * scale,
        _ => f32::from_bits(u32::arbitrary(u)?),
    };
    let margin = match u.int_in_range(0u8..=4)? {
        0 => 0.0,
        1 => 0.1,
        2 => scale,
        3 => 100.0 * scale,
        _ => f32::from_bits(u32::arbitrary(u)?),
    };
    let grid = match BroadPhase::grid(cell) {
        Ok(g) => g,
        Err(e) => {
            assert!(!(cell.is_finite() && cell > 0.0), "{e}");
            assert!(
                matches!(e, WorldError::BadCellSize { got } if got.to_bits() == cell.to_bits())
            );
            return Ok(());
        }
    };
    let mut worlds: [CollisionWorld<u32>; 2] = [
        CollisionWorld::new(grid),
        CollisionWorld::new(BroadPhase::tree(margin)),
    ];
    let mut model = Model::default();
    // `WORLD_OPS_TRACE=1` prints the model before each ray check (for a crash's input).
    let trace = std::env::var_os("WORLD_OPS_TRACE").is_some();
    let mut g = Gen { u, scale };
    let mut serial = 0u32;
    for _ in 0..MAX_OPS {
        if g.u.is_empty() {
            break;
        }
        match g.u.int_in_range(0u8..=16)? {
            0 | 1 => {
                let shape = g.shape(2)?;
                let filter = g.filter()?;
                let kind = *g.u.choose(&[ObjectKind::Static, ObjectKind::Dynamic, ObjectKind::Fast])?;
                serial += 1;
                let got: Vec<_> = worlds
                    .iter_mut()
                    .map(|w| w.insert(shape.clone(), filter, kind, serial))
                    .collect();
                assert_eq!(got[0], got[1], "both worlds give the same handle");
                if finite_box(&shape) {
                    let handle = got[0].expect("a finite shape is accepted");
                    assert!(model.find(handle).is_none() && !model.dead.contains(&handle));
                    model.live.push(Live {
                        handle,
                        shape,
                        filter,
                        kind,
                        sweep: None,
                    });
                    model.live.sort_by_key(|o| o.handle);
                } else {
                    assert_eq!(got[0], Err(WorldError::NonFiniteShape));
                }
            }
            2 | 3 if !model.live.is_empty() => {
                let i = g.u.choose_index(model.live.len())?;
                let shape = if bool::arbitrary(g.u)? {
                    // A move: the same shape translated.
                    let d = g.vec2()?;
                    model.live[i].shape.transformed(&Pose::from_translation(d))
                } else {
                    g.shape(2)?
                };
                let handle = model.live[i].handle;
                for w in &mut worlds {
                    let got = w.set_shape(handle, shape.clone());
                    if finite_box(&shape) {
                        assert_eq!(got, Ok(()));
                    } else {
                        assert_eq!(got, Err(WorldError::NonFiniteShape));
                    }
                }
                if finite_box(&shape) {
                    // A teleport: a fast object's motion so far is forgotten.
                    model.live[i].shape = shape;
                    model.live[i].sweep = None;
                }
            }
            4 if !model.live.is_empty() => {
                let i = g.u.choose_index(model.live.len())?;
                let filter = g.filter()?;
                for w in &mut worlds {
                    assert_eq!(w.set_filter(model.live[i].handle, filter), Ok(()));
                }
                model.live[i].filter = filter;
            }
            5 if !model.live.is_empty() => {
                let i = g.u.choose_index(model.live.len())?;
                let handle = model.live[i].handle;
                for w in &mut worlds {
                    let data = w.remove(handle).expect("a live handle is removed");
                    assert!(data >= 1 && data <= serial);
                }
                model.live.remove(i);
                model.dead.push(handle);
            }
            6 if !model.dead.is_empty() => {
                // A stale handle is an error everywhere, even when its slot is reused.
                let handle = *g.u.choose(&model.dead)?;
                let stale = Err(WorldError::StaleHandle { handle });
                let shape = g.shape(0)?;
                for w in &mut worlds {
                    assert!(!w.contains(handle));
                    assert_eq!(w.remove(handle), stale);
                    assert_eq!(w.set_shape(handle, shape.clone()).err(), stale.err());
                    assert_eq!(w.set_filter(handle, Filter::DEFAULT), stale.map(|_| ()));
                    assert_eq!(w.data(handle).err(), stale.err());
                    assert_eq!(w.move_by(handle, Vec2::X), stale.map(|_| ()));
                    assert_eq!(w.motion(handle).err(), stale.err());
                }
            }
            7 => {
                let on = bool::arbitrary(g.u)?;
                for w in &mut worlds {
                    w.set_contacts(on);
                }
                model.contacts = on;
            }
            8 => {
                let p = g.vec2()?;
                let mask = g.mask()?;
                let want = model.at_point(p, mask);
                for w in &worlds {
                    assert_eq!(w.objects_at_point(p, mask), want, "at {p:?} mask {mask:#x}");
                }
            }
            9 => {
                let shape = g.shape(1)?;
                let mask = g.mask()?;
                let want = model.overlapping(&shape, mask);
                for w in &worlds {
                    assert_eq!(
                        w.objects_overlapping(&shape, mask),
                        want,
                        "overlapping {shape:?} mask {mask:#x}"
                    );
                }
            }
            10 => {
                let (ray, max_t) = g.ray()?;
                let mask = g.mask()?;
                let all = model.ray_all(&ray, max_t, mask);
                for (k, w) in worlds.iter().enumerate() {
                    let got = w.cast_ray_all(&ray, max_t, mask);
                    if trace {
                        eprintln!("world {k} cell {cell} margin {margin}: {:#?}", model.live);
                    }
                    assert!(same_hits(&got, &all), "{ray:?} {max_t}: {got:?} vs {all:?}");
                    let first = w.cast_ray(&ray, max_t, mask);
                    assert!(
                        same_hits(first.as_slice(), &all[..all.len().min(1)]),
                        "{ray:?} {max_t}: first {first:?} vs {all:?}"
                    );
                }
            }
            11 | 12 if !model.live.is_empty() => {
                let i = g.u.choose_index(model.live.len())?;
                let delta = g.motion()?;
                let want = move_by(&mut model.live[i], delta);
                for w in &mut worlds {
                    assert_eq!(w.move_by(model.live[i].handle, delta), want, "move_by {delta:?}");
                }
                for w in &worlds {
                    let motion = model.live[i].sweep.as_ref().map_or(Vec2::ZERO, |s| s.1);
                    assert_eq!(w.motion(model.live[i].handle), Ok(motion));
                    assert_eq!(w.shape(model.live[i].handle).as_deref(), Ok(&model.live[i].shape));
                }
            }
            13 => {
                let shape = g.shape(1)?;
                let motion = g.motion()?;
                let mask = g.mask()?;
                let all = model.cast_all(&shape, motion, mask);
                for w in &worlds {
                    let got = w.cast_shape_all(&shape, motion, mask);
                    assert_eq!(got, all, "cast {shape:?} by {motion:?} mask {mask:#x}");
                    let first = w.cast_shape(&shape, motion, mask);
                    assert_eq!(first, all.first().copied(), "first cast {shape:?} by {motion:?}");
                }
            }
            14 => {
                let shape = g.shape(0)?;
                let motion = g.motion()?;
                let mask = g.mask()?;
                let responses = [Response::Slide, Response::Stop, Response::Cross, Response::Bounce];
                let pick = *g.u.choose(&[0usize, 1, 2, 3, 4])?;
                let all_cross = pick == 2;
                for w in &worlds {
                    check_move_shape(w, &model, &shape, motion, mask, |h: Handle| {
                        if pick < 4 {
                            responses[pick]
                        } else if h.index().is_multiple_of(2) {
                            Response::OneWay { up: Vec2::Y }
                        } else {
                            Response::Slide
                        }
                    }, all_cross);
                }
            }
            _ => update(&mut worlds, &mut model),
        }
        for w in &worlds {
            assert_eq!(w.len(), model.live.len());
        }
    }
    update(&mut worlds, &mut model);
    Ok(())
}

/// `move_by` on the model: the result the worlds must give, and the object moved when `Ok`.
fn move_by(o: &mut Live, delta: Vec2) -> core::result::Result<(), WorldError> {
    if !delta.is_finite() {
        return Err(WorldError::NonFiniteMotion);
    }
    let moved = o.shape.transformed(&Pose::from_translation(delta));
    if !finite_box(&moved) {
        return Err(WorldError::NonFiniteShape);
    }
    if o.kind == ObjectKind::Fast {
        let (start, motion) = o.sweep.clone().unwrap_or((o.shape.clone(), Vec2::ZERO));
        let motion = motion + delta;
        if !motion.is_finite() {
            return Err(WorldError::NonFiniteMotion);
        }
        o.sweep = Some((start, motion));
    }
    o.shape = moved;
    Ok(())
}

/// `move_shape` never panics, and what it reports holds: a finite `delta` (zero for a motion
/// that is not finite), every contact with a live static object `mask` accepts at a time in
/// `[0, 1]` with a unit normal, and with every object crossed, the whole motion.
fn check_move_shape(
    w: &CollisionWorld<u32>,
    model: &Model,
    shape: &Shape,
    motion: Vec2,
    mask: u64,
    respond: impl Fn(Handle) -> Response,
    all_cross: bool,
) {
    let m = w.move_shape(shape, motion, mask, |h, _| respond(h));
    assert!(m.delta.is_finite(), "{m:?}");
    if !motion.is_finite() {
        assert_eq!(m.delta, Vec2::ZERO);
        assert!(m.contacts.is_empty());
    }
    // (A motion that could carry the shape near `±f32::MAX` is documented to move nothing.)
    if all_cross && motion.is_finite() && motion.abs().max_element() <= 1e30 {
        assert_eq!(m.delta, motion, "crossing everything moves all the way");
    }
    for c in &m.contacts {
        let o = &model.live[model.find(c.handle).expect("a live object")];
        assert_eq!(o.kind, ObjectKind::Static, "only static objects are met");
        assert!(o.filter.layer & mask != 0, "only objects the mask accepts");
        assert!((0.0..=1.0).contains(&c.t), "{c:?}");
        assert!((c.normal.length() - 1.0).abs() < 1e-3, "{c:?}");
        assert!(c.point.is_finite(), "{c:?}");
    }
}

fn update(worlds: &mut [CollisionWorld<u32>; 2], model: &mut Model) {
    let want = model.pairs();
    let handles: Vec<(Handle, Handle)> = want.iter().map(|p| (p.0, p.1)).collect();
    let began = minus(&handles, &model.previous);
    let ended = minus(&model.previous, &handles);
    for w in worlds.iter_mut() {
        let stats = w.update();
        assert!(w.contacts().is_empty() || w.contacts().len() == w.pairs().len(), "a contact per pair");
        let contacts = w.contacts().iter().map(Some).chain(std::iter::repeat(None));
        let got: Vec<ModelPair> = w.pairs().iter().zip(contacts).map(|(p, c)| (p.a, p.b, c.map(parts), p.toi)).collect();
        assert_eq!(got, want, "pairs");
        assert_eq!(w.began(), began, "began");
        assert_eq!(w.ended(), ended, "ended");
        assert_eq!(
            (stats.objects, stats.pairs, stats.began, stats.ended),
            (model.live.len(), want.len(), began.len(), ended.len())
        );
        assert!(stats.candidates >= stats.pairs);
    }
    // The motions are used up.
    for o in &mut model.live {
        o.sweep = None;
    }
    model.previous = handles;
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let _ = run(&mut u);
});
