use std::collections::{BTreeSet, HashMap};
use std::time::Duration;

use serde_json::{json, Value as Json};

use crate::client::{identity, unique, Tenant};
use crate::receiver::{Behaviour, Received, Receiver};
use crate::runner::TIPPING_OFF_MARKERS;
use crate::{ensure, ensure_eq, CaseResult, Env};

pub(crate) const WAIT: Duration = Duration::from_secs(30);

pub const ALL_EVENTS: [&str; 20] = [
    "sanctions.hit",
    "sanctions.cleared",
    "sanctions.confirmed",
    "sanctions.account_frozen",
    "kyc.started",
    "kyc.submitted",
    "kyc.approved",
    "kyc.rejected",
    "kyc.tier_upgraded",
    "kyc.expired",
    "exclusion.created",
    "exclusion.expired",
    "exclusion.permanent",
    "exclusion.kgc_synced",
    "limit.created",
    "limit.activated",
    "limit.decreased",
    "limit.cancelled",
    "limit.breach_attempt",
    "aml.alert_created",
];

pub(crate) fn register(t: &Tenant<'_>, url: &str) -> Result<(String, String), String> {
    let r = t.post("/v1/webhooks", json!({ "url": url }));
    r.expect(201)?;
    let secret = r.str("secret").to_string();
    ensure!(secret.starts_with("whsec_"), "secret is not a whsec_ secret");
    Ok((r.str("webhook_id").to_string(), secret))
}

/// The delivery log once every delivery `until` waits for is there. The
/// attempt is recorded once the receiver has answered, so the log may lag the
/// arrival; a case that acts on the recorded state waits for it here.
pub(crate) fn deliveries_once(
    t: &Tenant<'_>,
    webhook_id: &str,
    event: &str,
    what: &str,
    until: impl Fn(&[Json]) -> bool,
) -> Result<Vec<Json>, String> {
    let deadline = std::time::Instant::now() + WAIT;
    loop {
        let log = t.get(&format!("/v1/webhooks/{webhook_id}/deliveries?event={event}"));
        log.expect(200)?;
        let deliveries = log.body["deliveries"].as_array().cloned().unwrap_or_default();
        if until(&deliveries) {
            return Ok(deliveries);
        }
        ensure!(std::time::Instant::now() < deadline, "the delivery log never showed {what}: {}", log.raw);
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

fn kyc_start(t: &Tenant<'_>, user: &str) -> crate::Resp {
    t.post(
        "/v1/kyc/start",
        json!({ "user_id": user, "email": "k@example.com", "phone": "+447700900123", "withdrawal_amount_cents": 50_000, "currency": "USD" }),
    )
}

fn limit(t: &Tenant<'_>, user: &str, kind: &str, cents: i64) -> Result<crate::Resp, String> {
    Ok(t.post("/v1/limits", json!({ "user_id": user, "limit_type": kind, "amount_cents": cents, "currency": "USD", "requested_at": t.now_iso()? })))
}

fn exclude(t: &Tenant<'_>, user: &str, duration: &str) -> Result<crate::Resp, String> {
    Ok(t.post("/v1/exclusions", json!({ "user_id": user, "duration": duration, "reason": "self_initiated", "initiated_at": t.now_iso()? })))
}

fn check_delivery(d: &Received, secret: &str) -> CaseResult {
    d.verify(secret)?;
    ensure_eq!(d.header("webhook-id"), d.json["event_id"].as_str().unwrap_or("-"));
    let keys: BTreeSet<&str> = d.json.as_object().map(|o| o.keys().map(String::as_str).collect()).unwrap_or_default();
    ensure_eq!(keys, BTreeSet::from(["data", "event", "event_id", "timestamp"]), "envelope fields");
    ensure!(d.json["data"].is_object(), "data is not an object");
    crate::client::parse_time(d.json["timestamp"].as_str().unwrap_or(""))?;
    let body = String::from_utf8_lossy(&d.body);
    for marker in TIPPING_OFF_MARKERS {
        ensure!(!body.contains(marker), "webhook {} carried {marker:?}", d.event());
    }
    Ok(())
}

pub fn every_event_arrives_signed_in_the_envelope(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let receiver = Receiver::start(Behaviour::Accept)?;
    let (_, secret) = register(&t, &receiver.url)?;
    let user = |prefix: &str| -> Result<String, String> {
        let u = unique(prefix);
        t.signup(&u)?;
        Ok(u)
    };
    let sam1 = unique("u");
    let hit1 = t.post("/v1/sanctions/screen", identity(&sam1, "SanctionedSam", "One", "s1@example.com"));
    let hit2 = t.post("/v1/sanctions/screen", identity(&unique("u"), "MaybeMo", "Two", "s2@example.com"));
    env.admin(
        "POST",
        &format!("/v1/admin/sanctions/cases/{}/review", hit1.str("case_id")),
        Some(&json!({ "decision": "dismiss", "reviewer": "analyst-1" })),
    )
    .expect(200)?;
    env.admin(
        "POST",
        &format!("/v1/admin/sanctions/cases/{}/review", hit2.str("case_id")),
        Some(&json!({ "decision": "confirm", "reviewer": "analyst-1" })),
    )
    .expect(200)?;
    let approved = user("autoapprove")?;
    let check = kyc_start(&t, &approved);
    t.post(&format!("/v1/sandbox/kyc/{}/submit", check.str("kyc_check_id")), json!({})).expect(202)?;
    let rejected = user("autoreject")?;
    let check = kyc_start(&t, &rejected);
    t.post(&format!("/v1/sandbox/kyc/{}/submit", check.str("kyc_check_id")), json!({})).expect(202)?;
    let abandoned = user("u")?;
    kyc_start(&t, &abandoned).expect(201)?;
    let player = user("u")?;
    limit(&t, &player, "limit_daily", 10_000)?.expect(201)?;
    let up = limit(&t, &player, "limit_daily", 15_000)?;
    t.delete(&format!("/v1/limits/{}", up.str("limit_id"))).expect(200)?;
    limit(&t, &player, "limit_weekly", 10_000)?.expect(201)?;
    limit(&t, &player, "limit_weekly", 5_000)?.expect(201)?;
    limit(&t, &player, "limit_monthly", 10_000)?.expect(201)?;
    limit(&t, &player, "limit_monthly", 20_000)?.expect(201)?;
    t.post("/v1/limits/check", json!({ "user_id": player, "amount_cents": 50_000, "currency": "USD" })).expect(200)?;
    let day = exclude(&t, &user("u")?, "duration_24h")?;
    day.expect(201)?;
    let forever = exclude(&t, &user("u")?, "duration_permanent")?;
    forever.expect(201)?;
    let watched = user("u")?;
    let cash = json!({ "transaction_id": unique("tx"), "user_id": watched, "event_type": "deposit", "amount_cents": 1_000_001, "currency": "USD",
        "payment_method": "cash" });
    let alerted = t.post("/v1/aml/event", cash);
    alerted.expect(202)?;
    let regulator_email = format!("{}@example.com", unique("kgc"));
    env.admin("POST", "/v1/admin/exclusions/regulator-import", Some(&json!({ "entries": [{ "email": regulator_email }] }))).expect(200)?;
    t.advance(86_400)?;
    t.advance(7 * 86_400)?;
    let ours = |d: &Received| -> bool {
        let data = &d.json["data"];
        match d.event() {
            "exclusion.created" | "exclusion.expired" | "exclusion.permanent" => {
                data["exclusion_id"] == json!(day.str("exclusion_id")) || data["exclusion_id"] == json!(forever.str("exclusion_id"))
            }
            "exclusion.kgc_synced" => data["user_email"] == json!(regulator_email),
            _ => true,
        }
    };
    let all = receiver.wait_until(WAIT, "every event type", |all| {
        let seen: BTreeSet<&str> = all.iter().filter(|d| ours(d)).map(Received::event).collect();
        ALL_EVENTS.iter().all(|e| seen.contains(e))
    })?;
    let mut ids: HashMap<String, usize> = HashMap::new();
    for d in &all {
        check_delivery(d, &secret)?;
        *ids.entry(d.header("webhook-id").to_string()).or_default() += 1;
    }
    ensure!(ids.values().all(|n| *n == 1), "an event was delivered twice to a receiver that always accepted");
    let find = |event: &str| all.iter().find(|d| d.event() == event && ours(d)).map(|d| d.json["data"].clone()).unwrap_or(Json::Null);
    let cleared = find("sanctions.cleared");
    ensure_eq!(cleared["case_id"], json!(hit1.str("case_id")));
    ensure_eq!(cleared["user_id"], json!(sam1));
    ensure_eq!(cleared["reviewer"], json!("analyst-1"));
    ensure_eq!(cleared["transactions_held"], json!(false));
    let kyc = find("kyc.approved");
    ensure_eq!(kyc["user_id"], json!(approved));
    ensure_eq!(kyc["verified_tier"], json!("tier_1"));
    ensure!(kyc["kyc_check_id"].is_string() && kyc["release_withdrawal_id"].is_string(), "kyc.approved data: {kyc}");
    let created = find("exclusion.created");
    for field in ["exclusion_id", "user_email", "user_phone", "duration", "is_permanent", "expires_at", "source"] {
        ensure!(created.get(field).is_some(), "exclusion.created lacks {field}: {created}");
    }
    // an AML alert tells the operator what and why in reason codes, never the evidence
    let aml = find("aml.alert_created");
    ensure_eq!(aml["alert_id"], json!(alerted.str("alert_id")));
    ensure_eq!(aml["user_id"], json!(watched));
    let mut fields: Vec<&str> = aml.as_object().map(|o| o.keys().map(String::as_str).collect()).unwrap_or_default();
    fields.sort_unstable();
    ensure_eq!(fields, vec!["actions", "alert_id", "outcome", "typologies", "user_id"]);
    ensure!(aml["typologies"].as_array().is_some_and(|t| t.contains(&json!("ctr_threshold"))), "aml.alert_created: {aml}");
    Ok(())
}

pub fn a_failing_receiver_gets_the_event_once_it_recovers(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let receiver = Receiver::start(Behaviour::FailFirst(2))?;
    let (webhook_id, secret) = register(&t, &receiver.url)?;
    let user = unique("u");
    t.post("/v1/sanctions/screen", identity(&user, "SanctionedSam", "Retry", "r@example.com")).expect(201)?;
    let all = receiver
        .wait_until(WAIT, "a delivery after two failures", |all| all.iter().any(|d| d.answered == 200 && d.json["data"]["user_id"] == json!(user)))?;
    let mine: Vec<&Received> = all.iter().filter(|d| d.json["data"]["user_id"] == json!(user)).collect();
    ensure!(mine.len() >= 3, "expected two failures then a success, got {}", mine.len());
    let ids: BTreeSet<&str> = mine.iter().map(|d| d.header("webhook-id")).collect();
    ensure_eq!(ids.len(), 1, "retries must keep the event id");
    mine.last().map_or(Err("no delivery".to_string()), |d| d.verify(&secret))?;
    let log = deliveries_once(&t, &webhook_id, "sanctions.hit", "the successful attempt", |d| {
        d.iter().any(|d| d["event"] == json!("sanctions.hit") && d["status"] == json!("succeeded"))
    })?;
    let delivery = log.iter().find(|d| d["event"] == json!("sanctions.hit")).cloned().unwrap_or(Json::Null);
    let codes: Vec<i64> = delivery["attempts"].as_array().map(|a| a.iter().filter_map(|x| x["status_code"].as_i64()).collect()).unwrap_or_default();
    ensure_eq!(codes, vec![503, 503, 200]);
    Ok(())
}

pub fn gone_disables_the_endpoint(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let receiver = Receiver::start(Behaviour::Gone)?;
    let (webhook_id, _) = register(&t, &receiver.url)?;
    t.post("/v1/sanctions/screen", identity(&unique("u"), "SanctionedSam", "Gone", "g@example.com")).expect(201)?;
    receiver.wait_until(WAIT, "the first delivery", |all| !all.is_empty())?;
    let deadline = std::time::Instant::now() + WAIT;
    loop {
        let list = t.get("/v1/webhooks");
        let hook =
            list.body["webhooks"].as_array().and_then(|h| h.iter().find(|h| h["webhook_id"] == json!(webhook_id))).cloned().unwrap_or(Json::Null);
        if hook["enabled"] == json!(false) {
            ensure!(hook["disabled_reason"].as_str().unwrap_or("").contains("410"), "no reason given: {hook}");
            break;
        }
        ensure!(std::time::Instant::now() < deadline, "the endpoint was not disabled after 410");
        std::thread::sleep(Duration::from_millis(50));
    }
    let later = unique("u");
    t.post("/v1/sanctions/screen", identity(&later, "SanctionedSam", "Again", "a@example.com")).expect(201)?;
    std::thread::sleep(Duration::from_millis(1500));
    ensure!(!receiver.all().iter().any(|d| d.json["data"]["user_id"] == json!(later)), "a disabled endpoint still received new events");
    Ok(())
}

pub fn registration_rules_and_rotation(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    t.post("/v1/webhooks", json!({ "url": "http://example.com/hooks" })).expect_error(400, "invalid_url")?;
    t.post("/v1/webhooks", json!({ "url": "not a url" })).expect_error(400, "invalid_url")?;
    t.post("/v1/webhooks", json!({})).expect_error(400, "missing_fields")?;
    let p = env.tenant_with("production", 1000)?;
    p.post("/v1/webhooks", json!({ "url": "http://127.0.0.1:9/hooks" })).expect_error(400, "invalid_url")?;
    // Production endpoints must be public: loopback, private, link-local
    // (cloud metadata) and this machine's own names are refused, and nothing is sent to them.
    for internal in [
        "https://169.254.169.254/latest/meta-data/",
        "https://10.0.0.5/hook",
        "https://192.168.1.10/hook",
        "https://[::1]/hook",
        "https://localhost/hook",
        "https://127.0.0.1:9/hooks",
    ] {
        p.post("/v1/webhooks", json!({ "url": internal })).expect_error(400, "invalid_url")?;
    }
    p.post("/v1/webhooks", json!({ "url": "https://hooks.example.com/cgw" })).expect(201)?;
    let receiver = Receiver::start(Behaviour::Accept)?;
    let (webhook_id, old_secret) = register(&t, &receiver.url)?;
    let list = t.get("/v1/webhooks");
    ensure!(!list.raw.contains(&old_secret), "the secret is shown again after creation");
    let rotated = t.post(&format!("/v1/webhooks/{webhook_id}/rotate-secret"), json!({}));
    rotated.expect(200)?;
    let new_secret = rotated.str("secret").to_string();
    ensure!(new_secret != old_secret && new_secret.starts_with("whsec_"), "rotation did not give a new secret");
    let user = unique("u");
    t.post("/v1/sanctions/screen", identity(&user, "SanctionedSam", "Rot", "rot@example.com")).expect(201)?;
    let all = receiver.wait_until(WAIT, "a delivery after rotation", |all| all.iter().any(|d| d.json["data"]["user_id"] == json!(user)))?;
    let d = all.iter().find(|d| d.json["data"]["user_id"] == json!(user)).ok_or("no delivery")?;
    d.verify(&new_secret)?;
    d.verify(&old_secret)?;
    ensure!(d.verify("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").is_err(), "a wrong secret verified");
    let redo = d.header("webhook-id").to_string();
    let log = t.get(&format!("/v1/webhooks/{webhook_id}/deliveries?event=sanctions.hit"));
    let delivery_id = log.body["deliveries"]
        .as_array()
        .and_then(|d| d.iter().find(|d| d["event_id"] == json!(redo)))
        .and_then(|d| d["delivery_id"].as_str())
        .unwrap_or("")
        .to_string();
    t.post(&format!("/v1/webhooks/deliveries/{delivery_id}/redeliver"), json!({})).expect(202)?;
    receiver.wait_until(WAIT, "the redelivery", |all| all.iter().filter(|d| d.header("webhook-id") == redo).count() >= 2)?;
    let other = env.sandbox()?;
    other.delete(&format!("/v1/webhooks/{webhook_id}")).expect_error(404, "webhook_not_found")?;
    t.delete(&format!("/v1/webhooks/{webhook_id}")).expect(200)?;
    t.delete(&format!("/v1/webhooks/{webhook_id}")).expect_error(404, "webhook_not_found")?;
    ensure!(!t.get("/v1/webhooks").raw.contains(&webhook_id), "a deleted webhook is still listed");
    Ok(())
}

pub fn exclusions_reach_every_tenant_of_the_environment(env: &Env) -> CaseResult {
    let a = env.sandbox()?;
    let b = env.sandbox()?;
    let receiver = Receiver::start(Behaviour::Accept)?;
    let (_, secret) = register(&b, &receiver.url)?;
    let user = unique("u");
    a.signup(&user)?;
    let r = exclude(&a, &user, "duration_7d")?;
    r.expect(201)?;
    let all = receiver
        .wait_until(WAIT, "the other tenant's exclusion", |all| all.iter().any(|d| d.json["data"]["exclusion_id"] == json!(r.str("exclusion_id"))))?;
    let d = all.iter().find(|d| d.json["data"]["exclusion_id"] == json!(r.str("exclusion_id"))).ok_or("missing")?;
    ensure_eq!(d.event(), "exclusion.created");
    d.verify(&secret)?;
    a.post(
        "/v1/limits",
        json!({ "user_id": user, "limit_type": "limit_daily", "amount_cents": 5_000, "currency": "USD", "requested_at": a.now_iso()? }),
    )
    .expect(201)?;
    std::thread::sleep(Duration::from_millis(1000));
    ensure!(!receiver.all().iter().any(|d| d.event().starts_with("limit.")), "another tenant's limit event leaked");
    Ok(())
}

pub fn redirects_are_failures_and_not_followed(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let receiver = Receiver::start(Behaviour::Redirect)?;
    let (webhook_id, _) = register(&t, &receiver.url)?;
    let user = unique("u");
    t.post("/v1/sanctions/screen", identity(&user, "SanctionedSam", "Moved", "m@example.com")).expect(201)?;
    receiver.wait_until(WAIT, "the first attempt", |all| all.iter().any(|d| d.json["data"]["user_id"] == json!(user)))?;
    std::thread::sleep(Duration::from_millis(1500));
    let mine = receiver.all().into_iter().filter(|d| d.json["data"]["user_id"] == json!(user)).count();
    ensure_eq!(mine, 1, "the redirect was followed or retried at once");
    // Filtered by event: exclusion events of other tenants fill the log too.
    let log = t.get(&format!("/v1/webhooks/{webhook_id}/deliveries?event=sanctions.hit"));
    let delivery =
        log.body["deliveries"].as_array().and_then(|d| d.iter().find(|d| d["event"] == json!("sanctions.hit"))).cloned().unwrap_or(Json::Null);
    ensure_eq!(delivery["status"], json!("pending"), "a 302 must count as a failure to retry");
    t.get(&format!("/v1/webhooks/{webhook_id}/deliveries?event=no.such_event")).expect_error(400, "invalid_field")?;
    // the gateway's own event, which the rules do not name, filters too
    t.get(&format!("/v1/webhooks/{webhook_id}/deliveries?event=user.erasure_completed")).expect(200)?;
    t.get(&format!("/v1/webhooks/{webhook_id}/deliveries?event=user.erasure_complete")).expect_error(400, "invalid_field")?;
    ensure_eq!(delivery["last_status_code"], json!(302));
    ensure!(delivery["next_attempt_at"].is_string(), "no retry scheduled");
    Ok(())
}
