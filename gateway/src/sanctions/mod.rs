//! The sanctions area: screening at signup, its status, the compliance
//! team's cases and their review, and re-screens (periodic, on demand and
//! after a list changes). The area's SQL is in [`store`].

mod list_changes;
pub(crate) mod store;

use rules_model::{
    CaseKind, CaseReviewDecision, CaseReviewFacts, CaseStatus, DueUser, EventKind, Operation, ReviewAction, ReviewItem, SanctionsStatus,
    ScreeningDecision, ScreeningFacts,
};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value as Json};
use sha2::{Digest, Sha256};
use utoipa::{IntoParams, ToSchema};

use crate::api::{stored_answer, stored_json, ReviewLimit, WaitSeconds};
use crate::auth::Environment;
use crate::decisions::{error_with_decision, DecisionLog, Scope};
use crate::error::{ApiError, ApiResult};
use crate::input::{is_upper_code, normalize_email, Cursor, Fields};
use crate::input::{Body, FromBody, Params, Path};
use crate::lists::{Entries, ScoreBreakdown};
use crate::openapi::answer::{Answer, Created};
use crate::openapi::shared::{
    CaseKind as CaseKindName, CaseStatus as CaseStatusName, Email, EntryTopic as EntryTopicName, Environment as EnvironmentName,
    NameReading as NameReadingName, ReviewAction as ReviewActionName, SanctionsStatus as SanctionsStatusName, Spelling as SpellingName, Timestamp,
    UserQuery,
};
use crate::openapi::OperationDoc;
use crate::ports::{Row, Stmt};
use crate::users::User;
use crate::vendors::yente::Person;
use crate::webhooks::events::{AccountFrozenData, DueDiligenceData, SanctionsClearedData, SanctionsConfirmedData, SanctionsHitData};
use crate::{time, Ctx, Gateway};

/// The body of `POST /v1/sanctions/screen`: who signed up.
#[derive(ToSchema)]
#[schema(as = Signup)]
pub(crate) struct Identity {
    #[schema(min_length = 1, max_length = 256)]
    user_id: String,
    #[schema(min_length = 1, max_length = 256)]
    first_name: String,
    #[schema(min_length = 1, max_length = 256)]
    last_name: String,
    /// YYYY-MM-DD, in the past
    #[schema(format = Date)]
    date_of_birth: String,
    #[schema(pattern = "^[A-Za-z]{2}$")]
    nationality: String,
    #[schema(value_type = Email)]
    email: String,
}

/// The answer to a screening; stored and answered again on a repeat. A hit
/// adds the case fields and never names the matched entity.
#[derive(Serialize, ToSchema)]
#[schema(as = Screening)]
pub(crate) struct Screened<'a> {
    screen_id: &'a str,
    user_id: &'a str,
    #[schema(value_type = SanctionsStatusName)]
    status: &'static str,
    #[schema(value_type = Timestamp)]
    checked_at: String,
    transactions_held: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = u32, required = false)]
    match_count: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = f64, minimum = 0, maximum = 1, required = false)]
    highest_match_score: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = String, required = false)]
    case_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = bool, required = false)]
    signup_allowed: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = String, required = false)]
    estimated_review_time: Option<&'a str>,
    /// present (true) when the tenant screens for PEPs or adverse media and
    /// the user needs enhanced due diligence; nothing is held for it
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = bool, required = false)]
    due_diligence_required: Option<bool>,
}

#[derive(Serialize, ToSchema)]
#[schema(as = SanctionsView)]
pub(crate) struct StatusView {
    user_id: String,
    #[schema(value_type = SanctionsStatusName)]
    status: &'static str,
    transactions_held: bool,
    #[schema(value_type = Timestamp)]
    checked_at: String,
    #[schema(value_type = Timestamp)]
    updated_at: String,
    #[schema(value_type = Timestamp)]
    last_screened_at: String,
}

/// The query of `GET /v1/admin/sanctions/cases`.
#[derive(Deserialize, IntoParams)]
pub(crate) struct CaseQuery {
    /// default open
    #[param(value_type = Option<CaseStatusName>)]
    status: Option<CaseStatus>,
    /// only those past the review target
    overdue: Option<bool>,
    /// one kind of case; default every kind
    #[serde(rename = "type")]
    #[param(value_type = Option<CaseKindName>)]
    kind: Option<CaseKind>,
    /// only cases opened at least this many seconds ago
    #[param(value_type = Option<i64>, minimum = 0)]
    min_age_seconds: Option<WaitSeconds>,
    /// default 100
    #[param(inline)]
    limit: Option<ReviewLimit>,
    /// the `next_cursor` of the page before
    #[param(value_type = Option<String>)]
    cursor: Option<Cursor<(i64, String)>>,
}

/// A case in a review list.
#[derive(Serialize, ToSchema)]
#[schema(as = CaseSummary)]
struct CaseRow {
    case_id: String,
    #[schema(value_type = CaseKindName)]
    case_type: &'static str,
    tenant_id: String,
    user_id: String,
    #[schema(value_type = CaseStatusName)]
    status: &'static str,
    match_count: i64,
    highest_match_score: f64,
    #[schema(value_type = Timestamp)]
    created_at: String,
    age_seconds: i64,
    /// while the case is open, or when it was given one
    #[schema(value_type = Option<Timestamp>, required)]
    review_due_at: Option<String>,
    overdue: bool,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct CaseList {
    cases: Vec<CaseRow>,
    /// for the next page; `null` on the last
    #[schema(required)]
    next_cursor: Option<String>,
    has_more: bool,
}

/// A matched list entry, as the compliance team sees it in a case.
#[derive(Serialize, ToSchema)]
struct CaseMatch<'a> {
    list: &'a str,
    /// the version of the list the match was found in (cases opened before versions were recorded have none)
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(required = false)]
    list_version: Option<&'a str>,
    entity_id: &'a str,
    entity_name: &'a str,
    score: f64,
    score_breakdown: ScoreBreakdown,
    /// why the entry is listed
    #[schema(value_type = EntryTopicName)]
    topic: &'static str,
    /// a digest of the entry's record as matched: a dismissal is remembered until it changes
    fingerprint: &'a str,
    /// the reading of the screened name that scored (cases opened before readings were recorded have none)
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<NameReadingName>, required = false)]
    reading: Option<&'static str>,
    /// the listed name's parts in order, each with the screened name's part aligned with it, then the screened
    /// name's words left over (cases opened before alignments were recorded have none)
    #[schema(required = false)]
    aligned: Vec<AlignedPartView<'a>>,
}

/// A part of the listed name and the screened name's part aligned with it: one word, or neighbouring words read
/// together. An empty `query` is a listed part not found; an empty `listed` a screened word left over.
#[derive(Serialize, ToSchema)]
#[schema(as = AlignedPart)]
struct AlignedPartView<'a> {
    listed: &'a str,
    query: &'a str,
    similarity: f64,
    #[schema(value_type = SpellingName)]
    spelling: &'static str,
}

/// A case with its matched entities: for the compliance team only.
#[derive(Serialize, ToSchema)]
#[schema(as = Case)]
pub(crate) struct CaseView {
    case_id: String,
    #[schema(value_type = CaseKindName)]
    case_type: &'static str,
    tenant_id: String,
    user_id: String,
    #[schema(value_type = CaseStatusName)]
    status: &'static str,
    match_count: i64,
    highest_match_score: f64,
    #[schema(value_type = Vec<CaseMatch>)]
    matches: Json,
    #[schema(required)]
    reviewer: Option<String>,
    #[schema(value_type = Option<Timestamp>, required)]
    decided_at: Option<String>,
    #[schema(value_type = Timestamp)]
    created_at: String,
    /// the person as screened, to set beside each list entry
    #[schema(required)]
    screened: Option<ScreenedIdentity>,
}

/// Who was screened: the identity the operator sent.
#[derive(Serialize, ToSchema)]
struct ScreenedIdentity {
    first_name: String,
    last_name: String,
    date_of_birth: String,
    nationality: String,
}

/// The body of a case review.
#[derive(ToSchema)]
#[schema(as = CaseReview)]
pub(crate) struct Review {
    #[schema(value_type = ReviewActionName)]
    decision: ReviewAction,
    #[schema(min_length = 1, max_length = 256)]
    reviewer: String,
}

impl FromBody for Review {
    fn from_body(body: &[u8], gw: &Gateway, _: &Ctx<'_>) -> ApiResult<Self> {
        let mut f = Fields::from_body(body, gw.rules.as_ref())?;
        let decision_text = f.code("decision");
        let reviewer = f.text("reviewer");
        let action = ReviewAction::parse(&decision_text);
        if !decision_text.is_empty() && action.is_none() {
            f.reject("invalid_field", "decision must be dismiss or confirm");
        }
        f.finish()?;
        Ok(Review { decision: action.ok_or_else(ApiError::internal)?, reviewer })
    }
}

#[derive(Serialize, ToSchema)]
#[schema(as = CaseReviewed)]
pub(crate) struct Reviewed {
    case_id: String,
    user_id: String,
    #[schema(value_type = ReviewActionName)]
    decision: &'static str,
    /// the user's screening status after the review
    #[schema(value_type = SanctionsStatusName)]
    status: &'static str,
    reviewer: String,
}

/// The body of an on-demand re-screen.
#[derive(ToSchema)]
#[schema(as = RescreenRequest)]
pub(crate) struct RescreenBody {
    #[schema(min_length = 1, max_length = 256)]
    tenant_id: String,
    /// one user; every active user of the tenant when absent
    #[schema(min_length = 1, max_length = 256)]
    user_id: Option<String>,
}

impl FromBody for RescreenBody {
    fn from_body(body: &[u8], gw: &Gateway, _: &Ctx<'_>) -> ApiResult<Self> {
        let mut f = Fields::from_body(body, gw.rules.as_ref())?;
        let tenant_id = f.text("tenant_id");
        let user_id = f.opt_text("user_id");
        f.finish()?;
        Ok(RescreenBody { tenant_id, user_id })
    }
}

#[derive(Serialize, ToSchema)]
#[schema(as = RescreenDone)]
pub(crate) struct Rescreened {
    tenant_id: String,
    rescreened: usize,
    new_hits: usize,
}

/// The review work the compliance team watches.
#[derive(Serialize, ToSchema)]
pub(crate) struct ReviewMetrics {
    #[schema(value_type = EnvironmentName)]
    environment: &'static str,
    #[schema(value_type = Timestamp)]
    measured_at: String,
    review_target_seconds: i64,
    /// open sanctions hits (holding the user's transactions)
    sanctions_cases_open: i64,
    sanctions_cases_overdue: i64,
    /// open due-diligence cases on PEP or adverse-media matches (holding nothing)
    due_diligence_cases_open: i64,
    due_diligence_cases_overdue: i64,
    kyc_checks_pending_review: i64,
    kyc_checks_overdue: i64,
    /// the environment's required list sources (production's; none in the sandbox)
    sanctions_lists_required: i64,
    /// required sources with no version loaded
    sanctions_lists_missing: i64,
    /// required sources loaded but not refreshed within the freshness window
    sanctions_lists_stale: i64,
    /// AML monitoring: open cases, alerts, and each typology's precision from closed cases
    aml: crate::aml::AmlFeedback,
}

pub(crate) fn screen_doc() -> OperationDoc {
    OperationDoc::new("sanctions", "screen a signup against the sanctions lists")
        .describe("A hit does not block signup: the user's transactions are held until review. `409 already_screened` when the user was screened with other details. `422 unreadable_name` when a name has letters of which none can be read (a name in another script is transliterated, screened, and a match on it flagged for the team to check against the document). Production answers `503 vendor_unavailable` with no list loaded.")
        .answers("the user was screened; a hit adds the hit fields and never names the matched entity")
        .or_200("the user was already screened with this request: the original result")
        .errors(&[409, 422])
}

pub(crate) fn sanctions_status_doc() -> OperationDoc {
    OperationDoc::new("sanctions", "a user's screening status").errors(&[404])
}

pub(crate) fn list_cases_doc() -> OperationDoc {
    OperationDoc::new("admin", "sanctions cases of the environment, oldest first")
}

pub(crate) fn get_case_doc() -> OperationDoc {
    OperationDoc::new("admin", "a case with its matched entities (compliance team only)").errors(&[404])
}

pub(crate) fn review_case_doc() -> OperationDoc {
    OperationDoc::new("admin", "dismiss (false positive) or confirm a case").errors(&[404, 409])
}

pub(crate) fn rescreen_doc() -> OperationDoc {
    OperationDoc::new("admin", "re-screen a tenant's active users now").errors(&[404, 409])
}

pub(crate) fn review_metrics_doc() -> OperationDoc {
    OperationDoc::new("admin", "open and overdue review work")
}

impl FromBody for Identity {
    fn from_body(body: &[u8], gw: &Gateway, ctx: &Ctx<'_>) -> ApiResult<Identity> {
        let today = ctx.now;
        let mut f = Fields::from_body(body, gw.rules.as_ref())?;
        let user_id = f.text("user_id");
        let first_name = f.text("first_name");
        let last_name = f.text("last_name");
        let date_of_birth = f.code("date_of_birth");
        let nationality = f.code("nationality").to_ascii_uppercase();
        let raw_email = f.text("email");
        if !date_of_birth.is_empty() && time::parse_date(&date_of_birth).is_none_or(|d| d > today) {
            f.reject("invalid_field", "date_of_birth must be a past date as YYYY-MM-DD");
        }
        if !nationality.is_empty() && !is_upper_code(&nationality, 2) {
            f.reject("invalid_field", "nationality must be a two-letter country code");
        }
        let email = normalize_email(&raw_email).unwrap_or_default();
        if !raw_email.is_empty() && email.is_empty() {
            f.reject("invalid_field", "email must be an e-mail address");
        }
        f.finish()?;
        // a name in any script is read (another script's through its transliteration); one with letters of which
        // nothing can be read would be screened as no name at all
        for (field, name) in [("first_name", &first_name), ("last_name", &last_name)] {
            if crate::input::needs_reading(name) && gw.rules.read_name(name)? == rules_model::NameLegibility::Unreadable {
                return Err(ApiError::unprocessable(
                    "unreadable_name",
                    format!("{field} has letters of which none can be read: send the name as on the identity document"),
                ));
            }
        }
        Ok(Identity { user_id, first_name, last_name, date_of_birth, nationality, email })
    }
}

impl Identity {
    /// Identifies the logical request, so a retry is told apart from a different person.
    fn fingerprint(&self) -> String {
        let canonical = json!([self.first_name, self.last_name, self.date_of_birth, self.nationality, self.email]);
        hex::encode(Sha256::digest(canonical.to_string().as_bytes()))
    }
}

pub(crate) async fn screen(gw: &Gateway, ctx: &Ctx<'_>, Body(who): Body<Identity>) -> ApiResult<Created<Screened<'static>>> {
    let fingerprint = who.fingerprint();
    let environment = ctx.caller.environment;
    until_committed!({
        // One round trip to the primary: an earlier screening of the user,
        // the tenant's scope (read with the screening, not from the cached
        // caller: a switch set on one host applies at once on every host),
        // and the environment's active lists. Then the lists' entries (two
        // reads of immutable list versions) and the commit.
        let reads = vec![
            store::read_first_screening(&ctx.caller.tenant_id, &who.user_id),
            crate::tenants::store::read_screening_scope(&ctx.caller.tenant_id),
            crate::lists::store::read_active_lists(environment),
        ];
        let [first, scope, lists] = <[Vec<Row>; 3]>::try_from(gw.store.query_many(reads).await?).map_err(|_| ApiError::internal())?;
        if let Some(reply) = existing_screening(&first, &fingerprint)? {
            return Ok(Some(reply));
        }
        let lists = crate::lists::store::active_lists_from(&lists)?;
        screening_available(gw, environment, !lists.is_empty())?;
        let name = format!("{} {}", who.first_name, who.last_name);
        let person = Person { name: &name, date_of_birth: &who.date_of_birth, nationality: &who.nationality };
        let scope = crate::tenants::store::screening_scope_from(&scope)?;
        let (candidates, sources) = gw.screening_candidates(environment, &person, crate::lists::Entries::All, scope, Some(lists)).await?;
        let facts = ScreeningFacts {
            now: ctx.now,
            environment: ctx.caller.environment,
            first_name: who.first_name.clone(),
            last_name: who.last_name.clone(),
            date_of_birth: who.date_of_birth.clone(),
            nationality: who.nationality.clone(),
            current: None,
            candidates,
            hit_threshold: gw.config.hit_threshold(ctx.caller.environment),
            sources,
            scope,
            due_diligence_open: false,
            // a new user has dismissed nothing
            dismissed: Vec::new(),
        };
        let (decision, log) = gw.decide(&Scope::of(ctx, &who.user_id), Operation::Screening, &facts, |r, f| r.decide_screening(f))?;
        let screen_id = gw.new_id("scr");
        let tenant = ctx.caller.tenant_id.as_str();
        let mut statements = vec![log.statement()];
        let (opened, case_statements) = match decision.opens_case {
            true => {
                let (id, stmts) = open_case(gw, &Scope::of(ctx, &who.user_id), &decision, &facts.sources, &screen_id, ctx.now);
                (Some(id), stmts)
            }
            false => (None, Vec::new()),
        };
        // Only a sanctions hit is the user's case; due diligence holds nothing.
        let hit = decision.case_kind == CaseKind::SanctionsHit;
        let case_id = opened.clone().filter(|_| hit);
        let answer = Screened {
            screen_id: &screen_id,
            user_id: &who.user_id,
            status: decision.status.as_str(),
            checked_at: time::format(ctx.now),
            transactions_held: decision.transactions_held,
            match_count: case_id.is_some().then_some(decision.match_count),
            highest_match_score: case_id.is_some().then_some(decision.highest_score),
            case_id: case_id.as_deref(),
            signup_allowed: case_id.is_some().then_some(true),
            estimated_review_time: case_id.as_ref().and(decision.estimated_review_time.as_deref()),
            due_diligence_required: (opened.is_some() && !hit).then_some(true),
        };
        let response = serde_json::to_value(&answer).map_err(|e| ApiError::internal().with_detail(e.to_string()))?;
        statements.push(store::insert_screened_user(store::NewScreenedUser {
            tenant_id: tenant,
            user_id: &who.user_id,
            email: &who.email,
            first_name: &who.first_name,
            last_name: &who.last_name,
            date_of_birth: &who.date_of_birth,
            nationality: &who.nationality,
            status: decision.status,
            screen_id: &screen_id,
            fingerprint: &fingerprint,
            response: response.to_string(),
            case_id,
            now: ctx.now,
            rules: &gw.rules.identity().component_sha256,
        }));
        statements.extend(case_statements);
        if gw.commit(statements).await?.done() {
            return Ok(Some(Created::stored(response).decided(log.decision_id())));
        }
        Ok(None)
    })
}

/// Production screens against the environment's lists (or a configured
/// vendor); with neither, it answers 503 `vendor_unavailable`.
pub(crate) async fn ensure_screening_available(gw: &Gateway, environment: Environment) -> ApiResult<()> {
    if environment == Environment::Production && !production_screens_without_lists(gw) {
        return screening_available(gw, environment, crate::lists::has_any(gw, environment).await?);
    }
    Ok(())
}

/// [`ensure_screening_available`] with the environment's lists already read.
fn screening_available(gw: &Gateway, environment: Environment, has_lists: bool) -> ApiResult<()> {
    if environment == Environment::Production && !production_screens_without_lists(gw) && !has_lists {
        return Err(crate::vendors::unavailable("screening", "no sanctions list or screening vendor is configured".into()));
    }
    Ok(())
}

/// A case for the compliance team, with the matched entities (never shown to
/// operators), and the events of the decision, which carry none of them.
pub(crate) fn open_case(
    gw: &Gateway,
    scope: &Scope,
    decision: &ScreeningDecision,
    sources: &[rules_model::ScreenedSource],
    screen_id: &str,
    now: i64,
) -> (String, Vec<Stmt>) {
    let (environment, tenant, user_id) = (scope.environment, scope.tenant_id.as_str(), scope.user_id.as_str());
    let case_id = gw.new_id("case");
    let version_of = |source: &str| sources.iter().find(|s| s.source == source).map(|s| s.version.as_str());
    let matches: Vec<CaseMatch> = decision
        .matches
        .iter()
        .map(|m| CaseMatch {
            list: &m.source,
            list_version: version_of(&m.source),
            entity_id: &m.entity_id,
            entity_name: &m.name,
            score: m.score,
            score_breakdown: ScoreBreakdown { name: m.name_score, date_of_birth: m.date_of_birth_adjustment, nationality: m.nationality_adjustment },
            topic: m.topic.as_str(),
            fingerprint: &m.fingerprint,
            reading: Some(m.reading.as_str()),
            aligned: m
                .aligned
                .iter()
                .map(|a| AlignedPartView { listed: &a.listed, query: &a.query, similarity: a.similarity, spelling: a.spelling.as_str() })
                .collect(),
        })
        .collect();
    let mut statements = vec![store::insert_case(store::NewCase {
        case_id: &case_id,
        tenant_id: tenant,
        environment,
        user_id,
        match_count: decision.match_count,
        highest_score: decision.highest_score,
        matches: serde_json::to_string(&matches).unwrap_or_else(|_| "[]".into()),
        now,
        review_due_at: decision.review_due_at,
        kind: decision.case_kind,
    })];
    for event in &decision.events {
        statements.push(match decision.case_kind {
            CaseKind::SanctionsHit => {
                let data = SanctionsHitData {
                    screen_id: screen_id.to_string(),
                    case_id: case_id.clone(),
                    user_id: user_id.to_string(),
                    status: decision.status.as_str().to_string(),
                    transactions_held: decision.transactions_held,
                };
                gw.event(environment, Some(tenant), *event, now, &data)
            }
            // what the operator must do, and nothing of the entry matched
            CaseKind::EnhancedDueDiligence => {
                let data = DueDiligenceData {
                    screen_id: screen_id.to_string(),
                    user_id: user_id.to_string(),
                    due_diligence_required: true,
                    transactions_held: decision.transactions_held,
                };
                gw.event(environment, Some(tenant), *event, now, &data)
            }
        });
    }
    (case_id, statements)
}

/// A repeat of the same signup gets the original result; the same user id
/// with a different identity gets 409 `already_screened`.
fn existing_screening(rows: &[Row], fingerprint: &str) -> ApiResult<Option<Created<Screened<'static>>>> {
    let Some(first) = store::first_screening_from(rows)? else { return Ok(None) };
    if first.fingerprint != fingerprint {
        return Err(ApiError::conflict("already_screened", "this user_id was already screened with different details; use GET /v1/sanctions/status"));
    }
    Ok(Some(Created::stored_existing(stored_answer(&first.response)?)))
}

pub(crate) async fn sanctions_status(gw: &Gateway, ctx: &Ctx<'_>, Params(UserQuery { user_id }): Params<UserQuery>) -> ApiResult<Answer<StatusView>> {
    let user_id = user_id.as_str();
    let screened = store::screening_status(gw.store.as_ref(), &ctx.caller.tenant_id, user_id).await?.ok_or_else(ApiError::user_not_found)?;
    let status = screened.status;
    let (view, log) = gw.decide(&Scope::of(ctx, user_id), Operation::Sanctions, &status, |r, s| r.describe_sanctions(*s))?;
    let body = StatusView {
        user_id: user_id.to_string(),
        status: status.as_str(),
        transactions_held: view.transactions_held,
        checked_at: time::format(screened.created_at),
        updated_at: time::format(screened.updated_at),
        last_screened_at: time::format(screened.last_screened_at),
    };
    let answer = Answer::new(&body)?.decided(log.decision_id());
    gw.defer(log);
    Ok(answer)
}

/// Cases of the environment by status, oldest first, with their age and
/// review due time; `overdue=true` keeps those past the 48-hour target.
pub(crate) async fn list_cases(gw: &Gateway, ctx: &Ctx<'_>, Params(query): Params<CaseQuery>) -> ApiResult<Answer<CaseList>> {
    let CaseQuery { status, overdue, kind, min_age_seconds, limit, cursor } = query;
    let status = status.unwrap_or(CaseStatus::Open);
    let (overdue_only, target, now) = gw.review_filter(overdue);
    let mut page = gw.review_page(limit, cursor, min_age_seconds);
    let filter = store::CaseFilter {
        environment: ctx.caller.environment,
        status,
        kind,
        review_target: target,
        overdue_only,
        min_age_seconds: page.min_age_seconds,
        now,
        after: page.after.take(),
        limit: page.read_limit(),
    };
    let mut rows = store::cases(gw.store.as_ref(), filter).await?;
    let (has_more, next_cursor) = page.cut(&mut rows, |c| (c.created_at, c.case_id.clone()));
    // The store pre-selects by the review target; the rules say when each case is due and whether it is overdue.
    let items: Vec<ReviewItem> = rows
        .iter()
        .map(|case| ReviewItem {
            now: now.saturating_add(case.clock_offset_seconds),
            waiting_since: case.created_at,
            due_at: case.review_due_at,
            awaiting: case.status == CaseStatus::Open,
        })
        .collect();
    let states = gw.rules.describe_reviews(&items)?;
    let cases = rows
        .into_iter()
        .zip(items.iter().zip(states))
        .filter(|(_, (_, state))| !overdue_only || state.overdue)
        .map(|(case, (item, state))| CaseRow {
            case_type: case.kind.as_str(),
            overdue: state.overdue,
            age_seconds: item.now.saturating_sub(case.created_at),
            case_id: case.case_id,
            tenant_id: case.tenant_id,
            user_id: case.user_id,
            status: case.status.as_str(),
            match_count: case.match_count,
            highest_match_score: case.highest_score,
            created_at: time::format(case.created_at),
            review_due_at: state.due_at.map(time::format),
        })
        .collect();
    Answer::new(&CaseList { cases, next_cursor, has_more })
}

/// Counts the compliance team watches: open work and what is past its review target.
pub(crate) async fn review_metrics(gw: &Gateway, ctx: &Ctx<'_>, (): ()) -> ApiResult<Answer<ReviewMetrics>> {
    let target = gw.rules.horizons().review_target_seconds;
    let now = gw.clock.now();
    let environment = ctx.caller.environment;
    let open_cases = store::count_open(gw.store.as_ref(), environment, CaseKind::SanctionsHit).await?;
    let open_due_diligence = store::count_open(gw.store.as_ref(), environment, CaseKind::EnhancedDueDiligence).await?;
    let pending_checks = crate::kyc::store::count_pending_review(gw.store.as_ref(), environment).await?;
    // The store pre-selects by the review target; the rules say which are overdue.
    let overdue = |items: Vec<ReviewItem>| -> ApiResult<i64> { Ok(gw.rules.describe_reviews(&items)?.iter().filter(|s| s.overdue).count() as i64) };
    let overdue_cases = overdue(store::overdue_candidates(gw.store.as_ref(), environment, CaseKind::SanctionsHit, target, now).await?)?;
    let overdue_due_diligence =
        overdue(store::overdue_candidates(gw.store.as_ref(), environment, CaseKind::EnhancedDueDiligence, target, now).await?)?;
    let overdue_checks = overdue(crate::kyc::store::overdue_candidates(gw.store.as_ref(), environment, target, now).await?)?;
    let coverage = crate::lists::coverage(gw, environment).await?;
    let count = |keep: fn(&crate::lists::SourceCoverage) -> bool| coverage.iter().filter(|c| keep(c)).count() as i64;
    let body = ReviewMetrics {
        environment: environment.as_str(),
        measured_at: time::format(now),
        review_target_seconds: target,
        sanctions_cases_open: open_cases,
        sanctions_cases_overdue: overdue_cases,
        due_diligence_cases_open: open_due_diligence,
        due_diligence_cases_overdue: overdue_due_diligence,
        kyc_checks_pending_review: pending_checks,
        kyc_checks_overdue: overdue_checks,
        sanctions_lists_required: coverage.len() as i64,
        sanctions_lists_missing: count(|c| c.version.is_none()),
        sanctions_lists_stale: count(|c| c.version.is_some() && c.stale),
        aml: crate::aml::feedback(gw, environment).await?,
    };
    Answer::new(&body)
}

/// The full case, matched entities included: for the compliance team only.
pub(crate) async fn get_case(gw: &Gateway, ctx: &Ctx<'_>, Path(case_id): Path) -> ApiResult<Answer<CaseView>> {
    let case = store::case(gw.store.as_ref(), ctx.caller.environment, &case_id).await?.ok_or_else(case_not_found)?;
    let screened = store::screened_person(gw.store.as_ref(), &case.tenant_id, &case.user_id).await?.map(|p| ScreenedIdentity {
        first_name: p.first_name,
        last_name: p.last_name,
        date_of_birth: p.date_of_birth,
        nationality: p.nationality,
    });
    let body = CaseView {
        screened,
        case_type: case.kind.as_str(),
        matches: stored_json(&case.matches)?,
        case_id: case.case_id,
        tenant_id: case.tenant_id,
        user_id: case.user_id,
        status: case.status.as_str(),
        match_count: case.match_count,
        highest_match_score: case.highest_score,
        reviewer: case.reviewer,
        decided_at: case.decided_at.map(time::format),
        created_at: time::format(case.created_at),
    };
    Answer::new(&body)
}

/// Dismiss (false positive: holds lifted) or confirm (account terminated, funds frozen).
pub(crate) async fn review_case(
    gw: &Gateway,
    ctx: &Ctx<'_>,
    (Path(case_id), Body(Review { decision: action, reviewer })): (Path, Body<Review>),
) -> ApiResult<Answer<Reviewed>> {
    let case_id = case_id.as_str();
    if four_eyes_required(gw, ctx.caller.environment) {
        return Err(crate::error::ApiError::four_eyes_required());
    }
    // A lost race (the case decided, or the user written, since they were
    // read) is decided again from fresh reads.
    until_committed!({
        let case = store::case(gw.store.as_ref(), ctx.caller.environment, case_id).await?.ok_or_else(case_not_found)?;
        let (tenant_id, user_id, case_status) = (case.tenant_id.clone(), case.user_id.clone(), case.status);
        // a case opened before an erasure restricted the player is still decided
        let user = crate::users::store::find_case_subject(gw.store.as_ref(), &tenant_id, &user_id).await?.ok_or_else(ApiError::internal)?;
        let scope = Scope { environment: ctx.caller.environment, tenant_id: tenant_id.clone(), user_id: user_id.clone() };
        let facts = CaseReviewFacts { case_status, action, case_kind: case.kind };
        let (decision, log) = gw.decide(&scope, Operation::CaseReview, &facts, |r, f| r.decide_case_review(f))?;
        let reply = |status: Option<SanctionsStatus>| -> ApiResult<Answer<Reviewed>> {
            let status = status.unwrap_or(user.sanctions_status);
            let body = Reviewed {
                case_id: case_id.to_string(),
                user_id: user_id.clone(),
                decision: action.as_str(),
                status: status.as_str(),
                reviewer: reviewer.clone(),
            };
            Ok(Answer::new(&body)?.decided(log.decision_id()))
        };
        let outcome = match decision {
            CaseReviewDecision::Repeat(outcome) => {
                gw.defer(log.clone());
                return reply(outcome.user_status).map(Some);
            }
            CaseReviewDecision::AlreadyDecided(status) => {
                let error = ApiError::conflict("case_already_decided", format!("the case was already {}", status.as_str()));
                let error = error_with_decision(error, &log);
                gw.defer(log);
                return Err(error);
            }
            CaseReviewDecision::Apply(outcome) => outcome,
        };
        let mut statements = vec![log.statement()];
        statements.extend(review_statements(gw, ctx.caller.environment, &case, &user, &outcome, &reviewer, ctx.now)?);
        if gw.commit(statements).await?.done() {
            return reply(outcome.user_status).map(Some);
        }
        Ok(None)
    })
}

fn four_eyes_required(gw: &Gateway, environment: Environment) -> bool {
    gw.config.four_eyes.applies_to(environment)
}

/// The statements of a review the rules applied: the case decided, the
/// dismissed matches remembered, the user's status claimed and set, the events.
fn review_statements(
    gw: &Gateway,
    environment: Environment,
    case: &store::Case,
    user: &User,
    outcome: &rules_model::CaseReviewOutcome,
    reviewer: &str,
    now: i64,
) -> ApiResult<Vec<Stmt>> {
    let (case_id, tenant_id, user_id) = (case.case_id.as_str(), case.tenant_id.as_str(), case.user_id.as_str());
    let mut statements = vec![store::decide_case(case_id, outcome.case_status, reviewer, now)];
    if outcome.remember_matches {
        statements.extend(store::remember_dismissed(tenant_id, user_id, case_id, &case.matches, now)?);
    }
    match outcome.user_status {
        Some(status) => statements.push(store::set_status(tenant_id, user_id, status, user.version, now)),
        // a review that changes no status (due diligence) still writes the user's case: it claims the user
        None => statements.push(crate::users::store::claim(tenant_id, user_id, user.version, now)),
    }
    let (case_id, user_id, reviewer) = (case_id.to_string(), user_id.to_string(), reviewer.to_string());
    for event in &outcome.events {
        let (tenant, held) = (Some(tenant_id), outcome.transactions_held);
        statements.push(match event {
            EventKind::SanctionsAccountFrozen => {
                let data = AccountFrozenData { case_id: case_id.clone(), user_id: user_id.clone(), funds_frozen: true };
                gw.event(environment, tenant, *event, now, &data)
            }
            EventKind::SanctionsConfirmed => {
                let data = SanctionsConfirmedData {
                    case_id: case_id.clone(),
                    user_id: user_id.clone(),
                    reviewer: reviewer.clone(),
                    transactions_held: held,
                    account_terminated: true,
                };
                gw.event(environment, tenant, *event, now, &data)
            }
            _ => {
                let data =
                    SanctionsClearedData { case_id: case_id.clone(), user_id: user_id.clone(), reviewer: reviewer.clone(), transactions_held: held };
                gw.event(environment, tenant, *event, now, &data)
            }
        });
    }
    Ok(statements)
}

/// A sanctions or due-diligence case as the case file sees it.
pub(crate) use store::Case as SanctionsCase;

pub(crate) async fn sanctions_case(gw: &Gateway, environment: Environment, case_id: &str) -> ApiResult<Option<SanctionsCase>> {
    store::case(gw.store.as_ref(), environment, case_id).await
}

/// When a case's user's screening last brought new evidence (a pending proposal made before is dropped).
pub(crate) async fn evidence_at(gw: &Gateway, case: &SanctionsCase) -> ApiResult<Option<i64>> {
    store::evidence_at(gw.store.as_ref(), &case.tenant_id, &case.user_id).await
}

/// An approved decision on an open case, through the rules, with `extra`
/// (the case file's statements) in the same batch: the decision's log and
/// the user's status after it; `None` when the batch lost a race. A case no
/// longer open is 409 `invalid_state`.
pub(crate) async fn apply_case_decision(
    gw: &Gateway,
    environment: Environment,
    case: &SanctionsCase,
    action: ReviewAction,
    reviewer: &str,
    now: i64,
    extra: Vec<Stmt>,
) -> ApiResult<Option<(DecisionLog, SanctionsStatus)>> {
    let user = crate::users::store::find_case_subject(gw.store.as_ref(), &case.tenant_id, &case.user_id).await?.ok_or_else(ApiError::internal)?;
    let scope = Scope { environment, tenant_id: case.tenant_id.clone(), user_id: case.user_id.clone() };
    let facts = CaseReviewFacts { case_status: case.status, action, case_kind: case.kind };
    let (decision, log) = gw.decide(&scope, Operation::CaseReview, &facts, |r, f| r.decide_case_review(f))?;
    let CaseReviewDecision::Apply(outcome) = decision else {
        gw.defer(log.clone());
        return Err(error_with_decision(ApiError::conflict("invalid_state", "the case is no longer open"), &log));
    };
    let mut statements = vec![log.statement()];
    statements.extend(review_statements(gw, environment, case, &user, &outcome, reviewer, now)?);
    statements.extend(extra);
    let status = outcome.user_status.unwrap_or(user.sanctions_status);
    Ok(gw.commit(statements).await?.then_some((log, status)))
}

fn case_not_found() -> ApiError {
    ApiError::not_found("case_not_found", "no such sanctions case")
}

/// A user due a periodic re-screen, with their tenant's now.
#[derive(Clone)]
pub(crate) struct DueRescreenWork {
    pub environment: Environment,
    pub tenant_id: String,
    pub user_id: String,
    pub now: i64,
    /// the whole screening the round found due
    pub whole_screened_at: i64,
}

/// Clear or cleared users screened a quarter ago or more, with the facts
/// the rules decide from. Production users are re-screened once a list or
/// a screening vendor is there to screen them.
pub(crate) async fn due_rescreens(gw: &Gateway, now: i64) -> ApiResult<Vec<(DueRescreenWork, DueUser)>> {
    let after = gw.rules.horizons().rescreen_after_seconds;
    let due = store::due_rescreens(gw.store.as_ref(), now, after, gw.config.work.scheduled_batch, production_screens_without_lists(gw)).await?;
    Ok(due
        .into_iter()
        .map(|u| {
            let tenant_now = now.saturating_add(u.clock_offset_seconds);
            let facts = DueUser { now: tenant_now, status: u.status, last_screened_at: u.whole_screened_at };
            (
                DueRescreenWork {
                    environment: u.environment,
                    tenant_id: u.tenant_id,
                    user_id: u.user_id,
                    now: tenant_now,
                    whole_screened_at: u.whole_screened_at,
                },
                facts,
            )
        })
        .collect())
}

/// Whether production can screen with no list imported: a screening vendor
/// (yente) proposes candidates, or the stub vendors stand in.
fn production_screens_without_lists(gw: &Gateway) -> bool {
    gw.config.production_vendors_configured || gw.config.production_screening_vendor.is_some()
}

/// A re-screen of one user that failed (a vendor down, a store error): the
/// scheduled round counts it and goes on with the others; the user stays
/// due and is tried again in a later round.
pub(crate) fn rescreen_failed(error: &ApiError) {
    tracing::warn!(target: "scheduler", status = error.status, code = error.code, "a scheduled re-screen failed; the round goes on");
}

/// Screens again, once, every clear or cleared user last screened before
/// the live rules version was first seen live: a new version may read names
/// differently, and a name it would find must not wait a quarter. At most
/// `batch` users a round, those screened longest ago first; a re-screen
/// moves the user's last screening past the version's start, so each user
/// is screened once a version. Answers how many were screened and how many failed.
pub(crate) async fn rescreen_after_rules_change(gw: &Gateway, batch: i64) -> ApiResult<(usize, usize)> {
    let now = gw.clock.now();
    let sha256 = gw.rules.identity().component_sha256;
    let live_since = match store::rules_live_since(gw.store.as_ref(), &sha256).await? {
        Some(at) => at,
        None => {
            gw.store.batch(vec![store::note_rules_live(&sha256, now)]).await?;
            store::rules_live_since(gw.store.as_ref(), &sha256).await?.unwrap_or(now)
        }
    };
    let users = store::screened_before(gw.store.as_ref(), &sha256, live_since, batch, production_screens_without_lists(gw)).await?;
    let (mut screened, mut failed) = (0, 0);
    for user in &users {
        let tenant_now = match user.environment {
            Environment::Sandbox => now.saturating_add(user.clock_offset_seconds),
            Environment::Production => now,
        };
        match rescreen_user(gw, &user.tenant_id, &user.user_id, tenant_now, Entries::All, After::Since(user.whole_screened_at)).await {
            Ok(Some(_)) => screened += 1,
            Ok(None) => {}
            Err(error) => {
                rescreen_failed(&error);
                failed += 1;
            }
        }
    }
    Ok((screened, failed))
}

/// Which screening a scheduled re-screen follows: the whole screening whose
/// time the round read (`Since`), checked again on each fresh read, so a user
/// another host re-screened whole since is passed over (a list update's
/// re-screen in between is not whole: the user is still screened); or any
/// (`Any`: a claimed batch, or an admin's ask).
#[derive(Debug, Clone, Copy)]
pub(crate) enum After {
    Any,
    Since(i64),
}

/// Screens a user again; a new hit holds their transactions and opens a
/// case exactly as at signup. Returns whether it was a hit, or `None` when
/// the user was screened again since the round read them (`after`).
/// `entries` names the list entries to screen against: all of them, or
/// those one import changed (the re-screen after a list update).
pub(crate) async fn rescreen_user(
    gw: &Gateway,
    tenant_id: &str,
    user_id: &str,
    now: i64,
    entries: Entries<'_>,
    after: After,
) -> ApiResult<Option<bool>> {
    until_committed!({
        // a restricted player (an erasure asked) is held, not processed: never re-screened, answered as unknown
        let who = store::screened_person(gw.store.as_ref(), tenant_id, user_id)
            .await?
            .filter(|who| !who.restricted)
            .ok_or_else(ApiError::user_not_found)?;
        if matches!(after, After::Since(seen) if seen != who.whole_screened_at) {
            // done: passed over (`Ok(None)` here would be a lost race, read again)
            return Ok(Some(None));
        }
        let environment = who.environment;
        let name = format!("{} {}", who.first_name, who.last_name);
        let person = Person { name: &name, date_of_birth: &who.date_of_birth, nationality: &who.nationality };
        let scope = crate::tenants::store::screening_scope(gw.store.as_ref(), tenant_id).await?;
        let (candidates, sources) = gw.screening_candidates(environment, &person, entries, scope, None).await?;
        let facts = ScreeningFacts {
            now,
            environment,
            first_name: who.first_name.clone(),
            last_name: who.last_name.clone(),
            date_of_birth: who.date_of_birth.clone(),
            nationality: who.nationality.clone(),
            current: Some(who.status),
            candidates,
            hit_threshold: gw.config.hit_threshold(environment),
            sources,
            scope,
            due_diligence_open: store::due_diligence_open(gw.store.as_ref(), tenant_id, user_id).await?,
            dismissed: store::dismissed_matches(gw.store.as_ref(), tenant_id, user_id).await?,
        };
        let scope = Scope { environment, tenant_id: tenant_id.to_string(), user_id: user_id.to_string() };
        let (decision, log) = gw.decide(&scope, Operation::Screening, &facts, |r, f| r.decide_screening(f))?;
        let mut statements = vec![log.statement()];
        let hit = decision.opens_case && decision.case_kind == CaseKind::SanctionsHit;
        let rules = gw.rules.identity().component_sha256;
        let stamp = match entries {
            Entries::All => store::Stamp::Whole { rules: &rules },
            // new evidence for the user's cases: a changed entry resembling the user (a candidate: the rules
            // score none for a user under review), or an entry a case matched changed or went
            Entries::ChangedIn(list_id) => {
                let mut new_evidence = !facts.candidates.is_empty() || !decision.matches.is_empty();
                // only a user with an open case has matches to compare
                let case_open = who.status == SanctionsStatus::HitReviewPending || facts.due_diligence_open;
                for source in facts.sources.iter().filter(|_| case_open) {
                    if !new_evidence {
                        new_evidence = store::matched_entity_changed(gw.store.as_ref(), tenant_id, user_id, list_id, &source.source).await?;
                    }
                }
                store::Stamp::ChangedEntries { new_evidence }
            }
        };
        let case_statements = if decision.opens_case {
            let (case_id, case_statements) = open_case(gw, &scope, &decision, &facts.sources, &who.screen_id, now);
            statements.push(match hit {
                true => store::record_rescreen_hit(tenant_id, user_id, who.version, decision.status, &case_id, now, stamp),
                false => store::record_rescreen(tenant_id, user_id, who.version, now, stamp),
            });
            case_statements
        } else {
            statements.push(store::record_rescreen(tenant_id, user_id, who.version, now, stamp));
            Vec::new()
        };
        statements.extend(case_statements);
        Ok(gw.commit(statements).await?.then_some(Some(hit)))
    })
}

/// On-demand re-screen of one user or of every active user of a tenant.
pub(crate) async fn rescreen(
    gw: &Gateway,
    ctx: &Ctx<'_>,
    Body(RescreenBody { tenant_id, user_id }): Body<RescreenBody>,
) -> ApiResult<Answer<Rescreened>> {
    let offset = crate::tenants::store::operator_clock_offset(gw.store.as_ref(), &tenant_id, ctx.caller.environment)
        .await?
        .ok_or_else(|| ApiError::not_found("tenant_not_found", "no such tenant in this environment"))?;
    ensure_screening_available(gw, ctx.caller.environment).await?;
    let users = match user_id {
        Some(u) => vec![u],
        None => store::unheld_users(gw.store.as_ref(), &tenant_id).await?,
    };
    let now = gw.clock.now() + offset;
    let mut hits = 0;
    for user in &users {
        hits += usize::from(rescreen_user(gw, &tenant_id, user, now, Entries::All, After::Any).await?.unwrap_or(false));
    }
    Answer::new(&Rescreened { tenant_id, rescreened: users.len(), new_hits: hits })
}
