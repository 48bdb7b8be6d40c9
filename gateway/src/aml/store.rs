//! The AML area's persistence: reported events with their decisions, the
//! per-user buckets the rules read (never the raw events), alerts and the
//! AML case each user's alerts are grouped into.

use rules_model::{AmlAlerted, AmlBucket, AmlInstrument, AmlPair, AmlStanding, PaymentMethod, Typology};

use crate::auth::Environment;
use crate::error::{ApiError, ApiResult};
use crate::ports::{Read, Row, Stmt, Store, StoreError, MAX_STORED_INTEGER};

/// Where an event stands with the compliance team.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReviewStatus {
    /// decided by the rules, no alert
    Decided,
    /// decided, and it opened an alert
    Alerted,
}

impl ReviewStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            ReviewStatus::Decided => "decided",
            ReviewStatus::Alerted => "alerted",
        }
    }
}

/// Whether an AML case still waits for the team.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AmlCaseStatus {
    Open,
    Closed,
}

impl AmlCaseStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            AmlCaseStatus::Open => "open",
            AmlCaseStatus::Closed => "closed",
        }
    }

    pub fn parse(text: &str) -> Option<AmlCaseStatus> {
        [AmlCaseStatus::Open, AmlCaseStatus::Closed].into_iter().find(|s| s.as_str() == text)
    }
}

/// The span of a bucket.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Span {
    Hour,
    GamingDay,
}

impl Span {
    fn as_str(self) -> &'static str {
        match self {
            Span::Hour => "hour",
            Span::GamingDay => "gaming_day",
        }
    }
}

/// An event as reported before: what identifies it and the answer it got.
pub struct Reported {
    pub fingerprint: String,
    pub response: String,
}

pub fn read_reported(tenant_id: &str, transaction_id: &str) -> Read {
    Read::new(
        "SELECT fingerprint, response FROM aml_events WHERE tenant_id = ?1 AND transaction_id = ?2",
        vec![tenant_id.into(), transaction_id.into()],
    )
}

pub fn reported_from(rows: &[Row]) -> Result<Option<Reported>, StoreError> {
    rows.first().map(|r| Ok(Reported { fingerprint: r.text(0)?, response: r.text(1)? })).transpose()
}

/// A new event, as the batch that stores it writes it.
pub struct NewEvent<'a> {
    pub tenant_id: &'a str,
    pub transaction_id: &'a str,
    pub aml_event_id: &'a str,
    pub user_id: &'a str,
    pub fingerprint: &'a str,
    pub payload: String,
    pub response: String,
    pub status: ReviewStatus,
    pub event_at: i64,
    pub decision_id: &'a str,
    pub outcome: &'a str,
    /// the user's verified tier when it was decided, for backtests
    pub verified_tier: rules_model::KycTier,
    pub received_at: i64,
    /// the reference rate it was converted at, for backtests
    pub rate: Option<&'a rules_model::AmlRate>,
}

/// Stores an event; a second report of the transaction loses on its key.
pub fn insert(event: NewEvent<'_>) -> Stmt {
    Stmt::new(
        "INSERT INTO aml_events (tenant_id, transaction_id, aml_event_id, external_user_id, fingerprint, payload, response, review_status, received_at,
           event_at, decision_id, outcome, verified_tier, rate)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
        vec![
            event.tenant_id.into(),
            event.transaction_id.into(),
            event.aml_event_id.into(),
            event.user_id.into(),
            event.fingerprint.into(),
            event.payload.into(),
            event.response.into(),
            event.status.as_str().into(),
            event.received_at.into(),
            event.event_at.into(),
            event.decision_id.into(),
            event.outcome.into(),
            event.verified_tier.as_str().into(),
            event.rate.and_then(|r| serde_json::to_string(r).ok()).into(),
        ],
    )
}

/// An event as the admin list shows it.
pub struct EventRow {
    pub aml_event_id: String,
    pub tenant_id: String,
    pub payload: String,
    pub review_status: String,
    pub received_at: i64,
    pub decision_id: Option<String>,
    pub outcome: Option<String>,
}

/// The newest `limit` events of the environment.
pub async fn newest(store: &dyn Store, environment: Environment, limit: i64) -> Result<Vec<EventRow>, StoreError> {
    let rows = store
        .query(
            "SELECT a.aml_event_id, a.tenant_id, a.payload, a.review_status, a.received_at, a.decision_id, a.outcome FROM aml_events a
             JOIN tenants t ON t.tenant_id = a.tenant_id WHERE t.environment = ?1 ORDER BY a.received_at DESC, a.aml_event_id LIMIT ?2",
            vec![environment.as_str().into(), limit.into()],
        )
        .await?;
    rows.iter()
        .map(|r| {
            Ok(EventRow {
                aml_event_id: r.text(0)?,
                tenant_id: r.text(1)?,
                payload: r.text(2)?,
                review_status: r.text(3)?,
                received_at: r.int(4)?,
                decision_id: r.opt_text(5)?,
                outcome: r.opt_text(6)?,
            })
        })
        .collect()
}

/// A stored event, as a backtest reads it.
pub struct StoredEvent {
    pub aml_event_id: String,
    pub tenant_id: String,
    pub user_id: String,
    pub payload: String,
    pub received_at: i64,
    pub verified_tier: Option<String>,
    /// the reason codes of the alert the event opened live, if any
    pub alerted: Option<String>,
    /// the reference rate it was converted at (JSON), if any
    pub rate: Option<String>,
}

/// Decided events received in [`from`, `to`) after `after` (received_at, event id), in arrival order, a page at a time.
pub async fn events_page(store: &dyn Store, tenant_id: &str, from: i64, to: i64, after: (i64, &str), limit: i64) -> ApiResult<Vec<StoredEvent>> {
    let rows = store
        .query(
            "SELECT e.aml_event_id, e.tenant_id, e.external_user_id, e.payload, e.received_at, e.verified_tier, a.typologies, e.rate FROM aml_events e
             LEFT JOIN aml_alerts a ON a.aml_event_id = e.aml_event_id
             WHERE (?1 = '' OR e.tenant_id = ?1) AND e.received_at >= ?2 AND e.received_at < ?3 AND e.decision_id IS NOT NULL
               AND (e.received_at > ?4 OR (e.received_at = ?4 AND e.aml_event_id > ?5))
             ORDER BY e.received_at, e.aml_event_id LIMIT ?6",
            vec![tenant_id.into(), from.into(), to.into(), after.0.into(), after.1.into(), limit.into()],
        )
        .await?;
    rows.iter()
        .map(|r| {
            Ok(StoredEvent {
                aml_event_id: r.text(0)?,
                tenant_id: r.text(1)?,
                user_id: r.text(2)?,
                payload: r.text(3)?,
                received_at: r.int(4)?,
                verified_tier: r.opt_text(5)?,
                alerted: r.opt_text(6)?,
                rate: r.opt_text(7)?,
            })
        })
        .collect()
}

/// A tenant's jurisdiction and gaming day, for a backtest.
pub async fn tenant_settings(store: &dyn Store, tenant_id: &str) -> ApiResult<Option<(String, i64, String)>> {
    let rows = store
        .query("SELECT jurisdiction, gaming_day_cutoff_minutes, gaming_day_time_zone FROM tenants WHERE tenant_id = ?1", vec![tenant_id.into()])
        .await?;
    rows.first().map(|r| Ok((r.text(0)?, r.int(1)?, r.text(2)?))).transpose()
}

/// The tenant's gaming day: cut-off minutes and time zone.
pub fn read_gaming_day(tenant_id: &str) -> Read {
    Read::new("SELECT gaming_day_cutoff_minutes, gaming_day_time_zone FROM tenants WHERE tenant_id = ?1", vec![tenant_id.into()])
}

pub fn gaming_day_from(rows: &[Row]) -> ApiResult<super::gaming_day::GamingDay> {
    let row = rows.first().ok_or_else(ApiError::internal)?;
    Ok(super::gaming_day::GamingDay::from_stored(row.int(0)?, &row.text(1)?))
}

pub fn set_gaming_day(tenant_id: &str, cutoff_minutes: i64, zone: &str) -> Stmt {
    Stmt::expect_one(
        "UPDATE tenants SET gaming_day_cutoff_minutes = ?2, gaming_day_time_zone = ?3 WHERE tenant_id = ?1",
        vec![tenant_id.into(), cutoff_minutes.into(), zone.into()],
    )
}

/// A user's gaming-day buckets in `currency` starting in [`from`, `to`).
pub fn read_days(tenant_id: &str, user_id: &str, currency: &str, from: i64, to: i64) -> Read {
    Read::new(
        "SELECT start, payment_method, in_cents, in_count, out_cents, out_count, wagered_cents, won_cents, largest_in_cents, largest_out_cents,
           near_threshold_count FROM aml_buckets
         WHERE tenant_id = ?1 AND external_user_id = ?2 AND span = ?3 AND currency = ?4 AND start >= ?5 AND start < ?6",
        vec![tenant_id.into(), user_id.into(), Span::GamingDay.as_str().into(), currency.into(), from.into(), to.into()],
    )
}

/// A user's hours in `currency` from `from`, a row a payment method, in
/// order of the hour: [`hours_from`] sums each hour's methods. Each bucket is
/// within [`MAX_STORED_INTEGER`]; the sum of an hour's methods may not be, and
/// D1 would hand it back as a double, so the store never sums them.
pub fn read_hours(tenant_id: &str, user_id: &str, currency: &str, from: i64) -> Read {
    Read::new(
        "SELECT start, in_cents, in_count, out_cents, wagered_cents, near_threshold_count FROM aml_buckets
         WHERE tenant_id = ?1 AND external_user_id = ?2 AND span = ?3 AND currency = ?4 AND start >= ?5 ORDER BY start",
        vec![tenant_id.into(), user_id.into(), Span::Hour.as_str().into(), currency.into(), from.into()],
    )
}

/// Each hour of [`read_hours`]' rows, its payment methods summed exactly (saturating at `i64`'s bounds).
pub fn hours_from(rows: &[Row]) -> ApiResult<Vec<rules_model::AmlHour>> {
    let mut hours: Vec<rules_model::AmlHour> = Vec::new();
    for r in rows {
        let (start, in_cents, in_count, out_cents, wagered_cents, near) = (r.int(0)?, r.int(1)?, count(r, 2)?, r.int(3)?, r.int(4)?, count(r, 5)?);
        match hours.last_mut() {
            Some(hour) if hour.start == start => {
                hour.in_cents = hour.in_cents.saturating_add(in_cents);
                hour.in_count = hour.in_count.saturating_add(in_count);
                hour.out_cents = hour.out_cents.saturating_add(out_cents);
                hour.wagered_cents = hour.wagered_cents.saturating_add(wagered_cents);
                hour.near_threshold_count = hour.near_threshold_count.saturating_add(near);
            }
            _ => hours.push(rules_model::AmlHour { start, in_cents, in_count, out_cents, wagered_cents, near_threshold_count: near }),
        }
    }
    Ok(hours)
}

fn count(row: &Row, i: usize) -> Result<u32, StoreError> {
    Ok(u32::try_from(row.int(i)?.max(0)).unwrap_or(u32::MAX))
}

pub fn buckets_from(rows: &[Row]) -> ApiResult<Vec<AmlBucket>> {
    rows.iter()
        .map(|r| {
            Ok(AmlBucket {
                start: r.int(0)?,
                payment_method: PaymentMethod::parse(&r.text(1)?).ok_or_else(ApiError::internal)?,
                in_cents: r.int(2)?,
                in_count: count(r, 3)?,
                out_cents: r.int(4)?,
                out_count: count(r, 5)?,
                wagered_cents: r.int(6)?,
                won_cents: r.int(7)?,
                largest_in_cents: r.int(8)?,
                largest_out_cents: r.int(9)?,
                near_threshold_count: count(r, 10)?,
            })
        })
        .collect()
}

/// What one event adds to a bucket.
#[derive(Debug, Clone, Copy, Default)]
pub struct BucketDelta {
    pub in_cents: i64,
    pub in_count: i64,
    pub out_cents: i64,
    pub out_count: i64,
    pub wagered_cents: i64,
    pub won_cents: i64,
    pub near_threshold: bool,
}

/// Adds an event to a bucket, creating it at its first event.
#[allow(clippy::too_many_arguments)]
/// Adds an event to its bucket. Every sum saturates at [`MAX_STORED_INTEGER`]
/// (?14), the largest integer every store keeps exactly: a sum that large is
/// past every threshold already, and an event is never refused for it.
pub fn add_to_bucket(tenant_id: &str, user_id: &str, span: Span, start: i64, currency: &str, method: PaymentMethod, d: BucketDelta) -> Stmt {
    Stmt::new(
        "INSERT INTO aml_buckets (tenant_id, external_user_id, span, start, currency, payment_method, in_cents, in_count, out_cents, out_count,
           wagered_cents, won_cents, largest_in_cents, largest_out_cents, near_threshold_count)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?7, ?9, ?13)
         ON CONFLICT (tenant_id, external_user_id, span, start, currency, payment_method) DO UPDATE SET
           in_cents = CASE WHEN aml_buckets.in_cents > ?14 - excluded.in_cents THEN ?14 ELSE aml_buckets.in_cents + excluded.in_cents END,
           in_count = CASE WHEN aml_buckets.in_count > ?14 - excluded.in_count THEN ?14 ELSE aml_buckets.in_count + excluded.in_count END,
           out_cents = CASE WHEN aml_buckets.out_cents > ?14 - excluded.out_cents THEN ?14 ELSE aml_buckets.out_cents + excluded.out_cents END,
           out_count = CASE WHEN aml_buckets.out_count > ?14 - excluded.out_count THEN ?14 ELSE aml_buckets.out_count + excluded.out_count END,
           wagered_cents = CASE WHEN aml_buckets.wagered_cents > ?14 - excluded.wagered_cents THEN ?14
             ELSE aml_buckets.wagered_cents + excluded.wagered_cents END,
           won_cents = CASE WHEN aml_buckets.won_cents > ?14 - excluded.won_cents THEN ?14 ELSE aml_buckets.won_cents + excluded.won_cents END,
           largest_in_cents = CASE WHEN excluded.largest_in_cents > aml_buckets.largest_in_cents THEN excluded.largest_in_cents ELSE aml_buckets.largest_in_cents END,
           largest_out_cents = CASE WHEN excluded.largest_out_cents > aml_buckets.largest_out_cents THEN excluded.largest_out_cents ELSE aml_buckets.largest_out_cents END,
           near_threshold_count = CASE WHEN aml_buckets.near_threshold_count > ?14 - excluded.near_threshold_count THEN ?14
             ELSE aml_buckets.near_threshold_count + excluded.near_threshold_count END",
        vec![
            tenant_id.into(),
            user_id.into(),
            span.as_str().into(),
            start.into(),
            currency.into(),
            method.as_str().into(),
            d.in_cents.into(),
            d.in_count.into(),
            d.out_cents.into(),
            d.out_count.into(),
            d.wagered_cents.into(),
            d.won_cents.into(),
            i64::from(d.near_threshold).into(),
            MAX_STORED_INTEGER.into(),
        ],
    )
}

/// A user's deposits by size class.
pub fn read_deposit_classes(tenant_id: &str, user_id: &str) -> Read {
    Read::new(
        "SELECT size_class, deposits FROM aml_deposit_classes WHERE tenant_id = ?1 AND external_user_id = ?2",
        vec![tenant_id.into(), user_id.into()],
    )
}

/// Counts per class, dense from class 0 to the highest present.
pub fn deposit_classes_from(rows: &[Row]) -> ApiResult<Vec<u32>> {
    let mut classes = Vec::new();
    for r in rows {
        let class = usize::try_from(r.int(0)?).map_err(|_| ApiError::internal())?;
        if class >= usize::try_from(rules_model::DEPOSIT_CLASSES).unwrap_or(usize::MAX) {
            return Err(ApiError::internal());
        }
        if classes.len() <= class {
            classes.resize(class + 1, 0);
        }
        classes[class] = count(r, 1)?;
    }
    Ok(classes)
}

/// Counts a deposit in its size class; the count saturates at [`MAX_STORED_INTEGER`] (?4).
pub fn count_deposit_class(tenant_id: &str, user_id: &str, class: u32) -> Stmt {
    Stmt::new(
        "INSERT INTO aml_deposit_classes (tenant_id, external_user_id, size_class, deposits) VALUES (?1, ?2, ?3, 1)
         ON CONFLICT (tenant_id, external_user_id, size_class) DO UPDATE SET
           deposits = CASE WHEN aml_deposit_classes.deposits >= ?4 THEN ?4 ELSE aml_deposit_classes.deposits + 1 END",
        vec![tenant_id.into(), user_id.into(), i64::from(class).into(), MAX_STORED_INTEGER.into()],
    )
}

/// The instruments a user used since `since`, newest first, at most 64: far
/// above any rule's count. The bound is written into the statement: SQLite
/// plans with a bound `LIMIT ?`'s value and so prepares such a statement
/// again after every new binding.
pub fn read_instruments(tenant_id: &str, user_id: &str, since: i64) -> Read {
    Read::new(
        "SELECT instrument, last_seen_at FROM aml_instruments WHERE tenant_id = ?1 AND external_user_id = ?2 AND last_seen_at >= ?3
         ORDER BY last_seen_at DESC LIMIT 64",
        vec![tenant_id.into(), user_id.into(), since.into()],
    )
}

pub fn instruments_from(rows: &[Row]) -> ApiResult<Vec<AmlInstrument>> {
    rows.iter().map(|r| Ok(AmlInstrument { instrument: r.text(0)?, last_seen_at: r.int(1)? })).collect()
}

pub fn see_instrument(tenant_id: &str, user_id: &str, instrument: &str, at: i64) -> Stmt {
    Stmt::new(
        "INSERT INTO aml_instruments (tenant_id, external_user_id, instrument, first_seen_at, last_seen_at) VALUES (?1, ?2, ?3, ?4, ?4)
         ON CONFLICT (tenant_id, external_user_id, instrument) DO UPDATE SET
           last_seen_at = CASE WHEN excluded.last_seen_at > aml_instruments.last_seen_at THEN excluded.last_seen_at ELSE aml_instruments.last_seen_at END",
        vec![tenant_id.into(), user_id.into(), instrument.into(), at.into()],
    )
}

/// Transfers between a user and a counterparty, both ways.
pub fn read_pair(tenant_id: &str, user_id: &str, counterparty: &str) -> Read {
    Read::new(
        "SELECT from_user_id, transfers, cents, first_at FROM aml_pairs
         WHERE tenant_id = ?1 AND ((from_user_id = ?2 AND to_user_id = ?3) OR (from_user_id = ?3 AND to_user_id = ?2))",
        vec![tenant_id.into(), user_id.into(), counterparty.into()],
    )
}

pub fn pair_from(rows: &[Row], user_id: &str) -> ApiResult<AmlPair> {
    let mut pair = AmlPair::default();
    for r in rows {
        if r.text(0)? == user_id {
            pair.sent_count = count(r, 1)?;
            pair.sent_cents = r.int(2)?;
            pair.first_sent_at = Some(r.int(3)?);
        } else {
            pair.received_count = count(r, 1)?;
            pair.received_cents = r.int(2)?;
        }
    }
    Ok(pair)
}

/// Adds a transfer, in the profile's currency, to its pair; the count and
/// the sum saturate at [`MAX_STORED_INTEGER`] (?6), as the buckets' do.
pub fn add_transfer(tenant_id: &str, from: &str, to: &str, cents: i64, at: i64) -> Stmt {
    Stmt::new(
        "INSERT INTO aml_pairs (tenant_id, from_user_id, to_user_id, transfers, cents, first_at, last_at) VALUES (?1, ?2, ?3, 1, ?4, ?5, ?5)
         ON CONFLICT (tenant_id, from_user_id, to_user_id) DO UPDATE SET
           transfers = CASE WHEN aml_pairs.transfers >= ?6 THEN ?6 ELSE aml_pairs.transfers + 1 END,
           cents = CASE WHEN aml_pairs.cents > ?6 - excluded.cents THEN ?6 ELSE aml_pairs.cents + excluded.cents END,
           last_at = CASE WHEN excluded.last_at > aml_pairs.last_at THEN excluded.last_at ELSE aml_pairs.last_at END",
        vec![tenant_id.into(), from.into(), to.into(), cents.into(), at.into(), MAX_STORED_INTEGER.into()],
    )
}

/// When each typology last alerted for the user.
pub fn read_alerted(tenant_id: &str, user_id: &str) -> Read {
    Read::new("SELECT typology, at FROM aml_alerted WHERE tenant_id = ?1 AND external_user_id = ?2", vec![tenant_id.into(), user_id.into()])
}

pub fn alerted_from(rows: &[Row]) -> ApiResult<Vec<AmlAlerted>> {
    rows.iter().map(|r| Ok(AmlAlerted { typology: Typology::parse(&r.text(0)?).ok_or_else(ApiError::internal)?, at: r.int(1)? })).collect()
}

/// Forgets which typologies alerted for the user, when their case closes: a
/// typology firing again after the team's decision alerts anew (a new case,
/// which holds and releases), rather than fire in a window counted as alerted,
/// where a hold would have no case to end it.
pub fn forget_alerted(tenant_id: &str, user_id: &str) -> Stmt {
    Stmt::new("DELETE FROM aml_alerted WHERE tenant_id = ?1 AND external_user_id = ?2", vec![tenant_id.into(), user_id.into()])
}

pub fn mark_alerted(tenant_id: &str, user_id: &str, typology: Typology, at: i64) -> Stmt {
    Stmt::new(
        "INSERT INTO aml_alerted (tenant_id, external_user_id, typology, at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (tenant_id, external_user_id, typology) DO UPDATE SET at = excluded.at",
        vec![tenant_id.into(), user_id.into(), typology.as_str().into(), at.into()],
    )
}

/// The user's AML standing and when they were last seen, in the batch that claims the user.
pub fn set_standing(tenant_id: &str, user_id: &str, standing: AmlStanding, last_seen_at: i64) -> Stmt {
    Stmt::expect_one(
        "UPDATE users SET aml_withdrawals_held = ?3, aml_cdd_tier = ?4,
           aml_last_seen_at = CASE WHEN aml_last_seen_at IS NULL OR aml_last_seen_at < ?5 THEN ?5 ELSE aml_last_seen_at END
         WHERE tenant_id = ?1 AND external_user_id = ?2",
        vec![
            tenant_id.into(),
            user_id.into(),
            standing.withdrawals_held.into(),
            standing.cdd_tier.map(rules_model::KycTier::as_str).into(),
            last_seen_at.into(),
        ],
    )
}

/// The key an open case holds, so that a user has at most one.
fn open_key(tenant_id: &str, user_id: &str) -> String {
    format!("{}\u{1f}{user_id}", tenant_id)
}

/// A user's open AML case.
pub struct OpenCase {
    pub case_id: String,
    pub typologies: Vec<String>,
    pub actions: Vec<String>,
    pub due_at: i64,
}

pub fn read_open_case(tenant_id: &str, user_id: &str) -> Read {
    Read::new("SELECT case_id, typologies, actions, due_at FROM aml_cases WHERE open_key = ?1", vec![open_key(tenant_id, user_id).into()])
}

fn names(text: &str) -> ApiResult<Vec<String>> {
    serde_json::from_str(text).map_err(|e| ApiError::internal().with_detail(format!("stored names: {e}")))
}

pub fn open_case_from(rows: &[Row]) -> ApiResult<Option<OpenCase>> {
    rows.first()
        .map(|r| Ok(OpenCase { case_id: r.text(0)?, typologies: names(&r.text(1)?)?, actions: names(&r.text(2)?)?, due_at: r.int(3)? }))
        .transpose()
}

/// A new open case for a user, holding its first alert.
pub struct NewCase<'a> {
    pub case_id: &'a str,
    pub tenant_id: &'a str,
    pub environment: Environment,
    pub user_id: &'a str,
    pub typologies: &'a [String],
    pub actions: &'a [String],
    pub opened_at: i64,
    pub due_at: i64,
}

pub fn open_case(c: NewCase<'_>) -> Stmt {
    Stmt::new(
        "INSERT INTO aml_cases (case_id, tenant_id, environment, external_user_id, status, open_key, typologies, actions, alert_count, opened_at, due_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 1, ?9, ?10, ?9)",
        vec![
            c.case_id.into(),
            c.tenant_id.into(),
            c.environment.as_str().into(),
            c.user_id.into(),
            AmlCaseStatus::Open.as_str().into(),
            open_key(c.tenant_id, c.user_id).into(),
            serde_json::json!(c.typologies).to_string().into(),
            serde_json::json!(c.actions).to_string().into(),
            c.opened_at.into(),
            c.due_at.into(),
        ],
    )
}

/// Adds an alert to the open case: its typologies and actions joined, the earlier due time kept.
pub fn extend_case(case_id: &str, typologies: &[String], actions: &[String], due_at: i64, now: i64) -> Stmt {
    Stmt::expect_one(
        "UPDATE aml_cases SET typologies = ?2, actions = ?3, alert_count = alert_count + 1, due_at = ?4, updated_at = ?5
         WHERE case_id = ?1 AND status = ?6",
        vec![
            case_id.into(),
            serde_json::json!(typologies).to_string().into(),
            serde_json::json!(actions).to_string().into(),
            due_at.into(),
            now.into(),
            AmlCaseStatus::Open.as_str().into(),
        ],
    )
}

/// Closes an open case with its outcome.
pub fn close_case(case_id: &str, outcome: &str, reviewer: &str, now: i64) -> Stmt {
    Stmt::expect_one(
        "UPDATE aml_cases SET status = ?2, open_key = NULL, outcome = ?3, reviewer = ?4, closed_at = ?5, updated_at = ?5 WHERE case_id = ?1 AND status = ?6",
        vec![case_id.into(), AmlCaseStatus::Closed.as_str().into(), outcome.into(), reviewer.into(), now.into(), AmlCaseStatus::Open.as_str().into()],
    )
}

/// A new alert.
pub struct NewAlert<'a> {
    pub alert_id: &'a str,
    pub tenant_id: &'a str,
    pub environment: Environment,
    pub user_id: &'a str,
    pub case_id: &'a str,
    pub aml_event_id: &'a str,
    pub typologies: String,
    pub outcome: &'a str,
    pub actions: String,
    pub explanation: String,
    pub decision_id: &'a str,
    pub created_at: i64,
}

pub fn insert_alert(a: NewAlert<'_>) -> Stmt {
    Stmt::new(
        "INSERT INTO aml_alerts (alert_id, tenant_id, environment, external_user_id, case_id, aml_event_id, typologies, outcome, actions, explanation,
           decision_id, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
        vec![
            a.alert_id.into(),
            a.tenant_id.into(),
            a.environment.as_str().into(),
            a.user_id.into(),
            a.case_id.into(),
            a.aml_event_id.into(),
            a.typologies.into(),
            a.outcome.into(),
            a.actions.into(),
            a.explanation.into(),
            a.decision_id.into(),
            a.created_at.into(),
        ],
    )
}

/// An alert as the lists show it.
pub struct AlertRow {
    pub alert_id: String,
    pub tenant_id: String,
    pub user_id: String,
    pub case_id: String,
    pub aml_event_id: String,
    pub typologies: Vec<String>,
    pub outcome: String,
    pub actions: Vec<String>,
    pub explanation: String,
    pub decision_id: String,
    pub created_at: i64,
}

/// Which alerts a list asks for; newest first, after the cursor's (created_at, alert_id).
pub struct AlertFilter<'a> {
    pub environment: Environment,
    pub tenant_id: Option<&'a str>,
    pub user_id: Option<&'a str>,
    pub case_id: Option<&'a str>,
    /// a reason code, matched as a JSON string inside the list
    pub typology: Option<Typology>,
    pub before: Option<(i64, String)>,
    pub limit: i64,
    /// the operator's read: a player an erasure restricted has no alerts to show
    pub hide_restricted: bool,
}

pub async fn alerts(store: &dyn Store, f: &AlertFilter<'_>) -> ApiResult<Vec<AlertRow>> {
    let (before_at, before_id) = f.before.clone().unwrap_or((crate::ports::MAX_STORED_INTEGER, String::new()));
    let rows = store
        .query(
            "SELECT alert_id, tenant_id, external_user_id, case_id, aml_event_id, typologies, outcome, actions, explanation, decision_id, created_at
             FROM aml_alerts WHERE environment = ?1 AND (?2 = '' OR tenant_id = ?2) AND (?3 = '' OR external_user_id = ?3)
               AND (?4 = '' OR case_id = ?4) AND (?5 = '' OR typologies LIKE ?5)
               AND (created_at < ?6 OR (created_at = ?6 AND alert_id < ?7))
               AND (?9 = 0 OR NOT EXISTS (SELECT 1 FROM users u WHERE u.tenant_id = aml_alerts.tenant_id
                                           AND u.external_user_id = aml_alerts.external_user_id AND u.restricted_at IS NOT NULL))
             ORDER BY created_at DESC, alert_id DESC LIMIT ?8",
            vec![
                f.environment.as_str().into(),
                f.tenant_id.unwrap_or_default().into(),
                f.user_id.unwrap_or_default().into(),
                f.case_id.unwrap_or_default().into(),
                // typologies are stored as a JSON array: one matches as a quoted element
                f.typology.map_or(String::new(), |t| format!("%\"{}\"%", t.as_str())).into(),
                before_at.into(),
                before_id.into(),
                f.limit.into(),
                f.hide_restricted.into(),
            ],
        )
        .await?;
    rows.iter()
        .map(|r| {
            Ok(AlertRow {
                alert_id: r.text(0)?,
                tenant_id: r.text(1)?,
                user_id: r.text(2)?,
                case_id: r.text(3)?,
                aml_event_id: r.text(4)?,
                typologies: names(&r.text(5)?)?,
                outcome: r.text(6)?,
                actions: names(&r.text(7)?)?,
                explanation: r.text(8)?,
                decision_id: r.text(9)?,
                created_at: r.int(10)?,
            })
        })
        .collect()
}

/// An AML case as the lists show it.
pub struct CaseRow {
    pub case_id: String,
    pub tenant_id: String,
    pub user_id: String,
    pub status: AmlCaseStatus,
    pub typologies: Vec<String>,
    pub actions: Vec<String>,
    pub alert_count: i64,
    pub opened_at: i64,
    pub due_at: i64,
    pub closed_at: Option<i64>,
    pub outcome: Option<String>,
    pub reviewer: Option<String>,
}

fn case_from(r: &Row) -> ApiResult<CaseRow> {
    Ok(CaseRow {
        case_id: r.text(0)?,
        tenant_id: r.text(1)?,
        user_id: r.text(2)?,
        status: AmlCaseStatus::parse(&r.text(3)?).ok_or_else(ApiError::internal)?,
        typologies: names(&r.text(4)?)?,
        actions: names(&r.text(5)?)?,
        alert_count: r.int(6)?,
        opened_at: r.int(7)?,
        due_at: r.int(8)?,
        closed_at: r.opt_int(9)?,
        outcome: r.opt_text(10)?,
        reviewer: r.opt_text(11)?,
    })
}

/// The environment's AML cases of a status, by due time, after the cursor's (due_at, case_id).
pub async fn cases(
    store: &dyn Store,
    environment: Environment,
    status: Option<AmlCaseStatus>,
    tenant_id: Option<&str>,
    after: Option<(i64, String)>,
    limit: i64,
) -> ApiResult<Vec<CaseRow>> {
    let (after_at, after_id) = after.unwrap_or((-crate::ports::MAX_STORED_INTEGER, String::new()));
    let rows = store
        .query(
            "SELECT case_id, tenant_id, external_user_id, status, typologies, actions, alert_count, opened_at, due_at, closed_at, outcome, reviewer
             FROM aml_cases WHERE environment = ?1 AND (?2 = '' OR status = ?2) AND (?3 = '' OR tenant_id = ?3)
               AND (due_at > ?4 OR (due_at = ?4 AND case_id > ?5))
             ORDER BY due_at, case_id LIMIT ?6",
            vec![
                environment.as_str().into(),
                status.map_or("", AmlCaseStatus::as_str).into(),
                tenant_id.unwrap_or_default().into(),
                after_at.into(),
                after_id.into(),
                limit.into(),
            ],
        )
        .await?;
    rows.iter().map(case_from).collect()
}

/// One AML case of the environment.
pub async fn case(store: &dyn Store, environment: Environment, case_id: &str) -> ApiResult<Option<CaseRow>> {
    let rows = store
        .query(
            "SELECT case_id, tenant_id, external_user_id, status, typologies, actions, alert_count, opened_at, due_at, closed_at, outcome, reviewer
             FROM aml_cases WHERE case_id = ?1 AND environment = ?2",
            vec![case_id.into(), environment.as_str().into()],
        )
        .await?;
    rows.first().map(case_from).transpose()
}

/// The user's withdrawal standing after a case closes.
pub fn set_withdrawal_standing(tenant_id: &str, user_id: &str, standing: AmlStanding) -> Stmt {
    Stmt::expect_one(
        "UPDATE users SET aml_withdrawals_held = ?3, aml_cdd_tier = ?4 WHERE tenant_id = ?1 AND external_user_id = ?2",
        vec![tenant_id.into(), user_id.into(), standing.withdrawals_held.into(), standing.cdd_tier.map(rules_model::KycTier::as_str).into()],
    )
}

/// A user's event, for a report.
pub struct UserEvent {
    pub aml_event_id: String,
    pub payload: String,
    pub event_at: Option<i64>,
    pub outcome: Option<String>,
    pub decision_id: Option<String>,
}

/// A user's events that happened in [`from`, `to`], oldest first, at most `limit`.
pub async fn user_events(store: &dyn Store, tenant_id: &str, user_id: &str, from: i64, to: i64, limit: i64) -> ApiResult<Vec<UserEvent>> {
    let rows = store
        .query(
            "SELECT aml_event_id, payload, event_at, outcome, decision_id FROM aml_events
             WHERE tenant_id = ?1 AND external_user_id = ?2 AND event_at >= ?3 AND event_at <= ?4 ORDER BY event_at, aml_event_id LIMIT ?5",
            vec![tenant_id.into(), user_id.into(), from.into(), to.into(), limit.into()],
        )
        .await?;
    rows.iter()
        .map(|r| {
            Ok(UserEvent {
                aml_event_id: r.text(0)?,
                payload: r.text(1)?,
                event_at: r.opt_int(2)?,
                outcome: r.opt_text(3)?,
                decision_id: r.opt_text(4)?,
            })
        })
        .collect()
}

/// An alert naming a CTR candidate.
pub struct CtrAlert {
    pub alert_id: String,
    pub tenant_id: String,
    pub user_id: String,
    pub explanation: String,
    pub decision_id: String,
}

/// Alerts created in [`from`, `to`) whose actions name a CTR candidate, oldest first.
pub async fn ctr_alerts(
    store: &dyn Store,
    environment: Environment,
    tenant_id: Option<&str>,
    from: i64,
    to: i64,
    limit: i64,
) -> ApiResult<Vec<CtrAlert>> {
    let rows = store
        .query(
            "SELECT alert_id, tenant_id, external_user_id, explanation, decision_id FROM aml_alerts
             WHERE environment = ?1 AND (?2 = '' OR tenant_id = ?2) AND created_at >= ?3 AND created_at < ?4 AND actions LIKE ?5
             ORDER BY created_at, alert_id LIMIT ?6",
            vec![
                environment.as_str().into(),
                tenant_id.unwrap_or_default().into(),
                from.into(),
                to.into(),
                format!("%\"{}\"%", rules_model::AmlAction::CtrCandidate.as_str()).into(),
                limit.into(),
            ],
        )
        .await?;
    rows.iter()
        .map(|r| Ok(CtrAlert { alert_id: r.text(0)?, tenant_id: r.text(1)?, user_id: r.text(2)?, explanation: r.text(3)?, decision_id: r.text(4)? }))
        .collect()
}

/// Counts for the feedback figures, grouped by the stored typology lists.
pub struct FeedbackCounts {
    pub cases_open: i64,
    pub cases_closed: i64,
    pub alerts_by_typologies: Vec<(Vec<String>, i64)>,
    pub closed_by_typologies: Vec<(Vec<String>, Option<String>, i64)>,
}

pub async fn feedback_counts(store: &dyn Store, environment: Environment) -> ApiResult<FeedbackCounts> {
    let env: crate::ports::Value = environment.as_str().into();
    let closed: crate::ports::Value = AmlCaseStatus::Closed.as_str().into();
    let results = store
        .query_many(vec![
            Read::new(
                "SELECT CAST(COUNT(*) AS BIGINT), CAST(COALESCE(SUM(CASE WHEN status = ?2 THEN 1 ELSE 0 END), 0) AS BIGINT) FROM aml_cases WHERE environment = ?1",
                vec![env.clone(), closed.clone()],
            ),
            Read::new("SELECT typologies, CAST(COUNT(*) AS BIGINT) FROM aml_alerts WHERE environment = ?1 GROUP BY typologies", vec![env.clone()]),
            Read::new(
                "SELECT typologies, outcome, CAST(COUNT(*) AS BIGINT) FROM aml_cases WHERE environment = ?1 AND status = ?2 GROUP BY typologies, outcome",
                vec![env, closed],
            ),
        ])
        .await?;
    let rows = |i: usize| -> &[Row] { results.get(i).map(Vec::as_slice).unwrap_or_default() };
    let totals = rows(0).first().ok_or_else(ApiError::internal)?;
    let (all, cases_closed) = (totals.int(0)?, totals.int(1)?);
    Ok(FeedbackCounts {
        cases_open: all - cases_closed,
        cases_closed,
        alerts_by_typologies: rows(1).iter().map(|r| Ok((names(&r.text(0)?)?, r.int(1)?))).collect::<ApiResult<_>>()?,
        closed_by_typologies: rows(2).iter().map(|r| Ok((names(&r.text(0)?)?, r.opt_text(1)?, r.int(2)?))).collect::<ApiResult<_>>()?,
    })
}

/// A shadow component's disagreement with the live one on an event.
pub struct Disagreement<'a> {
    pub disagreement_id: &'a str,
    pub environment: Environment,
    pub tenant_id: &'a str,
    pub aml_event_id: &'a str,
    pub decision_id: &'a str,
    pub shadow_rules_sha256: &'a str,
    pub live_outcome: &'a str,
    pub shadow_outcome: &'a str,
    pub live_alert: String,
    pub shadow_alert: String,
    pub at: i64,
}

pub fn insert_disagreement(d: Disagreement<'_>) -> Stmt {
    Stmt::new(
        "INSERT INTO aml_shadow_disagreements (disagreement_id, environment, tenant_id, aml_event_id, decision_id, shadow_rules_sha256, live_outcome,
           shadow_outcome, live_alert, shadow_alert, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
        vec![
            d.disagreement_id.into(),
            d.environment.as_str().into(),
            d.tenant_id.into(),
            d.aml_event_id.into(),
            d.decision_id.into(),
            d.shadow_rules_sha256.into(),
            d.live_outcome.into(),
            d.shadow_outcome.into(),
            d.live_alert.into(),
            d.shadow_alert.into(),
            d.at.into(),
        ],
    )
}

/// A recorded disagreement.
pub struct DisagreementRow {
    pub disagreement_id: String,
    pub tenant_id: String,
    pub aml_event_id: String,
    pub decision_id: String,
    pub shadow_rules_sha256: String,
    pub live_outcome: String,
    pub shadow_outcome: String,
    pub live_alert: Vec<String>,
    pub shadow_alert: Vec<String>,
    pub at: i64,
}

/// The environment's disagreements, newest first, before the cursor's (at, id).
pub async fn disagreements(
    store: &dyn Store,
    environment: Environment,
    before: Option<(i64, String)>,
    limit: i64,
) -> ApiResult<Vec<DisagreementRow>> {
    let (before_at, before_id) = before.unwrap_or((crate::ports::MAX_STORED_INTEGER, String::new()));
    let rows = store
        .query(
            "SELECT disagreement_id, tenant_id, aml_event_id, decision_id, shadow_rules_sha256, live_outcome, shadow_outcome, live_alert, shadow_alert, at
             FROM aml_shadow_disagreements WHERE environment = ?1 AND (at < ?2 OR (at = ?2 AND disagreement_id < ?3))
             ORDER BY at DESC, disagreement_id DESC LIMIT ?4",
            vec![environment.as_str().into(), before_at.into(), before_id.into(), limit.into()],
        )
        .await?;
    rows.iter()
        .map(|r| {
            Ok(DisagreementRow {
                disagreement_id: r.text(0)?,
                tenant_id: r.text(1)?,
                aml_event_id: r.text(2)?,
                decision_id: r.text(3)?,
                shadow_rules_sha256: r.text(4)?,
                live_outcome: r.text(5)?,
                shadow_outcome: r.text(6)?,
                live_alert: names(&r.text(7)?)?,
                shadow_alert: names(&r.text(8)?)?,
                at: r.int(9)?,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ports::Value;

    /// An hour's payment methods are summed exactly, past what a store keeps
    /// exactly; the twin, another hour, stays apart.
    #[test]
    fn an_hours_methods_are_summed_exactly_past_the_stores_bound() {
        let row =
            |start: i64, cents: i64| Row(vec![Value::Int(start), Value::Int(cents), Value::Int(1), Value::Int(0), Value::Int(7), Value::Int(0)]);
        let hours = hours_from(&[row(3_600, MAX_STORED_INTEGER), row(3_600, MAX_STORED_INTEGER), row(7_200, 5)]).unwrap_or_default();
        assert_eq!(hours.len(), 2);
        assert_eq!(hours[0].in_cents, 2 * MAX_STORED_INTEGER);
        assert_eq!((hours[0].in_count, hours[0].wagered_cents), (2, 14));
        assert_eq!((hours[1].start, hours[1].in_cents, hours[1].in_count), (7_200, 5, 1));
        assert!(!read_hours("t", "u", "USD", 0).sql.contains("SUM("), "the store never sums an hour's methods");
    }
}
