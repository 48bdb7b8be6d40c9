//! Point reads: the operators' API reads a few rows at a time, where the
//! admin routes, the console and background work (sweeps, re-screens,
//! backtests, list loads) may read many. The server marks a request of the
//! operators' API; each store takes its fast path for those reads only
//! (SQLite on the calling thread, Postgres on a shared pipelined
//! connection), and keeps long reads off it.

tokio::task_local! {
    static POINT_READS: ();
}

/// Runs `future` with its reads marked as point reads.
pub async fn point_reads<F: std::future::Future>(future: F) -> F::Output {
    POINT_READS.scope((), future).await
}

/// Whether the running task's reads are point reads.
pub fn marked() -> bool {
    POINT_READS.try_with(|_| ()).is_ok()
}
