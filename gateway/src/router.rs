//! Paths and methods to routes.

use http::Method;

use crate::error::{ApiError, ApiResult};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    Health,
    OpenApi,
    IdentityVendorWebhook,
    Rules,
    SanctionsScreen,
    SanctionsStatus,
    KycStart,
    KycStatus,
    KycTier,
    KycManualReview,
    ExclusionRegister,
    ExclusionCheck,
    ExclusionSnapshot,
    LimitSet,
    LimitList,
    LimitCheck,
    LimitCommit,
    LimitCancel(String),
    AmlEvent,
    AdminTenantCreate,
    AdminKeyCreate(String),
    AdminKeyRevoke(String),
    AdminTenantSuspend(String),
    AdminTenantAudit(String),
    AdminCaseList,
    AdminCaseGet(String),
    AdminCaseReview(String),
    AdminAmlList,
    AdminRegulatorImport,
    SandboxClockAdvance,
    SandboxClockGet,
    SandboxKycSubmit(String),
    WebhookCreate,
    WebhookList,
    WebhookDelete(String),
    WebhookRotate(String),
    WebhookEnable(String),
    WebhookDeliveries(String),
    WebhookRedeliver(String),
    AdminRescreen,
    AdminListSearch,
    AdminLists,
    AdminRunScheduled,
    AdminDecisionList,
    AdminDecisionGet(String),
    AdminDecisionReplay(String),
    AdminKycChecks,
    AdminRegulatorExport,
    AdminMetrics,
    AdminAudit,
    TenantAudit,
}

impl Route {
    pub fn is_admin(&self) -> bool {
        matches!(
            self,
            Route::KycManualReview
                | Route::AdminTenantCreate
                | Route::AdminKeyCreate(_)
                | Route::AdminKeyRevoke(_)
                | Route::AdminTenantSuspend(_)
                | Route::AdminTenantAudit(_)
                | Route::AdminCaseList
                | Route::AdminCaseGet(_)
                | Route::AdminCaseReview(_)
                | Route::AdminAmlList
                | Route::AdminRegulatorImport
                | Route::AdminRescreen
                | Route::AdminListSearch
                | Route::AdminLists
                | Route::AdminRunScheduled
                | Route::AdminDecisionList
                | Route::AdminDecisionGet(_)
                | Route::AdminDecisionReplay(_)
                | Route::AdminKycChecks
                | Route::AdminRegulatorExport
                | Route::AdminMetrics
                | Route::AdminAudit
        )
    }
}

impl Route {
    /// The audit name of an admin action that changes something, and the id
    /// in its path; `None` for reads and for operator routes.
    pub fn admin_action(&self) -> Option<(&'static str, Option<&str>)> {
        Some(match self {
            Route::AdminTenantCreate => ("tenant.create", None),
            Route::AdminKeyCreate(t) => ("key.create", Some(t.as_str())),
            Route::AdminKeyRevoke(k) => ("key.revoke", Some(k.as_str())),
            Route::AdminTenantSuspend(t) => ("tenant.suspend", Some(t.as_str())),
            Route::AdminCaseReview(c) => ("sanctions_case.review", Some(c.as_str())),
            Route::KycManualReview => ("kyc.manual_review", None),
            Route::AdminRegulatorImport => ("exclusions.regulator_import", None),
            Route::AdminRegulatorExport => ("exclusions.regulator_export", None),
            Route::AdminRescreen => ("sanctions.rescreen", None),
            Route::AdminRunScheduled => ("scheduler.run", None),
            Route::AdminDecisionReplay(d) => ("decision.replay", Some(d.as_str())),
            _ => return None,
        })
    }
}

/// Declares each route's `operationId` in the OpenAPI document, and the list
/// of them all. The match has no wildcard, so a new route cannot go unnamed.
macro_rules! operation_ids {
    ($($route:pat => $id:literal,)*) => {
        impl Route {
            /// The route's `operationId` in `gateway/openapi.json`.
            pub fn operation_id(&self) -> &'static str {
                match self {
                    $($route => $id,)*
                }
            }
        }

        /// Every route's `operationId`.
        pub const OPERATION_IDS: &[&str] = &[$($id),*];
    };
}

operation_ids! {
    Route::Health => "getHealth",
    Route::OpenApi => "getOpenApi",
    Route::IdentityVendorWebhook => "receiveIdentityVendorWebhook",
    Route::Rules => "getRules",
    Route::SanctionsScreen => "screenUser",
    Route::SanctionsStatus => "getSanctionsStatus",
    Route::KycStart => "startKyc",
    Route::KycStatus => "getKycStatus",
    Route::KycTier => "getKycTier",
    Route::KycManualReview => "reviewKycManually",
    Route::ExclusionRegister => "registerExclusion",
    Route::ExclusionCheck => "checkExclusion",
    Route::ExclusionSnapshot => "getExclusionSnapshot",
    Route::LimitSet => "setLimit",
    Route::LimitList => "listLimits",
    Route::LimitCheck => "checkDeposit",
    Route::LimitCommit => "commitDeposit",
    Route::LimitCancel(_) => "cancelLimit",
    Route::AmlEvent => "reportAmlEvent",
    Route::AdminTenantCreate => "createTenant",
    Route::AdminKeyCreate(_) => "createKey",
    Route::AdminKeyRevoke(_) => "revokeKey",
    Route::AdminTenantSuspend(_) => "suspendTenant",
    Route::AdminTenantAudit(_) => "getTenantAudit",
    Route::AdminCaseList => "listCases",
    Route::AdminCaseGet(_) => "getCase",
    Route::AdminCaseReview(_) => "reviewCase",
    Route::AdminAmlList => "listAmlEvents",
    Route::AdminRegulatorImport => "importRegulatorExclusions",
    Route::SandboxClockAdvance => "advanceSandboxClock",
    Route::SandboxClockGet => "getSandboxClock",
    Route::SandboxKycSubmit(_) => "submitSandboxKyc",
    Route::WebhookCreate => "createWebhook",
    Route::WebhookList => "listWebhooks",
    Route::WebhookDelete(_) => "deleteWebhook",
    Route::WebhookRotate(_) => "rotateWebhookSecret",
    Route::WebhookEnable(_) => "enableWebhook",
    Route::WebhookDeliveries(_) => "listDeliveries",
    Route::WebhookRedeliver(_) => "redeliver",
    Route::AdminRescreen => "rescreen",
    Route::AdminListSearch => "searchLists",
    Route::AdminLists => "listLists",
    Route::AdminRunScheduled => "runScheduled",
    Route::AdminDecisionList => "listDecisions",
    Route::AdminDecisionGet(_) => "getDecision",
    Route::AdminDecisionReplay(_) => "replayDecision",
    Route::AdminKycChecks => "listKycChecks",
    Route::AdminRegulatorExport => "exportToRegulator",
    Route::AdminMetrics => "getReviewMetrics",
    Route::AdminAudit => "getAdminAudit",
    Route::TenantAudit => "getOwnAudit",
}

fn routes_for(segments: &[&str]) -> Option<Vec<(Method, Route)>> {
    let id = |s: &str| s.to_string();
    Some(match segments {
        ["v1", "health"] => vec![(Method::GET, Route::Health)],
        ["v1", "openapi.json"] => vec![(Method::GET, Route::OpenApi)],
        ["v1", "vendors", "sumsub", "webhook"] => vec![(Method::POST, Route::IdentityVendorWebhook)],
        ["v1", "rules"] => vec![(Method::GET, Route::Rules)],
        ["v1", "sanctions", "screen"] => vec![(Method::POST, Route::SanctionsScreen)],
        ["v1", "sanctions", "status"] => vec![(Method::GET, Route::SanctionsStatus)],
        ["v1", "kyc", "start"] => vec![(Method::POST, Route::KycStart)],
        ["v1", "kyc", "status"] => vec![(Method::GET, Route::KycStatus)],
        ["v1", "kyc", "tier"] => vec![(Method::GET, Route::KycTier)],
        ["v1", "kyc", "manual-review"] => vec![(Method::POST, Route::KycManualReview)],
        ["v1", "exclusions"] => vec![(Method::POST, Route::ExclusionRegister)],
        ["v1", "exclusions", "check"] => vec![(Method::GET, Route::ExclusionCheck)],
        ["v1", "exclusions", "snapshot"] => vec![(Method::GET, Route::ExclusionSnapshot)],
        ["v1", "limits"] => vec![(Method::POST, Route::LimitSet), (Method::GET, Route::LimitList)],
        ["v1", "limits", "check"] => vec![(Method::POST, Route::LimitCheck)],
        ["v1", "limits", "commit"] => vec![(Method::POST, Route::LimitCommit)],
        ["v1", "limits", limit_id] => vec![(Method::DELETE, Route::LimitCancel(id(limit_id)))],
        ["v1", "aml", "event"] => vec![(Method::POST, Route::AmlEvent)],
        ["v1", "admin", "tenants"] => vec![(Method::POST, Route::AdminTenantCreate)],
        ["v1", "admin", "tenants", t, "keys"] => vec![(Method::POST, Route::AdminKeyCreate(id(t)))],
        ["v1", "admin", "tenants", t, "suspend"] => vec![(Method::POST, Route::AdminTenantSuspend(id(t)))],
        ["v1", "admin", "tenants", t, "audit"] => vec![(Method::GET, Route::AdminTenantAudit(id(t)))],
        ["v1", "admin", "keys", k] => vec![(Method::DELETE, Route::AdminKeyRevoke(id(k)))],
        ["v1", "admin", "sanctions", "cases"] => vec![(Method::GET, Route::AdminCaseList)],
        ["v1", "admin", "sanctions", "cases", c] => vec![(Method::GET, Route::AdminCaseGet(id(c)))],
        ["v1", "admin", "sanctions", "cases", c, "review"] => vec![(Method::POST, Route::AdminCaseReview(id(c)))],
        ["v1", "admin", "exclusions", "regulator-import"] => vec![(Method::POST, Route::AdminRegulatorImport)],
        ["v1", "admin", "aml", "events"] => vec![(Method::GET, Route::AdminAmlList)],
        ["v1", "sandbox", "clock"] => vec![(Method::POST, Route::SandboxClockAdvance), (Method::GET, Route::SandboxClockGet)],
        ["v1", "webhooks"] => vec![(Method::POST, Route::WebhookCreate), (Method::GET, Route::WebhookList)],
        ["v1", "webhooks", "deliveries", d, "redeliver"] => vec![(Method::POST, Route::WebhookRedeliver(id(d)))],
        ["v1", "webhooks", w] => vec![(Method::DELETE, Route::WebhookDelete(id(w)))],
        ["v1", "webhooks", w, "rotate-secret"] => vec![(Method::POST, Route::WebhookRotate(id(w)))],
        ["v1", "webhooks", w, "enable"] => vec![(Method::POST, Route::WebhookEnable(id(w)))],
        ["v1", "webhooks", w, "deliveries"] => vec![(Method::GET, Route::WebhookDeliveries(id(w)))],
        ["v1", "admin", "sanctions", "rescreen"] => vec![(Method::POST, Route::AdminRescreen)],
        ["v1", "admin", "sanctions", "search"] => vec![(Method::GET, Route::AdminListSearch)],
        ["v1", "admin", "sanctions", "lists"] => vec![(Method::GET, Route::AdminLists)],
        ["v1", "admin", "scheduler", "run"] => vec![(Method::POST, Route::AdminRunScheduled)],
        ["v1", "admin", "decisions"] => vec![(Method::GET, Route::AdminDecisionList)],
        ["v1", "admin", "decisions", d] => vec![(Method::GET, Route::AdminDecisionGet(id(d)))],
        ["v1", "admin", "decisions", d, "replay"] => vec![(Method::POST, Route::AdminDecisionReplay(id(d)))],
        ["v1", "admin", "kyc", "checks"] => vec![(Method::GET, Route::AdminKycChecks)],
        ["v1", "admin", "exclusions", "regulator-export"] => vec![(Method::POST, Route::AdminRegulatorExport)],
        ["v1", "admin", "metrics"] => vec![(Method::GET, Route::AdminMetrics)],
        ["v1", "admin", "audit"] => vec![(Method::GET, Route::AdminAudit)],
        ["v1", "audit"] => vec![(Method::GET, Route::TenantAudit)],
        ["v1", "sandbox", "kyc", k, "submit"] => vec![(Method::POST, Route::SandboxKycSubmit(id(k)))],
        _ => return None,
    })
}

/// The route for a request, or 404 `not_found` / 405 `method_not_allowed`.
pub fn resolve(method: &Method, path: &str) -> ApiResult<Route> {
    let trimmed = path.strip_suffix('/').filter(|p| !p.is_empty()).unwrap_or(path);
    let segments: Vec<&str> = trimmed.split('/').skip(1).collect();
    if segments.iter().any(|s| s.is_empty()) {
        return Err(ApiError::not_found("not_found", format!("no such path: {path}")));
    }
    let routes = routes_for(&segments).ok_or_else(|| ApiError::not_found("not_found", format!("no such path: {path}")))?;
    if let Some((_, route)) = routes.iter().find(|(m, _)| m == method) {
        return Ok(route.clone());
    }
    let allowed: Vec<&str> = routes.iter().map(|(m, _)| m.as_str()).collect();
    let mut error = ApiError::new(405, "method_not_allowed", format!("{method} is not allowed here; allowed: {}", allowed.join(", ")));
    error.allow = Some(match allowed.as_slice() {
        ["GET"] => "GET",
        ["POST"] => "POST",
        ["DELETE"] => "DELETE",
        ["POST", "GET"] => "POST, GET",
        _ => "GET, POST",
    });
    Err(error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_segments_win_over_ids() {
        assert_eq!(resolve(&Method::POST, "/v1/limits/check"), Ok(Route::LimitCheck));
        assert_eq!(resolve(&Method::DELETE, "/v1/limits/lim_1"), Ok(Route::LimitCancel("lim_1".into())));
    }

    #[test]
    fn unknown_paths_and_methods() {
        assert_eq!(resolve(&Method::GET, "/v2/health").map_err(|e| e.status), Err(404));
        assert_eq!(resolve(&Method::GET, "/v1//health").map_err(|e| e.status), Err(404));
        let e = resolve(&Method::DELETE, "/v1/sanctions/screen").unwrap_err();
        assert_eq!((e.status, e.code, e.allow), (405, "method_not_allowed", Some("POST")));
    }
}
