//! A player's records kept exactly as long as the law says (issue #31,
//! items 3 and 4): the end of the business relationship, and erasure as a
//! job with legal holds.
//!
//! A job dates each class of the player's records from its profile's
//! retention table, in the component (`plan-erasure`, `retention-cutoffs`). What no law
//! requires is erased at once; what a law requires is restricted at once
//! (the player is hidden from operator reads) and held until its date, when
//! the scheduler's sweep erases it. An exclusion in force is never erased
//! (GDPR Art. 17(3)(b)); it goes once its profile's time after its end has
//! passed. AML material is never named: every job of every player lists the
//! same class with the same basis, dated from the relationship alone, so an
//! answer reveals no alert, case or filing (tipping-off). The same machinery
//! runs unasked for profiles whose law requires deletion, once a player's
//! relationship has ended and its first period passed.

pub mod store;

use hmac::{Hmac, Mac};
use rules_model::{ClassPlan, CutoffFacts, ErasureFacts, ErasurePlan, ExclusionSpan, Operation, RecordClass, RetentionCutoffs};
use serde::{Deserialize, Serialize};
use sha2::Sha256;
use utoipa::ToSchema;

use crate::auth::Environment;
use crate::error::{ApiError, ApiResult};
use crate::input::Fields;
use crate::input::{Body, FromBody, Path};
use crate::openapi::answer::{Accepted, Answer};
use crate::openapi::OperationDoc;
use crate::ports::Stmt;
use crate::{time, Ctx, Gateway};

/// How AML material is shown: never named (tipping-off).
pub const LEGAL_OBLIGATION_CLASS: &str = "records_under_legal_obligation";
pub const LEGAL_OBLIGATION_BASIS: &str = "retained under a legal obligation";

/// A job's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErasureState {
    /// stored by the request's first write, before its classes are dated;
    /// the same request dates it and moves it on (`held` or `erased`); a job
    /// left `validating` (its request stopped between the two writes) is
    /// dated by the scheduler's next sweep
    Validating,
    /// some classes wait for their date
    Held,
    /// every class is erased
    Erased,
}

impl ErasureState {
    pub fn as_str(self) -> &'static str {
        match self {
            ErasureState::Validating => "validating",
            ErasureState::Held => "held",
            ErasureState::Erased => "erased",
        }
    }

    fn parse(text: &str) -> Option<Self> {
        [ErasureState::Validating, ErasureState::Held, ErasureState::Erased].into_iter().find(|s| s.as_str() == text)
    }
}

/// Who asked for a job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestedBy {
    Operator,
    Admin,
    /// the sweep, when a class's retention date passed
    Retention,
}

impl RequestedBy {
    fn as_str(self) -> &'static str {
        match self {
            RequestedBy::Operator => "operator",
            RequestedBy::Admin => "admin",
            RequestedBy::Retention => "retention",
        }
    }

    fn parse(text: &str) -> Option<Self> {
        [RequestedBy::Operator, RequestedBy::Admin, RequestedBy::Retention].into_iter().find(|b| b.as_str() == text)
    }
}

/// The player's dates, as the rules read them (logged with the player's scope).
fn plan_of(gw: &Gateway, owner: &Owner<'_>, user_id: &str, facts: &ErasureFacts) -> ApiResult<ErasurePlan> {
    let scope = crate::decisions::Scope { environment: owner.environment, tenant_id: owner.tenant_id.to_string(), user_id: user_id.to_string() };
    let (plan, log) = gw.decide_or_refuse(&scope, Operation::ErasurePlan, facts, |r, f| r.plan_erasure(f))?;
    gw.defer(log);
    Ok(plan)
}

/// A profile's retention cutoffs at `now`.
pub(crate) fn cutoffs_of(gw: &Gateway, jurisdiction: &str, now: i64) -> ApiResult<RetentionCutoffs> {
    Ok(gw.rules.profile_cutoffs(&CutoffFacts { now, jurisdiction: jurisdiction.to_string() })??)
}

/// What dates the player's erasure.
fn erasure_facts(
    owner: &Owner<'_>,
    subject: &store::SubjectRow,
    exclusions: &[store::ExclusionRow],
    ended_at: Option<i64>,
    by: RequestedBy,
    now: i64,
) -> ErasureFacts {
    ErasureFacts {
        now,
        jurisdiction: owner.jurisdiction.to_string(),
        ended_at,
        asked: by != RequestedBy::Retention,
        last_active_at: subject.last_active_at,
        last_record_at: subject.last_record_at,
        exclusions: exclusions.iter().map(|e| ExclusionSpan { effective_from: e.effective_from, expires_at: e.expires_at }).collect(),
    }
}

/// The class as an operator sees it.
fn shown_class(class: RecordClass) -> &'static str {
    match class {
        RecordClass::AmlRecords => LEGAL_OBLIGATION_CLASS,
        other => other.as_str(),
    }
}

/// A class kept until its date.
#[derive(Debug, Serialize, ToSchema)]
pub struct HeldClass {
    /// the class of records (AML material is `records_under_legal_obligation`, never named further)
    pub class: String,
    /// when it will be erased; `null` while an exclusion with no end is in force
    pub until: Option<String>,
    /// the legal basis's code (`gdpr_17_3_b_exclusion_in_force`: an exclusion in force is never erased)
    pub basis: String,
}

/// An erasure job.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErasureView {
    pub erasure_id: String,
    pub state: ErasureState,
    /// the classes erased
    pub erased: Vec<String>,
    /// the classes a law keeps, each with its date and basis
    pub held: Vec<HeldClass>,
}

fn state_of(plans: &[ClassPlan]) -> ErasureState {
    if plans.iter().all(|p| p.erased_at.is_some()) {
        ErasureState::Erased
    } else {
        ErasureState::Held
    }
}

fn view(erasure_id: &str, state: ErasureState, plans: &[ClassPlan]) -> ErasureView {
    ErasureView {
        erasure_id: erasure_id.to_string(),
        state,
        erased: plans.iter().filter(|p| p.erased_at.is_some()).map(|p| shown_class(p.class).to_string()).collect(),
        held: plans
            .iter()
            .filter(|p| p.erased_at.is_none())
            .map(|p| HeldClass {
                class: shown_class(p.class).to_string(),
                until: p.until.map(time::format),
                basis: if p.class == RecordClass::AmlRecords { LEGAL_OBLIGATION_BASIS.to_string() } else { p.basis.clone() },
            })
            .collect(),
    }
}

fn view_of(job: &store::Job) -> ApiResult<ErasureView> {
    let plans: Vec<ClassPlan> = serde_json::from_str(&job.classes).map_err(|_| ApiError::internal())?;
    let state = ErasureState::parse(&job.state).ok_or_else(ApiError::internal)?;
    Ok(view(&job.erasure_id, state, &plans))
}

fn encode(plans: &[ClassPlan]) -> ApiResult<String> {
    serde_json::to_string(plans).map_err(|_| ApiError::internal())
}

fn next_due(plans: &[ClassPlan]) -> Option<i64> {
    plans.iter().filter(|p| p.erased_at.is_none()).filter_map(|p| p.until).min()
}

/// The keyed hash that replaces an e-mail address: the job's own key, dropped
/// when the job ends, so the hash links nothing afterwards.
fn keyed_hash(hash_key: Option<&str>, text: &str) -> String {
    let key = hash_key.unwrap_or("");
    let digest = match Hmac::<Sha256>::new_from_slice(key.as_bytes()) {
        Ok(mut mac) => {
            mac.update(text.as_bytes());
            hex::encode(mac.finalize().into_bytes())
        }
        Err(_) => String::new(),
    };
    format!("erased:{}", digest.get(..32).unwrap_or(&digest))
}

/// Where a job belongs.
struct Owner<'a> {
    tenant_id: &'a str,
    environment: Environment,
    jurisdiction: &'a str,
}

/// The statements that end a job: the event, and its audit.
fn completion(gw: &Gateway, owner: &Owner<'_>, erasure_id: &str, user_id: &str, now: i64) -> Vec<Stmt> {
    let data = crate::webhooks::events::ErasureCompletedData { erasure_id: erasure_id.to_string(), user_id: user_id.to_string() };
    vec![
        gw.outbox_event(owner.environment, Some(owner.tenant_id), crate::webhooks::events::ERASURE_COMPLETED, now, &data),
        audit(gw, owner, "erasure.completed", "every class erased", erasure_id, now),
    ]
}

fn audit(gw: &Gateway, owner: &Owner<'_>, action: &str, step: &str, erasure_id: &str, now: i64) -> Stmt {
    store::audit_step(&gw.new_id("aud"), owner.tenant_id, owner.environment.as_str(), action, step, erasure_id, now)
}

/// The player's shared exclusion events still owed to other operators,
/// each with its envelope minimised (issue #46): an exclusion in force is
/// sent with what the shared list compares (the e-mail's mailbox key and the
/// phone), one no longer in force with no contact (its `exclusion_id` names
/// it to an operator told of its start).
fn kept_events(pending: &[store::PendingExclusionEvent], now: i64) -> Vec<store::KeptEvent> {
    pending
        .iter()
        .filter_map(|e| {
            let in_force = !e.redacted && e.expires_at.is_none_or(|end| end > now);
            let (email, phone) = match in_force {
                true => (e.email_key.clone().or_else(|| e.email.as_deref().map(crate::input::email_key)), e.phone.clone()),
                false => (None, None),
            };
            let minimised = crate::webhooks::events::with_exclusion_contacts(&e.envelope, email, phone)?;
            Some(store::KeptEvent { event_id: e.event_id.clone(), envelope: e.envelope.clone(), minimised })
        })
        .collect()
}

/// The erasure of the classes whose date has come, each audited; `kept`:
/// the shared exclusion events still sent ([`kept_events`]).
#[allow(clippy::too_many_arguments)]
fn erase_due(
    gw: &Gateway,
    owner: &Owner<'_>,
    job: (&str, &str, RequestedBy),
    plans: &mut [ClassPlan],
    email: &str,
    hash_key: Option<&str>,
    kept: &[store::KeptEvent],
    filings_before: Option<i64>,
    now: i64,
) -> Vec<Stmt> {
    let (erasure_id, user_id, by) = job;
    // where the period runs from each record, a filing is kept its period from the filing itself (31 CFR 1021.320(d))
    let filings_from = filings_before.unwrap_or(i64::MAX);
    let mut statements = Vec::new();
    for p in plans.iter_mut().filter(|p| p.erased_at.is_none() && p.until.is_some_and(|u| u <= now)) {
        p.erased_at = Some(now);
    }
    for p in plans.iter().filter(|p| p.erased_at == Some(now)) {
        // an unasked job comes years after the relationship ended: the outbox
        // keeps payloads for days, so there is nothing of the player to scan for
        if !(p.class == RecordClass::WebhookPayloads && by == RequestedBy::Retention) {
            statements.extend(store::erase_class(p.class, owner.tenant_id, user_id, &keyed_hash(hash_key, email), filings_from, kept, now));
        }
        statements.push(audit(gw, owner, "erasure.class_erased", shown_class(p.class), erasure_id, now));
    }
    statements
}

/// A job as it is opened.
struct Opened {
    erasure_id: String,
    relationship_end: i64,
    hash_key: String,
    /// the player's row version after the opening's write (its close claimed it)
    user_version: i64,
}

/// The first write of a new job: stored `validating` with the end of the
/// relationship (a request ends it), audited.
fn open_job(
    gw: &Gateway,
    owner: &Owner<'_>,
    user_id: &str,
    subject: &store::SubjectRow,
    by: RequestedBy,
    now: i64,
) -> ApiResult<(Opened, Vec<Stmt>)> {
    // a request ends the relationship; unasked, the profile's inactivity does
    let relationship_end = plan_of(gw, owner, user_id, &erasure_facts(owner, subject, &[], subject.ended_at(), by, now))?.relationship_end;
    let closes = subject.ended_at().is_none() && by != RequestedBy::Retention;
    let opened = Opened {
        erasure_id: gw.new_id("era"),
        relationship_end,
        hash_key: hex::encode(gw.ids.random_bytes(32)),
        user_version: subject.version + i64::from(closes),
    };
    let mut statements = Vec::new();
    if closes {
        statements.push(store::claim_subject(owner.tenant_id, user_id, subject.version));
        statements.push(store::close(owner.tenant_id, user_id, now));
    }
    statements.push(audit(gw, owner, "erasure.requested", by.as_str(), &opened.erasure_id, now));
    statements.push(store::insert_job(store::NewJob {
        erasure_id: &opened.erasure_id,
        tenant_id: owner.tenant_id,
        user_id,
        state: ErasureState::Validating.as_str(),
        requested_by: by.as_str(),
        relationship_end,
        classes: "[]".to_string(),
        next_due_at: None,
        hash_key: Some(opened.hash_key.clone()),
        now,
    }));
    Ok((opened, statements))
}

/// The second write: the `validating` job dated, what is due erased, the
/// rest restricted, the job moved to `held` or `erased` (only if it is
/// still `validating`). `pending`: the player's shared exclusion events still
/// owed to other operators, sent minimised.
#[allow(clippy::too_many_arguments)]
fn date_job(
    gw: &Gateway,
    owner: &Owner<'_>,
    (user_id, by): (&str, RequestedBy),
    opened: &Opened,
    subject: &store::SubjectRow,
    exclusions: &[store::ExclusionRow],
    pending: &[store::PendingExclusionEvent],
    now: i64,
) -> ApiResult<(Vec<Stmt>, ErasureView)> {
    let plan = plan_of(gw, owner, user_id, &erasure_facts(owner, subject, exclusions, Some(opened.relationship_end), by, now))?;
    let erasure_id = opened.erasure_id.as_str();
    let mut plans = plan.classes;
    for p in &mut plans {
        p.erased_at = None;
    }
    let kept = kept_events(pending, now);
    let mut statements =
        erase_due(gw, owner, (erasure_id, user_id, by), &mut plans, &subject.email, Some(&opened.hash_key), &kept, plan.filings_before, now);
    // a retry of an earlier request about the player never replays its answer past the request (keys are
    // kept a day: a player the sweep erases unasked ended years ago, and its tick scans no tenant's keys)
    if by != RequestedBy::Retention {
        statements.push(store::forget_replies(owner.tenant_id, user_id));
    }
    let state = state_of(&plans);
    // restricted however much is erased at once: the id answers as unknown on every operator read from now on, and
    // the restriction moves the user's version, so a request about the player still running loses its batch and
    // runs again under it
    statements.push(store::claim_subject(owner.tenant_id, user_id, opened.user_version));
    statements.push(store::restrict(owner.tenant_id, user_id, now));
    statements.extend(store::forget_access_requests(owner.tenant_id, user_id));
    if state == ErasureState::Held {
        statements.push(audit(gw, owner, "erasure.restricted", "what a law keeps is hidden from operator reads until its date", erasure_id, now));
    } else {
        statements.extend(completion(gw, owner, erasure_id, user_id, now));
    }
    statements.push(store::validated_job(erasure_id, ErasureState::Validating.as_str(), state.as_str(), encode(&plans)?, next_due(&plans), now));
    Ok((statements, view(erasure_id, state, &plans)))
}

fn erasure_not_found() -> ApiError {
    ApiError::not_found("erasure_not_found", "no such erasure for this tenant")
}

/// Creates the job of a player, or answers the one made before.
async fn request(gw: &Gateway, owner: &Owner<'_>, user_id: &str, by: RequestedBy, now: i64) -> ApiResult<Accepted<ErasureView>> {
    until_committed!({
        if let Some(job) = store::job_of_user(gw.store.as_ref(), owner.tenant_id, user_id).await? {
            return Ok(Some(Accepted::new(&view_of(&job)?)?));
        }
        let (subject, exclusions, pending) =
            store::read_subject(gw.store.as_ref(), owner.tenant_id, user_id).await?.ok_or_else(ApiError::user_not_found)?;
        // first the job, `validating`: a repeat, or a request at the same time, answers it from here on
        let (opened, statements) = open_job(gw, owner, user_id, &subject, by, now)?;
        if !gw.commit(statements).await?.done() {
            return Ok(None);
        }
        // then its dates: a request that stops here leaves it `validating` for the sweep
        let (mut opened, mut subject, mut exclusions, mut pending) = (opened, subject, exclusions, pending);
        for _ in 0..crate::WRITE_ATTEMPTS {
            let (statements, body) = date_job(gw, owner, (user_id, by), &opened, &subject, &exclusions, &pending, now)?;
            if gw.commit(statements).await?.done() {
                return Ok(Some(Accepted::new(&body)?));
            }
            // the sweep dated it first (answered as stored), or a write about the player came first: dated afresh
            let job = store::job_of_user(gw.store.as_ref(), owner.tenant_id, user_id).await?.ok_or_else(ApiError::internal)?;
            if job.state != ErasureState::Validating.as_str() || job.erasure_id != opened.erasure_id {
                return Ok(Some(Accepted::new(&view_of(&job)?)?));
            }
            (subject, exclusions, pending) =
                store::read_subject(gw.store.as_ref(), owner.tenant_id, user_id).await?.ok_or_else(ApiError::internal)?;
            opened.user_version = subject.version;
        }
        Err(crate::api::busy())
    })
}

/// `POST /v1/users/{user_id}/erasure` (operator).
pub(crate) async fn request_erasure(gw: &Gateway, ctx: &Ctx<'_>, Path(user_id): Path) -> ApiResult<Accepted<ErasureView>> {
    let owner = Owner { tenant_id: &ctx.caller.tenant_id, environment: ctx.caller.environment, jurisdiction: &ctx.caller.jurisdiction };
    request(gw, &owner, &user_id, RequestedBy::Operator, ctx.now).await
}

/// `POST /v1/admin/users/{user_id}/erasure` (admin): `{"tenant_id"}` names the player's tenant.
pub(crate) async fn admin_request_erasure(
    gw: &Gateway,
    ctx: &Ctx<'_>,
    (Path(user_id), Body(AdminErasureRequest { tenant_id })): (Path, Body<AdminErasureRequest>),
) -> ApiResult<Accepted<ErasureView>> {
    let tenant_not_found = || ApiError::not_found("tenant_not_found", "no such tenant in this environment");
    let tenant = store::tenant_with_clock(gw.store.as_ref(), &tenant_id).await?.ok_or_else(tenant_not_found)?;
    if tenant.environment != ctx.caller.environment.as_str() {
        return Err(tenant_not_found());
    }
    let now = gw.clock.now().saturating_add(tenant.clock_offset_seconds);
    let owner = Owner { tenant_id: &tenant_id, environment: ctx.caller.environment, jurisdiction: &tenant.jurisdiction };
    request(gw, &owner, &user_id, RequestedBy::Admin, now).await
}

/// `GET /v1/erasures/{erasure_id}`: a tenant's own job; an admin's, any of its environment.
pub(crate) async fn get_erasure(gw: &Gateway, ctx: &Ctx<'_>, Path(erasure_id): Path) -> ApiResult<Answer<ErasureView>> {
    let (job, environment) = store::job_by_id(gw.store.as_ref(), &erasure_id).await?.ok_or_else(erasure_not_found)?;
    let visible = if ctx.caller.is_admin { environment == ctx.caller.environment.as_str() } else { job.tenant_id == ctx.caller.tenant_id };
    if !visible {
        return Err(erasure_not_found());
    }
    Answer::new(&view_of(&job)?)
}

/// The end of a relationship.
#[derive(Debug, Serialize, ToSchema)]
pub struct Closed {
    pub user_id: String,
    /// when the relationship ended (a second close answers the first's time)
    pub closed_at: String,
}

/// `POST /v1/users/{user_id}/close` (operator): records the end of the business relationship, once.
pub(crate) async fn close(gw: &Gateway, ctx: &Ctx<'_>, Path(user_id): Path) -> ApiResult<Answer<Closed>> {
    let user_id = user_id.as_str();
    let tenant_id = &ctx.caller.tenant_id;
    let closed_at = until_committed!({
        let (closed, version) = store::ended_at(gw.store.as_ref(), tenant_id, user_id).await?.ok_or_else(ApiError::user_not_found)?;
        if let Some(at) = closed {
            return Ok(Some(at));
        }
        let owner = Owner { tenant_id, environment: ctx.caller.environment, jurisdiction: &ctx.caller.jurisdiction };
        let statements = vec![
            store::claim_subject(tenant_id, user_id, version),
            store::close(tenant_id, user_id, ctx.now),
            audit(gw, &owner, "user.closed", "relationship ended", user_id, ctx.now),
        ];
        // another write to the player came first: read again
        if !gw.commit(statements).await?.done() {
            return Ok(None);
        }
        Ok(Some(ctx.now))
    })?;
    Answer::new(&Closed { user_id: user_id.to_string(), closed_at: time::format(closed_at) })
}

/// The admin's request body.
#[derive(Debug, Deserialize, ToSchema)]
pub(crate) struct AdminErasureRequest {
    /// the player's tenant
    tenant_id: String,
}

impl FromBody for AdminErasureRequest {
    fn from_body(body: &[u8], gw: &Gateway, _: &Ctx<'_>) -> ApiResult<Self> {
        let mut f = Fields::from_body(body, gw.rules.as_ref())?;
        let tenant_id = f.text("tenant_id");
        f.finish()?;
        Ok(AdminErasureRequest { tenant_id })
    }
}

pub(crate) fn close_doc() -> OperationDoc {
    OperationDoc::new("service", "end a player's business relationship")
        .describe("Records the end of the business relationship: each class of the player's records is kept its jurisdiction profile's period from it (without a close, the profile's inactivity fallback ends it). A second close answers the first's time.")
        .errors(&[404])
}

pub(crate) fn request_erasure_doc() -> OperationDoc {
    OperationDoc::new("service", "erase a player's records")
        .describe("Creates the player's erasure job (or answers the one made before): what no law requires is erased at once, what a law requires is hidden from operator reads and held until its date (`held`, with its basis). An exclusion in force is never erased (GDPR Art. 17(3)(b)); a shared exclusion event still owed to another operator is sent, its contacts minimised, not deleted. Completion fires `user.erasure_completed`.")
        .answers("the job")
        .errors(&[404])
}

pub(crate) fn admin_request_erasure_doc() -> OperationDoc {
    OperationDoc::new("admin", "erase a player's records (admin)")
        .describe("As `POST /v1/users/{user_id}/erasure`, for the player of `tenant_id` in the admin's environment.")
        .answers("the job")
        .errors(&[400, 404])
}

pub(crate) fn get_erasure_doc() -> OperationDoc {
    OperationDoc::new("service", "an erasure job").answers("the job").errors(&[404])
}

/// What one round of the erasure sweep did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ErasureRound {
    /// jobs moved on or made
    pub jobs: i64,
    /// more were due than one round takes
    pub more: bool,
}

type Tenants = std::collections::BTreeMap<String, (String, Environment, i64)>;

/// A tenant's jurisdiction, environment and clock at the service's `now` (a
/// sandbox tenant's runs ahead by what it advanced), read once a round.
async fn owner_of(gw: &Gateway, tenants: &mut Tenants, tenant_id: &str, now: i64) -> ApiResult<Option<(String, Environment, i64)>> {
    if let Some(found) = tenants.get(tenant_id) {
        return Ok(Some(found.clone()));
    }
    let Some(tenant) = store::tenant_with_clock(gw.store.as_ref(), tenant_id).await? else { return Ok(None) };
    let environment = Environment::parse(&tenant.environment).ok_or_else(ApiError::internal)?;
    let found = (tenant.jurisdiction, environment, now.saturating_add(tenant.clock_offset_seconds));
    tenants.insert(tenant_id.to_string(), found.clone());
    Ok(Some(found))
}

/// Jobs one write of the sweep carries: a write this small never holds the
/// store long, and the sweep yields between writes, so the request paths
/// keep their speed while it runs (docs/benchmarks.md).
pub const SWEEP_CHUNK: usize = 10;

/// Gives the executor a turn between two writes of the sweep.
#[derive(Default)]
pub(crate) struct YieldNow(bool);

impl std::future::Future for YieldNow {
    type Output = ();
    fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<()> {
        if self.0 {
            return std::task::Poll::Ready(());
        }
        self.0 = true;
        cx.waker().wake_by_ref();
        std::task::Poll::Pending
    }
}

/// Commits one chunk's statements, counting its jobs when it committed
/// (another writer moved a job on first: the next round reads afresh), and
/// yields.
async fn commit_chunk(gw: &Gateway, statements: Vec<Stmt>, jobs: i64, round: &mut ErasureRound) -> ApiResult<()> {
    if !statements.is_empty() {
        if gw.commit(statements).await?.done() {
            round.jobs += jobs;
        } else {
            round.more = true;
        }
    }
    YieldNow(false).await;
    Ok(())
}

/// At most `budget` of `found` (one more was asked for: `more` says it was there).
fn take<T>(found: Vec<T>, budget: i64, round: &mut ErasureRound) -> Vec<T> {
    let budget = usize::try_from(budget.max(0)).unwrap_or(usize::MAX);
    round.more |= found.len() > budget;
    found.into_iter().take(budget).collect()
}

/// One bounded round: at most `batch` jobs in all (those a stopped request
/// left `validating`, held jobs whose next class is due, and players whose
/// relationship ended long enough ago, given a job unasked under each
/// profile whose law requires deletion), written [`SWEEP_CHUNK`] jobs at a
/// time with a yield between writes; then the filings of players who asked
/// whose own period has passed, as many players again. What is left waits
/// for the next round (`more`). `now` is the service's: each tenant's players
/// are dated on its own clock (a sandbox tenant's runs ahead by what it advanced).
pub async fn sweep(gw: &Gateway, now: i64, batch: i64) -> ApiResult<ErasureRound> {
    let mut round = ErasureRound::default();
    let mut budget = batch.max(1);
    let mut tenants = Tenants::new();
    // jobs a stopped request left `validating`, and held jobs whose next class is due
    let mut jobs =
        take(store::stalled_jobs(gw.store.as_ref(), ErasureState::Validating.as_str(), now, budget.saturating_add(1)).await?, budget, &mut round);
    budget -= jobs.len() as i64;
    if budget > 0 {
        let due = store::due_jobs(gw.store.as_ref(), ErasureState::Held.as_str(), now, budget.saturating_add(1)).await?;
        jobs.extend(take(due, budget, &mut round));
        budget = batch.max(1) - jobs.len() as i64;
    } else {
        round.more = true;
    }
    for chunk in jobs.chunks(SWEEP_CHUNK) {
        let reads = chunk.iter().flat_map(|j| store::subject_reads(&j.tenant_id, &j.external_user_id)).collect();
        let subjects = gw.store.query_many(reads).await?;
        let mut statements = Vec::new();
        let mut moved = 0;
        for (job, rows) in chunk.iter().zip(subjects.chunks(3)) {
            let Some((jurisdiction, environment, now)) = owner_of(gw, &mut tenants, &job.tenant_id, now).await? else { continue };
            let owner = Owner { tenant_id: &job.tenant_id, environment, jurisdiction: &jurisdiction };
            let Some((subject, exclusions)) = store::subject_from(rows)? else { continue };
            if job.state == ErasureState::Validating.as_str() {
                let by = RequestedBy::parse(&job.requested_by).ok_or_else(ApiError::internal)?;
                let opened = Opened {
                    erasure_id: job.erasure_id.clone(),
                    relationship_end: job.relationship_end,
                    hash_key: job.hash_key.clone().unwrap_or_default(),
                    user_version: subject.version,
                };
                // a stopped request's job: the exclusion events still owed to other operators are read afresh
                let pending = match by {
                    RequestedBy::Retention => Vec::new(),
                    _ => store::read_pending_exclusion_events(gw.store.as_ref(), &job.tenant_id, &job.external_user_id).await?,
                };
                let (dated, _) = date_job(gw, &owner, (&job.external_user_id, by), &opened, &subject, &exclusions, &pending, now)?;
                statements.extend(dated);
                moved += 1;
                continue;
            }
            let mut plans: Vec<ClassPlan> = serde_json::from_str(&job.classes).map_err(|_| ApiError::internal())?;
            let erased = erase_due(
                gw,
                &owner,
                (&job.erasure_id, &job.external_user_id, RequestedBy::Operator),
                &mut plans,
                &subject.email,
                job.hash_key.as_deref(),
                &[],
                cutoffs_of(gw, owner.jurisdiction, now)?.filings_before,
                now,
            );
            // a class erased writes the player's state: its batch claims the player (one job a player: one claim)
            if !erased.is_empty() {
                statements.push(store::claim_subject(owner.tenant_id, &job.external_user_id, subject.version));
            }
            statements.extend(erased);
            let state = state_of(&plans);
            if state == ErasureState::Erased {
                // the team's decisions on the restricted player's cases told the operator
                // (ids and statuses only): those events go with the job too (an unasked
                // job's player ended years before it: nothing to scan the outbox for)
                if RequestedBy::parse(&job.requested_by) != Some(RequestedBy::Retention) {
                    let pending = store::read_pending_exclusion_events(gw.store.as_ref(), &job.tenant_id, &job.external_user_id).await?;
                    statements.extend(store::erase_payloads(owner.tenant_id, &job.external_user_id, &kept_events(&pending, now)));
                }
                statements.extend(completion(gw, &owner, &job.erasure_id, &job.external_user_id, now));
            }
            statements.push(store::advance_job(&job.erasure_id, state.as_str(), encode(&plans)?, next_due(&plans), job.updated_at, now));
            moved += 1;
        }
        commit_chunk(gw, statements, moved, &mut round).await?;
    }
    // a profile no tenant has is skipped: its queries would walk the other profiles' players for nothing
    let in_use = crate::retention::store::jurisdictions_in_use(gw.store.as_ref()).await?;
    // unasked: players whose relationship ended and whose first period passed
    for profile in gw.rules.jurisdictions() {
        if budget <= 0 {
            break;
        }
        if !in_use.contains(&profile.name) {
            continue;
        }
        let Some(unasked) = cutoffs_of(gw, &profile.name, now)?.unasked else {
            continue;
        };
        let (ended_before, idle_before) = (unasked.ended_before, unasked.idle_before);
        let candidates = store::unasked_candidates(gw.store.as_ref(), &profile.name, ended_before, idle_before, budget.saturating_add(1)).await?;
        let candidates = take(candidates, budget, &mut round);
        budget -= candidates.len() as i64;
        for chunk in candidates.chunks(SWEEP_CHUNK) {
            let reads = chunk.iter().flat_map(|(t, u)| store::subject_reads(t, u)).collect();
            let subjects = gw.store.query_many(reads).await?;
            let mut statements = Vec::new();
            let mut made = 0;
            for ((tenant_id, user_id), rows) in chunk.iter().zip(subjects.chunks(3)) {
                let Some((jurisdiction, environment, now)) = owner_of(gw, &mut tenants, tenant_id, now).await? else { continue };
                let Some((subject, exclusions)) = store::subject_from(rows)? else { continue };
                let owner = Owner { tenant_id, environment, jurisdiction: &jurisdiction };
                // opened and dated in one write: nobody waits on an unasked job
                let (opened, open) = open_job(gw, &owner, user_id, &subject, RequestedBy::Retention, now)?;
                let (dated, _) = date_job(gw, &owner, (user_id, RequestedBy::Retention), &opened, &subject, &exclusions, &[], now)?;
                statements.extend(open);
                statements.extend(dated);
                made += 1;
            }
            commit_chunk(gw, statements, made, &mut round).await?;
        }
    }
    // filings kept their own period past the class (31 CFR 1021.320(d)), of players who asked
    let mut filings_budget = batch.max(1);
    for profile in gw.rules.jurisdictions() {
        if !in_use.contains(&profile.name) {
            continue;
        }
        let Some(cutoff) = cutoffs_of(gw, &profile.name, now)?.filings_before else {
            continue;
        };
        if filings_budget <= 0 {
            break;
        }
        let players = take(
            store::expired_filings(gw.store.as_ref(), &profile.name, cutoff, filings_budget.saturating_add(1)).await?,
            filings_budget,
            &mut round,
        );
        filings_budget -= players.len() as i64;
        for chunk in players.chunks(SWEEP_CHUNK) {
            let statements: Vec<Stmt> = chunk
                .iter()
                .flat_map(|(t, u, offset)| store::erase_filed(t, u, cutoff.saturating_add(*offset), now.saturating_add(*offset), false))
                .collect();
            commit_chunk(gw, statements, 0, &mut round).await?;
        }
    }
    Ok(round)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value as Json;

    const DAY: i64 = 86_400;

    #[test]
    fn an_owed_exclusion_event_keeps_only_what_the_list_compares() {
        let envelope = |event: &str| {
            serde_json::json!({ "event": event, "event_id": "evt_1", "timestamp": "2026-01-01T00:00:00Z",
                "data": { "exclusion_id": "exc_1", "user_email": "ann.lee+casino@gmail.com", "user_phone": "447700900123",
                          "duration": "duration_6m", "is_permanent": false, "expires_at": null, "source": "operator" } })
            .to_string()
        };
        let pending = |event: &str, expires_at: Option<i64>, redacted: bool| store::PendingExclusionEvent {
            event_id: "evt_1".into(),
            envelope: envelope(event),
            email: Some("ann.lee+casino@gmail.com".into()),
            email_key: None,
            phone: Some("447700900123".into()),
            expires_at,
            redacted,
        };
        let data =
            |kept: &[store::KeptEvent]| -> Json { serde_json::from_str::<Json>(&kept[0].minimised).map(|v| v["data"].clone()).unwrap_or_default() };
        // in force: the mailbox key and the phone, the terms unchanged
        let kept = kept_events(&[pending("exclusion.created", Some(2 * DAY), false)], DAY);
        assert_eq!(data(&kept)["user_email"], "annlee@gmail.com");
        assert_eq!(data(&kept)["user_phone"], "447700900123");
        assert_eq!(data(&kept)["duration"], "duration_6m");
        assert_eq!(kept[0].envelope, envelope("exclusion.created"));
        // ended or redacted: no contact; its id names it
        for (expires_at, redacted) in [(Some(DAY), false), (None, true)] {
            let kept = kept_events(&[pending("exclusion.expired", expires_at, redacted)], DAY);
            assert_eq!((data(&kept)["user_email"].clone(), data(&kept)["user_phone"].clone()), (Json::Null, Json::Null));
            assert_eq!(data(&kept)["exclusion_id"], "exc_1");
        }
        // the twin: an envelope of another kind is never kept (it is erased as before)
        assert!(kept_events(&[pending("limit.created", None, false)], DAY).is_empty());
    }

    #[test]
    fn aml_material_is_shown_only_as_a_legal_obligation() {
        let now = 10_000 * DAY;
        let facts = ErasureFacts {
            now,
            jurisdiction: "GB".into(),
            ended_at: Some(now),
            asked: true,
            last_active_at: now,
            last_record_at: None,
            exclusions: vec![],
        };
        let plans = rules::plan_erasure(&facts).unwrap().classes;
        let shown = serde_json::to_string(&view("era_1", state_of(&plans), &plans)).unwrap();
        assert!(shown.contains(LEGAL_OBLIGATION_CLASS) && shown.contains(LEGAL_OBLIGATION_BASIS));
        for word in ["aml", "alert", "case", "filing", "sar"] {
            assert!(!shown.to_lowercase().contains(word), "{word} in {shown}");
        }
    }
}
