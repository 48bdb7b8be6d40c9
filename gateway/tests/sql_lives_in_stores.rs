//! Keeps "an area's SQL is in its `store.rs`": no SQL string appears in
//! `gateway/src` outside `*/store.rs`, `schema.rs` and the store contract;
//! and statuses are bound from their enums, never spelled in a statement.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod scan;

use std::path::{Path, PathBuf};

use scan::rust_files;

/// Where SQL belongs.
fn may_hold_sql(relative: &str) -> bool {
    relative.ends_with("/store.rs") || relative == "schema.rs" || relative == "store_contract.rs"
}

/// Whether a line of Rust holds the start of a SQL statement in a string.
fn holds_sql(line: &str) -> bool {
    let code = line.trim_start();
    if code.starts_with("//") {
        return false;
    }
    ["\"SELECT ", "\"INSERT INTO ", "\"UPDATE ", "\"DELETE FROM ", "\"WITH RECURSIVE ", "\"CREATE TABLE ", "\"ALTER TABLE "]
        .iter()
        .any(|start| line.contains(start))
}

fn files_with_sql(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut with_sql: Vec<String> = files
        .iter()
        .filter(|f| std::fs::read_to_string(f).unwrap().lines().any(holds_sql))
        .map(|f| f.strip_prefix(src).unwrap().to_string_lossy().replace('\\', "/"))
        .collect();
    with_sql.sort();
    with_sql
}

#[test]
fn sql_is_only_in_area_stores() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let with_sql = files_with_sql(&src);
    let strays: Vec<&String> = with_sql.iter().filter(|f| !may_hold_sql(f)).collect();
    assert!(strays.is_empty(), "SQL outside an area's store.rs: {strays:?}");
    for area in ["sanctions", "kyc", "exclusions", "limits", "aml", "webhooks", "lists", "tenants", "decisions"] {
        assert!(with_sql.iter().any(|f| *f == format!("{area}/store.rs")), "the scan found no SQL in {area}/store.rs: it reads nothing");
    }
}

/// A status compared with a quoted literal in a statement: `status = 'open'`, `status IN ('a', 'b')`.
fn spells_a_status(line: &str) -> bool {
    let Some(at) = line.find("status") else { return false };
    let rest = line[at + "status".len()..].trim_start();
    let rest = rest.strip_prefix("IN").or_else(|| rest.strip_prefix("<>")).or_else(|| rest.strip_prefix('=')).map(str::trim_start);
    rest.is_some_and(|r| r.starts_with('\'') || r.starts_with("('"))
}

#[test]
fn statuses_are_bound_from_their_enums() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut spelled = Vec::new();
    for file in files.iter().filter(|f| f.ends_with("store.rs")) {
        for (n, line) in std::fs::read_to_string(file).unwrap().lines().enumerate() {
            if line.match_indices("status").any(|(at, _)| spells_a_status(&line[at..])) {
                spelled.push(format!("{}:{}", file.display(), n + 1));
            }
        }
    }
    assert!(spelled.is_empty(), "statuses spelled in SQL instead of bound from their enum: {spelled:?}");
}

/// The scan sees a statement where it would hide, and passes comments.
#[test]
fn the_scan_sees_sql_in_strings_only() {
    assert!(holds_sql(r#"        .query("SELECT secret FROM webhooks WHERE webhook_id = ?1", vec![])"#));
    assert!(holds_sql(r#"    Stmt::new("UPDATE users SET version = version + 1", vec![])"#));
    assert!(!holds_sql("    // SELECT the rows by hand"));
    assert!(!holds_sql(r#"    let verb = "select";"#));
    assert!(may_hold_sql("webhooks/store.rs") && !may_hold_sql("webhooks/mod.rs"));
    assert!(spells_a_status("status = 'active' ORDER BY source"));
    assert!(spells_a_status("status IN ('loading', 'staging')"));
    assert!(spells_a_status("status <> 'active'"));
    let planted = "WHERE l.environment = t.environment AND l.status = 'active'))";
    assert!(planted.match_indices("status").any(|(at, _)| spells_a_status(&planted[at..])));
    assert!(!spells_a_status("status = ?3 ORDER BY source"));
    assert!(!spells_a_status("status IN (?5, ?6)"));
}
