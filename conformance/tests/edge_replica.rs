//! The exclusion check near the caller at the edge (issue #30, "Replica
//! lag"): the Worker under the local Workers runtime through its measuring
//! entry with the replica simulation (`scripts/edge.sh serve --measure
//! --simulate replica_lag=MS|never`, `host-edge/js/replica.mjs`): a second
//! local D1 that replays each committed primary batch after the lag. The
//! Worker's heartbeat Durable Object writes the time every 250 ms; a check
//! trusts a replica only while the heartbeat it holds is fresh.
//!
//! Shown: the 1 s bound under lag 0, 0.5 s, 2 s, 10 s and never (no check
//! sent 1 s or more after the registration was acknowledged answers "not
//! excluded"); a fresh replica answers without a primary trip; a frozen one
//! falls back and still answers `is_excluded: true`. The negative twin: with
//! the fence off (`CGW_REPLICA_FENCE=off`, the replica trusted as current) a
//! replica 10 s behind answers "not excluded" past the bound, and the same
//! measurement catches it. An operator that echoes the registration's
//! bookmark reads its own write at once, from that same stale replica.
//! Runs when `CGW_EDGE_CONFORMANCE=1` (the test command sets it).

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use conformance::harness::{serve_edge, Server};
use serde_json::{json, Value as Json};

const PUBLIC: &str = "203.0.113.7";
/// The promise (`gateway::exclusions::FENCE_BOUND_MS`).
const BOUND: Duration = Duration::from_millis(1_000);

fn enabled() -> bool {
    if std::env::var("CGW_EDGE_CONFORMANCE").as_deref() == Ok("1") {
        return true;
    }
    eprintln!("skipped: set CGW_EDGE_CONFORMANCE=1 (needs the edge build)");
    false
}

fn script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts/edge.sh")
}

struct Dir(PathBuf);
impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `edge.sh admin-key` builds the Worker first: one build at a time.
static BUILD: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn admin_key(state: &Path, environment: &str) -> String {
    let _one_at_a_time = BUILD.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let out = Command::new(script()).args(["admin-key", "--environment", environment, "--state"]).arg(state).output().unwrap();
    assert!(out.status.success(), "edge.sh admin-key failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// A Worker with the replica simulation, two sandbox tenants (the one that
/// registers, the one that checks) and a screened player at the first; and,
/// when asked, a production tenant (`near`), whose key the core keeps for
/// a clock second (a sandbox key is read on every request: its tenant's
/// test clock must move everywhere at once).
struct World {
    _server: Server,
    _state: Dir,
    base: String,
    registrar: String,
    checker: String,
    near: Option<String>,
}

/// The trips and rows of one check, counted alone: read at once after the
/// answer (`before`: a read-only check's waitUntil work first waits 200 ms),
/// and once its waitUntil work is done (`settled`, `?settle=1`).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Split {
    before: Counts,
    settled: Counts,
}

#[derive(Debug, Clone, Copy, PartialEq, Default)]
struct Counts {
    primary: u64,
    replica: u64,
    durable_object: u64,
    rows_read: u64,
    rows_written: u64,
}

impl Counts {
    fn read(base: &str, settle: bool) -> Counts {
        let url = format!("{base}/__local/trips{}", if settle { "?settle=1" } else { "" });
        let t: Json = ureq::get(&url).call().unwrap().into_json().unwrap();
        let n = |k: &str| t[k].as_u64().unwrap_or_else(|| panic!("no {k} in {t}"));
        Counts {
            primary: n("d1_primary"),
            replica: n("d1_replica"),
            durable_object: n("durable_object"),
            rows_read: n("rows_read"),
            rows_written: n("rows_written"),
        }
    }
}

impl World {
    fn start(name: &str, spec: &str, fence_off: bool) -> World {
        World::start_with(name, spec, fence_off, false)
    }

    fn start_with(name: &str, spec: &str, fence_off: bool, with_production: bool) -> World {
        let state = std::env::temp_dir().join(format!("cgw-edge-replica-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&state);
        std::fs::create_dir_all(&state).unwrap();
        let admin = admin_key(&state, "sandbox");

        let mut command = Command::new(script());
        command
            .args(["serve", "--local-tools", "--measure", "--simulate", spec, "--state"])
            .arg(&state)
            .stdout(Stdio::null())
            .stderr(Stdio::inherit());
        if fence_off {
            command.env("CGW_REPLICA_FENCE", "off");
        }
        // `serve` builds first, and waits for the builds of other runs
        let (server, base) = serve_edge(command, &state, Duration::from_secs(600)).unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        while ureq::get(&format!("{base}/__local/trips")).call().is_err() {
            assert!(Instant::now() < deadline, "the measuring entry did not answer within 60 s of listening");
            std::thread::sleep(Duration::from_millis(200));
        }
        let mut keys = Vec::new();
        // a check every ~200 ms for up to 16 s: above the sandbox's default 100 a minute
        for tenant in ["registrar", "checker"] {
            let (status, body) = send(
                &base,
                &admin,
                "POST",
                "/v1/admin/tenants",
                Some(json!({ "name": tenant, "environment": "sandbox", "rate_limit_per_minute": 2_000 })),
            );
            assert_eq!(status, 201, "{body}");
            keys.push(body["api_key"].as_str().unwrap().to_string());
        }
        let checker = keys.pop().unwrap();
        let registrar = keys.pop().unwrap();
        // the production admin key from the running Worker's local tools (no second build)
        let production_admin = with_production.then(|| {
            let response = ureq::post(&format!("{base}/__local/admin-key?environment=production")).call().unwrap();
            response.into_string().unwrap().trim().to_string()
        });
        let near = production_admin.map(|admin| {
            let tenant = json!({ "name": "near", "environment": "production", "rate_limit_per_minute": 1_000_000 });
            let (status, body) = send(&base, &admin, "POST", "/v1/admin/tenants", Some(tenant));
            assert_eq!(status, 201, "{body}");
            body["api_key"].as_str().unwrap().to_string()
        });
        World { _server: server, _state: Dir(state), base, registrar, checker, near }
    }

    /// One read-only check of a not-excluded address, its trips split at the answer.
    fn split_check(&self, key: &str) -> Split {
        ureq::post(&format!("{}/__local/trips/reset", self.base)).call().unwrap();
        let (status, body) = send(&self.base, key, "GET", "/v1/exclusions/check?email=nobody@example.com", None);
        assert_eq!((status, &body["is_excluded"]), (200, &json!(false)), "{body}");
        let before = Counts::read(&self.base, false);
        Split { before, settled: Counts::read(&self.base, true) }
    }

    /// `threads` callers checking without pause for `seconds`: how many
    /// checks were answered, in how long, and what they cost once settled.
    fn burst(&self, key: &str, threads: usize, seconds: f64) -> (u64, f64, Counts) {
        ureq::post(&format!("{}/__local/trips/reset", self.base)).call().unwrap();
        let started = Instant::now();
        let until = started + Duration::from_secs_f64(seconds);
        let answered: u64 = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads)
                .map(|_| {
                    scope.spawn(|| {
                        let mut n = 0;
                        while Instant::now() < until {
                            let (status, body) = send(&self.base, key, "GET", "/v1/exclusions/check?email=nobody@example.com", None);
                            assert_eq!(status, 200, "{body}");
                            n += 1;
                        }
                        n
                    })
                })
                .collect();
            workers.into_iter().map(|w| w.join().unwrap()).sum()
        });
        let elapsed = started.elapsed().as_secs_f64();
        (answered, elapsed, Counts::read(&self.base, true))
    }

    /// Screens `user` with `email` at the registrar, then excludes them;
    /// answers when the registration was acknowledged, and its bookmark.
    fn exclude(&self, user: &str, email: &str) -> (Instant, Option<String>) {
        let identity =
            json!({ "user_id": user, "first_name": "Ann", "last_name": "Lee", "date_of_birth": "1990-04-01", "nationality": "GB", "email": email });
        let (status, body) = send(&self.base, &self.registrar, "POST", "/v1/sanctions/screen", Some(identity));
        assert_eq!(status, 201, "{body}");
        let exclusion = json!({ "user_id": user, "email": email, "duration": "duration_7d", "reason": "self_initiated", "initiated_at": now_iso() });
        let (status, body) = send(&self.base, &self.registrar, "POST", "/v1/exclusions", Some(exclusion));
        assert_eq!(status, 201, "{body}");
        (Instant::now(), body["bookmark"].as_str().map(String::from))
    }

    /// One check, its trips counted alone: (is_excluded, d1_primary, d1_replica).
    fn check(&self, key: &str, email: &str, bookmark: Option<&str>) -> (bool, u64, u64) {
        ureq::post(&format!("{}/__local/trips/reset", self.base)).call().unwrap();
        let path = match bookmark {
            Some(b) => format!("/v1/exclusions/check?email={email}&bookmark={b}"),
            None => format!("/v1/exclusions/check?email={email}"),
        };
        let (status, body) = send(&self.base, key, "GET", &path, None);
        assert_eq!(status, 200, "{body}");
        let trips: Json = ureq::get(&format!("{}/__local/trips", self.base)).call().unwrap().into_json().unwrap();
        let excluded = body["is_excluded"].as_bool().unwrap_or_else(|| panic!("no is_excluded in {body}"));
        (excluded, trips["d1_primary"].as_u64().unwrap(), trips["d1_replica"].as_u64().unwrap())
    }
}

fn send(base: &str, key: &str, method: &str, path: &str, body: Option<Json>) -> (u16, Json) {
    let request = ureq::request(method, &format!("{base}{path}")).set("authorization", &format!("Bearer {key}")).set("cf-connecting-ip", PUBLIC);
    let result = match body {
        Some(body) => request.send_json(body),
        None => request.call(),
    };
    let response = match result {
        Ok(response) => response,
        Err(ureq::Error::Status(_, response)) => response,
        Err(e) => panic!("{method} {path}: {e}"),
    };
    let status = response.status();
    (status, response.into_json().unwrap_or(Json::Null))
}

fn now_iso() -> String {
    let unix = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    conformance::client::format_time(i64::try_from(unix).unwrap_or(0))
}

/// One check of the run: how long after the acknowledgement it was sent,
/// its answer and its trips.
#[derive(Debug, Clone, Copy)]
struct Seen {
    sent_after: Duration,
    excluded: bool,
    primary: u64,
    replica: u64,
}

/// A run under `spec`: the heartbeat and the replica warm for `lag` plus
/// 1.5 s, an exclusion registered by one tenant, then the other tenant
/// checks it until `lag` plus 1.5 s (at least 4 s) after the acknowledgement.
fn observe(name: &str, spec: &str, lag: Option<Duration>, fence_off: bool) -> Vec<Seen> {
    let world = World::start(name, spec, fence_off);
    let settle = lag.unwrap_or_default() + Duration::from_millis(1_500);
    let warm = Instant::now() + settle;
    while Instant::now() < warm {
        world.check(&world.checker, "warm@example.com", None);
        std::thread::sleep(Duration::from_millis(200));
    }
    let email = format!("{name}@example.com");
    let (acknowledged, _) = world.exclude("p1", &email);
    let until = settle.max(Duration::from_secs(4));
    let mut seen = Vec::new();
    loop {
        let sent = Instant::now();
        let (excluded, primary, replica) = world.check(&world.checker, &email, None);
        seen.push(Seen { sent_after: sent - acknowledged, excluded, primary, replica });
        if sent - acknowledged > until {
            return seen;
        }
        std::thread::sleep(Duration::from_millis(150));
    }
}

/// The checks sent at or past the bound that answered "not excluded".
fn late_misses(seen: &[Seen]) -> Vec<Seen> {
    seen.iter().filter(|s| s.sent_after >= BOUND && !s.excluded).copied().collect()
}

fn bound_holds(name: &str, spec: &str, lag: Option<Duration>) -> Vec<Seen> {
    let seen = observe(name, spec, lag, false);
    eprintln!("{spec}: {seen:?}");
    assert!(seen.iter().any(|s| s.sent_after >= BOUND), "{spec}: no check past the bound: {seen:?}");
    let late = late_misses(&seen);
    assert!(late.is_empty(), "{spec}: checks past the bound answered not excluded: {late:?}");
    seen
}

/// Lag 0: the bound holds, and a check whose key is warm is answered by the
/// replica alone, without a primary trip (the goal of issue #30).
#[test]
fn the_bound_holds_under_lag_0_and_a_fresh_replica_spares_the_primary() {
    if !enabled() {
        return;
    }
    let seen = bound_holds("lag0", "replica_lag=0", Some(Duration::ZERO));
    assert!(seen.iter().all(|s| s.excluded), "lag 0: the replica has every write at once: {seen:?}");
    assert!(seen.iter().all(|s| s.replica == 1), "lag 0: every check reads the replica once: {seen:?}");
}

/// The goal of issue #30 (warm isolate, production tenant): before its
/// answer a check makes no primary trip while the replica is fresh (one
/// near trip: the exclusions and the heartbeat in one replica batch; the
/// key read on the primary once a clock second). Rows are counted from D1's
/// `meta`: the check reads rows and writes none before its answer; its
/// decision is written after it, and that page writes rows (the twin). The
/// twin of the key: a sandbox key is read on the primary before every
/// answer (its tenant's test clock moves everywhere at once), and the same
/// measure sees that trip. After the answer, a read-only check costs one
/// page of decisions per ~200 ms shared by every check of the isolate: one
/// page each for checks 200 ms apart (the twin: the measure sees the page),
/// at most 0.05 a check at 100 checks a second or more.
#[test]
fn a_fresh_replica_answers_a_warm_check_without_a_primary_trip() {
    if !enabled() {
        return;
    }
    let world = World::start_with("lag0-alone", "replica_lag=0", false, true);
    let near = world.near.clone().unwrap();
    let warm = Instant::now() + Duration::from_millis(1_500);
    while Instant::now() < warm {
        world.split_check(&near);
        world.split_check(&world.checker);
        std::thread::sleep(Duration::from_millis(100));
    }
    let seen: Vec<Split> = (0..8).map(|_| world.split_check(&near)).collect();
    eprintln!("production, before/settled: {seen:?}");
    let alone = |s: &Split| (s.before.primary, s.before.replica, s.before.durable_object) == (0, 1, 0);
    assert!(seen.iter().any(alone), "no production check answered by the replica alone: {seen:?}");
    assert!(
        seen.iter().all(|s| s.before.primary <= 1 && s.before.replica == 1),
        "a production check read the primary for more than its key: {seen:?}"
    );
    // rows from D1's meta, with their twin: reads before the answer, the page's writes after it
    assert!(seen.iter().all(|s| s.before.rows_read > 0), "a check read no rows (D1 meta not counted): {seen:?}");
    assert!(seen.iter().all(|s| s.before.rows_written == 0), "a read-only check wrote before its answer: {seen:?}");
    assert!(
        seen.iter().all(|s| s.settled.primary == s.before.primary + 1 && s.settled.rows_written > s.before.rows_written),
        "a check alone did not write its one page of decisions after its answer: {seen:?}"
    );
    let sandbox: Vec<Split> = (0..4).map(|_| world.split_check(&world.checker)).collect();
    assert!(sandbox.iter().all(|s| s.before.primary == 1 && s.before.replica == 1), "the sandbox key's read went unseen: {sandbox:?}");

    // A realistic rate: four callers without pause. Pages counted by their
    // rows: a page writes the same rows whatever it holds (one row and its
    // index entries), and nothing else of a read-only check writes.
    let page_rows = seen[0].settled.rows_written;
    assert!(page_rows > 0 && seen.iter().all(|s| s.settled.rows_written == page_rows), "pages write other rows: {seen:?}");
    let (checks, elapsed, settled) = world.burst(&near, 4, 3.0);
    assert_eq!(settled.rows_written % page_rows, 0, "the burst wrote other rows than pages: {settled:?}");
    let pages = settled.rows_written / page_rows;
    let rate = checks as f64 / elapsed;
    eprintln!("burst: {checks} checks in {elapsed:.2} s ({rate:.0}/s): {settled:?}; {pages} pages, {:.3} a check", pages as f64 / checks as f64);
    assert_eq!(settled.replica, checks, "every check of the burst reads the replica once");
    assert!(pages as f64 <= elapsed / 0.2 + 2.0, "more than one page of decisions per 200 ms: {pages} in {elapsed:.2} s");
    // one page per 200 ms is at most 0.05 a check from 100 checks a second
    assert!(rate < 100.0 || pages as f64 / checks as f64 <= 0.05, "{rate:.0} checks a second wrote {pages} pages: more than 0.05 a check");
}

#[test]
fn the_bound_holds_under_lag_half_a_second() {
    if !enabled() {
        return;
    }
    bound_holds("lag500", "replica_lag=500", Some(Duration::from_millis(500)));
}

/// Lag 2 s: never fresh, so every check falls back to the primary.
#[test]
fn the_bound_holds_under_lag_2_s_by_falling_back() {
    if !enabled() {
        return;
    }
    let seen = bound_holds("lag2000", "replica_lag=2000", Some(Duration::from_secs(2)));
    assert!(seen.iter().all(|s| s.primary >= 1 && s.replica == 1), "lag 2 s: a check trusted a stale replica: {seen:?}");
}

/// A replica lagging 10 s never answers "not excluded" for an exclusion older than the bound.
#[test]
fn a_replica_lagging_10_s_never_answers_not_excluded_past_the_bound() {
    if !enabled() {
        return;
    }
    let seen = bound_holds("lag10000", "replica_lag=10000", Some(Duration::from_secs(10)));
    assert!(seen.iter().all(|s| s.primary >= 1), "lag 10 s: a check trusted a stale replica: {seen:?}");
}

/// A frozen replica (never applies anything, not even the schema) falls
/// back to the primary and still answers `is_excluded: true`, at once.
#[test]
fn a_frozen_replica_falls_back_to_the_primary_and_still_answers_excluded() {
    if !enabled() {
        return;
    }
    let seen = bound_holds("never", "replica_lag=never", None);
    assert!(seen.iter().all(|s| s.excluded && s.primary >= 1), "frozen replica: {seen:?}");
}

/// The negative twin, and the bookmark: with the fence off a replica 10 s
/// behind answers "not excluded" past the bound, and `late_misses` sees it;
/// the registrar echoing its bookmark reads its own write at once from it;
/// and the deposit gate, which reads the primary, refuses the player at once.
#[test]
fn without_the_fence_a_stale_answer_is_caught_and_a_bookmark_reads_its_own_write() {
    if !enabled() {
        return;
    }
    let world = World::start("fenceoff", "replica_lag=10000", true);
    let warm = Instant::now() + Duration::from_millis(11_500);
    while Instant::now() < warm {
        world.check(&world.checker, "warm@example.com", None);
        std::thread::sleep(Duration::from_millis(200));
    }
    let (acknowledged, bookmark) = world.exclude("p1", "own@example.com");
    let bookmark = bookmark.expect("POST /v1/exclusions answers a bookmark at the edge");
    let (excluded, primary, _) = world.check(&world.registrar, "own@example.com", Some(&bookmark));
    assert!(excluded, "the registrar's echoed bookmark did not read its own write (primary trips {primary})");
    let (excluded, _, replica) = world.check(&world.registrar, "own@example.com", None);
    assert!(!excluded && replica == 1, "the twin: without the bookmark the stale replica answers");
    // The deposit gate reads the primary: while the replica is 10 s behind,
    // the exclusion refuses the player's deposit at once. Twin: a player
    // screened beside them, not excluded, may deposit.
    let identity = json!({ "user_id": "p2", "first_name": "Bo", "last_name": "Ek", "date_of_birth": "1990-04-01", "nationality": "GB", "email": "p2@example.com" });
    assert_eq!(send(&world.base, &world.registrar, "POST", "/v1/sanctions/screen", Some(identity)).0, 201);
    let deposit = |user: &str| {
        let body = json!({ "user_id": user, "amount_cents": 500, "currency": "USD" });
        send(&world.base, &world.registrar, "POST", "/v1/limits/check", Some(body))
    };
    let (status, refused) = deposit("p1");
    assert_eq!((status, &refused["allowed"], &refused["reason"]), (200, &json!(false), &json!("self_excluded")), "{refused}");
    let (status, allowed) = deposit("p2");
    assert_eq!((status, &allowed["allowed"]), (200, &json!(true)), "{allowed}");
    std::thread::sleep(BOUND.saturating_sub(acknowledged.elapsed()));
    let mut seen = Vec::new();
    for _ in 0..3 {
        let sent = Instant::now();
        let (excluded, primary, replica) = world.check(&world.checker, "own@example.com", None);
        seen.push(Seen { sent_after: sent - acknowledged, excluded, primary, replica });
    }
    assert!(!late_misses(&seen).is_empty(), "with the fence off, the stale answer past the bound was not caught: {seen:?}");
}
