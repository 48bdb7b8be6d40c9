//! The exclusions area: the shared self-exclusion list (registration, the
//! live check, the snapshot), the regulator's import and export. The
//! area's SQL is in [`store`].

pub mod store;

use rules_model::{
    DueExclusion, ExclusionDecision, ExclusionDuration, ExclusionFacts, ExclusionStatusFacts, ExclusionTerm, Operation, RegulatorEntry,
    RegulatorImportFacts, UserExclusion,
};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value as Json};
use utoipa::{IntoParams, ToSchema};

use crate::api::stored_json;
use crate::auth::Environment;
use crate::decisions::{error_with_decision, Scope};
use crate::error::{ApiError, ApiResult};
use crate::input::{email_key, normalize_email, parse_text, phone_region, read_phone, Fields, Limit, PhoneError, INVALID_CURSOR, INVALID_FIELD};
use crate::input::{Body, FromBody, Params};
use crate::openapi::answer::{Answer, Created};
use crate::openapi::shared::{shared_schema, Duration, Email, Phone, Timestamp};
use crate::openapi::OperationDoc;
use crate::ports::ReadFrom;
use crate::webhooks::events::{ExclusionData, ExclusionExpiredData};
use crate::{time, Ctx, Gateway, MAX_CLOCK_SKEW_SECONDS};
use store::{Contacts, NewExclusion, Source};

const DEFAULT_PAGE: i64 = 100;
const MAX_PAGE: i64 = 1000;

/// Who asked for an exclusion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = ExclusionReason)]
enum Reason {
    SelfInitiated,
    OperatorInitiated,
}

impl Reason {
    fn as_str(self) -> &'static str {
        match self {
            Reason::SelfInitiated => "self_initiated",
            Reason::OperatorInitiated => "operator_initiated",
        }
    }

    fn parse(text: &str) -> Option<Reason> {
        [Reason::SelfInitiated, Reason::OperatorInitiated].into_iter().find(|r| r.as_str() == text)
    }
}

/// The body of `POST /v1/exclusions`; at least one of email and phone
/// (the user's own e-mail address stands in for a missing one).
#[derive(ToSchema)]
#[schema(description = "at least one of email and phone")]
pub(crate) struct Registration {
    #[schema(min_length = 1, max_length = 256)]
    user_id: String,
    #[schema(value_type = Option<Email>)]
    email: Option<String>,
    #[schema(value_type = Option<Phone>)]
    phone: Option<crate::input::Phone>,
    #[schema(value_type = Duration)]
    duration: ExclusionDuration,
    reason: Reason,
    /// checked against the service's clock, which decides the exclusion's start
    #[schema(value_type = Timestamp)]
    #[allow(dead_code)]
    initiated_at: i64,
}

impl FromBody for Registration {
    fn from_body(body: &[u8], gw: &Gateway, ctx: &Ctx<'_>) -> ApiResult<Self> {
        let now = ctx.now;
        let mut f = Fields::from_body(body, gw.rules.as_ref())?;
        let user_id = f.text("user_id");
        let raw_email = f.opt_text("email");
        let raw_phone = f.opt_text("phone");
        let duration_text = f.code("duration");
        let reason_text = f.code("reason");
        let initiated_at = f.timestamp("initiated_at");
        let email = raw_email.as_deref().and_then(normalize_email);
        let phone = raw_phone.as_deref().map(|p| read_phone(p, phone_region(&ctx.caller.jurisdiction))).transpose();
        if raw_email.is_some() && email.is_none() {
            f.reject("invalid_field", "email must be an e-mail address");
        }
        if phone == Err(PhoneError::NotAPhone) {
            f.reject("invalid_field", "phone must be a phone number of 7 to 15 digits");
        }
        let duration = ExclusionDuration::parse(&duration_text);
        if !duration_text.is_empty() && duration.is_none() {
            f.reject(
                "unsupported_duration",
                "duration must be one of duration_24h, duration_7d, duration_30d, duration_6m, duration_1y, duration_permanent",
            );
        }
        let reason = Reason::parse(&reason_text);
        if !reason_text.is_empty() && reason.is_none() {
            f.reject("unsupported_reason", "reason must be self_initiated or operator_initiated");
        }
        check_skew(&mut f, "initiated_at", initiated_at, now);
        f.finish()?;
        // a number of the shape of one that cannot be read is 422, after every other field's 400
        let phone = phone.map_err(|e| e.error("phone"))?;
        match (duration, reason) {
            (Some(duration), Some(reason)) => Ok(Registration { user_id, email, phone, duration, reason, initiated_at }),
            _ => Err(ApiError::internal()),
        }
    }
}

/// The answer to a registration, stored and answered again on a repeat.
#[derive(Serialize, ToSchema)]
#[schema(as = ExclusionRegistered)]
pub(crate) struct Registered<'a> {
    exclusion_id: &'a str,
    user_id: &'a str,
    #[schema(value_type = Duration)]
    duration: &'static str,
    #[schema(value_type = Timestamp)]
    effective_from: String,
    /// `null` for a permanent exclusion
    #[schema(value_type = Option<Timestamp>, required)]
    expires_at: Option<String>,
    is_permanent: bool,
    /// whether the exclusion reached the regulator's register
    regulator_propagated: bool,
    /// whether it goes to the regulator's register at the next export
    #[schema(required = false)]
    regulator_eligible: bool,
    /// where the registration stands in the store's history, on a host that
    /// reads checks from replicas (the edge); a check that echoes it as its
    /// `bookmark` parameter sees this exclusion at once. Opaque; never stored.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(required = false)]
    bookmark: Option<String>,
}

/// The query of `GET /v1/exclusions/check`: at least one of email and phone.
#[derive(Deserialize, IntoParams)]
pub(crate) struct CheckQuery {
    /// at least one of email and phone
    #[param(value_type = Email, required = false, inline)]
    email: Option<EmailAddress>,
    #[param(value_type = Phone, required = false, inline)]
    phone: Option<PhoneNumber>,
    /// the `bookmark` of a registration's answer: the check then sees that
    /// exclusion at once; without it, every exclusion is seen within 1 s of
    /// its registration, from any host
    #[param(value_type = Option<String>, required = false, max_length = 128, pattern = "^[0-9A-Za-z-]+$")]
    bookmark: Option<Bookmark>,
}

/// An e-mail address, normalised ([`normalize_email`]).
struct EmailAddress(String);

impl<'de> Deserialize<'de> for EmailAddress {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        parse_text(deserializer, INVALID_FIELD, |text| normalize_email(text).map(EmailAddress).ok_or_else(|| "must be an e-mail address".into()))
    }
}

/// A phone number of the shape of one, as given: the check reads it in the
/// tenant's jurisdiction ([`read_phone`]).
struct PhoneNumber(String);

impl<'de> Deserialize<'de> for PhoneNumber {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        parse_text(deserializer, INVALID_FIELD, |text| match read_phone(text, None) {
            Err(PhoneError::NotAPhone) => Err("must be a phone number of 7 to 15 digits".into()),
            _ => Ok(PhoneNumber(text.to_string())),
        })
    }
}

/// A registration's bookmark, as stores give them.
struct Bookmark(String);

impl<'de> Deserialize<'de> for Bookmark {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        parse_text(deserializer, INVALID_FIELD, |text| {
            valid_bookmark(text).map(|b| Bookmark(b.to_string())).ok_or_else(|| "must be the bookmark a registration answered".into())
        })
    }
}

/// Whether an address is excluded; with the most restrictive exclusion when it is.
#[derive(Serialize, ToSchema)]
pub(crate) struct CheckResult {
    is_excluded: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(required = false)]
    exclusion_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Duration, required = false)]
    duration: Option<String>,
    /// present when excluded: `null` for a permanent exclusion
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Timestamp>, required = false)]
    expires_at: Option<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(required = false)]
    is_permanent: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(required = false)]
    source: Option<String>,
}

/// The query of `GET /v1/exclusions/snapshot`.
#[derive(Deserialize, IntoParams)]
pub(crate) struct SnapshotQuery {
    /// opaque, from next_cursor
    #[param(value_type = Option<String>)]
    cursor: Option<SnapshotCursor>,
    /// page size, default 100
    #[param(inline)]
    limit: Option<SnapshotLimit>,
    /// `daily` for the 03:00 UTC snapshot instead of the live list
    #[param(inline)]
    snapshot: Option<SnapshotKind>,
}

/// The `limit` of a snapshot page: 1 to 1000.
type SnapshotLimit = Limit<MAX_PAGE>;

/// Which list a snapshot page reads.
#[derive(Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
enum SnapshotKind {
    Live,
    Daily,
}

/// A snapshot page's cursor: the sequence number of the last row served (400 `invalid_cursor`).
struct SnapshotCursor(i64);

impl<'de> Deserialize<'de> for SnapshotCursor {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        parse_text(deserializer, INVALID_CURSOR, |text| {
            decode_cursor(text).map(SnapshotCursor).ok_or_else(|| "is not one this service issued".into())
        })
    }
}

/// An active exclusion on the shared list.
#[derive(Serialize, Deserialize, ToSchema)]
#[schema(as = ExclusionRow)]
struct ListedExclusion {
    exclusion_id: String,
    #[schema(required)]
    user_email: Option<String>,
    #[schema(required)]
    user_phone: Option<String>,
    #[schema(value_type = Duration)]
    duration: String,
    #[schema(value_type = Timestamp)]
    effective_from: String,
    #[schema(value_type = Option<Timestamp>, required)]
    expires_at: Option<String>,
    is_permanent: bool,
    source: String,
}

/// What the daily snapshot held when it was taken.
#[derive(Serialize, Deserialize, ToSchema)]
struct DailySnapshot {
    snapshot_date: String,
    #[schema(value_type = Timestamp)]
    taken_at: String,
    active_count: i64,
}

/// A page of a daily snapshot as the page cache keeps it.
#[derive(Deserialize)]
struct CachedPage {
    page: SnapshotPage,
    decision_id: String,
}

/// A page of the shared list.
#[derive(Serialize, Deserialize, ToSchema)]
pub(crate) struct SnapshotPage {
    exclusions: Vec<ListedExclusion>,
    #[schema(required)]
    next_cursor: Option<String>,
    has_more: bool,
    /// with `snapshot=daily`, the snapshot read
    #[schema(required = false)]
    daily_snapshot: Option<DailySnapshot>,
    #[serde(default)]
    #[schema(value_type = Timestamp, required = false)]
    generated_at: String,
}

shared_schema!(
    /// One entry of a regulator import.
    RegulatorImportEntry => crate::openapi::shared::from_json(json!({
        "type": "object",
        "properties": {
            "email": { "oneOf": [{ "$ref": "#/components/schemas/Email" }, { "type": "null" }] },
            "phone": { "oneOf": [{ "$ref": "#/components/schemas/Phone" }, { "type": "null" }] },
            "reference": { "type": ["string", "null"], "minLength": 1, "maxLength": 256 },
        },
        "anyOf": [{ "required": ["email"] }, { "required": ["phone"] }],
    }))
);

/// The body of a regulator import.
#[derive(ToSchema)]
pub(crate) struct RegulatorImport {
    // each entry's e-mail address and phone, with their keys, and its reference
    #[schema(value_type = Vec<RegulatorImportEntry>, min_items = 1, max_items = 1000)]
    entries: Vec<(Contacts, Option<String>)>,
}

impl RegulatorImport {
    /// Reads an import of at most `most` entries, each with a valid e-mail
    /// address or phone, a national-format phone read in `region`.
    fn parse(body: &[u8], most: usize, region: Option<phonenumber::country::Id>) -> ApiResult<Self> {
        let object = crate::input::parse_json_object(body)?;
        let entries = object.get("entries").and_then(Json::as_array).filter(|a| !a.is_empty() && a.len() <= most).ok_or_else(|| {
            ApiError::bad_request("invalid_field", format!("entries must be an array of 1 to {most} objects with email and/or phone"))
        })?;
        let mut parsed = Vec::new();
        for (i, entry) in entries.iter().enumerate() {
            let field = |name: &str| entry.get(name).and_then(Json::as_str).map(str::trim).filter(|s| !s.is_empty());
            let email = field("email").map(|e| normalize_email(e).ok_or(i)).transpose();
            let phone = field("phone").map(|p| read_phone(p, region)).transpose();
            match (email, phone) {
                (_, Err(PhoneError::Unreadable)) => {
                    return Err(ApiError::unprocessable(crate::input::UNREADABLE_PHONE, format!("entries[{i}].phone {}", PhoneError::UNREADABLE)));
                }
                (Ok(None), Ok(None)) | (Err(_), _) | (_, Err(_)) => {
                    return Err(ApiError::bad_request("invalid_field", format!("entries[{i}] needs a valid email or phone")));
                }
                (Ok(email), Ok(phone)) => parsed.push((Contacts::of(email.as_deref(), phone.as_ref()), field("reference").map(str::to_string))),
            }
        }
        Ok(RegulatorImport { entries: parsed })
    }
}

impl FromBody for RegulatorImport {
    fn from_body(body: &[u8], gw: &Gateway, ctx: &Ctx<'_>) -> ApiResult<Self> {
        RegulatorImport::parse(body, gw.config.work.regulator_import_entries, phone_region(&ctx.caller.jurisdiction))
    }
}

/// What a regulator import did.
#[derive(Serialize, ToSchema)]
pub struct RegulatorImported {
    imported: usize,
    /// entries the regulator had already excluded
    skipped: usize,
    exclusion_ids: Vec<String>,
    /// the logged rules decision
    decision_id: String,
}

/// An exclusion as the regulator's register takes it.
#[derive(Serialize, ToSchema)]
#[schema(as = ExportedExclusion)]
struct Exported {
    exclusion_id: String,
    #[schema(required)]
    user_email: Option<String>,
    #[schema(required)]
    user_phone: Option<String>,
    #[schema(value_type = Duration)]
    duration: String,
    #[schema(value_type = Timestamp)]
    effective_from: String,
    #[schema(value_type = Option<Timestamp>, required)]
    expires_at: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct Export {
    exported: usize,
    #[schema(value_type = Timestamp)]
    exported_at: String,
    exclusions: Vec<Exported>,
}

pub(crate) fn register_doc() -> OperationDoc {
    OperationDoc::new("exclusions", "register a self-exclusion")
        .describe("At least one of `email` and `phone` is required. Every operator of the environment is told by webhook.")
        .or_200("a repeat of the same registration: the original result")
        .errors(&[404, 409, 422])
}

pub(crate) fn check_doc() -> OperationDoc {
    OperationDoc::new("exclusions", "whether an e-mail address or phone is excluded, across operators")
        .describe("A phone is read in the tenant's jurisdiction and compared as E.164; an e-mail address by its mailbox (see `Email`). `422 unreadable_phone` when the phone cannot be read.")
        .errors(&[422])
}

pub(crate) fn snapshot_doc() -> OperationDoc {
    OperationDoc::new("exclusions", "active exclusions, paginated, for reconciliation")
}

pub(crate) fn import_from_regulator_doc() -> OperationDoc {
    OperationDoc::new("admin", "import exclusions made through the regulator's form").errors(&[409, 422])
}

pub(crate) fn export_to_regulator_doc() -> OperationDoc {
    OperationDoc::new("admin", "propagate eligible exclusions to the regulator's list").errors(&[409])
}

pub(crate) fn check_skew(f: &mut Fields, name: &'static str, sent: i64, now: i64) {
    if sent != 0 && (sent - now).abs() > MAX_CLOCK_SKEW_SECONDS {
        f.reject(
            "timestamp_out_of_range",
            format!("{name} must be within {MAX_CLOCK_SKEW_SECONDS} seconds of the service clock ({})", time::format(now)),
        );
    }
}

impl Gateway {
    /// Imports a regulator list given as `{"entries": [{email?, phone?, reference?}]}`,
    /// for the `regulator-import` command (the service tenant has no
    /// jurisdiction: phones are international).
    pub async fn import_regulator_file(&self, environment: crate::auth::Environment, body: &[u8]) -> ApiResult<RegulatorImported> {
        let service_tenant = format!("svc_{}", environment.as_str());
        let import = RegulatorImport::parse(body, self.config.work.regulator_import_entries, None)?;
        self.import_regulator_list(environment, &service_tenant, self.clock.now(), import).await
    }

    async fn import_regulator_list(
        &self,
        environment: crate::auth::Environment,
        importer: &str,
        now: i64,
        RegulatorImport { entries: parsed }: RegulatorImport,
    ) -> ApiResult<RegulatorImported> {
        // Each new entry claims its e-mail and phone in the batch that inserts
        // it: an import that lost the claim to a concurrent one is recomputed
        // from fresh reads, which find that import's exclusions.
        until_committed!({ self.import_regulator_entries(environment, importer, now, &parsed).await })
    }

    /// One attempt at an import's entries: `None` when its batch lost a race.
    async fn import_regulator_entries(
        &self,
        environment: crate::auth::Environment,
        importer: &str,
        now: i64,
        parsed: &[(Contacts, Option<String>)],
    ) -> ApiResult<Option<RegulatorImported>> {
        // One read per entry, all in one round trip.
        let reads = parsed.iter().map(|(contacts, _)| store::read_regulator_terms(environment, contacts)).collect();
        let mut entries = Vec::with_capacity(parsed.len());
        for rows in self.store.query_many(reads).await? {
            let existing_regulator = store::terms_at(&rows, 1)?;
            entries.push(RegulatorEntry { existing_regulator });
        }
        let facts = RegulatorImportFacts { now, entries };
        let scope = Scope { environment, tenant_id: importer.to_string(), user_id: String::new() };
        let (outcomes, log) = self.decide(&scope, Operation::RegulatorImport, &facts, |r, f| r.decide_regulator_import(f))?;
        let (mut imported, mut skipped) = (Vec::new(), 0);
        let mut statements = vec![log.statement()];
        // an identifier an earlier entry of this file claims is that entry's exclusion
        let mut claimed = std::collections::HashSet::new();
        for ((contacts, reference), outcome) in parsed.iter().zip(&outcomes) {
            let identifiers = store::RegulatorIdentifier::of(contacts);
            if !outcome.is_new || identifiers.iter().any(|i| claimed.contains(i)) {
                skipped += 1;
                continue;
            }
            let exclusion_id = self.new_id("exc");
            for identifier in identifiers {
                statements.push(store::claim_regulator_identifier(environment, &identifier, &exclusion_id));
                claimed.insert(identifier);
            }
            let event_data = ExclusionData {
                exclusion_id: exclusion_id.clone(),
                user_id: None,
                user_email: contacts.email.clone(),
                user_phone: contacts.phone.clone(),
                duration: Some(outcome.duration.as_str().to_string()),
                is_permanent: outcome.is_permanent,
                expires_at: outcome.expires_at.map(time::format),
                source: Source::Regulator.as_str().to_string(),
            };
            let data = to_json(&event_data)?;
            statements.push(store::next_seq());
            statements.push(store::insert(NewExclusion {
                exclusion_id: &exclusion_id,
                environment,
                tenant_id: importer,
                user_id: None,
                contacts: contacts.clone(),
                duration: outcome.duration,
                reason: reference.clone().unwrap_or_else(|| "regulator_form".to_string()),
                source: Source::Regulator,
                effective_from: now,
                expires_at: outcome.expires_at,
                regulator_propagated: true,
                regulator_eligible: true,
                response: data.to_string(),
            }));
            for event in &outcome.events {
                statements.push(self.event(environment, None, *event, now, &event_data));
            }
            imported.push(exclusion_id);
        }
        if !self.commit(statements).await?.done() {
            return Ok(None);
        }
        Ok(Some(RegulatorImported { imported: imported.len(), skipped, exclusion_ids: imported, decision_id: log.decision_id().to_string() }))
    }

    /// Every exclusion of the user at this tenant, oldest first; the rules decide which are active.
    async fn user_exclusions(&self, ctx: &Ctx<'_>, user_id: &str) -> ApiResult<Vec<store::UserExclusionRow>> {
        store::of_user(self.store.as_ref(), &ctx.caller.tenant_id, user_id).await
    }

    /// The most restrictive active exclusion of an e-mail or phone on the
    /// shared list of the environment: every tenant sees every tenant's
    /// exclusions at once, compared with the caller's own clock.
    pub(crate) async fn find_exclusion(&self, ctx: &Ctx<'_>, contacts: &Contacts, after: Option<&str>) -> ApiResult<Answer<CheckResult>> {
        let rows = self.fenced_matching(ctx.caller.environment, contacts, after).await?;
        let facts = ExclusionStatusFacts { now: ctx.now, exclusions: rows.iter().map(|r| ExclusionTerm { expires_at: r.expires_at }).collect() };
        let scope = Scope::of(ctx, "");
        let (status, log) = self.decide(&scope, Operation::ExclusionStatus, &facts, |r, f| r.describe_exclusions(f))?;
        let body = match status.most_restrictive.map(|i| rows.get(i as usize).ok_or_else(ApiError::internal)).transpose()? {
            None => CheckResult { is_excluded: false, exclusion_id: None, duration: None, expires_at: None, is_permanent: None, source: None },
            Some(row) => CheckResult {
                is_excluded: true,
                exclusion_id: Some(row.exclusion_id.clone()),
                duration: Some(row.duration.clone()),
                expires_at: Some(row.expires_at.map(time::format)),
                is_permanent: Some(row.expires_at.is_none()),
                source: Some(row.source.clone()),
            },
        };
        let answer = Answer::new(&body)?.decided(log.decision_id());
        self.defer(log);
        Ok(answer)
    }

    /// The exclusions naming the e-mail or phone, read near the caller behind
    /// the freshness fence: a replica's answer is used only when the
    /// heartbeat read in the same batch is younger than [`FENCE_MS`];
    /// otherwise (or when the replica fails) the same batch goes to the primary.
    async fn fenced_matching(&self, environment: Environment, contacts: &Contacts, after: Option<&str>) -> ApiResult<Vec<store::Matching>> {
        let reads = vec![store::read_matching(environment, contacts)];
        let rows = match self.store.query_near(store::read_heartbeat(), reads.clone(), after).await {
            Ok(near) if fresh(&near.from)? => near.rows,
            _ => self.store.query_many(reads).await?,
        };
        store::matching(rows.first().ok_or_else(ApiError::internal)?)
    }

    /// Writes a replication heartbeat; see [`beat`].
    pub async fn beat(&self, now_ms: i64) -> ApiResult<()> {
        beat(self.store.as_ref(), now_ms).await
    }

    /// One page of active exclusions with `seq` in `(after, through_seq]`, as active at `active_at`.
    async fn snapshot_page(
        &self,
        ctx: &Ctx<'_>,
        after: i64,
        limit: i64,
        through_seq: i64,
        active_at: i64,
        daily: Option<DailySnapshot>,
    ) -> ApiResult<(SnapshotPage, String)> {
        let rows = store::page(self.store.as_ref(), ctx.caller.environment, after, through_seq, active_at, limit + 1).await?;
        let has_more = rows.len() as i64 > limit;
        let page = &rows[..rows.len().min(limit as usize)];
        // The store pre-selects candidates; the rules decide which are active.
        let facts = ExclusionStatusFacts { now: active_at, exclusions: page.iter().map(|r| ExclusionTerm { expires_at: r.expires_at }).collect() };
        let (status, log) = self.decide(&Scope::of(ctx, ""), Operation::ExclusionStatus, &facts, |r, f| r.describe_exclusions(f))?;
        let decision_id = log.decision_id().to_string();
        self.defer(log);
        let mut items = Vec::new();
        let mut last = page.last().map_or(after, |r| r.seq);
        for row in status.active.iter().filter_map(|i| page.get(*i as usize)) {
            last = last.max(row.seq);
            items.push(ListedExclusion {
                exclusion_id: row.exclusion_id.clone(),
                user_email: row.email.clone(),
                user_phone: row.phone.clone(),
                duration: row.duration.clone(),
                effective_from: time::format(row.effective_from),
                expires_at: row.expires_at.map(time::format),
                is_permanent: row.expires_at.is_none(),
                source: row.source.clone(),
            });
        }
        let page = SnapshotPage {
            exclusions: items,
            next_cursor: has_more.then(|| encode_cursor(last)),
            has_more,
            daily_snapshot: daily,
            generated_at: String::new(),
        };
        Ok((page, decision_id))
    }
}

fn to_json<T: Serialize>(value: &T) -> ApiResult<Json> {
    serde_json::to_value(value).map_err(|e| ApiError::internal().with_detail(format!("a body did not serialise: {e}")))
}

fn encode_cursor(after_seq: i64) -> String {
    crate::api::cursor::encode(&after_seq)
}

fn decode_cursor(cursor: &str) -> Option<i64> {
    crate::api::cursor::decode::<i64>(cursor).filter(|n| (0..=crate::ports::MAX_STORED_INTEGER).contains(n))
}

pub(crate) async fn register(gw: &Gateway, ctx: &Ctx<'_>, Body(registration): Body<Registration>) -> ApiResult<Created<Registered<'static>>> {
    let Registration { user_id, email, phone, duration, reason, .. } = registration;
    until_committed!({
        // restricted or erased players too: an erasure never stops a player from excluding themselves
        let user = crate::users::store::find_exclusion_subject(gw.store.as_ref(), &ctx.caller.tenant_id, &user_id)
            .await?
            .ok_or_else(ApiError::user_not_found)?;
        // the player's stored e-mail unless the request gives one; an erased player's is gone (a keyed hash)
        let email = email.clone().or_else(|| normalize_email(&user.email));
        let contacts = Contacts::of(email.as_deref(), phone.as_ref());
        if contacts.email.is_none() && contacts.phone.is_none() {
            return Err(ApiError::bad_request("missing_fields", "give the player's email or phone: their stored contacts were erased"));
        }
        let existing = gw.user_exclusions(ctx, &user_id).await?;
        let facts = ExclusionFacts {
            now: ctx.now,
            duration,
            existing: existing.iter().map(|e| UserExclusion { duration: e.duration, expires_at: e.expires_at }).collect(),
        };
        let scope = Scope::of(ctx, &user_id);
        let (decision, log) = gw.decide_or_refuse(&scope, Operation::Exclusion, &facts, |r, f| r.decide_exclusion(f))?;
        let registration = match decision {
            ExclusionDecision::Replay(i) => {
                let row = existing.get(i as usize).ok_or_else(ApiError::internal)?;
                let mut body = stored_json(&row.response)?;
                body["regulator_propagated"] = Json::Bool(row.regulator_propagated);
                let answer = Created::stored_existing(body).decided(log.decision_id());
                gw.defer(log);
                return Ok(Some(answer));
            }
            ExclusionDecision::AlreadyExcluded => {
                let error = ApiError::conflict(
                    "already_excluded",
                    "the user is already excluded until at least that time; an exclusion can be lengthened, never shortened",
                );
                let error = error_with_decision(error, &log);
                gw.defer(log);
                return Err(error);
            }
            ExclusionDecision::Register(registration) => registration,
        };
        let exclusion_id = gw.new_id("exc");
        let expires_at = registration.expires_at;
        let response = to_json(&Registered {
            exclusion_id: &exclusion_id,
            user_id: &user_id,
            duration: duration.as_str(),
            effective_from: time::format(ctx.now),
            expires_at: expires_at.map(time::format),
            is_permanent: registration.is_permanent,
            regulator_propagated: false,
            regulator_eligible: registration.regulator_eligible,
            bookmark: None,
        })?;
        let data = ExclusionData {
            exclusion_id: exclusion_id.clone(),
            user_id: None,
            user_email: contacts.email.clone(),
            user_phone: contacts.phone.clone(),
            duration: Some(duration.as_str().to_string()),
            is_permanent: registration.is_permanent,
            expires_at: expires_at.map(time::format),
            source: Source::Operator.as_str().to_string(),
        };
        let environment = ctx.caller.environment;
        let mut statements = vec![
            log.statement(),
            gw.claim_user(ctx, &user),
            store::next_seq(),
            store::insert(NewExclusion {
                exclusion_id: &exclusion_id,
                environment,
                tenant_id: &ctx.caller.tenant_id,
                user_id: Some(&user_id),
                contacts: contacts.clone(),
                duration,
                reason: reason.as_str().to_string(),
                source: Source::Operator,
                effective_from: ctx.now,
                expires_at,
                regulator_propagated: false,
                regulator_eligible: registration.regulator_eligible,
                response: response.to_string(),
            }),
        ];
        for event in &registration.events {
            statements.push(gw.event(environment, None, *event, ctx.now, &data));
        }
        if gw.commit(statements).await?.done() {
            let mut body = response;
            if let Some(bookmark) = gw.store.bookmark() {
                body["bookmark"] = Json::String(bookmark);
            }
            return Ok(Some(Created::stored(body).decided(log.decision_id())));
        }
        Ok(None)
    })
}

pub(crate) async fn check(gw: &Gateway, ctx: &Ctx<'_>, Params(query): Params<CheckQuery>) -> ApiResult<Answer<CheckResult>> {
    let CheckQuery { email, phone, bookmark } = query;
    if email.is_none() && phone.is_none() {
        return Err(ApiError::bad_request("missing_fields", "give the email or phone query parameter"));
    }
    let phone = phone.map(|p| read_phone(&p.0, phone_region(&ctx.caller.jurisdiction))).transpose().map_err(|e| e.error("phone"))?;
    let contacts = Contacts::of(email.map(|e| e.0).as_deref(), phone.as_ref());
    gw.find_exclusion(ctx, &contacts, bookmark.map(|b| b.0).as_deref()).await
}

/// Writes a replication heartbeat (the time now, unix milliseconds) on the
/// primary: scheduled work calls it every [`HEARTBEAT_PERIOD_MS`] on a host
/// whose checks read replicas (the edge's `Heartbeat` Durable Object).
pub async fn beat(store: &dyn crate::ports::Store, now_ms: i64) -> ApiResult<()> {
    Ok(store.batch(vec![store::beat(now_ms)]).await?)
}

/// A bookmark as stores give them: up to 128 letters, digits and dashes.
fn valid_bookmark(text: &str) -> Option<&str> {
    let ok = !text.is_empty() && text.len() <= 128 && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    ok.then_some(text)
}

/// The promise of the live check: an acknowledged exclusion is seen by
/// every check, from any host and any replica, within this many
/// milliseconds of its registration (`docs/decisions.md`, "the fenced replica").
pub const FENCE_BOUND_MS: i64 = 1_000;
/// How often scheduled work writes the replication heartbeat.
pub const HEARTBEAT_PERIOD_MS: i64 = 250;
/// The largest heartbeat age at which a replica's answer is used. Safety
/// needs only `FENCE_MS <= FENCE_BOUND_MS - clock skew` (an exclusion the
/// replica lacks was committed after the heartbeat it holds); the period
/// is kept as the margin for the skew between the writer's clock and the
/// checker's, so a replica within `FENCE_MS - HEARTBEAT_PERIOD_MS` of the
/// primary is always used.
pub const FENCE_MS: i64 = FENCE_BOUND_MS - HEARTBEAT_PERIOD_MS;

/// Whether a near read may be used: the primary's always; a replica's only
/// while the heartbeat it holds is younger than [`FENCE_MS`] at the time its
/// answer arrived (a clock read after the I/O, so never early). A replica
/// without a heartbeat, or with one from the future beyond the margin, is stale.
fn fresh(from: &ReadFrom) -> ApiResult<bool> {
    let ReadFrom::Replica { fence, answered_at_ms } = from else { return Ok(true) };
    let Some(heartbeat) = store::heartbeat_at(fence)? else { return Ok(false) };
    let age = answered_at_ms.saturating_sub(heartbeat);
    Ok((-HEARTBEAT_PERIOD_MS..FENCE_MS).contains(&age))
}

/// Active exclusions of the environment, in registration order, for
/// nightly reconciliation. The cursor names the last row seen, so pages
/// stay correct while rows are added or expire.
pub(crate) async fn snapshot(gw: &Gateway, ctx: &Ctx<'_>, Params(query): Params<SnapshotQuery>) -> ApiResult<Answer<SnapshotPage>> {
    let SnapshotQuery { cursor, limit, snapshot } = query;
    let limit = Limit::or(limit, DEFAULT_PAGE);
    let after = cursor.map_or(0, |c| c.0);
    // The live list by default; with `snapshot=daily`, the list as the 03:00 UTC snapshot took it.
    let (through_seq, active_at, daily) = match snapshot.unwrap_or(SnapshotKind::Live) {
        SnapshotKind::Live => (crate::ports::MAX_STORED_INTEGER, ctx.now, None),
        SnapshotKind::Daily => {
            let row = store::latest_snapshot(gw.store.as_ref(), ctx.caller.environment)
                .await?
                .ok_or_else(|| ApiError::not_found("snapshot_not_found", "no daily snapshot has been taken yet"))?;
            let info = DailySnapshot { snapshot_date: row.snapshot_date, taken_at: time::format(row.taken_at), active_count: row.active_count };
            (row.through_seq, row.taken_at, Some(info))
        }
    };
    // A page of a daily snapshot never changes once built: the rows up to
    // the snapshot's sequence number, as active at the time it was taken.
    let cache = match (&daily, &gw.page_cache) {
        (Some(info), Some(cache)) => {
            Some((cache, format!("snapshot-page/v1/{}/{}/{after}/{limit}", ctx.caller.environment.as_str(), info.snapshot_date)))
        }
        _ => None,
    };
    if let Some((cache, key)) = &cache {
        if let Some(CachedPage { mut page, decision_id }) = cache.get(key).await.and_then(|text| serde_json::from_str(&text).ok()) {
            page.generated_at = time::format(ctx.now);
            return Ok(Answer::new(&page)?.decided(&decision_id));
        }
    }
    let (mut page, decision_id) = gw.snapshot_page(ctx, after, limit, through_seq, active_at, daily).await?;
    if let Some((cache, key)) = &cache {
        if let Ok(text) = serde_json::to_string(&json!({ "page": &page, "decision_id": &decision_id })) {
            cache.put(key, &text).await;
        }
    }
    page.generated_at = time::format(ctx.now);
    Ok(Answer::new(&page)?.decided(&decision_id))
}

/// Imports exclusions made through the regulator's comprehensive form:
/// permanent, irrevocable, shared with every tenant of the environment.
/// An address already permanently excluded by the regulator is skipped.
pub(crate) async fn import_from_regulator(gw: &Gateway, ctx: &Ctx<'_>, Body(import): Body<RegulatorImport>) -> ApiResult<Answer<RegulatorImported>> {
    let imported = gw.import_regulator_list(ctx.caller.environment, &ctx.caller.tenant_id, ctx.now, import).await?;
    Answer::new(&imported)
}

/// The feed to the licensing regulator's register: exclusions eligible
/// for it and not yet exported, oldest first. Exporting them is what makes
/// `regulator_propagated` true; the compliance team delivers the returned
/// file to the regulator.
pub(crate) async fn export_to_regulator(gw: &Gateway, ctx: &Ctx<'_>, (): ()) -> ApiResult<Answer<Export>> {
    let environment: Environment = ctx.caller.environment;
    let rows = store::exportable(gw.store.as_ref(), environment, gw.config.work.regulator_export_batch).await?;
    let mut items = Vec::new();
    let mut statements = Vec::new();
    for row in rows {
        statements.push(store::mark_exported(&row.exclusion_id, ctx.now));
        items.push(Exported {
            exclusion_id: row.exclusion_id,
            user_email: row.email,
            user_phone: row.phone,
            duration: row.duration,
            effective_from: time::format(row.effective_from),
            expires_at: row.expires_at.map(time::format),
        });
    }
    if !statements.is_empty() && !gw.commit(statements).await?.done() {
        return Err(ApiError::conflict("export_in_progress", "another export took some of these exclusions; run the export again"));
    }
    Answer::new(&Export { exported: items.len(), exported_at: time::format(ctx.now), exclusions: items })
}

/// A run-out exclusion, for the scheduled work.
pub(crate) struct DueExpiry {
    pub exclusion_id: String,
    /// the tenant that registered it
    pub tenant_id: String,
    pub environment: Environment,
    /// the `exclusion.expired` event's data
    pub data: ExclusionExpiredData,
    pub expires_at: i64,
}

/// Timed exclusions that ran out and are not yet announced, each with the
/// facts the rules decide from: every other exclusion of the same person.
pub(crate) async fn due_expiries(gw: &Gateway, now: i64) -> ApiResult<Vec<(DueExpiry, DueExclusion)>> {
    let mut due = Vec::new();
    for e in store::run_out_unannounced(gw.store.as_ref(), now, gw.config.work.scheduled_batch).await? {
        let others = store::other_terms(gw.store.as_ref(), e.environment, &e.exclusion_id, &e.contacts).await?;
        let facts = DueExclusion { now: now.saturating_add(e.clock_offset_seconds), expires_at: Some(e.expires_at), others };
        // every tenant is told; of a player an erasure restricted, by the exclusion's id alone (ids and statuses only)
        let (user_email, user_phone) = if e.restricted { (None, None) } else { (e.contacts.email, e.contacts.phone) };
        let data = ExclusionExpiredData {
            exclusion_id: e.exclusion_id.clone(),
            user_email,
            user_phone,
            duration: e.duration.to_string(),
            expired_at: time::format(e.expires_at),
            source: e.source.unwrap_or_else(|| Source::Operator.as_str().to_string()),
        };
        due.push((
            DueExpiry { exclusion_id: e.exclusion_id, tenant_id: e.tenant_id, environment: e.environment, data, expires_at: e.expires_at },
            facts,
        ));
    }
    Ok(due)
}

/// What a round of the contacts' re-key did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Rekeyed {
    pub exclusions: usize,
    pub users: usize,
    /// rows keyed under an older version may remain
    pub more: bool,
}

/// The keys of a contact stored before the contact keys: the e-mail as
/// stored (`normalize_email`'s form); the phone as the old normalisation kept
/// it, its digits: international (`447700900123`) unless it kept a trunk
/// `0`, a national number read in the writing tenant's jurisdiction. A phone
/// that cannot be read keys to none; its row is still found by its stored form.
fn old_keys(email: Option<&str>, phone: Option<&str>, jurisdiction: &str) -> (Option<String>, Option<String>) {
    let email = email.and_then(normalize_email).map(|e| email_key(&e));
    let phone = phone.and_then(|p| {
        let read = if p.starts_with('0') { read_phone(p, phone_region(jurisdiction)) } else { read_phone(&format!("+{p}"), None) };
        read.ok().map(|p| p.key().to_string())
    });
    (email, phone)
}

/// Re-keys, a bounded batch a round, the exclusions and users keyed under an
/// older version of the contact keys ([`crate::input::CONTACT_KEYS_VERSION`]):
/// resumable (each row carries its version; a round takes the oldest), safe
/// beside other hosts (an update keys only a row still under an older
/// version, with keys made from what it holds) and beside writers, whose new
/// rows are keyed as written. Until a row is re-keyed, every check also
/// compares its stored form, so nothing registered before is lost meanwhile.
pub async fn rekey_contacts(store: &dyn crate::ports::Store, batch: i64) -> ApiResult<Rekeyed> {
    let version = crate::input::CONTACT_KEYS_VERSION;
    let batch = batch.max(1);
    let exclusions = store::unkeyed_exclusions(store, version, batch).await?;
    let users = store::unkeyed_users(store, version, batch).await?;
    let mut statements = Vec::with_capacity(exclusions.len() + users.len());
    for row in &exclusions {
        let (email_key, phone_key) = old_keys(row.email.as_deref(), row.phone.as_deref(), &row.jurisdiction);
        statements.push(store::rekey_exclusion(row, email_key, phone_key, version));
    }
    for row in &users {
        let (email_key, phone_key) = old_keys(row.email.as_deref(), row.phone.as_deref(), &row.jurisdiction);
        let (kyc_email_key, _) = old_keys(row.kyc_email.as_deref(), None, &row.jurisdiction);
        statements.push(store::rekey_user(row, email_key, kyc_email_key, phone_key, version));
    }
    if !statements.is_empty() {
        store.batch(statements).await?;
    }
    let more = exclusions.len() as i64 >= batch || users.len() as i64 >= batch;
    Ok(Rekeyed { exclusions: exclusions.len(), users: users.len(), more })
}

/// How many of the environment's exclusions up to `through_seq` the rules
/// find active at `now`, asked a page at a time (each page a logged decision).
async fn count_active(gw: &Gateway, environment: Environment, through_seq: i64, now: i64) -> ApiResult<i64> {
    const PAGE: i64 = 1000;
    let scope = Scope { environment, tenant_id: String::new(), user_id: String::new() };
    let (mut after, mut count) = (0, 0);
    loop {
        let rows = store::page(gw.store.as_ref(), environment, after, through_seq, now, PAGE).await?;
        let Some(last) = rows.last() else { return Ok(count) };
        after = last.seq;
        let facts = ExclusionStatusFacts { now, exclusions: rows.iter().map(|r| ExclusionTerm { expires_at: r.expires_at }).collect() };
        let (status, log) = gw.decide(&scope, Operation::ExclusionStatus, &facts, |r, f| r.describe_exclusions(f))?;
        gw.defer(log);
        count += status.active.len() as i64;
        if (rows.len() as i64) < PAGE {
            return Ok(count);
        }
    }
}

/// Records, once per environment and day, what the daily snapshot holds;
/// answers how many this host took.
pub(crate) async fn take_daily_snapshots(gw: &Gateway, now: i64) -> ApiResult<usize> {
    let boundary = crate::time::snapshot_boundary(now, gw.rules.horizons().snapshot_second_of_day);
    let date = time::format(boundary).get(..10).unwrap_or_default().to_string();
    let mut taken = 0;
    for environment in [Environment::Sandbox, Environment::Production] {
        if store::snapshot_taken(gw.store.as_ref(), environment, &date).await? {
            continue;
        }
        let through_seq = store::last_seq(gw.store.as_ref()).await?;
        let active_count = count_active(gw, environment, through_seq, now).await?;
        // Another host may take the same snapshot at the same moment: the
        // first insert wins, and only the winner counts it as taken.
        match gw.store.batch(vec![store::take_snapshot(environment, &date, now, through_seq, active_count)]).await {
            Ok(()) => taken += 1,
            Err(crate::ports::StoreError::Conflict { .. }) => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(taken)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ports::{Row, Value};

    fn replica(heartbeat: Option<i64>, answered_at_ms: i64) -> ReadFrom {
        ReadFrom::Replica { fence: heartbeat.map(|h| Row(vec![Value::Int(h)])).into_iter().collect(), answered_at_ms }
    }

    #[test]
    fn a_replica_is_used_only_while_its_heartbeat_is_younger_than_the_fence() {
        let now = 1_790_000_000_000;
        assert!(fresh(&ReadFrom::Primary).unwrap(), "the primary is always current");
        assert!(fresh(&replica(Some(now), now)).unwrap());
        assert!(fresh(&replica(Some(now - FENCE_MS + 1), now)).unwrap());
        // the twins: at the fence, past it, no heartbeat, a heartbeat far in the future
        assert!(!fresh(&replica(Some(now - FENCE_MS), now)).unwrap());
        assert!(!fresh(&replica(Some(now - 10 * FENCE_BOUND_MS), now)).unwrap());
        assert!(!fresh(&replica(None, now)).unwrap());
        assert!(fresh(&replica(Some(now + HEARTBEAT_PERIOD_MS), now)).unwrap(), "a writer clock ahead by up to a period");
        assert!(!fresh(&replica(Some(now + HEARTBEAT_PERIOD_MS + 1), now)).unwrap());
        // the fence keeps a margin of one period below the promise
        const { assert!(FENCE_MS + HEARTBEAT_PERIOD_MS <= FENCE_BOUND_MS) };
    }

    #[test]
    fn a_bookmark_is_letters_digits_and_dashes() {
        assert_eq!(
            valid_bookmark("00000085-0000024c-00004c6d-8e61117bf38d7adb71b934ebbf891683"),
            Some("00000085-0000024c-00004c6d-8e61117bf38d7adb71b934ebbf891683")
        );
        for bad in ["", " ", "a'b", "a b", &"x".repeat(129)] {
            assert_eq!(valid_bookmark(bad), None, "{bad:?}");
        }
    }
}
