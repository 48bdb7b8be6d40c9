//! Deposit limits: set with cool-off, list, the pre-deposit check, commit and
//! cancel. Each reads the facts, asks the rules once and writes one batch.

pub mod store;

use rules_model::{
    AmlRate, BreachNotice, DepositBreach, DepositDecision, DepositFacts, Deposits, DueLimit, EventKind, LimitCancelDecision, LimitCancelFacts,
    LimitChange, LimitChangeDecision, LimitChangeFacts, LimitStatus, LimitWindow, LimitsFacts, Operation, PlayerNotice, StoredLimit, WindowTotal,
};
use serde::Serialize;
use serde_json::{json, Value as Json};
use utoipa::ToSchema;

use crate::api::stored_answer;
use crate::auth::Environment;
use crate::decisions::{error_with_decision, DecisionLog, Scope};
use crate::error::{ApiError, ApiResult};
use crate::exclusions::{check_skew, store as exclusions};
use crate::idempotency::Deferred;
use crate::input::{Body, Fields, FromBody, Params, Path};
use crate::openapi::answer::{Answer, Created};
use crate::openapi::shared::{shared_schema, Cents, Currency, LimitType, Timestamp, UserQuery};
use crate::openapi::OperationDoc;
use crate::ports::{Read, Row, Stmt, MAX_STORED_INTEGER};
use crate::users::store::{self as users, User};
use crate::webhooks::events::{LimitActivatedData, LimitBreachData, LimitCancelledData, LimitChangedData};
use crate::{time, Ctx, Gateway};
use store::LimitRow;

/// The body of `POST /v1/limits`.
#[derive(ToSchema)]
pub(crate) struct LimitRequest {
    #[schema(min_length = 1, max_length = 256)]
    user_id: String,
    #[schema(value_type = LimitType)]
    limit_type: LimitWindow,
    #[schema(value_type = Cents)]
    amount_cents: i64,
    #[schema(value_type = Currency)]
    currency: String,
    #[schema(value_type = Timestamp)]
    requested_at: i64,
}

impl FromBody for LimitRequest {
    fn from_body(body: &[u8], gw: &Gateway, ctx: &Ctx<'_>) -> ApiResult<Self> {
        let now = ctx.now;
        let mut f = Fields::from_body(body, gw.rules.as_ref())?;
        let user_id = f.text("user_id");
        let type_text = f.code("limit_type");
        let amount_cents = f.cents("amount_cents");
        let currency = f.currency("currency");
        let requested_at = f.timestamp("requested_at");
        let window = LimitWindow::parse(&type_text);
        if !type_text.is_empty() && window.is_none() {
            f.reject("unsupported_type", "limit_type must be limit_daily, limit_weekly or limit_monthly");
        }
        check_skew(&mut f, "requested_at", requested_at, now);
        f.finish()?;
        let limit_type = window.ok_or_else(ApiError::internal)?;
        Ok(LimitRequest { user_id, limit_type, amount_cents, currency, requested_at })
    }
}

shared_schema!(
    /// Where a new limit stands: in force, or an increase waiting out its cool-off.
    NewLimitStatus => crate::openapi::shared::from_json(json!({ "type": "string", "enum": [LimitStatus::Active.as_str(), LimitStatus::Pending.as_str()] }))
);

/// A limit as set; stored and answered again on a repeat.
#[derive(Serialize, ToSchema)]
#[schema(as = LimitSet)]
pub(crate) struct LimitAnswer<'a> {
    limit_id: &'a str,
    user_id: &'a str,
    #[schema(value_type = LimitType)]
    limit_type: &'static str,
    amount_cents: i64,
    #[schema(value_type = Currency)]
    currency: &'a str,
    /// the limit in force before, if any
    #[schema(required)]
    current_limit_cents: Option<i64>,
    is_increase: bool,
    cooloff_seconds: i64,
    #[schema(value_type = Timestamp)]
    effective_from: String,
    #[schema(value_type = NewLimitStatus)]
    status: &'static str,
}

/// A pending increase of a limit in force.
#[derive(Serialize, ToSchema)]
struct PendingChange {
    limit_id: String,
    amount_cents: i64,
    #[schema(value_type = Timestamp)]
    effective_from: String,
    status: &'static str,
}

/// A limit in force with where the user stands against it.
#[derive(Serialize, ToSchema)]
#[schema(as = LimitInForce)]
struct LimitView {
    limit_id: String,
    #[schema(value_type = LimitType)]
    limit_type: &'static str,
    amount_cents: i64,
    #[schema(value_type = Currency)]
    currency: String,
    status: &'static str,
    #[schema(value_type = Timestamp)]
    effective_from: String,
    spent_cents: i64,
    remaining_cents: i64,
    #[schema(value_type = Option<Timestamp>, required)]
    next_reset_at: Option<String>,
    #[schema(required)]
    pending_change: Option<PendingChange>,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct LimitList {
    user_id: String,
    limits: Vec<LimitView>,
}

/// The body of `POST /v1/limits/check`.
#[derive(ToSchema)]
pub(crate) struct DepositQuestion {
    #[schema(min_length = 1, max_length = 256)]
    user_id: String,
    #[schema(value_type = Cents)]
    amount_cents: i64,
    #[schema(value_type = Currency)]
    currency: String,
}

impl FromBody for DepositQuestion {
    fn from_body(body: &[u8], gw: &Gateway, _: &Ctx<'_>) -> ApiResult<Self> {
        let mut f = Fields::from_body(body, gw.rules.as_ref())?;
        let user_id = f.text("user_id");
        let amount_cents = f.cents("amount_cents");
        let currency = f.currency("currency");
        f.finish()?;
        Ok(DepositQuestion { user_id, amount_cents, currency })
    }
}

/// Why a deposit is refused.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
enum DepositRefusal {
    ExceedsLimit,
    AccountUnderReview,
    SelfExcluded,
    /// customer due diligence is due: the player verifies their identity first
    VerificationRequired,
}

/// The pre-deposit gate's answer. When `allowed` is false, `user_message`
/// is for the player and `reason` says why; a breach names the limit.
#[derive(Serialize, ToSchema, Default)]
#[schema(as = DepositCheck)]
pub(crate) struct DepositAnswer {
    allowed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(required = false)]
    amount_cents: Option<i64>,
    /// with `allowed`: what the tightest limit leaves after this deposit (`null` with no limit)
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<i64>, required = false)]
    would_remain_cents: Option<Option<i64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Vec<LimitType>, required = false)]
    active_limits: Option<Vec<&'static str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(required = false)]
    reason: Option<DepositRefusal>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = LimitType, required = false)]
    breached_limit_type: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(required = false)]
    limit_amount_cents: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(required = false)]
    already_spent_cents: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(required = false)]
    max_allowed_now_cents: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Timestamp, required = false)]
    next_reset_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(required = false)]
    user_message: Option<String>,
}

impl DepositAnswer {
    fn refused(reason: DepositRefusal, user_message: String) -> Self {
        DepositAnswer { allowed: false, reason: Some(reason), user_message: Some(user_message), ..DepositAnswer::default() }
    }
}

/// The body of `POST /v1/limits/commit`.
#[derive(ToSchema)]
pub(crate) struct DepositMade {
    #[schema(min_length = 1, max_length = 256)]
    transaction_id: String,
    #[schema(min_length = 1, max_length = 256)]
    user_id: String,
    #[schema(value_type = Cents)]
    amount_cents: i64,
    #[schema(value_type = Currency)]
    currency: String,
}

impl FromBody for DepositMade {
    fn from_body(body: &[u8], gw: &Gateway, _: &Ctx<'_>) -> ApiResult<Self> {
        let mut f = Fields::from_body(body, gw.rules.as_ref())?;
        let transaction_id = f.text("transaction_id");
        let user_id = f.text("user_id");
        let amount_cents = f.cents("amount_cents");
        let currency = f.currency("currency");
        f.finish()?;
        Ok(DepositMade { transaction_id, user_id, amount_cents, currency })
    }
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
enum DepositStatus {
    Committed,
}

/// A recorded deposit; stored and answered again on a repeat.
#[derive(Serialize, ToSchema)]
#[schema(as = DepositCommitted)]
pub(crate) struct Committed<'a> {
    transaction_id: &'a str,
    user_id: &'a str,
    amount_cents: i64,
    #[schema(value_type = Currency)]
    currency: &'a str,
    #[schema(inline)]
    status: DepositStatus,
    #[schema(value_type = Timestamp)]
    committed_at: String,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
enum CancelledStatus {
    Cancelled,
}

#[derive(Serialize, ToSchema)]
#[schema(as = LimitCancelled)]
pub(crate) struct Cancelled {
    limit_id: String,
    user_id: String,
    #[schema(value_type = LimitType)]
    limit_type: String,
    #[schema(inline)]
    status: CancelledStatus,
    #[schema(value_type = Timestamp)]
    cancelled_at: String,
}

pub(crate) fn set_limit_doc() -> OperationDoc {
    OperationDoc::new("limits", "set a deposit limit")
        .describe("Decreases and first limits apply at once; increases after a cool-off.")
        .or_200("a repeat of a pending change: the original result")
        .errors(&[404, 409, 422])
}

pub(crate) fn list_limits_doc() -> OperationDoc {
    OperationDoc::new("limits", "a user's limits with spend and reset times")
        .describe("Each limit's spend is in its currency: deposits in another count at the environment's newest reference rates (`POST /v1/admin/aml/rates`) of the day; with no rate for a currency deposited, 422 `no_reference_rate`.")
        .errors(&[404, 422])
}

pub(crate) fn check_limits_doc() -> OperationDoc {
    OperationDoc::new("limits", "the pre-deposit gate")
        .describe("When `allowed` is false, show `user_message` verbatim and reject the deposit. Deposits made in another currency than a limit's count against it at the environment's newest reference rates (`POST /v1/admin/aml/rates`) of the day, never at par: with no rate for a currency deposited, 422 `no_reference_rate`. A check in another currency than a limit in force is 400 `currency_mismatch`.")
        .errors(&[404, 409, 422])
}

pub(crate) fn commit_deposit_doc() -> OperationDoc {
    OperationDoc::new("limits", "record a deposit that was made")
        .describe("Idempotent on (tenant, `transaction_id`) for as long as the service keeps transaction records (the AML record-keeping period, five years unless configured), long after the deposit stops counting in any window: a repeat answers 200 with the original result and counts nothing again; the same id with another user, amount or currency is 409 `transaction_conflict`. Refused as the check refuses: 422 `exceeds_limit` (deposits in other currencies counted at the reference rates), 422 `no_reference_rate`, 400 `currency_mismatch`.")
        .or_200("a repeat of the same transaction: the original result")
        .errors(&[404, 409, 422])
}

pub(crate) fn cancel_limit_doc() -> OperationDoc {
    OperationDoc::new("limits", "cancel a pending increase").errors(&[404, 409])
}

fn to_json<T: Serialize>(value: &T) -> ApiResult<Json> {
    serde_json::to_value(value).map_err(|e| ApiError::internal().with_detail(format!("a body did not serialise: {e}")))
}

/// The player's message for a notice, in the rules' words.
fn player_message(gw: &Gateway, notice: PlayerNotice) -> ApiResult<String> {
    Ok(gw.rules.player_message(&notice)?)
}

/// The message for a breach.
fn breach_message(gw: &Gateway, breach: &DepositBreach, amount: i64, currency: &str) -> ApiResult<String> {
    let currency_exponent = crate::input::currency_exponent(currency).unwrap_or(rules_model::kyc::CENTS_EXPONENT);
    player_message(
        gw,
        PlayerNotice::DepositBreach(BreachNotice { breach: *breach, amount_cents: amount, currency: currency.to_string(), currency_exponent }),
    )
}

fn pick(rows: &[LimitRow], index: u32) -> ApiResult<&LimitRow> {
    rows.get(index as usize).ok_or_else(ApiError::internal)
}

/// The user's active and pending limit rows, oldest first; `currency` is the request's.
async fn limit_rows(gw: &Gateway, ctx: &Ctx<'_>, user_id: &str, currency: Option<&str>) -> ApiResult<Vec<LimitRow>> {
    let rows = gw.store.query_many(vec![store::read_limit_rows(&ctx.caller.tenant_id, user_id)]).await?;
    store::limit_rows_from(rows.first().map(Vec::as_slice).unwrap_or_default(), currency)
}

/// Deposits recent enough to count in any window.
async fn recent_deposits(gw: &Gateway, ctx: &Ctx<'_>, user_id: &str) -> ApiResult<Deposits> {
    store::deposits_since(gw.store.as_ref(), &ctx.caller.tenant_id, user_id, deposits_since(gw, ctx)).await
}

fn deposits_since(gw: &Gateway, ctx: &Ctx<'_>) -> i64 {
    ctx.now.saturating_sub(gw.rules.horizons().longest_deposit_window_seconds)
}

/// One read per window of what the store sums of its deposits, in
/// `LimitWindow::ALL` order: the whole hours inside the window from
/// `deposit_hours`, and the deposits of the hour it starts in one by one,
/// so that a check reads a bounded number of rows whatever the history.
/// The read of the windows' totals, each window from its own start.
fn window_totals_read(gw: &Gateway, ctx: &Ctx<'_>, user_id: &str) -> Read {
    let h = gw.rules.horizons();
    let length = |w: LimitWindow| match w {
        LimitWindow::Daily => h.daily_window_seconds,
        LimitWindow::Weekly => h.weekly_window_seconds,
        LimitWindow::Monthly => h.monthly_window_seconds,
    };
    let start = |w| ctx.now.saturating_sub(length(w));
    store::read_window_totals(&ctx.caller.tenant_id, user_id, [start(LimitWindow::Daily), start(LimitWindow::Weekly), start(LimitWindow::Monthly)])
}

async fn window_totals(gw: &Gateway, ctx: &Ctx<'_>, user_id: &str) -> ApiResult<Vec<WindowTotal>> {
    let read = window_totals_read(gw, ctx, user_id);
    store::window_totals_from(&gw.store.query(read.sql, read.params).await?)
}

/// The currency pairs a decision about these limits and totals converts:
/// from each currency deposited in a window into each limit's.
fn rate_pairs(limits: &[StoredLimit], totals: &[WindowTotal]) -> Vec<(String, String)> {
    let mut pairs: Vec<(String, String)> = Vec::new();
    for t in totals.iter().filter(|t| !t.currency.is_empty()) {
        for l in limits.iter().filter(|l| !l.currency.is_empty() && l.currency != t.currency) {
            let pair = (t.currency.clone(), l.currency.clone());
            if !pairs.contains(&pair) {
                pairs.push(pair);
            }
        }
    }
    pairs
}

/// The reference rates (AML's: `crate::rates`) of each pair of
/// [`rate_pairs`], of the day of `now` or the latest day before it, from
/// the environment's newest version: one read, none when every deposit is
/// in its limit's currency. A pair with no rate is left out, and the rules
/// refuse the decision that needs it ([`no_rate`]).
async fn reference_rates(gw: &Gateway, ctx: &Ctx<'_>, limits: &[StoredLimit], totals: &[WindowTotal]) -> ApiResult<Vec<AmlRate>> {
    let pairs = rate_pairs(limits, totals);
    if pairs.is_empty() {
        return Ok(Vec::new());
    }
    let day = crate::rates::day_of(ctx.now);
    let reads = pairs.iter().map(|(from, into)| crate::rates::store::read_rate(ctx.caller.environment, from, into, &day)).collect();
    let results = gw.store.query_many(reads).await?;
    let mut rates = Vec::with_capacity(pairs.len());
    for ((from, into), rows) in pairs.iter().zip(&results) {
        rates.extend(crate::rates::store::rate_from(rows)?.and_then(|r| crate::rates::rate_fact(r, from, into)));
    }
    Ok(rates)
}

/// The rules' refusal for want of a rate, naming the pairs without one.
fn no_rate(error: ApiError, limits: &[StoredLimit], totals: &[WindowTotal], rates: &[AmlRate]) -> ApiError {
    if error.code != NO_REFERENCE_RATE {
        return error;
    }
    let missing: Vec<String> = rate_pairs(limits, totals)
        .into_iter()
        .filter(|(from, into)| !rates.iter().any(|r| &r.currency == from && &r.per_unit_of == into))
        .map(|(from, into)| format!("{from} into {into}"))
        .collect();
    ApiError {
        message: format!(
            "deposits in another currency count against this limit at the reference rates, and no reference rate converts {}; import the rates (POST /v1/admin/aml/rates)",
            missing.join(", ")
        ),
        ..error
    }
}

/// The code of a refusal for want of a reference rate (422).
pub(crate) const NO_REFERENCE_RATE: &str = "no_reference_rate";

/// Decides a deposit from the windows' totals; a breach, whose reset time
/// needs single deposits, is decided again with every deposit of the
/// longest window. Only the second decision is logged.
async fn decide_deposit_facts(gw: &Gateway, ctx: &Ctx<'_>, user_id: &str, facts: &mut DepositFacts) -> ApiResult<(DepositDecision, DecisionLog)> {
    let scope = Scope::of(ctx, user_id);
    facts.rates = reference_rates(gw, ctx, &facts.limits, &facts.totals).await?;
    let refused = |e: ApiError, f: &DepositFacts| no_rate(e, &f.limits, &f.totals, &f.rates);
    let (decision, log) = gw.decide_or_refuse(&scope, Operation::Deposit, &*facts, |r, f| r.decide_deposit(f)).map_err(|e| refused(e, facts))?;
    if !matches!(decision, DepositDecision::NeedsDeposits) {
        return Ok((decision, log));
    }
    // The first answer is a decision too: logged, then asked again with the deposits.
    gw.defer(log);
    facts.deposits = Some(recent_deposits(gw, ctx, user_id).await?);
    match gw.decide_or_refuse(&scope, Operation::Deposit, &*facts, |r, f| r.decide_deposit(f)).map_err(|e| refused(e, facts))? {
        (DepositDecision::NeedsDeposits, _) => Err(needs_deposits_twice()),
        decided => Ok(decided),
    }
}

pub(crate) async fn set_limit(gw: &Gateway, ctx: &Ctx<'_>, Body(request): Body<LimitRequest>) -> ApiResult<Created<LimitAnswer<'static>>> {
    let LimitRequest { user_id, limit_type: window, amount_cents: amount, currency, requested_at } = request;
    until_committed!({
        let user = gw.require_user(ctx, &user_id).await?;
        let rows = limit_rows(gw, ctx, &user_id, Some(&currency)).await?;
        let facts = LimitChangeFacts {
            now: ctx.now,
            requested_at,
            window,
            amount_cents: amount,
            limits: rows.iter().map(|r| r.facts.clone()).collect(),
            jurisdiction: ctx.caller.jurisdiction.clone(),
        };
        let (decision, log) = gw.decide_or_refuse(&Scope::of(ctx, &user_id), Operation::LimitChange, &facts, |r, f| r.decide_limit_change(f))?;
        let refuse = |error: ApiError| {
            let error = error_with_decision(error, &log);
            gw.defer(log.clone());
            Err(error)
        };
        let respond = |answer: Created<LimitAnswer<'static>>| {
            let answer = answer.decided(log.decision_id());
            gw.defer(log.clone());
            Ok(answer)
        };
        match decision {
            LimitChangeDecision::BelowMinimum(min) => {
                return refuse(ApiError::unprocessable("below_minimum", format!("a deposit limit must be at least {min} minor units"))).map(Some);
            }
            LimitChangeDecision::CurrencyMismatch => {
                let kept = rows.iter().find(|r| r.facts.window == window && r.currency != currency).map(|r| r.currency.clone());
                return refuse(ApiError::bad_request("currency_mismatch", format!("this limit is kept in {}", kept.unwrap_or_default()))).map(Some);
            }
            LimitChangeDecision::PendingChangeExists => {
                return refuse(ApiError::conflict(
                    "pending_change_exists",
                    "an increase of this limit is pending; cancel it first or wait until it is effective",
                ))
                .map(Some);
            }
            LimitChangeDecision::ReplayPending(i) => return respond(Created::stored_existing(stored_answer(&pick(&rows, i)?.response)?)).map(Some),
            LimitChangeDecision::Unchanged(i) => {
                let c = pick(&rows, i)?;
                let body = limit_response(
                    &c.limit_id,
                    &user_id,
                    window,
                    amount,
                    &currency,
                    Some(amount),
                    false,
                    0,
                    c.facts.effective_from,
                    LimitStatus::Active,
                )?;
                return respond(Created::stored_existing(body)).map(Some);
            }
            LimitChangeDecision::Apply(change) => {
                let mut statements = vec![log.statement()];
                let body = limit_change_statements(gw, ctx, &user, &rows, window, amount, &currency, &change, &mut statements)?;
                if gw.commit(statements).await?.done() {
                    return Ok(Some(Created::stored(body).decided(log.decision_id())));
                }
            }
        }
        Ok(None)
    })
}

/// The statements of an applied change: a claim on the user, the
/// cancellation of a pending increase it replaces, the new row and its event.
#[allow(clippy::too_many_arguments)]
fn limit_change_statements(
    gw: &Gateway,
    ctx: &Ctx<'_>,
    user: &User,
    rows: &[LimitRow],
    window: LimitWindow,
    amount: i64,
    currency: &str,
    change: &LimitChange,
    statements: &mut Vec<Stmt>,
) -> ApiResult<Json> {
    let limit_id = gw.new_id("lim");
    let current = change.current.map(|i| pick(rows, i)).transpose()?;
    let body = limit_response(
        &limit_id,
        &user.external_user_id,
        window,
        amount,
        currency,
        current.map(|c| c.facts.amount_cents),
        change.is_increase,
        change.cooloff_seconds,
        change.effective_from,
        change.status,
    )?;
    let tenant = ctx.caller.tenant_id.as_str();
    statements.push(gw.claim_user(ctx, user));
    if let Some(p) = change.cancel_pending.map(|i| pick(rows, i)).transpose()? {
        statements.push(store::cancel_pending(&p.limit_id, ctx.now));
        let cancelled = LimitCancelledData {
            limit_id: p.limit_id.clone(),
            user_id: user.external_user_id.clone(),
            limit_type: window.as_str().to_string(),
            amount_cents: p.facts.amount_cents,
            currency: p.currency.clone(),
        };
        statements.push(gw.event(ctx.caller.environment, Some(tenant), EventKind::LimitCancelled, ctx.now, &cancelled));
    }
    statements.push(store::insert_limit(store::NewLimit {
        limit_id: &limit_id,
        tenant_id: tenant,
        user_id: &user.external_user_id,
        window,
        amount_cents: amount,
        currency,
        status: change.status,
        effective_from: change.effective_from,
        user_version: user.version + 1,
        response: body.to_string(),
        now: ctx.now,
    }));
    if let Some(event) = change.event {
        statements.push(gw.event(
            ctx.caller.environment,
            Some(tenant),
            event,
            ctx.now,
            &LimitChangedData {
                limit_id: limit_id.clone(),
                user_id: user.external_user_id.clone(),
                limit_type: window.as_str().to_string(),
                amount_cents: amount,
                currency: currency.to_string(),
                previous_limit_cents: current.map(|c| c.facts.amount_cents),
                effective_from: time::format(change.effective_from),
            },
        ));
    }
    Ok(body)
}

pub(crate) async fn list_limits(gw: &Gateway, ctx: &Ctx<'_>, Params(UserQuery { user_id }): Params<UserQuery>) -> ApiResult<Answer<LimitList>> {
    let user_id = user_id.as_str();
    gw.require_user(ctx, user_id).await?;
    let rows = limit_rows(gw, ctx, user_id, None).await?;
    let limits: Vec<StoredLimit> = rows.iter().map(|r| r.facts.clone()).collect();
    let totals = window_totals(gw, ctx, user_id).await?;
    let rates = reference_rates(gw, ctx, &limits, &totals).await?;
    let facts = LimitsFacts { now: ctx.now, limits, totals, deposits: None, rates };
    let (views, log) = gw
        .decide_or_refuse(&Scope::of(ctx, user_id), Operation::Limits, &facts, |r, f| r.describe_limits(f))
        .map_err(|e| no_rate(e, &facts.limits, &facts.totals, &facts.rates))?;
    let mut items = Vec::new();
    for view in &views {
        let limit = pick(&rows, view.in_force)?;
        let pending = view.pending.map(|i| pick(&rows, i)).transpose()?.map(|p| PendingChange {
            limit_id: p.limit_id.clone(),
            amount_cents: p.facts.amount_cents,
            effective_from: time::format(p.facts.effective_from),
            status: LimitStatus::Pending.as_str(),
        });
        items.push(LimitView {
            limit_id: limit.limit_id.clone(),
            limit_type: view.window.as_str(),
            amount_cents: limit.facts.amount_cents,
            currency: limit.currency.clone(),
            status: LimitStatus::Active.as_str(),
            effective_from: time::format(limit.facts.effective_from),
            spent_cents: view.spent_cents,
            remaining_cents: view.remaining_cents,
            next_reset_at: view.next_reset_at.map(time::format),
            pending_change: pending,
        });
    }
    let answer = Answer::new(&LimitList { user_id: user_id.to_string(), limits: items })?.decided(log.decision_id());
    gw.defer(log);
    Ok(answer)
}

/// The rows of the deposit gate's reads, and of the reads a route adds to
/// the same round trip (`extra`, in the order asked).
struct FactRows {
    user: Vec<Row>,
    exclusions: Vec<Row>,
    limits: Vec<Row>,
    totals: Vec<WindowTotal>,
    registers: Vec<Row>,
    extra: Vec<Vec<Row>>,
}

impl FactRows {
    fn extra(&self, i: usize) -> &[Row] {
        self.extra.get(i).map(Vec::as_slice).unwrap_or_default()
    }
}

/// Everything that stands between a player and a deposit: the user (a
/// sanctions hold), an active self-exclusion matching the player by id,
/// e-mail or phone anywhere in the environment, a national register that
/// found the player excluded at its latest check, the limits in force and
/// the windows' totals, with `extra` reads of the route, all in one round
/// trip to the primary (so a new exclusion or limit is seen at once). The
/// user's row is read first: a write after it changes its version, so a
/// claim of that version keeps every later read of the batch current.
async fn read_deposit_facts(gw: &Gateway, ctx: &Ctx<'_>, user_id: &str, extra: Vec<Read>) -> ApiResult<FactRows> {
    let (tenant, user) = (ctx.caller.tenant_id.as_str(), user_id);
    let mut reads = vec![
        users::read(tenant, user),
        exclusions::read_player_exclusions(tenant, user, ctx.caller.environment),
        store::read_limit_rows(tenant, user),
    ];
    reads.push(window_totals_read(gw, ctx, user));
    reads.push(crate::registers::store::read_excluding_registers(tenant, user));
    let gate = reads.len();
    let extras = extra.len();
    reads.extend(extra);
    let mut results = gw.store.query_many(reads).await?;
    if results.len() != gate + extras {
        return Err(ApiError::internal());
    }
    let extra = results.split_off(gate);
    let [user, exclusions, limits, totals, registers] = <[Vec<Row>; 5]>::try_from(results).map_err(|_| ApiError::internal())?;
    let totals = store::window_totals_from(&totals)?;
    Ok(FactRows { user, exclusions, limits, totals, registers, extra })
}

impl FactRows {
    /// 404 `user_not_found` for a user the tenant does not have, or one an
    /// erasure restricted: asked before any replay, so a repeated request
    /// never hands back what was answered about a player now hidden.
    fn require_user(&self) -> ApiResult<()> {
        if self.user.is_empty() {
            return Err(ApiError::user_not_found());
        }
        Ok(())
    }
}

/// The user and the rules' facts of a deposit, from the gate's rows.
fn deposit_facts(ctx: &Ctx<'_>, rows: FactRows, amount: i64, currency: &str) -> ApiResult<(User, DepositFacts)> {
    let user = rows.user.first().map(users::from_row).transpose()?.ok_or_else(ApiError::user_not_found)?;
    let facts = DepositFacts {
        now: ctx.now,
        sanctions: user.sanctions_status,
        exclusions: exclusions::player_terms(&rows.exclusions)?,
        limits: store::limit_rows_from(&rows.limits, Some(currency))?.into_iter().map(|r| r.facts).collect(),
        totals: rows.totals,
        deposits: None,
        amount_cents: amount,
        verified: user.verified_tier,
        aml: user.aml,
        jurisdiction: ctx.caller.jurisdiction.clone(),
        rates: Vec::new(),
        registers: crate::registers::store::excluding_registers_from(&rows.registers)?,
    };
    Ok((user, facts))
}

fn breach_event(gw: &Gateway, ctx: &Ctx<'_>, user_id: &str, amount: i64, currency: &str, b: &DepositBreach) -> Stmt {
    gw.event(
        ctx.caller.environment,
        Some(&ctx.caller.tenant_id),
        EventKind::LimitBreachAttempt,
        ctx.now,
        &LimitBreachData {
            user_id: user_id.to_string(),
            limit_type: b.window.as_str().to_string(),
            amount_cents: amount,
            currency: currency.to_string(),
            limit_amount_cents: b.limit_cents,
            already_spent_cents: b.already_spent_cents,
        },
    )
}

pub(crate) async fn check_limits(gw: &Gateway, ctx: &Ctx<'_>, Body(question): Body<DepositQuestion>) -> ApiResult<Answer<DepositAnswer>> {
    let DepositQuestion { user_id, amount_cents: amount, currency } = question;
    // A read-only answer reserves no Idempotency-Key: the key is read with
    // the facts, and kept only in the batch of a breach, which commits.
    let key = ctx.idempotency.as_ref();
    until_committed!({
        let rows = read_deposit_facts(gw, ctx, &user_id, key.map(Deferred::read).into_iter().collect()).await?;
        rows.require_user()?;
        if let Some(replay) = key.map(|k| k.answer(rows.extra(0))).transpose()?.flatten() {
            return Ok(Some(Answer::kept(replay)));
        }
        let (_, mut facts) = deposit_facts(ctx, rows, amount, &currency)?;
        let (decision, log) = decide_deposit_facts(gw, ctx, &user_id, &mut facts).await?;
        let body = match decision {
            DepositDecision::Allowed(a) => DepositAnswer {
                allowed: true,
                amount_cents: Some(amount),
                would_remain_cents: Some(a.would_remain_cents),
                active_limits: Some(a.active.windows().map(LimitWindow::as_str).collect()),
                ..DepositAnswer::default()
            },
            DepositDecision::Held => DepositAnswer::refused(DepositRefusal::AccountUnderReview, player_message(gw, PlayerNotice::DepositHeld)?),
            DepositDecision::Excluded => DepositAnswer::refused(DepositRefusal::SelfExcluded, player_message(gw, PlayerNotice::DepositExcluded)?),
            DepositDecision::VerificationRequired(_) => {
                DepositAnswer::refused(DepositRefusal::VerificationRequired, player_message(gw, PlayerNotice::DepositVerificationRequired)?)
            }
            DepositDecision::CurrencyMismatch(window) => {
                let error = currency_mismatch(&facts, window);
                let error = error_with_decision(error, &log);
                gw.defer(log);
                return Err(error);
            }
            DepositDecision::Breach(b) => {
                let answer = Answer::new(&breach_body(&b, breach_message(gw, &b, amount, &currency)?))?.decided(log.decision_id());
                let mut statements = vec![log.statement(), breach_event(gw, ctx, &user_id, amount, &currency, &b)];
                statements.extend(key.map(|k| k.keep(answer.reply())));
                // Lost only to the same key kept since it was read: read again, answer from it
                return Ok(gw.commit(statements).await?.then_some(answer));
            }
            DepositDecision::NeedsDeposits => return Err(needs_deposits_twice()),
        };
        let answer = Answer::new(&body)?.decided(log.decision_id());
        gw.defer(log);
        Ok(Some(answer))
    })
}

/// Records a deposit, atomically against the limits: the write commits
/// only if nothing else was written for the user since the facts were read.
/// Every read goes in one round trip (the transaction's natural key, the
/// facts, the hour's sum) and the write in one batch: two in all.
pub(crate) async fn commit_deposit(gw: &Gateway, ctx: &Ctx<'_>, Body(made): Body<DepositMade>) -> ApiResult<Created<Committed<'static>>> {
    let DepositMade { transaction_id, user_id, amount_cents: amount, currency } = made;
    let tenant = ctx.caller.tenant_id.as_str();
    until_committed!({
        let extra = vec![store::read_deposit(tenant, &transaction_id), store::read_hour_sum(tenant, &user_id, &currency, ctx.now)];
        let rows = read_deposit_facts(gw, ctx, &user_id, extra).await?;
        rows.require_user()?;
        // A repeat answers as the first commit did, however long ago: the
        // natural key outlives the deposit (pruned once no window reads it).
        if let Some(before) = store::deposit_from(rows.extra(0))? {
            if before.user_id == user_id && before.amount_cents == amount && before.currency == currency {
                return Ok(Some(Created::stored_existing(committed_answer(&transaction_id, &user_id, amount, &currency, before.committed_at)?)));
            }
            return Err(ApiError::conflict("transaction_conflict", "this transaction_id was already committed with different details"));
        }
        let hour_sum = store::hour_sum_from(rows.extra(1))?;
        let (user, mut facts) = deposit_facts(ctx, rows, amount, &currency)?;
        let (decision, log) = decide_deposit_facts(gw, ctx, &user_id, &mut facts).await?;
        let refusal = match decision {
            DepositDecision::Allowed(_) => None,
            DepositDecision::Held => Some(ApiError::unprocessable("account_under_review", player_message(gw, PlayerNotice::DepositHeld)?)),
            DepositDecision::Excluded => Some(ApiError::unprocessable("self_excluded", player_message(gw, PlayerNotice::DepositExcluded)?)),
            DepositDecision::VerificationRequired(_) => {
                Some(ApiError::unprocessable("verification_required", player_message(gw, PlayerNotice::DepositVerificationRequired)?))
            }
            DepositDecision::CurrencyMismatch(w) => Some(currency_mismatch(&facts, w)),
            DepositDecision::Breach(b) => {
                if !gw.commit(vec![log.statement(), breach_event(gw, ctx, &user_id, amount, &currency, &b)]).await?.done() {
                    return Ok(None);
                }
                return Err(error_with_decision(ApiError::unprocessable("exceeds_limit", breach_message(gw, &b, amount, &currency)?), &log));
            }
            DepositDecision::NeedsDeposits => return Err(needs_deposits_twice()),
        };
        if let Some(error) = refusal {
            let error = error_with_decision(error, &log);
            gw.defer(log);
            return Err(error);
        }
        // Stored sums stay within what every store keeps exactly; the
        // user's claim below keeps this read (after the user's, in the same
        // round trip) current until the commit.
        if hour_sum.checked_add(amount).is_none_or(|sum| sum > MAX_STORED_INTEGER) {
            let error = error_with_decision(rules_model::RuleError::AmountTooLarge.into(), &log);
            gw.defer(log);
            return Err(error);
        }
        let response = committed_answer(&transaction_id, &user_id, amount, &currency, ctx.now)?;
        let statements = vec![
            log.statement(),
            gw.claim_user(ctx, &user),
            store::record_transaction(tenant, &transaction_id, &user_id, amount, &currency, ctx.now),
            store::insert_deposit(tenant, &transaction_id, &user_id, amount, &currency, ctx.now, response.to_string()),
            store::add_to_hour(tenant, &user_id, amount, &currency, ctx.now),
        ];
        if gw.commit(statements).await?.done() {
            return Ok(Some(Created::stored(response).decided(log.decision_id())));
        }
        Ok(None)
    })
}

/// The answer to a committed deposit, the first time and on every repeat.
fn committed_answer(transaction_id: &str, user_id: &str, amount: i64, currency: &str, committed_at: i64) -> ApiResult<Json> {
    to_json(&Committed {
        transaction_id,
        user_id,
        amount_cents: amount,
        currency,
        status: DepositStatus::Committed,
        committed_at: time::format(committed_at),
    })
}

pub(crate) async fn cancel_limit(gw: &Gateway, ctx: &Ctx<'_>, Path(limit_id): Path) -> ApiResult<Answer<Cancelled>> {
    let limit_id = limit_id.as_str();
    // A lost race (the limit or its user written since they were read) is decided again.
    until_committed!({
        let row = store::limit(gw.store.as_ref(), &ctx.caller.tenant_id, limit_id)
            .await?
            .ok_or_else(|| ApiError::not_found("limit_not_found", "no such limit for this tenant"))?;
        let (user_id, limit_type, amount, currency) = (row.user_id.clone(), row.limit_type.clone(), row.amount_cents, row.currency.clone());
        let user = gw.require_user(ctx, &user_id).await?;
        let limit = StoredLimit {
            window: LimitWindow::parse(&limit_type).ok_or_else(ApiError::internal)?,
            amount_cents: amount,
            same_currency: true,
            status: row.status,
            effective_from: row.effective_from,
            currency: row.currency.clone(),
        };
        let facts = LimitCancelFacts { now: ctx.now, limit };
        let (decision, log) = gw.decide(&Scope::of(ctx, &user_id), Operation::LimitCancel, &facts, |r, f| r.decide_limit_cancel(f))?;
        let reply = |cancelled_at: i64| -> ApiResult<Answer<Cancelled>> {
            let body = Cancelled {
                limit_id: limit_id.to_string(),
                user_id: user_id.clone(),
                limit_type: limit_type.clone(),
                status: CancelledStatus::Cancelled,
                cancelled_at: time::format(cancelled_at),
            };
            Ok(Answer::new(&body)?.decided(log.decision_id()))
        };
        match decision {
            LimitCancelDecision::AlreadyCancelled => {
                let at = row.cancelled_at.unwrap_or(ctx.now);
                gw.defer(log.clone());
                reply(at).map(Some)
            }
            LimitCancelDecision::NotPending => {
                let error =
                    error_with_decision(ApiError::conflict("not_pending", "only a pending increase can be cancelled; lower the limit instead"), &log);
                gw.defer(log);
                Err(error)
            }
            LimitCancelDecision::Cancel => {
                let statements = vec![
                    log.statement(),
                    gw.claim_user(ctx, &user),
                    store::cancel_pending(limit_id, ctx.now),
                    gw.event(
                        ctx.caller.environment,
                        Some(&ctx.caller.tenant_id),
                        EventKind::LimitCancelled,
                        ctx.now,
                        &LimitCancelledData {
                            limit_id: limit_id.to_string(),
                            user_id: user_id.to_string(),
                            limit_type: limit_type.to_string(),
                            amount_cents: amount,
                            currency: currency.to_string(),
                        },
                    ),
                ];
                if gw.commit(statements).await?.done() {
                    return reply(ctx.now).map(Some);
                }
                Ok(None)
            }
        }
    })
}

/// A deposit in another currency than a limit in force: the limit's currency named.
fn currency_mismatch(facts: &DepositFacts, window: LimitWindow) -> ApiError {
    let kept =
        facts.limits.iter().rev().find(|l| l.window == window && !l.same_currency && l.effective_from <= facts.now).map(|l| l.currency.as_str());
    ApiError::bad_request("currency_mismatch", format!("the {} limit is kept in {}", window.as_str(), kept.unwrap_or("another currency")))
}

fn needs_deposits_twice() -> ApiError {
    ApiError::internal().with_detail("the rules asked again for the deposits they were given".to_string())
}

#[allow(clippy::too_many_arguments)]
fn limit_response(
    limit_id: &str,
    user_id: &str,
    window: LimitWindow,
    amount: i64,
    currency: &str,
    current: Option<i64>,
    is_increase: bool,
    cooloff_seconds: i64,
    effective_from: i64,
    status: LimitStatus,
) -> ApiResult<Json> {
    to_json(&LimitAnswer {
        limit_id,
        user_id,
        limit_type: window.as_str(),
        amount_cents: amount,
        currency,
        current_limit_cents: current,
        is_increase,
        cooloff_seconds,
        effective_from: time::format(effective_from),
        status: status.as_str(),
    })
}

fn breach_body(b: &DepositBreach, user_message: String) -> DepositAnswer {
    DepositAnswer {
        allowed: false,
        reason: Some(DepositRefusal::ExceedsLimit),
        breached_limit_type: Some(b.window.as_str()),
        limit_amount_cents: Some(b.limit_cents),
        already_spent_cents: Some(b.already_spent_cents),
        max_allowed_now_cents: Some(b.max_allowed_now_cents),
        next_reset_at: Some(time::format(b.next_reset_at)),
        user_message: Some(user_message),
        ..DepositAnswer::default()
    }
}

/// A pending limit that may go live, for the scheduled work.
pub(crate) struct DueLimitWork {
    pub limit_id: String,
    pub tenant_id: String,
    pub user_id: String,
    pub user_version: i64,
    pub environment: Environment,
    /// the `limit.activated` event's data
    pub data: LimitActivatedData,
    pub effective_from: i64,
}

/// Pending limits due on their tenant's clock, with the facts the rules decide their activation from.
pub(crate) async fn due_work(gw: &Gateway, now: i64) -> ApiResult<Vec<(DueLimitWork, DueLimit)>> {
    let due = store::due_pending(gw.store.as_ref(), now, gw.config.work.scheduled_batch).await?;
    Ok(due
        .into_iter()
        .map(|l| {
            let facts = DueLimit { now: now.saturating_add(l.clock_offset_seconds), status: l.status, effective_from: l.effective_from };
            let data = LimitActivatedData {
                limit_id: l.limit_id.clone(),
                user_id: l.user_id.clone(),
                limit_type: l.limit_type.to_string(),
                amount_cents: l.amount_cents,
                currency: l.currency.clone(),
                effective_from: time::format(l.effective_from),
            };
            let work = DueLimitWork {
                limit_id: l.limit_id,
                tenant_id: l.tenant_id,
                user_id: l.user_id,
                user_version: l.user_version,
                environment: l.environment,
                data,
                effective_from: l.effective_from,
            };
            (work, facts)
        })
        .collect())
}
