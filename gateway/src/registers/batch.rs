//! The nightly batch (issue #47, "found later, pushed at once"): each day
//! (the first a day after the register was set) the players a tenant checked
//! at GAMSTOP are asked again through its batch API, so a player who registered with GAMSTOP after signing up is found
//! without waiting for their next login. A run asks one request at a time,
//! at most one a second per tenant and register and at most
//! [`crate::WorkLimits::register_batch_people`] people (GAMSTOP's published
//! bound is 1,000) and 256 KB a request, each request claimed first so two
//! hosts never send the same one. Each answer is decided by the rules as a
//! check is (`decide-register-check`, logged), kept as evidence (purpose
//! `batch`), becomes the player's standing, and a player newly found excluded
//! is an `exclusion.created` to the operator.
//!
//! The identity asked with is the one the player's latest GAMSTOP check
//! gave, kept sealed. Spelpaus's marketing bulk check would need the
//! personnummer, which is never kept, so Spelpaus is asked at each login as
//! Swedish law requires (`docs/decisions.md`).

use rules_model::{CheckPurpose, NationalRegister, Operation, OutagePolicy, RegisterAnswer, RegisterCheckFacts, RegisterStatus};
use serde_json::{json, Value as Json};

use super::adapters::{Credentials, Identity};
use super::store::{self, BatchPlayer, BatchTarget, CheckRow, Kept, Occasion};
use crate::auth::Environment;
use crate::decisions::Scope;
use crate::error::{ApiError, ApiResult};
use crate::ports::{Stmt, VendorRequest};
use crate::Gateway;

/// A run begins this long after the last one began (by the tenant's clock).
pub const RUN_EVERY_SECONDS: i64 = 24 * 3_600;
/// No two requests of one run within this many milliseconds.
pub const REQUEST_GAP_MS: i64 = 1_000;
/// GAMSTOP's published bound on a batch request's body.
pub const MAX_REQUEST_BYTES: usize = 256 * 1024;
/// How long a batch request may take.
const REQUEST_BUDGET_MS: u64 = 30_000;

/// The associated data a player's kept identity is sealed with.
pub(crate) fn identity_aad(tenant_id: &str, user_id: &str, register: NationalRegister) -> String {
    format!("register-identity:{tenant_id}:{register}:{user_id}", register = register.as_str())
}

/// The identity the batch asks with, as kept (sealed): GAMSTOP's six
/// fields, when the check gave them all, and the contacts an event names
/// (the e-mail and phone as the shared register reads them).
pub(crate) fn kept_identity(register: NationalRegister, identity: &Identity, contacts: &crate::exclusions::store::Contacts) -> Option<String> {
    if register != NationalRegister::Gamstop || !identity.missing_for(register, false).is_empty() {
        return None;
    }
    let field = |v: &Option<String>| v.clone().unwrap_or_default();
    Some(
        json!({
            "person": {
                "firstName": field(&identity.first_name),
                "lastName": field(&identity.last_name),
                "dateOfBirth": field(&identity.date_of_birth),
                "email": field(&identity.email),
                "postcode": field(&identity.postcode),
                "mobile": field(&identity.phone),
            },
            "email": contacts.email,
            "phone": contacts.phone,
        })
        .to_string(),
    )
}

/// A kept identity, opened: the person as GAMSTOP takes them, and the contacts.
struct Opened {
    person: serde_json::Map<String, Json>,
    email: Option<String>,
    phone: Option<String>,
}

fn open(gw: &Gateway, tenant: &str, register: NationalRegister, player: &BatchPlayer) -> Option<Opened> {
    let plain = gw.open_secret(&player.identity, &identity_aad(tenant, &player.user_id, register)).ok()?;
    let kept: Json = serde_json::from_str(&plain).ok()?;
    let Json::Object(person) = kept.get("person")?.clone() else { return None };
    let text = |name: &str| kept.get(name).and_then(Json::as_str).map(str::to_string);
    Some(Opened { person, email: text("email"), phone: text("phone") })
}

/// What one round of the batch did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct BatchReport {
    /// requests sent
    pub requests: usize,
    /// players whose answer was kept
    pub players: usize,
}

/// One request of every tenant's run that is due now.
pub async fn run_due(gw: &Gateway) -> ApiResult<BatchReport> {
    let mut report = BatchReport::default();
    if gw.vendor_http.is_none() {
        return Ok(report);
    }
    let register = NationalRegister::Gamstop;
    for target in store::due_batches(gw.store.as_ref(), register).await? {
        if !target.setting.purposes.iter().any(|p| *p != CheckPurpose::Marketing) {
            continue;
        }
        match run_one(gw, &target, register).await {
            Ok(Some(players)) => {
                report.requests += 1;
                report.players += players;
            }
            Ok(None) => {}
            // one tenant's failure never stops another's run
            Err(error) => tracing::warn!(tenant_id = %target.tenant_id, code = error.code, "a register batch request failed"),
        }
    }
    Ok(report)
}

/// One due request of a tenant's run: the players whose answer was kept; `None` when none was sent (none due, another
/// host claimed it, or no identity of the players read opened).
async fn run_one(gw: &Gateway, target: &BatchTarget, register: NationalRegister) -> ApiResult<Option<usize>> {
    let environment = Environment::parse(&target.environment).ok_or_else(ApiError::internal)?;
    let now = gw.clock.now();
    let tenant_now = match environment {
        Environment::Sandbox => now.saturating_add(target.clock_offset_seconds),
        Environment::Production => now,
    };
    let now_ms = super::now_ms(gw);
    let tenant = target.tenant_id.as_str();
    // the run to go on with, or a new one when the last began a day ago
    let (started_at, cursor) = match &target.run {
        Some((started, cursor, next_at_ms, false)) => {
            if now_ms < *next_at_ms {
                return Ok(None);
            }
            (*started, cursor.clone())
        }
        Some((started, _, _, true)) if tenant_now < started.saturating_add(RUN_EVERY_SECONDS) => return Ok(None),
        _ => (tenant_now, String::new()),
    };
    let limit = i64::try_from(gw.config.work.register_batch_people.clamp(1, 1_000)).unwrap_or(1_000);
    let players = store::batch_players(gw.store.as_ref(), tenant, register, &cursor, limit).await?;
    if players.is_empty() {
        if matches!(&target.run, Some((s, c, _, false)) if *s == started_at && *c == cursor) {
            gw.store.batch(vec![store::finish_batch(tenant, register, started_at, &cursor, tenant_now)]).await?;
        }
        return Ok(None);
    }
    let plain = gw.open_secret(&target.setting.credentials, &super::aad(tenant, register)).map_err(|e| e.into_api_error())?;
    let Some(Credentials::Gamstop { api_key }) = Credentials::from_json(register, &plain) else {
        return Err(ApiError::internal().with_detail("stored register credentials are damaged".into()));
    };
    // the people of this request: as many as fit GAMSTOP's bound on its body
    let mut people: Vec<(&BatchPlayer, String, Opened)> = Vec::new();
    let mut bytes = 2;
    for player in &players {
        // an identity that does not open (a key retired without a reseal) is passed over
        let Some(mut opened) = open(gw, tenant, register, player) else { continue };
        let correlation = gw.new_id("rreq");
        opened.person.insert("correlationId".into(), Json::String(correlation.clone()));
        let size = Json::Object(opened.person.clone()).to_string().len() + 1;
        if bytes + size > MAX_REQUEST_BYTES {
            break;
        }
        bytes += size;
        people.push((player, correlation, opened));
    }
    // the cursor moves past every player read up to the last sent (an unreadable identity is skipped)
    let last = people.last().map_or_else(|| players.last().map(|p| p.user_id.clone()), |(p, _, _)| Some(p.user_id.clone()));
    let next_cursor = last.unwrap_or_default();
    let claim = store::claim_batch(tenant, register, target.run.as_ref(), started_at, &next_cursor, now_ms + REQUEST_GAP_MS);
    if !gw.commit(vec![claim]).await?.done() {
        return Ok(None);
    }
    if people.is_empty() {
        // a claim that moved the cursor past unreadable identities sent nothing
        return Ok(None);
    }
    let body = Json::Array(people.iter().map(|(_, _, p)| Json::Object(p.person.clone())).collect());
    let url = format!("{}/batch", target.setting.base_url.trim_end_matches('/'));
    let request = VendorRequest {
        method: "POST",
        url,
        headers: vec![
            ("content-type".into(), "application/json".into()),
            ("accept".into(), "application/json".into()),
            ("x-api-key".into(), api_key),
        ],
        body: body.to_string().into_bytes(),
        client_identity: None,
    };
    let started_ms = super::now_ms(gw);
    let answer = super::send_as(gw, environment, started_ms + REQUEST_BUDGET_MS as i64, request).await;
    let latency_ms = (super::now_ms(gw) - started_ms).max(0);
    let (answers, reason) = match &answer {
        Ok(response) => match read_batch(response) {
            Some(answers) => (answers, None),
            None => (Vec::new(), Some(super::Unusable::Answer.code(Some(response.status)))),
        },
        Err(why) => (Vec::new(), Some(why.code(None))),
    };
    let mut statements: Vec<Stmt> = Vec::new();
    let mut told = false;
    for (player, correlation, opened) in &people {
        let found = answers.iter().find(|(c, _, _)| c == correlation);
        let (status, reference, reason) = match found {
            Some((_, status, reference)) => (*status, reference.clone(), None),
            None => (RegisterStatus::Unavailable, None, Some(reason.clone().unwrap_or_else(|| "malformed".into()))),
        };
        let facts = RegisterCheckFacts {
            now: tenant_now,
            // the batch re-checks the play standing, as a login check does
            purpose: CheckPurpose::Login,
            exclusions: Vec::new(),
            answers: vec![RegisterAnswer { register, status, on_outage: OutagePolicy::Refuse, standing: player.status }],
        };
        let scope = Scope { environment, tenant_id: tenant.to_string(), user_id: player.user_id.clone() };
        let (decision, log) = gw.decide(&scope, Operation::RegisterCheck, &facts, |r, f| r.decide_register_check(f))?;
        let check_id = gw.new_id("rchk");
        let row = CheckRow {
            check_id: check_id.clone(),
            seq: 1,
            register: register.as_str().to_string(),
            purpose: Occasion::Batch,
            status,
            reference,
            reason,
            request_id: correlation.clone(),
            checked_at: tenant_now,
            at_ms: started_ms,
            latency_ms,
        };
        statements.push(store::insert_check(tenant, &player.user_id, &row));
        if decision.sets_standing {
            statements.push(store::set_standing(tenant, &player.user_id, register, status, Kept::default(), tenant_now, started_ms));
        }
        let found = super::Found { environment, tenant, user: &player.user_id, check_id: &check_id, email: &opened.email, phone: &opened.phone };
        statements.extend(decision.newly_excluded.iter().map(|register| found.event(gw, *register, tenant_now)));
        told |= !decision.newly_excluded.is_empty();
        statements.push(log.statement());
    }
    gw.store.batch(statements).await?;
    if told {
        gw.wake_delivery();
    }
    Ok(Some(people.len()))
}

/// GAMSTOP's batch answer: one `{exclusion, msRequestId, correlationId}` a
/// person, as `(correlation, status, reference)`; `None` when it is not that.
fn read_batch(response: &crate::ports::VendorResponse) -> Option<Vec<(String, RegisterStatus, Option<String>)>> {
    if response.status != 200 {
        return None;
    }
    let Ok(Json::Array(items)) = serde_json::from_slice::<Json>(&response.body) else { return None };
    let mut answers: Vec<(String, RegisterStatus, Option<String>)> = Vec::with_capacity(items.len());
    for item in &items {
        let Some(correlation) = item["correlationId"].as_str() else { continue };
        let status = match item["exclusion"].as_str().map(str::trim) {
            Some("Y") => RegisterStatus::Excluded,
            Some("N") => RegisterStatus::NotExcluded,
            Some("P") => RegisterStatus::PreviouslyExcluded,
            _ => continue,
        };
        answers.push((correlation.to_string(), status, super::adapters::reference(item["msRequestId"].as_str())));
    }
    // a person answered twice has no answer
    let twice: Vec<String> =
        answers.iter().filter(|(c, _, _)| answers.iter().filter(|(d, _, _)| d == c).count() > 1).map(|(c, _, _)| c.clone()).collect();
    answers.retain(|(c, _, _)| !twice.contains(c));
    Some(answers)
}
