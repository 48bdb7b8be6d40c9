//! Per-key request rate limiting over fixed one-minute windows: in the
//! process (one host), or in the store that several hosts share.

pub mod store;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::ports::{RateState, Store, StoreError};

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
/// minute gets at most N across all of them. A host reserves requests from
/// the shared counter in leases of 1% of the limit (one conditional upsert
/// that no two hosts can both win past the limit) and counts within its lease
/// in memory, so a busy key costs the database one write per lease, not per
/// request. The price: near the end of a window, requests another host
/// reserved but did not use are refused here, at most a lease per host.
pub struct StoreRateLimit {
    store: Box<dyn Store>,
    leases: Mutex<HashMap<String, Lease>>,
    /// One reservation of a key at a time per host: a burst waits for the
    /// lease in flight instead of reserving a lease per request.
    reserving: Mutex<HashMap<String, Arc<futures_util::lock::Mutex<()>>>>,
}

/// What this host holds of a key's window.
#[derive(Debug, Clone, Copy)]
struct Lease {
    window: i64,
    /// requests reserved in the shared counter by this host
    granted: u32,
    /// of those, the ones used
    used: u32,
    /// the shared counter at the last reservation, all hosts together
    shared_used: u32,
    /// the shared counter refused a reservation: the key is out for the window
    exhausted: bool,
}

impl Lease {
    fn state(&self, allowed: bool, limit_per_minute: u32, now: i64) -> RateState {
        // requests admitted so far, as far as this host knows
        let admitted = self.shared_used.saturating_sub(self.granted.saturating_sub(self.used));
        state_after(admitted, allowed, limit_per_minute, now)
    }
}

impl StoreRateLimit {
    pub fn new(store: Box<dyn Store>) -> Self {
        StoreRateLimit { store, leases: Mutex::new(HashMap::new()), reserving: Mutex::new(HashMap::new()) }
    }

    /// Counts one request within this host's lease, if it has one for `window`.
    fn within_lease(&self, key_id: &str, window: i64, limit_per_minute: u32, now: i64) -> Option<RateState> {
        let mut leases = self.leases.lock().ok()?;
        let lease = leases.get_mut(key_id).filter(|l| l.window == window)?;
        if lease.used < lease.granted {
            lease.used += 1;
            return Some(lease.state(true, limit_per_minute, now));
        }
        lease.exhausted.then(|| lease.state(false, limit_per_minute, now))
    }

    /// Reserves `size` requests in the shared counter; `Ok(Some(counter))` when granted.
    async fn reserve(&self, key_id: &str, window_start: i64, size: u32, limit_per_minute: u32) -> Result<Option<u32>, StoreError> {
        let reserve = store::reserve(key_id, window_start, i64::from(size), i64::from(limit_per_minute));
        match self.store.batch(vec![reserve]).await {
            Ok(()) => {}
            Err(StoreError::Conflict { .. }) => return Ok(None),
            Err(e) => return Err(e),
        }
        let used = store::used(self.store.as_ref(), key_id, window_start).await?.unwrap_or(i64::from(size));
        Ok(Some(u32::try_from(used).unwrap_or(u32::MAX)))
    }

    /// The lock that orders this host's reservations of `key_id`.
    fn reservation_turn(&self, key_id: &str) -> Option<Arc<futures_util::lock::Mutex<()>>> {
        let mut locks = self.reserving.lock().ok()?;
        if locks.len() > 100_000 {
            locks.retain(|_, lock| Arc::strong_count(lock) > 1);
        }
        Some(locks.entry(key_id.to_string()).or_default().clone())
    }

    fn record(&self, key_id: &str, window: i64, granted: Option<(u32, u32)>) -> Option<Lease> {
        let mut leases = self.leases.lock().ok()?;
        if leases.len() > 100_000 {
            leases.retain(|_, l| l.window == window);
        }
        let lease = leases.entry(key_id.to_string()).or_insert(Lease { window, granted: 0, used: 0, shared_used: 0, exhausted: false });
        if lease.window != window {
            *lease = Lease { window, granted: 0, used: 0, shared_used: 0, exhausted: false };
        }
        match granted {
            Some((size, shared_used)) => {
                lease.granted += size;
                lease.used += 1;
                lease.shared_used = shared_used;
            }
            None => lease.exhausted = true,
        }
        Some(*lease)
    }
}

#[cfg_attr(not(target_arch = "wasm32"), async_trait::async_trait)]
#[cfg_attr(target_arch = "wasm32", async_trait::async_trait(?Send))]
impl crate::ports::RateLimit for StoreRateLimit {
    async fn check(&self, key_id: &str, limit_per_minute: u32, now: i64) -> RateState {
        let window = now.div_euclid(WINDOW_SECONDS);
        if let Some(state) = self.within_lease(key_id, window, limit_per_minute, now) {
            return state;
        }
        let Some(turn) = self.reservation_turn(key_id) else { return state_after(0, true, limit_per_minute, now) };
        let _turn = turn.lock().await;
        // the reservation this request waited for may have left room
        if let Some(state) = self.within_lease(key_id, window, limit_per_minute, now) {
            return state;
        }
        let lease_size = (limit_per_minute / 100).max(1);
        // a full lease, or the last few requests of the window one at a time
        let sizes: &[u32] = if lease_size > 1 { &[lease_size, 1] } else { &[1] };
        for &size in sizes {
            match self.reserve(key_id, window * WINDOW_SECONDS, size, limit_per_minute).await {
                Ok(Some(shared_used)) => {
                    let lease = self.record(key_id, window, Some((size, shared_used)));
                    return lease.map_or(state_after(shared_used, true, limit_per_minute, now), |l| l.state(true, limit_per_minute, now));
                }
                Ok(None) => continue,
                // A store that cannot count cannot serve the request either; the
                // request fails on its own reads rather than here.
                Err(_) => return state_after(0, true, limit_per_minute, now),
            }
        }
        self.record(key_id, window, None);
        state_after(limit_per_minute, false, limit_per_minute, now)
    }

    /// What this host knows, without a read: out when its last reservation was refused.
    async fn peek(&self, key_id: &str, limit_per_minute: u32, now: i64) -> RateState {
        let window = now.div_euclid(WINDOW_SECONDS);
        let lease = self.leases.lock().ok().and_then(|l| l.get(key_id).copied()).filter(|l| l.window == window);
        match lease {
            Some(l) => l.state(!(l.exhausted && l.used >= l.granted), limit_per_minute, now),
            None => state_after(0, true, limit_per_minute, now),
        }
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
