use serde_json::{json, Value as Json};

use crate::client::{unique, Tenant};
use crate::{ensure, ensure_eq, CaseResult, Env};

fn start(t: &Tenant<'_>, user: &str, cents: i64) -> crate::Resp {
    t.post(
        "/v1/kyc/start",
        json!({ "user_id": user, "email": "p@example.com", "phone": "+44 7700 900123", "withdrawal_amount_cents": cents, "currency": "USD" }),
    )
}

fn status(t: &Tenant<'_>, id: &str) -> crate::Resp {
    t.get(&format!("/v1/kyc/status?kyc_check_id={id}"))
}

fn tier(t: &Tenant<'_>, user: &str) -> crate::Resp {
    t.get(&format!("/v1/kyc/tier?user_id={user}"))
}

pub fn fast_path_within_200_is_instant(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = unique("u");
    t.signup(&user)?;
    let r = start(&t, &user, 20_000);
    r.expect(200)?;
    ensure!(r.body["kyc_check_id"].is_null(), "fast path must not create a check");
    ensure_eq!(r.str("required_tier"), "tier_0");
    ensure_eq!(r.body["required_documents"], json!([]));
    ensure_eq!(r.body["withdrawal_held"], json!(false));
    ensure_eq!(r.int("withdrawal_remaining_cents"), 0);
    ensure!(!r.str("message").is_empty(), "fast path needs a message");
    ensure_eq!(tier(&t, &user).int("cumulative_withdrawn_cents"), 20_000);
    Ok(())
}

pub fn one_cent_over_200_creates_a_check(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = unique("u");
    t.signup(&user)?;
    let r = start(&t, &user, 20_001);
    r.expect(201)?;
    ensure!(r.str("kyc_check_id").len() > 4, "no check id");
    ensure_eq!(r.str("required_tier"), "tier_1");
    ensure_eq!(r.body["withdrawal_held"], json!(true));
    ensure!(!r.str("vendor_access_token").is_empty(), "no vendor token");
    ensure!(r.int("vendor_expires_in") > 0, "no token lifetime");
    ensure!(!r.str("estimated_clear_time").is_empty(), "no estimated_clear_time");
    // the vendor flow starts with the token issued for the check
    ensure_eq!(r.str("status"), "in_progress");
    let s = status(&t, r.str("kyc_check_id"));
    ensure_eq!(s.str("status"), "in_progress");
    let big = unique("u");
    t.signup(&big)?;
    let r2 = start(&t, &big, 250_000);
    ensure_eq!(r2.str("required_tier"), "tier_2");
    ensure_eq!(r2.body["required_documents"], json!(["government_id", "selfie"]));
    ensure_eq!(tier(&t, &user).int("cumulative_withdrawn_cents"), 0, "a held withdrawal is not yet withdrawn");
    Ok(())
}

pub fn repeat_start_for_the_same_tier_is_idempotent(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = unique("u");
    t.signup(&user)?;
    let first = start(&t, &user, 50_000);
    first.expect(201)?;
    let again = start(&t, &user, 60_000);
    again.expect(200)?;
    // the same check and token; the token's lifetime is what is left of it
    let without_lifetime = |body: &Json| {
        let mut body = body.clone();
        body["vendor_expires_in"] = Json::Null;
        body
    };
    ensure_eq!(without_lifetime(&again.body), without_lifetime(&first.body));
    let left = again.int("vendor_expires_in");
    ensure!(left > 0 && left <= first.int("vendor_expires_in"), "vendor_expires_in {left}");
    Ok(())
}

pub fn a_different_tier_while_open_is_already_in_progress(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = unique("u");
    t.signup(&user)?;
    start(&t, &user, 50_000).expect(201)?;
    start(&t, &user, 5_000_000).expect_error(409, "already_in_progress")?;
    Ok(())
}

pub fn invalid_amounts_are_400(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = unique("u");
    t.signup(&user)?;
    for amount in [json!(0), json!(-5), json!(1.5), json!("100"), json!(i64::MAX)] {
        let r = t.post(
            "/v1/kyc/start",
            json!({ "user_id": user, "email": "p@example.com", "phone": "+447700900123", "withdrawal_amount_cents": amount, "currency": "USD" }),
        );
        r.expect_error(400, "invalid_amount")?;
    }
    t.post("/v1/kyc/start", json!({ "user_id": user, "withdrawal_amount_cents": 100, "currency": "USD" })).expect_error(400, "missing_fields")?;
    start(&t, &user, 100).expect(200)?;
    Ok(())
}

pub fn unknown_user_and_check_are_404(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    start(&t, &unique("nobody"), 100).expect_error(404, "user_not_found")?;
    tier(&t, &unique("nobody")).expect_error(404, "user_not_found")?;
    status(&t, "kyc_missing").expect_error(404, "kyc_check_not_found")?;
    t.get("/v1/kyc/status").expect_error(400, "missing_fields")?;
    Ok(())
}

fn submit(t: &Tenant<'_>, id: &str) -> crate::Resp {
    t.post(&format!("/v1/sandbox/kyc/{id}/submit"), json!({}))
}

pub fn sandbox_autoapprove_releases_and_upgrades(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = unique("autoapprove");
    t.signup(&user)?;
    let check = start(&t, &user, 50_000);
    check.expect(201)?;
    let id = check.str("kyc_check_id");
    let s = submit(&t, id);
    s.expect(202)?;
    ensure_eq!(s.str("status"), "approved");
    let st = status(&t, id);
    ensure_eq!(st.str("status"), "approved");
    ensure_eq!(st.body["withdrawal_held"], json!(false));
    let record = tier(&t, &user);
    ensure_eq!(record.str("verified_tier"), "tier_1");
    ensure!(record.body["verified_at"].is_string(), "verified_at missing");
    ensure_eq!(record.int("cumulative_withdrawn_cents"), 50_000);
    ensure_eq!(record.int("max_withdrawal_cents"), 200_000);
    ensure_eq!(record.int("next_tier_required_at_cents"), 200_001);
    let next = start(&t, &user, 100_000);
    next.expect(200)?;
    ensure_eq!(next.body["withdrawal_held"], json!(false));
    submit(&t, id).expect_error(409, "invalid_state")?;
    Ok(())
}

pub fn sandbox_autoreject_keeps_the_withdrawal_blocked(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = unique("autoreject");
    t.signup(&user)?;
    let check = start(&t, &user, 50_000);
    let s = submit(&t, check.str("kyc_check_id"));
    s.expect(202)?;
    ensure_eq!(s.str("status"), "rejected");
    let st = status(&t, check.str("kyc_check_id"));
    ensure_eq!(st.body["withdrawal_held"], json!(true));
    ensure_eq!(tier(&t, &user).str("verified_tier"), "tier_0");
    ensure_eq!(tier(&t, &user).int("cumulative_withdrawn_cents"), 0);
    Ok(())
}

pub fn manual_review_is_admin_only(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = unique("u");
    t.signup(&user)?;
    let check = start(&t, &user, 250_000);
    let id = check.str("kyc_check_id").to_string();
    let review = |key: &str, decision: &str| {
        env.call("POST", "/v1/kyc/manual-review", Some(key), Some(&json!({ "kyc_check_id": id, "decision": decision, "reviewer": "analyst-2" })))
    };
    review(&env.admin_sandbox, "approve").expect_error(409, "invalid_state")?;
    ensure_eq!(submit(&t, &id).str("status"), "pending_review");
    review(&t.key, "approve").expect_error(403, "forbidden")?;
    ensure_eq!(status(&t, &id).str("status"), "pending_review");
    let done = review(&env.admin_sandbox, "approve");
    done.expect(200)?;
    ensure_eq!(done.str("status"), "approved");
    ensure_eq!(tier(&t, &user).str("verified_tier"), "tier_2");
    review(&env.admin_sandbox, "reject").expect_error(409, "invalid_state")?;
    // production takes two people: no direct review there; nor does production see a sandbox check
    review(&env.admin_production, "approve").expect_error(403, "four_eyes_required")?;
    env.admin_production("GET", &format!("/v1/admin/cases/{id}"), None).expect_error(404, "case_not_found")?;
    Ok(())
}

pub fn abandoned_checks_expire_after_seven_days(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = unique("u");
    t.signup(&user)?;
    let check = start(&t, &user, 50_000);
    let id = check.str("kyc_check_id").to_string();
    t.advance(7 * 86_400 - 60)?;
    ensure_eq!(status(&t, &id).str("status"), "in_progress", "expired too early");
    t.advance(60)?;
    let st = status(&t, &id);
    ensure_eq!(st.str("status"), "expired");
    ensure_eq!(st.body["withdrawal_status"], json!("cancelled"));
    submit(&t, &id).expect_error(409, "invalid_state")?;
    let restart = start(&t, &user, 50_000);
    restart.expect(201)?;
    ensure!(restart.str("kyc_check_id") != id, "the user must get a new check");
    Ok(())
}

pub fn verified_tier_never_goes_down(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = unique("autoapprove");
    t.signup(&user)?;
    let check = start(&t, &user, 250_000);
    ensure_eq!(check.str("required_tier"), "tier_2");
    submit(&t, check.str("kyc_check_id")).expect(202)?;
    ensure_eq!(tier(&t, &user).str("verified_tier"), "tier_2");
    let small = start(&t, &user, 100);
    small.expect(200)?;
    ensure_eq!(tier(&t, &user).str("verified_tier"), "tier_2");
    let fresh = unique("u");
    t.signup(&fresh)?;
    start(&t, &fresh, 20_000).expect(200)?;
    let over = start(&t, &fresh, 1);
    over.expect(201)?;
    ensure_eq!(over.str("required_tier"), "tier_1", "past 200 lifetime every withdrawal needs tier_1");
    let _: Json = over.body;
    Ok(())
}

pub fn production_has_no_users_without_a_screening_vendor(env: &Env) -> CaseResult {
    let p = env.tenant_with("production", 1000)?;
    start(&p, &unique("u"), 50_000).expect_error(404, "user_not_found")?;
    Ok(())
}

fn token(t: &Tenant<'_>, id: &str) -> crate::Resp {
    t.post(&format!("/v1/kyc/{id}/token"), json!({}))
}

/// The spec: `kyc.started` "when the user begins the vendor flow". The flow
/// begins with the token issued for the check: the check is `in_progress`
/// from its creation, and the event fires then.
pub fn the_vendor_flow_starts_with_the_check(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let receiver = crate::receiver::Receiver::start(crate::receiver::Behaviour::Accept)?;
    super::webhooks::register(&t, &receiver.url)?;
    let user = unique("u");
    t.signup(&user)?;
    let check = start(&t, &user, 50_000);
    check.expect(201)?;
    ensure_eq!(check.str("status"), "in_progress");
    let id = check.str("kyc_check_id").to_string();
    let started = receiver.wait_until(super::webhooks::WAIT, "kyc.started", |all| {
        all.iter().any(|d| d.event() == "kyc.started" && d.json["data"]["kyc_check_id"] == json!(id))
    })?;
    let data = &started.iter().find(|d| d.event() == "kyc.started").ok_or("no kyc.started")?.json["data"];
    ensure_eq!(data["user_id"], json!(user));
    ensure_eq!(data["required_tier"], json!("tier_1"));
    // submission does not start it again
    submit(&t, &id).expect(202)?;
    let all = receiver.wait_until(super::webhooks::WAIT, "kyc.submitted", |all| {
        all.iter().any(|d| d.event() == "kyc.submitted" && d.json["data"]["kyc_check_id"] == json!(id))
    })?;
    let starts = all.iter().filter(|d| d.event() == "kyc.started" && d.json["data"]["kyc_check_id"] == json!(id)).count();
    ensure_eq!(starts, 1, "kyc.started fired more than once");
    Ok(())
}

/// `POST /v1/kyc/{id}/token` resumes the flow with a fresh token; a repeat
/// of `kyc/start` answers a token that is still valid, re-issued once the
/// old one expired; a final check takes no token.
pub fn tokens_are_reissued_for_a_check_that_is_not_final(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = unique("u");
    t.signup(&user)?;
    let first = start(&t, &user, 50_000);
    first.expect(201)?;
    let id = first.str("kyc_check_id").to_string();
    let first_token = first.str("vendor_access_token").to_string();

    let resumed = token(&t, &id);
    resumed.expect(200)?;
    ensure_eq!(resumed.str("kyc_check_id"), id.as_str());
    ensure_eq!(resumed.str("status"), "in_progress");
    let second_token = resumed.str("vendor_access_token").to_string();
    ensure!(!second_token.is_empty() && second_token != first_token, "the token was not renewed");
    ensure_eq!(resumed.int("vendor_expires_in"), first.int("vendor_expires_in"));
    // a repeat of the withdrawal answers the token now valid, not the first one
    let repeat = start(&t, &user, 50_000);
    repeat.expect(200)?;
    ensure_eq!(repeat.str("vendor_access_token"), second_token.as_str());
    ensure_eq!(repeat.str("kyc_check_id"), id.as_str());

    // once the token expired, a repeat re-issues it with a full lifetime
    let lifetime = resumed.int("vendor_expires_in");
    t.advance(lifetime + 1)?;
    let late = start(&t, &user, 50_000);
    late.expect(200)?;
    let third_token = late.str("vendor_access_token").to_string();
    ensure!(third_token != second_token && third_token != first_token, "an expired token was answered again");
    ensure_eq!(late.int("vendor_expires_in"), lifetime);
    let again = start(&t, &user, 50_000);
    ensure_eq!(again.str("vendor_access_token"), third_token.as_str(), "a valid token was replaced");

    // resuming restarts the 7-day abandonment clock
    t.advance(6 * 86_400)?;
    token(&t, &id).expect(200)?;
    t.advance(6 * 86_400)?;
    ensure_eq!(status(&t, &id).str("status"), "in_progress", "a resumed check expired from its first start");

    // a check awaiting review still takes a token; a final one does not
    ensure_eq!(submit(&t, &id).str("status"), "pending_review");
    let reviewing = token(&t, &id);
    reviewing.expect(200)?;
    ensure_eq!(reviewing.str("status"), "pending_review");
    env.call(
        "POST",
        "/v1/kyc/manual-review",
        Some(&env.admin_sandbox),
        Some(&json!({ "kyc_check_id": id, "decision": "reject", "reviewer": "analyst-1", "reason": "document unreadable" })),
    )
    .expect(200)?;
    token(&t, &id).expect_error(409, "invalid_state")?;
    token(&t, "kyc_missing").expect_error(404, "kyc_check_not_found")?;
    let other = env.sandbox()?;
    token(&other, &id).expect_error(404, "kyc_check_not_found")?;
    Ok(())
}

pub fn an_abandoned_check_takes_no_token(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = unique("u");
    t.signup(&user)?;
    let check = start(&t, &user, 50_000);
    let id = check.str("kyc_check_id").to_string();
    t.advance(7 * 86_400)?;
    token(&t, &id).expect_error(409, "invalid_state")?;
    ensure_eq!(status(&t, &id).str("status"), "expired");
    Ok(())
}

/// A rejected or expired check does not keep the user from verifying for another tier.
pub fn a_check_for_another_tier_follows_a_rejected_or_expired_one(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let rejected = unique("autoreject");
    t.signup(&rejected)?;
    let first = start(&t, &rejected, 50_000);
    ensure_eq!(submit(&t, first.str("kyc_check_id")).str("status"), "rejected");
    let next = start(&t, &rejected, 250_000);
    next.expect(201)?;
    ensure_eq!(next.str("required_tier"), "tier_2");
    ensure!(next.str("kyc_check_id") != first.str("kyc_check_id"), "the rejected check was answered");

    let abandoned = unique("u");
    t.signup(&abandoned)?;
    let old = start(&t, &abandoned, 50_000);
    old.expect(201)?;
    // while it is open, another tier is refused
    start(&t, &abandoned, 250_000).expect_error(409, "already_in_progress")?;
    t.advance(7 * 86_400)?;
    let fresh = start(&t, &abandoned, 250_000);
    fresh.expect(201)?;
    ensure_eq!(fresh.str("required_tier"), "tier_2");
    ensure_eq!(status(&t, old.str("kyc_check_id")).str("status"), "expired");
    Ok(())
}

fn withdraw_in(t: &Tenant<'_>, user: &str, amount: i64, currency: &str) -> crate::Resp {
    t.post(
        "/v1/kyc/start",
        json!({ "user_id": user, "email": "p@example.com", "phone": "+44 7700 900123", "withdrawal_amount_cents": amount, "currency": currency }),
    )
}

/// ISO 4217 codes only; the tier ceilings (200, 2,000, ... major units of
/// the profile's currency, USD) are told in each currency's minor units at
/// the reference rates: JPY has none (USD 200 is JPY 31,250 at 0.0064), BHD
/// has three (BHD 75.473 is the most that converts within USD 200 at 2.65).
pub fn currencies_are_iso_4217_with_their_minor_units(env: &Env) -> CaseResult {
    super::aml::import_reference_rates(env)?;
    let t = env.sandbox()?;
    let user = unique("u");
    t.signup(&user)?;
    for code in ["ABC", "XAU", "XXX", "usd", "US"] {
        withdraw_in(&t, &user, 100, code).expect_error(400, "invalid_field")?;
        let limit = t.post(
            "/v1/limits",
            json!({ "user_id": user, "limit_type": "limit_daily", "amount_cents": 10_000, "currency": code, "requested_at": t.now_iso()? }),
        );
        limit.expect_error(400, "invalid_field")?;
        t.post("/v1/limits/check", json!({ "user_id": user, "amount_cents": 100, "currency": code })).expect_error(400, "invalid_field")?;
    }
    for (code, ceiling) in [("JPY", 31_250), ("BHD", 75_473), ("USD", 20_000)] {
        let at = unique("u");
        t.signup(&at)?;
        let fast = withdraw_in(&t, &at, ceiling, code);
        fast.expect(200)?;
        ensure_eq!(fast.body["withdrawal_held"], json!(false), format!("{code} {ceiling}"));
        let record = tier(&t, &at);
        ensure_eq!(record.str("currency"), code);
        ensure_eq!(record.int("max_withdrawal_cents"), ceiling, code);
        ensure_eq!(record.int("next_tier_required_at_cents"), ceiling + 1, code);
        let over = unique("u");
        t.signup(&over)?;
        let held = withdraw_in(&t, &over, ceiling + 1, code);
        held.expect(201)?;
        ensure_eq!(held.str("required_tier"), "tier_1", format!("{code} {}", ceiling + 1));
    }
    // a limit's message counts in the currency's own units
    let yen = unique("u");
    t.signup(&yen)?;
    t.post(
        "/v1/limits",
        json!({ "user_id": yen, "limit_type": "limit_daily", "amount_cents": 5_000, "currency": "JPY", "requested_at": t.now_iso()? }),
    )
    .expect(201)?;
    let breach = t.post("/v1/limits/check", json!({ "user_id": yen, "amount_cents": 6_000, "currency": "JPY" }));
    breach.expect(200)?;
    let message = breach.str("user_message");
    ensure!(message.contains("JPY 6000") && message.contains("JPY 5000"), "user_message: {message}");
    Ok(())
}

/// The tier ceilings are amounts in the profile's currency (issue #46): a
/// withdrawal in KWD has its lifetime total converted at the reference
/// rate, so KWD 200 (USD 650 at 3.25) needs tier_1, where at par it passed
/// tier_0; KWD 61.539 (USD 200.00) is the most tier_0 covers, told so in
/// KWD by the fast path and the tier record. The twin in USD at the
/// ceiling passes. A currency with no rate is 422 `no_reference_rate`.
pub fn tier_ceilings_are_in_the_profiles_currency(env: &Env) -> CaseResult {
    super::aml::import_reference_rates(env)?;
    let t = env.sandbox()?;
    let (kwd, edge, usd, unrated) = (unique("u"), unique("u"), unique("u"), unique("u"));
    for u in [&kwd, &edge, &usd, &unrated] {
        t.signup(u)?;
    }
    let held = withdraw_in(&t, &kwd, 200_000, "KWD");
    held.expect(201)?;
    ensure_eq!(held.str("required_tier"), "tier_1", held.raw);
    ensure_eq!(held.body["withdrawal_held"], json!(true));
    let decision = held.header("x-decision-id").unwrap_or_default().to_string();
    let logged = env.admin("GET", &format!("/v1/admin/decisions/{decision}"), None);
    ensure_eq!(logged.body["input"]["rate"]["currency"], json!("KWD"), logged.raw);
    ensure_eq!(logged.body["input"]["ceiling_currency"], json!("USD"));
    let replay = env.admin("POST", &format!("/v1/admin/decisions/{decision}/replay"), None);
    ensure_eq!(replay.body["identical"], json!(true), replay.raw);
    // the most tier_0 covers in KWD, then one fils more
    let fast = withdraw_in(&t, &edge, 61_539, "KWD");
    fast.expect(200)?;
    ensure_eq!(fast.body["withdrawal_held"], json!(false), fast.raw);
    ensure_eq!(fast.int("withdrawal_remaining_cents"), 0);
    let record = tier(&t, &edge);
    ensure_eq!(record.int("max_withdrawal_cents"), 61_539, record.raw);
    ensure_eq!(record.int("next_tier_required_at_cents"), 61_540);
    ensure_eq!(withdraw_in(&t, &edge, 1, "KWD").str("required_tier"), "tier_1");
    // the twin: USD at the ceiling passes tier_0
    let twin = withdraw_in(&t, &usd, 20_000, "USD");
    twin.expect(200)?;
    ensure_eq!(twin.body["withdrawal_held"], json!(false), twin.raw);
    ensure_eq!(twin.int("withdrawal_remaining_cents"), 0);
    // no rate for CHF: refused, never compared at par
    let refused = withdraw_in(&t, &unrated, 1_000, "CHF");
    refused.expect_error(422, "no_reference_rate")?;
    ensure!(refused.body["message"].as_str().is_some_and(|m| m.contains("CHF into USD")), "the message names no pair: {}", refused.raw);
    Ok(())
}
