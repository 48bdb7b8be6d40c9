//! Self-exclusion: expiry, precedence, registration (lengthen, never
//! shorten), regulator propagation and the regulator's comprehensive list.

use alloc::vec::Vec;

use crate::types::named_enum;
#[allow(unused_imports)]
use crate::*;
use serde::{Deserialize, Serialize};

named_enum!(
    /// How long an exclusion lasts.
    ExclusionDuration {
        Hours24 = "duration_24h",
        Days7 = "duration_7d",
        Days30 = "duration_30d",
        Months6 = "duration_6m",
        Year1 = "duration_1y",
        Permanent = "duration_permanent",
    }
);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExclusionTerm {
    /// `None` for a permanent exclusion.
    pub expires_at: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExclusionStatusFacts {
    pub now: i64,
    pub exclusions: Vec<ExclusionTerm>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ExclusionStatus {
    /// indexes of the active exclusions, in the order given
    pub active: Vec<u32>,
    /// the one to report: permanent first, else the latest expiry
    pub most_restrictive: Option<u32>,
}

/// An exclusion already registered for the user at this tenant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct UserExclusion {
    pub duration: ExclusionDuration,
    pub expires_at: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExclusionFacts {
    pub now: i64,
    pub duration: ExclusionDuration,
    /// the user's exclusions at this tenant, oldest first, active or not
    pub existing: Vec<UserExclusion>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExclusionRegistration {
    pub expires_at: Option<i64>,
    pub is_permanent: bool,
    /// whether the licensing regulator's register takes it
    pub regulator_eligible: bool,
    pub events: Vec<EventKind>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExclusionDecision {
    /// the same duration is already active: answer with that row
    Replay(u32),
    /// an active exclusion lasts at least as long
    AlreadyExcluded,
    Register(ExclusionRegistration),
}

/// An entry of the regulator's comprehensive list, with the regulator
/// exclusions already on file for its e-mail or phone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegulatorEntry {
    pub existing_regulator: Vec<ExclusionTerm>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegulatorImportFacts {
    pub now: i64,
    pub entries: Vec<RegulatorEntry>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegulatorOutcome {
    /// false when the person is already permanently excluded by the regulator
    pub is_new: bool,
    pub duration: ExclusionDuration,
    pub is_permanent: bool,
    /// when the exclusion ends; never for a permanent one
    pub expires_at: Option<i64>,
    pub events: Vec<EventKind>,
}
