//! Keeps the invariant "every regulatory decision is made by the rules":
//! no regulatory constant (as a number, or a product such as `7 * 86_400`)
//! and no rule-bearing state name appears in `gateway/src`. The values are
//! taken from the `rules` crate itself, so a new rule constant is covered by
//! adding it to `forbidden_values`. Plain time arithmetic (seconds in a day)
//! is not a rule and is allowed.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use std::path::Path;

use rules::traits::*;

fn forbidden_values() -> Vec<(i64, &'static str)> {
    let h = rules::time_horizons();
    let mut values = vec![
        (rules::limits::COOLOFF_UP_TO_5X, "48-hour cool-off"),
        (rules::limits::COOLOFF_ABOVE_5X, "7-day cool-off"),
        (rules::limits::window_seconds(rules::LimitWindow::Weekly), "weekly window"),
        (rules::limits::window_seconds(rules::LimitWindow::Monthly), "monthly window"),
        (h.kyc_abandon_seconds, "KYC abandonment"),
        (h.rescreen_after_seconds, "quarterly re-screen"),
        (h.review_target_seconds, "review target"),
        (h.snapshot_second_of_day, "03:00 snapshot"),
        (rules::kyc::VENDOR_TOKEN_SECONDS, "vendor token lifetime"),
        (h.decision_retention_seconds, "decision retention"),
    ];
    for tier in rules::KycTier::ALL {
        if let Some(c) = tier.ceiling_cents() {
            values.push((c, "KYC tier ceiling"));
            values.push((c + 1, "KYC next-tier threshold"));
        }
    }
    values
}

/// Names of states and values whose meaning is a rule; `gateway` uses the rules' enums instead.
const FORBIDDEN_NAMES: &[&str] = &[
    "\"hit_review_pending\"",
    "\"pending_review\"",
    "\"not_started\"",
    "\"in_progress\"",
    "\"duration_6m\"",
    "\"duration_1y\"",
    "\"duration_permanent\"",
    "\"tier_0\"",
    "\"tier_1\"",
    "\"tier_2\"",
    "\"government_id\"",
    "\"24-48 hours\"",
    "MIN_LIMIT",
    "RETENTION",
    "\"is_permanent\": true",
    "KYC_ABANDON",
    "RESCREEN_AFTER",
    // who a re-screen leaves as they are is the screening decision's to say
    "holds_transactions()",
    // when a case or check is due for review is the rules' to say (`describe_reviews`)
    "saturating_add(target)",
];

/// The integer products on a line of code, such as `7 * 86_400` or `604800`.
fn numbers_on(line: &str) -> Vec<i64> {
    let code = line.split("//").next().unwrap_or("");
    let mut found = Vec::new();
    let mut product: Option<i64> = None;
    let mut pending_times = false;
    let mut chars = code.chars().peekable();
    let mut prev_ident = false;
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() && !prev_ident {
            let mut text = String::from(c);
            while let Some(&d) = chars.peek() {
                if d.is_ascii_digit() || d == '_' {
                    text.push(d);
                    chars.next();
                } else {
                    break;
                }
            }
            let value: i64 = text.replace('_', "").parse().unwrap_or(0);
            product = Some(match (product, pending_times) {
                (Some(p), true) => p.saturating_mul(value),
                _ => value,
            });
            pending_times = false;
            if let Some(p) = product {
                found.push(p);
            }
            prev_ident = false;
            continue;
        }
        match c {
            ' ' => {}
            '*' if product.is_some() => pending_times = true,
            _ => {
                product = None;
                pending_times = false;
            }
        }
        prev_ident = c.is_ascii_alphanumeric() || c == '_';
    }
    found
}

fn sources(dir: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push((path.display().to_string(), std::fs::read_to_string(&path).unwrap()));
        }
    }
}

/// The opening words of every message the rules give a player: the wording
/// is the rules' (`rules::player_message`), so `gateway` never spells it.
fn player_message_openings() -> Vec<String> {
    use rules::{BreachNotice, DepositBreach, LimitWindow, PlayerNotice};
    let breach = |amount_cents, max_allowed_now_cents| {
        PlayerNotice::DepositBreach(BreachNotice {
            breach: DepositBreach { window: LimitWindow::Daily, limit_cents: 100, already_spent_cents: 0, max_allowed_now_cents, next_reset_at: 0 },
            amount_cents,
            currency: "USD".into(),
            currency_exponent: 2,
        })
    };
    let notices = [
        PlayerNotice::DepositHeld,
        PlayerNotice::DepositExcluded,
        PlayerNotice::WithdrawalHeld,
        PlayerNotice::WithdrawalApproved,
        breach(500, 50),
        breach(50, 0),
        breach(80, 50),
    ];
    notices.iter().map(|n| rules::player_message(n).chars().take(18).collect()).collect()
}

/// Columns whose comparison with a time is a rule's boundary: when an
/// exclusion ends, when a case or check is due.
const RULE_BOUNDARY_COLUMNS: &[&str] = &["expires_at", "review_due_at", "created_at +", "updated_at +"];

/// SQL that counts by a rule's boundary decides in the store what the rules
/// must decide (a store may pre-select rows for the rules, but not count them).
fn counts_by_a_rule(file: &str, text: &str) -> Vec<String> {
    text.split('"')
        .skip(1)
        .step_by(2)
        .filter(|sql| sql.contains("COUNT(") && RULE_BOUNDARY_COLUMNS.iter().any(|c| sql.contains(c)))
        .map(|sql| format!("{file}: a count by a rule's boundary belongs to the rules: {}", sql.split_whitespace().collect::<Vec<_>>().join(" ")))
        .collect()
}

fn violations(file: &str, text: &str) -> Vec<String> {
    let values = forbidden_values();
    let openings = player_message_openings();
    let mut found = counts_by_a_rule(file, text);
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("//") {
            continue;
        }
        for number in numbers_on(line) {
            if let Some((_, what)) = values.iter().find(|(v, _)| *v == number) {
                found.push(format!("{file}:{}: {what} ({number}) belongs in rules/: {}", n + 1, line.trim()));
            }
        }
        for name in FORBIDDEN_NAMES {
            if line.contains(name) {
                found.push(format!("{file}:{}: {name} belongs in rules/: {}", n + 1, line.trim()));
            }
        }
        for opening in &openings {
            if line.contains(opening.as_str()) {
                found.push(format!("{file}:{}: a player's message ({opening}…) belongs in rules/: {}", n + 1, line.trim()));
            }
        }
    }
    found
}

#[test]
fn gateway_src_holds_no_regulatory_constant_or_state_name() {
    let mut files = Vec::new();
    sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut files);
    assert!(files.len() > 10, "the scan found too few files");
    // Unit tests state expected figures; the scan covers the code above them
    // (a module's `tests.rs` is a test module: `#[cfg(test)] mod tests;`).
    let code = |t: &str| t.split("#[cfg(test)]").next().unwrap_or("").to_string();
    let is_test_module = |f: &str| f.ends_with("/tests.rs");
    let found: Vec<String> = files.iter().filter(|(f, _)| !is_test_module(f)).flat_map(|(f, t)| violations(f, &code(t))).collect();
    assert!(found.is_empty(), "regulatory rules outside rules/:\n{}", found.join("\n"));
}

#[test]
fn the_scan_catches_planted_rules() {
    assert_eq!(numbers_on("let x = 7 * 86_400;"), vec![7, 604_800]);
    assert!(!violations("x.rs", "const A: i64 = 7 * 86_400;").is_empty());
    assert!(!violations("x.rs", "if cents > 20_000 {").is_empty());
    assert!(!violations("x.rs", "let s = \"pending_review\";").is_empty());
    assert!(!violations("x.rs", "wait(48 * 3600)").is_empty());
    assert!(violations("x.rs", "const DAY: i64 = 86_400; // 7 * 86_400 in a comment").is_empty());
    assert!(violations("x.rs", "let v2 = tier2_thing;").is_empty());
    assert!(!violations("x.rs", "const HELD: &str = \"Deposits are temporarily unavailable on this account.\";").is_empty());
    assert!(!violations("x.rs", "format!(\"You have reached your {window} deposit limit\")").is_empty());
    assert!(!violations("x.rs", "message: Some(\"Withdrawal held: the account is under review.\"),").is_empty());
    assert!(!violations("x.rs", "let due = c.updated_at.saturating_add(target);").is_empty());
    // the daily snapshot's count and the overdue figures as they were counted before
    assert!(
        !violations("x.rs", "\"(SELECT COUNT(*) FROM exclusions WHERE environment = ?1 AND (expires_at IS NULL OR expires_at > ?3))\"").is_empty()
    );
    assert!(!violations(
        "x.rs",
        "\"SELECT COUNT(*) FROM kyc_checks k JOIN tenants t ON t.tenant_id = k.tenant_id\n WHERE k.status = ?2 AND k.updated_at + ?3 <= ?4\""
    )
    .is_empty());
    assert!(violations("x.rs", "\"SELECT COUNT(*) FROM kyc_checks WHERE environment = ?1 AND status = ?2\"").is_empty());
}
