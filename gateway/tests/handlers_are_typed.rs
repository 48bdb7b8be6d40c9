//! Keeps "a handler's signature is its contract" (issue #32, item 1). The
//! route table types every keyed handler (`router::route_table!`: a handler
//! takes its typed input and returns its typed reply, or it does not
//! compile, and the table documents both from that signature). These scans
//! keep the rest: no doc function names a body, query or response schema by
//! hand, and no handler reads the raw body (a body is read only by its
//! type's `FromBody::from_body`, or the parser that shares it). Public
//! routes take the request itself (their credentials are in it) and return
//! their typed reply; their doc functions name only the body they read.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod scan;

use scan::sources;

/// The doc functions of the public routes that read a body from the request.
const PUBLIC_BODY_DOCS: [&str; 2] = ["identity_vendor_webhook_doc", "sign_in_doc"];

/// Where the mechanism lives: it may name schemas and read the body.
fn is_mechanism(relative: &str) -> bool {
    relative.starts_with("input/") || relative.starts_with("openapi/") || relative.starts_with("router/") || relative.starts_with("pipeline/")
}

fn is_code(line: &str) -> bool {
    !line.trim_start().starts_with("//")
}

/// Whether a line names a schema by hand in an operation's document.
fn names_a_schema(line: &str) -> bool {
    is_code(line) && [".body::<", ".responds::<", ".query::<"].iter().any(|s| line.contains(s))
}

/// Whether a line names a response or query schema by hand: no route does.
fn names_a_reply_or_query(line: &str) -> bool {
    is_code(line) && [".responds::<", ".query::<"].iter().any(|s| line.contains(s))
}

/// Whether a line reads the raw body: the context's, or any through `Fields`.
fn reads_the_body(line: &str) -> bool {
    is_code(line) && (line.contains("ctx.body") || line.contains("Fields::from_body("))
}

/// The name of the function a line declares, if it does.
fn declares_fn(line: &str) -> Option<&str> {
    let at = line.find("fn ")?;
    let rest = &line[at + 3..];
    let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
    (line[..at].split_whitespace().all(|w| ["pub", "pub(crate)", "async", "const"].contains(&w)) && end > 0).then(|| &rest[..end])
}

/// Each line (file:line: text) of the areas where `found` holds, outside the function allowed to.
fn strays(found: fn(&str) -> bool, allowed_in: fn(&str) -> bool) -> Vec<String> {
    let mut strays = Vec::new();
    for (file, text) in sources().iter().filter(|(f, _)| !is_mechanism(f)) {
        let mut current = "";
        // a file's unit tests (at its end) may build documents by hand
        for (n, line) in text.lines().enumerate().take_while(|(_, l)| l.trim() != "#[cfg(test)]") {
            if let Some(name) = declares_fn(line) {
                current = name;
            }
            if found(line) && !allowed_in(current) {
                strays.push(format!("{file}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    strays
}

#[test]
fn no_doc_function_names_a_schema_by_hand() {
    let named = strays(names_a_schema, |f| PUBLIC_BODY_DOCS.contains(&f));
    assert!(named.is_empty(), "schemas named by hand; the handler's input and reply types document them:\n{}", named.join("\n"));
    // a public route's replies come from its signature too
    let replies = strays(names_a_reply_or_query, |_| false);
    assert!(replies.is_empty(), "response or query schemas named by hand:\n{}", replies.join("\n"));
}

#[test]
fn no_handler_reads_the_raw_body() {
    // a body type's reader, and the parser it may share (an AML report's, which backtests read stored payloads with)
    let strays = strays(reads_the_body, |f| f == "from_body" || f == "parse");
    assert!(strays.is_empty(), "the raw body read outside a body type's FromBody::from_body:\n{}", strays.join("\n"));
}

/// The matchers find what they are for, and pass what they are not.
#[test]
fn the_matchers_find_what_they_look_for() {
    assert!(names_a_schema("        .body::<DepositQuestion>()"));
    assert!(names_a_schema("        .responds::<Cancelled>(200, \"success\")"));
    assert!(names_a_schema("        .query::<UserQuery>()"));
    assert!(!names_a_schema("        .or_200(\"a repeat\")"));
    assert!(!names_a_schema("    // .body::<T>() was here"));
    assert!(names_a_reply_or_query("        .responds::<SessionStarted>(201, \"signed in\")"));
    assert!(!names_a_reply_or_query("        .body::<SignInRequest>()"));
    assert!(reads_the_body("    let mut f = Fields::from_body(ctx.body)?;"));
    assert!(reads_the_body("    let raw = ctx.body;"));
    assert!(!reads_the_body("pub(crate) async fn check(gw: &Gateway, ctx: &Ctx<'_>, Body(q): Body<Question>) -> ApiResult<Answer<A>> {"));
    assert_eq!(declares_fn("    fn from_body(body: &[u8], _: &Ctx<'_>) -> ApiResult<Self> {"), Some("from_body"));
    assert_eq!(declares_fn("pub(crate) async fn check_limits(gw: &Gateway) {"), Some("check_limits"));
    assert_eq!(declares_fn("pub(crate) fn check_limits_doc() -> OperationDoc {"), Some("check_limits_doc"));
    assert_eq!(declares_fn("    let f = |x| x; // no fn here"), None);
}

/// The scans read the sources: with no exception allowed, they find the
/// public routes' hand-named schemas and the body parsers' reads.
#[test]
fn the_scans_see_the_sources() {
    let named = strays(names_a_schema, |_| false);
    assert!(named.iter().any(|l| l.contains(".body::<SignInRequest>()")), "{named:?}");
    let reads = strays(reads_the_body, |_| false);
    assert!(reads.len() > 20, "{reads:?}");
}
