//! The identity-verification adapter for Sumsub, from its public API
//! documentation: requests signed with the app token's secret
//! (`X-App-Access-Sig`: hex HMAC-SHA256 of timestamp, method, path with
//! query, and body), an applicant per check, a short-lived SDK access token
//! for the end user's flow, and status webhooks signed with the webhook
//! secret (`X-Payload-Digest`, hex HMAC of the raw body).

use hmac::{Hmac, Mac};
use rules_model::{KycAction, KycTier};
use serde_json::{json, Value as Json};
use sha2::{Sha256, Sha512};

use crate::ports::{VendorRequest, VendorResponse};

/// Where the Sumsub API is and the credentials of this service's account.
#[derive(Clone, PartialEq, Eq)]
pub struct SumsubConfig {
    /// `https://api.sumsub.com`
    pub base_url: String,
    pub app_token: String,
    pub secret_key: String,
    /// the secret Sumsub signs webhooks with
    pub webhook_secret: String,
    /// the verification level of each tier a check can ask for
    pub levels: TierLevels,
}

/// The Sumsub verification level of each tier a check can ask for
/// (`tier_1` … `tier_4`): each tier's level collects what that tier requires.
/// A tier without a level cannot be verified: its checks are refused at
/// their start (503 `tier_not_verifiable`), never verified at another tier's level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TierLevels(pub [Option<String>; 4]);

impl TierLevels {
    /// The levels a host is given: `spec` is comma-separated entries, each
    /// `tier_N=LEVEL` (that tier's level) or a bare `LEVEL`, the basic level
    /// of `tier_1` and `tier_2` (e-mail and phone, an ID and a selfie: what
    /// Sumsub's basic KYC level collects); `per_tier` (the per-tier settings)
    /// overrides both. `tier_3` and `tier_4` have a level only when one is named for them.
    pub fn configured(spec: &str, per_tier: [Option<String>; 4]) -> Result<Self, String> {
        let mut levels: [Option<String>; 4] = Default::default();
        let mut basic = None;
        for entry in spec.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            match entry.split_once('=') {
                None => basic = Some(entry.to_string()),
                Some((tier, level)) => {
                    let index = tier_index(tier.trim()).ok_or_else(|| format!("sumsub level {entry:?}: {tier:?} is not tier_1 to tier_4"))?;
                    let level = level.trim();
                    if level.is_empty() {
                        return Err(format!("sumsub level {entry:?} names no level"));
                    }
                    if let Some(slot) = levels.get_mut(index) {
                        *slot = Some(level.to_string());
                    }
                }
            }
        }
        for slot in levels.iter_mut().take(2).filter(|l| l.is_none()) {
            *slot = basic.clone();
        }
        for (slot, level) in levels.iter_mut().zip(per_tier) {
            if let Some(level) = level.map(|l| l.trim().to_string()).filter(|l| !l.is_empty()) {
                *slot = Some(level);
            }
        }
        Ok(TierLevels(levels))
    }

    /// The level a check for `tier` is verified at; none for a tier without one.
    pub fn level(&self, tier: KycTier) -> Option<&str> {
        let index = KycTier::ALL.iter().position(|t| *t == tier).unwrap_or(1).clamp(1, 4) - 1;
        self.0.get(index).and_then(Option::as_deref)
    }

    /// The highest tier verified at `level`; none for a level not configured.
    pub fn tier_of(&self, level: &str) -> Option<KycTier> {
        self.0.iter().rposition(|l| l.as_deref() == Some(level)).and_then(|i| KycTier::ALL.get(i + 1).copied())
    }
}

/// `tier_1` … `tier_4` as an index into [`TierLevels`].
fn tier_index(name: &str) -> Option<usize> {
    KycTier::ALL.iter().skip(1).position(|t| t.as_str() == name)
}

/// A check asks for a tier no level is configured for: it cannot be
/// verified, and no lower tier's level may stand in for it.
pub(crate) fn tier_not_verifiable(tier: KycTier) -> crate::error::ApiError {
    crate::error::ApiError::new(
        503,
        "tier_not_verifiable",
        format!("verification at {} is not configured on this service; the compliance team must name its Sumsub level", tier.as_str()),
    )
}

impl std::fmt::Debug for SumsubConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SumsubConfig").field("base_url", &self.base_url).field("levels", &self.levels).finish_non_exhaustive()
    }
}

/// What a webhook asks of a check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WebhookOutcome {
    /// the check (our `kyc_check_id`, Sumsub's `externalUserId`), the
    /// action, and the verification level the webhook names (`levelName`)
    Apply { kyc_check_id: String, action: KycAction, level: Option<String> },
    /// a notification this service does not act on, with its type
    Ignore(String),
}

impl SumsubConfig {
    fn signed(&self, method: &'static str, path_and_query: String, body: Vec<u8>, now: i64) -> VendorRequest {
        let timestamp = now.to_string();
        // HMAC takes a key of any length; were it refused, the empty
        // signature would be refused by Sumsub in turn.
        let signature = <Hmac<Sha256> as Mac>::new_from_slice(self.secret_key.as_bytes())
            .map(|mut mac| {
                mac.update(timestamp.as_bytes());
                mac.update(method.as_bytes());
                mac.update(path_and_query.as_bytes());
                mac.update(&body);
                hex::encode(mac.finalize().into_bytes())
            })
            .unwrap_or_default();
        VendorRequest {
            method,
            url: format!("{}{path_and_query}", self.base_url.trim_end_matches('/')),
            headers: vec![
                ("content-type".into(), "application/json".into()),
                ("accept".into(), "application/json".into()),
                ("x-app-token".into(), self.app_token.clone()),
                ("x-app-access-ts".into(), timestamp),
                ("x-app-access-sig".into(), signature),
            ],
            body,
            client_identity: None,
        }
    }

    /// `POST /resources/applicants?levelName=…` for the applicant of one check, at its tier's level.
    pub fn create_applicant(&self, kyc_check_id: &str, level: &str, now: i64) -> VendorRequest {
        let path = format!("/resources/applicants?levelName={}", encode(level));
        self.signed("POST", path, json!({ "externalUserId": kyc_check_id }).to_string().into_bytes(), now)
    }

    /// `POST /resources/accessTokens/sdk`: the token the end user's SDK flow starts with.
    pub fn access_token(&self, kyc_check_id: &str, level: &str, ttl_seconds: i64, now: i64) -> VendorRequest {
        let body = json!({ "userId": kyc_check_id, "levelName": level, "ttlInSecs": ttl_seconds });
        self.signed("POST", "/resources/accessTokens/sdk".into(), body.to_string().into_bytes(), now)
    }

    /// Whether a webhook's body carries the digest Sumsub computes with the
    /// webhook secret. SHA-256 and SHA-512 are accepted; SHA-1 is not.
    pub fn verify_webhook(&self, body: &[u8], digest: Option<&str>, algorithm: Option<&str>) -> bool {
        let Some(expected) = digest.and_then(|d| hex::decode(d.trim()).ok()) else { return false };
        let key = self.webhook_secret.as_bytes();
        match algorithm.unwrap_or("HMAC_SHA256_HEX") {
            "HMAC_SHA256_HEX" => <Hmac<Sha256> as Mac>::new_from_slice(key).is_ok_and(|mut m| {
                m.update(body);
                m.verify_slice(&expected).is_ok()
            }),
            "HMAC_SHA512_HEX" => <Hmac<Sha512> as Mac>::new_from_slice(key).is_ok_and(|mut m| {
                m.update(body);
                m.verify_slice(&expected).is_ok()
            }),
            _ => false,
        }
    }
}

/// Percent-encodes a query value (level names are letters, digits, `-` and `_` in practice).
fn encode(value: &str) -> String {
    value.bytes().map(|b| if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) { (b as char).to_string() } else { format!("%{b:02X}") }).collect()
}

fn json_of(response: &VendorResponse, what: &str) -> Result<Json, String> {
    if !(200..300).contains(&response.status) {
        return Err(format!("sumsub answered {} to {what}", response.status));
    }
    serde_json::from_slice(&response.body).map_err(|e| format!("sumsub's answer to {what} is not JSON: {e}"))
}

/// The applicant id of a created applicant.
pub fn applicant_id(response: &VendorResponse) -> Result<String, String> {
    json_of(response, "the applicant")?["id"].as_str().map(str::to_string).ok_or_else(|| "sumsub's applicant has no id".into())
}

/// The SDK access token.
pub fn token(response: &VendorResponse) -> Result<String, String> {
    json_of(response, "the access token")?["token"].as_str().map(str::to_string).ok_or_else(|| "sumsub's answer has no token".into())
}

/// What a verified webhook body means for a check. `applicantPending`:
/// documents submitted. `applicantReviewed`: GREEN approves; RED with
/// `reviewRejectType` FINAL rejects; RED RETRY asks the user to resubmit,
/// which the rules decide on. Other types are not acted on.
pub fn webhook_outcome(body: &[u8]) -> Result<WebhookOutcome, String> {
    let event: Json = serde_json::from_slice(body).map_err(|e| format!("the webhook body is not JSON: {e}"))?;
    let kind = event["type"].as_str().ok_or("the webhook has no type")?.to_string();
    let action = match kind.as_str() {
        "applicantPending" => Some(KycAction::VendorSubmit),
        "applicantReviewed" => match (event["reviewResult"]["reviewAnswer"].as_str(), event["reviewResult"]["reviewRejectType"].as_str()) {
            (Some("GREEN"), _) => Some(KycAction::VendorApprove),
            (Some("RED"), Some("RETRY")) => Some(KycAction::VendorRetry),
            (Some("RED"), _) => Some(KycAction::VendorReject),
            _ => return Err("applicantReviewed without a GREEN or RED reviewAnswer".into()),
        },
        _ => None,
    };
    match action {
        None => Ok(WebhookOutcome::Ignore(kind)),
        Some(action) => {
            let kyc_check_id = event["externalUserId"].as_str().ok_or("the webhook has no externalUserId")?.to_string();
            let level = event["levelName"].as_str().map(str::to_string);
            Ok(WebhookOutcome::Apply { kyc_check_id, action, level })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> SumsubConfig {
        SumsubConfig {
            base_url: "https://api.sumsub.com/".into(),
            app_token: "sbx:app".into(),
            secret_key: "s3cret".into(),
            webhook_secret: "whk".into(),
            levels: TierLevels(["basic kyc", "id-level", "address-level", "funds-level"].map(|l| Some(l.to_string()))),
        }
    }

    fn header<'a>(r: &'a VendorRequest, name: &str) -> &'a str {
        r.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str()).unwrap_or("")
    }

    #[test]
    fn requests_are_signed_over_timestamp_method_path_and_body() {
        let r = config().create_applicant("kyc_1", "basic kyc", 1_700_000_000);
        assert_eq!(r.url, "https://api.sumsub.com/resources/applicants?levelName=basic%20kyc");
        assert_eq!(header(&r, "x-app-access-ts"), "1700000000");
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(b"s3cret").unwrap();
        mac.update(b"1700000000POST/resources/applicants?levelName=basic%20kyc");
        mac.update(&r.body);
        assert_eq!(header(&r, "x-app-access-sig"), hex::encode(mac.finalize().into_bytes()));
        assert_eq!(serde_json::from_slice::<Json>(&r.body).unwrap()["externalUserId"], "kyc_1");
        let t = config().access_token("kyc_1", "basic kyc", 600, 1_700_000_000);
        assert_eq!(serde_json::from_slice::<Json>(&t.body).unwrap(), json!({ "userId": "kyc_1", "levelName": "basic kyc", "ttlInSecs": 600 }));
    }

    #[test]
    fn webhook_digests_verify_and_forgeries_do_not() {
        let body = br#"{"type":"applicantPending","externalUserId":"kyc_1"}"#;
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(b"whk").unwrap();
        mac.update(body);
        let digest = hex::encode(mac.finalize().into_bytes());
        assert!(config().verify_webhook(body, Some(&digest), Some("HMAC_SHA256_HEX")));
        assert!(config().verify_webhook(body, Some(&digest), None));
        assert!(!config().verify_webhook(b"{}", Some(&digest), None));
        assert!(!config().verify_webhook(body, Some(&digest), Some("HMAC_SHA1_HEX")));
        assert!(!config().verify_webhook(body, None, None));
        assert!(!config().verify_webhook(body, Some("zz"), None));
    }

    #[test]
    fn webhook_types_map_to_actions() {
        let outcome = |v: Json| webhook_outcome(v.to_string().as_bytes());
        let apply = |action| Ok(WebhookOutcome::Apply { kyc_check_id: "kyc_1".into(), action, level: None });
        assert_eq!(outcome(json!({ "type": "applicantPending", "externalUserId": "kyc_1" })), apply(KycAction::VendorSubmit));
        let reviewed = |answer: &str, kind: &str| {
            outcome(
                json!({ "type": "applicantReviewed", "externalUserId": "kyc_1", "reviewResult": { "reviewAnswer": answer, "reviewRejectType": kind } }),
            )
        };
        assert_eq!(reviewed("GREEN", ""), apply(KycAction::VendorApprove));
        assert_eq!(reviewed("RED", "FINAL"), apply(KycAction::VendorReject));
        assert_eq!(reviewed("RED", "RETRY"), apply(KycAction::VendorRetry));
        assert_eq!(outcome(json!({ "type": "applicantCreated" })), Ok(WebhookOutcome::Ignore("applicantCreated".into())));
        assert!(outcome(json!({ "type": "applicantPending" })).is_err());
        assert!(webhook_outcome(b"nope").is_err());
    }

    #[test]
    fn each_tier_has_its_level_and_a_webhook_names_its_own() {
        let c = config();
        assert_eq!(
            [KycTier::Tier0, KycTier::Tier1, KycTier::Tier2, KycTier::Tier3, KycTier::Tier4].map(|t| c.levels.level(t)),
            [Some("basic kyc"), Some("basic kyc"), Some("id-level"), Some("address-level"), Some("funds-level")]
        );
        let t = c.access_token("kyc_3", c.levels.level(KycTier::Tier3).unwrap(), 600, 1_700_000_000);
        assert_eq!(serde_json::from_slice::<Json>(&t.body).unwrap()["levelName"], "address-level");
        assert!(c.create_applicant("kyc_4", c.levels.level(KycTier::Tier4).unwrap(), 1_700_000_000).url.ends_with("levelName=funds-level"));
        assert_eq!(
            (c.levels.tier_of("id-level"), c.levels.tier_of("funds-level"), c.levels.tier_of("other")),
            (Some(KycTier::Tier2), Some(KycTier::Tier4), None)
        );
        let body =
            json!({ "type": "applicantReviewed", "externalUserId": "kyc_3", "levelName": "id-level", "reviewResult": { "reviewAnswer": "GREEN" } });
        assert_eq!(
            webhook_outcome(body.to_string().as_bytes()),
            Ok(WebhookOutcome::Apply { kyc_check_id: "kyc_3".into(), action: KycAction::VendorApprove, level: Some("id-level".into()) })
        );
    }

    /// One basic level verifies tier_1 and tier_2 only: its GREEN used to be
    /// the highest tier's (every tier took the one level), approving tier_3
    /// and tier_4 without their proof of address or source of funds.
    #[test]
    fn a_basic_level_is_no_higher_tiers_level() {
        let basic = TierLevels::configured("basic-kyc-level", Default::default()).unwrap();
        assert_eq!(basic.tier_of("basic-kyc-level"), Some(KycTier::Tier2));
        assert_eq!((basic.level(KycTier::Tier2), basic.level(KycTier::Tier3), basic.level(KycTier::Tier4)), (Some("basic-kyc-level"), None, None));
        // the twin: each tier named, in one setting or through the per-tier settings
        let named = TierLevels::configured("basic, tier_3=poa, tier_4 = sof", Default::default()).unwrap();
        assert_eq!(named.0, [Some("basic"), Some("basic"), Some("poa"), Some("sof")].map(|l| l.map(str::to_string)));
        assert_eq!(
            (named.tier_of("basic"), named.tier_of("poa"), named.tier_of("sof")),
            (Some(KycTier::Tier2), Some(KycTier::Tier3), Some(KycTier::Tier4))
        );
        let per_tier = TierLevels::configured("basic", [None, Some("id".into()), Some("poa".into()), None]).unwrap();
        assert_eq!(per_tier.0, [Some("basic"), Some("id"), Some("poa"), None].map(|l| l.map(str::to_string)));
        assert_eq!(TierLevels::configured("tier_2=id", Default::default()).unwrap().0, [None, Some("id".into()), None, None]);
        for bad in ["tier_5=x", "tier_0=x", "tier_3=", "gold=x"] {
            assert!(TierLevels::configured(bad, Default::default()).is_err(), "{bad}");
        }
    }

    #[test]
    fn answers_are_read_or_refused() {
        let ok = VendorResponse { status: 201, headers: vec![], body: br#"{"id":"app_1","token":"tok"}"#.to_vec() };
        assert_eq!((applicant_id(&ok), token(&ok)), (Ok("app_1".into()), Ok("tok".into())));
        assert!(applicant_id(&VendorResponse { status: 409, headers: vec![], body: b"{}".to_vec() }).is_err());
        assert!(token(&VendorResponse { status: 200, headers: vec![], body: b"{}".to_vec() }).is_err());
    }
}
