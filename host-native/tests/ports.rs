//! Ports a host may replace: the rate limiter is asked for every
//! authenticated request and its answer is the 429.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use gateway::auth::Environment;
use gateway::ports::{RateLimit, RateState};
use gateway::{Config, Gateway};
use host_native::rules_engine::ComponentRules;
use host_native::{open_store, OsIds, SystemClock};

/// Lets `allowed` requests through, then limits with a fixed retry.
struct Shared {
    seen: Arc<AtomicUsize>,
    allowed: usize,
}

#[async_trait::async_trait]
impl RateLimit for Shared {
    async fn check(&self, _key_id: &str, limit: u32, _now: i64) -> RateState {
        let allowed = self.seen.fetch_add(1, Ordering::SeqCst) < self.allowed;
        RateState { allowed, limit, window_seconds: 60, remaining: if allowed { 1 } else { 0 }, reset_seconds: 7 }
    }
    async fn peek(&self, _key_id: &str, limit: u32, _now: i64) -> RateState {
        RateState { allowed: true, limit, window_seconds: 60, remaining: limit, reset_seconds: 60 }
    }
}

async fn get(gw: &Gateway, path: &str, key: Option<&str>) -> http::Response<Vec<u8>> {
    let mut request = http::Request::builder().method("GET").uri(path);
    if let Some(key) = key {
        request = request.header("authorization", format!("Bearer {key}"));
    }
    gw.handle(request.body(Vec::new()).unwrap()).await
}

#[tokio::test]
async fn a_supplied_rate_limiter_decides_the_429() {
    let seen = Arc::new(AtomicUsize::new(0));
    let gw = Gateway::new(
        open_store("sqlite::memory:").await.unwrap(),
        Box::new(ComponentRules::embedded().unwrap()),
        Box::new(SystemClock),
        Box::new(OsIds),
        Config::default(),
    )
    .with_rate_limiter(Box::new(Shared { seen: seen.clone(), allowed: 1 }));
    gw.migrate().await.unwrap();
    let admin = gw.create_admin_key(Environment::Sandbox).await.unwrap();
    assert_eq!(get(&gw, "/v1/rules", Some(&admin)).await.status(), 200);
    let limited = get(&gw, "/v1/rules", Some(&admin)).await;
    assert_eq!(limited.status(), 429);
    assert_eq!(limited.headers().get("retry-after").unwrap(), "7");
    assert_eq!(limited.headers().get("ratelimit").unwrap(), "\"per-key\";r=0;t=7");
    assert_eq!(get(&gw, "/v1/health", None).await.status(), 200);
    assert_eq!(seen.load(Ordering::SeqCst), 2, "health is not counted");
}
