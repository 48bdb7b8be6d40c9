//! Scheduled list refresh from a URL, against a list server on loopback: a
//! good download becomes the active version; a cut-short, unreadable or
//! missing one replaces nothing and says why.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod support;

use std::sync::{Arc, Mutex};

use gateway::auth::Environment;
use gateway::{Config, Gateway};
use host_native::list_refresh::{refresh_once, ListFetcher, ListSource};
use host_native::rules_engine::ComponentRules;
use host_native::{OsIds, SystemClock};
use support::{loopback_server, Received};

const OFAC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../conformance/data/ofac-sdn-2022-01");

#[derive(Clone, Copy)]
enum Serve {
    Whole,
    Truncated,
    Html,
    Missing,
}

async fn list_server(mode: Arc<Mutex<Serve>>) -> std::net::SocketAddr {
    loopback_server(move |request: &Received<'_>| {
        let file = request.path.rsplit('/').next().unwrap_or_default().to_string();
        let whole = std::fs::read(format!("{OFAC}/{file}")).unwrap_or_default();
        match (*mode.lock().unwrap(), file.as_str()) {
            (Serve::Missing, _) => (404, b"not found".to_vec()),
            (Serve::Html, "sdn.csv") => (200, b"<html><body>Service Unavailable</body></html>\n".to_vec()),
            (Serve::Truncated, "sdn.csv") => {
                let text = String::from_utf8_lossy(&whole);
                (200, text.lines().take(200).map(|l| format!("{l}\n")).collect::<String>().into_bytes())
            }
            _ => (200, whole),
        }
    })
    .await
    .unwrap()
}

async fn active_version(gateway: &Gateway, admin: &str) -> Option<(String, i64)> {
    let request =
        http::Request::builder().uri("/v1/admin/sanctions/lists").header("authorization", format!("Bearer {admin}")).body(Vec::new()).unwrap();
    let response = gateway.handle(request).await;
    let body: serde_json::Value = serde_json::from_slice(response.body()).unwrap();
    let list = body["lists"].as_array()?.iter().find(|l| l["source"] == "ofac-sdn")?.clone();
    Some((list["version"].as_str()?.to_string(), list["entry_count"].as_i64()?))
}

#[tokio::test]
async fn a_good_download_replaces_the_list_and_a_bad_one_replaces_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let store = host_native::open_store(&format!("sqlite://{}", dir.path().join("g.db").display())).await.unwrap();
    let gateway = Gateway::new(store, Box::new(ComponentRules::embedded().unwrap()), Box::new(SystemClock), Box::new(OsIds), Config::default());
    gateway.migrate().await.unwrap();
    let admin = gateway.create_admin_key(Environment::Production).await.unwrap();
    let mode = Arc::new(Mutex::new(Serve::Whole));
    let addr = list_server(mode.clone()).await;
    let sources = vec![ListSource::parse(&format!("production,ofac-csv,http://{addr}/ofac/")).unwrap()];
    let fetcher = ListFetcher::new().unwrap();

    let outcome = refresh_once(&gateway, &fetcher, &sources).await;
    assert!(outcome[0].as_ref().is_ok_and(|line| line.contains("9044 entries")), "{outcome:?}");
    let (version, count) = active_version(&gateway, &admin).await.expect("an active list");
    assert_eq!(count, 9044);

    for (bad, why) in [(Serve::Truncated, "truncated"), (Serve::Html, "expected 12 fields"), (Serve::Missing, "404")] {
        *mode.lock().unwrap() = bad;
        let outcome = refresh_once(&gateway, &fetcher, &sources).await;
        assert!(outcome[0].as_ref().is_err_and(|e| e.contains(why)), "{why}: {outcome:?}");
        assert_eq!(active_version(&gateway, &admin).await, Some((version.clone(), 9044)), "{why} replaced the list");
    }
}
