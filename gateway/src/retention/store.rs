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
    /// whether deleting its rows may expire rows of a later prune (a case's
    /// alerts before its file, its file before the case): another round then
    pub unlocks: bool,
}

fn prune(table: &'static str, (probe, delete): (&'static str, &'static str), params: impl Fn(i64) -> Vec<Value>, batch: i64) -> Prune {
    Prune { table, probe: Read::new(probe, params(batch.saturating_add(1))), delete: Stmt::new(delete, params(batch)), unlocks: false }
}

/// A table's probe and delete: `$cond` (in parts) selects its expired rows,
/// `$key` is its key's columns; ?2 is the limit.
macro_rules! expired {
    ($table:literal, $key:literal, $($cond:expr),+) => {
        (
            concat!("SELECT COUNT(*) FROM (SELECT 1 FROM ", $table, " WHERE ", $($cond),+, " LIMIT ?2) AS expired"),
            concat!("DELETE FROM ", $table, " WHERE (", $key, ") IN (SELECT ", $key, " FROM ", $table, " WHERE ", $($cond),+, " LIMIT ?2)"),
        )
    };
}

/// Every table's prune at these cutoffs; ?1 is the cutoff and ?2 the limit.
pub fn prunes(c: &Cutoffs, batch: i64) -> Vec<Prune> {
    // a cutoff of "never" (i64::MIN) is bound as the earliest time every
    // store keeps exactly: D1 refuses integers beyond ±2^53
    let clamp = |cutoff: i64| cutoff.clamp(-crate::ports::MAX_STORED_INTEGER, crate::ports::MAX_STORED_INTEGER);
    let at = |cutoff: i64| {
        let cutoff = clamp(cutoff);
        move |limit: i64| vec![Value::from(cutoff), Value::from(limit)]
    };
    let decision_floor = crate::decisions::id_floor(c.decisions);
    let player_decision_floor = crate::decisions::id_floor(c.player_decisions);
    vec![
        // an event a delivery still waits for is kept, however old (an endpoint re-enabled gets it)
        prune(
            "outbox",
            expired!(
                "outbox",
                "event_id",
                "dispatched = 1 AND created_at < ?1 AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = outbox.event_id AND d.status = ?3)"
            ),
            |limit| vec![c.webhooks.into(), limit.into(), DeliveryStatus::Pending.as_str().into()],
            batch,
        ),
        prune(
            "webhook_deliveries",
            expired!("webhook_deliveries", "delivery_id", "created_at < ?1 AND status <> ?3"),
            |limit| vec![c.webhooks.into(), limit.into(), DeliveryStatus::Pending.as_str().into()],
            batch,
        ),
        prune("webhook_attempts", expired!("webhook_attempts", "attempt_id", "attempted_at < ?1"), at(c.webhooks), batch),
        prune("deposits", expired!("deposits", "tenant_id, transaction_id", "at < ?1"), at(c.deposits), batch),
        // a deposit's natural key outlives it: kept the record-keeping period, so a retry never counts twice
        prune("deposit_transactions", expired!("deposit_transactions", "tenant_id, transaction_id", "committed_at < ?1"), at(c.aml_records), batch),
        prune("deposit_hours", expired!("deposit_hours", "tenant_id, external_user_id, hour, currency", "hour < ?1"), at(c.deposits.div_euclid(3_600)), batch),
        // a player's audit rows go with the player (the erasure's audit-log class), or at a period configured for all
        prune(
            "audit_log",
            expired!(
                "audit_log",
                "audit_id",
                "at < ?1 AND (at < ?3 OR NOT EXISTS (SELECT 1 FROM users u WHERE u.tenant_id = audit_log.tenant_id AND u.external_user_id = audit_log.resource))"
            ),
            |limit| vec![clamp(c.audit).into(), limit.into(), clamp(c.player_audit).into()],
            batch,
        ),
        prune("auth_failure_counts", expired!("auth_failure_counts", "minute, source, reason", "minute < ?1"), at(c.audit.div_euclid(60)), batch),
        // decisions about no player at the horizon, a range of `decisions_by_user`: the players' older ones, kept
        // for their erasure (the decision-log class), are never walked
        prune(
            "decisions",
            expired!("decisions", "decision_id", "user_id = '' AND decision_id < ?1"),
            |limit| vec![decision_floor.as_str().into(), limit.into()],
            batch,
        ),
        // every decision, the players' too, only at a period configured for all (else an empty range)
        prune(
            "decisions",
            expired!("decisions", "decision_id", "decision_id < ?1"),
            |limit| vec![player_decision_floor.as_str().into(), limit.into()],
            batch,
        ),
        prune("decision_pages", expired!("decision_pages", "page_id", "decided_to < ?1"), at(c.decisions), batch),
        prune("idempotency_keys", expired!("idempotency_keys", "tenant_id, scope, idempotency_key", "created_at < ?1"), at(c.idempotency), batch),
        prune("rate_windows", expired!("rate_windows", "key_id, window_start", "window_start < ?1"), at(c.rate_windows), batch),
        prune("console_sessions", expired!("console_sessions", "session_hash", "last_seen_at < ?1"), at(c.sessions), batch),
        // a sign-in begun at the identity provider is good for ten minutes; kept a day, as idempotency keys are
        prune("oidc_logins", expired!("oidc_logins", "state_hash", "created_at < ?1"), at(c.idempotency), batch),
        prune(
            "sanctions_import_chunks",
            expired!(
                "sanctions_import_chunks",
                "list_id, chunk_no",
                "NOT EXISTS (SELECT 1 FROM sanctions_lists l WHERE l.list_id = sanctions_import_chunks.list_id AND (l.status = ?3 OR l.imported_at >= ?1))"
            ),
            |limit| vec![c.staged_chunks.into(), limit.into(), crate::lists::store::ListStatus::Staging.as_str().into()],
            batch,
        ),
        prune("aml_events", expired!("aml_events", "tenant_id, transaction_id", "received_at < ?1"), at(c.aml_records), batch),
        prune("aml_pairs", expired!("aml_pairs", "tenant_id, from_user_id, to_user_id", "last_at < ?1"), at(c.aml_records), batch),
    ]
    .into_iter()
    .chain(case_prunes(&at(c.aml_records), false, batch))
    .chain([
        // a held withdrawal waits for its check, however old
        prune(
            "withdrawals",
            expired!("withdrawals", "withdrawal_id", "updated_at < ?1 AND status <> ?3"),
            |limit| vec![c.aml_records.into(), limit.into(), rules_model::WithdrawalStatus::Held.as_str().into()],
            batch,
        ),
        prune(
            "aml_buckets",
            expired!("aml_buckets", "tenant_id, external_user_id, span, start, currency, payment_method", "start < ?1"),
            at(c.aml_state),
            batch,
        ),
        prune("aml_instruments", expired!("aml_instruments", "tenant_id, external_user_id, instrument", "last_seen_at < ?1"), at(c.aml_state), batch),
        prune("aml_alerted", expired!("aml_alerted", "tenant_id, external_user_id, typology", "at < ?1"), at(c.aml_state), batch),
        prune("aml_shadow_disagreements", expired!("aml_shadow_disagreements", "disagreement_id", "at < ?1"), at(c.shadow), batch),
    ])
    .collect()
}

/// A closed AML case past the cutoff (?1) that no filing rests on, `$c` its alias.
macro_rules! expired_case {
    ($c:literal) => {
        concat!(
            $c,
            ".open_key IS NULL AND ",
            $c,
            ".closed_at IS NOT NULL AND ",
            $c,
            ".closed_at < ?1 AND NOT EXISTS (SELECT 1 FROM aml_filings f WHERE f.case_id = ",
            $c,
            ".case_id)"
        )
    };
}

/// The cases of [`expired_case!`] in `$scope` (`""`, or a profile's tenants) that also meet `$also`.
macro_rules! of_expired_cases {
    ($scope:literal, $also:literal) => {
        concat!("case_id IN (SELECT c.case_id FROM aml_cases c WHERE ", expired_case!("c"), $also, $scope, ")")
    };
}

/// The probes and deletes of [`case_prunes`], for the cases in `$scope`.
macro_rules! case_statements {
    ($scope:literal) => {
        (
            expired!("aml_alerts", "alert_id", "created_at < ?1 AND ", of_expired_cases!($scope, "")),
            expired!("case_events", "event_id", of_expired_cases!($scope, " AND NOT EXISTS (SELECT 1 FROM aml_alerts a WHERE a.case_id = c.case_id)")),
            expired!("case_work", "case_id", of_expired_cases!($scope, " AND NOT EXISTS (SELECT 1 FROM aml_alerts a WHERE a.case_id = c.case_id)")),
            expired!(
                "aml_cases",
                "case_id",
                of_expired_cases!(
                    $scope,
                    " AND NOT EXISTS (SELECT 1 FROM aml_alerts a WHERE a.case_id = c.case_id) AND NOT EXISTS (SELECT 1 FROM case_events e WHERE e.case_id = c.case_id) AND NOT EXISTS (SELECT 1 FROM case_work w WHERE w.case_id = c.case_id)"
                )
            ),
        )
    };
}

/// The AML cases' records past the cutoff (`params`: ?1 the cutoff, ?2 the
/// limit, ?3 the profile when `of_profile`), in the order that leaves no
/// orphan: the alerts, then the case's file (its events and work), then the
/// case once nothing of it is left. A case a filing rests on is kept whole
/// (the filing's own period, and the erasure's, decide it); so is an open
/// one, and one closed since the cutoff.
fn case_prunes(params: &(impl Fn(i64) -> Vec<Value> + Clone), of_profile: bool, batch: i64) -> Vec<Prune> {
    let (alerts, events, work, cases) = match of_profile {
        true => case_statements!(" AND c.tenant_id IN (SELECT t.tenant_id FROM tenants t WHERE t.jurisdiction = ?3)"),
        false => case_statements!(""),
    };
    let unlocking = |p: Prune| Prune { unlocks: true, ..p };
    vec![
        unlocking(prune("aml_alerts", alerts, params.clone(), batch)),
        unlocking(prune("case_events", events, params.clone(), batch)),
        unlocking(prune("case_work", work, params.clone(), batch)),
        prune("aml_cases", cases, params.clone(), batch),
    ]
}

/// The records of one profile's tenants, at its record-keeping cutoff; ?3
/// is the jurisdiction (the prunes at [`Cutoffs::aml_records`], the longest
/// period, catch every tenant besides).
macro_rules! record {
    ($table:literal, $key:literal, $cond:literal) => {
        expired!($table, $key, $cond, " AND tenant_id IN (SELECT t.tenant_id FROM tenants t WHERE t.jurisdiction = ?3)")
    };
}

/// Each profile's prunes of its tenants' records: AML events and pairs,
/// deposits' natural keys, register checks' evidence and withdrawals (a held one is kept).
pub fn record_prunes(cutoffs: &[super::RecordCutoff], batch: i64) -> Vec<Prune> {
    let mut all = Vec::new();
    for c in cutoffs {
        let of = |extra: Option<&'static str>| {
            let (cutoff, jurisdiction) = (c.cutoff, c.jurisdiction.clone());
            move |limit: i64| {
                let mut params = vec![Value::from(cutoff), Value::from(limit), Value::from(jurisdiction.as_str())];
                params.extend(extra.map(Value::from));
                params
            }
        };
        all.push(prune("aml_events", record!("aml_events", "tenant_id, transaction_id", "received_at < ?1"), of(None), batch));
        all.push(prune("aml_pairs", record!("aml_pairs", "tenant_id, from_user_id, to_user_id", "last_at < ?1"), of(None), batch));
        all.push(prune("deposit_transactions", record!("deposit_transactions", "tenant_id, transaction_id", "committed_at < ?1"), of(None), batch));
        // the evidence of register checks: a record of the relationship, kept the record-keeping period from each check
        all.push(prune("register_checks", record!("register_checks", "check_id, seq", "checked_at < ?1"), of(None), batch));
        all.extend(case_prunes(&of(None), true, batch));
        all.push(prune(
            "withdrawals",
            record!("withdrawals", "withdrawal_id", "updated_at < ?1 AND status <> ?4"),
            of(Some(rules_model::WithdrawalStatus::Held.as_str())),
            batch,
        ));
    }
    all
}

/// Each profile's redaction of its tenants' ended exclusions, in place (the
/// erasure's own redaction, `erasure::store::redact_exclusions!`): ?1 the profile's cutoff, ?2 the limit, ?3 the
/// jurisdiction, ?4 now. An exclusion in force, or permanent, is never one.
pub fn exclusion_redactions(cutoffs: &[super::RecordCutoff], now: i64, batch: i64) -> Vec<Prune> {
    macro_rules! ended {
        () => {
            "expires_at IS NOT NULL AND expires_at <= ?1 AND redacted_at IS NULL AND tenant_id IN (SELECT t.tenant_id FROM tenants t WHERE t.jurisdiction = ?3)"
        };
    }
    cutoffs
        .iter()
        .map(|c| {
            let params = |limit: i64| vec![Value::from(c.cutoff), Value::from(limit), Value::from(c.jurisdiction.as_str())];
            let mut redact = params(batch);
            redact.push(Value::from(now));
            Prune {
                table: "exclusions",
                unlocks: false,
                probe: Read::new(
                    concat!("SELECT COUNT(*) FROM (SELECT 1 FROM exclusions WHERE ", ended!(), " LIMIT ?2) AS expired"),
                    params(batch.saturating_add(1)),
                ),
                delete: Stmt::new(
                    concat!(
                        crate::erasure::store::redact_exclusions!("?4"),
                        " WHERE exclusion_id IN (SELECT exclusion_id FROM exclusions WHERE ",
                        ended!(),
                        " LIMIT ?2)"
                    ),
                    redact,
                ),
            }
        })
        .collect()
}

/// The jurisdictions some tenant has: a profile no tenant has is not swept
/// (its probes would walk the other profiles' expired rows for nothing).
pub async fn jurisdictions_in_use(store: &dyn crate::ports::Store) -> Result<Vec<String>, crate::ports::StoreError> {
    let rows = store.query("SELECT DISTINCT jurisdiction FROM tenants", vec![]).await?;
    rows.iter().map(|r| r.text(0)).collect()
}
