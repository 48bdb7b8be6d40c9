//! Time-driven work: what has become due, and the horizons the store uses
//! to pre-select candidates (the rules still decide on every row).

use crate::exclusions::is_active;
use crate::kyc::{decide_kyc, KycAction, KycFacts, KYC_ABANDON_SECONDS};
use crate::limits::{longest_window_seconds, LimitStatus};
use crate::sanctions::{RESCREEN_AFTER_SECONDS, REVIEW_TARGET_SECONDS};
#[allow(unused_imports)]
use crate::traits::*;
use crate::types::SanctionsStatus;
use crate::HOUR;
#[allow(unused_imports)]
use crate::*;
#[allow(unused_imports)]
use alloc::{
    string::{String, ToString},
    vec::Vec,
};
pub use rules_model::schedule::*;

/// The daily bulk exclusion snapshot is taken at this second of the UTC day (03:00).
pub const SNAPSHOT_SECOND_OF_DAY: i64 = 3 * HOUR;

/// Decisions are kept 400 days: a regulator's usual look-back is a year.
pub const DECISION_RETENTION_SECONDS: i64 = 400 * crate::DAY;

pub fn time_horizons() -> Horizons {
    Horizons {
        longest_deposit_window_seconds: longest_window_seconds(),
        daily_window_seconds: crate::limits::window_seconds(crate::LimitWindow::Daily),
        weekly_window_seconds: crate::limits::window_seconds(crate::LimitWindow::Weekly),
        monthly_window_seconds: crate::limits::window_seconds(crate::LimitWindow::Monthly),
        kyc_abandon_seconds: KYC_ABANDON_SECONDS,
        rescreen_after_seconds: RESCREEN_AFTER_SECONDS,
        review_target_seconds: REVIEW_TARGET_SECONDS,
        snapshot_second_of_day: SNAPSHOT_SECOND_OF_DAY,
        decision_retention_seconds: DECISION_RETENTION_SECONDS,
    }
}

fn indexes<T>(items: &[T], due: impl Fn(&T) -> bool) -> Vec<u32> {
    items.iter().enumerate().filter(|(_, x)| due(x)).filter_map(|(i, _)| u32::try_from(i).ok()).collect()
}

/// What has become due among the candidates.
pub fn due_now(facts: &DueFacts) -> DueWork {
    DueWork {
        activate_limits: indexes(&facts.limits, |l| l.status == LimitStatus::Pending && l.effective_from <= l.now),
        expire_exclusions: facts
            .exclusions
            .iter()
            .enumerate()
            .filter(|(_, e)| e.expires_at.is_some_and(|at| at <= e.now))
            .filter_map(|(i, e)| {
                let announce = !e.others.iter().any(|o| is_active(e.now, o));
                u32::try_from(i).ok().map(|index| ExclusionExpiry { index, announce })
            })
            .collect(),
        expire_checks: facts
            .checks
            .iter()
            .enumerate()
            .filter_map(|(i, c)| {
                let decision = decide_kyc(&KycFacts { action: KycAction::Expire, ..c.clone() });
                (decision.changed).then_some(decision).and_then(|decision| u32::try_from(i).ok().map(|index| CheckExpiry { index, decision }))
            })
            .collect(),
        rescreen_users: indexes(&facts.users, |u| {
            matches!(u.status, SanctionsStatus::Clear | SanctionsStatus::Cleared)
                && u.now.saturating_sub(u.last_screened_at) >= RESCREEN_AFTER_SECONDS
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kyc::{KycStatus, KycTier};

    const DAY: i64 = 86_400;

    #[test]
    fn due_items_are_selected_at_their_exact_time_and_not_before() {
        let check = |updated_at| KycFacts {
            now: 10 * DAY,
            status: KycStatus::NotStarted,
            updated_at,
            target_tier: KycTier::Tier1,
            verified: KycTier::Tier0,
            external_user_id: alloc::string::String::new(),
            action: KycAction::View,
            vendor_tier: None,
            sanctions: crate::types::SanctionsStatus::Clear,
            aml: crate::aml::AmlStanding::default(),
        };
        let facts = DueFacts {
            limits: alloc::vec![
                DueLimit { now: 100, status: LimitStatus::Pending, effective_from: 100 },
                DueLimit { now: 99, status: LimitStatus::Pending, effective_from: 100 },
                DueLimit { now: 200, status: LimitStatus::Cancelled, effective_from: 100 },
            ],
            exclusions: alloc::vec![
                DueExclusion { now: 50, expires_at: Some(50), others: alloc::vec![] },
                DueExclusion { now: 50, expires_at: Some(50), others: alloc::vec![ExclusionTerm { expires_at: None }] },
                DueExclusion { now: 49, expires_at: Some(50), others: alloc::vec![] },
            ],
            checks: alloc::vec![check(3 * DAY), check(3 * DAY + 1)],
            users: alloc::vec![
                DueUser { now: 91 * DAY, status: SanctionsStatus::Clear, last_screened_at: 0 },
                DueUser { now: 91 * DAY - 1, status: SanctionsStatus::Cleared, last_screened_at: 0 },
                DueUser { now: 200 * DAY, status: SanctionsStatus::HitReviewPending, last_screened_at: 0 },
            ],
        };
        let work = due_now(&facts);
        assert_eq!(work.activate_limits, alloc::vec![0]);
        assert_eq!(work.expire_exclusions, alloc::vec![ExclusionExpiry { index: 0, announce: true }, ExclusionExpiry { index: 1, announce: false }]);
        assert_eq!(work.expire_checks.len(), 1);
        assert_eq!(work.expire_checks[0].index, 0);
        assert_eq!(work.expire_checks[0].decision.status, KycStatus::Expired);
        assert_eq!(work.rescreen_users, alloc::vec![0]);
    }
}
