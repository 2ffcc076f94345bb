//! The scratch buffer: where a query writes the numbers of its answer for JavaScript to read.
//!
//! WebAssembly is single-threaded here, so one buffer serves every call; each query writes it
//! before returning and JavaScript reads it at once, before any other call.

use std::cell::Cell;
use wasm_bindgen::prelude::wasm_bindgen;

/// How many numbers the buffer holds: the longest answer (a contact with two points and its
/// count, a move's header) fits.
pub const SCRATCH_LEN: usize = 16;

thread_local! {
    static OUT: Cell<[f64; SCRATCH_LEN]> = const { Cell::new([0.0; SCRATCH_LEN]) };
}

/// The scratch buffer's address in wasm memory (a `Float64Array` of [`SCRATCH_LEN`] numbers
/// there is the answer of the last query).
#[wasm_bindgen(js_name = scratchAddress)]
#[must_use]
pub fn scratch() -> usize {
    OUT.with(|c| c.as_ptr() as usize)
}

/// Writes `values` at the start of the buffer (numbers past [`SCRATCH_LEN`] are dropped).
pub(crate) fn write(values: &[f64]) {
    OUT.with(|c| {
        let c: &Cell<[f64]> = c;
        for (cell, &v) in c.as_slice_of_cells().iter().zip(values) {
            cell.set(v);
        }
    });
}

/// The first `n` numbers of the buffer (for tests).
#[cfg(test)]
pub(crate) fn read(n: usize) -> Vec<f64> {
    OUT.with(|c| c.get()[..n].to_vec())
}
