//! Self-exclusion expiry and precedence.

use chrono::{DateTime, Months};

use crate::RuleError;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExclusionDuration {
    Hours24,
    Days7,
    Days30,
    Months6,
    Year1,
    Permanent,
}

impl ExclusionDuration {
    pub const ALL: [ExclusionDuration; 6] = [
        ExclusionDuration::Hours24,
        ExclusionDuration::Days7,
        ExclusionDuration::Days30,
        ExclusionDuration::Months6,
        ExclusionDuration::Year1,
        ExclusionDuration::Permanent,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ExclusionDuration::Hours24 => "duration_24h",
            ExclusionDuration::Days7 => "duration_7d",
            ExclusionDuration::Days30 => "duration_30d",
            ExclusionDuration::Months6 => "duration_6m",
            ExclusionDuration::Year1 => "duration_1y",
            ExclusionDuration::Permanent => "duration_permanent",
        }
    }

    pub fn parse(s: &str) -> Option<ExclusionDuration> {
        ExclusionDuration::ALL.into_iter().find(|d| d.as_str() == s)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExclusionTerm {
    /// `None` for a permanent exclusion.
    pub expires_at: Option<i64>,
}

/// When an exclusion starting at `effective_from` ends. Months are calendar
/// months (a 6-month time-out from 31 August ends on 28 or 29 February).
pub fn exclusion_expiry(duration: ExclusionDuration, effective_from: i64) -> Result<Option<i64>, RuleError> {
    const DAY: i64 = 86_400;
    let add_months = |months: u32| {
        DateTime::from_timestamp(effective_from, 0)
            .and_then(|t| t.checked_add_months(Months::new(months)))
            .map(|t| t.timestamp())
            .ok_or(RuleError::AmountTooLarge)
    };
    let add_seconds = |s: i64| effective_from.checked_add(s).ok_or(RuleError::AmountTooLarge);
    Ok(match duration {
        ExclusionDuration::Hours24 => Some(add_seconds(DAY)?),
        ExclusionDuration::Days7 => Some(add_seconds(7 * DAY)?),
        ExclusionDuration::Days30 => Some(add_seconds(30 * DAY)?),
        ExclusionDuration::Months6 => Some(add_months(6)?),
        ExclusionDuration::Year1 => Some(add_months(12)?),
        ExclusionDuration::Permanent => None,
    })
}

fn is_active(now: i64, term: &ExclusionTerm) -> bool {
    term.expires_at.is_none_or(|e| now < e)
}

/// Index of the most restrictive active exclusion: a permanent one first,
/// otherwise the latest expiry; the earliest listed wins a tie.
pub fn most_restrictive_exclusion(now: i64, exclusions: &[ExclusionTerm]) -> Option<u32> {
    let mut best: Option<(usize, Option<i64>)> = None;
    for (i, term) in exclusions.iter().enumerate() {
        if !is_active(now, term) {
            continue;
        }
        let better = match best {
            None => true,
            Some((_, current)) => exclusion_lengthens(ExclusionTerm { expires_at: current }, *term),
        };
        if better {
            best = Some((i, term.expires_at));
        }
    }
    best.and_then(|(i, _)| u32::try_from(i).ok())
}

/// Whether `proposed` ends strictly later than `current`; nothing outlasts a permanent exclusion.
pub fn exclusion_lengthens(current: ExclusionTerm, proposed: ExclusionTerm) -> bool {
    match (current.expires_at, proposed.expires_at) {
        (None, _) => false,
        (Some(_), None) => true,
        (Some(c), Some(p)) => p > c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T0: i64 = 1_788_000_000; // 2026-08-29T10:40:00Z

    #[test]
    fn expiry_per_duration() {
        assert_eq!(exclusion_expiry(ExclusionDuration::Hours24, T0), Ok(Some(T0 + 86_400)));
        assert_eq!(exclusion_expiry(ExclusionDuration::Days7, T0), Ok(Some(T0 + 7 * 86_400)));
        assert_eq!(exclusion_expiry(ExclusionDuration::Days30, T0), Ok(Some(T0 + 30 * 86_400)));
        assert_eq!(exclusion_expiry(ExclusionDuration::Permanent, T0), Ok(None));
        // 2026-08-29 + 6 months = 2027-02-28 (clamped), + 1 year = 2027-08-29
        assert_eq!(exclusion_expiry(ExclusionDuration::Months6, T0), Ok(Some(T0 + 183 * 86_400)));
        assert_eq!(exclusion_expiry(ExclusionDuration::Year1, T0), Ok(Some(T0 + 365 * 86_400)));
    }

    #[test]
    fn expiry_out_of_range_is_an_error_not_a_wrap() {
        assert!(exclusion_expiry(ExclusionDuration::Days7, i64::MAX - 10).is_err());
        assert!(exclusion_expiry(ExclusionDuration::Year1, i64::MAX / 2).is_err());
    }

    #[test]
    fn permanent_beats_any_expiry() {
        let list = [ExclusionTerm { expires_at: Some(T0 + 999_999_999) }, ExclusionTerm { expires_at: None }];
        assert_eq!(most_restrictive_exclusion(T0, &list), Some(1));
    }

    #[test]
    fn latest_expiry_wins_among_timed() {
        let list =
            [ExclusionTerm { expires_at: Some(T0 + 10) }, ExclusionTerm { expires_at: Some(T0 + 30) }, ExclusionTerm { expires_at: Some(T0 + 20) }];
        assert_eq!(most_restrictive_exclusion(T0, &list), Some(1));
    }

    #[test]
    fn expired_exclusions_are_ignored_at_the_exact_expiry() {
        let list = [ExclusionTerm { expires_at: Some(T0) }];
        assert_eq!(most_restrictive_exclusion(T0, &list), None);
        assert_eq!(most_restrictive_exclusion(T0 - 1, &list), Some(0));
        assert_eq!(most_restrictive_exclusion(T0, &[]), None);
    }

    #[test]
    fn lengthening_rules() {
        let timed = |e| ExclusionTerm { expires_at: Some(e) };
        let permanent = ExclusionTerm { expires_at: None };
        assert!(exclusion_lengthens(timed(10), timed(11)));
        assert!(!exclusion_lengthens(timed(10), timed(10)));
        assert!(!exclusion_lengthens(timed(10), timed(9)));
        assert!(exclusion_lengthens(timed(10), permanent));
        assert!(!exclusion_lengthens(permanent, permanent));
        assert!(!exclusion_lengthens(permanent, timed(i64::MAX)));
    }

    #[test]
    fn duration_names_round_trip_and_unknown_is_rejected() {
        for d in ExclusionDuration::ALL {
            assert_eq!(ExclusionDuration::parse(d.as_str()), Some(d));
        }
        assert_eq!(ExclusionDuration::parse("duration_2y"), None);
    }
}
