//! The `Idempotency-Key` header on every POST (Stripe's convention): the
//! same key with the same request answers the original success with 200;
//! the same key with another request is 409 `idempotency_key_reused`; a key
//! whose first request is still running is 409 `idempotency_key_in_use`.
//! The key is reserved before the handler runs, so two concurrent retries
//! never both execute; an error answer releases it for a corrected retry.
//! Keys are kept a day. A key belongs to the credential that sent it (a
//! key's id, or a person's for their sessions): the same key from another
//! person or key of the tenant is a key of its own, run under its caller's
//! rights, never answered from another's request.
//!
//! A read-only check (`limits/check`) reserves nothing: its key is read in
//! the check's own read batch ([`Deferred`]), and only an answer that
//! commits work (a breach) keeps the key, in the batch that commits it.

mod store;

use sha2::{Digest, Sha256};

use crate::api::stored_answer;
use crate::error::{ApiError, ApiResult};
use crate::ports::{Read, Row, Stmt, StoreError};
use crate::{Caller, Gateway, Reply};

/// How long a running first request holds its key before a retry may take it over.
const LOCK_SECONDS: i64 = 60;
const MAX_KEY_LEN: usize = 255;

/// A reserved key, to complete or release once the handler has answered.
pub(crate) struct Reservation {
    tenant_id: String,
    scope: String,
    key: String,
    /// This reservation's id, set on the key's row: only it is completed or
    /// released, so a request that outlived its lock never touches a retry's.
    lock: String,
}

/// What the header asks for.
pub(crate) enum Outcome {
    /// run the handler, then call [`Gateway::complete_idempotency`]
    Run(Reservation),
    /// answer this stored reply
    Replay(Reply),
}

/// How many owed writes a host keeps; past it the oldest wait out their lock.
const MAX_OWED: usize = 10_000;
/// Owed writes go to the store in batches of at most this many statements
/// (a write's statements are never split)...
const OWED_STATEMENTS_PER_BATCH: usize = 128;
/// ...and at most this many statements a settling: the rest wait for the
/// next. An edge request may send at most 1,000 queries to D1, and may
/// settle twice (before its reservation, and at its flush).
const OWED_STATEMENTS_PER_SETTLING: usize = 256;

/// Keys' releases and answers the store could not take when the request
/// ended (it reported itself unreachable, as Postgres does in an outage:
/// often the request's own failure). Each is written again by this host's
/// next reservation or decision-log flush, so a client's retry after an
/// outage runs (or replays) once the store is back, rather than waiting out
/// the key's lock. Each names its reservation, so one written late changes
/// nothing another request holds. Kept in memory: a host that stops loses
/// them, and the locks lapse as before.
#[derive(Default)]
pub(crate) struct OwedKeys(std::sync::Mutex<std::collections::VecDeque<KeyWrite>>);

/// A key's release or answer: the statements that write it, always in one batch.
type KeyWrite = Vec<Stmt>;

impl OwedKeys {
    fn owe(&self, write: KeyWrite) {
        if let Ok(mut owed) = self.0.lock() {
            owed.push_back(write);
            trim(&mut owed);
        }
    }

    /// Puts back writes that failed again, ahead of those owed since.
    fn requeue(&self, failed: Vec<KeyWrite>) {
        if let Ok(mut owed) = self.0.lock() {
            for write in failed.into_iter().rev() {
                owed.push_front(write);
            }
            trim(&mut owed);
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.0.lock().map(|owed| owed.len()).unwrap_or_default()
    }

    fn take(&self) -> Vec<KeyWrite> {
        self.0.lock().map(|mut owed| owed.drain(..).collect()).unwrap_or_default()
    }
}

/// The oldest go first past [`MAX_OWED`].
fn trim(owed: &mut std::collections::VecDeque<KeyWrite>) {
    let excess = owed.len().saturating_sub(MAX_OWED);
    if excess > 0 {
        owed.drain(..excess);
        tracing::warn!(target: "idempotency", dropped = excess, "owed key writes dropped: their keys wait out their locks");
    }
}

/// The oldest owed writes, whole, up to `most` statements (one write at least).
fn next_batch(owed: &mut std::collections::VecDeque<KeyWrite>, most: usize) -> Vec<KeyWrite> {
    let mut batch = Vec::new();
    let mut statements = 0;
    while let Some(write) = owed.front() {
        if !batch.is_empty() && statements + write.len() > most {
            break;
        }
        statements += write.len();
        batch.extend(owed.pop_front());
    }
    batch
}

/// The players an answer names: every `"user_id"` in it, as the erasure
/// finds the answers it forgets ([`crate::erasure`]).
fn named_players(body: &str) -> Vec<String> {
    fn walk(value: &serde_json::Value, found: &mut Vec<String>) {
        match value {
            serde_json::Value::Object(fields) => {
                for (name, field) in fields {
                    match field {
                        serde_json::Value::String(id) if name == "user_id" => {
                            if !found.contains(id) {
                                found.push(id.clone());
                            }
                        }
                        other => walk(other, found),
                    }
                }
            }
            serde_json::Value::Array(items) => items.iter().for_each(|item| walk(item, found)),
            _ => {}
        }
    }
    let mut found = Vec::new();
    if !body.contains("\"user_id\"") {
        return found;
    }
    if let Ok(value) = serde_json::from_str::<serde_json::Value>(body) {
        walk(&value, &mut found);
    }
    found
}

/// A write the store may take later: it reported itself unreachable, or lost a race.
fn retriable(e: &StoreError) -> bool {
    matches!(e, StoreError::Unavailable(_) | StoreError::Conflict { .. })
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

/// The request's `Idempotency-Key`, if sent; 400 `invalid_idempotency_key` when malformed.
fn header_key(request: &http::Request<Vec<u8>>) -> ApiResult<Option<&str>> {
    let Some(raw) = request.headers().get("idempotency-key") else { return Ok(None) };
    raw.to_str()
        .ok()
        .map(str::trim)
        .filter(|k| !k.is_empty() && k.len() <= MAX_KEY_LEN && k.bytes().all(|b| b.is_ascii_graphic()))
        .map(Some)
        .ok_or_else(|| {
            ApiError::bad_request("invalid_idempotency_key", format!("Idempotency-Key must be 1 to {MAX_KEY_LEN} visible ASCII characters"))
        })
}

/// The key of a route that reserves it in its own batches: read with the
/// route's facts, kept only in the batch of an answer that commits work.
/// A read-only answer writes nothing, so a read-only check costs no trip
/// for its key; a committed answer is replayed and guarded as any other.
#[derive(Debug, Clone)]
pub(crate) struct Deferred {
    tenant_id: String,
    scope: String,
    key: String,
    fingerprint: String,
    now: i64,
}

impl Deferred {
    /// The read of the key, to go in the route's first read batch.
    pub(crate) fn read(&self) -> Read {
        store::read_stored(&self.tenant_id, &self.scope, &self.key)
    }

    /// What the key's rows say: `None` runs the route; a kept answer of the
    /// same request is replayed (200); another request's key is 409
    /// `idempotency_key_reused`; one still running is 409 `idempotency_key_in_use`.
    pub(crate) fn answer(&self, rows: &[Row]) -> ApiResult<Option<Reply>> {
        let Some(row) = store::stored_from(rows)? else { return Ok(None) };
        match judge(row, &self.fingerprint, self.now)? {
            Kept::Answer(reply) => Ok(Some(reply)),
            // a lapsed reservation of the same request: run, and take it over in the batch
            Kept::Lapsed(_) => Ok(None),
        }
    }

    /// Keeps `reply` for the key, in the batch that commits its work.
    pub(crate) fn keep(&self, reply: &Reply) -> Stmt {
        store::keep_completed(
            &self.tenant_id,
            &self.scope,
            &self.key,
            &self.fingerprint,
            i64::from(reply.status),
            reply.body.get().to_string(),
            self.now,
        )
    }
}

/// What a key's row says of a request with `print` at `now`.
enum Kept {
    /// the same request's kept answer, to replay
    Answer(Reply),
    /// the same request's reservation, lapsed at this time: the request may run again
    Lapsed(i64),
}

/// 409 for another request's key or one still running; else what the row keeps.
fn judge(row: store::StoredKey, print: &str, now: i64) -> ApiResult<Kept> {
    if row.fingerprint != print {
        return Err(reused());
    }
    if row.status_code.is_some() {
        return Ok(Kept::Answer(Reply { status: 200, body: stored_answer(&row.response.unwrap_or_default())?, decision_id: None }));
    }
    if row.locked_until > now {
        return Err(in_use(row.locked_until - now));
    }
    Ok(Kept::Lapsed(row.locked_until))
}

fn reused() -> ApiError {
    ApiError::conflict("idempotency_key_reused", "this Idempotency-Key was used for another request")
}

/// The most a 409 `idempotency_key_in_use` tells a client to wait: most
/// first requests answer within it, and a key an outage cut is released as
/// soon as its host can write again. The lock may last longer.
const IN_USE_RETRY_SECONDS: i64 = 1;

fn in_use(lock_left: i64) -> ApiError {
    let mut error = ApiError::conflict("idempotency_key_in_use", "a request with this Idempotency-Key is still running; retry shortly");
    error.retry_after_seconds = Some(u64::try_from(lock_left.clamp(1, IN_USE_RETRY_SECONDS)).unwrap_or(1));
    error
}

impl Gateway {
    /// The request's key for a route that reserves it in its own batches ([`Deferred`]).
    pub(crate) fn defer_idempotency(&self, caller: &Caller, request: &http::Request<Vec<u8>>) -> ApiResult<Option<Deferred>> {
        let Some(key) = header_key(request)? else { return Ok(None) };
        Ok(Some(Deferred {
            tenant_id: caller.tenant_id.clone(),
            scope: caller.key_id.clone(),
            key: key.to_string(),
            fingerprint: fingerprint(request.method(), request.uri(), request.body()),
            now: self.clock.now(),
        }))
    }

    /// Reserves the request's key, or answers from an earlier request with it.
    pub(crate) async fn reserve_idempotency(&self, caller: &Caller, request: &http::Request<Vec<u8>>) -> ApiResult<Option<Outcome>> {
        let (tenant_id, scope) = (caller.tenant_id.as_str(), caller.key_id.as_str());
        let Some(key) = header_key(request)? else { return Ok(None) };
        let print = fingerprint(request.method(), request.uri(), request.body());
        // this host's owed writes first: the key may be one this host still has to release
        if self.owed_keys.len() > 0 {
            let _ = self.settle_owed_keys().await;
        }
        let now = self.clock.now();
        let locked_until = now + LOCK_SECONDS;
        let lock = self.new_id("lck");
        let reservation = || Reservation { tenant_id: tenant_id.to_string(), scope: scope.to_string(), key: key.to_string(), lock: lock.clone() };
        until_committed!({
            match self.store.batch(vec![store::reserve(tenant_id, scope, key, &print, locked_until, now, &lock)]).await {
                Ok(()) => return Ok(Some(Some(Outcome::Run(reservation())))),
                Err(StoreError::Unique) => {}
                Err(e) => return Err(e.into()),
            }
            let Some(row) = store::stored(self.store.as_ref(), tenant_id, scope, key).await? else { return Ok(None) };
            let lapsed = match judge(row, &print, now)? {
                Kept::Answer(reply) => return Ok(Some(Some(Outcome::Replay(reply)))),
                Kept::Lapsed(lapsed) => lapsed,
            };
            if self.commit(vec![store::take_over(tenant_id, scope, key, lapsed, locked_until, &lock)]).await?.done() {
                return Ok(Some(Some(Outcome::Run(reservation()))));
            }
            Ok(None)
        })
    }

    /// Stores a success for replay, or releases the key after an error. A
    /// write the store cannot take now is owed ([`OwedKeys`]).
    pub(crate) async fn complete_idempotency(&self, reservation: Reservation, result: &ApiResult<Reply>) {
        let Reservation { tenant_id, scope, key, lock } = &reservation;
        let write = match result {
            Ok(reply) => {
                let body = reply.body.get();
                // an answer naming a player whose erasure was asked since the key was reserved is never kept
                // (the erasure forgot the answers it found; this one was not written yet): the key is released
                let mut write: KeyWrite = named_players(body)
                    .iter()
                    .map(|user_id| store::release_if_erased_since(tenant_id, scope, key, lock, user_id, LOCK_SECONDS))
                    .collect();
                write.push(store::complete(tenant_id, scope, key, lock, i64::from(reply.status), body.to_string()));
                write
            }
            Err(_) => vec![store::release(tenant_id, scope, key, lock)],
        };
        match self.store.batch(write.clone()).await {
            Err(e) if retriable(&e) => self.owed_keys.owe(write),
            // the key waits out its lock, as before
            Err(e) => tracing::warn!(target: "idempotency", error = %e, "a key's release or answer could not be written"),
            Ok(()) => {}
        }
    }

    /// Writes the keys' releases and answers owed since the store was last
    /// unreachable, a batch at a time; those it still cannot take stay owed,
    /// a batch the store refuses otherwise is dropped (logged). Answers how
    /// many were written.
    pub(crate) async fn settle_owed_keys(&self) -> Result<usize, StoreError> {
        let mut owed = std::collections::VecDeque::from(self.owed_keys.take());
        let mut batches = std::collections::VecDeque::from(settling(&mut owed));
        let mut written = 0;
        while let Some(batch) = batches.pop_front() {
            let count = batch.len();
            match self.store.batch(batch.iter().flatten().cloned().collect()).await {
                Ok(()) => written += count,
                Err(e) if retriable(&e) => {
                    self.owed_keys.requeue(batch.into_iter().chain(batches.into_iter().flatten()).chain(owed).collect());
                    return Err(e);
                }
                Err(e) => tracing::warn!(target: "idempotency", error = %e, dropped = count, "owed key writes refused by the store"),
            }
        }
        // past this settling's share: owed still, ahead of any owed since
        self.owed_keys.requeue(owed.into_iter().collect());
        Ok(written)
    }
}

/// The batches of one settling, oldest writes first: at most
/// [`OWED_STATEMENTS_PER_SETTLING`] statements in all (but one write at
/// least), [`OWED_STATEMENTS_PER_BATCH`] a batch. What is left stays in `owed`.
fn settling(owed: &mut std::collections::VecDeque<KeyWrite>) -> Vec<Vec<KeyWrite>> {
    let mut batches = Vec::new();
    let mut sent = 0;
    while let Some(first) = owed.front() {
        if sent > 0 && sent + first.len() > OWED_STATEMENTS_PER_SETTLING {
            break;
        }
        let batch = next_batch(owed, OWED_STATEMENTS_PER_SETTLING.saturating_sub(sent).min(OWED_STATEMENTS_PER_BATCH));
        sent += batch.iter().map(Vec::len).sum::<usize>();
        batches.push(batch);
    }
    batches
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(statements: usize) -> KeyWrite {
        (0..statements).map(|_| store::release("tenant", "scope", "key", "lock")).collect()
    }

    #[test]
    fn owed_batches_keep_each_write_whole_and_take_the_oldest_first() {
        // 200 answers of two statements: 64 to a batch of 128 statements
        let mut owed: std::collections::VecDeque<KeyWrite> = (0..200).map(|_| write(2)).collect();
        let first = next_batch(&mut owed, OWED_STATEMENTS_PER_BATCH);
        assert_eq!((first.len(), first.iter().map(Vec::len).sum::<usize>()), (64, 128));
        assert_eq!(owed.len(), 136);
        // a write larger than a batch still goes, alone
        let mut owed: std::collections::VecDeque<KeyWrite> = vec![write(1), write(300), write(1)].into();
        let mut next = || next_batch(&mut owed, OWED_STATEMENTS_PER_BATCH).iter().map(Vec::len).collect::<Vec<_>>();
        assert_eq!((next(), next(), next(), next()), (vec![1], vec![300], vec![1], vec![]));
    }

    #[test]
    fn a_settling_sends_its_share_and_leaves_the_rest_owed_in_order() {
        let mut owed: std::collections::VecDeque<KeyWrite> = (0..200).map(|i| write(1 + i % 2)).collect();
        let batches = settling(&mut owed);
        let statements: Vec<usize> = batches.iter().map(|b| b.iter().map(Vec::len).sum()).collect();
        assert!(statements.iter().all(|&n| n <= OWED_STATEMENTS_PER_BATCH), "{statements:?}");
        let sent: usize = statements.iter().sum();
        assert!(sent <= OWED_STATEMENTS_PER_SETTLING && sent > OWED_STATEMENTS_PER_SETTLING - 2, "{sent}");
        // every write once, the oldest sent, the rest left in order
        let sent_writes: usize = batches.iter().map(Vec::len).sum();
        assert_eq!(sent_writes + owed.len(), 200);
        assert_eq!(owed.front().map(Vec::len), Some(1 + sent_writes % 2));
        // one write larger than the share still goes, alone
        let mut owed: std::collections::VecDeque<KeyWrite> = vec![write(400), write(1)].into();
        assert_eq!(settling(&mut owed).len(), 1);
        assert_eq!(owed.len(), 1);
    }

    #[test]
    fn only_an_answer_with_a_user_id_names_players() {
        let mut named = named_players(r#"{"user_id":"p1","case":{"user_id":"p2"},"items":[{"user_id":"p1"}]}"#);
        named.sort();
        assert_eq!(named, vec!["p1", "p2"]);
        assert!(named_players(r#"{"from_user_id":"p1","user_email":"a@b"}"#).is_empty());
        assert!(named_players(r#"{"user_id":7}"#).is_empty());
    }
}
