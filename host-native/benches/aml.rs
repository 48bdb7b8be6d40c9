//! AML monitoring figures, each beside a baseline measured in the same run:
//!
//! 1. `decide-aml` through the component over a busy user's buckets (every
//!    hour of 7 days active, the gaming day in two payment methods,
//!    instruments, deposit classes), against `decide-deposit` through the component and
//!    `decide-aml` in the library;
//! 2. event ingestion on SQLite (`synchronous=full`): `POST /v1/aml/event`
//!    from many connections for many users, against `POST /v1/limits/commit`;
//! 3. event to `aml.alert_created` at a loopback receiver;
//! 4. backtest speed over seeded events, the live component against itself.
//!
//! `cargo bench -p host-native --bench aml` (`CGW_BENCH_SECONDS`, default 5;
//! `CGW_BENCH_CONNECTIONS`, default 32; `CGW_BENCH_BACKTEST_EVENTS`, default 300000). Loopback only.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use gateway::ports::{Rules, Stmt};
use host_native::rules_engine::ComponentRules;
use rules::*;
use rules_library::LibraryRules;
use serde_json::{json, Value as Json};

mod common;
use common::load::Conn;
use common::{start_gateway, Error};

fn percentile(sorted: &[f64], q: f64) -> f64 {
    sorted.get(((sorted.len() as f64 - 1.0) * q).round() as usize).copied().unwrap_or(f64::NAN)
}

fn busy_facts() -> AmlFacts {
    let now = 1_800_000_000i64;
    let bucket = |start: i64, method: PaymentMethod| AmlBucket {
        start,
        payment_method: method,
        in_cents: 20_000,
        in_count: 2,
        out_cents: 5_000,
        out_count: 1,
        wagered_cents: 60_000,
        won_cents: 50_000,
        largest_in_cents: 15_000,
        largest_out_cents: 5_000,
        near_threshold_count: 0,
    };
    let hour = now - now.rem_euclid(3_600);
    let hours: Vec<AmlHour> = (0..168)
        .map(|h| AmlHour {
            start: hour - h * 3_600,
            in_cents: 40_000,
            in_count: 4,
            out_cents: 10_000,
            wagered_cents: 120_000,
            near_threshold_count: 0,
        })
        .collect();
    let day_start = now - now.rem_euclid(86_400);
    AmlFacts {
        now,
        jurisdiction: "default".into(),
        event: AmlEvent {
            event_type: AmlEventType::Withdrawal,
            amount_cents: 40_000,
            currency: "USD".into(),
            payment_method: PaymentMethod::Cash,
            at: now,
            instrument: Some("card-9".into()),
        },
        gaming_day_start: day_start,
        gaming_day_end: day_start + 86_400,
        gaming_day: vec![bucket(day_start, PaymentMethod::Card), bucket(day_start, PaymentMethod::Cash)],
        hours,
        instruments: (0..4).map(|i| AmlInstrument { instrument: format!("card-{i}"), last_seen_at: now - i * 86_400 }).collect(),
        pair: None,
        last_seen_at: Some(now - 600),
        deposit_classes: (0..64).map(|c| if (40..52).contains(&c) { 10 } else { 0 }).collect(),
        verified: KycTier::Tier1,
        standing: AmlStanding::default(),
        alerted: vec![AmlAlerted { typology: Typology::Velocity, at: now - 7 * 86_400 }],
        rate: None,
    }
}

/// Median and p99 of `n` calls, in microseconds.
fn time_calls(n: usize, mut call: impl FnMut()) -> (f64, f64) {
    let mut samples = Vec::with_capacity(n);
    for _ in 0..n {
        let t0 = Instant::now();
        call();
        samples.push(t0.elapsed().as_secs_f64() * 1e6);
    }
    samples.sort_by(f64::total_cmp);
    (percentile(&samples, 0.5), percentile(&samples, 0.99))
}

fn rules_call() -> Result<(), Error> {
    let component = ComponentRules::embedded()?;
    let facts = busy_facts();
    let decision = component.decide_aml(&facts)?.map_err(|e| format!("{e:?}"))?;
    println!("\n### 1. decide-aml over {} hour buckets ({} rules fired)\n", facts.hours.len(), decision.fired.len());
    let deposit = DepositFacts {
        now: facts.now,
        sanctions: SanctionsStatus::Clear,
        exclusions: vec![],
        limits: vec![StoredLimit {
            window: LimitWindow::Daily,
            amount_cents: 100_000,
            same_currency: true,
            status: LimitStatus::Active,
            effective_from: 0,
            currency: "USD".into(),
        }],
        totals: LimitWindow::ALL
            .iter()
            .map(|w| WindowTotal {
                window: *w,
                spent_cents: 1_000,
                oldest_at: Some(facts.now - 60),
                newest_at: Some(facts.now),
                currency: "USD".into(),
            })
            .collect(),
        deposits: None,
        amount_cents: 500,
        verified: KycTier::Tier0,
        aml: AmlStanding::default(),
        jurisdiction: "default".into(),
        rates: vec![],
        registers: vec![],
    };
    for _ in 0..2_000 {
        let _ = component.decide_aml(&facts);
        let _ = component.decide_deposit(&deposit);
    }
    println!("| call | p50 µs | p99 µs |\n|---|---|---|");
    for round in 0..2 {
        let (p50, p99) = time_calls(20_000, || drop(component.decide_aml(&facts)));
        println!("| decide-aml, component (round {}) | {p50:.1} | {p99:.1} |", round + 1);
        let (p50, p99) = time_calls(20_000, || drop(component.decide_deposit(&deposit)));
        println!("| decide-deposit, component, baseline (round {}) | {p50:.1} | {p99:.1} |", round + 1);
        let (p50, p99) = time_calls(20_000, || drop(LibraryRules.decide_aml(&facts)));
        println!("| decide-aml, library (round {}) | {p50:.1} | {p99:.1} |", round + 1);
    }
    Ok(())
}

async fn post(client: &reqwest::Client, url: &str, key: &str, body: &Json) -> Result<(u16, Json), Error> {
    let r = client.post(url).bearer_auth(key).json(body).send().await?;
    Ok((r.status().as_u16(), r.json().await.unwrap_or(Json::Null)))
}

/// A sandbox tenant and `users` screened users; its key.
async fn tenant_with_users(base: &str, admin: &str, users: usize) -> Result<String, Error> {
    let client = reqwest::Client::new();
    let (_, tenant) = post(
        &client,
        &format!("{base}/v1/admin/tenants"),
        admin,
        &json!({ "name": "aml", "environment": "sandbox", "rate_limit_per_minute": 1_000_000 }),
    )
    .await?;
    let key = tenant["api_key"].as_str().ok_or("no key")?.to_string();
    for u in 0..users {
        let who = json!({ "user_id": format!("u{u}"), "first_name": "Ann", "last_name": "Lee", "date_of_birth": "1990-01-01", "nationality": "GB", "email": format!("u{u}@example.com") });
        post(&client, &format!("{base}/v1/sanctions/screen"), &key, &who).await?;
    }
    Ok(key)
}

/// Requests a second and acknowledgement p50/p99 (ms) of `connections` keep-alive connections for `seconds`.
async fn load(
    addr: std::net::SocketAddr,
    key: &str,
    connections: usize,
    users: usize,
    seconds: u64,
    path: &'static str,
    round: usize,
) -> Result<(f64, f64, f64), Error> {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let counter = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let mut tasks = Vec::new();
    for c in 0..connections {
        let (key, counter) = (key.to_string(), counter.clone());
        tasks.push(tokio::spawn(async move {
            let mut conn = Conn::open(addr).await?;
            let mut latencies = Vec::new();
            while Instant::now() < deadline {
                let n = counter.fetch_add(1, Ordering::Relaxed);
                let user = format!("u{}", (n as usize) % users);
                let tx = format!("{path}-r{round}-c{c}-{n}");
                let body = if path == "/v1/aml/event" {
                    let kind = ["deposit", "wager", "win", "wager"][(n % 4) as usize];
                    json!({ "transaction_id": tx, "user_id": user, "event_type": kind, "amount_cents": 2_000, "currency": "USD", "payment_method": "card" })
                } else {
                    json!({ "transaction_id": tx, "user_id": user, "amount_cents": 100, "currency": "USD" })
                };
                let t0 = Instant::now();
                let (status, answer) = conn.send("POST", path, &key, Some(&body)).await?;
                if status >= 300 {
                    return Err::<Vec<f64>, Error>(format!("{path} answered {status}: {answer}").into());
                }
                latencies.push(t0.elapsed().as_secs_f64() * 1e3);
            }
            Ok(latencies)
        }));
    }
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await??);
    }
    let rate = all.len() as f64 / started.elapsed().as_secs_f64();
    all.sort_by(f64::total_cmp);
    Ok((rate, percentile(&all, 0.5), percentile(&all, 0.99)))
}

async fn ingestion(dir: &std::path::Path, seconds: u64, connections: usize) -> Result<(), Error> {
    let users = 2_000;
    let (addr, admin) = start_gateway(&format!("sqlite://{}", dir.join("ingest.db").display()), false).await?;
    let key = tenant_with_users(&format!("http://{addr}"), &admin, users).await?;
    println!("\n### 2. Ingestion on SQLite (synchronous=full), {connections} connections, {users} users\n");
    println!("| path | round | requests/s | p50 ms | p99 ms |\n|---|---|---|---|---|");
    for round in 0..2 {
        for path in ["/v1/aml/event", "/v1/limits/commit"] {
            let (rate, p50, p99) = load(addr, &key, connections, users, seconds, path, round).await?;
            let label = if path == "/v1/aml/event" { "POST /v1/aml/event" } else { "POST /v1/limits/commit (baseline)" };
            println!("| {label} | {} | {rate:.0} | {p50:.2} | {p99:.2} |", round + 1);
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
    }
    Ok(())
}

async fn alert_latency(dir: &std::path::Path, count: usize) -> Result<(), Error> {
    let (addr, admin) = start_gateway(&format!("sqlite://{}", dir.join("alerts.db").display()), true).await?;
    let base = format!("http://{addr}");
    let key = tenant_with_users(&base, &admin, count).await?;
    let arrivals: Arc<Mutex<HashMap<String, Instant>>> = Arc::new(Mutex::new(HashMap::new()));
    let record = arrivals.clone();
    let hook = common::receiver(move |_, envelope, at| {
        if let (Some(id), Ok(mut a)) = (envelope["data"]["alert_id"].as_str(), record.lock()) {
            a.entry(id.to_string()).or_insert(at);
        }
    })
    .await?;
    let client = reqwest::Client::new();
    post(&client, &format!("{base}/v1/webhooks"), &key, &json!({ "url": format!("http://{hook}/hooks") })).await?;
    let mut sent = Vec::with_capacity(count);
    for u in 0..count {
        let body = json!({ "transaction_id": format!("cash-{u}"), "user_id": format!("u{u}"), "event_type": "deposit", "amount_cents": 1_000_001, "currency": "USD", "payment_method": "cash" });
        let t0 = Instant::now();
        let (status, answer) = post(&client, &format!("{base}/v1/aml/event"), &key, &body).await?;
        if status != 202 {
            return Err(format!("event answered {status}: {answer}").into());
        }
        sent.push((answer["alert_id"].as_str().ok_or("no alert")?.to_string(), t0));
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    while arrivals.lock().map(|a| a.len()).unwrap_or(0) < count && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let arrived = arrivals.lock().map(|a| a.clone()).unwrap_or_default();
    let mut latencies: Vec<f64> = sent.iter().filter_map(|(id, t0)| arrived.get(id).map(|at| at.duration_since(*t0).as_secs_f64() * 1e3)).collect();
    latencies.sort_by(f64::total_cmp);
    println!("\n### 3. Event to aml.alert_created (from sending the event to the webhook's arrival)\n");
    println!("| alerts | delivered | p50 ms | p99 ms | max ms |\n|---|---|---|---|---|");
    println!(
        "| {count} | {} | {:.1} | {:.1} | {:.1} |",
        latencies.len(),
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99),
        latencies.last().copied().unwrap_or(f64::NAN)
    );
    Ok(())
}

async fn backtest(dir: &std::path::Path, events: usize) -> Result<(), Error> {
    let database = format!("sqlite://{}", dir.join("backtest.db").display());
    let store = host_native::open_store(&database).await?;
    gateway::schema::migrate(store.as_ref()).await?;
    store
        .batch(vec![Stmt::new(
            "INSERT INTO tenants (tenant_id, name, environment, rate_limit_per_minute, created_at) VALUES ('tn_bt', 'bt', 'sandbox', 1000, 0)",
            vec![],
        )])
        .await?;
    let users = 10_000usize;
    let kinds = ["deposit", "wager", "win", "wager", "withdrawal"];
    let started_seed = Instant::now();
    let base_time = 1_800_000_000i64;
    for chunk in (0..events).collect::<Vec<_>>().chunks(5_000) {
        let statements: Vec<Stmt> = chunk
            .iter()
            .map(|i| {
                let payload = json!({ "transaction_id": format!("t{i}"), "user_id": format!("u{}", i % users), "event_type": kinds[i % kinds.len()],
                    "amount_cents": 1_000 + (i % 97) as i64 * 100, "currency": "USD", "occurred_at": Json::Null, "payment_method": if i % 3 == 0 { "cash" } else { "card" } });
                Stmt::new(
                    "INSERT INTO aml_events (tenant_id, transaction_id, aml_event_id, external_user_id, fingerprint, payload, response, review_status, received_at, event_at, decision_id, outcome, verified_tier)
                     VALUES ('tn_bt', ?1, ?2, ?3, '', ?4, '{}', 'decided', ?5, ?5, 'seeded', 'approve', 'tier_0')",
                    vec![format!("t{i}").into(), format!("aml_{i:08}").into(), format!("u{}", i % users).into(), payload.to_string().into(), (base_time + *i as i64 * 2).into()],
                )
            })
            .collect();
        store.batch(statements).await?;
    }
    let seed_seconds = started_seed.elapsed().as_secs_f64();
    let live = ComponentRules::embedded()?;
    let scope = gateway::aml::backtest::Scope { tenant_id: String::new(), from: 0, to: gateway::ports::MAX_STORED_INTEGER };
    let started = Instant::now();
    let report = gateway::aml::backtest::backtest(store.as_ref(), &live, &live, &scope).await.map_err(|e| format!("{}: {}", e.code, e.message))?;
    let seconds = started.elapsed().as_secs_f64();
    println!("\n### 4. Backtest speed: {events} seeded events of {users} users (seeded in {seed_seconds:.1} s), live against itself\n");
    println!("| events replayed | seconds | events per minute | decisions per minute (two per event) |\n|---|---|---|---|");
    println!(
        "| {} | {seconds:.1} | {:.0} | {:.0} |",
        report.events,
        report.events as f64 / seconds * 60.0,
        2.0 * report.events as f64 / seconds * 60.0
    );
    Ok(())
}

async fn run() -> Result<(), Error> {
    let seconds: u64 = std::env::var("CGW_BENCH_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(5);
    let connections: usize = std::env::var("CGW_BENCH_CONNECTIONS").ok().and_then(|s| s.parse().ok()).unwrap_or(32);
    let events: usize = std::env::var("CGW_BENCH_BACKTEST_EVENTS").ok().and_then(|s| s.parse().ok()).unwrap_or(300_000);
    let dir = tempfile::tempdir()?;
    rules_call()?;
    ingestion(dir.path(), seconds, connections).await?;
    alert_latency(dir.path(), 500).await?;
    backtest(dir.path(), events).await?;
    Ok(())
}

fn main() {
    common::main_with(run());
}
