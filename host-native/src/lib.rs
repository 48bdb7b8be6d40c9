//! The native host: hyper + tokio, wasmtime for the rules, SQLite or Postgres.

pub mod backup;
pub mod list_refresh;
pub mod observability;
pub mod otel;
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

/// The system resolver, for the check that production webhooks go to public
/// addresses; a name that does not resolve within two seconds gives nothing.
pub struct DnsResolver;

#[async_trait::async_trait]
impl gateway::ports::Resolver for DnsResolver {
    async fn resolve(&self, host: &str, port: u16) -> Vec<std::net::IpAddr> {
        let lookup = tokio::net::lookup_host((host, port));
        match tokio::time::timeout(std::time::Duration::from_secs(2), lookup).await {
            Ok(Ok(addresses)) => addresses.map(|a| a.ip()).collect(),
            _ => Vec::new(),
        }
    }
}

/// Tokio's timer.
pub struct TokioTimer;

#[async_trait::async_trait]
impl gateway::ports::Timer for TokioTimer {
    async fn sleep_ms(&self, milliseconds: u64) {
        tokio::time::sleep(std::time::Duration::from_millis(milliseconds)).await;
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

/// Opens the store named by a URL: `postgres://…`, or `sqlite://PATH` (or
/// `sqlite::memory:`) with an optional `?synchronous=full|normal` (default full).
pub async fn open_store(url: &str) -> Result<Box<dyn Store>, StoreError> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        return Ok(Box::new(store_postgres::PostgresStore::connect(url).await?));
    }
    let (path, synchronous) = sqlite_url(url)?
        .ok_or_else(|| StoreError::Backend(format!("unsupported database URL (use sqlite://PATH or postgres://…): {}", redact(url))))?;
    Ok(Box::new(store_sqlite::SqliteStore::open_with(&path, store_sqlite::SqliteStore::default_readers(), synchronous)?))
}

/// The path and commit setting of a SQLite URL; `None` for another scheme.
fn sqlite_url(url: &str) -> Result<Option<(String, store_sqlite::Synchronous)>, StoreError> {
    let Some(rest) = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:")) else { return Ok(None) };
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    let mut synchronous = store_sqlite::Synchronous::Full;
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        synchronous = match pair.split_once('=') {
            Some(("synchronous", value)) => store_sqlite::Synchronous::parse(value)
                .ok_or_else(|| StoreError::Backend(format!("synchronous must be full or normal, not {value}")))?,
            _ => return Err(StoreError::Backend(format!("unknown SQLite option {pair} (known: synchronous=full|normal)"))),
        };
    }
    Ok(Some((path.to_string(), synchronous)))
}

/// The sealing key's file beside a SQLite database file (`PATH.key`).
pub fn key_file_beside(database_file: impl std::fmt::Display) -> std::path::PathBuf {
    std::path::PathBuf::from(format!("{database_file}.key"))
}

/// The file of a SQLite URL; `None` for another store (or an in-memory one).
pub fn sqlite_file(url: &str) -> Result<Option<std::path::PathBuf>, StoreError> {
    Ok(sqlite_url(url)?.map(|(path, _)| path).filter(|p| p != ":memory:").map(std::path::PathBuf::from))
}

/// A second connection for the decision log's off-path writes, when the
/// store is a SQLite file (one connection serialises everything); `None`
/// otherwise. Read-only decisions change nothing, so their pages are not
/// synced one by one (the loss window is documented).
pub fn open_decision_store(url: &str) -> Result<Option<Box<dyn Store>>, StoreError> {
    match sqlite_url(url)? {
        Some((path, _)) if path != ":memory:" => {
            Ok(Some(Box::new(store_sqlite::SqliteStore::open_with(&path, 0, store_sqlite::Synchronous::Normal)?)))
        }
        _ => Ok(None),
    }
}

/// The per-key rate limit of a store that several hosts share (Postgres):
/// a counter in the database, so a key gets its quota across all hosts.
/// `None` for SQLite, which one process owns: its in-process limiter is exact and free.
pub async fn open_shared_rate_limit(url: &str) -> Result<Option<Box<dyn gateway::ports::RateLimit>>, StoreError> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        let store = store_postgres::PostgresStore::connect(url).await?;
        return Ok(Some(Box::new(gateway::rate_limit::StoreRateLimit::new(Box::new(store)))));
    }
    Ok(None)
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

/// The keys that seal webhook secrets at rest: `key` (base64, from
/// `GATEWAY_SECRET_KEY`) when given, else the key file. Beside an SQLite
/// database (`PATH.key`) the file is created with a warning when it does not
/// exist yet, so the first start needs no step; a shared database (Postgres)
/// refuses to start without a key given explicitly.
/// `previous` keys (base64) still open what they sealed.
pub fn load_secret_keys(
    database_url: &str,
    key: Option<&str>,
    key_file: Option<&std::path::Path>,
    previous: &[String],
) -> Result<gateway::sealing::SecretKeys, String> {
    use gateway::sealing::{parse_key, SecretKeys};
    let previous = previous.iter().map(|k| parse_key(k).ok_or("a previous secret key is not 32 bytes of base64")).collect::<Result<Vec<_>, _>>()?;
    if let Some(key) = key {
        return Ok(SecretKeys::new(parse_key(key).ok_or("GATEWAY_SECRET_KEY is not 32 bytes of base64")?, previous));
    }
    let shared = !database_url.starts_with("sqlite:");
    let path = match (key_file, database_url.strip_prefix("sqlite://")) {
        // Every host on a shared database must seal and open with one key: a
        // key each host made for itself would leave deliveries no host can sign.
        (Some(path), _) if shared && !path.exists() => return Err(shared_key_needed(&format!("{} does not exist", path.display()))),
        (None, _) if shared => return Err(shared_key_needed("none is given")),
        (Some(path), _) => path.to_path_buf(),
        (None, Some(":memory:")) => {
            // A private in-memory database lives as long as its process; so does its key.
            let mut key = [0u8; 32];
            getrandom::fill(&mut key).map_err(|e| format!("no randomness for a key: {e}"))?;
            return Ok(SecretKeys::new(key, previous));
        }
        (None, Some(rest)) => key_file_beside(rest.split('?').next().unwrap_or(rest)),
        (None, None) => std::path::PathBuf::from("gateway-secret.key"),
    };
    if let Ok(text) = std::fs::read_to_string(&path) {
        let key = parse_key(&text).ok_or_else(|| format!("{} does not hold a key (32 bytes of base64)", path.display()))?;
        return Ok(SecretKeys::new(key, previous));
    }
    let mut key = [0u8; 32];
    getrandom::fill(&mut key).map_err(|e| format!("no randomness for a key: {e}"))?;
    write_private(&path, &base64::Engine::encode(&base64::engine::general_purpose::STANDARD, key))
        .map_err(|e| format!("cannot create the secret key file {}: {e}", path.display()))?;
    eprintln!(
        "warning: created the key that seals webhook secrets at {}; keep it apart from the database and its backups, or set GATEWAY_SECRET_KEY",
        path.display()
    );
    Ok(SecretKeys::new(key, previous))
}

fn shared_key_needed(why: &str) -> String {
    format!(
        "a shared database needs the key that seals webhook secrets given explicitly, the same on every host ({why}): \
         set GATEWAY_SECRET_KEY to 32 bytes of base64 (make one with `head -c 32 /dev/urandom | base64`), \
         or --secret-key-file (GATEWAY_SECRET_KEY_FILE) to a file that holds it"
    )
}

/// Writes a file only its owner can read.
fn write_private(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)?.write_all(format!("{text}\n").as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlite_urls_take_a_commit_setting_and_refuse_others() {
        use store_sqlite::Synchronous::{Full, Normal};
        assert_eq!(sqlite_url("sqlite://g.db").unwrap(), Some(("g.db".to_string(), Full)));
        assert_eq!(sqlite_url("sqlite://g.db?synchronous=normal").unwrap(), Some(("g.db".to_string(), Normal)));
        assert_eq!(sqlite_url("sqlite::memory:").unwrap(), Some((":memory:".to_string(), Full)));
        assert!(sqlite_url("sqlite://g.db?synchronous=off").is_err());
        assert!(sqlite_url("sqlite://g.db?cache=shared").is_err());
        assert_eq!(sqlite_url("postgres://h/db").unwrap(), None);
    }

    /// "Hosts share nothing but the store": hosts on one Postgres cannot each
    /// make a key of their own.
    #[test]
    fn a_shared_database_needs_an_explicit_key() {
        let dir = tempfile::tempdir().unwrap();
        let pg = "postgres://u@127.0.0.1:1/db";
        let refused = load_secret_keys(pg, None, None, &[]).unwrap_err();
        assert!(refused.contains("GATEWAY_SECRET_KEY"), "{refused}");
        let missing = dir.path().join("missing.key");
        assert!(load_secret_keys(pg, None, Some(&missing), &[]).unwrap_err().contains("does not exist"));
        assert!(!missing.exists(), "a key file was made for a shared database");
        let key = base64::Engine::encode(&base64::engine::general_purpose::STANDARD, [7u8; 32]);
        assert!(load_secret_keys(pg, Some(&key), None, &[]).is_ok());
        let file = dir.path().join("shared.key");
        std::fs::write(&file, &key).unwrap();
        assert_eq!(load_secret_keys(pg, None, Some(&file), &[]).unwrap().current_id(), gateway::sealing::key_id(&[7u8; 32]));
        // the twin: a SQLite file is one host's, and its key is made beside it on first start
        let sqlite = format!("sqlite://{}", dir.path().join("g.db").display());
        assert!(load_secret_keys(&sqlite, None, None, &[]).is_ok());
        assert!(dir.path().join("g.db.key").exists());
    }

    #[test]
    fn redact_hides_passwords_only() {
        assert_eq!(redact("postgres://u:secret@h:5/db"), "postgres://u:***@h:5/db");
        assert_eq!(redact("postgres://u@h/db"), "postgres://u@h/db");
        assert_eq!(redact("sqlite://x.db"), "sqlite://x.db");
    }
}
