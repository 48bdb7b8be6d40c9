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
//! `cargo bench -p host-native --bench match_quality` (`CGW_BENCH_INDIVIDUALS`,
//! default 300; `CGW_BENCH_FP_NAMES`, default 1000 per set; `CGW_BENCH_SHOW_HITS`
//! prints each false positive with the entries it hit, and each miss;
//! `CGW_BENCH_PARTS`, a comma-separated choice of `recall`, `fp`, `ofac`, default all).
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

const OFAC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../conformance/data/ofac-sdn-2022-01");
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
    let eligible: Vec<&ListEntry> = entries
        .iter()
        .filter(|e| e.kind == EntryKind::Individual)
        .filter(|e| e.dates_of_birth.iter().any(|d| d.len() == 10) && !e.nationalities.is_empty())
        .filter(|e| e.names.first().is_some_and(|n| n.contains(", ")))
        .collect();
    let step = (eligible.len() / count.max(1)).max(1);
    eligible
        .iter()
        .step_by(step)
        .take(count)
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
            tries += 1;
            self.faults += 1;
            if status.as_u16() != 503 || tries >= 5 {
                return Err(format!("screening answered {status}: {answer}").into());
            }
        };
        let Some(case_id) = answer["case_id"].as_str() else { return Ok(Vec::new()) };
        let case: Json =
            self.client.get(format!("{}/v1/admin/sanctions/cases/{case_id}", self.base)).bearer_auth(&self.admin).send().await?.json().await?;
        Ok(case["matches"].as_array().map(|m| m.iter().filter_map(|m| m["entity_id"].as_str().map(str::to_string)).collect()).unwrap_or_default())
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
    let database = format!("sqlite://{}", dir.join(format!("{label}.db")).display());
    let gateway = Gateway::new(open_store(&database).await?, Box::new(rules), Box::new(SystemClock), Box::new(OsIds), Config::default());
    gateway.migrate().await?;
    gateway::lists::import(&gateway, Environment::Production, "ofac-sdn", ListFormat::OfacCsv, entries, "bench")
        .await
        .map_err(|e| format!("{}: {}", e.code, e.message))?;
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

    let parts = std::env::var("CGW_BENCH_PARTS").unwrap_or_else(|_| "recall,fp,ofac".into());
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
    let screened: usize = apis.iter().map(|a| a.screened).sum();
    for (api, label) in apis.iter().zip(&labels) {
        println!("{label}: {} screenings answered 503 (the rules' deadline) and were asked again", api.faults);
    }
    let per_screening_ms = started.elapsed().as_secs_f64() * 1e3 / screened.max(1) as f64;

    print("recall: SDN individuals, true DOB and nationality", &labels, &recall, false);
    print("evasion recall: the same individuals, the name written with", &labels, &evasion, false);
    print("false positives: names on no list, random DOB 1950–2005", &labels, &fp, true);
    print("OFAC mode through the API: OFAC's pairs scored 80 or more, by outcome", &labels, &ofac, false);
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
