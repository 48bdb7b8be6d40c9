//! The host-agnostic API core of the Compliance Gateway.
//!
//! [`Gateway::handle`] takes an HTTP request and returns the response. The
//! world is reached only through the ports in [`ports`]: no runtime, no
//! network, no clock of its own. The native host and the edge host link
//! this same crate.

// A commit's outcome (`api::Commit`) must be used: a batch that lost a race
// wrote nothing, and ignoring that is a compile error, not a lint.
#![deny(unused_must_use)]

/// Runs its block until it commits: `Ok(Some(_))` is done; `Ok(None)` lost a
/// race (see `Gateway::commit`) and is run again from fresh reads, up to
/// [`WRITE_ATTEMPTS`] times, after which the caller gets 409
/// `concurrent_update`; an error ends it. `return` in the block ends one
/// attempt. The one retry loop of the core (a macro, not a function over an
/// async closure, so that the handlers' futures stay `Send`).
macro_rules! until_committed {
    ($attempt:block) => {{
        let mut outcome = Err($crate::api::busy());
        for _ in 0..$crate::WRITE_ATTEMPTS {
            let attempt: $crate::error::ApiResult<Option<_>> = async { $attempt }.await;
            match attempt {
                Ok(None) => continue,
                Ok(Some(done)) => outcome = Ok(done),
                Err(error) => outcome = Err(error),
            }
            break;
        }
        outcome
    }};
}

pub mod aml;
pub mod api;
pub mod auth;
mod cases;
mod console;
pub mod decisions;
pub mod erasure;
pub mod error;
pub mod exclusions;
pub mod filings;
pub mod health;
mod idempotency;
pub mod input;
mod kyc;
pub use kyc::AdvancedCheck;
pub mod limits;
pub mod lists;
pub mod netcheck;
pub mod openapi;
pub mod people;
pub mod ports;
pub mod rate_limit;
pub mod rates;
pub mod retention;
pub mod router;
mod sanctions;
pub mod scheduler;
pub mod schema;
pub mod sealing;
pub mod signing;
pub mod store_contract;
pub mod telemetry;
pub mod tenants;
pub mod time;
pub mod trips;
pub mod users;
pub mod vendors;
pub mod webhooks;

use serde_json::Value as Json;

use crate::auth::Environment;
use crate::error::{ApiError, ApiResult};
use crate::input::Query;
use crate::ports::{Clock, Ids, PageCache, RateLimit, RateState, Resolver, Rules, Store, VendorHttp, Waker, WebhookSender};
use crate::rate_limit::RateLimiter;
use rules::Horizons;

/// Largest accepted request body. Hosts read at most one byte more.
pub const MAX_BODY_BYTES: usize = 64 * 1024;
/// Operator-sent timestamps further than this from the service clock are refused.
pub const MAX_CLOCK_SKEW_SECONDS: i64 = 300;
/// Failed authentications a source address may make in a minute before its
/// requests are refused unread until the minute is over.
pub const DEFAULT_AUTH_FAILURES_PER_SOURCE: u32 = 60;

/// The address a request came from, set by the host as a request extension
/// (the peer, or a trusted proxy's header); the per-source flood limit uses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SourceAddress(pub std::net::IpAddr);

/// Sandbox tenants' default request rate per key.
pub const DEFAULT_RATE_LIMIT_PER_MINUTE: i64 = 100;

/// Host settings the core needs to know.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// Whether production screening and identity vendors are configured. Until
    /// they are, production screening and verification answer 503 `vendor_unavailable`.
    pub production_vendors_configured: bool,
    /// How long decisions are kept; `None` keeps the rules' retention.
    pub decision_retention_days: Option<i64>,
    /// For benchmarks only: drop the logs of read-only decisions instead of
    /// queueing them, to measure what the log costs. No host exposes it.
    pub skip_read_decision_log: bool,
    /// How much work one call may take on, for hosts with per-invocation limits.
    pub work: WorkLimits,
    /// The keys that seal webhook signing secrets at rest; without them
    /// (tests only: both hosts always set them) secrets are stored as they are.
    pub secret_keys: Option<sealing::SecretKeys>,
    /// Failed authentications per source address and minute; `None` keeps [`DEFAULT_AUTH_FAILURES_PER_SOURCE`].
    pub auth_failures_per_source: Option<u32>,
    /// The sanctions hit threshold (0 to 1) of each environment; `None` keeps the rules' default.
    pub hit_threshold_sandbox: Option<f64>,
    pub hit_threshold_production: Option<f64>,
    /// A yente `/match` API that production screening asks for candidates,
    /// beside (or instead of) the imported lists.
    pub production_screening_vendor: Option<vendors::yente::YenteConfig>,
    /// The identity-verification vendor of production checks.
    pub production_identity_vendor: Option<vendors::sumsub::SumsubConfig>,
    /// Lists to refresh from URLs ([`Gateway::refresh_due_lists`]).
    pub list_sources: Vec<lists::ListSource>,
    /// Seconds between list refreshes; `None` keeps [`lists::refresh::DEFAULT_REFRESH_SECONDS`].
    pub list_refresh_seconds: Option<i64>,
    /// The list sources production must screen against; `None` keeps
    /// [`lists::REQUIRED_SOURCES`] (the spec's US, EU, UN and UK lists).
    pub required_lists: Option<Vec<String>>,
    /// How recently a required list must have been refreshed; `None` keeps
    /// [`lists::DEFAULT_FRESHNESS_SECONDS`].
    pub list_freshness_seconds: Option<i64>,
    /// Environments whose case decisions take a second person's approval.
    pub four_eyes: FourEyes,
    /// What each table keeps ([`retention::RetentionPolicy`]).
    pub retention: retention::RetentionPolicy,
}

/// Where a case decision takes effect only when a second person approves
/// it: production by default, the sandbox when asked (tests and the stub
/// flows keep single-step decisions there).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FourEyes {
    pub sandbox: bool,
    pub production: bool,
}

impl Default for FourEyes {
    fn default() -> Self {
        FourEyes { sandbox: false, production: true }
    }
}

impl FourEyes {
    /// The environments named in a host setting, comma-separated (`production`,
    /// `sandbox,production`, or empty for none); an unknown name is refused.
    pub fn parse(text: &str) -> Result<FourEyes, String> {
        let mut four_eyes = FourEyes { sandbox: false, production: false };
        for name in text.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match crate::auth::Environment::parse(name) {
                Some(crate::auth::Environment::Sandbox) => four_eyes.sandbox = true,
                Some(crate::auth::Environment::Production) => four_eyes.production = true,
                None => return Err(format!("four-eyes: {name:?} is not sandbox or production")),
            }
        }
        Ok(four_eyes)
    }

    pub fn applies_to(&self, environment: crate::auth::Environment) -> bool {
        match environment {
            crate::auth::Environment::Sandbox => self.sandbox,
            crate::auth::Environment::Production => self.production,
        }
    }
}

/// How much one scheduled round, delivery round or import takes on. Workers
/// allow 1,000 D1 queries per invocation (50 on the free plan), so the edge
/// host sets these lower than the native defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorkLimits {
    /// candidates of each kind one scheduled round looks at
    pub scheduled_batch: i64,
    /// deliveries one delivery round claims
    pub delivery_batch: i64,
    /// deliveries a round sends at once: no more than the platform opens
    /// connections at once, so that a send's time limit measures the
    /// endpoint and not a queue behind slower ones
    pub delivery_concurrency: usize,
    /// entries one regulator import takes (one read each, up to three writes)
    pub regulator_import_entries: usize,
    /// exclusions one regulator export marks
    pub regulator_export_batch: i64,
    /// staged list chunks (100 entries, about 30 statements each) one scheduled round loads
    pub list_chunks_per_round: usize,
}

impl Default for WorkLimits {
    fn default() -> Self {
        WorkLimits {
            scheduled_batch: 500,
            delivery_batch: 64,
            delivery_concurrency: 64,
            regulator_import_entries: 1000,
            regulator_export_batch: 1000,
            list_chunks_per_round: 64,
        }
    }
}

impl Config {
    pub fn hit_threshold(&self, environment: crate::auth::Environment) -> Option<f64> {
        match environment {
            crate::auth::Environment::Sandbox => self.hit_threshold_sandbox,
            crate::auth::Environment::Production => self.hit_threshold_production,
        }
    }

    /// How long decisions are kept: as configured, else as the rules say.
    pub fn decision_retention_seconds(&self, rules: &Horizons) -> i64 {
        self.decision_retention_days.map_or(rules.decision_retention_seconds, |days| days.saturating_mul(time::SECONDS_PER_DAY))
    }
}

pub struct Gateway {
    pub(crate) store: Box<dyn Store>,
    pub(crate) rules: Box<dyn Rules>,
    pub(crate) clock: Box<dyn Clock>,
    pub(crate) ids: Box<dyn Ids>,
    pub(crate) limiter: Box<dyn RateLimit>,
    pub(crate) config: Config,
    pub(crate) sender: Option<Box<dyn WebhookSender>>,
    pub(crate) waker: Option<Box<dyn Waker>>,
    pub(crate) trace_context: Option<Box<dyn ports::TraceContext>>,
    pub(crate) timer: Option<Box<dyn ports::Timer>>,
    pub(crate) decision_queue: decisions::DecisionQueue,
    /// Where queued read-only decisions are flushed; the main store when `None`.
    pub(crate) decision_store: Option<Box<dyn Store>>,
    /// Where pages of daily snapshots are kept once built.
    pub(crate) page_cache: Option<Box<dyn PageCache>>,
    /// Resolves webhook hosts for the public-address check; without one,
    /// only literal addresses are checked.
    pub(crate) resolver: Option<Box<dyn Resolver>>,
    /// Sends the vendor adapters' requests; without one, no vendor is reachable.
    pub(crate) vendor_http: Option<Box<dyn VendorHttp>>,
    /// Production callers by key hash, for one clock second.
    pub(crate) key_cache: auth::KeyCache,
    /// A candidate rules component run beside the live one on AML events; its disagreements are recorded.
    pub(crate) shadow_rules: Option<Box<dyn Rules>>,
    /// The argon2 verifications of console passwords run so far.
    pub(crate) password_checks: people::PasswordChecks,
}

/// What a host's request log tells of a request beside its status (in the
/// response's extensions): the route's template, never the raw path, and the
/// caller's tenant once the key is known.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RequestFacts {
    pub route: Option<&'static str>,
    pub tenant_id: Option<String>,
    /// the route's `operationId`
    pub operation_id: Option<&'static str>,
    /// a check-path request's endpoint and outcome
    pub check: Option<telemetry::CheckFacts>,
}

/// The authenticated caller of a request.
#[derive(Debug, Clone)]
pub struct Caller {
    pub tenant_id: String,
    pub environment: Environment,
    pub is_admin: bool,
    pub key_id: String,
    pub rate_limit_per_minute: i64,
    pub clock_offset_seconds: i64,
    /// the tenant's jurisdiction: the rules profile its decisions take
    pub jurisdiction: String,
    /// the member of the compliance team behind a session; `None` for a key
    pub person: Option<Person>,
}

/// A member of the compliance team acting through a session (`key_id` is
/// then their id: audit rows and rate limits name the person).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Person {
    pub person_id: String,
    pub role: people::Role,
    pub must_change_password: bool,
    /// the SHA-256 of the session's token
    pub session_hash: String,
}

/// What a handler sees of a request.
pub struct Ctx<'a> {
    pub caller: Caller,
    /// the caller's now: real time, shifted by a sandbox tenant's test clock
    pub now: i64,
    pub query: Query,
    pub body: &'a [u8],
    /// the address the request came from, as the host set it ([`SourceAddress`])
    pub source: Option<std::net::IpAddr>,
    /// the `Idempotency-Key` of a route that keeps it in its own batch (a read-only check reserves none)
    pub(crate) idempotency: Option<idempotency::Deferred>,
}

/// A successful answer.
pub struct Reply {
    pub status: u16,
    pub body: Json,
    /// the rules decision behind the answer, sent as `x-decision-id`
    pub decision_id: Option<String>,
}

impl Reply {
    pub fn ok(body: Json) -> Self {
        Reply { status: 200, body, decision_id: None }
    }
    pub fn created(body: Json) -> Self {
        Reply { status: 201, body, decision_id: None }
    }
    pub fn accepted(body: Json) -> Self {
        Reply { status: 202, body, decision_id: None }
    }
    /// A typed body.
    pub fn typed<T: serde::Serialize>(status: u16, body: &T) -> ApiResult<Self> {
        let body = serde_json::to_value(body).map_err(|e| ApiError::internal().with_detail(format!("a response did not serialise: {e}")))?;
        Ok(Reply { status, body, decision_id: None })
    }
}

impl Gateway {
    pub fn new(store: Box<dyn Store>, rules: Box<dyn Rules>, clock: Box<dyn Clock>, ids: Box<dyn Ids>, config: Config) -> Self {
        Gateway {
            store,
            rules,
            clock,
            ids,
            limiter: Box::new(RateLimiter::default()),
            key_cache: auth::KeyCache::default(),
            config,
            sender: None,
            waker: None,
            trace_context: None,
            timer: None,
            decision_queue: Default::default(),
            decision_store: None,
            page_cache: None,
            resolver: None,
            vendor_http: None,
            shadow_rules: None,
            password_checks: Default::default(),
        }
    }

    /// Sends requests to the configured vendors through `http`.
    /// Runs `shadow` beside the live rules on every AML event: it decides
    /// the same facts, changes nothing, and each disagreement is recorded.
    pub fn with_shadow_rules(mut self, shadow: Box<dyn Rules>) -> Self {
        self.shadow_rules = Some(shadow);
        self
    }

    pub fn with_vendor_http(mut self, http: Box<dyn VendorHttp>) -> Self {
        self.vendor_http = Some(http);
        self
    }

    /// Enables webhook delivery through `sender`; `waker` is told when new events commit.
    pub fn with_webhooks(mut self, sender: Box<dyn WebhookSender>, waker: Box<dyn Waker>) -> Self {
        self.sender = Some(sender);
        self.waker = Some(waker);
        self
    }

    /// Replaces the in-process rate limiter with a shared counter.
    pub fn with_rate_limiter(mut self, limiter: Box<dyn RateLimit>) -> Self {
        self.limiter = limiter;
        self
    }

    /// Flushes queued read-only decisions through their own connection to the
    /// same database, so a flush never holds up the requests' reads.
    pub fn with_decision_store(mut self, store: Box<dyn Store>) -> Self {
        self.decision_store = Some(store);
        self
    }

    /// Resolves webhook hosts for the check that production endpoints are public.
    pub fn with_resolver(mut self, resolver: Box<dyn Resolver>) -> Self {
        self.resolver = Some(resolver);
        self
    }

    /// Bounds the readiness check's store read with the host's timer.
    pub fn with_timer(mut self, timer: Box<dyn ports::Timer>) -> Self {
        self.timer = Some(timer);
        self
    }

    /// Keeps each event's trace context (the host's tracing), for its webhooks.
    pub fn with_trace_context(mut self, trace_context: Box<dyn ports::TraceContext>) -> Self {
        self.trace_context = Some(trace_context);
        self
    }

    /// Keeps the pages of daily snapshots, which never change, in `cache`.
    pub fn with_page_cache(mut self, cache: Box<dyn PageCache>) -> Self {
        self.page_cache = Some(cache);
        self
    }

    pub(crate) fn wake_delivery(&self) {
        if let Some(waker) = &self.waker {
            waker.wake();
        }
    }

    /// Applies the schema. Hosts call this once at start.
    pub async fn migrate(&self) -> Result<(), ports::StoreError> {
        schema::migrate(self.store.as_ref()).await
    }

    /// Answers one request. Never panics; every failure is an error body.
    pub async fn handle(&self, request: http::Request<Vec<u8>>) -> http::Response<Vec<u8>> {
        if console::serves(request.uri().path()) {
            let request_id = self.new_id("req");
            let mut response = console::serve(self, request).await;
            response.extensions_mut().insert(RequestFacts { route: Some("/console"), ..RequestFacts::default() });
            if let Ok(value) = http::HeaderValue::from_str(&request_id) {
                response.headers_mut().insert("x-request-id", value);
            }
            return response;
        }
        // a host with a recorder (native) answers /metrics before the core
        if request.uri().path() == "/metrics" {
            return self.gauges_page(&request).await;
        }
        self.handle_api(request).await
    }

    /// Answers a request of the JSON API (`/v1/…`); the console is one of its clients.
    pub(crate) async fn handle_api(&self, request: http::Request<Vec<u8>>) -> http::Response<Vec<u8>> {
        let request_id = self.new_id("req");
        let mut rate = None;
        let mut facts = RequestFacts::default();
        let result = self.dispatch(&request, &request_id, &mut rate, &mut facts).await;
        if let Some(operation_id) = facts.operation_id {
            let (status, body) = match &result {
                Ok(reply) => (reply.status, Some(&reply.body)),
                Err(error) => (error.status, None),
            };
            facts.check = telemetry::check_facts(operation_id, status, body);
        }
        let mut response = match result {
            Ok(reply) => {
                let bytes = serde_json::to_vec(&reply.body).unwrap_or_default();
                let mut builder = http::Response::builder().status(reply.status).header("content-type", "application/json");
                if let Some(id) = &reply.decision_id {
                    builder = builder.header("x-decision-id", id.as_str());
                }
                builder.body(bytes).unwrap_or_else(|_| http::Response::new(Vec::new()))
            }
            Err(error) => error.into_response(&request_id),
        };
        if let Ok(value) = http::HeaderValue::from_str(&request_id) {
            response.headers_mut().insert("x-request-id", value);
        }
        if let Some(state) = rate {
            rate_limit_headers(response.headers_mut(), &state);
        }
        error::json_headers(response.headers_mut());
        response.extensions_mut().insert(facts);
        response
    }

    /// Answers a request; `rate` receives the caller's quota once the key is known.
    async fn dispatch(
        &self,
        request: &http::Request<Vec<u8>>,
        request_id: &str,
        rate: &mut Option<RateState>,
        facts: &mut RequestFacts,
    ) -> ApiResult<Reply> {
        let route = router::resolve(request.method(), request.uri().path())?;
        facts.route = Some(route.spec().path);
        facts.operation_id = Some(route.spec().operation_id);
        if request.body().len() > MAX_BODY_BYTES {
            return Err(ApiError::new(413, "payload_too_large", format!("request body is larger than {MAX_BODY_BYTES} bytes")));
        }
        // Public routes need no key: the vendor webhook authenticates by its body's digest.
        if let Some(result) = router::dispatch_public(self, &route, request).await {
            return result;
        }
        if !request.body().is_empty() && !is_json(request.headers()) {
            return Err(ApiError::new(415, "unsupported_media_type", "request bodies must be sent as application/json"));
        }
        // A source that keeps failing to authenticate is refused before its
        // keys are looked up, so a flood of bad keys costs no store reads and
        // no audit rows; sources with good keys are not slowed.
        let source_ip = failure_source(request);
        self.refuse_failing_source(source_ip.as_deref()).await?;
        let caller = match self.authenticate(request.headers(), request_id, source_ip.as_deref()).await {
            Ok(caller) => caller,
            Err(error) => {
                if error.status == 401 {
                    self.count_source_failure(source_ip.as_deref()).await;
                }
                return Err(error);
            }
        };
        facts.tenant_id = Some(caller.tenant_id.clone());
        let limit = u32::try_from(caller.rate_limit_per_minute.max(0)).unwrap_or(u32::MAX);
        let state = self.limiter.check(&caller.key_id, limit, self.clock.now()).await;
        *rate = Some(state);
        if !state.allowed {
            let mut error = ApiError::new(429, "rate_limited", "too many requests for this key; retry after the number of seconds in Retry-After");
            error.retry_after_seconds = Some(state.reset_seconds);
            return Err(error);
        }
        router::check_access(&route, &caller)?;
        let query = Query::parse(request.uri().query())?;
        // a new person's one-time password and TOTP secret are never kept for a
        // replay; a read-only check reads its key with its facts and keeps it
        // only in the batch of an answer that commits (a breach)
        let in_own_batch = route == router::Route::LimitCheck;
        let reservation = match request.method() == http::Method::POST && route != router::Route::PersonCreate && !in_own_batch {
            true => self.reserve_idempotency(&caller, request).await?,
            false => None,
        };
        let idempotency = if in_own_batch { self.defer_idempotency(&caller, request)? } else { None };
        let now = self.tenant_now(&caller);
        let source = request.extensions().get::<SourceAddress>().map(|s| s.0);
        let ctx = Ctx { caller, now, query, body: request.body(), source, idempotency };
        let result = match reservation {
            None => router::dispatch(self, route.clone(), &ctx).await,
            Some(idempotency::Outcome::Replay(reply)) => return Ok(reply),
            Some(idempotency::Outcome::Run(reservation)) => {
                let result = router::dispatch(self, route.clone(), &ctx).await;
                self.complete_idempotency(reservation, &result).await;
                result
            }
        };
        if let (Some((action, resource)), Ok(reply)) = (route.admin_action(), &result) {
            self.audit_admin_action(&ctx, action, resource, reply, request_id).await;
        }
        result
    }

    /// 429 `too_many_failures` while `source` ([`failure_source`]) is past
    /// its failed authentications of the minute (bad keys and sign-ins alike).
    pub(crate) async fn refuse_failing_source(&self, source: Option<&str>) -> ApiResult<()> {
        let Some(source) = source else { return Ok(()) };
        let failure_limit = self.config.auth_failures_per_source.unwrap_or(DEFAULT_AUTH_FAILURES_PER_SOURCE);
        let state = self.limiter.peek(&format!("auth-failures:{source}"), failure_limit, self.clock.now()).await;
        if state.allowed {
            return Ok(());
        }
        let mut error = ApiError::new(429, "too_many_failures", "too many failed authentications from this address; retry after Retry-After seconds");
        error.retry_after_seconds = Some(state.reset_seconds);
        Err(error)
    }

    /// Counts a failed authentication (a bad key, a refused sign-in) of `source`.
    pub(crate) async fn count_source_failure(&self, source: Option<&str>) {
        if let Some(source) = source {
            let failure_limit = self.config.auth_failures_per_source.unwrap_or(DEFAULT_AUTH_FAILURES_PER_SOURCE);
            self.limiter.check(&format!("auth-failures:{source}"), failure_limit, self.clock.now()).await;
        }
    }

    pub(crate) fn tenant_now(&self, caller: &Caller) -> i64 {
        match caller.environment {
            Environment::Sandbox => self.clock.now().saturating_add(caller.clock_offset_seconds),
            Environment::Production => self.clock.now(),
        }
    }

    /// A webhook signing secret as it is stored: sealed under the host key.
    pub(crate) fn seal_secret(&self, secret: &str, webhook_id: &str) -> String {
        match &self.config.secret_keys {
            Some(keys) => keys.seal(secret, webhook_id, &self.ids.random_bytes(12)),
            None => secret.to_string(),
        }
    }

    /// A stored webhook signing secret, opened.
    pub(crate) fn open_secret(&self, stored: &str, webhook_id: &str) -> Result<String, sealing::SealError> {
        match &self.config.secret_keys {
            Some(keys) => keys.open(stored, webhook_id),
            None if stored.starts_with("sealed:") => Err(sealing::SealError::UnknownKey("none configured".into())),
            None => Ok(stored.to_string()),
        }
    }

    /// Seals every stored webhook secret under the current host key (after a
    /// key rotation, with the old key still listed); answers how many changed.
    pub async fn reseal_secrets(&self) -> Result<usize, String> {
        let Some(keys) = &self.config.secret_keys else { return Err("no secret key is configured".into()) };
        let stored_secrets = webhooks::store::all_secrets(self.store.as_ref()).await.map_err(|e| e.to_string())?;
        let mut changed = 0;
        for webhook in stored_secrets {
            let mut statements = Vec::new();
            for (previous, stored) in [(false, Some(webhook.secret)), (true, webhook.previous_secret)] {
                let Some(stored) = stored else { continue };
                if keys.is_current(&stored) {
                    continue;
                }
                let plain = keys.open(&stored, &webhook.webhook_id).map_err(|e| format!("webhook {}: {e}", webhook.webhook_id))?;
                let sealed = keys.seal(&plain, &webhook.webhook_id, &self.ids.random_bytes(12));
                statements.push(webhooks::store::reseal(&webhook.webhook_id, previous, stored, sealed));
            }
            if !statements.is_empty() {
                self.store.batch(statements).await.map_err(|e| e.to_string())?;
                changed += 1;
            }
        }
        Ok(changed)
    }

    /// A new opaque identifier such as `scr_1f0c…`.
    pub(crate) fn new_id(&self, prefix: &str) -> String {
        new_id(self.ids.as_ref(), prefix)
    }
}

/// A new opaque identifier such as `req_1f0c…`, for hosts that answer
/// before the core has a request (their early failures).
pub fn new_id(ids: &dyn Ids, prefix: &str) -> String {
    format!("{prefix}_{}", hex::encode(ids.random_bytes(12)))
}

/// The address whose failed authentications a request counts toward: the
/// host's [`SourceAddress`], but never a loopback peer, which is a proxy on
/// this machine (or a local test), the source of every request behind it:
/// counting it would let one bad client lock out everyone. Behind a proxy,
/// the trusted header names the client.
pub(crate) fn failure_source(request: &http::Request<Vec<u8>>) -> Option<String> {
    request.extensions().get::<SourceAddress>().filter(|s| !s.0.is_loopback()).map(|s| s.0.to_string())
}

/// The IETF rate-limit headers (draft-ietf-httpapi-ratelimit-headers): the
/// policy (quota per window) and where the key stands (remaining, seconds to reset).
fn rate_limit_headers(headers: &mut http::HeaderMap, state: &RateState) {
    let policy = format!("\"per-key\";q={};w={}", state.limit, state.window_seconds);
    let current = format!("\"per-key\";r={};t={}", state.remaining, state.reset_seconds);
    for (name, value) in [("ratelimit-policy", policy), ("ratelimit", current)] {
        if let Ok(value) = http::HeaderValue::from_str(&value) {
            headers.insert(name, value);
        }
    }
}

pub(crate) fn is_json(headers: &http::HeaderMap) -> bool {
    headers
        .get(http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"))
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod send_tests {
    /// The native host spawns these on a multi-threaded runtime.
    #[allow(dead_code)]
    fn futures_are_send(gateway: std::sync::Arc<super::Gateway>, request: http::Request<Vec<u8>>) {
        fn send<T: Send + 'static>(_: T) {}
        let g = gateway.clone();
        send(async move { g.handle(request).await });
        let g = gateway.clone();
        send(async move { g.run_scheduled().await });
        let g = gateway.clone();
        send(async move { g.deliver_webhooks().await });
        send(async move { gateway.flush_decisions().await });
    }
}

/// How many times a write that lost an optimistic race is recomputed.
pub(crate) const WRITE_ATTEMPTS: usize = 5;
