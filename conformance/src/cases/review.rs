//! The case model and the compliance team's people: the one queue,
//! assignment, comments, the timeline, proposals with a reason, and
//! four-eyes approval (production), each with its negative twins.

use serde_json::json;

use crate::client::{identity, totp_next, totp_now, unique, Env, Person};
use crate::{ensure, ensure_eq, CaseResult};

fn hit(env: &Env) -> Result<(crate::client::Tenant<'_>, String, String), String> {
    let t = env.sandbox()?;
    let user = unique("u");
    let r = t.post("/v1/sanctions/screen", identity(&user, "SanctionedSam", "Queue", &format!("{user}@example.com")));
    r.expect(201)?;
    ensure_eq!(r.str("status"), "hit_review_pending");
    let case_id = r.str("case_id").to_string();
    Ok((t, user, case_id))
}

fn as_person(env: &Env, person: &Person, method: &str, path: &str, body: Option<serde_json::Value>) -> crate::Resp {
    env.call(method, path, Some(&person.token), body.as_ref())
}

/// The body of an approval or a rejection: the proposal an answer showed.
fn read_proposal(shown: &crate::Resp) -> Result<serde_json::Value, String> {
    let id = shown.body["proposal"]["proposal_id"].as_str().ok_or(format!("no pending proposal shown: {}", shown.raw))?;
    Ok(json!({ "proposal_id": id }))
}

fn timeline_kinds(file: &crate::Resp) -> Vec<String> {
    file.body["timeline"].as_array().into_iter().flatten().filter_map(|e| e["kind"].as_str().map(str::to_string)).collect()
}

/// Waits until no list of the environment has users left to re-screen after
/// an import, running the scheduled work meanwhile: a re-screen is new
/// evidence, and a proposal made before it would be dropped at approval.
pub fn settle_rescreens(env: &Env, environment: &str) -> CaseResult {
    let admin = |method: &str, path: &str, body: Option<&serde_json::Value>| {
        if environment == "production" {
            env.admin_production(method, path, body)
        } else {
            env.admin_sandbox(method, path, body)
        }
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let lists = admin("GET", "/v1/admin/sanctions/lists", None);
        lists.expect(200)?;
        if !lists.body["lists"].as_array().into_iter().flatten().any(|l| l["rescreen_pending"] == json!(true)) {
            return Ok(());
        }
        ensure!(std::time::Instant::now() < deadline, "re-screens after a list import did not finish in 60 s: {}", lists.raw);
        admin("POST", "/v1/admin/scheduler/run", Some(&json!({}))).expect(200)?;
    }
}

/// A decision by two people: a reviewer proposes, an approver approves.
pub fn decide_with_four_eyes(env: &Env, environment: &str, case_id: &str, outcome: &str) -> CaseResult {
    settle_rescreens(env, environment)?;
    let proposer = env.person(environment, "reviewer")?;
    let approver = env.person(environment, "approver")?;
    let proposal = format!("/v1/admin/cases/{case_id}/proposal");
    let proposed =
        as_person(env, &proposer, "POST", &proposal, Some(json!({ "outcome": outcome, "reason": "checked against the list entry's record" })));
    proposed.expect(201)?;
    ensure_eq!(proposed.str("status"), "pending_approval", proposed.raw);
    let approved = as_person(env, &approver, "POST", &format!("{proposal}/approve"), Some(read_proposal(&proposed)?));
    approved.expect(200)?;
    ensure_eq!(approved.str("status"), "closed", approved.raw);
    ensure_eq!(approved.str("decided_by"), approver.person_id.as_str());
    ensure!(approved.header("x-decision-id").is_some(), "the approval names no rules decision");
    Ok(())
}

/// In the sandbox a decision is single-step: it takes effect at once, with
/// its reason, and the case leaves the open queue for the closed one.
pub fn a_sandbox_decision_is_single_step_with_a_reason(env: &Env) -> CaseResult {
    let (t, user, case_id) = hit(env)?;
    let queue = env.admin("GET", "/v1/admin/cases?type=sanctions_hit&limit=500", None);
    queue.expect(200)?;
    let row = queue.body["cases"].as_array().and_then(|c| c.iter().find(|c| c["case_id"] == json!(case_id))).cloned();
    let row = row.ok_or(format!("the open queue lacks {case_id}"))?;
    ensure_eq!(row["status"], json!("open"));
    ensure_eq!(row["user_id"], json!(user));
    ensure!(row["review_due_at"].is_string(), "no due time: {row}");

    let proposal = format!("/v1/admin/cases/{case_id}/proposal");
    env.admin("POST", &proposal, Some(&json!({ "outcome": "false_positive", "reason": "   " }))).expect_error(400, "missing_fields")?;
    env.admin("POST", &proposal, Some(&json!({ "outcome": "approve", "reason": "wrong type" }))).expect_error(400, "invalid_field")?;
    env.admin("POST", &proposal, Some(&json!({ "outcome": "maybe", "reason": "x" }))).expect_error(400, "invalid_field")?;
    // still open after the refusals
    ensure_eq!(t.get(&format!("/v1/sanctions/status?user_id={user}")).str("status"), "hit_review_pending");

    let decided = env.admin("POST", &proposal, Some(&json!({ "outcome": "false_positive", "reason": "date of birth differs by 30 years" })));
    decided.expect(200)?;
    ensure_eq!(decided.str("status"), "closed", decided.raw);
    ensure_eq!(decided.str("decided_outcome"), "false_positive");
    ensure!(decided.header("x-decision-id").is_some(), "no rules decision named");
    ensure_eq!(t.get(&format!("/v1/sanctions/status?user_id={user}")).str("status"), "cleared");
    env.admin("POST", &proposal, Some(&json!({ "outcome": "true_match", "reason": "again" }))).expect_error(409, "case_closed")?;

    let file = env.admin("GET", &format!("/v1/admin/cases/{case_id}"), None);
    file.expect(200)?;
    ensure_eq!(file.str("status"), "closed");
    ensure_eq!(file.body["four_eyes"], json!(false));
    ensure_eq!(timeline_kinds(&file), vec!["opened", "proposed", "approved"]);
    ensure_eq!(file.body["timeline"][1]["detail"]["reason"], json!("date of birth differs by 30 years"));
    let closed = env.admin("GET", "/v1/admin/cases?status=closed&type=sanctions_hit&limit=500", None);
    ensure!(closed.raw.contains(&case_id), "the closed queue lacks the case");
    let open = env.admin("GET", "/v1/admin/cases?limit=500", None);
    ensure!(!open.raw.contains(&case_id), "a decided case is still in the open queue");
    env.admin("GET", "/v1/admin/cases/case_nope", None).expect_error(404, "case_not_found")?;
    env.admin("GET", "/v1/admin/cases?status=whatever", None).expect_error(400, "invalid_field")?;
    t.get("/v1/admin/cases").expect_error(403, "forbidden")?;
    Ok(())
}

/// Assignment by role, `take`, the queue's assignee filter, append-only
/// comments and the timeline with each event's actor.
pub fn assignment_comments_and_the_timeline(env: &Env) -> CaseResult {
    let (t, _, case_id) = hit(env)?;
    let reviewer = env.person("sandbox", "reviewer")?;
    let supervisor = env.person("sandbox", "supervisor")?;
    let path = |action: &str| format!("/v1/admin/cases/{case_id}/{action}");

    // a reviewer takes a case, but does not hand cases to others; a key cannot take one
    let taken = as_person(env, &reviewer, "POST", &path("take"), None);
    taken.expect(200)?;
    ensure_eq!(taken.str("assignee"), reviewer.person_id.as_str());
    as_person(env, &reviewer, "POST", &path("assign"), Some(json!({ "assignee": supervisor.person_id }))).expect_error(403, "role_forbidden")?;
    env.admin("POST", &path("take"), None).expect_error(403, "person_required")?;
    env.admin("POST", &path("assign"), Some(&json!({ "assignee": "per_nobody" }))).expect_error(404, "person_not_found")?;

    // the queue of "me" and of "none"
    let mine = as_person(env, &reviewer, "GET", "/v1/admin/cases?assignee=me&limit=500", None);
    mine.expect(200)?;
    ensure!(mine.raw.contains(&case_id), "the reviewer's queue lacks the taken case");
    let unassigned = env.admin("GET", "/v1/admin/cases?assignee=none&limit=500", None);
    ensure!(!unassigned.raw.contains(&case_id), "a taken case is listed as unassigned");
    env.admin("GET", "/v1/admin/cases?assignee=me", None).expect_error(400, "invalid_field")?;

    // a supervisor assigns to themselves, then leaves it unassigned
    let assigned = as_person(env, &supervisor, "POST", &path("assign"), Some(json!({ "assignee": supervisor.person_id })));
    assigned.expect(200)?;
    ensure_eq!(assigned.str("assignee"), supervisor.person_id.as_str());
    as_person(env, &reviewer, "POST", &path("unassign"), None).expect_error(403, "role_forbidden")?;
    let left = as_person(env, &supervisor, "POST", &path("unassign"), None);
    left.expect(200)?;
    ensure!(left.body["assignee"].is_null(), "still assigned: {}", left.raw);

    // comments: required text, appended with their author
    as_person(env, &reviewer, "POST", &path("comments"), Some(json!({ "comment": "" }))).expect_error(400, "missing_fields")?;
    as_person(env, &reviewer, "POST", &path("comments"), Some(json!({ "comment": "x".repeat(4_001) }))).expect_error(400, "invalid_field")?;
    as_person(env, &reviewer, "POST", &path("comments"), Some(json!({ "comment": "asked the operator for an ID" }))).expect(201)?;
    let file = env.admin("GET", &format!("/v1/admin/cases/{case_id}"), None);
    file.expect(200)?;
    ensure_eq!(timeline_kinds(&file), vec!["opened", "assigned", "assigned", "unassigned", "commented"]);
    let comment = &file.body["timeline"][4];
    ensure_eq!(comment["actor"], json!(reviewer.person_id));
    ensure_eq!(comment["detail"]["comment"], json!("asked the operator for an ID"));
    ensure_eq!(file.body["timeline"][1]["actor"], json!(reviewer.person_id));

    // tags: the team's labels, in the case file and as a queue filter
    let tag = format!("t-{}", unique("x").to_lowercase().replace(['_', '.'], "-"));
    let tag: String = tag.chars().take(40).collect();
    as_person(env, &reviewer, "PUT", &path("tags"), Some(json!({ "tags": ["Not Valid"] }))).expect_error(400, "invalid_field")?;
    as_person(env, &reviewer, "PUT", &path("tags"), Some(json!({ "tags": "pep" }))).expect_error(400, "invalid_field")?;
    let tagged = as_person(env, &reviewer, "PUT", &path("tags"), Some(json!({ "tags": [tag, "pep-check", tag] })));
    tagged.expect(200)?;
    ensure_eq!(tagged.body["tags"].as_array().map(Vec::len), Some(2), tagged.raw);
    let by_tag = env.admin("GET", &format!("/v1/admin/cases?tag={tag}"), None);
    by_tag.expect(200)?;
    ensure_eq!(by_tag.body["cases"].as_array().map(Vec::len), Some(1), by_tag.raw);
    ensure_eq!(by_tag.body["cases"][0]["case_id"], json!(case_id));
    let other = env.admin("GET", &format!("/v1/admin/cases?tag={tag}-other"), None);
    ensure_eq!(other.body["cases"].as_array().map(Vec::len), Some(0), other.raw);
    env.admin("GET", "/v1/admin/cases?tag=NO", None).expect_error(400, "invalid_field")?;

    // a person's session is for review work, not an operator's or the admin key's routes
    as_person(env, &reviewer, "GET", "/v1/sanctions/status?user_id=x", None).expect_error(403, "forbidden")?;
    as_person(env, &supervisor, "POST", "/v1/admin/tenants", Some(json!({ "name": "x", "environment": "sandbox" })))
        .expect_error(403, "forbidden")?;
    // nothing of the case file reaches the operator
    let status = t.get(&format!("/v1/sanctions/status?user_id={}", file.str("user_id")));
    ensure!(
        !status.raw.contains("asked the operator") && !status.raw.contains(&reviewer.person_id),
        "the operator saw the case file: {}",
        status.raw
    );
    Ok(())
}

/// Sign-in takes the password and a code (each code good once), and its
/// answer is never cached; the one-time password must be changed before
/// anything else, on every route (the person routes too), with the current
/// password and a new one that is hard to guess; signing out ends the session.
pub fn people_sign_in_with_password_and_code(env: &Env) -> CaseResult {
    let make = env.console_user.as_ref().ok_or("this runner cannot create console accounts")?;
    let email = format!("{}@example.com", unique("signin"));
    let created = make("sandbox", &email, "reviewer")?;
    let password = created["password"].as_str().unwrap_or_default().to_string();
    let code = totp_now(created["totp_secret"].as_str().unwrap_or_default())?;
    let wrong = if code == "000000" { "111111" } else { "000000" };
    let body = |password: &str, totp: &str| json!({ "environment": "sandbox", "email": email, "password": password, "totp": totp });
    env.call("POST", "/v1/admin/sessions", None, Some(&body(&password, wrong))).expect_error(401, "invalid_credentials")?;
    env.call("POST", "/v1/admin/sessions", None, Some(&body("not-the-password", &code))).expect_error(401, "invalid_credentials")?;
    env.call("POST", "/v1/admin/sessions", None, Some(&json!({ "environment": "sandbox", "email": email }))).expect_error(400, "missing_fields")?;
    let signed_in = env.call("POST", "/v1/admin/sessions", None, Some(&body(&password, &code)));
    signed_in.expect(201)?;
    ensure_eq!(signed_in.header("cache-control"), Some("no-store"));
    ensure_eq!(signed_in.header("x-content-type-options"), Some("nosniff"));
    ensure_eq!(signed_in.body["must_change_password"], json!(true));
    let token = signed_in.str("session_token").to_string();
    ensure!(token.starts_with("cgw_ps_test_"), "unexpected token shape");
    // the same code is good once
    env.call("POST", "/v1/admin/sessions", None, Some(&body(&password, &code))).expect_error(401, "invalid_credentials")?;

    let refused = env.call("GET", "/v1/admin/cases", Some(&token), None);
    refused.expect_error(403, "password_change_required")?;
    ensure_eq!(refused.header("x-content-type-options"), Some("nosniff"));
    // person routes too: a TOTP reset, taking or approving a case
    let reset = json!({ "password": password, "totp": code });
    env.call("POST", "/v1/admin/people/me/totp", Some(&token), Some(&reset)).expect_error(403, "password_change_required")?;
    env.call("POST", "/v1/admin/cases/case_unknown/take", Some(&token), None).expect_error(403, "password_change_required")?;
    let approve = json!({ "proposal_id": "prp_unknown" });
    env.call("POST", "/v1/admin/cases/case_unknown/proposal/approve", Some(&token), Some(&approve)).expect_error(403, "password_change_required")?;
    let change = |current: &str, new: &str| {
        env.call("POST", "/v1/admin/people/me/password", Some(&token), Some(&json!({ "password": current, "new_password": new })))
    };
    change(&password, "short").expect_error(400, "invalid_field")?;
    change(&password, &password).expect_error(400, "invalid_field")?;
    change(&password, "password1234").expect_error(422, "weak_password")?;
    change("not-the-password", "a long and new passphrase").expect_error(401, "invalid_credentials")?;
    env.call("POST", "/v1/admin/people/me/password", Some(&token), Some(&json!({ "new_password": "a long and new passphrase" })))
        .expect_error(400, "missing_fields")?;
    change(&password, "a long and new passphrase").expect(200)?;
    env.call("GET", "/v1/admin/cases", Some(&token), None).expect(200)?;
    // a key has no password of its own
    env.admin("POST", "/v1/admin/people/me/password", Some(&json!({ "password": "x", "new_password": "a long and new passphrase" })))
        .expect_error(403, "person_required")?;

    env.call("DELETE", "/v1/admin/sessions/current", Some(&token), None).expect(200)?;
    env.call("GET", "/v1/admin/cases", Some(&token), None).expect_error(401, "invalid_credentials")?;
    Ok(())
}

/// A stolen session is not the account: a TOTP reset takes the password
/// and a current code; wrong current passwords on the password change count
/// toward the lock, which then refuses even the right password, on both
/// routes. Twin: the right password and code reset the authenticator, and
/// the new secret signs in.
pub fn a_session_alone_cannot_take_the_account_over(env: &Env) -> CaseResult {
    let make = env.console_user.as_ref().ok_or("this runner cannot create console accounts")?;
    let email = format!("{}@example.com", unique("takeover"));
    let created = make("sandbox", &email, "approver")?;
    let (one_time, secret) = (created["password"].as_str().unwrap_or_default(), created["totp_secret"].as_str().unwrap_or_default());
    let sign_in = |password: &str, totp: &str| {
        env.call("POST", "/v1/admin/sessions", None, Some(&json!({ "environment": "sandbox", "email": email, "password": password, "totp": totp })))
    };
    let signed_in = sign_in(one_time, &totp_now(secret)?);
    signed_in.expect(201)?;
    let token = signed_in.str("session_token").to_string();
    let post = |path: &str, body: serde_json::Value| env.call("POST", path, Some(&token), Some(&body));
    let mine = "plum radiator socks vintage";
    post("/v1/admin/people/me/password", json!({ "password": one_time, "new_password": mine })).expect(200)?;

    // the password alone does not reset the authenticator; nor does a wrong code
    post("/v1/admin/people/me/totp", json!({ "password": mine })).expect_error(400, "missing_fields")?;
    // (the sign-in took this step's code: the next step's is the one still good)
    let next = totp_next(secret)?;
    let wrong = if next == "000000" { "111111" } else { "000000" };
    post("/v1/admin/people/me/totp", json!({ "password": mine, "totp": wrong })).expect_error(401, "invalid_credentials")?;
    let reset = post("/v1/admin/people/me/totp", json!({ "password": mine, "totp": next }));
    reset.expect(200)?;
    ensure_eq!(reset.header("cache-control"), Some("no-store"));
    let new_secret = reset.str("totp_secret").to_string();
    ensure!(new_secret != secret, "the secret did not change");

    // Five guesses of the current password lock it (the reset's success started the count again)...
    // The lock counts in fixed 15-minute windows: start well inside one.
    let into_window = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_err(|e| e.to_string())?.as_secs() % 900;
    if into_window > 880 {
        std::thread::sleep(std::time::Duration::from_secs(900 - into_window + 1));
    }
    for i in 0..5 {
        post("/v1/admin/people/me/password", json!({ "password": format!("guess {i}"), "new_password": "quilt ember saffron radio" }))
            .expect_error(401, "invalid_credentials")?;
    }
    // ...then even the right password is refused, on both routes, and at sign-in from here
    post("/v1/admin/people/me/password", json!({ "password": mine, "new_password": "quilt ember saffron radio" }))
        .expect_error(401, "invalid_credentials")?;
    post("/v1/admin/people/me/totp", json!({ "password": mine, "totp": totp_now(&new_secret)? })).expect_error(401, "invalid_credentials")?;
    sign_in(mine, &totp_now(&new_secret)?).expect_error(401, "invalid_credentials")?;
    Ok(())
}

/// A production tenant, and a user of it whose screening opened a case
/// (production screens only once a list is loaded).
fn production_hit(env: &Env) -> Result<(crate::client::Tenant<'_>, String, String), String> {
    let p = env.tenant_with("production", 1000)?;
    let summary = env.import_list(&["--environment", "production", "--format", "ofac-csv", &crate::client::data("ofac-sdn-2022-01")])?;
    ensure!(summary.contains("entries"), "unexpected summary: {summary}");
    let user = unique("u");
    let hit = p.post(
        "/v1/sanctions/screen",
        json!({ "user_id": user, "first_name": "Nicolas", "last_name": "Maduro Moros", "date_of_birth": "1962-11-23", "nationality": "VE", "email": format!("{user}@example.com") }),
    );
    hit.expect(201)?;
    ensure_eq!(hit.str("status"), "hit_review_pending", hit.raw);
    let case_id = hit.str("case_id").to_string();
    Ok((p, user, case_id))
}

/// Production takes two people: the proposer's own approval, an approval by
/// a key or by a reviewer, a second proposal and a direct review are
/// refused; a re-screen after the proposal drops it; a different approver's
/// approval decides, with every effect at once. (A list case: production
/// screens only once a list is loaded.)
pub fn production_decisions_take_two_people(env: &Env) -> CaseResult {
    let (p, user, case_id) = production_hit(env)?;
    let proposal = format!("/v1/admin/cases/{case_id}/proposal");

    let first = env.person("production", "approver")?;
    let second = env.person("production", "approver")?;
    let reviewer = env.person("production", "reviewer")?;

    // a direct review is refused where four-eyes applies
    env.admin_production("POST", &format!("/v1/admin/sanctions/cases/{case_id}/review"), Some(&json!({ "decision": "dismiss", "reviewer": "a" })))
        .expect_error(403, "four_eyes_required")?;
    let proposed = as_person(env, &first, "POST", &proposal, Some(json!({ "outcome": "false_positive", "reason": "another person of that name" })));
    proposed.expect(201)?;
    ensure_eq!(proposed.str("status"), "pending_approval");
    let read = read_proposal(&proposed)?;
    ensure_eq!(p.get(&format!("/v1/sanctions/status?user_id={user}")).str("status"), "hit_review_pending");
    as_person(env, &second, "POST", &proposal, Some(json!({ "outcome": "true_match", "reason": "me too" }))).expect_error(409, "proposal_pending")?;
    as_person(env, &first, "POST", &format!("{proposal}/approve"), Some(read.clone())).expect_error(403, "self_approval")?;
    env.admin_production("POST", &format!("{proposal}/approve"), Some(&read)).expect_error(403, "person_required")?;
    as_person(env, &reviewer, "POST", &format!("{proposal}/approve"), Some(read.clone())).expect_error(403, "role_forbidden")?;
    let queue = as_person(env, &second, "GET", "/v1/admin/cases?status=pending_approval&limit=500", None);
    ensure!(queue.raw.contains(&case_id), "the pending-approval queue lacks the case: {}", queue.raw);

    // new evidence: a re-screen drops the proposal (screening times are whole seconds: the re-screen's is a later one)
    std::thread::sleep(std::time::Duration::from_millis(1_100));
    env.admin_production("POST", "/v1/admin/sanctions/rescreen", Some(&json!({ "tenant_id": p.tenant_id, "user_id": user }))).expect(200)?;
    as_person(env, &second, "POST", &format!("{proposal}/approve"), Some(read.clone())).expect_error(409, "stale_proposal")?;
    ensure_eq!(p.get(&format!("/v1/sanctions/status?user_id={user}")).str("status"), "hit_review_pending");
    // dropped: no proposal is pending, so the one read is stale
    as_person(env, &second, "POST", &format!("{proposal}/approve"), Some(read)).expect_error(409, "stale_proposal")?;

    // proposed again, approved by another person: decided, holds lifted
    settle_rescreens(env, "production")?;
    let again = as_person(env, &first, "POST", &proposal, Some(json!({ "outcome": "false_positive", "reason": "another person: born elsewhere" })));
    again.expect(201)?;
    let approved = as_person(env, &second, "POST", &format!("{proposal}/approve"), Some(read_proposal(&again)?));
    approved.expect(200)?;
    ensure_eq!(approved.str("decided_by"), second.person_id.as_str());
    ensure_eq!(p.get(&format!("/v1/sanctions/status?user_id={user}")).str("status"), "cleared");
    let file = env.admin_production("GET", &format!("/v1/admin/cases/{case_id}"), None);
    ensure_eq!(file.body["four_eyes"], json!(true));
    ensure_eq!(timeline_kinds(&file), vec!["opened", "proposed", "proposal_dropped", "proposed", "approved"]);
    ensure_eq!(file.body["timeline"][4]["actor"], json!(second.person_id));
    // every step audited with the person's id
    let audit = env.admin_production("GET", "/v1/admin/audit", None);
    ensure!(audit.raw.contains(&second.person_id) && audit.raw.contains("case.approve"), "the approval is not audited with its person");
    Ok(())
}

/// Where four-eyes applies two people stand behind a decision: a key is no
/// person, so it may not propose (its twin: the sandbox's single-step
/// decision by a key, above). An approval or a rejection names the
/// proposal read: when the proposer withdraws it and proposes another
/// outcome, the approval of the one read is refused and nothing is
/// applied; the approval of the one now pending decides.
pub fn an_approval_is_bound_to_the_proposal_read(env: &Env) -> CaseResult {
    let (p, user, case_id) = production_hit(env)?;
    settle_rescreens(env, "production")?;
    let proposal = format!("/v1/admin/cases/{case_id}/proposal");
    let status = || p.get(&format!("/v1/sanctions/status?user_id={user}")).str("status").to_string();

    env.admin_production("POST", &proposal, Some(&json!({ "outcome": "false_positive", "reason": "decided by a key" })))
        .expect_error(403, "person_required")?;
    let file = env.admin_production("GET", &format!("/v1/admin/cases/{case_id}"), None);
    ensure_eq!(file.str("status"), "open", file.raw);

    let (proposer, approver) = (env.person("production", "approver")?, env.person("production", "approver")?);
    as_person(env, &proposer, "POST", &proposal, Some(json!({ "outcome": "true_match", "reason": "the listed person" }))).expect(201)?;
    // the approver reads the case: a true match is proposed
    let seen = as_person(env, &approver, "GET", &format!("/v1/admin/cases/{case_id}"), None);
    seen.expect(200)?;
    ensure_eq!(seen.body["proposal"]["outcome"], json!("true_match"), seen.raw);
    let read = read_proposal(&seen)?;
    // meanwhile the proposer withdraws it and proposes the opposite
    as_person(env, &proposer, "POST", &format!("{proposal}/reject"), Some(read.clone())).expect(200)?;
    let swapped = as_person(env, &proposer, "POST", &proposal, Some(json!({ "outcome": "false_positive", "reason": "not the listed person" })));
    swapped.expect(201)?;
    let pending = read_proposal(&swapped)?;
    ensure!(pending != read, "the new proposal has the old one's id");

    // the approval of what was read is refused, and nothing is applied
    as_person(env, &approver, "POST", &format!("{proposal}/approve"), Some(read.clone())).expect_error(409, "stale_proposal")?;
    as_person(env, &approver, "POST", &format!("{proposal}/reject"), Some(read)).expect_error(409, "stale_proposal")?;
    ensure_eq!(status(), "hit_review_pending");
    let file = env.admin_production("GET", &format!("/v1/admin/cases/{case_id}"), None);
    ensure_eq!(file.str("status"), "pending_approval", file.raw);
    ensure_eq!(file.body["proposal"]["proposal_id"], pending["proposal_id"], file.raw);
    // an approval that names no proposal is a bad request
    as_person(env, &approver, "POST", &format!("{proposal}/approve"), None).expect_error(400, "invalid_json")?;
    as_person(env, &approver, "POST", &format!("{proposal}/approve"), Some(json!({}))).expect_error(400, "missing_fields")?;

    // the twin: the approval of the pending proposal decides it
    let approved = as_person(env, &approver, "POST", &format!("{proposal}/approve"), Some(pending));
    approved.expect(200)?;
    ensure_eq!(approved.str("decided_outcome"), "false_positive", approved.raw);
    ensure_eq!(status(), "cleared");
    Ok(())
}

/// An `Idempotency-Key` belongs to the person or key that sent it: another
/// person's request with the same key and body runs under its own role
/// (refused here), and another key's runs afresh; the sender's own retry
/// is answered from its first request.
pub fn an_idempotency_key_belongs_to_its_sender(env: &Env) -> CaseResult {
    let (_, _, case_id) = hit(env)?;
    let supervisor = env.person("sandbox", "supervisor")?;
    let reviewer = env.person("sandbox", "reviewer")?;
    let path = format!("/v1/admin/cases/{case_id}/assign");
    let key = unique("idem");
    let body = json!({ "assignee": supervisor.person_id }).to_string().into_bytes();
    let send =
        |credential: &str| env.send_with("POST", &path, Some(credential), Some(("application/json", body.clone())), &[("idempotency-key", &key)]);
    let assigned_events = || {
        let file = env.admin("GET", &format!("/v1/admin/cases/{case_id}"), None);
        let actors: Vec<String> = file.body["timeline"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|e| e["kind"] == json!("assigned"))
            .map(|e| e["actor"].as_str().unwrap_or_default().to_string())
            .collect();
        actors
    };

    let first = send(&supervisor.token);
    first.expect(200)?;
    ensure_eq!(assigned_events(), vec![supervisor.person_id.clone()]);
    // a reviewer may not assign: the same key does not lend them the supervisor's answer
    send(&reviewer.token).expect_error(403, "role_forbidden")?;
    ensure_eq!(assigned_events().len(), 1);
    // an admin key's request with the same key runs as its own
    send(&env.admin_sandbox).expect(200)?;
    let actors = assigned_events();
    ensure_eq!(actors.len(), 2, format!("{actors:?}"));
    ensure!(actors[1] != supervisor.person_id, "the key's assignment is the supervisor's: {actors:?}");
    // the twin: the supervisor's retry is answered from the first request, and runs nothing
    let again = send(&supervisor.token);
    again.expect(200)?;
    ensure_eq!(again.body, first.body);
    ensure_eq!(assigned_events().len(), 2);
    Ok(())
}

/// The case page's "Save tags" form sets the case's tags (a form POST with
/// the session's cookie, its CSRF token and this host's origin); a bad tag
/// is refused and changes nothing.
pub fn the_console_saves_a_cases_tags(env: &Env) -> CaseResult {
    let (_, _, case_id) = hit(env)?;
    let reviewer = env.person("sandbox", "reviewer")?;
    let page_path = format!("/console/cases/{case_id}");
    let cookie = format!("__Host-cgw_session={}", reviewer.token);
    // Host and Origin name one host, whichever of several serves the request
    let host = env.base_url.split_once("://").map_or(env.base_url.as_str(), |(_, h)| h).trim_end_matches('/').to_string();
    let origin = format!("http://{host}");
    let page = env.send_with("GET", &page_path, None, None, &[("cookie", &cookie), ("host", &host)]);
    page.expect(200)?;
    let csrf = page
        .raw
        .split("name=\"csrf\" value=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .ok_or(format!("the case page has no CSRF token: {}", page.raw.chars().take(400).collect::<String>()))?
        .to_string();
    let save = |tags: &str| {
        let form = format!("csrf={csrf}&action=tags&tags={}", tags.replace(',', "%2C").replace(' ', "+"));
        env.send_with(
            "POST",
            &page_path,
            None,
            Some(("application/x-www-form-urlencoded", form.into_bytes())),
            &[("cookie", &cookie), ("host", &host), ("origin", &origin)],
        )
    };
    let tags = || env.admin("GET", &format!("/v1/admin/cases/{case_id}"), None).body["tags"].clone();

    let saved = save("pep-check, source-of-funds");
    ensure!(saved.status != 400 && saved.status < 500 && saved.status != 0, "the form answered {}: {}", saved.status, saved.raw);
    ensure_eq!(tags(), json!(["pep-check", "source-of-funds"]));
    let refused = save("Not Valid");
    ensure_eq!(refused.status, 400, refused.raw);
    ensure_eq!(tags(), json!(["pep-check", "source-of-funds"]));
    // a page asked with another method is 405 naming what it answers, with its request id as every page
    let put = env.send_with("PUT", &page_path, None, None, &[("cookie", &cookie), ("host", &host), ("origin", &origin)]);
    ensure_eq!(put.status, 405, put.raw);
    ensure_eq!(put.header("allow"), Some("GET, POST"));
    ensure!(put.header("x-request-id").is_some_and(|id| id.starts_with("req_")), "a refused page names no request");
    ensure!(page.header("x-request-id").is_some_and(|id| id.starts_with("req_")), "a page names no request");
    Ok(())
}

/// Issue #48 item 4, on every host: a sign-in answers the device's token,
/// and a sign-in carrying it answers the same one. Five failures lock the
/// account from this source for strangers and for the owner on a new
/// device (the twins: no token, and a token the gateway never gave), but
/// the owner's known device still signs in.
pub fn a_known_device_signs_in_through_a_lockout(env: &Env) -> CaseResult {
    let made = env.admin_sandbox("POST", "/v1/admin/people", Some(&json!({ "email": format!("{}@example.com", unique("dev")), "role": "reviewer" })));
    made.expect(201)?;
    crate::client::saw_secret(made.str("password"));
    crate::client::saw_secret(made.str("totp_secret"));
    let (email, password, secret) = (made.str("email").to_string(), made.str("password").to_string(), made.str("totp_secret").to_string());
    let sign_in = |password: &str, code: &str, device: Option<&str>| {
        let mut body = json!({ "environment": "sandbox", "email": email, "password": password, "totp": code });
        if let Some(device) = device {
            body["device_token"] = json!(device);
        }
        env.call("POST", "/v1/admin/sessions", None, Some(&body))
    };
    let first = sign_in(&password, &totp_now(&secret)?, None);
    first.expect(201)?;
    let device = first.str("device_token").to_string();
    ensure!(device.starts_with("dev_") && device.len() > 40, "no device token: {}", first.raw);
    crate::client::saw_secret(&device);
    crate::client::saw_secret(first.str("session_token"));
    for g in 0..5 {
        sign_in(&format!("wrong guess {g}"), "123456", None).expect_error(401, "invalid_credentials")?;
    }
    let next = totp_next(&secret)?;
    // the twins: locked out without the token, and with one the gateway never gave
    sign_in(&password, &next, None).expect_error(401, "invalid_credentials")?;
    sign_in(&password, &next, Some("dev_0000000000000000000000000000000000000000000000")).expect_error(401, "invalid_credentials")?;
    let known = sign_in(&password, &next, Some(&device));
    known.expect(201)?;
    crate::client::saw_secret(known.str("session_token"));
    ensure_eq!(known.str("device_token"), device.as_str(), "the known device was given another token");
    Ok(())
}
