//! The cases area's persistence: the case file the team keeps beside each
//! sanctions case and each KYC check awaiting a person (`case_work`: the
//! assignee and the pending proposal, a row from the first action on the
//! case) and its append-only timeline (`case_events`). The subjects
//! themselves stay in their areas' tables; the queue reads them here, with
//! their case file. Every SQL statement of the area is here.

use rules_model::{CaseKind, CaseStatus, KycStatus};

use crate::auth::Environment;
use crate::error::{ApiError, ApiResult};
use crate::ports::{Row, Stmt, Store, Value};

use super::{CaseType, EventKind, Outcome};

/// Who the queue is filtered to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum AssigneeFilter {
    Anyone,
    Nobody,
    Person(String),
}

/// Which state of the work the queue is filtered to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StateFilter {
    /// awaiting a decision, with or without a proposal
    Open,
    /// awaiting the approval of a proposal
    PendingApproval,
    /// decided
    Closed,
}

pub(crate) struct QueueFilter {
    pub environment: Environment,
    pub state: StateFilter,
    pub assignee: AssigneeFilter,
    /// only cases with this tag
    pub tag: Option<String>,
    /// only items waiting at least this long on their tenant's clock
    pub min_age_seconds: i64,
    /// only items the review target pre-selects as possibly overdue
    pub overdue_only: bool,
    pub review_target: i64,
    pub now: i64,
    /// the (waiting since, case id) of the last item of the page before
    pub after: Option<(i64, String)>,
    pub limit: i64,
}

/// One item of the queue, with its case file.
pub(crate) struct Queued {
    pub case_id: String,
    pub case_type: CaseType,
    pub tenant_id: String,
    pub user_id: String,
    pub waiting_since: i64,
    pub due_at: Option<i64>,
    pub awaiting: bool,
    pub clock_offset_seconds: i64,
    pub assignee: Option<String>,
    pub proposed_outcome: Option<Outcome>,
    pub tags: Vec<String>,
}

impl AssigneeFilter {
    fn params(&self) -> (i64, String) {
        match self {
            AssigneeFilter::Anyone => (0, String::new()),
            AssigneeFilter::Nobody => (1, String::new()),
            AssigneeFilter::Person(id) => (2, id.clone()),
        }
    }
}

fn queued_from(row: &Row, case_type: CaseType, awaiting: bool) -> ApiResult<Queued> {
    Ok(Queued {
        case_id: row.text(0)?,
        case_type,
        tenant_id: row.text(1)?,
        user_id: row.text(2)?,
        waiting_since: row.int(3)?,
        due_at: row.opt_int(4)?,
        clock_offset_seconds: row.int(5)?,
        assignee: row.opt_text(6)?,
        proposed_outcome: row.opt_text(7)?.as_deref().and_then(Outcome::parse),
        tags: row.opt_text(10)?.and_then(|t| serde_json::from_str(&t).ok()).unwrap_or_default(),
        awaiting,
    })
}

/// The common part of both sources' parameters, in the placeholders' order from ?1.
fn queue_params(f: &QueueFilter, status: &str) -> Vec<Value> {
    let (after_at, after_id) = f.after.clone().unwrap_or((-crate::ports::MAX_STORED_INTEGER, String::new()));
    let (assignee_mode, assignee) = f.assignee.params();
    let pending = match f.state {
        StateFilter::PendingApproval => 1,
        StateFilter::Open | StateFilter::Closed => 0,
    };
    vec![
        f.environment.as_str().into(),
        status.into(),
        assignee_mode.into(),
        assignee.into(),
        pending.into(),
        f.min_age_seconds.into(),
        f.now.into(),
        after_at.into(),
        after_id.into(),
        f.limit.into(),
        f.overdue_only.into(),
        f.review_target.into(),
        (f.state == StateFilter::Closed).into(),
        // the tags are stored as a JSON array: a tag matches as a quoted element
        f.tag.as_ref().map_or(String::new(), |t| format!("%\"{t}\"%")).into(),
    ]
}

/// Sanctions and due-diligence cases for the queue, by when they opened.
pub(crate) async fn sanctions_cases(store: &dyn Store, f: &QueueFilter, kind: Option<CaseKind>) -> ApiResult<Vec<Queued>> {
    let mut params = queue_params(f, CaseStatus::Open.as_str());
    params.push(kind.map_or("", CaseKind::as_str).into());
    let rows = store
        .query(
            "SELECT c.case_id, c.tenant_id, c.external_user_id, c.created_at, c.review_due_at, t.clock_offset_seconds, w.assignee,
                    w.proposed_outcome, c.kind, c.status, w.tags
             FROM sanctions_cases c JOIN tenants t ON t.tenant_id = c.tenant_id LEFT JOIN case_work w ON w.case_id = c.case_id
             WHERE c.environment = ?1 AND ((?13 = 0 AND c.status = ?2) OR (?13 = 1 AND c.status <> ?2))
               AND (?3 = 0 OR (?3 = 1 AND w.assignee IS NULL) OR (?3 = 2 AND w.assignee = ?4))
               AND (?5 = 0 OR w.proposal_id IS NOT NULL)
               AND c.created_at + ?6 <= ?7 + t.clock_offset_seconds
               AND (?11 = 0 OR COALESCE(c.review_due_at, c.created_at + ?12) <= ?7 + t.clock_offset_seconds)
               AND (?14 = '' OR w.tags LIKE ?14)
               AND (?15 = '' OR c.kind = ?15)
               AND (c.created_at > ?8 OR (c.created_at = ?8 AND c.case_id > ?9))
             ORDER BY c.created_at, c.case_id LIMIT ?10",
            params,
        )
        .await?;
    rows.iter()
        .map(|row| {
            let kind = CaseKind::parse(&row.text(8)?).ok_or_else(ApiError::internal)?;
            let awaiting = CaseStatus::parse(&row.text(9)?) == Some(CaseStatus::Open);
            queued_from(row, CaseType::of_kind(kind), awaiting)
        })
        .collect()
}

/// AML cases of users, by when they opened.
pub(crate) async fn aml_cases(store: &dyn Store, f: &QueueFilter) -> ApiResult<Vec<Queued>> {
    let rows = store
        .query(
            "SELECT c.case_id, c.tenant_id, c.external_user_id, c.opened_at, c.due_at, t.clock_offset_seconds, w.assignee,
                    w.proposed_outcome, c.status, CAST(NULL AS TEXT), w.tags
             FROM aml_cases c JOIN tenants t ON t.tenant_id = c.tenant_id LEFT JOIN case_work w ON w.case_id = c.case_id
             WHERE c.environment = ?1 AND ((?13 = 0 AND c.status = ?2) OR (?13 = 1 AND c.status <> ?2))
               AND (?3 = 0 OR (?3 = 1 AND w.assignee IS NULL) OR (?3 = 2 AND w.assignee = ?4))
               AND (?5 = 0 OR w.proposal_id IS NOT NULL)
               AND c.opened_at + ?6 <= ?7 + t.clock_offset_seconds
               AND (?11 = 0 OR COALESCE(c.due_at, c.opened_at + ?12) <= ?7 + t.clock_offset_seconds)
               AND (?14 = '' OR w.tags LIKE ?14)
               AND (c.opened_at > ?8 OR (c.opened_at = ?8 AND c.case_id > ?9))
             ORDER BY c.opened_at, c.case_id LIMIT ?10",
            queue_params(f, crate::aml::store::AmlCaseStatus::Open.as_str()),
        )
        .await?;
    rows.iter()
        .map(|row| {
            let awaiting = crate::aml::store::AmlCaseStatus::parse(&row.text(8)?) == Some(crate::aml::store::AmlCaseStatus::Open);
            queued_from(row, CaseType::AmlAlert, awaiting)
        })
        .collect()
}

/// Players' access requests awaiting their release (or, closed, released), by when they were received.
pub(crate) async fn access_cases(store: &dyn Store, f: &QueueFilter) -> ApiResult<Vec<Queued>> {
    let rows = store
        .query(
            "SELECT a.access_request_id, a.tenant_id, a.external_user_id, a.received_at, a.due_at, t.clock_offset_seconds, w.assignee,
                    w.proposed_outcome, a.state, CAST(NULL AS TEXT), w.tags
             FROM access_requests a JOIN tenants t ON t.tenant_id = a.tenant_id LEFT JOIN case_work w ON w.case_id = a.access_request_id
             WHERE a.environment = ?1 AND ((?13 = 0 AND a.state = ?2) OR (?13 = 1 AND a.state <> ?2))
               AND (?3 = 0 OR (?3 = 1 AND w.assignee IS NULL) OR (?3 = 2 AND w.assignee = ?4))
               AND (?5 = 0 OR w.proposal_id IS NOT NULL)
               AND a.received_at + ?6 <= ?7 + t.clock_offset_seconds
               AND (?11 = 0 OR COALESCE(a.due_at, a.received_at + ?12) <= ?7 + t.clock_offset_seconds)
               AND (?14 = '' OR w.tags LIKE ?14)
               AND (a.received_at > ?8 OR (a.received_at = ?8 AND a.access_request_id > ?9))
             ORDER BY a.received_at, a.access_request_id LIMIT ?10",
            queue_params(f, crate::access::AccessState::Preparing.as_str()),
        )
        .await?;
    rows.iter()
        .map(|row| {
            let awaiting = crate::access::AccessState::parse(&row.text(8)?) == Some(crate::access::AccessState::Preparing);
            queued_from(row, CaseType::AccessRequest, awaiting)
        })
        .collect()
}

/// KYC checks awaiting a person (or, closed, decided after a person's work on them), by when they began to wait.
pub(crate) async fn kyc_cases(store: &dyn Store, f: &QueueFilter) -> ApiResult<Vec<Queued>> {
    let rows = store
        .query(
            "SELECT k.kyc_check_id, k.tenant_id, k.external_user_id, k.updated_at, CAST(NULL AS BIGINT), t.clock_offset_seconds, w.assignee,
                    w.proposed_outcome, k.status, CAST(NULL AS TEXT), w.tags
             FROM kyc_checks k JOIN tenants t ON t.tenant_id = k.tenant_id LEFT JOIN case_work w ON w.case_id = k.kyc_check_id
             WHERE k.environment = ?1 AND ((?13 = 0 AND k.status = ?2) OR (?13 = 1 AND k.status <> ?2 AND w.case_id IS NOT NULL))
               AND (?3 = 0 OR (?3 = 1 AND w.assignee IS NULL) OR (?3 = 2 AND w.assignee = ?4))
               AND (?5 = 0 OR w.proposal_id IS NOT NULL)
               AND k.updated_at + ?6 <= ?7 + t.clock_offset_seconds
               AND (?11 = 0 OR k.updated_at + ?12 <= ?7 + t.clock_offset_seconds)
               AND (?14 = '' OR w.tags LIKE ?14)
               AND (k.updated_at > ?8 OR (k.updated_at = ?8 AND k.kyc_check_id > ?9))
             ORDER BY k.updated_at, k.kyc_check_id LIMIT ?10",
            queue_params(f, KycStatus::PendingReview.as_str()),
        )
        .await?;
    rows.iter()
        .map(|row| {
            let awaiting = KycStatus::parse(&row.text(8)?) == Some(KycStatus::PendingReview);
            queued_from(row, CaseType::KycReview, awaiting)
        })
        .collect()
}

/// A pending proposal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Proposal {
    pub proposal_id: String,
    pub outcome: Outcome,
    pub reason: String,
    pub proposed_by: String,
    pub proposed_at: i64,
    /// the digest of the evidence it was made on
    pub evidence: String,
}

/// A case's file: `version` 0 when no one has acted on the case yet.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Work {
    pub assignee: Option<String>,
    /// the team's labels, sorted
    pub tags: Vec<String>,
    pub proposal: Option<Proposal>,
    pub version: i64,
}

pub(crate) async fn work(store: &dyn Store, environment: Environment, case_id: &str) -> ApiResult<Work> {
    let rows = store
        .query(
            "SELECT assignee, proposal_id, proposed_outcome, proposal_reason, proposed_by, proposed_at, proposal_evidence, version, tags
             FROM case_work WHERE case_id = ?1 AND environment = ?2",
            vec![case_id.into(), environment.as_str().into()],
        )
        .await?;
    let Some(row) = rows.first() else { return Ok(Work::default()) };
    let proposal = match row.opt_text(1)? {
        None => None,
        Some(proposal_id) => Some(Proposal {
            proposal_id,
            outcome: Outcome::parse(&row.text(2)?).ok_or_else(ApiError::internal)?,
            reason: row.text(3)?,
            proposed_by: row.text(4)?,
            proposed_at: row.int(5)?,
            evidence: row.text(6)?,
        }),
    };
    let tags = serde_json::from_str(&row.text(8)?).map_err(|_| ApiError::internal())?;
    Ok(Work { assignee: row.opt_text(0)?, tags, proposal, version: row.int(7)? })
}

/// Writes a case's file as `next`, if it is still at the version read: the
/// batch loses when another action on the case committed meanwhile.
pub(crate) fn save_work(case_id: &str, environment: Environment, read_version: i64, next: &Work, now: i64) -> Vec<Stmt> {
    let p = next.proposal.as_ref();
    vec![
        Stmt::new(
            "INSERT INTO case_work (case_id, environment, version, updated_at) VALUES (?1, ?2, 0, ?3) ON CONFLICT (case_id) DO NOTHING",
            vec![case_id.into(), environment.as_str().into(), now.into()],
        ),
        Stmt::expect_one(
            "UPDATE case_work SET assignee = ?3, proposal_id = ?4, proposed_outcome = ?5, proposal_reason = ?6, proposed_by = ?7,
                    proposed_at = ?8, proposal_evidence = ?9, version = version + 1, updated_at = ?10, tags = ?12
             WHERE case_id = ?1 AND environment = ?2 AND version = ?11",
            vec![
                case_id.into(),
                environment.as_str().into(),
                next.assignee.as_deref().into(),
                p.map(|p| p.proposal_id.as_str()).into(),
                p.map(|p| p.outcome.as_str()).into(),
                p.map(|p| p.reason.as_str()).into(),
                p.map(|p| p.proposed_by.as_str()).into(),
                p.map(|p| p.proposed_at).into(),
                p.map(|p| p.evidence.as_str()).into(),
                now.into(),
                read_version.into(),
                serde_json::to_string(&next.tags).unwrap_or_else(|_| String::from("[]")).into(),
            ],
        ),
    ]
}

/// One entry of a case's timeline.
pub(crate) struct Event {
    pub event_id: String,
    pub kind: EventKind,
    pub actor: String,
    /// a JSON object: the comment, the outcome and reason, the assignee
    pub detail: String,
    pub at: i64,
    /// its place in the timeline: the case file's version it was written with, then its place in the batch
    pub seq: i64,
}

/// Events per batch the timeline's order has room for.
const EVENTS_PER_VERSION: i64 = 16;

/// The timeline place of the `index`-th event written with the case file's version `version`.
pub(crate) fn event_seq(version: i64, index: i64) -> i64 {
    version.saturating_mul(EVENTS_PER_VERSION).saturating_add(index)
}

pub(crate) fn append_event(case_id: &str, environment: Environment, event: &Event) -> Stmt {
    Stmt::new(
        "INSERT INTO case_events (event_id, case_id, environment, kind, actor, detail, at, seq) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        vec![
            event.event_id.as_str().into(),
            case_id.into(),
            environment.as_str().into(),
            event.kind.as_str().into(),
            event.actor.as_str().into(),
            event.detail.as_str().into(),
            event.at.into(),
            event.seq.into(),
        ],
    )
}

/// A case's timeline, oldest first.
pub(crate) async fn events(store: &dyn Store, environment: Environment, case_id: &str) -> ApiResult<Vec<Event>> {
    let rows = store
        .query(
            "SELECT event_id, kind, actor, detail, at, seq FROM case_events WHERE case_id = ?1 AND environment = ?2 ORDER BY seq",
            vec![case_id.into(), environment.as_str().into()],
        )
        .await?;
    rows.iter()
        .map(|row| {
            Ok(Event {
                event_id: row.text(0)?,
                kind: EventKind::parse(&row.text(1)?).ok_or_else(ApiError::internal)?,
                actor: row.text(2)?,
                detail: row.text(3)?,
                at: row.int(4)?,
                seq: row.int(5)?,
            })
        })
        .collect()
}
