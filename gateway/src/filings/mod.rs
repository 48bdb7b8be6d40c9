//! Regulator filings drafted from the audited evidence (issue #31): a FinCEN
//! SAR or a goAML report from an AML case, a FinCEN CTR from a CTR candidate
//! (named by its alert). The gateway never submits: it answers the XML and
//! a validation report, and keeps the draft with the case. A draft that
//! lacks a field is still answered, `valid: false`, each missing field
//! named (`docs/decisions.md`). Filings are the compliance team's:
//! only admin keys and console people reach them, their audit rows name no
//! tenant, and no operator answer mentions them (tipping-off).
//!
//! The XML is written with quick-xml ([`xml`]); FinCEN's batches in
//! [`fincen`], goAML's report in [`goaml`], the checks of the written
//! document in [`check`]: every value against the facets FinCEN's XSDs
//! declare (the table [`facets`], generated from them by
//! `scripts/fincen-facets.py`), every character against XML 1.0's `Char`,
//! and the user guides' rules the schema cannot express. A draft is
//! `valid` only when FinCEN's schema would take it (issue #46). The codes
//! are in `rules_model::filings`.

pub mod check;
#[rustfmt::skip]
pub mod facets;
pub mod fincen;
pub mod goaml;
pub mod store;
pub mod xml;

use std::collections::BTreeMap;

use rules_model::filings as codes;
use rules_model::{AmlEventType, FilingCodes, FilingEvent, FilingFacts, Operation, PaymentMethod, Typology};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value as Json};
use utoipa::ToSchema;

use crate::api::stored_json;
use crate::auth::Environment;
use crate::decisions::Scope;
use crate::error::{ApiError, ApiResult};
use crate::input::{Body, FromBody, Path};
use crate::openapi::answer::{Answer, Created};
use crate::openapi::shared::Timestamp;
use crate::openapi::OperationDoc;
use crate::{time, Ctx, Gateway};

/// The table the drafts are kept in, for the erasure and record-keeping
/// machinery: record class "AML events, alerts, cases and filings".
pub const FILINGS_TABLE: &str = "aml_filings";

/// The events a draft reads at most.
const EVENTS_READ: i64 = 1_000;

// ---- the request's shapes ----

/// An address as the officer or the settings give it.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
#[schema(as = FilingAddress)]
pub(crate) struct Address {
    pub street: Option<String>,
    pub city: Option<String>,
    /// a US state code, or a region
    pub state: Option<String>,
    pub zip: Option<String>,
    /// ISO 3166-1 alpha-2
    pub country: Option<String>,
}

/// The subject's identity, supplied by the officer for this filing only;
/// names and date of birth the officer leaves out come from the player's
/// screening. Every field the format needs and neither gives is named in
/// the draft's `errors`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
#[schema(as = FilingSubject)]
pub(crate) struct Subject {
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    /// `YYYY-MM-DD`
    pub date_of_birth: Option<String>,
    #[serde(default)]
    pub address: Address,
    /// `ssn`, `itin`, `drivers_license`, `state_id`, `passport`, `alien_registration`, `foreign_id` or `national_id`
    pub id_type: Option<String>,
    pub id_number: Option<String>,
    /// the issuing country, ISO 3166-1 alpha-2
    pub id_country: Option<String>,
    pub occupation: Option<String>,
}

/// The subject's field names, as a goAML profile's `required_fields` names them.
const SUBJECT_FIELDS: &[&str] = &[
    "first_name",
    "last_name",
    "date_of_birth",
    "address.street",
    "address.city",
    "address.state",
    "address.zip",
    "address.country",
    "id_type",
    "id_number",
    "id_country",
    "occupation",
];

impl Subject {
    fn field(&self, name: &str) -> Option<&str> {
        let a = &self.address;
        match name {
            "first_name" => self.first_name.as_deref(),
            "last_name" => self.last_name.as_deref(),
            "date_of_birth" => self.date_of_birth.as_deref(),
            "address.street" => a.street.as_deref(),
            "address.city" => a.city.as_deref(),
            "address.state" => a.state.as_deref(),
            "address.zip" => a.zip.as_deref(),
            "address.country" => a.country.as_deref(),
            "id_type" => self.id_type.as_deref(),
            "id_number" => self.id_number.as_deref(),
            "id_country" => self.id_country.as_deref(),
            "occupation" => self.occupation.as_deref(),
            _ => None,
        }
    }

    /// Whether the subject gives this field.
    pub(crate) fn has(&self, name: &str) -> bool {
        self.field(name).is_some()
    }

    /// Trimmed, empty fields dropped; 422 for a value of the wrong form.
    fn normalise(mut self) -> ApiResult<Subject> {
        let tidy = |v: &mut Option<String>| {
            *v = v.take().map(|s| s.split_whitespace().collect::<Vec<_>>().join(" ")).filter(|s| !s.is_empty());
        };
        for v in [
            &mut self.first_name,
            &mut self.last_name,
            &mut self.date_of_birth,
            &mut self.id_type,
            &mut self.id_number,
            &mut self.id_country,
            &mut self.occupation,
        ] {
            tidy(v);
        }
        tidy_address(&mut self.address);
        if let Some(d) = &self.date_of_birth {
            if time::parse_date(d).is_none() {
                return Err(ApiError::unprocessable("invalid_field", "subject.date_of_birth must be a date (YYYY-MM-DD)"));
            }
        }
        if let Some(t) = &self.id_type {
            if !codes::ID_TYPES.contains(&t.as_str()) {
                return Err(ApiError::unprocessable("invalid_field", format!("subject.id_type must be one of {}", codes::ID_TYPES.join(", "))));
            }
        }
        for (name, value) in [("subject.id_country", &self.id_country), ("subject.address.country", &self.address.country)] {
            if value.as_deref().is_some_and(|c| !crate::input::is_upper_code(c, 2)) {
                return Err(ApiError::unprocessable("invalid_field", format!("{name} must be an ISO 3166-1 alpha-2 code such as US")));
            }
        }
        Ok(self)
    }
}

fn tidy_address(a: &mut Address) {
    for v in [&mut a.street, &mut a.city, &mut a.state, &mut a.zip, &mut a.country] {
        *v = v.take().map(|s| s.split_whitespace().collect::<Vec<_>>().join(" ")).filter(|s| !s.is_empty());
    }
}

/// The formats a draft can take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    FincenSar,
    FincenCtr,
    Goaml,
}

impl Format {
    pub(crate) const ALL: [Format; 3] = [Format::FincenSar, Format::FincenCtr, Format::Goaml];

    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Format::FincenSar => "fincen-sar",
            Format::FincenCtr => "fincen-ctr",
            Format::Goaml => "goaml",
        }
    }

    fn parse(text: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.as_str() == text)
    }
}

/// The body of a filing request.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FilingRequest {
    /// `fincen-sar` or `goaml` for a case, `fincen-ctr` for a CTR candidate
    #[schema(value_type = String)]
    format: Option<String>,
    subject: Option<Subject>,
    /// the narrative the officer wrote; the draft's own when absent
    narrative: Option<String>,
}

struct Parsed {
    format: Format,
    subject: Subject,
    narrative: Option<String>,
}

/// A draft's body: for a case (`CTR` false: a FinCEN SAR or a goAML
/// report) or for a CTR candidate (a FinCEN CTR); documented as [`FilingRequest`].
pub(crate) struct Draft<const CTR: bool>(Parsed);

impl<const CTR: bool> utoipa::PartialSchema for Draft<CTR> {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        FilingRequest::schema()
    }
}

impl<const CTR: bool> ToSchema for Draft<CTR> {
    fn name() -> std::borrow::Cow<'static, str> {
        FilingRequest::name()
    }
    fn schemas(schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::Schema>)>) {
        FilingRequest::schemas(schemas)
    }
}

impl<const CTR: bool> FromBody for Draft<CTR> {
    fn from_body(body: &[u8], _: &Gateway, _: &Ctx<'_>) -> ApiResult<Self> {
        let allowed: &[Format] = if CTR { &[Format::FincenCtr] } else { &[Format::FincenSar, Format::Goaml] };
        parse_request(body, allowed).map(Draft)
    }
}

impl FromBody for FilingSettings {
    fn from_body(body: &[u8], _: &Gateway, _: &Ctx<'_>) -> ApiResult<Self> {
        parse_settings(body)
    }
}

fn parse_request(body: &[u8], allowed: &[Format]) -> ApiResult<Parsed> {
    let object = crate::input::parse_json_object(body)?;
    let request: FilingRequest = from_json(Json::Object(object), "the request")?;
    let Some(format) = request.format else {
        return Err(ApiError::bad_request("missing_fields", "missing required fields: format"));
    };
    let names: Vec<&str> = allowed.iter().map(|f| f.as_str()).collect();
    let format = Format::parse(&format)
        .filter(|f| allowed.contains(f))
        .ok_or_else(|| ApiError::unprocessable("invalid_field", format!("format must be {} here", names.join(" or "))))?;
    let subject = request.subject.unwrap_or_default().normalise()?;
    let narrative = request.narrative.map(|n| n.trim().to_string()).filter(|n| !n.is_empty());
    Ok(Parsed { format, subject, narrative })
}

/// A typed value from JSON: 400 `missing_fields` for a missing field, 422 for one of the wrong form.
fn from_json<T: serde::de::DeserializeOwned>(value: Json, what: &str) -> ApiResult<T> {
    serde_json::from_value(value).map_err(|e| {
        let message = e.to_string();
        match message.strip_prefix("missing field ") {
            Some(field) => ApiError::bad_request("missing_fields", format!("missing required fields in {what}: {}", field.replace('`', ""))),
            None => ApiError::unprocessable("invalid_field", format!("{what}: {message}")),
        }
    })
}

// ---- settings ----

/// The FinCEN filer: transmitter, filing institution and contact.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub(crate) struct FincenSettings {
    pub legal_name: String,
    /// the Employer Identification Number, nine digits
    pub ein: String,
    /// the Transmitter Control Code FinCEN issued, eight characters
    pub tcc: String,
    /// `state_licensed` (101), `tribal` (102) or `card_club` (103)
    pub casino_type: String,
    pub address: Address,
    pub contact_name: String,
    pub contact_phone: String,
}

/// An FIU's goAML profile.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub(crate) struct GoamlSettings {
    /// the FIU's number for the reporting entity
    pub rentity_id: i64,
    pub currency_code_local: String,
    /// the FIU's report codes: `str` for a report with transactions, `sar` for one without
    pub report_codes: BTreeMap<String, String>,
    /// typology name → the FIU's indicator codes
    #[schema(value_type = Object)]
    pub indicators: BTreeMap<String, Vec<String>>,
    /// payment method → the FIU's funds code
    #[serde(default)]
    pub funds_codes: BTreeMap<String, String>,
    /// the FIU's conduction code of an online transaction
    #[serde(default)]
    pub transmode_code: Option<String>,
    /// subject fields the FIU requires beyond its schema (`date_of_birth`, `address.zip` …)
    #[serde(default)]
    pub required_fields: Vec<String>,
}

/// A tenant's filing settings.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub(crate) struct FilingSettings {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fincen: Option<FincenSettings>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub goaml: Option<GoamlSettings>,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct FilingSettingsSet {
    tenant_id: String,
    #[serde(flatten)]
    settings: FilingSettings,
}

/// Indicator codes as sent: one code or a list.
fn normalise_indicators(goaml: &mut Map<String, Json>) {
    if let Some(Json::Object(indicators)) = goaml.get_mut("indicators") {
        for value in indicators.values_mut() {
            if value.is_string() {
                *value = Json::Array(vec![value.take()]);
            }
        }
    }
}

fn parse_settings(body: &[u8]) -> ApiResult<FilingSettings> {
    let mut object = crate::input::parse_json_object(body)?;
    if let Some(Json::Object(goaml)) = object.get_mut("goaml") {
        normalise_indicators(goaml);
    }
    let mut settings: FilingSettings = from_json(Json::Object(object), "the settings")?;
    if settings.fincen.is_none() && settings.goaml.is_none() {
        return Err(ApiError::bad_request("missing_fields", "missing required fields: fincen or goaml"));
    }
    let invalid = |message: String| Err(ApiError::unprocessable("invalid_field", message));
    if let Some(f) = settings.fincen.as_mut() {
        for v in [&mut f.legal_name, &mut f.ein, &mut f.tcc, &mut f.casino_type, &mut f.contact_name, &mut f.contact_phone] {
            *v = v.split_whitespace().collect::<Vec<_>>().join(" ");
        }
        tidy_address(&mut f.address);
        let a = &f.address;
        let missing: Vec<&str> = [
            ("fincen.legal_name", f.legal_name.is_empty()),
            ("fincen.contact_name", f.contact_name.is_empty()),
            ("fincen.contact_phone", f.contact_phone.is_empty()),
            ("fincen.address.street", a.street.is_none()),
            ("fincen.address.city", a.city.is_none()),
            ("fincen.address.state", a.state.is_none()),
            ("fincen.address.zip", a.zip.is_none()),
            ("fincen.address.country", a.country.is_none()),
        ]
        .into_iter()
        .filter_map(|(name, missing)| missing.then_some(name))
        .collect();
        if !missing.is_empty() {
            return Err(ApiError::bad_request("missing_fields", format!("missing required fields: {}", missing.join(", "))));
        }
        if f.ein.len() != 9 || !f.ein.bytes().all(|b| b.is_ascii_digit()) {
            return invalid("fincen.ein must be nine digits".into());
        }
        if f.tcc.len() != 8 || !f.tcc.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return invalid("fincen.tcc must be FinCEN's eight-character Transmitter Control Code".into());
        }
        if codes::casino_subtype(&f.casino_type).is_none() {
            return invalid(format!("fincen.casino_type must be one of {}", codes::CASINO_TYPES.join(", ")));
        }
        if !a.country.as_deref().is_some_and(|c| crate::input::is_upper_code(c, 2)) {
            return invalid("fincen.address.country must be an ISO 3166-1 alpha-2 code such as US".into());
        }
        let phone_digits: String = f.contact_phone.chars().filter(char::is_ascii_digit).collect();
        if phone_digits.is_empty() || phone_digits.len() > 16 {
            return invalid("fincen.contact_phone must hold from 1 to 16 digits".into());
        }
        f.contact_phone = phone_digits;
    }
    if let Some(g) = settings.goaml.as_ref() {
        if !(1..=i64::from(i32::MAX)).contains(&g.rentity_id) {
            return invalid("goaml.rentity_id must be a positive integer".into());
        }
        if !crate::input::currency_codes().contains(&g.currency_code_local.as_str()) {
            return invalid("goaml.currency_code_local must be an ISO 4217 currency code".into());
        }
        if let Some(kind) = g.report_codes.keys().find(|k| !["str", "sar"].contains(&k.as_str())) {
            return invalid(format!("goaml.report_codes: {kind} is neither str nor sar"));
        }
        if let Some(t) = g.indicators.keys().find(|t| Typology::parse(t).is_none()) {
            return invalid(format!(
                "goaml.indicators: {t} is not a typology ({})",
                Typology::ALL.iter().map(|t| t.as_str()).collect::<Vec<_>>().join(", ")
            ));
        }
        if let Some(m) = g.funds_codes.keys().find(|m| PaymentMethod::parse(m).is_none()) {
            return invalid(format!("goaml.funds_codes: {m} is not a payment method"));
        }
        if let Some(f) = g.required_fields.iter().find(|f| !SUBJECT_FIELDS.contains(&f.as_str())) {
            return invalid(format!("goaml.required_fields: {f} is not a subject field ({})", SUBJECT_FIELDS.join(", ")));
        }
        let codes = g.report_codes.values().chain(g.indicators.values().flatten()).chain(g.funds_codes.values()).chain(g.transmode_code.iter());
        if codes.clone().any(|c| c.is_empty() || c != c.trim()) {
            return invalid("goaml: a code is empty or has spaces around it".into());
        }
    }
    Ok(settings)
}

pub(crate) fn set_settings_doc() -> OperationDoc {
    OperationDoc::new("admin", "set a tenant's filing settings: the FinCEN filer and the goAML FIU profile").errors(&[404, 422])
}

/// `PUT /v1/admin/tenants/{tenant_id}/filing-settings`.
pub(crate) async fn set_settings(
    gw: &Gateway,
    ctx: &Ctx<'_>,
    (Path(tenant_id), Body(settings)): (Path, Body<FilingSettings>),
) -> ApiResult<Answer<FilingSettingsSet>> {
    gw.require_tenant(ctx, &tenant_id).await?;
    let stored = serde_json::to_string(&settings).map_err(|_| ApiError::internal())?;
    gw.store.batch(vec![store::set_settings(ctx.caller.environment, &tenant_id, &stored, ctx.now)]).await?;
    Answer::new(&FilingSettingsSet { tenant_id, settings })
}

async fn settings_of(gw: &Gateway, environment: Environment, tenant_id: &str) -> ApiResult<FilingSettings> {
    match store::settings(gw.store.as_ref(), environment, tenant_id).await? {
        Some(text) => serde_json::from_str(&text).map_err(|_| ApiError::internal()),
        None => Ok(FilingSettings::default()),
    }
}

// ---- problems ----

/// One thing a draft lacks or breaks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = FilingProblem)]
pub(crate) struct Problem {
    /// the field, such as `subject.date_of_birth` or `settings.fincen.ein`
    pub field: String,
    pub message: String,
}

/// The problems of a draft, each once.
#[derive(Debug, Default)]
pub(crate) struct Problems(pub(crate) Vec<Problem>);

impl Problems {
    pub(crate) fn add(&mut self, field: &str, message: impl Into<String>) {
        let problem = Problem { field: field.to_string(), message: message.into() };
        if !self.0.contains(&problem) {
            self.0.push(problem);
        }
    }

    /// The value, or a `missing` problem.
    pub(crate) fn need<'a>(&mut self, field: &str, value: Option<&'a str>) -> Option<&'a str> {
        // a field already named (by the FIU profile's `required_fields`) is named once
        if value.is_none() && !self.0.iter().any(|p| p.field == field) {
            self.add(field, "missing");
        }
        value
    }
}

/// FinCEN's field lengths (the schema's `RestrictString*`), checked before
/// writing so an over-long value is named, not found by the schema.
fn fincen_lengths(s: &Subject, problems: &mut Problems) {
    let a = &s.address;
    for (field, value, max) in [
        ("subject.first_name", &s.first_name, 35),
        ("subject.last_name", &s.last_name, 150),
        ("subject.address.street", &a.street, 100),
        ("subject.address.city", &a.city, 50),
        ("subject.address.state", &a.state, 3),
        ("subject.address.zip", &a.zip, 9),
        ("subject.id_number", &s.id_number, 25),
        ("subject.occupation", &s.occupation, 50),
    ] {
        if value.as_deref().is_some_and(|v| v.chars().count() > max) {
            problems.add(field, format!("longer than FinCEN's {max} characters"));
        }
    }
}

// ---- answers ----

#[derive(Serialize, ToSchema)]
pub(crate) struct FilingDraft {
    filing_id: String,
    /// `fincen-sar`, `fincen-ctr` or `goaml`
    format: String,
    /// whether the draft has no problem; an invalid draft is answered all the same
    valid: bool,
    errors: Vec<Problem>,
    /// the draft, for upload by the officer: the gateway never submits
    xml: String,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct FilingView {
    filing_id: String,
    format: String,
    /// the CTR candidate's alert, for a CTR
    alert_id: Option<String>,
    valid: bool,
    errors: Vec<Problem>,
    /// absent once the filing was erased
    xml: Option<String>,
    created_by: String,
    #[schema(value_type = Timestamp)]
    created_at: String,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct CaseFilings {
    case_id: String,
    filings: Vec<FilingView>,
}

pub(crate) fn draft_doc() -> OperationDoc {
    OperationDoc::new("admin", "draft a regulator filing from an AML case: a FinCEN SAR or a goAML report, with its validation report")
        .answers("the draft, valid or not")
        .errors(&[404, 422])
}

pub(crate) fn draft_ctr_doc() -> OperationDoc {
    OperationDoc::new("admin", "draft a FinCEN CTR for a CTR candidate's gaming day, with its validation report")
        .answers("the draft, valid or not")
        .errors(&[404, 422])
}

pub(crate) fn list_doc() -> OperationDoc {
    OperationDoc::new("admin", "an AML case's filings, newest first").errors(&[404])
}

fn case_not_found() -> ApiError {
    ApiError::not_found("case_not_found", "no such AML case")
}

/// `YYYYMMDD` of an instant, UTC.
fn fincen_date(at: i64) -> String {
    time::format(at).get(0..10).unwrap_or_default().replace('-', "")
}

/// The goAML form of an instant.
fn goaml_instant(at: i64) -> String {
    time::format(at).get(0..19).unwrap_or_default().to_string()
}

/// One event of a draft, read from its stored payload.
struct Event {
    transaction_id: String,
    event_type: AmlEventType,
    method: PaymentMethod,
    amount_cents: i64,
    currency: String,
    at: i64,
}

fn events_of(rows: Vec<crate::aml::store::UserEvent>) -> ApiResult<Vec<Event>> {
    let mut events = Vec::new();
    for row in rows {
        let payload = stored_json(&row.payload)?;
        let Some(event_type) = payload["event_type"].as_str().and_then(AmlEventType::parse) else { continue };
        events.push(Event {
            transaction_id: payload["transaction_id"].as_str().unwrap_or(&row.aml_event_id).to_string(),
            event_type,
            method: payload["payment_method"].as_str().and_then(PaymentMethod::parse).unwrap_or(PaymentMethod::Other),
            amount_cents: payload["amount_cents"].as_i64().unwrap_or(0),
            currency: payload["currency"].as_str().unwrap_or_default().to_string(),
            at: row.event_at.unwrap_or(0),
        });
    }
    Ok(events)
}

/// The money an amount is, in major units of its currency.
fn major_units(cents: i64, currency: &str) -> String {
    let exponent = crate::input::currency_exponent(currency).unwrap_or(2);
    if exponent == 0 {
        return cents.to_string();
    }
    let scale = 10i64.pow(u32::from(exponent));
    format!("{}.{:0width$}", cents / scale, cents % scale, width = usize::from(exponent))
}

/// Stores the draft and answers it.
struct Stored<'a> {
    environment: Environment,
    tenant_id: &'a str,
    user_id: &'a str,
    case_id: &'a str,
    alert_id: Option<&'a str>,
    format: Format,
    subject: &'a Subject,
    created_by: &'a str,
    now: i64,
}

/// A filing's codes, as the rules read them; logged with the player's scope.
fn codes_of(gw: &Gateway, scope: &Scope, facts: FilingFacts) -> ApiResult<FilingCodes> {
    let (codes, log) = gw.decide(scope, Operation::FilingCodes, &facts, |r, f| r.classify_filing(f))?;
    gw.defer(log);
    Ok(codes)
}

async fn keep(gw: &Gateway, s: Stored<'_>, xml: String, problems: Problems) -> ApiResult<Created<FilingDraft>> {
    let filing_id = gw.new_id("fil");
    let errors = serde_json::to_string(&problems.0).map_err(|_| ApiError::internal())?;
    let subject = serde_json::to_string(s.subject).map_err(|_| ApiError::internal())?;
    let valid = problems.0.is_empty();
    gw.store
        .batch(vec![store::insert(&store::NewFiling {
            filing_id: &filing_id,
            environment: s.environment,
            tenant_id: s.tenant_id,
            user_id: s.user_id,
            case_id: s.case_id,
            alert_id: s.alert_id,
            format: s.format.as_str(),
            valid,
            errors: &errors,
            xml: &xml,
            subject: &subject,
            created_by: s.created_by,
            created_at: s.now,
        })])
        .await?;
    Created::new(&FilingDraft { filing_id, format: s.format.as_str().to_string(), valid, errors: problems.0, xml })
}

/// The officer's subject completed from what the gateway holds of the
/// player (names and date of birth), then normalised as the officer's own
/// fields are: a field the officer gives wins; a redacted player's empty
/// names give nothing. Kept only with the filing, as the rest.
async fn with_stored_identity(gw: &Gateway, tenant_id: &str, user_id: &str, mut subject: Subject) -> ApiResult<Subject> {
    let Some(stored) = store::player_identity(gw.store.as_ref(), tenant_id, user_id).await? else { return Ok(subject) };
    subject.first_name = subject.first_name.or(Some(stored.first_name));
    subject.last_name = subject.last_name.or(Some(stored.last_name));
    subject.date_of_birth = subject.date_of_birth.or(stored.date_of_birth);
    subject.normalise()
}

/// `POST /v1/admin/aml/cases/{case_id}/filings`: a FinCEN SAR or a goAML report.
pub(crate) async fn draft(
    gw: &Gateway,
    ctx: &Ctx<'_>,
    (Path(case_id), Body(Draft(mut request))): (Path, Body<Draft<false>>),
) -> ApiResult<Created<FilingDraft>> {
    let case_id = case_id.as_str();
    let environment = ctx.caller.environment;
    let case = crate::aml::case(gw, environment, case_id).await?.ok_or_else(case_not_found)?;
    request.subject = with_stored_identity(gw, &case.tenant_id, &case.user_id, request.subject).await?;
    let settings = settings_of(gw, environment, &case.tenant_id).await?;
    let evidence = crate::aml::case_evidence(gw, environment, &case).await?;
    let events = events_of(evidence.events)?;
    let typologies: Vec<Typology> = case.typologies.iter().filter_map(|t| Typology::parse(t)).collect();
    let scope = Scope { environment, tenant_id: case.tenant_id.clone(), user_id: case.user_id.clone() };
    let narrative = request.narrative.clone().unwrap_or_else(|| {
        let mut text = format!("Subject: the holder of player account {} with this casino.\n{}\n", case.user_id, evidence.summary);
        for e in &events {
            text.push_str(&format!(
                "\n{} {} {} {} by {} (transaction {}).",
                time::format(e.at),
                e.event_type.as_str(),
                major_units(e.amount_cents, &e.currency),
                e.currency,
                e.method.as_str(),
                e.transaction_id
            ));
        }
        text
    });
    let mut problems = Problems::default();
    let xml = match request.format {
        Format::FincenSar => {
            fincen_lengths(&request.subject, &mut problems);
            let usd_cents: i64 = events
                .iter()
                .filter(|e| {
                    e.currency == codes::FINCEN_CURRENCY
                        && matches!(e.event_type, AmlEventType::Deposit | AmlEventType::Withdrawal | AmlEventType::P2pTransfer)
                })
                .map(|e| e.amount_cents)
                .fold(0i64, i64::saturating_add);
            let draft = fincen::SarDraft {
                filing_date: fincen_date(ctx.now),
                settings: settings.fincen.as_ref(),
                subject: &request.subject,
                from_date: fincen_date(evidence.window_from),
                to_date: fincen_date(evidence.window_to),
                amount_dollars: (usd_cents > 0).then(|| fincen::dollars(usd_cents)),
                classifications: codes_of(gw, &scope, FilingFacts { typologies: typologies.clone(), events: Vec::new() })?.sar,
                narrative,
            };
            let xml = fincen::sar(&draft, &mut problems)?;
            check::fincen(&xml, &facets::SARX, &mut problems);
            xml
        }
        _ => {
            let operator = store::tenant_name(gw.store.as_ref(), &case.tenant_id).await?.unwrap_or_else(|| case.tenant_id.clone());
            let local = settings.goaml.as_ref().map(|g| g.currency_code_local.clone()).unwrap_or_default();
            let mut transactions = Vec::new();
            let mut other_currencies = 0;
            for e in events.iter().filter(|e| matches!(e.event_type, AmlEventType::Deposit | AmlEventType::Withdrawal)) {
                if e.currency != local {
                    other_currencies += 1;
                    continue;
                }
                transactions.push(goaml::GoamlTransaction {
                    number: e.transaction_id.clone(),
                    description: format!("{} by {}", e.event_type.as_str(), e.method.as_str()),
                    date: goaml_instant(e.at),
                    amount: major_units(e.amount_cents, &e.currency),
                    from_player: e.event_type == AmlEventType::Deposit,
                    method: e.method.as_str().to_string(),
                });
            }
            if other_currencies > 0 && settings.goaml.is_some() {
                problems.add("transactions", format!("{other_currencies} transaction(s) not in {local} were left out; convert them by hand"));
            }
            let draft = goaml::GoamlDraft {
                settings: settings.goaml.as_ref(),
                subject: &request.subject,
                operator_name: &operator,
                case_id: &case.case_id,
                submission_date: goaml_instant(ctx.now),
                reason: narrative,
                transactions,
                typologies: case.typologies.clone(),
            };
            goaml::report(&draft, &mut problems)?
        }
    };
    let stored = Stored {
        environment,
        tenant_id: &case.tenant_id,
        user_id: &case.user_id,
        case_id: &case.case_id,
        alert_id: None,
        format: request.format,
        subject: &request.subject,
        created_by: &ctx.caller.key_id,
        now: ctx.now,
    };
    keep(gw, stored, xml, problems).await
}

/// `POST /v1/admin/aml/ctr-candidates/{alert_id}/filings`: a FinCEN CTR for the candidate's gaming day.
pub(crate) async fn draft_ctr(
    gw: &Gateway,
    ctx: &Ctx<'_>,
    (Path(alert_id), Body(Draft(mut request))): (Path, Body<Draft<true>>),
) -> ApiResult<Created<FilingDraft>> {
    let alert_id = alert_id.as_str();
    let environment = ctx.caller.environment;
    let not_found = || ApiError::not_found("candidate_not_found", "no such CTR candidate");
    let alert = store::alert(gw.store.as_ref(), environment, alert_id).await?.ok_or_else(not_found)?;
    request.subject = with_stored_identity(gw, &alert.tenant_id, &alert.user_id, request.subject).await?;
    let explanation = stored_json(&alert.explanation)?;
    let day_start = explanation["fired"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|f| f["reason_code"] == json!(Typology::CtrThreshold.as_str()))
        .and_then(|f| f["window_from"].as_i64());
    let is_candidate = alert.actions.contains(&format!("\"{}\"", rules_model::AmlAction::CtrCandidate.as_str()));
    let day_start = day_start.filter(|_| is_candidate).ok_or_else(not_found)?;
    let (_, cutoff, zone) = crate::aml::store::tenant_settings(gw.store.as_ref(), &alert.tenant_id).await?.ok_or_else(not_found)?;
    let gaming_day = crate::aml::gaming_day::GamingDay::from_stored(cutoff, &zone);
    let (start, end) = gaming_day.bounds(day_start).unwrap_or((day_start, day_start + 86_400));
    let tz = crate::aml::gaming_day::parse_zone(&zone).unwrap_or(chrono_tz::UTC);
    let day = chrono::TimeZone::timestamp_opt(&tz, start, 0).single().map(|t| t.format("%Y%m%d").to_string()).unwrap_or_else(|| fincen_date(start));
    let rows = crate::aml::store::user_events(gw.store.as_ref(), &alert.tenant_id, &alert.user_id, start, end - 1, EVENTS_READ).await?;
    let mut by_code: BTreeMap<u32, (codes::CashSide, i64)> = BTreeMap::new();
    let dollar_events: Vec<_> = events_of(rows)?.into_iter().filter(|e| e.currency == codes::FINCEN_CURRENCY).collect();
    let scope = Scope { environment, tenant_id: alert.tenant_id.clone(), user_id: alert.user_id.clone() };
    let facts = FilingFacts {
        typologies: Vec::new(),
        events: dollar_events.iter().map(|e| FilingEvent { event_type: e.event_type, method: e.method }).collect(),
    };
    let ctr = codes_of(gw, &scope, facts)?.ctr;
    for (e, code) in dollar_events.iter().zip(ctr) {
        if let Some(c) = code {
            let entry = by_code.entry(c.code).or_insert((c.side, 0));
            entry.1 = entry.1.saturating_add(e.amount_cents);
        }
    }
    let details = by_code.into_iter().map(|(code, (side, cents))| fincen::CtrDetail { code, side, dollars: fincen::dollars(cents) }).collect();
    let settings = settings_of(gw, environment, &alert.tenant_id).await?;
    let mut problems = Problems::default();
    fincen_lengths(&request.subject, &mut problems);
    let draft = fincen::CtrDraft {
        filing_date: fincen_date(ctx.now),
        settings: settings.fincen.as_ref(),
        subject: &request.subject,
        account: &alert.user_id,
        gaming_day: day,
        details,
    };
    let xml = fincen::ctr(&draft, &mut problems)?;
    check::fincen(&xml, &facets::CTRX, &mut problems);
    let stored = Stored {
        environment,
        tenant_id: &alert.tenant_id,
        user_id: &alert.user_id,
        case_id: &alert.case_id,
        alert_id: Some(&alert.alert_id),
        format: request.format,
        subject: &request.subject,
        created_by: &ctx.caller.key_id,
        now: ctx.now,
    };
    keep(gw, stored, xml, problems).await
}

/// `GET /v1/admin/aml/cases/{case_id}/filings`.
pub(crate) async fn list(gw: &Gateway, ctx: &Ctx<'_>, Path(case_id): Path) -> ApiResult<Answer<CaseFilings>> {
    let case = crate::aml::case(gw, ctx.caller.environment, &case_id).await?.ok_or_else(case_not_found)?;
    let rows = store::of_case(gw.store.as_ref(), ctx.caller.environment, &case.case_id).await?;
    let filings = rows
        .into_iter()
        .map(|r| {
            Ok(FilingView {
                errors: serde_json::from_str(&r.errors).map_err(|_| ApiError::internal())?,
                filing_id: r.filing_id,
                format: r.format,
                alert_id: r.alert_id,
                valid: r.valid,
                xml: r.xml,
                created_by: r.created_by,
                created_at: time::format(r.created_at),
            })
        })
        .collect::<ApiResult<Vec<_>>>()?;
    Answer::new(&CaseFilings { case_id: case.case_id, filings })
}

#[cfg(test)]
mod tests;
