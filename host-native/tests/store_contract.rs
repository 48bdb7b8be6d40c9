//! The store contract, run against every backend. Postgres runs when
//! `CGW_TEST_POSTGRES_URL` names a server; each test gets its own database.
//! SQLite runs in memory (one connection) and as a file with a read pool.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod support;

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

/// A read that Postgres answers after three seconds.
const SLOW_READ: &str = "SELECT 1 FROM pg_sleep(3)";

/// Reads share a pipelined connection, whose answers come in order. A slow
/// read must not hold up the reads after it: they go to another lane.
#[tokio::test]
async fn postgres_a_slow_read_holds_up_no_read_sent_after_it() {
    let Some(url) = support::postgres_database("cgw_lanes").await else { return };
    let store = PostgresStore::connect(&url).await.expect("connect");
    assert!(!slow_then_fast(&store).await, "the fast read is answered while the slow one still runs");
}

/// The twin: on one lane, the fast read waits for the slow one.
#[tokio::test]
async fn postgres_on_one_lane_a_slow_read_holds_up_the_next() {
    let Some(url) = support::postgres_database("cgw_lanes").await else { return };
    let store = PostgresStore::connect_with_read_lanes(&url, 1).await.expect("connect");
    assert!(slow_then_fast(&store).await, "on one connection answers come in order");
}

/// Sends the slow read, then (once it is under way) a fast one; says whether
/// the slow one had been answered when the fast one was.
async fn slow_then_fast(store: &PostgresStore) -> bool {
    use gateway::ports::{Store, Value};
    let slow = {
        let store = store.clone();
        tokio::spawn(async move { store.query(SLOW_READ, vec![]).await })
    };
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let fast = store.query("SELECT 2", vec![]).await.expect("the fast read");
    let slow_done = slow.is_finished();
    assert_eq!(fast.first().map(|r| r.0.clone()), Some(vec![Value::Int(2)]));
    let slow = slow.await.expect("the slow read's task").expect("the slow read");
    assert_eq!(slow.len(), 1);
    slow_done
}

/// A shared read connection that Postgres ends is let go: a read on it fails
/// as unavailable (a 503, never a 500), and the next read connects anew.
#[tokio::test]
async fn postgres_reads_reconnect_after_their_connection_is_ended() {
    use gateway::ports::{Store, StoreError, Value};
    let Some(url) = support::postgres_database("cgw_lanes").await else { return };
    let store = PostgresStore::connect(&url).await.expect("connect");
    assert_eq!(store.query("SELECT 1", vec![]).await.expect("a first read").len(), 1);
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
        match store.query("SELECT 3", vec![]).await {
            Ok(rows) => break rows,
            Err(StoreError::Unavailable(_)) if failures == 0 => failures += 1,
            Err(e) => panic!("a read after the connection ended failed again or as a backend error: {e:?}"),
        }
    };
    assert_eq!(answer.first().map(|r| r.0.clone()), Some(vec![Value::Int(3)]));
}
