//! Routes for the local scripts only, answered when the variable
//! `CGW_LOCAL_TOOLS` is `enabled` (set by `scripts/edge.sh` when it runs the
//! Worker under Miniflare, and by `scripts/edge.sh dev --local-tools` for
//! the conformance runner; never by `wrangler.toml`, so a deployed Worker
//! does not have them):
//! - `POST /__local/admin-key?environment=sandbox|production` answers a new admin key;
//! - `POST /__local/lists-import?environment=…&format=…&url=…[&source=…]`
//!   downloads a list as a refresh does and stages it (the dispatcher loads
//!   it): answers the staged `list_id`, or 400 with why nothing was staged;
//! - `POST /__local/console-user?environment=…&email=…&role=…` answers a new
//!   console account as `compliance-gateway console-user create` prints it;
//! - `POST /__local/store-contract` runs the store contract against the D1
//!   database bound as `CONTRACT_DB`, emptied first (`#[tokio::test]` cannot
//!   run inside workerd), and how D1's failures are classified, and answers
//!   each case's outcome.

use gateway::auth::Environment;
use gateway::lists::ListSource;
use gateway::ports::{Stmt, StoreError, Value};
use serde_json::json;
use wasm_bindgen::prelude::*;
use worker::{Env, Request, Response};

use crate::build_gateway;
use crate::platform::{WorkerClock, WorkerIds};
use crate::store_d1::D1Store;

pub async fn handle(request: Request, env: &Env) -> worker::Result<Response> {
    match request.path().as_str() {
        "/__local/admin-key" => {
            let url = request.url()?;
            let environment = url.query_pairs().find(|(k, _)| k == "environment").and_then(|(_, v)| Environment::parse(&v));
            let Some(environment) = environment else {
                return Response::error("environment must be sandbox or production", 400);
            };
            let (gateway, _) = match build_gateway(env).await {
                Ok(built) => built,
                Err(e) => return Response::error(format!("{}: {}", e.message, e.detail.as_deref().unwrap_or_default()), 503),
            };
            match gateway.create_admin_key(environment).await {
                Ok(key) => Response::ok(key),
                Err(e) => Response::error(e.to_string(), 500),
            }
        }
        "/__local/lists-import" => lists_import(&request, env).await,
        "/__local/console-user" => {
            let url = request.url()?;
            let param = |name: &str| url.query_pairs().find(|(k, _)| k == name).map(|(_, v)| v.to_string());
            let environment = param("environment").as_deref().and_then(Environment::parse);
            let role = param("role").as_deref().and_then(gateway::people::Role::parse);
            let (Some(environment), Some(role), Some(email)) = (environment, role, param("email")) else {
                return Response::error("environment, email and role are required", 400);
            };
            let (gateway, _) = match build_gateway(env).await {
                Ok(built) => built,
                Err(e) => return Response::error(format!("{}: {}", e.message, e.detail.as_deref().unwrap_or_default()), 503),
            };
            match gateway.create_console_account(environment, &email, role).await {
                Ok(created) => Response::from_json(&gateway::people::CreatedAccount::from(created)),
                Err(e) => Response::error(e.to_string(), e.status),
            }
        }
        "/__local/store-contract" => {
            let db = env.d1("CONTRACT_DB")?;
            // A fresh database for each run: drop what an earlier run left.
            let tables = db
                .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'")
                .all()
                .await?;
            for table in tables.results::<serde_json::Value>()? {
                if let Some(name) = table["name"].as_str() {
                    db.exec(&format!("DROP TABLE IF EXISTS \"{}\"", name.replace('"', "\"\""))).await?;
                }
            }
            let store = D1Store::new(db);
            if let Err(e) = store.create_guard_table().await {
                return Response::error(e.to_string(), 500);
            }
            let mut outcomes = gateway::store_contract::run_all(&store).await;
            outcomes.extend(crate::store_d1::classification_checks());
            let cases: Vec<_> = outcomes.iter().map(|(name, outcome)| json!({ "case": name, "error": outcome.as_ref().err() })).collect();
            let passed = outcomes.iter().all(|(_, outcome)| outcome.is_ok());
            Response::from_json(&json!({ "passed": passed, "cases": cases }))
        }
        _ => Response::error("not found", 404),
    }
}

/// Stages a list from a URL, as a scheduled refresh would, and kicks the dispatcher.
async fn lists_import(request: &Request, env: &Env) -> worker::Result<Response> {
    let url = request.url()?;
    let param = |name: &str| url.query_pairs().find(|(k, _)| k == name).map(|(_, v)| v.to_string());
    let (Some(environment), Some(format), Some(list_url)) = (param("environment"), param("format"), param("url")) else {
        return Response::error("environment, format and url are required", 400);
    };
    let setting = match param("source") {
        Some(source) => format!("{environment},{format},{list_url},{source}"),
        None => format!("{environment},{format},{list_url}"),
    };
    let list = match ListSource::parse(&setting) {
        Ok(list) => list,
        Err(e) => return Response::error(e, 400),
    };
    let (gateway, _) = match build_gateway(env).await {
        Ok(built) => built,
        Err(e) => return Response::error(format!("{}: {}", e.message, e.detail.as_deref().unwrap_or_default()), 503),
    };
    let entries = match gateway::lists::refresh::download(&gateway, &list).await {
        Ok(entries) => entries,
        Err(e) => {
            gateway::lists::audit_refused_import(&gateway, list.environment, &list.source, ACTOR, "unreadable_list").await;
            return Response::error(format!("not a valid {} list: {e}", list.format.as_str()), 400);
        }
    };
    match gateway::lists::stage_import(&gateway, list.environment, &list.source, list.format, entries, ACTOR).await {
        Ok(staged) => {
            crate::dispatcher::kick(env).await?;
            Response::from_json(&json!({
                "list_id": staged.list_id, "source": staged.source, "version": staged.version,
                "entries": staged.entries, "names": staged.names, "changed": staged.changed,
            }))
        }
        Err(e) => Response::error(format!("{}: {}", e.code, e.message), 400),
    }
}

/// Who the audit log names for an import through the local tools: the
/// operator's command line, as for the native `lists import`.
const ACTOR: &str = "cli";

/// A store that refuses every call: the SQL of [`admin_key_sql`] is run by
/// `wrangler d1 execute`, not by the Worker.
struct NoStore;

#[async_trait::async_trait(?Send)]
impl gateway::ports::Store for NoStore {
    async fn query(&self, _sql: &'static str, _params: Vec<Value>) -> Result<Vec<gateway::ports::Row>, StoreError> {
        Err(StoreError::Backend("no store here".into()))
    }
    async fn batch(&self, _statements: Vec<Stmt>) -> Result<(), StoreError> {
        Err(StoreError::Backend("no store here".into()))
    }
}

/// A new admin key and the SQL that stores its hash, for
/// `scripts/edge.sh admin-key --remote` (run in Node on the wasm-bindgen
/// module): `{key, sql}`. The key is made by the core's own code.
#[wasm_bindgen(js_name = adminKeySql)]
pub fn admin_key_sql(environment: &str) -> Result<JsValue, JsValue> {
    let environment = Environment::parse(environment).ok_or_else(|| JsValue::from_str("environment must be sandbox or production"))?;
    let gateway = gateway::Gateway::new(
        Box::new(NoStore),
        Box::new(gateway::ports::NoRules),
        Box::new(WorkerClock),
        Box::new(WorkerIds),
        gateway::Config::default(),
    );
    let (key, statements) = gateway.admin_key_statements(environment);
    let sql: Vec<String> = statements.iter().map(|s| inline(s.sql, &s.params)).collect::<Result<_, _>>().map_err(|e| JsValue::from_str(&e))?;
    let answer = json!({ "key": key, "sql": sql.join(";\n") + ";" });
    Ok(JsValue::from_str(&answer.to_string()))
}

/// A statement with its `?N` placeholders replaced by SQL literals.
fn inline(sql: &str, params: &[Value]) -> Result<String, String> {
    let mut out = sql.to_string();
    // Highest first, so that ?1 does not match the start of ?10.
    for (index, value) in params.iter().enumerate().rev() {
        let literal = match value {
            Value::Null => "NULL".to_string(),
            Value::Int(v) => v.to_string(),
            Value::Real(v) if v.is_finite() => format!("{v:?}"),
            Value::Real(v) => return Err(format!("cannot write {v} as SQL")),
            Value::Text(t) => format!("'{}'", t.replace('\'', "''")),
        };
        out = out.replace(&format!("?{}", index + 1), &literal);
    }
    Ok(out)
}
