//! Load benchmark on loopback: `limits/check` and `exclusions/check` through
//! the real server on SQLite (and Postgres when `CGW_BENCH_POSTGRES_URL` is
//! set), beside a bare hyper handler measured in the same run as the ceiling,
//! and a bare handler doing one indexed SQLite read as the baseline the
//! check path is held to.
//!
//! `cargo bench -p host-native --bench http` (`CGW_BENCH_SECONDS`, `CGW_BENCH_CONNECTIONS`;
//! `CGW_BENCH_EDGE_URL` with `CGW_BENCH_EDGE_ADMIN_KEY` adds a running edge
//! host, see `scripts/bench-edge.sh`).

use std::convert::Infallible;
use std::net::SocketAddr;

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use serde_json::json;
use tokio::net::TcpListener;

mod common;
use common::load::load;
use common::{prepare, start_gateway_in, Error};
use gateway::auth::Environment;

async fn start_bare() -> Result<SocketAddr, Error> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else { continue };
            let _ = stream.set_nodelay(true);
            tokio::spawn(async move {
                let service = hyper::service::service_fn(|request: hyper::Request<hyper::body::Incoming>| async move {
                    let _ = request.into_body().collect().await;
                    Ok::<_, Infallible>(hyper::Response::new(Full::new(Bytes::from_static(br#"{"allowed":true}"#))))
                });
                let _ = hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(stream), service).await;
            });
        }
    });
    Ok(addr)
}

/// The baseline the check path is held to: a bare hyper handler that does
/// one indexed SQLite read per request (a primary-key look-up in a table of
/// 100,000 rows, WAL mode), on a blocking thread from a pool of four read
/// connections, as a minimal real service would.
async fn start_bare_sqlite_read(path: &std::path::Path) -> Result<SocketAddr, Error> {
    let setup = rusqlite::Connection::open(path)?;
    setup.execute_batch("PRAGMA journal_mode = WAL; CREATE TABLE kv (k TEXT PRIMARY KEY, v TEXT NOT NULL);")?;
    setup.execute_batch("BEGIN")?;
    for i in 0..100_000 {
        setup.execute("INSERT INTO kv (k, v) VALUES (?1, ?2)", rusqlite::params![format!("key-{i}"), format!("{{\"allowed\":true,\"n\":{i}}}")])?;
    }
    setup.execute_batch("COMMIT")?;
    let readers: Vec<std::sync::Mutex<rusqlite::Connection>> =
        (0..4).map(|_| rusqlite::Connection::open(path).map(std::sync::Mutex::new)).collect::<Result<_, _>>()?;
    let readers = std::sync::Arc::new(readers);
    let next = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else { continue };
            let _ = stream.set_nodelay(true);
            let (readers, next) = (readers.clone(), next.clone());
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |request: hyper::Request<hyper::body::Incoming>| {
                    let (readers, next) = (readers.clone(), next.clone());
                    async move {
                        let _ = request.into_body().collect().await;
                        let turn = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed) % readers.len();
                        let value = tokio::task::spawn_blocking(move || {
                            let connection = readers[turn].lock().ok()?;
                            let mut statement = connection.prepare_cached("SELECT v FROM kv WHERE k = ?1").ok()?;
                            statement.query_row(["key-4242"], |row| row.get::<_, String>(0)).ok()
                        })
                        .await
                        .ok()
                        .flatten()
                        .unwrap_or_default();
                        Ok::<_, Infallible>(hyper::Response::new(Full::new(Bytes::from(value))))
                    }
                });
                let _ = hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(stream), service).await;
            });
        }
    });
    Ok(addr)
}

async fn run() -> Result<(), Error> {
    let seconds: u64 = std::env::var("CGW_BENCH_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(5);
    let connections: usize = std::env::var("CGW_BENCH_CONNECTIONS").ok().and_then(|s| s.parse().ok()).unwrap_or(8);
    let dir = tempfile::tempdir()?;
    let mut stores = vec![("sqlite", format!("sqlite://{}", dir.path().join("bench.db").display()))];
    if let Ok(url) = std::env::var("CGW_BENCH_POSTGRES_URL") {
        stores.push(("postgres", url));
    }
    let bare = start_bare().await?;
    let baseline = load(
        bare,
        "POST",
        "/".into(),
        "none".into(),
        Some(json!({ "user_id": "bench-user", "amount_cents": 500, "currency": "USD" })),
        connections,
        seconds,
    )
    .await?;
    let bare_read = start_bare_sqlite_read(&dir.path().join("baseline.db")).await?;
    let read_baseline = load(bare_read, "GET", "/".into(), "none".into(), None, connections, seconds).await?;
    println!("| target | endpoint | requests | req/s | p50 µs | p99 µs | throughput vs bare hyper | vs bare hyper + one SQLite read |");
    println!("|---|---|---|---|---|---|---|---|");
    println!(
        "| bare hyper handler | POST / | {} | {:.0} | {:.0} | {:.0} | 1.00 | {:.2} |",
        baseline.requests,
        baseline.per_second,
        baseline.p50_us,
        baseline.p99_us,
        baseline.per_second / read_baseline.per_second
    );
    println!(
        "| bare hyper handler, one indexed SQLite read | GET / | {} | {:.0} | {:.0} | {:.0} | {:.3} | 1.00 |",
        read_baseline.requests,
        read_baseline.per_second,
        read_baseline.p50_us,
        read_baseline.p99_us,
        read_baseline.per_second / baseline.per_second
    );
    // The decision log is measured on and off in alternating rounds, so
    // that the machine's drift during the run falls on both alike.
    let rounds = 3;
    for (name, url) in &stores {
        let mut modes = Vec::new();
        // On Postgres the served rate limit is a counter in the database
        // (several hosts share it); the per-process one runs beside it.
        let per_process = (*name == "postgres").then_some(("decision log on, per-process rate limit", gateway::Config::default(), false));
        for (mode, config, shared_limit) in [
            ("decision log on", gateway::Config::default(), true),
            ("decision log off", gateway::Config { skip_read_decision_log: true, ..Default::default() }, true),
        ]
        .into_iter()
        .chain(per_process)
        {
            let url = if url.starts_with("sqlite") { url.replace("bench.db", &format!("bench-{}.db", mode.len())) } else { url.clone() };
            let (addr, admin) =
                start_gateway_in(&url, false, config, shared_limit, Environment::Production).await.map_err(|e| format!("starting on {name}: {e}"))?;
            let prepared = prepare(addr, &admin, "production").await.map_err(|e| format!("preparing on {name}: {e}"))?;
            modes.push((mode, addr, prepared));
        }
        for endpoint in ["POST /v1/limits/check", "GET /v1/exclusions/check"] {
            let mut totals: Vec<(u64, f64, f64, f64)> = vec![(0, 0.0, 0.0, 0.0); modes.len()];
            for _ in 0..rounds {
                for (i, (_, addr, (key, check, exclusion_path))) in modes.iter().enumerate() {
                    let (method, path, body) = match endpoint {
                        "POST /v1/limits/check" => ("POST", "/v1/limits/check".to_string(), Some(check.clone())),
                        _ => ("GET", exclusion_path.clone(), None),
                    };
                    let f = load(*addr, method, path.clone(), key.clone(), body, connections, seconds)
                        .await
                        .map_err(|e| format!("loading {path} on {name}: {e}"))?;
                    if let Some(t) = totals.get_mut(i) {
                        *t = (t.0 + f.requests as u64, t.1 + f.per_second / rounds as f64, t.2 + f.p50_us / rounds as f64, t.3.max(f.p99_us));
                    }
                    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
                }
            }
            for ((mode, _, _), (requests, per_second, p50, p99)) in modes.iter().zip(&totals) {
                println!(
                    "| gateway on {name}, {mode} | {endpoint} | {requests} | {per_second:.0} | {p50:.0} | {p99:.0} | {:.3} | {:.3} |",
                    per_second / baseline.per_second,
                    per_second / read_baseline.per_second
                );
            }
        }
        // Two hosts on one Postgres, the connections split between them,
        // beside the first mode's single host measured above.
        if *name == "postgres" {
            if let Some((_, first, (key, check, _))) = modes.first() {
                let (second, _) = start_gateway_in(url, false, gateway::Config::default(), true, Environment::Production).await?;
                let mut both = Vec::new();
                for _ in 0..rounds {
                    let half = (connections / 2).max(1);
                    let (a, b) = tokio::join!(
                        load(*first, "POST", "/v1/limits/check".into(), key.clone(), Some(check.clone()), half, seconds),
                        load(second, "POST", "/v1/limits/check".into(), key.clone(), Some(check.clone()), connections - half, seconds)
                    );
                    let (a, b) = (a?, b?);
                    both.push((a.requests + b.requests, a.per_second + b.per_second, a.p50_us.max(b.p50_us), a.p99_us.max(b.p99_us)));
                }
                let n = both.len() as f64;
                let requests: usize = both.iter().map(|r| r.0).sum();
                let per_second = both.iter().map(|r| r.1).sum::<f64>() / n;
                let p50 = both.iter().map(|r| r.2).sum::<f64>() / n;
                let p99 = both.iter().map(|r| r.3).fold(0.0, f64::max);
                println!(
                    "| two gateways on postgres (one process), decision log on | POST /v1/limits/check | {requests} | {per_second:.0} | {p50:.0} | {p99:.0} | {:.3} | {:.3} |",
                    per_second / baseline.per_second,
                    per_second / read_baseline.per_second
                );
            }
        }
    }
    if let (Ok(url), Ok(admin)) = (std::env::var("CGW_BENCH_EDGE_URL"), std::env::var("CGW_BENCH_EDGE_ADMIN_KEY")) {
        let addr: SocketAddr = url.trim_start_matches("http://").trim_end_matches('/').parse().map_err(|e| format!("CGW_BENCH_EDGE_URL: {e}"))?;
        let (key, check, exclusion_path) = prepare(addr, &admin, "sandbox").await.map_err(|e| format!("preparing the edge: {e}"))?;
        for (method, path, body) in [("POST", "/v1/limits/check".to_string(), Some(check)), ("GET", exclusion_path, None)] {
            let mut total = (0u64, 0.0f64, 0.0f64, 0.0f64);
            for _ in 0..rounds {
                let f = load(addr, method, path.clone(), key.clone(), body.clone(), connections, seconds)
                    .await
                    .map_err(|e| format!("loading {path} on the edge: {e}"))?;
                total =
                    (total.0 + f.requests as u64, total.1 + f.per_second / rounds as f64, total.2 + f.p50_us / rounds as f64, total.3.max(f.p99_us));
            }
            let endpoint = if method == "POST" { "POST /v1/limits/check" } else { "GET /v1/exclusions/check" };
            println!(
                "| edge host (wrangler dev, local D1), decision log on | {endpoint} | {} | {:.0} | {:.0} | {:.0} | {:.3} | {:.3} |",
                total.0,
                total.1,
                total.2,
                total.3,
                total.1 / baseline.per_second,
                total.1 / read_baseline.per_second
            );
        }
    }
    println!("\n{connections} connections; gateway rows: {rounds} alternating rounds of {seconds} s each (mean req/s, mean p50, worst p99); client and server on the same machine");
    Ok(())
}

fn main() {
    common::main_with(run());
}
