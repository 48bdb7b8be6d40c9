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

async fn handle(gateway: Arc<Gateway>, request: hyper::Request<Incoming>) -> Result<hyper::Response<Full<Bytes>>, Infallible> {
    let (parts, body) = request.into_parts();
    let body = read_body(body).await;
    let response = gateway.handle(http::Request::from_parts(parts, body)).await;
    if let Some(detail) = response.extensions().get::<gateway::error::ErrorDetail>() {
        let request_id = response.headers().get("x-request-id").and_then(|v| v.to_str().ok()).unwrap_or("-");
        eprintln!("request {request_id} answered {}: {}", response.status().as_u16(), detail.0);
    }
    Ok(response.map(|b| Full::new(Bytes::from(b))))
}

/// Serves until `shutdown` resolves.
pub async fn serve(listener: TcpListener, gateway: Arc<Gateway>, shutdown: impl std::future::Future<Output = ()>) {
    tokio::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => return,
        };
        let Ok((stream, _)) = accepted else { continue };
        let _ = stream.set_nodelay(true);
        let gateway = gateway.clone();
        tokio::spawn(async move {
            let service = service_fn(move |request| handle(gateway.clone(), request));
            let _ = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_READ_TIMEOUT)
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}
