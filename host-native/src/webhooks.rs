//! The native transport and timers for webhooks and scheduled work.

use std::sync::Arc;
use std::time::Duration;

use gateway::ports::{SendOutcome, Waker, WebhookSender};
use gateway::Gateway;
use tokio::sync::Notify;

/// Webhook POSTs over HTTP(S): no redirects followed, bounded time.
pub struct HttpSender {
    client: reqwest::Client,
}

impl HttpSender {
    pub fn new() -> Result<Self, String> {
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(Duration::from_secs(5))
            .timeout(Duration::from_secs(10))
            // A fresh connection per attempt: a receiver that half-closes an
            // idle keep-alive connection must not turn a retry into a timeout.
            .pool_max_idle_per_host(0)
            .build()
            .map_err(|e| format!("cannot build the webhook client: {e}"))?;
        Ok(HttpSender { client })
    }
}

#[async_trait::async_trait]
impl WebhookSender for HttpSender {
    async fn post(&self, url: &str, headers: &[(String, String)], body: &[u8]) -> SendOutcome {
        let span = tracing::debug_span!("webhook.attempt", otel.kind = "client", http.response.status_code = tracing::field::Empty);
        let headers = crate::otel::continue_outgoing(&span, headers);
        let mut request = self.client.post(url).body(body.to_vec());
        for (name, value) in &headers {
            request = request.header(name, value);
        }
        let sent = tracing::Instrument::instrument(request.send(), span.clone()).await;
        if let Ok(response) = &sent {
            span.record("http.response.status_code", response.status().as_u16());
        }
        match sent {
            Ok(response) => SendOutcome::Answered {
                status: response.status().as_u16(),
                retry_after: response.headers().get(reqwest::header::RETRY_AFTER).and_then(|v| v.to_str().ok()).map(str::to_string),
            },
            Err(e) => SendOutcome::Failed(if e.is_timeout() {
                "timed out".to_string()
            } else if e.is_connect() {
                "connection failed".to_string()
            } else {
                "request failed".to_string()
            }),
        }
    }
}

/// Wakes the delivery loop when events commit.
pub struct NotifyWaker(pub Arc<Notify>);

impl Waker for NotifyWaker {
    fn wake(&self) {
        self.0.notify_one();
    }
}

/// Delivers as soon as events commit, and at least every `tick` for
/// retries. Each attempt runs as its own task, so a slow endpoint delays
/// nobody else.
pub async fn delivery_loop(gateway: Arc<Gateway>, notify: Arc<Notify>, tick: Duration) {
    loop {
        match gateway.claim_due_deliveries().await {
            Ok((fanned_out, claimed)) => {
                let busy = fanned_out > 0 || !claimed.is_empty();
                for delivery in claimed {
                    let gateway = gateway.clone();
                    tokio::spawn(async move {
                        if let Err(e) = gateway.attempt_delivery(delivery).await {
                            tracing::error!(target: "webhooks", error = %e, "recording a webhook attempt failed");
                        }
                    });
                }
                if busy {
                    continue;
                }
            }
            Err(e) => tracing::error!(target: "webhooks", error = %e, "a webhook delivery round failed"),
        }
        tokio::select! {
            () = notify.notified() => {}
            () = tokio::time::sleep(tick) => {}
        }
    }
}

/// Runs the scheduled work every `tick`, and at once again while more is due.
pub async fn scheduler_loop(gateway: Arc<Gateway>, tick: Duration) {
    loop {
        match gateway.run_scheduled().await {
            Ok(report) if report.more_due => continue,
            Ok(_) => {}
            Err(e) => tracing::error!(target: "scheduler", error = %e, "scheduled work failed"),
        }
        tokio::time::sleep(tick).await;
    }
}

/// Writes the queued read-only decisions every `tick`.
pub async fn decision_log_loop(gateway: Arc<Gateway>, tick: Duration) {
    loop {
        tokio::time::sleep(tick).await;
        if let Err(e) = gateway.flush_decisions().await {
            tracing::error!(target: "decisions", error = %e, "writing the decision log failed (kept for the next try)");
        }
    }
}

/// The outbound client: vendor calls take ten seconds at most and follow no
/// redirects; list downloads follow up to five and take five minutes at most.
pub struct VendorClient {
    client: reqwest::Client,
    downloads: reqwest::Client,
    /// clients presenting a client certificate (mutual TLS), by the SHA-256 of certificate and key
    with_identity: std::sync::Mutex<std::collections::HashMap<[u8; 32], reqwest::Client>>,
    /// a certificate authority trusted beside the system's (tests only)
    root: Option<reqwest::Certificate>,
}

/// The largest answer a vendor or a register call may give.
const MAX_VENDOR_ANSWER_BYTES: usize = 4 << 20;

/// How many client certificates' clients are kept; past it the cache starts again.
const IDENTITY_CLIENTS: usize = 64;

impl VendorClient {
    pub fn new() -> Result<Self, String> {
        Self::build(None)
    }

    /// A client that also trusts `root_pem` (a test's own certificate authority).
    pub fn trusting(root_pem: &[u8]) -> Result<Self, String> {
        Self::build(Some(reqwest::Certificate::from_pem(root_pem).map_err(|e| format!("the root certificate cannot be read: {e}"))?))
    }

    fn vendor_builder(root: Option<&reqwest::Certificate>) -> reqwest::ClientBuilder {
        let builder = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(Duration::from_secs(3))
            .timeout(Duration::from_secs(10));
        match root {
            Some(root) => builder.add_root_certificate(root.clone()),
            None => builder,
        }
    }

    fn build(root: Option<reqwest::Certificate>) -> Result<Self, String> {
        let client = Self::vendor_builder(root.as_ref()).build().map_err(|e| format!("cannot build the vendor client: {e}"))?;
        let mut downloads = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::limited(5))
            .connect_timeout(Duration::from_secs(10))
            .timeout(Duration::from_secs(300));
        if let Some(root) = &root {
            downloads = downloads.add_root_certificate(root.clone());
        }
        let downloads = downloads.build().map_err(|e| format!("cannot build the list client: {e}"))?;
        Ok(VendorClient { client, downloads, with_identity: std::sync::Mutex::new(std::collections::HashMap::new()), root })
    }

    /// The client that presents `identity` over TLS, built once per certificate.
    fn presenting(&self, identity: &gateway::ports::ClientIdentity) -> Result<reqwest::Client, String> {
        use sha2::Digest;
        let pem = format!("{}\n{}", identity.certificate_pem.trim_end(), identity.key_pem.trim_end());
        let key: [u8; 32] = sha2::Sha256::digest(pem.as_bytes()).into();
        let mut clients = self.with_identity.lock().map_err(|_| "the client cache is poisoned".to_string())?;
        if let Some(client) = clients.get(&key) {
            return Ok(client.clone());
        }
        // the error never carries the key's text
        let identity = reqwest::Identity::from_pem(pem.as_bytes()).map_err(|_| "the client certificate or its key cannot be read".to_string())?;
        let client = Self::vendor_builder(self.root.as_ref())
            .identity(identity)
            .build()
            .map_err(|e| format!("cannot build a client presenting the certificate: {e}"))?;
        if clients.len() >= IDENTITY_CLIENTS {
            clients.clear();
        }
        clients.insert(key, client.clone());
        Ok(client)
    }
}

#[async_trait::async_trait]
impl gateway::ports::VendorHttp for VendorClient {
    async fn send(&self, request: gateway::ports::VendorRequest) -> Result<gateway::ports::VendorResponse, String> {
        let method = reqwest::Method::from_bytes(request.method.as_bytes()).map_err(|e| e.to_string())?;
        // a client certificate is presented over TLS; plain http (a sandbox stub on loopback) has none to present
        let client = match &request.client_identity {
            Some(identity) if request.url.starts_with("https://") => self.presenting(identity)?,
            _ => self.client.clone(),
        };
        let mut builder = client.request(method, &request.url).body(request.body);
        for (name, value) in &request.headers {
            builder = builder.header(name, value);
        }
        // The error without its URL, which may carry credentials.
        let response = builder.send().await.map_err(|e| e.without_url().to_string())?;
        let status = response.status().as_u16();
        let headers =
            response.headers().iter().filter_map(|(name, value)| Some((name.as_str().to_string(), value.to_str().ok()?.to_string()))).collect();
        // a vendor's answer is small: a body past the bound is refused as it arrives, never held whole
        let mut response = response;
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(|e| e.without_url().to_string())? {
            if body.len() + chunk.len() > MAX_VENDOR_ANSWER_BYTES {
                return Err(format!("the answer is larger than {MAX_VENDOR_ANSWER_BYTES} bytes"));
            }
            body.extend_from_slice(&chunk);
        }
        Ok(gateway::ports::VendorResponse { status, headers, body })
    }

    async fn download(&self, url: &str, max_bytes: u64) -> Result<Vec<u8>, String> {
        let response = self.downloads.get(url).send().await.map_err(|e| e.without_url().to_string())?;
        let status = response.status();
        if !status.is_success() {
            return Err(format!("answered {status}"));
        }
        let expected = response.content_length();
        if expected.is_some_and(|n| n > max_bytes) {
            return Err(format!("larger than {max_bytes} bytes"));
        }
        let bytes = response.bytes().await.map_err(|e| e.without_url().to_string())?;
        if bytes.len() as u64 > max_bytes {
            return Err(format!("larger than {max_bytes} bytes"));
        }
        if expected.is_some_and(|n| n != bytes.len() as u64) {
            return Err(format!("{} of {} bytes arrived", bytes.len(), expected.unwrap_or_default()));
        }
        Ok(bytes.to_vec())
    }
}
