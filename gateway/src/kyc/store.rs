//! The KYC area's persistence: checks, the withdrawals they hold, and the
//! user's verified tier and lifetime withdrawals. Every SQL statement of the
//! area is here, behind typed operations.

use rules_model::{KycDecision, KycEscalation, KycStatus, KycTier, ReviewItem, WithdrawalStatus};

use crate::auth::Environment;
use crate::error::{ApiError, ApiResult};
use crate::ports::{Read, Row, Stmt, Store, Value};

/// The columns a [`Check`] is read from, in its order (`k` is `kyc_checks`).
macro_rules! check_columns {
    () => {
        "k.kyc_check_id, k.tenant_id, k.environment, k.external_user_id, k.target_tier, k.status, k.withdrawal_id, k.start_response,
         k.created_at, k.updated_at, k.vendor_token_expires_at, k.escalation"
    };
}
/// The number of [`check_columns`]: the index of the first column after them.
const CHECK_COLUMNS: usize = 12;

/// A KYC check as stored; rows read it from [`check_columns`].
pub(crate) struct Check {
    pub kyc_check_id: String,
    pub tenant_id: String,
    pub environment: Environment,
    pub external_user_id: String,
    pub target_tier: KycTier,
    pub status: KycStatus,
    pub withdrawal_id: String,
    pub start_response: String,
    pub created_at: i64,
    pub updated_at: i64,
    /// when the last vendor token issued for it expires; none for checks from before tokens were recorded
    pub token_expires_at: Option<i64>,
    /// why it was escalated to a person, if it was
    pub escalation: Option<KycEscalation>,
}

fn check_from_row(row: &Row) -> ApiResult<Check> {
    Ok(Check {
        kyc_check_id: row.text(0)?,
        tenant_id: row.text(1)?,
        environment: Environment::parse(&row.text(2)?).ok_or_else(ApiError::internal)?,
        external_user_id: row.text(3)?,
        target_tier: tier(row, 4)?,
        status: status(row, 5)?,
        withdrawal_id: row.text(6)?,
        start_response: row.text(7)?,
        created_at: row.int(8)?,
        updated_at: row.int(9)?,
        token_expires_at: row.opt_int(10)?,
        escalation: row.opt_text(11)?.map(|t| KycEscalation::parse(&t).ok_or_else(ApiError::internal)).transpose()?,
    })
}

/// At most one open check per user: a unique key set while open, NULL after.
fn open_key(tenant_id: &str, user_id: &str) -> String {
    format!("{tenant_id}\u{1f}{user_id}")
}

/// The user's open check, if any.
pub(crate) async fn open_check(store: &dyn Store, tenant_id: &str, user_id: &str) -> ApiResult<Option<Check>> {
    let rows = store
        .query(concat!("SELECT ", check_columns!(), " FROM kyc_checks k WHERE k.open_key = ?1"), vec![open_key(tenant_id, user_id).into()])
        .await?;
    rows.first().map(check_from_row).transpose()
}

pub(crate) async fn check(store: &dyn Store, kyc_check_id: &str) -> ApiResult<Option<Check>> {
    let rows = store.query(concat!("SELECT ", check_columns!(), " FROM kyc_checks k WHERE k.kyc_check_id = ?1"), vec![kyc_check_id.into()]).await?;
    rows.first().map(check_from_row).transpose()
}

/// What became of a check's withdrawal, as stored: the check's last
/// transition wrote it (an approval under another hold cancelled it).
pub(crate) async fn withdrawal_status(store: &dyn Store, withdrawal_id: &str) -> ApiResult<Option<WithdrawalStatus>> {
    let rows = store.query("SELECT status FROM withdrawals WHERE withdrawal_id = ?1", vec![withdrawal_id.into()]).await?;
    rows.first().map(|r| Ok(WithdrawalStatus::parse(&r.text(0)?))).transpose().map(Option::flatten)
}

/// A new check, open, holding its withdrawal.
pub(crate) struct NewCheck<'a> {
    pub kyc_check_id: &'a str,
    pub tenant_id: &'a str,
    pub environment: Environment,
    pub user_id: &'a str,
    pub target_tier: KycTier,
    pub status: KycStatus,
    pub withdrawal_id: &'a str,
    pub start_response: String,
    pub token_expires_at: i64,
    pub now: i64,
}

/// Inserts a check; a concurrent open check of the user makes the batch lose on the open key.
pub(crate) fn insert_check(c: NewCheck<'_>) -> Stmt {
    Stmt::new(
        "INSERT INTO kyc_checks (kyc_check_id, tenant_id, environment, external_user_id, target_tier, status, open_key, withdrawal_id,
                                 start_response, created_at, updated_at, vendor_token_expires_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10, ?11)",
        vec![
            c.kyc_check_id.into(),
            c.tenant_id.into(),
            c.environment.as_str().into(),
            c.user_id.into(),
            c.target_tier.as_str().into(),
            c.status.as_str().into(),
            open_key(c.tenant_id, c.user_id).into(),
            c.withdrawal_id.into(),
            c.start_response.into(),
            c.now.into(),
            c.token_expires_at.into(),
        ],
    )
}

/// A withdrawal earlier sent under the operator's id: the request's fingerprint and the answer.
pub(crate) struct EarlierWithdrawal {
    pub fingerprint: Option<String>,
    pub response: Option<String>,
}

pub(crate) fn read_withdrawal_by_client_id(tenant_id: &str, client_id: &str) -> Read {
    Read::new(
        "SELECT request_fingerprint, response FROM withdrawals WHERE tenant_id = ?1 AND client_withdrawal_id = ?2",
        vec![tenant_id.into(), client_id.into()],
    )
}

/// The latest withdrawals released for the same request (`fingerprint`)
/// with no operator id, made at `since` or later, newest first: the one
/// released at once (its answer names no check) is what a blind retry repeats.
pub(crate) fn read_repeated_release(tenant_id: &str, user_id: &str, fingerprint: &str, since: i64) -> Read {
    Read::new(
        "SELECT w.request_fingerprint, w.response FROM withdrawals w
         WHERE w.tenant_id = ?1 AND w.external_user_id = ?2 AND w.client_withdrawal_id IS NULL AND w.request_fingerprint = ?3
           AND w.status = ?4 AND w.created_at >= ?5
         ORDER BY w.created_at DESC LIMIT 20",
        vec![tenant_id.into(), user_id.into(), fingerprint.into(), WithdrawalStatus::Released.as_str().into(), since.into()],
    )
}

/// The withdrawals a [`read_withdrawal_by_client_id`] or [`read_repeated_release`] found.
pub(crate) fn earlier_from(rows: &[Row]) -> ApiResult<Vec<EarlierWithdrawal>> {
    let earlier = rows.iter().map(|row| Ok(EarlierWithdrawal { fingerprint: row.opt_text(0)?, response: row.opt_text(1)? }));
    earlier.collect::<Result<_, crate::ports::StoreError>>().map_err(ApiError::from)
}

/// What a withdrawal writes on the user's row.
pub(crate) struct UserWithdrawal<'a> {
    pub tenant_id: &'a str,
    pub user_id: &'a str,
    /// the version read; the update claims the row at it
    pub version: i64,
    pub released_cents: i64,
    pub currency: &'a str,
    pub email: Option<String>,
    pub phone: Option<String>,
    /// their keys (`input::email_key`, E.164)
    pub email_key: Option<String>,
    pub phone_key: Option<String>,
    pub now: i64,
}

/// Claims the user, adds a released amount to the lifetime total, fixes
/// the withdrawal currency and records the e-mail and phone given.
pub(crate) fn update_user_for_withdrawal(u: UserWithdrawal<'_>) -> Stmt {
    Stmt::expect_one(
        "UPDATE users SET cumulative_withdrawn_cents = CASE WHEN cumulative_withdrawn_cents + ?4 > ?9 THEN ?9 ELSE cumulative_withdrawn_cents + ?4 END,
                version = version + 1, updated_at = ?5,
                withdrawal_currency = COALESCE(withdrawal_currency, ?6), kyc_email = COALESCE(?7, kyc_email), kyc_phone = COALESCE(?8, kyc_phone),
                kyc_email_key = CASE WHEN ?7 IS NULL THEN kyc_email_key ELSE ?10 END,
                kyc_phone_key = CASE WHEN ?8 IS NULL THEN kyc_phone_key ELSE ?11 END
         WHERE tenant_id = ?1 AND external_user_id = ?2 AND version = ?3",
        vec![
            u.tenant_id.into(),
            u.user_id.into(),
            u.version.into(),
            u.released_cents.into(),
            u.now.into(),
            u.currency.into(),
            Value::from(u.email),
            Value::from(u.phone),
            crate::ports::MAX_STORED_INTEGER.into(),
            Value::from(u.email_key),
            Value::from(u.phone_key),
        ],
    )
}

pub(crate) struct NewWithdrawal<'a> {
    pub withdrawal_id: &'a str,
    pub tenant_id: &'a str,
    pub user_id: &'a str,
    pub amount_cents: i64,
    pub currency: &'a str,
    pub status: WithdrawalStatus,
    pub client_withdrawal_id: Option<String>,
    pub fingerprint: String,
    pub response: String,
    pub now: i64,
}

pub(crate) fn insert_withdrawal(w: NewWithdrawal<'_>) -> Stmt {
    Stmt::new(
        "INSERT INTO withdrawals (withdrawal_id, tenant_id, external_user_id, amount_cents, currency, status, created_at, updated_at,
                                  client_withdrawal_id, request_fingerprint, response)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7, ?8, ?9, ?10)",
        vec![
            w.withdrawal_id.into(),
            w.tenant_id.into(),
            w.user_id.into(),
            w.amount_cents.into(),
            w.currency.into(),
            w.status.as_str().into(),
            w.now.into(),
            Value::from(w.client_withdrawal_id),
            w.fingerprint.into(),
            w.response.into(),
        ],
    )
}

/// Moves a check to the decided status (it loses if the check moved
/// meanwhile) and its withdrawal with it; an approval raises the user's
/// verified tier and counts the released withdrawal.
/// Who moved a check, and the reason a person gave.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Reviewer<'a> {
    pub name: &'a str,
    pub reason: Option<&'a str>,
}

impl<'a> Reviewer<'a> {
    /// A vendor or the scheduler: no reason of its own.
    pub(crate) fn named(name: &'a str) -> Self {
        Reviewer { name, reason: None }
    }
}

pub(crate) fn transition(check: &Check, decision: &KycDecision, reviewer: Reviewer<'_>, now: i64) -> Vec<Stmt> {
    let mut statements = vec![
        Stmt::expect_one(
            "UPDATE kyc_checks SET status = ?2, open_key = CASE WHEN ?5 = 1 THEN open_key ELSE NULL END, reviewer = ?4, updated_at = ?6,
                    review_reason = ?7
             WHERE kyc_check_id = ?1 AND status = ?3",
            vec![
                check.kyc_check_id.as_str().into(),
                decision.status.as_str().into(),
                check.status.as_str().into(),
                reviewer.name.into(),
                decision.status.is_open().into(),
                now.into(),
                Value::from(reviewer.reason),
            ],
        ),
        Stmt::new(
            "UPDATE withdrawals SET status = ?2, updated_at = ?3 WHERE withdrawal_id = ?1",
            vec![check.withdrawal_id.as_str().into(), decision.withdrawal.as_str().into(), now.into()],
        ),
    ];
    // the tier is verified on approval; the withdrawal counts towards the
    // lifetime total only when it is released (an approval under another
    // hold cancels it: the operator asks again, and that request counts)
    if decision.status == KycStatus::Approved && decision.withdrawal == WithdrawalStatus::Released {
        statements.push(Stmt::new(
            "UPDATE users SET verified_tier = ?3, verified_at = ?4, updated_at = ?4,
                    cumulative_withdrawn_cents = CASE WHEN cumulative_withdrawn_cents > ?6 - (SELECT amount_cents FROM withdrawals WHERE withdrawal_id = ?5) THEN ?6
                      ELSE cumulative_withdrawn_cents + (SELECT amount_cents FROM withdrawals WHERE withdrawal_id = ?5) END
             WHERE tenant_id = ?1 AND external_user_id = ?2",
            vec![
                check.tenant_id.as_str().into(),
                check.external_user_id.as_str().into(),
                decision.verified.as_str().into(),
                now.into(),
                check.withdrawal_id.as_str().into(),
                crate::ports::MAX_STORED_INTEGER.into(),
            ],
        ));
    } else if decision.status == KycStatus::Approved {
        statements.push(Stmt::new(
            "UPDATE users SET verified_tier = ?3, verified_at = ?4, updated_at = ?4 WHERE tenant_id = ?1 AND external_user_id = ?2",
            vec![check.tenant_id.as_str().into(), check.external_user_id.as_str().into(), decision.verified.as_str().into(), now.into()],
        ));
    }
    statements
}

/// Records a vendor token issued for a check: the answer a repeat of its
/// request gives (carrying the token) and when the token expires.
pub(crate) fn record_token(kyc_check_id: &str, start_response: String, expires_at: i64) -> Stmt {
    Stmt::expect_one(
        "UPDATE kyc_checks SET start_response = ?2, vendor_token_expires_at = ?3 WHERE kyc_check_id = ?1",
        vec![kyc_check_id.into(), start_response.into(), expires_at.into()],
    )
}

/// Marks a check as needing a person; the first reason is kept.
pub(crate) fn escalate(kyc_check_id: &str, escalation: KycEscalation, now: i64) -> Stmt {
    Stmt::new(
        "UPDATE kyc_checks SET escalation = COALESCE(escalation, ?2), escalated_at = COALESCE(escalated_at, ?3) WHERE kyc_check_id = ?1",
        vec![kyc_check_id.into(), escalation.as_str().into(), now.into()],
    )
}

/// An open check untouched too long, with what its expiry is decided from.
pub(crate) struct AbandonedCheck {
    pub check: Check,
    pub verified: KycTier,
    pub user_version: i64,
    /// the tenant's test-clock offset
    pub clock_offset_seconds: i64,
}

/// Open checks untouched for `abandon_seconds` by `now` on their tenant's clock, oldest first.
pub(crate) async fn abandoned_checks(store: &dyn Store, now: i64, abandon_seconds: i64, limit: i64) -> ApiResult<Vec<AbandonedCheck>> {
    let rows = store
        .query(
            concat!(
                "SELECT ",
                check_columns!(),
                ", u.verified_tier, u.version, t.clock_offset_seconds
             FROM kyc_checks k JOIN tenants t ON t.tenant_id = k.tenant_id
                  JOIN users u ON u.tenant_id = k.tenant_id AND u.external_user_id = k.external_user_id
             WHERE k.open_key IS NOT NULL AND k.updated_at + ?2 <= ?1 + t.clock_offset_seconds ORDER BY k.updated_at LIMIT ?3"
            ),
            vec![now.into(), abandon_seconds.into(), limit.into()],
        )
        .await?;
    rows.iter()
        .map(|row| {
            Ok(AbandonedCheck {
                check: check_from_row(row)?,
                verified: tier(row, CHECK_COLUMNS)?,
                user_version: row.int(CHECK_COLUMNS + 1)?,
                clock_offset_seconds: row.int(CHECK_COLUMNS + 2)?,
            })
        })
        .collect()
}

/// Which checks a review list asks for.
pub(crate) struct CheckFilter {
    pub environment: Environment,
    pub status: KycStatus,
    pub review_target: i64,
    /// only those in the status for `review_target` by `now` on the tenant's clock
    pub overdue_only: bool,
    /// only those in the status at least this long on the tenant's clock
    pub min_age_seconds: i64,
    pub now: i64,
    /// after this `(updated_at, kyc_check_id)`, the sort key
    pub after: Option<(i64, String)>,
    /// at most this many rows
    pub limit: i64,
}

/// Checks of an environment by status, longest in it first (then by id),
/// a page at a time, each with its tenant's test-clock offset.
pub(crate) async fn checks(store: &dyn Store, f: CheckFilter) -> ApiResult<Vec<ListedCheck>> {
    let (after_at, after_id) = f.after.unwrap_or((-crate::ports::MAX_STORED_INTEGER, String::new()));
    let rows = store
        .query(
            concat!(
                "SELECT ",
                check_columns!(),
                ", t.clock_offset_seconds, k.reviewer, k.review_reason
             FROM kyc_checks k JOIN tenants t ON t.tenant_id = k.tenant_id
             WHERE k.environment = ?1 AND k.status = ?2 AND (?3 = 0 OR k.updated_at + ?4 <= ?5 + t.clock_offset_seconds)
               AND k.updated_at + ?6 <= ?5 + t.clock_offset_seconds
               AND (k.updated_at > ?7 OR (k.updated_at = ?7 AND k.kyc_check_id > ?8))
             ORDER BY k.updated_at, k.kyc_check_id LIMIT ?9"
            ),
            vec![
                f.environment.as_str().into(),
                f.status.as_str().into(),
                f.overdue_only.into(),
                f.review_target.into(),
                f.now.into(),
                f.min_age_seconds.into(),
                after_at.into(),
                after_id.into(),
                f.limit.into(),
            ],
        )
        .await?;
    rows.iter()
        .map(|row| {
            Ok(ListedCheck {
                check: check_from_row(row)?,
                clock_offset_seconds: row.int(CHECK_COLUMNS)?,
                reviewer: row.opt_text(CHECK_COLUMNS + 1)?,
                review_reason: row.opt_text(CHECK_COLUMNS + 2)?,
            })
        })
        .collect()
}

/// A check as the review list shows it.
pub(crate) struct ListedCheck {
    pub check: Check,
    /// the tenant's test-clock offset, added to the service's now
    pub clock_offset_seconds: i64,
    /// who last moved it (a person, a vendor, the scheduler)
    pub reviewer: Option<String>,
    /// the reason a person gave, if any
    pub review_reason: Option<String>,
}

/// Checks of an environment pending review, and those past their review by `now` on their tenant's clock.
pub(crate) async fn count_pending_review(store: &dyn Store, environment: Environment) -> ApiResult<i64> {
    Ok(store
        .scalar(
            "SELECT COUNT(*) FROM kyc_checks WHERE environment = ?1 AND status = ?2",
            vec![environment.as_str().into(), KycStatus::PendingReview.as_str().into()],
        )
        .await?)
}

/// Checks waiting for review that the review target pre-selects as due by
/// `now` on their tenant's clock, as review items for the rules to judge.
pub(crate) async fn overdue_candidates(store: &dyn Store, environment: Environment, review_target: i64, now: i64) -> ApiResult<Vec<ReviewItem>> {
    let rows = store
        .query(
            "SELECT k.updated_at, t.clock_offset_seconds FROM kyc_checks k JOIN tenants t ON t.tenant_id = k.tenant_id
             WHERE k.environment = ?1 AND k.status = ?2 AND k.updated_at + ?3 <= ?4 + t.clock_offset_seconds",
            vec![environment.as_str().into(), KycStatus::PendingReview.as_str().into(), review_target.into(), now.into()],
        )
        .await?;
    rows.iter().map(|r| Ok(ReviewItem { now: now.saturating_add(r.int(1)?), waiting_since: r.int(0)?, due_at: None, awaiting: true })).collect()
}

fn tier(row: &Row, i: usize) -> ApiResult<KycTier> {
    KycTier::parse(&row.text(i)?).ok_or_else(ApiError::internal)
}

fn status(row: &Row, i: usize) -> ApiResult<KycStatus> {
    KycStatus::parse(&row.text(i)?).ok_or_else(ApiError::internal)
}
