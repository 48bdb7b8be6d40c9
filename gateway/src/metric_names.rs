//! The names of the metrics the core records, and the one recording the
//! error path needs: a room below every area, so that recording a metric
//! imports nothing above it.

pub const HTTP_REQUEST_DURATION: &str = "http_server_request_duration_seconds";
pub const HTTP_ACTIVE_REQUESTS: &str = "http_server_active_requests";
pub const CHECK_DURATION: &str = "cgw_check_duration_seconds";
pub const RULES_DURATION: &str = "cgw_rules_evaluation_duration_seconds";
pub const QUEUE_ITEMS: &str = "cgw_review_queue_items";
pub const QUEUE_OLDEST_AGE: &str = "cgw_review_queue_oldest_age_seconds";
pub const QUEUE_PAST_DUE: &str = "cgw_review_queue_past_due_items";
pub const WEBHOOK_DELIVERIES: &str = "cgw_webhook_deliveries_total";
pub const WEBHOOK_PENDING: &str = "cgw_webhook_pending_deliveries";
pub const WEBHOOK_LAG: &str = "cgw_webhook_delivery_lag_seconds";
pub const DECISION_LOG_QUEUE: &str = "cgw_decision_log_queue_length";
pub const DECISION_LOG_FLUSH_FAILURES: &str = "cgw_decision_log_flush_failures_total";
pub const LIST_LAST_REFRESH: &str = "cgw_list_last_refresh_timestamp_seconds";
pub const LIST_REFRESH_FAILURES: &str = "cgw_list_refresh_failures_total";
pub const STORE_ERRORS: &str = "cgw_store_errors_total";
pub const STORE_POOL_CONNECTIONS: &str = "cgw_store_pool_connections";
pub const STORE_UP: &str = "cgw_store_up";
pub const AML_PRECISION: &str = "cgw_aml_typology_precision";
pub const AML_ALERTS_PER_CASE: &str = "cgw_aml_alerts_per_case";
pub const BUILD_INFO: &str = "cgw_build_info";

/// Seconds: from a cheap check (a few hundred microseconds) to a slow vendor call.
pub const DURATION_BUCKETS: &[f64] = &[0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];
/// Seconds: a rules call takes microseconds.
pub const RULES_BUCKETS: &[f64] = &[0.000_002, 0.000_005, 0.000_01, 0.000_025, 0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.005, 0.025];

/// Counts a store error by kind (never its text, which may name hosts).
pub(crate) fn store_error(error: &crate::ports::StoreError) {
    let kind = match error {
        crate::ports::StoreError::Unavailable(_) => "unavailable",
        crate::ports::StoreError::Conflict { .. } => "conflict",
        _ => "backend",
    };
    metrics::counter!(STORE_ERRORS, "kind" => kind).increment(1);
}
