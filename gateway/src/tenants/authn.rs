//! Bearer-key authentication and its audit trail.

use http::HeaderMap;

use super::store;
use crate::auth;
use crate::error::{ApiError, ApiResult};
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
        if let Some(environment) = auth::parse_session_token(key) {
            return match self.person_of_session(environment, key).await? {
                Some(caller) => Ok(caller),
                None => {
                    self.audit_failure(None, "invalid_session", Some(&prefix), &audit).await;
                    Err(ApiError::new(401, "invalid_credentials", "the session is unknown, ended or idle too long, or its account is disabled"))
                }
            };
        }
        let Some(environment) = auth::parse_key(key) else {
            self.audit_failure(None, "malformed_key", Some(&prefix), &audit).await;
            return Err(invalid());
        };
        let hash = auth::hash_key(key);
        let now = self.clock.now();
        if let Some(caller) = self.key_cache.get(&hash, now) {
            return Ok(caller);
        }
        let Some(row) = store::key_by_hash(self.store.as_ref(), &hash).await? else {
            self.audit_failure(None, "unknown_key", Some(&prefix), &audit).await;
            return Err(invalid());
        };
        let tenant_id = row.tenant_id;
        if !auth::hashes_match(&row.key_hash, &hash) || row.environment != Some(environment) {
            self.audit_failure(Some(&tenant_id), "unknown_key", Some(&prefix), &audit).await;
            return Err(invalid());
        }
        if row.revoked_at.is_some() {
            self.audit_failure(Some(&tenant_id), "revoked_key", Some(&prefix), &audit).await;
            return Err(invalid());
        }
        if row.suspended_at.is_some() {
            self.audit_failure(Some(&tenant_id), "tenant_suspended", Some(&prefix), &audit).await;
            return Err(invalid());
        }
        let caller = Caller {
            key_id: row.key_id,
            is_admin: row.is_admin,
            tenant_id,
            environment,
            rate_limit_per_minute: row.rate_limit_per_minute,
            clock_offset_seconds: row.clock_offset_seconds,
            jurisdiction: row.jurisdiction,
            person: None,
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
        let now = self.clock.now();
        let statement = match tenant_id {
            None => store::count_auth_failure(now - now.rem_euclid(60), audit.source.unwrap_or("unknown"), reason, request_id, key_prefix),
            Some(tenant_id) => store::audit_auth_failure(&self.new_id("aud"), tenant_id, reason, key_prefix, request_id, now),
        };
        let _ = self.store.batch(vec![statement]).await;
    }
}
