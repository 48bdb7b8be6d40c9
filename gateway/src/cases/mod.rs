//! The cases area: one case model over the compliance team's work (sanctions
//! hits, due-diligence matches, KYC checks awaiting a person). Each case has
//! a status, an assignee, a due time, append-only comments and a typed
//! timeline with each event's actor. A decision is proposed with an outcome
//! of the case's type and a reason; where four-eyes applies
//! ([`crate::FourEyes`]) it takes effect only when a different person
//! approves it, and every effect (holds lifted, events) is written at
//! approval, in one batch with the case file. The subjects stay in their
//! areas; the case id is the subject's id. The SQL is in [`store`].

pub(crate) mod store;

use rules_model::{CaseKind, CaseStatus, KycStatus, ReviewAction, ReviewItem};
use serde::{Deserialize, Serialize};
use serde_json::json;
use sha2::{Digest, Sha256};
use utoipa::{IntoParams, ToSchema};

use crate::api::{ReviewLimit, WaitSeconds};
use crate::auth::Environment;
use crate::error::{ApiError, ApiResult};
use crate::input::{Body, FromBody, Params, Path};
use crate::input::{Cursor, Fields};
use crate::kyc::{KycCheck, Reviewer};
use crate::openapi::answer::{Answer, Created};
use crate::openapi::OperationDoc;
use crate::people::Role;
use crate::sanctions::SanctionsCase;
use crate::{time, Ctx, Gateway};

use store::{AssigneeFilter, Proposal, QueueFilter, StateFilter, Work};

/// What a case asks of the team.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum CaseType {
    SanctionsHit,
    EnhancedDueDiligence,
    KycReview,
    /// a user's AML alerts
    AmlAlert,
    /// a player's access request, awaiting its release
    AccessRequest,
}

impl CaseType {
    #[cfg(test)]
    const ALL: [CaseType; 5] =
        [CaseType::SanctionsHit, CaseType::EnhancedDueDiligence, CaseType::KycReview, CaseType::AmlAlert, CaseType::AccessRequest];

    /// The name on the wire (what serde writes and reads).
    #[cfg(test)]
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            CaseType::SanctionsHit => "sanctions_hit",
            CaseType::EnhancedDueDiligence => "enhanced_due_diligence",
            CaseType::KycReview => "kyc_review",
            CaseType::AmlAlert => "aml_alert",
            CaseType::AccessRequest => "access_request",
        }
    }

    pub(crate) fn of_kind(kind: CaseKind) -> CaseType {
        match kind {
            CaseKind::SanctionsHit => CaseType::SanctionsHit,
            CaseKind::EnhancedDueDiligence => CaseType::EnhancedDueDiligence,
        }
    }

    /// The outcomes a decision on a case of this type may take.
    fn outcomes(self) -> &'static [Outcome] {
        match self {
            CaseType::SanctionsHit | CaseType::EnhancedDueDiligence => &[Outcome::FalsePositive, Outcome::TrueMatch],
            CaseType::KycReview => &[Outcome::Approve, Outcome::Reject],
            CaseType::AmlAlert => &[Outcome::FalsePositive, Outcome::Confirmed],
            CaseType::AccessRequest => &[Outcome::Release],
        }
    }
}

/// A decision's outcome: a fixed set per case type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Outcome {
    /// a sanctions or due-diligence match that is not the person (dismiss)
    FalsePositive,
    /// a real match (confirm)
    TrueMatch,
    /// the identity check passes
    Approve,
    /// the identity check fails
    Reject,
    /// an AML suspicion confirmed, and the report filed
    Confirmed,
    /// an access request's export released, with what is withheld from it
    Release,
}

impl Outcome {
    const ALL: [Outcome; 6] = [Outcome::FalsePositive, Outcome::TrueMatch, Outcome::Approve, Outcome::Reject, Outcome::Confirmed, Outcome::Release];

    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Outcome::FalsePositive => "false_positive",
            Outcome::TrueMatch => "true_match",
            Outcome::Approve => "approve",
            Outcome::Reject => "reject",
            Outcome::Confirmed => "confirmed",
            Outcome::Release => "release",
        }
    }

    pub(crate) fn parse(text: &str) -> Option<Outcome> {
        Outcome::ALL.into_iter().find(|o| o.as_str() == text)
    }
}

/// What happened to a case, in its timeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum EventKind {
    Opened,
    Assigned,
    Unassigned,
    Commented,
    Tagged,
    Proposed,
    Approved,
    ProposalRejected,
    /// the evidence changed after the proposal (a re-screen, a vendor's word)
    ProposalDropped,
}

impl EventKind {
    const ALL: [EventKind; 9] = [
        EventKind::Opened,
        EventKind::Assigned,
        EventKind::Unassigned,
        EventKind::Commented,
        EventKind::Tagged,
        EventKind::Proposed,
        EventKind::Approved,
        EventKind::ProposalRejected,
        EventKind::ProposalDropped,
    ];

    pub(crate) fn as_str(self) -> &'static str {
        match self {
            EventKind::Opened => "opened",
            EventKind::Assigned => "assigned",
            EventKind::Unassigned => "unassigned",
            EventKind::Commented => "commented",
            EventKind::Tagged => "tagged",
            EventKind::Proposed => "proposed",
            EventKind::Approved => "approved",
            EventKind::ProposalRejected => "proposal_rejected",
            EventKind::ProposalDropped => "proposal_dropped",
        }
    }

    pub(crate) fn parse(text: &str) -> Option<EventKind> {
        EventKind::ALL.into_iter().find(|k| k.as_str() == text)
    }
}

/// Where a case stands in the team's work.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum WorkStatus {
    /// awaiting a decision
    Open,
    /// a decision awaits a second person's approval
    PendingApproval,
    /// decided
    Closed,
}

fn case_not_found() -> ApiError {
    ApiError::not_found("case_not_found", "no such case")
}

/// The subject of a case, read from its area.
enum Subject {
    /// the case, and when its user's screening last brought new evidence
    Sanctions(SanctionsCase, Option<i64>),
    Kyc(KycCheck),
    Aml(crate::aml::store::CaseRow),
    /// the request, and what its export would withhold now
    Access(crate::access::Job, Vec<crate::access::Withholding>),
}

impl Subject {
    async fn load(gw: &Gateway, environment: Environment, case_id: &str) -> ApiResult<Subject> {
        if let Some((job, withheld)) = crate::access::case_subject(gw, environment, case_id).await? {
            return Ok(Subject::Access(job, withheld));
        }
        if let Some(case) = crate::aml::case(gw, environment, case_id).await? {
            return Ok(Subject::Aml(case));
        }
        if let Some(case) = crate::sanctions::sanctions_case(gw, environment, case_id).await? {
            let screened = crate::sanctions::evidence_at(gw, &case).await?;
            return Ok(Subject::Sanctions(case, screened));
        }
        match crate::kyc::kyc_check(gw, environment, case_id).await? {
            // a check is a case once it waits for a person, and stays one after
            Some(check) if check.status == KycStatus::PendingReview || check.escalation.is_some() => Ok(Subject::Kyc(check)),
            Some(check) => match store::work(gw.store.as_ref(), environment, case_id).await?.version {
                0 => Err(case_not_found()),
                _ => Ok(Subject::Kyc(check)),
            },
            None => Err(case_not_found()),
        }
    }

    fn case_type(&self) -> CaseType {
        match self {
            Subject::Sanctions(case, _) => CaseType::of_kind(case.kind),
            Subject::Kyc(_) => CaseType::KycReview,
            Subject::Aml(_) => CaseType::AmlAlert,
            Subject::Access(..) => CaseType::AccessRequest,
        }
    }

    /// Whether it still waits for a decision.
    fn awaiting(&self) -> bool {
        match self {
            Subject::Sanctions(case, _) => case.status == CaseStatus::Open,
            Subject::Kyc(check) => check.status == KycStatus::PendingReview,
            Subject::Aml(case) => case.status == crate::aml::store::AmlCaseStatus::Open,
            Subject::Access(job, _) => job.state == crate::access::AccessState::Preparing,
        }
    }

    fn tenant_and_user(&self) -> (&str, &str) {
        match self {
            Subject::Sanctions(case, _) => (&case.tenant_id, &case.user_id),
            Subject::Kyc(check) => (&check.tenant_id, &check.external_user_id),
            Subject::Aml(case) => (&case.tenant_id, &case.user_id),
            Subject::Access(job, _) => (&job.tenant_id, &job.user_id),
        }
    }

    /// When it began to wait for a person, and the due time it was given.
    fn waiting(&self) -> (i64, Option<i64>) {
        match self {
            Subject::Sanctions(case, _) => (case.created_at, case.review_due_at),
            Subject::Kyc(check) => (check.updated_at, None),
            Subject::Aml(case) => (case.opened_at, Some(case.due_at)),
            Subject::Access(job, _) => (job.received_at, Some(job.due_at)),
        }
    }

    /// A digest of what a decision is made on: a proposal made on other evidence is dropped.
    fn evidence(&self) -> String {
        let text = match self {
            Subject::Sanctions(case, screened) => {
                format!("sanctions|{}|{}|{}|{}", case.status.as_str(), case.match_count, case.matches, screened.unwrap_or_default())
            }
            Subject::Kyc(check) => {
                format!("kyc|{}|{}|{}", check.status.as_str(), check.updated_at, check.escalation.map(|e| e.as_str()).unwrap_or_default())
            }
            // a new alert is new evidence
            Subject::Aml(case) => format!("aml|{}|{}|{}", case.status.as_str(), case.alert_count, case.typologies.join(",")),
            // other withholdings are other evidence; records that are not withheld are released as they are then
            Subject::Access(job, withheld) => format!("access|{}|{}", job.state.as_str(), crate::access::withheld_digest(withheld)),
        };
        hex::encode(Sha256::digest(text.as_bytes()))
    }

    /// The subject in its own area's admin API.
    fn link(&self, case_id: &str) -> String {
        match self {
            Subject::Sanctions(..) => format!("/v1/admin/sanctions/cases/{case_id}"),
            Subject::Kyc(_) => format!("/v1/admin/kyc/checks?status={}", KycStatus::PendingReview.as_str()),
            Subject::Aml(_) => format!("/v1/admin/aml/cases/{case_id}/report"),
            Subject::Access(..) => format!("/v1/admin/access-requests/{case_id}"),
        }
    }
}

fn work_status(awaiting: bool, proposal_pending: bool) -> WorkStatus {
    match (awaiting, proposal_pending) {
        (false, _) => WorkStatus::Closed,
        (true, true) => WorkStatus::PendingApproval,
        (true, false) => WorkStatus::Open,
    }
}

/// Who acts: a person's id, or a key's.
fn actor(ctx: &Ctx<'_>) -> String {
    ctx.caller.key_id.clone()
}

fn may_approve(role: Role) -> bool {
    matches!(role, Role::Approver | Role::Supervisor | Role::Admin)
}

fn may_assign(ctx: &Ctx<'_>) -> bool {
    ctx.caller.person.as_ref().is_none_or(|p| matches!(p.role, Role::Supervisor | Role::Admin))
}

fn role_forbidden(what: &str) -> ApiError {
    ApiError::forbidden("role_forbidden", format!("your role may not {what}"))
}

// ---------------------------------------------------------------- bodies

/// The query of `GET /v1/admin/cases`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct QueueQuery {
    /// `sanctions_hit`, `enhanced_due_diligence`, `kyc_review`, `aml_alert` or `access_request`; all when absent
    #[serde(rename = "type")]
    #[param(inline)]
    case_type: Option<CaseType>,
    /// `open` (the default: awaiting a decision), `pending_approval` or `closed`
    #[param(inline)]
    status: Option<QueueState>,
    /// a person's id, `me` (a person's session) or `none` (unassigned)
    #[param(value_type = Option<String>)]
    assignee: Option<Assignee>,
    /// only cases with this tag
    #[param(value_type = Option<String>, max_length = 40, pattern = "^[a-z0-9-]+$")]
    tag: Option<Tag>,
    /// `true`: only cases past their due time
    overdue: Option<bool>,
    /// only cases waiting at least this long
    #[param(value_type = Option<i64>, minimum = 0)]
    min_age_seconds: Option<WaitSeconds>,
    /// page size, 1 to 500 (default 100)
    #[param(inline)]
    limit: Option<ReviewLimit>,
    /// `next_cursor` of the page before
    #[param(value_type = Option<String>)]
    cursor: Option<Cursor<(i64, String)>>,
}

/// Which state of the work the queue shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum QueueState {
    /// awaiting a decision, with or without a proposal
    Open,
    /// awaiting the approval of a proposal
    PendingApproval,
    /// decided
    Closed,
}

/// Whose cases the queue shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Assignee {
    /// `none`: unassigned cases
    Nobody,
    /// `me`: the caller's, when the caller is a person
    Me,
    /// this person's
    Person(String),
}

impl<'de> Deserialize<'de> for Assignee {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        crate::input::parse_text(deserializer, crate::input::INVALID_FIELD, |text| {
            Ok(match text {
                "none" => Assignee::Nobody,
                "me" => Assignee::Me,
                id => Assignee::Person(id.to_string()),
            })
        })
    }
}

/// A case tag: 1 to 40 of a-z, 0-9 and -.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Tag(String);

impl<'de> Deserialize<'de> for Tag {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        crate::input::parse_text(deserializer, crate::input::INVALID_FIELD, |text| {
            valid_tag(text).map(Tag).ok_or_else(|| format!("must be 1 to {MAX_TAG_CHARS} of a-z, 0-9 and -"))
        })
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct QueueRow {
    case_id: String,
    case_type: CaseType,
    tenant_id: String,
    user_id: String,
    status: WorkStatus,
    assignee: Option<String>,
    /// the pending proposal's outcome
    proposed_outcome: Option<Outcome>,
    tags: Vec<String>,
    waiting_since: String,
    review_due_at: Option<String>,
    overdue: bool,
    age_seconds: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Queue {
    cases: Vec<QueueRow>,
    next_cursor: Option<String>,
    has_more: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct ProposalView {
    proposal_id: String,
    outcome: Outcome,
    reason: String,
    proposed_by: String,
    proposed_at: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct TimelineEntry {
    event_id: String,
    kind: EventKind,
    /// a person's id (`per_…`), a key's id, or `system`
    actor: String,
    at: String,
    /// the comment, the outcome and reason, or the assignee
    #[schema(value_type = Object)]
    detail: serde_json::Value,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct CaseFile {
    case_id: String,
    case_type: CaseType,
    tenant_id: String,
    user_id: String,
    status: WorkStatus,
    assignee: Option<String>,
    tags: Vec<String>,
    waiting_since: String,
    review_due_at: Option<String>,
    overdue: bool,
    /// the outcomes a decision on this case may take
    outcomes: Vec<Outcome>,
    /// whether a decision takes a second person's approval here
    four_eyes: bool,
    proposal: Option<ProposalView>,
    /// every event, oldest first; comments are its `commented` entries
    timeline: Vec<TimelineEntry>,
    /// the subject in its own area's admin API (matches, scores, the vendor's status)
    subject: String,
}

#[derive(Debug, ToSchema)]
pub(crate) struct AssignBody {
    /// the id of a console account of the environment
    #[schema(min_length = 1)]
    assignee: String,
}

impl FromBody for AssignBody {
    fn from_body(body: &[u8], gw: &Gateway, _: &Ctx<'_>) -> ApiResult<Self> {
        let mut f = Fields::from_body(body, gw.rules.as_ref())?;
        let assignee = f.code("assignee");
        f.finish()?;
        Ok(AssignBody { assignee })
    }
}

#[derive(Debug, ToSchema)]
pub(crate) struct TagsBody {
    /// the case's tags, replacing those it had: at most 10, each 1 to 40 of a-z, 0-9 and `-`
    #[schema(max_items = 10)]
    tags: Vec<String>,
}

impl FromBody for TagsBody {
    /// The tags, sorted and each once.
    fn from_body(body: &[u8], _: &Gateway, _: &Ctx<'_>) -> ApiResult<Self> {
        let object = crate::input::parse_json_object(body)?;
        let Some(given) = object.get("tags") else {
            return Err(ApiError::bad_request("missing_fields", "missing required fields: tags"));
        };
        let given = given.as_array().ok_or_else(|| ApiError::bad_request("invalid_field", "tags must be an array of strings"))?;
        if given.len() > MAX_TAGS {
            return Err(ApiError::bad_request("invalid_field", "at most 10 tags"));
        }
        let mut tags = given
            .iter()
            .map(|t| t.as_str().and_then(valid_tag))
            .collect::<Option<Vec<String>>>()
            .ok_or_else(|| ApiError::bad_request("invalid_field", TAG_RULE))?;
        tags.sort();
        tags.dedup();
        Ok(TagsBody { tags })
    }
}

#[derive(Debug, ToSchema)]
pub(crate) struct CommentBody {
    #[schema(min_length = 1, max_length = 4000)]
    comment: String,
}

impl FromBody for CommentBody {
    fn from_body(body: &[u8], gw: &Gateway, _: &Ctx<'_>) -> ApiResult<Self> {
        let mut f = Fields::from_body(body, gw.rules.as_ref())?;
        let comment = f.note("comment");
        f.finish()?;
        Ok(CommentBody { comment })
    }
}

#[derive(Debug, ToSchema)]
pub(crate) struct ProposeBody {
    /// one of the case's `outcomes`
    #[schema(value_type = Outcome)]
    outcome: Outcome,
    /// why: required, 1 to 4,000 characters
    #[schema(min_length = 1, max_length = 4000)]
    reason: String,
}

impl FromBody for ProposeBody {
    fn from_body(body: &[u8], gw: &Gateway, _: &Ctx<'_>) -> ApiResult<Self> {
        let mut f = Fields::from_body(body, gw.rules.as_ref())?;
        let outcome_text = f.code("outcome");
        let reason = f.note("reason");
        let outcome = Outcome::parse(&outcome_text);
        if !outcome_text.is_empty() && outcome.is_none() {
            f.reject("invalid_field", "outcome must be false_positive, true_match, approve, reject, confirmed or release");
        }
        f.finish()?;
        Ok(ProposeBody { outcome: outcome.ok_or_else(ApiError::internal)?, reason })
    }
}

#[derive(Debug, ToSchema)]
pub(crate) struct ApproveBody {
    /// the pending proposal the approver read (its `proposal_id` in the case file)
    #[schema(min_length = 1)]
    proposal_id: String,
}

impl FromBody for ApproveBody {
    fn from_body(body: &[u8], gw: &Gateway, _: &Ctx<'_>) -> ApiResult<Self> {
        let mut f = Fields::from_body(body, gw.rules.as_ref())?;
        let proposal_id = f.code("proposal_id");
        f.finish()?;
        Ok(ApproveBody { proposal_id })
    }
}

#[derive(Debug, ToSchema)]
pub(crate) struct RejectBody {
    /// the pending proposal the person read (its `proposal_id` in the case file)
    #[schema(min_length = 1)]
    proposal_id: String,
    #[schema(max_length = 4000)]
    reason: Option<String>,
}

impl FromBody for RejectBody {
    fn from_body(body: &[u8], gw: &Gateway, _: &Ctx<'_>) -> ApiResult<Self> {
        let mut f = Fields::from_body(body, gw.rules.as_ref())?;
        let proposal_id = f.code("proposal_id");
        let reason = f.opt_note("reason");
        f.finish()?;
        Ok(RejectBody { proposal_id, reason })
    }
}

/// The case after an action.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct CaseAction {
    case_id: String,
    status: WorkStatus,
    assignee: Option<String>,
    tags: Vec<String>,
    proposal: Option<ProposalView>,
    /// the outcome that took effect, when the case was decided
    decided_outcome: Option<Outcome>,
    /// who approved it (a single-step decision: who made it)
    decided_by: Option<String>,
}

pub(crate) fn list_queue_doc() -> OperationDoc {
    OperationDoc::new("admin", "the review queue: every case type, by due time")
}

pub(crate) fn get_case_file_doc() -> OperationDoc {
    OperationDoc::new("admin", "a case with its proposal, comments and timeline").errors(&[404])
}

pub(crate) fn assign_doc() -> OperationDoc {
    OperationDoc::new("admin", "assign a case to a person (an admin key, a supervisor or an admin)").answers("assigned").errors(&[404, 409])
}

pub(crate) fn unassign_doc() -> OperationDoc {
    OperationDoc::new("admin", "leave a case unassigned").answers("unassigned").errors(&[404, 409])
}

pub(crate) fn take_doc() -> OperationDoc {
    OperationDoc::new("admin", "take a case: assign it to oneself (a person)").answers("taken").errors(&[404, 409])
}

pub(crate) fn set_tags_doc() -> OperationDoc {
    OperationDoc::new("admin", "set a case's tags (the team's labels, filterable in the queue)").answers("tagged").errors(&[404])
}

pub(crate) fn comment_doc() -> OperationDoc {
    OperationDoc::new("admin", "add a comment to a case's timeline (append-only)").answers("commented").errors(&[404])
}

pub(crate) fn propose_doc() -> OperationDoc {
    OperationDoc::new("admin", "propose a decision with its reason")
        .describe(
            "Where four-eyes applies (production by default) only a person's session may propose (an admin key gets 403 `person_required`), \
             and the proposal waits for a different person's approval; elsewhere it takes effect at once.",
        )
        .answers("proposed (four-eyes)")
        .or_200("decided (single step)")
        .errors(&[404, 409])
}

pub(crate) fn approve_doc() -> OperationDoc {
    OperationDoc::new("admin", "approve the pending proposal: a person other than its proposer")
        .describe("The body names the proposal the approver read: if another one is pending, or none, the answer is 409 `stale_proposal` and nothing is applied.")
        .answers("decided")
        .errors(&[404, 409])
}

pub(crate) fn reject_doc() -> OperationDoc {
    OperationDoc::new("admin", "reject the pending proposal; the case stays open")
        .describe("The body names the proposal the person read: if another one is pending, or none, the answer is 409 `stale_proposal`.")
        .answers("rejected")
        .errors(&[404, 409])
}

// ---------------------------------------------------------------- reads

/// `GET /v1/admin/cases`: every case type in one queue, by when each began
/// to wait. Every type has the same review target, so this is also the
/// order of their due times (`the_queue_order_is_the_due_order`).
pub(crate) async fn list_queue(gw: &Gateway, ctx: &Ctx<'_>, Params(query): Params<QueueQuery>) -> ApiResult<Answer<Queue>> {
    let QueueQuery { case_type, status, assignee, tag, overdue, min_age_seconds, limit, cursor } = query;
    let state = match status.unwrap_or(QueueState::Open) {
        QueueState::Open => StateFilter::Open,
        QueueState::PendingApproval => StateFilter::PendingApproval,
        QueueState::Closed => StateFilter::Closed,
    };
    let assignee = match assignee {
        None => AssigneeFilter::Anyone,
        Some(Assignee::Nobody) => AssigneeFilter::Nobody,
        Some(Assignee::Me) => match &ctx.caller.person {
            Some(person) => AssigneeFilter::Person(person.person_id.clone()),
            None => return Err(ApiError::bad_request("invalid_field", "assignee=me needs a person's session")),
        },
        Some(Assignee::Person(id)) => AssigneeFilter::Person(id),
    };
    let tag = tag.map(|t| t.0);
    let (overdue_only, review_target, now) = gw.review_filter(overdue);
    let mut page = gw.review_page(limit, cursor, min_age_seconds);
    let filter = QueueFilter {
        environment: ctx.caller.environment,
        state,
        assignee,
        tag,
        min_age_seconds: page.min_age_seconds,
        overdue_only,
        review_target,
        now,
        after: page.after.take(),
        limit: page.read_limit(),
    };
    let mut rows = Vec::new();
    match case_type {
        Some(CaseType::KycReview) => rows.extend(store::kyc_cases(gw.store.as_ref(), &filter).await?),
        Some(CaseType::AmlAlert) => rows.extend(store::aml_cases(gw.store.as_ref(), &filter).await?),
        Some(CaseType::AccessRequest) => rows.extend(store::access_cases(gw.store.as_ref(), &filter).await?),
        Some(t) => rows.extend(store::sanctions_cases(gw.store.as_ref(), &filter, Some(kind_of(t))).await?),
        None => {
            rows.extend(store::sanctions_cases(gw.store.as_ref(), &filter, None).await?);
            rows.extend(store::kyc_cases(gw.store.as_ref(), &filter).await?);
            rows.extend(store::aml_cases(gw.store.as_ref(), &filter).await?);
            rows.extend(store::access_cases(gw.store.as_ref(), &filter).await?);
        }
    }
    // Each source read one past the page in this order: merged, the first
    // `limit + 1` are the page and whether there is more.
    rows.sort_by(|a, b| (a.waiting_since, &a.case_id).cmp(&(b.waiting_since, &b.case_id)));
    rows.truncate(usize::try_from(page.read_limit()).unwrap_or(0));
    let (has_more, next_cursor) = page.cut(&mut rows, |r| (r.waiting_since, r.case_id.clone()));
    let items: Vec<ReviewItem> = rows
        .iter()
        .map(|r| ReviewItem {
            now: now.saturating_add(r.clock_offset_seconds),
            waiting_since: r.waiting_since,
            due_at: r.due_at,
            awaiting: r.awaiting,
        })
        .collect();
    let states = gw.rules.describe_reviews(&items)?;
    let cases = rows
        .into_iter()
        .zip(items.iter().zip(states))
        .filter(|(_, (_, state))| !overdue_only || state.overdue)
        .map(|(r, (item, state))| QueueRow {
            status: work_status(r.awaiting, r.proposed_outcome.is_some()),
            overdue: state.overdue,
            age_seconds: item.now.saturating_sub(r.waiting_since),
            waiting_since: time::format(r.waiting_since),
            review_due_at: state.due_at.map(time::format),
            case_id: r.case_id,
            case_type: r.case_type,
            tenant_id: r.tenant_id,
            user_id: r.user_id,
            assignee: r.assignee,
            proposed_outcome: r.proposed_outcome,
            tags: r.tags,
        })
        .collect();
    Answer::new(&Queue { cases, next_cursor, has_more })
}

fn kind_of(case_type: CaseType) -> CaseKind {
    match case_type {
        CaseType::EnhancedDueDiligence => CaseKind::EnhancedDueDiligence,
        CaseType::SanctionsHit | CaseType::KycReview | CaseType::AmlAlert | CaseType::AccessRequest => CaseKind::SanctionsHit,
    }
}

fn proposal_view(p: &Proposal) -> ProposalView {
    ProposalView {
        proposal_id: p.proposal_id.clone(),
        outcome: p.outcome,
        reason: p.reason.clone(),
        proposed_by: p.proposed_by.clone(),
        proposed_at: time::format(p.proposed_at),
    }
}

pub(crate) async fn get_case_file(gw: &Gateway, ctx: &Ctx<'_>, Path(case_id): Path) -> ApiResult<Answer<CaseFile>> {
    let case_id = case_id.as_str();
    let environment = ctx.caller.environment;
    let subject = Subject::load(gw, environment, case_id).await?;
    let work = store::work(gw.store.as_ref(), environment, case_id).await?;
    let events = store::events(gw.store.as_ref(), environment, case_id).await?;
    let (tenant_id, user_id) = subject.tenant_and_user();
    let offset = crate::tenants::store::operator_clock_offset(gw.store.as_ref(), tenant_id, environment).await?.unwrap_or(0);
    let (waiting_since, due_at) = subject.waiting();
    let awaiting = subject.awaiting();
    let state = gw
        .rules
        .describe_reviews(&[ReviewItem { now: gw.clock.now().saturating_add(offset), waiting_since, due_at, awaiting }])?
        .into_iter()
        .next()
        .ok_or_else(ApiError::internal)?;
    let mut timeline = vec![TimelineEntry {
        event_id: format!("{case_id}:opened"),
        kind: EventKind::Opened,
        actor: "system".into(),
        at: time::format(waiting_since),
        detail: json!({}),
    }];
    for e in events {
        timeline.push(TimelineEntry {
            detail: serde_json::from_str(&e.detail).unwrap_or_else(|_| json!({})),
            event_id: e.event_id,
            kind: e.kind,
            actor: e.actor,
            at: time::format(e.at),
        });
    }
    let body = CaseFile {
        case_id: case_id.to_string(),
        case_type: subject.case_type(),
        tenant_id: tenant_id.to_string(),
        user_id: user_id.to_string(),
        status: work_status(awaiting, work.proposal.is_some()),
        assignee: work.assignee.clone(),
        tags: work.tags.clone(),
        waiting_since: time::format(waiting_since),
        review_due_at: state.due_at.map(time::format),
        overdue: state.overdue,
        outcomes: subject.case_type().outcomes().to_vec(),
        four_eyes: gw.config.four_eyes.applies_to(environment),
        proposal: work.proposal.as_ref().map(proposal_view),
        timeline,
        subject: subject.link(case_id),
    };
    Answer::new(&body)
}

// ---------------------------------------------------------------- actions

/// A timeline event written with the case file moved on from `read` (the `index`-th of its batch).
fn event(gw: &Gateway, read: &Work, index: i64, kind: EventKind, actor: &str, detail: serde_json::Value, at: i64) -> store::Event {
    let seq = store::event_seq(read.version.saturating_add(1), index);
    store::Event { event_id: gw.new_id("cev"), kind, actor: actor.to_string(), detail: detail.to_string(), at, seq }
}

fn case_action(case_id: &str, status: WorkStatus, work: &Work, decided: Option<(Outcome, String)>) -> CaseAction {
    let (decided_outcome, decided_by) = decided.map_or((None, None), |(o, by)| (Some(o), Some(by)));
    CaseAction {
        case_id: case_id.to_string(),
        status,
        assignee: work.assignee.clone(),
        tags: work.tags.clone(),
        proposal: work.proposal.as_ref().map(proposal_view),
        decided_outcome,
        decided_by,
    }
}

/// Writes the case file from `read` to `next` with one timeline event; `Ok(false)` when another action won the race.
async fn save(gw: &Gateway, case_id: &str, environment: Environment, read: &Work, next: &Work, e: store::Event, now: i64) -> ApiResult<bool> {
    let mut statements = store::save_work(case_id, environment, read.version, next, now);
    statements.push(store::append_event(case_id, environment, &e));
    Ok(gw.commit(statements).await?.done())
}

/// Changes the assignee of an open case.
async fn set_assignee(gw: &Gateway, ctx: &Ctx<'_>, case_id: &str, assignee: Option<String>) -> ApiResult<Answer<CaseAction>> {
    let environment = ctx.caller.environment;
    if let Some(person_id) = &assignee {
        if crate::people::store::enabled_role(gw.store.as_ref(), environment, person_id).await?.is_none() {
            return Err(ApiError::not_found("person_not_found", "no enabled console account with this id in this environment"));
        }
    }
    until_committed!({
        let subject = Subject::load(gw, environment, case_id).await?;
        if !subject.awaiting() {
            return Err(ApiError::conflict("case_closed", "the case is decided"));
        }
        let read = store::work(gw.store.as_ref(), environment, case_id).await?;
        let next = Work { assignee: assignee.clone(), ..read.clone() };
        let kind = if assignee.is_some() { EventKind::Assigned } else { EventKind::Unassigned };
        let e = event(gw, &read, 0, kind, &actor(ctx), json!({ "assignee": assignee, "previous": read.assignee }), ctx.now);
        if !save(gw, case_id, environment, &read, &next, e, ctx.now).await? {
            return Ok(None);
        }
        Answer::new(&case_action(case_id, work_status(true, next.proposal.is_some()), &next, None)).map(Some)
    })
}

pub(crate) async fn assign(
    gw: &Gateway,
    ctx: &Ctx<'_>,
    (Path(case_id), Body(AssignBody { assignee })): (Path, Body<AssignBody>),
) -> ApiResult<Answer<CaseAction>> {
    if !may_assign(ctx) {
        return Err(role_forbidden("assign cases to others; take a case instead"));
    }
    set_assignee(gw, ctx, &case_id, Some(assignee)).await
}

pub(crate) async fn unassign(gw: &Gateway, ctx: &Ctx<'_>, Path(case_id): Path) -> ApiResult<Answer<CaseAction>> {
    let case_id = case_id.as_str();
    if !may_assign(ctx) {
        let work = store::work(gw.store.as_ref(), ctx.caller.environment, case_id).await?;
        if work.assignee.as_deref() != ctx.caller.person.as_ref().map(|p| p.person_id.as_str()) {
            return Err(role_forbidden("unassign another person's case"));
        }
    }
    set_assignee(gw, ctx, case_id, None).await
}

pub(crate) async fn take(gw: &Gateway, ctx: &Ctx<'_>, Path(case_id): Path) -> ApiResult<Answer<CaseAction>> {
    let person = crate::people::person_of(ctx)?;
    set_assignee(gw, ctx, &case_id, Some(person.person_id.clone())).await
}

pub(crate) async fn comment(
    gw: &Gateway,
    ctx: &Ctx<'_>,
    (Path(case_id), Body(CommentBody { comment: text })): (Path, Body<CommentBody>),
) -> ApiResult<Created<CaseAction>> {
    let case_id = case_id.as_str();
    let environment = ctx.caller.environment;
    until_committed!({
        let subject = Subject::load(gw, environment, case_id).await?;
        let read = store::work(gw.store.as_ref(), environment, case_id).await?;
        let e = event(gw, &read, 0, EventKind::Commented, &actor(ctx), json!({ "comment": text }), ctx.now);
        if !save(gw, case_id, environment, &read, &read, e, ctx.now).await? {
            return Ok(None);
        }
        Created::new(&case_action(case_id, work_status(subject.awaiting(), read.proposal.is_some()), &read, None)).map(Some)
    })
}

const MAX_TAGS: usize = 10;
const MAX_TAG_CHARS: usize = 40;
const TAG_RULE: &str = "a tag is 1 to 40 of a-z, 0-9 and -";

fn valid_tag(text: &str) -> Option<String> {
    let ok = (1..=MAX_TAG_CHARS).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    ok.then(|| text.to_string())
}

/// `PUT /v1/admin/cases/{case_id}/tags`: replaces the case's tags; open or closed.
pub(crate) async fn set_tags(
    gw: &Gateway,
    ctx: &Ctx<'_>,
    (Path(case_id), Body(TagsBody { tags })): (Path, Body<TagsBody>),
) -> ApiResult<Answer<CaseAction>> {
    let case_id = case_id.as_str();
    let environment = ctx.caller.environment;
    until_committed!({
        let subject = Subject::load(gw, environment, case_id).await?;
        let read = store::work(gw.store.as_ref(), environment, case_id).await?;
        let next = Work { tags: tags.clone(), ..read.clone() };
        let e = event(gw, &read, 0, EventKind::Tagged, &actor(ctx), json!({ "tags": tags, "previous": read.tags }), ctx.now);
        if !save(gw, case_id, environment, &read, &next, e, ctx.now).await? {
            return Ok(None);
        }
        Answer::new(&case_action(case_id, work_status(subject.awaiting(), next.proposal.is_some()), &next, None)).map(Some)
    })
}

/// The decision a proposal's outcome asks for, applied with the case file's statements.
async fn apply(
    gw: &Gateway,
    ctx: &Ctx<'_>,
    subject: &Subject,
    outcome: Outcome,
    decided_by: &str,
    reason: &str,
    extra: Vec<crate::ports::Stmt>,
) -> ApiResult<Option<crate::decisions::DecisionLog>> {
    let environment = ctx.caller.environment;
    match subject {
        Subject::Sanctions(case, _) => {
            let action = match outcome {
                Outcome::FalsePositive => ReviewAction::Dismiss,
                Outcome::TrueMatch => ReviewAction::Confirm,
                Outcome::Approve | Outcome::Reject | Outcome::Confirmed | Outcome::Release => return Err(ApiError::internal()),
            };
            let now = gw.tenant_now_of(&case.tenant_id, environment).await?;
            Ok(crate::sanctions::apply_case_decision(gw, environment, case, action, decided_by, now, extra).await?.map(|(log, _)| log))
        }
        Subject::Kyc(check) => {
            let approve = match outcome {
                Outcome::Approve => true,
                Outcome::Reject => false,
                Outcome::FalsePositive | Outcome::TrueMatch | Outcome::Confirmed | Outcome::Release => return Err(ApiError::internal()),
            };
            let now = gw.tenant_now_of(&check.tenant_id, environment).await?;
            let reviewer = Reviewer { name: decided_by, reason: Some(reason) };
            Ok(crate::kyc::apply_case_decision(gw, check, approve, reviewer, now, extra).await?.map(|(log, _)| log))
        }
        Subject::Aml(case) => {
            let outcome = match outcome {
                Outcome::FalsePositive => rules_model::AmlReviewOutcome::FalsePositive,
                Outcome::Confirmed => rules_model::AmlReviewOutcome::Confirmed,
                Outcome::TrueMatch | Outcome::Approve | Outcome::Reject | Outcome::Release => return Err(ApiError::internal()),
            };
            let now = gw.tenant_now_of(&case.tenant_id, environment).await?;
            crate::aml::apply_case_decision(gw, environment, case, outcome, decided_by, now, extra).await
        }
        Subject::Access(job, withheld) => match outcome {
            Outcome::Release => crate::access::release(gw, job, withheld, decided_by, extra).await,
            Outcome::FalsePositive | Outcome::TrueMatch | Outcome::Approve | Outcome::Reject | Outcome::Confirmed => Err(ApiError::internal()),
        },
    }
}

pub(crate) async fn propose(
    gw: &Gateway,
    ctx: &Ctx<'_>,
    (Path(case_id), Body(ProposeBody { outcome, reason })): (Path, Body<ProposeBody>),
) -> ApiResult<Created<CaseAction>> {
    let case_id = case_id.as_str();
    let environment = ctx.caller.environment;
    let four_eyes = gw.config.four_eyes.applies_to(environment);
    // Two people stand behind a four-eyes decision: a key is no person, and
    // nothing ties it to one, so its holder could also approve.
    if four_eyes && ctx.caller.person.is_none() {
        return Err(ApiError::forbidden("person_required", "where four-eyes applies only a person's session may propose, not a key"));
    }
    let by = actor(ctx);
    until_committed!({
        let subject = Subject::load(gw, environment, case_id).await?;
        if !subject.case_type().outcomes().contains(&outcome) {
            let allowed: Vec<&str> = subject.case_type().outcomes().iter().map(|o| o.as_str()).collect();
            return Err(ApiError::bad_request("invalid_field", format!("outcome must be one of {} for this case", allowed.join(", "))));
        }
        if !subject.awaiting() {
            return Err(ApiError::conflict("case_closed", "the case is decided"));
        }
        let read = store::work(gw.store.as_ref(), environment, case_id).await?;
        if read.proposal.is_some() {
            return Err(ApiError::conflict("proposal_pending", "a proposal awaits approval or rejection; one at a time"));
        }
        let proposal = Proposal {
            proposal_id: gw.new_id("prp"),
            outcome,
            reason: reason.clone(),
            proposed_by: by.clone(),
            proposed_at: ctx.now,
            evidence: subject.evidence(),
        };
        let proposed = event(
            gw,
            &read,
            0,
            EventKind::Proposed,
            &by,
            json!({ "proposal_id": proposal.proposal_id, "outcome": outcome, "reason": reason }),
            ctx.now,
        );
        if four_eyes {
            let next = Work { proposal: Some(proposal), ..read.clone() };
            if !save(gw, case_id, environment, &read, &next, proposed, ctx.now).await? {
                return Ok(None);
            }
            return Created::new(&case_action(case_id, WorkStatus::PendingApproval, &next, None)).map(Some);
        }
        // Single step: the proposer's word takes effect at once.
        let next = Work { proposal: None, ..read.clone() };
        let approved = event(
            gw,
            &read,
            1,
            EventKind::Approved,
            &by,
            json!({ "proposal_id": proposal.proposal_id, "outcome": outcome, "single_step": true }),
            ctx.now,
        );
        let mut extra = store::save_work(case_id, environment, read.version, &next, ctx.now);
        extra.push(store::append_event(case_id, environment, &proposed));
        extra.push(store::append_event(case_id, environment, &approved));
        let Some(log) = apply(gw, ctx, &subject, outcome, &by, &reason, extra).await? else {
            return Ok(None);
        };
        Ok(Some(Created::existing(&case_action(case_id, WorkStatus::Closed, &next, Some((outcome, by.clone()))))?.decided(log.decision_id())))
    })
}

/// The pending proposal, if it is the one the person read; 409 `stale_proposal` otherwise.
fn proposal_read(read: &Work, proposal_id: &str) -> ApiResult<Proposal> {
    match &read.proposal {
        Some(proposal) if proposal.proposal_id == proposal_id => Ok(proposal.clone()),
        Some(_) => Err(ApiError::conflict("stale_proposal", "another proposal is pending now: read the case again")),
        None => Err(ApiError::conflict("stale_proposal", "this proposal is no longer pending: read the case again")),
    }
}

pub(crate) async fn approve(
    gw: &Gateway,
    ctx: &Ctx<'_>,
    (Path(case_id), Body(ApproveBody { proposal_id })): (Path, Body<ApproveBody>),
) -> ApiResult<Answer<CaseAction>> {
    let case_id = case_id.as_str();
    let person = crate::people::person_of(ctx)?;
    if !may_approve(person.role) {
        return Err(role_forbidden("approve decisions"));
    }
    let environment = ctx.caller.environment;
    until_committed!({
        let subject = Subject::load(gw, environment, case_id).await?;
        let read = store::work(gw.store.as_ref(), environment, case_id).await?;
        let proposal = proposal_read(&read, &proposal_id)?;
        crate::people::second_person(gw, &proposal.proposed_by, &person.person_id).await?;
        let next = Work { proposal: None, ..read.clone() };
        if !subject.awaiting() || proposal.evidence != subject.evidence() {
            // The evidence changed since the proposal: it is dropped, and the case is decided afresh.
            let dropped = event(gw, &read, 0, EventKind::ProposalDropped, "system", json!({ "proposal_id": proposal.proposal_id }), ctx.now);
            if !save(gw, case_id, environment, &read, &next, dropped, ctx.now).await? {
                return Ok(None);
            }
            return Err(ApiError::conflict("stale_proposal", "the case changed after the proposal; it was dropped, propose again"));
        }
        let approved = event(
            gw,
            &read,
            0,
            EventKind::Approved,
            &person.person_id,
            json!({ "proposal_id": proposal.proposal_id, "outcome": proposal.outcome }),
            ctx.now,
        );
        let mut extra = store::save_work(case_id, environment, read.version, &next, ctx.now);
        extra.push(store::append_event(case_id, environment, &approved));
        let Some(log) = apply(gw, ctx, &subject, proposal.outcome, &person.person_id, &proposal.reason, extra).await? else {
            return Ok(None);
        };
        let decided = Some((proposal.outcome, person.person_id.clone()));
        Ok(Some(Answer::new(&case_action(case_id, WorkStatus::Closed, &next, decided))?.decided(log.decision_id())))
    })
}

pub(crate) async fn reject(
    gw: &Gateway,
    ctx: &Ctx<'_>,
    (Path(case_id), Body(RejectBody { proposal_id, reason })): (Path, Body<RejectBody>),
) -> ApiResult<Answer<CaseAction>> {
    let case_id = case_id.as_str();
    let person = crate::people::person_of(ctx)?;
    let environment = ctx.caller.environment;
    until_committed!({
        let subject = Subject::load(gw, environment, case_id).await?;
        let read = store::work(gw.store.as_ref(), environment, case_id).await?;
        let proposal = proposal_read(&read, &proposal_id)?;
        // An approver rejects; the proposer may withdraw their own.
        if !may_approve(person.role) && proposal.proposed_by != person.person_id {
            return Err(role_forbidden("reject others' proposals"));
        }
        let next = Work { proposal: None, ..read.clone() };
        let e = event(
            gw,
            &read,
            0,
            EventKind::ProposalRejected,
            &person.person_id,
            json!({ "proposal_id": proposal.proposal_id, "reason": reason }),
            ctx.now,
        );
        if !save(gw, case_id, environment, &read, &next, e, ctx.now).await? {
            return Ok(None);
        }
        Answer::new(&case_action(case_id, work_status(subject.awaiting(), false), &next, None)).map(Some)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for t in CaseType::ALL {
            assert_eq!(serde_json::from_value::<CaseType>(json!(t.as_str())).ok(), Some(t));
            assert_eq!(serde_json::to_value(t).ok(), Some(json!(t.as_str())));
        }
        for o in Outcome::ALL {
            assert_eq!(Outcome::parse(o.as_str()), Some(o));
            assert_eq!(serde_json::to_value(o).ok(), Some(json!(o.as_str())));
        }
        for k in EventKind::ALL {
            assert_eq!(EventKind::parse(k.as_str()), Some(k));
            assert_eq!(serde_json::to_value(k).ok(), Some(json!(k.as_str())));
        }
        assert_eq!(CaseType::of_kind(CaseKind::EnhancedDueDiligence).as_str(), CaseKind::EnhancedDueDiligence.as_str());
        assert_eq!(CaseType::of_kind(CaseKind::SanctionsHit).as_str(), CaseKind::SanctionsHit.as_str());
    }

    /// Every case type waits the same review target, so ordering by when
    /// each began to wait is ordering by due time.
    #[test]
    fn the_queue_order_is_the_due_order() {
        let states = rules::describe_reviews(&[
            ReviewItem { now: 0, waiting_since: 100, due_at: None, awaiting: true },
            ReviewItem { now: 0, waiting_since: 200, due_at: None, awaiting: true },
        ]);
        let dues: Vec<Option<i64>> = states.iter().map(|s| s.due_at).collect();
        assert!(dues[0] < dues[1], "{dues:?}");
        assert_eq!(dues[1].zip(dues[0]).map(|(b, a)| b - a), Some(100));
    }

    #[test]
    fn each_type_has_its_own_outcomes() {
        assert!(CaseType::SanctionsHit.outcomes().contains(&Outcome::FalsePositive));
        assert!(!CaseType::SanctionsHit.outcomes().contains(&Outcome::Approve));
        assert!(CaseType::KycReview.outcomes().contains(&Outcome::Reject));
        assert!(!CaseType::KycReview.outcomes().contains(&Outcome::TrueMatch));
    }
}
