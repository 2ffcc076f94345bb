//! Bytes into the serde shape loader: any input is a shape or an error, never a panic or a
//! stack overflow; a loaded shape writes back to JSON that loads as the same shape.
#![no_main]

use collide2d::Shape;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(shape) = serde_json::from_slice::<Shape>(data) else {
        return;
    };
    // Through a `Value` too, as the command line reads shapes.
    let value: serde_json::Value = serde_json::from_slice(data).expect("it parsed once");
    let from_value: Shape = serde_json::from_value(value).expect("same shape from a Value");
    assert_eq!(from_value, shape);
    let text = serde_json::to_string(&shape).expect("a loaded shape serialises");
    let back: Shape = serde_json::from_str(&text).expect("written JSON loads");
    // Loading cleans polygons (drops repeated and straight points) once; the second load of the
    // cleaned points gives the same polygon.
    assert_eq!(back, shape, "{text}");
    let _ = back.aabb();
});
