//! The native host's metrics: a Prometheus recorder behind the `metrics`
//! facade the core records through, with explicit histogram buckets (so
//! that several hosts' histograms add up), and the HTTP figures of each request.

use std::sync::OnceLock;
use std::time::Duration;

use gateway::telemetry::{self, CheckFacts};
use metrics_exporter_prometheus::{BuildError, Matcher, PrometheusBuilder, PrometheusHandle};

static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// Installs the recorder once for the process and keeps its histograms drained.
pub fn install() -> Result<(), BuildError> {
    if HANDLE.get().is_some() {
        return Ok(());
    }
    let handle = PrometheusBuilder::new()
        .set_buckets_for_metric(Matcher::Full(telemetry::HTTP_REQUEST_DURATION.into()), telemetry::DURATION_BUCKETS)?
        .set_buckets_for_metric(Matcher::Full(telemetry::CHECK_DURATION.into()), telemetry::DURATION_BUCKETS)?
        .set_buckets_for_metric(Matcher::Full(telemetry::RULES_DURATION.into()), telemetry::RULES_BUCKETS)?
        .install_recorder()?;
    telemetry::describe();
    let upkeep = handle.clone();
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_secs(5)).await;
            upkeep.run_upkeep();
        }
    });
    let _ = HANDLE.set(handle);
    Ok(())
}

/// The Prometheus text of everything recorded; empty without a recorder.
pub fn render() -> String {
    HANDLE.get().map(PrometheusHandle::render).unwrap_or_default()
}

/// A request being answered: counted in `http_server_active_requests` until dropped.
pub struct InFlight;

impl InFlight {
    pub fn start() -> InFlight {
        metrics::gauge!(telemetry::HTTP_ACTIVE_REQUESTS).increment(1.0);
        InFlight
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        metrics::gauge!(telemetry::HTTP_ACTIVE_REQUESTS).decrement(1.0);
    }
}

/// One answered request's duration by method, route template and status,
/// and a check's by endpoint and outcome.
pub fn record_request(method: &http::Method, route: Option<&'static str>, status: u16, check: Option<&CheckFacts>, took: Duration) {
    let method = match *method {
        http::Method::GET => "GET",
        http::Method::POST => "POST",
        http::Method::PUT => "PUT",
        http::Method::DELETE => "DELETE",
        http::Method::PATCH => "PATCH",
        http::Method::HEAD => "HEAD",
        http::Method::OPTIONS => "OPTIONS",
        _ => "_OTHER",
    };
    let seconds = took.as_secs_f64();
    metrics::histogram!(
        telemetry::HTTP_REQUEST_DURATION,
        "http_request_method" => method,
        "http_route" => route.unwrap_or("unmatched"),
        "http_response_status_code" => status_label(status),
    )
    .record(seconds);
    if let Some(check) = check {
        metrics::histogram!(telemetry::CHECK_DURATION, "endpoint" => check.endpoint, "outcome" => check.outcome.clone()).record(seconds);
    }
}

/// A status as a label without an allocation for the usual ones.
fn status_label(status: u16) -> std::borrow::Cow<'static, str> {
    const KNOWN: &[(u16, &str)] = &[
        (200, "200"),
        (201, "201"),
        (202, "202"),
        (204, "204"),
        (303, "303"),
        (400, "400"),
        (401, "401"),
        (403, "403"),
        (404, "404"),
        (409, "409"),
        (422, "422"),
        (429, "429"),
        (500, "500"),
        (503, "503"),
    ];
    match KNOWN.iter().find(|(s, _)| *s == status) {
        Some((_, text)) => std::borrow::Cow::Borrowed(text),
        None => std::borrow::Cow::Owned(status.to_string()),
    }
}
