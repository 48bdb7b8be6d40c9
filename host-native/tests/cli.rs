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
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, r#"{"entries":[{"reference":"no address"}]}"#).unwrap();
    let (ok, _, err) = run(&["regulator-import", "--environment", "sandbox", bad.to_str().unwrap(), "--database", &db]);
    assert!(!ok && err.contains("invalid_field"), "{err}");
}

#[test]
fn rules_reports_the_hash_of_the_file_it_loads() {
    let path = host_native::default_rules_paths().into_iter().find(|p| p.exists()).expect("build the rules component first");
    let bytes = std::fs::read(&path).unwrap();
    let expected = {
        use sha2::Digest;
        hex::encode(sha2::Sha256::digest(&bytes))
    };
    let (ok, out, _) = run(&["rules", "--rules", path.to_str().unwrap()]);
    assert!(ok && out.contains(&expected), "{out}");
    let dir = tempfile::tempdir().unwrap();
    let fake = dir.path().join("fake.wasm");
    std::fs::write(&fake, b"not wasm").unwrap();
    let (ok, _, err) = run(&["rules", "--rules", fake.to_str().unwrap()]);
    assert!(!ok && err.contains("not valid"), "{err}");
}
