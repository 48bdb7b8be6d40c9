//! The tenants-and-keys area: the compliance team's admin API (tenants,
//! keys, suspension, the audit logs), authentication ([`authn`]) and the
//! admin keys hosts create. Handlers are free functions; the area's SQL is in [`store`].

mod authn;
pub mod store;

use serde_json::json;

use crate::auth::{self, Environment};
use crate::error::{ApiError, ApiResult};
use crate::input::Fields;
use crate::ports::{Stmt, StoreError};
use crate::{time, Ctx, Gateway, Reply, DEFAULT_RATE_LIMIT_PER_MINUTE};
use store::AuditRow;

/// Production tenants start here until their contract sets another rate.
const DEFAULT_PRODUCTION_RATE_LIMIT_PER_MINUTE: i64 = 1_000;
const SERVICE_RATE_LIMIT_PER_MINUTE: i64 = 100_000;
const MAX_RATE_LIMIT_PER_MINUTE: i64 = 1_000_000;
/// How many entries an audit log read shows.
const AUDIT_LENGTH: i64 = 500;

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

    async fn require_tenant(&self, ctx: &Ctx<'_>, tenant_id: &str) -> ApiResult<()> {
        match store::operator_tenant_exists(self.store.as_ref(), tenant_id, ctx.caller.environment).await? {
            true => Ok(()),
            false => Err(tenant_not_found()),
        }
    }

    async fn audit_of_tenant(&self, tenant_id: &str) -> ApiResult<Reply> {
        let entries: Vec<serde_json::Value> =
            store::tenant_audit(self.store.as_ref(), tenant_id, AUDIT_LENGTH).await?.iter().map(audit_entry).collect();
        Ok(Reply::ok(json!({ "tenant_id": tenant_id, "entries": entries })))
    }

    /// Records an admin action that succeeded: who (the admin key), what, on
    /// which resource and tenant. Written after the action's own batch; a
    /// failing write does not undo the action, and is reported in the log.
    pub(crate) async fn audit_admin_action(&self, ctx: &Ctx<'_>, action: &str, resource: Option<&str>, reply: &Reply, request_id: &str) {
        let from_answer = reply.body.get("tenant_id").and_then(|v| v.as_str());
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
            eprintln!("audit of {action} ({request_id}) failed: {e}");
        }
    }
}

/// `POST /v1/admin/tenants`: a tenant of the admin key's environment, with its first key (shown once).
pub(crate) async fn create(gw: &Gateway, ctx: &Ctx<'_>) -> ApiResult<Reply> {
    let mut f = Fields::from_body(ctx.body)?;
    let name = f.text("name");
    let environment_text = f.code("environment");
    let rate = f.opt_integer("rate_limit_per_minute");
    let jurisdiction = f.opt_text("jurisdiction").unwrap_or_else(|| rules::DEFAULT_JURISDICTION.to_string());
    let profiles = gw.rules.jurisdictions();
    if !profiles.iter().any(|p| p.name == jurisdiction) {
        let names: Vec<&str> = profiles.iter().map(|p| p.name.as_str()).collect();
        f.reject("invalid_field", format!("jurisdiction must be one of {}", names.join(", ")));
    }
    let environment = Environment::parse(&environment_text);
    if !environment_text.is_empty() && environment.is_none() {
        f.reject("invalid_field", "environment must be sandbox or production");
    }
    if rate.is_some_and(|r| !(1..=MAX_RATE_LIMIT_PER_MINUTE).contains(&r)) {
        f.reject("invalid_field", format!("rate_limit_per_minute must be from 1 to {MAX_RATE_LIMIT_PER_MINUTE}"));
    }
    f.finish()?;
    let environment = environment.ok_or_else(ApiError::internal)?;
    if environment != ctx.caller.environment {
        return Err(ApiError::forbidden("environment_mismatch", "an admin key manages tenants of its own environment only"));
    }
    let rate = rate.unwrap_or(match environment {
        Environment::Sandbox => DEFAULT_RATE_LIMIT_PER_MINUTE,
        Environment::Production => DEFAULT_PRODUCTION_RATE_LIMIT_PER_MINUTE,
    });
    let tenant_id = gw.new_id("ten");
    let (key_id, key, insert_key) = gw.key_statement(&tenant_id, environment, false, ctx.now);
    let tenant =
        store::NewTenant { tenant_id: &tenant_id, name: &name, environment, rate_limit_per_minute: rate, jurisdiction: &jurisdiction, now: ctx.now };
    gw.store.batch(vec![store::insert_tenant(&tenant), insert_key]).await?;
    Ok(Reply::created(json!({
        "tenant_id": tenant_id,
        "name": name,
        "environment": environment.as_str(),
        "rate_limit_per_minute": rate,
        "jurisdiction": jurisdiction,
        "key_id": key_id,
        "api_key": key,
    })))
}

/// `POST /v1/admin/tenants/{id}/keys`: another key for a tenant (shown once).
pub(crate) async fn create_key(gw: &Gateway, ctx: &Ctx<'_>, tenant_id: &str) -> ApiResult<Reply> {
    gw.require_tenant(ctx, tenant_id).await?;
    let (key_id, key, insert_key) = gw.key_statement(tenant_id, ctx.caller.environment, false, ctx.now);
    gw.store.batch(vec![insert_key]).await?;
    Ok(Reply::created(json!({ "key_id": key_id, "tenant_id": tenant_id, "api_key": key })))
}

/// `DELETE /v1/admin/keys/{id}`: the key stops working at once on this host, within a second on the others.
pub(crate) async fn revoke_key(gw: &Gateway, ctx: &Ctx<'_>, key_id: &str) -> ApiResult<Reply> {
    let revoked_at = store::key_revoked_at(gw.store.as_ref(), key_id, ctx.caller.environment)
        .await?
        .ok_or_else(|| ApiError::not_found("key_not_found", "no such key in this environment"))?;
    if let Some(revoked_at) = revoked_at {
        return Ok(Reply::ok(json!({ "key_id": key_id, "revoked_at": time::format(revoked_at) })));
    }
    gw.store.batch(vec![store::revoke_key(key_id, ctx.now)]).await?;
    gw.key_cache.clear();
    Ok(Reply::ok(json!({ "key_id": key_id, "revoked_at": time::format(ctx.now) })))
}

/// `POST /v1/admin/tenants/{id}/suspend`: every key of the tenant stops working.
pub(crate) async fn suspend(gw: &Gateway, ctx: &Ctx<'_>, tenant_id: &str) -> ApiResult<Reply> {
    gw.require_tenant(ctx, tenant_id).await?;
    gw.store.batch(vec![store::suspend(tenant_id, ctx.now)]).await?;
    gw.key_cache.clear();
    Ok(Reply::ok(json!({ "tenant_id": tenant_id, "suspended": true })))
}

/// `GET /v1/admin/tenants/{id}/audit`: a tenant's audit log.
pub(crate) async fn audit_of(gw: &Gateway, ctx: &Ctx<'_>, tenant_id: &str) -> ApiResult<Reply> {
    gw.require_tenant(ctx, tenant_id).await?;
    gw.audit_of_tenant(tenant_id).await
}

/// A tenant's own audit log: failed authentications with its keys and
/// what the compliance team did to the tenant.
pub(crate) async fn own_audit(gw: &Gateway, ctx: &Ctx<'_>) -> ApiResult<Reply> {
    gw.audit_of_tenant(&ctx.caller.tenant_id).await
}

/// The admin actions of the environment, newest first.
pub(crate) async fn admin_audit(gw: &Gateway, ctx: &Ctx<'_>) -> ApiResult<Reply> {
    let mut entries = Vec::new();
    for row in store::admin_audit(gw.store.as_ref(), ctx.caller.environment, AUDIT_LENGTH).await? {
        let mut entry = audit_entry(&row);
        entry["tenant_id"] = json!(row.tenant_id);
        entries.push(entry);
    }
    Ok(Reply::ok(json!({ "environment": ctx.caller.environment.as_str(), "entries": entries })))
}

fn audit_entry(row: &AuditRow) -> serde_json::Value {
    json!({
        "audit_id": row.audit_id,
        "action": row.action,
        "reason": row.reason,
        "key_prefix": row.key_prefix,
        "request_id": row.request_id,
        "at": time::format(row.at),
        "actor_key_id": row.actor_key_id,
        "resource": row.resource,
    })
}
