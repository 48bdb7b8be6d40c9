//! A webhook receiver on loopback for the cases, verifying signatures with
//! the Standard Webhooks reference library rather than the project's signer.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value as Json;

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
            if let (false, Ok(mut log)) = (retired, log.lock()) {
                log.push(Received { headers, body, json, answered });
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
