use serde_json::{json, Value as Json};

use crate::{ensure, ensure_eq, CaseResult, Env, Resp};

pub fn missing_header_is_missing_credentials(env: &Env) -> CaseResult {
    env.call("GET", "/v1/sanctions/status?user_id=x", None, None).expect_error(401, "missing_credentials")?;
    env.call("POST", "/v1/limits/check", None, Some(&json!({}))).expect_error(401, "missing_credentials")?;
    Ok(())
}

pub fn malformed_unknown_and_wrong_scheme_keys_are_invalid_credentials(env: &Env) -> CaseResult {
    let path = "/v1/sanctions/status?user_id=x";
    for key in ["nonsense", "cgw_sk_test_tooshort", "cgw_sk_prod_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "cgw_sk_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"] {
        env.call("GET", path, Some(key), None).expect_error(401, "invalid_credentials")?;
    }
    let t = env.sandbox()?;
    let basic = ureq::get(&format!("{}{}", env.host(), path)).set("authorization", &format!("Basic {}", t.key)).call();
    match basic {
        Err(ureq::Error::Status(401, r)) => {
            let body: serde_json::Value = serde_json::from_str(&r.into_string().unwrap_or_default()).unwrap_or_default();
            ensure_eq!(body["error"].as_str(), Some("invalid_credentials"));
        }
        other => return Err(format!("a Basic scheme was not refused: {:?}", other.map(|r| r.status()))),
    }
    Ok(())
}

pub fn revoked_key_is_refused_and_audited(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    t.signup(&crate::client::unique("u"))?;
    let second = env.admin("POST", &format!("/v1/admin/tenants/{}/keys", t.tenant_id), None);
    second.expect(201)?;
    let second_key = second.str("api_key").to_string();
    ensure!(second_key.starts_with("cgw_sk_test_") && second_key.len() == 44, "bad key format {second_key}");
    env.admin("DELETE", &format!("/v1/admin/keys/{}", t.key_id), None).expect(200)?;
    let refused = t.get("/v1/sanctions/status?user_id=x");
    refused.expect_error(401, "invalid_credentials")?;
    env.call("GET", "/v1/rules", Some(&second_key), None).expect(200)?;
    let audit = env.admin("GET", &format!("/v1/admin/tenants/{}/audit", t.tenant_id), None);
    audit.expect(200)?;
    let entries = audit.body["entries"].as_array().cloned().unwrap_or_default();
    let entry = entries
        .iter()
        .find(|e| e["request_id"].as_str() == refused.header("x-request-id"))
        .ok_or(format!("no audit entry for the refused request: {}", audit.raw))?;
    ensure_eq!(entry["reason"].as_str(), Some("revoked_key"));
    let prefix = entry["key_prefix"].as_str().unwrap_or("");
    ensure!(prefix.len() == 16 && t.key.starts_with(prefix), "audit keeps {prefix:?}, not a partial prefix of the key");
    ensure!(!audit.raw.contains(&t.key), "the audit log holds the whole key");
    Ok(())
}

pub fn suspended_tenant_is_refused_and_audited(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    t.get("/v1/rules").expect(200)?;
    env.admin("POST", &format!("/v1/admin/tenants/{}/suspend", t.tenant_id), None).expect(200)?;
    let refused = t.get("/v1/rules");
    refused.expect_error(401, "invalid_credentials")?;
    let audit = env.admin("GET", &format!("/v1/admin/tenants/{}/audit", t.tenant_id), None);
    ensure!(audit.raw.contains("tenant_suspended"), "no tenant_suspended audit entry: {}", audit.raw);
    env.admin("POST", "/v1/admin/tenants/ten_missing/suspend", None).expect_error(404, "tenant_not_found")?;
    Ok(())
}

pub fn admin_operations_need_an_admin_key(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    t.post("/v1/kyc/manual-review", json!({ "kyc_check_id": "x", "decision": "approve", "reviewer": "me" })).expect_error(403, "forbidden")?;
    t.post("/v1/admin/tenants", json!({ "name": "x", "environment": "sandbox" })).expect_error(403, "forbidden")?;
    t.post("/v1/admin/sanctions/cases/case_x/review", json!({ "decision": "dismiss", "reviewer": "me" })).expect_error(403, "forbidden")?;
    t.get("/v1/admin/sanctions/cases").expect_error(403, "forbidden")?;
    env.admin("GET", "/v1/admin/sanctions/cases", None).expect(200)?;
    Ok(())
}

pub fn admin_key_manages_its_own_environment_only(env: &Env) -> CaseResult {
    env.admin("POST", "/v1/admin/tenants", Some(&json!({ "name": "x", "environment": "production" }))).expect_error(403, "environment_mismatch")?;
    env.admin("POST", "/v1/admin/tenants", Some(&json!({ "name": "x", "environment": "staging" }))).expect_error(400, "invalid_field")?;
    env.admin("POST", "/v1/admin/tenants", Some(&json!({ "environment": "sandbox" }))).expect_error(400, "missing_fields")?;
    let p = env.tenant_with("production", 1000)?;
    ensure!(p.key.starts_with("cgw_sk_live_"), "production key has the wrong prefix: {}", p.key);
    env.admin("POST", &format!("/v1/admin/tenants/{}/keys", p.tenant_id), None).expect_error(404, "tenant_not_found")?;
    Ok(())
}

pub fn rate_limit_answers_429_with_retry_after(env: &Env) -> CaseResult {
    let t = env.tenant_with("sandbox", 3)?;
    // Eight requests cannot all fit in the at most two minute-windows they span.
    let mut statuses = Vec::new();
    for _ in 0..8 {
        statuses.push(t.get("/v1/rules"));
    }
    let limited = statuses.iter().find(|r| r.status == 429).ok_or("no 429 after 8 requests at 3 per minute")?;
    limited.expect_error(429, "rate_limited")?;
    let retry: i64 = limited.header("retry-after").and_then(|v| v.parse().ok()).ok_or("429 without a numeric Retry-After")?;
    ensure!((1..=60).contains(&retry), "Retry-After {retry} is not within the minute");
    ensure!(statuses.iter().filter(|r| r.status == 200).count() <= 6, "more than 3 requests a minute were served");
    env.call("GET", "/v1/health", None, None).expect(200)?;
    let other = env.sandbox()?;
    other.get("/v1/rules").expect(200)?;
    Ok(())
}

/// `"per-key";r=R;t=T` → (R, T).
fn rate_state(header: Option<&str>) -> Option<(i64, i64)> {
    let mut r = None;
    let mut t = None;
    for part in header?.split(';').skip(1) {
        match part.trim().split_once('=')? {
            ("r", v) => r = v.parse().ok(),
            ("t", v) => t = v.parse().ok(),
            _ => {}
        }
    }
    Some((r?, t?))
}

pub fn rate_limit_headers_show_the_quota_before_it_bites(env: &Env) -> CaseResult {
    let t = env.tenant_with("sandbox", 5)?;
    let first = t.get("/v1/rules");
    first.expect(200)?;
    ensure_eq!(first.header("ratelimit-policy"), Some("\"per-key\";q=5;w=60"));
    let (remaining, reset) = rate_state(first.header("ratelimit")).ok_or(format!("no RateLimit header: {:?}", first.headers))?;
    ensure!((0..=4).contains(&remaining), "remaining {remaining} after one of five");
    ensure!((1..=60).contains(&reset), "reset {reset} is not within the minute");
    let second = t.get("/v1/exclusions/check?email=nobody@example.com");
    let (after, _) = rate_state(second.header("ratelimit")).ok_or("no RateLimit header on the second request")?;
    ensure!(after < remaining || after == 4, "remaining did not go down: {remaining} then {after}");
    // Errors of an identified key carry the headers too; 429s say nothing is left.
    let not_found = t.get("/v1/kyc/status?kyc_check_id=kyc_none");
    ensure!(not_found.header("ratelimit").is_some(), "a 404 of a known key lacks RateLimit");
    let limited = (0..10).map(|_| t.get("/v1/rules")).find(|r| r.status == 429).ok_or("no 429 at 5 a minute")?;
    ensure_eq!(rate_state(limited.header("ratelimit")).map(|(r, _)| r), Some(0));
    // No key, no quota to show.
    ensure!(env.call("GET", "/v1/health", None, None).header("ratelimit").is_none(), "health shows a quota");
    ensure!(env.call("GET", "/v1/rules", None, None).header("ratelimit").is_none(), "an unauthenticated 401 shows a quota");
    Ok(())
}

pub fn admin_actions_are_audited_and_tenants_read_their_own(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let other = env.sandbox()?;
    env.admin("POST", &format!("/v1/admin/tenants/{}/keys", t.tenant_id), Some(&json!({}))).expect(201)?;
    let log = env.admin("GET", "/v1/admin/audit", None);
    log.expect(200)?;
    let entries = log.body["entries"].as_array().cloned().unwrap_or_default();
    let find = |action: &str| entries.iter().find(|e| e["action"] == action && e["tenant_id"] == t.tenant_id.as_str()).cloned();
    let created = find("tenant.create").ok_or("tenant.create is not audited")?;
    ensure!(created["actor_key_id"].as_str().is_some_and(|k| k.starts_with("key_")), "no admin key id: {created}");
    let keyed = find("key.create").ok_or("key.create is not audited")?;
    ensure_eq!(keyed["resource"], json!(t.tenant_id));
    ensure!(!keyed["request_id"].as_str().unwrap_or("").is_empty(), "no request id");
    let own = t.get("/v1/audit");
    own.expect(200)?;
    ensure!(own.raw.contains("key.create") && own.raw.contains("tenant.create"), "the tenant does not see its own audit: {}", own.raw);
    let theirs = other.get("/v1/audit");
    theirs.expect(200)?;
    ensure!(!theirs.raw.contains(&t.tenant_id), "another tenant sees this tenant's audit");
    t.get("/v1/admin/audit").expect_error(403, "forbidden")?;
    // Reads are not actions.
    env.admin("GET", &format!("/v1/admin/tenants/{}/audit", t.tenant_id), None).expect(200)?;
    let after = env.admin("GET", "/v1/admin/audit", None);
    ensure!(!after.raw.contains("tenant.audit"), "a read was audited as an action");
    Ok(())
}

pub fn tenants_cannot_see_each_other(env: &Env) -> CaseResult {
    let a = env.sandbox()?;
    let b = env.sandbox()?;
    let user = crate::client::unique("u");
    a.signup(&user)?;
    a.get(&format!("/v1/sanctions/status?user_id={user}")).expect(200)?;
    b.get(&format!("/v1/sanctions/status?user_id={user}")).expect_error(404, "user_not_found")?;
    let limit = a.post(
        "/v1/limits",
        json!({ "user_id": user, "limit_type": "limit_daily", "amount_cents": 5000, "currency": "USD", "requested_at": a.now_iso()? }),
    );
    limit.expect(201)?;
    let raise = a.post(
        "/v1/limits",
        json!({ "user_id": user, "limit_type": "limit_daily", "amount_cents": 6000, "currency": "USD", "requested_at": a.now_iso()? }),
    );
    raise.expect(201)?;
    b.delete(&format!("/v1/limits/{}", raise.str("limit_id"))).expect_error(404, "limit_not_found")?;
    let check = a.post(
        "/v1/kyc/start",
        json!({ "user_id": user, "email": "a@example.com", "phone": "+447700900123", "withdrawal_amount_cents": 50000, "currency": "USD" }),
    );
    check.expect(201)?;
    b.get(&format!("/v1/kyc/status?kyc_check_id={}", check.str("kyc_check_id"))).expect_error(404, "kyc_check_not_found")?;
    a.get(&format!("/v1/kyc/status?kyc_check_id={}", check.str("kyc_check_id"))).expect(200)?;
    Ok(())
}

pub fn sandbox_and_production_never_mix(env: &Env) -> CaseResult {
    let s = env.sandbox()?;
    let p = env.tenant_with("production", 1000)?;
    let user = crate::client::unique("u");
    s.signup(&user)?;
    p.get(&format!("/v1/sanctions/status?user_id={user}")).expect_error(404, "user_not_found")?;
    let r = p.post("/v1/sanctions/screen", crate::client::identity(&user, "Ann", "Lee", "ann@example.com"));
    r.expect_error(503, "vendor_unavailable")?;
    p.get("/v1/sandbox/clock").expect_error(403, "sandbox_only")?;
    p.post("/v1/sandbox/clock", json!({ "advance_seconds": 60 })).expect_error(403, "sandbox_only")?;
    let email = format!("{}@example.com", crate::client::unique("mix"));
    let other = crate::client::unique("u");
    s.signup(&other)?;
    s.post(
        "/v1/exclusions",
        json!({ "user_id": other, "email": email, "duration": "duration_7d", "reason": "self_initiated", "initiated_at": s.now_iso()? }),
    )
    .expect(201)?;
    ensure_eq!(s.get(&format!("/v1/exclusions/check?email={email}")).body["is_excluded"], json!(true));
    ensure_eq!(p.get(&format!("/v1/exclusions/check?email={email}")).body["is_excluded"], json!(false), "a sandbox exclusion leaked into production");
    Ok(())
}

/// Walks an audit log `limit` entries a page, following `next_cursor`;
/// answers every entry's id in the order served.
fn walk_audit(read: impl Fn(&str) -> Resp, limit: usize) -> Result<Vec<String>, String> {
    let mut ids = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..100 {
        let query = match &cursor {
            Some(c) => format!("?limit={limit}&cursor={c}"),
            None => format!("?limit={limit}"),
        };
        let page = read(&query);
        page.expect(200)?;
        let entries = page.body["entries"].as_array().cloned().unwrap_or_default();
        ensure!(entries.len() <= limit, "a page of {limit} held {}: {}", entries.len(), page.raw);
        ids.extend(entries.iter().filter_map(|e| e["audit_id"].as_str().map(str::to_string)));
        match (page.body["has_more"].as_bool(), page.body["next_cursor"].as_str()) {
            (Some(true), Some(next)) => {
                ensure!(entries.len() == limit, "a page before the last is short: {}", page.raw);
                cursor = Some(next.to_string());
            }
            (Some(false), None) => return Ok(ids),
            _ => return Err(format!("has_more and next_cursor disagree: {}", page.raw)),
        }
    }
    Err("the audit log never ended".into())
}

/// Audit logs are read a page at a time (they stopped at 500 with no
/// cursor): walking the pages serves every entry once, newest first, as
/// one long page does; a cursor this service did not issue and a limit out
/// of range are refused.
pub fn audit_logs_are_read_a_page_at_a_time(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    for _ in 0..4 {
        env.admin("POST", &format!("/v1/admin/tenants/{}/keys", t.tenant_id), Some(&json!({}))).expect(201)?;
    }
    // tenant.create and four key.create, each on the tenant's log
    let of_tenant = |query: &str| env.admin("GET", &format!("/v1/admin/tenants/{}/audit{query}", t.tenant_id), None);
    let whole = of_tenant("");
    whole.expect(200)?;
    ensure_eq!(whole.body["has_more"], json!(false));
    ensure_eq!(whole.body["next_cursor"], Json::Null);
    let all: Vec<String> =
        whole.body["entries"].as_array().cloned().unwrap_or_default().iter().filter_map(|e| e["audit_id"].as_str().map(str::to_string)).collect();
    ensure!(all.len() >= 5, "five admin actions on the tenant, {} entries: {}", all.len(), whole.raw);
    ensure_eq!(walk_audit(of_tenant, 2)?, all, "the pages of two");
    ensure_eq!(walk_audit(|q: &str| t.get(&format!("/v1/audit{q}")), 1)?, all, "the tenant's own log, a page of one");
    // the environment's admin log pages too: the next page goes on from the
    // last entry served (other cases may write newer ones meanwhile)
    let first = env.admin("GET", "/v1/admin/audit?limit=2", None);
    first.expect(200)?;
    ensure_eq!(first.body["has_more"], json!(true));
    let second = env.admin("GET", &format!("/v1/admin/audit?limit=2&cursor={}", first.str("next_cursor")), None);
    second.expect(200)?;
    let entries = |r: &Resp| r.body["entries"].as_array().cloned().unwrap_or_default();
    let served: Vec<Json> = entries(&first).into_iter().chain(entries(&second)).collect();
    ensure!(served.len() == 4, "two pages of two: {served:?}");
    let ids: std::collections::BTreeSet<&str> = served.iter().filter_map(|e| e["audit_id"].as_str()).collect();
    ensure!(ids.len() == 4, "an entry was served twice: {served:?}");
    let times: Vec<&str> = served.iter().filter_map(|e| e["at"].as_str()).collect();
    ensure!(times.windows(2).all(|w| w[0] >= w[1]), "not newest first across pages: {times:?}");
    // the twins: what is not a page is refused
    of_tenant("?cursor=not-a-cursor").expect_error(400, "invalid_cursor")?;
    of_tenant("?limit=0").expect_error(400, "invalid_limit")?;
    of_tenant("?limit=501").expect_error(400, "invalid_limit")?;
    Ok(())
}

/// Per-tenant rate limits (L2) change after creation: every key of the
/// tenant runs under the new rate from its next request, and another
/// tenant's is untouched. The twins: what is not a rate, or not a tenant, is refused.
pub fn a_tenants_rate_limit_changes_after_creation(env: &Env) -> CaseResult {
    let t = env.tenant_with("sandbox", 3)?;
    let first = t.get("/v1/rules");
    first.expect(200)?;
    ensure_eq!(first.header("ratelimit-policy"), Some("\"per-key\";q=3;w=60"));
    let path = format!("/v1/admin/tenants/{}/rate-limit", t.tenant_id);
    let set = env.admin("PUT", &path, Some(&json!({ "rate_limit_per_minute": 1000 })));
    set.expect(200)?;
    ensure_eq!(set.body, json!({ "tenant_id": t.tenant_id, "rate_limit_per_minute": 1000 }));
    // eight requests cannot fit at 3 a minute, they do at 1000
    for _ in 0..8 {
        let r = t.get("/v1/rules");
        r.expect(200)?;
        ensure_eq!(r.header("ratelimit-policy"), Some("\"per-key\";q=1000;w=60"));
    }
    // lowered, a tenant is held to the new rate
    let lowered = env.tenant_with("sandbox", 1000)?;
    env.admin("PUT", &format!("/v1/admin/tenants/{}/rate-limit", lowered.tenant_id), Some(&json!({ "rate_limit_per_minute": 2 }))).expect(200)?;
    let statuses: Vec<u16> = (0..8).map(|_| lowered.get("/v1/rules").status).collect();
    ensure!(statuses.contains(&429), "no 429 at 2 a minute: {statuses:?}");
    ensure!(statuses.iter().filter(|s| **s == 200).count() <= 4, "more than 2 a minute were served: {statuses:?}");
    // the change is an audited admin action, on the tenant's log
    let audit = env.admin("GET", &format!("/v1/admin/tenants/{}/audit", t.tenant_id), None);
    ensure!(audit.raw.contains("tenant.rate_limit"), "the change is not audited: {}", audit.raw);
    env.admin("PUT", &path, Some(&json!({ "rate_limit_per_minute": 0 }))).expect_error(400, "invalid_field")?;
    env.admin("PUT", &path, Some(&json!({}))).expect_error(400, "missing_fields")?;
    env.admin("PUT", "/v1/admin/tenants/ten_missing/rate-limit", Some(&json!({ "rate_limit_per_minute": 10 })))
        .expect_error(404, "tenant_not_found")?;
    env.call("PUT", &path, Some(&t.key), Some(&json!({ "rate_limit_per_minute": 10_000 }))).expect_error(403, "forbidden")?;
    Ok(())
}
