//! Timestamps: unix seconds inside, ISO 8601 UTC outside.

use chrono::{DateTime, SecondsFormat};
use serde_json::Value as Json;

/// Plain calendar arithmetic, not a rule.
pub const SECONDS_PER_DAY: i64 = 86_400;

pub fn format(unix_seconds: i64) -> String {
    DateTime::from_timestamp(unix_seconds, 0).map(|t| t.to_rfc3339_opts(SecondsFormat::Secs, true)).unwrap_or_default()
}

pub fn json(unix_seconds: i64) -> Json {
    Json::String(format(unix_seconds))
}

pub fn json_opt(unix_seconds: Option<i64>) -> Json {
    unix_seconds.map_or(Json::Null, json)
}

pub fn parse(text: &str) -> Option<i64> {
    DateTime::parse_from_rfc3339(text).ok().map(|t| t.timestamp())
}

/// A calendar date `YYYY-MM-DD`, as unix seconds at midnight UTC.
pub fn parse_date(text: &str) -> Option<i64> {
    if text.len() != 10 {
        return None;
    }
    chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d").ok().and_then(|d| d.and_hms_opt(0, 0, 0)).map(|t| t.and_utc().timestamp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_rejects() {
        assert_eq!(format(0), "1970-01-01T00:00:00Z");
        assert_eq!(parse("1970-01-01T00:00:10Z"), Some(10));
        assert_eq!(parse("1970-01-01T01:00:10+01:00"), Some(10));
        assert_eq!(parse("yesterday"), None);
        assert_eq!(parse_date("2000-02-29"), Some(951_782_400));
        assert_eq!(parse_date("2001-02-29"), None);
        assert_eq!(parse_date("2000-2-9"), None);
    }
}
