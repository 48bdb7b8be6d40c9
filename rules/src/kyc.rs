//! KYC tiers keyed to lifetime cumulative withdrawals.

use crate::{non_negative_amount, positive_amount, RuleError};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum KycTier {
    Tier0,
    Tier1,
    Tier2,
    Tier3,
    Tier4,
}

impl KycTier {
    pub const ALL: [KycTier; 5] = [KycTier::Tier0, KycTier::Tier1, KycTier::Tier2, KycTier::Tier3, KycTier::Tier4];

    pub fn as_str(self) -> &'static str {
        match self {
            KycTier::Tier0 => "tier_0",
            KycTier::Tier1 => "tier_1",
            KycTier::Tier2 => "tier_2",
            KycTier::Tier3 => "tier_3",
            KycTier::Tier4 => "tier_4",
        }
    }

    pub fn parse(s: &str) -> Option<KycTier> {
        KycTier::ALL.into_iter().find(|t| t.as_str() == s)
    }

    /// Largest lifetime cumulative withdrawal (cents) the tier covers; `None` when unbounded.
    pub fn ceiling_cents(self) -> Option<i64> {
        match self {
            KycTier::Tier0 => Some(20_000),
            KycTier::Tier1 => Some(200_000),
            KycTier::Tier2 => Some(2_000_000),
            KycTier::Tier3 => Some(10_000_000),
            KycTier::Tier4 => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TierBounds {
    pub tier: KycTier,
    pub ceiling_cents: Option<i64>,
    pub next_tier_at_cents: Option<i64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WithdrawalAssessment {
    pub required_tier: KycTier,
    pub verification_required: bool,
    pub ceiling_cents: Option<i64>,
    pub remaining_cents: Option<i64>,
}

/// The lowest tier whose ceiling covers a lifetime cumulative withdrawal.
pub fn tier_for_cumulative(cumulative_cents: i64) -> Result<KycTier, RuleError> {
    let cumulative = non_negative_amount(cumulative_cents)?;
    Ok(KycTier::ALL.into_iter().find(|t| t.ceiling_cents().is_none_or(|c| cumulative <= c)).unwrap_or(KycTier::Tier4))
}

pub fn bounds_of_tier(tier: KycTier) -> TierBounds {
    TierBounds { tier, ceiling_cents: tier.ceiling_cents(), next_tier_at_cents: tier.ceiling_cents().map(|c| c + 1) }
}

/// The tier a withdrawal needs. A verified tier never goes down, so the
/// withdrawal is covered when the verified tier is at least the tier of the
/// lifetime total after it; once past the tier_0 ceiling that is tier_1 or more.
pub fn assess_withdrawal(verified: KycTier, cumulative_cents: i64, amount_cents: i64) -> Result<WithdrawalAssessment, RuleError> {
    let cumulative = non_negative_amount(cumulative_cents)?;
    let amount = positive_amount(amount_cents)?;
    let after = non_negative_amount(cumulative + amount)?;
    let needed = tier_for_cumulative(after)?;
    let covering = needed.max(verified);
    let ceiling = covering.ceiling_cents();
    Ok(WithdrawalAssessment {
        required_tier: needed,
        verification_required: needed > verified,
        ceiling_cents: ceiling,
        remaining_cents: ceiling.map(|c| c - after),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tier_edges_are_inclusive_ceilings() {
        let cases = [
            (0, KycTier::Tier0),
            (20_000, KycTier::Tier0),
            (20_001, KycTier::Tier1),
            (200_000, KycTier::Tier1),
            (200_001, KycTier::Tier2),
            (2_000_000, KycTier::Tier2),
            (2_000_001, KycTier::Tier3),
            (10_000_000, KycTier::Tier3),
            (10_000_001, KycTier::Tier4),
            (crate::MAX_AMOUNT_CENTS, KycTier::Tier4),
        ];
        for (cents, tier) in cases {
            assert_eq!(tier_for_cumulative(cents), Ok(tier), "{cents}");
        }
    }

    #[test]
    fn negative_and_huge_cumulatives_are_rejected() {
        assert_eq!(tier_for_cumulative(-1), Err(RuleError::NonPositiveAmount));
        assert_eq!(tier_for_cumulative(crate::MAX_AMOUNT_CENTS + 1), Err(RuleError::AmountTooLarge));
        assert_eq!(tier_for_cumulative(i64::MAX), Err(RuleError::AmountTooLarge));
    }

    #[test]
    fn exactly_200_is_the_fast_path_and_one_cent_more_is_not() {
        let at = assess_withdrawal(KycTier::Tier0, 0, 20_000).unwrap();
        assert_eq!(at.required_tier, KycTier::Tier0);
        assert!(!at.verification_required);
        assert_eq!(at.remaining_cents, Some(0));
        let over = assess_withdrawal(KycTier::Tier0, 0, 20_001).unwrap();
        assert_eq!(over.required_tier, KycTier::Tier1);
        assert!(over.verification_required);
    }

    #[test]
    fn past_the_ceiling_every_withdrawal_needs_tier_1() {
        let a = assess_withdrawal(KycTier::Tier0, 20_000, 1).unwrap();
        assert_eq!(a.required_tier, KycTier::Tier1);
        assert!(a.verification_required);
        let b = assess_withdrawal(KycTier::Tier1, 20_000, 1).unwrap();
        assert!(!b.verification_required);
        assert_eq!(b.remaining_cents, Some(200_000 - 20_001));
    }

    #[test]
    fn a_higher_verified_tier_covers_and_reports_its_own_ceiling() {
        let a = assess_withdrawal(KycTier::Tier3, 0, 100).unwrap();
        assert_eq!(a.required_tier, KycTier::Tier0);
        assert!(!a.verification_required);
        assert_eq!(a.ceiling_cents, Some(10_000_000));
        let b = assess_withdrawal(KycTier::Tier4, 0, crate::MAX_AMOUNT_CENTS).unwrap();
        assert_eq!(b.remaining_cents, None);
    }

    #[test]
    fn withdrawal_amount_must_be_positive_and_bounded() {
        assert_eq!(assess_withdrawal(KycTier::Tier0, 0, 0), Err(RuleError::NonPositiveAmount));
        assert_eq!(assess_withdrawal(KycTier::Tier0, 0, -5), Err(RuleError::NonPositiveAmount));
        assert_eq!(assess_withdrawal(KycTier::Tier0, crate::MAX_AMOUNT_CENTS, 1), Err(RuleError::AmountTooLarge));
    }

    #[test]
    fn bounds_give_next_threshold() {
        assert_eq!(bounds_of_tier(KycTier::Tier0).next_tier_at_cents, Some(20_001));
        assert_eq!(bounds_of_tier(KycTier::Tier4).next_tier_at_cents, None);
    }

    #[test]
    fn tier_names_round_trip_and_unknown_is_rejected() {
        for t in KycTier::ALL {
            assert_eq!(KycTier::parse(t.as_str()), Some(t));
        }
        assert_eq!(KycTier::parse("tier_5"), None);
        assert_eq!(KycTier::parse("TIER_1"), None);
    }
}
