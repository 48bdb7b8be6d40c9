//! Scheduled work and webhook retries at the edge. Cron triggers fire at
//! most once a minute (and not at all under `wrangler dev`), so one Durable
//! Object, the dispatcher, keeps an alarm: every write request kicks it, and
//! each alarm runs the due work and a delivery round, then sets the next
//! alarm at the next delivery retry or after the idle interval, whichever
//! comes first. The cron trigger runs the same round as a safety net and
//! restarts the alarm should it ever stop.

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
    for outcome in gateway.refresh_due_lists().await {
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

/// Asks the dispatcher to run soon.
pub async fn kick(env: &Env) -> worker::Result<()> {
    let stub = env.durable_object("DISPATCHER")?.id_from_name("dispatcher")?.get_stub()?;
    stub.fetch_with_str("https://dispatcher/kick").await.map(|_| ())
}
