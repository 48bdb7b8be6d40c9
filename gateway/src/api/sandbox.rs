//! The sandbox test clock.

use serde::Serialize;
use utoipa::ToSchema;

use crate::auth::Environment;
use crate::error::{ApiError, ApiResult};
use crate::input::{Body, Fields, FromBody, FromRequest};
use crate::openapi::answer::Answer;
use crate::openapi::shared::Timestamp;
use crate::openapi::OperationDoc;
use crate::{time, Ctx, Gateway};

/// Ten years: far enough for every cool-off and exclusion.
const MAX_ADVANCE_SECONDS: i64 = 10 * 366 * 86_400;

/// A sandbox key's request: 403 `sandbox_only` with another, before the rest of the request is read.
pub(crate) struct Sandbox;

impl FromRequest for Sandbox {
    fn from_request(_: &Gateway, ctx: &Ctx<'_>, _: Option<&str>) -> ApiResult<Self> {
        if ctx.caller.environment == Environment::Sandbox {
            Ok(Sandbox)
        } else {
            Err(ApiError::forbidden("sandbox_only", "the test clock is only available with a sandbox key"))
        }
    }
    fn document(doc: OperationDoc) -> OperationDoc {
        doc
    }
}

/// The body of `POST /v1/sandbox/clock`.
#[derive(ToSchema)]
pub(crate) struct Advance {
    #[schema(minimum = 1, maximum = 316_224_000)]
    advance_seconds: i64,
}

impl FromBody for Advance {
    fn from_body(body: &[u8], gw: &Gateway, _: &Ctx<'_>) -> ApiResult<Self> {
        let mut f = Fields::from_body(body, gw.rules.as_ref())?;
        let seconds = f.integer("advance_seconds");
        if !f.is_missing("advance_seconds") && !(1..=MAX_ADVANCE_SECONDS).contains(&seconds) {
            f.reject("invalid_field", format!("advance_seconds must be from 1 to {MAX_ADVANCE_SECONDS}"));
        }
        f.finish()?;
        Ok(Advance { advance_seconds: seconds })
    }
}

/// The tenant's sandbox time.
#[derive(Serialize, ToSchema)]
#[schema(as = SandboxClock)]
pub(crate) struct Clock {
    #[schema(value_type = Timestamp)]
    now: String,
}

pub(crate) fn advance_clock_doc() -> OperationDoc {
    OperationDoc::new("sandbox", "move the tenant's sandbox clock forward")
        .describe("Every date of the tenant's players runs on this clock: limit cool-offs and windows, review deadlines, erasure jobs' held classes and the retention periods that start them. The scheduled work moves each on when the tenant's clock reaches it.")
        .errors(&[403, 409])
}

pub(crate) fn get_clock_doc() -> OperationDoc {
    OperationDoc::new("sandbox", "the tenant's sandbox clock").errors(&[403])
}

/// Moves this tenant's clock forward. Time never goes back.
pub(crate) async fn advance_clock(
    gw: &Gateway,
    ctx: &Ctx<'_>,
    (Sandbox, Body(Advance { advance_seconds: seconds })): (Sandbox, Body<Advance>),
) -> ApiResult<Answer<Clock>> {
    gw.store.batch(vec![crate::tenants::store::advance_clock(&ctx.caller.tenant_id, seconds)]).await?;
    gw.run_scheduled().await?;
    Answer::new(&Clock { now: time::format(ctx.now + seconds) })
}

pub(crate) async fn get_clock(_gw: &Gateway, ctx: &Ctx<'_>, Sandbox: Sandbox) -> ApiResult<Answer<Clock>> {
    Answer::new(&Clock { now: time::format(ctx.now) })
}

#[cfg(test)]
mod tests {
    use utoipa::PartialSchema;

    use super::*;

    /// The documented bound is the enforced one (a schema attribute takes only a literal).
    #[test]
    fn the_documented_maximum_is_the_enforced_one() {
        let schema = serde_json::to_value(Advance::schema()).expect("serialises");
        assert_eq!(schema["properties"]["advance_seconds"]["maximum"].as_f64(), Some(MAX_ADVANCE_SECONDS as f64));
    }
}
