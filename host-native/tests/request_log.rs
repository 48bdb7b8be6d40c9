//! The server's request log (`serve --log-format json`): one JSON line per
//! request with its id, the route's template, status, duration, tenant and
//! decision; no key, webhook secret, session token or password in any line.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod support;

use std::process::Stdio;

use serde_json::{json, Value as Json};
use support::{cli, free_port, ServeProcess};

async fn start(database: &str, log: &std::path::Path, format: &str) -> ServeProcess {
    let stdout = Stdio::from(std::fs::File::create(log).unwrap());
    ServeProcess::start_with(database, free_port(), None, &["--log-format", format], stdout).await
}

async fn send(base: &str, key: &str, method: reqwest::Method, path: &str, body: Option<Json>) -> (String, Json) {
    let mut request = reqwest::Client::new().request(method, format!("{base}{path}")).bearer_auth(key);
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.unwrap();
    let request_id = response.headers().get("x-request-id").unwrap().to_str().unwrap().to_string();
    (request_id, response.json().await.unwrap_or(Json::Null))
}

/// The lines of the log that name any of the secrets.
fn leaks<'a>(lines: &'a [String], secrets: &[String]) -> Vec<&'a String> {
    lines.iter().filter(|line| secrets.iter().any(|s| !s.is_empty() && line.contains(s.as_str()))).collect()
}

#[tokio::test]
async fn each_request_is_one_json_line_and_no_secret_is_logged() {
    let dir = tempfile::tempdir().unwrap();
    let database = format!("sqlite://{}", dir.path().join("g.db").display());
    let admin = cli(&["admin-key", "create", "--environment", "sandbox", "--database", &database]);
    let person: Json = serde_json::from_str(&cli(&[
        "console-user",
        "create",
        "--email",
        "log@example.com",
        "--role",
        "reviewer",
        "--environment",
        "sandbox",
        "--database",
        &database,
    ]))
    .unwrap();
    let log = dir.path().join("server.log");
    let server = start(&database, &log, "json").await;
    let base = server.base.clone();

    let (_, tenant) =
        send(&base, &admin, reqwest::Method::POST, "/v1/admin/tenants", Some(json!({ "name": "acme", "environment": "sandbox" }))).await;
    let key = tenant["api_key"].as_str().unwrap().to_string();
    let (_, webhook) = send(&base, &key, reqwest::Method::POST, "/v1/webhooks", Some(json!({ "url": "http://127.0.0.1:9/hook" }))).await;
    let secret = webhook["secret"].as_str().unwrap_or_default().to_string();
    let identity = json!({ "user_id": "u-log", "first_name": "SanctionedSam", "last_name": "Lee", "date_of_birth": "1980-01-01", "nationality": "GB", "email": "privacy@example.com" });
    let (screened_id, hit) = send(&base, &key, reqwest::Method::POST, "/v1/sanctions/screen", Some(identity)).await;
    let case_id = hit["case_id"].as_str().unwrap().to_string();
    let (case_request, _) = send(&base, &admin, reqwest::Method::GET, &format!("/v1/admin/cases/{case_id}"), None).await;
    let password = person["password"].as_str().unwrap().to_string();
    let bytes = totp_rs::Secret::Encoded(person["totp_secret"].as_str().unwrap().to_string()).to_bytes().unwrap();
    let code = totp_rs::TOTP::new(totp_rs::Algorithm::SHA1, 6, 1, 30, bytes).unwrap().generate_current().unwrap();
    let sign_in = json!({ "environment": "sandbox", "email": "log@example.com", "password": password, "totp": code });
    let (_, session) = send(&base, "", reqwest::Method::POST, "/v1/admin/sessions", Some(sign_in)).await;
    let token = session["session_token"].as_str().unwrap().to_string();
    send(&base, "cgw_sk_test_not-a-real-key-at-all-00000000", reqwest::Method::GET, "/v1/limits?user_id=u-log", None).await;
    let mut server = server;
    server.terminate();

    let lines: Vec<String> = std::fs::read_to_string(&log).unwrap().lines().map(str::to_string).collect();
    let requests: Vec<Json> = lines.iter().map(|l| serde_json::from_str::<Json>(l).unwrap()).filter(|l| l["target"] == "request").collect();
    assert!(requests.len() >= 7, "{lines:#?}");
    let screened = requests.iter().find(|r| r["request_id"] == json!(screened_id)).expect("the screening's line");
    assert_eq!((screened["route"].as_str(), screened["status"].as_u64()), (Some("/v1/sanctions/screen"), Some(201)));
    assert_eq!(screened["tenant_id"], tenant["tenant_id"]);
    assert!(screened["decision_id"].as_str().is_some_and(|d| !d.is_empty()), "{screened}");
    assert!(screened["duration_ms"].as_f64().is_some_and(|d| d > 0.0));
    // the route's template, not the path with the case's id
    let read = requests.iter().find(|r| r["request_id"] == json!(case_request)).expect("the case read's line");
    assert_eq!(read["route"], "/v1/admin/cases/{case_id}");
    let secrets =
        [admin.clone(), key.clone(), secret.clone(), token.clone(), password.clone(), "not-a-real-key".into(), "privacy@example.com".into()];
    assert!(!secret.is_empty() && !token.is_empty());
    let leaked = leaks(&lines, &secrets);
    assert!(leaked.is_empty(), "secrets in the log: {leaked:#?}");
    // the twin: the scan sees a secret that is there
    assert_eq!(leaks(&[format!("{{\"key\":\"{key}\"}}")], &secrets).len(), 1);
}

/// `--log-format text` writes lines for people, not JSON.
#[tokio::test]
async fn text_format_is_for_people() {
    let dir = tempfile::tempdir().unwrap();
    let database = format!("sqlite://{}", dir.path().join("g.db").display());
    let log = dir.path().join("server.log");
    let server = start(&database, &log, "text").await;
    let base = server.base.clone();
    reqwest::get(format!("{base}/v1/nowhere")).await.unwrap();
    let mut server = server;
    server.terminate();
    let text = std::fs::read_to_string(&log).unwrap();
    let line = text.lines().find(|l| l.contains("route=\"-\"")).expect("the unknown path's line");
    assert!(serde_json::from_str::<Json>(line).is_err(), "{line}");
    assert!(line.contains("status=404"), "{line}");
}
