//! Reading JSON Lines input one line at a time, in memory bounded by
//! [`MAX_LINE_BYTES`](collide2d::limits::MAX_LINE_BYTES).

use std::io::{self, BufRead};

/// One line read by [`read_line`].
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// The line fit: its bytes are in the buffer, without the `\n` (a `\r` before it is kept).
    Fits,
    /// The line had `len` bytes (without the `\n` and a `\r` before it), more than the limit;
    /// it was read to its end and dropped, and the buffer holds at most the limit's worth of
    /// its start.
    TooLong {
        /// Its length in bytes, without the `\n` and a `\r` before it.
        len: u64,
    },
}

/// Reads the next line of `input` into `buf` (cleared first); `None` at the end of input.
///
/// A line longer than `max` bytes (without its `\n`, and without a `\r` before it, which the
/// callers ignore) is read to its end but not kept: the memory used stays below `max` plus
/// `input`'s buffer, however long the line. The last line may end without a `\n`.
///
/// # Errors
/// Those of `input`.
pub fn read_line(
    input: &mut impl BufRead,
    buf: &mut Vec<u8>,
    max: usize,
) -> io::Result<Option<Line>> {
    buf.clear();
    let mut len: u64 = 0;
    let mut any = false;
    let mut last = None;
    loop {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            break;
        }
        any = true;
        let (chunk, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..i], true),
            None => (available, false),
        };
        len += chunk.len() as u64;
        last = chunk.last().copied().or(last);
        // Room for the limit and a `\r`.
        let room = (max + 1).saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = chunk.len() + usize::from(done);
        input.consume(used);
        if done {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if last == Some(b'\r') {
        len -= 1;
    }
    if len > max as u64 {
        buf.truncate(max);
        return Ok(Some(Line::TooLong { len }));
    }
    Ok(Some(Line::Fits))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line of `text` read with limit `max`, through a reader that returns `chunk`
    /// bytes at a time.
    fn lines(text: &[u8], max: usize, chunk: usize) -> Vec<(Line, Vec<u8>)> {
        let mut input = io::BufReader::with_capacity(chunk, text);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        while let Some(line) = read_line(&mut input, &mut buf, max).unwrap() {
            out.push((line, buf.clone()));
        }
        out
    }

    #[test]
    fn lines_split_at_newlines_whatever_the_reads() {
        for chunk in [1, 2, 3, 7, 64] {
            let got = lines(b"ab\n\ncd\r\nlast", 10, chunk);
            let want = vec![
                (Line::Fits, b"ab".to_vec()),
                (Line::Fits, b"".to_vec()),
                (Line::Fits, b"cd\r".to_vec()),
                (Line::Fits, b"last".to_vec()),
            ];
            assert_eq!(got, want, "chunk {chunk}");
        }
        assert!(lines(b"", 10, 4).is_empty());
        assert_eq!(lines(b"\n", 10, 4), vec![(Line::Fits, Vec::new())]);
    }

    #[test]
    fn a_line_over_the_limit_is_skipped_and_the_next_one_read() {
        for chunk in [1, 3, 5, 64] {
            let got = lines(b"12345\n123456\n1234567890\nok", 5, chunk);
            assert_eq!(got[0], (Line::Fits, b"12345".to_vec()), "chunk {chunk}");
            assert_eq!(got[1].0, Line::TooLong { len: 6 });
            assert_eq!(got[2].0, Line::TooLong { len: 10 });
            assert!(got[2].1.len() <= 5);
            assert_eq!(got[3], (Line::Fits, b"ok".to_vec()));
        }
    }

    #[test]
    fn a_carriage_return_before_the_break_does_not_count() {
        for chunk in [1, 3, 64] {
            let got = lines(b"12345\r\n123456\r\n12345\r", 5, chunk);
            assert_eq!(got[0], (Line::Fits, b"12345\r".to_vec()), "chunk {chunk}");
            assert_eq!(got[1].0, Line::TooLong { len: 6 });
            assert_eq!(got[2], (Line::Fits, b"12345\r".to_vec()));
            assert_eq!(
                lines(b"1234567\r\n", 5, chunk)[0].0,
                Line::TooLong { len: 7 }
            );
            // A `\r` elsewhere is a byte like any other.
            assert_eq!(lines(b"1234\r6\n", 5, chunk)[0].0, Line::TooLong { len: 6 });
        }
    }
}
