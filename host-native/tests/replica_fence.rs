//! The exclusion check read from a lagging replica behind the freshness
//! fence (issue #30, "Replica lag"), on the core with a simulated replica:
//! a second SQLite database that replays each batch committed on the
//! primary `lag` milliseconds later (or never), on a simulated millisecond
//! clock. The scheduled heartbeat is written every `HEARTBEAT_PERIOD_MS`.
//! The promise: an acknowledged exclusion is seen by every check within
//! `FENCE_BOUND_MS`, whatever the lag; the negative twin turns the fence
//! off (the replica trusted as if current) and sees the promise broken.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod support;
use support::{call_from, TestClock};

use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use gateway::auth::Environment;
use gateway::exclusions::{FENCE_BOUND_MS, HEARTBEAT_PERIOD_MS};
use gateway::ports::{NearRows, Read, ReadFrom, Row, Stmt, Store, StoreError, Value};
use gateway::{Config, Gateway};
use host_native::rules_engine::ComponentRules;
use host_native::{open_store, OsIds};
use serde_json::{json, Value as Json};

const PUBLIC: Option<&str> = Some("203.0.113.7");
const START_MS: i64 = 1_790_000_000_000;

/// Where the check's read of the list went (the key's read, once a clock
/// second, is not the check's: it is counted by `trips.rs`).
#[derive(Default)]
struct Counts {
    replica_reads: AtomicU64,
    primary_reads: AtomicU64,
}

impl Counts {
    fn primary(&self, sql: &str) {
        if sql.contains("FROM exclusions WHERE environment = ?1 AND email_key = ?2") {
            self.primary_reads.fetch_add(1, Ordering::SeqCst);
        }
    }
}

/// Committed batches (commit time, statements) and how many the replica applied.
type ReplayLog = (Vec<(i64, Vec<Stmt>)>, usize);

/// A primary and a replica that replays the primary's committed batches,
/// in order, once `lag_ms` has passed on the shared millisecond clock.
struct LaggingReplica {
    primary: Box<dyn Store>,
    replica: Box<dyn Store>,
    now_ms: Arc<AtomicI64>,
    /// `None`: the replica never catches up (frozen, even before the schema)
    lag_ms: Option<i64>,
    /// committed batches (commit time, statements) and how many the replica applied
    log: Mutex<ReplayLog>,
    /// off: the replica's answers are reported as current (the fence bypassed)
    fence: bool,
    counts: Arc<Counts>,
}

impl LaggingReplica {
    /// Applies the batches due by now; the replica applies in commit order.
    async fn catch_up(&self) {
        let Some(lag) = self.lag_ms else { return };
        let now = self.now_ms.load(Ordering::SeqCst);
        let due: Vec<Vec<Stmt>> = {
            let mut log = self.log.lock().unwrap();
            let (batches, applied) = &mut *log;
            let from = *applied;
            let count = batches[from..].iter().take_while(|(at, _)| at + lag <= now).count();
            *applied += count;
            batches[from..from + count].iter().map(|(_, s)| s.clone()).collect()
        };
        for statements in due {
            // a batch that committed on the primary commits on the replica
            self.replica.batch(statements).await.expect("replay of a committed batch");
        }
    }

    fn applied(&self) -> usize {
        self.log.lock().unwrap().1
    }
}

#[async_trait::async_trait]
impl Store for LaggingReplica {
    async fn query(&self, sql: &'static str, params: Vec<Value>) -> Result<Vec<Row>, StoreError> {
        self.counts.primary(sql);
        self.primary.query(sql, params).await
    }
    async fn query_many(&self, reads: Vec<Read>) -> Result<Vec<Vec<Row>>, StoreError> {
        reads.iter().for_each(|r| self.counts.primary(r.sql));
        self.primary.query_many(reads).await
    }
    async fn batch(&self, statements: Vec<Stmt>) -> Result<(), StoreError> {
        self.primary.batch(statements.clone()).await?;
        let now = self.now_ms.load(Ordering::SeqCst);
        self.log.lock().unwrap().0.push((now, statements));
        Ok(())
    }
    async fn query_near(&self, fence: Read, reads: Vec<Read>, after: Option<&str>) -> Result<NearRows, StoreError> {
        self.catch_up().await;
        // a session at a bookmark the replica has not reached goes to an
        // instance that has it: here, the primary
        let wanted = after.map(|b| b.parse::<usize>().expect("a bookmark of this store"));
        if wanted.is_some_and(|w| w > self.applied()) {
            return Ok(NearRows { rows: self.query_many(reads).await?, from: ReadFrom::Primary });
        }
        self.counts.replica_reads.fetch_add(1, Ordering::SeqCst);
        let mut rows = self.replica.query_many(std::iter::once(fence).chain(reads).collect()).await?;
        let fence_rows = rows.remove(0);
        let from =
            if self.fence { ReadFrom::Replica { fence: fence_rows, answered_at_ms: self.now_ms.load(Ordering::SeqCst) } } else { ReadFrom::Primary };
        Ok(NearRows { rows, from })
    }
    fn bookmark(&self) -> Option<String> {
        Some(self.log.lock().unwrap().0.len().to_string())
    }
}

struct World {
    gw: Gateway,
    clock: TestClock,
    now_ms: Arc<AtomicI64>,
    counts: Arc<Counts>,
    registrar: String,
    checker: String,
    _dir: tempfile::TempDir,
}

impl World {
    async fn new(lag_ms: Option<i64>, fence: bool) -> World {
        let dir = tempfile::tempdir().unwrap();
        let url = |name: &str| format!("sqlite://{}", dir.path().join(name).display());
        let now_ms = Arc::new(AtomicI64::new(START_MS));
        let counts = Arc::new(Counts::default());
        let store = LaggingReplica {
            primary: open_store(&url("primary.db")).await.unwrap(),
            replica: open_store(&url("replica.db")).await.unwrap(),
            now_ms: now_ms.clone(),
            lag_ms,
            log: Mutex::new((Vec::new(), 0)),
            fence,
            counts: counts.clone(),
        };
        let clock = TestClock(Arc::new(AtomicI64::new(START_MS / 1000)));
        let config = Config { production_vendors_configured: true, ..Config::default() };
        let gw = Gateway::new(Box::new(store), Box::new(ComponentRules::embedded().unwrap()), Box::new(clock.clone()), Box::new(OsIds), config);
        gw.migrate().await.unwrap();
        let admin = gw.create_admin_key(Environment::Production).await.unwrap();
        let mut keys = Vec::new();
        for name in ["registrar", "checker"] {
            let (status, tenant) =
                call_from(&gw, PUBLIC, &admin, "POST", "/v1/admin/tenants", json!({ "name": name, "environment": "production" })).await;
            assert_eq!(status, 201, "{tenant}");
            keys.push(tenant["api_key"].as_str().unwrap().to_string());
        }
        let checker = keys.pop().unwrap();
        let registrar = keys.pop().unwrap();
        let mut world = World { gw, clock, now_ms, counts, registrar, checker, _dir: dir };
        // the heartbeat runs for a while before anything happens, long
        // enough for a lagging replica to hold the schema and the tenants
        world.advance(2 * FENCE_BOUND_MS + lag_ms.unwrap_or(0)).await;
        world
    }

    fn now_ms(&self) -> i64 {
        self.now_ms.load(Ordering::SeqCst)
    }

    /// Moves the clocks on by `ms` in steps of 50 ms, the heartbeat written on its period.
    async fn advance(&mut self, ms: i64) {
        for _ in 0..ms / 50 {
            let now = self.now_ms.fetch_add(50, Ordering::SeqCst) + 50;
            self.clock.0.store(now / 1000, Ordering::SeqCst);
            if now % HEARTBEAT_PERIOD_MS == 0 {
                self.gw.beat(now).await.unwrap();
            }
        }
    }

    /// A screened player with `email`, excluded by the registrar at its
    /// tenant; answers the registration's bookmark, if any.
    async fn exclude(&self, user: &str, email: &str) -> Option<String> {
        let identity =
            json!({ "user_id": user, "first_name": "Ann", "last_name": "Lee", "date_of_birth": "1990-04-01", "nationality": "GB", "email": email });
        let (status, body) = call_from(&self.gw, PUBLIC, &self.registrar, "POST", "/v1/sanctions/screen", identity).await;
        assert_eq!(status, 201, "{body}");
        let now = gateway::time::format(self.now_ms() / 1000);
        let exclusion = json!({ "user_id": user, "email": email, "duration": "duration_7d", "reason": "self_initiated", "initiated_at": now });
        let (status, body) = call_from(&self.gw, PUBLIC, &self.registrar, "POST", "/v1/exclusions", exclusion).await;
        assert_eq!(status, 201, "{body}");
        body["bookmark"].as_str().map(String::from)
    }

    /// The check, as the other tenant asks it.
    async fn check(&self, key: &str, email: &str, bookmark: Option<&str>) -> Json {
        let path = match bookmark {
            Some(b) => format!("/v1/exclusions/check?email={email}&bookmark={b}"),
            None => format!("/v1/exclusions/check?email={email}"),
        };
        let (status, body) = call_from(&self.gw, PUBLIC, key, "GET", &path, Json::Null).await;
        assert_eq!(status, 200, "{body}");
        body
    }
}

/// How checks went after an exclusion: every check every 50 ms for 12 s.
#[derive(Debug, Default)]
struct Run {
    /// checks at or past the bound that answered "not excluded" (the promise broken)
    late_misses: Vec<i64>,
    /// the latest time (ms after the registration) a check answered "not excluded"
    last_miss_ms: Option<i64>,
    replica_reads: u64,
    primary_reads: u64,
    checks: u64,
}

async fn run(lag_ms: Option<i64>, fence: bool) -> Run {
    let mut world = World::new(lag_ms, fence).await;
    let email = "far@example.com";
    world.exclude("p1", email).await;
    let registered = world.now_ms();
    let mut run = Run::default();
    while world.now_ms() - registered <= 12_000 {
        let before = (world.counts.replica_reads.load(Ordering::SeqCst), world.counts.primary_reads.load(Ordering::SeqCst));
        let body = world.check(&world.checker, email, None).await;
        let after = (world.counts.replica_reads.load(Ordering::SeqCst), world.counts.primary_reads.load(Ordering::SeqCst));
        run.replica_reads += after.0 - before.0;
        run.primary_reads += after.1 - before.1;
        run.checks += 1;
        let age = world.now_ms() - registered;
        if body["is_excluded"] != json!(true) {
            run.last_miss_ms = Some(age);
            if age >= FENCE_BOUND_MS {
                run.late_misses.push(age);
            }
        }
        world.advance(50).await;
    }
    run
}

/// The 1 s bound under each lag: no check at or past it answers "not
/// excluded"; a fresh replica answers every check without the primary.
#[tokio::test]
async fn an_exclusion_is_seen_by_every_check_within_the_bound_whatever_the_lag() {
    for lag in [Some(0), Some(500), Some(2_000), Some(10_000), None] {
        let run = run(lag, true).await;
        eprintln!("lag {lag:?}: {run:?}");
        assert_eq!(run.late_misses, Vec::<i64>::new(), "lag {lag:?}: a check past the bound answered not excluded");
        match lag {
            // a replica within the fence (heartbeat age below 750 ms): not one
            // read of the primary, every check near
            Some(0) | Some(500) => assert_eq!((run.primary_reads, run.replica_reads), (0, run.checks), "lag {lag:?}: {run:?}"),
            // always behind the fence: every check falls back to the primary
            Some(2_000) | Some(10_000) | None => assert_eq!(run.primary_reads, run.checks, "lag {lag:?}: {run:?}"),
            _ => {}
        }
    }
}

/// A frozen replica (it never applies anything, not even the schema) falls
/// back to the primary and still answers `is_excluded: true`.
#[tokio::test]
async fn a_frozen_replica_falls_back_to_the_primary_and_still_answers_excluded() {
    let mut world = World::new(None, true).await;
    world.exclude("p1", "frozen@example.com").await;
    world.advance(50).await;
    let body = world.check(&world.checker, "frozen@example.com", None).await;
    assert_eq!(body["is_excluded"], json!(true), "{body}");
    assert!(body["exclusion_id"].as_str().is_some_and(|id| id.starts_with("exc")), "{body}");
    // and "not excluded" from the primary too, for an address never excluded
    let body = world.check(&world.checker, "never@example.com", None).await;
    assert_eq!(body["is_excluded"], json!(false), "{body}");
}

/// The negative twin: with the fence off, a replica 10 s behind answers
/// "not excluded" long past the bound, and the measurement catches it.
#[tokio::test]
async fn without_the_fence_a_lagging_replica_breaks_the_promise_and_is_caught() {
    let run = run(Some(10_000), false).await;
    assert!(!run.late_misses.is_empty(), "the fence-off run was not caught: {run:?}");
    assert!(run.last_miss_ms.is_some_and(|ms| ms >= 9_000), "{run:?}");
    assert_eq!(run.primary_reads, 0, "{run:?}");
}

/// An operator that echoes the registration's bookmark reads its own write
/// at once, from a replica whose heartbeat is fresh but which lacks the
/// write; without the bookmark the same check answers "not excluded" (as
/// the 1 s bound allows), which shows the bookmark is what made it.
#[tokio::test]
async fn an_operator_echoing_the_bookmark_reads_its_own_write_at_once() {
    let world = World::new(Some(500), true).await;
    let bookmark = world.exclude("p1", "own@example.com").await.expect("a bookmark on a store with replicas");
    let with = world.check(&world.registrar, "own@example.com", Some(&bookmark)).await;
    assert_eq!(with["is_excluded"], json!(true), "{with}");
    let without = world.check(&world.registrar, "own@example.com", None).await;
    assert_eq!(without["is_excluded"], json!(false), "the replica was not behind, so the twin proves nothing: {without}");
}

/// A bookmark that is not one a store gives is refused, never passed to the store.
#[tokio::test]
async fn a_malformed_bookmark_is_refused() {
    let world = World::new(Some(0), true).await;
    for bad in ["a%20b", "a%27b", "a%2Fb", &"x".repeat(129)] {
        let path = format!("/v1/exclusions/check?email=a@example.com&bookmark={bad}");
        let (status, body) = call_from(&world.gw, PUBLIC, &world.checker, "GET", &path, Json::Null).await;
        assert_eq!((status, &body["error"]), (400, &json!("invalid_field")), "{bad}: {body}");
    }
}
