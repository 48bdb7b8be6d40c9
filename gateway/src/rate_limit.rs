//! Per-key request rate limiting over fixed one-minute windows.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::ports::RateState;

const WINDOW_SECONDS: i64 = 60;

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
        let reset_seconds = u64::try_from(((window + 1) * WINDOW_SECONDS - now).max(1)).unwrap_or(1);
        RateState {
            allowed: used < limit_per_minute,
            limit: limit_per_minute,
            window_seconds: WINDOW_SECONDS as u32,
            remaining: limit_per_minute.saturating_sub(used),
            reset_seconds,
        }
    }

    /// Counts one request and says where the key stands in its window.
    pub fn count(&self, key_id: &str, limit_per_minute: u32, now: i64) -> RateState {
        let window = now.div_euclid(WINDOW_SECONDS);
        let reset_seconds = u64::try_from(((window + 1) * WINDOW_SECONDS - now).max(1)).unwrap_or(1);
        let state = |allowed: bool, used: u32| RateState {
            allowed,
            limit: limit_per_minute,
            window_seconds: WINDOW_SECONDS as u32,
            remaining: limit_per_minute.saturating_sub(used),
            reset_seconds,
        };
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
