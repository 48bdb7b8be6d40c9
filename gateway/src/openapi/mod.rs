//! The OpenAPI 3.1 document of the API, served at `GET /v1/openapi.json`.
//!
//! The document is generated: each operation's method, path, `operationId`,
//! security, path parameters and shared responses come from the route table
//! (`router.rs`), and its bodies from the area's typed requests and responses
//! (an [`OperationDoc`] named in the table; schemas shared by name are in
//! [`shared`]). `gateway/openapi.json` is the committed output, and a test
//! fails when it drifts; rewrite it with
//! `CGW_WRITE_OPENAPI=1 cargo test -p gateway --lib openapi`.

use std::sync::OnceLock;

use serde_json::{json, Value as Json};
use utoipa::openapi::path::ParameterIn;
use utoipa::openapi::{RefOr, Schema};
use utoipa::{IntoParams, ToSchema};

use crate::error::{ApiError, ApiResult};
use crate::Reply;

pub mod answer;
pub mod shared;

/// The document's text, as committed.
pub const DOCUMENT: &str = include_str!("../../openapi.json");

/// The route's handler.
pub(crate) async fn handler(_gw: &crate::Gateway, _request: &http::Request<Vec<u8>>) -> ApiResult<answer::Answer<shared::OpenApiDocument>> {
    reply().map(answer::Answer::kept)
}

pub(crate) fn handler_doc() -> OperationDoc {
    OperationDoc::new("service", "this document")
}

pub(crate) fn reply() -> ApiResult<Reply> {
    // checked to be JSON once; each answer copies its text
    static CHECKED: OnceLock<Option<crate::JsonText>> = OnceLock::new();
    let body = CHECKED.get_or_init(|| serde_json::value::RawValue::from_string(DOCUMENT.to_owned()).ok()).clone();
    let body = body.ok_or_else(|| ApiError::internal().with_detail("the embedded OpenAPI document is not JSON".into()))?;
    Ok(Reply { status: 200, body, decision_id: None })
}

/// What an area says about one operation: everything the route table does not.
#[derive(Debug, Clone, Default)]
pub struct OperationDoc {
    pub tag: String,
    pub summary: String,
    pub description: Option<String>,
    /// query parameters, in order
    pub query: Vec<Json>,
    /// the `requestBody` object
    pub request: Option<Json>,
    /// the success responses by status, without their headers
    pub responses: Vec<(u16, Json)>,
    /// error statuses beyond those every route of its access answers
    pub errors: Vec<u16>,
    /// the named schemas its types refer to
    pub schemas: Vec<(String, Json)>,
    /// the success response's description ("success" unless said)
    pub success: Option<String>,
    /// the description of the 200 a 201 or 202 operation answers for an existing or repeated request
    pub also_200: Option<String>,
    /// the description of the 503 a probe answers, with the same body, when it fails
    pub unready: Option<String>,
}

pub(crate) fn to_json<T: serde::Serialize>(value: &T) -> Json {
    serde_json::to_value(value).unwrap_or(Json::Null)
}

impl OperationDoc {
    pub fn new(tag: &str, summary: &str) -> Self {
        OperationDoc { tag: tag.into(), summary: summary.into(), ..OperationDoc::default() }
    }

    pub fn describe(mut self, description: &str) -> Self {
        self.description = Some(description.into());
        self
    }

    /// What the success response means, where "success" does not say it.
    pub fn answers(mut self, description: &str) -> Self {
        self.success = Some(description.into());
        self
    }

    /// A 201 or 202 operation also answers 200, for an existing or repeated
    /// request, with the same body type: what that 200 means.
    pub fn or_200(mut self, description: &str) -> Self {
        self.also_200 = Some(description.into());
        self
    }

    /// A probe answers 503 with the same body type when it fails: what that 503 means.
    pub fn or_503(mut self, description: &str) -> Self {
        self.unready = Some(description.into());
        self
    }

    /// Query parameters from `P`'s fields; an absent parameter is not a
    /// null one, so an `Option` field's schema is its inner type's. `P` is
    /// the typed query its handler reads ([`crate::input::Query::parse_into`]),
    /// never a type written only for the document.
    pub fn query<P: IntoParams + serde::de::DeserializeOwned>(mut self) -> Self {
        for parameter in P::into_params(|| Some(ParameterIn::Query)) {
            let mut parameter = to_json(&parameter);
            if let Some(schema) = parameter.get_mut("schema") {
                *schema = without_null(schema.take());
            }
            self.query.push(parameter);
        }
        self
    }

    /// A required JSON body of type `T`.
    pub fn body<T: ToSchema>(mut self) -> Self {
        let schema = self.schema_of::<T>();
        self.request = Some(json!({ "required": true, "content": { "application/json": { "schema": schema } } }));
        self
    }

    /// A response of type `T`.
    /// A success response with a `T`. An object body is a named component,
    /// shared by every response of its type (a replay's 200 and its 201,
    /// the routes answering the same shape): generators emit its model once.
    pub fn responds<T: ToSchema>(mut self, status: u16, description: &str) -> Self {
        let schema = self.schema_of::<T>();
        let schema = match schema.get("properties") {
            Some(_) => {
                let name = T::name().into_owned();
                self.schemas.push((name.clone(), schema));
                json!({ "$ref": format!("#/components/schemas/{name}") })
            }
            None => schema,
        };
        self.responses.push((status, json!({ "description": description, "content": { "application/json": { "schema": schema } } })));
        self
    }

    pub fn errors(mut self, statuses: &[u16]) -> Self {
        self.errors.extend_from_slice(statuses);
        self
    }

    fn schema_of<T: ToSchema>(&mut self) -> Json {
        let mut named: Vec<(String, RefOr<Schema>)> = Vec::new();
        T::schemas(&mut named);
        self.schemas.extend(named.iter().map(|(name, schema)| (name.clone(), to_json(schema))));
        to_json(&T::schema())
    }
}

/// A schema that does not admit `null`: `["string", "null"]` becomes
/// `"string"`, and `oneOf: [X, {"type": "null"}]` becomes `X`.
pub(crate) fn without_null(mut schema: Json) -> Json {
    if let Some(Json::Array(types)) = schema.get("type") {
        let kept: Vec<Json> = types.iter().filter(|t| t.as_str() != Some("null")).cloned().collect();
        schema["type"] = if kept.len() == 1 { kept[0].clone() } else { Json::Array(kept) };
    }
    if let Some(Json::Array(choices)) = schema.get("oneOf") {
        let kept: Vec<Json> = choices.iter().filter(|c| c.get("type").and_then(Json::as_str) != Some("null")).cloned().collect();
        if kept.len() == 1 {
            return kept[0].clone();
        }
        schema["oneOf"] = Json::Array(kept);
    }
    schema
}
