//! A legitimate client's latency while thousands of slow-body connections are
//! held against the real server on loopback (issue #29, slow clients).
//!
//! Starts `compliance-gateway serve` (default timeouts and cap) on a fresh
//! SQLite database, then measures a legitimate client (screenings from
//! `CLIENTS` kept-alive connections, one request in ten on a new connection)
//! first alone (the baseline), then while `SLOW` connections that sent their
//! headers and one body byte are held: each one the server closes is opened
//! again, so the number held stays at `SLOW` through the body timeouts.
//!
//! `cargo bench -p host-native --bench slow_clients`; `SLOW` (default 5000),
//! `SECONDS` (default 20 per phase), `CLIENTS` (default 4).
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const SLOW_HEAD: &[u8] = b"POST /v1/sanctions/screen HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer slow\r\ncontent-type: application/json\r\ncontent-length: 200\r\n\r\n{";

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// The bench's own descriptors: one per slow connection, and some.
fn raise_own_descriptor_limit() {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit and setrlimit read and write the struct given.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 {
            limit.rlim_cur = limit.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
    }
}

/// User and system CPU seconds of a process, and its resident memory in MiB.
fn usage(pid: u32) -> (f64, f64) {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let fields: Vec<&str> = stat.get(stat.rfind(')').unwrap_or(0) + 2..).unwrap_or("").split_whitespace().collect();
    let ticks: u64 =
        fields.get(11).and_then(|f| f.parse::<u64>().ok()).unwrap_or(0) + fields.get(12).and_then(|f| f.parse::<u64>().ok()).unwrap_or(0);
    // SAFETY: sysconf only reads a setting.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let rss_kib: f64 = status.lines().find_map(|l| l.strip_prefix("VmRSS:")).and_then(|v| v.split_whitespace().next()?.parse().ok()).unwrap_or(0.0);
    (ticks as f64 / per_second, rss_kib / 1024.0)
}

struct Latencies {
    kept: Vec<Duration>,
    fresh: Vec<Duration>,
    failed: usize,
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1]
}

fn row(label: &str, mut samples: Vec<Duration>) -> String {
    samples.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1_000.0;
    format!(
        "| {label} | {} | {:.1} | {:.1} | {:.1} | {:.1} |",
        samples.len(),
        ms(percentile(&samples, 0.5)),
        ms(percentile(&samples, 0.99)),
        ms(percentile(&samples, 0.999)),
        ms(samples.last().copied().unwrap_or_default())
    )
}

/// The legitimate client for `seconds`: `clients` workers, each a request
/// after another with a 10 ms pause; one in ten on a new connection.
async fn legitimate(base: &str, key: &str, clients: usize, seconds: u64) -> Latencies {
    let until = Instant::now() + Duration::from_secs(seconds);
    let workers = (0..clients).map(|w| {
        let (base, key) = (base.to_string(), key.to_string());
        tokio::spawn(async move {
            let kept_client = reqwest::Client::new();
            let mut result = Latencies { kept: Vec::new(), fresh: Vec::new(), failed: 0 };
            let mut n = 0usize;
            while Instant::now() < until {
                let fresh = n % 10 == 9;
                let fresh_client;
                let client = if fresh {
                    fresh_client = reqwest::Client::builder().pool_max_idle_per_host(0).build().unwrap();
                    &fresh_client
                } else {
                    &kept_client
                };
                let identity = json!({ "user_id": format!("u-{w}-{}", n % 500), "first_name": "Ada", "last_name": "Quiet", "date_of_birth": "1980-01-01", "nationality": "GB", "email": "ada@example.com" });
                let started = Instant::now();
                let sent = client.post(format!("{base}/v1/sanctions/screen")).bearer_auth(&key).json(&identity).timeout(Duration::from_secs(30)).send().await;
                let took = started.elapsed();
                match sent {
                    Ok(r) if r.status().is_success() => {
                        if fresh {
                            result.fresh.push(took)
                        } else {
                            result.kept.push(took)
                        }
                    }
                    _ => result.failed += 1,
                }
                n += 1;
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            result
        })
    });
    let mut all = Latencies { kept: Vec::new(), fresh: Vec::new(), failed: 0 };
    for worker in futures_util::future::join_all(workers).await {
        let worker = worker.unwrap();
        all.kept.extend(worker.kept);
        all.fresh.extend(worker.fresh);
        all.failed += worker.failed;
    }
    all
}

/// Holds one slow-body connection until `stop`, opening it again each time the server closes it.
async fn hold_slow(addr: SocketAddr, held: Arc<AtomicUsize>, reopened: Arc<AtomicUsize>, stop: Arc<tokio::sync::Notify>) {
    let mut buf = [0u8; 1024];
    loop {
        let Ok(mut stream) = TcpStream::connect(addr).await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        if stream.write_all(SLOW_HEAD).await.is_err() {
            continue;
        }
        held.fetch_add(1, Ordering::Relaxed);
        let closed = async {
            while let Ok(n) = stream.read(&mut buf).await {
                if n == 0 {
                    break;
                }
            }
        };
        tokio::select! {
            () = closed => {
                held.fetch_sub(1, Ordering::Relaxed);
                reopened.fetch_add(1, Ordering::Relaxed);
            }
            () = stop.notified() => return,
        }
    }
}

fn main() {
    raise_own_descriptor_limit();
    let slow = env_or("SLOW", 5_000);
    let seconds = env_or("SECONDS", 20) as u64;
    let clients = env_or("CLIENTS", 4);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(async move {
        let dir = tempfile::tempdir().unwrap();
        let database = format!("sqlite://{}", dir.path().join("g.db").display());
        let binary = env!("CARGO_BIN_EXE_compliance-gateway");
        let out = Command::new(binary).args(["admin-key", "create", "--environment", "sandbox", "--database", &database]).output().unwrap();
        let admin = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let mut child = Command::new(binary)
            .args(["serve", "--listen", &format!("127.0.0.1:{port}"), "--database", &database, "--log-format", "none"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let base = format!("http://127.0.0.1:{port}");
        let addr = SocketAddr::from(([127, 0, 0, 1], port));
        while reqwest::get(format!("{base}/v1/health")).await.ok().map(|r| r.status().as_u16()) != Some(200) {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let tenant: serde_json::Value = reqwest::Client::new()
            .post(format!("{base}/v1/admin/tenants"))
            .bearer_auth(&admin)
            .json(&json!({ "name": "bench", "environment": "sandbox", "rate_limit_per_minute": 1_000_000 }))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let key = tenant["api_key"].as_str().expect("a tenant key").to_string();
        let pid = child.id();

        let (cpu0, _) = usage(pid);
        let baseline = legitimate(&base, &key, clients, seconds).await;
        let (cpu1, rss_baseline) = usage(pid);

        let held = Arc::new(AtomicUsize::new(0));
        let reopened = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(tokio::sync::Notify::new());
        let opening = Instant::now();
        for _ in 0..slow {
            tokio::spawn(hold_slow(addr, held.clone(), reopened.clone(), stop.clone()));
        }
        while held.load(Ordering::Relaxed) < slow && opening.elapsed() < Duration::from_secs(30) {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let opened_in = opening.elapsed();
        let sampler = tokio::spawn({
            let held = held.clone();
            async move {
                let (mut least, mut most) = (usize::MAX, 0);
                let until = Instant::now() + Duration::from_secs(seconds);
                while Instant::now() < until {
                    let now = held.load(Ordering::Relaxed);
                    (least, most) = (least.min(now), most.max(now));
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                (least, most)
            }
        });
        let (cpu2, _) = usage(pid);
        let reopened_before = reopened.load(Ordering::Relaxed);
        let attacked = legitimate(&base, &key, clients, seconds).await;
        let (cpu3, rss_attacked) = usage(pid);
        let (least, most) = sampler.await.unwrap();
        let closed_by_server = reopened.load(Ordering::Relaxed) - reopened_before;
        stop.notify_waiters();

        let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
        let cpu_model = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|c| c.lines().find_map(|l| l.strip_prefix("model name").map(|m| m.trim_start_matches([' ', '\t', ':']).to_string())))
            .unwrap_or_default();
        println!("machine: {cores} cores, {cpu_model}; server and load generator on the same machine, loopback");
        println!("legitimate client: {clients} workers, a screening then 10 ms pause, one request in ten on a new connection; {seconds} s per phase");
        println!();
        println!("| phase | requests | p50 ms | p99 ms | p99.9 ms | max ms |");
        println!("|---|---|---|---|---|---|");
        println!("{}", row("baseline, kept-alive", baseline.kept));
        println!("{}", row("baseline, new connection", baseline.fresh));
        println!("{}", row(&format!("{slow} slow bodies held, kept-alive"), attacked.kept));
        println!("{}", row(&format!("{slow} slow bodies held, new connection"), attacked.fresh));
        println!();
        println!("failed requests: baseline {}, under slow bodies {}", baseline.failed, attacked.failed);
        println!("slow connections: {slow} opened in {opened_in:.1?}; held during the measurement between {least} and {most}; {closed_by_server} closed by the server (body timeout) and reopened");
        println!(
            "server CPU: baseline {:.0}% of a core, under slow bodies {:.0}%; resident memory {:.0} MiB, then {:.0} MiB",
            (cpu1 - cpu0) / seconds as f64 * 100.0,
            (cpu3 - cpu2) / seconds as f64 * 100.0,
            rss_baseline,
            rss_attacked
        );
        let _ = child.kill();
        let _ = child.wait();
    });
}
