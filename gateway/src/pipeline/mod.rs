//! The request pipeline: what every API request goes through before and
//! after its handler, in order: route, size, content type, the failing
//! source's gate, authentication, rate limit, access, idempotency,
//! dispatch, the admin audit, then the response's headers and facts.
//! Above the route table and every area; the core's base types stay in
//! the crate root.

use crate::error::{self, ApiError, ApiResult};
use crate::input::{failure_source, is_json, Query, SourceAddress};
use crate::ports::RateState;
use crate::telemetry::{self, RequestFacts};
use crate::{console, idempotency, router, Ctx, Gateway, Reply};

/// Largest accepted request body. Hosts read at most one byte more.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// Failed authentications a source address may make in a minute before its
/// requests are refused unread until the minute is over.
pub const DEFAULT_AUTH_FAILURES_PER_SOURCE: u32 = 60;

impl Gateway {
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
                Ok(reply) => (reply.status, Some(reply.body.get())),
                Err(error) => (error.status, None),
            };
            facts.check = telemetry::check_facts(operation_id, status, body);
        }
        let mut response = match result {
            Ok(reply) => {
                let bytes = String::from(Box::<str>::from(reply.body)).into_bytes();
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
        let query = Query::parse(request.uri().query(), self.rules.as_ref())?;
        // an answer holding a secret (a key, a password, a TOTP or signing
        // secret: stored only hashed or sealed) is never kept for a replay; a
        // check and an AML event read their key with their facts and keep it
        // only in the batch of an answer that commits (a breach, the event,
        // a counted withdrawal)
        let keyed = route.takes_idempotency_key();
        let in_own_batch = keyed && matches!(route, router::Route::LimitCheck | router::Route::AmlEvent | router::Route::KycStart);
        let reservation = match keyed && !in_own_batch {
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
