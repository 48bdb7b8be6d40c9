//! Production screening on loopback, through the real server on SQLite:
//! the import time of OFAC's SDN list (January 2022, 9,044 entries, 21,453
//! names), screening latency with it loaded, then the same with a generated
//! list of 1,000,000 names, beside a bare `GET /v1/health` in the same run.
//!
//! `cargo bench -p host-native --bench screening` (`CGW_BENCH_SCREENS`, default 400;
//! `CGW_BENCH_SCALE_NAMES`, default 1000000). `CGW_BENCH_BASELINE_RULES=path/to/cgw_rules.wasm`
//! measures another component first, in the same run (e.g. the one before a
//! change of the index keys: its imports key the names its way), each on a
//! server and database of its own.

use std::time::{Duration, Instant};

use gateway::auth::Environment;
use gateway::lists::{parse, ListEntry, ListFormat};
use gateway::{Config, Gateway};
use host_native::rules_engine::ComponentRules;
use host_native::{open_store, OsIds, SystemClock};
use rules::EntryKind;
use serde_json::{json, Value as Json};

mod common;
use common::Error;

const OFAC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../conformance/data/ofac-sdn-2022-01");

fn api(e: gateway::error::ApiError) -> Error {
    format!("{}: {}", e.code, e.message).into()
}

/// The component measured: the baseline's file, or the embedded one.
fn component(path: Option<&str>) -> Result<ComponentRules, Error> {
    Ok(match path {
        Some(path) => ComponentRules::load(std::path::Path::new(path))?,
        None => ComponentRules::embedded()?,
    })
}

async fn importer(database: &str, rules: Option<&str>) -> Result<Gateway, Error> {
    let gateway = Gateway::new(open_store(database).await?, Box::new(component(rules)?), Box::new(SystemClock), Box::new(OsIds), Config::default());
    gateway.migrate().await?;
    Ok(gateway)
}

/// A server on loopback over `database`, screening through `rules`.
async fn serve(database: &str, rules: Option<&str>) -> Result<std::net::SocketAddr, Error> {
    let gateway = std::sync::Arc::new(importer(database, rules).await?);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    tokio::spawn(host_native::server::serve(listener, gateway, std::future::pending()));
    Ok(addr)
}

/// Names that look like the lists' (two or three syllable words), seeded.
fn generated(count: usize) -> Vec<ListEntry> {
    const SYLLABLES: &[&str] = &[
        "al", "ba", "ri", "ko", "na", "mu", "sha", "de", "vi", "lo", "ten", "gar", "mir", "zan", "ul", "pe", "qa", "is", "ro", "fen", "ta", "sim",
        "ha", "dor", "ev", "ni", "kas", "bel", "ju", "ore",
    ];
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut word = |parts: usize| -> String {
        let mut w = String::new();
        for _ in 0..parts {
            w.push_str(SYLLABLES[(next() % SYLLABLES.len() as u64) as usize]);
        }
        w
    };
    (0..count)
        .map(|i| ListEntry {
            entity_id: format!("GEN-{i}"),
            kind: EntryKind::Individual,
            names: vec![format!("{} {} {}", word(2), word(3), word(2))],
            dates_of_birth: vec![],
            nationalities: vec![],
            programs: String::new(),
            topic: rules::EntryTopic::Sanction,
        })
        .collect()
}

async fn screen_many(base: &str, key: &str, count: usize, names: &[(&str, &str)]) -> Result<(f64, f64, f64, usize), Error> {
    let client = reqwest::Client::new();
    let mut latencies = Vec::with_capacity(count);
    let mut hits = 0;
    for i in 0..count {
        let (first, last) = names[i % names.len()];
        let body = json!({ "user_id": format!("bench-{}-{i}", Instant::now().elapsed().as_nanos()), "first_name": first, "last_name": last,
                           "date_of_birth": "1970-01-01", "nationality": "GB", "email": format!("s{i}@example.com") });
        let t0 = Instant::now();
        let response = client.post(format!("{base}/v1/sanctions/screen")).bearer_auth(key).json(&body).send().await?;
        let status = response.status();
        let answer: Json = response.json().await?;
        latencies.push(t0.elapsed());
        if status.as_u16() != 201 {
            return Err(format!("screening answered {status}: {answer}").into());
        }
        hits += usize::from(answer["status"] == "hit_review_pending");
    }
    latencies.sort();
    let pick = |q: f64| latencies.get(((latencies.len() as f64 - 1.0) * q) as usize).map_or(0.0, |d| d.as_secs_f64() * 1e3);
    Ok((pick(0.5), pick(0.99), latencies.last().map_or(0.0, |d| d.as_secs_f64() * 1e3), hits))
}

async fn health_p99(base: &str, count: usize) -> Result<f64, Error> {
    let client = reqwest::Client::new();
    let mut latencies = Vec::with_capacity(count);
    for _ in 0..count {
        let t0 = Instant::now();
        client.get(format!("{base}/v1/health")).send().await?.bytes().await?;
        latencies.push(t0.elapsed());
    }
    latencies.sort();
    Ok(latencies.get(((latencies.len() as f64 - 1.0) * 0.99) as usize).map_or(0.0, |d| d.as_secs_f64() * 1e3))
}

async fn production_key(base: &str, database: &str) -> Result<String, Error> {
    let admin = importer(database, None).await?.create_admin_key(Environment::Production).await?;
    let tenant: Json = reqwest::Client::new()
        .post(format!("{base}/v1/admin/tenants"))
        .bearer_auth(&admin)
        .json(&json!({ "name": "bench", "environment": "production", "rate_limit_per_minute": 1_000_000 }))
        .send()
        .await?
        .json()
        .await?;
    Ok(tenant["api_key"].as_str().ok_or("no api key")?.to_string())
}

async fn run() -> Result<(), Error> {
    let screens: usize = std::env::var("CGW_BENCH_SCREENS").ok().and_then(|s| s.parse().ok()).unwrap_or(400);
    let scale: usize = std::env::var("CGW_BENCH_SCALE_NAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(1_000_000);
    let dir = tempfile::tempdir()?;
    // Listed individuals, near misses and ordinary names, in turn.
    let names = [
        ("Nicolas", "Maduro Moros"),
        ("Ann", "Lee"),
        ("Jong Un", "Kim"),
        ("Mohammed", "Ali"),
        ("Maria", "Gonzalez"),
        ("Ramzan", "Kadyrov"),
        ("John", "Smith"),
        ("Bashar", "Al-Assad"),
    ];
    println!("| rules | list | names | import s | screenings | hits | p50 ms | p99 ms | max ms | health p99 ms |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let sdn = std::fs::read(format!("{OFAC}/sdn.csv"))?;
    let alt = std::fs::read(format!("{OFAC}/alt.csv"))?;
    let baseline = std::env::var("CGW_BENCH_BASELINE_RULES").ok();
    let mut components: Vec<(&str, Option<&str>)> = Vec::new();
    if let Some(path) = baseline.as_deref() {
        components.push(("before", Some(path)));
    }
    components.push((if baseline.is_some() { "after" } else { "this build" }, None));
    for (rules, path) in components {
        for (label, extra) in [("OFAC SDN 2022-01", None), ("OFAC SDN + generated", Some(scale))] {
            let database = format!("sqlite://{}", dir.path().join(format!("{rules}-{}.db", label.len())).display());
            let gateway = importer(&database, path).await?;
            let addr = serve(&database, path).await?;
            let base = format!("http://{addr}");
            let started = Instant::now();
            let mut imported_names =
                gateway::lists::import(&gateway, Environment::Production, "ofac-sdn", ListFormat::OfacCsv, parse::ofac(&sdn, Some(&alt))?, "bench")
                    .await
                    .map_err(api)?
                    .names;
            if let Some(count) = extra {
                imported_names +=
                    gateway::lists::import(&gateway, Environment::Production, "generated", ListFormat::OpenSanctionsCsv, generated(count), "bench")
                        .await
                        .map_err(api)?
                        .names;
            }
            let import_seconds = started.elapsed().as_secs_f64();
            let key = production_key(&base, &database).await?;
            tokio::time::sleep(Duration::from_millis(200)).await;
            let (p50, p99, max, hits) = screen_many(&base, &key, screens, &names).await?;
            let health = health_p99(&base, 400).await?;
            println!(
                "| {rules} | {label} | {imported_names} | {import_seconds:.1} | {screens} | {hits} | {p50:.2} | {p99:.2} | {max:.2} | {health:.2} |"
            );
        }
    }
    println!("\nSQLite (synchronous=FULL), one client on loopback, the server in the same process; each screening is a new user");
    Ok(())
}

fn main() {
    common::main_with(run());
}
