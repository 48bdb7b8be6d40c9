//! The national exclusion registers (issue #47): one check asks the shared
//! register and every national register the tenant is bound to consult for
//! the check's purpose, in parallel within one budget, and records each
//! register's answer as evidence. The adapters ([`adapters`]) speak each
//! register's wire contract; the rules decide what the answers mean
//! (`decide-register-check`) and which identifiers are valid
//! (`read-national-id`), so a typo never reaches a register that would
//! read it as "not excluded". No national identifier is stored.

pub(crate) mod adapters;
pub mod batch;
pub mod store;

use std::future::Future;

use rules_model::{
    CheckPurpose, EventKind, ExclusionTerm, NationalIdKind, NationalRegister, Operation, OutagePolicy, RegisterAnswer, RegisterCheckFacts,
    RegisterStatus,
};
use serde::Serialize;
use serde_json::{Map, Value as Json};
use utoipa::{IntoParams, ToSchema};

use crate::auth::Environment;
use crate::decisions::Scope;
use crate::error::{ApiError, ApiResult};
use crate::input::{normalize_email, parse_json_object, parse_text, phone_region, read_phone, Body, FromBody, Limit, Params, Path, INVALID_CURSOR};
use crate::openapi::answer::Answer;
use crate::openapi::OperationDoc;
use crate::ports::{VendorRequest, VendorResponse};
use crate::webhooks::events::ExclusionData;
use crate::{time, Ctx, Gateway};
use adapters::{Credentials, Identity, Reading};

/// How long a whole check may take: every register is asked at once, and
/// one that has not answered by then is `unavailable`.
pub const CHECK_BUDGET_MS: u64 = 2_000;
/// The shared register's name in a check's answer and its evidence.
pub const SHARED: &str = "shared";
const DEFAULT_PAGE: i64 = 50;
const MAX_PAGE: i64 = 200;
/// The longest base URL or credential accepted.
const MAX_URL: usize = 512;
const MAX_CREDENTIAL: usize = 16_384;

// ---- configuration ----

/// One national register of a tenant, as an admin sets it.
#[derive(ToSchema)]
#[allow(dead_code)]
pub(crate) struct RegisterSetting {
    /// `spelpaus`, `gamstop`, `rofus` or `cruks`
    register: String,
    /// GAMSTOP's is the v2 endpoint itself (`https://api.gamstop.io/v2`);
    /// the others' is their API root. Production: https and a public
    /// address only; sandbox: http on loopback too (the stubs)
    #[schema(format = "uri", max_length = 512)]
    base_url: String,
    /// Spelpaus `{actor_id, api_key}`; GAMSTOP `{api_key}`; ROFUS
    /// `{operator_id, api_key}`; CRUKS `{client_certificate_pem,
    /// client_key_pem}`. Sealed at rest, never answered back
    #[schema(value_type = Object)]
    credentials: Json,
    /// the purposes this register is asked for: `registration`, `login`, `deposit`, `marketing`
    purposes: Vec<String>,
    /// `refuse` (the default: an unavailable register excludes) or `allow_flagged`
    on_outage: Option<String>,
}

/// The body of `PUT /v1/admin/tenants/{tenant_id}/registers`: the whole set, replacing the one before.
#[derive(ToSchema)]
#[schema(as = RegisterSettings)]
#[allow(dead_code)]
pub(crate) struct Settings {
    registers: Vec<RegisterSetting>,
}

/// A register as read back: everything but the credentials.
#[derive(Serialize, ToSchema)]
pub(crate) struct RegisterView {
    register: String,
    base_url: String,
    purposes: Vec<String>,
    on_outage: String,
    /// the credentials are held (sealed); they are never answered
    credentials_set: bool,
}

#[derive(Serialize, ToSchema)]
#[schema(as = TenantRegisters)]
pub(crate) struct RegistersView {
    tenant_id: String,
    registers: Vec<RegisterView>,
}

/// A register setting read from the body, its credentials in clear until sealed.
struct ReadSetting {
    register: NationalRegister,
    base_url: String,
    credentials: Credentials,
    purposes: Vec<CheckPurpose>,
    on_outage: OutagePolicy,
}

/// The settings as read, before their URLs are checked against the tenant's environment.
pub(crate) struct ReadSettings(Vec<ReadSetting>);

impl ToSchema for ReadSettings {
    fn name() -> std::borrow::Cow<'static, str> {
        Settings::name()
    }
    fn schemas(schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>)>) {
        <Settings as ToSchema>::schemas(schemas);
    }
}
impl utoipa::PartialSchema for ReadSettings {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        <Settings as utoipa::PartialSchema>::schema()
    }
}

fn invalid(message: String) -> ApiError {
    ApiError::bad_request("invalid_field", message)
}

fn names<T: Copy>(all: &[T], name: impl Fn(T) -> &'static str) -> String {
    all.iter().map(|v| name(*v)).collect::<Vec<_>>().join(", ")
}

impl FromBody for ReadSettings {
    fn from_body(body: &[u8], _: &Gateway, _: &Ctx<'_>) -> ApiResult<Self> {
        let object = parse_json_object(body)?;
        let items = match object.get("registers") {
            None | Some(Json::Null) => return Err(ApiError::bad_request("missing_fields", "missing required fields: registers")),
            Some(Json::Array(items)) => items,
            Some(_) => return Err(invalid("registers must be an array".into())),
        };
        let mut read: Vec<ReadSetting> = Vec::new();
        let mut missing = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let Json::Object(item) = item else { return Err(invalid(format!("registers[{i}] must be an object"))) };
            let field = |name: &str| format!("registers[{i}].{name}");
            let text = |name: &str| item.get(name).filter(|v| !v.is_null());
            let register = match text("register") {
                None => {
                    missing.push(field("register"));
                    continue;
                }
                Some(v) => v.as_str().and_then(NationalRegister::parse).ok_or_else(|| {
                    invalid(format!("{} must be one of {}", field("register"), names(NationalRegister::ALL, NationalRegister::as_str)))
                })?,
            };
            if read.iter().any(|r| r.register == register) {
                return Err(invalid(format!("{} names {} a second time", field("register"), register.as_str())));
            }
            let base_url = match text("base_url") {
                None => {
                    missing.push(field("base_url"));
                    String::new()
                }
                Some(v) => match v.as_str() {
                    Some(url) if !url.trim().is_empty() && url.len() <= MAX_URL => url.trim().to_string(),
                    _ => return Err(invalid(format!("{} must be a URL of at most {MAX_URL} characters", field("base_url")))),
                },
            };
            let purposes = match text("purposes") {
                None => {
                    missing.push(field("purposes"));
                    Vec::new()
                }
                Some(Json::Array(list)) if !list.is_empty() => {
                    let mut purposes = Vec::new();
                    for p in list {
                        let purpose = p.as_str().and_then(CheckPurpose::parse).ok_or_else(|| {
                            invalid(format!("{} must hold only {}", field("purposes"), names(CheckPurpose::ALL, CheckPurpose::as_str)))
                        })?;
                        if !purposes.contains(&purpose) {
                            purposes.push(purpose);
                        }
                    }
                    purposes
                }
                Some(_) => return Err(invalid(format!("{} must be a non-empty array of purposes", field("purposes")))),
            };
            let on_outage = match text("on_outage") {
                None => OutagePolicy::Refuse,
                Some(v) => v
                    .as_str()
                    .and_then(OutagePolicy::parse)
                    .ok_or_else(|| invalid(format!("{} must be one of {}", field("on_outage"), names(OutagePolicy::ALL, OutagePolicy::as_str))))?,
            };
            let credentials = match text("credentials") {
                None => {
                    missing.push(field("credentials"));
                    None
                }
                Some(Json::Object(fields)) => {
                    for name in adapters::credential_fields(register) {
                        let named = format!("{}.{name}", field("credentials"));
                        let pem = name.ends_with("_pem");
                        match fields.get(*name) {
                            None | Some(Json::Null) => missing.push(named),
                            // a key or an id goes into a header or the path: printable ASCII without spaces
                            Some(Json::String(v)) if !pem && !v.is_empty() && v.len() <= 512 && v.bytes().all(|b| b.is_ascii_graphic()) => {}
                            Some(Json::String(v)) if pem && v.len() <= MAX_CREDENTIAL && v.trim_start().starts_with("-----BEGIN ") => {}
                            Some(_) if pem => return Err(invalid(format!("{named} must be PEM text of at most {MAX_CREDENTIAL} characters"))),
                            Some(_) => return Err(invalid(format!("{named} must be 1 to 512 printable ASCII characters without spaces"))),
                        }
                    }
                    if let Some(Json::String(actor)) = fields.get("actor_id") {
                        if !actor.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') || actor.len() > 64 {
                            return Err(invalid(format!("{}.actor_id must be up to 64 letters, digits, - or _", field("credentials"))));
                        }
                    }
                    Credentials::from_fields(register, fields)
                }
                Some(_) => return Err(invalid(format!("{} must be an object", field("credentials")))),
            };
            if let Some(credentials) = credentials {
                read.push(ReadSetting { register, base_url, credentials, purposes, on_outage });
            }
        }
        if !missing.is_empty() {
            return Err(ApiError::bad_request("missing_fields", format!("missing required fields: {}", missing.join(", "))));
        }
        Ok(ReadSettings(read))
    }
}

pub(crate) fn set_registers_doc() -> OperationDoc {
    OperationDoc::new("admin", "set the national exclusion registers a tenant is bound to consult")
        .describe("Replaces the tenant's whole set; `{\"registers\": []}` clears it. Credentials are sealed at rest and never answered back.")
        .errors(&[404])
}

pub(crate) fn get_registers_doc() -> OperationDoc {
    OperationDoc::new("admin", "a tenant's national exclusion registers, without their credentials").errors(&[404])
}

/// The associated data the credentials of a tenant's register are sealed with.
pub(crate) fn credentials_aad(tenant_id: &str, register: &str) -> String {
    format!("register:{tenant_id}:{register}")
}

fn aad(tenant_id: &str, register: NationalRegister) -> String {
    credentials_aad(tenant_id, register.as_str())
}

fn view(tenant_id: String, rows: &[store::SettingRow]) -> RegistersView {
    let registers = rows
        .iter()
        .map(|r| RegisterView {
            register: r.register.as_str().to_string(),
            base_url: r.base_url.clone(),
            purposes: r.purposes.iter().map(|p| p.as_str().to_string()).collect(),
            on_outage: r.on_outage.as_str().to_string(),
            credentials_set: !r.credentials.is_empty(),
        })
        .collect();
    RegistersView { tenant_id, registers }
}

/// `PUT /v1/admin/tenants/{tenant_id}/registers`.
pub(crate) async fn set_registers(
    gw: &Gateway,
    ctx: &Ctx<'_>,
    (Path(tenant_id), Body(ReadSettings(read))): (Path, Body<ReadSettings>),
) -> ApiResult<Answer<RegistersView>> {
    gw.require_tenant(ctx, &tenant_id).await?;
    let environment = ctx.caller.environment;
    let mut rows = Vec::with_capacity(read.len());
    for (i, setting) in read.into_iter().enumerate() {
        let field = format!("registers[{i}].base_url");
        let url =
            crate::webhooks::check_url(&setting.base_url, environment).map_err(|m| ApiError::bad_request("invalid_url", format!("{field}: {m}")))?;
        // a query or a fragment would be kept and shown as it is (a key in it too); the paths are the adapters'
        if setting.base_url.contains(['?', '#']) {
            return Err(ApiError::bad_request("invalid_url", format!("{field} must not carry a query or a fragment")));
        }
        if environment == Environment::Production {
            gw.check_destination(&url).await.map_err(|m| ApiError::bad_request("invalid_url", format!("{field}: {m}")))?;
        }
        let sealed = gw.seal_secret(&setting.credentials.to_json(), &aad(&tenant_id, setting.register));
        rows.push(store::SettingRow {
            register: setting.register,
            // as given, trimmed: a GAMSTOP endpoint is POSTed to exactly
            base_url: setting.base_url,
            credentials: sealed,
            purposes: setting.purposes,
            on_outage: setting.on_outage,
        });
    }
    rows.sort_by_key(|r| r.register.as_str());
    let now = gw.clock.now();
    let mut statements = store::replace_settings(&tenant_id, &rows, now);
    statements.extend(rows.iter().map(|r| store::begin_cycle(&tenant_id, r.register, now)));
    gw.store.batch(statements).await?;
    Answer::new(&view(tenant_id, &rows))
}

/// `GET /v1/admin/tenants/{tenant_id}/registers`.
pub(crate) async fn get_registers(gw: &Gateway, ctx: &Ctx<'_>, Path(tenant_id): Path) -> ApiResult<Answer<RegistersView>> {
    gw.require_tenant(ctx, &tenant_id).await?;
    let rows = store::settings(gw.store.as_ref(), &tenant_id).await?;
    Answer::new(&view(tenant_id, &rows))
}

// ---- the check ----

/// Who is checked: the fields the tenant's registers need for the purpose.
#[derive(ToSchema, Default)]
#[schema(as = RegisterIdentity)]
#[allow(dead_code)]
pub(crate) struct IdentityBody {
    first_name: Option<String>,
    last_name: Option<String>,
    /// `YYYY-MM-DD`
    date_of_birth: Option<String>,
    email: Option<String>,
    /// international, or national in the tenant's jurisdiction
    phone: Option<String>,
    postcode: Option<String>,
    /// Spelpaus: `YYYYMMDDNNNC` or `YYYYMMDD-NNNC`; its check digit is checked before any register is asked
    personnummer: Option<String>,
    /// ROFUS: `DDMMYYNNNN` or `DDMMYY-NNNN`
    cpr: Option<String>,
    /// CRUKS: 9 digits passing the 11-test
    bsn: Option<String>,
    /// CRUKS without a BSN
    birth_place: Option<String>,
}

/// The body of `POST /v1/exclusions/check`.
#[derive(ToSchema)]
#[schema(as = RegisterCheckRequest)]
#[allow(dead_code)]
pub(crate) struct CheckBody {
    user_id: String,
    /// `registration`, `login`, `deposit` or `marketing`
    purpose: String,
    identity: Option<IdentityBody>,
}

pub(crate) struct CheckRequest {
    user_id: String,
    purpose: CheckPurpose,
    identity: Identity,
    /// the phone as the shared register compares it
    contacts: crate::exclusions::store::Contacts,
}

impl ToSchema for CheckRequest {
    fn name() -> std::borrow::Cow<'static, str> {
        CheckBody::name()
    }
    fn schemas(schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>)>) {
        <CheckBody as ToSchema>::schemas(schemas);
    }
}
impl utoipa::PartialSchema for CheckRequest {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        <CheckBody as utoipa::PartialSchema>::schema()
    }
}

const IDENTITY_FIELDS: [&str; 10] =
    ["first_name", "last_name", "date_of_birth", "email", "phone", "postcode", "personnummer", "cpr", "bsn", "birth_place"];

fn identity_text(identity: &Map<String, Json>, name: &str) -> ApiResult<Option<String>> {
    match identity.get(name) {
        None | Some(Json::Null) => Ok(None),
        Some(Json::String(v)) if v.trim().is_empty() => Ok(None),
        Some(Json::String(v)) if v.chars().count() <= 256 && !v.chars().any(char::is_control) => Ok(Some(v.trim().to_string())),
        Some(_) => Err(invalid(format!("identity.{name} must be a string of at most 256 characters without control characters"))),
    }
}

impl FromBody for CheckRequest {
    fn from_body(body: &[u8], gw: &Gateway, ctx: &Ctx<'_>) -> ApiResult<Self> {
        let mut f = crate::input::Fields::from_body(body, gw.rules.as_ref())?;
        let user_id = f.text("user_id");
        let purpose_text = f.code("purpose");
        let purpose = CheckPurpose::parse(&purpose_text);
        if !purpose_text.is_empty() && purpose.is_none() {
            f.reject("invalid_field", format!("purpose must be one of {}", names(CheckPurpose::ALL, CheckPurpose::as_str)));
        }
        let identity = f.opt_object("identity").unwrap_or_default();
        // the unknown name is not repeated: it may be anything, an identifier too
        if identity.keys().any(|k| !IDENTITY_FIELDS.contains(&k.as_str())) {
            f.reject("invalid_field", format!("identity holds a field that is not an identity field ({})", IDENTITY_FIELDS.join(", ")));
        }
        f.finish()?;
        let text = |name: &str| identity_text(&identity, name);
        let mut read = Identity {
            first_name: text("first_name")?,
            last_name: text("last_name")?,
            date_of_birth: text("date_of_birth")?,
            email: None,
            phone: text("phone")?,
            postcode: text("postcode")?,
            personnummer: None,
            cpr: None,
            bsn: None,
            birth_place: text("birth_place")?,
        };
        if let Some(date) = &read.date_of_birth {
            if chrono::NaiveDate::parse_from_str(date, "%Y-%m-%d").is_err() || date.len() != 10 {
                return Err(invalid("identity.date_of_birth must be a date as YYYY-MM-DD".into()));
            }
        }
        if let Some(email) = text("email")? {
            read.email = Some(normalize_email(&email).ok_or_else(|| invalid("identity.email must be an e-mail address".into()))?);
        }
        let phone = read
            .phone
            .as_deref()
            .map(|p| read_phone(p, phone_region(&ctx.caller.jurisdiction)))
            .transpose()
            .map_err(|e| e.error("identity.phone"))?;
        // a national identifier whose form or check digit is wrong is refused before any register is asked
        for (name, kind) in [("personnummer", NationalIdKind::Personnummer), ("cpr", NationalIdKind::Cpr), ("bsn", NationalIdKind::Bsn)] {
            let Some(given) = text(name)? else { continue };
            let valid = gw.rules.read_national_id(kind, &given)?.ok_or_else(|| {
                ApiError::unprocessable(
                    "invalid_field",
                    format!("identity.{name} is not a valid {}: its form or check digit is wrong", kind.as_str()),
                )
            })?;
            match kind {
                NationalIdKind::Personnummer => read.personnummer = Some(valid),
                NationalIdKind::Cpr => read.cpr = Some(valid),
                NationalIdKind::Bsn => read.bsn = Some(valid),
            }
        }
        let contacts = crate::exclusions::store::Contacts::of(read.email.as_deref(), phone.as_ref());
        Ok(CheckRequest { user_id, purpose: purpose.unwrap_or(CheckPurpose::Login), identity: read, contacts })
    }
}

/// One register's answer to a check.
#[derive(Serialize, ToSchema)]
#[schema(as = RegisterAnswer)]
pub(crate) struct RegisterResult {
    /// `shared` (this service's register), or `spelpaus`, `gamstop`, `rofus`, `cruks`
    register: String,
    /// `excluded`, `not_excluded`, `previously_excluded` (lapsed: play, no marketing) or `unavailable` (no usable answer)
    status: String,
    /// the register's own id of its answer (GAMSTOP's `X-Unique-Id`, Spelpaus's `responseId`, …)
    reference: Option<String>,
    checked_at: String,
}

#[derive(Serialize, ToSchema)]
#[schema(as = RegisterCheck)]
pub(crate) struct CheckAnswer {
    check_id: String,
    /// the player may not play (for a marketing check: may not be marketed to)
    excluded: bool,
    marketing_allowed: bool,
    /// each register asked: the shared register first, then those the tenant configured for the purpose
    registers: Vec<RegisterResult>,
}

pub(crate) fn check_doc() -> OperationDoc {
    OperationDoc::new("exclusions", "check a player against the shared register and the national registers the tenant is bound to consult")
        .describe(
            "Every register configured for the purpose is asked at once, within one budget of 2 seconds; one that does not answer usably in \
             time is `unavailable`, which excludes unless its `on_outage` is `allow_flagged`. A personnummer, BSN or CPR that fails its check \
             is `422 invalid_field` and no register is asked.",
        )
        .errors(&[422])
}

/// One national register's part of a check, once asked.
struct Asked {
    register: NationalRegister,
    on_outage: OutagePolicy,
    status: RegisterStatus,
    reference: Option<String>,
    /// why an unavailable register's answer could not be used
    reason: Option<String>,
    request_id: String,
    latency_ms: i64,
    /// a code the register gave (CRUKS), to keep for the player
    code: Option<String>,
}

/// Now in milliseconds: the host timer's clock, else the clock's second.
fn now_ms(gw: &Gateway) -> i64 {
    gw.timer.as_ref().map_or_else(|| gw.clock.now().saturating_mul(1_000), |t| t.now_ms())
}

/// Runs `exchange` within the time left before `deadline_ms`; `None` when it is over.
async fn within<T>(gw: &Gateway, deadline_ms: i64, exchange: impl Future<Output = T>) -> Option<T> {
    let left = deadline_ms - now_ms(gw);
    if left <= 0 && gw.timer.is_some() {
        return None;
    }
    crate::time::bounded(gw.timer.as_deref(), u64::try_from(left).unwrap_or(0), exchange).await
}

/// Why a register's answer could not be used: a fixed list, kept as evidence
/// and never the answer's text (which may hold anything).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unusable {
    /// no answer within the check's budget
    Timeout,
    /// no connection, or the exchange broke off
    Unreachable,
    /// a production register's address is not public now
    Destination,
    /// an answer, but not the register's (an error status, a malformed body, another request's answer)
    Answer,
}

impl Unusable {
    fn code(self, status: Option<u16>) -> String {
        match (self, status) {
            (Unusable::Timeout, _) => "timeout".into(),
            (Unusable::Unreachable, _) => "unreachable".into(),
            (Unusable::Destination, _) => "destination_refused".into(),
            (Unusable::Answer, Some(status)) if status != 200 => format!("status_{status}"),
            (Unusable::Answer, _) => "malformed".into(),
        }
    }
}

async fn send(gw: &Gateway, ctx: &Ctx<'_>, deadline_ms: i64, request: VendorRequest) -> Result<VendorResponse, Unusable> {
    send_as(gw, ctx.caller.environment, deadline_ms, request).await
}

async fn send_as(gw: &Gateway, environment: Environment, deadline_ms: i64, request: VendorRequest) -> Result<VendorResponse, Unusable> {
    let http = gw.vendor_http.as_ref().ok_or(Unusable::Unreachable)?;
    // a name that resolved to a public address when it was set may not now: checked before every call, as webhooks are
    if environment == Environment::Production && gw.check_destination(&request.url).await.is_err() {
        return Err(Unusable::Destination);
    }
    match within(gw, deadline_ms, http.send(request)).await {
        None => Err(Unusable::Timeout),
        Some(Err(_)) => Err(Unusable::Unreachable),
        Some(Ok(response)) => Ok(response),
    }
}

/// Asks one national register, CRUKS in its two steps when the player has no code yet.
async fn ask(
    gw: &Gateway,
    ctx: &Ctx<'_>,
    setting: &store::SettingRow,
    credentials: &Credentials,
    request: &CheckRequest,
    code: Option<String>,
    deadline_ms: i64,
) -> Asked {
    let started = now_ms(gw);
    let request_id = gw.new_id("rreq");
    let mut given_code = None;
    let reading: Result<(RegisterStatus, Option<String>), String> = async {
        let unusable = |why: Unusable, response: Option<&VendorResponse>| why.code(response.map(|r| r.status));
        let code = match (setting.register, code) {
            (NationalRegister::Cruks, None) => {
                let mut first = adapters::cruks_code_request(&setting.base_url, &request.identity, &format!("{request_id}-code"));
                first.client_identity = credentials.client_identity();
                let response = send(gw, ctx, deadline_ms, first).await.map_err(|why| unusable(why, None))?;
                match adapters::read_code(&response) {
                    Reading::Code(code) => {
                        given_code = Some(code.clone());
                        Some(code)
                    }
                    Reading::Unusable(_) | Reading::Answer { .. } => return Err(unusable(Unusable::Answer, Some(&response))),
                }
            }
            (_, code) => code,
        };
        let mut call = adapters::request(&setting.base_url, credentials, request.purpose, &request.identity, code.as_deref(), &request_id);
        call.client_identity = credentials.client_identity();
        let response = send(gw, ctx, deadline_ms, call).await.map_err(|why| unusable(why, None))?;
        match adapters::read(setting.register, &response, &request_id) {
            Reading::Answer { status, reference } => Ok((status, reference)),
            Reading::Code(_) | Reading::Unusable(_) => Err(unusable(Unusable::Answer, Some(&response))),
        }
    }
    .await;
    let (status, reference, reason) = match reading {
        Ok((status, reference)) => (status, reference, None),
        Err(reason) => (RegisterStatus::Unavailable, None, Some(reason)),
    };
    let latency_ms = (now_ms(gw) - started).max(0);
    Asked { register: setting.register, on_outage: setting.on_outage, status, reference, reason, request_id, latency_ms, code: given_code }
}

/// A player a national register newly found excluded, as the operator is told.
struct Found<'a> {
    environment: Environment,
    tenant: &'a str,
    user: &'a str,
    /// the check that found them: the event's `exclusion_id`
    check_id: &'a str,
    email: &'a Option<String>,
    phone: &'a Option<String>,
}

impl Found<'_> {
    /// The `exclusion.created` to the tenant alone, its `source` the register (no term: a register says none).
    fn event(&self, gw: &Gateway, register: NationalRegister, now: i64) -> crate::ports::Stmt {
        let data = ExclusionData {
            exclusion_id: self.check_id.to_string(),
            user_id: Some(self.user.to_string()),
            user_email: self.email.clone(),
            user_phone: self.phone.clone(),
            duration: None,
            is_permanent: false,
            expires_at: None,
            source: register.as_str().to_string(),
        };
        gw.event(self.environment, Some(self.tenant), EventKind::ExclusionCreated, now, &data)
    }
}

/// `POST /v1/exclusions/check`.
pub(crate) async fn check(gw: &Gateway, ctx: &Ctx<'_>, Body(request): Body<CheckRequest>) -> ApiResult<Answer<CheckAnswer>> {
    let (tenant, user, environment) = (ctx.caller.tenant_id.as_str(), request.user_id.as_str(), ctx.caller.environment);
    let has_contacts = request.contacts.email.is_some() || request.contacts.phone.is_some();
    let mut reads = vec![
        store::read_settings(tenant),
        store::read_standings(tenant, user),
        crate::exclusions::store::read_player_exclusions(tenant, user, environment),
    ];
    if has_contacts {
        reads.push(crate::exclusions::store::read_matching(environment, &request.contacts));
    }
    let rows = gw.store.query_many(reads).await?;
    let empty = Vec::new();
    let row_set = |i: usize| rows.get(i).unwrap_or(&empty);
    let settings = store::settings_from(row_set(0))?;
    let standings = store::standings_from(row_set(1))?;
    let mut terms: Vec<(String, Option<i64>)> = row_set(2).iter().map(|r| Ok((r.text(0)?, r.opt_int(1)?))).collect::<ApiResult<_>>()?;
    if has_contacts {
        terms.extend(crate::exclusions::store::matching(row_set(3))?.into_iter().map(|m| (m.exclusion_id, m.expires_at)));
    }
    terms.sort_unstable();
    terms.dedup_by(|a, b| a.0 == b.0);

    let asked: Vec<&store::SettingRow> = settings.iter().filter(|s| s.purposes.contains(&request.purpose)).collect();
    let standing_of = |register: NationalRegister| standings.iter().find(|s| s.register == register);
    let code_of = |register: NationalRegister| standing_of(register).and_then(|s| s.code.clone());
    let mut missing: Vec<&str> = Vec::new();
    for setting in &asked {
        for field in request.identity.missing_for(setting.register, code_of(setting.register).is_some()) {
            if !missing.contains(&field) {
                missing.push(field);
            }
        }
    }
    if !missing.is_empty() {
        let registers = names(&asked.iter().map(|s| s.register).collect::<Vec<_>>(), NationalRegister::as_str);
        return Err(ApiError::bad_request(
            "missing_fields",
            format!("missing required fields: {} (the {} check asks {registers})", missing.join(", "), request.purpose.as_str()),
        ));
    }
    let mut credentials = Vec::with_capacity(asked.len());
    for setting in &asked {
        let plain = gw.open_secret(&setting.credentials, &aad(tenant, setting.register)).map_err(|e| e.into_api_error())?;
        credentials.push(
            Credentials::from_json(setting.register, &plain)
                .ok_or_else(|| ApiError::internal().with_detail("stored register credentials are damaged".into()))?,
        );
    }

    let started_ms = now_ms(gw);
    let deadline_ms = started_ms + CHECK_BUDGET_MS as i64;
    let answers = futures_util::future::join_all(
        asked.iter().zip(&credentials).map(|(setting, c)| ask(gw, ctx, setting, c, &request, code_of(setting.register), deadline_ms)),
    )
    .await;

    let facts = RegisterCheckFacts {
        now: ctx.now,
        purpose: request.purpose,
        exclusions: terms.iter().map(|(_, expires_at)| ExclusionTerm { expires_at: *expires_at }).collect(),
        answers: answers
            .iter()
            .map(|a| RegisterAnswer {
                register: a.register,
                status: a.status,
                on_outage: a.on_outage,
                standing: standing_of(a.register).map_or(RegisterStatus::Unavailable, |s| s.status),
            })
            .collect(),
    };
    let scope = Scope::of(ctx, user);
    let (decision, log) = gw.decide(&scope, Operation::RegisterCheck, &facts, |r, f| r.decide_register_check(f))?;

    let check_id = gw.new_id("rchk");
    let shared = store::CheckRow {
        check_id: check_id.clone(),
        seq: 0,
        register: SHARED.to_string(),
        purpose: store::Occasion::Check(request.purpose),
        status: decision.shared,
        reference: None,
        reason: None,
        request_id: log.decision_id().to_string(),
        checked_at: ctx.now,
        at_ms: started_ms,
        latency_ms: 0,
    };
    let mut evidence = vec![shared];
    for (i, a) in answers.iter().enumerate() {
        evidence.push(store::CheckRow {
            check_id: check_id.clone(),
            seq: i as i64 + 1,
            register: a.register.as_str().to_string(),
            purpose: store::Occasion::Check(request.purpose),
            status: a.status,
            reference: a.reference.clone(),
            reason: a.reason.clone(),
            request_id: a.request_id.clone(),
            checked_at: ctx.now,
            at_ms: started_ms,
            latency_ms: a.latency_ms,
        });
    }
    let mut statements: Vec<crate::ports::Stmt> = evidence.iter().map(|row| store::insert_check(tenant, user, row)).collect();
    let kept: Vec<Option<String>> = answers
        .iter()
        .map(|a| match decision.sets_standing {
            true => batch::kept_identity(a.register, &request.identity, &request.contacts)
                .map(|identity| gw.seal_secret(&identity, &batch::identity_aad(tenant, user, a.register))),
            false => None,
        })
        .collect();
    statements.extend(answers.iter().zip(&kept).map(|(a, identity)| {
        // a check that sets no standing keeps only the code a register gave
        let status = if decision.sets_standing { a.status } else { RegisterStatus::Unavailable };
        let kept = store::Kept { code: a.code.as_deref(), batch_identity: identity.as_deref() };
        store::set_standing(tenant, user, a.register, status, kept, ctx.now, started_ms)
    }));
    let found = Found { environment, tenant, user, check_id: &check_id, email: &request.contacts.email, phone: &request.contacts.phone };
    statements.extend(decision.newly_excluded.iter().map(|register| found.event(gw, *register, ctx.now)));
    statements.push(log.statement());
    gw.store.batch(statements).await?;

    let registers = evidence
        .into_iter()
        .map(|row| RegisterResult {
            register: row.register,
            status: row.status.as_str().to_string(),
            reference: row.reference,
            checked_at: time::format(row.checked_at),
        })
        .collect();
    Ok(Answer::new(&CheckAnswer { check_id, excluded: decision.excluded, marketing_allowed: decision.marketing_allowed, registers })?
        .decided(log.decision_id()))
}

// ---- the evidence ----

#[derive(serde::Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct ChecksQuery {
    user_id: String,
    /// from 1 to 200; 50 unless given
    #[param(value_type = Option<i64>)]
    limit: Option<Limit<MAX_PAGE>>,
    #[param(value_type = Option<String>)]
    cursor: Option<ChecksCursor>,
}

/// A page cursor of the checks list.
pub(crate) struct ChecksCursor(store::CheckCursor);

impl<'de> serde::Deserialize<'de> for ChecksCursor {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        parse_text(deserializer, INVALID_CURSOR, |text| {
            crate::api::cursor::decode::<store::CheckCursor>(text)
                .filter(|(at, _, seq)| [*at, *seq].iter().all(|n| n.unsigned_abs() <= crate::ports::MAX_STORED_INTEGER.unsigned_abs()))
                .map(ChecksCursor)
                .ok_or_else(|| "is not a cursor this service gave".to_string())
        })
    }
}

/// One register's part of a check, as kept.
#[derive(Serialize, ToSchema)]
#[schema(as = RegisterCheckRecord)]
pub(crate) struct CheckRecord {
    check_id: String,
    register: String,
    /// the check's purpose, or `batch` for the nightly batch
    purpose: String,
    status: String,
    reference: Option<String>,
    /// why an `unavailable` register's answer could not be used: `timeout`, `unreachable`,
    /// `destination_refused`, `status_NNN` (its HTTP status) or `malformed`
    reason: Option<String>,
    /// our id of the call, sent to the register (`requestId`, `X-Trace-Id`); for the shared register, the decision's id
    request_id: String,
    checked_at: String,
    latency_ms: i64,
}

#[derive(Serialize, ToSchema)]
#[schema(as = RegisterCheckPage)]
pub(crate) struct CheckPage {
    checks: Vec<CheckRecord>,
    next_cursor: Option<String>,
}

pub(crate) fn list_checks_doc() -> OperationDoc {
    OperationDoc::new("exclusions", "a player's register checks, newest first: each register's answer, reference and latency")
}

/// `GET /v1/registers/checks?user_id=`.
pub(crate) async fn list_checks(gw: &Gateway, ctx: &Ctx<'_>, Params(query): Params<ChecksQuery>) -> ApiResult<Answer<CheckPage>> {
    let ChecksQuery { user_id, limit, cursor } = query;
    let limit = Limit::or(limit, DEFAULT_PAGE);
    let mut rows = store::checks(gw.store.as_ref(), &ctx.caller.tenant_id, &user_id, cursor.map(|c| c.0), limit + 1).await?;
    let next_cursor = if rows.len() as i64 > limit {
        rows.truncate(usize::try_from(limit).unwrap_or(0));
        rows.last().map(|r| crate::api::cursor::encode(&(r.at_ms, r.check_id.clone(), r.seq)))
    } else {
        None
    };
    let checks = rows
        .into_iter()
        .map(|r| CheckRecord {
            check_id: r.check_id,
            register: r.register,
            purpose: r.purpose.as_str().to_string(),
            status: r.status.as_str().to_string(),
            reference: r.reference,
            reason: r.reason,
            request_id: r.request_id,
            checked_at: time::format(r.checked_at),
            latency_ms: r.latency_ms,
        })
        .collect();
    Answer::new(&CheckPage { checks, next_cursor })
}
