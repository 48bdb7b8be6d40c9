//! Jurisdiction profiles: the parameters a regulator sets differently, one
//! profile per value of a tenant's `jurisdiction`. Every profile lives here
//! and only here: adding one is a change to this file (and the committed
//! component), never to a host or the gateway. Sources are in
//! `docs/decisions.md` ("Jurisdictions").

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::types::named_enum;
#[allow(unused_imports)]
use crate::*;

/// The profile of tenants that name none: the spec's own tables.
pub const DEFAULT_JURISDICTION: &str = "default";

/// One step of an increase's cool-off: increases up to `up_to_multiple`
/// times the limit in force (every increase when `None`) wait `cooloff_seconds`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CooloffBracket {
    pub up_to_multiple: Option<u32>,
    pub cooloff_seconds: i64,
}

/// A profile as `GET /v1/rules` lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JurisdictionProfile {
    pub name: String,
    pub regulator: String,
    /// the brackets of a deposit limit increase, smallest first; decreases take effect at once everywhere
    pub increase_cooloffs: Vec<CooloffBracket>,
    /// the AML monitoring parameters
    pub aml: AmlParameters,
    /// how long records of a user's transactions and due diligence are kept
    /// after they were made; the retention sweep deletes them after it
    pub record_keeping_seconds: i64,
    /// the law that sets `record_keeping_seconds`
    pub record_keeping_source: String,
}

named_enum!(
    /// The classes of a player's records a profile's retention table covers;
    /// `aml_records` are AML events, alerts, cases and filings with the
    /// transaction records they rest on; `exclusions` are those that ended.
    RecordClass {
        IdentityScreening = "identity_screening",
        KycChecks = "kyc_checks",
        AmlRecords = "aml_records",
        Exclusions = "exclusions",
        LimitChanges = "limit_changes",
        DecisionLog = "decision_log",
        AuditLog = "audit_log",
        WebhookPayloads = "webhook_payloads",
    }
);

named_enum!(
    /// What a class's period runs from: the end of the business relationship
    /// (its close, or the profile's inactivity fallback), the end of the
    /// record itself (an exclusion's end), or the record's own time (each
    /// transaction's, each filing's).
    RetentionStart {
        RelationshipEnd = "relationship_end",
        RecordEnd = "record_end",
        Record = "record",
    }
);

/// One row of a profile's retention table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RetentionRule {
    pub class: RecordClass,
    /// whether a law requires the records kept: `false` means they go at
    /// once when the subject asks for erasure
    pub required: bool,
    /// how long they are kept after `from`
    pub keep_seconds: i64,
    pub from: RetentionStart,
    /// a record need not be kept longer than this after its own time, even
    /// when the relationship lasted longer (UK MLR 2017 reg 40(3)(b): ten years)
    pub record_cap_seconds: Option<i64>,
    /// a member state may extend the period by up to this much (AMLD4 art. 40(1))
    pub extendable_seconds: Option<i64>,
    /// whether the law then requires deletion (the sweep deletes unasked);
    /// `false`: deleted only on the subject's request
    pub then_delete: bool,
    /// the stable code of the legal basis (answered in an erasure's `held`)
    pub basis: String,
    /// the law, by article
    pub source: String,
}

/// A profile's retention table: a row per class, and when a relationship
/// without a close is taken to have ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RetentionTable {
    pub jurisdiction: String,
    /// a relationship with no activity for this long has ended
    pub inactivity_seconds: i64,
    /// the source of the fallback (or that it is the project's choice)
    pub inactivity_source: String,
    pub rules: Vec<RetentionRule>,
}

impl RetentionTable {
    /// The row of a class (every table has one per class).
    pub fn rule(&self, class: RecordClass) -> Option<&RetentionRule> {
        self.rules.iter().find(|r| r.class == class)
    }
}

/// Serde's default for facts logged before profiles existed.
pub(crate) fn default_jurisdiction() -> String {
    DEFAULT_JURISDICTION.to_string()
}

/// An exclusion of the player, as erasure dates it: its start and its end
/// (`None`: it never ends).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExclusionSpan {
    pub effective_from: i64,
    pub expires_at: Option<i64>,
}

/// Everything that dates an erasure of one player under its profile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErasureFacts {
    pub now: i64,
    pub jurisdiction: String,
    /// when the relationship ended, if it has (closed, or an earlier request's date)
    pub ended_at: Option<i64>,
    /// whether the player or the operator asked (a request ends the relationship)
    pub asked: bool,
    pub last_active_at: i64,
    /// the latest transaction record the operator reported (deposits, AML events, withdrawals)
    pub last_record_at: Option<i64>,
    pub exclusions: Vec<ExclusionSpan>,
}

/// One class of a job: its date (`None`: an exclusion in force with no end),
/// its basis, and when it was erased (the class's date has come).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassPlan {
    pub class: RecordClass,
    pub until: Option<i64>,
    pub basis: String,
    pub erased_at: Option<i64>,
}

/// An erasure's dates: the end of the relationship, each class's date, and
/// the time before which the player's filings have had their own period.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErasurePlan {
    pub relationship_end: i64,
    pub classes: Vec<ClassPlan>,
    /// filings from before this have been kept their period from the filing
    /// itself (31 CFR 1021.320(d)); `None` where the period runs from the relationship
    pub filings_before: Option<i64>,
}

/// A profile's retention at a time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CutoffFacts {
    pub now: i64,
    pub jurisdiction: String,
}

/// Which players the sweep erases unasked: relationships that ended before
/// `ended_before`, or (not closed) idle since before `idle_before`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnaskedCutoff {
    pub ended_before: i64,
    pub idle_before: i64,
}

/// A profile's retention cutoffs at a time: what is past its period.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RetentionCutoffs {
    /// `None`: the profile's law requires no deletion unasked
    pub unasked: Option<UnaskedCutoff>,
    /// filings filed before this are past their own period (asked players only)
    pub filings_before: Option<i64>,
    /// AML records from before this are past the period the law keeps them (from each record, or its cap)
    pub records_before: Option<i64>,
    /// exclusions that ended before this are redacted in place
    pub ended_exclusions_before: Option<i64>,
}

/// A player's request for the records held about them (GDPR art. 15), as
/// the rules date it under its profile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccessRequestFacts {
    /// when the request was received, on the tenant's clock
    pub received_at: i64,
    pub jurisdiction: String,
}

/// When an access request's answer is due, and the law on which records
/// that would reveal a suspicion (AML alerts, cases, filings, the team's
/// notes on them, a hold's reason) are withheld from it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccessRequestPlan {
    pub due_at: i64,
    /// the law that sets the period
    pub due_source: String,
    /// the stable code of the basis for withholding
    pub withhold_basis: String,
    /// the law, by article
    pub withhold_source: String,
    /// the webhook events about the player withheld on that basis: those that tell of a screening's outcome or an alert
    pub withheld_events: Vec<EventKind>,
    /// the screening standings withheld on that basis; the export never carries a standing, so that its absence tells nothing
    pub withheld_standings: Vec<SanctionsStatus>,
}
