//! What the gateway-level tests share: one request through `Gateway::handle`.
#![allow(dead_code)]

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use gateway::ports::Clock;
use gateway::{Gateway, SourceAddress};
use serde_json::Value as Json;

/// Sends one request with `key`, from `source` when given; answers the status and the JSON body.
pub async fn call_from(gateway: &Gateway, source: Option<&str>, key: &str, method: &str, path: &str, body: Json) -> (u16, Json) {
    let mut builder = http::Request::builder().method(method).uri(path).header("authorization", format!("Bearer {key}"));
    let bytes = if body.is_null() { Vec::new() } else { body.to_string().into_bytes() };
    if !bytes.is_empty() {
        builder = builder.header("content-type", "application/json");
    }
    let Ok(mut request) = builder.body(bytes) else { return (0, Json::Null) };
    if let Some(ip) = source.and_then(|s| s.parse().ok()) {
        request.extensions_mut().insert(SourceAddress(ip));
    }
    let response = gateway.handle(request).await;
    (response.status().as_u16(), serde_json::from_slice(response.body()).unwrap_or(Json::Null))
}

/// [`call_from`] with no source address.
pub async fn call(gateway: &Gateway, key: &str, method: &str, path: &str, body: Json) -> (u16, Json) {
    call_from(gateway, None, key, method, path, body).await
}

/// A clock the test moves.
#[derive(Clone)]
pub struct TestClock(pub Arc<AtomicI64>);

impl Clock for TestClock {
    fn now(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}
