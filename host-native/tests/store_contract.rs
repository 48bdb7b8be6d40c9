//! The store contract, run against every backend. Postgres runs when
//! `CGW_TEST_POSTGRES_URL` names a server; each test gets its own database.
//! SQLite runs in memory (one connection) and as a file with a read pool.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use host_native::store_postgres::PostgresStore;
use host_native::store_sqlite::SqliteStore;

/// A name no other test of this run takes: the clock alone repeated itself
/// once when two tests started in the same nanosecond.
fn unique_suffix() -> String {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    format!("{}_{nanos}_{}", std::process::id(), NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
}

async fn sqlite() -> Option<SqliteStore> {
    SqliteStore::open(":memory:").ok()
}

/// A SQLite file with a read pool: every read after a write crosses connections.
async fn sqlite_file() -> Option<SqliteStore> {
    let dir = std::env::temp_dir().join(format!("cgw-contract-{}", unique_suffix()));
    std::fs::create_dir_all(&dir).ok()?;
    SqliteStore::open_with_readers(dir.join("contract.db").to_str()?, 2).ok()
}

async fn postgres() -> Option<PostgresStore> {
    let url = std::env::var("CGW_TEST_POSTGRES_URL").ok()?;
    let name = format!("cgw_contract_{}", unique_suffix());
    let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await.expect("connect to CGW_TEST_POSTGRES_URL");
    tokio::spawn(connection);
    client.batch_execute(&format!("CREATE DATABASE {name}")).await.expect("create a test database");
    let base = url.rsplit_once('/').map(|(b, _)| b).unwrap_or(&url);
    Some(PostgresStore::connect(&format!("{base}/{name}")).await.expect("connect to the test database"))
}

gateway::store_contract_tests!(sqlite_store, sqlite);
gateway::store_contract_tests!(sqlite_file_store, sqlite_file);
gateway::store_contract_tests!(postgres_store, postgres);
