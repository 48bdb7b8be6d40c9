//! Name matching for sanctions screening, modelled on OFAC's Sanctions List
//! Search (FAQ 249: Jaro-Winkler on the characters, Soundex on the sounds,
//! a score from 0 to 100). Names are normalised (case, diacritics, Cyrillic
//! and Greek letters, punctuation) and compared word by word, so that word
//! order does not matter (`PUTIN, Vladimir` is `Vladimir Putin`); an initial
//! matches the word it begins; the best of an entry's names (its aliases)
//! wins; then the date of birth and the nationality raise or lower the score.
//! Only individuals (or entries of unknown kind) can match a person.
//!
//! Before any of that, a name is read as people read it ([`readings`]):
//! compatibility forms composed (NFKC: full-width letters, ligatures),
//! invisible characters removed (format characters, category Cf, and the
//! other default-ignorable code points: soft hyphens, zero-width joiners,
//! word joiners, bidi controls, byte-order marks), marks decomposed and
//! dropped, and punctuation inside a word joining it (`Sanc-tionov` is
//! `Sanctionov`). A hyphenated name is also read split (`Jean-Pierre` as
//! `Jean Pierre`), and the closer reading counts. List entries and screened
//! names, and the index keys of both, go through the same reading.

use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

pub mod romanize;
pub use romanize::Spelling;

use crate::types::named_enum;
#[allow(unused_imports)]
use crate::*;

named_enum!(
    /// What a list entry is.
    EntryKind { Individual = "individual", Entity = "entity", Vessel = "vessel", Aircraft = "aircraft", Unknown = "unknown" }
);

named_enum!(
    /// Why an entry is listed: a sanction, a politically exposed person (or
    /// a close associate), or adverse media (crime, regulatory warnings).
    /// Only sanctions are screened unless a tenant switches the others on.
    EntryTopic { Sanction = "sanction", Pep = "pep", AdverseMedia = "adverse_media" }
);

// `named_enum!` cannot mark a default variant for `derive(Default)`.
#[allow(clippy::derivable_impls)]
impl Default for EntryTopic {
    fn default() -> Self {
        EntryTopic::Sanction
    }
}

/// A list entry proposed by the store's index for scoring.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListCandidate {
    pub source: String,
    pub entity_id: String,
    pub kind: EntryKind,
    /// the primary name first, then the aliases
    pub names: Vec<String>,
    /// `YYYY`, `YYYY-MM` or `YYYY-MM-DD`
    pub dates_of_birth: Vec<String>,
    /// two-letter country codes
    pub nationalities: Vec<String>,
    /// why the entry is listed
    #[serde(default)]
    pub topic: EntryTopic,
    /// a digest of the entry's record: it changes when the record does
    #[serde(default)]
    pub fingerprint: String,
}

/// Who is looked for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NameQuery {
    pub name: String,
    /// `YYYY-MM-DD`, `YYYY-MM` or `YYYY`; empty when unknown
    pub date_of_birth: String,
    /// two-letter country code; empty when unknown
    pub nationality: String,
}

/// One scored entry: for the compliance team only, never for operators.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScoredCandidate {
    /// index into the candidates
    pub index: u32,
    /// the name or alias that matched best
    pub name: String,
    pub score: f64,
    pub name_score: f64,
    pub date_of_birth_adjustment: f64,
    pub nationality_adjustment: f64,
    /// the reading of the screened name that scored
    #[serde(default)]
    pub reading: NameReading,
    /// the listed name's parts and the screened name's, as they aligned
    #[serde(default)]
    pub aligned: Vec<AlignedPart>,
}

/// A part of the listed name and the part of the screened name aligned
/// with it: one word or neighbouring words read together. A listed part
/// not found has an empty `query`; a word of the screened name left over
/// has an empty `listed`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AlignedPart {
    /// the listed name's words, as read
    pub listed: String,
    /// the screened name's words, as read
    pub query: String,
    /// 0 to 1
    pub similarity: f64,
    /// the spelling they were compared in
    pub spelling: Spelling,
}

named_enum!(
    /// Which reading of the screened name scored: as written; split where
    /// punctuation, an odd space or a syllable parts a word; with look-alike
    /// letters of another script read as the Latin they look like; or
    /// through the transliteration of a script the lists are not read in
    /// (a match so read is for the team to check against the document).
    NameReading {
        AsWritten = "as_written",
        Split = "split",
        LookAlike = "look_alike",
        LookAlikeSplit = "look_alike_split",
        Transliterated = "transliterated",
        TransliteratedSplit = "transliterated_split"
    }
);

// `named_enum!` cannot mark a default variant for `derive(Default)`.
#[allow(clippy::derivable_impls)]
impl Default for NameReading {
    fn default() -> Self {
        NameReading::AsWritten
    }
}

named_enum!(
    /// Whether a name or an id can be read: made only of invisible or bidi
    /// control characters, or with letters of which none can be read (422s).
    NameLegibility { Readable = "readable", OnlyInvisible = "only_invisible", Unreadable = "unreadable" }
);
