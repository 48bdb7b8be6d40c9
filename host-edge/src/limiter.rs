//! Per-key rate limits across every isolate: one Durable Object per key
//! counts its requests. A Durable Object runs one instance at a time, so
//! its count is strongly consistent; it counts with the same fixed-window
//! limiter as the native host. KV would be eventually consistent and too
//! slow to write.

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

    /// `GET /?key=K&limit=N&now=T` counts one request and answers the key's state.
    async fn fetch(&self, request: Request) -> worker::Result<Response> {
        let url = request.url()?;
        let param = |name: &str| url.query_pairs().find(|(k, _)| k == name).map(|(_, v)| v.into_owned());
        let key = param("key").unwrap_or_default();
        let limit = param("limit").and_then(|v| v.parse::<u32>().ok()).unwrap_or(0);
        let now = param("now").and_then(|v| v.parse::<i64>().ok()).unwrap_or(0);
        let s = match param("peek").as_deref() {
            Some("1") => self.limiter.state_of(&key, limit, now),
            _ => self.limiter.count(&key, limit, now),
        };
        Response::ok(format!("{} {} {} {} {}", u8::from(s.allowed), s.limit, s.window_seconds, s.remaining, s.reset_seconds))
    }
}

/// The gateway's limiter port, backed by the key's Durable Object.
pub struct DurableRateLimit {
    pub env: Env,
}

#[async_trait::async_trait(?Send)]
impl RateLimit for DurableRateLimit {
    async fn check(&self, key_id: &str, limit_per_minute: u32, now: i64) -> RateState {
        self.answer(key_id, limit_per_minute, now, false).await
    }
    async fn peek(&self, key_id: &str, limit_per_minute: u32, now: i64) -> RateState {
        self.answer(key_id, limit_per_minute, now, true).await
    }
}

impl DurableRateLimit {
    async fn answer(&self, key_id: &str, limit_per_minute: u32, now: i64, peek: bool) -> RateState {
        match self.ask(key_id, limit_per_minute, now, peek).await {
            Ok(state) => state,
            Err(e) => {
                // The limiter protects the service, not the player: when it
                // cannot be reached the request goes on, and the failure is logged.
                worker::console_error!("rate limiter unavailable: {e}");
                RateState { allowed: true, limit: limit_per_minute, window_seconds: 60, remaining: limit_per_minute, reset_seconds: 60 }
            }
        }
    }

    async fn ask(&self, key_id: &str, limit: u32, now: i64, peek: bool) -> worker::Result<RateState> {
        let stub = self.env.durable_object("RATE_LIMITER")?.id_from_name(key_id)?.get_stub()?;
        let url = format!("https://limiter/?key={key_id}&limit={limit}&now={now}&peek={}", u8::from(peek));
        let mut response = stub.fetch_with_str(&url).await?;
        let text = response.text().await?;
        let fields: Vec<u64> = text.split(' ').filter_map(|f| f.parse().ok()).collect();
        match fields[..] {
            [allowed, limit, window, remaining, reset] => Ok(RateState {
                allowed: allowed == 1,
                limit: u32::try_from(limit).unwrap_or(u32::MAX),
                window_seconds: u32::try_from(window).unwrap_or(60),
                remaining: u32::try_from(remaining).unwrap_or(0),
                reset_seconds: reset,
            }),
            _ => Err(worker::Error::RustError(format!("unexpected limiter answer {text:?}"))),
        }
    }
}
