//! KYC: tiers keyed to lifetime cumulative withdrawals, the withdrawal
//! decision, and the transitions of a verification check.

use crate::stubs::{stub_kyc, StubKycOutcome};
#[allow(unused_imports)]
use crate::traits::*;
use crate::types::EventKind;
#[allow(unused_imports)]
use crate::*;
use crate::{non_negative_amount, positive_amount, RuleError, DAY};
#[allow(unused_imports)]
use alloc::{
    string::{String, ToString},
    vec::Vec,
};
pub use rules_model::kyc::*;

/// A check the user leaves untouched this long expires.
pub const KYC_ABANDON_SECONDS: i64 = 7 * DAY;

/// Lifetime of the token for the vendor's verification flow.
pub const VENDOR_TOKEN_SECONDS: i64 = 900;

/// The rules about a [`KycTier`].
pub trait KycTierRules {
    fn ceiling_major(self) -> Option<i64>;
    fn ceiling_in(self, exponent: u8) -> Option<i64>;
    fn ceiling_cents(self) -> Option<i64>;
    fn documents(self) -> Vec<KycDocument>;
    fn estimated_clear_time(self) -> &'static str;
}

impl KycTierRules for KycTier {
    /// Largest lifetime cumulative withdrawal the tier covers, in whole major
    /// units of the withdrawal's currency (the spec's table); `None` when unbounded.
    fn ceiling_major(self) -> Option<i64> {
        match self {
            KycTier::Tier0 => Some(200),
            KycTier::Tier1 => Some(2_000),
            KycTier::Tier2 => Some(20_000),
            KycTier::Tier3 => Some(100_000),
            KycTier::Tier4 => None,
        }
    }

    /// The ceiling in minor units of a currency with this ISO 4217 exponent
    /// (JPY 0, USD 2, BHD 3); an exponent above 4 counts as 4.
    fn ceiling_in(self, exponent: u8) -> Option<i64> {
        let unit = 10_i64.pow(u32::from(exponent.min(MAX_CURRENCY_EXPONENT)));
        self.ceiling_major().map(|major| major * unit)
    }

    /// The ceiling in cents (a two-decimal currency such as USD).
    fn ceiling_cents(self) -> Option<i64> {
        self.ceiling_in(CENTS_EXPONENT)
    }

    fn documents(self) -> Vec<KycDocument> {
        use KycDocument::*;
        match self {
            KycTier::Tier0 => Vec::new(),
            KycTier::Tier1 => alloc::vec![EmailOtp, PhoneOtp],
            KycTier::Tier2 => alloc::vec![GovernmentId, Selfie],
            KycTier::Tier3 => alloc::vec![GovernmentId, Selfie, ProofOfAddress],
            KycTier::Tier4 => alloc::vec![GovernmentId, Selfie, ProofOfAddress, SourceOfFunds],
        }
    }

    fn estimated_clear_time(self) -> &'static str {
        match self {
            KycTier::Tier0 | KycTier::Tier1 => "0-1 hours",
            KycTier::Tier2 => "1-24 hours",
            KycTier::Tier3 => "24-48 hours",
            KycTier::Tier4 => "48-120 hours",
        }
    }
}

/// The rules about a [`KycStatus`].
pub trait KycStatusRules {
    fn can_be_abandoned(self) -> bool;
}

impl KycStatusRules for KycStatus {
    /// Only the user-side states can be abandoned; a check awaiting review is not.
    fn can_be_abandoned(self) -> bool {
        matches!(self, KycStatus::NotStarted | KycStatus::InProgress)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WithdrawalAssessment {
    pub required_tier: KycTier,
    pub verification_required: bool,
    pub ceiling_cents: Option<i64>,
    pub remaining_cents: Option<i64>,
}

/// The lowest tier whose ceiling covers a lifetime cumulative withdrawal,
/// in minor units of a currency with this exponent.
pub fn tier_for_cumulative(cumulative_minor: i64, exponent: u8) -> Result<KycTier, RuleError> {
    let cumulative = non_negative_amount(cumulative_minor)?;
    Ok(KycTier::ALL.iter().copied().find(|t| t.ceiling_in(exponent).is_none_or(|c| cumulative <= c)).unwrap_or(KycTier::Tier4))
}

/// The ceiling and next-tier threshold of a verified tier, in minor units
/// of the user's currency: the ceilings are the profile's currency's, told
/// back in the user's at the reference rate (rounded down) when they differ;
/// no usable rate is [`RuleError::NoReferenceRate`].
pub fn describe_tier(facts: &TierFacts) -> Result<TierBounds, RuleError> {
    let (currency, ceilings) = (facts.currency.as_str(), facts.ceiling_currency.as_str());
    let ceiling = if currency.is_empty() || ceilings.is_empty() || currency == ceilings {
        facts.tier.ceiling_in(facts.currency_exponent)
    } else {
        let rate = facts.rate.as_ref().filter(|r| r.currency == currency && r.per_unit_of == ceilings && crate::aml::convert(0, r).is_some());
        let rate = rate.ok_or(RuleError::NoReferenceRate)?;
        facts.tier.ceiling_in(rate.per_unit_exponent).map(|c| first_past(c, rate) - 1)
    };
    Ok(TierBounds { tier: facts.tier, ceiling_cents: ceiling, next_tier_at_cents: ceiling.map(|c| c + 1) })
}

/// The tier a withdrawal needs. A verified tier never goes down, so the
/// withdrawal is covered when the verified tier is at least the tier of the
/// lifetime total after it; once past the tier_0 ceiling that is tier_1 or more.
/// Amounts are in minor units of a currency with this ISO 4217 exponent.
pub fn assess_withdrawal(verified: KycTier, cumulative_minor: i64, amount_minor: i64, exponent: u8) -> Result<WithdrawalAssessment, RuleError> {
    let cumulative = non_negative_amount(cumulative_minor)?;
    let amount = positive_amount(amount_minor)?;
    let after = non_negative_amount(cumulative + amount)?;
    let needed = tier_for_cumulative(after, exponent)?;
    let covering = needed.max(verified);
    let ceiling = covering.ceiling_in(exponent);
    Ok(WithdrawalAssessment {
        required_tier: needed,
        verification_required: needed > verified,
        ceiling_cents: ceiling,
        remaining_cents: ceiling.map(|c| c - after),
    })
}

/// The smallest amount of the withdrawal's currency that `rate` converts
/// past `ceiling` (of the profile's currency), as [`crate::aml::convert`]
/// rounds (half up): `convert(n) > ceiling` exactly when
/// `n >= D(2 ceiling + 1) / 2N`, where `convert(n)` rounds `nN / D`. One less
/// is the most a tier covers, told in the withdrawal's currency.
fn first_past(ceiling: i64, rate: &AmlRate) -> i64 {
    let ten = |e: u32| 10_i128.checked_pow(e);
    let (Some(scale), Some(from), Some(to)) = (ten(rate.rate_scale), ten(u32::from(rate.currency_exponent)), ten(u32::from(rate.per_unit_exponent)))
    else {
        return 0;
    };
    let n = i128::from(rate.rate_units).saturating_mul(to).saturating_mul(2);
    let d = scale.saturating_mul(from).saturating_mul(i128::from(ceiling.max(0)).saturating_mul(2).saturating_add(1));
    if n <= 0 {
        return 0;
    }
    let past = d / n + i128::from(d % n != 0);
    i64::try_from(past).unwrap_or(crate::MAX_AMOUNT_CENTS).min(crate::MAX_AMOUNT_CENTS)
}

/// [`assess_withdrawal`] with the ceilings in the profile's currency: a
/// withdrawal in another has its lifetime total after it converted at the
/// facts' reference rate ([`crate::aml::convert`]) and compared there; the
/// ceiling and what remains are answered back in the withdrawal's currency.
/// No usable rate is [`RuleError::NoReferenceRate`]; decisions logged before
/// currencies were facts compare in the withdrawal's own units.
pub fn assess_withdrawal_in(facts: &WithdrawalFacts) -> Result<WithdrawalAssessment, RuleError> {
    let (currency, ceilings) = (facts.currency.as_str(), facts.ceiling_currency.as_str());
    if currency.is_empty() || ceilings.is_empty() || currency == ceilings {
        return assess_withdrawal(facts.verified, facts.cumulative_cents, facts.amount_cents, facts.currency_exponent);
    }
    let cumulative = non_negative_amount(facts.cumulative_cents)?;
    let amount = positive_amount(facts.amount_cents)?;
    let after = non_negative_amount(cumulative + amount)?;
    let rate = facts.rate.as_ref().filter(|r| r.currency == currency && r.per_unit_of == ceilings && crate::aml::convert(0, r).is_some());
    let rate = rate.ok_or(RuleError::NoReferenceRate)?;
    let after_converted = crate::aml::convert(after, rate).ok_or(RuleError::AmountTooLarge)?;
    let needed = tier_for_cumulative(after_converted, rate.per_unit_exponent)?;
    let ceiling = needed.max(facts.verified).ceiling_in(rate.per_unit_exponent);
    Ok(WithdrawalAssessment {
        required_tier: needed,
        verification_required: needed > facts.verified,
        ceiling_cents: ceiling.map(|c| first_past(c, rate) - 1),
        remaining_cents: ceiling.map(|c| (first_past(c, rate) - 1 - after).max(0)),
    })
}

/// A withdrawal: held under a sanctions review, released when the verified
/// tier covers the lifetime total after it (in the profile's currency),
/// otherwise a check for the tier that does. An abandoned open check is
/// expired first. A withdrawal in another currency than the user's earlier
/// ones is a mismatch before any rate is needed.
pub fn decide_withdrawal(facts: &WithdrawalFacts) -> Result<WithdrawalDecision, RuleError> {
    let assessment = match assess_withdrawal_in(facts) {
        Err(RuleError::AmountTooLarge) => {
            return Ok(WithdrawalDecision { expire_open_check: None, outcome: WithdrawalOutcome::CeilingExceeded });
        }
        Err(RuleError::NoReferenceRate) if !facts.same_currency => {
            return Ok(WithdrawalDecision { expire_open_check: None, outcome: WithdrawalOutcome::CurrencyMismatch });
        }
        other => other?,
    };
    let decide = |outcome| Ok(WithdrawalDecision { expire_open_check: None, outcome });
    // an AML hold reads to the player as any other hold
    if facts.sanctions.holds_transactions() || facts.aml.withdrawals_held {
        return decide(WithdrawalOutcome::Held(assessment.required_tier));
    }
    // a due-diligence lock asks for verification at its tier
    let mut assessment = assessment;
    if let Some(cdd_tier) = facts.aml.cdd_tier.filter(|t| facts.verified < *t && assessment.required_tier < *t) {
        assessment.required_tier = cdd_tier;
        assessment.verification_required = true;
    }
    if !facts.same_currency {
        return decide(WithdrawalOutcome::CurrencyMismatch);
    }
    let mut expire_open_check = None;
    if let Some(open) = facts.open_check {
        let expiry = expire_if_abandoned(facts.now, open.status, open.updated_at, open.target_tier, facts.verified);
        if expiry.changed {
            expire_open_check = Some(expiry);
        } else if open.target_tier == assessment.required_tier {
            let valid_for = open.token_expires_at.map_or(0, |at| at.saturating_sub(facts.now));
            let replay = if valid_for > 0 {
                OpenCheckReplay { reissue_token: false, vendor_expires_in: valid_for }
            } else {
                OpenCheckReplay { reissue_token: true, vendor_expires_in: VENDOR_TOKEN_SECONDS }
            };
            return decide(WithdrawalOutcome::ReplayOpenCheck(replay));
        } else {
            return decide(WithdrawalOutcome::AlreadyInProgress);
        }
    }
    let outcome = if assessment.verification_required {
        WithdrawalOutcome::Verify(Verification {
            tier: assessment.required_tier,
            documents: assessment.required_tier.documents(),
            estimated_clear_time: assessment.required_tier.estimated_clear_time().to_string(),
            vendor_token_seconds: VENDOR_TOKEN_SECONDS,
            status: KycStatus::InProgress,
            events: alloc::vec![EventKind::KycStarted],
        })
    } else {
        WithdrawalOutcome::Approve(FastPath { required_tier: assessment.required_tier, remaining_cents: assessment.remaining_cents })
    };
    Ok(WithdrawalDecision { expire_open_check, outcome })
}

fn withdrawal_of(status: KycStatus) -> WithdrawalStatus {
    match status {
        KycStatus::Approved => WithdrawalStatus::Released,
        KycStatus::Rejected => WithdrawalStatus::Blocked,
        KycStatus::Expired => WithdrawalStatus::Cancelled,
        _ => WithdrawalStatus::Held,
    }
}

fn settle(status: KycStatus, updated_at: i64, target: KycTier, verified: KycTier, changed: bool, events: Vec<EventKind>) -> KycDecision {
    KycDecision {
        status,
        changed,
        refused: false,
        events,
        verified,
        withdrawal: withdrawal_of(status),
        expires_at: status.can_be_abandoned().then(|| updated_at.saturating_add(KYC_ABANDON_SECONDS)),
        documents: target.documents(),
        vendor_token_seconds: None,
        escalation: None,
    }
}

fn expire_if_abandoned(now: i64, status: KycStatus, updated_at: i64, target: KycTier, verified: KycTier) -> KycDecision {
    if status.can_be_abandoned() && now.saturating_sub(updated_at) >= KYC_ABANDON_SECONDS {
        settle(KycStatus::Expired, now, target, verified, true, alloc::vec![EventKind::KycExpired])
    } else {
        settle(status, updated_at, target, verified, false, Vec::new())
    }
}

fn review(current: KycDecision, now: i64, target: KycTier, approve: bool) -> KycDecision {
    let wanted = if approve { KycStatus::Approved } else { KycStatus::Rejected };
    if current.status == wanted {
        return current;
    }
    if current.status != KycStatus::PendingReview {
        return KycDecision { refused: true, ..current };
    }
    let mut events = current.events;
    if approve {
        let verified = current.verified.max(target);
        events.push(EventKind::KycApproved);
        if verified > current.verified {
            events.push(EventKind::KycTierUpgraded);
        }
        settle(KycStatus::Approved, now, target, verified, true, events)
    } else {
        events.push(EventKind::KycRejected);
        settle(KycStatus::Rejected, now, target, current.verified, true, events)
    }
}

/// The transitions of a check. Abandonment (7 days untouched before review)
/// applies first, whatever the action; documents move a check to review,
/// where the sandbox vendor decides by the user id (`autoapprove`,
/// `autoreject`, otherwise a reviewer does); an approval raises the verified
/// tier, never lowers it.
pub fn decide_kyc(facts: &KycFacts) -> KycDecision {
    let mut decision = decide_check(facts);
    // An approval releases the check's withdrawal only where no other gate
    // holds the player's withdrawals: a sanctions hold, an AML hold, or a
    // due-diligence lock above the tier now verified. Under one, the tier is
    // verified and the withdrawal is cancelled: the operator asks again, and
    // is answered under the gates then (told it is held, never why).
    let approved_now = decision.changed && decision.status == KycStatus::Approved && facts.status != KycStatus::Approved;
    if approved_now && (facts.sanctions.holds_transactions() || facts.aml.locks_withdrawals(decision.verified)) {
        decision.withdrawal = WithdrawalStatus::Cancelled;
    }
    decision
}

fn decide_check(facts: &KycFacts) -> KycDecision {
    let current = expire_if_abandoned(facts.now, facts.status, facts.updated_at, facts.target_tier, facts.verified);
    match facts.action {
        KycAction::View | KycAction::Expire => current,
        KycAction::Approve => review(current, facts.now, facts.target_tier, true),
        KycAction::Reject => review(current, facts.now, facts.target_tier, false),
        KycAction::SandboxSubmit => {
            if !current.status.can_be_abandoned() {
                return KycDecision { refused: true, ..current };
            }
            let submitted = submit(current, facts);
            match stub_kyc(&facts.external_user_id) {
                StubKycOutcome::Approve => review(submitted, facts.now, facts.target_tier, true),
                StubKycOutcome::Reject => review(submitted, facts.now, facts.target_tier, false),
                StubKycOutcome::ManualReview => submitted,
            }
        }
        // A vendor's word arrives by webhook, possibly twice and possibly out
        // of order: a repeat changes nothing, and a verdict on documents whose
        // submission was not heard of submits them first.
        KycAction::VendorSubmit => match current.status {
            KycStatus::PendingReview => current,
            s if s.can_be_abandoned() => submit(current, facts),
            _ => KycDecision { refused: true, ..current },
        },
        // A rejection the user may correct is no verdict: the check stays
        // awaiting review, and is escalated so that a person looks at it
        // rather than leave the withdrawal held on the user's resubmission.
        KycAction::VendorRetry if current.status == KycStatus::PendingReview => {
            KycDecision { escalation: Some(KycEscalation::VendorRetry), ..current }
        }
        KycAction::VendorRetry => current,
        // The user opens (or reopens) the vendor flow: a fresh token for an
        // open check. A check not yet started starts; an unfinished flow's
        // 7-day abandonment counts from now. A final check takes none.
        KycAction::IssueToken => match current.status {
            KycStatus::NotStarted | KycStatus::InProgress => {
                let mut events = current.events;
                if current.status == KycStatus::NotStarted {
                    events.push(EventKind::KycStarted);
                }
                let started = settle(KycStatus::InProgress, facts.now, facts.target_tier, facts.verified, true, events);
                KycDecision { vendor_token_seconds: Some(VENDOR_TOKEN_SECONDS), ..started }
            }
            KycStatus::PendingReview => KycDecision { vendor_token_seconds: Some(VENDOR_TOKEN_SECONDS), ..current },
            _ => KycDecision { refused: true, ..current },
        },
        // A GREEN verifies what its level checks: it approves no tier above
        // its level's (a tier_2 level's GREEN cannot approve tier_3).
        KycAction::VendorApprove if facts.vendor_tier.is_none_or(|tier| tier < facts.target_tier) => KycDecision { refused: true, ..current },
        KycAction::VendorApprove | KycAction::VendorReject => {
            let approve = facts.action == KycAction::VendorApprove;
            let current = if current.status.can_be_abandoned() { submit(current, facts) } else { current };
            review(current, facts.now, facts.target_tier, approve)
        }
    }
}

/// Documents are in: the check awaits review.
fn submit(current: KycDecision, facts: &KycFacts) -> KycDecision {
    let mut events = current.events;
    if current.status == KycStatus::NotStarted {
        events.push(EventKind::KycStarted);
    }
    events.push(EventKind::KycSubmitted);
    settle(KycStatus::PendingReview, facts.now, facts.target_tier, facts.verified, true, events)
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
            assert_eq!(tier_for_cumulative(cents, 2), Ok(tier), "{cents}");
        }
    }

    #[test]
    fn negative_and_huge_cumulatives_are_rejected() {
        assert_eq!(tier_for_cumulative(-1, 2), Err(RuleError::NonPositiveAmount));
        assert_eq!(tier_for_cumulative(crate::MAX_AMOUNT_CENTS + 1, 2), Err(RuleError::AmountTooLarge));
        assert_eq!(tier_for_cumulative(i64::MAX, 2), Err(RuleError::AmountTooLarge));
    }

    #[test]
    fn exactly_200_is_the_fast_path_and_one_cent_more_is_not() {
        let at = assess_withdrawal(KycTier::Tier0, 0, 20_000, 2).unwrap();
        assert_eq!(at.required_tier, KycTier::Tier0);
        assert!(!at.verification_required);
        assert_eq!(at.remaining_cents, Some(0));
        let over = assess_withdrawal(KycTier::Tier0, 0, 20_001, 2).unwrap();
        assert_eq!(over.required_tier, KycTier::Tier1);
        assert!(over.verification_required);
    }

    #[test]
    fn past_the_ceiling_every_withdrawal_needs_tier_1() {
        let a = assess_withdrawal(KycTier::Tier0, 20_000, 1, 2).unwrap();
        assert_eq!(a.required_tier, KycTier::Tier1);
        assert!(a.verification_required);
        let b = assess_withdrawal(KycTier::Tier1, 20_000, 1, 2).unwrap();
        assert!(!b.verification_required);
        assert_eq!(b.remaining_cents, Some(200_000 - 20_001));
    }

    #[test]
    fn a_higher_verified_tier_covers_and_reports_its_own_ceiling() {
        let a = assess_withdrawal(KycTier::Tier3, 0, 100, 2).unwrap();
        assert_eq!(a.required_tier, KycTier::Tier0);
        assert!(!a.verification_required);
        assert_eq!(a.ceiling_cents, Some(10_000_000));
        let b = assess_withdrawal(KycTier::Tier4, 0, crate::MAX_AMOUNT_CENTS, 2).unwrap();
        assert_eq!(b.remaining_cents, None);
    }

    #[test]
    fn withdrawal_amount_must_be_positive_and_bounded() {
        assert_eq!(assess_withdrawal(KycTier::Tier0, 0, 0, 2), Err(RuleError::NonPositiveAmount));
        assert_eq!(assess_withdrawal(KycTier::Tier0, 0, -5, 2), Err(RuleError::NonPositiveAmount));
        assert_eq!(assess_withdrawal(KycTier::Tier0, crate::MAX_AMOUNT_CENTS, 1, 2), Err(RuleError::AmountTooLarge));
    }

    #[test]
    fn bounds_give_next_threshold() {
        assert_eq!(describe_tier(&TierFacts::of(KycTier::Tier0, 2)).unwrap().next_tier_at_cents, Some(20_001));
        assert_eq!(describe_tier(&TierFacts::of(KycTier::Tier4, 2)).unwrap().next_tier_at_cents, None);
    }

    #[test]
    fn tier_names_round_trip_and_unknown_is_rejected() {
        for t in KycTier::ALL.iter().copied() {
            assert_eq!(KycTier::parse(t.as_str()), Some(t));
        }
        assert_eq!(KycTier::parse("tier_5"), None);
        assert_eq!(KycTier::parse("TIER_1"), None);
    }

    fn vendor(status: KycStatus, action: KycAction) -> KycDecision {
        decide_kyc(&KycFacts {
            now: 1_000,
            status,
            updated_at: 900,
            target_tier: KycTier::Tier2,
            verified: KycTier::Tier0,
            external_user_id: alloc::string::String::from("user-autoapprove"),
            action,
            vendor_tier: Some(KycTier::Tier2),
            sanctions: SanctionsStatus::Clear,
            aml: AmlStanding::default(),
        })
    }

    #[test]
    fn a_green_approves_no_tier_above_its_levels() {
        let green = |vendor_tier| {
            decide_kyc(&KycFacts {
                now: 1_000,
                status: KycStatus::PendingReview,
                updated_at: 900,
                target_tier: KycTier::Tier3,
                verified: KycTier::Tier1,
                external_user_id: alloc::string::String::from("u"),
                action: KycAction::VendorApprove,
                vendor_tier,
                sanctions: SanctionsStatus::Clear,
                aml: AmlStanding::default(),
            })
        };
        for below in [None, Some(KycTier::Tier2)] {
            let refused = green(below);
            assert!(refused.refused && !refused.changed && refused.status == KycStatus::PendingReview, "{below:?}: {refused:?}");
            assert_eq!(refused.verified, KycTier::Tier1);
        }
        for enough in [Some(KycTier::Tier3), Some(KycTier::Tier4)] {
            let approved = green(enough);
            assert_eq!((approved.status, approved.verified), (KycStatus::Approved, KycTier::Tier3), "{enough:?}");
        }
    }

    #[test]
    fn vendor_submission_awaits_review_whatever_the_user_id() {
        let d = vendor(KycStatus::NotStarted, KycAction::VendorSubmit);
        assert_eq!((d.status, d.changed, d.refused), (KycStatus::PendingReview, true, false));
        assert_eq!(d.events, alloc::vec![EventKind::KycStarted, EventKind::KycSubmitted]);
        // a repeat changes nothing; after a verdict it is refused
        let again = vendor(KycStatus::PendingReview, KycAction::VendorSubmit);
        assert_eq!((again.status, again.changed, again.refused), (KycStatus::PendingReview, false, false));
        assert!(vendor(KycStatus::Approved, KycAction::VendorSubmit).refused);
    }

    #[test]
    fn a_vendor_verdict_decides_and_submits_first_when_needed() {
        let d = vendor(KycStatus::InProgress, KycAction::VendorApprove);
        assert_eq!((d.status, d.verified), (KycStatus::Approved, KycTier::Tier2));
        assert_eq!(d.events, alloc::vec![EventKind::KycSubmitted, EventKind::KycApproved, EventKind::KycTierUpgraded]);
        let r = vendor(KycStatus::PendingReview, KycAction::VendorReject);
        assert_eq!((r.status, r.verified, r.events.clone()), (KycStatus::Rejected, KycTier::Tier0, alloc::vec![EventKind::KycRejected]));
        // repeats change nothing; a contrary verdict after the fact is refused
        assert!(!vendor(KycStatus::Approved, KycAction::VendorApprove).changed);
        assert!(vendor(KycStatus::Approved, KycAction::VendorReject).refused);
        assert!(vendor(KycStatus::Expired, KycAction::VendorApprove).refused);
    }

    #[test]
    fn ceilings_follow_the_currency_exponent() {
        // 200 major units: JPY has no minor unit, BHD has three
        assert_eq!(assess_withdrawal(KycTier::Tier0, 0, 200, 0).unwrap().required_tier, KycTier::Tier0);
        assert_eq!(assess_withdrawal(KycTier::Tier0, 0, 201, 0).unwrap().required_tier, KycTier::Tier1);
        assert_eq!(assess_withdrawal(KycTier::Tier0, 0, 200_000, 3).unwrap().required_tier, KycTier::Tier0);
        assert_eq!(assess_withdrawal(KycTier::Tier0, 0, 200_001, 3).unwrap().required_tier, KycTier::Tier1);
        let yen = describe_tier(&TierFacts::of(KycTier::Tier1, 0)).unwrap();
        assert_eq!((yen.ceiling_cents, yen.next_tier_at_cents), (Some(2_000), Some(2_001)));
        // an exponent past ISO 4217's largest counts as the largest
        assert_eq!(KycTier::Tier0.ceiling_in(9), KycTier::Tier0.ceiling_in(MAX_CURRENCY_EXPONENT));
    }

    #[test]
    fn tier_facts_logged_as_a_bare_tier_still_replay() {
        let bare: TierFacts = serde_json::from_str("\"tier_2\"").unwrap();
        assert_eq!(bare, TierFacts::of(KycTier::Tier2, 2));
        let full: TierFacts = serde_json::from_str(r#"{"tier":"tier_2","currency_exponent":0}"#).unwrap();
        assert_eq!(full.currency_exponent, 0);
    }

    fn withdrawal(open_check: Option<OpenCheck>, now: i64) -> WithdrawalOutcome {
        let facts = WithdrawalFacts {
            now,
            sanctions: crate::SanctionsStatus::Clear,
            verified: KycTier::Tier0,
            cumulative_cents: 0,
            amount_cents: 50_000,
            same_currency: true,
            open_check,
            currency_exponent: 2,
            aml: AmlStanding::default(),
            currency: String::new(),
            ceiling_currency: String::new(),
            rate: None,
        };
        decide_withdrawal(&facts).unwrap().outcome
    }

    fn small_withdrawal(verified: KycTier, aml: AmlStanding) -> WithdrawalOutcome {
        let facts = WithdrawalFacts {
            now: 1_000,
            sanctions: crate::SanctionsStatus::Clear,
            verified,
            cumulative_cents: 0,
            amount_cents: 1_000,
            same_currency: true,
            open_check: None,
            currency_exponent: 2,
            aml,
            currency: String::new(),
            ceiling_currency: String::new(),
            rate: None,
        };
        decide_withdrawal(&facts).unwrap().outcome
    }

    fn kwd_usd() -> AmlRate {
        AmlRate {
            version: "rates-v1".into(),
            date: "2027-01-15".into(),
            currency: "KWD".into(),
            currency_exponent: 3,
            per_unit_of: "USD".into(),
            per_unit_exponent: 2,
            rate_units: 32_500,
            rate_scale: 4,
        }
    }

    fn withdrawal_in(currency: &str, exponent: u8, cumulative: i64, amount: i64, rate: Option<AmlRate>) -> Result<WithdrawalOutcome, RuleError> {
        let facts = WithdrawalFacts {
            now: 1_000,
            sanctions: crate::SanctionsStatus::Clear,
            verified: KycTier::Tier0,
            cumulative_cents: cumulative,
            amount_cents: amount,
            same_currency: true,
            open_check: None,
            currency_exponent: exponent,
            aml: AmlStanding::default(),
            currency: currency.into(),
            ceiling_currency: "USD".into(),
            rate,
        };
        decide_withdrawal(&facts).map(|d| d.outcome)
    }

    #[test]
    fn ceilings_are_in_the_profiles_currency_and_other_currencies_convert() {
        // KWD 200.000 is USD 650.00 at 3.25: past tier_0's USD 200, tier_1 covers it
        match withdrawal_in("KWD", 3, 0, 200_000, Some(kwd_usd())) {
            Ok(WithdrawalOutcome::Verify(v)) => assert_eq!(v.tier, KycTier::Tier1),
            other => panic!("expected a check for tier_1, got {other:?}"),
        }
        // KWD 61.539 is USD 200.00 (200.00175 half up): tier_0 still covers it, nothing more stays;
        // KWD 61.540 is USD 200.01 (200.005 half up)
        assert_eq!(
            withdrawal_in("KWD", 3, 0, 61_539, Some(kwd_usd())),
            Ok(WithdrawalOutcome::Approve(FastPath { required_tier: KycTier::Tier0, remaining_cents: Some(0) }))
        );
        assert!(matches!(withdrawal_in("KWD", 3, 0, 61_540, Some(kwd_usd())), Ok(WithdrawalOutcome::Verify(_))));
        // KWD 10.000 leaves KWD 51.539
        assert_eq!(
            withdrawal_in("KWD", 3, 0, 10_000, Some(kwd_usd())),
            Ok(WithdrawalOutcome::Approve(FastPath { required_tier: KycTier::Tier0, remaining_cents: Some(51_539) }))
        );
        // the tier record says the same, in KWD
        let bounds = describe_tier(&TierFacts {
            currency: "KWD".into(),
            ceiling_currency: "USD".into(),
            rate: Some(kwd_usd()),
            ..TierFacts::of(KycTier::Tier0, 3)
        });
        assert_eq!(bounds.map(|b| (b.ceiling_cents, b.next_tier_at_cents)), Ok((Some(61_539), Some(61_540))));
        let unrated = TierFacts { currency: "KWD".into(), ceiling_currency: "USD".into(), ..TierFacts::of(KycTier::Tier0, 3) };
        assert_eq!(describe_tier(&unrated), Err(RuleError::NoReferenceRate));
        // the twin in USD: exactly the ceiling passes, one cent more does not
        assert_eq!(
            withdrawal_in("USD", 2, 0, 20_000, None),
            Ok(WithdrawalOutcome::Approve(FastPath { required_tier: KycTier::Tier0, remaining_cents: Some(0) }))
        );
        assert!(matches!(withdrawal_in("USD", 2, 20_000, 1, None), Ok(WithdrawalOutcome::Verify(_))));
        // no rate, or a rate of another pair: refused, never compared at par
        assert_eq!(withdrawal_in("KWD", 3, 0, 1_000, None), Err(RuleError::NoReferenceRate));
        let wrong = AmlRate { currency: "BHD".into(), ..kwd_usd() };
        assert_eq!(withdrawal_in("KWD", 3, 0, 1_000, Some(wrong)), Err(RuleError::NoReferenceRate));
    }

    #[test]
    fn withdrawal_facts_logged_before_currencies_compare_in_their_own_units() {
        let old = r#"{"now":1000,"sanctions":"clear","verified":"tier_0","cumulative_cents":0,"amount_cents":200000,"same_currency":true,"open_check":null,"currency_exponent":3}"#;
        let facts: WithdrawalFacts = serde_json::from_str(old).unwrap();
        assert!(facts.currency.is_empty() && facts.ceiling_currency.is_empty() && facts.rate.is_none());
        assert!(matches!(decide_withdrawal(&facts).map(|d| d.outcome), Ok(WithdrawalOutcome::Approve(_))));
    }

    #[test]
    fn a_cdd_lock_stops_deposits_only_where_the_profile_says_so() {
        let deposit_in = |jurisdiction: &str, verified: KycTier, aml: AmlStanding| {
            crate::decide_deposit(&crate::DepositFacts {
                now: 1_000,
                sanctions: crate::SanctionsStatus::Clear,
                exclusions: alloc::vec![],
                limits: alloc::vec![],
                totals: alloc::vec![],
                deposits: None,
                amount_cents: 1_000,
                verified,
                aml,
                jurisdiction: jurisdiction.into(),
                rates: alloc::vec![],
                registers: alloc::vec![],
            })
            .unwrap()
        };
        let deposit = |verified: KycTier, aml: AmlStanding| deposit_in("GB", verified, aml);
        let lock = AmlStanding { withdrawals_held: false, cdd_tier: Some(KycTier::Tier2) };
        assert_eq!(deposit(KycTier::Tier1, lock), crate::DepositDecision::VerificationRequired(KycTier::Tier2));
        // the spec's default: deposits are not gated by KYC; the lock holds withdrawals only
        assert!(matches!(deposit_in("default", KycTier::Tier1, lock), crate::DepositDecision::Allowed(_)));
        assert!(matches!(deposit(KycTier::Tier2, lock), crate::DepositDecision::Allowed(_)));
        // a withdrawal hold on suspicion never shows on deposits (tipping-off)
        let held = AmlStanding { withdrawals_held: true, cdd_tier: None };
        assert!(matches!(deposit(KycTier::Tier0, held), crate::DepositDecision::Allowed(_)));
    }

    #[test]
    fn an_aml_hold_holds_and_a_cdd_lock_asks_for_its_tier() {
        assert!(matches!(small_withdrawal(KycTier::Tier0, AmlStanding::default()), WithdrawalOutcome::Approve(_)));
        let held = AmlStanding { withdrawals_held: true, cdd_tier: None };
        assert!(matches!(small_withdrawal(KycTier::Tier4, held), WithdrawalOutcome::Held(_)));
        let cdd = AmlStanding { withdrawals_held: false, cdd_tier: Some(KycTier::Tier2) };
        match small_withdrawal(KycTier::Tier1, cdd) {
            WithdrawalOutcome::Verify(v) => assert_eq!(v.tier, KycTier::Tier2),
            other => panic!("{other:?}"),
        }
        // verified at the tier: the lock is met
        assert!(matches!(small_withdrawal(KycTier::Tier2, cdd), WithdrawalOutcome::Approve(_)));
    }

    #[test]
    fn a_new_check_starts_with_its_token_and_a_repeat_reissues_an_expired_one() {
        match withdrawal(None, 1_000) {
            WithdrawalOutcome::Verify(v) => {
                assert_eq!((v.status, v.events), (KycStatus::InProgress, alloc::vec![EventKind::KycStarted]));
            }
            other => panic!("{other:?}"),
        }
        let open = |token_expires_at| OpenCheck { target_tier: KycTier::Tier1, status: KycStatus::InProgress, updated_at: 1_000, token_expires_at };
        assert_eq!(
            withdrawal(Some(open(Some(1_900))), 1_300),
            WithdrawalOutcome::ReplayOpenCheck(OpenCheckReplay { reissue_token: false, vendor_expires_in: 600 })
        );
        for stale in [Some(1_900), Some(1_000), None] {
            assert_eq!(
                withdrawal(Some(open(stale)), 1_900),
                WithdrawalOutcome::ReplayOpenCheck(OpenCheckReplay { reissue_token: true, vendor_expires_in: VENDOR_TOKEN_SECONDS }),
                "{stale:?}"
            );
        }
    }

    #[test]
    fn a_token_is_issued_for_an_open_check_and_refused_for_a_final_one() {
        let started = vendor(KycStatus::NotStarted, KycAction::IssueToken);
        assert_eq!((started.status, started.changed, started.events.clone()), (KycStatus::InProgress, true, alloc::vec![EventKind::KycStarted]));
        assert_eq!(started.vendor_token_seconds, Some(VENDOR_TOKEN_SECONDS));
        // resuming restarts the abandonment clock from now
        let resumed = vendor(KycStatus::InProgress, KycAction::IssueToken);
        assert!(resumed.changed && resumed.events.is_empty());
        assert_eq!(resumed.expires_at, Some(1_000 + KYC_ABANDON_SECONDS));
        let reviewing = vendor(KycStatus::PendingReview, KycAction::IssueToken);
        assert_eq!((reviewing.changed, reviewing.refused, reviewing.vendor_token_seconds), (false, false, Some(VENDOR_TOKEN_SECONDS)));
        for fin in [KycStatus::Approved, KycStatus::Rejected, KycStatus::Expired] {
            let refused = vendor(fin, KycAction::IssueToken);
            assert!(refused.refused && refused.vendor_token_seconds.is_none(), "{fin:?}");
        }
        // an abandoned check expires rather than take a token
        let late = decide_kyc(&KycFacts {
            now: 900 + KYC_ABANDON_SECONDS,
            status: KycStatus::InProgress,
            updated_at: 900,
            target_tier: KycTier::Tier2,
            verified: KycTier::Tier0,
            external_user_id: alloc::string::String::from("u"),
            action: KycAction::IssueToken,
            vendor_tier: None,
            sanctions: SanctionsStatus::Clear,
            aml: AmlStanding::default(),
        });
        assert_eq!((late.status, late.changed, late.refused), (KycStatus::Expired, true, true));
        assert_eq!(late.vendor_token_seconds, None);
    }

    #[test]
    fn a_retry_request_escalates_a_check_awaiting_review() {
        let retry = vendor(KycStatus::PendingReview, KycAction::VendorRetry);
        assert_eq!((retry.status, retry.escalation, retry.refused), (KycStatus::PendingReview, Some(KycEscalation::VendorRetry), false));
        assert!(retry.events.is_empty());
        assert_eq!(vendor(KycStatus::InProgress, KycAction::VendorRetry).escalation, None);
        assert_eq!(vendor(KycStatus::Approved, KycAction::VendorRetry).escalation, None);
    }

    #[test]
    fn an_approval_releases_no_withdrawal_another_gate_holds() {
        let approve = |sanctions, aml| {
            decide_kyc(&KycFacts {
                now: 1_000,
                status: KycStatus::PendingReview,
                updated_at: 900,
                target_tier: KycTier::Tier2,
                verified: KycTier::Tier1,
                external_user_id: alloc::string::String::from("u"),
                action: KycAction::Approve,
                vendor_tier: None,
                sanctions,
                aml,
            })
        };
        let held = AmlStanding { withdrawals_held: true, cdd_tier: None };
        let locked_above = AmlStanding { withdrawals_held: false, cdd_tier: Some(KycTier::Tier3) };
        for (sanctions, aml) in [
            (SanctionsStatus::HitReviewPending, AmlStanding::default()),
            (SanctionsStatus::Confirmed, AmlStanding::default()),
            (SanctionsStatus::Clear, held),
            (SanctionsStatus::Clear, locked_above),
        ] {
            let d = approve(sanctions, aml);
            assert_eq!(
                (d.status, d.verified, d.withdrawal),
                (KycStatus::Approved, KycTier::Tier2, WithdrawalStatus::Cancelled),
                "{sanctions:?} {aml:?}"
            );
            assert!(d.events.contains(&EventKind::KycApproved), "the check is still approved");
        }
        // the twins: no other gate, a cleared hit, a lock the new tier meets
        let met = AmlStanding { withdrawals_held: false, cdd_tier: Some(KycTier::Tier2) };
        for (sanctions, aml) in
            [(SanctionsStatus::Clear, AmlStanding::default()), (SanctionsStatus::Cleared, AmlStanding::default()), (SanctionsStatus::Clear, met)]
        {
            assert_eq!(approve(sanctions, aml).withdrawal, WithdrawalStatus::Released, "{sanctions:?} {aml:?}");
        }
    }
}
