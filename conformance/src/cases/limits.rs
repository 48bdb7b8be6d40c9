use serde_json::{json, Value as Json};

use crate::client::{parse_time, unique, Tenant};
use crate::{ensure, ensure_eq, CaseResult, Env};

fn set(t: &Tenant<'_>, user: &str, kind: &str, cents: i64) -> Result<crate::Resp, String> {
    Ok(t.post("/v1/limits", json!({ "user_id": user, "limit_type": kind, "amount_cents": cents, "currency": "USD", "requested_at": t.now_iso()? })))
}

fn player(t: &Tenant<'_>) -> Result<String, String> {
    let user = unique("u");
    t.signup(&user)?;
    Ok(user)
}

fn deposit_check(t: &Tenant<'_>, user: &str, cents: i64) -> crate::Resp {
    t.post("/v1/limits/check", json!({ "user_id": user, "amount_cents": cents, "currency": "USD" }))
}

fn commit(t: &Tenant<'_>, user: &str, tx: &str, cents: i64) -> crate::Resp {
    t.post("/v1/limits/commit", json!({ "transaction_id": tx, "user_id": user, "amount_cents": cents, "currency": "USD" }))
}

pub fn first_set_is_instant(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = player(&t)?;
    let r = set(&t, &user, "limit_daily", 10_000)?;
    r.expect(201)?;
    ensure_eq!(r.int("cooloff_seconds"), 0);
    ensure_eq!(r.body["is_increase"], json!(false));
    ensure_eq!(r.str("status"), "active");
    ensure!(r.body["current_limit_cents"].is_null(), "no limit was in force before");
    ensure!((parse_time(r.str("effective_from"))? - t.now()?).abs() < 60, "a first set is effective now");
    for field in ["limit_id", "user_id", "limit_type", "amount_cents", "currency"] {
        ensure!(!r.body[field].is_null(), "missing {field}");
    }
    Ok(())
}

pub fn increase_brackets_match_the_table(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    for (to, cooloff) in [(10_001, 86_400), (20_000, 86_400), (20_001, 172_800), (50_000, 172_800), (50_001, 604_800)] {
        let user = player(&t)?;
        set(&t, &user, "limit_weekly", 10_000)?.expect(201)?;
        let r = set(&t, &user, "limit_weekly", to)?;
        r.expect(201)?;
        ensure_eq!(r.int("cooloff_seconds"), cooloff, format!("increase to {to}"));
        ensure_eq!(r.body["is_increase"], json!(true));
        ensure_eq!(r.str("status"), "pending");
        ensure_eq!(r.int("current_limit_cents"), 10_000);
        let delay = parse_time(r.str("effective_from"))? - t.now()?;
        ensure!((cooloff - 60..=cooloff + 1).contains(&delay), "effective_from is {delay}s away, not {cooloff}");
    }
    Ok(())
}

/// The cool-off each regulator sets for every increase (decreases are at once everywhere).
const REGULATORS: &[(&str, i64)] = &[("GB", 24 * 3_600), ("SE", 72 * 3_600), ("DE", 7 * 24 * 3_600), ("CA-ON", 24 * 3_600)];

/// Every profile `GET /v1/rules` lists: a tenant in it gets each bracket's
/// cool-off at the bracket's boundary and one cent past it, and a decrease
/// at once. The regulators' profiles have the cool-off the regulator sets,
/// and the default keeps the spec's table. A profile added to the rules is
/// covered here without a change.
pub fn jurisdiction_profiles_set_the_cooloff(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let rules = t.get("/v1/rules");
    let profiles = rules.body["jurisdictions"].as_array().cloned().unwrap_or_default();
    let names: Vec<&str> = profiles.iter().filter_map(|p| p["name"].as_str()).collect();
    for required in ["default", "GB", "SE", "DE"] {
        ensure!(names.contains(&required), "no {required} profile in {names:?}");
    }
    for profile in &profiles {
        let name = profile["name"].as_str().unwrap_or_default();
        let brackets: Vec<(Option<i64>, i64)> = profile["increase_cooloffs"]
            .as_array()
            .map(|b| b.iter().map(|b| (b["up_to_multiple"].as_i64(), b["cooloff_seconds"].as_i64().unwrap_or(-1))).collect())
            .unwrap_or_default();
        if let Some((_, seconds)) = REGULATORS.iter().find(|(n, _)| *n == name) {
            ensure_eq!(brackets, vec![(None, *seconds)], format!("{name}'s brackets"));
        }
        if name == "default" {
            ensure_eq!(brackets, vec![(Some(2), 24 * 3_600), (Some(5), 48 * 3_600), (None, 7 * 24 * 3_600)], "the spec's table");
        }
        // each bracket at its boundary, one cent past it, and far above the last
        let base = 10_000;
        let mut probes = vec![(base + 1, brackets.first().map_or(-1, |b| b.1))];
        for (i, (multiple, seconds)) in brackets.iter().enumerate() {
            if let Some(m) = multiple {
                probes.push((m * base, *seconds));
                probes.push((m * base + 1, brackets.get(i + 1).map_or(-1, |b| b.1)));
            }
        }
        probes.push((1_000 * base, brackets.last().map_or(-1, |b| b.1)));
        let t = env.sandbox_in(name)?;
        for (to, cooloff) in probes {
            let user = player(&t)?;
            set(&t, &user, "limit_monthly", base)?.expect(201)?;
            let r = set(&t, &user, "limit_monthly", to)?;
            r.expect(201)?;
            ensure_eq!(r.int("cooloff_seconds"), cooloff, format!("{name}: increase to {to}"));
            ensure_eq!(r.str("status"), "pending");
            let delay = parse_time(r.str("effective_from"))? - t.now()?;
            ensure!((cooloff - 60..=cooloff + 1).contains(&delay), "{name}: effective_from is {delay}s away, not {cooloff}");
        }
        let user = player(&t)?;
        set(&t, &user, "limit_daily", base)?.expect(201)?;
        let lower = set(&t, &user, "limit_daily", base - 1)?;
        ensure_eq!((lower.int("cooloff_seconds"), lower.str("status")), (0, "active"), format!("{name}: a decrease is at once"));
    }
    // the twin: a name no profile has is refused
    let body = json!({ "name": "x", "environment": "sandbox", "jurisdiction": "XX" });
    env.admin("POST", "/v1/admin/tenants", Some(&body)).expect_error(400, "invalid_field")?;
    Ok(())
}

pub fn decrease_is_instant_and_cancels_a_pending_increase(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = player(&t)?;
    set(&t, &user, "limit_daily", 10_000)?.expect(201)?;
    let up = set(&t, &user, "limit_daily", 15_000)?;
    ensure_eq!(up.str("status"), "pending");
    let down = set(&t, &user, "limit_daily", 5_000)?;
    down.expect(201)?;
    ensure_eq!(down.int("cooloff_seconds"), 0);
    ensure_eq!(down.str("status"), "active");
    ensure_eq!(down.int("current_limit_cents"), 10_000);
    t.advance(2 * 86_400)?;
    let list = t.get(&format!("/v1/limits?user_id={user}"));
    ensure_eq!(list.body["limits"][0]["amount_cents"], json!(5_000), "the cancelled increase came into force");
    ensure!(list.body["limits"][0]["pending_change"].is_null(), "the increase is still pending");
    Ok(())
}

pub fn pending_increase_is_idempotent_or_conflicts(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = player(&t)?;
    set(&t, &user, "limit_monthly", 10_000)?.expect(201)?;
    let up = set(&t, &user, "limit_monthly", 30_000)?;
    up.expect(201)?;
    let again = set(&t, &user, "limit_monthly", 30_000)?;
    again.expect(200)?;
    ensure_eq!(again.body, up.body);
    set(&t, &user, "limit_monthly", 40_000)?.expect_error(409, "pending_change_exists")?;
    set(&t, &user, "limit_daily", 40_000)?.expect(201)?;
    Ok(())
}

pub fn pending_increase_activates_after_cooloff(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = player(&t)?;
    set(&t, &user, "limit_daily", 10_000)?.expect(201)?;
    set(&t, &user, "limit_daily", 20_000)?.expect(201)?;
    ensure_eq!(deposit_check(&t, &user, 15_000).body["allowed"], json!(false), "the increase applied before its cool-off");
    t.advance(86_400 - 120)?;
    ensure_eq!(deposit_check(&t, &user, 15_000).body["allowed"], json!(false), "the increase applied early");
    t.advance(120)?;
    let after = deposit_check(&t, &user, 15_000);
    ensure_eq!(after.body["allowed"], json!(true), "the increase did not become live");
    ensure_eq!(after.int("would_remain_cents"), 5_000);
    Ok(())
}

pub fn cancel_applies_only_to_pending_increases(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = player(&t)?;
    let first = set(&t, &user, "limit_daily", 10_000)?;
    let up = set(&t, &user, "limit_daily", 12_000)?;
    let cancelled = t.delete(&format!("/v1/limits/{}", up.str("limit_id")));
    cancelled.expect(200)?;
    ensure_eq!(cancelled.str("status"), "cancelled");
    t.delete(&format!("/v1/limits/{}", up.str("limit_id"))).expect(200)?;
    t.delete(&format!("/v1/limits/{}", first.str("limit_id"))).expect_error(409, "not_pending")?;
    t.delete("/v1/limits/lim_missing").expect_error(404, "limit_not_found")?;
    t.advance(2 * 86_400)?;
    ensure_eq!(deposit_check(&t, &user, 11_000).body["allowed"], json!(false), "a cancelled increase took effect");
    Ok(())
}

pub fn invalid_limit_requests_are_rejected(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = player(&t)?;
    set(&t, &user, "limit_yearly", 10_000)?.expect_error(400, "unsupported_type")?;
    set(&t, &user, "limit_daily", 0)?.expect_error(400, "invalid_amount")?;
    set(&t, &user, "limit_daily", -100)?.expect_error(400, "invalid_amount")?;
    set(&t, &user, "limit_daily", 99)?.expect_error(422, "below_minimum")?;
    set(&t, &unique("nobody"), "limit_daily", 10_000)?.expect_error(404, "user_not_found")?;
    t.post(
        "/v1/limits",
        json!({ "user_id": user, "limit_type": "limit_daily", "amount_cents": "100", "currency": "USD", "requested_at": t.now_iso()? }),
    )
    .expect_error(400, "invalid_amount")?;
    t.post(
        "/v1/limits",
        json!({ "user_id": user, "limit_type": "limit_daily", "amount_cents": 10_000, "currency": "usd", "requested_at": t.now_iso()? }),
    )
    .expect_error(400, "invalid_field")?;
    set(&t, &user, "limit_daily", 100)?.expect(201)?;
    deposit_check(&t, &unique("nobody"), 100).expect_error(404, "user_not_found")?;
    t.post("/v1/limits/check", json!({ "user_id": user, "amount_cents": 100, "currency": "EUR" })).expect_error(400, "currency_mismatch")?;
    Ok(())
}

pub fn backdated_requests_cannot_skip_cooloff(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = player(&t)?;
    set(&t, &user, "limit_daily", 10_000)?.expect(201)?;
    let now = t.now()?;
    let back = t.post("/v1/limits", json!({ "user_id": user, "limit_type": "limit_daily", "amount_cents": 20_000, "currency": "USD", "requested_at": crate::client::format_time(now - 2 * 86_400) }));
    back.expect_error(400, "timestamp_out_of_range")?;
    let slight = t.post("/v1/limits", json!({ "user_id": user, "limit_type": "limit_daily", "amount_cents": 20_000, "currency": "USD", "requested_at": crate::client::format_time(now - 200) }));
    slight.expect(201)?;
    ensure!(parse_time(slight.str("effective_from"))? >= now + 86_400, "a back-dated request shortened the cool-off");
    Ok(())
}

pub fn check_allows_up_to_the_limit_and_rejects_one_cent_more(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = player(&t)?;
    set(&t, &user, "limit_daily", 10_000)?.expect(201)?;
    set(&t, &user, "limit_weekly", 50_000)?.expect(201)?;
    commit(&t, &user, &unique("tx"), 6_000).expect(201)?;
    let committed_at = t.now()?;
    let ok = deposit_check(&t, &user, 4_000);
    ok.expect(200)?;
    ensure_eq!(ok.body["allowed"], json!(true));
    ensure_eq!(ok.int("amount_cents"), 4_000);
    ensure_eq!(ok.int("would_remain_cents"), 0);
    let mut active: Vec<Json> = ok.body["active_limits"].as_array().cloned().unwrap_or_default();
    active.sort_by_key(|v| v.to_string());
    ensure_eq!(active, vec![json!("limit_daily"), json!("limit_weekly")]);
    let no = deposit_check(&t, &user, 4_001);
    no.expect(200)?;
    ensure_eq!(no.body["allowed"], json!(false));
    ensure_eq!(no.str("reason"), "exceeds_limit");
    ensure_eq!(no.str("breached_limit_type"), "limit_daily");
    ensure_eq!(no.int("limit_amount_cents"), 10_000);
    ensure_eq!(no.int("already_spent_cents"), 6_000);
    ensure_eq!(no.int("max_allowed_now_cents"), 4_000);
    let reset = parse_time(no.str("next_reset_at"))?;
    ensure!((reset - (committed_at + 86_400)).abs() <= 5, "next_reset_at is not 24h after the deposit");
    let message = no.str("user_message");
    ensure!(message.contains("40.00") && message.contains("daily"), "user_message is not helpful: {message}");
    commit(&t, &user, &unique("tx"), 4_001).expect_error(422, "exceeds_limit")?;
    Ok(())
}

/// Real time passes while the case runs, so it keeps half a minute either
/// side of the edge; the exact second is the rules' unit tests' business.
pub fn rolling_window_releases_spend_after_24_hours(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = player(&t)?;
    set(&t, &user, "limit_daily", 10_000)?.expect(201)?;
    commit(&t, &user, &unique("tx"), 10_000).expect(201)?;
    t.advance(86_400 - 30)?;
    ensure_eq!(deposit_check(&t, &user, 100).body["allowed"], json!(false), "spend left the window early");
    t.advance(30)?;
    ensure_eq!(deposit_check(&t, &user, 10_000).body["allowed"], json!(true), "spend stayed past 24 hours");
    Ok(())
}

pub fn commit_is_idempotent_per_transaction(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = player(&t)?;
    set(&t, &user, "limit_daily", 10_000)?.expect(201)?;
    let tx = unique("tx");
    let first = commit(&t, &user, &tx, 3_000);
    first.expect(201)?;
    ensure_eq!(first.str("status"), "committed");
    let again = commit(&t, &user, &tx, 3_000);
    again.expect(200)?;
    ensure_eq!(again.body, first.body);
    commit(&t, &user, &tx, 3_001).expect_error(409, "transaction_conflict")?;
    ensure_eq!(deposit_check(&t, &user, 7_000).int("would_remain_cents"), 0, "the repeat was counted twice");
    Ok(())
}

pub fn concurrent_commits_never_exceed_a_limit(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = player(&t)?;
    set(&t, &user, "limit_daily", 10_000)?.expect(201)?;
    let statuses: Vec<u16> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..12).map(|_| s.spawn(|| commit(&t, &user, &unique("tx"), 2_000).status)).collect();
        handles.into_iter().map(|h| h.join().unwrap_or(0)).collect()
    });
    let accepted = statuses.iter().filter(|s| **s == 201).count();
    ensure_eq!(accepted, 5, format!("statuses {statuses:?}"));
    ensure!(statuses.iter().all(|s| *s == 201 || *s == 422 || *s == 409), "unexpected statuses {statuses:?}");
    let list = t.get(&format!("/v1/limits?user_id={user}"));
    ensure_eq!(list.body["limits"][0]["spent_cents"], json!(10_000));
    Ok(())
}

pub fn list_shows_spend_and_pending_changes(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = player(&t)?;
    t.get(&format!("/v1/limits?user_id={}", unique("nobody"))).expect_error(404, "user_not_found")?;
    let empty = t.get(&format!("/v1/limits?user_id={user}"));
    ensure_eq!(empty.body["limits"], json!([]));
    set(&t, &user, "limit_weekly", 20_000)?.expect(201)?;
    commit(&t, &user, &unique("tx"), 5_000).expect(201)?;
    let up = set(&t, &user, "limit_weekly", 30_000)?;
    let list = t.get(&format!("/v1/limits?user_id={user}"));
    list.expect(200)?;
    let weekly = &list.body["limits"][0];
    ensure_eq!(weekly["limit_type"], json!("limit_weekly"));
    ensure_eq!(weekly["amount_cents"], json!(20_000));
    ensure_eq!(weekly["spent_cents"], json!(5_000));
    ensure_eq!(weekly["remaining_cents"], json!(15_000));
    ensure!(weekly["next_reset_at"].is_string(), "no next_reset_at");
    ensure_eq!(weekly["pending_change"]["limit_id"], json!(up.str("limit_id")));
    Ok(())
}

/// An hour's sum of a player's deposits is kept within ±(2^53 − 1), what
/// every store keeps exactly; a window of many hours is not, and D1 reads a
/// larger sum back as a double. A player past that sum still gets answers
/// (issue #46): the check, the commit and the list answer, the window's
/// spend read as the bound, and a limit in force refuses. The twin, a player
/// below the bound, is read exactly.
pub fn sums_past_what_stores_keep_exactly_still_decide(env: &Env) -> CaseResult {
    const STORED_EXACTLY: i64 = (1 << 53) - 1;
    const LARGEST: i64 = 1_000_000_000_000_000;
    let t = env.sandbox()?;
    let user = player(&t)?;
    // the tenant's clock to the start of an hour: the commits of one hour all fall in it
    t.advance(3_600 - t.now()?.rem_euclid(3_600) + 1)?;
    for hour in 0..2 {
        for _ in 0..STORED_EXACTLY / LARGEST {
            commit(&t, &user, &unique("tx"), LARGEST).expect(201)?;
        }
        if hour == 0 {
            // the same hour: the hour's sum would pass the bound
            commit(&t, &user, &unique("tx"), LARGEST).expect_error(400, "invalid_amount")?;
        }
        t.advance(2 * 3_600)?;
    }
    let check = deposit_check(&t, &user, 100);
    check.expect(200)?;
    ensure_eq!(check.body["allowed"], json!(true), "no limit is set");
    set(&t, &user, "limit_monthly", 10_000)?.expect(201)?;
    let refused = deposit_check(&t, &user, 100);
    refused.expect(200)?;
    ensure_eq!(refused.body["allowed"], json!(false), refused.raw);
    commit(&t, &user, &unique("tx"), 100).expect(422)?;
    let list = t.get(&format!("/v1/limits?user_id={user}"));
    list.expect(200)?;
    ensure_eq!(list.body["limits"][0]["spent_cents"], json!(STORED_EXACTLY), list.raw);

    let twin = player(&t)?;
    commit(&t, &twin, &unique("tx"), LARGEST - 10_000).expect(201)?;
    t.advance(2 * 3_600)?;
    set(&t, &twin, "limit_monthly", LARGEST)?.expect(201)?;
    let below = deposit_check(&t, &twin, 10_000);
    below.expect(200)?;
    ensure_eq!(below.body["allowed"], json!(true), below.raw);
    ensure_eq!(below.int("would_remain_cents"), 0);
    ensure_eq!(deposit_check(&t, &twin, 10_001).body["allowed"], json!(false));
    let list = t.get(&format!("/v1/limits?user_id={twin}"));
    ensure_eq!(list.body["limits"][0]["spent_cents"], json!(LARGEST - 10_000), list.raw);
    Ok(())
}

fn commit_in(t: &Tenant<'_>, user: &str, cents: i64, currency: &str) -> crate::Resp {
    t.post("/v1/limits/commit", json!({ "transaction_id": unique("tx"), "user_id": user, "amount_cents": cents, "currency": currency }))
}

/// A deposit in another currency than a limit's counts against it at the
/// reference rate (issue #46), never at par: EUR 80.00 deposited before a
/// USD 100.00 daily limit was set is USD 86.40 at 1.08, so USD 13.60 is left
/// (at par it would be 20.00). The twin, USD 13.60, fits exactly; one cent
/// more is a breach at the converted spend, for the check, the commit and
/// the list alike. The rates version is a fact of the decision, which replays.
pub fn deposits_in_other_currencies_count_at_the_reference_rate(env: &Env) -> CaseResult {
    let version = super::aml::import_reference_rates(env)?;
    let t = env.sandbox()?;
    let user = player(&t)?;
    commit_in(&t, &user, 8_000, "EUR").expect(201)?;
    set(&t, &user, "limit_daily", 10_000)?.expect(201)?;
    let over = deposit_check(&t, &user, 1_361);
    over.expect(200)?;
    ensure_eq!(over.body["allowed"], json!(false), over.raw);
    ensure_eq!(over.str("reason"), "exceeds_limit");
    ensure_eq!(over.int("already_spent_cents"), 8_640);
    ensure_eq!(over.int("max_allowed_now_cents"), 1_360);
    let decision = over.header("x-decision-id").unwrap_or_default().to_string();
    let logged = env.admin("GET", &format!("/v1/admin/decisions/{decision}"), None);
    ensure_eq!(logged.body["input"]["rates"][0]["version"], json!(version), logged.raw);
    ensure_eq!(logged.body["input"]["rates"][0]["currency"], json!("EUR"));
    let replay = env.admin("POST", &format!("/v1/admin/decisions/{decision}/replay"), None);
    replay.expect(200)?;
    ensure_eq!(replay.body["identical"], json!(true), replay.raw);
    // the twin: exactly what the converted spend leaves
    let fits = deposit_check(&t, &user, 1_360);
    ensure_eq!(fits.body["allowed"], json!(true), fits.raw);
    ensure_eq!(fits.body["would_remain_cents"], json!(0));
    let listed = t.get(&format!("/v1/limits?user_id={user}"));
    listed.expect(200)?;
    ensure_eq!(listed.body["limits"][0]["spent_cents"], json!(8_640), listed.raw);
    ensure_eq!(listed.body["limits"][0]["remaining_cents"], json!(1_360));
    commit(&t, &user, &unique("tx"), 1_361).expect_error(422, "exceeds_limit")?;
    commit(&t, &user, &unique("tx"), 1_360).expect(201)?;
    ensure_eq!(deposit_check(&t, &user, 1).body["allowed"], json!(false));
    Ok(())
}

/// A deposit in a currency no reference rate converts into a limit's is a
/// clear 422 `no_reference_rate` naming the pair, never summed at par (nor
/// a 500), for the check, the commit and the list; the twin, a player whose
/// deposits are all in the limit's currency, needs no rate at all. A check
/// in another currency than the limit's stays 400 `currency_mismatch`,
/// naming the limit's currency.
pub fn a_currency_with_no_rate_is_refused_never_summed_at_par(env: &Env) -> CaseResult {
    super::aml::import_reference_rates(env)?;
    let t = env.sandbox()?;
    let (user, twin) = (player(&t)?, player(&t)?);
    commit_in(&t, &user, 5_000, "CHF").expect(201)?;
    commit_in(&t, &twin, 5_000, "USD").expect(201)?;
    for u in [&user, &twin] {
        set(&t, u, "limit_daily", 10_000)?.expect(201)?;
    }
    let refused = deposit_check(&t, &user, 100);
    refused.expect_error(422, "no_reference_rate")?;
    ensure!(refused.body["message"].as_str().is_some_and(|m| m.contains("CHF into USD")), "the message names no pair: {}", refused.raw);
    commit(&t, &user, &unique("tx"), 100).expect_error(422, "no_reference_rate")?;
    t.get(&format!("/v1/limits?user_id={user}")).expect_error(422, "no_reference_rate")?;
    // the twin: the limit's own currency needs no rate
    let fits = deposit_check(&t, &twin, 5_000);
    ensure_eq!(fits.body["allowed"], json!(true), fits.raw);
    ensure_eq!(fits.body["would_remain_cents"], json!(0));
    ensure_eq!(deposit_check(&t, &twin, 5_001).body["allowed"], json!(false));
    // a check in another currency than the limit's: the same answer as before rates
    let mismatch = t.post("/v1/limits/check", json!({ "user_id": twin, "amount_cents": 100, "currency": "EUR" }));
    mismatch.expect_error(400, "currency_mismatch")?;
    ensure!(mismatch.body["message"].as_str().is_some_and(|m| m.contains("USD")), "the limit's currency is not named: {}", mismatch.raw);
    commit_in(&t, &twin, 100, "EUR").expect_error(400, "currency_mismatch")?;
    Ok(())
}
