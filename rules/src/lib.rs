//! The compliance rules: pure functions over integer cents and unix seconds.
//!
//! This crate is the single source of every regulatory decision. Each API
//! decision is one coarse call — facts in, decision out — exported unchanged
//! by the `rules-component` crate as the `cgw:rules@11.0.0` component whose
//! SHA-256 is the rules version auditors verify. Every fact and decision type
//! derives serde, whose JSON is the canonical encoding of the decision log.
#![no_std]
extern crate alloc;

pub mod aml;
pub mod bridge;
pub mod exclusions;
pub mod filings;
pub mod jurisdictions;
pub mod kyc;
pub mod limits;
pub mod matching;
pub mod messages;
pub mod ofac;
pub mod review;
pub mod sanctions;
pub mod schedule;
pub mod stubs;
pub mod types;

pub use aml::{convert as convert_currency, AmlRate, MAX_RATE_DIGITS};
pub use aml::{
    decide_aml, decide_aml_review, deposit_class, AmlAction, AmlAlerted, AmlBucket, AmlCounters, AmlDecision, AmlEvent, AmlEventType, AmlFacts,
    AmlHour, AmlInput, AmlInstrument, AmlOutcome, AmlPair, AmlParameters, AmlReviewDecision, AmlReviewFacts, AmlReviewOutcome, AmlStanding,
    FiredRule, PaymentMethod, Typology, DEPOSIT_CLASSES,
};
pub use bridge::Convert;
pub use exclusions::{
    decide_exclusion, decide_regulator_import, describe_exclusions, ExclusionDecision, ExclusionDuration, ExclusionFacts, ExclusionRegistration,
    ExclusionStatus, ExclusionStatusFacts, ExclusionTerm, RegulatorEntry, RegulatorImportFacts, RegulatorOutcome, UserExclusion,
};
pub use jurisdictions::{is_jurisdiction, jurisdictions, CooloffBracket, JurisdictionProfile, DEFAULT_JURISDICTION};
pub use kyc::{
    decide_kyc, decide_withdrawal, describe_tier, FastPath, KycAction, KycDecision, KycDocument, KycEscalation, KycFacts, KycStatus, KycTier,
    OpenCheck, OpenCheckReplay, TierBounds, TierFacts, Verification, WithdrawalDecision, WithdrawalFacts, WithdrawalOutcome, WithdrawalStatus,
};
pub use limits::{
    decide_deposit, decide_limit_cancel, decide_limit_change, describe_limits, DepositAllowed, DepositBreach, DepositDecision, DepositFacts,
    Deposits, LimitCancelDecision, LimitCancelFacts, LimitChange, LimitChangeDecision, LimitChangeFacts, LimitStatus, LimitView, LimitWindow,
    LimitsFacts, StoredLimit, WindowSet, WindowTotal,
};
pub use matching::{
    index_keys, query_keys, score_candidates, AlignedPart, EntryKind, EntryTopic, ListCandidate, NameQuery, NameReading, ScoredCandidate, Spelling,
};
pub use messages::{money, player_message, BreachNotice, PlayerNotice};
pub use ofac::{ofac_scores, OfacScored};
pub use review::{describe_reviews, ReviewItem, ReviewState};
pub use sanctions::{
    decide_case_review, decide_screening, describe_sanctions, CaseKind, CaseReviewDecision, CaseReviewFacts, CaseReviewOutcome, CaseStatus,
    DismissedMatch, ReviewAction, SanctionsView, ScreenedSource, ScreeningDecision, ScreeningFacts, ScreeningMatch, ScreeningScope,
};
pub use schedule::{due_now, time_horizons, CheckExpiry, DueExclusion, DueFacts, DueLimit, DueUser, DueWork, ExclusionExpiry, Horizons};
pub use types::{Environment, EventKind, Operation, SanctionsStatus};

/// Semantic version of the rules; the component's SHA-256 identifies the exact build.
pub const VERSION: &str = "11.0.0";
/// The WIT package the component exports (`wit/rules.wit`).
pub const WIT_PACKAGE: &str = "cgw:rules@11.0.0";

/// [`VERSION`], as the component's `version` export answers it.
pub fn version() -> alloc::string::String {
    alloc::string::String::from(VERSION)
}

/// The index keys of each name ([`index_keys`]), in order.
pub fn index_keys_of_each(names: &[alloc::string::String]) -> alloc::vec::Vec<alloc::vec::Vec<alloc::string::String>> {
    names.iter().map(|n| index_keys(n)).collect()
}

/// The largest amount in cents any rule accepts: ten trillion major units.
/// Sums of many such amounts still fit in an `i64`.
pub const MAX_AMOUNT_CENTS: i64 = 1_000_000_000_000_000;

pub(crate) const HOUR: i64 = 3_600;
pub(crate) const DAY: i64 = 86_400;

/// Why a rule refused its input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
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

// Every store keeps integers exactly up to 2^53 - 1 (D1 returns JS doubles).
const _: () = assert!(MAX_AMOUNT_CENTS < (1i64 << 53));
