//! The store contract, run against every backend. Postgres runs when
//! `CGW_TEST_POSTGRES_URL` names a server; each test gets its own database.
//! SQLite runs in memory (one connection) and as a file with a read pool.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod support;

use std::time::{Duration, Instant};

use gateway::ports::{Read, Row, Stmt, Store, StoreError, Value};
use host_native::point_reads::point_reads;
use host_native::store_postgres::PostgresStore;
use host_native::store_sqlite::SqliteStore;

async fn sqlite() -> Option<SqliteStore> {
    SqliteStore::open(":memory:").ok()
}

/// A SQLite file with a read pool: every read after a write crosses connections.
async fn sqlite_file() -> Option<SqliteStore> {
    let dir = std::env::temp_dir().join(format!("cgw-contract-{}", support::unique_suffix()));
    std::fs::create_dir_all(&dir).ok()?;
    SqliteStore::open_with_readers(dir.join("contract.db").to_str()?, 2).ok()
}

async fn postgres() -> Option<PostgresStore> {
    let url = support::postgres_database("cgw_contract").await?;
    Some(PostgresStore::connect(&url).await.expect("connect to the test database"))
}

gateway::store_contract_tests!(sqlite_store, sqlite);
gateway::store_contract_tests!(sqlite_file_store, sqlite_file);
gateway::store_contract_tests!(postgres_store, postgres);

/// The Postgres store with every read marked a point read, as the
/// operators' API's are: the contract through the shared read lanes.
struct PointReads(PostgresStore);

#[async_trait::async_trait]
impl Store for PointReads {
    async fn query(&self, sql: &'static str, params: Vec<Value>) -> Result<Vec<Row>, StoreError> {
        point_reads(self.0.query(sql, params)).await
    }
    async fn query_many(&self, reads: Vec<Read>) -> Result<Vec<Vec<Row>>, StoreError> {
        point_reads(self.0.query_many(reads)).await
    }
    async fn batch(&self, statements: Vec<Stmt>) -> Result<(), StoreError> {
        self.0.batch(statements).await
    }
}

async fn postgres_point_reads() -> Option<PointReads> {
    postgres().await.map(PointReads)
}

gateway::store_contract_tests!(postgres_lanes_store, postgres_point_reads);

/// A read that Postgres answers after five seconds.
const SLOW_READ: &str = "SELECT 1 FROM pg_sleep(5)";

/// More than a fast read takes, less than what waiting for the slow one does.
const HELD: Duration = Duration::from_millis(2_500);

/// Sends the slow read (a point read when `slow_marked`), then, once it is
/// under way, a fast point read; answers how long the fast one took.
async fn slow_then_fast(store: &PostgresStore, slow_marked: bool) -> Duration {
    let slow = {
        let store = store.clone();
        tokio::spawn(async move {
            let read = store.query(SLOW_READ, vec![]);
            if slow_marked {
                point_reads(read).await
            } else {
                read.await
            }
        })
    };
    tokio::time::sleep(Duration::from_millis(200)).await;
    let started = Instant::now();
    let fast = point_reads(store.query("SELECT 2", vec![])).await.expect("the fast read");
    let took = started.elapsed();
    assert_eq!(fast.first().map(|r| r.0.clone()), Some(vec![Value::Int(2)]));
    assert_eq!(slow.await.expect("the slow read's task").expect("the slow read").len(), 1);
    took
}

/// Point reads share a pipelined connection, whose answers come in order. A
/// slow read must not hold up the reads after it: they go to another lane.
#[tokio::test]
async fn postgres_a_slow_read_holds_up_no_read_sent_after_it() {
    let Some(url) = support::postgres_database("cgw_lanes").await else { return };
    let store = PostgresStore::connect(&url).await.expect("connect");
    let took = slow_then_fast(&store, true).await;
    assert!(took < HELD, "the fast read waited {took:?}");
}

/// The twin: on one lane, the fast read waits for the slow one.
#[tokio::test]
async fn postgres_on_one_lane_a_slow_read_holds_up_the_next() {
    let Some(url) = support::postgres_database("cgw_lanes").await else { return };
    let store = PostgresStore::connect_with_read_lanes(&url, 1).await.expect("connect");
    let took = slow_then_fast(&store, true).await;
    assert!(took >= HELD, "on one connection answers come in order, yet the fast read took {took:?}");
}

/// A read that is not a point read (admin routes, background work) takes a
/// pooled connection: on one lane, it holds up no point read.
#[tokio::test]
async fn postgres_a_long_read_of_background_work_is_not_on_the_lanes() {
    let Some(url) = support::postgres_database("cgw_lanes").await else { return };
    let store = PostgresStore::connect_with_read_lanes(&url, 1).await.expect("connect");
    let took = slow_then_fast(&store, false).await;
    assert!(took < HELD, "the fast read waited {took:?}");
}

/// A point read cancelled while Postgres runs it (its client went away)
/// would still be answered ahead of every read sent after it on its
/// connection: the lane lets that connection go, and the next read does not wait.
#[tokio::test]
async fn postgres_a_cancelled_read_holds_up_no_later_read() {
    let Some(url) = support::postgres_database("cgw_lanes").await else { return };
    let store = PostgresStore::connect_with_read_lanes(&url, 1).await.expect("connect");
    let cancelled = tokio::time::timeout(Duration::from_millis(200), point_reads(store.query(SLOW_READ, vec![]))).await;
    assert!(cancelled.is_err(), "the slow read was cut off");
    let started = Instant::now();
    point_reads(store.query("SELECT 2", vec![])).await.expect("the next read");
    let took = started.elapsed();
    assert!(took < HELD, "the next read waited {took:?} behind the cancelled one");
}

/// A shared read connection that Postgres ends is let go: a read on it fails
/// as unavailable (a 503, never a 500), and the next read connects anew.
#[tokio::test]
async fn postgres_reads_reconnect_after_their_connection_is_ended() {
    let Some(url) = support::postgres_database("cgw_lanes").await else { return };
    let store = PostgresStore::connect(&url).await.expect("connect");
    assert_eq!(point_reads(store.query("SELECT 1", vec![])).await.expect("a first read").len(), 1);
    let database = url.rsplit_once('/').map(|(_, name)| name.to_string()).expect("a database name");
    let admin = std::env::var("CGW_TEST_POSTGRES_URL").expect("set when the database was made");
    let (client, connection) = tokio_postgres::connect(&admin, tokio_postgres::NoTls).await.expect("connect as admin");
    tokio::spawn(connection);
    let ended = client
        .query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", &[&database])
        .await
        .expect("end the store's connections");
    assert!(!ended.is_empty(), "the store had connections to end");
    let mut failures = 0;
    let answer = loop {
        match point_reads(store.query("SELECT 3", vec![])).await {
            Ok(rows) => break rows,
            Err(StoreError::Unavailable(_)) if failures == 0 => failures += 1,
            Err(e) => panic!("a read after the connection ended failed again or as a backend error: {e:?}"),
        }
    };
    assert_eq!(answer.first().map(|r| r.0.clone()), Some(vec![Value::Int(3)]));
}
