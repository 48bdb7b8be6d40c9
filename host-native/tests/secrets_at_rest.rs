//! Webhook signing secrets are sealed at rest: the database alone never
//! reveals one, deliveries are still signed with it, and a key rotation
//! (reseal under the new key, the old one listed as previous) keeps them.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod support;
use support::call;

use std::sync::{Arc, Mutex};

use gateway::auth::Environment;
use gateway::ports::{SendOutcome, WebhookSender};
use gateway::sealing::{key_id, SecretKeys};
use gateway::{Config, Gateway};
use host_native::{open_store, OsIds, SystemClock};
use rules_library::LibraryRules;
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

/// A GAMSTOP that records the key each check sends and answers `N`.
#[derive(Clone, Default)]
struct Gamstop(Arc<Mutex<Vec<String>>>);

#[async_trait::async_trait]
impl gateway::ports::VendorHttp for Gamstop {
    async fn send(&self, request: gateway::ports::VendorRequest) -> Result<gateway::ports::VendorResponse, String> {
        self.0.lock().unwrap().push(header(&request.headers, "x-api-key").to_string());
        let headers = vec![("x-exclusion".to_string(), "N".to_string()), ("x-unique-id".to_string(), "u-1".to_string())];
        Ok(gateway::ports::VendorResponse { status: 200, headers, body: Vec::new() })
    }
    async fn download(&self, _url: &str, _max_bytes: u64) -> Result<Vec<u8>, String> {
        Err("no downloads here".into())
    }
}

async fn gateway_calling(url: &str, keys: SecretKeys, register: &Gamstop) -> Gateway {
    gateway_with(url, keys, &Recorder::default()).await.with_vendor_http(Box::new(register.clone()))
}

/// Issue #47: a national register's credentials are sealed like webhook
/// secrets, resealed by the rotation, and still sent once the old key is
/// dropped; the twin: a host holding only the old key answers 503
/// `sealing_key_missing`, and nothing reaches the register.
#[tokio::test]
async fn register_credentials_are_sealed_at_rest_and_survive_a_key_rotation() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("g.db").display());
    let (old_key, new_key) = ([11u8; 32], [22u8; 32]);
    let register = Gamstop::default();
    let gateway = gateway_calling(&url, SecretKeys::new(old_key, vec![]), &register).await;
    let admin = gateway.create_admin_key(Environment::Sandbox).await.unwrap();
    let (_, tenant) = call(&gateway, &admin, "POST", "/v1/admin/tenants", json!({ "name": "t", "environment": "sandbox" })).await;
    let (tenant_id, key) = (tenant["tenant_id"].as_str().unwrap().to_string(), tenant["api_key"].as_str().unwrap().to_string());
    let api_key = "gamstop-key-7f3a91";
    let settings = json!({ "registers": [{ "register": "gamstop", "base_url": "http://127.0.0.1:9/v2", "credentials": { "api_key": api_key }, "purposes": ["login"] }] });
    let (status, set) = call(&gateway, &admin, "PUT", &format!("/v1/admin/tenants/{tenant_id}/registers"), settings).await;
    assert_eq!(status, 200, "{set}");
    assert!(!set.to_string().contains(api_key), "{set}");
    let store = open_store(&url).await.unwrap();
    let stored = store.query("SELECT credentials FROM register_settings", vec![]).await.unwrap()[0].text(0).unwrap();
    assert!(stored.starts_with("sealed:v1:") && !stored.contains(api_key) && stored.contains(&key_id(&old_key)), "{stored}");

    let check = json!({ "user_id": "u1", "purpose": "login", "identity": {
        "first_name": "Ann", "last_name": "Lee", "date_of_birth": "1990-01-01", "email": "ann@example.com", "postcode": "SW1A 1AA", "phone": "+447700900123" } });
    let rotated = gateway_calling(&url, SecretKeys::new(new_key, vec![old_key]), &register).await;
    let resealed = rotated.reseal_secrets().await.unwrap();
    assert_eq!(resealed.count(gateway::sealing::SealedKind::RegisterCredentials), 1, "{resealed}");
    let after = gateway_calling(&url, SecretKeys::new(new_key, vec![]), &register).await;
    let (status, answer) = call(&after, &key, "POST", "/v1/exclusions/check", check.clone()).await;
    assert_eq!((status, answer["registers"][1]["status"].as_str()), (200, Some("not_excluded")), "{answer}");
    assert_eq!(register.0.lock().unwrap().as_slice(), [api_key], "the register got its key after the rotation");
    // the identity the nightly batch asks with is kept sealed too, and resealed by the next rotation
    let kept = store.query("SELECT batch_identity FROM register_players", vec![]).await.unwrap()[0].text(0).unwrap();
    assert!(kept.starts_with("sealed:v1:") && !kept.contains("ann@example.com") && !kept.contains("Lee"), "{kept}");
    let third = [33u8; 32];
    let resealed = gateway_calling(&url, SecretKeys::new(third, vec![new_key]), &register).await.reseal_secrets().await.unwrap();
    assert_eq!(resealed.count(gateway::sealing::SealedKind::RegisterIdentities), 1, "{resealed}");
    let kept = store.query("SELECT batch_identity FROM register_players", vec![]).await.unwrap()[0].text(0).unwrap();
    assert!(kept.contains(&key_id(&third)), "{kept}");

    let stale = gateway_calling(&url, SecretKeys::new(old_key, vec![]), &register).await;
    let (status, answer) = call(&stale, &key, "POST", "/v1/exclusions/check", check).await;
    assert_eq!((status, answer["error"].as_str()), (503, Some("sealing_key_missing")), "{answer}");
    assert_eq!(register.0.lock().unwrap().len(), 1, "a call went out without its credentials");
}
