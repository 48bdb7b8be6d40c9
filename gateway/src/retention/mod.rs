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
    /// the audit log: a regulator's look-back; `None`: the longest
    /// record-keeping period of any jurisdiction profile (the rules')
    pub audit_days: Option<i64>,
    /// a user's records: AML events (the input of reports and backtests),
    /// linked-account pairs, deposits' natural keys and withdrawals; `None`:
    /// each tenant's jurisdiction profile's record-keeping period (the rules')
    pub aml_record_days: Option<i64>,
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
            audit_days: None,
            aml_record_days: None,
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
    /// a user's records, for tenants of every profile: the longest
    /// record-keeping period (each profile's own is in [`RecordCutoff`])
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

/// The instant before which the records of one profile's tenants go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordCutoff {
    pub jurisdiction: String,
    pub cutoff: i64,
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
        let profiles = self.rules.jurisdictions();
        let aml_window = profiles.iter().map(|p| crate::aml::state_reach_seconds(&p.aml)).max().unwrap_or(0);
        let longest_record = now.saturating_sub(profiles.iter().map(|p| p.record_keeping_seconds).max().unwrap_or(i64::MAX));
        Cutoffs {
            webhooks: days(policy.webhook_days),
            deposits: now.saturating_sub(deposit_seconds),
            audit: policy.audit_days.map_or(longest_record, days),
            aml_records: policy.aml_record_days.map_or(longest_record, days),
            aml_state: now.saturating_sub(aml_window.saturating_add(time::SECONDS_PER_DAY)),
            idempotency: now.saturating_sub(policy.idempotency_hours.saturating_mul(3_600)),
            sessions: days(policy.session_days),
            shadow: days(policy.shadow_days),
            decisions: now.saturating_sub(self.config.decision_retention_seconds(&horizons)),
            rate_windows: now.saturating_sub(120),
            staged_chunks: days(1),
        }
    }

    /// Each profile's cutoff for the records of its tenants: its
    /// record-keeping period (none when the policy sets one for all).
    pub fn record_cutoffs(&self, now: i64) -> Vec<RecordCutoff> {
        if self.config.retention.aml_record_days.is_some() {
            return Vec::new();
        }
        self.rules
            .jurisdictions()
            .into_iter()
            .map(|p| RecordCutoff { jurisdiction: p.name, cutoff: now.saturating_sub(p.record_keeping_seconds) })
            .collect()
    }

    /// One bounded round: counts each table's expired rows (up to a batch and
    /// one), then deletes at most a batch of each, in one write.
    pub async fn sweep_expired(&self, now: i64) -> Result<Swept, StoreError> {
        let batch = self.config.retention.batch_rows.max(1);
        let mut prunes = store::prunes(&self.retention_cutoffs(now), batch);
        prunes.extend(store::record_prunes(&self.record_cutoffs(now), batch));
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
