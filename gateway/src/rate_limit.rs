//! Per-key request rate limiting over fixed one-minute windows.

use std::collections::HashMap;
use std::sync::Mutex;

const WINDOW_SECONDS: i64 = 60;

#[derive(Default)]
pub struct RateLimiter {
    windows: Mutex<HashMap<String, (i64, u32)>>,
}

#[cfg_attr(not(target_arch = "wasm32"), async_trait::async_trait)]
#[cfg_attr(target_arch = "wasm32", async_trait::async_trait(?Send))]
impl crate::ports::RateLimit for RateLimiter {
    async fn check(&self, key_id: &str, limit_per_minute: u32, now: i64) -> Result<(), u64> {
        self.count(key_id, limit_per_minute, now)
    }
}

impl RateLimiter {
    /// Counts one request; `Err(retry_after_seconds)` when the key is over its limit.
    pub fn count(&self, key_id: &str, limit_per_minute: u32, now: i64) -> Result<(), u64> {
        let window = now.div_euclid(WINDOW_SECONDS);
        let Ok(mut windows) = self.windows.lock() else {
            return Ok(());
        };
        if windows.len() > 100_000 {
            windows.retain(|_, (w, _)| *w == window);
        }
        let entry = windows.entry(key_id.to_string()).or_insert((window, 0));
        if entry.0 != window {
            *entry = (window, 0);
        }
        if entry.1 >= limit_per_minute {
            let retry = (window + 1) * WINDOW_SECONDS - now;
            return Err(u64::try_from(retry.max(1)).unwrap_or(1));
        }
        entry.1 += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_within_a_window_and_resets_after() {
        let l = RateLimiter::default();
        assert!(l.count("k", 2, 120).is_ok());
        assert!(l.count("k", 2, 130).is_ok());
        assert_eq!(l.count("k", 2, 170), Err(10));
        assert!(l.count("other", 2, 170).is_ok());
        assert!(l.count("k", 2, 180).is_ok());
    }
}
