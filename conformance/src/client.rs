//! A small blocking HTTP client for the cases, recording every body an
//! operator sees so the suite can check the tipping-off rule at the end.

use std::collections::{BTreeSet, HashMap};
use std::sync::Mutex;
use std::time::Duration;

use serde_json::{json, Value as Json};

/// Every (path, status, body, has request id) an operator key received.
pub static OPERATOR_RESPONSES: Mutex<Vec<(String, u16, String, bool)>> = Mutex::new(Vec::new());

/// Every key, token, secret and password the run sent or was given, for the
/// check that none of them reaches the server's log.
pub static SECRETS_SEEN: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());

/// How long a case waits for the outcome of scheduled work ([`Env::schedule_until`]).
pub const SCHEDULED_WAIT: Duration = Duration::from_secs(30);

/// The fields whose values are secrets, in bodies sent and received.
const SECRET_FIELDS: &[&str] = &["api_key", "secret", "session_token", "password", "new_password", "totp_secret", "previous_secret"];

/// Records a secret (anything shorter is too common to grep for).
pub fn saw_secret(value: &str) {
    if value.len() >= 8 {
        if let Ok(mut seen) = SECRETS_SEEN.lock() {
            seen.insert(value.to_string());
        }
    }
}

fn saw_secrets_in(body: &Json) {
    match body {
        Json::Object(fields) => {
            for (name, value) in fields {
                match value.as_str() {
                    Some(text) if SECRET_FIELDS.contains(&name.as_str()) => saw_secret(text),
                    _ => saw_secrets_in(value),
                }
            }
        }
        Json::Array(items) => items.iter().for_each(saw_secrets_in),
        _ => {}
    }
}

pub struct Env {
    pub base_url: String,
    /// Further hosts of the same service: requests go to each in turn.
    pub other_hosts: Vec<String>,
    next_host: std::sync::atomic::AtomicUsize,
    pub admin_sandbox: String,
    pub admin_production: String,
    agent: ureq::Agent,
    /// Imports a sanctions list into the server's store: the arguments of
    /// `compliance-gateway lists import`; answers its summary line, or why it failed.
    pub list_import: Option<ListImport>,
    /// Creates a console account (environment, e-mail, role): the JSON
    /// `compliance-gateway console-user create` prints.
    pub console_user: Option<ConsoleUser>,
    /// The OpenID provider the hosts are configured with (the sign-on cases').
    pub idp: Option<std::sync::Arc<crate::idp::Idp>>,
}

pub type ListImport = Box<dyn Fn(&[&str]) -> Result<String, String> + Send + Sync>;
pub type ConsoleUser = Box<dyn Fn(&str, &str, &str) -> Result<Json, String> + Send + Sync>;

/// A member of the compliance team, signed in with their own password.
pub struct Person {
    pub person_id: String,
    pub token: String,
}

/// The RFC 6238 code of a base32 secret at this moment (SHA-1, six digits, 30 s).
pub fn totp_now(secret: &str) -> Result<String, String> {
    let bytes = totp_rs::Secret::Encoded(secret.to_string()).to_bytes().map_err(|e| format!("TOTP secret: {e:?}"))?;
    let generator = totp_rs::TOTP::new(totp_rs::Algorithm::SHA1, 6, 1, 30, bytes).map_err(|e| format!("TOTP: {e}"))?;
    generator.generate_current().map_err(|e| format!("TOTP: {e}"))
}

/// The code of the next 30-second step (good within the one step of skew
/// allowed), for a check right after a sign-in took the current one.
pub fn totp_next(secret: &str) -> Result<String, String> {
    let bytes = totp_rs::Secret::Encoded(secret.to_string()).to_bytes().map_err(|e| format!("TOTP secret: {e:?}"))?;
    let generator = totp_rs::TOTP::new(totp_rs::Algorithm::SHA1, 6, 1, 30, bytes).map_err(|e| format!("TOTP: {e}"))?;
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_err(|e| format!("clock: {e}"))?.as_secs();
    Ok(generator.generate(now + 30))
}

#[derive(Debug, Clone)]
pub struct Resp {
    pub status: u16,
    pub headers: HashMap<String, String>,
    pub body: Json,
    pub raw: String,
}

impl Resp {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(&name.to_ascii_lowercase()).map(String::as_str)
    }
    /// The `error` code of an error body.
    pub fn code(&self) -> &str {
        self.body["error"].as_str().unwrap_or("")
    }
    pub fn str(&self, field: &str) -> &str {
        self.body[field].as_str().unwrap_or("")
    }
    pub fn int(&self, field: &str) -> i64 {
        self.body[field].as_i64().unwrap_or(i64::MIN)
    }
    /// `Err` unless the status is `want`; the message shows the body.
    pub fn expect(&self, want: u16) -> Result<&Self, String> {
        if self.status == want {
            Ok(self)
        } else {
            Err(format!("expected status {want}, got {}: {}", self.status, self.raw))
        }
    }
    /// `Err` unless this is the spec's error body with this status and code.
    pub fn expect_error(&self, status: u16, code: &str) -> Result<&Self, String> {
        self.expect(status)?;
        let shape_ok = self.body["error"].is_string() && self.body["message"].is_string() && self.body["request_id"].is_string();
        if !shape_ok || self.code() != code {
            return Err(format!("expected error {code}, got {}", self.raw));
        }
        if self.header("x-request-id") != self.body["request_id"].as_str() {
            return Err("request_id in the body differs from the x-request-id header".into());
        }
        Ok(self)
    }
}

impl Env {
    pub fn new(base_url: &str, admin_sandbox: &str, admin_production: &str) -> Env {
        // A connection per request: a server closes an idle keep-alive
        // connection after some seconds (workerd after 5), and a request
        // written into one as it closes is lost, not refused.
        let agent = ureq::AgentBuilder::new().timeout(Duration::from_secs(30)).max_idle_connections(0).build();
        Env {
            base_url: base_url.trim_end_matches('/').to_string(),
            other_hosts: Vec::new(),
            next_host: std::sync::atomic::AtomicUsize::new(0),
            admin_sandbox: admin_sandbox.into(),
            admin_production: admin_production.into(),
            agent,
            list_import: None,
            console_user: None,
            idp: None,
        }
    }

    /// A new console account through the runner's hook, signed in, its one-time password changed.
    pub fn person(&self, environment: &str, role: &str) -> Result<Person, String> {
        let make = self.console_user.as_ref().ok_or("this runner cannot create console accounts")?;
        let created = make(environment, &format!("{}@example.com", unique("person")), role)?;
        self.sign_in_made(environment, &created)
    }

    /// Signs in, for the first time, the person an account answer describes
    /// (`console-user create`'s or `POST /v1/admin/people`'s), and changes the
    /// one-time password.
    pub fn sign_in_made(&self, environment: &str, created: &Json) -> Result<Person, String> {
        saw_secrets_in(created);
        let field = |name: &str| created[name].as_str().map(str::to_string).ok_or(format!("console-user create gave no {name}: {created}"));
        let (email, password, secret) = (field("email")?, field("password")?, field("totp_secret")?);
        let body = serde_json::json!({ "environment": environment, "email": email, "password": password, "totp": totp_now(&secret)? });
        let signed_in = self.call("POST", "/v1/admin/sessions", None, Some(&body));
        if signed_in.status != 201 {
            return Err(format!("sign-in answered {}: {}", signed_in.status, signed_in.raw));
        }
        let token = signed_in.str("session_token").to_string();
        let change = serde_json::json!({ "password": password, "new_password": unique("pw") });
        let changed = self.call("POST", "/v1/admin/people/me/password", Some(&token), Some(&change));
        if changed.status != 200 {
            return Err(format!("the password change answered {}: {}", changed.status, changed.raw));
        }
        Ok(Person { person_id: field("user_id")?, token })
    }

    /// The host of the next request: one after the other when there are several.
    pub fn host(&self) -> &str {
        let turn = self.next_host.fetch_add(1, std::sync::atomic::Ordering::Relaxed) % (self.other_hosts.len() + 1);
        if turn == 0 {
            &self.base_url
        } else {
            &self.other_hosts[turn - 1]
        }
    }

    /// Imports a list through the runner's hook (`lists import` arguments).
    pub fn import_list(&self, args: &[&str]) -> Result<String, String> {
        match &self.list_import {
            Some(import) => import(args),
            None => Err("this runner cannot import lists".to_string()),
        }
    }

    /// Runs the environment's scheduled work until `done` holds, or fails
    /// after [`SCHEDULED_WAIT`]: another case's run, or another host's, may
    /// claim the work first, so a case waits for the outcome, never for one
    /// round of its own.
    pub fn schedule_until(&self, environment: &str, what: &str, done: impl Fn() -> Result<bool, String>) -> Result<(), String> {
        let deadline = std::time::Instant::now() + SCHEDULED_WAIT;
        loop {
            let key = if environment == "production" { &self.admin_production } else { &self.admin_sandbox };
            self.call("POST", "/v1/admin/scheduler/run", Some(key), Some(&json!({}))).expect(200)?;
            if done()? {
                return Ok(());
            }
            if std::time::Instant::now() > deadline {
                return Err(format!("{what}: not within {} s of scheduled work", SCHEDULED_WAIT.as_secs()));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn admin_sandbox(&self, method: &str, path: &str, body: Option<&Json>) -> Resp {
        self.call(method, path, Some(&self.admin_sandbox), body)
    }

    pub fn admin_production(&self, method: &str, path: &str, body: Option<&Json>) -> Resp {
        self.call(method, path, Some(&self.admin_production), body)
    }

    /// Sends a request; `raw_body` is sent as is with the given content type.
    pub fn send(&self, method: &str, path: &str, key: Option<&str>, raw_body: Option<(&str, Vec<u8>)>) -> Resp {
        self.send_with(method, path, key, raw_body, &[])
    }

    /// [`Env::send`] with extra request headers.
    pub fn send_with(&self, method: &str, path: &str, key: Option<&str>, raw_body: Option<(&str, Vec<u8>)>, headers: &[(&str, &str)]) -> Resp {
        self.send_to(self.host(), method, path, key, raw_body, headers)
    }

    /// Every host the cases send to, the first one first.
    pub fn hosts(&self) -> Vec<&str> {
        std::iter::once(self.base_url.as_str()).chain(self.other_hosts.iter().map(String::as_str)).collect()
    }

    /// A JSON request to one given host (of [`Env::hosts`]): what a host
    /// holds alone, such as its own metrics.
    pub fn call_on(&self, host: &str, method: &str, path: &str, key: Option<&str>, body: Option<&Json>) -> Resp {
        self.send_to(host, method, path, key, body.map(|b| ("application/json", b.to_string().into_bytes())), &[])
    }

    fn send_to(&self, host: &str, method: &str, path: &str, key: Option<&str>, raw_body: Option<(&str, Vec<u8>)>, headers: &[(&str, &str)]) -> Resp {
        // a console page answers a person of the compliance team, who may see the matches
        let is_console_session = headers.iter().any(|(name, value)| name.eq_ignore_ascii_case("cookie") && value.contains("cgw_session="));
        let mut request = self.agent.request(method, &format!("{host}{path}"));
        for (name, value) in headers {
            request = request.set(name, value);
        }
        if let Some(key) = key {
            saw_secret(key);
            request = request.set("authorization", &format!("Bearer {key}"));
        }
        if let Some(sent) = raw_body.as_ref().and_then(|(_, bytes)| serde_json::from_slice::<Json>(bytes).ok()) {
            saw_secrets_in(&sent);
        }
        let result = match raw_body {
            Some((content_type, bytes)) => request.set("content-type", content_type).send_bytes(&bytes),
            None => request.call(),
        };
        let response = match result {
            Ok(r) => r,
            Err(ureq::Error::Status(_, r)) => r,
            Err(e) => {
                return Resp { status: 0, headers: HashMap::new(), body: Json::Null, raw: format!("transport error: {e}") };
            }
        };
        let status = response.status();
        let headers =
            response.headers_names().into_iter().filter_map(|n| response.header(&n).map(|v| (n.to_ascii_lowercase(), v.to_string()))).collect();
        let raw = response.into_string().unwrap_or_default();
        let body = serde_json::from_str(&raw).unwrap_or(Json::Null);
        saw_secrets_in(&body);
        let resp = Resp { status, headers, body, raw };
        let is_admin = key.is_some_and(|k| k == self.admin_sandbox || k == self.admin_production);
        if !is_admin && !is_console_session {
            if let Ok(mut log) = OPERATOR_RESPONSES.lock() {
                log.push((format!("{method} {path}"), status, resp.raw.clone(), resp.header("x-request-id").is_some()));
            }
        }
        resp
    }

    pub fn call(&self, method: &str, path: &str, key: Option<&str>, body: Option<&Json>) -> Resp {
        self.send(method, path, key, body.map(|b| ("application/json", b.to_string().into_bytes())))
    }

    /// A new tenant with its own key; sandbox tenants get a generous rate.
    pub fn tenant_with(&self, environment: &str, rate: i64) -> Result<Tenant<'_>, String> {
        let admin = if environment == "production" { &self.admin_production } else { &self.admin_sandbox };
        let r = self.call(
            "POST",
            "/v1/admin/tenants",
            Some(admin),
            Some(&json!({ "name": "conformance", "environment": environment, "rate_limit_per_minute": rate })),
        );
        r.expect(201)?;
        Ok(Tenant { env: self, key: r.str("api_key").to_string(), tenant_id: r.str("tenant_id").to_string(), key_id: r.str("key_id").to_string() })
    }

    /// A sandbox tenant whose decisions take the jurisdiction's rules profile.
    pub fn sandbox_in(&self, jurisdiction: &str) -> Result<Tenant<'_>, String> {
        let body = json!({ "name": "conformance", "environment": "sandbox", "rate_limit_per_minute": 100_000, "jurisdiction": jurisdiction });
        let r = self.call("POST", "/v1/admin/tenants", Some(&self.admin_sandbox), Some(&body));
        r.expect(201)?;
        if r.str("jurisdiction") != jurisdiction {
            return Err(format!("the tenant was created in {:?}, not {jurisdiction}", r.str("jurisdiction")));
        }
        Ok(Tenant { env: self, key: r.str("api_key").to_string(), tenant_id: r.str("tenant_id").to_string(), key_id: r.str("key_id").to_string() })
    }

    pub fn sandbox(&self) -> Result<Tenant<'_>, String> {
        self.tenant_with("sandbox", 100_000)
    }

    pub fn admin(&self, method: &str, path: &str, body: Option<&Json>) -> Resp {
        self.call(method, path, Some(&self.admin_sandbox), body)
    }
}

pub struct Tenant<'a> {
    pub env: &'a Env,
    pub key: String,
    pub tenant_id: String,
    pub key_id: String,
}

impl Tenant<'_> {
    pub fn get(&self, path: &str) -> Resp {
        self.env.call("GET", path, Some(&self.key), None)
    }
    pub fn post(&self, path: &str, body: Json) -> Resp {
        self.env.call("POST", path, Some(&self.key), Some(&body))
    }
    /// A POST with extra headers, such as `Idempotency-Key`.
    pub fn post_with(&self, path: &str, body: Json, headers: &[(&str, &str)]) -> Resp {
        self.env.send_with("POST", path, Some(&self.key), Some(("application/json", body.to_string().into_bytes())), headers)
    }
    pub fn delete(&self, path: &str) -> Resp {
        self.env.call("DELETE", path, Some(&self.key), None)
    }

    /// Screens a user who comes back clear.
    pub fn signup(&self, user_id: &str) -> Result<Resp, String> {
        let r = self.post("/v1/sanctions/screen", identity(user_id, "Ann", "Lee", &format!("{user_id}@example.com")));
        r.expect(201)?;
        Ok(r)
    }

    /// The tenant's clock, as unix seconds.
    pub fn now(&self) -> Result<i64, String> {
        let r = self.get("/v1/sandbox/clock");
        r.expect(200)?;
        parse_time(r.str("now"))
    }

    pub fn advance(&self, seconds: i64) -> Result<(), String> {
        self.post("/v1/sandbox/clock", json!({ "advance_seconds": seconds })).expect(200).map(|_| ())
    }

    /// The tenant's now as an ISO timestamp, for fields such as `requested_at`.
    pub fn now_iso(&self) -> Result<String, String> {
        Ok(format_time(self.now()?))
    }
}

pub fn identity(user_id: &str, first: &str, last: &str, email: &str) -> Json {
    json!({ "user_id": user_id, "first_name": first, "last_name": last, "date_of_birth": "1990-04-01", "nationality": "GB", "email": email })
}

pub fn parse_time(text: &str) -> Result<i64, String> {
    chrono::DateTime::parse_from_rfc3339(text).map(|t| t.timestamp()).map_err(|e| format!("bad timestamp {text:?}: {e}"))
}

pub fn format_time(unix: i64) -> String {
    chrono::DateTime::from_timestamp(unix, 0).map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)).unwrap_or_default()
}

/// A phone number unique to this run, so cases never collide on shared lists.
pub fn unique_phone() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let seed = u64::from(std::process::id()) * 1_000 + NEXT.fetch_add(1, Ordering::Relaxed);
    format!("+4479{:08}", seed % 100_000_000)
}

/// A unique id for this run, so cases never collide on shared lists.
pub fn unique(prefix: &str) -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let pid = std::process::id();
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.subsec_nanos()).unwrap_or(0);
    format!("{prefix}-{pid}-{nanos}-{}", NEXT.fetch_add(1, Ordering::Relaxed))
}

/// A file the suite ships in `conformance/data`.
pub fn data(path: &str) -> String {
    format!("{}/data/{path}", env!("CARGO_MANIFEST_DIR"))
}
