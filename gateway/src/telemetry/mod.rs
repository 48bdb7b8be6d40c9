//! Operational metrics through the `metrics` facade: the core records, the
//! host decides where they go (the native host installs a Prometheus
//! recorder; without one every call does nothing, as at the edge). Labels
//! never carry a tenant or user id: per-tenant figures stay in
//! `GET /v1/admin/metrics`.

pub mod facts;
pub mod store;

pub use crate::metric_names::*;
pub use facts::{CheckFacts, RequestFacts};

use crate::auth::Environment;
use crate::error::ApiResult;
use crate::{time, Gateway};

/// Says what each metric means, for the recorder's `# HELP` lines.
pub fn describe() {
    use metrics::{describe_counter, describe_gauge, describe_histogram, Unit};
    describe_histogram!(HTTP_REQUEST_DURATION, Unit::Seconds, "HTTP requests by method, route template and status");
    describe_gauge!(HTTP_ACTIVE_REQUESTS, "HTTP requests being answered");
    describe_histogram!(CHECK_DURATION, Unit::Seconds, "check-path requests by endpoint and outcome");
    describe_histogram!(RULES_DURATION, Unit::Seconds, "rules component calls by operation");
    describe_counter!(WEBHOOK_DELIVERIES, "webhook delivery attempts by result");
    describe_counter!(DECISION_LOG_FLUSH_FAILURES, "failed writes of the decision log (the decisions are kept for the next try)");
    describe_counter!(LIST_REFRESH_FAILURES, "list refreshes that failed, by environment and source");
    describe_counter!(STORE_ERRORS, "store errors by kind");
    for (name, help) in GAUGES {
        describe_gauge!(*name, *help);
    }
}

/// The check-path operations and the answer field that names their outcome.
const CHECKS: &[(&str, &str)] = &[
    ("screenUser", "status"),
    ("checkExclusion", "is_excluded"),
    ("checkDeposit", "allowed"),
    ("commitDeposit", "status"),
    ("startKyc", "withdrawal_held"),
    ("reportAmlEvent", "outcome"),
];

/// The outcome of a check-path answer, from a closed set of label values.
pub(crate) fn check_facts(operation_id: &'static str, status: u16, body: Option<&str>) -> Option<CheckFacts> {
    let (endpoint, field) = CHECKS.iter().find(|(op, _)| *op == operation_id).copied()?;
    let outcome = match status {
        200..=299 => match body.and_then(|b| outcome_field(b, field)) {
            Some(OutcomeField::Flag(flag)) => match (field, flag) {
                ("is_excluded", true) => "excluded".into(),
                ("is_excluded", false) => "not_excluded".into(),
                ("allowed", true) => "allowed".into(),
                ("allowed", false) => "rejected".into(),
                ("withdrawal_held", true) => "held".into(),
                _ => "approved".into(),
            },
            Some(OutcomeField::Name(value)) => label_value(&value),
            None => "answered".into(),
        },
        503 => "unavailable".into(),
        400..=499 => "client_error".into(),
        _ => "server_error".into(),
    };
    Some(CheckFacts { endpoint, outcome })
}

/// The outcome fields of the checks' answers ([`CHECKS`]), read from the
/// answer's text without building it again as a value.
#[derive(serde::Deserialize)]
struct OutcomeFields<'a> {
    #[serde(borrow, default)]
    status: Option<&'a serde_json::value::RawValue>,
    #[serde(borrow, default)]
    is_excluded: Option<&'a serde_json::value::RawValue>,
    #[serde(borrow, default)]
    allowed: Option<&'a serde_json::value::RawValue>,
    #[serde(borrow, default)]
    withdrawal_held: Option<&'a serde_json::value::RawValue>,
    #[serde(borrow, default)]
    outcome: Option<&'a serde_json::value::RawValue>,
}

enum OutcomeField<'a> {
    Flag(bool),
    Name(std::borrow::Cow<'a, str>),
}

/// `field` of an answer's JSON text, when it is a boolean or a string.
fn outcome_field<'a>(body: &'a str, field: &str) -> Option<OutcomeField<'a>> {
    let fields: OutcomeFields<'a> = serde_json::from_str(body).ok()?;
    let raw = match field {
        "status" => fields.status,
        "is_excluded" => fields.is_excluded,
        "allowed" => fields.allowed,
        "withdrawal_held" => fields.withdrawal_held,
        "outcome" => fields.outcome,
        _ => None,
    }?;
    match raw.get() {
        "true" => Some(OutcomeField::Flag(true)),
        "false" => Some(OutcomeField::Flag(false)),
        text => serde_json::from_str::<std::borrow::Cow<'a, str>>(text).ok().map(OutcomeField::Name),
    }
}

/// A value fit for a label. The outcome fields are the API's enums
/// (snake_case names); anything of another shape is `other`, so a label's
/// values stay a closed set.
fn label_value(value: &str) -> std::borrow::Cow<'static, str> {
    let enum_like = !value.is_empty() && value.len() <= 32 && value.bytes().all(|b| b.is_ascii_lowercase() || b == b'_');
    if enum_like {
        std::borrow::Cow::Owned(value.to_string())
    } else {
        std::borrow::Cow::Borrowed("other")
    }
}

/// One gauge's value with its labels, as a scrape shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct GaugeValue {
    pub name: &'static str,
    pub labels: Vec<(&'static str, String)>,
    pub value: f64,
}

/// The store-derived gauges read at each scrape and their `# HELP` text:
/// the one list the recorder's descriptions and the edge's text both use.
const GAUGES: &[(&str, &str)] = &[
    (BUILD_INFO, "the build: version and the rules component's SHA-256"),
    (DECISION_LOG_QUEUE, "decisions waiting in this host to be written to the log"),
    (STORE_POOL_CONNECTIONS, "store connections by state"),
    (STORE_UP, "1 when the store answered the last scrape's reads"),
    (QUEUE_ITEMS, "items waiting for a person, by environment and queue"),
    (QUEUE_OLDEST_AGE, "how long the oldest waiting item of each queue has waited (seconds)"),
    (QUEUE_PAST_DUE, "AML cases past their filing deadline, and players' access requests past their due time, by environment"),
    (LIST_LAST_REFRESH, "when each required sanctions list was last switched in (unix seconds)"),
    (AML_ALERTS_PER_CASE, "AML alerts per case"),
    (AML_PRECISION, "confirmed share of closed AML cases, per typology"),
    (WEBHOOK_PENDING, "webhook deliveries not yet delivered or given up"),
    (WEBHOOK_LAG, "how long the earliest due delivery has been due (seconds)"),
];

struct Gauges(Vec<GaugeValue>);

impl Gauges {
    fn set(&mut self, name: &'static str, labels: &[(&'static str, &str)], value: f64) {
        self.0.push(GaugeValue { name, labels: labels.iter().map(|(k, v)| (*k, (*v).to_string())).collect(), value });
    }
}

impl Gateway {
    /// The gauges a scrape shows, read from the store's current state: the
    /// review queues, the webhook backlog, the lists, AML feedback, the
    /// decision log's queue and the build. `Err` (with the gauges read so
    /// far, `cgw_store_up` 0 among them) when the store did not answer.
    pub async fn gauges(&self) -> (Vec<GaugeValue>, ApiResult<()>) {
        let mut gauges = Gauges(Vec::new());
        let outcome = self.read_gauges(&mut gauges).await;
        (gauges.0, outcome)
    }

    async fn read_gauges(&self, g: &mut Gauges) -> ApiResult<()> {
        let now = self.clock.now();
        let identity = self.rules.identity();
        g.set(
            BUILD_INFO,
            &[("version", env!("CARGO_PKG_VERSION")), ("rules_version", &identity.version), ("rules_sha256", &identity.component_sha256)],
            1.0,
        );
        g.set(DECISION_LOG_QUEUE, &[], self.decision_queue.len() as f64);
        if let Some((idle, in_use)) = self.store.connections() {
            g.set(STORE_POOL_CONNECTIONS, &[("state", "idle")], idle as f64);
            g.set(STORE_POOL_CONNECTIONS, &[("state", "in_use")], in_use as f64);
        }
        let figures = match store::figures(self.store.as_ref(), now).await {
            Ok(f) => f,
            Err(e) => {
                g.set(STORE_UP, &[], 0.0);
                return Err(e);
            }
        };
        g.set(STORE_UP, &[], 1.0);
        for environment in [Environment::Sandbox, Environment::Production] {
            for queue in ["sanctions", "due_diligence", "kyc_review", "aml", "access_request"] {
                let found = figures.queues.iter().find(|(q, f)| *q == queue && f.environment == environment).map(|(_, f)| f);
                let labels = [("environment", environment.as_str()), ("queue", queue)];
                g.set(QUEUE_ITEMS, &labels, found.map_or(0.0, |f| f.open as f64));
                let age = found.and_then(|f| f.oldest_since).map_or(0, |since| now.saturating_sub(since).max(0));
                g.set(QUEUE_OLDEST_AGE, &labels, age as f64);
                if matches!(queue, "aml" | "access_request") {
                    let past_due = found.and_then(|f| f.past_due).unwrap_or(0);
                    g.set(QUEUE_PAST_DUE, &labels, past_due as f64);
                }
            }
            for list in crate::lists::coverage(self, environment).await? {
                let at = list.last_refreshed_at.as_deref().and_then(time::parse).unwrap_or(0);
                g.set(LIST_LAST_REFRESH, &[("environment", environment.as_str()), ("source", &list.source)], at as f64);
            }
            let feedback = crate::aml::feedback(self, environment).await?;
            g.set(AML_ALERTS_PER_CASE, &[("environment", environment.as_str())], feedback.alerts_per_case.unwrap_or(0.0));
            for t in feedback.typologies {
                if let Some(precision) = t.precision {
                    g.set(AML_PRECISION, &[("environment", environment.as_str()), ("typology", &t.typology)], precision);
                }
            }
        }
        g.set(WEBHOOK_PENDING, &[], figures.pending_deliveries as f64);
        let lag = figures.earliest_due_delivery.map_or(0, |due| now.saturating_sub(due).max(0));
        g.set(WEBHOOK_LAG, &[], lag as f64);
        Ok(())
    }

    /// Sets the gauges ([`Gateway::gauges`]) in the host's recorder (the
    /// native host's Prometheus recorder). `Err` when the store did not answer.
    pub async fn record_gauges(&self) -> ApiResult<()> {
        let (gauges, outcome) = self.gauges().await;
        for gauge in gauges {
            let labels: Vec<metrics::Label> = gauge.labels.into_iter().map(|(k, v)| metrics::Label::new(k, v)).collect();
            metrics::gauge!(gauge.name, labels).set(gauge.value);
        }
        outcome
    }
}

/// The Prometheus text exposition (version 0.0.4) of `gauges`: what a host
/// without a recorder (the edge: no memory shared between requests) serves.
pub fn render_gauges(gauges: &[GaugeValue]) -> String {
    use std::fmt::Write;
    let mut text = String::new();
    for (name, help) in GAUGES {
        let mut of_name = gauges.iter().filter(|g| g.name == *name).peekable();
        if of_name.peek().is_none() {
            continue;
        }
        let _ = writeln!(text, "# HELP {name} {help}\n# TYPE {name} gauge");
        for gauge in of_name {
            text.push_str(name);
            if !gauge.labels.is_empty() {
                let labels: Vec<String> = gauge.labels.iter().map(|(k, v)| format!("{k}=\"{}\"", escape_label(v))).collect();
                let _ = write!(text, "{{{}}}", labels.join(","));
            }
            let _ = writeln!(text, " {}", sample(gauge.value));
        }
    }
    text
}

/// A label value as the text format writes it: backslash, quote and newline escaped.
fn escape_label(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n")
}

fn sample(value: f64) -> String {
    if value.is_nan() {
        "NaN".into()
    } else if value.is_infinite() {
        if value > 0.0 { "+Inf" } else { "-Inf" }.into()
    } else {
        value.to_string()
    }
}

/// Who may read `GET /metrics`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetricsAccess {
    /// an admin key of either environment (the API's listener)
    AdminKey,
    /// anyone who reaches it (a listener of its own, such as `--metrics-listen`)
    Open,
}

/// What a metrics page shows.
enum Exposition<R> {
    /// the host's recorder, its gauges refreshed first
    Recorder(R),
    /// the store-derived gauges alone, rendered here
    Gauges,
}

impl Gateway {
    /// `GET /metrics`: the gauges refreshed, then `render`'s Prometheus text.
    /// A store that does not answer still gets its text (with `cgw_store_up` 0).
    pub async fn metrics_page(
        &self,
        request: &http::Request<Vec<u8>>,
        access: MetricsAccess,
        render: impl FnOnce() -> String,
    ) -> http::Response<Vec<u8>> {
        self.metrics_answer(request, access, Exposition::Recorder(render)).await
    }

    /// `GET /metrics` of a host without a recorder (the edge): the same
    /// access as the native host's API listener (an admin key of either
    /// environment) and the store-derived gauges, so one Prometheus watches
    /// both hosts. Request histograms stay the native host's.
    pub async fn gauges_page(&self, request: &http::Request<Vec<u8>>) -> http::Response<Vec<u8>> {
        self.metrics_answer(request, MetricsAccess::AdminKey, Exposition::<fn() -> String>::Gauges).await
    }

    async fn metrics_answer<R: FnOnce() -> String>(
        &self,
        request: &http::Request<Vec<u8>>,
        access: MetricsAccess,
        exposition: Exposition<R>,
    ) -> http::Response<Vec<u8>> {
        let request_id = self.new_id("req");
        let refused = |error: crate::error::ApiError| {
            let mut response = error.into_response(&request_id);
            response.extensions_mut().insert(RequestFacts { route: Some("/metrics"), ..RequestFacts::default() });
            response
        };
        if request.method() != http::Method::GET {
            let mut error = crate::error::ApiError::new(405, "method_not_allowed", "GET /metrics only");
            error.allow = Some("GET".into());
            return refused(error);
        }
        if access == MetricsAccess::AdminKey {
            match self.authenticate(request.headers(), &request_id, None).await {
                Ok(caller) if caller.is_admin && caller.person.is_none() => {}
                Ok(_) => return refused(crate::error::ApiError::new(403, "forbidden", "metrics need an admin key")),
                Err(error) => return refused(error),
            }
        }
        let text = match exposition {
            Exposition::Recorder(render) => {
                let _ = self.record_gauges().await;
                render()
            }
            Exposition::Gauges => render_gauges(&self.gauges().await.0),
        };
        let mut response = http::Response::new(text.into_bytes());
        response.headers_mut().insert(http::header::CONTENT_TYPE, http::HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"));
        if let Ok(value) = http::HeaderValue::from_str(&request_id) {
            response.headers_mut().insert("x-request-id", value);
        }
        response.extensions_mut().insert(RequestFacts { route: Some("/metrics"), ..RequestFacts::default() });
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The edge's `/metrics` text: each gauge with its HELP and TYPE lines,
    /// label values escaped (a quote, a backslash and a newline cannot end
    /// the value or the line). Twin: a gauge with no sample is left out.
    #[test]
    fn gauges_render_in_the_text_format_with_escaped_labels() {
        let gauges = vec![
            GaugeValue { name: QUEUE_ITEMS, labels: vec![("environment", "sandbox".into()), ("queue", "aml".into())], value: 3.0 },
            GaugeValue { name: LIST_LAST_REFRESH, labels: vec![("source", "a\"b\\c\nd".into())], value: 1.5 },
            GaugeValue { name: STORE_UP, labels: Vec::new(), value: 1.0 },
        ];
        let text = render_gauges(&gauges);
        assert!(text.contains("# TYPE cgw_review_queue_items gauge\ncgw_review_queue_items{environment=\"sandbox\",queue=\"aml\"} 3\n"), "{text}");
        assert!(text.contains(r#"cgw_list_last_refresh_timestamp_seconds{source="a\"b\\c\nd"} 1.5"#), "{text}");
        assert!(text.contains("\ncgw_store_up 1\n"), "{text}");
        assert_eq!(text.lines().filter(|l| !l.starts_with('#')).count(), 3, "{text}");
        assert!(!text.contains(WEBHOOK_PENDING), "{text}");
    }

    fn ensure_read(op: &str, field: &str, facts: Option<CheckFacts>) {
        assert_eq!(facts.map(|f| f.outcome.to_string()).as_deref(), Some("some_name"), "{op}'s field {field} is not read");
    }

    #[test]
    fn check_outcomes_come_from_a_closed_set() {
        let facts = |op, status, body: serde_json::Value| check_facts(op, status, Some(&body.to_string())).map(|f| f.outcome.to_string());
        let some = |s: &str| Some(s.to_string());
        assert_eq!(facts("checkDeposit", 200, json!({ "allowed": false })), some("rejected"));
        assert_eq!(facts("checkExclusion", 200, json!({ "is_excluded": true })), some("excluded"));
        assert_eq!(facts("screenUser", 201, json!({ "status": "clear" })), some("clear"));
        assert_eq!(facts("screenUser", 201, json!({ "status": "u-12345@example.com" })), some("other"));
        // the field among others, nested ones too, and escaped
        assert_eq!(
            facts("screenUser", 201, json!({ "screen_id": "s_1", "cases": [{ "status": "open" }], "status": "hit_review_pending" })),
            some("hit_review_pending")
        );
        assert_eq!(check_facts("screenUser", 201, Some(r#"{"status":"cl\u0065ar"}"#)).map(|f| f.outcome.to_string()), some("clear"));
        // the field missing or of another shape: answered, never a guess
        assert_eq!(facts("checkDeposit", 200, json!({ "allowed": 1 })), some("answered"));
        assert_eq!(facts("checkExclusion", 200, json!({ "status": "excluded" })), some("answered"));
        assert_eq!(facts("reportAmlEvent", 503, json!({})), some("unavailable"));
        assert_eq!(facts("commitDeposit", 404, json!({})), some("client_error"));
        // every check's outcome field is one the answer's text is read for
        for (op, field) in CHECKS {
            ensure_read(op, field, check_facts(op, 200, Some(&json!({ *field: "some_name" }).to_string())));
        }
        // not a check: nothing recorded
        assert_eq!(facts("listWebhooks", 200, json!({})), None);
    }
}
