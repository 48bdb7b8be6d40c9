//! A flood of bad keys from one address: after the per-source limit, its
//! requests are refused unread (429 `too_many_failures`) until the minute is
//! over; another address with a good key is served throughout; the failures
//! are counted per source and minute instead of a row each.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod support;
use support::TestClock;

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use gateway::auth::Environment;
use gateway::pipeline::DEFAULT_AUTH_FAILURES_PER_SOURCE;
use gateway::{Config, Gateway};
use host_native::{open_store, OsIds};
use rules_library::LibraryRules;
use serde_json::{json, Value as Json};

#[tokio::test]
async fn a_flood_of_bad_keys_is_cut_off_per_source_and_counted_not_logged_row_by_row() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("g.db").display());
    let clock = TestClock(Arc::new(AtomicI64::new(1_800_000_000)));
    let gateway = Gateway::new(open_store(&url).await.unwrap(), Box::new(LibraryRules), Box::new(clock.clone()), Box::new(OsIds), Config::default());
    gateway.migrate().await.unwrap();
    let admin = gateway.create_admin_key(Environment::Sandbox).await.unwrap();
    let (_, tenant) = support::call_from(
        &gateway,
        Some("198.51.100.7"),
        &admin,
        "POST",
        "/v1/admin/tenants",
        json!({ "name": "t", "environment": "sandbox", "rate_limit_per_minute": 100_000 }),
    )
    .await;
    let good = tenant["api_key"].as_str().unwrap().to_string();

    let attacker = "203.0.113.9";
    let limit = DEFAULT_AUTH_FAILURES_PER_SOURCE as usize;
    let mut refused_unread = 0;
    for i in 0..limit * 3 {
        let bad = format!("cgw_sk_test_{:032}", i);
        let (status, body) = support::call_from(&gateway, Some(attacker), &bad, "GET", "/v1/exclusions/check?email=a@example.com", Json::Null).await;
        match (i < limit, status) {
            (true, 401) => {}
            (false, 429) => {
                assert_eq!(body["error"], "too_many_failures");
                refused_unread += 1;
            }
            other => panic!("request {i} from the flooding address: {other:?} {body}"),
        }
        // The operator with a good key, elsewhere, is served all along.
        if i % 20 == 0 {
            let (status, body) =
                support::call_from(&gateway, Some("198.51.100.7"), &good, "GET", "/v1/exclusions/check?email=a@example.com", Json::Null).await;
            assert_eq!(status, 200, "{body}");
        }
    }
    assert_eq!(refused_unread, limit * 2);
    // Even a good key is refused from the flooding address until the minute is over…
    assert_eq!(support::call_from(&gateway, Some(attacker), &good, "GET", "/v1/exclusions/check?email=a@example.com", Json::Null).await.0, 429);
    // …and served after it.
    clock.0.fetch_add(61, Ordering::SeqCst);
    assert_eq!(support::call_from(&gateway, Some(attacker), &good, "GET", "/v1/exclusions/check?email=a@example.com", Json::Null).await.0, 200);

    // The failures are one counted row, not a row each.
    let store = open_store(&url).await.unwrap();
    let rows = store.query("SELECT source, reason, failures FROM auth_failure_counts", vec![]).await.unwrap();
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(
        (rows[0].text(0).unwrap(), rows[0].text(1).unwrap(), rows[0].int(2).unwrap()),
        (attacker.to_string(), "unknown_key".to_string(), limit as i64)
    );
    let logged = store.scalar("SELECT COUNT(*) FROM audit_log WHERE action = 'authentication_failed'", vec![]).await.unwrap();
    assert_eq!(logged, 0, "failures without a tenant were logged row by row");
}

#[tokio::test]
async fn a_loopback_source_is_a_local_proxy_and_is_never_cut_off() {
    let clock = TestClock(Arc::new(AtomicI64::new(1_800_000_000)));
    let gateway =
        Gateway::new(open_store("sqlite://:memory:").await.unwrap(), Box::new(LibraryRules), Box::new(clock), Box::new(OsIds), Config::default());
    gateway.migrate().await.unwrap();
    let admin = gateway.create_admin_key(Environment::Sandbox).await.unwrap();
    for i in 0..DEFAULT_AUTH_FAILURES_PER_SOURCE as usize * 2 {
        let bad = format!("cgw_sk_test_{:032}", i);
        assert_eq!(support::call_from(&gateway, Some("127.0.0.1"), &bad, "GET", "/v1/rules", Json::Null).await.0, 401);
    }
    assert_eq!(support::call_from(&gateway, Some("127.0.0.1"), &admin, "GET", "/v1/rules", Json::Null).await.0, 200);
}
