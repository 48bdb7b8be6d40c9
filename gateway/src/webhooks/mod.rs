//! The webhooks area: operators' endpoints (register, list, remove, rotate
//! the secret, re-enable), the delivery log and redelivery, and the delivery
//! of every committed event ([`delivery`]). Handlers are free functions over
//! the core and the request; the area's SQL is in [`store`].

pub mod delivery;
pub(crate) mod events;
mod secrets;
pub mod store;

use serde::Serialize;
use utoipa::{IntoParams, ToSchema};

use crate::auth::Environment;
use crate::error::{ApiError, ApiResult};
use crate::input::Fields;
use crate::input::{Body, FromBody, Params, Path};
use crate::openapi::answer::{Accepted, Answer, Created};
use crate::openapi::shared::Timestamp;
use crate::openapi::OperationDoc;
use crate::{signing, time, Ctx, Gateway};
use events::{DeliveredEvent, EventName};
use store::DeliveryStatus;

/// How long a rotated-out secret keeps signing beside the new one.
pub const SECRET_OVERLAP_SECONDS: i64 = 24 * 3600;
const MAX_ENDPOINTS_PER_TENANT: i64 = 10;
/// How many deliveries the delivery log shows.
const DELIVERY_LOG_LENGTH: i64 = 200;

fn webhook_not_found() -> ApiError {
    ApiError::not_found("webhook_not_found", "no such webhook for this tenant")
}

/// Production endpoints must use https; the sandbox may also use plain http
/// to a loopback address, for local receivers.
pub(crate) fn check_url(raw: &str, environment: Environment) -> Result<String, String> {
    let url = url::Url::parse(raw).map_err(|e| format!("url is not a valid URL: {e}"))?;
    if url.username() != "" || url.password().is_some() {
        return Err("url must not carry credentials".into());
    }
    let loopback = match url.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => return Err("url needs a host".into()),
    };
    match (url.scheme(), environment) {
        ("https", _) => Ok(url.to_string()),
        ("http", Environment::Sandbox) if loopback => Ok(url.to_string()),
        ("http", Environment::Sandbox) => Err("sandbox endpoints must use https, or http on a loopback address".into()),
        _ => Err("production endpoints must use https".into()),
    }
}

/// The body of `POST /v1/webhooks`.
#[derive(ToSchema)]
pub(crate) struct NewEndpoint {
    #[schema(format = "uri", max_length = 256)]
    url: String,
}

impl FromBody for NewEndpoint {
    fn from_body(body: &[u8], gw: &Gateway, _: &Ctx<'_>) -> ApiResult<Self> {
        let mut f = Fields::from_body(body, gw.rules.as_ref())?;
        let url = f.text("url");
        f.finish()?;
        Ok(NewEndpoint { url })
    }
}

#[derive(Serialize, ToSchema)]
#[schema(as = WebhookRegistered)]
pub(crate) struct Registered {
    webhook_id: String,
    url: String,
    /// shown here and on rotation only
    secret: String,
    enabled: bool,
    #[schema(value_type = Timestamp)]
    created_at: String,
}

#[derive(Serialize, ToSchema)]
#[schema(as = WebhookEndpoint)]
struct EndpointView {
    webhook_id: String,
    url: String,
    enabled: bool,
    /// why the endpoint was disabled, while it is
    #[schema(required)]
    disabled_reason: Option<String>,
    #[schema(value_type = Timestamp)]
    created_at: String,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct EndpointList {
    webhooks: Vec<EndpointView>,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct Deleted {
    webhook_id: String,
    deleted: bool,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct Rotated {
    webhook_id: String,
    secret: String,
    #[schema(value_type = Timestamp)]
    previous_secret_expires_at: String,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct Enabled {
    webhook_id: String,
    enabled: bool,
}

#[derive(Serialize, ToSchema)]
#[schema(as = DeliveryAttempt)]
struct AttemptView {
    #[schema(value_type = Timestamp)]
    attempted_at: String,
    /// the receiver's HTTP status, if it answered
    #[schema(required)]
    status_code: Option<i64>,
    #[schema(required)]
    error: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[schema(as = WebhookDelivery)]
struct DeliveryView {
    delivery_id: String,
    event_id: String,
    #[schema(value_type = EventName)]
    event: String,
    status: DeliveryStatus,
    attempt_count: i64,
    /// while pending
    #[schema(value_type = Option<Timestamp>, required)]
    next_attempt_at: Option<String>,
    #[schema(required)]
    last_status_code: Option<i64>,
    #[schema(required)]
    last_error: Option<String>,
    #[schema(value_type = Timestamp)]
    created_at: String,
    attempts: Vec<AttemptView>,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct DeliveryLog {
    webhook_id: String,
    deliveries: Vec<DeliveryView>,
}

/// The query of `GET /v1/webhooks/{webhook_id}/deliveries`.
#[derive(serde::Deserialize, IntoParams)]
pub(crate) struct DeliveryFilter {
    /// only deliveries of this event
    #[param(value_type = EventName, required = false)]
    event: Option<DeliveredEvent>,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct Redelivery {
    delivery_id: String,
    status: DeliveryStatus,
}

pub(crate) fn create_doc() -> OperationDoc {
    OperationDoc::new("webhooks", "register a webhook endpoint")
        .describe("`400 invalid_url` for a non-https URL or, in production, one that resolves to a non-public address. The secret is shown once; an `Idempotency-Key` is not kept (the answer holds the secret, which is stored only sealed): a retry registers another endpoint.")
        .errors(&[409, 422])
}

pub(crate) fn list_doc() -> OperationDoc {
    OperationDoc::new("webhooks", "the tenant's webhook endpoints")
}

pub(crate) fn delete_doc() -> OperationDoc {
    OperationDoc::new("webhooks", "delete an endpoint").errors(&[404])
}

pub(crate) fn rotate_secret_doc() -> OperationDoc {
    OperationDoc::new(
        "webhooks",
        "a new signing secret; the old one signs too for a day. An `Idempotency-Key` is not kept (the answer holds the secret, \
         which is stored only sealed): a retry rotates again",
    )
    .errors(&[404, 409])
}

pub(crate) fn enable_doc() -> OperationDoc {
    OperationDoc::new("webhooks", "re-enable an endpoint disabled after failures").errors(&[404, 409])
}

pub(crate) fn deliveries_doc() -> OperationDoc {
    OperationDoc::new("webhooks", "the delivery log of an endpoint, newest first").errors(&[404])
}

pub(crate) fn redeliver_doc() -> OperationDoc {
    OperationDoc::new("webhooks", "send a delivery again").or_200("a repeat with the same Idempotency-Key: the original result").errors(&[404, 409])
}

/// `POST /v1/webhooks`: registers an endpoint and shows its signing secret once.
pub(crate) async fn create(gw: &Gateway, ctx: &Ctx<'_>, Body(request): Body<NewEndpoint>) -> ApiResult<Created<Registered>> {
    let url = check_url(&request.url, ctx.caller.environment).map_err(|m| ApiError::bad_request("invalid_url", m))?;
    if ctx.caller.environment == Environment::Production {
        gw.check_destination(&url).await.map_err(|m| ApiError::bad_request("invalid_url", m))?;
    }
    let webhook_id = gw.new_id("wh");
    let secret = signing::new_secret(&gw.ids.random_bytes(32));
    let real_now = gw.clock.now();
    let sealed = gw.seal_secret(&secret, &webhook_id);
    if !gw.commit(store::register(&webhook_id, &ctx.caller.tenant_id, &url, sealed, real_now, MAX_ENDPOINTS_PER_TENANT)).await?.done() {
        return Err(ApiError::unprocessable("too_many_webhooks", format!("a tenant can register at most {MAX_ENDPOINTS_PER_TENANT} endpoints")));
    }
    Created::new(&Registered { webhook_id, url, secret, enabled: true, created_at: time::format(real_now) })
}

/// `GET /v1/webhooks`: the tenant's endpoints, without secrets.
pub(crate) async fn list(gw: &Gateway, ctx: &Ctx<'_>, (): ()) -> ApiResult<Answer<EndpointList>> {
    let webhooks = store::endpoints(gw.store.as_ref(), &ctx.caller.tenant_id)
        .await?
        .into_iter()
        .map(|e| EndpointView {
            webhook_id: e.webhook_id,
            url: e.url,
            enabled: e.disabled_at.is_none(),
            disabled_reason: e.disabled_reason,
            created_at: time::format(e.created_at),
        })
        .collect();
    Answer::new(&EndpointList { webhooks })
}

/// The stored secret of the tenant's endpoint, or 404 `webhook_not_found`.
async fn require_webhook(gw: &Gateway, ctx: &Ctx<'_>, webhook_id: &str) -> ApiResult<String> {
    store::stored_secret(gw.store.as_ref(), &ctx.caller.tenant_id, webhook_id).await?.ok_or_else(webhook_not_found)
}

/// `DELETE /v1/webhooks/{id}`: removes an endpoint and abandons its pending deliveries.
pub(crate) async fn delete(gw: &Gateway, ctx: &Ctx<'_>, Path(webhook_id): Path) -> ApiResult<Answer<Deleted>> {
    require_webhook(gw, ctx, &webhook_id).await?;
    gw.store.batch(store::delete(&webhook_id, gw.clock.now())).await?;
    Answer::new(&Deleted { webhook_id, deleted: true })
}

/// `POST /v1/webhooks/{id}/rotate-secret`: a new secret; the old one keeps
/// signing beside it for a day, so receivers can switch without losing events.
pub(crate) async fn rotate_secret(gw: &Gateway, ctx: &Ctx<'_>, Path(webhook_id): Path) -> ApiResult<Answer<Rotated>> {
    let webhook_id = webhook_id.as_str();
    let secret = signing::new_secret(&gw.ids.random_bytes(32));
    let overlap_until = gw.clock.now() + SECRET_OVERLAP_SECONDS;
    // A concurrent rotation changes the secret this one replaces: read it again.
    until_committed!({
        let old = require_webhook(gw, ctx, webhook_id).await?;
        let rotated = gw.commit(vec![store::rotate(webhook_id, &old, gw.seal_secret(&secret, webhook_id), overlap_until)]).await?;
        Ok(rotated.then_some(()))
    })?;
    Answer::new(&Rotated { webhook_id: webhook_id.to_string(), secret, previous_secret_expires_at: time::format(overlap_until) })
}

/// `POST /v1/webhooks/{id}/enable`: turns an endpoint disabled by a 410 back on.
pub(crate) async fn enable(gw: &Gateway, ctx: &Ctx<'_>, Path(webhook_id): Path) -> ApiResult<Answer<Enabled>> {
    require_webhook(gw, ctx, &webhook_id).await?;
    gw.store.batch(vec![store::enable(&webhook_id)]).await?;
    Answer::new(&Enabled { webhook_id, enabled: true })
}

/// `GET /v1/webhooks/{id}/deliveries`: the delivery log of an endpoint,
/// newest first, with every attempt; `?event=NAME` keeps one kind of event.
pub(crate) async fn deliveries(
    gw: &Gateway,
    ctx: &Ctx<'_>,
    (Path(webhook_id), Params(DeliveryFilter { event })): (Path, Params<DeliveryFilter>),
) -> ApiResult<Answer<DeliveryLog>> {
    require_webhook(gw, ctx, &webhook_id).await?;
    let event = event.map_or("", |e| e.as_str());
    let mut deliveries = Vec::new();
    for d in store::deliveries(gw.store.as_ref(), &webhook_id, event, DELIVERY_LOG_LENGTH).await? {
        let attempts = store::attempts(gw.store.as_ref(), &d.delivery_id)
            .await?
            .into_iter()
            .map(|a| AttemptView { attempted_at: time::format(a.attempted_at), status_code: a.status_code, error: a.error })
            .collect();
        deliveries.push(DeliveryView {
            next_attempt_at: (d.status == DeliveryStatus::Pending).then(|| time::format(d.next_attempt_at)),
            delivery_id: d.delivery_id,
            event_id: d.event_id,
            event: d.event,
            status: d.status,
            attempt_count: d.attempts,
            last_status_code: d.last_status,
            last_error: d.last_error,
            created_at: time::format(d.created_at),
            attempts,
        });
    }
    Answer::new(&DeliveryLog { webhook_id, deliveries })
}

/// `POST /v1/webhooks/deliveries/{id}/redeliver`: sends a delivery again now, whatever became of it.
pub(crate) async fn redeliver(gw: &Gateway, ctx: &Ctx<'_>, Path(delivery_id): Path) -> ApiResult<Accepted<Redelivery>> {
    if !store::tenant_owns_delivery(gw.store.as_ref(), &ctx.caller.tenant_id, &delivery_id).await? {
        return Err(ApiError::not_found("delivery_not_found", "no such delivery for this tenant"));
    }
    gw.store.batch(vec![store::redeliver(&delivery_id, gw.clock.now())]).await?;
    gw.wake_delivery();
    Accepted::new(&Redelivery { delivery_id, status: DeliveryStatus::Pending })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoint_rules_by_environment() {
        assert!(check_url("https://ops.example.com/hooks", Environment::Production).is_ok());
        assert!(check_url("http://ops.example.com/hooks", Environment::Production).is_err());
        assert!(check_url("http://127.0.0.1:9000/h", Environment::Production).is_err());
        assert!(check_url("http://127.0.0.1:9000/h", Environment::Sandbox).is_ok());
        assert!(check_url("http://localhost/h", Environment::Sandbox).is_ok());
        assert!(check_url("http://[::1]:8/h", Environment::Sandbox).is_ok());
        assert!(check_url("http://10.0.0.1/h", Environment::Sandbox).is_err());
        assert!(check_url("ftp://example.com/h", Environment::Sandbox).is_err());
        assert!(check_url("https://user:pw@example.com/h", Environment::Sandbox).is_err());
        assert!(check_url("not a url", Environment::Sandbox).is_err());
    }
}

/// Whether `value` is a W3C `traceparent` of version 00: `00-` 32 hex digits
/// (not all zero) `-` 16 hex digits (not all zero) `-` 2 hex digits.
pub fn valid_traceparent(value: &str) -> bool {
    let parts: Vec<&str> = value.split('-').collect();
    let hex = |s: &str, len: usize| s.len() == len && s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    matches!(parts.as_slice(), [version, trace, span, flags]
        if *version == "00" && hex(trace, 32) && hex(span, 16) && hex(flags, 2) && trace.bytes().any(|b| b != b'0') && span.bytes().any(|b| b != b'0'))
}

#[cfg(test)]
mod traceparent_tests {
    #[test]
    fn only_w3c_traceparents_pass() {
        assert!(super::valid_traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"));
        assert!(!super::valid_traceparent("00-00000000000000000000000000000000-00f067aa0ba902b7-01"));
        assert!(!super::valid_traceparent("00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01"));
        assert!(!super::valid_traceparent("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"));
        assert!(!super::valid_traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01\r\nx-evil: 1"));
    }
}
