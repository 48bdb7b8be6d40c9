//! The AML area: transaction events reported by operators, accepted for
//! review; the compliance team lists them. Handlers are free functions; the
//! area's SQL is in [`store`].

pub mod store;

use serde::Serialize;
use serde_json::Value as Json;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use crate::api::stored_json;
use crate::error::{ApiError, ApiResult};
use crate::input::{is_snake_word, Fields};
use crate::openapi::shared::{Cents, Currency, Timestamp};
use crate::openapi::OperationDoc;
use crate::{time, Ctx, Gateway, Reply};

/// How many events the admin list shows.
const LIST_LENGTH: i64 = 500;

/// The body of `POST /v1/aml/event`; stored as the event, with `occurred_at` normalised.
#[derive(Serialize, ToSchema)]
struct Report {
    #[schema(min_length = 1, max_length = 256)]
    transaction_id: String,
    #[schema(min_length = 1, max_length = 256)]
    user_id: String,
    #[schema(pattern = "^[a-z_]{1,64}$")]
    event_type: String,
    #[schema(value_type = Cents)]
    amount_cents: i64,
    #[schema(value_type = Currency)]
    currency: String,
    #[schema(value_type = Option<Timestamp>)]
    occurred_at: Option<String>,
}

impl Report {
    fn parse(body: &[u8]) -> ApiResult<Self> {
        let mut f = Fields::from_body(body)?;
        let transaction_id = f.text("transaction_id");
        let user_id = f.text("user_id");
        let event_type = f.code("event_type");
        let amount_cents = f.cents("amount_cents");
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
        Ok(Report { transaction_id, user_id, event_type, amount_cents, currency, occurred_at: occurred.flatten().map(time::format) })
    }
}

/// What became of a report.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = AmlReportStatus)]
enum ReportStatus {
    Accepted,
}

#[derive(Serialize, ToSchema)]
struct Accepted<'a> {
    aml_event_id: &'a str,
    transaction_id: &'a str,
    status: ReportStatus,
    #[schema(value_type = Timestamp)]
    received_at: String,
}

#[derive(Serialize, ToSchema)]
#[schema(as = AmlEvent)]
struct EventView {
    aml_event_id: String,
    tenant_id: String,
    /// the event as reported
    #[schema(value_type = Object)]
    event: Json,
    review_status: String,
    #[schema(value_type = Timestamp)]
    received_at: String,
}

#[derive(Serialize, ToSchema)]
struct EventList {
    events: Vec<EventView>,
}

pub(crate) fn report_doc() -> OperationDoc {
    OperationDoc::new("aml", "report a transaction for AML monitoring")
        .idempotent()
        .body::<Report>()
        .responds::<Accepted>(202, "success")
        .responds::<Accepted>(200, "a repeat of the same transaction: the original result")
        .errors(&[404, 409])
}

pub(crate) fn list_doc() -> OperationDoc {
    OperationDoc::new("admin", "AML events of the environment").responds::<EventList>(200, "success")
}

/// `POST /v1/aml/event`: stores an event for review, once per transaction.
pub(crate) async fn report(gw: &Gateway, ctx: &Ctx<'_>) -> ApiResult<Reply> {
    let report = Report::parse(ctx.body)?;
    // a JSON value writes its keys in one order, so the fingerprint is stable
    let payload = serde_json::to_value(&report).map_err(|e| ApiError::internal().with_detail(e.to_string()))?;
    let fingerprint = hex::encode(Sha256::digest(payload.to_string().as_bytes()));
    let tenant = ctx.caller.tenant_id.as_str();
    until_committed!({
        if let Some(before) = store::reported(gw.store.as_ref(), tenant, &report.transaction_id).await? {
            if before.fingerprint == fingerprint {
                return Ok(Some(Reply::ok(stored_json(&before.response)?)));
            }
            return Err(ApiError::conflict("transaction_conflict", "this transaction_id was already reported with different details"));
        }
        gw.require_user(ctx, &report.user_id).await?;
        let aml_event_id = gw.new_id("aml");
        let accepted = Accepted {
            aml_event_id: &aml_event_id,
            transaction_id: &report.transaction_id,
            status: ReportStatus::Accepted,
            received_at: time::format(ctx.now),
        };
        let reply = Reply::typed(202, &accepted)?;
        let insert = store::insert(store::NewEvent {
            tenant_id: tenant,
            transaction_id: &report.transaction_id,
            aml_event_id: &aml_event_id,
            user_id: &report.user_id,
            fingerprint: &fingerprint,
            payload: payload.to_string(),
            response: reply.body.to_string(),
            received_at: ctx.now,
        });
        Ok(gw.commit(vec![insert]).await?.then_some(reply))
    })
}

/// `GET /v1/admin/aml/events`: the newest events of the environment.
pub(crate) async fn list(gw: &Gateway, ctx: &Ctx<'_>) -> ApiResult<Reply> {
    let mut events = Vec::new();
    for row in store::newest(gw.store.as_ref(), ctx.caller.environment, LIST_LENGTH).await? {
        events.push(EventView {
            aml_event_id: row.aml_event_id,
            tenant_id: row.tenant_id,
            event: stored_json(&row.payload)?,
            review_status: row.review_status,
            received_at: time::format(row.received_at),
        });
    }
    Reply::typed(200, &EventList { events })
}
