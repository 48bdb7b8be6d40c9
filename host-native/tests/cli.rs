//! The `compliance-gateway` command line, run as a user would.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_compliance-gateway");

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(BIN).args(args).output().unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn admin_key_create_prints_the_key_alone() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("g.db").display());
    let (ok, out, _) = run(&["admin-key", "create", "--environment", "production", "--database", &db]);
    assert!(ok);
    let key = out.trim_end_matches('\n');
    assert!(key.starts_with("cgw_sk_live_") && key.len() == 44 && !key.contains('\n'), "{out:?}");
    let (ok, _, err) = run(&["admin-key", "create", "--environment", "staging", "--database", &db]);
    assert!(!ok && err.contains("staging"));
}

#[test]
fn regulator_import_adds_once_and_refuses_bad_files() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("g.db").display());
    let file = dir.path().join("kgc.json");
    std::fs::write(&file, r#"{"entries":[{"email":"Listed@Example.com","reference":"KGC-7"},{"phone":"+44 7700 900999"}]}"#).unwrap();
    let file = file.to_str().unwrap();
    let (ok, out, err) = run(&["regulator-import", "--environment", "sandbox", file, "--database", &db]);
    assert!(ok, "{err}");
    assert!(out.contains("\"imported\":2"), "{out}");
    let (ok, out, _) = run(&["regulator-import", "--environment", "sandbox", file, "--database", &db]);
    assert!(ok && out.contains("\"skipped\":2"), "{out}");
    // Its decisions are the audited component's, logged with its SHA-256.
    let (_, rules_out, _) = run(&["rules"]);
    let sha = rules_out.lines().find_map(|l| l.strip_prefix("sha256 ")).unwrap().to_string();
    let db_file = rusqlite::Connection::open(dir.path().join("g.db")).unwrap();
    let mut read = db_file.prepare("SELECT rules_sha256 FROM decisions WHERE operation = 'regulator_import'").unwrap();
    let logged: Vec<String> = read.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect();
    assert!(!logged.is_empty() && logged.iter().all(|h| *h == sha), "{logged:?} != {sha}");
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, r#"{"entries":[{"reference":"no address"}]}"#).unwrap();
    let (ok, _, err) = run(&["regulator-import", "--environment", "sandbox", bad.to_str().unwrap(), "--database", &db]);
    assert!(!ok && err.contains("invalid_field"), "{err}");
}

#[test]
fn rules_reports_the_embedded_component_and_the_hash_of_a_file_it_loads() {
    let embedded = {
        use sha2::Digest;
        hex::encode(sha2::Sha256::digest(host_native::rules_engine::EMBEDDED_COMPONENT))
    };
    let (ok, out, _) = run(&["rules"]);
    assert!(ok && out.contains(&embedded), "{out}");
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("copy.wasm");
    std::fs::write(&copy, host_native::rules_engine::EMBEDDED_COMPONENT).unwrap();
    let (ok, out, _) = run(&["rules", "--rules", copy.to_str().unwrap()]);
    assert!(ok && out.contains(&embedded), "{out}");
    let fake = dir.path().join("fake.wasm");
    std::fs::write(&fake, b"not wasm").unwrap();
    let (ok, _, err) = run(&["rules", "--rules", fake.to_str().unwrap()]);
    assert!(!ok && err.contains("not valid"), "{err}");
}

#[test]
fn replay_of_an_unknown_decision_fails_with_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("g.db").display());
    let out = Command::new(BIN).args(["decisions", "replay", "dec_nope", "--database", &db]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no decision dec_nope"));
}

#[test]
fn the_secret_key_file_is_created_private_beside_the_database_and_reseal_uses_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("g.db").display());
    let (ok, out, err) = run(&["secrets", "reseal", "--database", &db]);
    assert!(ok, "{err}");
    assert!(
        out.contains("resealed under key ")
            && out.trim_end().ends_with(": webhook_secrets 0, totp_secrets 0, register_credentials 0, register_identities 0"),
        "{out}"
    );
    assert!(err.contains("created the key that seals webhook secrets"), "no warning: {err}");
    let key_file = dir.path().join("g.db.key");
    let text = std::fs::read_to_string(&key_file).unwrap();
    assert!(gateway::sealing::parse_key(&text).is_some(), "{text:?}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&key_file).unwrap().permissions().mode() & 0o777, 0o600);
    }
    // The second time the key is read, not replaced.
    let (ok, _, err) = run(&["secrets", "reseal", "--database", &db]);
    assert!(ok && !err.contains("created"), "{err}");
    assert_eq!(std::fs::read_to_string(&key_file).unwrap(), text);
    std::fs::write(&key_file, "not a key\n").unwrap();
    let (ok, _, err) = run(&["secrets", "reseal", "--database", &db]);
    assert!(!ok && err.contains("does not hold a key"), "{err}");
}
