//! API errors and their one mapping to HTTP.

use crate::ports::{RulesFault, StoreError};

/// An error answered to the caller as `{error, message, request_id}`.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    pub status: u16,
    /// stable, machine-readable code
    pub code: &'static str,
    /// human-readable; lowercase, no final period
    pub message: String,
    pub retry_after_seconds: Option<u64>,
    pub allow: Option<&'static str>,
}

impl ApiError {
    pub fn new(status: u16, code: &'static str, message: impl Into<String>) -> Self {
        ApiError { status, code, message: message.into(), retry_after_seconds: None, allow: None }
    }
    pub fn bad_request(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(400, code, message)
    }
    pub fn forbidden(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(403, code, message)
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
        let body = serde_json::json!({ "error": self.code, "message": self.message, "request_id": request_id });
        let mut builder = http::Response::builder().status(self.status).header("content-type", "application/json");
        if let Some(seconds) = self.retry_after_seconds {
            builder = builder.header("retry-after", seconds.to_string());
        }
        if let Some(allow) = self.allow {
            builder = builder.header("allow", allow);
        }
        let bytes = serde_json::to_vec(&body).unwrap_or_default();
        builder.body(bytes).unwrap_or_else(|_| http::Response::new(Vec::new()))
    }
}

impl From<StoreError> for ApiError {
    fn from(_: StoreError) -> Self {
        ApiError::internal()
    }
}

impl From<RulesFault> for ApiError {
    fn from(fault: RulesFault) -> Self {
        match fault {
            RulesFault::Rule(rules::RuleError::NonPositiveAmount) => {
                ApiError::bad_request("invalid_amount", "amounts must be positive integers in minor units")
            }
            RulesFault::Rule(rules::RuleError::AmountTooLarge) => {
                ApiError::bad_request("invalid_amount", "amount is larger than the service accepts")
            }
            RulesFault::Engine(_) => ApiError::new(500, "rules_unavailable", "the rules engine failed; retry later"),
        }
    }
}

pub type ApiResult<T> = Result<T, ApiError>;
