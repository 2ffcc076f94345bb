//! The math types: glam's [`Vec2`] (`f32`) and a rigid [`Pose`].

pub use glam::Vec2;

/// The square root, correctly rounded with or without `std` (`libm`'s is correctly rounded
/// too), so results are the same bits in `no_std` builds.
#[inline]
pub(crate) fn sqrt(x: f64) -> f64 {
    #[cfg(feature = "std")]
    {
        x.sqrt()
    }
    #[cfg(not(feature = "std"))]
    {
        libm::sqrt(x)
    }
}

/// [`sqrt`] for `f32`.
#[inline]
pub(crate) fn sqrtf(x: f32) -> f32 {
    #[cfg(feature = "std")]
    {
        x.sqrt()
    }
    #[cfg(not(feature = "std"))]
    {
        libm::sqrtf(x)
    }
}

/// A rigid placement: a rotation by `angle` (radians, counter-clockwise) about the origin, then a
/// translation by `position`.
///
/// Shapes are defined in their own frame; [`Shape::transformed`](crate::Shape::transformed)
/// places them. The rotation is stored as its unit vector `(cos, sin)` so it is computed once.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Pose {
    /// Where the shape's origin goes.
    pub position: Vec2,
    /// `(cos angle, sin angle)`.
    pub rotation: Vec2,
}

impl Pose {
    /// No rotation, no translation.
    pub const IDENTITY: Pose = Pose {
        position: Vec2::ZERO,
        rotation: Vec2::X,
    };

    /// A pose from a position and an angle in radians.
    #[must_use]
    pub fn new(position: Vec2, angle: f32) -> Pose {
        Pose {
            position,
            rotation: rotation(angle),
        }
    }

    /// A pure translation.
    #[must_use]
    pub fn from_translation(position: Vec2) -> Pose {
        Pose {
            position,
            rotation: Vec2::X,
        }
    }

    /// The rotation angle in radians, in `(-pi, pi]`.
    #[must_use]
    pub fn angle(&self) -> f32 {
        angle_of(self.rotation)
    }

    /// Maps a point from the shape's frame to the world.
    #[must_use]
    #[inline]
    pub fn transform_point(&self, p: Vec2) -> Vec2 {
        self.rotation.rotate(p) + self.position
    }

    /// Rotates a direction (no translation).
    #[must_use]
    #[inline]
    pub fn transform_vector(&self, v: Vec2) -> Vec2 {
        self.rotation.rotate(v)
    }

    /// True when the pose does not rotate.
    #[must_use]
    #[inline]
    pub fn is_translation(&self) -> bool {
        self.rotation == Vec2::X
    }
}

impl Default for Pose {
    fn default() -> Self {
        Pose::IDENTITY
    }
}

/// `(cos angle, sin angle)`, the same bits on every platform (`libm`'s `sincosf`, not the
/// platform's C library).
#[must_use]
#[inline]
pub(crate) fn rotation(angle: f32) -> Vec2 {
    let (sin, cos) = libm::sincosf(angle);
    Vec2::new(cos, sin)
}

/// The angle of `rotation` in radians, in `(-pi, pi]`, the same bits on every platform.
#[must_use]
#[inline]
pub(crate) fn angle_of(rotation: Vec2) -> f32 {
    libm::atan2f(rotation.y, rotation.x)
}
