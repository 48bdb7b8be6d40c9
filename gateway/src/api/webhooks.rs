//! Webhook endpoints: register, list, remove, rotate the secret, re-enable,
//! the delivery log and redelivery.

use serde_json::json;

use crate::auth::Environment;
use crate::error::{ApiError, ApiResult};
use crate::input::Fields;
use crate::ports::{Stmt, Value};
use crate::{signing, time, Ctx, Gateway, Reply};

/// How long a rotated-out secret keeps signing beside the new one.
pub const SECRET_OVERLAP_SECONDS: i64 = 24 * 3600;
const MAX_ENDPOINTS_PER_TENANT: i64 = 10;

fn webhook_not_found() -> ApiError {
    ApiError::not_found("webhook_not_found", "no such webhook for this tenant")
}

/// Production endpoints must use https; the sandbox may also use plain http
/// to a loopback address, for local receivers.
fn check_url(raw: &str, environment: Environment) -> Result<String, String> {
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

impl Gateway {
    pub(crate) async fn create_webhook(&self, ctx: &Ctx<'_>) -> ApiResult<Reply> {
        let mut f = Fields::from_body(ctx.body)?;
        let raw = f.text("url");
        f.finish()?;
        let url = check_url(&raw, ctx.caller.environment).map_err(|m| ApiError::bad_request("invalid_url", m))?;
        if ctx.caller.environment == Environment::Production {
            self.check_destination(&url).await.map_err(|m| ApiError::bad_request("invalid_url", m))?;
        }
        let tenant = ctx.caller.tenant_id.as_str();
        let webhook_id = self.new_id("wh");
        let secret = signing::new_secret(&self.ids.random_bytes(32));
        let real_now = self.clock.now();
        // The tenant's row is locked first, so that concurrent registrations
        // of one tenant count one after another and never pass the cap.
        let registered = self
            .commit(vec![
                Stmt::expect_one("UPDATE tenants SET name = name WHERE tenant_id = ?1", vec![tenant.into()]),
                Stmt::expect_one(
                    "INSERT INTO webhooks (webhook_id, tenant_id, url, secret, created_at)
                     SELECT CAST(?1 AS TEXT), CAST(?2 AS TEXT), CAST(?3 AS TEXT), CAST(?4 AS TEXT), CAST(?5 AS BIGINT)
                     WHERE (SELECT COUNT(*) FROM webhooks WHERE tenant_id = ?2 AND deleted_at IS NULL) < ?6",
                    vec![
                        webhook_id.as_str().into(),
                        tenant.into(),
                        url.as_str().into(),
                        self.seal_secret(&secret, &webhook_id).into(),
                        real_now.into(),
                        MAX_ENDPOINTS_PER_TENANT.into(),
                    ],
                ),
            ])
            .await?;
        if !registered {
            return Err(ApiError::unprocessable("too_many_webhooks", format!("a tenant can register at most {MAX_ENDPOINTS_PER_TENANT} endpoints")));
        }
        Ok(Reply::created(json!({ "webhook_id": webhook_id, "url": url, "secret": secret, "enabled": true, "created_at": time::format(real_now) })))
    }

    pub(crate) async fn list_webhooks(&self, ctx: &Ctx<'_>) -> ApiResult<Reply> {
        let rows = self
            .store
            .query(
                "SELECT webhook_id, url, disabled_at, disabled_reason, created_at FROM webhooks WHERE tenant_id = ?1 AND deleted_at IS NULL ORDER BY created_at, webhook_id",
                vec![ctx.caller.tenant_id.as_str().into()],
            )
            .await?;
        let mut hooks = Vec::new();
        for row in &rows {
            hooks.push(json!({
                "webhook_id": row.text(0)?,
                "url": row.text(1)?,
                "enabled": row.opt_int(2)?.is_none(),
                "disabled_reason": row.opt_text(3)?,
                "created_at": time::format(row.int(4)?),
            }));
        }
        Ok(Reply::ok(json!({ "webhooks": hooks })))
    }

    async fn require_webhook(&self, ctx: &Ctx<'_>, webhook_id: &str) -> ApiResult<String> {
        let rows = self
            .store
            .query(
                "SELECT secret FROM webhooks WHERE webhook_id = ?1 AND tenant_id = ?2 AND deleted_at IS NULL",
                vec![webhook_id.into(), ctx.caller.tenant_id.as_str().into()],
            )
            .await?;
        rows.first().map(|r| r.text(0)).transpose()?.ok_or_else(webhook_not_found)
    }

    pub(crate) async fn delete_webhook(&self, ctx: &Ctx<'_>, webhook_id: &str) -> ApiResult<Reply> {
        self.require_webhook(ctx, webhook_id).await?;
        let now = self.clock.now();
        self.store
            .batch(vec![
                Stmt::new("UPDATE webhooks SET deleted_at = ?2 WHERE webhook_id = ?1", vec![webhook_id.into(), now.into()]),
                Stmt::new(
                    "UPDATE webhook_deliveries SET status = 'abandoned', last_error = 'endpoint removed' WHERE webhook_id = ?1 AND status = 'pending'",
                    vec![webhook_id.into()],
                ),
            ])
            .await?;
        Ok(Reply::ok(json!({ "webhook_id": webhook_id, "deleted": true })))
    }

    /// A new secret; the old one keeps signing beside it for a day, so receivers can switch without losing events.
    pub(crate) async fn rotate_webhook_secret(&self, ctx: &Ctx<'_>, webhook_id: &str) -> ApiResult<Reply> {
        let secret = signing::new_secret(&self.ids.random_bytes(32));
        let overlap_until = self.clock.now() + SECRET_OVERLAP_SECONDS;
        // A concurrent rotation changes the secret this one replaces: read it again.
        until_committed!({
            let old = self.require_webhook(ctx, webhook_id).await?;
            let rotated = self
                .commit(vec![Stmt::expect_one(
                    "UPDATE webhooks SET secret = ?2, previous_secret = ?3, previous_secret_expires_at = ?4 WHERE webhook_id = ?1 AND secret = ?3",
                    vec![webhook_id.into(), self.seal_secret(&secret, webhook_id).into(), old.as_str().into(), overlap_until.into()],
                )])
                .await?;
            Ok(rotated.then_some(()))
        })?;
        Ok(Reply::ok(json!({ "webhook_id": webhook_id, "secret": secret, "previous_secret_expires_at": time::format(overlap_until) })))
    }

    pub(crate) async fn enable_webhook(&self, ctx: &Ctx<'_>, webhook_id: &str) -> ApiResult<Reply> {
        self.require_webhook(ctx, webhook_id).await?;
        self.store
            .batch(vec![Stmt::new("UPDATE webhooks SET disabled_at = NULL, disabled_reason = NULL WHERE webhook_id = ?1", vec![webhook_id.into()])])
            .await?;
        Ok(Reply::ok(json!({ "webhook_id": webhook_id, "enabled": true })))
    }

    /// The delivery log of an endpoint, newest first (the last 200), with
    /// every attempt; `?event=NAME` keeps one kind of event.
    pub(crate) async fn list_deliveries(&self, ctx: &Ctx<'_>, webhook_id: &str) -> ApiResult<Reply> {
        self.require_webhook(ctx, webhook_id).await?;
        let event = ctx.query.get("event").unwrap_or("");
        if !event.is_empty() && rules::EventKind::parse(event).is_none() {
            return Err(ApiError::bad_request("invalid_field", "event must be the name of an event, such as exclusion.created"));
        }
        let rows = self
            .store
            .query(
                "SELECT d.delivery_id, d.event_id, o.event, d.status, d.attempts, d.next_attempt_at, d.last_status, d.last_error, d.created_at
                 FROM webhook_deliveries d JOIN outbox o ON o.event_id = d.event_id
                 WHERE d.webhook_id = ?1 AND (?2 = '' OR o.event = ?2) ORDER BY d.created_at DESC, d.delivery_id LIMIT 200",
                vec![webhook_id.into(), event.into()],
            )
            .await?;
        let mut deliveries = Vec::new();
        for row in &rows {
            let delivery_id = row.text(0)?;
            let attempts = self
                .store
                .query(
                    "SELECT attempted_at, status_code, error FROM webhook_attempts WHERE delivery_id = ?1 ORDER BY attempted_at, attempt_id",
                    vec![delivery_id.as_str().into()],
                )
                .await?
                .iter()
                .map(|a| Ok(json!({ "attempted_at": time::format(a.int(0)?), "status_code": a.opt_int(1)?, "error": a.opt_text(2)? })))
                .collect::<ApiResult<Vec<_>>>()?;
            let status = row.text(3)?;
            deliveries.push(json!({
                "delivery_id": delivery_id,
                "event_id": row.text(1)?,
                "event": row.text(2)?,
                "status": status,
                "attempt_count": row.int(4)?,
                "next_attempt_at": if status == "pending" { time::json(row.int(5)?) } else { serde_json::Value::Null },
                "last_status_code": row.opt_int(6)?,
                "last_error": row.opt_text(7)?,
                "created_at": time::format(row.int(8)?),
                "attempts": attempts,
            }));
        }
        Ok(Reply::ok(json!({ "webhook_id": webhook_id, "deliveries": deliveries })))
    }

    /// Sends a delivery again now, whatever became of it.
    pub(crate) async fn redeliver(&self, ctx: &Ctx<'_>, delivery_id: &str) -> ApiResult<Reply> {
        let rows = self
            .store
            .query(
                "SELECT d.webhook_id FROM webhook_deliveries d JOIN webhooks w ON w.webhook_id = d.webhook_id
                 WHERE d.delivery_id = ?1 AND w.tenant_id = ?2 AND w.deleted_at IS NULL",
                vec![delivery_id.into(), ctx.caller.tenant_id.as_str().into()],
            )
            .await?;
        if rows.is_empty() {
            return Err(ApiError::not_found("delivery_not_found", "no such delivery for this tenant"));
        }
        self.store
            .batch(vec![Stmt::new(
                "UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?2, created_at = ?2 WHERE delivery_id = ?1",
                vec![delivery_id.into(), Value::from(self.clock.now())],
            )])
            .await?;
        self.wake_delivery();
        Ok(Reply::accepted(json!({ "delivery_id": delivery_id, "status": "pending" })))
    }
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
