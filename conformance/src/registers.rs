//! Local stubs of four national self-exclusion registers, built from their
//! public contracts (issue 47; sources in the project's register notes),
//! for the cases that drive the gateway's register adapters:
//!
//! - [`Spelpaus`] (SE): `POST /api/blocking-info/{actorId}` and
//!   `POST /api/marketing-single-subjectid/{actorId}`, the key in
//!   `authorization`, `{requestId, subjectId}` → `{isBlocked, requestId,
//!   responseId}`, with its trap: any 12 characters that are not a
//!   personnummer answer 200 `isBlocked: false`.
//! - [`Gamstop`] (GB): a form-encoded POST to the v2 endpoint itself, the
//!   answer in headers (`X-Exclusion: Y|N|P`, `X-Unique-Id`), 400/403/405,
//!   and the JSON batch with its limits (1,000 people, 256 KB, one request
//!   a second on average).
//! - [`Rofus`] (DK, our documented contract): `POST /gambler/check` and
//!   `POST /gambler/marketing`, a bearer key, `{operatorId, cpr, requestId}`
//!   → `{status, requestId, responseId}`.
//! - [`Cruks`] (NL, our documented contract): identity → code
//!   (`POST /cruks-code`), then code → `isRegistered` (`POST /is-registered`).
//!   mTLS is not modelled on loopback http.
//!
//! Each stub listens on 127.0.0.1, a port the system picks, and answers
//! every request with `Connection: close`, so that no connection outlives
//! an answer. It records every request it receives ([`Seen`]) and takes a
//! [`Fault`] a case sets. Dropped, it stops: the listener closes (later
//! calls are refused), held requests are hung up on and every thread it
//! started is joined.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{json, Value as Json};

/// How long a stub in [`Fault::Hang`] holds a request before it hangs up.
pub const HANG: Duration = Duration::from_secs(30);

/// The largest body a stub reads; a larger one is hung up on.
const MAX_BODY: usize = 4 * 1024 * 1024;

/// How a stub answers. Set with [`Stub::set_fault`]; it applies to every
/// request that arrives after it is set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// The register's answer.
    Normal,
    /// The register's answer after this delay.
    Slow(Duration),
    /// This status with a short text body (and none of the answer's fields or headers).
    Status(u16),
    /// 200 with something that is not the register's answer:
    /// Spelpaus: JSON with `requestId` and `responseId` but no `isBlocked`;
    /// GAMSTOP: an HTML page and no `X-Exclusion` header;
    /// ROFUS: JSON whose `status` is none of its three values (`"Pending"`);
    /// CRUKS: an HTML page, at either step.
    Malformed,
    /// No answer: the request is held for [`HANG`] or until the stub is dropped, then hung up on.
    Hang,
}

/// One request a stub received.
#[derive(Debug, Clone)]
pub struct Seen {
    pub method: String,
    /// The path, without the query.
    pub path: String,
    pub query: String,
    /// Header names in lowercase; repeated headers joined with ", ".
    pub headers: BTreeMap<String, String>,
    pub body: Vec<u8>,
    pub at: Instant,
    /// The status the stub answered; `None` while held, or when it hung up without answering.
    pub answered: Option<u16>,
    /// The register's own id in that answer (`responseId`, `X-Unique-Id`), when it gave one.
    pub reference: Option<String>,
}

impl Seen {
    /// A header's value, "" when absent.
    pub fn header(&self, name: &str) -> &str {
        self.headers.get(&name.to_ascii_lowercase()).map_or("", String::as_str)
    }
    /// The body as JSON (`Null` when it is not JSON).
    pub fn json(&self) -> Json {
        serde_json::from_slice(&self.body).unwrap_or(Json::Null)
    }
    /// The body as an `application/x-www-form-urlencoded` form.
    pub fn form(&self) -> BTreeMap<String, String> {
        parse_form(&String::from_utf8_lossy(&self.body))
    }
    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// An `http://127.0.0.1:PORT` URL of a port nothing listens on: bound on
/// port 0, its port taken, the listener dropped.
pub fn refused_url() -> Result<String, String> {
    let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| format!("cannot bind a loopback port: {e}"))?;
    let port = listener.local_addr().map_err(|e| e.to_string())?.port();
    drop(listener);
    Ok(format!("http://127.0.0.1:{port}"))
}

// ---------------------------------------------------------------- the server

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What a register answers to one request.
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    reference: Option<String>,
}

impl Answer {
    fn json(status: u16, body: &Json) -> Answer {
        Answer {
            status,
            headers: vec![("Content-Type".into(), "application/json; charset=utf-8".into())],
            body: body.to_string().into_bytes(),
            reference: None,
        }
    }
    fn text(status: u16, content_type: &str, text: &str) -> Answer {
        Answer { status, headers: vec![("Content-Type".into(), content_type.into())], body: text.as_bytes().to_vec(), reference: None }
    }
    /// The JSON error body the registers answer, `{"message": …}`.
    fn error(status: u16, message: &str) -> Answer {
        Answer::json(status, &json!({ "message": message }))
    }
    fn method_not_allowed() -> Answer {
        Answer::error(405, "Method Not Allowed").with_header("Allow", "POST")
    }
    fn not_found() -> Answer {
        Answer::error(404, "Not Found")
    }
    fn with_header(mut self, name: &str, value: &str) -> Answer {
        self.headers.push((name.into(), value.into()));
        self
    }
    fn with_reference(mut self, reference: &str) -> Answer {
        self.reference = Some(reference.into());
        self
    }
}

/// The behaviour of one register behind the common server.
trait Register: Send + Sync + 'static {
    fn answer(&self, request: &Seen) -> Answer;
    fn malformed(&self, request: &Seen) -> Answer;
}

/// The part every stub shares: the loopback server, its record of requests and its fault.
pub struct Stub {
    port: u16,
    log: Arc<Mutex<Vec<Seen>>>,
    fault: Arc<Mutex<Fault>>,
    stop: Arc<AtomicBool>,
    open: Arc<Mutex<HashMap<u64, TcpStream>>>,
    workers: Arc<Mutex<Vec<JoinHandle<()>>>>,
    accept: Option<JoinHandle<()>>,
}

impl Stub {
    fn start(register: Arc<dyn Register>) -> Result<Stub, String> {
        let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| format!("cannot bind a loopback port: {e}"))?;
        let port = listener.local_addr().map_err(|e| e.to_string())?.port();
        let log = Arc::new(Mutex::new(Vec::new()));
        let fault = Arc::new(Mutex::new(Fault::Normal));
        let stop = Arc::new(AtomicBool::new(false));
        let open: Arc<Mutex<HashMap<u64, TcpStream>>> = Arc::new(Mutex::new(HashMap::new()));
        let workers: Arc<Mutex<Vec<JoinHandle<()>>>> = Arc::new(Mutex::new(Vec::new()));
        let (log_, fault_, stop_, open_, workers_) = (log.clone(), fault.clone(), stop.clone(), open.clone(), workers.clone());
        let accept = std::thread::spawn(move || {
            let mut next = 0u64;
            loop {
                let accepted = listener.accept();
                // Drop wakes this accept with a connection of its own
                if stop_.load(Ordering::Relaxed) {
                    break;
                }
                match accepted {
                    Ok((stream, _)) => {
                        next += 1;
                        let id = next;
                        if let Ok(clone) = stream.try_clone() {
                            lock(&open_).insert(id, clone);
                        }
                        let (register, log, fault, stop, open) = (register.clone(), log_.clone(), fault_.clone(), stop_.clone(), open_.clone());
                        let worker = std::thread::spawn(move || {
                            serve(stream, register.as_ref(), &log, &fault, &stop);
                            lock(&open).remove(&id);
                        });
                        let mut workers = lock(&workers_);
                        workers.retain(|w| !w.is_finished());
                        workers.push(worker);
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(10)),
                }
            }
            // the listener drops here: the port refuses from now on
        });
        Ok(Stub { port, log, fault, stop, open, workers, accept: Some(accept) })
    }

    /// `http://127.0.0.1:PORT`, without a path.
    pub fn origin(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
    pub fn port(&self) -> u16 {
        self.port
    }
    pub fn set_fault(&self, fault: Fault) {
        *lock(&self.fault) = fault;
    }
    pub fn fault(&self) -> Fault {
        *lock(&self.fault)
    }
    /// Every request received so far, oldest first.
    pub fn requests(&self) -> Vec<Seen> {
        lock(&self.log).clone()
    }
    /// The requests received on this path (without the query), oldest first.
    pub fn requests_to(&self, path: &str) -> Vec<Seen> {
        lock(&self.log).iter().filter(|s| s.path == path).cloned().collect()
    }
    /// How many requests the stub received, on any path, answered or not.
    pub fn count(&self) -> usize {
        lock(&self.log).len()
    }
    /// How many requests the stub received on this path.
    pub fn count_to(&self, path: &str) -> usize {
        lock(&self.log).iter().filter(|s| s.path == path).count()
    }
}

impl Drop for Stub {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(accept) = self.accept.take() {
            // wake the blocking accept; should that fail, leave the thread rather than wait on it forever
            let address = std::net::SocketAddr::from(([127, 0, 0, 1], self.port));
            if TcpStream::connect_timeout(&address, Duration::from_secs(2)).is_ok() {
                let _ = accept.join();
            }
        }
        // hang up on whatever is still open: a held request, a client that stopped writing
        let open: Vec<TcpStream> = lock(&self.open).drain().map(|(_, s)| s).collect();
        for stream in open {
            let _ = stream.shutdown(Shutdown::Both);
        }
        let workers = std::mem::take(&mut *lock(&self.workers));
        for worker in workers {
            let _ = worker.join();
        }
    }
}

/// Waits `how_long`, or less if the stub stops; true when it waited it all.
fn wait(how_long: Duration, stop: &AtomicBool) -> bool {
    let deadline = Instant::now() + how_long;
    while Instant::now() < deadline {
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        std::thread::sleep(Duration::from_millis(5).min(deadline.saturating_duration_since(Instant::now())));
    }
    !stop.load(Ordering::Relaxed)
}

/// One connection: one request, one answer (or none), then closed.
fn serve(mut stream: TcpStream, register: &dyn Register, log: &Mutex<Vec<Seen>>, fault: &Mutex<Fault>, stop: &AtomicBool) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let _ = stream.set_nodelay(true);
    let Some(seen) = read_request(&mut stream) else {
        let _ = stream.shutdown(Shutdown::Both);
        return;
    };
    let index = {
        let mut log = lock(log);
        log.push(seen.clone());
        log.len() - 1
    };
    let answer = match *lock(fault) {
        Fault::Normal => Some(register.answer(&seen)),
        Fault::Slow(delay) => wait(delay, stop).then(|| register.answer(&seen)),
        Fault::Status(status) => Some(Answer::text(status, "text/plain; charset=utf-8", reason(status))),
        Fault::Malformed => Some(register.malformed(&seen)),
        Fault::Hang => {
            wait(HANG, stop);
            None
        }
    };
    let Some(answer) = answer else {
        let _ = stream.shutdown(Shutdown::Both);
        return;
    };
    if let Some(entry) = lock(log).get_mut(index) {
        entry.answered = Some(answer.status);
        entry.reference = answer.reference.clone();
    }
    let mut head = format!("HTTP/1.1 {} {}\r\n", answer.status, reason(answer.status));
    head.push_str(&format!("Date: {}\r\nContent-Length: {}\r\nConnection: close\r\n", http_date(), answer.body.len()));
    for (name, value) in &answer.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    let written = stream.write_all(head.as_bytes()).and_then(|()| stream.write_all(&answer.body)).and_then(|()| stream.flush());
    if written.is_ok() {
        // close our side, then read to the client's close, so that unread
        // bytes never turn the close into a reset that loses the answer
        let _ = stream.shutdown(Shutdown::Write);
        let _ = stream.set_read_timeout(Some(Duration::from_secs(1)));
        let mut sink = [0u8; 1024];
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline && !stop.load(Ordering::Relaxed) {
            match stream.read(&mut sink) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
        }
    }
    let _ = stream.shutdown(Shutdown::Both);
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Reads more of the stream into `buffer`; false at its end or on an error.
fn read_more(stream: &mut TcpStream, buffer: &mut Vec<u8>) -> bool {
    let mut chunk = [0u8; 16 * 1024];
    match stream.read(&mut chunk) {
        Ok(0) | Err(_) => false,
        Ok(n) => {
            buffer.extend_from_slice(&chunk[..n]);
            true
        }
    }
}

/// One HTTP/1.1 request: its head, then a `Content-Length` or chunked body.
fn read_request(stream: &mut TcpStream) -> Option<Seen> {
    let mut buffer = Vec::new();
    let head_end = loop {
        if let Some(end) = find(&buffer, b"\r\n\r\n") {
            break end;
        }
        if buffer.len() > 64 * 1024 || !read_more(stream, &mut buffer) {
            return None;
        }
    };
    let head = String::from_utf8_lossy(&buffer[..head_end]).into_owned();
    let mut rest = buffer[head_end + 4..].to_vec();
    let mut lines = head.split("\r\n");
    let mut request_line = lines.next()?.split_whitespace();
    let method = request_line.next()?.to_string();
    let target = request_line.next()?.to_string();
    let (path, query) = match target.split_once('?') {
        Some((path, query)) => (path.to_string(), query.to_string()),
        None => (target, String::new()),
    };
    let mut headers: BTreeMap<String, String> = BTreeMap::new();
    for line in lines {
        if let Some((name, value)) = line.split_once(':') {
            let (name, value) = (name.trim().to_ascii_lowercase(), value.trim().to_string());
            match headers.get_mut(&name) {
                Some(existing) => {
                    existing.push_str(", ");
                    existing.push_str(&value);
                }
                None => {
                    headers.insert(name, value);
                }
            }
        }
    }
    if headers.get("expect").is_some_and(|v| v.eq_ignore_ascii_case("100-continue")) {
        stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n").ok()?;
    }
    let chunked = headers.get("transfer-encoding").is_some_and(|v| v.to_ascii_lowercase().contains("chunked"));
    let body = if chunked {
        read_chunked(stream, rest)?
    } else {
        let length: usize = match headers.get("content-length") {
            Some(value) => value.parse().ok()?,
            None => 0,
        };
        if length > MAX_BODY {
            return None;
        }
        while rest.len() < length {
            if !read_more(stream, &mut rest) {
                return None;
            }
        }
        rest.truncate(length);
        rest
    };
    Some(Seen { method, path, query, headers, body, at: Instant::now(), answered: None, reference: None })
}

fn read_chunked(stream: &mut TcpStream, mut buffer: Vec<u8>) -> Option<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let line_end = loop {
            if let Some(end) = find(&buffer, b"\r\n") {
                break end;
            }
            if buffer.len() > 1024 || !read_more(stream, &mut buffer) {
                return None;
            }
        };
        let line = String::from_utf8_lossy(&buffer[..line_end]).into_owned();
        let size = usize::from_str_radix(line.split(';').next()?.trim(), 16).ok()?;
        buffer.drain(..line_end + 2);
        if size == 0 {
            // trailers, if any, end with an empty line
            while !(buffer.starts_with(b"\r\n") || find(&buffer, b"\r\n\r\n").is_some()) {
                if buffer.len() > 64 * 1024 || !read_more(stream, &mut buffer) {
                    break;
                }
            }
            return Some(body);
        }
        if body.len() + size > MAX_BODY {
            return None;
        }
        while buffer.len() < size + 2 {
            if !read_more(stream, &mut buffer) {
                return None;
            }
        }
        body.extend_from_slice(&buffer[..size]);
        buffer.drain(..size + 2);
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        413 => "Payload Too Large",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "Status",
    }
}

fn http_date() -> String {
    let now = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    chrono::DateTime::from_timestamp(i64::try_from(now).unwrap_or(0), 0)
        .map(|t| t.format("%a, %d %b %Y %H:%M:%S GMT").to_string())
        .unwrap_or_default()
}

/// A random id in the form of a UUID (lowercase hex: it spells no word an operator check looks for).
fn random_id() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let mut bytes = [0u8; 16];
    if getrandom::fill(&mut bytes).is_err() {
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
        let seed = nanos ^ (u128::from(NEXT.fetch_add(1, Ordering::Relaxed)) << 64) ^ u128::from(std::process::id());
        bytes = seed.to_le_bytes();
    }
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("{}-{}-{}-{}-{}", &hex[..8], &hex[8..12], &hex[12..16], &hex[16..20], &hex[20..])
}

/// Decodes `application/x-www-form-urlencoded` text (`+` is a space, `%XX` a byte).
pub fn parse_form(text: &str) -> BTreeMap<String, String> {
    fn decode(part: &str) -> String {
        let bytes = part.as_bytes();
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'+' => out.push(b' '),
                b'%' if i + 2 < bytes.len() => match std::str::from_utf8(&bytes[i + 1..i + 3]).ok().and_then(|h| u8::from_str_radix(h, 16).ok()) {
                    Some(byte) => {
                        out.push(byte);
                        i += 2;
                    }
                    None => out.push(b'%'),
                },
                byte => out.push(byte),
            }
            i += 1;
        }
        String::from_utf8_lossy(&out).into_owned()
    }
    text.split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| match pair.split_once('=') {
            Some((name, value)) => (decode(name), decode(value)),
            None => (decode(pair), String::new()),
        })
        .collect()
}

/// A non-empty string field of a JSON body.
fn text_field<'a>(body: &'a Json, name: &str) -> Option<&'a str> {
    body[name].as_str().filter(|v| !v.trim().is_empty())
}

fn is_date(text: &str) -> bool {
    text.len() == 10 && chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d").is_ok()
}

// ---------------------------------------------------------------- Spelpaus

const SPELPAUS_LOGIN: &str = "/api/blocking-info/";
const SPELPAUS_MARKETING: &str = "/api/marketing-single-subjectid/";

struct SpelpausState {
    /// actor id → its API key
    actors: Mutex<HashMap<String, String>>,
    blocked: Mutex<BTreeSet<String>>,
}

impl Register for SpelpausState {
    fn answer(&self, request: &Seen) -> Answer {
        let actor = match request.path.strip_prefix(SPELPAUS_LOGIN).or_else(|| request.path.strip_prefix(SPELPAUS_MARKETING)) {
            Some(actor) if !actor.is_empty() && !actor.contains('/') => actor,
            _ => return Answer::not_found(),
        };
        if request.method != "POST" {
            return Answer::method_not_allowed();
        }
        let authorised = lock(&self.actors).get(actor).is_some_and(|key| key == request.header("authorization"));
        if !authorised {
            return Answer::error(401, "Unauthorized");
        }
        let body = request.json();
        let Some(request_id) = text_field(&body, "requestId") else {
            return Answer::error(400, "requestId is required");
        };
        // the trap: only the length is checked; any 12 characters not blocked answer isBlocked false
        let Some(subject) = body["subjectId"].as_str().filter(|s| s.chars().count() == 12) else {
            return Answer::error(400, "subjectId must be 12 characters");
        };
        let blocked = lock(&self.blocked).contains(subject);
        let response_id = random_id();
        Answer::json(200, &json!({ "isBlocked": blocked, "requestId": request_id, "responseId": response_id })).with_reference(&response_id)
    }

    fn malformed(&self, request: &Seen) -> Answer {
        let response_id = random_id();
        let request_id = request.json()["requestId"].clone();
        Answer::json(200, &json!({ "requestId": request_id, "responseId": response_id }))
    }
}

/// Spelpaus: its API root at [`Spelpaus::url`], one actor with its key.
pub struct Spelpaus {
    /// The API root, as the gateway is configured with (`http://127.0.0.1:PORT`).
    pub url: String,
    pub actor_id: String,
    pub api_key: String,
    state: Arc<SpelpausState>,
    stub: Stub,
}

impl Spelpaus {
    pub fn start(actor_id: &str, api_key: &str) -> Result<Spelpaus, String> {
        let actors = HashMap::from([(actor_id.to_string(), api_key.to_string())]);
        let state = Arc::new(SpelpausState { actors: Mutex::new(actors), blocked: Mutex::new(BTreeSet::new()) });
        let stub = Stub::start(state.clone())?;
        Ok(Spelpaus { url: stub.origin(), actor_id: actor_id.into(), api_key: api_key.into(), state, stub })
    }
    /// Another actor this register knows, with its key.
    pub fn add_actor(&self, actor_id: &str, api_key: &str) {
        lock(&self.state.actors).insert(actor_id.into(), api_key.into());
    }
    /// Blocks a person, by personnummer (a `-` is dropped: the register holds 12 digits).
    pub fn block(&self, personnummer: &str) {
        lock(&self.state.blocked).insert(personnummer.replace('-', ""));
    }
    pub fn unblock(&self, personnummer: &str) {
        lock(&self.state.blocked).remove(&personnummer.replace('-', ""));
    }
    /// The login/registration path of our actor.
    pub fn login_path(&self) -> String {
        format!("{SPELPAUS_LOGIN}{}", self.actor_id)
    }
    /// The single marketing path of our actor.
    pub fn marketing_path(&self) -> String {
        format!("{SPELPAUS_MARKETING}{}", self.actor_id)
    }
}

impl std::ops::Deref for Spelpaus {
    type Target = Stub;
    fn deref(&self) -> &Stub {
        &self.stub
    }
}

// ---------------------------------------------------------------- GAMSTOP

/// A GAMSTOP answer: `Y` excluded, `N` not registered, `P` previously excluded (lapsed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exclusion {
    Y,
    N,
    P,
}

impl Exclusion {
    pub fn as_str(self) -> &'static str {
        match self {
            Exclusion::Y => "Y",
            Exclusion::N => "N",
            Exclusion::P => "P",
        }
    }
}

/// GAMSTOP's path: the gateway is configured with `{origin}/v2` and posts to it.
const GAMSTOP_PATH: &str = "/v2";
const GAMSTOP_BATCH_PATH: &str = "/v2/batch";
/// The batch's published limits.
pub const GAMSTOP_BATCH_PEOPLE: usize = 1_000;
pub const GAMSTOP_BATCH_BYTES: usize = 256 * 1024;
/// The rate is one request a second on average over this window.
const GAMSTOP_RATE_WINDOW: Duration = Duration::from_secs(300);
const GAMSTOP_FIELDS: [&str; 6] = ["firstName", "lastName", "dateOfBirth", "email", "postcode", "mobile"];

#[derive(Debug, Clone)]
struct GamstopEntry {
    email: Option<String>,
    person: Option<(String, String, String, Option<String>)>,
    state: Exclusion,
}

/// One batch request the stub received.
#[derive(Debug, Clone)]
pub struct BatchSeen {
    pub at: Instant,
    /// How many people it carried (0 when it was not a readable array).
    pub people: usize,
    pub bytes: usize,
    pub answered: u16,
}

struct GamstopState {
    api_key: String,
    started: Instant,
    entries: Mutex<Vec<GamstopEntry>>,
    batches: Mutex<Vec<BatchSeen>>,
}

/// A name as GAMSTOP compares it: its first 20 characters, case-insensitively.
fn significant_name(name: &str) -> String {
    name.trim().chars().take(20).collect::<String>().to_lowercase()
}

/// A postcode as GAMSTOP compares it: spaces are not significant.
fn significant_postcode(postcode: &str) -> String {
    postcode.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_uppercase()
}

impl GamstopState {
    /// The state of the person these fields name: Y over P over N.
    fn lookup(&self, field: impl Fn(&str) -> String) -> Exclusion {
        let (first, last, dob) = (significant_name(&field("firstName")), significant_name(&field("lastName")), field("dateOfBirth"));
        let (email, postcode) = (field("email").trim().to_lowercase(), significant_postcode(&field("postcode")));
        let mut found = Exclusion::N;
        for entry in lock(&self.entries).iter() {
            let by_email = entry.email.as_deref().is_some_and(|e| e == email);
            let by_person = entry.person.as_ref().is_some_and(|(f, l, d, p)| {
                *f == first && *l == last && *d == dob && p.as_deref().is_none_or(|p| significant_postcode(p) == postcode)
            });
            if by_email || by_person {
                match entry.state {
                    Exclusion::Y => return Exclusion::Y,
                    other => found = other,
                }
            }
        }
        found
    }

    fn single(&self, request: &Seen) -> Answer {
        let form_encoded = request.header("content-type").to_ascii_lowercase().starts_with("application/x-www-form-urlencoded");
        if !form_encoded {
            return Answer::text(400, "text/plain; charset=utf-8", "Missing parameters");
        }
        let form = request.form();
        let value = |name: &str| form.get(name).map(|v| v.trim().to_string()).unwrap_or_default();
        if let Some(missing) = GAMSTOP_FIELDS.iter().find(|f| value(f).is_empty()) {
            return Answer::text(400, "text/plain; charset=utf-8", &format!("Missing parameter: {missing}"));
        }
        if !is_date(&value("dateOfBirth")) {
            return Answer::text(400, "text/plain; charset=utf-8", "Invalid parameter: dateOfBirth");
        }
        let state = self.lookup(value);
        let unique_id = random_id();
        Answer {
            status: 200,
            headers: vec![("X-Exclusion".into(), state.as_str().into()), ("X-Unique-Id".into(), unique_id.clone())],
            body: Vec::new(),
            reference: Some(unique_id),
        }
    }

    /// Whether one more batch request now keeps the average at one a second
    /// over the window (with one request of slack); refused requests do not count.
    fn within_rate(&self, batches: &[BatchSeen], now: Instant) -> bool {
        let window_start = now.checked_sub(GAMSTOP_RATE_WINDOW).map_or(self.started, |s| s.max(self.started));
        let admitted = batches.iter().filter(|b| b.at >= window_start && b.answered != 429).count() + 1;
        let allowed = 1 + usize::try_from(now.saturating_duration_since(window_start).as_secs()).unwrap_or(usize::MAX);
        admitted <= allowed
    }

    fn batch(&self, request: &Seen) -> Answer {
        let mut batches = lock(&self.batches);
        let now = Instant::now();
        let array = serde_json::from_slice::<Json>(&request.body).ok().and_then(|b| b.as_array().cloned());
        let people = array.as_ref().map_or(0, Vec::len);
        let answer = if !self.within_rate(&batches, now) {
            Answer::error(429, "Too Many Requests").with_header("Retry-After", "1")
        } else if request.body.len() > GAMSTOP_BATCH_BYTES {
            Answer::error(400, "Request too large: at most 256 KB")
        } else if let Some(array) = array {
            if array.is_empty() || array.len() > GAMSTOP_BATCH_PEOPLE {
                Answer::error(400, "A batch holds 1 to 1000 people")
            } else {
                let mut results = Vec::new();
                let mut invalid = None;
                for person in &array {
                    let value = |name: &str| person[name].as_str().map(|v| v.trim().to_string()).unwrap_or_default();
                    if let Some(missing) = GAMSTOP_FIELDS.iter().chain(["correlationId"].iter()).find(|f| value(f).is_empty()) {
                        invalid = Some(format!("Missing parameter: {missing}"));
                        break;
                    }
                    if !is_date(&value("dateOfBirth")) {
                        invalid = Some("Invalid parameter: dateOfBirth".to_string());
                        break;
                    }
                    let state = self.lookup(value);
                    results.push(json!({ "exclusion": state.as_str(), "msRequestId": random_id(), "correlationId": person["correlationId"] }));
                }
                match invalid {
                    Some(message) => Answer::error(400, &message),
                    None => Answer::json(200, &Json::Array(results)),
                }
            }
        } else {
            Answer::error(400, "The body is not a JSON array")
        };
        batches.push(BatchSeen { at: now, people, bytes: request.body.len(), answered: answer.status });
        answer
    }
}

impl Register for GamstopState {
    fn answer(&self, request: &Seen) -> Answer {
        if request.path != GAMSTOP_PATH && request.path != GAMSTOP_BATCH_PATH {
            return Answer::not_found();
        }
        if request.method != "POST" {
            return Answer::method_not_allowed();
        }
        if request.header("x-api-key") != self.api_key {
            return Answer::text(403, "text/plain; charset=utf-8", "whitelist ip or API key is invalid");
        }
        match request.path == GAMSTOP_BATCH_PATH {
            true => self.batch(request),
            false => self.single(request),
        }
    }

    fn malformed(&self, _: &Seen) -> Answer {
        Answer::text(200, "text/html; charset=utf-8", "<html><body><h1>Service maintenance</h1></body></html>")
    }
}

/// GAMSTOP: the single v2 endpoint at [`Gamstop::url`] and its batch at `{url}/batch`.
pub struct Gamstop {
    /// The v2 endpoint itself, as the gateway is configured with (`http://127.0.0.1:PORT/v2`).
    pub url: String,
    pub api_key: String,
    state: Arc<GamstopState>,
    stub: Stub,
}

impl Gamstop {
    pub fn start(api_key: &str) -> Result<Gamstop, String> {
        let state = Arc::new(GamstopState {
            api_key: api_key.into(),
            started: Instant::now(),
            entries: Mutex::new(Vec::new()),
            batches: Mutex::new(Vec::new()),
        });
        let stub = Stub::start(state.clone())?;
        Ok(Gamstop { url: format!("{}{GAMSTOP_PATH}", stub.origin()), api_key: api_key.into(), state, stub })
    }
    /// Registers a person by e-mail address (compared case-insensitively) with state Y or P.
    pub fn exclude_email(&self, email: &str, state: Exclusion) {
        lock(&self.state.entries).push(GamstopEntry { email: Some(email.trim().to_lowercase()), person: None, state });
    }
    /// Registers a person by first and last name (their first 20 characters,
    /// case-insensitively) and date of birth (`yyyy-mm-dd`), and by postcode
    /// too when one is given (spaces not significant), with state Y or P.
    pub fn exclude_person(&self, first: &str, last: &str, date_of_birth: &str, postcode: Option<&str>, state: Exclusion) {
        let person = (significant_name(first), significant_name(last), date_of_birth.to_string(), postcode.map(str::to_string));
        lock(&self.state.entries).push(GamstopEntry { email: None, person: Some(person), state });
    }
    /// The path single checks are posted to.
    pub fn path(&self) -> &'static str {
        GAMSTOP_PATH
    }
    /// The path batches are posted to.
    pub fn batch_path(&self) -> &'static str {
        GAMSTOP_BATCH_PATH
    }
    /// Every batch request received, oldest first.
    pub fn batches(&self) -> Vec<BatchSeen> {
        lock(&self.state.batches).clone()
    }
    /// How many batch requests were refused 429 for coming too fast.
    pub fn rate_refusals(&self) -> usize {
        lock(&self.state.batches).iter().filter(|b| b.answered == 429).count()
    }
    /// Whether every batch received kept to the published limits: at most
    /// 1,000 people and 256 KB each, and none refused for its rate.
    pub fn batches_within_limits(&self) -> Result<(), String> {
        for (i, batch) in self.batches().iter().enumerate() {
            if batch.people > GAMSTOP_BATCH_PEOPLE || batch.bytes > GAMSTOP_BATCH_BYTES || batch.answered == 429 {
                return Err(format!("batch {i} broke GAMSTOP's limits: {batch:?}"));
            }
        }
        Ok(())
    }
}

impl std::ops::Deref for Gamstop {
    type Target = Stub;
    fn deref(&self) -> &Stub {
        &self.stub
    }
}

// ---------------------------------------------------------------- ROFUS

/// A ROFUS status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RofusStatus {
    NotRegistered,
    RegisteredTemporarily,
    RegisteredIndefinitely,
}

impl RofusStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            RofusStatus::NotRegistered => "NotRegistered",
            RofusStatus::RegisteredTemporarily => "RegisteredTemporarily",
            RofusStatus::RegisteredIndefinitely => "RegisteredIndefinitely",
        }
    }
}

const ROFUS_PREFIX: &str = "/rofus";
const ROFUS_CHECK: &str = "/rofus/gambler/check";
const ROFUS_MARKETING: &str = "/rofus/gambler/marketing";

struct RofusState {
    operator_id: String,
    api_key: String,
    statuses: Mutex<HashMap<String, RofusStatus>>,
}

impl Register for RofusState {
    fn answer(&self, request: &Seen) -> Answer {
        if request.path != ROFUS_CHECK && request.path != ROFUS_MARKETING {
            return Answer::not_found();
        }
        if request.method != "POST" {
            return Answer::method_not_allowed();
        }
        if request.header("authorization") != format!("Bearer {}", self.api_key) {
            return Answer::error(401, "Unauthorized");
        }
        let body = request.json();
        for field in ["operatorId", "cpr", "requestId"] {
            if text_field(&body, field).is_none() {
                return Answer::error(400, &format!("{field} is required"));
            }
        }
        if text_field(&body, "operatorId") != Some(self.operator_id.as_str()) {
            return Answer::error(401, "Unknown operator");
        }
        let cpr = text_field(&body, "cpr").unwrap_or_default();
        if cpr.len() != 10 || !cpr.bytes().all(|b| b.is_ascii_digit()) {
            return Answer::error(400, "cpr must be 10 digits");
        }
        let status = lock(&self.statuses).get(cpr).copied().unwrap_or(RofusStatus::NotRegistered);
        let response_id = random_id();
        Answer::json(200, &json!({ "status": status.as_str(), "requestId": body["requestId"], "responseId": response_id }))
            .with_reference(&response_id)
    }

    fn malformed(&self, request: &Seen) -> Answer {
        Answer::json(200, &json!({ "status": "Pending", "requestId": request.json()["requestId"], "responseId": random_id() }))
    }
}

/// ROFUS: its root at [`Rofus::url`] (`{url}/gambler/check`, `{url}/gambler/marketing`).
pub struct Rofus {
    /// The root, as the gateway is configured with (`http://127.0.0.1:PORT/rofus`: a base URL with a path).
    pub url: String,
    pub operator_id: String,
    pub api_key: String,
    state: Arc<RofusState>,
    stub: Stub,
}

impl Rofus {
    pub fn start(operator_id: &str, api_key: &str) -> Result<Rofus, String> {
        let state = Arc::new(RofusState { operator_id: operator_id.into(), api_key: api_key.into(), statuses: Mutex::new(HashMap::new()) });
        let stub = Stub::start(state.clone())?;
        Ok(Rofus { url: format!("{}{ROFUS_PREFIX}", stub.origin()), operator_id: operator_id.into(), api_key: api_key.into(), state, stub })
    }
    /// A CPR number's status (a `-` is dropped); unset, it is `NotRegistered`.
    pub fn set_status(&self, cpr: &str, status: RofusStatus) {
        lock(&self.state.statuses).insert(cpr.replace('-', ""), status);
    }
    pub fn check_path(&self) -> &'static str {
        ROFUS_CHECK
    }
    pub fn marketing_path(&self) -> &'static str {
        ROFUS_MARKETING
    }
}

impl std::ops::Deref for Rofus {
    type Target = Stub;
    fn deref(&self) -> &Stub {
        &self.stub
    }
}

// ---------------------------------------------------------------- CRUKS

const CRUKS_PREFIX: &str = "/cruks";
const CRUKS_CODE: &str = "/cruks/cruks-code";
const CRUKS_REGISTERED: &str = "/cruks/is-registered";

/// The CRUKS code of a BSN, or of a person without one: the same input gives
/// the same code, in every stub (FNV-1a; "CR" and 16 hex digits).
fn cruks_code(key: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in key.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("CR{hash:016X}")
}

fn bsn_key(bsn: &str) -> String {
    format!("bsn:{}", bsn.trim())
}

fn person_key(first: &str, last: &str, date_of_birth: &str, birth_place: &str) -> String {
    let norm = |s: &str| s.trim().to_lowercase();
    format!("person:{}|{}|{}|{}", norm(first), norm(last), date_of_birth.trim(), norm(birth_place))
}

fn is_cruks_code(code: &str) -> bool {
    code.len() == 18 && code.starts_with("CR") && code[2..].bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_lowercase())
}

struct CruksState {
    registered: Mutex<BTreeSet<String>>,
}

impl Register for CruksState {
    fn answer(&self, request: &Seen) -> Answer {
        if request.path != CRUKS_CODE && request.path != CRUKS_REGISTERED {
            return Answer::not_found();
        }
        if request.method != "POST" {
            return Answer::method_not_allowed();
        }
        let body = request.json();
        if !body.is_object() {
            return Answer::error(400, "The body is not a JSON object");
        }
        let Some(request_id) = text_field(&body, "requestId") else {
            return Answer::error(400, "requestId is required");
        };
        let response_id = random_id();
        if request.path == CRUKS_CODE {
            let field = |name: &str| text_field(&body, name).unwrap_or_default();
            let required: &[&str] = match text_field(&body, "bsn") {
                Some(_) => &["firstName", "lastName", "dateOfBirth"],
                None => &["firstName", "lastName", "dateOfBirth", "birthPlace"],
            };
            if let Some(missing) = required.iter().find(|f| field(f).is_empty()) {
                return Answer::error(400, &format!("{missing} is required"));
            }
            if !is_date(field("dateOfBirth")) {
                return Answer::error(400, "dateOfBirth must be yyyy-mm-dd");
            }
            let key = match text_field(&body, "bsn") {
                Some(bsn) if bsn.len() == 9 && bsn.bytes().all(|b| b.is_ascii_digit()) => bsn_key(bsn),
                Some(_) => return Answer::error(400, "bsn must be 9 digits"),
                None => person_key(field("firstName"), field("lastName"), field("dateOfBirth"), field("birthPlace")),
            };
            let answer = json!({ "cruksCode": cruks_code(&key), "requestId": request_id, "responseId": response_id });
            return Answer::json(200, &answer).with_reference(&response_id);
        }
        let Some(code) = text_field(&body, "cruksCode").filter(|c| is_cruks_code(c)) else {
            return Answer::error(400, "cruksCode is required");
        };
        let registered = lock(&self.registered).contains(code);
        Answer::json(200, &json!({ "isRegistered": registered, "requestId": request_id, "responseId": response_id })).with_reference(&response_id)
    }

    fn malformed(&self, _: &Seen) -> Answer {
        Answer::text(200, "text/html; charset=utf-8", "<html><body>Er is een storing</body></html>")
    }
}

/// CRUKS: its root at [`Cruks::url`] (`{url}/cruks-code`, `{url}/is-registered`).
pub struct Cruks {
    /// The root, as the gateway is configured with (`http://127.0.0.1:PORT/cruks`: a base URL with a path).
    pub url: String,
    state: Arc<CruksState>,
    stub: Stub,
}

impl Cruks {
    pub fn start() -> Result<Cruks, String> {
        let state = Arc::new(CruksState { registered: Mutex::new(BTreeSet::new()) });
        let stub = Stub::start(state.clone())?;
        Ok(Cruks { url: format!("{}{CRUKS_PREFIX}", stub.origin()), state, stub })
    }
    /// The code step 1 answers for this BSN.
    pub fn code_for_bsn(bsn: &str) -> String {
        cruks_code(&bsn_key(bsn))
    }
    /// The code step 1 answers for a person given without a BSN.
    pub fn code_for_person(first: &str, last: &str, date_of_birth: &str, birth_place: &str) -> String {
        cruks_code(&person_key(first, last, date_of_birth, birth_place))
    }
    /// Registers the person of this BSN (hence its code).
    pub fn register_bsn(&self, bsn: &str) {
        lock(&self.state.registered).insert(Cruks::code_for_bsn(bsn));
    }
    /// Registers a person known without a BSN (hence their code).
    pub fn register_person(&self, first: &str, last: &str, date_of_birth: &str, birth_place: &str) {
        lock(&self.state.registered).insert(Cruks::code_for_person(first, last, date_of_birth, birth_place));
    }
    pub fn code_path(&self) -> &'static str {
        CRUKS_CODE
    }
    pub fn registered_path(&self) -> &'static str {
        CRUKS_REGISTERED
    }
}

impl std::ops::Deref for Cruks {
    type Target = Stub;
    fn deref(&self) -> &Stub {
        &self.stub
    }
}

// ---------------------------------------------------------------- national identifiers

/// Every valid national identifier the cases sent, in each written form, for
/// the run's check that no operator response carries one.
static NATIONAL_IDS: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());

/// Records an identifier a case sends, in every form it may be written in;
/// each also joins the run's secrets, which must never reach the server's log.
pub fn saw_national_id(forms: &[String]) {
    let mut seen = lock(&NATIONAL_IDS);
    for form in forms {
        crate::client::saw_secret(form);
        seen.insert(form.clone());
    }
}

pub fn national_ids_sent() -> Vec<String> {
    lock(&NATIONAL_IDS).iter().cloned().collect()
}

fn next_seed() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    u64::from(std::process::id()).wrapping_mul(7_919).wrapping_add(NEXT.fetch_add(1, Ordering::Relaxed))
}

/// The Luhn check digit of a personnummer's nine digits `YYMMDDNNN`.
pub fn luhn_digit(nine: &str) -> u32 {
    let sum: u32 = nine
        .bytes()
        .filter(u8::is_ascii_digit)
        .enumerate()
        .map(|(i, b)| {
            let product = u32::from(b - b'0') * if i % 2 == 0 { 2 } else { 1 };
            product / 10 + product % 10
        })
        .sum();
    (10 - sum % 10) % 10
}

/// A 12-digit personnummer `YYYYMMDDNNNC` of these eight digits (the day may
/// be a samordningsnummer's, +60, or not a date at all) and serial, with the
/// right check digit.
pub fn personnummer(yyyymmdd: &str, serial: u32) -> String {
    let serial = format!("{:03}", serial % 1_000);
    let check = luhn_digit(&format!("{}{serial}", &yyyymmdd[2..]));
    format!("{yyyymmdd}{serial}{check}")
}

/// A birth date (1950–1999) and a serial, not given before in this run.
fn fresh_birth() -> (chrono::NaiveDate, u64) {
    let seed = next_seed();
    let first = chrono::NaiveDate::from_ymd_opt(1950, 1, 1).unwrap_or_default();
    (first.checked_add_days(chrono::Days::new(seed % 18_262)).unwrap_or(first), seed / 18_262)
}

/// A person's date of birth (`yyyy-mm-dd`) with a valid personnummer and CPR
/// number of that date, none given before in this run.
#[derive(Debug, Clone)]
pub struct Born {
    pub date_of_birth: String,
    pub personnummer: String,
    pub cpr: String,
}

pub fn fresh_born() -> Born {
    let (date, serial) = fresh_birth();
    Born {
        date_of_birth: date.format("%Y-%m-%d").to_string(),
        personnummer: personnummer(&date.format("%Y%m%d").to_string(), u32::try_from(serial % 1_000).unwrap_or(0)),
        // a serial from 0000 to 3999 places the year in the 1900s; 29 February of
        // 1950–1999 is one in 19YY and 20YY alike, so every century rule reads a real date
        cpr: format!("{}{:04}", date.format("%d%m%y"), serial % 4_000),
    }
}

/// A valid personnummer not given before in this run (born 1950–1999).
pub fn fresh_personnummer() -> String {
    fresh_born().personnummer
}

/// The forms a personnummer may be written in: 12 digits, with a dash, and the 10-digit forms.
pub fn personnummer_forms(twelve: &str) -> Vec<String> {
    let digits = twelve.replace('-', "");
    if digits.len() != 12 {
        return vec![twelve.to_string()];
    }
    vec![digits.clone(), format!("{}-{}", &digits[..8], &digits[8..]), digits[2..].to_string(), format!("{}-{}", &digits[2..8], &digits[8..])]
}

/// Whether nine digits pass the BSN's 11-test (9·d1 + 8·d2 + … + 2·d8 − d9 ≡ 0 mod 11).
pub fn bsn_passes(bsn: &str) -> bool {
    let digits: Vec<i64> = bsn.bytes().map(|b| i64::from(b) - i64::from(b'0')).collect();
    if digits.len() != 9 || digits.iter().any(|d| !(0..=9).contains(d)) {
        return false;
    }
    let sum: i64 = digits[..8].iter().zip((2..=9).rev()).map(|(d, w)| d * w).sum::<i64>() - digits[8];
    sum % 11 == 0
}

/// A BSN passing the 11-test not used before in this run.
pub fn fresh_bsn() -> String {
    let mut seed = next_seed().wrapping_mul(2_654_435_761) % 100_000_000;
    loop {
        let eight = format!("{:08}", seed);
        let eight = format!("{}{}", (b'1' + (eight.as_bytes()[0] - b'0') % 9) as char, &eight[1..]);
        let sum: u32 = eight.bytes().zip((2..=9).rev()).map(|(b, w)| u32::from(b - b'0') * w).sum();
        let last = sum % 11;
        if last < 10 {
            return format!("{eight}{last}");
        }
        seed = (seed + 1) % 100_000_000;
    }
}

/// A valid CPR number `DDMMYYNNNN` not given before in this run (born 1950–1999).
pub fn fresh_cpr() -> String {
    fresh_born().cpr
}

/// The forms a CPR number may be written in: 10 digits and with a dash.
pub fn cpr_forms(ten: &str) -> Vec<String> {
    let digits = ten.replace('-', "");
    if digits.len() != 10 {
        return vec![ten.to_string()];
    }
    vec![digits.clone(), format!("{}-{}", &digits[..6], &digits[6..])]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agent() -> ureq::Agent {
        ureq::AgentBuilder::new().timeout(Duration::from_secs(10)).build()
    }

    /// (status, headers we look at, body)
    fn post(url: &str, headers: &[(&str, &str)], content_type: &str, body: &str) -> (u16, BTreeMap<String, String>, String) {
        let mut request = agent().post(url).set("content-type", content_type);
        for (name, value) in headers {
            request = request.set(name, value);
        }
        let response = match request.send_string(body) {
            Ok(r) => r,
            Err(ureq::Error::Status(_, r)) => r,
            Err(e) => return (0, BTreeMap::new(), e.to_string()),
        };
        let status = response.status();
        let headers =
            response.headers_names().into_iter().filter_map(|n| response.header(&n).map(|v| (n.to_ascii_lowercase(), v.to_string()))).collect();
        (status, headers, response.into_string().unwrap_or_default())
    }

    #[test]
    fn identifiers_are_made_and_checked_by_their_rules() {
        // Skatteverket's example 811218-9876
        assert_eq!(luhn_digit("811218987"), 6);
        assert_eq!(personnummer("19811218", 987), "198112189876");
        for _ in 0..50 {
            let p = fresh_personnummer();
            assert_eq!(p.len(), 12);
            assert_eq!(luhn_digit(&p[2..11]), u32::from(p.as_bytes()[11] - b'0'));
            assert!(chrono::NaiveDate::parse_from_str(&p[..8], "%Y%m%d").is_ok());
            let b = fresh_bsn();
            assert!(bsn_passes(&b), "{b}");
            let c = fresh_cpr();
            assert!(chrono::NaiveDate::parse_from_str(&format!("19{}{}{}", &c[4..6], &c[2..4], &c[..2]), "%Y%m%d").is_ok(), "{c}");
        }
        assert!(bsn_passes("111222333"));
        assert!(!bsn_passes("111222334"));
        assert_ne!(fresh_personnummer(), fresh_personnummer());
        assert_eq!(personnummer_forms("198112189876"), vec!["198112189876", "19811218-9876", "8112189876", "811218-9876"]);
        assert_eq!(
            parse_form("a=1&b=x+y%40z&c="),
            BTreeMap::from([("a".into(), "1".into()), ("b".into(), "x y@z".into()), ("c".into(), String::new())])
        );
    }

    #[test]
    fn spelpaus_answers_its_contract_and_its_trap() {
        let sp = Spelpaus::start("casino-test", "key-123").unwrap();
        let blocked = fresh_personnummer();
        sp.block(&blocked);
        let url = format!("{}{}", sp.url, sp.login_path());
        let auth = [("authorization", "key-123")];
        let (status, _, body) = post(&url, &auth, "application/json", &json!({ "requestId": "r1", "subjectId": blocked }).to_string());
        assert_eq!(status, 200);
        let body: Json = serde_json::from_str(&body).unwrap();
        assert_eq!(body["isBlocked"], json!(true));
        assert_eq!(body["requestId"], json!("r1"));
        assert_eq!(sp.requests()[0].reference.as_deref(), body["responseId"].as_str());
        // the trap: 12 characters that are no personnummer
        let (status, _, body) = post(&url, &auth, "application/json", &json!({ "requestId": "r2", "subjectId": "19901301ABCD" }).to_string());
        assert_eq!((status, serde_json::from_str::<Json>(&body).unwrap()["isBlocked"].clone()), (200, json!(false)));
        let marketing = format!("{}{}", sp.url, sp.marketing_path());
        let (status, _, _) = post(&marketing, &auth, "application/json", &json!({ "requestId": "r3", "subjectId": blocked }).to_string());
        assert_eq!(status, 200);
        assert_eq!(post(&url, &[("authorization", "wrong")], "application/json", "{}").0, 401);
        assert_eq!(post(&url, &auth, "application/json", &json!({ "subjectId": blocked }).to_string()).0, 400);
        assert_eq!(post(&url, &auth, "application/json", &json!({ "requestId": "", "subjectId": blocked }).to_string()).0, 400);
        assert_eq!(post(&url, &auth, "application/json", &json!({ "requestId": "r", "subjectId": "1990010112" }).to_string()).0, 400);
        assert_eq!(agent().get(&url).call().map_or_else(|e| if let ureq::Error::Status(s, _) = e { s } else { 0 }, |r| r.status()), 405);
        assert_eq!(sp.count_to(&sp.login_path()), 7);
        sp.set_fault(Fault::Malformed);
        let (status, _, body) = post(&url, &auth, "application/json", &json!({ "requestId": "r4", "subjectId": blocked }).to_string());
        assert_eq!(status, 200);
        assert!(serde_json::from_str::<Json>(&body).unwrap().get("isBlocked").is_none());
        sp.set_fault(Fault::Status(503));
        assert_eq!(post(&url, &auth, "application/json", "{}").0, 503);
    }

    #[test]
    fn gamstop_answers_in_headers_and_keeps_its_batch_limits() {
        let gs = Gamstop::start("gs-key").unwrap();
        gs.exclude_email("Y@Example.com", Exclusion::Y);
        gs.exclude_person("Averyveryverylongfirstname", "Lee", "1990-04-01", Some("SW1A 1AA"), Exclusion::P);
        let key = [("x-api-key", "gs-key"), ("x-trace-id", "t-1")];
        let form = |email: &str, first: &str, postcode: &str| {
            format!("firstName={first}&lastName=lee&dateOfBirth=1990-04-01&email={email}&postcode={postcode}&mobile=%2B447700900123")
        };
        let form_type = "application/x-www-form-urlencoded";
        let (status, headers, body) = post(&gs.url, &key, form_type, &form("y%40example.com", "Ann", "X1"));
        assert_eq!((status, headers.get("x-exclusion").map(String::as_str), body.as_str()), (200, Some("Y"), ""));
        assert!(headers.get("x-unique-id").is_some_and(|id| Some(id.as_str()) == gs.requests()[0].reference.as_deref()));
        assert_eq!(gs.requests()[0].header("x-trace-id"), "t-1");
        assert_eq!(gs.requests()[0].form()["mobile"], "+447700900123");
        let (_, headers, _) = post(&gs.url, &key, form_type, &form("p%40example.com", "AVERYVERYVERYLONGFIRSTxx", "sw1a1aa"));
        assert_eq!(headers.get("x-exclusion").map(String::as_str), Some("P"));
        let (_, headers, _) = post(&gs.url, &key, form_type, &form("n%40example.com", "Ann", "X1"));
        assert_eq!(headers.get("x-exclusion").map(String::as_str), Some("N"));
        assert_eq!(post(&gs.url, &[("x-api-key", "bad")], form_type, &form("n%40example.com", "Ann", "X1")).0, 403);
        assert_eq!(post(&gs.url, &key, form_type, "firstName=Ann").0, 400);
        assert_eq!(post(&gs.url, &key, "application/json", "{}").0, 400);
        let batch_url = format!("{}/batch", gs.url);
        let person = |i: usize| {
            json!({ "firstName": "Ann", "lastName": "Lee", "dateOfBirth": "1990-04-01", "email": if i == 0 { "y@example.com".to_string() } else { format!("{i}@example.com") },
                "postcode": "X1", "mobile": "+447700900123", "correlationId": format!("c{i}") })
        };
        let (status, _, body) = post(&batch_url, &key, "application/json", &Json::Array((0..2).map(person).collect()).to_string());
        assert_eq!(status, 200);
        let answers: Json = serde_json::from_str(&body).unwrap();
        assert_eq!(
            (answers[0]["exclusion"].clone(), answers[0]["correlationId"].clone(), answers[1]["exclusion"].clone()),
            (json!("Y"), json!("c0"), json!("N"))
        );
        assert!(answers[0]["msRequestId"].is_string());
        // too fast: a second batch within the second
        assert_eq!(post(&batch_url, &key, "application/json", &json!([person(1)]).to_string()).0, 429);
        assert_eq!(gs.rate_refusals(), 1);
        assert!(gs.batches_within_limits().is_err());
        std::thread::sleep(Duration::from_millis(1_100));
        let too_many = Json::Array((0..1_001).map(person).collect()).to_string();
        assert_eq!(post(&batch_url, &key, "application/json", &too_many).0, 400);
        std::thread::sleep(Duration::from_millis(1_100));
        let padded = json!([{ "firstName": "A".repeat(300 * 1024), "lastName": "Lee", "dateOfBirth": "1990-04-01", "email": "a@example.com", "postcode": "X1",
            "mobile": "1", "correlationId": "c" }]);
        assert_eq!(post(&batch_url, &key, "application/json", &padded.to_string()).0, 400);
        assert_eq!(gs.batches().len(), 4);
    }

    #[test]
    fn rofus_and_cruks_answer_their_contracts() {
        let ro = Rofus::start("op-1", "ro-key").unwrap();
        let cpr = fresh_cpr();
        ro.set_status(&cpr, RofusStatus::RegisteredIndefinitely);
        let url = format!("{}/gambler/check", ro.url);
        let bearer = [("authorization", "Bearer ro-key")];
        let (status, _, body) = post(&url, &bearer, "application/json", &json!({ "operatorId": "op-1", "cpr": cpr, "requestId": "r1" }).to_string());
        assert_eq!(status, 200);
        assert_eq!(serde_json::from_str::<Json>(&body).unwrap()["status"], json!("RegisteredIndefinitely"));
        let other = json!({ "operatorId": "op-1", "cpr": "0101901234", "requestId": "r2" }).to_string();
        let (_, _, body) = post(&format!("{}/gambler/marketing", ro.url), &bearer, "application/json", &other);
        assert_eq!(serde_json::from_str::<Json>(&body).unwrap()["status"], json!("NotRegistered"));
        assert_eq!(post(&url, &[("authorization", "ro-key")], "application/json", &other).0, 401);
        assert_eq!(post(&url, &bearer, "application/json", &json!({ "operatorId": "op-1", "cpr": cpr }).to_string()).0, 400);

        let cr = Cruks::start().unwrap();
        let bsn = fresh_bsn();
        cr.register_bsn(&bsn);
        let step1 = json!({ "bsn": bsn, "firstName": "Jan", "lastName": "Jansen", "dateOfBirth": "1990-04-01", "requestId": "r1" }).to_string();
        let (status, _, body) = post(&format!("{}/cruks-code", cr.url), &[], "application/json", &step1);
        assert_eq!(status, 200);
        let code = serde_json::from_str::<Json>(&body).unwrap()["cruksCode"].as_str().unwrap().to_string();
        assert_eq!(code, Cruks::code_for_bsn(&bsn));
        let (_, _, again) = post(&format!("{}/cruks-code", cr.url), &[], "application/json", &step1);
        assert_eq!(serde_json::from_str::<Json>(&again).unwrap()["cruksCode"], json!(code), "the code is stable");
        let step2 = json!({ "cruksCode": code, "requestId": "r2" }).to_string();
        let (_, _, body) = post(&format!("{}/is-registered", cr.url), &[], "application/json", &step2);
        assert_eq!(serde_json::from_str::<Json>(&body).unwrap()["isRegistered"], json!(true));
        let no_bsn =
            json!({ "firstName": "Jan", "lastName": "Jansen", "dateOfBirth": "1990-04-01", "birthPlace": "Utrecht", "requestId": "r3" }).to_string();
        assert_eq!(post(&format!("{}/cruks-code", cr.url), &[], "application/json", &no_bsn).0, 200);
        let neither = json!({ "firstName": "Jan", "lastName": "Jansen", "dateOfBirth": "1990-04-01", "requestId": "r4" }).to_string();
        assert_eq!(post(&format!("{}/cruks-code", cr.url), &[], "application/json", &neither).0, 400);
    }

    #[test]
    fn a_chunked_body_is_read_and_every_answer_closes_its_connection() {
        let cr = Cruks::start().unwrap();
        let mut stream = TcpStream::connect(("127.0.0.1", cr.port())).unwrap();
        let body = json!({ "cruksCode": Cruks::code_for_bsn("111222333"), "requestId": "r1" }).to_string();
        let (first, rest) = body.split_at(10);
        let request = format!(
            "POST /cruks/is-registered HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n{:x}\r\n{first}\r\n{:x}\r\n{rest}\r\n0\r\n\r\n",
            first.len(),
            rest.len()
        );
        stream.write_all(request.as_bytes()).unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"), "{answer}");
        assert!(answer.to_ascii_lowercase().contains("connection: close"), "{answer}");
        assert!(answer.contains("\"isRegistered\":false"), "{answer}");
        assert_eq!(cr.requests()[0].json()["requestId"], json!("r1"));
    }

    #[test]
    fn faults_slow_hang_and_stop() {
        let sp = Spelpaus::start("a", "k").unwrap();
        let url = format!("{}{}", sp.url, sp.login_path());
        let body = json!({ "requestId": "r", "subjectId": "198112189876" }).to_string();
        sp.set_fault(Fault::Slow(Duration::from_millis(300)));
        let started = Instant::now();
        assert_eq!(post(&url, &[("authorization", "k")], "application/json", &body).0, 200);
        assert!(started.elapsed() >= Duration::from_millis(300));
        sp.set_fault(Fault::Hang);
        let hung = ureq::AgentBuilder::new().timeout(Duration::from_millis(500)).build();
        let started = Instant::now();
        assert!(hung.post(&url).set("authorization", "k").send_string(&body).is_err());
        assert!(started.elapsed() < Duration::from_secs(5));
        assert_eq!(sp.requests().last().and_then(|s| s.answered), None, "a held request has no answer");
        // a request held when the stub drops is hung up on, and the port refuses after
        let waiting = std::thread::spawn({
            let url = url.clone();
            let body = body.clone();
            move || agent().post(&url).set("authorization", "k").send_string(&body).is_err()
        });
        std::thread::sleep(Duration::from_millis(200));
        let started = Instant::now();
        drop(sp);
        assert!(started.elapsed() < Duration::from_secs(5), "the drop waited for the hang");
        assert!(waiting.join().unwrap());
        assert!(TcpStream::connect(url.trim_start_matches("http://").split('/').next().unwrap()).is_err());
        let refused = refused_url().unwrap();
        assert!(TcpStream::connect(refused.trim_start_matches("http://")).is_err());
    }
}
