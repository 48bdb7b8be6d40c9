//! The Postgres store, for production.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicU64, AtomicUsize};
use std::sync::Arc;

use std::time::{Duration, Instant};

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use gateway::ports::{Expect, Read, Row, Stmt, Store, StoreError, Value};
use tokio_postgres::error::SqlState;
use tokio_postgres::types::{ToSql, Type};
use tokio_postgres::NoTls;

/// The longest a request waits for a connection, or to make one.
const POOL_TIMEOUT: Duration = Duration::from_secs(5);

#[derive(Clone)]
pub struct PostgresStore {
    /// Transactions: a connection of their own each.
    pool: Arc<Pool>,
    /// Reads outside a transaction: shared and pipelined.
    reads: Arc<Multiplexed>,
}

impl PostgresStore {
    pub async fn connect(url: &str) -> Result<Self, StoreError> {
        Self::connect_with_read_lanes(url, READ_LANES).await
    }

    /// As [`PostgresStore::connect`], with at most `lanes` shared read connections.
    pub async fn connect_with_read_lanes(url: &str, lanes: usize) -> Result<Self, StoreError> {
        let config: tokio_postgres::Config = url.parse().map_err(|e: tokio_postgres::Error| StoreError::Backend(e.to_string()))?;
        let manager = Manager::from_config(config.clone(), NoTls, ManagerConfig { recycling_method: RecyclingMethod::Fast });
        // Bounded waits: while Postgres is down or restarting a request
        // fails in seconds with 503 store_unavailable, never hangs.
        let pool = Pool::builder(manager)
            .max_size(16)
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(POOL_TIMEOUT))
            .create_timeout(Some(POOL_TIMEOUT))
            .recycle_timeout(Some(POOL_TIMEOUT))
            .build()
            .map_err(|e| StoreError::Backend(e.to_string()))?;
        let store = PostgresStore { pool: Arc::new(pool), reads: Arc::new(Multiplexed::new(config, lanes)) };
        store.query("SELECT 1", vec![]).await?;
        Ok(store)
    }
}

impl PostgresStore {
    /// Reads that may be long, pipelined on a pooled connection of their own.
    async fn query_pooled(&self, reads: Vec<Read>) -> Result<Vec<Vec<Row>>, StoreError> {
        let client = self.pool.get().await.map_err(pool_error)?;
        let result = {
            let client = &client;
            let queries = reads.iter().map(|read| async move {
                let statement = client.prepare_cached(&to_postgres_placeholders(read.sql)).await.map_err(backend)?;
                let bound = bind(&read.params, statement.params())?;
                let rows = client.query(&statement, &refs(&bound)).await.map_err(backend)?;
                rows.iter().map(decode).collect::<Result<Vec<Row>, StoreError>>()
            });
            futures_util::future::try_join_all(queries).await
        };
        settle(client, result)
    }
}

/// Portable `?N` placeholders become Postgres' `$N`.
pub fn to_postgres_placeholders(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '?' && chars.peek().is_some_and(char::is_ascii_digit) {
            out.push('$');
        } else {
            out.push(c);
        }
    }
    out
}

fn backend(e: tokio_postgres::Error) -> StoreError {
    if is_unavailable(&e) {
        return StoreError::Unavailable(e.to_string());
    }
    match e.code() {
        Some(code) if *code == SqlState::UNIQUE_VIOLATION => StoreError::Unique,
        Some(code) if *code == SqlState::T_R_SERIALIZATION_FAILURE || *code == SqlState::T_R_DEADLOCK_DETECTED => {
            StoreError::Conflict { statement: 0 }
        }
        _ => StoreError::Backend(match e.as_db_error() {
            Some(db) => format!("{}: {}", db.code().code(), db.message()),
            None => e.to_string(),
        }),
    }
}

/// A lost or refused connection, a server shutting down or starting up, or
/// one that is no longer the primary (a read-only transaction, SQLSTATE
/// 25006, after a failover demoted it).
fn is_unavailable(e: &tokio_postgres::Error) -> bool {
    e.is_closed()
        || match e.code() {
            Some(code) => {
                code.code().starts_with("08")
                    || [SqlState::ADMIN_SHUTDOWN, SqlState::CRASH_SHUTDOWN, SqlState::CANNOT_CONNECT_NOW, SqlState::READ_ONLY_SQL_TRANSACTION]
                        .contains(code)
            }
            // no server answer at all: an I/O error on the connection
            None => std::error::Error::source(e).is_some_and(|s| s.is::<std::io::Error>()),
        }
}

/// A connection that failed as unavailable is dropped, not returned to the
/// pool: the next request connects anew, and with `target_session_attrs=read-write`
/// in a multi-host URL it finds the new primary.
fn settle<T>(client: deadpool_postgres::Object, result: Result<T, StoreError>) -> Result<T, StoreError> {
    if matches!(result, Err(StoreError::Unavailable(_))) {
        drop(deadpool_postgres::Object::take(client));
    }
    result
}

/// No connection could be had: the server is down, restarting or full.
fn pool_error(e: deadpool_postgres::PoolError) -> StoreError {
    StoreError::Unavailable(e.to_string())
}

type Param = Box<dyn ToSql + Sync + Send>;

/// Binds each value with the type Postgres inferred for its placeholder.
fn bind(values: &[Value], types: &[Type]) -> Result<Vec<Param>, StoreError> {
    values
        .iter()
        .zip(types)
        .map(|(v, ty)| -> Result<Param, StoreError> {
            Ok(match (v, ty) {
                (Value::Null, t) if *t == Type::INT8 => Box::new(None::<i64>),
                (Value::Null, t) if *t == Type::INT4 => Box::new(None::<i32>),
                (Value::Null, t) if *t == Type::FLOAT8 => Box::new(None::<f64>),
                (Value::Null, _) => Box::new(None::<String>),
                (Value::Int(i), t) if *t == Type::INT8 => Box::new(*i),
                (Value::Int(i), t) if *t == Type::INT4 => Box::new(i32::try_from(*i).map_err(|e| StoreError::Backend(e.to_string()))?),
                (Value::Int(i), t) if *t == Type::FLOAT8 => Box::new(*i as f64),
                (Value::Real(r), t) if *t == Type::FLOAT8 => Box::new(*r),
                (Value::Text(s), _) => Box::new(s.clone()),
                (v, t) => return Err(StoreError::Backend(format!("cannot bind {v:?} as {t}"))),
            })
        })
        .collect()
}

fn refs(params: &[Param]) -> Vec<&(dyn ToSql + Sync)> {
    params.iter().map(|p| p.as_ref() as &(dyn ToSql + Sync)).collect()
}

fn decode(row: &tokio_postgres::Row) -> Result<Row, StoreError> {
    let mut cells = Vec::with_capacity(row.len());
    for (i, column) in row.columns().iter().enumerate() {
        let ty = column.type_();
        let get_err = |e: tokio_postgres::Error| StoreError::Backend(e.to_string());
        let value = if *ty == Type::INT8 {
            row.try_get::<_, Option<i64>>(i).map_err(get_err)?.map_or(Value::Null, Value::Int)
        } else if *ty == Type::INT4 {
            row.try_get::<_, Option<i32>>(i).map_err(get_err)?.map_or(Value::Null, |v| Value::Int(i64::from(v)))
        } else if *ty == Type::FLOAT8 {
            row.try_get::<_, Option<f64>>(i).map_err(get_err)?.map_or(Value::Null, Value::Real)
        } else if *ty == Type::TEXT || *ty == Type::VARCHAR || *ty == Type::BPCHAR || *ty == Type::NAME {
            row.try_get::<_, Option<String>>(i).map_err(get_err)?.map_or(Value::Null, Value::Text)
        } else {
            return Err(StoreError::Backend(format!("column {} has unsupported type {ty}", column.name())));
        };
        cells.push(value);
    }
    Ok(Row(cells))
}

#[async_trait::async_trait]
impl Store for PostgresStore {
    fn connections(&self) -> Option<(usize, usize)> {
        let status = self.pool.status();
        let (idle, in_use) = self.reads.connections();
        Some((status.available + idle, status.size.saturating_sub(status.available) + in_use))
    }

    async fn query(&self, sql: &'static str, params: Vec<Value>) -> Result<Vec<Row>, StoreError> {
        self.query_many(vec![Read::new(sql, params)]).await.map(|mut all| all.pop().unwrap_or_default())
    }

    /// The reads pipelined on one connection: sent together, answered in order.
    async fn query_many(&self, reads: Vec<Read>) -> Result<Vec<Vec<Row>>, StoreError> {
        if !crate::point_reads::marked() {
            return self.query_pooled(reads).await;
        }
        let lane = self.reads.lane().await?;
        let result = futures_util::future::try_join_all(reads.iter().map(|read| lane.read(read.sql, &read.params))).await;
        lane.settle(&result);
        result
    }

    async fn refresh_statistics(&self, tables: &[&'static str]) -> Result<(), StoreError> {
        if tables.is_empty() {
            return Ok(());
        }
        // the names are the gateway's own tables, never input
        let sql = format!("ANALYZE {}", tables.join(", "));
        let client = self.pool.get().await.map_err(pool_error)?;
        let result = client.batch_execute(&sql).await.map_err(backend);
        settle(client, result)
    }

    async fn batch(&self, statements: Vec<Stmt>) -> Result<(), StoreError> {
        let span = tracing::debug_span!("store.batch", db.system = "postgresql", statements = statements.len());
        tracing::Instrument::instrument(
            async {
                let mut client = self.pool.get().await.map_err(pool_error)?;
                let result = run_batch(&mut client, &statements).await;
                if matches!(result, Err(StoreError::Unavailable(_))) {
                    // the primary is gone or no longer primary: reads too connect anew
                    self.reads.let_go();
                }
                settle(client, result)
            },
            span,
        )
        .await
    }
}

/// How many connections the point reads may share.
/// The first carries them all while it answers; another connects the first
/// time the lanes before it are held up, and stays.
const READ_LANES: usize = 4;

/// A lane with reads in flight and none answered for this long is held up
/// (a slow read at the head of its pipeline): new reads go to the next lane.
const HELD_UP: Duration = Duration::from_millis(5);

/// Held up this long, a lane's connection is let go (a read that hangs, a
/// server gone without closing): its next read connects anew.
const STUCK: Duration = POOL_TIMEOUT;

/// The point reads of the operators' API ([`crate::point_reads`]) share a
/// few connections, as Npgsql's multiplexing does: concurrent requests'
/// reads are pipelined on one connection, so Postgres takes several in one
/// wake-up rather than one process switch each. Answers on a connection
/// come in order, so a slow read would hold up every read behind it: a lane
/// held up for [`HELD_UP`] takes no new reads while another lane can. Every
/// other read, which may be long, takes a pooled connection as before.
struct Multiplexed {
    config: tokio_postgres::Config,
    lanes: Vec<Lane>,
    epoch: Instant,
}

#[derive(Default)]
struct Lane {
    current: std::sync::RwLock<Option<Arc<Shared>>>,
    connecting: tokio::sync::Mutex<()>,
    in_flight: AtomicUsize,
    /// When a read on it was last answered, or it last became busy
    /// (nanoseconds since [`Multiplexed::epoch`]).
    progressed_at: AtomicU64,
}

impl Lane {
    /// How long it has had reads in flight and none answered.
    fn stalled_for(&self, now: u64) -> Option<u64> {
        (self.in_flight.load(Relaxed) > 0).then(|| now.saturating_sub(self.progressed_at.load(Relaxed)))
    }

    fn held_up(&self, now: u64) -> bool {
        self.stalled_for(now).is_some_and(|t| t > HELD_UP.as_nanos() as u64)
    }

    fn live(&self) -> Result<Option<Arc<Shared>>, StoreError> {
        let current = self.current.read().map_err(|_| poisoned())?;
        Ok(current.as_ref().filter(|c| !c.client.is_closed()).cloned())
    }

    /// Lets `shared` go if it is still this lane's connection.
    fn let_go(&self, shared: &Arc<Shared>) {
        if let Ok(mut current) = self.current.write() {
            if current.as_ref().is_some_and(|c| Arc::ptr_eq(c, shared)) {
                *current = None;
            }
        }
    }
}

/// One shared connection and its prepared statements.
struct Shared {
    client: tokio_postgres::Client,
    statements: std::sync::Mutex<std::collections::HashMap<&'static str, tokio_postgres::Statement>>,
}

fn nanos_since(epoch: Instant) -> u64 {
    u64::try_from(epoch.elapsed().as_nanos()).unwrap_or(u64::MAX)
}

/// A request's reads on a lane's connection, counted in its `in_flight`
/// until dropped. Dropped before they were all answered (the request was
/// cancelled), Postgres still runs them ahead of anything sent after, so
/// the lane lets that connection go.
struct LaneGuard<'a> {
    lane: &'a Lane,
    shared: Arc<Shared>,
    epoch: Instant,
    answered: std::sync::atomic::AtomicBool,
}

impl<'a> LaneGuard<'a> {
    fn enter(lane: &'a Lane, shared: Arc<Shared>, epoch: Instant) -> Self {
        // an idle lane's clock starts now, before another read can see it busy
        if lane.in_flight.load(Relaxed) == 0 {
            lane.progressed_at.store(nanos_since(epoch), Relaxed);
        }
        lane.in_flight.fetch_add(1, Relaxed);
        LaneGuard { lane, shared, epoch, answered: Default::default() }
    }

    async fn read(&self, sql: &'static str, params: &[Value]) -> Result<Vec<Row>, StoreError> {
        let statement = self.shared.prepare(sql).await?;
        let bound = bind(params, statement.params())?;
        let rows = self.shared.client.query(&statement, &refs(&bound)).await.map_err(backend)?;
        self.lane.progressed_at.store(nanos_since(self.epoch), Relaxed);
        rows.iter().map(decode).collect()
    }

    /// The request has every answer (or an error): its reads are done, and a
    /// connection found unavailable is let go.
    fn settle<T>(&self, result: &Result<T, StoreError>) {
        self.answered.store(true, Relaxed);
        if matches!(result, Err(StoreError::Unavailable(_))) {
            self.lane.let_go(&self.shared);
        }
    }
}

impl Drop for LaneGuard<'_> {
    fn drop(&mut self) {
        if !self.answered.load(Relaxed) {
            self.lane.let_go(&self.shared);
        }
        self.lane.in_flight.fetch_sub(1, Relaxed);
    }
}

impl Shared {
    async fn prepare(&self, sql: &'static str) -> Result<tokio_postgres::Statement, StoreError> {
        if let Some(statement) = self.statements.lock().map_err(|_| poisoned())?.get(sql) {
            return Ok(statement.clone());
        }
        let statement = self.client.prepare(&to_postgres_placeholders(sql)).await.map_err(backend)?;
        self.statements.lock().map_err(|_| poisoned())?.insert(sql, statement.clone());
        Ok(statement)
    }
}

fn poisoned() -> StoreError {
    StoreError::Backend("read lane lock poisoned".into())
}

impl Multiplexed {
    fn new(config: tokio_postgres::Config, lanes: usize) -> Self {
        Multiplexed { config, lanes: (0..lanes.max(1)).map(|_| Lane::default()).collect(), epoch: Instant::now() }
    }

    /// The read lanes' connections (idle, in use).
    fn connections(&self) -> (usize, usize) {
        let connected = self.lanes.iter().filter(|l| l.live().is_ok_and(|c| c.is_some()));
        connected.fold((0, 0), |(idle, busy), l| if l.in_flight.load(Relaxed) == 0 { (idle + 1, busy) } else { (idle, busy + 1) })
    }

    /// The first lane not held up, or when all are, the one with the fewest
    /// reads in flight; connected. A lane stuck for [`STUCK`] is let go.
    async fn lane(&self) -> Result<LaneGuard<'_>, StoreError> {
        let now = nanos_since(self.epoch);
        for lane in &self.lanes {
            if lane.stalled_for(now).is_some_and(|t| t > STUCK.as_nanos() as u64) {
                if let Some(shared) = lane.live()? {
                    lane.let_go(&shared);
                }
            }
        }
        let lane = match self.lanes.iter().find(|l| !l.held_up(now)) {
            Some(lane) => lane,
            None => self.lanes.iter().min_by_key(|l| l.in_flight.load(Relaxed)).ok_or_else(|| StoreError::Backend("no read lanes".into()))?,
        };
        // counted once connected: a lane that is connecting is not held up
        let shared = self.connection(lane).await?;
        Ok(LaneGuard::enter(lane, shared, self.epoch))
    }

    /// The lane's connection, made if it has none; waiting and connecting
    /// take [`POOL_TIMEOUT`] at most together. Any failure is unavailable (503).
    async fn connection(&self, lane: &Lane) -> Result<Arc<Shared>, StoreError> {
        if let Some(shared) = lane.live()? {
            return Ok(shared);
        }
        let connect = async {
            // one request connects; the others wait for its connection
            let _connecting = lane.connecting.lock().await;
            if let Some(shared) = lane.live()? {
                return Ok(shared);
            }
            let (client, connection) = self.config.connect(NoTls).await.map_err(|e| StoreError::Unavailable(e.to_string()))?;
            tokio::spawn(async move {
                if let Err(e) = connection.await {
                    tracing::debug!(error = %e, "a shared read connection ended");
                }
            });
            let shared = Arc::new(Shared { client, statements: std::sync::Mutex::default() });
            *lane.current.write().map_err(|_| poisoned())? = Some(Arc::clone(&shared));
            Ok(shared)
        };
        tokio::time::timeout(POOL_TIMEOUT, connect).await.map_err(|_| StoreError::Unavailable("timed out connecting to Postgres".into()))?
    }

    /// Every lane's connection is let go; reads in flight end on it.
    fn let_go(&self) {
        for lane in &self.lanes {
            if let Ok(mut current) = lane.current.write() {
                *current = None;
            }
        }
    }
}

async fn run_batch(client: &mut deadpool_postgres::Object, statements: &[Stmt]) -> Result<(), StoreError> {
    let transaction = client.transaction().await.map_err(backend)?;
    for (index, statement) in statements.iter().enumerate() {
        let prepared = transaction.prepare_cached(&to_postgres_placeholders(statement.sql)).await.map_err(backend)?;
        let bound = bind(&statement.params, prepared.params())?;
        let changed = transaction.execute(&prepared, &refs(&bound)).await.map_err(|e| match backend(e) {
            StoreError::Conflict { .. } => StoreError::Conflict { statement: index },
            other => other,
        })?;
        if statement.expect == Expect::One && changed != 1 {
            return Err(StoreError::Conflict { statement: index });
        }
    }
    transaction.commit().await.map_err(backend)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_rewritten_but_not_other_question_marks() {
        assert_eq!(to_postgres_placeholders("a = ?1 AND b = ?12 AND c = '?'"), "a = $1 AND b = $12 AND c = '?'");
    }
}
