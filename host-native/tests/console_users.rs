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
    assert_eq!(keys.len(), 5, "{created}");
    for key in ["user_id", "email", "role", "password", "totp_secret"] {
        assert!(created[key].is_string(), "{key}: {created}");
    }
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
    let signed_in = gateway.sign_in(Environment::Production, "ana.reviewer@example.com", &password, &code(&secret, at)).await.unwrap();
    assert_eq!((signed_in.role, signed_in.must_change_password), (Role::Reviewer, true));
    // A code is good once; a wrong code, a wrong password, another environment: refused alike.
    let refused = |r: Result<_, gateway::error::ApiError>| r.map(|_: gateway::people::SignedIn| ()).unwrap_err().code;
    assert_eq!(
        refused(gateway.sign_in(Environment::Production, "ana.reviewer@example.com", &password, &code(&secret, at)).await),
        "invalid_credentials"
    );
    now.store(at + 30, std::sync::atomic::Ordering::SeqCst);
    assert_eq!(refused(gateway.sign_in(Environment::Production, "ana.reviewer@example.com", &password, "000000").await), "invalid_credentials");
    assert_eq!(
        refused(gateway.sign_in(Environment::Production, "ana.reviewer@example.com", "wrong", &code(&secret, at + 30)).await),
        "invalid_credentials"
    );
    assert_eq!(
        refused(gateway.sign_in(Environment::Production, "nobody@example.com", &password, &code(&secret, at + 30)).await),
        "invalid_credentials"
    );
    now.store(at + 60, std::sync::atomic::Ordering::SeqCst);
    assert!(gateway.sign_in(Environment::Production, "ana.reviewer@example.com", &password, &code(&secret, at + 60)).await.is_ok());

    // Five failures in a row lock the account for 15 minutes: then even the
    // right password and code are refused, alike; after, they are accepted.
    for attempt in 0..5 {
        now.store(at + 90 + attempt * 30, std::sync::atomic::Ordering::SeqCst);
        assert_eq!(refused(gateway.sign_in(Environment::Production, "ana.reviewer@example.com", "wrong", "123456").await), "invalid_credentials");
    }
    let locked_at = at + 90 + 4 * 30;
    now.store(locked_at + 60, std::sync::atomic::Ordering::SeqCst);
    let right = || code(&secret, locked_at + 60);
    assert_eq!(refused(gateway.sign_in(Environment::Production, "ana.reviewer@example.com", &password, &right()).await), "invalid_credentials");
    now.store(locked_at + 15 * 60 + 30, std::sync::atomic::Ordering::SeqCst);
    let after = code(&secret, locked_at + 15 * 60 + 30);
    assert!(gateway.sign_in(Environment::Production, "ana.reviewer@example.com", &password, &after).await.is_ok(), "still locked after 15 minutes");
    // four failures and a success start the count again
    for attempt in 1..=4 {
        now.store(locked_at + 15 * 60 + 30 + attempt * 30, std::sync::atomic::Ordering::SeqCst);
        assert!(gateway.sign_in(Environment::Production, "ana.reviewer@example.com", "wrong", "123456").await.is_err());
    }
    let later = locked_at + 15 * 60 + 30 + 5 * 30;
    now.store(later, std::sync::atomic::Ordering::SeqCst);
    assert!(gateway.sign_in(Environment::Production, "ana.reviewer@example.com", &password, &code(&secret, later)).await.is_ok());
    let at = later;

    // Disabled: no sign-in, whatever the code.
    let (ok, out, err) = console_user(db, &["disable", "--email", "ana.reviewer@example.com", "--environment", "production"]);
    assert!(ok && out.contains("\"disabled\":true"), "{err}");
    now.store(at + 90, std::sync::atomic::Ordering::SeqCst);
    assert_eq!(
        refused(gateway.sign_in(Environment::Production, "ana.reviewer@example.com", &password, &code(&secret, at + 90)).await),
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
    let (status, _) =
        support::call(&gateway, &first, "POST", "/v1/admin/people/me/password", serde_json::json!({ "new_password": "a brand new passphrase" }))
            .await;
    assert_eq!(status, 200);
    assert_eq!(queue(first.clone()).await, 200);

    // A second session, then the password changes through the first: the second ends, the first goes on.
    set(at + 30);
    let (status, second) = sign_in("a brand new passphrase".into(), at + 30).await;
    assert_eq!(status, 201, "{second}");
    let second = second["session_token"].as_str().unwrap().to_string();
    assert_eq!(queue(second.clone()).await, 200);
    let (status, _) =
        support::call(&gateway, &first, "POST", "/v1/admin/people/me/password", serde_json::json!({ "new_password": "another new passphrase" }))
            .await;
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
    let (status, third) = sign_in("another new passphrase".into(), t).await;
    assert_eq!(status, 201, "{third}");
    let third = third["session_token"].as_str().unwrap().to_string();
    assert_eq!(queue(third.clone()).await, 200);
    gateway.disable_console_account(Environment::Sandbox, "rui@example.com").await.unwrap();
    assert_eq!(queue(third).await, 401, "a disabled person's session went on");
}
