//! Match quality of production screening, measured through the public API
//! on loopback (the real server on SQLite, OFAC's SDN list of January 2022
//! imported, the production threshold), on a labelled set built here:
//!
//! - recall: real SDN individuals screened with their true date of birth and
//!   nationality, by variant of the name (exact, swapped order, dropped middle
//!   name, added diacritic, one transposed letter, a common transliteration);
//!   a hit counts only when its case names the individual's own entry;
//! - false positives: names that are on no list, with random dates of birth
//!   1950–2005: ordinary names from many locales, and common romanized
//!   Arabic, Persian and Russian names.
//!
//! The name lists are this project's own (common names of each locale, not
//! drawn from any list); every draw is seeded, so two runs screen the same.
//!
//! - evasion: the same individuals with the name written as no reader would
//!   tell apart from the listed one (issue #29): invisible characters (soft
//!   hyphen, zero-width characters, bidi controls, byte-order marks, variation
//!   selectors), decomposed accents, compatibility forms (full-width,
//!   mathematical letters), punctuation inside a word; recall by class.
//!
//! - false positives on an outside set (issue #29): common romanized names of
//!   Arabia/Persia, Russia, Turkey, Azerbaijan and Uzbekistan, given names
//!   drawn as often as they are common (Joerg Michael's `nam_dict.txt`, as
//!   PyPI `gender-guesser` ships it, GFDL) with surnames of the same region
//!   (Faker's person providers, PyPI `faker`, MIT): `common/romanized-names.tsv`,
//!   written by `common/romanized_names.py`; not the project's own;
//! - OFAC mode through the API (issue #29): each pair of OpenSanctions'
//!   fixture of OFAC's own Sanctions List Search scores
//!   (`rules/tests/data/ofac-sls-parity.csv`) that OFAC scored at 80 or more,
//!   searched with `GET /v1/admin/sanctions/search?mode=ofac` on OFAC's list
//!   (the fixture's names that the January 2022 list lacks added as entries
//!   of their own); a pair lands when its entry comes back within 5 points of
//!   OFAC's score, and is "not retrieved" when it does not come back at all.
//!
//! - variants (issue #45, part `variants`), on a server of each component's
//!   own with OFAC's list and the UN's consolidated list of October 2018
//!   (`conformance/data/un-consolidated-2018-10`, imported as
//!   `un-consolidated`, as `lists import --format un-xml` does); every
//!   listed person with their own date of birth and nationality, a hit
//!   counted only on their own entry (its OFAC or UN id). The tables of
//!   each class and their sources are `common/name_variants.rs`'s:
//!   - on the same 300 SDN individuals (and an `exact` control on this
//!     server): an added given name after the first given name, and after
//!     all of them (2+ given names): for Russian and Ukrainian nationals a
//!     patronymic of a common father's name (`-ovich`/`-ovna`,
//!     `-yevich`/`-yevna`; Ukrainian `-ovych`/`-ivna`) where the entry has
//!     none, else a common given name of the person's region (Arab, Persian,
//!     South Asian, Hispanic; English elsewhere, East Asia included), female
//!     where OFAC's remarks say `Gender Female`; an added surname of the
//!     region, hyphenated and spaced; joined words (the first two given
//!     names, the last two of 3+, the surname's words: `Alifarhan`,
//!     `Jongun`, `Alhassan`); a name split across the fields otherwise
//!     (the surname's leading words in `first_name`, the last given name in
//!     `last_name`); a white space or control character in the middle of
//!     the longest surname word, one class each (U+200A, U+2009, U+000B,
//!     U+0085, U+3000, U+00A0, U+2002, U+1680, U+2028, U+0007, U+001F);
//!   - romanization schemes, on every listed individual each applies to:
//!     for RU/UA/BY nationals (OFAC's and the UN's) the listed English
//!     romanization read back into Cyrillic (BGN/PCGN reversed) and written
//!     in the German (Duden) and in the French transcription; for KP
//!     nationals the names re-spelled syllable by syllable in the Revised
//!     Romanization and in the common South Korean spellings; for OFAC's
//!     individuals the Arabic variants `Abd al-X`/`Abdul X`/`Abdel X`,
//!     `al-`/`el-`, `ou`/`u` (Arab nationals) and `Nasr Allah`/`Nasrallah`
//!     (at most 300 each, evenly drawn); `exact` controls for the RU/UA/BY
//!     and KP persons;
//!   - other scripts: each UN individual's `NAME_ORIGINAL_SCRIPT` (Arabic,
//!     Cyrillic…), which the UN reader does not import (checked: a name
//!     imported among the entry's names is not screened), screened alone;
//!     and the RU/UA/BY persons' names in Cyrillic by the reverse table. The
//!     API refuses a script the lists are not read in (`422
//!     unreadable_name`): a refusal is counted as not found and listed;
//!   - false positives of the variants (`CGW_BENCH_VARIANT_FP_NAMES`,
//!     default 200 a set): the ordinary and the romanized names of the `fp`
//!     part drawn with two given names, screened with one (control), with
//!     two, and through each class above (added given name and surname,
//!     joined, split; the Arabic schemes where they apply); Russian names on
//!     no list (a common given name, a patronymic, a common surname) as
//!     written, in German, French and Cyrillic; any hit is a false positive.
//!
//! `cargo bench -p host-native --bench match_quality` (`CGW_BENCH_INDIVIDUALS`,
//! default 300; `CGW_BENCH_FP_NAMES`, default 1000 per set; `CGW_BENCH_SHOW_HITS`
//! prints each false positive with the entries it hit, and each miss and
//! refusal; `CGW_BENCH_PARTS`, a comma-separated choice of `recall`, `fp`,
//! `ofac`, `variants`, default all).
//! `CGW_BENCH_BASELINE_RULES=path/to/cgw_rules.wasm` screens everything a
//! second time, in the same run, through another component (e.g. the one
//! before a change: `git show REV:rules/cgw_rules.wasm > before.wasm`), each
//! on a server of its own, and prints both columns.

use std::time::Instant;

use gateway::auth::Environment;
use gateway::lists::{parse, ListEntry, ListFormat};
use gateway::{Config, Gateway};
use host_native::rules_engine::ComponentRules;
use host_native::{open_store, OsIds, SystemClock};
use rules::EntryKind;
use serde_json::{json, Value as Json};

mod common;
use common::Error;
#[path = "common/name_variants.rs"]
mod name_variants;
use name_variants::{Region, Who};

const OFAC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../conformance/data/ofac-sdn-2022-01");
/// The UN Security Council's consolidated list of October 2018 (its published XML).
const UN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../conformance/data/un-consolidated-2018-10/consolidated.xml");
/// OFAC's own scores for pairs of a query and a listed name (see `rules/tests/data/README.md`).
const SLS_PAIRS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../rules/tests/data/ofac-sls-parity.csv");
/// The outside set of common romanized names (Faker's, see `common/romanized_names.py`).
const OUTSIDE_NAMES: &str = include_str!("common/romanized-names.tsv");

/// Ordinary given names and surnames of many locales.
const ORDINARY_GIVEN: &[&str] = &[
    "Amanda",
    "Hannah",
    "James",
    "Oliver",
    "Sophie",
    "Lucas",
    "Emma",
    "Noah",
    "Chloe",
    "Daniel",
    "Laura",
    "Marco",
    "Giulia",
    "Pierre",
    "Camille",
    "Hans",
    "Katrin",
    "Sven",
    "Ingrid",
    "Piotr",
    "Agnieszka",
    "Joao",
    "Beatriz",
    "Carlos",
    "Lucia",
    "Kenji",
    "Yuki",
    "Wei",
    "Mei",
    "Min-jun",
    "Ji-woo",
    "Arjun",
    "Priya",
    "Chinedu",
    "Ngozi",
    "Mehmet",
    "Elif",
    "Bram",
    "Sanne",
    "Mateo",
];
const ORDINARY_SURNAMES: &[&str] = &[
    "Diaz",
    "Hall",
    "Smith",
    "Johnson",
    "Brown",
    "Taylor",
    "Wilson",
    "Martin",
    "Bernard",
    "Dubois",
    "Muller",
    "Schmidt",
    "Fischer",
    "Rossi",
    "Russo",
    "Ferrari",
    "Garcia",
    "Lopez",
    "Fernandez",
    "Silva",
    "Santos",
    "Nowak",
    "Kowalski",
    "Andersson",
    "Johansson",
    "Nielsen",
    "de Vries",
    "Jansen",
    "Tanaka",
    "Suzuki",
    "Wang",
    "Chen",
    "Kim",
    "Park",
    "Sharma",
    "Patel",
    "Okafor",
    "Adeyemi",
    "Yilmaz",
    "Kaya",
];
/// Common romanized Arabic, Persian and Russian given names and surnames.
const ROMANIZED_GIVEN: &[&str] = &[
    "Hassan", "Ali", "Mohammed", "Ahmed", "Ibrahim", "Omar", "Youssef", "Mahmoud", "Khalid", "Abdullah", "Mustafa", "Hussein", "Said", "Karim",
    "Tariq", "Reza", "Mehdi", "Hossein", "Amir", "Dmitry", "Sergei", "Alexei", "Ivan", "Vladimir", "Nikolai", "Andrei", "Mikhail", "Olga", "Fatima",
    "Aisha", "Maryam", "Zahra",
];
const ROMANIZED_SURNAMES: &[&str] = &[
    "Ali",
    "Hassan",
    "Ahmed",
    "Said",
    "Ibrahim",
    "Mohammed",
    "Hussein",
    "Khan",
    "Rahman",
    "Abdullah",
    "Karimi",
    "Hosseini",
    "Rezaei",
    "Mohammadi",
    "Ahmadi",
    "Ivanov",
    "Petrov",
    "Smirnov",
    "Kuznetsov",
    "Popov",
    "Sokolov",
    "Volkov",
    "Morozov",
    "Al-Hassan",
    "Al-Said",
];
const ORDINARY_NATIONALITIES: &[&str] = &["GB", "US", "FR", "DE", "IT", "ES", "PT", "PL", "SE", "NL", "JP", "CN", "KR", "IN", "NG", "TR", "BR"];
const ROMANIZED_NATIONALITIES: &[&str] = &["IQ", "SY", "EG", "IR", "RU", "SA", "YE", "LB", "AF", "PK"];

/// Common transliteration classes, tried in order; the first that applies makes the variant.
const TRANSLITERATIONS: &[(&str, &str)] = &[
    ("Muhammad", "Mohammed"),
    ("Mohammed", "Muhammad"),
    ("Mohamed", "Muhammad"),
    ("kh", "h"),
    ("j", "dj"),
    ("ou", "u"),
    ("u", "ou"),
    ("y", "i"),
    ("i", "y"),
];

/// A seeded xorshift.
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[(self.next() % from.len() as u64) as usize]
    }
    fn date_of_birth(&mut self) -> String {
        format!("{}-{:02}-{:02}", 1950 + self.next() % 56, 1 + self.next() % 12, 1 + self.next() % 28)
    }
}

fn title(word: &str) -> String {
    word.split(' ')
        .map(|w| {
            let mut chars = w.chars();
            chars.next().map_or(String::new(), |c| c.to_uppercase().chain(chars.flat_map(char::to_lowercase)).collect())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A listed individual with a full date of birth and a nationality, as (entry id, given, surname, dob, nationality).
fn listed_individuals(entries: &[ListEntry], count: usize) -> Vec<(String, String, String, String, String)> {
    let eligible = eligible_individuals(entries);
    let step = (eligible.len() / count.max(1)).max(1);
    eligible.into_iter().step_by(step).take(count).collect()
}

/// Every OFAC individual with a full date of birth, a nationality and a primary name `SURNAME, Given`, in list order.
fn eligible_individuals(entries: &[ListEntry]) -> Vec<(String, String, String, String, String)> {
    entries
        .iter()
        .filter(|e| e.kind == EntryKind::Individual)
        .filter(|e| e.dates_of_birth.iter().any(|d| d.len() == 10) && !e.nationalities.is_empty())
        .filter(|e| e.names.first().is_some_and(|n| n.contains(", ")))
        .filter_map(|e| {
            let (last, given) = e.names.first()?.split_once(", ")?;
            let dob = e.dates_of_birth.iter().find(|d| d.len() == 10)?.clone();
            Some((e.entity_id.clone(), title(given), title(last), dob, e.nationalities.first()?.clone()))
        })
        .collect()
}

/// The name variants of one individual, by class; a class that cannot apply is absent.
fn variants(given: &str, last: &str) -> Vec<(&'static str, String, String)> {
    let mut out = vec![("exact", given.to_string(), last.to_string()), ("swapped order", last.to_string(), given.to_string())];
    let given_words: Vec<&str> = given.split(' ').collect();
    if given_words.len() >= 2 {
        out.push(("dropped middle name", given_words[0].to_string(), last.to_string()));
    }
    if let Some(i) = last.find(['e', 'a']) {
        let accented = if &last[i..i + 1] == "e" { "é" } else { "á" };
        out.push(("added diacritic", given.to_string(), format!("{}{accented}{}", &last[..i], &last[i + 1..])));
    }
    // one transposed letter in the longest word of the surname
    let longest = last.split(' ').max_by_key(|w| w.len()).unwrap_or("");
    if longest.len() >= 5 && longest.is_ascii() {
        let mid = longest.len() / 2;
        let bytes = longest.as_bytes();
        if bytes[mid] != bytes[mid + 1] {
            let mut swapped = bytes.to_vec();
            swapped.swap(mid, mid + 1);
            let swapped = String::from_utf8(swapped).unwrap_or_default();
            out.push(("transposed letter", given.to_string(), last.replacen(longest, &swapped, 1)));
        }
    }
    for (from, to) in TRANSLITERATIONS {
        if last.contains(from) {
            out.push(("transliteration", given.to_string(), last.replacen(from, to, 1)));
            break;
        }
        if given.contains(from) {
            out.push(("transliteration", given.replacen(from, to, 1), last.to_string()));
            break;
        }
    }
    out
}

/// Writes `word` with `insert` after its first half.
fn split_by(word: &str, insert: &str) -> String {
    let chars: Vec<char> = word.chars().collect();
    let mid = chars.len() / 2;
    chars[..mid].iter().collect::<String>() + insert + &chars[mid..].iter().collect::<String>()
}

/// Each ASCII letter moved to another block by a fixed offset (full-width, mathematical bold).
fn shifted(text: &str, upper: u32, lower: u32) -> String {
    text.chars()
        .map(|c| match c {
            'A'..='Z' => char::from_u32(upper + (c as u32 - 'A' as u32)).unwrap_or(c),
            'a'..='z' => char::from_u32(lower + (c as u32 - 'a' as u32)).unwrap_or(c),
            _ => c,
        })
        .collect()
}

/// The evasion classes of issue #29: (class, first name, surname) as written.
fn evasions(given: &str, last: &str) -> Vec<(&'static str, String, String)> {
    // the longest word of the surname carries the insertion
    let longest = last.split(' ').max_by_key(|w| w.chars().count()).unwrap_or(last).to_string();
    let inside = |insert: &str| last.replacen(&longest, &split_by(&longest, insert), 1);
    let around = |open: &str, close: &str| format!("{open}{last}{close}");
    let mut out: Vec<(&'static str, String, String)> = vec![
        ("soft hyphen (U+00AD)", given.into(), inside("\u{ad}")),
        ("word joiner (U+2060)", given.into(), inside("\u{2060}")),
        ("zero-width space (U+200B)", given.into(), inside("\u{200b}")),
        ("zero-width non-joiner (U+200C)", given.into(), inside("\u{200c}")),
        ("zero-width joiner (U+200D)", given.into(), inside("\u{200d}")),
        ("left-to-right mark (U+200E)", given.into(), inside("\u{200e}")),
        ("right-to-left mark (U+200F)", given.into(), inside("\u{200f}")),
        ("bidi override (U+202E…U+202C)", given.into(), around("\u{202e}", "\u{202c}")),
        ("bidi isolate (U+2066…U+2069)", given.into(), around("\u{2066}", "\u{2069}")),
        ("byte-order mark in the first name", format!("\u{feff}{given}"), last.into()),
        ("byte-order mark in the surname", given.into(), inside("\u{feff}")),
        ("Mongolian vowel separator (U+180E)", given.into(), inside("\u{180e}")),
        ("variation selector (U+FE0F)", given.into(), inside("\u{fe0f}")),
        ("combining grapheme joiner (U+034F)", given.into(), inside("\u{34f}")),
        ("tag character (U+E0041)", given.into(), inside("\u{e0041}")),
        ("full-width, both names", shifted(given, 0xff21, 0xff41), shifted(last, 0xff21, 0xff41)),
        ("mathematical bold surname", given.into(), shifted(last, 0x1d400, 0x1d41a)),
        ("inner hyphen", given.into(), inside("-")),
        ("inner period", given.into(), inside(".")),
        ("inner underscore", given.into(), inside("_")),
    ];
    // a decomposed accent on the surname's first vowel after its first letter
    if let Some((i, c)) = last.char_indices().skip(1).find(|(_, c)| "aeiou".contains(*c)) {
        let at = i + c.len_utf8();
        out.push(("decomposed accent (U+0301)", given.into(), format!("{}\u{301}{}", &last[..at], &last[at..])));
    }
    out
}

/// One name of the outside set.
struct OutsideName {
    region: &'static str,
    gender: &'static str,
    part: &'static str,
    /// how common: given names drawn in proportion to it
    weight: u64,
    name: &'static str,
}

fn outside_names() -> Vec<OutsideName> {
    OUTSIDE_NAMES
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let mut f = l.split('\t');
            Some(OutsideName { region: f.next()?, gender: f.next()?, part: f.next()?, weight: f.next()?.parse().ok()?, name: f.next()? })
        })
        .collect()
}

/// One person of the outside set: a region in turn, a gender, a given name
/// drawn as often as it is common, a surname of that region (of the gender
/// where it has both), a nationality of the region.
fn outside_person(names: &[OutsideName], draw: &mut Draw, turn: usize) -> (&'static str, &'static str, &'static str) {
    const REGIONS: &[(&str, &[&str])] =
        &[("AR", &["SA", "EG", "IQ", "SY", "IR", "PK", "JO", "YE"]), ("RU", &["RU"]), ("TR", &["TR"]), ("AZ", &["AZ"]), ("UZ", &["UZ", "KZ"])];
    let (region, countries) = REGIONS[turn % REGIONS.len()];
    let gender = if draw.next().is_multiple_of(2) { "m" } else { "f" };
    let of = |part: &str| -> Vec<&OutsideName> {
        let fits: Vec<&OutsideName> =
            names.iter().filter(|n| n.region == region && n.part == part && (n.gender == gender || n.gender == "-")).collect();
        if fits.is_empty() {
            names.iter().filter(|n| n.region == region && n.part == part).collect()
        } else {
            fits
        }
    };
    let weighted = |from: Vec<&OutsideName>, draw: &mut Draw| -> &'static str {
        let total: u64 = from.iter().map(|n| n.weight).sum();
        let mut at = draw.next() % total.max(1);
        for n in &from {
            if at < n.weight {
                return n.name;
            }
            at -= n.weight;
        }
        from.last().map_or("", |n| n.name)
    };
    let given = weighted(of("given"), draw);
    let surname = weighted(of("surname"), draw);
    (given, surname, draw.pick(countries))
}

/// A line of a CSV file with quoted fields (no line breaks inside a field).
fn csv_fields(line: &str) -> Vec<String> {
    let (mut fields, mut field, mut quoted) = (Vec::new(), String::new(), false);
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(std::mem::take(&mut field)),
            c => field.push(c),
        }
    }
    fields.push(field);
    fields
}

/// OFAC's pairs scored at 80 or more: (query, listed name, OFAC's score).
fn sls_pairs() -> Result<Vec<(String, String, i64)>, Error> {
    let text = std::fs::read_to_string(SLS_PAIRS)?;
    Ok(text
        .lines()
        .skip(1)
        .filter_map(|l| {
            let f = csv_fields(l);
            Some((f.first()?.clone(), f.get(1)?.clone(), f.get(2)?.parse::<i64>().ok()?))
        })
        .filter(|p| p.2 >= 80)
        .collect())
}

/// OFAC's list with the fixture's names that it lacks added, one entry each.
fn with_pair_names(entries: &[ListEntry], pairs: &[(String, String, i64)]) -> Vec<ListEntry> {
    let known: std::collections::HashSet<String> = entries.iter().flat_map(|e| e.names.iter().map(|n| n.trim().to_uppercase())).collect();
    let mut out = entries.to_vec();
    let mut added = std::collections::HashSet::new();
    for (_, name, _) in pairs {
        let upper = name.trim().to_uppercase();
        if !known.contains(&upper) && added.insert(upper) {
            out.push(ListEntry {
                entity_id: format!("SLS-{}", added.len()),
                kind: EntryKind::Unknown,
                names: vec![name.clone()],
                dates_of_birth: vec![],
                nationalities: vec![],
                programs: String::new(),
                topic: rules::EntryTopic::Sanction,
            });
        }
    }
    out
}

/// One screening of the variants part (issue #45): its table, its class, the
/// entry it must hit (none for a name on no list), the request.
struct Probe {
    table: usize,
    class: String,
    entity: Option<String>,
    first: String,
    last: String,
    dob: String,
    nationality: String,
}

const VARIANT_TABLES: [&str; 4] = [
    "variants (issue #45): SDN individuals, true DOB and nationality, on OFAC + UN",
    "romanization schemes: listed individuals, true DOB and nationality, on OFAC + UN",
    "other scripts: listed individuals, true DOB and nationality, on OFAC + UN",
    "false positives of the variants: names on no list, random DOB 1950–2005, on OFAC + UN",
];

/// A listed person of the variants part: (entry id, given names, surname, dob, nationality).
type Listed = (String, String, String, String, String);

/// The UN individuals with a full date of birth and a nationality, as (entry id, first part, the other parts, dob, nationality).
fn un_people(un: &[name_variants::UnIndividual], un_entries: &[ListEntry]) -> Vec<Listed> {
    let by_id: std::collections::HashMap<&str, &ListEntry> = un_entries.iter().map(|e| (e.entity_id.as_str(), e)).collect();
    un.iter()
        .filter_map(|u| {
            let e = by_id.get(u.reference.as_str())?;
            let dob = e.dates_of_birth.iter().find(|d| d.len() == 10)?.clone();
            let nationality = e.nationalities.first()?.clone();
            let mut words: Vec<String> = u.parts.iter().map(|p| title(p)).collect();
            if words.len() == 1 {
                let split: Vec<String> = words[0].split(' ').map(str::to_string).collect();
                words = vec![split[..split.len().saturating_sub(1)].join(" "), split.last()?.clone()];
            }
            let (first, rest) = words.split_first()?;
            (!first.is_empty() && !rest.is_empty()).then(|| (u.reference.clone(), first.clone(), rest.join(" "), dob, nationality))
        })
        .collect()
}

/// Every probe of the variants part, and the lines that say to how many people each scheme applies.
fn variant_probes(
    entries: &[ListEntry],
    un_entries: &[ListEntry],
    un: &[name_variants::UnIndividual],
    female: &std::collections::HashSet<String>,
    individuals: usize,
    fp_names: usize,
) -> (Vec<Probe>, Vec<String>) {
    let by_id: std::collections::HashMap<&str, &ListEntry> = entries.iter().chain(un_entries).map(|e| (e.entity_id.as_str(), e)).collect();
    let mut probes = Vec::new();
    let mut notes = Vec::new();
    let push = |probes: &mut Vec<Probe>, table: usize, class: String, p: &Listed, first: String, last: String| {
        probes.push(Probe { table, class, entity: Some(p.0.clone()), first, last, dob: p.3.clone(), nationality: p.4.clone() })
    };
    // 1–5 on the bench's sample of SDN individuals
    for p in listed_individuals(entries, individuals) {
        let known = by_id.get(p.0.as_str()).map(|e| name_variants::words_of(&e.names)).unwrap_or_default();
        let who = Who { key: &p.0, given: &p.1, last: &p.2, region: name_variants::region(&p.4), female: female.contains(&p.0), known_words: &known };
        push(&mut probes, 0, "exact (control, on OFAC + UN)".into(), &p, p.1.clone(), p.2.clone());
        for (class, first, last) in name_variants::structural(&who).into_iter().chain(name_variants::spaced(&p.1, &p.2)) {
            push(&mut probes, 0, class.into(), &p, first, last);
        }
    }
    // 6: the romanization schemes, on every listed individual they apply to
    let ofac_all = eligible_individuals(entries);
    let un_all = un_people(un, un_entries);
    let of = |codes: &[&str]| -> (Vec<Listed>, usize, usize) {
        let o: Vec<Listed> = ofac_all.iter().filter(|p| codes.contains(&p.4.as_str())).cloned().collect();
        let u: Vec<Listed> = un_all.iter().filter(|p| codes.contains(&p.4.as_str())).cloned().collect();
        let (no, nu) = (o.len(), u.len());
        (o.into_iter().chain(u).collect(), no, nu)
    };
    let (slavic, so, su) = of(&["RU", "UA", "BY"]);
    let mut applied = [0usize; 3];
    for p in &slavic {
        push(&mut probes, 1, "exact (control): RU/UA/BY individuals".into(), p, p.1.clone(), p.2.clone());
        for (i, (class, f)) in [
            ("Russian: German (Duden) transcription", name_variants::german as fn(&str) -> String),
            ("Russian: French transcription", name_variants::french),
        ]
        .into_iter()
        .enumerate()
        {
            let (first, last) = (f(&p.1), f(&p.2));
            if first != p.1 || last != p.2 {
                applied[i] += 1;
                push(&mut probes, 1, class.into(), p, first, last);
            }
        }
        applied[2] += 1;
        push(
            &mut probes,
            2,
            "Cyrillic, by reverse transliteration (RU/UA/BY)".into(),
            p,
            name_variants::to_cyrillic(&p.1),
            name_variants::to_cyrillic(&p.2),
        );
    }
    notes.push(format!(
        "RU/UA/BY individuals with a full DOB: {} ({so} OFAC, {su} UN); German (Duden) applies to {}, French to {}, Cyrillic to {}",
        slavic.len(),
        applied[0],
        applied[1],
        applied[2]
    ));
    let (korean, ko, ku) = of(&["KP"]);
    let mut applied = [0usize; 2];
    for p in &korean {
        push(&mut probes, 1, "exact (control): KP individuals".into(), p, p.1.clone(), p.2.clone());
        for (i, (class, rr)) in [("Korean: Revised Romanization", true), ("Korean: South Korean common spellings", false)].into_iter().enumerate() {
            let (first, last) = (name_variants::korean(&p.1, rr), name_variants::korean(&p.2, rr));
            if first != p.1 || last != p.2 {
                applied[i] += 1;
                push(&mut probes, 1, class.into(), p, first, last);
            }
        }
    }
    notes.push(format!(
        "KP individuals with a full DOB: {} ({ko} OFAC, {ku} UN); Revised Romanization applies to {}, South Korean spellings to {}",
        korean.len(),
        applied[0],
        applied[1]
    ));
    for (scheme, class) in name_variants::ARABIC.iter().enumerate() {
        let fits: Vec<(&Listed, String, String)> = ofac_all
            .iter()
            .filter(|p| scheme != 2 || name_variants::region(&p.4) == Region::Arab)
            .filter_map(|p| {
                let first = name_variants::arabic(scheme, &p.1);
                let last = name_variants::arabic(scheme, &p.2);
                (first.is_some() || last.is_some()).then(|| (p, first.unwrap_or_else(|| p.1.clone()), last.unwrap_or_else(|| p.2.clone())))
            })
            .collect();
        let step = (fits.len() / individuals.max(1)).max(1);
        let taken: Vec<_> = fits.iter().step_by(step).take(individuals).collect();
        notes.push(format!("{class}: applies to {} OFAC individuals with a full DOB, {} screened", fits.len(), taken.len()));
        for (p, first, last) in taken {
            push(&mut probes, 1, class.to_string(), p, first.clone(), last.clone());
        }
    }
    // 7: the UN's names in their original script; the reader imports them as aliases (issue #45), and a name that is among its entry's names is not screened (it would meet itself)
    let un_by_id: std::collections::HashMap<&str, &Listed> = un_all.iter().map(|p| (p.0.as_str(), p)).collect();
    let (mut written, mut imported, mut single) = (0, 0, 0);
    for u in un {
        let (Some(p), Some(original)) = (un_by_id.get(u.reference.as_str()), u.original_script.first()) else { continue };
        written += 1;
        let names = by_id.get(u.reference.as_str()).map(|e| e.names.clone()).unwrap_or_default();
        if names.iter().any(|n| n.split_whitespace().collect::<Vec<_>>() == original.split_whitespace().collect::<Vec<_>>()) {
            imported += 1;
            continue;
        }
        let words: Vec<&str> = original.split(' ').collect();
        if words.len() < 2 {
            single += 1;
            continue;
        }
        let class = format!("UN original-script name: {}", name_variants::script_of(original));
        push(&mut probes, 2, class, p, words[..words.len() - 1].join(" "), words[words.len() - 1].to_string());
    }
    notes.push(format!(
        "UN individuals with a full DOB and an original-script name: {written}; {imported} of them imported among the entry's names (not screened), {single} of one word (not screened)"
    ));
    // false positives: the same transformations of names on no list
    let mut draw = Draw(0x45_2c9a_f13b_77d1);
    for (set, given, surnames, nationalities) in [
        ("ordinary", ORDINARY_GIVEN, ORDINARY_SURNAMES, ORDINARY_NATIONALITIES),
        ("romanized", ROMANIZED_GIVEN, ROMANIZED_SURNAMES, ROMANIZED_NATIONALITIES),
    ] {
        for n in 0..fp_names {
            let (g1, mut g2, last, dob, nationality) =
                (draw.pick(given), draw.pick(given), draw.pick(surnames), draw.date_of_birth(), draw.pick(nationalities));
            while g2 == g1 {
                g2 = draw.pick(given);
            }
            let two = format!("{g1} {g2}");
            let key = format!("fp-{set}-{n}");
            let known = name_variants::words_of(&[two.clone(), last.to_string()]);
            let who = Who { key: &key, given: &two, last, region: name_variants::region(nationality), female: false, known_words: &known };
            let mut cases: Vec<(String, String, String)> =
                vec![("one given name (control)".into(), g1.into(), last.into()), ("two given names".into(), two.clone(), last.into())];
            cases.extend(name_variants::structural(&who).into_iter().map(|(c, f, l)| (c.to_string(), f, l)));
            if set == "romanized" {
                for (scheme, class) in name_variants::ARABIC.iter().enumerate() {
                    let (f, l) = (name_variants::arabic(scheme, &two), name_variants::arabic(scheme, last));
                    if f.is_some() || l.is_some() {
                        cases.push((class.to_string(), f.unwrap_or_else(|| two.clone()), l.unwrap_or_else(|| last.to_string())));
                    }
                }
            }
            for (class, first, last) in cases {
                probes.push(Probe {
                    table: 3,
                    class: format!("{set}: {class}"),
                    entity: None,
                    first,
                    last,
                    dob: dob.clone(),
                    nationality: nationality.into(),
                });
            }
        }
    }
    // Russian names on no list (a common given name, a patronymic, a common surname) in each scheme
    const RUSSIAN_GIVEN: &[&str] = &["Dmitry", "Sergei", "Alexei", "Ivan", "Vladimir", "Nikolai", "Andrei", "Mikhail"];
    const RUSSIAN_SURNAMES: &[&str] = &["Ivanov", "Petrov", "Smirnov", "Kuznetsov", "Popov", "Sokolov", "Volkov", "Morozov"];
    let fathers: Vec<&str> = name_variants::RUSSIAN_PATRONYMICS.iter().map(|(_, m, _)| *m).collect();
    for _ in 0..fp_names {
        let given = format!("{} {}", draw.pick(RUSSIAN_GIVEN), draw.pick(&fathers));
        let (last, dob, nationality) = (draw.pick(RUSSIAN_SURNAMES), draw.date_of_birth(), draw.pick(&["RU", "RU", "UA", "BY"]));
        for (class, first, surname) in [
            ("Russian: as written (control)", given.clone(), last.to_string()),
            ("Russian: German (Duden) transcription", name_variants::german(&given), name_variants::german(last)),
            ("Russian: French transcription", name_variants::french(&given), name_variants::french(last)),
            ("Russian: Cyrillic", name_variants::to_cyrillic(&given), name_variants::to_cyrillic(last)),
        ] {
            probes.push(Probe {
                table: 3,
                class: class.into(),
                entity: None,
                first,
                last: surname,
                dob: dob.clone(),
                nationality: nationality.into(),
            });
        }
    }
    (probes, notes)
}

/// The OFAC entries whose remarks say `Gender Female`.
fn female_entries() -> Result<std::collections::HashSet<String>, Error> {
    let text = String::from_utf8_lossy(&std::fs::read(format!("{OFAC}/sdn.csv"))?).into_owned();
    Ok(text
        .lines()
        .map(csv_fields)
        .filter(|f| f.get(11).is_some_and(|r| r.contains("Gender Female")))
        .filter_map(|f| f.first().map(|id| id.trim().to_string()))
        .collect())
}

struct Api {
    client: reqwest::Client,
    base: String,
    key: String,
    admin: String,
    screened: usize,
    /// screenings answered 503 (the rules' deadline on a busy machine) and asked again
    faults: usize,
}

impl Api {
    /// Screens one person; answers the entity ids its case names (empty when clear).
    async fn screen(&mut self, first: &str, last: &str, dob: &str, nationality: &str) -> Result<Vec<String>, Error> {
        self.screen_or_refusal(first, last, dob, nationality).await?.map_err(|code| format!("screening refused: {code}").into())
    }

    /// [`Api::screen`], with a request the API refuses (4xx: `unreadable_name`, `invalid_field`) answered as its status and code.
    async fn screen_or_refusal(&mut self, first: &str, last: &str, dob: &str, nationality: &str) -> Result<Result<Vec<String>, String>, Error> {
        self.screened += 1;
        let body = json!({ "user_id": format!("q-{}", self.screened), "first_name": first, "last_name": last, "date_of_birth": dob,
                           "nationality": nationality, "email": format!("q{}@example.com", self.screened) });
        // A call the rules did not answer within their deadline (503, a busy machine) is asked again, and
        // counted: an answer that is not a screening is never read as a clear one.
        let mut tries = 0;
        let answer: Json = loop {
            let response = self.client.post(format!("{}/v1/sanctions/screen", self.base)).bearer_auth(&self.key).json(&body).send().await?;
            let status = response.status();
            let answer: Json = response.json().await?;
            if status.is_success() {
                break answer;
            }
            if status.is_client_error() && ![409, 429].contains(&status.as_u16()) {
                return Ok(Err(format!("{} {}", status.as_u16(), answer["error"].as_str().unwrap_or("?"))));
            }
            tries += 1;
            self.faults += 1;
            if status.as_u16() != 503 || tries >= 5 {
                return Err(format!("screening answered {status}: {answer}").into());
            }
        };
        let Some(case_id) = answer["case_id"].as_str() else { return Ok(Ok(Vec::new())) };
        let case: Json =
            self.client.get(format!("{}/v1/admin/sanctions/cases/{case_id}", self.base)).bearer_auth(&self.admin).send().await?.json().await?;
        Ok(Ok(case["matches"].as_array().map(|m| m.iter().filter_map(|m| m["entity_id"].as_str().map(str::to_string)).collect()).unwrap_or_default()))
    }
}

impl Api {
    /// An analyst's OFAC-mode search: the best score (0 to 100) of an entry
    /// that has `listed` among its names, none when no such entry comes back.
    async fn ofac_score(&mut self, query: &str, listed: &str) -> Result<Option<i64>, Error> {
        self.screened += 1;
        let answer: Json = self
            .client
            .get(format!("{}/v1/admin/sanctions/search", self.base))
            .query(&[("name", query), ("mode", "ofac"), ("limit", "100")])
            .bearer_auth(&self.admin)
            .send()
            .await?
            .json()
            .await?;
        let results = answer["results"].as_array().ok_or_else(|| format!("no results for {query}: {answer}"))?;
        let has = |r: &Json| {
            let primary = r["primary_name"].as_str().into_iter();
            let aliases = r["aliases"].as_array().into_iter().flatten().filter_map(Json::as_str);
            primary.chain(aliases).any(|n| n.trim().eq_ignore_ascii_case(listed.trim()))
        };
        Ok(results.iter().filter(|r| has(r)).filter_map(|r| r["ofac"]["score"].as_i64()).max())
    }
}

/// A server on loopback screening through `rules`, its production with
/// OFAC's list; a tenant's key, and the admin key that reads its cases.
async fn start(dir: &std::path::Path, label: &str, rules: ComponentRules, entries: Vec<ListEntry>) -> Result<Api, Error> {
    start_with(dir, label, rules, vec![("ofac-sdn", ListFormat::OfacCsv, entries)]).await
}

/// [`start`] with the given lists imported, each as its source.
async fn start_with(dir: &std::path::Path, label: &str, rules: ComponentRules, lists: Vec<(&str, ListFormat, Vec<ListEntry>)>) -> Result<Api, Error> {
    let database = format!("sqlite://{}", dir.join(format!("{label}.db")).display());
    let gateway = Gateway::new(open_store(&database).await?, Box::new(rules), Box::new(SystemClock), Box::new(OsIds), Config::default());
    gateway.migrate().await?;
    for (source, format, entries) in lists {
        gateway::lists::import(&gateway, Environment::Production, source, format, entries, "bench")
            .await
            .map_err(|e| format!("{}: {}", e.code, e.message))?;
    }
    let admin = gateway.create_admin_key(Environment::Production).await?;
    let gateway = std::sync::Arc::new(gateway);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let base = format!("http://{}", listener.local_addr()?);
    tokio::spawn(host_native::server::serve(listener, gateway.clone(), std::future::pending()));
    tokio::spawn(host_native::webhooks::decision_log_loop(gateway, std::time::Duration::from_millis(200)));
    let client = reqwest::Client::new();
    let tenant: Json = client
        .post(format!("{base}/v1/admin/tenants"))
        .bearer_auth(&admin)
        .json(&json!({ "name": "quality", "environment": "production", "rate_limit_per_minute": 1_000_000 }))
        .send()
        .await?
        .json()
        .await?;
    let key = tenant["api_key"].as_str().ok_or("no api key")?.to_string();
    Ok(Api { client, base, key, admin, screened: 0, faults: 0 })
}

/// Per row, the screened count and the hits of each component.
type Rows = Vec<(String, usize, Vec<usize>)>;

fn count(rows: &mut Rows, row: &str, versions: usize, at: usize, found: bool) {
    let i = match rows.iter().position(|(r, ..)| r == row) {
        Some(i) => i,
        None => {
            rows.push((row.to_string(), 0, vec![0; versions]));
            rows.len() - 1
        }
    };
    if at == 0 {
        rows[i].1 += 1;
    }
    rows[i].2[at] += usize::from(found);
}

fn print(title: &str, labels: &[String], rows: &Rows, percent_of_hits: bool) {
    if rows.is_empty() {
        // a part not run
        return;
    }
    let heads: Vec<String> = labels.iter().map(|l| format!("{l} | {l} %")).collect();
    println!("| {title} | screened | {} |", heads.join(" | "));
    println!("|---|---|{}", "---|---|".repeat(labels.len()));
    for (row, screened, hits) in rows {
        let cells: Vec<String> = hits
            .iter()
            .map(|h| {
                let share = 100.0 * *h as f64 / (*screened).max(1) as f64;
                if percent_of_hits {
                    format!("{h} | {share:.2}%")
                } else {
                    format!("{h} | {share:.1}%")
                }
            })
            .collect();
        println!("| {row} | {screened} | {} |", cells.join(" | "));
    }
    println!();
}

async fn run() -> Result<(), Error> {
    let individuals: usize = std::env::var("CGW_BENCH_INDIVIDUALS").ok().and_then(|s| s.parse().ok()).unwrap_or(300);
    let fp_names: usize = std::env::var("CGW_BENCH_FP_NAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(1000);
    let show = std::env::var_os("CGW_BENCH_SHOW_HITS").is_some();
    let dir = tempfile::tempdir()?;
    let entries = parse::ofac(&std::fs::read(format!("{OFAC}/sdn.csv"))?, Some(&std::fs::read(format!("{OFAC}/alt.csv"))?))?;
    let people = listed_individuals(&entries, individuals);
    // the baseline first (when given), then the embedded component
    let mut components = Vec::new();
    if let Ok(path) = std::env::var("CGW_BENCH_BASELINE_RULES") {
        components.push(("before".to_string(), ComponentRules::load(std::path::Path::new(&path))?));
    }
    components.push(((if components.is_empty() { "this build" } else { "after" }).to_string(), ComponentRules::embedded()?));
    let mut labels = Vec::new();
    let mut apis = Vec::new();
    for (label, rules) in components {
        println!("{label}: rules {}", gateway::ports::Rules::identity(&rules).component_sha256);
        apis.push(start(dir.path(), &label.replace(' ', "-"), rules, entries.clone()).await?);
        labels.push(label);
    }
    let versions = apis.len();

    let parts = std::env::var("CGW_BENCH_PARTS").unwrap_or_else(|_| "recall,fp,ofac,variants".into());
    let part = |name: &str| parts.split(',').any(|p| p.trim() == name);
    let (mut recall, mut evasion, mut fp, mut ofac): (Rows, Rows, Rows, Rows) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let outside = outside_names();
    let started = Instant::now();
    for (at, api) in apis.iter_mut().enumerate() {
        for (entity, given, last, dob, nationality) in people.iter().filter(|_| part("recall")) {
            for (rows, cases) in [(&mut recall, variants(given, last)), (&mut evasion, evasions(given, last))] {
                for (class, first, surname) in cases {
                    let matched = api.screen(&first, &surname, dob, nationality).await?;
                    let found = matched.contains(entity);
                    if !found && show {
                        println!("{}: missed ({class}): {first:?} {surname:?} {dob} {nationality}, entry {entity} -> {matched:?}", labels[at]);
                    }
                    count(rows, class, versions, at, found);
                }
            }
        }
        if !part("fp") {
            continue;
        }
        // False positives: any hit on a name on no list.
        let mut draw = Draw(0x9e37_79b9_7f4a_7c15);
        for (set, given, surnames, nationalities) in [
            ("ordinary names of many locales", ORDINARY_GIVEN, ORDINARY_SURNAMES, ORDINARY_NATIONALITIES),
            ("common romanized Arabic, Persian and Russian names", ROMANIZED_GIVEN, ROMANIZED_SURNAMES, ROMANIZED_NATIONALITIES),
        ] {
            for _ in 0..fp_names {
                let (first, last, dob, nationality) = (draw.pick(given), draw.pick(surnames), draw.date_of_birth(), draw.pick(nationalities));
                let matched = api.screen(first, last, &dob, nationality).await?;
                if !matched.is_empty() && show {
                    println!("{}: false positive: {first} {last} {dob} {nationality} -> {matched:?}", labels[at]);
                }
                count(&mut fp, set, versions, at, !matched.is_empty());
            }
        }
        // The outside set: Faker's romanized names, not the project's own.
        let mut draw = Draw(0x51_7cc1_b727_220a);
        for turn in 0..fp_names {
            let (first, last, nationality) = outside_person(&outside, &mut draw, turn);
            let dob = draw.date_of_birth();
            let matched = api.screen(first, last, &dob, nationality).await?;
            if !matched.is_empty() && show {
                println!("{}: false positive (outside set): {first} {last} {dob} {nationality} -> {matched:?}", labels[at]);
            }
            count(&mut fp, "outside set: common romanized names (nam_dict given names, Faker surnames)", versions, at, !matched.is_empty());
        }
    }
    // OFAC mode through the API, on a server of each component's own with the fixture's missing names added.
    if part("ofac") {
        let pairs = sls_pairs()?;
        let listed = with_pair_names(&entries, &pairs);
        println!("OFAC mode: {} pairs OFAC scored at 80 or more; {} of their names added to the list", pairs.len(), listed.len() - entries.len());
        for row in ["within 5 points", "retrieved, more than 5 points off", "not retrieved"] {
            ofac.push((row.to_string(), 0, vec![0; versions]));
        }
        let mut components = Vec::new();
        if let Ok(path) = std::env::var("CGW_BENCH_BASELINE_RULES") {
            components.push(ComponentRules::load(std::path::Path::new(&path))?);
        }
        components.push(ComponentRules::embedded()?);
        for (at, rules) in components.into_iter().enumerate() {
            let mut api = start(dir.path(), &format!("ofac-{at}"), rules, listed.clone()).await?;
            for (query, name, expected) in &pairs {
                let got = api.ofac_score(query, name).await?;
                let row = match got {
                    None => "not retrieved",
                    Some(score) if (score - expected).abs() <= 5 => "within 5 points",
                    Some(_) => "retrieved, more than 5 points off",
                };
                if row != "within 5 points" && show {
                    println!("{}: OFAC pair {row}: {query:?} / {name:?}: OFAC {expected}, here {got:?}", labels[at]);
                }
                count(&mut ofac, row, versions, at, true);
                for other in ["within 5 points", "retrieved, more than 5 points off", "not retrieved"] {
                    if other != row {
                        count(&mut ofac, other, versions, at, false);
                    }
                }
            }
            apis[at].screened += api.screened;
        }
    }
    // The variants of issue #45, on a server of each component's own with OFAC's and the UN's lists.
    let mut variant_rows: Vec<Rows> = vec![Vec::new(); VARIANT_TABLES.len()];
    // per class and answer, the refusals of each component
    let mut refused: Vec<(String, Vec<usize>)> = Vec::new();
    if part("variants") {
        let xml = std::fs::read_to_string(UN)?;
        let un_entries = parse::un(xml.as_bytes())?;
        let un = name_variants::un_individuals(&xml);
        let variant_fp: usize = std::env::var("CGW_BENCH_VARIANT_FP_NAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(200);
        let (probes, notes) = variant_probes(&entries, &un_entries, &un, &female_entries()?, individuals, variant_fp);
        for note in &notes {
            println!("variants: {note}");
        }
        println!("variants: {} probes a component, the UN list of {} entries imported beside OFAC's", probes.len(), un_entries.len());
        // the rows in the order of the classes (`name_variants::ORDER`), then as they come
        let mut classes: Vec<(usize, &str)> = Vec::new();
        for p in &probes {
            if !classes.contains(&(p.table, p.class.as_str())) {
                classes.push((p.table, p.class.as_str()));
            }
        }
        // by set (the false positives' `set: class`), controls first, then the structural classes in
        // order, then the others as they came
        let group = |class: &str| match name_variants::ORDER.iter().position(|o| class == *o || class.ends_with(&format!(": {o}"))) {
            _ if class.contains("(control") || class.ends_with(": two given names") => 0,
            Some(r) => 1 + r,
            None => 100,
        };
        let set_of =
            |table: usize, class: &str| if table == 3 { class.split_once(": ").map_or("", |(set, _)| set).to_string() } else { String::new() };
        let mut sets: Vec<String> = Vec::new();
        for (table, class) in &classes {
            let set = set_of(*table, class);
            if !sets.contains(&set) {
                sets.push(set);
            }
        }
        let mut ranked: Vec<(usize, usize, usize, usize, &str)> = classes
            .iter()
            .enumerate()
            .map(|(i, (table, class))| {
                let set = sets.iter().position(|s| *s == set_of(*table, class)).unwrap_or(0);
                (*table, set, group(class), i, *class)
            })
            .collect();
        ranked.sort();
        for (table, _, _, _, class) in ranked {
            variant_rows[table].push((class.to_string(), 0, vec![0; versions]));
        }
        let mut components = Vec::new();
        if let Ok(path) = std::env::var("CGW_BENCH_BASELINE_RULES") {
            components.push(ComponentRules::load(std::path::Path::new(&path))?);
        }
        components.push(ComponentRules::embedded()?);
        for (at, rules) in components.into_iter().enumerate() {
            let lists = vec![("ofac-sdn", ListFormat::OfacCsv, entries.clone()), ("un-consolidated", ListFormat::UnXml, un_entries.clone())];
            let mut api = start_with(dir.path(), &format!("variants-{at}"), rules, lists).await?;
            let begun = Instant::now();
            for p in &probes {
                let answer = api.screen_or_refusal(&p.first, &p.last, &p.dob, &p.nationality).await?;
                let matched = answer.as_ref().cloned().unwrap_or_default();
                let found = match &p.entity {
                    Some(entity) => matched.contains(entity),
                    None => !matched.is_empty(),
                };
                if let Err(code) = &answer {
                    let row = format!("{}: {code}", p.class);
                    let i = refused.iter().position(|(r, _)| *r == row).unwrap_or_else(|| {
                        refused.push((row, vec![0; versions]));
                        refused.len() - 1
                    });
                    refused[i].1[at] += 1;
                }
                if show {
                    let what = match (&p.entity, &answer) {
                        (_, Err(code)) => Some(format!("refused {code}")),
                        (Some(_), Ok(_)) if !found => Some("missed".to_string()),
                        (None, Ok(_)) if found => Some("false positive".to_string()),
                        _ => None,
                    };
                    if let Some(what) = what {
                        let entry = p.entity.as_deref().unwrap_or("-");
                        println!(
                            "{}: variant {what} ({}): {:?} {:?} {} {}, entry {entry} -> {matched:?}",
                            labels[at], p.class, p.first, p.last, p.dob, p.nationality
                        );
                    }
                }
                count(&mut variant_rows[p.table], &p.class, versions, at, found);
            }
            println!("{}: the variants part took {:.1} s ({} screenings)", labels[at], begun.elapsed().as_secs_f64(), probes.len());
            apis[at].screened += api.screened;
            apis[at].faults += api.faults;
        }
    }
    let screened: usize = apis.iter().map(|a| a.screened).sum();
    for (api, label) in apis.iter().zip(&labels) {
        println!("{label}: {} screenings answered 503 (the rules' deadline) and were asked again", api.faults);
    }
    let per_screening_ms = started.elapsed().as_secs_f64() * 1e3 / screened.max(1) as f64;

    print("recall: SDN individuals, true DOB and nationality", &labels, &recall, false);
    print("evasion recall: the same individuals, the name written with", &labels, &evasion, false);
    print("false positives: names on no list, random DOB 1950–2005", &labels, &fp, true);
    print("OFAC mode through the API: OFAC's pairs scored 80 or more, by outcome", &labels, &ofac, false);
    for (rows, title) in variant_rows.iter().zip(VARIANT_TABLES) {
        if !rows.is_empty() {
            print(title, &labels, rows, title.starts_with("false positives"));
        }
    }
    if !refused.is_empty() {
        println!("| refused by the API (a 4xx answer, counted as not found): class: answer | {} |", labels.join(" | "));
        println!("|---|{}", "---|".repeat(labels.len()));
        for (row, counts) in &refused {
            println!("| {row} | {} |", counts.iter().map(usize::to_string).collect::<Vec<_>>().join(" | "));
        }
        println!();
    }
    let at_goal = |at: usize| evasion.iter().filter(|(_, n, hits)| hits[at] as f64 >= 0.98 * *n as f64).count();
    for (at, label) in labels.iter().enumerate() {
        println!("{label}: {} of {} evasion classes at ≥ 98% recall", at_goal(at), evasion.len());
    }
    println!(
        "\n{screened} screenings through the API at the production threshold, {per_screening_ms:.2} ms each on average (a hit adds the case read)"
    );
    Ok(())
}

fn main() {
    common::main_with(run());
}
