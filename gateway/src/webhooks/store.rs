//! The webhooks area's persistence: endpoints, the outbox, deliveries and
//! their attempts. Every SQL statement of the area is here, behind typed
//! operations; rows come back as structs and statuses as enums.

use crate::auth::Environment;
use crate::ports::{Row, Stmt, Store, StoreError, Value};

/// Where a delivery stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DeliveryStatus {
    Pending,
    Succeeded,
    Failed,
    Abandoned,
}

impl DeliveryStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            DeliveryStatus::Pending => "pending",
            DeliveryStatus::Succeeded => "succeeded",
            DeliveryStatus::Failed => "failed",
            DeliveryStatus::Abandoned => "abandoned",
        }
    }

    pub fn parse(text: &str) -> Option<DeliveryStatus> {
        [DeliveryStatus::Pending, DeliveryStatus::Succeeded, DeliveryStatus::Failed, DeliveryStatus::Abandoned]
            .into_iter()
            .find(|s| s.as_str() == text)
    }
}

fn status_of(row: &Row, i: usize) -> Result<DeliveryStatus, StoreError> {
    let text = row.text(i)?;
    DeliveryStatus::parse(&text).ok_or_else(|| StoreError::Backend(format!("unknown delivery status {text}")))
}

/// An endpoint as its tenant lists it.
pub struct Endpoint {
    pub webhook_id: String,
    pub url: String,
    pub disabled_at: Option<i64>,
    pub disabled_reason: Option<String>,
    pub created_at: i64,
}

/// A delivery as the delivery log shows it.
pub struct DeliveryRow {
    pub delivery_id: String,
    pub event_id: String,
    pub event: String,
    pub status: DeliveryStatus,
    pub attempts: i64,
    pub next_attempt_at: i64,
    pub last_status: Option<i64>,
    pub last_error: Option<String>,
    pub created_at: i64,
}

/// One attempt of a delivery.
pub struct AttemptRow {
    pub attempted_at: i64,
    pub status_code: Option<i64>,
    pub error: Option<String>,
}

/// A delivery that is due, with what sending it needs.
pub struct DueRow {
    pub delivery_id: String,
    pub event_id: String,
    pub attempts: i64,
    pub created_at: i64,
    pub webhook_id: String,
    pub url: String,
    pub secret: String,
    pub previous_secret: Option<String>,
    pub previous_secret_expires_at: Option<i64>,
    pub envelope: String,
    pub environment: Option<Environment>,
    /// the trace of the request that fired the event
    pub traceparent: Option<String>,
}

/// An event not yet fanned out to its endpoints.
pub struct NewEvent {
    pub event_id: String,
    pub environment: String,
    /// `None` fans out to every tenant of the environment
    pub tenant_id: Option<String>,
}

/// A stored signing secret and the one it replaced.
pub struct StoredSecrets {
    pub webhook_id: String,
    pub secret: String,
    pub previous_secret: Option<String>,
}

/// The outbox row of an event, for the batch of the change that fires it.
pub fn insert_event(
    event_id: &str,
    environment: Environment,
    tenant_id: Option<&str>,
    event: &str,
    envelope: String,
    now: i64,
    traceparent: Option<&str>,
) -> Stmt {
    Stmt::new(
        "INSERT INTO outbox (event_id, environment, tenant_id, event, envelope, created_at, traceparent) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        vec![
            event_id.into(),
            environment.as_str().into(),
            Value::from(tenant_id),
            event.into(),
            envelope.into(),
            now.into(),
            Value::from(traceparent),
        ],
    )
}

/// Whether a batch writes an event (and so should wake the delivery).
pub fn writes_event(statement: &Stmt) -> bool {
    statement.sql.starts_with("INSERT INTO outbox")
}

/// Registers an endpoint unless the tenant has `cap` already. The tenant's
/// row is locked first, so that concurrent registrations of one tenant count
/// one after another; a batch that would pass the cap affects no row.
pub fn register(webhook_id: &str, tenant_id: &str, url: &str, sealed_secret: String, now: i64, cap: i64) -> Vec<Stmt> {
    vec![
        Stmt::expect_one("UPDATE tenants SET name = name WHERE tenant_id = ?1", vec![tenant_id.into()]),
        Stmt::expect_one(
            "INSERT INTO webhooks (webhook_id, tenant_id, url, secret, created_at)
             SELECT CAST(?1 AS TEXT), CAST(?2 AS TEXT), CAST(?3 AS TEXT), CAST(?4 AS TEXT), CAST(?5 AS BIGINT)
             WHERE (SELECT COUNT(*) FROM webhooks WHERE tenant_id = ?2 AND deleted_at IS NULL) < ?6",
            vec![webhook_id.into(), tenant_id.into(), url.into(), sealed_secret.into(), now.into(), cap.into()],
        ),
    ]
}

pub async fn endpoints(store: &dyn Store, tenant_id: &str) -> Result<Vec<Endpoint>, StoreError> {
    let rows = store
        .query(
            "SELECT webhook_id, url, disabled_at, disabled_reason, created_at FROM webhooks
             WHERE tenant_id = ?1 AND deleted_at IS NULL ORDER BY created_at, webhook_id",
            vec![tenant_id.into()],
        )
        .await?;
    rows.iter()
        .map(|r| {
            Ok(Endpoint {
                webhook_id: r.text(0)?,
                url: r.text(1)?,
                disabled_at: r.opt_int(2)?,
                disabled_reason: r.opt_text(3)?,
                created_at: r.int(4)?,
            })
        })
        .collect()
}

/// The stored (sealed) secret of a tenant's endpoint; `None` when it has no such endpoint.
pub async fn stored_secret(store: &dyn Store, tenant_id: &str, webhook_id: &str) -> Result<Option<String>, StoreError> {
    let rows = store
        .query(
            "SELECT secret FROM webhooks WHERE webhook_id = ?1 AND tenant_id = ?2 AND deleted_at IS NULL",
            vec![webhook_id.into(), tenant_id.into()],
        )
        .await?;
    rows.first().map(|r| r.text(0)).transpose()
}

/// Removes an endpoint and abandons its pending deliveries.
pub fn delete(webhook_id: &str, now: i64) -> Vec<Stmt> {
    vec![
        Stmt::new("UPDATE webhooks SET deleted_at = ?2 WHERE webhook_id = ?1", vec![webhook_id.into(), now.into()]),
        Stmt::new(
            "UPDATE webhook_deliveries SET status = ?3, last_error = 'endpoint removed' WHERE webhook_id = ?1 AND status = ?2",
            vec![webhook_id.into(), DeliveryStatus::Pending.as_str().into(), DeliveryStatus::Abandoned.as_str().into()],
        ),
    ]
}

/// Replaces the secret `old` (still stored) by `new`; `old` signs beside it until `overlap_until`.
pub fn rotate(webhook_id: &str, old: &str, new: String, overlap_until: i64) -> Stmt {
    Stmt::expect_one(
        "UPDATE webhooks SET secret = ?2, previous_secret = ?3, previous_secret_expires_at = ?4 WHERE webhook_id = ?1 AND secret = ?3",
        vec![webhook_id.into(), new.into(), old.into(), overlap_until.into()],
    )
}

pub fn enable(webhook_id: &str) -> Stmt {
    Stmt::new("UPDATE webhooks SET disabled_at = NULL, disabled_reason = NULL WHERE webhook_id = ?1", vec![webhook_id.into()])
}

/// The newest `limit` deliveries of an endpoint, of one kind of event when `event` is not empty.
pub async fn deliveries(store: &dyn Store, webhook_id: &str, event: &str, limit: i64) -> Result<Vec<DeliveryRow>, StoreError> {
    let rows = store
        .query(
            "SELECT d.delivery_id, d.event_id, o.event, d.status, d.attempts, d.next_attempt_at, d.last_status, d.last_error, d.created_at
             FROM webhook_deliveries d JOIN outbox o ON o.event_id = d.event_id
             WHERE d.webhook_id = ?1 AND (?2 = '' OR o.event = ?2) ORDER BY d.created_at DESC, d.delivery_id LIMIT ?3",
            vec![webhook_id.into(), event.into(), limit.into()],
        )
        .await?;
    rows.iter()
        .map(|r| {
            Ok(DeliveryRow {
                delivery_id: r.text(0)?,
                event_id: r.text(1)?,
                event: r.text(2)?,
                status: status_of(r, 3)?,
                attempts: r.int(4)?,
                next_attempt_at: r.int(5)?,
                last_status: r.opt_int(6)?,
                last_error: r.opt_text(7)?,
                created_at: r.int(8)?,
            })
        })
        .collect()
}

pub async fn attempts(store: &dyn Store, delivery_id: &str) -> Result<Vec<AttemptRow>, StoreError> {
    let rows = store
        .query(
            "SELECT attempted_at, status_code, error FROM webhook_attempts WHERE delivery_id = ?1 ORDER BY attempted_at, attempt_id",
            vec![delivery_id.into()],
        )
        .await?;
    rows.iter().map(|r| Ok(AttemptRow { attempted_at: r.int(0)?, status_code: r.opt_int(1)?, error: r.opt_text(2)? })).collect()
}

/// Whether a delivery belongs to a live endpoint of the tenant.
pub async fn tenant_owns_delivery(store: &dyn Store, tenant_id: &str, delivery_id: &str) -> Result<bool, StoreError> {
    let rows = store
        .query(
            "SELECT d.webhook_id FROM webhook_deliveries d JOIN webhooks w ON w.webhook_id = d.webhook_id
             WHERE d.delivery_id = ?1 AND w.tenant_id = ?2 AND w.deleted_at IS NULL",
            vec![delivery_id.into(), tenant_id.into()],
        )
        .await?;
    Ok(!rows.is_empty())
}

/// Sends a delivery again at `now`, whatever became of it.
pub fn redeliver(delivery_id: &str, now: i64) -> Stmt {
    Stmt::new(
        "UPDATE webhook_deliveries SET status = ?3, next_attempt_at = ?2, created_at = ?2 WHERE delivery_id = ?1",
        vec![delivery_id.into(), now.into(), DeliveryStatus::Pending.as_str().into()],
    )
}

/// Events not yet fanned out, oldest first.
pub async fn new_events(store: &dyn Store, limit: i64) -> Result<Vec<NewEvent>, StoreError> {
    let rows = store
        .query("SELECT event_id, environment, tenant_id FROM outbox WHERE dispatched = 0 ORDER BY created_at, event_id LIMIT ?1", vec![limit.into()])
        .await?;
    rows.iter().map(|r| Ok(NewEvent { event_id: r.text(0)?, environment: r.text(1)?, tenant_id: r.opt_text(2)? })).collect()
}

/// One delivery per endpoint that should hear the event, and the event marked as fanned out.
pub fn fan_out(event: &NewEvent, now: i64) -> Vec<Stmt> {
    vec![
        Stmt::new(
            "INSERT INTO webhook_deliveries (delivery_id, event_id, webhook_id, tenant_id, status, attempts, next_attempt_at, created_at)
             SELECT CAST(?1 AS TEXT) || ':' || w.webhook_id, CAST(?1 AS TEXT), w.webhook_id, w.tenant_id, CAST(?5 AS TEXT), 0, CAST(?4 AS BIGINT), CAST(?4 AS BIGINT)
             FROM webhooks w JOIN tenants t ON t.tenant_id = w.tenant_id
             WHERE w.deleted_at IS NULL AND w.disabled_at IS NULL AND t.environment = ?2 AND (?3 = '' OR w.tenant_id = ?3)
             ON CONFLICT (delivery_id) DO NOTHING",
            vec![
                event.event_id.as_str().into(),
                event.environment.as_str().into(),
                event.tenant_id.clone().unwrap_or_default().into(),
                now.into(),
                DeliveryStatus::Pending.as_str().into(),
            ],
        ),
        Stmt::new("UPDATE outbox SET dispatched = 1 WHERE event_id = ?1", vec![event.event_id.as_str().into()]),
    ]
}

/// The pending deliveries due at `now`, at most `limit`, whose secret is
/// sealed under one of `key_ids` (space-separated) or not sealed at all.
pub async fn due(store: &dyn Store, now: i64, limit: i64, key_ids: &str) -> Result<Vec<DueRow>, StoreError> {
    let rows = store
        .query(
            "SELECT d.delivery_id, d.event_id, d.attempts, d.created_at, w.webhook_id, w.url, w.secret, w.previous_secret,
                    w.previous_secret_expires_at, o.envelope, t.environment, o.traceparent
             FROM webhook_deliveries d JOIN webhooks w ON w.webhook_id = d.webhook_id JOIN outbox o ON o.event_id = d.event_id
             JOIN tenants t ON t.tenant_id = w.tenant_id
             WHERE d.status = ?4 AND d.next_attempt_at <= ?1 AND w.disabled_at IS NULL AND w.deleted_at IS NULL
               AND (w.secret NOT LIKE 'sealed:v1:%' OR ?3 LIKE '%' || substr(w.secret, 11, 8) || '%')
             ORDER BY d.next_attempt_at, d.delivery_id LIMIT ?2",
            vec![now.into(), limit.into(), key_ids.into(), DeliveryStatus::Pending.as_str().into()],
        )
        .await?;
    rows.iter()
        .map(|r| {
            Ok(DueRow {
                delivery_id: r.text(0)?,
                event_id: r.text(1)?,
                attempts: r.int(2)?,
                created_at: r.int(3)?,
                webhook_id: r.text(4)?,
                url: r.text(5)?,
                secret: r.text(6)?,
                previous_secret: r.opt_text(7)?,
                previous_secret_expires_at: r.opt_int(8)?,
                envelope: r.text(9)?,
                environment: Environment::parse(&r.text(10)?),
                traceparent: r.opt_text(11)?,
            })
        })
        .collect()
}

/// Claims a due delivery for one attempt: a lease until `lease_until`, won by one host.
pub fn claim(delivery_id: &str, attempts: i64, lease_until: i64) -> Stmt {
    Stmt::expect_one(
        "UPDATE webhook_deliveries SET attempts = attempts + 1, next_attempt_at = ?3 WHERE delivery_id = ?1 AND attempts = ?2 AND status = ?4",
        vec![delivery_id.into(), attempts.into(), lease_until.into(), DeliveryStatus::Pending.as_str().into()],
    )
}

pub fn insert_attempt(attempt_id: &str, delivery_id: &str, now: i64, status_code: Option<i64>, error: Option<String>) -> Stmt {
    Stmt::new(
        "INSERT INTO webhook_attempts (attempt_id, delivery_id, attempted_at, status_code, error) VALUES (?1, ?2, ?3, ?4, ?5)",
        vec![attempt_id.into(), delivery_id.into(), now.into(), Value::from(status_code), Value::from(error)],
    )
}

/// A delivery that ends: succeeded or failed for good.
pub fn finish(delivery_id: &str, status: DeliveryStatus, now: i64, status_code: Option<i64>, error: Option<String>) -> Stmt {
    Stmt::new(
        "UPDATE webhook_deliveries SET status = ?5, last_attempt_at = ?2, last_status = ?3, last_error = ?4 WHERE delivery_id = ?1",
        vec![delivery_id.into(), now.into(), Value::from(status_code), Value::from(error), status.as_str().into()],
    )
}

/// A delivery to be tried again at `next`.
pub fn retry_at(delivery_id: &str, next: i64, now: i64, status_code: Option<i64>, error: String) -> Stmt {
    Stmt::new(
        "UPDATE webhook_deliveries SET next_attempt_at = ?2, last_attempt_at = ?3, last_status = ?4, last_error = ?5 WHERE delivery_id = ?1",
        vec![delivery_id.into(), next.into(), now.into(), Value::from(status_code), error.into()],
    )
}

/// An endpoint that answered 410 Gone: disabled, and its pending deliveries
/// abandoned. The endpoint row comes first in the batch, so concurrent
/// recorders for the same endpoint queue up instead of deadlocking.
pub fn disable_gone(webhook_id: &str, now: i64) -> (Stmt, Stmt) {
    (
        Stmt::new(
            "UPDATE webhooks SET disabled_at = ?2, disabled_reason = 'endpoint answered 410 Gone' WHERE webhook_id = ?1",
            vec![webhook_id.into(), now.into()],
        ),
        Stmt::new(
            "UPDATE webhook_deliveries SET status = ?3, last_error = 'endpoint disabled after 410 Gone' WHERE webhook_id = ?1 AND status = ?2",
            vec![webhook_id.into(), DeliveryStatus::Pending.as_str().into(), DeliveryStatus::Abandoned.as_str().into()],
        ),
    )
}

/// When the next pending delivery is due.
pub async fn next_due_at(store: &dyn Store) -> Result<Option<i64>, StoreError> {
    let rows =
        store.query("SELECT MIN(next_attempt_at) FROM webhook_deliveries WHERE status = ?1", vec![DeliveryStatus::Pending.as_str().into()]).await?;
    rows.first().map(|r| r.opt_int(0)).transpose().map(Option::flatten)
}

/// Every endpoint's stored secrets, for a reseal.
pub async fn all_secrets(store: &dyn Store) -> Result<Vec<StoredSecrets>, StoreError> {
    let rows = store.query("SELECT webhook_id, secret, previous_secret FROM webhooks", vec![]).await?;
    rows.iter().map(|r| Ok(StoredSecrets { webhook_id: r.text(0)?, secret: r.text(1)?, previous_secret: r.opt_text(2)? })).collect()
}

/// Replaces a stored secret (current or previous) that is still `stored`.
pub fn reseal(webhook_id: &str, previous: bool, stored: String, sealed: String) -> Stmt {
    let sql = if previous {
        "UPDATE webhooks SET previous_secret = ?3 WHERE webhook_id = ?1 AND previous_secret = ?2"
    } else {
        "UPDATE webhooks SET secret = ?3 WHERE webhook_id = ?1 AND secret = ?2"
    };
    Stmt::expect_one(sql, vec![webhook_id.into(), stored.into(), sealed.into()])
}

/// How many pending deliveries are due at `now`: the delivery backlog.
pub async fn backlog(store: &dyn Store, now: i64) -> Result<i64, StoreError> {
    store
        .scalar(
            "SELECT COUNT(*) FROM webhook_deliveries WHERE status = ?1 AND next_attempt_at <= ?2",
            vec![DeliveryStatus::Pending.as_str().into(), now.into()],
        )
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_read_back() {
        for s in [DeliveryStatus::Pending, DeliveryStatus::Succeeded, DeliveryStatus::Failed, DeliveryStatus::Abandoned] {
            assert_eq!(DeliveryStatus::parse(s.as_str()), Some(s));
        }
        assert_eq!(DeliveryStatus::parse("delivered"), None);
    }
}
