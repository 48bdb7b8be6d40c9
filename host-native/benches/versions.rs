//! Check-path throughput of several running servers, measured in one run in
//! alternating rounds: for comparing builds of two commits on the same
//! machine at the same time (`scripts/bench-versions.sh BEFORE [AFTER]`).
//!
//! `CGW_BENCH_TARGETS="label|http://127.0.0.1:PORT|ADMIN_KEY;…"`, the first
//! target being the baseline of the ratio column; `CGW_BENCH_SECONDS`,
//! `CGW_BENCH_CONNECTIONS`, `CGW_BENCH_ROUNDS`.

use std::net::SocketAddr;

mod common;
use common::load::load;
use common::{prepare, Error};

struct Target {
    label: String,
    addr: SocketAddr,
    admin: String,
}

fn targets() -> Result<Vec<Target>, Error> {
    let spec = std::env::var("CGW_BENCH_TARGETS").map_err(|_| "set CGW_BENCH_TARGETS (see scripts/bench-versions.sh)")?;
    spec.split(';')
        .filter(|t| !t.is_empty())
        .map(|t| {
            let mut parts = t.splitn(3, '|');
            let (Some(label), Some(url), Some(admin)) = (parts.next(), parts.next(), parts.next()) else {
                return Err(format!("a target is label|url|admin key, not {t}").into());
            };
            let addr: SocketAddr = url.trim_start_matches("http://").trim_end_matches('/').parse().map_err(|e| format!("{url}: {e}"))?;
            if !addr.ip().is_loopback() {
                return Err(format!("{url}: benchmarks send traffic to loopback only").into());
            }
            Ok(Target { label: label.to_string(), addr, admin: admin.to_string() })
        })
        .collect()
}

async fn run() -> Result<(), Error> {
    let env = |name: &str, default: u64| std::env::var(name).ok().and_then(|s| s.parse().ok()).unwrap_or(default);
    let (seconds, connections, rounds) = (env("CGW_BENCH_SECONDS", 5), env("CGW_BENCH_CONNECTIONS", 8) as usize, env("CGW_BENCH_ROUNDS", 5));
    let targets = targets()?;
    let mut prepared = Vec::new();
    for t in &targets {
        prepared.push(prepare(t.addr, &t.admin, "sandbox").await.map_err(|e| format!("preparing {}: {e}", t.label))?);
    }
    println!("| build | endpoint | requests | req/s | p50 µs | p99 µs | ratio to {} |", targets[0].label);
    println!("|---|---|---|---|---|---|---|");
    for endpoint in 0..2 {
        // (requests, mean req/s, mean p50, worst p99) per target
        let mut totals = vec![(0u64, 0.0f64, 0.0f64, 0.0f64); targets.len()];
        for _ in 0..rounds {
            for (i, (t, (key, check, exclusion_path))) in targets.iter().zip(&prepared).enumerate() {
                let (method, path, body) =
                    if endpoint == 0 { ("POST", "/v1/limits/check".to_string(), Some(check.clone())) } else { ("GET", exclusion_path.clone(), None) };
                let f = load(t.addr, method, path, key.clone(), body, connections, seconds).await.map_err(|e| format!("{}: {e}", t.label))?;
                let n = rounds as f64;
                totals[i] = (totals[i].0 + f.requests as u64, totals[i].1 + f.per_second / n, totals[i].2 + f.p50_us / n, totals[i].3.max(f.p99_us));
            }
        }
        let name = if endpoint == 0 { "POST /v1/limits/check" } else { "GET /v1/exclusions/check" };
        for (t, total) in targets.iter().zip(&totals) {
            println!("| {} | {name} | {} | {:.0} | {:.0} | {:.0} | {:.3} |", t.label, total.0, total.1, total.2, total.3, total.1 / totals[0].1);
        }
    }
    println!("\n{connections} connections; {rounds} alternating rounds of {seconds} s per build and endpoint (mean req/s, mean p50, worst p99); client and servers on the same machine");
    Ok(())
}

fn main() {
    common::main_with(run());
}
