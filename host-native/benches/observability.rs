//! What operating the host costs the check path: `limits/check` against the
//! real `serve` binary on loopback with metrics recorded (and scraped every
//! second) and the JSON request log written to a file, against the same
//! binary with neither (`--no-metrics --log-format none`), in alternating
//! rounds of one run. Goal: at most 5% of the throughput lost.
//!
//! `cargo bench -p host-native --bench observability` (`CGW_BENCH_SECONDS`,
//! `CGW_BENCH_CONNECTIONS`, `CGW_BENCH_ROUNDS`).

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

mod common;
use common::load::{load, Conn, Figures};
use common::{prepare, Error};

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> Result<u16, Error> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

async fn start(dir: &std::path::Path, name: &str, observed: bool) -> Result<(Server, SocketAddr, String), Error> {
    let bin = env!("CARGO_BIN_EXE_compliance-gateway");
    let database = format!("sqlite://{}", dir.join(format!("{name}.db")).display());
    let admin = Command::new(bin).args(["admin-key", "create", "--environment", "sandbox", "--database", &database]).output()?;
    let admin = String::from_utf8(admin.stdout)?.trim().to_string();
    let port = free_port()?;
    let mut command = Command::new(bin);
    command.args(["serve", "--listen", &format!("127.0.0.1:{port}"), "--database", &database]);
    let log = if observed {
        command.args(["--log-format", "json"]);
        Stdio::from(std::fs::File::create(dir.join(format!("{name}.log")))?)
    } else {
        command.args(["--log-format", "none", "--no-metrics"]);
        Stdio::null()
    };
    let server = Server(command.stdout(log).stderr(Stdio::null()).spawn()?);
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse()?;
    for _ in 0..300 {
        if Conn::open(addr).await.is_ok() {
            return Ok((server, addr, admin));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Err("the server did not start".into())
}

/// Scrapes `/metrics` every second, as Prometheus would, until dropped.
fn scrape(addr: SocketAddr, admin: String) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            if let Ok(mut conn) = Conn::open(addr).await {
                let _ = conn.send("GET", "/metrics", &admin, None).await;
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    })
}

fn main() {
    common::main_with(async {
        let env = |name: &str, default: u64| std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
        let (seconds, connections, rounds) = (env("CGW_BENCH_SECONDS", 5), env("CGW_BENCH_CONNECTIONS", 32) as usize, env("CGW_BENCH_ROUNDS", 3));
        let dir = tempfile::tempdir()?;
        let (_on_server, on, on_admin) = start(dir.path(), "on", true).await?;
        let (_off_server, off, off_admin) = start(dir.path(), "off", false).await?;
        let (on_key, check, _) = prepare(on, &on_admin, "sandbox").await?;
        let (off_key, _, _) = prepare(off, &off_admin, "sandbox").await?;
        let scraper = scrape(on, on_admin);
        let (mut with, mut without) = (Vec::new(), Vec::new());
        for round in 0..rounds {
            // alternate which goes first, so that neither always runs on a warmer machine
            for observed in if round % 2 == 0 { [true, false] } else { [false, true] } {
                let (addr, key) = if observed { (on, on_key.clone()) } else { (off, off_key.clone()) };
                let figures = load(addr, "POST", "/v1/limits/check".into(), key, Some(check.clone()), connections, seconds).await?;
                println!(
                    "round {round} {:<28} {:>9.0} req/s  p50 {:>6.0} µs  p99 {:>6.0} µs",
                    if observed { "metrics + JSON log" } else { "neither" },
                    figures.per_second,
                    figures.p50_us,
                    figures.p99_us
                );
                if observed {
                    with.push(figures)
                } else {
                    without.push(figures)
                }
            }
        }
        scraper.abort();
        let mean = |all: &[Figures], f: fn(&Figures) -> f64| all.iter().map(f).sum::<f64>() / all.len().max(1) as f64;
        let (on_rps, off_rps) = (mean(&with, |f| f.per_second), mean(&without, |f| f.per_second));
        println!(
            "limits/check, {connections} connections, {rounds} rounds of {seconds} s each: metrics + JSON log {on_rps:.0} req/s (p99 {:.0} µs), neither {off_rps:.0} req/s (p99 {:.0} µs): {:.1}% of the throughput lost",
            mean(&with, |f| f.p99_us),
            mean(&without, |f| f.p99_us),
            (1.0 - on_rps / off_rps) * 100.0
        );
        let lines = std::fs::read_to_string(dir.path().join("on.log")).map(|t| t.lines().count()).unwrap_or(0);
        println!("the observed host logged {lines} lines");
        Ok(())
    });
}
