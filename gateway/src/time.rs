//! Timestamps: unix seconds inside, ISO 8601 UTC outside.

use chrono::{DateTime, SecondsFormat};
use serde_json::Value as Json;

/// Plain calendar arithmetic, not a rule.
pub const SECONDS_PER_DAY: i64 = 86_400;

/// The latest daily snapshot time (`second_of_day` UTC) at or before `now`.
pub fn snapshot_boundary(now: i64, second_of_day: i64) -> i64 {
    let boundary = now.div_euclid(SECONDS_PER_DAY) * SECONDS_PER_DAY + second_of_day;
    if now < boundary {
        boundary - SECONDS_PER_DAY
    } else {
        boundary
    }
}

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

/// `work`, given up after `milliseconds` on the host's timer: `None` when it
/// did not finish in time. Without a timer, `work` is awaited unbounded.
pub async fn bounded<T>(timer: Option<&dyn crate::ports::Timer>, milliseconds: u64, work: impl std::future::Future<Output = T>) -> Option<T> {
    let Some(timer) = timer else { return Some(work.await) };
    let deadline = timer.sleep_ms(milliseconds);
    futures_util::pin_mut!(work, deadline);
    match futures_util::future::select(work, deadline).await {
        futures_util::future::Either::Left((answer, _)) => Some(answer),
        futures_util::future::Either::Right(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snapshot_boundary_is_the_latest_given_second_of_day() {
        let day = 20_000 * SECONDS_PER_DAY;
        let at = rules::time_horizons().snapshot_second_of_day;
        assert_eq!(snapshot_boundary(day + at, at), day + at);
        assert_eq!(snapshot_boundary(day + at - 1, at), day - SECONDS_PER_DAY + at);
        assert_eq!(snapshot_boundary(day + SECONDS_PER_DAY - 1, at), day + at);
    }

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
