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

use crate::matching::{jaro_winkler, words, ListCandidate};
#[allow(unused_imports)]
use crate::traits::*;
#[allow(unused_imports)]
use crate::*;
#[allow(unused_imports)]
use alloc::{
    string::{String, ToString},
    vec::Vec,
};
pub use rules_model::ofac::*;

/// A word pair alike less than this adds nothing to the word-by-word score.
const WORD_PAIR_FLOOR: f64 = 0.5;

/// Query words this short are left out of the word-by-word score.
const SHORT_WORD: usize = 2;

/// The last letter of the Latin blocks (Latin Extended-B).
const LAST_LATIN: char = '\u{24f}';

/// The words of a name as the tool reads them: periods and apostrophes
/// removed, not split on (`U.S.` is one word); case and diacritics folded.
/// A word in another script is kept as written: the tool does not
/// transliterate, so `Владимир` never matches `Vladimir` there.
fn ofac_words(name: &str) -> Vec<String> {
    let separator = |c: char| !(c.is_alphanumeric() || matches!(c, '.' | '\'' | '\u{2019}' | '`'));
    let mut out = Vec::new();
    for raw in name.split(separator).filter(|w| !w.is_empty()) {
        if raw.chars().any(|c| c.is_alphabetic() && c > LAST_LATIN) {
            out.push(raw.to_lowercase());
        } else {
            let kept: String = raw.chars().filter(|c| *c != '.').collect();
            out.extend(words(&kept));
        }
    }
    out
}

fn whole_name(query: &[String], candidate: &[String]) -> f64 {
    let (q, c) = (query.join(" "), candidate.join(" "));
    match (q.bytes().next(), c.bytes().next()) {
        (Some(a), Some(b)) if a == b => jaro_winkler(&q, &c),
        _ => 0.0,
    }
}

fn word_by_word(query: &[String], candidate: &[String]) -> f64 {
    let long: Vec<&String> = query.iter().filter(|w| w.len() > SHORT_WORD).collect();
    let kept: Vec<&String> = if long.is_empty() { query.iter().collect() } else { long };
    if kept.is_empty() || candidate.is_empty() {
        return 0.0;
    }
    let total: f64 = kept
        .iter()
        .map(|q| candidate.iter().map(|c| jaro_winkler(q, c)).fold(0.0, f64::max))
        .map(|best| if best >= WORD_PAIR_FLOOR { best } else { 0.0 })
        .sum();
    total / kept.len() as f64
}

/// A share of 0 to 1 as a whole percentage (no_std: rounded through an integer).
fn percent(x: f64) -> u32 {
    (x.clamp(0.0, 1.0) * 100.0 + 0.5) as u32
}

fn round2(x: f64) -> f64 {
    f64::from(percent(x)) / 100.0
}

/// Every candidate of any kind scored as OFAC's search would, best first
/// (ties by their order); candidates scoring zero are left out.
pub fn ofac_scores(query: &str, candidates: &[ListCandidate]) -> Vec<OfacScored> {
    let query = ofac_words(query);
    let mut scored: Vec<OfacScored> = candidates
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let best = c
                .names
                .iter()
                .map(|n| {
                    let words = ofac_words(n);
                    (whole_name(&query, &words), word_by_word(&query, &words), n)
                })
                .fold(None, |best: Option<(f64, f64, &String)>, next| match best {
                    Some(b) if b.0.max(b.1) >= next.0.max(next.1) => Some(b),
                    _ => Some(next),
                })?;
            let (whole, per_word, name) = best;
            let score = percent(whole.max(per_word));
            (score > 0).then(|| OfacScored { index: i as u32, name: name.clone(), score, whole_name: round2(whole), word_by_word: round2(per_word) })
        })
        .collect();
    scored.sort_by(|a, b| b.score.cmp(&a.score).then(a.index.cmp(&b.index)));
    scored
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matching::EntryKind;
    use alloc::string::ToString;
    use alloc::vec;

    fn entry(names: &[&str]) -> ListCandidate {
        ListCandidate {
            source: "ofac-sdn".to_string(),
            entity_id: "1".to_string(),
            kind: EntryKind::Individual,
            names: names.iter().map(|n| n.to_string()).collect(),
            dates_of_birth: vec![],
            nationalities: vec![],
            topic: Default::default(),
            fingerprint: String::new(),
        }
    }

    fn one(query: &str, names: &[&str]) -> OfacScored {
        ofac_scores(query, &[entry(names)]).pop().unwrap_or(OfacScored {
            index: 0,
            name: String::new(),
            score: 0,
            whole_name: 0.0,
            word_by_word: 0.0,
        })
    }

    #[test]
    fn word_order_counts_for_the_whole_name_only() {
        let forward = one("GEORGE BUSH", &["GEORGIOU, Georgios"]);
        let reversed = one("BUSH GEORGE", &["GEORGIOU, Georgios"]);
        assert!(forward.whole_name > 0.8 && forward.score >= 80, "{forward:?}");
        assert_eq!(reversed.whole_name, 0.0);
        assert!(reversed.score < 80, "{reversed:?}");
        assert_eq!(forward.word_by_word, reversed.word_by_word);
        // the surname first is no obstacle word by word
        assert_eq!(one("VLADIMIR PUTIN", &["PUTIN, Vladimir"]).score, 100);
    }

    #[test]
    fn an_unlike_word_counts_for_nothing_and_short_words_are_dropped() {
        let floor = one("GEORGE BUSH", &["HASWANI, George"]);
        assert_eq!((floor.score, floor.whole_name, floor.word_by_word), (50, 0.0, 0.5));
        assert_eq!(one("KIM JONG UN", &["KIM, Jong Man"]).score, 100);
        // a query of short words only keeps them
        assert!(one("Z", &["ZOLLNER"]).score > 0);
    }

    #[test]
    fn another_script_is_not_transliterated_but_periods_and_diacritics_fold() {
        assert_eq!(one("Владимир Путин", &["PUTIN, Vladimir"]).score, 0);
        assert_eq!(one("José Müller", &["JOSE MULLER"]).score, 100);
        assert_eq!(one("U.S.A. Trading", &["USA TRADING"]).score, 100);
    }

    #[test]
    fn the_best_alias_scores_and_nothing_alike_is_left_out() {
        let best = one("VLADIMIR PUTIN", &["Some Other Person", "PUTIN, Vladimir"]);
        assert_eq!((best.score, best.name.as_str()), (100, "PUTIN, Vladimir"));
        assert!(ofac_scores("QQQ", &[entry(&["ZZZ"])]).is_empty());
    }
}
