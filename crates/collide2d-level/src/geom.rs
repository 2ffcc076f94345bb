//! Map geometry in `f64` while it is placed (rotated, flipped, scaled, offset), then rounded
//! once into a collide2d [`Shape`].

use collide2d::limits::MAX_POLYGON_POINTS;
use collide2d::{
    Aabb, Capsule, Circle, Compound, ConvexPolygon, Obb, Point, Polygon, Segment, Shape,
};
use glam::DVec2;

use crate::error::ErrorKind;
use crate::options::Ellipses;

/// One map shape, in the editor's frame (y down) until [`AxisMap::Y_UP`] says otherwise.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Geom {
    /// An axis-aligned rectangle.
    Rect {
        min: DVec2,
        max: DVec2,
    },
    /// A rotated rectangle: `angle` radians from the x axis towards the y axis.
    Box {
        center: DVec2,
        half: DVec2,
        angle: f64,
    },
    /// The ellipse `center + u cos t + v sin t` (u, v: conjugate semi-diameters).
    Ellipse {
        center: DVec2,
        u: DVec2,
        v: DVec2,
    },
    /// A segment with a radius.
    Capsule {
        a: DVec2,
        b: DVec2,
        radius: f64,
    },
    Polygon(Vec<DVec2>),
    Polyline(Vec<DVec2>),
    Point(DVec2),
}

/// An axis-preserving map `p -> swap(p) * scale + offset` (`swap` exchanges x and y): tile
/// flips, a tile object's stretch, layer offsets and the y-up mirror are all of this kind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct AxisMap {
    pub swap: bool,
    pub scale: DVec2,
    pub offset: DVec2,
}

impl AxisMap {
    /// The mirror `y -> -y` of [`YAxis::Up`](crate::YAxis::Up).
    pub const Y_UP: AxisMap = AxisMap {
        swap: false,
        scale: DVec2::new(1.0, -1.0),
        offset: DVec2::ZERO,
    };

    /// A translation.
    pub fn translation(offset: DVec2) -> AxisMap {
        AxisMap {
            swap: false,
            scale: DVec2::ONE,
            offset,
        }
    }

    /// Tiled's flips of a `size` tile: the diagonal flip (x and y exchanged) first, then the
    /// horizontal and vertical ones, each within the tile.
    pub fn tile_flip(size: DVec2, h: bool, v: bool, d: bool) -> AxisMap {
        let size = if d { DVec2::new(size.y, size.x) } else { size };
        let sign = |flip: bool| if flip { -1.0 } else { 1.0 };
        AxisMap {
            swap: d,
            scale: DVec2::new(sign(h), sign(v)),
            offset: DVec2::new(if h { size.x } else { 0.0 }, if v { size.y } else { 0.0 }),
        }
    }

    fn vector(&self, p: DVec2) -> DVec2 {
        let p = if self.swap { DVec2::new(p.y, p.x) } else { p };
        p * self.scale
    }

    fn point(&self, p: DVec2) -> DVec2 {
        self.vector(p) + self.offset
    }
}

/// `(cos, sin)` of `degrees`, exact for multiples of 90.
fn cos_sin(degrees: f64) -> (f64, f64) {
    let turns = degrees.rem_euclid(360.0);
    match turns {
        0.0 => (1.0, 0.0),
        90.0 => (0.0, 1.0),
        180.0 => (-1.0, 0.0),
        270.0 => (0.0, -1.0),
        _ => {
            let (s, c) = degrees.to_radians().sin_cos();
            (c, s)
        }
    }
}

impl Geom {
    /// Turned by `degrees` about `pivot`, from the x axis towards the y axis (in the editors'
    /// y-down frame: clockwise on screen, as Tiled's `rotation`).
    pub fn rotated(self, pivot: DVec2, degrees: f64) -> Geom {
        if degrees == 0.0 {
            return self;
        }
        let (c, s) = cos_sin(degrees);
        let turn = |v: DVec2| DVec2::new(v.x * c - v.y * s, v.x * s + v.y * c);
        let about = |p: DVec2| pivot + turn(p - pivot);
        match self {
            Geom::Rect { min, max } if s == 0.0 || c == 0.0 => {
                let (a, b) = (about(min), about(max));
                Geom::Rect {
                    min: a.min(b),
                    max: a.max(b),
                }
            }
            Geom::Rect { min, max } => Geom::Box {
                center: about((min + max) * 0.5),
                half: (max - min) * 0.5,
                angle: degrees.to_radians(),
            },
            Geom::Box {
                center,
                half,
                angle,
            } => Geom::Box {
                center: about(center),
                half,
                angle: angle + degrees.to_radians(),
            },
            Geom::Ellipse { center, u, v } => Geom::Ellipse {
                center: about(center),
                u: turn(u),
                v: turn(v),
            },
            Geom::Capsule { a, b, radius } => Geom::Capsule {
                a: about(a),
                b: about(b),
                radius,
            },
            Geom::Polygon(points) => Geom::Polygon(points.into_iter().map(about).collect()),
            Geom::Polyline(points) => Geom::Polyline(points.into_iter().map(about).collect()),
            Geom::Point(p) => Geom::Point(about(p)),
        }
    }

    /// Mapped by `m`.
    ///
    /// # Errors
    /// A capsule stretched more along one axis than the other (no longer a capsule).
    pub fn mapped(self, m: &AxisMap) -> Result<Geom, ErrorKind> {
        let uniform = m.scale.x.abs() == m.scale.y.abs();
        Ok(match self {
            Geom::Rect { min, max } => {
                let (a, b) = (m.point(min), m.point(max));
                Geom::Rect {
                    min: a.min(b),
                    max: a.max(b),
                }
            }
            Geom::Box {
                center,
                half,
                angle,
            } if uniform => {
                // The box's x axis, mapped: exchanged, then mirrored per axis.
                let mut angle = if m.swap {
                    std::f64::consts::FRAC_PI_2 - angle
                } else {
                    angle
                };
                if m.scale.x < 0.0 {
                    angle = std::f64::consts::PI - angle;
                }
                if m.scale.y < 0.0 {
                    angle = -angle;
                }
                Geom::Box {
                    center: m.point(center),
                    half: half * m.scale.x.abs(),
                    angle,
                }
            }
            Geom::Box { .. } => {
                Geom::Polygon(self.box_corners().iter().map(|&p| m.point(p)).collect())
            }
            Geom::Ellipse { center, u, v } => Geom::Ellipse {
                center: m.point(center),
                u: m.vector(u),
                v: m.vector(v),
            },
            Geom::Capsule { a, b, radius } if uniform => Geom::Capsule {
                a: m.point(a),
                b: m.point(b),
                radius: radius * m.scale.x.abs(),
            },
            Geom::Capsule { .. } => {
                return Err(ErrorKind::Unsupported(
                    "a capsule stretched more along one axis than the other".to_string(),
                ))
            }
            Geom::Polygon(points) => {
                Geom::Polygon(points.into_iter().map(|p| m.point(p)).collect())
            }
            Geom::Polyline(points) => {
                Geom::Polyline(points.into_iter().map(|p| m.point(p)).collect())
            }
            Geom::Point(p) => Geom::Point(m.point(p)),
        })
    }

    fn box_corners(&self) -> Vec<DVec2> {
        let Geom::Box {
            center,
            half,
            angle,
        } = *self
        else {
            return Vec::new();
        };
        let (s, c) = angle.sin_cos();
        let (ax, ay) = (DVec2::new(c, s) * half.x, DVec2::new(-s, c) * half.y);
        vec![
            center - ax - ay,
            center + ax - ay,
            center + ax + ay,
            center - ax + ay,
        ]
    }

    /// The name of the map's kind of object, for messages.
    pub fn what(&self) -> &'static str {
        match self {
            Geom::Rect { .. } | Geom::Box { .. } => "rectangle",
            Geom::Ellipse { .. } => "ellipse",
            Geom::Capsule { .. } => "capsule",
            Geom::Polygon(_) => "polygon",
            Geom::Polyline(_) => "polyline",
            Geom::Point(_) => "point",
        }
    }

    /// The collide2d shape, every coordinate rounded once to `f32`.
    ///
    /// # Errors
    /// A shape collide2d refuses ([`ErrorKind::Shape`]: a polygon that crosses itself, a
    /// coordinate beyond `f32`), or an ellipse `ellipses` does not allow.
    pub fn to_shape(&self, ellipses: Ellipses) -> Result<Shape, ErrorKind> {
        let what = self.what();
        let v = |p: DVec2| p.as_vec2();
        let shape = |r: Result<Shape, collide2d::ShapeError>| {
            r.map_err(|source| ErrorKind::Shape { what, source })
        };
        match self {
            Geom::Rect { min, max } => shape(Aabb::new(v(*min), v(*max)).map(Shape::from)),
            #[allow(clippy::cast_possible_truncation)]
            Geom::Box {
                center,
                half,
                angle,
            } => shape(Obb::new(v(*center), v(*half), *angle as f32).map(Shape::from)),
            Geom::Ellipse { center, u, v: w } => ellipse(*center, *u, *w, ellipses),
            #[allow(clippy::cast_possible_truncation)]
            Geom::Capsule { a, b, radius } => {
                shape(Capsule::new(v(*a), v(*b), *radius as f32).map(Shape::from))
            }
            Geom::Polygon(points) => {
                let points: Vec<_> = points.iter().map(|&p| v(p)).collect();
                shape(Polygon::new(&points).map(Shape::from))
            }
            Geom::Polyline(points) => {
                let segments: Result<Vec<Shape>, _> = points
                    .windows(2)
                    .map(|w| Segment::new(v(w[0]), v(w[1])).map(Shape::from))
                    .collect();
                let segments = segments.map_err(|source| ErrorKind::Shape { what, source })?;
                match segments {
                    s if s.is_empty() => Err(ErrorKind::Invalid(
                        "polyline: points must hold at least 2 points".to_string(),
                    )),
                    mut s if s.len() == 1 => Ok(s.remove(0)),
                    s => shape(Compound::new(s).map(Shape::from)),
                }
            }
            Geom::Point(p) => shape(Point::new(v(*p)).map(Shape::from)),
        }
    }
}

/// An ellipse as a circle, a segment (flat), or a polygon within the tolerance.
fn ellipse(center: DVec2, u: DVec2, v: DVec2, ellipses: Ellipses) -> Result<Shape, ErrorKind> {
    let what = "ellipse";
    let shape = |r: Result<Shape, collide2d::ShapeError>| {
        r.map_err(|source| ErrorKind::Shape { what, source })
    };
    let (lu, lv) = (u.length(), v.length());
    let scale = lu.max(lv);
    // u, v perpendicular and of one length: a circle (the editors give exactly that).
    if (lu - lv).abs() <= scale * 1e-12 && u.dot(v).abs() <= scale * scale * 1e-12 {
        #[allow(clippy::cast_possible_truncation)]
        return shape(Circle::new(center.as_vec2(), lu as f32).map(Shape::from));
    }
    if u.perp_dot(v).abs() <= scale * scale * 1e-12 {
        // Flat: the segment it has become.
        let w = if lu >= lv { u } else { v };
        return shape(
            Segment::new((center - w).as_vec2(), (center + w).as_vec2()).map(Shape::from),
        );
    }
    let tolerance = match ellipses {
        Ellipses::Exact => {
            return Err(ErrorKind::InexactEllipse {
                width: 2.0 * lu,
                height: 2.0 * lv,
            })
        }
        Ellipses::Polygon { tolerance } => tolerance,
    };
    // The ellipse is the image of the unit circle by [u v], whose largest singular value `a`
    // (the semi-major axis) bounds how far it moves points apart; a regular n-gon inscribed in
    // the unit circle is within 1 - cos(pi / n) of it, so the image is within a (1 - cos(pi / n)).
    let (uu, vv, uv) = (u.dot(u), v.dot(v), u.dot(v));
    let half_trace = (uu + vv) / 2.0;
    let a = (half_trace
        + (half_trace * half_trace - (uu * vv - uv * uv))
            .max(0.0)
            .sqrt())
    .sqrt();
    let n = (8..=MAX_POLYGON_POINTS)
        .find(|&n| a * (1.0 - (std::f64::consts::PI / n as f64).cos()) <= tolerance)
        .ok_or(ErrorKind::EllipseTooLarge {
            semi_axis: a,
            tolerance,
            max: MAX_POLYGON_POINTS,
        })?;
    let points: Vec<_> = (0..n)
        .map(|k| {
            let t = std::f64::consts::TAU * k as f64 / n as f64;
            (center + u * t.cos() + v * t.sin()).as_vec2()
        })
        .collect();
    shape(ConvexPolygon::new(&points).map(Shape::from))
}

#[cfg(test)]
mod tests;
