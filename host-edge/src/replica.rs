//! The replication heartbeat of the exclusion check's freshness fence
//! (`gateway::exclusions`, issue #30): a Durable Object whose alarm writes
//! the time on the D1 primary every `HEARTBEAT_PERIOD_MS` and sets the next
//! alarm. One D1 write per beat, no `Gateway` built: 4 writes a second,
//! about 10.4 million rows a month. A check that reads a replica reads the
//! beat in the same batch; a replica whose beat is old is not trusted, so a
//! heartbeat that stops (an alarm lost) costs primary reads, never a stale
//! answer. Started by the first request of each isolate (after its
//! response) and by the cron trigger, which restarts a loop that stopped.

use gateway::exclusions::HEARTBEAT_PERIOD_MS;
use worker::{durable_object, Env, Request, Response, ScheduledTime, State};

use crate::store_d1::D1Store;

#[durable_object]
pub struct Heartbeat {
    state: State,
    env: Env,
}

impl worker::DurableObject for Heartbeat {
    fn new(state: State, env: Env) -> Self {
        Heartbeat { state, env }
    }

    /// `POST /ensure`: starts the loop unless an alarm is set.
    async fn fetch(&self, _request: Request) -> worker::Result<Response> {
        let storage = self.state.storage();
        if storage.get_alarm().await?.is_none() {
            storage.set_alarm(at(now_ms() + HEARTBEAT_PERIOD_MS)).await?;
        }
        Response::empty()
    }

    async fn alarm(&self) -> worker::Result<Response> {
        let now = now_ms();
        // the next beat first, so that a failed write never ends the loop
        self.state.storage().set_alarm(at(now + HEARTBEAT_PERIOD_MS)).await?;
        let store = D1Store::new(self.env.d1("DB")?);
        if let Err(e) = gateway::exclusions::beat(&store, now).await {
            worker::console_error!("replication heartbeat failed: {e}");
        }
        Response::empty()
    }
}

fn now_ms() -> i64 {
    js_sys::Date::now() as i64
}

/// An alarm time in unix milliseconds.
fn at(unix_ms: i64) -> ScheduledTime {
    ScheduledTime::new(js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(unix_ms as f64)))
}

thread_local! {
    /// Whether this isolate has asked the heartbeat to run.
    static ENSURED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// [`ensure`], once per isolate (after its first response): one Durable
/// Object trip in the isolate's life.
pub async fn ensure_once(env: &Env) {
    if ENSURED.with(|e| e.replace(true)) {
        return;
    }
    if let Err(e) = ensure(env).await {
        ENSURED.with(|e| e.set(false));
        worker::console_error!("replication heartbeat start failed: {e}");
    }
}

/// Starts the heartbeat's loop if it is not running (one Durable Object trip).
pub async fn ensure(env: &Env) -> worker::Result<()> {
    let stub = env.durable_object("HEARTBEAT")?.id_from_name("heartbeat")?.get_stub()?;
    stub.fetch_with_str("https://heartbeat/ensure").await.map(|_| ())
}
