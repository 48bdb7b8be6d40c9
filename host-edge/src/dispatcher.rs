//! Scheduled work and webhook retries at the edge. Cron triggers fire at
//! most once a minute (and not at all under `wrangler dev`), so Durable
//! Objects, the dispatchers, keep an alarm: a request that committed work
//! kicks one (debounced per isolate, see `lib.rs`), and each alarm runs the
//! due work and a delivery round, then sets the next alarm at the next
//! delivery retry or after the idle interval, whichever comes first. The
//! cron trigger runs the same round as a safety net and restarts every
//! alarm should one ever stop.
//!
//! There are `CGW_DISPATCH_SHARDS` dispatchers (4 unless set), so that no
//! one object sees every kick (Cloudflare: "do not create a single global
//! Durable Object"); each isolate kicks the one it picked at random. Their
//! rounds may run at once: every job is a conditional update written with
//! its event, so two rounds that pick the same item commit it once, as two
//! native hosts on one database do (docs/decisions.md, "Several hosts").

use worker::{durable_object, Env, Request, Response, ScheduledTime, State};

use crate::{build_gateway, Settings};

#[durable_object]
pub struct Dispatcher {
    state: State,
    env: Env,
}

impl worker::DurableObject for Dispatcher {
    fn new(state: State, env: Env) -> Self {
        Dispatcher { state, env }
    }

    /// `POST /kick`: something was written; run the due work soon.
    async fn fetch(&self, _request: Request) -> worker::Result<Response> {
        let settings = Settings::from_env(&self.env);
        let soon = now_ms() + settings.kick_delay_ms;
        let storage = self.state.storage();
        match storage.get_alarm().await? {
            Some(at) if at <= soon => {}
            _ => storage.set_alarm(at(soon)).await?,
        }
        Response::empty()
    }

    async fn alarm(&self) -> worker::Result<Response> {
        let settings = Settings::from_env(&self.env);
        let next = match run_round(&self.env).await {
            Ok(Some(retry_at)) => (retry_at * 1000).clamp(now_ms() + settings.kick_delay_ms, now_ms() + settings.idle_ms),
            Ok(None) => now_ms() + settings.idle_ms,
            Err(e) => {
                worker::console_error!("dispatcher round failed: {e}");
                now_ms() + settings.idle_ms.min(5_000)
            }
        };
        self.state.storage().set_alarm(at(next)).await?;
        Response::empty()
    }
}

fn now_ms() -> i64 {
    js_sys::Date::now() as i64
}

/// An alarm time in unix milliseconds (an `i64` alone would be read as an offset from now).
fn at(unix_ms: i64) -> ScheduledTime {
    ScheduledTime::new(js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(unix_ms as f64)))
}

/// Refreshes the lists that are due, runs the due work and one delivery
/// round; answers when the next round is due (unix seconds): now while
/// staged list chunks wait, else at the next pending delivery.
pub async fn run_round(env: &Env) -> Result<Option<i64>, String> {
    let (gateway, _) = build_gateway(env).await.map_err(|e| e.message)?;
    for outcome in gateway::lists::refresh::refresh_due(&gateway).await {
        match outcome {
            Ok(line) => worker::console_log!("list refresh: {line}"),
            Err(line) => worker::console_error!("list refresh failed, the active version stays: {line}"),
        }
    }
    let report = gateway.run_scheduled().await.map_err(|e| e.to_string())?;
    gateway.deliver_webhooks().await.map_err(|e| e.to_string())?;
    gateway.flush_decisions().await.map_err(|e| e.to_string())?;
    if report.more_due {
        return Ok(Some(now_ms() / 1000));
    }
    gateway.next_delivery_at().await.map_err(|e| e.to_string())
}

/// How many dispatchers there are (`CGW_DISPATCH_SHARDS`, 1 to 64, 4 unless set).
fn shards(env: &Env) -> u32 {
    env.var("CGW_DISPATCH_SHARDS").ok().and_then(|v| v.to_string().trim().parse::<u32>().ok()).filter(|n| (1..=64).contains(n)).unwrap_or(4)
}

thread_local! {
    /// The dispatcher this isolate kicks, picked once.
    static SHARD: std::cell::Cell<Option<u32>> = const { std::cell::Cell::new(None) };
}

/// The name of dispatcher `shard`; the first keeps the name of the single
/// dispatcher that came before, so its alarm goes on.
fn shard_name(shard: u32) -> String {
    match shard {
        0 => "dispatcher".to_string(),
        n => format!("dispatcher-{n}"),
    }
}

async fn kick_shard(env: &Env, shard: u32) -> worker::Result<()> {
    let stub = env.durable_object("DISPATCHER")?.id_from_name(&shard_name(shard))?.get_stub()?;
    stub.fetch_with_str("https://dispatcher/kick").await.map(|_| ())
}

/// Asks this isolate's dispatcher to run soon.
pub async fn kick(env: &Env) -> worker::Result<()> {
    let count = shards(env);
    let shard = SHARD.with(|s| match s.get() {
        Some(shard) if shard < count => shard,
        _ => {
            let picked = (js_sys::Math::random() * f64::from(count)).floor() as u32 % count;
            s.set(Some(picked));
            picked
        }
    });
    kick_shard(env, shard).await
}

/// Asks every dispatcher to run soon (the cron trigger's safety net).
pub async fn kick_all(env: &Env) -> worker::Result<()> {
    for shard in 0..shards(env) {
        kick_shard(env, shard).await?;
    }
    Ok(())
}
