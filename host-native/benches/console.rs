//! The console's pages with 10,000 open cases, through the real server on
//! SQLite on loopback: the queue (its first page of 100, earliest due first)
//! and a case page, beside the JSON queue they are made from and a bare
//! `GET /v1/health`, in the same run.
//!
//! `cargo bench -p host-native --bench console` (`CGW_BENCH_CASES`, default 10000;
//! `CGW_BENCH_ROUNDS`, default 300).

use std::time::{Duration, Instant};

use gateway::auth::Environment;
use gateway::people::Role;
use gateway::{Config, Gateway};
use host_native::rules_engine::ComponentRules;
use host_native::{open_store, OsIds, SystemClock};
use serde_json::{json, Value as Json};
use totp_rs::{Algorithm, Secret, TOTP};

mod common;
use common::{main_with, start_gateway, Error};

fn setting(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(index).map_or(0.0, |d| d.as_secs_f64() * 1_000.0)
}

async fn timed(rounds: usize, mut request: impl FnMut() -> reqwest::RequestBuilder) -> Result<(f64, f64, usize), Error> {
    let mut times = Vec::with_capacity(rounds);
    let mut bytes = 0;
    for _ in 0..rounds {
        let started = Instant::now();
        let response = request().send().await?;
        if !response.status().is_success() {
            return Err(format!("answered {}", response.status()).into());
        }
        bytes = response.bytes().await?.len();
        times.push(started.elapsed());
    }
    times.sort();
    Ok((percentile(&times, 0.5), percentile(&times, 0.99), bytes))
}

async fn run() -> Result<(), Error> {
    let (cases, rounds) = (setting("CGW_BENCH_CASES", 10_000), setting("CGW_BENCH_ROUNDS", 300));
    let dir = tempfile::tempdir()?;
    let database = format!("sqlite://{}", dir.path().join("bench.db").display());
    let (addr, admin) = start_gateway(&database, false).await?;
    let base = format!("http://{addr}");
    let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build()?;
    let tenant: Json = client
        .post(format!("{base}/v1/admin/tenants"))
        .bearer_auth(&admin)
        .json(&json!({ "name": "bench", "environment": "sandbox", "rate_limit_per_minute": 1_000_000 }))
        .send()
        .await?
        .json()
        .await?;
    let key = tenant["api_key"].as_str().ok_or("no tenant key")?.to_string();
    let started = Instant::now();
    for i in 0..cases {
        let user = format!("u-{i}");
        let body = json!({ "user_id": user, "first_name": "SanctionedSam", "last_name": format!("Bench{i}"), "date_of_birth": "1980-01-01", "nationality": "GB", "email": format!("{user}@example.com") });
        let answer: Json = client.post(format!("{base}/v1/sanctions/screen")).bearer_auth(&key).json(&body).send().await?.json().await?;
        if answer["status"] != "hit_review_pending" {
            return Err(format!("screening {i} was no hit: {answer}").into());
        }
    }
    println!("opened {cases} cases in {:.1} s", started.elapsed().as_secs_f64());

    // A person of the team, signed in through the console's API.
    let accounts =
        Gateway::new(open_store(&database).await?, Box::new(ComponentRules::embedded()?), Box::new(SystemClock), Box::new(OsIds), Config::default());
    let account = accounts.create_console_account(Environment::Sandbox, "bench@example.com", Role::Approver).await.map_err(|e| e.message)?;
    let secret = Secret::Encoded(account.totp_secret.clone()).to_bytes().map_err(|e| format!("{e:?}"))?;
    let code = TOTP::new(Algorithm::SHA1, 6, 1, 30, secret)?.generate_current()?;
    let signed: Json = client
        .post(format!("{base}/v1/admin/sessions"))
        .json(&json!({ "environment": "sandbox", "email": "bench@example.com", "password": account.password, "totp": code }))
        .send()
        .await?
        .json()
        .await?;
    let token = signed["session_token"].as_str().ok_or("no session")?.to_string();
    client
        .post(format!("{base}/v1/admin/people/me/password"))
        .bearer_auth(&token)
        .json(&json!({ "password": account.password, "new_password": "amber kettle orbit bench" }))
        .send()
        .await?;
    let cookie = format!("__Host-cgw_session={token}");
    let first: Json = client.get(format!("{base}/v1/admin/cases")).bearer_auth(&token).send().await?.json().await?;
    let case_id = first["cases"][0]["case_id"].as_str().ok_or("no case")?.to_string();

    let health = timed(rounds, || client.get(format!("{base}/v1/health"))).await?;
    let json_queue = timed(rounds, || client.get(format!("{base}/v1/admin/cases")).bearer_auth(&token)).await?;
    let queue = timed(rounds, || client.get(format!("{base}/console/cases")).header("cookie", &cookie)).await?;
    let case = timed(rounds, || client.get(format!("{base}/console/cases/{case_id}")).header("cookie", &cookie)).await?;
    println!("{cases} open cases, {rounds} sequential requests each (ms):");
    println!("| request | p50 | p99 | bytes |");
    println!("|---|---|---|---|");
    for (name, (p50, p99, bytes)) in [
        ("GET /v1/health (baseline)", health),
        ("GET /v1/admin/cases (JSON, 100 rows)", json_queue),
        ("GET /console/cases (100 rows)", queue),
        ("GET /console/cases/{id}", case),
    ] {
        println!("| {name} | {p50:.2} | {p99:.2} | {bytes} |");
    }
    Ok(())
}

fn main() {
    main_with(run());
}
