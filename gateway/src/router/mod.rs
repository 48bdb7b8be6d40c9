//! The route table: each route's method, path, `operationId`, access, audit
//! action and handler, declared once. The router, the keyed and public
//! dispatch, the admin check, the audit of admin actions and the OpenAPI
//! document are all derived from it.

pub mod document;

use std::sync::OnceLock;

use http::Method;

use crate::error::{ApiError, ApiResult};
use crate::input::FromRequest;
use crate::openapi::answer::IntoReply;
use crate::openapi::OperationDoc;
use crate::{api, Ctx, Gateway, Reply};

/// Who may call a route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// no key: answered before authentication
    Public,
    /// a tenant's key (or an admin key, which is a service tenant's)
    Tenant,
    /// an admin key only
    Admin,
    /// the compliance team's review work: an admin key or a person's session
    Review,
    /// a person's session only
    Person,
}

/// One row of the route table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RouteSpec {
    pub method: &'static str,
    /// the path template, with `{name}` for an id
    pub path: &'static str,
    pub operation_id: &'static str,
    pub access: Access,
    /// the audit name of an admin action that changes something
    pub audit: Option<&'static str>,
}

macro_rules! string_type {
    ($param:ident) => {
        String
    };
}
macro_rules! wildcard {
    ($param:ident) => {
        _
    };
}

/// Declares the routes. Each line: `Variant(param)?: METHOD "path" => "operationId",
/// Access [audit "action"]?, handler, doc function;`. A keyed route's
/// handler is `async fn(&Gateway, &Ctx, I) -> ApiResult<O>`: its input `I`
/// ([`FromRequest`]: a body, a query, the path's id or a tuple of them) is
/// read before it runs, its reply `O` ([`IntoReply`]) is its status and
/// body type, and both are its operation's documented request and
/// responses ([`document`]); the doc function adds what the types do not
/// say (tag, summary, description, the errors of its own). `Public` routes
/// take the request itself: `async fn(&Gateway, &http::Request<Vec<u8>>) -> ApiResult<Reply>`,
/// and their doc function documents everything.
macro_rules! route_table {
    ($( $variant:ident $(($param:ident))? : $method:literal $path:literal => $op:literal, $access:ident $(audit $audit:literal)?, $handler:path, doc $doc:path; )*) => {
        /// A resolved route, with the id its path carries.
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub enum Route {
            $( $variant $((string_type!($param)))?, )*
        }

        /// Every route, in declaration order.
        pub const ROUTES: &[RouteSpec] = &[
            $( RouteSpec { method: $method, path: $path, operation_id: $op, access: Access::$access, audit: route_table!(@audit $($audit)?) }, )*
        ];

        impl Route {
            /// The route's row of the table.
            pub fn spec(&self) -> RouteSpec {
                match self {
                    $( Route::$variant $((wildcard!($param)))? => RouteSpec {
                        method: $method, path: $path, operation_id: $op, access: Access::$access, audit: route_table!(@audit $($audit)?),
                    }, )*
                }
            }

            /// The id the route's path carries, if any.
            pub fn path_id(&self) -> Option<&str> {
                match self {
                    $( Route::$variant $(($param))? => route_table!(@param $($param)?), )*
                }
            }

            fn build(operation_id: &str, id: Option<&str>) -> Option<Route> {
                match operation_id {
                    $( $op => Some(Route::$variant $(({ let $param = id?.to_string(); $param }))?), )*
                    _ => None,
                }
            }
        }

        /// What the area documents of an operation (its bodies, query and
        /// the errors beyond its access's); `None` for an unknown id.
        pub fn operation_doc(operation_id: &str) -> Option<OperationDoc> {
            match operation_id {
                $( $op => Some(route_table!(@doc $access, $handler, $doc)), )*
                _ => None,
            }
        }

        /// Answers a route that needs no key; `None` for the others.
        pub(crate) async fn dispatch_public(gw: &Gateway, route: &Route, request: &http::Request<Vec<u8>>) -> Option<ApiResult<Reply>> {
            match route {
                $( Route::$variant $((wildcard!($param)))? => route_table!(@public $access, $handler, gw, request), )*
            }
        }

        /// Answers a keyed route through its handler.
        pub(crate) async fn dispatch(gw: &Gateway, route: Route, ctx: &Ctx<'_>) -> ApiResult<Reply> {
            match route {
                $( Route::$variant $(($param))? => route_table!(@keyed $access, $handler, gw, ctx $(, $param)?), )*
            }
        }
    };
    (@audit) => { None };
    (@audit $audit:literal) => { Some($audit) };
    (@param) => { None };
    (@param $param:ident) => { Some($param.as_str()) };
    (@public Public, $handler:path, $gw:ident, $request:ident) => { Some($handler($gw, $request).await.map(IntoReply::into_reply)) };
    (@public $access:ident, $handler:path, $gw:ident, $request:ident) => { None };
    (@doc Public, $handler:path, $doc:path) => { document::public_document_of($handler, $doc()) };
    (@doc $access:ident, $handler:path, $doc:path) => { document::document_of($handler, $doc()) };
    (@keyed Public, $handler:path, $gw:ident, $ctx:ident) => {
        Err(ApiError::internal().with_detail("a public route reached the keyed dispatch".into()))
    };
    (@keyed $access:ident, $handler:path, $gw:ident, $ctx:ident $(, $param:ident)?) => {
        match FromRequest::from_request($gw, $ctx, route_table!(@param $($param)?)) {
            Ok(input) => $handler($gw, $ctx, input).await.map(IntoReply::into_reply),
            Err(error) => Err(error),
        }
    };
}

route_table! {
    // public
    Health: "GET" "/v1/health" => "getHealth", Public, api::health, doc api::health_doc;
    Readiness: "GET" "/v1/health/ready" => "getReadiness", Public, crate::health::ready, doc crate::health::ready_doc;
    OpenApi: "GET" "/v1/openapi.json" => "getOpenApi", Public, crate::openapi::handler, doc crate::openapi::handler_doc;
    IdentityVendorWebhook: "POST" "/v1/vendors/sumsub/webhook" => "receiveIdentityVendorWebhook", Public, crate::kyc::identity_vendor_webhook, doc crate::kyc::identity_vendor_webhook_doc;
    Rules: "GET" "/v1/rules" => "getRules", Tenant, api::rules_identity, doc api::rules_identity_doc;
    // sanctions
    SanctionsScreen: "POST" "/v1/sanctions/screen" => "screenUser", Tenant, crate::sanctions::screen, doc crate::sanctions::screen_doc;
    SanctionsStatus: "GET" "/v1/sanctions/status" => "getSanctionsStatus", Tenant, crate::sanctions::sanctions_status, doc crate::sanctions::sanctions_status_doc;
    AdminCaseList: "GET" "/v1/admin/sanctions/cases" => "listCases", Review, crate::sanctions::list_cases, doc crate::sanctions::list_cases_doc;
    AdminCaseGet(case_id): "GET" "/v1/admin/sanctions/cases/{case_id}" => "getCase", Review, crate::sanctions::get_case, doc crate::sanctions::get_case_doc;
    AdminCaseReview(case_id): "POST" "/v1/admin/sanctions/cases/{case_id}/review" => "reviewCase", Admin audit "sanctions_case.review", crate::sanctions::review_case, doc crate::sanctions::review_case_doc;
    AdminRescreen: "POST" "/v1/admin/sanctions/rescreen" => "rescreen", Admin audit "sanctions.rescreen", crate::sanctions::rescreen, doc crate::sanctions::rescreen_doc;
    // cases: the team's one queue over every case type, and four-eyes decisions
    CaseQueue: "GET" "/v1/admin/cases" => "listCaseQueue", Review, crate::cases::list_queue, doc crate::cases::list_queue_doc;
    CaseFile(case_id): "GET" "/v1/admin/cases/{case_id}" => "getCaseFile", Review, crate::cases::get_case_file, doc crate::cases::get_case_file_doc;
    CaseAssign(case_id): "POST" "/v1/admin/cases/{case_id}/assign" => "assignCase", Review audit "case.assign", crate::cases::assign, doc crate::cases::assign_doc;
    CaseUnassign(case_id): "POST" "/v1/admin/cases/{case_id}/unassign" => "unassignCase", Review audit "case.unassign", crate::cases::unassign, doc crate::cases::unassign_doc;
    CaseTake(case_id): "POST" "/v1/admin/cases/{case_id}/take" => "takeCase", Person audit "case.take", crate::cases::take, doc crate::cases::take_doc;
    CaseTags(case_id): "PUT" "/v1/admin/cases/{case_id}/tags" => "setCaseTags", Review audit "case.tags", crate::cases::set_tags, doc crate::cases::set_tags_doc;
    CaseComment(case_id): "POST" "/v1/admin/cases/{case_id}/comments" => "commentOnCase", Review audit "case.comment", crate::cases::comment, doc crate::cases::comment_doc;
    CasePropose(case_id): "POST" "/v1/admin/cases/{case_id}/proposal" => "proposeDecision", Review audit "case.propose", crate::cases::propose, doc crate::cases::propose_doc;
    CaseApprove(case_id): "POST" "/v1/admin/cases/{case_id}/proposal/approve" => "approveDecision", Person audit "case.approve", crate::cases::approve, doc crate::cases::approve_doc;
    CaseReject(case_id): "POST" "/v1/admin/cases/{case_id}/proposal/reject" => "rejectProposal", Person audit "case.reject", crate::cases::reject, doc crate::cases::reject_doc;
    // people: the compliance team's sessions
    SignIn: "POST" "/v1/admin/sessions" => "signIn", Public, crate::people::sign_in_handler, doc crate::people::sign_in_doc;
    SignOut: "DELETE" "/v1/admin/sessions/current" => "signOut", Person, crate::people::sign_out, doc crate::people::sign_out_doc;
    PasswordChange: "POST" "/v1/admin/people/me/password" => "changeOwnPassword", Person audit "console_user.password_change", crate::people::change_password, doc crate::people::change_password_doc;
    TotpReset: "POST" "/v1/admin/people/me/totp" => "resetOwnTotp", Person audit "console_user.totp_reset", crate::people::reset_totp, doc crate::people::reset_totp_doc;
    People: "GET" "/v1/admin/people" => "listPeople", Review, crate::people::list_people, doc crate::people::list_people_doc;
    PersonCreate: "POST" "/v1/admin/people" => "createPerson", Review, crate::people::create_person, doc crate::people::create_person_doc;
    PersonDisable(person_id): "POST" "/v1/admin/people/{person_id}/disable" => "disablePerson", Review audit "console_user.disable", crate::people::disable_person, doc crate::people::disable_person_doc;
    PersonEnable(person_id): "POST" "/v1/admin/people/{person_id}/enable" => "enablePerson", Review audit "console_user.enable", crate::people::enable_person, doc crate::people::enable_person_doc;
    // lists
    AdminListSearch: "GET" "/v1/admin/sanctions/search" => "searchLists", Review, crate::lists::search_lists, doc crate::lists::search_lists_doc;
    AdminLists: "GET" "/v1/admin/sanctions/lists" => "listLists", Review, crate::lists::list_lists, doc crate::lists::list_lists_doc;
    // kyc
    KycStart: "POST" "/v1/kyc/start" => "startKyc", Tenant, crate::kyc::kyc_start, doc crate::kyc::kyc_start_doc;
    KycStatus: "GET" "/v1/kyc/status" => "getKycStatus", Tenant, crate::kyc::kyc_status, doc crate::kyc::kyc_status_doc;
    KycTier: "GET" "/v1/kyc/tier" => "getKycTier", Tenant, crate::kyc::kyc_tier, doc crate::kyc::kyc_tier_doc;
    KycToken(kyc_check_id): "POST" "/v1/kyc/{kyc_check_id}/token" => "issueKycToken", Tenant, crate::kyc::kyc_token, doc crate::kyc::kyc_token_doc;
    KycManualReview: "POST" "/v1/kyc/manual-review" => "reviewKycManually", Admin audit "kyc.manual_review", crate::kyc::kyc_manual_review, doc crate::kyc::kyc_manual_review_doc;
    AdminKycChecks: "GET" "/v1/admin/kyc/checks" => "listKycChecks", Review, crate::kyc::list_kyc_checks, doc crate::kyc::list_kyc_checks_doc;
    SandboxKycSubmit(kyc_check_id): "POST" "/v1/sandbox/kyc/{kyc_check_id}/submit" => "submitSandboxKyc", Tenant, crate::kyc::sandbox_kyc_submit, doc crate::kyc::sandbox_kyc_submit_doc;
    // exclusions
    ExclusionRegister: "POST" "/v1/exclusions" => "registerExclusion", Tenant, crate::exclusions::register, doc crate::exclusions::register_doc;
    ExclusionCheck: "GET" "/v1/exclusions/check" => "checkExclusion", Tenant, crate::exclusions::check, doc crate::exclusions::check_doc;
    RegisterCheck: "POST" "/v1/exclusions/check" => "checkRegisters", Tenant, crate::registers::check, doc crate::registers::check_doc;
    RegisterChecks: "GET" "/v1/registers/checks" => "listRegisterChecks", Tenant, crate::registers::list_checks, doc crate::registers::list_checks_doc;
    ExclusionSnapshot: "GET" "/v1/exclusions/snapshot" => "getExclusionSnapshot", Tenant, crate::exclusions::snapshot, doc crate::exclusions::snapshot_doc;
    AdminRegulatorImport: "POST" "/v1/admin/exclusions/regulator-import" => "importRegulatorExclusions", Admin audit "exclusions.regulator_import", crate::exclusions::import_from_regulator, doc crate::exclusions::import_from_regulator_doc;
    AdminRegulatorExport: "POST" "/v1/admin/exclusions/regulator-export" => "exportToRegulator", Admin audit "exclusions.regulator_export", crate::exclusions::export_to_regulator, doc crate::exclusions::export_to_regulator_doc;
    // users: the relationship's end and erasure (issue #31)
    UserClose(user_id): "POST" "/v1/users/{user_id}/close" => "closeUser", Tenant, crate::erasure::close, doc crate::erasure::close_doc;
    UserErasure(user_id): "POST" "/v1/users/{user_id}/erasure" => "requestErasure", Tenant, crate::erasure::request_erasure, doc crate::erasure::request_erasure_doc;
    AdminUserErasure(user_id): "POST" "/v1/admin/users/{user_id}/erasure" => "requestErasureAsAdmin", Admin audit "user.erasure", crate::erasure::admin_request_erasure, doc crate::erasure::admin_request_erasure_doc;
    ErasureGet(erasure_id): "GET" "/v1/erasures/{erasure_id}" => "getErasure", Tenant, crate::erasure::get_erasure, doc crate::erasure::get_erasure_doc;
    // users: the player's access request (issue #48)
    UserAccessRequest(user_id): "POST" "/v1/users/{user_id}/access-request" => "requestAccess", Tenant, crate::access::request_access, doc crate::access::request_access_doc;
    AccessRequestGet(access_request_id): "GET" "/v1/access-requests/{access_request_id}" => "getAccessRequest", Tenant, crate::access::get_access_request, doc crate::access::get_access_request_doc;
    AccessRequestDelivered(access_request_id): "POST" "/v1/access-requests/{access_request_id}/delivered" => "markAccessRequestDelivered", Tenant, crate::access::mark_delivered, doc crate::access::mark_delivered_doc;
    AdminAccessRequestFile(access_request_id): "GET" "/v1/admin/access-requests/{access_request_id}" => "getAccessRequestFile", Review, crate::access::get_access_request_file, doc crate::access::get_access_request_file_doc;
    // limits
    LimitSet: "POST" "/v1/limits" => "setLimit", Tenant, crate::limits::set_limit, doc crate::limits::set_limit_doc;
    LimitList: "GET" "/v1/limits" => "listLimits", Tenant, crate::limits::list_limits, doc crate::limits::list_limits_doc;
    LimitCheck: "POST" "/v1/limits/check" => "checkDeposit", Tenant, crate::limits::check_limits, doc crate::limits::check_limits_doc;
    LimitCommit: "POST" "/v1/limits/commit" => "commitDeposit", Tenant, crate::limits::commit_deposit, doc crate::limits::commit_deposit_doc;
    LimitCancel(limit_id): "DELETE" "/v1/limits/{limit_id}" => "cancelLimit", Tenant, crate::limits::cancel_limit, doc crate::limits::cancel_limit_doc;
    // aml
    AmlEvent: "POST" "/v1/aml/event" => "reportAmlEvent", Tenant, crate::aml::report, doc crate::aml::report_doc;
    AmlAlerts: "GET" "/v1/aml/alerts" => "listOwnAmlAlerts", Tenant, crate::aml::own_alerts, doc crate::aml::own_alerts_doc;
    AdminAmlList: "GET" "/v1/admin/aml/events" => "listAmlEvents", Admin, crate::aml::list, doc crate::aml::list_doc;
    AdminAmlAlerts: "GET" "/v1/admin/aml/alerts" => "listAmlAlerts", Review, crate::aml::admin_alerts, doc crate::aml::admin_alerts_doc;
    AdminAmlCases: "GET" "/v1/admin/aml/cases" => "listAmlCases", Review, crate::aml::admin_cases, doc crate::aml::admin_cases_doc;
    AdminAmlReport(case_id): "GET" "/v1/admin/aml/cases/{case_id}/report" => "getAmlReportBundle", Review, crate::aml::report_bundle, doc crate::aml::report_bundle_doc;
    AdminAmlShadow: "GET" "/v1/admin/aml/shadow" => "listAmlShadowDisagreements", Review, crate::aml::shadow, doc crate::aml::shadow_doc;
    AdminCtrCandidates: "GET" "/v1/admin/aml/ctr-candidates" => "listCtrCandidates", Review, crate::aml::ctr_candidates, doc crate::aml::ctr_candidates_doc;
    AdminCaseFilingDraft(case_id): "POST" "/v1/admin/aml/cases/{case_id}/filings" => "draftCaseFiling", Review audit "aml.filing_draft", crate::filings::draft, doc crate::filings::draft_doc;
    AdminCaseFilings(case_id): "GET" "/v1/admin/aml/cases/{case_id}/filings" => "listCaseFilings", Review, crate::filings::list, doc crate::filings::list_doc;
    AdminCtrFilingDraft(alert_id): "POST" "/v1/admin/aml/ctr-candidates/{alert_id}/filings" => "draftCtrFiling", Review audit "aml.filing_draft", crate::filings::draft_ctr, doc crate::filings::draft_ctr_doc;
    AdminAmlRatesImport: "POST" "/v1/admin/aml/rates" => "importAmlRates", Admin audit "aml.rates_import", crate::rates::import, doc crate::rates::import_doc;
    AdminAmlRates: "GET" "/v1/admin/aml/rates" => "listAmlRates", Review, crate::rates::list, doc crate::rates::list_doc;
    AdminTenantFilingSettings(tenant_id): "PUT" "/v1/admin/tenants/{tenant_id}/filing-settings" => "setTenantFilingSettings", Admin audit "tenant.filing_settings", crate::filings::set_settings, doc crate::filings::set_settings_doc;
    AdminTenantGamingDay(tenant_id): "PUT" "/v1/admin/tenants/{tenant_id}/gaming-day" => "setTenantGamingDay", Admin audit "tenant.gaming_day", crate::aml::set_gaming_day, doc crate::aml::set_gaming_day_doc;
    AdminTenantRegisters(tenant_id): "PUT" "/v1/admin/tenants/{tenant_id}/registers" => "setTenantRegisters", Admin audit "tenant.registers", crate::registers::set_registers, doc crate::registers::set_registers_doc;
    AdminTenantRegistersGet(tenant_id): "GET" "/v1/admin/tenants/{tenant_id}/registers" => "getTenantRegisters", Admin, crate::registers::get_registers, doc crate::registers::get_registers_doc;
    // tenants and keys
    AdminTenantCreate: "POST" "/v1/admin/tenants" => "createTenant", Admin audit "tenant.create", crate::tenants::create, doc crate::tenants::create_doc;
    AdminKeyCreate(tenant_id): "POST" "/v1/admin/tenants/{tenant_id}/keys" => "createKey", Admin audit "key.create", crate::tenants::create_key, doc crate::tenants::create_key_doc;
    AdminTenantSuspend(tenant_id): "POST" "/v1/admin/tenants/{tenant_id}/suspend" => "suspendTenant", Admin audit "tenant.suspend", crate::tenants::suspend, doc crate::tenants::suspend_doc;
    AdminTenantScreening(tenant_id): "PUT" "/v1/admin/tenants/{tenant_id}/screening" => "setTenantScreening", Admin audit "tenant.screening", crate::tenants::set_screening, doc crate::tenants::set_screening_doc;
    AdminTenantRateLimit(tenant_id): "PUT" "/v1/admin/tenants/{tenant_id}/rate-limit" => "setTenantRateLimit", Admin audit "tenant.rate_limit", crate::tenants::set_rate_limit, doc crate::tenants::set_rate_limit_doc;
    AdminTenantAudit(tenant_id): "GET" "/v1/admin/tenants/{tenant_id}/audit" => "getTenantAudit", Admin, crate::tenants::audit_of, doc crate::tenants::audit_of_doc;
    AdminKeyRevoke(key_id): "DELETE" "/v1/admin/keys/{key_id}" => "revokeKey", Admin audit "key.revoke", crate::tenants::revoke_key, doc crate::tenants::revoke_key_doc;
    AdminMetrics: "GET" "/v1/admin/metrics" => "getReviewMetrics", Review, crate::sanctions::review_metrics, doc crate::sanctions::review_metrics_doc;
    AdminAudit: "GET" "/v1/admin/audit" => "getAdminAudit", Review, crate::tenants::admin_audit, doc crate::tenants::admin_audit_doc;
    TenantAudit: "GET" "/v1/audit" => "getOwnAudit", Tenant, crate::tenants::own_audit, doc crate::tenants::own_audit_doc;
    // sandbox
    SandboxClockAdvance: "POST" "/v1/sandbox/clock" => "advanceSandboxClock", Tenant, api::sandbox::advance_clock, doc api::sandbox::advance_clock_doc;
    SandboxClockGet: "GET" "/v1/sandbox/clock" => "getSandboxClock", Tenant, api::sandbox::get_clock, doc api::sandbox::get_clock_doc;
    // webhooks
    WebhookCreate: "POST" "/v1/webhooks" => "createWebhook", Tenant, crate::webhooks::create, doc crate::webhooks::create_doc;
    WebhookList: "GET" "/v1/webhooks" => "listWebhooks", Tenant, crate::webhooks::list, doc crate::webhooks::list_doc;
    WebhookDelete(webhook_id): "DELETE" "/v1/webhooks/{webhook_id}" => "deleteWebhook", Tenant, crate::webhooks::delete, doc crate::webhooks::delete_doc;
    WebhookRotate(webhook_id): "POST" "/v1/webhooks/{webhook_id}/rotate-secret" => "rotateWebhookSecret", Tenant, crate::webhooks::rotate_secret, doc crate::webhooks::rotate_secret_doc;
    WebhookEnable(webhook_id): "POST" "/v1/webhooks/{webhook_id}/enable" => "enableWebhook", Tenant, crate::webhooks::enable, doc crate::webhooks::enable_doc;
    WebhookDeliveries(webhook_id): "GET" "/v1/webhooks/{webhook_id}/deliveries" => "listDeliveries", Tenant, crate::webhooks::deliveries, doc crate::webhooks::deliveries_doc;
    WebhookRedeliver(delivery_id): "POST" "/v1/webhooks/deliveries/{delivery_id}/redeliver" => "redeliver", Tenant, crate::webhooks::redeliver, doc crate::webhooks::redeliver_doc;
    // scheduler and decisions
    AdminRunScheduled: "POST" "/v1/admin/scheduler/run" => "runScheduled", Admin audit "scheduler.run", crate::scheduler::run_scheduled_now, doc crate::scheduler::run_scheduled_now_doc;
    AdminDecisionList: "GET" "/v1/admin/decisions" => "listDecisions", Review, crate::decisions::list_decisions, doc crate::decisions::list_decisions_doc;
    AdminDecisionGet(decision_id): "GET" "/v1/admin/decisions/{decision_id}" => "getDecision", Review, crate::decisions::get_decision, doc crate::decisions::get_decision_doc;
    AdminDecisionReplay(decision_id): "POST" "/v1/admin/decisions/{decision_id}/replay" => "replayDecision", Admin audit "decision.replay", crate::decisions::replay_decision, doc crate::decisions::replay_decision_doc;
}

/// Whether the caller may call the route: 403 otherwise. A person's session
/// reaches only the review work and their own session; until the one-time
/// password is changed, only its change and signing out.
pub(crate) fn check_access(route: &Route, caller: &crate::Caller) -> ApiResult<()> {
    let access = route.spec().access;
    let allowed = match (&caller.person, access) {
        (_, Access::Public) => true,
        (None, Access::Tenant) => true,
        (None, Access::Admin | Access::Review) => caller.is_admin,
        (None, Access::Person) => return Err(ApiError::forbidden("person_required", "only a person's session may do this, not a key")),
        (Some(_), Access::Review | Access::Person) => true,
        (Some(_), Access::Tenant | Access::Admin) => false,
    };
    if !allowed {
        let needs = if caller.person.is_some() { "an admin key, not a person's session" } else { "an admin key" };
        return Err(ApiError::forbidden("forbidden", format!("this operation needs {needs}")));
    }
    // whatever the route's access: a Person route (approve, take, a TOTP reset) is no exception
    if caller.person.as_ref().is_some_and(|p| p.must_change_password) && !matches!(route, Route::PasswordChange | Route::SignOut) {
        return Err(ApiError::forbidden("password_change_required", "change the one-time password first (POST /v1/admin/people/me/password)"));
    }
    Ok(())
}

impl Route {
    pub fn operation_id(&self) -> &'static str {
        self.spec().operation_id
    }

    /// Whether the compliance team's credentials are needed (an admin key, or for review work also a person's session).
    pub fn is_admin(&self) -> bool {
        matches!(self.spec().access, Access::Admin | Access::Review | Access::Person)
    }

    /// The audit name of an admin action that changes something, and the id
    /// in its path; `None` for reads and for operator routes.
    pub fn admin_action(&self) -> Option<(&'static str, Option<&str>)> {
        self.spec().audit.map(|action| (action, self.path_id()))
    }

    /// Whether its answer holds a secret stored only hashed or sealed (a key,
    /// a one-time password, a TOTP or signing secret): never kept for an
    /// `Idempotency-Key`'s replay, which would keep it in clear for a day.
    /// Whether it honours an `Idempotency-Key`: every keyed POST but those
    /// whose answer holds a secret. The pipeline keeps keys by this, and the
    /// document describes the header by it: the two cannot part.
    pub fn takes_idempotency_key(&self) -> bool {
        let spec = self.spec();
        spec.method == "POST" && spec.access != Access::Public && !self.answers_secrets() && !self.carries_national_identifiers()
    }

    /// Whether its body may carry a national identifier (a personnummer, a
    /// BSN, a CPR number): no fingerprint of it is kept for a replay, since a
    /// hash of so few possible values gives the identifier back. A repeat is
    /// a new check, which is what a check after a lost answer should be.
    pub fn carries_national_identifiers(&self) -> bool {
        matches!(self, Route::RegisterCheck)
    }

    /// Whether a route of the table takes an `Idempotency-Key` ([`Route::takes_idempotency_key`]).
    pub fn spec_takes_idempotency_key(spec: &RouteSpec) -> bool {
        Route::build(spec.operation_id, Some("id")).is_some_and(|r| r.takes_idempotency_key())
    }

    pub fn answers_secrets(&self) -> bool {
        matches!(
            self,
            Route::PersonCreate
                | Route::TotpReset
                | Route::AdminTenantCreate
                | Route::AdminKeyCreate(_)
                | Route::WebhookCreate
                | Route::WebhookRotate(_)
        )
    }
}

/// One segment of a path template.
#[derive(Debug)]
enum Segment {
    Literal(&'static str),
    Id,
}

/// The templates, each with its segments and the table rows it serves.
struct Templates(Vec<(Vec<Segment>, Vec<&'static RouteSpec>)>);

fn templates() -> &'static Templates {
    static TEMPLATES: OnceLock<Templates> = OnceLock::new();
    TEMPLATES.get_or_init(|| {
        let mut templates: Vec<(Vec<Segment>, Vec<&'static RouteSpec>)> = Vec::new();
        let mut paths: Vec<&'static str> = Vec::new();
        for spec in ROUTES {
            match paths.iter().position(|p| *p == spec.path) {
                Some(i) => templates[i].1.push(spec),
                None => {
                    let segments = spec.path.split('/').skip(1).map(|s| if s.starts_with('{') { Segment::Id } else { Segment::Literal(s) }).collect();
                    paths.push(spec.path);
                    templates.push((segments, vec![spec]));
                }
            }
        }
        Templates(templates)
    })
}

/// The route for a request, or 404 `not_found` / 405 `method_not_allowed`.
/// Where templates overlap, the one with more fixed segments wins
/// (`/v1/limits/check` over `/v1/limits/{limit_id}`).
pub fn resolve(method: &Method, path: &str) -> ApiResult<Route> {
    let not_found = || ApiError::not_found("not_found", format!("no such path: {path}"));
    let trimmed = path.strip_suffix('/').filter(|p| !p.is_empty()).unwrap_or(path);
    let segments: Vec<&str> = trimmed.split('/').skip(1).collect();
    if segments.iter().any(|s| s.is_empty()) {
        return Err(not_found());
    }
    let mut best: Option<(usize, Option<&str>, &Vec<&'static RouteSpec>)> = None;
    for (template, specs) in &templates().0 {
        if template.len() != segments.len() {
            continue;
        }
        let mut fixed = 0;
        let mut id = None;
        let matches = template.iter().zip(&segments).all(|(t, s)| match t {
            Segment::Literal(l) => {
                fixed += 1;
                l == s
            }
            Segment::Id => {
                id = Some(*s);
                true
            }
        });
        if matches && best.as_ref().is_none_or(|(f, _, _)| fixed > *f) {
            best = Some((fixed, id, specs));
        }
    }
    let (_, id, specs) = best.ok_or_else(not_found)?;
    if let Some(spec) = specs.iter().find(|s| s.method == method.as_str()) {
        return Route::build(spec.operation_id, id).ok_or_else(not_found);
    }
    let allowed: Vec<&str> = specs.iter().map(|s| s.method).collect();
    let mut error = ApiError::new(405, "method_not_allowed", format!("{method} is not allowed here; allowed: {}", allowed.join(", ")));
    error.allow = Some(allowed.join(", "));
    Err(error)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    #[test]
    fn fixed_segments_win_over_ids() {
        assert_eq!(resolve(&Method::POST, "/v1/limits/check"), Ok(Route::LimitCheck));
        assert_eq!(resolve(&Method::DELETE, "/v1/limits/lim_1"), Ok(Route::LimitCancel("lim_1".into())));
        assert_eq!(resolve(&Method::POST, "/v1/webhooks/deliveries/d_1/redeliver"), Ok(Route::WebhookRedeliver("d_1".into())));
        assert_eq!(resolve(&Method::POST, "/v1/webhooks/wh_1/enable"), Ok(Route::WebhookEnable("wh_1".into())));
    }

    #[test]
    fn unknown_paths_and_methods() {
        assert_eq!(resolve(&Method::GET, "/v2/health").map_err(|e| e.status), Err(404));
        assert_eq!(resolve(&Method::GET, "/v1//health").map_err(|e| e.status), Err(404));
        let e = resolve(&Method::DELETE, "/v1/sanctions/screen").unwrap_err();
        assert_eq!((e.status, e.code, e.allow.as_deref()), (405, "method_not_allowed", Some("POST")));
    }

    /// `Allow` names exactly the methods the table declares for the path,
    /// whatever their combination.
    #[test]
    fn allow_lists_every_declared_method_of_the_path() {
        for spec in ROUTES {
            let concrete = spec.path.split('/').map(|s| if s.starts_with('{') { "id_1" } else { s }).collect::<Vec<_>>().join("/");
            let declared: BTreeSet<&str> = ROUTES.iter().filter(|s| s.path == spec.path).map(|s| s.method).collect();
            let error = resolve(&Method::PATCH, &concrete).unwrap_err();
            let allowed: BTreeSet<&str> = error.allow.as_deref().unwrap_or_default().split(", ").collect();
            assert_eq!(allowed, declared, "{}", spec.path);
        }
        let e = resolve(&Method::DELETE, "/v1/limits").unwrap_err();
        assert_eq!(e.allow.as_deref(), Some("POST, GET"));
    }

    #[test]
    fn every_row_resolves_to_itself() {
        let mut ids = BTreeSet::new();
        for spec in ROUTES {
            assert!(ids.insert(spec.operation_id), "{} twice", spec.operation_id);
            let concrete = spec.path.split('/').map(|s| if s.starts_with('{') { "id_1" } else { s }).collect::<Vec<_>>().join("/");
            let method = Method::from_bytes(spec.method.as_bytes()).unwrap();
            let route = resolve(&method, &concrete).unwrap();
            assert_eq!(route.spec(), *spec);
            assert_eq!(route.path_id(), spec.path.contains('{').then_some("id_1"));
            assert_eq!(spec.audit.is_some(), route.admin_action().is_some());
        }
    }

    /// Until the one-time password is changed, a session may change it and
    /// sign out, and nothing else, whatever the route's access (approve,
    /// take and a TOTP reset are `Person` routes too). Twin: once changed,
    /// every review and person route is open to the session.
    #[test]
    fn a_one_time_password_opens_only_its_change_and_sign_out() {
        let caller = |must_change_password: bool| crate::Caller {
            tenant_id: "svc_production".into(),
            environment: crate::auth::Environment::Production,
            is_admin: true,
            key_id: "per_1".into(),
            rate_limit_per_minute: 1000,
            clock_offset_seconds: 0,
            jurisdiction: "default".into(),
            person: Some(crate::Person {
                person_id: "per_1".into(),
                role: crate::people::Role::Admin,
                must_change_password,
                session_hash: "h".into(),
            }),
        };
        for spec in ROUTES.iter().filter(|s| matches!(s.access, Access::Review | Access::Person)) {
            let concrete = spec.path.split('/').map(|s| if s.starts_with('{') { "id_1" } else { s }).collect::<Vec<_>>().join("/");
            let route = resolve(&Method::from_bytes(spec.method.as_bytes()).unwrap(), &concrete).unwrap();
            let fresh = check_access(&route, &caller(true));
            match spec.operation_id {
                "changeOwnPassword" | "signOut" => assert_eq!(fresh, Ok(()), "{}", spec.operation_id),
                _ => assert_eq!(fresh.map_err(|e| e.code), Err("password_change_required"), "{}", spec.operation_id),
            }
            assert_eq!(check_access(&route, &caller(false)), Ok(()), "{}", spec.operation_id);
        }
    }

    /// An audited action is an admin write: operators' routes and reads are not audited as admin actions.
    #[test]
    fn only_admin_writes_are_audited() {
        for spec in ROUTES.iter().filter(|s| s.audit.is_some()) {
            assert!(matches!(spec.access, Access::Admin | Access::Review | Access::Person), "{}", spec.operation_id);
            assert!(spec.method != "GET", "{}", spec.operation_id);
        }
    }
}
