//! The server over real sockets: files, refused paths, methods, bounds.
use super::*;
use std::net::SocketAddr;

/// A served directory with a page, a wasm file and a subdirectory, and a file beside it
/// that must stay out of reach.
fn served() -> (SocketAddr, PathBuf) {
    served_with(Limits::default())
}

/// As [`served`], within `limits`; the directory also holds a link out of it (`outlink`, to the
/// directory holding the secret) and one inside it (`inlink`, to `pkg`).
fn served_with(limits: Limits) -> (SocketAddr, PathBuf) {
    let base = std::env::temp_dir().join(format!(
        "collide2d-serve-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    let _ = std::fs::remove_dir_all(&base);
    let root = base.join("www");
    std::fs::create_dir_all(root.join("pkg")).unwrap();
    std::fs::write(root.join("index.html"), "<p>hello</p>").unwrap();
    std::fs::write(root.join("pkg/app.wasm"), b"\0asm\x01\0\0\0").unwrap();
    std::fs::write(root.join("pkg/index.html"), "pkg page").unwrap();
    std::fs::write(root.join("a b.js"), "let x = 1;").unwrap();
    std::fs::write(base.join("secret.txt"), "secret").unwrap();
    std::os::unix::fs::symlink(&base, root.join("outlink")).unwrap();
    std::os::unix::fs::symlink(root.join("pkg"), root.join("inlink")).unwrap();
    let listener = bind(0).unwrap();
    let address = listener.local_addr().unwrap();
    let served_root = root.clone();
    std::thread::spawn(move || run_with(&listener, &served_root, limits));
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
        "/outlink/secret.txt",
    ] {
        let (head, body) = get(address, path);
        assert!(head.starts_with("HTTP/1.1 404"), "{path}: {head}");
        assert!(!String::from_utf8_lossy(&body).contains("secret"), "{path}");
    }
}

#[test]
fn links_inside_the_directory_are_followed() {
    let (address, _) = served();
    assert_eq!(get(address, "/inlink/index.html").1, b"pkg page");
    assert_eq!(get(address, "/inlink/").1, b"pkg page");
}

/// Limits with `head_time` for a request head and `connections` in all, `per_client` each.
fn limits(head_time: Duration, connections: usize, per_client: usize) -> Limits {
    Limits {
        head_time,
        connections,
        per_client,
        refusing: 2,
        refuse_time: Duration::from_millis(1500),
    }
}

#[test]
fn a_client_sending_a_byte_at_a_time_gets_no_more_than_the_head_time() {
    let (address, _) = served_with(limits(Duration::from_millis(800), 4, 4));
    let mut stream = TcpStream::connect(address).unwrap();
    let start = Instant::now();
    stream
        .set_read_timeout(Some(Duration::from_millis(100)))
        .unwrap();
    let mut response = Vec::new();
    // A byte every 100 ms, each well within any per-read timeout, for up to 5 s.
    for byte in b"GET / HTTP/1.1\r\nX-Drip: "
        .iter()
        .chain([b'a'; 64].iter())
    {
        if stream.write_all(&[*byte]).is_err() {
            break;
        }
        let mut buf = [0u8; 256];
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => response.extend_from_slice(&buf[..n]),
            Err(_) => {}
        }
        if start.elapsed() > Duration::from_secs(5) {
            break;
        }
    }
    let elapsed = start.elapsed();
    assert!(elapsed < Duration::from_secs(3), "held {elapsed:?}");
    let response = String::from_utf8_lossy(&response);
    assert!(response.starts_with("HTTP/1.1 408"), "{response}");
}

#[test]
fn past_the_cap_the_request_is_read_before_the_503() {
    let (address, _) = served_with(limits(Duration::from_secs(5), 1, 4));
    // One connection holds the only place.
    let _holder = TcpStream::connect(address).unwrap();
    std::thread::sleep(Duration::from_millis(100));
    let mut stream = TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_millis(300)))
        .unwrap();
    let mut early = [0u8; 64];
    let before = stream.read(&mut early);
    assert!(before.is_err(), "answered before the request: {before:?}");
    stream.write_all(b"GET / HTTP/1.1\r\n\r\n").unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(3)))
        .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    assert!(response.starts_with("HTTP/1.1 503"), "{response}");
}

#[test]
fn one_client_may_hold_only_its_share_of_the_connections() {
    let (address, _) = served_with(limits(Duration::from_secs(5), 8, 2));
    let _held: Vec<TcpStream> = (0..2)
        .map(|_| TcpStream::connect(address).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(100));
    let (head, _) = get(address, "/");
    assert!(head.starts_with("HTTP/1.1 429"), "{head}");
}

#[test]
fn counts_say_who_is_served_and_free_their_places() {
    let l = limits(Duration::from_secs(1), 2, 1);
    let (a, b) = (IpAddr::from([127, 0, 0, 1]), IpAddr::from([127, 0, 0, 2]));
    let mut counts = Counts::default();
    assert_eq!(counts.admit(a, &l), Admission::Serve);
    assert_eq!(
        counts.admit(a, &l),
        Admission::Refuse(429, "Too Many Requests")
    );
    assert_eq!(counts.admit(b, &l), Admission::Serve);
    assert_eq!(
        counts.admit(b, &l),
        Admission::Refuse(429, "Too Many Requests")
    );
    // Two being refused already: the next is closed at once.
    assert_eq!(
        counts.admit(IpAddr::from([127, 0, 0, 3]), &l),
        Admission::Drop
    );
    counts.release(a, Admission::Refuse(429, "Too Many Requests"));
    assert_eq!(
        counts.admit(IpAddr::from([127, 0, 0, 3]), &l),
        Admission::Refuse(503, "Service Unavailable")
    );
    counts.release(a, Admission::Serve);
    assert!(!counts.per_client.contains_key(&a));
    assert_eq!(counts.served, 1);
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
