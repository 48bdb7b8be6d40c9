//! API errors and their one mapping to HTTP.

use crate::ports::{RulesFault, StoreError};

/// Every error's body.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[schema(as = Error)]
pub struct ErrorBody<'a> {
    /// stable machine-readable code; branch on this
    pub error: &'a str,
    /// human-readable; wording may change
    pub message: &'a str,
    pub request_id: &'a str,
}

/// An error answered to the caller as `{error, message, request_id}`.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    pub status: u16,
    /// stable, machine-readable code
    pub code: &'static str,
    /// human-readable; lowercase, no final period
    pub message: String,
    pub retry_after_seconds: Option<u64>,
    pub allow: Option<String>,
    /// why a 5xx happened, for the host's log; never sent to the caller
    pub detail: Option<Box<str>>,
    /// the rules decision behind a refusal, sent as `x-decision-id`
    pub decision_id: Option<Box<str>>,
}

/// Attached to the extensions of a 5xx response: the cause, for the host to log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErrorDetail(pub String);

/// The headers of every JSON answer of the API, in one place: no content
/// sniffing, and no caching anywhere on the way (answers carry session
/// tokens, keys and one-time secrets; nothing of the API is meant to be reused).
pub fn json_headers(headers: &mut http::HeaderMap) {
    headers.insert(http::header::X_CONTENT_TYPE_OPTIONS, http::HeaderValue::from_static("nosniff"));
    headers.insert(http::header::CACHE_CONTROL, http::HeaderValue::from_static("no-store"));
}

impl ApiError {
    pub fn new(status: u16, code: &'static str, message: impl Into<String>) -> Self {
        ApiError { status, code, message: message.into(), retry_after_seconds: None, allow: None, detail: None, decision_id: None }
    }
    pub fn bad_request(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(400, code, message)
    }
    pub fn forbidden(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(403, code, message)
    }
    /// 403 for a direct case decision where four-eyes applies.
    pub fn four_eyes_required() -> Self {
        Self::forbidden(
            "four_eyes_required",
            "decisions in this environment take two people: propose with POST /v1/admin/cases/{case_id}/proposal, and a second person approves",
        )
    }
    pub fn not_found(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(404, code, message)
    }
    pub fn conflict(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(409, code, message)
    }
    pub fn unprocessable(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(422, code, message)
    }
    pub fn user_not_found() -> Self {
        Self::not_found("user_not_found", "no user with this user_id has been screened by this tenant")
    }
    pub fn internal() -> Self {
        Self::new(500, "internal_error", "an unexpected error occurred; retry later or contact support with the request id")
    }

    /// The response for this error: the one place errors become HTTP.
    pub fn into_response(self, request_id: &str) -> http::Response<Vec<u8>> {
        let body = ErrorBody { error: self.code, message: &self.message, request_id };
        let mut builder = http::Response::builder().status(self.status).header("content-type", "application/json");
        if let Some(seconds) = self.retry_after_seconds {
            builder = builder.header("retry-after", seconds.to_string());
        }
        if let Some(allow) = self.allow {
            builder = builder.header("allow", allow.as_str());
        }
        if let Some(id) = &self.decision_id {
            builder = builder.header("x-decision-id", &**id);
        }
        if let Ok(value) = http::HeaderValue::from_str(request_id) {
            builder = builder.header("x-request-id", value);
        }
        let bytes = serde_json::to_vec(&body).unwrap_or_default();
        let mut response = builder.body(bytes).unwrap_or_else(|_| {
            // never an empty 200: the error's own status, its id when it is a header value
            let mut fallback = http::Response::new(Vec::new());
            *fallback.status_mut() = http::StatusCode::from_u16(self.status).unwrap_or(http::StatusCode::INTERNAL_SERVER_ERROR);
            if let Ok(value) = http::HeaderValue::from_str(request_id) {
                fallback.headers_mut().insert("x-request-id", value);
            }
            fallback
        });
        json_headers(response.headers_mut());
        if let Some(detail) = self.detail {
            response.extensions_mut().insert(ErrorDetail(detail.into()));
        }
        response
    }

    /// Adds a detail for the host's log; it is never sent to the caller.
    pub fn with_detail(mut self, detail: String) -> Self {
        self.detail = Some(detail.into_boxed_str());
        self
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        crate::metric_names::store_error(&e);
        match e {
            StoreError::Unavailable(_) => {
                let mut error = ApiError::new(503, "store_unavailable", "the store is unavailable; retry later").with_detail(e.to_string());
                error.retry_after_seconds = Some(1);
                error
            }
            e => ApiError::internal().with_detail(e.to_string()),
        }
    }
}

impl From<RulesFault> for ApiError {
    fn from(fault: RulesFault) -> Self {
        let RulesFault::Engine(e) = fault;
        let mut error = ApiError::new(503, "rules_unavailable", "the rules engine could not decide; retry later").with_detail(e);
        error.retry_after_seconds = Some(1);
        error
    }
}

impl From<rules_model::RuleError> for ApiError {
    fn from(e: rules_model::RuleError) -> Self {
        match e {
            rules_model::RuleError::NonPositiveAmount => ApiError::bad_request("invalid_amount", "amounts must be positive integers in minor units"),
            rules_model::RuleError::AmountTooLarge => ApiError::bad_request("invalid_amount", "amount is larger than the service accepts"),
            rules_model::RuleError::UnknownJurisdiction => {
                ApiError::unprocessable("unknown_jurisdiction", "the tenant's jurisdiction profile is not one the rules know")
            }
            rules_model::RuleError::NoReferenceRate => ApiError::unprocessable(
                crate::limits::NO_REFERENCE_RATE,
                "an amount in another currency counts here at the reference rates, and no reference rate converts it; import the rates (POST /v1/admin/aml/rates)",
            ),
        }
    }
}

/// For hosts' logs: the code, the message and the cause, never sent as is.
impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}: {}", self.status, self.code, self.message)?;
        if let Some(detail) = &self.detail {
            write!(f, " ({detail})")?;
        }
        Ok(())
    }
}

pub type ApiResult<T> = Result<T, ApiError>;

#[cfg(test)]
mod tests {
    use super::*;

    /// Every error response carries `x-request-id`, also those a host makes
    /// before the core has the request (the edge's early failures).
    #[test]
    fn every_error_response_names_its_request() {
        let response = ApiError::from(StoreError::Unavailable("gone".into())).into_response("req_1");
        assert_eq!(response.headers().get("x-request-id").and_then(|v| v.to_str().ok()), Some("req_1"));
        assert_eq!(response.status(), 503);
        let body: serde_json::Value = serde_json::from_slice(response.body()).unwrap_or_default();
        assert_eq!(body["request_id"], "req_1");
        assert!(response.extensions().get::<ErrorDetail>().is_some(), "the cause stays for the host's log");
    }
}
