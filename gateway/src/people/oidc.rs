//! Sign-on through the team's identity provider (issue #48 item 1): OpenID
//! Connect's authorization code flow with PKCE (RFC 7636, S256) and a nonce.
//!
//! A sign-in begins at `/console/oidc/start`: a state, a nonce and a code
//! verifier are made; the state's SHA-256 is stored with the other two, and
//! the state also goes to the browser in a `__Host-` cookie, so a callback
//! is finished only in the browser that began it (login CSRF). The callback
//! finishes a begun sign-in once, within ten minutes: the code is exchanged
//! at the provider's token endpoint with the verifier, and the ID token's
//! signature (the provider's published keys), issuer, audience, expiry and
//! nonce are checked. A person is matched by issuer and subject, never by
//! e-mail; the e-mail's domain must be an allowed one where any is
//! configured. A disabled account is refused. Roles stay the gateway's.

use base64::Engine;
use jsonwebtoken::{jwk::JwkSet, Algorithm, DecodingKey, Validation};
use serde::Deserialize;
use sha2::{Digest, Sha256};

use super::store;
use crate::auth::Environment;
use crate::error::{ApiError, ApiResult};
use crate::ports::VendorRequest;
use crate::Gateway;

/// How long a begun sign-in may take at the provider.
pub const LOGIN_SECONDS: i64 = 600;

/// Begun sign-ins a source may make a minute (each is a stored row).
const STARTS_PER_MINUTE: i64 = 30;

/// The configured identity provider (`--oidc-issuer`, `--oidc-client-id`,
/// `--oidc-client-secret-file`, `--oidc-allowed-domain`).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct OidcConfig {
    pub issuer: String,
    pub client_id: String,
    pub client_secret: String,
    /// e-mail domains whose people may sign in; empty: any
    pub allowed_domains: Vec<String>,
}

impl std::fmt::Debug for OidcConfig {
    /// never the secret
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OidcConfig").field("issuer", &self.issuer).field("client_id", &self.client_id).finish_non_exhaustive()
    }
}

impl OidcConfig {
    /// The provider's settings as a host reads them: the issuer an https URL
    /// (plain http only on loopback, for a provider on the same machine),
    /// the allowed domains trimmed and lower-cased. Both hosts make it here.
    pub fn new(issuer: String, client_id: String, client_secret: String, allowed_domains: &[String]) -> Result<OidcConfig, String> {
        let parsed = url::Url::parse(&issuer).map_err(|_| format!("the issuer {issuer:?} is not a URL"))?;
        let loopback = match parsed.host() {
            Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
            Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
            Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
            None => false,
        };
        let secure = parsed.scheme() == "https" || (parsed.scheme() == "http" && loopback);
        if !secure || parsed.query().is_some() || parsed.fragment().is_some() {
            return Err(format!("the issuer {issuer:?} must be an https URL with no query or fragment"));
        }
        if client_id.trim().is_empty() || client_secret.trim().is_empty() {
            return Err("the client id and secret must not be empty".into());
        }
        let allowed_domains = allowed_domains.iter().map(|d| d.trim().to_ascii_lowercase()).filter(|d| !d.is_empty()).collect();
        Ok(OidcConfig { issuer, client_id, client_secret: client_secret.trim().to_string(), allowed_domains })
    }

    /// The issuer as the ID token names it (no trailing slash is added or taken).
    fn discovery_url(&self) -> String {
        format!("{}/.well-known/openid-configuration", self.issuer.trim_end_matches('/'))
    }
}

/// The provider's metadata (OpenID Connect Discovery 1.0).
#[derive(Debug, Deserialize)]
struct Discovery {
    issuer: String,
    authorization_endpoint: String,
    token_endpoint: String,
    jwks_uri: String,
}

#[derive(Debug, Deserialize)]
struct TokenAnswer {
    id_token: String,
}

#[derive(Debug, Deserialize)]
struct Claims {
    sub: String,
    nonce: Option<String>,
    email: Option<String>,
    email_verified: Option<bool>,
    azp: Option<String>,
}

/// A refusal of a sign-in through the provider: 403 with a stable code.
fn refused(code: &'static str, message: &str) -> ApiError {
    ApiError::forbidden(code, message.to_string())
}

fn provider_failed() -> ApiError {
    ApiError::new(502, "oidc_provider_unavailable", "the identity provider did not answer as expected")
}

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// A begun sign-in: where the browser goes, and the state its cookie keeps.
pub struct Started {
    pub location: String,
    pub state: String,
}

/// A finished one: the person, and their session's token.
pub struct Finished {
    pub person_id: String,
    pub environment: Environment,
    pub session_token: String,
}

impl Gateway {
    fn oidc(&self) -> ApiResult<&OidcConfig> {
        self.config.oidc.as_ref().ok_or_else(|| ApiError::not_found("oidc_not_configured", "no identity provider is configured"))
    }

    async fn fetch_json<T: for<'de> Deserialize<'de>>(&self, request: VendorRequest) -> ApiResult<T> {
        let http = self.vendor_http.as_ref().ok_or_else(provider_failed)?;
        let answer = http.send(request).await.map_err(|_| provider_failed())?;
        if answer.status != 200 {
            return Err(provider_failed());
        }
        serde_json::from_slice(&answer.body).map_err(|_| provider_failed())
    }

    async fn discovery(&self, config: &OidcConfig) -> ApiResult<Discovery> {
        let get = VendorRequest { method: "GET", url: config.discovery_url(), headers: Vec::new(), body: Vec::new(), client_identity: None };
        let found: Discovery = self.fetch_json(get).await?;
        // OpenID Connect Discovery §4.3: the metadata's issuer is the one configured, exactly
        if found.issuer != config.issuer {
            return Err(provider_failed());
        }
        Ok(found)
    }

    /// Begins a sign-in into `environment` from `source`: where to send the
    /// browser (the provider's authorization endpoint) and the state for its cookie.
    pub async fn oidc_start(&self, environment: Environment, redirect_uri: &str, source: Option<std::net::IpAddr>) -> ApiResult<Started> {
        let config = self.oidc()?;
        let now = self.clock.now();
        let source = source.map_or_else(|| String::from("unknown"), crate::input::source_key);
        let minute = now.div_euclid(60).saturating_add(1).saturating_mul(60);
        let limited = self.store.batch(vec![crate::rate_limit::store::reserve(&format!("oidc-start:{source}"), minute, 1, STARTS_PER_MINUTE)]).await;
        match limited {
            Ok(()) => {}
            Err(crate::ports::StoreError::Conflict { .. } | crate::ports::StoreError::Unique) => {
                return Err(ApiError::new(429, "rate_limited", "too many sign-ins begun from this address; try again in a minute"));
            }
            Err(e) => return Err(e.into()),
        }
        let discovery = self.discovery(config).await?;
        let (state, nonce, verifier) = (b64(&self.ids.random_bytes(32)), b64(&self.ids.random_bytes(32)), b64(&self.ids.random_bytes(32)));
        let challenge = b64(&Sha256::digest(verifier.as_bytes()));
        self.store.batch(vec![store::insert_oidc_login(&crate::auth::hash_key(&state), environment, &nonce, &verifier, now)]).await?;
        let mut location = url::Url::parse(&discovery.authorization_endpoint).map_err(|_| provider_failed())?;
        location
            .query_pairs_mut()
            .append_pair("response_type", "code")
            .append_pair("client_id", &config.client_id)
            .append_pair("redirect_uri", redirect_uri)
            .append_pair("scope", "openid email")
            .append_pair("state", &state)
            .append_pair("nonce", &nonce)
            .append_pair("code_challenge", &challenge)
            .append_pair("code_challenge_method", "S256");
        Ok(Started { location: location.to_string(), state })
    }

    /// Finishes a sign-in at the callback: `state` as the provider sent it
    /// back, `kept` as the browser's cookie kept it. Every refusal is 403
    /// with a stable code, and opens no session.
    pub async fn oidc_finish(&self, state: &str, kept: Option<&str>, code: &str, iss: Option<&str>, redirect_uri: &str) -> ApiResult<Finished> {
        let config = self.oidc()?;
        let now = self.clock.now();
        let same = kept.is_some_and(|k| bool::from(subtle::ConstantTimeEq::ct_eq(k.as_bytes(), state.as_bytes())));
        if state.is_empty() || !same {
            return Err(refused("oidc_state", "the sign-in was not begun in this browser, or it was begun again since"));
        }
        // RFC 9207: a callback that names another issuer is a mix-up; the sign-in stays open for its own provider's
        if iss.is_some_and(|iss| iss != config.issuer) {
            return Err(refused("oidc_issuer", "the callback names another identity provider than this console's"));
        }
        let state_hash = crate::auth::hash_key(state);
        let (environment, nonce, verifier) = store::oidc_login(self.store.as_ref(), &state_hash, now.saturating_sub(LOGIN_SECONDS))
            .await?
            .ok_or_else(|| refused("oidc_state", "this sign-in is unknown, finished already or older than ten minutes"))?;
        // once: a second callback of the same state loses here, before any code is spent
        if !self.commit(vec![store::use_oidc_login(&state_hash, now)]).await?.done() {
            return Err(refused("oidc_state", "this sign-in was finished already"));
        }
        let discovery = self.discovery(config).await?;
        let form = url::form_urlencoded::Serializer::new(String::new())
            .append_pair("grant_type", "authorization_code")
            .append_pair("code", code)
            .append_pair("redirect_uri", redirect_uri)
            .append_pair("code_verifier", &verifier)
            .append_pair("client_id", &config.client_id)
            .append_pair("client_secret", &config.client_secret)
            .finish();
        let exchange = VendorRequest {
            method: "POST",
            url: discovery.token_endpoint.clone(),
            headers: vec![("content-type".into(), "application/x-www-form-urlencoded".into()), ("accept".into(), "application/json".into())],
            body: form.into_bytes(),
            client_identity: None,
        };
        let http = self.vendor_http.as_ref().ok_or_else(provider_failed)?;
        let answer = http.send(exchange).await.map_err(|_| provider_failed())?;
        if answer.status != 200 {
            // an expired, replayed or foreign code: the provider's refusal
            return Err(refused("oidc_code", "the identity provider refused the sign-in's code"));
        }
        let token: TokenAnswer =
            serde_json::from_slice(&answer.body).map_err(|_| refused("oidc_token", "the identity provider's answer holds no ID token"))?;
        let keys = VendorRequest { method: "GET", url: discovery.jwks_uri.clone(), headers: Vec::new(), body: Vec::new(), client_identity: None };
        let keys: JwkSet = self.fetch_json(keys).await?;
        let claims = verify_id_token(&token.id_token, &keys, config, now)?;
        if claims.nonce.as_deref().is_none_or(|n| !bool::from(subtle::ConstantTimeEq::ct_eq(n.as_bytes(), nonce.as_bytes()))) {
            return Err(refused("oidc_token", "the ID token was not issued for this sign-in (its nonce)"));
        }
        if !config.allowed_domains.is_empty() {
            let domain = claims.email.as_deref().and_then(|e| e.rsplit_once('@')).map(|(_, d)| d.to_ascii_lowercase());
            let allowed = domain.is_some_and(|d| config.allowed_domains.iter().any(|a| a.eq_ignore_ascii_case(&d)));
            if !allowed || claims.email_verified == Some(false) {
                return Err(refused("oidc_domain", "this identity's e-mail address is not of an allowed domain"));
            }
        }
        let account = store::account_by_subject(self.store.as_ref(), environment, &config.issuer, &claims.sub)
            .await?
            .ok_or_else(|| refused("oidc_unknown_person", "no console account is linked to this identity in this environment; an admin links it"))?;
        if account.disabled_at.is_some() {
            return Err(refused("oidc_disabled", "this console account is disabled"));
        }
        let session_token = self.open_session(environment, &account.person_id, "oidc", now).await?;
        Ok(Finished { person_id: account.person_id, environment, session_token })
    }
}

/// The ID token's signature under one of the provider's keys (an asymmetric
/// algorithm only), its issuer, audience and expiry (60 s of leeway), and
/// the authorized party where it names one.
fn verify_id_token(token: &str, keys: &JwkSet, config: &OidcConfig, now: i64) -> ApiResult<Claims> {
    let bad = || refused("oidc_token", "the ID token is not valid for this service");
    let header = jsonwebtoken::decode_header(token).map_err(|_| bad())?;
    if !matches!(header.alg, Algorithm::RS256 | Algorithm::RS384 | Algorithm::RS512 | Algorithm::PS256 | Algorithm::ES256 | Algorithm::ES384) {
        return Err(bad());
    }
    let jwk = match &header.kid {
        Some(kid) => keys.find(kid),
        None if keys.keys.len() == 1 => keys.keys.first(),
        None => None,
    }
    .ok_or_else(bad)?;
    let key = DecodingKey::from_jwk(jwk).map_err(|_| bad())?;
    let mut validation = Validation::new(header.alg);
    validation.set_issuer(&[config.issuer.as_str()]);
    validation.set_audience(&[config.client_id.as_str()]);
    validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
    validation.leeway = 60;
    // the host's clock, not the library's
    validation.validate_exp = false;
    let data = jsonwebtoken::decode::<serde_json::Value>(token, &key, &validation).map_err(|_| bad())?;
    let exp = data.claims.get("exp").and_then(serde_json::Value::as_i64).ok_or_else(bad)?;
    if exp.saturating_add(60) < now {
        return Err(bad());
    }
    let claims: Claims = serde_json::from_value(data.claims).map_err(|_| bad())?;
    if claims.azp.as_deref().is_some_and(|azp| azp != config.client_id) || claims.sub.is_empty() {
        return Err(bad());
    }
    Ok(claims)
}

#[cfg(test)]
mod tests {
    use super::OidcConfig;

    fn make(issuer: &str) -> Result<OidcConfig, String> {
        OidcConfig::new(issuer.into(), "client".into(), "secret".into(), &[" Example.COM ".into(), String::new()])
    }

    #[test]
    fn an_issuer_is_https_or_on_loopback() {
        for ok in ["https://id.example.com", "https://id.example.com/realms/team", "http://127.0.0.1:9000", "http://[::1]:9000", "http://localhost:1"]
        {
            assert!(make(ok).is_ok(), "{ok}");
        }
        for bad in [
            "http://id.example.com",
            "http://10.0.0.1",
            "ftp://id.example.com",
            "id.example.com",
            "https://id.example.com/?x=1",
            "https://id.example.com/#f",
        ] {
            assert!(make(bad).is_err(), "{bad}");
        }
        assert_eq!(make("https://id.example.com").map(|c| c.allowed_domains), Ok(vec!["example.com".to_string()]));
        assert!(OidcConfig::new("https://id.example.com".into(), " ".into(), "secret".into(), &[]).is_err());
        assert!(OidcConfig::new("https://id.example.com".into(), "client".into(), "\n".into(), &[]).is_err());
    }
}
