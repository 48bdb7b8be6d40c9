//! The schema: portable DDL for SQLite, D1 and Postgres (BIGINT, DOUBLE
//! PRECISION and TEXT only; booleans are 0/1; times are unix seconds).

use crate::ports::{Stmt, Store, StoreError};

/// Schema version 1. Later versions append a new list to [`VERSIONS`]; a
/// released list is never edited.
const V1: &[&str] = &[
    "CREATE TABLE IF NOT EXISTS tenants (
        tenant_id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        environment TEXT NOT NULL,
        rate_limit_per_minute BIGINT NOT NULL,
        is_service BIGINT NOT NULL DEFAULT 0,
        suspended_at BIGINT,
        clock_offset_seconds BIGINT NOT NULL DEFAULT 0,
        created_at BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS api_keys (
        key_id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        key_hash TEXT NOT NULL UNIQUE,
        key_prefix TEXT NOT NULL,
        is_admin BIGINT NOT NULL,
        revoked_at BIGINT,
        created_at BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS audit_log (
        audit_id TEXT PRIMARY KEY,
        tenant_id TEXT,
        action TEXT NOT NULL,
        reason TEXT NOT NULL,
        key_prefix TEXT,
        request_id TEXT NOT NULL,
        at BIGINT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS audit_log_tenant ON audit_log (tenant_id, at)",
    "CREATE TABLE IF NOT EXISTS users (
        tenant_id TEXT NOT NULL,
        external_user_id TEXT NOT NULL,
        email TEXT NOT NULL,
        first_name TEXT NOT NULL,
        last_name TEXT NOT NULL,
        sanctions_status TEXT NOT NULL,
        last_screened_at BIGINT NOT NULL,
        screen_id TEXT NOT NULL,
        screen_fingerprint TEXT NOT NULL,
        screen_response TEXT NOT NULL,
        case_id TEXT,
        verified_tier TEXT NOT NULL,
        verified_at BIGINT,
        cumulative_withdrawn_cents BIGINT NOT NULL,
        version BIGINT NOT NULL,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, external_user_id))",
    "CREATE TABLE IF NOT EXISTS sanctions_cases (
        case_id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        external_user_id TEXT NOT NULL,
        status TEXT NOT NULL,
        match_count BIGINT NOT NULL,
        highest_score DOUBLE PRECISION NOT NULL,
        matches TEXT NOT NULL,
        reviewer TEXT,
        decided_at BIGINT,
        created_at BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS withdrawals (
        withdrawal_id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        external_user_id TEXT NOT NULL,
        amount_cents BIGINT NOT NULL,
        currency TEXT NOT NULL,
        status TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS kyc_checks (
        kyc_check_id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        external_user_id TEXT NOT NULL,
        target_tier TEXT NOT NULL,
        status TEXT NOT NULL,
        open_key TEXT UNIQUE,
        withdrawal_id TEXT NOT NULL,
        start_response TEXT NOT NULL,
        reviewer TEXT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS exclusions (
        exclusion_id TEXT PRIMARY KEY,
        seq BIGINT NOT NULL UNIQUE,
        environment TEXT NOT NULL,
        tenant_id TEXT NOT NULL,
        external_user_id TEXT,
        email TEXT,
        phone TEXT,
        duration TEXT NOT NULL,
        reason TEXT NOT NULL,
        source TEXT NOT NULL,
        effective_from BIGINT NOT NULL,
        expires_at BIGINT,
        regulator_propagated BIGINT NOT NULL,
        expiry_announced BIGINT NOT NULL DEFAULT 0,
        response TEXT NOT NULL,
        created_at BIGINT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS exclusions_email ON exclusions (environment, email)",
    "CREATE INDEX IF NOT EXISTS exclusions_phone ON exclusions (environment, phone)",
    "CREATE INDEX IF NOT EXISTS exclusions_user ON exclusions (tenant_id, external_user_id)",
    "CREATE TABLE IF NOT EXISTS deposit_limits (
        limit_id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        external_user_id TEXT NOT NULL,
        limit_type TEXT NOT NULL,
        amount_cents BIGINT NOT NULL,
        currency TEXT NOT NULL,
        status TEXT NOT NULL,
        effective_from BIGINT NOT NULL,
        user_version BIGINT NOT NULL,
        response TEXT NOT NULL,
        cancelled_at BIGINT,
        created_at BIGINT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS deposit_limits_user ON deposit_limits (tenant_id, external_user_id, limit_type)",
    "CREATE TABLE IF NOT EXISTS deposits (
        tenant_id TEXT NOT NULL,
        transaction_id TEXT NOT NULL,
        external_user_id TEXT NOT NULL,
        amount_cents BIGINT NOT NULL,
        currency TEXT NOT NULL,
        at BIGINT NOT NULL,
        response TEXT NOT NULL,
        PRIMARY KEY (tenant_id, transaction_id))",
    "CREATE INDEX IF NOT EXISTS deposits_user ON deposits (tenant_id, external_user_id, at)",
    "CREATE TABLE IF NOT EXISTS aml_events (
        tenant_id TEXT NOT NULL,
        transaction_id TEXT NOT NULL,
        aml_event_id TEXT NOT NULL UNIQUE,
        external_user_id TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        payload TEXT NOT NULL,
        response TEXT NOT NULL,
        review_status TEXT NOT NULL,
        received_at BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, transaction_id))",
    "CREATE TABLE IF NOT EXISTS outbox (
        event_id TEXT PRIMARY KEY,
        environment TEXT NOT NULL,
        tenant_id TEXT,
        event TEXT NOT NULL,
        envelope TEXT NOT NULL,
        dispatched BIGINT NOT NULL DEFAULT 0,
        created_at BIGINT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS outbox_pending ON outbox (dispatched, created_at)",
    "CREATE TABLE IF NOT EXISTS webhooks (
        webhook_id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        url TEXT NOT NULL,
        secret TEXT NOT NULL,
        previous_secret TEXT,
        previous_secret_expires_at BIGINT,
        disabled_at BIGINT,
        disabled_reason TEXT,
        deleted_at BIGINT,
        created_at BIGINT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS webhooks_tenant ON webhooks (tenant_id)",
    "CREATE TABLE IF NOT EXISTS webhook_deliveries (
        delivery_id TEXT PRIMARY KEY,
        event_id TEXT NOT NULL,
        webhook_id TEXT NOT NULL,
        tenant_id TEXT NOT NULL,
        status TEXT NOT NULL,
        attempts BIGINT NOT NULL,
        next_attempt_at BIGINT NOT NULL,
        last_attempt_at BIGINT,
        last_status BIGINT,
        last_error TEXT,
        created_at BIGINT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at)",
    "CREATE INDEX IF NOT EXISTS webhook_deliveries_webhook ON webhook_deliveries (webhook_id, created_at)",
    "CREATE TABLE IF NOT EXISTS webhook_attempts (
        attempt_id TEXT PRIMARY KEY,
        delivery_id TEXT NOT NULL,
        attempted_at BIGINT NOT NULL,
        status_code BIGINT,
        error TEXT)",
    "CREATE INDEX IF NOT EXISTS webhook_attempts_delivery ON webhook_attempts (delivery_id, attempted_at)",
    "CREATE TABLE IF NOT EXISTS exclusion_snapshots (
        environment TEXT NOT NULL,
        snapshot_date TEXT NOT NULL,
        taken_at BIGINT NOT NULL,
        through_seq BIGINT NOT NULL,
        active_count BIGINT NOT NULL,
        PRIMARY KEY (environment, snapshot_date))",
];

/// Schema version 2: a counter row that hands out exclusion sequence
/// numbers. Taking it locks concurrent registrations into commit order, so
/// snapshot pages keyed on the sequence never skip a row.
const V2: &[&str] = &[
    "CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value BIGINT NOT NULL)",
    "INSERT INTO counters (name, value) SELECT 'exclusion_seq', COALESCE(MAX(seq), 0) FROM exclusions WHERE 1 = 1 ON CONFLICT (name) DO NOTHING",
];

/// Schema version 3: the decision log; what the service knows of a user for
/// the deposit gate (KYC e-mail and phone) and their withdrawal currency;
/// withdrawals idempotent on the operator's `withdrawal_id`; the
/// `Idempotency-Key` header; regulator eligibility apart from propagation;
/// the review due time of a sanctions case.
/// The decision log: a decision that changes state is a row of `decisions`,
/// written with the change; read-only decisions are written in pages, one row
/// per flush chunk, because a row each cost the cheap checks a fifth of their
/// throughput. Both are keyed by time-ordered ids, so a time window is a key
/// range, and have no other index.
const V3: &[&str] = &[
    "CREATE TABLE IF NOT EXISTS decisions (
        decision_id TEXT PRIMARY KEY,
        operation TEXT NOT NULL,
        environment TEXT NOT NULL,
        tenant_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        decided_at BIGINT NOT NULL,
        rules_version TEXT NOT NULL,
        rules_sha256 TEXT NOT NULL,
        input TEXT NOT NULL,
        output TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS decision_pages (
        page_id TEXT PRIMARY KEY,
        last_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        decided_to BIGINT NOT NULL,
        rules_version TEXT NOT NULL,
        rules_sha256 TEXT NOT NULL,
        entries TEXT NOT NULL)",
    "ALTER TABLE audit_log ADD COLUMN environment TEXT",
    "ALTER TABLE audit_log ADD COLUMN actor_key_id TEXT",
    "ALTER TABLE audit_log ADD COLUMN resource TEXT",
    "CREATE INDEX IF NOT EXISTS audit_log_actions ON audit_log (environment, actor_key_id, at)",
    "ALTER TABLE users ADD COLUMN kyc_email TEXT",
    "ALTER TABLE users ADD COLUMN kyc_phone TEXT",
    "ALTER TABLE users ADD COLUMN withdrawal_currency TEXT",
    "ALTER TABLE withdrawals ADD COLUMN client_withdrawal_id TEXT",
    "ALTER TABLE withdrawals ADD COLUMN request_fingerprint TEXT",
    "ALTER TABLE withdrawals ADD COLUMN response TEXT",
    "CREATE UNIQUE INDEX IF NOT EXISTS withdrawals_client_id ON withdrawals (tenant_id, client_withdrawal_id)",
    "CREATE TABLE IF NOT EXISTS idempotency_keys (
        tenant_id TEXT NOT NULL,
        idempotency_key TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        status_code BIGINT,
        response TEXT,
        locked_until BIGINT NOT NULL,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, idempotency_key))",
    "ALTER TABLE exclusions ADD COLUMN regulator_eligible BIGINT NOT NULL DEFAULT 0",
    "ALTER TABLE exclusions ADD COLUMN regulator_exported_at BIGINT",
    "UPDATE exclusions SET regulator_eligible = regulator_propagated WHERE 1 = 1",
    "UPDATE exclusions SET regulator_propagated = 0 WHERE source = 'operator'",
    "ALTER TABLE sanctions_cases ADD COLUMN review_due_at BIGINT",
    "CREATE INDEX IF NOT EXISTS users_kyc_email ON users (kyc_email)",
    "CREATE INDEX IF NOT EXISTS kyc_checks_status ON kyc_checks (environment, status, updated_at)",
];

/// Sanctions lists: each import is a list row, its entries and their index
/// keys; one list per environment and source is active, and a new import
/// becomes active in one batch, so a screening never sees half a list.
const V4: &[&str] = &[
    "CREATE TABLE IF NOT EXISTS sanctions_lists (
        list_id TEXT PRIMARY KEY,
        environment TEXT NOT NULL,
        source TEXT NOT NULL,
        format TEXT NOT NULL,
        version TEXT NOT NULL,
        entry_count BIGINT NOT NULL,
        changed_count BIGINT NOT NULL,
        status TEXT NOT NULL,
        imported_at BIGINT NOT NULL,
        activated_at BIGINT,
        rescreen_pending BIGINT NOT NULL DEFAULT 0,
        rescreen_tenant TEXT NOT NULL DEFAULT '',
        rescreen_user TEXT NOT NULL DEFAULT '')",
    "CREATE UNIQUE INDEX IF NOT EXISTS sanctions_lists_active ON sanctions_lists (environment, source) WHERE status = 'active'",
    "CREATE TABLE IF NOT EXISTS sanctions_entries (
        list_id TEXT NOT NULL,
        entry_no BIGINT NOT NULL,
        entity_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        names TEXT NOT NULL,
        dates_of_birth TEXT NOT NULL,
        nationalities TEXT NOT NULL,
        programs TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        changed BIGINT NOT NULL,
        PRIMARY KEY (list_id, entry_no))",
    "CREATE INDEX IF NOT EXISTS sanctions_entries_entity ON sanctions_entries (list_id, entity_id)",
    "CREATE TABLE IF NOT EXISTS auth_failure_counts (
        minute BIGINT NOT NULL,
        source TEXT NOT NULL,
        reason TEXT NOT NULL,
        failures BIGINT NOT NULL,
        first_request_id TEXT NOT NULL,
        last_key_prefix TEXT,
        PRIMARY KEY (minute, source, reason))",
    "ALTER TABLE users ADD COLUMN date_of_birth TEXT",
    "ALTER TABLE users ADD COLUMN nationality TEXT",
    "CREATE TABLE IF NOT EXISTS sanctions_keys (
        list_id TEXT NOT NULL,
        index_key TEXT NOT NULL,
        entry_no BIGINT NOT NULL,
        PRIMARY KEY (list_id, index_key, entry_no))",
];

/// Every schema version, in order.
/// Version 5: the per-key request counters that several hosts on one database share.
const V5: &[&str] = &["CREATE TABLE IF NOT EXISTS rate_windows (
        key_id TEXT NOT NULL,
        window_start BIGINT NOT NULL,
        used BIGINT NOT NULL,
        PRIMARY KEY (key_id, window_start))"];

/// Version 6: list imports staged in chunks for hosts that load them over
/// several invocations, who asked for each import, and the due time of
/// each configured list refresh, claimed by one host at a time.
const V6: &[&str] = &[
    "CREATE TABLE IF NOT EXISTS sanctions_import_chunks (
        list_id TEXT NOT NULL,
        chunk_no BIGINT NOT NULL,
        entries TEXT NOT NULL,
        PRIMARY KEY (list_id, chunk_no))",
    "ALTER TABLE sanctions_lists ADD COLUMN imported_by TEXT",
    "CREATE TABLE IF NOT EXISTS list_refreshes (
        environment TEXT NOT NULL,
        source TEXT NOT NULL,
        next_at BIGINT NOT NULL,
        PRIMARY KEY (environment, source))",
];

/// Version 7: each user's deposits summed by hour, kept in the batch of
/// each commit, so that a window's spend reads a bounded number of rows.
const V7: &[&str] = &[
    "CREATE TABLE IF NOT EXISTS deposit_hours (
        tenant_id TEXT NOT NULL,
        external_user_id TEXT NOT NULL,
        hour BIGINT NOT NULL,
        amount_cents BIGINT NOT NULL,
        first_at BIGINT NOT NULL,
        last_at BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, external_user_id, hour))",
    "INSERT INTO deposit_hours (tenant_id, external_user_id, hour, amount_cents, first_at, last_at)
     SELECT tenant_id, external_user_id, at / 3600, SUM(amount_cents), MIN(at), MAX(at) FROM deposits GROUP BY tenant_id, external_user_id, at / 3600",
];

/// Version 8: each tenant's jurisdiction, the rules profile its decisions take.
const V8: &[&str] = &["ALTER TABLE tenants ADD COLUMN jurisdiction TEXT NOT NULL DEFAULT 'default'"];

/// Version 9: screening beyond sanctions, off until a tenant switches it on:
/// why each list entry is listed, what each case asks of the team, and each
/// tenant's switches.
const V9: &[&str] = &[
    "ALTER TABLE sanctions_entries ADD COLUMN topic TEXT NOT NULL DEFAULT 'sanction'",
    "ALTER TABLE sanctions_cases ADD COLUMN kind TEXT NOT NULL DEFAULT 'sanctions_hit'",
    "ALTER TABLE tenants ADD COLUMN screen_pep BIGINT NOT NULL DEFAULT 0",
    "ALTER TABLE tenants ADD COLUMN screen_adverse_media BIGINT NOT NULL DEFAULT 0",
];

/// Version 10: the reason a person gave for a check's manual decision.
const V10: &[&str] = &["ALTER TABLE kyc_checks ADD COLUMN review_reason TEXT"];

/// V11: the expiry of a check's vendor token (to re-issue an expired one) and its escalation to a person.
const V11: &[&str] = &[
    "ALTER TABLE kyc_checks ADD COLUMN vendor_token_expires_at BIGINT",
    "ALTER TABLE kyc_checks ADD COLUMN escalation TEXT",
    "ALTER TABLE kyc_checks ADD COLUMN escalated_at BIGINT",
];

/// V12: matches a reviewer dismissed, per user and entry, with the entry's
/// fingerprint then: later screenings set them aside until it changes.
const V12: &[&str] = &["CREATE TABLE IF NOT EXISTS dismissed_matches (
        tenant_id TEXT NOT NULL,
        external_user_id TEXT NOT NULL,
        source TEXT NOT NULL,
        entity_id TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        case_id TEXT NOT NULL,
        dismissed_at BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, external_user_id, source, entity_id))"];

/// V13: the compliance team's console accounts (one per e-mail address and environment).
const V13: &[&str] = &["CREATE TABLE IF NOT EXISTS console_accounts (
        person_id TEXT PRIMARY KEY,
        environment TEXT NOT NULL,
        email TEXT NOT NULL,
        role TEXT NOT NULL,
        password_hash TEXT NOT NULL,
        must_change_password BIGINT NOT NULL,
        totp_secret TEXT NOT NULL,
        last_totp_step BIGINT NOT NULL,
        failed_sign_ins BIGINT NOT NULL DEFAULT 0,
        locked_until BIGINT NOT NULL DEFAULT 0,
        disabled_at BIGINT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        UNIQUE (environment, email))"];

/// V14: people's sessions (tokens stored as SHA-256), and the case file the
/// team keeps on each case: its assignee and pending proposal (`case_work`,
/// a row from the first action on the case) and its append-only timeline.
const V14: &[&str] = &[
    "CREATE TABLE IF NOT EXISTS console_sessions (
        session_hash TEXT PRIMARY KEY,
        person_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        last_seen_at BIGINT NOT NULL,
        ended_at BIGINT)",
    "CREATE TABLE IF NOT EXISTS case_work (
        case_id TEXT PRIMARY KEY,
        environment TEXT NOT NULL,
        assignee TEXT,
        tags TEXT NOT NULL DEFAULT '[]',
        proposal_id TEXT,
        proposed_outcome TEXT,
        proposal_reason TEXT,
        proposed_by TEXT,
        proposed_at BIGINT,
        proposal_evidence TEXT,
        version BIGINT NOT NULL,
        updated_at BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS case_events (
        event_id TEXT PRIMARY KEY,
        case_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        kind TEXT NOT NULL,
        actor TEXT NOT NULL,
        detail TEXT NOT NULL,
        at BIGINT NOT NULL,
        seq BIGINT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS case_events_by_case ON case_events (case_id, seq)",
];

/// V15: AML monitoring. Each event's decision; per-user buckets (hours and
/// gaming days by currency and payment method), deposit size classes,
/// instruments and counterparty pairs, written in the event's batch; the
/// user's standing on `users`; alerts, grouped into one open case per user
/// (`open_key` is set while the case is open, so a second open case loses on
/// its key); when each typology last alerted; the tenant's gaming day.
const V15: &[&str] = &[
    "ALTER TABLE aml_events ADD COLUMN event_at BIGINT",
    "ALTER TABLE aml_events ADD COLUMN decision_id TEXT",
    "ALTER TABLE aml_events ADD COLUMN outcome TEXT",
    "ALTER TABLE aml_events ADD COLUMN verified_tier TEXT",
    "CREATE INDEX IF NOT EXISTS aml_events_by_time ON aml_events (received_at)",
    "ALTER TABLE users ADD COLUMN aml_withdrawals_held BIGINT NOT NULL DEFAULT 0",
    "ALTER TABLE users ADD COLUMN aml_cdd_tier TEXT",
    "ALTER TABLE users ADD COLUMN aml_last_seen_at BIGINT",
    "ALTER TABLE tenants ADD COLUMN gaming_day_cutoff_minutes BIGINT NOT NULL DEFAULT 0",
    "ALTER TABLE tenants ADD COLUMN gaming_day_time_zone TEXT NOT NULL DEFAULT 'UTC'",
    "CREATE TABLE IF NOT EXISTS aml_buckets (
        tenant_id TEXT NOT NULL,
        external_user_id TEXT NOT NULL,
        span TEXT NOT NULL,
        start BIGINT NOT NULL,
        currency TEXT NOT NULL,
        payment_method TEXT NOT NULL,
        in_cents BIGINT NOT NULL,
        in_count BIGINT NOT NULL,
        out_cents BIGINT NOT NULL,
        out_count BIGINT NOT NULL,
        wagered_cents BIGINT NOT NULL,
        won_cents BIGINT NOT NULL,
        largest_in_cents BIGINT NOT NULL,
        largest_out_cents BIGINT NOT NULL,
        near_threshold_count BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, external_user_id, span, start, currency, payment_method))",
    "CREATE TABLE IF NOT EXISTS aml_deposit_classes (
        tenant_id TEXT NOT NULL,
        external_user_id TEXT NOT NULL,
        size_class BIGINT NOT NULL,
        deposits BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, external_user_id, size_class))",
    "CREATE TABLE IF NOT EXISTS aml_instruments (
        tenant_id TEXT NOT NULL,
        external_user_id TEXT NOT NULL,
        instrument TEXT NOT NULL,
        first_seen_at BIGINT NOT NULL,
        last_seen_at BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, external_user_id, instrument))",
    "CREATE TABLE IF NOT EXISTS aml_pairs (
        tenant_id TEXT NOT NULL,
        from_user_id TEXT NOT NULL,
        to_user_id TEXT NOT NULL,
        transfers BIGINT NOT NULL,
        cents BIGINT NOT NULL,
        first_at BIGINT NOT NULL,
        last_at BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, from_user_id, to_user_id))",
    "CREATE TABLE IF NOT EXISTS aml_cases (
        case_id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        external_user_id TEXT NOT NULL,
        status TEXT NOT NULL,
        open_key TEXT UNIQUE,
        typologies TEXT NOT NULL,
        actions TEXT NOT NULL,
        alert_count BIGINT NOT NULL,
        opened_at BIGINT NOT NULL,
        due_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        closed_at BIGINT,
        outcome TEXT,
        reviewer TEXT)",
    "CREATE INDEX IF NOT EXISTS aml_cases_by_status ON aml_cases (environment, status, due_at)",
    "CREATE TABLE IF NOT EXISTS aml_alerts (
        alert_id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        external_user_id TEXT NOT NULL,
        case_id TEXT NOT NULL,
        aml_event_id TEXT NOT NULL,
        typologies TEXT NOT NULL,
        outcome TEXT NOT NULL,
        actions TEXT NOT NULL,
        explanation TEXT NOT NULL,
        decision_id TEXT NOT NULL,
        created_at BIGINT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS aml_alerts_by_user ON aml_alerts (tenant_id, external_user_id, created_at)",
    "CREATE INDEX IF NOT EXISTS aml_alerts_by_time ON aml_alerts (environment, created_at)",
    "CREATE INDEX IF NOT EXISTS aml_alerts_by_case ON aml_alerts (case_id, created_at)",
    "CREATE INDEX IF NOT EXISTS aml_alerts_by_event ON aml_alerts (aml_event_id)",
    "CREATE TABLE IF NOT EXISTS aml_shadow_disagreements (
        disagreement_id TEXT PRIMARY KEY,
        environment TEXT NOT NULL,
        tenant_id TEXT NOT NULL,
        aml_event_id TEXT NOT NULL,
        decision_id TEXT NOT NULL,
        shadow_rules_sha256 TEXT NOT NULL,
        live_outcome TEXT NOT NULL,
        shadow_outcome TEXT NOT NULL,
        live_alert TEXT NOT NULL,
        shadow_alert TEXT NOT NULL,
        at BIGINT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS aml_shadow_by_time ON aml_shadow_disagreements (environment, at)",
    "CREATE TABLE IF NOT EXISTS aml_alerted (
        tenant_id TEXT NOT NULL,
        external_user_id TEXT NOT NULL,
        typology TEXT NOT NULL,
        at BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, external_user_id, typology))",
];

/// V16: an index on the time column of each table the retention sweep
/// prunes, so that finding expired rows is never a scan.
const V16: &[&str] = &[
    "CREATE INDEX IF NOT EXISTS deposits_by_time ON deposits (at)",
    "CREATE INDEX IF NOT EXISTS deposit_hours_by_hour ON deposit_hours (hour)",
    "CREATE INDEX IF NOT EXISTS audit_log_by_time ON audit_log (at)",
    "CREATE INDEX IF NOT EXISTS decision_pages_by_time ON decision_pages (decided_to)",
    "CREATE INDEX IF NOT EXISTS idempotency_keys_by_time ON idempotency_keys (created_at)",
    "CREATE INDEX IF NOT EXISTS rate_windows_by_time ON rate_windows (window_start)",
    "CREATE INDEX IF NOT EXISTS webhook_deliveries_by_time ON webhook_deliveries (created_at)",
    "CREATE INDEX IF NOT EXISTS webhook_attempts_by_time ON webhook_attempts (attempted_at)",
    "CREATE INDEX IF NOT EXISTS console_sessions_by_time ON console_sessions (last_seen_at)",
    "CREATE INDEX IF NOT EXISTS aml_events_by_time ON aml_events (received_at)",
    "CREATE INDEX IF NOT EXISTS aml_pairs_by_time ON aml_pairs (last_at)",
    "CREATE INDEX IF NOT EXISTS aml_buckets_by_start ON aml_buckets (start)",
    "CREATE INDEX IF NOT EXISTS aml_instruments_by_time ON aml_instruments (last_seen_at)",
    "CREATE INDEX IF NOT EXISTS aml_alerted_by_time ON aml_alerted (at)",
    "CREATE INDEX IF NOT EXISTS aml_shadow_by_at ON aml_shadow_disagreements (at)",
    // the W3C trace context of the request that fired each event, passed on to its webhooks
    "ALTER TABLE outbox ADD COLUMN traceparent TEXT",
];

/// V17: an `Idempotency-Key` belongs to the credential that sent it (a
/// key's id, or a person's): `scope` joins the primary key. The table is
/// made anew (a primary key cannot be altered in SQLite); keys are kept a
/// day, and the ones of the day of the upgrade are not carried over.
const V17: &[&str] = &[
    "CREATE TABLE IF NOT EXISTS idempotency_keys_scoped (
        tenant_id TEXT NOT NULL,
        scope TEXT NOT NULL,
        idempotency_key TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        status_code BIGINT,
        response TEXT,
        locked_until BIGINT NOT NULL,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, scope, idempotency_key))",
    "DROP TABLE IF EXISTS idempotency_keys",
    "ALTER TABLE idempotency_keys_scoped RENAME TO idempotency_keys",
    "CREATE INDEX IF NOT EXISTS idempotency_keys_by_time ON idempotency_keys (created_at)",
];

/// V18: the regulator's import claims each e-mail and phone it excludes
/// (one regulator exclusion per identifier and environment), so that two
/// imports at once add an entry once; filled from the imports before it
/// (the first exclusion of an identifier keeps it).
const V18: &[&str] = &[
    "CREATE TABLE IF NOT EXISTS regulator_claims (
        environment TEXT NOT NULL,
        identifier TEXT NOT NULL,
        exclusion_id TEXT NOT NULL,
        PRIMARY KEY (environment, identifier))",
    "INSERT INTO regulator_claims (environment, identifier, exclusion_id)
     SELECT environment, 'email:' || email, MIN(exclusion_id) FROM exclusions
      WHERE source = 'regulator_comprehensive' AND email IS NOT NULL GROUP BY environment, email
     ON CONFLICT (environment, identifier) DO NOTHING",
    "INSERT INTO regulator_claims (environment, identifier, exclusion_id)
     SELECT environment, 'phone:' || phone, MIN(exclusion_id) FROM exclusions
      WHERE source = 'regulator_comprehensive' AND phone IS NOT NULL GROUP BY environment, phone
     ON CONFLICT (environment, identifier) DO NOTHING",
];

/// V19: a committed deposit's natural key, kept for the record-keeping
/// period after the deposit itself is pruned (31 days), so that a retried
/// `limits/commit` is answered as before and never counted twice; filled
/// from the deposits still kept.
const V19: &[&str] = &[
    "CREATE TABLE IF NOT EXISTS deposit_transactions (
        tenant_id TEXT NOT NULL,
        transaction_id TEXT NOT NULL,
        external_user_id TEXT NOT NULL,
        amount_cents BIGINT NOT NULL,
        currency TEXT NOT NULL,
        committed_at BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, transaction_id))",
    "CREATE INDEX IF NOT EXISTS deposit_transactions_by_time ON deposit_transactions (committed_at)",
    "INSERT INTO deposit_transactions (tenant_id, transaction_id, external_user_id, amount_cents, currency, committed_at)
     SELECT tenant_id, transaction_id, external_user_id, amount_cents, currency, at FROM deposits WHERE at IS NOT NULL
     ON CONFLICT (tenant_id, transaction_id) DO NOTHING",
];

/// V20: reference exchange rates for AML monitoring, each import a
/// version named by its SHA-256 (`gateway/src/rates/`); the rate an AML
/// event was converted at, kept with the event for backtests; withdrawals
/// pruned by their last change (retention).
const V20: &[&str] = &[
    "CREATE TABLE IF NOT EXISTS aml_rate_versions (
        environment TEXT NOT NULL,
        version TEXT NOT NULL,
        rate_count BIGINT NOT NULL,
        imported_by TEXT NOT NULL,
        imported_at BIGINT NOT NULL,
        PRIMARY KEY (environment, version))",
    "CREATE INDEX IF NOT EXISTS aml_rate_versions_by_time ON aml_rate_versions (environment, imported_at)",
    "CREATE TABLE IF NOT EXISTS aml_rates (
        environment TEXT NOT NULL,
        version TEXT NOT NULL,
        rate_date TEXT NOT NULL,
        currency TEXT NOT NULL,
        per_unit_of TEXT NOT NULL,
        rate_units BIGINT NOT NULL,
        rate_scale BIGINT NOT NULL,
        PRIMARY KEY (environment, version, rate_date, currency, per_unit_of))",
    "CREATE INDEX IF NOT EXISTS aml_rates_by_pair ON aml_rates (environment, version, currency, per_unit_of, rate_date)",
    "ALTER TABLE aml_events ADD COLUMN rate TEXT",
    "CREATE INDEX IF NOT EXISTS withdrawals_by_update ON withdrawals (updated_at)",
];

/// V21: the rules version (component SHA-256) each user was last screened
/// under, so a new version re-screens every active user once, whatever the
/// sandbox clocks did since; users of before are screened under none.
const V21: &[&str] = &["ALTER TABLE users ADD COLUMN screened_under TEXT"];

/// The replication heartbeat: one row, the time (unix milliseconds) of the
/// latest beat scheduled work wrote on the primary. A replica's copy of it
/// dates everything else the replica holds (the exclusion check's fence).
const V_REPLICA_HEARTBEAT: &[&str] = &["CREATE TABLE IF NOT EXISTS replication_heartbeat (id BIGINT PRIMARY KEY, at_ms BIGINT NOT NULL)"];

/// Regulator filings (issue #31): the drafts officers make from AML cases
/// and CTR candidates, kept with their case (`aml_filings`: record class
/// "AML events, alerts, cases and filings"; `subject` holds the identity an
/// officer supplied for this filing only, `redacted_at` marks an erased one),
/// and each tenant's filing settings (FinCEN filer, goAML FIU profile).
const V_FILINGS: &[&str] = &[
    "CREATE TABLE IF NOT EXISTS aml_filings (
        filing_id TEXT PRIMARY KEY,
        environment TEXT NOT NULL,
        tenant_id TEXT NOT NULL,
        external_user_id TEXT NOT NULL,
        case_id TEXT NOT NULL,
        alert_id TEXT,
        format TEXT NOT NULL,
        valid BIGINT NOT NULL,
        errors TEXT NOT NULL,
        xml TEXT,
        subject TEXT,
        created_by TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        redacted_at BIGINT)",
    "CREATE INDEX IF NOT EXISTS aml_filings_by_case ON aml_filings (environment, case_id, created_at)",
    "CREATE INDEX IF NOT EXISTS aml_filings_by_user ON aml_filings (tenant_id, external_user_id)",
    "CREATE TABLE IF NOT EXISTS filing_settings (
        tenant_id TEXT PRIMARY KEY,
        environment TEXT NOT NULL,
        settings TEXT NOT NULL,
        updated_at BIGINT NOT NULL)",
];

/// Erasure (issue #31): the end of a player's business relationship, the
/// restriction and redaction marks of their records, and the erasure jobs
/// (one per player; `classes` is each class's date and state as JSON), with
/// the indexes that find a player's rows without a scan.
const V_ERASURE: &[&str] = &[
    "ALTER TABLE users ADD COLUMN closed_at BIGINT",
    "ALTER TABLE users ADD COLUMN restricted_at BIGINT",
    "ALTER TABLE users ADD COLUMN redacted_at BIGINT",
    "ALTER TABLE kyc_checks ADD COLUMN redacted_at BIGINT",
    "ALTER TABLE exclusions ADD COLUMN redacted_at BIGINT",
    "ALTER TABLE deposit_limits ADD COLUMN redacted_at BIGINT",
    "CREATE TABLE IF NOT EXISTS erasures (
        erasure_id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        external_user_id TEXT NOT NULL,
        state TEXT NOT NULL,
        requested_by TEXT NOT NULL,
        relationship_end BIGINT NOT NULL,
        classes TEXT NOT NULL,
        next_due_at BIGINT,
        hash_key TEXT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        completed_at BIGINT,
        UNIQUE (tenant_id, external_user_id))",
    "CREATE INDEX IF NOT EXISTS erasures_due ON erasures (state, next_due_at)",
    "CREATE INDEX IF NOT EXISTS users_closed ON users (closed_at)",
    "CREATE INDEX IF NOT EXISTS aml_events_by_user ON aml_events (tenant_id, external_user_id)",
    "CREATE INDEX IF NOT EXISTS withdrawals_by_user ON withdrawals (tenant_id, external_user_id)",
    "CREATE INDEX IF NOT EXISTS deposit_transactions_by_user ON deposit_transactions (tenant_id, external_user_id)",
    "CREATE INDEX IF NOT EXISTS aml_cases_by_user ON aml_cases (tenant_id, external_user_id)",
    "CREATE INDEX IF NOT EXISTS kyc_checks_by_user ON kyc_checks (tenant_id, external_user_id)",
    "CREATE INDEX IF NOT EXISTS sanctions_cases_by_user ON sanctions_cases (tenant_id, external_user_id)",
    "CREATE INDEX IF NOT EXISTS aml_pairs_to_user ON aml_pairs (tenant_id, to_user_id)",
    "CREATE INDEX IF NOT EXISTS audit_log_by_resource ON audit_log (tenant_id, resource)",
];

/// The retention table's rows found by what dates them (issue #31): the
/// decisions by player and time (the erasure deletes a player's on the
/// decision log's date; the sweep prunes those about no player, `user_id`
/// empty, as a range, never walking the players' older ones it keeps), and
/// ended exclusions not yet redacted by their end (redacted the profile's
/// time after it).
const V_BY_WHAT_DATES_THEM: &[&str] = &[
    "CREATE INDEX IF NOT EXISTS decisions_by_user ON decisions (user_id, decision_id)",
    "CREATE INDEX IF NOT EXISTS exclusions_ending ON exclusions (expires_at) WHERE redacted_at IS NULL",
];

/// When each user was last screened whole (every list entry, and
/// production's vendor): the quarterly re-screen counts from it, not from a
/// list update's re-screen of its changed entries. A user of before has
/// none: their last screening stands for it, and the first re-screen that is
/// not whole keeps that (`sanctions::store::record_rescreen`).
const V_WHOLE_SCREENING: &[&str] = &["ALTER TABLE users ADD COLUMN whole_screened_at BIGINT"];

/// Each reservation of an `Idempotency-Key` names itself (a random id), and
/// its answer or release is written only where the key still holds it: a
/// lock time in whole seconds can repeat. Rows of before have none.
const V_IDEMPOTENCY_LOCK_ID: &[&str] = &["ALTER TABLE idempotency_keys ADD COLUMN lock_id TEXT"];

/// When a user's screening last brought new evidence to a case of theirs
/// (a pending four-eyes proposal made before it is dropped): a whole
/// screening, or a list update's re-screen that matched a changed entry or
/// found an entry a case matched changed or gone. A list update that concerns
/// nobody's case leaves it. Rows of before have none: their last screening
/// stands for it (`sanctions::store::record_rescreen`).
const V_SCREENING_EVIDENCE: &[&str] = &["ALTER TABLE users ADD COLUMN evidence_at BIGINT"];

/// Contacts compared as the networks deliver them (issue #45): beside the
/// e-mail and phone each exclusion and user stores (shown as before), the
/// keys they are compared by (`input::email_key`, `input::Phone::key`: the
/// IDNA domain and the providers' alias rules; E.164), and the version of
/// the keys each row was keyed under. Rows of before are keyed under none (0)
/// and matched by their stored forms until the scheduled re-key
/// (`exclusions::rekey_contacts`, a bounded batch a round) keys them.
const V_CONTACT_KEYS: &[&str] = &[
    "ALTER TABLE exclusions ADD COLUMN email_key TEXT",
    "ALTER TABLE exclusions ADD COLUMN phone_key TEXT",
    "ALTER TABLE exclusions ADD COLUMN keys_version BIGINT NOT NULL DEFAULT 0",
    "CREATE INDEX IF NOT EXISTS exclusions_email_key ON exclusions (environment, email_key)",
    "CREATE INDEX IF NOT EXISTS exclusions_phone_key ON exclusions (environment, phone_key)",
    "CREATE INDEX IF NOT EXISTS exclusions_by_keys_version ON exclusions (keys_version, seq)",
    "ALTER TABLE users ADD COLUMN email_key TEXT",
    "ALTER TABLE users ADD COLUMN kyc_email_key TEXT",
    "ALTER TABLE users ADD COLUMN kyc_phone_key TEXT",
    "ALTER TABLE users ADD COLUMN keys_version BIGINT NOT NULL DEFAULT 0",
    "CREATE INDEX IF NOT EXISTS users_by_keys_version ON users (keys_version, tenant_id, external_user_id)",
];

/// Deposit limits count each currency at the reference rates (issue #46):
/// the hourly sums of deposits kept per currency, refilled from the
/// deposits still kept (every hour a window reads), the table rebuilt under
/// its name with its index.
const V_DEPOSIT_HOUR_CURRENCIES: &[&str] = &[
    "CREATE TABLE IF NOT EXISTS deposit_currency_hours (
        tenant_id TEXT NOT NULL,
        external_user_id TEXT NOT NULL,
        hour BIGINT NOT NULL,
        currency TEXT NOT NULL,
        amount_cents BIGINT NOT NULL,
        first_at BIGINT NOT NULL,
        last_at BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, external_user_id, hour, currency))",
    "INSERT INTO deposit_currency_hours (tenant_id, external_user_id, hour, currency, amount_cents, first_at, last_at)
     SELECT tenant_id, external_user_id, at / 3600, currency, SUM(amount_cents), MIN(at), MAX(at) FROM deposits
      GROUP BY tenant_id, external_user_id, at / 3600, currency",
    "DROP TABLE deposit_hours",
    "ALTER TABLE deposit_currency_hours RENAME TO deposit_hours",
    "CREATE INDEX IF NOT EXISTS deposit_hours_by_hour ON deposit_hours (hour)",
];

/// National exclusion registers (issue #47): each tenant's registers (their
/// credentials sealed), every register call of a check as evidence, and each
/// player's standing at each register with the pseudonymous code it gave.
/// No national identifier is stored.
const V_NATIONAL_REGISTERS: &[&str] = &[
    "CREATE TABLE IF NOT EXISTS register_settings (
        tenant_id TEXT NOT NULL,
        register TEXT NOT NULL,
        base_url TEXT NOT NULL,
        credentials TEXT NOT NULL,
        purposes TEXT NOT NULL,
        on_outage TEXT NOT NULL,
        updated_at BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, register))",
    "CREATE TABLE IF NOT EXISTS register_checks (
        check_id TEXT NOT NULL,
        seq BIGINT NOT NULL,
        tenant_id TEXT NOT NULL,
        external_user_id TEXT NOT NULL,
        register TEXT NOT NULL,
        purpose TEXT NOT NULL,
        status TEXT NOT NULL,
        reference TEXT,
        request_id TEXT NOT NULL,
        checked_at BIGINT NOT NULL,
        at_ms BIGINT NOT NULL,
        latency_ms BIGINT NOT NULL,
        reason TEXT,
        PRIMARY KEY (check_id, seq))",
    "CREATE INDEX IF NOT EXISTS register_checks_by_user ON register_checks (tenant_id, external_user_id, at_ms)",
    "CREATE INDEX IF NOT EXISTS register_checks_by_time ON register_checks (checked_at)",
    "CREATE TABLE IF NOT EXISTS register_players (
        tenant_id TEXT NOT NULL,
        external_user_id TEXT NOT NULL,
        register TEXT NOT NULL,
        status TEXT NOT NULL,
        checked_at BIGINT NOT NULL,
        at_ms BIGINT NOT NULL,
        code TEXT,
        batch_identity TEXT,
        PRIMARY KEY (tenant_id, external_user_id, register))",
    "CREATE TABLE IF NOT EXISTS register_batches (
        tenant_id TEXT NOT NULL,
        register TEXT NOT NULL,
        started_at BIGINT NOT NULL,
        cursor TEXT NOT NULL,
        next_at_ms BIGINT NOT NULL,
        finished_at BIGINT,
        PRIMARY KEY (tenant_id, register))",
];

/// Issue #48: who made each console account (an approval is refused between
/// an account and the one who made it), and the first admin's request to
/// enable a disabled account where a second must agree.
/// And the devices a person signed in from (issue #48 item 4), by the
/// SHA-256 of the token each carries: their failures are counted apart
/// from strangers'.
const V_TEAM_ACCOUNTS: &[&str] = &[
    "ALTER TABLE console_accounts ADD COLUMN created_by TEXT",
    "ALTER TABLE console_accounts ADD COLUMN enable_proposed_by TEXT",
    "CREATE TABLE IF NOT EXISTS console_devices (
        device_hash TEXT PRIMARY KEY,
        person_id TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        last_used_at BIGINT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS console_devices_by_person ON console_devices (person_id, last_used_at)",
];

/// A player's access requests (issue #48 item 6): one open a player (its
/// `open_key`, cleared on delivery), the export and the withholdings the team
/// released, the profile it was dated under.
const V_ACCESS_REQUESTS: &[&str] = &[
    "CREATE TABLE IF NOT EXISTS access_requests (
        access_request_id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        external_user_id TEXT NOT NULL,
        state TEXT NOT NULL,
        open_key TEXT UNIQUE,
        jurisdiction TEXT NOT NULL,
        received_at BIGINT NOT NULL,
        due_at BIGINT NOT NULL,
        withheld TEXT NOT NULL,
        export TEXT,
        released_by TEXT,
        released_at BIGINT,
        delivered_at BIGINT,
        created_at BIGINT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS access_requests_by_user ON access_requests (tenant_id, external_user_id)",
    "CREATE INDEX IF NOT EXISTS access_requests_waiting ON access_requests (environment, state, received_at)",
    // the export reads a tenant's events (those naming the player), not every tenant's
    "CREATE INDEX IF NOT EXISTS outbox_by_tenant ON outbox (tenant_id, created_at)",
];

/// Issue #48 item 1: console accounts that sign in through the team's
/// identity provider, by its issuer and subject (one account a subject in an
/// environment), and the sign-ins begun there (by the SHA-256 of their
/// state, each finished once, pruned after a day).
const V_OIDC: &[&str] = &[
    "ALTER TABLE console_accounts ADD COLUMN oidc_issuer TEXT",
    "ALTER TABLE console_accounts ADD COLUMN oidc_subject TEXT",
    "CREATE UNIQUE INDEX IF NOT EXISTS console_accounts_by_subject ON console_accounts (environment, oidc_issuer, oidc_subject)",
    "CREATE TABLE IF NOT EXISTS oidc_logins (
        state_hash TEXT PRIMARY KEY,
        environment TEXT NOT NULL,
        nonce TEXT NOT NULL,
        verifier TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        used_at BIGINT)",
    "CREATE INDEX IF NOT EXISTS oidc_logins_by_time ON oidc_logins (created_at)",
];

pub const VERSIONS: &[&[&str]] = &[
    V1,
    V2,
    V3,
    V4,
    V5,
    V6,
    V7,
    V8,
    V9,
    V10,
    V11,
    V12,
    V13,
    V14,
    V15,
    V16,
    V17,
    V18,
    V19,
    V20,
    V21,
    V_ERASURE,
    V_REPLICA_HEARTBEAT,
    V_FILINGS,
    V_BY_WHAT_DATES_THEM,
    V_WHOLE_SCREENING,
    V_IDEMPOTENCY_LOCK_ID,
    V_SCREENING_EVIDENCE,
    V_CONTACT_KEYS,
    V_DEPOSIT_HOUR_CURRENCIES,
    V_NATIONAL_REGISTERS,
    V_TEAM_ACCOUNTS,
    V_ACCESS_REQUESTS,
    V_OIDC,
];

/// Applies the versions a store lacks, each in one batch with its version
/// row; safe to run on every start and from several hosts at once.
pub async fn migrate(store: &dyn Store) -> Result<(), StoreError> {
    migrate_through(store, VERSIONS.len()).await
}

/// The version (1-based) that keeps deposits' hourly sums per currency.
pub(crate) fn deposit_hour_currencies_version() -> usize {
    VERSIONS.iter().position(|v| *v == V_DEPOSIT_HOUR_CURRENCIES).map_or(0, |i| i + 1)
}

/// [`migrate`] up to and including version `last` (1-based), for the store
/// contract's test of a version over rows of before.
pub(crate) async fn migrate_through(store: &dyn Store, last: usize) -> Result<(), StoreError> {
    store
        .batch(vec![Stmt::new("CREATE TABLE IF NOT EXISTS schema_versions (version BIGINT PRIMARY KEY, applied_at BIGINT NOT NULL)", vec![])])
        .await?;
    let current = store.scalar("SELECT COALESCE(MAX(version), 0) FROM schema_versions", vec![]).await?;
    for (index, statements) in VERSIONS.iter().enumerate().take(last) {
        let version = index as i64 + 1;
        if version <= current {
            continue;
        }
        let mut batch: Vec<Stmt> = statements.iter().map(|sql| Stmt::new(sql, Vec::new())).collect();
        batch.push(Stmt::new("INSERT INTO schema_versions (version, applied_at) VALUES (?1, 0)", vec![version.into()]));
        match store.batch(batch).await {
            Ok(()) | Err(StoreError::Unique) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}
