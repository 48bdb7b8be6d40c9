//! The sandbox test clock.

use serde::Serialize;
use utoipa::ToSchema;

use crate::auth::Environment;
use crate::error::{ApiError, ApiResult};
use crate::input::Fields;
use crate::openapi::shared::Timestamp;
use crate::openapi::OperationDoc;
use crate::{time, Ctx, Gateway, Reply};

/// Ten years: far enough for every cool-off and exclusion.
const MAX_ADVANCE_SECONDS: i64 = 10 * 366 * 86_400;

fn sandbox_only(ctx: &Ctx<'_>) -> ApiResult<()> {
    if ctx.caller.environment == Environment::Sandbox {
        Ok(())
    } else {
        Err(ApiError::forbidden("sandbox_only", "the test clock is only available with a sandbox key"))
    }
}

/// The body of `POST /v1/sandbox/clock`.
#[derive(ToSchema)]
#[allow(dead_code)]
struct Advance {
    #[schema(minimum = 1, maximum = 316_224_000)]
    advance_seconds: i64,
}

/// The tenant's sandbox time.
#[derive(Serialize, ToSchema)]
#[schema(as = SandboxClock)]
struct Clock {
    #[schema(value_type = Timestamp)]
    now: String,
}

pub(crate) fn advance_clock_doc() -> OperationDoc {
    OperationDoc::new("sandbox", "move the tenant's sandbox clock forward")
        .idempotent()
        .body::<Advance>()
        .responds::<Clock>(200, "success")
        .errors(&[403, 409])
}

pub(crate) fn get_clock_doc() -> OperationDoc {
    OperationDoc::new("sandbox", "the tenant's sandbox clock").responds::<Clock>(200, "success").errors(&[403])
}

/// Moves this tenant's clock forward. Time never goes back.
pub(crate) async fn advance_clock(gw: &Gateway, ctx: &Ctx<'_>) -> ApiResult<Reply> {
    sandbox_only(ctx)?;
    let mut f = Fields::from_body(ctx.body)?;
    let seconds = f.integer("advance_seconds");
    if !f.is_missing("advance_seconds") && !(1..=MAX_ADVANCE_SECONDS).contains(&seconds) {
        f.reject("invalid_field", format!("advance_seconds must be from 1 to {MAX_ADVANCE_SECONDS}"));
    }
    f.finish()?;
    gw.store.batch(vec![crate::tenants::store::advance_clock(&ctx.caller.tenant_id, seconds)]).await?;
    gw.run_scheduled().await?;
    Reply::typed(200, &Clock { now: time::format(ctx.now + seconds) })
}

pub(crate) async fn get_clock(_gw: &Gateway, ctx: &Ctx<'_>) -> ApiResult<Reply> {
    sandbox_only(ctx)?;
    Reply::typed(200, &Clock { now: time::format(ctx.now) })
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
