//! The Postgres store, for production.

use std::sync::Arc;

use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use gateway::ports::{Expect, Read, Row, Stmt, Store, StoreError, Value};
use tokio_postgres::error::SqlState;
use tokio_postgres::types::{ToSql, Type};
use tokio_postgres::NoTls;

/// The longest a request waits for a connection, or to make one.
const POOL_TIMEOUT: Duration = Duration::from_secs(5);

#[derive(Clone)]
pub struct PostgresStore {
    pool: Arc<Pool>,
}

impl PostgresStore {
    pub async fn connect(url: &str) -> Result<Self, StoreError> {
        let config: tokio_postgres::Config = url.parse().map_err(|e: tokio_postgres::Error| StoreError::Backend(e.to_string()))?;
        let manager = Manager::from_config(config, NoTls, ManagerConfig { recycling_method: RecyclingMethod::Fast });
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
        let store = PostgresStore { pool: Arc::new(pool) };
        store.query("SELECT 1", vec![]).await?;
        Ok(store)
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
        Some((status.available, status.size.saturating_sub(status.available)))
    }

    async fn query(&self, sql: &'static str, params: Vec<Value>) -> Result<Vec<Row>, StoreError> {
        let client = self.pool.get().await.map_err(pool_error)?;
        let result = async {
            let statement = client.prepare_cached(&to_postgres_placeholders(sql)).await.map_err(backend)?;
            let bound = bind(&params, statement.params())?;
            let rows = client.query(&statement, &refs(&bound)).await.map_err(backend)?;
            rows.iter().map(decode).collect()
        }
        .await;
        settle(client, result)
    }

    /// The reads pipelined on one connection: sent together, answered in order.
    async fn query_many(&self, reads: Vec<Read>) -> Result<Vec<Vec<Row>>, StoreError> {
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

    async fn batch(&self, statements: Vec<Stmt>) -> Result<(), StoreError> {
        let span = tracing::debug_span!("store.batch", db.system = "postgresql", statements = statements.len());
        tracing::Instrument::instrument(
            async {
                let mut client = self.pool.get().await.map_err(pool_error)?;
                let result = run_batch(&mut client, &statements).await;
                settle(client, result)
            },
            span,
        )
        .await
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
