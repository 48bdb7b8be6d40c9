//! `compliance-gateway aml backtest`: the stored events replayed through the
//! live component and a candidate (`build-rules --features candidate-for-tests`:
//! the default CTR threshold halved, the CDD amount raised). The candidate
//! adds CTR alerts and removes CDD ones; the live component against itself
//! changes nothing; the live replay reproduces the stored alerts; nothing is written.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod support;

use std::path::PathBuf;

use serde_json::{json, Value as Json};
use support::{cli, free_port, send, ServeProcess};

fn candidate() -> String {
    let path = std::env::var("CGW_CANDIDATE_COMPONENT")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/rules/candidate.wasm"));
    assert!(path.exists(), "build it with: target/release/build-rules --features candidate-for-tests --out target/rules/candidate.wasm");
    path.display().to_string()
}

fn typology<'a>(report: &'a Json, name: &str) -> &'a Json {
    report["typologies"].as_array().unwrap().iter().find(|t| t["typology"] == json!(name)).unwrap()
}

#[tokio::test]
async fn a_candidate_adds_and_removes_alerts_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let database = format!("sqlite://{}", dir.path().join("g.db").display());
    let admin = cli(&["admin-key", "create", "--environment", "sandbox", "--database", &database]);
    let server = ServeProcess::start(&database, free_port(), None).await;
    let base = server.base.clone();
    let (_, tenant) =
        send(&base, &admin, reqwest::Method::POST, "/v1/admin/tenants", Some(json!({ "name": "acme", "environment": "sandbox" }))).await;
    let key = tenant["api_key"].as_str().unwrap().to_string();
    let events = [
        // live: $2,500 by an unverified user is due diligence; the candidate asks it from $3,000
        ("u-card", 250_000, "card"),
        // live: $7,000 cash is no CTR; the candidate's threshold is $5,000
        ("u-cash", 700_000, "cash"),
        // both: an ordinary deposit
        ("u-small", 5_000, "card"),
    ];
    for (i, (user, cents, method)) in events.iter().enumerate() {
        let person = json!({ "user_id": user, "first_name": "Ann", "last_name": "Lee", "date_of_birth": "1980-01-01", "nationality": "GB", "email": format!("{user}@example.com") });
        assert_eq!(send(&base, &key, reqwest::Method::POST, "/v1/sanctions/screen", Some(person)).await.0, 201);
        let event = json!({ "transaction_id": format!("tx-{i}"), "user_id": user, "event_type": "deposit", "amount_cents": cents, "currency": "USD", "payment_method": method });
        assert_eq!(send(&base, &key, reqwest::Method::POST, "/v1/aml/event", Some(event)).await.0, 202);
    }
    let (_, before) = send(&base, &admin, reqwest::Method::GET, "/v1/admin/aml/alerts", None).await;
    let (_, decisions_before) = send(&base, &admin, reqwest::Method::GET, "/v1/admin/decisions?limit=1000", None).await;

    let report: Json = serde_json::from_str(&cli(&["aml", "backtest", "--rules", &candidate(), "--database", &database, "--json"])).unwrap();
    assert_eq!(report["events"], json!(3));
    assert_eq!(report["users"], json!(3));
    assert_eq!(report["live_replay_mismatches"], json!(0), "the live replay is not the store's: {report}");
    assert_ne!(report["live_rules_sha256"], report["candidate_rules_sha256"]);
    let ctr = typology(&report, "ctr_threshold");
    assert_eq!(
        (ctr["live_alerts"].as_u64(), ctr["candidate_alerts"].as_u64(), ctr["added"].as_u64(), ctr["removed"].as_u64()),
        (Some(0), Some(1), Some(1), Some(0)),
        "{report}"
    );
    let cdd = typology(&report, "cdd_threshold");
    assert_eq!((cdd["live_alerts"].as_u64(), cdd["removed"].as_u64()), (Some(2), Some(1)), "{report}");
    let velocity = typology(&report, "velocity");
    assert_eq!((velocity["added"].as_u64(), velocity["removed"].as_u64()), (Some(0), Some(0)));

    // the live component against itself: no change
    let live = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../rules/cgw_rules.wasm").display().to_string();
    let same: Json = serde_json::from_str(&cli(&["aml", "backtest", "--rules", &live, "--database", &database, "--json"])).unwrap();
    assert!(same["typologies"].as_array().unwrap().iter().all(|t| t["added"] == json!(0) && t["removed"] == json!(0)), "{same}");
    assert_eq!(same["outcomes_changed"], json!(0));
    // a window before the events, and another tenant: nothing replayed
    let none: Json =
        serde_json::from_str(&cli(&["aml", "backtest", "--rules", &candidate(), "--database", &database, "--json", "--to", "2000-01-01T00:00:00Z"]))
            .unwrap();
    assert_eq!(none["events"], json!(0));
    let other: Json =
        serde_json::from_str(&cli(&["aml", "backtest", "--rules", &candidate(), "--database", &database, "--json", "--tenant", "tn_other"])).unwrap();
    assert_eq!(other["events"], json!(0));
    // the text report names each typology
    let text = cli(&["aml", "backtest", "--rules", &candidate(), "--database", &database]);
    assert!(text.contains("ctr_threshold") && text.contains("added") && text.contains("3 events of 3 users"), "{text}");

    // writes nothing
    let (_, after) = send(&base, &admin, reqwest::Method::GET, "/v1/admin/aml/alerts", None).await;
    let (_, decisions_after) = send(&base, &admin, reqwest::Method::GET, "/v1/admin/decisions?limit=1000", None).await;
    assert_eq!(before, after);
    assert_eq!(decisions_before["decisions"].as_array().map(Vec::len), decisions_after["decisions"].as_array().map(Vec::len));
    // a file that is not a component is refused
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_compliance-gateway"))
        .args(["aml", "backtest", "--rules", "/dev/null", "--database", &database])
        .output()
        .unwrap();
    assert!(!out.status.success());
}

/// `serve --shadow-rules`: the candidate decides every AML event beside the
/// live rules and changes nothing; where it decides otherwise the
/// disagreement is recorded, where it agrees nothing is.
#[tokio::test]
async fn a_shadow_component_records_its_disagreements_only() {
    let dir = tempfile::tempdir().unwrap();
    let database = format!("sqlite://{}", dir.path().join("g.db").display());
    let admin = cli(&["admin-key", "create", "--environment", "sandbox", "--database", &database]);
    let shadow = candidate();
    let server = ServeProcess::start_with(&database, free_port(), None, &["--shadow-rules", &shadow], std::process::Stdio::null()).await;
    let base = server.base.clone();
    let (_, tenant) =
        send(&base, &admin, reqwest::Method::POST, "/v1/admin/tenants", Some(json!({ "name": "acme", "environment": "sandbox" }))).await;
    let key = tenant["api_key"].as_str().unwrap().to_string();
    let person = json!({ "user_id": "u-1", "first_name": "Ann", "last_name": "Lee", "date_of_birth": "1980-01-01", "nationality": "GB", "email": "u1@example.com" });
    assert_eq!(send(&base, &key, reqwest::Method::POST, "/v1/sanctions/screen", Some(person)).await.0, 201);
    let event = |tx: &str, cents: i64, method: &str| json!({ "transaction_id": tx, "user_id": "u-1", "event_type": "deposit", "amount_cents": cents, "currency": "USD", "payment_method": method });
    // the same decision under both: nothing recorded
    let (status, ordinary) = send(&base, &key, reqwest::Method::POST, "/v1/aml/event", Some(event("tx-1", 5_000, "card"))).await;
    assert_eq!((status, ordinary["outcome"].as_str()), (202, Some("approve")));
    let (_, none) = send(&base, &admin, reqwest::Method::GET, "/v1/admin/aml/shadow", None).await;
    assert_eq!(none["disagreements"], json!([]));
    // $7,000 cash: a CTR under the candidate's $5,000 threshold, not under the live $10,000
    let (status, cash) = send(&base, &key, reqwest::Method::POST, "/v1/aml/event", Some(event("tx-2", 700_000, "cash"))).await;
    assert_eq!(status, 202);
    let (_, alerts) = send(&base, &admin, reqwest::Method::GET, "/v1/admin/aml/alerts?user_id=u-1", None).await;
    let live_typologies = alerts["alerts"][0]["typologies"].as_array().cloned().unwrap_or_default();
    assert!(!live_typologies.contains(&json!("ctr_threshold")), "the shadow changed the live alert: {alerts}");
    let (_, found) = send(&base, &admin, reqwest::Method::GET, "/v1/admin/aml/shadow", None).await;
    let list = found["disagreements"].as_array().unwrap();
    assert_eq!(list.len(), 1, "{found}");
    assert_eq!(list[0]["aml_event_id"], cash["aml_event_id"]);
    assert!(list[0]["shadow_alert"].as_array().unwrap().contains(&json!("ctr_threshold")), "{found}");
    assert!(!list[0]["live_alert"].as_array().unwrap().contains(&json!("ctr_threshold")), "{found}");
    assert_eq!(list[0]["shadow_rules_sha256"].as_str().map(str::len), Some(64));
}
