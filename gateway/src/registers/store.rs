//! The national registers' persistence: each tenant's register settings
//! (credentials sealed), every register call of a check as evidence, and
//! each player's standing at each register (its latest answer, and the
//! pseudonymous code a register gave, such as CRUKS's).

use rules_model::{CheckPurpose, NationalRegister, RegisterStatus};

use crate::error::{ApiError, ApiResult};
use crate::ports::{Read, Row, Stmt, Store, Value};

/// One register of a tenant, as stored.
pub struct SettingRow {
    pub register: NationalRegister,
    pub base_url: String,
    /// the credentials' JSON, sealed under the host key
    pub credentials: String,
    pub purposes: Vec<CheckPurpose>,
    pub on_outage: rules_model::OutagePolicy,
}

fn bad(what: &str) -> ApiError {
    ApiError::internal().with_detail(format!("a stored register row has a bad {what}"))
}

pub fn read_settings(tenant_id: &str) -> Read {
    Read::new(
        "SELECT register, base_url, credentials, purposes, on_outage FROM register_settings WHERE tenant_id = ?1 ORDER BY register",
        vec![tenant_id.into()],
    )
}

pub fn settings_from(rows: &[Row]) -> ApiResult<Vec<SettingRow>> {
    rows.iter()
        .map(|r| {
            let purposes = r.text(3)?;
            Ok(SettingRow {
                register: NationalRegister::parse(&r.text(0)?).ok_or_else(|| bad("register"))?,
                base_url: r.text(1)?,
                credentials: r.text(2)?,
                purposes: purposes
                    .split(',')
                    .filter(|p| !p.is_empty())
                    .map(|p| CheckPurpose::parse(p).ok_or_else(|| bad("purpose")))
                    .collect::<ApiResult<_>>()?,
                on_outage: rules_model::OutagePolicy::parse(&r.text(4)?).ok_or_else(|| bad("outage policy"))?,
            })
        })
        .collect()
}

pub async fn settings(store: &dyn Store, tenant_id: &str) -> ApiResult<Vec<SettingRow>> {
    let read = read_settings(tenant_id);
    settings_from(&store.query(read.sql, read.params).await?)
}

/// Replaces the tenant's whole set of registers.
pub fn replace_settings(tenant_id: &str, settings: &[SettingRow], now: i64) -> Vec<Stmt> {
    let mut statements = vec![Stmt::new("DELETE FROM register_settings WHERE tenant_id = ?1", vec![tenant_id.into()])];
    for s in settings {
        let purposes: Vec<&str> = s.purposes.iter().map(|p| p.as_str()).collect();
        statements.push(Stmt::new(
            "INSERT INTO register_settings (tenant_id, register, base_url, credentials, purposes, on_outage, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            vec![
                tenant_id.into(),
                s.register.as_str().into(),
                s.base_url.as_str().into(),
                s.credentials.as_str().into(),
                purposes.join(",").into(),
                s.on_outage.as_str().into(),
                now.into(),
            ],
        ));
    }
    statements
}

/// Every tenant's sealed register credentials, for a reseal.
pub async fn all_credentials(store: &dyn Store) -> ApiResult<Vec<(String, String, String)>> {
    let rows = store.query("SELECT tenant_id, register, credentials FROM register_settings ORDER BY tenant_id, register", vec![]).await?;
    rows.iter().map(|r| Ok((r.text(0)?, r.text(1)?, r.text(2)?))).collect()
}

/// Seals a register's credentials anew, only if they are still the ones read.
pub fn reseal(tenant_id: &str, register: &str, stored: &str, sealed: &str) -> Stmt {
    Stmt::new(
        "UPDATE register_settings SET credentials = ?4 WHERE tenant_id = ?1 AND register = ?2 AND credentials = ?3",
        vec![tenant_id.into(), register.into(), stored.into(), sealed.into()],
    )
}

/// Every identity kept for the nightly batch, for a reseal: `(tenant, user, register, sealed)`.
pub async fn all_batch_identities(store: &dyn Store) -> ApiResult<Vec<(String, String, String, String)>> {
    let rows = store
        .query(
            "SELECT tenant_id, external_user_id, register, batch_identity FROM register_players WHERE batch_identity IS NOT NULL
              ORDER BY tenant_id, external_user_id, register",
            vec![],
        )
        .await?;
    rows.iter().map(|r| Ok((r.text(0)?, r.text(1)?, r.text(2)?, r.text(3)?))).collect()
}

/// Seals a kept identity anew, only if it is still the one read.
pub fn reseal_batch_identity(tenant_id: &str, user_id: &str, register: &str, stored: &str, sealed: &str) -> Stmt {
    Stmt::new(
        "UPDATE register_players SET batch_identity = ?5 WHERE tenant_id = ?1 AND external_user_id = ?2 AND register = ?3 AND batch_identity = ?4",
        vec![tenant_id.into(), user_id.into(), register.into(), stored.into(), sealed.into()],
    )
}

/// The player's standing at each national register: `(register, status, code)`.
pub fn read_standings(tenant_id: &str, user_id: &str) -> Read {
    Read::new(
        "SELECT register, status, code FROM register_players WHERE tenant_id = ?1 AND external_user_id = ?2",
        vec![tenant_id.into(), user_id.into()],
    )
}

pub struct Standing {
    pub register: NationalRegister,
    pub status: RegisterStatus,
    pub code: Option<String>,
}

pub fn standings_from(rows: &[Row]) -> ApiResult<Vec<Standing>> {
    rows.iter()
        .map(|r| {
            Ok(Standing {
                register: NationalRegister::parse(&r.text(0)?).ok_or_else(|| bad("register"))?,
                status: RegisterStatus::parse(&r.text(1)?).ok_or_else(|| bad("status"))?,
                code: r.opt_text(2)?,
            })
        })
        .collect()
}

/// The national registers that found the player excluded at their latest answer, for the deposit gate.
pub fn read_excluding_registers(tenant_id: &str, user_id: &str) -> Read {
    Read::new(
        "SELECT register FROM register_players WHERE tenant_id = ?1 AND external_user_id = ?2 AND status = ?3 ORDER BY register",
        vec![tenant_id.into(), user_id.into(), RegisterStatus::Excluded.as_str().into()],
    )
}

pub fn excluding_registers_from(rows: &[Row]) -> ApiResult<Vec<NationalRegister>> {
    rows.iter().map(|r| NationalRegister::parse(&r.text(0)?).ok_or_else(|| bad("register"))).collect()
}

/// What a check leaves with the player's standing besides its answer: the
/// code a register gave (CRUKS's), and the identity the nightly batch asks
/// with (sealed; [`super::batch`]).
#[derive(Default)]
pub struct Kept<'a> {
    pub code: Option<&'a str>,
    pub batch_identity: Option<&'a str>,
}

/// A register's answer becomes the player's standing there, unless a check
/// begun later already answered; an unavailable register changes nothing but
/// what is [`Kept`] (an outage is no answer, and never undoes an exclusion
/// found before).
pub fn set_standing(
    tenant_id: &str,
    user_id: &str,
    register: NationalRegister,
    status: RegisterStatus,
    kept: Kept<'_>,
    now: i64,
    at_ms: i64,
) -> Stmt {
    let answered = status != RegisterStatus::Unavailable;
    Stmt::new(
        "INSERT INTO register_players (tenant_id, external_user_id, register, status, checked_at, code, at_ms, batch_identity)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?8, ?9)
         ON CONFLICT (tenant_id, external_user_id, register) DO UPDATE SET
           status = CASE WHEN ?7 = 1 AND register_players.at_ms <= ?8 THEN ?4 ELSE register_players.status END,
           checked_at = CASE WHEN ?7 = 1 AND register_players.at_ms <= ?8 THEN ?5 ELSE register_players.checked_at END,
           at_ms = CASE WHEN ?7 = 1 AND register_players.at_ms <= ?8 THEN ?8 ELSE register_players.at_ms END,
           code = COALESCE(?6, register_players.code),
           batch_identity = COALESCE(?9, register_players.batch_identity)",
        vec![
            tenant_id.into(),
            user_id.into(),
            register.as_str().into(),
            status.as_str().into(),
            now.into(),
            Value::from(kept.code),
            answered.into(),
            at_ms.into(),
            Value::from(kept.batch_identity),
        ],
    )
}

// ---- the nightly batch ----

/// A tenant's register that offers a batch, with its run: what [`due_batches`] reads.
pub struct BatchTarget {
    pub tenant_id: String,
    pub environment: String,
    pub clock_offset_seconds: i64,
    pub setting: SettingRow,
    /// the run in progress or the last one: `(started_at, cursor, next_at_ms, finished)`
    pub run: Option<(i64, String, i64, bool)>,
}

/// Every tenant's register of `register`, with its batch run, tenants
/// suspended left out.
pub async fn due_batches(store: &dyn Store, register: NationalRegister) -> ApiResult<Vec<BatchTarget>> {
    let rows = store
        .query(
            "SELECT s.tenant_id, t.environment, t.clock_offset_seconds, s.register, s.base_url, s.credentials, s.purposes, s.on_outage,
                    b.started_at, b.cursor, b.next_at_ms, b.finished_at
               FROM register_settings s JOIN tenants t ON t.tenant_id = s.tenant_id
               LEFT JOIN register_batches b ON b.tenant_id = s.tenant_id AND b.register = s.register
              WHERE s.register = ?1 AND t.suspended_at IS NULL ORDER BY s.tenant_id",
            vec![register.as_str().into()],
        )
        .await?;
    rows.iter()
        .map(|r| {
            let setting = settings_from(std::slice::from_ref(&Row(r.0[3..8].to_vec())))?.pop().ok_or_else(|| bad("setting"))?;
            let run = match r.opt_int(8)? {
                None => None,
                Some(started) => Some((started, r.text(9)?, r.int(10)?, r.opt_int(11)?.is_some())),
            };
            Ok(BatchTarget { tenant_id: r.text(0)?, environment: r.text(1)?, clock_offset_seconds: r.int(2)?, setting, run })
        })
        .collect()
}

/// A player the batch asks about: their standing and the sealed identity.
pub struct BatchPlayer {
    pub user_id: String,
    pub status: RegisterStatus,
    pub identity: String,
}

/// The next players of a run, after `cursor` in id order: those with an
/// identity kept, not restricted by an erasure.
pub async fn batch_players(store: &dyn Store, tenant_id: &str, register: NationalRegister, cursor: &str, limit: i64) -> ApiResult<Vec<BatchPlayer>> {
    let rows = store
        .query(
            "SELECT p.external_user_id, p.status, p.batch_identity FROM register_players p
              WHERE p.tenant_id = ?1 AND p.register = ?2 AND p.batch_identity IS NOT NULL AND p.external_user_id > ?3
                AND NOT EXISTS (SELECT 1 FROM users u WHERE u.tenant_id = p.tenant_id AND u.external_user_id = p.external_user_id
                                  AND u.restricted_at IS NOT NULL)
              ORDER BY p.external_user_id LIMIT ?4",
            vec![tenant_id.into(), register.as_str().into(), cursor.into(), limit.into()],
        )
        .await?;
    rows.iter()
        .map(|r| {
            Ok(BatchPlayer { user_id: r.text(0)?, status: RegisterStatus::parse(&r.text(1)?).ok_or_else(|| bad("status"))?, identity: r.text(2)? })
        })
        .collect()
}

/// Claims the run's next request: the run as read moves on to `cursor`, and
/// no request before `next_at_ms`. A new run (`run` none, or the last one
/// over) begins at `started_at`. Expects one row: another host that claimed
/// first leaves none.
pub fn claim_batch(
    tenant_id: &str,
    register: NationalRegister,
    run: Option<&(i64, String, i64, bool)>,
    started_at: i64,
    cursor: &str,
    next_at_ms: i64,
) -> Stmt {
    let (old_started, old_cursor, old_next) = run.map_or((-1, String::new(), -1), |(s, c, n, _)| (*s, c.clone(), *n));
    Stmt::expect_one(
        "INSERT INTO register_batches (tenant_id, register, started_at, cursor, next_at_ms, finished_at) VALUES (?1, ?2, ?3, ?4, ?5, NULL)
         ON CONFLICT (tenant_id, register) DO UPDATE SET started_at = ?3, cursor = ?4, next_at_ms = ?5, finished_at = NULL
          WHERE register_batches.started_at = ?6 AND register_batches.cursor = ?7 AND register_batches.next_at_ms = ?8",
        vec![
            tenant_id.into(),
            register.as_str().into(),
            started_at.into(),
            cursor.into(),
            next_at_ms.into(),
            old_started.into(),
            old_cursor.into(),
            old_next.into(),
        ],
    )
}

/// A register newly set begins its batch cycle now (by the tenant's clock),
/// as if a run had just ended: its first run begins a day later. A register
/// set again keeps its cycle.
pub fn begin_cycle(tenant_id: &str, register: NationalRegister, now: i64) -> Stmt {
    Stmt::new(
        "INSERT INTO register_batches (tenant_id, register, started_at, cursor, next_at_ms, finished_at)
         SELECT ?1, ?2, ?3 + t.clock_offset_seconds, '', 0, ?3 + t.clock_offset_seconds FROM tenants t WHERE t.tenant_id = ?1
         ON CONFLICT (tenant_id, register) DO NOTHING",
        vec![tenant_id.into(), register.as_str().into(), now.into()],
    )
}

/// The run as read has no one left to ask: it is over at `finished_at`.
pub fn finish_batch(tenant_id: &str, register: NationalRegister, started_at: i64, cursor: &str, finished_at: i64) -> Stmt {
    Stmt::new(
        "UPDATE register_batches SET finished_at = ?5 WHERE tenant_id = ?1 AND register = ?2 AND started_at = ?3 AND cursor = ?4 AND finished_at IS NULL",
        vec![tenant_id.into(), register.as_str().into(), started_at.into(), cursor.into(), finished_at.into()],
    )
}

/// What a register was asked for: a check's purpose, or the nightly batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Occasion {
    Check(CheckPurpose),
    Batch,
}

impl Occasion {
    pub fn as_str(self) -> &'static str {
        match self {
            Occasion::Check(purpose) => purpose.as_str(),
            Occasion::Batch => "batch",
        }
    }
    pub fn parse(text: &str) -> Option<Occasion> {
        match text {
            "batch" => Some(Occasion::Batch),
            _ => CheckPurpose::parse(text).map(Occasion::Check),
        }
    }
}

/// One register's part of a check, as the evidence keeps it.
pub struct CheckRow {
    pub check_id: String,
    /// the register's place in its check: 0 for the shared register
    pub seq: i64,
    /// `shared` or a national register's name
    pub register: String,
    pub purpose: Occasion,
    pub status: RegisterStatus,
    pub reference: Option<String>,
    /// why an unavailable register's answer could not be used
    pub reason: Option<String>,
    pub request_id: String,
    /// the tenant's clock (a sandbox tenant's test clock shifts it)
    pub checked_at: i64,
    /// the service clock in milliseconds: the order of the checks
    pub at_ms: i64,
    pub latency_ms: i64,
}

pub fn insert_check(tenant_id: &str, user_id: &str, row: &CheckRow) -> Stmt {
    Stmt::new(
        "INSERT INTO register_checks (check_id, seq, tenant_id, external_user_id, register, purpose, status, reference, request_id, checked_at, at_ms, latency_ms, reason)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
        vec![
            row.check_id.as_str().into(),
            row.seq.into(),
            tenant_id.into(),
            user_id.into(),
            row.register.as_str().into(),
            row.purpose.as_str().into(),
            row.status.as_str().into(),
            Value::from(row.reference.clone()),
            row.request_id.as_str().into(),
            row.checked_at.into(),
            row.at_ms.into(),
            row.latency_ms.into(),
            Value::from(row.reason.clone()),
        ],
    )
}

/// Where a page of checks continues: after the row of this `(at_ms, check_id, seq)`.
pub type CheckCursor = (i64, String, i64);

/// A page of the player's register calls, newest check first (each check's
/// registers in their order), after the cursor's row.
pub async fn checks(store: &dyn Store, tenant_id: &str, user_id: &str, after: Option<CheckCursor>, limit: i64) -> ApiResult<Vec<CheckRow>> {
    let (at, id, seq) = after.unwrap_or((crate::ports::MAX_STORED_INTEGER, String::new(), 0));
    let rows = store
        .query(
            "SELECT check_id, seq, register, purpose, status, reference, request_id, checked_at, at_ms, latency_ms, reason FROM register_checks
              WHERE tenant_id = ?1 AND external_user_id = ?2
                AND (at_ms < ?3 OR (at_ms = ?3 AND (check_id < ?4 OR (check_id = ?4 AND seq > ?5))))
              ORDER BY at_ms DESC, check_id DESC, seq ASC LIMIT ?6",
            vec![tenant_id.into(), user_id.into(), at.into(), id.into(), seq.into(), limit.into()],
        )
        .await?;
    rows.iter()
        .map(|r| {
            Ok(CheckRow {
                check_id: r.text(0)?,
                seq: r.int(1)?,
                register: r.text(2)?,
                purpose: Occasion::parse(&r.text(3)?).ok_or_else(|| bad("purpose"))?,
                status: RegisterStatus::parse(&r.text(4)?).ok_or_else(|| bad("status"))?,
                reference: r.opt_text(5)?,
                request_id: r.text(6)?,
                checked_at: r.int(7)?,
                at_ms: r.int(8)?,
                latency_ms: r.int(9)?,
                reason: r.opt_text(10)?,
            })
        })
        .collect()
}
