//! Erasure's persistence: the jobs, a player's facts that date their
//! classes, and the statements that restrict, redact or delete each class
//! of a player's records.

use rules_model::jurisdictions::RecordClass;

use crate::error::ApiResult;
use crate::ports::{Read, Row, Stmt, Store, Value};
use crate::webhooks::store::DeliveryStatus;

/// An erasure job as stored.
pub struct Job {
    pub erasure_id: String,
    pub tenant_id: String,
    pub external_user_id: String,
    pub state: String,
    pub classes: String,
    pub hash_key: Option<String>,
    pub updated_at: i64,
    pub requested_by: String,
    pub relationship_end: i64,
}

fn job(row: &Row) -> ApiResult<Job> {
    Ok(Job {
        erasure_id: row.text(0)?,
        tenant_id: row.text(1)?,
        external_user_id: row.text(2)?,
        state: row.text(3)?,
        classes: row.text(4)?,
        hash_key: row.opt_text(5)?,
        updated_at: row.int(6)?,
        requested_by: row.text(7)?,
        relationship_end: row.int(8)?,
    })
}

/// The job of a player, if one was made.
pub async fn job_of_user(store: &dyn Store, tenant_id: &str, user_id: &str) -> ApiResult<Option<Job>> {
    let rows = store
        .query(
            "SELECT erasure_id, tenant_id, external_user_id, state, classes, hash_key, updated_at, requested_by, relationship_end FROM erasures
             WHERE tenant_id = ?1 AND external_user_id = ?2",
            vec![tenant_id.into(), user_id.into()],
        )
        .await?;
    rows.first().map(job).transpose()
}

/// A job by its id, with its tenant's environment.
pub async fn job_by_id(store: &dyn Store, erasure_id: &str) -> ApiResult<Option<(Job, String)>> {
    let rows = store
        .query(
            "SELECT e.erasure_id, e.tenant_id, e.external_user_id, e.state, e.classes, e.hash_key, e.updated_at, e.requested_by, e.relationship_end, t.environment
             FROM erasures e JOIN tenants t ON t.tenant_id = e.tenant_id WHERE e.erasure_id = ?1",
            vec![erasure_id.into()],
        )
        .await?;
    rows.first().map(|r| Ok((job(r)?, r.text(9)?))).transpose()
}

/// What a sandbox tenant advanced its clock by (`t`, its tenants row): its
/// players' dates are on its clock, the sweep's `now` on the service's.
macro_rules! clock_offset {
    () => {
        "CASE WHEN t.environment = 'sandbox' THEN t.clock_offset_seconds ELSE 0 END"
    };
}

/// Jobs with a class due on their tenant's clock at `now`, oldest due first,
/// at most `limit`: those due on the service's clock by the `(state,
/// next_due_at)` index, then those of the sandbox tenants that advanced their
/// clock (a tenant's own jobs, by its key) due on theirs.
pub async fn due_jobs(store: &dyn Store, held: &str, now: i64, limit: i64) -> ApiResult<Vec<Job>> {
    let rows = store
        .query(
            "SELECT erasure_id, tenant_id, external_user_id, state, classes, hash_key, updated_at, requested_by, relationship_end, next_due_at
             FROM erasures WHERE state = ?1 AND next_due_at IS NOT NULL AND next_due_at <= ?2
             UNION ALL
             SELECT e.erasure_id, e.tenant_id, e.external_user_id, e.state, e.classes, e.hash_key, e.updated_at, e.requested_by, e.relationship_end,
               e.next_due_at
             FROM tenants t JOIN erasures e ON e.tenant_id = t.tenant_id
             WHERE t.environment = 'sandbox' AND t.clock_offset_seconds > 0 AND e.state = ?1
               AND e.next_due_at > ?2 AND e.next_due_at <= ?2 + t.clock_offset_seconds
             ORDER BY 10 LIMIT ?3",
            vec![held.into(), now.into(), limit.into()],
        )
        .await?;
    rows.iter().map(job).collect()
}

/// Jobs still `validating` whose request stopped before dating them (made
/// before `made_before` on their tenant's clock), oldest first, at most `limit`.
pub async fn stalled_jobs(store: &dyn Store, validating: &str, made_before: i64, limit: i64) -> ApiResult<Vec<Job>> {
    let rows = store
        .query(
            concat!(
                "SELECT e.erasure_id, e.tenant_id, e.external_user_id, e.state, e.classes, e.hash_key, e.updated_at, e.requested_by, e.relationship_end
                 FROM erasures e JOIN tenants t ON t.tenant_id = e.tenant_id
                 WHERE e.state = ?1 AND e.created_at <= ?2 + ",
                clock_offset!(),
                " ORDER BY e.created_at LIMIT ?3"
            ),
            vec![validating.into(), made_before.into(), limit.into()],
        )
        .await?;
    rows.iter().map(job).collect()
}

/// A new job.
pub struct NewJob<'a> {
    pub erasure_id: &'a str,
    pub tenant_id: &'a str,
    pub user_id: &'a str,
    pub state: &'a str,
    pub requested_by: &'a str,
    pub relationship_end: i64,
    pub classes: String,
    pub next_due_at: Option<i64>,
    pub hash_key: Option<String>,
    pub now: i64,
}

/// Inserts a job; the unique (tenant, user) makes a second one lose.
pub fn insert_job(j: NewJob<'_>) -> Stmt {
    Stmt::new(
        "INSERT INTO erasures (erasure_id, tenant_id, external_user_id, state, requested_by, relationship_end, classes, next_due_at, hash_key,
            created_at, updated_at, completed_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10, CASE WHEN ?4 = 'erased' THEN CAST(?10 AS BIGINT) END)",
        vec![
            j.erasure_id.into(),
            j.tenant_id.into(),
            j.user_id.into(),
            j.state.into(),
            j.requested_by.into(),
            j.relationship_end.into(),
            j.classes.into(),
            Value::from(j.next_due_at),
            Value::from(j.hash_key),
            j.now.into(),
        ],
    )
}

/// Dates a `validating` job: its state, classes and next date; only if it
/// is still `validating` (a second finisher loses).
pub fn validated_job(erasure_id: &str, validating: &str, state: &str, classes: String, next_due_at: Option<i64>, now: i64) -> Stmt {
    Stmt::expect_one(
        "UPDATE erasures SET state = ?3, classes = ?4, next_due_at = ?5, updated_at = ?6,
            completed_at = CASE WHEN ?3 = 'erased' THEN CAST(?6 AS BIGINT) ELSE completed_at END,
            hash_key = CASE WHEN ?3 = 'erased' THEN NULL ELSE hash_key END
         WHERE erasure_id = ?1 AND state = ?2",
        vec![erasure_id.into(), validating.into(), state.into(), classes.into(), Value::from(next_due_at), now.into()],
    )
}

/// Moves a job on, only if nothing else did since `read_at` (its `updated_at`).
pub fn advance_job(erasure_id: &str, state: &str, classes: String, next_due_at: Option<i64>, read_at: i64, now: i64) -> Stmt {
    Stmt::expect_one(
        "UPDATE erasures SET state = ?2, classes = ?3, next_due_at = ?4, updated_at = ?6,
            completed_at = CASE WHEN ?2 = 'erased' THEN ?6 ELSE completed_at END,
            hash_key = CASE WHEN ?2 = 'erased' THEN NULL ELSE hash_key END
         WHERE erasure_id = ?1 AND updated_at = ?5",
        vec![erasure_id.into(), state.into(), classes.into(), Value::from(next_due_at), read_at.into(), now.into()],
    )
}

/// What dates a player's classes: the relationship's end or last activity,
/// and the latest transaction record the operator reported.
pub struct SubjectRow {
    /// the closure of the relationship, unless the player came back since ([`SubjectRow::ended_at`])
    pub closed_at: Option<i64>,
    pub last_active_at: i64,
    pub last_record_at: Option<i64>,
    pub email: String,
    /// the user row's version: a batch that writes the row claims it ([`claim_subject`])
    pub version: i64,
}

impl SubjectRow {
    /// When the relationship ended: its closure, unless the player came back
    /// after it (a later deposit, withdrawal, AML event or change of theirs
    /// opens it again, and a closure before that ends nothing).
    pub fn ended_at(&self) -> Option<i64> {
        self.closed_at.filter(|closed| self.last_active_at <= *closed)
    }
}

/// A player's exclusions: when each took effect and ends (`None`: never).
pub struct ExclusionRow {
    pub effective_from: i64,
    pub expires_at: Option<i64>,
}

/// The reads of a subject's facts, for one round trip per batch of players.
pub fn subject_reads(tenant_id: &str, user_id: &str) -> [Read; 3] {
    let key = || vec![Value::from(tenant_id), Value::from(user_id)];
    [
        Read::new("SELECT closed_at, updated_at, aml_last_seen_at, email, version FROM users WHERE tenant_id = ?1 AND external_user_id = ?2", key()),
        Read::new(
            "SELECT (SELECT MAX(committed_at) FROM deposit_transactions WHERE tenant_id = ?1 AND external_user_id = ?2),
                    (SELECT MAX(received_at) FROM aml_events WHERE tenant_id = ?1 AND external_user_id = ?2),
                    (SELECT MAX(updated_at) FROM withdrawals WHERE tenant_id = ?1 AND external_user_id = ?2)",
            key(),
        ),
        Read::new("SELECT effective_from, expires_at FROM exclusions WHERE tenant_id = ?1 AND external_user_id = ?2 AND redacted_at IS NULL", key()),
    ]
}

/// The subject and its exclusions from the rows of [`subject_reads`]; `None`: no such player.
pub fn subject_from(rows: &[Vec<Row>]) -> ApiResult<Option<(SubjectRow, Vec<ExclusionRow>)>> {
    let (Some(user), Some(records), Some(exclusions)) = (rows.first(), rows.get(1), rows.get(2)) else { return Ok(None) };
    let Some(u) = user.first() else { return Ok(None) };
    let mut last_record_at: Option<i64> = None;
    if let Some(r) = records.first() {
        for i in 0..3 {
            if let Some(at) = r.opt_int(i)? {
                last_record_at = Some(last_record_at.map_or(at, |l| l.max(at)));
            }
        }
    }
    // the last sign of the player: a change of theirs, an AML event, a transaction record
    let last_active_at = u.int(1)?.max(u.opt_int(2)?.unwrap_or(i64::MIN)).max(last_record_at.unwrap_or(i64::MIN));
    let subject = SubjectRow { closed_at: u.opt_int(0)?, last_active_at, last_record_at, email: u.text(3)?, version: u.int(4)? };
    let exclusions =
        exclusions.iter().map(|r| Ok(ExclusionRow { effective_from: r.int(0)?, expires_at: r.opt_int(1)? })).collect::<ApiResult<_>>()?;
    Ok(Some((subject, exclusions)))
}

/// Records the end of the relationship: a second close keeps the first
/// (its caller asks only while none holds, [`SubjectRow::ended_at`]), a
/// closure the player came back from is replaced.
pub fn close(tenant_id: &str, user_id: &str, now: i64) -> Stmt {
    Stmt::new(
        "UPDATE users SET closed_at = ?3 WHERE tenant_id = ?1 AND external_user_id = ?2 AND (closed_at IS NULL OR closed_at < ?3)",
        vec![tenant_id.into(), user_id.into(), now.into()],
    )
}

/// When the relationship ended ([`SubjectRow::ended_at`]) and the user row's
/// version, if the player exists.
pub async fn ended_at(store: &dyn Store, tenant_id: &str, user_id: &str) -> ApiResult<Option<(Option<i64>, i64)>> {
    let rows = store.query_many(subject_reads(tenant_id, user_id).to_vec()).await?;
    Ok(subject_from(&rows)?.map(|(subject, _)| (subject.ended_at(), subject.version)))
}

/// Claims the player's row for a batch of the erasure that writes it (its
/// close, restriction or redaction): the batch commits only if no other write
/// to the player committed since `version` was read. It leaves `updated_at`,
/// the player's own last change, as it was: an erasure is not the player back.
pub fn claim_subject(tenant_id: &str, user_id: &str, version: i64) -> Stmt {
    Stmt::expect_one(
        "UPDATE users SET version = version + 1 WHERE tenant_id = ?1 AND external_user_id = ?2 AND version = ?3",
        vec![tenant_id.into(), user_id.into(), version.into()],
    )
}

/// Hides the player from operator reads (GDPR Art. 18): what a law keeps is
/// restricted. The first screening's stored answer (kept for replaying a
/// repeated signup) is dropped with its fingerprint, as an erased player's
/// is: a repeat is then a screening with other details (409
/// `already_screened`); the screening's record (status, id, time, cases and
/// the details screened) stays, restricted. Its batch claims the player
/// ([`claim_subject`]).
pub fn restrict(tenant_id: &str, user_id: &str, now: i64) -> Stmt {
    Stmt::new(
        "UPDATE users SET restricted_at = ?3, screen_fingerprint = '', screen_response = '{}'
         WHERE tenant_id = ?1 AND external_user_id = ?2 AND restricted_at IS NULL",
        vec![tenant_id.into(), user_id.into(), now.into()],
    )
}

/// The player's access requests and their case files (the team's notes on
/// them): an export is a copy of every class, so it goes when the player is
/// restricted, before any class's date.
pub fn forget_access_requests(tenant_id: &str, user_id: &str) -> Vec<Stmt> {
    let key = || vec![Value::from(tenant_id), Value::from(user_id)];
    vec![
        Stmt::new(
            "DELETE FROM case_events WHERE case_id IN (SELECT access_request_id FROM access_requests WHERE tenant_id = ?1 AND external_user_id = ?2)",
            key(),
        ),
        Stmt::new(
            "DELETE FROM case_work WHERE case_id IN (SELECT access_request_id FROM access_requests WHERE tenant_id = ?1 AND external_user_id = ?2)",
            key(),
        ),
        Stmt::new("DELETE FROM access_requests WHERE tenant_id = ?1 AND external_user_id = ?2", key()),
    ]
}

/// Forgets the tenant's stored `Idempotency-Key` answers that name the
/// player (`"user_id":…`): a retry with such a key runs afresh, under the
/// player's restriction or erasure, instead of handing back what the first
/// request answered.
pub fn forget_replies(tenant_id: &str, user_id: &str) -> Stmt {
    Stmt::new(
        "DELETE FROM idempotency_keys WHERE tenant_id = ?1 AND LENGTH(REPLACE(response, ?2, '')) < LENGTH(response)",
        vec![tenant_id.into(), naming_user(user_id).into()],
    )
}

/// A step of a job in the tenant's audit log (the resource is the job).
pub fn audit_step(audit_id: &str, tenant_id: &str, environment: &str, action: &str, step: &str, erasure_id: &str, now: i64) -> Stmt {
    Stmt::new(
        "INSERT INTO audit_log (audit_id, tenant_id, action, reason, key_prefix, request_id, at, environment, actor_key_id, resource)
         VALUES (?1, ?2, ?3, ?4, NULL, ?1, ?5, ?6, 'erasure', ?7)",
        vec![audit_id.into(), tenant_id.into(), action.into(), step.into(), now.into(), environment.into(), erasure_id.into()],
    )
}

/// The outbox rows (`o`) of a player's events: ?1 tenant, ?2 user, ?3 the
/// text that names the user in an envelope; and the environment-wide events
/// (`tenant_id` none) whose envelope names one of the player's exclusions.
/// "Contains" is `REPLACE` shortening the text, not `LIKE`: a pattern made
/// from an id has no wildcards to escape and no length limit (D1 refuses
/// `LIKE` patterns past a few dozen bytes), on every store alike.
macro_rules! subject_events {
    () => {
        "((o.tenant_id = ?1 AND LENGTH(REPLACE(o.envelope, ?3, '')) < LENGTH(o.envelope))
          OR (o.tenant_id IS NULL AND EXISTS (SELECT 1 FROM exclusions x WHERE x.tenant_id = ?1 AND x.external_user_id = ?2
                AND x.environment = o.environment
                AND LENGTH(REPLACE(o.envelope, '\"exclusion_id\":\"' || x.exclusion_id || '\"', '')) < LENGTH(o.envelope))))"
    };
}

/// The text that names the user in a stored JSON answer or envelope:
/// `"user_id":` and the id as JSON writes it (its closing quote included,
/// so `u1` never names `u10`).
fn naming_user(user_id: &str) -> String {
    format!("\"user_id\":{}", serde_json::Value::from(user_id))
}

/// An ended exclusion redacted in place: the e-mail, phone and stored answer
/// go; ids, duration and times stay. `$at` is the placeholder of the time.
/// The erasure's class and the retention sweep's redaction both start so.
macro_rules! redact_exclusions {
    ($at:literal) => {
        concat!("UPDATE exclusions SET email = NULL, phone = NULL, email_key = NULL, phone_key = NULL, response = '{}', redacted_at = ", $at)
    };
}
pub(crate) use redact_exclusions;

/// The team's free text on a case, emptied: each timeline entry's detail
/// (a comment, a proposal's reason) and the pending proposal's reason; who
/// did what, and when, stays with the case.
macro_rules! redact_case_events {
    () => {
        "UPDATE case_events SET detail = '{}'"
    };
}
macro_rules! redact_case_work {
    () => {
        "UPDATE case_work SET proposal_reason = CASE WHEN proposal_reason IS NULL THEN NULL ELSE '' END"
    };
}

/// The statements that erase one class of a player's records: personal
/// fields nulled or replaced by `keyed` (a keyed hash), ids, statuses and
/// times kept, `redacted_at` set; AML material and webhook payloads deleted.
///
/// `filings_from`: filings made after it are kept, with the case and
/// alerts they rest on (a profile whose period runs from each record keeps
/// a filing its period from the filing itself: 31 CFR 1021.320(d)).
pub fn erase_class(
    class: RecordClass,
    tenant_id: &str,
    user_id: &str,
    keyed_email: &str,
    filings_from: i64,
    kept: &[KeptEvent],
    now: i64,
) -> Vec<Stmt> {
    let key = || vec![Value::from(tenant_id), Value::from(user_id)];
    let at = || vec![Value::from(tenant_id), Value::from(user_id), Value::from(now)];
    match class {
        RecordClass::IdentityScreening => vec![
            Stmt::new(
                "UPDATE users SET email = ?4, first_name = '', last_name = '', date_of_birth = NULL, nationality = NULL, kyc_email = NULL,
                    kyc_phone = NULL, email_key = NULL, kyc_email_key = NULL, kyc_phone_key = NULL, screen_response = '{}', screen_fingerprint = '', redacted_at = ?3
                 WHERE tenant_id = ?1 AND external_user_id = ?2",
                vec![tenant_id.into(), user_id.into(), now.into(), keyed_email.into()],
            ),
            Stmt::new("UPDATE sanctions_cases SET matches = '[]' WHERE tenant_id = ?1 AND external_user_id = ?2", key()),
            Stmt::new("DELETE FROM dismissed_matches WHERE tenant_id = ?1 AND external_user_id = ?2", key()),
            // the team's free text on the player's sanctions cases (comments, proposal reasons) goes with the matches
            Stmt::new(
                concat!(redact_case_events!(), " WHERE case_id IN (SELECT case_id FROM sanctions_cases WHERE tenant_id = ?1 AND external_user_id = ?2)"),
                key(),
            ),
            Stmt::new(
                concat!(redact_case_work!(), " WHERE case_id IN (SELECT case_id FROM sanctions_cases WHERE tenant_id = ?1 AND external_user_id = ?2)"),
                key(),
            ),
        ],
        RecordClass::KycChecks => vec![
            Stmt::new(
                "UPDATE kyc_checks SET start_response = '{}', reviewer = NULL, redacted_at = ?3
                 WHERE tenant_id = ?1 AND external_user_id = ?2 AND redacted_at IS NULL",
                at(),
            ),
            // and the team's free text on the checks they reviewed
            Stmt::new(
                concat!(redact_case_events!(), " WHERE case_id IN (SELECT kyc_check_id FROM kyc_checks WHERE tenant_id = ?1 AND external_user_id = ?2)"),
                key(),
            ),
            Stmt::new(
                concat!(redact_case_work!(), " WHERE case_id IN (SELECT kyc_check_id FROM kyc_checks WHERE tenant_id = ?1 AND external_user_id = ?2)"),
                key(),
            ),
        ],
        RecordClass::AmlRecords => {
            let mut all: Vec<Stmt> = [
                "DELETE FROM aml_events WHERE tenant_id = ?1 AND external_user_id = ?2",
                "DELETE FROM aml_buckets WHERE tenant_id = ?1 AND external_user_id = ?2",
                "DELETE FROM aml_deposit_classes WHERE tenant_id = ?1 AND external_user_id = ?2",
                "DELETE FROM aml_instruments WHERE tenant_id = ?1 AND external_user_id = ?2",
                "DELETE FROM aml_alerted WHERE tenant_id = ?1 AND external_user_id = ?2",
                "DELETE FROM aml_pairs WHERE tenant_id = ?1 AND (from_user_id = ?2 OR to_user_id = ?2)",
                "DELETE FROM withdrawals WHERE tenant_id = ?1 AND external_user_id = ?2",
                "DELETE FROM deposits WHERE tenant_id = ?1 AND external_user_id = ?2",
                "DELETE FROM deposit_hours WHERE tenant_id = ?1 AND external_user_id = ?2",
                "DELETE FROM deposit_transactions WHERE tenant_id = ?1 AND external_user_id = ?2",
            ]
            .into_iter()
            .map(|sql| Stmt::new(sql, key()))
            .collect();
            // the filings drafted from the player's cases (issue #31 item 1): the officer's subject and the XML go,
            // with the cases and alerts, but for the filings still within their own period
            all.extend(erase_filed(tenant_id, user_id, filings_from, now, true));
            all
        }
        RecordClass::Exclusions => vec![
            Stmt::new(
                concat!(
                    redact_exclusions!("?3"),
                    " WHERE tenant_id = ?1 AND external_user_id = ?2 AND redacted_at IS NULL AND expires_at IS NOT NULL AND expires_at <= ?3"
                ),
                at(),
            ),
            // the evidence of the player's register checks, and their standing and codes at each register
            Stmt::new("DELETE FROM register_checks WHERE tenant_id = ?1 AND external_user_id = ?2", key()),
            Stmt::new("DELETE FROM register_players WHERE tenant_id = ?1 AND external_user_id = ?2", key()),
        ],
        RecordClass::LimitChanges => vec![Stmt::new(
            "UPDATE deposit_limits SET response = '{}', redacted_at = ?3 WHERE tenant_id = ?1 AND external_user_id = ?2 AND redacted_at IS NULL",
            at(),
        )],
        // the player's state-changing decisions, kept until this date however
        // old (the retention sweep prunes only decisions about no player);
        // read-only checks are pruned at the rules' horizon, never kept longer
        RecordClass::DecisionLog => vec![Stmt::new("DELETE FROM decisions WHERE user_id = ?2 AND tenant_id = ?1", key())],
        RecordClass::AuditLog => vec![Stmt::new(
            "DELETE FROM audit_log WHERE tenant_id = ?1 AND resource = ?2 AND (actor_key_id IS NULL OR actor_key_id <> 'erasure')",
            key(),
        )],
        RecordClass::WebhookPayloads => erase_payloads(tenant_id, user_id, kept),
    }
}

/// The player's shared exclusion events still to be sent to another operator
/// (not fanned out yet, or a delivery to another tenant pending), each with
/// its exclusion's contacts and end: what [`PendingExclusionEvent`] reads.
pub fn pending_exclusion_events(tenant_id: &str, user_id: &str) -> Read {
    Read::new(
        "SELECT o.event_id, o.envelope, x.email, x.email_key, x.phone, x.expires_at, x.redacted_at FROM outbox o
         JOIN exclusions x ON x.tenant_id = ?1 AND x.external_user_id = ?2 AND x.environment = o.environment
           AND LENGTH(REPLACE(o.envelope, '\"exclusion_id\":\"' || x.exclusion_id || '\"', '')) < LENGTH(o.envelope)
         WHERE o.tenant_id IS NULL AND (o.dispatched = 0 OR EXISTS (SELECT 1 FROM webhook_deliveries d
           WHERE d.event_id = o.event_id AND d.tenant_id <> ?1 AND d.status = ?3))",
        vec![tenant_id.into(), user_id.into(), DeliveryStatus::Pending.as_str().into()],
    )
}

/// A shared exclusion event of the player still owed to another operator.
pub struct PendingExclusionEvent {
    pub event_id: String,
    pub envelope: String,
    pub email: Option<String>,
    pub email_key: Option<String>,
    pub phone: Option<String>,
    pub expires_at: Option<i64>,
    pub redacted: bool,
}

pub fn pending_exclusion_events_from(rows: &[Row]) -> ApiResult<Vec<PendingExclusionEvent>> {
    rows.iter()
        .map(|r| {
            Ok(PendingExclusionEvent {
                event_id: r.text(0)?,
                envelope: r.text(1)?,
                email: r.opt_text(2)?,
                email_key: r.opt_text(3)?,
                phone: r.opt_text(4)?,
                expires_at: r.opt_int(5)?,
                redacted: r.opt_int(6)?.is_some(),
            })
        })
        .collect()
}

/// The player as an erasure dates it ([`subject_reads`]), with the shared
/// exclusion events still owed to other operators, in one read; `None`: no such player.
pub async fn read_subject(
    store: &dyn Store,
    tenant_id: &str,
    user_id: &str,
) -> ApiResult<Option<(SubjectRow, Vec<ExclusionRow>, Vec<PendingExclusionEvent>)>> {
    let mut reads = subject_reads(tenant_id, user_id).to_vec();
    reads.push(pending_exclusion_events(tenant_id, user_id));
    let rows = store.query_many(reads).await?;
    let Some((subject, exclusions)) = subject_from(&rows)? else { return Ok(None) };
    Ok(Some((subject, exclusions, pending_exclusion_events_from(rows.get(3).map_or(&[], Vec::as_slice))?)))
}

/// The read of [`pending_exclusion_events`] on its own.
pub async fn read_pending_exclusion_events(store: &dyn Store, tenant_id: &str, user_id: &str) -> ApiResult<Vec<PendingExclusionEvent>> {
    let rows = store.query_many(vec![pending_exclusion_events(tenant_id, user_id)]).await?;
    pending_exclusion_events_from(rows.first().map_or(&[], Vec::as_slice))
}

/// A shared exclusion event kept through the erasure, its envelope minimised.
pub struct KeptEvent {
    pub event_id: String,
    pub envelope: String,
    pub minimised: String,
}

/// Whether `o` is one of the kept events (?4, a JSON array of their ids).
macro_rules! kept_event {
    () => {
        "LENGTH(REPLACE(?4, '\"' || o.event_id || '\"', '')) < LENGTH(?4)"
    };
}

/// The deliveries of the player's events ([`subject_events`]) that go with
/// them: all but a kept event's still pending to another tenant.
macro_rules! erased_deliveries {
    () => {
        concat!(
            "SELECT d.delivery_id FROM webhook_deliveries d JOIN outbox o ON o.event_id = d.event_id WHERE ",
            subject_events!(),
            " AND NOT (",
            kept_event!(),
            " AND d.tenant_id <> ?1 AND d.status = ?5)"
        )
    };
}

/// The tenant's stored events naming the player, and the events of the
/// player's exclusions fanned out to every tenant of the environment
/// (shared exclusions), with their deliveries and attempts; but for the
/// `kept` events (still owed to another operator, issue #46): their envelope
/// is minimised and their pending deliveries to other tenants stay, to be sent.
pub(crate) fn erase_payloads(tenant_id: &str, user_id: &str, kept: &[KeptEvent]) -> Vec<Stmt> {
    let ids = serde_json::Value::from(kept.iter().map(|k| k.event_id.clone()).collect::<Vec<_>>()).to_string();
    let matching = || vec![Value::from(tenant_id), Value::from(user_id), Value::from(naming_user(user_id)), Value::from(ids.as_str())];
    let with_pending = || {
        let mut v = matching();
        v.push(DeliveryStatus::Pending.as_str().into());
        v
    };
    let mut statements: Vec<Stmt> = kept
        .iter()
        .map(|k| {
            Stmt::new(
                "UPDATE outbox SET envelope = ?2 WHERE event_id = ?1 AND envelope = ?3",
                vec![k.event_id.as_str().into(), k.minimised.as_str().into(), k.envelope.as_str().into()],
            )
        })
        .collect();
    statements.extend([
        Stmt::new(concat!("DELETE FROM webhook_attempts WHERE delivery_id IN (", erased_deliveries!(), ")"), with_pending()),
        Stmt::new(concat!("DELETE FROM webhook_deliveries WHERE delivery_id IN (", erased_deliveries!(), ")"), with_pending()),
        Stmt::new(
            concat!(
                "DELETE FROM outbox WHERE event_id IN (SELECT o.event_id FROM outbox o WHERE ",
                subject_events!(),
                " AND NOT ",
                kept_event!(),
                ")"
            ),
            matching(),
        ),
    ]);
    statements
}

/// The player's AML cases an erasure deletes: ?1 tenant, ?2 user, ?3 the
/// filings' cutoff, ?4 1 for every case (else only those of the erased
/// filings); never a case a filing after the cutoff rests on.
macro_rules! erased_aml_cases {
    () => {
        "tenant_id = ?1 AND external_user_id = ?2
           AND (CAST(?4 AS BIGINT) = 1 OR case_id IN (SELECT f.case_id FROM aml_filings f WHERE f.tenant_id = ?1 AND f.external_user_id = ?2 AND f.created_at <= ?3))
           AND case_id NOT IN (SELECT f.case_id FROM aml_filings f WHERE f.tenant_id = ?1 AND f.external_user_id = ?2 AND f.created_at > ?3)"
    };
}

/// The statements that erase a player's filings made at or before `cutoff`
/// (the officer's subject and the XML nulled, `redacted_at` set) and delete
/// the cases and alerts no filing made after it rests on: every case of
/// the player when `all_cases`, else only the cases of the erased filings.
pub fn erase_filed(tenant_id: &str, user_id: &str, cutoff: i64, now: i64, all_cases: bool) -> Vec<Stmt> {
    let cutoff = cutoff.clamp(-crate::ports::MAX_STORED_INTEGER, crate::ports::MAX_STORED_INTEGER);
    let cases = || vec![Value::from(tenant_id), Value::from(user_id), Value::from(cutoff), Value::from(i64::from(all_cases))];
    vec![
        Stmt::new(
            "DELETE FROM aml_alerts WHERE tenant_id = ?1 AND external_user_id = ?2
               AND (CAST(?4 AS BIGINT) = 1 OR case_id IN (SELECT f.case_id FROM aml_filings f WHERE f.tenant_id = ?1 AND f.external_user_id = ?2 AND f.created_at <= ?3))
               AND (case_id IS NULL OR case_id NOT IN (SELECT f.case_id FROM aml_filings f WHERE f.tenant_id = ?1 AND f.external_user_id = ?2 AND f.created_at > ?3))",
            cases(),
        ),
        // the team's timeline and work on the cases deleted below (comments, proposals): none is left without its case
        Stmt::new(concat!("DELETE FROM case_events WHERE case_id IN (SELECT case_id FROM aml_cases WHERE ", erased_aml_cases!(), ")"), cases()),
        Stmt::new(concat!("DELETE FROM case_work WHERE case_id IN (SELECT case_id FROM aml_cases WHERE ", erased_aml_cases!(), ")"), cases()),
        Stmt::new(concat!("DELETE FROM aml_cases WHERE ", erased_aml_cases!()), cases()),
        Stmt::new(
            "UPDATE aml_filings SET xml = NULL, subject = NULL, redacted_at = ?4
             WHERE tenant_id = ?1 AND external_user_id = ?2 AND redacted_at IS NULL AND created_at <= ?3",
            vec![Value::from(tenant_id), Value::from(user_id), Value::from(cutoff), Value::from(now)],
        ),
    ]
}

/// Players who asked, under a profile, with a filing made before `cutoff`
/// on their tenant's clock; each with its tenant's clock offset.
pub async fn expired_filings(store: &dyn Store, jurisdiction: &str, cutoff: i64, limit: i64) -> ApiResult<Vec<(String, String, i64)>> {
    let rows = store
        .query(
            concat!(
                "SELECT DISTINCT f.tenant_id, f.external_user_id, ",
                clock_offset!(),
                " FROM aml_filings f JOIN tenants t ON t.tenant_id = f.tenant_id
             WHERE t.jurisdiction = ?1 AND f.redacted_at IS NULL AND f.created_at <= ?2 + ",
                clock_offset!(),
                "
               AND EXISTS (SELECT 1 FROM erasures e WHERE e.tenant_id = f.tenant_id AND e.external_user_id = f.external_user_id)
             LIMIT ?3"
            ),
            vec![jurisdiction.into(), cutoff.into(), limit.into()],
        )
        .await?;
    rows.iter().map(|r| Ok((r.text(0)?, r.text(1)?, r.int(2)?))).collect()
}

/// Players whose relationship ended before `ended_before` (closed, and not
/// back since: no deposit, withdrawal, AML event or change of theirs after
/// the closure) or who have been idle since `idle_before` (never closed, or
/// back since the closure), under a profile, with no job yet: at most `limit`.
/// Both bounds are on the service's clock, each tenant's run ahead by its own.
pub async fn unasked_candidates(
    store: &dyn Store,
    jurisdiction: &str,
    ended_before: i64,
    idle_before: i64,
    limit: i64,
) -> ApiResult<Vec<(String, String)>> {
    let rows = store
        .query(
            concat!(
                "SELECT u.tenant_id, u.external_user_id FROM users u
             JOIN (SELECT t.tenant_id, ?2 + ",
                clock_offset!(),
                " AS ended_before, ?3 + ",
                clock_offset!(),
                " AS idle_before
                   FROM tenants t WHERE t.jurisdiction = ?1) c ON c.tenant_id = u.tenant_id
             WHERE ((u.closed_at IS NOT NULL AND u.closed_at <= c.ended_before
                     AND u.updated_at <= u.closed_at AND COALESCE(u.aml_last_seen_at, u.closed_at) <= u.closed_at
                     AND NOT EXISTS (SELECT 1 FROM deposit_transactions d
                                     WHERE d.tenant_id = u.tenant_id AND d.external_user_id = u.external_user_id AND d.committed_at > u.closed_at)
                     AND NOT EXISTS (SELECT 1 FROM withdrawals w
                                     WHERE w.tenant_id = u.tenant_id AND w.external_user_id = u.external_user_id AND w.updated_at > u.closed_at))
                    OR (u.updated_at <= c.idle_before AND COALESCE(u.aml_last_seen_at, c.idle_before) <= c.idle_before
                        AND NOT EXISTS (SELECT 1 FROM deposit_transactions d
                                        WHERE d.tenant_id = u.tenant_id AND d.external_user_id = u.external_user_id AND d.committed_at > c.idle_before)
                        AND NOT EXISTS (SELECT 1 FROM withdrawals w
                                        WHERE w.tenant_id = u.tenant_id AND w.external_user_id = u.external_user_id AND w.updated_at > c.idle_before)
                        AND (u.closed_at IS NULL OR u.updated_at > u.closed_at OR COALESCE(u.aml_last_seen_at, u.closed_at) > u.closed_at
                             OR EXISTS (SELECT 1 FROM deposit_transactions d
                                        WHERE d.tenant_id = u.tenant_id AND d.external_user_id = u.external_user_id AND d.committed_at > u.closed_at)
                             OR EXISTS (SELECT 1 FROM withdrawals w
                                        WHERE w.tenant_id = u.tenant_id AND w.external_user_id = u.external_user_id AND w.updated_at > u.closed_at))))
               AND NOT EXISTS (SELECT 1 FROM erasures e WHERE e.tenant_id = u.tenant_id AND e.external_user_id = u.external_user_id)
             LIMIT ?4"
            ),
            vec![jurisdiction.into(), ended_before.into(), idle_before.into(), limit.into()],
        )
        .await?;
    rows.iter().map(|r| Ok((r.text(0)?, r.text(1)?))).collect()
}

/// A tenant's jurisdiction and environment, if it exists.
/// A tenant as the sweep dates its players: its profile, environment and the
/// seconds its sandbox clock was advanced (0 in production).
pub struct TenantClock {
    pub jurisdiction: String,
    pub environment: String,
    pub clock_offset_seconds: i64,
}

pub async fn tenant_with_clock(store: &dyn Store, tenant_id: &str) -> ApiResult<Option<TenantClock>> {
    let rows = store
        .query(
            "SELECT jurisdiction, environment, CASE WHEN environment = 'sandbox' THEN clock_offset_seconds ELSE 0 END FROM tenants WHERE tenant_id = ?1",
            vec![tenant_id.into()],
        )
        .await?;
    rows.first().map(|r| Ok(TenantClock { jurisdiction: r.text(0)?, environment: r.text(1)?, clock_offset_seconds: r.int(2)? })).transpose()
}
