//! A pending four-eyes proposal on a sanctions case is dropped by new
//! evidence only. A list update re-screens every user against the entries
//! it changed; for a user under review that is new evidence when a changed
//! entry resembles them, or when an entry their case matched changed or was
//! delisted. An update that concerns nobody's case (OFAC publishes several a
//! week) leaves the proposal to be approved. Through `Gateway::handle` on
//! SQLite, production (four-eyes on), with lists imported as the CLI does.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod support;
use support::{call, TestClock};

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use gateway::auth::Environment;
use gateway::lists::{ListEntry, ListFormat};
use gateway::people::Role;
use gateway::{Config, Gateway};
use host_native::rules_engine::ComponentRules;
use host_native::{open_store, OsIds};
use rules::{EntryKind, EntryTopic};
use serde_json::{json, Value as Json};
use totp_rs::{Algorithm, Secret, TOTP};

const START: i64 = 1_790_000_000;

fn entry(id: &str, name: &str, dob: &str, programs: &str) -> ListEntry {
    ListEntry {
        entity_id: id.into(),
        kind: EntryKind::Individual,
        names: vec![name.into()],
        dates_of_birth: vec![dob.into()],
        nationalities: vec!["RU".into()],
        programs: programs.into(),
        topic: EntryTopic::Sanction,
    }
}

/// The list as first imported: three listed people the players resemble,
/// and two others nobody resembles.
fn first_list() -> Vec<ListEntry> {
    vec![
        entry("1", "Lavrentiy Prokhodtsev", "1961-07-04", "TEST"),
        entry("2", "Kazimir Vrublevsky", "1958-03-02", "TEST"),
        entry("3", "Gediminas Zhukauskas", "1970-11-19", "TEST"),
        entry("4", "Theodoric Wexbourne", "1949-01-30", "TEST"),
        entry("5", "Ulrich Ostendorf", "1966-05-05", "TEST"),
    ]
}

struct World {
    gw: Gateway,
    clock: Arc<AtomicI64>,
    key: String,
    proposer: String,
    approver: String,
    _dir: tempfile::TempDir,
}

fn code(secret: &str, at: i64) -> String {
    let bytes = Secret::Encoded(secret.to_string()).to_bytes().unwrap();
    TOTP::new(Algorithm::SHA1, 6, 1, 30, bytes).unwrap().generate(at as u64)
}

/// A production person of `role`, signed in, their one-time password changed: their session token.
async fn person(w_gw: &Gateway, clock: &AtomicI64, email: &str, role: Role) -> String {
    let created = w_gw.create_console_account(Environment::Production, email, role).await.unwrap();
    let at = clock.load(Ordering::SeqCst);
    let sign_in = json!({ "environment": "production", "email": email, "password": created.password, "totp": code(&created.totp_secret, at) });
    let (status, session) = call(w_gw, "", "POST", "/v1/admin/sessions", sign_in).await;
    assert_eq!(status, 201, "{session}");
    let token = session["session_token"].as_str().unwrap().to_string();
    let change = json!({ "password": created.password, "new_password": format!("{email} quilt ember saffron") });
    let (status, changed) = call(w_gw, &token, "POST", "/v1/admin/people/me/password", change).await;
    assert_eq!(status, 200, "{changed}");
    token
}

async fn import(w: &World, entries: Vec<ListEntry>) {
    gateway::lists::import(&w.gw, Environment::Production, "ofac-sdn", ListFormat::OfacCsv, entries, "cli").await.unwrap();
    settle(w).await;
}

/// Runs scheduled work until no list's re-screen is pending.
async fn settle(w: &World) {
    for _ in 0..20 {
        w.gw.run_scheduled().await.unwrap();
        let admin = w.gw.create_admin_key(Environment::Production).await.unwrap();
        let (status, lists) = call(&w.gw, &admin, "GET", "/v1/admin/sanctions/lists", Json::Null).await;
        assert_eq!(status, 200, "{lists}");
        if !lists["lists"].as_array().unwrap().iter().any(|l| l["rescreen_pending"] == json!(true)) {
            return;
        }
    }
    panic!("the list's re-screens did not finish");
}

async fn world() -> World {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("g.db").display());
    let keys = host_native::load_secret_keys(&db, None, None, &[]).unwrap();
    let clock = Arc::new(AtomicI64::new(START));
    let config = Config { secret_keys: Some(keys), ..Config::default() };
    let gw = Gateway::new(
        open_store(&db).await.unwrap(),
        Box::new(ComponentRules::embedded().unwrap()),
        Box::new(TestClock(clock.clone())),
        Box::new(OsIds),
        config,
    );
    gw.migrate().await.unwrap();
    let admin = gw.create_admin_key(Environment::Production).await.unwrap();
    let (status, tenant) = call(&gw, &admin, "POST", "/v1/admin/tenants", json!({ "name": "t", "environment": "production" })).await;
    assert_eq!(status, 201, "{tenant}");
    let key = tenant["api_key"].as_str().unwrap().to_string();
    let proposer = person(&gw, &clock, "proposer@example.com", Role::Reviewer).await;
    let approver = person(&gw, &clock, "approver@example.com", Role::Approver).await;
    let w = World { gw, clock, key, proposer, approver, _dir: dir };
    import(&w, first_list()).await;
    w
}

/// A player screened as `name` born `dob`: a hit, under review. Answers the case's id.
async fn hit(w: &World, user_id: &str, first: &str, last: &str, dob: &str) -> String {
    let identity = json!({ "user_id": user_id, "first_name": first, "last_name": last, "date_of_birth": dob, "nationality": "RU", "email": format!("{user_id}@example.com") });
    let (status, screened) = call(&w.gw, &w.key, "POST", "/v1/sanctions/screen", identity).await;
    assert_eq!((status, screened["status"].as_str()), (201, Some("hit_review_pending")), "{screened}");
    screened["case_id"].as_str().unwrap().to_string()
}

/// The reviewer proposes to clear the case: the proposal's id.
async fn propose(w: &World, case_id: &str) -> String {
    let body = json!({ "outcome": "false_positive", "reason": "another person of that name" });
    let (status, proposed) = call(&w.gw, &w.proposer, "POST", &format!("/v1/admin/cases/{case_id}/proposal"), body).await;
    assert_eq!(status, 201, "{proposed}");
    proposed["proposal"]["proposal_id"].as_str().unwrap().to_string()
}

async fn approve(w: &World, case_id: &str, proposal_id: &str) -> (u16, Json) {
    call(&w.gw, &w.approver, "POST", &format!("/v1/admin/cases/{case_id}/proposal/approve"), json!({ "proposal_id": proposal_id })).await
}

/// Three players under review, each with a pending proposal. A list update
/// changes an entry nobody resembles and the third's entry; a second one
/// only delists the second's entity.
#[tokio::test]
async fn a_list_update_drops_only_the_proposals_whose_evidence_it_changed() {
    let w = world().await;
    let untouched = hit(&w, "p1", "Lavrentiy", "Prokhodtsev", "1961-07-04").await;
    let delisted = hit(&w, "p2", "Kazimir", "Vrublevsky", "1958-03-02").await;
    let changed = hit(&w, "p3", "Gediminas", "Zhukauskas", "1970-11-19").await;
    let proposals = [propose(&w, &untouched).await, propose(&w, &delisted).await, propose(&w, &changed).await];

    // screening times are whole seconds: the re-screens' come later than the proposals
    w.clock.fetch_add(60, Ordering::SeqCst);
    let mut update = first_list();
    for e in &mut update {
        if e.entity_id == "3" || e.entity_id == "4" {
            e.programs = "TEST] [CYBER2".into();
        }
    }
    import(&w, update.clone()).await;
    let (status, p1) = call(&w.gw, &w.key, "GET", "/v1/sanctions/status?user_id=p1", Json::Null).await;
    assert_eq!(status, 200, "{p1}");
    assert_eq!(p1["last_screened_at"], json!(gateway::time::format(START + 60)), "the update re-screened p1: {p1}");

    // the update concerned no entry p1's case rests on: the proposal stands, and decides
    let (status, approved) = approve(&w, &untouched, &proposals[0]).await;
    assert_eq!(status, 200, "{approved}");
    // p3's entry changed: new evidence
    let (status, refused) = approve(&w, &changed, &proposals[2]).await;
    assert_eq!((status, refused["error"].as_str()), (409, Some("stale_proposal")), "{refused}");

    // an update that only delists the entity p2's case matched: new evidence
    w.clock.fetch_add(60, Ordering::SeqCst);
    update.retain(|e| e.entity_id != "2");
    import(&w, update).await;
    let (status, refused) = approve(&w, &delisted, &proposals[1]).await;
    assert_eq!((status, refused["error"].as_str()), (409, Some("stale_proposal")), "{refused}");
}

/// A version replaced before its re-screen reached every user: what it
/// changed is screened with the next version's changes, from the first
/// user. A new listing in it makes a clear player a hit, and drops the
/// proposal of a player under review it resembles.
#[tokio::test]
async fn a_version_replaced_before_its_re_screen_finished_hands_its_changes_on() {
    let w = world().await;
    let case_id = hit(&w, "p1", "Lavrentiy", "Prokhodtsev", "1961-07-04").await;
    let proposal = propose(&w, &case_id).await;
    let identity = json!({ "user_id": "p4", "first_name": "Oswin", "last_name": "Quarrelby", "date_of_birth": "1972-02-14", "nationality": "RU", "email": "p4@example.com" });
    let (status, clear) = call(&w.gw, &w.key, "POST", "/v1/sanctions/screen", identity).await;
    assert_eq!((status, clear["status"].as_str()), (201, Some("clear")), "{clear}");

    w.clock.fetch_add(60, Ordering::SeqCst);
    let mut listed = first_list();
    listed.push(entry("6", "Lavrenty Prokhodtsev", "1961-07-04", "TEST"));
    listed.push(entry("7", "Oswin Quarrelby", "1972-02-14", "TEST"));
    // imported, and replaced before any re-screen ran (the next refresh came first)
    gateway::lists::import(&w.gw, Environment::Production, "ofac-sdn", ListFormat::OfacCsv, listed.clone(), "cli").await.unwrap();
    for e in &mut listed {
        if e.entity_id == "5" {
            e.programs = "TEST] [CYBER2".into();
        }
    }
    import(&w, listed).await;

    let (status, now) = call(&w.gw, &w.key, "GET", "/v1/sanctions/status?user_id=p4", Json::Null).await;
    assert_eq!((status, now["status"].as_str()), (200, Some("hit_review_pending")), "the new listing was never screened: {now}");
    let (status, refused) = approve(&w, &case_id, &proposal).await;
    assert_eq!((status, refused["error"].as_str()), (409, Some("stale_proposal")), "{refused}");
}

/// A new entry that resembles a player under review is new evidence too,
/// though the rules score no one under review.
#[tokio::test]
async fn a_new_entry_resembling_a_player_under_review_drops_the_proposal() {
    let w = world().await;
    let case_id = hit(&w, "p1", "Lavrentiy", "Prokhodtsev", "1961-07-04").await;
    let proposal = propose(&w, &case_id).await;
    w.clock.fetch_add(60, Ordering::SeqCst);
    let mut update = first_list();
    update.push(entry("6", "Lavrenty Prokhodtsev", "1961-07-04", "TEST"));
    import(&w, update).await;
    let (status, refused) = approve(&w, &case_id, &proposal).await;
    assert_eq!((status, refused["error"].as_str()), (409, Some("stale_proposal")), "{refused}");
}

/// A version that only delisted, replaced by the same list before its
/// re-screen ran: the next version's re-screen still runs and the delisting
/// still drops the proposal of the case that matched it.
#[tokio::test]
async fn a_delisting_replaced_before_its_re_screen_still_reaches_the_case() {
    let w = world().await;
    let case_id = hit(&w, "p2", "Kazimir", "Vrublevsky", "1958-03-02").await;
    let proposal = propose(&w, &case_id).await;
    w.clock.fetch_add(60, Ordering::SeqCst);
    let mut delisted = first_list();
    delisted.retain(|e| e.entity_id != "2");
    gateway::lists::import(&w.gw, Environment::Production, "ofac-sdn", ListFormat::OfacCsv, delisted.clone(), "cli").await.unwrap();
    import(&w, delisted).await;
    let (status, refused) = approve(&w, &case_id, &proposal).await;
    assert_eq!((status, refused["error"].as_str()), (409, Some("stale_proposal")), "{refused}");
}
