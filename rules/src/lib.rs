//! The compliance rules: pure functions over integer cents and unix seconds.
//!
//! This crate is the single source of every regulatory decision; its
//! vocabulary (facts, decisions, the WIT lists) is `rules-model`, which is all
//! the gateway and the hosts link. Each API
//! decision is one coarse call — facts in, decision out — exported unchanged
//! by the `rules-component` crate as the `cgw:rules@13.1.0` component whose
//! SHA-256 is the rules version auditors verify. Every fact and decision type
//! derives serde, whose JSON is the canonical encoding of the decision log.
#![no_std]
extern crate alloc;

pub mod access;
pub mod aml;
pub mod exclusions;
pub mod filings;
pub mod jurisdictions;
pub mod kyc;
pub mod limits;
pub mod matching;
pub mod messages;
pub mod ofac;
pub mod registers;
pub mod retention;
pub mod review;
pub mod sanctions;
pub mod schedule;
pub mod stubs;
pub mod types;

/// The rules about the model's types, as traits (the types live in `rules-model`).
pub mod traits {
    pub use crate::aml::{AmlStandingRules, TypologyRules};
    pub use crate::kyc::{KycStatusRules, KycTierRules};
    pub use crate::types::SanctionsStatusRules;
}

pub use access::{plan_access_request, AccessRequestFacts, AccessRequestPlan};
pub use aml::{convert as convert_currency, AmlRate};
pub use aml::{
    decide_aml, decide_aml_review, deposit_class, AmlAction, AmlAlerted, AmlBucket, AmlCounters, AmlDecision, AmlEvent, AmlEventType, AmlFacts,
    AmlHour, AmlInput, AmlInstrument, AmlOutcome, AmlPair, AmlParameters, AmlReviewDecision, AmlReviewFacts, AmlReviewOutcome, AmlStanding,
    FiredRule, PaymentMethod, Typology,
};
pub use exclusions::{
    decide_exclusion, decide_regulator_import, describe_exclusions, ExclusionDecision, ExclusionDuration, ExclusionFacts, ExclusionRegistration,
    ExclusionStatus, ExclusionStatusFacts, ExclusionTerm, RegulatorEntry, RegulatorImportFacts, RegulatorOutcome, UserExclusion,
};
pub use filings::classify_filing;
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
pub use matching::{lookup_keys, read_name};
pub use messages::{money, player_message, BreachNotice, PlayerNotice};
pub use ofac::{ofac_scores, OfacScored};
pub use registers::{decide_register_check, read_national_id};
pub use retention::{plan_erasure, retention_cutoffs};
pub use review::{describe_reviews, ReviewItem, ReviewState};
pub use rules_model::aml::{DEPOSIT_CLASSES, MAX_RATE_DIGITS};
pub use rules_model::NameLegibility;
pub use rules_model::{bridge, for_each_wit_function, for_each_wit_type, wit_bridge, Convert};
pub use rules_model::{CashSide, CtrCode, FilingCodes, FilingEvent, FilingFacts, SarClassification};
pub use rules_model::{
    CheckPurpose, NationalIdKind, NationalRegister, OutagePolicy, RegisterAnswer, RegisterCheckDecision, RegisterCheckFacts, RegisterStatus,
};
pub use rules_model::{ClassPlan, CutoffFacts, ErasureFacts, ErasurePlan, ExclusionSpan, RecordClass, RetentionCutoffs, UnaskedCutoff};
pub use sanctions::{
    decide_case_review, decide_screening, describe_sanctions, CaseKind, CaseReviewDecision, CaseReviewFacts, CaseReviewOutcome, CaseStatus,
    DismissedMatch, ReviewAction, SanctionsView, ScreenedSource, ScreeningDecision, ScreeningFacts, ScreeningMatch, ScreeningScope,
};
pub use schedule::{due_now, time_horizons, CheckExpiry, DueExclusion, DueFacts, DueLimit, DueUser, DueWork, ExclusionExpiry, Horizons};
pub use types::{Environment, EventKind, Operation, SanctionsStatus};

pub use rules_model::{RuleError, MAX_AMOUNT_CENTS, VERSION, WIT_PACKAGE};

/// [`VERSION`], as the component's `version` export answers it.
pub fn version() -> alloc::string::String {
    alloc::string::String::from(VERSION)
}

/// The index keys of each name ([`index_keys`]), in order.
pub fn index_keys_of_each(names: &[alloc::string::String]) -> alloc::vec::Vec<alloc::vec::Vec<alloc::string::String>> {
    names.iter().map(|n| index_keys(n)).collect()
}

pub(crate) const HOUR: i64 = 3_600;
pub(crate) const DAY: i64 = 86_400;

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
