//! `compliance-gateway console-user create|disable`: console accounts for
//! the compliance team, made from the command line and signed in to with
//! the one-time password and a TOTP code; on SQLite and Postgres.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod support;

use std::process::Command;
use std::sync::atomic::AtomicI64;
use std::sync::Arc;

use gateway::auth::Environment;
use gateway::people::Role;
use gateway::{Config, Gateway};
use host_native::rules_engine::ComponentRules;
use host_native::{open_store, OsIds};
use serde_json::Value as Json;
use support::TestClock;
use totp_rs::{Algorithm, Secret, TOTP};

const BIN: &str = env!("CARGO_BIN_EXE_compliance-gateway");
/// The host key of the Postgres runs (each host of a shared database needs the same one).
const PG_KEY: &str = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";

fn console_user(db: &str, args: &[&str]) -> (bool, String, String) {
    let mut command = Command::new(BIN);
    command.arg("console-user").args(args).args(["--database", db]);
    if !db.starts_with("sqlite:") {
        command.env("GATEWAY_SECRET_KEY", PG_KEY);
    }
    let out = command.output().unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

fn code(secret: &str, at: i64) -> String {
    let bytes = Secret::Encoded(secret.to_string()).to_bytes().unwrap();
    TOTP::new(Algorithm::SHA1, 6, 1, 30, bytes).unwrap().generate(at as u64)
}

async fn accounts_are_made_signed_in_to_and_disabled(db: &str) {
    let (ok, out, err) = console_user(db, &["create", "--email", "Ana.Reviewer@Example.com", "--role", "reviewer", "--environment", "production"]);
    assert!(ok, "{err}");
    let created: Json = serde_json::from_str(out.trim()).unwrap();
    let keys: Vec<&str> = created.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["email", "oidc_subject", "password", "role", "state", "totp_secret", "user_id"], "{created}");
    for key in ["user_id", "email", "role", "password", "totp_secret"] {
        assert!(created[key].is_string(), "{key}: {created}");
    }
    // the host's operator makes a usable account at once, four-eyes or not
    assert_eq!((created["state"].as_str(), created["oidc_subject"].as_str()), (Some("enabled"), None), "{created}");
    assert_eq!((created["email"].as_str(), created["role"].as_str()), (Some("ana.reviewer@example.com"), Some("reviewer")));
    let (password, secret) = (created["password"].as_str().unwrap().to_string(), created["totp_secret"].as_str().unwrap().to_string());
    assert!(password.len() >= 20, "a short one-time password: {password}");
    assert_eq!(Secret::Encoded(secret.clone()).to_bytes().unwrap().len(), 20, "the TOTP secret is not 160 bits");

    // The same address again, an unknown role, a bad address: refused.
    let (ok, _, err) = console_user(db, &["create", "--email", "ana.reviewer@example.com", "--role", "approver", "--environment", "production"]);
    assert!(!ok && err.contains("email_taken"), "{err}");
    let (ok, _, err) = console_user(db, &["create", "--email", "b@example.com", "--role", "root", "--environment", "production"]);
    assert!(!ok && err.contains("root"), "{err}");
    let (ok, _, err) = console_user(db, &["create", "--email", "not-an-address", "--role", "approver", "--environment", "production"]);
    assert!(!ok && err.contains("invalid_field"), "{err}");
    // Another environment is another account.
    let (ok, _, err) = console_user(db, &["create", "--email", "ana.reviewer@example.com", "--role", "approver", "--environment", "sandbox"]);
    assert!(ok, "{err}");

    let key = if db.starts_with("sqlite:") { None } else { Some(PG_KEY) };
    let keys = host_native::load_secret_keys(db, key, None, &[]).unwrap();
    let now = Arc::new(AtomicI64::new(1_800_000_000));
    let gateway = Gateway::new(
        open_store(db).await.unwrap(),
        Box::new(ComponentRules::embedded().unwrap()),
        Box::new(TestClock(now.clone())),
        Box::new(OsIds),
        Config { secret_keys: Some(keys), ..Config::default() },
    );
    let at = 1_800_000_000;
    let signed_in = gateway.sign_in(Environment::Production, "ana.reviewer@example.com", &password, &code(&secret, at), None).await.unwrap();
    assert_eq!((signed_in.role, signed_in.must_change_password), (Role::Reviewer, true));
    // A code is good once; a wrong code, a wrong password, another environment: refused alike.
    let refused = |r: Result<_, gateway::error::ApiError>| r.map(|_: gateway::people::SignedIn| ()).unwrap_err().code;
    assert_eq!(
        refused(gateway.sign_in(Environment::Production, "ana.reviewer@example.com", &password, &code(&secret, at), None).await),
        "invalid_credentials"
    );
    now.store(at + 30, std::sync::atomic::Ordering::SeqCst);
    assert_eq!(refused(gateway.sign_in(Environment::Production, "ana.reviewer@example.com", &password, "000000", None).await), "invalid_credentials");
    assert_eq!(
        refused(gateway.sign_in(Environment::Production, "ana.reviewer@example.com", "wrong", &code(&secret, at + 30), None).await),
        "invalid_credentials"
    );
    assert_eq!(
        refused(gateway.sign_in(Environment::Production, "nobody@example.com", &password, &code(&secret, at + 30), None).await),
        "invalid_credentials"
    );
    now.store(at + 60, std::sync::atomic::Ordering::SeqCst);
    assert!(gateway.sign_in(Environment::Production, "ana.reviewer@example.com", &password, &code(&secret, at + 60), None).await.is_ok());

    // Five failures in a row lock the account for 15 minutes: then even the
    // right password and code are refused, alike; after, they are accepted.
    for attempt in 0..5 {
        now.store(at + 90 + attempt * 30, std::sync::atomic::Ordering::SeqCst);
        assert_eq!(
            refused(gateway.sign_in(Environment::Production, "ana.reviewer@example.com", "wrong", "123456", None).await),
            "invalid_credentials"
        );
    }
    let locked_at = at + 90 + 4 * 30;
    now.store(locked_at + 60, std::sync::atomic::Ordering::SeqCst);
    let right = || code(&secret, locked_at + 60);
    assert_eq!(refused(gateway.sign_in(Environment::Production, "ana.reviewer@example.com", &password, &right(), None).await), "invalid_credentials");
    now.store(locked_at + 15 * 60 + 30, std::sync::atomic::Ordering::SeqCst);
    let after = code(&secret, locked_at + 15 * 60 + 30);
    assert!(
        gateway.sign_in(Environment::Production, "ana.reviewer@example.com", &password, &after, None).await.is_ok(),
        "still locked after 15 minutes"
    );
    // four failures and a success start the count again
    for attempt in 1..=4 {
        now.store(locked_at + 15 * 60 + 30 + attempt * 30, std::sync::atomic::Ordering::SeqCst);
        assert!(gateway.sign_in(Environment::Production, "ana.reviewer@example.com", "wrong", "123456", None).await.is_err());
    }
    let later = locked_at + 15 * 60 + 30 + 5 * 30;
    now.store(later, std::sync::atomic::Ordering::SeqCst);
    assert!(gateway.sign_in(Environment::Production, "ana.reviewer@example.com", &password, &code(&secret, later), None).await.is_ok());
    let at = later;

    // Disabled: no sign-in, whatever the code.
    let (ok, out, err) = console_user(db, &["disable", "--email", "ana.reviewer@example.com", "--environment", "production"]);
    assert!(ok && out.contains("\"disabled\":true"), "{err}");
    now.store(at + 90, std::sync::atomic::Ordering::SeqCst);
    assert_eq!(
        refused(gateway.sign_in(Environment::Production, "ana.reviewer@example.com", &password, &code(&secret, at + 90), None).await),
        "invalid_credentials"
    );
    let (ok, _, err) = console_user(db, &["disable", "--email", "nobody@example.com", "--environment", "production"]);
    assert!(!ok && err.contains("not_found"), "{err}");
    // Both changes are in the admin audit log, by the command line.
    let admin = gateway.create_admin_key(Environment::Production).await.unwrap();
    let (_, audit) = support::call(&gateway, &admin, "GET", "/v1/admin/audit", Json::Null).await;
    let actions: Vec<&str> = audit["entries"].as_array().map(|e| e.iter().filter_map(|e| e["action"].as_str()).collect()).unwrap_or_default();
    assert!(actions.contains(&"console_user.create") && actions.contains(&"console_user.disable"), "{audit}");
}

#[tokio::test]
async fn console_users_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    accounts_are_made_signed_in_to_and_disabled(&format!("sqlite://{}", dir.path().join("g.db").display())).await;
}

#[tokio::test]
async fn console_users_on_postgres() {
    if let Some(db) = support::postgres_database("console_users").await {
        accounts_are_made_signed_in_to_and_disabled(&db).await;
    }
}

/// A session is a person's while their account is enabled and the session
/// is used: disabling the account stops it at once, 30 minutes unused end
/// it, and a changed password ends the person's other sessions. Twins: the
/// session used within the idle time, and the session that changed the password, go on.
#[tokio::test]
async fn sessions_end_when_disabled_idle_or_superseded() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("g.db").display());
    let keys = host_native::load_secret_keys(&db, None, None, &[]).unwrap();
    let now = Arc::new(AtomicI64::new(1_800_000_000));
    let gateway = Gateway::new(
        open_store(&db).await.unwrap(),
        Box::new(ComponentRules::embedded().unwrap()),
        Box::new(TestClock(now.clone())),
        Box::new(OsIds),
        Config { secret_keys: Some(keys), ..Config::default() },
    );
    gateway.migrate().await.unwrap();
    let set = |t: i64| now.store(t, std::sync::atomic::Ordering::SeqCst);
    let created = gateway.create_console_account(Environment::Sandbox, "rui@example.com", Role::Reviewer).await.unwrap();
    let sign_in = |password: String, at: i64| {
        let gateway = &gateway;
        let secret = created.totp_secret.clone();
        async move {
            let body = serde_json::json!({ "environment": "sandbox", "email": "rui@example.com", "password": password, "totp": code(&secret, at) });
            support::call(gateway, "", "POST", "/v1/admin/sessions", body).await
        }
    };
    let at = 1_800_000_000;
    let (status, first) = sign_in(created.password.clone(), at).await;
    assert_eq!(status, 201, "{first}");
    let first = first["session_token"].as_str().unwrap().to_string();
    let queue = |token: String| {
        let gateway = &gateway;
        async move { support::call(gateway, &token, "GET", "/v1/admin/cases", Json::Null).await.0 }
    };
    assert_eq!(queue(first.clone()).await, 403, "the one-time password must be changed first");
    let change = |token: &str, password: &str, new_password: &str| {
        let body = serde_json::json!({ "password": password, "new_password": new_password });
        let (gateway, token) = (&gateway, token.to_string());
        async move { support::call(gateway, &token, "POST", "/v1/admin/people/me/password", body).await.0 }
    };
    let status = change(&first, &created.password, "amber kettle orbit lantern").await;
    assert_eq!(status, 200);
    assert_eq!(queue(first.clone()).await, 200);

    // A second session, then the password changes through the first: the second ends, the first goes on.
    set(at + 30);
    let (status, second) = sign_in("amber kettle orbit lantern".into(), at + 30).await;
    assert_eq!(status, 201, "{second}");
    let second = second["session_token"].as_str().unwrap().to_string();
    assert_eq!(queue(second.clone()).await, 200);
    let status = change(&first, "amber kettle orbit lantern", "violet harbour quiz meadow").await;
    assert_eq!(status, 200);
    assert_eq!(queue(second).await, 401, "a session outlived the password change");
    assert_eq!(queue(first.clone()).await, 200);

    // Used 29 minutes later: still on; then 30 minutes unused: ended.
    set(at + 30 + 29 * 60);
    assert_eq!(queue(first.clone()).await, 200);
    set(at + 30 + 29 * 60 + 30 * 60);
    assert_eq!(queue(first).await, 401, "an idle session went on");

    // A fresh session stops at once when the account is disabled.
    let t = at + 30 + 59 * 60 + 30;
    set(t);
    let (status, third) = sign_in("violet harbour quiz meadow".into(), t).await;
    assert_eq!(status, 201, "{third}");
    let third = third["session_token"].as_str().unwrap().to_string();
    assert_eq!(queue(third.clone()).await, 200);
    gateway.disable_console_account(Environment::Sandbox, "rui@example.com").await.unwrap();
    assert_eq!(queue(third).await, 401, "a disabled person's session went on");
}

/// A gateway on a fresh SQLite file, its clock at `now`.
async fn team_gateway(dir: &tempfile::TempDir, now: Arc<AtomicI64>, config: Config) -> Gateway {
    team_gateway_on(&format!("sqlite://{}", dir.path().join("g.db").display()), now, config).await
}

/// A gateway on the database `db`, its clock at `now`.
async fn team_gateway_on(db: &str, now: Arc<AtomicI64>, config: Config) -> Gateway {
    let key = if db.starts_with("sqlite:") { None } else { Some(PG_KEY) };
    let keys = host_native::load_secret_keys(db, key, None, &[]).unwrap();
    let gateway = Gateway::new(
        open_store(db).await.unwrap(),
        Box::new(ComponentRules::embedded().unwrap()),
        Box::new(TestClock(now)),
        Box::new(OsIds),
        Config { secret_keys: Some(keys), ..config },
    );
    gateway.migrate().await.unwrap();
    gateway
}

fn ip(text: &str) -> Option<std::net::IpAddr> {
    Some(text.parse().unwrap())
}

/// A burst of 100 wrong sign-ins at once, from one address: the attempts
/// are reserved before argon2 runs, so exactly five passwords are checked;
/// the other 95 run the dummy verification. Then, in the same lock period,
/// a second burst carrying the right password and code from that address
/// is refused and checks nothing more. Twin: the owner, from another
/// address, signs in at once: a stranger cannot keep the owner out.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_burst_of_guesses_checks_five_and_leaves_the_owner_in() {
    let dir = tempfile::tempdir().unwrap();
    a_burst_of_guesses_on(&format!("sqlite://{}", dir.path().join("g.db").display())).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_burst_of_guesses_checks_five_on_postgres() {
    if let Some(db) = support::postgres_database("burst").await {
        a_burst_of_guesses_on(&db).await;
    }
}

async fn a_burst_of_guesses_on(db: &str) {
    let at = 1_800_000_000;
    let gateway = Arc::new(team_gateway_on(db, Arc::new(AtomicI64::new(at)), Config::default()).await);
    let created = gateway.create_console_account(Environment::Sandbox, "owner@example.com", Role::Approver).await.unwrap();
    let burst = |count: usize, right_one: bool| {
        let tasks: Vec<_> = (0..count + usize::from(right_one))
            .map(|i| {
                let gateway = gateway.clone();
                let (password, totp) = if i == count {
                    (created.password.clone(), code(&created.totp_secret, at))
                } else {
                    (format!("wrong guess {i}"), String::from("123456"))
                };
                tokio::spawn(async move { gateway.sign_in(Environment::Sandbox, "owner@example.com", &password, &totp, ip("203.0.113.9")).await })
            })
            .collect();
        async move {
            let mut codes = Vec::new();
            for task in tasks {
                codes.push(task.await.unwrap().map(|_| ()).map_err(|e| (e.status, e.code)));
            }
            codes
        }
    };
    let answers = burst(100, false).await;
    assert!(answers.iter().all(|a| *a == Err((401, "invalid_credentials"))), "{answers:?}");
    assert_eq!(gateway.password_checks(), (5, 95), "(real, dummy) argon2 verifications of the burst");

    let answers = burst(20, true).await;
    assert!(answers.iter().all(|a| *a == Err((401, "invalid_credentials"))), "the right code got in while locked: {answers:?}");
    assert_eq!(gateway.password_checks(), (5, 116), "a locked address had its password checked");

    let owner =
        gateway.sign_in(Environment::Sandbox, "owner@example.com", &created.password, &code(&created.totp_secret, at), ip("198.51.100.7")).await;
    assert!(owner.is_ok(), "the owner was locked out by a stranger: {owner:?}");
    assert_eq!(gateway.password_checks().0, 6);
}

/// Failures from many addresses add up to an account-wide ceiling (fifty
/// an hour): past it, the lock holds for every address, the owner's too,
/// and is audited once. Twins: below it, and after its hour, the owner gets in.
#[tokio::test]
async fn failures_from_many_addresses_lock_everyone_past_the_ceiling_audited_once() {
    let dir = tempfile::tempdir().unwrap();
    let now = Arc::new(AtomicI64::new(1_800_000_000));
    let at = 1_800_000_000;
    let gateway = team_gateway(&dir, now.clone(), Config::default()).await;
    let created = gateway.create_console_account(Environment::Production, "lead@example.com", Role::Supervisor).await.unwrap();
    let sign_in = |password: String, at: i64, source: String| {
        let gateway = &gateway;
        let totp = if password == created.password { code(&created.totp_secret, at) } else { String::from("123456") };
        async move { gateway.sign_in(Environment::Production, "lead@example.com", &password, &totp, ip(&source)).await.map(|_| ()) }
    };
    let ceiling = gateway::people::ACCOUNT_FAILURE_CEILING;
    let per_source = gateway::people::FAILED_SIGN_IN_LIMIT;
    let sources = ceiling / per_source;
    for s in 0..sources {
        for g in 0..per_source {
            if s == sources - 1 && g == per_source - 1 {
                // one short of the ceiling, the owner still gets in from elsewhere (and gives back only their own attempt)
                assert!(sign_in(created.password.clone(), at, "192.0.2.200".into()).await.is_ok(), "locked below the ceiling");
            }
            assert!(sign_in(format!("guess {s} {g}"), at, format!("192.0.2.{s}")).await.is_err());
        }
    }
    assert_eq!(gateway.password_checks().0, ceiling as u64 + 1);
    now.store(at + 30, std::sync::atomic::Ordering::SeqCst);
    for source in ["198.51.100.7", "198.51.100.8"] {
        let refused = sign_in(created.password.clone(), at + 30, source.into()).await;
        assert_eq!(refused.map_err(|e| e.code), Err("invalid_credentials"), "the ceiling did not hold");
    }
    assert_eq!(gateway.password_checks().0, ceiling as u64 + 1, "a password was checked past the ceiling");
    let admin = gateway.create_admin_key(Environment::Production).await.unwrap();
    let (_, audit) = support::call(&gateway, &admin, "GET", "/v1/admin/audit", Json::Null).await;
    let locks = audit["entries"].as_array().unwrap().iter().filter(|e| e["action"] == "console_user.locked").count();
    assert_eq!(locks, 1, "{audit}");
    // the hour over, the owner gets in
    let later = (at / 3600 + 1) * 3600 + 30;
    now.store(later, std::sync::atomic::Ordering::SeqCst);
    assert!(sign_in(created.password.clone(), later, "198.51.100.7".into()).await.is_ok());
}

/// Issue #48 item 4 (OWASP's device cookies): a device the owner signed in
/// from carries a token, and its attempts are counted apart. Strangers past
/// the account-wide ceiling, from many sources, lock out every stranger and
/// the owner on a new device (the twin), but never the owner's known device,
/// from any address. A token that is unknown, or another person's, is a
/// stranger's; a known device's own failures lock that device alone.
#[tokio::test]
async fn strangers_past_the_ceiling_never_lock_out_a_known_device() {
    let dir = tempfile::tempdir().unwrap();
    let at = 1_800_000_000;
    let gateway = team_gateway(&dir, Arc::new(AtomicI64::new(at)), Config::default()).await;
    let owner = gateway.create_console_account(Environment::Production, "owner@example.com", Role::Approver).await.unwrap();
    let other = gateway.create_console_account(Environment::Production, "other@example.com", Role::Reviewer).await.unwrap();
    let right = |secret: &str, step: i64| code(secret, at + 30 * step);
    let sign_in = |email: &'static str, password: String, totp: String, source: String, device: Option<String>| {
        let gateway = &gateway;
        async move { gateway.sign_in_from(Environment::Production, email, &password, &totp, ip(&source), device.as_deref()).await }
    };
    let (_, device) = sign_in("owner@example.com", owner.password.clone(), right(&owner.totp_secret, -1), "192.0.2.250".into(), None).await.unwrap();
    assert!(device.starts_with("dev_"), "{device}");
    let (_, others) = sign_in("other@example.com", other.password.clone(), right(&other.totp_secret, -1), "192.0.2.251".into(), None).await.unwrap();
    // strangers, past the ceiling, from many sources
    let per_source = gateway::people::FAILED_SIGN_IN_LIMIT;
    let sources = gateway::people::ACCOUNT_FAILURE_CEILING / per_source + 2;
    for s in 0..sources {
        for g in 0..per_source {
            let refused = sign_in("owner@example.com", format!("guess {s} {g}"), "123456".into(), format!("198.51.{s}.1"), None).await;
            assert!(refused.is_err());
        }
    }
    // the twins: the owner on a new device, an unknown token, another person's token: strangers, locked out
    for token in [None, Some("dev_00".to_string()), Some(others.clone())] {
        let refused = sign_in("owner@example.com", owner.password.clone(), right(&owner.totp_secret, 0), "203.0.113.9".into(), token.clone()).await;
        assert_eq!(refused.map(|_| ()).map_err(|e| e.code), Err("invalid_credentials"), "a stranger got in past the ceiling with {token:?}");
    }
    // the owner's known device gets in, from an address never seen, and keeps its token
    let (person, again) =
        sign_in("owner@example.com", owner.password.clone(), right(&owner.totp_secret, 0), "203.0.113.77".into(), Some(device.clone()))
            .await
            .expect("the owner's known device was locked out by strangers");
    assert_eq!((person.email.as_str(), again.as_str()), ("owner@example.com", device.as_str()));
    // a known device's own failures lock that device, and nothing of the strangers' counts
    for g in 0..per_source {
        assert!(sign_in("owner@example.com", format!("wrong {g}"), "123456".into(), "203.0.113.77".into(), Some(device.clone())).await.is_err());
    }
    let locked =
        sign_in("owner@example.com", owner.password.clone(), right(&owner.totp_secret, 1), "203.0.113.77".into(), Some(device.clone())).await;
    assert_eq!(locked.map(|_| ()).map_err(|e| e.code), Err("invalid_credentials"), "a device's own failures did not lock it");
}

/// Unknown, disabled and locked addresses run the same argon2
/// verification as a real one, against a dummy hash (a structural check,
/// not a timing): each refusal counts one verification.
#[tokio::test]
async fn unknown_disabled_and_locked_addresses_run_a_dummy_verification() {
    let dir = tempfile::tempdir().unwrap();
    let at = 1_800_000_000;
    let gateway = team_gateway(&dir, Arc::new(AtomicI64::new(at)), Config::default()).await;
    let created = gateway.create_console_account(Environment::Sandbox, "gone@example.com", Role::Reviewer).await.unwrap();
    let right = code(&created.totp_secret, at);
    assert!(gateway.sign_in(Environment::Sandbox, "nobody@example.com", "whatever", "123456", None).await.is_err());
    assert_eq!(gateway.password_checks(), (0, 1), "an unknown address");
    assert!(gateway.sign_in(Environment::Sandbox, "gone@example.com", "wrong", "123456", None).await.is_err());
    assert_eq!(gateway.password_checks(), (1, 1), "a real account's password is checked");
    gateway.disable_console_account(Environment::Sandbox, "gone@example.com").await.unwrap();
    assert!(gateway.sign_in(Environment::Sandbox, "gone@example.com", &created.password, &right, None).await.is_err());
    assert_eq!(gateway.password_checks(), (1, 2), "a disabled account");
}

/// Sends a sign-in through `Gateway::handle` from `source`: the response.
async fn sign_in_request(gateway: &Gateway, source: &str, body: Json) -> http::Response<Vec<u8>> {
    let mut request = http::Request::builder()
        .method("POST")
        .uri("/v1/admin/sessions")
        .header("content-type", "application/json")
        .body(body.to_string().into_bytes())
        .unwrap();
    request.extensions_mut().insert(gateway::input::SourceAddress(source.parse().unwrap()));
    gateway.handle(request).await
}

/// Sign-in failures count per source address, as bad keys do: past the
/// limit, 429 `too_many_failures` with Retry-After, before anything is
/// checked. Twin: another address signs in. Every answer is `no-store` and `nosniff`.
#[tokio::test]
async fn sign_in_failures_are_limited_per_source() {
    let dir = tempfile::tempdir().unwrap();
    let at = 1_800_000_010;
    let limit = 8;
    let gateway = team_gateway(&dir, Arc::new(AtomicI64::new(at)), Config { auth_failures_per_source: Some(limit), ..Config::default() }).await;
    let created = gateway.create_console_account(Environment::Sandbox, "sam@example.com", Role::Reviewer).await.unwrap();
    for i in 0..limit {
        let body = serde_json::json!({ "environment": "sandbox", "email": format!("user{i}@example.com"), "password": "guess", "totp": "123456" });
        let response = sign_in_request(&gateway, "203.0.113.50", body).await;
        assert_eq!(response.status(), 401);
        assert_eq!(response.headers().get("cache-control").map(|v| v.to_str().unwrap()), Some("no-store"));
        assert_eq!(response.headers().get("x-content-type-options").map(|v| v.to_str().unwrap()), Some("nosniff"));
    }
    let checked = gateway.password_checks();
    let right = serde_json::json!({ "environment": "sandbox", "email": "sam@example.com", "password": created.password, "totp": code(&created.totp_secret, at) });
    let refused = sign_in_request(&gateway, "203.0.113.50", right.clone()).await;
    assert_eq!(refused.status(), 429);
    let body: Json = serde_json::from_slice(refused.body()).unwrap();
    assert_eq!(body["error"], "too_many_failures");
    let retry: u64 = refused.headers().get("retry-after").unwrap().to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    assert_eq!(gateway.password_checks(), checked, "a limited source's sign-in was checked");

    let accepted = sign_in_request(&gateway, "198.51.100.7", right).await;
    assert_eq!(accepted.status(), 201, "{}", String::from_utf8_lossy(accepted.body()));
    assert_eq!(accepted.headers().get("cache-control").map(|v| v.to_str().unwrap()), Some("no-store"));
    assert_eq!(accepted.headers().get("x-content-type-options").map(|v| v.to_str().unwrap()), Some("nosniff"));
}

/// A stolen session cannot take the account over: the password change asks
/// for the current password, the TOTP reset for the password and a current
/// code, and their failures count toward the lock from the request's
/// address. Twin: with the right ones, both work.
#[tokio::test]
async fn a_session_alone_cannot_change_the_password_or_the_authenticator() {
    let dir = tempfile::tempdir().unwrap();
    let now = Arc::new(AtomicI64::new(1_800_000_000));
    let at = 1_800_000_000;
    let gateway = team_gateway(&dir, now.clone(), Config::default()).await;
    let created = gateway.create_console_account(Environment::Sandbox, "kim@example.com", Role::Approver).await.unwrap();
    let body = serde_json::json!({ "environment": "sandbox", "email": "kim@example.com", "password": created.password, "totp": code(&created.totp_secret, at) });
    let (status, session) = support::call_from(&gateway, Some("198.51.100.7"), "", "POST", "/v1/admin/sessions", body).await;
    assert_eq!(status, 201, "{session}");
    let token = session["session_token"].as_str().unwrap().to_string();
    let post = |path: &'static str, body: Json, source: &'static str| {
        let (gateway, token) = (&gateway, token.clone());
        async move { support::call_from(gateway, Some(source), &token, "POST", path, body).await }
    };
    let thief = "203.0.113.66";
    let strong = "plum radiator socks vintage";
    // no current password, a wrong one, a weak new one
    let (status, answer) = post("/v1/admin/people/me/password", serde_json::json!({ "new_password": strong }), thief).await;
    assert_eq!((status, answer["error"].as_str()), (400, Some("missing_fields")), "{answer}");
    let (status, answer) =
        post("/v1/admin/people/me/password", serde_json::json!({ "password": created.password, "new_password": "password1234" }), thief).await;
    assert_eq!((status, answer["error"].as_str()), (422, Some("weak_password")), "{answer}");
    for i in 0..gateway::people::FAILED_SIGN_IN_LIMIT {
        let (status, answer) =
            post("/v1/admin/people/me/password", serde_json::json!({ "password": format!("guess {i}"), "new_password": strong }), thief).await;
        assert_eq!((status, answer["error"].as_str()), (401, Some("invalid_credentials")), "{answer}");
    }
    // locked for this address now, even with the right password
    let (status, _) = post("/v1/admin/people/me/password", serde_json::json!({ "password": created.password, "new_password": strong }), thief).await;
    assert_eq!(status, 401, "the lock did not hold for the password change");
    // from the owner's address, the right password changes it
    let (status, answer) =
        post("/v1/admin/people/me/password", serde_json::json!({ "password": created.password, "new_password": strong }), "198.51.100.7").await;
    assert_eq!(status, 200, "{answer}");

    // The TOTP reset: the password alone is not enough, a wrong code is refused (and counted); both are.
    now.store(at + 60, std::sync::atomic::Ordering::SeqCst);
    let (status, answer) = post("/v1/admin/people/me/totp", serde_json::json!({ "password": strong }), "198.51.100.7").await;
    assert_eq!((status, answer["error"].as_str()), (400, Some("missing_fields")), "{answer}");
    let checks = gateway.password_checks().0;
    let (status, _) = post("/v1/admin/people/me/totp", serde_json::json!({ "password": strong, "totp": "000000" }), "198.51.100.7").await;
    assert_eq!(status, 401);
    assert_eq!(gateway.password_checks().0, checks + 1);
    let right = code(&created.totp_secret, at + 60);
    // sent with an Idempotency-Key (a caller's; the SDKs send none here, issue #46): the new secret is not kept for a replay
    let mut reset = http::Request::builder()
        .method("POST")
        .uri("/v1/admin/people/me/totp")
        .header("content-type", "application/json")
        .header("authorization", format!("Bearer {token}"))
        .header("idempotency-key", "reset-1")
        .body(serde_json::json!({ "password": strong, "totp": right }).to_string().into_bytes())
        .unwrap();
    reset.extensions_mut().insert(gateway::input::SourceAddress("198.51.100.7".parse().unwrap()));
    let response = gateway.handle(reset).await;
    let answer: Json = serde_json::from_slice(response.body()).unwrap_or(Json::Null);
    assert_eq!(response.status().as_u16(), 200, "{answer}");
    let new_secret = answer["totp_secret"].as_str().unwrap().to_string();
    let db = rusqlite::Connection::open(dir.path().join("g.db")).unwrap();
    let kept: i64 = db.query_row("SELECT COUNT(*) FROM idempotency_keys WHERE response LIKE ?1", [format!("%{new_secret}%")], |r| r.get(0)).unwrap();
    assert_eq!(kept, 0, "a reset TOTP secret was kept in the clear for a replay");
    // the old authenticator no longer signs in; the new one does
    now.store(at + 120, std::sync::atomic::Ordering::SeqCst);
    let old = gateway.sign_in(Environment::Sandbox, "kim@example.com", strong, &code(&created.totp_secret, at + 120), ip("198.51.100.7")).await;
    assert!(old.is_err());
    let new = gateway.sign_in(Environment::Sandbox, "kim@example.com", strong, &code(&new_secret, at + 120), ip("198.51.100.7")).await;
    assert!(new.is_ok(), "{new:?}");
}

/// `POST /v1/admin/people` through `Gateway::handle`, with `credential`.
async fn make_person(gateway: &Gateway, credential: &str, email: &str, role: &str) -> (u16, Json) {
    let request = http::Request::builder()
        .method("POST")
        .uri("/v1/admin/people")
        .header("content-type", "application/json")
        .header("authorization", format!("Bearer {credential}"))
        .header("idempotency-key", format!("make-{email}"))
        .body(serde_json::json!({ "email": email, "role": role }).to_string().into_bytes())
        .unwrap();
    let response = gateway.handle(request).await;
    (response.status().as_u16(), serde_json::from_slice(response.body()).unwrap_or(Json::Null))
}

/// Where four-eyes applies a key founds a team: it makes an admin at once
/// while the environment has fewer than two enabled admins, and no other
/// approving role (403 `person_required`); a key's reviewer starts
/// disabled, for two admins to enable. A founder disabled, a key may make
/// one again. Twins: where four-eyes does not apply a key makes approvers at
/// once; the command line makes anyone at once (the host's operator). A
/// retry with the same `Idempotency-Key` runs afresh (409 `email_taken`):
/// the answer's secrets are never kept for a replay.
#[tokio::test]
async fn a_key_founds_a_four_eyes_team_with_two_admins_and_no_more() {
    let dir = tempfile::tempdir().unwrap();
    let now = Arc::new(AtomicI64::new(1_800_000_000));
    let four_eyes = gateway::FourEyes::parse("production").unwrap();
    let gateway = team_gateway(&dir, now, Config { four_eyes, ..Config::default() }).await;
    let production = gateway.create_admin_key(Environment::Production).await.unwrap();
    let sandbox = gateway.create_admin_key(Environment::Sandbox).await.unwrap();

    let (status, body) = make_person(&gateway, &production, "approver@example.com", "approver").await;
    assert_eq!((status, body["error"].as_str()), (403, Some("person_required")), "{body}");
    for email in ["first@example.com", "second@example.com"] {
        let (status, founder) = make_person(&gateway, &production, email, "admin").await;
        assert_eq!((status, founder["state"].as_str()), (201, Some("enabled")), "{founder}");
        let (password, secret) = (founder["password"].as_str().unwrap(), founder["totp_secret"].as_str().unwrap());
        let signed_in = gateway.sign_in(Environment::Production, email, password, &code(secret, 1_800_000_000), None).await;
        assert!(signed_in.is_ok(), "a founder does not sign in: {signed_in:?}");
    }
    for role in ["admin", "supervisor", "approver"] {
        let (status, body) = make_person(&gateway, &production, &format!("third-{role}@example.com"), role).await;
        assert_eq!((status, body["error"].as_str()), (403, Some("person_required")), "{role}: {body}");
    }
    let (status, body) = make_person(&gateway, &production, "rev@example.com", "reviewer").await;
    assert_eq!((status, body["state"].as_str()), (201, Some("disabled")), "{body}");
    let (password, secret) = (body["password"].as_str().unwrap(), body["totp_secret"].as_str().unwrap());
    let signed_in = gateway.sign_in(Environment::Production, "rev@example.com", password, &code(secret, 1_800_000_000), None).await;
    assert!(signed_in.is_err(), "a key's reviewer signed in before two admins enabled it");
    // the same request again (same Idempotency-Key): not replayed from a stored answer
    let (status, body) = make_person(&gateway, &production, "rev@example.com", "reviewer").await;
    assert_eq!((status, body["error"].as_str()), (409, Some("email_taken")), "{body}");
    let db = rusqlite::Connection::open(dir.path().join("g.db")).unwrap();
    let stored: i64 = db.query_row("SELECT COUNT(*) FROM idempotency_keys", [], |r| r.get(0)).unwrap();
    assert_eq!(stored, 0, "an answer with a one-time password was kept for a replay");

    // a founder disabled, a key may make one again
    gateway.disable_console_account(Environment::Production, "first@example.com").await.unwrap();
    let (status, body) = make_person(&gateway, &production, "again@example.com", "admin").await;
    assert_eq!((status, body["state"].as_str()), (201, Some("enabled")), "{body}");

    // twins: no four-eyes in the sandbox; the command line
    for email in ["s1@example.com", "s2@example.com"] {
        let (status, body) = make_person(&gateway, &sandbox, email, "approver").await;
        assert_eq!((status, body["state"].as_str()), (201, Some("enabled")), "{body}");
    }
    let made = gateway.create_console_account(Environment::Production, "cli@example.com", Role::Approver).await.unwrap();
    assert_eq!(made.role, "approver");
}

/// An answer holding a key (a new tenant's, a new key) is never kept for an
/// `Idempotency-Key`'s replay: keys are stored only as their SHA-256, and a
/// kept answer would hold one in clear for a day. The twin: an answer with
/// no secret (a limit set) is kept.
#[tokio::test]
async fn answers_holding_keys_are_not_kept_for_a_replay() {
    let dir = tempfile::tempdir().unwrap();
    let now = Arc::new(AtomicI64::new(1_800_000_000));
    let gateway = team_gateway(&dir, now, Config::default()).await;
    let admin = gateway.create_admin_key(Environment::Sandbox).await.unwrap();
    let keyed = |path: String, credential: String, key: &'static str, body: Json| {
        let gateway = &gateway;
        async move {
            let request = http::Request::builder()
                .method("POST")
                .uri(path)
                .header("content-type", "application/json")
                .header("authorization", format!("Bearer {credential}"))
                .header("idempotency-key", key)
                .body(body.to_string().into_bytes())
                .unwrap();
            let response = gateway.handle(request).await;
            (response.status().as_u16(), serde_json::from_slice::<Json>(response.body()).unwrap_or(Json::Null))
        }
    };
    let (status, tenant) =
        keyed("/v1/admin/tenants".into(), admin.clone(), "t-1", serde_json::json!({ "name": "op", "environment": "sandbox" })).await;
    assert_eq!(status, 201, "{tenant}");
    let tenant_id = tenant["tenant_id"].as_str().unwrap().to_string();
    let (status, key) = keyed(format!("/v1/admin/tenants/{tenant_id}/keys"), admin.clone(), "k-1", serde_json::json!({})).await;
    assert_eq!(status, 201, "{key}");
    let db = rusqlite::Connection::open(dir.path().join("g.db")).unwrap();
    for secret in [tenant["api_key"].as_str().unwrap(), key["api_key"].as_str().unwrap()] {
        let kept: i64 = db.query_row("SELECT COUNT(*) FROM idempotency_keys WHERE response LIKE ?1", [format!("%{secret}%")], |r| r.get(0)).unwrap();
        assert_eq!(kept, 0, "an API key was kept in clear for a replay");
    }
    // the twin: an answer with no secret is kept
    let operator = tenant["api_key"].as_str().unwrap().to_string();
    let screen = serde_json::json!({ "user_id": "u1", "first_name": "Ann", "last_name": "Lee", "date_of_birth": "1990-01-01", "nationality": "GB", "email": "u1@example.com" });
    let (status, body) = keyed("/v1/sanctions/screen".into(), operator, "s-1", screen).await;
    assert_eq!(status, 201, "{body}");
    let kept: i64 = db.query_row("SELECT COUNT(*) FROM idempotency_keys WHERE idempotency_key = 's-1'", [], |r| r.get(0)).unwrap();
    assert_eq!(kept, 1, "an answer with no secret was not kept");
}

/// The console's sign-in form tells nothing of which addresses have accounts:
/// an address of no account runs the same password check (a dummy one) and
/// is answered alike, as a known address with a wrong password is. Before,
/// an unknown address was refused at once, with no check: its answer came
/// sooner, and no failure was counted.
#[tokio::test]
async fn the_sign_in_form_runs_the_same_check_for_an_unknown_address() {
    let dir = tempfile::tempdir().unwrap();
    let now = Arc::new(AtomicI64::new(1_800_000_000));
    let gateway = team_gateway(&dir, now, Config::default()).await;
    gateway.create_console_account(Environment::Production, "kim@example.com", Role::Approver).await.unwrap();
    let sign_in = |email: &'static str| {
        let gateway = &gateway;
        async move {
            let mut request = http::Request::builder()
                .method("POST")
                .uri("/console/login")
                .header("host", "console.example")
                .header("origin", "https://console.example")
                .header("content-type", "application/x-www-form-urlencoded")
                .body(format!("email={email}&password=wrong+horse&totp=000000&environment=").into_bytes())
                .unwrap();
            request.extensions_mut().insert(gateway::input::SourceAddress("198.51.100.9".parse().unwrap()));
            let before = gateway.password_checks();
            let response = gateway.handle(request).await;
            let after = gateway.password_checks();
            (response.status().as_u16(), (after.0 + after.1) - (before.0 + before.1))
        }
    };
    let known = sign_in("kim%40example.com").await;
    let unknown = sign_in("nobody%40example.com").await;
    assert_eq!(known, (401, 1), "a known address with a wrong password");
    assert_eq!(unknown, known, "an unknown address is answered otherwise than a known one");
}

/// Issue #46: `secrets reseal` reseals every sealed kind, the console's TOTP
/// secrets too, and names each kind with its count. After a rotation and a
/// reseal, the new key alone signs a person in with a code (it answered 500:
/// the TOTP secret stayed sealed under the dropped key). The twin: without the
/// reseal, the new key alone answers a clear 503 `sealing_key_missing`, not a 500.
#[tokio::test]
async fn a_key_rotation_reseals_totp_secrets_and_sign_in_goes_on() {
    let new_key = "MjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjI=";
    let sign_in_with_the_new_key_alone = |resealed: bool| async move {
        let dir = tempfile::tempdir().unwrap();
        let db = format!("sqlite://{}", dir.path().join("g.db").display());
        let (ok, out, err) = console_user(&db, &["create", "--email", "ana@example.com", "--role", "reviewer", "--environment", "sandbox"]);
        assert!(ok, "{err}");
        let created: Json = serde_json::from_str(out.trim()).unwrap();
        let new_file = dir.path().join("new.key");
        std::fs::write(&new_file, new_key).unwrap();
        if resealed {
            let old = std::fs::read_to_string(dir.path().join("g.db.key")).unwrap();
            let out = Command::new(BIN)
                .args(["secrets", "reseal", "--database", &db, "--secret-key-file", new_file.to_str().unwrap(), "--previous-secret-keys", old.trim()])
                .output()
                .unwrap();
            let printed = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            assert!(printed.trim_end().ends_with(": webhook_secrets 0, totp_secrets 1, register_credentials 0, register_identities 0"), "{printed}");
        }
        let keys = host_native::load_secret_keys(&db, None, Some(&new_file), &[]).unwrap();
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
        let gateway = Gateway::new(
            open_store(&db).await.unwrap(),
            Box::new(ComponentRules::embedded().unwrap()),
            Box::new(TestClock(Arc::new(AtomicI64::new(now)))),
            Box::new(OsIds),
            Config { secret_keys: Some(keys), ..Config::default() },
        );
        let body = serde_json::json!({ "environment": "sandbox", "email": "ana@example.com", "password": created["password"],
            "totp": code(created["totp_secret"].as_str().unwrap(), now) });
        support::call(&gateway, "", "POST", "/v1/admin/sessions", body).await
    };
    let (status, body) = sign_in_with_the_new_key_alone(true).await;
    assert_eq!(status, 201, "{body}");
    let (status, body) = sign_in_with_the_new_key_alone(false).await;
    assert_eq!((status, body["error"].as_str()), (503, Some("sealing_key_missing")), "{body}");
}
