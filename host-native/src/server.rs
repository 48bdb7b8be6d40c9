//! The HTTP server: hyper connections feeding the gateway core.

use std::convert::Infallible;
use std::sync::Arc;

use gateway::{Gateway, MAX_BODY_BYTES};
use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;

/// A client must send its request headers within this time (slow-loris guard).
const HEADER_READ_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// Reads at most one byte past the limit, so the core can refuse an oversized body.
async fn read_body(mut body: Incoming) -> Vec<u8> {
    let mut bytes = Vec::new();
    while bytes.len() <= MAX_BODY_BYTES {
        match body.frame().await {
            Some(Ok(frame)) => {
                if let Ok(data) = frame.into_data() {
                    bytes.extend_from_slice(&data);
                }
            }
            Some(Err(_)) | None => break,
        }
    }
    bytes
}

async fn handle(
    gateway: Arc<Gateway>,
    peer: std::net::IpAddr,
    trusted_header: Option<Arc<http::HeaderName>>,
    request: hyper::Request<Incoming>,
) -> Result<hyper::Response<Full<Bytes>>, Infallible> {
    let started = std::time::Instant::now();
    let (mut parts, body) = request.into_parts();
    let source = trusted_header.and_then(|name| forwarded_client(&parts.headers, &name)).unwrap_or(peer);
    parts.extensions.insert(gateway::SourceAddress(source));
    let method = parts.method.clone();
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
            path => gateway::router::resolve(&method, path).map(|r| r.spec().path).unwrap_or("unmatched"),
        };
        span.record("otel.name", format!("{method} {route}"));
        span.record("http.route", route);
        crate::otel::set_parent_from_request(&span, &parts.headers);
    }
    let body = read_body(body).await;
    let request = http::Request::from_parts(parts, body);
    let response = tracing::Instrument::instrument(
        async {
            match request.uri().path() {
                "/metrics" => gateway.metrics_page(&request, gateway::telemetry::MetricsAccess::AdminKey, crate::observability::render).await,
                _ => gateway.handle(request).await,
            }
        },
        span.clone(),
    )
    .await;
    drop(in_flight);
    if !span.is_disabled() {
        span.record("http.response.status_code", response.status().as_u16());
        span.record("request_id", response.headers().get("x-request-id").and_then(|v| v.to_str().ok()).unwrap_or(""));
    }
    let took = started.elapsed();
    let facts = response.extensions().get::<gateway::RequestFacts>();
    crate::observability::record_request(
        &method,
        facts.and_then(|f| f.route),
        response.status().as_u16(),
        facts.and_then(|f| f.check.as_ref()),
        took,
    );
    log_request(&method, &response, took);
    Ok(response.map(|b| Full::new(Bytes::from(b))))
}

/// One line per request: its id, the route's template (never the raw path,
/// which may carry ids), the status, the time taken, the caller's tenant and
/// the rules decision; a failure's cause beside it. Nothing of the request's
/// headers or body: keys, secrets and personal data stay out of the log.
fn log_request(method: &http::Method, response: &http::Response<Vec<u8>>, took: std::time::Duration) {
    let header = |name: &str| response.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or("");
    let facts = response.extensions().get::<gateway::RequestFacts>();
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

/// Serves `GET /metrics` alone, without a key, to whoever reaches `listener`
/// (`--metrics-listen`: an address only the monitoring network reaches).
pub async fn serve_metrics(listener: TcpListener, gateway: Arc<Gateway>) {
    loop {
        let Ok((stream, _)) = listener.accept().await else { continue };
        let gateway = gateway.clone();
        tokio::spawn(async move {
            let service = service_fn(move |request: hyper::Request<Incoming>| {
                let gateway = gateway.clone();
                async move {
                    let (parts, _) = request.into_parts();
                    let request = http::Request::from_parts(parts, Vec::new());
                    let response = match request.uri().path() {
                        "/metrics" => gateway.metrics_page(&request, gateway::telemetry::MetricsAccess::Open, crate::observability::render).await,
                        _ => {
                            let mut response = http::Response::new(b"GET /metrics\n".to_vec());
                            *response.status_mut() = http::StatusCode::NOT_FOUND;
                            response
                        }
                    };
                    Ok::<_, Infallible>(response.map(|b| Full::new(Bytes::from(b))))
                }
            });
            let _ = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_READ_TIMEOUT)
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
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
    let trusted_header = trusted_header.map(Arc::new);
    tokio::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => return,
        };
        let Ok((stream, peer)) = accepted else { continue };
        let _ = stream.set_nodelay(true);
        let gateway = gateway.clone();
        let trusted_header = trusted_header.clone();
        tokio::spawn(async move {
            let service = service_fn(move |request| handle(gateway.clone(), peer.ip(), trusted_header.clone(), request));
            let _ = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_READ_TIMEOUT)
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
