//! Two hosts on one Postgres run scheduled work at the same moment: each due
//! item is done once, with one event, whichever host does it. Runs when
//! `CGW_TEST_POSTGRES_URL` names a server (the test gets its own database).
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod support;

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use gateway::auth::Environment;
use gateway::{Config, Gateway};
use host_native::rules_engine::ComponentRules;
use host_native::OsIds;
use serde_json::{json, Value as Json};
use support::{call, TestClock};

const START: i64 = 1_800_000_000;

async fn host(url: &str, clock: &TestClock) -> Gateway {
    host_with(url, clock, Config::default()).await
}

async fn host_with(url: &str, clock: &TestClock, config: Config) -> Gateway {
    let store = host_native::open_store(url).await.unwrap();
    let gateway = Gateway::new(store, Box::new(ComponentRules::embedded().unwrap()), Box::new(clock.clone()), Box::new(OsIds), config);
    gateway.migrate().await.unwrap();
    gateway
}

async fn events(url: &str, event: &str) -> i64 {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(connection);
    client.query_one("SELECT COUNT(*) FROM outbox WHERE event = $1", &[&event]).await.unwrap().get(0)
}

fn iso(unix: i64) -> String {
    chrono::DateTime::from_timestamp(unix, 0).unwrap().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

#[tokio::test]
async fn due_work_is_done_once_when_two_hosts_run_it_at_once() {
    let Some(url) = support::postgres_database("cgw_two_hosts").await else { return };
    let clock = TestClock(Arc::new(AtomicI64::new(START)));
    let (a, b) = (host(&url, &clock).await, host(&url, &clock).await);
    let admin = a.create_admin_key(Environment::Sandbox).await.unwrap();
    let (_, tenant) =
        call(&a, &admin, "POST", "/v1/admin/tenants", json!({ "name": "op", "environment": "sandbox", "rate_limit_per_minute": 1000 })).await;
    let key = tenant["api_key"].as_str().unwrap().to_string();

    // Ten users, each with a pending limit increase and a 24-hour exclusion.
    for i in 0..10 {
        let user = format!("u-{i}");
        let person = json!({ "user_id": user, "first_name": "Ann", "last_name": "Lee", "date_of_birth": "1990-04-01", "nationality": "GB", "email": format!("{user}@example.com") });
        assert_eq!(call(&b, &key, "POST", "/v1/sanctions/screen", person).await.0, 201);
        let limit = |amount: i64| json!({ "user_id": user, "limit_type": "limit_daily", "amount_cents": amount, "currency": "USD", "requested_at": iso(START) });
        assert_eq!(call(&a, &key, "POST", "/v1/limits", limit(10_000)).await.0, 201);
        let (status, raised) = call(&b, &key, "POST", "/v1/limits", limit(15_000)).await;
        assert_eq!((status, raised["status"].as_str()), (201, Some("pending")), "{raised}");
        let exclusion = json!({ "user_id": user, "email": format!("{user}@example.com"), "duration": "duration_24h", "reason": "self_initiated", "initiated_at": iso(START) });
        assert_eq!(call(&a, &key, "POST", "/v1/exclusions", exclusion).await.0, 201);
    }
    assert_eq!((events(&url, "limit.activated").await, events(&url, "exclusion.expired").await), (0, 0));

    // A day and a bit later, both hosts run the due work at the same moment, twice.
    clock.0.store(START + 86_400 + 60, Ordering::SeqCst);
    // What each host says it did adds up to each item once, whoever won it.
    let (mut activated, mut expired, mut snapshots) = (0, 0, 0);
    for _ in 0..3 {
        let (ra, rb) = tokio::join!(a.run_scheduled(), b.run_scheduled());
        // a host that lost a race may fail its round; it never does the work twice
        let done: Vec<_> = [ra, rb].into_iter().filter_map(Result::ok).collect();
        assert!(!done.is_empty(), "neither host finished its round");
        for report in done {
            (activated, expired, snapshots) =
                (activated + report.limits_activated, expired + report.exclusions_expired, snapshots + report.snapshots_taken);
        }
    }
    assert_eq!((activated, expired), (10, 10), "the hosts' reports count an item twice or miss one");
    assert_eq!(snapshots, 2, "one daily snapshot per environment");
    assert_eq!(events(&url, "limit.activated").await, 10, "each increase activated once");
    assert_eq!(events(&url, "exclusion.expired").await, 10, "each expiry announced once");
    let (_, listed) = call(&a, &key, "GET", "/v1/limits?user_id=u-3", Json::Null).await;
    assert_eq!(listed["limits"][0]["amount_cents"], 15_000, "{listed}");
}

/// A production key is read from the store at most once a second per host:
/// revoking it, or suspending its tenant, refuses it at once on the host
/// that did it and on every other host within a second. Sandbox keys are
/// read every time (their tenant's test clock must move on every host).
#[tokio::test]
async fn a_revocation_reaches_every_host_within_a_second() {
    let Some(url) = support::postgres_database("cgw_key_cache").await else { return };
    let clock = TestClock(Arc::new(AtomicI64::new(START)));
    let (a, b) = (host(&url, &clock).await, host(&url, &clock).await);
    for environment in [Environment::Production, Environment::Sandbox] {
        let admin = a.create_admin_key(environment).await.unwrap();
        let tenant_body = json!({ "name": "op", "environment": environment.as_str(), "rate_limit_per_minute": 1000 });
        let (_, first) = call(&a, &admin, "POST", "/v1/admin/tenants", tenant_body.clone()).await;
        let (_, second) = call(&a, &admin, "POST", "/v1/admin/tenants", tenant_body).await;
        let key_id = first["key_id"].as_str().unwrap().to_string();
        let (key, other_key) = (first["api_key"].as_str().unwrap().to_string(), second["api_key"].as_str().unwrap().to_string());
        let other_tenant = second["tenant_id"].as_str().unwrap().to_string();
        // Both hosts have used both keys this second.
        for g in [&a, &b] {
            assert_eq!(call(g, &key, "GET", "/v1/webhooks", Json::Null).await.0, 200);
            assert_eq!(call(g, &other_key, "GET", "/v1/webhooks", Json::Null).await.0, 200);
        }
        assert_eq!(call(&a, &admin, "DELETE", &format!("/v1/admin/keys/{key_id}"), Json::Null).await.0, 200);
        assert_eq!(call(&a, &admin, "POST", &format!("/v1/admin/tenants/{other_tenant}/suspend"), json!({})).await.0, 200);
        // The host that acted refuses both at once.
        assert_eq!(call(&a, &key, "GET", "/v1/webhooks", Json::Null).await.0, 401);
        assert_eq!(call(&a, &other_key, "GET", "/v1/webhooks", Json::Null).await.0, 401);
        // The other host: a production key it read this second still passes
        // until the second is over; a sandbox key is refused at once.
        let stale = match environment {
            Environment::Production => 200,
            Environment::Sandbox => 401,
        };
        assert_eq!(call(&b, &key, "GET", "/v1/webhooks", Json::Null).await.0, stale, "{environment:?}");
        assert_eq!(call(&b, &other_key, "GET", "/v1/webhooks", Json::Null).await.0, stale, "{environment:?}");
        clock.0.fetch_add(1, Ordering::SeqCst);
        assert_eq!(call(&b, &key, "GET", "/v1/webhooks", Json::Null).await.0, 401);
        assert_eq!(call(&b, &other_key, "GET", "/v1/webhooks", Json::Null).await.0, 401);
    }
}

/// A list change, and then the quarter, re-screen each user once when two
/// hosts run the re-screens at the same moment: a list change's batch is
/// claimed before anyone in it is screened, and a periodic re-screen passes
/// over a user screened since the round read them, so no player's screening
/// is decided (and logged) twice. The twin: every user is screened, whichever
/// host won.
#[tokio::test]
async fn a_list_change_and_the_quarter_screen_each_user_once_when_two_hosts_run_them_at_once() {
    let Some(url) = support::postgres_database("cgw_two_hosts_rescreen").await else { return };
    let clock = TestClock(Arc::new(AtomicI64::new(START)));
    // seven users a round: the list change's cursor moves across batches
    let config = || Config { work: gateway::WorkLimits { scheduled_batch: 7, ..gateway::WorkLimits::default() }, ..Config::default() };
    let (a, b) = (host_with(&url, &clock, config()).await, host_with(&url, &clock, config()).await);
    let admin = a.create_admin_key(Environment::Sandbox).await.unwrap();
    let (_, tenant) =
        call(&a, &admin, "POST", "/v1/admin/tenants", json!({ "name": "op", "environment": "sandbox", "rate_limit_per_minute": 1000 })).await;
    let key = tenant["api_key"].as_str().unwrap().to_string();
    // the rules are seen live before anyone signs up: no re-screen for a rules change is due
    a.run_scheduled().await.unwrap();
    for i in 0..40 {
        let user = format!("u-{i:02}");
        let person = json!({ "user_id": user, "first_name": "Ann", "last_name": "Lee", "date_of_birth": "1990-04-01", "nationality": "GB", "email": format!("{user}@example.com") });
        assert_eq!(call(&a, &key, "POST", "/v1/sanctions/screen", person).await.0, 201);
    }
    let screenings = || async {
        let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await.unwrap();
        tokio::spawn(connection);
        client.query_one("SELECT COUNT(*) FROM decisions WHERE operation = 'screening'", &[]).await.unwrap().get::<_, i64>(0)
    };
    let at_signup = screenings().await;
    assert_eq!(at_signup, 40, "one screening decision a signup");
    support::import_an_unrelated_entry(&a, Environment::Sandbox).await;
    clock.0.fetch_add(1, Ordering::SeqCst);
    rounds_at_once(&a, &b, 12).await;
    assert_eq!(screenings().await - at_signup, 40, "a user was re-screened twice, or not at all, after the list change");

    // a quarter and two days on, the periodic re-screen: once a user, whichever host does it
    let before_quarter = screenings().await;
    clock.0.fetch_add(92 * 86_400, Ordering::SeqCst);
    rounds_at_once(&a, &b, 12).await;
    assert_eq!(screenings().await - before_quarter, 40, "a user was re-screened twice, or not at all, in the periodic round");
}

/// `rounds` of both hosts' scheduled work at the same moment; a user a host
/// passes over (another screened them) is not a failed re-screen.
async fn rounds_at_once(a: &Gateway, b: &Gateway, rounds: usize) {
    for _ in 0..rounds {
        let (ra, rb) = tokio::join!(a.run_scheduled(), b.run_scheduled());
        assert!(ra.is_ok() || rb.is_ok(), "neither host finished its round: {ra:?} {rb:?}");
        let errors: usize = [ra, rb].into_iter().filter_map(Result::ok).map(|r| r.rescreen_errors).sum();
        assert_eq!(errors, 0, "a re-screen failed");
    }
}
