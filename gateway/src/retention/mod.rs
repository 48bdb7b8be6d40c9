//! Bounded growth: what each table keeps, and the scheduler's sweep that
//! deletes the rest in bounded batches (at most [`RetentionPolicy::batch_rows`]
//! rows a table a round, [`PRUNE_CHUNK`] rows a delete statement, each its
//! own write; a full batch asks for another round at once).
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
    /// each tenant's jurisdiction profile's retention table (the rules')
    pub aml_record_days: Option<i64>,
    /// `Idempotency-Key` answers
    pub idempotency_hours: i64,
    /// console sessions and failed-authentication counts
    pub session_days: i64,
    /// AML shadow disagreements
    pub shadow_days: i64,
    /// rows deleted from one table in one round
    pub batch_rows: i64,
    /// erasure jobs one scheduler tick moves on or makes (written
    /// `erasure::SWEEP_CHUNK` at a time); what is left waits for the next tick
    pub erasure_batch: i64,
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
            erasure_batch: 30,
        }
    }
}

/// The instants before which each kind of row goes.
#[derive(Debug, Clone, Copy)]
pub struct Cutoffs {
    pub webhooks: i64,
    pub deposits: i64,
    /// audit rows about no player: the longest record-keeping period, or the configured one
    pub audit: i64,
    /// audit rows about a player: never by time (the profile's audit-log
    /// class keeps them until the player's erasure), unless a period is
    /// configured for all
    pub player_audit: i64,
    /// a user's records, for tenants of every profile: only when the policy
    /// sets a period for all (each profile's own is in [`RecordCutoff`])
    pub aml_records: i64,
    /// AML buckets, instruments and repeat-alert marks: past every AML window
    pub aml_state: i64,
    pub idempotency: i64,
    pub sessions: i64,
    pub shadow: i64,
    /// read-only checks (`decision_pages`) and decisions about no player:
    /// the rules' horizon, or the configured period
    pub decisions: i64,
    /// a player's state-changing decisions: never by time (the profile's
    /// decision-log class keeps them until the player's erasure), unless a
    /// period is configured for all
    pub player_decisions: i64,
    /// ended rate windows
    pub rate_windows: i64,
    /// staged list chunks whose version is neither staging nor recent
    pub staged_chunks: i64,
}

/// Why a table no sweep prunes cannot grow with traffic alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// a fixed set of rows, or one row a day
    Fixed,
    /// what admins and operators configure (tenants, keys, webhooks, settings)
    Configured,
    /// what the versions of imported lists and files hold (replaced by the next import)
    Imported,
    /// one act of a person of the compliance team a row
    ByPeople,
    /// one row a player (the erasure redacts it in place)
    OnePerPlayer,
    /// a player's records of a retention class, each made by the player's
    /// own act (a withdrawal past its tier, a limit change, an exclusion)
    /// and kept as the law keeps the class: the erasure reaches the table
    /// on the class's date (`every_player_record_is_reached_by_the_erasure`)
    PlayerRecord(rules_model::jurisdictions::RecordClass),
}

/// Tables no sweep prunes, each with its [`Bound`] and why. A table in the
/// schema that is neither here nor pruned fails `every_table_is_pruned_or_declared_bounded`.
pub const BOUNDED_BY_CONSTRUCTION: &[(&str, Bound, &str)] = {
    use rules_model::jurisdictions::RecordClass::{AmlRecords, Exclusions, IdentityScreening, KycChecks, LimitChanges};
    use Bound::*;
    &[
        ("schema_versions", Fixed, "one row per schema version"),
        ("counters", Fixed, "a fixed set of named sequences"),
        ("replication_heartbeat", Fixed, "one row: the latest beat"),
        ("exclusion_snapshots", Fixed, "one per environment and day"),
        ("tenants", Configured, "one per operator, created by an admin"),
        ("api_keys", Configured, "the keys admins create for tenants and themselves"),
        ("webhooks", Configured, "capped per tenant"),
        ("list_refreshes", Configured, "one per configured list source"),
        ("filing_settings", Configured, "one per tenant, set by an admin"),
        ("register_settings", Configured, "one per tenant and national register, set by an admin"),
        ("register_batches", Configured, "one per tenant and national register: its nightly batch's run"),
        ("console_accounts", ByPeople, "one per member of the compliance team"),
        ("console_devices", ByPeople, "at most `people::DEVICES_PER_PERSON` per member: the least recently used goes when another is remembered"),
        ("aml_filings", ByPeople, "regulator filings a person drafts from a case or CTR candidate; redacted by the erasure on the AML class's date"),
        ("dismissed_matches", ByPeople, "matches a person dismissed for a player"),
        ("sanctions_lists", Imported, "one per imported list version; superseded versions are deleted with their entries"),
        ("sanctions_entries", Imported, "the entries of the list versions kept (an import replaces its source's)"),
        ("sanctions_keys", Imported, "the index keys of the entries kept"),
        ("regulator_claims", Imported, "one per identifier the regulator's list excludes"),
        ("aml_rate_versions", Imported, "one per rates file an admin imports"),
        ("aml_rates", Imported, "the rows of the rates files admins import"),
        ("users", OnePerPlayer, "one per player of a tenant"),
        ("erasures", OnePerPlayer, "one per player: a second request answers the first job"),
        (
            "access_requests",
            PlayerRecord(IdentityScreening),
            "a player's access requests, one open at a time, each asked by the player; deleted with their case files when an erasure restricts the player",
        ),
        (
            "sanctions_cases",
            PlayerRecord(IdentityScreening),
            "a player's screening cases: one open at a time, a new one only when a screening matches anew",
        ),
        ("kyc_checks", PlayerRecord(KycChecks), "a player's checks, one open at a time, each begun by a withdrawal past the verified tier"),
        ("exclusions", PlayerRecord(Exclusions), "a player's exclusions, lengthened never duplicated; an ended one is redacted at its date"),
        ("deposit_limits", PlayerRecord(LimitChanges), "a row per limit change the player asks for: the history the limit-changes class keeps"),
        ("aml_deposit_classes", PlayerRecord(AmlRecords), "a player's deposits by size class: at most 256 rows a player"),
        (
            "register_players",
            PlayerRecord(Exclusions),
            "one per player and national register: its latest answer, the code it gave, the identity its batch asks with (sealed)",
        ),
    ]
};

/// Stored running sums (`col = col + …`) that do not saturate in their SQL,
/// each with its bound: (the store file, the column, why it stays within
/// what every store keeps exactly). A saturating sum (`CASE WHEN col > ?n -
/// … THEN ?n`) needs no entry. A running sum neither saturating nor declared
/// fails `every_running_sum_has_a_bound`.
pub const BOUNDED_SUMS: &[(&str, &str, &str)] = &[
    ("limits/store.rs", "amount_cents", "a deposit that would carry its hour past MAX_STORED_INTEGER is refused (limits::commit)"),
    ("rate_limit/store.rs", "used", "only while used + n <= the window's limit (its WHERE)"),
    ("tenants/store.rs", "failures", "+1 per failed authentication from a source in one minute; pruned"),
    ("tenants/store.rs", "clock_offset_seconds", "a sandbox clock's advances, each bounded by the request's validation"),
    ("webhooks/store.rs", "attempts", "+1 per attempt; a delivery ends after its retry schedule"),
    ("aml/store.rs", "alert_count", "+1 per alert of an open case; an alert per typology and window"),
    ("exclusions/store.rs", "value", "a sequence: +1 per exclusion registered"),
    ("cases/store.rs", "version", "an optimistic lock: +1 per write of its row"),
    ("kyc/store.rs", "version", "an optimistic lock: +1 per write of its row"),
    ("sanctions/store.rs", "version", "an optimistic lock: +1 per write of its row"),
    ("users/store.rs", "version", "an optimistic lock: +1 per write of its row"),
    ("erasure/store.rs", "version", "the user's optimistic lock, moved once by the restriction (its WHERE: not yet restricted)"),
    ("store_contract.rs", "n", "the store contract's own test row"),
];

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
            player_audit: policy.audit_days.map_or(-crate::ports::MAX_STORED_INTEGER, days),
            // each profile's own cutoffs are in `record_cutoffs`; none for all unless the policy sets one
            aml_records: policy.aml_record_days.map_or(-crate::ports::MAX_STORED_INTEGER, days),
            aml_state: now.saturating_sub(aml_window.saturating_add(time::SECONDS_PER_DAY)),
            idempotency: now.saturating_sub(policy.idempotency_hours.saturating_mul(3_600)),
            sessions: days(policy.session_days),
            shadow: days(policy.shadow_days),
            decisions: now.saturating_sub(self.config.decision_retention_seconds(&horizons)),
            player_decisions: self.config.decision_retention_days.map_or(-crate::ports::MAX_STORED_INTEGER, days),
            rate_windows: now.saturating_sub(120),
            staged_chunks: days(1),
        }
    }

    /// Each profile's cutoff for the transaction records of its tenants,
    /// from its retention table (none when the policy sets one for all):
    /// where the period runs from each record (US, CA-ON), the period; where
    /// it runs from the end of the relationship, the cap a record is never
    /// kept beyond (GB: ten years), or none at all (EU profiles: kept while
    /// the relationship lasts, then erased with the player by the erasure
    /// machinery, `crate::erasure::sweep`).
    pub fn record_cutoffs(&self, now: i64) -> Vec<RecordCutoff> {
        if self.config.retention.aml_record_days.is_some() {
            return Vec::new();
        }
        self.profile_cutoffs(now, |c| c.records_before)
    }

    /// Each profile's cutoff for its tenants' ended exclusions, from its
    /// retention table: an exclusion that ended the profile's time ago is
    /// redacted in place whether or not the player is still a customer (DE:
    /// six years, GlüStV § 23; NL: at its end, Cruks). An erasure job redacts
    /// the same rows of its player on the same date.
    pub fn exclusion_cutoffs(&self, now: i64) -> Vec<RecordCutoff> {
        self.profile_cutoffs(now, |c| c.ended_exclusions_before)
    }

    /// One cutoff of each profile, as the rules date it; a profile the rules
    /// fail to date is left for the next round (kept, never pruned early).
    fn profile_cutoffs(&self, now: i64, pick: impl Fn(&rules_model::RetentionCutoffs) -> Option<i64>) -> Vec<RecordCutoff> {
        self.rules
            .jurisdictions()
            .into_iter()
            .filter_map(|p| match crate::erasure::cutoffs_of(self, &p.name, now) {
                Ok(c) => pick(&c).map(|cutoff| RecordCutoff { jurisdiction: p.name, cutoff }),
                Err(e) => {
                    tracing::warn!(jurisdiction = %p.name, error = %e, "retention cutoffs not dated");
                    None
                }
            })
            .collect()
    }

    /// One bounded round: counts each table's expired rows (up to a batch and
    /// one), then deletes at most a batch of each, [`PRUNE_CHUNK`] rows a
    /// statement, each statement a write of its own with a turn of the
    /// executor between two: no delete holds the store's writer for more
    /// than a chunk (a few milliseconds on SQLite), so the requests' own
    /// writes interleave with a backlog's prune.
    pub async fn sweep_expired(&self, now: i64) -> Result<Swept, StoreError> {
        let batch = self.config.retention.batch_rows.max(1);
        let cutoffs = self.retention_cutoffs(now);
        let in_use = store::jurisdictions_in_use(self.store.as_ref()).await?;
        let records: Vec<RecordCutoff> = self.record_cutoffs(now).into_iter().filter(|c| in_use.contains(&c.jurisdiction)).collect();
        let exclusions: Vec<RecordCutoff> = self.exclusion_cutoffs(now).into_iter().filter(|c| in_use.contains(&c.jurisdiction)).collect();
        // the same prunes, in the same order, bound at a batch (the probes) and at a limit (the deletes)
        let at = |limit: i64| {
            let mut prunes = store::prunes(&cutoffs, limit);
            prunes.extend(store::record_prunes(&records, limit));
            prunes.extend(store::exclusion_redactions(&exclusions, now, limit));
            prunes
        };
        let probes = at(batch);
        let counts = self.store.query_many(probes.iter().map(|p| p.probe.clone()).collect()).await?;
        let chunk = PRUNE_CHUNK.min(batch);
        let chunks = at(chunk);
        let mut swept = Swept::default();
        for (index, rows) in counts.iter().enumerate() {
            let expired = rows.first().map(|r| r.int(0)).transpose()?.unwrap_or(0);
            if expired <= 0 {
                continue;
            }
            let mut left = expired.min(batch);
            swept.rows += left;
            swept.more |= expired > batch || probes.get(index).is_some_and(|p| p.unlocks);
            while left > 0 {
                let delete =
                    if left >= chunk { chunks.get(index).map(|p| p.delete.clone()) } else { at(left).into_iter().nth(index).map(|p| p.delete) };
                let Some(delete) = delete else { break };
                self.store.batch(vec![delete]).await?;
                left -= chunk;
                crate::erasure::YieldNow::default().await;
            }
        }
        Ok(swept)
    }
}

/// Rows one delete statement of the retention sweep takes at most.
pub const PRUNE_CHUNK: i64 = 100;

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// The tables the schema leaves, from its statements in order.
    fn schema_tables(statements: &[&str]) -> BTreeSet<String> {
        let word_after = |text: &str, key: &str| {
            text.split(key).nth(1).and_then(|r| r.split_whitespace().next()).map(|w| w.trim_matches(|c| c == '(' || c == ';').to_string())
        };
        let mut tables = BTreeSet::new();
        for sql in statements {
            let flat = sql.split_whitespace().collect::<Vec<_>>().join(" ");
            if let Some(t) = word_after(&flat, concat!("CREATE", " TABLE IF NOT EXISTS ")) {
                tables.insert(t);
            } else if let Some(t) = word_after(&flat, "DROP TABLE IF EXISTS ") {
                tables.remove(&t);
            } else if let (Some(from), Some(to)) = (word_after(&flat, concat!("ALTER", " TABLE ")), word_after(&flat, " RENAME TO ")) {
                tables.remove(&from);
                tables.insert(to);
            }
        }
        tables
    }

    /// Tables neither pruned nor declared bounded.
    fn unaccounted(tables: &BTreeSet<String>, pruned: &BTreeSet<&str>, bounded: &[(&str, Bound, &str)]) -> Vec<String> {
        tables.iter().filter(|t| !pruned.contains(t.as_str()) && !bounded.iter().any(|(b, _, why)| b == t && !why.is_empty())).cloned().collect()
    }

    /// The tables a source writes to by `DELETE FROM` or `UPDATE`.
    fn written_tables(source: &str) -> BTreeSet<String> {
        let flat = source.split_whitespace().collect::<Vec<_>>().join(" ");
        let mut found = BTreeSet::new();
        for verb in [concat!("DELETE", " FROM "), concat!("UPD", "ATE ")] {
            for (i, _) in flat.match_indices(verb) {
                let table: String = flat[i + verb.len()..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                found.insert(table);
            }
        }
        found
    }

    /// A table declared a player's record is reached by the erasure (it
    /// deletes or redacts the player's rows), so its rows last only as
    /// long as their class; the twin: a planted record table is caught.
    #[test]
    fn every_player_record_is_reached_by_the_erasure() {
        let erasure = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/erasure/store.rs")).unwrap();
        let reached = written_tables(&erasure);
        let unreached = |bounded: &[(&str, Bound, &str)]| -> Vec<String> {
            bounded
                .iter()
                .filter(|(table, bound, _)| matches!(bound, Bound::PlayerRecord(_)) && !reached.contains(*table))
                .map(|(table, ..)| table.to_string())
                .collect()
        };
        assert_eq!(unreached(BOUNDED_BY_CONSTRUCTION), Vec::<String>::new(), "a player's records the erasure never reaches");
        let planted = [("planted_player_log", Bound::PlayerRecord(rules_model::jurisdictions::RecordClass::AmlRecords), "planted")];
        assert_eq!(unreached(&planted), ["planted_player_log"]);
    }

    fn pruned_tables() -> BTreeSet<&'static str> {
        let cutoffs = Cutoffs {
            webhooks: 0,
            deposits: 0,
            audit: 0,
            player_audit: 0,
            aml_records: 0,
            aml_state: 0,
            idempotency: 0,
            sessions: 0,
            shadow: 0,
            decisions: 0,
            player_decisions: 0,
            rate_windows: 0,
            staged_chunks: 0,
        };
        let records = [RecordCutoff { jurisdiction: "default".into(), cutoff: 0 }];
        store::prunes(&cutoffs, 1).iter().chain(store::record_prunes(&records, 1).iter()).map(|p| p.table).collect()
    }

    #[test]
    fn every_table_is_pruned_or_declared_bounded() {
        let statements: Vec<&str> = crate::schema::VERSIONS.iter().flat_map(|v| v.iter().copied()).collect();
        let mut tables = schema_tables(&statements);
        // made by `schema::migrate` itself, before any version
        tables.insert("schema_versions".to_string());
        assert!(tables.contains("withdrawals") && tables.contains("idempotency_keys") && !tables.contains("idempotency_keys_scoped"));
        let pruned = pruned_tables();
        assert_eq!(unaccounted(&tables, &pruned, BOUNDED_BY_CONSTRUCTION), Vec::<String>::new(), "neither pruned nor declared bounded");
        // nothing declared bounded is pruned too, or named and gone
        for (table, ..) in BOUNDED_BY_CONSTRUCTION {
            assert!(tables.contains(*table) && !pruned.contains(table), "{table}: declared bounded, but pruned or not in the schema");
        }
        // the planted twin: a new table that grows with traffic is caught
        let mut planted = statements.clone();
        // (spelled in parts: SQL lives in the stores)
        let planted_table = concat!("CREATE", " TABLE IF NOT EXISTS planted_event_log (id TEXT PRIMARY KEY, at BIGINT NOT NULL)");
        planted.push(planted_table);
        assert_eq!(unaccounted(&schema_tables(&planted), &pruned, BOUNDED_BY_CONSTRUCTION), ["planted_event_log"]);
    }

    /// The running sums of a source file: columns assigned an expression
    /// that adds to the column itself; `true` when the assignment saturates.
    fn running_sums(source: &str) -> Vec<(String, bool)> {
        let mut found = Vec::new();
        let flat = source.split_whitespace().collect::<Vec<_>>().join(" ");
        for (i, _) in flat.match_indices(" = ") {
            let before = &flat[..i];
            let column: String =
                before.chars().rev().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect::<String>().chars().rev().collect();
            if column.is_empty() {
                continue;
            }
            let rest = &flat[i + 3..];
            let expression = rest.split([',', '"', ';']).next().unwrap_or("");
            let adds_itself =
                |e: &str| e.contains(&format!(".{column} + ")) || e.starts_with(&format!("{column} + ")) || e.contains(&format!(" {column} + "));
            if rest.starts_with("CASE WHEN ") {
                let case = rest.split(" END").next().unwrap_or("");
                if adds_itself(case) {
                    let saturates = [" > ?", " >= ?", " + ?"].iter().any(|op| case.contains(&format!("{column}{op}")) && case.contains("THEN ?"));
                    found.push((column, saturates));
                }
            } else if adds_itself(expression) {
                found.push((column, false));
            }
        }
        found
    }

    fn sources(dir: &std::path::Path, root: &std::path::Path, out: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                sources(&path, root, out);
            } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("retention/mod.rs") {
                let name = path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
                out.push((name, std::fs::read_to_string(&path).unwrap()));
            }
        }
    }

    #[test]
    fn every_running_sum_has_a_bound() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        sources(&root, &root, &mut files);
        let mut unbounded = Vec::new();
        let mut seen = 0;
        for (file, text) in &files {
            for (column, saturates) in running_sums(text) {
                seen += 1;
                if !saturates && !BOUNDED_SUMS.iter().any(|(f, c, why)| f == file && *c == column && !why.is_empty()) {
                    unbounded.push(format!("{file}: {column}"));
                }
            }
        }
        assert!(seen >= 10, "the scan found only {seen} running sums: it no longer reads the stores");
        assert_eq!(unbounded, Vec::<String>::new(), "running sums without a bound: saturate them at MAX_STORED_INTEGER or declare their bound");
        // the planted twins: a plain sum is caught; its saturating form is not
        let planted = concat!("UPD", "ATE totals SET spent_cents = totals.spent_cents + ?2 WHERE id = ?1");
        assert_eq!(running_sums(planted), [("spent_cents".to_string(), false)]);
        let saturating = concat!(
            "UPD",
            "ATE totals SET spent_cents = CASE WHEN totals.spent_cents > ?3 - ?2 THEN ?3 ELSE totals.spent_cents + ?2 END WHERE id = ?1"
        );
        assert_eq!(running_sums(saturating), [("spent_cents".to_string(), true)]);
        // Rust that adds a counted length later is no stored sum
        assert_eq!(running_sums("let windows = reads.len(); if results.len() != windows + extras {"), []);
    }
}
