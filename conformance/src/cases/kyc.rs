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
    let s = status(&t, r.str("kyc_check_id"));
    ensure_eq!(s.str("status"), "not_started");
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
    ensure_eq!(again.body, first.body);
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
    review(&env.admin_production, "approve").expect_error(404, "kyc_check_not_found")?;
    Ok(())
}

pub fn abandoned_checks_expire_after_seven_days(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = unique("u");
    t.signup(&user)?;
    let check = start(&t, &user, 50_000);
    let id = check.str("kyc_check_id").to_string();
    t.advance(7 * 86_400 - 60)?;
    ensure_eq!(status(&t, &id).str("status"), "not_started", "expired too early");
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
