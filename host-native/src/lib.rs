//! The native host: hyper + tokio, wasmtime for the rules, SQLite or Postgres.

pub mod rules_engine;
pub mod server;
pub mod store_postgres;
pub mod store_sqlite;
pub mod webhooks;

use std::time::{SystemTime, UNIX_EPOCH};

use gateway::ports::{Clock, Ids, Store, StoreError};

pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> i64 {
        SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0)
    }
}

pub struct OsIds;

impl Ids for OsIds {
    fn random_bytes(&self, len: usize) -> Vec<u8> {
        let mut bytes = vec![0u8; len];
        if getrandom::fill(&mut bytes).is_err() {
            // The OS random source failing is unrecoverable for key generation.
            std::process::abort();
        }
        bytes
    }
}

/// Opens the store named by a URL: `sqlite://PATH` (or `sqlite::memory:`) or `postgres://…`.
pub async fn open_store(url: &str) -> Result<Box<dyn Store>, StoreError> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        return Ok(Box::new(store_postgres::PostgresStore::connect(url).await?));
    }
    let path = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
        .ok_or_else(|| StoreError::Backend(format!("unsupported database URL (use sqlite://PATH or postgres://…): {}", redact(url))))?;
    Ok(Box::new(store_sqlite::SqliteStore::open(path)?))
}

/// A second connection for the decision log's off-path writes, when the
/// store is a SQLite file (one connection serialises everything); `None` otherwise.
pub fn open_decision_store(url: &str) -> Result<Option<Box<dyn Store>>, StoreError> {
    match url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:")) {
        Some(path) if path != ":memory:" => Ok(Some(Box::new(store_sqlite::SqliteStore::open_with_readers(path, 0)?))),
        _ => Ok(None),
    }
}

/// A database URL safe to print: any password is replaced.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let credentials = &url[scheme + 3..at];
            match credentials.split_once(':') {
                Some((user, _)) => format!("{}{}:***{}", &url[..scheme + 3], user, &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redact_hides_passwords_only() {
        assert_eq!(redact("postgres://u:secret@h:5/db"), "postgres://u:***@h:5/db");
        assert_eq!(redact("postgres://u@h/db"), "postgres://u@h/db");
        assert_eq!(redact("sqlite://x.db"), "sqlite://x.db");
    }
}
