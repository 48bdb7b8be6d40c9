//! Production screening through a yente `/match` API, against a stand-in on
//! loopback written from yente's documented API: candidates it proposes are
//! scored by the rules; a hit opens a case the operator learns nothing of; a
//! vendor that fails answers 503 with Retry-After and writes nothing.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod support;

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};

use gateway::auth::Environment;
use gateway::ports::{Clock, Rules};
use gateway::vendors::yente::YenteConfig;
use gateway::{Config, Gateway, WorkLimits};
use host_native::rules_engine::ComponentRules;
use host_native::webhooks::VendorClient;
use host_native::{OsIds, SystemClock};
use rules_library::LibraryRules;
use serde_json::{json, Value as Json};
use support::{call, loopback_server, Received, TestClock};

/// What the stand-in does with the next requests.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Up,
    Failing,
    /// fails a request that asks for this name (lower case), answers the others
    FailingFor(&'static str),
}

/// The stand-in's entities, as yente's FollowTheMoney records.
fn entities() -> Vec<Json> {
    vec![
        json!({ "id": "NK-maduro", "schema": "Person", "caption": "Nicolás Maduro Moros", "datasets": ["us_ofac_sdn"],
                "properties": { "name": ["Nicolás Maduro Moros"], "alias": ["Nicolas MADURO MOROS"], "birthDate": ["1962-11-23"],
                                "nationality": ["ve"] } }),
        json!({ "id": "NK-ship", "schema": "Vessel", "caption": "Maduro Star", "properties": { "name": ["Maduro Star"] } }),
    ]
}

/// yente's `POST /match/{dataset}`: a batch of queries, each answered with
/// the entities sharing a name token (yente ranks by its own score; the
/// gateway re-scores with the rules).
fn answer(body: &Json) -> (u16, Json) {
    let Some(queries) = body["queries"].as_object() else { return (400, json!({ "detail": "queries missing" })) };
    let mut responses = serde_json::Map::new();
    for (key, query) in queries {
        let wanted: Vec<String> = query["properties"]["name"]
            .as_array()
            .map(|n| n.iter().filter_map(|v| v.as_str()).flat_map(|s| s.split_whitespace().map(str::to_lowercase).collect::<Vec<_>>()).collect())
            .unwrap_or_default();
        let results: Vec<Json> = entities()
            .into_iter()
            .filter(|e| e["caption"].as_str().unwrap_or("").split_whitespace().any(|t| wanted.iter().any(|w| w == &t.to_lowercase())))
            .map(|mut e| {
                e["score"] = json!(0.7);
                e["match"] = json!(false);
                e
            })
            .collect();
        responses
            .insert(key.clone(), json!({ "status": 200, "results": results, "total": { "value": results.len(), "relation": "eq" }, "query": query }));
    }
    (200, json!({ "responses": responses, "limit": 10 }))
}

/// The path and `Authorization` header of each request the stand-in got.
type Seen = Arc<Mutex<Vec<(String, Option<String>)>>>;

async fn standin(mode: Arc<Mutex<Mode>>, seen: Seen) -> std::net::SocketAddr {
    loopback_server(move |request: &Received<'_>| {
        let auth = request.headers.get("authorization").and_then(|v| v.to_str().ok()).map(str::to_string);
        let path = request.path.split('?').next().unwrap_or_default();
        seen.lock().unwrap().push((path.to_string(), auth));
        let asked = String::from_utf8_lossy(request.body).to_lowercase();
        let (status, body) = match (*mode.lock().unwrap(), path.strip_prefix("/match/")) {
            (Mode::Failing, _) => (500, json!({ "detail": "index unavailable" })),
            (Mode::FailingFor(name), _) if asked.contains(name) => (500, json!({ "detail": "index unavailable" })),
            (Mode::Up | Mode::FailingFor(_), Some("sanctions")) => answer(&serde_json::from_slice(request.body).unwrap_or(Json::Null)),
            (Mode::Up | Mode::FailingFor(_), _) => (404, json!({ "detail": "no such dataset" })),
        };
        (status, body.to_string().into_bytes())
    })
    .await
    .unwrap()
}

async fn gateway(dir: &tempfile::TempDir, base_url: String) -> Gateway {
    gateway_with(dir, base_url, Box::new(SystemClock), Box::new(ComponentRules::embedded().unwrap()), WorkLimits::default()).await
}

/// A yente-only production (no list imported) on `dir`'s database, with this clock, rules and work limits.
async fn gateway_with(dir: &tempfile::TempDir, base_url: String, clock: Box<dyn Clock>, rules: Box<dyn Rules>, work: WorkLimits) -> Gateway {
    let store = host_native::open_store(&format!("sqlite://{}", dir.path().join("g.db").display())).await.unwrap();
    let config = Config {
        work,
        production_screening_vendor: Some(YenteConfig {
            base_url,
            dataset: "sanctions".into(),
            extended_dataset: "default".into(),
            api_key: Some("yk-1".into()),
        }),
        ..Config::default()
    };
    let gateway = Gateway::new(store, rules, clock, Box::new(OsIds), config).with_vendor_http(Box::new(VendorClient::new().unwrap()));
    gateway.migrate().await.unwrap();
    gateway
}

fn person(user_id: &str, first: &str, last: &str, dob: &str, nationality: &str) -> Json {
    json!({ "user_id": user_id, "first_name": first, "last_name": last, "date_of_birth": dob, "nationality": nationality, "email": format!("{user_id}@example.com") })
}

async fn production_tenant(gateway: &Gateway, admin: &str) -> String {
    let (status, body) = call(gateway, admin, "POST", "/v1/admin/tenants", json!({ "name": "op", "environment": "production" })).await;
    assert_eq!(status, 201, "{body}");
    body["api_key"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn yente_candidates_are_scored_by_the_rules_and_a_hit_opens_a_case() {
    let dir = tempfile::tempdir().unwrap();
    let (mode, seen) = (Arc::new(Mutex::new(Mode::Up)), Arc::new(Mutex::new(Vec::new())));
    let addr = standin(mode, seen.clone()).await;
    let gateway = gateway(&dir, format!("http://{addr}")).await;
    let admin = gateway.create_admin_key(Environment::Production).await.unwrap();
    let key = production_tenant(&gateway, &admin).await;

    // No list is imported: the vendor alone makes production screening available.
    let (status, hit) = call(&gateway, &key, "POST", "/v1/sanctions/screen", person("u-1", "Nicolas", "Maduro Moros", "1962-11-23", "VE")).await;
    assert_eq!(status, 201, "{hit}");
    assert_eq!(hit["status"], "hit_review_pending");
    let score = hit["highest_match_score"].as_f64().unwrap();
    assert!((0.85..=1.0).contains(&score), "{hit}");
    let raw = hit.to_string();
    for detail in ["NK-maduro", "yente", "us_ofac_sdn", "Nicolás"] {
        assert!(!raw.contains(detail), "the operator saw {detail}: {raw}");
    }
    let case_id = hit["case_id"].as_str().unwrap();
    let (status, case) = call(&gateway, &admin, "GET", &format!("/v1/admin/sanctions/cases/{case_id}"), Json::Null).await;
    assert_eq!(status, 200);
    assert_eq!(case["matches"][0]["entity_id"], "NK-maduro", "{case}");
    assert_eq!(case["matches"][0]["list"], "yente-sanctions", "{case}");

    // The negative twin: a name the vendor proposes candidates for, but that the rules do not match.
    let (status, clear) = call(&gateway, &key, "POST", "/v1/sanctions/screen", person("u-2", "Maria", "Maduro", "1990-01-01", "ES")).await;
    assert_eq!((status, clear["status"].as_str()), (201, Some("clear")), "{clear}");

    let seen = seen.lock().unwrap();
    assert!(seen.iter().all(|(path, auth)| path == "/match/sanctions" && auth.as_deref() == Some("ApiKey yk-1")), "{seen:?}");
    assert_eq!(seen.len(), 2);
}

#[tokio::test]
async fn a_failing_or_unreachable_vendor_is_503_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (mode, seen) = (Arc::new(Mutex::new(Mode::Failing)), Arc::new(Mutex::new(Vec::new())));
    let addr = standin(mode.clone(), seen).await;
    let gateway = gateway(&dir, format!("http://{addr}")).await;
    let admin = gateway.create_admin_key(Environment::Production).await.unwrap();
    let key = production_tenant(&gateway, &admin).await;

    let (status, error) = call(&gateway, &key, "POST", "/v1/sanctions/screen", person("u-1", "Ann", "Lee", "1990-04-01", "GB")).await;
    assert_eq!((status, error["error"].as_str()), (503, Some("vendor_unavailable")), "{error}");
    assert!(!error.to_string().contains("index unavailable"), "the vendor's words reached the operator: {error}");
    let (status, _) = call(&gateway, &key, "GET", "/v1/sanctions/status?user_id=u-1", Json::Null).await;
    assert_eq!(status, 404, "a failed screening left a user behind");

    // Once the vendor is back, the same request screens.
    *mode.lock().unwrap() = Mode::Up;
    let (status, clear) = call(&gateway, &key, "POST", "/v1/sanctions/screen", person("u-1", "Ann", "Lee", "1990-04-01", "GB")).await;
    assert_eq!((status, clear["status"].as_str()), (201, Some("clear")), "{clear}");

    // A vendor no one answers at (a port that was just closed) is unavailable too.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let dir2 = tempfile::tempdir().unwrap();
    let gateway = self::gateway(&dir2, format!("http://{closed}")).await;
    let admin = gateway.create_admin_key(Environment::Production).await.unwrap();
    let key = production_tenant(&gateway, &admin).await;
    let request = http::Request::builder()
        .method("POST")
        .uri("/v1/sanctions/screen")
        .header("authorization", format!("Bearer {key}"))
        .header("content-type", "application/json")
        .body(person("u-9", "Ann", "Lee", "1990-04-01", "GB").to_string().into_bytes())
        .unwrap();
    let response = gateway.handle(request).await;
    assert_eq!(response.status(), 503);
    assert_eq!(response.headers().get("retry-after").and_then(|v| v.to_str().ok()), Some("30"));
}

/// A Thursday, 08:00 UTC.
const START: i64 = 1_800_000_000;
const QUARTER: i64 = 92 * 86_400;

async fn screen_clear(gateway: &Gateway, key: &str, user: &str, first: &str, last: &str) {
    let (status, body) = call(gateway, key, "POST", "/v1/sanctions/screen", person(user, first, last, "1990-04-01", "GB")).await;
    assert_eq!((status, body["status"].as_str()), (201, Some("clear")), "{body}");
}

async fn last_screened_at(gateway: &Gateway, key: &str, user: &str) -> String {
    let (status, body) = call(gateway, key, "GET", &format!("/v1/sanctions/status?user_id={user}"), Json::Null).await;
    assert_eq!(status, 200, "{body}");
    body["last_screened_at"].as_str().unwrap().to_string()
}

/// A production screening through the yente stand-in, on `dir`'s database,
/// with a test clock from `START`: its first round has seen the rules live
/// before anyone is screened; one tenant's key.
struct Production {
    gateway: Gateway,
    key: String,
    clock: TestClock,
    mode: Arc<Mutex<Mode>>,
    seen: Seen,
    url: String,
}

async fn production(dir: &tempfile::TempDir, rules: Box<dyn Rules>) -> Production {
    let (mode, seen) = (Arc::new(Mutex::new(Mode::Up)), Arc::new(Mutex::new(Vec::new())));
    let addr = standin(mode.clone(), seen.clone()).await;
    let clock = TestClock(Arc::new(AtomicI64::new(START)));
    let url = format!("http://{addr}");
    let gateway = gateway_with(dir, url.clone(), Box::new(clock.clone()), rules, WorkLimits::default()).await;
    gateway.run_scheduled().await.unwrap();
    let admin = gateway.create_admin_key(Environment::Production).await.unwrap();
    let key = production_tenant(&gateway, &admin).await;
    Production { gateway, key, clock, mode, seen, url }
}

/// S6: with yente and no list imported, production users are re-screened
/// each quarter (they were never due: only a list or the stub vendors made
/// production due).
#[tokio::test]
async fn a_yente_only_production_is_rescreened_each_quarter() {
    let dir = tempfile::tempdir().unwrap();
    let Production { gateway, key, clock, seen, .. } = production(&dir, Box::new(ComponentRules::embedded().unwrap())).await;
    screen_clear(&gateway, &key, "u-1", "Ann", "Lee").await;
    let screened = last_screened_at(&gateway, &key, "u-1").await;
    let asked = seen.lock().unwrap().len();

    // a day on, nothing is due; a quarter on, the user is screened again through yente
    clock.0.fetch_add(86_400, Ordering::SeqCst);
    assert_eq!(gateway.run_scheduled().await.unwrap().users_rescreened, 0);
    clock.0.fetch_add(QUARTER, Ordering::SeqCst);
    let report = gateway.run_scheduled().await.unwrap();
    assert_eq!((report.users_rescreened, report.rescreen_errors), (1, 0), "{report:?}");
    assert_eq!(seen.lock().unwrap().len(), asked + 1, "the re-screen did not ask yente");
    assert_ne!(last_screened_at(&gateway, &key, "u-1").await, screened);
}

/// S6: one user's failed re-screen (yente failing for that name) is counted
/// and the round goes on: the other user is re-screened, the day's snapshot
/// is taken; the failed user stays due and is screened once yente is back.
#[tokio::test]
async fn a_failed_rescreen_is_counted_and_the_round_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let Production { gateway, key, clock, mode, .. } = production(&dir, Box::new(ComponentRules::embedded().unwrap())).await;
    screen_clear(&gateway, &key, "u-1", "Ann", "Lee").await;
    screen_clear(&gateway, &key, "u-2", "Bob", "Stone").await;
    let (first, second) = (last_screened_at(&gateway, &key, "u-1").await, last_screened_at(&gateway, &key, "u-2").await);

    clock.0.fetch_add(QUARTER, Ordering::SeqCst);
    *mode.lock().unwrap() = Mode::FailingFor("lee");
    let report = gateway.run_scheduled().await.expect("one failed re-screen must not fail the round");
    assert_eq!((report.users_rescreened, report.rescreen_errors), (1, 1), "{report:?}");
    assert!(report.snapshots_taken > 0, "the day's snapshot was not taken: {report:?}");
    assert_eq!(last_screened_at(&gateway, &key, "u-1").await, first, "the failed re-screen wrote something");
    assert_ne!(last_screened_at(&gateway, &key, "u-2").await, second);

    *mode.lock().unwrap() = Mode::Up;
    let report = gateway.run_scheduled().await.unwrap();
    assert_eq!((report.users_rescreened, report.rescreen_errors), (1, 0), "{report:?}");
    assert_ne!(last_screened_at(&gateway, &key, "u-1").await, first);
}

/// After a new rules version is live, every active user is re-screened
/// once, a bounded batch a round; the version before, still running on
/// another host, does not screen them back.
#[tokio::test]
async fn a_new_rules_version_rescreens_every_active_user_once() {
    let dir = tempfile::tempdir().unwrap();
    let Production { gateway: old, key, clock, seen, url, .. } = production(&dir, Box::new(ComponentRules::embedded().unwrap())).await;
    for (user, first, last) in [("u-1", "Ann", "Lee"), ("u-2", "Bob", "Stone"), ("u-3", "Cleo", "Marsh")] {
        screen_clear(&old, &key, user, first, last).await;
    }
    clock.0.fetch_add(3_600, Ordering::SeqCst);
    assert_eq!(old.run_scheduled().await.unwrap().users_rescreened, 0, "nothing is due under the version that screened them");

    // another rules version goes live (here the library build, another SHA-256), two users a round
    let work = WorkLimits { scheduled_batch: 2, ..WorkLimits::default() };
    let new = gateway_with(&dir, url, Box::new(clock.clone()), Box::new(LibraryRules), work).await;
    assert_ne!(LibraryRules.identity().component_sha256, ComponentRules::embedded().unwrap().identity().component_sha256);
    let asked = seen.lock().unwrap().len();
    let mut screened = Vec::new();
    for _ in 0..3 {
        clock.0.fetch_add(60, Ordering::SeqCst);
        screened.push(new.run_scheduled().await.unwrap().users_rescreened);
    }
    assert_eq!(screened, [2, 1, 0], "each user once, at most two a round");
    assert_eq!(seen.lock().unwrap().len(), asked + 3);
    assert_eq!(old.run_scheduled().await.unwrap().users_rescreened, 0, "the older version screened them back");
}

/// A list update's re-screen asks the lists only, and only the import's
/// changes: it does not stand for the user's whole re-screen. The quarter's
/// still comes, counted from the last whole screening, and asks yente.
#[tokio::test]
async fn a_list_updates_re_screen_does_not_move_the_quarters() {
    list_update_then_quarter(false).await;
}

/// The same for a user screened before the store kept whole screenings apart
/// (no `whole_screened_at`): their last screening stands for it.
#[tokio::test]
async fn a_list_updates_re_screen_does_not_move_the_quarters_of_a_user_of_before() {
    list_update_then_quarter(true).await;
}

async fn list_update_then_quarter(user_of_before: bool) {
    let dir = tempfile::tempdir().unwrap();
    let Production { gateway, key, clock, seen, .. } = production(&dir, Box::new(ComponentRules::embedded().unwrap())).await;
    screen_clear(&gateway, &key, "u-1", "Ann", "Lee").await;
    if user_of_before {
        let store = host_native::open_store(&format!("sqlite://{}", dir.path().join("g.db").display())).await.unwrap();
        let forget = "UPDATE users SET whole_screened_at = NULL WHERE external_user_id = 'u-1'";
        store.batch(vec![gateway::ports::Stmt::expect_one(forget, vec![])]).await.unwrap();
    }
    let screened = last_screened_at(&gateway, &key, "u-1").await;
    let asked = seen.lock().unwrap().len();

    // 60 days on, a list update: the user is screened against its changes, not through yente
    clock.0.fetch_add(60 * 86_400, Ordering::SeqCst);
    support::import_an_unrelated_entry(&gateway, Environment::Production).await;
    let report = gateway.run_scheduled().await.unwrap();
    assert_eq!((report.users_rescreened, report.rescreen_errors), (1, 0), "the list update's re-screen: {report:?}");
    assert_eq!(seen.lock().unwrap().len(), asked, "a list update's re-screen asked yente");
    // the status shows any screening (a pending proposal on a case is dropped only by new evidence: `list_update_evidence.rs`)
    let updated = last_screened_at(&gateway, &key, "u-1").await;
    assert_ne!(updated, screened, "the list update's re-screen is not shown");

    // a quarter after the signup (32 days after the update), the whole re-screen, through yente
    clock.0.fetch_add(QUARTER - 60 * 86_400, Ordering::SeqCst);
    let report = gateway.run_scheduled().await.unwrap();
    assert_eq!((report.users_rescreened, report.rescreen_errors), (1, 0), "the quarter's re-screen: {report:?}");
    assert_eq!(seen.lock().unwrap().len(), asked + 1, "the quarter's re-screen did not ask yente");
    assert_ne!(last_screened_at(&gateway, &key, "u-1").await, updated);
    // and the next quarter counts from it
    clock.0.fetch_add(86_400, Ordering::SeqCst);
    assert_eq!(gateway.run_scheduled().await.unwrap().users_rescreened, 0, "re-screened again the day after the quarter's");
}

/// Under a new rules version, a list update's re-screen (which the new rules
/// decide) does not stand for the new version's whole re-screen either.
#[tokio::test]
async fn a_list_updates_re_screen_under_new_rules_does_not_stand_for_theirs() {
    let dir = tempfile::tempdir().unwrap();
    let Production { gateway: old, key, clock, seen, url, .. } = production(&dir, Box::new(ComponentRules::embedded().unwrap())).await;
    screen_clear(&old, &key, "u-1", "Ann", "Lee").await;

    // another rules version goes live, and a list update comes before its first round
    let new = gateway_with(&dir, url, Box::new(clock.clone()), Box::new(LibraryRules), WorkLimits::default()).await;
    support::import_an_unrelated_entry(&new, Environment::Production).await;
    let asked = seen.lock().unwrap().len();
    clock.0.fetch_add(60, Ordering::SeqCst);
    let report = new.run_scheduled().await.unwrap();
    assert_eq!((report.users_rescreened, report.rescreen_errors), (2, 0), "the list's re-screen and the new rules': {report:?}");
    assert_eq!(seen.lock().unwrap().len(), asked + 1, "the new rules' whole re-screen did not ask yente");
    clock.0.fetch_add(60, Ordering::SeqCst);
    assert_eq!(new.run_scheduled().await.unwrap().users_rescreened, 0, "a user re-screened twice under the new rules");
}
