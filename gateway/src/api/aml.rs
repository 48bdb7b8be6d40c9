//! AML transaction events: accepted for asynchronous review.

use serde_json::json;
use sha2::{Digest, Sha256};

use super::stored_json;
use crate::error::{ApiError, ApiResult};
use crate::input::{is_snake_word, Fields};
use crate::ports::Stmt;
use crate::{time, Ctx, Gateway, Reply};

impl Gateway {
    pub(crate) async fn aml_event(&self, ctx: &Ctx<'_>) -> ApiResult<Reply> {
        let mut f = Fields::from_body(ctx.body)?;
        let transaction_id = f.text("transaction_id");
        let user_id = f.text("user_id");
        let event_type = f.code("event_type");
        let amount = f.cents("amount_cents");
        let currency = f.currency("currency");
        let occurred_at = f.opt_code("occurred_at");
        if !event_type.is_empty() && !is_snake_word(&event_type) {
            f.reject("invalid_field", "event_type must be lower-case letters and underscores, such as deposit or withdrawal");
        }
        let occurred = occurred_at.as_deref().map(time::parse);
        if occurred == Some(None) {
            f.reject("invalid_field", "occurred_at must be an ISO 8601 timestamp");
        }
        f.finish()?;
        let payload = json!({
            "transaction_id": transaction_id,
            "user_id": user_id,
            "event_type": event_type,
            "amount_cents": amount,
            "currency": currency,
            "occurred_at": occurred.flatten().map(time::format),
        });
        let fingerprint = hex::encode(Sha256::digest(payload.to_string().as_bytes()));
        let tenant = ctx.caller.tenant_id.as_str();
        until_committed!({
            let rows = self
                .store
                .query(
                    "SELECT fingerprint, response FROM aml_events WHERE tenant_id = ?1 AND transaction_id = ?2",
                    vec![tenant.into(), transaction_id.as_str().into()],
                )
                .await?;
            if let Some(row) = rows.first() {
                if row.text(0)? == fingerprint {
                    return Ok(Some(Reply::ok(stored_json(&row.text(1)?)?)));
                }
                return Err(ApiError::conflict("transaction_conflict", "this transaction_id was already reported with different details"));
            }
            self.require_user(ctx, &user_id).await?;
            let aml_event_id = self.new_id("aml");
            let response = json!({
                "aml_event_id": aml_event_id,
                "transaction_id": transaction_id,
                "status": "accepted",
                "received_at": time::format(ctx.now),
            });
            let insert = Stmt::new(
                "INSERT INTO aml_events (tenant_id, transaction_id, aml_event_id, external_user_id, fingerprint, payload, response, review_status, received_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'queued', ?8)",
                vec![
                    tenant.into(),
                    transaction_id.as_str().into(),
                    aml_event_id.as_str().into(),
                    user_id.as_str().into(),
                    fingerprint.as_str().into(),
                    payload.to_string().into(),
                    response.to_string().into(),
                    ctx.now.into(),
                ],
            );
            if self.commit(vec![insert]).await? {
                return Ok(Some(Reply::accepted(response)));
            }
            Ok(None)
        })
    }

    pub(crate) async fn list_aml_events(&self, ctx: &Ctx<'_>) -> ApiResult<Reply> {
        let rows = self
            .store
            .query(
                "SELECT a.aml_event_id, a.tenant_id, a.payload, a.review_status, a.received_at FROM aml_events a
                 JOIN tenants t ON t.tenant_id = a.tenant_id WHERE t.environment = ?1 ORDER BY a.received_at DESC, a.aml_event_id LIMIT 500",
                vec![ctx.caller.environment.as_str().into()],
            )
            .await?;
        let mut events = Vec::new();
        for row in &rows {
            events.push(json!({
                "aml_event_id": row.text(0)?,
                "tenant_id": row.text(1)?,
                "event": stored_json(&row.text(2)?)?,
                "review_status": row.text(3)?,
                "received_at": time::format(row.int(4)?),
            }));
        }
        Ok(Reply::ok(json!({ "events": events })))
    }
}
