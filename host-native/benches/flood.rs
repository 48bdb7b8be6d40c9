//! Legitimate latency during an unauthenticated flood, through the real
//! server on SQLite: an operator checks exclusions from one address while
//! attackers send well-formed bad keys from sixteen others (the addresses
//! come through a trusted `X-Forwarded-For`, all on loopback). Measured
//! without, then with the flood; also the audit rows the flood wrote.
//!
//! `cargo bench -p host-native --bench flood` (`CGW_BENCH_SECONDS`, default 5).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use gateway::auth::Environment;
use gateway::{Config, Gateway};
use host_native::rules_engine::ComponentRules;
use host_native::{open_store, OsIds, SystemClock};
use serde_json::{json, Value as Json};

mod common;
use common::Error;

async fn operator_load(base: String, key: String, seconds: u64) -> Result<(usize, f64, f64), Error> {
    let client = reqwest::Client::new();
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut latencies = Vec::new();
    while Instant::now() < deadline {
        let t0 = Instant::now();
        let response = client
            .get(format!("{base}/v1/exclusions/check?email=someone@example.com"))
            .bearer_auth(&key)
            .header("x-forwarded-for", "198.51.100.7")
            .send()
            .await?;
        let status = response.status();
        response.bytes().await?;
        if status != 200 {
            return Err(format!("the operator got {status}").into());
        }
        latencies.push(t0.elapsed());
    }
    latencies.sort();
    let pick = |q: f64| latencies.get(((latencies.len() as f64 - 1.0) * q) as usize).map_or(0.0, |d| d.as_secs_f64() * 1e3);
    Ok((latencies.len(), pick(0.5), pick(0.99)))
}

async fn flood(base: String, seconds: u64, sent: Arc<AtomicUsize>, worker: usize) -> Result<(), Error> {
    let client = reqwest::Client::new();
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut i = 0usize;
    while Instant::now() < deadline {
        let source = format!("203.0.113.{}", (worker * 7 + i) % 16 + 1);
        let response = client
            .get(format!("{base}/v1/exclusions/check?email=someone@example.com"))
            .bearer_auth(format!("cgw_sk_test_{:032}", worker * 1_000_000 + i))
            .header("x-forwarded-for", source)
            .send()
            .await?;
        response.bytes().await?;
        sent.fetch_add(1, Ordering::Relaxed);
        i += 1;
    }
    Ok(())
}

async fn run() -> Result<(), Error> {
    let seconds: u64 = std::env::var("CGW_BENCH_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(5);
    let dir = tempfile::tempdir()?;
    let database = format!("sqlite://{}", dir.path().join("flood.db").display());
    let gateway =
        Gateway::new(open_store(&database).await?, Box::new(ComponentRules::embedded()?), Box::new(SystemClock), Box::new(OsIds), Config::default());
    gateway.migrate().await?;
    let admin = gateway.create_admin_key(Environment::Sandbox).await?;
    let gateway = Arc::new(gateway);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let base = format!("http://{}", listener.local_addr()?);
    let header = http::HeaderName::from_static("x-forwarded-for");
    tokio::spawn(host_native::server::serve_with(listener, gateway.clone(), Some(header), std::future::pending()));
    let tenant: Json = reqwest::Client::new()
        .post(format!("{base}/v1/admin/tenants"))
        .bearer_auth(&admin)
        .header("x-forwarded-for", "198.51.100.7")
        .json(&json!({ "name": "operator", "environment": "sandbox", "rate_limit_per_minute": 1_000_000 }))
        .send()
        .await?
        .json()
        .await?;
    let key = tenant["api_key"].as_str().ok_or_else(|| format!("no key: {tenant}"))?.to_string();

    println!("| run | operator requests | operator p50 ms | operator p99 ms | bad-key requests | audit rows written | rows per million bad keys |");
    println!("|---|---|---|---|---|---|---|");
    let (n, p50, p99) = operator_load(base.clone(), key.clone(), seconds).await?;
    println!("| no flood | {n} | {p50:.2} | {p99:.2} | 0 | 0 | — |");
    let sent = Arc::new(AtomicUsize::new(0));
    let attackers: Vec<_> = (0..6).map(|w| tokio::spawn(flood(base.clone(), seconds, sent.clone(), w))).collect();
    let (n, p50, p99) = operator_load(base.clone(), key.clone(), seconds).await?;
    for attacker in attackers {
        attacker.await??;
    }
    let store = open_store(&database).await?;
    let rows =
        store.scalar("SELECT COUNT(*) FROM auth_failure_counts", vec![]).await? + store.scalar("SELECT COUNT(*) FROM audit_log", vec![]).await?;
    let bad = sent.load(Ordering::Relaxed);
    println!(
        "| 6 connections of bad keys from 16 addresses | {n} | {p50:.2} | {p99:.2} | {bad} | {rows} | {:.0} |",
        rows as f64 / bad.max(1) as f64 * 1e6
    );
    println!("\none operator connection; {seconds} s each; SQLite; client and server on the same 2 cores");
    Ok(())
}

fn main() {
    common::main_with(run());
}
