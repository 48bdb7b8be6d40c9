//! The sandbox test clock.

use serde_json::json;

use crate::auth::Environment;
use crate::error::{ApiError, ApiResult};
use crate::input::Fields;
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
    Ok(Reply::ok(json!({ "now": time::format(ctx.now + seconds) })))
}

pub(crate) async fn get_clock(_gw: &Gateway, ctx: &Ctx<'_>) -> ApiResult<Reply> {
    sandbox_only(ctx)?;
    Ok(Reply::ok(json!({ "now": time::format(ctx.now) })))
}
