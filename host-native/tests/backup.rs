//! `compliance-gateway backup`: an online copy of a SQLite store taken while
//! a server writes to it, restored (opened as a store of its own) and
//! audited: a decision recorded before the backup replays identical from it.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod support;

use serde_json::json;
use support::{cli, free_port, send, ServeProcess};

fn run(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_compliance-gateway")).args(args).output().unwrap()
}

#[tokio::test]
async fn a_backup_taken_under_writes_restores_and_replays() {
    let dir = tempfile::tempdir().unwrap();
    let database = format!("sqlite://{}", dir.path().join("g.db").display());
    let admin = cli(&["admin-key", "create", "--environment", "sandbox", "--database", &database]);
    let server = ServeProcess::start(&database, free_port(), None).await;
    let base = server.base.clone();
    let (_, tenant) = send(
        &base,
        &admin,
        reqwest::Method::POST,
        "/v1/admin/tenants",
        Some(json!({ "name": "acme", "environment": "sandbox", "rate_limit_per_minute": 100_000 })),
    )
    .await;
    let key = tenant["api_key"].as_str().unwrap().to_string();
    let screen = |i: usize| json!({ "user_id": format!("u-{i}"), "first_name": "Ann", "last_name": "Lee", "date_of_birth": "1980-01-01", "nationality": "GB", "email": format!("u{i}@example.com") });
    for i in 0..20 {
        assert_eq!(send(&base, &key, reqwest::Method::POST, "/v1/sanctions/screen", Some(screen(i))).await.0, 201);
    }
    // the decision log is written off the request path: wait until the screenings are in it
    let recorded = loop {
        let (_, page) = send(&base, &admin, reqwest::Method::GET, "/v1/admin/decisions?limit=100", None).await;
        let ids: Vec<String> = page["decisions"].as_array().unwrap().iter().map(|d| d["decision_id"].as_str().unwrap().to_string()).collect();
        if ids.len() >= 20 {
            break ids;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };

    // writers keep going while the backup runs
    let writer = {
        let (base, key) = (base.clone(), key.clone());
        tokio::spawn(async move {
            for i in 100..300 {
                let body = json!({ "user_id": format!("u-{i}"), "first_name": "Bo", "last_name": "Ek", "date_of_birth": "1980-01-01", "nationality": "SE", "email": format!("u{i}@example.com") });
                assert_eq!(send(&base, &key, reqwest::Method::POST, "/v1/sanctions/screen", Some(body)).await.0, 201);
            }
        })
    };
    let out = dir.path().join("backup.db");
    let backup = tokio::task::spawn_blocking({
        let (database, out) = (database.clone(), out.display().to_string());
        move || run(&["backup", "--database", &database, "--out", &out])
    })
    .await
    .unwrap();
    assert!(backup.status.success(), "{}", String::from_utf8_lossy(&backup.stderr));
    assert!(String::from_utf8_lossy(&backup.stdout).contains("pages"));
    writer.await.unwrap();
    drop(server);

    // the copy stands alone (no WAL beside it) and is a whole store
    assert!(!dir.path().join("backup.db-wal").exists() || std::fs::metadata(dir.path().join("backup.db-wal")).unwrap().len() == 0);
    let restored = format!("sqlite://{}", out.display());
    for id in [&recorded[0], &recorded[19]] {
        let replay = run(&["decisions", "replay", id, "--database", &restored]);
        assert!(replay.status.success(), "{id}: {}", String::from_utf8_lossy(&replay.stderr));
        assert_eq!(String::from_utf8_lossy(&replay.stdout).trim(), "identical");
    }
    // a server runs on the restored copy and serves what was in it
    let server = ServeProcess::start(&restored, free_port(), Some(&dir.path().join("g.db.key"))).await;
    let (status, user) = send(&server.base, &admin, reqwest::Method::GET, &format!("/v1/admin/decisions/{}", recorded[5]), None).await;
    assert_eq!((status, user["decision_id"].as_str()), (200, Some(recorded[5].as_str())));

    // the twins: a backup never overwrites, and Postgres is pg_dump's
    let again = run(&["backup", "--database", &database, "--out", &out.display().to_string()]);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("never overwrites"));
    let postgres = run(&["backup", "--database", "postgres://u:secret@127.0.0.1:1/db", "--out", &dir.path().join("pg.db").display().to_string()]);
    assert!(!postgres.status.success());
    let said = String::from_utf8_lossy(&postgres.stderr);
    assert!(said.contains("pg_dump") && !said.contains("secret"), "{said}");
    assert!(!dir.path().join("pg.db").exists());
    // a decision unknown to the copy is said to be missing, not replayed
    let missing = run(&["decisions", "replay", "dec_00000000000000000000000000", "--database", &restored]);
    assert_eq!(missing.status.code(), Some(2));
}
