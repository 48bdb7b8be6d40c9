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

/// A store that keeps every batch it commits, and answers `Unavailable` to
/// every statement whose SQL contains the planted text, as a store that went
/// away mid-request would; the first batch with a statement holding the
/// text planted to lose loses its race (`Conflict`), as one a concurrent write beat would.
#[derive(Clone)]
struct FaultyStore {
    inner: Arc<dyn Store>,
    fail_on: Arc<Mutex<Option<&'static str>>>,
    lose_once: Arc<Mutex<Option<&'static str>>>,
    committed: Arc<Mutex<Vec<Vec<Stmt>>>>,
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
        {
            let mut lose = self.lose_once.lock().unwrap();
            if let Some(at) = lose.and_then(|text| statements.iter().position(|s| s.sql.contains(text))) {
                *lose = None;
                return Err(StoreError::Conflict { statement: at });
            }
        }
        self.inner.batch(statements.clone()).await?;
        self.committed.lock().unwrap().push(statements);
        Ok(())
    }
}

struct Host {
    gateway: Gateway,
    store: FaultyStore,
    clock: TestClock,
    admin: String,
    key: String,
    tenant_id: String,
    _dir: tempfile::TempDir,
}

async fn host() -> Host {
    let dir = tempfile::tempdir().unwrap();
    let inner = host_native::open_store(&format!("sqlite://{}", dir.path().join("db.sqlite").display())).await.unwrap();
    let store = FaultyStore { inner: Arc::from(inner), fail_on: Arc::default(), lose_once: Arc::default(), committed: Arc::default() };
    let clock = TestClock(Arc::new(AtomicI64::new(START)));
    let gateway = Gateway::new(
        Box::new(store.clone()),
        Box::new(ComponentRules::embedded().unwrap()),
        Box::new(clock.clone()),
        Box::new(OsIds),
        Config::default(),
    );
    gateway.migrate().await.unwrap();
    let admin = gateway.create_admin_key(Environment::Sandbox).await.unwrap();
    let (_, tenant) =
        call(&gateway, &admin, "POST", "/v1/admin/tenants", json!({ "name": "op", "environment": "sandbox", "rate_limit_per_minute": 1000 })).await;
    let key = tenant["api_key"].as_str().unwrap().to_string();
    let tenant_id = tenant["tenant_id"].as_str().unwrap().to_string();
    Host { gateway, store, clock, admin, key, tenant_id, _dir: dir }
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
    assert!(report.fanned_out > 0);
    assert_eq!(report.attempted, 0, "the host without the key claimed a delivery");
    assert!(sent.0.lock().unwrap().is_empty());
    let (_, log) = call(&keyed, &key, "GET", &format!("/v1/webhooks/{webhook_id}/deliveries"), Json::Null).await;
    assert_eq!((log["deliveries"][0]["status"].as_str(), log["deliveries"][0]["attempt_count"].as_i64()), (Some("pending"), Some(0)), "{log}");

    // the twin: the host with the key claims and sends it
    let report = keyed.deliver_webhooks().await.unwrap();
    assert!(report.attempted > 0);
    assert!(sent.0.lock().unwrap().iter().all(|url| url == "http://127.0.0.1:9/hooks"));
    let (_, log) = call(&keyed, &key, "GET", &format!("/v1/webhooks/{webhook_id}/deliveries"), Json::Null).await;
    assert_eq!(log["deliveries"][0]["status"].as_str(), Some("succeeded"), "{log}");
}

/// The tables that hold a user's state.
const USER_TABLES: [&str; 10] =
    ["users", "withdrawals", "kyc_checks", "deposits", "deposit_limits", "sanctions_cases", "aml_events", "aml_buckets", "aml_alerts", "aml_cases"];

/// The user-state table a statement writes, if any.
fn user_table_written(sql: &str) -> Option<&'static str> {
    let sql = sql.trim_start();
    USER_TABLES.into_iter().find(|t| [format!("INSERT INTO {t} "), format!("UPDATE {t} ")].iter().any(|prefix| sql.starts_with(prefix.as_str())))
}

/// A claim of a user's row: its version moved on only from the version read,
/// or the user's creation.
fn claims_a_user(s: &Stmt) -> bool {
    let sql = s.sql.split_whitespace().collect::<Vec<_>>().join(" ");
    sql.starts_with("INSERT INTO users ")
        || (sql.starts_with("UPDATE users ")
            && sql.contains("version = version + 1")
            && sql.contains("AND version = ?")
            && s.expect == gateway::ports::Expect::One)
}

/// The committed batches that write a user's state without claiming a user.
fn unclaimed_user_writes(batches: &[Vec<Stmt>]) -> Vec<String> {
    batches
        .iter()
        .filter(|b| !b.iter().any(claims_a_user))
        .flat_map(|b| b.iter().filter_map(|s| user_table_written(s.sql).map(|_| s.sql.split_whitespace().take(8).collect::<Vec<_>>().join(" "))))
        .collect()
}

/// The checker itself catches a planted violation, and passes a claimed write.
#[test]
fn the_claim_checker_catches_an_unclaimed_user_write() {
    let write = Stmt::new("UPDATE users SET sanctions_status = ?3 WHERE tenant_id = ?1 AND external_user_id = ?2", vec![]);
    let claim = Stmt::expect_one("UPDATE users SET version = version + 1 WHERE tenant_id = ?1 AND external_user_id = ?2 AND version = ?3", vec![]);
    let loose_claim = Stmt::new("UPDATE users SET version = version + 1 WHERE tenant_id = ?1 AND external_user_id = ?2 AND version = ?3", vec![]);
    let limit = Stmt::new("UPDATE deposit_limits SET status = ?2 WHERE limit_id = ?1", vec![]);
    assert_eq!(unclaimed_user_writes(&[vec![write.clone()]]).len(), 1);
    assert_eq!(unclaimed_user_writes(&[vec![limit.clone(), loose_claim]]).len(), 2);
    assert!(unclaimed_user_writes(&[vec![claim.clone(), write, limit]]).is_empty());
    assert!(unclaimed_user_writes(&[vec![Stmt::new("INSERT INTO outbox (event_id) VALUES (?1)", vec![])]]).is_empty());
}

/// "Writes that touch a user claim the user's row": every batch committed
/// through every path that writes a user's state (signup, limits set, raised,
/// cancelled and activated, deposits, withdrawals and their checks, manual
/// and vendor reviews, expiries, a case's review directly and through the
/// case model, re-screens, a close, an erasure asked and one unasked, and
/// the sweep's redaction years on) claims it.
#[tokio::test]
async fn every_write_to_a_users_state_claims_the_user() {
    let h = host().await;
    let (gw, key, admin) = (&h.gateway, h.key.as_str(), h.admin.as_str());
    let iso = |t: i64| chrono::DateTime::from_timestamp(t, 0).unwrap().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let person = |user: &str, first: &str| json!({ "user_id": user, "first_name": first, "last_name": "Lee", "date_of_birth": "1990-04-01", "nationality": "GB", "email": format!("{user}@example.com") });
    let ok = |(status, body): (u16, Json), want: u16| assert!(status == want || (want == 200 && status == 201), "{status} {body}");
    ok(call(gw, key, "POST", "/v1/sanctions/screen", person("u-1", "Ann")).await, 201);
    let limit =
        |amount: i64| json!({ "user_id": "u-1", "limit_type": "limit_daily", "amount_cents": amount, "currency": "USD", "requested_at": iso(START) });
    ok(call(gw, key, "POST", "/v1/limits", limit(10_000)).await, 201);
    let (_, raised) = call(gw, key, "POST", "/v1/limits", limit(15_000)).await;
    ok(call(gw, key, "DELETE", &format!("/v1/limits/{}", raised["limit_id"].as_str().unwrap()), Json::Null).await, 200);
    ok(call(gw, key, "POST", "/v1/limits", limit(20_000)).await, 201);
    let deposit = json!({ "transaction_id": "tx-1", "user_id": "u-1", "amount_cents": 5_000, "currency": "USD" });
    ok(call(gw, key, "POST", "/v1/limits/commit", deposit).await, 200);
    let withdrawal = |user: &str, cents: i64| json!({ "user_id": user, "email": "p@example.com", "phone": "+44 7700 900123", "withdrawal_amount_cents": cents, "currency": "USD" });
    ok(call(gw, key, "POST", "/v1/kyc/start", withdrawal("u-1", 10_000)).await, 200);
    let (_, check) = call(gw, key, "POST", "/v1/kyc/start", withdrawal("u-1", 50_000)).await;
    let check_id = check["kyc_check_id"].as_str().unwrap().to_string();
    ok(call(gw, key, "POST", &format!("/v1/sandbox/kyc/{check_id}/submit"), json!({})).await, 202);
    let review = json!({ "kyc_check_id": check_id, "decision": "approve", "reviewer": "analyst-2" });
    ok(call(gw, admin, "POST", "/v1/kyc/manual-review", review).await, 200);
    ok(call(gw, key, "POST", "/v1/sanctions/screen", person("u-auto-autoapprove", "Bo")).await, 201);
    let (_, auto) = call(gw, key, "POST", "/v1/kyc/start", withdrawal("u-auto-autoapprove", 50_000)).await;
    ok(call(gw, key, "POST", &format!("/v1/sandbox/kyc/{}/submit", auto["kyc_check_id"].as_str().unwrap()), json!({})).await, 202);
    ok(call(gw, key, "POST", "/v1/sanctions/screen", person("u-left", "Cy")).await, 201);
    let (_, left) = call(gw, key, "POST", "/v1/kyc/start", withdrawal("u-left", 50_000)).await;
    let left_id = left["kyc_check_id"].as_str().unwrap().to_string();
    // a fresh token, then (its lifetime past) a repeat that re-issues one
    ok(call(gw, key, "POST", &format!("/v1/kyc/{left_id}/token"), json!({})).await, 200);
    ok(call(gw, key, "POST", "/v1/sandbox/clock", json!({ "advance_seconds": 1_000 })).await, 200);
    ok(call(gw, key, "POST", "/v1/kyc/start", withdrawal("u-left", 50_000)).await, 200);
    // a token for a check awaiting review changes no status
    ok(call(gw, key, "POST", "/v1/sanctions/screen", person("u-wait", "Di")).await, 201);
    let (_, waiting) = call(gw, key, "POST", "/v1/kyc/start", withdrawal("u-wait", 50_000)).await;
    let waiting_id = waiting["kyc_check_id"].as_str().unwrap().to_string();
    ok(call(gw, key, "POST", &format!("/v1/sandbox/kyc/{waiting_id}/submit"), json!({})).await, 202);
    ok(call(gw, key, "POST", &format!("/v1/kyc/{waiting_id}/token"), json!({})).await, 200);
    let (_, hit) = call(gw, key, "POST", "/v1/sanctions/screen", person("u-hit", "SanctionedSam")).await;
    let case = hit["case_id"].as_str().unwrap();
    ok(
        call(gw, admin, "POST", &format!("/v1/admin/sanctions/cases/{case}/review"), json!({ "decision": "dismiss", "reviewer": "analyst-7" })).await,
        200,
    );
    // a case decided through the case model: its user claimed with the case file in one batch
    let (_, hit) = call(gw, key, "POST", "/v1/sanctions/screen", person("u-case", "SanctionedSam")).await;
    let case = hit["case_id"].as_str().unwrap();
    let proposal = json!({ "outcome": "true_match", "reason": "the listed person" });
    ok(call(gw, admin, "POST", &format!("/v1/admin/cases/{case}/proposal"), proposal).await, 200);
    // the due work: the raised limit goes live, the untouched check is abandoned, and a quarter on, everyone is screened again
    let cash = json!({ "transaction_id": "aml-1", "user_id": "u-1", "event_type": "deposit", "amount_cents": 1_000_001, "currency": "USD", "payment_method": "cash" });
    ok(call(gw, key, "POST", "/v1/aml/event", cash).await, 202);
    // the end of a relationship, an erasure asked (held), and, under a profile whose law deletes, one the sweep
    // opens unasked years on
    let (_, gb) = call(gw, admin, "POST", "/v1/admin/tenants", json!({ "name": "gb", "environment": "sandbox", "jurisdiction": "GB" })).await;
    let gb = gb["api_key"].as_str().unwrap().to_string();
    ok(call(gw, &gb, "POST", "/v1/sanctions/screen", person("u-gone", "Ed")).await, 201);
    ok(call(gw, &gb, "POST", "/v1/users/u-gone/close", json!({})).await, 200);
    ok(call(gw, key, "POST", "/v1/sanctions/screen", person("u-asked", "Flo")).await, 201);
    ok(call(gw, key, "POST", "/v1/users/u-asked/erasure", json!({})).await, 202);
    ok(call(gw, key, "POST", "/v1/sandbox/clock", json!({ "advance_seconds": 40 * 86_400 })).await, 200);
    ok(call(gw, key, "POST", "/v1/sandbox/clock", json!({ "advance_seconds": 60 * 86_400 })).await, 200);
    for _ in 0..2 {
        ok(call(gw, key, "POST", "/v1/sandbox/clock", json!({ "advance_seconds": 3_650 * 86_400 })).await, 200);
        ok(call(gw, &gb, "POST", "/v1/sandbox/clock", json!({ "advance_seconds": 3_650 * 86_400 })).await, 200);
    }

    let batches = h.store.committed.lock().unwrap().clone();
    let erasing = |sql: &str| batches.iter().flatten().filter(|s| s.sql.split_whitespace().collect::<Vec<_>>().join(" ").starts_with(sql)).count();
    assert!(erasing("UPDATE users SET closed_at") >= 2, "the walk closed no relationship");
    assert!(erasing("UPDATE users SET restricted_at") >= 2, "the walk restricted no player asked and unasked");
    let unasked = batches.iter().flatten().filter(|s| s.sql.contains("INSERT INTO erasures") && s.params.contains(&Value::from("retention"))).count();
    assert!(unasked >= 1, "the sweep opened no job unasked");
    assert!(erasing("UPDATE users SET email = ?4, first_name = ''") >= 1, "the sweep redacted no player");
    let written: std::collections::BTreeSet<&str> = batches.iter().flatten().filter_map(|s| user_table_written(s.sql)).collect();
    assert_eq!(written.len(), USER_TABLES.len(), "the walk must write every user table: {written:?}");
    let rescreened = batches.iter().flatten().filter(|s| s.sql.contains("last_screened_at = ?") && s.sql.starts_with("UPDATE users")).count();
    assert!(rescreened >= 3, "the quarter's re-screen did not run");
    let unclaimed = unclaimed_user_writes(&batches);
    assert!(unclaimed.is_empty(), "user writes without a claim: {unclaimed:#?}");
}

/// Screens a clear user of the host's tenant.
async fn sign_up(h: &Host, user_id: &str) {
    let person = json!({ "user_id": user_id, "first_name": "Ann", "last_name": "Lee", "date_of_birth": "1990-04-01", "nationality": "GB", "email": format!("{user_id}@example.com") });
    assert_eq!(call(&h.gateway, &h.key, "POST", "/v1/sanctions/screen", person).await.0, 201);
}

/// The decisions logged for a user (or, with an empty user, a tenant), flushed first.
async fn decisions(h: &Host, tenant_id: &str, user_id: &str) -> Vec<Json> {
    h.gateway.flush_decisions().await.unwrap();
    let user = if user_id.is_empty() { String::new() } else { format!("&user_id={user_id}") };
    let path = format!("/v1/admin/decisions?tenant_id={tenant_id}{user}&limit=1000");
    let (status, body) = call(&h.gateway, &h.admin, "GET", &path, Json::Null).await;
    assert_eq!(status, 200, "{body}");
    body["decisions"].as_array().cloned().unwrap_or_default()
}

fn operations(list: &[Json]) -> Vec<&str> {
    list.iter().filter_map(|d| d["operation"].as_str()).collect()
}

/// "Every rules decision is logged": a deposit check that breaches asks the
/// rules twice (the second time with the single deposits), and both answers are logged.
#[tokio::test]
async fn both_decisions_of_a_breach_are_logged() {
    let h = host().await;
    let (gw, key) = (&h.gateway, h.key.as_str());
    sign_up(&h, "u-1").await;
    let at = chrono::DateTime::from_timestamp(START, 0).unwrap().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let limit = json!({ "user_id": "u-1", "limit_type": "limit_daily", "amount_cents": 10_000, "currency": "USD", "requested_at": at });
    assert_eq!(call(gw, key, "POST", "/v1/limits", limit).await.0, 201);
    let deposit = json!({ "transaction_id": "tx-1", "user_id": "u-1", "amount_cents": 6_000, "currency": "USD" });
    assert_eq!(call(gw, key, "POST", "/v1/limits/commit", deposit).await.0, 201);
    let tenant = h.tenant_id.clone();
    let before = operations(&decisions(&h, &tenant, "u-1").await).iter().filter(|o| **o == "deposit").count();

    // the twin: a check within the limit is one decision
    let (_, within) = call(gw, key, "POST", "/v1/limits/check", json!({ "user_id": "u-1", "amount_cents": 1_000, "currency": "USD" })).await;
    assert_eq!(within["allowed"], json!(true));
    let after_within = operations(&decisions(&h, &tenant, "u-1").await).iter().filter(|o| **o == "deposit").count();
    assert_eq!(after_within, before + 1);

    let (_, breach) = call(gw, key, "POST", "/v1/limits/check", json!({ "user_id": "u-1", "amount_cents": 6_000, "currency": "USD" })).await;
    assert_eq!(breach["allowed"], json!(false), "{breach}");
    let after_breach = operations(&decisions(&h, &tenant, "u-1").await).iter().filter(|o| **o == "deposit").count();
    assert_eq!(after_breach, after_within + 2, "a breach is two rules calls, each logged");
}

/// Stored sums stay within ±(2^53 − 1): a deposit that would carry its
/// hour's sum past it is refused, and the next hour starts again.
#[tokio::test]
async fn an_hours_deposit_sum_never_passes_what_stores_keep_exactly() {
    let h = host().await;
    let (gw, key) = (&h.gateway, h.key.as_str());
    sign_up(&h, "u-1").await;
    let deposit = |tx: &str, cents: i64| json!({ "transaction_id": tx, "user_id": "u-1", "amount_cents": cents, "currency": "USD" });
    let (max, largest) = (gateway::ports::MAX_STORED_INTEGER, rules::MAX_AMOUNT_CENTS);
    for i in 0..9 {
        assert_eq!(call(gw, key, "POST", "/v1/limits/commit", deposit(&format!("tx-{i}"), largest)).await.0, 201);
    }
    // up to the bound exactly, then one cent past it
    assert_eq!(call(gw, key, "POST", "/v1/limits/commit", deposit("tx-fill", max - 9 * largest)).await.0, 201);
    let (status, body) = call(gw, key, "POST", "/v1/limits/commit", deposit("tx-over", 1)).await;
    assert_eq!((status, code(&body)), (400, Some("invalid_amount")), "{body}");
    // the twin: the next hour has room again
    assert_eq!(call(gw, key, "POST", "/v1/sandbox/clock", json!({ "advance_seconds": 3_600 })).await.0, 200);
    assert_eq!(call(gw, key, "POST", "/v1/limits/commit", deposit("tx-over", 1)).await.0, 201);
}

/// Scheduled decisions are logged under the environment and tenant they
/// decide for, never as the sandbox's with no tenant.
#[tokio::test]
async fn due_work_is_logged_under_its_tenant() {
    let h = host().await;
    let (gw, key) = (&h.gateway, h.key.as_str());
    sign_up(&h, "u-1").await;
    let at = chrono::DateTime::from_timestamp(START, 0).unwrap().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let limit = |cents: i64| json!({ "user_id": "u-1", "limit_type": "limit_daily", "amount_cents": cents, "currency": "USD", "requested_at": at });
    assert_eq!(call(gw, key, "POST", "/v1/limits", limit(10_000)).await.0, 201);
    assert_eq!(call(gw, key, "POST", "/v1/limits", limit(20_000)).await.0, 201);
    assert_eq!(call(gw, key, "POST", "/v1/sandbox/clock", json!({ "advance_seconds": 2 * 86_400 })).await.0, 200);
    let tenant = h.tenant_id.clone();
    let own = decisions(&h, &tenant, "").await;
    let due: Vec<&Json> = own.iter().filter(|d| d["operation"] == "due_now").collect();
    assert!(!due.is_empty(), "no due-work decision under the tenant: {:?}", operations(&own));
    assert!(due.iter().all(|d| d["environment"] == "sandbox" && d["tenant_id"] == tenant.as_str()), "{due:?}");
    // the twin: no due-work decision is logged without a tenant
    let (_, all) = call(gw, &h.admin, "GET", "/v1/admin/decisions?limit=1000", Json::Null).await;
    let orphans = all["decisions"].as_array().unwrap().iter().filter(|d| d["operation"] == "due_now" && d["tenant_id"] == "").count();
    assert_eq!(orphans, 0);
}

/// A sender that takes a while to answer and counts the sends in flight.
#[derive(Clone, Default)]
struct Slow {
    in_flight: Arc<std::sync::atomic::AtomicUsize>,
    most: Arc<std::sync::atomic::AtomicUsize>,
    sent: Arc<std::sync::atomic::AtomicUsize>,
}

#[async_trait::async_trait]
impl gateway::ports::WebhookSender for Slow {
    async fn post(&self, _url: &str, _headers: &[(String, String)], _body: &[u8]) -> gateway::ports::SendOutcome {
        use std::sync::atomic::Ordering::SeqCst;
        let now = self.in_flight.fetch_add(1, SeqCst) + 1;
        self.most.fetch_max(now, SeqCst);
        tokio::time::sleep(std::time::Duration::from_millis(40)).await;
        self.in_flight.fetch_sub(1, SeqCst);
        self.sent.fetch_add(1, SeqCst);
        gateway::ports::SendOutcome::Answered { status: 200, retry_after: None }
    }
}

/// Sends an event to `endpoints` endpoints in one round with `concurrency`;
/// answers the most sends in flight at once, and the deliveries sent.
async fn most_in_flight(concurrency: usize, endpoints: usize) -> (usize, usize) {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("g.db").display());
    let sender = Slow::default();
    let work = gateway::WorkLimits { delivery_concurrency: concurrency, ..gateway::WorkLimits::default() };
    let config = Config { secret_keys: Some(gateway::sealing::SecretKeys::new([3u8; 32], vec![])), work, ..Config::default() };
    let gateway = Gateway::new(
        host_native::open_store(&url).await.unwrap(),
        Box::new(ComponentRules::embedded().unwrap()),
        Box::new(TestClock(Arc::new(AtomicI64::new(START)))),
        Box::new(OsIds),
        config,
    )
    .with_webhooks(Box::new(sender.clone()), Box::new(NoWake));
    gateway.migrate().await.unwrap();
    let admin = gateway.create_admin_key(Environment::Sandbox).await.unwrap();
    let (_, tenant) = call(&gateway, &admin, "POST", "/v1/admin/tenants", json!({ "name": "t", "environment": "sandbox" })).await;
    let key = tenant["api_key"].as_str().unwrap().to_string();
    for i in 0..endpoints {
        call(&gateway, &key, "POST", "/v1/webhooks", json!({ "url": format!("http://127.0.0.1:9/hooks/{i}") })).await;
    }
    call(&gateway, &admin, "POST", "/v1/admin/exclusions/regulator-import", json!({ "entries": [{ "email": "one@example.com" }] })).await;
    let report = gateway.deliver_webhooks().await.unwrap();
    // each endpoint hears each event of the import
    assert!(report.attempted >= endpoints, "{} attempted", report.attempted);
    assert_eq!(sender.sent.load(std::sync::atomic::Ordering::SeqCst), report.attempted, "every claimed delivery is sent");
    (sender.most.load(std::sync::atomic::Ordering::SeqCst), report.attempted)
}

/// A delivery round never has more sends in flight than its concurrency
/// (the edge's six connections), so each send's time limit measures its
/// endpoint, not a queue behind slower ones; the twin shows the count sees
/// every send in flight when the bound allows it.
#[tokio::test]
async fn a_delivery_round_sends_at_most_its_concurrency_at_once() {
    assert_eq!(most_in_flight(2, 6).await.0, 2);
    let (most, sent) = most_in_flight(64, 6).await;
    assert_eq!(most, sent, "unbounded, every delivery of the round is in flight at once");
}

/// Sends a request; answers the status, the body and the `x-decision-id` it names.
async fn call_naming(gateway: &Gateway, key: &str, method: &str, path: &str, body: Json) -> (u16, Json, Option<String>) {
    let request = http::Request::builder()
        .method(method)
        .uri(path)
        .header("authorization", format!("Bearer {key}"))
        .header("content-type", "application/json")
        .body(body.to_string().into_bytes())
        .unwrap();
    let response = gateway.handle(request).await;
    let decision = response.headers().get("x-decision-id").and_then(|v| v.to_str().ok()).map(str::to_string);
    (response.status().as_u16(), serde_json::from_slice(response.body()).unwrap_or(Json::Null), decision)
}

/// "Every decision an answer names is logged": a refused withdrawal whose
/// write (the abandoned check it expires) lost a race is decided again from
/// fresh reads; it used to answer naming a decision that was never written.
#[tokio::test]
async fn a_refusal_that_loses_a_race_names_a_logged_decision() {
    for lose in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let inner = host_native::open_store(&format!("sqlite://{}", dir.path().join("db.sqlite").display())).await.unwrap();
        let store = FaultyStore { inner: Arc::from(inner), fail_on: Arc::default(), lose_once: Arc::default(), committed: Arc::default() };
        let clock = TestClock(Arc::new(AtomicI64::new(START)));
        let gateway_with = |config: Config| {
            Gateway::new(Box::new(store.clone()), Box::new(ComponentRules::embedded().unwrap()), Box::new(clock.clone()), Box::new(OsIds), config)
        };
        // production checks start while the vendor answers (stub tokens) ...
        let open = gateway_with(Config { production_vendors_configured: true, ..Config::default() });
        open.migrate().await.unwrap();
        let admin = open.create_admin_key(Environment::Production).await.unwrap();
        let (_, tenant) = call(&open, &admin, "POST", "/v1/admin/tenants", json!({ "name": "op", "environment": "production" })).await;
        let key = tenant["api_key"].as_str().unwrap().to_string();
        let person = json!({ "user_id": "u-1", "first_name": "Ann", "last_name": "Lee", "date_of_birth": "1990-04-01", "nationality": "GB", "email": "ann@example.com" });
        let (status, screened) = call(&open, &key, "POST", "/v1/sanctions/screen", person).await;
        assert_eq!(status, 201, "{screened}");
        let withdrawal =
            json!({ "user_id": "u-1", "email": "ann@example.com", "phone": "+44 7700 900123", "withdrawal_amount_cents": 50_000, "currency": "USD" });
        let (status, started) = call(&open, &key, "POST", "/v1/kyc/start", withdrawal.clone()).await;
        assert_eq!(status, 201, "{started}");
        // ... and after eight days unfinished, the next withdrawal expires the
        // check and asks for a new one, which a host without a vendor refuses
        clock.0.fetch_add(8 * 86_400, std::sync::atomic::Ordering::SeqCst);
        let closed = gateway_with(Config::default());
        if lose {
            *store.lose_once.lock().unwrap() = Some("UPDATE kyc_checks");
        }
        let (status, body, named) = call_naming(&closed, &key, "POST", "/v1/kyc/start", withdrawal).await;
        assert_eq!((status, code(&body)), (503, Some("vendor_unavailable")), "{body}");
        assert!(store.lose_once.lock().unwrap().is_none(), "the planted loss was not met");
        let named = named.expect("the refusal names its decision");
        closed.flush_decisions().await.unwrap();
        let (status, logged) = call(&closed, &admin, "GET", &format!("/v1/admin/decisions/{named}"), Json::Null).await;
        assert_eq!(status, 200, "lost race {lose}: the decision the refusal names was never logged: {logged}");
        // what the refusal still changes was written once: the check expired
        let kyc_check_id = started["kyc_check_id"].as_str().unwrap();
        let (_, check) = call(&closed, &key, "GET", &format!("/v1/kyc/status?kyc_check_id={kyc_check_id}"), Json::Null).await;
        assert_eq!(check["status"], "expired", "lost race {lose}: {check}");
    }
}

/// A store whose first `meet` reads holding the planted text wait for each
/// other before answering: that many requests read the same state, as
/// concurrent requests on a busy host do, before any of them writes.
#[derive(Clone)]
struct ReadsMeet {
    inner: Arc<dyn Store>,
    text: &'static str,
    meet: usize,
    seen: Arc<std::sync::atomic::AtomicUsize>,
    barrier: Arc<tokio::sync::Barrier>,
}

#[async_trait::async_trait]
impl Store for ReadsMeet {
    async fn query(&self, sql: &'static str, params: Vec<Value>) -> Result<Vec<Row>, StoreError> {
        self.inner.query(sql, params).await
    }
    async fn query_many(&self, reads: Vec<gateway::ports::Read>) -> Result<Vec<Vec<Row>>, StoreError> {
        let planted = reads.iter().any(|r| r.sql.contains(self.text));
        let rows = self.inner.query_many(reads).await?;
        if planted && self.seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst) < self.meet {
            self.barrier.wait().await;
        }
        Ok(rows)
    }
    async fn batch(&self, statements: Vec<Stmt>) -> Result<(), StoreError> {
        self.inner.batch(statements).await
    }
}

/// "The regulator's import claims each entry it inserts": imports that read
/// the register at the same time add each entry once (both inserted it
/// after both found it new); the one that lost is recomputed and skips it.
#[tokio::test]
async fn concurrent_regulator_imports_add_each_entry_once() {
    let dir = tempfile::tempdir().unwrap();
    let inner: Arc<dyn Store> = Arc::from(host_native::open_store(&format!("sqlite://{}", dir.path().join("db.sqlite").display())).await.unwrap());
    let imports = 3;
    let store = ReadsMeet {
        inner: inner.clone(),
        text: "source = ?2 AND email",
        meet: imports,
        seen: Arc::default(),
        barrier: Arc::new(tokio::sync::Barrier::new(imports)),
    };
    let clock = TestClock(Arc::new(AtomicI64::new(START)));
    let gw = Gateway::new(Box::new(store), Box::new(ComponentRules::embedded().unwrap()), Box::new(clock), Box::new(OsIds), Config::default());
    gw.migrate().await.unwrap();
    let admin = gw.create_admin_key(Environment::Sandbox).await.unwrap();
    let file = json!({ "entries": [
        { "email": "Listed@Example.com", "reference": "KGC-7" },
        { "phone": "+44 7700 900999" },
        // the same person twice in one file is one exclusion
        { "email": "listed@example.com", "phone": "+44 7700 900111" },
    ] });
    let import = || call(&gw, &admin, "POST", "/v1/admin/exclusions/regulator-import", file.clone());
    let answers = futures_util::future::join_all((0..imports).map(|_| import())).await;
    assert!(answers.iter().all(|(status, _)| *status == 200), "{answers:?}");
    let imported: Vec<i64> = answers.iter().map(|(_, body)| body["imported"].as_i64().unwrap()).collect();
    assert_eq!(imported.iter().sum::<i64>(), 2, "each entry is added by one import only: {answers:?}");
    let count = |sql: &'static str| inner.scalar(sql, vec![]);
    assert_eq!(count("SELECT COUNT(*) FROM exclusions WHERE email = 'listed@example.com'").await.unwrap(), 1);
    assert_eq!(count("SELECT COUNT(*) FROM exclusions WHERE phone IS NOT NULL").await.unwrap(), 1);
    // the twin: a later import with a new address adds it, and only it
    let (status, later) = call(
        &gw,
        &admin,
        "POST",
        "/v1/admin/exclusions/regulator-import",
        json!({ "entries": [
        { "email": "listed@example.com" }, { "email": "second@example.com" },
    ] }),
    )
    .await;
    assert_eq!((status, later["imported"].as_i64(), later["skipped"].as_i64()), (200, Some(1), Some(1)), "{later}");
}

/// The largest value of a stored column, read straight from the store.
async fn largest(h: &Host, sql: &'static str) -> i64 {
    let rows = h.store.inner.query(sql, vec![]).await.unwrap();
    rows.first().map(|r| r.int(0).unwrap()).unwrap_or(0)
}

/// AML sums stay within ±(2^53 − 1), the largest integer every store keeps
/// exactly (past it, D1 answered every later event of the user with a 500):
/// a bucket's and a pair's sums saturate there, and the events are still
/// decided and kept. The twin: below the bound, sums are exact.
#[tokio::test]
async fn aml_bucket_and_pair_sums_never_pass_what_stores_keep_exactly() {
    let h = host().await;
    let (gw, key) = (&h.gateway, h.key.as_str());
    sign_up(&h, "u-1").await;
    sign_up(&h, "u-2").await;
    let (max, largest_amount) = (gateway::ports::MAX_STORED_INTEGER, rules::MAX_AMOUNT_CENTS);
    let event = |tx: String, event_type: &str, cents: i64| {
        let mut e = json!({ "transaction_id": tx, "user_id": "u-1", "event_type": event_type, "amount_cents": cents, "currency": "USD", "payment_method": "card" });
        if event_type == "p2p_transfer" {
            e["counterparty_user_id"] = json!("u-2");
        }
        e
    };
    // the twin first: two events sum exactly
    for i in 0..2 {
        assert_eq!(call(gw, key, "POST", "/v1/aml/event", event(format!("small-{i}"), "deposit", 1_000)).await.0, 202);
    }
    assert_eq!(largest(&h, "SELECT MAX(in_cents) FROM aml_buckets").await, 2_000);
    let rounds = max / largest_amount + 2;
    for i in 0..rounds {
        for kind in ["deposit", "withdrawal", "wager", "win", "p2p_transfer"] {
            let (status, body) = call(gw, key, "POST", "/v1/aml/event", event(format!("{kind}-{i}"), kind, largest_amount)).await;
            assert_eq!(status, 202, "{kind} {i}: {body}");
        }
    }
    for (column, sql) in [
        ("in_cents", "SELECT MAX(in_cents) FROM aml_buckets"),
        ("out_cents", "SELECT MAX(out_cents) FROM aml_buckets"),
        ("wagered_cents", "SELECT MAX(wagered_cents) FROM aml_buckets"),
        ("won_cents", "SELECT MAX(won_cents) FROM aml_buckets"),
        ("pair cents", "SELECT MAX(cents) FROM aml_pairs"),
    ] {
        assert_eq!(largest(&h, sql).await, max, "{column} saturates at the bound");
    }
    // and the user's next event is decided as ever
    assert_eq!(call(gw, key, "POST", "/v1/aml/event", event("after".into(), "deposit", 1)).await.0, 202);
}

/// "Commit idempotency outlives deposit pruning": a `limits/commit` retried
/// after its deposit was pruned (31 days on) answers as the first time and
/// counts nothing again (it was committed a second time).
#[tokio::test]
async fn a_retried_commit_counts_once_after_its_deposit_is_pruned() {
    let h = host().await;
    let (gw, key) = (&h.gateway, h.key.as_str());
    sign_up(&h, "u-1").await;
    let deposit = |tx: &str, cents: i64| json!({ "transaction_id": tx, "user_id": "u-1", "amount_cents": cents, "currency": "USD" });
    let (status, first) = call(gw, key, "POST", "/v1/limits/commit", deposit("tx-1", 5_000)).await;
    assert_eq!(status, 201, "{first}");
    let deposits = || h.store.inner.scalar("SELECT COUNT(*) FROM deposits", vec![]);
    assert_eq!(deposits().await.unwrap(), 1);
    // forty days on, no window reads the deposit and the sweep prunes it
    h.clock.0.fetch_add(40 * 86_400, std::sync::atomic::Ordering::SeqCst);
    h.gateway.run_scheduled().await.unwrap();
    assert_eq!(deposits().await.unwrap(), 0, "the sweep did not prune the deposit");
    let (status, again) = call(gw, key, "POST", "/v1/limits/commit", deposit("tx-1", 5_000)).await;
    assert_eq!((status, &again), (200, &first), "a retry is the first answer again");
    assert_eq!(deposits().await.unwrap(), 0, "the retry was counted again");
    let (status, body) = call(gw, key, "POST", "/v1/limits/commit", deposit("tx-1", 7_000)).await;
    assert_eq!((status, code(&body)), (409, Some("transaction_conflict")), "{body}");
    // the twin: a new transaction is committed and counts
    assert_eq!(call(gw, key, "POST", "/v1/limits/commit", deposit("tx-2", 5_000)).await.0, 201);
    assert_eq!(deposits().await.unwrap(), 1);
}
