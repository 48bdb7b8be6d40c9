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

pub mod access;
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
pub mod metric_names;
pub mod netcheck;
pub mod openapi;
pub mod people;
pub mod pipeline;
pub mod ports;
pub mod rate_limit;
pub mod rates;
pub mod registers;
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

use crate::auth::Environment;
use crate::error::{ApiError, ApiResult};
use crate::input::Query;
use crate::ports::{Clock, Ids, PageCache, RateLimit, Resolver, Rules, Store, VendorHttp, Waker, WebhookSender};
use crate::rate_limit::RateLimiter;
use rules_model::Horizons;

/// Operator-sent timestamps further than this from the service clock are refused.
pub const MAX_CLOCK_SKEW_SECONDS: i64 = 300;

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
    /// Lists to refresh from URLs ([`crate::lists::refresh::refresh_due`]).
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
    /// the team's identity provider, when console people sign in through it
    pub oidc: Option<people::oidc::OidcConfig>,
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
    /// people one nightly register batch request asks about (at most
    /// GAMSTOP's 1,000; a request's answers are about three statements each)
    pub register_batch_people: usize,
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
            register_batch_people: 1_000,
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
    /// Idempotency keys' releases and answers the store could not take; see [`idempotency::OwedKeys`].
    pub(crate) owed_keys: idempotency::OwedKeys,
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
    /// the address the request came from, as the host set it ([`input::SourceAddress`])
    pub source: Option<std::net::IpAddr>,
    /// the `Idempotency-Key` of a route that keeps it in its own batch (a read-only check reserves none)
    pub(crate) idempotency: Option<idempotency::Deferred>,
}

/// A successful answer.
pub struct Reply {
    pub status: u16,
    /// the body, as the JSON text it is sent in: serialised once, straight from
    /// the handler's typed answer (or kept as stored), never through a `Value`
    pub body: JsonText,
    /// the rules decision behind the answer, sent as `x-decision-id`
    pub decision_id: Option<String>,
}

/// JSON text known to be valid.
pub type JsonText = Box<serde_json::value::RawValue>;

impl Reply {
    /// A typed body.
    pub fn typed<T: serde::Serialize>(status: u16, body: &T) -> ApiResult<Self> {
        let body =
            serde_json::value::to_raw_value(body).map_err(|e| ApiError::internal().with_detail(format!("a response did not serialise: {e}")))?;
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
            owed_keys: Default::default(),
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

    /// The caller's now: a sandbox tenant's test clock shifts it.
    pub(crate) fn tenant_now(&self, caller: &Caller) -> i64 {
        match caller.environment {
            Environment::Sandbox => self.clock.now().saturating_add(caller.clock_offset_seconds),
            Environment::Production => self.clock.now(),
        }
    }

    /// A new opaque identifier such as `scr_1f0c…`.
    pub(crate) fn new_id(&self, prefix: &str) -> String {
        new_id(self.ids.as_ref(), prefix)
    }
}

/// A new opaque identifier such as `req_1f0c…`, for hosts that answer
/// before the core has a request (their early failures).
pub fn new_id(ids: &dyn Ids, prefix: &str) -> String {
    format!("{prefix}_{}", hex::encode(ids.id_bytes(12)))
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
