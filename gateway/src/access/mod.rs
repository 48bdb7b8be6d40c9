//! A player's access request (GDPR art. 15 and its counterparts; issue #48
//! item 6): the operator asks, the compliance team releases, the operator
//! hands the export to the player.
//!
//! The job is dated by the rules (`plan-access-request`: the profile's
//! period and the law on which suspicion material is withheld). The export
//! holds, record by record, what the gateway keeps about the player as the
//! operator sees it. Records that would reveal a suspicion (AML alerts and
//! cases, filings, the team's notes on them, an AML hold's reason, a
//! sanctions standing that tells of a hit, and the events sent about the
//! player that tell of a screening's outcome or an alert, as the rules list
//! them) never enter it: each is listed as a withholding with its basis, and the release is a case of the team's
//! queue, proposed and approved as every case is (four-eyes where it
//! applies). Every request takes those same steps, whether or not anything
//! is withheld, and every export has the same shape and the same notice: a
//! player with AML material and one without cannot be told apart by the
//! states, the timing or the answer.

pub(crate) mod store;

use rules_model::{AccessRequestFacts, AccessRequestPlan, EventKind, Operation, SanctionsStatus};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use crate::auth::Environment;
use crate::decisions::{DecisionLog, Scope};
use crate::error::{ApiError, ApiResult};
use crate::input::Path;
use crate::openapi::answer::{Accepted, Answer};
use crate::openapi::OperationDoc;
use crate::ports::{Row, Stmt};
use crate::{time, Ctx, Gateway};

pub(crate) use store::Job;

/// The prefix of an access request's id (and of its case in the team's queue).
pub(crate) const ID_PREFIX: &str = "acr";

/// What every export says about what it holds: the same words for every player.
pub const NOTICE: &str = "These are the records the Compliance Gateway keeps about you for this operator. \
     Where the law allows or requires it, some information may be withheld from an answer to a request for access.";

/// Where a request stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AccessState {
    /// awaiting the compliance team's release
    Preparing,
    /// released: `export` is the answer
    Ready,
    /// the operator handed the export to the player
    Delivered,
}

impl AccessState {
    const ALL: [AccessState; 3] = [AccessState::Preparing, AccessState::Ready, AccessState::Delivered];

    pub(crate) fn as_str(self) -> &'static str {
        match self {
            AccessState::Preparing => "preparing",
            AccessState::Ready => "ready",
            AccessState::Delivered => "delivered",
        }
    }

    pub(crate) fn parse(text: &str) -> Option<AccessState> {
        AccessState::ALL.into_iter().find(|s| s.as_str() == text)
    }
}

// ---------------------------------------------------------------- the export

/// Who the player is, as the operator gave it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AccessExportIdentity {
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub date_of_birth: Option<String>,
    pub nationality: Option<String>,
    /// the contacts the identity check was given
    pub kyc_email: Option<String>,
    pub kyc_phone: Option<String>,
    pub created_at: String,
    /// when the business relationship ended, if it has
    pub closed_at: Option<String>,
}

/// When the player was screened. Its standing is never carried: a standing
/// shown only when clear would tell the others theirs by its absence.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AccessExportScreening {
    pub screen_id: String,
    pub last_screened_at: String,
    /// the verified KYC tier, and since when
    pub verified_tier: String,
    pub verified_at: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AccessExportKycCheck {
    pub kyc_check_id: String,
    pub target_tier: String,
    pub status: String,
    pub created_at: String,
    pub updated_at: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AccessExportWithdrawal {
    pub withdrawal_id: String,
    /// minor units of `currency`
    pub amount: i64,
    pub currency: String,
    pub status: String,
    pub created_at: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AccessExportExclusion {
    pub exclusion_id: String,
    pub duration: String,
    pub source: String,
    pub effective_from: String,
    pub expires_at: Option<String>,
    pub email: Option<String>,
    pub phone: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AccessExportLimit {
    pub limit_id: String,
    pub limit_type: String,
    pub amount: i64,
    pub currency: String,
    pub status: String,
    pub effective_from: String,
    pub cancelled_at: Option<String>,
    pub created_at: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AccessExportDeposit {
    pub transaction_id: String,
    pub amount: i64,
    pub currency: String,
    pub at: String,
}

/// A transaction the operator reported, as reported.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AccessExportTransaction {
    pub transaction_id: String,
    pub received_at: String,
    #[schema(value_type = Object)]
    pub event: serde_json::Value,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AccessExportRegisterCheck {
    pub register: String,
    pub purpose: String,
    pub status: String,
    /// the register's own reference
    pub reference: Option<String>,
    pub checked_at: String,
}

/// A webhook event sent to the operator about the player.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AccessExportEvent {
    pub event_id: String,
    pub event: String,
    pub created_at: String,
    #[schema(value_type = Object)]
    pub data: serde_json::Value,
}

/// Everything the gateway holds about a player, record by record, as the
/// operator sees it. Every export has every field (a kind with no records
/// is an empty list) and the same `notice`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AccessExport {
    pub user_id: String,
    pub generated_at: String,
    pub notice: String,
    pub identity: AccessExportIdentity,
    pub screening: AccessExportScreening,
    pub kyc_checks: Vec<AccessExportKycCheck>,
    pub withdrawals: Vec<AccessExportWithdrawal>,
    pub exclusions: Vec<AccessExportExclusion>,
    pub limits: Vec<AccessExportLimit>,
    pub deposits: Vec<AccessExportDeposit>,
    pub transactions: Vec<AccessExportTransaction>,
    pub register_checks: Vec<AccessExportRegisterCheck>,
    pub webhook_events: Vec<AccessExportEvent>,
}

/// What kind of record is withheld.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum WithheldKind {
    AmlAlert,
    AmlCase,
    Filing,
    /// the team's note on an AML case
    CaseNote,
    /// why the player's withdrawals are held
    HoldReason,
    /// a webhook event that tells of a screening's outcome or an alert
    WebhookEvent,
    /// the player's sanctions standing, when it tells of a hit
    ScreeningStanding,
}

/// One record withheld from the export, with its legal basis (the team's view only).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
pub struct Withholding {
    pub kind: WithheldKind,
    /// the record's id
    pub record_id: String,
    /// the basis's stable code, from the rules (`uk_dpa_2018_sch2_para2`, …)
    pub basis: String,
}

/// The export and what is withheld from it, read now.
pub(crate) struct Draft {
    pub export: AccessExport,
    pub withheld: Vec<Withholding>,
}

/// A digest of withholdings: a release proposed on other withholdings is
/// dropped. Webhook events are left out: the outbox's pruning of delivered
/// events changes no suspicion material.
pub(crate) fn withheld_digest(withheld: &[Withholding]) -> String {
    let text: Vec<String> =
        withheld.iter().filter(|w| w.kind != WithheldKind::WebhookEvent).map(|w| format!("{:?}:{}:{}", w.kind, w.record_id, w.basis)).collect();
    hex::encode(Sha256::digest(text.join(",").as_bytes()))
}

fn at(row: &Row, i: usize) -> ApiResult<String> {
    Ok(time::format(row.int(i)?))
}

fn opt_at(row: &Row, i: usize) -> ApiResult<Option<String>> {
    Ok(row.opt_int(i)?.map(time::format))
}

fn json_of(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or(serde_json::Value::Null)
}

/// The draft of a player's export at `now`, withheld as the rules' `plan`
/// says; `None` for an unknown or restricted player.
pub(crate) async fn draft(gw: &Gateway, tenant_id: &str, user_id: &str, plan: &AccessRequestPlan, now: i64) -> ApiResult<Option<Draft>> {
    let basis = plan.withhold_basis.as_str();
    let Some(h) = store::holdings(gw.store.as_ref(), tenant_id, user_id).await? else {
        return Ok(None);
    };
    let Some(u) = h.identity.as_ref() else {
        return Ok(None);
    };
    let mut withheld = Vec::new();
    let mut withhold = |kind: WithheldKind, record_id: String| withheld.push(Withholding { kind, record_id, basis: basis.to_string() });
    for (rows, kind) in [
        (&h.alerts, WithheldKind::AmlAlert),
        (&h.aml_cases, WithheldKind::AmlCase),
        (&h.filings, WithheldKind::Filing),
        (&h.case_notes, WithheldKind::CaseNote),
    ] {
        for row in rows {
            withhold(kind, row.text(0)?);
        }
    }
    if u.int(15)? != 0 {
        withhold(WithheldKind::HoldReason, user_id.to_string());
    }
    if SanctionsStatus::parse(&u.text(8)?).is_some_and(|s| plan.withheld_standings.contains(&s)) {
        withhold(WithheldKind::ScreeningStanding, u.text(10)?);
    }
    let mut webhook_events = Vec::new();
    for row in &h.events {
        let (event_id, event) = (row.text(0)?, row.text(1)?);
        if EventKind::parse(&event).is_some_and(|k| plan.withheld_events.contains(&k)) {
            withhold(WithheldKind::WebhookEvent, event_id);
            continue;
        }
        let data = json_of(&row.text(2)?).get("data").cloned().unwrap_or(serde_json::Value::Null);
        webhook_events.push(AccessExportEvent { event_id, event, created_at: at(row, 3)?, data });
    }
    let export = AccessExport {
        user_id: u.text(0)?,
        generated_at: time::format(now),
        notice: NOTICE.to_string(),
        identity: AccessExportIdentity {
            email: u.text(1)?,
            first_name: u.text(2)?,
            last_name: u.text(3)?,
            date_of_birth: u.opt_text(4)?,
            nationality: u.opt_text(5)?,
            kyc_email: u.opt_text(6)?,
            kyc_phone: u.opt_text(7)?,
            created_at: at(u, 13)?,
            closed_at: opt_at(u, 14)?,
        },
        screening: AccessExportScreening {
            last_screened_at: at(u, 9)?,
            screen_id: u.text(10)?,
            verified_tier: u.text(11)?,
            verified_at: opt_at(u, 12)?,
        },
        kyc_checks: h
            .kyc_checks
            .iter()
            .map(|r| {
                Ok(AccessExportKycCheck {
                    kyc_check_id: r.text(0)?,
                    target_tier: r.text(1)?,
                    status: r.text(2)?,
                    created_at: at(r, 3)?,
                    updated_at: at(r, 4)?,
                })
            })
            .collect::<ApiResult<_>>()?,
        withdrawals: h
            .withdrawals
            .iter()
            .map(|r| {
                Ok(AccessExportWithdrawal {
                    withdrawal_id: r.text(0)?,
                    amount: r.int(1)?,
                    currency: r.text(2)?,
                    status: r.text(3)?,
                    created_at: at(r, 4)?,
                })
            })
            .collect::<ApiResult<_>>()?,
        exclusions: h
            .exclusions
            .iter()
            .map(|r| {
                Ok(AccessExportExclusion {
                    exclusion_id: r.text(0)?,
                    duration: r.text(1)?,
                    source: r.text(2)?,
                    effective_from: at(r, 3)?,
                    expires_at: opt_at(r, 4)?,
                    email: r.opt_text(5)?,
                    phone: r.opt_text(6)?,
                })
            })
            .collect::<ApiResult<_>>()?,
        limits: h
            .limits
            .iter()
            .map(|r| {
                Ok(AccessExportLimit {
                    limit_id: r.text(0)?,
                    limit_type: r.text(1)?,
                    amount: r.int(2)?,
                    currency: r.text(3)?,
                    status: r.text(4)?,
                    effective_from: at(r, 5)?,
                    cancelled_at: opt_at(r, 6)?,
                    created_at: at(r, 7)?,
                })
            })
            .collect::<ApiResult<_>>()?,
        deposits: h
            .deposits
            .iter()
            .map(|r| Ok(AccessExportDeposit { transaction_id: r.text(0)?, amount: r.int(1)?, currency: r.text(2)?, at: at(r, 3)? }))
            .collect::<ApiResult<_>>()?,
        transactions: h
            .transactions
            .iter()
            .map(|r| Ok(AccessExportTransaction { transaction_id: r.text(0)?, event: json_of(&r.text(1)?), received_at: at(r, 2)? }))
            .collect::<ApiResult<_>>()?,
        register_checks: h
            .register_checks
            .iter()
            .map(|r| {
                Ok(AccessExportRegisterCheck {
                    register: r.text(0)?,
                    purpose: r.text(1)?,
                    status: r.text(2)?,
                    reference: r.opt_text(3)?,
                    checked_at: at(r, 4)?,
                })
            })
            .collect::<ApiResult<_>>()?,
        webhook_events,
    };
    withheld.sort();
    Ok(Some(Draft { export, withheld }))
}

// ---------------------------------------------------------------- the rules

fn facts_of(job: &Job) -> AccessRequestFacts {
    AccessRequestFacts { received_at: job.received_at, jurisdiction: job.jurisdiction.clone() }
}

/// The request's dates and basis under its profile, with the log of the
/// decision, for the batch of the change it makes (the request, its release).
pub(crate) fn plan(gw: &Gateway, job: &Job) -> ApiResult<(AccessRequestPlan, DecisionLog)> {
    let scope = Scope { environment: job.environment, tenant_id: job.tenant_id.clone(), user_id: job.user_id.clone() };
    gw.decide_or_refuse(&scope, Operation::AccessRequest, &facts_of(job), |r, f| r.plan_access_request(f))
}

/// The same, to show: nothing is decided by reading.
fn plan_shown(gw: &Gateway, job: &Job) -> ApiResult<AccessRequestPlan> {
    Ok(gw.rules.plan_access_request(&facts_of(job))??)
}

// ---------------------------------------------------------------- the operators' API

/// An access request, as the operator sees it.
#[derive(Debug, Serialize, ToSchema)]
pub struct AccessRequestView {
    pub access_request_id: String,
    pub state: AccessState,
    /// when the answer is due under the tenant's profile
    pub due_at: String,
    pub received_at: String,
    /// when the operator said the export was handed over
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delivered_at: Option<String>,
    /// the answer, once the team released it
    #[serde(skip_serializing_if = "Option::is_none")]
    pub export: Option<AccessExport>,
}

fn view(job: &Job) -> ApiResult<AccessRequestView> {
    let export = match (&job.export, job.state) {
        (Some(text), AccessState::Ready | AccessState::Delivered) => Some(serde_json::from_str(text).map_err(|_| ApiError::internal())?),
        _ => None,
    };
    Ok(AccessRequestView {
        access_request_id: job.access_request_id.clone(),
        state: job.state,
        due_at: time::format(job.due_at),
        received_at: time::format(job.received_at),
        delivered_at: job.delivered_at.map(time::format),
        export,
    })
}

fn not_found() -> ApiError {
    ApiError::not_found("access_request_not_found", "no such access request for this tenant")
}

/// `POST /v1/users/{user_id}/access-request`: a new job, or the player's open one.
pub(crate) async fn request_access(gw: &Gateway, ctx: &Ctx<'_>, Path(user_id): Path) -> ApiResult<Accepted<AccessRequestView>> {
    let tenant_id = ctx.caller.tenant_id.as_str();
    until_committed!({
        let Some(user) = crate::users::store::find(gw.store.as_ref(), tenant_id, &user_id).await? else {
            return Err(ApiError::user_not_found());
        };
        if let Some(open) = store::open_of_user(gw.store.as_ref(), tenant_id, &user_id).await? {
            return Ok(Some(Accepted::new(&view(&open)?)?));
        }
        let mut job = Job {
            access_request_id: gw.new_id(ID_PREFIX),
            tenant_id: tenant_id.to_string(),
            environment: ctx.caller.environment,
            user_id: user_id.to_string(),
            state: AccessState::Preparing,
            received_at: ctx.now,
            due_at: 0,
            withheld: "[]".into(),
            export: None,
            delivered_at: None,
            jurisdiction: ctx.caller.jurisdiction.clone(),
        };
        let (dates, log) = plan(gw, &job)?;
        job.due_at = dates.due_at;
        // the claim: an erasure's restriction racing this request wins or loses whole, never leaving a job behind
        if !gw.commit(vec![gw.claim_user(ctx, &user), store::insert(&job, ctx.now), log.statement()]).await?.done() {
            return Ok(None);
        }
        Ok(Some(Accepted::new(&view(&job)?)?.decided(log.decision_id())))
    })
}

/// The tenant's request by id (an admin key sees its environment's).
async fn visible(gw: &Gateway, ctx: &Ctx<'_>, access_request_id: &str) -> ApiResult<Job> {
    let job = store::by_id(gw.store.as_ref(), access_request_id).await?.ok_or_else(not_found)?;
    let seen = if ctx.caller.is_admin { job.environment == ctx.caller.environment } else { job.tenant_id == ctx.caller.tenant_id };
    if !seen {
        return Err(not_found());
    }
    // a restricted player's request answers as unknown, as the player does
    if crate::users::store::find(gw.store.as_ref(), &job.tenant_id, &job.user_id).await?.is_none() {
        return Err(not_found());
    }
    Ok(job)
}

/// `GET /v1/access-requests/{access_request_id}`.
pub(crate) async fn get_access_request(gw: &Gateway, ctx: &Ctx<'_>, Path(id): Path) -> ApiResult<Answer<AccessRequestView>> {
    Answer::new(&view(&visible(gw, ctx, &id).await?)?)
}

/// `POST /v1/access-requests/{access_request_id}/delivered`: the operator handed the export over.
pub(crate) async fn mark_delivered(gw: &Gateway, ctx: &Ctx<'_>, Path(id): Path) -> ApiResult<Answer<AccessRequestView>> {
    until_committed!({
        let job = visible(gw, ctx, &id).await?;
        match job.state {
            AccessState::Delivered => return Answer::new(&view(&job)?).map(Some),
            AccessState::Preparing => return Err(ApiError::conflict("access_request_not_ready", "the export is not released yet")),
            AccessState::Ready => {}
        }
        if !gw.commit(vec![store::deliver(&id, ctx.now)]).await?.done() {
            return Ok(None);
        }
        Answer::new(&view(&Job { state: AccessState::Delivered, delivered_at: Some(ctx.now), ..job })?).map(Some)
    })
}

pub(crate) fn request_access_doc() -> OperationDoc {
    OperationDoc::new("service", "ask for everything held about a player (GDPR art. 15)")
        .describe(
            "Makes the player's access request (or answers their open one): `preparing` until the compliance team releases the export, \
             `ready` with `export`, then `delivered` once the operator says so. `due_at` is the tenant's profile's period from now \
             (one calendar month under the GDPR, thirty days under PIPEDA).",
        )
        .answers("the request")
        .errors(&[404])
}

pub(crate) fn get_access_request_doc() -> OperationDoc {
    OperationDoc::new("service", "an access request, with its export once released").answers("the request").errors(&[404])
}

pub(crate) fn mark_delivered_doc() -> OperationDoc {
    OperationDoc::new("service", "record that the export was handed to the player")
        .describe("Closes the request (the player may ask again). A request not yet released is 409 `access_request_not_ready`.")
        .answers("delivered")
        .errors(&[404, 409])
}

// ---------------------------------------------------------------- the team's view

/// A request as the compliance team reads it before releasing it.
#[derive(Debug, Serialize, ToSchema)]
pub struct AccessRequestFile {
    pub access_request_id: String,
    pub tenant_id: String,
    pub user_id: String,
    pub state: AccessState,
    pub received_at: String,
    pub due_at: String,
    /// the basis of every withholding, and its law
    pub withhold_basis: String,
    pub withhold_source: String,
    /// what is withheld: proposed now, or as approved once released
    pub withheld: Vec<Withholding>,
    /// what the player receives: as it would be released now, or as released
    pub export: Option<AccessExport>,
}

/// `GET /v1/admin/access-requests/{access_request_id}` (the team).
pub(crate) async fn get_access_request_file(gw: &Gateway, ctx: &Ctx<'_>, Path(id): Path) -> ApiResult<Answer<AccessRequestFile>> {
    let job = store::by_id(gw.store.as_ref(), &id).await?.filter(|j| j.environment == ctx.caller.environment).ok_or_else(not_found)?;
    let dates = plan_shown(gw, &job)?;
    let (withheld, export) = match job.state {
        AccessState::Preparing => {
            let now = gw.tenant_now_of(&job.tenant_id, job.environment).await?;
            match draft(gw, &job.tenant_id, &job.user_id, &dates, now).await? {
                Some(d) => (d.withheld, Some(d.export)),
                None => (Vec::new(), None),
            }
        }
        AccessState::Ready | AccessState::Delivered => (
            serde_json::from_str(&job.withheld).map_err(|_| ApiError::internal())?,
            job.export.as_deref().map(serde_json::from_str).transpose().map_err(|_| ApiError::internal())?,
        ),
    };
    Answer::new(&AccessRequestFile {
        access_request_id: job.access_request_id,
        tenant_id: job.tenant_id,
        user_id: job.user_id,
        state: job.state,
        received_at: time::format(job.received_at),
        due_at: time::format(job.due_at),
        withhold_basis: dates.withhold_basis,
        withhold_source: dates.withhold_source,
        withheld,
        export,
    })
}

pub(crate) fn get_access_request_file_doc() -> OperationDoc {
    OperationDoc::new("admin", "an access request as the team releases it: the export and what is withheld, each with its basis")
        .describe("Release it through its case (`POST /v1/admin/cases/{case_id}/proposal` with outcome `release`; the case id is the request's id).")
        .errors(&[404])
}

// ---------------------------------------------------------------- the release, from its case

/// The release's statements, for the batch of the case's approval: the
/// export and the withholdings, read now, and the rules' decision that
/// gave their basis. `None`: the job moved, or what is withheld is no
/// longer what the case's evidence (`approved`) showed; the approval's next
/// round finds the evidence changed and drops the proposal.
pub(crate) async fn release(
    gw: &Gateway,
    job: &Job,
    approved: &[Withholding],
    decided_by: &str,
    mut extra: Vec<Stmt>,
) -> ApiResult<Option<DecisionLog>> {
    if job.state != AccessState::Preparing {
        return Err(ApiError::conflict("case_closed", "the case is decided"));
    }
    let (dates, log) = plan(gw, job)?;
    let now = gw.tenant_now_of(&job.tenant_id, job.environment).await?;
    let Some(draft) = draft(gw, &job.tenant_id, &job.user_id, &dates, now).await? else {
        return Err(ApiError::conflict("case_closed", "the player's records are restricted: nothing is released"));
    };
    if withheld_digest(&draft.withheld) != withheld_digest(approved) {
        return Ok(None);
    }
    let export = serde_json::to_string(&draft.export).map_err(|_| ApiError::internal())?;
    let withheld = serde_json::to_string(&draft.withheld).map_err(|_| ApiError::internal())?;
    extra.push(store::release(&job.access_request_id, &export, &withheld, decided_by, now));
    extra.push(log.statement());
    Ok(gw.commit(extra).await?.done().then_some(log))
}

/// The request a case id names, in an environment.
pub(crate) async fn case_subject(gw: &Gateway, environment: Environment, case_id: &str) -> ApiResult<Option<(Job, Vec<Withholding>)>> {
    if !case_id.starts_with(ID_PREFIX) {
        return Ok(None);
    }
    let Some(job) = store::by_id(gw.store.as_ref(), case_id).await?.filter(|j| j.environment == environment) else {
        return Ok(None);
    };
    let dates = plan_shown(gw, &job)?;
    let now = gw.tenant_now_of(&job.tenant_id, job.environment).await?;
    let withheld = draft(gw, &job.tenant_id, &job.user_id, &dates, now).await?.map(|d| d.withheld).unwrap_or_default();
    Ok(Some((job, withheld)))
}
