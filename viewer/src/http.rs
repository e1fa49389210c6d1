//! The little of HTTP/1.1 a page on the loopback address needs: one
//! request per connection, read from its head (a request with a body is
//! refused), one answer with its length, then the connection is closed.
//!
//! Each connection gets a thread of its own from the moment it is
//! accepted, so a connection a browser opens ahead and leaves idle holds
//! up nothing else (tiny_http's pool left new connections waiting behind
//! such ones, and the page stalled under load).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// The longest request head read: a request line and headers as browsers
/// send them fit many times over.
const MAX_HEAD: u64 = 32 << 10;
/// Connections answered at once; past this, one is refused at once with 503.
const MAX_CONNECTIONS: usize = 64;
/// How long a connection may take to send its request, and to take its answer.
const READ_TIMEOUT: Duration = Duration::from_secs(10);
const WRITE_TIMEOUT: Duration = Duration::from_secs(60);

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
    pub body: Vec<u8>,
    pub headers: Vec<(&'static str, String)>,
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

/// Listens on `listener` and answers each request with `answer`.
pub fn serve(
    listener: TcpListener,
    answer: impl Fn(&Request) -> Answer + Send + Sync + 'static,
) -> std::io::Result<Listening> {
    let address = listener.local_addr()?;
    let stopping = Arc::new(AtomicBool::new(false));
    let answer = Arc::new(answer);
    let open = Arc::new(AtomicUsize::new(0));
    let accepting = {
        let stopping = Arc::clone(&stopping);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stopping.load(Ordering::SeqCst) {
                    break;
                }
                // A connection that failed before it was accepted is the
                // client's affair.
                let Ok(stream) = stream else { continue };
                if open.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
                    open.fetch_sub(1, Ordering::SeqCst);
                    let _ = respond(stream, &busy(), false);
                    continue;
                }
                let answer = Arc::clone(&answer);
                let open = Arc::clone(&open);
                std::thread::spawn(move || {
                    let _ = converse(stream, answer.as_ref());
                    open.fetch_sub(1, Ordering::SeqCst);
                });
            }
        })
    };
    Ok(Listening {
        address,
        stopping,
        accepting,
    })
}

/// Reads one request from `stream` and answers it.
fn converse(
    stream: TcpStream,
    answer: &(impl Fn(&Request) -> Answer + ?Sized),
) -> std::io::Result<()> {
    stream.set_read_timeout(Some(READ_TIMEOUT))?;
    stream.set_write_timeout(Some(WRITE_TIMEOUT))?;
    let head = match read_head(&stream)? {
        Head::Complete(head) => head,
        Head::TooLong => {
            return respond(stream, &plain(431, "the request head is too long"), true);
        }
        // A connection opened ahead and never used gets nothing.
        Head::Closed => return Ok(()),
    };
    let (reply, with_body) = match parse(&head) {
        Ok(request) => (answer(&request), request.method != "HEAD"),
        Err(refusal) => (refusal, true),
    };
    respond(stream, &reply, with_body)
}

/// What a connection sent before its request's first empty line.
enum Head {
    /// The request line and headers, up to and with the empty line.
    Complete(Vec<u8>),
    /// More than [`MAX_HEAD`] bytes without an empty line.
    TooLong,
    /// The client closed the connection before it ended a head.
    Closed,
}

fn read_head(stream: &TcpStream) -> std::io::Result<Head> {
    let mut head = Vec::new();
    let mut reader = BufReader::new(stream.take(MAX_HEAD));
    loop {
        let before = head.len();
        if reader.read_until(b'\n', &mut head)? == 0 {
            return Ok(if head.len() as u64 >= MAX_HEAD {
                Head::TooLong
            } else {
                Head::Closed
            });
        }
        if matches!(&head[before..], b"\r\n" | b"\n") {
            return Ok(Head::Complete(head));
        }
    }
}

/// The request a head holds, or the answer that refuses it.
fn parse(head: &[u8]) -> Result<Request, Answer> {
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
    let has_body = lines.any(|header| {
        let (name, value) = header.split_once(':').unwrap_or((header, ""));
        let name = name.trim();
        (name.eq_ignore_ascii_case("content-length") && value.trim() != "0")
            || name.eq_ignore_ascii_case("transfer-encoding")
    });
    if has_body {
        return Err(plain(400, "a GET request has no body"));
    }
    Ok(Request {
        method: method.to_owned(),
        target: target.to_owned(),
    })
}

fn plain(status: u16, message: &str) -> Answer {
    Answer {
        status,
        media_type: "text/plain; charset=utf-8",
        body: message.as_bytes().to_vec(),
        headers: Vec::new(),
    }
}

fn busy() -> Answer {
    plain(503, "too many connections at once")
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        431 => "Request Header Fields Too Large",
        404 => "Not Found",
        405 => "Method Not Allowed",
        422 => "Unprocessable Content",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "",
    }
}

/// Writes `answer` (its body unless `with_body` is false: a HEAD request)
/// and closes the connection.
fn respond(mut stream: TcpStream, answer: &Answer, with_body: bool) -> std::io::Result<()> {
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
    stream.write_all(head.as_bytes())?;
    if with_body {
        stream.write_all(&answer.body)?;
    }
    stream.flush()?;
    stream.shutdown(std::net::Shutdown::Write)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_head_gives_its_method_and_target() {
        let request = parse(b"GET /api/list?x=1 HTTP/1.1\r\nHost: a\r\n\r\n").unwrap();
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
            assert_eq!(parse(head).unwrap_err().status, status, "{head:?}");
        }
    }

    #[test]
    fn every_connection_is_answered_while_others_sit_idle() {
        let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap();
        let listening = serve(listener, |request| plain(200, &request.target)).unwrap();
        // Connections opened ahead and left idle, as browsers do.
        let idle: Vec<TcpStream> = (0..8)
            .map(|_| TcpStream::connect(listening.address()).unwrap())
            .collect();
        for index in 0..8 {
            let mut stream = TcpStream::connect(listening.address()).unwrap();
            write!(stream, "GET /{index} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
            let mut reply = String::new();
            stream.read_to_string(&mut reply).unwrap();
            assert!(reply.starts_with("HTTP/1.1 200 OK\r\n"), "{reply}");
            assert!(reply.contains("Connection: close\r\n"), "{reply}");
            assert!(reply.ends_with(&format!("\r\n\r\n/{index}")), "{reply}");
        }
        drop(idle);
        listening.stop();
    }

    #[test]
    fn a_request_head_past_the_limit_is_refused() {
        let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap();
        let listening = serve(listener, |_| plain(200, "answered")).unwrap();
        let mut stream = TcpStream::connect(listening.address()).unwrap();
        let long = "x".repeat(MAX_HEAD as usize);
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
        let listening = serve(listener, |_| plain(200, "twelve bytes")).unwrap();
        let mut stream = TcpStream::connect(listening.address()).unwrap();
        stream.write_all(b"HEAD / HTTP/1.1\r\n\r\n").unwrap();
        let mut reply = String::new();
        stream.read_to_string(&mut reply).unwrap();
        assert!(reply.contains("Content-Length: 12\r\n"), "{reply}");
        assert!(reply.ends_with("\r\n\r\n"), "{reply}");
        listening.stop();
    }
}
