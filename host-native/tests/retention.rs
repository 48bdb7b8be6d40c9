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

/// Withdrawals are a user's records: kept from their own time for the period
/// of the tenant's jurisdiction profile's retention table (US: five years;
/// GB: never beyond ten), as the rules state it, then pruned; a
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
        // the period a transaction record is kept from its own time: the profile's retention table
        let table = rules::jurisdictions::retention_table(jurisdiction);
        let aml = table.rule(rules::jurisdictions::RecordClass::AmlRecords).unwrap();
        let period = match aml.from {
            rules::jurisdictions::RetentionStart::Record => aml.keep_seconds,
            _ => aml.record_cap_seconds.unwrap(),
        };
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

/// A tenant of a profile, in the sandbox.
async fn tenant_of(gw: &Gateway, admin: &str, jurisdiction: &str) -> (String, String) {
    let body =
        json!({ "name": format!("op-{jurisdiction}"), "environment": "sandbox", "rate_limit_per_minute": 100_000, "jurisdiction": jurisdiction });
    let (status, tenant) = send(gw, admin, "POST", "/v1/admin/tenants", body, None).await;
    assert_eq!(status, 201, "{tenant}");
    (tenant["api_key"].as_str().unwrap().to_string(), tenant["tenant_id"].as_str().unwrap().to_string())
}

/// The operator-visible answer without its id, for comparing two players'.
fn without_id(mut body: Json) -> Json {
    body.as_object_mut().unwrap().remove("erasure_id");
    body
}

fn held_until(body: &Json, class: &str) -> Option<i64> {
    let held = body["held"].as_array().unwrap().iter().find(|h| h["class"] == class)?;
    held["until"].as_str().map(|t| chrono::DateTime::parse_from_rfc3339(t).unwrap().timestamp())
}

fn erased(body: &Json, class: &str) -> bool {
    body["erased"].as_array().unwrap().iter().any(|c| c == class)
}

/// Issue #31's Goal, under an injected clock: a player signs up, deposits,
/// has an AML case, excludes themselves, ends the relationship and asks for
/// erasure; then twelve years pass. Under the GB, DE and default profiles,
/// each class of the player's records is erased on its date and not a day
/// earlier; the exclusion in force is refused (GDPR Art. 17(3)(b)); and no
/// operator-visible answer names AML material: a twin with no AML case gets
/// the same answer. A third player, closed and never asking, is erased
/// unasked under the profiles whose law requires deletion.
#[tokio::test]
async fn each_class_is_erased_on_its_date_under_each_profile_and_not_a_day_earlier() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?synchronous=normal", dir.path().join("g.db").display());
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
    let count = |sql: &'static str, tenant: String, user: &'static str| {
        let probe = &probe;
        async move { probe.scalar(sql, vec![tenant.as_str().into(), user.into()]).await.unwrap() }
    };
    for (jurisdiction, currency) in [("GB", "GBP"), ("DE", "EUR"), ("default", "USD")] {
        now.store(START, Ordering::SeqCst);
        let (key, tenant_id) = tenant_of(&gw, &admin, jurisdiction).await;
        // signup and deposits: the subject (who also has an AML case), its twin (who has none), and a player who never asks
        for user in ["subject", "twin", "silent"] {
            let person = json!({ "user_id": user, "first_name": "Ann", "last_name": "Lee", "date_of_birth": "1990-04-01", "nationality": "GB", "email": format!("{user}@example.com") });
            assert_eq!(send(&gw, &key, "POST", "/v1/sanctions/screen", person, None).await.0, 201);
            for n in 0..3 {
                let deposit = json!({ "transaction_id": format!("tx-{user}-{n}"), "user_id": user, "amount_cents": 2_000, "currency": currency });
                let (status, body) = send(&gw, &key, "POST", "/v1/limits/commit", deposit, None).await;
                assert!(status == 200 || status == 201, "{status} {body}");
                let event = json!({ "transaction_id": format!("aml-{user}-{n}"), "user_id": user, "event_type": "deposit", "amount_cents": 2_000, "currency": currency, "payment_method": "card" });
                assert_eq!(send(&gw, &key, "POST", "/v1/aml/event", event, None).await.0, 202);
            }
        }
        // the subject's deposit past the due-diligence amount of every profile: an alert and a case
        let big = json!({ "transaction_id": "aml-subject-big", "user_id": "subject", "event_type": "deposit", "amount_cents": 250_000, "currency": currency, "payment_method": "card" });
        assert_eq!(send(&gw, &key, "POST", "/v1/aml/event", big, None).await.0, 202);
        let twin_big = json!({ "transaction_id": "aml-twin-small", "user_id": "twin", "event_type": "deposit", "amount_cents": 2_000, "currency": currency, "payment_method": "card" });
        assert_eq!(send(&gw, &key, "POST", "/v1/aml/event", twin_big, None).await.0, 202);
        let cases = "SELECT COUNT(*) FROM aml_cases WHERE tenant_id = ?1 AND external_user_id = ?2";
        assert!(count(cases, tenant_id.clone(), "subject").await > 0, "{jurisdiction}: the subject has an AML case");
        assert_eq!(count(cases, tenant_id.clone(), "twin").await, 0, "{jurisdiction}: the twin has none");
        // a year's exclusion for both, and a limit change
        for user in ["subject", "twin"] {
            let exclusion = json!({ "user_id": user, "duration": "duration_1y", "reason": "self_initiated", "initiated_at": iso(START), "email": format!("{user}@example.com") });
            assert_eq!(send(&gw, &key, "POST", "/v1/exclusions", exclusion, None).await.0, 201);
            let limit =
                json!({ "user_id": user, "limit_type": "limit_daily", "amount_cents": 5_000, "currency": currency, "requested_at": iso(START) });
            assert_eq!(send(&gw, &key, "POST", "/v1/limits", limit, None).await.0, 201);
        }
        gw.flush_decisions().await.unwrap();

        // the relationship ends on day 30; a second close answers the first's time
        let ended = START + 30 * DAY;
        now.store(ended, Ordering::SeqCst);
        for user in ["subject", "twin", "silent"] {
            let (status, body) = send(&gw, &key, "POST", &format!("/v1/users/{user}/close"), Json::Null, None).await;
            assert_eq!((status, body["closed_at"].as_str()), (200, Some(iso(ended).as_str())), "{body}");
        }
        now.store(ended + DAY, Ordering::SeqCst);
        let (status, again) = send(&gw, &key, "POST", "/v1/users/subject/close", Json::Null, None).await;
        assert_eq!((status, again["closed_at"].as_str()), (200, Some(iso(ended).as_str())));

        // the erasure request
        let (status, subject) = send(&gw, &key, "POST", "/v1/users/subject/erasure", Json::Null, None).await;
        assert_eq!(status, 202, "{subject}");
        let (status, twin) = send(&gw, &key, "POST", "/v1/users/twin/erasure", Json::Null, None).await;
        assert_eq!(status, 202, "{twin}");
        assert_eq!(subject["state"], "held");
        // no operator-visible answer names AML material: the subject's is the twin's
        assert_eq!(without_id(subject.clone()), without_id(twin.clone()), "{jurisdiction}: the answer reveals the AML case");
        let text = subject.to_string().to_lowercase();
        for word in ["aml", "alert", "case", "filing", "suspicious"] {
            assert!(!text.contains(word), "{jurisdiction}: {word} in {subject}");
        }
        // what no law requires went at once; the exclusion in force is refused, with why
        assert!(erased(&subject, "limit_changes") && erased(&subject, "webhook_payloads"), "{subject}");
        let exclusion = subject["held"].as_array().unwrap().iter().find(|h| h["class"] == "exclusions").unwrap();
        assert_eq!(exclusion["basis"], "gdpr_17_3_b_exclusion_in_force", "{subject}");
        let limits = "SELECT COUNT(*) FROM deposit_limits WHERE tenant_id = ?1 AND external_user_id = ?2 AND redacted_at IS NOT NULL";
        assert!(count(limits, tenant_id.clone(), "subject").await > 0, "{jurisdiction}: the limit change was not redacted");
        let payloads = "SELECT COUNT(*) FROM outbox WHERE tenant_id = ?1 AND envelope LIKE '%' || ?2 || '%'";
        assert_eq!(count(payloads, tenant_id.clone(), "\"user_id\":\"subject\"").await, 0, "{jurisdiction}: the subject's webhook payloads remain");
        // idempotent: a repeat answers the same job; GET shows it
        let (status, repeat) = send(&gw, &key, "POST", "/v1/users/subject/erasure", Json::Null, None).await;
        assert_eq!((status, &repeat), (202, &subject));
        let erasure_id = subject["erasure_id"].as_str().unwrap().to_string();
        let (status, shown) = send(&gw, &key, "GET", &format!("/v1/erasures/{erasure_id}"), Json::Null, None).await;
        assert_eq!((status, &shown), (200, &subject));
        // restricted: hidden from operator reads
        let (status, _) = send(&gw, &key, "GET", "/v1/kyc/tier?user_id=subject", Json::Null, None).await;
        assert_eq!(status, 404, "{jurisdiction}: a restricted player is still read");
        let (status, _) = send(&gw, &key, "GET", "/v1/kyc/tier?user_id=silent", Json::Null, None).await;
        assert_eq!(status, 200, "{jurisdiction}: the twin: a player with no erasure is read");

        // twelve years: each held class goes on its date, not a day earlier
        let mut dates: Vec<(String, i64)> = subject["held"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| (h["class"].as_str().unwrap().to_string(), held_until(&subject, h["class"].as_str().unwrap()).unwrap()))
            .collect();
        dates.sort_by_key(|(_, at)| *at);
        let table = rules::jurisdictions::retention_table(jurisdiction);
        let five = table.rule(rules::jurisdictions::RecordClass::IdentityScreening).unwrap().keep_seconds;
        assert_eq!(held_until(&subject, "identity_screening"), Some(ended + five), "{jurisdiction}: from the relationship's end");
        let excl_keep = table.rule(rules::jurisdictions::RecordClass::Exclusions).unwrap().keep_seconds;
        assert_eq!(held_until(&subject, "exclusions"), Some(START + 365 * DAY + excl_keep), "{jurisdiction}: the profile's time after its end");
        let mut days: Vec<i64> = dates.iter().map(|(_, at)| *at).collect();
        days.dedup();
        for date in &days {
            let classes: Vec<&String> = dates.iter().filter(|(_, at)| at == date).map(|(c, _)| c).collect();
            assert!(*date < START + 12 * 365 * DAY, "{jurisdiction}: {classes:?} held beyond the twelve years");
            now.store(date - DAY, Ordering::SeqCst);
            while gw.run_scheduled().await.unwrap().more_due {}
            let (_, before) = send(&gw, &key, "GET", &format!("/v1/erasures/{erasure_id}"), Json::Null, None).await;
            for class in &classes {
                assert!(!erased(&before, class), "{jurisdiction}: {class} erased a day before {}", iso(*date));
                if class.as_str() == "records_under_legal_obligation" {
                    let events = "SELECT COUNT(*) FROM aml_events WHERE tenant_id = ?1 AND external_user_id = ?2";
                    assert!(count(events, tenant_id.clone(), "subject").await > 0, "{jurisdiction}: AML records went early");
                    assert!(count(cases, tenant_id.clone(), "subject").await > 0, "{jurisdiction}: the AML case went early");
                }
            }
            now.store(*date, Ordering::SeqCst);
            while gw.run_scheduled().await.unwrap().more_due {}
            let (_, after) = send(&gw, &key, "GET", &format!("/v1/erasures/{erasure_id}"), Json::Null, None).await;
            assert!(!after.to_string().to_lowercase().contains("aml"), "{after}");
            for class in &classes {
                assert!(erased(&after, class), "{jurisdiction}: {class} not erased on {}: {after}", iso(*date));
                match class.as_str() {
                    "records_under_legal_obligation" => {
                        let events = "SELECT COUNT(*) FROM aml_events WHERE tenant_id = ?1 AND external_user_id = ?2";
                        assert_eq!(count(events, tenant_id.clone(), "subject").await, 0, "{jurisdiction}: AML events kept");
                        assert_eq!(count(cases, tenant_id.clone(), "subject").await, 0, "{jurisdiction}: the AML case kept");
                    }
                    "identity_screening" => {
                        let redacted = "SELECT COUNT(*) FROM users WHERE tenant_id = ?1 AND external_user_id = ?2 AND redacted_at IS NOT NULL AND first_name = '' AND email LIKE 'erased:%'";
                        assert_eq!(count(redacted, tenant_id.clone(), "subject").await, 1, "{jurisdiction}: identity not redacted in place");
                    }
                    "exclusions" => {
                        let redacted = "SELECT COUNT(*) FROM exclusions WHERE tenant_id = ?1 AND external_user_id = ?2 AND redacted_at IS NOT NULL AND email IS NULL";
                        assert_eq!(count(redacted, tenant_id.clone(), "subject").await, 1, "{jurisdiction}: the ended exclusion kept its e-mail");
                    }
                    _ => {}
                }
            }
        }
        let (_, done) = send(&gw, &key, "GET", &format!("/v1/erasures/{erasure_id}"), Json::Null, None).await;
        assert_eq!(done["state"], "erased", "{jurisdiction}: {done}");
        let completed = "SELECT COUNT(*) FROM outbox WHERE tenant_id = ?1 AND event = 'user.erasure_completed' AND envelope LIKE '%' || ?2 || '%'";
        assert_eq!(
            count(completed, tenant_id.clone(), Box::leak(erasure_id.clone().into_boxed_str())).await,
            1,
            "{jurisdiction}: no user.erasure_completed"
        );
        let audited = "SELECT COUNT(*) FROM audit_log WHERE tenant_id = ?1 AND resource = ?2 AND action LIKE 'erasure.%'";
        assert!(count(audited, tenant_id.clone(), Box::leak(erasure_id.clone().into_boxed_str())).await >= 4, "{jurisdiction}: steps not audited");

        // unasked: the silent player, closed on day 30, erased when the first period passes where the law requires deletion
        let unasked = "SELECT COUNT(*) FROM erasures WHERE tenant_id = ?1 AND external_user_id = ?2";
        let deletes = table.rules.iter().filter(|r| r.required).all(|r| r.then_delete);
        assert_eq!(
            count(unasked, tenant_id.clone(), "silent").await,
            i64::from(deletes),
            "{jurisdiction}: unasked erasure where the law requires deletion only"
        );
        now.store(START + 12 * 365 * DAY, Ordering::SeqCst);
    }
}
