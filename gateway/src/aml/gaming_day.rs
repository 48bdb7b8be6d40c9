//! A tenant's gaming day: the business day a casino reports cash by, from a
//! local cut-off time in an IANA time zone (default 00:00 UTC). Calendar
//! arithmetic only; what counts in a gaming day is the rules'.

use chrono::{Duration, LocalResult, NaiveDate, NaiveTime, TimeZone};
use chrono_tz::Tz;

/// The most minutes a cut-off may be after midnight.
pub const MINUTES_PER_DAY: i64 = 24 * 60;

/// A tenant's gaming day: a cut-off in minutes after local midnight and a time zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GamingDay {
    pub cutoff_minutes: i64,
    pub zone: Tz,
}

impl Default for GamingDay {
    fn default() -> Self {
        GamingDay { cutoff_minutes: 0, zone: Tz::UTC }
    }
}

/// Reads `HH:MM` as minutes after midnight.
pub fn parse_cutoff(text: &str) -> Option<i64> {
    let (h, m) = text.split_once(':')?;
    if h.len() != 2 || m.len() != 2 {
        return None;
    }
    let (h, m): (i64, i64) = (h.parse().ok()?, m.parse().ok()?);
    (h < 24 && m < 60).then_some(h * 60 + m)
}

pub fn format_cutoff(minutes: i64) -> String {
    format!("{:02}:{:02}", minutes.div_euclid(60), minutes.rem_euclid(60))
}

pub fn parse_zone(name: &str) -> Option<Tz> {
    name.parse().ok()
}

impl GamingDay {
    pub fn from_stored(cutoff_minutes: i64, zone: &str) -> GamingDay {
        GamingDay { cutoff_minutes: cutoff_minutes.clamp(0, MINUTES_PER_DAY - 1), zone: parse_zone(zone).unwrap_or(Tz::UTC) }
    }

    /// The instant the gaming day of `date` begins: its cut-off, local time.
    /// A cut-off that a clock change skips begins at the first instant after it.
    fn start_of(&self, date: NaiveDate) -> Option<i64> {
        let time = NaiveTime::from_num_seconds_from_midnight_opt(u32::try_from(self.cutoff_minutes * 60).ok()?, 0)?;
        let local = date.and_time(time);
        match self.zone.from_local_datetime(&local) {
            LocalResult::Single(t) => Some(t.timestamp()),
            LocalResult::Ambiguous(first, _) => Some(first.timestamp()),
            LocalResult::None => {
                (1..=180).find_map(|m| self.zone.from_local_datetime(&(local + Duration::minutes(m))).earliest()).map(|t| t.timestamp())
            }
        }
    }

    /// The start of the gaming day holding `at`, and of the next one.
    pub fn bounds(&self, at: i64) -> Option<(i64, i64)> {
        let local = self.zone.timestamp_opt(at, 0).single()?.date_naive();
        for date in [local.pred_opt()?, local, local.succ_opt()?] {
            let (start, end) = (self.start_of(date)?, self.start_of(date.succ_opt()?)?);
            if start <= at && at < end {
                return Some((start, end));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> i64 {
        crate::time::parse(text).unwrap_or_default()
    }

    #[test]
    fn the_default_is_the_utc_day() {
        let (start, end) = GamingDay::default().bounds(at("2027-03-10T15:00:00Z")).unwrap_or_default();
        assert_eq!((start, end), (at("2027-03-10T00:00:00Z"), at("2027-03-11T00:00:00Z")));
    }

    #[test]
    fn a_six_oclock_cutoff_in_las_vegas_across_the_spring_clock_change() {
        let day = GamingDay { cutoff_minutes: parse_cutoff("06:00").unwrap_or_default(), zone: parse_zone("America/Los_Angeles").unwrap_or(Tz::UTC) };
        // 05:59 local on 14 March (PDT begins at 02:00) is still the gaming day of 13 March
        let (start, end) = day.bounds(at("2027-03-14T12:59:00Z")).unwrap_or_default();
        assert_eq!(start, at("2027-03-13T14:00:00Z"), "06:00 PST");
        assert_eq!(end, at("2027-03-14T13:00:00Z"), "06:00 PDT: a 23-hour gaming day");
        let (next, _) = day.bounds(at("2027-03-14T13:00:00Z")).unwrap_or_default();
        assert_eq!(next, end);
    }

    #[test]
    fn cutoffs_are_hh_mm() {
        assert_eq!(parse_cutoff("00:00"), Some(0));
        assert_eq!(parse_cutoff("23:59"), Some(1_439));
        assert_eq!(format_cutoff(390), "06:30");
        for bad in ["24:00", "6:00", "06:60", "0600", "ab:cd", ""] {
            assert_eq!(parse_cutoff(bad), None, "{bad}");
        }
        assert!(parse_zone("Europe/London").is_some() && parse_zone("Mars/Olympus").is_none());
    }
}
