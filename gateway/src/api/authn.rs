//! Bearer-key authentication and its audit trail.

use http::HeaderMap;

use crate::auth::{self, Environment};
use crate::error::{ApiError, ApiResult};
use crate::ports::{Stmt, Value};
use crate::{Caller, Gateway};

/// Where a failed authentication came from.
struct Audit<'a> {
    source: Option<&'a str>,
    request_id: &'a str,
}

impl Gateway {
    pub(crate) async fn authenticate(&self, headers: &HeaderMap, request_id: &str, source: Option<&str>) -> ApiResult<Caller> {
        let audit = Audit { source, request_id };
        let Some(header) = headers.get(http::header::AUTHORIZATION) else {
            self.audit_failure(None, "missing_credentials", None, &audit).await;
            return Err(ApiError::new(401, "missing_credentials", "send the API key as Authorization: Bearer <key>"));
        };
        let invalid = || ApiError::new(401, "invalid_credentials", "the API key is malformed, unknown or revoked, or the tenant is suspended");
        let presented = header.to_str().ok().and_then(|v| v.split_once(' ')).filter(|(s, _)| s.eq_ignore_ascii_case("bearer")).map(|(_, k)| k.trim());
        let Some(key) = presented else {
            self.audit_failure(None, "malformed_authorization_header", None, &audit).await;
            return Err(invalid());
        };
        let prefix = auth::audit_prefix(key);
        let Some(environment) = auth::parse_key(key) else {
            self.audit_failure(None, "malformed_key", Some(&prefix), &audit).await;
            return Err(invalid());
        };
        let hash = auth::hash_key(key);
        let now = self.clock.now();
        if let Some(caller) = self.key_cache.get(&hash, now) {
            return Ok(caller);
        }
        let rows = self
            .store
            .query(
                "SELECT k.key_id, k.key_hash, k.is_admin, k.revoked_at, t.tenant_id, t.environment, t.rate_limit_per_minute,
                        t.suspended_at, t.clock_offset_seconds, t.jurisdiction
                 FROM api_keys k JOIN tenants t ON t.tenant_id = k.tenant_id WHERE k.key_hash = ?1",
                vec![hash.as_str().into()],
            )
            .await?;
        let Some(row) = rows.first() else {
            self.audit_failure(None, "unknown_key", Some(&prefix), &audit).await;
            return Err(invalid());
        };
        let tenant_id = row.text(4)?;
        if !auth::hashes_match(&row.text(1)?, &hash) || Environment::parse(&row.text(5)?) != Some(environment) {
            self.audit_failure(Some(&tenant_id), "unknown_key", Some(&prefix), &audit).await;
            return Err(invalid());
        }
        if row.opt_int(3)?.is_some() {
            self.audit_failure(Some(&tenant_id), "revoked_key", Some(&prefix), &audit).await;
            return Err(invalid());
        }
        if row.opt_int(7)?.is_some() {
            self.audit_failure(Some(&tenant_id), "tenant_suspended", Some(&prefix), &audit).await;
            return Err(invalid());
        }
        let caller = Caller {
            key_id: row.text(0)?,
            is_admin: row.bool(2)?,
            tenant_id,
            environment,
            rate_limit_per_minute: row.int(6)?,
            clock_offset_seconds: row.int(8)?,
            jurisdiction: row.text(9)?,
        };
        self.key_cache.put(hash, &caller, now);
        Ok(caller)
    }

    /// Records a failed authentication. A failure that names a tenant (a
    /// revoked key, a suspended tenant) is a row of that tenant's audit log;
    /// the others (no key, a malformed or unknown key) are counted per
    /// source, reason and minute, so that a flood of bad keys adds rows at
    /// most per minute. A failing audit write does not turn the 401 into a
    /// 500: the caller still learns their key was refused.
    async fn audit_failure(&self, tenant_id: Option<&str>, reason: &str, key_prefix: Option<&str>, audit: &Audit<'_>) {
        let request_id = audit.request_id;
        if tenant_id.is_none() {
            let now = self.clock.now();
            let statement = Stmt::new(
                "INSERT INTO auth_failure_counts (minute, source, reason, failures, first_request_id, last_key_prefix)
                 VALUES (?1, ?2, ?3, 1, ?4, ?5)
                 ON CONFLICT (minute, source, reason) DO UPDATE SET failures = auth_failure_counts.failures + 1, last_key_prefix = ?5",
                vec![
                    (now - now.rem_euclid(60)).into(),
                    audit.source.unwrap_or("unknown").into(),
                    reason.into(),
                    request_id.into(),
                    Value::from(key_prefix),
                ],
            );
            let _ = self.store.batch(vec![statement]).await;
            return;
        }
        let statement = Stmt::new(
            "INSERT INTO audit_log (audit_id, tenant_id, action, reason, key_prefix, request_id, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            vec![
                self.new_id("aud").into(),
                Value::from(tenant_id),
                "authentication_failed".into(),
                reason.into(),
                Value::from(key_prefix),
                request_id.into(),
                self.clock.now().into(),
            ],
        );
        let _ = self.store.batch(vec![statement]).await;
    }
}
