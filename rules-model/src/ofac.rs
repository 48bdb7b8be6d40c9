//! OFAC parity scoring for analysts: the score OFAC's own Sanctions List
//! Search would give, for a compliance officer who must record "searched
//! as OFAC's tool would". It is not the screening score: it inherits the
//! tool's quirks (word order matters to one of its techniques, a short word
//! of the query is ignored), which the screening score deliberately avoids.
//!
//! The method, from OFAC's FAQ 249 ("two matching logic techniques ... the
//! higher score") and the observed behaviour of the public tool:
//! - **whole name**: Jaro-Winkler of the two names as written (words in
//!   order, one space apart), counted only when they begin with the same
//!   letter (the tool finds `GEORGE BUSH` but not `BUSH GEORGE`);
//! - **word by word**: each word of the query longer than two letters (all
//!   of them if none is) takes its best Jaro-Winkler against the entry's
//!   words; a pair below 0.5 counts as nothing; the mean over the query's words;
//! - the higher of the two, over every name of the entry (its aliases), as a
//!   whole percentage.

use alloc::string::String;
use serde::{Deserialize, Serialize};

#[allow(unused_imports)]
use crate::*;

/// An entry as OFAC's search would score it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OfacScored {
    /// the candidate's index in the list given
    pub index: u32,
    /// the entry's name that scored best
    pub name: String,
    /// 0 to 100, as OFAC's slider reads
    pub score: u32,
    /// the whole-name technique's score for that name (0 to 1)
    pub whole_name: f64,
    /// the word-by-word technique's score for that name (0 to 1)
    pub word_by_word: f64,
}
