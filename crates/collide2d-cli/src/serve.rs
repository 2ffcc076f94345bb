//! `collide2d serve`: a small static file server for the playground under `web/`.
//!
//! Standard library only, for local use: it listens on 127.0.0.1 alone, answers `GET` and
//! `HEAD` with the files under one directory (`index.html` for a directory), and nothing else.
//! It is bounded: a request head is at most [`MAX_HEAD`] bytes and must arrive within
//! [`TIMEOUT`], at most [`MAX_CONNECTIONS`] connections are served at once (the next ones get
//! `503`), and every response closes its connection. Paths are percent-decoded, and a path
//! with a `..`, `.` or empty segment, a backslash or a NUL is refused, so nothing outside the
//! directory is served. Content types come from the extension, `application/wasm` included.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The longest request head (request line and headers) read, in bytes.
pub const MAX_HEAD: usize = 16 * 1024;
/// How long a client may take to send its request, or to take the response.
pub const TIMEOUT: Duration = Duration::from_secs(10);
/// The most connections served at the same time.
pub const MAX_CONNECTIONS: usize = 32;

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

/// Serves `root` on `listener` until the process ends, one thread per connection.
///
/// # Errors
/// Only when the listener itself fails; a failing connection is dropped and the next one served.
pub fn run(listener: &TcpListener, root: &Path) -> io::Result<()> {
    let root = Arc::new(root.to_path_buf());
    let active = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let Ok(mut stream) = stream else { continue };
        if active.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
            active.fetch_sub(1, Ordering::SeqCst);
            let _ = respond_status(&mut stream, 503, "Service Unavailable", false);
            continue;
        }
        let (root, counter) = (Arc::clone(&root), Arc::clone(&active));
        let spawned = std::thread::Builder::new().spawn(move || {
            let _ = handle(stream, &root);
            counter.fetch_sub(1, Ordering::SeqCst);
        });
        if spawned.is_err() {
            active.fetch_sub(1, Ordering::SeqCst);
        }
    }
    Ok(())
}

/// Answers the one request on `stream` with a file under `root` or an error status.
///
/// # Errors
/// Reading the request or writing the response failed (timeouts included).
pub fn handle(mut stream: TcpStream, root: &Path) -> io::Result<()> {
    stream.set_read_timeout(Some(TIMEOUT))?;
    stream.set_write_timeout(Some(TIMEOUT))?;
    answer(&mut stream, root)?;
    // Close politely: without reading what the client still sends (a body, the rest of an
    // oversized head), closing would reset the connection and could lose the response.
    stream.shutdown(std::net::Shutdown::Write)?;
    stream.set_read_timeout(Some(Duration::from_secs(1)))?;
    let _ = io::copy(&mut (&mut stream).take(1 << 20), &mut io::sink());
    Ok(())
}

fn answer(stream: &mut TcpStream, root: &Path) -> io::Result<()> {
    let head = match read_head(stream)? {
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

/// Reads up to the blank line ending the request head: the head, or the status to answer.
fn read_head(stream: &mut TcpStream) -> io::Result<Result<String, (u16, &'static str)>> {
    let mut reader = BufReader::new(stream.take(MAX_HEAD as u64 + 1));
    let mut head = Vec::new();
    loop {
        let before = head.len();
        if reader.read_until(b'\n', &mut head)? == 0 {
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

/// The file a request target names under `root`, or `None` for a refused path.
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
    Some(resolved)
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
mod tests {
    use super::*;
    use std::net::SocketAddr;

    /// A served directory with a page, a wasm file and a subdirectory, and a file beside it
    /// that must stay out of reach.
    fn served() -> (SocketAddr, PathBuf) {
        let base = std::env::temp_dir().join(format!(
            "collide2d-serve-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let root = base.join("www");
        std::fs::create_dir_all(root.join("pkg")).unwrap();
        std::fs::write(root.join("index.html"), "<p>hello</p>").unwrap();
        std::fs::write(root.join("pkg/app.wasm"), b"\0asm\x01\0\0\0").unwrap();
        std::fs::write(root.join("pkg/index.html"), "pkg page").unwrap();
        std::fs::write(root.join("a b.js"), "let x = 1;").unwrap();
        std::fs::write(base.join("secret.txt"), "secret").unwrap();
        let listener = bind(0).unwrap();
        let address = listener.local_addr().unwrap();
        let served_root = root.clone();
        std::thread::spawn(move || run(&listener, &served_root));
        (address, root)
    }

    fn request(address: SocketAddr, text: &str) -> (String, Vec<u8>) {
        let mut stream = TcpStream::connect(address).unwrap();
        stream.write_all(text.as_bytes()).unwrap();
        let mut response = Vec::new();
        stream.read_to_end(&mut response).unwrap();
        let split = response.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
        let head = String::from_utf8(response[..split].to_vec()).unwrap();
        (head, response[split + 4..].to_vec())
    }

    fn get(address: SocketAddr, path: &str) -> (String, Vec<u8>) {
        request(address, &format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n"))
    }

    #[test]
    fn files_come_with_their_content_type() {
        let (address, _) = served();
        let (head, body) = get(address, "/");
        assert!(head.starts_with("HTTP/1.1 200 OK"), "{head}");
        assert!(head.contains("Content-Type: text/html; charset=utf-8"));
        assert_eq!(body, b"<p>hello</p>");
        let (head, body) = get(address, "/pkg/app.wasm");
        assert!(head.contains("Content-Type: application/wasm"), "{head}");
        assert!(head.contains("Content-Length: 8"));
        assert_eq!(body, b"\0asm\x01\0\0\0");
        let (head, body) = get(address, "/a%20b.js?v=2");
        assert!(head.contains("text/javascript"), "{head}");
        assert_eq!(body, b"let x = 1;");
        assert_eq!(get(address, "/pkg/").1, b"pkg page");
        assert_eq!(get(address, "/pkg").1, b"pkg page");
    }

    #[test]
    fn nothing_outside_the_directory_is_served() {
        let (address, _) = served();
        for path in [
            "/../secret.txt",
            "/pkg/../../secret.txt",
            "/%2e%2e/secret.txt",
            "/pkg%2f..%2f..%2fsecret.txt",
            "//etc/passwd",
            "/..%5csecret.txt",
            "/missing.html",
            "/%zz",
            "secret.txt",
        ] {
            let (head, body) = get(address, path);
            assert!(head.starts_with("HTTP/1.1 404"), "{path}: {head}");
            assert!(!String::from_utf8_lossy(&body).contains("secret"), "{path}");
        }
    }

    #[test]
    fn only_get_and_head_are_answered() {
        let (address, _) = served();
        let (head, body) = request(address, "HEAD / HTTP/1.1\r\n\r\n");
        assert!(head.starts_with("HTTP/1.1 200 OK"), "{head}");
        assert!(head.contains("Content-Length: 12"));
        assert!(body.is_empty());
        let (head, _) = request(address, "POST / HTTP/1.1\r\nContent-Length: 0\r\n\r\n");
        assert!(head.starts_with("HTTP/1.1 405"), "{head}");
    }

    #[test]
    fn oversized_or_cut_requests_are_refused() {
        let (address, _) = served();
        let long = format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(MAX_HEAD + 10));
        let (head, _) = request(address, &long);
        assert!(head.starts_with("HTTP/1.1 431"), "{head}");
        let mut stream = TcpStream::connect(address).unwrap();
        stream.write_all(b"GET / HTTP/1.1\r\n").unwrap();
        stream.shutdown(std::net::Shutdown::Write).unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        assert!(response.starts_with("HTTP/1.1 400"), "{response}");
    }

    #[test]
    fn content_types_by_extension() {
        assert_eq!(content_type(Path::new("x.WASM")), "application/wasm");
        assert_eq!(content_type(Path::new("a/b.svg")), "image/svg+xml");
        assert_eq!(content_type(Path::new("noext")), "application/octet-stream");
    }
}
