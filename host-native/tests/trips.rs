//! Counted round trips (issue #30): the store calls, statements and limiter
//! calls of each hot route, pinned on SQLite through the core's counting
//! decorators (`gateway::trips`). A production caller from a public address
//! (the deployed path: the flood gate's peek included), its key warm in the
//! key cache, as at the edge once an isolate lives. The negative twin plants
//! one extra read under the same measurement and sees the pin fail.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod support;
use support::{call_from, TestClock};

use std::sync::atomic::AtomicI64;
use std::sync::Arc;

use gateway::auth::Environment;
use gateway::ports::{Read, Row, Stmt, Store, StoreError, Value};
use gateway::rate_limit::RateLimiter;
use gateway::trips::{CountingRateLimit, CountingStore, TripCounts, Trips};
use gateway::{Config, Gateway};
use host_native::rules_engine::ComponentRules;
use host_native::{open_store, OsIds};
use serde_json::{json, Value as Json};

/// A caller from the internet, so that the flood gate runs as deployed.
const PUBLIC: Option<&str> = Some("203.0.113.7");

/// A store that adds one read to every read it is asked: the planted
/// regression the pins must catch.
struct PlantedRead(Box<dyn Store>);

#[async_trait::async_trait]
impl Store for PlantedRead {
    async fn query(&self, sql: &'static str, params: Vec<Value>) -> Result<Vec<Row>, StoreError> {
        self.0.query("SELECT 1", vec![]).await?;
        self.0.query(sql, params).await
    }
    async fn batch(&self, statements: Vec<Stmt>) -> Result<(), StoreError> {
        self.0.batch(statements).await
    }
    async fn query_many(&self, reads: Vec<Read>) -> Result<Vec<Vec<Row>>, StoreError> {
        self.0.query("SELECT 1", vec![]).await?;
        self.0.query_many(reads).await
    }
}

struct World {
    gw: Gateway,
    trips: Arc<Trips>,
    key: String,
    _dir: tempfile::TempDir,
}

/// A production tenant with one screened player `p1` who has a daily limit
/// of 100.00 and one deposit, and an excluded player `p2`; the counting
/// store sits on `planted` when asked (the planted read counted as a trip).
async fn world(planted: bool) -> World {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("g.db").display());
    let trips = Trips::new();
    let sqlite = open_store(&db).await.unwrap();
    let counted: Box<dyn Store> = Box::new(CountingStore::new(sqlite, trips.clone()));
    // the planted read goes through the counting store, as a new read of a handler would
    let store: Box<dyn Store> = if planted { Box::new(PlantedRead(counted)) } else { counted };
    // a frozen clock keeps the key in the cache for the whole test (the
    // cache keeps a key for the clock second it was read in)
    let clock = TestClock(Arc::new(AtomicI64::new(1_790_000_000)));
    let config = Config { production_vendors_configured: true, ..Config::default() };
    let gw = Gateway::new(store, Box::new(ComponentRules::embedded().unwrap()), Box::new(clock.clone()), Box::new(OsIds), config)
        .with_rate_limiter(Box::new(CountingRateLimit::new(Box::new(RateLimiter::default()), trips.clone())));
    gw.migrate().await.unwrap();
    let admin = gw.create_admin_key(Environment::Production).await.unwrap();
    let (status, tenant) = call_from(&gw, PUBLIC, &admin, "POST", "/v1/admin/tenants", json!({ "name": "t", "environment": "production" })).await;
    assert_eq!(status, 201, "{tenant}");
    let key = tenant["api_key"].as_str().unwrap().to_string();
    let now = gateway::time::format(1_790_000_000);
    for (user, email) in [("p1", "p1@example.com"), ("p2", "p2@example.com")] {
        let identity =
            json!({ "user_id": user, "first_name": "Ann", "last_name": "Lee", "date_of_birth": "1990-04-01", "nationality": "GB", "email": email });
        let (status, body) = call_from(&gw, PUBLIC, &key, "POST", "/v1/sanctions/screen", identity).await;
        assert_eq!(status, 201, "{body}");
    }
    let limit = json!({ "user_id": "p1", "limit_type": "limit_daily", "amount_cents": 10_000, "currency": "USD", "requested_at": now });
    assert_eq!(call_from(&gw, PUBLIC, &key, "POST", "/v1/limits", limit).await.0, 201);
    let deposit = json!({ "transaction_id": "tx0", "user_id": "p1", "amount_cents": 1_000, "currency": "USD" });
    assert_eq!(call_from(&gw, PUBLIC, &key, "POST", "/v1/limits/commit", deposit).await.0, 201);
    let exclusion = json!({ "user_id": "p2", "email": "p2@example.com", "duration": "duration_7d", "reason": "self_initiated", "initiated_at": now });
    let (status, body) = call_from(&gw, PUBLIC, &key, "POST", "/v1/exclusions", exclusion).await;
    assert_eq!(status, 201, "{body}");
    gw.flush_decisions().await.unwrap();
    World { gw, trips, key, _dir: dir }
}

/// One request, counted alone (the decision log's flush after it is not).
async fn measured(w: &World, method: &str, path: &str, body: Json) -> (u16, Json, TripCounts) {
    w.trips.reset();
    let (status, answer) = call_from(&w.gw, PUBLIC, &w.key, method, path, body).await;
    let counts = w.trips.counts();
    w.gw.flush_decisions().await.unwrap();
    (status, answer, counts)
}

/// A route's pinned round trips: (store trips, statements, limiter trips).
type Pin = (u64, u64, u64);

fn holds(route: &str, counts: &TripCounts, pin: Pin) -> Result<(), String> {
    let got = (counts.store_trips(), counts.statements(), counts.limiter_trips());
    if got == pin {
        Ok(())
    } else {
        Err(format!("{route}: (store trips, statements, limiter trips) {got:?}, pinned {pin:?}; {counts:?}"))
    }
}

/// Every hot route measured once, each checked against its pin.
async fn hot_routes(w: &World) -> Vec<(&'static str, TripCounts, Pin)> {
    let mut out = Vec::new();
    // the key is warm: read once in the clock second, kept for it
    let (status, body, warm) = measured(w, "GET", "/v1/exclusions/check?email=p1@example.com", Json::Null).await;
    assert_eq!((status, &body["is_excluded"]), (200, &json!(false)), "{body}");
    // peek (flood gate) + count: two limiter calls; one read of the facts
    out.push(("exclusions/check", warm, (1, 1, 2)));
    let (status, body, excluded) = measured(w, "GET", "/v1/exclusions/check?email=p2@example.com", Json::Null).await;
    assert_eq!((status, &body["is_excluded"]), (200, &json!(true)), "{body}");
    out.push(("exclusions/check excluded", excluded, (1, 1, 2)));
    // one batch of six reads: user, exclusions, limits, three window totals
    let check = |amount: i64, user: &str| json!({ "user_id": user, "amount_cents": amount, "currency": "USD" });
    let (status, body, allowed) = measured(w, "POST", "/v1/limits/check", check(500, "p1")).await;
    assert_eq!((status, &body["allowed"]), (200, &json!(true)), "{body}");
    out.push(("limits/check allowed", allowed, (1, 6, 2)));
    let (status, body, refused) = measured(w, "POST", "/v1/limits/check", check(500, "p2")).await;
    assert_eq!((status, &body["allowed"], &body["reason"]), (200, &json!(false), &json!("self_excluded")), "{body}");
    out.push(("limits/check refused", refused, (1, 6, 2)));
    // the facts (six reads), the deposits of the window (the rules ask for
    // them), and one batch: the decision and the breach event
    let (status, body, breach) = measured(w, "POST", "/v1/limits/check", check(9_500, "p1")).await;
    assert_eq!((status, &body["allowed"], &body["reason"]), (200, &json!(false), &json!("exceeds_limit")), "{body}");
    out.push(("limits/check breach", breach, (3, 9, 2)));
    // the deposit by transaction id, the facts (six reads), the hour's sum,
    // and the commit batch (the decision, the user's claim, the transaction,
    // the deposit, the hour's sum)
    let deposit = json!({ "transaction_id": "tx1", "user_id": "p1", "amount_cents": 500, "currency": "USD" });
    let (status, body, commit) = measured(w, "POST", "/v1/limits/commit", deposit).await;
    assert_eq!(status, 201, "{body}");
    out.push(("limits/commit", commit, (4, 13, 2)));
    let identity = json!({ "user_id": "p3", "first_name": "Bo", "last_name": "Park", "date_of_birth": "1985-02-03", "nationality": "GB", "email": "p3@example.com" });
    let (status, body, screen) = measured(w, "POST", "/v1/sanctions/screen", identity).await;
    assert_eq!(status, 201, "{body}");
    // a new user, screened by the configured vendor path (no list here): the
    // earlier screening, the tenant's scope, the lists in force, then the
    // commit (the decision and the user)
    out.push(("sanctions/screen", screen, (4, 5, 2)));
    out
}

#[tokio::test]
async fn each_hot_route_makes_its_pinned_round_trips() {
    let w = world(false).await;
    let failures: Vec<String> = hot_routes(&w).await.iter().filter_map(|(route, counts, pin)| holds(route, counts, *pin).err()).collect();
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The twin: one planted read per read makes every pin fail, so the pins
/// are able to catch an extra round trip.
#[tokio::test]
async fn a_planted_extra_read_breaks_every_pin() {
    let w = world(true).await;
    for (route, counts, pin) in hot_routes(&w).await {
        assert!(holds(route, &counts, pin).is_err(), "{route}: the planted read went unseen: {counts:?}");
    }
}
