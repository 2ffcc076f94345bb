//! [`CollisionWorld::debug_draw`]: the one walk every drawer shares.

use super::{draw_shape, DebugDraw, DrawOptions, DrawnObject, DrawnPair, Layer, Role};
use crate::broad::BroadBoxKind;
use crate::query::{contact, Contact};
use crate::world::{CollisionWorld, Handle, ObjectKind};
use alloc::vec::Vec;

impl<T> CollisionWorld<T> {
    /// Draws the world as of its last [`update`](Self::update) through `draw`, in the order of
    /// the [`Layer`]s: with `options`, the broad phase and bounding boxes beneath; then every
    /// object (unnamed ones first, colliding ones above the others, each layer in handle
    /// order); the contact points and normals of each pair (computed here when the world's
    /// contacts are off); and last the labels of named objects, colliding ones first.
    /// `name(handle, data)` names an object, or leaves it in the crowd with `None`.
    ///
    /// See the [module](crate::debug_draw) for an example.
    pub fn debug_draw<S: AsRef<str>>(
        &self,
        draw: &mut (impl DebugDraw + ?Sized),
        options: &DrawOptions,
        name: impl Fn(Handle, &T) -> Option<S>,
    ) {
        // Which slots collide: one flag each, indexed by handle.
        let mut colliding = Vec::new();
        for pair in self.pairs() {
            for h in [pair.a, pair.b] {
                let i = h.index() as usize;
                if colliding.len() <= i {
                    colliding.resize(i + 1, false);
                }
                colliding[i] = true;
            }
        }
        let is_colliding = |h: Handle| colliding.get(h.index() as usize).copied() == Some(true);

        if options.broad_phase {
            let boxes = self.broad_phase_boxes();
            draw.begin_layer(Layer::BroadPhase, boxes.len());
            for b in &boxes {
                let object = match b.kind {
                    BroadBoxKind::Large { object } | BroadBoxKind::Leaf { object, .. } => {
                        Some(object)
                    }
                    _ => None,
                };
                let named = object.and_then(|h| name(h, self.data(h).ok()?));
                draw.broad_box(b, named.as_ref().map(AsRef::as_ref));
            }
            draw.end_layer(Layer::BroadPhase);
        }

        // Calls `each` for the objects of one layer, in handle order.
        let visit = |draw: &mut dyn FnMut(&DrawnObject<'_>),
                     keep: &dyn Fn(&DrawnObject<'_>) -> bool| {
            for (handle, shape, data) in self.iter() {
                let label = name(handle, data);
                let kind = self.kind(handle).unwrap_or(ObjectKind::Dynamic);
                let object = DrawnObject {
                    handle,
                    shape: &shape,
                    kind,
                    colliding: is_colliding(handle),
                    name: label.as_ref().map(AsRef::as_ref),
                };
                if keep(&object) {
                    draw(&object);
                }
            }
        };
        let count = |keep: &dyn Fn(&DrawnObject<'_>) -> bool| {
            let mut n = 0;
            visit(&mut |_| n += 1, keep);
            n
        };

        if options.bounding_boxes {
            draw.begin_layer(Layer::BoundingBoxes, self.len());
            visit(&mut |o| draw.bounding_box(o), &|_| true);
            draw.end_layer(Layer::BoundingBoxes);
        }

        let layers: [(Layer, bool, bool); 4] = [
            (Layer::Crowd, false, false),
            (Layer::CrowdColliding, false, true),
            (Layer::Named, true, false),
            (Layer::NamedColliding, true, true),
        ];
        for (layer, named, hit) in layers {
            let keep = |o: &DrawnObject<'_>| o.name.is_some() == named && o.colliding == hit;
            draw.begin_layer(layer, count(&keep));
            let role = Role::Object {
                colliding: hit,
                named,
            };
            let mut each = |o: &DrawnObject<'_>| {
                draw.begin_object(o);
                draw_shape(draw, o.shape, role, options.convex_parts);
                draw.end_object(o);
            };
            if layer == Layer::Crowd {
                // Static objects (tiles, walls) beneath the moving crowd.
                visit(&mut each, &|o| keep(o) && o.kind == ObjectKind::Static);
                visit(&mut each, &|o| keep(o) && o.kind != ObjectKind::Static);
            } else {
                visit(&mut each, &keep);
            }
            draw.end_layer(layer);
        }

        if options.contacts {
            draw.begin_layer(Layer::Contacts, self.pairs().len());
            for (i, pair) in self.pairs().iter().enumerate() {
                let Some(contact) = self.pair_contact(i) else {
                    continue;
                };
                let names = [pair.a, pair.b].map(|h| self.data(h).ok().and_then(|d| name(h, d)));
                let drawn = DrawnPair {
                    a: pair.a,
                    b: pair.b,
                    a_name: names[0].as_ref().map(AsRef::as_ref),
                    b_name: names[1].as_ref().map(AsRef::as_ref),
                    contact: &contact,
                };
                draw.begin_pair(&drawn);
                for &p in contact.points.iter() {
                    draw.point(p, Role::ContactPoint);
                    draw.arrow(p, contact.normal, Role::Normal);
                }
                draw.end_pair(&drawn);
            }
            draw.end_layer(Layer::Contacts);
        }

        if options.labels {
            let named = |o: &DrawnObject<'_>| o.name.is_some();
            draw.begin_layer(Layer::Labels, count(&named));
            visit(&mut |o| draw.label(o), &|o| named(o) && o.colliding);
            visit(&mut |o| draw.label(o), &|o| named(o) && !o.colliding);
            draw.end_layer(Layer::Labels);
        }
    }

    /// The contact of the `i`th pair: the world's when contacts are on, else computed.
    fn pair_contact(&self, i: usize) -> Option<Contact> {
        if let Some(c) = self.contacts().get(i) {
            return Some(*c);
        }
        let pair = self.pairs().get(i)?;
        let (a, b) = (self.shape(pair.a).ok()?, self.shape(pair.b).ok()?);
        contact(&a, &b)
    }
}

#[cfg(test)]
mod tests;
