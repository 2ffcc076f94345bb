//! [`Quick`]: a circle or a box in 16 bytes, as the world keeps them (see `shapes.rs`): moving
//! one writes 16 bytes, and the narrow phase's random reads of its usual pairs touch a quarter
//! of a cache line instead of a whole `Shape`.

use crate::exact::cmp_dist2;
use crate::math::Vec2;
use crate::query::{ray_box, ray_circle, Ray, RayHit};
use crate::shape::{Aabb, Circle, Shape};
use glam::{BVec4A, Vec4, Vec4Swizzles};

/// [`Quick::kind`] of a box.
const BOX: u32 = 0;
/// [`Quick::kind`] of a circle.
const CIRCLE: u32 = 2;

/// A circle as `[center.x, center.y, radius, NaN]`, a box as `[min.x, min.y, max.x, max.y]`, any
/// other shape (or an empty slot) as all NaN. World shapes are finite, so the NaNs tell the
/// kinds apart.
#[derive(Clone, Copy, Debug)]
#[repr(align(16))]
pub(super) struct Quick([f32; 4]);

impl Quick {
    /// Any shape but a circle or a box, or no shape: test the full shapes.
    pub(super) const OTHER: Quick = Quick([f32::NAN; 4]);

    /// The record of `shape`.
    #[inline]
    pub(super) fn of(shape: &Shape) -> Quick {
        match shape {
            Shape::Circle(c) => Quick([c.center().x, c.center().y, c.radius(), f32::NAN]),
            Shape::Aabb(b) => Quick([b.min().x, b.min().y, b.max().x, b.max().y]),
            _ => Quick::OTHER,
        }
    }

    /// 0 for a box, 2 for a circle, 3 for another shape: the NaN lanes 2 and 3 as bits, read
    /// with one vector compare.
    #[inline(always)]
    fn kind(&self) -> u32 {
        Vec4::from_array(self.0).is_nan_mask().bitmask() >> 2
    }

    /// True for the record of a circle or a box.
    #[inline(always)]
    pub(super) fn is_circle_or_box(&self) -> bool {
        self.kind() & 1 == 0
    }

    /// `Some(true)` for a circle's record, `Some(false)` for a box's, `None` for another
    /// shape's.
    #[inline]
    pub(super) fn circle_or_box(&self) -> Option<bool> {
        match self.kind() {
            CIRCLE => Some(true),
            BOX => Some(false),
            _ => None,
        }
    }

    /// The circle or box this is the record of, `None` for [`OTHER`](Self::OTHER).
    #[inline]
    pub(super) fn shape(&self) -> Option<Shape> {
        let [a, b, c, d] = self.0;
        match self.kind() {
            BOX => Some(Aabb::raw(Vec2::new(a, b), Vec2::new(c, d)).into()),
            CIRCLE => Some(Circle::raw(Vec2::new(a, b), c).into()),
            _ => None,
        }
    }

    /// The record of its circle or box moved by `delta`, and the moved shape's bounding box:
    /// the numbers of `Circle::aabb` and `Shape::transformed` by a translation. `None` when a
    /// moved coordinate is not finite (so too when `delta` is not).
    ///
    /// Circles and boxes take the same path, picked with vector masks: the kinds of a world's
    /// objects come in no order a branch could learn.
    #[inline(always)]
    pub(super) fn translated(&self, delta: Vec2) -> Option<(Quick, Aabb)> {
        debug_assert!(self.is_circle_or_box());
        let v = Vec4::from_array(self.0);
        let circle = BVec4A::splat(self.kind() == CIRCLE);
        // A box moves all four lanes; a circle its center, and its radius keeps its bits.
        let still = BVec4A::new(false, false, true, true) & circle;
        let moved = Vec4::select(still, v, v + Vec4::new(delta.x, delta.y, delta.x, delta.y));
        if !Vec4::select(still, Vec4::ZERO, moved).is_finite() {
            return None;
        }
        Some((Quick(moved.to_array()), bounds(moved, circle)))
    }

    /// [`cast_ray`](crate::cast_ray) of the circle or box this is the record of, the same bits,
    /// without building the [`Shape`]; `None` for [`OTHER`](Self::OTHER). For a finite ray and
    /// a `max_t >= 0`. Inlined as `ray_circle` is.
    #[cfg_attr(target_arch = "x86_64", inline(always))]
    #[cfg_attr(not(target_arch = "x86_64"), inline)]
    pub(super) fn cast_ray(&self, ray: &Ray, max_t: f32) -> Option<Option<RayHit>> {
        let [a, b, c, d] = self.0;
        match self.kind() {
            BOX => Some(ray_box(Vec2::new(a, b), Vec2::new(c, d), ray, max_t)),
            CIRCLE => Some(ray_circle(Vec2::new(a, b), c, ray, max_t)),
            _ => None,
        }
    }

    /// [`translated`](Self::translated) of a record known to be a circle's (`circle`) or a
    /// box's, by one path for that kind: for a world's fast objects, which keep their kind in
    /// a byte the move reads anyway (bullets: one kind, so the branch is learned). The same
    /// numbers.
    #[inline(always)]
    pub(super) fn translated_as(&self, delta: Vec2, circle: bool) -> Option<(Quick, Aabb)> {
        debug_assert_eq!(self.circle_or_box(), Some(circle));
        let v = Vec4::from_array(self.0);
        if circle {
            // The center moves; adding -0 keeps the radius's bits and the NaN that marks a
            // circle (`r + -0` is `r`, `-0` included).
            let moved = v + Vec4::new(delta.x, delta.y, -0.0, -0.0);
            if moved.abs().cmplt(Vec4::INFINITY).bitmask() & 0b11 != 0b11 {
                return None;
            }
            Some((Quick(moved.to_array()), bounds(moved, BVec4A::splat(true))))
        } else {
            let moved = v + Vec4::new(delta.x, delta.y, delta.x, delta.y);
            if !moved.is_finite() {
                return None;
            }
            Some((Quick(moved.to_array()), bounds(moved, BVec4A::splat(false))))
        }
    }

    /// The bounding box of its circle or box (the numbers of [`Shape::aabb`]).
    #[inline(always)]
    pub(super) fn aabb(&self) -> Aabb {
        debug_assert!(self.is_circle_or_box());
        bounds(
            Vec4::from_array(self.0),
            BVec4A::splat(self.kind() == CIRCLE),
        )
    }
}

/// The bounding box of record `v`, a circle's when `circle` is all true: a disc's box (finite:
/// clamped to `±f32::MAX`); a box's is its record.
#[inline(always)]
fn bounds(v: Vec4, circle: BVec4A) -> Aabb {
    let disc = Circle::raw(v.xy(), v.z).aabb();
    let disc = Vec4::new(disc.min().x, disc.min().y, disc.max().x, disc.max().y);
    let b = Vec4::select(circle, disc, v);
    Aabb::raw(b.xy(), b.zw())
}

/// [`intersects`](crate::query::intersects) of the shapes behind `a` and `b` when both are
/// circles or boxes, else `None`: the same predicates as the dispatch (`circle_circle`,
/// `circle_aabb`, `aabb_aabb`), decided exactly, so the same answers.
///
/// The kinds of a world's pairs come in no order a branch could learn, so every pair with a
/// circle takes one path, picked with vector masks. Each record is read as a box, a circle as the point of its
/// center, and a radius (0 for a box). Per axis, `lo` is the larger `min` and `hi` the smaller
/// `max`: the boxes overlap when `lo <= hi` on both axes, and a disc's gap on that axis is
/// `lo - min(hi, lo)`, the numbers of the circle–box and circle–circle tests (`center -
/// nearest point` and `center - center`, up to sign, which rounding keeps). The disc test
/// against `r1 + r2` is exact (`cmp_dist2`); two boxes take the box test alone.
#[inline(always)]
pub(super) fn intersects(a: &Quick, b: &Quick) -> Option<bool> {
    let (va, vb) = (Vec4::from_array(a.0), Vec4::from_array(b.0));
    // Lanes 2 and 3 of both records: NaN in another shape's lane 2, a circle's lane 3.
    let kinds = Vec4::new(va.z, va.w, vb.z, vb.w).is_nan_mask().bitmask();
    if kinds & 0b0101 != 0 {
        return None;
    }
    if kinds == 0 {
        // Two boxes: `a.min <= b.max` and `b.min <= a.max` as one four-lane compare, without
        // the disc test's work. A branch the kinds' order makes a coin toss, but the boxes'
        // test alone costs a fifth of the instructions.
        return Some(
            Vec4::new(va.x, va.y, vb.x, vb.y)
                .cmple(Vec4::new(vb.z, vb.w, va.z, va.w))
                .all(),
        );
    }
    // A circle's mask in every lane, from its NaN lane: one shuffle, one compare.
    let (a_circle, b_circle) = (va.wwww().is_nan_mask(), vb.wwww().is_nan_mask());
    let (a_box, b_box) = (
        Vec4::select(a_circle, va.xyxy(), va),
        Vec4::select(b_circle, vb.xyxy(), vb),
    );
    let (lo, hi) = (a_box.max(b_box), a_box.min(b_box).zwzw());
    let (p, q) = (lo.xy(), lo.min(hi).xy());
    // A circle's radius, a box's 0.
    let (ra, rb) = (
        Vec4::select(a_circle, va, Vec4::ZERO).z,
        Vec4::select(b_circle, vb, Vec4::ZERO).z,
    );
    Some(cmp_dist2(p, q, ra, rb).is_le())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Capsule;
    use alloc::vec::Vec;

    #[test]
    fn quick_test_agrees_with_the_full_one() {
        // Seeded circles and boxes near each other (touching ones included: integer
        // coordinates), and a capsule, which has no record.
        let mut x = 987_654_321u32;
        let mut next = |m: u32| {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            ((x >> 16) % m) as f32
        };
        let mut shapes: Vec<Shape> = Vec::new();
        for i in 0..300 {
            let (px, py) = (next(12), next(12));
            shapes.push(if i % 2 == 0 {
                Shape::Circle(Circle::raw(Vec2::new(px, py), next(4) + 0.5 * next(2)))
            } else {
                let (w, h) = (next(4), next(4));
                Shape::Aabb(Aabb::raw(Vec2::new(px, py), Vec2::new(px + w, py + h)))
            });
        }
        let capsule = Shape::from(Capsule::new(Vec2::ZERO, Vec2::new(3.0, 1.0), 1.0).unwrap());
        assert!(intersects(&Quick::of(&shapes[0]), &Quick::of(&capsule)).is_none());
        let mut hits = 0;
        for a in &shapes {
            for b in &shapes {
                let got = intersects(&Quick::of(a), &Quick::of(b));
                let want = crate::query::intersects(a, b);
                assert_eq!(got, Some(want), "{a:?} {b:?}");
                hits += usize::from(want);
            }
        }
        assert!(hits > 1000 && hits < 80_000, "{hits}");
        assert!(intersects(&Quick::OTHER, &Quick::of(&shapes[1])).is_none());
        // A move by the record's known kind gives the bits of the move of any kind, refusals
        // included (past `f32::MAX`, NaN); touching `-0` radii too.
        shapes.push(Shape::Circle(Circle::raw(Vec2::new(1.0, 2.0), -0.0)));
        let bits = |m: Option<(Quick, Aabb)>| {
            m.map(|(q, b)| {
                (
                    q.0.map(f32::to_bits),
                    [b.min(), b.max()].map(|p| p.to_array()),
                )
            })
        };
        for shape in &shapes {
            let record = Quick::of(shape);
            let circle = record.circle_or_box().unwrap();
            let far = f32::MAX * (next(3) - 1.0);
            for delta in [
                Vec2::new(next(9) - 4.5, -0.0),
                Vec2::new(far, 1.0),
                Vec2::new(2.0, far),
                Vec2::new(f32::NAN, 0.0),
            ] {
                let moved = record.translated(delta);
                assert_eq!(
                    bits(record.translated_as(delta, circle)),
                    bits(moved),
                    "{shape:?} {delta}"
                );
                if let Some((moved, _)) = moved {
                    let again = Vec2::new(far, far);
                    assert_eq!(
                        bits(moved.translated_as(again, circle)),
                        bits(moved.translated(again))
                    );
                }
            }
        }
        assert_eq!(Quick::OTHER.circle_or_box(), None);
    }
}
