//! The store on Cloudflare D1. A D1 batch is one transaction, but it cannot
//! abort on a row count, so each `Expect::One` statement is followed by a
//! guard that fails when the statement did not change exactly one row:
//! `INSERT INTO batch_guard (s{i}) SELECT NULL WHERE changes() <> 1` against
//! columns declared `NOT NULL`. The failure rolls back the whole batch, and
//! its message names the column, so the host knows which statement failed.

use std::cell::RefCell;

use gateway::ports::{Expect, NearRows, Read, ReadFrom, Row, Stmt, Store, StoreError, Value};
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use worker::worker_sys::{D1Database, D1DatabaseSession, D1PreparedStatement};

/// Guard columns `s0…s{GUARD_COLUMNS-1}`; statements past the last share it.
pub const GUARD_COLUMNS: usize = 64;
/// Integers D1 carries exactly (it returns them as JS doubles).
const MAX_EXACT_INTEGER: i64 = (1 << 53) - 1;

pub struct D1Store {
    db: D1Database,
    /// the latest bookmark of a batch this store committed (D1 Sessions API)
    bookmark: RefCell<Option<String>>,
}

/// The guard table of [`D1Store`]; created before the schema, outside it,
/// because only D1 needs it.
pub fn guard_table_sql() -> String {
    let columns: Vec<String> = (0..GUARD_COLUMNS).map(|i| format!("s{i} INTEGER NOT NULL DEFAULT 0")).collect();
    format!("CREATE TABLE IF NOT EXISTS batch_guard ({})", columns.join(", "))
}

/// The guard statements, one per column; built once per isolate.
fn guard_sql(index: usize) -> &'static str {
    thread_local! {
        static GUARDS: Vec<&'static str> = (0..GUARD_COLUMNS)
            .map(|i| &*Box::leak(format!("INSERT INTO batch_guard (s{i}) SELECT NULL WHERE changes() <> 1").into_boxed_str()))
            .collect();
    }
    GUARDS.with(|g| g.get(index.min(GUARD_COLUMNS - 1)).copied().unwrap_or("SELECT 1"))
}

impl D1Store {
    pub fn new(db: worker::D1Database) -> Self {
        D1Store { db: JsValue::from(db.as_ref()).unchecked_into(), bookmark: RefCell::new(None) }
    }

    /// A statement of a session (D1 Sessions API: `withSession`).
    fn prepare_in(session: &D1DatabaseSession, sql: &str, params: &[Value]) -> Result<D1PreparedStatement, StoreError> {
        let values = params.iter().map(to_js).collect::<Result<Array, _>>()?;
        session.session_prepare(sql).and_then(|s| s.bind(values)).map_err(|e| classify(&e))
    }

    /// Keeps the later of the bookmark held and `next` (bookmarks sort lexicographically).
    fn note_bookmark(&self, next: Option<String>) {
        let mut held = self.bookmark.borrow_mut();
        if next.as_ref().is_some_and(|n| held.as_ref().is_none_or(|h| n > h)) {
            *held = next;
        }
    }

    pub async fn create_guard_table(&self) -> Result<(), StoreError> {
        let sql = guard_table_sql();
        settle(self.db.prepare(&sql).and_then(|s| s.run())).await.map(|_| ())
    }

    fn prepare(&self, sql: &str, params: &[Value]) -> Result<D1PreparedStatement, StoreError> {
        let values = params.iter().map(to_js).collect::<Result<Array, _>>()?;
        self.db.prepare(sql).and_then(|s| s.bind(values)).map_err(|e| classify(&e))
    }
}

/// Awaits a D1 promise, mapping its failure.
async fn settle(promise: Result<js_sys::Promise, JsValue>) -> Result<JsValue, StoreError> {
    JsFuture::from(promise.map_err(|e| classify(&e))?).await.map_err(|e| classify(&e))
}

fn to_js(value: &Value) -> Result<JsValue, StoreError> {
    Ok(match value {
        Value::Null => JsValue::NULL,
        Value::Int(v) if v.unsigned_abs() > MAX_EXACT_INTEGER as u64 => {
            return Err(StoreError::Backend(format!("integer {v} is beyond what D1 stores exactly (±2^53)")))
        }
        Value::Int(v) => JsValue::from_f64(*v as f64),
        Value::Real(v) => JsValue::from_f64(*v),
        Value::Text(s) => JsValue::from_str(s),
    })
}

fn from_js(value: &JsValue) -> Result<Value, StoreError> {
    if value.is_null() || value.is_undefined() {
        return Ok(Value::Null);
    }
    if let Some(s) = value.as_string() {
        return Ok(Value::Text(s));
    }
    if let Some(f) = value.as_f64() {
        // SQLite hands D1 an INTEGER or a REAL; JS sees a number either way.
        // A whole number within the exact range is read back as an integer,
        // which `Row::real` accepts too.
        if f.fract() == 0.0 && f.abs() <= MAX_EXACT_INTEGER as f64 {
            return Ok(Value::Int(f as i64));
        }
        return Ok(Value::Real(f));
    }
    if let Some(b) = value.as_bool() {
        return Ok(Value::Int(i64::from(b)));
    }
    Err(StoreError::Backend(format!("unsupported D1 value {value:?}")))
}

fn row_from_array(row: &JsValue) -> Result<Row, StoreError> {
    let cells = row.dyn_ref::<Array>().ok_or_else(|| StoreError::Backend("D1 row is not an array".into()))?;
    cells.iter().map(|c| from_js(&c)).collect::<Result<Vec<_>, _>>().map(Row)
}

/// A row of a batch result, which D1 gives as an object: its values in
/// column order (the reads of `query_many` name their columns distinctly).
fn row_from_object(row: &JsValue) -> Result<Row, StoreError> {
    let object = row.dyn_ref::<Object>().ok_or_else(|| StoreError::Backend("D1 row is not an object".into()))?;
    Object::values(object).iter().map(|c| from_js(&c)).collect::<Result<Vec<_>, _>>().map(Row)
}

/// D1's transient failures, which Cloudflare says to retry
/// (developers.cloudflare.com/d1/best-practices/retry-queries and the error
/// list of /d1/observability/debug-d1): the store is unreachable for now,
/// so the request answers 503 `store_unavailable` with `Retry-After`, not 500.
const TRANSIENT: &[&str] = &[
    "Network connection lost",
    "storage caused object to be reset",
    "reset because its code was updated",
    "D1 DB is overloaded",
    "exceeded timeout",
];

/// Maps a D1 failure to the store's errors: a unique violation, a guard that
/// fired (a row-count conflict), a transient failure (unavailable), or
/// anything else.
fn classify(error: &JsValue) -> StoreError {
    let cause = Reflect::get(error, &JsValue::from_str("cause")).ok().filter(|c| !c.is_undefined()).map(|c| crate::rules_js::js_message(&c));
    let message = format!("{} {}", crate::rules_js::js_message(error), cause.unwrap_or_default());
    if let Some(rest) = message.split("NOT NULL constraint failed: batch_guard.s").nth(1) {
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        if let Ok(statement) = digits.parse() {
            return StoreError::Conflict { statement };
        }
    }
    if message.contains("UNIQUE constraint failed") || message.contains("PRIMARY KEY constraint failed") {
        return StoreError::Unique;
    }
    if TRANSIENT.iter().any(|t| message.contains(t)) {
        return StoreError::Unavailable(message);
    }
    StoreError::Backend(message)
}

/// How D1's failures are classified, checked inside workerd with the
/// store contract (`POST /__local/store-contract`): each transient failure
/// Cloudflare lists is unavailable, and the twins are not.
pub fn classification_checks() -> Vec<(&'static str, Result<(), String>)> {
    let error = |message: &str| -> JsValue { js_sys::Error::new(message).into() };
    let expect = |message: &str, want: fn(&StoreError) -> bool| match classify(&error(message)) {
        got if want(&got) => Ok(()),
        got => Err(format!("{message:?} classified as {got:?}")),
    };
    let unavailable = |e: &StoreError| matches!(e, StoreError::Unavailable(_));
    let transient = TRANSIENT.iter().map(|t| format!("D1_ERROR: {t}.")).map(|m| expect(&m, unavailable)).find(Result::is_err).unwrap_or(Ok(()));
    vec![
        ("d1_transient_failures_are_unavailable", transient),
        (
            "d1_a_broken_statement_is_not_unavailable",
            expect("D1_ERROR: no such table: nowhere: SQLITE_ERROR", |e| matches!(e, StoreError::Backend(_))),
        ),
        (
            "d1_a_unique_violation_is_still_unique",
            expect("D1_ERROR: UNIQUE constraint failed: t.id: SQLITE_CONSTRAINT", |e| matches!(e, StoreError::Unique)),
        ),
    ]
}

#[async_trait::async_trait(?Send)]
impl Store for D1Store {
    async fn query(&self, sql: &'static str, params: Vec<Value>) -> Result<Vec<Row>, StoreError> {
        let statement = self.prepare(sql, &params)?;
        let rows = settle(statement.raw()).await?;
        let rows = rows.dyn_into::<Array>().map_err(|_| StoreError::Backend("D1 rows are not an array".into()))?;
        rows.iter().map(|r| row_from_array(&r)).collect()
    }

    async fn batch(&self, statements: Vec<Stmt>) -> Result<(), StoreError> {
        let prepared = Array::new();
        for (index, statement) in statements.iter().enumerate() {
            prepared.push(&self.prepare(statement.sql, &statement.params)?.into());
            if statement.expect == Expect::One {
                prepared.push(&self.prepare(guard_sql(index), &[])?.into());
            }
        }
        if prepared.length() == 0 {
            return Ok(());
        }
        // Through a session that starts on the primary (as without one), so
        // that its bookmark says where this batch stands in the history.
        let session = self.db.with_session(Some("first-primary")).map_err(|e| classify(&e))?;
        settle(session.session_batch(prepared)).await?;
        self.note_bookmark(session.get_bookmark().ok().flatten());
        Ok(())
    }

    /// One batch, `fence` first, in a session that may be answered by a
    /// replica (`first-unconstrained`), or by an instance at least as recent
    /// as the bookmark `after`. D1 says who answered (`meta.served_by_primary`).
    async fn query_near(&self, fence: Read, reads: Vec<Read>, after: Option<&str>) -> Result<NearRows, StoreError> {
        let session = self.db.with_session(Some(after.unwrap_or("first-unconstrained"))).map_err(|e| classify(&e))?;
        let prepared = Array::new();
        for read in std::iter::once(&fence).chain(&reads) {
            prepared.push(&Self::prepare_in(&session, read.sql, &read.params)?.into());
        }
        let results = settle(session.session_batch(prepared)).await?;
        // the clock after the I/O: Workers advance it at I/O, so never early
        let answered_at_ms = js_sys::Date::now() as i64;
        let results = results.dyn_into::<Array>().map_err(|_| StoreError::Backend("D1 batch results are not an array".into()))?;
        let by_primary = Reflect::get(&results.get(0), &JsValue::from_str("meta"))
            .and_then(|m| Reflect::get(&m, &JsValue::from_str("served_by_primary")))
            .ok()
            .and_then(|v| v.as_bool())
            == Some(true);
        let mut rows = batch_rows(&results)?;
        if rows.len() != reads.len() + 1 {
            return Err(StoreError::Backend("D1 batch answered another number of results".into()));
        }
        let fence = rows.remove(0);
        let from = if by_primary { ReadFrom::Primary } else { ReadFrom::Replica { fence, answered_at_ms } };
        Ok(NearRows { rows, from })
    }

    fn bookmark(&self) -> Option<String> {
        self.bookmark.borrow().clone()
    }

    async fn query_many(&self, reads: Vec<Read>) -> Result<Vec<Vec<Row>>, StoreError> {
        if reads.len() <= 1 {
            let mut out = Vec::new();
            for read in reads {
                out.push(self.query(read.sql, read.params).await?);
            }
            return Ok(out);
        }
        let prepared = Array::new();
        for read in &reads {
            prepared.push(&self.prepare(read.sql, &read.params)?.into());
        }
        let results = settle(self.db.batch(prepared)).await?;
        let results = results.dyn_into::<Array>().map_err(|_| StoreError::Backend("D1 batch results are not an array".into()))?;
        batch_rows(&results)
    }
}

/// The rows of each result of a D1 batch, in order.
fn batch_rows(results: &Array) -> Result<Vec<Vec<Row>>, StoreError> {
    let mut out = Vec::with_capacity(results.length() as usize);
    for result in results.iter() {
        let rows = Reflect::get(&result, &JsValue::from_str("results"))
            .ok()
            .and_then(|r| r.dyn_into::<Array>().ok())
            .ok_or_else(|| StoreError::Backend("D1 batch result has no rows".into()))?;
        out.push(rows.iter().map(|r| row_from_object(&r)).collect::<Result<Vec<_>, _>>()?);
    }
    Ok(out)
}
