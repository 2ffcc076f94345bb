//! Labels and normals in crowded scenes: read back from the SVG, with the conservative text
//! metrics placement uses, no label covers another, a normal or a named box, and no normal is
//! drawn over a parallel one.

use super::super::labels::{text_box, text_width};
use super::*;

/// A segment on the page.
type Segment2 = ((f64, f64), (f64, f64));

/// Text boxes of the labels (from the conservative metrics placement uses) and the normals'
/// segments, as drawn.
fn labels_and_arrows(text: &str) -> (Vec<Rect>, Vec<Segment2>) {
    let doc = roxmltree::Document::parse(text).unwrap();
    let mut boxes = Vec::new();
    for group in with_class(&doc, "labels") {
        let size = number(&group, "font-size");
        for t in group.children().filter(|c| c.has_tag_name("text")) {
            let width = text_width(t.text().unwrap(), size);
            boxes.push(text_box(number(&t, "x"), number(&t, "y"), width, size));
        }
    }
    let arrows = with_class(&doc, "normal")
        .map(|l| {
            (
                (number(&l, "x1"), number(&l, "y1")),
                (number(&l, "x2"), number(&l, "y2")),
            )
        })
        .collect();
    (boxes, arrows)
}

/// The page boxes of the named objects of a kind drawn as one polygon (boxes).
fn boxes_of_kind(text: &str, kind: &str) -> Vec<Rect> {
    let doc = roxmltree::Document::parse(text).unwrap();
    doc.descendants()
        .filter(|e| e.attribute("data-kind") == Some(kind))
        .map(|g| {
            let polygon = g.children().find(|c| c.has_tag_name("polygon")).unwrap();
            let xy: Vec<(f64, f64)> = polygon
                .attribute("points")
                .unwrap()
                .split(' ')
                .map(|p| {
                    let (x, y) = p.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect();
            let (x0, x1) = xy.iter().fold((f64::MAX, f64::MIN), |(lo, hi), p| {
                (lo.min(p.0), hi.max(p.0))
            });
            let (y0, y1) = xy.iter().fold((f64::MAX, f64::MIN), |(lo, hi), p| {
                (lo.min(p.1), hi.max(p.1))
            });
            Rect {
                x: x0,
                y: y0,
                w: x1 - x0,
                h: y1 - y0,
            }
        })
        .collect()
}

/// Whether the segment `a`-`b` comes within `r` of the box (sampled every half pixel).
fn near(r: &Rect, (a, b): Segment2, reach: f64) -> bool {
    let steps = ((b.0 - a.0).hypot(b.1 - a.1) * 2.0).ceil().max(1.0) as usize;
    (0..=steps).any(|i| {
        let t = i as f64 / steps as f64;
        let (x, y) = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
        x > r.x - reach && x < r.right() + reach && y > r.y - reach && y < r.bottom() + reach
    })
}

/// Crowded scenes: tiles flush under a player, bullets all over the player, pickups against
/// it; every label drawn, none over another or over an arrow (shaft and head), none over a
/// named box.
#[test]
fn labels_never_overlap_each_other_or_an_arrow() {
    let mut shapes: Vec<(&'static str, Shape)> = vec![
        ("t1", rect(0., 0., 16., 16.)),
        ("t2", rect(16., 0., 16., 16.)),
        ("t3", rect(32., 0., 16., 16.)),
        ("player", rect(10., 16., 12., 24.)),
        ("pickup", rect(22., 20., 6., 6.)),
        ("coin", disc(8., 30., 3.)),
    ];
    let bullets = ["b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8"];
    for (i, id) in bullets.into_iter().enumerate() {
        shapes.push((
            id,
            disc(
                9.0 + (i % 2) as f32 * 13.0,
                18.0 + (i / 2) as f32 * 6.0,
                2.0,
            ),
        ));
    }
    for width in [400.0, 800.0, 1600.0] {
        for y_down in [false, true] {
            let text = draw(
                &shapes,
                &Options {
                    width,
                    y_down,
                    debug: false,
                },
            );
            let (boxes, arrows) = labels_and_arrows(&text);
            assert_eq!(
                boxes.len(),
                shapes.len(),
                "every label placed at width {width}"
            );
            let tiles = boxes_of_kind(&text, "aabb");
            assert_eq!(tiles.len(), 5);
            assert!(arrows.len() > 10);
            // No normal drawn over another along its length: past the first third (they may
            // share a start), each shaft stays clear of every parallel one (crossing is allowed).
            for (i, &(a0, a1)) in arrows.iter().enumerate() {
                let from = (a0.0 + (a1.0 - a0.0) / 3.0, a0.1 + (a1.1 - a0.1) / 3.0);
                for &other in &arrows[i + 1..] {
                    let tip = Rect {
                        x: from.0.min(a1.0),
                        y: from.1.min(a1.1),
                        w: (a1.0 - from.0).abs(),
                        h: (a1.1 - from.1).abs(),
                    };
                    let (o0, o1) = other;
                    let cross = (a1.0 - a0.0) * (o1.1 - o0.1) - (a1.1 - a0.1) * (o1.0 - o0.0);
                    if cross.abs() > 0.1 * drawer::ARROW_LENGTH * drawer::ARROW_LENGTH {
                        continue;
                    }
                    let other_from = (o0.0 + (o1.0 - o0.0) / 3.0, o0.1 + (o1.1 - o0.1) / 3.0);
                    assert!(
                        !near(&tip, (other_from, o1), 1.0),
                        "normals {:?} and {other:?} overlap",
                        (a0, a1)
                    );
                }
            }
            for (i, a) in boxes.iter().enumerate() {
                for b in &boxes[i + 1..] {
                    assert!(
                        !a.overlaps(b),
                        "labels {a:?} and {b:?} overlap at width {width}"
                    );
                }
                for &arrow in &arrows {
                    assert!(
                        !near(a, arrow, 5.0),
                        "label {a:?} on arrow {arrow:?} at width {width}"
                    );
                }
                for t in &tiles {
                    assert!(!a.overlaps(t), "label {a:?} on box {t:?} at width {width}");
                }
            }
        }
    }
}
