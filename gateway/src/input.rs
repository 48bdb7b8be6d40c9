//! Request input: JSON body fields and query parameters, validated with
//! precise, stable error codes.

use std::collections::BTreeMap;

use serde_json::{Map, Value as Json};

use crate::error::{ApiError, ApiResult};
use crate::ports::MAX_STORED_INTEGER;
use crate::time;

/// Longest accepted text field.
const MAX_TEXT: usize = 256;
/// The longest comment or reason a person may write.
pub const MAX_NOTE: usize = 4_000;

/// Reads fields from a JSON object, collecting every problem so that one
/// response names all missing fields. Getters return a placeholder when a
/// field is bad; [`Fields::finish`] must be called before the values are used.
pub struct Fields {
    object: Map<String, Json>,
    missing: Vec<&'static str>,
    invalid: Vec<(&'static str, String)>,
    /// text fields made only of invisible characters (422)
    invisible: Vec<&'static str>,
}

/// Whether a string anywhere in `value` holds NUL, which no store keeps
/// (Postgres refuses it in text).
fn has_nul(value: &Json) -> bool {
    match value {
        Json::String(s) => s.contains('\0'),
        Json::Array(items) => items.iter().any(has_nul),
        Json::Object(map) => map.iter().any(|(k, v)| k.contains('\0') || has_nul(v)),
        _ => false,
    }
}

pub fn parse_json_object(body: &[u8]) -> ApiResult<Map<String, Json>> {
    if body.is_empty() {
        return Err(ApiError::bad_request("invalid_json", "request body must be a JSON object"));
    }
    match serde_json::from_slice::<Json>(body) {
        Ok(Json::Object(map)) if map.values().any(has_nul) => {
            Err(ApiError::bad_request("invalid_field", "text must not contain the NUL character (\\u0000)"))
        }
        Ok(Json::Object(map)) => Ok(map),
        Ok(_) => Err(ApiError::bad_request("invalid_json", "request body must be a JSON object")),
        Err(e) => Err(ApiError::bad_request("invalid_json", format!("request body is not valid JSON: {e}"))),
    }
}

impl Fields {
    pub fn from_body(body: &[u8]) -> ApiResult<Fields> {
        Ok(Fields { object: parse_json_object(body)?, missing: Vec::new(), invalid: Vec::new(), invisible: Vec::new() })
    }

    fn raw(&mut self, name: &'static str, required: bool) -> Option<Json> {
        match self.object.get(name) {
            None | Some(Json::Null) => {
                if required {
                    self.missing.push(name);
                }
                None
            }
            Some(v) => Some(v.clone()),
        }
    }

    fn invalid(&mut self, code: &'static str, message: String) {
        self.invalid.push((code, message));
    }

    /// A non-empty string, trimmed: free text such as a name.
    pub fn opt_text(&mut self, name: &'static str) -> Option<String> {
        self.opt_string(name, true)
    }

    pub fn text(&mut self, name: &'static str) -> String {
        self.string(name, true)
    }

    /// A non-empty string taken exactly as sent: a code, a timestamp or an
    /// enumerated value, where `" USD"` is not `"USD"`.
    pub fn opt_code(&mut self, name: &'static str) -> Option<String> {
        self.opt_string(name, false)
    }

    pub fn code(&mut self, name: &'static str) -> String {
        self.string(name, false)
    }

    /// Required prose written by a person, such as a reason or a comment:
    /// trimmed, non-empty, at most [`MAX_NOTE`] characters.
    pub fn note(&mut self, name: &'static str) -> String {
        let before = self.invalid.len();
        match self.bounded_string(name, true, MAX_NOTE) {
            Some(s) => s,
            None => {
                if self.invalid.len() == before && !self.missing.contains(&name) && !self.invisible.contains(&name) {
                    self.missing.push(name);
                }
                String::new()
            }
        }
    }

    /// Optional prose written by a person.
    pub fn opt_note(&mut self, name: &'static str) -> Option<String> {
        self.bounded_string(name, true, MAX_NOTE)
    }

    fn opt_string(&mut self, name: &'static str, trim: bool) -> Option<String> {
        self.bounded_string(name, trim, MAX_TEXT)
    }

    fn bounded_string(&mut self, name: &'static str, trim: bool, max: usize) -> Option<String> {
        match self.raw(name, false)? {
            Json::String(s) => {
                let s = if trim { s.trim().to_string() } else { s };
                if s.trim().is_empty() {
                    None
                } else if trim && rules::matching::is_only_invisible(&s) {
                    // an id or a name no one can read (zero-width, bidi controls) names no one
                    self.invisible.push(name);
                    None
                } else if s.chars().count() > max {
                    self.invalid("invalid_field", format!("{name} is longer than {max} characters"));
                    None
                } else {
                    Some(s)
                }
            }
            _ => {
                self.invalid("invalid_field", format!("{name} must be a string"));
                None
            }
        }
    }

    fn string(&mut self, name: &'static str, trim: bool) -> String {
        let before = self.invalid.len();
        match self.opt_string(name, trim) {
            Some(s) => s,
            None => {
                if self.invalid.len() == before && !self.missing.contains(&name) && !self.invisible.contains(&name) {
                    self.missing.push(name);
                }
                String::new()
            }
        }
    }

    /// An integer amount in minor units: positive and within the rules' range.
    pub fn cents(&mut self, name: &'static str) -> i64 {
        match self.raw(name, true) {
            None => 0,
            Some(Json::Number(n)) => match whole_number(&n) {
                Some(v) if v > 0 && v <= max_cents() => v,
                Some(v) if v <= 0 => {
                    self.invalid("invalid_amount", format!("{name} must be a positive integer in minor units"));
                    0
                }
                _ => {
                    self.invalid("invalid_amount", format!("{name} must be an integer number of minor units no larger than {}", max_cents()));
                    0
                }
            },
            Some(_) => {
                self.invalid("invalid_amount", format!("{name} must be an integer number of minor units"));
                0
            }
        }
    }

    pub fn integer(&mut self, name: &'static str) -> i64 {
        match self.raw(name, true) {
            None => 0,
            Some(Json::Number(n)) if whole_number(&n).is_some_and(within_store_range) => whole_number(&n).unwrap_or_default(),
            Some(_) => {
                self.invalid("invalid_field", format!("{name} must be an integer within ±{MAX_STORED_INTEGER}"));
                0
            }
        }
    }

    pub fn opt_integer(&mut self, name: &'static str) -> Option<i64> {
        match self.raw(name, false)? {
            Json::Number(n) if whole_number(&n).is_some_and(within_store_range) => whole_number(&n),
            _ => {
                self.invalid("invalid_field", format!("{name} must be an integer within ±{MAX_STORED_INTEGER}"));
                None
            }
        }
    }

    /// An ISO 8601 UTC timestamp, as unix seconds.
    pub fn timestamp(&mut self, name: &'static str) -> i64 {
        let text = self.code(name);
        if text.is_empty() {
            return 0;
        }
        match time::parse(&text) {
            Some(t) => t,
            None => {
                self.invalid("invalid_field", format!("{name} must be an ISO 8601 timestamp such as 2026-01-31T12:00:00Z"));
                0
            }
        }
    }

    /// An ISO 4217 currency code of money (one with a minor unit: not the
    /// metals, fund or testing codes such as XAU or XXX).
    pub fn currency(&mut self, name: &'static str) -> String {
        self.currency_with_exponent(name).0
    }

    /// [`Fields::currency`] with the currency's minor-unit exponent (JPY 0, USD 2, BHD 3).
    pub fn currency_with_exponent(&mut self, name: &'static str) -> (String, u8) {
        let text = self.code(name);
        match currency_exponent(&text) {
            Some(exponent) => (text, exponent),
            None => {
                if !text.is_empty() {
                    self.invalid("invalid_field", format!("{name} must be an ISO 4217 currency code such as USD, EUR or JPY"));
                }
                (text, rules::kyc::CENTS_EXPONENT)
            }
        }
    }

    /// `true` or `false`; `None` when absent.
    pub fn opt_bool(&mut self, name: &'static str) -> Option<bool> {
        if self.object.get(name).is_some_and(Json::is_null) {
            self.invalid("invalid_field", format!("{name} must be true or false"));
            return None;
        }
        match self.raw(name, false)? {
            Json::Bool(b) => Some(b),
            _ => {
                self.invalid("invalid_field", format!("{name} must be true or false"));
                None
            }
        }
    }

    /// An object of true/false switches named in `switches`, each false
    /// when left out; `None` when the object itself is absent.
    pub fn opt_switches<const N: usize>(&mut self, name: &'static str, switches: [&'static str; N]) -> Option<[bool; N]> {
        if self.object.get(name).is_some_and(Json::is_null) {
            self.invalid("invalid_field", format!("{name} must be an object of true/false switches"));
            return None;
        }
        let object = match self.raw(name, false)? {
            Json::Object(object) => object,
            _ => {
                self.invalid("invalid_field", format!("{name} must be an object of true/false switches"));
                return None;
            }
        };
        if let Some(unknown) = object.keys().find(|k| !switches.contains(&k.as_str())) {
            self.invalid("invalid_field", format!("{name} has no switch {unknown:?}; its switches are {}", switches.join(", ")));
            return None;
        }
        let mut values = [false; N];
        for (value, switch) in values.iter_mut().zip(switches) {
            match object.get(switch) {
                None => {}
                Some(Json::Bool(b)) => *value = *b,
                Some(_) => {
                    self.invalid("invalid_field", format!("{name}.{switch} must be true or false"));
                    return None;
                }
            }
        }
        Some(values)
    }

    /// Adds a problem found by the caller's own validation.
    pub fn reject(&mut self, code: &'static str, message: impl Into<String>) {
        self.invalid(code, message.into());
    }

    /// Whether the body sends the field (not null).
    pub fn has(&self, name: &str) -> bool {
        self.object.get(name).is_some_and(|v| !v.is_null())
    }

    pub fn is_missing(&self, name: &str) -> bool {
        self.missing.contains(&name)
    }

    /// Missing fields come first (`missing_fields`), then the first invalid one.
    pub fn finish(self) -> ApiResult<()> {
        if !self.missing.is_empty() {
            return Err(ApiError::bad_request("missing_fields", format!("missing required fields: {}", self.missing.join(", "))));
        }
        if let Some(name) = self.invisible.first() {
            return Err(ApiError::unprocessable("invalid_field", format!("{name} is made only of invisible or bidi control characters")));
        }
        match self.invalid.into_iter().next() {
            Some((code, message)) => Err(ApiError::bad_request(code, message)),
            None => Ok(()),
        }
    }
}

/// Decoded query parameters; the first value of a repeated name wins.
#[derive(Debug, Default, Clone)]
pub struct Query(BTreeMap<String, String>);

impl Query {
    pub fn parse(raw: Option<&str>) -> ApiResult<Query> {
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
            if rules::matching::is_only_invisible(&value) {
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
    fn get(&self, name: &str) -> Option<&str> {
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

/// Whether `text` is exactly `len` upper-case ASCII letters, like `GB` or `USD`.
pub fn is_upper_code(text: &str, len: usize) -> bool {
    text.len() == len && text.bytes().all(|b| b.is_ascii_uppercase())
}

/// Whether `text` is a short lower-case identifier such as `deposit` or `chargeback_reversal`.
pub fn is_snake_word(text: &str) -> bool {
    text.len() <= 64 && text.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
}

/// Lower-cased, trimmed e-mail; `None` when it is not an address.
pub fn normalize_email(raw: &str) -> Option<String> {
    let email = raw.trim().to_lowercase();
    let (local, domain) = email.split_once('@')?;
    let ok = !local.is_empty()
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && email.len() <= 254
        && !email.chars().any(char::is_whitespace)
        && !domain.contains('@');
    ok.then_some(email)
}

/// The version of the contact keys ([`email_key`], [`Phone::key`]): a row
/// keyed under an older one is re-keyed by the scheduled work
/// (`exclusions::rekey_contacts`), and matched by its stored form until then.
pub const CONTACT_KEYS_VERSION: i64 = 1;

/// Why a phone number is not taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PhoneError {
    /// not the shape of a phone number: a letter, or fewer than 7 or more than 15 digits (400 `invalid_field`)
    NotAPhone,
    /// the shape of one, but libphonenumber cannot read it as a number in the
    /// region, or, with no region, as an international number (422 [`UNREADABLE_PHONE`])
    Unreadable,
}

/// The code of a phone number that has the shape of one but cannot be read
/// as a number (in the tenant's jurisdiction's region, or internationally).
pub const UNREADABLE_PHONE: &str = "unreadable_phone";

impl PhoneError {
    /// The API error for the field `name`.
    pub fn error(self, name: &str) -> ApiError {
        match self {
            PhoneError::NotAPhone => ApiError::bad_request(INVALID_FIELD, format!("{name} must be a phone number of 7 to 15 digits")),
            PhoneError::Unreadable => ApiError::unprocessable(UNREADABLE_PHONE, format!("{name} {}", PhoneError::UNREADABLE)),
        }
    }

    /// What an unreadable number is told, after the field's name.
    pub const UNREADABLE: &'static str = "cannot be read as a phone number: give it in international format (+ and the country code), or in the national format of the tenant's jurisdiction";
}

/// The region in which a tenant's jurisdiction reads a national-format
/// phone number: the profile's country (`GB`, `SE`, `DE`, `NL`; `CA` for
/// `CA-ON`); none for `default`, whose numbers must be international.
pub fn phone_region(jurisdiction: &str) -> Option<phonenumber::country::Id> {
    let country = jurisdiction.split('-').next().unwrap_or_default();
    if !is_upper_code(country, 2) {
        return None;
    }
    country.parse().ok()
}

/// A phone number as libphonenumber reads it: stored and compared as E.164.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Phone {
    /// `+447700900123`
    e164: String,
}

impl Phone {
    /// What is compared: E.164 (`+447700900123`).
    pub fn key(&self) -> &str {
        &self.e164
    }

    /// What is stored and shown: E.164's digits, the form the API always
    /// showed for an international number (`447700900123`), and the form
    /// rows of before the contact keys hold (matched until re-keyed).
    pub fn digits(&self) -> &str {
        self.e164.trim_start_matches('+')
    }
}

/// Reads a phone number with libphonenumber's rules (`docs/decisions.md`,
/// "phone numbers"). The separators space ( ) . - are allowed; a trunk `(0)`
/// written after the country code is not dialled (`+44 (0)7700 900123`).
/// With `+` or `00` it is international in any region; without, it is read
/// in `region`, the tenant's jurisdiction (`07700 900123` in GB, and the
/// region's own country code before a national number, `447700900123` in
/// GB, as libphonenumber reads them). With no region, digits without a
/// prefix are international as they always were (`447700900123`), and a
/// national number (a leading trunk `0`) cannot be read: it is refused, never
/// kept as a key no international form of the number would find.
pub fn read_phone(raw: &str, region: Option<phonenumber::country::Id>) -> Result<Phone, PhoneError> {
    let trimmed = raw.trim();
    if trimmed.chars().any(|c| !(c.is_ascii_digit() || " +-().".contains(c))) {
        return Err(PhoneError::NotAPhone);
    }
    let compact: String = trimmed.chars().filter(|c| !" -.".contains(*c)).collect();
    // the `(0)` right after `+` or `00` and a country code of one to three digits
    let after_country_code = |head: &str| {
        let code = head.strip_prefix('+').or_else(|| head.strip_prefix("00")).unwrap_or("");
        (1..=3).contains(&code.len()) && code.bytes().all(|b| b.is_ascii_digit())
    };
    let dialled = match compact.find("(0)") {
        Some(at) if after_country_code(&compact[..at]) => format!("{}{}", &compact[..at], &compact[at + 3..]),
        _ => compact,
    };
    let digits: String = dialled.chars().filter(char::is_ascii_digit).collect();
    let international = dialled.starts_with('+') || dialled.starts_with("00");
    let significant = if dialled.starts_with("00") { &digits[2..] } else { &digits[..] };
    if !(7..=15).contains(&significant.len()) || dialled.matches('+').count() > usize::from(dialled.starts_with('+')) {
        return Err(PhoneError::NotAPhone);
    }
    let number = match (international, region) {
        (true, _) => phonenumber::parse(None, format!("+{significant}")),
        (false, Some(region)) => phonenumber::parse(Some(region), &digits),
        (false, None) if !digits.starts_with('0') => phonenumber::parse(None, format!("+{digits}")),
        (false, None) => return Err(PhoneError::Unreadable),
    }
    .map_err(|_| PhoneError::Unreadable)?;
    let e164 = number.format().mode(phonenumber::Mode::E164).to_string();
    possible(&number, &e164).then_some(Phone { e164 }).ok_or(PhoneError::Unreadable)
}

/// Whether the national number has a length the country's numbers have
/// (libphonenumber's possible lengths): a number cut short, or run on, is
/// not read as some other number of that country.
fn possible(number: &phonenumber::PhoneNumber, e164: &str) -> bool {
    let code = number.code().value();
    let national = e164.len().saturating_sub(1 + code.to_string().len());
    let Some(regions) = phonenumber::metadata::DATABASE.by_code(&code) else { return false };
    let Ok(national) = u16::try_from(national) else { return false };
    // the metadata keeps the lengths by type of number (the general ones are empty)
    regions.into_iter().any(|m| {
        let d = m.descriptors();
        let types = [
            d.fixed_line(),
            d.mobile(),
            d.toll_free(),
            d.premium_rate(),
            d.shared_cost(),
            d.personal_number(),
            d.voip(),
            d.pager(),
            d.uan(),
            d.voicemail(),
        ];
        types.into_iter().flatten().any(|t| t.possible_length().contains(&national))
    })
}

/// The key an e-mail address ([`normalize_email`]'s form) is compared by:
/// the domain in IDNA's ASCII form (UTS #46), so a Unicode domain and its
/// punycode are one key, and the local part folded by its provider's alias
/// rules ([`MAILBOX_ALIASES`]); any other address as delivered.
pub fn email_key(email: &str) -> String {
    let Some((local, domain)) = email.rsplit_once('@') else { return email.to_string() };
    // a domain IDNA refuses is kept as given (lower-cased): it matches as before
    let domain = idna::domain_to_ascii(domain).ok().filter(|d| !d.is_empty()).unwrap_or_else(|| domain.to_string());
    let Some(provider) = MAILBOX_ALIASES.iter().find(|p| p.domains.contains(&domain.as_str())) else {
        return format!("{local}@{domain}");
    };
    let mut local = local;
    if provider.plus_tags {
        local = local.split_once('+').map_or(local, |(mailbox, _)| mailbox);
    }
    let local = if provider.dots_ignored { local.replace('.', "") } else { local.to_string() };
    let domain = provider.domains.first().copied().unwrap_or_default();
    format!("{local}@{domain}")
}

/// A mail provider's documented rule of which addresses reach one mailbox.
pub struct MailboxAliases {
    /// the provider's domains that are one mailbox per local part, the first the one keys use
    pub domains: &'static [&'static str],
    /// dots in the local part are not part of the mailbox
    pub dots_ignored: bool,
    /// `mailbox+tag` is delivered to `mailbox`
    pub plus_tags: bool,
}

/// The providers whose own documentation says which addresses are one
/// mailbox; every other address compares as delivered (`a.b@example.com`
/// is not `ab@example.com`). Sources (`docs/decisions.md`, "e-mail keys"):
/// - Gmail: Google's Gmail Help, "Dots don't matter in Gmail addresses"
///   (dots), "Create task-specific email addresses" (`+tag`), and that
///   `@googlemail.com` and `@gmail.com` are the same account (Gmail Help,
///   "Why does my address say googlemail.com").
/// - Fastmail: Fastmail Help, "Plus addressing and subdomain addressing"
///   (fastmail.help/hc/en-us/articles/360060591053): the part between the `+`
///   and the `@` is ignored for determining which account it belongs to.
///   Only Fastmail's own main domains are listed; its many other domains,
///   and custom domains, compare as delivered.
/// - Proton: Proton Support, "Types of email addresses and aliases"
///   (proton.me/support/addresses-and-aliases): "+aliases", unlimited extra
///   addresses with `+` after the username. Its domains are separate
///   addresses (`@pm.me` is an address of its own), so each is its own domain here.
///
/// Not listed, for want of a provider's document found to cite: Outlook,
/// Hotmail and Live (Microsoft documents plus addressing for Exchange Online
/// organisations, not for consumer Outlook.com addresses) and iCloud.
pub const MAILBOX_ALIASES: &[MailboxAliases] = &[
    MailboxAliases { domains: &["gmail.com", "googlemail.com"], dots_ignored: true, plus_tags: true },
    MailboxAliases { domains: &["fastmail.com"], dots_ignored: false, plus_tags: true },
    MailboxAliases { domains: &["fastmail.fm"], dots_ignored: false, plus_tags: true },
    MailboxAliases { domains: &["proton.me"], dots_ignored: false, plus_tags: true },
    MailboxAliases { domains: &["protonmail.com"], dots_ignored: false, plus_tags: true },
    MailboxAliases { domains: &["protonmail.ch"], dots_ignored: false, plus_tags: true },
    MailboxAliases { domains: &["pm.me"], dots_ignored: false, plus_tags: true },
];

/// A JSON number with no fractional part, as JSON Schema's `integer` reads
/// it: `6150` and `6150.0` alike, within what a double holds exactly.
fn whole_number(n: &serde_json::Number) -> Option<i64> {
    n.as_i64().or_else(|| {
        let f = n.as_f64()?;
        // the bound keeps the cast exact
        (f.fract() == 0.0 && f.abs() <= MAX_STORED_INTEGER as f64).then_some(f as i64)
    })
}

/// The largest amount accepted: the rules' bound, within what every store keeps.
pub fn max_cents() -> i64 {
    rules::MAX_AMOUNT_CENTS.min(MAX_STORED_INTEGER)
}

/// Whether every store keeps `n` exactly (see [`MAX_STORED_INTEGER`]).
fn within_store_range(n: i64) -> bool {
    (-MAX_STORED_INTEGER..=MAX_STORED_INTEGER).contains(&n)
}

/// Every ISO 4217 code [`currency_exponent`] accepts, in order.
pub fn currency_codes() -> Vec<&'static str> {
    use iso_currency::IntoEnumIterator;
    let mut codes: Vec<&'static str> = iso_currency::Currency::iter().filter(|c| c.exponent().is_some()).map(|c| c.code()).collect();
    codes.sort_unstable();
    codes
}

/// The ISO 4217 minor-unit exponent of a currency code; `None` for a code
/// that is not ISO 4217 money (unknown, lower-case, or without a minor unit).
pub fn currency_exponent(code: &str) -> Option<u8> {
    let exponent = iso_currency::Currency::from_code(code)?.exponent()?;
    u8::try_from(exponent).ok()
}

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

#[cfg(test)]
mod tests {
    use super::*;

    fn key(raw: &str, jurisdiction: &str) -> Result<String, PhoneError> {
        read_phone(raw, phone_region(jurisdiction)).map(|p| p.key().to_string())
    }

    #[test]
    fn phones_of_before_read_as_before() {
        let want = Ok("+447700900123".to_string());
        for raw in ["+44 7700-900123", "0044 (7700) 900.123", "447700900123", "+44 (0)7700 900123", "0044 ( 0 ) 7700 900123"] {
            assert_eq!(key(raw, "default"), want, "{raw}");
            assert_eq!(key(raw, "GB"), want, "{raw} in GB");
        }
        assert_eq!(key("+44-(0)7700-900123", "SE"), want);
        assert_eq!(key("+44.(0)7700.900.123", "CA-ON"), want);
        assert_eq!(read_phone("447700900123", None).map(|p| p.digits().to_string()), Ok("447700900123".to_string()), "stored as before");
        // the twins: a bracketed zero elsewhere is a digit; another number; not phones at all
        assert_eq!(key("+44 7700 9(0)0123", "default"), want);
        assert_ne!(key("+44 7700 900124", "default"), want);
        assert_eq!(key("call me", "GB"), Err(PhoneError::NotAPhone));
        assert_eq!(key("+1 23", "GB"), Err(PhoneError::NotAPhone));
        assert_eq!(key("12", "GB"), Err(PhoneError::NotAPhone));
        assert_eq!(key("+44 7700 900123 +1", "GB"), Err(PhoneError::NotAPhone));
    }

    #[test]
    fn a_national_number_is_read_in_the_jurisdiction() {
        // (jurisdiction, national form, international form, E.164); fictional numbers of real formats
        let cases = [
            ("GB", "07700 900123", "+44 7700 900123", "+447700900123"),
            ("SE", "070-123 45 67", "+46 70 123 45 67", "+46701234567"),
            ("DE", "0151 23456789", "0049 151 23456789", "+4915123456789"),
            ("NL", "06 12345678", "+31 6 12345678", "+31612345678"),
            ("CA-ON", "(416) 555-0123", "+1 416 555 0123", "+14165550123"),
        ];
        for (jurisdiction, national, international, e164) in cases {
            assert_eq!(key(national, jurisdiction).as_deref(), Ok(e164), "{national} in {jurisdiction}");
            assert_eq!(key(international, jurisdiction).as_deref(), Ok(e164), "{international} in {jurisdiction}");
            assert_eq!(key(international, "default").as_deref(), Ok(e164), "{international} anywhere");
            // the twin: another number of the same region is another key
            let other = national.replace('3', "4");
            assert_ne!(key(&other, jurisdiction).as_deref(), Ok(e164), "{other} in {jurisdiction}");
        }
        // the region's own country code before a national number, and Canada's international prefix
        assert_eq!(key("1 416 555 0123", "CA-ON").as_deref(), Ok("+14165550123"));
        assert_eq!(key("011 44 7700 900123", "CA-ON").as_deref(), Ok("+447700900123"));
        // a national number means another number in another region
        assert_eq!(key("07700 900123", "GB").as_deref(), Ok("+447700900123"));
        assert_ne!(key("07700 900123", "DE").as_deref(), Ok("+447700900123"));
    }

    #[test]
    fn a_number_that_cannot_be_read_is_refused_never_kept() {
        // no region: a national number is no number anywhere
        assert_eq!(key("07700 900123", "default"), Err(PhoneError::Unreadable));
        assert_eq!(key("07700 900123", "nowhere"), Err(PhoneError::Unreadable));
        // no such country code; a length no number of the country has
        assert_eq!(key("+999 1234567", "GB"), Err(PhoneError::Unreadable));
        assert_eq!(key("+44 7700 9001234", "GB"), Err(PhoneError::Unreadable));
        assert_eq!(key("0 7700 900123 4567", "GB"), Err(PhoneError::Unreadable));
        // the twin: the same digits with the country code are read
        assert!(key("+44 7700 900123", "default").is_ok());
        let error = PhoneError::Unreadable.error("phone");
        assert_eq!((error.status, error.code), (422, UNREADABLE_PHONE));
        assert_eq!(PhoneError::NotAPhone.error("phone").code, INVALID_FIELD);
    }

    #[test]
    fn jurisdictions_name_their_regions() {
        assert_eq!(phone_region("GB"), Some(phonenumber::country::GB));
        assert_eq!(phone_region("CA-ON"), Some(phonenumber::country::CA));
        assert_eq!(phone_region("NL"), Some(phonenumber::country::NL));
        assert_eq!(phone_region("default"), None);
        assert_eq!(phone_region("gb"), None);
        // every profile the rules know is a region but the default one
        for profile in rules::jurisdictions() {
            assert_eq!(phone_region(&profile.name).is_some(), profile.name != rules::DEFAULT_JURISDICTION, "{}", profile.name);
        }
    }

    #[test]
    fn emails_normalise_case_and_space() {
        assert_eq!(normalize_email("  Ann.Lee@Example.COM "), Some("ann.lee@example.com".to_string()));
        assert_eq!(normalize_email("ann@example"), None);
        assert_eq!(normalize_email("ann lee@example.com"), None);
        assert_eq!(normalize_email("@example.com"), None);
    }

    fn mailbox(raw: &str) -> String {
        email_key(&normalize_email(raw).unwrap_or_default())
    }

    #[test]
    fn a_gmail_mailbox_is_one_key() {
        let want = mailbox("ann.lee@gmail.com");
        assert_eq!(want, "annlee@gmail.com");
        for alias in ["annlee@gmail.com", "ann.lee+casino@gmail.com", "ann.lee@googlemail.com", "A.N.N.Lee+x+y@GoogleMail.com"] {
            assert_eq!(mailbox(alias), want, "{alias}");
        }
        // the twins: another mailbox of Gmail; dots and tags elsewhere count
        assert_ne!(mailbox("ann.lees@gmail.com"), want);
        assert_ne!(mailbox("a.b@example.com"), mailbox("ab@example.com"));
        assert_ne!(mailbox("ann+casino@example.com"), mailbox("ann@example.com"));
        assert_ne!(mailbox("annlee@gmail.co"), want);
    }

    #[test]
    fn providers_that_document_tags_drop_them_and_keep_dots() {
        assert_eq!(mailbox("Ann.Lee+casino@fastmail.com"), "ann.lee@fastmail.com");
        assert_eq!(mailbox("ann+x@proton.me"), "ann@proton.me");
        assert_eq!(mailbox("ann+x@pm.me"), "ann@pm.me");
        // the twins: dots count there; their domains are not one another
        assert_ne!(mailbox("ann.lee@fastmail.com"), mailbox("annlee@fastmail.com"));
        assert_ne!(mailbox("ann@proton.me"), mailbox("ann@pm.me"));
        // not in the table: compared as delivered
        assert_eq!(mailbox("ann.lee+casino@outlook.com"), "ann.lee+casino@outlook.com");
    }

    #[test]
    fn an_idn_domain_is_one_key_in_unicode_and_punycode() {
        assert_eq!(mailbox("user@bücher.example"), "user@xn--bcher-kva.example");
        assert_eq!(mailbox("user@xn--bcher-kva.example"), "user@xn--bcher-kva.example");
        assert_eq!(mailbox("User@BÜCHER.example"), mailbox("user@xn--bcher-kva.example"));
        // the twins: another domain; another mailbox of the same domain
        assert_ne!(mailbox("user@bucher.example"), mailbox("user@bücher.example"));
        assert_ne!(mailbox("other@bücher.example"), mailbox("user@xn--bcher-kva.example"));
    }

    #[test]
    fn missing_fields_are_all_named_before_invalid_ones() {
        let mut f = Fields::from_body(br#"{"a": 5, "amount_cents": "12"}"#).unwrap();
        let _ = f.text("a");
        let _ = f.text("b");
        let _ = f.cents("amount_cents");
        let _ = f.text("c");
        let err = f.finish().unwrap_err();
        assert_eq!(err.code, "missing_fields");
        assert!(err.message.contains("b, c"), "{}", err.message);
    }

    #[test]
    fn integers_beyond_what_every_store_keeps_are_refused() {
        let mut f = Fields::from_body(br#"{"n": 9007199254740992}"#).unwrap();
        let _ = f.integer("n");
        assert_eq!(f.finish().unwrap_err().code, "invalid_field");
        let mut f = Fields::from_body(br#"{"n": -9007199254740991}"#).unwrap();
        assert_eq!(f.opt_integer("n"), Some(-MAX_STORED_INTEGER));
        assert!(f.finish().is_ok());
    }

    #[test]
    fn wrong_types_give_field_codes() {
        let mut f = Fields::from_body(br#"{"amount_cents": 1.5}"#).unwrap();
        let _ = f.cents("amount_cents");
        assert_eq!(f.finish().unwrap_err().code, "invalid_amount");
        let mut f = Fields::from_body(br#"{"amount_cents": 100}"#).unwrap();
        assert_eq!(f.cents("amount_cents"), 100);
        assert!(f.finish().is_ok());
    }

    #[test]
    fn integers_written_with_a_zero_fraction_are_integers() {
        let mut f = Fields::from_body(br#"{"amount_cents": 100.0, "n": 6150.0, "m": -3.0}"#).unwrap();
        assert_eq!((f.cents("amount_cents"), f.integer("n"), f.opt_integer("m")), (100, 6150, Some(-3)));
        assert!(f.finish().is_ok());
        let mut f = Fields::from_body(br#"{"n": 6150.5}"#).unwrap();
        let _ = f.integer("n");
        assert_eq!(f.finish().unwrap_err().code, "invalid_field");
        let mut f = Fields::from_body(br#"{"n": 1e300}"#).unwrap();
        let _ = f.integer("n");
        assert_eq!(f.finish().unwrap_err().code, "invalid_field");
    }

    #[test]
    fn bodies_must_be_objects() {
        assert_eq!(Fields::from_body(b"[1]").err().map(|e| e.code), Some("invalid_json"));
        assert_eq!(Fields::from_body(b"{").err().map(|e| e.code), Some("invalid_json"));
        assert_eq!(Fields::from_body(b"").err().map(|e| e.code), Some("invalid_json"));
    }

    #[test]
    fn query_decodes_percent_and_keeps_plus() {
        let q = Query::parse(Some("email=a%2Bb%40x.com&phone=+44 1")).unwrap();
        assert_eq!(q.get("email"), Some("a+b@x.com"));
        assert_eq!(q.get("phone"), Some("+44 1"));
    }

    #[test]
    fn nul_is_refused_in_bodies_and_queries() {
        for body in [r#"{"reviewer": "a\u0000b"}"#, r#"{"entries": [{"reference": "\u0000"}]}"#, r#"{"x": {"\u0000": 1}}"#] {
            assert_eq!(Fields::from_body(body.as_bytes()).err().map(|e| e.code), Some("invalid_field"), "{body}");
        }
        assert!(Fields::from_body(br#"{"reviewer": "a\u0001b"}"#).is_ok());
        assert_eq!(Query::parse(Some("user_id=a%00b")).err().map(|e| e.code), Some("invalid_query"));
        assert!(Query::parse(Some("user_id=a%01b")).is_ok());
    }

    #[test]
    fn a_query_parameter_with_no_value_is_refused() {
        for raw in ["status=", "status=%20", "a=1&status", "status=open&to="] {
            assert_eq!(Query::parse(Some(raw)).err().map(|e| e.code), Some("invalid_query"), "{raw}");
        }
        assert!(Query::parse(Some("status=open&&")).is_ok());
    }

    /// A query of every typed kind a handler reads.
    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Typed {
        user_id: String,
        status: Option<rules::CaseStatus>,
        overdue: Option<bool>,
        limit: Option<Limit<500>>,
        cursor: Option<Cursor<(i64, String)>>,
        from: Option<Instant>,
        count: Option<i64>,
    }

    fn typed(raw: &str) -> Result<Typed, (u16, &'static str, String)> {
        Query::parse(Some(raw)).and_then(|q| q.parse_into::<Typed>()).map_err(|e| (e.status, e.code, e.message))
    }

    #[test]
    fn a_typed_query_reads_every_kind() {
        let cursor = crate::api::cursor::encode(&(7_i64, "case_1"));
        let q = typed(&format!("user_id=u%201&status=confirmed&overdue=true&limit=500&cursor={cursor}&from=2026-01-31T12:00:00Z&count=-3&other=x"))
            .expect("reads");
        assert_eq!(q.user_id, "u 1");
        assert_eq!(q.status, Some(rules::CaseStatus::Confirmed));
        assert_eq!(q.overdue, Some(true));
        assert_eq!(Limit::or(q.limit, 100), 500);
        assert_eq!(Cursor::after(q.cursor), Some((7, "case_1".to_string())));
        assert_eq!(q.from, time::parse("2026-01-31T12:00:00Z").map(Instant));
        assert_eq!(q.count, Some(-3));
        let q = typed("user_id=u").expect("reads");
        assert_eq!((Limit::or(q.limit, 100), q.status, q.overdue), (100, None, None));
    }

    #[test]
    fn a_bad_value_keeps_its_code_and_names_its_parameter() {
        for (raw, code, named) in [
            ("status=open", "missing_fields", "user_id"),
            ("user_id=u&status=shut", "invalid_field", "status"),
            ("user_id=u&overdue=yes", "invalid_field", "overdue"),
            ("user_id=u&overdue=True", "invalid_field", "overdue"),
            ("user_id=u&limit=0", "invalid_limit", "limit"),
            ("user_id=u&limit=501", "invalid_limit", "limit"),
            ("user_id=u&limit=ten", "invalid_limit", "limit"),
            ("user_id=u&cursor=nope", "invalid_cursor", "cursor"),
            ("user_id=u&from=yesterday", "invalid_field", "from"),
            ("user_id=u&count=1.5", "invalid_field", "count"),
        ] {
            let (status, got, message) = typed(raw).expect_err(raw);
            assert_eq!((status, got), (400, code), "{raw}: {message}");
            assert!(message.contains(named), "{raw}: {message}");
        }
        // a missing field is named before a bad value, as in bodies; the first bad value is the answer
        assert_eq!(typed("cursor=nope&limit=0").err().map(|e| e.1), Some("missing_fields"));
        assert_eq!(typed("user_id=u&cursor=nope&limit=0").err().map(|e| e.1), Some("invalid_cursor"));
        // a cursor of another list's key shape is not this list's
        let foreign = crate::api::cursor::encode(&42);
        assert_eq!(typed(&format!("user_id=u&cursor={foreign}")).err().map(|e| e.1), Some("invalid_cursor"));
        // what Query::parse refuses stays refused before any field is read
        assert_eq!(typed("user_id=%E2%80%8B").err().map(|e| (e.0, e.1)), Some((422, "invalid_field")));
        assert_eq!(typed("user_id=u&status=").err().map(|e| (e.0, e.1)), Some((400, "invalid_query")));
    }

    #[test]
    fn currencies_are_iso_4217_money_with_their_exponents() {
        assert_eq!(currency_exponent("USD"), Some(2));
        assert_eq!(currency_exponent("JPY"), Some(0));
        assert_eq!(currency_exponent("BHD"), Some(3));
        for refused in ["ABC", "usd", "XAU", "XXX", "US", ""] {
            assert_eq!(currency_exponent(refused), None, "{refused}");
        }
    }
}
