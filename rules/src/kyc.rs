//! KYC: tiers keyed to lifetime cumulative withdrawals, the withdrawal
//! decision, and the transitions of a verification check.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::aml::AmlStanding;
use crate::stubs::{stub_kyc, StubKycOutcome};
use crate::types::{named_enum, EventKind, SanctionsStatus};
use crate::{non_negative_amount, positive_amount, RuleError, DAY};

named_enum!(
    /// KYC tiers, keyed to lifetime cumulative withdrawals.
    KycTier { Tier0 = "tier_0", Tier1 = "tier_1", Tier2 = "tier_2", Tier3 = "tier_3", Tier4 = "tier_4" }
);

named_enum!(
    /// Status of a verification check.
    KycStatus {
        NotStarted = "not_started",
        InProgress = "in_progress",
        PendingReview = "pending_review",
        Approved = "approved",
        Rejected = "rejected",
        Expired = "expired",
    }
);

named_enum!(
    /// What a verification asks of the user.
    KycDocument {
        EmailOtp = "email_otp",
        PhoneOtp = "phone_otp",
        GovernmentId = "government_id",
        Selfie = "selfie",
        ProofOfAddress = "proof_of_address",
        SourceOfFunds = "source_of_funds",
    }
);

named_enum!(
    /// Where the withdrawal behind a check stands.
    WithdrawalStatus { Held = "held", Released = "released", Blocked = "blocked", Cancelled = "cancelled" }
);

/// A check the user leaves untouched this long expires.
pub const KYC_ABANDON_SECONDS: i64 = 7 * DAY;
/// Lifetime of the token for the vendor's verification flow.
pub const VENDOR_TOKEN_SECONDS: i64 = 900;
/// The minor-unit exponent of the spec's own currency (USD): amounts in cents.
pub const CENTS_EXPONENT: u8 = 2;
/// The largest minor-unit exponent ISO 4217 gives a currency (CLF, UYW).
pub const MAX_CURRENCY_EXPONENT: u8 = 4;

named_enum!(
    /// Why a check awaiting review needs a person: the vendor asked the user
    /// to resubmit (Sumsub's RED with RETRY), or the review is past its target.
    KycEscalation { VendorRetry = "vendor_retry", ReviewOverdue = "review_overdue" }
);

impl KycTier {
    /// Largest lifetime cumulative withdrawal the tier covers, in whole major
    /// units of the withdrawal's currency (the spec's table); `None` when unbounded.
    pub fn ceiling_major(self) -> Option<i64> {
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
    pub fn ceiling_in(self, exponent: u8) -> Option<i64> {
        let unit = 10_i64.pow(u32::from(exponent.min(MAX_CURRENCY_EXPONENT)));
        self.ceiling_major().map(|major| major * unit)
    }

    /// The ceiling in cents (a two-decimal currency such as USD).
    pub fn ceiling_cents(self) -> Option<i64> {
        self.ceiling_in(CENTS_EXPONENT)
    }

    pub fn documents(self) -> Vec<KycDocument> {
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

impl KycStatus {
    /// Open checks block a new one for the same user.
    pub fn is_open(self) -> bool {
        matches!(self, KycStatus::NotStarted | KycStatus::InProgress | KycStatus::PendingReview)
    }
    /// Only the user-side states can be abandoned; a check awaiting review is not.
    pub fn can_be_abandoned(self) -> bool {
        matches!(self, KycStatus::NotStarted | KycStatus::InProgress)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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

/// The lowest tier whose ceiling covers a lifetime cumulative withdrawal,
/// in minor units of a currency with this exponent.
pub fn tier_for_cumulative(cumulative_minor: i64, exponent: u8) -> Result<KycTier, RuleError> {
    let cumulative = non_negative_amount(cumulative_minor)?;
    Ok(KycTier::ALL.iter().copied().find(|t| t.ceiling_in(exponent).is_none_or(|c| cumulative <= c)).unwrap_or(KycTier::Tier4))
}

pub(crate) fn cents_exponent() -> u8 {
    CENTS_EXPONENT
}

/// A verified tier, and the exponent of the currency its bounds are told in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "TierFactsWire")]
pub struct TierFacts {
    pub tier: KycTier,
    pub currency_exponent: u8,
}

/// Decisions logged before bounds had a currency recorded the bare tier.
#[derive(Deserialize)]
#[serde(untagged)]
enum TierFactsWire {
    Bare(KycTier),
    Full {
        tier: KycTier,
        #[serde(default = "cents_exponent")]
        currency_exponent: u8,
    },
}

impl From<TierFactsWire> for TierFacts {
    fn from(wire: TierFactsWire) -> Self {
        match wire {
            TierFactsWire::Bare(tier) => TierFacts { tier, currency_exponent: CENTS_EXPONENT },
            TierFactsWire::Full { tier, currency_exponent } => TierFacts { tier, currency_exponent },
        }
    }
}

/// The ceiling and next-tier threshold of a verified tier, in minor units.
pub fn describe_tier(facts: TierFacts) -> TierBounds {
    let ceiling = facts.tier.ceiling_in(facts.currency_exponent);
    TierBounds { tier: facts.tier, ceiling_cents: ceiling, next_tier_at_cents: ceiling.map(|c| c + 1) }
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

/// The user's open check, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenCheck {
    pub target_tier: KycTier,
    pub status: KycStatus,
    pub updated_at: i64,
    /// when the last vendor token issued for the check expires; none when unknown
    #[serde(default)]
    pub token_expires_at: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WithdrawalFacts {
    pub now: i64,
    pub sanctions: SanctionsStatus,
    pub verified: KycTier,
    pub cumulative_cents: i64,
    pub amount_cents: i64,
    /// false when the user's earlier withdrawals were in another currency
    pub same_currency: bool,
    pub open_check: Option<OpenCheck>,
    /// the ISO 4217 minor-unit exponent of the withdrawal's currency
    #[serde(default = "cents_exponent")]
    pub currency_exponent: u8,
    /// what AML monitoring decided for the user: a hold, or a lock until due diligence
    #[serde(default)]
    pub aml: AmlStanding,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FastPath {
    pub required_tier: KycTier,
    /// what stays withdrawable under the covering tier; none when unbounded
    pub remaining_cents: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verification {
    pub tier: KycTier,
    pub documents: Vec<KycDocument>,
    pub estimated_clear_time: String,
    pub vendor_token_seconds: i64,
    /// the new check's status: the vendor flow starts with the token issued for it
    pub status: KycStatus,
    pub events: Vec<EventKind>,
}

/// A repeat of the open check's request: its vendor token, re-issued when it has expired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenCheckReplay {
    /// the token has expired (or its expiry is unknown): issue a fresh one
    pub reissue_token: bool,
    /// seconds the answered token stays valid
    pub vendor_expires_in: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WithdrawalOutcome {
    /// a sanctions hold: the withdrawal is held, no check is started
    Held(KycTier),
    CurrencyMismatch,
    /// the lifetime total would pass the largest amount the rules accept
    CeilingExceeded,
    /// covered by the verified tier: released at once
    Approve(FastPath),
    /// start a check for this tier and hold the withdrawal
    Verify(Verification),
    /// the open check is for this tier: answer with it
    ReplayOpenCheck(OpenCheckReplay),
    AlreadyInProgress,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WithdrawalDecision {
    /// the open check was abandoned: expire it (fires `kyc.expired`) before the outcome
    pub expire_open_check: Option<KycDecision>,
    pub outcome: WithdrawalOutcome,
}

/// A withdrawal: held under a sanctions review, released when the verified
/// tier covers the lifetime total after it, otherwise a check for the tier
/// that does. An abandoned open check is expired first.
pub fn decide_withdrawal(facts: &WithdrawalFacts) -> Result<WithdrawalDecision, RuleError> {
    let assessment = match assess_withdrawal(facts.verified, facts.cumulative_cents, facts.amount_cents, facts.currency_exponent) {
        Err(RuleError::AmountTooLarge) => {
            return Ok(WithdrawalDecision { expire_open_check: None, outcome: WithdrawalOutcome::CeilingExceeded });
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

named_enum!(
    /// What is asked of a check; `vendor_retry` is a vendor asking the user to resubmit (Sumsub's RED with RETRY).
    KycAction {
        View = "view",
        SandboxSubmit = "sandbox_submit",
        Approve = "approve",
        Reject = "reject",
        Expire = "expire",
        VendorSubmit = "vendor_submit",
        VendorApprove = "vendor_approve",
        VendorReject = "vendor_reject",
        VendorRetry = "vendor_retry",
        IssueToken = "issue_token",
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KycFacts {
    pub now: i64,
    pub status: KycStatus,
    pub updated_at: i64,
    pub target_tier: KycTier,
    /// the user's verified tier now
    pub verified: KycTier,
    /// the operator's user id, which the sandbox vendor keys on
    pub external_user_id: String,
    pub action: KycAction,
    /// the tier of the vendor's verification level a verdict came from;
    /// none when the vendor did not name a level this service maps
    #[serde(default)]
    pub vendor_tier: Option<KycTier>,
    /// the user's sanctions status: under a hold an approval verifies the tier and cancels the check's withdrawal
    #[serde(default = "no_sanctions_hold")]
    pub sanctions: SanctionsStatus,
    /// what AML monitoring decided: a hold, or a due-diligence lock above the tier verified, cancels it too
    #[serde(default)]
    pub aml: AmlStanding,
}

/// What a decision logged before the check knew of the other gates read as.
fn no_sanctions_hold() -> SanctionsStatus {
    SanctionsStatus::Clear
}

/// A check after an action: its status, what to write and what to answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KycDecision {
    pub status: KycStatus,
    /// whether the check changed (and must be written)
    pub changed: bool,
    /// the action is not allowed in the check's state (the change, if any, still applies)
    pub refused: bool,
    pub events: Vec<EventKind>,
    /// the user's verified tier afterwards; never lower than before
    pub verified: KycTier,
    pub withdrawal: WithdrawalStatus,
    /// when an abandonable check expires
    pub expires_at: Option<i64>,
    pub documents: Vec<KycDocument>,
    /// issue a vendor token valid this many seconds
    #[serde(default)]
    pub vendor_token_seconds: Option<i64>,
    /// the check now needs a person: record why
    #[serde(default)]
    pub escalation: Option<KycEscalation>,
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
        assert_eq!(describe_tier(TierFacts { tier: KycTier::Tier0, currency_exponent: 2 }).next_tier_at_cents, Some(20_001));
        assert_eq!(describe_tier(TierFacts { tier: KycTier::Tier4, currency_exponent: 2 }).next_tier_at_cents, None);
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
        let yen = describe_tier(TierFacts { tier: KycTier::Tier1, currency_exponent: 0 });
        assert_eq!((yen.ceiling_cents, yen.next_tier_at_cents), (Some(2_000), Some(2_001)));
        // an exponent past ISO 4217's largest counts as the largest
        assert_eq!(KycTier::Tier0.ceiling_in(9), KycTier::Tier0.ceiling_in(MAX_CURRENCY_EXPONENT));
    }

    #[test]
    fn tier_facts_logged_as_a_bare_tier_still_replay() {
        let bare: TierFacts = serde_json::from_str("\"tier_2\"").unwrap();
        assert_eq!(bare, TierFacts { tier: KycTier::Tier2, currency_exponent: 2 });
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
        };
        decide_withdrawal(&facts).unwrap().outcome
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
