//! Self-exclusion: expiry, precedence, registration (lengthen, never
//! shorten), regulator propagation and the regulator's comprehensive list.

#[allow(unused_imports)]
use crate::traits::*;
use crate::types::EventKind;
#[allow(unused_imports)]
use crate::*;
use crate::{RuleError, DAY};
#[allow(unused_imports)]
use alloc::{
    string::{String, ToString},
    vec::Vec,
};
use chrono::{DateTime, Months};
pub use rules_model::exclusions::*;

/// When an exclusion starting at `effective_from` ends. Months are calendar
/// months (a 6-month time-out from 31 August ends on 28 or 29 February).
pub fn exclusion_expiry(duration: ExclusionDuration, effective_from: i64) -> Result<Option<i64>, RuleError> {
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

/// An exclusion is active until the instant of its expiry; a permanent one always.
pub fn is_active(now: i64, term: &ExclusionTerm) -> bool {
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

/// Exclusions of six months or more are eligible for the licensing regulator's register.
pub fn regulator_eligible(duration: ExclusionDuration) -> bool {
    matches!(duration, ExclusionDuration::Months6 | ExclusionDuration::Year1 | ExclusionDuration::Permanent)
}

pub(crate) fn exclusion_status_of(now: i64, exclusions: &[ExclusionTerm]) -> ExclusionStatus {
    ExclusionStatus {
        active: exclusions.iter().enumerate().filter(|(_, t)| is_active(now, t)).filter_map(|(i, _)| u32::try_from(i).ok()).collect(),
        most_restrictive: most_restrictive_exclusion(now, exclusions),
    }
}

/// Which of the exclusions are active at `now`, and which one answers a check.
pub fn describe_exclusions(facts: &ExclusionStatusFacts) -> ExclusionStatus {
    exclusion_status_of(facts.now, &facts.exclusions)
}

/// Registers an exclusion from now: a repeat of an active duration is
/// answered with the original, and an exclusion can be lengthened but never shortened.
pub fn decide_exclusion(facts: &ExclusionFacts) -> Result<ExclusionDecision, RuleError> {
    let active: Vec<(usize, &UserExclusion)> =
        facts.existing.iter().enumerate().filter(|(_, e)| is_active(facts.now, &ExclusionTerm { expires_at: e.expires_at })).collect();
    if let Some((i, _)) = active.iter().find(|(_, e)| e.duration == facts.duration) {
        return Ok(ExclusionDecision::Replay(u32::try_from(*i).unwrap_or(u32::MAX)));
    }
    let expires_at = exclusion_expiry(facts.duration, facts.now)?;
    let proposed = ExclusionTerm { expires_at };
    if active.iter().any(|(_, e)| !exclusion_lengthens(ExclusionTerm { expires_at: e.expires_at }, proposed)) {
        return Ok(ExclusionDecision::AlreadyExcluded);
    }
    let mut events = alloc::vec![EventKind::ExclusionCreated];
    if expires_at.is_none() {
        events.push(EventKind::ExclusionPermanent);
    }
    Ok(ExclusionDecision::Register(ExclusionRegistration {
        expires_at,
        is_permanent: expires_at.is_none(),
        regulator_eligible: regulator_eligible(facts.duration),
        events,
    }))
}

/// The regulator's comprehensive form excludes permanently and irrevocably.
pub fn decide_regulator_import(facts: &RegulatorImportFacts) -> Vec<RegulatorOutcome> {
    facts
        .entries
        .iter()
        .map(|entry| {
            let covered = entry.existing_regulator.iter().any(|t| t.expires_at.is_none());
            RegulatorOutcome {
                is_new: !covered,
                duration: ExclusionDuration::Permanent,
                is_permanent: true,
                expires_at: None,
                events: if covered { Vec::new() } else { alloc::vec![EventKind::ExclusionKgcSynced, EventKind::ExclusionPermanent] },
            }
        })
        .collect()
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
        for d in ExclusionDuration::ALL.iter().copied() {
            assert_eq!(ExclusionDuration::parse(d.as_str()), Some(d));
        }
        assert_eq!(ExclusionDuration::parse("duration_2y"), None);
    }
}
