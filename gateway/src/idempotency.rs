//! The `Idempotency-Key` header on every POST (Stripe's convention): the
//! same key with the same request answers the original success with 200;
//! the same key with another request is 409 `idempotency_key_reused`; a key
//! whose first request is still running is 409 `idempotency_key_in_use`.
//! The key is reserved before the handler runs, so two concurrent retries
//! never both execute; an error answer releases it for a corrected retry.
//! Keys are kept a day.

use serde_json::Value as Json;
use sha2::{Digest, Sha256};

use crate::api::stored_json;
use crate::error::{ApiError, ApiResult};
use crate::ports::{Stmt, StoreError};
use crate::{time, Gateway, Reply};

/// How long a running first request holds its key before a retry may take it over.
const LOCK_SECONDS: i64 = 60;
const MAX_KEY_LEN: usize = 255;

/// A reserved key, to complete or release once the handler has answered.
pub(crate) struct Reservation {
    tenant_id: String,
    key: String,
}

/// What the header asks for.
pub(crate) enum Outcome {
    /// run the handler, then call [`Gateway::complete_idempotency`]
    Run(Reservation),
    /// answer this stored reply
    Replay(Reply),
}

fn fingerprint(method: &http::Method, uri: &http::Uri, body: &[u8]) -> String {
    let mut hash = Sha256::new();
    hash.update(method.as_str().as_bytes());
    hash.update(b" ");
    hash.update(uri.path().as_bytes());
    hash.update(b"?");
    hash.update(uri.query().unwrap_or("").as_bytes());
    hash.update(b"\n");
    hash.update(body);
    hex::encode(hash.finalize())
}

impl Gateway {
    /// Reserves the request's key, or answers from an earlier request with it.
    pub(crate) async fn reserve_idempotency(&self, tenant_id: &str, request: &http::Request<Vec<u8>>) -> ApiResult<Option<Outcome>> {
        let Some(raw) = request.headers().get("idempotency-key") else { return Ok(None) };
        let key = raw
            .to_str()
            .ok()
            .map(str::trim)
            .filter(|k| !k.is_empty() && k.len() <= MAX_KEY_LEN && k.bytes().all(|b| b.is_ascii_graphic()))
            .ok_or_else(|| {
                ApiError::bad_request("invalid_idempotency_key", format!("Idempotency-Key must be 1 to {MAX_KEY_LEN} visible ASCII characters"))
            })?;
        let print = fingerprint(request.method(), request.uri(), request.body());
        let now = self.clock.now();
        until_committed!({
            let insert = Stmt::new(
                "INSERT INTO idempotency_keys (tenant_id, idempotency_key, fingerprint, locked_until, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
                vec![tenant_id.into(), key.into(), print.as_str().into(), (now + LOCK_SECONDS).into(), now.into()],
            );
            match self.store.batch(vec![insert]).await {
                Ok(()) => return Ok(Some(Some(Outcome::Run(Reservation { tenant_id: tenant_id.to_string(), key: key.to_string() })))),
                Err(StoreError::Unique) => {}
                Err(e) => return Err(e.into()),
            }
            let rows = self
                .store
                .query(
                    "SELECT fingerprint, status_code, response, locked_until FROM idempotency_keys WHERE tenant_id = ?1 AND idempotency_key = ?2",
                    vec![tenant_id.into(), key.into()],
                )
                .await?;
            let Some(row) = rows.first() else { return Ok(None) };
            if row.text(0)? != print {
                return Err(ApiError::conflict("idempotency_key_reused", "this Idempotency-Key was used for another request"));
            }
            if row.opt_int(1)?.is_some() {
                let body: Json = stored_json(&row.opt_text(2)?.unwrap_or_default())?;
                return Ok(Some(Some(Outcome::Replay(Reply::ok(body)))));
            }
            let locked_until = row.int(3)?;
            if locked_until > now {
                let mut error = ApiError::conflict("idempotency_key_in_use", "a request with this Idempotency-Key is still running; retry shortly");
                error.retry_after_seconds = Some(u64::try_from(locked_until - now).unwrap_or(1));
                return Err(error);
            }
            let take_over = Stmt::expect_one(
                "UPDATE idempotency_keys SET locked_until = ?4 WHERE tenant_id = ?1 AND idempotency_key = ?2 AND locked_until = ?3 AND status_code IS NULL",
                vec![tenant_id.into(), key.into(), locked_until.into(), (now + LOCK_SECONDS).into()],
            );
            if self.commit(vec![take_over]).await? {
                return Ok(Some(Some(Outcome::Run(Reservation { tenant_id: tenant_id.to_string(), key: key.to_string() }))));
            }
            Ok(None)
        })
    }

    /// Stores a success for replay, or releases the key after an error.
    pub(crate) async fn complete_idempotency(&self, reservation: Reservation, result: &ApiResult<Reply>) {
        let keys = vec![reservation.tenant_id.as_str().into(), reservation.key.as_str().into()];
        let statement = match result {
            Ok(reply) => {
                let mut params = keys;
                params.push(i64::from(reply.status).into());
                params.push(reply.body.to_string().into());
                Stmt::new("UPDATE idempotency_keys SET status_code = ?3, response = ?4 WHERE tenant_id = ?1 AND idempotency_key = ?2", params)
            }
            Err(_) => Stmt::new("DELETE FROM idempotency_keys WHERE tenant_id = ?1 AND idempotency_key = ?2 AND status_code IS NULL", keys),
        };
        // A failure here leaves the key locked until LOCK_SECONDS pass; a retry then runs again.
        let _ = self.store.batch(vec![statement]).await;
    }

    /// Forgets keys older than a day; a scheduled job.
    pub(crate) async fn prune_idempotency_keys(&self, now: i64) -> Result<(), StoreError> {
        let cutoff = now.saturating_sub(time::SECONDS_PER_DAY);
        self.store.batch(vec![Stmt::new("DELETE FROM idempotency_keys WHERE created_at < ?1", vec![cutoff.into()])]).await
    }
}
