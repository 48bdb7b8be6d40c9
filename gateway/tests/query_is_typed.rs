//! Keeps "a handler's query is its typed struct": no code in `gateway/src`
//! reads a query parameter by its name. Each operation's query is a struct
//! deriving `Deserialize` and `IntoParams`, read with `Query::parse_into`
//! (`input/query.rs`), which is also the operation's documented parameters.
//! The console's HTML pages read their own form (`console::Form`), not the
//! API's query, and are left out.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod scan;

use scan::sources;

/// Where reading a query by name is allowed: the query itself, and the console's own form.
fn may_read_by_name(relative: &str) -> bool {
    relative.starts_with("input/") || relative.starts_with("console/")
}

/// Whether a line of Rust reads a query parameter by its name.
fn reads_by_name(line: &str) -> bool {
    let code = line.trim_start();
    if code.starts_with("//") {
        return false;
    }
    ["query.get(", "query.required(", ".page_limit(", "cursor::from_query("].iter().any(|read| code.contains(read))
}

#[test]
fn no_handler_reads_a_query_parameter_by_name() {
    let strays: Vec<String> = sources()
        .iter()
        .filter(|(file, _)| !may_read_by_name(file))
        .flat_map(|(file, text)| {
            text.lines().enumerate().filter(|(_, line)| reads_by_name(line)).map(move |(n, line)| format!("{file}:{}: {}", n + 1, line.trim()))
        })
        .collect();
    assert!(strays.is_empty(), "query parameters read by name, not through the operation's typed query:\n{}", strays.join("\n"));
}

/// The scan sees the handlers: every area whose operations take a query reads it typed.
#[test]
fn the_areas_with_queries_read_them_typed() {
    let sources = sources();
    for area in ["cases", "exclusions", "sanctions", "aml", "kyc", "limits", "tenants", "webhooks", "decisions", "lists"] {
        let file = format!("{area}/mod.rs");
        let text = &sources.iter().find(|(f, _)| *f == file).unwrap_or_else(|| panic!("{file} is gone")).1;
        // a handler's typed query is its `Params<T>` input, or read with `parse_into`
        assert!(text.contains("ctx.query.parse_into()") || text.contains("Params<"), "{file} reads no typed query");
    }
}

/// The matcher finds what it is for, and passes what it is not.
#[test]
fn the_matcher_finds_reads_by_name() {
    for read in [
        r#"    let status = ctx.query.get("status");"#,
        r#"    let id = ctx.query.required("user_id")?;"#,
        r#"    let limit = ctx.query.page_limit(100, 500)?;"#,
        r#"    let q = &ctx.query; let limit = q.page_limit(1, 2)?;"#,
        r#"    let after = crate::api::cursor::from_query(ctx.query.get("cursor"))?;"#,
    ] {
        assert!(reads_by_name(read), "{read}");
    }
    for typed in [r#"    let CaseQuery { status, cursor } = ctx.query.parse_into()?;"#, r#"    // ctx.query.get("status") was read here"#] {
        assert!(!reads_by_name(typed), "{typed}");
    }
}
