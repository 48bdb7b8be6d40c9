use serde_json::{json, Value as Json};

use crate::client::{parse_time, unique, Tenant};
use crate::{ensure, ensure_eq, CaseResult, Env};

fn register(t: &Tenant<'_>, user: &str, email: &str, phone: Option<&str>, duration: &str) -> Result<crate::Resp, String> {
    let mut body = json!({ "user_id": user, "email": email, "duration": duration, "reason": "self_initiated", "initiated_at": t.now_iso()? });
    if let Some(phone) = phone {
        body["phone"] = json!(phone);
    }
    Ok(t.post("/v1/exclusions", body))
}

fn excluded_user(t: &Tenant<'_>) -> Result<(String, String), String> {
    let user = unique("u");
    t.signup(&user)?;
    Ok((user.clone(), format!("{}@example.com", unique("x"))))
}

fn check(t: &Tenant<'_>, query: &str) -> crate::Resp {
    t.get(&format!("/v1/exclusions/check?{query}"))
}

pub fn every_duration_registers_with_its_expiry(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let day = 86_400;
    for (duration, seconds, eligible) in [
        ("duration_24h", Some((day, day)), false),
        ("duration_7d", Some((7 * day, 7 * day)), false),
        ("duration_30d", Some((30 * day, 30 * day)), false),
        ("duration_6m", Some((181 * day, 184 * day)), true),
        ("duration_1y", Some((365 * day, 366 * day)), true),
        ("duration_permanent", None, true),
    ] {
        let (user, email) = excluded_user(&t)?;
        let r = register(&t, &user, &email, None, duration)?;
        r.expect(201)?;
        ensure_eq!(r.str("duration"), duration);
        ensure_eq!(r.str("user_id"), user.as_str());
        ensure_eq!(r.body["regulator_eligible"], json!(eligible), duration);
        ensure_eq!(r.body["regulator_propagated"], json!(false), "nothing is propagated before an export");
        let from = parse_time(r.str("effective_from"))?;
        match seconds {
            Some((min, max)) => {
                let until = parse_time(r.str("expires_at"))? - from;
                ensure!((min..=max).contains(&until), "{duration} lasts {until} seconds");
                ensure_eq!(r.body["is_permanent"], json!(false));
            }
            None => {
                ensure!(r.body["expires_at"].is_null(), "permanent has an expiry");
                ensure_eq!(r.body["is_permanent"], json!(true));
            }
        }
        ensure_eq!(check(&t, &format!("email={email}")).body["is_excluded"], json!(true), duration);
    }
    Ok(())
}

pub fn repeat_registration_is_idempotent(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let (user, email) = excluded_user(&t)?;
    let first = register(&t, &user, &email, None, "duration_30d")?;
    first.expect(201)?;
    let again = register(&t, &user, &email, None, "duration_30d")?;
    again.expect(200)?;
    // the same registration; a `bookmark` (hosts that read replicas) is a
    // read position, not part of it, and may differ or be absent on a repeat
    let without_bookmark = |body: &Json| {
        let mut body = body.clone();
        if let Some(fields) = body.as_object_mut() {
            fields.remove("bookmark");
        }
        body
    };
    ensure_eq!(without_bookmark(&again.body), without_bookmark(&first.body));
    Ok(())
}

pub fn exclusions_lengthen_but_never_shorten(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let (user, email) = excluded_user(&t)?;
    register(&t, &user, &email, None, "duration_30d")?.expect(201)?;
    register(&t, &user, &email, None, "duration_7d")?.expect_error(409, "already_excluded")?;
    let longer = register(&t, &user, &email, None, "duration_1y")?;
    longer.expect(201)?;
    let c = check(&t, &format!("email={email}"));
    ensure_eq!(c.str("exclusion_id"), longer.str("exclusion_id"));
    Ok(())
}

pub fn permanent_exclusion_is_irrevocable(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let (user, email) = excluded_user(&t)?;
    register(&t, &user, &email, None, "duration_permanent")?.expect(201)?;
    for shorter in ["duration_24h", "duration_1y"] {
        register(&t, &user, &email, None, shorter)?.expect_error(409, "already_excluded")?;
    }
    t.advance(3 * 366 * 86_400)?;
    let c = check(&t, &format!("email={email}"));
    ensure_eq!(c.body["is_excluded"], json!(true));
    ensure_eq!(c.body["is_permanent"], json!(true));
    ensure!(c.body["expires_at"].is_null(), "permanent expiry must be null");
    Ok(())
}

pub fn check_is_cross_tenant_and_normalised(env: &Env) -> CaseResult {
    let a = env.sandbox()?;
    let b = env.sandbox()?;
    let (user, email) = excluded_user(&a)?;
    let digits = format!("4477{:08}", std::process::id() as u64 * 7 % 100_000_000);
    let shown = format!("+{} {} {}", &digits[..2], &digits[2..6], &digits[6..]);
    let upper = email.to_uppercase();
    let reg = register(&a, &user, &format!("  {upper} "), Some(&shown), "duration_6m")?;
    reg.expect(201)?;
    for query in
        [format!("email={email}"), format!("email=%20{}", upper), format!("phone=00{digits}"), format!("phone=%2B{}-{}", &digits[..2], &digits[2..])]
    {
        let c = check(&b, &query);
        c.expect(200)?;
        ensure_eq!(c.body["is_excluded"], json!(true), query);
        ensure_eq!(c.str("exclusion_id"), reg.str("exclusion_id"));
        ensure_eq!(c.str("duration"), "duration_6m");
        ensure_eq!(c.str("source"), "operator");
    }
    let none = check(&b, &format!("email=other-{email}"));
    ensure_eq!(none.body, json!({ "is_excluded": false }), "a non-excluded check carries only is_excluded");
    check(&b, "").expect_error(400, "missing_fields")?;
    check(&b, "email=not-an-email").expect_error(400, "invalid_field")?;
    Ok(())
}

pub fn most_restrictive_exclusion_wins(env: &Env) -> CaseResult {
    let a = env.sandbox()?;
    let b = env.sandbox()?;
    let email = format!("{}@example.com", unique("shared"));
    let ua = unique("u");
    a.signup(&ua)?;
    let ub = unique("u");
    b.signup(&ub)?;
    register(&a, &ua, &email, None, "duration_7d")?.expect(201)?;
    let year = register(&b, &ub, &email, None, "duration_1y")?;
    ensure_eq!(check(&a, &format!("email={email}")).str("exclusion_id"), year.str("exclusion_id"), "latest expiry wins");
    let uc = unique("u");
    a.signup(&uc)?;
    let permanent = register(&a, &uc, &email, None, "duration_permanent")?;
    ensure_eq!(check(&b, &format!("email={email}")).str("exclusion_id"), permanent.str("exclusion_id"), "permanent wins");
    Ok(())
}

pub fn timed_exclusions_expire(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let (user, email) = excluded_user(&t)?;
    register(&t, &user, &email, None, "duration_24h")?.expect(201)?;
    t.advance(86_400 - 30)?;
    ensure_eq!(check(&t, &format!("email={email}")).body["is_excluded"], json!(true), "expired early");
    t.advance(30)?;
    ensure_eq!(check(&t, &format!("email={email}")).body["is_excluded"], json!(false), "did not expire");
    register(&t, &user, &email, None, "duration_24h")?.expect(201)?;
    Ok(())
}

pub fn other_tenants_see_an_exclusion_at_once_whatever_their_clock(env: &Env) -> CaseResult {
    let ahead = env.sandbox()?;
    let behind = env.sandbox()?;
    ahead.advance(10 * 86_400)?;
    let (user, email) = excluded_user(&ahead)?;
    register(&ahead, &user, &email, None, "duration_24h")?.expect(201)?;
    ensure_eq!(check(&behind, &format!("email={email}")).body["is_excluded"], json!(true));
    Ok(())
}

pub fn invalid_registrations_are_rejected(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let (user, email) = excluded_user(&t)?;
    register(&t, &user, &email, None, "duration_2y")?.expect_error(400, "unsupported_duration")?;
    let now = t.now()?;
    let base = json!({ "user_id": user, "email": email, "duration": "duration_7d", "reason": "self_initiated", "initiated_at": t.now_iso()? });
    let with = |field: &str, value: Json| {
        let mut b = base.clone();
        b[field] = value;
        b
    };
    t.post("/v1/exclusions", with("reason", json!("bored"))).expect_error(400, "unsupported_reason")?;
    t.post("/v1/exclusions", with("initiated_at", json!(crate::client::format_time(now - 3600)))).expect_error(400, "timestamp_out_of_range")?;
    t.post("/v1/exclusions", with("initiated_at", json!("yesterday"))).expect_error(400, "invalid_field")?;
    t.post("/v1/exclusions", with("phone", json!("call me"))).expect_error(400, "invalid_field")?;
    t.post("/v1/exclusions", with("user_id", json!(unique("nobody")))).expect_error(404, "user_not_found")?;
    t.post("/v1/exclusions", json!({ "user_id": user, "reason": "self_initiated" })).expect_error(400, "missing_fields")?;
    t.post("/v1/exclusions", base).expect(201)?;
    Ok(())
}

pub fn excluded_players_cannot_deposit(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let user = unique("u");
    t.signup(&user)?;
    let deposit = json!({ "user_id": user, "amount_cents": 500, "currency": "USD" });
    ensure_eq!(t.post("/v1/limits/check", deposit.clone()).body["allowed"], json!(true));
    register(&t, &user, &format!("{user}@example.com"), None, "duration_24h")?.expect(201)?;
    let r = t.post("/v1/limits/check", deposit);
    ensure_eq!(r.body["allowed"], json!(false));
    ensure_eq!(r.str("reason"), "self_excluded");
    t.post("/v1/limits/commit", json!({ "transaction_id": unique("tx"), "user_id": user, "amount_cents": 500, "currency": "USD" }))
        .expect_error(422, "self_excluded")?;
    Ok(())
}

fn page(t: &Tenant<'_>, cursor: Option<&str>, limit: i64) -> Result<(Vec<String>, Option<String>), String> {
    let path = match cursor {
        Some(c) => format!("/v1/exclusions/snapshot?limit={limit}&cursor={c}"),
        None => format!("/v1/exclusions/snapshot?limit={limit}"),
    };
    let r = t.get(&path);
    r.expect(200)?;
    let ids: Vec<String> =
        r.body["exclusions"].as_array().ok_or("no exclusions array")?.iter().filter_map(|e| e["exclusion_id"].as_str().map(String::from)).collect();
    ensure!(ids.len() as i64 <= limit, "page larger than limit");
    Ok((ids, r.body["next_cursor"].as_str().map(String::from)))
}

pub fn snapshot_pages_are_complete_and_stable(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let mut mine = Vec::new();
    for _ in 0..5 {
        let (user, email) = excluded_user(&t)?;
        mine.push(register(&t, &user, &email, None, "duration_30d")?.str("exclusion_id").to_string());
    }
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    let mut added_mid_way = None;
    for round in 0..10_000 {
        let (ids, next) = page(&t, cursor.as_deref(), 2)?;
        seen.extend(ids);
        if round == 0 {
            let (user, email) = excluded_user(&t)?;
            added_mid_way = Some(register(&t, &user, &email, None, "duration_30d")?.str("exclusion_id").to_string());
        }
        match next {
            Some(c) => cursor = Some(c),
            None => break,
        }
    }
    let mut unique_ids = seen.clone();
    unique_ids.sort();
    unique_ids.dedup();
    ensure_eq!(unique_ids.len(), seen.len(), "a row appeared twice across pages");
    for id in mine.iter().chain(added_mid_way.iter()) {
        ensure!(seen.contains(id), "{id} missing from the snapshot");
    }
    Ok(())
}

pub fn snapshot_rejects_bad_limits_and_cursors(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    for bad in ["0", "1001", "ten", "-1"] {
        t.get(&format!("/v1/exclusions/snapshot?limit={bad}")).expect_error(400, "invalid_limit")?;
    }
    t.get("/v1/exclusions/snapshot?cursor=!!!").expect_error(400, "invalid_cursor")?;
    t.get("/v1/exclusions/snapshot?cursor=bm90LWEtY3Vyc29y").expect_error(400, "invalid_cursor")?;
    let ok = t.get("/v1/exclusions/snapshot?limit=1000");
    ok.expect(200)?;
    ensure!(ok.body["exclusions"].is_array(), "no exclusions array");
    Ok(())
}

/// A list of many entries is read in one round trip and imported whole;
/// more entries than the host takes at once are refused, and nothing is kept.
pub fn regulator_import_takes_many_entries_and_refuses_too_many(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let tag = unique("kgc-bulk");
    let emails: Vec<String> = (0..100).map(|i| format!("{tag}-{i}@example.com")).collect();
    let entries: Vec<Json> = emails.iter().map(|e| json!({ "email": e })).collect();
    let r = env.admin("POST", "/v1/admin/exclusions/regulator-import", Some(&json!({ "entries": entries })));
    r.expect(200)?;
    ensure_eq!(r.int("imported"), 100);
    for email in [&emails[0], &emails[57], &emails[99]] {
        ensure_eq!(check(&t, &format!("email={email}")).body["is_excluded"], json!(true), email);
    }
    let too_many: Vec<Json> = (0..1001).map(|i| json!({ "email": format!("{tag}-many-{i}@example.com") })).collect();
    env.admin("POST", "/v1/admin/exclusions/regulator-import", Some(&json!({ "entries": too_many }))).expect_error(400, "invalid_field")?;
    ensure_eq!(check(&t, &format!("email={tag}-many-0@example.com")).body["is_excluded"], json!(false), "a refused import kept an entry");
    Ok(())
}

pub fn regulator_import_is_permanent_and_shared(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let email = format!("{}@example.com", unique("kgc"));
    let entries = json!({ "entries": [{ "email": email, "reference": "KGC-1" }] });
    t.post("/v1/admin/exclusions/regulator-import", entries.clone()).expect_error(403, "forbidden")?;
    let r = env.admin("POST", "/v1/admin/exclusions/regulator-import", Some(&entries));
    r.expect(200)?;
    ensure_eq!(r.int("imported"), 1);
    let again = env.admin("POST", "/v1/admin/exclusions/regulator-import", Some(&entries));
    ensure_eq!(again.int("skipped"), 1, "a repeat import must not duplicate");
    let c = check(&t, &format!("email={email}"));
    ensure_eq!(c.body["is_excluded"], json!(true));
    ensure_eq!(c.str("source"), "regulator_comprehensive");
    ensure_eq!(c.body["is_permanent"], json!(true));
    env.admin("POST", "/v1/admin/exclusions/regulator-import", Some(&json!({ "entries": [{ "reference": "no address" }] })))
        .expect_error(400, "invalid_field")?;
    Ok(())
}

/// Eight digits unique to this run (and to each call), for phone numbers of
/// real formats that never collide on the shared list.
fn eight_digits() -> String {
    let phone = crate::client::unique_phone();
    phone[phone.len() - 8..].to_string()
}

/// A number in national format is the number: a tenant of the jurisdiction
/// registers it as its operators' forms take it, and any form of it finds
/// the exclusion, from that tenant and from any other (E.164); the twin,
/// another number of the region, is not excluded.
pub fn a_national_number_is_its_international_form(env: &Env) -> CaseResult {
    let elsewhere = env.sandbox()?;
    for jurisdiction in ["GB", "SE", "DE", "NL", "CA-ON"] {
        let t = env.sandbox_in(jurisdiction)?;
        let d = eight_digits();
        // (national form, international form, the twin's national form), fictional numbers of real formats
        let (national, international, other) = match jurisdiction {
            "GB" => (format!("079{} {}", &d[..2], &d[2..]), format!("+44 79{d}"), format!("079{} {}", &d[..2], twin(&d[2..]))),
            "SE" => (format!("070-{} {} {}", &d[1..4], &d[4..6], &d[6..]), format!("+46 70 {}", &d[1..]), format!("070-{}", twin(&d[1..]))),
            "DE" => (format!("0151 {d}"), format!("0049 151 {d}"), format!("0151 {}", twin(&d))),
            "NL" => (format!("06 {d}"), format!("+31 6 {d}"), format!("06 {}", twin(&d))),
            _ => (format!("(416) 5{}-{}", &d[2..4], &d[4..]), format!("+1 416 5{}{}", &d[2..4], &d[4..]), format!("(416) 5{}", twin(&d[2..]))),
        };
        let (user, email) = excluded_user(&t)?;
        let reg = register(&t, &user, &email, Some(&national), "duration_permanent")?;
        reg.expect(201)?;
        for (who, form) in [(&t, &national), (&t, &international), (&elsewhere, &international)] {
            let c = check(who, &format!("phone={}", query_text(form)));
            c.expect(200)?;
            ensure_eq!(c.body["is_excluded"], json!(true), format!("{form} after {national} in {jurisdiction}"));
            ensure_eq!(c.str("exclusion_id"), reg.str("exclusion_id"));
        }
        let c = check(&t, &format!("phone={}", query_text(&other)));
        ensure_eq!(c.body, json!({ "is_excluded": false }), format!("{other} is another number than {national}"));
    }
    Ok(())
}

/// The same digits with the first one turned: another number of the same
/// length, and not one the next [`eight_digits`] of this run hands out.
fn twin(digits: &str) -> String {
    let mut twin: Vec<u8> = digits.bytes().collect();
    if let Some(first) = twin.first_mut() {
        *first = if *first == b'9' { b'1' } else { *first + 1 };
    }
    String::from_utf8(twin).unwrap_or_default()
}

/// Text as a query parameter's value: `+`, spaces and every non-ASCII byte encoded.
fn query_text(text: &str) -> String {
    text.bytes().map(|b| if b.is_ascii_alphanumeric() || b"-._@()".contains(&b) { (b as char).to_string() } else { format!("%{b:02X}") }).collect()
}

/// A number that cannot be read in the tenant's jurisdiction (or, in the
/// default one, without its country code) is refused with 422
/// `unreadable_phone`, at registration and at the check, never kept as
/// another key; the twins, the same number with its country code, are taken.
pub fn an_unreadable_number_is_422(env: &Env) -> CaseResult {
    let anywhere = env.sandbox()?;
    let gb = env.sandbox_in("GB")?;
    let (user, email) = excluded_user(&anywhere)?;
    register(&anywhere, &user, &email, Some("07700 900123"), "duration_24h")?.expect_error(422, "unreadable_phone")?;
    check(&anywhere, "phone=07700900123").expect_error(422, "unreadable_phone")?;
    let (gb_user, gb_email) = excluded_user(&gb)?;
    register(&gb, &gb_user, &gb_email, Some("+44 7700 9001234"), "duration_24h")?.expect_error(422, "unreadable_phone")?;
    check(&gb, "phone=%2B999%201234567").expect_error(422, "unreadable_phone")?;
    // the twins: read with the country code; what is no phone at all stays 400
    check(&anywhere, "phone=%2B44%207700%20900123").expect(200)?;
    check(&gb, "phone=07700%20900123").expect(200)?;
    check(&gb, "phone=call-me").expect_error(400, "invalid_field")?;
    let import = json!({ "entries": [{ "phone": "07700 900123" }] });
    env.admin("POST", "/v1/admin/exclusions/regulator-import", Some(&import)).expect_error(422, "unreadable_phone")?;
    Ok(())
}

/// A Gmail mailbox is one whatever its dots, `+tag` or Googlemail domain;
/// the twins: another Gmail mailbox, and a provider that does not fold dots
/// (`a.b@example.com` is not `ab@example.com`).
pub fn a_mailbox_is_found_by_its_providers_aliases(env: &Env) -> CaseResult {
    let a = env.sandbox()?;
    let b = env.sandbox()?;
    let name = unique("ann").replace(['-', '_'], "");
    let (user, _) = excluded_user(&a)?;
    let reg = register(&a, &user, &format!("ann.lee.{name}@gmail.com"), None, "duration_permanent")?;
    reg.expect(201)?;
    for alias in [format!("annlee{name}@gmail.com"), format!("ann.lee.{name}+casino@gmail.com"), format!("Ann.Lee.{name}@GoogleMail.com")] {
        let c = check(&b, &format!("email={}", query_text(&alias)));
        ensure_eq!(c.body["is_excluded"], json!(true), alias);
        ensure_eq!(c.str("exclusion_id"), reg.str("exclusion_id"));
    }
    ensure_eq!(check(&b, &format!("email=ann.lees.{name}%40gmail.com")).body, json!({ "is_excluded": false }), "another mailbox");
    let (other_user, _) = excluded_user(&a)?;
    register(&a, &other_user, &format!("a.b.{name}@example.com"), None, "duration_permanent")?.expect(201)?;
    ensure_eq!(check(&b, &format!("email=A.B.{name}%40Example.com")).body["is_excluded"], json!(true), "case is not the mailbox");
    ensure_eq!(check(&b, &format!("email=ab{name}%40example.com")).body, json!({ "is_excluded": false }), "dots count elsewhere");
    ensure_eq!(check(&b, &format!("email=a.b.{name}%2Bx%40example.com")).body, json!({ "is_excluded": false }), "tags count elsewhere");
    Ok(())
}

/// An internationalised domain is one in Unicode and in punycode (IDNA,
/// UTS #46), whichever was registered; the twin, the domain without its
/// accent, is another.
pub fn an_idn_domain_is_one_in_unicode_and_punycode(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let name = unique("user");
    let (user, _) = excluded_user(&t)?;
    let reg = register(&t, &user, &format!("{name}@bücher.example"), None, "duration_permanent")?;
    reg.expect(201)?;
    let c = check(&t, &format!("email={name}%40xn--bcher-kva.example"));
    ensure_eq!(c.body["is_excluded"], json!(true), "punycode after Unicode");
    ensure_eq!(c.str("exclusion_id"), reg.str("exclusion_id"));
    ensure_eq!(check(&t, &format!("email={name}%40bucher.example")).body, json!({ "is_excluded": false }), "another domain");
    let other = unique("user");
    let (other_user, _) = excluded_user(&t)?;
    register(&t, &other_user, &format!("{other}@xn--bcher-kva.example"), None, "duration_permanent")?.expect(201)?;
    let c = check(&t, &format!("email={}", query_text(&format!("{other}@BÜCHER.example"))));
    ensure_eq!(c.body["is_excluded"], json!(true), "Unicode after punycode");
    Ok(())
}
