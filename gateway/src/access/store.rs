//! Access requests' persistence: the jobs, and the one round trip that reads
//! everything the gateway holds about a player for the export.

use crate::auth::Environment;
use crate::cases::EventKind;
use crate::error::{ApiError, ApiResult};
use crate::ports::{Read, Row, Stmt, Store, Value};

use super::AccessState;

/// An access request as stored.
#[derive(Debug, Clone)]
pub(crate) struct Job {
    pub access_request_id: String,
    pub tenant_id: String,
    pub environment: Environment,
    pub user_id: String,
    pub state: AccessState,
    pub received_at: i64,
    pub due_at: i64,
    /// the approved withholdings (the team's only), JSON
    pub withheld: String,
    /// the export, JSON, once released
    pub export: Option<String>,
    pub delivered_at: Option<i64>,
    /// the tenant's profile when the request was received: the one its answer is dated and withheld under
    pub jurisdiction: String,
}

macro_rules! job_columns {
    () => {
        "access_request_id, tenant_id, environment, external_user_id, state, received_at, due_at, withheld, export, delivered_at,
         jurisdiction"
    };
}

fn job(row: &Row) -> ApiResult<Job> {
    Ok(Job {
        access_request_id: row.text(0)?,
        tenant_id: row.text(1)?,
        environment: Environment::parse(&row.text(2)?).ok_or_else(ApiError::internal)?,
        user_id: row.text(3)?,
        state: AccessState::parse(&row.text(4)?).ok_or_else(ApiError::internal)?,
        received_at: row.int(5)?,
        due_at: row.int(6)?,
        withheld: row.text(7)?,
        export: row.opt_text(8)?,
        delivered_at: row.opt_int(9)?,
        jurisdiction: row.text(10)?,
    })
}

/// The key that holds one open request a player: the tenant and the player.
fn open_key(tenant_id: &str, user_id: &str) -> String {
    format!("{}\u{1f}{user_id}", tenant_id)
}

/// The player's open request (preparing or ready), if any.
pub(crate) async fn open_of_user(store: &dyn Store, tenant_id: &str, user_id: &str) -> ApiResult<Option<Job>> {
    let rows = store
        .query(concat!("SELECT ", job_columns!(), " FROM access_requests WHERE open_key = ?1"), vec![open_key(tenant_id, user_id).into()])
        .await?;
    rows.first().map(job).transpose()
}

/// A request by its id.
pub(crate) async fn by_id(store: &dyn Store, access_request_id: &str) -> ApiResult<Option<Job>> {
    let rows =
        store.query(concat!("SELECT ", job_columns!(), " FROM access_requests WHERE access_request_id = ?1"), vec![access_request_id.into()]).await?;
    rows.first().map(job).transpose()
}

/// A new request, `preparing`; a second open one of the player loses to the first (its `open_key`).
pub(crate) fn insert(job: &Job, now: i64) -> Stmt {
    Stmt::new(
        "INSERT INTO access_requests (access_request_id, tenant_id, environment, external_user_id, state, open_key, received_at, due_at, withheld,
            jurisdiction, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, '[]', ?10, ?9)",
        vec![
            job.access_request_id.as_str().into(),
            job.tenant_id.as_str().into(),
            job.environment.as_str().into(),
            job.user_id.as_str().into(),
            job.state.as_str().into(),
            open_key(&job.tenant_id, &job.user_id).into(),
            job.received_at.into(),
            job.due_at.into(),
            now.into(),
            job.jurisdiction.as_str().into(),
        ],
    )
}

/// The release: the export and the withholdings approved, only from `preparing`.
pub(crate) fn release(access_request_id: &str, export: &str, withheld: &str, by: &str, now: i64) -> Stmt {
    Stmt::expect_one(
        "UPDATE access_requests SET state = ?2, export = ?3, withheld = ?4, released_by = ?5, released_at = ?6
         WHERE access_request_id = ?1 AND state = ?7",
        vec![
            access_request_id.into(),
            AccessState::Ready.as_str().into(),
            export.into(),
            withheld.into(),
            by.into(),
            now.into(),
            AccessState::Preparing.as_str().into(),
        ],
    )
}

/// The operator handed the export to the player: the request closes (the player may ask again).
pub(crate) fn deliver(access_request_id: &str, now: i64) -> Stmt {
    Stmt::expect_one(
        "UPDATE access_requests SET state = ?2, delivered_at = ?3, open_key = NULL WHERE access_request_id = ?1 AND state = ?4",
        vec![access_request_id.into(), AccessState::Delivered.as_str().into(), now.into(), AccessState::Ready.as_str().into()],
    )
}

// ---------------------------------------------------------------- the player's records

/// Everything held about a player, as read for the export.
#[derive(Debug, Default)]
pub(crate) struct Holdings {
    pub identity: Option<Row>,
    pub kyc_checks: Vec<Row>,
    pub withdrawals: Vec<Row>,
    pub exclusions: Vec<Row>,
    pub limits: Vec<Row>,
    pub deposits: Vec<Row>,
    pub transactions: Vec<Row>,
    pub register_checks: Vec<Row>,
    pub events: Vec<Row>,
    pub alerts: Vec<Row>,
    pub aml_cases: Vec<Row>,
    pub filings: Vec<Row>,
    pub case_notes: Vec<Row>,
}

/// The case events the team writes words in: its notes (an assignment or an approval is none).
const NOTE_KINDS: [EventKind; 4] = [EventKind::Commented, EventKind::Tagged, EventKind::Proposed, EventKind::ProposalRejected];

/// The text that names the user in an outbox envelope (`"user_id":` and the id as JSON writes it).
fn naming_user(user_id: &str) -> String {
    format!("\"user_id\":{}", serde_json::Value::from(user_id))
}

/// Reads every record of the player in one round trip; `None` for an unknown or restricted player.
pub(crate) async fn holdings(store: &dyn Store, tenant_id: &str, user_id: &str) -> ApiResult<Option<Holdings>> {
    let key = || vec![Value::from(tenant_id), Value::from(user_id)];
    let reads = vec![
        Read::new(
            "SELECT external_user_id, email, first_name, last_name, date_of_birth, nationality, kyc_email, kyc_phone, sanctions_status,
                    last_screened_at, screen_id, verified_tier, verified_at, created_at, closed_at, aml_withdrawals_held
             FROM users WHERE tenant_id = ?1 AND external_user_id = ?2 AND restricted_at IS NULL",
            key(),
        ),
        Read::new(
            "SELECT kyc_check_id, target_tier, status, created_at, updated_at FROM kyc_checks
             WHERE tenant_id = ?1 AND external_user_id = ?2 ORDER BY created_at, kyc_check_id",
            key(),
        ),
        Read::new(
            "SELECT withdrawal_id, amount_cents, currency, status, created_at FROM withdrawals
             WHERE tenant_id = ?1 AND external_user_id = ?2 ORDER BY created_at, withdrawal_id",
            key(),
        ),
        Read::new(
            "SELECT exclusion_id, duration, source, effective_from, expires_at, email, phone, created_at FROM exclusions
             WHERE tenant_id = ?1 AND external_user_id = ?2 ORDER BY created_at, exclusion_id",
            key(),
        ),
        Read::new(
            "SELECT limit_id, limit_type, amount_cents, currency, status, effective_from, cancelled_at, created_at FROM deposit_limits
             WHERE tenant_id = ?1 AND external_user_id = ?2 ORDER BY created_at, limit_id",
            key(),
        ),
        Read::new(
            "SELECT transaction_id, amount_cents, currency, at FROM deposits WHERE tenant_id = ?1 AND external_user_id = ?2 ORDER BY at, transaction_id",
            key(),
        ),
        Read::new(
            "SELECT transaction_id, payload, received_at FROM aml_events
             WHERE tenant_id = ?1 AND external_user_id = ?2 ORDER BY received_at, transaction_id",
            key(),
        ),
        Read::new(
            "SELECT register, purpose, status, reference, checked_at FROM register_checks
             WHERE tenant_id = ?1 AND external_user_id = ?2 ORDER BY at_ms, check_id, seq",
            key(),
        ),
        Read::new(
            "SELECT event_id, event, envelope, created_at FROM outbox
             WHERE tenant_id = ?1 AND LENGTH(REPLACE(envelope, ?2, '')) < LENGTH(envelope) ORDER BY created_at, event_id",
            vec![Value::from(tenant_id), Value::from(naming_user(user_id))],
        ),
        Read::new("SELECT alert_id FROM aml_alerts WHERE tenant_id = ?1 AND external_user_id = ?2 ORDER BY alert_id", key()),
        Read::new("SELECT case_id FROM aml_cases WHERE tenant_id = ?1 AND external_user_id = ?2 ORDER BY case_id", key()),
        Read::new("SELECT filing_id FROM aml_filings WHERE tenant_id = ?1 AND external_user_id = ?2 ORDER BY filing_id", key()),
        Read::new(
            "SELECT e.event_id FROM case_events e JOIN aml_cases c ON c.case_id = e.case_id
             WHERE c.tenant_id = ?1 AND c.external_user_id = ?2 AND e.kind IN (?3, ?4, ?5, ?6) ORDER BY e.event_id",
            [key(), NOTE_KINDS.iter().map(|k| Value::from(k.as_str())).collect()].concat(),
        ),
    ];
    let mut rows = store.query_many(reads).await?.into_iter();
    let mut next = || rows.next().unwrap_or_default();
    let Some(identity) = next().into_iter().next() else {
        return Ok(None);
    };
    Ok(Some(Holdings {
        identity: Some(identity),
        kyc_checks: next(),
        withdrawals: next(),
        exclusions: next(),
        limits: next(),
        deposits: next(),
        transactions: next(),
        register_checks: next(),
        events: next(),
        alerts: next(),
        aml_cases: next(),
        filings: next(),
        case_notes: next(),
    }))
}
