//! The embedded SQLite store: the zero-setup default.

use std::sync::{Arc, Mutex};

use gateway::ports::{Expect, Read, Row, Stmt, Store, StoreError, Value};
use rusqlite::types::ValueRef;
use rusqlite::{Connection, ErrorCode, TransactionBehavior};

/// One connection in WAL mode; SQLite serialises writers anyway, and each
/// batch runs in one IMMEDIATE transaction on a blocking thread.
#[derive(Clone)]
pub struct SqliteStore {
    connection: Arc<Mutex<Connection>>,
}

impl SqliteStore {
    /// Opens `path`, or a private in-memory database for `:memory:`.
    pub fn open(path: &str) -> Result<Self, StoreError> {
        let connection = if path == ":memory:" { Connection::open_in_memory() } else { Connection::open(path) }.map_err(backend)?;
        connection.execute_batch("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;").map_err(backend)?;
        Ok(SqliteStore { connection: Arc::new(Mutex::new(connection)) })
    }

    async fn with<T: Send + 'static>(&self, f: impl FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static) -> Result<T, StoreError> {
        let connection = self.connection.clone();
        tokio::task::spawn_blocking(move || {
            let mut guard = connection.lock().map_err(|_| StoreError::Backend("sqlite connection lock poisoned".into()))?;
            f(&mut guard)
        })
        .await
        .map_err(|e| StoreError::Backend(format!("sqlite task failed: {e}")))?
    }
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
        self.with(move |connection| run_query(connection, sql, &params)).await
    }

    /// All reads in one blocking call, under one lock.
    async fn query_many(&self, reads: Vec<Read>) -> Result<Vec<Vec<Row>>, StoreError> {
        self.with(move |connection| reads.iter().map(|r| run_query(connection, r.sql, &r.params)).collect()).await
    }

    async fn batch(&self, statements: Vec<Stmt>) -> Result<(), StoreError> {
        self.with(move |connection| {
            let transaction = connection.transaction_with_behavior(TransactionBehavior::Immediate).map_err(backend)?;
            for (index, statement) in statements.iter().enumerate() {
                let changed = {
                    let mut prepared = transaction.prepare_cached(statement.sql).map_err(backend)?;
                    prepared.execute(rusqlite::params_from_iter(statement.params.iter().map(to_sql))).map_err(backend)?
                };
                if statement.expect == Expect::One && changed != 1 {
                    return Err(StoreError::Conflict { statement: index });
                }
            }
            transaction.commit().map_err(backend)
        })
        .await
    }
}
