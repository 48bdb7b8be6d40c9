//! Per-key request rate limiting over fixed one-minute windows: in the
//! process (one host), or in the store that several hosts share.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::ports::{RateState, Stmt, Store, StoreError};

const WINDOW_SECONDS: i64 = 60;

/// Where a key stands after `used` requests of the window holding `now`.
fn state_after(used: u32, allowed: bool, limit_per_minute: u32, now: i64) -> RateState {
    let window = now.div_euclid(WINDOW_SECONDS);
    RateState {
        allowed,
        limit: limit_per_minute,
        window_seconds: WINDOW_SECONDS as u32,
        remaining: limit_per_minute.saturating_sub(used),
        reset_seconds: u64::try_from(((window + 1) * WINDOW_SECONDS - now).max(1)).unwrap_or(1),
    }
}

/// The counter of several hosts on one database: a key limited to N a
/// minute gets N across all of them. A request is counted by one
/// conditional upsert, which no two hosts can both win past the limit.
pub struct StoreRateLimit {
    store: Box<dyn Store>,
}

impl StoreRateLimit {
    pub fn new(store: Box<dyn Store>) -> Self {
        StoreRateLimit { store }
    }

    async fn used(&self, key_id: &str, window_start: i64) -> Result<u32, StoreError> {
        let rows = self
            .store
            .query("SELECT used FROM rate_windows WHERE key_id = ?1 AND window_start = ?2", vec![key_id.into(), window_start.into()])
            .await?;
        let used = rows.first().map(|r| r.int(0)).transpose()?.unwrap_or(0);
        Ok(u32::try_from(used).unwrap_or(u32::MAX))
    }
}

#[cfg_attr(not(target_arch = "wasm32"), async_trait::async_trait)]
#[cfg_attr(target_arch = "wasm32", async_trait::async_trait(?Send))]
impl crate::ports::RateLimit for StoreRateLimit {
    async fn check(&self, key_id: &str, limit_per_minute: u32, now: i64) -> RateState {
        let window_start = now.div_euclid(WINDOW_SECONDS) * WINDOW_SECONDS;
        let count = Stmt::expect_one(
            "INSERT INTO rate_windows (key_id, window_start, used) VALUES (?1, ?2, 1)
             ON CONFLICT (key_id, window_start) DO UPDATE SET used = rate_windows.used + 1 WHERE rate_windows.used < ?3",
            vec![key_id.into(), window_start.into(), i64::from(limit_per_minute).into()],
        );
        match self.store.batch(vec![count]).await {
            Ok(()) => {
                let used = self.used(key_id, window_start).await.unwrap_or(1).min(limit_per_minute);
                state_after(used, true, limit_per_minute, now)
            }
            Err(StoreError::Conflict { .. }) => state_after(limit_per_minute, false, limit_per_minute, now),
            // A store that cannot count cannot serve the request either; the
            // request fails on its own reads rather than here.
            Err(_) => state_after(0, true, limit_per_minute, now),
        }
    }

    async fn peek(&self, key_id: &str, limit_per_minute: u32, now: i64) -> RateState {
        let window_start = now.div_euclid(WINDOW_SECONDS) * WINDOW_SECONDS;
        let used = self.used(key_id, window_start).await.unwrap_or(0);
        state_after(used, used < limit_per_minute, limit_per_minute, now)
    }
}

#[derive(Default)]
pub struct RateLimiter {
    windows: Mutex<HashMap<String, (i64, u32)>>,
}

#[cfg_attr(not(target_arch = "wasm32"), async_trait::async_trait)]
#[cfg_attr(target_arch = "wasm32", async_trait::async_trait(?Send))]
impl crate::ports::RateLimit for RateLimiter {
    async fn check(&self, key_id: &str, limit_per_minute: u32, now: i64) -> RateState {
        self.count(key_id, limit_per_minute, now)
    }
    async fn peek(&self, key_id: &str, limit_per_minute: u32, now: i64) -> RateState {
        self.state_of(key_id, limit_per_minute, now)
    }
}

impl RateLimiter {
    /// Where the key stands in its window, without counting a request.
    pub fn state_of(&self, key_id: &str, limit_per_minute: u32, now: i64) -> RateState {
        let window = now.div_euclid(WINDOW_SECONDS);
        let used = self.windows.lock().ok().and_then(|w| w.get(key_id).filter(|(w, _)| *w == window).map(|(_, used)| *used)).unwrap_or(0);
        state_after(used, used < limit_per_minute, limit_per_minute, now)
    }

    /// Counts one request and says where the key stands in its window.
    pub fn count(&self, key_id: &str, limit_per_minute: u32, now: i64) -> RateState {
        let window = now.div_euclid(WINDOW_SECONDS);
        let state = |allowed: bool, used: u32| state_after(used, allowed, limit_per_minute, now);
        let Ok(mut windows) = self.windows.lock() else {
            return state(true, 0);
        };
        if windows.len() > 100_000 {
            windows.retain(|_, (w, _)| *w == window);
        }
        let entry = windows.entry(key_id.to_string()).or_insert((window, 0));
        if entry.0 != window {
            *entry = (window, 0);
        }
        if entry.1 >= limit_per_minute {
            return state(false, entry.1);
        }
        entry.1 += 1;
        state(true, entry.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_within_a_window_and_resets_after() {
        let l = RateLimiter::default();
        let first = l.count("k", 2, 120);
        assert!(first.allowed);
        assert_eq!((first.limit, first.remaining, first.reset_seconds, first.window_seconds), (2, 1, 60, 60));
        assert_eq!(l.count("k", 2, 130).remaining, 0);
        let over = l.count("k", 2, 170);
        assert!(!over.allowed);
        assert_eq!((over.remaining, over.reset_seconds), (0, 10));
        assert!(l.count("other", 2, 170).allowed);
        assert!(l.count("k", 2, 180).allowed);
    }
}
