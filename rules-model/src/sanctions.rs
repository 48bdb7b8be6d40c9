//! Sanctions screening at signup and re-screening, and the compliance
//! team's review of a hit.

use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::types::named_enum;
#[allow(unused_imports)]
use crate::*;

named_enum!(
    /// A sanctions case's status.
    CaseStatus { Open = "open", Dismissed = "dismissed", Confirmed = "confirmed" }
);

named_enum!(
    /// What a case asks of the compliance team: a sanctions hit (the user's
    /// transactions held until it is decided), or enhanced due diligence
    /// on a PEP or adverse-media match (nothing held).
    CaseKind { SanctionsHit = "sanctions_hit", EnhancedDueDiligence = "enhanced_due_diligence" }
);

// `named_enum!` cannot mark a default variant for `derive(Default)`.
#[allow(clippy::derivable_impls)]
impl Default for CaseKind {
    fn default() -> Self {
        CaseKind::SanctionsHit
    }
}

/// Which topics beyond sanctions a tenant screens for: both off at launch.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScreeningScope {
    pub pep: bool,
    pub adverse_media: bool,
}

named_enum!(
    /// The reviewer's decision on a case.
    ReviewAction { Dismiss = "dismiss", Confirm = "confirm" }
);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScreeningFacts {
    pub now: i64,
    pub environment: Environment,
    pub first_name: String,
    pub last_name: String,
    /// `YYYY-MM-DD`
    pub date_of_birth: String,
    /// two-letter country code
    pub nationality: String,
    /// the user's status when re-screening; none at signup
    pub current: Option<SanctionsStatus>,
    /// list entries the store's index proposes for this name
    #[serde(default)]
    pub candidates: Vec<ListCandidate>,
    /// the environment's hit threshold (0 to 1); none for the rules' default
    #[serde(default)]
    pub hit_threshold: Option<f64>,
    /// every source the candidates were sought in, with its version: what
    /// the decision was screened against (an auditor sees a source missing)
    #[serde(default)]
    pub sources: Vec<ScreenedSource>,
    /// the topics beyond sanctions the tenant screens for
    #[serde(default)]
    pub scope: ScreeningScope,
    /// whether the user already has an open due-diligence case
    #[serde(default)]
    pub due_diligence_open: bool,
    /// the user's matches a reviewer dismissed as false positives, each with
    /// the entry's record as it was then
    #[serde(default)]
    pub dismissed: Vec<DismissedMatch>,
}

/// A user's match a reviewer dismissed: set aside at later screenings until
/// the entry's record changes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DismissedMatch {
    pub source: String,
    pub entity_id: String,
    /// the entry's fingerprint when it was dismissed
    pub fingerprint: String,
}

/// A source a screening sought candidates in: an imported list version, or a screening vendor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScreenedSource {
    pub source: String,
    pub version: String,
}

/// A matched list entity: for the compliance team's case only, never for operators.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScreeningMatch {
    pub source: String,
    pub entity_id: String,
    pub name: String,
    pub score: f64,
    /// the score's parts: the name's similarity and the qualifiers' adjustments
    #[serde(default)]
    pub name_score: f64,
    #[serde(default)]
    pub date_of_birth_adjustment: f64,
    #[serde(default)]
    pub nationality_adjustment: f64,
    /// why the entry is listed
    #[serde(default)]
    pub topic: EntryTopic,
    /// the entry's record digest, remembered if the match is dismissed
    #[serde(default)]
    pub fingerprint: String,
    /// the reading of the screened name that scored: a transliterated one
    /// is for the team to check against the identity document
    #[serde(default)]
    pub reading: NameReading,
    /// the listed name's parts and the screened name's, as they aligned
    #[serde(default)]
    pub aligned: Vec<AlignedPart>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScreeningDecision {
    pub status: SanctionsStatus,
    /// whether the screening opens a case
    pub opens_case: bool,
    /// what the case asks of the compliance team
    #[serde(default)]
    pub case_kind: CaseKind,
    pub transactions_held: bool,
    pub match_count: u32,
    pub highest_score: f64,
    pub matches: Vec<ScreeningMatch>,
    pub review_due_at: Option<i64>,
    pub estimated_review_time: Option<String>,
    pub events: Vec<EventKind>,
    /// matches set aside because a reviewer dismissed them and the entry is unchanged
    #[serde(default)]
    pub set_aside: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SanctionsView {
    pub transactions_held: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CaseReviewFacts {
    pub case_status: CaseStatus,
    pub action: ReviewAction,
    #[serde(default)]
    pub case_kind: CaseKind,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CaseReviewOutcome {
    pub case_status: CaseStatus,
    /// the user's new screening status; none to leave it as it is
    pub user_status: Option<SanctionsStatus>,
    pub transactions_held: bool,
    pub events: Vec<EventKind>,
    /// a dismissal: remember the case's matches, so that a later screening
    /// sets them aside while their entries are unchanged
    #[serde(default)]
    pub remember_matches: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CaseReviewDecision {
    Apply(CaseReviewOutcome),
    /// the case was already decided this way
    Repeat(CaseReviewOutcome),
    /// the case was already decided the other way
    AlreadyDecided(CaseStatus),
}

impl ScreeningScope {
    /// Whether the scope names this topic: sanctions always, the others when switched on.
    pub fn covers(self, topic: EntryTopic) -> bool {
        match topic {
            EntryTopic::Sanction => true,
            EntryTopic::Pep => self.pep,
            EntryTopic::AdverseMedia => self.adverse_media,
        }
    }
}
