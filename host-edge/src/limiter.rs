//! Per-key rate limits across every isolate: one Durable Object per key
//! counts its requests. A Durable Object runs one instance at a time, so
//! its count is strongly consistent; it counts with the same fixed-window
//! limiter as the native host. KV would be eventually consistent and too
//! slow to write.
//!
//! An isolate does not ask the key's object for every request: it takes a
//! lease of requests from it (1/40 of the limit, at least one: 25 of the
//! production default of 1,000 a minute) and counts within the lease in
//! memory, as the Postgres limiter does with its shared counter
//! (docs/decisions.md, "Rate limit"). No two isolates can together pass the
//! limit; a key may fall short of it by at most one unused lease per isolate
//! at the end of a window. Once the object refuses a lease, the isolate
//! knows the key is out until the window ends and asks no more.
//!
//! `peek` (the flood gate before authentication) asks nothing: it answers
//! from what this isolate knows, out once the object refused one of its
//! counts. A source's failures are counted on its object one at a time (a
//! lease of one: the gate's limit is small), so the isolate that sees a flood
//! learns within one failure that the source is out, and refuses it from
//! then on before any store read; a request with a good key makes no call.

use std::cell::RefCell;
use std::collections::HashMap;

use gateway::ports::{RateLimit, RateState};
use gateway::rate_limit::RateLimiter;
use worker::{durable_object, Env, Request, Response, State};

/// The Durable Object of one key.
#[durable_object]
pub struct KeyRateLimiter {
    limiter: RateLimiter,
}

impl worker::DurableObject for KeyRateLimiter {
    fn new(_state: State, _env: Env) -> Self {
        KeyRateLimiter { limiter: RateLimiter::default() }
    }

    /// `GET /?key=K&limit=N&now=T[&lease=L]` counts up to L requests (one
    /// unless given) and answers the key's state and how many it granted;
    /// `&peek=1` counts none.
    async fn fetch(&self, request: Request) -> worker::Result<Response> {
        let url = request.url()?;
        let param = |name: &str| url.query_pairs().find(|(k, _)| k == name).map(|(_, v)| v.into_owned());
        let key = param("key").unwrap_or_default();
        let limit = param("limit").and_then(|v| v.parse::<u32>().ok()).unwrap_or(0);
        let now = param("now").and_then(|v| v.parse::<i64>().ok()).unwrap_or(0);
        let lease = param("lease").and_then(|v| v.parse::<u32>().ok()).unwrap_or(1).clamp(1, limit.max(1));
        let (s, granted) = match param("peek").as_deref() {
            Some("1") => (self.limiter.state_of(&key, limit, now), 0),
            _ => {
                let mut state = self.limiter.count(&key, limit, now);
                let mut granted = u32::from(state.allowed);
                while state.allowed && granted < lease {
                    let next = self.limiter.count(&key, limit, now);
                    if !next.allowed {
                        break;
                    }
                    state = next;
                    granted += 1;
                }
                (state, granted)
            }
        };
        Response::ok(format!("{} {} {} {} {} {granted}", u8::from(granted > 0 || s.allowed), s.limit, s.window_seconds, s.remaining, s.reset_seconds))
    }
}

/// The share of a key's limit an isolate reserves at once.
const LEASE_DIVISOR: u32 = 40;

/// What this isolate holds of a key's window.
#[derive(Debug, Clone, Copy)]
struct Lease {
    /// unix second at which the window ends
    window_end: i64,
    limit: u32,
    /// granted and not yet used
    left: u32,
    /// the object's remaining count when it granted the lease
    remaining_after: u32,
    /// the object refused: the key is out until `window_end`
    refused: bool,
}

impl Lease {
    fn state(&self, allowed: bool, now: i64) -> RateState {
        RateState {
            allowed,
            limit: self.limit,
            window_seconds: 60,
            remaining: if self.refused { 0 } else { self.remaining_after.saturating_add(self.left) },
            reset_seconds: u64::try_from((self.window_end - now).max(1)).unwrap_or(1),
        }
    }
}

/// The gateway's limiter port, backed by the key's Durable Object.
pub struct DurableRateLimit {
    pub env: Env,
    leases: RefCell<HashMap<String, Lease>>,
}

/// Leases kept at most; past it, ended windows go, then all.
const LEASES_MAX: usize = 10_000;

impl DurableRateLimit {
    pub fn new(env: Env) -> Self {
        DurableRateLimit { env, leases: RefCell::new(HashMap::new()) }
    }

    /// One request counted from this isolate's lease, if it holds one for the window.
    fn take_from_lease(&self, key_id: &str, limit: u32, now: i64) -> Option<RateState> {
        let mut leases = self.leases.borrow_mut();
        let lease = leases.get_mut(key_id).filter(|l| l.limit == limit && now < l.window_end)?;
        if lease.refused {
            return Some(lease.state(false, now));
        }
        if lease.left == 0 {
            return None;
        }
        lease.left -= 1;
        Some(lease.state(true, now))
    }

    fn keep(&self, key_id: &str, lease: Lease, now: i64) {
        let mut leases = self.leases.borrow_mut();
        if leases.len() >= LEASES_MAX {
            leases.retain(|_, l| now < l.window_end);
            if leases.len() >= LEASES_MAX {
                leases.clear();
            }
        }
        leases.insert(key_id.to_string(), lease);
    }
}

#[async_trait::async_trait(?Send)]
impl RateLimit for DurableRateLimit {
    async fn check(&self, key_id: &str, limit_per_minute: u32, now: i64) -> RateState {
        if let Some(state) = self.take_from_lease(key_id, limit_per_minute, now) {
            return state;
        }
        let size = (limit_per_minute / LEASE_DIVISOR).max(1);
        match self.ask(key_id, limit_per_minute, now, size).await {
            Ok((state, granted)) => {
                let window_end = now.saturating_add(i64::try_from(state.reset_seconds).unwrap_or(60));
                // A concurrent request of this isolate may have taken a lease
                // meanwhile: its unused requests are added, not lost.
                let held = self.leases.borrow().get(key_id).filter(|l| l.window_end == window_end && !l.refused).map_or(0, |l| l.left);
                let lease = Lease {
                    window_end,
                    limit: limit_per_minute,
                    left: held.saturating_add(granted.saturating_sub(1)),
                    remaining_after: state.remaining,
                    refused: granted == 0,
                };
                self.keep(key_id, lease, now);
                lease.state(granted > 0, now)
            }
            Err(e) => {
                // The limiter protects the service, not the player: when it
                // cannot be reached the request goes on, and the failure is logged.
                worker::console_error!("rate limiter unavailable: {e}");
                RateState { allowed: true, limit: limit_per_minute, window_seconds: 60, remaining: limit_per_minute, reset_seconds: 60 }
            }
        }
    }

    /// Asks nothing: out only once this isolate saw the object refuse.
    async fn peek(&self, key_id: &str, limit_per_minute: u32, now: i64) -> RateState {
        let leases = self.leases.borrow();
        match leases.get(key_id).filter(|l| l.limit == limit_per_minute && now < l.window_end) {
            Some(lease) => lease.state(!lease.refused, now),
            None => RateState {
                allowed: true,
                limit: limit_per_minute,
                window_seconds: 60,
                remaining: limit_per_minute,
                reset_seconds: u64::try_from((60 - now.rem_euclid(60)).max(1)).unwrap_or(60),
            },
        }
    }
}

impl DurableRateLimit {
    /// Counts up to `lease` requests on the key's object: its state and how many it granted.
    async fn ask(&self, key_id: &str, limit: u32, now: i64, lease: u32) -> worker::Result<(RateState, u32)> {
        let stub = self.env.durable_object("RATE_LIMITER")?.id_from_name(key_id)?.get_stub()?;
        let url = format!("https://limiter/?key={key_id}&limit={limit}&now={now}&lease={lease}");
        let mut response = stub.fetch_with_str(&url).await?;
        let text = response.text().await?;
        let fields: Vec<u64> = text.split(' ').filter_map(|f| f.parse().ok()).collect();
        match fields[..] {
            [allowed, limit, window, remaining, reset, granted] => Ok((
                RateState {
                    allowed: allowed == 1,
                    limit: u32::try_from(limit).unwrap_or(u32::MAX),
                    window_seconds: u32::try_from(window).unwrap_or(60),
                    remaining: u32::try_from(remaining).unwrap_or(0),
                    reset_seconds: reset,
                },
                u32::try_from(granted).unwrap_or(0),
            )),
            _ => Err(worker::Error::RustError(format!("unexpected limiter answer {text:?}"))),
        }
    }
}
