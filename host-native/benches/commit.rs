//! What durable commits cost: `limits/commit` (a deposit written atomically
//! against the limits) on SQLite with `synchronous=full` (the default: an
//! acknowledged deposit survives power loss) against `synchronous=normal`,
//! in alternating rounds. Loopback only.
//!
//! `cargo bench -p host-native --bench commit` (`CGW_BENCH_SECONDS`, `CGW_BENCH_CONNECTIONS`).

use std::time::{Duration, Instant};

use serde_json::json;

mod common;
use common::{start_gateway_with, Error};

async fn post(client: &reqwest::Client, url: &str, key: &str, body: serde_json::Value) -> Result<(u16, serde_json::Value), Error> {
    let r = client.post(url).bearer_auth(key).json(&body).send().await?;
    Ok((r.status().as_u16(), r.json().await.unwrap_or(serde_json::Value::Null)))
}

async fn run() -> Result<(), Error> {
    let seconds: u64 = std::env::var("CGW_BENCH_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(3);
    let connections: usize = std::env::var("CGW_BENCH_CONNECTIONS").ok().and_then(|s| s.parse().ok()).unwrap_or(8);
    let dir = tempfile::tempdir()?;
    let client = reqwest::Client::new();
    let mut targets = Vec::new();
    for mode in ["full", "normal"] {
        let url = format!("sqlite://{}?synchronous={mode}", dir.path().join(format!("{mode}.db")).display());
        let (addr, admin) = start_gateway_with(&url, false, gateway::Config::default()).await?;
        let base = format!("http://{addr}");
        let (_, tenant) = post(
            &client,
            &format!("{base}/v1/admin/tenants"),
            &admin,
            json!({ "name": "b", "environment": "sandbox", "rate_limit_per_minute": 1_000_000 }),
        )
        .await?;
        let key = tenant["api_key"].as_str().ok_or("no key")?.to_string();
        for c in 0..connections {
            let who = json!({ "user_id": format!("u{c}"), "first_name": "Ann", "last_name": "Lee", "date_of_birth": "1990-01-01", "nationality": "GB", "email": format!("u{c}@example.com") });
            post(&client, &format!("{base}/v1/sanctions/screen"), &key, who).await?;
        }
        targets.push((mode, base, key));
    }
    let mut totals = vec![(0usize, 0.0f64, Vec::<Duration>::new()); targets.len()];
    for round in 0..3 {
        for (i, (_, base, key)) in targets.iter().enumerate() {
            let deadline = Instant::now() + Duration::from_secs(seconds);
            let started = Instant::now();
            let mut tasks = Vec::new();
            for c in 0..connections {
                let (client, url, key) = (client.clone(), format!("{base}/v1/limits/commit"), key.clone());
                tasks.push(tokio::spawn(async move {
                    let mut latencies = Vec::new();
                    let mut n = 0u64;
                    while Instant::now() < deadline {
                        let body = json!({ "transaction_id": format!("r{round}-c{c}-{n}"), "user_id": format!("u{c}"), "amount_cents": 100, "currency": "USD" });
                        let t0 = Instant::now();
                        let (status, b) = post(&client, &url, &key, body).await?;
                        if status != 201 {
                            return Err::<Vec<Duration>, Error>(format!("commit answered {status}: {b}").into());
                        }
                        latencies.push(t0.elapsed());
                        n += 1;
                    }
                    Ok(latencies)
                }));
            }
            let mut all = Vec::new();
            for t in tasks {
                all.extend(t.await??);
            }
            let elapsed = started.elapsed().as_secs_f64();
            if let Some(total) = totals.get_mut(i) {
                total.0 += all.len();
                total.1 += elapsed;
                total.2.extend(all);
            }
            tokio::time::sleep(Duration::from_millis(400)).await;
        }
    }
    println!("| SQLite synchronous | commits | commits/s | p50 µs | p99 µs |");
    println!("|---|---|---|---|---|");
    for ((mode, _, _), (count, elapsed, mut latencies)) in targets.iter().zip(totals) {
        latencies.sort();
        let pick = |q: f64| latencies.get(((latencies.len() as f64 - 1.0) * q) as usize).map_or(0.0, |d| d.as_secs_f64() * 1e6);
        println!("| {mode} | {count} | {:.0} | {:.0} | {:.0} |", count as f64 / elapsed, pick(0.5), pick(0.99));
    }
    println!("\n{connections} connections, each its own user; 3 alternating rounds of {seconds} s");
    Ok(())
}

fn main() {
    common::main_with(run());
}
