//! The OpenAPI 3.1 document generated from the route table and each
//! handler's [`OperationDoc`], and its drift check against the committed
//! `gateway/openapi.json`. Above the route table: the areas below only
//! describe their operations.

use super::{self as router, Access, Route, RouteSpec, ROUTES};
use std::collections::BTreeMap;

use serde_json::{json, Map, Value as Json};

use utoipa::{PartialSchema, ToSchema};

use crate::error::ApiResult;
use crate::input::FromRequest;
use crate::openapi::answer::IntoReply;
use crate::openapi::{to_json, OperationDoc};
use crate::{Ctx, Gateway};

/// An operation's document from its handler's signature: the request its
/// input type reads and the responses its reply type answers, added to
/// what the area says of it (`doc`). An `async fn` with borrowed arguments
/// is a `Fn` of each of their lifetimes, so of `'static` ones: that names
/// its input and reply types without calling it.
pub(crate) fn document_of<F, I, Fut, O>(_handler: F, doc: OperationDoc) -> OperationDoc
where
    F: Fn(&'static Gateway, &'static Ctx<'static>, I) -> Fut,
    Fut: std::future::Future<Output = ApiResult<O>>,
    I: FromRequest,
    O: IntoReply,
{
    O::document(I::document(doc))
}

/// A public operation's document: the responses its reply type answers,
/// added to what the area says of it. A public handler takes the request
/// itself, whose credentials it checks (sign-in's body and source address, a
/// vendor's digest over the raw bytes); its doc names the body it reads.
pub(crate) fn public_document_of<F, Fut, O>(_handler: F, doc: OperationDoc) -> OperationDoc
where
    F: Fn(&'static Gateway, &'static http::Request<Vec<u8>>) -> Fut,
    Fut: std::future::Future<Output = ApiResult<O>>,
    O: IntoReply,
{
    O::document(doc)
}

/// The operations' tags, in the order readers see them.
const TAGS: [&str; 10] = ["service", "sanctions", "kyc", "exclusions", "limits", "aml", "webhooks", "audit", "sandbox", "admin"];

/// The shared error responses: component name, status, what it means, and
/// whether it carries `Retry-After`.
const ERROR_RESPONSES: &[(&str, u16, &str, bool)] = &[
    ("BadRequest", 400, "the body or query is not valid: `invalid_json`, `missing_fields`, `invalid_field`, `invalid_amount`, `invalid_limit`, `invalid_query` and the operation's own codes", false),
    ("Unauthorized", 401, "`missing_credentials` (no Authorization header) or `invalid_credentials` (malformed, unknown or revoked key, or suspended tenant)", false),
    ("Forbidden", 403, "`forbidden`: the operation needs an admin key; `sandbox_only`: the operation needs a sandbox key; `person_required`, `role_forbidden`, `self_approval`, `creator_approval`, `four_eyes_required`, `password_change_required`: the compliance team's rules of who may decide", false),
    ("NotFound", 404, "the referenced resource does not exist or is not visible to the caller", false),
    ("Conflict", 409, "`idempotency_key_reused`, `idempotency_key_in_use`, `concurrent_update` and the operation's own conflicts", false),
    ("PayloadTooLarge", 413, "`payload_too_large`: the body is larger than 64 KiB", false),
    ("UnsupportedMediaType", 415, "`unsupported_media_type`: a body must be sent as application/json", false),
    ("Unprocessable", 422, "syntactically valid but semantically rejected: `invalid_field` for a text made only of invisible or bidi control characters, and the operation's own codes", false),
    ("TooManyRequests", 429, "`rate_limited` (over the key's quota) or `too_many_failures` (too many failed authentications from this address)", true),
    ("Unavailable", 503, "`rules_unavailable` (the rules engine could not decide) or `vendor_unavailable` (no screening source); retry after Retry-After", true),
];

/// The error statuses every route of an access answers.
fn errors_of(access: Access) -> &'static [u16] {
    match access {
        Access::Public => &[],
        Access::Tenant => &[400, 401, 413, 415, 429, 503],
        Access::Admin | Access::Review | Access::Person => &[400, 401, 403, 413, 415, 429, 503],
    }
}

fn operation(spec: &RouteSpec, mut doc: OperationDoc) -> Result<Json, String> {
    // Every text read from a body or a query is refused 422 when made only of invisible characters.
    let reads_text: &[u16] = if doc.request.is_some() || !doc.query.is_empty() { &[422] } else { &[] };
    let mut parameters: Vec<Json> = spec
        .path
        .split('/')
        .filter_map(|s| s.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
        .map(|name| json!({ "name": name, "in": "path", "required": true, "schema": { "type": "string", "minLength": 1 } }))
        .collect();
    parameters.extend(doc.query);
    // the header is documented wherever the pipeline honours it
    let idempotent = Route::spec_takes_idempotency_key(spec);
    if idempotent {
        // a key reused for another request, or still running: 409 `idempotency_key_reused`, `idempotency_key_in_use`
        if !doc.errors.contains(&409) {
            doc.errors.push(409);
        }
        parameters.push(json!({ "$ref": "#/components/parameters/IdempotencyKey" }));
    }
    let mut headers = json!({ "X-Request-Id": { "$ref": "#/components/headers/X-Request-Id" } });
    if spec.access != Access::Public {
        headers["RateLimit"] = json!({ "$ref": "#/components/headers/RateLimit" });
        headers["RateLimit-Policy"] = json!({ "$ref": "#/components/headers/RateLimit-Policy" });
    }
    let mut responses = Map::new();
    // A repeat with the same Idempotency-Key answers the original success with 200.
    let replayed = idempotent
        .then(|| doc.responses.iter().find(|(s, _)| (201..300).contains(s)).map(|(_, r)| r.clone()))
        .flatten()
        .filter(|_| !doc.responses.iter().any(|(s, _)| *s == 200));
    for (status, mut response) in doc.responses {
        response["headers"] = headers.clone();
        responses.insert(status.to_string(), response);
    }
    if let Some(mut response) = replayed {
        response["description"] = json!("a repeat with the same Idempotency-Key: the original answer");
        response["headers"] = headers.clone();
        responses.insert("200".to_string(), response);
    }
    for status in errors_of(spec.access).iter().chain(&doc.errors).chain(reads_text) {
        let (name, ..) =
            ERROR_RESPONSES.iter().find(|(_, s, ..)| s == status).ok_or_else(|| format!("{}: no shared response for {status}", spec.operation_id))?;
        responses.insert(status.to_string(), json!({ "$ref": format!("#/components/responses/{name}") }));
    }
    let mut operation = json!({
        "operationId": spec.operation_id,
        "summary": doc.summary,
        "tags": [doc.tag],
        "responses": responses,
        "security": match spec.access {
            Access::Public => json!([]),
            Access::Tenant => json!([{ "tenantKey": [] }]),
            Access::Admin => json!([{ "adminKey": [] }]),
            Access::Review => json!([{ "adminKey": [] }, { "personSession": [] }]),
            Access::Person => json!([{ "personSession": [] }]),
        },
    });
    if let Some(description) = doc.description {
        operation["description"] = description.into();
    }
    if !parameters.is_empty() {
        operation["parameters"] = parameters.into();
    }
    if let Some(request) = doc.request {
        operation["requestBody"] = request;
    }
    Ok(operation)
}

/// The document, from the route table and the areas' types.
pub fn generate() -> Result<Json, String> {
    let mut schemas: BTreeMap<String, Json> = BTreeMap::new();
    // every error response refers to the error body by name
    schemas.insert(crate::error::ErrorBody::name().into_owned(), to_json(&crate::error::ErrorBody::schema()));
    let mut paths = Map::new();
    for spec in ROUTES {
        let doc = router::operation_doc(spec.operation_id).ok_or_else(|| format!("{}: not in the route table", spec.operation_id))?;
        for (name, schema) in &doc.schemas {
            if schemas.get(name).is_some_and(|known| known != schema) {
                return Err(format!("two schemas are named {name}"));
            }
            schemas.insert(name.clone(), schema.clone());
        }
        let item = paths.entry(spec.path).or_insert_with(|| json!({}));
        item[spec.method.to_lowercase()] = operation(spec, doc)?;
    }
    // the webhook events: each kind's envelope and its payload (`webhooks/events.rs`)
    let (webhooks, event_schemas) = crate::webhooks::events::document()?;
    for (name, schema) in event_schemas {
        if schemas.get(&name).is_some_and(|known| *known != schema) {
            return Err(format!("two schemas are named {name}"));
        }
        schemas.insert(name, schema);
    }
    let error_body = json!({ "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } });
    let mut responses = Map::new();
    for (name, _, description, retry_after) in ERROR_RESPONSES {
        let mut headers = json!({ "X-Request-Id": { "$ref": "#/components/headers/X-Request-Id" } });
        if *retry_after {
            headers["Retry-After"] = json!({ "$ref": "#/components/headers/Retry-After" });
        }
        responses.insert((*name).into(), json!({ "description": description, "headers": headers, "content": error_body }));
    }
    Ok(json!({
        "openapi": "3.1.0",
        "info": {
            "title": "Compliance Gateway",
            "version": "1.0.0",
            "description": "Sanctions screening, KYC-gated withdrawals, shared self-exclusion and deposit limits for gaming operators. Every error is `{error, message, request_id}` with a stable `error` code. Authenticated responses carry the IETF `RateLimit` and `RateLimit-Policy` headers; a 429 carries `Retry-After`. This document is served at `GET /v1/openapi.json`, generated from the gateway's route table and typed bodies, and checked against the running service by schemathesis in CI.",
            "license": { "name": "Apache-2.0", "identifier": "Apache-2.0" },
        },
        "servers": [{ "url": "http://127.0.0.1:8080", "description": "the native host's default address" }],
        "tags": TAGS.map(|name| json!({ "name": name })),
        "paths": paths,
        "webhooks": webhooks,
        "components": {
            "schemas": schemas,
            "responses": responses,
            "headers": {
                "RateLimit": { "description": "where the key stands: remaining requests (r) and seconds to reset (t)", "required": true, "schema": { "type": "string", "pattern": "^\"per-key\";r=[0-9]+;t=[0-9]+$" } },
                "RateLimit-Policy": { "description": "the key's quota (q) per window of w seconds", "required": true, "schema": { "type": "string", "pattern": "^\"per-key\";q=[0-9]+;w=[0-9]+$" } },
                "Retry-After": { "description": "seconds to wait before retrying", "required": true, "schema": { "type": "string", "pattern": "^[0-9]+$" } },
                "X-Request-Id": { "description": "the request id, as in error bodies", "required": true, "schema": { "type": "string" } },
            },
            "parameters": {
                "IdempotencyKey": { "name": "Idempotency-Key", "in": "header", "required": false, "description": "repeat a POST safely: the same key and request answer the original success", "schema": { "type": "string", "pattern": "^[!-~]{1,255}$" } },
            },
            "securitySchemes": {
                "tenantKey": { "type": "http", "scheme": "bearer", "description": "an operator's key: `<prefix>_sk_test_…` (sandbox) or `<prefix>_sk_live_…` (production)" },
                "adminKey": { "type": "http", "scheme": "bearer", "description": "a key of the compliance team, made with `compliance-gateway admin-key`" },
                "personSession": { "type": "http", "scheme": "bearer", "description": "a member of the compliance team's session token (`cgw_ps_test_…` or `cgw_ps_live_…`), from `POST /v1/admin/sessions`" },
            },
        },
    }))
}

/// The first place (a JSON pointer) where the committed text differs from the generated document.
pub fn drift(committed: &str, generated: &Json) -> Option<String> {
    let committed: Json = match serde_json::from_str(committed) {
        Ok(json) => json,
        Err(e) => return Some(format!("the committed document is not JSON: {e}")),
    };
    fn first_difference(path: String, a: &Json, b: &Json) -> Option<String> {
        match (a, b) {
            (Json::Object(x), Json::Object(y)) => {
                let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
                keys.into_iter().find_map(|k| {
                    let at = format!("{path}/{}", k.replace('~', "~0").replace('/', "~1"));
                    match (x.get(k), y.get(k)) {
                        (Some(a), Some(b)) => first_difference(at, a, b),
                        (Some(_), None) => Some(format!("{at} is committed but not generated")),
                        _ => Some(format!("{at} is generated but not committed")),
                    }
                })
            }
            (Json::Array(x), Json::Array(y)) if x.len() == y.len() => {
                x.iter().zip(y).enumerate().find_map(|(i, (a, b))| first_difference(format!("{path}/{i}"), a, b))
            }
            _ if a == b => None,
            _ => Some(format!("{path} differs")),
        }
    }
    first_difference(String::new(), &committed, generated)
}

#[cfg(test)]
mod openapi_tests {
    use std::collections::BTreeSet;

    use http::Method;

    use super::*;
    use crate::openapi::{reply, without_null, DOCUMENT};
    use crate::router::{resolve, Access, ROUTES};

    const METHODS: [&str; 5] = ["get", "post", "put", "patch", "delete"];

    fn document() -> Json {
        serde_json::from_str(DOCUMENT).expect("openapi.json is JSON")
    }

    /// The drift check: `gateway/openapi.json` is what the route table and
    /// the types generate. `CGW_WRITE_OPENAPI=1` rewrites it.
    #[test]
    fn the_committed_document_is_the_generated_one() {
        let generated = generate().expect("generates");
        if std::env::var_os("CGW_WRITE_OPENAPI").is_some() {
            let text = serde_json::to_string_pretty(&generated).expect("serialises") + "\n";
            std::fs::write(concat!(env!("CARGO_MANIFEST_DIR"), "/openapi.json"), text).expect("writes");
            return;
        }
        if let Some(at) = drift(DOCUMENT, &generated) {
            panic!("gateway/openapi.json drifted from the route table and types at {at}; run `CGW_WRITE_OPENAPI=1 cargo test -p gateway --lib openapi` and commit it");
        }
    }

    /// The drift check's twin: a planted change to a body, a route or a
    /// shared response is found, with where.
    #[test]
    fn a_planted_drift_is_found() {
        let generated = generate().expect("generates");
        let committed = serde_json::to_string_pretty(&generated).expect("serialises");
        assert_eq!(drift(&committed, &generated), None);
        let mut changed = generated.clone();
        changed["paths"]["/v1/health"]["get"]["summary"] = "something else".into();
        assert_eq!(drift(&committed, &changed).as_deref(), Some("/paths/~1v1~1health/get/summary differs"));
        let mut removed = generated.clone();
        removed["paths"].as_object_mut().expect("paths").remove("/v1/rules");
        assert_eq!(drift(&committed, &removed).as_deref(), Some("/paths/~1v1~1rules is committed but not generated"));
        let mut added = generated;
        added["components"]["responses"]["Gone"] = json!({});
        assert_eq!(drift(&committed, &added).as_deref(), Some("/components/responses/Gone is generated but not committed"));
        assert!(drift("{", &added).is_some_and(|e| e.contains("not JSON")));
    }

    #[test]
    fn a_query_parameter_is_never_null() {
        assert_eq!(without_null(json!({ "type": ["string", "null"] })), json!({ "type": "string" }));
        assert_eq!(without_null(json!({ "oneOf": [{ "$ref": "#/x" }, { "type": "null" }] })), json!({ "$ref": "#/x" }));
        assert_eq!(without_null(json!({ "type": "integer" })), json!({ "type": "integer" }));
        let doc = document();
        for (path, _, operation) in operations(&doc) {
            for parameter in operation["parameters"].as_array().into_iter().flatten().filter(|p| p["in"] == "query") {
                assert!(!parameter["schema"].to_string().contains("\"null\""), "{path}: {parameter}");
            }
        }
    }

    /// Every route documents its operation: the table names a doc function for each.
    #[test]
    fn every_route_documents_its_operation() {
        for spec in ROUTES {
            let doc = router::operation_doc(spec.operation_id).expect("documented");
            assert!(!doc.summary.is_empty() && TAGS.contains(&doc.tag.as_str()), "{}", spec.operation_id);
            assert!(!doc.responses.is_empty(), "{} documents no success response", spec.operation_id);
            // a key reused for another request is 409; its replay's 200 is documented too
            let idempotent = Route::spec_takes_idempotency_key(spec);
            let generated = operation(spec, router::operation_doc(spec.operation_id).expect("documented")).unwrap();
            assert!(
                !idempotent || generated["responses"].get("409").is_some(),
                "{} takes an Idempotency-Key but documents no 409",
                spec.operation_id
            );
            assert!(!idempotent || generated["responses"].get("200").is_some(), "{} replays with 200 undocumented", spec.operation_id);
            let documents_key = generated["parameters"].to_string().contains("IdempotencyKey");
            assert_eq!(documents_key, idempotent, "{}: the Idempotency-Key is documented as the pipeline honours it", spec.operation_id);
        }
        assert!(router::operation_doc("noSuchOperation").is_none());
    }

    /// Every (path, method, operation) of the document.
    fn operations(doc: &Json) -> Vec<(String, Method, &Json)> {
        let mut found = Vec::new();
        for (path, item) in doc["paths"].as_object().expect("paths") {
            for (method, operation) in item.as_object().expect("path item") {
                assert!(METHODS.contains(&method.as_str()), "{path}: unexpected key {method}");
                found.push((path.clone(), Method::from_bytes(method.to_uppercase().as_bytes()).expect("method"), operation));
            }
        }
        found
    }

    /// A concrete path for a template: each `{param}` becomes an id.
    fn concrete(template: &str) -> String {
        template.split('/').map(|s| if s.starts_with('{') { "id_1" } else { s }).collect::<Vec<_>>().join("/")
    }

    #[test]
    fn the_document_is_openapi_3_1() {
        let doc = document();
        assert!(doc["openapi"].as_str().is_some_and(|v| v.starts_with("3.1.")));
        assert!(doc["info"]["version"].is_string());
    }

    #[test]
    fn every_documented_operation_is_the_route_of_its_operation_id() {
        let doc = document();
        for (path, method, operation) in operations(&doc) {
            let route = resolve(&method, &concrete(&path)).unwrap_or_else(|e| panic!("{method} {path} is documented but answers {}", e.code));
            assert_eq!(operation["operationId"].as_str(), Some(route.operation_id()), "{method} {path}");
        }
    }

    #[test]
    fn every_route_is_documented_once() {
        let doc = document();
        let documented: Vec<&str> = operations(&doc).iter().filter_map(|(_, _, o)| o["operationId"].as_str()).collect();
        let unique: BTreeSet<&str> = documented.iter().copied().collect();
        assert_eq!(unique.len(), documented.len(), "an operationId is used twice");
        let routes: BTreeSet<&str> = ROUTES.iter().map(|r| r.operation_id).collect();
        assert_eq!(routes.len(), ROUTES.len(), "two routes share an operationId");
        assert_eq!(unique, routes, "documented operations differ from the router's");
    }

    #[test]
    fn security_follows_the_route() {
        let doc = document();
        for (path, method, operation) in operations(&doc) {
            let route = resolve(&method, &concrete(&path)).expect("resolves");
            let scheme = operation["security"].as_array().and_then(|s| s.first()).and_then(|s| s.as_object()).and_then(|s| s.keys().next());
            let expected = match route.spec().access {
                Access::Public => None,
                Access::Admin | Access::Review => Some("adminKey"),
                Access::Person => Some("personSession"),
                Access::Tenant => Some("tenantKey"),
            };
            assert_eq!(scheme.map(String::as_str), expected, "{method} {path}");
        }
    }

    #[test]
    fn every_reference_resolves() {
        fn walk(doc: &Json, node: &Json, missing: &mut Vec<String>) {
            match node {
                Json::Object(map) => {
                    if let Some(Json::String(target)) = map.get("$ref") {
                        let pointer = target.strip_prefix('#').unwrap_or("not local");
                        if doc.pointer(pointer).is_none() {
                            missing.push(target.clone());
                        }
                    }
                    map.values().for_each(|v| walk(doc, v, missing));
                }
                Json::Array(items) => items.iter().for_each(|v| walk(doc, v, missing)),
                _ => {}
            }
        }
        let doc = document();
        let mut missing = Vec::new();
        walk(&doc, &doc, &mut missing);
        assert!(missing.is_empty(), "unresolved references: {missing:?}");
    }

    #[test]
    fn served_document_is_the_committed_one() {
        let reply = reply().expect("served");
        assert_eq!(reply.status, 200);
        assert_eq!(serde_json::from_str::<serde_json::Value>(reply.body.get()).expect("JSON"), document());
    }

    #[test]
    fn an_undocumented_path_is_not_a_route() {
        assert!(resolve(&Method::GET, "/v1/openapi.yaml").is_err());
        assert!(resolve(&Method::POST, "/v1/openapi.json").is_err());
    }
}

#[cfg(test)]
mod typed_tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    /// The document of an operation comes from its handler's signature: a
    /// body and its answer; a path and no body (the twin); a query.
    #[test]
    fn the_handler_signature_is_the_document() {
        let check = document_of(crate::limits::check_limits, OperationDoc::new("limits", "check"));
        let body = check.request.expect("a body");
        assert_eq!(body["content"]["application/json"]["schema"]["required"], serde_json::json!(["user_id", "amount_cents", "currency"]));
        assert_eq!(check.responses.iter().map(|(s, _)| *s).collect::<Vec<_>>(), [200]);
        assert!(check.query.is_empty());

        let cancel = document_of(crate::limits::cancel_limit, OperationDoc::new("limits", "cancel"));
        assert!(cancel.request.is_none() && cancel.query.is_empty());
        // an object answer is a shared component, named by its type
        let answer = &cancel.responses[0].1["content"]["application/json"]["schema"]["$ref"];
        let name = answer.as_str().and_then(|r| r.strip_prefix("#/components/schemas/")).expect("a reference");
        let (_, schema) = cancel.schemas.iter().find(|(n, _)| n == name).expect("the component");
        assert_eq!(schema["properties"]["status"]["enum"], serde_json::json!(["cancelled"]));

        let list = document_of(crate::limits::list_limits, OperationDoc::new("limits", "list"));
        assert_eq!(list.query.iter().map(|p| p["name"].as_str().unwrap()).collect::<Vec<_>>(), ["user_id"]);
        assert!(list.request.is_none());
    }
}
