//! The decision log and the correctness items found by reading the code
//! against the spec: every known address of a player reaches the deposit
//! gate, retried withdrawals count once, one withdrawal currency per user,
//! regulator propagation only after an export, and overdue reviews surface.

use std::time::{Duration, Instant};

use serde_json::{json, Value as Json};

use crate::client::{unique, unique_phone, Tenant};
use crate::{ensure, ensure_eq, CaseResult, Env, Resp};

/// Reads a decision as an admin, waiting for read-only decisions, which are written off the request path.
fn read_decision(env: &Env, id: &str) -> Result<Resp, String> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let r = env.admin("GET", &format!("/v1/admin/decisions/{id}"), None);
        if r.status != 404 || Instant::now() > deadline {
            return Ok(r);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn decision_id(r: &Resp) -> Result<String, String> {
    r.header("x-decision-id").map(str::to_string).ok_or_else(|| format!("no x-decision-id on {}", r.raw))
}

fn set_limit(t: &Tenant<'_>, user: &str, cents: i64) -> Result<Resp, String> {
    Ok(t.post(
        "/v1/limits",
        json!({ "user_id": user, "limit_type": "limit_daily", "amount_cents": cents, "currency": "USD", "requested_at": t.now_iso()? }),
    ))
}

fn deposit_check(t: &Tenant<'_>, user: &str, cents: i64) -> Resp {
    t.post("/v1/limits/check", json!({ "user_id": user, "amount_cents": cents, "currency": "USD" }))
}

fn withdraw(t: &Tenant<'_>, user: &str, cents: i64, currency: &str, withdrawal_id: Option<&str>) -> Resp {
    let mut body = json!({ "user_id": user, "email": format!("{user}@example.com"), "phone": unique_phone(), "withdrawal_amount_cents": cents, "currency": currency });
    if let Some(id) = withdrawal_id {
        body["withdrawal_id"] = json!(id);
    }
    t.post("/v1/kyc/start", body)
}

fn cumulative(t: &Tenant<'_>, user: &str) -> i64 {
    t.get(&format!("/v1/kyc/tier?user_id={user}")).int("cumulative_withdrawn_cents")
}

pub fn decisions_are_logged_with_the_rules_hash_and_replay_identically(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = unique("u");
    t.signup(&user)?;
    let rules_sha = t.get("/v1/rules").str("component_sha256").to_string();
    ensure!(rules_sha.len() == 64, "GET /v1/rules has no hash");

    // A state-changing decision is written with the change: readable at once.
    let set = set_limit(&t, &user, 10_000)?;
    set.expect(201)?;
    let changed = decision_id(&set)?;
    let d = env.admin("GET", &format!("/v1/admin/decisions/{changed}"), None);
    d.expect(200)?;
    ensure_eq!(d.str("operation"), "limit_change");
    ensure_eq!(d.str("rules_sha256"), rules_sha.as_str());
    ensure_eq!(d.str("tenant_id"), t.tenant_id.as_str());
    ensure_eq!(d.body["input"]["amount_cents"], json!(10_000));
    ensure!(d.body["output"]["Ok"]["apply"].is_object(), "the limit change decision is not recorded: {}", d.raw);
    ensure!(!d.str("decided_at").is_empty() && !d.str("rules_version").is_empty(), "decision lacks its time or version");

    // A read-only check is logged off the hot path, but logged.
    let check = deposit_check(&t, &user, 5_000);
    check.expect(200)?;
    ensure_eq!(check.body["allowed"], json!(true));
    let read = decision_id(&check)?;
    let d = read_decision(env, &read)?;
    d.expect(200)?;
    ensure_eq!(d.str("operation"), "deposit");
    ensure_eq!(d.body["input"]["amount_cents"], json!(5_000));
    ensure!(d.body["output"]["Ok"]["allowed"].is_object(), "the deposit decision is not recorded: {}", d.raw);

    // Replay through the rules the host runs.
    for id in [&changed, &read] {
        let r = env.admin("POST", &format!("/v1/admin/decisions/{id}/replay"), None);
        r.expect(200)?;
        ensure_eq!(r.body["identical"], json!(true));
        ensure_eq!(r.body["differences"], json!([]));
        ensure_eq!(r.str("replayed_rules_sha256"), rules_sha.as_str());
    }
    ensure!(env.call("GET", "/v1/health", None, None).header("x-decision-id").is_none(), "health carries no decision");
    Ok(())
}

pub fn decision_log_is_admin_only_scoped_and_filtered(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let other = env.sandbox()?;
    let user = unique("u");
    t.signup(&user)?;
    let id = decision_id(set_limit(&t, &user, 20_000)?.expect(201)?)?;
    t.get(&format!("/v1/admin/decisions/{id}")).expect_error(403, "forbidden")?;
    env.call("GET", &format!("/v1/admin/decisions/{id}"), Some(&env.admin_production), None).expect_error(404, "decision_not_found")?;
    env.admin("GET", "/v1/admin/decisions/dec_unknown", None).expect_error(404, "decision_not_found")?;
    let mine = env.admin("GET", &format!("/v1/admin/decisions?tenant_id={}&user_id={user}", t.tenant_id), None);
    mine.expect(200)?;
    let ids: Vec<&str> = mine.body["decisions"].as_array().map(|a| a.iter().filter_map(|d| d["decision_id"].as_str()).collect()).unwrap_or_default();
    ensure!(ids.contains(&id.as_str()), "the tenant's list lacks {id}: {}", mine.raw);
    let theirs = env.admin("GET", &format!("/v1/admin/decisions?tenant_id={}", other.tenant_id), None);
    theirs.expect(200)?;
    ensure!(!theirs.raw.contains(&id), "another tenant's list shows {id}");
    let past = env.admin("GET", &format!("/v1/admin/decisions?tenant_id={}&to=2000-01-01T00:00:00Z", t.tenant_id), None);
    ensure_eq!(past.body["decisions"], json!([]));
    env.admin("GET", "/v1/admin/decisions?from=yesterday", None).expect_error(400, "invalid_field")?;
    env.admin("GET", "/v1/admin/decisions?cursor=%%%", None).expect_error(400, "invalid_cursor")?;
    Ok(())
}

pub fn deposit_gate_matches_every_email_and_phone_known_for_the_player(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let elsewhere = env.sandbox()?;
    // A phone given at KYC start, excluded by a regulator import (phone only).
    let (by_phone, phone) = (unique("u"), unique_phone());
    t.signup(&by_phone)?;
    let start = t.post(
        "/v1/kyc/start",
        json!({ "user_id": by_phone, "email": format!("{by_phone}@example.com"), "phone": phone, "withdrawal_amount_cents": 100, "currency": "USD" }),
    );
    start.expect(200)?;
    ensure_eq!(deposit_check(&t, &by_phone, 100).body["allowed"], json!(true));
    env.admin("POST", "/v1/admin/exclusions/regulator-import", Some(&json!({ "entries": [{ "phone": phone }] }))).expect(200)?;
    let r = deposit_check(&t, &by_phone, 100);
    ensure_eq!(r.str("reason"), "self_excluded", r.raw);
    let commit = t.post("/v1/limits/commit", json!({ "transaction_id": unique("tx"), "user_id": by_phone, "amount_cents": 100, "currency": "USD" }));
    commit.expect_error(422, "self_excluded")?;

    // An e-mail given at KYC start, excluded at another tenant.
    let (by_email, kyc_email) = (unique("u"), format!("{}@example.com", unique("k")));
    t.signup(&by_email)?;
    let start = t.post(
        "/v1/kyc/start",
        json!({ "user_id": by_email, "email": kyc_email, "phone": unique_phone(), "withdrawal_amount_cents": 100, "currency": "USD" }),
    );
    start.expect(200)?;
    let excluder = unique("u");
    elsewhere.signup(&excluder)?;
    let register = json!({ "user_id": excluder, "email": kyc_email, "duration": "duration_30d", "reason": "self_initiated", "initiated_at": elsewhere.now_iso()? });
    elsewhere.post("/v1/exclusions", register).expect(201)?;
    ensure_eq!(deposit_check(&t, &by_email, 100).str("reason"), "self_excluded");

    // The negative twin: a player with other addresses still deposits.
    let free = unique("u");
    t.signup(&free)?;
    withdraw(&t, &free, 100, "USD", None).expect(200)?;
    ensure_eq!(deposit_check(&t, &free, 100).body["allowed"], json!(true));
    Ok(())
}

pub fn a_retried_withdrawal_counts_once(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = unique("u");
    t.signup(&user)?;
    let wid = unique("wd");
    let first = withdraw(&t, &user, 5_000, "USD", Some(&wid));
    first.expect(200)?;
    let again = withdraw(&t, &user, 5_000, "USD", Some(&wid));
    again.expect(200)?;
    ensure_eq!(again.str("withdrawal_id"), first.str("withdrawal_id"));
    ensure_eq!(cumulative(&t, &user), 5_000);
    withdraw(&t, &user, 6_000, "USD", Some(&wid)).expect_error(409, "withdrawal_id_reused")?;
    ensure_eq!(cumulative(&t, &user), 5_000);

    // The Idempotency-Key header does the same for any POST.
    let key = unique("idem");
    let body = json!({ "user_id": user, "email": "p@example.com", "phone": "+44 7700 900123", "withdrawal_amount_cents": 1_000, "currency": "USD" });
    let one = t.post_with("/v1/kyc/start", body.clone(), &[("idempotency-key", &key)]);
    one.expect(200)?;
    let two = t.post_with("/v1/kyc/start", body, &[("idempotency-key", &key)]);
    two.expect(200)?;
    ensure_eq!(two.body, one.body);
    ensure_eq!(cumulative(&t, &user), 6_000);
    let other = json!({ "user_id": user, "email": "p@example.com", "phone": "+44 7700 900123", "withdrawal_amount_cents": 2_000, "currency": "USD" });
    t.post_with("/v1/kyc/start", other, &[("idempotency-key", &key)]).expect_error(409, "idempotency_key_reused")?;
    t.post_with("/v1/kyc/start", json!({}), &[("idempotency-key", "bad key with spaces")]).expect_error(400, "invalid_idempotency_key")?;

    // With neither, a repeat of a withdrawal released at once is taken for
    // a blind retry for 10 minutes: answered again, counted once. The keyed
    // one above is retried under its key: this is a new withdrawal.
    let blind = withdraw(&t, &user, 1_000, "USD", None);
    blind.expect(200)?;
    ensure!(blind.str("withdrawal_id") != one.str("withdrawal_id"), "a request without the key repeated the keyed withdrawal");
    ensure_eq!(cumulative(&t, &user), 7_000);
    t.advance(599)?;
    let retry = withdraw(&t, &user, 1_000, "USD", None);
    retry.expect(200)?;
    ensure_eq!(retry.str("withdrawal_id"), blind.str("withdrawal_id"));
    ensure_eq!(cumulative(&t, &user), 7_000);
    // its twins, each a new withdrawal: another amount, an operator's id, past the 10 minutes
    let other_amount = withdraw(&t, &user, 1_001, "USD", None);
    other_amount.expect(200)?;
    ensure!(other_amount.str("withdrawal_id") != blind.str("withdrawal_id"), "another amount repeated the withdrawal");
    ensure_eq!(cumulative(&t, &user), 8_001);
    let named = withdraw(&t, &user, 1_000, "USD", Some(&unique("wd")));
    named.expect(200)?;
    ensure!(named.str("withdrawal_id") != blind.str("withdrawal_id"), "a withdrawal with its own id repeated another");
    ensure_eq!(cumulative(&t, &user), 9_001);
    t.advance(2)?;
    let later = withdraw(&t, &user, 1_000, "USD", None);
    later.expect(200)?;
    ensure!(later.str("withdrawal_id") != blind.str("withdrawal_id"), "a withdrawal 601 s later repeated the first");
    ensure_eq!(cumulative(&t, &user), 10_001);
    // ... and anything written for the player since (here a deposit; a hold alike) makes the same request a new one
    t.post("/v1/limits/commit", json!({ "transaction_id": unique("tx"), "user_id": user, "amount_cents": 500, "currency": "USD" })).expect(201)?;
    let after_deposit = withdraw(&t, &user, 1_000, "USD", None);
    after_deposit.expect(200)?;
    ensure!(after_deposit.str("withdrawal_id") != later.str("withdrawal_id"), "a withdrawal after a deposit repeated the one before it");
    ensure_eq!(cumulative(&t, &user), 11_001);
    let retried = withdraw(&t, &user, 1_000, "USD", None);
    ensure_eq!(retried.str("withdrawal_id"), after_deposit.str("withdrawal_id"));
    ensure_eq!(cumulative(&t, &user), 11_001);
    Ok(())
}

/// Blind retries sent at once (a client that times out and retries in a
/// burst) count one withdrawal; its twin, a burst of distinct withdrawals
/// (each with its own id), counts every one it answers.
pub fn a_burst_of_blind_retries_counts_one_withdrawal(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let (user, twin) = (unique("u"), unique("u"));
    t.signup(&user)?;
    t.signup(&twin)?;
    let burst = |user: &str, named: bool| -> Vec<(u16, String)> {
        let t = &t;
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..8)
                .map(|_| {
                    s.spawn(move || {
                        let id = named.then(|| unique("wd"));
                        let r = withdraw(t, user, 1_000, "USD", id.as_deref());
                        (r.status, r.body["withdrawal_id"].as_str().unwrap_or_default().to_string())
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or((0, String::new()))).collect()
        })
    };
    let blind = burst(&user, false);
    ensure!(blind.iter().all(|(status, _)| *status == 200), "statuses {blind:?}");
    ensure!(blind.iter().all(|(_, id)| !id.is_empty() && *id == blind[0].1), "the burst answered other withdrawals: {blind:?}");
    ensure_eq!(cumulative(&t, &user), 1_000);
    // distinct withdrawals of one user race on its claim: one a round wins, and one that
    // loses five rounds is 409 `concurrent_update` (to retry); every one answered 200 counts.
    // Each lost round is another's commit, so one 409 means at least five were released.
    let named = burst(&twin, true);
    ensure!(named.iter().all(|(status, id)| (*status == 200 && !id.is_empty()) || (*status == 409 && id.is_empty())), "statuses {named:?}");
    let released: std::collections::BTreeSet<&str> = named.iter().filter(|(status, _)| *status == 200).map(|(_, id)| id.as_str()).collect();
    let answered = named.iter().filter(|(status, _)| *status == 200).count();
    ensure_eq!(released.len(), answered, format!("{named:?}"));
    ensure!(answered >= 5, "only {answered} of 8 distinct withdrawals were answered: {named:?}");
    ensure_eq!(cumulative(&t, &twin), 1_000 * i64::try_from(answered).unwrap_or(0));
    Ok(())
}

pub fn withdrawals_stay_in_the_first_currency(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = unique("u");
    t.signup(&user)?;
    withdraw(&t, &user, 1_000, "USD", None).expect(200)?;
    let r = withdraw(&t, &user, 1_000, "EUR", None);
    r.expect_error(400, "currency_mismatch")?;
    ensure!(r.header("x-decision-id").is_some(), "a refusal decided by the rules names its decision");
    ensure_eq!(cumulative(&t, &user), 1_000);
    withdraw(&t, &user, 1_500, "USD", None).expect(200)?;
    ensure_eq!(cumulative(&t, &user), 2_500);
    Ok(())
}

pub fn regulator_propagation_is_true_only_after_an_export(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let register = |user: &str, duration: &str| -> Result<Resp, String> {
        let body = json!({ "user_id": user, "email": format!("{}@example.com", unique("x")), "duration": duration, "reason": "self_initiated", "initiated_at": t.now_iso()? });
        Ok(t.post("/v1/exclusions", body))
    };
    let (long, short) = (unique("u"), unique("u"));
    t.signup(&long)?;
    t.signup(&short)?;
    let six = register(&long, "duration_6m")?;
    six.expect(201)?;
    ensure_eq!(six.body["regulator_eligible"], json!(true));
    ensure_eq!(six.body["regulator_propagated"], json!(false));
    let day = register(&short, "duration_24h")?;
    day.expect(201)?;
    ensure_eq!(day.body["regulator_eligible"], json!(false));
    t.post("/v1/admin/exclusions/regulator-export", json!({})).expect_error(403, "forbidden")?;
    let export = env.admin("POST", "/v1/admin/exclusions/regulator-export", Some(&json!({})));
    export.expect(200)?;
    ensure!(export.raw.contains(six.str("exclusion_id")), "the export lacks the 6-month exclusion");
    ensure!(!export.raw.contains(day.str("exclusion_id")), "the export holds a 24-hour exclusion");
    let repeat = register(&long, "duration_6m")?;
    repeat.expect(200)?;
    ensure_eq!(repeat.body["regulator_propagated"], json!(true));
    let again = env.admin("POST", "/v1/admin/exclusions/regulator-export", Some(&json!({})));
    ensure!(!again.raw.contains(six.str("exclusion_id")), "an exclusion was exported twice");
    Ok(())
}

fn listed(r: &Resp, list: &str, id_field: &str, id: &str) -> Option<Json> {
    r.body[list].as_array().and_then(|a| a.iter().find(|c| c[id_field] == id)).cloned()
}

pub fn overdue_reviews_are_listed_and_counted(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let hit = unique("u");
    let r = t.post("/v1/sanctions/screen", crate::client::identity(&hit, "SanctionedSam", "Lee", &format!("{hit}@example.com")));
    r.expect(201)?;
    let case_id = r.str("case_id").to_string();
    let manual = unique("u");
    t.signup(&manual)?;
    let check = withdraw(&t, &manual, 50_000, "USD", None);
    check.expect(201)?;
    let check_id = check.str("kyc_check_id").to_string();
    t.post(&format!("/v1/sandbox/kyc/{check_id}/submit"), json!({})).expect(202)?;
    let escalated = env.admin("GET", "/v1/admin/kyc/checks?status=pending_review&escalated=true", None);
    escalated.expect(200)?;
    ensure!(listed(&escalated, "checks", "kyc_check_id", &check_id).is_none(), "a fresh check is listed as escalated");

    let cases = env.admin("GET", "/v1/admin/sanctions/cases?overdue=true", None);
    cases.expect(200)?;
    ensure!(listed(&cases, "cases", "case_id", &case_id).is_none(), "a fresh case is listed as overdue");
    let open = env.admin("GET", "/v1/admin/sanctions/cases", None);
    let fresh = listed(&open, "cases", "case_id", &case_id).ok_or("the open case is not listed")?;
    ensure_eq!(fresh["overdue"], json!(false));
    ensure!(fresh["age_seconds"].as_i64().is_some_and(|a| a >= 0), "the case has no age");

    t.advance(49 * 3_600)?;
    let cases = env.admin("GET", "/v1/admin/sanctions/cases?overdue=true", None);
    let late = listed(&cases, "cases", "case_id", &case_id).ok_or("the case is not overdue after 49 hours")?;
    ensure_eq!(late["overdue"], json!(true));
    let checks = env.admin("GET", "/v1/admin/kyc/checks?status=pending_review&overdue=true", None);
    checks.expect(200)?;
    let waiting = listed(&checks, "checks", "kyc_check_id", &check_id).ok_or("the check is not overdue after 49 hours")?;
    ensure!(waiting["age_seconds"].as_i64().is_some_and(|a| a >= 49 * 3_600), "age {}", waiting["age_seconds"]);
    ensure_eq!(waiting["escalation"], json!("review_overdue"));
    let escalated = env.admin("GET", "/v1/admin/kyc/checks?status=pending_review&escalated=true", None);
    ensure!(listed(&escalated, "checks", "kyc_check_id", &check_id).is_some(), "an overdue check is not escalated");
    env.admin("GET", "/v1/admin/kyc/checks?escalated=maybe", None).expect_error(400, "invalid_field")?;
    let metrics = env.admin("GET", "/v1/admin/metrics", None);
    metrics.expect(200)?;
    ensure!(metrics.int("sanctions_cases_overdue") >= 1 && metrics.int("kyc_checks_overdue") >= 1, "metrics miss the overdue work: {}", metrics.raw);
    env.admin("GET", "/v1/admin/sanctions/cases?overdue=maybe", None).expect_error(400, "invalid_field")?;
    t.get("/v1/admin/metrics").expect_error(403, "forbidden")?;
    Ok(())
}

/// Walks a review list page by page from `path` (which has a query), the
/// items' ids in order; fails on a repeated id.
fn walk(env: &Env, path: &str, list: &str, id_field: &str) -> Result<Vec<String>, String> {
    let mut ids: Vec<String> = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..1_000 {
        let page = match &cursor {
            None => env.admin("GET", path, None),
            Some(c) => env.admin("GET", &format!("{path}&cursor={c}"), None),
        };
        page.expect(200)?;
        for item in page.body[list].as_array().cloned().unwrap_or_default() {
            let id = item[id_field].as_str().unwrap_or("").to_string();
            ensure!(!ids.contains(&id), "{id} was served twice");
            ids.push(id);
        }
        if page.body["has_more"] != json!(true) {
            ensure!(page.body["next_cursor"].is_null(), "the last page has a cursor: {}", page.raw);
            return Ok(ids);
        }
        cursor = Some(page.str("next_cursor").to_string());
    }
    Err("the list did not end".into())
}

/// Review lists page with cursors (no silent cap) and filter by type and age.
pub fn review_lists_page_with_cursors_and_filter(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let mut ours = Vec::new();
    for _ in 0..3 {
        let user = unique("u");
        let r = t.post("/v1/sanctions/screen", crate::client::identity(&user, "SanctionedSam", "Page", &format!("{user}@example.com")));
        r.expect(201)?;
        ours.push(r.str("case_id").to_string());
    }
    let served = walk(env, "/v1/admin/sanctions/cases?type=sanctions_hit&limit=2", "cases", "case_id")?;
    for id in &ours {
        ensure!(served.contains(id), "case {id} was not served across the pages");
    }
    let first = env.admin("GET", "/v1/admin/sanctions/cases?limit=1", None);
    ensure_eq!(first.body["cases"].as_array().map(Vec::len), Some(1));
    ensure_eq!(first.body["has_more"], json!(true));
    let due_diligence = env.admin("GET", "/v1/admin/sanctions/cases?type=enhanced_due_diligence&limit=500", None);
    ensure!(
        due_diligence.body["cases"].as_array().is_some_and(|c| c.iter().all(|c| c["case_type"] == "enhanced_due_diligence")),
        "type filter: {}",
        due_diligence.raw
    );
    // Age: a case of this tenant is listed as waiting an hour only after an hour.
    let aged =
        |env: &Env| -> Result<Vec<String>, String> { walk(env, "/v1/admin/sanctions/cases?min_age_seconds=3600&limit=500", "cases", "case_id") };
    ensure!(!aged(env)?.contains(&ours[0]), "a fresh case is listed as an hour old");
    t.advance(3_601)?;
    ensure!(aged(env)?.contains(&ours[0]), "a case an hour old is not listed");

    // Checks awaiting review page the same way.
    let mut checks = Vec::new();
    for _ in 0..2 {
        let user = unique("u");
        t.signup(&user)?;
        let check = withdraw(&t, &user, 50_000, "USD", None);
        let id = check.str("kyc_check_id").to_string();
        t.post(&format!("/v1/sandbox/kyc/{id}/submit"), json!({})).expect(202)?;
        checks.push(id);
    }
    let served = walk(env, "/v1/admin/kyc/checks?status=pending_review&limit=1", "checks", "kyc_check_id")?;
    for id in &checks {
        ensure!(served.contains(id), "check {id} was not served across the pages");
    }
    for bad in ["cursor=not-ours", "limit=0", "limit=501", "type=other", "min_age_seconds=-1"] {
        let r = env.admin("GET", &format!("/v1/admin/sanctions/cases?{bad}"), None);
        ensure!(r.status == 400, "{bad}: {}", r.raw);
    }
    env.admin("GET", "/v1/admin/kyc/checks?cursor=not-ours", None).expect_error(400, "invalid_cursor")?;
    Ok(())
}
