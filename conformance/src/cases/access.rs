//! Issue #48 item 6: a player's access request, through the routes, on every
//! host and store: the job, its release by the team, the export, and what
//! is withheld from it without telling.

use serde_json::{json, Value as Json};

use crate::client::{unique, Tenant};
use crate::{ensure, ensure_eq, CaseResult, Env};

fn ask(t: &Tenant<'_>, user: &str) -> crate::Resp {
    t.post(&format!("/v1/users/{user}/access-request"), json!({}))
}

fn report(t: &Tenant<'_>, user: &str, event_type: &str, cents: i64) -> crate::Resp {
    t.post(
        "/v1/aml/event",
        json!({ "transaction_id": unique("tx"), "user_id": user, "event_type": event_type, "amount_cents": cents, "currency": "USD",
            "payment_method": "card" }),
    )
}

/// The same records for every player: a signup, a limit, a deposit and three
/// reported transactions. `alerting`: amounts that fire an AML alert (a
/// deposit cashed out with almost no play) and hold the player's withdrawals.
fn make_player(t: &Tenant<'_>, user: &str, alerting: bool) -> CaseResult {
    t.signup(user)?;
    t.post(
        "/v1/limits",
        json!({ "user_id": user, "limit_type": "limit_daily", "amount_cents": 500_000, "currency": "USD", "requested_at": t.now_iso()? }),
    )
    .expect(201)?;
    t.post("/v1/limits/commit", json!({ "transaction_id": unique("dep"), "user_id": user, "amount_cents": 1_000, "currency": "USD" })).expect(201)?;
    let (deposit, wager, withdrawal) = if alerting { (150_000, 3_000, 145_000) } else { (15_000, 9_000, 5_000) };
    report(t, user, "deposit", deposit).expect(202)?;
    report(t, user, "wager", wager).expect(202)?;
    let out = report(t, user, "withdrawal", withdrawal);
    out.expect(202)?;
    ensure_eq!(out.str("outcome") == "hold_withdrawal", alerting, format!("the AML outcome: {}", out.raw));
    Ok(())
}

/// The JSON's shape: each object's keys (recursively), each list's first item's shape.
fn shape(value: &Json) -> Json {
    match value {
        Json::Object(o) => Json::Object(o.iter().map(|(k, v)| (k.clone(), shape(v))).collect()),
        Json::Array(items) => Json::Array(items.first().map(shape).into_iter().collect()),
        Json::Null => json!("null"),
        Json::Bool(_) => json!("bool"),
        Json::Number(_) => json!("number"),
        Json::String(_) => json!("string"),
    }
}

/// Releases a request in the sandbox (single step: an admin key's proposal takes effect).
fn release(env: &Env, id: &str) -> CaseResult {
    let released = env.admin("POST", &format!("/v1/admin/cases/{id}/proposal"), Some(&json!({ "outcome": "release", "reason": "checked" })));
    released.expect(200)?;
    ensure!(released.header("x-decision-id").is_some(), "the release is not a logged decision: {}", released.raw);
    Ok(())
}

/// Unknown players are 404; a repeat answers the open request; the request is
/// due its profile's period later (a calendar month by default, thirty days
/// in Ontario); nothing is exported before the team releases it; delivery
/// closes it and a new request opens anew. Another tenant never sees it.
pub fn an_access_request_is_one_open_job_due_in_its_profiles_period(env: &Env) -> CaseResult {
    let (t, other) = (env.sandbox()?, env.sandbox()?);
    ask(&t, &unique("nobody")).expect_error(404, "user_not_found")?;
    t.get("/v1/access-requests/acr_unknown").expect_error(404, "access_request_not_found")?;
    let user = unique("u");
    t.signup(&user)?;
    // another tenant's player of the same id is another player
    ask(&other, &user).expect_error(404, "user_not_found")?;
    let first = ask(&t, &user);
    first.expect(202)?;
    let id = first.str("access_request_id").to_string();
    ensure!(id.starts_with("acr_"), "no request id: {}", first.raw);
    ensure_eq!(first.str("state"), "preparing");
    ensure!(first.body.get("export").is_none(), "an export before its release: {}", first.raw);
    let (received, due) = (crate::client::parse_time(first.str("received_at"))?, crate::client::parse_time(first.str("due_at"))?);
    ensure!((28 * 86_400..=31 * 86_400).contains(&(due - received)), "not a calendar month: {}", first.raw);
    let again = ask(&t, &user);
    again.expect(202)?;
    ensure_eq!(again.str("access_request_id"), id.as_str());
    let path = format!("/v1/access-requests/{id}");
    let shown = t.get(&path);
    shown.expect(200)?;
    ensure_eq!(shown.body, first.body);
    other.get(&path).expect_error(404, "access_request_not_found")?;
    other.post(&format!("{path}/delivered"), json!({})).expect_error(404, "access_request_not_found")?;
    t.post(&format!("{path}/delivered"), json!({})).expect_error(409, "access_request_not_ready")?;
    release(env, &id)?;
    let ready = t.get(&path);
    ready.expect(200)?;
    ensure_eq!(ready.str("state"), "ready");
    ensure_eq!(ready.body["export"]["user_id"], json!(user));
    let delivered = t.post(&format!("{path}/delivered"), json!({}));
    delivered.expect(200)?;
    ensure_eq!(delivered.str("state"), "delivered");
    t.post(&format!("{path}/delivered"), json!({})).expect(200)?;
    // delivered, it is closed: the player may ask again
    let anew = ask(&t, &user);
    anew.expect(202)?;
    ensure!(anew.str("access_request_id") != id, "a delivered request answered a new one: {}", anew.raw);
    ensure_eq!(anew.str("state"), "preparing");
    // past its date it is overdue in the team's queue and in the metrics
    let overdue = |id: &str| -> Result<bool, String> {
        let q = env.admin("GET", "/v1/admin/cases?type=access_request&overdue=true&limit=500", None);
        q.expect(200)?;
        Ok(q.body["cases"].as_array().is_some_and(|c| c.iter().any(|c| c["case_id"] == json!(id) && c["overdue"] == json!(true))))
    };
    let anew_id = anew.str("access_request_id").to_string();
    ensure!(!overdue(&anew_id)?, "overdue before its date");
    t.advance(32 * 86_400)?;
    ensure!(overdue(&anew_id)?, "not overdue past its date");
    let metrics = env.call("GET", "/metrics", Some(&env.admin_sandbox), None);
    metrics.expect(200)?;
    let past_due = super::people::sample(&metrics.raw, "cgw_review_queue_past_due_items{environment=\"sandbox\",queue=\"access_request\"}");
    ensure!(past_due.is_some_and(|n| n >= 1.0), "no past-due access request in the metrics: {past_due:?}");
    // Ontario's period is thirty days, to the second
    let ontario = env.sandbox_in("CA-ON")?;
    let player = unique("u");
    ontario.signup(&player)?;
    let asked = ask(&ontario, &player);
    asked.expect(202)?;
    let span = crate::client::parse_time(asked.str("due_at"))? - crate::client::parse_time(asked.str("received_at"))?;
    ensure_eq!(span, 30 * 86_400);
    Ok(())
}

/// The export of a player with an AML alert, a case and a held withdrawal,
/// and of one without, made by the same calls: the same shape, the same
/// notice, the same states; the first holds no alert, case or hold, and the
/// team's file lists each withholding with its basis. The twin's file lists none.
pub fn an_export_withholds_suspicion_without_telling(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let (suspect, plain) = (unique("u"), unique("u"));
    make_player(&t, &suspect, true)?;
    make_player(&t, &plain, false)?;
    let alerts = env.admin("GET", &format!("/v1/admin/aml/alerts?tenant_id={}&user_id={suspect}", t.tenant_id), None);
    alerts.expect(200)?;
    let alert = alerts.body["alerts"][0].clone();
    let (alert_id, case_id) = (alert["alert_id"].as_str().unwrap_or_default().to_string(), alert["case_id"].as_str().unwrap_or_default().to_string());
    ensure!(!alert_id.is_empty() && !case_id.is_empty(), "no alert and case: {}", alerts.raw);
    let note = format!("possible mule; see {}", unique("ref"));
    env.admin("POST", &format!("/v1/admin/cases/{case_id}/comments"), Some(&json!({ "comment": note }))).expect(201)?;
    let mut answers = Vec::new();
    for user in [&suspect, &plain] {
        let asked = ask(&t, user);
        asked.expect(202)?;
        let id = asked.str("access_request_id").to_string();
        let file = env.admin("GET", &format!("/v1/admin/access-requests/{id}"), None);
        file.expect(200)?;
        let withheld = file.body["withheld"].as_array().cloned().unwrap_or_default();
        if user == &suspect {
            for (kind, record) in [("aml_alert", alert_id.as_str()), ("aml_case", case_id.as_str()), ("hold_reason", suspect.as_str())] {
                ensure!(
                    withheld.iter().any(|w| w["kind"] == kind && w["record_id"] == record && w["basis"] == file.body["withhold_basis"]),
                    "{kind} {record} is not withheld with its basis: {}",
                    file.raw
                );
            }
            ensure!(withheld.iter().any(|w| w["kind"] == "case_note"), "the team's note is not withheld: {}", file.raw);
        } else {
            ensure!(withheld.is_empty(), "the twin's file withholds: {}", file.raw);
        }
        ensure!(!file.str("withhold_basis").is_empty() && !file.str("withhold_source").is_empty(), "no basis: {}", file.raw);
        // the case is in the team's queue, due at the request's date
        let queue = env.admin("GET", "/v1/admin/cases?type=access_request&limit=500", None);
        queue.expect(200)?;
        ensure!(queue.body["cases"].as_array().is_some_and(|c| c.iter().any(|c| c["case_id"] == json!(id))), "not queued: {}", queue.raw);
        let preparing = t.get(&format!("/v1/access-requests/{id}"));
        release(env, &id)?;
        let ready = t.get(&format!("/v1/access-requests/{id}"));
        ready.expect(200)?;
        answers.push((preparing, ready, asked));
    }
    let [(s_before, s_ready, s_asked), (p_before, p_ready, p_asked)] = <[_; 2]>::try_from(answers).map_err(|_| "two answers".to_string())?;
    ensure_eq!(shape(&s_asked.body), shape(&p_asked.body));
    ensure_eq!(shape(&s_before.body), shape(&p_before.body));
    ensure_eq!(shape(&s_ready.body), shape(&p_ready.body));
    ensure_eq!(s_ready.body["export"]["notice"], p_ready.body["export"]["notice"]);
    let export = s_ready.body["export"].to_string();
    for secret in [alert_id.as_str(), case_id.as_str(), note.as_str(), "hold_withdrawal", "typolog", "alert", "suspici"] {
        ensure!(!export.contains(secret), "the export tells ({secret}): {export}");
    }
    // the operator's own records are given: the transactions reported, the deposit, the limit
    for ready in [&s_ready, &p_ready] {
        let e = &ready.body["export"];
        ensure_eq!(e["transactions"].as_array().map_or(0, Vec::len), 3);
        ensure_eq!(e["deposits"].as_array().map_or(0, Vec::len), 1);
        ensure_eq!(e["limits"].as_array().map_or(0, Vec::len), 1);
    }
    Ok(())
}

/// In production a release takes two people: a key cannot propose it, the
/// proposer cannot approve it; a second person's approval makes it ready.
/// A restricted (erased) player's request answers as unknown.
pub fn a_release_takes_two_people_and_an_erasure_ends_the_request(env: &Env) -> CaseResult {
    let p = env.tenant_with("production", 1000)?;
    env.import_list(&["--environment", "production", "--format", "ofac-csv", &crate::client::data("ofac-sdn-2022-01")])?;
    let user = unique("u");
    p.post("/v1/sanctions/screen", crate::client::identity(&user, "Ann", "Lee", &format!("{user}@example.com"))).expect(201)?;
    let asked = ask(&p, &user);
    asked.expect(202)?;
    let id = asked.str("access_request_id").to_string();
    let proposal = format!("/v1/admin/cases/{id}/proposal");
    let body = json!({ "outcome": "release", "reason": "records read; nothing to withhold" });
    env.admin_production("POST", &proposal, Some(&body)).expect_error(403, "person_required")?;
    let (first, second) = (env.person("production", "approver")?, env.person("production", "approver")?);
    let proposed = env.call("POST", &proposal, Some(&first.token), Some(&body));
    proposed.expect(201)?;
    let read = json!({ "proposal_id": proposed.body["proposal"]["proposal_id"] });
    env.call("POST", &format!("{proposal}/approve"), Some(&first.token), Some(&read)).expect_error(403, "self_approval")?;
    ensure_eq!(p.get(&format!("/v1/access-requests/{id}")).str("state"), "preparing");
    let approved = env.call("POST", &format!("{proposal}/approve"), Some(&second.token), Some(&read));
    approved.expect(200)?;
    let ready = p.get(&format!("/v1/access-requests/{id}"));
    ready.expect(200)?;
    ensure_eq!(ready.str("state"), "ready");
    ensure_eq!(ready.body["export"]["identity"]["first_name"], json!("Ann"));
    let file = env.admin_production("GET", &format!("/v1/admin/access-requests/{id}"), None);
    ensure_eq!(file.body["withheld"], json!([]), file.raw);
    // a listed player's standing and the events that told the operator of the hit are withheld, and the export
    // has the clear player's shape: no standing is ever carried
    let listed = unique("u");
    let hit = p.post(
        "/v1/sanctions/screen",
        json!({ "user_id": listed, "first_name": "Nicolas", "last_name": "Maduro Moros", "date_of_birth": "1962-11-23", "nationality": "VE",
            "email": format!("{listed}@example.com") }),
    );
    hit.expect(201)?;
    ensure_eq!(hit.str("status"), "hit_review_pending");
    let hit_id = ask(&p, &listed).str("access_request_id").to_string();
    let file = env.admin_production("GET", &format!("/v1/admin/access-requests/{hit_id}"), None);
    file.expect(200)?;
    let withheld = file.body["withheld"].as_array().cloned().unwrap_or_default();
    ensure!(
        withheld.iter().any(|w| w["kind"] == "screening_standing" && w["record_id"] == hit.body["screen_id"]),
        "the standing is not withheld: {}",
        file.raw
    );
    ensure!(withheld.iter().any(|w| w["kind"] == "webhook_event"), "the sanctions.hit event is not withheld: {}", file.raw);
    let proposal = format!("/v1/admin/cases/{hit_id}/proposal");
    let proposed = env.call("POST", &proposal, Some(&first.token), Some(&body));
    proposed.expect(201)?;
    let read = json!({ "proposal_id": proposed.body["proposal"]["proposal_id"] });
    env.call("POST", &format!("{proposal}/approve"), Some(&second.token), Some(&read)).expect(200)?;
    let listed_ready = p.get(&format!("/v1/access-requests/{hit_id}"));
    listed_ready.expect(200)?;
    ensure_eq!(listed_ready.str("state"), "ready");
    ensure_eq!(shape(&listed_ready.body["export"]["screening"]), shape(&ready.body["export"]["screening"]));
    let export = listed_ready.body["export"].to_string();
    for secret in ["hit_review_pending", "sanctions.", "case_id", "transactions_held", "clear\""] {
        ensure!(!export.contains(secret), "the export tells ({secret}): {export}");
    }
    ensure!(!ready.body["export"].to_string().contains("\"clear\""), "the clear player's standing is carried: {}", ready.raw);
    // an erasure restricts the player: the request and its export go
    let twin = unique("u");
    p.post("/v1/sanctions/screen", crate::client::identity(&twin, "Bob", "Lee", &format!("{twin}@example.com"))).expect(201)?;
    let kept = ask(&p, &twin);
    kept.expect(202)?;
    p.post(&format!("/v1/users/{user}/erasure"), json!({})).expect(202)?;
    p.get(&format!("/v1/access-requests/{id}")).expect_error(404, "access_request_not_found")?;
    env.admin_production("GET", &format!("/v1/admin/access-requests/{id}"), None).expect_error(404, "access_request_not_found")?;
    ask(&p, &user).expect_error(404, "user_not_found")?;
    p.get(&format!("/v1/access-requests/{}", kept.str("access_request_id"))).expect(200)?;
    Ok(())
}
