//! An OpenID provider on loopback for the sign-on cases (issue #48 item 1):
//! discovery, an authorization endpoint that signs in whoever the case
//! registered under its `login_hint`, a token endpoint that checks the
//! client's secret, the code's single use and its PKCE verifier, and the
//! keys. A case may register a login whose ID token is wrong in one way
//! (another issuer, audience or nonce, expired, signed by a key the
//! provider never published) to see the gateway refuse it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use base64::Engine;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{json, Value as Json};
use sha2::{Digest, Sha256};

/// The client the gateway is configured with.
pub const CLIENT_ID: &str = "cgw-conformance";
pub const CLIENT_SECRET: &str = "conformance-client-secret";
/// The one e-mail domain the gateway lets sign in.
pub const ALLOWED_DOMAIN: &str = "example.com";

const PROVIDER_KEY: &str = include_str!("../data/oidc/provider-key.pem");
const FORGER_KEY: &str = include_str!("../data/oidc/forger-key.pem");

/// What is wrong with a login's ID token, if anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tamper {
    None,
    OtherIssuer,
    OtherAudience,
    OtherNonce,
    Expired,
    /// signed by a key the provider did not publish
    Forged,
}

/// Who the provider signs in for a `login_hint`.
#[derive(Debug, Clone)]
pub struct Login {
    pub subject: String,
    pub email: String,
    pub tamper: Tamper,
}

struct Grant {
    login: Login,
    nonce: String,
    challenge: String,
    redirect_uri: String,
    used: bool,
}

#[derive(Default)]
struct State {
    logins: HashMap<String, Login>,
    grants: HashMap<String, Grant>,
    next: u64,
}

pub struct Idp {
    pub issuer: String,
    state: Arc<Mutex<State>>,
}

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

fn form(text: &str) -> HashMap<String, String> {
    url::form_urlencoded::parse(text.as_bytes()).into_owned().collect()
}

fn encode(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

fn respond(request: tiny_http::Request, status: u16, body: &Json, location: Option<&str>) {
    let mut response = tiny_http::Response::from_string(body.to_string()).with_status_code(status);
    if let Ok(h) = tiny_http::Header::from_bytes("content-type", "application/json") {
        response = response.with_header(h);
    }
    if let Some(to) = location {
        if let Ok(h) = tiny_http::Header::from_bytes("location", to) {
            response = response.with_header(h);
        }
    }
    let _ = request.respond(response);
}

impl Idp {
    /// Starts the provider on a free loopback port.
    pub fn start() -> Result<Idp, String> {
        let server = tiny_http::Server::http("127.0.0.1:0").map_err(|e| e.to_string())?;
        let port = server.server_addr().to_ip().map(|a| a.port()).ok_or("no port")?;
        let issuer = format!("http://127.0.0.1:{port}");
        let state = Arc::new(Mutex::new(State::default()));
        let (shared, base) = (state.clone(), issuer.clone());
        std::thread::spawn(move || {
            for request in server.incoming_requests() {
                serve(&base, &shared, request);
            }
        });
        Ok(Idp { issuer, state })
    }

    /// Registers who signs in under `hint` (appended to the authorization URL as `login_hint`).
    pub fn register(&self, hint: &str, login: Login) {
        if let Ok(mut s) = self.state.lock() {
            s.logins.insert(hint.to_string(), login);
        }
    }

    /// The args the native server takes (the secret in `secret_file`).
    pub fn serve_args(&self, secret_file: &std::path::Path) -> Result<Vec<String>, String> {
        std::fs::write(secret_file, CLIENT_SECRET).map_err(|e| e.to_string())?;
        Ok(vec![
            "--oidc-issuer".into(),
            self.issuer.clone(),
            "--oidc-client-id".into(),
            CLIENT_ID.into(),
            "--oidc-client-secret-file".into(),
            secret_file.display().to_string(),
            "--oidc-allowed-domain".into(),
            ALLOWED_DOMAIN.into(),
        ])
    }

    /// The vars the edge takes.
    pub fn edge_vars(&self) -> Vec<(&'static str, String)> {
        vec![
            ("GATEWAY_OIDC_ISSUER", self.issuer.clone()),
            ("GATEWAY_OIDC_CLIENT_ID", CLIENT_ID.into()),
            ("GATEWAY_OIDC_CLIENT_SECRET", CLIENT_SECRET.into()),
            ("GATEWAY_OIDC_ALLOWED_DOMAIN", ALLOWED_DOMAIN.into()),
        ]
    }
}

fn jwks() -> Json {
    let key = EncodingKey::from_rsa_pem(PROVIDER_KEY.as_bytes()).ok();
    let jwk = key.and_then(|k| jsonwebtoken::jwk::Jwk::from_encoding_key(&k, Algorithm::RS256).ok());
    let mut jwk = serde_json::to_value(jwk).unwrap_or(Json::Null);
    jwk["kid"] = json!("k1");
    json!({ "keys": [jwk] })
}

fn serve(issuer: &str, state: &Mutex<State>, mut request: tiny_http::Request) {
    let url = request.url().to_string();
    let (path, query) = url.split_once('?').unwrap_or((url.as_str(), ""));
    match path {
        "/.well-known/openid-configuration" => {
            let body = json!({
                "issuer": issuer,
                "authorization_endpoint": format!("{issuer}/authorize"),
                "token_endpoint": format!("{issuer}/token"),
                "jwks_uri": format!("{issuer}/jwks"),
                "response_types_supported": ["code"],
                "subject_types_supported": ["public"],
                "id_token_signing_alg_values_supported": ["RS256"],
                "code_challenge_methods_supported": ["S256"],
            });
            respond(request, 200, &body, None);
        }
        "/jwks" => respond(request, 200, &jwks(), None),
        "/authorize" => {
            let q = form(query);
            let get = |k: &str| q.get(k).cloned().unwrap_or_default();
            let well_formed = get("response_type") == "code"
                && get("client_id") == CLIENT_ID
                && get("code_challenge_method") == "S256"
                && !get("state").is_empty()
                && !get("nonce").is_empty()
                && get("scope").split(' ').any(|s| s == "openid");
            let Ok(mut s) = state.lock() else { return respond(request, 500, &json!({}), None) };
            let login = s.logins.get(&get("login_hint")).cloned();
            let (Some(login), true) = (login, well_formed) else {
                drop(s);
                return respond(request, 400, &json!({ "error": "invalid_request" }), None);
            };
            s.next += 1;
            let code = format!("code-{}-{}", s.next, b64(&Sha256::digest(get("state").as_bytes())[..9]));
            s.grants.insert(
                code.clone(),
                Grant { login, nonce: get("nonce"), challenge: get("code_challenge"), redirect_uri: get("redirect_uri"), used: false },
            );
            drop(s);
            let to = format!("{}?code={}&state={}", get("redirect_uri"), encode(&code), encode(&get("state")));
            respond(request, 302, &json!({}), Some(&to));
        }
        "/token" => {
            let mut body = String::new();
            let _ = std::io::Read::read_to_string(request.as_reader(), &mut body);
            let f = form(&body);
            let get = |k: &str| f.get(k).cloned().unwrap_or_default();
            if get("client_id") != CLIENT_ID || get("client_secret") != CLIENT_SECRET {
                return respond(request, 401, &json!({ "error": "invalid_client" }), None);
            }
            let Ok(mut s) = state.lock() else { return respond(request, 500, &json!({}), None) };
            let verifier = get("code_verifier");
            let granted = match s.grants.get_mut(&get("code")) {
                Some(g) if !g.used && g.redirect_uri == get("redirect_uri") && b64(&Sha256::digest(verifier.as_bytes())) == g.challenge => {
                    g.used = true;
                    Some((g.login.clone(), g.nonce.clone()))
                }
                // a replayed code is refused, and spent (RFC 6749 §4.1.2)
                Some(g) => {
                    g.used = true;
                    None
                }
                None => None,
            };
            drop(s);
            let Some((login, nonce)) = granted else {
                return respond(request, 400, &json!({ "error": "invalid_grant" }), None);
            };
            let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64);
            let claims = json!({
                "iss": if login.tamper == Tamper::OtherIssuer { "http://127.0.0.1:1/another-issuer" } else { issuer },
                "aud": if login.tamper == Tamper::OtherAudience { "another-client" } else { CLIENT_ID },
                "sub": login.subject,
                "email": login.email,
                "email_verified": true,
                "nonce": if login.tamper == Tamper::OtherNonce { "another-nonce".to_string() } else { nonce },
                "iat": now,
                "exp": if login.tamper == Tamper::Expired { now - 3_600 } else { now + 300 },
            });
            let pem = if login.tamper == Tamper::Forged { FORGER_KEY } else { PROVIDER_KEY };
            let mut header = Header::new(Algorithm::RS256);
            header.kid = Some("k1".into());
            let token = EncodingKey::from_rsa_pem(pem.as_bytes()).and_then(|key| jsonwebtoken::encode(&header, &claims, &key));
            match token {
                Ok(id_token) => respond(request, 200, &json!({ "access_token": "at", "token_type": "Bearer", "id_token": id_token }), None),
                Err(e) => respond(request, 500, &json!({ "error": e.to_string() }), None),
            }
        }
        _ => respond(request, 404, &json!({}), None),
    }
}
