//! The AML area: transaction events reported by operators, each decided at
//! once by the rules (`decide-aml`) over the user's buckets, in the batch
//! that stores the event and adds it to the buckets. A decision at `review`
//! or above opens an alert, grouped into the user's one open AML case; the
//! user's standing (a withdrawal hold, a lock until due diligence) is kept on
//! the user, where the withdrawal decision reads it. Handlers are free
//! functions; the area's SQL is in [`store`].

pub mod backtest;
pub mod gaming_day;
pub mod store;

use rules_model::{AmlDecision, AmlEvent, AmlEventType, AmlFacts, AmlOutcome, EventKind, Operation, PaymentMethod, Typology};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value as Json};
use sha2::{Digest, Sha256};
use utoipa::{IntoParams, ToSchema};

use crate::api::{stored_answer, stored_json};
use crate::decisions::Scope;
use crate::error::{ApiError, ApiResult};
use crate::input::{Body, FromBody, Params, Path};
use crate::input::{Cursor, Fields, Instant};
use crate::openapi::answer::{self, Answer};
use crate::openapi::shared::{Cents, Currency, Timestamp};
use crate::openapi::OperationDoc;
use crate::ports::{Read, Row, MAX_STORED_INTEGER};
use crate::webhooks::events::AmlAlertData;
use crate::{time, users, Ctx, Gateway};

use store::{BucketDelta, Span};

/// How many events the admin list shows.
const LIST_LENGTH: i64 = 500;
/// A page of alerts or cases.
const PAGE: i64 = 100;
/// How long before an event its gaming day can have begun: a gaming day is
/// at most 25 hours long (a clock change), and one hour is spare.
const GAMING_DAY_REACH_HOURS: i64 = 26;

/// The body of `POST /v1/aml/event`; stored as the event, with `occurred_at` normalised.
#[derive(Serialize, ToSchema)]
struct Report {
    #[schema(min_length = 1, max_length = 256)]
    transaction_id: String,
    #[schema(min_length = 1, max_length = 256)]
    user_id: String,
    #[schema(value_type = AmlEventTypeName)]
    event_type: String,
    /// required except for `instrument_added`
    #[schema(value_type = Option<Cents>)]
    #[serde(skip_serializing_if = "Option::is_none")]
    amount_cents: Option<i64>,
    /// required except for `instrument_added`
    #[schema(value_type = Option<Currency>)]
    #[serde(skip_serializing_if = "Option::is_none")]
    currency: Option<String>,
    #[schema(value_type = Option<Timestamp>)]
    occurred_at: Option<String>,
    #[schema(value_type = Option<PaymentMethodName>)]
    #[serde(skip_serializing_if = "Option::is_none")]
    payment_method: Option<String>,
    /// an opaque identifier of the payment instrument (a card fingerprint, a wallet id); stored only as its SHA-256
    #[schema(min_length = 1, max_length = 256)]
    #[serde(skip_serializing_if = "Option::is_none")]
    instrument_id: Option<String>,
    /// the receiving user of a `p2p_transfer`, required for one
    #[schema(min_length = 1, max_length = 256)]
    #[serde(skip_serializing_if = "Option::is_none")]
    counterparty_user_id: Option<String>,
}

crate::openapi::shared::shared_schema!(
    /// What an operator reports.
    AmlEventTypeName => crate::openapi::shared::from_json(json!({ "type": "string", "enum": rules_model::AmlEventType::ALL.iter().map(|t| t.as_str()).collect::<Vec<_>>() }))
);
crate::openapi::shared::shared_schema!(
    /// How money moved.
    PaymentMethodName => crate::openapi::shared::from_json(json!({ "type": "string", "enum": PaymentMethod::ALL.iter().map(|t| t.as_str()).collect::<Vec<_>>() }))
);

/// A report as parsed: the stored payload and the typed event.
pub(crate) struct Parsed {
    report: Report,
    event_type: AmlEventType,
    payment_method: PaymentMethod,
    occurred_at: Option<i64>,
}

/// A report's body is documented as [`Report`], the payload it stores.
impl utoipa::PartialSchema for Parsed {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        Report::schema()
    }
}

impl ToSchema for Parsed {
    fn name() -> std::borrow::Cow<'static, str> {
        Report::name()
    }
    fn schemas(schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::Schema>)>) {
        Report::schemas(schemas)
    }
}

impl FromBody for Parsed {
    fn from_body(body: &[u8], gw: &Gateway, _: &Ctx<'_>) -> ApiResult<Parsed> {
        Report::parse(body, gw.rules.as_ref())
    }
}

impl Report {
    /// Reads a report's body, as the route does and as a backtest reads a stored payload.
    fn parse(body: &[u8], rules: &dyn crate::ports::Rules) -> ApiResult<Parsed> {
        let mut f = Fields::from_body(body, rules)?;
        let transaction_id = f.text("transaction_id");
        let user_id = f.text("user_id");
        let event_name = f.code("event_type");
        let event_type = AmlEventType::parse(&event_name);
        if !event_name.is_empty() && event_type.is_none() {
            let names: Vec<&str> = AmlEventType::ALL.iter().map(|t| t.as_str()).collect();
            f.reject("invalid_field", format!("event_type must be one of {}", names.join(", ")));
        }
        let carries_money = event_type != Some(AmlEventType::InstrumentAdded);
        let (amount_cents, currency) = if carries_money || f.has("amount_cents") || f.has("currency") {
            (Some(f.cents("amount_cents")), Some(f.currency("currency")))
        } else {
            (None, None)
        };
        let occurred_at = f.opt_code("occurred_at");
        let method_name = f.opt_code("payment_method");
        let payment_method = method_name.as_deref().map(PaymentMethod::parse);
        if payment_method == Some(None) {
            let names: Vec<&str> = PaymentMethod::ALL.iter().map(|t| t.as_str()).collect();
            f.reject("invalid_field", format!("payment_method must be one of {}", names.join(", ")));
        }
        let instrument_id = f.opt_text("instrument_id");
        let counterparty_user_id = f.opt_text("counterparty_user_id");
        match (event_type, &counterparty_user_id) {
            (Some(AmlEventType::P2pTransfer), None) => f.reject("missing_fields", "a p2p_transfer names its counterparty_user_id"),
            (Some(AmlEventType::P2pTransfer), Some(c)) if *c == user_id => f.reject("invalid_field", "a transfer goes to another user"),
            (Some(t), Some(_)) if t != AmlEventType::P2pTransfer => f.reject("invalid_field", "only a p2p_transfer has a counterparty_user_id"),
            _ => {}
        }
        if event_type == Some(AmlEventType::InstrumentAdded) && instrument_id.is_none() {
            f.reject("missing_fields", "an instrument_added event names its instrument_id");
        }
        let occurred = occurred_at.as_deref().map(time::parse);
        if occurred == Some(None) {
            f.reject("invalid_field", "occurred_at must be an ISO 8601 timestamp");
        }
        f.finish()?;
        let event_type = event_type.ok_or_else(ApiError::internal)?;
        Ok(Parsed {
            report: Report {
                transaction_id,
                user_id,
                event_type: event_name,
                amount_cents,
                currency,
                occurred_at: occurred.flatten().map(time::format),
                payment_method: method_name,
                instrument_id,
                counterparty_user_id,
            },
            event_type,
            payment_method: payment_method.flatten().unwrap_or(PaymentMethod::Other),
            occurred_at: occurred.flatten(),
        })
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
pub(crate) struct Accepted<'a> {
    aml_event_id: &'a str,
    transaction_id: &'a str,
    status: ReportStatus,
    #[schema(value_type = Timestamp)]
    received_at: String,
    /// what the rules decided: `approve`, `review`, `hold_withdrawal` or `decline` (do not pay a withdrawal out)
    #[schema(value_type = AmlOutcomeName)]
    outcome: &'a str,
    /// the alert this event opened, if any
    #[serde(skip_serializing_if = "Option::is_none")]
    alert_id: Option<&'a str>,
}

crate::openapi::shared::shared_schema!(
    /// An AML decision's outcome.
    AmlOutcomeName => crate::openapi::shared::from_json(json!({ "type": "string", "enum": AmlOutcome::ALL.iter().map(|t| t.as_str()).collect::<Vec<_>>() }))
);

#[derive(Serialize, ToSchema)]
#[schema(as = AmlEvent)]
struct EventView {
    aml_event_id: String,
    tenant_id: String,
    /// the event as reported
    #[schema(value_type = Object)]
    event: Json,
    /// `decided`, or `alerted` when it opened an alert (`queued` for events stored before monitoring)
    review_status: String,
    #[schema(value_type = Option<AmlOutcomeName>)]
    outcome: Option<String>,
    decision_id: Option<String>,
    #[schema(value_type = Timestamp)]
    received_at: String,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct EventList {
    events: Vec<EventView>,
}

pub(crate) fn report_doc() -> OperationDoc {
    OperationDoc::new("aml", "report a transaction for AML monitoring")
        .describe(
            "Decided at once by the rules component (`decide-aml`) over the user's hourly and gaming-day buckets. The answer names the outcome \
             and any alert it opened; nothing of it is for the player.",
        )
        .answers("decided and stored")
        .or_200("a repeat of the same transaction: the original result")
        .errors(&[404, 409])
}

pub(crate) fn list_doc() -> OperationDoc {
    OperationDoc::new("admin", "AML events of the environment")
}

/// Cuts rows read one past [`PAGE`] to the page; the cursor of the next page when there is one.
fn cut_page<T>(rows: &mut Vec<T>, key: impl Fn(&T) -> (i64, String)) -> Option<String> {
    let page = usize::try_from(PAGE).unwrap_or(0);
    if rows.len() <= page {
        return None;
    }
    rows.truncate(page);
    rows.last().map(|r| crate::api::cursor::encode(&key(r)))
}

/// The instrument as stored: its SHA-256, never the operator's identifier.
fn instrument_key(tenant_id: &str, instrument_id: &str) -> String {
    hex::encode(Sha256::digest(format!("{tenant_id}\u{1f}{instrument_id}").as_bytes()))
}

/// What an event adds to its buckets.
fn delta(event_type: AmlEventType, amount: i64, near_threshold: bool) -> Option<BucketDelta> {
    let d = BucketDelta { near_threshold, ..BucketDelta::default() };
    Some(match event_type {
        AmlEventType::Deposit => BucketDelta { in_cents: amount, in_count: 1, ..d },
        AmlEventType::Withdrawal => BucketDelta { out_cents: amount, out_count: 1, ..d },
        AmlEventType::Wager => BucketDelta { wagered_cents: amount, ..d },
        AmlEventType::Win | AmlEventType::Bonus => BucketDelta { won_cents: amount, ..d },
        AmlEventType::P2pTransfer | AmlEventType::InstrumentAdded => return None,
    })
}

/// The reads of one evaluation, in one round trip.
struct Reads {
    user: Option<users::store::User>,
    gaming_day: gaming_day::GamingDay,
    day_buckets: Vec<rules_model::AmlBucket>,
    hours: Vec<rules_model::AmlHour>,
    instruments: Vec<rules_model::AmlInstrument>,
    deposit_classes: Vec<u32>,
    alerted: Vec<rules_model::AmlAlerted>,
    open_case: Option<store::OpenCase>,
    pair: Option<rules_model::AmlPair>,
    counterparty_exists: bool,
    /// the reference rate from the event's currency to the profile's, when asked for
    rate: Option<rules_model::AmlRate>,
    /// the same transaction, reported before
    reported: Option<store::Reported>,
    /// the rows of the request's `Idempotency-Key`, when it sent one
    key_rows: Vec<Row>,
}

/// The longest window any of the profile's rules reads.
fn longest_window(p: &rules_model::AmlParameters) -> i64 {
    [p.structuring_window_seconds, p.minimal_play_window_seconds, p.instruments_window_seconds, p.velocity_window_seconds]
        .into_iter()
        .max()
        .unwrap_or(0)
}

/// How far back an evaluation under the profile reads the user's AML state.
pub(crate) fn state_reach_seconds(p: &rules_model::AmlParameters) -> i64 {
    longest_window(p).max(GAMING_DAY_REACH_HOURS * 3_600)
}

pub(crate) fn aml_parameters(gw: &Gateway, jurisdiction: &str) -> ApiResult<rules_model::AmlParameters> {
    gw.rules.jurisdictions().into_iter().find(|p| p.name == jurisdiction).map(|p| p.aml).ok_or_else(ApiError::internal)
}

/// The user's state an evaluation reads, in one round trip: the buckets in
/// the profile's `currency` only, the hours of the longest window and, for
/// money in another currency (`foreign`), the reference rate of the event's day.
#[allow(clippy::too_many_arguments)]
/// What an event asks the store about.
struct Asked<'a> {
    transaction_id: &'a str,
    user: &'a str,
    counterparty: Option<&'a str>,
    at: i64,
    /// the event's currency when it is not the profile's
    foreign: Option<&'a str>,
    /// the request's `Idempotency-Key`, read with the facts ([`crate::idempotency::Deferred`])
    key: Option<&'a crate::idempotency::Deferred>,
}

/// An event's whole state in one read: whether its transaction was reported
/// before, and the facts its decision needs.
async fn read_state(
    gw: &Gateway,
    environment: crate::auth::Environment,
    tenant: &str,
    asked: Asked<'_>,
    params: &rules_model::AmlParameters,
) -> ApiResult<Reads> {
    let Asked { transaction_id, user, counterparty, at, foreign, key } = asked;
    let since = at.saturating_sub(longest_window(params));
    let currency = params.currency.as_str();
    let mut reads: Vec<Read> = vec![
        users::store::read(tenant, user),
        store::read_gaming_day(tenant),
        store::read_days(tenant, user, currency, at.saturating_sub(GAMING_DAY_REACH_HOURS * 3_600), at.saturating_add(1)),
        store::read_hours(tenant, user, currency, since.div_euclid(3_600) * 3_600),
        store::read_instruments(tenant, user, since),
        store::read_deposit_classes(tenant, user),
        store::read_alerted(tenant, user),
        store::read_open_case(tenant, user),
    ];
    if let Some(c) = counterparty {
        reads.push(store::read_pair(tenant, user, c));
        reads.push(users::store::read(tenant, c));
    }
    let rate_at = reads.len();
    if let Some(from) = foreign {
        reads.push(crate::rates::store::read_rate(environment, from, currency, &crate::rates::day_of(at)));
    }
    let reported_at = reads.len();
    reads.push(store::read_reported(tenant, transaction_id));
    let key_at = reads.len();
    reads.extend(key.map(crate::idempotency::Deferred::read));
    let results = gw.store.query_many(reads).await?;
    let rows = |i: usize| -> &[Row] { results.get(i).map(Vec::as_slice).unwrap_or_default() };
    let gaming_day = store::gaming_day_from(rows(1))?;
    Ok(Reads {
        user: rows(0).first().map(users::store::from_row).transpose()?,
        gaming_day,
        day_buckets: store::buckets_from(rows(2))?,
        hours: store::hours_from(rows(3))?,
        instruments: store::instruments_from(rows(4))?,
        deposit_classes: store::deposit_classes_from(rows(5))?,
        alerted: store::alerted_from(rows(6))?,
        open_case: store::open_case_from(rows(7))?,
        pair: counterparty.map(|c| store::pair_from(rows(8), user).map(|p| (p, c))).transpose()?.map(|(p, _)| p),
        counterparty_exists: counterparty.is_some() && !rows(9).is_empty(),
        rate: match foreign {
            Some(from) => crate::rates::store::rate_from(rows(rate_at))?.and_then(|r| crate::rates::rate_fact(r, from, currency)),
            None => None,
        },
        reported: store::reported_from(rows(reported_at))?,
        key_rows: rows(key_at).to_vec(),
    })
}

/// Joins names, keeping the first order and no repeats.
fn joined(before: &[String], added: impl Iterator<Item = String>) -> Vec<String> {
    let mut all = before.to_vec();
    for name in added {
        if !all.contains(&name) {
            all.push(name);
        }
    }
    all
}

/// `POST /v1/aml/event`: decides an event at once and stores it, once per transaction.
pub(crate) async fn report(gw: &Gateway, ctx: &Ctx<'_>, Body(parsed): Body<Parsed>) -> ApiResult<answer::Accepted<Accepted<'static>>> {
    let Parsed { mut report, event_type, payment_method, occurred_at } = parsed;
    let tenant = ctx.caller.tenant_id.as_str();
    report.instrument_id = report.instrument_id.map(|i| instrument_key(tenant, &i));
    // a JSON value writes its keys in one order, so the fingerprint is stable
    let payload = serde_json::to_value(&report).map_err(|e| ApiError::internal().with_detail(e.to_string()))?;
    let fingerprint = hex::encode(Sha256::digest(payload.to_string().as_bytes()));
    let user_id = report.user_id.as_str();
    let params = aml_parameters(gw, &ctx.caller.jurisdiction)?;
    // an event is placed when it happened, never later than it arrived
    let at = occurred_at.map_or(ctx.now, |t| t.min(ctx.now));
    let amount = report.amount_cents.unwrap_or(0);
    let currency = report.currency.clone().unwrap_or_default();
    let instrument = report.instrument_id.clone();
    // The Idempotency-Key is read with the facts and kept in the event's own
    // batch: a keyed event costs no write of its own for its key
    let key = ctx.idempotency.as_ref();
    until_committed!({
        // money in another currency than the profile's is converted at the reference rate of its day
        let foreign = (event_type != AmlEventType::InstrumentAdded && currency != params.currency).then_some(currency.as_str());
        let asked =
            Asked { transaction_id: &report.transaction_id, user: user_id, counterparty: report.counterparty_user_id.as_deref(), at, foreign, key };
        let mut state = read_state(gw, ctx.caller.environment, tenant, asked, &params).await?;
        // a player an erasure restricted is unknown before any replay: a repeat hands back nothing about them
        let user = state.user.take().ok_or_else(ApiError::user_not_found)?;
        if let Some(replay) = key.map(|k| k.answer(&state.key_rows)).transpose()?.flatten() {
            return Ok(Some(answer::Accepted::kept(replay)));
        }
        if let Some(before) = state.reported {
            if before.fingerprint == fingerprint {
                return Ok(Some(answer::Accepted::stored_existing(stored_answer(&before.response)?)));
            }
            return Err(ApiError::conflict("transaction_conflict", "this transaction_id was already reported with different details"));
        }
        if report.counterparty_user_id.is_some() && !state.counterparty_exists {
            return Err(ApiError::not_found("counterparty_not_found", "no such counterparty user for this tenant"));
        }
        let (day_start, day_end) = state.gaming_day.bounds(at).ok_or_else(ApiError::internal)?;
        let facts = AmlFacts {
            now: ctx.now,
            jurisdiction: ctx.caller.jurisdiction.clone(),
            event: AmlEvent { event_type, amount_cents: amount, currency: currency.clone(), payment_method, at, instrument: instrument.clone() },
            gaming_day_start: day_start,
            gaming_day_end: day_end,
            gaming_day: state.day_buckets.into_iter().filter(|b| b.start >= day_start && b.start < day_end).collect(),
            hours: state.hours,
            instruments: state.instruments,
            pair: state.pair,
            last_seen_at: user.aml_last_seen_at,
            deposit_classes: state.deposit_classes,
            verified: user.verified_tier,
            standing: user.aml,
            alerted: state.alerted,
            rate: state.rate,
        };
        let (decision, log) = gw.decide_or_refuse(&Scope::of(ctx, user_id), Operation::Aml, &facts, |r, f| r.decide_aml(f))?;
        let aml_event_id = gw.new_id("aml");
        let alert_id = (!decision.alert.is_empty()).then(|| gw.new_id("alert"));
        let accepted = Accepted {
            aml_event_id: &aml_event_id,
            transaction_id: &report.transaction_id,
            status: ReportStatus::Accepted,
            received_at: time::format(ctx.now),
            outcome: decision.outcome.as_str(),
            alert_id: alert_id.as_deref(),
        };
        let response = serde_json::to_value(&accepted).map_err(|e| ApiError::internal().with_detail(format!("a response did not serialise: {e}")))?;
        let reply = answer::Accepted::stored(response).decided(log.decision_id());
        let mut statements = vec![
            log.statement(),
            gw.claim_user(ctx, &user),
            store::set_standing(tenant, user_id, decision.standing, at),
            store::insert(store::NewEvent {
                tenant_id: tenant,
                transaction_id: &report.transaction_id,
                aml_event_id: &aml_event_id,
                user_id,
                fingerprint: &fingerprint,
                payload: payload.to_string(),
                response: reply.reply().body.get().to_string(),
                status: if alert_id.is_some() { store::ReviewStatus::Alerted } else { store::ReviewStatus::Decided },
                event_at: at,
                decision_id: log.decision_id(),
                outcome: decision.outcome.as_str(),
                verified_tier: user.verified_tier,
                received_at: ctx.now,
                rate: facts.rate.as_ref(),
            }),
        ];
        // summed in the profile's currency once converted; an unconvertible
        // amount is kept in its own currency, read by no threshold, and flagged
        let (bucket_amount, bucket_currency) = match decision.counters.amount_cents {
            Some(converted) => (converted, params.currency.as_str()),
            None => (amount, currency.as_str()),
        };
        if let Some(d) = delta(event_type, bucket_amount, decision.counters.near_threshold) {
            for (span, start) in [(Span::Hour, at.div_euclid(3_600) * 3_600), (Span::GamingDay, day_start)] {
                statements.push(store::add_to_bucket(tenant, user_id, span, start, bucket_currency, payment_method, d));
            }
        }
        if let Some(class) = decision.counters.deposit_class {
            statements.push(store::count_deposit_class(tenant, user_id, class));
        }
        if let Some(i) = &instrument {
            statements.push(store::see_instrument(tenant, user_id, i, at));
        }
        if let (AmlEventType::P2pTransfer, Some(to), Some(converted)) = (event_type, &report.counterparty_user_id, decision.counters.amount_cents) {
            statements.push(store::add_transfer(tenant, user_id, to, converted, at));
        }
        if let Some(shadow) = shadow_disagreement(gw, ctx, &facts, &decision, &aml_event_id, log.decision_id())? {
            statements.push(shadow);
        }
        if let Some(alert_id) = &alert_id {
            let alert = Alerting { user_id, alert_id, aml_event_id: &aml_event_id, decision_id: log.decision_id(), rate: facts.rate.as_ref() };
            statements.extend(alert_statements(gw, ctx, &alert, &decision, state.open_case.as_ref())?);
        }
        // a key kept or reserved since it was read makes the batch lose: read again, answer from it
        statements.extend(key.map(|k| k.keep(reply.reply())));
        if gw.commit(statements).await?.done() {
            return Ok(Some(reply));
        }
        Ok(None)
    })
}

/// What the shadow component, if any, decides differently on the same facts:
/// the outcome, or the typologies an alert would name. It changes nothing else.
fn shadow_disagreement(
    gw: &Gateway,
    ctx: &Ctx<'_>,
    facts: &AmlFacts,
    live: &AmlDecision,
    aml_event_id: &str,
    decision_id: &str,
) -> ApiResult<Option<crate::ports::Stmt>> {
    let Some(shadow_rules) = &gw.shadow_rules else { return Ok(None) };
    let alert_of = |d: &AmlDecision| if d.alert.is_empty() { Vec::new() } else { typologies(d) };
    let (shadow_outcome, shadow_alert) = match shadow_rules.decide_aml(facts)? {
        Ok(d) => (d.outcome.as_str().to_string(), alert_of(&d)),
        Err(e) => (format!("refused: {e:?}"), Vec::new()),
    };
    let live_alert = alert_of(live);
    let sorted = |mut v: Vec<String>| {
        v.sort_unstable();
        v
    };
    if shadow_outcome == live.outcome.as_str() && sorted(shadow_alert.clone()) == sorted(live_alert.clone()) {
        return Ok(None);
    }
    let id = gw.new_id("shd");
    Ok(Some(store::insert_disagreement(store::Disagreement {
        disagreement_id: &id,
        environment: ctx.caller.environment,
        tenant_id: &ctx.caller.tenant_id,
        aml_event_id,
        decision_id,
        shadow_rules_sha256: &shadow_rules.identity().component_sha256,
        live_outcome: live.outcome.as_str(),
        shadow_outcome: &shadow_outcome,
        live_alert: json!(live_alert).to_string(),
        shadow_alert: json!(shadow_alert).to_string(),
        at: ctx.now,
    })))
}

#[derive(Serialize, ToSchema)]
pub(crate) struct DisagreementView {
    disagreement_id: String,
    tenant_id: String,
    aml_event_id: String,
    /// the live decision, in the decision log
    decision_id: String,
    shadow_rules_sha256: String,
    live_outcome: String,
    shadow_outcome: String,
    /// the typologies the live alert named (empty: no alert)
    live_alert: Vec<String>,
    shadow_alert: Vec<String>,
    #[schema(value_type = Timestamp)]
    at: String,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct DisagreementPage {
    disagreements: Vec<DisagreementView>,
    next_cursor: Option<String>,
}

pub(crate) fn shadow_doc() -> OperationDoc {
    OperationDoc::new("admin", "where the shadow rules component decided an AML event differently from the live one, newest first")
}

/// The page of a newest-first listing: after the row of the sort key (`at`, id) the cursor names.
type PageCursor = Cursor<(i64, String)>;

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct CursorQuery {
    #[param(value_type = Option<String>)]
    cursor: Option<PageCursor>,
}

/// `GET /v1/admin/aml/shadow`.
pub(crate) async fn shadow(gw: &Gateway, ctx: &Ctx<'_>, Params(CursorQuery { cursor }): Params<CursorQuery>) -> ApiResult<Answer<DisagreementPage>> {
    let before = Cursor::after(cursor);
    let mut rows = store::disagreements(gw.store.as_ref(), ctx.caller.environment, before, PAGE + 1).await?;
    let next_cursor = cut_page(&mut rows, |r| (r.at, r.disagreement_id.clone()));
    let disagreements = rows
        .into_iter()
        .map(|r| DisagreementView {
            disagreement_id: r.disagreement_id,
            tenant_id: r.tenant_id,
            aml_event_id: r.aml_event_id,
            decision_id: r.decision_id,
            shadow_rules_sha256: r.shadow_rules_sha256,
            live_outcome: r.live_outcome,
            shadow_outcome: r.shadow_outcome,
            live_alert: r.live_alert,
            shadow_alert: r.shadow_alert,
            at: time::format(r.at),
        })
        .collect();
    Answer::new(&DisagreementPage { disagreements, next_cursor })
}

/// The reason codes of every rule that fired.
fn typologies(decision: &AmlDecision) -> Vec<String> {
    joined(&[], decision.fired.iter().map(|f| f.reason_code.as_str().to_string()))
}

fn action_names(decision: &AmlDecision) -> Vec<String> {
    decision.actions.iter().map(|a| a.as_str().to_string()).collect()
}

/// What an alert names.
#[derive(Clone, Copy)]
struct Alerting<'a> {
    user_id: &'a str,
    alert_id: &'a str,
    aml_event_id: &'a str,
    decision_id: &'a str,
    /// the reference rate the event was converted at, if any
    rate: Option<&'a rules_model::AmlRate>,
}

/// The alert, its case (opened, or the user's open one extended), the
/// typologies' alert times and the operator's webhook.
fn alert_statements(
    gw: &Gateway,
    ctx: &Ctx<'_>,
    alert: &Alerting<'_>,
    decision: &AmlDecision,
    open_case: Option<&store::OpenCase>,
) -> ApiResult<Vec<crate::ports::Stmt>> {
    let Alerting { user_id, alert_id, aml_event_id, decision_id, rate } = *alert;
    let tenant = ctx.caller.tenant_id.as_str();
    let (typologies, actions) = (typologies(decision), action_names(decision));
    let due_at = decision.due_at.ok_or_else(ApiError::internal)?;
    let mut statements = Vec::new();
    let case_id = match open_case {
        Some(open) => {
            let all_typologies = joined(&open.typologies, typologies.iter().cloned());
            let all_actions = joined(&open.actions, actions.iter().cloned());
            statements.push(store::extend_case(&open.case_id, &all_typologies, &all_actions, open.due_at.min(due_at), ctx.now));
            open.case_id.clone()
        }
        None => {
            let case_id = gw.new_id("amlcase");
            statements.push(store::open_case(store::NewCase {
                case_id: &case_id,
                tenant_id: tenant,
                environment: ctx.caller.environment,
                user_id,
                typologies: &typologies,
                actions: &actions,
                opened_at: ctx.now,
                due_at,
            }));
            case_id
        }
    };
    let explanation = json!({ "outcome": decision.outcome, "fired": decision.fired, "required_tier": decision.required_tier, "rate": rate });
    statements.push(store::insert_alert(store::NewAlert {
        alert_id,
        tenant_id: tenant,
        environment: ctx.caller.environment,
        user_id,
        case_id: &case_id,
        aml_event_id,
        typologies: json!(typologies).to_string(),
        outcome: decision.outcome.as_str(),
        actions: json!(actions).to_string(),
        explanation: explanation.to_string(),
        decision_id,
        created_at: ctx.now,
    }));
    for typology in &decision.alert {
        statements.push(store::mark_alerted(tenant, user_id, *typology, ctx.now));
    }
    statements.push(gw.event(
        ctx.caller.environment,
        Some(tenant),
        EventKind::AmlAlertCreated,
        ctx.now,
        &AmlAlertData {
            alert_id: alert_id.to_string(),
            user_id: user_id.to_string(),
            typologies,
            outcome: decision.outcome.as_str().to_string(),
            actions,
        },
    ));
    Ok(statements)
}

/// `GET /v1/admin/aml/events`: the newest events of the environment.
pub(crate) async fn list(gw: &Gateway, ctx: &Ctx<'_>, (): ()) -> ApiResult<Answer<EventList>> {
    let mut events = Vec::new();
    for row in store::newest(gw.store.as_ref(), ctx.caller.environment, LIST_LENGTH).await? {
        events.push(EventView {
            aml_event_id: row.aml_event_id,
            tenant_id: row.tenant_id,
            event: stored_json(&row.payload)?,
            review_status: row.review_status,
            outcome: row.outcome,
            decision_id: row.decision_id,
            received_at: time::format(row.received_at),
        });
    }
    Answer::new(&EventList { events })
}

// ---- alerts and cases ----

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct AlertQuery {
    tenant_id: Option<String>,
    user_id: Option<String>,
    /// a reason code, such as `structuring`
    #[param(value_type = Option<String>)]
    typology: Option<Typology>,
    /// one AML case's alerts
    case_id: Option<String>,
    #[param(value_type = Option<String>)]
    cursor: Option<PageCursor>,
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct OwnAlertQuery {
    user_id: String,
    /// a reason code, such as `structuring`
    #[param(value_type = Option<String>)]
    typology: Option<Typology>,
    #[param(value_type = Option<String>)]
    cursor: Option<PageCursor>,
}

/// An alert as the compliance team sees it: why it fired, rule by rule.
#[derive(Serialize, ToSchema)]
pub(crate) struct AlertView {
    alert_id: String,
    tenant_id: String,
    user_id: String,
    case_id: String,
    aml_event_id: String,
    /// the reason codes of the rules that fired
    typologies: Vec<String>,
    #[schema(value_type = AmlOutcomeName)]
    outcome: String,
    actions: Vec<String>,
    /// each fired rule: `{rule_id, version, reason_code, inputs, window_from, window_to, threshold}`
    #[schema(value_type = Object)]
    explanation: Json,
    decision_id: String,
    #[schema(value_type = Timestamp)]
    created_at: String,
}

/// An alert as the operator sees it: its own user's, without the evidence.
#[derive(Serialize, ToSchema)]
pub(crate) struct OwnAlertView {
    alert_id: String,
    user_id: String,
    typologies: Vec<String>,
    #[schema(value_type = AmlOutcomeName)]
    outcome: String,
    actions: Vec<String>,
    #[schema(value_type = Timestamp)]
    created_at: String,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct AlertPage {
    alerts: Vec<AlertView>,
    /// the next page's cursor, when there is one
    next_cursor: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct OwnAlertPage {
    alerts: Vec<OwnAlertView>,
    /// the next page's cursor, when there is one
    next_cursor: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct AmlCaseView {
    case_id: String,
    tenant_id: String,
    user_id: String,
    /// `open` or `closed`
    status: String,
    typologies: Vec<String>,
    actions: Vec<String>,
    alert_count: i64,
    #[schema(value_type = Timestamp)]
    opened_at: String,
    /// from the earliest regulatory deadline of its alerts (SAR 30 days, CTR 15 days, UK consent 7 working days)
    #[schema(value_type = Timestamp)]
    due_at: String,
    #[schema(value_type = Option<Timestamp>)]
    closed_at: Option<String>,
    outcome: Option<String>,
    reviewer: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct AmlCasePage {
    cases: Vec<AmlCaseView>,
    next_cursor: Option<String>,
}

pub(crate) fn admin_alerts_doc() -> OperationDoc {
    OperationDoc::new("admin", "AML alerts of the environment, newest first, each with its explanation")
}

pub(crate) fn own_alerts_doc() -> OperationDoc {
    OperationDoc::new("aml", "AML alerts of one of the tenant's users, newest first")
        .describe("For the operator's compliance staff only: nothing of an alert may reach the player.")
}

pub(crate) fn admin_cases_doc() -> OperationDoc {
    OperationDoc::new("admin", "AML cases of the environment by due time: one open case per user groups its alerts")
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct CaseQuery {
    /// `open` or `closed`; both when absent
    #[param(inline)]
    status: Option<CaseState>,
    tenant_id: Option<String>,
    #[param(value_type = Option<String>)]
    cursor: Option<PageCursor>,
}

/// Where an AML case stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum CaseState {
    Open,
    Closed,
}

/// Which alerts a listing shows.
struct AlertsOf<'a> {
    tenant_id: Option<&'a str>,
    user_id: Option<&'a str>,
    case_id: Option<&'a str>,
    typology: Option<Typology>,
    before: Option<(i64, String)>,
    /// an operator's read: a restricted player's alerts are hidden
    hide_restricted: bool,
}

async fn alert_rows(gw: &Gateway, ctx: &Ctx<'_>, of: AlertsOf<'_>) -> ApiResult<(Vec<store::AlertRow>, Option<String>)> {
    let filter = store::AlertFilter {
        environment: ctx.caller.environment,
        tenant_id: of.tenant_id,
        user_id: of.user_id,
        case_id: of.case_id,
        typology: of.typology,
        before: of.before,
        limit: PAGE + 1,
        hide_restricted: of.hide_restricted,
    };
    let mut rows = store::alerts(gw.store.as_ref(), &filter).await?;
    let next = cut_page(&mut rows, |r| (r.created_at, r.alert_id.clone()));
    Ok((rows, next))
}

fn alert_view(row: store::AlertRow) -> ApiResult<AlertView> {
    Ok(AlertView {
        alert_id: row.alert_id,
        tenant_id: row.tenant_id,
        user_id: row.user_id,
        case_id: row.case_id,
        aml_event_id: row.aml_event_id,
        typologies: row.typologies,
        outcome: row.outcome,
        actions: row.actions,
        explanation: stored_json(&row.explanation)?,
        decision_id: row.decision_id,
        created_at: time::format(row.created_at),
    })
}

/// `GET /v1/admin/aml/alerts`.
pub(crate) async fn admin_alerts(gw: &Gateway, ctx: &Ctx<'_>, Params(query): Params<AlertQuery>) -> ApiResult<Answer<AlertPage>> {
    let AlertQuery { tenant_id, user_id, typology, case_id, cursor } = query;
    let of = AlertsOf {
        tenant_id: tenant_id.as_deref(),
        user_id: user_id.as_deref(),
        case_id: case_id.as_deref(),
        typology,
        before: Cursor::after(cursor),
        hide_restricted: false,
    };
    let (rows, next_cursor) = alert_rows(gw, ctx, of).await?;
    let alerts = rows.into_iter().map(alert_view).collect::<ApiResult<Vec<_>>>()?;
    Answer::new(&AlertPage { alerts, next_cursor })
}

/// `GET /v1/aml/alerts?user_id=`: the operator's own user's alerts.
pub(crate) async fn own_alerts(gw: &Gateway, ctx: &Ctx<'_>, Params(query): Params<OwnAlertQuery>) -> ApiResult<Answer<OwnAlertPage>> {
    let OwnAlertQuery { user_id, typology, cursor } = query;
    // a player an erasure restricted is hidden from the operator, as from every operator read
    let of = AlertsOf {
        tenant_id: Some(&ctx.caller.tenant_id),
        user_id: Some(&user_id),
        case_id: None,
        typology,
        before: Cursor::after(cursor),
        hide_restricted: true,
    };
    let (rows, next_cursor) = alert_rows(gw, ctx, of).await?;
    let alerts = rows
        .into_iter()
        .map(|r| OwnAlertView {
            alert_id: r.alert_id,
            user_id: r.user_id,
            typologies: r.typologies,
            outcome: r.outcome,
            actions: r.actions,
            created_at: time::format(r.created_at),
        })
        .collect();
    Answer::new(&OwnAlertPage { alerts, next_cursor })
}

fn case_view(r: store::CaseRow) -> AmlCaseView {
    AmlCaseView {
        case_id: r.case_id,
        tenant_id: r.tenant_id,
        user_id: r.user_id,
        status: r.status.as_str().to_string(),
        typologies: r.typologies,
        actions: r.actions,
        alert_count: r.alert_count,
        opened_at: time::format(r.opened_at),
        due_at: time::format(r.due_at),
        closed_at: r.closed_at.map(time::format),
        outcome: r.outcome,
        reviewer: r.reviewer,
    }
}

/// `GET /v1/admin/aml/cases`.
pub(crate) async fn admin_cases(gw: &Gateway, ctx: &Ctx<'_>, Params(query): Params<CaseQuery>) -> ApiResult<Answer<AmlCasePage>> {
    let CaseQuery { status, tenant_id, cursor } = query;
    let status = status.map(|s| match s {
        CaseState::Open => store::AmlCaseStatus::Open,
        CaseState::Closed => store::AmlCaseStatus::Closed,
    });
    let after = Cursor::after(cursor);
    let mut rows = store::cases(gw.store.as_ref(), ctx.caller.environment, status, tenant_id.as_deref(), after, PAGE + 1).await?;
    let next_cursor = cut_page(&mut rows, |r| (r.due_at, r.case_id.clone()));
    Answer::new(&AmlCasePage { cases: rows.into_iter().map(case_view).collect(), next_cursor })
}

// ---- the tenant's gaming day ----

#[derive(Serialize, ToSchema)]
pub(crate) struct GamingDayBody {
    /// local time the gaming day begins, `HH:MM`
    #[schema(pattern = "^([01][0-9]|2[0-3]):[0-5][0-9]$")]
    cutoff: String,
    /// an IANA time zone such as `America/Los_Angeles`
    time_zone: String,
}

impl FromBody for GamingDayBody {
    fn from_body(body: &[u8], gw: &Gateway, _: &Ctx<'_>) -> ApiResult<Self> {
        let mut f = Fields::from_body(body, gw.rules.as_ref())?;
        let cutoff = f.code("cutoff");
        let zone = f.code("time_zone");
        if !cutoff.is_empty() && gaming_day::parse_cutoff(&cutoff).is_none() {
            f.reject("invalid_field", "cutoff must be a local time HH:MM, such as 06:00");
        }
        if !zone.is_empty() && gaming_day::parse_zone(&zone).is_none() {
            f.reject("invalid_field", "time_zone must be an IANA time zone name, such as America/Los_Angeles");
        }
        f.finish()?;
        Ok(GamingDayBody { cutoff, time_zone: zone })
    }
}

pub(crate) fn set_gaming_day_doc() -> OperationDoc {
    OperationDoc::new("admin", "set a tenant's gaming day: the local time it begins and the time zone (default 00:00 UTC)").errors(&[404])
}

/// `PUT /v1/admin/tenants/{tenant_id}/gaming-day`.
pub(crate) async fn set_gaming_day(
    gw: &Gateway,
    ctx: &Ctx<'_>,
    (Path(tenant_id), Body(GamingDayBody { cutoff, time_zone: zone })): (Path, Body<GamingDayBody>),
) -> ApiResult<Answer<GamingDayBody>> {
    let minutes = gaming_day::parse_cutoff(&cutoff).ok_or_else(ApiError::internal)?;
    gw.require_tenant(ctx, &tenant_id).await?;
    gw.store.batch(vec![store::set_gaming_day(&tenant_id, minutes, &zone)]).await?;
    Answer::new(&GamingDayBody { cutoff: gaming_day::format_cutoff(minutes), time_zone: zone })
}

// ---- the case model's side of AML cases ----

/// The AML case with this id, if it is one.
pub(crate) async fn case(gw: &Gateway, environment: crate::auth::Environment, case_id: &str) -> ApiResult<Option<store::CaseRow>> {
    if !case_id.starts_with(CASE_PREFIX) {
        return Ok(None);
    }
    store::case(gw.store.as_ref(), environment, case_id).await
}

/// The prefix of an AML case's id.
const CASE_PREFIX: &str = "amlcase_";

/// Closes a user's AML case with the team's outcome: the rules say what
/// becomes of the withdrawal hold; the case, the user's standing and the
/// case file's statements are one batch. `None` when the batch lost a race.
pub(crate) async fn apply_case_decision(
    gw: &Gateway,
    environment: crate::auth::Environment,
    case: &store::CaseRow,
    outcome: rules_model::AmlReviewOutcome,
    decided_by: &str,
    now: i64,
    extra: Vec<crate::ports::Stmt>,
) -> ApiResult<Option<crate::decisions::DecisionLog>> {
    let user = crate::users::store::find_case_subject(gw.store.as_ref(), &case.tenant_id, &case.user_id).await?.ok_or_else(ApiError::internal)?;
    let scope = Scope { environment, tenant_id: case.tenant_id.clone(), user_id: case.user_id.clone() };
    let facts = rules_model::AmlReviewFacts { outcome, standing: user.aml };
    let (decision, log) = gw.decide(&scope, Operation::AmlReview, &facts, |r, f| r.decide_aml_review(f))?;
    let mut statements = vec![
        log.statement(),
        users::store::claim(&case.tenant_id, &case.user_id, user.version, now),
        store::set_withdrawal_standing(&case.tenant_id, &case.user_id, decision.standing),
        store::close_case(&case.case_id, outcome.as_str(), decided_by, now),
        store::forget_alerted(&case.tenant_id, &case.user_id),
    ];
    statements.extend(extra);
    Ok(gw.commit(statements).await?.then_some(log))
}

// ---- reports ----

/// The events a report reads at most.
const REPORT_EVENTS: i64 = 1_000;

/// Where a case can be reported, and how (`docs/decisions.md`).
const REGULATOR_FORMATS: &[&str] = &[
    "FinCEN BSA XML (SAR, CTR): drafted by POST /v1/admin/aml/cases/{case_id}/filings and /v1/admin/aml/ctr-candidates/{alert_id}/filings",
    "goAML XML (Malta FIAU, Curaçao, Sweden, Germany, the Netherlands, Ireland, Switzerland, Luxembourg and other FIUs): drafted by POST /v1/admin/aml/cases/{case_id}/filings",
    "UK NCA SAR Portal, Gibraltar GFIU and Isle of Man FIU (THEMIS): manual narrative submissions, entered from this bundle",
    "FINTRAC (Canada): its own reporting API, entered from this bundle",
];

#[derive(Serialize, ToSchema)]
pub(crate) struct ReportBundle {
    case_id: String,
    tenant_id: String,
    user_id: String,
    status: String,
    /// a draft for the filing: what fired, when, over what; the team edits it
    narrative: Json,
    /// the user's events in the alerts' windows, as reported, each with its decision
    #[schema(value_type = Vec<Object>)]
    transactions: Vec<Json>,
    /// every alert's decision with the rules' evidence
    #[schema(value_type = Vec<Object>)]
    explanations: Vec<Json>,
    /// the SHA-256 of the component the host runs; each decision names its own in the decision log
    rules_sha256: String,
    decision_ids: Vec<String>,
    /// where this case can be reported, and how: drafted by the gateway
    /// (`POST /v1/admin/aml/cases/{case_id}/filings`) or entered by hand from this bundle
    regulator_formats: Vec<String>,
}

pub(crate) fn report_bundle_doc() -> OperationDoc {
    OperationDoc::new("admin", "an AML case's report bundle: narrative draft, transactions, each decision's explanation, the rules' hash")
        .errors(&[404])
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct CtrQuery {
    /// alerts created at or after this instant
    #[param(value_type = Option<Timestamp>)]
    from: Option<Instant>,
    /// alerts created before this instant
    #[param(value_type = Option<Timestamp>)]
    to: Option<Instant>,
    tenant_id: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct CtrCandidate {
    tenant_id: String,
    user_id: String,
    /// the start of the gaming day whose cash passed the threshold
    #[schema(value_type = Timestamp)]
    gaming_day_start: String,
    cash_in_cents: i64,
    cash_out_cents: i64,
    alert_id: String,
    decision_id: String,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct CtrCandidates {
    candidates: Vec<CtrCandidate>,
}

pub(crate) fn ctr_candidates_doc() -> OperationDoc {
    OperationDoc::new("admin", "CTR candidates: one per user and gaming day whose cash passed the threshold (the console exports them as CSV)")
}

/// What a case's report and filings are drafted from: its alerts (newest
/// first), the activity window they cover, the user's events in it, and the
/// summary of the narrative draft.
pub(crate) struct CaseEvidence {
    pub(crate) alerts: Vec<store::AlertRow>,
    pub(crate) window_from: i64,
    pub(crate) window_to: i64,
    pub(crate) events: Vec<store::UserEvent>,
    pub(crate) summary: String,
}

/// The evidence of an AML case.
pub(crate) async fn case_evidence(gw: &Gateway, environment: crate::auth::Environment, case: &store::CaseRow) -> ApiResult<CaseEvidence> {
    let filter = store::AlertFilter {
        environment,
        tenant_id: Some(&case.tenant_id),
        user_id: Some(&case.user_id),
        case_id: Some(&case.case_id),
        typology: None,
        before: None,
        limit: REPORT_EVENTS,
        hide_restricted: false,
    };
    let alerts = store::alerts(gw.store.as_ref(), &filter).await?;
    let mut window_from = case.opened_at;
    for a in &alerts {
        let explanation = stored_json(&a.explanation)?;
        for fired in explanation["fired"].as_array().into_iter().flatten() {
            window_from = window_from.min(fired["window_from"].as_i64().unwrap_or(window_from));
        }
    }
    let window_to = alerts.first().map_or(case.opened_at, |a| a.created_at);
    let events = store::user_events(gw.store.as_ref(), &case.tenant_id, &case.user_id, window_from, window_to, REPORT_EVENTS).await?;
    let summary = format!(
        "{} alert(s) between {} and {} on typologies {}; actions {}.",
        alerts.len(),
        time::format(window_from),
        time::format(window_to),
        case.typologies.join(", "),
        case.actions.join(", ")
    );
    Ok(CaseEvidence { alerts, window_from, window_to, events, summary })
}

/// `GET /v1/admin/aml/cases/{case_id}/report`.
pub(crate) async fn report_bundle(gw: &Gateway, ctx: &Ctx<'_>, Path(case_id): Path) -> ApiResult<Answer<ReportBundle>> {
    let case_id = case_id.as_str();
    let case = case(gw, ctx.caller.environment, case_id).await?.ok_or_else(|| ApiError::not_found("case_not_found", "no such AML case"))?;
    let CaseEvidence { alerts, window_from, window_to, events, summary } = case_evidence(gw, ctx.caller.environment, &case).await?;
    let mut explanations = Vec::new();
    for a in alerts.iter().rev() {
        explanations.push(json!({
            "alert_id": a.alert_id,
            "decision_id": a.decision_id,
            "aml_event_id": a.aml_event_id,
            "created_at": time::format(a.created_at),
            "typologies": a.typologies,
            "outcome": a.outcome,
            "actions": a.actions,
            "explanation": stored_json(&a.explanation)?,
        }));
    }
    let transactions = events
        .into_iter()
        .map(|e| {
            Ok(json!({
                "aml_event_id": e.aml_event_id,
                "event": stored_json(&e.payload)?,
                "event_at": e.event_at.map(time::format),
                "outcome": e.outcome,
                "decision_id": e.decision_id,
            }))
        })
        .collect::<ApiResult<Vec<_>>>()?;
    let narrative = json!({
        "subject": { "tenant_id": case.tenant_id, "user_id": case.user_id },
        "summary": summary,
        "activity_window": { "from": time::format(window_from), "to": time::format(window_to) },
        "typologies": case.typologies,
        "actions": case.actions,
        "due_at": time::format(case.due_at),
    });
    let body = ReportBundle {
        decision_ids: alerts.iter().rev().map(|a| a.decision_id.clone()).collect(),
        case_id: case.case_id,
        tenant_id: case.tenant_id,
        user_id: case.user_id,
        status: case.status.as_str().to_string(),
        narrative,
        transactions,
        explanations,
        rules_sha256: gw.rules.identity().component_sha256,
        regulator_formats: REGULATOR_FORMATS.iter().map(|f| f.to_string()).collect(),
    };
    let reply = Answer::new(&body)?;
    // an export of a case's evidence is audited before it is handed over
    let exported = gw.team_audit(ctx.caller.environment, "aml.report_export", &ctx.caller.key_id, case_id, ctx.now);
    gw.store.batch(vec![exported]).await?;
    Ok(reply)
}

/// `GET /v1/admin/aml/ctr-candidates`: the CTR candidates of alerts created in [`from`, `to`).
pub(crate) async fn ctr_candidates(
    gw: &Gateway,
    ctx: &Ctx<'_>,
    Params(CtrQuery { from, to, tenant_id }): Params<CtrQuery>,
) -> ApiResult<Answer<CtrCandidates>> {
    let (from, to) = (from.map_or(0, |t| t.0), to.map_or(MAX_STORED_INTEGER, |t| t.0));
    let rows = store::ctr_alerts(gw.store.as_ref(), ctx.caller.environment, tenant_id.as_deref(), from, to, REPORT_EVENTS).await?;
    let mut candidates = Vec::new();
    for row in rows {
        let explanation = stored_json(&row.explanation)?;
        // one per CTR rule that fired: its window is the gaming day
        for fired in explanation["fired"].as_array().into_iter().flatten().filter(|f| f["reason_code"] == json!(Typology::CtrThreshold.as_str())) {
            let input = |name: &str| {
                fired["inputs"].as_array().into_iter().flatten().find(|i| i["name"] == json!(name)).and_then(|i| i["value"].as_i64()).unwrap_or(0)
            };
            candidates.push(CtrCandidate {
                tenant_id: row.tenant_id.clone(),
                user_id: row.user_id.clone(),
                gaming_day_start: fired["window_from"].as_i64().map(time::format).unwrap_or_default(),
                cash_in_cents: input("cash_in_cents"),
                cash_out_cents: input("cash_out_cents"),
                alert_id: row.alert_id.clone(),
                decision_id: row.decision_id.clone(),
            });
        }
    }
    Answer::new(&CtrCandidates { candidates })
}

// ---- feedback ----

/// One typology's record: alerts, and how the cases holding it were closed.
#[derive(Serialize, ToSchema)]
pub(crate) struct TypologyFeedback {
    pub(crate) typology: String,
    pub(crate) alerts: i64,
    pub(crate) cases_confirmed: i64,
    pub(crate) cases_false_positive: i64,
    /// confirmed over closed; none before a case holding it is closed
    pub(crate) precision: Option<f64>,
}

/// What the team's outcomes say of the rules.
#[derive(Serialize, ToSchema)]
pub(crate) struct AmlFeedback {
    pub(crate) cases_open: i64,
    pub(crate) cases_closed: i64,
    alerts: i64,
    /// alerts per case: how many alerts a case groups
    pub(crate) alerts_per_case: Option<f64>,
    pub(crate) typologies: Vec<TypologyFeedback>,
}

/// The environment's AML feedback, counted from the cases' outcomes.
pub(crate) async fn feedback(gw: &Gateway, environment: crate::auth::Environment) -> ApiResult<AmlFeedback> {
    let counts = store::feedback_counts(gw.store.as_ref(), environment).await?;
    let mut typologies = Vec::new();
    for t in Typology::ALL {
        let name = t.as_str();
        let holds = |names: &[String]| names.iter().any(|n| n == name);
        let alerts: i64 = counts.alerts_by_typologies.iter().filter(|(names, _)| holds(names)).map(|(_, n)| n).sum();
        let closed_with = |outcome: rules_model::AmlReviewOutcome| -> i64 {
            counts.closed_by_typologies.iter().filter(|(names, o, _)| holds(names) && o.as_deref() == Some(outcome.as_str())).map(|(_, _, n)| n).sum()
        };
        let (confirmed, false_positive) =
            (closed_with(rules_model::AmlReviewOutcome::Confirmed), closed_with(rules_model::AmlReviewOutcome::FalsePositive));
        let closed = confirmed + false_positive;
        typologies.push(TypologyFeedback {
            typology: name.to_string(),
            alerts,
            cases_confirmed: confirmed,
            cases_false_positive: false_positive,
            precision: (closed > 0).then(|| confirmed as f64 / closed as f64),
        });
    }
    let cases = counts.cases_open + counts.cases_closed;
    let alerts: i64 = counts.alerts_by_typologies.iter().map(|(_, n)| n).sum();
    Ok(AmlFeedback {
        cases_open: counts.cases_open,
        cases_closed: counts.cases_closed,
        alerts,
        alerts_per_case: (cases > 0).then(|| alerts as f64 / cases as f64),
        typologies,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_is_cut_with_the_cursor_of_its_last_row_and_a_full_last_page_has_none() {
        let page = usize::try_from(PAGE).unwrap_or(0);
        let mut over: Vec<(i64, String)> = (0..=page).map(|i| (i as i64, format!("a{i}"))).collect();
        let cursor = cut_page(&mut over, |r| r.clone());
        assert_eq!(over.len(), page);
        assert_eq!(cursor.as_deref().and_then(crate::api::cursor::decode::<(i64, String)>), over.last().cloned());
        let mut exact: Vec<(i64, String)> = (0..page).map(|i| (i as i64, format!("a{i}"))).collect();
        assert_eq!(cut_page(&mut exact, |r| r.clone()), None);
        assert_eq!(exact.len(), page);
    }

    #[test]
    fn an_event_adds_to_the_bucket_fields_of_its_type() {
        assert_eq!(delta(AmlEventType::Deposit, 5, false).map(|d| (d.in_cents, d.in_count)), Some((5, 1)));
        assert_eq!(delta(AmlEventType::Withdrawal, 5, true).map(|d| (d.out_cents, d.near_threshold)), Some((5, true)));
        assert_eq!(delta(AmlEventType::Bonus, 5, false).map(|d| d.won_cents), Some(5));
        assert!(delta(AmlEventType::P2pTransfer, 5, false).is_none() && delta(AmlEventType::InstrumentAdded, 0, false).is_none());
    }
}
