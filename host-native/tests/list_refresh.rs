//! Scheduled list refresh from a URL, against a list server on loopback: a
//! good download is staged, loaded over several rounds and then switched
//! in; a cut-short, unreadable or missing one replaces nothing and says why;
//! two hosts on one store download a due list once.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod support;

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};

use gateway::auth::Environment;
use gateway::lists::ListSource;
use gateway::{Config, Gateway, WorkLimits};
use host_native::rules_engine::ComponentRules;
use host_native::webhooks::VendorClient;
use host_native::OsIds;
use support::{loopback_server, Received, TestClock};

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

/// A gateway on `database` whose clock the test moves, refreshing OFAC
/// from `addr` every hour, loading two staged chunks a round.
async fn refreshing_gateway(database: &str, clock: Arc<AtomicI64>, addr: std::net::SocketAddr) -> Gateway {
    let store = host_native::open_store(database).await.unwrap();
    let config = Config {
        list_sources: vec![ListSource::parse(&format!("production,ofac-csv,http://{addr}/ofac/")).unwrap()],
        list_refresh_seconds: Some(3_600),
        work: WorkLimits { list_chunks_per_round: 2, ..WorkLimits::default() },
        ..Config::default()
    };
    let gateway = Gateway::new(store, Box::new(ComponentRules::embedded().unwrap()), Box::new(TestClock(clock)), Box::new(OsIds), config)
        .with_vendor_http(Box::new(VendorClient::new().unwrap()));
    gateway.migrate().await.unwrap();
    gateway
}

/// Runs scheduled rounds until nothing more is due; answers how many ran.
async fn load_staged(gateway: &Gateway) -> usize {
    for round in 1..=1_000 {
        if !gateway.run_scheduled().await.unwrap().more_due {
            return round;
        }
    }
    panic!("the staged list never finished loading");
}

#[tokio::test]
async fn a_good_download_replaces_the_list_and_a_bad_one_replaces_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(AtomicI64::new(1_800_000_000));
    let mode = Arc::new(Mutex::new(Serve::Whole));
    let addr = list_server(mode.clone()).await;
    let gateway = refreshing_gateway(&format!("sqlite://{}", dir.path().join("g.db").display()), clock.clone(), addr).await;
    let admin = gateway.create_admin_key(Environment::Production).await.unwrap();

    let outcome = gateway::lists::refresh::refresh_due(&gateway).await;
    assert!(outcome[0].as_ref().is_ok_and(|line| line.contains("staged 9044 entries")), "{outcome:?}");
    // Staged, not yet switched in: screenings see no half list.
    assert_eq!(active_version(&gateway, &admin).await, None);
    let first = gateway.run_scheduled().await.unwrap();
    assert_eq!((first.list_chunks_loaded, first.lists_activated, first.more_due), (2, 0, true));
    assert_eq!(active_version(&gateway, &admin).await, None, "a part-loaded version was switched in");
    let rounds = load_staged(&gateway).await;
    assert!(rounds > 40, "{rounds} rounds for 91 chunks at 2 a round");
    let (version, count) = active_version(&gateway, &admin).await.expect("an active list");
    assert_eq!(count, 9044);

    // Not due again until the interval has passed.
    assert!(gateway::lists::refresh::refresh_due(&gateway).await.is_empty());
    for (bad, why) in [(Serve::Truncated, "truncated"), (Serve::Html, "expected 12 fields"), (Serve::Missing, "404")] {
        *mode.lock().unwrap() = bad;
        clock.fetch_add(3_600, Ordering::SeqCst);
        let outcome = gateway::lists::refresh::refresh_due(&gateway).await;
        assert!(outcome[0].as_ref().is_err_and(|e| e.contains(why)), "{why}: {outcome:?}");
        load_staged(&gateway).await;
        assert_eq!(active_version(&gateway, &admin).await, Some((version.clone(), 9044)), "{why} replaced the list");
    }
    // A failure is tried again after 10 minutes, not a whole interval.
    *mode.lock().unwrap() = Serve::Whole;
    clock.fetch_add(9 * 60, Ordering::SeqCst);
    assert!(gateway::lists::refresh::refresh_due(&gateway).await.is_empty());
    clock.fetch_add(60, Ordering::SeqCst);
    assert_eq!(gateway::lists::refresh::refresh_due(&gateway).await.len(), 1);
}

#[tokio::test]
async fn two_hosts_on_one_store_download_a_due_list_once() {
    let dir = tempfile::tempdir().unwrap();
    let database = format!("sqlite://{}", dir.path().join("g.db").display());
    let clock = Arc::new(AtomicI64::new(1_800_000_000));
    let downloads = Arc::new(AtomicI64::new(0));
    let counted = downloads.clone();
    let addr = loopback_server(move |request: &Received<'_>| {
        let file = request.path.rsplit('/').next().unwrap_or_default().to_string();
        if file == "sdn.csv" {
            counted.fetch_add(1, Ordering::SeqCst);
        }
        (200, std::fs::read(format!("{OFAC}/{file}")).unwrap_or_default())
    })
    .await
    .unwrap();
    let a = refreshing_gateway(&database, clock.clone(), addr).await;
    let b = refreshing_gateway(&database, clock.clone(), addr).await;
    let admin = a.create_admin_key(Environment::Production).await.unwrap();

    let (from_a, from_b) = tokio::join!(gateway::lists::refresh::refresh_due(&a), gateway::lists::refresh::refresh_due(&b));
    assert_eq!(from_a.len() + from_b.len(), 1, "{from_a:?} {from_b:?}");
    assert_eq!(downloads.load(Ordering::SeqCst), 1);
    // Both hosts load chunks; each chunk is written once and the version switches in once.
    let mut activated = 0;
    for _ in 0..1_000 {
        let (ra, rb) = tokio::join!(a.run_scheduled(), b.run_scheduled());
        let (ra, rb) = (ra.unwrap(), rb.unwrap());
        activated += ra.lists_activated + rb.lists_activated;
        if !ra.more_due && !rb.more_due {
            break;
        }
    }
    assert_eq!(activated, 1);
    assert_eq!(active_version(&a, &admin).await.map(|v| v.1), Some(9044));
    let store = host_native::open_store(&database).await.unwrap();
    assert_eq!(store.scalar("SELECT COUNT(*) FROM sanctions_entries", vec![]).await.unwrap(), 9044);
    // The next refresh is an interval later, whichever host looks.
    clock.fetch_add(3_599, Ordering::SeqCst);
    assert!(gateway::lists::refresh::refresh_due(&a).await.is_empty() && gateway::lists::refresh::refresh_due(&b).await.is_empty());
    clock.fetch_add(1, Ordering::SeqCst);
    let (from_a, from_b) = tokio::join!(gateway::lists::refresh::refresh_due(&a), gateway::lists::refresh::refresh_due(&b));
    assert_eq!(from_a.len() + from_b.len(), 1);
    assert_eq!(downloads.load(Ordering::SeqCst), 2);
}
