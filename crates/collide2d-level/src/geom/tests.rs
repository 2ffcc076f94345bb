use super::*;
use collide2d::math::Vec2;
use collide2d::{distance_to_point, ShapeKind};

fn d(x: f64, y: f64) -> DVec2 {
    DVec2::new(x, y)
}

fn rect(x: f64, y: f64, w: f64, h: f64) -> Geom {
    Geom::Rect {
        min: d(x, y),
        max: d(x + w, y + h),
    }
}

/// The corners of a box or rectangle shape, sorted, to compare boxes built different ways.
fn corners(shape: &Shape) -> Vec<(i64, i64)> {
    let mut c: Vec<(i64, i64)> = match shape {
        Shape::Aabb(b) => b.corners().to_vec(),
        Shape::Obb(b) => b.corners().to_vec(),
        _ => panic!("not a box: {shape:?}"),
    }
    .iter()
    .map(|p| ((p.x * 1000.0).round() as i64, (p.y * 1000.0).round() as i64))
    .collect();
    c.sort_unstable();
    c
}

#[test]
fn quarter_turns_keep_rectangles_axis_aligned_and_exact() {
    // Tiled turns about the object's top-left corner, clockwise on screen (y down).
    let turned = rect(10.0, 20.0, 4.0, 2.0).rotated(d(10.0, 20.0), 90.0);
    assert_eq!(turned, rect(8.0, 20.0, 2.0, 4.0));
    let back = turned.rotated(d(10.0, 20.0), -90.0);
    assert_eq!(back, rect(10.0, 20.0, 4.0, 2.0));
}

#[test]
fn other_turns_make_rotated_boxes_about_the_corner() {
    let turned = rect(0.0, 0.0, 4.0, 2.0).rotated(DVec2::ZERO, 30.0);
    let shape = turned.to_shape(Ellipses::Exact).unwrap();
    let Shape::Obb(b) = &shape else {
        panic!("{shape:?}")
    };
    assert!((b.angle() - 30f32.to_radians()).abs() < 1e-6);
    // The top-left corner stays put; the top-right one turns 30 degrees towards +y.
    let (s, c) = 30f32.to_radians().sin_cos();
    let want = [Vec2::ZERO, Vec2::new(4.0 * c, 4.0 * s)];
    for w in want {
        assert!(b.corners().iter().any(|p| p.distance(w) < 1e-5), "{w}");
    }
}

#[test]
fn tile_flips_mirror_within_the_tile_diagonal_first() {
    let size = d(16.0, 16.0);
    let r = rect(0.0, 0.0, 4.0, 8.0);
    let flip = |h, v, dg| {
        r.clone()
            .mapped(&AxisMap::tile_flip(size, h, v, dg))
            .unwrap()
    };
    assert_eq!(flip(true, false, false), rect(12.0, 0.0, 4.0, 8.0));
    assert_eq!(flip(false, true, false), rect(0.0, 8.0, 4.0, 8.0));
    assert_eq!(flip(false, false, true), rect(0.0, 0.0, 8.0, 4.0));
    // Diagonal then horizontal: a quarter turn clockwise on screen.
    assert_eq!(
        flip(true, false, true),
        r.clone().rotated(d(8.0, 8.0), 90.0)
    );
}

#[test]
fn mirrored_and_flipped_boxes_keep_their_corners() {
    let b = rect(2.0, 3.0, 6.0, 2.0).rotated(d(2.0, 3.0), 25.0);
    let original = b.to_shape(Ellipses::Exact).unwrap();
    let mirror = |p: Vec2, m: &AxisMap| m.point(p.as_dvec2()).as_vec2();
    for m in [
        AxisMap::Y_UP,
        AxisMap::tile_flip(d(16.0, 16.0), true, false, false),
        AxisMap::tile_flip(d(16.0, 16.0), false, true, true),
        AxisMap::tile_flip(d(16.0, 16.0), true, true, true),
    ] {
        let mapped = b
            .clone()
            .mapped(&m)
            .unwrap()
            .to_shape(Ellipses::Exact)
            .unwrap();
        assert_eq!(mapped.kind(), ShapeKind::Obb);
        let Shape::Obb(o) = &original else { panic!() };
        let got = corners(&mapped);
        let expect: Vec<(i64, i64)> = {
            let mut c: Vec<(i64, i64)> = o
                .corners()
                .iter()
                .map(|&p| mirror(p, &m))
                .map(|p| ((p.x * 1000.0).round() as i64, (p.y * 1000.0).round() as i64))
                .collect();
            c.sort_unstable();
            c
        };
        for (g, e) in got.iter().zip(&expect) {
            assert!(
                (g.0 - e.0).abs() <= 1 && (g.1 - e.1).abs() <= 1,
                "{got:?} {expect:?}"
            );
        }
    }
}

#[test]
fn a_stretched_box_becomes_a_polygon() {
    let b = rect(0.0, 0.0, 2.0, 2.0).rotated(DVec2::ZERO, 45.0);
    let m = AxisMap {
        swap: false,
        scale: d(2.0, 1.0),
        offset: DVec2::ZERO,
    };
    let shape = b.mapped(&m).unwrap().to_shape(Ellipses::Exact).unwrap();
    assert!(matches!(shape.kind(), ShapeKind::Polygon), "{shape:?}");
}

fn ellipse_geom(w: f64, h: f64) -> Geom {
    Geom::Ellipse {
        center: d(100.0, 50.0),
        u: d(w / 2.0, 0.0),
        v: d(0.0, h / 2.0),
    }
}

#[test]
fn equal_axes_make_a_circle_in_every_mode() {
    for degrees in [0.0, 33.0, 90.0] {
        let e = ellipse_geom(20.0, 20.0).rotated(d(90.0, 40.0), degrees);
        let shape = e.to_shape(Ellipses::Exact).unwrap();
        let Shape::Circle(c) = shape else { panic!() };
        assert_eq!(c.radius(), 10.0);
    }
}

#[test]
fn unequal_axes_are_an_error_when_exact_shapes_are_asked_for() {
    let e = ellipse_geom(40.0, 20.0)
        .to_shape(Ellipses::Exact)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "ellipse 40 x 20 is not a circle, and only exact shapes were asked for (Ellipses::Exact)"
    );
}

#[test]
fn ellipse_polygons_stay_within_the_tolerance_inside_the_ellipse() {
    for (w, h, degrees, tolerance) in [
        (40.0, 20.0, 0.0, 0.25),
        (300.0, 60.0, 20.0, 0.25),
        (10.0, 16.0, 135.0, 0.01),
        (2000.0, 10.0, 0.0, 1.0),
    ] {
        let e = ellipse_geom(w, h).rotated(d(100.0, 50.0), degrees);
        let Geom::Ellipse { center, u, v } = e.clone() else {
            panic!()
        };
        let shape = e.to_shape(Ellipses::Polygon { tolerance }).unwrap();
        let Shape::ConvexPolygon(p) = &shape else {
            panic!("{shape:?}")
        };
        assert!(p.points().len() >= 8 && p.points().len() <= MAX_POLYGON_POINTS);
        // Every point of the ellipse is within the tolerance of the polygon (and outside or on it).
        let mut worst = 0f64;
        for k in 0..4000 {
            let t = std::f64::consts::TAU * f64::from(k) / 4000.0;
            let q = (center + u * t.cos() + v * t.sin()).as_vec2();
            worst = worst.max(f64::from(distance_to_point(&shape, q)));
        }
        assert!(
            worst <= tolerance * 1.001 + 1e-4,
            "{w}x{h}: {worst} > {tolerance}"
        );
        // Corners lie on the ellipse: inside it, so no false hit.
        for q in p.points() {
            let r = (q.as_dvec2() - center).rotate(DVec2::from_angle(-degrees.to_radians()));
            let on = (r.x / (w / 2.0)).powi(2) + (r.y / (h / 2.0)).powi(2);
            assert!((on - 1.0).abs() < 1e-5, "{on}");
        }
    }
}

#[test]
fn an_ellipse_too_large_for_the_tolerance_is_an_error() {
    let e = ellipse_geom(1e6, 10.0).to_shape(Ellipses::Polygon { tolerance: 0.25 });
    assert!(
        matches!(e, Err(ErrorKind::EllipseTooLarge { max: 128, .. })),
        "{e:?}"
    );
}

#[test]
fn flat_ellipses_are_segments() {
    let shape = ellipse_geom(40.0, 0.0).to_shape(Ellipses::Exact).unwrap();
    assert_eq!(shape.kind(), ShapeKind::Segment);
}

#[test]
fn a_polygon_that_crosses_itself_is_a_shape_error() {
    let bow_tie = Geom::Polygon(vec![d(0.0, 0.0), d(4.0, 4.0), d(4.0, 0.0), d(0.0, 4.0)]);
    let e = bow_tie.to_shape(Ellipses::Exact).unwrap_err();
    assert!(e.to_string().starts_with("polygon: "), "{e}");
}

#[test]
fn polylines_are_segments_joined() {
    let line = Geom::Polyline(vec![d(0.0, 0.0), d(4.0, 0.0), d(4.0, 4.0)]);
    let Shape::Compound(c) = line.to_shape(Ellipses::Exact).unwrap() else {
        panic!()
    };
    assert_eq!(c.parts().len(), 2);
    let one = Geom::Polyline(vec![d(0.0, 0.0), d(4.0, 0.0)]).to_shape(Ellipses::Exact);
    assert_eq!(one.unwrap().kind(), ShapeKind::Segment);
}
