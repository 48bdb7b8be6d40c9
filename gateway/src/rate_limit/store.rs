//! The shared rate-limit counters: per key and minute, in the store that
//! several hosts share.

use crate::ports::{Stmt, Store, StoreError};

/// Reserves `size` requests of a key's window, unless that would pass `limit`.
pub fn reserve(key_id: &str, window_start: i64, size: i64, limit: i64) -> Stmt {
    Stmt::expect_one(
        "INSERT INTO rate_windows (key_id, window_start, used) VALUES (?1, ?2, ?3)
         ON CONFLICT (key_id, window_start) DO UPDATE SET used = rate_windows.used + ?3 WHERE rate_windows.used + ?3 <= ?4",
        vec![key_id.into(), window_start.into(), size.into(), limit.into()],
    )
}

/// How much of a key's window is reserved.
pub async fn used(store: &dyn Store, key_id: &str, window_start: i64) -> Result<Option<i64>, StoreError> {
    let rows = store.query("SELECT used FROM rate_windows WHERE key_id = ?1 AND window_start = ?2", vec![key_id.into(), window_start.into()]).await?;
    rows.first().map(|r| r.int(0)).transpose()
}

/// Gives back `size` reservations of a key's window (an attempt that turned out good).
pub fn release(key_id: &str, window_start: i64, size: i64) -> Stmt {
    Stmt::new(
        "UPDATE rate_windows SET used = used - ?3 WHERE key_id = ?1 AND window_start = ?2 AND used >= ?3",
        vec![key_id.into(), window_start.into(), size.into()],
    )
}

/// Starts a key's window count again.
pub fn clear(key_id: &str, window_start: i64) -> Stmt {
    Stmt::new("UPDATE rate_windows SET used = 0 WHERE key_id = ?1 AND window_start = ?2", vec![key_id.into(), window_start.into()])
}
