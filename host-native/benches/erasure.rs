//! The retention sweep stays bounded (issue #31): 100,000 players whose
//! relationship ended eleven years ago under the GB profile are erased
//! unasked by the scheduler's sweep, at most `erasure_batch` players a tick
//! (written `erasure::SWEEP_CHUNK` at a time), the scheduler run once a
//! second as the native host runs it, while `limits/check` is measured
//! through the real server (SQLite): before the players are loaded (the
//! baseline, `CGW_BENCH_BASELINE_ROUNDS` rounds, default 3, their median),
//! then in rounds alternating between the sweep paused and the sweep
//! running (so the shared machine's other load falls on both alike), and
//! after, in the same run.
//!
//! `cargo bench -p host-native --bench erasure` (`CGW_BENCH_USERS` default
//! 100000, `CGW_BENCH_BATCH` players a tick, default the policy's,
//! `CGW_BENCH_SECONDS` default 10, `CGW_BENCH_CONNECTIONS` default 4,
//! `CGW_BENCH_ROUNDS`: check rounds while the sweep runs, default until
//! every player is erased; `CGW_BENCH_SCREENED=stale`: the players were last
//! screened when their relationship ended, under no rules version, so every
//! tick also re-screens 1,000 of them, as the scheduler does today).

use std::time::{Duration, Instant};

use gateway::auth::Environment;
use gateway::ports::Stmt;
use gateway::retention::RetentionPolicy;
use serde_json::json;

mod common;
use common::load::{load, Conn, Figures};
use common::{main_with, start_gateway_in, Error};

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

const ELEVEN_YEARS: i64 = 11 * 365 * 86_400;

/// How the expired players were last screened.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Screened {
    /// as the live player was (its time and rules version): due no re-screen, so a tick's work over them is the sweep's alone
    LikeLive,
    /// when their relationship ended, under no known rules version: every tick also re-screens 500 of them periodically
    /// and 500 for the rules version (`scheduled_batch` each), as the scheduler does for any clear player
    Stale,
}

/// A fresh key of the tenant for one round of checks: a key may make at most
/// 1,000,000 requests a minute (the most a tenant may be given), and a fast
/// machine passes that within a few rounds (429s, not checks).
async fn fresh_key(c: &mut Conn, admin: &str, tenant_id: &str) -> Result<String, Error> {
    let (_, created) = c.send("POST", &format!("/v1/admin/tenants/{tenant_id}/keys"), admin, None).await?;
    Ok(created["api_key"].as_str().ok_or_else(|| format!("no api key: {created}"))?.to_string())
}

/// `count` players of the tenant, closed eleven years ago, each with a deposit and an AML event, written straight into the store.
async fn expired_players(database: &str, tenant_id: &str, count: u64, now: i64, screened: Screened) -> Result<(), Error> {
    let store = host_native::open_store(database).await?;
    let closed = now - ELEVEN_YEARS;
    let (tenant, n, at) = (gateway::ports::Value::from(tenant_id), gateway::ports::Value::from(count as i64), gateway::ports::Value::from(closed));
    let live = store
        .query("SELECT last_screened_at, screened_under FROM users WHERE tenant_id = ?1 AND external_user_id = 'live'", vec![tenant.clone()])
        .await?;
    let live = live.first().ok_or("the live player was not screened")?;
    let (screened_at, under) = match screened {
        Screened::LikeLive => (gateway::ports::Value::from(live.int(0)?), gateway::ports::Value::from(live.text(1)?)),
        Screened::Stale => (at.clone(), gateway::ports::Value::Null),
    };
    store
        .batch(vec![
            Stmt::new(
                "INSERT INTO users (tenant_id, external_user_id, email, first_name, last_name, sanctions_status, last_screened_at, screen_id,
                                    screen_fingerprint, screen_response, verified_tier, cumulative_withdrawn_cents, version, created_at, updated_at, closed_at,
                                    screened_under)
                 WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
                 SELECT ?1, 'gone-' || i, 'gone-' || i || '@example.com', 'Ann', 'Lee', 'clear', ?4, 'scr-' || i, 'f', '{}', 'tier_0', 0, 1, ?3, ?3, ?3, ?5 FROM n",
                vec![tenant.clone(), n.clone(), at.clone(), screened_at, under],
            ),
            Stmt::new(
                "INSERT INTO deposit_transactions (tenant_id, transaction_id, external_user_id, amount_cents, currency, committed_at)
                 WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
                 SELECT ?1, 'dep-' || i, 'gone-' || i, 2000, 'GBP', ?3 FROM n",
                vec![tenant.clone(), n.clone(), at.clone()],
            ),
            Stmt::new(
                "INSERT INTO aml_events (tenant_id, transaction_id, aml_event_id, external_user_id, fingerprint, payload, response, review_status, received_at)
                 WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
                 SELECT ?1, 'aml-' || i, 'ev-' || i, 'gone-' || i, 'f', '{}', '{}', 'none', ?3 FROM n",
                vec![tenant, n, at],
            ),
        ])
        .await?;
    Ok(())
}

/// The round of median throughput.
fn median(rounds: &[Figures]) -> &Figures {
    let mut sorted: Vec<&Figures> = rounds.iter().collect();
    sorted.sort_by(|a, b| a.per_second.total_cmp(&b.per_second));
    sorted[sorted.len() / 2]
}

fn row(what: &str, f: &Figures, baseline: &Figures) {
    println!("| {what} | {} | {:.0} | {:.0} | {:.0} | {:.2} |", f.requests, f.per_second, f.p50_us, f.p99_us, baseline.per_second / f.per_second);
}

async fn run() -> Result<(), Error> {
    let users = env_or("CGW_BENCH_USERS", 100_000);
    let batch = env_or("CGW_BENCH_BATCH", RetentionPolicy::default().erasure_batch as u64) as i64;
    let rounds_wanted = env_or("CGW_BENCH_ROUNDS", u64::MAX);
    let seconds = env_or("CGW_BENCH_SECONDS", 10);
    let connections = env_or("CGW_BENCH_CONNECTIONS", 4) as usize;
    let screened = if std::env::var("CGW_BENCH_SCREENED").is_ok_and(|v| v == "stale") { Screened::Stale } else { Screened::LikeLive };
    let dir = tempfile::tempdir()?;
    let database = format!("sqlite://{}", dir.path().join("erasure.db").display());
    let config = gateway::Config { retention: RetentionPolicy { erasure_batch: batch, ..RetentionPolicy::default() }, ..Default::default() };
    let (addr, admin) = start_gateway_in(&database, false, config, true, Environment::Sandbox).await?;
    let mut c = Conn::open(addr).await?;
    let body = json!({ "name": "erasure", "environment": "sandbox", "rate_limit_per_minute": 1_000_000, "jurisdiction": "GB" });
    let (_, tenant) = c.send("POST", "/v1/admin/tenants", &admin, Some(&body)).await?;
    let key = tenant["api_key"].as_str().ok_or_else(|| format!("no api key: {tenant}"))?.to_string();
    let tenant_id = tenant["tenant_id"].as_str().ok_or("no tenant id")?.to_string();
    // the player whose deposits are checked: screened, with three limits
    let person = json!({ "user_id": "live", "first_name": "Ann", "last_name": "Lee", "date_of_birth": "1990-01-01", "nationality": "GB", "email": "live@example.com" });
    c.send("POST", "/v1/sanctions/screen", &key, Some(&person)).await?;
    let now = chrono::Utc::now();
    for kind in ["limit_daily", "limit_weekly", "limit_monthly"] {
        let limit = json!({ "user_id": "live", "limit_type": kind, "amount_cents": 1_000_000_000, "currency": "GBP", "requested_at": now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true) });
        c.send("POST", "/v1/limits", &key, Some(&limit)).await?;
    }
    let check = Some(json!({ "user_id": "live", "amount_cents": 1_000, "currency": "GBP" }));
    let mut quiet = Vec::new();
    for _ in 0..env_or("CGW_BENCH_BASELINE_ROUNDS", 3).max(1) {
        quiet.push(
            load(addr, "POST", "/v1/limits/check".into(), fresh_key(&mut c, &admin, &tenant_id).await?, check.clone(), connections, seconds).await?,
        );
    }
    let baseline = median(&quiet);

    let loaded = Instant::now();
    expired_players(&database, &tenant_id, users, now.timestamp(), screened).await?;
    let load_seconds = loaded.elapsed().as_secs_f64();
    let probe = host_native::open_store(&database).await?;
    // the sweep: the scheduler run by its admin route once a second (the native host's tick), until every player is erased
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let stopped = stop.clone();
    // the sweep is paused during the paused rounds: quiet and sweeping rounds alternate, so that the
    // machine's other load falls on both alike
    let sweeping = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let sweeps = sweeping.clone();
    let sweeper_admin = admin.clone();
    let sweeper = tokio::spawn(async move {
        let admin = sweeper_admin;
        let mut c = Conn::open(addr).await?;
        let started = Instant::now();
        let mut tick = tokio::time::interval(Duration::from_secs(1));
        let (mut rounds, mut slowest, mut erased, mut most) = (0u64, Duration::ZERO, 0i64, 0i64);
        while erased < users as i64 && !stopped.load(std::sync::atomic::Ordering::SeqCst) {
            tick.tick().await;
            if !sweeps.load(std::sync::atomic::Ordering::SeqCst) {
                continue;
            }
            let t0 = Instant::now();
            let (status, body) = c.send("POST", "/v1/admin/scheduler/run", &admin, None).await?;
            if status != 200 {
                return Err(format!("scheduler run: {status} {body}").into());
            }
            slowest = slowest.max(t0.elapsed());
            rounds += 1;
            let now_erased = probe.scalar("SELECT COUNT(*) FROM erasures WHERE state = 'erased'", vec![]).await?;
            most = most.max(now_erased - erased);
            erased = now_erased;
            if rounds > 10 * users / batch.max(1) as u64 + 10 {
                return Err(format!("the sweep stalled at {erased} of {users}").into());
            }
        }
        let left = probe.scalar("SELECT COUNT(*) FROM aml_events WHERE external_user_id LIKE 'gone-%'", vec![]).await?;
        Ok::<_, Error>((rounds, started.elapsed(), slowest, most, left, erased))
    });
    let (mut during, mut paused) = (Vec::new(), Vec::new());
    while !sweeper.is_finished() && (during.len() as u64) < rounds_wanted {
        sweeping.store(false, std::sync::atomic::Ordering::SeqCst);
        // the tick under way ends first
        tokio::time::sleep(Duration::from_secs(2)).await;
        paused.push(
            load(addr, "POST", "/v1/limits/check".into(), fresh_key(&mut c, &admin, &tenant_id).await?, check.clone(), connections, seconds).await?,
        );
        sweeping.store(true, std::sync::atomic::Ordering::SeqCst);
        during.push(
            load(addr, "POST", "/v1/limits/check".into(), fresh_key(&mut c, &admin, &tenant_id).await?, check.clone(), connections, seconds).await?,
        );
    }
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    let (rounds, took, slowest, most, left, erased) = sweeper.await??;
    let after =
        load(addr, "POST", "/v1/limits/check".into(), fresh_key(&mut c, &admin, &tenant_id).await?, check.clone(), connections, seconds).await?;

    println!("\n## Erasure sweep: {users} players whose relationship ended eleven years ago (GB profile), {batch} players a tick");
    println!("loaded in {load_seconds:.1} s; {erased} erased in {rounds} ticks, {:.1} s ({:.0} players/s); at most {most} players a tick; slowest tick {:.0} ms; AML events left {left}", took.as_secs_f64(), erased as f64 / took.as_secs_f64(), slowest.as_secs_f64() * 1e3);
    println!("\n| limits/check | requests | req/s | p50 µs | p99 µs | baseline req/s ÷ this |");
    println!("|---|---|---|---|---|---|");
    for (i, f) in quiet.iter().enumerate() {
        row(&format!("before, round {}", i + 1), f, baseline);
    }
    row("before: median (baseline)", baseline, baseline);
    for (i, (p, f)) in paused.iter().zip(&during).enumerate() {
        row(&format!("sweep paused, round {}", i + 1), p, baseline);
        row(&format!("during the sweep, round {}", i + 1), f, baseline);
    }
    if !during.is_empty() {
        let (p, m) = (median(&paused), median(&during));
        row("sweep paused: median", p, baseline);
        row("during the sweep: median", m, baseline);
        println!("\nduring ÷ before (medians): {:.3}", m.per_second / baseline.per_second);
        println!("during ÷ paused (medians, the players loaded in both): {:.3}", m.per_second / p.per_second);
    }
    row("after", &after, baseline);
    println!("\n{connections} connections, {seconds} s a round; client and server on the same machine");
    Ok(())
}

fn main() {
    main_with(run());
}
