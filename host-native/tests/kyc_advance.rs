//! `compliance-gateway kyc advance`: the stub vendor's verdict on a sandbox
//! check awaiting review, given from the command line, through the rules,
//! logged, audited and with its reason kept; on SQLite and Postgres.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod support;
use support::call;

use std::process::Command;

use gateway::auth::Environment;
use gateway::{Config, Gateway};
use host_native::rules_engine::ComponentRules;
use host_native::{open_store, OsIds, SystemClock};
use serde_json::{json, Value as Json};

const BIN: &str = env!("CARGO_BIN_EXE_compliance-gateway");

fn advance(db: &str, args: &[&str]) -> (bool, String, String) {
    let out = Command::new(BIN).args(["kyc", "advance"]).args(args).args(["--database", db]).output().unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// A sandbox check of `user` for a withdrawal above tier_0, submitted or not.
async fn check(gateway: &Gateway, key: &str, user: &str, submit: bool) -> String {
    let person = json!({ "user_id": user, "first_name": "Ann", "last_name": "Lee", "date_of_birth": "1990-01-01", "nationality": "GB",
                         "email": format!("{user}@example.com") });
    assert_eq!(call(gateway, key, "POST", "/v1/sanctions/screen", person).await.0, 201);
    let start = json!({ "user_id": user, "email": format!("{user}@example.com"), "phone": "+447700900123", "withdrawal_amount_cents": 50_000,
                        "currency": "USD" });
    let (status, started) = call(gateway, key, "POST", "/v1/kyc/start", start).await;
    assert_eq!(status, 201, "{started}");
    let id = started["kyc_check_id"].as_str().unwrap().to_string();
    if submit {
        let (status, submitted) = call(gateway, key, "POST", &format!("/v1/sandbox/kyc/{id}/submit"), Json::Null).await;
        assert_eq!((status, submitted["status"].clone()), (202, json!("pending_review")), "{submitted}");
    }
    id
}

async fn advance_moves_a_check_through_the_rules(db: &str) {
    let gateway = Gateway::new(
        open_store(db).await.unwrap(),
        Box::new(ComponentRules::embedded().unwrap()),
        Box::new(SystemClock),
        Box::new(OsIds),
        Config::default(),
    );
    gateway.migrate().await.unwrap();
    let admin = gateway.create_admin_key(Environment::Sandbox).await.unwrap();
    let (_, tenant) = call(&gateway, &admin, "POST", "/v1/admin/tenants", json!({ "name": "t", "environment": "sandbox" })).await;
    let key = tenant["api_key"].as_str().unwrap().to_string();
    let waiting = check(&gateway, &key, "u-review", true).await;
    let unsubmitted = check(&gateway, &key, "u-started", false).await;

    let (ok, out, err) = advance(db, &[&waiting, "--to", "approved", "--reason", "documents checked by hand"]);
    assert!(ok, "{err}");
    let printed: Json = serde_json::from_str(out.trim()).unwrap();
    assert_eq!((printed["status"].clone(), printed["reason"].clone()), (json!("approved"), json!("documents checked by hand")));
    let (_, status) = call(&gateway, &key, "GET", &format!("/v1/kyc/status?kyc_check_id={waiting}"), Json::Null).await;
    assert_eq!(status["status"], "approved", "{status}");

    // The reason is kept and shown to the compliance team; the change is audited and its decision logged by the component.
    let (_, list) = call(&gateway, &admin, "GET", "/v1/admin/kyc/checks?status=approved", Json::Null).await;
    let row = list["checks"].as_array().unwrap().iter().find(|c| c["kyc_check_id"] == json!(waiting)).cloned().unwrap();
    assert_eq!((row["reviewer"].clone(), row["review_reason"].clone()), (json!("cli"), json!("documents checked by hand")));
    let (_, audit) = call(&gateway, &admin, "GET", "/v1/admin/audit", Json::Null).await;
    assert!(
        audit["entries"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["action"] == "kyc.advance" && e["actor_key_id"] == "cli" && e["resource"] == json!(waiting)),
        "{audit}"
    );
    let decision_id = printed["decision_id"].as_str().unwrap();
    let (status, decision) = call(&gateway, &admin, "GET", &format!("/v1/admin/decisions/{decision_id}"), Json::Null).await;
    assert_eq!((status, decision["operation"].clone()), (200, json!("kyc")));
    assert_eq!(decision["rules_sha256"].as_str().unwrap(), gateway::ports::Rules::identity(&ComponentRules::embedded().unwrap()).component_sha256);

    // Refused: a final check, a check not yet submitted, an unknown id, another verdict.
    let (ok, _, err) = advance(db, &[&waiting, "--to", "rejected"]);
    assert!(!ok && err.contains("invalid_state"), "{err}");
    let (ok, _, err) = advance(db, &[&unsubmitted, "--to", "approved"]);
    assert!(!ok && err.contains("invalid_state"), "{err}");
    let (ok, _, err) = advance(db, &["kyc_unknown", "--to", "approved"]);
    assert!(!ok && err.contains("not_found"), "{err}");
    let (ok, _, err) = advance(db, &[&unsubmitted, "--to", "maybe"]);
    assert!(!ok && err.contains("maybe"), "{err}");
    let (_, status) = call(&gateway, &key, "GET", &format!("/v1/kyc/status?kyc_check_id={unsubmitted}"), Json::Null).await;
    assert_eq!(status["status"], "in_progress", "unchanged: {status}");
}

#[tokio::test]
async fn kyc_advance_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    advance_moves_a_check_through_the_rules(&format!("sqlite://{}", dir.path().join("g.db").display())).await;
}

#[tokio::test]
async fn kyc_advance_on_postgres() {
    if let Some(db) = support::postgres_database("kyc_advance").await {
        advance_moves_a_check_through_the_rules(&db).await;
    }
}
