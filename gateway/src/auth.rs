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

pub use rules_model::Environment;

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

/// A clock in milliseconds (unix), for the key cache's refresh-ahead. A host
/// that gives one ([`crate::Gateway::with_key_refresh_ahead`]) and re-reads
/// the keys due after its answers ([`crate::Gateway::refresh_keys`]) never
/// makes a caller in steady use wait for its key's read.
pub trait MillisClock: crate::ports::MaybeSend {
    fn now_ms(&self) -> i64;
}

/// How long a kept key may answer, from the moment its read was issued: a
/// revocation or a suspension is seen by every host within it.
pub const KEY_HARD_LIMIT_MS: i64 = 1_000;
/// From this age on, a kept key still answers but is re-read after the
/// answer (refresh-ahead), so that steady traffic never waits for its read.
pub const KEY_REFRESH_AHEAD_MS: i64 = 500;

/// Production callers by key hash, each stamped with the time its read was
/// issued and used for at most [`KEY_HARD_LIMIT_MS`] from then, so that a key
/// is read from the store about once a second per host. Revoking a key or
/// suspending a tenant clears the cache on the host that does it at once
/// (a read issued before the clearing is not kept), and reaches every other
/// host within a second, when its entry lapses: nothing needs telling.
/// With a millisecond clock, an entry older than [`KEY_REFRESH_AHEAD_MS`]
/// still answers and is marked due; the host re-reads the due keys after its
/// answer, and a re-read that finds the key revoked, unknown or its tenant
/// suspended drops it. A re-read that fails or never runs changes nothing:
/// the entry still lapses at its hard limit. Without a millisecond clock the
/// clock's seconds are used and an entry serves the second it was read in.
/// Sandbox callers are not kept: their tenant's test clock must move on
/// every host the moment it is advanced. Only successes are kept, so a
/// refused key is read every time.
#[derive(Default)]
pub(crate) struct KeyCache {
    state: std::sync::Mutex<CacheState>,
    /// bumped by every clearing: a read issued before it is not kept
    generation: std::sync::atomic::AtomicU64,
    pub(crate) millis: Option<Box<dyn MillisClock>>,
}

#[derive(Default)]
struct CacheState {
    entries: std::collections::HashMap<String, Kept>,
    /// keys marked for a re-read after the answer
    due: Vec<String>,
}

struct Kept {
    caller: crate::Caller,
    /// when the read this entry holds was issued (unix ms)
    read_at_ms: i64,
    /// marked due, its re-read not yet done
    due: bool,
}

/// Entries kept at most; past it, lapsed ones go, then all.
const KEY_CACHE_MAX: usize = 10_000;

/// A read of the key cache's clock and generation, taken before a store
/// read is issued: what that read may be kept as.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ReadIssued {
    at_ms: i64,
    generation: u64,
}

impl KeyCache {
    /// Now, in ms: the millisecond clock when there is one, else the clock's second.
    pub(crate) fn now_ms(&self, clock_seconds: i64) -> i64 {
        match &self.millis {
            Some(clock) => clock.now_ms(),
            None => clock_seconds.saturating_mul(1_000),
        }
    }

    /// Taken right before a key read is issued.
    pub(crate) fn issue(&self, now_ms: i64) -> ReadIssued {
        ReadIssued { at_ms: now_ms, generation: self.generation.load(std::sync::atomic::Ordering::SeqCst) }
    }

    /// The kept caller while its read is younger than the hard limit; from
    /// the refresh-ahead age on, the key is marked due (once).
    pub(crate) fn get(&self, key_hash: &str, now_ms: i64) -> Option<crate::Caller> {
        let mut state = self.state.lock().ok()?;
        let CacheState { entries, due } = &mut *state;
        let kept = entries.get_mut(key_hash)?;
        let age = now_ms - kept.read_at_ms;
        if !(0..KEY_HARD_LIMIT_MS).contains(&age) {
            return None;
        }
        if age >= KEY_REFRESH_AHEAD_MS && !kept.due {
            kept.due = true;
            due.push(key_hash.to_string());
        }
        Some(kept.caller.clone())
    }

    /// Keeps a production caller read by the read `issued`, unless the
    /// cache was cleared since that read was issued, or a younger read is kept.
    pub(crate) fn put(&self, key_hash: String, caller: &crate::Caller, issued: ReadIssued) {
        if caller.environment != Environment::Production {
            return;
        }
        let Ok(mut state) = self.state.lock() else { return };
        // under the lock: a clearing either precedes this check or follows the insert
        if self.generation.load(std::sync::atomic::Ordering::SeqCst) != issued.generation {
            return;
        }
        let entries = &mut state.entries;
        if entries.get(&key_hash).is_some_and(|kept| kept.read_at_ms > issued.at_ms) {
            return;
        }
        if entries.len() >= KEY_CACHE_MAX {
            entries.retain(|_, kept| issued.at_ms - kept.read_at_ms < KEY_HARD_LIMIT_MS);
            if entries.len() >= KEY_CACHE_MAX {
                entries.clear();
            }
        }
        entries.insert(key_hash, Kept { caller: caller.clone(), read_at_ms: issued.at_ms, due: false });
    }

    /// Drops a key a re-read found refused (revoked, unknown, suspended).
    pub(crate) fn forget(&self, key_hash: &str) {
        if let Ok(mut state) = self.state.lock() {
            state.entries.remove(key_hash);
        }
    }

    /// A due key whose re-read failed: due again at its next use.
    pub(crate) fn undue(&self, key_hash: &str) {
        if let Ok(mut state) = self.state.lock() {
            if let Some(kept) = state.entries.get_mut(key_hash) {
                kept.due = false;
            }
        }
    }

    /// The keys marked due since the last call (those still kept and due).
    pub(crate) fn take_due(&self) -> Vec<String> {
        let Ok(mut state) = self.state.lock() else { return Vec::new() };
        let mut due = std::mem::take(&mut state.due);
        due.retain(|hash| state.entries.get(hash).is_some_and(|kept| kept.due));
        due
    }

    /// How many keys are marked due.
    pub(crate) fn due_count(&self) -> usize {
        self.state.lock().map(|state| state.due.len()).unwrap_or(0)
    }

    pub(crate) fn clear(&self) {
        if let Ok(mut state) = self.state.lock() {
            self.generation.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            state.entries.clear();
            state.due.clear();
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

    fn caller(environment: Environment) -> crate::Caller {
        crate::Caller {
            tenant_id: "ten_1".into(),
            environment,
            is_admin: false,
            key_id: "key_1".into(),
            rate_limit_per_minute: 1_000,
            clock_offset_seconds: 0,
            jurisdiction: "GB".into(),
            person: None,
        }
    }

    /// A kept key answers until a second after its read was issued; from
    /// half a second on it is marked due once; a re-read re-stamps it.
    #[test]
    fn a_kept_key_is_refreshed_ahead_and_never_used_past_its_hard_limit() {
        let cache = KeyCache::default();
        cache.put("h".into(), &caller(Environment::Production), cache.issue(10_000));
        assert!(cache.get("h", 10_499).is_some());
        assert_eq!(cache.due_count(), 0, "due before the refresh-ahead age");
        assert!(cache.get("h", 10_500).is_some());
        assert!(cache.get("h", 10_700).is_some());
        assert_eq!(cache.take_due(), vec!["h".to_string()], "marked due once");
        assert!(cache.get("h", 10_999).is_some());
        // twin: at the hard limit the entry is gone, refreshed or not
        assert!(cache.get("h", 11_000).is_none());
        assert!(cache.get("h", 9_999).is_none(), "a clock gone back trusts nothing");
        // a re-read issued at 10.6 s keeps it until 11.6 s
        cache.put("h".into(), &caller(Environment::Production), cache.issue(10_600));
        assert!(cache.get("h", 11_599).is_some());
        assert!(cache.get("h", 11_600).is_none());
        // an older read never replaces a younger one
        cache.put("h".into(), &caller(Environment::Production), cache.issue(10_100));
        assert!(cache.get("h", 11_100).is_some() && cache.get("h", 11_600).is_none());
    }

    /// A read issued before a clearing (a revocation on this host) is not
    /// kept when it comes back; its twin, issued after, is.
    #[test]
    fn a_read_issued_before_a_clearing_is_not_kept() {
        let cache = KeyCache::default();
        let before = cache.issue(5_000);
        cache.clear();
        cache.put("h".into(), &caller(Environment::Production), before);
        assert!(cache.get("h", 5_001).is_none());
        cache.put("h".into(), &caller(Environment::Production), cache.issue(5_000));
        assert!(cache.get("h", 5_001).is_some());
        // sandbox callers are never kept
        cache.put("s".into(), &caller(Environment::Sandbox), cache.issue(5_000));
        assert!(cache.get("s", 5_001).is_none());
    }

    #[test]
    fn hash_comparison() {
        let h = hash_key("x");
        assert!(hashes_match(&h, &hash_key("x")));
        assert!(!hashes_match(&h, &hash_key("y")));
        assert!(!hashes_match(&h, ""));
    }
}
