//! The SVG parsed back: what is drawn, where, in which order, and that labels stay clear.

use super::view::{label_number, n, nice_length, Rect};
use super::*;
use collide2d::math::Vec2;
use collide2d::{
    Capsule, Circle, Compound, Filter, Obb, ObjectKind, Point, Polygon, Segment, Shape,
};

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn rect(x: f32, y: f32, w: f32, h: f32) -> Shape {
    Aabb::from_rect(x, y, w, h).unwrap().into()
}

fn disc(x: f32, y: f32, r: f32) -> Shape {
    Circle::new(v(x, y), r).unwrap().into()
}

/// One object of every kind, laid out on a row; the box and the circle overlap.
fn zoo() -> Vec<(&'static str, Shape)> {
    let l = [
        (30., 0.),
        (34., 0.),
        (34., 1.),
        (31., 1.),
        (31., 4.),
        (30., 4.),
    ]
    .map(|(x, y)| v(x, y));
    vec![
        ("box", rect(0., 0., 4., 4.)),
        ("ball", disc(5., 2., 2.)),
        ("dot", Point::new(v(10., 1.)).unwrap().into()),
        ("line", Segment::new(v(12., 0.), v(14., 4.)).unwrap().into()),
        (
            "crate",
            Obb::new(v(18., 2.), v(2., 1.), 0.5).unwrap().into(),
        ),
        (
            "pill",
            Capsule::new(v(22., 1.), v(26., 3.), 1.).unwrap().into(),
        ),
        ("ell", Polygon::new(&l).unwrap().into()),
        (
            "hitbox",
            Compound::new(vec![rect(40., 0., 2., 4.), disc(41., 5., 1.)])
                .unwrap()
                .into(),
        ),
    ]
}

/// A world of `shapes` (dynamic, default filter, contacts on), updated; an empty name leaves
/// an object in the crowd.
fn world_of(shapes: &[(&'static str, Shape)], broad: BroadPhase) -> CollisionWorld<&'static str> {
    let mut world = CollisionWorld::new(broad);
    world.set_contacts(true);
    for &(id, ref shape) in shapes {
        world
            .insert(shape.clone(), Filter::DEFAULT, ObjectKind::Dynamic, id)
            .unwrap();
    }
    world.update();
    world
}

fn named(_: Handle, id: &&'static str) -> Option<&'static str> {
    (!id.is_empty()).then_some(*id)
}

fn draw(shapes: &[(&'static str, Shape)], options: &Options) -> String {
    world_svg(&world_of(shapes, BroadPhase::default()), named, options)
}

fn debug() -> Options {
    Options {
        debug: true,
        ..Options::default()
    }
}

fn number(e: &roxmltree::Node<'_, '_>, name: &str) -> f64 {
    e.attribute(name).unwrap().parse().unwrap()
}

fn with_class<'a, 'i>(
    doc: &'a roxmltree::Document<'i>,
    class: &'a str,
) -> impl Iterator<Item = roxmltree::Node<'a, 'i>> + 'a {
    doc.descendants()
        .filter(move |e| e.attribute("class") == Some(class))
}

#[test]
fn every_kind_is_drawn_once_colliding_objects_red_and_on_top() {
    let text = draw(&zoo(), &Options::default());
    let doc = roxmltree::Document::parse(&text).unwrap();
    let objects: Vec<_> = doc
        .descendants()
        .filter(|e| {
            e.attribute("class")
                .is_some_and(|c| c.starts_with("object"))
        })
        .collect();
    let drawn: Vec<_> = objects
        .iter()
        .map(|e| {
            (
                e.attribute("data-id").unwrap(),
                e.attribute("data-kind").unwrap(),
            )
        })
        .collect();
    // The colliding pair last, above the others.
    let expected = [
        ("dot", "point"),
        ("line", "segment"),
        ("crate", "obb"),
        ("pill", "capsule"),
        ("ell", "polygon"),
        ("hitbox", "compound"),
        ("box", "aabb"),
        ("ball", "circle"),
    ];
    assert_eq!(drawn, expected);
    for e in &objects {
        let hit = matches!(e.attribute("data-id"), Some("box" | "ball"));
        assert_eq!(e.attribute("class") == Some("object hit"), hit);
        assert_eq!(
            e.attribute("stroke"),
            Some(if hit { "#dc2626" } else { "#2563eb" })
        );
    }
    let element = |id: &str| {
        let group = objects
            .iter()
            .find(|e| e.attribute("data-id") == Some(id))
            .unwrap();
        group
            .children()
            .filter(|c| c.is_element() && c.tag_name().name() != "title")
            .map(|c| c.tag_name().name())
            .collect::<Vec<_>>()
    };
    assert_eq!(element("ball"), ["circle"]);
    assert_eq!(element("crate"), ["polygon"]);
    assert_eq!(element("pill"), ["path"]);
    assert_eq!(element("hitbox"), ["polygon", "circle"]);
    assert!(
        !text.contains("class=\"aabb\""),
        "no debug drawing unless asked"
    );
    // Every object labelled, each label its id.
    let mut labels: Vec<_> = doc
        .descendants()
        .filter(|e| {
            e.has_tag_name("text")
                && e.parent_element().and_then(|p| p.attribute("class")) == Some("labels")
        })
        .map(|e| e.text().unwrap())
        .collect();
    labels.sort_unstable();
    let mut ids: Vec<_> = expected.iter().map(|e| e.0).collect();
    ids.sort_unstable();
    assert_eq!(labels, ids);
}

#[test]
fn contact_points_and_normals_point_from_a_to_b() {
    let text = draw(&zoo(), &Options::default());
    let doc = roxmltree::Document::parse(&text).unwrap();
    let normals: Vec<_> = with_class(&doc, "normal").collect();
    assert_eq!(normals.len(), 1);
    for line in normals {
        assert_eq!(
            (line.attribute("data-a"), line.attribute("data-b")),
            (Some("box"), Some("ball"))
        );
        // Box at the left, ball at the right: the normal points right on screen.
        assert!((number(&line, "x2") - number(&line, "x1") - drawer::ARROW_LENGTH).abs() < 0.01);
        assert!((number(&line, "y2") - number(&line, "y1")).abs() < 0.01);
    }
    assert_eq!(with_class(&doc, "contact-point").count(), 1);
}

#[test]
fn y_axis_points_up_unless_asked_otherwise() {
    let shapes = [("low", disc(0., 0., 1.)), ("high", disc(0., 10., 1.))];
    let cy = |options: &Options| {
        let text = draw(&shapes, options);
        let doc = roxmltree::Document::parse(&text).unwrap();
        let centre = |id| {
            let g = doc
                .descendants()
                .find(|e| e.attribute("data-id") == Some(id))
                .unwrap();
            number(
                &g.children().find(|c| c.has_tag_name("circle")).unwrap(),
                "cy",
            )
        };
        (centre("low"), centre("high"))
    };
    let (low, high) = cy(&Options::default());
    assert!(high < low, "y up: the higher circle is nearer the top");
    let (low, high) = cy(&Options {
        y_down: true,
        ..Options::default()
    });
    assert!(low < high);
}

#[test]
fn debug_draws_every_bounding_box_visibly_and_concave_parts() {
    let shapes = zoo();
    let text = draw(&shapes, &debug());
    let doc = roxmltree::Document::parse(&text).unwrap();
    let boxes: Vec<_> = with_class(&doc, "aabb").collect();
    assert_eq!(boxes.len(), shapes.len());
    for b in &boxes {
        assert!(
            number(b, "width") >= 2.0 && number(b, "height") >= 2.0,
            "{:?}",
            b.attribute("data-id")
        );
    }
    assert_eq!(
        with_class(&doc, "part").count(),
        2,
        "the L polygon is split in two convex parts"
    );
    assert!(text.contains(">bounding box<"));
    // A horizontal segment's box has no height, yet is drawn 2 pixels high.
    let flat = draw(
        &[("floor", Segment::new(v(0., 0.), v(10., 0.)).unwrap().into())],
        &debug(),
    );
    let doc = roxmltree::Document::parse(&flat).unwrap();
    assert!((number(&with_class(&doc, "aabb").next().unwrap(), "height") - 2.0).abs() < 1e-9);
}

#[test]
fn ids_are_escaped_and_an_empty_world_is_still_a_picture() {
    let text = draw(
        &[("<a&b>\"", Point::new(v(1., 1.)).unwrap().into())],
        &Options::default(),
    );
    let doc = roxmltree::Document::parse(&text).unwrap();
    assert!(doc
        .descendants()
        .any(|e| e.attribute("data-id") == Some("<a&b>\"")));
    assert!(doc.descendants().any(|e| e.text() == Some("<a&b>\"")));
    let empty = draw(&[], &Options::default());
    let doc = roxmltree::Document::parse(&empty).unwrap();
    assert!(empty.contains("units"));
    // Responsive: a viewBox, and a width and height that follow the window.
    let root = doc.root_element();
    assert_eq!(
        (root.attribute("width"), root.attribute("height")),
        (Some("100%"), Some("100%"))
    );
    assert!(root.attribute("viewBox").unwrap().starts_with("0 0 800 "));
}

#[test]
fn the_crowd_is_merged_lighter_and_beneath_the_named_objects() {
    // 3000 unnamed bullets around a named player.
    let mut shapes: Vec<(&'static str, Shape)> = (0..3000)
        .map(|i| {
            (
                "",
                disc(
                    (i % 60) as f32 * 3.0,
                    (i / 60) as f32 * 3.0,
                    1.0 + (i % 3) as f32 * 0.2,
                ),
            )
        })
        .collect();
    shapes.push(("player", rect(80., 70., 6., 8.)));
    let text = draw(&shapes, &Options::default());
    let doc = roxmltree::Document::parse(&text).unwrap();
    let crowd: Vec<_> = doc
        .descendants()
        .filter(|e| e.attribute("class").is_some_and(|c| c.starts_with("crowd")))
        .collect();
    let count: usize = crowd
        .iter()
        .map(|g| g.attribute("data-count").unwrap().parse::<usize>().unwrap())
        .sum();
    assert_eq!(count, 3000);
    let quiet = crowd
        .iter()
        .find(|g| g.attribute("class") == Some("crowd"))
        .unwrap();
    assert!(number(quiet, "fill-opacity") < 0.2 && number(quiet, "stroke-width") < 1.5);
    let paths = quiet.children().filter(|c| c.has_tag_name("path")).count();
    assert!(paths < 10, "{paths} paths");
    // A few dozen bytes a bullet.
    assert!(text.len() < 3000 * 60, "{} bytes", text.len());
    let player = text.find(r#"data-id="player""#).unwrap();
    assert!(text.find(r#"class="crowd"#).unwrap() < player);
}

#[test]
fn writes_go_out_as_the_picture_is_drawn() {
    /// Records the largest single write.
    struct Largest(usize, usize);
    impl Write for Largest {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0 = self.0.max(buf.len());
            self.1 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let shapes: Vec<(&'static str, Shape)> = (0..20_000)
        .map(|i| ("", disc((i % 200) as f32, (i / 200) as f32, 0.4)))
        .collect();
    let world = world_of(&shapes, BroadPhase::grid(1.0).unwrap());
    let mut out = Largest(0, 0);
    world_svg_to(&world, named, &debug(), &mut out).unwrap();
    assert!(out.1 > 1_000_000, "{} bytes in all", out.1);
    assert!(out.0 <= 70 * 1024, "one write of {} bytes", out.0);
}

#[test]
fn debug_draws_the_tree_nodes_and_leaves_beneath_the_objects() {
    let shapes = zoo();
    let text = draw(&shapes, &debug());
    let doc = roxmltree::Document::parse(&text).unwrap();
    let broad: Vec<_> = doc
        .descendants()
        .filter(|e| {
            e.is_element() && e.parent_element().and_then(|p| p.attribute("class")) == Some("broad")
        })
        .collect();
    let count = |class: &str| {
        broad
            .iter()
            .filter(|b| b.attribute("class") == Some(class))
            .count()
    };
    assert_eq!((count("leaf"), count("node")), (8, 7));
    assert_eq!(
        (
            broad[0].attribute("class"),
            broad[0].attribute("data-depth")
        ),
        (Some("node"), Some("0"))
    );
    assert!(text.find(r#"class="broad""#) < text.find(r#"class="object"#));
    assert!(
        text.contains(">tree node (fainter: deeper)<") && text.contains(">tree leaf (fat box)<")
    );
    let mut leaves: Vec<_> = with_class(&doc, "leaf")
        .map(|e| e.attribute("data-id").unwrap())
        .collect();
    leaves.sort_unstable();
    let mut ids: Vec<_> = shapes.iter().map(|s| s.0).collect();
    ids.sort_unstable();
    assert_eq!(leaves, ids);
    let plain = draw(&shapes, &Options::default());
    assert!(!plain.contains(r#"class="broad""#) && !plain.contains("tree node"));
}

#[test]
fn debug_draws_the_grid_cells_holding_objects_and_the_large_ones() {
    let world = world_of(&zoo(), BroadPhase::grid(4.0).unwrap());
    let text = world_svg(&world, named, &debug());
    let doc = roxmltree::Document::parse(&text).unwrap();
    let cells: Vec<(f64, f64, f64)> = with_class(&doc, "cell")
        .map(|e| {
            (
                number(&e, "data-x"),
                number(&e, "data-y"),
                number(&e, "data-objects"),
            )
        })
        .collect();
    // Each object in the cell of its min corner (see the library's grid); the rotated crate
    // spans three cells and is kept aside.
    let expected = [
        (0, 0, 2),
        (2, 0, 1),
        (3, 0, 1),
        (5, 0, 1),
        (7, 0, 1),
        (9, 0, 1),
    ]
    .map(|(x, y, o)| (f64::from(x), f64::from(y), f64::from(o)));
    assert_eq!(cells, expected);
    let large: Vec<_> = with_class(&doc, "large")
        .map(|e| e.attribute("data-id").unwrap())
        .collect();
    assert_eq!(large, ["crate"]);
    assert!(text.contains(">grid cell of min corners (darker: more)<"));
    assert!(text.contains(">too large for a cell<") && !text.contains("tree node"));
}

#[test]
fn scale_bar_lengths_are_round() {
    assert_eq!(nice_length(7.3), 5.0);
    assert_eq!(nice_length(0.031), 0.02);
    assert_eq!(nice_length(1.0), 1.0);
    assert_eq!(nice_length(0.0), 1.0);
    assert_eq!(label_number(0.02), "0.02");
    assert_eq!(label_number(5000.0), "5000");
    assert_eq!(n(-0.001), "0");
    assert_eq!(n(2.50), "2.5");
}

mod labels;
