//! Webhook signatures in the Standard Webhooks scheme: `webhook-id`,
//! `webhook-timestamp` and `webhook-signature: v1,<base64 HMAC-SHA256 of
//! "{id}.{timestamp}.{body}">`, with `whsec_`-prefixed base64 secrets.

use base64::Engine as _;
use hmac::{Hmac, Mac};
use sha2::Sha256;

pub const SECRET_PREFIX: &str = "whsec_";

/// A new signing secret from 32 random bytes.
pub fn new_secret(random: &[u8]) -> String {
    format!("{SECRET_PREFIX}{}", base64::engine::general_purpose::STANDARD.encode(random))
}

/// The `v1,…` signature of one message under one secret; `None` for a malformed secret.
pub fn sign(secret: &str, message_id: &str, timestamp: i64, body: &[u8]) -> Option<String> {
    let key = base64::engine::general_purpose::STANDARD.decode(secret.strip_prefix(SECRET_PREFIX)?).ok()?;
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).ok()?;
    mac.update(format!("{message_id}.{timestamp}.").as_bytes());
    mac.update(body);
    Some(format!("v1,{}", base64::engine::general_purpose::STANDARD.encode(mac.finalize().into_bytes())))
}

/// The headers of one delivery; during a rotation both secrets sign, space-separated.
pub fn headers(secrets: &[&str], message_id: &str, timestamp: i64, body: &[u8]) -> Vec<(String, String)> {
    let signatures: Vec<String> = secrets.iter().filter_map(|s| sign(s, message_id, timestamp, body)).collect();
    vec![
        ("content-type".to_string(), "application/json".to_string()),
        ("user-agent".to_string(), "compliance-gateway-webhooks/1".to_string()),
        ("webhook-id".to_string(), message_id.to_string()),
        ("webhook-timestamp".to_string(), timestamp.to_string()),
        ("webhook-signature".to_string(), signatures.join(" ")),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example from the Standard Webhooks specification.
    #[test]
    fn matches_the_specification_example() {
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
        let body = br#"{"test": 2432232314}"#;
        assert_eq!(
            sign(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body).as_deref(),
            Some("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        );
    }

    #[test]
    fn a_different_body_or_secret_changes_the_signature() {
        let a = sign("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "m", 1, b"x");
        assert_ne!(a, sign("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "m", 1, b"y"));
        assert_ne!(a, sign("whsec_AAAA9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "m", 1, b"x"));
        assert_eq!(sign("not-a-secret", "m", 1, b"x"), None);
    }

    #[test]
    fn rotation_signs_with_both_secrets() {
        let h = headers(&[&new_secret(&[1; 32]), &new_secret(&[2; 32])], "m", 1, b"{}");
        let sig = h.iter().find(|(k, _)| k == "webhook-signature").map(|(_, v)| v.clone()).unwrap_or_default();
        assert_eq!(sig.split(' ').count(), 2);
        assert!(sig.split(' ').all(|s| s.starts_with("v1,")));
    }
}
