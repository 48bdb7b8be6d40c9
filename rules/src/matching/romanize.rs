//! Other romanizations of the same name: a word written in one scheme is
//! re-spelled in the scheme the lists use, and both sides are brought to a
//! common form where the schemes only differ in spelling. Each table names
//! its source; `docs/decisions.md` ("Romanization tables") lists them.
//!
//! The tables rewrite a lower-case ASCII word left to right, the longest
//! pattern first; `^` anchors a pattern at the word's start, `$` at its end.

#[allow(unused_imports)]
use crate::traits::*;
#[allow(unused_imports)]
use crate::*;
#[allow(unused_imports)]
use alloc::{
    string::{String, ToString},
    vec::Vec,
};
pub use rules_model::matching::romanize::*;

type Table = &'static [(&'static str, &'static str)];

/// Russian, Ukrainian and Belarusian names in the English-language schemes
/// (BGN/PCGN, the passport's ICAO 9303, the press's simplified forms) differ
/// in the soft endings and the iotated vowels: brought to one form on both
/// sides (`Yevgeniy`, `Evgeny`, `Evgenii` are `evgeni`). Source: the
/// comparison table of Wikipedia's "Romanization of Russian" (BGN/PCGN,
/// ICAO, "English" columns).
const CYRILLIC_ENGLISH: Table = &[
    ("^ye", "e"),
    ("iye", "ie"),
    ("iya$", "ia"),
    ("iy$", "i"),
    ("ii$", "i"),
    ("yi$", "i"),
    ("yy$", "i"),
    ("ij$", "i"),
    ("y$", "i"),
    ("ks", "x"),
    ("tz", "ts"),
];

/// German transcription of Russian (Duden, as the German press and
/// authorities write it), read back into the English form: `Jewgeni
/// Prigoschin` is `yevgeni prigoshin`, `Juri Kowaltschuk` is `yuri
/// kovalchuk`. Source: the "German (Duden)" column of Wikipedia's
/// "Romanization of Russian"; Duden, "Transkription russischer Namen".
const GERMAN: Table = &[
    ("schtsch", "shch"),
    ("tsch", "ch"),
    ("sch", "sh"),
    ("ch", "kh"),
    ("ja", "ya"),
    ("je", "ye"),
    ("jo", "yo"),
    ("ju", "yu"),
    ("j", "y"),
    ("ss", "s"),
    ("ck", "k"),
    ("z", "ts"),
    ("w", "v"),
];

/// French transcription of Russian, read back into the English form:
/// `Ievgueni Prigojine` is `yevgeni prigozhin`, `Poutine` is `putin`.
/// Source: the "French" column of Wikipedia's "Romanization of Russian";
/// the French press's usage (`ou` for u, `tch` for ch, `j` for zh, a mute
/// `-e` after a final `-in`).
const FRENCH: Table = &[
    ("chtch", "shch"),
    ("tch", "ch"),
    ("ch", "sh"),
    ("dj", "dzh"),
    ("j", "zh"),
    ("iou", "yu"),
    ("ou", "u"),
    ("^ia", "ya"),
    ("^ie", "ye"),
    ("^io", "yo"),
    ("gue", "ge"),
    ("gui", "gi"),
    ("ine$", "in"),
    ("ff$", "v"),
    ("ss", "s"),
];

/// Korean names in McCune–Reischauer (with or without its breves and
/// apostrophes), Revised Romanization and the common family-name spellings,
/// brought to one form on both sides: the consonants MR writes voiceless
/// at a word's start and RR voiced (`Kim`/`Gim`, `Pak`/`Bak`, `Chong`/`Jong`),
/// RR's `eo` and `eu` for MR's `ŏ` and `ŭ`, `Park`, `Choi`, `Lee`/`Yi`/`Ri`.
/// Source: the consonant and vowel tables of Wikipedia's "McCune–Reischauer"
/// and "Revised Romanization of Korean" (National Institute of the Korean
/// Language, 2000), and "List of Korean surnames" for the family names.
const KOREAN: Table = &[
    ("eo", "o"),
    ("eu", "u"),
    ("oo", "u"),
    ("ou", "o"),
    ("oi", "oe"),
    ("ee", "i"),
    ("^rh", "l"),
    ("rk$", "k"),
    ("ch", "j"),
    ("sh", "s"),
    ("kk", "k"),
    ("tt", "t"),
    ("pp", "p"),
    ("ss", "s"),
    ("jj", "j"),
    ("g", "k"),
    ("b", "p"),
    ("d", "t"),
    ("r", "l"),
    // `Oh`, `Noh`: no Korean syllable ends in h
    ("h$", ""),
];

/// Arabic names' common romanizations (the `Abd al`/`Abdul`/`Abdel`/`Abdoul`
/// forms of the article in a compound, `-ullah`/`-allah`, the French `ou`,
/// the English `ee` and `oo`), the same on both sides. Source: Wikipedia's
/// "Romanization of Arabic" (the comparison of BGN/PCGN, ALA-LC, DIN 31635
/// and the French usage) and "Abd" (the theophoric names).
const ARABIC: Table = &[
    ("^abdoul", "abdal"),
    ("^abdul", "abdal"),
    ("^abdel", "abdal"),
    ("^abdol", "abdal"),
    ("^abdil", "abdal"),
    ("ullah$", "allah"),
    ("ollah$", "allah"),
    ("ellah$", "allah"),
    ("^el", "al"),
    ("^ul", "al"),
    ("ou", "u"),
    ("oo", "u"),
    ("ee", "i"),
];

/// Arabic vowels written otherwise (`Omar`/`Umar`, `Osama`/`Usama`), for
/// looking a name up only: scored, they made common romanized names alike
/// (the match-quality bench's false positives rose 0.6 points), and
/// Jaro-Winkler with Soundex already reads `Mohammed` for `Muhammad` as a
/// close spelling.
const ARABIC_VOWELS: Table = &[("e", "a"), ("o", "u")];

/// Countries whose citizens' names are romanized from Hangul.
const KOREAN_COUNTRIES: &[&str] = &["KP", "KR"];

/// Whether a nationality is one whose names are romanized from Hangul.
pub fn korean_nationality(code: &str) -> bool {
    KOREAN_COUNTRIES.iter().any(|c| c.eq_ignore_ascii_case(code))
}

fn rewrite(word: &str, table: Table) -> String {
    let mut out = String::with_capacity(word.len() + 2);
    let mut rest = word;
    let mut at_start = true;
    'scan: while let Some(&first) = rest.as_bytes().first() {
        for (pattern, replacement) in table {
            let (starts, pattern) = match pattern.strip_prefix('^') {
                Some(p) => (true, p),
                None => (false, *pattern),
            };
            // most patterns begin with another letter: the cheap test first
            if pattern.as_bytes().first() != Some(&first) || (starts && !at_start) {
                continue;
            }
            let (ends, pattern) = match pattern.strip_suffix('$') {
                Some(p) => (true, p),
                None => (false, pattern),
            };
            if !rest.starts_with(pattern) || (ends && rest.len() != pattern.len()) {
                continue;
            }
            out.push_str(replacement);
            rest = &rest[pattern.len()..];
            at_start = false;
            continue 'scan;
        }
        let mut chars = rest.chars();
        if let Some(c) = chars.next() {
            out.push(c);
        }
        rest = chars.as_str();
        at_start = false;
    }
    out
}

/// Revised Romanization's spellings of a Korean syllable in the lists'
/// (McCune–Reischauer-based) spelling: `Gim` is `Kim`, `Jeong` is `Jong`,
/// `Eun` is `Un`. For looking a name up only: the scoring uses [`korean`].
const REVISED_TO_LISTED: Table = &[("eo", "o"), ("eu", "u"), ("^g", "k"), ("^b", "p"), ("^d", "t")];

/// The common South Korean spellings of family names (`Lee`, `Park`,
/// `Choi`, `Jung`, `Yoo`, `Shin`, `Oh`) in the lists' spelling, for
/// looking a name up. Source: "List of Korean surnames" (Wikipedia), its
/// romanization columns.
const KOREAN_FAMILY_NAMES: &[(&str, &str)] = &[
    ("lee", "ri"),
    ("yi", "ri"),
    ("rhee", "ri"),
    ("park", "pak"),
    ("choi", "choe"),
    ("jung", "jong"),
    ("yoo", "yu"),
    ("yoo", "ryu"),
    ("yu", "ryu"),
    ("lim", "rim"),
    ("im", "rim"),
    ("yang", "ryang"),
    ("shin", "sin"),
    ("oh", "o"),
    ("noh", "no"),
];

/// The spellings a screened word is also looked up by: in the English form
/// of the German and French transcriptions, the lists' Korean spelling,
/// and the Arabic vowels written otherwise at a word's start.
pub fn lookup_spellings(word: &str) -> impl Iterator<Item = String> + '_ {
    let korean = (word.len() <= 6).then(|| rewrite(word, REVISED_TO_LISTED));
    let arabic = word.starts_with(['e', 'o']).then(|| rewrite(&rewrite(word, ARABIC), ARABIC_VOWELS));
    let family = KOREAN_FAMILY_NAMES.iter().filter(move |(common, _)| *common == word).map(|(_, listed)| String::from(*listed));
    [Some(rewrite(word, GERMAN)), Some(rewrite(word, FRENCH)), korean, arabic].into_iter().flatten().chain(family).filter(move |w| w != word)
}

/// A word's one form across the English-language schemes for Cyrillic.
pub fn cyrillic_english(word: &str) -> String {
    rewrite(word, CYRILLIC_ENGLISH)
}

/// A word in the German transcription of Russian, in the English form.
pub fn from_german(word: &str) -> String {
    cyrillic_english(&rewrite(word, GERMAN))
}

/// A word in the French transcription of Russian, in the English form.
pub fn from_french(word: &str) -> String {
    cyrillic_english(&rewrite(word, FRENCH))
}

/// A word's one form across the romanizations of Korean. South Korea drops
/// an initial `r` before `i` and `y` and reads it `n` before the other
/// vowels (the initial sound rule, 두음법칙), the North keeps it: `Ri`/`Lee`/`Yi`,
/// `Ryu`/`Yu`/`Yoo`, `Rim`/`Lim`/`Im`, `Ro`/`No`/`Noh` are one family name each.
pub fn korean(word: &str) -> String {
    let form = rewrite(word, KOREAN);
    match form.strip_prefix('l') {
        _ if form == "yi" => String::from("i"),
        Some(rest) if rest.starts_with(['i', 'y']) => String::from(rest),
        Some(rest) if rest.starts_with(['a', 'e', 'o', 'u']) => alloc::format!("n{rest}"),
        _ => form,
    }
}

/// A word's one form across the romanizations of Arabic; with `vowels`,
/// the vowels' too (see [`ARABIC_VOWELS`]).
pub fn arabic(word: &str, vowels: bool) -> String {
    let form = rewrite(word, ARABIC);
    let form = if vowels { rewrite(&form, ARABIC_VOWELS) } else { form };
    collapse_doubles(&form)
}

/// A word's consonants, for names read from a script that writes few
/// vowels (Arabic, Hebrew, Syriac, Thaana: `محمد` is `mhmd`): vowels, the
/// letters that double as long vowels (`w`, `y`), the hamza and ayn signs
/// and doubled letters dropped, the same on both sides.
pub fn abjad(word: &str) -> String {
    let consonants: String = word.chars().filter(|c| c.is_ascii_alphanumeric() && !matches!(c, 'a' | 'e' | 'i' | 'o' | 'u' | 'w' | 'y')).collect();
    collapse_doubles(&consonants)
}

fn collapse_doubles(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    for c in word.chars() {
        if !out.ends_with(c) {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn german_and_french_transcriptions_read_back_into_the_english_form() {
        assert_eq!(from_german("jewgeni"), "evgeni");
        assert_eq!(cyrillic_english("yevgeniy"), "evgeni");
        assert_eq!(from_german("prigoschin"), "prigoshin");
        assert_eq!(from_german("kowaltschuk"), "kovalchuk");
        assert_eq!(from_german("juri"), "yuri");
        assert_eq!(from_german("chodorkowski"), "khodorkovski");
        assert_eq!(from_french("ievgueni"), "evgeni");
        assert_eq!(from_french("prigojine"), "prigozhin");
        assert_eq!(from_french("poutine"), "putin");
        assert_eq!(from_french("tchaikovski"), "chaikovski");
        // the twins: an English spelling is left as it is by the schemes that do not apply
        assert_eq!(cyrillic_english("putin"), "putin");
        assert_eq!(from_german("putin"), "putin");
    }

    #[test]
    fn korean_romanizations_have_one_form() {
        for (a, b) in [
            ("jong", "chong"),
            ("jeong", "chong"),
            ("un", "eun"),
            ("kim", "gim"),
            ("pak", "park"),
            ("bak", "pak"),
            ("choe", "choi"),
            ("ri", "lee"),
            ("yi", "rhee"),
            ("chol", "cheol"),
            // the initial sound rule
            ("ryu", "yoo"),
            ("ryu", "yu"),
            ("rim", "lim"),
            ("rim", "im"),
            ("ro", "noh"),
            ("ryang", "yang"),
            ("oh", "o"),
        ] {
            assert_eq!(korean(a), korean(b), "{a} / {b}");
        }
        assert_ne!(korean("ryu"), korean("ro"));
        assert_ne!(korean("rim"), korean("ryang"));
        assert_ne!(korean("kim"), korean("pak"));
        assert_ne!(korean("jong"), korean("jang"));
    }

    #[test]
    fn arabic_romanizations_have_one_form() {
        assert_eq!(arabic("abdulrahman", false), arabic("abdalrahman", false));
        assert_eq!(arabic("abdelrahman", false), arabic("abdoulrahman", false));
        assert_eq!(arabic("nasrullah", false), arabic("nasrallah", false));
        assert_eq!(arabic("mohammed", true), arabic("muhammad", true));
        assert_eq!(arabic("omar", true), arabic("umar", true));
        // the twin: outside an Arabic name the vowels stay
        assert_ne!(arabic("omar", false), arabic("umar", false));
        assert_eq!(abjad("muhammad"), "mhmd");
        assert_eq!(abjad("hussein"), abjad("hsyn"));
        assert_eq!(abjad("nasrallah"), "nsrlh");
    }
}
