//! An `Idempotency-Key` whose request the store's outage cut: the key's
//! release is owed, written with the next flush once the store is back, so
//! the client's retry runs then rather than a minute later; and a release
//! that comes late never frees a key a retry holds, nor erases an answer.
//! Through `Gateway::handle` on SQLite, behind a store that fails on demand.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod support;
use support::TestClock;

use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::Arc;

use gateway::auth::Environment;
use gateway::ports::{Read, Row, Stmt, Store, StoreError, Value};
use gateway::{Config, Gateway};
use host_native::rules_engine::ComponentRules;
use host_native::{open_store, OsIds};
use serde_json::{json, Value as Json};
use tokio::sync::Notify;

const START: i64 = 1_790_000_000;

/// The store, with faults on demand.
#[derive(Default)]
struct Faults {
    /// every call fails as unavailable
    down: AtomicBool,
    /// the store goes down after this many more batches (none when negative)
    down_after_batches: AtomicI64,
    /// the next call that reads or writes a player's exclusions waits for `go`
    hold_exclusions: AtomicBool,
    held: Notify,
    go: Notify,
}

struct Outage {
    inner: Box<dyn Store>,
    faults: Arc<Faults>,
}

impl Outage {
    async fn enter(&self, sql: &[&str]) -> Result<(), StoreError> {
        if self.faults.down.load(Ordering::SeqCst) {
            return Err(StoreError::Unavailable("the test's outage".into()));
        }
        let touches_exclusions = sql.iter().any(|s| s.contains("exclusions") && !s.contains("idempotency_keys"));
        if touches_exclusions && self.faults.hold_exclusions.swap(false, Ordering::SeqCst) {
            self.faults.held.notify_one();
            self.faults.go.notified().await;
        }
        Ok(())
    }
}

#[async_trait::async_trait]
impl Store for Outage {
    async fn query(&self, sql: &'static str, params: Vec<Value>) -> Result<Vec<Row>, StoreError> {
        self.enter(&[sql]).await?;
        self.inner.query(sql, params).await
    }
    async fn query_many(&self, reads: Vec<Read>) -> Result<Vec<Vec<Row>>, StoreError> {
        self.enter(&reads.iter().map(|r| r.sql).collect::<Vec<_>>()).await?;
        self.inner.query_many(reads).await
    }
    async fn batch(&self, statements: Vec<Stmt>) -> Result<(), StoreError> {
        self.enter(&statements.iter().map(|s| s.sql).collect::<Vec<_>>()).await?;
        let result = self.inner.batch(statements).await;
        if self.faults.down_after_batches.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.faults.down.store(true, Ordering::SeqCst);
        }
        result
    }
}

struct World {
    gw: Gateway,
    /// another host on the same database
    other: Gateway,
    faults: Arc<Faults>,
    clock: TestClock,
    key: String,
    _dir: tempfile::TempDir,
}

/// A host on the database at `url`, behind `faults`.
async fn host(url: &str, faults: Arc<Faults>, clock: &TestClock) -> Gateway {
    let store = Box::new(Outage { inner: open_store(url).await.unwrap(), faults });
    let config = Config { production_vendors_configured: true, ..Config::default() };
    Gateway::new(store, Box::new(ComponentRules::embedded().unwrap()), Box::new(clock.clone()), Box::new(OsIds), config)
}

/// A production tenant (its key cached, so a request reaches its handler
/// without a read) and a screened player `p1`.
async fn world() -> World {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("g.db").display());
    let faults = Arc::new(Faults { down_after_batches: AtomicI64::new(-1), ..Faults::default() });
    let clock = TestClock(Arc::new(AtomicI64::new(START)));
    let gw = host(&url, faults.clone(), &clock).await;
    gw.migrate().await.unwrap();
    let admin = gw.create_admin_key(Environment::Production).await.unwrap();
    let (status, tenant) = support::call(&gw, &admin, "POST", "/v1/admin/tenants", json!({ "name": "t", "environment": "production" })).await;
    assert_eq!(status, 201, "{tenant}");
    let key = tenant["api_key"].as_str().unwrap().to_string();
    let identity = json!({ "user_id": "p1", "first_name": "Ann", "last_name": "Lee", "date_of_birth": "1990-04-01", "nationality": "GB", "email": "p1@example.com" });
    assert_eq!(support::call(&gw, &key, "POST", "/v1/sanctions/screen", identity).await.0, 201);
    // the database's faults are both hosts'
    let other = host(&url, faults.clone(), &clock).await;
    World { gw, other, faults, clock, key, _dir: dir }
}

/// The player's exclusion, sent with `Idempotency-Key: k1` to the first host.
async fn exclude(w: &World) -> (u16, Json) {
    exclude_on(w, &w.gw).await
}

/// The same, sent to `gw`.
async fn exclude_on(w: &World, gw: &Gateway) -> (u16, Json) {
    let (status, body, _) = exclude_with_header(w, gw).await;
    (status, body)
}

/// The same, with the answer's `Retry-After`.
async fn exclude_with_header(w: &World, gw: &Gateway) -> (u16, Json, Option<String>) {
    exclude_for(w, gw, "duration_7d").await
}

/// The request of [`exclude_on`] under the same key, for `duration`.
async fn exclude_for(w: &World, gw: &Gateway, duration: &str) -> (u16, Json, Option<String>) {
    // the same request every time, whatever the clock says since
    let initiated_at = gateway::time::format(START);
    let body = json!({ "user_id": "p1", "email": "p1@example.com", "duration": duration, "reason": "self_initiated", "initiated_at": initiated_at });
    let request = http::Request::builder()
        .method("POST")
        .uri("/v1/exclusions")
        .header("authorization", format!("Bearer {}", w.key))
        .header("content-type", "application/json")
        .header("idempotency-key", "k1")
        .body(body.to_string().into_bytes())
        .unwrap();
    let response = gw.handle(request).await;
    let retry_after = response.headers().get("retry-after").and_then(|v| v.to_str().ok()).map(str::to_string);
    (response.status().as_u16(), serde_json::from_slice(response.body()).unwrap_or(Json::Null), retry_after)
}

/// The key answers `created` again, from its stored answer (200), running nothing.
async fn assert_replays(w: &World, gw: &Gateway, created: &Json) {
    let (status, replayed) = exclude_on(w, gw).await;
    assert_eq!((status, &replayed["exclusion_id"]), (200, &created["exclusion_id"]), "{replayed}");
}

/// The outage begins once the key is reserved: the request answers 503 and
/// its key's release cannot be written.
async fn cut_after_the_reservation(w: &World) {
    w.faults.down_after_batches.store(1, Ordering::SeqCst);
    let (status, body) = exclude(w).await;
    assert_eq!((status, body["error"].as_str()), (503, Some("store_unavailable")), "{body}");
    w.faults.down.store(false, Ordering::SeqCst);
}

/// A retry sent to another host: the key is held until the host that
/// answered 503 writes its release, at its next flush.
#[tokio::test]
async fn a_key_the_outage_cut_is_released_by_its_host_once_the_store_is_back() {
    let w = world().await;
    cut_after_the_reservation(&w).await;
    assert!(w.gw.writes_waiting(), "the release is owed");
    // the store is back, the release not yet written: the key is still held (as it was for a minute before)
    let (status, body, retry_after) = exclude_with_header(&w, &w.other).await;
    assert_eq!((status, body["error"].as_str()), (409, Some("idempotency_key_in_use")), "{body}");
    // the lock has 60 s left, but the release may come at any moment: the client is told a second
    assert_eq!(retry_after.as_deref(), Some("1"));
    // the next flush writes it, and the retry runs
    w.gw.flush_decisions().await.unwrap();
    assert!(!w.gw.writes_waiting(), "nothing is owed any more");
    let (status, created) = exclude_on(&w, &w.other).await;
    assert_eq!(status, 201, "{created}");
    // and its answer is kept: the same key replays it
    assert_replays(&w, &w.other, &created).await;
}

/// A retry sent to the host that owes the release: it writes it first, and runs.
#[tokio::test]
async fn a_retry_to_the_host_that_owes_the_release_runs_at_once() {
    let w = world().await;
    cut_after_the_reservation(&w).await;
    let (status, created) = exclude(&w).await;
    assert_eq!(status, 201, "{created}");
    assert!(!w.gw.writes_waiting());
}

/// The handler's work commits, then the outage takes the answer's write
/// (the request answers 201): the answer is owed. The store is back.
async fn owe_the_answer(w: &World) -> Json {
    w.faults.down_after_batches.store(2, Ordering::SeqCst);
    let (status, created) = exclude(w).await;
    assert_eq!(status, 201, "{created}");
    w.faults.down.store(false, Ordering::SeqCst);
    assert!(w.gw.writes_waiting(), "the answer is owed");
    created
}

/// The handler's work committed, then the outage took the answer's write:
/// the answer is owed, and once written the retry replays it (no second run).
#[tokio::test]
async fn an_answer_the_outage_cut_is_kept_once_the_store_is_back() {
    let w = world().await;
    let created = owe_the_answer(&w).await;
    let (status, body) = exclude_on(&w, &w.other).await;
    assert_eq!((status, body["error"].as_str()), (409, Some("idempotency_key_in_use")), "{body}");
    w.gw.flush_decisions().await.unwrap();
    assert_replays(&w, &w.other, &created).await;
}

#[tokio::test]
async fn a_release_owed_while_the_store_is_down_waits_for_it() {
    let w = world().await;
    cut_after_the_reservation(&w).await;
    w.faults.down.store(true, Ordering::SeqCst);
    let _ = w.gw.flush_decisions().await;
    w.faults.down.store(false, Ordering::SeqCst);
    // the failed try kept it owed: the next flush writes it
    assert!(w.gw.writes_waiting(), "still owed");
    assert_eq!(exclude_on(&w, &w.other).await.0, 409);
    w.gw.flush_decisions().await.unwrap();
    assert!(!w.gw.writes_waiting());
    assert_eq!(exclude_on(&w, &w.other).await.0, 201);
}

/// The cut request's lock lapses and a retry takes the key over. The cut
/// request's release, written late, must not free the retry's key while it
/// runs: a third request would run the same work twice at once.
#[tokio::test]
async fn a_late_release_never_frees_a_key_a_retry_holds() {
    let w = world().await;
    cut_after_the_reservation(&w).await;
    w.clock.0.fetch_add(61, Ordering::SeqCst);
    w.faults.hold_exclusions.store(true, Ordering::SeqCst);
    // the retry reaches the other host: the first still owes its release
    let retry = exclude_on(&w, &w.other);
    let meanwhile = async {
        w.faults.held.notified().await;
        // the retry holds the key and runs; the late release is written now
        assert!(w.gw.writes_waiting(), "the release is owed");
        w.gw.flush_decisions().await.unwrap();
        assert!(!w.gw.writes_waiting(), "and written");
        let third = exclude_on(&w, &w.other).await;
        w.faults.go.notify_one();
        third
    };
    let both = tokio::time::timeout(std::time::Duration::from_secs(30), async { tokio::join!(retry, meanwhile) });
    let ((status, created), (third_status, third)) = both.await.expect("the retry reached its handler");
    assert_eq!(status, 201, "{created}");
    assert_eq!((third_status, third["error"].as_str()), (409, Some("idempotency_key_in_use")), "{third}");
    // once the retry answered, the key replays its answer
    assert_replays(&w, &w.gw, &created).await;
}

/// The player's erasure, asked on the other host.
async fn erase_p1(w: &World) {
    let (status, erasure) = support::call(&w.other, &w.key, "POST", "/v1/users/p1/erasure", Json::Null).await;
    assert_eq!(status, 202, "{erasure}");
}

/// The answer's write was owed when the player's erasure was asked: the
/// erasure forgot the answers naming the player it found, and the owed one,
/// written after it, must not bring the player back. The key is released:
/// the retry runs afresh, under the erasure, and is no replay.
#[tokio::test]
async fn an_owed_answer_naming_a_player_erased_since_is_never_kept() {
    let w = world().await;
    owe_the_answer(&w).await;
    erase_p1(&w).await;
    w.gw.flush_decisions().await.unwrap();
    assert!(!w.gw.writes_waiting(), "written: as a release");
    assert_released(&w).await;
}

/// The key `k1` keeps no answer: a request under it with other terms runs
/// afresh (an erased player may self-exclude again, issue #46), where a kept
/// answer would refuse it as the key reused.
async fn assert_released(w: &World) {
    let (status, again, _) = exclude_for(w, &w.other, "duration_30d").await;
    assert!(matches!(status, 200 | 201), "the key kept an answer: {status} {again}");
    assert_eq!(again["duration"].as_str(), Some("duration_30d"), "{again}");
}

/// The same when the host that takes the erasure has a clock 30 seconds
/// behind the one that reserved the key: the erasure still came after.
#[tokio::test]
async fn an_owed_answer_is_released_by_an_erasure_from_a_host_whose_clock_lags() {
    let w = world().await;
    owe_the_answer(&w).await;
    w.clock.0.fetch_sub(30, Ordering::SeqCst);
    erase_p1(&w).await;
    w.clock.0.fetch_add(30, Ordering::SeqCst);
    w.gw.flush_decisions().await.unwrap();
    assert_released(&w).await;
}

/// The twin: the erasure of another player than the answer names.
#[tokio::test]
async fn an_owed_answer_naming_another_player_than_the_erased_is_kept() {
    let w = world().await;
    let identity = json!({ "user_id": "p2", "first_name": "Bo", "last_name": "Kim", "date_of_birth": "1991-05-02", "nationality": "GB", "email": "p2@example.com" });
    assert_eq!(support::call(&w.gw, &w.key, "POST", "/v1/sanctions/screen", identity).await.0, 201);
    let created = owe_the_answer(&w).await;
    let (status, erasure) = support::call(&w.other, &w.key, "POST", "/v1/users/p2/erasure", Json::Null).await;
    assert_eq!(status, 202, "{erasure}");
    w.gw.flush_decisions().await.unwrap();
    assert_replays(&w, &w.other, &created).await;
    // and other terms under the kept key are refused as the key reused
    let (status, reused, _) = exclude_for(&w, &w.other, "duration_30d").await;
    assert_eq!((status, reused["error"].as_str()), (409, Some("idempotency_key_reused")), "{reused}");
}

/// The twin in time: a request about the player made after their erasure
/// was asked (closing the restricted player's relationship, which answers
/// for them) ran under it, and its answer is kept for its retries.
#[tokio::test]
async fn an_answer_of_a_request_made_after_the_erasure_is_kept() {
    let w = world().await;
    // an exclusion in force: the erasure holds the player, restricted
    let earlier = json!({ "user_id": "p1", "email": "p1@example.com", "duration": "duration_1y", "reason": "self_initiated", "initiated_at": gateway::time::format(START) });
    assert_eq!(support::call(&w.gw, &w.key, "POST", "/v1/exclusions", earlier).await.0, 201);
    erase_p1(&w).await;
    // later than any skew between two hosts' clocks
    w.clock.0.fetch_add(120, Ordering::SeqCst);
    let close = || {
        http::Request::builder()
            .method("POST")
            .uri("/v1/users/p1/close")
            .header("authorization", format!("Bearer {}", w.key))
            .header("idempotency-key", "k2")
            .body(Vec::new())
            .unwrap()
    };
    let response = w.gw.handle(close()).await;
    let closed: Json = serde_json::from_slice(response.body()).unwrap();
    assert_eq!((response.status().as_u16(), closed["user_id"].as_str()), (200, Some("p1")), "{closed}");
    let probe = open_store(&format!("sqlite://{}", w._dir.path().join("g.db").display())).await.unwrap();
    let kept = probe.scalar("SELECT COUNT(*) FROM idempotency_keys WHERE idempotency_key = 'k2' AND status_code IS NOT NULL", vec![]).await.unwrap();
    assert_eq!(kept, 1, "the answer was not kept");
}
