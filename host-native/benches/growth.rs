//! Cost growth of the check path: `limits/check` for a user with 10,000
//! deposits in the monthly window beside one with 50, and
//! `exclusions/check` before and after the exclusion list grows by
//! 1,000,000 entries (the deposit rows in alternating rounds), through the
//! real server (SQLite, and Postgres when `CGW_BENCH_POSTGRES_URL` is set).
//!
//! `cargo bench -p host-native --bench growth` (`CGW_BENCH_SECONDS`,
//! `CGW_BENCH_CONNECTIONS`, `CGW_BENCH_DEPOSITS` default 10000,
//! `CGW_BENCH_EXCLUSIONS` default 1000000; `CGW_BENCH_DECISION_LOG=off`
//! drops the read-only decisions' log, to see its share).

use gateway::auth::Environment;
use gateway::ports::Stmt;
use serde_json::json;

mod common;
use common::load::{load, Conn, Figures};
use common::{start_gateway_in, Error};

/// A user with three limits far above what they deposit, and `deposits` deposits over the last hours.
async fn user_with_deposits(c: &mut Conn, key: &str, tenant_id: &str, database: &str, user: &str, deposits: usize) -> Result<(), Error> {
    let person = json!({ "user_id": user, "first_name": "Ann", "last_name": "Lee", "date_of_birth": "1990-01-01", "nationality": "GB", "email": format!("{user}@example.com") });
    c.send("POST", "/v1/sanctions/screen", key, Some(&person)).await?;
    let now = chrono::Utc::now();
    for kind in ["limit_daily", "limit_weekly", "limit_monthly"] {
        let limit = json!({ "user_id": user, "limit_type": kind, "amount_cents": 1_000_000_000, "currency": "USD", "requested_at": now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true) });
        c.send("POST", "/v1/limits", key, Some(&limit)).await?;
    }
    // Written straight into the store: one a second over the last hours, all inside every window.
    let store = host_native::open_store(database).await?;
    store
        .batch(vec![Stmt::new(
            "INSERT INTO deposits (tenant_id, transaction_id, external_user_id, amount_cents, currency, at, response)
             WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?4)
             SELECT ?1, ?2 || '-' || i, ?2, 1, 'USD', ?3 - i, '{}' FROM n",
            vec![tenant_id.into(), user.into(), now.timestamp().into(), (deposits as i64).into()],
        )])
        .await?;
    // and their hourly sums, as the commits would have kept them
    store
        .batch(vec![Stmt::new(
            "INSERT INTO deposit_hours (tenant_id, external_user_id, hour, currency, amount_cents, first_at, last_at)
             SELECT tenant_id, external_user_id, at / 3600, currency, SUM(amount_cents), MIN(at), MAX(at) FROM deposits
             WHERE tenant_id = ?1 AND external_user_id = ?2 GROUP BY tenant_id, external_user_id, at / 3600, currency",
            vec![tenant_id.into(), user.into()],
        )])
        .await?;
    Ok(())
}

/// Grows the environment's exclusion list by `count` regulator entries, written straight into the store.
async fn bulk_exclusions(database: &str, count: usize) -> Result<(), Error> {
    let store = host_native::open_store(database).await?;
    store
        .batch(vec![Stmt::new(
            "INSERT INTO exclusions (exclusion_id, seq, environment, tenant_id, external_user_id, email, phone, duration, reason, source,
                                     effective_from, expires_at, regulator_propagated, response, created_at)
             WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
             SELECT 'bulk-' || i, 1000000000 + i, 'production', 'bulk', NULL, 'bulk-' || i || '@example.com', NULL, 'permanent',
                    'regulator', 'regulator', 0, NULL, 1, '{}', 0 FROM n",
            vec![(count as i64).into()],
        )])
        .await?;
    // What autovacuum does after a bulk load: Postgres plans by its statistics.
    if database.starts_with("postgres") {
        store.batch(vec![Stmt::new("ANALYZE exclusions", vec![])]).await?;
    }
    Ok(())
}

fn row(name: &str, what: &str, f: &Figures, against: Option<&Figures>) {
    let ratio = against.map_or("1.00".to_string(), |b| format!("{:.2}", b.per_second / f.per_second));
    println!("| {name} | {what} | {} | {:.0} | {:.0} | {:.0} | {ratio} |", f.requests, f.per_second, f.p50_us, f.p99_us);
}

/// The mean of alternating rounds, worst p99.
fn merge(rounds: &[Figures]) -> Figures {
    let n = rounds.len().max(1) as f64;
    Figures {
        requests: rounds.iter().map(|r| r.requests).sum(),
        per_second: rounds.iter().map(|r| r.per_second).sum::<f64>() / n,
        p50_us: rounds.iter().map(|r| r.p50_us).sum::<f64>() / n,
        p99_us: rounds.iter().map(|r| r.p99_us).fold(0.0, f64::max),
    }
}

async fn run_store(name: &str, database: &str, seconds: u64, connections: usize, deposits: usize, exclusions: usize) -> Result<(), Error> {
    let config = gateway::Config { skip_read_decision_log: std::env::var("CGW_BENCH_DECISION_LOG").as_deref() == Ok("off"), ..Default::default() };
    let (addr, admin) = start_gateway_in(database, false, config, true, Environment::Production).await?;
    let mut c = Conn::open(addr).await?;
    let (_, tenant) = c
        .send(
            "POST",
            "/v1/admin/tenants",
            &admin,
            Some(&json!({ "name": "growth", "environment": "production", "rate_limit_per_minute": 1_000_000 })),
        )
        .await?;
    let key = tenant["api_key"].as_str().ok_or("no api key")?.to_string();
    let tenant_id = tenant["tenant_id"].as_str().ok_or("no tenant id")?.to_string();
    user_with_deposits(&mut c, &key, &tenant_id, database, "light", 50).await?;
    user_with_deposits(&mut c, &key, &tenant_id, database, "heavy", deposits).await?;
    let check = |user: &str| Some(json!({ "user_id": user, "amount_cents": 500, "currency": "USD" }));
    let (mut light, mut heavy) = (Vec::new(), Vec::new());
    for _ in 0..3 {
        light.push(load(addr, "POST", "/v1/limits/check".into(), key.clone(), check("light"), connections, seconds).await?);
        heavy.push(load(addr, "POST", "/v1/limits/check".into(), key.clone(), check("heavy"), connections, seconds).await?);
    }
    let light = merge(&light);
    row(name, "`limits/check`, 50 deposits in the window", &light, None);
    row(name, &format!("`limits/check`, {deposits} deposits in the window"), &merge(&heavy), Some(&light));

    let path = "/v1/exclusions/check?email=light@example.com".to_string();
    let mut small = Vec::new();
    for _ in 0..3 {
        small.push(load(addr, "GET", path.clone(), key.clone(), None, connections, seconds).await?);
    }
    bulk_exclusions(database, exclusions).await?;
    let mut large = Vec::new();
    for _ in 0..3 {
        large.push(load(addr, "GET", path.clone(), key.clone(), None, connections, seconds).await?);
    }
    let small = merge(&small);
    row(name, "`exclusions/check`, a few exclusions", &small, None);
    row(name, &format!("`exclusions/check`, {exclusions} more exclusions"), &merge(&large), Some(&small));
    Ok(())
}

async fn run() -> Result<(), Error> {
    let number = |name: &str, default: usize| std::env::var(name).ok().and_then(|s| s.parse().ok()).unwrap_or(default);
    let (seconds, connections) = (number("CGW_BENCH_SECONDS", 3) as u64, number("CGW_BENCH_CONNECTIONS", 8));
    let (deposits, exclusions) = (number("CGW_BENCH_DEPOSITS", 10_000), number("CGW_BENCH_EXCLUSIONS", 1_000_000));
    let dir = tempfile::tempdir()?;
    println!("| store | check | requests | req/s | p50 µs | p99 µs | slowdown |");
    println!("|---|---|---|---|---|---|---|");
    run_store("SQLite", &format!("sqlite://{}", dir.path().join("growth.db").display()), seconds, connections, deposits, exclusions).await?;
    if let Ok(url) = std::env::var("CGW_BENCH_POSTGRES_URL") {
        run_store("Postgres", &url, seconds, connections, deposits, exclusions).await?;
    }
    println!("\n{connections} connections, 3 rounds of {seconds} s per row (mean req/s and p50, worst p99); production tenant; client and server on the same machine");
    Ok(())
}

fn main() {
    common::main_with(run());
}
