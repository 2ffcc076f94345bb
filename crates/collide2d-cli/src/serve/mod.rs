//! `collide2d serve`: a small static file server for the playground under `web/`.
//!
//! Standard library only, for local use: it listens on 127.0.0.1 alone, answers `GET` and
//! `HEAD` with the files under one directory (`index.html` for a directory), and nothing else.
//! It is bounded ([`Limits`]): a request head is at most [`MAX_HEAD`] bytes and must arrive
//! whole within [`Limits::head_time`] of the connection (a client sending a byte at a time gets
//! no more), at most [`Limits::connections`] connections are served at once and at most
//! [`Limits::per_client`] from one address; a connection past these is answered `503` (`429`
//! past the per-client cap) after its request is read, by at most [`Limits::refusing`] threads
//! with [`Limits::refuse_time`] each, and closed at once past that. Every response closes its
//! connection. (On 127.0.0.1 every client has the same address, so there the per-client cap is
//! a second, lower total: a browser's six connections fit it.) Paths are percent-decoded, a path with a `..`, `.` or empty segment, a
//! backslash or a NUL is refused, and a path whose canonical form (symbolic links followed) is
//! outside the directory is refused too. Content types come from the extension,
//! `application/wasm` included.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{IpAddr, Ipv4Addr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// The longest request head (request line and headers) read, in bytes.
pub const MAX_HEAD: usize = 16 * 1024;
/// How long a client may take to take the response.
pub const TIMEOUT: Duration = Duration::from_secs(10);

/// The server's bounds on its clients.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The time from a connection's accept to the end of its request head.
    pub head_time: Duration,
    /// The most connections served at the same time.
    pub connections: usize,
    /// The most connections served at the same time for one client address.
    pub per_client: usize,
    /// The most connections being refused (their request read, then `503` or `429`) at once.
    pub refusing: usize,
    /// The time a refused connection has to send its request head.
    pub refuse_time: Duration,
}

impl Default for Limits {
    /// 10 s for a request head, 32 connections, 16 per client, 8 being refused with 2 s each.
    fn default() -> Limits {
        Limits {
            head_time: Duration::from_secs(10),
            connections: 32,
            per_client: 16,
            refusing: 8,
            refuse_time: Duration::from_secs(2),
        }
    }
}

/// What is done with a new connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Admission {
    Serve,
    /// Read the request, then answer this status.
    Refuse(u16, &'static str),
    /// Close at once: too many are being refused already.
    Drop,
}

/// The connections open now: served in total and per client, and being refused.
#[derive(Default)]
struct Counts {
    served: usize,
    per_client: HashMap<IpAddr, usize>,
    refusing: usize,
}

impl Counts {
    fn admit(&mut self, client: IpAddr, limits: &Limits) -> Admission {
        let mine = self.per_client.get(&client).copied().unwrap_or(0);
        let refusal = if mine >= limits.per_client {
            (429, "Too Many Requests")
        } else if self.served >= limits.connections {
            (503, "Service Unavailable")
        } else {
            self.served += 1;
            *self.per_client.entry(client).or_insert(0) += 1;
            return Admission::Serve;
        };
        if self.refusing >= limits.refusing {
            return Admission::Drop;
        }
        self.refusing += 1;
        Admission::Refuse(refusal.0, refusal.1)
    }

    fn release(&mut self, client: IpAddr, admission: Admission) {
        match admission {
            Admission::Serve => {
                self.served -= 1;
                if let Some(n) = self.per_client.get_mut(&client) {
                    *n -= 1;
                    if *n == 0 {
                        self.per_client.remove(&client);
                    }
                }
            }
            Admission::Refuse(..) => self.refusing -= 1,
            Admission::Drop => {}
        }
    }
}

/// The `Content-Type` of a file, from its extension.
#[must_use]
pub fn content_type(path: &Path) -> &'static str {
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match extension.as_deref() {
        Some("html" | "htm") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("json" | "map") => "application/json",
        Some("wasm") => "application/wasm",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("ico") => "image/x-icon",
        Some("txt" | "md" | "jsonl") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// Listens on `127.0.0.1:port` (port 0: any free port; the listener knows which).
///
/// # Errors
/// The port is taken or not allowed.
pub fn bind(port: u16) -> io::Result<TcpListener> {
    TcpListener::bind((Ipv4Addr::LOCALHOST, port))
}

/// A connection's place in the [`Counts`], given back when it is dropped (the connection
/// closed, or its thread could not be made).
struct Slot {
    counts: Arc<Mutex<Counts>>,
    client: IpAddr,
    admission: Admission,
}

impl Drop for Slot {
    fn drop(&mut self) {
        // The counts stay usable even if a thread panicked while holding them.
        let mut counts = self.counts.lock().unwrap_or_else(PoisonError::into_inner);
        counts.release(self.client, self.admission);
    }
}

/// Serves `root` on `listener` until the process ends, with the default [`Limits`].
///
/// # Errors
/// The directory cannot be resolved, or the listener itself fails; a failing connection is
/// dropped and the next one served.
pub fn run(listener: &TcpListener, root: &Path) -> io::Result<()> {
    run_with(listener, root, Limits::default())
}

/// Serves `root` on `listener` until the process ends, one thread per connection, within
/// `limits`.
///
/// # Errors
/// As [`run`].
pub fn run_with(listener: &TcpListener, root: &Path, limits: Limits) -> io::Result<()> {
    let root = Arc::new(root.canonicalize()?);
    let counts = Arc::new(Mutex::new(Counts::default()));
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let Ok(client) = stream.peer_addr().map(|a| a.ip()) else {
            continue;
        };
        let admission = counts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .admit(client, &limits);
        let slot = Slot {
            counts: Arc::clone(&counts),
            client,
            admission,
        };
        let root = Arc::clone(&root);
        let work: Box<dyn FnOnce() + Send> = match admission {
            Admission::Drop => continue,
            Admission::Serve => {
                let deadline = Instant::now() + limits.head_time;
                Box::new(move || {
                    let _ = handle(stream, &root, deadline);
                    drop(slot);
                })
            }
            Admission::Refuse(code, reason) => {
                let deadline = Instant::now() + limits.refuse_time;
                Box::new(move || {
                    let _ = refuse(stream, deadline, code, reason);
                    drop(slot);
                })
            }
        };
        // When no thread can be made, the work is dropped unrun, and its slot freed with it.
        let _ = std::thread::Builder::new().spawn(work);
    }
    Ok(())
}

/// Answers the one request on `stream` with a file under `root` (canonical) or an error
/// status; the request head must arrive by `deadline`.
///
/// # Errors
/// Reading the request or writing the response failed (timeouts included).
pub fn handle(mut stream: TcpStream, root: &Path, deadline: Instant) -> io::Result<()> {
    stream.set_write_timeout(Some(TIMEOUT))?;
    answer(&mut stream, root, deadline)?;
    close(stream)
}

/// Reads the request on `stream` (by `deadline`) and answers status `code` whatever it asked.
fn refuse(mut stream: TcpStream, deadline: Instant, code: u16, reason: &str) -> io::Result<()> {
    stream.set_write_timeout(Some(TIMEOUT))?;
    match read_head(&stream, deadline)? {
        Ok(_) => respond_status(&mut stream, code, reason, true)?,
        Err((code, reason)) => respond_status(&mut stream, code, reason, true)?,
    }
    close(stream)
}

/// Closes politely: without reading what the client still sends (a body, the rest of an
/// oversized head), closing would reset the connection and could lose the response.
fn close(mut stream: TcpStream) -> io::Result<()> {
    stream.shutdown(std::net::Shutdown::Write)?;
    stream.set_read_timeout(Some(Duration::from_secs(1)))?;
    let _ = io::copy(&mut (&mut stream).take(1 << 20), &mut io::sink());
    Ok(())
}

fn answer(stream: &mut TcpStream, root: &Path, deadline: Instant) -> io::Result<()> {
    let head = match read_head(stream, deadline)? {
        Ok(head) => head,
        Err((code, reason)) => return respond_status(stream, code, reason, true),
    };
    let mut words = head.lines().next().unwrap_or_default().split(' ');
    let (method, target) = (words.next().unwrap_or_default(), words.next());
    let with_body = match method {
        "GET" => true,
        "HEAD" => false,
        _ => return respond_status(stream, 405, "Method Not Allowed", true),
    };
    let Some(path) = target.and_then(|t| resolve(root, t)) else {
        return respond_status(stream, 404, "Not Found", with_body);
    };
    let file = match File::open(&path).and_then(|f| f.metadata().map(|m| (f, m))) {
        Ok((f, m)) if m.is_file() => (f, m.len()),
        _ => return respond_status(stream, 404, "Not Found", with_body),
    };
    let (mut file, len) = file;
    write!(
        stream,
        "HTTP/1.1 200 OK\r\nContent-Type: {}\r\nContent-Length: {len}\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n",
        content_type(&path)
    )?;
    if with_body {
        io::copy(&mut (&mut file).take(len), stream)?;
    }
    stream.flush()
}

/// A stream read with one deadline for all its reads: each read may wait only for the time
/// left, so a client sending a byte at a time cannot stretch it.
struct Deadline<'a> {
    stream: &'a TcpStream,
    until: Instant,
}

impl Read for Deadline<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::ErrorKind::TimedOut.into());
        }
        self.stream.set_read_timeout(Some(left))?;
        self.stream.read(buf)
    }
}

/// Reads up to the blank line ending the request head, which must end by `deadline`: the head,
/// or the status to answer (`408` when the time is up).
fn read_head(
    stream: &TcpStream,
    deadline: Instant,
) -> io::Result<Result<String, (u16, &'static str)>> {
    let timed = Deadline {
        stream,
        until: deadline,
    };
    let mut reader = BufReader::new(timed.take(MAX_HEAD as u64 + 1));
    let mut head = Vec::new();
    loop {
        let before = head.len();
        let read = match reader.read_until(b'\n', &mut head) {
            Ok(n) => n,
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock
                ) =>
            {
                return Ok(Err((408, "Request Timeout")))
            }
            Err(e) => return Err(e),
        };
        if read == 0 {
            // The client closed early, or the head is longer than allowed.
            return Ok(Err(if head.len() > MAX_HEAD {
                (431, "Request Header Fields Too Large")
            } else {
                (400, "Bad Request")
            }));
        }
        if head.len() > MAX_HEAD {
            return Ok(Err((431, "Request Header Fields Too Large")));
        }
        let line = &head[before..];
        if line == b"\r\n" || line == b"\n" {
            break;
        }
    }
    Ok(String::from_utf8(head).map_err(|_| (400, "Bad Request")))
}

/// The file a request target names under `root` (canonical), as a canonical path, or `None`
/// for a refused path, a missing file or one outside `root` once links are followed.
fn resolve(root: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next()?;
    let path = percent_decode(path.strip_prefix('/')?)?;
    let mut resolved = root.to_path_buf();
    let mut segments = path.split('/').peekable();
    while let Some(segment) = segments.next() {
        let last = segments.peek().is_none();
        if segment.is_empty() && last {
            break; // a trailing slash: the directory itself
        }
        if segment.is_empty()
            || segment == "."
            || segment == ".."
            || segment.contains(['\\', '\0', ':'])
        {
            return None;
        }
        resolved.push(segment);
    }
    if resolved.is_dir() {
        resolved.push("index.html");
    }
    // A symbolic link may lead out of the directory: follow every one, then check.
    let real = resolved.canonicalize().ok()?;
    real.starts_with(root).then_some(real)
}

/// `%XX` escapes decoded; `None` for a bad escape or a result that is not UTF-8.
fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

fn respond_status(
    stream: &mut TcpStream,
    code: u16,
    reason: &str,
    with_body: bool,
) -> io::Result<()> {
    let body = format!("{code} {reason}\n");
    write!(
        stream,
        "HTTP/1.1 {code} {reason}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    if with_body {
        stream.write_all(body.as_bytes())?;
    }
    stream.flush()
}

#[cfg(test)]
#[cfg(unix)] // the tests make symbolic links
mod tests;
