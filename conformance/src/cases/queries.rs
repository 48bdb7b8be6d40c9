//! Typed queries: each operation reads its query parameters as one typed
//! struct (`gateway/src/input.rs`), and a bad value of each kind keeps the
//! stable code it had when handlers read parameters by name. Each refusal
//! has its good twin beside it.

use crate::client::unique;
use crate::{ensure, CaseResult, Env};

/// An enum, a boolean, a whole number, a limit and a cursor of an admin
/// listing: each bad value gets its code, each good one 200; a parameter no
/// operation names is ignored.
pub fn each_kind_of_query_value_keeps_its_code(env: &Env) -> CaseResult {
    let get = |path: &str| env.admin("GET", path, None);
    // an enum
    get("/v1/admin/cases?status=shut").expect_error(400, "invalid_field")?;
    get("/v1/admin/cases?status=pending_approval").expect(200)?;
    get("/v1/admin/sanctions/cases?type=parking_ticket").expect_error(400, "invalid_field")?;
    get("/v1/admin/sanctions/cases?type=enhanced_due_diligence").expect(200)?;
    // a boolean: only `true` or `false`
    for bad in ["yes", "1", "True"] {
        get(&format!("/v1/admin/kyc/checks?escalated={bad}")).expect_error(400, "invalid_field")?;
    }
    get("/v1/admin/kyc/checks?escalated=true&overdue=false").expect(200)?;
    // a whole number of seconds
    get("/v1/admin/cases?min_age_seconds=-1").expect_error(400, "invalid_field")?;
    get("/v1/admin/cases?min_age_seconds=1.5").expect_error(400, "invalid_field")?;
    get("/v1/admin/cases?min_age_seconds=0").expect(200)?;
    // a limit
    for bad in ["0", "501", "ten", "-1"] {
        get(&format!("/v1/admin/cases?limit={bad}")).expect_error(400, "invalid_limit")?;
    }
    get("/v1/admin/cases?limit=500").expect(200)?;
    // a timestamp
    get("/v1/admin/aml/ctr-candidates?from=yesterday").expect_error(400, "invalid_field")?;
    get("/v1/admin/aml/ctr-candidates?from=2026-01-01T00:00:00Z&to=2027-01-01T00:00:00Z").expect(200)?;
    // a parameter the operation does not name is ignored, as before
    get("/v1/admin/cases?status=open&colour=blue").expect(200)?;
    Ok(())
}

/// A cursor this service issued continues its list; one it did not, or one
/// of another list's key shape, is 400 `invalid_cursor`.
pub fn a_cursor_is_one_this_service_issued(env: &Env) -> CaseResult {
    // two tenants' creation make at least two admin audit entries
    env.sandbox()?;
    env.sandbox()?;
    let first = env.admin("GET", "/v1/admin/audit?limit=1", None);
    first.expect(200)?;
    let cursor = first.str("next_cursor").to_string();
    ensure!(!cursor.is_empty(), "a page of 1 of a longer log has no next_cursor: {}", first.raw);
    env.admin("GET", &format!("/v1/admin/audit?limit=1&cursor={cursor}"), None).expect(200)?;
    env.admin("GET", "/v1/admin/audit?cursor=not-ours", None).expect_error(400, "invalid_cursor")?;
    // the snapshot's cursor is a sequence number: the audit log's does not read as one
    let t = env.sandbox()?;
    t.get(&format!("/v1/exclusions/snapshot?cursor={cursor}")).expect_error(400, "invalid_cursor")?;
    t.get("/v1/exclusions/snapshot").expect(200)?;
    Ok(())
}

/// A required parameter left out is 400 `missing_fields`; given, the
/// operation answers (200 for a known user, 404 for an unknown one).
pub fn a_required_query_parameter_left_out_is_missing(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = unique("query-user");
    t.signup(&user)?;
    for path in ["/v1/sanctions/status", "/v1/kyc/tier", "/v1/limits", "/v1/aml/alerts", "/v1/kyc/status"] {
        t.get(path).expect_error(400, "missing_fields")?;
        // another parameter does not stand in for the required one
        t.get(&format!("{path}?cursor=x&userid={user}")).expect_error(400, "missing_fields")?;
    }
    t.get(&format!("/v1/sanctions/status?user_id={user}")).expect(200)?;
    t.get(&format!("/v1/limits?user_id={user}")).expect(200)?;
    t.get(&format!("/v1/aml/alerts?user_id={user}")).expect(200)?;
    t.get(&format!("/v1/sanctions/status?user_id={}", unique("nobody"))).expect_error(404, "user_not_found")?;
    // the exclusion check needs one of two: neither is missing, a bad one is invalid
    t.get("/v1/exclusions/check").expect_error(400, "missing_fields")?;
    t.get("/v1/exclusions/check?email=not-an-address").expect_error(400, "invalid_field")?;
    t.get("/v1/exclusions/check?phone=12").expect_error(400, "invalid_field")?;
    t.get(&format!("/v1/exclusions/check?email={user}@example.com")).expect(200)?;
    Ok(())
}
