//! Coverage of the lists production must screen against: a required source
//! missing, or not refreshed within the freshness window, shows in readiness
//! (503, naming it) and in the admin list view, and screening goes on.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod support;
use support::{call, TestClock};

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use gateway::auth::Environment;
use gateway::lists::{ListEntry, ListFormat};
use gateway::{Config, Gateway};
use host_native::rules_engine::ComponentRules;
use host_native::{open_store, OsIds};
use rules::{EntryKind, EntryTopic};
use serde_json::{json, Value as Json};

const START: i64 = 1_780_000_000;
const WINDOW: i64 = 36 * 3_600;

fn entry(id: &str, name: &str) -> ListEntry {
    ListEntry {
        entity_id: id.into(),
        kind: EntryKind::Individual,
        names: vec![name.into()],
        dates_of_birth: vec!["1961-07-04".into()],
        nationalities: vec!["RU".into()],
        programs: "TEST".into(),
        topic: EntryTopic::Sanction,
    }
}

/// `GET /v1/health/ready` with no key: the status and the body.
async fn ready(gateway: &Gateway) -> (u16, Json) {
    let request = http::Request::builder().method("GET").uri("/v1/health/ready").body(Vec::new()).unwrap();
    let response = gateway.handle(request).await;
    (response.status().as_u16(), serde_json::from_slice(response.body()).unwrap())
}

#[tokio::test]
async fn a_missing_or_stale_required_list_is_not_ready_and_screening_goes_on() {
    let clock = Arc::new(AtomicI64::new(START));
    let config = Config { required_lists: Some(vec!["ofac-sdn".into(), "eu-fsf".into()]), list_freshness_seconds: Some(WINDOW), ..Config::default() };
    let gateway = Gateway::new(
        open_store("sqlite://:memory:").await.unwrap(),
        Box::new(ComponentRules::embedded().unwrap()),
        Box::new(TestClock(clock.clone())),
        Box::new(OsIds),
        config,
    );
    gateway.migrate().await.unwrap();
    let admin = gateway.create_admin_key(Environment::Production).await.unwrap();

    let (status, body) = ready(&gateway).await;
    assert_eq!(status, 503, "{body}");
    assert_eq!(body["checks"]["lists"]["missing"], json!(["ofac-sdn", "eu-fsf"]));
    assert_eq!((body["checks"]["store"]["ok"].clone(), body["checks"]["rules"]["ok"].clone()), (json!(true), json!(true)));

    // One of two: still not ready, and the view names what is missing.
    gateway::lists::import(&gateway, Environment::Production, "ofac-sdn", ListFormat::OfacCsv, vec![entry("1", "Lavrentiy Prokhodtsev")], "cli")
        .await
        .unwrap();
    let (status, body) = ready(&gateway).await;
    assert_eq!((status, body["checks"]["lists"]["missing"].clone()), (503, json!(["eu-fsf"])));
    let (_, view) = call(&gateway, &admin, "GET", "/v1/admin/sanctions/lists", Json::Null).await;
    let coverage = view["coverage"].as_array().unwrap();
    assert_eq!(coverage[0]["source"], "ofac-sdn");
    assert_eq!((coverage[0]["entry_count"].clone(), coverage[0]["stale"].clone()), (json!(1), json!(false)));
    assert_eq!((coverage[1]["version"].clone(), coverage[1]["last_refreshed_at"].clone()), (Json::Null, Json::Null));

    // Both: ready.
    gateway::lists::import(&gateway, Environment::Production, "eu-fsf", ListFormat::EuFsfXml, vec![entry("EU.1", "Kazimir Vrublevsky")], "cli")
        .await
        .unwrap();
    assert_eq!(ready(&gateway).await.0, 200);

    // At the window's end still fresh; a second later both are stale.
    clock.store(START + WINDOW, Ordering::SeqCst);
    assert_eq!(ready(&gateway).await.0, 200);
    clock.store(START + WINDOW + 1, Ordering::SeqCst);
    let (status, body) = ready(&gateway).await;
    assert_eq!(status, 503);
    assert_eq!((body["checks"]["lists"]["stale"].clone(), body["checks"]["lists"]["missing"].clone()), (json!(["ofac-sdn", "eu-fsf"]), json!([])));
    let (_, view) = call(&gateway, &admin, "GET", "/v1/admin/sanctions/lists", Json::Null).await;
    assert!(view["coverage"].as_array().unwrap().iter().all(|c| c["stale"] == json!(true)), "{view}");

    // Stale lists still screen.
    let (_, tenant) = call(&gateway, &admin, "POST", "/v1/admin/tenants", json!({ "name": "t", "environment": "production" })).await;
    let key = tenant["api_key"].as_str().unwrap();
    let person = json!({ "user_id": "u-1", "first_name": "Lavrentiy", "last_name": "Prokhodtsev", "date_of_birth": "1961-07-04",
                         "nationality": "RU", "email": "u1@example.com" });
    let (status, screened) = call(&gateway, key, "POST", "/v1/sanctions/screen", person).await;
    assert_eq!((status, screened["status"].clone()), (201, json!("hit_review_pending")), "{screened}");
}

#[tokio::test]
async fn with_no_required_list_production_is_ready_and_the_sandbox_has_no_coverage() {
    let config = Config { required_lists: Some(Vec::new()), ..Config::default() };
    let clock = Arc::new(AtomicI64::new(START));
    let gateway = Gateway::new(
        open_store("sqlite://:memory:").await.unwrap(),
        Box::new(ComponentRules::embedded().unwrap()),
        Box::new(TestClock(clock)),
        Box::new(OsIds),
        config,
    );
    gateway.migrate().await.unwrap();
    assert_eq!(ready(&gateway).await.0, 200);
    let admin = gateway.create_admin_key(Environment::Sandbox).await.unwrap();
    let (_, view) = call(&gateway, &admin, "GET", "/v1/admin/sanctions/lists", Json::Null).await;
    assert_eq!(view["coverage"], json!([]));
}

/// A store whose reads of the schema version hang for `delay` (a database
/// that accepts connections and never answers).
struct SlowPing {
    inner: Box<dyn gateway::ports::Store>,
    delay: std::time::Duration,
}

#[async_trait::async_trait]
impl gateway::ports::Store for SlowPing {
    async fn query(&self, sql: &'static str, params: Vec<gateway::ports::Value>) -> Result<Vec<gateway::ports::Row>, gateway::ports::StoreError> {
        if sql.contains("schema_versions") {
            tokio::time::sleep(self.delay).await;
        }
        self.inner.query(sql, params).await
    }
    async fn batch(&self, statements: Vec<gateway::ports::Stmt>) -> Result<(), gateway::ports::StoreError> {
        self.inner.batch(statements).await
    }
}

/// The store check is bounded: a store that takes more than a second is not
/// ready, and readiness still answers within about that second; one that
/// answers in time is.
#[tokio::test]
async fn a_store_slower_than_a_second_is_not_ready() {
    for (delay_ms, ready_store) in [(1_500, false), (10, true)] {
        let dir = tempfile::tempdir().unwrap();
        let inner = open_store(&format!("sqlite://{}", dir.path().join("g.db").display())).await.unwrap();
        let store = SlowPing { inner, delay: std::time::Duration::from_millis(delay_ms) };
        let config = Config { required_lists: Some(Vec::new()), ..Config::default() };
        let gateway = Gateway::new(
            Box::new(store),
            Box::new(ComponentRules::embedded().unwrap()),
            Box::new(TestClock(Arc::new(AtomicI64::new(START)))),
            Box::new(OsIds),
            config,
        )
        .with_timer(Box::new(host_native::TokioTimer));
        gateway.migrate().await.unwrap();
        let started = std::time::Instant::now();
        let (status, body) = ready(&gateway).await;
        assert_eq!(body["checks"]["store"]["ok"], json!(ready_store), "{body}");
        assert_eq!(status, if ready_store { 200 } else { 503 }, "{body}");
        assert!(started.elapsed() < std::time::Duration::from_millis(1_400), "readiness waited {:?}", started.elapsed());
    }
}
