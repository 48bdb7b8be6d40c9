//! Migrations off the request path (issue #30). The schema is applied by
//! scheduled work (the cron trigger and the dispatcher's rounds) and, should
//! a Worker find it behind, by that Worker once; a request never pays for
//! `CREATE TABLE IF NOT EXISTS` again. What each isolate does instead is
//! assert the schema version inside its first read: the version read rides
//! in the same D1 batch as the read, so a new isolate makes no extra trip.
//! A schema that is behind (or absent: the batch fails on a missing table)
//! is migrated, and the read sent again.
//!
//! The same store remembers that the request committed a write (a batch
//! other than the decision log's flush, which goes through a fence without
//! the flag), so that only a request that committed work wakes the dispatcher.

use std::cell::Cell;
use std::rc::Rc;

use gateway::ports::{NearRows, Read, ReadFrom, Row, Stmt, Store, StoreError, Value};

use crate::store_d1::D1Store;

thread_local! {
    /// Whether this isolate has seen the schema at the version it was built for.
    static SCHEMA_CURRENT: Cell<bool> = const { Cell::new(false) };
}

const VERSION_READ: &str = "SELECT COALESCE(MAX(version), 0) AS schema_version FROM schema_versions";

/// The version this build's schema reaches.
fn latest_version() -> i64 {
    i64::try_from(gateway::schema::VERSIONS.len()).unwrap_or(i64::MAX)
}

fn is_current() -> bool {
    SCHEMA_CURRENT.with(Cell::get)
}

pub struct FencedStore {
    inner: D1Store,
    /// set when a batch commits; `None` for the decision log's store
    committed: Option<Rc<Cell<bool>>>,
}

impl FencedStore {
    pub fn new(inner: D1Store, committed: Option<Rc<Cell<bool>>>) -> Self {
        FencedStore { inner, committed }
    }

    /// Reads the version alone (a write comes first, or a read whose columns
    /// a batch could not carry), and migrates when it is behind.
    async fn assert_alone(&self) -> Result<(), StoreError> {
        let version = self.inner.query(VERSION_READ, Vec::new()).await.ok().and_then(|rows| version_of(&rows));
        if version.is_some_and(|v| v >= latest_version()) {
            SCHEMA_CURRENT.with(|c| c.set(true));
            return Ok(());
        }
        self.bring_up().await
    }

    /// Applies the schema (the guard table first): what a deploy's first
    /// scheduled round does, here because this isolate found it behind.
    async fn bring_up(&self) -> Result<(), StoreError> {
        self.inner.create_guard_table().await?;
        gateway::schema::migrate(&self.inner).await?;
        SCHEMA_CURRENT.with(|c| c.set(true));
        Ok(())
    }

    /// The reads, with the version read in front of them in one batch.
    async fn fenced_reads(&self, reads: Vec<Read>) -> Result<Vec<Vec<Row>>, StoreError> {
        let mut all = Vec::with_capacity(reads.len() + 1);
        all.push(Read::new(VERSION_READ, Vec::new()));
        all.extend(reads.iter().cloned());
        if let Ok(mut results) = self.inner.query_many(all).await {
            if results.len() == reads.len() + 1 && version_of(&results.remove(0)).is_some_and(|v| v >= latest_version()) {
                SCHEMA_CURRENT.with(|c| c.set(true));
                return Ok(results);
            }
        }
        // behind, absent, or a read that failed on its own: migrate (a no-op
        // when current) and send the reads again, which then fail as they will
        self.bring_up().await?;
        self.inner.query_many(reads).await
    }
}

fn version_of(rows: &[Row]) -> Option<i64> {
    rows.first().and_then(|r| r.int(0).ok())
}

/// Whether the columns a SELECT answers have distinct names, so that a
/// batch (whose rows come back as objects keyed by column name) carries
/// them all. Unsure (`*`, no plain select list) is no.
fn distinct_columns(sql: &str) -> bool {
    let upper = sql.to_ascii_uppercase();
    let Some(start) = upper.find("SELECT ").map(|i| i + 7) else { return false };
    let bytes = upper.as_bytes();
    let (mut depth, mut end) = (0i32, None);
    for (i, byte) in bytes.iter().enumerate().skip(start) {
        match byte {
            b'(' => depth += 1,
            b')' => depth -= 1,
            _ => {}
        }
        let word = bytes[i..].starts_with(b"FROM") && bytes.get(i + 4).is_some_and(u8::is_ascii_whitespace);
        if depth == 0 && word && bytes[i - 1].is_ascii_whitespace() {
            end = Some(i);
            break;
        }
    }
    let Some(end) = end else { return false };
    let Some(list) = upper.get(start..end) else { return false };
    let (mut names, mut depth, mut item) = (Vec::new(), 0i32, String::new());
    for ch in list.chars().chain(std::iter::once(',')) {
        match ch {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                let name = item.split(|c: char| c.is_whitespace() || c == '.').rfind(|t| !t.is_empty()).unwrap_or_default().to_string();
                if name.is_empty() || name.contains('*') || name.contains(')') {
                    return false;
                }
                names.push(name);
                item.clear();
                continue;
            }
            _ => {}
        }
        item.push(ch);
    }
    let count = names.len();
    names.sort();
    names.dedup();
    names.len() == count
}

#[async_trait::async_trait(?Send)]
impl Store for FencedStore {
    async fn query(&self, sql: &'static str, params: Vec<Value>) -> Result<Vec<Row>, StoreError> {
        if is_current() {
            return self.inner.query(sql, params).await;
        }
        if !distinct_columns(sql) {
            self.assert_alone().await?;
            return self.inner.query(sql, params).await;
        }
        let mut results = self.fenced_reads(vec![Read::new(sql, params)]).await?;
        Ok(results.pop().unwrap_or_default())
    }

    async fn batch(&self, statements: Vec<Stmt>) -> Result<(), StoreError> {
        if !is_current() {
            self.assert_alone().await?;
        }
        let written = !statements.is_empty();
        self.inner.batch(statements).await?;
        if let (true, Some(flag)) = (written, &self.committed) {
            flag.set(true);
        }
        Ok(())
    }

    async fn query_many(&self, reads: Vec<Read>) -> Result<Vec<Vec<Row>>, StoreError> {
        if is_current() || reads.is_empty() {
            return self.inner.query_many(reads).await;
        }
        self.fenced_reads(reads).await
    }

    /// Near reads (the exclusion check's replica session) once the schema
    /// is asserted; before that, the reads go through the fence to the primary.
    async fn query_near(&self, fence: Read, reads: Vec<Read>, after: Option<&str>) -> Result<NearRows, StoreError> {
        if is_current() {
            return self.inner.query_near(fence, reads, after).await;
        }
        Ok(NearRows { rows: self.fenced_reads(reads).await?, from: ReadFrom::Primary })
    }

    async fn refresh_statistics(&self, tables: &[&'static str]) -> Result<(), StoreError> {
        self.inner.refresh_statistics(tables).await
    }

    fn bookmark(&self) -> Option<String> {
        self.inner.bookmark()
    }
}
