//! Secrets at rest (webhook signing secrets, console TOTP secrets: [`SealedKind`]), sealed with AES-256-GCM under a host key
//! (the database alone never reveals a secret). A sealed value names the key
//! that sealed it, so keys rotate: the host lists its previous keys beside
//! the current one, values sealed by either open, and
//! `compliance-gateway secrets reseal` seals every value anew under the
//! current key. The webhook id is the associated data: a sealed secret
//! cannot be moved to another endpoint.

use aes_gcm::aead::{Aead, KeyInit, Payload};
use aes_gcm::{Aes256Gcm, Nonce};
use base64::Engine as _;
use sha2::{Digest, Sha256};

const PREFIX: &str = "sealed:v1:";
const NONCE_LEN: usize = 12;

/// The host's keys: the one that seals, and those that may still open.
#[derive(Clone)]
pub struct SecretKeys {
    current: ([u8; 32], String),
    previous: Vec<([u8; 32], String)>,
}

impl std::fmt::Debug for SecretKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The keys themselves never reach a log.
        f.debug_struct("SecretKeys").field("current", &self.current.1).field("previous", &self.previous.len()).finish()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SealError {
    #[error("sealed by key {0}, which this host does not have")]
    UnknownKey(String),
    #[error("the sealed value is damaged or was moved")]
    Damaged,
}

impl SealError {
    /// A value this host cannot open, as a request meets it: 503 `sealing_key_missing` when the key
    /// that sealed it is not configured here (another host, or a reseal before the key is dropped,
    /// serves it), 500 for a damaged value.
    pub fn into_api_error(self) -> crate::error::ApiError {
        match self {
            SealError::UnknownKey(_) => crate::error::ApiError::new(
                503,
                "sealing_key_missing",
                "this host does not hold the key that sealed a secret this request needs; run `compliance-gateway secrets reseal` before dropping a key",
            ),
            SealError::Damaged => crate::error::ApiError::internal().with_detail("a sealed secret is damaged".into()),
        }
    }
}

/// A kind of value sealed at rest under the host key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SealedKind {
    /// webhook signing secrets, current and previous (`webhooks`)
    WebhookSecrets,
    /// console accounts' TOTP secrets (`console_accounts`)
    TotpSecrets,
    /// the national registers' credentials of each tenant (`register_settings`)
    RegisterCredentials,
    /// the identities the registers' nightly batch asks with (`register_players`)
    RegisterIdentities,
}

impl SealedKind {
    pub const ALL: [SealedKind; 4] =
        [SealedKind::WebhookSecrets, SealedKind::TotpSecrets, SealedKind::RegisterCredentials, SealedKind::RegisterIdentities];

    pub fn as_str(self) -> &'static str {
        match self {
            SealedKind::WebhookSecrets => "webhook_secrets",
            SealedKind::TotpSecrets => "totp_secrets",
            SealedKind::RegisterCredentials => "register_credentials",
            SealedKind::RegisterIdentities => "register_identities",
        }
    }
}

/// What a reseal changed: each kind with its count of values sealed anew.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resealed(pub Vec<(SealedKind, usize)>);

impl Resealed {
    pub fn count(&self, kind: SealedKind) -> usize {
        self.0.iter().find(|(k, _)| *k == kind).map_or(0, |(_, n)| *n)
    }
}

impl std::fmt::Display for Resealed {
    /// `webhook_secrets 2, totp_secrets 1`: every kind, named, with its count.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = self.0.iter().map(|(kind, n)| format!("{} {n}", kind.as_str())).collect();
        f.write_str(&parts.join(", "))
    }
}

/// The short name of a key: the start of its SHA-256, never the key.
pub fn key_id(key: &[u8; 32]) -> String {
    hex::encode(&Sha256::digest(key)[..4])
}

/// A key given as base64 (32 bytes).
pub fn parse_key(text: &str) -> Option<[u8; 32]> {
    let bytes = base64::engine::general_purpose::STANDARD.decode(text.trim()).ok()?;
    bytes.try_into().ok()
}

/// Why a host's settings give it no key to seal with.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeySettingError {
    #[error("{0} is not set: webhook signing and TOTP secrets are never stored unsealed (make a key with `head -c 32 /dev/urandom | base64`)")]
    Missing(&'static str),
    #[error("{0} is not 32 bytes of base64")]
    Malformed(&'static str),
}

impl KeySettingError {
    /// What every request of a host without a key answers: 503 `secret_key_missing`.
    pub fn into_api_error(self) -> crate::error::ApiError {
        crate::error::ApiError::new(503, "secret_key_missing", "the gateway has no key to seal secrets with; retry later")
            .with_detail(self.to_string())
    }
}

/// The keys a host seals with, from its settings: the current key, which
/// is required (a host never stores a secret unsealed, in production or in
/// the sandbox), and the previous keys, comma-separated, that still open
/// what they sealed. `names` are the settings' names, for the error.
pub fn keys_from_settings(current: Option<&str>, previous: Option<&str>, names: (&'static str, &'static str)) -> Result<SecretKeys, KeySettingError> {
    let current = current.map(str::trim).filter(|k| !k.is_empty()).ok_or(KeySettingError::Missing(names.0))?;
    let current = parse_key(current).ok_or(KeySettingError::Malformed(names.0))?;
    let previous = previous
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|k| !k.is_empty())
        .map(|k| parse_key(k).ok_or(KeySettingError::Malformed(names.1)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(SecretKeys::new(current, previous))
}

impl SecretKeys {
    pub fn new(current: [u8; 32], previous: Vec<[u8; 32]>) -> Self {
        SecretKeys { current: (current, key_id(&current)), previous: previous.into_iter().map(|k| (k, key_id(&k))).collect() }
    }

    pub fn current_id(&self) -> &str {
        &self.current.1
    }

    /// Seals `secret` for `webhook_id` under the current key with a fresh nonce.
    pub fn seal(&self, secret: &str, webhook_id: &str, nonce: &[u8]) -> String {
        let mut nonce_bytes = [0u8; NONCE_LEN];
        for (slot, byte) in nonce_bytes.iter_mut().zip(nonce) {
            *slot = *byte;
        }
        let cipher = Aes256Gcm::new((&self.current.0).into());
        // Encryption with a valid key and nonce cannot fail for inputs this small.
        let sealed =
            cipher.encrypt(Nonce::from_slice(&nonce_bytes), Payload { msg: secret.as_bytes(), aad: webhook_id.as_bytes() }).unwrap_or_default();
        let mut blob = nonce_bytes.to_vec();
        blob.extend(sealed);
        format!("{PREFIX}{}:{}", self.current.1, base64::engine::general_purpose::STANDARD_NO_PAD.encode(blob))
    }

    /// Opens a stored value; a value stored before sealing (no prefix) is returned as it is.
    pub fn open(&self, stored: &str, webhook_id: &str) -> Result<String, SealError> {
        let Some(rest) = stored.strip_prefix(PREFIX) else { return Ok(stored.to_string()) };
        let (id, blob) = rest.split_once(':').ok_or(SealError::Damaged)?;
        let key =
            std::iter::once(&self.current).chain(&self.previous).find(|(_, kid)| kid == id).ok_or_else(|| SealError::UnknownKey(id.to_string()))?;
        let blob = base64::engine::general_purpose::STANDARD_NO_PAD.decode(blob).map_err(|_| SealError::Damaged)?;
        if blob.len() <= NONCE_LEN {
            return Err(SealError::Damaged);
        }
        let (nonce, sealed) = blob.split_at(NONCE_LEN);
        let cipher = Aes256Gcm::new((&key.0).into());
        let plain = cipher.decrypt(Nonce::from_slice(nonce), Payload { msg: sealed, aad: webhook_id.as_bytes() }).map_err(|_| SealError::Damaged)?;
        String::from_utf8(plain).map_err(|_| SealError::Damaged)
    }

    /// The ids of every key this host opens with, space-separated: what a
    /// delivery claim matches a sealed secret's key id against.
    pub fn ids(&self) -> String {
        std::iter::once(&self.current).chain(&self.previous).map(|(_, id)| id.as_str()).collect::<Vec<_>>().join(" ")
    }

    /// Whether a stored value is sealed under the current key.
    pub fn is_current(&self, stored: &str) -> bool {
        stored.strip_prefix(PREFIX).and_then(|r| r.split_once(':')).is_some_and(|(id, _)| id == self.current.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A delivery claim reads the key id at this place of a stored value (SQL `substr(secret, 11, 8)`).
    #[test]
    fn the_key_id_stands_at_characters_11_to_18() {
        let keys = SecretKeys::new([3u8; 32], vec![[4u8; 32]]);
        let sealed = keys.seal("whsec_x", "wh_1", &[0u8; 12]);
        assert_eq!(sealed.get(10..18), Some(key_id(&[3u8; 32]).as_str()));
        assert_eq!(keys.ids(), format!("{} {}", key_id(&[3u8; 32]), key_id(&[4u8; 32])));
    }

    #[test]
    fn a_sealed_secret_opens_only_with_its_key_and_for_its_webhook() {
        let keys = SecretKeys::new([7; 32], vec![]);
        let sealed = keys.seal("whsec_abc", "wh_1", &[1; 12]);
        assert!(!sealed.contains("whsec_abc") && sealed.starts_with("sealed:v1:"));
        assert_eq!(keys.open(&sealed, "wh_1").unwrap(), "whsec_abc");
        assert_eq!(keys.open(&sealed, "wh_2"), Err(SealError::Damaged), "moved to another webhook");
        let other = SecretKeys::new([8; 32], vec![]);
        assert!(matches!(other.open(&sealed, "wh_1"), Err(SealError::UnknownKey(_))));
        let mut tampered = sealed.clone();
        tampered.pop();
        tampered.push(if sealed.ends_with('A') { 'B' } else { 'A' });
        assert_eq!(keys.open(&tampered, "wh_1"), Err(SealError::Damaged));
    }

    /// A host without a key refuses to run rather than store secrets
    /// unsealed (the edge stored them in clear without `CGW_SECRET_KEY`); a
    /// key that does not read is refused too, never taken as none.
    #[test]
    fn a_host_seals_with_a_key_from_its_settings_or_does_not_run() {
        use base64::Engine as _;
        let names = ("CGW_SECRET_KEY", "CGW_PREVIOUS_SECRET_KEYS");
        let key = |b: u8| base64::engine::general_purpose::STANDARD.encode([b; 32]);
        for missing in [None, Some(""), Some("  ")] {
            assert_eq!(keys_from_settings(missing, None, names).unwrap_err(), KeySettingError::Missing("CGW_SECRET_KEY"));
        }
        assert_eq!(keys_from_settings(Some("short"), None, names).unwrap_err(), KeySettingError::Malformed("CGW_SECRET_KEY"));
        let bad_previous = format!("{},nope", key(2));
        assert_eq!(
            keys_from_settings(Some(&key(1)), Some(&bad_previous), names).unwrap_err(),
            KeySettingError::Malformed("CGW_PREVIOUS_SECRET_KEYS")
        );
        let refused = KeySettingError::Missing("CGW_SECRET_KEY").into_api_error();
        assert_eq!((refused.status, refused.code), (503, "secret_key_missing"));
        // the twin: a key seals, and the previous keys still open
        let keys = keys_from_settings(Some(&key(1)), Some(&format!(" {} ,", key(2))), names).unwrap();
        assert_eq!(keys.ids(), format!("{} {}", key_id(&[1; 32]), key_id(&[2; 32])));
        let sealed = SecretKeys::new([2; 32], vec![]).seal("whsec_x", "wh_1", &[5; 12]);
        assert_eq!(keys.open(&sealed, "wh_1").unwrap(), "whsec_x");
    }

    #[test]
    fn a_rotated_key_still_opens_what_it_sealed() {
        let old = SecretKeys::new([7; 32], vec![]);
        let sealed = old.seal("whsec_abc", "wh_1", &[2; 12]);
        let rotated = SecretKeys::new([9; 32], vec![[7; 32]]);
        assert_eq!(rotated.open(&sealed, "wh_1").unwrap(), "whsec_abc");
        assert!(!rotated.is_current(&sealed));
        assert!(rotated.is_current(&rotated.seal("whsec_abc", "wh_1", &[3; 12])));
        assert_eq!(rotated.open("whsec_plain", "wh_1").unwrap(), "whsec_plain", "a value stored before sealing");
    }
}
