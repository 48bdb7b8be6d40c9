//! The decision log end to end on the native host: each check asks the
//! rules exactly once, and `compliance-gateway decisions replay` reports a
//! recorded decision as identical, or names what differs.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod support;
use support::TestClock;

use std::process::Command;

use base64::Engine as _;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use gateway::auth::Environment;
use gateway::ports::{Clock, Rules, RulesVersion, Stmt};
use gateway::{Config, Gateway};
use host_native::rules_engine::ComponentRules;
use host_native::{open_store, OsIds, SystemClock};
use rules::*;
use serde_json::{json, Value as Json};

const BIN: &str = env!("CARGO_BIN_EXE_compliance-gateway");

/// The component, counting the calls made into it.
struct Counting {
    inner: ComponentRules,
    calls: Arc<AtomicUsize>,
}

impl Counting {
    fn tick(&self) -> &ComponentRules {
        self.calls.fetch_add(1, Ordering::SeqCst);
        &self.inner
    }
}

impl Rules for Counting {
    fn identity(&self) -> RulesVersion {
        self.inner.identity()
    }
    fn horizons(&self) -> Horizons {
        self.inner.horizons()
    }
    fn jurisdictions(&self) -> Vec<JurisdictionProfile> {
        self.inner.jurisdictions()
    }
    gateway::delegate_rules_calls!(tick);
}

async fn call(gw: &Gateway, method: &str, path: &str, key: &str, body: Option<Json>) -> (u16, Json, Option<String>) {
    let mut request = http::Request::builder().method(method).uri(path).header("authorization", format!("Bearer {key}"));
    if body.is_some() {
        request = request.header("content-type", "application/json");
    }
    let response = gw.handle(request.body(body.map(|b| b.to_string().into_bytes()).unwrap_or_default()).unwrap()).await;
    let decision = response.headers().get("x-decision-id").map(|v| v.to_str().unwrap().to_string());
    (response.status().as_u16(), serde_json::from_slice(response.body()).unwrap_or(Json::Null), decision)
}

fn replay(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(BIN).arg("decisions").arg("replay").args(args).output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[tokio::test]
async fn one_rules_call_per_check_and_replay_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    one_rules_call_per_check_and_replay(&format!("sqlite://{}", dir.path().join("g.db").display()), dir.path()).await;
}

/// The same on Postgres, when `CGW_TEST_POSTGRES_URL` names a server.
#[tokio::test]
async fn one_rules_call_per_check_and_replay_on_postgres() {
    let Ok(url) = std::env::var("CGW_TEST_POSTGRES_URL") else {
        eprintln!("skipped: CGW_TEST_POSTGRES_URL is not set");
        return;
    };
    let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(connection);
    let name = format!("cgw_replay_{}_{}", std::process::id(), SystemClock.now());
    client.batch_execute(&format!("CREATE DATABASE {name}")).await.unwrap();
    let base = url.rsplit_once('/').map(|(b, _)| b).unwrap_or(&url);
    let dir = tempfile::tempdir().unwrap();
    one_rules_call_per_check_and_replay(&format!("{base}/{name}"), dir.path()).await;
}

async fn one_rules_call_per_check_and_replay(db: &str, scratch: &std::path::Path) {
    let db = db.to_string();
    let calls = Arc::new(AtomicUsize::new(0));
    let rules = Counting { inner: ComponentRules::embedded().unwrap(), calls: calls.clone() };
    let gw = Gateway::new(open_store(&db).await.unwrap(), Box::new(rules), Box::new(SystemClock), Box::new(OsIds), Config::default());
    gw.migrate().await.unwrap();
    let admin = gw.create_admin_key(Environment::Sandbox).await.unwrap();
    let (_, tenant, _) = call(&gw, "POST", "/v1/admin/tenants", &admin, Some(json!({ "name": "t", "environment": "sandbox" }))).await;
    let key = tenant["api_key"].as_str().unwrap().to_string();
    let identity = json!({ "user_id": "u1", "first_name": "Ann", "last_name": "Lee", "date_of_birth": "1990-04-01", "nationality": "GB", "email": "ann@example.com" });
    assert_eq!(call(&gw, "POST", "/v1/sanctions/screen", &key, Some(identity)).await.0, 201);
    let now = gateway::time::format(SystemClock.now());
    let limit = json!({ "user_id": "u1", "limit_type": "limit_daily", "amount_cents": 10_000, "currency": "USD", "requested_at": now });
    let (status, _, limit_decision) = call(&gw, "POST", "/v1/limits", &key, Some(limit)).await;
    assert_eq!(status, 201);
    for i in 0..3 {
        let deposit = json!({ "transaction_id": format!("tx{i}"), "user_id": "u1", "amount_cents": 1_000, "currency": "USD" });
        assert_eq!(call(&gw, "POST", "/v1/limits/commit", &key, Some(deposit)).await.0, 201);
    }

    calls.store(0, Ordering::SeqCst);
    let (status, body, check_decision) =
        call(&gw, "POST", "/v1/limits/check", &key, Some(json!({ "user_id": "u1", "amount_cents": 500, "currency": "USD" }))).await;
    assert_eq!((status, body["allowed"].clone()), (200, json!(true)));
    assert_eq!(calls.load(Ordering::SeqCst), 1, "limits/check must ask the rules once");
    calls.store(0, Ordering::SeqCst);
    assert_eq!(call(&gw, "GET", "/v1/exclusions/check?email=ann@example.com", &key, None).await.0, 200);
    assert_eq!(calls.load(Ordering::SeqCst), 1, "exclusions/check must ask the rules once");

    gw.flush_decisions().await.unwrap();
    drop(gw);
    let check_id = check_decision.unwrap();
    for id in [limit_decision.unwrap(), check_id.clone()] {
        let (code, out) = replay(&[&id, "--database", &db]);
        assert_eq!((code, out.trim()), (Some(0), "identical"), "{id}");
    }

    // With another rules file: the same bytes replay identically.
    let copy = scratch.join("copy.wasm");
    std::fs::write(&copy, host_native::rules_engine::EMBEDDED_COMPONENT).unwrap();
    let (code, _) = replay(&[&check_id, "--database", &db, "--rules", copy.to_str().unwrap()]);
    assert_eq!(code, Some(0));

    // A record whose output was altered is reported, with the path that
    // differs. A read-only decision such as this check is kept in a page,
    // stored as documented: `lz4:`, then base64 of a size-prefixed LZ4 block.
    // The altered page is written back as pages were before packing, as
    // plain JSON text, which is still read.
    let store = open_store(&db).await.unwrap();
    let rows = store
        .query("SELECT page_id, entries FROM decision_pages WHERE page_id <= ?1 AND last_id >= ?1", vec![check_id.as_str().into()])
        .await
        .unwrap();
    let (page_id, stored) = (rows[0].text(0).unwrap(), rows[0].text(1).unwrap());
    let block = base64::engine::general_purpose::STANDARD_NO_PAD.decode(stored.strip_prefix("lz4:").expect("a packed page")).unwrap();
    let text = String::from_utf8(lz4_flex::block::decompress_size_prepended(&block).unwrap()).unwrap();
    assert!(text.contains(&format!("\"id\":\"{check_id}\"")), "{text}");
    let altered = text.replace("\"would_remain_cents\":6500", "\"would_remain_cents\":9999");
    assert_ne!(altered, text, "the page holds the check's output");
    store
        .batch(vec![Stmt::expect_one("UPDATE decision_pages SET entries = ?2 WHERE page_id = ?1", vec![page_id.into(), altered.into()])])
        .await
        .unwrap();
    let (code, out) = replay(&[&check_id, "--database", &db]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.starts_with("different") && out.contains("would_remain_cents"), "{out}");
}

#[tokio::test]
async fn decisions_older_than_the_retention_are_pruned_and_younger_kept() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("g.db").display());
    let now = Arc::new(std::sync::atomic::AtomicI64::new(SystemClock.now()));
    let config = Config { decision_retention_days: Some(2), ..Config::default() };
    let gw = Gateway::new(
        open_store(&db).await.unwrap(),
        Box::new(ComponentRules::embedded().unwrap()),
        Box::new(TestClock(now.clone())),
        Box::new(OsIds),
        config,
    );
    gw.migrate().await.unwrap();
    let admin = gw.create_admin_key(Environment::Sandbox).await.unwrap();
    let (_, tenant, _) = call(&gw, "POST", "/v1/admin/tenants", &admin, Some(json!({ "name": "t", "environment": "sandbox" }))).await;
    let key = tenant["api_key"].as_str().unwrap().to_string();
    let identity = |id: &str| json!({ "user_id": id, "first_name": "Ann", "last_name": "Lee", "date_of_birth": "1990-04-01", "nationality": "GB", "email": format!("{id}@example.com") });
    let (_, _, old) = call(&gw, "POST", "/v1/sanctions/screen", &key, Some(identity("old"))).await;
    now.fetch_add(2 * 86_400 - 10, Ordering::SeqCst);
    let (_, _, young) = call(&gw, "POST", "/v1/sanctions/screen", &key, Some(identity("young"))).await;
    now.fetch_add(20, Ordering::SeqCst);
    gw.run_scheduled().await.unwrap();
    let found = |id: Option<String>| {
        let gw = &gw;
        async move { gw.load_decision(&id.unwrap()).await.unwrap().is_some() }
    };
    assert!(!found(old).await, "a decision older than the retention was kept");
    assert!(found(young).await, "a decision within the retention was pruned");
}

#[tokio::test]
async fn a_listing_pages_through_many_decision_pages_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("g.db").display());
    let gw = Gateway::new(
        open_store(&db).await.unwrap(),
        Box::new(ComponentRules::embedded().unwrap()),
        Box::new(SystemClock),
        Box::new(OsIds),
        Config::default(),
    );
    gw.migrate().await.unwrap();
    let admin = gw.create_admin_key(Environment::Sandbox).await.unwrap();
    let (_, tenant, _) =
        call(&gw, "POST", "/v1/admin/tenants", &admin, Some(json!({ "name": "t", "environment": "sandbox", "rate_limit_per_minute": 100_000 })))
            .await;
    let (key, tenant_id) = (tenant["api_key"].as_str().unwrap().to_string(), tenant["tenant_id"].as_str().unwrap().to_string());
    let mut made = Vec::new();
    for i in 0..200 {
        let (status, _, id) = call(&gw, "GET", &format!("/v1/exclusions/check?email=p{i}@example.com"), &key, None).await;
        assert_eq!(status, 200);
        made.push(id.unwrap());
        if i % 2 == 1 {
            gw.flush_decisions().await.unwrap();
        }
    }
    made.sort();
    let mut listed = Vec::new();
    let mut cursor = String::new();
    loop {
        let path = format!("/v1/admin/decisions?tenant_id={tenant_id}&limit=30{cursor}");
        let (status, body, _) = call(&gw, "GET", &path, &admin, None).await;
        assert_eq!(status, 200, "{body}");
        listed.extend(body["decisions"].as_array().unwrap().iter().map(|d| d["decision_id"].as_str().unwrap().to_string()));
        match body["next_cursor"].as_str() {
            Some(next) => cursor = format!("&cursor={next}"),
            None => break,
        }
    }
    assert_eq!(listed, made, "every paged decision, once, in order");
    let (status, one, _) = call(&gw, "GET", &format!("/v1/admin/decisions/{}", made[137]), &admin, None).await;
    assert_eq!((status, one["operation"].as_str()), (200, Some("exclusion_status")));
}
