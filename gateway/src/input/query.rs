//! Query parameters: decoded once, then read as the handler's typed query.

use std::collections::BTreeMap;

use super::fields::only_invisible;
use crate::error::{ApiError, ApiResult};
use crate::ports::Rules;
use crate::time;

/// Decoded query parameters; the first value of a repeated name wins.
#[derive(Debug, Default, Clone)]
pub struct Query(BTreeMap<String, String>);

impl Query {
    pub fn parse(raw: Option<&str>, rules: &dyn Rules) -> ApiResult<Query> {
        let mut map = BTreeMap::new();
        for pair in raw.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            let decode = |s: &str| {
                percent_encoding::percent_decode_str(s)
                    .decode_utf8()
                    .map(|c| c.into_owned())
                    .map_err(|_| ApiError::bad_request("invalid_query", "query string is not valid UTF-8 after decoding"))
            };
            let (name, value) = (decode(k)?, decode(v)?);
            // `?status=` is not a filter left out: it is a value that is not one
            if value.trim().is_empty() {
                return Err(ApiError::bad_request("invalid_query", format!("query parameter {name} has no value")));
            }
            if name.contains('\0') || value.contains('\0') {
                return Err(ApiError::bad_request("invalid_query", "query parameters must not contain the NUL character"));
            }
            if only_invisible(rules, &value)? {
                return Err(ApiError::unprocessable(
                    "invalid_field",
                    format!("query parameter {name} is made only of invisible or bidi control characters"),
                ));
            }
            map.entry(name).or_insert(value);
        }
        Ok(Query(map))
    }

    /// One parameter's value, for tests: handlers read their typed query ([`Query::parse_into`]).
    #[cfg(test)]
    pub(super) fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    /// The query as the operation's typed query `T`, read with serde: an
    /// absent required field is 400 `missing_fields`; a bad value is 400 with
    /// its type's code (`invalid_limit`, `invalid_cursor`, else
    /// `invalid_field`). Parameters `T` does not name are ignored. As with
    /// bodies ([`Fields::finish`]), a missing field is named before a bad
    /// value: a bad value is set aside and the rest read again.
    pub fn parse_into<'a, T: serde::Deserialize<'a>>(&'a self) -> ApiResult<T> {
        let mut set_aside: Vec<String> = Vec::new();
        let mut first_bad: Option<QueryError> = None;
        loop {
            let pairs = self.0.iter().filter(|(name, _)| !set_aside.contains(name)).map(|(name, value)| (name.as_str(), Text { name, value }));
            let answer = T::deserialize(serde::de::value::MapDeserializer::<_, QueryError>::new(pairs));
            let error = match (answer, first_bad.take()) {
                (Ok(value), None) => return Ok(value),
                (Ok(_), Some(bad)) => bad,
                (Err(missing), _) if missing.code == "missing_fields" => missing,
                (Err(bad), earlier) => match bad.param.clone() {
                    Some(param) if !set_aside.contains(&param) => {
                        set_aside.push(param);
                        first_bad = Some(earlier.unwrap_or(bad));
                        continue;
                    }
                    _ => earlier.unwrap_or(bad),
                },
            };
            return Err(ApiError::new(error.status, error.code, error.message));
        }
    }
}

// ---------------------------------------------------------------- typed queries

/// Why a query did not read as its typed struct: the code, status and
/// message the answer carries. `named` is set once the message names its
/// parameter, so a value's type can say "must be …" and the parameter's
/// name is put before it once.
#[derive(Debug)]
pub struct QueryError {
    status: u16,
    code: &'static str,
    message: String,
    named: bool,
    /// the parameter whose value was refused
    param: Option<String>,
}

impl QueryError {
    fn field(message: String) -> Self {
        QueryError { status: 400, code: "invalid_field", message, named: false, param: None }
    }

    /// The error of parameter `name`'s value, named, with `code` when its type reported one.
    fn of(mut self, name: &str, code: Option<&'static str>) -> Self {
        if !self.named {
            self.message = format!("{name} {}", self.message);
            self.named = true;
        }
        if self.param.is_none() {
            self.param = Some(name.to_string());
        }
        if let Some(code) = code {
            self.code = code;
        }
        self
    }
}

impl std::fmt::Display for QueryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for QueryError {}

impl serde::de::Error for QueryError {
    fn custom<T: std::fmt::Display>(message: T) -> Self {
        QueryError::field(message.to_string())
    }

    fn missing_field(field: &'static str) -> Self {
        QueryError { status: 400, code: "missing_fields", message: format!("missing required query parameter: {field}"), named: true, param: None }
    }

    fn unknown_variant(_variant: &str, expected: &'static [&'static str]) -> Self {
        QueryError::field(format!("must be one of {}", expected.join(", ")))
    }
}

/// The prefix of a newtype name that carries an error code: a query value
/// type whose parse reports a code of its own (not `invalid_field`) reads
/// itself as a newtype struct so named (see [`parse_text`]); serde's own
/// error type has nowhere else to carry it.
const CODE_MARK: &str = "$cgw::query::code::";
/// The newtype name of a value refused with 400 `invalid_limit`.
pub const INVALID_LIMIT: &str = "$cgw::query::code::invalid_limit";
/// The newtype name of a value refused with 400 `invalid_cursor`.
pub const INVALID_CURSOR: &str = "$cgw::query::code::invalid_cursor";
/// The newtype name of a value refused with 400 `invalid_field`.
pub const INVALID_FIELD: &str = "$cgw::query::code::invalid_field";

/// One query parameter's decoded value, read by the typed struct's field.
#[derive(Clone, Copy)]
struct Text<'a> {
    name: &'a str,
    value: &'a str,
}

impl<'a> Text<'a> {
    fn refuse(&self, rule: &str) -> QueryError {
        QueryError::field(rule.to_string()).of(self.name, None)
    }

    fn parsed<T: std::str::FromStr>(&self, rule: &str) -> Result<T, QueryError> {
        self.value.parse().map_err(|_| self.refuse(rule))
    }
}

impl<'de> serde::de::IntoDeserializer<'de, QueryError> for Text<'de> {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}

macro_rules! text_integers {
    ($($method:ident $visit:ident $ty:ty),+) => {
        $(fn $method<V: serde::de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, QueryError> {
            let n: $ty = self.parsed("must be an integer")?;
            visitor.$visit(n).map_err(|e: QueryError| e.of(self.name, None))
        })+
    };
}

impl<'de> serde::Deserializer<'de> for Text<'de> {
    type Error = QueryError;

    fn deserialize_any<V: serde::de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, QueryError> {
        visitor.visit_borrowed_str(self.value).map_err(|e: QueryError| e.of(self.name, None))
    }

    fn deserialize_bool<V: serde::de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, QueryError> {
        match self.value {
            "true" => visitor.visit_bool(true),
            "false" => visitor.visit_bool(false),
            _ => Err(self.refuse("must be true or false")),
        }
    }

    text_integers!(
        deserialize_i8 visit_i8 i8, deserialize_i16 visit_i16 i16, deserialize_i32 visit_i32 i32, deserialize_i64 visit_i64 i64,
        deserialize_u8 visit_u8 u8, deserialize_u16 visit_u16 u16, deserialize_u32 visit_u32 u32, deserialize_u64 visit_u64 u64
    );

    fn deserialize_option<V: serde::de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, QueryError> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: serde::de::Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value, QueryError> {
        let code = name.strip_prefix(CODE_MARK);
        visitor.visit_newtype_struct(self).map_err(|e| e.of(self.name, code))
    }

    fn deserialize_enum<V: serde::de::Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, QueryError> {
        use serde::de::IntoDeserializer;
        visitor.visit_enum(self.value.into_deserializer()).map_err(|e: QueryError| e.of(self.name, None))
    }

    fn deserialize_ignored_any<V: serde::de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, QueryError> {
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        i128 u128 f32 f64 char str string bytes byte_buf unit unit_struct seq tuple tuple_struct map struct identifier
    }
}

/// Reads a query value's type from its text: `parse` gives the value or
/// the rule it breaks ("must be …", after the parameter's name), refused
/// with the code `mark` names ([`INVALID_LIMIT`], [`INVALID_CURSOR`], [`INVALID_FIELD`]).
pub fn parse_text<'de, D, T>(deserializer: D, mark: &'static str, parse: impl FnOnce(&str) -> Result<T, String>) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
{
    struct Parse<F>(F);
    impl<'de, T, F: FnOnce(&str) -> Result<T, String>> serde::de::Visitor<'de> for Parse<F> {
        type Value = T;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a query parameter's text")
        }

        fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<T, E> {
            (self.0)(text).map_err(E::custom)
        }

        fn visit_newtype_struct<D: serde::Deserializer<'de>>(self, inner: D) -> Result<T, D::Error> {
            let text = <std::borrow::Cow<'de, str>>::deserialize(inner)?;
            (self.0)(&text).map_err(serde::de::Error::custom)
        }
    }
    use serde::Deserialize;
    deserializer.deserialize_newtype_struct(mark, Parse(parse))
}

/// The `limit` of a listing: 1 to `MAX` (400 `invalid_limit`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit<const MAX: i64>(pub i64);

impl<const MAX: i64> Limit<MAX> {
    /// The limit asked for, or `default` when none was.
    pub fn or(limit: Option<Self>, default: i64) -> i64 {
        limit.map_or(default, |l| l.0)
    }
}

impl<'de, const MAX: i64> serde::Deserialize<'de> for Limit<MAX> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        parse_text(deserializer, INVALID_LIMIT, |text| {
            text.parse::<i64>().ok().filter(|n| (1..=MAX).contains(n)).map(Limit).ok_or_else(|| format!("must be an integer from 1 to {MAX}"))
        })
    }
}

impl<const MAX: i64> utoipa::PartialSchema for Limit<MAX> {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
        ObjectBuilder::new()
            .schema_type(Type::Integer)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int32)))
            .minimum(Some(1))
            .maximum(Some(MAX as f64))
            .into()
    }
}

impl<const MAX: i64> utoipa::ToSchema for Limit<MAX> {}

/// A page cursor this service issued, continuing after sort key `K`
/// (400 `invalid_cursor` for any other); see [`crate::api::cursor`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cursor<K>(pub K);

impl<K> Cursor<K> {
    /// The sort key to continue after; `None` on the first page.
    pub fn after(cursor: Option<Self>) -> Option<K> {
        cursor.map(|c| c.0)
    }
}

impl<'de, K: serde::de::DeserializeOwned> serde::Deserialize<'de> for Cursor<K> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        parse_text(deserializer, INVALID_CURSOR, |text| {
            crate::api::cursor::decode(text).map(Cursor).ok_or_else(|| "is not one this service issued".to_string())
        })
    }
}

/// An ISO 8601 UTC timestamp, as unix seconds (400 `invalid_field`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Instant(pub i64);

impl<'de> serde::Deserialize<'de> for Instant {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        parse_text(deserializer, INVALID_FIELD, |text| time::parse(text).map(Instant).ok_or_else(|| "must be an ISO 8601 timestamp".to_string()))
    }
}
