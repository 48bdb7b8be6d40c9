//! The compliance team's day in a real browser (Debian's Chromium, driven
//! through chromedriver with fantoccini): sign in with a computed TOTP code,
//! change the one-time password, filter the queue, see a case go overdue
//! when the sandbox clock moves, assign it, be refused an empty reason,
//! propose, be refused one's own approval, approve as a second person, see
//! the case closed through the API and `sanctions.cleared` delivered, and
//! find each step in the audit log and its CSV. Every page is scanned with
//! axe-core (no serious or critical violation) and reports no CSP violation.
//!
//! The same walk runs against the native host (people made by the command
//! line, two approvers: the proposer's own approval is refused as
//! self-approval) and against the edge host under the local Workers runtime
//! (people made by `POST /v1/admin/people`, two to each account: the key's
//! admin and a second one found the team, both enable the key's reviewer,
//! one proposes the approver and the other enables it; the reviewer
//! proposes, and its approval is refused by role), when
//! `CGW_EDGE_CONFORMANCE=1` says the edge is built (`scripts/test.sh`).
//!
//! Runs where chromedriver is (`scripts/test.sh` installs it and sets
//! `CGW_BROWSER_TESTS=1`, which makes a missing browser a failure), with
//! axe-core's script at `CGW_AXE_JS`.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

#[path = "support/browser.rs"]
mod browser;
mod support;

use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use browser::{check_page, chromedriver, click, fill, text_of};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value as Json};
use support::{cli, free_port, Killed, ServeProcess};
use totp_rs::{Algorithm, Secret, TOTP};

fn code_now(secret: &str) -> String {
    let bytes = Secret::Encoded(secret.to_string()).to_bytes().unwrap();
    TOTP::new(Algorithm::SHA1, 6, 1, 30, bytes).unwrap().generate_current().unwrap()
}

async fn api(base: &str, key: &str, method: reqwest::Method, path: &str, body: Option<Json>) -> (u16, Json) {
    let mut request = reqwest::Client::new().request(method, format!("{base}{path}")).bearer_auth(key);
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Json::Null))
}

/// No CSP violation on the page, and no serious or critical axe-core finding.
async fn body_text(c: &Client) -> String {
    text_of(c, "body").await
}

/// The browser is on `path`; otherwise the page says why not.
async fn assert_at(c: &Client, path: &str) {
    let url = c.current_url().await.unwrap();
    assert!(url.path().ends_with(path), "expected {path}, at {url}: {}", c.source().await.unwrap_or_default());
}

/// Signs in with the one-time password and a fresh code, then chooses a password.
async fn sign_in_first_time(c: &Client, base: &str, axe: &str, account: &Json) {
    c.goto(&format!("{base}/console/login")).await.unwrap();
    check_page(c, axe, "login").await;
    fill(c, "#email", account["email"].as_str().unwrap()).await;
    fill(c, "#password", account["password"].as_str().unwrap()).await;
    fill(c, "#totp", &code_now(account["totp_secret"].as_str().unwrap())).await;
    click(c, "form button[type=submit]").await;
    let url = c.current_url().await.unwrap();
    assert!(url.path().ends_with("/console/account"), "the first sign-in did not ask for a new password: {url}: {}", body_text(c).await);
    check_page(c, axe, "account").await;
    fill(c, "#current_password", account["password"].as_str().unwrap()).await;
    fill(c, "#new_password", "correct horse battery staple").await;
    click(c, "button[name=action][value=password]").await;
    assert_at(c, "/console/cases").await;
}

/// A host the walk runs against: its address and a sandbox admin key.
struct Host {
    base: String,
    admin: String,
}

/// The people of the walk: `alice` proposes (and is refused her own
/// approval with `refusal` in the page's alert), `bob` approves.
struct Team {
    alice: Json,
    bob: Json,
    refusal: &'static str,
}

/// The native host on a fresh SQLite file, with four-eyes in the sandbox;
/// two approvers made by `console-user create`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reviewer_and_an_approver_do_their_day_in_the_browser() {
    let Some(driver) = chromedriver() else {
        eprintln!("skipped: no chromedriver (scripts/test.sh installs it)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let database = format!("sqlite://{}", dir.path().join("g.db").display());
    let admin = cli(&["admin-key", "create", "--environment", "sandbox", "--database", &database]);
    let server = ServeProcess::start_with(&database, free_port(), None, &["--four-eyes", "sandbox,production"], Stdio::null()).await;
    let person = |email: &str| -> Json {
        serde_json::from_str(&cli(&[
            "console-user",
            "create",
            "--email",
            email,
            "--role",
            "approver",
            "--environment",
            "sandbox",
            "--database",
            &database,
        ]))
        .unwrap()
    };
    let team = Team { alice: person("alice@example.com"), bob: person("bob@example.com"), refusal: "other than its proposer" };
    walk(&driver, &Host { base: server.base.clone(), admin }, &team).await;
}

/// The edge host's process group, ended when dropped (node and its workerd).
struct EdgeProcess(std::process::Child);

impl Drop for EdgeProcess {
    fn drop(&mut self) {
        if let Ok(pid) = i32::try_from(self.0.id()) {
            // SAFETY: kill(2) on the process group this test created.
            unsafe {
                libc::kill(-pid, libc::SIGTERM);
            }
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The same walk on the edge host (`scripts/edge.sh serve`, four-eyes in the
/// sandbox): the team is made through `POST /v1/admin/people`, two people
/// to each account: the key founds the team with an admin, the local tools
/// (the edge's command line) make a second; the key's reviewer is enabled by
/// both admins, and the approver one admin made by the other.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_day_on_the_edge_with_people_made_through_the_api() {
    if std::env::var("CGW_EDGE_CONFORMANCE").as_deref() != Ok("1") {
        eprintln!("skipped: set CGW_EDGE_CONFORMANCE=1 once scripts/edge.sh build has run");
        return;
    }
    let Some(driver) = chromedriver() else {
        eprintln!("skipped: no chromedriver (scripts/test.sh installs it)");
        return;
    };
    let script = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts/edge.sh");
    let state = tempfile::tempdir().unwrap();
    let out = Command::new(&script).args(["admin-key", "--environment", "sandbox", "--state"]).arg(state.path()).output().unwrap();
    assert!(out.status.success(), "edge.sh admin-key: {}", String::from_utf8_lossy(&out.stderr));
    let admin = String::from_utf8_lossy(&out.stdout).trim().to_string();
    // the runtime takes a free port itself and names it in the port file: a
    // port picked in advance may be taken meanwhile by another runtime's sockets
    let port_file = state.path().join("serving.port");
    let mut command = Command::new(&script);
    command
        .args(["serve", "--local-tools", "--port", "0", "--port-file"])
        .arg(&port_file)
        .arg("--state")
        .arg(state.path())
        .env("CGW_FOUR_EYES", "sandbox,production")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit());
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let mut edge = EdgeProcess(command.spawn().unwrap());
    let listening = Instant::now() + Duration::from_secs(600);
    let port = loop {
        if let Ok(text) = std::fs::read_to_string(&port_file) {
            break text.trim().parse::<u16>().unwrap();
        }
        assert!(edge.0.try_wait().unwrap().is_none(), "scripts/edge.sh serve exited before it listened");
        assert!(Instant::now() < listening, "scripts/edge.sh serve did not listen within 600 s");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let _edge = edge;
    let base = format!("http://127.0.0.1:{port}");
    let deadline = Instant::now() + Duration::from_secs(120);
    while reqwest::get(format!("{base}/v1/health")).await.map(|r| r.status().as_u16()).ok() != Some(200) {
        assert!(Instant::now() < deadline, "the edge host did not answer /v1/health in 120 s");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let make = |email: &'static str, role: &'static str| {
        let (base, admin) = (base.clone(), admin.clone());
        async move {
            let (status, made) = api(&base, &admin, reqwest::Method::POST, "/v1/admin/people", Some(json!({ "email": email, "role": role }))).await;
            assert_eq!(status, 201, "POST /v1/admin/people {email} {role}: {made}");
            made
        }
    };
    // the key founds the team with its admin; the edge's command line (the local tools) makes a second admin
    let ada = make("ada@example.com", "admin").await;
    assert_eq!(ada["state"], "enabled", "{ada}");
    let url = format!("{base}/__local/console-user?environment=sandbox&email=abe%40example.com&role=admin");
    let abe: Json = reqwest::Client::new().post(url).send().await.unwrap().json().await.unwrap();
    // the key makes no approving role once there are two admins (four-eyes applies here), and its reviewer waits for both
    let (status, refused) =
        api(&base, &admin, reqwest::Method::POST, "/v1/admin/people", Some(json!({ "email": "eve@example.com", "role": "approver" }))).await;
    assert_eq!((status, refused["error"].as_str()), (403, Some("person_required")), "{refused}");
    let alice = make("alice@example.com", "reviewer").await;
    assert_eq!(alice["state"], "disabled", "{alice}");
    let (ada_session, abe_session) = (first_session(&base, &ada).await, first_session(&base, &abe).await);
    let enable = |session: String, made: Json| {
        let base = base.clone();
        async move {
            let path = format!("/v1/admin/people/{}/enable", made["user_id"].as_str().unwrap());
            api(&base, &session, reqwest::Method::POST, &path, Some(json!({}))).await
        }
    };
    let (status, asked) = enable(ada_session.clone(), alice.clone()).await;
    assert_eq!((status, asked["state"].as_str()), (202, Some("enable_proposed")), "{asked}");
    let (status, enabled) = enable(abe_session.clone(), alice.clone()).await;
    assert_eq!((status, enabled["state"].as_str()), (200, Some("enabled")), "{enabled}");
    // the admin proposes the approver; the other admin enables it
    let (status, bob) =
        api(&base, &ada_session, reqwest::Method::POST, "/v1/admin/people", Some(json!({ "email": "bob@example.com", "role": "approver" }))).await;
    assert_eq!((status, bob["state"].as_str()), (201, Some("enable_proposed")), "the admin proposes the approver: {bob}");
    let (status, enabled) = enable(abe_session, bob.clone()).await;
    assert_eq!((status, enabled["state"].as_str()), (200, Some("enabled")), "{enabled}");
    let team = Team { alice, bob, refusal: "may not approve" };
    walk(&driver, &Host { base, admin }, &team).await;
}

/// Signs in a made account through the API for the first time and changes
/// its one-time password: its session token.
async fn first_session(base: &str, made: &Json) -> String {
    let (email, password) = (made["email"].as_str().unwrap(), made["password"].as_str().unwrap());
    let body = json!({ "environment": "sandbox", "email": email, "password": password, "totp": code_now(made["totp_secret"].as_str().unwrap()) });
    let response = reqwest::Client::new().post(format!("{base}/v1/admin/sessions")).json(&body).send().await.unwrap();
    let status = response.status().as_u16();
    let signed_in: Json = response.json().await.unwrap_or(Json::Null);
    assert_eq!(status, 201, "{signed_in}");
    let token = signed_in["session_token"].as_str().unwrap().to_string();
    let change = json!({ "password": password, "new_password": "a long new password of ada's" });
    let (status, changed) = api(base, &token, reqwest::Method::POST, "/v1/admin/people/me/password", Some(change)).await;
    assert_eq!(status, 200, "{changed}");
    token
}

/// The compliance team's day, on `host`, driven through chromedriver.
async fn walk(driver: &str, host: &Host, team: &Team) {
    let axe = std::fs::read_to_string(std::env::var("CGW_AXE_JS").expect("CGW_AXE_JS names axe.min.js")).expect("read axe-core");
    let (base, admin) = (host.base.clone(), host.admin.clone());
    let (alice, bob) = (&team.alice, &team.bob);

    // An operator with a webhook, and a signup that is a hit.
    let (_, tenant) = api(&base, &admin, reqwest::Method::POST, "/v1/admin/tenants", Some(json!({ "name": "acme", "environment": "sandbox" }))).await;
    let key = tenant["api_key"].as_str().unwrap().to_string();
    let seen = Arc::new(Mutex::new(Vec::<String>::new()));
    let record = seen.clone();
    let hook = support::loopback_server(move |r: &support::Received<'_>| {
        record.lock().unwrap().push(String::from_utf8_lossy(r.body).into_owned());
        (200, b"ok".to_vec())
    })
    .await
    .unwrap()
    .port();
    let (status, webhook) =
        api(&base, &key, reqwest::Method::POST, "/v1/webhooks", Some(json!({ "url": format!("http://127.0.0.1:{hook}/hook") }))).await;
    assert_eq!(status, 201, "{webhook}");
    let identity = json!({ "user_id": "u-browser", "first_name": "SanctionedSam", "last_name": "Lee", "date_of_birth": "1980-01-01", "nationality": "GB", "email": "u@example.com" });
    let (_, hit) = api(&base, &key, reqwest::Method::POST, "/v1/sanctions/screen", Some(identity)).await;
    let case_id = hit["case_id"].as_str().unwrap().to_string();

    let driver_port = free_port();
    let _driver = Killed(Command::new(driver).arg(format!("--port={driver_port}")).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap());
    let profile = tempfile::tempdir().unwrap();
    let mut capabilities = serde_json::Map::new();
    let args = [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
    ];
    let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    args.push(format!("--user-data-dir={}", profile.path().display()));
    capabilities.insert(
        "goog:chromeOptions".into(),
        json!({ "binary": std::env::var("CGW_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into()), "args": args }),
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    let c = loop {
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        match ClientBuilder::new(connector).capabilities(capabilities.clone()).connect(&format!("http://127.0.0.1:{driver_port}")).await {
            Ok(client) => break client,
            Err(e) => {
                assert!(Instant::now() < deadline, "chromedriver did not start a session: {e}");
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    };

    // Alice signs in, filters the queue, sees the case go overdue, assigns it and proposes.
    sign_in_first_time(&c, &base, &axe, alice).await;
    c.find(Locator::Css("#f-type")).await.unwrap().select_by_value("sanctions_hit").await.unwrap();
    click(&c, "form.filters button[type=submit]").await;
    assert!(c.current_url().await.unwrap().query().unwrap_or_default().contains("type=sanctions_hit"), "the filter is not kept in the URL");
    check_page(&c, &axe, "queue").await;
    let row = format!("tr[data-case-id='{case_id}']");
    assert_eq!(c.find(Locator::Css(&row)).await.unwrap().attr("data-overdue").await.unwrap(), None);
    let (status, _) = api(&base, &key, reqwest::Method::POST, "/v1/sandbox/clock", Some(json!({ "advance_seconds": 49 * 3_600 }))).await;
    assert_eq!(status, 200);
    let here = c.current_url().await.unwrap();
    c.goto(here.as_str()).await.unwrap();
    assert_eq!(c.find(Locator::Css(&row)).await.unwrap().attr("data-overdue").await.unwrap().as_deref(), Some("true"), "no overdue badge");
    assert!(text_of(&c, &row).await.contains("Overdue"));

    click(&c, &format!("a[href='/console/cases/{case_id}']")).await;
    check_page(&c, &axe, "case").await;
    let matches = c.find_all(Locator::Css("section[aria-labelledby=subject-heading] tbody tr")).await.unwrap();
    assert!(!matches.is_empty(), "the case page shows no match beside the subject");
    assert!(text_of(&c, "section[aria-labelledby=subject-heading] tbody tr").await.contains("0."), "the match shows no score");
    c.find(Locator::Css("#assignee")).await.unwrap().select_by_value("me").await.unwrap();
    click(&c, "button[name=action][value=assign]").await;
    assert!(text_of(&c, "[role=status]").await.contains("Assigned"));
    // an empty reason is refused, then a proposal with a reason
    click(&c, "button[name=action][value=propose]").await;
    assert!(text_of(&c, "[role=alert]").await.contains("reason"), "an empty reason was not refused");
    assert_eq!(text_of(&c, "#case-status").await, "open");
    fill(&c, "#reason", "Born 1980 in GB; the listed person is not this customer.").await;
    click(&c, "button[name=action][value=propose]").await;
    assert!(text_of(&c, "[role=status]").await.contains("Proposed"));
    assert_eq!(text_of(&c, "#case-status").await, "pending_approval");
    // her own approval is refused
    click(&c, "button[name=action][value=approve]").await;
    let alert = text_of(&c, "[role=alert]").await;
    assert!(alert.contains(team.refusal), "her own approval was not refused ({}): {alert}", team.refusal);
    check_page(&c, &axe, "case with a proposal").await;

    // the sign-in left the device's token (issue #48 item 4): HttpOnly, kept past the session
    let device = c.get_named_cookie("__Host-cgw_device").await.expect("the console kept no device token");
    assert!(device.value().starts_with("dev_") && device.http_only() == Some(true), "{device:?}");

    // A form without the session's CSRF token, or from another origin, is refused.
    let cookie = c.get_named_cookie("__Host-cgw_session").await.unwrap().value().to_string();
    let no_redirects = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let post = |csrf: &str, origin: &str| {
        no_redirects
            .post(format!("{base}/console/cases/{case_id}"))
            .header("cookie", format!("__Host-cgw_session={cookie}"))
            .header("origin", origin)
            .header("content-type", "application/x-www-form-urlencoded")
            .body(format!("csrf={csrf}&action=comment&comment=forged"))
    };
    assert_eq!(post("", &base).send().await.unwrap().status().as_u16(), 403);
    let csrf = c.find(Locator::Css("input[name=csrf]")).await.unwrap().attr("value").await.unwrap().unwrap();
    assert_eq!(post(&csrf, "http://evil.example").send().await.unwrap().status().as_u16(), 403);
    assert_eq!(post(&csrf, &base).send().await.unwrap().status().as_u16(), 303, "the twin: the same form from this console is taken");

    click(&c, "form.signout button").await;
    assert_at(&c, "/console/login").await;

    // Bob signs in and approves: the decision takes effect.
    sign_in_first_time(&c, &base, &axe, bob).await;
    c.goto(&format!("{base}/console/cases/{case_id}")).await.unwrap();
    click(&c, "button[name=action][value=approve]").await;
    assert!(text_of(&c, "[role=status]").await.contains("Approved"));
    assert_eq!(text_of(&c, "#case-status").await, "closed");
    check_page(&c, &axe, "closed case").await;
    let (_, file) = api(&base, &admin, reqwest::Method::GET, &format!("/v1/admin/cases/{case_id}"), None).await;
    assert_eq!(file["status"], "closed", "{file}");
    let (_, status) = api(&base, &key, reqwest::Method::GET, "/v1/sanctions/status?user_id=u-browser", None).await;
    assert_eq!(status["status"], "cleared", "{status}");
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let cleared = seen.lock().unwrap().iter().any(|b| b.contains("sanctions.cleared") && b.contains(&case_id));
        if cleared {
            break;
        }
        assert!(Instant::now() < deadline, "sanctions.cleared was not delivered");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // The audit log shows each step; its CSV too, and the export is logged.
    c.goto(&format!("{base}/console/audit")).await.unwrap();
    check_page(&c, &axe, "audit").await;
    let log = body_text(&c).await;
    for action in ["console.sign_in", "console_user.password_change", "case.take", "case.propose", "case.approve"] {
        assert!(log.contains(action), "the audit log lacks {action}: {log}");
    }
    let href = c.find(Locator::Css("#audit-csv")).await.unwrap().attr("href").await.unwrap().unwrap();
    let cookie = c.get_named_cookie("__Host-cgw_session").await.unwrap().value().to_string();
    let csv = reqwest::Client::new().get(format!("{base}{href}")).header("cookie", format!("__Host-cgw_session={cookie}")).send().await.unwrap();
    assert_eq!(csv.status().as_u16(), 200);
    let csv = csv.text().await.unwrap();
    assert!(csv.starts_with("at,action,actor,resource,tenant_id,request_id"), "{csv}");
    assert!(csv.contains("case.approve") && csv.contains(bob["user_id"].as_str().unwrap()), "{csv}");
    c.refresh().await.unwrap();
    assert!(body_text(&c).await.contains("console.audit_export"), "the export was not logged");

    // An AML case: its alerts with each rule's evidence, the report bundle and the CTR candidates to save.
    let cash_player = json!({ "user_id": "u-cash", "first_name": "Ann", "last_name": "Lee", "date_of_birth": "1980-01-01", "nationality": "GB", "email": "c@example.com" });
    assert_eq!(api(&base, &key, reqwest::Method::POST, "/v1/sanctions/screen", Some(cash_player)).await.0, 201);
    let cash = json!({ "transaction_id": "tx-cash", "user_id": "u-cash", "event_type": "deposit", "amount_cents": 1_000_001, "currency": "USD", "payment_method": "cash" });
    let (status, event) = api(&base, &key, reqwest::Method::POST, "/v1/aml/event", Some(cash)).await;
    assert_eq!(status, 202, "{event}");
    let (_, alerts) = api(&base, &admin, reqwest::Method::GET, "/v1/admin/aml/alerts?user_id=u-cash", None).await;
    let aml_case = alerts["alerts"][0]["case_id"].as_str().unwrap().to_string();
    c.goto(&format!("{base}/console/cases/{aml_case}")).await.unwrap();
    check_page(&c, &axe, "AML case").await;
    let page = body_text(&c).await;
    assert!(page.contains("aml.ctr_threshold") && page.contains("cash_in_cents 1000001"), "the AML case page lacks the rule's evidence: {page}");
    let saved = |path: String| {
        let cookie = format!("__Host-cgw_session={cookie}");
        let url = format!("{base}{path}");
        async move { reqwest::Client::new().get(url).header("cookie", cookie).send().await.unwrap() }
    };
    let bundle = saved(format!("/console/cases/{aml_case}/report.json")).await;
    assert_eq!(bundle.status().as_u16(), 200);
    let bundle: Json = bundle.json().await.unwrap();
    assert_eq!(bundle["rules_sha256"].as_str().map(str::len), Some(64), "{bundle}");
    let ctr = saved("/console/aml/ctr-candidates.csv".into()).await.text().await.unwrap();
    assert!(ctr.starts_with("tenant_id,user_id,gaming_day_start,cash_in_cents") && ctr.contains("u-cash,") && ctr.contains(",1000001,"), "{ctr}");
    c.close().await.unwrap();
}
