//! The national registers' nightly batch (issue #47): the players a tenant
//! checked at GAMSTOP are asked again through its batch API, a bounded
//! request at a time, at most one a second, each request claimed by one
//! host; a player newly found excluded is one `exclusion.created` to the
//! operator, and a run begins again a day after the last began.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod support;
use support::{call, TestClock};

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};

use gateway::auth::Environment;
use gateway::ports::{SendOutcome, VendorRequest, VendorResponse, WebhookSender};
use gateway::{Config, Gateway, WorkLimits};
use host_native::{open_store, OsIds};
use rules_library::LibraryRules;
use serde_json::{json, Value as Json};

/// One batch request as GAMSTOP got it: the clock second, and the e-mails it asked about.
type Batch = (i64, Vec<String>, usize);

/// A GAMSTOP that answers single checks `N` and batches by its excluded e-mails.
#[derive(Clone)]
struct Gamstop {
    clock: Arc<AtomicI64>,
    excluded: Arc<Mutex<BTreeSet<String>>>,
    batches: Arc<Mutex<Vec<Batch>>>,
}

#[async_trait::async_trait]
impl gateway::ports::VendorHttp for Gamstop {
    async fn send(&self, request: VendorRequest) -> Result<VendorResponse, String> {
        if !request.url.ends_with("/v2/batch") {
            let headers = vec![("x-exclusion".to_string(), "N".to_string()), ("x-unique-id".to_string(), "u-1".to_string())];
            return Ok(VendorResponse { status: 200, headers, body: Vec::new() });
        }
        let people: Vec<Json> = serde_json::from_slice(&request.body).map_err(|e| e.to_string())?;
        let excluded = self.excluded.lock().unwrap().clone();
        let emails: Vec<String> = people.iter().map(|p| p["email"].as_str().unwrap_or_default().to_string()).collect();
        let answers: Vec<Json> = people
            .iter()
            .map(|p| {
                let y = excluded.contains(p["email"].as_str().unwrap_or_default());
                json!({ "exclusion": if y { "Y" } else { "N" }, "msRequestId": "ms-1", "correlationId": p["correlationId"] })
            })
            .collect();
        self.batches.lock().unwrap().push((self.clock.load(Ordering::SeqCst), emails, request.body.len()));
        Ok(VendorResponse { status: 200, headers: Vec::new(), body: Json::Array(answers).to_string().into_bytes() })
    }
    async fn download(&self, _url: &str, _max_bytes: u64) -> Result<Vec<u8>, String> {
        Err("no downloads here".into())
    }
}

struct Quiet;
#[async_trait::async_trait]
impl WebhookSender for Quiet {
    async fn post(&self, _url: &str, _headers: &[(String, String)], _body: &[u8]) -> SendOutcome {
        SendOutcome::Answered { status: 200, retry_after: None }
    }
}
struct NoWake;
impl gateway::ports::Waker for NoWake {
    fn wake(&self) {}
}

const T0: i64 = 1_790_000_000;
const DAY: i64 = 24 * 3_600;

async fn host(url: &str, clock: &Arc<AtomicI64>, gamstop: &Gamstop) -> Gateway {
    let config = Config { work: WorkLimits { register_batch_people: 2, ..WorkLimits::default() }, ..Config::default() };
    let gateway = Gateway::new(open_store(url).await.unwrap(), Box::new(LibraryRules), Box::new(TestClock(clock.clone())), Box::new(OsIds), config)
        .with_webhooks(Box::new(Quiet), Box::new(NoWake))
        .with_vendor_http(Box::new(gamstop.clone()));
    gateway.migrate().await.unwrap();
    gateway
}

fn identity(user: &str) -> Json {
    json!({ "first_name": "Ann", "last_name": user, "date_of_birth": "1990-01-01", "email": format!("{user}@example.com"),
            "postcode": "SW1A 1AA", "phone": "+447700900123" })
}

/// The operator's `exclusion.created` events naming a player: `(user_id, source)`.
async fn told(url: &str) -> Vec<(String, String)> {
    let store = open_store(url).await.unwrap();
    let rows = store.query("SELECT envelope FROM outbox WHERE event = 'exclusion.created' ORDER BY created_at", vec![]).await.unwrap();
    rows.iter()
        .filter_map(|r| {
            let envelope: Json = serde_json::from_str(&r.text(0).unwrap()).unwrap();
            let data = &envelope["data"];
            Some((data["user_id"].as_str()?.to_string(), data["source"].as_str()?.to_string()))
        })
        .collect()
}

async fn batch_runs(url: &str) {
    let clock = Arc::new(AtomicI64::new(T0));
    let gamstop = Gamstop { clock: clock.clone(), excluded: Arc::default(), batches: Arc::default() };
    let a = host(url, &clock, &gamstop).await;
    // a second host on the same database: a request is claimed by one of them
    let b = host(url, &clock, &gamstop).await;
    let admin = a.create_admin_key(Environment::Sandbox).await.unwrap();
    let mut keys = Vec::new();
    for (name, purposes) in [("bound", json!(["login"])), ("marketing-only", json!(["marketing"]))] {
        let (_, tenant) = call(&a, &admin, "POST", "/v1/admin/tenants", json!({ "name": name, "environment": "sandbox" })).await;
        let tenant_id = tenant["tenant_id"].as_str().unwrap().to_string();
        let settings = json!({ "registers": [{ "register": "gamstop", "base_url": "http://127.0.0.1:9/v2", "credentials": { "api_key": "k" }, "purposes": purposes }] });
        let (status, body) = call(&a, &admin, "PUT", &format!("/v1/admin/tenants/{tenant_id}/registers"), settings).await;
        assert_eq!(status, 200, "{body}");
        keys.push(tenant["api_key"].as_str().unwrap().to_string());
    }
    for user in ["u1", "u2", "u3", "u4", "u5"] {
        let check = json!({ "user_id": user, "purpose": "login", "identity": identity(user) });
        let (status, body) = call(&a, &keys[0], "POST", "/v1/exclusions/check", check).await;
        assert_eq!((status, &body["excluded"]), (200, &json!(false)), "{body}");
        // the marketing-only tenant's checks keep no identity for a batch
        let check = json!({ "user_id": user, "purpose": "marketing", "identity": identity(user) });
        assert_eq!(call(&a, &keys[1], "POST", "/v1/exclusions/check", check).await.0, 200);
    }
    gamstop.excluded.lock().unwrap().insert("u3@example.com".into());
    // the first run begins a day after the register was set
    for second in [0, 1, DAY - 1] {
        clock.store(T0 + second, Ordering::SeqCst);
        assert_eq!(a.run_scheduled().await.unwrap().register_batch_players, 0);
    }
    assert!(gamstop.batches.lock().unwrap().is_empty(), "a batch before the first night");

    // two people a request, one request a second, both hosts running every round
    let mut rounds = Vec::new();
    for second in 0..6 {
        clock.store(T0 + DAY + second, Ordering::SeqCst);
        for host in [&a, &b, &a] {
            rounds.push(host.run_scheduled().await.unwrap().register_batch_players);
        }
    }
    let batches = gamstop.batches.lock().unwrap().clone();
    let asked: Vec<Vec<String>> = batches.iter().map(|(_, emails, _)| emails.clone()).collect();
    let mail = |u: &str| format!("{u}@example.com");
    assert_eq!(asked, vec![vec![mail("u1"), mail("u2")], vec![mail("u3"), mail("u4")], vec![mail("u5")]], "{rounds:?}");
    let seconds: Vec<i64> = batches.iter().map(|(at, _, _)| *at).collect();
    assert!(seconds.windows(2).all(|w| w[1] > w[0]), "two requests within a second: {seconds:?}");
    assert!(batches.iter().all(|(_, emails, bytes)| emails.len() <= 2 && *bytes <= 256 * 1024));
    assert_eq!(rounds.iter().sum::<usize>(), 5, "each player asked once: {rounds:?}");
    assert_eq!(told(url).await, vec![("u3".to_string(), "gamstop".to_string())], "the newly excluded player, told once");

    // the answer is evidence, and the player's standing
    let (status, page) = call(&a, &keys[0], "GET", "/v1/registers/checks?user_id=u3", Json::Null).await;
    assert_eq!(status, 200, "{page}");
    let newest = &page["checks"][0];
    assert_eq!((&newest["purpose"], &newest["status"], &newest["reference"]), (&json!("batch"), &json!("excluded"), &json!("ms-1")), "{page}");
    let store = open_store(url).await.unwrap();
    let standings = store.query("SELECT external_user_id, status FROM register_players WHERE status = 'excluded'", vec![]).await.unwrap();
    let standings: Vec<(String, String)> = standings.iter().map(|r| (r.text(0).unwrap(), r.text(1).unwrap())).collect();
    assert_eq!(standings, vec![("u3".to_string(), "excluded".to_string())], "the deposit gate reads this standing");

    // the run is over: nothing until a day after it began; then a new run, telling nothing already known
    clock.store(T0 + DAY + 3_600, Ordering::SeqCst);
    assert_eq!(a.run_scheduled().await.unwrap().register_batch_players, 0);
    for second in 0..4 {
        clock.store(T0 + 2 * DAY + second, Ordering::SeqCst);
        a.run_scheduled().await.unwrap();
    }
    assert_eq!(gamstop.batches.lock().unwrap().len(), 6, "the second night's run asks everyone again");
    assert_eq!(told(url).await.len(), 1, "an exclusion already known was told again");
}

#[tokio::test]
async fn the_nightly_batch_asks_a_bounded_request_a_second_and_tells_each_new_exclusion_once() {
    let dir = tempfile::tempdir().unwrap();
    batch_runs(&format!("sqlite://{}", dir.path().join("g.db").display())).await;
}

#[tokio::test]
async fn the_nightly_batch_on_postgres() {
    let Some(url) = support::postgres_database("register_batch").await else { return };
    batch_runs(&url).await;
}
