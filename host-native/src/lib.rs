//! The native host: hyper + tokio, wasmtime for the rules, SQLite or Postgres.

pub mod backup;
pub mod list_refresh;
pub mod log_writer;
pub mod observability;
pub mod otel;
pub mod point_reads;
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

    fn now_ms(&self) -> i64 {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
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

    /// rand's `ThreadRng`: ChaCha12, seeded and reseeded (every 64 KiB) from the OS.
    fn id_bytes(&self, len: usize) -> Vec<u8> {
        let mut bytes = vec![0u8; len];
        rand::RngCore::fill_bytes(&mut rand::rng(), &mut bytes);
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

/// A database URL safe to print: any password is replaced, wherever it is
/// given: in the user information (`USER:PASSWORD@`, multi-host URLs too),
/// as a query parameter (`?password=…`, `&sslpassword=…`, the key
/// percent-encoded or not), or as a `password=…` pair of the key=value form.
/// When the URL is ambiguous (an `@` or `?` inside a password), more is
/// hidden rather than less.
pub fn redact(url: &str) -> String {
    let url = redact_parameters(url);
    let Some(scheme) = url.find("://") else { return url };
    let rest = &url[scheme + 3..];
    // The driver takes the credentials up to the first `@`, a reader up to the
    // last: everything between the user's `:` and the last `@` is hidden.
    let (Some(first_at), Some(last_at)) = (rest.find('@'), rest.rfind('@')) else { return url };
    match rest[..first_at].find(':') {
        Some(colon) => format!("{}{}***{}", &url[..scheme + 3], &rest[..=colon], &rest[last_at..]),
        None => url.clone(),
    }
}

/// Hides the value of every parameter whose key (percent-decoded, any case)
/// ends in `password`: after `?`, `&`, a space or at the start, up to the
/// next `&` or space (a quoted value up to its closing quote).
fn redact_parameters(url: &str) -> String {
    let mut out = String::with_capacity(url.len());
    let mut rest = url;
    loop {
        // the next parameter starts at the text's start or after a separator
        let key_end = rest.find('=');
        let Some(key_end) = key_end else {
            out.push_str(rest);
            return out;
        };
        let key_start = rest[..key_end].rfind(['?', '&', ' ', '\t', '\n']).map(|i| i + 1).unwrap_or(0);
        out.push_str(&rest[..=key_end]);
        let value = &rest[key_end + 1..];
        let key = percent_decode(&rest[key_start..key_end]).to_ascii_lowercase();
        let value_end = if let Some(quoted) = value.strip_prefix('\'') {
            quoted.find('\'').map(|i| i + 2).unwrap_or(value.len())
        } else {
            value.find(['&', ' ', '\t', '\n']).unwrap_or(value.len())
        };
        if key.ends_with("password") {
            out.push_str("***");
        } else {
            out.push_str(&value[..value_end]);
        }
        rest = &value[value_end..];
    }
}

/// `%XX` escapes decoded (for comparing a parameter's key); invalid ones kept as they are.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok()).and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                decoded.push(byte);
                i += 3;
            }
            (byte, _) => {
                decoded.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&decoded).into_owned()
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

    /// Identifiers' bytes come from a CSPRNG on every thread: as long as asked, never repeated (the twin: secrets from the OS, likewise).
    #[test]
    fn identifier_bytes_are_unpredictable_on_every_thread() {
        let draw = || (0..2_000).map(|_| OsIds.id_bytes(12)).collect::<Vec<_>>();
        let mut all = draw();
        all.extend(std::thread::spawn(draw).join().expect("thread"));
        assert!(all.iter().all(|b| b.len() == 12));
        let distinct: std::collections::HashSet<_> = all.iter().collect();
        assert_eq!(distinct.len(), all.len());
        let secrets: std::collections::HashSet<_> = (0..1_000).map(|_| OsIds.random_bytes(32)).collect();
        assert_eq!(secrets.len(), 1_000);
        assert_eq!(OsIds.id_bytes(0).len(), 0);
    }

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

    /// A password given any way the driver reads one is hidden; nothing else is.
    #[test]
    fn redact_hides_passwords_in_every_form() {
        let hidden = [
            ("postgres://u@h/db?password=secret", "postgres://u@h/db?password=***"),
            (
                "postgresql://h:5432/db?sslmode=require&password=secret&application_name=gw",
                "postgresql://h:5432/db?sslmode=require&password=***&application_name=gw",
            ),
            ("postgres://h/db?PassWord=secret", "postgres://h/db?PassWord=***"),
            ("postgres://h/db?pass%77ord=secret", "postgres://h/db?pass%77ord=***"),
            ("postgres://h/db?user=u&sslpassword=secret", "postgres://h/db?user=u&sslpassword=***"),
            (
                "postgres://u:secret@h1:5432,h2:5433/db?target_session_attrs=read-write",
                "postgres://u:***@h1:5432,h2:5433/db?target_session_attrs=read-write",
            ),
            ("postgres://u:se@cret@h/db", "postgres://u:***@h/db"),
            ("postgres://u:se?cret@h/db", "postgres://u:***@h/db"),
            ("postgres://u:secret@[::1]:5432/db", "postgres://u:***@[::1]:5432/db"),
            ("postgres://h/db?password=se@cret", "postgres://h/db?password=***"),
            ("postgres://u:secret@h/db?password=secret", "postgres://u:***@h/db?password=***"),
            ("host=h user=u password=secret dbname=db", "host=h user=u password=*** dbname=db"),
            ("host=h password='se cret' dbname=db", "host=h password=*** dbname=db"),
        ];
        for (url, expected) in hidden {
            let shown = redact(url);
            assert_eq!(shown, expected, "{url}");
            assert!(!shown.contains("secret") && !shown.contains("cret"), "{url} shows its password: {shown}");
        }
        // the twin: a URL without a password is shown as it is
        for url in [
            "postgres://u@h/db",
            "postgres://h1:5432,h2:5433/db?sslmode=require&application_name=gw",
            "postgres://u@[::1]:5432/db?user=other",
            "sqlite://x.db?synchronous=normal",
            "sqlite::memory:",
            "host=h user=u dbname=db",
        ] {
            assert_eq!(redact(url), url);
        }
    }
}
