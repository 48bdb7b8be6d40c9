//! The identity-verification adapter for Sumsub, from its public API
//! documentation: requests signed with the app token's secret
//! (`X-App-Access-Sig`: hex HMAC-SHA256 of timestamp, method, path with
//! query, and body), an applicant per check, a short-lived SDK access token
//! for the end user's flow, and status webhooks signed with the webhook
//! secret (`X-Payload-Digest`, hex HMAC of the raw body).

use hmac::{Hmac, Mac};
use rules::{KycAction, KycTier};
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
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TierLevels(pub [String; 4]);

impl TierLevels {
    /// One level for every tier: a GREEN of it approves any tier.
    pub fn same(level: &str) -> Self {
        TierLevels([level, level, level, level].map(str::to_string))
    }

    /// Each tier's level as configured, else the one level given for all.
    pub fn configured(all: &str, per_tier: [Option<String>; 4]) -> Self {
        TierLevels(per_tier.map(|level| level.filter(|l| !l.trim().is_empty()).unwrap_or_else(|| all.to_string())))
    }

    /// The level a check for `tier` is verified at.
    pub fn level(&self, tier: KycTier) -> &str {
        let index = KycTier::ALL.iter().position(|t| *t == tier).unwrap_or(1).clamp(1, 4) - 1;
        self.0.get(index).map_or("", String::as_str)
    }

    /// The highest tier verified at `level`; none for a level not configured.
    pub fn tier_of(&self, level: &str) -> Option<KycTier> {
        self.0.iter().rposition(|l| l == level).and_then(|i| KycTier::ALL.get(i + 1).copied())
    }
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
        }
    }

    /// `POST /resources/applicants?levelName=…` for the applicant of one check.
    pub fn create_applicant(&self, kyc_check_id: &str, tier: KycTier, now: i64) -> VendorRequest {
        let path = format!("/resources/applicants?levelName={}", encode(self.levels.level(tier)));
        self.signed("POST", path, json!({ "externalUserId": kyc_check_id }).to_string().into_bytes(), now)
    }

    /// `POST /resources/accessTokens/sdk`: the token the end user's SDK flow starts with.
    pub fn access_token(&self, kyc_check_id: &str, tier: KycTier, ttl_seconds: i64, now: i64) -> VendorRequest {
        let body = json!({ "userId": kyc_check_id, "levelName": self.levels.level(tier), "ttlInSecs": ttl_seconds });
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
            levels: TierLevels(["basic kyc", "id-level", "address-level", "funds-level"].map(str::to_string)),
        }
    }

    fn header<'a>(r: &'a VendorRequest, name: &str) -> &'a str {
        r.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str()).unwrap_or("")
    }

    #[test]
    fn requests_are_signed_over_timestamp_method_path_and_body() {
        let r = config().create_applicant("kyc_1", KycTier::Tier1, 1_700_000_000);
        assert_eq!(r.url, "https://api.sumsub.com/resources/applicants?levelName=basic%20kyc");
        assert_eq!(header(&r, "x-app-access-ts"), "1700000000");
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(b"s3cret").unwrap();
        mac.update(b"1700000000POST/resources/applicants?levelName=basic%20kyc");
        mac.update(&r.body);
        assert_eq!(header(&r, "x-app-access-sig"), hex::encode(mac.finalize().into_bytes()));
        assert_eq!(serde_json::from_slice::<Json>(&r.body).unwrap()["externalUserId"], "kyc_1");
        let t = config().access_token("kyc_1", KycTier::Tier1, 600, 1_700_000_000);
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
            ["basic kyc", "basic kyc", "id-level", "address-level", "funds-level"]
        );
        let t = c.access_token("kyc_3", KycTier::Tier3, 600, 1_700_000_000);
        assert_eq!(serde_json::from_slice::<Json>(&t.body).unwrap()["levelName"], "address-level");
        assert!(c.create_applicant("kyc_4", KycTier::Tier4, 1_700_000_000).url.ends_with("levelName=funds-level"));
        assert_eq!(
            (c.levels.tier_of("id-level"), c.levels.tier_of("funds-level"), c.levels.tier_of("other")),
            (Some(KycTier::Tier2), Some(KycTier::Tier4), None)
        );
        // one level for all: its GREEN is the highest tier's
        assert_eq!(TierLevels::same("kyc").tier_of("kyc"), Some(KycTier::Tier4));
        let body =
            json!({ "type": "applicantReviewed", "externalUserId": "kyc_3", "levelName": "id-level", "reviewResult": { "reviewAnswer": "GREEN" } });
        assert_eq!(
            webhook_outcome(body.to_string().as_bytes()),
            Ok(WebhookOutcome::Apply { kyc_check_id: "kyc_3".into(), action: KycAction::VendorApprove, level: Some("id-level".into()) })
        );
    }

    #[test]
    fn answers_are_read_or_refused() {
        let ok = VendorResponse { status: 201, body: br#"{"id":"app_1","token":"tok"}"#.to_vec() };
        assert_eq!((applicant_id(&ok), token(&ok)), (Ok("app_1".into()), Ok("tok".into())));
        assert!(applicant_id(&VendorResponse { status: 409, body: b"{}".to_vec() }).is_err());
        assert!(token(&VendorResponse { status: 200, body: b"{}".to_vec() }).is_err());
    }
}
