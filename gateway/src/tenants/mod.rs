//! The tenants-and-keys area: the compliance team's admin API (tenants,
//! keys, suspension, the audit logs), authentication ([`authn`]) and the
//! admin keys hosts create. Handlers are free functions; the area's SQL is in [`store`].

mod authn;
pub mod store;

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::api::ReviewPage;
use crate::auth::{self, Environment};
use crate::error::{ApiError, ApiResult};
use crate::input::{Body, FromBody, Params, Path};
use crate::input::{Cursor, Fields, Limit};
use crate::openapi::answer::{self, Answer};
use crate::openapi::shared::{Environment as EnvironmentName, Timestamp};
use crate::openapi::OperationDoc;
use crate::ports::{Stmt, StoreError};
use crate::{time, Ctx, Gateway, Reply, DEFAULT_RATE_LIMIT_PER_MINUTE};
use store::AuditRow;

/// Production tenants start here until their contract sets another rate.
const DEFAULT_PRODUCTION_RATE_LIMIT_PER_MINUTE: i64 = 1_000;
pub(crate) const SERVICE_RATE_LIMIT_PER_MINUTE: i64 = 100_000;
const MAX_RATE_LIMIT_PER_MINUTE: i64 = 1_000_000;
/// How many entries a page of an audit log shows unless `limit` says, and at most.
const AUDIT_PAGE: i64 = 500;

/// The body of `POST /v1/admin/tenants`.
#[derive(ToSchema)]
#[schema(as = NewTenant)]
pub(crate) struct TenantRequest {
    #[schema(min_length = 1, max_length = 256)]
    name: String,
    #[schema(value_type = EnvironmentName)]
    environment: Environment,
    #[schema(minimum = 1, maximum = 1_000_000)]
    rate_limit_per_minute: Option<i64>,
    /// the rules profile of the tenant's decisions (`GET /v1/rules` lists them); `default` when absent or null
    #[schema(default = "default", required = false, value_type = Option<String>)]
    jurisdiction: String,
    /// screening beyond sanctions; both off when absent or null (the spec's launch)
    #[schema(required = false, value_type = Option<ScreeningRequest>)]
    screening: ScreeningSwitches,
}

/// Which topics beyond sanctions a tenant screens for. A PEP or an
/// adverse-media match opens a due-diligence case and holds nothing.
#[derive(Debug, Clone, Copy, Default, Serialize, ToSchema)]
pub(crate) struct ScreeningSwitches {
    #[schema(default = false)]
    pep: bool,
    #[schema(default = false)]
    adverse_media: bool,
}

impl ScreeningSwitches {
    fn parse(f: &mut Fields) -> Option<Self> {
        f.opt_switches("screening", ["pep", "adverse_media"]).map(|[pep, adverse_media]| ScreeningSwitches { pep, adverse_media })
    }
}

impl From<ScreeningSwitches> for rules_model::ScreeningScope {
    fn from(s: ScreeningSwitches) -> Self {
        rules_model::ScreeningScope { pep: s.pep, adverse_media: s.adverse_media }
    }
}

impl From<rules_model::ScreeningScope> for ScreeningSwitches {
    fn from(s: rules_model::ScreeningScope) -> Self {
        ScreeningSwitches { pep: s.pep, adverse_media: s.adverse_media }
    }
}

/// The body of `PUT /v1/admin/tenants/{tenant_id}/screening`, and a new
/// tenant's `screening`: both switches, each false when left out.
#[derive(ToSchema)]
#[schema(as = TenantScreeningRequest)]
pub(crate) struct ScreeningRequest {
    #[schema(default = false, required = false)]
    pep: bool,
    #[schema(default = false, required = false)]
    adverse_media: bool,
}

impl FromBody for ScreeningRequest {
    fn from_body(body: &[u8], gw: &Gateway, _: &Ctx<'_>) -> ApiResult<Self> {
        let mut f = Fields::from_body(body, gw.rules.as_ref())?;
        let request = ScreeningRequest { pep: f.opt_bool("pep").unwrap_or(false), adverse_media: f.opt_bool("adverse_media").unwrap_or(false) };
        f.finish()?;
        Ok(request)
    }
}

/// A tenant's screening switches as set.
#[derive(Serialize, ToSchema)]
#[schema(as = TenantScreening)]
pub(crate) struct ScreeningSet {
    tenant_id: String,
    screening: ScreeningSwitches,
}

impl FromBody for TenantRequest {
    fn from_body(body: &[u8], gw: &Gateway, _: &Ctx<'_>) -> ApiResult<Self> {
        let profiles = gw.rules.jurisdictions();
        let mut f = Fields::from_body(body, gw.rules.as_ref())?;
        let name = f.text("name");
        let environment_text = f.code("environment");
        let rate_limit_per_minute = f.opt_integer("rate_limit_per_minute");
        let jurisdiction = f.opt_text("jurisdiction").unwrap_or_else(|| rules_model::DEFAULT_JURISDICTION.to_string());
        let screening = ScreeningSwitches::parse(&mut f).unwrap_or_default();
        if !profiles.iter().any(|p| p.name == jurisdiction) {
            let names: Vec<&str> = profiles.iter().map(|p| p.name.as_str()).collect();
            f.reject("invalid_field", format!("jurisdiction must be one of {}", names.join(", ")));
        }
        let environment = Environment::parse(&environment_text);
        if !environment_text.is_empty() && environment.is_none() {
            f.reject("invalid_field", "environment must be sandbox or production");
        }
        if rate_limit_per_minute.is_some_and(|r| !(1..=MAX_RATE_LIMIT_PER_MINUTE).contains(&r)) {
            f.reject("invalid_field", format!("rate_limit_per_minute must be from 1 to {MAX_RATE_LIMIT_PER_MINUTE}"));
        }
        f.finish()?;
        let environment = environment.ok_or_else(ApiError::internal)?;
        Ok(TenantRequest { name, environment, rate_limit_per_minute, jurisdiction, screening })
    }
}

/// The body of `PUT /v1/admin/tenants/{tenant_id}/rate-limit`.
#[derive(ToSchema)]
#[schema(as = TenantRateLimitRequest)]
pub(crate) struct RateLimitRequest {
    #[schema(minimum = 1, maximum = 1_000_000)]
    rate_limit_per_minute: i64,
}

impl FromBody for RateLimitRequest {
    fn from_body(body: &[u8], gw: &Gateway, _: &Ctx<'_>) -> ApiResult<Self> {
        let mut f = Fields::from_body(body, gw.rules.as_ref())?;
        let rate = f.integer("rate_limit_per_minute");
        if !f.is_missing("rate_limit_per_minute") && !(1..=MAX_RATE_LIMIT_PER_MINUTE).contains(&rate) {
            f.reject("invalid_field", format!("rate_limit_per_minute must be from 1 to {MAX_RATE_LIMIT_PER_MINUTE}"));
        }
        f.finish()?;
        Ok(RateLimitRequest { rate_limit_per_minute: rate })
    }
}

/// A tenant's request rate per key, as set.
#[derive(Serialize, ToSchema)]
#[schema(as = TenantRateLimit)]
pub(crate) struct RateLimitSet {
    tenant_id: String,
    rate_limit_per_minute: i64,
}

/// A new tenant with its first key, shown once.
#[derive(Serialize, ToSchema)]
#[schema(as = TenantCreated)]
pub(crate) struct Created {
    tenant_id: String,
    name: String,
    #[schema(value_type = EnvironmentName)]
    environment: &'static str,
    rate_limit_per_minute: i64,
    jurisdiction: String,
    screening: ScreeningSwitches,
    key_id: String,
    api_key: String,
}

/// A new key, shown once.
#[derive(Serialize, ToSchema)]
#[schema(as = KeyCreated)]
pub(crate) struct KeyCreated {
    key_id: String,
    tenant_id: String,
    api_key: String,
}

#[derive(Serialize, ToSchema)]
#[schema(as = KeyRevoked)]
pub(crate) struct Revoked {
    key_id: String,
    #[schema(value_type = Timestamp)]
    revoked_at: String,
}

#[derive(Serialize, ToSchema)]
#[schema(as = TenantSuspended)]
pub(crate) struct Suspended {
    tenant_id: String,
    suspended: bool,
}

/// One entry of an audit log: a failed authentication or an admin action.
#[derive(Serialize, ToSchema)]
struct AuditEntry {
    audit_id: String,
    action: String,
    reason: String,
    #[schema(required)]
    key_prefix: Option<String>,
    request_id: String,
    #[schema(value_type = Timestamp)]
    at: String,
    #[schema(required)]
    actor_key_id: Option<String>,
    #[schema(required)]
    resource: Option<String>,
    /// in the environment's admin log only: the tenant acted on
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(required = false)]
    tenant_id: Option<Option<String>>,
}

/// A page of a tenant's audit log, newest first.
#[derive(Serialize, ToSchema)]
#[schema(as = TenantAudit)]
pub(crate) struct TenantAuditLog {
    tenant_id: String,
    entries: Vec<AuditEntry>,
    /// for the next page; `null` on the last
    #[schema(required)]
    next_cursor: Option<String>,
    has_more: bool,
}

/// A page of the environment's admin actions, newest first.
#[derive(Serialize, ToSchema)]
#[schema(as = AdminAudit)]
pub(crate) struct AdminAuditLog {
    #[schema(value_type = EnvironmentName)]
    environment: &'static str,
    entries: Vec<AuditEntry>,
    /// for the next page; `null` on the last
    #[schema(required)]
    next_cursor: Option<String>,
    has_more: bool,
}

/// The page of an audit log asked for.
#[derive(Deserialize, IntoParams)]
pub(crate) struct AuditQuery {
    /// default and most 500
    #[param(inline)]
    limit: Option<AuditLimit>,
    /// the `next_cursor` of the page before
    #[param(value_type = Option<String>)]
    cursor: Option<Cursor<(i64, String)>>,
}

/// The `limit` of an audit page: 1 to [`AUDIT_PAGE`].
type AuditLimit = Limit<AUDIT_PAGE>;

/// The page a request asks for: its size and where it starts.
fn audit_page(AuditQuery { limit, cursor }: AuditQuery) -> ReviewPage<(i64, String)> {
    ReviewPage { limit: Limit::or(limit, AUDIT_PAGE), after: Cursor::after(cursor), min_age_seconds: 0 }
}

pub(crate) fn create_doc() -> OperationDoc {
    OperationDoc::new(
        "admin",
        "create a tenant and its first key, shown once; an `Idempotency-Key` is not kept (the answer holds the key, which is \
         stored only hashed): a retry makes another tenant",
    )
    .errors(&[409])
}

pub(crate) fn create_key_doc() -> OperationDoc {
    OperationDoc::new(
        "admin",
        "a new key for a tenant, shown once; an `Idempotency-Key` is not kept (the answer holds the key, which is stored only \
         hashed): a retry makes another key",
    )
    .errors(&[404, 409])
}

pub(crate) fn suspend_doc() -> OperationDoc {
    OperationDoc::new("admin", "suspend a tenant: its keys stop working").errors(&[404, 409])
}

pub(crate) fn set_screening_doc() -> OperationDoc {
    OperationDoc::new("admin", "switch screening for PEPs and adverse media on or off for a tenant").errors(&[400, 404])
}

pub(crate) fn set_rate_limit_doc() -> OperationDoc {
    OperationDoc::new("admin", "change a tenant's request rate per key and minute")
        .describe("Every key of the tenant runs under the new rate from its next request. A key already refused in the current minute may stay refused until the minute ends (where hosts share their counts, each holds what it reserved of the minute).")
        .errors(&[400, 404])
}

pub(crate) fn audit_of_doc() -> OperationDoc {
    OperationDoc::new("admin", "a tenant's audit log, newest first, a page at a time").errors(&[400, 404])
}

pub(crate) fn revoke_key_doc() -> OperationDoc {
    OperationDoc::new("admin", "revoke a key").errors(&[404])
}

pub(crate) fn admin_audit_doc() -> OperationDoc {
    OperationDoc::new("admin", "admin actions of the environment, newest first, a page at a time").errors(&[400])
}

pub(crate) fn own_audit_doc() -> OperationDoc {
    OperationDoc::new("audit", "the caller's audit log: failed authentications and admin actions on the tenant, newest first, a page at a time")
        .errors(&[400])
}

fn tenant_not_found() -> ApiError {
    ApiError::not_found("tenant_not_found", "no such tenant in this environment")
}

impl Gateway {
    fn key_statement(&self, tenant_id: &str, environment: Environment, is_admin: bool, now: i64) -> (String, String, Stmt) {
        let key = auth::new_key(environment, &self.ids.random_bytes(24));
        let key_id = self.new_id("key");
        let statement = store::insert_key(&key_id, tenant_id, auth::hash_key(&key), auth::audit_prefix(&key), is_admin, now);
        (key_id, key, statement)
    }

    /// A new admin key for the compliance team of an environment. The key is
    /// returned once; only its hash is stored.
    pub async fn create_admin_key(&self, environment: Environment) -> Result<String, StoreError> {
        let (key, statements) = self.admin_key_statements(environment);
        self.store.batch(statements).await?;
        Ok(key)
    }

    /// A new admin key and the statements that store it (its hash, and the
    /// environment's service tenant if it is new), for hosts that write them
    /// another way, such as `wrangler d1 execute` for a deployed edge.
    pub fn admin_key_statements(&self, environment: Environment) -> (String, Vec<Stmt>) {
        let now = self.clock.now();
        let service_tenant = format!("svc_{}", environment.as_str());
        let (_, key, insert_key) = self.key_statement(&service_tenant, environment, true, now);
        let statements = vec![store::insert_service_tenant(&service_tenant, environment, SERVICE_RATE_LIMIT_PER_MINUTE, now), insert_key];
        (key, statements)
    }

    pub(crate) async fn require_tenant(&self, ctx: &Ctx<'_>, tenant_id: &str) -> ApiResult<()> {
        match store::operator_tenant_exists(self.store.as_ref(), tenant_id, ctx.caller.environment).await? {
            true => Ok(()),
            false => Err(tenant_not_found()),
        }
    }

    async fn audit_of_tenant(&self, tenant_id: &str, query: AuditQuery) -> ApiResult<Answer<TenantAuditLog>> {
        let mut page = audit_page(query);
        let after = store::AuditAfter(page.after.take());
        let mut rows = store::tenant_audit(self.store.as_ref(), tenant_id, &after, page.read_limit()).await?;
        let (has_more, next_cursor) = page.cut(&mut rows, |r| (r.at, r.audit_id.clone()));
        let entries = rows.into_iter().map(audit_entry).collect();
        Answer::new(&TenantAuditLog { tenant_id: tenant_id.to_string(), entries, next_cursor, has_more })
    }

    /// Records an admin action that succeeded: who (the admin key), what, on
    /// which resource and tenant. Written after the action's own batch; a
    /// failing write does not undo the action, and is reported in the log.
    pub(crate) async fn audit_admin_action(&self, ctx: &Ctx<'_>, action: &str, resource: Option<&str>, reply: &Reply, request_id: &str) {
        #[derive(serde::Deserialize)]
        struct TenantOf<'a> {
            #[serde(borrow)]
            tenant_id: Option<std::borrow::Cow<'a, str>>,
        }
        let of_answer = serde_json::from_str::<TenantOf<'_>>(reply.body.get()).ok().and_then(|t| t.tenant_id);
        let from_answer = of_answer.as_deref();
        let tenant = match action {
            "key.create" | "tenant.suspend" => resource,
            _ => from_answer,
        };
        let audit_id = self.new_id("aud");
        let statement = store::audit_admin_action(&store::AdminAction {
            audit_id: &audit_id,
            tenant_id: tenant,
            action,
            request_id,
            now: self.clock.now(),
            environment: ctx.caller.environment,
            actor_key_id: &ctx.caller.key_id,
            resource,
        });
        if let Err(e) = self.store.batch(vec![statement]).await {
            // The core has no logger: stderr where the host has one.
            tracing::error!(target: "audit", action, request_id, error = %e, "the audit of an admin action failed");
        }
    }
}

/// `POST /v1/admin/tenants`: a tenant of the admin key's environment, with its first key (shown once).
pub(crate) async fn create(gw: &Gateway, ctx: &Ctx<'_>, Body(request): Body<TenantRequest>) -> ApiResult<answer::Created<Created>> {
    let TenantRequest { name, environment, rate_limit_per_minute: rate, jurisdiction, screening } = request;
    if environment != ctx.caller.environment {
        return Err(ApiError::forbidden("environment_mismatch", "an admin key manages tenants of its own environment only"));
    }
    let rate = rate.unwrap_or(match environment {
        Environment::Sandbox => DEFAULT_RATE_LIMIT_PER_MINUTE,
        Environment::Production => DEFAULT_PRODUCTION_RATE_LIMIT_PER_MINUTE,
    });
    let tenant_id = gw.new_id("ten");
    let (key_id, key, insert_key) = gw.key_statement(&tenant_id, environment, false, ctx.now);
    let tenant = store::NewTenant {
        tenant_id: &tenant_id,
        name: &name,
        environment,
        rate_limit_per_minute: rate,
        jurisdiction: &jurisdiction,
        screening: screening.into(),
        now: ctx.now,
    };
    gw.store.batch(vec![store::insert_tenant(&tenant), insert_key]).await?;
    let body = Created {
        tenant_id: tenant_id.clone(),
        name: name.clone(),
        environment: environment.as_str(),
        rate_limit_per_minute: rate,
        jurisdiction: jurisdiction.clone(),
        screening,
        key_id,
        api_key: key,
    };
    answer::Created::new(&body)
}

/// `POST /v1/admin/tenants/{id}/keys`: another key for a tenant (shown once).
pub(crate) async fn create_key(gw: &Gateway, ctx: &Ctx<'_>, Path(tenant_id): Path) -> ApiResult<answer::Created<KeyCreated>> {
    gw.require_tenant(ctx, &tenant_id).await?;
    let (key_id, key, insert_key) = gw.key_statement(&tenant_id, ctx.caller.environment, false, ctx.now);
    gw.store.batch(vec![insert_key]).await?;
    answer::Created::new(&KeyCreated { key_id, tenant_id, api_key: key })
}

/// `DELETE /v1/admin/keys/{id}`: the key stops working at once on this host, within a second on the others.
pub(crate) async fn revoke_key(gw: &Gateway, ctx: &Ctx<'_>, Path(key_id): Path) -> ApiResult<Answer<Revoked>> {
    let revoked_at = store::key_revoked_at(gw.store.as_ref(), &key_id, ctx.caller.environment)
        .await?
        .ok_or_else(|| ApiError::not_found("key_not_found", "no such key in this environment"))?;
    if let Some(revoked_at) = revoked_at {
        return Answer::new(&Revoked { key_id, revoked_at: time::format(revoked_at) });
    }
    gw.store.batch(vec![store::revoke_key(&key_id, ctx.now)]).await?;
    gw.key_cache.clear();
    Answer::new(&Revoked { key_id, revoked_at: time::format(ctx.now) })
}

/// `POST /v1/admin/tenants/{id}/suspend`: every key of the tenant stops working.
pub(crate) async fn suspend(gw: &Gateway, ctx: &Ctx<'_>, Path(tenant_id): Path) -> ApiResult<Answer<Suspended>> {
    gw.require_tenant(ctx, &tenant_id).await?;
    gw.store.batch(vec![store::suspend(&tenant_id, ctx.now)]).await?;
    gw.key_cache.clear();
    Answer::new(&Suspended { tenant_id, suspended: true })
}

/// `PUT /v1/admin/tenants/{id}/screening`: which topics beyond sanctions the
/// tenant screens for from its next screening on.
pub(crate) async fn set_screening(
    gw: &Gateway,
    ctx: &Ctx<'_>,
    (Path(tenant_id), Body(request)): (Path, Body<ScreeningRequest>),
) -> ApiResult<Answer<ScreeningSet>> {
    gw.require_tenant(ctx, &tenant_id).await?;
    let screening = ScreeningSwitches { pep: request.pep, adverse_media: request.adverse_media };
    gw.store.batch(vec![store::set_screening(&tenant_id, ctx.caller.environment, screening.into())]).await?;
    Answer::new(&ScreeningSet { tenant_id, screening })
}

/// `PUT /v1/admin/tenants/{id}/rate-limit`: the tenant's request rate per
/// key and minute (spec L2: production rates are set per tenant), from each
/// key's next request on.
pub(crate) async fn set_rate_limit(
    gw: &Gateway,
    ctx: &Ctx<'_>,
    (Path(tenant_id), Body(RateLimitRequest { rate_limit_per_minute: rate })): (Path, Body<RateLimitRequest>),
) -> ApiResult<Answer<RateLimitSet>> {
    gw.require_tenant(ctx, &tenant_id).await?;
    gw.store.batch(vec![store::set_rate_limit(&tenant_id, ctx.caller.environment, rate)]).await?;
    // the cached callers carry the rate they were read with
    gw.key_cache.clear();
    Answer::new(&RateLimitSet { tenant_id, rate_limit_per_minute: rate })
}

/// `GET /v1/admin/tenants/{id}/audit`: a tenant's audit log.
pub(crate) async fn audit_of(
    gw: &Gateway,
    ctx: &Ctx<'_>,
    (Path(tenant_id), Params(query)): (Path, Params<AuditQuery>),
) -> ApiResult<Answer<TenantAuditLog>> {
    gw.require_tenant(ctx, &tenant_id).await?;
    gw.audit_of_tenant(&tenant_id, query).await
}

/// A tenant's own audit log: failed authentications with its keys and
/// what the compliance team did to the tenant.
pub(crate) async fn own_audit(gw: &Gateway, ctx: &Ctx<'_>, Params(query): Params<AuditQuery>) -> ApiResult<Answer<TenantAuditLog>> {
    gw.audit_of_tenant(&ctx.caller.tenant_id, query).await
}

/// The admin actions of the environment, newest first, a page at a time.
pub(crate) async fn admin_audit(gw: &Gateway, ctx: &Ctx<'_>, Params(query): Params<AuditQuery>) -> ApiResult<Answer<AdminAuditLog>> {
    let mut page = audit_page(query);
    let after = store::AuditAfter(page.after.take());
    let mut rows = store::admin_audit(gw.store.as_ref(), ctx.caller.environment, &after, page.read_limit()).await?;
    let (has_more, next_cursor) = page.cut(&mut rows, |r| (r.at, r.audit_id.clone()));
    let mut entries = Vec::new();
    for row in rows {
        let tenant_id = row.tenant_id.clone();
        entries.push(AuditEntry { tenant_id: Some(tenant_id), ..audit_entry(row) });
    }
    Answer::new(&AdminAuditLog { environment: ctx.caller.environment.as_str(), entries, next_cursor, has_more })
}

fn audit_entry(row: AuditRow) -> AuditEntry {
    AuditEntry {
        audit_id: row.audit_id,
        action: row.action,
        reason: row.reason,
        key_prefix: row.key_prefix,
        request_id: row.request_id,
        at: time::format(row.at),
        actor_key_id: row.actor_key_id,
        resource: row.resource,
        tenant_id: None,
    }
}

#[cfg(test)]
mod tests {
    use utoipa::PartialSchema;

    use super::*;

    /// The documented bound is the enforced one (a schema attribute takes only a literal).
    #[test]
    fn the_documented_rate_bound_is_the_enforced_one() {
        for schema in [TenantRequest::schema(), RateLimitRequest::schema()] {
            let schema = serde_json::to_value(schema).expect("serialises");
            assert_eq!(schema["properties"]["rate_limit_per_minute"]["maximum"].as_f64(), Some(MAX_RATE_LIMIT_PER_MINUTE as f64));
        }
    }

    /// The documented page is the served one.
    #[test]
    fn the_documented_audit_page_is_the_served_one() {
        let doc = OperationDoc::new("admin", "audit").query::<AuditQuery>();
        let limit = doc.query.iter().find(|p| p["name"] == "limit").expect("a limit parameter");
        assert_eq!(limit["schema"]["maximum"].as_f64(), Some(AUDIT_PAGE as f64));
    }
}
