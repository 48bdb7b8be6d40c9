//! Exclusion fan-out at scale: an exclusion goes to every tenant of the
//! environment. One exclusion to 1,000 tenants each with an endpoint, then a
//! burst of 100 exclusions (from 100 tenants at once) to 100 endpoints;
//! latency from the 201 reaching the client to each endpoint's delivery, all
//! on loopback (one receiver, one path per endpoint), through the real
//! server, store, outbox and delivery loop.
//!
//! `cargo bench -p host-native --bench fanout` (`CGW_BENCH_ENDPOINTS`,
//! default 1000; `CGW_BENCH_BURST`, default 100; `CGW_BENCH_POSTGRES_URL`
//! adds a Postgres run).

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value as Json};

mod common;
use common::{start_gateway, Error};

/// When each (endpoint path, exclusion id) delivery first arrived.
type Arrivals = Arc<Mutex<HashMap<(String, String), Instant>>>;

async fn receiver(arrivals: Arrivals) -> Result<SocketAddr, Error> {
    common::receiver(move |path, envelope, at| {
        if let (Some(id), Ok(mut a)) = (envelope["data"]["exclusion_id"].as_str(), arrivals.lock()) {
            a.entry((path.to_string(), id.to_string())).or_insert(at);
        }
    })
    .await
}

struct Target {
    client: reqwest::Client,
    base: String,
}

impl Target {
    async fn post(&self, key: &str, path: &str, body: Json) -> Result<(u16, Json), Error> {
        let response = self.client.post(format!("{}{path}", self.base)).bearer_auth(key).json(&body).send().await?;
        let status = response.status().as_u16();
        Ok((status, response.json().await.unwrap_or(Json::Null)))
    }

    /// `count` tenants, each with an endpoint at its own path; answers their keys and webhook ids.
    async fn tenants(&self, admin: &str, hooks: SocketAddr, count: usize, label: &str) -> Result<Vec<(String, String)>, Error> {
        let mut keys = Vec::with_capacity(count);
        for i in 0..count {
            let (_, tenant) = self
                .post(
                    admin,
                    "/v1/admin/tenants",
                    json!({ "name": format!("{label}-{i}"), "environment": "sandbox", "rate_limit_per_minute": 1_000_000 }),
                )
                .await?;
            let key = tenant["api_key"].as_str().ok_or("no key")?.to_string();
            let (status, hook) = self.post(&key, "/v1/webhooks", json!({ "url": format!("http://{hooks}/{label}/{i}") })).await?;
            if status != 201 {
                return Err(format!("webhook registration answered {status}: {hook}").into());
            }
            keys.push((key, hook["webhook_id"].as_str().ok_or("no webhook id")?.to_string()));
        }
        Ok(keys)
    }

    /// Screens a user and excludes them; answers the exclusion id and when the 201 arrived.
    async fn exclude(&self, key: &str, user: &str) -> Result<(String, Instant), Error> {
        let person = json!({ "user_id": user, "first_name": "Ann", "last_name": "Lee", "date_of_birth": "1990-01-01", "nationality": "GB", "email": format!("{user}@example.com") });
        self.post(key, "/v1/sanctions/screen", person).await?;
        let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        let (status, body) = self
            .post(key, "/v1/exclusions", json!({ "user_id": user, "duration": "duration_7d", "reason": "self_initiated", "initiated_at": now }))
            .await?;
        let at = Instant::now();
        if status != 201 {
            return Err(format!("exclusion answered {status}: {body}").into());
        }
        Ok((body["exclusion_id"].as_str().ok_or("no exclusion id")?.to_string(), at))
    }
}

/// Waits for `expected` deliveries under `label`; prints the latency row.
async fn report(name: &str, scenario: &str, arrivals: &Arrivals, label: &str, created: &HashMap<String, Instant>, expected: usize) {
    let deadline = Instant::now() + Duration::from_secs(60);
    let count =
        || arrivals.lock().map(|a| a.keys().filter(|(p, id)| p.starts_with(&format!("/{label}/")) && created.contains_key(id)).count()).unwrap_or(0);
    while count() < expected && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let arrived = arrivals.lock().map(|a| a.clone()).unwrap_or_default();
    let mut latencies: Vec<f64> = arrived
        .iter()
        .filter(|((path, _), _)| path.starts_with(&format!("/{label}/")))
        .filter_map(|((_, id), at)| Some(at.saturating_duration_since(*created.get(id)?).as_secs_f64() * 1e3))
        .collect();
    latencies.sort_by(f64::total_cmp);
    let pick = |q: f64| latencies.get(((latencies.len() as f64 - 1.0) * q) as usize).copied().unwrap_or(f64::NAN);
    println!(
        "| {name} | {scenario} | {expected} | {} | {:.1} | {:.1} | {:.1} |",
        latencies.len(),
        pick(0.5),
        pick(0.99),
        latencies.last().copied().unwrap_or(f64::NAN)
    );
}

async fn run_store(name: &str, database: &str, endpoints: usize, burst: usize) -> Result<(), Error> {
    let (addr, admin) = start_gateway(database, true).await?;
    let target = Target { client: reqwest::Client::builder().pool_max_idle_per_host(64).build()?, base: format!("http://{addr}") };
    let arrivals: Arrivals = Arc::new(Mutex::new(HashMap::new()));
    let hooks = receiver(arrivals.clone()).await?;

    // One exclusion, every tenant's endpoint.
    let keys = target.tenants(&admin, hooks, endpoints, "wide").await?;
    let (id, at) = target.exclude(&keys[0].0, "fanout-one").await?;
    report(name, &format!("1 exclusion to {endpoints} endpoints"), &arrivals, "wide", &HashMap::from([(id, at)]), endpoints).await;
    // Those endpoints go, so that the burst reaches its own 100 only.
    for (key, webhook_id) in &keys {
        target.client.delete(format!("{}/v1/webhooks/{webhook_id}", target.base)).bearer_auth(key).send().await?;
    }

    // A burst: 100 tenants each exclude a user at once, every exclusion to every tenant's endpoint.
    let burst_keys: Vec<String> = target.tenants(&admin, hooks, burst, "burst").await?.into_iter().map(|(key, _)| key).collect();
    let started = Instant::now();
    let mut tasks = Vec::new();
    for (i, key) in burst_keys.iter().enumerate() {
        let (client, base, key) = (target.client.clone(), target.base.clone(), key.clone());
        tasks.push(tokio::spawn(async move { Target { client, base }.exclude(&key, &format!("burst-user-{i}")).await.map_err(|e| e.to_string()) }));
    }
    let mut created = HashMap::new();
    for task in tasks {
        let (id, at) = task.await??;
        created.insert(id, at);
    }
    let posting = started.elapsed().as_secs_f64() * 1e3;
    report(
        name,
        &format!("burst of {burst} exclusions (posted in {posting:.0} ms) to {burst} endpoints"),
        &arrivals,
        "burst",
        &created,
        burst * burst,
    )
    .await;
    Ok(())
}

async fn run() -> Result<(), Error> {
    let endpoints: usize = std::env::var("CGW_BENCH_ENDPOINTS").ok().and_then(|s| s.parse().ok()).unwrap_or(1_000);
    let burst: usize = std::env::var("CGW_BENCH_BURST").ok().and_then(|s| s.parse().ok()).unwrap_or(100);
    let dir = tempfile::tempdir()?;
    println!("| store | scenario | deliveries expected | arrived | p50 ms | p99 ms | max ms |");
    println!("|---|---|---|---|---|---|---|");
    run_store("SQLite", &format!("sqlite://{}", dir.path().join("fanout.db").display()), endpoints, burst).await?;
    if let Ok(url) = std::env::var("CGW_BENCH_POSTGRES_URL") {
        run_store("Postgres", &url, endpoints, burst).await?;
    }
    println!("\nlatency from the 201 reaching the client to each delivery arriving; client, server and receiver on the same machine");
    Ok(())
}

fn main() {
    common::main_with(run());
}
