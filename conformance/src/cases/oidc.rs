//! Issue #48 item 1: the team signs in through its identity provider
//! (OpenID Connect, code flow with PKCE), on every host: a person is found by
//! issuer and subject, never by e-mail, and every bad callback is refused on
//! the sign-in page with no session.

use std::collections::HashMap;
use std::time::Duration;

use serde_json::{json, Value as Json};

use crate::client::unique;
use crate::idp::{Login, Tamper, ALLOWED_DOMAIN};
use crate::{ensure, ensure_eq, CaseResult, Env};

const SESSION: &str = "__Host-cgw_session";
const STATE: &str = "__Host-cgw_oidc";

/// A browser that follows no redirect and keeps its cookies.
struct Browser {
    agent: ureq::Agent,
    cookies: HashMap<String, String>,
}

struct Page {
    status: u16,
    location: String,
    body: String,
}

impl Browser {
    fn new() -> Browser {
        Browser { agent: ureq::AgentBuilder::new().redirects(0).timeout(Duration::from_secs(30)).build(), cookies: HashMap::new() }
    }

    fn get(&mut self, url: &str) -> Result<Page, String> {
        let mut request = self.agent.get(url);
        if !self.cookies.is_empty() {
            let jar: Vec<String> = self.cookies.iter().map(|(k, v)| format!("{k}={v}")).collect();
            request = request.set("cookie", &jar.join("; "));
        }
        let response = match request.call() {
            Ok(r) => r,
            Err(ureq::Error::Status(_, r)) => r,
            Err(e) => return Err(format!("GET {url}: {e}")),
        };
        for cookie in response.all("set-cookie") {
            let pair = cookie.split(';').next().unwrap_or_default();
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            if cookie.contains("Max-Age=0") || value.is_empty() {
                self.cookies.remove(name);
            } else {
                self.cookies.insert(name.to_string(), value.to_string());
            }
        }
        let status = response.status();
        let location = response.header("location").unwrap_or_default().to_string();
        Ok(Page { status, location, body: response.into_string().unwrap_or_default() })
    }

    fn signed_in(&self) -> bool {
        self.cookies.contains_key(SESSION)
    }
}

fn idp(env: &Env) -> Result<&crate::idp::Idp, String> {
    env.idp.as_deref().ok_or_else(|| "this runner has no identity provider".to_string())
}

/// The sign-in begun at the console: the provider's authorization URL.
fn begin(env: &Env, browser: &mut Browser, environment: &str) -> Result<String, String> {
    let page = browser.get(&format!("{}/console/oidc/start?environment={environment}", env.host()))?;
    ensure_eq!(page.status, 303, format!("the start: {}", page.body));
    ensure!(page.location.starts_with(&format!("{}/authorize?", idp(env)?.issuer)), "not to the provider: {}", page.location);
    for part in ["code_challenge_method=S256", "code_challenge=", "nonce=", "state=", "response_type=code"] {
        ensure!(page.location.contains(part), "the authorization request has no {part}: {}", page.location);
    }
    ensure!(browser.cookies.contains_key(STATE), "no state cookie");
    Ok(page.location)
}

/// The provider signs in whoever `hint` names: the callback URL it sends the browser to.
fn authorize(browser: &mut Browser, url: &str, hint: &str) -> Result<String, String> {
    let page = browser.get(&format!("{url}&login_hint={hint}"))?;
    ensure_eq!(page.status, 302, format!("the provider: {}", page.body));
    ensure!(page.location.contains("/console/oidc/callback?code="), "not back to the callback: {}", page.location);
    Ok(page.location)
}

/// A new person linked to `subject`, through the API with an admin key.
fn linked(env: &Env, environment: &str, subject: &str, role: &str) -> Result<Json, String> {
    let email = format!("{}@{ALLOWED_DOMAIN}", unique("sso"));
    let body = json!({ "email": email, "role": role, "oidc_subject": subject });
    let made = match environment {
        "production" => env.admin_production("POST", "/v1/admin/people", Some(&body)),
        _ => env.admin_sandbox("POST", "/v1/admin/people", Some(&body)),
    };
    made.expect(201)?;
    ensure!(made.body["password"].is_null() && made.body["totp_secret"].is_null(), "credentials shown for a provider's account: {}", made.raw);
    ensure_eq!(made.body["oidc_subject"], json!(subject));
    Ok(made.body.clone())
}

/// Signs in as `login` and answers the callback's page.
fn sign_in_as(env: &Env, browser: &mut Browser, environment: &str, login: Login) -> Result<Page, String> {
    let hint = unique("hint");
    idp(env)?.register(&hint, login);
    let url = begin(env, browser, environment)?;
    let callback = authorize(browser, &url, &hint)?;
    browser.get(&callback)
}

fn refused(page: &Page, browser: &Browser, code: &str) -> CaseResult {
    ensure_eq!(page.status, 403, format!("expected a refusal ({code}): {} {}", page.location, page.body));
    ensure!(page.body.contains(code), "the sign-in page does not say {code}: {}", page.body);
    ensure!(!browser.signed_in(), "a refused sign-in left a session ({code})");
    Ok(())
}

/// A person linked to a subject signs in through the provider, whatever
/// e-mail the provider gives, and reaches the console; the twins: a subject
/// linked to no one, given the person's own e-mail, is refused, and the
/// linked account has no password sign-in.
pub fn a_person_signs_in_by_issuer_and_subject_never_by_email(env: &Env) -> CaseResult {
    let subject = unique("sub");
    let person = linked(env, "sandbox", &subject, "reviewer")?;
    let email = person["email"].as_str().unwrap_or_default().to_string();
    let mut browser = Browser::new();
    let other_email = format!("{}@{ALLOWED_DOMAIN}", unique("renamed"));
    let page = sign_in_as(env, &mut browser, "sandbox", Login { subject: subject.clone(), email: other_email, tamper: Tamper::None })?;
    // a page of the console's own moves on (a redirect from the provider's navigation would carry no Strict cookie)
    ensure_eq!(page.status, 200, format!("not signed in: {}", page.body));
    ensure!(page.body.contains("content=\"0;url=/console/cases\""), "the page does not move on to the queue: {}", page.body);
    ensure!(browser.signed_in() && !browser.cookies.contains_key(STATE), "no session, or the state kept: {:?}", browser.cookies.keys());
    let cases = browser.get(&format!("{}/console/cases", env.host()))?;
    ensure_eq!(cases.status, 200, format!("the session does not reach the console: {} {:?}", cases.location, browser.cookies));
    // the twin: the person's e-mail from a subject no one is linked to
    let mut stranger = Browser::new();
    let page = sign_in_as(env, &mut stranger, "sandbox", Login { subject: unique("sub"), email: email.clone(), tamper: Tamper::None })?;
    refused(&page, &stranger, "oidc_unknown_person")?;
    // the same subject in the other environment is no one there
    let mut elsewhere = Browser::new();
    let page = sign_in_as(env, &mut elsewhere, "production", Login { subject: subject.clone(), email: email.clone(), tamper: Tamper::None })?;
    refused(&page, &elsewhere, "oidc_unknown_person")?;
    // a provider's account has no password anyone could use
    let password =
        env.call("POST", "/v1/admin/sessions", None, Some(&json!({ "environment": "sandbox", "email": email, "password": "", "totp": "000000" })));
    ensure!(password.status == 401 || password.status == 400, "a password sign-in of a provider's account: {}", password.raw);
    // a subject is linked once in an environment
    let again = env.admin_sandbox(
        "POST",
        "/v1/admin/people",
        Some(&json!({ "email": format!("{}@{ALLOWED_DOMAIN}", unique("sso")), "role": "reviewer", "oidc_subject": subject })),
    );
    again.expect_error(409, "subject_taken")?;
    Ok(())
}

/// Every bad callback is refused on the sign-in page, with its code and no
/// session: a state that is not this browser's, a callback replayed, a code
/// spent with another sign-in's verifier, an ID token of another issuer,
/// audience or nonce, expired or forged, an e-mail of a domain not allowed,
/// and a disabled person.
pub fn a_bad_callback_opens_no_session(env: &Env) -> CaseResult {
    let subject = unique("sub");
    let person = linked(env, "sandbox", &subject, "reviewer")?;
    let good = || Login { subject: subject.clone(), email: format!("{}@{ALLOWED_DOMAIN}", unique("me")), tamper: Tamper::None };

    // another browser's state: the callback reaches a browser that began nothing
    let mut victim = Browser::new();
    let hint = unique("hint");
    idp(env)?.register(&hint, good());
    let url = begin(env, &mut victim, "sandbox")?;
    let callback = authorize(&mut victim, &url, &hint)?;
    let mut attacker = Browser::new();
    begin(env, &mut attacker, "sandbox")?;
    let page = attacker.get(&callback)?;
    refused(&page, &attacker, "oidc_state")?;
    // a state changed on the way
    let mut tampered = callback.split("&state=").next().unwrap_or_default().to_string();
    tampered.push_str("&state=AAAA");
    let page = victim.get(&tampered)?;
    refused(&page, &victim, "oidc_state")?;

    // the good callback signs in once; replayed with its state, it is refused
    let mut browser = Browser::new();
    let hint = unique("hint");
    idp(env)?.register(&hint, good());
    let url = begin(env, &mut browser, "sandbox")?;
    let state = browser.cookies.get(STATE).cloned().unwrap_or_default();
    let callback = authorize(&mut browser, &url, &hint)?;
    // a callback naming another issuer (RFC 9207, a mix-up) is refused, and leaves the sign-in open for its own
    let mixed_up = format!("{callback}&iss=https%3A%2F%2Felsewhere.example");
    let page = browser.get(&mixed_up)?;
    ensure_eq!(page.status, 403, format!("another issuer's callback: {}", page.body));
    ensure!(page.body.contains("oidc_issuer") && !browser.signed_in(), "another issuer's callback signed in: {}", page.body);
    browser.cookies.insert(STATE.into(), state.clone());
    ensure_eq!(browser.get(&callback)?.status, 200);
    ensure!(browser.signed_in(), "the good callback opened no session");
    let mut replay = Browser::new();
    replay.cookies.insert(STATE.into(), state);
    let page = replay.get(&callback)?;
    refused(&page, &replay, "oidc_state")?;

    // a code spent with another sign-in's verifier (the provider refuses it)
    let mut first = Browser::new();
    let hint = unique("hint");
    idp(env)?.register(&hint, good());
    let url = begin(env, &mut first, "sandbox")?;
    let stolen = authorize(&mut first, &url, &hint)?;
    let code = stolen.split("code=").nth(1).and_then(|r| r.split('&').next()).unwrap_or_default().to_string();
    let mut second = Browser::new();
    let url = begin(env, &mut second, "sandbox")?;
    let other_state = url.split("state=").nth(1).and_then(|r| r.split('&').next()).unwrap_or_default().to_string();
    let base = stolen.split('?').next().unwrap_or_default();
    let page = second.get(&format!("{base}?code={code}&state={other_state}"))?;
    refused(&page, &second, "oidc_code")?;

    // ID tokens wrong in one way each
    for tamper in [Tamper::OtherIssuer, Tamper::OtherAudience, Tamper::OtherNonce, Tamper::Expired, Tamper::Forged] {
        let mut browser = Browser::new();
        let page = sign_in_as(env, &mut browser, "sandbox", Login { tamper, ..good() })?;
        refused(&page, &browser, "oidc_token").map_err(|e| format!("{tamper:?}: {e}"))?;
    }
    // an e-mail of a domain not allowed
    let mut browser = Browser::new();
    let page = sign_in_as(env, &mut browser, "sandbox", Login { email: format!("{}@evil.test", unique("me")), ..good() })?;
    refused(&page, &browser, "oidc_domain")?;
    // a disabled person
    let person_id = person["user_id"].as_str().unwrap_or_default();
    env.admin_sandbox("POST", &format!("/v1/admin/people/{person_id}/disable"), None).expect(200)?;
    let mut browser = Browser::new();
    let page = sign_in_as(env, &mut browser, "sandbox", good())?;
    refused(&page, &browser, "oidc_disabled")?;
    // the provider's own refusal
    let mut browser = Browser::new();
    begin(env, &mut browser, "sandbox")?;
    let page = browser.get(&format!("{}/console/oidc/callback?error=access_denied&state=x", env.host()))?;
    ensure_eq!(page.status, 403);
    ensure!(!browser.signed_in(), "a provider's refusal opened a session");
    Ok(())
}
