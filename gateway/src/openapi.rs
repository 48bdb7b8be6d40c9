//! The OpenAPI 3.1 document of the API, served at `GET /v1/openapi.json`.
//!
//! The document is `gateway/openapi.json`, kept by hand. The tests below hold
//! it to the router (every documented operation resolves to the route of the
//! same `operationId`, every route is documented, admin routes ask for the
//! admin key); schemathesis holds the running service to it in CI.

use std::sync::OnceLock;

use serde_json::Value as Json;

use crate::error::{ApiError, ApiResult};
use crate::Reply;

/// The document's text, as committed.
pub const DOCUMENT: &str = include_str!("../openapi.json");

/// The route's handler.
pub(crate) async fn handler(_gw: &crate::Gateway, _request: &http::Request<Vec<u8>>) -> ApiResult<Reply> {
    reply()
}

pub(crate) fn reply() -> ApiResult<Reply> {
    static PARSED: OnceLock<Option<Json>> = OnceLock::new();
    let document = PARSED.get_or_init(|| serde_json::from_str(DOCUMENT).ok());
    document.clone().map(Reply::ok).ok_or_else(|| ApiError::internal().with_detail("the embedded OpenAPI document is not JSON".into()))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use http::Method;

    use super::*;
    use crate::router::{resolve, Access, ROUTES};

    const METHODS: [&str; 5] = ["get", "post", "put", "patch", "delete"];

    fn document() -> Json {
        serde_json::from_str(DOCUMENT).expect("openapi.json is JSON")
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
                Access::Admin => Some("adminKey"),
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
        assert_eq!(reply.body, document());
    }

    #[test]
    fn an_undocumented_path_is_not_a_route() {
        assert!(resolve(&Method::GET, "/v1/openapi.yaml").is_err());
        assert!(resolve(&Method::POST, "/v1/openapi.json").is_err());
    }
}
