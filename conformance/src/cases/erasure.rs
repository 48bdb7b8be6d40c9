//! Issue #31 items 3 and 4: the end of a relationship and erasure as a job
//! with legal holds, through the routes, on every host and store.

use serde_json::{json, Value as Json};

use crate::client::{unique, Tenant};
use crate::receiver::{Behaviour, Receiver};
use crate::{ensure, ensure_eq, CaseResult, Env};

fn erase(t: &Tenant<'_>, user: &str) -> crate::Resp {
    t.post(&format!("/v1/users/{user}/erasure"), json!({}))
}

fn without_id(body: &Json) -> Json {
    let mut body = body.clone();
    if let Some(o) = body.as_object_mut() {
        o.remove("erasure_id");
    }
    body
}

/// The answer without its id and the held classes' dates.
fn undated(body: &Json) -> Json {
    let mut body = without_id(body);
    for held in body["held"].as_array_mut().into_iter().flatten() {
        if let Some(o) = held.as_object_mut() {
            o.remove("until");
        }
    }
    body
}

/// The held classes' dates, in seconds, in the answer's order.
fn dates(body: &Json) -> Vec<i64> {
    body["held"].as_array().into_iter().flatten().filter_map(|h| h["until"].as_str().and_then(|t| crate::client::parse_time(t).ok())).collect()
}

fn lists(body: &Json, field: &str, class: &str) -> bool {
    body[field].as_array().is_some_and(|a| a.iter().any(|c| c == class || c["class"] == class))
}

pub fn unknown_users_are_404_and_a_repeat_answers_the_same_job(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let nobody = unique("nobody");
    erase(&t, &nobody).expect_error(404, "user_not_found")?;
    t.post(&format!("/v1/users/{nobody}/close"), json!({})).expect_error(404, "user_not_found")?;
    t.get("/v1/erasures/era_unknown").expect_error(404, "erasure_not_found")?;
    let user = unique("u");
    t.signup(&user)?;
    let first = erase(&t, &user);
    first.expect(202)?;
    ensure!(first.str("erasure_id").starts_with("era_"), "no erasure id: {}", first.raw);
    ensure_eq!(first.str("state"), "held");
    // what no law requires goes at once; identity and screening are held with a date and a basis
    ensure!(lists(&first.body, "erased", "limit_changes") && lists(&first.body, "erased", "webhook_payloads"), "{}", first.raw);
    let identity = first.body["held"].as_array().and_then(|h| h.iter().find(|c| c["class"] == "identity_screening")).cloned().unwrap_or_default();
    ensure!(identity["until"].is_string() && identity["basis"].is_string(), "identity held without a date or basis: {}", first.raw);
    // the twin: a repeat is the same job, and GET shows it
    let again = erase(&t, &user);
    again.expect(202)?;
    ensure_eq!(again.body, first.body);
    let shown = t.get(&format!("/v1/erasures/{}", first.str("erasure_id")));
    shown.expect(200)?;
    ensure_eq!(shown.body, first.body);
    Ok(())
}

pub fn close_records_the_relationship_end_once(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = unique("u");
    t.signup(&user)?;
    let closed = t.post(&format!("/v1/users/{user}/close"), json!({}));
    closed.expect(200)?;
    ensure_eq!(closed.str("user_id"), user.as_str());
    ensure!(closed.str("closed_at").ends_with('Z'), "no closed_at: {}", closed.raw);
    t.advance(86_400)?;
    let again = t.post(&format!("/v1/users/{user}/close"), json!({}));
    again.expect(200)?;
    ensure_eq!(again.str("closed_at"), closed.str("closed_at"), "a second close moved the relationship's end");
    // the classes are dated from the close, not from the later request: the twin, closed by its request, a day later
    let other = unique("u");
    t.signup(&other)?;
    let of_closed = erase(&t, &user);
    let of_open = erase(&t, &other);
    let until = |r: &crate::Resp| {
        r.body["held"].as_array().and_then(|h| h.iter().find(|c| c["class"] == "identity_screening")).map(|c| c["until"].clone()).unwrap_or_default()
    };
    ensure!(until(&of_closed) != until(&of_open), "the close did not date the classes: {} vs {}", of_closed.raw, of_open.raw);
    Ok(())
}

pub fn another_tenant_or_environment_never_reaches_a_job(env: &Env) -> CaseResult {
    let a = env.sandbox()?;
    let b = env.sandbox()?;
    let p = env.tenant_with("production", 1000)?;
    let user = unique("u");
    a.signup(&user)?;
    let job = erase(&a, &user);
    job.expect(202)?;
    let path = format!("/v1/erasures/{}", job.str("erasure_id"));
    b.get(&path).expect_error(404, "erasure_not_found")?;
    p.get(&path).expect_error(404, "erasure_not_found")?;
    erase(&b, &user).expect_error(404, "user_not_found")?;
    b.post(&format!("/v1/users/{user}/close"), json!({})).expect_error(404, "user_not_found")?;
    // the admin: the same job for the tenant it names in its environment; not another environment's
    let admin_path = format!("/v1/admin/users/{user}/erasure");
    let by_admin = env.admin("POST", &admin_path, Some(&json!({ "tenant_id": a.tenant_id })));
    by_admin.expect(202)?;
    ensure_eq!(by_admin.body, job.body);
    env.admin_production("POST", &admin_path, Some(&json!({ "tenant_id": a.tenant_id }))).expect_error(404, "tenant_not_found")?;
    env.admin("POST", &admin_path, Some(&json!({}))).expect(400)?;
    // an operator key cannot use the admin route
    a.post(&admin_path, json!({ "tenant_id": a.tenant_id })).expect(403)?;
    Ok(())
}

pub fn an_exclusion_in_force_is_refused_and_aml_material_is_never_named(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let (subject, twin) = (unique("u"), unique("u"));
    for user in [&subject, &twin] {
        t.signup(user)?;
        let exclusion = json!({ "user_id": user, "email": format!("{user}@example.com"), "duration": "duration_6m", "reason": "self_initiated", "initiated_at": t.now_iso()? });
        t.post("/v1/exclusions", exclusion).expect(201)?;
    }
    // the subject's deposit past the due-diligence amount: an AML alert and case; the twin's is small
    let event = |user: &str, id: String, cents: i64| json!({ "transaction_id": id, "user_id": user, "event_type": "deposit", "amount_cents": cents, "currency": "USD", "payment_method": "card" });
    t.post("/v1/aml/event", event(&subject, unique("tx"), 250_000)).expect(202)?;
    t.post("/v1/aml/event", event(&twin, unique("tx"), 2_000)).expect(202)?;
    let alerts = env.admin("GET", &format!("/v1/admin/aml/alerts?user_id={subject}"), None);
    alerts.expect(200)?;
    ensure!(alerts.raw.contains(&subject), "the subject has no AML alert: {}", alerts.raw);
    let of_subject = erase(&t, &subject);
    of_subject.expect(202)?;
    let of_twin = erase(&t, &twin);
    of_twin.expect(202)?;
    // the same answer as the twin's, but for the seconds between the two players' requests
    ensure_eq!(undated(&of_subject.body), undated(&of_twin.body), "the answer reveals the AML case");
    for (a, b) in dates(&of_subject.body).iter().zip(dates(&of_twin.body)) {
        ensure!((a - b).abs() <= 5, "the answer reveals the AML case by its dates: {} vs {}", of_subject.raw, of_twin.raw);
    }
    let text = of_subject.raw.to_lowercase();
    for word in ["aml", "alert", "case", "filing", "suspicious"] {
        ensure!(!text.contains(word), "{word} in {}", of_subject.raw);
    }
    ensure!(lists(&of_subject.body, "held", "records_under_legal_obligation"), "{}", of_subject.raw);
    let exclusion = of_subject.body["held"].as_array().and_then(|h| h.iter().find(|c| c["class"] == "exclusions")).cloned().unwrap_or_default();
    ensure_eq!(exclusion["basis"], json!("gdpr_17_3_b_exclusion_in_force"));
    // the exclusion still bites
    ensure_eq!(t.get(&format!("/v1/exclusions/check?email={subject}@example.com")).body["is_excluded"], json!(true));
    Ok(())
}

pub fn a_restricted_player_is_hidden_from_operator_reads(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let (erased, kept) = (unique("u"), unique("u"));
    t.signup(&erased)?;
    t.signup(&kept)?;
    t.get(&format!("/v1/kyc/tier?user_id={erased}")).expect(200)?;
    t.get(&format!("/v1/sanctions/status?user_id={erased}")).expect(200)?;
    erase(&t, &erased).expect(202)?;
    t.get(&format!("/v1/kyc/tier?user_id={erased}")).expect_error(404, "user_not_found")?;
    // the sanctions status too, answered as for a player never seen: nothing says why (tipping-off)
    let hidden = t.get(&format!("/v1/sanctions/status?user_id={erased}"));
    hidden.expect_error(404, "user_not_found")?;
    let unknown = t.get(&format!("/v1/sanctions/status?user_id={}", unique("nobody")));
    unknown.expect_error(404, "user_not_found")?;
    ensure_eq!(hidden.body["message"], unknown.body["message"], "the hidden player's answer differs from an unknown one's");
    // the twin: a player nobody erased is read as before
    t.get(&format!("/v1/kyc/tier?user_id={kept}")).expect(200)?;
    t.get(&format!("/v1/sanctions/status?user_id={kept}")).expect(200)?;
    Ok(())
}

/// Issue #31: a restricted player's first screening is never handed back.
/// A repeat of the signup, with its `Idempotency-Key` or by its details, is
/// answered as a screening with other details (409 `already_screened`, as an
/// erased player's), not with the stored answer. The twin: an unrestricted
/// player's repeats still replay the first answer.
pub fn a_restricted_players_screening_is_never_replayed(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let (erased, kept) = (unique("u"), unique("u"));
    let mut firsts = Vec::new();
    for user in [&erased, &kept] {
        let (body, key) = (crate::client::identity(user, "Ann", "Lee", &format!("{user}@example.com")), unique("idem"));
        let first = t.post_with("/v1/sanctions/screen", body.clone(), &[("idempotency-key", &key)]);
        first.expect(201)?;
        // before any erasure, both repeats replay the first answer
        let keyed = t.post_with("/v1/sanctions/screen", body.clone(), &[("idempotency-key", &key)]);
        ensure!(keyed.status < 300 && keyed.str("screen_id") == first.str("screen_id"), "a keyed repeat did not replay: {}", keyed.raw);
        let plain = t.post("/v1/sanctions/screen", body.clone());
        plain.expect(200)?;
        ensure_eq!(plain.str("screen_id"), first.str("screen_id"), "a repeat by its details did not replay");
        firsts.push((body, key, first.str("screen_id").to_string()));
    }
    erase(&t, &erased).expect(202)?;
    let (body, key, screen_id) = &firsts[0];
    let keyed = t.post_with("/v1/sanctions/screen", body.clone(), &[("idempotency-key", key)]);
    keyed.expect_error(409, "already_screened")?;
    ensure!(!keyed.raw.contains(screen_id.as_str()), "the restricted player's screening was handed back: {}", keyed.raw);
    let plain = t.post("/v1/sanctions/screen", body.clone());
    plain.expect_error(409, "already_screened")?;
    ensure!(!plain.raw.contains(screen_id.as_str()), "the restricted player's screening was handed back: {}", plain.raw);
    // the twin: nobody erased this player; both repeats still replay its first answer
    let (body, key, screen_id) = &firsts[1];
    let keyed = t.post_with("/v1/sanctions/screen", body.clone(), &[("idempotency-key", key)]);
    ensure!(keyed.status < 300 && keyed.str("screen_id") == screen_id, "the twin's keyed repeat did not replay: {}", keyed.raw);
    let plain = t.post("/v1/sanctions/screen", body.clone());
    plain.expect(200)?;
    ensure_eq!(plain.str("screen_id"), screen_id.as_str(), "the twin's repeat by its details did not replay");
    Ok(())
}

/// Issue #48: every replay asks the restriction first. After an erasure
/// request restricted a player, a repeated AML report, deposit commit or
/// named withdrawal is 404 `user_not_found`, as for a player never seen,
/// never the stored answer; and the operator's alert list shows the player
/// nothing. The twin: a player nobody erased gets every first answer again.
pub fn a_restricted_players_reports_are_never_replayed(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let (erased, kept) = (unique("u"), unique("u"));
    let mut repeats = Vec::new();
    for user in [&erased, &kept] {
        t.signup(user)?;
        let deposit = json!({ "transaction_id": unique("dep"), "user_id": user, "amount_cents": 1_000, "currency": "USD" });
        let committed = t.post("/v1/limits/commit", deposit.clone());
        committed.expect(201)?;
        let cashout = json!({ "user_id": user, "email": format!("{user}@example.com"), "phone": crate::client::unique_phone(),
            "withdrawal_amount_cents": 500, "currency": "USD", "withdrawal_id": unique("wd") });
        let withdrawn = t.post("/v1/kyc/start", cashout.clone());
        ensure!(withdrawn.status < 300, "a withdrawal: {}", withdrawn.raw);
        let report = |event_type: &str, cents: i64| {
            json!({ "transaction_id": unique("tx"), "user_id": user, "event_type": event_type, "amount_cents": cents, "currency": "USD",
                "payment_method": "card" })
        };
        t.post("/v1/aml/event", report("deposit", 150_000)).expect(202)?;
        t.post("/v1/aml/event", report("wager", 3_000)).expect(202)?;
        let cash_out = report("withdrawal", 145_000);
        let alerted = t.post("/v1/aml/event", cash_out.clone());
        alerted.expect(202)?;
        ensure_eq!(alerted.str("outcome"), "hold_withdrawal");
        let own = t.get(&format!("/v1/aml/alerts?user_id={user}"));
        own.expect(200)?;
        ensure!(own.body["alerts"].as_array().is_some_and(|a| !a.is_empty()), "no alert to hide: {}", own.raw);
        repeats.push([("/v1/limits/commit", deposit, committed), ("/v1/kyc/start", cashout, withdrawn), ("/v1/aml/event", cash_out, alerted)]);
    }
    erase(&t, &erased).expect(202)?;
    for (user, sent) in [&erased, &kept].into_iter().zip(&repeats) {
        let hidden = user == &erased;
        for (path, body, first) in sent {
            let again = t.post(path, body.clone());
            if hidden {
                again.expect_error(404, "user_not_found")?;
                ensure!(!again.raw.contains(user.as_str()), "{path}: a restricted player's answer was handed back: {}", again.raw);
            } else {
                ensure!(again.status < 300, "{path}: the twin's repeat was refused: {}", again.raw);
                for id in ["aml_event_id", "transaction_id", "withdrawal_id"] {
                    ensure_eq!(again.body[id], first.body[id], format!("{path}: the twin's repeat is not the first answer ({id})"));
                }
            }
        }
        let own = t.get(&format!("/v1/aml/alerts?user_id={user}"));
        own.expect(200)?;
        let shown = own.body["alerts"].as_array().map_or(0, Vec::len);
        ensure_eq!(shown == 0, hidden, format!("alerts shown to the operator: {}", own.raw));
    }
    // the team still sees the restricted player's alerts: their case is decided
    let team = env.admin("GET", &format!("/v1/admin/aml/alerts?tenant_id={}&user_id={erased}", t.tenant_id), None);
    team.expect(200)?;
    ensure!(team.body["alerts"].as_array().is_some_and(|a| !a.is_empty()), "the team lost the restricted player's alerts: {}", team.raw);
    Ok(())
}

/// Issue #31: webhook payloads of the subject are expunged everywhere they
/// were sent. A shared exclusion's event goes to every tenant of the
/// environment; once the subject's tenant erases the subject, the other
/// tenant's delivery of it is gone (its redelivery is 404). The twin: the
/// delivery of another player's exclusion stays (redelivered, 202).
pub fn shared_exclusion_events_of_an_erased_player_are_expunged_everywhere(env: &Env) -> CaseResult {
    let a = env.sandbox()?;
    let b = env.sandbox()?;
    let receiver = Receiver::start(Behaviour::Accept)?;
    let (webhook_id, _) = crate::cases::webhooks::register(&b, &receiver.url)?;
    let (subject, twin) = (unique("u"), unique("u"));
    let mut exclusions = Vec::new();
    for user in [&subject, &twin] {
        a.signup(user)?;
        let exclusion = json!({ "user_id": user, "email": format!("{user}@example.com"), "duration": "duration_6m", "reason": "self_initiated", "initiated_at": a.now_iso()? });
        let r = a.post("/v1/exclusions", exclusion);
        r.expect(201)?;
        exclusions.push(r.str("exclusion_id").to_string());
    }
    let all = receiver.wait_until(crate::cases::webhooks::WAIT, "both exclusions at the other tenant", |all| {
        exclusions.iter().all(|id| all.iter().any(|d| d.json["data"]["exclusion_id"] == json!(id)))
    })?;
    let event_of =
        |id: &str| all.iter().find(|d| d.json["data"]["exclusion_id"] == json!(id)).map(|d| d.json["event_id"].clone()).unwrap_or_default();
    // a delivery still unanswered in the log is owed, and an erasure keeps it (minimised): wait until both are recorded sent
    let (subject_event, twin_event) = (event_of(&exclusions[0]), event_of(&exclusions[1]));
    let log = crate::cases::webhooks::deliveries_once(&b, &webhook_id, "exclusion.created", "both exclusions sent", |d| {
        [&subject_event, &twin_event].iter().all(|e| d.iter().any(|d| d["event_id"] == **e && d["status"] == json!("succeeded")))
    })?;
    let delivery_of = |event: Json| {
        log.iter()
            .find(|d| d["event_id"] == event)
            .and_then(|d| d["delivery_id"].as_str())
            .map(str::to_string)
            .ok_or_else(|| format!("no delivery of {event} in {log:?}"))
    };
    let (of_subject, of_twin) = (delivery_of(subject_event)?, delivery_of(twin_event)?);
    erase(&a, &subject).expect(202)?;
    b.post(&format!("/v1/webhooks/deliveries/{of_subject}/redeliver"), json!({})).expect(404)?;
    b.post(&format!("/v1/webhooks/deliveries/{of_twin}/redeliver"), json!({})).expect(202)?;
    let after = b.get(&format!("/v1/webhooks/{webhook_id}/deliveries?event=exclusion.created"));
    ensure!(!after.raw.contains(of_subject.as_str()), "the erased player's delivery is still logged: {}", after.raw);
    Ok(())
}

/// Issue #46: exclusion propagation survives erasure. A self-exclusion's
/// event still owed to another operator (its first attempts refused) is
/// sent after the player's erasure, minimised: the e-mail as the shared list
/// compares it (no `+tag`, no Gmail dots), the terms as they were. The twin:
/// the player's own tenant-scoped event (`limit.created`, pending too) goes
/// with the erasure as before, from the delivery log and the outbox.
pub fn a_pending_exclusion_event_is_still_sent_after_an_erasure_minimised(env: &Env) -> CaseResult {
    let a = env.sandbox()?;
    let b = env.sandbox()?;
    // three refusals a second apart: the erasure lands while both deliveries are pending
    let (at_a, at_b) = (Receiver::start(Behaviour::FailFirst(3))?, Receiver::start(Behaviour::FailFirst(3))?);
    let (hook_a, _) = crate::cases::webhooks::register(&a, &at_a.url)?;
    crate::cases::webhooks::register(&b, &at_b.url)?;
    let user = unique("u");
    a.signup(&user)?;
    let limit = json!({ "user_id": user, "limit_type": "limit_daily", "amount_cents": 10_000, "currency": "USD", "requested_at": a.now_iso()? });
    a.post("/v1/limits", limit).expect(201)?;
    let email = format!("{user}.lee+casino@gmail.com");
    let exclusion = json!({ "user_id": user, "email": email, "duration": "duration_6m", "reason": "self_initiated", "initiated_at": a.now_iso()? });
    let registered = a.post("/v1/exclusions", exclusion);
    registered.expect(201)?;
    let exclusion_id = json!(registered.str("exclusion_id"));
    let of_exclusion = |d: &crate::receiver::Received| d.json["data"]["exclusion_id"] == exclusion_id;
    at_b.wait_until(crate::cases::webhooks::WAIT, "the exclusion's first attempt at the other operator", |all| all.iter().any(of_exclusion))?;
    at_a.wait_until(crate::cases::webhooks::WAIT, "the limit's first attempt", |all| all.iter().any(|d| d.event() == "limit.created"))?;
    erase(&a, &user).expect(202)?;
    // the twin: the player's own event is gone with the erasure
    let log = a.get(&format!("/v1/webhooks/{hook_a}/deliveries?event=limit.created"));
    log.expect(200)?;
    ensure!(log.body["deliveries"].as_array().is_some_and(Vec::is_empty), "the erased player's limit event is still queued: {}", log.raw);
    let all = at_b.wait_until(crate::cases::webhooks::WAIT, "the exclusion delivered after the erasure", |all| {
        all.iter().any(|d| of_exclusion(d) && d.answered == 200)
    })?;
    let sent = all.iter().find(|d| of_exclusion(d) && d.answered == 200).ok_or("no delivery")?;
    ensure_eq!(sent.event(), "exclusion.created");
    let key = format!("{}lee@gmail.com", user.replace('.', ""));
    ensure_eq!(sent.json["data"]["user_email"], json!(key), "the exclusion was sent without its minimised e-mail");
    ensure_eq!(sent.json["data"]["duration"], json!("duration_6m"));
    ensure!(!String::from_utf8_lossy(&sent.body).contains("+casino"), "the erased address reached the other operator: {}", sent.json);
    Ok(())
}

/// Issue #46: an erased player can self-exclude again at once, at any
/// operator. After the operator's erasure request (the player restricted),
/// `POST /v1/exclusions` for the same id is 201 (it was 404) under the
/// player's held address, and the shared list bites at another operator,
/// where the same person self-excludes too. The twin: an id the operator
/// never had is still 404 `user_not_found`, and the player stays hidden from
/// the operator's other reads.
pub fn an_erased_player_can_self_exclude_again_at_once(env: &Env) -> CaseResult {
    let a = env.sandbox()?;
    let b = env.sandbox()?;
    let user = unique("u");
    a.signup(&user)?;
    erase(&a, &user).expect(202)?;
    let register = |t: &Tenant<'_>, user: &str, duration: &str| -> Result<crate::Resp, String> {
        Ok(t.post("/v1/exclusions", json!({ "user_id": user, "duration": duration, "reason": "self_initiated", "initiated_at": t.now_iso()? })))
    };
    let again = register(&a, &user, "duration_30d")?;
    again.expect(201)?;
    ensure!(again.str("exclusion_id").starts_with("exc_"), "{}", again.raw);
    let check = b.get(&format!("/v1/exclusions/check?email={user}@example.com"));
    check.expect(200)?;
    ensure_eq!(check.body["is_excluded"], json!(true), "the erased player's new exclusion does not bite at another operator");
    b.signup(&user)?;
    register(&b, &user, "duration_6m")?.expect(201)?;
    // the twin: an unknown id is not a player, and the restricted player is read as unknown elsewhere
    register(&a, &unique("nobody"), "duration_30d")?.expect_error(404, "user_not_found")?;
    a.get(&format!("/v1/kyc/tier?user_id={user}")).expect_error(404, "user_not_found")?;
    Ok(())
}

/// A restricted player (an erasure asked) is held under a legal obligation,
/// not processed: no re-screen reaches them, not the quarterly one, not one
/// asked for the player (404 `user_not_found`, as an unknown player's), not
/// one asked for the whole tenant. The twin: a player nobody erased is
/// re-screened each way.
pub fn a_restricted_player_is_never_rescreened(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let (erased, kept) = (unique("u"), unique("u"));
    t.signup(&erased)?;
    t.signup(&kept)?;
    let screenings = |user: &str| -> Result<usize, String> {
        let page = env.admin("GET", &format!("/v1/admin/decisions?tenant_id={}&user_id={user}&limit=1000", t.tenant_id), None);
        page.expect(200)?;
        Ok(page.body["decisions"].as_array().map_or(0, |all| all.iter().filter(|d| d["operation"] == json!("screening")).count()))
    };
    ensure_eq!((screenings(&erased)?, screenings(&kept)?), (1, 1), "each signup is one screening decision");
    erase(&t, &erased).expect(202)?;
    // a quarter and two days: the periodic re-screen is due for both (advancing runs the due work)
    t.advance(92 * 86_400)?;
    // two hosts on one store may both re-screen the twin in the same round: at least once, then
    let after_quarter = screenings(&kept)?;
    ensure!(after_quarter >= 2, "the twin was not re-screened after a quarter");
    ensure_eq!(screenings(&erased)?, 1, "a restricted player was re-screened by the periodic round");
    let one = env.admin("POST", "/v1/admin/sanctions/rescreen", Some(&json!({ "tenant_id": t.tenant_id, "user_id": erased })));
    one.expect_error(404, "user_not_found")?;
    let unknown = env.admin("POST", "/v1/admin/sanctions/rescreen", Some(&json!({ "tenant_id": t.tenant_id, "user_id": unique("nobody") })));
    unknown.expect_error(404, "user_not_found")?;
    let all = env.admin("POST", "/v1/admin/sanctions/rescreen", Some(&json!({ "tenant_id": t.tenant_id })));
    all.expect(200)?;
    ensure_eq!(all.int("rescreened"), 1, "the tenant-wide re-screen counted a restricted player");
    ensure_eq!(screenings(&erased)?, 1, "a restricted player was re-screened on demand");
    ensure!(screenings(&kept)? > after_quarter, "the tenant-wide re-screen missed the twin");
    Ok(())
}

/// A review case opened before an erasure restricted its player is still
/// decided: the team's single-step decision on an AML case closes it (it
/// answered 500, the player being hidden from the decision's user read). The
/// twin: the same decision on a player nobody erased; and the restricted
/// player stays hidden from the operator.
pub fn a_restricted_players_case_is_still_decided(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let (erased, kept) = (unique("u"), unique("u"));
    let mut cases = Vec::new();
    for user in [&erased, &kept] {
        t.signup(user)?;
        for method in ["card", "e_wallet"] {
            let event = json!({ "transaction_id": unique("tx"), "user_id": user, "event_type": "deposit", "amount_cents": 100_000,
                "currency": "USD", "payment_method": method });
            t.post("/v1/aml/event", event).expect(202)?;
        }
        let alerts = env.admin("GET", &format!("/v1/admin/aml/alerts?tenant_id={}&user_id={user}", t.tenant_id), None);
        alerts.expect(200)?;
        let case_id = alerts.body["alerts"][0]["case_id"].as_str().unwrap_or_default().to_string();
        ensure!(case_id.starts_with("amlcase_"), "no AML case for {user}: {}", alerts.raw);
        cases.push(case_id);
    }
    erase(&t, &erased).expect(202)?;
    for (user, case_id) in [&erased, &kept].into_iter().zip(&cases) {
        let decided = env.admin(
            "POST",
            &format!("/v1/admin/cases/{case_id}/proposal"),
            Some(&json!({ "outcome": "false_positive", "reason": "known source" })),
        );
        decided.expect(200)?;
        ensure_eq!(decided.str("status"), "closed", "{user}");
        ensure!(decided.header("x-decision-id").is_some_and(|d| !d.is_empty()), "the decision of {user}'s case is not logged");
        let file = env.admin("GET", &format!("/v1/admin/cases/{case_id}"), None);
        file.expect(200)?;
        ensure_eq!(file.str("status"), "closed", "{user}");
    }
    t.get(&format!("/v1/kyc/tier?user_id={erased}")).expect_error(404, "user_not_found")?;
    t.get(&format!("/v1/kyc/tier?user_id={kept}")).expect(200)?;
    Ok(())
}

/// A sanctions case and a KYC check opened before an erasure restricted the
/// player are still decided through the single-step routes (200, never 500),
/// while the operator's reads of the check hide it like the player (404
/// `kyc_check_not_found`). The twins are players nobody erased.
pub fn a_restricted_players_check_and_sanctions_case_are_still_decided(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let (erased, kept) = ((unique("u"), unique("u")), (unique("u"), unique("u")));
    let mut opened = Vec::new();
    for (screened, verified) in [&erased, &kept] {
        let hit = t.post("/v1/sanctions/screen", crate::client::identity(screened, "MaybeMo", "Lee", &format!("{screened}@example.com")));
        hit.expect(201)?;
        ensure!(hit.str("case_id").len() > 4, "no sanctions case for {screened}: {}", hit.raw);
        t.signup(verified)?;
        let started = t.post(
            "/v1/kyc/start",
            json!({ "user_id": verified, "email": "p@example.com", "phone": "+44 7700 900123", "withdrawal_amount_cents": 250_000, "currency": "USD" }),
        );
        started.expect(201)?;
        let check_id = started.str("kyc_check_id").to_string();
        let submitted = t.post(&format!("/v1/sandbox/kyc/{check_id}/submit"), json!({}));
        ensure_eq!(submitted.str("status"), "pending_review", submitted.raw);
        opened.push((hit.str("case_id").to_string(), check_id));
    }
    for user in [&erased.0, &erased.1] {
        erase(&t, user).expect(202)?;
    }
    for (name, (case_id, check_id)) in ["erased", "kept"].into_iter().zip(&opened) {
        let status = t.get(&format!("/v1/kyc/status?kyc_check_id={check_id}"));
        let token = t.post(&format!("/v1/kyc/{check_id}/token"), json!({}));
        if name == "erased" {
            status.expect_error(404, "kyc_check_not_found")?;
            token.expect_error(404, "kyc_check_not_found")?;
        } else {
            status.expect(200)?;
            ensure_eq!(status.str("status"), "pending_review");
        }
        let reviewed = env.admin(
            "POST",
            &format!("/v1/admin/sanctions/cases/{case_id}/review"),
            Some(&json!({ "decision": "dismiss", "reviewer": "analyst-7" })),
        );
        reviewed.expect(200)?;
        ensure!(reviewed.header("x-decision-id").is_some_and(|d| !d.is_empty()), "the {name} player's case decision is not logged");
        let approved = env.call(
            "POST",
            "/v1/kyc/manual-review",
            Some(&env.admin_sandbox),
            Some(&json!({ "kyc_check_id": check_id, "decision": "approve", "reviewer": "analyst-2" })),
        );
        approved.expect(200)?;
        ensure_eq!(approved.str("status"), "approved", "{name}");
    }
    t.get(&format!("/v1/kyc/tier?user_id={}", erased.1)).expect_error(404, "user_not_found")?;
    ensure_eq!(t.get(&format!("/v1/kyc/tier?user_id={}", kept.1)).str("verified_tier"), "tier_2");
    t.get(&format!("/v1/sanctions/status?user_id={}", erased.0)).expect_error(404, "user_not_found")?;
    ensure_eq!(t.get(&format!("/v1/sanctions/status?user_id={}", kept.0)).str("status"), "cleared");
    Ok(())
}

/// Issue #48: the team's free text about a player goes on the date their
/// records do. A comment holding an address and a passport number, on the
/// player's sanctions case, is gone from the case file once the held
/// erasure ends (the case itself, its decision and who made it, stay while
/// the law keeps them). The twin: the same comment on another tenant's
/// player, whose clock did not move, is still there.
pub fn the_teams_free_text_goes_with_the_players_records(env: &Env) -> CaseResult {
    let (t, other) = (env.sandbox()?, env.sandbox()?);
    let text = format!("lives at 12 Acacia Avenue; passport {}", unique("P"));
    let mut cases = Vec::new();
    for tenant in [&t, &other] {
        let user = unique("u");
        let hit = tenant.post("/v1/sanctions/screen", crate::client::identity(&user, "SanctionedSam", "Lee", &format!("{user}@example.com")));
        hit.expect(201)?;
        let case_id = hit.str("case_id").to_string();
        ensure!(!case_id.is_empty(), "no case: {}", hit.raw);
        env.admin("POST", &format!("/v1/admin/cases/{case_id}/comments"), Some(&json!({ "comment": text }))).expect(201)?;
        let file = env.admin("GET", &format!("/v1/admin/cases/{case_id}"), None);
        file.expect(200)?;
        ensure!(file.raw.contains(&text), "the comment is not on the case file: {}", file.raw);
        let review = json!({ "decision": "dismiss", "reviewer": "analyst-7" });
        env.admin("POST", &format!("/v1/admin/sanctions/cases/{case_id}/review"), Some(&review)).expect(200)?;
        cases.push((user, case_id));
    }
    let job = erase(&t, &cases[0].0);
    job.expect(202)?;
    ensure_eq!(job.str("state"), "held");
    let last = dates(&job.body).into_iter().max().ok_or_else(|| format!("no held date: {}", job.raw))?;
    let path = format!("/v1/erasures/{}", job.str("erasure_id"));
    let mut ahead = last - t.now()? + 86_400;
    while ahead > 0 {
        let step = ahead.min(10 * 365 * 86_400);
        t.advance(step)?;
        ahead -= step;
    }
    env.schedule_until("sandbox", "the held job's last date", || {
        let r = t.get(&path);
        r.expect(200)?;
        Ok(r.str("state") == "erased")
    })?;
    let (erased_file, kept_file) =
        (env.admin("GET", &format!("/v1/admin/cases/{}", cases[0].1), None), env.admin("GET", &format!("/v1/admin/cases/{}", cases[1].1), None));
    // the case stays, its decision and who made it: only the free text goes
    erased_file.expect(200)?;
    ensure!(!erased_file.raw.contains(&text), "the team's free text outlived the erasure: {}", erased_file.raw);
    ensure!(!erased_file.raw.contains("Acacia"), "the team's free text outlived the erasure: {}", erased_file.raw);
    kept_file.expect(200)?;
    ensure!(kept_file.raw.contains(&text), "the twin's comment is gone: {}", kept_file.raw);
    Ok(())
}

/// An erasure finds the player's stored answers by their exact id, whatever
/// its length: a 70-character id with `_` (a `LIKE` wildcard) is erased
/// (202; its keyed repeat is no longer replayed), while a player whose id
/// only extends it, or spells it in capitals, keeps their replay. (The edge
/// once answered 500 here: D1 refuses a `LIKE` pattern of a few dozen bytes.)
pub fn erasure_finds_the_player_by_the_exact_id(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let erased = format!("{}_{}", unique("u"), "x".repeat(60));
    let mut players = Vec::new();
    for user in [erased.clone(), format!("{erased}y"), erased.to_uppercase()] {
        let (body, key) = (crate::client::identity(&user, "Ann", "Lee", &format!("{}@example.com", unique("m"))), unique("idem"));
        let first = t.post_with("/v1/sanctions/screen", body.clone(), &[("idempotency-key", &key)]);
        first.expect(201)?;
        players.push((body, key, first.str("screen_id").to_string()));
    }
    erase(&t, &erased).expect(202)?;
    let (body, key, _) = &players[0];
    t.post_with("/v1/sanctions/screen", body.clone(), &[("idempotency-key", key)]).expect_error(409, "already_screened")?;
    for (body, key, screen_id) in &players[1..] {
        let again = t.post_with("/v1/sanctions/screen", body.clone(), &[("idempotency-key", key)]);
        ensure!(
            again.status < 300 && again.str("screen_id") == screen_id.as_str(),
            "a player whose id only resembles the erased one lost their replay: {}",
            again.raw
        );
    }
    Ok(())
}

/// A sandbox tenant's clock dates its players' erasure (issue #46): after
/// advancing it past a held job's last date, the sweep erases the job
/// (`held` → `erased`); a day before that date it is still held. The twin,
/// another sandbox tenant's job of the same day whose clock did not move,
/// stays held.
pub fn the_sandbox_clock_drives_a_held_erasure_to_its_end(env: &Env) -> CaseResult {
    let (t, other) = (env.sandbox()?, env.sandbox()?);
    let (user, twin) = (unique("u"), unique("u"));
    t.signup(&user)?;
    other.signup(&twin)?;
    let job = erase(&t, &user);
    job.expect(202)?;
    ensure_eq!(job.str("state"), "held");
    let twin_job = erase(&other, &twin);
    twin_job.expect(202)?;
    let last = dates(&job.body).into_iter().max().ok_or_else(|| format!("no held date: {}", job.raw))?;
    let path = format!("/v1/erasures/{}", job.str("erasure_id"));
    let state = |t: &Tenant<'_>, path: &str| -> Result<String, String> {
        let r = t.get(path);
        r.expect(200)?;
        Ok(r.str("state").to_string())
    };
    // to a day before the last date, in steps the clock takes
    let mut ahead = last - t.now()? - 86_400;
    while ahead > 0 {
        let step = ahead.min(10 * 365 * 86_400);
        t.advance(step)?;
        ahead -= step;
    }
    env.admin("POST", "/v1/admin/scheduler/run", Some(&json!({}))).expect(200)?;
    ensure_eq!(state(&t, &path)?, "held", "erased a day before its date");
    t.advance(2 * 86_400)?;
    env.schedule_until("sandbox", "the held job's last date", || Ok(state(&t, &path)? == "erased"))?;
    let done = t.get(&path);
    ensure!(done.body["held"].as_array().is_some_and(|h| h.is_empty()), "an erased job still holds: {}", done.raw);
    ensure_eq!(state(&other, &format!("/v1/erasures/{}", twin_job.str("erasure_id")))?, "held", "the twin's clock did not move");
    Ok(())
}
