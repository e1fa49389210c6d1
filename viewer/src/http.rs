//! The little of HTTP/1.1 a page on the loopback address needs: one
//! request per connection, read from its head (a request with a body is
//! refused), one answer with its length, then the connection is closed.
//!
//! Each connection gets a thread of its own from the moment it is
//! accepted, so a connection a browser opens ahead and leaves idle holds
//! up nothing else (tiny_http's pool left new connections waiting behind
//! such ones, and the page stalled under load).
//!
//! Every client is 127.0.0.1, so clients cannot be told apart by address;
//! instead, reading a request head and answering a request are counted
//! apart. A connection is *waiting* until it has sent a whole head, which
//! must come within `HEAD_DEADLINE` of its acceptance; when
//! `MAX_WAITING` connections wait, the one waiting longest is dropped to
//! make room. Only a whole request takes one of the `MAX_ANSWERING`
//! answering slots. So connections left idle, or trickling a byte now and
//! then, cannot keep a whole request from being answered.
//!
//! A request is only answered when its `Host` header names the address
//! the server printed: a web page the user visits elsewhere can then not
//! reach the server by pointing a name of its own at 127.0.0.1 (DNS
//! rebinding).

use std::collections::BTreeMap;
use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The longest request head read: a request line and headers as browsers
/// send them fit many times over.
const MAX_HEAD: usize = 32 << 10;
/// Connections that have not yet sent a whole request head; past this, the
/// one waiting longest is dropped. Each is a thread blocked in a read.
const MAX_WAITING: usize = 256;
/// Requests answered at once; past this, a request is refused at once
/// with 503.
const MAX_ANSWERING: usize = 64;
/// How long a connection may take to send its whole request head, from
/// its acceptance.
const HEAD_DEADLINE: Duration = Duration::from_secs(10);
/// How long a client may take to take its whole answer.
const ANSWER_DEADLINE: Duration = Duration::from_secs(60);
/// How long to wait before accepting again after accepting failed: the
/// error (out of file descriptors, say) would otherwise come back at once,
/// and the accepting thread would spin.
const ACCEPT_PAUSE: Duration = Duration::from_millis(50);
/// Bytes written at a time, each write bounded by what is left of the
/// answer's deadline.
const WRITE_CHUNK: usize = 64 << 10;

/// A request: its method and target (path and query, as sent).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub method: String,
    pub target: String,
}

/// An answer before it is sent.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    pub status: u16,
    pub media_type: &'static str,
    /// Shared, so that an answer kept (a made asset) is sent without a
    /// copy of its bytes for each connection.
    pub body: Arc<[u8]>,
    pub headers: Vec<(&'static str, String)>,
}

/// The connection a request came on, while its answer is being made: work
/// that takes a while asks it whether there is still anyone to answer.
pub struct Client<'a> {
    /// Non-blocking while the answer is made, so that asking costs nothing.
    stream: &'a TcpStream,
}

impl Client<'_> {
    /// Whether the client has closed or reset the connection. A client
    /// that only closes its sending half counts as gone too: browsers
    /// never do that while they wait for an answer.
    pub fn gone(&self) -> bool {
        let mut byte = [0; 1];
        match self.stream.peek(&mut byte) {
            Ok(0) => true,
            Ok(_) => false,
            Err(error) => !matches!(error.kind(), ErrorKind::WouldBlock | ErrorKind::Interrupted),
        }
    }
}

/// Listening on a loopback address, each connection answered on a thread
/// of its own, until [`Listening::stop`].
pub struct Listening {
    address: SocketAddr,
    stopping: Arc<AtomicBool>,
    accepting: JoinHandle<()>,
}

impl Listening {
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// Stops accepting connections; those being answered finish.
    pub fn stop(self) {
        self.stopping.store(true, Ordering::SeqCst);
        // Wakes the accepting thread, which then sees it is to stop.
        let _ = TcpStream::connect(self.address);
        let _ = self.accepting.join();
    }
}

/// What the threads of one server share.
struct Shared<F> {
    address: SocketAddr,
    answer: F,
    waiting: Mutex<Waiting>,
    answering: AtomicUsize,
}

/// The connections that have not yet sent a whole head, by the order they
/// were accepted in, each a second handle to its socket so that it can be
/// shut down from the accepting thread.
#[derive(Default)]
struct Waiting {
    accepted: u64,
    streams: BTreeMap<u64, TcpStream>,
}

impl<F> Shared<F> {
    /// Counts `stream` as waiting for its head, dropping the connection
    /// waiting longest if there is no room; `None` when the stream cannot
    /// be counted (no file descriptor left for its second handle).
    fn start_waiting(&self, stream: &TcpStream) -> Option<u64> {
        let handle = stream.try_clone().ok()?;
        let mut waiting = self.waiting.lock().unwrap_or_else(PoisonError::into_inner);
        if waiting.streams.len() >= MAX_WAITING {
            if let Some((_, oldest)) = waiting.streams.pop_first() {
                // Its thread's read returns at once, and the thread ends.
                let _ = oldest.shutdown(Shutdown::Both);
            }
        }
        waiting.accepted += 1;
        let id = waiting.accepted;
        waiting.streams.insert(id, handle);
        Some(id)
    }

    /// Stops counting connection `id` as waiting; false when it was dropped
    /// to make room (and is shut down).
    fn stop_waiting(&self, id: u64) -> bool {
        let mut waiting = self.waiting.lock().unwrap_or_else(PoisonError::into_inner);
        waiting.streams.remove(&id).is_some()
    }
}

/// One of the answering slots, given back when dropped.
struct Slot<'a>(&'a AtomicUsize);

impl<'a> Slot<'a> {
    fn take(answering: &'a AtomicUsize) -> Option<Slot<'a>> {
        if answering.fetch_add(1, Ordering::SeqCst) >= MAX_ANSWERING {
            answering.fetch_sub(1, Ordering::SeqCst);
            return None;
        }
        Some(Slot(answering))
    }
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Listens on `listener` and answers each request with `answer`.
pub fn serve<F>(listener: TcpListener, answer: F) -> std::io::Result<Listening>
where
    F: Fn(&Request, &Client) -> Answer + Send + Sync + 'static,
{
    let address = listener.local_addr()?;
    let stopping = Arc::new(AtomicBool::new(false));
    let shared = Arc::new(Shared {
        address,
        answer,
        waiting: Mutex::new(Waiting::default()),
        answering: AtomicUsize::new(0),
    });
    let accepting = {
        let stopping = Arc::clone(&stopping);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stopping.load(Ordering::SeqCst) {
                    break;
                }
                // A connection that failed before it was accepted is the
                // client's affair; running out of file descriptors passes.
                let Ok(stream) = stream else {
                    std::thread::sleep(ACCEPT_PAUSE);
                    continue;
                };
                let Some(id) = shared.start_waiting(&stream) else {
                    continue;
                };
                let connection = Arc::clone(&shared);
                let spawned = std::thread::Builder::new()
                    .name("ossuary view".to_owned())
                    .spawn(move || {
                        let _ = converse(stream, id, &connection);
                    });
                // Without a thread, the connection (moved into the closure
                // that was not run) is closed.
                if spawned.is_err() {
                    shared.stop_waiting(id);
                }
            }
        })
    };
    Ok(Listening {
        address,
        stopping,
        accepting,
    })
}

/// Reads one request from `stream` (connection `id`) and answers it.
fn converse<F>(stream: TcpStream, id: u64, shared: &Shared<F>) -> std::io::Result<()>
where
    F: Fn(&Request, &Client) -> Answer,
{
    let head = read_head(&stream, Instant::now() + HEAD_DEADLINE);
    if !shared.stop_waiting(id) {
        // Dropped to make room for a newer connection.
        return Ok(());
    }
    let head = match head? {
        Head::Complete(head) => head,
        Head::TooLong => {
            return respond(stream, &plain(431, "the request head is too long"), true);
        }
        // A connection opened ahead and never used, or one trickling its
        // head past the deadline, gets nothing.
        Head::Closed | Head::TimedOut => return Ok(()),
    };
    let request = match parse(&head, shared.address) {
        Ok(request) => request,
        Err(refusal) => return respond(stream, &refusal, true),
    };
    let Some(_slot) = Slot::take(&shared.answering) else {
        return respond(stream, &busy(), true);
    };
    stream.set_nonblocking(true)?;
    let reply = (shared.answer)(&request, &Client { stream: &stream });
    stream.set_nonblocking(false)?;
    respond(stream, &reply, request.method != "HEAD")
}

/// What a connection sent before its request's first empty line.
#[derive(Debug, PartialEq)]
enum Head {
    /// The request line and headers, up to and with the empty line.
    Complete(Vec<u8>),
    /// More than [`MAX_HEAD`] bytes without an empty line.
    TooLong,
    /// The client closed the connection before it ended a head.
    Closed,
    /// The deadline passed before the head ended.
    TimedOut,
}

/// Reads a request head that must end by `deadline`, however the client
/// spreads its bytes.
fn read_head(mut stream: &TcpStream, deadline: Instant) -> std::io::Result<Head> {
    let mut head = Vec::new();
    let mut chunk = [0; 2048];
    // Where the line being read starts: each byte is looked at once.
    let mut line_start = 0;
    loop {
        let Some(left) = time_left(deadline) else {
            return Ok(Head::TimedOut);
        };
        stream.set_read_timeout(Some(left))?;
        let room = chunk.len().min(MAX_HEAD.saturating_sub(head.len()));
        let read = match stream.read(chunk.get_mut(..room).unwrap_or_default()) {
            Ok(0) => return Ok(Head::Closed),
            Ok(read) => read,
            Err(error) if matches!(error.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                return Ok(Head::TimedOut)
            }
            Err(error) if error.kind() == ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        let start = head.len();
        head.extend(chunk.iter().take(read));
        for at in start..head.len() {
            if head.get(at) != Some(&b'\n') {
                continue;
            }
            if matches!(head.get(line_start..at), Some(b"" | b"\r")) {
                head.truncate(at + 1);
                return Ok(Head::Complete(head));
            }
            line_start = at + 1;
        }
        if head.len() >= MAX_HEAD {
            return Ok(Head::TooLong);
        }
    }
}

/// What is left until `deadline`, if anything.
fn time_left(deadline: Instant) -> Option<Duration> {
    deadline
        .checked_duration_since(Instant::now())
        .filter(|left| !left.is_zero())
}

/// The request a head holds, or the answer that refuses it; `address` is
/// the server's.
fn parse(head: &[u8], address: SocketAddr) -> Result<Request, Answer> {
    let text = std::str::from_utf8(head).map_err(|_| plain(400, "a request head is ASCII"))?;
    let mut lines = text.lines();
    let line = lines.next().unwrap_or_default();
    let mut parts = line.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(plain(400, "the request line is METHOD TARGET HTTP/1.1"));
    };
    if !version.starts_with("HTTP/1.") {
        return Err(plain(505, "only HTTP/1.0 and 1.1 are answered"));
    }
    if method != "GET" && method != "HEAD" {
        return Err(plain(405, "only GET is answered"));
    }
    let headers: Vec<(&str, &str)> = lines
        .map(|header| {
            let (name, value) = header.split_once(':').unwrap_or((header, ""));
            (name.trim(), value.trim())
        })
        .collect();
    let has_body = headers.iter().any(|(name, value)| {
        (name.eq_ignore_ascii_case("content-length") && *value != "0")
            || name.eq_ignore_ascii_case("transfer-encoding")
    });
    if has_body {
        return Err(plain(400, "a GET request has no body"));
    }
    let mut hosts = headers
        .iter()
        .filter(|(name, _)| name.eq_ignore_ascii_case("host"))
        .map(|(_, value)| *value)
        .peekable();
    if hosts.peek().is_none() || !hosts.all(|host| is_own_host(host, address.port())) {
        return Err(plain(
            403,
            &format!(
                "only requests for 127.0.0.1:{port} or localhost:{port} (the Host header) are answered",
                port = address.port()
            ),
        ));
    }
    Ok(Request {
        method: method.to_owned(),
        target: target.to_owned(),
    })
}

/// Whether a `Host` header names this server: 127.0.0.1 or localhost, at
/// its port (which a browser leaves out when it is 80).
fn is_own_host(host: &str, port: u16) -> bool {
    let (name, host_port) = match host.rsplit_once(':') {
        Some((name, host_port)) => (name, host_port.parse::<u16>().ok()),
        None => (host, (port == 80).then_some(80)),
    };
    host_port == Some(port) && (name == "127.0.0.1" || name.eq_ignore_ascii_case("localhost"))
}

fn plain(status: u16, message: &str) -> Answer {
    Answer {
        status,
        media_type: "text/plain; charset=utf-8",
        body: message.as_bytes().into(),
        headers: Vec::new(),
    }
}

fn busy() -> Answer {
    plain(503, "too many requests at once")
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        422 => "Unprocessable Content",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "",
    }
}

/// Writes `answer` (its body unless `with_body` is false: a HEAD request)
/// and closes the connection; a client that takes longer than
/// [`ANSWER_DEADLINE`] to take it is left.
fn respond(mut stream: TcpStream, answer: &Answer, with_body: bool) -> std::io::Result<()> {
    let deadline = Instant::now() + ANSWER_DEADLINE;
    let mut head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n",
        answer.status,
        reason(answer.status),
        answer.media_type,
        answer.body.len()
    );
    for (name, value) in &answer.headers {
        // A value cannot end the header early.
        if !value.contains(['\r', '\n']) {
            head += &format!("{name}: {value}\r\n");
        }
    }
    head += "\r\n";
    write_by(&mut stream, head.as_bytes(), deadline)?;
    if with_body {
        write_by(&mut stream, &answer.body, deadline)?;
    }
    stream.flush()?;
    stream.shutdown(Shutdown::Write)
}

/// Writes `bytes` by `deadline`, however slowly the client reads.
fn write_by(stream: &mut TcpStream, bytes: &[u8], deadline: Instant) -> std::io::Result<()> {
    let mut rest = bytes;
    while !rest.is_empty() {
        let left = time_left(deadline).ok_or_else(|| {
            std::io::Error::new(ErrorKind::TimedOut, "the client took too long to read")
        })?;
        stream.set_write_timeout(Some(left))?;
        match stream.write(rest.get(..WRITE_CHUNK).unwrap_or(rest)) {
            Ok(0) => return Err(ErrorKind::WriteZero.into()),
            Ok(written) => rest = rest.get(written..).unwrap_or_default(),
            Err(error) if error.kind() == ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;

    use super::*;

    const SERVER: SocketAddr =
        SocketAddr::new(std::net::IpAddr::V4(std::net::Ipv4Addr::LOCALHOST), 8080);

    /// Sends `GET target` with the right `Host` and reads the whole reply.
    fn get(address: SocketAddr, target: &str) -> String {
        let mut stream = TcpStream::connect(address).unwrap();
        write!(stream, "GET {target} HTTP/1.1\r\nHost: {address}\r\n\r\n").unwrap();
        let mut reply = String::new();
        stream.read_to_string(&mut reply).unwrap();
        reply
    }

    #[test]
    fn a_request_head_gives_its_method_and_target() {
        let request = parse(
            b"GET /api/list?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n",
            SERVER,
        )
        .unwrap();
        assert_eq!(
            request,
            Request {
                method: "GET".to_owned(),
                target: "/api/list?x=1".to_owned()
            }
        );
    }

    #[test]
    fn requests_other_than_plain_gets_are_refused() {
        for (head, status) in [
            (&b"POST / HTTP/1.1\r\n\r\n"[..], 405),
            (b"GET / HTTP/2\r\n\r\n", 505),
            (b"GET /\r\n\r\n", 400),
            (b"GET / HTTP/1.1 extra\r\n\r\n", 400),
            (b"GET / HTTP/1.1\r\nContent-Length: 5\r\n\r\n", 400),
            (b"GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
            (b"GET /\xff HTTP/1.1\r\n\r\n", 400),
        ] {
            assert_eq!(parse(head, SERVER).unwrap_err().status, status, "{head:?}");
        }
    }

    #[test]
    fn only_requests_for_the_printed_address_are_answered() {
        for host in ["127.0.0.1:8080", "localhost:8080", "LocalHost:8080"] {
            let head = format!("GET / HTTP/1.1\r\nHost: {host}\r\n\r\n");
            assert!(parse(head.as_bytes(), SERVER).is_ok(), "{host}");
        }
        for hosts in [
            "",
            "Host: attacker.example\r\n",
            "Host: attacker.example:8080\r\n",
            "Host: localhost.attacker.example:8080\r\n",
            "Host: 127.0.0.1\r\n",
            "Host: 127.0.0.1:8081\r\n",
            "Host: 127.0.0.1:8080\r\nHost: attacker.example\r\n",
        ] {
            let head = format!("GET / HTTP/1.1\r\n{hosts}\r\n");
            let refusal = parse(head.as_bytes(), SERVER).unwrap_err();
            assert_eq!(refusal.status, 403, "{hosts:?}");
        }
        let port_80 = SocketAddr::new(SERVER.ip(), 80);
        assert!(parse(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", port_80).is_ok());
    }

    #[test]
    fn another_host_is_refused_with_403() {
        let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap();
        let listening = serve(listener, |_, _| plain(200, "answered")).unwrap();
        let mut stream = TcpStream::connect(listening.address()).unwrap();
        write!(stream, "GET / HTTP/1.1\r\nHost: attacker.example\r\n\r\n").unwrap();
        let mut reply = String::new();
        stream.read_to_string(&mut reply).unwrap();
        assert!(reply.starts_with("HTTP/1.1 403 Forbidden\r\n"), "{reply}");
        listening.stop();
    }

    #[test]
    fn every_connection_is_answered_while_others_sit_idle() {
        let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap();
        let listening = serve(listener, |request, _| plain(200, &request.target)).unwrap();
        // Connections opened ahead and left idle, as browsers do.
        let idle: Vec<TcpStream> = (0..8)
            .map(|_| TcpStream::connect(listening.address()).unwrap())
            .collect();
        for index in 0..8 {
            let reply = get(listening.address(), &format!("/{index}"));
            assert!(reply.starts_with("HTTP/1.1 200 OK\r\n"), "{reply}");
            assert!(reply.contains("Connection: close\r\n"), "{reply}");
            assert!(reply.ends_with(&format!("\r\n\r\n/{index}")), "{reply}");
        }
        drop(idle);
        listening.stop();
    }

    #[test]
    fn a_request_is_answered_while_many_connections_trickle_or_sit_idle() {
        let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap();
        let listening = serve(listener, |_, _| plain(200, "answered")).unwrap();
        let address = listening.address();
        // More than MAX_WAITING in all, as the issue's attack opened them.
        let idle: Vec<TcpStream> = (0..200)
            .map(|_| TcpStream::connect(address).unwrap())
            .collect();
        let mut trickling: Vec<TcpStream> = (0..70)
            .map(|_| TcpStream::connect(address).unwrap())
            .collect();
        let (stop, stopped) = mpsc::channel::<()>();
        let trickler = std::thread::spawn(move || {
            let head = b"GET / HTTP/1.1\r\nX-Slow: ";
            for byte in head.iter().cycle() {
                for stream in &mut trickling {
                    // A connection given up on is the server's right.
                    let _ = stream.write_all(&[*byte]);
                }
                if stopped.recv_timeout(Duration::from_millis(100)).is_ok() {
                    break;
                }
            }
        });
        std::thread::sleep(Duration::from_millis(300));
        let started = Instant::now();
        let reply = get(address, "/");
        let took = started.elapsed();
        stop.send(()).unwrap();
        trickler.join().unwrap();
        drop(idle);
        listening.stop();
        assert!(reply.starts_with("HTTP/1.1 200 OK\r\n"), "{reply}");
        assert!(took < Duration::from_secs(2), "answered in {took:?}");
    }

    #[test]
    fn a_head_trickled_past_its_deadline_is_given_up() {
        let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap();
        let mut client = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (server, _) = listener.accept().unwrap();
        let trickler = std::thread::spawn(move || {
            // A byte every 50 ms: each read comes well within any per-read
            // timeout, the head never ends.
            for byte in b"GET / HTTP/1.1\r\nX-Slow: abcdefghijklmnopqrstuvwxyz" {
                if client.write_all(&[*byte]).is_err() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        });
        let started = Instant::now();
        let head = read_head(&server, started + Duration::from_millis(300)).unwrap();
        let took = started.elapsed();
        drop(server);
        trickler.join().unwrap();
        assert_eq!(head, Head::TimedOut);
        assert!(took < Duration::from_secs(1), "given up after {took:?}");
    }

    #[test]
    fn the_busy_answer_sends_the_body_it_announces() {
        let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap();
        let entered = Arc::new(AtomicUsize::new(0));
        let released = Arc::new(AtomicBool::new(false));
        let listening = {
            let (entered, released) = (Arc::clone(&entered), Arc::clone(&released));
            serve(listener, move |_, _| {
                entered.fetch_add(1, Ordering::SeqCst);
                while !released.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(5));
                }
                plain(200, "answered")
            })
            .unwrap()
        };
        let address = listening.address();
        let held: Vec<_> = (0..MAX_ANSWERING)
            .map(|_| std::thread::spawn(move || get(address, "/")))
            .collect();
        let started = Instant::now();
        while entered.load(Ordering::SeqCst) < MAX_ANSWERING
            && started.elapsed() < Duration::from_secs(5)
        {
            std::thread::sleep(Duration::from_millis(5));
        }
        let reply = get(address, "/");
        released.store(true, Ordering::SeqCst);
        for answered in held {
            assert!(answered.join().unwrap().starts_with("HTTP/1.1 200 "));
        }
        listening.stop();
        let body = busy().body;
        assert!(reply.starts_with("HTTP/1.1 503 "), "{reply}");
        assert!(
            reply.contains(&format!("Content-Length: {}\r\n", body.len())),
            "{reply}"
        );
        assert!(
            reply.ends_with(&format!("\r\n\r\n{}", String::from_utf8_lossy(&body))),
            "{reply}"
        );
    }

    #[test]
    fn an_answer_can_tell_that_its_client_has_gone() {
        let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap();
        let (noticed, notice) = mpsc::channel();
        let noticed = Mutex::new(noticed);
        let listening = serve(listener, move |_, client| {
            let started = Instant::now();
            while !client.gone() && started.elapsed() < Duration::from_secs(5) {
                std::thread::sleep(Duration::from_millis(5));
            }
            let _ = noticed.lock().unwrap().send(client.gone());
            plain(200, "answered")
        })
        .unwrap();
        let mut stream = TcpStream::connect(listening.address()).unwrap();
        write!(
            stream,
            "GET / HTTP/1.1\r\nHost: {}\r\n\r\n",
            listening.address()
        )
        .unwrap();
        std::thread::sleep(Duration::from_millis(100));
        drop(stream);
        let gone = notice.recv_timeout(Duration::from_secs(2));
        listening.stop();
        assert_eq!(gone, Ok(true));
    }

    #[test]
    fn a_request_head_past_the_limit_is_refused() {
        let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap();
        let listening = serve(listener, |_, _| plain(200, "answered")).unwrap();
        let mut stream = TcpStream::connect(listening.address()).unwrap();
        let long = "x".repeat(MAX_HEAD);
        // The server may answer and close before it has read all of this.
        let _ = write!(stream, "GET / HTTP/1.1\r\nX-Long: {long}\r\n\r\n");
        let mut reply = String::new();
        stream.read_to_string(&mut reply).unwrap();
        assert!(reply.starts_with("HTTP/1.1 431 "), "{reply}");
        listening.stop();
    }

    #[test]
    fn a_head_request_gets_the_length_without_the_body() {
        let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap();
        let listening = serve(listener, |_, _| plain(200, "twelve bytes")).unwrap();
        let mut stream = TcpStream::connect(listening.address()).unwrap();
        write!(
            stream,
            "HEAD / HTTP/1.1\r\nHost: {}\r\n\r\n",
            listening.address()
        )
        .unwrap();
        let mut reply = String::new();
        stream.read_to_string(&mut reply).unwrap();
        assert!(reply.contains("Content-Length: 12\r\n"), "{reply}");
        assert!(reply.ends_with("\r\n\r\n"), "{reply}");
        listening.stop();
    }
}
