//! The persistence of `Idempotency-Key`s: a reservation, the answer stored
//! for replay, and the day they are kept. A key is the tenant's, the scope's
//! (the credential that sent it) and the key's text together.

use crate::ports::{Read, Row, Stmt, Store, StoreError};

/// A key as stored: the request it was first used with, and its answer once there is one.
pub struct StoredKey {
    pub fingerprint: String,
    pub status_code: Option<i64>,
    pub response: Option<String>,
    pub locked_until: i64,
}

/// Reserves a key until `locked_until`, as `lock`; a key already reserved loses on its primary key.
pub fn reserve(tenant_id: &str, scope: &str, key: &str, fingerprint: &str, locked_until: i64, now: i64, lock: &str) -> Stmt {
    Stmt::new(
        "INSERT INTO idempotency_keys (tenant_id, scope, idempotency_key, fingerprint, locked_until, created_at, lock_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        vec![tenant_id.into(), scope.into(), key.into(), fingerprint.into(), locked_until.into(), now.into(), lock.into()],
    )
}

const STORED_SQL: &str =
    "SELECT fingerprint, status_code, response, locked_until FROM idempotency_keys WHERE tenant_id = ?1 AND scope = ?2 AND idempotency_key = ?3";

pub async fn stored(store: &dyn Store, tenant_id: &str, scope: &str, key: &str) -> Result<Option<StoredKey>, StoreError> {
    let rows = store.query(STORED_SQL, vec![tenant_id.into(), scope.into(), key.into()]).await?;
    stored_from(&rows)
}

/// The read of a key, for one round trip with a route's other reads.
pub fn read_stored(tenant_id: &str, scope: &str, key: &str) -> Read {
    Read::new(STORED_SQL, vec![tenant_id.into(), scope.into(), key.into()])
}

pub fn stored_from(rows: &[Row]) -> Result<Option<StoredKey>, StoreError> {
    rows.first()
        .map(|r| Ok(StoredKey { fingerprint: r.text(0)?, status_code: r.opt_int(1)?, response: r.opt_text(2)?, locked_until: r.int(3)? }))
        .transpose()
}

/// Keeps an answer for a key in the batch that commits the answer's work,
/// reserved and completed at once. A key already kept, or reserved by a
/// request still running, makes the batch lose (nothing of it is written):
/// the route reads the key again and answers from it. A reservation whose
/// lock lapsed (its request died with its host) is taken over.
pub fn keep_completed(tenant_id: &str, scope: &str, key: &str, fingerprint: &str, status_code: i64, response: String, now: i64) -> Stmt {
    Stmt::expect_one(
        "INSERT INTO idempotency_keys (tenant_id, scope, idempotency_key, fingerprint, locked_until, created_at, status_code, response)
         VALUES (?1, ?2, ?3, ?4, ?5, ?5, ?6, ?7)
         ON CONFLICT (tenant_id, scope, idempotency_key) DO UPDATE SET status_code = excluded.status_code, response = excluded.response
         WHERE idempotency_keys.status_code IS NULL AND idempotency_keys.fingerprint = excluded.fingerprint AND idempotency_keys.locked_until <= excluded.locked_until",
        vec![tenant_id.into(), scope.into(), key.into(), fingerprint.into(), now.into(), status_code.into(), response.into()],
    )
}

/// Takes over a key whose lock lapsed (its request died with its host), as `lock`.
pub fn take_over(tenant_id: &str, scope: &str, key: &str, lapsed_lock: i64, locked_until: i64, lock: &str) -> Stmt {
    Stmt::expect_one(
        "UPDATE idempotency_keys SET locked_until = ?5, lock_id = ?6
         WHERE tenant_id = ?1 AND scope = ?2 AND idempotency_key = ?3 AND locked_until = ?4 AND status_code IS NULL",
        vec![tenant_id.into(), scope.into(), key.into(), lapsed_lock.into(), locked_until.into(), lock.into()],
    )
}

/// Keeps a success for replay, if the reservation that ran it (`lock`) still holds the key.
pub fn complete(tenant_id: &str, scope: &str, key: &str, lock: &str, status_code: i64, response: String) -> Stmt {
    Stmt::new(
        "UPDATE idempotency_keys SET status_code = ?5, response = ?6
         WHERE tenant_id = ?1 AND scope = ?2 AND idempotency_key = ?3 AND lock_id = ?4 AND status_code IS NULL",
        vec![tenant_id.into(), scope.into(), key.into(), lock.into(), status_code.into(), response.into()],
    )
}

/// Releases the reservation `lock` instead of keeping its answer, which
/// names `user_id`, if that player's erasure was asked since the key was
/// reserved, or up to `skew` seconds before (the two times come from hosts'
/// clocks): the erasure forgot the answers naming the player, and a request
/// that was still running must not write one back. A retry runs afresh,
/// under the erasure. An answer of a request made later is kept.
pub fn release_if_erased_since(tenant_id: &str, scope: &str, key: &str, lock: &str, user_id: &str, skew: i64) -> Stmt {
    Stmt::new(
        "DELETE FROM idempotency_keys
         WHERE tenant_id = ?1 AND scope = ?2 AND idempotency_key = ?3 AND lock_id = ?4 AND status_code IS NULL
           AND EXISTS (SELECT 1 FROM erasures e
                       WHERE e.tenant_id = ?1 AND e.external_user_id = ?5 AND e.created_at + ?6 >= idempotency_keys.created_at)",
        vec![tenant_id.into(), scope.into(), key.into(), lock.into(), user_id.into(), skew.into()],
    )
}

/// Releases a key after an error, so a corrected request can use it; only
/// the reservation `lock`, never a retry's that took the key over.
pub fn release(tenant_id: &str, scope: &str, key: &str, lock: &str) -> Stmt {
    Stmt::new(
        "DELETE FROM idempotency_keys WHERE tenant_id = ?1 AND scope = ?2 AND idempotency_key = ?3 AND lock_id = ?4 AND status_code IS NULL",
        vec![tenant_id.into(), scope.into(), key.into(), lock.into()],
    )
}
