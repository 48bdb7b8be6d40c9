//! The compliance team's console at `/console/`: server-rendered pages
//! (askama templates, assets embedded), every action a plain form POST. It
//! is one client of the JSON API: each page and action is a call of the
//! API with the person's session (`Gateway::handle_api`), so access, four-eyes,
//! audit and errors are the API's. The session travels in a `__Host-`
//! cookie (`SameSite=Strict`, `HttpOnly`, `Secure`); every POST carries a
//! CSRF token derived from the session and an `Origin` of this host.

use askama::Template;
use serde_json::{json, Value as Json};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::auth::Environment;
use crate::input::SourceAddress;
use crate::{time, Gateway};

const COOKIE: &str = "__Host-cgw_session";
/// The device's token (`POST /v1/admin/sessions` answers it), kept as long as the gateway remembers the device.
const DEVICE_COOKIE: &str = "__Host-cgw_device";
const DEVICE_COOKIE_SECONDS: i64 = crate::people::DEVICE_SECONDS;
/// The state of a sign-in begun at the identity provider: its callback is finished only in this browser.
/// `SameSite=Lax`: the provider's redirect back is a top-level navigation from its site.
const OIDC_COOKIE: &str = "__Host-cgw_oidc";
const CSS: &[u8] = include_bytes!("../../assets/console.css");
const CSP_WATCH: &[u8] = include_bytes!("../../assets/csp-watch.js");
/// No inline script or style, nothing from elsewhere, no framing.
const CSP: &str =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

pub(crate) fn serves(path: &str) -> bool {
    path == "/console" || path.starts_with("/console/")
}

/// What a console route answers.
enum Out {
    Html(u16, String),
    /// a page that also sets cookies (a refused sign-in clears its state)
    HtmlWithCookies(u16, String, Vec<String>),
    Redirect {
        to: String,
        cookies: Vec<String>,
    },
    Asset(&'static str, &'static [u8]),
    /// a file to save: its content type, file name and bytes
    Download(&'static str, String, Vec<u8>),
}

pub(crate) async fn serve(gw: &Gateway, request: http::Request<Vec<u8>>) -> http::Response<Vec<u8>> {
    let out = route(gw, &request).await;
    let builder = http::Response::builder()
        .header("content-security-policy", CSP)
        .header("x-content-type-options", "nosniff")
        .header("x-frame-options", "DENY")
        // not no-referrer: under it a browser sends `Origin: null` on a form POST, and the origin check needs the real one
        .header("referrer-policy", "same-origin")
        .header("cache-control", "no-store");
    let built = match out {
        // a 405 names what the page answers (RFC 9110 §15.5.6), as the API's do
        Out::Html(405, body) => {
            builder.status(405).header("allow", "GET, POST").header("content-type", "text/html; charset=utf-8").body(body.into_bytes())
        }
        Out::Html(status, body) => builder.status(status).header("content-type", "text/html; charset=utf-8").body(body.into_bytes()),
        Out::HtmlWithCookies(status, body, cookies) => {
            let mut builder = builder.status(status).header("content-type", "text/html; charset=utf-8");
            for cookie in cookies {
                builder = builder.header("set-cookie", cookie);
            }
            builder.body(body.into_bytes())
        }
        Out::Redirect { to, cookies } => {
            let mut builder = builder.status(303).header("location", to);
            for cookie in cookies {
                builder = builder.header("set-cookie", cookie);
            }
            builder.body(Vec::new())
        }
        Out::Asset(content_type, bytes) => builder.status(200).header("content-type", content_type).body(bytes.to_vec()),
        Out::Download(content_type, name, bytes) => builder
            .status(200)
            .header("content-type", content_type)
            .header("content-disposition", format!("attachment; filename=\"{name}\""))
            .body(bytes),
    };
    built.unwrap_or_else(|_| {
        // never an empty 200: a response that could not be built is a failure
        let mut failed = http::Response::new(b"the page could not be built".to_vec());
        *failed.status_mut() = http::StatusCode::INTERNAL_SERVER_ERROR;
        failed
    })
}

/// The signed-in person of a request.
struct Signed {
    token: String,
    environment: Environment,
    person_id: String,
    role: &'static str,
    must_change_password: bool,
}

impl Signed {
    fn csrf(&self) -> String {
        csrf_for(&self.token)
    }
}

fn csrf_for(token: &str) -> String {
    hex::encode(Sha256::digest(format!("cgw-console-csrf|{token}").as_bytes()))
}

fn cookie_token(request: &http::Request<Vec<u8>>) -> Option<String> {
    cookie_named(request, COOKIE)
}

fn cookie_named(request: &http::Request<Vec<u8>>, wanted: &str) -> Option<String> {
    request
        .headers()
        .get_all(http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == wanted)
        .map(|(_, value)| value.to_string())
}

async fn signed_in(gw: &Gateway, request: &http::Request<Vec<u8>>) -> Option<Signed> {
    let token = cookie_token(request)?;
    let environment = crate::auth::parse_session_token(&token)?;
    let caller = gw.person_of_session(environment, &token).await.ok()??;
    let person = caller.person?;
    Some(Signed { token, environment, person_id: person.person_id, role: person.role.as_str(), must_change_password: person.must_change_password })
}

/// A form body.
struct Form(Vec<(String, String)>);

impl Form {
    fn parse(body: &[u8]) -> Form {
        Form(url::form_urlencoded::parse(body).into_owned().collect())
    }
    fn get(&self, name: &str) -> &str {
        self.0.iter().find(|(k, _)| k == name).map_or("", |(_, v)| v.as_str())
    }
    fn all(&self, name: &str) -> Vec<String> {
        self.0.iter().filter(|(k, _)| k == name).map(|(_, v)| v.clone()).collect()
    }
}

/// A POST from a page of this host: `Origin` names this host (what a
/// browser sends on every form POST), and, once signed in, the form's CSRF
/// token is the session's.
fn same_origin(request: &http::Request<Vec<u8>>) -> bool {
    let header = |name: http::header::HeaderName| request.headers().get(name).and_then(|v| v.to_str().ok());
    let (Some(origin), Some(host)) = (header(http::header::ORIGIN), header(http::header::HOST)) else {
        return false;
    };
    origin.strip_prefix("https://").or_else(|| origin.strip_prefix("http://")) == Some(host)
}

fn csrf_ok(signed: &Signed, form: &Form) -> bool {
    bool::from(signed.csrf().as_bytes().ct_eq(form.get("csrf").as_bytes()))
}

fn query_of(request: &http::Request<Vec<u8>>) -> Form {
    Form::parse(request.uri().query().unwrap_or_default().as_bytes())
}

/// Calls the JSON API as the person: its status and body.
async fn api(gw: &Gateway, signed: Option<&Signed>, source: &http::Request<Vec<u8>>, method: &str, path: &str, body: Option<Json>) -> (u16, Json) {
    let mut builder = http::Request::builder().method(method).uri(path);
    if let Some(signed) = signed {
        builder = builder.header(http::header::AUTHORIZATION, format!("Bearer {}", signed.token));
    }
    let bytes = match body {
        Some(body) => {
            builder = builder.header(http::header::CONTENT_TYPE, "application/json");
            body.to_string().into_bytes()
        }
        None => Vec::new(),
    };
    let Ok(mut request) = builder.body(bytes) else { return (500, Json::Null) };
    if let Some(address) = source.extensions().get::<SourceAddress>() {
        request.extensions_mut().insert(*address);
    }
    let response = gw.handle_api(request).await;
    let status = response.status().as_u16();
    (status, serde_json::from_slice(response.body()).unwrap_or(Json::Null))
}

fn text(value: &Json) -> String {
    match value {
        Json::String(s) => s.clone(),
        Json::Null => String::new(),
        other => other.to_string(),
    }
}

fn api_error(body: &Json) -> String {
    let message = text(&body["message"]);
    if message.is_empty() {
        "The request was refused.".into()
    } else {
        message
    }
}

/// The parts every page shows.
struct Chrome {
    environment: String,
    signed_in: bool,
    csrf: String,
    who: String,
    flash: Option<String>,
    error: Option<String>,
}

impl Chrome {
    fn of(signed: Option<&Signed>) -> Chrome {
        Chrome {
            environment: signed.map_or(String::new(), |s| s.environment.as_str().to_string()),
            signed_in: signed.is_some(),
            csrf: signed.map_or(String::new(), Signed::csrf),
            who: signed.map_or(String::new(), |s| format!("{} ({})", s.person_id, s.role)),
            flash: None,
            error: None,
        }
    }
}

/// The fixed messages a redirect may ask a page to show.
fn flash(code: &str) -> Option<String> {
    let message = match code {
        "assigned" => "Assigned.",
        "unassigned" => "Unassigned.",
        "commented" => "Comment added.",
        "tagged" => "Tags saved.",
        "proposed" => "Proposed: a second person approves it.",
        "decided" => "Decided.",
        "approved" => "Approved: the decision took effect.",
        "rejected" => "Proposal rejected: the case is open.",
        "password" => "Password changed.",
        _ => return None,
    };
    Some(message.into())
}

fn render<T: Template>(status: u16, page: &T) -> Out {
    match page.render() {
        Ok(html) => Out::Html(status, html),
        Err(_) => Out::Html(500, "the page could not be rendered".into()),
    }
}

#[derive(Template)]
#[template(path = "console/error.html")]
struct ErrorPage {
    chrome: Chrome,
    heading: String,
}

fn error_page(status: u16, signed: Option<&Signed>, heading: &str, detail: String) -> Out {
    let mut chrome = Chrome::of(signed);
    chrome.error = Some(detail);
    render(status, &ErrorPage { chrome, heading: heading.into() })
}

fn redirect(to: &str) -> Out {
    Out::Redirect { to: to.into(), cookies: Vec::new() }
}

async fn route(gw: &Gateway, request: &http::Request<Vec<u8>>) -> Out {
    let path = request.uri().path().trim_end_matches('/');
    let method = request.method().as_str();
    match (method, path) {
        ("GET", "/console/assets/console.css") => return Out::Asset("text/css; charset=utf-8", CSS),
        ("GET", "/console/assets/csp-watch.js") => return Out::Asset("text/javascript; charset=utf-8", CSP_WATCH),
        ("GET", "/console/login") => return render(200, &LoginPage::new(gw, None)),
        ("POST", "/console/login") => return login(gw, request).await,
        ("GET", "/console/oidc/start") => return oidc_start(gw, request).await,
        ("GET", "/console/oidc/callback") => return oidc_callback(gw, request).await,
        _ => {}
    }
    let Some(signed) = signed_in(gw, request).await else {
        return redirect("/console/login");
    };
    if method == "POST" {
        let form = Form::parse(request.body());
        if !same_origin(request) || !csrf_ok(&signed, &form) {
            return error_page(403, Some(&signed), "Refused", "The form did not come from this console (its CSRF token or origin is wrong).".into());
        }
        if path == "/console/logout" {
            api(gw, Some(&signed), request, "DELETE", "/v1/admin/sessions/current", None).await;
            let cookie = format!("{COOKIE}=; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=0");
            return Out::Redirect { to: "/console/login".into(), cookies: vec![cookie] };
        }
        if signed.must_change_password && path != "/console/account" {
            return redirect("/console/account");
        }
        return match path {
            "/console/account" => account_action(gw, request, &signed, &form).await,
            "/console/cases" => bulk_assign(gw, request, &signed, &form).await,
            _ => match path.strip_prefix("/console/cases/") {
                Some(case_id) if !case_id.contains('/') => case_action(gw, request, &signed, case_id, &form).await,
                _ => error_page(404, Some(&signed), "Not found", "There is no such page.".into()),
            },
        };
    }
    if method != "GET" {
        return error_page(405, Some(&signed), "Not allowed", "This page answers GET and POST only.".into());
    }
    if signed.must_change_password && path != "/console/account" {
        return redirect("/console/account");
    }
    let query = query_of(request);
    match path {
        "/console" => redirect("/console/cases"),
        "/console/account" => {
            let mut chrome = Chrome::of(Some(&signed));
            chrome.flash = flash(query.get("msg"));
            render(200, &AccountPage { chrome, must_change_password: signed.must_change_password, new_totp_secret: None })
        }
        "/console/cases" => queue(gw, request, &signed, &query).await,
        "/console/audit" => audit(gw, request, &signed, &query, false).await,
        "/console/audit.csv" => audit(gw, request, &signed, &query, true).await,
        "/console/aml/ctr-candidates.csv" => ctr_csv(gw, request, &signed, &query).await,
        _ => match path.strip_prefix("/console/cases/") {
            Some(case_id) if !case_id.contains('/') => case_page(gw, request, &signed, case_id, flash(query.get("msg")), None, 200).await,
            Some(rest) if rest.ends_with("/report.json") && rest.matches('/').count() == 1 => {
                aml_report(gw, request, &signed, rest.trim_end_matches("/report.json")).await
            }
            Some(rest) if rest.ends_with(".xml") && rest.matches('/').count() == 2 && rest.contains("/filings/") => {
                let (case_id, filing) = rest.trim_end_matches(".xml").split_once("/filings/").unwrap_or_default();
                filing_xml(gw, request, &signed, case_id, filing).await
            }
            _ => error_page(404, Some(&signed), "Not found", "There is no such page.".into()),
        },
    }
}

// ---------------------------------------------------------------- sign-in and account

#[derive(Template)]
#[template(path = "console/login.html")]
struct LoginPage {
    chrome: Chrome,
    /// the identity provider's issuer, when people may sign in through it
    oidc_issuer: Option<String>,
}

impl LoginPage {
    fn new(gw: &Gateway, error: Option<String>) -> LoginPage {
        let mut chrome = Chrome::of(None);
        chrome.error = error;
        LoginPage { chrome, oidc_issuer: gw.config.oidc.as_ref().map(|c| c.issuer.clone()) }
    }
}

/// Where the identity provider sends the browser back: this host's
/// `/console/oidc/callback` (https, but for a loopback host's http, as a
/// browser treats loopback as secure). The provider holds the registered
/// one: a forged `Host` gets no code.
fn callback_url(request: &http::Request<Vec<u8>>) -> Option<String> {
    let host = request.headers().get(http::header::HOST).and_then(|v| v.to_str().ok())?;
    let name = host.rsplit_once(':').map_or(host, |(name, port)| if port.bytes().all(|b| b.is_ascii_digit()) { name } else { host });
    let loopback = name == "localhost" || name == "[::1]" || name.parse::<std::net::Ipv4Addr>().is_ok_and(|a| a.is_loopback());
    Some(format!("{}://{host}/console/oidc/callback", if loopback { "http" } else { "https" }))
}

/// `GET /console/oidc/start?environment=…`: to the identity provider.
async fn oidc_start(gw: &Gateway, request: &http::Request<Vec<u8>>) -> Out {
    let query = query_of(request);
    let environment = match query.get("environment") {
        "" => Environment::Production,
        text => match Environment::parse(text) {
            Some(e) => e,
            None => return render(400, &LoginPage::new(gw, Some("Choose sandbox or production.".into()))),
        },
    };
    let Some(callback) = callback_url(request) else {
        return render(400, &LoginPage::new(gw, Some("The request names no host.".into())));
    };
    let source = request.extensions().get::<SourceAddress>().map(|s| s.0);
    match gw.oidc_start(environment, &callback, source).await {
        Ok(started) => {
            let cookie =
                format!("{OIDC_COOKIE}={}; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age={}", started.state, crate::people::oidc::LOGIN_SECONDS);
            Out::Redirect { to: started.location, cookies: vec![cookie] }
        }
        Err(e) => render(e.status, &LoginPage::new(gw, Some(format!("Sign-in through the identity provider is not possible now ({}).", e.code)))),
    }
}

/// What a sign-in through the identity provider answers: the console's own
/// page, which moves on to the queue within the console's site.
const SIGNED_IN_PAGE: &str = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta http-equiv=\"refresh\" content=\"0;url=/console/cases\"><title>Signed in</title></head>\
<body><main><p><a href=\"/console/cases\">Continue to the console</a></p></main></body></html>";

/// `GET /console/oidc/callback?code=…&state=…`: a session, or a refusal on the sign-in page.
async fn oidc_callback(gw: &Gateway, request: &http::Request<Vec<u8>>) -> Out {
    let query = query_of(request);
    let clear = format!("{OIDC_COOKIE}=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0");
    let refuse = |status: u16, message: String| match render(status, &LoginPage::new(gw, Some(message))) {
        Out::Html(status, body) => Out::HtmlWithCookies(status, body, vec![clear.clone()]),
        other => other,
    };
    if !query.get("error").is_empty() {
        return refuse(403, "The identity provider did not sign you in.".into());
    }
    let Some(callback) = callback_url(request) else {
        return refuse(400, "The request names no host.".into());
    };
    let kept = cookie_named(request, OIDC_COOKIE);
    let iss = Some(query.get("iss")).filter(|iss| !iss.is_empty());
    match gw.oidc_finish(query.get("state"), kept.as_deref(), query.get("code"), iss, &callback).await {
        Ok(finished) => {
            let cookie = format!("{COOKIE}={}; Path=/; Secure; HttpOnly; SameSite=Strict", finished.session_token);
            // the provider's page began this navigation, another site: a redirect would carry no Strict cookie, so a
            // page of the console's own moves on, and its next request is same-site
            Out::HtmlWithCookies(200, SIGNED_IN_PAGE.into(), vec![cookie, clear])
        }
        Err(e) => refuse(e.status, format!("Not signed in: {} ({}).", e.message, e.code)),
    }
}

async fn login(gw: &Gateway, request: &http::Request<Vec<u8>>) -> Out {
    let refuse = |status: u16, message: &str| render(status, &LoginPage::new(gw, Some(message.into())));
    if !same_origin(request) {
        return refuse(403, "The form did not come from this console.");
    }
    let form = Form::parse(request.body());
    // An address of no account (or of one in each environment) is still
    // signed in through the API, in production: it runs the same password
    // check and counts the same failure, so the form's answer and its time
    // tell nothing of which addresses have accounts.
    let environment = match form.get("environment") {
        "" => gw.environment_of_email(form.get("email")).await.unwrap_or(Environment::Production),
        text => match Environment::parse(text) {
            Some(environment) => environment,
            None => return refuse(401, "The e-mail address, password or code is not right."),
        },
    };
    let mut body =
        json!({ "environment": environment.as_str(), "email": form.get("email"), "password": form.get("password"), "totp": form.get("totp") });
    if let Some(device) = cookie_named(request, DEVICE_COOKIE) {
        body["device_token"] = json!(device);
    }
    let (status, answer) = api(gw, None, request, "POST", "/v1/admin/sessions", Some(body)).await;
    if status == 429 {
        return refuse(429, "Too many failed sign-ins from this address: try again in a minute.");
    }
    if status != 201 {
        return refuse(if status == 400 { 400 } else { 401 }, "The e-mail address, password or code is not right.");
    }
    let token = text(&answer["session_token"]);
    let cookie = format!("{COOKIE}={token}; Path=/; Secure; HttpOnly; SameSite=Strict");
    // the device's token outlives the session: its next sign-ins are counted apart from strangers'
    let device =
        format!("{DEVICE_COOKIE}={}; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age={DEVICE_COOKIE_SECONDS}", text(&answer["device_token"]));
    let to = if answer["must_change_password"] == json!(true) { "/console/account" } else { "/console/cases" };
    Out::Redirect { to: to.into(), cookies: vec![cookie, device] }
}

#[derive(Template)]
#[template(path = "console/account.html")]
struct AccountPage {
    chrome: Chrome,
    must_change_password: bool,
    new_totp_secret: Option<String>,
}

async fn account_action(gw: &Gateway, request: &http::Request<Vec<u8>>, signed: &Signed, form: &Form) -> Out {
    let page = |status: u16, error: Option<String>, secret: Option<String>, must_change: bool| {
        let mut chrome = Chrome::of(Some(signed));
        chrome.error = error;
        render(status, &AccountPage { chrome, must_change_password: must_change, new_totp_secret: secret })
    };
    match form.get("action") {
        "totp" => {
            let body = json!({ "password": form.get("password"), "totp": form.get("totp") });
            let (status, answer) = api(gw, Some(signed), request, "POST", "/v1/admin/people/me/totp", Some(body)).await;
            match status {
                200 => page(200, None, Some(text(&answer["totp_secret"])), signed.must_change_password),
                _ => page(status, Some(api_error(&answer)), None, signed.must_change_password),
            }
        }
        _ => {
            let body = json!({ "password": form.get("password"), "new_password": form.get("new_password") });
            let (status, answer) = api(gw, Some(signed), request, "POST", "/v1/admin/people/me/password", Some(body)).await;
            match status {
                200 => redirect("/console/cases?msg=password"),
                _ => page(status, Some(api_error(&answer)), None, signed.must_change_password),
            }
        }
    }
}

// ---------------------------------------------------------------- the queue

struct QueueFilter {
    case_type: String,
    status: String,
    assignee: String,
    overdue: bool,
}

struct QueueRow {
    case_id: String,
    tags: String,
    case_type: String,
    user_id: String,
    status: String,
    assignee: String,
    overdue: bool,
    sla: String,
}

struct Member {
    person_id: String,
    email: String,
    role: String,
}

#[derive(Template)]
#[template(path = "console/queue.html")]
struct QueuePage {
    chrome: Chrome,
    filter: QueueFilter,
    type_options: Vec<(&'static str, &'static str)>,
    status_options: Vec<(&'static str, &'static str)>,
    people: Vec<Member>,
    cases: Vec<QueueRow>,
    next_page: Option<String>,
}

/// "due in 3 h 5 min" or "overdue by 2 h", from a due time and the tenant's now.
fn countdown(due: Option<&str>, now: i64) -> String {
    let Some(due) = due.and_then(time::parse) else { return String::new() };
    let span = |seconds: i64| {
        let (hours, minutes) = (seconds / 3_600, (seconds % 3_600) / 60);
        if hours > 0 {
            format!("{hours} h {minutes} min")
        } else {
            format!("{minutes} min")
        }
    };
    if due > now {
        format!("due in {}", span(due - now))
    } else {
        format!("overdue by {}", span(now - due))
    }
}

async fn people(gw: &Gateway, signed: &Signed, request: &http::Request<Vec<u8>>) -> Vec<Member> {
    let (_, answer) = api(gw, Some(signed), request, "GET", "/v1/admin/people", None).await;
    answer["people"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| Member { person_id: text(&p["person_id"]), email: text(&p["email"]), role: text(&p["role"]) })
        .collect()
}

fn encode(value: &str) -> String {
    url::form_urlencoded::byte_serialize(value.as_bytes()).collect()
}

async fn queue(gw: &Gateway, request: &http::Request<Vec<u8>>, signed: &Signed, query: &Form) -> Out {
    let filter = QueueFilter {
        case_type: query.get("type").into(),
        status: if query.get("status").is_empty() { "open".into() } else { query.get("status").into() },
        assignee: query.get("assignee").into(),
        overdue: query.get("overdue") == "true",
    };
    let mut parameters = vec![("status", filter.status.clone())];
    for (name, value) in [("type", &filter.case_type), ("assignee", &filter.assignee)] {
        if !value.is_empty() {
            parameters.push((name, value.clone()));
        }
    }
    if filter.overdue {
        parameters.push(("overdue", "true".into()));
    }
    let kept: String = parameters.iter().map(|(k, v)| format!("{k}={}", encode(v))).collect::<Vec<_>>().join("&");
    let cursor = query.get("cursor");
    let path = match cursor {
        "" => format!("/v1/admin/cases?{kept}"),
        c => format!("/v1/admin/cases?{kept}&cursor={}", encode(c)),
    };
    let (status, answer) = api(gw, Some(signed), request, "GET", &path, None).await;
    let mut chrome = Chrome::of(Some(signed));
    chrome.flash = flash(query.get("msg"));
    if status != 200 {
        chrome.error = Some(api_error(&answer));
    }
    let cases = answer["cases"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| {
            let now = time::parse(&text(&c["waiting_since"])).unwrap_or(0).saturating_add(c["age_seconds"].as_i64().unwrap_or(0));
            QueueRow {
                case_id: text(&c["case_id"]),
                tags: c["tags"].as_array().into_iter().flatten().map(text).collect::<Vec<_>>().join(", "),
                case_type: text(&c["case_type"]),
                user_id: text(&c["user_id"]),
                status: text(&c["status"]),
                assignee: text(&c["assignee"]),
                overdue: c["overdue"] == json!(true),
                sla: countdown(c["review_due_at"].as_str(), now),
            }
        })
        .collect();
    let next_page = answer["next_cursor"].as_str().map(|c| format!("/console/cases?{kept}&cursor={}", encode(c)));
    let page = QueuePage {
        chrome,
        filter,
        type_options: vec![
            ("", "every type"),
            ("sanctions_hit", "sanctions hit"),
            ("enhanced_due_diligence", "due diligence"),
            ("kyc_review", "KYC review"),
            ("aml_alert", "AML alerts"),
            ("access_request", "access requests"),
        ],
        status_options: vec![("open", "open"), ("pending_approval", "awaiting approval"), ("closed", "closed")],
        people: people(gw, signed, request).await,
        cases,
        next_page,
    };
    render(if status == 200 { 200 } else { status }, &page)
}

/// Assigns several cases at once; "me" takes them.
async fn bulk_assign(gw: &Gateway, request: &http::Request<Vec<u8>>, signed: &Signed, form: &Form) -> Out {
    let assignee = form.get("assignee").to_string();
    let mut refused = Vec::new();
    for case_id in form.all("case_id") {
        let (status, answer) = assign(gw, request, signed, &case_id, &assignee).await;
        if status != 200 {
            refused.push(format!("{case_id}: {}", api_error(&answer)));
        }
    }
    if refused.is_empty() {
        return redirect("/console/cases?msg=assigned");
    }
    error_page(409, Some(signed), "Some cases were not assigned", refused.join("; "))
}

async fn assign(gw: &Gateway, request: &http::Request<Vec<u8>>, signed: &Signed, case_id: &str, assignee: &str) -> (u16, Json) {
    let case = encode(case_id);
    if assignee.is_empty() || assignee == "me" || assignee == signed.person_id {
        return api(gw, Some(signed), request, "POST", &format!("/v1/admin/cases/{case}/take"), None).await;
    }
    api(gw, Some(signed), request, "POST", &format!("/v1/admin/cases/{case}/assign"), Some(json!({ "assignee": assignee }))).await
}

// ---------------------------------------------------------------- a case

struct MatchRow {
    entity: String,
    list: String,
    score: String,
    name_part: String,
    dob_part: String,
    nationality_part: String,
    /// the reading of the screened name that scored (`as_written`, `transliterated_han`, ...)
    reading: String,
    /// each listed part beside the screened part aligned with it, then the words left over
    aligned: Vec<AlignedRow>,
}

struct AlignedRow {
    listed: String,
    query: String,
    similarity: String,
    spelling: String,
}

struct ProposalBox {
    /// the proposal the page shows: its approval or rejection names it
    proposal_id: String,
    outcome: String,
    reason: String,
    proposed_by: String,
    proposed_at: String,
}

/// An AML alert of a case, with each fired rule's evidence in words.
struct AlertRow {
    at: String,
    outcome: String,
    typologies: String,
    rules: Vec<String>,
    decision_id: String,
}

/// A regulator filing drafted from an AML case.
struct FilingRow {
    filing_id: String,
    at: String,
    format: String,
    by: String,
    valid: bool,
    errors: Vec<String>,
    downloadable: bool,
}

struct TimelineRow {
    kind: String,
    actor: String,
    at: String,
    text: String,
}

#[derive(Template)]
#[template(path = "console/case.html")]
struct CasePage {
    chrome: Chrome,
    case_id: String,
    case_type: String,
    status: String,
    user_id: String,
    tenant_id: String,
    assignee: String,
    tags: String,
    overdue: bool,
    sla: String,
    four_eyes: bool,
    awaiting: bool,
    matches: Vec<MatchRow>,
    alerts: Vec<AlertRow>,
    filings: Vec<FilingRow>,
    subject_facts: Vec<(String, String)>,
    proposal: Option<ProposalBox>,
    outcomes: Vec<String>,
    people: Vec<Member>,
    timeline: Vec<TimelineRow>,
}

/// The case page's rows of a sanctions case's matches (`GET /v1/admin/sanctions/cases/{id}`):
/// each entry's scores, the reading that scored and its aligned name parts.
fn match_rows(subject: &Json) -> Vec<MatchRow> {
    let mut matches = Vec::new();
    for m in subject["matches"].as_array().into_iter().flatten() {
        let parts = &m["score_breakdown"];
        matches.push(MatchRow {
            entity: format!("{} ({})", text(&m["entity_name"]), text(&m["entity_id"])),
            list: format!("{} version {} ({})", text(&m["list"]), text(&m["list_version"]), text(&m["topic"])),
            score: score(&m["score"]),
            name_part: score(&parts["name"]),
            dob_part: score(&parts["date_of_birth"]),
            nationality_part: score(&parts["nationality"]),
            reading: m["reading"].as_str().unwrap_or("not recorded").replace('_', " "),
            aligned: m["aligned"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|a| AlignedRow {
                    listed: a["listed"].as_str().filter(|l| !l.is_empty()).unwrap_or("(none: left over)").to_string(),
                    query: a["query"].as_str().filter(|q| !q.is_empty()).unwrap_or("(not found)").to_string(),
                    similarity: score(&a["similarity"]),
                    spelling: a["spelling"].as_str().unwrap_or_default().replace('_', " "),
                })
                .collect(),
        });
    }
    matches
}

fn score(value: &Json) -> String {
    value.as_f64().map_or_else(|| text(value), |s| format!("{s:.2}"))
}

async fn case_page(
    gw: &Gateway,
    request: &http::Request<Vec<u8>>,
    signed: &Signed,
    case_id: &str,
    flash: Option<String>,
    error: Option<String>,
    status: u16,
) -> Out {
    let case = encode(case_id);
    let (found, file) = api(gw, Some(signed), request, "GET", &format!("/v1/admin/cases/{case}"), None).await;
    if found != 200 {
        return error_page(found, Some(signed), "Case not found", api_error(&file));
    }
    let case_type = text(&file["case_type"]);
    let mut matches = Vec::new();
    let mut subject_facts = Vec::new();
    let mut alerts = Vec::new();
    let mut filings = Vec::new();
    if case_type == "aml_alert" {
        let (_, drafted) = api(gw, Some(signed), request, "GET", &format!("/v1/admin/aml/cases/{case}/filings"), None).await;
        for f in drafted["filings"].as_array().into_iter().flatten() {
            filings.push(FilingRow {
                filing_id: text(&f["filing_id"]),
                at: text(&f["created_at"]),
                format: text(&f["format"]),
                by: text(&f["created_by"]),
                valid: f["valid"] == json!(true),
                errors: f["errors"].as_array().into_iter().flatten().map(|e| format!("{}: {}", text(&e["field"]), text(&e["message"]))).collect(),
                downloadable: f["xml"].is_string(),
            });
        }
        let (_, listed) = api(gw, Some(signed), request, "GET", &format!("/v1/admin/aml/alerts?case_id={}", encode(case_id)), None).await;
        let listed = listed["alerts"].as_array().cloned().unwrap_or_default();
        let names = |field: &str| {
            let mut all: Vec<String> = listed.iter().flat_map(|a| a[field].as_array().cloned().unwrap_or_default()).map(|v| text(&v)).collect();
            all.sort_unstable();
            all.dedup();
            all.join(", ")
        };
        subject_facts.push(("Typologies".to_string(), names("typologies")));
        subject_facts.push(("Actions".to_string(), names("actions")));
        subject_facts.push(("Alerts".to_string(), listed.len().to_string()));
        for a in &listed {
            let rules = a["explanation"]["fired"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|f| {
                    let inputs = f["inputs"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(|i| format!("{} {}", text(&i["name"]), text(&i["value"])))
                        .collect::<Vec<_>>();
                    format!("{} v{} (threshold {}): {}", text(&f["rule_id"]), text(&f["version"]), text(&f["threshold"]), inputs.join(", "))
                })
                .collect();
            alerts.push(AlertRow {
                at: text(&a["created_at"]),
                outcome: text(&a["outcome"]),
                typologies: a["typologies"].as_array().into_iter().flatten().map(text).collect::<Vec<_>>().join(", "),
                rules,
                decision_id: text(&a["decision_id"]),
            });
        }
    } else if case_type == "access_request" {
        // what the player receives, and what is withheld from it with its basis
        let (_, request_file) = api(gw, Some(signed), request, "GET", &format!("/v1/admin/access-requests/{case}"), None).await;
        subject_facts.push(("State".to_string(), text(&request_file["state"])));
        subject_facts.push(("Due".to_string(), text(&request_file["due_at"])));
        subject_facts.push((
            "Basis of withholding".to_string(),
            format!("{} ({})", text(&request_file["withhold_basis"]), text(&request_file["withhold_source"])),
        ));
        let export = &request_file["export"];
        for kind in ["kyc_checks", "withdrawals", "exclusions", "limits", "deposits", "transactions", "register_checks", "webhook_events"] {
            subject_facts.push((format!("Released: {kind}"), export[kind].as_array().map_or(0, Vec::len).to_string()));
        }
        for w in request_file["withheld"].as_array().into_iter().flatten() {
            subject_facts.push((format!("Withheld: {}", text(&w["kind"])), format!("{} ({})", text(&w["record_id"]), text(&w["basis"]))));
        }
    } else if case_type == "kyc_review" {
        // waiting for a person, or decided by one
        for status in [rules_model::KycStatus::PendingReview, rules_model::KycStatus::Approved, rules_model::KycStatus::Rejected] {
            let path = format!("/v1/admin/kyc/checks?status={}&limit=500", status.as_str());
            let (_, checks) = api(gw, Some(signed), request, "GET", &path, None).await;
            if let Some(check) = checks["checks"].as_array().into_iter().flatten().find(|c| c["kyc_check_id"] == json!(case_id)) {
                for (term, field) in [
                    ("Required tier", "required_tier"),
                    ("Vendor status", "status"),
                    ("Escalation", "escalation"),
                    ("In this status since", "in_status_since"),
                ] {
                    subject_facts.push((term.to_string(), text(&check[field])));
                }
                break;
            }
        }
    } else {
        let (_, subject) = api(gw, Some(signed), request, "GET", &format!("/v1/admin/sanctions/cases/{case}"), None).await;
        matches = match_rows(&subject);
        let who = &subject["screened"];
        subject_facts.push(("Screened as".to_string(), format!("{} {}", text(&who["first_name"]), text(&who["last_name"]))));
        subject_facts.push(("Date of birth".to_string(), text(&who["date_of_birth"])));
        subject_facts.push(("Nationality".to_string(), text(&who["nationality"])));
        subject_facts.push(("Highest score".to_string(), score(&subject["highest_match_score"])));
    }
    let (now, due) = (gw.clock.now(), file["review_due_at"].as_str());
    let proposal = file["proposal"].is_object().then(|| {
        let p = &file["proposal"];
        ProposalBox {
            proposal_id: text(&p["proposal_id"]),
            outcome: text(&p["outcome"]),
            reason: text(&p["reason"]),
            proposed_by: text(&p["proposed_by"]),
            proposed_at: text(&p["proposed_at"]),
        }
    });
    let timeline = file["timeline"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| {
            let d = &e["detail"];
            let text_of =
                ["comment", "reason", "outcome", "assignee"].iter().map(|k| text(&d[*k])).filter(|t| !t.is_empty()).collect::<Vec<_>>().join(" · ");
            TimelineRow { kind: text(&e["kind"]), actor: text(&e["actor"]), at: text(&e["at"]), text: text_of }
        })
        .collect();
    let mut chrome = Chrome::of(Some(signed));
    chrome.flash = flash;
    chrome.error = error;
    let page = CasePage {
        chrome,
        case_id: case_id.to_string(),
        status: text(&file["status"]),
        awaiting: file["status"] != json!("closed"),
        user_id: text(&file["user_id"]),
        tenant_id: text(&file["tenant_id"]),
        assignee: text(&file["assignee"]),
        tags: file["tags"].as_array().into_iter().flatten().map(text).collect::<Vec<_>>().join(", "),
        overdue: file["overdue"] == json!(true),
        sla: countdown(due, now),
        four_eyes: file["four_eyes"] == json!(true),
        outcomes: file["outcomes"].as_array().into_iter().flatten().map(text).collect(),
        case_type,
        matches,
        alerts,
        filings,
        subject_facts,
        proposal,
        people: people(gw, signed, request).await,
        timeline,
    };
    render(status, &page)
}

/// The tags field of the case page: comma-separated, blanks ignored; the API checks each.
fn tag_list(field: &str) -> Vec<String> {
    field.split(',').map(str::trim).filter(|t| !t.is_empty()).map(str::to_string).collect()
}

async fn case_action(gw: &Gateway, request: &http::Request<Vec<u8>>, signed: &Signed, case_id: &str, form: &Form) -> Out {
    let case = encode(case_id);
    let base = format!("/v1/admin/cases/{case}");
    let (answer, done) = match form.get("action") {
        "assign" => (assign(gw, request, signed, case_id, form.get("assignee")).await, "assigned"),
        "unassign" => (api(gw, Some(signed), request, "POST", &format!("{base}/unassign"), None).await, "unassigned"),
        "comment" => {
            (api(gw, Some(signed), request, "POST", &format!("{base}/comments"), Some(json!({ "comment": form.get("comment") }))).await, "commented")
        }
        "propose" => {
            let body = json!({ "outcome": form.get("outcome"), "reason": form.get("reason") });
            let (status, answer) = api(gw, Some(signed), request, "POST", &format!("{base}/proposal"), Some(body)).await;
            let done = if status == 201 { "proposed" } else { "decided" };
            ((status, answer), done)
        }
        "tags" => {
            (api(gw, Some(signed), request, "PUT", &format!("{base}/tags"), Some(json!({ "tags": tag_list(form.get("tags")) }))).await, "tagged")
        }
        // the proposal the page showed: another one pending by now is refused (409 `stale_proposal`)
        "approve" => {
            let body = json!({ "proposal_id": form.get("proposal_id") });
            (api(gw, Some(signed), request, "POST", &format!("{base}/proposal/approve"), Some(body)).await, "approved")
        }
        "reject" => {
            let body = json!({ "proposal_id": form.get("proposal_id") });
            (api(gw, Some(signed), request, "POST", &format!("{base}/proposal/reject"), Some(body)).await, "rejected")
        }
        _ => ((400, json!({ "message": "unknown action" })), ""),
    };
    let (status, body) = answer;
    if (200..300).contains(&status) {
        return redirect(&format!("/console/cases/{case}?msg={done}"));
    }
    case_page(gw, request, signed, case_id, None, Some(api_error(&body)), status).await
}

// ---------------------------------------------------------------- the audit log

struct AuditRow {
    at: String,
    action: String,
    actor: String,
    resource: String,
    tenant: String,
    request_id: String,
}

#[derive(Template)]
#[template(path = "console/audit.html")]
struct AuditPage {
    chrome: Chrome,
    filter_action: String,
    filter_actor: String,
    csv_link: String,
    entries: Vec<AuditRow>,
}

async fn audit(gw: &Gateway, request: &http::Request<Vec<u8>>, signed: &Signed, query: &Form, as_csv: bool) -> Out {
    let (action, actor) = (query.get("action").to_string(), query.get("actor").to_string());
    let (status, answer) = api(gw, Some(signed), request, "GET", "/v1/admin/audit", None).await;
    if status != 200 {
        return error_page(status, Some(signed), "Audit log", api_error(&answer));
    }
    let entries: Vec<AuditRow> = answer["entries"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| AuditRow {
            at: text(&e["at"]),
            action: text(&e["action"]),
            actor: text(&e["actor_key_id"]),
            resource: text(&e["resource"]),
            tenant: text(&e["tenant_id"]),
            request_id: text(&e["request_id"]),
        })
        .filter(|e| (action.is_empty() || e.action.contains(&action)) && (actor.is_empty() || e.actor == actor))
        .collect();
    if as_csv {
        let mut writer = csv::Writer::from_writer(Vec::new());
        let mut ok = writer.write_record(["at", "action", "actor", "resource", "tenant_id", "request_id"]).is_ok();
        for e in &entries {
            ok &= writer.write_record([&e.at, &e.action, &e.actor, &e.resource, &e.tenant, &e.request_id]).is_ok();
        }
        let bytes = writer.into_inner().unwrap_or_default();
        if !ok || gw.log_audit_export(signed.environment, &signed.person_id).await.is_err() {
            return error_page(503, Some(signed), "Audit log", "The export could not be logged, so it was not made.".into());
        }
        return Out::Download(CSV, "audit.csv".into(), bytes);
    }
    let csv_link = format!("/console/audit.csv?action={}&actor={}", encode(&action), encode(&actor));
    render(200, &AuditPage { chrome: Chrome::of(Some(signed)), filter_action: action, filter_actor: actor, csv_link, entries })
}

// ---------------------------------------------------------------- AML exports

const CSV: &str = "text/csv; charset=utf-8";

/// A cell as a spreadsheet shows it, never a formula.
fn cell(value: &Json) -> String {
    let t = text(value);
    if t.starts_with(['=', '+', '-', '@']) {
        format!("'{t}")
    } else {
        t
    }
}

/// `/console/aml/ctr-candidates.csv?from=&to=&tenant_id=`: the CTR candidates as CSV, one per user and gaming day.
async fn ctr_csv(gw: &Gateway, request: &http::Request<Vec<u8>>, signed: &Signed, query: &Form) -> Out {
    let mut path = String::from("/v1/admin/aml/ctr-candidates?");
    for name in ["from", "to", "tenant_id"] {
        if !query.get(name).is_empty() {
            path.push_str(&format!("{name}={}&", encode(query.get(name))));
        }
    }
    let (status, answer) = api(gw, Some(signed), request, "GET", path.trim_end_matches(['?', '&']), None).await;
    if status != 200 {
        return error_page(status, Some(signed), "CTR candidates", api_error(&answer));
    }
    let columns = ["tenant_id", "user_id", "gaming_day_start", "cash_in_cents", "cash_out_cents", "alert_id", "decision_id"];
    let mut writer = csv::Writer::from_writer(Vec::new());
    let mut ok = writer.write_record(columns).is_ok();
    for c in answer["candidates"].as_array().into_iter().flatten() {
        ok &= writer.write_record(columns.iter().map(|k| cell(&c[*k]))).is_ok();
    }
    match (ok, writer.into_inner()) {
        (true, Ok(bytes)) => Out::Download(CSV, "ctr-candidates.csv".into(), bytes),
        _ => error_page(500, Some(signed), "CTR candidates", "The export could not be written.".into()),
    }
}

/// `/console/cases/{id}/filings/{filing_id}.xml`: a regulator filing's draft, to save and upload.
async fn filing_xml(gw: &Gateway, request: &http::Request<Vec<u8>>, signed: &Signed, case_id: &str, filing_id: &str) -> Out {
    let (status, answer) = api(gw, Some(signed), request, "GET", &format!("/v1/admin/aml/cases/{}/filings", encode(case_id)), None).await;
    if status != 200 {
        return error_page(status, Some(signed), "Filing", api_error(&answer));
    }
    let found = answer["filings"].as_array().into_iter().flatten().find(|f| f["filing_id"] == json!(filing_id));
    match found.and_then(|f| f["xml"].as_str()) {
        Some(xml) => {
            let name: String = filing_id.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            Out::Download("application/xml; charset=utf-8", format!("{name}.xml"), xml.as_bytes().to_vec())
        }
        None => error_page(404, Some(signed), "Filing", "There is no such filing in this case.".into()),
    }
}

/// `/console/cases/{id}/report.json`: an AML case's report bundle, to save (the API audits the export).
async fn aml_report(gw: &Gateway, request: &http::Request<Vec<u8>>, signed: &Signed, case_id: &str) -> Out {
    let (status, answer) = api(gw, Some(signed), request, "GET", &format!("/v1/admin/aml/cases/{}/report", encode(case_id)), None).await;
    if status != 200 {
        return error_page(status, Some(signed), "Report bundle", api_error(&answer));
    }
    let body = serde_json::to_vec_pretty(&answer).unwrap_or_default();
    let name: String = case_id.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    Out::Download("application/json", format!("{name}-report.json"), body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_countdown_reads_both_ways() {
        assert_eq!(countdown(Some("2026-01-01T12:00:00Z"), time::parse("2026-01-01T09:30:00Z").unwrap_or(0)), "due in 2 h 30 min");
        assert_eq!(countdown(Some("2026-01-01T12:00:00Z"), time::parse("2026-01-01T12:45:00Z").unwrap_or(0)), "overdue by 45 min");
        assert_eq!(countdown(None, 0), "");
    }

    #[test]
    fn the_tags_field_is_a_comma_separated_list() {
        assert_eq!(tag_list("pep-check, t-1,,  "), vec!["pep-check".to_string(), "t-1".to_string()]);
        assert!(tag_list(" , ").is_empty(), "an emptied field clears the tags");
    }

    #[test]
    fn the_csrf_token_is_the_sessions_own() {
        assert_eq!(csrf_for("a"), csrf_for("a"));
        assert_ne!(csrf_for("a"), csrf_for("b"));
    }

    #[test]
    fn only_a_post_from_this_host_is_same_origin() {
        let request = |origin: Option<&str>| {
            let mut builder = http::Request::builder().method("POST").uri("/console/login").header("host", "127.0.0.1:8080");
            if let Some(origin) = origin {
                builder = builder.header("origin", origin);
            }
            builder.body(Vec::new()).unwrap_or_default()
        };
        assert!(same_origin(&request(Some("http://127.0.0.1:8080"))));
        assert!(!same_origin(&request(Some("http://evil.example"))));
        assert!(!same_origin(&request(Some("null"))));
        assert!(!same_origin(&request(None)));
    }

    /// The case page shows the reading that scored and each aligned part, a
    /// listed part not found and a screened word left over named as such; a
    /// case opened before readings were recorded says so and shows no parts.
    #[test]
    fn a_match_shows_the_reading_and_the_aligned_parts() {
        let case = serde_json::json!({ "matches": [
            { "entity_name": "Arkadiy Testenberg", "entity_id": "NK-1", "score": 0.97, "reading": "joined_words",
              "score_breakdown": { "name": 0.98, "date_of_birth": 1.0, "nationality": 1.0 },
              "aligned": [
                { "listed": "arkadiy", "query": "arkadiy", "similarity": 1.0, "spelling": "as_written" },
                { "listed": "testenberg", "query": "", "similarity": 0.0, "spelling": "as_written" },
                { "listed": "", "query": "romanovich", "similarity": 0.0, "spelling": "as_written" } ] },
            { "entity_name": "Old Case", "entity_id": "NK-2", "score": 0.9, "score_breakdown": {} } ] });
        let rows = match_rows(&case);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].reading, "joined words");
        let parts: Vec<(&str, &str)> = rows[0].aligned.iter().map(|a| (a.listed.as_str(), a.query.as_str())).collect();
        assert_eq!(parts, [("arkadiy", "arkadiy"), ("testenberg", "(not found)"), ("(none: left over)", "romanovich")]);
        assert_eq!(rows[0].aligned[0].similarity, "1.00");
        assert_eq!(rows[1].reading, "not recorded");
        assert!(rows[1].aligned.is_empty());
    }
}
