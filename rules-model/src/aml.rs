//! Anti-money-laundering monitoring: one decision per reported transaction
//! event, over the user's buckets (sums per hour and per gaming day, by
//! currency and payment method), never over raw events. Each typology is a
//! rule with an id, a version, a reason code and its evidence; the outcome is
//! the strongest band any rule reached. Parameters come from the tenant's
//! jurisdiction profile; sources are in `docs/decisions.md` ("AML monitoring").

use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::types::named_enum;
#[allow(unused_imports)]
use crate::*;

named_enum!(
    /// What an operator reports.
    AmlEventType {
        Deposit = "deposit",
        Withdrawal = "withdrawal",
        Wager = "wager",
        Win = "win",
        Bonus = "bonus",
        P2pTransfer = "p2p_transfer",
        InstrumentAdded = "instrument_added",
    }
);

named_enum!(
    /// How money moved; an event without one is kept as `other`.
    PaymentMethod { Cash = "cash", Card = "card", BankTransfer = "bank_transfer", EWallet = "e_wallet", Crypto = "crypto", Other = "other" }
);

named_enum!(
    /// What a decision asks of the operator, weakest first.
    AmlOutcome { Approve = "approve", Review = "review", HoldWithdrawal = "hold_withdrawal", Decline = "decline" }
);

named_enum!(
    /// What follows from a decision beside its outcome.
    AmlAction {
        RequireKycTier = "require_kyc_tier",
        LockWithdrawalsUntilCdd = "lock_withdrawals_until_cdd",
        CtrCandidate = "ctr_candidate",
        SarCandidate = "sar_candidate",
    }
);

named_enum!(
    /// The typologies, each a rule and its reason code.
    Typology {
        CtrThreshold = "ctr_threshold",
        Structuring = "structuring",
        CddThreshold = "cdd_threshold",
        MinimalPlay = "minimal_play",
        MultipleInstruments = "multiple_instruments",
        Velocity = "velocity",
        DormantReactivation = "dormant_reactivation",
        P2pDumping = "p2p_dumping",
        UnconvertibleCurrency = "unconvertible_currency",
    }
);

/// A jurisdiction's AML parameters; amounts in minor units of `currency`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AmlParameters {
    /// the currency the thresholds are in; events in others are converted at
    /// the reference rate the facts name, or flagged `unconvertible_currency`
    pub currency: String,
    /// cash in, or cash out, above this in a gaming day; `None` where no such report exists
    pub ctr_threshold_cents: Option<i64>,
    /// the low end of the near-threshold band, in percent of the CTR threshold
    pub structuring_band_percent: u32,
    /// near-threshold cash transactions in the window that make a pattern
    pub structuring_band_repeats: u32,
    pub structuring_window_seconds: i64,
    /// deposits or withdrawals at or above this, single or linked in a gaming day
    pub cdd_threshold_cents: i64,
    /// the tier that completes customer due diligence
    pub cdd_tier: KycTier,
    pub minimal_play_window_seconds: i64,
    /// wagering below this share of the deposits, in percent, is minimal play
    pub minimal_play_wager_percent: u32,
    /// this many distinct instruments in the window
    pub instruments_count: u32,
    pub instruments_window_seconds: i64,
    pub velocity_threshold_cents: i64,
    pub velocity_window_seconds: i64,
    pub dormant_seconds: i64,
    /// a reactivating deposit above this percentile of the user's own deposits
    pub dormant_percentile: u32,
    /// one-way transfers to one counterparty that make a pattern
    pub p2p_transfers: u32,
    /// money back from the counterparty up to this share of what was sent, in percent, is one-way
    pub p2p_return_percent: u32,
    /// days to file a suspicious activity report from detection
    pub sar_days: u32,
    /// days to file a currency transaction report
    pub ctr_days: u32,
    /// working days the authority has to reply to a consent request (UK DAML), where one applies
    pub consent_working_days: Option<u32>,
    /// where the regulator requires a lock until due diligence to refuse
    /// deposits too, the text that says so; none: the lock holds withdrawals
    /// only (the spec: deposits are not gated by KYC)
    #[serde(default)]
    pub deposits_locked_until_cdd: Option<String>,
}

/// The event being decided.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AmlEvent {
    pub event_type: AmlEventType,
    pub amount_cents: i64,
    pub currency: String,
    pub payment_method: PaymentMethod,
    /// when it happened (the report's `occurred_at`, else its arrival)
    pub at: i64,
    /// the instrument used or added, as stored (hashed)
    pub instrument: Option<String>,
}

/// A reference exchange rate, as imported (`POST /v1/admin/aml/rates`): one
/// major unit of `currency` is worth `rate_units / 10^rate_scale` major units
/// of `per_unit_of`. The exponents are each currency's minor-unit digits
/// (ISO 4217). The version and date name it in the decision log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AmlRate {
    /// the rates version (the SHA-256 of the imported file)
    pub version: String,
    /// the day the rate is for, `YYYY-MM-DD`
    pub date: String,
    pub currency: String,
    pub currency_exponent: u8,
    pub per_unit_of: String,
    pub per_unit_exponent: u8,
    pub rate_units: i64,
    pub rate_scale: u32,
}

/// A gaming day of a user's money in one payment method, in the profile's
/// currency (the store passes only those).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AmlBucket {
    pub start: i64,
    pub payment_method: PaymentMethod,
    pub in_cents: i64,
    pub in_count: u32,
    pub out_cents: i64,
    pub out_count: u32,
    pub wagered_cents: i64,
    pub won_cents: i64,
    /// the largest single deposit and withdrawal
    pub largest_in_cents: i64,
    pub largest_out_cents: i64,
    /// transactions in the near-threshold band
    pub near_threshold_count: u32,
}

impl AmlBucket {
    /// A bucket with nothing in it yet.
    pub fn empty(start: i64, payment_method: PaymentMethod) -> AmlBucket {
        AmlBucket {
            start,
            payment_method,
            in_cents: 0,
            in_count: 0,
            out_cents: 0,
            out_count: 0,
            wagered_cents: 0,
            won_cents: 0,
            largest_in_cents: 0,
            largest_out_cents: 0,
            near_threshold_count: 0,
        }
    }
}

/// An hour of a user's money in the profile's currency, every payment method
/// together (near-threshold transactions are cash by definition).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct AmlHour {
    pub start: i64,
    pub in_cents: i64,
    pub in_count: u32,
    pub out_cents: i64,
    pub wagered_cents: i64,
    pub near_threshold_count: u32,
}

/// An instrument the user added or used, with when it was last seen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AmlInstrument {
    pub instrument: String,
    pub last_seen_at: i64,
}

/// Transfers between the user and one counterparty, both ways.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct AmlPair {
    pub sent_count: u32,
    pub sent_cents: i64,
    pub received_count: u32,
    pub received_cents: i64,
    pub first_sent_at: Option<i64>,
}

/// When a typology last opened an alert for the user.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AmlAlerted {
    pub typology: Typology,
    pub at: i64,
}

/// Where a user stands after earlier decisions; withdrawals read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct AmlStanding {
    /// withdrawals held until the AML case is closed
    pub withdrawals_held: bool,
    /// withdrawals locked until the user is verified at this tier (due diligence)
    pub cdd_tier: Option<KycTier>,
}

/// Everything `decide_aml` reads; buckets are as they were before the event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AmlFacts {
    pub now: i64,
    pub jurisdiction: String,
    pub event: AmlEvent,
    /// the start of the gaming day the event falls in, and of the next
    pub gaming_day_start: i64,
    pub gaming_day_end: i64,
    /// the gaming day's buckets, in the profile's currency
    pub gaming_day: Vec<AmlBucket>,
    /// the hours of the longest window any rule reads, in the profile's currency
    pub hours: Vec<AmlHour>,
    /// instruments seen in the instrument window
    pub instruments: Vec<AmlInstrument>,
    /// transfers with the event's counterparty, for a transfer
    pub pair: Option<AmlPair>,
    /// the user's activity before this event
    pub last_seen_at: Option<i64>,
    /// the user's deposits by size class (`deposit_class`), counts
    pub deposit_classes: Vec<u32>,
    pub verified: KycTier,
    pub standing: AmlStanding,
    pub alerted: Vec<AmlAlerted>,
    /// the reference rate from the event's currency to the profile's, when
    /// they differ and a rate is imported for the event's day
    #[serde(default)]
    pub rate: Option<AmlRate>,
}

/// One named number a rule read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AmlInput {
    pub name: String,
    pub value: i64,
}

/// A rule that fired, with its evidence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FiredRule {
    /// `aml.<typology>`
    pub rule_id: String,
    pub version: u32,
    pub reason_code: Typology,
    pub inputs: Vec<AmlInput>,
    pub window_from: i64,
    pub window_to: i64,
    pub threshold: i64,
}

/// What the store adds for this event beside its sums.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AmlCounters {
    /// the event is a cash transaction in the near-threshold band
    pub near_threshold: bool,
    /// the deposit's size class, for the user's percentile
    pub deposit_class: Option<u32>,
    /// the event's amount in the profile's currency, which the store adds to
    /// the buckets; none when it could not be converted (then it is flagged
    /// `unconvertible_currency` and summed by no threshold)
    #[serde(default)]
    pub amount_cents: Option<i64>,
}

/// The decision on one event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AmlDecision {
    pub outcome: AmlOutcome,
    pub actions: Vec<AmlAction>,
    /// the tier required, with `require_kyc_tier`
    pub required_tier: Option<KycTier>,
    /// every rule that fired
    pub fired: Vec<FiredRule>,
    /// the typologies that open an alert: fired, and not alerted in their window yet
    pub alert: Vec<Typology>,
    /// when the alert's case is due, from the earliest regulatory deadline
    pub due_at: Option<i64>,
    /// the standing after this event
    pub standing: AmlStanding,
    pub counters: AmlCounters,
}

named_enum!(
    /// How the team closes an AML case: no suspicion, or suspicion confirmed and reported.
    AmlReviewOutcome { FalsePositive = "false_positive", Confirmed = "confirmed" }
);

/// The team's decision on a user's open AML case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AmlReviewFacts {
    pub outcome: AmlReviewOutcome,
    pub standing: AmlStanding,
}

/// What closing the case changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AmlReviewDecision {
    pub standing: AmlStanding,
    /// whether the case counts as a true alert in the typologies' precision
    pub true_positive: bool,
}

/// The most fraction digits a reference rate may have.
pub const MAX_RATE_DIGITS: u32 = 18;

/// Deposit size classes per doubling of the amount (the histogram's resolution).
pub const CLASSES_PER_DOUBLING: u32 = 4;
/// How many size classes a user's deposit histogram has.
pub const DEPOSIT_CLASSES: u32 = 64 * CLASSES_PER_DOUBLING;
