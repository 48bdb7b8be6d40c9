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
