//! Two hosts on one database share each key's rate limit: a key limited to
//! N a minute gets N across both, even when they count at the same moment.
//! Postgres runs when `CGW_TEST_POSTGRES_URL` names a server (each test gets
//! its own database); the same counter also runs on a SQLite file.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod support;

use std::sync::atomic::AtomicI64;
use std::sync::Arc;

use gateway::auth::Environment;
use gateway::rate_limit::StoreRateLimit;
use gateway::{Config, Gateway};
use host_native::rules_engine::ComponentRules;
use host_native::OsIds;
use serde_json::{json, Value as Json};
use support::{call, TestClock};

const LIMIT: usize = 10;

/// A host on `url` whose limiter is the store's counter (`shared`) or its own.
async fn host(url: &str, clock: &TestClock, shared: bool) -> Gateway {
    let store = host_native::open_store(url).await.unwrap();
    let mut gateway = Gateway::new(store, Box::new(ComponentRules::embedded().unwrap()), Box::new(clock.clone()), Box::new(OsIds), Config::default());
    if shared {
        gateway = gateway.with_rate_limiter(Box::new(StoreRateLimit::new(host_native::open_store(url).await.unwrap())));
    }
    gateway.migrate().await.unwrap();
    gateway
}

/// Sends `2 * LIMIT` requests of one key at once, alternating between the
/// hosts; answers how many were allowed.
async fn allowed_across(url: &str, shared: bool) -> usize {
    allowed_of(url, shared, LIMIT, 2 * LIMIT).await
}

/// Sends `requests` requests of a key limited to `limit` at once, alternating
/// between two hosts; answers how many were allowed.
async fn allowed_of(url: &str, shared: bool, limit: usize, requests: usize) -> usize {
    let clock = TestClock(Arc::new(AtomicI64::new(1_800_000_010)));
    let (a, b) = (host(url, &clock, shared).await, host(url, &clock, shared).await);
    let admin = a.create_admin_key(Environment::Sandbox).await.unwrap();
    let (status, tenant) =
        call(&a, &admin, "POST", "/v1/admin/tenants", json!({ "name": "op", "environment": "sandbox", "rate_limit_per_minute": limit })).await;
    assert_eq!(status, 201, "{tenant}");
    let key = tenant["api_key"].as_str().unwrap().to_string();
    let requests = (0..requests).map(|i| {
        let host = if i % 2 == 0 { &a } else { &b };
        let key = key.clone();
        async move { call(host, &key, "GET", "/v1/rules", Json::Null).await }
    });
    let answers = futures_util::future::join_all(requests).await;
    for (status, body) in &answers {
        assert!(*status == 200 || (*status == 429 && body["error"] == "rate_limited"), "{status} {body}");
    }
    answers.iter().filter(|(status, _)| *status == 200).count()
}

#[tokio::test]
async fn two_hosts_on_postgres_share_a_key_limit() {
    let Some(url) = support::postgres_database("cgw_rate").await else { return };
    assert_eq!(allowed_across(&url, true).await, LIMIT);
}

#[tokio::test]
async fn leases_never_let_a_busy_key_past_its_limit() {
    // 1,000 a minute: each host reserves 10 at a time.
    let Some(url) = support::postgres_database("cgw_rate").await else { return };
    let allowed = allowed_of(&url, true, 1_000, 1_500).await;
    assert!(allowed <= 1_000, "{allowed} allowed over a limit of 1,000");
    assert!(allowed >= 980, "only {allowed} of 1,000 allowed: the hosts held more than a lease each unused");
}

#[tokio::test]
async fn without_the_shared_counter_each_host_counts_alone() {
    // The negative twin: in-process limiters let each host grant the quota.
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("g.db").display());
    assert_eq!(allowed_across(&url, false).await, 2 * LIMIT);
}

#[tokio::test]
async fn the_store_counter_is_exact_on_sqlite_too() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("g.db").display());
    assert_eq!(allowed_across(&url, true).await, LIMIT);
}

#[tokio::test]
async fn the_window_ends_and_the_counter_starts_again() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("g.db").display());
    let store = host_native::open_store(&url).await.unwrap();
    gateway::schema::migrate(store.as_ref()).await.unwrap();
    let limiter = StoreRateLimit::new(store);
    use gateway::ports::RateLimit;
    let first = limiter.check("key_1", 2, 120).await;
    assert_eq!((first.allowed, first.remaining, first.reset_seconds), (true, 1, 60));
    assert!(limiter.check("key_1", 2, 130).await.allowed);
    let over = limiter.check("key_1", 2, 170).await;
    assert_eq!((over.allowed, over.remaining, over.reset_seconds), (false, 0, 10));
    assert!(!limiter.peek("key_1", 2, 175).await.allowed);
    assert!(limiter.check("key_2", 2, 170).await.allowed, "another key has its own quota");
    assert!(limiter.check("key_1", 2, 180).await.allowed, "a new window");
}
