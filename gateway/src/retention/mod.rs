//! Bounded growth: what each table keeps, and the scheduler's sweep that
//! deletes the rest in bounded batches (at most [`RetentionPolicy::batch_rows`]
//! rows a table a round; a full batch asks for another round at once).
//! The defaults and their reasons are in `docs/decisions.md` ("Retention").

pub mod store;

use crate::ports::StoreError;
use crate::{time, Gateway};

/// How long each kind of row is kept after it stops mattering.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetentionPolicy {
    /// dispatched outbox events, finished deliveries and their attempts
    pub webhook_days: i64,
    /// committed deposits and their hourly sums; `None`: the longest window
    /// any limit rule reads, and a day
    pub deposit_days: Option<i64>,
    /// the audit log: a regulator's look-back
    pub audit_days: i64,
    /// AML events (the input of reports and backtests) and linked-account pairs
    pub aml_record_days: i64,
    /// `Idempotency-Key` answers
    pub idempotency_hours: i64,
    /// console sessions and failed-authentication counts
    pub session_days: i64,
    /// AML shadow disagreements
    pub shadow_days: i64,
    /// rows deleted from one table in one round
    pub batch_rows: i64,
}

impl Default for RetentionPolicy {
    fn default() -> Self {
        RetentionPolicy {
            webhook_days: 30,
            deposit_days: None,
            audit_days: 5 * 365 + 2,
            aml_record_days: 5 * 365 + 2,
            idempotency_hours: 24,
            session_days: 30,
            shadow_days: 90,
            batch_rows: 1_000,
        }
    }
}

/// The instants before which each kind of row goes.
#[derive(Debug, Clone, Copy)]
pub struct Cutoffs {
    pub webhooks: i64,
    pub deposits: i64,
    pub audit: i64,
    pub aml_records: i64,
    /// AML buckets, instruments and repeat-alert marks: past every AML window
    pub aml_state: i64,
    pub idempotency: i64,
    pub sessions: i64,
    pub shadow: i64,
    /// the decision log
    pub decisions: i64,
    /// ended rate windows
    pub rate_windows: i64,
    /// staged list chunks whose version is neither staging nor recent
    pub staged_chunks: i64,
}

/// What one sweep deleted, and whether a table had more.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Swept {
    pub rows: i64,
    pub more: bool,
}

impl Gateway {
    /// The cutoffs at `now` under the configured policy and the rules' windows.
    pub fn retention_cutoffs(&self, now: i64) -> Cutoffs {
        let policy = &self.config.retention;
        let horizons = self.rules.horizons();
        let days = |d: i64| now.saturating_sub(d.saturating_mul(time::SECONDS_PER_DAY));
        let deposit_seconds = policy
            .deposit_days
            .map_or(horizons.longest_deposit_window_seconds.saturating_add(time::SECONDS_PER_DAY), |d| d.saturating_mul(time::SECONDS_PER_DAY));
        let aml_window = self.rules.jurisdictions().iter().map(|p| crate::aml::state_reach_seconds(&p.aml)).max().unwrap_or(0);
        Cutoffs {
            webhooks: days(policy.webhook_days),
            deposits: now.saturating_sub(deposit_seconds),
            audit: days(policy.audit_days),
            aml_records: days(policy.aml_record_days),
            aml_state: now.saturating_sub(aml_window.saturating_add(time::SECONDS_PER_DAY)),
            idempotency: now.saturating_sub(policy.idempotency_hours.saturating_mul(3_600)),
            sessions: days(policy.session_days),
            shadow: days(policy.shadow_days),
            decisions: now.saturating_sub(self.config.decision_retention_seconds(&horizons)),
            rate_windows: now.saturating_sub(120),
            staged_chunks: days(1),
        }
    }

    /// One bounded round: counts each table's expired rows (up to a batch and
    /// one), then deletes at most a batch of each, in one write.
    pub async fn sweep_expired(&self, now: i64) -> Result<Swept, StoreError> {
        let batch = self.config.retention.batch_rows.max(1);
        let prunes = store::prunes(&self.retention_cutoffs(now), batch);
        let counts = self.store.query_many(prunes.iter().map(|p| p.probe.clone()).collect()).await?;
        let mut swept = Swept::default();
        let mut deletes = Vec::new();
        for (prune, rows) in prunes.into_iter().zip(counts) {
            let expired = rows.first().map(|r| r.int(0)).transpose()?.unwrap_or(0);
            if expired > 0 {
                swept.rows += expired.min(batch);
                swept.more |= expired > batch;
                deletes.push(prune.delete);
            }
        }
        if !deletes.is_empty() {
            self.store.batch(deletes).await?;
        }
        Ok(swept)
    }
}
