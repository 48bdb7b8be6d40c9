use serde_json::json;

use crate::{ensure, ensure_eq, CaseResult, Env};

pub fn health_is_public_and_unauthenticated(env: &Env) -> CaseResult {
    let r = env.call("GET", "/v1/health", None, None);
    r.expect(200)?;
    ensure_eq!(r.str("status"), "ok");
    ensure!(r.header("x-request-id").is_some(), "health has no request id");
    let r = env.call("GET", "/v1/health", Some("cgw_sk_test_garbage"), None);
    ensure_eq!(r.status, 200, "a bad key must not break the public health check");
    Ok(())
}

pub fn unknown_path_is_404_with_error_body(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    t.get("/v1/nothing-here").expect_error(404, "not_found")?;
    t.get("/v2/health").expect_error(404, "not_found")?;
    Ok(())
}

pub fn wrong_method_is_405_with_allow(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let r = t.delete("/v1/sanctions/screen");
    r.expect_error(405, "method_not_allowed")?;
    ensure_eq!(r.header("allow"), Some("POST"));
    t.get("/v1/limits/check").expect_error(405, "method_not_allowed")?;
    // A path with two methods names both, whatever they are.
    let both = t.delete("/v1/limits");
    both.expect_error(405, "method_not_allowed")?;
    ensure_eq!(both.header("allow"), Some("POST, GET"));
    let clock = t.delete("/v1/sandbox/clock");
    ensure_eq!(clock.header("allow"), Some("POST, GET"));
    Ok(())
}

pub fn malformed_json_is_400_invalid_json(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    for body in ["{", "[1,2]", "\"text\"", ""] {
        let r = env.send("POST", "/v1/limits/check", Some(&t.key), Some(("application/json", body.as_bytes().to_vec())));
        r.expect_error(400, "invalid_json")?;
    }
    let r = t.post("/v1/limits/check", json!({ "user_id": 5, "amount_cents": 100, "currency": "USD" }));
    r.expect_error(400, "invalid_field")?;
    Ok(())
}

pub fn non_json_content_type_is_415(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let r = env.send("POST", "/v1/limits/check", Some(&t.key), Some(("text/plain", b"{}".to_vec())));
    r.expect_error(415, "unsupported_media_type")?;
    let r = env.send("POST", "/v1/limits/check", Some(&t.key), Some(("application/json; charset=utf-8", b"{}".to_vec())));
    r.expect_error(400, "missing_fields")?;
    Ok(())
}

pub fn oversized_body_is_413(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let big = format!("{{\"user_id\":\"{}\"}}", "x".repeat(70 * 1024));
    let r = env.send("POST", "/v1/sanctions/screen", Some(&t.key), Some(("application/json", big.into_bytes())));
    r.expect_error(413, "payload_too_large")?;
    Ok(())
}

pub fn rules_endpoint_reports_version_and_hash(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let r = t.get("/v1/rules");
    r.expect(200)?;
    let hash = r.str("component_sha256");
    ensure!(hash.len() == 64 && hash.bytes().all(|b| b.is_ascii_hexdigit()), "component_sha256 is not a SHA-256: {hash}");
    ensure!(r.str("version").split('.').count() == 3, "version is not semantic: {}", r.raw);
    if let Ok(expected) = std::env::var("CGW_EXPECTED_RULES_SHA256") {
        ensure_eq!(hash, expected.trim(), "the host runs another component than the one built");
    }
    env.call("GET", "/v1/rules", None, None).expect_error(401, "missing_credentials")?;
    Ok(())
}

pub fn openapi_document_is_public_and_names_every_area(env: &Env) -> CaseResult {
    let r = env.call("GET", "/v1/openapi.json", None, None);
    r.expect(200)?;
    ensure!(r.header("content-type").is_some_and(|c| c.starts_with("application/json")), "not JSON: {:?}", r.header("content-type"));
    ensure!(r.str("openapi").starts_with("3.1."), "not OpenAPI 3.1: {}", r.str("openapi"));
    let paths = r.body["paths"].as_object().ok_or("no paths")?;
    for path in ["/v1/sanctions/screen", "/v1/kyc/start", "/v1/exclusions/check", "/v1/limits/check", "/v1/admin/sanctions/search"] {
        ensure!(paths.contains_key(path), "{path} is not documented");
    }
    ensure!(!paths.contains_key("/v1/nothing-here"), "an unknown path is documented");
    env.call("POST", "/v1/openapi.json", None, None).expect_error(405, "method_not_allowed")?;
    Ok(())
}

pub fn query_parameter_without_value_is_400(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    t.get("/v1/exclusions/snapshot?cursor=").expect_error(400, "invalid_query")?;
    t.get("/v1/sanctions/status?user_id=").expect_error(400, "invalid_query")?;
    // the negative twin: absent is not empty
    t.get("/v1/exclusions/snapshot").expect(200)?;
    Ok(())
}

pub fn integers_with_a_zero_fraction_are_integers(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = crate::client::unique("whole");
    t.signup(&user)?;
    let r = t.post("/v1/limits/check", json!({ "user_id": user, "amount_cents": 1500.0, "currency": "USD" }));
    r.expect(200)?;
    ensure_eq!(r.int("amount_cents"), 1500);
    t.post("/v1/limits/check", json!({ "user_id": user, "amount_cents": 1500.5, "currency": "USD" })).expect_error(400, "invalid_amount")?;
    t.post("/v1/limits/check", json!({ "user_id": user, "amount_cents": 1500, "currency": " USD" })).expect_error(400, "invalid_field")?;
    Ok(())
}

/// No store keeps NUL in text (Postgres refuses it): it is a 400, never a 500.
pub fn nul_in_text_is_400(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = crate::client::unique("nul");
    t.post("/v1/sanctions/screen", crate::client::identity(&format!("{user}\u{0}"), "Ann", "Lee", "ann@example.com"))
        .expect_error(400, "invalid_field")?;
    t.get(&format!("/v1/sanctions/status?user_id={user}%00")).expect_error(400, "invalid_query")?;
    // the negative twin: the same id without NUL
    t.signup(&user)?;
    t.get(&format!("/v1/sanctions/status?user_id={user}")).expect(200)?;
    Ok(())
}

/// The identity vendor's webhook needs no key (its body carries a digest);
/// with no vendor configured, as in this suite, it is 404, never 401 or 5xx.
pub fn vendor_webhook_without_a_vendor_is_404(env: &Env) -> CaseResult {
    let body = json!({ "type": "applicantPending", "externalUserId": "kyc_nobody" });
    env.call("POST", "/v1/vendors/sumsub/webhook", None, Some(&body)).expect_error(404, "not_found")?;
    // a key changes nothing: the route does not read it
    let t = env.sandbox()?;
    env.call("POST", "/v1/vendors/sumsub/webhook", Some(&t.key), Some(&body)).expect_error(404, "not_found")?;
    env.call("GET", "/v1/vendors/sumsub/webhook", None, None).expect_error(405, "method_not_allowed")?;
    Ok(())
}
