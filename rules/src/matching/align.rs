//! Name-part alignment: which parts of the listed name are found in the
//! query, and which parts of the query are left over. A part is one word,
//! or two or three neighbouring words read together (`Jongun` is `Jong Un`,
//! `Nasr Allah` is `Nasrallah`), compared as written or through one of the
//! romanization tables ([`super::romanize`]). The closest pairs are taken
//! first, each word in at most one pair.

use super::romanize::{self, Spelling};
use super::{jaro_winkler, similarity_given, soundex_code, word_similarity, word_weight, UNLIKE_WORD};
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::OnceCell;
use core::ops::Range;

/// At most this many neighbouring words are read as one part.
const MAX_RUN: usize = 3;

/// A listed part whose closest query part is at least this alike is found.
pub(super) const FOUND: f64 = 0.88;

/// Neighbouring words read together are one part only when they spell the
/// other side's part all but exactly (`Xiao Hong` is not `Xiaoming`, though
/// Jaro-Winkler rewards their shared beginning).
const JOINED: f64 = 0.95;

/// Two words at least this alike as written (Jaro-Winkler, the bar of a close spelling) make a listed name worth
/// reading every way.
const RELATED: f64 = 0.8;

/// A spelling through a romanization table counts a little less than the same spelling as written.
const RESPELLED: f64 = 0.98;

/// A comparison of consonants alone (a name read from a script that writes few vowels) says less.
const CONSONANTS_ONLY: f64 = 0.92;

/// Which tables apply to a pair of names.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Context {
    /// a Korean name, by a nationality on either side or its script
    pub korean: bool,
    /// the query was read from a script that writes few vowels
    pub abjad: bool,
}

/// Titles and honorifics (`Sheikh`, `Sayyid`, `Haji`, `Dr`): they say how
/// someone is addressed, not who they are, and weigh little on either side.
const TITLES: &[&str] = &[
    "sheikh", "shaikh", "shaykh", "sheik", "shaik", "cheikh", "sayyed", "sayyid", "sayed", "sayid", "syed", "seyed", "seyyed", "haji", "hajji",
    "hadji", "alhaj", "alhajj", "mullah", "mulla", "maulana", "mawlana", "maulvi", "mawlawi", "mufti", "dr", "mr", "mrs", "ms", "prof", "sir",
];

/// Particles of names (articles, `bin`, `de`, `van`): a name is found without them.
const PARTICLES: &[&str] = &[
    "al", "el", "ul", "bin", "ibn", "bint", "ben", "ould", "de", "da", "di", "du", "del", "della", "der", "den", "van", "von", "la", "le", "dos",
    "das",
];

/// Whether a word is a title or honorific.
pub(super) fn is_title(word: &str) -> bool {
    TITLES.contains(&word)
}

fn is_particle(word: &str) -> bool {
    PARTICLES.contains(&word)
}

/// Whether a name is found without this word: a particle or a title.
pub(super) fn is_optional(word: &str) -> bool {
    is_particle(word) || is_title(word)
}

/// How much a word counts in a name: titles little, the rest by length.
pub(super) fn part_weight(word: &str) -> f64 {
    if is_title(word) {
        0.25
    } else {
        word_weight(word)
    }
}

/// One or more neighbouring words of a name read as one part, with its
/// spellings, made when first asked for (most parts of a listed name are
/// never close enough to need them).
pub(super) struct Run {
    words: Range<usize>,
    text: String,
    /// the letters it has, a bit each
    letters: u64,
    /// its Soundex code
    sound: [u8; 4],
    query: bool,
    spelled: OnceCell<Spellings>,
    /// the Korean and consonant spellings, asked for only where those tables apply
    korean: OnceCell<String>,
    abjad: OnceCell<String>,
}

/// A part's spellings through the romanization tables.
struct Spellings {
    cyrillic: String,
    german: String,
    french: String,
    arabic: String,
}

impl Run {
    fn spellings(&self) -> &Spellings {
        self.spelled.get_or_init(|| {
            let text = &self.text;
            let (german, french) =
                if self.query { (romanize::from_german(text), romanize::from_french(text)) } else { (String::new(), String::new()) };
            Spellings { cyrillic: romanize::cyrillic_english(text), german, french, arabic: romanize::arabic(text, false) }
        })
    }

    fn korean(&self) -> &str {
        self.korean.get_or_init(|| romanize::korean(&self.text))
    }

    fn abjad(&self) -> &str {
        self.abjad.get_or_init(|| romanize::abjad(&self.text))
    }
}

/// A reading of a name with its parts: a screened name's for every
/// candidate, a listed name's for every reading of the screened one.
pub(super) struct Parts<'a> {
    pub words: &'a [String],
    runs: Vec<Run>,
}

impl<'a> Parts<'a> {
    /// `query`: the screened side, which is also read back from the German and French transcriptions.
    pub fn new(words: &'a [String], query: bool) -> Parts<'a> {
        let mut runs = Vec::new();
        for start in 0..words.len() {
            for len in 1..=MAX_RUN.min(words.len() - start) {
                let text: String = words[start..start + len].concat();
                let letters = text.bytes().fold(0u64, |m, b| m | 1 << (b % 64));
                let sound = soundex_code(&text);
                runs.push(Run {
                    words: start..start + len,
                    text,
                    letters,
                    sound,
                    query,
                    spelled: OnceCell::new(),
                    korean: OnceCell::new(),
                    abjad: OnceCell::new(),
                });
            }
        }
        Parts { words, runs }
    }
}

/// How alike two parts are as written, given their Jaro-Winkler similarity.
fn as_written(q: &Run, l: &Run, jw: f64) -> f64 {
    similarity_given(&q.text, &l.text, jw, || (q.sound, l.sound))
}

/// Whether two parts share under half their letters: a respelling changes a
/// few letters, so such parts are not one re-spelled (but short words, and
/// consonants read from an abjad).
fn unlike_letters(q: &Run, l: &Run, context: Context) -> bool {
    let shared = (q.letters & l.letters).count_ones() * 2;
    let short = q.text.len().min(l.text.len()) <= 4;
    shared < q.letters.count_ones().min(l.letters.count_ones()) && !short && !context.abjad
}

/// How alike two parts are, and through which spelling, given how alike they are as written.
fn part_similarity(q: &Run, l: &Run, context: Context, written: f64) -> (f64, Spelling) {
    let mut best = (written, Spelling::AsWritten);
    if best.0 >= 0.97 || unlike_letters(q, l, context) {
        return best;
    }
    let (qs, ls) = (q.spellings(), l.spellings());
    let mut consider = |a: &str, b: &str, spelling: Spelling| {
        if a.is_empty() || b.is_empty() {
            return;
        }
        let s = word_similarity(a, b) * discount(spelling);
        if s > best.0 {
            best = (s, spelling);
        }
    };
    if qs.cyrillic != q.text || ls.cyrillic != l.text {
        consider(&qs.cyrillic, &ls.cyrillic, Spelling::CyrillicEnglish);
    }
    if qs.german != qs.cyrillic {
        consider(&qs.german, &ls.cyrillic, Spelling::CyrillicGerman);
    }
    if qs.french != qs.cyrillic {
        consider(&qs.french, &ls.cyrillic, Spelling::CyrillicFrench);
    }
    if qs.arabic != q.text || ls.arabic != l.text {
        consider(&qs.arabic, &ls.arabic, Spelling::Arabic);
    }
    if context.korean && (q.korean() != q.text || l.korean() != l.text) {
        consider(q.korean(), l.korean(), Spelling::Korean);
    }
    if context.abjad && q.abjad().len() >= 2 {
        consider(q.abjad(), l.abjad(), Spelling::Abjad);
    }
    best
}

/// What a comparison through a spelling counts, as a share of one as written.
fn discount(spelling: Spelling) -> f64 {
    match spelling {
        Spelling::AsWritten => 1.0,
        Spelling::Abjad => CONSONANTS_ONLY,
        _ => RESPELLED,
    }
}

/// Two parts of several words each are never paired; a part of several
/// words is paired only with one of about its length.
fn may_pair(q: &Run, l: &Run, context: Context) -> bool {
    let (a, b) = (q.words.len(), l.words.len());
    if a == 1 && b == 1 {
        return true;
    }
    if a > 1 && b > 1 {
        return false;
    }
    let about = |x: usize, y: usize| x.abs_diff(y) <= 2.max(x.max(y) / 4);
    let begins_alike = |a: &str, b: &str| a.as_bytes().first() == b.as_bytes().first();
    if about(q.text.len(), l.text.len()) {
        if begins_alike(&q.text, &l.text) {
            return true;
        }
        // a joined part is paired only when all but the same: not with a part of other letters
        if unlike_letters(q, l, context) {
            return false;
        }
        let (qs, ls) = (q.spellings(), l.spellings());
        if begins_alike(&qs.cyrillic, &ls.cyrillic) || begins_alike(&qs.german, &ls.cyrillic) || begins_alike(&qs.arabic, &ls.arabic) {
            return true;
        }
        if context.korean && begins_alike(q.korean(), l.korean()) {
            return true;
        }
    }
    context.abjad && begins_alike(q.abjad(), l.abjad()) && about(q.abjad().len(), l.abjad().len())
}

/// A pair of aligned parts.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Block {
    pub query: Range<usize>,
    pub listed: Range<usize>,
    pub similarity: f64,
    pub spelling: Spelling,
}

/// How two readings of names align.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Alignment {
    pub blocks: Vec<Block>,
    /// the query's weight covered, each part by its similarity (0 to 1)
    pub query_coverage: f64,
    /// the listed name's weight covered (0 to 1)
    pub listed_coverage: f64,
    /// every listed word (but particles and titles) found
    pub every_listed_found: bool,
    /// the listed words found appear in the query in the listed order, or
    /// that order turned round (`ROTENBERG, Arkady` and `Arkady Rotenberg`)
    pub in_order: bool,
    /// query words not found in the listed name (but particles and titles)
    pub extra_words: usize,
}

/// Aligns a reading of the query with a reading of a listed name.
#[cfg(test)]
pub(super) fn align(query: &[String], listed: &[String], context: Context) -> Alignment {
    align_parts(&Parts::new(query, true), &Parts::new(listed, false), context)
}

/// Aligns the parts of a reading of the query with those of a reading of a listed name.
pub(super) fn align_parts(query_parts: &Parts, listed_parts: &Parts, context: Context) -> Alignment {
    let (query, listed) = (query_parts.words, listed_parts.words);
    let (query_runs, listed_runs) = (&query_parts.runs, &listed_parts.runs);
    let single = |r: &&Run| r.words.len() == 1;
    // Jaro-Winkler of every pair of single words, once: the test below and the pairs share it
    let width = listed.len();
    let mut jw = alloc::vec![0.0f64; query.len() * width];
    for q in query_runs.iter().filter(single) {
        for l in listed_runs.iter().filter(single) {
            jw[q.words.start * width + l.words.start] = jaro_winkler(&q.text, &l.text);
        }
    }
    let written = |q: &Run, l: &Run| -> f64 {
        if q.words.len() == 1 && l.words.len() == 1 {
            as_written(q, l, jw[q.words.start * width + l.words.start])
        } else {
            word_similarity(&q.text, &l.text)
        }
    };
    // First the words as written: a listed name none of whose words is like one of the query's is weighed by
    // them alone, without the tables and the words read together, which cannot bring it near (most of the
    // candidates' names, whose aliases the store proposes with the entry).
    let related = context.abjad || jw.iter().any(|s| *s >= RELATED);
    let mut pairs: Vec<Block> = Vec::new();
    if !related {
        for q in query_runs.iter().filter(single) {
            for l in listed_runs.iter().filter(single) {
                let similarity = written(q, l);
                pairs.push(Block { query: q.words.clone(), listed: l.words.clone(), similarity, spelling: Spelling::AsWritten });
            }
        }
    }
    for q in query_runs.iter().filter(|_| related) {
        for l in listed_runs {
            if !may_pair(q, l, context) {
                continue;
            }
            let (similarity, spelling) = part_similarity(q, l, context, written(q, l));
            // a joined part must be close to count as one: otherwise its words are weighed alone
            if (q.words.len() > 1 || l.words.len() > 1) && similarity < JOINED * discount(spelling) {
                continue;
            }
            pairs.push(Block { query: q.words.clone(), listed: l.words.clone(), similarity, spelling });
        }
    }
    // the closest first; among equals, the one that reads more words together
    pairs.sort_by(|a, b| {
        b.similarity
            .total_cmp(&a.similarity)
            .then((b.query.len() + b.listed.len()).cmp(&(a.query.len() + a.listed.len())))
            .then(a.query.start.cmp(&b.query.start))
    });
    let (mut query_used, mut listed_used) = (alloc::vec![false; query.len()], alloc::vec![false; listed.len()]);
    let mut blocks = Vec::new();
    for pair in pairs {
        if pair.query.clone().any(|i| query_used[i]) || pair.listed.clone().any(|j| listed_used[j]) {
            continue;
        }
        pair.query.clone().for_each(|i| query_used[i] = true);
        pair.listed.clone().for_each(|j| listed_used[j] = true);
        blocks.push(pair);
    }
    let weigh = |words: &[String], range: &Range<usize>| -> f64 { words[range.clone()].iter().map(|w| part_weight(w)).sum() };
    let coverage = |words: &[String], range_of: &dyn Fn(&Block) -> Range<usize>| -> f64 {
        let total: f64 = words.iter().map(|w| part_weight(w)).sum();
        if total == 0.0 {
            return 0.0;
        }
        blocks.iter().map(|b| b.similarity * weigh(words, &range_of(b))).sum::<f64>() / total
    };
    let query_coverage = coverage(query, &|b: &Block| b.query.clone());
    let listed_coverage = coverage(listed, &|b: &Block| b.listed.clone());
    let found_at = |j: usize| blocks.iter().find(|b| b.listed.contains(&j) && b.similarity >= FOUND);
    let optional = |w: &String| is_optional(w);
    let every_listed_found = listed.iter().enumerate().all(|(j, w)| optional(w) || found_at(j).is_some());
    let positions: Vec<usize> = (0..listed.len()).filter_map(|j| found_at(j).map(|b| b.query.start)).collect();
    let descents = positions.iter().zip(positions.iter().cycle().skip(1)).filter(|(a, b)| b < a).count();
    let in_order = descents <= 1;
    let extra_words =
        query.iter().enumerate().filter(|(i, w)| !optional(w) && !blocks.iter().any(|b| b.query.contains(i) && b.similarity >= UNLIKE_WORD)).count();
    Alignment { blocks, query_coverage, listed_coverage, every_listed_found, in_order, extra_words }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    fn w(words: &[&str]) -> Vec<String> {
        words.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn joined_and_split_words_are_aligned() {
        let a = align(&w(&["kim", "jongun"]), &w(&["kim", "jong", "un"]), Context::default());
        assert_eq!((a.query_coverage, a.listed_coverage), (1.0, 1.0));
        let a = align(&w(&["hassan", "nasr", "allah"]), &w(&["nasrallah", "hassan"]), Context::default());
        assert_eq!((a.query_coverage, a.listed_coverage), (1.0, 1.0));
        // the twin: two different words are not one because their letters add up to a similar length
        let a = align(&w(&["kim", "jongil"]), &w(&["kim", "jong", "un"]), Context::default());
        assert!(a.listed_coverage < 0.9, "{a:?}");
    }

    #[test]
    fn added_words_are_left_over_and_the_order_is_read() {
        let a = align(&w(&["arkady", "romanovich", "rotenberg"]), &w(&["rotenberg", "arkady"]), Context::default());
        assert!(a.every_listed_found && a.in_order && a.extra_words == 1, "{a:?}");
        assert_eq!(a.listed_coverage, 1.0);
        let a = align(&w(&["rotenberg", "arkady", "smith"]), &w(&["rotenberg", "arkady", "romanovich"]), Context::default());
        assert!(!a.every_listed_found);
        // three listed words found in another order than the list's, turned or not
        let a = align(&w(&["arkady", "rotenberg", "romanovich"]), &w(&["rotenberg", "arkady", "romanovich"]), Context::default());
        assert!(!a.in_order, "{a:?}");
    }

    #[test]
    fn romanizations_are_read_through_their_tables() {
        let a = align(&w(&["jewgeni", "prigoschin"]), &w(&["prigozhin", "yevgeniy"]), Context::default());
        assert!(a.every_listed_found, "{a:?}");
        assert!(a.blocks.iter().any(|b| b.spelling == Spelling::CyrillicGerman));
        let korean = Context { korean: true, ..Context::default() };
        let a = align(&w(&["kim", "chong", "un"]), &w(&["kim", "jong", "un"]), korean);
        assert!(a.listed_coverage > 0.97, "{a:?}");
        // the twin: the Korean table applies only to a Korean name
        let a = align(&w(&["gim", "jeong", "eun"]), &w(&["kim", "jong", "un"]), Context::default());
        assert!(a.listed_coverage < FOUND, "{a:?}");
    }
}
