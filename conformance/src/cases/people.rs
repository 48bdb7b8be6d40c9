//! The whole product on every host (issue #30): console people made through
//! the API (`POST /v1/admin/people`), and `GET /metrics` with the
//! store-derived gauges under the admin-key rule, each with its twins.

use serde_json::json;

use crate::client::{identity, saw_secret, totp_now, unique, Env};
use crate::{ensure, ensure_eq, CaseResult};

fn new_email() -> String {
    format!("{}@example.com", unique("made"))
}

/// An admin key makes a person of its own environment: 201 with the one-time
/// password and TOTP secret (shown once), audited; the password must be
/// changed before anything else. Twins: the same address again is 409
/// `email_taken`; a bad role or address is 422; a missing field 400; a
/// tenant's key 403; no key 401; the person cannot sign in to the other
/// environment.
pub fn an_admin_key_makes_a_person_who_must_change_the_password(env: &Env) -> CaseResult {
    let email = new_email();
    let made = env.admin_sandbox("POST", "/v1/admin/people", Some(&json!({ "email": email.to_uppercase(), "role": "reviewer" })));
    made.expect(201)?;
    let (password, secret) = (made.str("password").to_string(), made.str("totp_secret").to_string());
    saw_secret(&password);
    saw_secret(&secret);
    ensure_eq!(made.str("email"), email.as_str(), made.raw);
    ensure_eq!(made.str("role"), "reviewer", made.raw);
    ensure!(made.str("user_id").starts_with("per_"), "no person id: {}", made.raw);
    ensure!(password.len() >= 16 && secret.len() >= 32, "a short password or secret: {}", made.raw);
    let person_id = made.str("user_id").to_string();

    // audited, naming the key that made the person
    let audit = env.admin_sandbox("GET", "/v1/admin/audit?limit=200", None);
    audit.expect(200)?;
    let entries = audit.body["entries"].as_array().cloned().unwrap_or_default();
    ensure!(
        entries.iter().any(|e| e["action"] == json!("console_user.create") && e["resource"] == json!(person_id) && e["actor_key_id"] != json!("cli")),
        "console_user.create of {person_id} is not in the audit log: {}",
        audit.raw
    );

    // the one-time password opens only its change
    let sign_in = |environment: &str| {
        let code = totp_now(&secret).unwrap_or_default();
        env.call("POST", "/v1/admin/sessions", None, Some(&json!({ "environment": environment, "email": email, "password": password, "totp": code })))
    };
    let session = sign_in("sandbox");
    session.expect(201)?;
    ensure_eq!(session.body["must_change_password"], json!(true), session.raw);
    let token = session.str("session_token").to_string();
    env.call("GET", "/v1/admin/cases", Some(&token), None).expect_error(403, "password_change_required")?;
    // the other environment does not know the person (the code was taken: any answer is a refusal)
    sign_in("production").expect_error(401, "invalid_credentials")?;

    // twins
    let again = env.admin_sandbox("POST", "/v1/admin/people", Some(&json!({ "email": email, "role": "approver" })));
    again.expect_error(409, "email_taken")?;
    let bad_role = env.admin_sandbox("POST", "/v1/admin/people", Some(&json!({ "email": new_email(), "role": "root" })));
    bad_role.expect_error(422, "invalid_field")?;
    for bad in ["not-an-address", "a@b", "two words@example.com"] {
        env.admin_sandbox("POST", "/v1/admin/people", Some(&json!({ "email": bad, "role": "reviewer" }))).expect_error(422, "invalid_field")?;
    }
    env.admin_sandbox("POST", "/v1/admin/people", Some(&json!({ "role": "reviewer" }))).expect_error(400, "missing_fields")?;
    let t = env.sandbox()?;
    t.post("/v1/admin/people", json!({ "email": new_email(), "role": "reviewer" })).expect_error(403, "forbidden")?;
    env.call("POST", "/v1/admin/people", None, Some(&json!({ "email": new_email(), "role": "reviewer" })))
        .expect_error(401, "missing_credentials")?;
    Ok(())
}

/// Issue #48 item 3: where four-eyes applies (production) no one makes a
/// usable account alone. A key makes no approving role once the team has
/// two admins (403 `person_required`), and its reviewer starts `disabled`,
/// signs in nowhere, and is enabled by two admins. An admin's account starts
/// `enable_proposed`: the same admin cannot enable it (403 `self_approval`),
/// nor an admin it made (403 `creator_approval`); another admin does. Admins
/// see the waiting accounts; a reviewer sees none and makes no one (403
/// `role_forbidden`). Twin: in the sandbox (no four-eyes) a key's approver is
/// enabled at once and signs in.
pub fn no_one_makes_a_usable_account_alone_where_four_eyes_applies(env: &Env) -> CaseResult {
    let (first, second) = (env.person("production", "admin")?, env.person("production", "admin")?);
    let as_person = |who: &crate::client::Person, path: &str| env.call("POST", path, Some(&who.token), Some(&json!({})));
    let enable = |id: &str| format!("/v1/admin/people/{id}/enable");
    let make = |who: Option<&crate::client::Person>, role: &str| {
        let body = json!({ "email": new_email(), "role": role });
        let made = match who {
            Some(person) => env.call("POST", "/v1/admin/people", Some(&person.token), Some(&body)),
            None => env.admin_production("POST", "/v1/admin/people", Some(&body)),
        };
        if made.status == 201 {
            saw_secret(made.str("password"));
            saw_secret(made.str("totp_secret"));
        }
        made
    };
    let signs_in = |made: &crate::client::Resp| -> Result<bool, String> {
        let body = json!({ "environment": "production", "email": made.str("email"), "password": made.str("password"),
                           "totp": totp_now(made.str("totp_secret"))? });
        Ok(env.call("POST", "/v1/admin/sessions", None, Some(&body)).status == 201)
    };
    for role in ["approver", "supervisor", "admin"] {
        make(None, role).expect_error(403, "person_required")?;
    }
    // a key's reviewer: disabled until two admins agree
    let by_key = make(None, "reviewer");
    by_key.expect(201)?;
    ensure_eq!(by_key.str("state"), "disabled", by_key.raw);
    ensure!(!signs_in(&by_key)?, "a key's reviewer signed in before two admins enabled it");
    let id = by_key.str("user_id").to_string();
    ensure_eq!(as_person(&first, &enable(&id)).str("state"), "enable_proposed");
    let waiting = env.call("GET", "/v1/admin/people", Some(&second.token), None);
    let listed = waiting.body["disabled"].as_array().and_then(|d| d.iter().find(|m| m["person_id"] == json!(id)).cloned()).unwrap_or_default();
    ensure_eq!(listed["state"], json!("enable_proposed"), waiting.raw);
    ensure_eq!(listed["enable_proposed_by"], json!(first.person_id), waiting.raw);
    ensure_eq!(as_person(&second, &enable(&id)).str("state"), "enabled");
    ensure!(signs_in(&by_key)?, "the reviewer two admins enabled does not sign in");
    // an admin's approver: proposed by its maker, enabled by another admin
    let by_admin = make(Some(&first), "approver");
    by_admin.expect(201)?;
    ensure_eq!(by_admin.str("state"), "enable_proposed", by_admin.raw);
    ensure_eq!(by_admin.str("role"), "approver", by_admin.raw);
    ensure!(!signs_in(&by_admin)?, "an admin's approver signed in before a second admin enabled it");
    let id = by_admin.str("user_id").to_string();
    as_person(&first, &enable(&id)).expect_error(403, "self_approval")?;
    env.admin_production("POST", &enable(&id), Some(&json!({}))).expect_error(403, "person_required")?;
    ensure_eq!(as_person(&second, &enable(&id)).str("state"), "enabled");
    ensure!(signs_in(&by_admin)?, "the approver a second admin enabled does not sign in");
    // an admin the first admin made is not the second admin of the first's next account
    let made_admin = make(Some(&first), "admin");
    made_admin.expect(201)?;
    ensure_eq!(as_person(&second, &enable(made_admin.str("user_id"))).str("state"), "enabled");
    let made_admin = env.sign_in_made("production", &made_admin.body)?;
    let next = make(Some(&first), "reviewer");
    next.expect(201)?;
    let next_id = next.str("user_id").to_string();
    as_person(&made_admin, &enable(&next_id)).expect_error(403, "creator_approval")?;
    ensure!(!signs_in(&next)?, "a refused enable enabled the account");
    ensure_eq!(as_person(&second, &enable(&next_id)).str("state"), "enabled");
    // a reviewer makes no one and sees no waiting account
    let member = env.person("production", "reviewer")?;
    env.call("POST", "/v1/admin/people", Some(&member.token), Some(&json!({ "email": new_email(), "role": "reviewer" })))
        .expect_error(403, "role_forbidden")?;
    let seen = env.call("GET", "/v1/admin/people", Some(&member.token), None);
    seen.expect(200)?;
    ensure_eq!(seen.body["disabled"], json!([]), seen.raw);
    // the sandbox twin: no four-eyes, a key's approver is enabled at once
    let sandbox = env.admin_sandbox("POST", "/v1/admin/people", Some(&json!({ "email": new_email(), "role": "approver" })));
    sandbox.expect(201)?;
    saw_secret(sandbox.str("password"));
    saw_secret(sandbox.str("totp_secret"));
    ensure_eq!(sandbox.str("state"), "enabled", sandbox.raw);
    env.sign_in_made("sandbox", &sandbox.body)?;
    Ok(())
}

/// The value of a sample of the Prometheus text whose name and labels
/// (`name{a="b",…}`) start with `prefix`.
pub(crate) fn sample(text: &str, prefix: &str) -> Option<f64> {
    text.lines().filter(|l| !l.starts_with('#')).find(|l| l.starts_with(prefix)).and_then(|l| l.rsplit(' ').next()).and_then(|v| v.parse().ok())
}

/// `GET /metrics` with an admin key shows the store-derived gauges on every
/// host (the build with the rules hash, the review queues, the webhook
/// backlog, the store up), and a new sanctions hit moves the sandbox queue.
/// Twins: no key is 401, a tenant's key and a person's session are 403.
pub fn metrics_show_the_store_gauges_to_an_admin_key_only(env: &Env) -> CaseResult {
    let scrape = || env.call("GET", "/metrics", Some(&env.admin_production), None);
    let before = scrape();
    before.expect(200)?;
    ensure!(before.header("content-type").is_some_and(|c| c.starts_with("text/plain")), "not the text format: {:?}", before.headers);
    let text = before.raw.clone();
    let rules = env.admin_sandbox("GET", "/v1/rules", None);
    rules.expect(200)?;
    let hash = rules.str("component_sha256").to_string();
    ensure!(
        text.lines().any(|l| l.starts_with("cgw_build_info{") && l.contains(&format!("rules_sha256=\"{hash}\""))),
        "no cgw_build_info naming the rules hash {hash}: {text}"
    );
    ensure_eq!(sample(&text, "cgw_store_up"), Some(1.0), text);
    for gauge in ["cgw_webhook_pending_deliveries", "cgw_webhook_delivery_lag_seconds", "cgw_decision_log_queue_length"] {
        ensure!(sample(&text, gauge).is_some(), "no {gauge}: {text}");
    }
    for queue in ["sanctions", "due_diligence", "kyc_review", "aml"] {
        for environment in ["sandbox", "production"] {
            let labels = format!("{{environment=\"{environment}\",queue=\"{queue}\"}}");
            ensure!(sample(&text, &format!("cgw_review_queue_items{labels}")).is_some(), "no queue gauge {labels}: {text}");
            ensure!(sample(&text, &format!("cgw_review_queue_oldest_age_seconds{labels}")).is_some(), "no age gauge {labels}: {text}");
        }
    }
    ensure!(text.contains("cgw_aml_alerts_per_case{environment=\"sandbox\"}"), "no AML feedback gauge: {text}");
    ensure!(text.contains("# TYPE cgw_review_queue_items gauge"), "no TYPE line: {text}");

    // a new hit is one more item in the sandbox's sanctions queue
    let queued = |text: &str| sample(text, "cgw_review_queue_items{environment=\"sandbox\",queue=\"sanctions\"}").unwrap_or(-1.0);
    let t = env.sandbox()?;
    let user = unique("u");
    t.post("/v1/sanctions/screen", identity(&user, "SanctionedSam", "Metrics", &format!("{user}@example.com"))).expect(201)?;
    let after = scrape();
    after.expect(200)?;
    ensure!(queued(&after.raw) >= queued(&text) + 1.0, "the queue gauge did not move: {} then {}", queued(&text), queued(&after.raw));
    // where the host times its checks (the native host's recorder), each check's outcome is a label read from its
    // answer: the screening's hit, and an exclusion check of no one excluded
    if text.contains("http_server_request_duration_seconds") {
        t.get(&format!("/v1/exclusions/check?email={user}-none@example.com")).expect(200)?;
        // each host times its own checks: the scrapes of all of them
        let timed: String = env.hosts().into_iter().map(|host| env.call_on(host, "GET", "/metrics", Some(&env.admin_production), None).raw).collect();
        let labelled = |endpoint: &str, outcome: &str| {
            timed.lines().any(|l| {
                l.starts_with("cgw_check_duration_seconds_count{")
                    && l.contains(&format!("endpoint=\"{endpoint}\""))
                    && l.contains(&format!("outcome=\"{outcome}\""))
            })
        };
        ensure!(labelled("screenUser", "hit_review_pending"), "no screening outcome: {timed}");
        ensure!(labelled("checkExclusion", "not_excluded"), "no exclusion outcome: {timed}");
        ensure!(!labelled("checkExclusion", "answered"), "an outcome not read: {timed}");
    }
    // the sandbox's admin key reads them too (either environment's)
    env.call("GET", "/metrics", Some(&env.admin_sandbox), None).expect(200)?;

    // twins: no key, a tenant's key, a person's session
    env.call("GET", "/metrics", None, None).expect_error(401, "missing_credentials")?;
    env.call("GET", "/metrics", Some(&t.key), None).expect_error(403, "forbidden")?;
    if env.console_user.is_some() {
        let person = env.person("sandbox", "admin")?;
        env.call("GET", "/metrics", Some(&person.token), None).expect_error(403, "forbidden")?;
    }
    Ok(())
}

/// Issue #48 item 5, on every host: one admin disables a console account at
/// once (its session stops working); where four-eyes applies, enabling it
/// takes two admins, the first call answering 202 `enable_proposed`, the
/// same admin again 403 `self_approval`, a key 403 `person_required`, and a
/// second admin's call enabling it; a request whose admin was disabled since
/// counts for nothing. Twins: a reviewer disables no one (403
/// `role_forbidden`); another environment's key finds no such account (404);
/// in the sandbox a key disables and enables at once.
pub fn one_admin_disables_two_enable_where_four_eyes_applies(env: &Env) -> CaseResult {
    let (first, second, member) = (env.person("production", "admin")?, env.person("production", "admin")?, env.person("production", "reviewer")?);
    let as_person = |who: &crate::client::Person, path: &str| env.call("POST", path, Some(&who.token), Some(&json!({})));
    let path = |id: &str, what: &str| format!("/v1/admin/people/{id}/{what}");
    env.call("GET", "/v1/admin/people", Some(&member.token), None).expect(200)?;
    as_person(&member, &path(&first.person_id, "disable")).expect_error(403, "role_forbidden")?;
    env.admin_sandbox("POST", &path(&member.person_id, "disable"), Some(&json!({}))).expect_error(404, "not_found")?;
    as_person(&first, &path(&unique("per"), "disable")).expect_error(404, "not_found")?;
    let disabled = as_person(&first, &path(&member.person_id, "disable"));
    disabled.expect(200)?;
    ensure_eq!(disabled.str("state"), "disabled");
    // the disabled person's session stops working at once
    env.call("GET", "/v1/admin/people", Some(&member.token), None).expect(401)?;
    env.admin_production("POST", &path(&member.person_id, "enable"), Some(&json!({}))).expect_error(403, "person_required")?;
    let proposed = as_person(&first, &path(&member.person_id, "enable"));
    proposed.expect(202)?;
    ensure_eq!(proposed.str("state"), "enable_proposed");
    as_person(&first, &path(&member.person_id, "enable")).expect_error(403, "self_approval")?;
    let people = env.call("GET", "/v1/admin/people", Some(&second.token), None);
    ensure!(!people.body["people"].to_string().contains(&member.person_id), "a proposed enable enabled the account: {}", people.raw);
    let enabled = as_person(&second, &path(&member.person_id, "enable"));
    enabled.expect(200)?;
    ensure_eq!(enabled.str("state"), "enabled");
    let people = env.call("GET", "/v1/admin/people", Some(&second.token), None);
    ensure!(people.body["people"].to_string().contains(&member.person_id), "the enabled account is not in the team: {}", people.raw);
    ensure_eq!(as_person(&first, &path(&member.person_id, "enable")).str("state"), "enabled");
    // a request whose admin was disabled since counts for nothing: the second admin's call only asks anew
    ensure_eq!(as_person(&second, &path(&member.person_id, "disable")).str("state"), "disabled");
    as_person(&first, &path(&member.person_id, "enable")).expect(202)?;
    ensure_eq!(as_person(&second, &path(&first.person_id, "disable")).str("state"), "disabled");
    let asked_anew = as_person(&second, &path(&member.person_id, "enable"));
    asked_anew.expect(202)?;
    ensure_eq!(asked_anew.str("state"), "enable_proposed");
    // the sandbox (no four-eyes): a key disables and enables at once
    let made = env.admin_sandbox("POST", "/v1/admin/people", Some(&json!({ "email": new_email(), "role": "reviewer" })));
    made.expect(201)?;
    saw_secret(made.str("password"));
    saw_secret(made.str("totp_secret"));
    let id = made.str("user_id").to_string();
    ensure_eq!(env.admin_sandbox("POST", &path(&id, "disable"), Some(&json!({}))).str("state"), "disabled");
    let again = env.admin_sandbox("POST", &path(&id, "enable"), Some(&json!({})));
    again.expect(200)?;
    ensure_eq!(again.str("state"), "enabled");
    Ok(())
}
