//! The compliance rules: pure functions over integer cents and unix seconds.
//!
//! This crate is the single source of every regulatory decision. The
//! `rules-component` crate wraps it, unchanged, as a WebAssembly component
//! whose SHA-256 is the rules version auditors verify.
#![no_std]
extern crate alloc;

pub mod exclusions;
pub mod kyc;
pub mod limits;
pub mod stubs;

pub use exclusions::{exclusion_expiry, exclusion_lengthens, most_restrictive_exclusion, ExclusionDuration, ExclusionTerm};
pub use kyc::{assess_withdrawal, bounds_of_tier, tier_for_cumulative, KycTier, TierBounds, WithdrawalAssessment};
pub use limits::{
    check_deposit, limit_cooloff, window_seconds, window_usage_at, Cooloff, Deposit, DepositBreach, DepositDecision, DepositLimit, LimitWindow,
    WindowUsage,
};
pub use stubs::{stub_kyc, stub_screen, ScreeningOutcome, StubKycOutcome};

/// Semantic version of the rules; the component's SHA-256 identifies the exact build.
pub const VERSION: &str = "1.0.0";

/// The largest amount in cents any rule accepts: ten trillion major units.
/// Sums of many such amounts still fit in an `i64`.
pub const MAX_AMOUNT_CENTS: i64 = 1_000_000_000_000_000;

/// Why a rule refused its input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleError {
    NonPositiveAmount,
    AmountTooLarge,
}

pub(crate) fn positive_amount(cents: i64) -> Result<i64, RuleError> {
    if cents <= 0 {
        Err(RuleError::NonPositiveAmount)
    } else if cents > MAX_AMOUNT_CENTS {
        Err(RuleError::AmountTooLarge)
    } else {
        Ok(cents)
    }
}

pub(crate) fn non_negative_amount(cents: i64) -> Result<i64, RuleError> {
    if cents < 0 {
        Err(RuleError::NonPositiveAmount)
    } else if cents > MAX_AMOUNT_CENTS {
        Err(RuleError::AmountTooLarge)
    } else {
        Ok(cents)
    }
}

/// Sums amounts without overflow; saturates far above any real total.
pub(crate) fn saturating_sum(amounts: impl Iterator<Item = i64>) -> i64 {
    amounts.fold(0i64, |acc, a| acc.saturating_add(a))
}
