//! Traces (`--features otel`): a real `serve` exports its spans over
//! OTLP/HTTP to a loopback receiver. A request's `traceparent` is its span's
//! parent; the rules call, the store batch and the webhook attempt are spans
//! of the same trace; and the webhook carries the trace on. The twin: a
//! request without a `traceparent` starts a trace of its own.
#![cfg(feature = "otel")]
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod support;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value as Json};
use support::{cli, free_port, loopback_server, ServeProcess};

const TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER_SPAN: &str = "00f067aa0ba902b7";

async fn send(base: &str, key: &str, path: &str, body: Json, traceparent: Option<&str>) -> (u16, Json) {
    let mut request = reqwest::Client::new().post(format!("{base}{path}")).bearer_auth(key).json(&body);
    if let Some(t) = traceparent {
        request = request.header("traceparent", t);
    }
    let response = request.send().await.unwrap();
    (response.status().as_u16(), response.json().await.unwrap_or(Json::Null))
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spans_are_exported_and_the_trace_reaches_the_webhook() {
    let exported: Arc<Mutex<Vec<u8>>> = Arc::default();
    let otlp = {
        let exported = exported.clone();
        loopback_server(move |r| {
            if r.path == "/v1/traces" {
                exported.lock().unwrap().extend_from_slice(r.body);
            }
            (200, Vec::new())
        })
        .await
        .unwrap()
    };
    let delivered: Arc<Mutex<Vec<(String, String)>>> = Arc::default();
    let receiver = {
        let delivered = delivered.clone();
        loopback_server(move |r| {
            let event: Json = serde_json::from_slice(r.body).unwrap_or(Json::Null);
            let traceparent = r.headers.get("traceparent").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
            delivered.lock().unwrap().push((event["event"].as_str().unwrap_or("").to_string(), traceparent));
            (200, Vec::new())
        })
        .await
        .unwrap()
    };
    // the served process inherits these
    std::env::set_var("OTEL_EXPORTER_OTLP_ENDPOINT", format!("http://{otlp}"));
    std::env::set_var("OTEL_BSP_SCHEDULE_DELAY", "100");
    let dir = tempfile::tempdir().unwrap();
    let database = format!("sqlite://{}", dir.path().join("g.db").display());
    let admin = cli(&["admin-key", "create", "--environment", "sandbox", "--database", &database]);
    let server = ServeProcess::start(&database, free_port(), None).await;
    let base = server.base.clone();
    let (_, tenant) = send(&base, &admin, "/v1/admin/tenants", json!({ "name": "acme", "environment": "sandbox" }), None).await;
    let key = tenant["api_key"].as_str().unwrap().to_string();
    assert_eq!(send(&base, &key, "/v1/webhooks", json!({ "url": format!("http://{receiver}/hooks") }), None).await.0, 201);
    for user in ["traced", "untraced"] {
        let person = json!({ "user_id": user, "first_name": "Ann", "last_name": "Lee", "date_of_birth": "1990-01-01", "nationality": "GB", "email": format!("{user}@example.com") });
        assert_eq!(send(&base, &key, "/v1/sanctions/screen", person, None).await.0, 201);
    }
    let exclusion = |user: &str| json!({ "user_id": user, "duration": "duration_7d", "reason": "self_initiated", "initiated_at": chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true), "email": format!("{user}@example.com") });
    let caller = format!("00-{TRACE}-{CALLER_SPAN}-01");
    assert_eq!(send(&base, &key, "/v1/exclusions", exclusion("traced"), Some(&caller)).await.0, 201);
    assert_eq!(send(&base, &key, "/v1/exclusions", exclusion("untraced"), None).await.0, 201);

    let deadline = Instant::now() + Duration::from_secs(30);
    // one exclusion.created each; the envelope names no player, so the trace tells them apart
    let got = loop {
        let got = delivered.lock().unwrap().clone();
        if got.len() >= 2 {
            break got;
        }
        assert!(Instant::now() < deadline, "the webhooks did not arrive: {got:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(got.len(), 2, "{got:?}");
    let (traced, untraced): (Vec<String>, Vec<String>) = got.into_iter().map(|(_, t)| t).partition(|t| t.contains(TRACE));
    assert_eq!((traced.len(), untraced.len()), (1, 1), "exactly one webhook continues the caller's trace: {traced:?} {untraced:?}");
    let (traced, untraced) = (traced[0].clone(), untraced[0].clone());
    // the webhook continues the caller's trace, from the attempt's own span
    let parts: Vec<&str> = traced.split('-').collect();
    assert_eq!(parts.len(), 4, "{traced}");
    assert_eq!(parts[1], TRACE, "the webhook left the caller's trace: {traced}");
    assert_ne!(parts[2], CALLER_SPAN, "the webhook names the caller's span, not the attempt's");
    // the twin: no traceparent in, a trace of the gateway's own
    assert!(gateway::webhooks::valid_traceparent(&untraced), "{untraced}");
    assert!(!untraced.contains(TRACE));

    let trace_id = hex::decode(TRACE).unwrap();
    let names: [&[u8]; 4] = [b"POST /v1/exclusions", b"rules", b"store.batch", b"webhook.attempt"];
    loop {
        let body = exported.lock().unwrap().clone();
        if contains(&body, &trace_id) && names.iter().all(|n| contains(&body, n)) {
            break;
        }
        let missing: Vec<String> = names.iter().filter(|n| !contains(&body, n)).map(|n| String::from_utf8_lossy(n).to_string()).collect();
        if Instant::now() >= deadline {
            let printable: String = body.iter().map(|b| if b.is_ascii_graphic() || *b == b' ' { *b as char } else { '|' }).collect();
            eprintln!("{printable}");
        }
        assert!(
            Instant::now() < deadline,
            "spans not exported ({} bytes; trace id found {}; missing {missing:?})",
            body.len(),
            contains(&body, &trace_id)
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
