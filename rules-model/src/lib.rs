//! The vocabulary of the compliance rules: every fact a call of the
//! `cgw:rules` component reads and every decision it answers, with the
//! profile names and the lists of the WIT types and functions. No decision
//! logic lives here: the gateway and the hosts link this crate only, and
//! every rule runs inside the component whose SHA-256 auditors verify.
//! Every type derives serde, whose JSON is the canonical encoding of the
//! decision log.
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
pub mod registers;
pub mod review;
pub mod sanctions;
pub mod schedule;
pub mod types;

pub use aml::{
    AmlAction, AmlAlerted, AmlBucket, AmlCounters, AmlDecision, AmlEvent, AmlEventType, AmlFacts, AmlHour, AmlInput, AmlInstrument, AmlOutcome,
    AmlPair, AmlParameters, AmlRate, AmlReviewDecision, AmlReviewFacts, AmlReviewOutcome, AmlStanding, FiredRule, PaymentMethod, Typology,
    DEPOSIT_CLASSES, MAX_RATE_DIGITS,
};
pub use bridge::Convert;
pub use exclusions::{
    ExclusionDecision, ExclusionDuration, ExclusionFacts, ExclusionRegistration, ExclusionStatus, ExclusionStatusFacts, ExclusionTerm,
    RegulatorEntry, RegulatorImportFacts, RegulatorOutcome, UserExclusion,
};
pub use filings::{CashSide, CtrCode, FilingCodes, FilingEvent, FilingFacts, SarClassification};
pub use jurisdictions::{
    AccessRequestFacts, AccessRequestPlan, ClassPlan, CooloffBracket, CutoffFacts, ErasureFacts, ErasurePlan, ExclusionSpan, JurisdictionProfile,
    RecordClass, RetentionCutoffs, UnaskedCutoff, DEFAULT_JURISDICTION,
};
pub use kyc::{
    FastPath, KycAction, KycDecision, KycDocument, KycEscalation, KycFacts, KycStatus, KycTier, OpenCheck, OpenCheckReplay, TierBounds, TierFacts,
    Verification, WithdrawalDecision, WithdrawalFacts, WithdrawalOutcome, WithdrawalStatus,
};
pub use limits::{
    DepositAllowed, DepositBreach, DepositDecision, DepositFacts, Deposits, LimitCancelDecision, LimitCancelFacts, LimitChange, LimitChangeDecision,
    LimitChangeFacts, LimitStatus, LimitView, LimitWindow, LimitsFacts, StoredLimit, WindowSet, WindowTotal,
};
pub use matching::{AlignedPart, EntryKind, EntryTopic, ListCandidate, NameLegibility, NameQuery, NameReading, ScoredCandidate, Spelling};
pub use messages::{BreachNotice, PlayerNotice};
pub use ofac::OfacScored;
pub use registers::{
    CheckPurpose, NationalIdKind, NationalRegister, OutagePolicy, RegisterAnswer, RegisterCheckDecision, RegisterCheckFacts, RegisterStatus,
};
pub use review::{ReviewItem, ReviewState};
pub use sanctions::{
    CaseKind, CaseReviewDecision, CaseReviewFacts, CaseReviewOutcome, CaseStatus, DismissedMatch, ReviewAction, SanctionsView, ScreenedSource,
    ScreeningDecision, ScreeningFacts, ScreeningMatch, ScreeningScope,
};
pub use schedule::{CheckExpiry, DueExclusion, DueFacts, DueLimit, DueUser, DueWork, ExclusionExpiry, Horizons};
pub use types::{Environment, EventKind, Operation, SanctionsStatus};

/// Semantic version of the rules; the component's SHA-256 identifies the exact build.
pub const VERSION: &str = "13.1.0";
/// The WIT package the component exports (`wit/rules.wit`).
pub const WIT_PACKAGE: &str = "cgw:rules@13.1.0";

/// The largest amount in cents any rule accepts: ten trillion major units.
/// Sums of many such amounts still fit in an `i64`.
pub const MAX_AMOUNT_CENTS: i64 = 1_000_000_000_000_000;

/// Why a rule refused its input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RuleError {
    NonPositiveAmount,
    AmountTooLarge,
    /// no profile has the jurisdiction named
    UnknownJurisdiction,
    /// an amount in one currency counts against one in another, and the
    /// facts give no usable reference rate between them
    NoReferenceRate,
}

// Every store keeps integers exactly up to 2^53 - 1 (D1 returns JS doubles).
const _: () = assert!(MAX_AMOUNT_CENTS < (1i64 << 53));
