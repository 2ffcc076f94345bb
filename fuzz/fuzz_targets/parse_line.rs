//! Bytes into the command line's query-line parser, then the answer: every input gives one
//! JSON line (an answer or an error), never a panic, and never the "internal error" that would
//! mean the library's answers contradict each other or are not finite.
#![no_main]

use collide2d_cli::json;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // One line, as `collide2d query` sees it.
    let line = text.split('\n').next().unwrap_or_default();
    let out = match json::parse_line(line) {
        Ok(query) => {
            let answer = query.answer().expect("consistent answers");
            answer.to_line().expect("finite numbers")
        }
        Err(message) => json::error_line(1, &message),
    };
    let value: serde_json::Value = serde_json::from_str(&out).expect("the output is JSON");
    assert!(value.is_object(), "{out}");
});
