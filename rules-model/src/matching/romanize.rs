//! Other romanizations of the same name: a word written in one scheme is
//! re-spelled in the scheme the lists use, and both sides are brought to a
//! common form where the schemes only differ in spelling. Each table names
//! its source; `docs/decisions.md` ("Romanization tables") lists them.
//!
//! The tables rewrite a lower-case ASCII word left to right, the longest
//! pattern first; `^` anchors a pattern at the word's start, `$` at its end.

use serde::{Deserialize, Serialize};

use crate::types::named_enum;
#[allow(unused_imports)]
use crate::*;

named_enum!(
    /// The spelling through which two name parts were compared: as written,
    /// or re-spelled by one of the romanization tables.
    Spelling {
        AsWritten = "as_written",
        CyrillicEnglish = "cyrillic_english",
        CyrillicGerman = "cyrillic_german",
        CyrillicFrench = "cyrillic_french",
        Korean = "korean",
        Arabic = "arabic",
        Abjad = "abjad"
    }
);

// `named_enum!` cannot mark a default variant for `derive(Default)`.
#[allow(clippy::derivable_impls)]
impl Default for Spelling {
    fn default() -> Self {
        Spelling::AsWritten
    }
}
