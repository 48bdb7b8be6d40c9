//! The tenants-and-keys area's persistence: tenants, their keys, the test
//! clock, and the audit log of authentication failures and admin actions.

use rules_model::ScreeningScope;

use crate::auth::Environment;
use crate::error::ApiResult;
use crate::ports::{Row, Stmt, Store, StoreError, Value};

/// A new tenant.
pub struct NewTenant<'a> {
    pub tenant_id: &'a str,
    pub name: &'a str,
    pub environment: Environment,
    pub rate_limit_per_minute: i64,
    pub jurisdiction: &'a str,
    pub screening: ScreeningScope,
    pub now: i64,
}

pub fn insert_tenant(t: &NewTenant<'_>) -> Stmt {
    Stmt::new(
        "INSERT INTO tenants (tenant_id, name, environment, rate_limit_per_minute, created_at, jurisdiction, screen_pep, screen_adverse_media)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        vec![
            t.tenant_id.into(),
            t.name.into(),
            t.environment.as_str().into(),
            t.rate_limit_per_minute.into(),
            t.now.into(),
            t.jurisdiction.into(),
            t.screening.pep.into(),
            t.screening.adverse_media.into(),
        ],
    )
}

/// An environment's service tenant, the compliance team's, once.
pub fn insert_service_tenant(tenant_id: &str, environment: Environment, rate_limit_per_minute: i64, now: i64) -> Stmt {
    Stmt::new(
        "INSERT INTO tenants (tenant_id, name, environment, rate_limit_per_minute, is_service, created_at)
         VALUES (?1, ?2, ?3, ?4, 1, ?5) ON CONFLICT (tenant_id) DO NOTHING",
        vec![tenant_id.into(), "compliance team".into(), environment.as_str().into(), rate_limit_per_minute.into(), now.into()],
    )
}

/// A key, stored as its SHA-256 and the prefix the audit log shows.
pub fn insert_key(key_id: &str, tenant_id: &str, key_hash: String, key_prefix: String, is_admin: bool, now: i64) -> Stmt {
    Stmt::new(
        "INSERT INTO api_keys (key_id, tenant_id, key_hash, key_prefix, is_admin, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        vec![key_id.into(), tenant_id.into(), key_hash.into(), key_prefix.into(), is_admin.into(), now.into()],
    )
}

/// Whether an operator tenant (not a service tenant) of the environment exists.
pub async fn operator_tenant_exists(store: &dyn Store, tenant_id: &str, environment: Environment) -> Result<bool, StoreError> {
    let rows = store
        .query(
            "SELECT tenant_id FROM tenants WHERE tenant_id = ?1 AND environment = ?2 AND is_service = 0",
            vec![tenant_id.into(), environment.as_str().into()],
        )
        .await?;
    Ok(!rows.is_empty())
}

/// A key of the environment: `None` when there is none, `Some(revoked_at)` otherwise.
pub async fn key_revoked_at(store: &dyn Store, key_id: &str, environment: Environment) -> Result<Option<Option<i64>>, StoreError> {
    let rows = store
        .query(
            "SELECT k.revoked_at FROM api_keys k JOIN tenants t ON t.tenant_id = k.tenant_id WHERE k.key_id = ?1 AND t.environment = ?2",
            vec![key_id.into(), environment.as_str().into()],
        )
        .await?;
    rows.first().map(|r| r.opt_int(0)).transpose()
}

pub fn revoke_key(key_id: &str, now: i64) -> Stmt {
    Stmt::new("UPDATE api_keys SET revoked_at = ?2 WHERE key_id = ?1 AND revoked_at IS NULL", vec![key_id.into(), now.into()])
}

pub fn suspend(tenant_id: &str, now: i64) -> Stmt {
    Stmt::new("UPDATE tenants SET suspended_at = ?2 WHERE tenant_id = ?1 AND suspended_at IS NULL", vec![tenant_id.into(), now.into()])
}

/// Moves a tenant's test clock forward.
pub fn advance_clock(tenant_id: &str, seconds: i64) -> Stmt {
    Stmt::new("UPDATE tenants SET clock_offset_seconds = clock_offset_seconds + ?2 WHERE tenant_id = ?1", vec![tenant_id.into(), seconds.into()])
}

/// A key as authentication reads it, with its tenant.
pub struct KeyRow {
    pub key_id: String,
    pub key_hash: String,
    pub is_admin: bool,
    pub revoked_at: Option<i64>,
    pub tenant_id: String,
    pub environment: Option<Environment>,
    pub rate_limit_per_minute: i64,
    pub suspended_at: Option<i64>,
    pub clock_offset_seconds: i64,
    pub jurisdiction: String,
}

pub async fn key_by_hash(store: &dyn Store, key_hash: &str) -> Result<Option<KeyRow>, StoreError> {
    let rows = store
        .query(
            "SELECT k.key_id, k.key_hash, k.is_admin, k.revoked_at, t.tenant_id, t.environment, t.rate_limit_per_minute,
                    t.suspended_at, t.clock_offset_seconds, t.jurisdiction
             FROM api_keys k JOIN tenants t ON t.tenant_id = k.tenant_id WHERE k.key_hash = ?1",
            vec![key_hash.into()],
        )
        .await?;
    rows.first()
        .map(|r| {
            Ok(KeyRow {
                key_id: r.text(0)?,
                key_hash: r.text(1)?,
                is_admin: r.bool(2)?,
                revoked_at: r.opt_int(3)?,
                tenant_id: r.text(4)?,
                environment: Environment::parse(&r.text(5)?),
                rate_limit_per_minute: r.int(6)?,
                suspended_at: r.opt_int(7)?,
                clock_offset_seconds: r.int(8)?,
                jurisdiction: r.text(9)?,
            })
        })
        .transpose()
}

/// Counts a failed authentication that names no tenant, per minute, source and reason.
pub fn count_auth_failure(minute: i64, source: &str, reason: &str, request_id: &str, key_prefix: Option<&str>) -> Stmt {
    Stmt::new(
        "INSERT INTO auth_failure_counts (minute, source, reason, failures, first_request_id, last_key_prefix)
         VALUES (?1, ?2, ?3, 1, ?4, ?5)
         ON CONFLICT (minute, source, reason) DO UPDATE SET failures = auth_failure_counts.failures + 1, last_key_prefix = ?5",
        vec![minute.into(), source.into(), reason.into(), request_id.into(), Value::from(key_prefix)],
    )
}

/// A failed authentication with a tenant's key, in that tenant's audit log.
pub fn audit_auth_failure(audit_id: &str, tenant_id: &str, reason: &str, key_prefix: Option<&str>, request_id: &str, now: i64) -> Stmt {
    Stmt::new(
        "INSERT INTO audit_log (audit_id, tenant_id, action, reason, key_prefix, request_id, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        vec![
            audit_id.into(),
            tenant_id.into(),
            "authentication_failed".into(),
            reason.into(),
            Value::from(key_prefix),
            request_id.into(),
            now.into(),
        ],
    )
}

/// An admin action that succeeded.
pub struct AdminAction<'a> {
    pub audit_id: &'a str,
    pub tenant_id: Option<&'a str>,
    pub action: &'a str,
    pub request_id: &'a str,
    pub now: i64,
    pub environment: Environment,
    pub actor_key_id: &'a str,
    pub resource: Option<&'a str>,
}

pub fn audit_admin_action(a: &AdminAction<'_>) -> Stmt {
    Stmt::new(
        "INSERT INTO audit_log (audit_id, tenant_id, action, reason, key_prefix, request_id, at, environment, actor_key_id, resource)
         VALUES (?1, ?2, ?3, 'ok', NULL, ?4, ?5, ?6, ?7, ?8)",
        vec![
            a.audit_id.into(),
            a.tenant_id.into(),
            a.action.into(),
            a.request_id.into(),
            a.now.into(),
            a.environment.as_str().into(),
            a.actor_key_id.into(),
            a.resource.into(),
        ],
    )
}

/// An entry of an audit log.
pub struct AuditRow {
    pub audit_id: String,
    pub action: String,
    pub reason: String,
    pub key_prefix: Option<String>,
    pub request_id: String,
    pub at: i64,
    pub actor_key_id: Option<String>,
    pub resource: Option<String>,
    pub tenant_id: Option<String>,
}

fn audit_row(r: &Row) -> Result<AuditRow, StoreError> {
    Ok(AuditRow {
        audit_id: r.text(0)?,
        action: r.text(1)?,
        reason: r.text(2)?,
        key_prefix: r.opt_text(3)?,
        request_id: r.text(4)?,
        at: r.int(5)?,
        actor_key_id: r.opt_text(6)?,
        resource: r.opt_text(7)?,
        tenant_id: r.opt_text(8)?,
    })
}

/// Where a page of an audit log starts: after the entry with this time and
/// id (newest first; entries of one second by id), or at the newest.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AuditAfter(pub Option<(i64, String)>);

impl AuditAfter {
    /// `?3` and `?4`: with no cursor, past every entry (no stored time reaches the bound).
    fn params(&self) -> [Value; 2] {
        match &self.0 {
            Some((at, audit_id)) => [(*at).into(), audit_id.into()],
            None => [crate::ports::MAX_STORED_INTEGER.into(), "".into()],
        }
    }
}

/// A page of a tenant's audit log, newest first: at most `limit` entries after `after`.
pub async fn tenant_audit(store: &dyn Store, tenant_id: &str, after: &AuditAfter, limit: i64) -> Result<Vec<AuditRow>, StoreError> {
    let [at, audit_id] = after.params();
    let rows = store
        .query(
            "SELECT audit_id, action, reason, key_prefix, request_id, at, actor_key_id, resource, tenant_id FROM audit_log
             WHERE tenant_id = ?1 AND (at < ?3 OR (at = ?3 AND audit_id > ?4)) ORDER BY at DESC, audit_id LIMIT ?2",
            vec![tenant_id.into(), limit.into(), at, audit_id],
        )
        .await?;
    rows.iter().map(audit_row).collect()
}

/// A page of the admin actions of an environment, newest first: at most `limit` entries after `after`.
pub async fn admin_audit(store: &dyn Store, environment: Environment, after: &AuditAfter, limit: i64) -> Result<Vec<AuditRow>, StoreError> {
    let [at, audit_id] = after.params();
    let rows = store
        .query(
            "SELECT audit_id, action, reason, key_prefix, request_id, at, actor_key_id, resource, tenant_id FROM audit_log
             WHERE environment = ?1 AND actor_key_id IS NOT NULL AND (at < ?3 OR (at = ?3 AND audit_id > ?4)) ORDER BY at DESC, audit_id LIMIT ?2",
            vec![environment.as_str().into(), limit.into(), at, audit_id],
        )
        .await?;
    rows.iter().map(audit_row).collect()
}

/// The test-clock offset of an operator tenant of the environment; `None` when there is no such tenant.
pub async fn operator_clock_offset(store: &dyn Store, tenant_id: &str, environment: Environment) -> Result<Option<i64>, StoreError> {
    let rows = store
        .query(
            "SELECT clock_offset_seconds FROM tenants WHERE tenant_id = ?1 AND environment = ?2 AND is_service = 0",
            vec![tenant_id.into(), environment.as_str().into()],
        )
        .await?;
    rows.first().map(|r| r.int(0)).transpose()
}

/// Sets an operator tenant's request rate per key and minute.
pub fn set_rate_limit(tenant_id: &str, environment: Environment, rate_limit_per_minute: i64) -> Stmt {
    Stmt::new(
        "UPDATE tenants SET rate_limit_per_minute = ?3 WHERE tenant_id = ?1 AND environment = ?2 AND is_service = 0",
        vec![tenant_id.into(), environment.as_str().into(), rate_limit_per_minute.into()],
    )
}

/// Sets which topics beyond sanctions a tenant screens for.
pub fn set_screening(tenant_id: &str, environment: Environment, scope: ScreeningScope) -> Stmt {
    Stmt::expect_one(
        "UPDATE tenants SET screen_pep = ?3, screen_adverse_media = ?4 WHERE tenant_id = ?1 AND environment = ?2",
        vec![tenant_id.into(), environment.as_str().into(), scope.pep.into(), scope.adverse_media.into()],
    )
}

/// The topics beyond sanctions a tenant screens for.
pub async fn screening_scope(store: &dyn Store, tenant_id: &str) -> ApiResult<ScreeningScope> {
    let read = read_screening_scope(tenant_id);
    screening_scope_from(&store.query(read.sql, read.params).await?)
}

/// [`screening_scope`] as one read of a batch.
pub(crate) fn read_screening_scope(tenant_id: &str) -> crate::ports::Read {
    crate::ports::Read::new("SELECT screen_pep, screen_adverse_media FROM tenants WHERE tenant_id = ?1", vec![tenant_id.into()])
}

pub(crate) fn screening_scope_from(rows: &[crate::ports::Row]) -> ApiResult<ScreeningScope> {
    rows.first().map_or(Ok(ScreeningScope::default()), |r| Ok(ScreeningScope { pep: r.bool(0)?, adverse_media: r.bool(1)? }))
}
