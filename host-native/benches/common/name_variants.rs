//! The name variants of issue #45 for `match_quality.rs`: the ways a listed
//! person's name is written that the list does not spell, each class built
//! from the person's own name by a documented table, deterministically (a
//! draw is seeded by the person's entry id and the class, never by the order
//! of the run). Plain `std`, so that the tables can be checked on their own.
//!
//! Sources of the tables (written out here by hand from the cited tables):
//!
//! - Russian patronymics: the regular formation (a father's name ending in a
//!   hard consonant takes `-ovich`/`-ovna`; one ending in `й`/`ь`, written
//!   `-y`/`-iy`/`-ey`/`-ay` in English, takes `-yevich`/`-yevna`), in the
//!   English (BGN/PCGN-like) spelling OFAC uses; Ukrainian `-ovych`/`-ivna`
//!   (Ukrainian national romanization, as OFAC writes Ukrainian names).
//! - English romanization back to Cyrillic: the BGN/PCGN column of
//!   Wikipedia's "Romanization of Russian" read backwards (`shch`→щ, `zh`→ж,
//!   `kh`→х, `ts`→ц, `ch`→ч, `sh`→ш, `ya`/`yu`/`yo`/`ye`→я/ю/ё/е, `y` before a
//!   consonant → ы, after a vowel → й, a final `-y` after a consonant → -ий),
//!   see [`to_cyrillic`].
//! - German: the Duden transcription (de.wikipedia.org "Deutsche
//!   Transkription", the Russian table; `в`→w, `ж`→sch, `з`→s, `х`→ch, `ц`→z,
//!   `ч`→tsch, `ш`→sch, `щ`→schtsch, `й`→j, `е` at the start or after a vowel
//!   → je, `ё`→jo, `ю`→ju, `я`→ja, `ы`→y, `с` between vowels → ss, `кс`→x,
//!   `-ий`→-i, `-ый`→-y, so `-ский`→-ski), see [`german`].
//! - French: the usual French transcription (fr.wikipedia.org "Transcription
//!   du russe en français"; `ж`→j, `х`→kh, `ч`→tch, `ш`→ch, `щ`→chtch, `у`→ou,
//!   `ю`→iou, `я`→ia, `е` at the start or after a vowel → ie (after и: e), `ё`→io, `й`
//!   after a vowel → ï, `г` before е/и/ы → gu, `с` between vowels → ss, a
//!   final `-ин`/`-ын` → -ine/-yne, `-ий`→-i), see [`french`].
//! - Korean: a syllable table of the syllables of North Korean names as the
//!   lists write them (the DPRK's own McCune–Reischauer-based spelling, without
//!   breves or apostrophes) with the syllable's Revised Romanization
//!   (en.wikipedia.org "Revised Romanization of Korean") and its common South
//!   Korean passport spelling (en.wikipedia.org "List of Korean surnames",
//!   the "common romanizations" column: 리 Lee, 박 Park, 최 Choi, 정 Jung…),
//!   see [`KOREAN`].
//! - Arabic: the common variants of romanized Arabic names (`Abd al-X` /
//!   `Abdul X` / `Abdel X`, the article `al-` / `el-`, `ou` / `u`, `Nasr Allah`
//!   / `Nasrallah`), see [`arabic`].
//! - Added names: common given names and surnames of each region (this
//!   project's lists, below; not drawn from any sanctions list).

/// A seeded xorshift, seeded from a text (FNV-1a of it).
pub struct Seeded(u64);

impl Seeded {
    pub fn new(seed: &str) -> Seeded {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in seed.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        Seeded(h | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[(self.next() % from.len() as u64) as usize]
    }
}

/// A person's region, by nationality: which added names fit them.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Region {
    /// Russian, Belarusian and the post-Soviet states that write patronymics in Russian form
    Russian,
    Ukrainian,
    Arab,
    Persian,
    /// Pakistan, Afghanistan, Bangladesh, India's Muslim names are not told apart: South Asian Muslim names
    SouthAsian,
    Hispanic,
    Korean,
    /// everyone else: English given names and surnames
    Other,
}

pub fn region(nationality: &str) -> Region {
    match nationality {
        "RU" | "BY" | "KZ" | "KG" | "TJ" | "UZ" | "TM" | "AZ" | "AM" | "GE" | "MD" => Region::Russian,
        "UA" => Region::Ukrainian,
        "AE" | "BH" | "DZ" | "EG" | "IQ" | "JO" | "KW" | "LB" | "LY" | "MA" | "MR" | "OM" | "PS" | "QA" | "SA" | "SD" | "SO" | "SY" | "TN" | "YE" => {
            Region::Arab
        }
        "IR" => Region::Persian,
        "PK" | "AF" | "BD" => Region::SouthAsian,
        "MX" | "CO" | "VE" | "PE" | "EC" | "CU" | "ES" | "AR" | "CL" | "BO" | "GT" | "HN" | "NI" | "PA" | "PY" | "SV" | "UY" | "DO" | "CR" => {
            Region::Hispanic
        }
        "KP" | "KR" => Region::Korean,
        _ => Region::Other,
    }
}

/// Russian fathers' names with the son's and the daughter's patronymic (regular formation, BGN/PCGN-like spelling).
pub const RUSSIAN_PATRONYMICS: &[(&str, &str, &str)] = &[
    ("Aleksandr", "Aleksandrovich", "Aleksandrovna"),
    ("Sergey", "Sergeyevich", "Sergeyevna"),
    ("Vladimir", "Vladimirovich", "Vladimirovna"),
    ("Nikolay", "Nikolayevich", "Nikolayevna"),
    ("Ivan", "Ivanovich", "Ivanovna"),
    ("Mikhail", "Mikhaylovich", "Mikhaylovna"),
    ("Andrey", "Andreyevich", "Andreyevna"),
    ("Viktor", "Viktorovich", "Viktorovna"),
    ("Yury", "Yuryevich", "Yuryevna"),
    ("Anatoly", "Anatolyevich", "Anatolyevna"),
    ("Boris", "Borisovich", "Borisovna"),
    ("Dmitry", "Dmitriyevich", "Dmitriyevna"),
    ("Aleksey", "Alekseyevich", "Alekseyevna"),
    ("Vasily", "Vasilyevich", "Vasilyevna"),
    ("Gennady", "Gennadyevich", "Gennadyevna"),
    ("Oleg", "Olegovich", "Olegovna"),
    ("Valery", "Valeryevich", "Valeryevna"),
    ("Yevgeny", "Yevgenyevich", "Yevgenyevna"),
    ("Roman", "Romanovich", "Romanovna"),
    ("Pavel", "Pavlovich", "Pavlovna"),
];
/// Ukrainian fathers' names with the patronymics (Ukrainian national romanization).
pub const UKRAINIAN_PATRONYMICS: &[(&str, &str, &str)] = &[
    ("Oleksandr", "Oleksandrovych", "Oleksandrivna"),
    ("Serhiy", "Serhiyovych", "Serhiyivna"),
    ("Volodymyr", "Volodymyrovych", "Volodymyrivna"),
    ("Mykola", "Mykolayovych", "Mykolayivna"),
    ("Ivan", "Ivanovych", "Ivanivna"),
    ("Mykhailo", "Mykhailovych", "Mykhailivna"),
    ("Andriy", "Andriyovych", "Andriyivna"),
    ("Viktor", "Viktorovych", "Viktorivna"),
    ("Yuriy", "Yuriyovych", "Yuriyivna"),
    ("Vasyl", "Vasylovych", "Vasylivna"),
    ("Petro", "Petrovych", "Petrivna"),
    ("Bohdan", "Bohdanovych", "Bohdanivna"),
];
const RUSSIAN_FEMALE: &[&str] = &["Yelena", "Olga", "Tatyana", "Natalya", "Irina", "Svetlana", "Anna", "Marina", "Yekaterina", "Lyudmila"];
const UKRAINIAN_FEMALE: &[&str] = &["Olena", "Oksana", "Tetiana", "Nataliia", "Iryna", "Halyna", "Yuliia", "Kateryna"];
const ARAB_GIVEN: &[&str] =
    &["Mohammed", "Ahmed", "Ali", "Hassan", "Hussein", "Abdullah", "Omar", "Khalid", "Ibrahim", "Youssef", "Mahmoud", "Mustafa", "Saleh", "Salim"];
const ARAB_FEMALE: &[&str] = &["Fatima", "Aisha", "Maryam", "Khadija", "Zainab", "Amina", "Layla", "Noor"];
const PERSIAN_GIVEN: &[&str] = &["Mohammad", "Ali", "Reza", "Hossein", "Mehdi", "Hamid", "Javad", "Saeed", "Majid", "Amir"];
const PERSIAN_FEMALE: &[&str] = &["Zahra", "Fatemeh", "Maryam", "Masoumeh", "Leila", "Narges"];
const SOUTH_ASIAN_GIVEN: &[&str] = &["Muhammad", "Ahmad", "Ali", "Hassan", "Hussain", "Imran", "Tariq", "Bilal", "Usman", "Zafar"];
const HISPANIC_GIVEN: &[&str] = &["Jose", "Juan", "Luis", "Carlos", "Antonio", "Manuel", "Francisco", "Jorge", "Pedro", "Miguel"];
const HISPANIC_FEMALE: &[&str] = &["Maria", "Guadalupe", "Ana", "Rosa", "Carmen", "Isabel", "Patricia", "Luisa"];
/// the Christian or English name East Asians add on foreign documents, and everyone else's
const ENGLISH_GIVEN: &[&str] = &["John", "Michael", "David", "Peter", "Paul", "Thomas", "James", "Daniel", "Robert", "William"];
const ENGLISH_FEMALE: &[&str] = &["Mary", "Anna", "Elizabeth", "Sarah", "Grace", "Helen", "Susan", "Linda"];

const RUSSIAN_SURNAMES: &[(&str, &str)] = &[
    ("Ivanov", "Ivanova"),
    ("Smirnov", "Smirnova"),
    ("Kuznetsov", "Kuznetsova"),
    ("Popov", "Popova"),
    ("Vasilyev", "Vasilyeva"),
    ("Petrov", "Petrova"),
    ("Sokolov", "Sokolova"),
    ("Mikhaylov", "Mikhaylova"),
    ("Novikov", "Novikova"),
    ("Fedorov", "Fedorova"),
];
const UKRAINIAN_SURNAMES: &[&str] = &["Melnyk", "Shevchenko", "Boyko", "Kovalenko", "Bondarenko", "Tkachenko", "Kravchenko", "Oliynyk"];
const ARAB_SURNAMES: &[&str] = &["Haddad", "Khalil", "Mansour", "Nasser", "Saleh", "Hamdan", "Darwish", "Aziz", "Habib", "Karim"];
const PERSIAN_SURNAMES: &[&str] = &["Ahmadi", "Hosseini", "Karimi", "Rezaei", "Mohammadi", "Moradi", "Jafari", "Rahimi"];
const SOUTH_ASIAN_SURNAMES: &[&str] = &["Khan", "Qureshi", "Malik", "Chaudhry", "Butt", "Sheikh", "Siddiqui", "Mirza"];
const HISPANIC_SURNAMES: &[&str] = &["Garcia", "Rodriguez", "Martinez", "Lopez", "Gonzalez", "Perez", "Sanchez", "Ramirez", "Torres", "Flores"];
const KOREAN_SURNAMES: &[&str] = &["Kim", "Lee", "Park", "Choi", "Jung", "Kang", "Cho", "Yoon"];
const ENGLISH_SURNAMES: &[&str] = &["Smith", "Johnson", "Brown", "Taylor", "Wilson", "Miller", "Davis", "Clark", "Walker", "Wright"];

/// A person to write variants of: given names, surname, region, gender, and
/// every word of every name of their entry (an added word must be new to it).
pub struct Who<'a> {
    pub key: &'a str,
    pub given: &'a str,
    pub last: &'a str,
    pub region: Region,
    pub female: bool,
    pub known_words: &'a std::collections::HashSet<String>,
}

/// The words of names, upper-case, split at blanks, hyphens and commas.
pub fn words_of<'a>(names: impl IntoIterator<Item = &'a String>) -> std::collections::HashSet<String> {
    names.into_iter().flat_map(|n| n.split([' ', '-', ',']).filter(|w| !w.is_empty()).map(|w| w.to_uppercase()).collect::<Vec<_>>()).collect()
}

fn has_patronymic(given: &str) -> bool {
    given.split(' ').skip(1).any(|w| {
        let w = w.to_lowercase();
        ["vich", "vych", "vna", "ichna", "ich", "ivna"].iter().any(|e| w.ends_with(e))
    })
}

/// An added given name that the entry does not have, drawn for the person and the class.
fn added_given(who: &Who, class: &str) -> Option<String> {
    let mut draw = Seeded::new(&format!("{}/{class}", who.key));
    let patronymics = match who.region {
        Region::Russian => Some(RUSSIAN_PATRONYMICS),
        Region::Ukrainian => Some(UKRAINIAN_PATRONYMICS),
        _ => None,
    };
    let pool: Vec<String> = match (patronymics, has_patronymic(who.given)) {
        // a patronymic where the entry has none: the added name a Russian document would carry
        (Some(table), false) => table.iter().map(|(_, m, f)| if who.female { f } else { m }.to_string()).collect(),
        // else an ordinary given name of the region (a father's name is one)
        (Some(table), true) => {
            if who.female {
                (if who.region == Region::Russian { RUSSIAN_FEMALE } else { UKRAINIAN_FEMALE }).iter().map(|s| s.to_string()).collect()
            } else {
                table.iter().map(|(n, ..)| n.to_string()).collect()
            }
        }
        (None, _) => {
            let (male, female) = match who.region {
                Region::Arab => (ARAB_GIVEN, ARAB_FEMALE),
                Region::Persian => (PERSIAN_GIVEN, PERSIAN_FEMALE),
                Region::SouthAsian => (SOUTH_ASIAN_GIVEN, ARAB_FEMALE),
                Region::Hispanic => (HISPANIC_GIVEN, HISPANIC_FEMALE),
                _ => (ENGLISH_GIVEN, ENGLISH_FEMALE),
            };
            (if who.female { female } else { male }).iter().map(|s| s.to_string()).collect()
        }
    };
    let fits: Vec<&str> = pool.iter().map(String::as_str).filter(|n| !who.known_words.contains(&n.to_uppercase())).collect();
    (!fits.is_empty()).then(|| draw.pick(&fits).to_string())
}

fn added_surname(who: &Who, class: &str) -> Option<String> {
    let mut draw = Seeded::new(&format!("{}/{class}", who.key));
    let pool: Vec<&str> = match who.region {
        Region::Russian => RUSSIAN_SURNAMES.iter().map(|(m, f)| if who.female { *f } else { *m }).collect(),
        Region::Ukrainian => UKRAINIAN_SURNAMES.to_vec(),
        Region::Arab => ARAB_SURNAMES.to_vec(),
        Region::Persian => PERSIAN_SURNAMES.to_vec(),
        Region::SouthAsian => SOUTH_ASIAN_SURNAMES.to_vec(),
        Region::Hispanic => HISPANIC_SURNAMES.to_vec(),
        Region::Korean => KOREAN_SURNAMES.to_vec(),
        Region::Other => ENGLISH_SURNAMES.to_vec(),
    };
    let fits: Vec<&str> = pool.into_iter().filter(|n| !who.known_words.contains(&n.to_uppercase())).collect();
    (!fits.is_empty()).then(|| draw.pick(&fits).to_string())
}

/// The order in which the structural classes are reported (a class not here comes after, as it came).
pub const ORDER: &[&str] = &[
    "added given name, after the first given name",
    "added given name, after all given names (2+)",
    "added surname, hyphenated",
    "added surname, spaced",
    "joined: first two given names",
    "joined: last two given names (3+)",
    "joined: the surname's words",
    "split: the surname's leading words in first_name",
    "split: the last given name in last_name",
];

/// (class, first_name, last_name) as sent.
pub type Case = (&'static str, String, String);

/// Classes 1–4 of issue #45: added given name, added surname, joined, split across fields.
pub fn structural(who: &Who) -> Vec<Case> {
    let given: Vec<&str> = who.given.split(' ').filter(|w| !w.is_empty()).collect();
    let last_words: Vec<&str> = who.last.split(' ').filter(|w| !w.is_empty()).collect();
    let mut out = Vec::new();
    if let Some(name) = added_given(who, "after the first") {
        let mut words: Vec<String> = given.iter().map(|s| s.to_string()).collect();
        words.insert(1.min(words.len()), name);
        out.push(("added given name, after the first given name", words.join(" "), who.last.to_string()));
    }
    if given.len() >= 2 {
        if let Some(name) = added_given(who, "after all") {
            out.push(("added given name, after all given names (2+)", format!("{} {name}", who.given), who.last.to_string()));
        }
    }
    if let Some(name) = added_surname(who, "hyphenated") {
        out.push(("added surname, hyphenated", who.given.to_string(), format!("{}-{name}", who.last)));
    }
    if let Some(name) = added_surname(who, "spaced") {
        out.push(("added surname, spaced", who.given.to_string(), format!("{} {name}", who.last)));
    }
    let joined = |words: &[&str], at: usize| -> String {
        let mut w: Vec<String> = words.iter().map(|s| s.to_string()).collect();
        let second = w.remove(at + 1).to_lowercase();
        w[at].push_str(&second);
        w.join(" ")
    };
    if given.len() >= 2 {
        out.push(("joined: first two given names", joined(&given, 0), who.last.to_string()));
    }
    if given.len() >= 3 {
        out.push(("joined: last two given names (3+)", joined(&given, given.len() - 2), who.last.to_string()));
    }
    if last_words.len() >= 2 {
        let joined_surname = capitalized(&last_words.iter().map(|w| w.to_lowercase()).collect::<String>());
        out.push(("joined: the surname's words", who.given.to_string(), joined_surname));
    }
    if last_words.len() >= 2 {
        let (lead, tail) = last_words.split_at(last_words.len() - 1);
        out.push(("split: the surname's leading words in first_name", format!("{} {}", who.given, lead.join(" ")), tail.join(" ")));
    }
    if given.len() >= 2 {
        let (lead, tail) = given.split_at(given.len() - 1);
        out.push(("split: the last given name in last_name", lead.join(" "), format!("{} {}", tail.join(" "), who.last)));
    }
    out
}

fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or(String::new(), |c| c.to_uppercase().chain(chars).collect())
}

/// Class 5: a white space or control character inside the longest surname word.
pub const SPACES: &[(&str, &str)] = &[
    ("hair space (U+200A)", "\u{200a}"),
    ("thin space (U+2009)", "\u{2009}"),
    ("vertical tab (U+000B)", "\u{b}"),
    ("next line (U+0085)", "\u{85}"),
    ("ideographic space (U+3000)", "\u{3000}"),
    ("no-break space (U+00A0)", "\u{a0}"),
    ("en space (U+2002)", "\u{2002}"),
    ("ogham space mark (U+1680)", "\u{1680}"),
    ("line separator (U+2028)", "\u{2028}"),
    ("bell, a control character (U+0007)", "\u{7}"),
    ("unit separator, a control character (U+001F)", "\u{1f}"),
];

pub fn spaced(given: &str, last: &str) -> Vec<Case> {
    let longest = last.split(' ').max_by_key(|w| w.chars().count()).unwrap_or(last).to_string();
    let chars: Vec<char> = longest.chars().collect();
    let mid = chars.len() / 2;
    SPACES
        .iter()
        .map(|(class, c)| {
            let word = chars[..mid].iter().collect::<String>() + c + &chars[mid..].iter().collect::<String>();
            (*class, given.to_string(), last.replacen(&longest, &word, 1))
        })
        .collect()
}

fn is_latin_vowel(c: char) -> bool {
    "aeiou".contains(c)
}

/// One word of an English (BGN/PCGN-like) romanization of Russian back in Cyrillic, lower-case.
fn cyrillic_word(word: &str) -> String {
    let s: Vec<char> = word.to_lowercase().chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < s.len() {
        let rest = &s[i..];
        let starts = |p: &str| p.chars().count() <= rest.len() && p.chars().zip(rest.iter()).all(|(a, b)| a == *b);
        let prev = (i > 0).then(|| s[i - 1]);
        let after_vowel = prev.is_some_and(is_latin_vowel);
        let after_consonant = prev.is_some_and(|p| p.is_ascii_alphabetic() && !is_latin_vowel(p) && p != 'y');
        let (cyr, n): (&str, usize) = if starts("shch") {
            ("щ", 4)
        } else if starts("zh") {
            ("ж", 2)
        } else if starts("kh") {
            ("х", 2)
        } else if starts("ts") {
            ("ц", 2)
        } else if starts("ch") {
            ("ч", 2)
        } else if starts("sh") {
            ("ш", 2)
        } else if starts("yy") && rest.len() == 2 {
            ("ый", 2)
        } else if starts("iy") && rest.len() == 2 {
            ("ий", 2)
        } else if starts("ya") {
            ("я", 2)
        } else if starts("yu") {
            ("ю", 2)
        } else if starts("yo") {
            ("ё", 2)
        } else if starts("ye") {
            (if after_consonant { "ье" } else { "е" }, 2)
        } else if s[i] == 'y' {
            let next = s.get(i + 1).copied();
            match (prev, next) {
                (Some(_), None) if after_vowel => ("й", 1),
                (Some(_), None) => ("ий", 1),
                (Some(_), Some(_)) if after_vowel => ("й", 1),
                (Some(_), Some(_)) => ("ы", 1),
                (None, _) => ("и", 1),
            }
        } else if s[i] == 'i' && rest.len() == 1 && after_vowel {
            // a final -ei, -ai, -oi (Andrei, Nikolai) is -ей, -ай, -ой
            ("й", 1)
        } else if s[i] == 'e' && i == 0 {
            ("э", 1)
        } else if s[i] == '\'' {
            ("ь", 1)
        } else {
            let one = match s[i] {
                'a' => "а",
                'b' => "б",
                'v' | 'w' => "в",
                'g' => "г",
                'd' => "д",
                'e' => "е",
                'z' => "з",
                'i' => "и",
                'k' | 'c' | 'q' => "к",
                'l' => "л",
                'm' => "м",
                'n' => "н",
                'o' => "о",
                'p' => "п",
                'r' => "р",
                's' => "с",
                't' => "т",
                'u' => "у",
                'f' => "ф",
                'h' => "х",
                'x' => "кс",
                'j' => "дж",
                _ => "",
            };
            (one, 1)
        };
        out.push_str(cyr);
        i += n;
    }
    out
}

/// Applies `f` to each word (split at blanks and hyphens, kept), capitalising each word.
fn by_word(name: &str, f: impl Fn(&str) -> String) -> String {
    let mut out = String::new();
    let mut word = String::new();
    for c in name.chars().chain(std::iter::once('\0')) {
        if c == ' ' || c == '-' || c == '\0' {
            if !word.is_empty() {
                out.push_str(&capitalized(&f(&word)));
                word.clear();
            }
            if c != '\0' {
                out.push(c);
            }
        } else {
            word.push(c);
        }
    }
    out
}

/// An English romanization of a Russian, Ukrainian or Belarusian name back in Cyrillic (the reverse of BGN/PCGN).
pub fn to_cyrillic(name: &str) -> String {
    by_word(name, cyrillic_word)
}

fn is_cyrillic_vowel(c: char) -> bool {
    "аеёиоуыэюя".contains(c)
}

/// One Cyrillic word in the German (Duden) or French transcription.
fn transcribe(word: &str, german: bool) -> String {
    let s: Vec<char> = word.to_lowercase().chars().collect();
    let mut out = String::new();
    for (i, &c) in s.iter().enumerate() {
        let prev = (i > 0).then(|| s[i - 1]);
        let next = s.get(i + 1).copied();
        let soft_start = prev.is_none_or(|p| is_cyrillic_vowel(p) || p == 'ь' || p == 'ъ');
        let hushing = prev.is_some_and(|p| "жчшщ".contains(p));
        let piece: String = match c {
            'а' => "a".into(),
            'б' => "b".into(),
            'в' => (if german { "w" } else { "v" }).into(),
            'г' => (if !german && next.is_some_and(|n| "еиыэ".contains(n)) { "gu" } else { "g" }).into(),
            'д' => "d".into(),
            'е' => match (soft_start && !hushing, german) {
                (true, true) => "je".into(),
                // French writes ие as ie (Dmitrievitch), German as ije (Dmitrijewitsch)
                (true, false) if prev == Some('и') => "e".into(),
                (true, false) => "ie".into(),
                _ => "e".into(),
            },
            'ё' => match (hushing, german) {
                (true, _) => "o".into(),
                (false, true) => "jo".into(),
                (false, false) => "io".into(),
            },
            'ж' => (if german { "sch" } else { "j" }).into(),
            'з' => (if german { "s" } else { "z" }).into(),
            'и' => "i".into(),
            'й' => {
                if i + 1 == s.len() && prev.is_some_and(|p| p == 'и' || p == 'ы') {
                    // -ий is -i, -ый is -y: written by the vowel alone
                    String::new()
                } else if german {
                    "j".into()
                } else {
                    "ï".into()
                }
            }
            'к' => {
                if german && next == Some('с') {
                    "x".into()
                } else {
                    "k".into()
                }
            }
            'л' => "l".into(),
            'м' => "m".into(),
            'н' => {
                if !german && next.is_none() && prev.is_some_and(|p| p == 'и' || p == 'ы') {
                    "ne".into()
                } else {
                    "n".into()
                }
            }
            'о' => "o".into(),
            'п' => "p".into(),
            'р' => "r".into(),
            'с' => {
                if german && prev == Some('к') {
                    // written in the x
                    String::new()
                } else if prev.is_some_and(is_cyrillic_vowel) && next.is_some_and(is_cyrillic_vowel) {
                    "ss".into()
                } else {
                    "s".into()
                }
            }
            'т' => "t".into(),
            'у' => (if german { "u" } else { "ou" }).into(),
            'ф' => "f".into(),
            'х' => (if german { "ch" } else { "kh" }).into(),
            'ц' => (if german { "z" } else { "ts" }).into(),
            'ч' => (if german { "tsch" } else { "tch" }).into(),
            'ш' => (if german { "sch" } else { "ch" }).into(),
            'щ' => (if german { "schtsch" } else { "chtch" }).into(),
            'ъ' | 'ь' => String::new(),
            'ы' => "y".into(),
            'э' => "e".into(),
            'ю' => (if german { "ju" } else { "iou" }).into(),
            'я' => (if german { "ja" } else { "ia" }).into(),
            other => other.to_string(),
        };
        out.push_str(&piece);
    }
    out
}

/// A name in the German (Duden) transcription, through its Cyrillic.
pub fn german(name: &str) -> String {
    by_word(name, |w| transcribe(&cyrillic_word(w), true))
}

/// A name in the French transcription, through its Cyrillic.
pub fn french(name: &str) -> String {
    by_word(name, |w| transcribe(&cyrillic_word(w), false))
}

/// North Korean syllables as the lists write them (DPRK spelling, McCune–Reischauer
/// without breves or apostrophes), with the Hangul, the Revised Romanization and the
/// common South Korean spelling.
pub const KOREAN: &[(&str, &str, &str, &str)] = &[
    ("kim", "김", "gim", "kim"),
    ("ri", "리", "ri", "lee"),
    ("li", "리", "ri", "lee"),
    ("rim", "림", "rim", "lim"),
    ("ryu", "류", "ryu", "yoo"),
    ("pak", "박", "bak", "park"),
    ("choe", "최", "choe", "choi"),
    ("jong", "정", "jeong", "jung"),
    ("chong", "정", "jeong", "jung"),
    ("jang", "장", "jang", "jang"),
    ("chang", "장", "jang", "chang"),
    ("jo", "조", "jo", "cho"),
    ("cho", "조", "jo", "cho"),
    ("o", "오", "o", "oh"),
    ("kang", "강", "gang", "kang"),
    ("yun", "윤", "yun", "yoon"),
    ("ro", "로", "ro", "roh"),
    ("sin", "신", "sin", "shin"),
    ("song", "성", "seong", "sung"),
    ("so", "서", "seo", "seo"),
    ("hyon", "현", "hyeon", "hyun"),
    ("un", "은", "eun", "eun"),
    ("chol", "철", "cheol", "chul"),
    ("chun", "춘", "chun", "choon"),
    ("yong", "영", "yeong", "young"),
    ("pyong", "평", "pyeong", "pyung"),
    ("pong", "봉", "bong", "bong"),
    ("myong", "명", "myeong", "myung"),
    ("sok", "석", "seok", "suk"),
    ("kwang", "광", "gwang", "kwang"),
    ("gwang", "광", "gwang", "kwang"),
    ("chon", "천", "cheon", "chun"),
    ("jon", "전", "jeon", "jun"),
    ("jun", "준", "jun", "joon"),
    ("thaek", "택", "taek", "taek"),
    ("su", "수", "su", "soo"),
    ("sun", "순", "sun", "soon"),
    ("hui", "희", "hui", "hee"),
    ("hyok", "혁", "hyeok", "hyuk"),
    ("kuk", "국", "guk", "kook"),
    ("kil", "길", "gil", "kil"),
    ("yon", "연", "yeon", "yeon"),
    ("kyong", "경", "gyeong", "kyung"),
    ("gyong", "경", "gyeong", "kyung"),
    ("tong", "동", "dong", "dong"),
    ("tok", "덕", "deok", "duk"),
    ("ryol", "렬", "ryeol", "yeol"),
    ("hun", "훈", "hun", "hoon"),
    ("chu", "주", "ju", "joo"),
    ("ju", "주", "ju", "joo"),
    ("sung", "승", "seung", "seung"),
    ("kun", "근", "geun", "keun"),
    ("mun", "문", "mun", "moon"),
    ("paek", "백", "baek", "baek"),
    ("kye", "계", "gye", "kye"),
    ("u", "우", "u", "woo"),
    ("yo", "여", "yeo", "yeo"),
    ("ryon", "련", "ryeon", "yeon"),
    ("thae", "태", "tae", "tae"),
    ("tae", "태", "tae", "tae"),
    ("chae", "채", "chae", "chae"),
    ("ryong", "룡", "ryong", "yong"),
    ("hae", "해", "hae", "hae"),
    ("ok", "옥", "ok", "ok"),
    ("hak", "학", "hak", "hak"),
    ("tu", "두", "du", "doo"),
    ("tal", "달", "dal", "dal"),
    ("kon", "건", "geon", "kun"),
    ("kum", "금", "geum", "keum"),
    ("kyu", "규", "gyu", "kyu"),
    ("pom", "범", "beom", "bum"),
    ("chin", "진", "jin", "jin"),
    ("jin", "진", "jin", "jin"),
    ("ui", "의", "ui", "eui"),
    ("ung", "웅", "ung", "woong"),
];

/// A Korean name re-spelled syllable by syllable: the Revised Romanization (`rr`) or the South's common spelling.
pub fn korean(name: &str, rr: bool) -> String {
    by_word(name, |w| {
        let lower = w.to_lowercase();
        KOREAN.iter().find(|(s, ..)| *s == lower).map_or(lower.clone(), |(_, _, r, p)| (if rr { *r } else { *p }).to_string())
    })
}

/// The Arabic schemes: (class, rewrite); a rewrite answers `None` when the name has nothing it changes.
pub const ARABIC: &[&str] = &["Arabic: Abd al- / Abdul / Abdel", "Arabic: al- / el-", "Arabic: ou / u", "Arabic: X Allah / Xallah"];

/// The name written in Arabic scheme `scheme` (an index of [`ARABIC`]).
pub fn arabic(scheme: usize, name: &str) -> Option<String> {
    let words: Vec<String> = name.split(' ').filter(|w| !w.is_empty()).map(str::to_string).collect();
    let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    let mut changed = false;
    while i < words.len() {
        let w = lower[i].trim_start_matches('\'');
        let next = lower.get(i + 1).map(|n| n.as_str());
        match scheme {
            0 => {
                // 'Abd al-X, Abd Al X → Abdul X; Abdul X, AbdulX → Abd al-X; Abdel X → Abdul X
                if w == "abd" && next.is_some_and(|n| n == "al" || n == "el") && i + 2 < words.len() {
                    out.push(format!("Abdul {}", capitalized(&lower[i + 2])));
                    i += 3;
                    changed = true;
                    continue;
                }
                if w == "abd" && next.is_some_and(|n| (n.starts_with("al-") || n.starts_with("el-")) && n.len() > 3) {
                    out.push(format!("Abdul {}", capitalized(&next.unwrap_or_default()[3..])));
                    i += 2;
                    changed = true;
                    continue;
                }
                if w == "abdul" && next.is_some() {
                    out.push(format!("Abd al-{}", capitalized(next.unwrap_or_default())));
                    i += 2;
                    changed = true;
                    continue;
                }
                if w == "abdel" && next.is_some() {
                    out.push(format!("Abdul {}", capitalized(next.unwrap_or_default())));
                    i += 2;
                    changed = true;
                    continue;
                }
                if let Some(rest) = w.strip_prefix("abdul").filter(|r| r.len() >= 3 && !r.ends_with("lah") && *r != "lah") {
                    out.push(format!("Abd al-{}", capitalized(rest)));
                    i += 1;
                    changed = true;
                    continue;
                }
            }
            1 => {
                if let Some(rest) = w.strip_prefix("al-").filter(|r| !r.is_empty()) {
                    out.push(format!("El-{}", capitalized(rest)));
                    changed = true;
                    i += 1;
                    continue;
                }
                if let Some(rest) = w.strip_prefix("el-").filter(|r| !r.is_empty()) {
                    out.push(format!("Al-{}", capitalized(rest)));
                    changed = true;
                    i += 1;
                    continue;
                }
                if (w == "al" || w == "el") && next.is_some() {
                    out.push(if w == "al" { "El" } else { "Al" }.to_string());
                    changed = true;
                    i += 1;
                    continue;
                }
            }
            3 => {
                if next == Some("allah") {
                    out.push(capitalized(&format!("{w}allah")));
                    changed = true;
                    i += 2;
                    continue;
                }
                let stem = ["ullah", "allah", "ollah", "illah"].iter().find_map(|e| w.strip_suffix(e)).filter(|s| s.len() >= 3);
                if let Some(stem) = stem {
                    out.push(format!("{} Allah", capitalized(stem)));
                    changed = true;
                    i += 1;
                    continue;
                }
            }
            _ => {}
        }
        out.push(words[i].clone());
        i += 1;
    }
    if scheme == 2 {
        let joined = words.join(" ");
        let re = if joined.to_lowercase().contains("ou") {
            joined.replace("ou", "u").replace("Ou", "U")
        } else {
            joined.replace('u', "ou").replace('U', "Ou")
        };
        return (re != joined).then_some(re);
    }
    changed.then(|| out.join(" "))
}

/// An UN individual as the XML gives it: reference number, the name parts in order, the names in their original script.
pub struct UnIndividual {
    pub reference: String,
    pub parts: Vec<String>,
    pub original_script: Vec<String>,
}

fn unescape(text: &str) -> String {
    text.replace("&apos;", "'").replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
}

/// The text of each `<tag>…</tag>` in `block`, trimmed (an empty `<tag/>` gives nothing).
fn texts(block: &str, tag: &str) -> Vec<String> {
    let (open, close) = (format!("<{tag}>"), format!("</{tag}>"));
    let mut out = Vec::new();
    let mut rest = block;
    while let Some(at) = rest.find(&open) {
        let after = &rest[at + open.len()..];
        let Some(end) = after.find(&close) else { break };
        let text = unescape(after[..end].trim());
        if !text.is_empty() {
            out.push(text);
        }
        rest = &after[end + close.len()..];
    }
    out
}

/// The individuals of the UN consolidated list (the published XML: one `<INDIVIDUAL>` element each).
pub fn un_individuals(xml: &str) -> Vec<UnIndividual> {
    let mut out = Vec::new();
    let mut rest = xml;
    while let Some(at) = rest.find("<INDIVIDUAL>") {
        let after = &rest[at..];
        let Some(end) = after.find("</INDIVIDUAL>") else { break };
        let block = &after[..end];
        let parts: Vec<String> = ["FIRST_NAME", "SECOND_NAME", "THIRD_NAME", "FOURTH_NAME"]
            .iter()
            .filter_map(|t| texts(block, t).into_iter().next())
            .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect();
        let original_script = texts(block, "NAME_ORIGINAL_SCRIPT").into_iter().map(|n| n.split_whitespace().collect::<Vec<_>>().join(" ")).collect();
        if let Some(reference) = texts(block, "REFERENCE_NUMBER").into_iter().next() {
            out.push(UnIndividual { reference, parts, original_script });
        }
        rest = &after[end..];
    }
    out
}

/// The script of a name's letters, for the class of an original-script name.
pub fn script_of(name: &str) -> &'static str {
    let letter = name.chars().find(|c| c.is_alphabetic() && !c.is_ascii());
    match letter.map(u32::from) {
        Some(0x0600..=0x06FF | 0x0750..=0x077F | 0xFB50..=0xFDFF | 0xFE70..=0xFEFF) => "Arabic",
        Some(0x0400..=0x052F) => "Cyrillic",
        Some(0x1200..=0x139F) => "Ethiopic",
        Some(0x4E00..=0x9FFF) => "Han",
        Some(_) => "other",
        None => "Latin",
    }
}
