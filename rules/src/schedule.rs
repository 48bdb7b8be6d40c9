//! Time-driven work: what has become due, and the horizons the store uses
//! to pre-select candidates (the rules still decide on every row).

use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::exclusions::{is_active, ExclusionTerm};
use crate::kyc::{decide_kyc, KycAction, KycDecision, KycFacts, KYC_ABANDON_SECONDS};
use crate::limits::{longest_window_seconds, LimitStatus};
use crate::sanctions::{RESCREEN_AFTER_SECONDS, REVIEW_TARGET_SECONDS};
use crate::types::SanctionsStatus;
use crate::HOUR;

/// The daily bulk exclusion snapshot is taken at this second of the UTC day (03:00).
pub const SNAPSHOT_SECOND_OF_DAY: i64 = 3 * HOUR;

/// The rules' time spans, for pre-selecting rows in SQL and for display.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Horizons {
    /// deposits older than this never count in a window
    pub longest_deposit_window_seconds: i64,
    /// the length of each rolling deposit window, for the store's window totals
    pub daily_window_seconds: i64,
    pub weekly_window_seconds: i64,
    pub monthly_window_seconds: i64,
    pub kyc_abandon_seconds: i64,
    pub rescreen_after_seconds: i64,
    pub review_target_seconds: i64,
    pub snapshot_second_of_day: i64,
    /// how long the decision log is kept: a regulator's usual look-back is a year, kept a little longer
    pub decision_retention_seconds: i64,
}

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

/// A pending limit; `now` is its tenant's (sandbox tenants have test clocks).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DueLimit {
    pub now: i64,
    pub status: LimitStatus,
    pub effective_from: i64,
}

/// A timed exclusion not yet announced as expired, with every other
/// exclusion of the same e-mail or phone in the environment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DueExclusion {
    pub now: i64,
    pub expires_at: Option<i64>,
    pub others: Vec<ExclusionTerm>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DueUser {
    pub now: i64,
    pub status: SanctionsStatus,
    pub last_screened_at: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DueFacts {
    pub limits: Vec<DueLimit>,
    pub exclusions: Vec<DueExclusion>,
    /// open checks, each with its tenant's now
    pub checks: Vec<KycFacts>,
    pub users: Vec<DueUser>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExclusionExpiry {
    pub index: u32,
    /// false when another exclusion still covers the person: an operator
    /// must never be told to unblock someone who is still excluded
    pub announce: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckExpiry {
    pub index: u32,
    pub decision: KycDecision,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct DueWork {
    /// pending increases whose cool-off is over (each fires `limit.activated`)
    pub activate_limits: Vec<u32>,
    pub expire_exclusions: Vec<ExclusionExpiry>,
    pub expire_checks: Vec<CheckExpiry>,
    /// clear or cleared users whose last screening is a quarter old
    pub rescreen_users: Vec<u32>,
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
