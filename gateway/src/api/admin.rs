//! The compliance team's admin API: tenants, keys, suspension and the audit log.

use serde_json::json;

use crate::auth::{self, Environment};
use crate::error::{ApiError, ApiResult};
use crate::input::Fields;
use crate::ports::{Stmt, StoreError};
use crate::{time, Ctx, Gateway, Reply, DEFAULT_RATE_LIMIT_PER_MINUTE};

/// Production tenants start here until their contract sets another rate.
const DEFAULT_PRODUCTION_RATE_LIMIT_PER_MINUTE: i64 = 1_000;
const SERVICE_RATE_LIMIT_PER_MINUTE: i64 = 100_000;
const MAX_RATE_LIMIT_PER_MINUTE: i64 = 1_000_000;

fn tenant_not_found() -> ApiError {
    ApiError::not_found("tenant_not_found", "no such tenant in this environment")
}

impl Gateway {
    fn key_statement(&self, tenant_id: &str, environment: Environment, is_admin: bool, now: i64) -> (String, String, Stmt) {
        let key = auth::new_key(environment, &self.ids.random_bytes(24));
        let key_id = self.new_id("key");
        let statement = Stmt::new(
            "INSERT INTO api_keys (key_id, tenant_id, key_hash, key_prefix, is_admin, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            vec![key_id.as_str().into(), tenant_id.into(), auth::hash_key(&key).into(), auth::audit_prefix(&key).into(), is_admin.into(), now.into()],
        );
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
        let statements = vec![
            Stmt::new(
                "INSERT INTO tenants (tenant_id, name, environment, rate_limit_per_minute, is_service, created_at)
                     VALUES (?1, ?2, ?3, ?4, 1, ?5) ON CONFLICT (tenant_id) DO NOTHING",
                vec![
                    service_tenant.as_str().into(),
                    "compliance team".into(),
                    environment.as_str().into(),
                    SERVICE_RATE_LIMIT_PER_MINUTE.into(),
                    now.into(),
                ],
            ),
            insert_key,
        ];
        (key, statements)
    }

    pub(crate) async fn create_tenant(&self, ctx: &Ctx<'_>) -> ApiResult<Reply> {
        let mut f = Fields::from_body(ctx.body)?;
        let name = f.text("name");
        let environment_text = f.code("environment");
        let rate = f.opt_integer("rate_limit_per_minute");
        let jurisdiction = f.opt_text("jurisdiction").unwrap_or_else(|| rules::DEFAULT_JURISDICTION.to_string());
        let profiles = self.rules.jurisdictions();
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
        let tenant_id = self.new_id("ten");
        let (key_id, key, insert_key) = self.key_statement(&tenant_id, environment, false, ctx.now);
        self.store
            .batch(vec![
                Stmt::new(
                    "INSERT INTO tenants (tenant_id, name, environment, rate_limit_per_minute, created_at, jurisdiction) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    vec![
                        tenant_id.as_str().into(),
                        name.as_str().into(),
                        environment.as_str().into(),
                        rate.into(),
                        ctx.now.into(),
                        jurisdiction.as_str().into(),
                    ],
                ),
                insert_key,
            ])
            .await?;
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

    async fn require_tenant(&self, ctx: &Ctx<'_>, tenant_id: &str) -> ApiResult<()> {
        let rows = self
            .store
            .query(
                "SELECT tenant_id FROM tenants WHERE tenant_id = ?1 AND environment = ?2 AND is_service = 0",
                vec![tenant_id.into(), ctx.caller.environment.as_str().into()],
            )
            .await?;
        if rows.is_empty() {
            Err(tenant_not_found())
        } else {
            Ok(())
        }
    }

    pub(crate) async fn create_tenant_key(&self, ctx: &Ctx<'_>, tenant_id: &str) -> ApiResult<Reply> {
        self.require_tenant(ctx, tenant_id).await?;
        let (key_id, key, insert_key) = self.key_statement(tenant_id, ctx.caller.environment, false, ctx.now);
        self.store.batch(vec![insert_key]).await?;
        Ok(Reply::created(json!({ "key_id": key_id, "tenant_id": tenant_id, "api_key": key })))
    }

    pub(crate) async fn revoke_key(&self, ctx: &Ctx<'_>, key_id: &str) -> ApiResult<Reply> {
        let rows = self
            .store
            .query(
                "SELECT k.revoked_at FROM api_keys k JOIN tenants t ON t.tenant_id = k.tenant_id WHERE k.key_id = ?1 AND t.environment = ?2",
                vec![key_id.into(), ctx.caller.environment.as_str().into()],
            )
            .await?;
        let row = rows.first().ok_or_else(|| ApiError::not_found("key_not_found", "no such key in this environment"))?;
        if let Some(revoked_at) = row.opt_int(0)? {
            return Ok(Reply::ok(json!({ "key_id": key_id, "revoked_at": time::format(revoked_at) })));
        }
        self.store
            .batch(vec![Stmt::new(
                "UPDATE api_keys SET revoked_at = ?2 WHERE key_id = ?1 AND revoked_at IS NULL",
                vec![key_id.into(), ctx.now.into()],
            )])
            .await?;
        self.key_cache.clear();
        Ok(Reply::ok(json!({ "key_id": key_id, "revoked_at": time::format(ctx.now) })))
    }

    pub(crate) async fn suspend_tenant(&self, ctx: &Ctx<'_>, tenant_id: &str) -> ApiResult<Reply> {
        self.require_tenant(ctx, tenant_id).await?;
        self.store
            .batch(vec![Stmt::new(
                "UPDATE tenants SET suspended_at = ?2 WHERE tenant_id = ?1 AND suspended_at IS NULL",
                vec![tenant_id.into(), ctx.now.into()],
            )])
            .await?;
        self.key_cache.clear();
        Ok(Reply::ok(json!({ "tenant_id": tenant_id, "suspended": true })))
    }

    pub(crate) async fn tenant_audit(&self, ctx: &Ctx<'_>, tenant_id: &str) -> ApiResult<Reply> {
        self.require_tenant(ctx, tenant_id).await?;
        self.audit_of_tenant(tenant_id).await
    }

    /// A tenant's own audit log: failed authentications with its keys and
    /// what the compliance team did to the tenant.
    pub(crate) async fn own_audit(&self, ctx: &Ctx<'_>) -> ApiResult<Reply> {
        self.audit_of_tenant(&ctx.caller.tenant_id).await
    }

    async fn audit_of_tenant(&self, tenant_id: &str) -> ApiResult<Reply> {
        let rows = self
            .store
            .query(
                "SELECT audit_id, action, reason, key_prefix, request_id, at, actor_key_id, resource FROM audit_log
                 WHERE tenant_id = ?1 ORDER BY at DESC, audit_id LIMIT 500",
                vec![tenant_id.into()],
            )
            .await?;
        let entries = rows.iter().map(audit_entry).collect::<ApiResult<Vec<_>>>()?;
        Ok(Reply::ok(json!({ "tenant_id": tenant_id, "entries": entries })))
    }

    /// The admin actions of the environment, newest first.
    pub(crate) async fn admin_audit(&self, ctx: &Ctx<'_>) -> ApiResult<Reply> {
        let rows = self
            .store
            .query(
                "SELECT audit_id, action, reason, key_prefix, request_id, at, actor_key_id, resource, tenant_id FROM audit_log
                 WHERE environment = ?1 AND actor_key_id IS NOT NULL ORDER BY at DESC, audit_id LIMIT 500",
                vec![ctx.caller.environment.as_str().into()],
            )
            .await?;
        let mut entries = Vec::new();
        for row in &rows {
            let mut entry = audit_entry(row)?;
            entry["tenant_id"] = json!(row.opt_text(8)?);
            entries.push(entry);
        }
        Ok(Reply::ok(json!({ "environment": ctx.caller.environment.as_str(), "entries": entries })))
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
        let statement = Stmt::new(
            "INSERT INTO audit_log (audit_id, tenant_id, action, reason, key_prefix, request_id, at, environment, actor_key_id, resource)
             VALUES (?1, ?2, ?3, 'ok', NULL, ?4, ?5, ?6, ?7, ?8)",
            vec![
                self.new_id("aud").into(),
                tenant.into(),
                action.into(),
                request_id.into(),
                self.clock.now().into(),
                ctx.caller.environment.as_str().into(),
                ctx.caller.key_id.as_str().into(),
                resource.into(),
            ],
        );
        if let Err(e) = self.store.batch(vec![statement]).await {
            // The core has no logger: stderr where the host has one.
            eprintln!("audit of {action} ({request_id}) failed: {e}");
        }
    }
}

fn audit_entry(row: &crate::ports::Row) -> ApiResult<serde_json::Value> {
    Ok(json!({
        "audit_id": row.text(0)?,
        "action": row.text(1)?,
        "reason": row.text(2)?,
        "key_prefix": row.opt_text(3)?,
        "request_id": row.text(4)?,
        "at": time::format(row.int(5)?),
        "actor_key_id": row.opt_text(6)?,
        "resource": row.opt_text(7)?,
    }))
}
