//! The metrics listener (`serve --metrics-listen`): `GET /metrics` answers
//! the scrape; any other path is the API's 404 body with its request id, as
//! every response of the service is (invariant 8).

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod support;

use serde_json::Value as Json;
use support::{free_port, ServeProcess};

#[tokio::test]
async fn the_metrics_listener_answers_other_paths_with_the_apis_404() {
    let dir = tempfile::tempdir().unwrap();
    let database = format!("sqlite://{}", dir.path().join("g.db").display());
    let metrics = format!("127.0.0.1:{}", free_port());
    let _server = ServeProcess::start_with(&database, free_port(), None, &["--metrics-listen", &metrics], std::process::Stdio::null()).await;
    let scrape = reqwest::get(format!("http://{metrics}/metrics")).await.unwrap();
    assert_eq!(scrape.status(), 200);
    assert!(scrape.text().await.unwrap().contains("# TYPE"), "the scrape is no exposition");
    let other = reqwest::get(format!("http://{metrics}/v1/health")).await.unwrap();
    assert_eq!(other.status(), 404);
    let id = other.headers().get("x-request-id").and_then(|v| v.to_str().ok()).unwrap_or_default().to_string();
    assert!(id.starts_with("req_"), "no request id: {id:?}");
    let body: Json = other.json().await.unwrap();
    assert_eq!((body["error"].as_str(), body["request_id"].as_str()), (Some("not_found"), Some(id.as_str())), "{body}");
    assert!(body["message"].as_str().is_some_and(|m| m.contains("/metrics")), "{body}");
}
