//! Counted round trips: decorators over the [`Store`] and [`RateLimit`]
//! ports that count what a request asks of them, so that tests can pin the
//! store calls and statements of each hot route (issue #30). Every call of
//! a store is one round trip whatever the backend (one `query`, one
//! `query_many` or one `batch`); the statements are what the backend runs.
//! The edge host counts its own bindings in its measuring entry
//! (`host-edge/js/measure.mjs`); this is the core's part of the count.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::ports::{NearRows, RateLimit, RateState, Read, Row, Stmt, Store, StoreError, Value};

/// What a [`CountingStore`] and a [`CountingRateLimit`] have seen since
/// they were made or last [`Trips::reset`]. Shared: clone it into both
/// decorators and read it from the test.
#[derive(Debug, Default)]
pub struct Trips {
    queries: AtomicU64,
    query_manys: AtomicU64,
    batches: AtomicU64,
    read_statements: AtomicU64,
    write_statements: AtomicU64,
    limiter_checks: AtomicU64,
    limiter_peeks: AtomicU64,
}

/// A copy of the counters at one moment.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TripCounts {
    /// single reads (`Store::query`, `scalar`)
    pub queries: u64,
    /// grouped reads (`Store::query_many`), one round trip each
    pub query_manys: u64,
    /// atomic write batches (`Store::batch`), one round trip each
    pub batches: u64,
    /// the SQL statements of the reads
    pub read_statements: u64,
    /// the SQL statements of the batches
    pub write_statements: u64,
    /// counted rate-limit calls (`RateLimit::check`)
    pub limiter_checks: u64,
    /// uncounted rate-limit calls (`RateLimit::peek`, the flood gate)
    pub limiter_peeks: u64,
}

impl TripCounts {
    /// Store round trips: every call of the store.
    pub fn store_trips(&self) -> u64 {
        self.queries + self.query_manys + self.batches
    }
    /// Every statement run.
    pub fn statements(&self) -> u64 {
        self.read_statements + self.write_statements
    }
    /// Limiter round trips (a shared limiter is a network call each).
    pub fn limiter_trips(&self) -> u64 {
        self.limiter_checks + self.limiter_peeks
    }
}

impl Trips {
    pub fn new() -> Arc<Self> {
        Arc::new(Trips::default())
    }
    pub fn counts(&self) -> TripCounts {
        let get = |c: &AtomicU64| c.load(Ordering::SeqCst);
        TripCounts {
            queries: get(&self.queries),
            query_manys: get(&self.query_manys),
            batches: get(&self.batches),
            read_statements: get(&self.read_statements),
            write_statements: get(&self.write_statements),
            limiter_checks: get(&self.limiter_checks),
            limiter_peeks: get(&self.limiter_peeks),
        }
    }
    pub fn reset(&self) {
        for c in [
            &self.queries,
            &self.query_manys,
            &self.batches,
            &self.read_statements,
            &self.write_statements,
            &self.limiter_checks,
            &self.limiter_peeks,
        ] {
            c.store(0, Ordering::SeqCst);
        }
    }
    fn add(counter: &AtomicU64, n: usize) {
        counter.fetch_add(u64::try_from(n).unwrap_or(u64::MAX), Ordering::SeqCst);
    }
}

/// A store that counts every call and statement before passing it on.
pub struct CountingStore {
    inner: Box<dyn Store>,
    trips: Arc<Trips>,
}

impl CountingStore {
    pub fn new(inner: Box<dyn Store>, trips: Arc<Trips>) -> Self {
        CountingStore { inner, trips }
    }
}

#[cfg_attr(not(target_arch = "wasm32"), async_trait::async_trait)]
#[cfg_attr(target_arch = "wasm32", async_trait::async_trait(?Send))]
impl Store for CountingStore {
    async fn query(&self, sql: &'static str, params: Vec<Value>) -> Result<Vec<Row>, StoreError> {
        Trips::add(&self.trips.queries, 1);
        Trips::add(&self.trips.read_statements, 1);
        self.inner.query(sql, params).await
    }
    async fn batch(&self, statements: Vec<Stmt>) -> Result<(), StoreError> {
        Trips::add(&self.trips.batches, 1);
        Trips::add(&self.trips.write_statements, statements.len());
        self.inner.batch(statements).await
    }
    async fn query_many(&self, reads: Vec<Read>) -> Result<Vec<Vec<Row>>, StoreError> {
        Trips::add(&self.trips.query_manys, 1);
        Trips::add(&self.trips.read_statements, reads.len());
        self.inner.query_many(reads).await
    }
    async fn query_near(&self, fence: Read, reads: Vec<Read>, after: Option<&str>) -> Result<NearRows, StoreError> {
        // one trip; a store with one database runs `reads` alone (the fence is a replica's)
        Trips::add(&self.trips.query_manys, 1);
        Trips::add(&self.trips.read_statements, reads.len());
        self.inner.query_near(fence, reads, after).await
    }
    async fn refresh_statistics(&self, tables: &[&'static str]) -> Result<(), StoreError> {
        self.inner.refresh_statistics(tables).await
    }
    fn bookmark(&self) -> Option<String> {
        self.inner.bookmark()
    }
    fn connections(&self) -> Option<(usize, usize)> {
        self.inner.connections()
    }
}

/// A rate limiter that counts every call before passing it on.
pub struct CountingRateLimit {
    inner: Box<dyn RateLimit>,
    trips: Arc<Trips>,
}

impl CountingRateLimit {
    pub fn new(inner: Box<dyn RateLimit>, trips: Arc<Trips>) -> Self {
        CountingRateLimit { inner, trips }
    }
}

#[cfg_attr(not(target_arch = "wasm32"), async_trait::async_trait)]
#[cfg_attr(target_arch = "wasm32", async_trait::async_trait(?Send))]
impl RateLimit for CountingRateLimit {
    async fn check(&self, key_id: &str, limit_per_minute: u32, now: i64) -> RateState {
        Trips::add(&self.trips.limiter_checks, 1);
        self.inner.check(key_id, limit_per_minute, now).await
    }
    async fn peek(&self, key_id: &str, limit_per_minute: u32, now: i64) -> RateState {
        Trips::add(&self.trips.limiter_peeks, 1);
        self.inner.peek(key_id, limit_per_minute, now).await
    }
}
