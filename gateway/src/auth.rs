//! API keys: format, hashing, constant-time verification.

use base64::Engine as _;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

pub const SANDBOX_PREFIX: &str = "cgw_sk_test_";
pub const PRODUCTION_PREFIX: &str = "cgw_sk_live_";
const PREFIX_LEN: usize = 12;
const SECRET_LEN: usize = 32;
/// How much of a key the audit log keeps: the prefix and four characters.
const AUDIT_PREFIX_LEN: usize = 16;

pub use rules::Environment;

/// The key prefix of an environment.
pub fn key_prefix(environment: Environment) -> &'static str {
    match environment {
        Environment::Sandbox => SANDBOX_PREFIX,
        Environment::Production => PRODUCTION_PREFIX,
    }
}

/// A new key from 24 random bytes: prefix plus 32 URL-safe base64 characters.
pub fn new_key(environment: Environment, random: &[u8]) -> String {
    let secret = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(random);
    format!("{}{}", key_prefix(environment), secret)
}

/// The environment of a well-formed key, or `None` when it is malformed.
pub fn parse_key(key: &str) -> Option<Environment> {
    if key.len() != PREFIX_LEN + SECRET_LEN || !key.is_ascii() {
        return None;
    }
    let (prefix, secret) = key.split_at(PREFIX_LEN);
    let environment = match prefix {
        SANDBOX_PREFIX => Environment::Sandbox,
        PRODUCTION_PREFIX => Environment::Production,
        _ => return None,
    };
    secret.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_').then_some(environment)
}

/// A person's session token: its own prefixes, the shape of a key.
pub const SANDBOX_SESSION_PREFIX: &str = "cgw_ps_test_";
pub const PRODUCTION_SESSION_PREFIX: &str = "cgw_ps_live_";

/// A new session token from 24 random bytes.
pub fn new_session_token(environment: Environment, random: &[u8]) -> String {
    let prefix = match environment {
        Environment::Sandbox => SANDBOX_SESSION_PREFIX,
        Environment::Production => PRODUCTION_SESSION_PREFIX,
    };
    format!("{prefix}{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(random))
}

/// The environment of a well-formed session token, or `None`.
pub fn parse_session_token(token: &str) -> Option<Environment> {
    if token.len() != PREFIX_LEN + SECRET_LEN || !token.is_ascii() {
        return None;
    }
    let (prefix, secret) = token.split_at(PREFIX_LEN);
    let environment = match prefix {
        SANDBOX_SESSION_PREFIX => Environment::Sandbox,
        PRODUCTION_SESSION_PREFIX => Environment::Production,
        _ => return None,
    };
    secret.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_').then_some(environment)
}

pub fn hash_key(key: &str) -> String {
    hex::encode(Sha256::digest(key.as_bytes()))
}

/// Compares two hashes without leaking where they differ.
pub fn hashes_match(a: &str, b: &str) -> bool {
    a.as_bytes().ct_eq(b.as_bytes()).into()
}

/// The part of a presented credential that may be recorded.
pub fn audit_prefix(key: &str) -> String {
    key.chars().take(AUDIT_PREFIX_LEN).collect()
}

/// Production callers by key hash, each kept for the clock second it was
/// read in, so that a key is read from the store at most once a second per
/// host. Revoking a key or suspending a tenant clears it on the host that
/// does it at once, and reaches every other host within a second, when its
/// entry lapses: nothing needs telling. Sandbox callers are not kept: their
/// tenant's test clock must move on every host the moment it is advanced.
/// Only successes are kept, so a refused key is read every time.
#[derive(Default)]
pub(crate) struct KeyCache {
    entries: std::sync::Mutex<std::collections::HashMap<String, (crate::Caller, i64)>>,
}

/// Entries kept at most; past it, lapsed ones go, then all.
const KEY_CACHE_MAX: usize = 10_000;

impl KeyCache {
    pub(crate) fn get(&self, key_hash: &str, now: i64) -> Option<crate::Caller> {
        let entries = self.entries.lock().ok()?;
        entries.get(key_hash).filter(|(_, second)| *second == now).map(|(caller, _)| caller.clone())
    }

    pub(crate) fn put(&self, key_hash: String, caller: &crate::Caller, now: i64) {
        if caller.environment != Environment::Production {
            return;
        }
        if let Ok(mut entries) = self.entries.lock() {
            if entries.len() >= KEY_CACHE_MAX {
                entries.retain(|_, (_, second)| *second == now);
                if entries.len() >= KEY_CACHE_MAX {
                    entries.clear();
                }
            }
            entries.insert(key_hash, (caller.clone(), now));
        }
    }

    pub(crate) fn clear(&self) {
        if let Ok(mut entries) = self.entries.lock() {
            entries.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_keys_parse_back_to_their_environment() {
        let k = new_key(Environment::Sandbox, &[7u8; 24]);
        assert_eq!(k.len(), 44);
        assert_eq!(parse_key(&k), Some(Environment::Sandbox));
        let p = new_key(Environment::Production, &[255u8; 24]);
        assert_eq!(parse_key(&p), Some(Environment::Production));
    }

    #[test]
    fn malformed_keys_are_rejected() {
        assert_eq!(parse_key("cgw_sk_test_short"), None);
        assert_eq!(parse_key(&format!("cgw_sk_prod_{}", "a".repeat(32))), None);
        assert_eq!(parse_key(&format!("cgw_sk_test_{}", "a+".repeat(16))), None);
        assert_eq!(parse_key(&format!("cgw_sk_test_{}", "é".repeat(16))), None);
    }

    #[test]
    fn session_tokens_are_not_keys_and_keys_are_not_session_tokens() {
        let token = new_session_token(Environment::Production, &[9u8; 24]);
        assert_eq!(parse_session_token(&token), Some(Environment::Production));
        assert_eq!(parse_key(&token), None);
        let key = new_key(Environment::Production, &[9u8; 24]);
        assert_eq!(parse_session_token(&key), None);
    }

    #[test]
    fn hash_comparison() {
        let h = hash_key("x");
        assert!(hashes_match(&h, &hash_key("x")));
        assert!(!hashes_match(&h, &hash_key("y")));
        assert!(!hashes_match(&h, ""));
    }
}
