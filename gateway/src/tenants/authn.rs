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
        let now_ms = self.key_cache.now_ms(self.clock.now());
        if let Some(caller) = self.key_cache.get(&hash, now_ms) {
            return Ok(caller);
        }
        let issued = self.key_cache.issue(now_ms);
        let row = store::key_by_hash(self.store.as_ref(), &hash).await?;
        match caller_of(row, &hash, environment) {
            Ok(caller) => {
                self.key_cache.put(hash, &caller, issued);
                Ok(caller)
            }
            Err((tenant_id, reason)) => {
                self.audit_failure(tenant_id.as_deref(), reason, Some(&prefix), &audit).await;
                Err(invalid())
            }
        }
    }

    /// Gives the key cache a millisecond clock, which turns on its
    /// refresh-ahead: a kept key older than half a second still answers and
    /// is marked due; the host then calls [`Gateway::refresh_keys`] after its
    /// answer. A key is never used more than a second after its read was
    /// issued, refreshed or not (`auth::KEY_HARD_LIMIT_MS`).
    pub fn with_key_refresh_ahead(mut self, clock: Box<dyn auth::MillisClock>) -> Self {
        self.key_cache.millis = Some(clock);
        self
    }

    /// How many kept keys are due for a re-read (the host's after-the-answer work).
    pub fn keys_to_refresh(&self) -> usize {
        self.key_cache.due_count()
    }

    /// Re-reads the keys due (after an answer, never before one): a key still
    /// good is kept from this read's issue on; a key revoked, unknown or whose
    /// tenant is suspended is dropped, so its next use is read and refused.
    /// A failed read leaves the entry to lapse at its hard limit. Answers the
    /// number of keys re-read.
    pub async fn refresh_keys(&self) -> usize {
        let due = self.key_cache.take_due();
        for hash in &due {
            let issued = self.key_cache.issue(self.key_cache.now_ms(self.clock.now()));
            match store::key_by_hash(self.store.as_ref(), hash).await {
                Ok(row) => {
                    let environment = row.as_ref().and_then(|row| row.environment);
                    match environment.map(|environment| caller_of(row, hash, environment)) {
                        Some(Ok(caller)) => self.key_cache.put(hash.clone(), &caller, issued),
                        _ => self.key_cache.forget(hash),
                    }
                }
                Err(_) => self.key_cache.undue(hash),
            }
        }
        due.len()
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

/// The caller a key's row makes, or why it is refused (with the tenant, when
/// the row names one).
fn caller_of(row: Option<store::KeyRow>, hash: &str, environment: auth::Environment) -> Result<Caller, (Option<String>, &'static str)> {
    let Some(row) = row else { return Err((None, "unknown_key")) };
    let tenant_id = row.tenant_id;
    if !auth::hashes_match(&row.key_hash, hash) || row.environment != Some(environment) {
        return Err((Some(tenant_id), "unknown_key"));
    }
    if row.revoked_at.is_some() {
        return Err((Some(tenant_id), "revoked_key"));
    }
    if row.suspended_at.is_some() {
        return Err((Some(tenant_id), "tenant_suspended"));
    }
    Ok(Caller {
        key_id: row.key_id,
        is_admin: row.is_admin,
        tenant_id,
        environment,
        rate_limit_per_minute: row.rate_limit_per_minute,
        clock_offset_seconds: row.clock_offset_seconds,
        jurisdiction: row.jurisdiction,
        person: None,
    })
}
