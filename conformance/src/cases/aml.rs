use serde_json::json;

use crate::client::unique;
use crate::{ensure, ensure_eq, CaseResult, Env};

pub fn aml_events_are_accepted_once(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = unique("u");
    t.signup(&user)?;
    let tx = unique("tx");
    let body = json!({ "transaction_id": tx, "user_id": user, "event_type": "deposit", "amount_cents": 125_000, "currency": "EUR", "occurred_at": t.now_iso()? });
    let first = t.post("/v1/aml/event", body.clone());
    first.expect(202)?;
    ensure_eq!(first.str("status"), "accepted");
    ensure!(first.str("aml_event_id").starts_with("aml_"), "no event id");
    let again = t.post("/v1/aml/event", body.clone());
    again.expect(200)?;
    ensure_eq!(again.body, first.body);
    let mut changed = body;
    changed["amount_cents"] = json!(1);
    t.post("/v1/aml/event", changed).expect_error(409, "transaction_conflict")?;
    let listed = env.admin("GET", "/v1/admin/aml/events", None);
    ensure!(listed.raw.contains(first.str("aml_event_id")), "the event is not stored for review");
    Ok(())
}

pub fn aml_events_are_validated(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = unique("u");
    t.signup(&user)?;
    t.post("/v1/aml/event", json!({ "user_id": user })).expect_error(400, "missing_fields")?;
    t.post(
        "/v1/aml/event",
        json!({ "transaction_id": unique("tx"), "user_id": user, "event_type": "deposit", "amount_cents": -1, "currency": "EUR" }),
    )
    .expect_error(400, "invalid_amount")?;
    t.post(
        "/v1/aml/event",
        json!({ "transaction_id": unique("tx"), "user_id": unique("nobody"), "event_type": "deposit", "amount_cents": 1, "currency": "EUR" }),
    )
    .expect_error(404, "user_not_found")?;
    Ok(())
}
