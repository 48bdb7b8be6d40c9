//! KYC that gates withdrawals: the withdrawal decision, checks, the sandbox
//! vendor and manual review. The rules decide every transition.

use rules::{
    EventKind, KycAction, KycDecision, KycFacts, KycStatus, KycTier, OpenCheck, Operation, WithdrawalFacts, WithdrawalOutcome, WithdrawalStatus,
};
use serde_json::{json, Value as Json};
use sha2::{Digest, Sha256};

use super::stored_json;
use crate::auth::Environment;
use crate::decisions::{error_with_decision, with_decision, DecisionLog, Scope};
use crate::error::{ApiError, ApiResult};
use crate::input::{normalize_email, normalize_phone, Fields};
use crate::ports::{Stmt, Value};
use crate::users::User;
use crate::vendors::{self, sumsub};
use crate::{time, Ctx, Gateway, Reply};

/// The route's handler: the identity vendor's status webhook.
pub(crate) async fn identity_vendor_webhook(gw: &Gateway, request: &http::Request<Vec<u8>>) -> ApiResult<Reply> {
    gw.identity_vendor_webhook(request.headers(), request.body()).await
}

pub(crate) struct Check {
    kyc_check_id: String,
    pub(crate) tenant_id: String,
    pub(crate) environment: Environment,
    pub(crate) external_user_id: String,
    target_tier: KycTier,
    status: KycStatus,
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
        status: KycStatus::parse(&row.text(5)?).ok_or_else(ApiError::internal)?,
        withdrawal_id: row.text(6)?,
        start_response: row.text(7)?,
        created_at: row.int(8)?,
        updated_at: row.int(9)?,
    })
}

fn check_not_found() -> ApiError {
    ApiError::not_found("kyc_check_not_found", "no such KYC check for this tenant")
}

fn invalid_state(status: KycStatus) -> ApiError {
    ApiError::conflict("invalid_state", format!("the check is {} and cannot take this action", status.as_str()))
}

/// A withdrawal request as the operator sent it.
struct WithdrawalRequest {
    user_id: String,
    email: Option<String>,
    phone: Option<String>,
    amount: i64,
    currency: String,
    withdrawal_id: Option<String>,
}

impl WithdrawalRequest {
    /// Tells a retry of the same withdrawal from another one under the same id.
    fn fingerprint(&self) -> String {
        hex::encode(Sha256::digest(json!([self.user_id, self.amount, self.currency]).to_string().as_bytes()))
    }
}

impl Gateway {
    pub(crate) async fn kyc_start(&self, ctx: &Ctx<'_>) -> ApiResult<Reply> {
        let mut f = Fields::from_body(ctx.body)?;
        let user_id = f.text("user_id");
        let email = f.text("email");
        let phone = f.text("phone");
        let amount = f.cents("withdrawal_amount_cents");
        let currency = f.currency("currency");
        let withdrawal_id = f.opt_text("withdrawal_id");
        let (norm_email, norm_phone) = (normalize_email(&email), normalize_phone(&phone));
        if !email.is_empty() && norm_email.is_none() {
            f.reject("invalid_field", "email must be an e-mail address");
        }
        if !phone.is_empty() && norm_phone.is_none() {
            f.reject("invalid_field", "phone must be a phone number of 7 to 15 digits");
        }
        if withdrawal_id.as_ref().is_some_and(|w| w.len() > 200) {
            f.reject("invalid_field", "withdrawal_id must be at most 200 characters");
        }
        f.finish()?;
        let request = WithdrawalRequest { user_id, email: norm_email, phone: norm_phone, amount, currency, withdrawal_id };
        until_committed!({
            if let Some(reply) = self.existing_withdrawal(ctx, &request).await? {
                return Ok(Some(reply));
            }
            let user = self.require_user(ctx, &request.user_id).await?;
            let open = self.open_check(ctx, &request.user_id).await?;
            let facts = WithdrawalFacts {
                now: ctx.now,
                sanctions: user.sanctions_status,
                verified: user.verified_tier,
                cumulative_cents: user.cumulative_withdrawn_cents,
                amount_cents: request.amount,
                same_currency: user.withdrawal_currency.as_deref().is_none_or(|c| c == request.currency),
                open_check: open.as_ref().map(|c| OpenCheck { target_tier: c.target_tier, status: c.status, updated_at: c.updated_at }),
            };
            let scope = Scope::of(ctx, &request.user_id);
            let (decision, log) = self.decide_or_refuse(&scope, Operation::Withdrawal, &facts, |r, f| r.decide_withdrawal(f))?;
            let mut statements = vec![log.statement()];
            // Expiring an abandoned check claims the user; a withdrawal
            // update in the same batch claims it again, one version on.
            let mut version = user.version;
            if let (Some(expiry), Some(open)) = (&decision.expire_open_check, &open) {
                statements.extend(self.kyc_transition(open, user.verified_tier, Some(version), expiry, "abandoned", ctx.now));
                version += 1;
            }
            let reply = match decision.outcome {
                WithdrawalOutcome::CeilingExceeded => {
                    return self
                        .refuse_withdrawal(
                            &log,
                            ApiError::unprocessable(
                                "ceiling_exceeded",
                                "the lifetime withdrawal total would exceed the largest amount the service accepts",
                            ),
                            statements,
                        )
                        .await
                        .map(Some);
                }
                WithdrawalOutcome::CurrencyMismatch => {
                    let kept = user.withdrawal_currency.clone().unwrap_or_default();
                    return self
                        .refuse_withdrawal(
                            &log,
                            ApiError::bad_request("currency_mismatch", format!("this user's withdrawals are kept in {kept}")),
                            statements,
                        )
                        .await
                        .map(Some);
                }
                WithdrawalOutcome::AlreadyInProgress => {
                    return self
                        .refuse_withdrawal(
                            &log,
                            ApiError::conflict("already_in_progress", "a verification for this user is already in progress"),
                            statements,
                        )
                        .await
                        .map(Some);
                }
                WithdrawalOutcome::ReplayOpenCheck => {
                    let open = open.as_ref().ok_or_else(ApiError::internal)?;
                    self.defer(log.clone());
                    return Ok(Some(with_decision(Reply::ok(stored_json(&open.start_response)?), &log)));
                }
                WithdrawalOutcome::Held(tier) => Reply::ok(json!({
                    "kyc_check_id": null,
                    "user_id": request.user_id,
                    "required_tier": tier.as_str(),
                    "required_documents": [],
                    "withdrawal_held": true,
                    "message": "Withdrawal held: the account is under review.",
                })),
                WithdrawalOutcome::Approve(fast) => {
                    let withdrawal_id = self.new_id("wd");
                    let body = json!({
                        "kyc_check_id": null,
                        "user_id": request.user_id,
                        "required_tier": fast.required_tier.as_str(),
                        "required_documents": [],
                        "withdrawal_held": false,
                        "withdrawal_id": withdrawal_id,
                        "client_withdrawal_id": request.withdrawal_id,
                        "withdrawal_remaining_cents": fast.remaining_cents,
                        "message": "Withdrawal approved: no identity verification is needed for this amount.",
                    });
                    statements.push(self.user_withdrawal_update(ctx, &user, version, &request, request.amount));
                    statements.push(self.withdrawal_insert(ctx, &request, &withdrawal_id, WithdrawalStatus::Released, &body));
                    Reply::ok(body)
                }
                WithdrawalOutcome::Verify(verification) => {
                    let kyc_check_id = self.new_id("kyc");
                    let withdrawal_id = self.new_id("wd");
                    let token = match self.vendor_access_token(ctx.caller.environment, &kyc_check_id, verification.vendor_token_seconds).await {
                        Ok(token) => token,
                        Err(error) => return self.refuse_withdrawal(&log, error, statements).await.map(Some),
                    };
                    let body = json!({
                        "kyc_check_id": kyc_check_id,
                        "user_id": request.user_id,
                        "status": KycStatus::NotStarted.as_str(),
                        "required_tier": verification.tier.as_str(),
                        "required_documents": verification.documents.iter().map(|d| d.as_str()).collect::<Vec<_>>(),
                        "vendor_access_token": token,
                        "vendor_expires_in": verification.vendor_token_seconds,
                        "withdrawal_held": true,
                        "withdrawal_id": withdrawal_id,
                        "client_withdrawal_id": request.withdrawal_id,
                        "estimated_clear_time": verification.estimated_clear_time,
                    });
                    let tenant = ctx.caller.tenant_id.as_str();
                    statements.push(self.user_withdrawal_update(ctx, &user, version, &request, 0));
                    statements.push(self.withdrawal_insert(ctx, &request, &withdrawal_id, WithdrawalStatus::Held, &body));
                    statements.push(Stmt::new(
                        "INSERT INTO kyc_checks (kyc_check_id, tenant_id, environment, external_user_id, target_tier, status, open_key, withdrawal_id,
                                                 start_response, created_at, updated_at)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10)",
                        vec![
                            kyc_check_id.as_str().into(),
                            tenant.into(),
                            ctx.caller.environment.as_str().into(),
                            request.user_id.as_str().into(),
                            verification.tier.as_str().into(),
                            KycStatus::NotStarted.as_str().into(),
                            open_key(tenant, &request.user_id).into(),
                            withdrawal_id.as_str().into(),
                            body.to_string().into(),
                            ctx.now.into(),
                        ],
                    ));
                    Reply::created(body)
                }
            };
            if statements.len() == 1 {
                self.defer(log.clone());
                return Ok(Some(with_decision(reply, &log)));
            }
            if self.commit(statements).await? {
                return Ok(Some(with_decision(reply, &log)));
            }
            Ok(None)
        })
    }

    /// The token of the end user's verification flow: the sandbox stub's, or
    /// in production the configured vendor's (an applicant for the check,
    /// then its SDK token). No vendor, or one that fails, is 503.
    async fn vendor_access_token(&self, environment: Environment, kyc_check_id: &str, ttl_seconds: i64) -> ApiResult<String> {
        let stub = || format!("vat_{}", hex::encode(self.ids.random_bytes(24)));
        let sumsub = match (environment, &self.config.production_identity_vendor) {
            (Environment::Sandbox, _) => return Ok(stub()),
            (Environment::Production, Some(sumsub)) => sumsub,
            (Environment::Production, None) if self.config.production_vendors_configured => return Ok(stub()),
            (Environment::Production, None) => return Err(vendors::unavailable("identity verification", "no vendor is configured".into())),
        };
        let http = self.vendor_http.as_ref().ok_or_else(|| vendors::unavailable("identity verification", "this host has no vendor client".into()))?;
        let fail = |e: String| vendors::unavailable("identity verification", format!("sumsub: {e}"));
        let now = self.clock.now();
        let created = http.send(sumsub.create_applicant(kyc_check_id, now)).await.map_err(fail)?;
        sumsub::applicant_id(&created).map_err(fail)?;
        let issued = http.send(sumsub.access_token(kyc_check_id, ttl_seconds, now)).await.map_err(fail)?;
        sumsub::token(&issued).map_err(fail)
    }

    /// A status webhook of the identity vendor, verified by its digest: moves
    /// the check it names as the rules decide.
    pub(crate) async fn identity_vendor_webhook(&self, headers: &http::HeaderMap, body: &[u8]) -> ApiResult<Reply> {
        let sumsub = self
            .config
            .production_identity_vendor
            .as_ref()
            .ok_or_else(|| ApiError::not_found("not_found", "no identity verification vendor is configured"))?;
        let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
        if !sumsub.verify_webhook(body, header("x-payload-digest"), header("x-payload-digest-alg")) {
            return Err(ApiError::new(401, "invalid_signature", "the webhook's X-Payload-Digest does not match its body"));
        }
        let (kyc_check_id, action) = match sumsub::webhook_outcome(body).map_err(|m| ApiError::bad_request("invalid_webhook", m))? {
            sumsub::WebhookOutcome::Ignore(kind) => return Ok(Reply::ok(json!({ "received": true, "applied": false, "type": kind }))),
            sumsub::WebhookOutcome::Apply { kyc_check_id, action } => (kyc_check_id, action),
        };
        until_committed!({
            let check = self
                .load_check(&kyc_check_id)
                .await?
                .filter(|c| c.environment == Environment::Production)
                .ok_or_else(|| ApiError::not_found("kyc_check_not_found", "no such KYC check"))?;
            let user = self.find_user(&check.tenant_id, &check.external_user_id).await?.ok_or_else(ApiError::internal)?;
            let now = self.clock.now();
            let (decision, log) = self.decide_check(&check, &user, action, now)?;
            if !self.apply_check_decision(&check, &user, &decision, &log, "sumsub", now).await? {
                return Ok(None);
            }
            if decision.refused {
                return Err(error_with_decision(invalid_state(decision.status), &log));
            }
            let body = json!({ "received": true, "applied": decision.changed, "kyc_check_id": kyc_check_id, "status": decision.status.as_str() });
            Ok(Some(with_decision(Reply::ok(body), &log)))
        })
    }

    /// Answers a refused withdrawal, writing what the decision still changes
    /// (an abandoned check it expired) or else queueing its log.
    async fn refuse_withdrawal(&self, log: &DecisionLog, error: ApiError, statements: Vec<Stmt>) -> ApiResult<Reply> {
        let error = error_with_decision(error, log);
        if statements.len() > 1 {
            self.commit(statements).await?;
        } else {
            self.defer(log.clone());
        }
        Err(error)
    }

    /// A repeat of a withdrawal the operator identified by `withdrawal_id`
    /// gets the original answer; the same id for another withdrawal is refused.
    async fn existing_withdrawal(&self, ctx: &Ctx<'_>, request: &WithdrawalRequest) -> ApiResult<Option<Reply>> {
        let Some(client_id) = &request.withdrawal_id else { return Ok(None) };
        let rows = self
            .store
            .query(
                "SELECT request_fingerprint, response FROM withdrawals WHERE tenant_id = ?1 AND client_withdrawal_id = ?2",
                vec![ctx.caller.tenant_id.as_str().into(), client_id.as_str().into()],
            )
            .await?;
        let Some(row) = rows.first() else { return Ok(None) };
        if row.opt_text(0)?.as_deref() != Some(request.fingerprint().as_str()) {
            return Err(ApiError::conflict("withdrawal_id_reused", "this withdrawal_id was already used for another withdrawal"));
        }
        Ok(Some(Reply::ok(stored_json(&row.opt_text(1)?.unwrap_or_default())?)))
    }

    /// Claims the user, adds a released amount to the lifetime total, fixes
    /// the withdrawal currency and records the e-mail and phone given.
    fn user_withdrawal_update(&self, ctx: &Ctx<'_>, user: &User, version: i64, request: &WithdrawalRequest, released: i64) -> Stmt {
        Stmt::expect_one(
            "UPDATE users SET cumulative_withdrawn_cents = cumulative_withdrawn_cents + ?4, version = version + 1, updated_at = ?5,
                    withdrawal_currency = COALESCE(withdrawal_currency, ?6), kyc_email = COALESCE(?7, kyc_email), kyc_phone = COALESCE(?8, kyc_phone)
             WHERE tenant_id = ?1 AND external_user_id = ?2 AND version = ?3",
            vec![
                ctx.caller.tenant_id.as_str().into(),
                user.external_user_id.as_str().into(),
                version.into(),
                released.into(),
                ctx.now.into(),
                request.currency.as_str().into(),
                Value::from(request.email.clone()),
                Value::from(request.phone.clone()),
            ],
        )
    }

    fn withdrawal_insert(&self, ctx: &Ctx<'_>, request: &WithdrawalRequest, withdrawal_id: &str, status: WithdrawalStatus, body: &Json) -> Stmt {
        Stmt::new(
            "INSERT INTO withdrawals (withdrawal_id, tenant_id, external_user_id, amount_cents, currency, status, created_at, updated_at,
                                      client_withdrawal_id, request_fingerprint, response)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7, ?8, ?9, ?10)",
            vec![
                withdrawal_id.into(),
                ctx.caller.tenant_id.as_str().into(),
                request.user_id.as_str().into(),
                request.amount.into(),
                request.currency.as_str().into(),
                status.as_str().into(),
                ctx.now.into(),
                Value::from(request.withdrawal_id.clone()),
                request.fingerprint().into(),
                body.to_string().into(),
            ],
        )
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

    /// Asks the rules what an action does to a check; the decision's log is returned unwritten.
    fn decide_check(&self, check: &Check, user: &User, action: KycAction, now: i64) -> ApiResult<(KycDecision, DecisionLog)> {
        let facts = KycFacts {
            now,
            status: check.status,
            updated_at: check.updated_at,
            target_tier: check.target_tier,
            verified: user.verified_tier,
            external_user_id: check.external_user_id.clone(),
            action,
        };
        let scope = Scope { environment: check.environment, tenant_id: check.tenant_id.clone(), user_id: check.external_user_id.clone() };
        self.decide(&scope, Operation::Kyc, &facts, |r, f| r.decide_kyc(f))
    }

    /// Writes a decided transition of a check with its log: the check, its
    /// withdrawal, the user's verified tier and the events. Returns whether it committed.
    async fn apply_check_decision(
        &self,
        check: &Check,
        user: &User,
        decision: &KycDecision,
        log: &DecisionLog,
        reviewer: &str,
        now: i64,
    ) -> ApiResult<bool> {
        if !decision.changed {
            self.defer(log.clone());
            return Ok(true);
        }
        let mut statements = vec![log.statement()];
        statements.extend(self.kyc_transition(check, user.verified_tier, Some(user.version), decision, reviewer, now));
        self.commit(statements).await
    }

    /// The statements of a check's transition. `claim_version` claims the
    /// user at the version read; `None` when the batch claims the user elsewhere.
    pub(crate) fn kyc_transition(
        &self,
        check: &Check,
        verified_before: KycTier,
        claim_version: Option<i64>,
        decision: &KycDecision,
        reviewer: &str,
        now: i64,
    ) -> Vec<Stmt> {
        let mut statements = vec![
            Stmt::expect_one(
                "UPDATE kyc_checks SET status = ?2, open_key = CASE WHEN ?5 = 1 THEN open_key ELSE NULL END, reviewer = ?4, updated_at = ?6
                 WHERE kyc_check_id = ?1 AND status = ?3",
                vec![
                    check.kyc_check_id.as_str().into(),
                    decision.status.as_str().into(),
                    check.status.as_str().into(),
                    reviewer.into(),
                    decision.status.is_open().into(),
                    now.into(),
                ],
            ),
            Stmt::new(
                "UPDATE withdrawals SET status = ?2, updated_at = ?3 WHERE withdrawal_id = ?1",
                vec![check.withdrawal_id.as_str().into(), decision.withdrawal.as_str().into(), now.into()],
            ),
        ];
        if let Some(version) = claim_version {
            statements.push(crate::users::store::claim(&check.tenant_id, &check.external_user_id, version, now));
        }
        if decision.status == KycStatus::Approved {
            statements.push(Stmt::new(
                "UPDATE users SET verified_tier = ?3, verified_at = ?4, updated_at = ?4,
                        cumulative_withdrawn_cents = cumulative_withdrawn_cents + (SELECT amount_cents FROM withdrawals WHERE withdrawal_id = ?5)
                 WHERE tenant_id = ?1 AND external_user_id = ?2",
                vec![
                    check.tenant_id.as_str().into(),
                    check.external_user_id.as_str().into(),
                    decision.verified.as_str().into(),
                    now.into(),
                    check.withdrawal_id.as_str().into(),
                ],
            ));
        }
        for kind in &decision.events {
            let data = match kind {
                EventKind::KycApproved => json!({
                    "kyc_check_id": check.kyc_check_id, "user_id": check.external_user_id,
                    "verified_tier": decision.verified.as_str(), "release_withdrawal_id": check.withdrawal_id,
                }),
                EventKind::KycTierUpgraded => json!({
                    "user_id": check.external_user_id, "previous_tier": verified_before.as_str(), "verified_tier": decision.verified.as_str(),
                }),
                EventKind::KycRejected => json!({
                    "kyc_check_id": check.kyc_check_id, "user_id": check.external_user_id, "required_tier": check.target_tier.as_str(),
                    "withdrawal_id": check.withdrawal_id, "withdrawal_held": true,
                }),
                EventKind::KycExpired => json!({
                    "kyc_check_id": check.kyc_check_id, "user_id": check.external_user_id, "withdrawal_id": check.withdrawal_id, "withdrawal_cancelled": true,
                }),
                _ => json!({ "kyc_check_id": check.kyc_check_id, "user_id": check.external_user_id, "required_tier": check.target_tier.as_str() }),
            };
            statements.push(self.event(check.environment, Some(&check.tenant_id), *kind, now, data));
        }
        statements
    }

    /// Open checks untouched since before `abandoned_before` (per tenant clock),
    /// as due-work candidates: the check, the rules' facts, the user's version.
    pub(crate) async fn abandoned_check_candidates(&self, now: i64, abandon_seconds: i64, limit: i64) -> ApiResult<Vec<(Check, KycFacts, i64)>> {
        let rows = self
            .store
            .query(
                "SELECT k.kyc_check_id, k.tenant_id, k.environment, k.external_user_id, k.target_tier, k.status, k.withdrawal_id, k.start_response,
                        k.created_at, k.updated_at, u.verified_tier, u.version, t.clock_offset_seconds
                 FROM kyc_checks k JOIN tenants t ON t.tenant_id = k.tenant_id
                      JOIN users u ON u.tenant_id = k.tenant_id AND u.external_user_id = k.external_user_id
                 WHERE k.open_key IS NOT NULL AND k.updated_at + ?2 <= ?1 + t.clock_offset_seconds ORDER BY k.updated_at LIMIT ?3",
                vec![now.into(), abandon_seconds.into(), limit.into()],
            )
            .await?;
        rows.iter()
            .map(|row| {
                let check = check_from_row(row)?;
                let facts = KycFacts {
                    now: now.saturating_add(row.int(12)?),
                    status: check.status,
                    updated_at: check.updated_at,
                    target_tier: check.target_tier,
                    verified: KycTier::parse(&row.text(10)?).ok_or_else(ApiError::internal)?,
                    external_user_id: check.external_user_id.clone(),
                    action: KycAction::Expire,
                };
                Ok((check, facts, row.int(11)?))
            })
            .collect()
    }

    /// The check of this tenant with the user behind it.
    async fn tenant_check(&self, ctx: &Ctx<'_>, kyc_check_id: &str) -> ApiResult<(Check, User)> {
        let check = self.load_check(kyc_check_id).await?.filter(|c| c.tenant_id == ctx.caller.tenant_id).ok_or_else(check_not_found)?;
        let user = self.find_user(&check.tenant_id, &check.external_user_id).await?.ok_or_else(ApiError::internal)?;
        Ok((check, user))
    }

    pub(crate) async fn kyc_status(&self, ctx: &Ctx<'_>) -> ApiResult<Reply> {
        let id = ctx.query.required("kyc_check_id")?;
        until_committed!({
            let (check, user) = self.tenant_check(ctx, id).await?;
            let (decision, log) = self.decide_check(&check, &user, KycAction::View, ctx.now)?;
            if !self.apply_check_decision(&check, &user, &decision, &log, "abandoned", ctx.now).await? {
                return Ok(None);
            }
            let updated_at = if decision.changed { ctx.now } else { check.updated_at };
            Ok(Some(with_decision(
                Reply::ok(json!({
                    "kyc_check_id": check.kyc_check_id,
                    "user_id": check.external_user_id,
                    "status": decision.status.as_str(),
                    "required_tier": check.target_tier.as_str(),
                    "required_documents": decision.documents.iter().map(|d| d.as_str()).collect::<Vec<_>>(),
                    "withdrawal_id": check.withdrawal_id,
                    "withdrawal_held": decision.withdrawal == WithdrawalStatus::Held || decision.withdrawal == WithdrawalStatus::Blocked,
                    "withdrawal_status": decision.withdrawal.as_str(),
                    "created_at": time::format(check.created_at),
                    "updated_at": time::format(updated_at),
                    "expires_at": time::json_opt(decision.expires_at),
                })),
                &log,
            )))
        })
    }

    pub(crate) async fn kyc_tier(&self, ctx: &Ctx<'_>) -> ApiResult<Reply> {
        let user_id = ctx.query.required("user_id")?;
        let user = self.require_user(ctx, user_id).await?;
        let (bounds, log) = self.decide(&Scope::of(ctx, user_id), Operation::Tier, &user.verified_tier, |r, t| r.describe_tier(*t))?;
        let reply = with_decision(
            Reply::ok(json!({
                "user_id": user.external_user_id,
                "verified_tier": user.verified_tier.as_str(),
                "verified_at": time::json_opt(user.verified_at),
                "max_withdrawal_cents": bounds.ceiling_cents,
                "cumulative_withdrawn_cents": user.cumulative_withdrawn_cents,
                "next_tier_required_at_cents": bounds.next_tier_at_cents,
            })),
            &log,
        );
        self.defer(log);
        Ok(reply)
    }

    /// Plays the end user finishing the vendor flow; the sandbox vendor then
    /// decides by the user id (`autoapprove`, `autoreject`, else manual review).
    pub(crate) async fn sandbox_kyc_submit(&self, ctx: &Ctx<'_>, kyc_check_id: &str) -> ApiResult<Reply> {
        if ctx.caller.environment != Environment::Sandbox {
            return Err(ApiError::forbidden("sandbox_only", "this operation is only available with a sandbox key"));
        }
        until_committed!({
            let (check, user) = self.tenant_check(ctx, kyc_check_id).await?;
            let (decision, log) = self.decide_check(&check, &user, KycAction::SandboxSubmit, ctx.now)?;
            if !self.apply_check_decision(&check, &user, &decision, &log, "sandbox_vendor", ctx.now).await? {
                return Ok(None);
            }
            if decision.refused {
                return Err(error_with_decision(invalid_state(decision.status), &log));
            }
            Ok(Some(with_decision(Reply::accepted(json!({ "kyc_check_id": check.kyc_check_id, "status": decision.status.as_str() })), &log)))
        })
    }

    /// Admin-only approve or reject of a check awaiting review.
    pub(crate) async fn kyc_manual_review(&self, ctx: &Ctx<'_>) -> ApiResult<Reply> {
        let mut f = Fields::from_body(ctx.body)?;
        let kyc_check_id = f.text("kyc_check_id");
        let decision_text = f.code("decision");
        let reviewer = f.text("reviewer");
        let reason = f.opt_text("reason");
        let action = match decision_text.as_str() {
            "approve" => Some(KycAction::Approve),
            "reject" => Some(KycAction::Reject),
            _ => None,
        };
        if !decision_text.is_empty() && action.is_none() {
            f.reject("invalid_field", "decision must be approve or reject");
        }
        f.finish()?;
        let action = action.ok_or_else(ApiError::internal)?;
        until_committed!({
            let check = self.load_check(&kyc_check_id).await?.filter(|c| c.environment == ctx.caller.environment).ok_or_else(check_not_found)?;
            let user = self.find_user(&check.tenant_id, &check.external_user_id).await?.ok_or_else(ApiError::internal)?;
            let (decision, log) = self.decide_check(&check, &user, action, ctx.now)?;
            if !self.apply_check_decision(&check, &user, &decision, &log, &reviewer, ctx.now).await? {
                return Ok(None);
            }
            if decision.refused {
                return Err(error_with_decision(invalid_state(decision.status), &log));
            }
            Ok(Some(with_decision(
                Reply::ok(json!({ "kyc_check_id": check.kyc_check_id, "status": decision.status.as_str(), "reviewer": reviewer, "reason": reason })),
                &log,
            )))
        })
    }

    /// Checks of the environment for the compliance team, by status, with
    /// their age; `overdue=true` keeps those past the review target.
    pub(crate) async fn list_kyc_checks(&self, ctx: &Ctx<'_>) -> ApiResult<Reply> {
        let status_text = ctx.query.get("status").unwrap_or(KycStatus::PendingReview.as_str());
        let status = KycStatus::parse(status_text).ok_or_else(|| ApiError::bad_request("invalid_field", "status must be a KYC check status"))?;
        let (overdue_only, target, now) = self.review_filter(ctx)?;
        let rows = self
            .store
            .query(
                "SELECT k.kyc_check_id, k.tenant_id, k.environment, k.external_user_id, k.target_tier, k.status, k.withdrawal_id, k.start_response,
                        k.created_at, k.updated_at, t.clock_offset_seconds
                 FROM kyc_checks k JOIN tenants t ON t.tenant_id = k.tenant_id
                 WHERE k.environment = ?1 AND k.status = ?2 AND (?3 = 0 OR k.updated_at + ?4 <= ?5 + t.clock_offset_seconds)
                 ORDER BY k.updated_at, k.kyc_check_id LIMIT 500",
                vec![ctx.caller.environment.as_str().into(), status.as_str().into(), overdue_only.into(), target.into(), now.into()],
            )
            .await?;
        let mut checks = Vec::new();
        for row in &rows {
            let c = check_from_row(row)?;
            let now = now.saturating_add(row.int(10)?);
            let due = (c.status == KycStatus::PendingReview).then(|| c.updated_at.saturating_add(target));
            checks.push(json!({
                "kyc_check_id": c.kyc_check_id,
                "tenant_id": c.tenant_id,
                "user_id": c.external_user_id,
                "status": c.status.as_str(),
                "required_tier": c.target_tier.as_str(),
                "in_status_since": time::format(c.updated_at),
                "age_seconds": now.saturating_sub(c.updated_at),
                "review_due_at": time::json_opt(due),
                "overdue": due.is_some_and(|d| d <= now),
            }));
        }
        Ok(Reply::ok(json!({ "checks": checks })))
    }
}

/// At most one open check per user: a unique key set while open, NULL after.
fn open_key(tenant_id: &str, user_id: &str) -> String {
    format!("{tenant_id}\u{1f}{user_id}")
}
