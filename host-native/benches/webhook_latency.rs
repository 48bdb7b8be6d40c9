//! Exclusion push latency: from the 201 of `POST /v1/exclusions` to the
//! `exclusion.created` webhook arriving at a receiver on loopback, through
//! the real server, store, outbox and delivery loop.
//!
//! `cargo bench -p host-native --bench webhook_latency` (`CGW_BENCH_EXCLUSIONS`, default 2000;
//! `CGW_BENCH_POSTGRES_URL` adds a Postgres run; `CGW_BENCH_EDGE_URL` with
//! `CGW_BENCH_EDGE_ADMIN_KEY` adds a running edge host, see `scripts/bench-edge.sh`).

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value as Json};

mod common;
use common::{start_gateway, Error};
type Arrivals = Arc<Mutex<HashMap<String, Instant>>>;

async fn receiver(arrivals: Arrivals) -> Result<SocketAddr, Error> {
    common::receiver(move |_, envelope, at| {
        if let (Some(id), Ok(mut a)) = (envelope["data"]["exclusion_id"].as_str(), arrivals.lock()) {
            a.entry(id.to_string()).or_insert(at);
        }
    })
    .await
}

async fn run_store(name: &str, database: &str, count: usize) -> Result<(), Error> {
    let (addr, admin) = start_gateway(database, true).await?;
    run_target(name, &format!("http://{addr}"), &admin, count).await
}

async fn run_target(name: &str, base: &str, admin: &str, count: usize) -> Result<(), Error> {
    let arrivals: Arrivals = Arc::new(Mutex::new(HashMap::new()));
    let hook_addr = receiver(arrivals.clone()).await?;
    let client = reqwest::Client::new();
    let post = |key: &str, path: &str, body: Json| client.post(format!("{base}{path}")).bearer_auth(key).json(&body).send();
    let tenant: Json = post(admin, "/v1/admin/tenants", json!({ "name": "latency", "environment": "sandbox", "rate_limit_per_minute": 1_000_000 }))
        .await?
        .json()
        .await?;
    let key = tenant["api_key"].as_str().ok_or("no key")?.to_string();
    post(&key, "/v1/webhooks", json!({ "url": format!("http://{hook_addr}/hooks") })).await?;
    let mut created: Vec<(String, Instant)> = Vec::with_capacity(count);
    for i in 0..count {
        let user = format!("latency-{i}");
        post(&key, "/v1/sanctions/screen", json!({ "user_id": user, "first_name": "Ann", "last_name": "Lee", "date_of_birth": "1990-01-01", "nationality": "GB", "email": format!("{user}@example.com") })).await?;
        let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        let response =
            post(&key, "/v1/exclusions", json!({ "user_id": user, "duration": "duration_7d", "reason": "self_initiated", "initiated_at": now }))
                .await?;
        let at = Instant::now();
        let body: Json = response.json().await?;
        created.push((body["exclusion_id"].as_str().ok_or("no exclusion id")?.to_string(), at));
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    while arrivals.lock().map(|a| a.len()).unwrap_or(0) < count && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let arrived = arrivals.lock().map(|a| a.clone()).unwrap_or_default();
    let mut early = 0;
    let mut latencies: Vec<f64> = created
        .iter()
        .filter_map(|(id, at)| {
            let arrival = arrived.get(id)?;
            Some(match arrival.checked_duration_since(*at) {
                Some(d) => d.as_secs_f64() * 1e3,
                None => {
                    early += 1;
                    0.0
                }
            })
        })
        .collect();
    latencies.sort_by(f64::total_cmp);
    let pick = |q: f64| latencies.get(((latencies.len() as f64 - 1.0) * q) as usize).copied().unwrap_or(f64::NAN);
    println!(
        "| {name} | {count} | {} | {:.2} | {:.2} | {:.2} | {early} |",
        latencies.len(),
        pick(0.5),
        pick(0.99),
        latencies.last().copied().unwrap_or(f64::NAN)
    );
    Ok(())
}

async fn run() -> Result<(), Error> {
    let count: usize = std::env::var("CGW_BENCH_EXCLUSIONS").ok().and_then(|s| s.parse().ok()).unwrap_or(2_000);
    let dir = tempfile::tempdir()?;
    println!("| store | exclusions | delivered | p50 ms | p99 ms | max ms | arrived before the 201 reached the client |");
    println!("|---|---|---|---|---|---|---|");
    run_store("sqlite", &format!("sqlite://{}", dir.path().join("latency.db").display()), count).await?;
    if let Ok(url) = std::env::var("CGW_BENCH_POSTGRES_URL") {
        run_store("postgres", &url, count).await?;
    }
    if let (Ok(url), Ok(admin)) = (std::env::var("CGW_BENCH_EDGE_URL"), std::env::var("CGW_BENCH_EDGE_ADMIN_KEY")) {
        run_target("edge (wrangler dev, local D1)", &url, &admin, count).await?;
    }
    Ok(())
}

fn main() {
    common::main_with(run());
}
