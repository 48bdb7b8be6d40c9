//! The invariants ARCHITECTURE.md states, each held by a test here through
//! the public interface, with its negative twin beside it.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod support;

use std::sync::atomic::AtomicI64;
use std::sync::{Arc, Mutex};

use gateway::auth::Environment;
use gateway::ports::{Row, Stmt, Store, StoreError, Value};
use gateway::{Config, Gateway};
use host_native::rules_engine::ComponentRules;
use host_native::OsIds;
use serde_json::{json, Value as Json};
use support::{call, TestClock};

const START: i64 = 1_800_000_000;

/// A store that answers `Unavailable` to every statement whose SQL contains
/// the planted text, as a store that went away mid-request would.
#[derive(Clone)]
struct FaultyStore {
    inner: Arc<dyn Store>,
    fail_on: Arc<Mutex<Option<&'static str>>>,
}

impl FaultyStore {
    fn fails(&self, sql: &str) -> Result<(), StoreError> {
        match *self.fail_on.lock().unwrap() {
            Some(text) if sql.contains(text) => Err(StoreError::Unavailable("planted: connection refused".into())),
            _ => Ok(()),
        }
    }
    fn fail_on(&self, text: Option<&'static str>) {
        *self.fail_on.lock().unwrap() = text;
    }
}

#[async_trait::async_trait]
impl Store for FaultyStore {
    async fn query(&self, sql: &'static str, params: Vec<Value>) -> Result<Vec<Row>, StoreError> {
        self.fails(sql)?;
        self.inner.query(sql, params).await
    }
    async fn batch(&self, statements: Vec<Stmt>) -> Result<(), StoreError> {
        for s in &statements {
            self.fails(s.sql)?;
        }
        self.inner.batch(statements).await
    }
}

struct Host {
    gateway: Gateway,
    store: FaultyStore,
    admin: String,
    key: String,
    _dir: tempfile::TempDir,
}

async fn host() -> Host {
    let dir = tempfile::tempdir().unwrap();
    let inner = host_native::open_store(&format!("sqlite://{}", dir.path().join("db.sqlite").display())).await.unwrap();
    let store = FaultyStore { inner: Arc::from(inner), fail_on: Arc::default() };
    let clock = TestClock(Arc::new(AtomicI64::new(START)));
    let gateway =
        Gateway::new(Box::new(store.clone()), Box::new(ComponentRules::embedded().unwrap()), Box::new(clock), Box::new(OsIds), Config::default());
    gateway.migrate().await.unwrap();
    let admin = gateway.create_admin_key(Environment::Sandbox).await.unwrap();
    let (_, tenant) =
        call(&gateway, &admin, "POST", "/v1/admin/tenants", json!({ "name": "op", "environment": "sandbox", "rate_limit_per_minute": 1000 })).await;
    let key = tenant["api_key"].as_str().unwrap().to_string();
    Host { gateway, store, admin, key, _dir: dir }
}

fn code(body: &Json) -> Option<&str> {
    body["error"].as_str()
}

/// "An unreachable store is a 503 `store_unavailable`": also through the
/// routes that run the scheduled work.
#[tokio::test]
async fn an_unreachable_store_is_503_through_the_scheduled_work() {
    let h = host().await;
    // the twin: with the store there, both answer 200
    assert_eq!(call(&h.gateway, &h.admin, "POST", "/v1/admin/scheduler/run", Json::Null).await.0, 200);
    assert_eq!(call(&h.gateway, &h.key, "POST", "/v1/sandbox/clock", json!({ "advance_seconds": 60 })).await.0, 200);

    h.store.fail_on(Some("FROM deposit_limits"));
    let (status, body) = call(&h.gateway, &h.admin, "POST", "/v1/admin/scheduler/run", Json::Null).await;
    assert_eq!((status, code(&body)), (503, Some("store_unavailable")), "{body}");
    let (status, body) = call(&h.gateway, &h.key, "POST", "/v1/sandbox/clock", json!({ "advance_seconds": 60 })).await;
    assert_eq!((status, code(&body)), (503, Some("store_unavailable")), "{body}");
    let report = h.gateway.run_scheduled().await.unwrap_err();
    assert_eq!((report.status, report.code), (503, "store_unavailable"));
    clock_moved_once(&h).await;
}

/// The failed advance moved the clock once (the advance is written before
/// the due work runs), and the next one goes on from there.
async fn clock_moved_once(h: &Host) {
    h.store.fail_on(None);
    let (status, body) = call(&h.gateway, &h.key, "GET", "/v1/sandbox/clock", Json::Null).await;
    assert_eq!(status, 200);
    let now = chrono::DateTime::parse_from_rfc3339(body["now"].as_str().unwrap()).unwrap().timestamp();
    assert_eq!(now, START + 120);
}

/// "A batch that loses is recomputed from fresh reads": registrations that
/// race each other still stop at the cap of ten endpoints (they counted,
/// then inserted, and twelve got in).
#[tokio::test]
async fn concurrent_webhook_registrations_never_pass_the_cap() {
    let h = host().await;
    let register = |i: usize| call(&h.gateway, &h.key, "POST", "/v1/webhooks", json!({ "url": format!("http://127.0.0.1:9/hook-{i}") }));
    let answers = futures_util::future::join_all((0..14).map(register)).await;
    let created = answers.iter().filter(|(s, _)| *s == 201).count();
    let refused = answers.iter().filter(|(s, b)| *s == 422 && code(b) == Some("too_many_webhooks")).count();
    assert_eq!((created, refused), (10, 4), "{answers:?}");
    let (_, list) = call(&h.gateway, &h.key, "GET", "/v1/webhooks", Json::Null).await;
    assert_eq!(list["webhooks"].as_array().map(Vec::len), Some(10));
    // the twin: a removal frees a place
    let first = list["webhooks"][0]["webhook_id"].as_str().unwrap().to_string();
    assert_eq!(call(&h.gateway, &h.key, "DELETE", &format!("/v1/webhooks/{first}"), Json::Null).await.0, 200);
    assert_eq!(register(99).await.0, 201);
    assert_eq!(register(100).await.0, 422);
}

/// Concurrent rotations of one secret each recompute from the secret they
/// replace: none is a 500, and the secret that signs last is one of them.
#[tokio::test]
async fn concurrent_secret_rotations_are_recomputed_not_500() {
    let h = host().await;
    let (_, hook) = call(&h.gateway, &h.key, "POST", "/v1/webhooks", json!({ "url": "http://127.0.0.1:9/hook" })).await;
    let path = format!("/v1/webhooks/{}/rotate-secret", hook["webhook_id"].as_str().unwrap());
    let answers = futures_util::future::join_all((0..5).map(|_| call(&h.gateway, &h.key, "POST", &path, Json::Null))).await;
    let statuses: Vec<u16> = answers.iter().map(|(s, _)| *s).collect();
    assert_eq!(statuses, vec![200; 5], "{answers:?}");
    let secrets: std::collections::BTreeSet<&str> = answers.iter().filter_map(|(_, b)| b["secret"].as_str()).collect();
    assert_eq!(secrets.len(), 5);
    // the twin: a removed webhook cannot be rotated
    let id = hook["webhook_id"].as_str().unwrap();
    assert_eq!(call(&h.gateway, &h.key, "DELETE", &format!("/v1/webhooks/{id}"), Json::Null).await.0, 200);
    let (status, body) = call(&h.gateway, &h.key, "POST", &path, Json::Null).await;
    assert_eq!((status, code(&body)), (404, Some("webhook_not_found")));
}

/// What a delivery recorder got: the URLs posted to.
#[derive(Clone, Default)]
struct Recorder(Arc<Mutex<Vec<String>>>);

#[async_trait::async_trait]
impl gateway::ports::WebhookSender for Recorder {
    async fn post(&self, url: &str, _headers: &[(String, String)], _body: &[u8]) -> gateway::ports::SendOutcome {
        self.0.lock().unwrap().push(url.to_string());
        gateway::ports::SendOutcome::Answered { status: 200, retry_after: None }
    }
}

struct NoWake;
impl gateway::ports::Waker for NoWake {
    fn wake(&self) {}
}

async fn host_with_key(url: &str, key: [u8; 32], sent: &Recorder) -> Gateway {
    let config = Config { secret_keys: Some(gateway::sealing::SecretKeys::new(key, vec![])), ..Config::default() };
    let clock = TestClock(Arc::new(AtomicI64::new(START)));
    let gateway = Gateway::new(
        host_native::open_store(url).await.unwrap(),
        Box::new(ComponentRules::embedded().unwrap()),
        Box::new(clock),
        Box::new(OsIds),
        config,
    )
    .with_webhooks(Box::new(sent.clone()), Box::new(NoWake));
    gateway.migrate().await.unwrap();
    gateway
}

/// "Hosts share nothing but the store": a host never claims a delivery it
/// cannot sign. One that lacks the key leaves it pending and untried, and
/// the host with the key delivers it (it used to be recorded as failed).
#[tokio::test]
async fn a_host_never_claims_a_delivery_it_cannot_sign() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("g.db").display());
    let sent = Recorder::default();
    let keyed = host_with_key(&url, [1u8; 32], &sent).await;
    let stranger = host_with_key(&url, [2u8; 32], &sent).await;
    let admin = keyed.create_admin_key(Environment::Sandbox).await.unwrap();
    let (_, tenant) = call(&keyed, &admin, "POST", "/v1/admin/tenants", json!({ "name": "t", "environment": "sandbox" })).await;
    let key = tenant["api_key"].as_str().unwrap().to_string();
    let (_, hook) = call(&keyed, &key, "POST", "/v1/webhooks", json!({ "url": "http://127.0.0.1:9/hooks" })).await;
    let webhook_id = hook["webhook_id"].as_str().unwrap().to_string();
    call(&keyed, &admin, "POST", "/v1/admin/exclusions/regulator-import", json!({ "entries": [{ "email": "one@example.com" }] })).await;

    let report = stranger.deliver_webhooks().await.unwrap();
    assert_eq!((report.fanned_out, report.attempted), (1, 0), "the host without the key claimed a delivery");
    assert!(sent.0.lock().unwrap().is_empty());
    let (_, log) = call(&keyed, &key, "GET", &format!("/v1/webhooks/{webhook_id}/deliveries"), Json::Null).await;
    assert_eq!((log["deliveries"][0]["status"].as_str(), log["deliveries"][0]["attempt_count"].as_i64()), (Some("pending"), Some(0)), "{log}");

    // the twin: the host with the key claims and sends it
    let report = keyed.deliver_webhooks().await.unwrap();
    assert_eq!(report.attempted, 1);
    assert_eq!(sent.0.lock().unwrap().as_slice(), ["http://127.0.0.1:9/hooks"]);
    let (_, log) = call(&keyed, &key, "GET", &format!("/v1/webhooks/{webhook_id}/deliveries"), Json::Null).await;
    assert_eq!(log["deliveries"][0]["status"].as_str(), Some("succeeded"), "{log}");
}
