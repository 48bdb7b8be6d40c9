//! Sign-on through a real OpenID provider in a real browser (issue #48 item
//! 1): the npm package `oidc-provider` (tools/browser/oidc-provider.mjs) on
//! loopback, the release binary of the native host configured for it, and
//! Debian's Chromium driven through chromedriver with fantoccini.
//!
//! A person linked to the provider's subject by `console-user create
//! --oidc-subject` clicks "Sign in with …" on the console's sign-in page,
//! signs in at the provider's own page and lands in the console signed in.
//! The provider names itself `http://localhost:PORT`, another site than the
//! console's `http://127.0.0.1:PORT` to the browser, as a team's provider
//! is, so the browser's cookie rules across sites are those of a deployment.
//! Each bad callback is refused on the sign-in page with its code, and
//! leaves no session (the console's pages send the browser to sign in),
//! beside a twin that differs in the one thing and signs in: a browser that
//! did not begin the sign-in (no state cookie) and a state changed on the
//! way; a callback replayed, and its spent code in a sign-in begun anew;
//! an ID token whose nonce is another sign-in's (PKCE stops crossed
//! callbacks before the nonce is read, so the authorization request's nonce
//! is changed instead); a callback of another issuer (a second provider with
//! the same client), refused by its `iss` (RFC 9207) and, without it, by
//! this provider when the console spends the code; a code of another client
//! (audience) and an expired one (the provider's codes of one login live a
//! second), each refused by the provider when the console spends it (the console asks only its own
//! issuer's token endpoint, so another issuer's or audience's ID token never
//! reaches the console from a real provider: its `iss` and `aud` checks are
//! conformance's, with a fake provider that signs such tokens); a subject
//! linked to no one; and a disabled person, and the person who signed in
//! once disabled.
//!
//! The tampered sign-ins are begun as the browser's click would begin them,
//! but by the test (`GET /console/oidc/start` not followed), which gives
//! the browser the state cookie the console set: the test can then change
//! the authorization request on its way to the provider, or keep a callback
//! from the console until it is changed. The twins begun that way sign in.
//!
//! Runs where chromedriver is and with the browser tools installed
//! (`scripts/test.sh` sets `CGW_BROWSER_TESTS=1`, `CGW_BROWSER_TOOLS`, the
//! directory where it ran `npm ci` of tools/browser, and `CGW_AXE_JS`); with
//! `CGW_BROWSER_TESTS=1` a missing tool is a failure.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

#[path = "support/browser.rs"]
mod browser;
mod support;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use browser::{check_page, chromedriver, click, fill, text_of};
use fantoccini::cookies::Cookie;
use fantoccini::{Client, ClientBuilder, Locator};
use reqwest::Url;
use serde_json::json;
use support::{cli, free_port, Killed, ServeProcess};

const SESSION: &str = "__Host-cgw_session";
const STATE: &str = "__Host-cgw_oidc";
/// the console's client at the provider, and another client (audience) there
const CLIENT: &str = "cgw-console";
const OTHER_CLIENT: &str = "another-service";
/// the login whose codes the provider lets expire after a second
const LATE: &str = "late";

/// The node_modules where `npm ci` of tools/browser installed oidc-provider.
fn browser_tools() -> Option<PathBuf> {
    match std::env::var("CGW_BROWSER_TOOLS") {
        Ok(dir) => {
            let modules = Path::new(&dir).join("node_modules");
            assert!(modules.join("oidc-provider").is_dir(), "CGW_BROWSER_TOOLS={dir} has no node_modules/oidc-provider (npm ci of tools/browser)");
            Some(modules)
        }
        Err(_) => {
            assert!(
                std::env::var("CGW_BROWSER_TESTS").as_deref() != Ok("1"),
                "CGW_BROWSER_TESTS=1 but CGW_BROWSER_TOOLS names no directory of the browser tools (scripts/test.sh sets it)"
            );
            None
        }
    }
}

/// A provider process starting: its first line of output names its issuer.
struct Starting {
    process: Killed,
    line: std::sync::mpsc::Receiver<Option<String>>,
    log: PathBuf,
}

/// `node tools/browser/oidc-provider.mjs` on a free loopback port, its
/// clients sent back to `redirect_uri`, its diagnostics to `log`.
fn start_provider(modules: &Path, redirect_uri: &str, secret: &Path, host: &str, log: PathBuf) -> Starting {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tools/browser/oidc-provider.mjs");
    let mut child = Command::new(std::env::var("CGW_NODE").unwrap_or_else(|_| "node".into()))
        .arg(script)
        .args(["--port", "0", "--redirect-uri", redirect_uri, "--client-id", &format!("{CLIENT},{OTHER_CLIENT}")])
        .args(["--host", host, "--expiring-login", LATE, "--client-secret-file"])
        .arg(secret)
        .arg("--node-modules")
        .arg(modules)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .expect("start node (the browser tools need Node.js)");
    let stdout = child.stdout.take().unwrap();
    let (send, line) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        let mut first = String::new();
        let read = reader.read_line(&mut first).ok().filter(|n| *n > 0).map(|_| first.trim().to_string());
        let _ = send.send(read);
        // the rest is drained, so the provider never blocks on a full pipe
        let _ = std::io::copy(&mut reader, &mut std::io::sink());
    });
    Starting { process: Killed(child), line, log }
}

/// A provider that listens, and its issuer.
struct Provider {
    issuer: String,
    _process: Killed,
}

impl Starting {
    fn ready(self) -> Provider {
        let line = self.line.recv_timeout(Duration::from_secs(30)).ok().flatten().unwrap_or_default();
        let Some(issuer) = line.strip_prefix("issuer ") else {
            panic!("the provider did not start ({line:?}): {}", std::fs::read_to_string(&self.log).unwrap_or_default());
        };
        Provider { issuer: issuer.to_string(), _process: self.process }
    }
}

/// A session of headless Chromium through the chromedriver on `driver_port`, its profile in `profile`.
async fn browser_session(driver_port: u16, profile: PathBuf) -> Client {
    let mut args: Vec<String> = [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
    ]
    .iter()
    .map(|a| a.to_string())
    .collect();
    args.push(format!("--user-data-dir={}", profile.display()));
    let mut capabilities = serde_json::Map::new();
    capabilities.insert(
        "goog:chromeOptions".into(),
        json!({ "binary": std::env::var("CGW_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into()), "args": args }),
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        match ClientBuilder::new(connector).capabilities(capabilities.clone()).connect(&format!("http://127.0.0.1:{driver_port}")).await {
            Ok(client) => return client,
            Err(e) => {
                assert!(Instant::now() < deadline, "chromedriver did not start a session: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}

/// The browser is on `path`; otherwise the page says why not.
async fn assert_at(c: &Client, path: &str) {
    let url = c.current_url().await.unwrap();
    assert!(url.path() == path, "expected {path}, at {url}: {}", text_of(c, "body").await);
}

fn origin(url: &Url) -> String {
    url.origin().ascii_serialization()
}

/// `url` with its query parameter `name` set to `value`.
fn with_param(url: &Url, name: &str, value: &str) -> Url {
    let pairs: Vec<(String, String)> =
        url.query_pairs().map(|(k, v)| (k.to_string(), if k == name { value.to_string() } else { v.into_owned() })).collect();
    assert!(pairs.iter().any(|(k, _)| k == name), "{url} has no {name}");
    let mut changed = url.clone();
    changed.query_pairs_mut().clear().extend_pairs(pairs);
    changed
}

fn param(url: &Url, name: &str) -> String {
    url.query_pairs().find(|(k, _)| k == name).map(|(_, v)| v.into_owned()).unwrap_or_else(|| panic!("{url} has no {name}"))
}

/// The console (`base`) and its browser.
struct Console {
    c: Client,
    base: String,
}

impl Console {
    async fn goto(&self, url: &str) {
        self.c.goto(url).await.unwrap();
    }

    /// Begins a sign-in to production as the click on "Sign in with …"
    /// would, without following the console's answer: the provider's
    /// authorization URL and the state for the browser's cookie.
    async fn begin(&self) -> (Url, String) {
        let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
        let answer = client.get(format!("{}/console/oidc/start?environment=production", self.base)).send().await.unwrap();
        assert_eq!(answer.status().as_u16(), 303, "the start: {}", answer.text().await.unwrap_or_default());
        let location = Url::parse(answer.headers()["location"].to_str().unwrap()).unwrap();
        let state = answer
            .headers()
            .get_all("set-cookie")
            .iter()
            .filter_map(|v| v.to_str().ok()?.strip_prefix(&format!("{STATE}="))?.split(';').next().map(str::to_string))
            .next()
            .expect("the start set no state cookie");
        assert_eq!(param(&location, "state"), state);
        (location, state)
    }

    /// The browser keeps `state` as the console's cookie, as the browser
    /// that began the sign-in does.
    async fn keep_state(&self, state: &str) {
        if origin(&self.c.current_url().await.unwrap()) != self.base {
            self.goto(&format!("{}/console/login", self.base)).await;
        }
        let mut cookie = Cookie::new(STATE, state.to_string());
        // chromedriver takes no cookie without a domain; an IP address's cookie is the host's only
        cookie.set_domain("127.0.0.1");
        cookie.set_path("/");
        cookie.set_secure(true);
        cookie.set_http_only(true);
        self.c.add_cookie(cookie).await.unwrap();
    }

    /// At `issuer`'s sign-in page: signs in there as `login`, and waits for
    /// the page the provider sends the browser back to.
    async fn at_provider_sign_in_as(&self, issuer: &str, login: &str) {
        let url = self.c.current_url().await.unwrap();
        assert!(
            url.as_str().starts_with(&format!("{issuer}/interaction/")),
            "not at {issuer}'s sign-in page: {url}: {}",
            text_of(&self.c, "body").await
        );
        assert_eq!(text_of(&self.c, "h1").await, format!("Sign in to {issuer}"));
        fill(&self.c, "#login", login).await;
        click(&self.c, "button[type=submit]").await;
    }

    /// Clicks "Sign in with …" on the sign-in page and signs in at the provider as `login`.
    async fn sign_in_as(&self, issuer: &str, login: &str) {
        if self.c.current_url().await.unwrap().as_str() != format!("{}/console/login", self.base) {
            self.goto(&format!("{}/console/login", self.base)).await;
        }
        click(&self.c, "#oidc-production").await;
        self.at_provider_sign_in_as(issuer, login).await;
    }

    /// Signed in as `person`: the console's queue (once the browser is
    /// there: a page between may lead to it) with its sign-out naming the
    /// person, a session cookie and no state cookie left.
    async fn signed_in(&self, person: &str) {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let at = self.c.current_url().await.unwrap();
            let loaded = self.c.execute("return document.readyState;", vec![]).await.ok() == Some(json!("complete"));
            if at.path() == "/console/cases" && loaded {
                break;
            }
            if Instant::now() > deadline {
                let cookie = self.c.get_named_cookie(SESSION).await.is_ok();
                panic!("not signed in: at {at} (a session cookie: {cookie}): {}", text_of(&self.c, "body").await);
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let who = text_of(&self.c, "form.signout").await;
        assert!(who.contains(person), "signed in as someone else than {person}: {who}");
        assert!(self.c.get_named_cookie(SESSION).await.is_ok(), "signed in without a session cookie");
        assert!(self.c.get_named_cookie(STATE).await.is_err(), "the state cookie outlived its sign-in");
    }

    async fn sign_out(&self) {
        click(&self.c, "form.signout button").await;
        assert_at(&self.c, "/console/login").await;
        assert!(self.c.get_named_cookie(SESSION).await.is_err(), "signed out, the session cookie is kept");
    }

    /// The callback was refused on the sign-in page with `code`, and left no
    /// session: a console page sends the browser to sign in. The callback's
    /// URL and the refusal's words.
    async fn refused(&self, code: &str) -> (Url, String) {
        let url = self.c.current_url().await.unwrap();
        assert_eq!(url.path(), "/console/oidc/callback", "expected a refusal ({code}) at the callback, at {url}: {}", text_of(&self.c, "body").await);
        let alert = text_of(&self.c, "[role=alert]").await;
        assert!(alert.contains(&format!("({code})")), "the sign-in page does not say {code}: {alert}");
        assert!(self.c.find(Locator::Css("#oidc-production")).await.is_ok(), "the refusal is not on the sign-in page");
        assert!(self.c.get_named_cookie(SESSION).await.is_err(), "a refused sign-in ({code}) left a session cookie");
        assert!(self.c.get_named_cookie(STATE).await.is_err(), "a refused sign-in ({code}) kept its state cookie");
        self.goto(&format!("{}/console/cases", self.base)).await;
        assert_at(&self.c, "/console/login").await;
        (url, alert)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_team_signs_in_through_a_real_provider_and_every_bad_callback_is_refused() {
    let Some(driver) = chromedriver() else {
        eprintln!("skipped: no chromedriver (scripts/test.sh installs it)");
        return;
    };
    let Some(modules) = browser_tools() else {
        eprintln!("skipped: CGW_BROWSER_TOOLS is not set (scripts/test.sh installs the browser tools)");
        return;
    };
    let axe = std::fs::read_to_string(std::env::var("CGW_AXE_JS").expect("CGW_AXE_JS names axe.min.js")).expect("read axe-core");
    let started = Instant::now();
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("client-secret");
    std::fs::write(&secret, "the console's secret at the provider\n").unwrap();
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let redirect_uri = format!("{base}/console/oidc/callback");

    // the two providers and the browser start together
    let ours = start_provider(&modules, &redirect_uri, &secret, "localhost", dir.path().join("provider.log"));
    let theirs = start_provider(&modules, &redirect_uri, &secret, "127.0.0.1", dir.path().join("other-provider.log"));
    let driver_port = free_port();
    let _driver = Killed(Command::new(&driver).arg(format!("--port={driver_port}")).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap());
    let profile = tempfile::tempdir().unwrap();
    let browser = tokio::spawn(browser_session(driver_port, profile.path().to_path_buf()));
    let (ours, theirs) = (ours.ready(), theirs.ready());
    let issuer = ours.issuer.clone();
    assert!(issuer.starts_with("http://localhost:") && theirs.issuer.starts_with("http://127.0.0.1:"), "{issuer} {}", theirs.issuer);

    // people linked to the provider's subjects; one of them disabled
    let database = format!("sqlite://{}", dir.path().join("g.db").display());
    let mut ada = String::new();
    for login in ["ada", "dora", LATE] {
        let email = format!("{login}@example.com");
        let made = cli(&[
            "console-user",
            "create",
            "--email",
            &email,
            "--role",
            "reviewer",
            "--environment",
            "production",
            "--oidc-subject",
            login,
            "--oidc-issuer",
            &issuer,
            "--database",
            &database,
        ]);
        let made: serde_json::Value = serde_json::from_str(&made).unwrap();
        assert!(made["password"].is_null() && made["totp_secret"].is_null(), "a provider's account with a password: {made}");
        if login == "ada" {
            ada = made["user_id"].as_str().unwrap().to_string();
        }
    }
    cli(&["console-user", "disable", "--email", "dora@example.com", "--environment", "production", "--database", &database]);
    let secret_arg = secret.display().to_string();
    let oidc = ["--oidc-issuer", &issuer, "--oidc-client-id", CLIENT, "--oidc-client-secret-file", &secret_arg];
    let _server = ServeProcess::start_with(&database, port, None, &oidc, Stdio::null()).await;

    let c = browser.await.unwrap();
    let console = Console { c, base: base.clone() };
    let c = &console.c;

    // 1. Ada clicks "Sign in with …", signs in at the provider's page and is in the console.
    console.goto(&format!("{base}/console/login")).await;
    check_page(c, &axe, "the sign-in page with the provider").await;
    assert_eq!(text_of(c, "#oidc-production").await, format!("Sign in with {issuer}"));
    console.sign_in_as(&issuer, "ada").await;
    console.signed_in(&ada).await;
    check_page(c, &axe, "the queue after signing on").await;
    console.sign_out().await;
    // the twin: a subject the provider knows and no account is linked to
    console.sign_in_as(&issuer, "mallory").await;
    console.refused("oidc_unknown_person").await;

    // 6. A disabled person is refused (the twin: Ada, enabled, above).
    console.sign_in_as(&issuer, "dora").await;
    console.refused("oidc_disabled").await;
    check_page(c, &axe, "a refusal on the sign-in page").await;

    // 2. A callback in a browser that began no sign-in (no state cookie): refused; it spends nothing.
    let (authorize, state) = console.begin().await;
    console.goto(authorize.as_str()).await;
    console.at_provider_sign_in_as(&issuer, "ada").await;
    let (callback, _) = console.refused("oidc_state").await;
    assert_eq!(param(&callback, "state"), state);
    // a state changed on the way, in the browser that began the sign-in: refused
    console.keep_state(&state).await;
    let (_, another_state) = console.begin().await;
    console.goto(with_param(&callback, "state", &another_state).as_str()).await;
    console.refused("oidc_state").await;
    // the twin: the same callback, unchanged, in the browser that began it signs in
    console.keep_state(&state).await;
    console.goto(callback.as_str()).await;
    console.signed_in(&ada).await;
    console.sign_out().await;

    // the expired code's sign-in, begun now: its callback is kept from the console (no state cookie) for its code to expire
    let (authorize, late_state) = console.begin().await;
    console.goto(authorize.as_str()).await;
    console.at_provider_sign_in_as(&issuer, LATE).await;
    let (late_callback, _) = console.refused("oidc_state").await;
    let expired = Instant::now() + Duration::from_millis(1_500);

    // 3. The callback replayed: in this browser after signing out (the state cookie went with the sign-in) ...
    console.goto(callback.as_str()).await;
    console.refused("oidc_state").await;
    // ... with the state cookie kept (the sign-in was finished once) ...
    console.keep_state(&state).await;
    console.goto(callback.as_str()).await;
    console.refused("oidc_state").await;
    // ... and its spent code in a sign-in begun anew: the provider refuses it
    let (_, fresh_state) = console.begin().await;
    console.keep_state(&fresh_state).await;
    console.goto(with_param(&callback, "state", &fresh_state).as_str()).await;
    console.refused("oidc_code").await;

    // 4. An ID token with the nonce of another sign-in: the authorization request's nonce is changed on its way
    let (authorize, state) = console.begin().await;
    let (other, _) = console.begin().await;
    console.keep_state(&state).await;
    console.goto(with_param(&authorize, "nonce", &param(&other, "nonce")).as_str()).await;
    console.at_provider_sign_in_as(&issuer, "ada").await;
    let (_, alert) = console.refused("oidc_token").await;
    assert!(alert.contains("nonce"), "not refused for its nonce: {alert}");
    // crossed callbacks: another sign-in's callback in this browser is refused by its state ...
    let (_, first_state) = console.begin().await;
    let (second, _) = console.begin().await;
    console.keep_state(&first_state).await;
    console.goto(second.as_str()).await;
    console.at_provider_sign_in_as(&issuer, "ada").await;
    let (crossed, _) = console.refused("oidc_state").await;
    // ... and its code under this browser's state by the provider: PKCE binds a code to its sign-in, before any nonce is read
    console.keep_state(&first_state).await;
    console.goto(with_param(&crossed, "state", &first_state).as_str()).await;
    console.refused("oidc_code").await;

    // 5. A code of another issuer: the same authorization request, sent to the other provider (same client and secret)
    let (authorize, state) = console.begin().await;
    console.keep_state(&state).await;
    let mut elsewhere = Url::parse(&theirs.issuer).unwrap();
    elsewhere.set_path(authorize.path());
    elsewhere.set_query(authorize.query());
    console.goto(elsewhere.as_str()).await;
    console.at_provider_sign_in_as(&theirs.issuer, "ada").await;
    // the callback names its issuer (RFC 9207): refused before the sign-in is spent
    let (foreign, _) = console.refused("oidc_issuer").await;
    assert_eq!(param(&foreign, "iss"), theirs.issuer, "the callback did not come from the other issuer");
    // without its `iss`, the other issuer's code is refused by this one's token endpoint
    let mut unnamed = foreign.clone();
    let kept: Vec<(String, String)> =
        foreign.query_pairs().filter(|(name, _)| name != "iss").map(|(n, v)| (n.into_owned(), v.into_owned())).collect();
    unnamed.query_pairs_mut().clear().extend_pairs(kept);
    console.keep_state(&state).await;
    console.goto(unnamed.as_str()).await;
    console.refused("oidc_code").await;

    // a code for another audience: the request names another client of the same provider
    let (authorize, state) = console.begin().await;
    console.keep_state(&state).await;
    console.goto(with_param(&authorize, "client_id", OTHER_CLIENT).as_str()).await;
    console.at_provider_sign_in_as(&issuer, "ada").await;
    console.refused("oidc_code").await;

    // the twin of 4 and 5: a sign-in begun the same way, unchanged, at this provider, signs in
    let (authorize, state) = console.begin().await;
    console.keep_state(&state).await;
    console.goto(authorize.as_str()).await;
    console.at_provider_sign_in_as(&issuer, "ada").await;
    console.signed_in(&ada).await;
    console.sign_out().await;

    // the expired code, given to the browser that began its sign-in after its second (the twin: 2's, in time)
    tokio::time::sleep_until(expired.into()).await;
    console.keep_state(&late_state).await;
    console.goto(late_callback.as_str()).await;
    console.refused("oidc_code").await;

    // 6. Ada disabled, while the server runs, is refused from her next sign-in
    cli(&["console-user", "disable", "--email", "ada@example.com", "--environment", "production", "--database", &database]);
    console.sign_in_as(&issuer, "ada").await;
    console.refused("oidc_disabled").await;

    console.c.clone().close().await.unwrap();
    eprintln!("sign-on through a real provider: {:.1} s", started.elapsed().as_secs_f64());
}
