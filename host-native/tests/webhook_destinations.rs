//! Production webhooks go to public addresses only, checked at registration
//! and again before every attempt. The resolver is injected and the sender
//! records instead of connecting, so nothing is ever sent anywhere.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod support;
use support::call;

use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use gateway::auth::Environment;
use gateway::ports::{Resolver, SendOutcome, WebhookSender};
use gateway::{Config, Gateway};
use host_native::{open_store, OsIds, SystemClock};
use rules_library::LibraryRules;
use serde_json::{json, Value as Json};

#[derive(Clone, Default)]
struct Answers(Arc<Mutex<Vec<IpAddr>>>);

impl Answers {
    fn set(&self, ip: &str) {
        *self.0.lock().unwrap() = vec![ip.parse().unwrap()];
    }
}

#[async_trait::async_trait]
impl Resolver for Answers {
    async fn resolve(&self, _host: &str, _port: u16) -> Vec<IpAddr> {
        self.0.lock().unwrap().clone()
    }
}

#[derive(Clone, Default)]
struct Recorder(Arc<Mutex<Vec<String>>>);

#[async_trait::async_trait]
impl WebhookSender for Recorder {
    async fn post(&self, url: &str, _headers: &[(String, String)], _body: &[u8]) -> SendOutcome {
        self.0.lock().unwrap().push(url.to_string());
        SendOutcome::Answered { status: 200, retry_after: None }
    }
}

struct NoWake;
impl gateway::ports::Waker for NoWake {
    fn wake(&self) {}
}

#[tokio::test]
async fn a_host_that_turns_private_after_registration_gets_nothing() {
    let answers = Answers::default();
    let sent = Recorder::default();
    let gateway = Gateway::new(
        open_store("sqlite://:memory:").await.unwrap(),
        Box::new(LibraryRules),
        Box::new(SystemClock),
        Box::new(OsIds),
        Config::default(),
    )
    .with_webhooks(Box::new(sent.clone()), Box::new(NoWake))
    .with_resolver(Box::new(answers.clone()));
    gateway.migrate().await.unwrap();
    let admin = gateway.create_admin_key(Environment::Production).await.unwrap();
    let (_, tenant) = call(&gateway, &admin, "POST", "/v1/admin/tenants", json!({ "name": "p", "environment": "production" })).await;
    let key = tenant["api_key"].as_str().unwrap().to_string();

    // Registration: a name resolving to a metadata or private address is refused, a public one accepted.
    for private in ["169.254.169.254", "10.0.0.5", "127.0.0.1"] {
        answers.set(private);
        let (status, body) = call(&gateway, &key, "POST", "/v1/webhooks", json!({ "url": "https://hooks.example.com/cgw" })).await;
        assert_eq!((status, body["error"].as_str()), (400, Some("invalid_url")), "{private}: {body}");
    }
    answers.set("93.184.216.34");
    let (status, _) = call(&gateway, &key, "POST", "/v1/webhooks", json!({ "url": "https://hooks.example.com/cgw" })).await;
    assert_eq!(status, 201);

    // While the name stays public, events are sent.
    let import = |email: &str| json!({ "entries": [{ "email": email }] });
    let (status, _) = call(&gateway, &admin, "POST", "/v1/admin/exclusions/regulator-import", import("first@example.com")).await;
    assert_eq!(status, 200);
    gateway.deliver_webhooks().await.unwrap();
    let before = sent.0.lock().unwrap().len();
    assert!(before >= 1, "nothing was sent to a public address");

    // The name now answers the metadata address: nothing more is sent, and the log says why.
    answers.set("169.254.169.254");
    let (status, _) = call(&gateway, &admin, "POST", "/v1/admin/exclusions/regulator-import", import("second@example.com")).await;
    assert_eq!(status, 200);
    gateway.deliver_webhooks().await.unwrap();
    assert_eq!(sent.0.lock().unwrap().len(), before, "an attempt went to a non-public address");
    let (_, hooks) = call(&gateway, &key, "GET", "/v1/webhooks", Json::Null).await;
    let webhook_id = hooks["webhooks"][0]["webhook_id"].as_str().unwrap().to_string();
    let (_, log) = call(&gateway, &key, "GET", &format!("/v1/webhooks/{webhook_id}/deliveries"), Json::Null).await;
    assert!(log.to_string().contains("not a public address"), "{log}");
}
