//! Runs the cases against an environment and reports like a test harness.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::client::OPERATOR_RESPONSES;
use crate::{Case, CaseResult, Env};

/// Words that would tip a user off: matched-entity details never reach operators.
pub const TIPPING_OFF_MARKERS: &[&str] =
    &["entity_name", "entity_id", "matches", "OFAC", "SDN", "OFSI", "Security Council", "Consolidated", "STUB-", "SANCTIONEDSAM"];

/// The body without the values of freshly made secrets (session tokens,
/// keys, one-time passwords): random letters that may spell a marker
/// ("cgw_ps_live_SDN…") by chance and name no one.
fn without_random_secrets(body: &str) -> String {
    const SECRETS: &[&str] = &["session_token", "api_key", "password", "totp_secret", "secret", "key"];
    match serde_json::from_str::<serde_json::Value>(body) {
        Ok(serde_json::Value::Object(mut fields)) => {
            fields.retain(|name, _| !SECRETS.contains(&name.as_str()));
            serde_json::Value::Object(fields).to_string()
        }
        _ => body.to_string(),
    }
}

/// The store's files, scanned after the run for what must never be kept in clear.
static STORE_FILES: std::sync::OnceLock<Vec<std::path::PathBuf>> = std::sync::OnceLock::new();

/// Names the files the server's store writes (a SQLite database and its journal), for the whole-run checks.
pub fn scan_store_files(paths: Vec<std::path::PathBuf>) {
    let _ = STORE_FILES.set(paths);
}

/// Checks made over every operator response of the run, after all cases.
fn whole_run_checks() -> Vec<(&'static str, CaseResult)> {
    let log = OPERATOR_RESPONSES.lock().map(|l| l.clone()).unwrap_or_default();
    // The OpenAPI document describes the admin API's fields; it carries no one's data.
    let tipping = log.iter().filter(|(path, ..)| path != "GET /v1/openapi.json").find_map(|(path, _, body, _)| {
        let shown: String = body.chars().take(400).collect();
        let body = without_random_secrets(body);
        TIPPING_OFF_MARKERS.iter().find(|m| body.contains(*m)).map(|m| format!("{path} carried {m:?}: {shown}"))
    });
    let server_errors = log
        .iter()
        // readiness answers 503 by contract while a check fails; it is no operator's call
        .filter(|(path, ..)| path != "GET /v1/health/ready")
        .find(|(_, status, body, _)| *status >= 500 && !body.contains("vendor_unavailable"))
        .map(|(p, s, b, _)| format!("{p} answered {s}: {b}"));
    // the national identifiers the register cases sent (issue 47): never answered in clear
    let national_ids = crate::registers::national_ids_sent();
    let identifier = log.iter().find_map(|(path, _, body, _)| {
        national_ids.iter().find(|id| body.contains(id.as_str())).map(|id| format!("{path} answered the national identifier {id} a case sent"))
    });
    // and never kept in clear: the store's files, where the harness names them (SQLite)
    // every identifier at once, in one pass over each file (a run sends hundreds; a store holds the lists)
    let finder = aho_corasick::AhoCorasick::new(&national_ids);
    let stored = STORE_FILES.get().into_iter().flatten().enumerate().find_map(|(i, path)| {
        let bytes = std::fs::read(path).unwrap_or_default();
        // the database itself must be there to be scanned (its journal may have been checkpointed away)
        if i == 0 && bytes.len() < 4096 {
            return Some(format!("{} could not be scanned", path.display()));
        }
        let finder = match &finder {
            Ok(finder) => finder,
            Err(e) => return Some(format!("the identifiers could not be searched for: {e}")),
        };
        finder
            .find(&bytes)
            .and_then(|m| national_ids.get(m.pattern().as_usize()))
            .map(|id| format!("{} holds the national identifier {id} in clear", path.display()))
    });
    let missing_id = log.iter().find(|(_, status, _, has_id)| *status != 0 && !has_id).map(|(p, s, _, _)| format!("{p} ({s}) had no x-request-id"));
    vec![
        ("tipping_off_no_operator_response_names_a_match", tipping.map_or(Ok(()), Err)),
        ("no_response_of_the_run_was_a_server_error", server_errors.map_or(Ok(()), Err)),
        ("every_response_carries_a_request_id", missing_id.map_or(Ok(()), Err)),
        ("no_operator_response_carries_a_national_identifier", identifier.map_or(Ok(()), Err)),
        ("no_stored_file_holds_a_national_identifier", stored.map_or(Ok(()), Err)),
        ("the_run_saw_operator_responses", if log.len() > 100 { Ok(()) } else { Err(format!("only {} responses were recorded", log.len())) }),
        ("every_webhook_event_matched_its_documented_schema", crate::receiver::schema_report().map(|seen| println!("{seen}"))),
    ]
}

/// Runs every case not in `skip` on `threads` threads; returns true when all passed.
pub fn run(env: &Env, cases: &[Case], skip: &[&str], threads: usize) -> bool {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(&'static str, CaseResult)>> = Mutex::new(Vec::new());
    let filter = std::env::args().nth(1).filter(|a| !a.starts_with('-'));
    let selected: Vec<&Case> =
        cases.iter().filter(|c| !skip.contains(&c.name)).filter(|c| filter.as_deref().is_none_or(|f| c.name.contains(f))).collect();
    println!("\nrunning {} conformance cases ({} skipped by this host)", selected.len(), skip.len());
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(case) = selected.get(i) else { break };
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (case.run)(env)))
                    .unwrap_or_else(|_| Err("the case panicked".to_string()));
                println!("test {} ... {}", case.name, if outcome.is_ok() { "ok" } else { "FAILED" });
                if let Ok(mut r) = results.lock() {
                    r.push((case.name, outcome));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_default();
    if filter.is_none() {
        for (name, outcome) in whole_run_checks() {
            println!("test {name} ... {}", if outcome.is_ok() { "ok" } else { "FAILED" });
            results.push((name, outcome));
        }
    }
    let failed: Vec<_> = results.iter().filter(|(_, r)| r.is_err()).collect();
    if !failed.is_empty() {
        println!("\nfailures:");
        for (name, outcome) in &failed {
            if let Err(message) = outcome {
                println!("---- {name} ----\n{message}\n");
            }
        }
    }
    for name in skip {
        println!("skipped {name}");
    }
    let passed = results.len() - failed.len();
    println!("\n{passed} passed, {} failed, {} skipped", failed.len(), skip.len());
    failed.is_empty()
}
