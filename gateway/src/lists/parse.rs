//! Readers of the official sanctions lists into [`ListEntry`] rows: OFAC's
//! SDN list in its CSV form, the OpenSanctions `targets.simple` CSV and the
//! UN Security Council consolidated XML. A file that does not read as its
//! format, or reads as nothing, is an error: nothing is replaced.

use quick_xml::events::Event;
use rules::{EntryKind, EntryTopic};

use super::countries::country_code;

/// One entry of a list, as imported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListEntry {
    pub entity_id: String,
    pub kind: EntryKind,
    /// the primary name first, then the aliases
    pub names: Vec<String>,
    /// `YYYY`, `YYYY-MM` or `YYYY-MM-DD`
    pub dates_of_birth: Vec<String>,
    /// two-letter codes
    pub nationalities: Vec<String>,
    pub programs: String,
    /// why the entry is listed: every entry of an official sanctions list is a sanction
    pub topic: EntryTopic,
}

/// The formats `lists import` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListFormat {
    OfacCsv,
    OpenSanctionsCsv,
    UnXml,
}

impl ListFormat {
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "ofac-csv" => Some(ListFormat::OfacCsv),
            "opensanctions-csv" => Some(ListFormat::OpenSanctionsCsv),
            "un-xml" => Some(ListFormat::UnXml),
            _ => None,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            ListFormat::OfacCsv => "ofac-csv",
            ListFormat::OpenSanctionsCsv => "opensanctions-csv",
            ListFormat::UnXml => "un-xml",
        }
    }
    /// The source name a list of this format has unless one is given.
    pub fn default_source(self) -> &'static str {
        match self {
            ListFormat::OfacCsv => "ofac-sdn",
            ListFormat::OpenSanctionsCsv => "opensanctions",
            ListFormat::UnXml => "un-consolidated",
        }
    }
}

const OFAC_EMPTY: &str = "-0-";

fn ofac_field(record: &csv::StringRecord, i: usize) -> &str {
    let value = record.get(i).unwrap_or_default().trim();
    if value == OFAC_EMPTY {
        ""
    } else {
        value
    }
}

fn csv_reader(bytes: &[u8], headers: bool) -> csv::Reader<&[u8]> {
    csv::ReaderBuilder::new().has_headers(headers).flexible(true).from_reader(bytes)
}

/// OFAC's SDN list: `sdn.csv`, with `alt.csv` aliases when given. Dates of
/// birth and nationalities are read from the remarks.
pub fn ofac(sdn: &[u8], alt: Option<&[u8]>) -> Result<Vec<ListEntry>, String> {
    let mut entries = Vec::new();
    let mut index = std::collections::HashMap::new();
    for (line, record) in csv_reader(sdn, false).records().enumerate() {
        let record = record.map_err(|e| format!("sdn.csv line {}: {e}", line + 1))?;
        // The file ends with a line holding only the DOS end-of-file mark.
        if record.len() == 1 && record.get(0).is_some_and(|f| f.trim_matches(|c: char| c == '\u{1a}' || c.is_whitespace()).is_empty()) {
            continue;
        }
        if record.len() < 12 {
            return Err(format!("sdn.csv line {}: expected 12 fields, found {}", line + 1, record.len()));
        }
        let id = ofac_field(&record, 0);
        if id.parse::<u64>().is_err() {
            return Err(format!("sdn.csv line {}: {id:?} is not an entry number", line + 1));
        }
        let name = ofac_field(&record, 1);
        if name.is_empty() {
            return Err(format!("sdn.csv line {}: no name", line + 1));
        }
        let kind = match ofac_field(&record, 2).to_ascii_lowercase().as_str() {
            "individual" => EntryKind::Individual,
            "vessel" => EntryKind::Vessel,
            "aircraft" => EntryKind::Aircraft,
            _ => EntryKind::Entity,
        };
        let remarks = ofac_field(&record, 11);
        index.insert(id.to_string(), entries.len());
        entries.push(ListEntry {
            entity_id: id.to_string(),
            kind,
            names: vec![name.to_string()],
            dates_of_birth: ofac_dates_of_birth(remarks),
            nationalities: ofac_nationalities(remarks),
            programs: ofac_field(&record, 3).to_string(),
            topic: EntryTopic::Sanction,
        });
    }
    if let Some(alt) = alt {
        for (line, record) in csv_reader(alt, false).records().enumerate() {
            let record = record.map_err(|e| format!("alt.csv line {}: {e}", line + 1))?;
            if record.len() < 4 {
                continue;
            }
            let (id, alias) = (ofac_field(&record, 0), ofac_field(&record, 3));
            if let (Some(&i), false) = (index.get(id), alias.is_empty()) {
                if let Some(entry) = entries.get_mut(i) {
                    entry.names.push(alias.to_string());
                }
            }
        }
    }
    Ok(entries)
}

/// `DOB 10 Dec 1948; alt. DOB 1950; DOB circa 1955; DOB 1955 to 1958`.
fn ofac_dates_of_birth(remarks: &str) -> Vec<String> {
    let mut dates = Vec::new();
    for part in remarks.split(';') {
        let part = part.trim().trim_start_matches("alt.").trim();
        let Some(rest) = part.strip_prefix("DOB ") else { continue };
        let rest = rest.trim_start_matches("circa").trim().trim_end_matches('.');
        // A range keeps its first date: the year tells the qualifier enough.
        let first = rest.split(" to ").next().unwrap_or_default();
        if let Some(date) = day_month_year(first) {
            dates.push(date);
        }
    }
    dates
}

/// `10 Dec 1948` → `1948-12-10`, `Dec 1948` → `1948-12`, `1948` → `1948`.
fn day_month_year(text: &str) -> Option<String> {
    let parts: Vec<&str> = text.split_whitespace().collect();
    let year = |y: &str| (y.len() == 4 && y.bytes().all(|b| b.is_ascii_digit())).then(|| y.to_string());
    let month = |m: &str| {
        ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
            .iter()
            .position(|name| m.to_ascii_lowercase().starts_with(name))
            .map(|i| i + 1)
    };
    match parts.as_slice() {
        [y] => year(y),
        [m, y] => Some(format!("{}-{:02}", year(y)?, month(m)?)),
        [d, m, y] => Some(format!("{}-{:02}-{:02}", year(y)?, month(m)?, d.parse::<u32>().ok().filter(|d| (1..=31).contains(d))?)),
        _ => None,
    }
}

/// `nationality Russia; citizen Russia`: the countries, as codes.
fn ofac_nationalities(remarks: &str) -> Vec<String> {
    let mut codes = Vec::new();
    for part in remarks.split(';') {
        let part = part.trim().trim_start_matches("alt.").trim();
        let country = part.strip_prefix("nationality ").or_else(|| part.strip_prefix("citizen "));
        if let Some(code) = country.and_then(|c| country_code(c.trim().trim_end_matches('.'))) {
            if !codes.iter().any(|c: &String| c == code) {
                codes.push(code.to_string());
            }
        }
    }
    codes
}

/// OpenSanctions `targets.simple.csv` (with its header row).
pub fn opensanctions(bytes: &[u8]) -> Result<Vec<ListEntry>, String> {
    let mut reader = csv_reader(bytes, true);
    let headers = reader.headers().map_err(|e| format!("header row: {e}"))?.clone();
    let column = |name: &str| headers.iter().position(|h| h == name).ok_or_else(|| format!("no {name} column in the header row"));
    let (id, schema, name, aliases, birth, countries) =
        (column("id")?, column("schema")?, column("name")?, column("aliases")?, column("birth_date")?, column("countries")?);
    let sanctions = column("sanctions").ok();
    let topics = column("topics").ok();
    let dataset = column("dataset").ok();
    let split = |text: &str| -> Vec<String> { text.split(';').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect() };
    let mut entries = Vec::new();
    for (line, record) in reader.records().enumerate() {
        let record = record.map_err(|e| format!("line {}: {e}", line + 2))?;
        let field = |i: usize| record.get(i).unwrap_or_default();
        if field(id).is_empty() || field(name).is_empty() {
            return Err(format!("line {}: an entry needs an id and a name", line + 2));
        }
        let kind = match field(schema) {
            "Person" => EntryKind::Individual,
            "Vessel" => EntryKind::Vessel,
            "Airplane" => EntryKind::Aircraft,
            "Organization" | "Company" | "LegalEntity" | "PublicBody" => EntryKind::Entity,
            _ => EntryKind::Unknown,
        };
        let mut names = vec![field(name).to_string()];
        for alias in split(field(aliases)) {
            if !names.contains(&alias) {
                names.push(alias);
            }
        }
        entries.push(ListEntry {
            entity_id: field(id).to_string(),
            kind,
            names,
            dates_of_birth: split(field(birth)).into_iter().filter(|d| d.len() >= 4).collect(),
            nationalities: split(field(countries)).into_iter().map(|c| c.to_ascii_uppercase()).filter(|c| c.len() == 2).collect(),
            programs: sanctions.map(|i| field(i).to_string()).unwrap_or_default(),
            topic: opensanctions_topic(
                topics.map(&field),
                sanctions.map(&field).unwrap_or_default(),
                dataset.map(field).unwrap_or_default(),
            ),
        });
    }
    Ok(entries)
}

/// Why an entity with these FollowTheMoney topics is listed: any
/// `sanction*` topic makes it a sanction, else `role.pep` or `role.rca` a
/// PEP, else adverse media. No topics at all reads as a sanction (the strict
/// reading, for an entity found in a sanctions collection).
pub(crate) fn topic_of(topics: &[&str]) -> EntryTopic {
    if topics.is_empty() || topics.iter().any(|t| t.starts_with("sanction")) {
        EntryTopic::Sanction
    } else if topics.iter().any(|t| *t == "role.pep" || *t == "role.rca") {
        EntryTopic::Pep
    } else {
        EntryTopic::AdverseMedia
    }
}

/// Why an OpenSanctions row is listed. With a `topics` column (the
/// FollowTheMoney topics, `;`-separated): any `sanction*` topic is a
/// sanction, else `role.pep`/`role.rca` a PEP, else adverse media. The
/// `targets.simple` export has no topics: a row that names a sanction
/// program is a sanction, a row of a PEP dataset a PEP, anything else
/// (crime, debarment, warnings) adverse media.
fn opensanctions_topic(topics: Option<&str>, sanctions: &str, dataset: &str) -> EntryTopic {
    if let Some(topics) = topics.filter(|t| !t.trim().is_empty()) {
        return topic_of(&topics.split(';').map(str::trim).collect::<Vec<_>>());
    }
    if !sanctions.trim().is_empty() {
        EntryTopic::Sanction
    } else if dataset.split(';').any(|d| d.contains("pep")) {
        EntryTopic::Pep
    } else {
        EntryTopic::AdverseMedia
    }
}

/// The UN Security Council consolidated list (XML): individuals with their
/// name parts, aliases, dates of birth and nationalities; entities with
/// their names and aliases.
pub fn un(bytes: &[u8]) -> Result<Vec<ListEntry>, String> {
    let mut reader = quick_xml::Reader::from_reader(bytes);
    reader.config_mut().trim_text(true);
    let mut entries = Vec::new();
    let mut path: Vec<String> = Vec::new();
    let mut current: Option<(ListEntry, Vec<String>)> = None;
    let mut saw_root = false;
    let mut buffer = Vec::new();
    loop {
        let event = reader.read_event_into(&mut buffer).map_err(|e| format!("XML at byte {}: {e}", reader.buffer_position()))?;
        match event {
            Event::Start(start) => {
                let name = String::from_utf8_lossy(start.name().as_ref()).into_owned();
                if name == "CONSOLIDATED_LIST" {
                    saw_root = true;
                }
                if name == "INDIVIDUAL" || name == "ENTITY" {
                    let kind = if name == "INDIVIDUAL" { EntryKind::Individual } else { EntryKind::Entity };
                    current = Some((
                        ListEntry {
                            entity_id: String::new(),
                            kind,
                            names: Vec::new(),
                            dates_of_birth: Vec::new(),
                            nationalities: Vec::new(),
                            programs: String::new(),
                            topic: EntryTopic::Sanction,
                        },
                        Vec::new(),
                    ));
                }
                path.push(name);
            }
            Event::End(_) => {
                let closed = path.pop().unwrap_or_default();
                if closed == "INDIVIDUAL" || closed == "ENTITY" {
                    if let Some((mut entry, parts)) = current.take() {
                        let full = parts.join(" ");
                        if !full.trim().is_empty() {
                            entry.names.insert(0, full);
                        }
                        if entry.entity_id.is_empty() || entry.names.is_empty() {
                            return Err(format!("an {closed} without a reference number or a name"));
                        }
                        entries.push(entry);
                    }
                }
            }
            Event::Text(text) => {
                let value = text.unescape().map_err(|e| e.to_string())?.trim().to_string();
                let (Some((entry, parts)), Some(tag)) = (current.as_mut(), path.last()) else { continue };
                let parent = path.len().checked_sub(2).and_then(|i| path.get(i)).map(String::as_str).unwrap_or_default();
                match (parent, tag.as_str()) {
                    (_, "REFERENCE_NUMBER") => entry.entity_id = value,
                    ("INDIVIDUAL" | "ENTITY", "FIRST_NAME" | "SECOND_NAME" | "THIRD_NAME" | "FOURTH_NAME") if !value.is_empty() => parts.push(value),
                    ("INDIVIDUAL" | "ENTITY", "UN_LIST_TYPE") => entry.programs = value,
                    ("INDIVIDUAL_ALIAS" | "ENTITY_ALIAS", "ALIAS_NAME") if !value.is_empty() && !entry.names.contains(&value) => {
                        entry.names.push(value)
                    }
                    ("INDIVIDUAL_DATE_OF_BIRTH", "DATE") => entry.dates_of_birth.push(value.chars().take(10).collect()),
                    ("INDIVIDUAL_DATE_OF_BIRTH", "YEAR" | "FROM_YEAR") if value.len() == 4 => entry.dates_of_birth.push(value),
                    ("NATIONALITY", "VALUE") => {
                        if let Some(code) = country_code(&value) {
                            entry.nationalities.push(code.to_string());
                        }
                    }
                    _ => {}
                }
            }
            Event::Eof => break,
            _ => {}
        }
        buffer.clear();
    }
    if !saw_root {
        return Err("not a UN consolidated list: no CONSOLIDATED_LIST element".to_string());
    }
    if !path.is_empty() {
        return Err(format!("the XML ends inside {}: the file is truncated", path.join("/")));
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ofac_rows_aliases_and_remarks_are_read() {
        let sdn = b"7,\"PUTIN, Vladimir Vladimirovich\",individual,RUSSIA-EO14024,President,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,\"DOB 07 Oct 1952; POB Leningrad, Russia; nationality Russia; Gender Male.\"\n306,BANCO NACIONAL DE CUBA,-0- ,CUBA,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- \n\x1a\n";
        let alt = b"7,1,aka,\"PUTIN, Vladimir\",-0- \n";
        let entries = ofac(sdn, Some(alt)).unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].kind, EntryKind::Individual);
        assert_eq!(entries[0].names, vec!["PUTIN, Vladimir Vladimirovich", "PUTIN, Vladimir"]);
        assert_eq!(entries[0].dates_of_birth, vec!["1952-10-07"]);
        assert_eq!(entries[0].nationalities, vec!["RU"]);
        assert_eq!(entries[1].kind, EntryKind::Entity);
    }

    #[test]
    fn a_file_that_is_not_the_format_is_refused() {
        assert!(ofac(b"id,name\nfoo,bar\n", None).is_err());
        assert!(opensanctions(b"nothing,here\n1,2\n").is_err());
        assert!(un(b"<html></html>").is_err());
        assert!(un(b"<CONSOLIDATED_LIST><INDIVIDUALS><INDIVIDUAL><REFERENCE_NUMBER>QDi.1</REFERENCE_NUMBER>").is_err());
    }

    #[test]
    fn opensanctions_rows_are_read() {
        let csv = b"id,schema,name,aliases,birth_date,countries,addresses,identifiers,sanctions,phones,emails,program_ids,dataset,first_seen,last_seen,last_change\nQ7747,Person,Vladimir Putin,\"Putin;Vladimir Vladimirovich Putin\",1952-10-07,ru,,,EU,,,,eu_fsf,2022,2024,2024\n";
        let entries = opensanctions(csv).unwrap();
        assert_eq!(entries[0].names, vec!["Vladimir Putin", "Putin", "Vladimir Vladimirovich Putin"]);
        assert_eq!(entries[0].nationalities, vec!["RU"]);
        assert_eq!(entries[0].dates_of_birth, vec!["1952-10-07"]);
    }

    #[test]
    fn opensanctions_rows_are_sorted_by_why_they_are_listed() {
        let csv = b"id,schema,name,aliases,birth_date,countries,addresses,identifiers,sanctions,phones,emails,program_ids,dataset,first_seen,last_seen,last_change\n\
            A,Person,Sanctioned One,,,ru,,,EU FSF,,,,eu_fsf,2022,2024,2024\n\
            B,Person,Politician Two,,,de,,,,,,,peps;everypolitician,2022,2024,2024\n\
            C,Person,Fugitive Three,,,us,,,,,,,interpol_red_notices,2022,2024,2024\n";
        let topics: Vec<EntryTopic> = opensanctions(csv).unwrap().iter().map(|e| e.topic).collect();
        assert_eq!(topics, vec![EntryTopic::Sanction, EntryTopic::Pep, EntryTopic::AdverseMedia]);
        assert_eq!(opensanctions_topic(Some("role.pep;sanction.linked"), "", ""), EntryTopic::Sanction);
        assert_eq!(opensanctions_topic(Some("role.rca"), "", ""), EntryTopic::Pep);
        assert_eq!(opensanctions_topic(Some("crime.fin"), "Some program", ""), EntryTopic::AdverseMedia);
        assert!(
            ofac(b"7,\"PUTIN, Vladimir\",individual,RUSSIA-EO14024,-0-,-0-,-0-,-0-,-0-,-0-,-0-,-0-\n", None).unwrap()[0].topic
                == EntryTopic::Sanction
        );
    }

    #[test]
    fn dates_in_remarks_take_every_form() {
        assert_eq!(
            ofac_dates_of_birth("DOB 1955; alt. DOB Dec 1956; DOB circa 1960; DOB 01 Jan 1960 to 31 Dec 1962."),
            vec!["1955", "1956-12", "1960", "1960-01-01"]
        );
    }
}
