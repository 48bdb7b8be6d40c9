//! What the HTTP benchmarks share: a real server in-process and a runtime.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use gateway::auth::Environment;
use gateway::{Config, Gateway};
use host_native::rules_engine::ComponentRules;
use host_native::webhooks::{delivery_loop, HttpSender, NotifyWaker};
use host_native::{open_store, OsIds, SystemClock};
use serde_json::{json, Value as Json};
use tokio::sync::Notify;

use load::Conn;

#[allow(dead_code)]
pub mod load;

pub type Error = Box<dyn std::error::Error + Send + Sync>;

/// Starts the gateway on a free loopback port, with webhook delivery if
/// asked; returns its address and a sandbox admin key.
#[allow(dead_code)]
pub async fn start_gateway(database: &str, webhooks: bool) -> Result<(SocketAddr, String), Error> {
    start_gateway_with(database, webhooks, Config::default()).await
}

/// [`start_gateway`] with a given configuration; the decision log is flushed
/// and the rate limit counted as the server does (shared on Postgres).
#[allow(dead_code)]
pub async fn start_gateway_with(database: &str, webhooks: bool, config: Config) -> Result<(SocketAddr, String), Error> {
    start_gateway_limited(database, webhooks, config, true).await
}

/// [`start_gateway_with`], with the per-process rate limit when `shared_limit` is false.
#[allow(dead_code)]
pub async fn start_gateway_limited(database: &str, webhooks: bool, config: Config, shared_limit: bool) -> Result<(SocketAddr, String), Error> {
    start_gateway_in(database, webhooks, config, shared_limit, Environment::Sandbox).await
}

/// [`start_gateway_limited`], answering an admin key of `environment`; a
/// production one comes with a one-entry list, so that users can be screened.
#[allow(dead_code)]
pub async fn start_gateway_in(
    database: &str,
    webhooks: bool,
    config: Config,
    shared_limit: bool,
    environment: Environment,
) -> Result<(SocketAddr, String), Error> {
    let mut gateway =
        Gateway::new(open_store(database).await?, Box::new(ComponentRules::embedded()?), Box::new(SystemClock), Box::new(OsIds), config);
    if shared_limit {
        if let Some(limiter) = host_native::open_shared_rate_limit(database).await? {
            gateway = gateway.with_rate_limiter(limiter);
        }
    }
    if let Some(log) = host_native::open_decision_store(database)? {
        gateway = gateway.with_decision_store(log);
    }
    let notify = Arc::new(Notify::new());
    if webhooks {
        gateway = gateway.with_webhooks(Box::new(HttpSender::new()?), Box::new(NotifyWaker(notify.clone())));
    }
    gateway.migrate().await?;
    let admin = match environment {
        Environment::Sandbox => gateway.create_admin_key(Environment::Sandbox).await?,
        Environment::Production => {
            // Production screens against a list: one entry no bench user matches.
            let csv = "id,schema,name,aliases,birth_date,countries,addresses,identifiers,sanctions,phones,emails,program_ids,dataset,first_seen,last_seen,last_change\n\
                       BENCH-1,Person,Zebulon Quaxworth,,1950-01-01,gb,,,Bench,,,,bench,2026-01-01,2026-01-01,2026-01-01\n";
            let entries = gateway::lists::parse::opensanctions(csv.as_bytes())?;
            gateway::lists::import(&gateway, Environment::Production, "bench", gateway::lists::ListFormat::OpenSanctionsCsv, entries, "bench")
                .await
                .map_err(|e| e.message)?;
            gateway.create_admin_key(Environment::Production).await?
        }
    };
    let gateway = Arc::new(gateway);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    tokio::spawn(host_native::server::serve(listener, gateway.clone(), std::future::pending()));
    tokio::spawn(host_native::webhooks::decision_log_loop(gateway.clone(), Duration::from_millis(200)));
    if webhooks {
        tokio::spawn(delivery_loop(gateway, notify, Duration::from_millis(500)));
    }
    Ok((addr, admin))
}

/// Runs a benchmark's async body on a multi-threaded runtime.
pub fn main_with(body: impl std::future::Future<Output = Result<(), Error>>) {
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(r) => r,
        Err(e) => return eprintln!("cannot start the runtime: {e}"),
    };
    if let Err(e) = runtime.block_on(body) {
        eprintln!("benchmark failed: {e}");
        std::process::exit(1);
    }
}

/// A webhook receiver on loopback that answers 200 and tells `record` the
/// path, the envelope and the moment of each delivery that reads as JSON.
#[allow(dead_code)]
pub async fn receiver(record: impl Fn(&str, &serde_json::Value, std::time::Instant) + Send + Sync + 'static) -> Result<SocketAddr, Error> {
    use http_body_util::{BodyExt, Full};
    use hyper::body::Bytes;
    let record = Arc::new(record);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else { continue };
            let record = record.clone();
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |request: hyper::Request<hyper::body::Incoming>| {
                    let record = record.clone();
                    async move {
                        let path = request.uri().path().to_string();
                        let body = request.into_body().collect().await.map(|b| b.to_bytes()).unwrap_or_default();
                        let now = std::time::Instant::now();
                        if let Ok(envelope) = serde_json::from_slice::<serde_json::Value>(&body) {
                            record(&path, &envelope, now);
                        }
                        Ok::<_, std::convert::Infallible>(hyper::Response::new(Full::new(Bytes::from_static(b"ok"))))
                    }
                });
                let _ = hyper::server::conn::http1::Builder::new().serve_connection(hyper_util::rt::TokioIo::new(stream), service).await;
            });
        }
    });
    Ok(addr)
}

/// A tenant of `environment` and a user with three limits and fifty deposits, and an excluded e-mail.
#[allow(dead_code)]
pub async fn prepare(addr: SocketAddr, admin: &str, environment: &str) -> Result<(String, Json, String), Error> {
    let mut c = Conn::open(addr).await?;
    let (_, tenant) = c
        .send("POST", "/v1/admin/tenants", admin, Some(&json!({ "name": "bench", "environment": environment, "rate_limit_per_minute": 1_000_000 })))
        .await?;
    let key = tenant["api_key"].as_str().ok_or("no api key")?.to_string();
    c.send("POST", "/v1/sanctions/screen", &key, Some(&json!({ "user_id": "bench-user", "first_name": "Ann", "last_name": "Lee", "date_of_birth": "1990-01-01", "nationality": "GB", "email": "bench@example.com" }))).await?;
    let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    for kind in ["limit_daily", "limit_weekly", "limit_monthly"] {
        c.send(
            "POST",
            "/v1/limits",
            &key,
            Some(&json!({ "user_id": "bench-user", "limit_type": kind, "amount_cents": 100_000_000, "currency": "USD", "requested_at": now })),
        )
        .await?;
    }
    for i in 0..50 {
        c.send(
            "POST",
            "/v1/limits/commit",
            &key,
            Some(&json!({ "transaction_id": format!("bench-{i}"), "user_id": "bench-user", "amount_cents": 1_000, "currency": "USD" })),
        )
        .await?;
    }
    c.send("POST", "/v1/exclusions", &key, Some(&json!({ "user_id": "bench-user", "duration": "duration_30d", "reason": "self_initiated", "initiated_at": now, "email": "excluded-bench@example.com" }))).await?;
    let check = json!({ "user_id": "bench-user", "amount_cents": 500, "currency": "USD" });
    Ok((key, check, "/v1/exclusions/check?email=excluded-bench@example.com".to_string()))
}
