//! Production identity verification through Sumsub, against a stand-in on
//! loopback written from Sumsub's public API documentation: it checks every
//! request's signature, creates applicants and issues SDK tokens. Status
//! webhooks are signed here as Sumsub signs them.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod support;

use std::collections::HashSet;
use std::sync::atomic::AtomicI64;
use std::sync::{Arc, Mutex};

use gateway::auth::Environment;
use gateway::lists::{parse, ListFormat};
use gateway::vendors::sumsub::{SumsubConfig, TierLevels};
use gateway::{Config, Gateway};
use hmac::{Hmac, Mac};
use host_native::rules_engine::ComponentRules;
use host_native::webhooks::VendorClient;
use host_native::OsIds;
use serde_json::{json, Value as Json};
use sha2::Sha256;
use support::{call, loopback_server, Received, TestClock};

const APP_TOKEN: &str = "sbx:app-token";
const SECRET_KEY: &str = "api-secret";
const WEBHOOK_SECRET: &str = "webhook-secret";
/// Each tier's level, tier_1 to tier_4, as an operator configures them in Sumsub.
const LEVELS: [&str; 4] = ["basic-kyc-level", "id-and-liveness", "proof-of-address", "source-of-funds"];

fn hmac_hex(key: &str, parts: &[&[u8]]) -> String {
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key.as_bytes()).unwrap();
    for part in parts {
        mac.update(part);
    }
    hex::encode(mac.finalize().into_bytes())
}

/// The stand-in's state: whether it fails, and the applicants it holds (by externalUserId).
#[derive(Default)]
struct Standin {
    failing: bool,
    applicants: HashSet<String>,
    /// the level each applicant was created at
    levels: std::collections::HashMap<String, String>,
    bad_signatures: usize,
    /// SDK tokens issued so far: each token names its number
    tokens_issued: usize,
}

/// Sumsub's answer to one request, from its documentation.
fn answer(state: &mut Standin, method: &str, path_and_query: &str, headers: &http::HeaderMap, body: &[u8]) -> (u16, Json) {
    if state.failing {
        return (500, json!({ "description": "Internal error", "code": 500 }));
    }
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("");
    let expected = hmac_hex(SECRET_KEY, &[header("x-app-access-ts").as_bytes(), method.as_bytes(), path_and_query.as_bytes(), body]);
    if header("x-app-token") != APP_TOKEN || header("x-app-access-sig") != expected {
        state.bad_signatures += 1;
        return (401, json!({ "description": "Request signature mismatch", "code": 401 }));
    }
    let request: Json = serde_json::from_slice(body).unwrap_or(Json::Null);
    match (method, path_and_query) {
        ("POST", p) if LEVELS.iter().any(|l| p == format!("/resources/applicants?levelName={l}")) => {
            let external = request["externalUserId"].as_str().unwrap_or("").to_string();
            if !state.applicants.insert(external.clone()) {
                return (409, json!({ "description": "Applicant with external user id already exists", "code": 409 }));
            }
            let level = p.rsplit('=').next().unwrap_or("").to_string();
            state.levels.insert(external.clone(), level);
            (201, json!({ "id": format!("app-{}", state.applicants.len()), "externalUserId": external, "review": { "reviewStatus": "init" } }))
        }
        ("POST", "/resources/accessTokens/sdk") if LEVELS.iter().any(|l| request["levelName"] == *l) => {
            state.tokens_issued += 1;
            let token = format!("_act-sbx-{}-{}", request["userId"].as_str().unwrap_or(""), state.tokens_issued);
            (200, json!({ "token": token, "userId": request["userId"] }))
        }
        _ => (404, json!({ "description": "Not found", "code": 404 })),
    }
}

async fn standin(state: Arc<Mutex<Standin>>) -> std::net::SocketAddr {
    loopback_server(move |request: &Received<'_>| {
        let (status, reply) = answer(&mut state.lock().unwrap(), request.method, request.path, request.headers, request.body);
        (status, reply.to_string().into_bytes())
    })
    .await
    .unwrap()
}

/// A production gateway with Sumsub at `addr` and a one-entry list, so that production screens.
async fn gateway(dir: &tempfile::TempDir, addr: std::net::SocketAddr) -> (Gateway, String, String) {
    gateway_at(dir, addr, TestClock(Arc::new(AtomicI64::new(chrono::Utc::now().timestamp())))).await
}

/// [`gateway`] on a clock the test moves.
async fn gateway_at(dir: &tempfile::TempDir, addr: std::net::SocketAddr, clock: TestClock) -> (Gateway, String, String) {
    gateway_with_levels(dir, addr, clock, TierLevels(LEVELS.map(|l| Some(l.to_string())))).await
}

/// [`gateway_at`] with the Sumsub levels given.
async fn gateway_with_levels(dir: &tempfile::TempDir, addr: std::net::SocketAddr, clock: TestClock, levels: TierLevels) -> (Gateway, String, String) {
    let store = host_native::open_store(&format!("sqlite://{}", dir.path().join("g.db").display())).await.unwrap();
    let sumsub = SumsubConfig {
        base_url: format!("http://{addr}"),
        app_token: APP_TOKEN.into(),
        secret_key: SECRET_KEY.into(),
        webhook_secret: WEBHOOK_SECRET.into(),
        levels,
    };
    // single-step decisions: this test is about the vendor, not four-eyes
    let config = Config { production_identity_vendor: Some(sumsub), four_eyes: gateway::FourEyes::parse("").unwrap(), ..Config::default() };
    let gateway = Gateway::new(store, Box::new(ComponentRules::embedded().unwrap()), Box::new(clock), Box::new(OsIds), config)
        .with_vendor_http(Box::new(VendorClient::new().unwrap()));
    gateway.migrate().await.unwrap();
    let list = "id,schema,name,aliases,birth_date,countries,addresses,identifiers,sanctions,phones,emails,program_ids,dataset,first_seen,last_seen,last_change\n\
                NK-1,Person,Zebulon Quartermaine,,1950-01-01,ru,,,,,,,test,2020-01-01,2020-01-01,2020-01-01\n";
    gateway::lists::import(
        &gateway,
        Environment::Production,
        "test",
        ListFormat::OpenSanctionsCsv,
        parse::opensanctions(list.as_bytes()).unwrap(),
        "test",
    )
    .await
    .unwrap();
    let admin = gateway.create_admin_key(Environment::Production).await.unwrap();
    let (status, tenant) = call(&gateway, &admin, "POST", "/v1/admin/tenants", json!({ "name": "op", "environment": "production" })).await;
    assert_eq!(status, 201, "{tenant}");
    (gateway, admin, tenant["api_key"].as_str().unwrap().to_string())
}

async fn signup_and_withdraw(gateway: &Gateway, key: &str, user: &str) -> (u16, Json) {
    signup_and_withdraw_cents(gateway, key, user, 50_000).await
}

async fn signup_and_withdraw_cents(gateway: &Gateway, key: &str, user: &str, cents: i64) -> (u16, Json) {
    let person = json!({ "user_id": user, "first_name": "Ann", "last_name": "Lee", "date_of_birth": "1990-04-01", "nationality": "GB", "email": "ann@example.com" });
    let (status, screened) = call(gateway, key, "POST", "/v1/sanctions/screen", person).await;
    assert_eq!((status, screened["status"].as_str()), (201, Some("clear")), "{screened}");
    let withdrawal =
        json!({ "user_id": user, "email": "ann@example.com", "phone": "+44 7700 900123", "withdrawal_amount_cents": cents, "currency": "USD" });
    call(gateway, key, "POST", "/v1/kyc/start", withdrawal).await
}

/// Sends a webhook as Sumsub does, signed with `secret`.
async fn webhook(gateway: &Gateway, secret: &str, event: Json) -> (u16, Json) {
    let body = event.to_string().into_bytes();
    let request = http::Request::builder()
        .method("POST")
        .uri("/v1/vendors/sumsub/webhook")
        .header("content-type", "application/json")
        .header("x-payload-digest", hmac_hex(secret, &[&body]))
        .header("x-payload-digest-alg", "HMAC_SHA256_HEX")
        .body(body)
        .unwrap();
    let response = gateway.handle(request).await;
    (response.status().as_u16(), serde_json::from_slice(response.body()).unwrap_or(Json::Null))
}

async fn check_status(gateway: &Gateway, key: &str, kyc_check_id: &str) -> Json {
    let (status, body) = call(gateway, key, "GET", &format!("/v1/kyc/status?kyc_check_id={kyc_check_id}"), Json::Null).await;
    assert_eq!(status, 200, "{body}");
    body
}

#[tokio::test]
async fn a_production_check_goes_through_sumsub_and_its_signed_webhooks() {
    let dir = tempfile::tempdir().unwrap();
    let state = Arc::new(Mutex::new(Standin::default()));
    let addr = standin(state.clone()).await;
    let (gateway, _admin, key) = gateway(&dir, addr).await;

    let (status, started) = signup_and_withdraw(&gateway, &key, "u-1").await;
    assert_eq!(status, 201, "{started}");
    let check = started["kyc_check_id"].as_str().unwrap().to_string();
    assert_eq!(started["vendor_access_token"], json!(format!("_act-sbx-{check}-1")), "{started}");
    assert_eq!(started["withdrawal_held"], json!(true));
    // the flow starts with the check's token
    assert_eq!(started["status"], "in_progress", "{started}");
    {
        let state = state.lock().unwrap();
        assert!(state.applicants.contains(&check), "no applicant for the check");
        assert_eq!(state.bad_signatures, 0, "a request was badly signed");
    }

    // A forged webhook changes nothing.
    let pending = json!({ "type": "applicantPending", "externalUserId": check, "applicantId": "app-1", "reviewStatus": "pending" });
    let (status, refused) = webhook(&gateway, "not-the-secret", pending.clone()).await;
    assert_eq!((status, refused["error"].as_str()), (401, Some("invalid_signature")), "{refused}");
    assert_eq!(check_status(&gateway, &key, &check).await["status"], "in_progress");

    let (status, body) = webhook(&gateway, WEBHOOK_SECRET, pending).await;
    assert_eq!((status, body["status"].as_str()), (200, Some("pending_review")), "{body}");

    let green = json!({ "type": "applicantReviewed", "externalUserId": check, "levelName": LEVELS[0], "reviewResult": { "reviewAnswer": "GREEN" },
                        "reviewStatus": "completed" });
    let (status, body) = webhook(&gateway, WEBHOOK_SECRET, green.clone()).await;
    assert_eq!((status, body["status"].as_str(), body["applied"].as_bool()), (200, Some("approved"), Some(true)), "{body}");
    let view = check_status(&gateway, &key, &check).await;
    assert_eq!((view["status"].as_str(), view["withdrawal_status"].as_str()), (Some("approved"), Some("released")), "{view}");
    let (_, tier) = call(&gateway, &key, "GET", "/v1/kyc/tier?user_id=u-1", Json::Null).await;
    assert_eq!(tier["verified_tier"], "tier_1", "{tier}");

    // Sumsub retries: the same verdict again changes nothing; a contrary one is refused.
    let (status, body) = webhook(&gateway, WEBHOOK_SECRET, green).await;
    assert_eq!((status, body["applied"].as_bool()), (200, Some(false)), "{body}");
    let red = json!({ "type": "applicantReviewed", "externalUserId": check, "reviewResult": { "reviewAnswer": "RED", "reviewRejectType": "FINAL" } });
    let (status, body) = webhook(&gateway, WEBHOOK_SECRET, red).await;
    assert_eq!((status, body["error"].as_str()), (409, Some("invalid_state")), "{body}");
    // Types this service does not act on are acknowledged; unknown checks are 404.
    let (status, body) = webhook(&gateway, WEBHOOK_SECRET, json!({ "type": "applicantCreated", "externalUserId": check })).await;
    assert_eq!((status, body["applied"].as_bool()), (200, Some(false)), "{body}");
    let unknown = json!({ "type": "applicantPending", "externalUserId": "kyc_nobody" });
    assert_eq!(webhook(&gateway, WEBHOOK_SECRET, unknown).await.0, 404);
}

#[tokio::test]
async fn a_green_of_a_lower_tiers_level_approves_no_higher_tier() {
    let dir = tempfile::tempdir().unwrap();
    let state = Arc::new(Mutex::new(Standin::default()));
    let addr = standin(state.clone()).await;
    let (gateway, admin, key) = gateway(&dir, addr).await;
    // $25,000: above tier_2's ceiling, so tier_3 (proof of address) is required.
    let (status, started) = signup_and_withdraw_cents(&gateway, &key, "u-3", 2_500_000).await;
    assert_eq!((status, started["required_tier"].as_str()), (201, Some("tier_3")), "{started}");
    let check = started["kyc_check_id"].as_str().unwrap().to_string();
    assert_eq!(state.lock().unwrap().levels.get(&check).map(String::as_str), Some(LEVELS[2]), "the applicant is not at tier_3's level");
    let pending = json!({ "type": "applicantPending", "externalUserId": check, "levelName": LEVELS[2] });
    assert_eq!(webhook(&gateway, WEBHOOK_SECRET, pending).await.0, 200);

    // A GREEN from tier_2's level, or naming no level, is refused by the rules, and logged.
    for level in [json!(LEVELS[1]), Json::Null] {
        let green = json!({ "type": "applicantReviewed", "externalUserId": check, "levelName": level, "reviewResult": { "reviewAnswer": "GREEN" } });
        let request_body = green.to_string().into_bytes();
        let request = http::Request::builder()
            .method("POST")
            .uri("/v1/vendors/sumsub/webhook")
            .header("x-payload-digest", hmac_hex(WEBHOOK_SECRET, &[&request_body]))
            .body(request_body)
            .unwrap();
        let response = gateway.handle(request).await;
        assert_eq!(response.status().as_u16(), 409, "{level}");
        let decision = response.headers().get("x-decision-id").and_then(|v| v.to_str().ok()).unwrap().to_string();
        gateway.flush_decisions().await.unwrap();
        let (status, logged) = call(&gateway, &admin, "GET", &format!("/v1/admin/decisions/{decision}"), Json::Null).await;
        assert_eq!((status, logged["output"]["refused"].clone()), (200, json!(true)), "{logged}");
    }
    assert_eq!(check_status(&gateway, &key, &check).await["status"], "pending_review");
    let (_, tier) = call(&gateway, &key, "GET", "/v1/kyc/tier?user_id=u-3", Json::Null).await;
    assert_eq!(tier["verified_tier"], "tier_0", "{tier}");

    // Its twin: a GREEN from tier_3's level approves tier_3.
    let green = json!({ "type": "applicantReviewed", "externalUserId": check, "levelName": LEVELS[2], "reviewResult": { "reviewAnswer": "GREEN" } });
    let (status, body) = webhook(&gateway, WEBHOOK_SECRET, green).await;
    assert_eq!((status, body["status"].as_str()), (200, Some("approved")), "{body}");
    let (_, tier) = call(&gateway, &key, "GET", "/v1/kyc/tier?user_id=u-3", Json::Null).await;
    assert_eq!(tier["verified_tier"], "tier_3", "{tier}");
}

/// R9: with one basic level, a withdrawal that needs tier_3 is refused at
/// its start (503 `tier_not_verifiable`) and no applicant is made: it used
/// to be verified at the basic level, whose GREEN approved tier_3.
#[tokio::test]
async fn a_tier_without_its_own_level_is_not_verified_at_the_basic_one() {
    let dir = tempfile::tempdir().unwrap();
    let state = Arc::new(Mutex::new(Standin::default()));
    let addr = standin(state.clone()).await;
    let clock = TestClock(Arc::new(AtomicI64::new(chrono::Utc::now().timestamp())));
    let basic = TierLevels::configured(LEVELS[0], Default::default()).unwrap();
    let (gateway, admin, key) = gateway_with_levels(&dir, addr, clock, basic).await;
    // $25,000: tier_3 (proof of address), which no level is named for
    let (status, refused) = signup_and_withdraw_cents(&gateway, &key, "u-3", 2_500_000).await;
    assert_eq!((status, refused["error"].as_str()), (503, Some("tier_not_verifiable")), "{refused}");
    assert!(state.lock().unwrap().applicants.is_empty(), "an applicant was made at another tier's level");
    let (_, checks) = call(&gateway, &admin, "GET", "/v1/admin/kyc/checks?status=in_progress", Json::Null).await;
    assert_eq!(checks["checks"].as_array().map(Vec::len), Some(0), "{checks}");
    let (_, tier) = call(&gateway, &key, "GET", "/v1/kyc/tier?user_id=u-3", Json::Null).await;
    assert_eq!(tier["verified_tier"], "tier_0", "{tier}");

    // the twin: tier_1 is verified at the basic level, and its GREEN approves tier_1
    let (status, started) = signup_and_withdraw(&gateway, &key, "u-1").await;
    assert_eq!((status, started["required_tier"].as_str()), (201, Some("tier_1")), "{started}");
    let check = started["kyc_check_id"].as_str().unwrap().to_string();
    assert_eq!(state.lock().unwrap().levels.get(&check).map(String::as_str), Some(LEVELS[0]));
    let green = json!({ "type": "applicantReviewed", "externalUserId": check, "levelName": LEVELS[0], "reviewResult": { "reviewAnswer": "GREEN" } });
    let (status, body) = webhook(&gateway, WEBHOOK_SECRET, green).await;
    assert_eq!((status, body["status"].as_str()), (200, Some("approved")), "{body}");
    let (_, tier) = call(&gateway, &key, "GET", "/v1/kyc/tier?user_id=u-1", Json::Null).await;
    assert_eq!(tier["verified_tier"], "tier_1", "{tier}");
}

#[tokio::test]
async fn a_failing_vendor_is_503_and_creates_no_check() {
    let dir = tempfile::tempdir().unwrap();
    let state = Arc::new(Mutex::new(Standin { failing: true, ..Standin::default() }));
    let addr = standin(state.clone()).await;
    let (gateway, admin, key) = gateway(&dir, addr).await;

    let (status, error) = signup_and_withdraw(&gateway, &key, "u-1").await;
    assert_eq!((status, error["error"].as_str()), (503, Some("vendor_unavailable")), "{error}");
    let (_, checks) = call(&gateway, &admin, "GET", "/v1/admin/kyc/checks?status=in_progress", Json::Null).await;
    assert_eq!(checks["checks"], json!([]), "a check was written: {checks}");

    // Back up, the same withdrawal starts a check.
    state.lock().unwrap().failing = false;
    let withdrawal =
        json!({ "user_id": "u-1", "email": "ann@example.com", "phone": "+44 7700 900123", "withdrawal_amount_cents": 50_000, "currency": "USD" });
    let (status, started) = call(&gateway, &key, "POST", "/v1/kyc/start", withdrawal).await;
    assert_eq!(status, 201, "{started}");
}

/// `kyc.started` is queued with the check; a fresh token is issued for the
/// same applicant on resume and, once the token expired, on a repeat of the
/// withdrawal; a valid one is answered as it is.
#[tokio::test]
async fn the_flow_starts_with_the_check_and_expired_tokens_are_reissued() {
    let dir = tempfile::tempdir().unwrap();
    let state = Arc::new(Mutex::new(Standin::default()));
    let addr = standin(state.clone()).await;
    let clock = TestClock(Arc::new(AtomicI64::new(1_800_000_000)));
    let (gateway, admin, key) = gateway_at(&dir, addr, clock.clone()).await;

    let (status, started) = signup_and_withdraw(&gateway, &key, "u-5").await;
    assert_eq!((status, started["status"].as_str()), (201, Some("in_progress")), "{started}");
    let check = started["kyc_check_id"].as_str().unwrap().to_string();
    gateway.flush_decisions().await.unwrap();
    let (_, events) = call(&gateway, &admin, "GET", "/v1/admin/decisions?user_id=u-5", Json::Null).await;
    let withdrawal = events["decisions"].as_array().unwrap().iter().find(|d| d["operation"] == "withdrawal").cloned().unwrap_or(Json::Null);
    assert_eq!(withdrawal["output"]["Ok"]["outcome"]["verify"]["events"], json!(["kyc.started"]), "{withdrawal}");

    // Resuming issues a new token for the same applicant: no second applicant.
    let (status, resumed) = call(&gateway, &key, "POST", &format!("/v1/kyc/{check}/token"), json!({})).await;
    assert_eq!(status, 200, "{resumed}");
    assert_eq!(resumed["vendor_access_token"], json!(format!("_act-sbx-{check}-2")), "{resumed}");
    assert_eq!(state.lock().unwrap().applicants.len(), 1, "a second applicant was created");

    // A repeat within the token's lifetime answers it; after, a new one.
    let withdrawal =
        json!({ "user_id": "u-5", "email": "ann@example.com", "phone": "+44 7700 900123", "withdrawal_amount_cents": 50_000, "currency": "USD" });
    clock.0.fetch_add(600, std::sync::atomic::Ordering::SeqCst);
    let (status, repeat) = call(&gateway, &key, "POST", "/v1/kyc/start", withdrawal.clone()).await;
    assert_eq!(status, 200, "{repeat}");
    assert_eq!(repeat["vendor_access_token"], json!(format!("_act-sbx-{check}-2")), "{repeat}");
    assert_eq!(repeat["vendor_expires_in"], json!(300), "{repeat}");
    clock.0.fetch_add(300, std::sync::atomic::Ordering::SeqCst);
    let (status, late) = call(&gateway, &key, "POST", "/v1/kyc/start", withdrawal).await;
    assert_eq!(status, 200, "{late}");
    assert_eq!(late["vendor_access_token"], json!(format!("_act-sbx-{check}-3")), "{late}");
    assert_eq!(late["vendor_expires_in"], json!(900), "{late}");
    let state = state.lock().unwrap();
    assert_eq!((state.applicants.len(), state.tokens_issued, state.bad_signatures), (1, 3, 0));
}

async fn escalated(gateway: &Gateway, admin: &str) -> Json {
    call(gateway, admin, "GET", "/v1/admin/kyc/checks?status=pending_review&escalated=true", Json::Null).await.1
}

/// A RED with RETRY is no verdict: the check stays awaiting review and is
/// escalated to a person, who decides it; a RED FINAL rejects without one.
#[tokio::test]
async fn a_retry_request_escalates_the_check_to_a_person() {
    let dir = tempfile::tempdir().unwrap();
    let state = Arc::new(Mutex::new(Standin::default()));
    let addr = standin(state.clone()).await;
    let (gateway, admin, key) = gateway(&dir, addr).await;

    let (_, started) = signup_and_withdraw(&gateway, &key, "u-6").await;
    let check = started["kyc_check_id"].as_str().unwrap().to_string();
    webhook(&gateway, WEBHOOK_SECRET, json!({ "type": "applicantPending", "externalUserId": check })).await;
    assert_eq!(escalated(&gateway, &admin).await["checks"], json!([]), "escalated before any retry");
    let retry = json!({ "type": "applicantReviewed", "externalUserId": check, "levelName": LEVELS[0],
                        "reviewResult": { "reviewAnswer": "RED", "reviewRejectType": "RETRY" } });
    let (status, body) = webhook(&gateway, WEBHOOK_SECRET, retry.clone()).await;
    assert_eq!((status, body["status"].as_str(), body["applied"].as_bool()), (200, Some("pending_review"), Some(true)), "{body}");
    let listed = escalated(&gateway, &admin).await;
    assert_eq!(listed["checks"][0]["kyc_check_id"], json!(check), "{listed}");
    assert_eq!(listed["checks"][0]["escalation"], "vendor_retry", "{listed}");
    // a repeat of the retry changes nothing more
    let (_, again) = webhook(&gateway, WEBHOOK_SECRET, retry).await;
    assert_eq!(again["applied"], json!(false), "{again}");
    // the user may still resume the flow to resubmit
    let (status, _) = call(&gateway, &key, "POST", &format!("/v1/kyc/{check}/token"), json!({})).await;
    assert_eq!(status, 200);
    // a person decides
    let review = json!({ "kyc_check_id": check, "decision": "approve", "reviewer": "analyst-1", "reason": "resubmitted ID checked by hand" });
    let (status, decided) = call(&gateway, &admin, "POST", "/v1/kyc/manual-review", review).await;
    assert_eq!((status, decided["status"].as_str()), (200, Some("approved")), "{decided}");
    assert_eq!(escalated(&gateway, &admin).await["checks"], json!([]));

    // the twin: a final RED rejects, and nothing is escalated
    let (_, other) = signup_and_withdraw(&gateway, &key, "u-7").await;
    let other = other["kyc_check_id"].as_str().unwrap().to_string();
    let red = json!({ "type": "applicantReviewed", "externalUserId": other, "levelName": LEVELS[0],
                      "reviewResult": { "reviewAnswer": "RED", "reviewRejectType": "FINAL" } });
    let (status, body) = webhook(&gateway, WEBHOOK_SECRET, red).await;
    assert_eq!((status, body["status"].as_str()), (200, Some("rejected")), "{body}");
    assert_eq!(escalated(&gateway, &admin).await["checks"], json!([]));
}
