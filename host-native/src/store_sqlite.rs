//! The embedded SQLite store: the zero-setup default.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use gateway::ports::{Expect, Read, Row, Stmt, Store, StoreError, Value};
use rusqlite::types::ValueRef;
use rusqlite::{Connection, ErrorCode, TransactionBehavior};

/// The writer connection and a pool of read connections, in WAL mode:
/// SQLite serialises writers anyway. Batches are committed in groups: the
/// batches waiting when the writer is free run in one IMMEDIATE transaction,
/// each inside its own savepoint (a batch that fails is rolled back to it
/// alone), and the transaction's one sync acknowledges them all, so no batch
/// is acknowledged before it is durable. Reads run on their own connections
/// at the same time, each seeing the last committed state. An in-memory
/// database is private to its connection, so it has the writer alone.
#[derive(Clone)]
pub struct SqliteStore {
    writer: Arc<Mutex<Connection>>,
    pending: Arc<Mutex<Vec<Pending>>>,
    readers: Arc<Vec<Mutex<Connection>>>,
    next_reader: Arc<AtomicUsize>,
}

/// A batch waiting for the writer, and where its result goes.
type Pending = (Vec<Stmt>, tokio::sync::oneshot::Sender<Result<(), StoreError>>);

/// The most batches one transaction commits: a bound on any one's wait.
const GROUP_LIMIT: usize = 256;

/// When a commit is acknowledged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Synchronous {
    /// After the write-ahead log is synced to disk: an acknowledged write
    /// survives an OS crash or power loss. The default.
    Full,
    /// Before the sync: survives a killed process, may lose the last commits
    /// on an OS crash or power loss; about ten times more commits a second.
    Normal,
}

/// WAL pages (4 KiB each, 64 MiB) after which a commit checkpoints the WAL
/// into the database, against SQLite's default of 1,000. The read-only
/// decision log writes megabytes a second under load; at the default a
/// checkpoint ran several times a second, and each start and end of one
/// makes the checks' read transactions retry for their WAL read marks:
/// at this setting `limits/check`'s p99 is 2.1–2.6 ms, against 2.7–3.6 ms
/// at the default (`docs/benchmarks.md`).
/// Durability does not change (a commit is durable in the WAL); a larger
/// WAL costs disk (bounded by `journal_size_limit`) and a longer replay on open.
pub const CHECKPOINT_PAGES: i64 = 16_384;
const _: () = assert!(CHECKPOINT_PAGES * 4096 == 67_108_864);

impl Synchronous {
    pub fn parse(text: &str) -> Option<Self> {
        match text.to_ascii_lowercase().as_str() {
            "full" => Some(Synchronous::Full),
            "normal" => Some(Synchronous::Normal),
            _ => None,
        }
    }
    /// A writer's settings: WAL, its commit setting, and checkpoints of
    /// [`CHECKPOINT_PAGES`] (the WAL file truncated back to that size after one).
    fn pragma(self) -> &'static str {
        macro_rules! writer {
            ($synchronous:literal) => {
                concat!(
                    "PRAGMA journal_mode = WAL; PRAGMA synchronous = ",
                    $synchronous,
                    "; PRAGMA busy_timeout = 5000; PRAGMA wal_autocheckpoint = 16384; PRAGMA journal_size_limit = 67108864;"
                )
            };
        }
        match self {
            Synchronous::Full => writer!("FULL"),
            Synchronous::Normal => writer!("NORMAL"),
        }
    }
}

impl SqliteStore {
    /// Opens `path` with a read pool sized to the machine and durable commits,
    /// or a private in-memory database for `:memory:`.
    pub fn open(path: &str) -> Result<Self, StoreError> {
        Self::open_with(path, Self::default_readers(), Synchronous::Full)
    }

    pub fn default_readers() -> usize {
        std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(2, 8)
    }

    /// Opens `path` with `readers` read connections beside the writer (none for `:memory:`).
    pub fn open_with_readers(path: &str, readers: usize) -> Result<Self, StoreError> {
        Self::open_with(path, readers, Synchronous::Full)
    }

    /// Opens `path` with `readers` read connections and the writer's `synchronous` setting.
    pub fn open_with(path: &str, readers: usize, synchronous: Synchronous) -> Result<Self, StoreError> {
        let in_memory = path == ":memory:";
        let writer = if in_memory { Connection::open_in_memory() } else { Connection::open(path) }.map_err(backend)?;
        writer.execute_batch(synchronous.pragma()).map_err(backend)?;
        let mut pool = Vec::new();
        for _ in 0..if in_memory { 0 } else { readers } {
            let reader = Connection::open(path).map_err(backend)?;
            reader.execute_batch("PRAGMA busy_timeout = 5000; PRAGMA query_only = 1;").map_err(backend)?;
            pool.push(Mutex::new(reader));
        }
        Ok(SqliteStore {
            writer: Arc::new(Mutex::new(writer)),
            pending: Arc::new(Mutex::new(Vec::new())),
            readers: Arc::new(pool),
            next_reader: Arc::new(AtomicUsize::new(0)),
        })
    }

    async fn write<T: Send + 'static>(&self, f: impl FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static) -> Result<T, StoreError> {
        let connection = self.writer.clone();
        tokio::task::spawn_blocking(move || {
            let mut guard = connection.lock().map_err(|_| StoreError::Backend("sqlite connection lock poisoned".into()))?;
            f(&mut guard)
        })
        .await
        .map_err(|e| StoreError::Backend(format!("sqlite task failed: {e}")))?
    }

    /// Runs a read on a free read connection (the writer when there is no pool).
    async fn read<T: Send + 'static>(&self, f: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static) -> Result<T, StoreError> {
        if self.readers.is_empty() {
            return self.write(move |c| f(c)).await;
        }
        let readers = self.readers.clone();
        let start = self.next_reader.fetch_add(1, Ordering::Relaxed);
        if crate::point_reads::marked() {
            if let Some(guard) = free_reader(&readers, start) {
                return f(&guard);
            }
        }
        tokio::task::spawn_blocking(move || {
            let guard = match free_reader(&readers, start) {
                Some(guard) => guard,
                None => readers
                    .get(start % readers.len())
                    .ok_or_else(|| StoreError::Backend("no sqlite reader".into()))?
                    .lock()
                    .map_err(|_| StoreError::Backend("sqlite connection lock poisoned".into()))?,
            };
            f(&guard)
        })
        .await
        .map_err(|e| StoreError::Backend(format!("sqlite task failed: {e}")))?
    }
}

/// The first read connection not in use, looking from `start` on.
fn free_reader(readers: &[Mutex<Connection>], start: usize) -> Option<std::sync::MutexGuard<'_, Connection>> {
    let count = readers.len();
    (0..count).find_map(|i| readers.get((start + i) % count).and_then(|m| m.try_lock().ok()))
}

fn backend(e: rusqlite::Error) -> StoreError {
    match e.sqlite_error() {
        Some(err)
            if err.code == ErrorCode::ConstraintViolation
                && (err.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
                    || err.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY) =>
        {
            StoreError::Unique
        }
        _ => StoreError::Backend(e.to_string()),
    }
}

/// A parameter bound without copying its text.
fn to_sql(v: &Value) -> rusqlite::types::ToSqlOutput<'_> {
    use rusqlite::types::{ToSqlOutput, ValueRef as Ref};
    ToSqlOutput::Borrowed(match v {
        Value::Null => Ref::Null,
        Value::Int(i) => Ref::Integer(*i),
        Value::Real(r) => Ref::Real(*r),
        Value::Text(t) => Ref::Text(t.as_bytes()),
    })
}

fn from_sql(v: ValueRef<'_>) -> Result<Value, StoreError> {
    Ok(match v {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => Value::Int(i),
        ValueRef::Real(r) => Value::Real(r),
        ValueRef::Text(t) => Value::Text(String::from_utf8(t.to_vec()).map_err(|e| StoreError::Backend(e.to_string()))?),
        ValueRef::Blob(_) => return Err(StoreError::Backend("blobs are not part of the schema".into())),
    })
}

fn run_query(connection: &Connection, sql: &str, params: &[Value]) -> Result<Vec<Row>, StoreError> {
    let mut statement = connection.prepare_cached(sql).map_err(backend)?;
    let columns = statement.column_count();
    let mut rows = statement.query(rusqlite::params_from_iter(params.iter().map(to_sql))).map_err(backend)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next().map_err(backend)? {
        let mut cells = Vec::with_capacity(columns);
        for i in 0..columns {
            cells.push(from_sql(row.get_ref(i).map_err(backend)?)?);
        }
        out.push(Row(cells));
    }
    Ok(out)
}

#[async_trait::async_trait]
impl Store for SqliteStore {
    async fn query(&self, sql: &'static str, params: Vec<Value>) -> Result<Vec<Row>, StoreError> {
        self.read(move |connection| run_query(connection, sql, &params)).await
    }

    /// All reads in one blocking call on one read connection, in one read
    /// transaction, so they see the same committed state. One read is its
    /// own transaction (autocommit): no BEGIN and COMMIT around it.
    async fn query_many(&self, reads: Vec<Read>) -> Result<Vec<Vec<Row>>, StoreError> {
        self.read(move |connection| {
            if let [read] = reads.as_slice() {
                return Ok(vec![run_query(connection, read.sql, &read.params)?]);
            }
            control(connection, "BEGIN")?;
            let results = reads.iter().map(|r| run_query(connection, r.sql, &r.params)).collect();
            control(connection, "COMMIT")?;
            results
        })
        .await
    }

    async fn batch(&self, statements: Vec<Stmt>) -> Result<(), StoreError> {
        let span = tracing::debug_span!("store.batch", db.system = "sqlite", statements = statements.len());
        tracing::Instrument::instrument(self.batch_now(statements), span).await
    }
}

impl SqliteStore {
    async fn batch_now(&self, statements: Vec<Stmt>) -> Result<(), StoreError> {
        let (sender, receiver) = tokio::sync::oneshot::channel();
        self.pending.lock().map_err(|_| StoreError::Backend("sqlite queue lock poisoned".into()))?.push((statements, sender));
        // Whoever holds the writer next commits every batch waiting then, this one included (or it already has).
        let pending = self.pending.clone();
        self.write(move |connection| loop {
            let group: Vec<Pending> = {
                let mut queue = pending.lock().map_err(|_| StoreError::Backend("sqlite queue lock poisoned".into()))?;
                let take = queue.len().min(GROUP_LIMIT);
                queue.drain(..take).collect()
            };
            if group.is_empty() {
                return Ok(());
            }
            commit_group(connection, group);
        })
        .await?;
        receiver.await.map_err(|_| StoreError::Backend("the sqlite writer dropped a batch".into()))?
    }
}

/// Runs a transaction's control statement from the statement cache (parsed once a connection).
fn control(connection: &Connection, sql: &'static str) -> Result<(), StoreError> {
    connection.prepare_cached(sql).and_then(|mut statement| statement.execute([])).map(drop).map_err(backend)
}

/// Runs one batch inside the open transaction, in its own savepoint.
fn run_batch(connection: &Connection, statements: &[Stmt]) -> Result<(), StoreError> {
    for (index, statement) in statements.iter().enumerate() {
        let changed = {
            let mut prepared = connection.prepare_cached(statement.sql).map_err(backend)?;
            prepared.execute(rusqlite::params_from_iter(statement.params.iter().map(to_sql))).map_err(backend)?
        };
        if statement.expect == Expect::One && changed != 1 {
            return Err(StoreError::Conflict { statement: index });
        }
    }
    Ok(())
}

/// Commits a group of batches in one transaction and answers each: a batch
/// that fails is rolled back to its savepoint and answered with its error;
/// the others are answered once the transaction is committed (synced).
fn commit_group(connection: &mut Connection, group: Vec<Pending>) {
    let answer_all = |group: Vec<Pending>, error: StoreError| {
        for (_, sender) in group {
            let _ = sender.send(Err(error.clone()));
        }
    };
    let transaction = match connection.transaction_with_behavior(TransactionBehavior::Immediate) {
        Ok(t) => t,
        Err(e) => return answer_all(group, backend(e)),
    };
    let mut results = Vec::with_capacity(group.len());
    for (statements, _) in &group {
        if let Err(e) = control(&transaction, "SAVEPOINT batch") {
            drop(transaction);
            return answer_all(group, e);
        }
        let result = run_batch(&transaction, statements);
        let ended = if result.is_ok() {
            control(&transaction, "RELEASE batch")
        } else {
            transaction.execute_batch("ROLLBACK TO batch; RELEASE batch").map_err(backend)
        };
        if let Err(e) = ended {
            drop(transaction);
            return answer_all(group, e);
        }
        results.push(result);
    }
    if let Err(e) = transaction.commit() {
        return answer_all(group, backend(e));
    }
    for ((_, sender), result) in group.into_iter().zip(results) {
        let _ = sender.send(result);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store() -> (tempfile::TempDir, SqliteStore) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("inline.db");
        let store = SqliteStore::open_with_readers(path.to_str().unwrap(), 2).unwrap();
        (dir, store)
    }

    /// Both writers' settings (the store's, and the decision log's second
    /// connection): checkpoints every [`CHECKPOINT_PAGES`], the WAL truncated
    /// back to that size. The twin: a connection opened without them keeps
    /// SQLite's default of 1,000 pages.
    #[test]
    fn writers_checkpoint_at_sixty_four_mebibytes_of_wal() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("checkpoint.db");
        let path = path.to_str().unwrap();
        let setting = |c: &Connection, pragma: &str| -> i64 { c.query_row(&format!("PRAGMA {pragma}"), [], |r| r.get(0)).unwrap() };
        for synchronous in [Synchronous::Full, Synchronous::Normal] {
            let store = SqliteStore::open_with(path, 1, synchronous).unwrap();
            let writer = store.writer.lock().unwrap();
            assert_eq!(setting(&writer, "wal_autocheckpoint"), CHECKPOINT_PAGES, "{synchronous:?}");
            assert_eq!(setting(&writer, "journal_size_limit"), CHECKPOINT_PAGES * 4096, "{synchronous:?}");
        }
        assert_eq!(setting(&Connection::open(path).unwrap(), "wal_autocheckpoint"), 1_000);
    }

    async fn reading_thread(store: &SqliteStore) -> std::thread::ThreadId {
        store.read(|_| Ok(std::thread::current().id())).await.unwrap()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_operators_request_reads_on_its_own_thread_and_other_work_on_the_blocking_pool() {
        let (_dir, store) = store();
        let (here, there) = crate::point_reads::point_reads(async { (std::thread::current().id(), reading_thread(&store).await) }).await;
        assert_eq!(here, there, "inside point_reads a read with a free connection runs on the calling thread");
        let (here, there) = (std::thread::current().id(), reading_thread(&store).await);
        assert_ne!(here, there, "outside point_reads a read is handed to the blocking pool");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn with_every_connection_busy_an_inline_read_waits_on_the_blocking_pool() {
        let (_dir, store) = store();
        let held: Vec<_> = store.readers.iter().map(|m| m.lock().unwrap()).collect();
        let reader = store.clone();
        let waiting = tokio::spawn(crate::point_reads::point_reads(async move { (std::thread::current().id(), reading_thread(&reader).await) }));
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        assert!(!waiting.is_finished(), "a read ran without a free connection");
        drop(held);
        let (here, there) = waiting.await.unwrap();
        assert_ne!(here, there, "a read that found no free connection must not block the runtime's thread");
    }
}
