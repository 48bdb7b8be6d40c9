//! KYC: tiers keyed to lifetime cumulative withdrawals, the withdrawal
//! decision, and the transitions of a verification check.

use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::types::named_enum;
#[allow(unused_imports)]
use crate::*;

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

/// The minor-unit exponent of the spec's own currency (USD): amounts in cents.
pub const CENTS_EXPONENT: u8 = 2;

/// The largest minor-unit exponent ISO 4217 gives a currency (CLF, UYW).
pub const MAX_CURRENCY_EXPONENT: u8 = 4;

named_enum!(
    /// Why a check awaiting review needs a person: the vendor asked the user
    /// to resubmit (Sumsub's RED with RETRY), or the review is past its target.
    KycEscalation { VendorRetry = "vendor_retry", ReviewOverdue = "review_overdue" }
);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TierBounds {
    pub tier: KycTier,
    pub ceiling_cents: Option<i64>,
    pub next_tier_at_cents: Option<i64>,
}

pub(crate) fn cents_exponent() -> u8 {
    CENTS_EXPONENT
}

/// A verified tier, and the exponent of the currency its bounds are told in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "TierFactsWire")]
pub struct TierFacts {
    pub tier: KycTier,
    pub currency_exponent: u8,
    /// the user's withdrawal currency, the bounds' (empty: as logged before,
    /// the ceilings in its own units)
    pub currency: String,
    /// the tier ceilings' currency: the jurisdiction profile's (empty: `currency`)
    pub ceiling_currency: String,
    /// the reference rate from `currency` into `ceiling_currency`, when they differ
    pub rate: Option<AmlRate>,
}

impl TierFacts {
    /// A tier's bounds told in its ceilings' own units, as before currencies were facts.
    pub fn of(tier: KycTier, currency_exponent: u8) -> Self {
        TierFacts { tier, currency_exponent, currency: String::new(), ceiling_currency: String::new(), rate: None }
    }
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
        #[serde(default)]
        currency: String,
        #[serde(default)]
        ceiling_currency: String,
        #[serde(default)]
        rate: Option<AmlRate>,
    },
}

impl From<TierFactsWire> for TierFacts {
    fn from(wire: TierFactsWire) -> Self {
        match wire {
            TierFactsWire::Bare(tier) => {
                TierFacts { tier, currency_exponent: CENTS_EXPONENT, currency: String::new(), ceiling_currency: String::new(), rate: None }
            }
            TierFactsWire::Full { tier, currency_exponent, currency, ceiling_currency, rate } => {
                TierFacts { tier, currency_exponent, currency, ceiling_currency, rate }
            }
        }
    }
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
    /// the withdrawal's ISO 4217 currency (the user's lifetime total is in it);
    /// empty (decisions logged before): the ceilings count in its own units
    #[serde(default)]
    pub currency: String,
    /// the currency of the tier ceilings: the jurisdiction profile's (its AML
    /// parameters'); empty (decisions logged before): the withdrawal's
    #[serde(default)]
    pub ceiling_currency: String,
    /// the reference rate from `currency` into `ceiling_currency` of the
    /// withdrawal's day (AML's rates, naming its version), when they differ
    #[serde(default)]
    pub rate: Option<AmlRate>,
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

impl KycStatus {
    /// Whether the check is still open: not yet decided or expired.
    pub fn is_open(self) -> bool {
        matches!(self, KycStatus::NotStarted | KycStatus::InProgress | KycStatus::PendingReview)
    }
}
