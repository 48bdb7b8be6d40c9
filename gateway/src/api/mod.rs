//! The endpoints, one file per group, and what they share.

pub(crate) mod exclusions;
pub(crate) mod kyc;
mod limits;
mod sanctions;
mod sandbox;

use rules::SanctionsStatus;
use serde_json::json;

use crate::error::{ApiError, ApiResult};
use crate::ports::{Stmt, StoreError};
use crate::{Ctx, Gateway, Reply};

/// The public connectivity check.
pub(crate) async fn health(_gw: &Gateway, _request: &http::Request<Vec<u8>>) -> ApiResult<Reply> {
    Ok(Reply::ok(json!({ "status": "ok" })))
}

/// The rules component this host decides with.
pub(crate) async fn rules_identity(gw: &Gateway, _ctx: &Ctx<'_>) -> ApiResult<Reply> {
    let id = gw.rules.identity();
    Ok(Reply::ok(json!({
        "version": id.version,
        "component_sha256": id.component_sha256,
        "wit_package": rules::WIT_PACKAGE,
        "jurisdictions": gw.rules.jurisdictions(),
    })))
}

/// A user as the other endpoints need it.
pub(crate) struct User {
    pub external_user_id: String,
    pub email: String,
    pub sanctions_status: SanctionsStatus,
    pub verified_tier: rules::KycTier,
    pub verified_at: Option<i64>,
    pub cumulative_withdrawn_cents: i64,
    pub version: i64,
    /// the currency of the user's withdrawals, fixed by the first
    pub withdrawal_currency: Option<String>,
}

impl Gateway {
    pub(crate) async fn find_user(&self, tenant_id: &str, external_user_id: &str) -> ApiResult<Option<User>> {
        let rows = self.store.query(USER_SQL, vec![tenant_id.into(), external_user_id.into()]).await?;
        rows.first().map(user_from_row).transpose()
    }

    pub(crate) async fn require_user(&self, ctx: &Ctx<'_>, external_user_id: &str) -> ApiResult<User> {
        self.find_user(&ctx.caller.tenant_id, external_user_id).await?.ok_or_else(ApiError::user_not_found)
    }

    /// Claims the user's row for this write: the batch commits only if no
    /// other write to the user committed since it was read.
    pub(crate) fn claim_user(&self, ctx: &Ctx<'_>, user: &User) -> Stmt {
        claim_user_row(&ctx.caller.tenant_id, &user.external_user_id, user.version, ctx.now)
    }

    /// What a review list needs: `overdue=true|false`, the review target and the service's now.
    pub(crate) fn review_filter(&self, ctx: &Ctx<'_>) -> ApiResult<(bool, i64, i64)> {
        let overdue_only = match ctx.query.get("overdue") {
            None | Some("false") => false,
            Some("true") => true,
            Some(_) => return Err(ApiError::bad_request("invalid_field", "overdue must be true or false")),
        };
        Ok((overdue_only, self.rules.horizons().review_target_seconds, self.clock.now()))
    }

    /// Commits a batch; `Ok(false)` when it lost a race and should be recomputed.
    pub(crate) async fn commit(&self, statements: Vec<Stmt>) -> ApiResult<bool> {
        let has_events = statements.iter().any(crate::webhooks::store::writes_event);
        match self.store.batch(statements).await {
            Ok(()) => {
                if has_events {
                    self.wake_delivery();
                }
                Ok(true)
            }
            Err(StoreError::Conflict { .. } | StoreError::Unique) => Ok(false),
            Err(e @ (StoreError::Backend(_) | StoreError::Unavailable(_))) => Err(e.into()),
        }
    }
}

/// Claims a user's row: the batch it is in commits only if no other write
/// to the user committed since `version` was read. Every batch that writes
/// a user's state holds one claim per user it writes.
pub(crate) fn claim_user_row(tenant_id: &str, user_id: &str, version: i64, now: i64) -> Stmt {
    Stmt::expect_one(
        "UPDATE users SET version = version + 1, updated_at = ?4 WHERE tenant_id = ?1 AND external_user_id = ?2 AND version = ?3",
        vec![tenant_id.into(), user_id.into(), version.into(), now.into()],
    )
}

/// The user of a tenant: `?1` tenant, `?2` user.
pub(crate) const USER_SQL: &str = "SELECT external_user_id, email, sanctions_status, verified_tier, verified_at, cumulative_withdrawn_cents, version,
        withdrawal_currency
 FROM users WHERE tenant_id = ?1 AND external_user_id = ?2";

pub(crate) fn user_from_row(row: &crate::ports::Row) -> ApiResult<User> {
    Ok(User {
        external_user_id: row.text(0)?,
        email: row.text(1)?,
        sanctions_status: SanctionsStatus::parse(&row.text(2)?).ok_or_else(ApiError::internal)?,
        verified_tier: rules::KycTier::parse(&row.text(3)?).ok_or_else(ApiError::internal)?,
        verified_at: row.opt_int(4)?,
        cumulative_withdrawn_cents: row.int(5)?,
        version: row.int(6)?,
        withdrawal_currency: row.opt_text(7)?,
    })
}

pub(crate) fn busy() -> ApiError {
    ApiError::conflict("concurrent_update", "the resource changed concurrently too many times; retry the request")
}

/// Parses a stored JSON response.
pub(crate) fn stored_json(text: &str) -> ApiResult<serde_json::Value> {
    serde_json::from_str(text).map_err(|_| ApiError::internal())
}

/// Minor units as a displayable amount, e.g. `USD 12.50`.
pub(crate) fn money(cents: i64, currency: &str) -> String {
    format!("{currency} {}.{:02}", cents / 100, (cents % 100).abs())
}
