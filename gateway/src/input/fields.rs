//! A JSON body's fields, each read with its stable error code; every
//! problem of a body collected, so that one answer names them all.

use serde_json::{Map, Value as Json};

use super::money::{currency_exponent, max_cents};
use crate::error::{ApiError, ApiResult};
use crate::ports::{Rules, RulesFault, MAX_STORED_INTEGER};
use crate::time;
use rules_model::NameLegibility;

/// Longest accepted text field.
const MAX_TEXT: usize = 256;
/// The longest comment or reason a person may write.
pub const MAX_NOTE: usize = 4_000;

/// Reads fields from a JSON object, collecting every problem so that one
/// response names all missing fields. Getters return a placeholder when a
/// field is bad; [`Fields::finish`] must be called before the values are used.
pub struct Fields<'r> {
    object: Map<String, Json>,
    missing: Vec<&'static str>,
    invalid: Vec<(&'static str, String)>,
    /// text fields made only of invisible characters (422)
    invisible: Vec<&'static str>,
    /// the rules, which read the text no one can read
    rules: &'r dyn Rules,
    /// the rules failed to read a text
    fault: Option<RulesFault>,
}

/// Whether the rules must read a text: printable ASCII with a printable
/// character in it always has something to see; the rest is the rules' to read.
pub fn needs_reading(text: &str) -> bool {
    !(text.bytes().all(|b| b == b' ' || b.is_ascii_graphic()) && text.bytes().any(|b| b.is_ascii_graphic()))
}

/// Whether the rules read the text as made only of invisible characters.
pub fn only_invisible(rules: &dyn Rules, text: &str) -> Result<bool, RulesFault> {
    if !needs_reading(text) {
        return Ok(false);
    }
    Ok(rules.read_name(text)? == NameLegibility::OnlyInvisible)
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

impl<'r> Fields<'r> {
    pub fn from_body(body: &[u8], rules: &'r dyn Rules) -> ApiResult<Fields<'r>> {
        Ok(Fields { object: parse_json_object(body)?, missing: Vec::new(), invalid: Vec::new(), invisible: Vec::new(), rules, fault: None })
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
                } else if trim && self.read_as_invisible(&s) {
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
                (text, rules_model::kyc::CENTS_EXPONENT)
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

    /// An optional nested object, as sent: `None` when absent or null; a
    /// value that is not an object is an `invalid_field` problem.
    pub fn opt_object(&mut self, name: &'static str) -> Option<Map<String, Json>> {
        match self.raw(name, false)? {
            Json::Object(map) => Some(map),
            _ => {
                self.invalid("invalid_field", format!("{name} must be an object"));
                None
            }
        }
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
    fn read_as_invisible(&mut self, text: &str) -> bool {
        match only_invisible(self.rules, text) {
            Ok(invisible) => invisible,
            Err(fault) => {
                self.fault = Some(fault);
                false
            }
        }
    }

    pub fn finish(self) -> ApiResult<()> {
        if let Some(fault) = self.fault {
            return Err(fault.into());
        }
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

/// Whether `text` is exactly `len` upper-case ASCII letters, like `GB` or `USD`.
pub fn is_upper_code(text: &str, len: usize) -> bool {
    text.len() == len && text.bytes().all(|b| b.is_ascii_uppercase())
}

/// Whether `text` is a short lower-case identifier such as `deposit` or `chargeback_reversal`.
pub fn is_snake_word(text: &str) -> bool {
    text.len() <= 64 && text.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
}

/// A JSON number with no fractional part, as JSON Schema's `integer` reads
/// it: `6150` and `6150.0` alike, within what a double holds exactly.
fn whole_number(n: &serde_json::Number) -> Option<i64> {
    n.as_i64().or_else(|| {
        let f = n.as_f64()?;
        // the bound keeps the cast exact
        (f.fract() == 0.0 && f.abs() <= MAX_STORED_INTEGER as f64).then_some(f as i64)
    })
}

/// Whether every store keeps `n` exactly (see [`MAX_STORED_INTEGER`]).
fn within_store_range(n: i64) -> bool {
    (-MAX_STORED_INTEGER..=MAX_STORED_INTEGER).contains(&n)
}
