//! A webhook receiver on loopback for the cases, verifying signatures with
//! the Standard Webhooks reference library rather than the project's signer.
//! Every event it receives is checked against the schema the OpenAPI
//! document's `webhooks` section gives its kind: a case that waits on a
//! receiver fails on an event that does not match, and the run's
//! [`schema_report`] fails if any event of the run did not.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value as Json};

/// The committed OpenAPI document, whose `webhooks` section documents every event.
const DOCUMENT: &str = include_str!("../../gateway/openapi.json");

/// Every event received in this run: its name, and whether it matched its documented schema.
static CHECKED: Mutex<Vec<(String, Result<(), String>)>> = Mutex::new(Vec::new());

/// Checks one delivery's body against the documented schema of its kind:
/// the `webhooks` entry's request body, its `$ref`s resolved in the document.
pub fn check_event(event: &Json) -> Result<(), String> {
    static VALIDATORS: std::sync::OnceLock<Result<std::collections::HashMap<String, jsonschema::Validator>, String>> = std::sync::OnceLock::new();
    let validators = VALIDATORS.get_or_init(|| {
        let document: Json = serde_json::from_str(DOCUMENT).map_err(|e| format!("the OpenAPI document is not JSON: {e}"))?;
        let webhooks = document["webhooks"].as_object().ok_or("the OpenAPI document has no webhooks section")?;
        let mut validators = std::collections::HashMap::new();
        for name in webhooks.keys() {
            // the document itself is the schema, so that `#/components/...` resolves; its `$ref` picks the kind's body
            let mut schema = document.clone();
            let pointer = format!("#/webhooks/{}/post/requestBody/content/application~1json/schema", name.replace('~', "~0").replace('/', "~1"));
            schema["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
            schema["$ref"] = json!(pointer);
            let validator = jsonschema::validator_for(&schema).map_err(|e| format!("the schema of {name} does not compile: {e}"))?;
            validators.insert(name.clone(), validator);
        }
        Ok(validators)
    });
    let validators = validators.as_ref().map_err(Clone::clone)?;
    let name = event["event"].as_str().ok_or("the delivery has no event name")?;
    let validator = validators.get(name).ok_or_else(|| format!("{name} is not documented in the webhooks section"))?;
    let errors: Vec<String> = validator.iter_errors(event).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    match errors.is_empty() {
        true => Ok(()),
        false => Err(format!("{name} does not match its documented schema: {}; body {event}", errors.join("; "))),
    }
}

/// Whether every event the run received matched its documented schema, and which kinds it saw.
pub fn schema_report() -> Result<String, String> {
    let checked = CHECKED.lock().map(|c| c.clone()).unwrap_or_default();
    if let Some((_, Err(why))) = checked.iter().find(|(_, r)| r.is_err()) {
        return Err(why.clone());
    }
    if checked.is_empty() {
        return Err("the run received no event".into());
    }
    let kinds: std::collections::BTreeSet<&str> = checked.iter().map(|(n, _)| n.as_str()).collect();
    Ok(format!("{} events of {} kinds matched: {}", checked.len(), kinds.len(), kinds.into_iter().collect::<Vec<_>>().join(", ")))
}

/// How the receiver answers.
#[derive(Debug, Clone, Copy)]
pub enum Behaviour {
    Accept,
    /// 503 with `Retry-After: 1` this many times for each event, then 200.
    FailFirst(u32),
    /// 410 Gone, always.
    Gone,
    /// 302 Found to another path, always.
    Redirect,
}

#[derive(Debug, Clone)]
pub struct Received {
    pub headers: http::HeaderMap,
    pub body: Vec<u8>,
    pub json: Json,
    pub answered: u16,
    /// whether the body matched its kind's documented schema
    pub schema: Result<(), String>,
}

impl Received {
    pub fn event(&self) -> &str {
        self.json["event"].as_str().unwrap_or("")
    }
    pub fn header(&self, name: &str) -> &str {
        self.headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("")
    }
    /// Verifies the signature with the reference implementation.
    pub fn verify(&self, secret: &str) -> Result<(), String> {
        let hook = standardwebhooks::Webhook::new(secret).map_err(|e| format!("bad secret: {e:?}"))?;
        hook.verify(&self.body, &self.headers).map_err(|e| format!("signature did not verify: {e:?}"))
    }
}

/// A receiver for one case. Dropped, it retires rather than stops: it
/// answers every later delivery 410 Gone, so the gateway disables the
/// endpoint. A stopped server would leave the gateway's kept-alive
/// connections open and unanswered, and each later delivery to it would
/// hang until its time limit, holding up the sends queued behind it.
pub struct Receiver {
    pub url: String,
    received: Arc<Mutex<Vec<Received>>>,
    retired: Arc<AtomicBool>,
}

impl Receiver {
    pub fn start(behaviour: Behaviour) -> Result<Receiver, String> {
        let server = tiny_http::Server::http("127.0.0.1:0").map_err(|e| e.to_string())?;
        let port = server.server_addr().to_ip().map(|a| a.port()).ok_or("no port")?;
        let received = Arc::new(Mutex::new(Vec::new()));
        let retired = Arc::new(AtomicBool::new(false));
        let mut failures: std::collections::HashMap<String, u32> = std::collections::HashMap::new();
        let (log, retiring) = (received.clone(), retired.clone());
        std::thread::spawn(move || loop {
            let retired = retiring.load(Ordering::Relaxed);
            let next = if retired { server.recv().map(Some) } else { server.recv_timeout(Duration::from_millis(50)) };
            let mut request = match next {
                Ok(Some(request)) => request,
                Ok(None) => continue,
                Err(_) => break,
            };
            let mut body = Vec::new();
            let _ = std::io::Read::read_to_end(request.as_reader(), &mut body);
            let mut headers = http::HeaderMap::new();
            for h in request.headers() {
                if let (Ok(name), Ok(value)) =
                    (http::HeaderName::from_bytes(h.field.as_str().as_bytes()), http::HeaderValue::from_str(h.value.as_str()))
                {
                    headers.append(name, value);
                }
            }
            let answered = match behaviour {
                _ if retired => 410,
                Behaviour::Accept => 200,
                Behaviour::Gone => 410,
                Behaviour::Redirect => 302,
                Behaviour::FailFirst(n) => {
                    let id = headers.get("webhook-id").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
                    let seen = failures.entry(id).or_insert(0);
                    *seen += 1;
                    if *seen <= n {
                        503
                    } else {
                        200
                    }
                }
            };
            let json = serde_json::from_slice(&body).unwrap_or(Json::Null);
            let schema = check_event(&json);
            if let Ok(mut checked) = CHECKED.lock() {
                checked.push((json["event"].as_str().unwrap_or("").to_string(), schema.clone()));
            }
            if let (false, Ok(mut log)) = (retired, log.lock()) {
                log.push(Received { headers, body, json, answered, schema });
            }
            let mut response = tiny_http::Response::from_string("{}").with_status_code(answered);
            if answered == 302 {
                if let Ok(h) = tiny_http::Header::from_bytes("Location", "/elsewhere") {
                    response = response.with_header(h);
                }
            }
            if answered == 503 {
                if let Ok(h) = tiny_http::Header::from_bytes("Retry-After", "1") {
                    response = response.with_header(h);
                }
            }
            let _ = request.respond(response);
        });
        Ok(Receiver { url: format!("http://127.0.0.1:{port}/hooks"), received, retired })
    }

    pub fn all(&self) -> Vec<Received> {
        self.received.lock().map(|r| r.clone()).unwrap_or_default()
    }

    /// Waits until `done` holds for what arrived, or fails after `timeout`.
    pub fn wait_until(&self, timeout: Duration, what: &str, done: impl Fn(&[Received]) -> bool) -> Result<Vec<Received>, String> {
        let deadline = Instant::now() + timeout;
        loop {
            let all = self.all();
            if let Some(Err(why)) = all.iter().map(|r| &r.schema).find(|s| s.is_err()) {
                return Err(why.clone());
            }
            if done(&all) {
                return Ok(all);
            }
            if Instant::now() > deadline {
                let events: Vec<&str> = all.iter().map(Received::event).collect();
                return Err(format!("timed out waiting for {what}; received {events:?}"));
            }
            std::thread::sleep(Duration::from_millis(25));
        }
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.retired.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limit_cancelled() -> Json {
        json!({
            "event": "limit.cancelled",
            "event_id": "evt_1",
            "timestamp": "2026-01-01T00:00:00Z",
            "data": { "limit_id": "lim_1", "user_id": "u1", "limit_type": "limit_daily", "amount_cents": 100, "currency": "USD" },
        })
    }

    #[test]
    fn a_documented_event_matches() {
        assert_eq!(check_event(&limit_cancelled()), Ok(()));
    }

    #[test]
    fn a_missing_field_an_extra_field_a_wrong_type_or_an_unknown_kind_does_not() {
        let mut missing = limit_cancelled();
        missing["data"].as_object_mut().map(|d| d.remove("currency"));
        assert!(check_event(&missing).is_err());
        let mut extra = limit_cancelled();
        extra["data"]["entity_name"] = json!("someone");
        assert!(check_event(&extra).is_err());
        let mut wrong = limit_cancelled();
        wrong["data"]["amount_cents"] = json!("100");
        assert!(check_event(&wrong).is_err());
        let mut bad_window = limit_cancelled();
        bad_window["data"]["limit_type"] = json!("hourly");
        assert!(check_event(&bad_window).is_err());
        let mut unknown = limit_cancelled();
        unknown["event"] = json!("limit.vanished");
        assert!(check_event(&unknown).is_err());
        let mut other_kind = limit_cancelled();
        other_kind["event"] = json!("limit.breach_attempt");
        assert!(check_event(&other_kind).is_err(), "a limit.cancelled body is not a breach");
    }
}
