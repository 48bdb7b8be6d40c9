//! What a handler takes from its request (body, query, path) and where the
//! request came from; each extractor documents itself in the OpenAPI.

use crate::error::{ApiError, ApiResult};

/// The address a request came from, set by the host as a request extension
/// (the peer, or a trusted proxy's header); the per-source flood limit uses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SourceAddress(pub std::net::IpAddr);

/// The address whose failed authentications a request counts toward: the
/// host's [`SourceAddress`], but never a loopback peer, which is a proxy on
/// this machine (or a local test), the source of every request behind it:
/// counting it would let one bad client lock out everyone. Behind a proxy,
/// the trusted header names the client.
pub(crate) fn failure_source(request: &http::Request<Vec<u8>>) -> Option<String> {
    request.extensions().get::<SourceAddress>().filter(|s| !s.0.is_loopback()).map(|s| source_key(s.0))
}

/// The source that failures are counted against: an IPv4 address, or the
/// /64 network of an IPv6 one (a host is given a /64, so its addresses are
/// one source: counted per address, a /64 would be 2^64 fresh sources).
pub fn source_key(ip: std::net::IpAddr) -> String {
    match ip {
        std::net::IpAddr::V4(v4) => v4.to_string(),
        std::net::IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let s = v6.segments();
                format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
            }
        },
    }
}

/// Whether the request says its body is JSON.
pub(crate) fn is_json(headers: &http::HeaderMap) -> bool {
    headers
        .get(http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"))
}

// ---------------------------------------------------------------- typed requests

/// What a handler takes from its request: its body ([`Body`]), its query
/// ([`Params`]), the id in its path ([`Path`]), nothing (`()`), or a tuple
/// of them, read in the tuple's order. The route table reads it before the
/// handler runs and documents the operation's request from its type
/// ([`crate::router::document`]).
pub trait FromRequest: Sized {
    fn from_request(gw: &crate::Gateway, ctx: &crate::Ctx<'_>, path_id: Option<&str>) -> ApiResult<Self>;
    /// `doc` with what this input documents (a body, query parameters).
    fn document(doc: crate::openapi::OperationDoc) -> crate::openapi::OperationDoc;
}

/// A JSON body type: read with the stable codes (`invalid_json`,
/// `missing_fields`, `invalid_field`, …), usually through [`Fields`].
pub trait FromBody: utoipa::ToSchema + Sized {
    fn from_body(body: &[u8], gw: &crate::Gateway, ctx: &crate::Ctx<'_>) -> ApiResult<Self>;
}

/// The request's JSON body, as `T`.
pub struct Body<T>(pub T);

/// The request's query, as `T` ([`Query::parse_into`]).
pub struct Params<T>(pub T);

/// The id the route's path carries (`/v1/limits/{limit_id}`).
pub struct Path(pub String);

impl<T: FromBody> FromRequest for Body<T> {
    fn from_request(gw: &crate::Gateway, ctx: &crate::Ctx<'_>, _: Option<&str>) -> ApiResult<Self> {
        T::from_body(ctx.body, gw, ctx).map(Body)
    }
    fn document(doc: crate::openapi::OperationDoc) -> crate::openapi::OperationDoc {
        doc.body::<T>()
    }
}

impl<T: serde::de::DeserializeOwned + utoipa::IntoParams> FromRequest for Params<T> {
    fn from_request(_: &crate::Gateway, ctx: &crate::Ctx<'_>, _: Option<&str>) -> ApiResult<Self> {
        ctx.query.parse_into().map(Params)
    }
    fn document(doc: crate::openapi::OperationDoc) -> crate::openapi::OperationDoc {
        doc.query::<T>()
    }
}

impl FromRequest for Path {
    fn from_request(_: &crate::Gateway, _: &crate::Ctx<'_>, path_id: Option<&str>) -> ApiResult<Self> {
        path_id.map(|id| Path(id.to_string())).ok_or_else(|| ApiError::internal().with_detail("a route without an id in its path takes one".into()))
    }
    fn document(doc: crate::openapi::OperationDoc) -> crate::openapi::OperationDoc {
        // the route table documents the path's parameters
        doc
    }
}

impl FromRequest for () {
    fn from_request(_: &crate::Gateway, _: &crate::Ctx<'_>, _: Option<&str>) -> ApiResult<Self> {
        Ok(())
    }
    fn document(doc: crate::openapi::OperationDoc) -> crate::openapi::OperationDoc {
        doc
    }
}

impl<A: FromRequest, B: FromRequest> FromRequest for (A, B) {
    fn from_request(gw: &crate::Gateway, ctx: &crate::Ctx<'_>, path_id: Option<&str>) -> ApiResult<Self> {
        Ok((A::from_request(gw, ctx, path_id)?, B::from_request(gw, ctx, path_id)?))
    }
    fn document(doc: crate::openapi::OperationDoc) -> crate::openapi::OperationDoc {
        B::document(A::document(doc))
    }
}

impl<A: FromRequest, B: FromRequest, C: FromRequest> FromRequest for (A, B, C) {
    fn from_request(gw: &crate::Gateway, ctx: &crate::Ctx<'_>, path_id: Option<&str>) -> ApiResult<Self> {
        Ok((A::from_request(gw, ctx, path_id)?, B::from_request(gw, ctx, path_id)?, C::from_request(gw, ctx, path_id)?))
    }
    fn document(doc: crate::openapi::OperationDoc) -> crate::openapi::OperationDoc {
        C::document(B::document(A::document(doc)))
    }
}
