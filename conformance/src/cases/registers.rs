//! National self-exclusion registers (issue 47): a tenant's registers are
//! configured by the environment's admin, and `POST /v1/exclusions/check`
//! asks the shared register and each register configured for the check's
//! purpose, against the local stubs of `crate::registers`. Each register's
//! statuses, its wire shape, the identity refused before any call, every
//! kind of outage under both policies, the evidence and the deposit gate;
//! each refusal with its good twin beside it.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::{json, Value as Json};

use crate::client::{parse_time, saw_secret, unique, unique_phone, Tenant};
use crate::receiver::{Behaviour, Receiver};
use crate::registers::{
    self, cpr_forms, personnummer, personnummer_forms, refused_url, Cruks, Exclusion, Fault, Gamstop, Rofus, RofusStatus, Seen, Spelpaus, Stub,
};
use crate::{ensure, ensure_eq, CaseResult, Env, Resp};

/// A client certificate and its key for CRUKS's credentials (self-signed, P-256, made for these cases only).
const CERTIFICATE: &str = include_str!("../../data/registers/cruks-client.cert.pem");
const PRIVATE_KEY: &str = include_str!("../../data/registers/cruks-client.key.pem");

/// The check answers within its budget of 2 s, plus its own work: a case allows this much.
const WITHIN_BUDGET: Duration = Duration::from_secs(3);

const REGISTERS: [&str; 4] = ["spelpaus", "gamstop", "rofus", "cruks"];
const STATUSES: [&str; 4] = ["excluded", "not_excluded", "previously_excluded", "unavailable"];
const ALL_PURPOSES: [&str; 4] = ["registration", "login", "deposit", "marketing"];
const GAMSTOP_FIELDS: [&str; 6] = ["first_name", "last_name", "date_of_birth", "email", "postcode", "phone"];

static NULL: Json = Json::Null;

// ---------------------------------------------------------------- players

/// A person with every identity field a register may need, all fresh.
struct Player {
    user: String,
    first: String,
    last: String,
    dob: String,
    email: String,
    phone: String,
    postcode: String,
    personnummer: String,
    cpr: String,
    bsn: String,
    birth_place: String,
}

/// Letters only, different for each player of the run (GAMSTOP matches by name and date of birth).
fn fresh_name(base: &str) -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    const LETTERS: &[u8] = b"bcdfghkm";
    let mut n = u64::from(std::process::id()).wrapping_mul(1_000).wrapping_add(NEXT.fetch_add(1, Ordering::Relaxed));
    let mut name = base.to_string();
    for _ in 0..8 {
        name.push(char::from(LETTERS[usize::try_from(n % 8).unwrap_or(0)]));
        n /= 8;
    }
    name
}

fn player() -> Player {
    // one date of birth, which the personnummer and the CPR number carry too
    let born = registers::fresh_born();
    let p = Player {
        user: unique("reg"),
        first: fresh_name("Ann"),
        last: "Lindqvist".into(),
        dob: born.date_of_birth,
        email: format!("{}@example.com", unique("reg")),
        phone: unique_phone(),
        postcode: "SW1A 1AA".into(),
        personnummer: born.personnummer,
        cpr: born.cpr,
        bsn: registers::fresh_bsn(),
        birth_place: "Utrecht".into(),
    };
    registers::saw_national_id(&personnummer_forms(&p.personnummer));
    registers::saw_national_id(&cpr_forms(&p.cpr));
    registers::saw_national_id(std::slice::from_ref(&p.bsn));
    p
}

impl Player {
    fn identity(&self) -> Json {
        json!({
            "first_name": self.first, "last_name": self.last, "date_of_birth": self.dob, "email": self.email, "phone": self.phone,
            "postcode": self.postcode, "personnummer": self.personnummer, "cpr": self.cpr, "bsn": self.bsn, "birth_place": self.birth_place,
        })
    }
    /// Only these identity fields.
    fn only(&self, fields: &[&str]) -> Json {
        let all = self.identity();
        Json::Object(fields.iter().map(|f| ((*f).to_string(), all[*f].clone())).collect())
    }
    fn gamstop_identity(&self) -> Json {
        self.only(&GAMSTOP_FIELDS)
    }
    /// Every form in which this player's national identifiers may be written.
    fn identifier_forms(&self) -> Vec<String> {
        let mut forms = personnummer_forms(&self.personnummer);
        forms.extend(cpr_forms(&self.cpr));
        forms.push(self.bsn.clone());
        forms
    }
}

fn dashed_personnummer(twelve: &str) -> String {
    format!("{}-{}", &twelve[..8], &twelve[8..])
}

fn dashed_cpr(ten: &str) -> String {
    format!("{}-{}", &ten[..6], &ten[6..])
}

/// The same number with its last digit changed: a wrong check digit (personnummer) or a failed 11-test (BSN).
fn last_digit_changed(number: &str) -> String {
    let (head, last) = number.split_at(number.len() - 1);
    let digit = last.bytes().next().map_or(0, |b| b.wrapping_sub(b'0'));
    format!("{head}{}", (digit + 1) % 10)
}

// ---------------------------------------------------------------- configuration

fn registers_path(t: &Tenant<'_>) -> String {
    format!("/v1/admin/tenants/{}/registers", t.tenant_id)
}

fn configure(env: &Env, t: &Tenant<'_>, entries: &[Json]) -> Result<Resp, String> {
    let r = env.admin_sandbox("PUT", &registers_path(t), Some(&json!({ "registers": entries })));
    r.expect(200).map_err(|e| format!("configuring {}: {e}", Json::Array(entries.to_vec())))?;
    Ok(r)
}

fn spelpaus_entry(sp: &Spelpaus, purposes: &[&str], on_outage: &str) -> Json {
    json!({ "register": "spelpaus", "base_url": sp.url, "credentials": { "actor_id": sp.actor_id, "api_key": sp.api_key },
        "purposes": purposes, "on_outage": on_outage })
}

fn gamstop_entry(gs: &Gamstop, purposes: &[&str], on_outage: &str) -> Json {
    json!({ "register": "gamstop", "base_url": gs.url, "credentials": { "api_key": gs.api_key }, "purposes": purposes, "on_outage": on_outage })
}

fn rofus_entry(ro: &Rofus, purposes: &[&str], on_outage: &str) -> Json {
    json!({ "register": "rofus", "base_url": ro.url, "credentials": { "operator_id": ro.operator_id, "api_key": ro.api_key },
        "purposes": purposes, "on_outage": on_outage })
}

fn cruks_credentials() -> Json {
    // the key's full lines join the run's secrets, which never reach the server's log
    for line in PRIVATE_KEY.lines().filter(|l| l.len() >= 40) {
        saw_secret(line);
    }
    json!({ "client_certificate_pem": CERTIFICATE, "client_key_pem": PRIVATE_KEY })
}

fn cruks_entry(cr: &Cruks, purposes: &[&str], on_outage: &str) -> Json {
    json!({ "register": "cruks", "base_url": cr.url, "credentials": cruks_credentials(), "purposes": purposes, "on_outage": on_outage })
}

/// The four stubs of one case.
struct Four {
    sp: Spelpaus,
    gs: Gamstop,
    ro: Rofus,
    cr: Cruks,
}

fn four() -> Result<Four, String> {
    Ok(Four {
        sp: Spelpaus::start(&unique("casino"), &unique("spelpaus-key"))?,
        gs: Gamstop::start(&unique("gamstop-key"))?,
        ro: Rofus::start(&unique("operator"), &unique("rofus-key"))?,
        cr: Cruks::start()?,
    })
}

impl Four {
    /// The four entries, in [`REGISTERS`]' order, each with its policy.
    fn entries(&self, policies: [&str; 4], purposes: &[&str]) -> Vec<Json> {
        vec![
            spelpaus_entry(&self.sp, purposes, policies[0]),
            gamstop_entry(&self.gs, purposes, policies[1]),
            rofus_entry(&self.ro, purposes, policies[2]),
            cruks_entry(&self.cr, purposes, policies[3]),
        ]
    }
    /// The stubs, in [`REGISTERS`]' order.
    fn stubs(&self) -> [&Stub; 4] {
        [&*self.sp, &*self.gs, &*self.ro, &*self.cr]
    }
    fn set_fault(&self, fault: Fault) {
        self.stubs().iter().for_each(|s| s.set_fault(fault));
    }
}

// ---------------------------------------------------------------- checks

fn check(t: &Tenant<'_>, user: &str, purpose: &str, identity: Json) -> Resp {
    t.post("/v1/exclusions/check", json!({ "user_id": user, "purpose": purpose, "identity": identity }))
}

/// A check that answers 200 with a well-formed answer.
fn checked(t: &Tenant<'_>, p: &Player, purpose: &str, identity: Json) -> Result<Resp, String> {
    let r = check(t, &p.user, purpose, identity);
    r.expect(200).map_err(|e| format!("the {purpose} check: {e}"))?;
    well_formed(&r)?;
    Ok(r)
}

/// The answer's shape, and the flags as they follow from its rows: `shared`
/// first, each register once, a reference exactly where a register answered,
/// `excluded` when a row is, `marketing_allowed` unless something flags it.
fn well_formed(r: &Resp) -> CaseResult {
    ensure!(r.str("check_id").starts_with("rchk_"), "check_id is not an rchk_ id: {}", r.raw);
    let excluded = r.body["excluded"].as_bool().ok_or(format!("excluded is not a boolean: {}", r.raw))?;
    let marketing = r.body["marketing_allowed"].as_bool().ok_or(format!("marketing_allowed is not a boolean: {}", r.raw))?;
    let rows = r.body["registers"].as_array().ok_or(format!("no registers array: {}", r.raw))?;
    ensure!(rows.first().is_some_and(|row| row["register"] == json!("shared")), "the shared register is not first: {}", r.raw);
    let mut names = BTreeSet::new();
    for row in rows {
        let name = row["register"].as_str().unwrap_or("");
        let status = row["status"].as_str().unwrap_or("");
        ensure!(name == "shared" || REGISTERS.contains(&name), "an unknown register {name:?}: {}", r.raw);
        ensure!(names.insert(name), "{name} is listed twice: {}", r.raw);
        ensure!(STATUSES.contains(&status), "{name} has the status {status:?}: {}", r.raw);
        parse_time(row["checked_at"].as_str().unwrap_or(""))?;
        if name == "shared" || status == "unavailable" {
            ensure!(row["reference"].is_null(), "{name} ({status}) has a reference: {}", r.raw);
        } else {
            ensure!(row["reference"].as_str().is_some_and(|s| !s.is_empty()), "{name} answered without its reference: {}", r.raw);
        }
    }
    let any = |status: &str| rows.iter().any(|row| row["status"] == json!(status));
    if any("excluded") {
        ensure!(excluded, "a register excluded the player, the check did not: {}", r.raw);
    }
    let flagged = excluded || any("previously_excluded") || any("unavailable");
    ensure_eq!(marketing, !flagged, format!("marketing_allowed against the rows: {}", r.raw));
    Ok(())
}

fn row<'a>(r: &'a Resp, register: &str) -> &'a Json {
    r.body["registers"].as_array().and_then(|rows| rows.iter().find(|row| row["register"] == json!(register))).unwrap_or(&NULL)
}

fn status<'a>(r: &'a Resp, register: &str) -> &'a str {
    row(r, register)["status"].as_str().unwrap_or("(not asked)")
}

/// The registers an answer lists.
fn asked(r: &Resp) -> BTreeSet<String> {
    r.body["registers"]
        .as_array()
        .map(|rows| rows.iter().filter_map(|row| row["register"].as_str().map(str::to_string)).collect())
        .unwrap_or_default()
}

fn names(list: &[&str]) -> BTreeSet<String> {
    list.iter().map(|s| (*s).to_string()).collect()
}

fn flags(r: &Resp) -> (Json, Json) {
    (r.body["excluded"].clone(), r.body["marketing_allowed"].clone())
}

fn last(seen: &[Seen], what: &str) -> Result<Seen, String> {
    seen.last().cloned().ok_or(format!("{what} received nothing"))
}

/// The reference an answer's row gives, against the one the stub answered.
fn same_reference(r: &Resp, register: &str, seen: &Seen) -> CaseResult {
    ensure!(seen.reference.is_some(), "the stub gave {register} no reference: {seen:?}");
    ensure_eq!(row(r, register)["reference"].as_str(), seen.reference.as_deref(), format!("{register}'s reference: {}", r.raw));
    Ok(())
}

fn distinct(ids: &[String], what: &str) -> CaseResult {
    let set: BTreeSet<&String> = ids.iter().collect();
    ensure!(ids.iter().all(|id| !id.is_empty()), "{what}: an empty request id in {ids:?}");
    ensure_eq!(set.len(), ids.len(), format!("{what}: a request id was sent twice: {ids:?}"));
    Ok(())
}

fn body_request_ids(seen: &[Seen]) -> Vec<String> {
    seen.iter().map(|s| s.json()["requestId"].as_str().unwrap_or("").to_string()).collect()
}

// ---------------------------------------------------------------- configuration cases

/// A PUT configures a tenant's registers and answers them without a
/// credential (`credentials_set`); GET answers the same; `on_outage`
/// defaults to `refuse`; a PUT replaces the whole set and `[]` clears it.
pub fn register_configuration_is_replaced_whole_and_never_shows_a_credential(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let path = registers_path(&t);
    let empty = env.admin_sandbox("GET", &path, None);
    empty.expect(200)?;
    ensure_eq!(empty.str("tenant_id"), t.tenant_id.as_str());
    ensure_eq!(empty.body["registers"], json!([]), "a tenant configured with nothing");
    let (actor, operator) = (unique("casino"), unique("operator"));
    let keys = [unique("spelpaus-key"), unique("gamstop-key"), unique("rofus-key")];
    let base = "http://127.0.0.1:9";
    let entries = [
        // on_outage left out: refuse
        json!({ "register": "spelpaus", "base_url": format!("{base}/spelpaus"), "credentials": { "actor_id": actor, "api_key": keys[0] },
            "purposes": ["registration", "login"] }),
        json!({ "register": "gamstop", "base_url": format!("{base}/v2"), "credentials": { "api_key": keys[1] }, "purposes": ["login"],
            "on_outage": "allow_flagged" }),
        json!({ "register": "rofus", "base_url": format!("{base}/rofus"), "credentials": { "operator_id": operator, "api_key": keys[2] },
            "purposes": ALL_PURPOSES, "on_outage": "refuse" }),
        json!({ "register": "cruks", "base_url": format!("{base}/cruks"), "credentials": cruks_credentials(), "purposes": ["marketing"],
            "on_outage": "allow_flagged" }),
    ];
    let shown: [(&str, String, &[&str], &str); 4] = [
        ("spelpaus", format!("{base}/spelpaus"), &["registration", "login"], "refuse"),
        ("gamstop", format!("{base}/v2"), &["login"], "allow_flagged"),
        ("rofus", format!("{base}/rofus"), &ALL_PURPOSES, "refuse"),
        ("cruks", format!("{base}/cruks"), &["marketing"], "allow_flagged"),
    ];
    let put = configure(env, &t, &entries)?;
    ensure_eq!(put.str("tenant_id"), t.tenant_id.as_str());
    shown_as(&put, &shown)?;
    let got = env.admin_sandbox("GET", &path, None);
    got.expect(200)?;
    shown_as(&got, &shown)?;
    let mut credentials: Vec<String> = keys.to_vec();
    credentials.extend([actor, operator]);
    credentials.extend(PRIVATE_KEY.lines().chain(CERTIFICATE.lines()).filter(|l| l.len() >= 40).map(str::to_string));
    for answer in [&put, &got] {
        for value in &credentials {
            ensure!(!answer.raw.contains(value.as_str()), "a credential is shown: {value:?} in {}", answer.raw);
        }
        ensure!(!answer.raw.contains("PRIVATE KEY") && !answer.raw.contains("CERTIFICATE"), "a PEM is shown: {}", answer.raw);
    }
    // a PUT replaces the whole set
    let only = json!({ "register": "gamstop", "base_url": format!("{base}/v2"), "credentials": { "api_key": unique("gamstop-key") },
        "purposes": ["registration"] });
    let replaced: [(&str, String, &[&str], &str); 1] = [("gamstop", format!("{base}/v2"), &["registration"], "refuse")];
    shown_as(&configure(env, &t, &[only])?, &replaced)?;
    let got = env.admin_sandbox("GET", &path, None);
    got.expect(200)?;
    shown_as(&got, &replaced)?;
    // and [] clears it
    ensure_eq!(configure(env, &t, &[])?.body["registers"], json!([]));
    let got = env.admin_sandbox("GET", &path, None);
    got.expect(200)?;
    ensure_eq!(got.body["registers"], json!([]), "a cleared set");
    Ok(())
}

/// The registers a configuration answer lists: exactly these, each with its
/// five fields and no other (no `credentials`), in any order.
fn shown_as(r: &Resp, expected: &[(&str, String, &[&str], &str)]) -> CaseResult {
    let rows = r.body["registers"].as_array().ok_or(format!("no registers array: {}", r.raw))?;
    ensure_eq!(rows.len(), expected.len(), r.raw.clone());
    for (name, url, purposes, on_outage) in expected {
        let row = rows.iter().find(|row| row["register"] == json!(name)).ok_or(format!("{name} is not listed: {}", r.raw))?;
        let fields: BTreeSet<&str> = row.as_object().map(|o| o.keys().map(String::as_str).collect()).unwrap_or_default();
        ensure_eq!(fields, BTreeSet::from(["base_url", "credentials_set", "on_outage", "purposes", "register"]), format!("{name}'s fields"));
        ensure_eq!(row["base_url"], json!(url));
        let listed: BTreeSet<&str> = row["purposes"].as_array().map(|p| p.iter().filter_map(Json::as_str).collect()).unwrap_or_default();
        ensure_eq!(listed, purposes.iter().copied().collect::<BTreeSet<&str>>(), format!("{name}'s purposes"));
        ensure_eq!(row["on_outage"], json!(on_outage), format!("{name}'s on_outage"));
        ensure_eq!(row["credentials_set"], json!(true));
    }
    Ok(())
}

/// Every refusal of the contract, each leaving the configuration as it was;
/// an operator key and an unknown tenant are refused as on the other admin
/// routes; a production tenant takes only public https URLs.
pub fn a_bad_register_configuration_is_refused_and_changes_nothing(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let path = registers_path(&t);
    let good = json!({ "register": "gamstop", "base_url": "http://127.0.0.1:9/v2", "credentials": { "api_key": unique("gamstop-key") },
        "purposes": ["login"] });
    configure(env, &t, std::slice::from_ref(&good))?;
    let before = env.admin_sandbox("GET", &path, None);
    before.expect(200)?;
    let with = |field: &str, value: Json| {
        let mut entry = good.clone();
        entry[field] = value;
        entry
    };
    let without = |entry: &Json, credential: &str| {
        let mut entry = entry.clone();
        if let Some(credentials) = entry["credentials"].as_object_mut() {
            credentials.remove(credential);
        }
        entry
    };
    let spelpaus = json!({ "register": "spelpaus", "base_url": "http://127.0.0.1:9", "credentials": { "actor_id": "casino-test",
        "api_key": unique("spelpaus-key") }, "purposes": ["login"] });
    let rofus = json!({ "register": "rofus", "base_url": "http://127.0.0.1:9/rofus", "credentials": { "operator_id": unique("operator"),
        "api_key": unique("rofus-key") }, "purposes": ["login"] });
    let cruks = json!({ "register": "cruks", "base_url": "http://127.0.0.1:9/cruks", "credentials": cruks_credentials(), "purposes": ["login"] });
    let refusals: Vec<(Json, u16, &str, &str)> = vec![
        (json!({}), 400, "missing_fields", "no registers field"),
        (json!({ "registers": [with("register", json!("oasis"))] }), 400, "invalid_field", "an unknown register"),
        (json!({ "registers": [with("purposes", json!(["login", "withdrawal"]))] }), 400, "invalid_field", "an unknown purpose"),
        (json!({ "registers": [with("on_outage", json!("ignore"))] }), 400, "invalid_field", "an unknown on_outage"),
        (json!({ "registers": [with("credentials", json!({}))] }), 400, "missing_fields", "GAMSTOP without its api_key"),
        (json!({ "registers": [without(&spelpaus, "api_key")] }), 400, "missing_fields", "Spelpaus without its api_key"),
        (json!({ "registers": [without(&spelpaus, "actor_id")] }), 400, "missing_fields", "Spelpaus without its actor_id"),
        (json!({ "registers": [without(&rofus, "operator_id")] }), 400, "missing_fields", "ROFUS without its operator_id"),
        (json!({ "registers": [without(&rofus, "api_key")] }), 400, "missing_fields", "ROFUS without its api_key"),
        (json!({ "registers": [without(&cruks, "client_key_pem")] }), 400, "missing_fields", "CRUKS without its key"),
        (json!({ "registers": [without(&cruks, "client_certificate_pem")] }), 400, "missing_fields", "CRUKS without its certificate"),
        (json!({ "registers": [good.clone(), with("purposes", json!(["registration"]))] }), 400, "invalid_field", "GAMSTOP twice"),
        (json!({ "registers": [with("base_url", json!("not a url"))] }), 400, "invalid_url", "a base_url that is no URL"),
    ];
    for (body, status, code, what) in &refusals {
        env.admin_sandbox("PUT", &path, Some(body)).expect_error(*status, code).map_err(|e| format!("{what}: {e}"))?;
        let now = env.admin_sandbox("GET", &path, None);
        ensure_eq!(now.body, before.body, format!("{what} changed the configuration"));
    }
    // the twin: each register, over http on loopback, in a sandbox tenant
    configure(env, &t, &[spelpaus.clone(), good.clone(), rofus, cruks])?;
    // an operator key is not an admin key
    let body = json!({ "registers": [good.clone()] });
    env.call("PUT", &path, Some(&t.key), Some(&body)).expect_error(403, "forbidden")?;
    env.call("GET", &path, Some(&t.key), None).expect_error(403, "forbidden")?;
    // an unknown tenant
    let nowhere = format!("/v1/admin/tenants/{}/registers", unique("ten_unknown"));
    env.admin_sandbox("PUT", &nowhere, Some(&body)).expect_error(404, "tenant_not_found")?;
    env.admin_sandbox("GET", &nowhere, None).expect_error(404, "tenant_not_found")?;
    // production: https to a public address only
    let p = env.tenant_with("production", 1000)?;
    let production = registers_path(&p);
    let at = |url: &str| json!({ "registers": [{ "register": "gamstop", "base_url": url, "credentials": { "api_key": unique("gamstop-key") }, "purposes": ["login"] }] });
    for url in [
        "http://registers.example.com/gamstop/v2",
        "http://127.0.0.1:9/v2",
        "https://127.0.0.1:9/v2",
        "https://localhost/v2",
        "https://[::1]/v2",
        "https://10.0.0.5/v2",
        "https://192.168.1.10/v2",
        "https://169.254.169.254/v2",
    ] {
        env.admin_production("PUT", &production, Some(&at(url))).expect_error(400, "invalid_url").map_err(|e| format!("{url}: {e}"))?;
    }
    env.admin_production("PUT", &production, Some(&at("https://registers.example.com/gamstop/v2"))).expect(200)?;
    let shown = env.admin_production("GET", &production, None);
    shown.expect(200)?;
    ensure_eq!(shown.body["registers"][0]["base_url"], json!("https://registers.example.com/gamstop/v2"));
    // the sandbox's admin key does not reach a production tenant
    env.admin_sandbox("PUT", &production, Some(&at("https://registers.example.com/gamstop/v2"))).expect_error(404, "tenant_not_found")?;
    env.admin_production("PUT", &production, Some(&json!({ "registers": [] }))).expect(200)?;
    Ok(())
}

// ---------------------------------------------------------------- Spelpaus

/// Spelpaus is asked with the actor's key in `authorization` and the
/// personnummer as 12 digits (a dashed one too); `isBlocked` true is
/// excluded, false not; the reference is its `responseId`; every call has its own `requestId`.
pub fn spelpaus_blocked_is_excluded_and_unblocked_is_not(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let sp = Spelpaus::start(&unique("casino"), &unique("spelpaus-key"))?;
    configure(env, &t, &[spelpaus_entry(&sp, &ALL_PURPOSES, "refuse")])?;
    let (blocked, clear) = (player(), player());
    sp.block(&blocked.personnummer);
    let r = checked(&t, &blocked, "login", blocked.only(&["personnummer"]))?;
    ensure_eq!(asked(&r), names(&["shared", "spelpaus"]));
    ensure_eq!(status(&r, "spelpaus"), "excluded");
    ensure_eq!(status(&r, "shared"), "not_excluded");
    ensure_eq!(flags(&r), (json!(true), json!(false)));
    let seen = last(&sp.requests_to(&sp.login_path()), "blocking-info")?;
    ensure_eq!(seen.method.as_str(), "POST");
    ensure_eq!(seen.header("authorization"), sp.api_key.as_str(), "the key goes in authorization as it is");
    ensure!(seen.header("content-type").starts_with("application/json"), "content-type {:?}", seen.header("content-type"));
    ensure_eq!(seen.json()["subjectId"], json!(blocked.personnummer));
    ensure_eq!(seen.answered, Some(200));
    same_reference(&r, "spelpaus", &seen)?;
    // the twin: a person not blocked, given with the dash, is asked as 12 digits
    let r = checked(&t, &clear, "registration", json!({ "personnummer": dashed_personnummer(&clear.personnummer) }))?;
    ensure_eq!(status(&r, "spelpaus"), "not_excluded");
    ensure_eq!(flags(&r), (json!(false), json!(true)));
    let seen = last(&sp.requests_to(&sp.login_path()), "blocking-info")?;
    ensure_eq!(seen.json()["subjectId"], json!(clear.personnummer));
    same_reference(&r, "spelpaus", &seen)?;
    let sent = sp.requests_to(&sp.login_path());
    ensure_eq!(sent.len(), 2, "one call a check");
    distinct(&body_request_ids(&sent), "Spelpaus's requestId")?;
    Ok(())
}

/// A personnummer whose check digit or date is wrong is 422 `invalid_field`
/// naming `identity.personnummer`, for every purpose, and Spelpaus is never
/// asked: it would answer `isBlocked: false` for any 12 characters. The
/// valid-looking traps have the right check digit over an impossible date.
/// The twins: a samordningsnummer (day + 60) and the dashed form are asked.
pub fn an_invalid_personnummer_is_refused_before_spelpaus_is_asked(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let sp = Spelpaus::start(&unique("casino"), &unique("spelpaus-key"))?;
    configure(env, &t, &[spelpaus_entry(&sp, &ALL_PURPOSES, "refuse")])?;
    let p = player();
    let calls = || sp.count_to(&sp.login_path()) + sp.count_to(&sp.marketing_path());
    let invalid = [
        (last_digit_changed(&p.personnummer), "a wrong check digit"),
        (personnummer("19901301", 123), "month 13, its check digit right"),
        (personnummer("19900230", 123), "30 February, its check digit right"),
        (personnummer("19900100", 123), "day 0, its check digit right"),
        (personnummer("19900192", 123), "a samordningsnummer's day 92 (32 + 60), its check digit right"),
        ("19900101123X".to_string(), "a letter in twelve characters"),
        (format!("{}0", p.personnummer), "thirteen digits"),
    ];
    for (number, what) in &invalid {
        for purpose in ["login", "marketing"] {
            let r = check(&t, &p.user, purpose, json!({ "personnummer": number }));
            r.expect_error(422, "invalid_field").map_err(|e| format!("{what} ({number}), {purpose}: {e}"))?;
            ensure!(r.str("message").contains("identity.personnummer"), "{what}: the message names no identity.personnummer: {}", r.raw);
            ensure!(!r.raw.contains(number.as_str()), "{what}: the refusal repeats the number: {}", r.raw);
        }
    }
    ensure_eq!(calls(), 0, "Spelpaus was asked about an invalid personnummer");
    // the twins
    let coordination = personnummer("19900161", 321);
    registers::saw_national_id(&personnummer_forms(&coordination));
    let r = checked(&t, &p, "login", json!({ "personnummer": coordination }))?;
    ensure_eq!(status(&r, "spelpaus"), "not_excluded", "a samordningsnummer");
    ensure_eq!(last(&sp.requests_to(&sp.login_path()), "blocking-info")?.json()["subjectId"], json!(coordination));
    let r = checked(&t, &p, "marketing", json!({ "personnummer": dashed_personnummer(&p.personnummer) }))?;
    ensure_eq!(status(&r, "spelpaus"), "not_excluded", "the dashed form");
    ensure_eq!(last(&sp.requests_to(&sp.marketing_path()), "marketing")?.json()["subjectId"], json!(p.personnummer));
    ensure_eq!(calls(), 2);
    Ok(())
}

/// A BSN failing the 11-test, a CPR number without a real date, a bad
/// personnummer: each is 422 `invalid_field` naming its field even when no
/// configured register takes it, and no register is asked. The twins: valid
/// ones pass, and reach no register that does not take them.
pub fn every_national_identifier_given_is_checked_even_where_no_register_needs_it(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let gs = Gamstop::start(&unique("gamstop-key"))?;
    configure(env, &t, &[gamstop_entry(&gs, &["login"], "refuse")])?;
    let bare = env.sandbox()?;
    let p = player();
    let invalid = [
        ("bsn", last_digit_changed(&p.bsn), "a BSN failing the 11-test"),
        // eight digits are read with a leading zero, which must then pass the 11-test: 012345678 does not
        // (eight digits of the player's own BSN would, one time in eleven)
        ("bsn", "12345678".to_string(), "eight digits failing the 11-test"),
        ("bsn", format!("{}A", &p.bsn[..8]), "a letter"),
        ("cpr", "3102901234".to_string(), "31 February"),
        ("cpr", "0113901234".to_string(), "month 13"),
        ("cpr", "010190123".to_string(), "nine digits"),
        ("cpr", "01019O1234".to_string(), "a letter"),
        ("personnummer", last_digit_changed(&p.personnummer), "a wrong check digit"),
    ];
    for (field, value, what) in &invalid {
        let mut identity = p.gamstop_identity();
        identity[*field] = json!(value);
        for (tenant, which) in [(&t, "with GAMSTOP"), (&bare, "without registers")] {
            let r = check(tenant, &p.user, "login", identity.clone());
            r.expect_error(422, "invalid_field").map_err(|e| format!("{field}, {what}, {which}: {e}"))?;
            ensure!(r.str("message").contains(&format!("identity.{field}")), "{what}: the message names no identity.{field}: {}", r.raw);
        }
    }
    ensure_eq!(gs.count_to(gs.path()), 0, "GAMSTOP was asked beside an invalid identifier");
    // the twins
    let mut identity = p.gamstop_identity();
    identity["bsn"] = json!(p.bsn);
    identity["cpr"] = json!(dashed_cpr(&p.cpr));
    identity["personnummer"] = json!(p.personnummer);
    let r = checked(&t, &p, "login", identity)?;
    ensure_eq!(asked(&r), names(&["shared", "gamstop"]));
    ensure_eq!(status(&r, "gamstop"), "not_excluded");
    let seen = last(&gs.requests_to(gs.path()), "GAMSTOP")?;
    for form in p.identifier_forms() {
        ensure!(!seen.text().contains(&form) && !seen.headers.values().any(|v| v.contains(&form)), "GAMSTOP was sent {form}");
    }
    registers::saw_national_id(&["111222333".to_string()]);
    let r = checked(&bare, &p, "login", json!({ "bsn": "111222333", "cpr": p.cpr }))?;
    ensure_eq!(asked(&r), names(&["shared"]));
    Ok(())
}

/// Each purpose goes through its register's API for it: Spelpaus's
/// marketing check to its marketing path, the rest to blocking-info; ROFUS's
/// to `/gambler/marketing` or `/gambler/check`. A register not configured
/// for the purpose is not asked, and the answer lists only those asked.
pub fn each_purpose_is_asked_through_its_own_api(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let sp = Spelpaus::start(&unique("casino"), &unique("spelpaus-key"))?;
    let ro = Rofus::start(&unique("operator"), &unique("rofus-key"))?;
    configure(
        env,
        &t,
        &[spelpaus_entry(&sp, &["registration", "login", "marketing"], "refuse"), rofus_entry(&ro, &["login", "marketing"], "refuse")],
    )?;
    let p = player();
    let identity = p.only(&["personnummer", "cpr"]);
    let counts =
        || (sp.count_to(&sp.login_path()), sp.count_to(&sp.marketing_path()), ro.count_to(ro.check_path()), ro.count_to(ro.marketing_path()));
    let r = checked(&t, &p, "login", identity.clone())?;
    ensure_eq!(asked(&r), names(&["shared", "spelpaus", "rofus"]), "login");
    ensure_eq!(counts(), (1, 0, 1, 0), "login");
    let r = checked(&t, &p, "registration", identity.clone())?;
    ensure_eq!(asked(&r), names(&["shared", "spelpaus"]), "registration: ROFUS does not serve it");
    ensure_eq!(counts(), (2, 0, 1, 0), "registration");
    let r = checked(&t, &p, "marketing", identity.clone())?;
    ensure_eq!(asked(&r), names(&["shared", "spelpaus", "rofus"]), "marketing");
    ensure_eq!(counts(), (2, 1, 1, 1), "marketing");
    let seen = last(&sp.requests_to(&sp.marketing_path()), "Spelpaus's marketing API")?;
    ensure_eq!(seen.json()["subjectId"], json!(p.personnummer));
    ensure_eq!(seen.header("authorization"), sp.api_key.as_str());
    same_reference(&r, "spelpaus", &seen)?;
    let seen = last(&ro.requests_to(ro.marketing_path()), "ROFUS's marketing check")?;
    ensure_eq!(seen.json()["cpr"], json!(p.cpr));
    same_reference(&r, "rofus", &seen)?;
    let r = checked(&t, &p, "deposit", identity)?;
    ensure_eq!(asked(&r), names(&["shared"]), "deposit: no register serves it");
    ensure_eq!(counts(), (2, 1, 1, 1), "deposit");
    Ok(())
}

// ---------------------------------------------------------------- GAMSTOP

/// GAMSTOP's answer is in its headers: Y is excluded, N not, P previously
/// excluded (play allowed, marketing not). It is asked with a form of the six
/// fields (mobile = phone), `X-API-Key` and a fresh `X-Trace-Id`; the
/// reference is its `X-Unique-Id`. A field it needs, left out, is named and it is not asked.
pub fn gamstop_answers_y_n_and_p_in_its_headers(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let gs = Gamstop::start(&unique("gamstop-key"))?;
    configure(env, &t, &[gamstop_entry(&gs, &["registration", "login"], "refuse")])?;
    let (y, n, lapsed) = (player(), player(), player());
    gs.exclude_email(&y.email.to_uppercase(), Exclusion::Y);
    gs.exclude_person(&lapsed.first, &lapsed.last, &lapsed.dob, Some(&lapsed.postcode.replace(' ', "")), Exclusion::P);
    let mut traces = Vec::new();
    for (p, purpose, expected, flagged) in [
        (&y, "registration", "excluded", (json!(true), json!(false))),
        (&n, "login", "not_excluded", (json!(false), json!(true))),
        (&lapsed, "login", "previously_excluded", (json!(false), json!(false))),
    ] {
        let before = gs.count_to(gs.path());
        let r = checked(&t, p, purpose, p.gamstop_identity())?;
        ensure_eq!(asked(&r), names(&["shared", "gamstop"]));
        ensure_eq!(status(&r, "gamstop"), expected);
        ensure_eq!(flags(&r), flagged, expected);
        ensure_eq!(gs.count_to(gs.path()), before + 1, "one call a check");
        let seen = last(&gs.requests_to(gs.path()), "GAMSTOP")?;
        ensure_eq!(seen.method.as_str(), "POST");
        ensure!(seen.header("content-type").starts_with("application/x-www-form-urlencoded"), "content-type {:?}", seen.header("content-type"));
        ensure_eq!(seen.header("x-api-key"), gs.api_key.as_str());
        traces.push(seen.header("x-trace-id").to_string());
        let form = seen.form();
        let field = |name: &str| form.get(name).cloned().unwrap_or_default();
        ensure_eq!(field("firstName"), p.first);
        ensure_eq!(field("lastName"), p.last);
        ensure_eq!(field("dateOfBirth"), p.dob);
        ensure_eq!(field("email").to_lowercase(), p.email.to_lowercase());
        ensure_eq!(field("postcode").replace(' ', "").to_uppercase(), "SW1A1AA");
        ensure_eq!(field("mobile"), p.phone, "mobile is the identity's phone");
        ensure_eq!(seen.answered, Some(200));
        same_reference(&r, "gamstop", &seen)?;
    }
    distinct(&traces, "GAMSTOP's X-Trace-Id")?;
    // the fields GAMSTOP needs, left out: named, and GAMSTOP not asked
    let mut identity = n.gamstop_identity();
    if let Some(fields) = identity.as_object_mut() {
        fields.remove("postcode");
        fields.remove("phone");
    }
    let before = gs.count();
    let r = check(&t, &n.user, "login", identity);
    r.expect_error(400, "missing_fields")?;
    for name in ["identity.postcode", "identity.phone"] {
        ensure!(r.str("message").contains(name), "the message names no {name}: {}", r.raw);
    }
    ensure_eq!(gs.count(), before, "GAMSTOP was asked without the fields it needs");
    Ok(())
}

// ---------------------------------------------------------------- ROFUS

/// ROFUS's `RegisteredTemporarily` and `RegisteredIndefinitely` are
/// excluded, `NotRegistered` is not. It is asked with the bearer key, the
/// operator id and the CPR number as 10 digits (a dashed one too), a fresh
/// `requestId` each; the reference is its `responseId`.
pub fn rofus_registered_temporarily_or_indefinitely_is_excluded(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let ro = Rofus::start(&unique("operator"), &unique("rofus-key"))?;
    configure(env, &t, &[rofus_entry(&ro, &["registration", "login"], "refuse")])?;
    let (temporarily, indefinitely, free) = (player(), player(), player());
    ro.set_status(&temporarily.cpr, RofusStatus::RegisteredTemporarily);
    ro.set_status(&indefinitely.cpr, RofusStatus::RegisteredIndefinitely);
    for (p, sent, expected) in [
        (&temporarily, temporarily.cpr.clone(), "excluded"),
        (&indefinitely, dashed_cpr(&indefinitely.cpr), "excluded"),
        (&free, free.cpr.clone(), "not_excluded"),
    ] {
        let r = checked(&t, p, "login", json!({ "cpr": sent }))?;
        ensure_eq!(asked(&r), names(&["shared", "rofus"]));
        ensure_eq!(status(&r, "rofus"), expected, sent);
        ensure_eq!(r.body["excluded"], json!(expected == "excluded"));
        let seen = last(&ro.requests_to(ro.check_path()), "ROFUS")?;
        ensure_eq!(seen.header("authorization"), format!("Bearer {}", ro.api_key));
        let body = seen.json();
        ensure_eq!(body["operatorId"], json!(ro.operator_id));
        ensure_eq!(body["cpr"], json!(p.cpr), "the CPR number as 10 digits");
        ensure_eq!(seen.answered, Some(200));
        same_reference(&r, "rofus", &seen)?;
    }
    distinct(&body_request_ids(&ro.requests_to(ro.check_path())), "ROFUS's requestId")?;
    let r = check(&t, &free.user, "registration", json!({}));
    r.expect_error(400, "missing_fields")?;
    ensure!(r.str("message").contains("identity.cpr"), "the message names no identity.cpr: {}", r.raw);
    ensure_eq!(ro.count(), 3, "ROFUS was asked without a CPR number");
    Ok(())
}

// ---------------------------------------------------------------- CRUKS

/// CRUKS: a player's first check turns BSN, names and date of birth into a
/// code (step 1), then asks with the code (step 2); the code is kept, so a
/// later check sends step 2 alone and no BSN reaches CRUKS again. Names, date
/// of birth and birth place stand in for a BSN; neither is named as missing.
pub fn cruks_turns_the_identity_into_a_code_once_and_asks_with_the_code_after(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let cr = Cruks::start()?;
    configure(env, &t, &[cruks_entry(&cr, &["registration", "login"], "refuse")])?;
    let identity = |p: &Player| p.only(&["bsn", "first_name", "last_name", "date_of_birth", "birth_place"]);
    let a = player();
    let r = checked(&t, &a, "registration", identity(&a))?;
    ensure_eq!(asked(&r), names(&["shared", "cruks"]));
    ensure_eq!(status(&r, "cruks"), "not_excluded");
    let sent = cr.requests();
    let paths: Vec<&str> = sent.iter().map(|s| s.path.as_str()).collect();
    ensure_eq!(paths, vec![cr.code_path(), cr.registered_path()], "step 1 then step 2");
    let step1 = sent[0].json();
    ensure_eq!(step1["bsn"], json!(a.bsn));
    ensure_eq!((step1["firstName"].clone(), step1["lastName"].clone(), step1["dateOfBirth"].clone()), (json!(a.first), json!(a.last), json!(a.dob)));
    let code = Cruks::code_for_bsn(&a.bsn);
    ensure_eq!(sent[1].json()["cruksCode"], json!(code));
    ensure!(!sent[1].text().contains(&a.bsn), "step 2 carried the BSN: {}", sent[1].text());
    same_reference(&r, "cruks", &sent[1])?;
    // registered meanwhile: the kept code finds it, asked alone
    cr.register_bsn(&a.bsn);
    let r = checked(&t, &a, "login", identity(&a))?;
    ensure_eq!(status(&r, "cruks"), "excluded");
    ensure_eq!(flags(&r), (json!(true), json!(false)));
    let later: Vec<Seen> = cr.requests().into_iter().skip(2).collect();
    let paths: Vec<&str> = later.iter().map(|s| s.path.as_str()).collect();
    ensure_eq!(paths, vec![cr.registered_path()], "a later check sends step 2 alone");
    ensure_eq!(later[0].json()["cruksCode"], json!(code));
    ensure!(!later[0].text().contains(&a.bsn), "the later check carried the BSN");
    same_reference(&r, "cruks", &later[0])?;
    // step 2 failing is an outage like any other
    cr.set_fault(Fault::Status(503));
    let r = checked(&t, &a, "login", identity(&a))?;
    cr.set_fault(Fault::Normal);
    ensure_eq!(status(&r, "cruks"), "unavailable");
    ensure_eq!(flags(&r), (json!(true), json!(false)), "CRUKS refuses on an outage");
    ensure_eq!(cr.requests().last().map(|s| s.path.clone()), Some(cr.registered_path().to_string()));
    distinct(&body_request_ids(&cr.requests()), "CRUKS's requestId")?;
    // without a BSN: names, date of birth and birth place
    let b = player();
    cr.register_person(&b.first, &b.last, &b.dob, &b.birth_place);
    let before = cr.count();
    let r = checked(&t, &b, "registration", b.only(&["first_name", "last_name", "date_of_birth", "birth_place"]))?;
    ensure_eq!(status(&r, "cruks"), "excluded", "a person registered without a BSN");
    let sent: Vec<Seen> = cr.requests().into_iter().skip(before).collect();
    ensure_eq!(sent.len(), 2, "step 1 then step 2");
    let step1 = sent[0].json();
    ensure!(step1["bsn"].as_str().is_none_or(str::is_empty), "a BSN was sent for a player without one: {step1}");
    ensure_eq!(step1["birthPlace"], json!(b.birth_place));
    ensure_eq!(sent[1].json()["cruksCode"], json!(Cruks::code_for_person(&b.first, &b.last, &b.dob, &b.birth_place)));
    // neither a BSN nor a birth place: named, CRUKS not asked
    let c = player();
    let before = cr.count();
    let r = check(&t, &c.user, "registration", c.only(&["first_name", "last_name", "date_of_birth"]));
    r.expect_error(400, "missing_fields")?;
    ensure!(r.str("message").contains("identity.bsn") || r.str("message").contains("identity.birth_place"), "nothing named: {}", r.raw);
    ensure_eq!(cr.count(), before, "CRUKS was asked without what it needs");
    Ok(())
}

// ---------------------------------------------------------------- outages

/// One register down, the others answering: the one is `unavailable` with
/// no reference, the others answer; `excluded` follows its policy and
/// marketing is never allowed.
fn down_alone(r: &Resp, down: &str, policy: &str, what: &str) -> CaseResult {
    for register in REGISTERS {
        let expected = if register == down { "unavailable" } else { "not_excluded" };
        ensure_eq!(status(r, register), expected, format!("{what}: {}", r.raw));
    }
    ensure_eq!(r.body["excluded"], json!(policy == "refuse"), format!("{what}: {}", r.raw));
    ensure_eq!(r.body["marketing_allowed"], json!(false), format!("{what}: {}", r.raw));
    Ok(())
}

/// Every register, under each policy: answering 500 or 503, answering
/// something that is not its answer, refusing the connection, refusing the
/// key (401, GAMSTOP 403). Each is `unavailable`, never `not_excluded`:
/// `refuse` excludes, `allow_flagged` lets play but not marketing.
pub fn an_unavailable_register_is_never_read_as_not_excluded(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let f = four()?;
    let mixed = ["refuse", "allow_flagged", "refuse", "allow_flagged"];
    let flipped = ["allow_flagged", "refuse", "allow_flagged", "refuse"];
    for policies in [mixed, flipped] {
        configure(env, &t, &f.entries(policies, &["login"]))?;
        for fault in [Fault::Status(500), Fault::Status(503), Fault::Malformed] {
            for (i, register) in REGISTERS.iter().enumerate() {
                let stub = f.stubs()[i];
                let before = stub.count();
                stub.set_fault(fault);
                let p = player();
                let r = checked(&t, &p, "login", p.identity());
                stub.set_fault(Fault::Normal);
                let what = format!("{register} answering {fault:?} under {}", policies[i]);
                let r = r.map_err(|e| format!("{what}: {e}"))?;
                ensure!(stub.count() > before, "{what}: it was not asked");
                down_alone(&r, register, policies[i], &what)?;
                let expected = match fault {
                    Fault::Status(n) => format!("status_{n}"),
                    _ => "malformed".to_string(),
                };
                reasons_alone(&t, &p.user, register, &expected, &what)?;
            }
        }
        let refused = refused_url()?;
        for (i, register) in REGISTERS.iter().enumerate() {
            let mut entries = f.entries(policies, &["login"]);
            entries[i]["base_url"] = json!(refused);
            configure(env, &t, &entries)?;
            let p = player();
            let what = format!("{register} refusing connections under {}", policies[i]);
            let r = checked(&t, &p, "login", p.identity()).map_err(|e| format!("{what}: {e}"))?;
            down_alone(&r, register, policies[i], &what)?;
            reasons_alone(&t, &p.user, register, "unreachable", &what)?;
        }
        for (i, register) in REGISTERS.iter().enumerate().take(3) {
            let mut entries = f.entries(policies, &["login"]);
            entries[i]["credentials"]["api_key"] = json!(unique("wrong-key"));
            configure(env, &t, &entries)?;
            let p = player();
            let what = format!("{register} refusing the key under {}", policies[i]);
            let r = checked(&t, &p, "login", p.identity()).map_err(|e| format!("{what}: {e}"))?;
            let answered = f.stubs()[i].requests().last().and_then(|s| s.answered);
            ensure!(matches!(answered, Some(401 | 403)), "{what}: the stub answered {answered:?}");
            down_alone(&r, register, policies[i], &what)?;
            reasons_alone(&t, &p.user, register, &format!("status_{}", answered.unwrap_or_default()), &what)?;
        }
    }
    Ok(())
}

/// The evidence says why the unavailable register's answer could not be
/// used, with a code of the fixed list; every register that answered has no reason.
fn reasons_alone(t: &Tenant<'_>, user: &str, down: &str, expected: &str, what: &str) -> CaseResult {
    let listed = t.get(&format!("/v1/registers/checks?user_id={user}"));
    listed.expect(200)?;
    let rows = listed.body["checks"].as_array().cloned().unwrap_or_default();
    ensure!(!rows.is_empty(), "{what}: no evidence");
    for row in &rows {
        let reason = &row["reason"];
        if row["register"] == json!(down) {
            ensure_eq!(reason, &json!(expected), format!("{what}: the reason kept"));
        } else {
            ensure_eq!(reason, &Json::Null, format!("{what}: {}'s reason", row["register"]));
        }
    }
    Ok(())
}

/// Every register holding the request without an answer: the check gives
/// them up within its budget and answers 200 in under 3 s, each
/// `unavailable`, asked in parallel. Under `refuse` the player is excluded;
/// under `allow_flagged` not, but marketing is refused. Answering again, they are read.
pub fn a_register_that_does_not_answer_is_given_up_within_the_budget(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let f = four()?;
    let mixed = ["refuse", "allow_flagged", "refuse", "allow_flagged"];
    for (policies, flagged) in [(mixed, (json!(true), json!(false))), (["allow_flagged"; 4], (json!(false), json!(false)))] {
        configure(env, &t, &f.entries(policies, &["login"]))?;
        f.set_fault(Fault::Hang);
        let before: Vec<usize> = f.stubs().iter().map(|s| s.count()).collect();
        let p = player();
        let started = Instant::now();
        let r = check(&t, &p.user, "login", p.identity());
        let took = started.elapsed();
        r.expect(200)?;
        well_formed(&r)?;
        ensure!(took < WITHIN_BUDGET, "with every register hanging the check took {took:?}");
        for (i, register) in REGISTERS.iter().enumerate() {
            ensure_eq!(status(&r, register), "unavailable", format!("{register} hanging under {policies:?}"));
            ensure!(f.stubs()[i].count() > before[i], "{register} was not asked");
        }
        ensure_eq!(flags(&r), flagged, format!("{policies:?}"));
    }
    f.set_fault(Fault::Normal);
    let p = player();
    let r = checked(&t, &p, "login", p.identity())?;
    for register in REGISTERS {
        ensure_eq!(status(&r, register), "not_excluded", format!("{register} answering again"));
    }
    Ok(())
}

/// Every register answering after 300 ms (CRUKS's two steps, 600 ms) is
/// read as it answers, excluded or not, well within the budget.
pub fn a_slow_register_within_the_budget_is_answered(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let f = four()?;
    configure(env, &t, &f.entries(["refuse"; 4], &["login"]))?;
    let p = player();
    f.sp.block(&p.personnummer);
    f.ro.set_status(&p.cpr, RofusStatus::RegisteredIndefinitely);
    f.set_fault(Fault::Slow(Duration::from_millis(300)));
    let started = Instant::now();
    let r = checked(&t, &p, "login", p.identity())?;
    let took = started.elapsed();
    ensure!(took >= Duration::from_millis(300), "the check answered in {took:?}, before the registers did");
    ensure!(took < WITHIN_BUDGET, "the check took {took:?}");
    for (register, expected) in [("spelpaus", "excluded"), ("gamstop", "not_excluded"), ("rofus", "excluded"), ("cruks", "not_excluded")] {
        ensure_eq!(status(&r, register), expected, format!("{register} answering in 300 ms"));
    }
    ensure_eq!(flags(&r), (json!(true), json!(false)));
    Ok(())
}

// ---------------------------------------------------------------- the shared register and purposes

/// A purpose no configured register serves is checked against the shared
/// register alone, which is always asked and listed first: the player's own
/// exclusion and an exclusion of their e-mail address, from any tenant, are
/// found. The purpose a register serves needs its fields, all named.
pub fn a_purpose_no_register_serves_is_checked_against_the_shared_register_alone(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let gs = Gamstop::start(&unique("gamstop-key"))?;
    configure(env, &t, &[gamstop_entry(&gs, &["login"], "refuse")])?;
    let p = player();
    for purpose in ["registration", "deposit", "marketing"] {
        let r = checked(&t, &p, purpose, json!({}))?;
        ensure_eq!(asked(&r), names(&["shared"]), purpose);
        ensure_eq!(status(&r, "shared"), "not_excluded");
        ensure_eq!(flags(&r), (json!(false), json!(true)), purpose);
    }
    ensure_eq!(gs.count(), 0, "GAMSTOP was asked for a purpose it does not serve");
    let r = check(&t, &p.user, "login", json!({}));
    r.expect_error(400, "missing_fields")?;
    for field in GAMSTOP_FIELDS {
        ensure!(r.str("message").contains(&format!("identity.{field}")), "the message names no identity.{field}: {}", r.raw);
    }
    ensure_eq!(gs.count(), 0);
    let bare = env.sandbox()?;
    let r = checked(&bare, &p, "login", json!({}))?;
    ensure_eq!(asked(&r), names(&["shared"]), "a tenant without registers");
    // the shared register: the player's own exclusion, and their address from another tenant
    let excluded = player();
    t.signup(&excluded.user)?;
    let exclusion = json!({ "user_id": excluded.user, "email": excluded.email, "duration": "duration_30d", "reason": "self_initiated",
        "initiated_at": t.now_iso()? });
    t.post("/v1/exclusions", exclusion).expect(201)?;
    let r = checked(&t, &excluded, "deposit", json!({}))?;
    ensure_eq!(asked(&r), names(&["shared"]));
    ensure_eq!(status(&r, "shared"), "excluded", "the player's own exclusion");
    ensure_eq!(flags(&r), (json!(true), json!(false)));
    let other = player();
    let r = checked(&bare, &other, "marketing", json!({ "email": excluded.email.to_uppercase() }))?;
    ensure_eq!(status(&r, "shared"), "excluded", "an excluded address, from another tenant");
    ensure_eq!(flags(&r), (json!(true), json!(false)));
    // the check's own fields
    check(&t, &p.user, "withdrawal", json!({})).expect_error(400, "invalid_field")?;
    t.post("/v1/exclusions/check", json!({ "user_id": p.user, "identity": {} })).expect_error(400, "missing_fields")?;
    t.post("/v1/exclusions/check", json!({ "purpose": "login", "identity": {} })).expect_error(400, "missing_fields")?;
    Ok(())
}

// ---------------------------------------------------------------- evidence

fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => char::from(b).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn evidence(t: &Tenant<'_>, user: &str, query: &str) -> Result<Resp, String> {
    let r = t.get(&format!("/v1/registers/checks?user_id={}{query}", encode(user)));
    r.expect(200)?;
    ensure!(r.body["checks"].is_array(), "no checks array: {}", r.raw);
    ensure!(r.body.get("next_cursor").is_some_and(|c| c.is_null() || c.is_string()), "next_cursor is neither null nor a cursor: {}", r.raw);
    Ok(r)
}

fn rows_of(r: &Resp) -> Vec<Json> {
    r.body["checks"].as_array().cloned().unwrap_or_default()
}

fn row_key(row: &Json) -> (String, String) {
    (row["check_id"].as_str().unwrap_or("").to_string(), row["register"].as_str().unwrap_or("").to_string())
}

/// Every register call is a row of `GET /v1/registers/checks`, newest first:
/// purpose, status, the register's reference and our request id as the
/// register received it, the time and the latency. Pages of any size walk
/// the same rows; bad limits and cursors are refused; another tenant sees none.
pub fn register_checks_are_evidence_read_newest_first_a_page_at_a_time(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let sp = Spelpaus::start(&unique("casino"), &unique("spelpaus-key"))?;
    let gs = Gamstop::start(&unique("gamstop-key"))?;
    configure(env, &t, &[spelpaus_entry(&sp, &["registration", "login", "marketing"], "refuse"), gamstop_entry(&gs, &["login"], "allow_flagged")])?;
    let p = player();
    sp.block(&p.personnummer);
    let mut fields = GAMSTOP_FIELDS.to_vec();
    fields.push("personnummer");
    let mut made = Vec::new();
    for purpose in ["login", "registration", "marketing"] {
        made.push((purpose, checked(&t, &p, purpose, p.only(&fields))?));
    }
    let all = evidence(&t, &p.user, "")?;
    let rows = rows_of(&all);
    ensure_eq!(rows.len(), 3 + 2 + 2, format!("one row per register asked: {}", all.raw));
    let sent: Vec<Seen> = sp.requests().into_iter().chain(gs.requests()).collect();
    for entry in &rows {
        for field in ["check_id", "register", "purpose", "status", "reference", "request_id", "checked_at", "latency_ms"] {
            ensure!(entry.get(field).is_some(), "a row has no {field}: {entry}");
        }
        let (check_id, register) = row_key(entry);
        let (purpose, answer) = made.iter().find(|(_, r)| r.str("check_id") == check_id).ok_or(format!("a row of no check of ours: {entry}"))?;
        ensure_eq!(entry["purpose"], json!(purpose));
        ensure_eq!(entry["status"], row(answer, &register)["status"], format!("{register}'s row of the {purpose} check"));
        ensure_eq!(entry["reference"], row(answer, &register)["reference"], format!("{register}'s row of the {purpose} check"));
        parse_time(entry["checked_at"].as_str().unwrap_or(""))?;
        ensure!(entry["latency_ms"].as_i64().is_some_and(|l| l >= 0), "latency_ms is not a whole number of milliseconds: {entry}");
        if register != "shared" {
            // the call the register answered with this reference carried this request id
            let call = sent.iter().find(|s| s.reference.as_deref() == entry["reference"].as_str()).ok_or(format!("no call answered {entry}"))?;
            let received = match register.as_str() {
                "gamstop" => call.header("x-trace-id").to_string(),
                _ => call.json()["requestId"].as_str().unwrap_or("").to_string(),
            };
            ensure_eq!(entry["request_id"], json!(received), format!("{register}'s request id as the register received it"));
        }
    }
    // newest first: the checks' rows in the reverse order of the checks, each check's rows together
    let mut order: Vec<String> = Vec::new();
    for entry in &rows {
        let (check_id, _) = row_key(entry);
        if order.last() != Some(&check_id) {
            ensure!(!order.contains(&check_id), "a check's rows are not together: {}", all.raw);
            order.push(check_id);
        }
    }
    let newest_first: Vec<String> = made.iter().rev().map(|(_, r)| r.str("check_id").to_string()).collect();
    ensure_eq!(order, newest_first, "newest first");
    // a page at a time: the same rows in the same order
    for limit in [1, 3] {
        let mut walked = Vec::new();
        let mut cursor: Option<String> = None;
        for _ in 0..20 {
            let query = match &cursor {
                Some(c) => format!("&limit={limit}&cursor={}", encode(c)),
                None => format!("&limit={limit}"),
            };
            let page = evidence(&t, &p.user, &query)?;
            let entries = rows_of(&page);
            ensure!(entries.len() <= limit, "a page of {limit} held {}: {}", entries.len(), page.raw);
            walked.extend(entries.iter().map(row_key));
            match page.body["next_cursor"].as_str() {
                Some(next) => cursor = Some(next.to_string()),
                None => break,
            }
        }
        ensure_eq!(walked, rows.iter().map(row_key).collect::<Vec<_>>(), format!("pages of {limit}"));
    }
    let base = format!("/v1/registers/checks?user_id={}", encode(&p.user));
    for bad in ["0", "ten", "-1"] {
        t.get(&format!("{base}&limit={bad}")).expect_error(400, "invalid_limit").map_err(|e| format!("limit={bad}: {e}"))?;
    }
    t.get(&format!("{base}&cursor=!!!")).expect_error(400, "invalid_cursor")?;
    t.get(&format!("{base}&cursor=bm90LWEtY3Vyc29y")).expect_error(400, "invalid_cursor")?;
    t.get("/v1/registers/checks").expect_error(400, "missing_fields")?;
    // another tenant reads none of them
    let other = env.sandbox()?;
    let theirs = other.get(&base);
    match theirs.status {
        200 => ensure_eq!(theirs.body["checks"], json!([]), "another tenant's read of the same user_id"),
        _ => {
            theirs.expect_error(404, "user_not_found")?;
        }
    }
    for answer in [&all, &theirs] {
        for form in p.identifier_forms() {
            ensure!(!answer.raw.contains(&form), "the evidence shows {form} in clear");
        }
    }
    Ok(())
}

// ---------------------------------------------------------------- the deposit gate

/// After a check in which a national register found the player excluded, the
/// deposit gate refuses them as it refuses a self-excluded player. The twins:
/// a player found not excluded, or lapsed (GAMSTOP P), deposits; and the
/// latest check decides, so a player found clear again deposits again.
pub fn a_player_a_national_register_excludes_cannot_deposit(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let sp = Spelpaus::start(&unique("casino"), &unique("spelpaus-key"))?;
    let gs = Gamstop::start(&unique("gamstop-key"))?;
    configure(env, &t, &[spelpaus_entry(&sp, &["login", "marketing"], "refuse"), gamstop_entry(&gs, &["login"], "refuse")])?;
    let deposit = |user: &str| t.post("/v1/limits/check", json!({ "user_id": user, "amount_cents": 500, "currency": "USD" }));
    let mut fields = GAMSTOP_FIELDS.to_vec();
    fields.push("personnummer");
    let excluded = player();
    t.signup(&excluded.user)?;
    sp.block(&excluded.personnummer);
    ensure_eq!(deposit(&excluded.user).body["allowed"], json!(true), "before any register check");
    let r = checked(&t, &excluded, "login", excluded.only(&fields))?;
    ensure_eq!(status(&r, "spelpaus"), "excluded");
    let refused = deposit(&excluded.user);
    ensure_eq!(refused.body["allowed"], json!(false));
    ensure_eq!(refused.str("reason"), "self_excluded");
    t.post("/v1/limits/commit", json!({ "transaction_id": unique("tx"), "user_id": excluded.user, "amount_cents": 500, "currency": "USD" }))
        .expect_error(422, "self_excluded")?;
    // a marketing API answers another question: Spelpaus's marketing check finding the player clear does not reopen play
    sp.unblock(&excluded.personnummer);
    let marketing = checked(&t, &excluded, "marketing", excluded.only(&["personnummer"]))?;
    ensure_eq!(status(&marketing, "spelpaus"), "not_excluded");
    ensure_eq!(deposit(&excluded.user).body["allowed"], json!(false), "a marketing answer lifted the play standing");
    sp.block(&excluded.personnummer);
    // the twins
    let clear = player();
    t.signup(&clear.user)?;
    ensure_eq!(checked(&t, &clear, "login", clear.only(&fields))?.body["excluded"], json!(false));
    ensure_eq!(deposit(&clear.user).body["allowed"], json!(true), "a player the registers found not excluded");
    let lapsed = player();
    t.signup(&lapsed.user)?;
    gs.exclude_email(&lapsed.email, Exclusion::P);
    ensure_eq!(status(&checked(&t, &lapsed, "login", lapsed.only(&fields))?, "gamstop"), "previously_excluded");
    ensure_eq!(deposit(&lapsed.user).body["allowed"], json!(true), "a lapsed GAMSTOP exclusion allows play");
    sp.unblock(&excluded.personnummer);
    ensure_eq!(checked(&t, &excluded, "login", excluded.only(&fields))?.body["excluded"], json!(false));
    ensure_eq!(deposit(&excluded.user).body["allowed"], json!(true), "the latest check found the player clear");
    Ok(())
}

// ---------------------------------------------------------------- identifiers

/// No answer of the check or of the evidence carries a personnummer, CPR
/// number or BSN sent, in any written form, nor does a refusal of a check that carried them.
pub fn no_national_identifier_is_answered_in_clear(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let sp = Spelpaus::start(&unique("casino"), &unique("spelpaus-key"))?;
    let ro = Rofus::start(&unique("operator"), &unique("rofus-key"))?;
    let cr = Cruks::start()?;
    configure(
        env,
        &t,
        &[
            spelpaus_entry(&sp, &["registration", "login"], "refuse"),
            rofus_entry(&ro, &["registration", "login"], "refuse"),
            cruks_entry(&cr, &["login"], "refuse"),
        ],
    )?;
    let p = player();
    sp.block(&p.personnummer);
    ro.set_status(&p.cpr, RofusStatus::RegisteredTemporarily);
    cr.register_bsn(&p.bsn);
    let mut dashed = p.identity();
    dashed["personnummer"] = json!(dashed_personnummer(&p.personnummer));
    dashed["cpr"] = json!(dashed_cpr(&p.cpr));
    let mut answers = vec![checked(&t, &p, "registration", dashed)?, checked(&t, &p, "login", p.identity())?];
    ensure_eq!(status(&answers[1], "cruks"), "excluded");
    // the registers were given them: the answers are where they must not be
    ensure_eq!(last(&sp.requests(), "Spelpaus")?.json()["subjectId"], json!(p.personnummer));
    ensure_eq!(last(&ro.requests(), "ROFUS")?.json()["cpr"], json!(p.cpr));
    answers.push(evidence(&t, &p.user, "")?);
    answers.push(evidence(&t, &p.user, "&limit=1")?);
    // a refusal of a check that carried them: a new player without the names CRUKS's first step needs
    let q = player();
    let refusal = check(&t, &q.user, "login", q.only(&["personnummer", "cpr", "bsn"]));
    refusal.expect_error(400, "missing_fields")?;
    answers.push(refusal);
    let forms: Vec<String> = p.identifier_forms().into_iter().chain(q.identifier_forms()).collect();
    for answer in &answers {
        for form in &forms {
            ensure!(!answer.raw.contains(form.as_str()), "an answer shows {form} in clear: {}", answer.raw);
            ensure!(!answer.headers.values().any(|v| v.contains(form.as_str())), "a header shows {form}");
        }
    }
    Ok(())
}

/// No fingerprint of a check's body is kept for a replay: a hash of so few
/// possible personnummer gives the number back. A check sent again under
/// the same `Idempotency-Key` is a new check that asks Spelpaus again, and
/// its evidence has both. The twin: a keyed route that carries no
/// identifier (`POST /v1/limits`) still answers the same key's replay with
/// the first answer.
pub fn a_checks_idempotency_key_keeps_no_fingerprint_of_its_identifiers(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let sp = Spelpaus::start(&unique("casino"), &unique("spelpaus-key"))?;
    configure(env, &t, &[spelpaus_entry(&sp, &["login"], "refuse")])?;
    let p = player();
    let key = unique("key");
    let body = json!({ "user_id": p.user, "purpose": "login", "identity": p.only(&["personnummer"]) });
    let first = t.post_with("/v1/exclusions/check", body.clone(), &[("idempotency-key", &key)]);
    first.expect(200)?;
    let again = t.post_with("/v1/exclusions/check", body, &[("idempotency-key", &key)]);
    again.expect(200)?;
    ensure!(first.str("check_id") != again.str("check_id"), "the check was replayed from its key: {}", again.raw);
    ensure_eq!(sp.count(), 2, "Spelpaus was not asked again");
    let listed = t.get(&format!("/v1/registers/checks?user_id={}", p.user));
    listed.expect(200)?;
    let ids: BTreeSet<&str> = listed.body["checks"].as_array().map(|c| c.iter().filter_map(|r| r["check_id"].as_str()).collect()).unwrap_or_default();
    ensure_eq!(ids.len(), 2, "the evidence of both checks");
    // the twin: a route without identifiers replays its key
    t.signup(&p.user)?;
    let limit = json!({ "user_id": p.user, "limit_type": "limit_daily", "amount_cents": 10_000, "currency": "USD", "requested_at": t.now_iso()? });
    let set = t.post_with("/v1/limits", limit.clone(), &[("idempotency-key", &key)]);
    set.expect(201)?;
    let replayed = t.post_with("/v1/limits", limit, &[("idempotency-key", &key)]);
    ensure!(replayed.status < 300 && replayed.str("limit_id") == set.str("limit_id"), "the limit's key did not replay: {}", replayed.raw);
    Ok(())
}

// ---------------------------------------------------------------- found, pushed

/// The operator's `exclusion.created` events naming this user (a national
/// register's finding; the shared register's events name no user).
fn found_events(receiver: &Receiver, user: &str) -> Vec<Json> {
    receiver.all().iter().filter(|d| d.event() == "exclusion.created" && d.json["data"]["user_id"] == user).map(|d| d.json.clone()).collect()
}

/// Waits for the `n`th finding of `user`, and answers every one so far.
fn found_n(receiver: &Receiver, user: &str, n: usize, what: &str) -> Result<Vec<Json>, String> {
    receiver.wait_until(crate::cases::webhooks::WAIT, what, |_| found_events(receiver, user).len() >= n)?;
    Ok(found_events(receiver, user))
}

/// A player a national register newly finds excluded reaches the operator
/// at once: one `exclusion.created`, its `source` the register, its
/// `exclusion_id` the check that found them, the player's id and contacts,
/// no national identifier. Its twins: a check that finds the player
/// excluded again tells nothing more; a marketing check sets no standing and
/// tells nothing; a player found clear and then excluded again is told again;
/// another operator hears nothing of it.
pub fn a_player_newly_found_excluded_reaches_the_operator_once(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let other = env.sandbox()?;
    let receiver = Receiver::start(Behaviour::Accept)?;
    let elsewhere = Receiver::start(Behaviour::Accept)?;
    crate::cases::webhooks::register(&t, &receiver.url)?;
    crate::cases::webhooks::register(&other, &elsewhere.url)?;
    let sp = Spelpaus::start(&unique("casino"), &unique("spelpaus-key"))?;
    let gs = Gamstop::start(&unique("gamstop-key"))?;
    configure(env, &t, &[spelpaus_entry(&sp, &["login", "marketing"], "refuse"), gamstop_entry(&gs, &["login"], "refuse")])?;
    let mut fields = GAMSTOP_FIELDS.to_vec();
    fields.push("personnummer");

    let g = player();
    gs.exclude_email(&g.email, Exclusion::Y);
    let first = checked(&t, &g, "login", g.only(&fields))?;
    ensure_eq!((status(&first, "gamstop"), status(&first, "spelpaus")), ("excluded", "not_excluded"));
    let told = found_n(&receiver, &g.user, 1, "GAMSTOP's finding")?;
    let data = &told[0]["data"];
    ensure_eq!(data["source"], json!("gamstop"));
    ensure_eq!(data["exclusion_id"], first.body["check_id"], "the exclusion id is the check's");
    ensure_eq!(data["user_email"], json!(g.email.to_lowercase()));
    let digits = |s: &str| s.chars().filter(char::is_ascii_digit).collect::<String>();
    ensure_eq!(digits(data["user_phone"].as_str().unwrap_or("")), digits(&g.phone), "the phone");
    ensure_eq!((&data["duration"], &data["expires_at"], &data["is_permanent"]), (&NULL, &NULL, &json!(false)), "a register says no term");
    let body = told[0].to_string();
    for form in g.identifier_forms() {
        ensure!(!body.contains(&form), "the event carried a national identifier: {body}");
    }

    // found excluded again: nothing more; a marketing check's finding: nothing at all
    checked(&t, &g, "login", g.only(&fields))?;
    let m = player();
    sp.block(&m.personnummer);
    ensure_eq!(status(&checked(&t, &m, "marketing", m.only(&["personnummer"]))?, "spelpaus"), "excluded");
    // Spelpaus's login check: found, cleared, found again, each finding told
    let s = player();
    sp.block(&s.personnummer);
    let found = checked(&t, &s, "login", s.only(&fields))?;
    let told = found_n(&receiver, &s.user, 1, "Spelpaus's finding")?;
    ensure_eq!((&told[0]["data"]["source"], &told[0]["data"]["exclusion_id"]), (&json!("spelpaus"), &found.body["check_id"]));
    ensure_eq!(told[0]["data"]["user_email"], json!(s.email.to_lowercase()));
    sp.unblock(&s.personnummer);
    ensure_eq!(checked(&t, &s, "login", s.only(&fields))?.body["excluded"], json!(false));
    sp.block(&s.personnummer);
    let again = checked(&t, &s, "login", s.only(&fields))?;
    let told = found_n(&receiver, &s.user, 2, "Spelpaus's second finding")?;
    ensure_eq!(told[1]["data"]["exclusion_id"], again.body["check_id"]);
    // the fence: every event of the checks above was written before the second finding's
    ensure_eq!(found_events(&receiver, &g.user).len(), 1, "a finding already known was told again");
    ensure_eq!(found_events(&receiver, &m.user).len(), 0, "a marketing check told an exclusion");
    ensure_eq!(found_events(&receiver, &s.user).len(), 2);
    for user in [&g.user, &m.user, &s.user] {
        ensure_eq!(found_events(&elsewhere, user).len(), 0, "another operator was told of this tenant's player");
    }
    Ok(())
}

/// GAMSTOP's nightly batch: a day after the register was set, the players
/// checked at GAMSTOP are asked again through its batch API, within its
/// published limits (1,000 people and 256 KB a request, one request a
/// second: the stub refuses anything more). A player excluded since their
/// check is found, told to the operator (`exclusion.created`, `source`
/// `gamstop`), kept as evidence (purpose `batch`) and refused a deposit. The
/// twins: nothing is asked before the day has passed; a player still clear
/// is not told; a player lapsed since (`P`) is not excluded.
pub fn gamstops_nightly_batch_finds_a_player_excluded_since_their_check(env: &Env) -> CaseResult {
    let t = env.sandbox()?;
    let receiver = Receiver::start(Behaviour::Accept)?;
    crate::cases::webhooks::register(&t, &receiver.url)?;
    let gs = Gamstop::start(&unique("gamstop-key"))?;
    configure(env, &t, &[gamstop_entry(&gs, &["login"], "refuse")])?;
    let (clear, since, lapsed) = (player(), player(), player());
    for p in [&clear, &since, &lapsed] {
        t.signup(&p.user)?;
        ensure_eq!(status(&checked(&t, p, "login", p.gamstop_identity())?, "gamstop"), "not_excluded");
    }
    gs.exclude_email(&since.email, Exclusion::Y);
    gs.exclude_email(&lapsed.email, Exclusion::P);
    let run = || -> CaseResult { env.admin("POST", "/v1/admin/scheduler/run", Some(&json!({}))).expect(200).map(|_| ()) };
    run()?;
    ensure_eq!(gs.count_to(gs.batch_path()), 0, "a batch before the day had passed");
    t.advance(24 * 3_600 + 60)?;
    let deadline = Instant::now() + crate::cases::webhooks::WAIT;
    while found_events(&receiver, &since.user).is_empty() {
        ensure!(Instant::now() < deadline, "the batch never told of {}: {} batch requests", since.user, gs.batches().len());
        run()?;
        std::thread::sleep(Duration::from_millis(300));
    }
    let told = found_events(&receiver, &since.user);
    ensure_eq!(told.len(), 1);
    ensure_eq!((&told[0]["data"]["source"], &told[0]["data"]["user_email"]), (&json!("gamstop"), &json!(since.email.to_lowercase())));
    gs.batches_within_limits()?;
    ensure!(!gs.batches().is_empty(), "no batch request was seen");
    let seen = last(&gs.requests_to(gs.batch_path()), "GAMSTOP's batch")?;
    ensure_eq!(seen.header("x-api-key"), gs.api_key.as_str());
    let people = seen.json();
    let correlations: Vec<String> = people.as_array().map_or_else(Vec::new, |a| a.iter().map(|p| p["correlationId"].to_string()).collect());
    distinct(&correlations, "the batch's correlationId")?;
    // the evidence: the batch's answer, with GAMSTOP's id of it
    let page = evidence(&t, &since.user, "")?;
    let newest = &rows_of(&page)[0];
    ensure_eq!((&newest["purpose"], &newest["register"], &newest["status"]), (&json!("batch"), &json!("gamstop"), &json!("excluded")), page.raw);
    ensure!(newest["reference"].as_str().is_some_and(|r| !r.is_empty()), "the batch row has no reference: {}", page.raw);
    let deposit = |user: &str| t.post("/v1/limits/check", json!({ "user_id": user, "amount_cents": 500, "currency": "USD" }));
    ensure_eq!(deposit(&since.user).body["allowed"], json!(false), "a player the batch found excluded may deposit");
    // the twins, once the run has asked them too
    let deadline = Instant::now() + crate::cases::webhooks::WAIT;
    loop {
        let asked = |p: &Player| evidence(&t, &p.user, "").map(|r| rows_of(&r).iter().any(|row| row["purpose"] == "batch"));
        if asked(&clear)? && asked(&lapsed)? {
            break;
        }
        ensure!(Instant::now() < deadline, "the batch never asked every player");
        run()?;
        std::thread::sleep(Duration::from_millis(300));
    }
    for p in [&clear, &lapsed] {
        ensure_eq!(found_events(&receiver, &p.user).len(), 0, "told of a player not excluded");
        ensure_eq!(deposit(&p.user).body["allowed"], json!(true));
    }
    gs.batches_within_limits()
}
