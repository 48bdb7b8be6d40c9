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
//! `cargo bench -p host-native --bench match_quality` (`CGW_BENCH_INDIVIDUALS`,
//! default 300; `CGW_BENCH_FP_NAMES`, default 1000 per set; `CGW_BENCH_SHOW_HITS`
//! prints each false positive with the entries it hit, and each miss).

use std::time::Instant;

use gateway::auth::Environment;
use gateway::lists::{parse, ListEntry, ListFormat};
use gateway::{Config, Gateway};
use host_native::rules_engine::ComponentRules;
use host_native::{open_store, OsIds, SystemClock};
use rules::EntryKind;
use serde_json::{json, Value as Json};

mod common;
use common::{start_gateway_with, Error};

const OFAC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../conformance/data/ofac-sdn-2022-01");

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

struct Api {
    client: reqwest::Client,
    base: String,
    key: String,
    admin: String,
    screened: usize,
}

impl Api {
    /// Screens one person; answers the entity ids its case names (empty when clear).
    async fn screen(&mut self, first: &str, last: &str, dob: &str, nationality: &str) -> Result<Vec<String>, Error> {
        self.screened += 1;
        let body = json!({ "user_id": format!("q-{}", self.screened), "first_name": first, "last_name": last, "date_of_birth": dob,
                           "nationality": nationality, "email": format!("q{}@example.com", self.screened) });
        let answer: Json =
            self.client.post(format!("{}/v1/sanctions/screen", self.base)).bearer_auth(&self.key).json(&body).send().await?.json().await?;
        let Some(case_id) = answer["case_id"].as_str() else { return Ok(Vec::new()) };
        let case: Json =
            self.client.get(format!("{}/v1/admin/sanctions/cases/{case_id}", self.base)).bearer_auth(&self.admin).send().await?.json().await?;
        Ok(case["matches"].as_array().map(|m| m.iter().filter_map(|m| m["entity_id"].as_str().map(str::to_string)).collect()).unwrap_or_default())
    }
}

async fn run() -> Result<(), Error> {
    let individuals: usize = std::env::var("CGW_BENCH_INDIVIDUALS").ok().and_then(|s| s.parse().ok()).unwrap_or(300);
    let fp_names: usize = std::env::var("CGW_BENCH_FP_NAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(1000);
    let dir = tempfile::tempdir()?;
    let database = format!("sqlite://{}", dir.path().join("quality.db").display());
    let (addr, _) = start_gateway_with(&database, false, Config::default()).await?;
    let importer =
        Gateway::new(open_store(&database).await?, Box::new(ComponentRules::embedded()?), Box::new(SystemClock), Box::new(OsIds), Config::default());
    importer.migrate().await?;
    let entries = parse::ofac(&std::fs::read(format!("{OFAC}/sdn.csv"))?, Some(&std::fs::read(format!("{OFAC}/alt.csv"))?))?;
    let people = listed_individuals(&entries, individuals);
    importer
        .import_list(Environment::Production, "ofac-sdn", ListFormat::OfacCsv, entries, "bench")
        .await
        .map_err(|e| format!("{}: {}", e.code, e.message))?;
    let admin = importer.create_admin_key(Environment::Production).await?;
    let client = reqwest::Client::new();
    let base = format!("http://{addr}");
    let tenant: Json = client
        .post(format!("{base}/v1/admin/tenants"))
        .bearer_auth(&admin)
        .json(&json!({ "name": "quality", "environment": "production", "rate_limit_per_minute": 1_000_000 }))
        .send()
        .await?
        .json()
        .await?;
    let key = tenant["api_key"].as_str().ok_or("no api key")?.to_string();
    let mut api = Api { client, base, key, admin, screened: 0 };

    // Recall by class: (class, screened, found the right entry).
    let mut recall: Vec<(&str, usize, usize)> = Vec::new();
    let started = Instant::now();
    for (entity, given, last, dob, nationality) in &people {
        for (class, first, surname) in variants(given, last) {
            let matched = api.screen(&first, &surname, dob, nationality).await?;
            let found = matched.contains(entity);
            if !found && std::env::var_os("CGW_BENCH_SHOW_HITS").is_some() {
                println!("missed ({class}): {first} {surname} {dob} {nationality}, entry {entity} -> {matched:?}");
            }
            match recall.iter_mut().find(|(c, ..)| *c == class) {
                Some(row) => {
                    row.1 += 1;
                    row.2 += usize::from(found);
                }
                None => recall.push((class, 1, usize::from(found))),
            }
        }
    }
    // False positives: any hit on a name on no list.
    let mut draw = Draw(0x9e37_79b9_7f4a_7c15);
    let mut fp = Vec::new();
    for (set, given, surnames, nationalities) in [
        ("ordinary names of many locales", ORDINARY_GIVEN, ORDINARY_SURNAMES, ORDINARY_NATIONALITIES),
        ("common romanized Arabic, Persian and Russian names", ROMANIZED_GIVEN, ROMANIZED_SURNAMES, ROMANIZED_NATIONALITIES),
    ] {
        let mut hits = 0;
        for _ in 0..fp_names {
            let (first, last, dob, nationality) = (draw.pick(given), draw.pick(surnames), draw.date_of_birth(), draw.pick(nationalities));
            let matched = api.screen(first, last, &dob, nationality).await?;
            if !matched.is_empty() && std::env::var_os("CGW_BENCH_SHOW_HITS").is_some() {
                println!("false positive: {first} {last} {dob} {nationality} -> {matched:?}");
            }
            hits += usize::from(!matched.is_empty());
        }
        fp.push((set, fp_names, hits));
    }
    let per_screening_ms = started.elapsed().as_secs_f64() * 1e3 / api.screened.max(1) as f64;

    println!("| recall: SDN individuals, true DOB and nationality | screened | right entry found | recall |");
    println!("|---|---|---|---|");
    for (class, screened, found) in &recall {
        println!("| {class} | {screened} | {found} | {:.1}% |", 100.0 * *found as f64 / (*screened).max(1) as f64);
    }
    println!("\n| false positives: names on no list, random DOB 1950–2005 | screened | hits | rate |");
    println!("|---|---|---|---|");
    for (set, screened, hits) in &fp {
        println!("| {set} | {screened} | {hits} | {:.2}% |", 100.0 * *hits as f64 / (*screened).max(1) as f64);
    }
    println!(
        "\n{} screenings through the API at the production threshold, {per_screening_ms:.2} ms each on average (a hit adds the case read)",
        api.screened
    );
    Ok(())
}

fn main() {
    common::main_with(run());
}
