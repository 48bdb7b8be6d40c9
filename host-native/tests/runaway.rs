//! A rules component that never returns is stopped by the host's time bound:
//! the check answers 503 `rules_unavailable`, other requests carry on, and
//! the next call gets a fresh instance. The runaway component is a test
//! double built by `build-rules --features runaway-for-tests`
//! (`decide-deposit` loops); `scripts/test.sh` builds it first.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod support;
use support::call;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use gateway::auth::Environment;
use gateway::ports::Rules;
use gateway::{Config, Gateway};
use host_native::rules_engine::{ComponentRules, CALL_DEADLINE};
use host_native::{open_store, OsIds, SystemClock};
use serde_json::{json, Value as Json};

fn runaway_component() -> ComponentRules {
    let path = std::env::var("CGW_RUNAWAY_RULES")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/rules/runaway.wasm"));
    ComponentRules::load(&path)
        .unwrap_or_else(|e| panic!("{e}; build it with: target/release/build-rules --features runaway-for-tests --out target/rules/runaway.wasm"))
}

#[tokio::test]
async fn a_looping_component_is_stopped_and_the_service_carries_on() {
    let rules = runaway_component();
    let gateway =
        Gateway::new(open_store("sqlite://:memory:").await.unwrap(), Box::new(rules), Box::new(SystemClock), Box::new(OsIds), Config::default());
    gateway.migrate().await.unwrap();
    let admin = gateway.create_admin_key(Environment::Sandbox).await.unwrap();
    let (_, tenant) = call(&gateway, &admin, "POST", "/v1/admin/tenants", json!({ "name": "t", "environment": "sandbox" })).await;
    let key = tenant["api_key"].as_str().unwrap().to_string();
    let identity = json!({ "user_id": "u-1", "first_name": "Ann", "last_name": "Lee", "date_of_birth": "1990-01-01", "nationality": "GB", "email": "a@example.com" });
    assert_eq!(call(&gateway, &key, "POST", "/v1/sanctions/screen", identity).await.0, 201);

    for round in 0..2 {
        let started = Instant::now();
        let (status, body) =
            call(&gateway, &key, "POST", "/v1/limits/check", json!({ "user_id": "u-1", "amount_cents": 100, "currency": "USD" })).await;
        let took = started.elapsed();
        assert_eq!((status, body["error"].as_str()), (503, Some("rules_unavailable")), "round {round}: {body}");
        // Stopped by the bound, not by chance: generous for a loaded machine, finite.
        assert!(took < Duration::from_secs(5), "round {round}: the loop ran {took:?}");
        eprintln!("round {round}: a looping decision was stopped after {took:?} (bound {CALL_DEADLINE:?})");
        // A trap leaves a fresh instance: other decisions of the same component answer.
        let (status, tier) = call(&gateway, &key, "GET", "/v1/kyc/tier?user_id=u-1", Json::Null).await;
        assert_eq!(status, 200, "{tier}");
    }
}

#[test]
fn the_audited_component_is_not_the_runaway_double() {
    let audited = ComponentRules::embedded().unwrap();
    let facts = rules::DepositFacts {
        now: 0,
        sanctions: rules::SanctionsStatus::Clear,
        exclusions: vec![],
        limits: vec![],
        totals: vec![],
        deposits: Some(rules::Deposits::default()),
        amount_cents: 100,
        verified: rules::KycTier::Tier0,
        aml: rules::AmlStanding::default(),
        jurisdiction: "default".into(),
        rates: vec![],
        registers: vec![],
    };
    assert!(audited.decide_deposit(&facts).is_ok());
    assert_ne!(audited.identity().component_sha256, runaway_component().identity().component_sha256);
}
