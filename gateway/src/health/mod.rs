//! Readiness: whether this host can serve as it should, for load balancers
//! and the self-hoster's monitoring. It needs no key and tells nothing
//! about tenants; liveness stays the cheap `GET /v1/health`.

pub mod store;

use serde::Serialize;
use utoipa::ToSchema;

use crate::auth::Environment;
use crate::error::ApiResult;
use crate::openapi::answer::Probe;
use crate::openapi::OperationDoc;
use crate::Gateway;

/// How long the store has to answer the readiness read.
pub const STORE_ANSWER_MS: u64 = 1_000;

/// Pending deliveries due past which the webhook backlog is not ready.
pub const WEBHOOK_BACKLOG_BOUND: i64 = 10_000;

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
enum ReadyStatus {
    Ready,
    NotReady,
}

/// One check: whether it passes, and what it found.
#[derive(Serialize, ToSchema)]
struct Check {
    ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(required = false)]
    detail: Option<String>,
}

/// The production lists check: which required sources are missing or stale.
#[derive(Serialize, ToSchema)]
struct ListsCheck {
    ok: bool,
    /// required sources with no active version
    missing: Vec<String>,
    /// required sources not refreshed within the freshness window
    stale: Vec<String>,
}

#[derive(Serialize, ToSchema)]
struct Checks {
    store: Check,
    rules: Check,
    lists: ListsCheck,
    webhooks: Check,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct Readiness {
    #[schema(inline)]
    status: ReadyStatus,
    checks: Checks,
}

pub(crate) fn ready_doc() -> OperationDoc {
    OperationDoc::new("service", "readiness: the store, the rules, production's required lists and the webhook backlog")
        .answers("ready")
        .or_503("not ready: a check failed")
}

/// `GET /v1/health/ready`: 200 when every check passes, else 503; both with the checks.
pub(crate) async fn ready(gw: &Gateway, _request: &http::Request<Vec<u8>>) -> ApiResult<Probe<Readiness>> {
    let ping = store::ping(gw.store.as_ref());
    let answered = crate::time::bounded(gw.timer.as_deref(), STORE_ANSWER_MS, ping).await;
    let store = match answered {
        Some(Ok(())) => Check { ok: true, detail: None },
        Some(Err(e)) => Check { ok: false, detail: Some(format!("the store did not answer ({})", failure(&e))) },
        None => Check { ok: false, detail: Some(format!("the store did not answer within {STORE_ANSWER_MS} ms")) },
    };
    let identity = gw.rules.identity();
    let rules = match identity.component_sha256.len() == 64 {
        true => Check { ok: true, detail: Some(identity.component_sha256) },
        false => Check { ok: false, detail: Some("the rules component's hash is not known".into()) },
    };
    let lists = match crate::lists::coverage(gw, Environment::Production).await {
        Ok(coverage) => {
            let missing: Vec<String> = coverage.iter().filter(|c| c.version.is_none()).map(|c| c.source.clone()).collect();
            let stale: Vec<String> = coverage.iter().filter(|c| c.version.is_some() && c.stale).map(|c| c.source.clone()).collect();
            ListsCheck { ok: missing.is_empty() && stale.is_empty(), missing, stale }
        }
        Err(_) => ListsCheck { ok: false, missing: Vec::new(), stale: Vec::new() },
    };
    let webhooks = match crate::webhooks::store::backlog(gw.store.as_ref(), gw.clock.now()).await {
        Ok(backlog) if backlog < WEBHOOK_BACKLOG_BOUND => Check { ok: true, detail: Some(format!("{backlog} deliveries due")) },
        Ok(backlog) => Check { ok: false, detail: Some(format!("{backlog} deliveries due, past the bound of {WEBHOOK_BACKLOG_BOUND}")) },
        Err(e) => Check { ok: false, detail: Some(format!("the backlog could not be read ({})", failure(&e))) },
    };
    let ok = store.ok && rules.ok && lists.ok && webhooks.ok;
    let body = Readiness { status: if ok { ReadyStatus::Ready } else { ReadyStatus::NotReady }, checks: Checks { store, rules, lists, webhooks } };
    Probe::new(ok, &body)
}

/// What kind of failure, without the backend's words (they may name hosts or users).
fn failure(error: &crate::ports::StoreError) -> &'static str {
    match error {
        crate::ports::StoreError::Unavailable(_) => "unavailable",
        _ => "error",
    }
}
