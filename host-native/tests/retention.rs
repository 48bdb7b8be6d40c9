//! Bounded growth: a simulated year of traffic under an injected clock, the
//! scheduler sweeping as hosts run it. Every pruned table levels off at what
//! its retention holds, while the rows a rule or a replay still reads stay.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod support;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};

use gateway::auth::Environment;
use gateway::ports::Store;
use gateway::retention::RetentionPolicy;
use gateway::{Config, Gateway};
use host_native::rules_engine::ComponentRules;
use host_native::OsIds;
use serde_json::{json, Value as Json};
use support::TestClock;

const START: i64 = 1_800_000_000;
const DAY: i64 = 86_400;

const PRUNED: &[&str] = &[
    "outbox",
    "webhook_deliveries",
    "webhook_attempts",
    "deposits",
    "deposit_hours",
    "audit_log",
    "decisions",
    "decision_pages",
    "idempotency_keys",
    "aml_events",
    "aml_buckets",
    "aml_instruments",
    "aml_alerted",
];

#[derive(Clone, Default)]
struct Recorder(Arc<Mutex<usize>>);

#[async_trait::async_trait]
impl gateway::ports::WebhookSender for Recorder {
    async fn post(&self, _url: &str, _headers: &[(String, String)], _body: &[u8]) -> gateway::ports::SendOutcome {
        *self.0.lock().unwrap() += 1;
        gateway::ports::SendOutcome::Answered { status: 200, retry_after: None }
    }
}

struct NoWake;
impl gateway::ports::Waker for NoWake {
    fn wake(&self) {}
}

async fn send(gw: &Gateway, key: &str, method: &str, path: &str, body: Json, idempotency_key: Option<&str>) -> (u16, Json) {
    let mut builder = http::Request::builder().method(method).uri(path).header("authorization", format!("Bearer {key}"));
    if let Some(k) = idempotency_key {
        builder = builder.header("idempotency-key", k);
    }
    let bytes = if body.is_null() { Vec::new() } else { body.to_string().into_bytes() };
    if !bytes.is_empty() {
        builder = builder.header("content-type", "application/json");
    }
    let response = gw.handle(builder.body(bytes).unwrap()).await;
    (response.status().as_u16(), serde_json::from_slice(response.body()).unwrap_or(Json::Null))
}

async fn counts(store: &dyn Store) -> BTreeMap<&'static str, i64> {
    let mut all = BTreeMap::new();
    for table in PRUNED {
        // table names are this test's constants
        let sql: &'static str = Box::leak(format!("SELECT COUNT(*) FROM {table}").into_boxed_str());
        all.insert(*table, store.scalar(sql, vec![]).await.unwrap());
    }
    all
}

fn iso(t: i64) -> String {
    chrono::DateTime::from_timestamp(t, 0).unwrap().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

#[tokio::test]
async fn every_pruned_table_stays_bounded_over_a_simulated_year() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?synchronous=normal", dir.path().join("g.db").display());
    let now = Arc::new(AtomicI64::new(START));
    let policy = RetentionPolicy { audit_days: Some(60), aml_record_days: Some(60), batch_rows: 200, ..RetentionPolicy::default() };
    let config = Config { decision_retention_days: Some(60), retention: policy, ..Config::default() };
    let gw = Gateway::new(
        host_native::open_store(&url).await.unwrap(),
        Box::new(ComponentRules::embedded().unwrap()),
        Box::new(TestClock(now.clone())),
        Box::new(OsIds),
        config,
    )
    .with_webhooks(Box::new(Recorder::default()), Box::new(NoWake));
    gw.migrate().await.unwrap();
    let probe = host_native::open_store(&url).await.unwrap();
    let admin = gw.create_admin_key(Environment::Sandbox).await.unwrap();
    let (_, tenant) =
        send(&gw, &admin, "POST", "/v1/admin/tenants", json!({ "name": "op", "environment": "sandbox", "rate_limit_per_minute": 100_000 }), None)
            .await;
    let (key, tenant_id) = (tenant["api_key"].as_str().unwrap().to_string(), tenant["tenant_id"].as_str().unwrap().to_string());
    assert_eq!(send(&gw, &key, "POST", "/v1/webhooks", json!({ "url": "http://127.0.0.1:9/hooks" }), None).await.0, 201);
    for user in ["w-0", "w-1", "w-2"] {
        let person = json!({ "user_id": user, "first_name": "Cy", "last_name": "Ng", "date_of_birth": "1990-04-01", "nationality": "GB", "email": format!("{user}@example.com") });
        assert_eq!(send(&gw, &key, "POST", "/v1/sanctions/screen", person, None).await.0, 201);
    }
    for user in 0..10 {
        let person = json!({ "user_id": format!("u-{user}"), "first_name": "Ann", "last_name": "Lee", "date_of_birth": "1990-04-01", "nationality": "GB", "email": format!("u{user}@example.com") });
        assert_eq!(send(&gw, &key, "POST", "/v1/sanctions/screen", person, None).await.0, 201);
    }

    let mut inserted = 0i64;
    let mut at_day_120 = BTreeMap::new();
    for day in 0..365i64 {
        let morning = START + day * DAY;
        now.store(morning, Ordering::SeqCst);
        let user = format!("u-{}", day % 10);
        for n in 0..3 {
            let deposit = json!({ "transaction_id": format!("tx-{day}-{n}"), "user_id": user, "amount_cents": 2_000, "currency": "USD" });
            let (status, body) = send(&gw, &key, "POST", "/v1/limits/commit", deposit, Some(&format!("idem-{day}-{n}"))).await;
            assert!(status == 200 || status == 201, "{status} {body}");
            let event = json!({ "transaction_id": format!("aml-{day}-{n}"), "user_id": user, "event_type": "deposit", "amount_cents": 2_000, "currency": "USD", "payment_method": "card", "instrument_id": format!("card-{day}") });
            assert_eq!(send(&gw, &key, "POST", "/v1/aml/event", event, None).await.0, 202);
            inserted += 2;
        }
        if day % 5 == 0 {
            // $2,500 by an unverified player: a due-diligence alert (on players who deposit nothing else)
            let big = json!({ "transaction_id": format!("aml-big-{day}"), "user_id": format!("w-{}", day % 3), "event_type": "deposit", "amount_cents": 250_000, "currency": "USD", "payment_method": "card" });
            assert_eq!(send(&gw, &key, "POST", "/v1/aml/event", big, None).await.0, 202);
        }
        // ten players who exclude themselves for a week in turn: the users stay ten
        let excluded = format!("x-{}", day % 10);
        if day < 10 {
            let person = json!({ "user_id": excluded, "first_name": "Bo", "last_name": "Ek", "date_of_birth": "1990-04-01", "nationality": "SE", "email": format!("{excluded}@example.com") });
            assert_eq!(send(&gw, &key, "POST", "/v1/sanctions/screen", person, None).await.0, 201);
        }
        let exclusion = json!({ "user_id": excluded, "duration": "duration_7d", "reason": "self_initiated", "initiated_at": iso(morning), "email": format!("{excluded}@example.com") });
        assert_eq!(send(&gw, &key, "POST", "/v1/exclusions", exclusion, None).await.0, 201);
        let gaming_day = json!({ "cutoff": "06:00", "time_zone": "UTC" });
        assert_eq!(send(&gw, &admin, "PUT", &format!("/v1/admin/tenants/{tenant_id}/gaming-day"), gaming_day, None).await.0, 200);
        now.store(morning + 3_600, Ordering::SeqCst);
        gw.deliver_webhooks().await.unwrap();
        gw.flush_decisions().await.unwrap();
        while gw.run_scheduled().await.unwrap().more_due {}
        if day == 120 {
            at_day_120 = counts(probe.as_ref()).await;
        }
    }
    let at_year = counts(probe.as_ref()).await;
    for table in PRUNED {
        let (then, end) = (at_day_120[table], at_year[table]);
        assert!(end > 0, "{table} kept nothing: its retention pruned rows still in use");
        // bounded: no more at the year's end than after four months (allowing for the day's batch)
        assert!(end <= then + then / 10 + 20, "{table} grew from {then} rows at day 120 to {end} at day 365");
    }
    assert!(inserted > 5 * at_year["deposits"], "deposits were never pruned: {} kept of {inserted}", at_year["deposits"]);

    // what a rule reads is still there: the last day's spend counts against a limit
    let limit = json!({ "user_id": "u-4", "limit_type": "limit_daily", "amount_cents": 6_500, "currency": "USD", "requested_at": iso(now.load(Ordering::SeqCst)) });
    let (status, body) = send(&gw, &key, "POST", "/v1/limits", limit, None).await;
    assert_eq!(status, 201, "{body}");
    let over = json!({ "user_id": "u-4", "amount_cents": 1_000, "currency": "USD" });
    let (status, check) = send(&gw, &key, "POST", "/v1/limits/check", over, None).await;
    assert_eq!((status, check["allowed"].as_bool()), (200, Some(false)), "the day's 6,000 cents were forgotten: {check}");
    // an idempotency key of the last day is still held (another body under it is refused); one of the first day is gone
    let other = json!({ "transaction_id": "tx-other", "user_id": "u-4", "amount_cents": 1, "currency": "USD" });
    let (status, body) = send(&gw, &key, "POST", "/v1/limits/commit", other, Some("idem-364-0")).await;
    assert_eq!((status, body["error"].as_str()), (409, Some("idempotency_key_reused")), "{body}");
    let stored_keys = probe.scalar("SELECT COUNT(*) FROM idempotency_keys WHERE idempotency_key = 'idem-0-0'", vec![]).await.unwrap();
    assert_eq!(stored_keys, 0);
}

/// Withdrawals are a user's records: kept for the record-keeping period of
/// the tenant's jurisdiction profile, as the rules state it, then pruned; a
/// withdrawal still held for its check is kept however old. The twin: a
/// day before the period ends, nothing goes.
#[tokio::test]
async fn withdrawals_are_pruned_after_the_profiles_record_keeping_period() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("g.db").display());
    let now = Arc::new(AtomicI64::new(START));
    let gw = Gateway::new(
        host_native::open_store(&url).await.unwrap(),
        Box::new(ComponentRules::embedded().unwrap()),
        Box::new(TestClock(now.clone())),
        Box::new(OsIds),
        Config::default(),
    );
    gw.migrate().await.unwrap();
    let probe = host_native::open_store(&url).await.unwrap();
    let admin = gw.create_admin_key(Environment::Sandbox).await.unwrap();
    let mut kept_for = BTreeMap::new();
    for jurisdiction in ["default", "GB"] {
        let body =
            json!({ "name": format!("op-{jurisdiction}"), "environment": "sandbox", "rate_limit_per_minute": 100_000, "jurisdiction": jurisdiction });
        let (status, tenant) = send(&gw, &admin, "POST", "/v1/admin/tenants", body, None).await;
        assert_eq!(status, 201, "{tenant}");
        let key = tenant["api_key"].as_str().unwrap().to_string();
        for user in ["paid", "held"] {
            let person = json!({ "user_id": user, "first_name": "Ann", "last_name": "Lee", "date_of_birth": "1990-04-01", "nationality": "GB", "email": format!("{user}@example.com") });
            let (status, body) = send(&gw, &key, "POST", "/v1/sanctions/screen", person, None).await;
            assert_eq!(status, 201, "{body}");
        }
        // within tier_0's ceiling: released at once; above it: held for a check
        let paid =
            json!({ "user_id": "paid", "withdrawal_amount_cents": 1_000, "currency": "USD", "email": "p@example.com", "phone": "+44 7700 900124" });
        let (status, body) = send(&gw, &key, "POST", "/v1/kyc/start", paid, None).await;
        assert_eq!(status, 200, "{body}");
        let held =
            json!({ "user_id": "held", "withdrawal_amount_cents": 50_000, "currency": "USD", "email": "h@example.com", "phone": "+44 7700 900123" });
        let (status, body) = send(&gw, &key, "POST", "/v1/kyc/start", held, None).await;
        assert_eq!(status, 201, "{body}");
        let period = rules::jurisdictions().into_iter().find(|p| p.name == jurisdiction).unwrap().record_keeping_seconds;
        kept_for.insert(tenant["tenant_id"].as_str().unwrap().to_string(), period);
    }
    let count = |status: &'static str| {
        let probe = &probe;
        async move {
            let sql: &'static str = Box::leak(format!("SELECT COUNT(*) FROM withdrawals WHERE status = '{status}'").into_boxed_str());
            probe.scalar(sql, vec![]).await.unwrap()
        }
    };
    assert_eq!((count("released").await, count("held").await), (2, 2));
    let sweep = |at: i64| {
        let gw = &gw;
        async move { while gw.sweep_expired(at).await.unwrap().more {} }
    };
    let shortest = kept_for.values().copied().min().unwrap();
    let longest = kept_for.values().copied().max().unwrap();
    sweep(START + shortest - DAY).await;
    assert_eq!(count("released").await, 2, "a withdrawal went before its profile's record-keeping period ended");
    sweep(START + longest + DAY).await;
    assert_eq!(count("released").await, 0, "withdrawals outlived every profile's record-keeping period");
    assert_eq!(count("held").await, 2, "a withdrawal still held for its check was pruned");
}
