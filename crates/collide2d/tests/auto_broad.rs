//! `BroadPhase::auto`, the default: what it chooses for which objects, that it chooses again as
//! their number doubles or halves, and that whatever it chooses (and whenever it switches) the
//! pairs and events are those of a fixed tree, bit for bit.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use collide2d::math::Vec2;
use collide2d::{
    Aabb, BroadPhase, BroadPhaseKind, Circle, CollisionWorld, Filter, Handle, ObjectKind, Shape,
};

mod support;
use support::scenes::{filter, Rng};

fn disc(at: Vec2, r: f32) -> Shape {
    Circle::new(at, r).unwrap().into()
}

/// The pairs, then the began and ended events, of a world's last update.
type Report = [Vec<(Handle, Handle)>; 3];

/// Everything an update reports, to compare two worlds.
fn report<T>(w: &CollisionWorld<T>) -> Report {
    [
        w.pairs().iter().map(|p| (p.a, p.b)).collect(),
        w.began().to_vec(),
        w.ended().to_vec(),
    ]
}

#[test]
fn the_default_is_auto() {
    assert_eq!(BroadPhase::default(), BroadPhase::auto());
}

#[test]
fn few_objects_or_a_static_level_get_the_tree() {
    let tree = BroadPhaseKind::Tree { margin: 0.1 };
    let mut world = CollisionWorld::new(BroadPhase::auto());
    assert_eq!(world.broad_phase_kind(), tree, "empty");
    for i in 0..100 {
        let at = Vec2::new(i as f32 * 3.0, 0.0);
        world
            .insert(disc(at, 1.0), Filter::DEFAULT, ObjectKind::Dynamic, ())
            .unwrap();
    }
    assert_eq!(world.broad_phase_kind(), tree, "a hundred movers");
    let mut level = CollisionWorld::new(BroadPhase::auto());
    for i in 0..2000 {
        let at = Vec2::new((i % 50) as f32 * 2.0, (i / 50) as f32 * 2.0);
        let tile = Aabb::new(at, at + Vec2::ONE).unwrap().into();
        level
            .insert(tile, Filter::DEFAULT, ObjectKind::Static, ())
            .unwrap();
    }
    assert_eq!(level.broad_phase_kind(), tree, "static tiles");
}

#[test]
fn many_movers_of_similar_sizes_get_a_grid_and_mixed_sizes_the_tree() {
    let mut rng = Rng(5);
    let mut similar = CollisionWorld::new(BroadPhase::auto());
    let mut mixed = CollisionWorld::new(BroadPhase::auto());
    for _ in 0..1000 {
        let at = Vec2::new(rng.f(0.0, 100.0), rng.f(0.0, 100.0));
        similar
            .insert(
                disc(at, rng.f(0.4, 0.6)),
                Filter::DEFAULT,
                ObjectKind::Dynamic,
                (),
            )
            .unwrap();
        // Radii 0.5 to 50, log-uniform.
        let r = 0.5 * 100f32.powf(rng.f(0.0, 1.0));
        mixed
            .insert(disc(at, r), Filter::DEFAULT, ObjectKind::Dynamic, ())
            .unwrap();
    }
    // The widest 10% are 1.1 to 1.2 wide: cells 2 wide.
    assert_eq!(
        similar.broad_phase_kind(),
        BroadPhaseKind::Grid { cell_size: 2.0 }
    );
    assert_eq!(
        mixed.broad_phase_kind(),
        BroadPhaseKind::Tree { margin: 0.1 }
    );
}

/// A crowd that grows from nothing to 1,200 objects and shrinks back, moving, reshaped and
/// refiltered all along, some of it static: `auto` switches from the tree to a grid and back,
/// and every update's pairs and events equal a fixed tree's.
#[test]
fn switching_structures_never_changes_a_result() {
    let mut rng = Rng(11);
    let mut auto = CollisionWorld::new(BroadPhase::auto());
    let mut tree = CollisionWorld::new(BroadPhase::tree(0.3));
    let mut live: Vec<Handle> = Vec::new();
    let mut kinds = Vec::new();
    for frame in 0..120 {
        let grow = frame < 60;
        let (inserts, removals) = if grow { (20, 0) } else { (0, 20) };
        for _ in 0..inserts {
            let at = Vec2::new(rng.f(0.0, 60.0).round(), rng.f(0.0, 60.0));
            let shape = disc(at, rng.f(0.3, 0.8));
            let f = filter(&mut rng);
            let kind = if rng.below(8) == 0 {
                ObjectKind::Static
            } else {
                ObjectKind::Dynamic
            };
            let a = auto.insert(shape.clone(), f, kind, ()).unwrap();
            let t = tree.insert(shape, f, kind, ()).unwrap();
            assert_eq!(a, t);
            live.push(a);
        }
        for _ in 0..removals.min(live.len()) {
            let h = live.swap_remove(rng.below(live.len() as u64) as usize);
            auto.remove(h).unwrap();
            tree.remove(h).unwrap();
        }
        for &h in &live {
            match rng.below(10) {
                0 => {
                    let shape = disc(Vec2::new(rng.f(0.0, 60.0), rng.f(0.0, 60.0).round()), 0.5);
                    auto.set_shape(h, shape.clone()).unwrap();
                    tree.set_shape(h, shape).unwrap();
                }
                1 => {
                    let f = filter(&mut rng);
                    auto.set_filter(h, f).unwrap();
                    tree.set_filter(h, f).unwrap();
                }
                _ => {
                    let d = Vec2::new(rng.f(-0.5, 0.5), rng.f(-0.5, 0.5));
                    auto.move_by(h, d).unwrap();
                    tree.move_by(h, d).unwrap();
                }
            }
        }
        let (a, t) = (auto.update(), tree.update());
        assert_eq!(a, t, "frame {frame}");
        assert_eq!(report(&auto), report(&tree), "frame {frame}");
        kinds.push(auto.broad_phase_kind());
    }
    let grid = BroadPhaseKind::Grid { cell_size: 2.0 };
    let tree = BroadPhaseKind::Tree { margin: 0.1 };
    assert_eq!(kinds.first(), Some(&tree));
    assert!(kinds.contains(&grid), "{kinds:?}");
    assert_eq!(kinds.last(), Some(&tree));
}

/// A grid over a static level of 2,000 tiles of three sizes (indexed by cell once unchanged,
/// see `broad/grid/dense.rs`: a mover reads only the cells the widest and tallest tile can
/// reach from it) with 400 movers, tiles removed on the way, on cells of a power of two and
/// of another width: every update's pairs and events equal the tree's.
#[test]
fn movers_over_an_indexed_static_level_find_the_trees_pairs() {
    let mut rng = Rng(3);
    let mut worlds = [
        CollisionWorld::new(BroadPhase::grid(2.0).unwrap()),
        CollisionWorld::new(BroadPhase::auto()),
        CollisionWorld::new(BroadPhase::grid(1.7).unwrap()),
        CollisionWorld::new(BroadPhase::tree(0.0)),
    ];
    let mut tiles = Vec::new();
    for i in 0..2000 {
        // Touching tiles (integer corners) in rows with gaps, some at negative coordinates.
        let at = Vec2::new((i % 50) as f32 - 20.0, (i / 50) as f32 * 1.5 - 10.0);
        let size = [Vec2::ONE, Vec2::new(0.5, 1.0), Vec2::new(1.0, 0.5)][i % 3];
        let tile: Shape = Aabb::new(at, at + size).unwrap().into();
        let h: Vec<Handle> = worlds
            .iter_mut()
            .map(|w| {
                w.insert(tile.clone(), Filter::DEFAULT, ObjectKind::Static, ())
                    .unwrap()
            })
            .collect();
        tiles.push(h[0]);
    }
    let movers: Vec<Handle> = (0..400)
        .map(|_| {
            let shape = disc(
                Vec2::new(rng.f(-22.0, 32.0), rng.f(-12.0, 52.0)),
                rng.f(0.3, 0.9),
            );
            let h: Vec<Handle> = worlds
                .iter_mut()
                .map(|w| {
                    w.insert(shape.clone(), Filter::DEFAULT, ObjectKind::Dynamic, ())
                        .unwrap()
                })
                .collect();
            h[0]
        })
        .collect();
    for frame in 0..12 {
        if frame == 6 {
            // The level changes: its index is dropped, then rebuilt.
            for &t in tiles.iter().step_by(7) {
                for w in &mut worlds {
                    w.remove(t).unwrap();
                }
            }
        }
        for &m in &movers {
            let d = Vec2::new(rng.f(-0.6, 0.6), rng.f(-0.6, 0.6));
            for w in &mut worlds {
                w.move_by(m, d).unwrap();
            }
        }
        let stats: Vec<_> = worlds.iter_mut().map(|w| w.update()).collect();
        assert!(stats[3].pairs > 100, "{:?}", stats[3]);
        for w in &worlds[..3] {
            assert_eq!(report(w), report(&worlds[3]), "frame {frame}");
        }
    }
    assert_eq!(
        worlds[1].broad_phase_kind(),
        BroadPhaseKind::Grid { cell_size: 2.0 }
    );
}
