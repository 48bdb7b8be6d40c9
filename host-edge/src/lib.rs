//! The edge host: the same `gateway` core and the same rules component
//! bytes as the native host, on Cloudflare Workers. D1 is the store, one
//! Durable Object per key counts rate limits, a dispatcher Durable Object
//! (plus a cron trigger) runs scheduled work and webhook retries, and KV
//! keeps what is immutable once written.
#![cfg(target_arch = "wasm32")]

mod dispatcher;
mod limiter;
mod local_tools;
mod platform;
mod replica;
pub mod rules_js;
mod schema_fence;
mod snapshot_cache;
mod store_d1;

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use gateway::error::{ApiError, ErrorDetail};
use gateway::{Config, Gateway, WorkLimits};
use worker::{event, Context, Env, Request, Response, ScheduleContext, ScheduledEvent};

use crate::limiter::DurableRateLimit;
use crate::platform::{FetchSender, FetchVendor, FlagWaker, WorkerClock, WorkerIds};
use crate::rules_js::JsRules;
use crate::schema_fence::FencedStore;
use crate::store_d1::D1Store;

/// Host settings, from the Worker's variables (`wrangler.toml` `[vars]`).
pub(crate) struct Settings {
    /// How soon after a write the dispatcher runs.
    pub kick_delay_ms: i64,
    /// The longest the dispatcher sleeps when nothing is pending.
    pub idle_ms: i64,
    /// Whether the local tools routes (`/__local/…`) answer; only the
    /// local scripts set it, never `wrangler.toml`.
    pub local_tools: bool,
    /// What one invocation may take on: sized so that a round stays under
    /// the 1,000 D1 queries a paid Worker may make (each statement of a
    /// batch counted).
    pub work: WorkLimits,
}

impl Settings {
    pub fn from_env(env: &Env) -> Self {
        let var = |name: &str| env.var(name).ok().map(|v| v.to_string());
        let number = |name: &str, default: i64| var(name).and_then(|v| v.parse().ok()).unwrap_or(default);
        Settings {
            kick_delay_ms: number("CGW_DISPATCH_DELAY_MS", 200),
            idle_ms: number("CGW_DISPATCH_IDLE_MS", 60_000),
            local_tools: var("CGW_LOCAL_TOOLS").as_deref() == Some("enabled"),
            work: WorkLimits {
                // up to about 20 statements per candidate across the kinds
                scheduled_batch: number("CGW_SCHEDULED_BATCH", 40),
                // a claim, its guard and about three writes per delivery
                delivery_batch: number("CGW_DELIVERY_BATCH", 32),
                // Workers open six connections at once and queue the rest
                delivery_concurrency: usize::try_from(number("CGW_DELIVERY_CONCURRENCY", 6)).unwrap_or(6),
                // a read and up to six writes per entry (the exclusion, its
                // sequence, two events, the claims of its e-mail and phone)
                regulator_import_entries: usize::try_from(number("CGW_IMPORT_MAX_ENTRIES", 120)).unwrap_or(120),
                regulator_export_batch: number("CGW_EXPORT_BATCH", 500),
                // about 30 statements per chunk of 100 entries
                list_chunks_per_round: usize::try_from(number("CGW_LIST_CHUNKS_PER_ROUND", 24)).unwrap_or(24),
                // three or four statements a person, under a Worker's 1,000 queries
                register_batch_people: usize::try_from(number("CGW_REGISTER_BATCH_PEOPLE", 200)).unwrap_or(200),
            },
        }
    }
}

/// A yente API for production screening: the vars `CGW_YENTE_URL`,
/// `CGW_YENTE_DATASET` (default `sanctions`) and `CGW_YENTE_DATASET_ALL_TOPICS`
/// (default `default`, for tenants that screen for PEPs or adverse media),
/// the secret `CGW_YENTE_API_KEY`.
fn yente(env: &Env) -> Option<gateway::vendors::yente::YenteConfig> {
    use gateway::vendors::yente::{ALL_TOPICS_DATASET, SANCTIONS_DATASET};
    let var = |name: &str| setting(env, name);
    Some(gateway::vendors::yente::YenteConfig {
        base_url: var("CGW_YENTE_URL")?,
        dataset: var("CGW_YENTE_DATASET").unwrap_or_else(|| SANCTIONS_DATASET.to_string()),
        extended_dataset: var("CGW_YENTE_DATASET_ALL_TOPICS").unwrap_or_else(|| ALL_TOPICS_DATASET.to_string()),
        api_key: env.secret("CGW_YENTE_API_KEY").ok().map(|s| s.to_string()).filter(|k| !k.is_empty()),
    })
}

/// Sumsub for production identity verification: the secrets
/// `CGW_SUMSUB_APP_TOKEN`, `CGW_SUMSUB_SECRET_KEY`, `CGW_SUMSUB_WEBHOOK_SECRET`
/// (all three, or Sumsub is off) and the vars `CGW_SUMSUB_URL`, `CGW_SUMSUB_LEVEL`
/// (comma-separated `tier_N=LEVEL`, or a bare LEVEL for tier_1 and tier_2, as
/// the native host's `--sumsub-level`) and `CGW_SUMSUB_LEVEL_TIER1` … `TIER4`.
/// Levels that do not read are an error on every request.
fn sumsub(env: &Env) -> Result<Option<gateway::vendors::sumsub::SumsubConfig>, ApiError> {
    let secret = |name: &str| env.secret(name).ok().map(|s| s.to_string()).filter(|v| !v.is_empty());
    let var = |name: &str, default: &str| env.var(name).ok().map(|v| v.to_string()).filter(|v| !v.is_empty()).unwrap_or_else(|| default.to_string());
    let (Some(app_token), Some(secret_key), Some(webhook_secret)) =
        (secret("CGW_SUMSUB_APP_TOKEN"), secret("CGW_SUMSUB_SECRET_KEY"), secret("CGW_SUMSUB_WEBHOOK_SECRET"))
    else {
        return Ok(None);
    };
    let levels = gateway::vendors::sumsub::TierLevels::configured(
        &var("CGW_SUMSUB_LEVEL", "basic-kyc-level"),
        ["CGW_SUMSUB_LEVEL_TIER1", "CGW_SUMSUB_LEVEL_TIER2", "CGW_SUMSUB_LEVEL_TIER3", "CGW_SUMSUB_LEVEL_TIER4"]
            .map(|name| env.var(name).ok().map(|v| v.to_string())),
    )
    .map_err(misconfigured)?;
    Ok(Some(gateway::vendors::sumsub::SumsubConfig {
        base_url: var("CGW_SUMSUB_URL", "https://api.sumsub.com"),
        app_token,
        secret_key,
        webhook_secret,
        levels,
    }))
}

/// The team's identity provider: the vars `GATEWAY_OIDC_ISSUER`,
/// `GATEWAY_OIDC_CLIENT_ID` and `GATEWAY_OIDC_ALLOWED_DOMAIN` (comma-separated)
/// and the secret `GATEWAY_OIDC_CLIENT_SECRET`, as the native host's
/// `--oidc-*` flags. Some but not all of the three is an error on every request.
fn oidc(env: &Env) -> Result<Option<gateway::people::oidc::OidcConfig>, ApiError> {
    let secret = env.secret("GATEWAY_OIDC_CLIENT_SECRET").ok().map(|s| s.to_string()).filter(|v| !v.is_empty());
    match (setting(env, "GATEWAY_OIDC_ISSUER"), setting(env, "GATEWAY_OIDC_CLIENT_ID"), secret) {
        (None, None, None) => Ok(None),
        (Some(issuer), Some(client_id), Some(client_secret)) => {
            let domains: Vec<String> = setting(env, "GATEWAY_OIDC_ALLOWED_DOMAIN").unwrap_or_default().split(',').map(str::to_string).collect();
            gateway::people::oidc::OidcConfig::new(issuer, client_id, client_secret, &domains)
                .map(Some)
                .map_err(|e| misconfigured(format!("GATEWAY_OIDC_*: {e}")))
        }
        _ => {
            Err(misconfigured("sign-on needs GATEWAY_OIDC_ISSUER, GATEWAY_OIDC_CLIENT_ID and the secret GATEWAY_OIDC_CLIENT_SECRET together".into()))
        }
    }
}

/// The lists the dispatcher refreshes: the var `CGW_LIST_URLS`
/// (`ENVIRONMENT,FORMAT,URL[,SOURCE]`, `;`-separated, as the native host's
/// `--list-url`) every `CGW_LIST_REFRESH_HOURS` (default 24). A setting that
/// does not read is an error on every request rather than a list never refreshed.
fn list_refresh(env: &Env) -> Result<(Vec<gateway::lists::ListSource>, Option<i64>), ApiError> {
    let sources = match setting(env, "CGW_LIST_URLS") {
        Some(text) => gateway::lists::ListSource::parse_all(&text).map_err(|e| misconfigured(format!("CGW_LIST_URLS: {e}")))?,
        None => Vec::new(),
    };
    Ok((sources, hours_setting(env, "CGW_LIST_REFRESH_HOURS")?))
}

/// A var that is set and not blank.
fn setting(env: &Env, name: &str) -> Option<String> {
    env.var(name).ok().map(|v| v.to_string()).filter(|v| !v.trim().is_empty())
}

/// A setting that does not read is an error on every request, never a silent default.
fn misconfigured(detail: String) -> ApiError {
    ApiError::new(503, "store_unavailable", "the gateway is misconfigured; retry later").with_detail(detail)
}

/// A number of hours from 1 to 8,784 (a leap year), as seconds; `None` when unset.
fn hours_setting(env: &Env, name: &str) -> Result<Option<i64>, ApiError> {
    let Some(text) = setting(env, name) else { return Ok(None) };
    let hours = text.trim().parse::<i64>().ok().filter(|h| (1..=24 * 366).contains(h));
    hours.map(|h| Some(h * 3_600)).ok_or_else(|| misconfigured(format!("{name} {text:?} is not 1 to 8784")))
}

/// What production must screen against: `CGW_REQUIRED_LISTS` (comma-separated
/// sources; the four official lists unless set) and `CGW_LIST_FRESHNESS_HOURS` (36 unless set).
fn list_coverage(env: &Env) -> Result<(Option<Vec<String>>, Option<i64>), ApiError> {
    // set but empty requires no list (a deployment screening through yente alone)
    let required = env.var("CGW_REQUIRED_LISTS").ok().map(|text| gateway::lists::parse_required_sources(&text.to_string()));
    Ok((required, hours_setting(env, "CGW_LIST_FRESHNESS_HOURS")?))
}

/// Where case decisions take two people: `CGW_FOUR_EYES` (comma-separated environments; production unless set).
fn four_eyes(env: &Env) -> Result<gateway::FourEyes, ApiError> {
    match env.var("CGW_FOUR_EYES") {
        Ok(text) => gateway::FourEyes::parse(&text.to_string()).map_err(misconfigured),
        Err(_) => Ok(gateway::FourEyes::default()),
    }
}

/// The keys that seal webhook and TOTP secrets: the Worker secret
/// `CGW_SECRET_KEY` (base64, `wrangler secret put`; `scripts/edge.sh` makes
/// one per state directory for local runs) and `CGW_PREVIOUS_SECRET_KEYS`
/// (comma-separated) after a rotation. Without a key that reads, every
/// request is 503 `secret_key_missing`: secrets are never stored unsealed.
fn secret_keys(env: &Env) -> Result<gateway::sealing::SecretKeys, ApiError> {
    let read = |name: &str| env.secret(name).map(|s| s.to_string()).or_else(|_| env.var(name).map(|v| v.to_string())).ok();
    gateway::sealing::keys_from_settings(
        read("CGW_SECRET_KEY").as_deref(),
        read("CGW_PREVIOUS_SECRET_KEYS").as_deref(),
        ("CGW_SECRET_KEY", "CGW_PREVIOUS_SECRET_KEYS"),
    )
    .map_err(gateway::sealing::KeySettingError::into_api_error)
}

/// The core over this Worker's bindings; the flag turns true when the
/// request commits events. A fresh core, for the dispatcher's rounds and
/// the local tools; requests share their isolate's ([`Isolate`]).
pub(crate) async fn build_gateway(env: &Env) -> Result<(Gateway, Rc<Cell<bool>>), ApiError> {
    let woken = Rc::new(Cell::new(false));
    let gateway = assemble(env, woken.clone(), None)?;
    Ok((gateway, woken))
}

/// The core: its store asserts the schema in its first read
/// ([`schema_fence`]) and sets `committed` when a batch commits; the
/// decision log is flushed through a store without that flag.
fn assemble(env: &Env, woken: Rc<Cell<bool>>, committed: Option<Rc<Cell<bool>>>) -> Result<Gateway, ApiError> {
    let unavailable =
        |what: &str, e: String| ApiError::new(503, "store_unavailable", "the store is unavailable; retry later").with_detail(format!("{what}: {e}"));
    let d1 = || env.d1("DB").map(D1Store::new).map_err(|e| unavailable("D1 binding", e.to_string()));
    let store = FencedStore::new(d1()?, committed);
    let (list_sources, list_refresh_seconds) = list_refresh(env)?;
    let (required_lists, list_freshness_seconds) = list_coverage(env)?;
    let config = Config {
        work: Settings::from_env(env).work,
        secret_keys: Some(secret_keys(env)?),
        production_screening_vendor: yente(env),
        production_identity_vendor: sumsub(env)?,
        list_sources,
        list_refresh_seconds,
        required_lists,
        list_freshness_seconds,
        four_eyes: four_eyes(env)?,
        oidc: oidc(env)?,
        ..Config::default()
    };
    let mut gateway = Gateway::new(Box::new(store), Box::new(JsRules), Box::new(WorkerClock), Box::new(WorkerIds), config)
        .with_webhooks(Box::new(FetchSender), Box::new(FlagWaker(woken)))
        .with_rate_limiter(Box::new(DurableRateLimit::new(env.clone())))
        .with_decision_store(Box::new(FencedStore::new(d1()?, None)))
        .with_vendor_http(Box::new(FetchVendor))
        .with_timer(Box::new(platform::WorkerTimer));
    // Refresh-ahead of kept keys (re-read after the answer, see
    // `Isolate::after_response`); `CGW_KEY_REFRESH_AHEAD=off` is the
    // measuring runs' twin (a key read before the answer once a second).
    if setting(env, "CGW_KEY_REFRESH_AHEAD").as_deref() != Some("off") {
        gateway = gateway.with_key_refresh_ahead(Box::new(WorkerClock));
    }
    if let Ok(kv) = env.kv("SNAPSHOTS") {
        gateway = gateway.with_page_cache(Box::new(snapshot_cache::KvPageCache::new(kv)));
    }
    Ok(gateway)
}

/// What lives as long as the isolate (issue #30): the core with its key
/// cache (a key used at most a second after its read was issued, so a
/// revocation reaches every isolate within a second, as on the native host;
/// re-read after an answer once half a second old, so steady traffic never
/// waits for it), its decision-log
/// queue (flushed ~200 ms after its first entry or at a page's 256 entries,
/// as the native host pages it), its rate-limit leases and the schema
/// fence. What an eviction loses: the queued read-only decisions of at most
/// the last 200 ms, the window the native host's pages allow; everything
/// acknowledged was committed before its answer.
struct Isolate {
    gateway: Gateway,
    /// events committed since the last delivery round
    woken: Rc<Cell<bool>>,
    /// a write committed since the last kick
    committed: Rc<Cell<bool>>,
    /// a flush of the decision log is waiting for its 200 ms
    flush_waiting: Cell<bool>,
    /// when this isolate last kicked its dispatcher (unix ms)
    last_kick_ms: Cell<f64>,
}

thread_local! {
    static ISOLATE: RefCell<Option<Rc<Isolate>>> = const { RefCell::new(None) };
}

/// How long the decision log waits for more entries before a flush.
const DECISION_FLUSH_MS: u64 = 200;
/// A page's worth of entries: flushed at once.
const DECISION_PAGE: usize = 256;

fn isolate(env: &Env) -> Result<Rc<Isolate>, ApiError> {
    if let Some(made) = ISOLATE.with(|slot| slot.borrow().clone()) {
        return Ok(made);
    }
    let (woken, committed) = (Rc::new(Cell::new(false)), Rc::new(Cell::new(false)));
    let gateway = assemble(env, woken.clone(), Some(committed.clone()))?;
    let made = Rc::new(Isolate { gateway, woken, committed, flush_waiting: Cell::new(false), last_kick_ms: Cell::new(f64::MIN) });
    ISOLATE.with(|slot| *slot.borrow_mut() = Some(made.clone()));
    Ok(made)
}

impl Isolate {
    /// After a response: the sub-second exclusion push when events were
    /// committed, a kick when work was, and the decision log's page.
    async fn after_response(&self, env: &Env, kick_delay_ms: i64) {
        // keys kept for more than half a second, re-read now that the answer is out
        if self.gateway.keys_to_refresh() > 0 {
            self.gateway.refresh_keys().await;
        }
        if self.woken.replace(false) {
            if let Err(e) = self.gateway.deliver_webhooks().await {
                worker::console_error!("delivery round failed: {e}");
            }
        }
        // Debounced: a kick less than half the dispatcher's delay ago set an
        // alarm that has not run yet, and its round will see this commit.
        let now = js_sys::Date::now();
        if self.committed.replace(false) && now - self.last_kick_ms.get() >= (kick_delay_ms as f64) / 2.0 {
            self.last_kick_ms.set(now);
            if let Err(e) = dispatcher::kick(env).await {
                worker::console_error!("dispatcher kick failed: {e}");
            }
        }
        if self.gateway.queued_decisions() >= DECISION_PAGE {
            self.flush().await;
        } else if self.gateway.writes_waiting() && !self.flush_waiting.replace(true) {
            platform::sleep_ms(DECISION_FLUSH_MS).await;
            self.flush_waiting.set(false);
            self.flush().await;
        }
    }

    async fn flush(&self) {
        if let Err(e) = self.gateway.flush_decisions().await {
            worker::console_error!("decision log flush failed: {e}");
        }
    }
}

#[event(fetch)]
pub async fn fetch(request: Request, env: Env, ctx: Context) -> worker::Result<Response> {
    let settings = Settings::from_env(&env);
    if settings.local_tools && request.path().starts_with("/__local/") {
        return local_tools::handle(request, &env).await;
    }
    // Failures before the core has the request still answer with the error
    // body and an `x-request-id`, as every response does.
    let request_id = gateway::new_id(&WorkerIds, "req");
    let mut request = match to_http(request).await {
        Ok(request) => request,
        Err(e) => {
            let error = gateway::error::ApiError::bad_request("invalid_request", "the request could not be read").with_detail(e.to_string());
            return to_worker(log_detail(error.into_response(&request_id)));
        }
    };
    // Cloudflare puts the client's address in CF-Connecting-IP.
    if let Some(ip) = request.headers().get("cf-connecting-ip").and_then(|v| v.to_str().ok()).and_then(|v| v.trim().parse().ok()) {
        request.extensions_mut().insert(gateway::input::SourceAddress(ip));
    }
    let isolate = match isolate(&env) {
        Ok(isolate) => isolate,
        Err(error) => return to_worker(log_detail(error.into_response(&request_id))),
    };
    let response = log_detail(isolate.gateway.handle(request).await);
    // After the response: the sub-second exclusion push (one delivery
    // round), a kick for the dispatcher's retries, the decision log's page.
    ctx.wait_until(async move {
        replica::ensure_once(&env).await;
        isolate.after_response(&env, settings.kick_delay_ms).await
    });
    to_worker(response)
}

#[event(scheduled)]
pub async fn scheduled(_event: ScheduledEvent, env: Env, _ctx: ScheduleContext) {
    if let Err(e) = replica::ensure(&env).await {
        worker::console_error!("replication heartbeat start failed: {e}");
    }
    if let Err(e) = dispatcher::run_round(&env).await {
        worker::console_error!("scheduled round failed: {e}");
    }
    if let Err(e) = dispatcher::kick_all(&env).await {
        worker::console_error!("dispatcher kick failed: {e}");
    }
}

/// Logs an error's detail (never sent to the caller) and drops it.
fn log_detail(mut response: http::Response<Vec<u8>>) -> http::Response<Vec<u8>> {
    if let Some(ErrorDetail(detail)) = response.extensions_mut().remove::<ErrorDetail>() {
        worker::console_error!("{} {}", response.status(), detail);
    }
    response
}

async fn to_http(mut request: Request) -> worker::Result<http::Request<Vec<u8>>> {
    let url = request.url()?;
    let path_and_query = match url.query() {
        Some(query) => format!("{}?{query}", url.path()),
        None => url.path().to_string(),
    };
    // the method as sent: `worker::Method` reads an unknown one (QUERY) as GET
    let method = request.inner().method();
    let mut builder = http::Request::builder().method(method.as_str()).uri(path_and_query);
    for (name, value) in request.headers().entries() {
        builder = builder.header(name, value);
    }
    // Read at most one byte past the limit, as the native host does.
    let body = request.bytes().await?;
    let body = if body.len() > gateway::pipeline::MAX_BODY_BYTES { body[..=gateway::pipeline::MAX_BODY_BYTES].to_vec() } else { body };
    builder.body(body).map_err(|e| worker::Error::RustError(e.to_string()))
}

fn to_worker(response: http::Response<Vec<u8>>) -> worker::Result<Response> {
    let (parts, body) = response.into_parts();
    let headers = worker::Headers::new();
    for (name, value) in &parts.headers {
        if let Ok(value) = value.to_str() {
            headers.append(name.as_str(), value)?;
        }
    }
    Ok(Response::from_bytes(body)?.with_status(parts.status.as_u16()).with_headers(headers))
}
