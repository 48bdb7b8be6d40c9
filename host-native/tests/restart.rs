//! A host stopped while webhook deliveries are pending loses nothing: after
//! it starts again, every event still arrives.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use std::collections::BTreeSet;
use std::convert::Infallible;
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use serde_json::{json, Value as Json};

const BIN: &str = env!("CARGO_BIN_EXE_compliance-gateway");

mod support;
use support::{free_port, ServeProcess};

async fn call(base: &str, key: &str, method: reqwest::Method, path: &str, body: Option<Json>) -> Json {
    let mut request = reqwest::Client::new().request(method, format!("{base}{path}")).bearer_auth(key);
    if let Some(body) = body {
        request = request.json(&body);
    }
    request.send().await.unwrap().json().await.unwrap_or(Json::Null)
}

/// Records the `webhook-id` of every delivery.
async fn receiver(port: u16, seen: Arc<Mutex<BTreeSet<String>>>) {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await.unwrap();
    loop {
        let (stream, _) = listener.accept().await.unwrap();
        let seen = seen.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |request: hyper::Request<hyper::body::Incoming>| {
                let seen = seen.clone();
                async move {
                    if let Some(id) = request.headers().get("webhook-id").and_then(|v| v.to_str().ok()) {
                        seen.lock().unwrap().insert(id.to_string());
                    }
                    let _ = request.into_body().collect().await;
                    Ok::<_, Infallible>(hyper::Response::new(Full::new(Bytes::from_static(b"ok"))))
                }
            });
            let _ = hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(stream), service).await;
        });
    }
}

#[tokio::test]
async fn pending_deliveries_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let database = format!("sqlite://{}", dir.path().join("gateway.db").display());
    let admin = String::from_utf8(
        Command::new(BIN).args(["admin-key", "create", "--environment", "sandbox", "--database", &database]).output().unwrap().stdout,
    )
    .unwrap();
    let admin = admin.trim();
    let receiver_port = free_port();

    let first = ServeProcess::start(&database, free_port(), None).await;
    let base = first.base.clone();
    let tenant = call(&base, admin, reqwest::Method::POST, "/v1/admin/tenants", Some(json!({ "name": "restart", "environment": "sandbox" }))).await;
    let key = tenant["api_key"].as_str().unwrap().to_string();
    let hook =
        call(&base, &key, reqwest::Method::POST, "/v1/webhooks", Some(json!({ "url": format!("http://127.0.0.1:{receiver_port}/hooks") }))).await;
    let webhook_id = hook["webhook_id"].as_str().unwrap().to_string();
    let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    for i in 0..3 {
        let user = format!("restart-{i}");
        call(&base, &key, reqwest::Method::POST, "/v1/sanctions/screen", Some(json!({ "user_id": user, "first_name": "Ann", "last_name": "Lee", "date_of_birth": "1990-01-01", "nationality": "GB", "email": format!("{user}@example.com") }))).await;
        call(
            &base,
            &key,
            reqwest::Method::POST,
            "/v1/exclusions",
            Some(json!({ "user_id": user, "duration": "duration_7d", "reason": "self_initiated", "initiated_at": now })),
        )
        .await;
    }
    // Wait until every delivery has failed once against the absent receiver.
    let deadline = Instant::now() + Duration::from_secs(30);
    let event_ids: BTreeSet<String> = loop {
        let log = call(&base, &key, reqwest::Method::GET, &format!("/v1/webhooks/{webhook_id}/deliveries"), None).await;
        let deliveries = log["deliveries"].as_array().cloned().unwrap_or_default();
        if deliveries.len() == 3 && deliveries.iter().all(|d| d["attempt_count"].as_i64() >= Some(1) && d["status"] == json!("pending")) {
            break deliveries.iter().map(|d| d["event_id"].as_str().unwrap().to_string()).collect();
        }
        assert!(Instant::now() < deadline, "deliveries were not attempted: {log}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    drop(first);

    let seen = Arc::new(Mutex::new(BTreeSet::new()));
    tokio::spawn(receiver(receiver_port, seen.clone()));
    let _second = ServeProcess::start(&database, free_port(), None).await;
    let deadline = Instant::now() + Duration::from_secs(40);
    while *seen.lock().unwrap() != event_ids {
        assert!(Instant::now() < deadline, "after the restart only {:?} of {event_ids:?} arrived", seen.lock().unwrap());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
