//! The contract every store backend must keep. A backend's tests call
//! `gateway::store_contract_tests!(async_fn_returning_a_fresh_store)`.

use crate::ports::{Expect, Read, Stmt, Store, StoreError, Value};

const TABLE: &str = "CREATE TABLE IF NOT EXISTS contract_items (id TEXT PRIMARY KEY, n BIGINT NOT NULL, r DOUBLE PRECISION, t TEXT)";

async fn setup(store: &dyn Store) -> Result<(), StoreError> {
    store.batch(vec![Stmt::new(TABLE, vec![]), Stmt::new("DELETE FROM contract_items", vec![])]).await
}

pub use crate::ports::MAX_STORED_INTEGER as MAX_EXACT_INTEGER;

/// Values of every type round-trip, NULLs included, and a numbered
/// placeholder may be used twice.
pub async fn values_round_trip(store: &dyn Store) -> Result<(), String> {
    setup(store).await.map_err(|e| e.to_string())?;
    store
        .batch(vec![Stmt::new(
            "INSERT INTO contract_items (id, n, r, t) VALUES (?1, ?2, ?3, ?4)",
            vec!["a".into(), Value::Int(MAX_EXACT_INTEGER), Value::Real(0.25), Value::Null],
        )])
        .await
        .map_err(|e| e.to_string())?;
    let rows = store
        .query("SELECT id, n, r, t FROM contract_items WHERE id = ?1 AND (n = ?2 OR n = ?2)", vec!["a".into(), Value::Int(MAX_EXACT_INTEGER)])
        .await
        .map_err(|e| e.to_string())?;
    let row = rows.first().ok_or("row missing")?;
    let got = (row.text(0), row.int(1), row.real(2), row.opt_text(3));
    if got != (Ok("a".into()), Ok(MAX_EXACT_INTEGER), Ok(0.25), Ok(None)) {
        return Err(format!("round trip gave {got:?}"));
    }
    Ok(())
}

/// A failed row-count expectation rolls back the statements before it.
pub async fn failed_expectation_rolls_back(store: &dyn Store) -> Result<(), String> {
    setup(store).await.map_err(|e| e.to_string())?;
    let result = store
        .batch(vec![
            Stmt::new("INSERT INTO contract_items (id, n) VALUES ('b', 1)", vec![]),
            Stmt { sql: "UPDATE contract_items SET n = 2 WHERE id = 'nope'", params: vec![], expect: Expect::One },
        ])
        .await;
    if result != Err(StoreError::Conflict { statement: 1 }) {
        return Err(format!("expected a conflict at statement 1, got {result:?}"));
    }
    let rows = store.query("SELECT COUNT(*) FROM contract_items", vec![]).await.map_err(|e| e.to_string())?;
    match rows.first().map(|r| r.int(0)) {
        Some(Ok(0)) => Ok(()),
        other => Err(format!("the first statement was kept: {other:?}")),
    }
}

/// Batches sent at once (which a backend may commit in one group) succeed or
/// fail each on its own: a failing batch leaves no row, its neighbours keep theirs.
pub async fn concurrent_batches_fail_alone(store: &dyn Store) -> Result<(), String> {
    setup(store).await.map_err(|e| e.to_string())?;
    let batches = (0..24i64).map(|i| {
        let mut statements = vec![Stmt::new("INSERT INTO contract_items (id, n) VALUES (?1, ?2)", vec![format!("g{i}").into(), i.into()])];
        if i % 2 == 1 {
            statements.push(Stmt { sql: "UPDATE contract_items SET n = 0 WHERE id = 'nope'", params: vec![], expect: Expect::One });
        }
        store.batch(statements)
    });
    let results = futures_util::future::join_all(batches).await;
    for (i, result) in results.iter().enumerate() {
        let want = if i % 2 == 1 { Err(StoreError::Conflict { statement: 1 }) } else { Ok(()) };
        if *result != want {
            return Err(format!("batch {i}: {result:?}, expected {want:?}"));
        }
    }
    let rows = store.query("SELECT n FROM contract_items ORDER BY n", vec![]).await.map_err(|e| e.to_string())?;
    let kept: Vec<i64> = rows.iter().filter_map(|r| r.int(0).ok()).collect();
    if kept != (0..24).step_by(2).collect::<Vec<i64>>() {
        return Err(format!("rows kept: {kept:?}"));
    }
    Ok(())
}

/// A unique violation is reported as such and rolls the batch back.
pub async fn unique_violation_is_reported(store: &dyn Store) -> Result<(), String> {
    setup(store).await.map_err(|e| e.to_string())?;
    store.batch(vec![Stmt::new("INSERT INTO contract_items (id, n) VALUES ('c', 1)", vec![])]).await.map_err(|e| e.to_string())?;
    let result = store
        .batch(vec![
            Stmt::new("INSERT INTO contract_items (id, n) VALUES ('d', 1)", vec![]),
            Stmt::new("INSERT INTO contract_items (id, n) VALUES ('c', 2)", vec![]),
        ])
        .await;
    if result != Err(StoreError::Unique) {
        return Err(format!("expected a unique violation, got {result:?}"));
    }
    let rows = store.query("SELECT id FROM contract_items ORDER BY id", vec![]).await.map_err(|e| e.to_string())?;
    if rows.len() != 1 {
        return Err(format!("expected only the first row, found {}", rows.len()));
    }
    Ok(())
}

/// A conditional update that matches exactly one row commits.
pub async fn met_expectation_commits(store: &dyn Store) -> Result<(), String> {
    setup(store).await.map_err(|e| e.to_string())?;
    store
        .batch(vec![
            Stmt::new("INSERT INTO contract_items (id, n) VALUES ('e', 1)", vec![]),
            Stmt::expect_one("UPDATE contract_items SET n = n + 1 WHERE id = ?1 AND n = ?2", vec!["e".into(), Value::Int(1)]),
        ])
        .await
        .map_err(|e| e.to_string())?;
    let rows = store.query("SELECT n FROM contract_items WHERE id = 'e'", vec![]).await.map_err(|e| e.to_string())?;
    match rows.first().map(|r| r.int(0)) {
        Some(Ok(2)) => Ok(()),
        other => Err(format!("expected n = 2, got {other:?}")),
    }
}

/// Several reads in one call answer in order, each as if run alone, and a
/// failing read fails the call.
pub async fn reads_in_one_round_trip(store: &dyn Store) -> Result<(), String> {
    setup(store).await.map_err(|e| e.to_string())?;
    store
        .batch(vec![
            Stmt::new("INSERT INTO contract_items (id, n) VALUES ('f', 1)", vec![]),
            Stmt::new("INSERT INTO contract_items (id, n) VALUES ('g', 2)", vec![]),
        ])
        .await
        .map_err(|e| e.to_string())?;
    let results = store
        .query_many(vec![
            Read::new("SELECT n FROM contract_items WHERE id = ?1", vec!["g".into()]),
            Read::new("SELECT id FROM contract_items WHERE n > ?1 ORDER BY id", vec![Value::Int(0)]),
            Read::new("SELECT id FROM contract_items WHERE id = ?1", vec!["none".into()]),
        ])
        .await
        .map_err(|e| e.to_string())?;
    let shape: Vec<usize> = results.iter().map(Vec::len).collect();
    if shape != [1, 2, 0] || results.first().and_then(|r| r.first()).map(|r| r.int(0)) != Some(Ok(2)) {
        return Err(format!("reads answered {results:?}"));
    }
    let failing =
        store.query_many(vec![Read::new("SELECT n FROM contract_items", vec![]), Read::new("SELECT nothing FROM no_such_table", vec![])]).await;
    if !matches!(failing, Err(StoreError::Backend(_))) {
        return Err(format!("a failing read must fail the call, got {failing:?}"));
    }
    Ok(())
}

/// Calls `$callback!` with the name of every case of the contract.
#[doc(hidden)]
#[macro_export]
macro_rules! __store_contract_cases {
    ($callback:path $(, $arg:tt)*) => {
        $callback! { $($arg,)* [
            values_round_trip,
            failed_expectation_rolls_back,
            concurrent_batches_fail_alone,
            unique_violation_is_reported,
            met_expectation_commits,
            migrations_apply_twice,
            deposit_hours_are_rebuilt_per_currency,
            reads_in_one_round_trip,
            retention_deletes_a_bounded_batch,
            contacts_of_before_are_found_before_and_after_their_rekey
        ] }
    };
}

macro_rules! run_cases {
    ($store:tt, [$($name:ident),+]) => {
        vec![$((stringify!($name), $name($store).await)),+]
    };
}

/// Runs every case against one store, in order, for hosts whose tests
/// cannot use `#[tokio::test]` (the edge calls it from a local-only route).
pub async fn run_all(store: &dyn Store) -> Vec<(&'static str, Result<(), String>)> {
    crate::__store_contract_cases! { run_cases, store }
}

/// Runs the store contract against a backend. `$make` is an async fn
/// returning a fresh, empty store, or `None` when the backend is not
/// available here (the test then says it was skipped).
#[macro_export]
macro_rules! store_contract_tests {
    ($module:ident, $make:path) => {
        mod $module {
            #[allow(unused_imports)]
            use super::*;
            $crate::__store_contract_cases! { $crate::store_contract_tests, __cases, $make }
        }
    };
    (__cases, $make:path, [$($name:ident),+]) => {
        $($crate::store_contract_tests!(@case $make, $name);)+
    };
    (@case $make:path, $name:ident) => {
        #[tokio::test]
        async fn $name() {
            match $make().await {
                Some(store) => $crate::store_contract::$name(&store).await.unwrap(),
                None => eprintln!("skipped: this backend is not configured"),
            }
        }
    };
}

/// The schema applies on a fresh store and again on an existing one.
pub async fn migrations_apply_twice(store: &dyn Store) -> Result<(), String> {
    crate::schema::migrate(store).await.map_err(|e| e.to_string())?;
    crate::schema::migrate(store).await.map_err(|e| e.to_string())?;
    let rows = store.query("SELECT COUNT(*) FROM tenants", vec![]).await.map_err(|e| e.to_string())?;
    match rows.first().map(|r| r.int(0)) {
        Some(Ok(0)) => Ok(()),
        other => Err(format!("expected an empty tenants table, got {other:?}")),
    }
}

/// The rebuild of `deposit_hours` per currency (issue #46) over rows of
/// before: the hours are refilled from the deposits, each currency its own
/// row, and a commit adds to its currency's. On a store already past it
/// (the edge runs every case on one store) only the schema is checked.
pub async fn deposit_hours_are_rebuilt_per_currency(store: &dyn Store) -> Result<(), String> {
    let e = |e: StoreError| e.to_string();
    let version = crate::schema::deposit_hour_currencies_version();
    if version == 0 {
        return Err("no schema version rebuilds deposit_hours".into());
    }
    crate::schema::migrate_through(store, version - 1).await.map_err(e)?;
    let current = store.scalar("SELECT COALESCE(MAX(version), 0) FROM schema_versions", vec![]).await.map_err(e)?;
    let before = current < version as i64;
    if before {
        let deposit = |tx: &str, cents: i64, currency: &str, at: i64| {
            Stmt::new(
                "INSERT INTO deposits (tenant_id, transaction_id, external_user_id, amount_cents, currency, at, response) VALUES ('contract-hours', ?1, 'u', ?2, ?3, ?4, '{}')",
                vec![tx.into(), cents.into(), currency.into(), at.into()],
            )
        };
        store
            .batch(vec![
                deposit("tx1", 8_000, "EUR", 7_200),
                deposit("tx2", 1_000, "USD", 7_300),
                deposit("tx3", 500, "EUR", 7_400),
                Stmt::new(
                    "INSERT INTO deposit_hours (tenant_id, external_user_id, hour, amount_cents, first_at, last_at) VALUES ('contract-hours', 'u', 2, 9500, 7200, 7400)",
                    vec![],
                ),
            ])
            .await
            .map_err(e)?;
    }
    crate::schema::migrate(store).await.map_err(e)?;
    store.batch(vec![crate::limits::store::add_to_hour("contract-hours", "u", 100, "EUR", 7_500)]).await.map_err(e)?;
    let rows = store
        .query(
            "SELECT currency, amount_cents, first_at, last_at FROM deposit_hours WHERE tenant_id = 'contract-hours' AND external_user_id = 'u' ORDER BY currency",
            vec![],
        )
        .await
        .map_err(e)?;
    let got: Vec<(String, i64, i64, i64)> = rows
        .iter()
        .map(|r| Ok((r.text(0)?, r.int(1)?, r.int(2)?, r.int(3)?)))
        .collect::<Result<_, crate::error::ApiError>>()
        .map_err(|x| x.to_string())?;
    if !before {
        // a store of after has no rows of before: a commit adds to its currency's row alone
        return match got.iter().find(|r| r.0 == "EUR") {
            Some(eur) if eur.3 == 7_500 && got.iter().all(|r| r.0 == "EUR") => Ok(()),
            _ => Err(format!("deposit_hours after a commit: {got:?}")),
        };
    }
    let expected = vec![("EUR".to_string(), 8_600, 7_200, 7_500), ("USD".to_string(), 1_000, 7_300, 7_300)];
    if got != expected {
        return Err(format!("deposit_hours after the rebuild: {got:?}, expected {expected:?}"));
    }
    Ok(())
}

/// Every retention probe and delete runs on the backend; a delete takes at
/// most a batch of the expired rows and never a live one.
pub async fn retention_deletes_a_bounded_batch(store: &dyn Store) -> Result<(), String> {
    let e = |e: StoreError| e.to_string();
    crate::schema::migrate(store).await.map_err(e)?;
    let insert =
        |start: i64| Stmt::new("INSERT INTO rate_windows (key_id, window_start, used) VALUES (?1, ?2, 1)", vec!["contract".into(), start.into()]);
    store.batch(vec![Stmt::new("DELETE FROM rate_windows WHERE key_id = ?1", vec!["contract".into()])]).await.map_err(e)?;
    store.batch(vec![insert(100), insert(160), insert(220), insert(10_000)]).await.map_err(e)?;
    // two old dispatched events: one a delivery still waits for (kept), one delivered (pruned)
    let event = |id: &str| {
        Stmt::new(
            "INSERT INTO outbox (event_id, environment, tenant_id, event, envelope, dispatched, created_at) VALUES (?1, 'sandbox', NULL, 'contract', '{}', 1, 100)",
            vec![id.into()],
        )
    };
    let delivery = |id: &str, event: &str, status: crate::webhooks::store::DeliveryStatus| {
        Stmt::new(
            "INSERT INTO webhook_deliveries (delivery_id, event_id, webhook_id, tenant_id, status, attempts, next_attempt_at, created_at)
             VALUES (?1, ?2, 'contract', 'contract', ?3, 0, 2000, 5000)",
            vec![id.into(), event.into(), status.as_str().into()],
        )
    };
    store
        .batch(vec![
            Stmt::new("DELETE FROM outbox WHERE event = 'contract'", vec![]),
            Stmt::new("DELETE FROM webhook_deliveries WHERE webhook_id = 'contract'", vec![]),
            event("evt_contract_waiting"),
            event("evt_contract_done"),
            delivery("del_contract_waiting", "evt_contract_waiting", crate::webhooks::store::DeliveryStatus::Pending),
            delivery("del_contract_done", "evt_contract_done", crate::webhooks::store::DeliveryStatus::Succeeded),
        ])
        .await
        .map_err(e)?;
    let at = 1_000;
    let cutoffs = crate::retention::Cutoffs {
        webhooks: at,
        deposits: at,
        audit: at,
        aml_records: at,
        aml_state: at,
        idempotency: at,
        sessions: at,
        shadow: at,
        decisions: at,
        player_decisions: at,
        player_audit: at,
        rate_windows: at,
        staged_chunks: at,
    };
    let left = || async {
        let rows = store.query("SELECT window_start FROM rate_windows WHERE key_id = ?1 ORDER BY window_start", vec!["contract".into()]).await?;
        rows.iter().map(|r| r.int(0)).collect::<Result<Vec<i64>, StoreError>>()
    };
    for (round, want_count, want_left) in [(1, 3, vec![10_000]), (2, 1, vec![10_000])] {
        let prunes = crate::retention::store::prunes(&cutoffs, 2);
        let counts = store.query_many(prunes.iter().map(|p| p.probe.clone()).collect()).await.map_err(e)?;
        let windows = prunes.iter().position(|p| p.table == "rate_windows").ok_or("no rate_windows prune")?;
        let counted = counts.get(windows).and_then(|rows| rows.first()).map(|r| r.int(0)).transpose().map_err(e)?;
        if counted != Some(want_count) {
            return Err(format!("round {round}: counted {counted:?} expired windows, not {want_count} (capped at the batch and one)"));
        }
        store.batch(prunes.into_iter().map(|p| p.delete).collect()).await.map_err(e)?;
        let kept = left().await.map_err(e)?;
        if round == 1 && kept.len() != 2 {
            return Err(format!("round 1 deleted more or less than a batch of two: {kept:?} left"));
        }
        if round == 2 && kept != want_left {
            return Err(format!("round 2 left {kept:?}, not the live window alone"));
        }
    }
    // each profile's prunes and its ended exclusions' redaction run on every store too
    let profile = [crate::retention::RecordCutoff { jurisdiction: "default".into(), cutoff: at }];
    let mut per_profile = crate::retention::store::record_prunes(&profile, 2);
    per_profile.extend(crate::retention::store::exclusion_redactions(&profile, at, 2));
    store.query_many(per_profile.iter().map(|p| p.probe.clone()).collect()).await.map_err(e)?;
    store.batch(per_profile.into_iter().map(|p| p.delete).collect()).await.map_err(e)?;
    let events = store.query("SELECT event_id FROM outbox WHERE event = 'contract'", vec![]).await.map_err(e)?;
    let events: Vec<String> = events.iter().map(|r| r.text(0)).collect::<Result<_, _>>().map_err(e)?;
    if events != ["evt_contract_waiting"] {
        return Err(format!("the outbox kept {events:?}: an event a delivery waits for must stay, a delivered one go"));
    }
    Ok(())
}

/// Exclusions and users stored before the contact keys (keyed under none)
/// are found by their stored form until the scheduled re-key, and by every
/// form of their contact after it; the re-key takes a bounded batch a round
/// and leaves a row another writer changed since it was read.
pub async fn contacts_of_before_are_found_before_and_after_their_rekey(store: &dyn Store) -> Result<(), String> {
    use crate::exclusions::store::{matching, read_matching, read_player_exclusions, Contacts};
    use crate::input::{email_key, normalize_email, phone_region, read_phone};
    let e = |e: StoreError| e.to_string();
    let a = |e: crate::error::ApiError| format!("{}: {}", e.code, e.message);
    crate::schema::migrate(store).await.map_err(e)?;
    let environment = crate::auth::Environment::Sandbox;
    // a GB tenant's rows of before: a Gmail address with dots, a national phone as the old normalisation kept it, an international one
    let old = [
        ("exc_contract_rekey_1", Some("ann.lee.contract@gmail.com"), Some("07700900123")),
        ("exc_contract_rekey_2", None, Some("447700900124")),
        ("exc_contract_rekey_3", Some("a.b.contract@example.com"), None),
    ];
    let mut statements = vec![
        Stmt::new("DELETE FROM exclusions WHERE exclusion_id LIKE 'exc_contract_rekey_%'", vec![]),
        Stmt::new("DELETE FROM users WHERE tenant_id = 'ten_contract_rekey'", vec![]),
        Stmt::new("DELETE FROM tenants WHERE tenant_id = 'ten_contract_rekey'", vec![]),
        Stmt::new(
            "INSERT INTO tenants (tenant_id, name, environment, rate_limit_per_minute, created_at, jurisdiction) VALUES ('ten_contract_rekey', 'contract', 'sandbox', 1, 0, 'GB')",
            vec![],
        ),
    ];
    for (seq, (id, email, phone)) in old.iter().enumerate() {
        statements.push(Stmt::new(
            "INSERT INTO exclusions (exclusion_id, seq, environment, tenant_id, external_user_id, email, phone, duration, reason, source, effective_from,
                                     expires_at, regulator_propagated, response, created_at)
             VALUES (?1, ?2, 'sandbox', 'ten_contract_rekey', NULL, ?3, ?4, 'duration_permanent', 'self_initiated', 'operator', 0, NULL, 0, '{}', 0)",
            vec![(*id).into(), (crate::ports::MAX_STORED_INTEGER - 10 + seq as i64).into(), Value::from(email.map(str::to_string)), Value::from(phone.map(str::to_string))],
        ));
    }
    // a user of before whose KYC start gave the national phone and a tagged Gmail address
    statements.push(Stmt::new(
        "INSERT INTO users (tenant_id, external_user_id, email, first_name, last_name, sanctions_status, last_screened_at, screen_id, screen_fingerprint,
                            screen_response, verified_tier, cumulative_withdrawn_cents, version, created_at, updated_at, kyc_email, kyc_phone)
         VALUES ('ten_contract_rekey', 'u_contract', 'other.contract@example.com', '', '', 'clear', 0, '', '', '{}', 'tier_0', 0, 0, 0, 0,
                 'annlee.contract+kyc@gmail.com', '07700900125')",
        vec![],
    ));
    store.batch(statements).await.map_err(e)?;
    let gb = phone_region("GB");
    let contacts = |email: Option<&str>, phone: Option<&str>| -> Result<Contacts, String> {
        let email = email.map(|m| normalize_email(m).ok_or(format!("{m} is no address"))).transpose()?;
        let phone = phone.map(|p| read_phone(p, gb).map_err(|e| format!("{p}: {e:?}"))).transpose()?;
        Ok(Contacts::of(email.as_deref(), phone.as_ref()))
    };
    let found = |c: Contacts| async move {
        let rows = store.query_many(vec![read_matching(environment, &c)]).await.map_err(e)?;
        let ids: Vec<String> =
            matching(rows.first().map(Vec::as_slice).unwrap_or_default()).map_err(a)?.into_iter().map(|m| m.exclusion_id).collect();
        Ok::<Vec<String>, String>(ids.into_iter().filter(|id| id.starts_with("exc_contract_rekey_")).collect())
    };
    let one = |id: &str| vec![id.to_string()];
    // before the re-key: found by the stored form, as before; not yet by another form of the mailbox or the national number
    if found(contacts(Some("Ann.Lee.Contract@gmail.com"), None)?).await? != one("exc_contract_rekey_1") {
        return Err("a row of before is no longer found by its stored form".into());
    }
    if found(contacts(None, Some("+44 7700 900124"))?).await? != one("exc_contract_rekey_2") {
        return Err("a phone of before is no longer found by its international form".into());
    }
    if !found(contacts(Some("annlee.contract@gmail.com"), None)?).await?.is_empty() {
        return Err("an alias found a row of before before its re-key".into());
    }
    // the re-key, a round at a time: bounded by the batch, resumable until no row of before remains
    let mut rounds = 0;
    loop {
        let done = crate::exclusions::rekey_contacts(store, 1).await.map_err(a)?;
        if done.exclusions > 1 || done.users > 1 {
            return Err(format!("a round of one re-keyed {done:?}"));
        }
        rounds += 1;
        if !done.more || rounds > 10_000 {
            break;
        }
    }
    let left =
        store.scalar("SELECT COUNT(*) FROM exclusions WHERE keys_version < ?1", vec![crate::input::CONTACT_KEYS_VERSION.into()]).await.map_err(e)?;
    if left != 0 {
        return Err(format!("{left} exclusions left un-keyed"));
    }
    // after: every form of the contact finds its row; the twins find nothing
    for (email, phone, want) in [
        (Some("annlee.contract@gmail.com"), None, one("exc_contract_rekey_1")),
        (Some("ann.lee.contract+casino@googlemail.com"), None, one("exc_contract_rekey_1")),
        (None, Some("+44 7700 900123"), one("exc_contract_rekey_1")),
        (None, Some("07700 900123"), one("exc_contract_rekey_1")),
        (None, Some("07700 900124"), one("exc_contract_rekey_2")),
        (Some("A.B.Contract@Example.com"), None, one("exc_contract_rekey_3")),
        (Some("ab.contract@example.com"), None, vec![]),
        (Some("ann.lees.contract@gmail.com"), None, vec![]),
        (None, Some("07700 900126"), vec![]),
    ] {
        let got = found(contacts(email, phone)?).await?;
        if got != want {
            return Err(format!("{email:?} {phone:?} found {got:?}, not {want:?}"));
        }
    }
    // the user's KYC contacts were re-keyed too: the deposit gate finds the exclusion by the mailbox
    let rows = store.query_many(vec![read_player_exclusions("ten_contract_rekey", "u_contract", environment)]).await.map_err(e)?;
    let terms = crate::exclusions::store::player_terms(rows.first().map(Vec::as_slice).unwrap_or_default()).map_err(a)?;
    if terms.len() != 1 {
        return Err(format!("the user's re-keyed contacts found {} exclusions, not the one of the mailbox", terms.len()));
    }
    let key = store
        .query("SELECT kyc_phone_key, kyc_email_key FROM users WHERE tenant_id = 'ten_contract_rekey'", vec![])
        .await
        .map_err(e)?
        .first()
        .map(|r| Ok::<_, StoreError>((r.opt_text(0)?, r.opt_text(1)?)))
        .transpose()
        .map_err(e)?;
    if key != Some((Some("+447700900125".into()), Some(email_key("annlee.contract+kyc@gmail.com")))) {
        return Err(format!("the user was keyed {key:?}"));
    }
    store
        .batch(vec![
            Stmt::new("DELETE FROM exclusions WHERE exclusion_id LIKE 'exc_contract_rekey_%'", vec![]),
            Stmt::new("DELETE FROM users WHERE tenant_id = 'ten_contract_rekey'", vec![]),
            Stmt::new("DELETE FROM tenants WHERE tenant_id = 'ten_contract_rekey'", vec![]),
        ])
        .await
        .map_err(e)
}
