//! The small ports on Workers: the clock, random ids, webhook POSTs and the
//! waker that says an event was committed during the request.

use std::cell::Cell;
use std::rc::Rc;

use futures_util::future::{select, Either};
use gateway::ports::{Clock, Ids, SendOutcome, VendorHttp, VendorRequest, VendorResponse, Waker, WebhookSender};
use wasm_bindgen::prelude::*;
use worker::{Delay, Fetch, Headers, Method, Request, RequestInit, RequestRedirect};

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(catch, js_namespace = crypto, js_name = getRandomValues)]
    fn get_random_values(buffer: &mut [u8]) -> Result<JsValue, JsValue>;
}

pub struct WorkerClock;

impl Clock for WorkerClock {
    fn now(&self) -> i64 {
        (js_sys::Date::now() / 1000.0).floor() as i64
    }
}

/// The key cache's refresh-ahead clock (a Worker's clock moves at I/O, which
/// is when a key is read or used).
impl gateway::auth::MillisClock for WorkerClock {
    fn now_ms(&self) -> i64 {
        js_sys::Date::now().floor() as i64
    }
}

/// The Workers runtime's timer (`setTimeout`), for readiness's one-second bound.
pub struct WorkerTimer;

#[async_trait::async_trait(?Send)]
impl gateway::ports::Timer for WorkerTimer {
    async fn sleep_ms(&self, milliseconds: u64) {
        Delay::from(std::time::Duration::from_millis(milliseconds)).await;
    }

    fn now_ms(&self) -> i64 {
        js_sys::Date::now() as i64
    }
}

/// Waits `milliseconds` on the Workers runtime's timer.
pub async fn sleep_ms(milliseconds: u64) {
    Delay::from(std::time::Duration::from_millis(milliseconds)).await;
}

pub struct WorkerIds;

impl Ids for WorkerIds {
    fn random_bytes(&self, len: usize) -> Vec<u8> {
        let mut bytes = vec![0u8; len];
        // crypto.getRandomValues does not fail for requests under 64 KiB;
        // should it, an id of zeros is refused by the store's unique keys
        // rather than silently reused.
        if let Err(e) = get_random_values(&mut bytes) {
            worker::console_error!("crypto.getRandomValues failed: {}", crate::rules_js::js_message(&e));
        }
        bytes
    }
}

/// How long a webhook endpoint has to answer.
const SEND_TIMEOUT_MS: u64 = 10_000;

/// Webhook POSTs through the Workers fetch API; redirects are not followed.
pub struct FetchSender;

#[async_trait::async_trait(?Send)]
impl WebhookSender for FetchSender {
    async fn post(&self, url: &str, headers: &[(String, String)], body: &[u8]) -> SendOutcome {
        let request = match build_request(Method::Post, url, headers, body) {
            Ok(request) => request,
            Err(e) => return SendOutcome::Failed(format!("invalid request: {e}")),
        };
        let fetch = Fetch::Request(request);
        let send = Box::pin(fetch.send());
        let timeout = Box::pin(Delay::from(std::time::Duration::from_millis(SEND_TIMEOUT_MS)));
        let outcome = match select(send, timeout).await {
            Either::Left((Ok(response), _)) => {
                SendOutcome::Answered { status: response.status_code(), retry_after: response.headers().get("retry-after").ok().flatten() }
            }
            Either::Left((Err(_), _)) => SendOutcome::Failed("connection failed".to_string()),
            Either::Right(_) => SendOutcome::Failed("timed out".to_string()),
        };
        outcome
    }
}

fn build_request(method: Method, url: &str, headers: &[(String, String)], body: &[u8]) -> worker::Result<Request> {
    let request_headers = Headers::new();
    for (name, value) in headers {
        request_headers.set(name, value)?;
    }
    let mut init = RequestInit::new();
    init.with_method(method).with_headers(request_headers).with_redirect(RequestRedirect::Manual);
    if !body.is_empty() {
        init.with_body(Some(js_sys::Uint8Array::from(body).into()));
    }
    Request::new_with_init(url, &init)
}

/// Vendor requests through the Workers fetch API: ten seconds, no redirects.
pub struct FetchVendor;

#[async_trait::async_trait(?Send)]
impl VendorHttp for FetchVendor {
    async fn send(&self, request: VendorRequest) -> Result<VendorResponse, String> {
        // Workers present a client certificate only through an mTLS binding fixed at deploy time, not one per tenant
        if request.client_identity.is_some() && request.url.starts_with("https://") {
            return Err("this host cannot present a tenant's client certificate (mutual TLS needs the native host)".to_string());
        }
        let method = Method::from(request.method.to_string());
        let built = build_request(method, &request.url, &request.headers, &request.body).map_err(|e| format!("invalid request: {e}"))?;
        let exchange = async move {
            let mut response = Fetch::Request(built).send().await?;
            let headers: Vec<(String, String)> = response.headers().entries().map(|(name, value)| (name.to_ascii_lowercase(), value)).collect();
            // a vendor's answer is small: one that announces more is not read (the budget bounds one that does not say)
            let announced = headers.iter().find(|(n, _)| n == "content-length").and_then(|(_, v)| v.parse::<u64>().ok());
            if announced.is_some_and(|n| n > MAX_VENDOR_ANSWER_BYTES) {
                return Err(worker::Error::RustError(format!("the answer is larger than {MAX_VENDOR_ANSWER_BYTES} bytes")));
            }
            let body = response.bytes().await?;
            Ok::<_, worker::Error>(VendorResponse { status: response.status_code(), headers, body })
        };
        let timeout = Box::pin(Delay::from(std::time::Duration::from_millis(SEND_TIMEOUT_MS)));
        match select(Box::pin(exchange), timeout).await {
            Either::Left((Ok(response), _)) => Ok(response),
            Either::Left((Err(e), _)) => Err(format!("request failed: {e}")),
            Either::Right(_) => Err("timed out".to_string()),
        }
    }

    async fn download(&self, url: &str, max_bytes: u64) -> Result<Vec<u8>, String> {
        let mut init = RequestInit::new();
        init.with_method(Method::Get).with_redirect(RequestRedirect::Follow);
        let request = Request::new_with_init(url, &init).map_err(|e| format!("invalid request: {e}"))?;
        let exchange = async move {
            let mut response = Fetch::Request(request).send().await?;
            let expected = response.headers().get("content-length")?.and_then(|n| n.parse::<u64>().ok());
            if response.status_code() != 200 {
                return Ok(Err(format!("answered {}", response.status_code())));
            }
            if expected.is_some_and(|n| n > max_bytes) {
                return Ok(Err(format!("larger than {max_bytes} bytes")));
            }
            let body = response.bytes().await?;
            Ok::<_, worker::Error>(match expected {
                _ if body.len() as u64 > max_bytes => Err(format!("larger than {max_bytes} bytes")),
                Some(n) if n != body.len() as u64 => Err(format!("{} of {n} bytes arrived", body.len())),
                _ => Ok(body),
            })
        };
        let timeout = Box::pin(Delay::from(std::time::Duration::from_millis(DOWNLOAD_TIMEOUT_MS)));
        match select(Box::pin(exchange), timeout).await {
            Either::Left((Ok(outcome), _)) => outcome,
            Either::Left((Err(e), _)) => Err(format!("request failed: {e}")),
            Either::Right(_) => Err("timed out".to_string()),
        }
    }
}

/// The largest answer a vendor or a register call may announce.
const MAX_VENDOR_ANSWER_BYTES: u64 = 4 << 20;

/// How long a list download may take.
const DOWNLOAD_TIMEOUT_MS: u64 = 120_000;

/// Remembers that events were committed, so that a delivery round runs
/// after the response.
#[derive(Clone, Default)]
pub struct FlagWaker(pub Rc<Cell<bool>>);

impl Waker for FlagWaker {
    fn wake(&self) {
        self.0.set(true);
    }
}
