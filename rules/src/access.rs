//! A player's right of access (GDPR art. 15 and its counterparts): when the
//! answer is due under the profile, and the law on which records that would
//! reveal a suspicion are withheld from it.

#[allow(unused_imports)]
use alloc::string::{String, ToString};
use chrono::{DateTime, Months};

use crate::jurisdictions::{find_access, AnswerWithin};
use crate::{RuleError, DAY};
pub use rules_model::{AccessRequestFacts, AccessRequestPlan};
use rules_model::{EventKind, SanctionsStatus};

/// The events that tell of a screening's outcome or an AML alert. Whether
/// a hit was later cleared, a PEP or adverse-media match, a frozen account:
/// each tells of a review the player could learn they were under.
const TELLING_EVENTS: [EventKind; 7] = [
    EventKind::SanctionsHit,
    EventKind::SanctionsCleared,
    EventKind::SanctionsConfirmed,
    EventKind::SanctionsAccountFrozen,
    EventKind::ScreeningPepMatch,
    EventKind::ScreeningAdverseMediaMatch,
    EventKind::AmlAlertCreated,
];

/// Every standing but `clear` tells of a hit.
const TELLING_STANDINGS: [SanctionsStatus; 3] = [SanctionsStatus::HitReviewPending, SanctionsStatus::Cleared, SanctionsStatus::Confirmed];

/// The request's due date and withholding basis under its profile; an
/// unknown profile is refused, never read as the default.
pub fn plan_access_request(facts: &AccessRequestFacts) -> Result<AccessRequestPlan, RuleError> {
    let right = find_access(&facts.jurisdiction).ok_or(RuleError::UnknownJurisdiction)?;
    let due_at = match right.within {
        AnswerWithin::Months(months) => DateTime::from_timestamp(facts.received_at, 0)
            .and_then(|t| t.checked_add_months(Months::new(months)))
            .map(|t| t.timestamp())
            .ok_or(RuleError::AmountTooLarge)?,
        AnswerWithin::Days(days) => facts.received_at.checked_add(days.saturating_mul(DAY)).ok_or(RuleError::AmountTooLarge)?,
    };
    Ok(AccessRequestPlan {
        due_at,
        due_source: right.within_source.to_string(),
        withhold_basis: right.withhold_basis.to_string(),
        withhold_source: right.withhold_source.to_string(),
        withheld_events: TELLING_EVENTS.to_vec(),
        withheld_standings: TELLING_STANDINGS.to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> i64 {
        DateTime::parse_from_rfc3339(text).map(|t| t.timestamp()).unwrap_or(i64::MIN)
    }

    fn due(jurisdiction: &str, received: &str) -> Option<i64> {
        plan_access_request(&AccessRequestFacts { received_at: at(received), jurisdiction: jurisdiction.into() }).ok().map(|p| p.due_at)
    }

    #[test]
    fn a_month_is_a_calendar_month_and_thirty_days_are_days() {
        for j in ["default", "GB", "SE", "DE", "NL"] {
            assert_eq!(due(j, "2026-03-15T10:00:00Z"), Some(at("2026-04-15T10:00:00Z")), "{j}");
            // no 31 February: the month's last day
            assert_eq!(due(j, "2027-01-31T10:00:00Z"), Some(at("2027-02-28T10:00:00Z")), "{j}");
        }
        assert_eq!(due("CA-ON", "2027-01-31T10:00:00Z"), Some(at("2027-03-02T10:00:00Z")));
        assert_eq!(due("CA-ON", "2026-03-15T10:00:00Z"), Some(at("2026-04-14T10:00:00Z")));
    }

    #[test]
    fn each_profile_names_its_laws_and_an_unknown_one_is_refused() {
        for j in ["default", "GB", "SE", "DE", "NL", "CA-ON"] {
            let plan = plan_access_request(&AccessRequestFacts { received_at: 0, jurisdiction: j.into() });
            let plan = plan.as_ref().map_err(|e| *e);
            assert!(plan.is_ok_and(|p| !p.due_source.is_empty() && !p.withhold_source.is_empty() && !p.withhold_basis.is_empty()), "{j}");
        }
        assert_eq!(due("GB", "2026-03-15T10:00:00Z").zip(due("CA-ON", "2026-03-15T10:00:00Z")).map(|(a, b)| a - b), Some(DAY));
        for unknown in ["gb", "XX", ""] {
            assert_eq!(
                plan_access_request(&AccessRequestFacts { received_at: 0, jurisdiction: unknown.into() }),
                Err(RuleError::UnknownJurisdiction)
            );
        }
        assert_eq!(
            plan_access_request(&AccessRequestFacts { received_at: i64::MAX - 1, jurisdiction: "CA-ON".into() }),
            Err(RuleError::AmountTooLarge)
        );
    }

    #[test]
    fn what_tells_of_a_review_is_withheld_and_nothing_else() {
        let Ok(plan) = plan_access_request(&AccessRequestFacts { received_at: 0, jurisdiction: "GB".into() }) else {
            panic!("GB has an access right");
        };
        for kind in EventKind::ALL {
            let telling = kind.as_str().starts_with("sanctions.") || kind.as_str().starts_with("screening.") || kind.as_str().starts_with("aml.");
            assert_eq!(plan.withheld_events.contains(kind), telling, "{}", kind.as_str());
        }
        for standing in SanctionsStatus::ALL {
            assert_eq!(plan.withheld_standings.contains(standing), *standing != SanctionsStatus::Clear, "{}", standing.as_str());
        }
    }
}
