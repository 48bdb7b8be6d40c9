//! KYC that gates withdrawals: tier selection, checks, the sandbox vendor and manual review.

use rules::{KycTier, StubKycOutcome};
use serde_json::{json, Value as Json};

use super::{busy, stored_json, transactions_held, User};
use crate::auth::Environment;
use crate::error::{ApiError, ApiResult};
use crate::input::{normalize_email, normalize_phone, Fields};
use crate::ports::{RulesFault, Stmt};
use crate::{time, Ctx, Gateway, Reply, WRITE_ATTEMPTS};

/// A check the user leaves untouched this long expires.
pub const KYC_ABANDON_SECONDS: i64 = 7 * 86_400;
/// Lifetime of the token for the vendor's verification flow.
const VENDOR_TOKEN_SECONDS: i64 = 900;

fn required_documents(tier: KycTier) -> Vec<&'static str> {
    match tier {
        KycTier::Tier0 => vec![],
        KycTier::Tier1 => vec!["email_otp", "phone_otp"],
        KycTier::Tier2 => vec!["government_id", "selfie"],
        KycTier::Tier3 => vec!["government_id", "selfie", "proof_of_address"],
        KycTier::Tier4 => vec!["government_id", "selfie", "proof_of_address", "source_of_funds"],
    }
}

fn estimated_clear_time(tier: KycTier) -> &'static str {
    match tier {
        KycTier::Tier0 | KycTier::Tier1 => "0-1 hours",
        KycTier::Tier2 => "1-24 hours",
        KycTier::Tier3 => "24-48 hours",
        KycTier::Tier4 => "48-120 hours",
    }
}

fn is_open(status: &str) -> bool {
    matches!(status, "not_started" | "in_progress" | "pending_review")
}

/// Only the user-side states can be abandoned; a check awaiting review is not.
fn can_be_abandoned(status: &str) -> bool {
    matches!(status, "not_started" | "in_progress")
}

struct Check {
    kyc_check_id: String,
    tenant_id: String,
    environment: Environment,
    external_user_id: String,
    target_tier: KycTier,
    status: String,
    withdrawal_id: String,
    start_response: String,
    created_at: i64,
    updated_at: i64,
}

fn check_from_row(row: &crate::ports::Row) -> ApiResult<Check> {
    Ok(Check {
        kyc_check_id: row.text(0)?,
        tenant_id: row.text(1)?,
        environment: Environment::parse(&row.text(2)?).ok_or_else(ApiError::internal)?,
        external_user_id: row.text(3)?,
        target_tier: KycTier::parse(&row.text(4)?).ok_or_else(ApiError::internal)?,
        status: row.text(5)?,
        withdrawal_id: row.text(6)?,
        start_response: row.text(7)?,
        created_at: row.int(8)?,
        updated_at: row.int(9)?,
    })
}

fn check_not_found() -> ApiError {
    ApiError::not_found("kyc_check_not_found", "no such KYC check for this tenant")
}

impl Gateway {
    pub(crate) async fn kyc_start(&self, ctx: &Ctx<'_>) -> ApiResult<Reply> {
        let mut f = Fields::from_body(ctx.body)?;
        let user_id = f.text("user_id");
        let email = f.text("email");
        let phone = f.text("phone");
        let amount = f.cents("withdrawal_amount_cents");
        let currency = f.currency("currency");
        if !email.is_empty() && normalize_email(&email).is_none() {
            f.reject("invalid_field", "email must be an e-mail address");
        }
        if !phone.is_empty() && normalize_phone(&phone).is_none() {
            f.reject("invalid_field", "phone must be a phone number of 7 to 15 digits");
        }
        f.finish()?;
        for _ in 0..WRITE_ATTEMPTS {
            let user = self.require_user(ctx, &user_id).await?;
            let assessment = match self.rules.assess_withdrawal(user.verified_tier, user.cumulative_withdrawn_cents, amount) {
                Err(RulesFault::Rule(rules::RuleError::AmountTooLarge)) => {
                    return Err(ApiError::unprocessable(
                        "ceiling_exceeded",
                        "the lifetime withdrawal total would exceed the largest amount the service accepts",
                    ))
                }
                other => other?,
            };
            if transactions_held(&user.sanctions_status) {
                return Ok(Reply::ok(json!({
                    "kyc_check_id": null,
                    "user_id": user_id,
                    "required_tier": assessment.required_tier.as_str(),
                    "required_documents": [],
                    "withdrawal_held": true,
                    "message": "Withdrawal held: the account is under review.",
                })));
            }
            if let Some(open) = self.open_check(ctx, &user_id).await? {
                if self.expire_if_abandoned(&open, ctx.now).await? {
                    continue;
                }
                if open.target_tier == assessment.required_tier {
                    return Ok(Reply::ok(stored_json(&open.start_response)?));
                }
                return Err(ApiError::conflict("already_in_progress", "a verification for this user is already in progress"));
            }
            let reply = if assessment.verification_required {
                if ctx.caller.environment == Environment::Production && !self.config.production_vendors_configured {
                    return Err(ApiError::new(503, "vendor_unavailable", "the identity verification vendor is unavailable; retry with backoff"));
                }
                self.create_check(ctx, &user, assessment.required_tier, amount, &currency).await?
            } else {
                self.approve_within_tier(ctx, &user, amount, &currency, assessment).await?
            };
            if let Some(reply) = reply {
                return Ok(reply);
            }
        }
        Err(busy())
    }

    async fn approve_within_tier(
        &self,
        ctx: &Ctx<'_>,
        user: &User,
        amount: i64,
        currency: &str,
        assessment: rules::WithdrawalAssessment,
    ) -> ApiResult<Option<Reply>> {
        let withdrawal_id = self.new_id("wd");
        let statements = vec![
            Stmt::expect_one(
                "UPDATE users SET cumulative_withdrawn_cents = cumulative_withdrawn_cents + ?4, version = version + 1, updated_at = ?5
                 WHERE tenant_id = ?1 AND external_user_id = ?2 AND version = ?3",
                vec![ctx.caller.tenant_id.as_str().into(), user.external_user_id.as_str().into(), user.version.into(), amount.into(), ctx.now.into()],
            ),
            Stmt::new(
                "INSERT INTO withdrawals (withdrawal_id, tenant_id, external_user_id, amount_cents, currency, status, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, 'released', ?6, ?6)",
                vec![
                    withdrawal_id.as_str().into(),
                    ctx.caller.tenant_id.as_str().into(),
                    user.external_user_id.as_str().into(),
                    amount.into(),
                    currency.into(),
                    ctx.now.into(),
                ],
            ),
        ];
        if !self.commit(statements).await? {
            return Ok(None);
        }
        Ok(Some(Reply::ok(json!({
            "kyc_check_id": null,
            "user_id": user.external_user_id,
            "required_tier": assessment.required_tier.as_str(),
            "required_documents": [],
            "withdrawal_held": false,
            "withdrawal_id": withdrawal_id,
            "withdrawal_remaining_cents": assessment.remaining_cents,
            "message": "Withdrawal approved: no identity verification is needed for this amount.",
        }))))
    }

    async fn create_check(&self, ctx: &Ctx<'_>, user: &User, tier: KycTier, amount: i64, currency: &str) -> ApiResult<Option<Reply>> {
        let kyc_check_id = self.new_id("kyc");
        let withdrawal_id = self.new_id("wd");
        let token = format!("vat_{}", hex::encode(self.ids.random_bytes(24)));
        let response = json!({
            "kyc_check_id": kyc_check_id,
            "user_id": user.external_user_id,
            "status": "not_started",
            "required_tier": tier.as_str(),
            "required_documents": required_documents(tier),
            "vendor_access_token": token,
            "vendor_expires_in": VENDOR_TOKEN_SECONDS,
            "withdrawal_held": true,
            "withdrawal_id": withdrawal_id,
            "estimated_clear_time": estimated_clear_time(tier),
        });
        let tenant = ctx.caller.tenant_id.as_str();
        let statements = vec![
            self.claim_user(ctx, user),
            Stmt::new(
                "INSERT INTO withdrawals (withdrawal_id, tenant_id, external_user_id, amount_cents, currency, status, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, 'held', ?6, ?6)",
                vec![
                    withdrawal_id.as_str().into(),
                    tenant.into(),
                    user.external_user_id.as_str().into(),
                    amount.into(),
                    currency.into(),
                    ctx.now.into(),
                ],
            ),
            Stmt::new(
                "INSERT INTO kyc_checks (kyc_check_id, tenant_id, environment, external_user_id, target_tier, status, open_key, withdrawal_id,
                                         start_response, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, 'not_started', ?6, ?7, ?8, ?9, ?9)",
                vec![
                    kyc_check_id.as_str().into(),
                    tenant.into(),
                    ctx.caller.environment.as_str().into(),
                    user.external_user_id.as_str().into(),
                    tier.as_str().into(),
                    open_key(tenant, &user.external_user_id).into(),
                    withdrawal_id.as_str().into(),
                    response.to_string().into(),
                    ctx.now.into(),
                ],
            ),
        ];
        Ok(self.commit(statements).await?.then(|| Reply::created(response)))
    }

    async fn open_check(&self, ctx: &Ctx<'_>, user_id: &str) -> ApiResult<Option<Check>> {
        let rows = self
            .store
            .query(
                "SELECT kyc_check_id, tenant_id, environment, external_user_id, target_tier, status, withdrawal_id, start_response, created_at, updated_at
                 FROM kyc_checks WHERE open_key = ?1",
                vec![open_key(&ctx.caller.tenant_id, user_id).into()],
            )
            .await?;
        rows.first().map(check_from_row).transpose()
    }

    async fn load_check(&self, kyc_check_id: &str) -> ApiResult<Option<Check>> {
        let rows = self
            .store
            .query(
                "SELECT kyc_check_id, tenant_id, environment, external_user_id, target_tier, status, withdrawal_id, start_response, created_at, updated_at
                 FROM kyc_checks WHERE kyc_check_id = ?1",
                vec![kyc_check_id.into()],
            )
            .await?;
        rows.first().map(check_from_row).transpose()
    }

    /// Expires a check abandoned for 7 days: the withdrawal is cancelled and the user must restart.
    async fn expire_if_abandoned(&self, check: &Check, now: i64) -> ApiResult<bool> {
        if !can_be_abandoned(&check.status) || now - check.updated_at < KYC_ABANDON_SECONDS {
            return Ok(false);
        }
        let statements = vec![
            Stmt::expect_one(
                "UPDATE kyc_checks SET status = 'expired', open_key = NULL, updated_at = ?3 WHERE kyc_check_id = ?1 AND status = ?2",
                vec![check.kyc_check_id.as_str().into(), check.status.as_str().into(), now.into()],
            ),
            Stmt::new(
                "UPDATE withdrawals SET status = 'cancelled', updated_at = ?2 WHERE withdrawal_id = ?1",
                vec![check.withdrawal_id.as_str().into(), now.into()],
            ),
            self.event(
                check.environment,
                Some(&check.tenant_id),
                "kyc.expired",
                now,
                json!({ "kyc_check_id": check.kyc_check_id, "user_id": check.external_user_id, "withdrawal_id": check.withdrawal_id, "withdrawal_cancelled": true }),
            ),
        ];
        self.commit(statements).await?;
        Ok(true)
    }

    /// Expires a check by id if it was abandoned by `now`; true when it did.
    pub(crate) async fn expire_check_by_id(&self, kyc_check_id: &str, now: i64) -> ApiResult<bool> {
        match self.load_check(kyc_check_id).await? {
            Some(check) => self.expire_if_abandoned(&check, now).await,
            None => Ok(false),
        }
    }

    /// The check of this tenant, with an abandoned one expired first.
    async fn tenant_check(&self, ctx: &Ctx<'_>, kyc_check_id: &str) -> ApiResult<Check> {
        let check = self.load_check(kyc_check_id).await?.filter(|c| c.tenant_id == ctx.caller.tenant_id).ok_or_else(check_not_found)?;
        if self.expire_if_abandoned(&check, ctx.now).await? {
            return self.load_check(kyc_check_id).await?.ok_or_else(check_not_found);
        }
        Ok(check)
    }

    pub(crate) async fn kyc_status(&self, ctx: &Ctx<'_>) -> ApiResult<Reply> {
        let id = ctx.query.required("kyc_check_id")?;
        let check = self.tenant_check(ctx, id).await?;
        let withdrawal_status = match check.status.as_str() {
            "approved" => "released",
            "rejected" => "blocked",
            "expired" => "cancelled",
            _ => "held",
        };
        Ok(Reply::ok(json!({
            "kyc_check_id": check.kyc_check_id,
            "user_id": check.external_user_id,
            "status": check.status,
            "required_tier": check.target_tier.as_str(),
            "required_documents": required_documents(check.target_tier),
            "withdrawal_id": check.withdrawal_id,
            "withdrawal_held": withdrawal_status != "released" && withdrawal_status != "cancelled",
            "withdrawal_status": withdrawal_status,
            "created_at": time::format(check.created_at),
            "updated_at": time::format(check.updated_at),
            "expires_at": if can_be_abandoned(&check.status) { time::json(check.updated_at + KYC_ABANDON_SECONDS) } else { Json::Null },
        })))
    }

    pub(crate) async fn kyc_tier(&self, ctx: &Ctx<'_>) -> ApiResult<Reply> {
        let user_id = ctx.query.required("user_id")?;
        let user = self.require_user(ctx, user_id).await?;
        let bounds = self.rules.bounds_of_tier(user.verified_tier)?;
        Ok(Reply::ok(json!({
            "user_id": user.external_user_id,
            "verified_tier": user.verified_tier.as_str(),
            "verified_at": time::json_opt(user.verified_at),
            "max_withdrawal_cents": bounds.ceiling_cents,
            "cumulative_withdrawn_cents": user.cumulative_withdrawn_cents,
            "next_tier_required_at_cents": bounds.next_tier_at_cents,
        })))
    }

    /// Plays the end user finishing the vendor flow; the sandbox vendor then
    /// decides by the user id (`autoapprove`, `autoreject`, else manual review).
    pub(crate) async fn sandbox_kyc_submit(&self, ctx: &Ctx<'_>, kyc_check_id: &str) -> ApiResult<Reply> {
        if ctx.caller.environment != Environment::Sandbox {
            return Err(ApiError::forbidden("sandbox_only", "this operation is only available with a sandbox key"));
        }
        let check = self.tenant_check(ctx, kyc_check_id).await?;
        if !can_be_abandoned(&check.status) {
            return Err(ApiError::conflict("invalid_state", format!("the check is {} and cannot take documents", check.status)));
        }
        let tenant = Some(check.tenant_id.as_str());
        let mut statements = vec![Stmt::expect_one(
            "UPDATE kyc_checks SET status = 'pending_review', updated_at = ?3 WHERE kyc_check_id = ?1 AND status = ?2",
            vec![check.kyc_check_id.as_str().into(), check.status.as_str().into(), ctx.now.into()],
        )];
        let data = json!({ "kyc_check_id": check.kyc_check_id, "user_id": check.external_user_id, "required_tier": check.target_tier.as_str() });
        if check.status == "not_started" {
            statements.push(self.event(check.environment, tenant, "kyc.started", ctx.now, data.clone()));
        }
        statements.push(self.event(check.environment, tenant, "kyc.submitted", ctx.now, data));
        if !self.commit(statements).await? {
            return Err(ApiError::conflict("invalid_state", "the check changed concurrently"));
        }
        let status = match self.rules.stub_kyc(&check.external_user_id)? {
            StubKycOutcome::Approve => self.decide_check(&check.kyc_check_id, true, "sandbox_vendor", ctx.now).await?,
            StubKycOutcome::Reject => self.decide_check(&check.kyc_check_id, false, "sandbox_vendor", ctx.now).await?,
            StubKycOutcome::ManualReview => "pending_review".to_string(),
        };
        Ok(Reply::accepted(json!({ "kyc_check_id": check.kyc_check_id, "status": status })))
    }

    /// Admin-only approve or reject of a check awaiting review.
    pub(crate) async fn kyc_manual_review(&self, ctx: &Ctx<'_>) -> ApiResult<Reply> {
        let mut f = Fields::from_body(ctx.body)?;
        let kyc_check_id = f.text("kyc_check_id");
        let decision = f.text("decision");
        let reviewer = f.text("reviewer");
        let reason = f.opt_text("reason");
        if !decision.is_empty() && decision != "approve" && decision != "reject" {
            f.reject("invalid_field", "decision must be approve or reject");
        }
        f.finish()?;
        let check = self.load_check(&kyc_check_id).await?.filter(|c| c.environment == ctx.caller.environment).ok_or_else(check_not_found)?;
        let wanted = if decision == "approve" { "approved" } else { "rejected" };
        let status = if check.status == wanted {
            check.status
        } else if check.status == "pending_review" {
            self.decide_check(&check.kyc_check_id, decision == "approve", &reviewer, ctx.now).await?
        } else {
            return Err(ApiError::conflict("invalid_state", format!("the check is {} and not awaiting review", check.status)));
        };
        Ok(Reply::ok(json!({ "kyc_check_id": check.kyc_check_id, "status": status, "reviewer": reviewer, "reason": reason })))
    }

    /// Approves (tier verified, withdrawal released) or rejects (withdrawal
    /// stays blocked) a check awaiting review. Returns the new status.
    async fn decide_check(&self, kyc_check_id: &str, approve: bool, reviewer: &str, now: i64) -> ApiResult<String> {
        for _ in 0..WRITE_ATTEMPTS {
            let check = self.load_check(kyc_check_id).await?.ok_or_else(check_not_found)?;
            if check.status != "pending_review" {
                return if is_open(&check.status) {
                    Err(ApiError::conflict("invalid_state", "the check is not awaiting review"))
                } else {
                    Ok(check.status)
                };
            }
            let user = self.find_user(&check.tenant_id, &check.external_user_id).await?.ok_or_else(ApiError::internal)?;
            let tenant = Some(check.tenant_id.as_str());
            let mut statements = vec![Stmt::expect_one(
                "UPDATE kyc_checks SET status = ?2, open_key = NULL, reviewer = ?3, updated_at = ?4 WHERE kyc_check_id = ?1 AND status = 'pending_review'",
                vec![kyc_check_id.into(), (if approve { "approved" } else { "rejected" }).into(), reviewer.into(), now.into()],
            )];
            if approve {
                let verified = user.verified_tier.max(check.target_tier);
                statements.push(Stmt::expect_one(
                    "UPDATE users SET verified_tier = ?4, verified_at = ?5, version = version + 1, updated_at = ?5,
                            cumulative_withdrawn_cents = cumulative_withdrawn_cents + (SELECT amount_cents FROM withdrawals WHERE withdrawal_id = ?6)
                     WHERE tenant_id = ?1 AND external_user_id = ?2 AND version = ?3",
                    vec![
                        check.tenant_id.as_str().into(),
                        check.external_user_id.as_str().into(),
                        user.version.into(),
                        verified.as_str().into(),
                        now.into(),
                        check.withdrawal_id.as_str().into(),
                    ],
                ));
                statements.push(Stmt::new(
                    "UPDATE withdrawals SET status = 'released', updated_at = ?2 WHERE withdrawal_id = ?1",
                    vec![check.withdrawal_id.as_str().into(), now.into()],
                ));
                statements.push(self.event(
                    check.environment,
                    tenant,
                    "kyc.approved",
                    now,
                    json!({ "kyc_check_id": kyc_check_id, "user_id": check.external_user_id, "verified_tier": verified.as_str(), "release_withdrawal_id": check.withdrawal_id }),
                ));
                if verified > user.verified_tier {
                    statements.push(self.event(
                        check.environment,
                        tenant,
                        "kyc.tier_upgraded",
                        now,
                        json!({ "user_id": check.external_user_id, "previous_tier": user.verified_tier.as_str(), "verified_tier": verified.as_str() }),
                    ));
                }
            } else {
                statements.push(Stmt::new(
                    "UPDATE withdrawals SET status = 'blocked', updated_at = ?2 WHERE withdrawal_id = ?1",
                    vec![check.withdrawal_id.as_str().into(), now.into()],
                ));
                statements.push(self.event(
                    check.environment,
                    tenant,
                    "kyc.rejected",
                    now,
                    json!({ "kyc_check_id": kyc_check_id, "user_id": check.external_user_id, "required_tier": check.target_tier.as_str(), "withdrawal_id": check.withdrawal_id, "withdrawal_held": true }),
                ));
            }
            if self.commit(statements).await? {
                return Ok((if approve { "approved" } else { "rejected" }).to_string());
            }
        }
        Err(busy())
    }
}

/// At most one open check per user: a unique key set while open, NULL after.
fn open_key(tenant_id: &str, user_id: &str) -> String {
    format!("{tenant_id}\u{1f}{user_id}")
}
