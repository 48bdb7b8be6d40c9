//! The KYC area: KYC that gates withdrawals (the withdrawal decision, checks,
//! the identity vendor, the sandbox vendor and manual review). The rules
//! decide every transition; the area's SQL is in [`store`].

pub(crate) mod store;

use rules_model::{
    EventKind, KycAction, KycDecision, KycEscalation, KycFacts, KycStatus, KycTier, OpenCheck, Operation, TierFacts, WithdrawalFacts,
    WithdrawalOutcome, WithdrawalStatus,
};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value as Json};
use sha2::{Digest, Sha256};
use utoipa::{IntoParams, ToSchema};

use crate::api::{stored_json, ReviewLimit, WaitSeconds};
use crate::auth::Environment;
use crate::decisions::{error_with_decision, DecisionLog, Scope};
use crate::error::{ApiError, ApiResult};
use crate::idempotency::Deferred;
use crate::input::{email_key, normalize_email, phone_region, read_phone, Cursor, Fields, PhoneError};
use crate::input::{Body, FromBody, Params, Path};
use crate::openapi::answer::{Accepted, Answer, Created};
use crate::openapi::shared::{
    Cents, Currency, Email, KycDocument as KycDocumentName, KycEscalation as KycEscalationName, KycStatus as KycStatusName, Phone, Tier, Timestamp,
    UserQuery, WithdrawalStatus as WithdrawalStatusName,
};
use crate::openapi::OperationDoc;
use crate::ports::{Read, Stmt};
use crate::users::User;
use crate::vendors::{self, sumsub};
use crate::webhooks::events::{KycApprovedData, KycCheckData, KycExpiredData, KycRejectedData, KycTierUpgradedData};
use crate::{time, Ctx, Gateway};
pub(crate) use store::{Check, Reviewer};

/// The route's handler: the identity vendor's status webhook.
pub(crate) async fn identity_vendor_webhook(gw: &Gateway, request: &http::Request<Vec<u8>>) -> ApiResult<Answer<VendorReceipt>> {
    vendor_webhook(gw, request.headers(), request.body()).await
}

fn check_not_found() -> ApiError {
    ApiError::not_found("kyc_check_not_found", "no such KYC check for this tenant")
}

fn invalid_state(status: KycStatus) -> ApiError {
    ApiError::conflict("invalid_state", format!("the check is {} and cannot take this action", status.as_str()))
}

/// A withdrawal request as the operator sent it (the body of `POST /v1/kyc/start`).
#[derive(ToSchema)]
#[schema(as = WithdrawalRequest)]
pub(crate) struct WithdrawalRequest {
    #[schema(min_length = 1, max_length = 256)]
    user_id: String,
    #[schema(value_type = Email)]
    email: Option<String>,
    #[schema(value_type = Phone)]
    phone: Option<crate::input::Phone>,
    #[schema(rename = "withdrawal_amount_cents", value_type = Cents)]
    amount: i64,
    #[schema(value_type = Currency)]
    currency: String,
    #[schema(ignore)]
    currency_exponent: u8,
    /// the operator's id of the withdrawal
    #[schema(max_length = 200)]
    withdrawal_id: Option<String>,
}

impl FromBody for WithdrawalRequest {
    fn from_body(body: &[u8], gw: &Gateway, ctx: &Ctx<'_>) -> ApiResult<Self> {
        let mut f = Fields::from_body(body, gw.rules.as_ref())?;
        let user_id = f.text("user_id");
        let email = f.text("email");
        let phone = f.text("phone");
        let amount = f.cents("withdrawal_amount_cents");
        let (currency, currency_exponent) = f.currency_with_exponent("currency");
        let withdrawal_id = f.opt_text("withdrawal_id");
        let norm_email = normalize_email(&email);
        let norm_phone = (!phone.is_empty()).then(|| read_phone(&phone, phone_region(&ctx.caller.jurisdiction))).transpose();
        if !email.is_empty() && norm_email.is_none() {
            f.reject("invalid_field", "email must be an e-mail address");
        }
        if norm_phone == Err(PhoneError::NotAPhone) {
            f.reject("invalid_field", "phone must be a phone number of 7 to 15 digits");
        }
        if withdrawal_id.as_ref().is_some_and(|w| w.len() > 200) {
            f.reject("invalid_field", "withdrawal_id must be at most 200 characters");
        }
        f.finish()?;
        // a number of the shape of one that cannot be read is 422, after every other field's 400
        let norm_phone = norm_phone.map_err(|e| e.error("phone"))?;
        Ok(WithdrawalRequest { user_id, email: norm_email, phone: norm_phone, amount, currency, currency_exponent, withdrawal_id })
    }
}

impl WithdrawalRequest {
    /// Tells a retry of the same withdrawal from another one under the same id.
    fn fingerprint(&self) -> String {
        hex::encode(Sha256::digest(json!([self.user_id, self.amount, self.currency]).to_string().as_bytes()))
    }

    /// The fingerprint of a blind request (no `withdrawal_id`, no
    /// `Idempotency-Key`) of a user at `version`: a blind release stores the
    /// print of the version it leaves, so only a repeat that finds the user
    /// unchanged since finds it ([`repeated_release`]).
    fn blind_fingerprint(&self, version: i64) -> String {
        hex::encode(Sha256::digest(json!([self.user_id, self.amount, self.currency, "blind", version]).to_string().as_bytes()))
    }

    /// The fingerprint stored with the withdrawal, leaving the user at
    /// `version_after`. A named one is told from another withdrawal under its
    /// id; a keyed one is retried under its key, and its print is another,
    /// so no blind request is ever taken for a retry of it.
    fn stored_fingerprint(&self, keyed: bool, version_after: i64) -> String {
        match (keyed, &self.withdrawal_id) {
            (_, Some(_)) => self.fingerprint(),
            (true, None) => hex::encode(Sha256::digest(json!([self.user_id, self.amount, self.currency, "idempotency-key"]).to_string().as_bytes())),
            (false, None) => self.blind_fingerprint(version_after),
        }
    }
}

/// The withdrawal gate's answer; stored and answered again on a repeat.
#[derive(Serialize, ToSchema, Default)]
#[schema(as = WithdrawalAnswer)]
pub(crate) struct WithdrawalAnswer<'a> {
    /// the verification check, when one is needed
    #[schema(required)]
    kyc_check_id: Option<&'a str>,
    user_id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = KycStatusName, required = false)]
    status: Option<&'static str>,
    #[schema(value_type = Tier)]
    required_tier: &'static str,
    #[schema(value_type = Vec<KycDocumentName>)]
    required_documents: Vec<&'static str>,
    /// for the vendor's verification flow on the player's device
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = String, required = false)]
    vendor_access_token: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = i64, required = false)]
    vendor_expires_in: Option<i64>,
    withdrawal_held: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = String, required = false)]
    withdrawal_id: Option<&'a str>,
    /// the operator's id of the withdrawal, as sent
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>, required = false)]
    client_withdrawal_id: Option<Option<&'a str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = String, required = false)]
    estimated_clear_time: Option<&'a str>,
    /// what stays withdrawable under the covering tier; `null` when unbounded
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<i64>, required = false)]
    withdrawal_remaining_cents: Option<Option<i64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = String, required = false)]
    message: Option<String>,
}

/// A check's status with the withdrawal behind it.
#[derive(Serialize, ToSchema)]
#[schema(as = KycCheck)]
pub(crate) struct CheckView {
    kyc_check_id: String,
    user_id: String,
    #[schema(value_type = KycStatusName)]
    status: &'static str,
    #[schema(value_type = Tier)]
    required_tier: &'static str,
    #[schema(value_type = Vec<KycDocumentName>)]
    required_documents: Vec<&'static str>,
    /// the withdrawal the check holds
    withdrawal_id: String,
    withdrawal_held: bool,
    #[schema(value_type = WithdrawalStatusName)]
    withdrawal_status: &'static str,
    #[schema(value_type = Timestamp)]
    created_at: String,
    #[schema(value_type = Timestamp)]
    updated_at: String,
    #[schema(value_type = Option<Timestamp>, required)]
    expires_at: Option<String>,
}

/// The query of `GET /v1/kyc/status`.
#[derive(Deserialize, IntoParams)]
pub(crate) struct CheckQuery {
    #[param(min_length = 1, max_length = 256)]
    kyc_check_id: String,
}

/// A user's verified tier and where the next one is needed.
#[derive(Serialize, ToSchema)]
#[schema(as = KycTierView)]
pub(crate) struct TierView {
    user_id: String,
    #[schema(value_type = Tier)]
    verified_tier: &'static str,
    #[schema(value_type = Option<Timestamp>, required)]
    verified_at: Option<String>,
    /// `null` when unbounded
    #[schema(required)]
    max_withdrawal_cents: Option<i64>,
    cumulative_withdrawn_cents: i64,
    #[schema(required)]
    next_tier_required_at_cents: Option<i64>,
    /// the currency the amounts are in (the user's withdrawal currency), in its
    /// ISO 4217 minor units; `null` before a first withdrawal, when they read as cents
    #[schema(value_type = Option<Currency>, required)]
    currency: Option<String>,
}

/// A fresh token for the vendor's verification flow.
#[derive(Serialize, ToSchema)]
#[schema(as = KycToken)]
pub(crate) struct IssuedToken {
    kyc_check_id: String,
    #[schema(value_type = KycStatusName)]
    status: &'static str,
    /// for the vendor's verification flow on the player's device
    vendor_access_token: String,
    /// seconds until the token expires
    vendor_expires_in: i64,
    /// when the check expires if the user does not finish the flow; `null` once submitted
    #[schema(value_type = Option<Timestamp>, required)]
    expires_at: Option<String>,
}

/// A check's status after an action on it.
#[derive(Serialize, ToSchema)]
#[schema(as = KycCheckStatus)]
pub(crate) struct CheckStatus {
    kyc_check_id: String,
    #[schema(value_type = KycStatusName)]
    status: &'static str,
}

/// The body of a manual review.
#[derive(ToSchema)]
#[schema(as = KycManualReview)]
pub(crate) struct ManualReview {
    #[schema(min_length = 1, max_length = 256)]
    kyc_check_id: String,
    #[schema(inline)]
    decision: ManualDecision,
    #[schema(min_length = 1, max_length = 256)]
    reviewer: String,
    #[schema(min_length = 1, max_length = 256)]
    reason: Option<String>,
}

/// A reviewer's verdict on a check.
#[derive(ToSchema)]
#[serde(rename_all = "snake_case")]
enum ManualDecision {
    Approve,
    Reject,
}

impl FromBody for ManualReview {
    fn from_body(body: &[u8], gw: &Gateway, _: &Ctx<'_>) -> ApiResult<Self> {
        let mut f = Fields::from_body(body, gw.rules.as_ref())?;
        let kyc_check_id = f.text("kyc_check_id");
        let decision_text = f.code("decision");
        let reviewer = f.text("reviewer");
        let reason = f.opt_text("reason");
        let decision = match decision_text.as_str() {
            "approve" => Some(ManualDecision::Approve),
            "reject" => Some(ManualDecision::Reject),
            _ => None,
        };
        if !decision_text.is_empty() && decision.is_none() {
            f.reject("invalid_field", "decision must be approve or reject");
        }
        f.finish()?;
        Ok(ManualReview { kyc_check_id, decision: decision.ok_or_else(ApiError::internal)?, reviewer, reason })
    }
}

#[derive(Serialize, ToSchema)]
#[schema(as = KycReviewed)]
pub(crate) struct ManuallyReviewed {
    kyc_check_id: String,
    #[schema(value_type = KycStatusName)]
    status: &'static str,
    reviewer: String,
    #[schema(required)]
    reason: Option<String>,
}

/// The query of `GET /v1/admin/kyc/checks`.
#[derive(Deserialize, IntoParams)]
pub(crate) struct ChecksQuery {
    /// default pending_review
    #[param(value_type = Option<KycStatusName>)]
    status: Option<KycStatus>,
    /// only those past the review target
    overdue: Option<bool>,
    /// only those escalated to a person (a vendor's retry request, or past the review target)
    escalated: Option<bool>,
    /// only checks in their status at least this many seconds
    #[param(value_type = Option<i64>, minimum = 0)]
    min_age_seconds: Option<WaitSeconds>,
    /// default 100
    #[param(inline)]
    limit: Option<ReviewLimit>,
    /// the `next_cursor` of the page before
    #[param(value_type = Option<String>)]
    cursor: Option<Cursor<(i64, String)>>,
}

/// A check in a review list.
#[derive(Serialize, ToSchema)]
#[schema(as = KycCheckSummary)]
struct CheckRow {
    kyc_check_id: String,
    tenant_id: String,
    user_id: String,
    #[schema(value_type = KycStatusName)]
    status: &'static str,
    #[schema(value_type = Tier)]
    required_tier: &'static str,
    #[schema(value_type = Timestamp)]
    in_status_since: String,
    age_seconds: i64,
    /// while the check awaits review
    #[schema(value_type = Option<Timestamp>, required)]
    review_due_at: Option<String>,
    overdue: bool,
    /// why a check awaiting review needs a person: the vendor asked the user to
    /// resubmit (`vendor_retry`) or it is past the review target (`review_overdue`)
    #[schema(value_type = Option<KycEscalationName>, required)]
    escalation: Option<&'static str>,
    /// who last moved the check: a person, `sumsub`, `sandbox_vendor`, `user`, `cli` or `abandoned`
    #[schema(required)]
    reviewer: Option<String>,
    /// the reason given with a manual decision
    #[schema(required)]
    review_reason: Option<String>,
    /// what the required tier asks of the user, as the check was started
    required_documents: Vec<String>,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct CheckList {
    checks: Vec<CheckRow>,
    /// for the next page; `null` on the last
    #[schema(required)]
    next_cursor: Option<String>,
    has_more: bool,
}

/// The body of the identity vendor's webhook (Sumsub), as far as it is read.
#[derive(ToSchema)]
#[schema(as = IdentityVendorWebhook)]
#[allow(dead_code, non_snake_case)]
struct VendorWebhookBody {
    r#type: Option<String>,
    externalUserId: Option<String>,
    reviewResult: Option<VendorReviewResult>,
}

#[derive(ToSchema)]
#[allow(dead_code, non_snake_case)]
struct VendorReviewResult {
    reviewAnswer: Option<String>,
    reviewRejectType: Option<String>,
}

/// What the gateway did with a vendor webhook.
#[derive(Serialize, ToSchema)]
#[schema(as = IdentityVendorWebhookReceipt)]
pub(crate) struct VendorReceipt {
    received: bool,
    applied: bool,
    /// the webhook's type, when it was ignored
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    #[schema(value_type = String, required = false)]
    kind: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = String, required = false)]
    kyc_check_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = KycStatusName, required = false)]
    status: Option<&'static str>,
}

pub(crate) fn identity_vendor_webhook_doc() -> OperationDoc {
    OperationDoc::new("service", "a status webhook from the identity-verification vendor (Sumsub)")
        .describe("Authenticated by the `X-Payload-Digest` header (hex HMAC-SHA256 or, with `X-Payload-Digest-Alg: HMAC_SHA512_HEX`, HMAC-SHA512 of the raw body, keyed with the webhook secret), not by a key. `applicantPending` submits the check named by `externalUserId` (the `kyc_check_id`); `applicantReviewed` GREEN approves it, RED FINAL rejects it; other types are acknowledged and ignored. 404 when no vendor is configured or the check is unknown; 409 `invalid_state` when the check has another verdict.")
        .body::<VendorWebhookBody>()
        .errors(&[400, 401, 404, 409, 413, 503])
}

pub(crate) fn kyc_start_doc() -> OperationDoc {
    OperationDoc::new("kyc", "ask for a withdrawal; starts verification when it exceeds the verified tier")
        .answers("a check was created and the withdrawal is held")
        .or_200("no check needed (tier_0 fast path or within the verified tier), a held account, a repeat of an open check, or a retry of an earlier withdrawal")
        .describe("A retry never counts a withdrawal twice. Send the operator's `withdrawal_id` (a repeat with the same user, amount and currency answers the original; the same id for another withdrawal is 409 `withdrawal_id_reused`) or an `Idempotency-Key`. With neither, a request of the same user, amount and currency within 10 minutes of a withdrawal released at once (also sent with neither), with nothing else done for the user since, is taken for a blind retry of it and answers it again: send a `withdrawal_id` to make two equal withdrawals. The tier ceilings are amounts in the jurisdiction profile's currency: a withdrawal in another has its lifetime total converted at the environment's newest reference rates (`POST /v1/admin/aml/rates`) of the day; with no rate, 422 `no_reference_rate`. In production, 503 `vendor_unavailable` when the identity vendor cannot issue a token (retry after `Retry-After`), and 503 `tier_not_verifiable` when the tier the withdrawal needs has no verification level configured (no lower tier's level verifies it).")
        .errors(&[404, 409, 422, 503])
}

pub(crate) fn kyc_status_doc() -> OperationDoc {
    OperationDoc::new("kyc", "a verification check's status").errors(&[404])
}

pub(crate) fn kyc_token_doc() -> OperationDoc {
    OperationDoc::new("kyc", "a fresh vendor token for a check that is not final (the user opens or resumes the vendor flow)")
        .describe("A check that has not started starts (`in_progress`, event `kyc.started`); an unfinished flow's 7-day abandonment counts from now. A final check is 409 `invalid_state`; a check abandoned for 7 days expires instead. 503 `vendor_unavailable` when the vendor cannot issue a token.")
        .errors(&[404, 409, 503])
}

pub(crate) fn kyc_tier_doc() -> OperationDoc {
    OperationDoc::new("kyc", "a user's verified tier")
        .describe("The bounds are told in the user's withdrawal currency: the profile's ceilings converted back at the reference rates (the most that converts within them); with no rate, 422 `no_reference_rate`.")
        .errors(&[404, 422])
}

pub(crate) fn sandbox_kyc_submit_doc() -> OperationDoc {
    OperationDoc::new("sandbox", "submit documents to the stub vendor")
        .or_200("a repeat with the same Idempotency-Key: the original result")
        .errors(&[403, 404, 409])
}

pub(crate) fn kyc_manual_review_doc() -> OperationDoc {
    OperationDoc::new("admin", "approve or reject a check by hand").errors(&[404, 409])
}

pub(crate) fn list_kyc_checks_doc() -> OperationDoc {
    OperationDoc::new("admin", "verification checks of the environment by status")
}

fn to_json<T: Serialize>(value: &T) -> ApiResult<Json> {
    serde_json::to_value(value).map_err(|e| ApiError::internal().with_detail(format!("a body did not serialise: {e}")))
}

/// The reference rate (AML's, `crate::rates`) from a withdrawal's currency
/// into the tier ceilings' (the profile's) of the day, from the
/// environment's newest version; none when they are the same or none is kept.
async fn ceiling_rate(gw: &Gateway, ctx: &Ctx<'_>, currency: &str, ceiling_currency: &str) -> ApiResult<Option<rules_model::AmlRate>> {
    if currency == ceiling_currency {
        return Ok(None);
    }
    let read = crate::rates::store::read_rate(ctx.caller.environment, currency, ceiling_currency, &crate::rates::day_of(ctx.now));
    let rows = gw.store.query(read.sql, read.params).await?;
    Ok(crate::rates::store::rate_from(&rows)?.and_then(|r| crate::rates::rate_fact(r, currency, ceiling_currency)))
}

/// The rules' refusal for want of a rate into the ceilings' currency, naming the pair.
fn no_ceiling_rate(e: ApiError, currency: &str, ceiling_currency: &str) -> ApiError {
    if e.code != crate::limits::NO_REFERENCE_RATE {
        return e;
    }
    let message = format!(
        "the KYC tier ceilings are in {ceiling_currency}, and no reference rate converts {currency} into {ceiling_currency}; import the rates (POST /v1/admin/aml/rates)"
    );
    ApiError { message, ..e }
}

pub(crate) async fn kyc_start(gw: &Gateway, ctx: &Ctx<'_>, Body(request): Body<WithdrawalRequest>) -> ApiResult<Created<WithdrawalAnswer<'static>>> {
    // The Idempotency-Key is read with the earlier withdrawals and kept in
    // the batch that counts the withdrawal: a retry never counts it twice.
    let key = ctx.idempotency.as_ref();
    until_committed!({
        let user = match asked_withdrawal(gw, ctx, &request, key).await? {
            Asked::Repeat(reply) => return Ok(Some(reply)),
            Asked::New(user) => user,
        };
        if let Some(reply) = repeated_release(gw, ctx, &request, &user).await? {
            return Ok(Some(reply));
        }
        let open = store::open_check(gw.store.as_ref(), &ctx.caller.tenant_id, &request.user_id).await?;
        let ceiling_currency = crate::aml::aml_parameters(gw, &ctx.caller.jurisdiction)?.currency;
        let rate = ceiling_rate(gw, ctx, &request.currency, &ceiling_currency).await?;
        let facts = WithdrawalFacts {
            now: ctx.now,
            sanctions: user.sanctions_status,
            verified: user.verified_tier,
            cumulative_cents: user.cumulative_withdrawn_cents,
            amount_cents: request.amount,
            same_currency: user.withdrawal_currency.as_deref().is_none_or(|c| c == request.currency),
            open_check: open.as_ref().map(|c| OpenCheck {
                target_tier: c.target_tier,
                status: c.status,
                updated_at: c.updated_at,
                token_expires_at: c.token_expires_at,
            }),
            currency_exponent: request.currency_exponent,
            aml: user.aml,
            currency: request.currency.clone(),
            ceiling_currency,
            rate,
        };
        let scope = Scope::of(ctx, &request.user_id);
        let (decision, log) = gw
            .decide_or_refuse(&scope, Operation::Withdrawal, &facts, |r, f| r.decide_withdrawal(f))
            .map_err(|e| no_ceiling_rate(e, &facts.currency, &facts.ceiling_currency))?;
        let mut statements = vec![log.statement()];
        // Expiring an abandoned check claims the user; a withdrawal
        // update in the same batch claims it again, one version on.
        let mut version = user.version;
        if let (Some(expiry), Some(open)) = (&decision.expire_open_check, &open) {
            statements.extend(kyc_transition(gw, open, user.verified_tier, Some(version), expiry, Reviewer::named("abandoned"), ctx.now));
            version += 1;
        }
        let reply = match decision.outcome {
            WithdrawalOutcome::CeilingExceeded => {
                return refuse_withdrawal(
                    gw,
                    &log,
                    ApiError::unprocessable("ceiling_exceeded", "the lifetime withdrawal total would exceed the largest amount the service accepts"),
                    statements,
                )
                .await;
            }
            WithdrawalOutcome::CurrencyMismatch => {
                let kept = user.withdrawal_currency.clone().unwrap_or_default();
                return refuse_withdrawal(
                    gw,
                    &log,
                    ApiError::bad_request("currency_mismatch", format!("this user's withdrawals are kept in {kept}")),
                    statements,
                )
                .await;
            }
            WithdrawalOutcome::AlreadyInProgress => {
                return refuse_withdrawal(
                    gw,
                    &log,
                    ApiError::conflict("already_in_progress", "a verification for this user is already in progress"),
                    statements,
                )
                .await;
            }
            WithdrawalOutcome::ReplayOpenCheck(replay) => {
                let open = open.as_ref().ok_or_else(ApiError::internal)?;
                let mut body = stored_json(&open.start_response)?;
                body["status"] = json!(open.status.as_str());
                body["vendor_expires_in"] = json!(replay.vendor_expires_in);
                if !replay.reissue_token {
                    gw.defer(log.clone());
                    return Ok(Some(Created::stored_existing(body).decided(log.decision_id())));
                }
                let token = match vendor_token(gw, open, replay.vendor_expires_in).await {
                    Ok(token) => token,
                    Err(error) => return refuse_withdrawal(gw, &log, error, statements).await,
                };
                body["vendor_access_token"] = json!(token);
                let expires_at = ctx.now.saturating_add(replay.vendor_expires_in);
                statements.push(store::record_token(&open.kyc_check_id, body.to_string(), expires_at));
                statements.push(crate::users::store::claim(&open.tenant_id, &open.external_user_id, version, ctx.now));
                Created::stored_existing(body)
            }
            WithdrawalOutcome::Held(tier) => Created::stored_existing(to_json(&WithdrawalAnswer {
                user_id: &request.user_id,
                required_tier: tier.as_str(),
                withdrawal_held: true,
                message: Some(gw.rules.player_message(&rules_model::PlayerNotice::WithdrawalHeld)?),
                ..WithdrawalAnswer::default()
            })?),
            WithdrawalOutcome::Approve(fast) => {
                let withdrawal_id = gw.new_id("wd");
                let body = to_json(&WithdrawalAnswer {
                    user_id: &request.user_id,
                    required_tier: fast.required_tier.as_str(),
                    withdrawal_held: false,
                    withdrawal_id: Some(&withdrawal_id),
                    client_withdrawal_id: Some(request.withdrawal_id.as_deref()),
                    withdrawal_remaining_cents: Some(fast.remaining_cents),
                    message: Some(gw.rules.player_message(&rules_model::PlayerNotice::WithdrawalApproved)?),
                    ..WithdrawalAnswer::default()
                })?;
                statements.push(user_withdrawal_update(ctx, &user, version, &request, request.amount));
                statements.push(withdrawal_insert(ctx, &request, version, &withdrawal_id, WithdrawalStatus::Released, &body));
                Created::stored_existing(body)
            }
            WithdrawalOutcome::Verify(verification) => {
                let kyc_check_id = gw.new_id("kyc");
                let withdrawal_id = gw.new_id("wd");
                let token = match new_applicant_token(gw, ctx.caller.environment, &kyc_check_id, verification.tier, verification.vendor_token_seconds)
                    .await
                {
                    Ok(token) => token,
                    Err(error) => return refuse_withdrawal(gw, &log, error, statements).await,
                };
                let body = to_json(&WithdrawalAnswer {
                    kyc_check_id: Some(&kyc_check_id),
                    user_id: &request.user_id,
                    status: Some(verification.status.as_str()),
                    required_tier: verification.tier.as_str(),
                    required_documents: verification.documents.iter().map(|d| d.as_str()).collect(),
                    vendor_access_token: Some(token),
                    vendor_expires_in: Some(verification.vendor_token_seconds),
                    withdrawal_held: true,
                    withdrawal_id: Some(&withdrawal_id),
                    client_withdrawal_id: Some(request.withdrawal_id.as_deref()),
                    estimated_clear_time: Some(&verification.estimated_clear_time),
                    ..WithdrawalAnswer::default()
                })?;
                let tenant = ctx.caller.tenant_id.as_str();
                statements.push(user_withdrawal_update(ctx, &user, version, &request, 0));
                statements.push(withdrawal_insert(ctx, &request, version, &withdrawal_id, WithdrawalStatus::Held, &body));
                statements.push(store::insert_check(store::NewCheck {
                    kyc_check_id: &kyc_check_id,
                    tenant_id: tenant,
                    environment: ctx.caller.environment,
                    user_id: &request.user_id,
                    target_tier: verification.tier,
                    status: verification.status,
                    withdrawal_id: &withdrawal_id,
                    start_response: body.to_string(),
                    token_expires_at: ctx.now.saturating_add(verification.vendor_token_seconds),
                    now: ctx.now,
                }));
                for kind in &verification.events {
                    let data = check_event_data(&kyc_check_id, &request.user_id, verification.tier);
                    statements.push(gw.event(ctx.caller.environment, Some(tenant), *kind, ctx.now, &data));
                }
                Created::stored(body)
            }
        };
        let reply = reply.decided(log.decision_id());
        if statements.len() == 1 {
            gw.defer(log.clone());
            return Ok(Some(reply));
        }
        statements.extend(key.map(|k| k.keep(reply.reply())));
        // Lost to a write since the reads (the user claimed, the key kept): decided again from fresh reads
        if gw.commit(statements).await?.done() {
            return Ok(Some(reply));
        }
        Ok(None)
    })
}

/// A new check's first token for the end user's verification flow: in
/// production an applicant is created for the check first.
async fn new_applicant_token(gw: &Gateway, environment: Environment, kyc_check_id: &str, tier: KycTier, ttl_seconds: i64) -> ApiResult<String> {
    issue_token(gw, environment, kyc_check_id, tier, ttl_seconds, true).await
}

/// A fresh token for an existing check's flow (its applicant exists).
async fn vendor_token(gw: &Gateway, check: &Check, ttl_seconds: i64) -> ApiResult<String> {
    issue_token(gw, check.environment, &check.kyc_check_id, check.target_tier, ttl_seconds, false).await
}

/// The token of the end user's verification flow: the sandbox stub's, or
/// in production the configured vendor's (with `new_applicant`, an
/// applicant for the check first, then its SDK token). No vendor, or one
/// that fails, is 503.
async fn issue_token(
    gw: &Gateway,
    environment: Environment,
    kyc_check_id: &str,
    tier: KycTier,
    ttl_seconds: i64,
    new_applicant: bool,
) -> ApiResult<String> {
    let stub = || format!("vat_{}", hex::encode(gw.ids.random_bytes(24)));
    let sumsub = match (environment, &gw.config.production_identity_vendor) {
        (Environment::Sandbox, _) => return Ok(stub()),
        (Environment::Production, Some(sumsub)) => sumsub,
        (Environment::Production, None) if gw.config.production_vendors_configured => return Ok(stub()),
        (Environment::Production, None) => return Err(vendors::unavailable("identity verification", "no vendor is configured".into())),
    };
    // a tier without its own level is not verified at another's
    let level = sumsub.levels.level(tier).ok_or_else(|| sumsub::tier_not_verifiable(tier))?;
    let http = gw.vendor_http.as_ref().ok_or_else(|| vendors::unavailable("identity verification", "this host has no vendor client".into()))?;
    let fail = |e: String| vendors::unavailable("identity verification", format!("sumsub: {e}"));
    let now = gw.clock.now();
    if new_applicant {
        let created = http.send(sumsub.create_applicant(kyc_check_id, level, now)).await.map_err(fail)?;
        sumsub::applicant_id(&created).map_err(fail)?;
    }
    let issued = http.send(sumsub.access_token(kyc_check_id, level, ttl_seconds, now)).await.map_err(fail)?;
    sumsub::token(&issued).map_err(fail)
}

/// A status webhook of the identity vendor, verified by its digest: moves
/// the check it names as the rules decide.
async fn vendor_webhook(gw: &Gateway, headers: &http::HeaderMap, body: &[u8]) -> ApiResult<Answer<VendorReceipt>> {
    let sumsub = gw
        .config
        .production_identity_vendor
        .as_ref()
        .ok_or_else(|| ApiError::not_found("not_found", "no identity verification vendor is configured"))?;
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    if !sumsub.verify_webhook(body, header("x-payload-digest"), header("x-payload-digest-alg")) {
        return Err(ApiError::new(401, "invalid_signature", "the webhook's X-Payload-Digest does not match its body"));
    }
    let (kyc_check_id, action, level) = match sumsub::webhook_outcome(body).map_err(|m| ApiError::bad_request("invalid_webhook", m))? {
        sumsub::WebhookOutcome::Ignore(kind) => {
            return Answer::new(&VendorReceipt { received: true, applied: false, kind: Some(kind), kyc_check_id: None, status: None });
        }
        sumsub::WebhookOutcome::Apply { kyc_check_id, action, level } => (kyc_check_id, action, level),
    };
    // the tier the verdict's level verifies: the rules approve no tier above it
    let vendor_tier = level.as_deref().and_then(|l| sumsub.levels.tier_of(l));
    until_committed!({
        let check = store::check(gw.store.as_ref(), &kyc_check_id)
            .await?
            .filter(|c| c.environment == Environment::Production)
            .ok_or_else(|| ApiError::not_found("kyc_check_not_found", "no such KYC check"))?;
        let user = check_subject(gw, &check).await?;
        let now = gw.clock.now();
        let (decision, log) = decide_vendor_check(gw, &check, &user, action, vendor_tier, now)?;
        if !apply_check_decision(gw, &check, &user, &decision, &log, Reviewer::named("sumsub"), now).await? {
            return Ok(None);
        }
        if decision.refused {
            return Err(error_with_decision(invalid_state(decision.status), &log));
        }
        let body = VendorReceipt {
            received: true,
            applied: decision.changed || decision.escalation.is_some_and(|e| check.escalation != Some(e)),
            kind: None,
            kyc_check_id: Some(kyc_check_id.clone()),
            status: Some(decision.status.as_str()),
        };
        Ok(Some(Answer::new(&body)?.decided(log.decision_id())))
    })
}

/// Answers a refused withdrawal, writing what the decision still changes
/// (an abandoned check it expired) with its log, or else queueing the log.
/// `Ok(None)` when that write lost a race: the refusal is decided again from
/// fresh reads, so the decision the answer names is always one that was logged.
async fn refuse_withdrawal<T>(gw: &Gateway, log: &DecisionLog, error: ApiError, statements: Vec<Stmt>) -> ApiResult<Option<T>> {
    let error = error_with_decision(error, log);
    if statements.len() > 1 {
        if !gw.commit(statements).await?.done() {
            return Ok(None);
        }
    } else {
        gw.defer(log.clone());
    }
    Err(error)
}

/// How long a repeat of a withdrawal released at once, sent with neither a
/// `withdrawal_id` nor an `Idempotency-Key`, is taken for a blind retry of
/// it (answered again, counted once) rather than a second withdrawal.
pub(crate) const BLIND_RETRY_SECONDS: i64 = 600;

/// What a withdrawal request is, read in one round trip with its user.
enum Asked {
    /// a keyed or named repeat, answered again
    Repeat(Created<WithdrawalAnswer<'static>>),
    /// a new withdrawal (or a repeat of one whose check is open) of this user
    New(User),
}

/// The user, and the answer a keyed or named repeat gets again, if it is
/// one: a kept `Idempotency-Key` answer is replayed (200); a withdrawal the
/// operator identified by `withdrawal_id` gets its original answer, and the
/// same id for another withdrawal is refused. The user is read first, in the
/// same round trip: a player an erasure restricted is unknown (404) before
/// any replay.
async fn asked_withdrawal(gw: &Gateway, ctx: &Ctx<'_>, request: &WithdrawalRequest, key: Option<&Deferred>) -> ApiResult<Asked> {
    let named = request.withdrawal_id.as_deref().map(|id| store::read_withdrawal_by_client_id(&ctx.caller.tenant_id, id));
    let reads: Vec<Read> =
        std::iter::once(crate::users::store::read(&ctx.caller.tenant_id, &request.user_id)).chain(key.map(Deferred::read)).chain(named).collect();
    let rows = gw.store.query_many(reads).await?;
    let user = rows.first().and_then(|r| r.first()).map(crate::users::store::from_row).transpose()?.ok_or_else(ApiError::user_not_found)?;
    let replayed = |i: usize| rows.get(1 + i).map(Vec::as_slice).unwrap_or_default();
    if let Some(reply) = key.map(|k| k.answer(replayed(0))).transpose()?.flatten() {
        return Ok(Asked::Repeat(Created::kept(reply)));
    }
    if request.withdrawal_id.is_none() {
        return Ok(Asked::New(user));
    }
    let earlier = store::earlier_from(replayed(usize::from(key.is_some())))?;
    let Some(earlier) = earlier.into_iter().next() else { return Ok(Asked::New(user)) };
    if earlier.fingerprint.as_deref() != Some(request.fingerprint().as_str()) {
        return Err(ApiError::conflict("withdrawal_id_reused", "this withdrawal_id was already used for another withdrawal"));
    }
    let answer = stored_json(&earlier.response.unwrap_or_default())?;
    // A repeat while its check is open answers as a repeat of the open
    // check does: its current status, with a token that is still valid.
    if let Some(kyc_check_id) = answer["kyc_check_id"].as_str() {
        if store::check(gw.store.as_ref(), kyc_check_id).await?.is_some_and(|c| c.status.is_open()) {
            return Ok(Asked::New(user));
        }
    }
    Ok(Asked::Repeat(Created::stored_existing(answer)))
}

/// A blind retry (neither a `withdrawal_id` nor an `Idempotency-Key`) of a
/// withdrawal released at once within [`BLIND_RETRY_SECONDS`], while nothing
/// else was written for the user since (its version is still the one the
/// release left: a hold, a deposit or another withdrawal since makes the
/// request a new one, decided afresh): the release's answer again.
async fn repeated_release(
    gw: &Gateway,
    ctx: &Ctx<'_>,
    request: &WithdrawalRequest,
    user: &User,
) -> ApiResult<Option<Created<WithdrawalAnswer<'static>>>> {
    if request.withdrawal_id.is_some() || ctx.idempotency.is_some() {
        return Ok(None);
    }
    let print = request.blind_fingerprint(user.version);
    let read = store::read_repeated_release(&ctx.caller.tenant_id, &request.user_id, &print, ctx.now.saturating_sub(BLIND_RETRY_SECONDS));
    let rows = gw.store.query_many(vec![read]).await?;
    let earlier = store::earlier_from(rows.first().map(Vec::as_slice).unwrap_or_default())?;
    // a release a check made is never repeated this way
    for release in earlier {
        let answer = stored_json(&release.response.unwrap_or_default())?;
        if answer["kyc_check_id"].is_null() {
            return Ok(Some(Created::stored_existing(answer)));
        }
    }
    Ok(None)
}

/// Claims the user, adds a released amount to the lifetime total, fixes
/// the withdrawal currency and records the e-mail and phone given.
fn user_withdrawal_update(ctx: &Ctx<'_>, user: &User, version: i64, request: &WithdrawalRequest, released: i64) -> Stmt {
    store::update_user_for_withdrawal(store::UserWithdrawal {
        tenant_id: &ctx.caller.tenant_id,
        user_id: &user.external_user_id,
        version,
        released_cents: released,
        currency: &request.currency,
        email: request.email.clone(),
        phone: request.phone.as_ref().map(|p| p.digits().to_string()),
        email_key: request.email.as_deref().map(email_key),
        phone_key: request.phone.as_ref().map(|p| p.key().to_string()),
        now: ctx.now,
    })
}

/// The withdrawal's row, written beside [`user_withdrawal_update`] at
/// `version` (which leaves the user at the next).
fn withdrawal_insert(ctx: &Ctx<'_>, request: &WithdrawalRequest, version: i64, withdrawal_id: &str, status: WithdrawalStatus, body: &Json) -> Stmt {
    let keyed = ctx.idempotency.is_some();
    store::insert_withdrawal(store::NewWithdrawal {
        withdrawal_id,
        tenant_id: &ctx.caller.tenant_id,
        user_id: &request.user_id,
        amount_cents: request.amount,
        currency: &request.currency,
        status,
        client_withdrawal_id: request.withdrawal_id.clone(),
        fingerprint: request.stored_fingerprint(keyed, version.saturating_add(1)),
        response: body.to_string(),
        now: ctx.now,
    })
}

/// Asks the rules what an action does to a check; the decision's log is returned unwritten.
fn decide_check(gw: &Gateway, check: &Check, user: &User, action: KycAction, now: i64) -> ApiResult<(KycDecision, DecisionLog)> {
    decide_vendor_check(gw, check, user, action, None, now)
}

/// [`decide_check`] for a vendor's word, with the tier of the level it came from.
fn decide_vendor_check(
    gw: &Gateway,
    check: &Check,
    user: &User,
    action: KycAction,
    vendor_tier: Option<KycTier>,
    now: i64,
) -> ApiResult<(KycDecision, DecisionLog)> {
    let facts = KycFacts {
        vendor_tier,
        now,
        status: check.status,
        updated_at: check.updated_at,
        target_tier: check.target_tier,
        verified: user.verified_tier,
        external_user_id: check.external_user_id.clone(),
        action,
        sanctions: user.sanctions_status,
        aml: user.aml,
    };
    let scope = Scope { environment: check.environment, tenant_id: check.tenant_id.clone(), user_id: check.external_user_id.clone() };
    gw.decide(&scope, Operation::Kyc, &facts, |r, f| r.decide_kyc(f))
}

/// Writes a decided transition of a check with its log: the check, its
/// withdrawal, the user's verified tier and the events. Returns whether it committed.
async fn apply_check_decision(
    gw: &Gateway,
    check: &Check,
    user: &User,
    decision: &KycDecision,
    log: &DecisionLog,
    reviewer: Reviewer<'_>,
    now: i64,
) -> ApiResult<bool> {
    let escalation = decision.escalation.filter(|e| check.escalation != Some(*e));
    if !decision.changed && escalation.is_none() {
        gw.defer(log.clone());
        return Ok(true);
    }
    let mut statements = vec![log.statement()];
    if decision.changed {
        statements.extend(kyc_transition(gw, check, user.verified_tier, Some(user.version), decision, reviewer, now));
    } else {
        statements.push(crate::users::store::claim(&check.tenant_id, &check.external_user_id, user.version, now));
    }
    if let Some(escalation) = escalation {
        statements.push(store::escalate(&check.kyc_check_id, escalation, now));
    }
    Ok(gw.commit(statements).await?.done())
}

/// A check as the case file sees it.
pub(crate) use store::Check as KycCheck;

pub(crate) async fn kyc_check(gw: &Gateway, environment: Environment, kyc_check_id: &str) -> ApiResult<Option<KycCheck>> {
    Ok(store::check(gw.store.as_ref(), kyc_check_id).await?.filter(|c| c.environment == environment))
}

/// An approved manual decision on a check awaiting review, through the
/// rules, with `extra` (the case file's statements) in the same batch: the
/// decision's log and the check's status after it; `None` when the batch
/// lost a race. A check the decision cannot move is 409 `invalid_state`.
pub(crate) async fn apply_case_decision(
    gw: &Gateway,
    check: &KycCheck,
    approve: bool,
    reviewer: Reviewer<'_>,
    now: i64,
    extra: Vec<Stmt>,
) -> ApiResult<Option<(DecisionLog, KycStatus)>> {
    let user = check_subject(gw, check).await?;
    let action = if approve { KycAction::Approve } else { KycAction::Reject };
    let (decision, log) = decide_check(gw, check, &user, action, now)?;
    if decision.refused || !decision.changed {
        gw.defer(log.clone());
        return Err(error_with_decision(invalid_state(check.status), &log));
    }
    let mut statements = vec![log.statement()];
    statements.extend(kyc_transition(gw, check, user.verified_tier, Some(user.version), &decision, reviewer, now));
    if let Some(escalation) = decision.escalation.filter(|e| check.escalation != Some(*e)) {
        statements.push(store::escalate(&check.kyc_check_id, escalation, now));
    }
    statements.extend(extra);
    Ok(gw.commit(statements).await?.then_some((log, decision.status)))
}

/// The statements of a check's transition. `claim_version` claims the
/// user at the version read; `None` when the batch claims the user elsewhere.
pub(crate) fn kyc_transition(
    gw: &Gateway,
    check: &Check,
    verified_before: KycTier,
    claim_version: Option<i64>,
    decision: &KycDecision,
    reviewer: Reviewer<'_>,
    now: i64,
) -> Vec<Stmt> {
    let mut statements = store::transition(check, decision, reviewer, now);
    if let Some(version) = claim_version {
        statements.push(crate::users::store::claim(&check.tenant_id, &check.external_user_id, version, now));
    }
    let (check_id, user_id, withdrawal_id) = (&check.kyc_check_id, &check.external_user_id, &check.withdrawal_id);
    for kind in &decision.events {
        let (environment, tenant) = (check.environment, Some(check.tenant_id.as_str()));
        statements.push(match kind {
            EventKind::KycApproved => {
                let data = KycApprovedData {
                    kyc_check_id: check_id.clone(),
                    user_id: user_id.clone(),
                    verified_tier: decision.verified.as_str().to_string(),
                    release_withdrawal_id: (decision.withdrawal == WithdrawalStatus::Released).then(|| withdrawal_id.clone()),
                };
                gw.event(environment, tenant, *kind, now, &data)
            }
            EventKind::KycTierUpgraded => {
                let data = KycTierUpgradedData {
                    user_id: user_id.clone(),
                    previous_tier: verified_before.as_str().to_string(),
                    verified_tier: decision.verified.as_str().to_string(),
                };
                gw.event(environment, tenant, *kind, now, &data)
            }
            EventKind::KycRejected => {
                let data = KycRejectedData {
                    kyc_check_id: check_id.clone(),
                    user_id: user_id.clone(),
                    required_tier: check.target_tier.as_str().to_string(),
                    withdrawal_id: withdrawal_id.clone(),
                    withdrawal_held: true,
                };
                gw.event(environment, tenant, *kind, now, &data)
            }
            EventKind::KycExpired => {
                let data = KycExpiredData {
                    kyc_check_id: check_id.clone(),
                    user_id: user_id.clone(),
                    withdrawal_id: withdrawal_id.clone(),
                    withdrawal_cancelled: true,
                };
                gw.event(environment, tenant, *kind, now, &data)
            }
            _ => gw.event(environment, tenant, *kind, now, &check_event_data(check_id, user_id, check.target_tier)),
        });
    }
    statements
}

/// The data of a check's event that names the check, its user and tier (`kyc.started`, `kyc.submitted`).
fn check_event_data(kyc_check_id: &str, user_id: &str, tier: KycTier) -> KycCheckData {
    KycCheckData { kyc_check_id: kyc_check_id.to_string(), user_id: user_id.to_string(), required_tier: tier.as_str().to_string() }
}

/// Open checks untouched since before `abandoned_before` (per tenant clock),
/// as due-work candidates: the check, the rules' facts, the user's version.
pub(crate) async fn abandoned_check_candidates(gw: &Gateway, now: i64, abandon_seconds: i64, limit: i64) -> ApiResult<Vec<(Check, KycFacts, i64)>> {
    let abandoned = store::abandoned_checks(gw.store.as_ref(), now, abandon_seconds, limit).await?;
    Ok(abandoned
        .into_iter()
        .map(|a| {
            let facts = KycFacts {
                now: now.saturating_add(a.clock_offset_seconds),
                status: a.check.status,
                updated_at: a.check.updated_at,
                target_tier: a.check.target_tier,
                verified: a.verified,
                external_user_id: a.check.external_user_id.clone(),
                action: KycAction::Expire,
                vendor_tier: None,
                // an expiry releases nothing: the other gates do not change it
                sanctions: rules_model::SanctionsStatus::Clear,
                aml: rules_model::AmlStanding::default(),
            };
            (a.check, facts, a.user_version)
        })
        .collect())
}

/// The check of this tenant with the user behind it.
/// A check of a player an erasure restricted is hidden like the player (404).
async fn tenant_check(gw: &Gateway, ctx: &Ctx<'_>, kyc_check_id: &str) -> ApiResult<(Check, User)> {
    let check = store::check(gw.store.as_ref(), kyc_check_id).await?.filter(|c| c.tenant_id == ctx.caller.tenant_id).ok_or_else(check_not_found)?;
    let user = gw.find_user(&check.tenant_id, &check.external_user_id).await?.ok_or_else(check_not_found)?;
    Ok((check, user))
}

/// The player of a check the team or the vendor decides, restricted or not:
/// a check started before an erasure restricted the player is still decided,
/// as a review case is (`users::store::find_case_subject`).
async fn check_subject(gw: &Gateway, check: &Check) -> ApiResult<User> {
    crate::users::store::find_case_subject(gw.store.as_ref(), &check.tenant_id, &check.external_user_id).await?.ok_or_else(ApiError::internal)
}

pub(crate) async fn kyc_status(gw: &Gateway, ctx: &Ctx<'_>, Params(CheckQuery { kyc_check_id }): Params<CheckQuery>) -> ApiResult<Answer<CheckView>> {
    let id = kyc_check_id.as_str();
    until_committed!({
        let (check, user) = tenant_check(gw, ctx, id).await?;
        let (decision, log) = decide_check(gw, &check, &user, KycAction::View, ctx.now)?;
        if !apply_check_decision(gw, &check, &user, &decision, &log, Reviewer::named("abandoned"), ctx.now).await? {
            return Ok(None);
        }
        let updated_at = if decision.changed { ctx.now } else { check.updated_at };
        // a decided check's withdrawal is what its decision wrote (an approval
        // under another hold cancelled it), not what its status would give now
        let withdrawal = match decision.changed || decision.status.is_open() {
            true => decision.withdrawal,
            false => store::withdrawal_status(gw.store.as_ref(), &check.withdrawal_id).await?.unwrap_or(decision.withdrawal),
        };
        let body = CheckView {
            kyc_check_id: check.kyc_check_id.clone(),
            user_id: check.external_user_id.clone(),
            status: decision.status.as_str(),
            required_tier: check.target_tier.as_str(),
            required_documents: decision.documents.iter().map(|d| d.as_str()).collect(),
            withdrawal_id: check.withdrawal_id.clone(),
            withdrawal_held: withdrawal == WithdrawalStatus::Held || withdrawal == WithdrawalStatus::Blocked,
            withdrawal_status: withdrawal.as_str(),
            created_at: time::format(check.created_at),
            updated_at: time::format(updated_at),
            expires_at: decision.expires_at.map(time::format),
        };
        Ok(Some(Answer::new(&body)?.decided(log.decision_id())))
    })
}

/// A fresh vendor token for a check that is not final: the user opens (or
/// reopens) the vendor flow. A check not yet started starts (`kyc.started`).
pub(crate) async fn kyc_token(gw: &Gateway, ctx: &Ctx<'_>, Path(kyc_check_id): Path) -> ApiResult<Answer<IssuedToken>> {
    until_committed!({
        let (check, user) = tenant_check(gw, ctx, &kyc_check_id).await?;
        let (decision, log) = decide_check(gw, &check, &user, KycAction::IssueToken, ctx.now)?;
        let Some(seconds) = decision.vendor_token_seconds.filter(|_| !decision.refused) else {
            if !apply_check_decision(gw, &check, &user, &decision, &log, Reviewer::named("abandoned"), ctx.now).await? {
                return Ok(None);
            }
            return Err(error_with_decision(invalid_state(decision.status), &log));
        };
        let token = match vendor_token(gw, &check, seconds).await {
            Ok(token) => token,
            Err(error) => {
                gw.defer(log.clone());
                return Err(error_with_decision(error, &log));
            }
        };
        let expires_at = ctx.now.saturating_add(seconds);
        let mut answer = stored_json(&check.start_response)?;
        answer["status"] = json!(decision.status.as_str());
        answer["vendor_access_token"] = json!(token);
        answer["vendor_expires_in"] = json!(seconds);
        let mut statements = vec![log.statement()];
        if decision.changed {
            statements.extend(kyc_transition(gw, &check, user.verified_tier, Some(user.version), &decision, Reviewer::named("user"), ctx.now));
        } else {
            statements.push(crate::users::store::claim(&check.tenant_id, &check.external_user_id, user.version, ctx.now));
        }
        statements.push(store::record_token(&check.kyc_check_id, answer.to_string(), expires_at));
        if !gw.commit(statements).await?.done() {
            return Ok(None);
        }
        let body = IssuedToken {
            kyc_check_id: check.kyc_check_id.clone(),
            status: decision.status.as_str(),
            vendor_access_token: token,
            vendor_expires_in: seconds,
            expires_at: decision.expires_at.map(time::format),
        };
        Ok(Some(Answer::new(&body)?.decided(log.decision_id())))
    })
}

pub(crate) async fn kyc_tier(gw: &Gateway, ctx: &Ctx<'_>, Params(UserQuery { user_id }): Params<UserQuery>) -> ApiResult<Answer<TierView>> {
    let user_id = user_id.as_str();
    let user = gw.require_user(ctx, user_id).await?;
    // Bounds are told in the currency the user's withdrawals are kept in.
    let currency_exponent = user.withdrawal_currency.as_deref().and_then(crate::input::currency_exponent).unwrap_or(rules_model::kyc::CENTS_EXPONENT);
    // The ceilings are the profile's currency's: told back in the user's at the reference rate.
    let currency = user.withdrawal_currency.clone().unwrap_or_default();
    let ceiling_currency = crate::aml::aml_parameters(gw, &ctx.caller.jurisdiction)?.currency;
    let rate = if currency.is_empty() { None } else { ceiling_rate(gw, ctx, &currency, &ceiling_currency).await? };
    let facts = TierFacts { tier: user.verified_tier, currency_exponent, currency, ceiling_currency, rate };
    let (bounds, log) = gw
        .decide_or_refuse(&Scope::of(ctx, user_id), Operation::Tier, &facts, |r, f| r.describe_tier(f))
        .map_err(|e| no_ceiling_rate(e, &facts.currency, &facts.ceiling_currency))?;
    let body = TierView {
        user_id: user.external_user_id.clone(),
        verified_tier: user.verified_tier.as_str(),
        verified_at: user.verified_at.map(time::format),
        max_withdrawal_cents: bounds.ceiling_cents,
        cumulative_withdrawn_cents: user.cumulative_withdrawn_cents,
        next_tier_required_at_cents: bounds.next_tier_at_cents,
        currency: user.withdrawal_currency.clone(),
    };
    let answer = Answer::new(&body)?.decided(log.decision_id());
    gw.defer(log);
    Ok(answer)
}

/// Plays the end user finishing the vendor flow; the sandbox vendor then
/// decides by the user id (`autoapprove`, `autoreject`, else manual review).
pub(crate) async fn sandbox_kyc_submit(gw: &Gateway, ctx: &Ctx<'_>, Path(kyc_check_id): Path) -> ApiResult<Accepted<CheckStatus>> {
    if ctx.caller.environment != Environment::Sandbox {
        return Err(ApiError::forbidden("sandbox_only", "this operation is only available with a sandbox key"));
    }
    until_committed!({
        let (check, user) = tenant_check(gw, ctx, &kyc_check_id).await?;
        let (decision, log) = decide_check(gw, &check, &user, KycAction::SandboxSubmit, ctx.now)?;
        if !apply_check_decision(gw, &check, &user, &decision, &log, Reviewer::named("sandbox_vendor"), ctx.now).await? {
            return Ok(None);
        }
        if decision.refused {
            return Err(error_with_decision(invalid_state(decision.status), &log));
        }
        let body = CheckStatus { kyc_check_id: check.kyc_check_id.clone(), status: decision.status.as_str() };
        Ok(Some(Accepted::new(&body)?.decided(log.decision_id())))
    })
}

/// Admin-only approve or reject of a check awaiting review.
pub(crate) async fn kyc_manual_review(gw: &Gateway, ctx: &Ctx<'_>, Body(review): Body<ManualReview>) -> ApiResult<Answer<ManuallyReviewed>> {
    let ManualReview { kyc_check_id, decision, reviewer, reason } = review;
    let action = match decision {
        ManualDecision::Approve => KycAction::Approve,
        ManualDecision::Reject => KycAction::Reject,
    };
    if gw.config.four_eyes.applies_to(ctx.caller.environment) {
        return Err(crate::error::ApiError::four_eyes_required());
    }
    until_committed!({
        let check =
            store::check(gw.store.as_ref(), &kyc_check_id).await?.filter(|c| c.environment == ctx.caller.environment).ok_or_else(check_not_found)?;
        let user = check_subject(gw, &check).await?;
        let (decision, log) = decide_check(gw, &check, &user, action, ctx.now)?;
        if !apply_check_decision(gw, &check, &user, &decision, &log, Reviewer { name: &reviewer, reason: reason.as_deref() }, ctx.now).await? {
            return Ok(None);
        }
        if decision.refused {
            return Err(error_with_decision(invalid_state(decision.status), &log));
        }
        let body = ManuallyReviewed {
            kyc_check_id: check.kyc_check_id.clone(),
            status: decision.status.as_str(),
            reviewer: reviewer.clone(),
            reason: reason.clone(),
        };
        Ok(Some(Answer::new(&body)?.decided(log.decision_id())))
    })
}

/// What `compliance-gateway kyc advance` did to a sandbox check.
#[derive(Debug, Serialize)]
pub struct AdvancedCheck {
    pub kyc_check_id: String,
    pub status: &'static str,
    pub reason: Option<String>,
    pub decision_id: String,
}

impl Gateway {
    /// The stub vendor's verdict, given by the admin command-line tool: moves
    /// a sandbox check awaiting review to approved or rejected through the
    /// rules, as a manual review by `cli` with its reason; logged, and audited
    /// as `kyc.advance`. A production check is refused (403 `sandbox_only`),
    /// and so is a check not awaiting review (409 `invalid_state`).
    pub async fn advance_sandbox_check(&self, kyc_check_id: &str, approve: bool, reason: Option<&str>) -> ApiResult<AdvancedCheck> {
        let advanced = until_committed!({
            let check = store::check(self.store.as_ref(), kyc_check_id).await?.ok_or_else(check_not_found)?;
            if check.environment != Environment::Sandbox {
                return Err(ApiError::forbidden("sandbox_only", "only a sandbox check is advanced by the command-line tool"));
            }
            let offset = crate::tenants::store::operator_clock_offset(self.store.as_ref(), &check.tenant_id, check.environment).await?.unwrap_or(0);
            let now = self.clock.now().saturating_add(offset);
            let user = check_subject(self, &check).await?;
            let action = if approve { KycAction::Approve } else { KycAction::Reject };
            let (decision, log) = decide_check(self, &check, &user, action, now)?;
            if decision.refused || !decision.changed {
                self.defer(log.clone());
                return Err(error_with_decision(invalid_state(check.status), &log));
            }
            if !apply_check_decision(self, &check, &user, &decision, &log, Reviewer { name: "cli", reason }, now).await? {
                return Ok(None);
            }
            Ok(Some((check, decision.status, log.decision_id().to_string())))
        })?;
        let (check, status, decision_id) = advanced;
        let audit_id = self.new_id("aud");
        let request_id = self.new_id("req");
        let audit = crate::tenants::store::audit_admin_action(&crate::tenants::store::AdminAction {
            audit_id: &audit_id,
            tenant_id: Some(&check.tenant_id),
            action: "kyc.advance",
            request_id: &request_id,
            now: self.clock.now(),
            environment: check.environment,
            actor_key_id: "cli",
            resource: Some(&check.kyc_check_id),
        });
        if let Err(e) = self.store.batch(vec![audit]).await {
            tracing::error!(target: "audit", kyc_check_id, error = %e, "the audit of kyc.advance failed");
        }
        Ok(AdvancedCheck { kyc_check_id: check.kyc_check_id, status: status.as_str(), reason: reason.map(str::to_string), decision_id })
    }
}

/// Checks of the environment for the compliance team, by status, with
/// their age; `overdue=true` keeps those past the review target.
pub(crate) async fn list_kyc_checks(gw: &Gateway, ctx: &Ctx<'_>, Params(query): Params<ChecksQuery>) -> ApiResult<Answer<CheckList>> {
    let ChecksQuery { status, overdue, escalated, min_age_seconds, limit, cursor } = query;
    let status = status.unwrap_or(KycStatus::PendingReview);
    let (overdue_only, target, now) = gw.review_filter(overdue);
    let escalated_only = escalated.unwrap_or(false);
    let mut page = gw.review_page(limit, cursor, min_age_seconds);
    let filter = store::CheckFilter {
        environment: ctx.caller.environment,
        status,
        review_target: target,
        overdue_only,
        min_age_seconds: page.min_age_seconds,
        now,
        after: page.after.take(),
        limit: page.read_limit(),
    };
    let mut rows = store::checks(gw.store.as_ref(), filter).await?;
    let (has_more, next_cursor) = page.cut(&mut rows, |l| (l.check.updated_at, l.check.kyc_check_id.clone()));
    // The store pre-selects by the review target; the rules say when each check is due and whether it is overdue.
    let items: Vec<rules_model::ReviewItem> = rows
        .iter()
        .map(|l| rules_model::ReviewItem {
            now: now.saturating_add(l.clock_offset_seconds),
            waiting_since: l.check.updated_at,
            due_at: None,
            awaiting: l.check.status == KycStatus::PendingReview,
        })
        .collect();
    let states = gw.rules.describe_reviews(&items)?;
    let checks = rows
        .into_iter()
        .zip(items.iter().zip(states))
        .filter(|(_, (_, state))| !overdue_only || state.overdue)
        .map(|(listed, (item, state))| {
            let escalation = match (listed.check.status, listed.check.escalation) {
                (KycStatus::PendingReview, Some(stored)) => Some(stored),
                (KycStatus::PendingReview, None) if state.overdue => Some(KycEscalation::ReviewOverdue),
                _ => None,
            };
            (listed.check, listed.reviewer, listed.review_reason, item, state, escalation)
        })
        .filter(|(.., escalation)| !escalated_only || escalation.is_some())
        .map(|(c, reviewer, review_reason, item, state, escalation)| CheckRow {
            required_documents: stored_json(&c.start_response)
                .ok()
                .and_then(|s| s["required_documents"].as_array().map(|d| d.iter().filter_map(|v| v.as_str().map(str::to_string)).collect()))
                .unwrap_or_default(),
            escalation: escalation.map(KycEscalation::as_str),
            reviewer,
            review_reason,
            in_status_since: time::format(c.updated_at),
            age_seconds: item.now.saturating_sub(c.updated_at),
            review_due_at: state.due_at.map(time::format),
            overdue: state.overdue,
            kyc_check_id: c.kyc_check_id,
            tenant_id: c.tenant_id,
            user_id: c.external_user_id,
            status: c.status.as_str(),
            required_tier: c.target_tier.as_str(),
        })
        .collect();
    Answer::new(&CheckList { checks, next_cursor, has_more })
}
