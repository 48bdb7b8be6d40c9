//! Time-driven work: what has become due, and the horizons the store uses
//! to pre-select candidates (the rules still decide on every row).

use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

#[allow(unused_imports)]
use crate::*;

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

impl Horizons {
    /// The spans while the rules have not answered: each as long as every
    /// store keeps exactly, so that nothing expires, is re-screened or is
    /// pruned on their account (every decision fails meanwhile anyway).
    pub const UNANSWERED: Horizons = Horizons {
        longest_deposit_window_seconds: UNANSWERED_SPAN,
        daily_window_seconds: UNANSWERED_SPAN,
        weekly_window_seconds: UNANSWERED_SPAN,
        monthly_window_seconds: UNANSWERED_SPAN,
        kyc_abandon_seconds: UNANSWERED_SPAN,
        rescreen_after_seconds: UNANSWERED_SPAN,
        review_target_seconds: UNANSWERED_SPAN,
        snapshot_second_of_day: 0,
        decision_retention_seconds: UNANSWERED_SPAN,
    };
}

const UNANSWERED_SPAN: i64 = (1 << 53) - 1;

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
