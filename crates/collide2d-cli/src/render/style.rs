//! How each kind of SVG element looks: colours as `#rrggbb`, the crowd's lightness, the
//! broad phase's boxes and the group that opens each layer of the walk.

use collide2d::debug_draw::{Colour, Layer, Role, INK};
use collide2d::{BroadBox, BroadBoxKind};

use super::view::{escape, n};

/// `#rrggbb`.
pub(crate) fn hex(c: Colour) -> String {
    format!("#{:02x}{:02x}{:02x}", c.r, c.g, c.b)
}

/// Fill opacity, stroke width and stroke opacity of a crowd of `count` objects: lighter and
/// thinner the larger it is, so the named objects stand out.
fn crowd_style(count: usize, colliding: bool) -> (f64, f64, f64) {
    match (colliding, count) {
        (true, _) => (0.35, 1.2, 1.0),
        (false, 0..=200) => (0.2, 1.5, 1.0),
        (false, 201..=2000) => (0.14, 1.0, 0.7),
        _ => (0.1, 0.6, 0.5),
    }
}

/// A grid cell's fill: darker the more objects it holds, up to five.
pub(crate) fn cell_opacity(objects: u32) -> f64 {
    0.03 + 0.03 * f64::from(objects.min(5))
}

/// A tree node's stroke: the root strongest, fading by a fifth a level down to 0.1.
fn node_opacity(depth: u32) -> f64 {
    (0.7 * 0.8f64.powi(depth.min(64) as i32)).max(0.1)
}

/// The `<rect>` of a broad-phase box whose position attributes are `r`, naming the object it
/// holds (a tree's leaf, a grid's large object); `None` for a kind this version does not know.
pub(crate) fn broad_rect(b: &BroadBox, name: Option<&str>, r: &str) -> Option<String> {
    let id = name.map(escape).unwrap_or_default();
    let colour = hex(Role::Broad(b.kind).colour());
    Some(match b.kind {
        BroadBoxKind::Cell { x, y, objects } => format!(
            "<rect class=\"cell\" data-x=\"{x}\" data-y=\"{y}\" data-objects=\"{objects}\" {r} fill=\"{colour}\" fill-opacity=\"{}\" stroke=\"{colour}\" stroke-opacity=\"0.35\"/>",
            n(cell_opacity(objects)),
        ),
        BroadBoxKind::Large { .. } => format!(
            "<rect class=\"large\" data-id=\"{id}\" {r} fill=\"{colour}\" fill-opacity=\"0.08\" stroke=\"{colour}\" stroke-width=\"1.5\" stroke-dasharray=\"6 3\"/>",
        ),
        BroadBoxKind::Node { tree, depth } => format!(
            "<rect class=\"node\" data-tree=\"{tree}\" data-depth=\"{depth}\" {r} fill=\"none\" stroke=\"{colour}\" stroke-opacity=\"{}\"/>",
            n(node_opacity(depth)),
        ),
        BroadBoxKind::Leaf { tree, depth, .. } => format!(
            "<rect class=\"leaf\" data-id=\"{id}\" data-tree=\"{tree}\" data-depth=\"{depth}\" {r} fill=\"{colour}\" fill-opacity=\"0.04\" stroke=\"{colour}\" stroke-opacity=\"0.6\" stroke-dasharray=\"1 2\"/>",
        ),
        _ => return None,
    })
}

/// The `<g>` that opens `layer` (of `count` items), with the style its items share; labels at
/// font size `font`.
pub(crate) fn layer_group(layer: Layer, count: usize, font: f64) -> String {
    match layer {
        Layer::BroadPhase => "<g class=\"broad\" stroke-width=\"0.75\">".to_string(),
        Layer::BoundingBoxes => format!(
            "<g class=\"aabbs\" fill=\"none\" stroke=\"{}\" stroke-width=\"0.75\" stroke-dasharray=\"4 3\">",
            hex(Role::BoundingBox.colour())
        ),
        Layer::Crowd | Layer::CrowdColliding => {
            let colliding = layer == Layer::CrowdColliding;
            let (fill, width, stroke) = crowd_style(count, colliding);
            let colour = hex(Role::Object { colliding, named: false }.colour());
            format!(
                "<g class=\"crowd{}\" data-count=\"{count}\" fill=\"{colour}\" fill-opacity=\"{}\" stroke=\"{colour}\" stroke-width=\"{}\" stroke-opacity=\"{}\">",
                if colliding { " hit" } else { "" },
                n(fill),
                n(width),
                n(stroke)
            )
        }
        // A white halo parts the named objects from the crowd beneath.
        Layer::Named => "<g class=\"named\" style=\"filter: drop-shadow(0 0 1.5px white)\">".to_string(),
        Layer::NamedColliding => "<g class=\"named hit\" style=\"filter: drop-shadow(0 0 1.5px white)\">".to_string(),
        Layer::Contacts => "<g class=\"contacts\">".to_string(),
        Layer::Labels => format!(
            "<g class=\"labels\" font-size=\"{}\" fill=\"{}\" stroke=\"white\" stroke-width=\"3\" stroke-linejoin=\"round\" paint-order=\"stroke\">",
            n(font),
            hex(INK)
        ),
        _ => "<g>".to_string(),
    }
}
