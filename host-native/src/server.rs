//! The HTTP server: hyper connections feeding the gateway core. Each
//! connection is bounded in time (its headers, its whole request, its idle
//! spells) and their number is capped, so slow clients cannot hold the server.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use gateway::pipeline::MAX_BODY_BYTES;
use gateway::router::Access;
use gateway::Gateway;
use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};

/// Seconds a request's line and headers may take (`--header-timeout-secs`).
pub const DEFAULT_HEADER_TIMEOUT_SECS: u64 = 15;
/// Seconds a whole request, body included, may take (`--body-timeout-secs`).
pub const DEFAULT_BODY_TIMEOUT_SECS: u64 = 15;
/// Seconds a kept-alive connection may wait for its next request
/// (`--idle-timeout-secs`): longer than a load balancer's usual 60 s, so the
/// balancer, not the server, closes an idle connection first.
pub const DEFAULT_IDLE_TIMEOUT_SECS: u64 = 75;
/// Descriptors left to the server's own files and outgoing calls when the
/// connection cap is derived from the descriptor limit.
pub const RESERVED_DESCRIPTORS: usize = 128;
/// The highest connection cap derived from the descriptor limit.
pub const MAX_DEFAULT_CONNECTIONS: usize = 10_000;
/// The connection cap of the metrics listener (a few scrapers).
const METRICS_CONNECTIONS: usize = 64;
/// Past the body deadline, the time a 408 answer has to go out before the
/// connection is dropped regardless.
const ANSWER_GRACE: Duration = Duration::from_secs(1);

/// How long a client may take, and how many connections are served at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// A request's line and headers must arrive within this time of its first
    /// byte (the connection's opening, for its first request); `None`: no limit.
    pub header_timeout: Option<Duration>,
    /// The whole request, body included, must arrive within this time of its
    /// first byte; a late body is answered 408 and the connection closed.
    pub body_timeout: Option<Duration>,
    /// A connection with no request under way and no byte written is closed
    /// after this time (between kept-alive requests; a client that does not
    /// read its answer).
    pub idle_timeout: Option<Duration>,
    /// Connections served at once. At the cap the server accepts no more
    /// until one closes: new connections wait in the listen backlog.
    pub max_connections: usize,
}

impl ConnectionLimits {
    /// Limits from seconds, 0 meaning none; the cap by default derived from
    /// the descriptor limit ([`default_max_connections`]).
    pub fn from_secs(header: u64, body: u64, idle: u64, max_connections: Option<usize>) -> Self {
        let timeout = |secs: u64| (secs > 0).then(|| Duration::from_secs(secs));
        ConnectionLimits {
            header_timeout: timeout(header),
            body_timeout: timeout(body),
            idle_timeout: timeout(idle),
            max_connections: max_connections.unwrap_or_else(default_max_connections).clamp(1, Semaphore::MAX_PERMITS),
        }
    }

    /// When the connection's current phase must be over; `None` while the
    /// server answers (its own time) or when that phase has no limit.
    fn deadline(&self, phase: Phase) -> Option<Instant> {
        match phase {
            Phase::Idle(since) => self.idle_timeout.map(|t| since + t),
            Phase::Head(since) => self.header_timeout.map(|t| since + t),
            Phase::Body(since) => self.body_timeout.map(|t| since + t + ANSWER_GRACE),
            Phase::Answering => None,
        }
    }
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        Self::from_secs(DEFAULT_HEADER_TIMEOUT_SECS, DEFAULT_BODY_TIMEOUT_SECS, DEFAULT_IDLE_TIMEOUT_SECS, None)
    }
}

/// The soft limit on open descriptors (`RLIMIT_NOFILE`); `None` when unknown.
pub fn descriptor_limit() -> Option<usize> {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit writes the limit into the struct it is given.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return None;
    }
    Some(usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX))
}

/// Raises the soft descriptor limit to the hard one (at most 65,536), as
/// servers that hold many connections do; answers the soft limit then in force.
pub fn raise_descriptor_limit() -> Option<usize> {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit writes the limit into the struct it is given.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return None;
    }
    let wanted = limit.rlim_max.min(65_536);
    if limit.rlim_cur < wanted {
        let raised = libc::rlimit { rlim_cur: wanted, rlim_max: limit.rlim_max };
        // SAFETY: setrlimit reads the struct it is given; a refusal leaves the limit as it was.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
            limit.rlim_cur = wanted;
        }
    }
    Some(usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX))
}

/// The connection cap by default: the descriptor limit less
/// [`RESERVED_DESCRIPTORS`] (at least half the limit), at most
/// [`MAX_DEFAULT_CONNECTIONS`], so connections alone never exhaust the descriptors.
pub fn default_max_connections() -> usize {
    match descriptor_limit() {
        Some(limit) => limit.saturating_sub(RESERVED_DESCRIPTORS).max(limit / 2).clamp(1, MAX_DEFAULT_CONNECTIONS),
        None => 1_024,
    }
}

/// Where a connection stands, for its deadlines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// No request under way since this instant (the last byte written, or the last answer).
    Idle(Instant),
    /// A request's line and headers arriving; the request began at this instant.
    Head(Instant),
    /// Its body arriving; the request began at this instant.
    Body(Instant),
    /// The server answers: its own time, not the client's.
    Answering,
}

/// One connection's phase, shared by its reads and writes, its requests and its watchdog.
struct Watch {
    phase: Mutex<Phase>,
    /// Woken when a phase with an earlier deadline begins.
    changed: Notify,
}

impl Watch {
    fn new(now: Instant) -> Self {
        Watch { phase: Mutex::new(Phase::Head(now)), changed: Notify::new() }
    }

    fn phase(&self) -> Phase {
        *self.phase.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Moves to the phase `next` gives (`None`: stays); `wake` tells the watchdog.
    fn update(&self, wake: bool, next: impl FnOnce(Phase) -> Option<Phase>) -> Phase {
        let mut phase = self.phase.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(new) = next(*phase) {
            *phase = new;
            if wake {
                self.changed.notify_one();
            }
        }
        *phase
    }

    /// Bytes came in: an idle connection's next request has begun.
    fn on_read(&self) {
        self.update(true, |phase| matches!(phase, Phase::Idle(_)).then(|| Phase::Head(Instant::now())));
    }

    /// Bytes went out: an idle connection is not idle yet (a long answer is being read).
    fn on_write(&self) {
        // an idle deadline only moves later: the watchdog finds it when it wakes
        self.update(false, |phase| matches!(phase, Phase::Idle(_)).then(|| Phase::Idle(Instant::now())));
    }

    /// The headers are in: the body's time starts; answers when the request began.
    fn body_begins(&self) -> Instant {
        let phase = self.update(true, |phase| {
            Some(match phase {
                Phase::Head(since) | Phase::Body(since) => Phase::Body(since),
                // pipelined: its bytes came in with the previous request's
                Phase::Idle(_) | Phase::Answering => Phase::Body(Instant::now()),
            })
        });
        match phase {
            Phase::Body(since) => since,
            _ => Instant::now(),
        }
    }

    fn answering(&self) {
        self.update(false, |_| Some(Phase::Answering));
    }

    fn answered(&self) {
        self.update(true, |_| Some(Phase::Idle(Instant::now())));
    }
}

/// A connection's stream, telling its watch when bytes move.
struct WatchedStream {
    stream: TcpStream,
    watch: Arc<Watch>,
}

impl AsyncRead for WatchedStream {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.stream).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.watch.on_read();
        }
        polled
    }
}

impl AsyncWrite for WatchedStream {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        let polled = Pin::new(&mut self.stream).poll_write(cx, buf);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.watch.on_write();
        }
        polled
    }

    fn poll_write_vectored(mut self: Pin<&mut Self>, cx: &mut Context<'_>, bufs: &[std::io::IoSlice<'_>]) -> Poll<std::io::Result<usize>> {
        let polled = Pin::new(&mut self.stream).poll_write_vectored(cx, bufs);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.watch.on_write();
        }
        polled
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// Serves one connection until it ends or a deadline of its phase passes
/// (then it is dropped, which closes it); `_slot` frees its place under the cap.
async fn serve_connection<S>(stream: TcpStream, watch: Arc<Watch>, limits: ConnectionLimits, service: S, _slot: OwnedSemaphorePermit)
where
    S: hyper::service::HttpService<Incoming, ResBody = Full<Bytes>>,
    S::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let mut builder = http1::Builder::new();
    // hyper's own header timer runs from when the connection waits for a
    // request: a backstop behind the watchdog's idle and header deadlines
    builder.timer(TokioTimer::new()).header_read_timeout(match (limits.idle_timeout, limits.header_timeout) {
        (Some(idle), Some(header)) => Some(idle + header),
        _ => None,
    });
    let connection = builder.serve_connection(TokioIo::new(WatchedStream { stream, watch: watch.clone() }), service);
    tokio::pin!(connection);
    loop {
        let changed = watch.changed.notified();
        let deadline = limits.deadline(watch.phase());
        let expired = async {
            match deadline {
                Some(deadline) => tokio::time::sleep_until(deadline.into()).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            _ = &mut connection => return,
            () = changed => {}
            () = expired => {
                // the phase may have moved on since the deadline was read
                if limits.deadline(watch.phase()).is_some_and(|d| d <= Instant::now()) {
                    return;
                }
            }
        }
    }
}

/// Why accepting failed, and how long to wait before the next try: a
/// failure of the listener itself (out of descriptors, of memory) waits,
/// longer each time up to a second, instead of spinning; it is logged once
/// per burst, and the recovery once.
#[derive(Debug, Default)]
pub struct AcceptBackoff {
    failures: u64,
    delay: Duration,
    since: Option<Instant>,
}

impl AcceptBackoff {
    const FIRST: Duration = Duration::from_millis(10);
    const LONGEST: Duration = Duration::from_secs(1);

    /// The wait after `error`; `None` for an error of one connection only
    /// (reset or aborted before it was accepted), after which the next is accepted at once.
    pub fn failed(&mut self, error: &std::io::Error) -> Option<Duration> {
        use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset, Interrupted};
        if matches!(error.kind(), ConnectionAborted | ConnectionRefused | ConnectionReset | Interrupted) {
            return None;
        }
        if self.failures == 0 {
            self.since = Some(Instant::now());
            self.delay = Self::FIRST;
            tracing::warn!(target: "server", error = %error, "accepting connections failed; retrying with backoff (raise the descriptor limit or lower --max-connections)");
        } else {
            self.delay = (self.delay * 2).min(Self::LONGEST);
        }
        self.failures += 1;
        Some(self.delay)
    }

    /// A connection was accepted: a burst of failures, if any, is over.
    pub fn succeeded(&mut self) {
        if self.failures > 0 {
            let millis = self.since.map(|s| s.elapsed().as_millis()).unwrap_or(0);
            tracing::warn!(target: "server", failures = self.failures, millis, "accepting connections again");
            *self = AcceptBackoff::default();
        }
    }
}

/// The next connection, with its slot under the cap: at the cap no
/// connection is accepted (they wait in the listen backlog) until one closes.
async fn accept(
    listener: &TcpListener,
    slots: &Arc<Semaphore>,
    backoff: &mut AcceptBackoff,
    capped: &mut bool,
) -> (TcpStream, std::net::SocketAddr, OwnedSemaphorePermit) {
    let slot = match slots.clone().try_acquire_owned() {
        Ok(slot) => slot,
        Err(_) => {
            if !*capped {
                *capped = true;
                tracing::warn!(target: "server", "the connection cap is reached; new connections wait until one closes (--max-connections)");
            }
            match slots.clone().acquire_owned().await {
                Ok(slot) => slot,
                // the semaphore is never closed
                Err(_) => std::future::pending().await,
            }
        }
    };
    loop {
        match listener.accept().await {
            Ok((stream, peer)) => {
                backoff.succeeded();
                if std::mem::take(capped) {
                    tracing::info!(target: "server", "below the connection cap again");
                }
                return (stream, peer, slot);
            }
            Err(error) => {
                if let Some(delay) = backoff.failed(&error) {
                    tokio::time::sleep(delay).await;
                }
            }
        }
    }
}

/// Reads at most one byte past the limit, so the core can refuse an oversized
/// body; `None` when the body cannot be read (cut off, or badly framed).
async fn read_body(mut body: Incoming) -> Option<Vec<u8>> {
    let mut bytes = Vec::new();
    while bytes.len() <= MAX_BODY_BYTES {
        match body.frame().await {
            Some(Ok(frame)) => {
                if let Ok(data) = frame.into_data() {
                    bytes.extend_from_slice(&data);
                }
            }
            Some(Err(_)) => return None,
            None => break,
        }
    }
    Some(bytes)
}

/// A request that could not be read whole: answered through the core's one
/// error mapping, and the connection closed after the answer.
/// The answer of `answer`, or, should it panic (the core denies panics;
/// this is the last guard), the API's 500 with a request id: a client never
/// meets a connection cut without an answer.
async fn answered_even_on_panic(answer: impl std::future::Future<Output = http::Response<Vec<u8>>>) -> http::Response<Vec<u8>> {
    use futures_util::FutureExt;
    match std::panic::AssertUnwindSafe(answer).catch_unwind().await {
        Ok(response) => response,
        Err(_) => {
            let id = gateway::new_id(&crate::OsIds, "req");
            tracing::error!(request_id = %id, "a request's handling panicked");
            gateway::error::ApiError::internal().into_response(&id)
        }
    }
}

fn unread(error: gateway::error::ApiError) -> http::Response<Vec<u8>> {
    let mut response = error.into_response(&gateway::new_id(&crate::OsIds, "req"));
    response.headers_mut().insert(http::header::CONNECTION, http::HeaderValue::from_static("close"));
    response
}

async fn handle(
    gateway: Arc<Gateway>,
    peer: std::net::IpAddr,
    trusted_header: Option<Arc<http::HeaderName>>,
    watch: Arc<Watch>,
    body_timeout: Option<Duration>,
    request: hyper::Request<Incoming>,
) -> Result<hyper::Response<Full<Bytes>>, Infallible> {
    let started = std::time::Instant::now();
    let request_began = watch.body_begins();
    let (mut parts, body) = request.into_parts();
    let source = trusted_header.and_then(|name| forwarded_client(&parts.headers, &name)).unwrap_or(peer);
    parts.extensions.insert(gateway::input::SourceAddress(source));
    let method = parts.method.clone();
    let route = gateway::router::resolve(&method, parts.uri.path()).ok();
    let in_flight = crate::observability::InFlight::start();
    let span = tracing::debug_span!(
        "request",
        otel.kind = "server",
        otel.name = tracing::field::Empty,
        http.request.method = %method,
        http.route = tracing::field::Empty,
        http.response.status_code = tracing::field::Empty,
        request_id = tracing::field::Empty,
    );
    if !span.is_disabled() {
        // the span's name is its route's template, known before the request is answered
        let route = match parts.uri.path() {
            "/metrics" => "/metrics",
            path if path.starts_with("/console") => "/console",
            _ => route.as_ref().map(|r| r.spec().path).unwrap_or("unmatched"),
        };
        span.record("otel.name", format!("{method} {route}"));
        span.record("http.route", route);
        crate::otel::set_parent_from_request(&span, &parts.headers);
    }
    let body = match body_timeout {
        Some(limit) => tokio::time::timeout_at((request_began + limit).into(), read_body(body)).await.map_err(|_| limit),
        None => Ok(read_body(body).await),
    };
    watch.answering();
    let response = match body {
        Ok(Some(body)) => {
            let request = http::Request::from_parts(parts, body);
            tracing::Instrument::instrument(
                async {
                    match request.uri().path() {
                        "/metrics" => gateway.metrics_page(&request, gateway::telemetry::MetricsAccess::AdminKey, crate::observability::render).await,
                        _ => {
                            // the operators' API reads a few rows at a time; the others' reads may be long
                            if route.as_ref().is_some_and(|r| r.spec().access == Access::Tenant) {
                                answered_even_on_panic(crate::point_reads::point_reads(gateway.handle(request))).await
                            } else {
                                answered_even_on_panic(gateway.handle(request)).await
                            }
                        }
                    }
                },
                span.clone(),
            )
            .await
        }
        Ok(None) => unread(gateway::error::ApiError::bad_request("unreadable_body", "the request body was cut off or badly framed")),
        Err(limit) => unread(gateway::error::ApiError::new(
            408,
            "request_timeout",
            format!("the request was not received within {} s of its start", limit.as_secs()),
        )),
    };
    drop(in_flight);
    if !span.is_disabled() {
        span.record("http.response.status_code", response.status().as_u16());
        span.record("request_id", response.headers().get("x-request-id").and_then(|v| v.to_str().ok()).unwrap_or(""));
    }
    let took = started.elapsed();
    let facts = response.extensions().get::<gateway::telemetry::RequestFacts>();
    crate::observability::record_request(
        &method,
        facts.and_then(|f| f.route),
        response.status().as_u16(),
        facts.and_then(|f| f.check.as_ref()),
        took,
    );
    log_request(&method, &response, took);
    watch.answered();
    Ok(response.map(|b| Full::new(Bytes::from(b))))
}

/// One line per request: its id, the route's template (never the raw path,
/// which may carry ids), the status, the time taken, the caller's tenant and
/// the rules decision; a failure's cause beside it. Nothing of the request's
/// headers or body: keys, secrets and personal data stay out of the log.
fn log_request(method: &http::Method, response: &http::Response<Vec<u8>>, took: std::time::Duration) {
    let header = |name: &str| response.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or("");
    let facts = response.extensions().get::<gateway::telemetry::RequestFacts>();
    let route = facts.and_then(|f| f.route).unwrap_or("-");
    let tenant_id = facts.and_then(|f| f.tenant_id.as_deref()).unwrap_or("");
    let status = response.status().as_u16();
    let duration_ms = took.as_secs_f64() * 1_000.0;
    let cause = response.extensions().get::<gateway::error::ErrorDetail>().map(|d| d.0.as_str());
    let (request_id, decision_id) = (header("x-request-id"), header("x-decision-id"));
    match cause {
        Some(cause) => {
            tracing::warn!(target: "request", request_id, method = %method, route, status, duration_ms, tenant_id, decision_id, cause, "request failed")
        }
        None => tracing::info!(target: "request", request_id, method = %method, route, status, duration_ms, tenant_id, decision_id, "request"),
    }
}

/// The client address a trusted proxy put in `name`: the last address of the
/// header, the one the proxy itself appended (earlier ones are the client's word).
fn forwarded_client(headers: &http::HeaderMap, name: &http::HeaderName) -> Option<std::net::IpAddr> {
    let value = headers.get_all(name).iter().next_back()?.to_str().ok()?;
    value.rsplit(',').next()?.trim().parse().ok()
}

/// Connections the kernel holds for the server before it accepts them (the
/// kernel caps it at `net.core.somaxconn`). At the connection cap, new clients
/// wait here; past it their connection attempts are dropped and retried.
pub const LISTEN_BACKLOG: u32 = 4_096;

/// A listener on `address` (`HOST:PORT`) with a backlog of [`LISTEN_BACKLOG`],
/// not the 128 of a plain bind.
pub async fn bind(address: &str) -> std::io::Result<TcpListener> {
    let mut last_error = None;
    for address in tokio::net::lookup_host(address).await? {
        let socket = if address.is_ipv4() { tokio::net::TcpSocket::new_v4()? } else { tokio::net::TcpSocket::new_v6()? };
        socket.set_reuseaddr(true)?;
        match socket.bind(address).and_then(|()| socket.listen(LISTEN_BACKLOG)) {
            Ok(listener) => return Ok(listener),
            Err(e) => last_error = Some(e),
        }
    }
    Err(last_error.unwrap_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "the address resolves to nothing")))
}

/// Serves `GET /metrics` alone, without a key, to whoever reaches `listener`
/// (`--metrics-listen`: an address only the monitoring network reaches).
pub async fn serve_metrics(listener: TcpListener, gateway: Arc<Gateway>) {
    let limits = ConnectionLimits { max_connections: METRICS_CONNECTIONS, ..ConnectionLimits::default() };
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let (mut backoff, mut capped) = (AcceptBackoff::default(), false);
    loop {
        let (stream, _, slot) = accept(&listener, &slots, &mut backoff, &mut capped).await;
        let gateway = gateway.clone();
        let watch = Arc::new(Watch::new(Instant::now()));
        let service = service_fn({
            let watch = watch.clone();
            move |request: hyper::Request<Incoming>| {
                let gateway = gateway.clone();
                let watch = watch.clone();
                async move {
                    watch.body_begins();
                    watch.answering();
                    let (parts, _) = request.into_parts();
                    let request = http::Request::from_parts(parts, Vec::new());
                    let response = match request.uri().path() {
                        "/metrics" => gateway.metrics_page(&request, gateway::telemetry::MetricsAccess::Open, crate::observability::render).await,
                        _ => gateway::error::ApiError::not_found("not_found", "this listener serves GET /metrics only")
                            .into_response(&gateway::new_id(&crate::OsIds, "req")),
                    };
                    watch.answered();
                    Ok::<_, Infallible>(response.map(|b| Full::new(Bytes::from(b))))
                }
            }
        });
        tokio::spawn(serve_connection(stream, watch, limits, service, slot));
    }
}

/// Serves until `shutdown` resolves; each request's source is its peer.
pub async fn serve(listener: TcpListener, gateway: Arc<Gateway>, shutdown: impl std::future::Future<Output = ()>) {
    serve_with(listener, gateway, None, shutdown).await;
}

/// [`serve`], taking each request's source from `trusted_header` (set by
/// the proxy in front) when it holds an address.
pub async fn serve_with(
    listener: TcpListener,
    gateway: Arc<Gateway>,
    trusted_header: Option<http::HeaderName>,
    shutdown: impl std::future::Future<Output = ()>,
) {
    serve_limited(listener, gateway, trusted_header, ConnectionLimits::default(), shutdown).await;
}

/// [`serve_with`] under `limits`: each connection's deadlines, and the
/// number served at once.
pub async fn serve_limited(
    listener: TcpListener,
    gateway: Arc<Gateway>,
    trusted_header: Option<http::HeaderName>,
    limits: ConnectionLimits,
    shutdown: impl std::future::Future<Output = ()>,
) {
    let trusted_header = trusted_header.map(Arc::new);
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let (mut backoff, mut capped) = (AcceptBackoff::default(), false);
    tokio::pin!(shutdown);
    loop {
        let (stream, peer, slot) = tokio::select! {
            accepted = accept(&listener, &slots, &mut backoff, &mut capped) => accepted,
            () = &mut shutdown => return,
        };
        let _ = stream.set_nodelay(true);
        let gateway = gateway.clone();
        let trusted_header = trusted_header.clone();
        let watch = Arc::new(Watch::new(Instant::now()));
        let service = service_fn({
            let watch = watch.clone();
            move |request| handle(gateway.clone(), peer.ip(), trusted_header.clone(), watch.clone(), limits.body_timeout, request)
        });
        tokio::spawn(serve_connection(stream, watch, limits, service, slot));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A handler that panics answers the API's 500 with its request id, in
    /// header and body; the twin: an answer passes through untouched.
    #[test]
    #[allow(clippy::panic, clippy::unwrap_used)]
    fn a_panicking_handler_answers_500_with_its_request_id() {
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let panicked = runtime.block_on(answered_even_on_panic(async { panic!("planted") }));
        assert_eq!(panicked.status(), 500);
        let id = panicked.headers().get("x-request-id").and_then(|v| v.to_str().ok()).unwrap_or_default().to_string();
        assert!(id.starts_with("req_"), "{id:?}");
        let body: serde_json::Value = serde_json::from_slice(panicked.body()).unwrap();
        assert_eq!((body["error"].as_str(), body["request_id"].as_str()), (Some("internal_error"), Some(id.as_str())));
        let fine = runtime.block_on(answered_even_on_panic(async { http::Response::new(b"ok".to_vec()) }));
        assert_eq!((fine.status().as_u16(), fine.body().as_slice()), (200, &b"ok"[..]));
    }

    #[test]
    fn the_accept_loop_backs_off_on_listener_errors_and_not_on_a_lost_connection() {
        let mut backoff = AcceptBackoff::default();
        let lost = std::io::Error::from(std::io::ErrorKind::ConnectionAborted);
        assert_eq!(backoff.failed(&lost), None, "an aborted connection is skipped at once");
        let out_of_descriptors = std::io::Error::from_raw_os_error(libc::EMFILE);
        let delays: Vec<_> = (0..10).map(|_| backoff.failed(&out_of_descriptors).unwrap_or_default()).collect();
        assert_eq!(delays[0], Duration::from_millis(10));
        assert_eq!(delays[1], Duration::from_millis(20));
        assert!(delays.windows(2).all(|w| w[1] >= w[0]), "{delays:?}");
        assert_eq!(delays[9], Duration::from_secs(1), "the wait is capped at a second");
        backoff.succeeded();
        assert_eq!(backoff.failed(&std::io::Error::from_raw_os_error(libc::ENFILE)), Some(Duration::from_millis(10)), "a new burst starts short");
    }

    #[test]
    fn each_phase_has_its_deadline_and_zero_means_none() {
        let limits = ConnectionLimits::from_secs(15, 20, 75, Some(10));
        let t = Instant::now();
        assert_eq!(limits.deadline(Phase::Head(t)), Some(t + Duration::from_secs(15)));
        assert_eq!(limits.deadline(Phase::Body(t)), Some(t + Duration::from_secs(20) + ANSWER_GRACE));
        assert_eq!(limits.deadline(Phase::Idle(t)), Some(t + Duration::from_secs(75)));
        assert_eq!(limits.deadline(Phase::Answering), None, "the server's own time has no deadline");
        let off = ConnectionLimits::from_secs(0, 0, 0, Some(10));
        assert_eq!([Phase::Head(t), Phase::Body(t), Phase::Idle(t)].map(|p| off.deadline(p)), [None; 3]);
        assert!(ConnectionLimits::default().max_connections >= 1);
    }

    #[test]
    fn a_request_keeps_its_start_from_its_first_byte_to_its_body() {
        let accepted = Instant::now();
        let watch = Watch::new(accepted);
        assert_eq!(watch.phase(), Phase::Head(accepted), "a new connection's first request starts at once");
        assert_eq!(watch.body_begins(), accepted, "the body's deadline counts from the request's start");
        watch.answering();
        watch.on_read();
        assert_eq!(watch.phase(), Phase::Answering, "bytes read while answering start nothing");
        watch.answered();
        assert!(matches!(watch.phase(), Phase::Idle(_)));
        watch.on_write();
        assert!(matches!(watch.phase(), Phase::Idle(_)), "writing an answer keeps the connection idle");
        watch.on_read();
        let Phase::Head(began) = watch.phase() else { panic!("the next request did not begin") };
        assert!(began >= accepted);
        assert_eq!(watch.body_begins(), began);
    }

    #[test]
    fn the_trusted_header_gives_the_address_its_proxy_appended() {
        let name = http::HeaderName::from_static("x-forwarded-for");
        let mut headers = http::HeaderMap::new();
        headers.insert(&name, http::HeaderValue::from_static("6.6.6.6, 203.0.113.9"));
        assert_eq!(forwarded_client(&headers, &name), Some("203.0.113.9".parse().unwrap_or(std::net::Ipv4Addr::LOCALHOST.into())));
        headers.insert(&name, http::HeaderValue::from_static("not an address"));
        assert_eq!(forwarded_client(&headers, &name), None, "a header that holds no address falls back to the peer");
        assert_eq!(forwarded_client(&http::HeaderMap::new(), &name), None);
    }
}
