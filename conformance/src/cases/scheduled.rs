use std::time::Duration;

use serde_json::{json, Value as Json};

use crate::client::{parse_time, unique};
use crate::receiver::{Behaviour, Receiver};
use crate::{ensure, ensure_eq, CaseResult, Env};

pub fn daily_snapshot_is_served_for_reconciliation(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    env.admin("POST", "/v1/admin/scheduler/run", Some(&json!({}))).expect(200)?;
    t.post("/v1/admin/scheduler/run", json!({})).expect_error(403, "forbidden")?;
    let user = unique("u");
    t.signup(&user)?;
    let late =
        t.post("/v1/exclusions", json!({ "user_id": user, "duration": "duration_7d", "reason": "self_initiated", "initiated_at": t.now_iso()? }));
    late.expect(201)?;
    let daily = t.get("/v1/exclusions/snapshot?snapshot=daily&limit=1000");
    daily.expect(200)?;
    let info = &daily.body["daily_snapshot"];
    let date = info["snapshot_date"].as_str().unwrap_or("");
    ensure!(date.len() == 10, "no snapshot date: {}", daily.raw);
    let taken = parse_time(info["taken_at"].as_str().unwrap_or(""))?;
    let boundary = parse_time(&format!("{date}T03:00:00Z"))?;
    ensure!(taken >= boundary, "the snapshot was taken before 03:00 UTC of its date");
    ensure!(!daily.raw.contains(late.str("exclusion_id")), "an exclusion made after the snapshot is in it");
    // A page of the daily snapshot never changes (the edge serves it from KV
    // once built); only its generated_at moves.
    let again = t.get("/v1/exclusions/snapshot?snapshot=daily&limit=1000");
    again.expect(200)?;
    for field in ["exclusions", "next_cursor", "has_more", "daily_snapshot"] {
        ensure_eq!(again.body[field], daily.body[field], format!("{field} of the same daily page changed"));
    }
    // The count shown with the snapshot is the number of rows it serves.
    let mut served = 0;
    let mut next = daily.body["next_cursor"].as_str().map(str::to_string);
    served += daily.body["exclusions"].as_array().map_or(0, Vec::len);
    for _ in 0..1000 {
        let Some(c) = next.take() else { break };
        let page = t.get(&format!("/v1/exclusions/snapshot?snapshot=daily&limit=1000&cursor={c}"));
        page.expect(200)?;
        served += page.body["exclusions"].as_array().map_or(0, Vec::len);
        next = page.body["next_cursor"].as_str().map(str::to_string);
    }
    ensure_eq!(info["active_count"], json!(served), format!("the daily snapshot counts other rows than it serves: {}", daily.raw));
    let mut cursor = None::<String>;
    let mut found = false;
    for _ in 0..1000 {
        let path = match &cursor {
            Some(c) => format!("/v1/exclusions/snapshot?limit=1000&cursor={c}"),
            None => "/v1/exclusions/snapshot?limit=1000".to_string(),
        };
        let live = t.get(&path);
        found |= live.raw.contains(late.str("exclusion_id"));
        match live.body["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => break,
        }
    }
    ensure!(found, "the live list lacks the new exclusion");
    t.get("/v1/exclusions/snapshot?snapshot=weekly").expect_error(400, "invalid_field")?;
    Ok(())
}

pub fn users_are_rescreened_quarterly_and_on_demand(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = unique("u");
    t.signup(&user)?;
    let status =
        |t: &crate::Tenant<'_>| -> Result<i64, String> { parse_time(t.get(&format!("/v1/sanctions/status?user_id={user}")).str("last_screened_at")) };
    let first = status(&t)?;
    t.advance(90 * 86_400)?;
    ensure_eq!(status(&t)?, first, "re-screened before the quarter was over");
    t.advance(2 * 86_400)?;
    let second = status(&t)?;
    ensure!(second >= first + 92 * 86_400 - 5, "not re-screened after a quarter: {first} then {second}");
    t.advance(86_400)?;
    let r = env.admin("POST", "/v1/admin/sanctions/rescreen", Some(&json!({ "tenant_id": t.tenant_id, "user_id": user })));
    r.expect(200)?;
    ensure_eq!(r.int("rescreened"), 1);
    ensure_eq!(r.int("new_hits"), 0);
    ensure!(status(&t)? >= second + 86_400, "the on-demand re-screen did not run");
    ensure_eq!(t.get(&format!("/v1/sanctions/status?user_id={user}")).str("status"), "clear");
    env.admin("POST", "/v1/admin/sanctions/rescreen", Some(&json!({ "tenant_id": "ten_missing" }))).expect_error(404, "tenant_not_found")?;
    t.post("/v1/admin/sanctions/rescreen", json!({ "tenant_id": t.tenant_id })).expect_error(403, "forbidden")?;
    Ok(())
}

pub fn scheduled_work_is_idempotent(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let receiver = Receiver::start(Behaviour::Accept)?;
    t.post("/v1/webhooks", json!({ "url": receiver.url })).expect(201)?;
    let user = unique("u");
    t.signup(&user)?;
    let set = |cents: i64| -> Result<crate::Resp, String> {
        Ok(t.post(
            "/v1/limits",
            json!({ "user_id": user, "limit_type": "limit_daily", "amount_cents": cents, "currency": "USD", "requested_at": t.now_iso()? }),
        ))
    };
    set(10_000)?.expect(201)?;
    let up = set(20_000)?;
    up.expect(201)?;
    t.advance(86_400)?;
    env.admin("POST", "/v1/admin/scheduler/run", Some(&json!({}))).expect(200)?;
    env.admin("POST", "/v1/admin/scheduler/run", Some(&json!({}))).expect(200)?;
    let is_mine = |d: &crate::receiver::Received| d.event() == "limit.activated" && d.json["data"]["limit_id"] == json!(up.str("limit_id"));
    receiver.wait_until(Duration::from_secs(30), "limit.activated", |all| all.iter().any(is_mine))?;
    std::thread::sleep(Duration::from_millis(1000));
    let count = receiver.all().iter().filter(|d| is_mine(d)).count();
    ensure_eq!(count, 1, "limit.activated fired more than once");
    let list = t.get(&format!("/v1/limits?user_id={user}"));
    ensure_eq!(list.body["limits"][0]["amount_cents"], json!(20_000));
    let _: Json = list.body;
    Ok(())
}
