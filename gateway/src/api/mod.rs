//! The endpoints, one file per group, and what they share.

mod admin;
mod aml;
mod authn;
pub(crate) mod exclusions;
pub(crate) mod kyc;
mod limits;
mod sanctions;
mod sandbox;
mod webhooks;

use rules::SanctionsStatus;
use serde_json::json;

use crate::error::{ApiError, ApiResult};
use crate::ports::{Stmt, StoreError};
use crate::router::Route;
use crate::{Ctx, Gateway, Reply};

pub(crate) async fn dispatch(gw: &Gateway, route: Route, ctx: &Ctx<'_>) -> ApiResult<Reply> {
    match route {
        Route::Health => Ok(health()),
        Route::OpenApi => crate::openapi::reply(),
        // Answered before authentication, in `Gateway::dispatch`: it carries a digest, not a key.
        Route::IdentityVendorWebhook => Err(ApiError::internal().with_detail("the vendor webhook reached the keyed dispatch".into())),
        Route::Rules => {
            let id = gw.rules.identity();
            Ok(Reply::ok(json!({ "version": id.version, "component_sha256": id.component_sha256, "wit_package": rules::WIT_PACKAGE })))
        }
        Route::SanctionsScreen => gw.screen(ctx).await,
        Route::SanctionsStatus => gw.sanctions_status(ctx).await,
        Route::KycStart => gw.kyc_start(ctx).await,
        Route::KycStatus => gw.kyc_status(ctx).await,
        Route::KycTier => gw.kyc_tier(ctx).await,
        Route::KycManualReview => gw.kyc_manual_review(ctx).await,
        Route::ExclusionRegister => gw.register_exclusion(ctx).await,
        Route::ExclusionCheck => gw.check_exclusion(ctx).await,
        Route::ExclusionSnapshot => gw.exclusion_snapshot(ctx).await,
        Route::LimitSet => gw.set_limit(ctx).await,
        Route::LimitList => gw.list_limits(ctx).await,
        Route::LimitCheck => gw.check_limits(ctx).await,
        Route::LimitCommit => gw.commit_deposit(ctx).await,
        Route::LimitCancel(id) => gw.cancel_limit(ctx, &id).await,
        Route::AmlEvent => gw.aml_event(ctx).await,
        Route::AdminTenantCreate => gw.create_tenant(ctx).await,
        Route::AdminKeyCreate(tenant_id) => gw.create_tenant_key(ctx, &tenant_id).await,
        Route::AdminKeyRevoke(key_id) => gw.revoke_key(ctx, &key_id).await,
        Route::AdminTenantSuspend(tenant_id) => gw.suspend_tenant(ctx, &tenant_id).await,
        Route::AdminTenantAudit(tenant_id) => gw.tenant_audit(ctx, &tenant_id).await,
        Route::AdminCaseList => gw.list_cases(ctx).await,
        Route::AdminCaseGet(case_id) => gw.get_case(ctx, &case_id).await,
        Route::AdminCaseReview(case_id) => gw.review_case(ctx, &case_id).await,
        Route::AdminAmlList => gw.list_aml_events(ctx).await,
        Route::AdminRegulatorImport => gw.import_regulator_exclusions(ctx).await,
        Route::SandboxClockAdvance => gw.advance_clock(ctx).await,
        Route::SandboxClockGet => gw.get_clock(ctx).await,
        Route::SandboxKycSubmit(id) => gw.sandbox_kyc_submit(ctx, &id).await,
        Route::WebhookCreate => gw.create_webhook(ctx).await,
        Route::WebhookList => gw.list_webhooks(ctx).await,
        Route::WebhookDelete(id) => gw.delete_webhook(ctx, &id).await,
        Route::WebhookRotate(id) => gw.rotate_webhook_secret(ctx, &id).await,
        Route::WebhookEnable(id) => gw.enable_webhook(ctx, &id).await,
        Route::WebhookDeliveries(id) => gw.list_deliveries(ctx, &id).await,
        Route::WebhookRedeliver(id) => gw.redeliver(ctx, &id).await,
        Route::AdminRescreen => gw.rescreen(ctx).await,
        Route::AdminListSearch => gw.search_lists(ctx).await,
        Route::AdminLists => gw.list_lists(ctx).await,
        Route::AdminRunScheduled => gw.run_scheduled_now(ctx).await,
        Route::AdminDecisionList => gw.list_decisions(ctx).await,
        Route::AdminDecisionGet(id) => gw.get_decision(ctx, &id).await,
        Route::AdminDecisionReplay(id) => gw.replay_decision(ctx, &id).await,
        Route::AdminKycChecks => gw.list_kyc_checks(ctx).await,
        Route::AdminRegulatorExport => gw.export_to_regulator(ctx).await,
        Route::AdminMetrics => gw.review_metrics(ctx).await,
        Route::AdminAudit => gw.admin_audit(ctx).await,
        Route::TenantAudit => gw.own_audit(ctx).await,
    }
}

/// The public connectivity check.
pub(crate) fn health() -> Reply {
    Reply::ok(json!({ "status": "ok" }))
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
        Stmt::expect_one(
            "UPDATE users SET version = version + 1, updated_at = ?4 WHERE tenant_id = ?1 AND external_user_id = ?2 AND version = ?3",
            vec![ctx.caller.tenant_id.as_str().into(), user.external_user_id.as_str().into(), user.version.into(), ctx.now.into()],
        )
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
        let has_events = statements.iter().any(|s| s.sql.starts_with("INSERT INTO outbox"));
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
