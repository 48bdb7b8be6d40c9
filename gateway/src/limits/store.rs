//! The limits area's persistence: limits, deposits and their hourly sums.
//! Every SQL statement of the area is here, behind typed operations.

use rules_model::{Deposits, LimitStatus, LimitWindow, StoredLimit, WindowTotal};

use crate::auth::Environment;
use crate::error::{ApiError, ApiResult};
use crate::ports::{Read, Row, Stmt, Store, MAX_STORED_INTEGER};

/// A limit row of a user, with what its answers need.
pub(crate) struct LimitRow {
    pub limit_id: String,
    pub currency: String,
    pub response: String,
    pub facts: StoredLimit,
}

/// A user's active and pending limit rows, oldest first: `?1` tenant, `?2` user, `?3` the cancelled status.
const LIMIT_ROWS_SQL: &str = "SELECT limit_id, limit_type, amount_cents, currency, status, effective_from, response FROM deposit_limits
 WHERE tenant_id = ?1 AND external_user_id = ?2 AND status <> ?3 ORDER BY effective_from, user_version";

/// A user's active and pending limits, for one round trip with other reads.
pub(crate) fn read_limit_rows(tenant_id: &str, user_id: &str) -> Read {
    Read::new(LIMIT_ROWS_SQL, vec![tenant_id.into(), user_id.into(), LimitStatus::Cancelled.as_str().into()])
}

pub(crate) fn limit_rows_from(rows: &[Row], currency: Option<&str>) -> ApiResult<Vec<LimitRow>> {
    rows.iter()
        .map(|row| {
            let limit_currency = row.text(3)?;
            Ok(LimitRow {
                limit_id: row.text(0)?,
                facts: StoredLimit {
                    window: LimitWindow::parse(&row.text(1)?).ok_or_else(ApiError::internal)?,
                    amount_cents: row.int(2)?,
                    same_currency: currency.is_none_or(|c| c == limit_currency),
                    status: LimitStatus::parse(&row.text(4)?).ok_or_else(ApiError::internal)?,
                    effective_from: row.int(5)?,
                    currency: limit_currency.clone(),
                },
                currency: limit_currency,
                response: row.text(6)?,
            })
        })
        .collect()
}

/// A user's deposits since `?3`, each with its currency.
const DEPOSITS_SQL: &str = "SELECT amount_cents, at, currency FROM deposits WHERE tenant_id = ?1 AND external_user_id = ?2 AND at > ?3";

/// A user's deposits after `since`.
pub(crate) async fn deposits_since(store: &dyn Store, tenant_id: &str, user_id: &str, since: i64) -> ApiResult<Deposits> {
    let rows = store.query(DEPOSITS_SQL, vec![tenant_id.into(), user_id.into(), since.into()]).await?;
    deposits_from(&rows)
}

fn deposits_from(rows: &[Row]) -> ApiResult<Deposits> {
    let mut deposits =
        Deposits { amount_cents: Vec::with_capacity(rows.len()), at: Vec::with_capacity(rows.len()), currency: Vec::with_capacity(rows.len()) };
    for r in rows {
        deposits.amount_cents.push(r.int(0)?);
        deposits.at.push(r.int(1)?);
        deposits.currency.push(r.text(2)?);
    }
    Ok(deposits)
}

/// The hours `deposit_hours` sums deposits by: a storage layout, not a rule.
const HOUR_SECONDS: i64 = 3_600;

/// The three windows' totals in one statement, one row per currency
/// deposited in the longest (daily, weekly, monthly, as `LimitWindow::ALL`,
/// after the currency): for window k, `?(3k+3)` its start (deposits after it
/// count), `?(3k+4)` the hour the start falls in, `?(3k+5)` the end of that
/// hour; `?12` the earliest start hour. The whole hours after a window's
/// start hour come from `deposit_hours` (one range scan serves all three),
/// the start hour's deposits one by one from `deposits` (a range scan each:
/// one scan with the three ranges OR-ed walked all the user's deposits), so
/// that a check reads a bounded number of rows. Each total is cut at `?13`,
/// [`MAX_STORED_INTEGER`]: every hour's sum is bounded by it, a window of many
/// hours is not, and D1 hands a larger integer back as a double. The cut
/// changes no decision: no limit is larger (nor any limit's worth of a
/// currency at a reference rate: a rate the rules read is at most 10^18).
const WINDOW_TOTALS_SQL: &str = "SELECT currency,
   CASE WHEN day_cents > ?13 THEN ?13 ELSE day_cents END, day_first, day_last,
   CASE WHEN week_cents > ?13 THEN ?13 ELSE week_cents END, week_first, week_last,
   CASE WHEN month_cents > ?13 THEN ?13 ELSE month_cents END, month_first, month_last
 FROM (SELECT currency,
   CAST(COALESCE(SUM(CASE WHEN in_day THEN amount_cents END), 0) AS BIGINT) AS day_cents,
   MIN(CASE WHEN in_day THEN first_at END) AS day_first, MAX(CASE WHEN in_day THEN last_at END) AS day_last,
   CAST(COALESCE(SUM(CASE WHEN in_week THEN amount_cents END), 0) AS BIGINT) AS week_cents,
   MIN(CASE WHEN in_week THEN first_at END) AS week_first, MAX(CASE WHEN in_week THEN last_at END) AS week_last,
   CAST(COALESCE(SUM(CASE WHEN in_month THEN amount_cents END), 0) AS BIGINT) AS month_cents,
   MIN(CASE WHEN in_month THEN first_at END) AS month_first, MAX(CASE WHEN in_month THEN last_at END) AS month_last
 FROM (
   SELECT currency, amount_cents, first_at, last_at, hour > ?4 AS in_day, hour > ?7 AS in_week, hour > ?10 AS in_month FROM deposit_hours
    WHERE tenant_id = ?1 AND external_user_id = ?2 AND hour > ?12
   UNION ALL SELECT currency, amount_cents, at, at, TRUE, FALSE, FALSE FROM deposits WHERE tenant_id = ?1 AND external_user_id = ?2 AND at > ?3 AND at < ?5
   UNION ALL SELECT currency, amount_cents, at, at, FALSE, TRUE, FALSE FROM deposits WHERE tenant_id = ?1 AND external_user_id = ?2 AND at > ?6 AND at < ?8
   UNION ALL SELECT currency, amount_cents, at, at, FALSE, FALSE, TRUE FROM deposits WHERE tenant_id = ?1 AND external_user_id = ?2 AND at > ?9 AND at < ?11
 ) window_deposits GROUP BY currency) totals ORDER BY currency";

// `WINDOW_TOTALS_SQL` has three windows' columns and parameters.
const _: () = assert!(LimitWindow::ALL.len() == 3);

/// The windows' totals of a user's deposits, each after its start (`starts`,
/// in `LimitWindow::ALL`'s order): one read.
pub(crate) fn read_window_totals(tenant_id: &str, user_id: &str, starts: [i64; 3]) -> Read {
    let mut params = vec![tenant_id.into(), user_id.into()];
    let mut earliest_hour = i64::MAX;
    for start in starts {
        let start_hour = start.div_euclid(HOUR_SECONDS);
        earliest_hour = earliest_hour.min(start_hour);
        params.extend([start.into(), start_hour.into(), start_hour.saturating_add(1).saturating_mul(HOUR_SECONDS).into()]);
    }
    params.push(earliest_hour.into());
    params.push(MAX_STORED_INTEGER.into());
    Read::new(WINDOW_TOTALS_SQL, params)
}

/// The totals of [`read_window_totals`]' rows: each currency's, in
/// `LimitWindow::ALL`'s order, leaving out the windows it has no deposit in
/// (a window without a total spent nothing).
pub(crate) fn window_totals_from(rows: &[Row]) -> ApiResult<Vec<WindowTotal>> {
    let mut totals = Vec::with_capacity(rows.len() * LimitWindow::ALL.len());
    for row in rows {
        let currency = row.text(0)?;
        for (k, window) in LimitWindow::ALL.iter().enumerate() {
            let column = 1 + 3 * k;
            let oldest_at = row.opt_int(column + 1)?;
            if oldest_at.is_none() {
                continue;
            }
            totals.push(WindowTotal {
                window: *window,
                spent_cents: row.int(column)?,
                oldest_at,
                newest_at: row.opt_int(column + 2)?,
                currency: currency.clone(),
            });
        }
    }
    Ok(totals)
}

/// A new limit row.
pub(crate) struct NewLimit<'a> {
    pub limit_id: &'a str,
    pub tenant_id: &'a str,
    pub user_id: &'a str,
    pub window: LimitWindow,
    pub amount_cents: i64,
    pub currency: &'a str,
    pub status: LimitStatus,
    pub effective_from: i64,
    /// the user's version after this change's claim, to order the rows of one instant
    pub user_version: i64,
    pub response: String,
    pub now: i64,
}

pub(crate) fn insert_limit(l: NewLimit<'_>) -> Stmt {
    Stmt::new(
        "INSERT INTO deposit_limits (limit_id, tenant_id, external_user_id, limit_type, amount_cents, currency, status, effective_from, user_version, response, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
        vec![
            l.limit_id.into(),
            l.tenant_id.into(),
            l.user_id.into(),
            l.window.as_str().into(),
            l.amount_cents.into(),
            l.currency.into(),
            l.status.as_str().into(),
            l.effective_from.into(),
            l.user_version.into(),
            l.response.into(),
            l.now.into(),
        ],
    )
}

/// Cancels a pending increase not yet in force at `now`.
pub(crate) fn cancel_pending(limit_id: &str, now: i64) -> Stmt {
    Stmt::expect_one(
        "UPDATE deposit_limits SET status = ?3, cancelled_at = ?2 WHERE limit_id = ?1 AND status = ?4 AND effective_from > ?2",
        vec![limit_id.into(), now.into(), LimitStatus::Cancelled.as_str().into(), LimitStatus::Pending.as_str().into()],
    )
}

/// A pending increase goes live.
pub(crate) fn activate(limit_id: &str) -> Stmt {
    Stmt::expect_one(
        "UPDATE deposit_limits SET status = ?2 WHERE limit_id = ?1 AND status = ?3",
        vec![limit_id.into(), LimitStatus::Active.as_str().into(), LimitStatus::Pending.as_str().into()],
    )
}

/// One limit of a tenant.
pub(crate) struct LimitById {
    pub user_id: String,
    pub limit_type: String,
    pub amount_cents: i64,
    pub currency: String,
    pub status: LimitStatus,
    pub effective_from: i64,
    pub cancelled_at: Option<i64>,
}

pub(crate) async fn limit(store: &dyn Store, tenant_id: &str, limit_id: &str) -> ApiResult<Option<LimitById>> {
    let rows = store
        .query(
            "SELECT external_user_id, limit_type, amount_cents, currency, status, effective_from, cancelled_at FROM deposit_limits WHERE limit_id = ?1 AND tenant_id = ?2",
            vec![limit_id.into(), tenant_id.into()],
        )
        .await?;
    rows.first()
        .map(|r| {
            Ok(LimitById {
                user_id: r.text(0)?,
                limit_type: r.text(1)?,
                amount_cents: r.int(2)?,
                currency: r.text(3)?,
                status: LimitStatus::parse(&r.text(4)?).ok_or_else(ApiError::internal)?,
                effective_from: r.int(5)?,
                cancelled_at: r.opt_int(6)?,
            })
        })
        .transpose()
}

/// A committed deposit, as a repeat of its transaction finds it.
pub(crate) struct Committed {
    pub user_id: String,
    pub amount_cents: i64,
    pub currency: String,
    pub committed_at: i64,
}

/// A committed transaction of the tenant, from `deposit_transactions`,
/// which keeps each deposit's natural key (and what its answer says) for
/// the record-keeping period, long after the deposit itself is pruned.
pub(crate) fn read_deposit(tenant_id: &str, transaction_id: &str) -> Read {
    Read::new(
        "SELECT external_user_id, amount_cents, currency, committed_at FROM deposit_transactions WHERE tenant_id = ?1 AND transaction_id = ?2",
        vec![tenant_id.into(), transaction_id.into()],
    )
}

pub(crate) fn deposit_from(rows: &[Row]) -> ApiResult<Option<Committed>> {
    rows.first().map(|r| Ok(Committed { user_id: r.text(0)?, amount_cents: r.int(1)?, currency: r.text(2)?, committed_at: r.int(3)? })).transpose()
}

/// Keeps a committed deposit's natural key, in the deposit's batch; a
/// concurrent commit of the same transaction makes the batch lose (the key is unique).
pub(crate) fn record_transaction(tenant_id: &str, transaction_id: &str, user_id: &str, amount_cents: i64, currency: &str, at: i64) -> Stmt {
    Stmt::new(
        "INSERT INTO deposit_transactions (tenant_id, transaction_id, external_user_id, amount_cents, currency, committed_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        vec![tenant_id.into(), transaction_id.into(), user_id.into(), amount_cents.into(), currency.into(), at.into()],
    )
}

/// The sum of a user's deposits in `currency` in the hour `at` falls in (no row: nothing yet).
pub(crate) fn read_hour_sum(tenant_id: &str, user_id: &str, currency: &str, at: i64) -> Read {
    Read::new(
        "SELECT amount_cents FROM deposit_hours WHERE tenant_id = ?1 AND external_user_id = ?2 AND hour = ?3 AND currency = ?4",
        vec![tenant_id.into(), user_id.into(), at.div_euclid(HOUR_SECONDS).into(), currency.into()],
    )
}

pub(crate) fn hour_sum_from(rows: &[Row]) -> ApiResult<i64> {
    Ok(rows.first().map(|r| r.int(0)).transpose()?.unwrap_or_default())
}

pub(crate) fn insert_deposit(
    tenant_id: &str,
    transaction_id: &str,
    user_id: &str,
    amount_cents: i64,
    currency: &str,
    at: i64,
    response: String,
) -> Stmt {
    Stmt::new(
        "INSERT INTO deposits (tenant_id, transaction_id, external_user_id, amount_cents, currency, at, response) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        vec![tenant_id.into(), transaction_id.into(), user_id.into(), amount_cents.into(), currency.into(), at.into(), response.into()],
    )
}

/// Adds a deposit to its hour's sum of its currency, in the deposit's batch.
pub(crate) fn add_to_hour(tenant_id: &str, user_id: &str, amount_cents: i64, currency: &str, at: i64) -> Stmt {
    Stmt::new(
        "INSERT INTO deposit_hours (tenant_id, external_user_id, hour, currency, amount_cents, first_at, last_at) VALUES (?1, ?2, ?3, ?6, ?4, ?5, ?5)
         ON CONFLICT (tenant_id, external_user_id, hour, currency) DO UPDATE SET amount_cents = deposit_hours.amount_cents + excluded.amount_cents,
           first_at = CASE WHEN excluded.first_at < deposit_hours.first_at THEN excluded.first_at ELSE deposit_hours.first_at END,
           last_at = CASE WHEN excluded.last_at > deposit_hours.last_at THEN excluded.last_at ELSE deposit_hours.last_at END",
        vec![tenant_id.into(), user_id.into(), at.div_euclid(HOUR_SECONDS).into(), amount_cents.into(), at.into(), currency.into()],
    )
}

/// A pending limit whose effective time came on its tenant's clock, with its user's version.
pub(crate) struct DuePending {
    pub limit_id: String,
    pub tenant_id: String,
    pub environment: Environment,
    pub user_id: String,
    pub limit_type: String,
    pub amount_cents: i64,
    pub currency: String,
    pub effective_from: i64,
    pub clock_offset_seconds: i64,
    pub status: LimitStatus,
    pub user_version: i64,
}

/// At most `limit` pending limits due by `now` on their tenant's clock, earliest first.
pub(crate) async fn due_pending(store: &dyn Store, now: i64, limit: i64) -> ApiResult<Vec<DuePending>> {
    let rows = store
        .query(
            "SELECT l.limit_id, l.tenant_id, t.environment, l.external_user_id, l.limit_type, l.amount_cents, l.currency, l.effective_from,
                    t.clock_offset_seconds, l.status, u.version
             FROM deposit_limits l JOIN tenants t ON t.tenant_id = l.tenant_id
                  JOIN users u ON u.tenant_id = l.tenant_id AND u.external_user_id = l.external_user_id
             WHERE l.status = ?3 AND l.effective_from <= ?1 + t.clock_offset_seconds ORDER BY l.effective_from LIMIT ?2",
            vec![now.into(), limit.into(), LimitStatus::Pending.as_str().into()],
        )
        .await?;
    rows.iter()
        .map(|row| {
            Ok(DuePending {
                limit_id: row.text(0)?,
                tenant_id: row.text(1)?,
                environment: Environment::parse(&row.text(2)?).ok_or_else(ApiError::internal)?,
                user_id: row.text(3)?,
                limit_type: row.text(4)?,
                amount_cents: row.int(5)?,
                currency: row.text(6)?,
                effective_from: row.int(7)?,
                clock_offset_seconds: row.int(8)?,
                status: LimitStatus::parse(&row.text(9)?).ok_or_else(ApiError::internal)?,
                user_version: row.int(10)?,
            })
        })
        .collect()
}
