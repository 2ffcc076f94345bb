//! [`JsWorld`]: a [`CollisionWorld`], `WorldCore` in JavaScript, the engine under the
//! package's `World` (which keeps the user's values on the JavaScript side, by slot).
//!
//! Handles cross the boundary as JavaScript numbers, `index + generation * 2^32` (exact in an
//! `f64`); lists of handles come back as `Float64Array`s. Each object has a position (where
//! its shape, given in its own frame, was placed, moved by every move since) and the
//! [`Response`] that [`JsWorld::move_shape`] gives it.

use collide2d::math::{Pose, Vec2};
use collide2d::{BroadPhase, CollisionWorld, Filter, Handle, ObjectKind, Response, WorldError};
use wasm_bindgen::prelude::{wasm_bindgen, JsError};

use crate::query::contact_numbers;
use crate::scratch;
use crate::shape::{finite, JsShape};

/// 2^32: a handle's generation is counted in units of this.
const GENERATION: f64 = 4_294_967_296.0;

/// A handle as a JavaScript number.
pub(crate) fn number(h: Handle) -> f64 {
    f64::from(h.index()) + f64::from(h.generation()) * GENERATION
}

/// The kinds, in the order of their codes (0, 1, 2), as the package's strings name them.
const KINDS: [ObjectKind; 3] = [ObjectKind::Dynamic, ObjectKind::Static, ObjectKind::Fast];

/// A response from its code (0 slide, 1 stop, 2 cross, 3 bounce, 4 one-way solid from `up`).
pub(crate) fn response(code: u8, up: Vec2) -> Result<Response, JsError> {
    Ok(match code {
        0 => Response::Slide,
        1 => Response::Stop,
        2 => Response::Cross,
        3 => Response::Bounce,
        4 if up.is_finite() => Response::OneWay { up },
        4 => return Err(JsError::new(&format!("up must be finite, got {up}"))),
        _ => {
            return Err(JsError::new(&format!(
                "response code must be 0 to 4, got {code}"
            )))
        }
    })
}

/// A world of objects and their colliding pairs (see the package's `World`).
#[wasm_bindgen(js_name = WorldCore)]
#[derive(Debug)]
pub struct JsWorld {
    pub(crate) world: CollisionWorld<Response>,
    /// By slot: the handle of the object there now, or of the last one.
    handles: Vec<Handle>,
    /// By slot: the object's position.
    positions: Vec<Vec2>,
}

#[wasm_bindgen(js_class = WorldCore)]
impl JsWorld {
    /// An empty world whose broad phase is a tree of boxes enlarged by `margin` (any mix of
    /// sizes).
    #[must_use]
    pub fn tree(margin: f32) -> JsWorld {
        JsWorld::with(BroadPhase::tree(margin))
    }

    /// An empty world whose broad phase is a uniform grid of `cellSize` (many similar small
    /// objects: a cell should hold the usual object whole).
    pub fn grid(#[wasm_bindgen(js_name = cellSize)] cell_size: f32) -> Result<JsWorld, JsError> {
        BroadPhase::grid(cell_size)
            .map(JsWorld::with)
            .map_err(|e| JsError::new(&e.to_string()))
    }

    /// Whether [`update`](Self::update) computes a contact for each pair.
    #[wasm_bindgen(js_name = setContacts)]
    pub fn set_contacts(&mut self, on: bool) {
        self.world.set_contacts(on);
    }

    /// How many objects there are.
    #[wasm_bindgen(getter)]
    #[must_use]
    pub fn size(&self) -> u32 {
        u32::try_from(self.world.len()).unwrap_or(u32::MAX)
    }

    /// Adds `shape` (in its own frame) placed at `(x, y)`; returns its handle. `kind`: 0
    /// dynamic, 1 static, 2 fast; `response` as [`response`].
    #[allow(clippy::too_many_arguments)]
    pub fn insert(
        &mut self,
        shape: &JsShape,
        x: f32,
        y: f32,
        layer: u32,
        mask: u32,
        kind: u8,
        response_code: u8,
        up_x: f32,
        up_y: f32,
    ) -> Result<f64, JsError> {
        let at = Vec2::new(finite("x", x)?, finite("y", y)?);
        let kind = *KINDS
            .get(usize::from(kind))
            .ok_or_else(|| JsError::new(&format!("kind code must be 0 to 2, got {kind}")))?;
        let respond = response(response_code, Vec2::new(up_x, up_y))?;
        let placed = shape.shape.transformed(&Pose::from_translation(at));
        let filter = Filter::new(u64::from(layer), u64::from(mask));
        let h = self
            .world
            .insert(placed, filter, kind, respond)
            .map_err(error)?;
        let i = h.index() as usize;
        if i == self.handles.len() {
            self.handles.push(h);
            self.positions.push(at);
        } else {
            self.handles[i] = h;
            self.positions[i] = at;
        }
        Ok(number(h))
    }

    /// Removes an object; its pairs end at the next update.
    pub fn remove(&mut self, handle: f64) -> Result<(), JsError> {
        let h = self.handle(handle)?;
        self.world.remove(h).map(drop).map_err(error)
    }

    /// True when `handle` names a live object.
    #[must_use]
    pub fn contains(&self, handle: f64) -> bool {
        self.lookup(handle).is_ok()
    }

    /// A copy of the object's shape, where it is now.
    pub fn shape(&self, handle: f64) -> Result<JsShape, JsError> {
        let shape = self.world.shape(self.handle(handle)?).map_err(error)?;
        Ok(JsShape {
            shape: shape.into_owned(),
        })
    }

    /// Replaces the object's shape with `shape` (in its own frame) placed at the object's
    /// position (a teleport: a fast object's motion so far is forgotten).
    #[wasm_bindgen(js_name = setShape)]
    pub fn set_shape(&mut self, handle: f64, shape: &JsShape) -> Result<(), JsError> {
        let h = self.handle(handle)?;
        let at = self.positions[h.index() as usize];
        let placed = shape.shape.transformed(&Pose::from_translation(at));
        self.world.set_shape(h, placed).map_err(error)
    }

    /// Writes the object's position, `[x, y]`.
    #[wasm_bindgen(js_name = rawPosition)]
    pub fn raw_position(&self, handle: f64) -> Result<(), JsError> {
        let p = self.positions[self.handle(handle)?.index() as usize];
        scratch::write(&[f64::from(p.x), f64::from(p.y)]);
        Ok(())
    }

    /// Sets the object's layer and mask.
    #[wasm_bindgen(js_name = setFilter)]
    pub fn set_filter(&mut self, handle: f64, layer: u32, mask: u32) -> Result<(), JsError> {
        let h = self.handle(handle)?;
        let filter = Filter::new(u64::from(layer), u64::from(mask));
        self.world.set_filter(h, filter).map_err(error)
    }

    /// Sets the response [`move_shape`](Self::move_shape) gives the object (codes as
    /// [`response`]).
    #[wasm_bindgen(js_name = setResponse)]
    pub fn set_response(
        &mut self,
        handle: f64,
        code: u8,
        up_x: f32,
        up_y: f32,
    ) -> Result<(), JsError> {
        let h = self.handle(handle)?;
        let respond = response(code, Vec2::new(up_x, up_y))?;
        *self.world.data_mut(h).map_err(error)? = respond;
        Ok(())
    }

    /// Moves the object by `(dx, dy)` (a fast object is swept along its motion at the next
    /// update).
    #[wasm_bindgen(js_name = moveBy)]
    pub fn move_by(&mut self, handle: f64, dx: f32, dy: f32) -> Result<(), JsError> {
        let h = self.handle(handle)?;
        self.step(h, Vec2::new(dx, dy)).map_err(error)
    }

    /// Moves the object to `(x, y)`: by the difference from its position.
    #[wasm_bindgen(js_name = setPosition)]
    pub fn set_position(&mut self, handle: f64, x: f32, y: f32) -> Result<(), JsError> {
        let h = self.handle(handle)?;
        self.place(h, Vec2::new(x, y)).map_err(error)
    }

    /// Moves object `handles[i]` by `(deltas[2i], deltas[2i + 1])`, for every `i`. All handles
    /// are checked first, so a stale one moves nothing; a non-finite delta stops the loop there.
    #[wasm_bindgen(js_name = moveMany)]
    pub fn move_many(&mut self, handles: &[f64], deltas: &[f32]) -> Result<(), JsError> {
        self.each(handles, deltas, false)
    }

    /// Moves object `handles[i]` to `(positions[2i], positions[2i + 1])`, for every `i`, as
    /// [`move_many`](Self::move_many) does.
    #[wasm_bindgen(js_name = setPositions)]
    pub fn set_positions(&mut self, handles: &[f64], positions: &[f32]) -> Result<(), JsError> {
        self.each(handles, positions, true)
    }
}

impl JsWorld {
    fn with(broad: BroadPhase) -> JsWorld {
        JsWorld {
            world: CollisionWorld::new(broad),
            handles: Vec::new(),
            positions: Vec::new(),
        }
    }

    /// The live object's handle from its number; an error naming it otherwise.
    pub(crate) fn handle(&self, n: f64) -> Result<Handle, JsError> {
        self.lookup(n).map_err(|e| JsError::new(&e))
    }

    /// [`handle`](Self::handle), with the message as a string.
    pub(crate) fn lookup(&self, n: f64) -> Result<Handle, String> {
        let (index, generation) = (n % GENERATION, (n / GENERATION).floor());
        if !(n >= 0.0 && n.fract() == 0.0 && generation < GENERATION) {
            return Err(format!("handle must be a handle number, got {n}"));
        }
        match self.handles.get(index as usize) {
            Some(&h) if f64::from(h.generation()) == generation && self.world.contains(h) => Ok(h),
            _ => Err(format!(
                "handle {index}v{generation} does not name a live object"
            )),
        }
    }

    /// Moves a live object by `delta`, keeping its position.
    fn step(&mut self, h: Handle, delta: Vec2) -> Result<(), WorldError> {
        self.world.move_by(h, delta)?;
        self.positions[h.index() as usize] += delta;
        Ok(())
    }

    /// Moves a live object to `to`: by the difference, rounded, while its position becomes
    /// `to` exactly (so rounding never builds up in positions set frame after frame).
    fn place(&mut self, h: Handle, to: Vec2) -> Result<(), WorldError> {
        let i = h.index() as usize;
        self.world.move_by(h, to - self.positions[i])?;
        self.positions[i] = to;
        Ok(())
    }

    /// Moves `handles[i]` to (`absolute`) or by `(xy[2i], xy[2i + 1])`, after checking them all.
    fn each(&mut self, handles: &[f64], xy: &[f32], absolute: bool) -> Result<(), JsError> {
        if xy.len() != handles.len() * 2 {
            return Err(JsError::new(&format!(
                "expected 2 numbers per handle ({}), got {}",
                handles.len() * 2,
                xy.len()
            )));
        }
        for (i, &n) in handles.iter().enumerate() {
            self.lookup(n)
                .map_err(|e| JsError::new(&format!("handles[{i}]: {e}")))?;
        }
        for (i, (&n, p)) in handles.iter().zip(xy.chunks_exact(2)).enumerate() {
            let h = self.handles[(n % GENERATION) as usize];
            let v = Vec2::new(p[0], p[1]);
            let moved = if absolute {
                self.place(h, v)
            } else {
                self.step(h, v)
            };
            moved.map_err(|e| JsError::new(&format!("handles[{i}]: {e}")))?;
        }
        Ok(())
    }

    /// The world as Rust sees it (for tests).
    #[cfg(test)]
    pub(crate) fn inner(&self) -> &CollisionWorld<Response> {
        &self.world
    }

    /// The handle object behind a handle number (for tests).
    #[cfg(test)]
    pub(crate) fn handle_of(&self, n: f64) -> Handle {
        self.handles[(n % GENERATION) as usize]
    }
}

/// A world error as a JavaScript `Error`.
pub(crate) fn error(e: WorldError) -> JsError {
    JsError::new(&e.to_string())
}

/// A contact's numbers and handles, for [`contact_numbers`] users elsewhere.
pub(crate) fn contact_list(contacts: &[collide2d::Contact]) -> Vec<f32> {
    contacts
        .iter()
        .flat_map(|c| contact_numbers(c).map(|v| v as f32))
        .collect()
}
