//! The retention sweep's persistence: for each table, a bounded count of its
//! expired rows and a delete of at most a batch of them, by key.

use crate::ports::{Read, Stmt, Value};
use crate::webhooks::store::DeliveryStatus;

use super::Cutoffs;

/// One table's probe and delete.
pub struct Prune {
    pub table: &'static str,
    /// expired rows, counted up to a batch and one
    pub probe: Read,
    /// at most a batch of them deleted
    pub delete: Stmt,
}

fn prune(table: &'static str, probe: &'static str, delete: &'static str, params: impl Fn(i64) -> Vec<Value>, batch: i64) -> Prune {
    Prune { table, probe: Read::new(probe, params(batch.saturating_add(1))), delete: Stmt::new(delete, params(batch)) }
}

/// Every table's prune at these cutoffs; ?1 is the cutoff and ?2 the limit.
pub fn prunes(c: &Cutoffs, batch: i64) -> Vec<Prune> {
    let at = |cutoff: i64| move |limit: i64| vec![Value::from(cutoff), Value::from(limit)];
    let decision_floor = crate::decisions::id_floor(c.decisions);
    vec![
        prune(
            "outbox",
            "SELECT COUNT(*) FROM (SELECT 1 FROM outbox WHERE dispatched = 1 AND created_at < ?1 LIMIT ?2) AS expired",
            "DELETE FROM outbox WHERE event_id IN (SELECT event_id FROM outbox WHERE dispatched = 1 AND created_at < ?1 LIMIT ?2)",
            at(c.webhooks),
            batch,
        ),
        prune(
            "webhook_deliveries",
            "SELECT COUNT(*) FROM (SELECT 1 FROM webhook_deliveries WHERE created_at < ?1 AND status <> ?3 LIMIT ?2) AS expired",
            "DELETE FROM webhook_deliveries WHERE delivery_id IN
               (SELECT delivery_id FROM webhook_deliveries WHERE created_at < ?1 AND status <> ?3 LIMIT ?2)",
            |limit| vec![c.webhooks.into(), limit.into(), DeliveryStatus::Pending.as_str().into()],
            batch,
        ),
        prune(
            "webhook_attempts",
            "SELECT COUNT(*) FROM (SELECT 1 FROM webhook_attempts WHERE attempted_at < ?1 LIMIT ?2) AS expired",
            "DELETE FROM webhook_attempts WHERE attempt_id IN (SELECT attempt_id FROM webhook_attempts WHERE attempted_at < ?1 LIMIT ?2)",
            at(c.webhooks),
            batch,
        ),
        prune(
            "deposits",
            "SELECT COUNT(*) FROM (SELECT 1 FROM deposits WHERE at < ?1 LIMIT ?2) AS expired",
            "DELETE FROM deposits WHERE (tenant_id, transaction_id) IN (SELECT tenant_id, transaction_id FROM deposits WHERE at < ?1 LIMIT ?2)",
            at(c.deposits),
            batch,
        ),
        prune(
            "deposit_hours",
            "SELECT COUNT(*) FROM (SELECT 1 FROM deposit_hours WHERE hour < ?1 LIMIT ?2) AS expired",
            "DELETE FROM deposit_hours WHERE (tenant_id, external_user_id, hour) IN
               (SELECT tenant_id, external_user_id, hour FROM deposit_hours WHERE hour < ?1 LIMIT ?2)",
            at(c.deposits.div_euclid(3_600)),
            batch,
        ),
        prune(
            "audit_log",
            "SELECT COUNT(*) FROM (SELECT 1 FROM audit_log WHERE at < ?1 LIMIT ?2) AS expired",
            "DELETE FROM audit_log WHERE audit_id IN (SELECT audit_id FROM audit_log WHERE at < ?1 LIMIT ?2)",
            at(c.audit),
            batch,
        ),
        prune(
            "auth_failure_counts",
            "SELECT COUNT(*) FROM (SELECT 1 FROM auth_failure_counts WHERE minute < ?1 LIMIT ?2) AS expired",
            "DELETE FROM auth_failure_counts WHERE (minute, source, reason) IN
               (SELECT minute, source, reason FROM auth_failure_counts WHERE minute < ?1 LIMIT ?2)",
            at(c.audit.div_euclid(60)),
            batch,
        ),
        prune(
            "decisions",
            "SELECT COUNT(*) FROM (SELECT 1 FROM decisions WHERE decision_id < ?1 LIMIT ?2) AS expired",
            "DELETE FROM decisions WHERE decision_id IN (SELECT decision_id FROM decisions WHERE decision_id < ?1 LIMIT ?2)",
            |limit| vec![decision_floor.as_str().into(), limit.into()],
            batch,
        ),
        prune(
            "decision_pages",
            "SELECT COUNT(*) FROM (SELECT 1 FROM decision_pages WHERE decided_to < ?1 LIMIT ?2) AS expired",
            "DELETE FROM decision_pages WHERE page_id IN (SELECT page_id FROM decision_pages WHERE decided_to < ?1 LIMIT ?2)",
            at(c.decisions),
            batch,
        ),
        prune(
            "idempotency_keys",
            "SELECT COUNT(*) FROM (SELECT 1 FROM idempotency_keys WHERE created_at < ?1 LIMIT ?2) AS expired",
            "DELETE FROM idempotency_keys WHERE (tenant_id, idempotency_key) IN
               (SELECT tenant_id, idempotency_key FROM idempotency_keys WHERE created_at < ?1 LIMIT ?2)",
            at(c.idempotency),
            batch,
        ),
        prune(
            "rate_windows",
            "SELECT COUNT(*) FROM (SELECT 1 FROM rate_windows WHERE window_start < ?1 LIMIT ?2) AS expired",
            "DELETE FROM rate_windows WHERE (key_id, window_start) IN (SELECT key_id, window_start FROM rate_windows WHERE window_start < ?1 LIMIT ?2)",
            at(c.rate_windows),
            batch,
        ),
        prune(
            "console_sessions",
            "SELECT COUNT(*) FROM (SELECT 1 FROM console_sessions WHERE last_seen_at < ?1 LIMIT ?2) AS expired",
            "DELETE FROM console_sessions WHERE session_hash IN (SELECT session_hash FROM console_sessions WHERE last_seen_at < ?1 LIMIT ?2)",
            at(c.sessions),
            batch,
        ),
        prune(
            "sanctions_import_chunks",
            "SELECT COUNT(*) FROM (SELECT 1 FROM sanctions_import_chunks c WHERE NOT EXISTS
               (SELECT 1 FROM sanctions_lists l WHERE l.list_id = c.list_id AND (l.status = ?3 OR l.imported_at >= ?1)) LIMIT ?2) AS expired",
            "DELETE FROM sanctions_import_chunks WHERE (list_id, chunk_no) IN
               (SELECT c.list_id, c.chunk_no FROM sanctions_import_chunks c WHERE NOT EXISTS
                  (SELECT 1 FROM sanctions_lists l WHERE l.list_id = c.list_id AND (l.status = ?3 OR l.imported_at >= ?1)) LIMIT ?2)",
            |limit| vec![c.staged_chunks.into(), limit.into(), crate::lists::store::ListStatus::Staging.as_str().into()],
            batch,
        ),
        prune(
            "aml_events",
            "SELECT COUNT(*) FROM (SELECT 1 FROM aml_events WHERE received_at < ?1 LIMIT ?2) AS expired",
            "DELETE FROM aml_events WHERE (tenant_id, transaction_id) IN (SELECT tenant_id, transaction_id FROM aml_events WHERE received_at < ?1 LIMIT ?2)",
            at(c.aml_records),
            batch,
        ),
        prune(
            "aml_pairs",
            "SELECT COUNT(*) FROM (SELECT 1 FROM aml_pairs WHERE last_at < ?1 LIMIT ?2) AS expired",
            "DELETE FROM aml_pairs WHERE (tenant_id, from_user_id, to_user_id) IN
               (SELECT tenant_id, from_user_id, to_user_id FROM aml_pairs WHERE last_at < ?1 LIMIT ?2)",
            at(c.aml_records),
            batch,
        ),
        prune(
            "aml_buckets",
            "SELECT COUNT(*) FROM (SELECT 1 FROM aml_buckets WHERE start < ?1 LIMIT ?2) AS expired",
            "DELETE FROM aml_buckets WHERE (tenant_id, external_user_id, span, start, currency, payment_method) IN
               (SELECT tenant_id, external_user_id, span, start, currency, payment_method FROM aml_buckets WHERE start < ?1 LIMIT ?2)",
            at(c.aml_state),
            batch,
        ),
        prune(
            "aml_instruments",
            "SELECT COUNT(*) FROM (SELECT 1 FROM aml_instruments WHERE last_seen_at < ?1 LIMIT ?2) AS expired",
            "DELETE FROM aml_instruments WHERE (tenant_id, external_user_id, instrument) IN
               (SELECT tenant_id, external_user_id, instrument FROM aml_instruments WHERE last_seen_at < ?1 LIMIT ?2)",
            at(c.aml_state),
            batch,
        ),
        prune(
            "aml_alerted",
            "SELECT COUNT(*) FROM (SELECT 1 FROM aml_alerted WHERE at < ?1 LIMIT ?2) AS expired",
            "DELETE FROM aml_alerted WHERE (tenant_id, external_user_id, typology) IN
               (SELECT tenant_id, external_user_id, typology FROM aml_alerted WHERE at < ?1 LIMIT ?2)",
            at(c.aml_state),
            batch,
        ),
        prune(
            "aml_shadow_disagreements",
            "SELECT COUNT(*) FROM (SELECT 1 FROM aml_shadow_disagreements WHERE at < ?1 LIMIT ?2) AS expired",
            "DELETE FROM aml_shadow_disagreements WHERE disagreement_id IN (SELECT disagreement_id FROM aml_shadow_disagreements WHERE at < ?1 LIMIT ?2)",
            at(c.shadow),
            batch,
        ),
    ]
}
