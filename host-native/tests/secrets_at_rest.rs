//! Webhook signing secrets are sealed at rest: the database alone never
//! reveals one, deliveries are still signed with it, and a key rotation
//! (reseal under the new key, the old one listed as previous) keeps them.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod support;
use support::call;

use std::sync::{Arc, Mutex};

use gateway::auth::Environment;
use gateway::ports::{LibraryRules, SendOutcome, WebhookSender};
use gateway::sealing::{key_id, SecretKeys};
use gateway::{Config, Gateway};
use host_native::{open_store, OsIds, SystemClock};
use serde_json::json;

/// A delivery as sent: its headers and body.
type Sent = (Vec<(String, String)>, Vec<u8>);

#[derive(Clone, Default)]
struct Recorder(Arc<Mutex<Vec<Sent>>>);

#[async_trait::async_trait]
impl WebhookSender for Recorder {
    async fn post(&self, _url: &str, headers: &[(String, String)], body: &[u8]) -> SendOutcome {
        self.0.lock().unwrap().push((headers.to_vec(), body.to_vec()));
        SendOutcome::Answered { status: 200, retry_after: None }
    }
}

struct NoWake;
impl gateway::ports::Waker for NoWake {
    fn wake(&self) {}
}

async fn gateway_with(url: &str, keys: SecretKeys, sent: &Recorder) -> Gateway {
    let config = Config { secret_keys: Some(keys), ..Config::default() };
    let gateway = Gateway::new(open_store(url).await.unwrap(), Box::new(LibraryRules), Box::new(SystemClock), Box::new(OsIds), config)
        .with_webhooks(Box::new(sent.clone()), Box::new(NoWake));
    gateway.migrate().await.unwrap();
    gateway
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> &'a str {
    headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str()).unwrap_or_default()
}

/// Whether the last delivery is signed with `secret`.
fn signed_with(sent: &Recorder, secret: &str) -> bool {
    let all = sent.0.lock().unwrap();
    let (headers, body) = all.last().unwrap();
    let timestamp: i64 = header(headers, "webhook-timestamp").parse().unwrap();
    let expected = gateway::signing::headers(&[secret], header(headers, "webhook-id"), timestamp, body);
    header(&expected, "webhook-signature") == header(headers, "webhook-signature")
}

#[tokio::test]
async fn secrets_are_sealed_at_rest_and_survive_a_key_rotation() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("g.db").display());
    let (old_key, new_key) = ([11u8; 32], [22u8; 32]);
    let sent = Recorder::default();
    let gateway = gateway_with(&url, SecretKeys::new(old_key, vec![]), &sent).await;
    let admin = gateway.create_admin_key(Environment::Sandbox).await.unwrap();
    let (_, tenant) = call(&gateway, &admin, "POST", "/v1/admin/tenants", json!({ "name": "t", "environment": "sandbox" })).await;
    let key = tenant["api_key"].as_str().unwrap().to_string();
    let (status, hook) = call(&gateway, &key, "POST", "/v1/webhooks", json!({ "url": "http://127.0.0.1:9/hooks" })).await;
    assert_eq!(status, 201);
    let secret = hook["secret"].as_str().unwrap().to_string();

    // The database alone does not reveal it.
    let store = open_store(&url).await.unwrap();
    let stored = store.query("SELECT secret FROM webhooks", vec![]).await.unwrap()[0].text(0).unwrap();
    assert!(stored.starts_with("sealed:v1:") && !stored.contains(&secret) && stored.contains(&key_id(&old_key)), "{stored}");
    let raw = std::fs::read(dir.path().join("g.db")).unwrap();
    assert!(!raw.windows(secret.len()).any(|w| w == secret.as_bytes()), "the secret is in the database file");

    // Deliveries are signed with it.
    call(&gateway, &admin, "POST", "/v1/admin/exclusions/regulator-import", json!({ "entries": [{ "email": "one@example.com" }] })).await;
    gateway.deliver_webhooks().await.unwrap();
    assert!(signed_with(&sent, &secret));

    // Rotation: reseal under the new key with the old one listed as previous.
    let rotated = gateway_with(&url, SecretKeys::new(new_key, vec![old_key]), &sent).await;
    assert_eq!(rotated.reseal_secrets().await.unwrap().count(gateway::sealing::SealedKind::WebhookSecrets), 1);
    let stored = store.query("SELECT secret FROM webhooks", vec![]).await.unwrap()[0].text(0).unwrap();
    assert!(stored.contains(&key_id(&new_key)), "{stored}");
    // The new key alone now signs as before.
    let after = gateway_with(&url, SecretKeys::new(new_key, vec![]), &sent).await;
    call(&after, &admin, "POST", "/v1/admin/exclusions/regulator-import", json!({ "entries": [{ "email": "two@example.com" }] })).await;
    after.deliver_webhooks().await.unwrap();
    assert!(signed_with(&sent, &secret));
    // The old key alone no longer opens it: nothing is sent unsigned or mis-signed.
    let before = sent.0.lock().unwrap().len();
    let stale = gateway_with(&url, SecretKeys::new(old_key, vec![]), &sent).await;
    call(&stale, &admin, "POST", "/v1/admin/exclusions/regulator-import", json!({ "entries": [{ "email": "three@example.com" }] })).await;
    stale.deliver_webhooks().await.unwrap();
    assert_eq!(sent.0.lock().unwrap().len(), before, "a delivery went out without its secret");
}
