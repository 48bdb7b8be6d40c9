//! Readers of the official sanctions lists into [`ListEntry`] rows: OFAC's
//! SDN list in its CSV form, the OpenSanctions `targets.simple` CSV, the
//! UN Security Council consolidated XML, the EU Financial Sanctions Files
//! XML and the UK Sanctions List XML (FCDO). A file that does not read as its
//! format, or reads as nothing, is an error: nothing is replaced.

use quick_xml::events::Event;
use rules_model::{EntryKind, EntryTopic};

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
    EuFsfXml,
    UkSanctionsXml,
}

impl ListFormat {
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "ofac-csv" => Some(ListFormat::OfacCsv),
            "opensanctions-csv" => Some(ListFormat::OpenSanctionsCsv),
            "un-xml" => Some(ListFormat::UnXml),
            "eu-fsf-xml" => Some(ListFormat::EuFsfXml),
            "uk-sanctions-xml" => Some(ListFormat::UkSanctionsXml),
            _ => None,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            ListFormat::OfacCsv => "ofac-csv",
            ListFormat::OpenSanctionsCsv => "opensanctions-csv",
            ListFormat::UnXml => "un-xml",
            ListFormat::EuFsfXml => "eu-fsf-xml",
            ListFormat::UkSanctionsXml => "uk-sanctions-xml",
        }
    }
    /// The source name a list of this format has unless one is given.
    pub fn default_source(self) -> &'static str {
        match self {
            ListFormat::OfacCsv => "ofac-sdn",
            ListFormat::OpenSanctionsCsv => "opensanctions",
            ListFormat::UnXml => "un-consolidated",
            ListFormat::EuFsfXml => "eu-fsf",
            ListFormat::UkSanctionsXml => "uk-sanctions",
        }
    }

    /// Every format, for messages that name them.
    pub const ALL: [ListFormat; 5] =
        [ListFormat::OfacCsv, ListFormat::OpenSanctionsCsv, ListFormat::UnXml, ListFormat::EuFsfXml, ListFormat::UkSanctionsXml];

    /// Reads a list held in one file; for OFAC's CSV, `sdn.csv` without aliases.
    pub fn read(self, bytes: &[u8]) -> Result<Vec<ListEntry>, String> {
        match self {
            ListFormat::OfacCsv => ofac(bytes, None),
            ListFormat::OpenSanctionsCsv => opensanctions(bytes),
            ListFormat::UnXml => un(bytes),
            ListFormat::EuFsfXml => eu_fsf(bytes),
            ListFormat::UkSanctionsXml => uk_sanctions(bytes),
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
        // A range is every year it spans (at most 30): its first day is no one's birthday, and the person may be
        // born in its last year as in its first.
        if let Some((from, to)) = rest.split_once(" to ") {
            let year = |d: &str| day_month_year(d).and_then(|d| d.get(..4)?.parse::<u32>().ok());
            if let (Some(from), Some(to)) = (year(from), year(to)) {
                dates.extend((from..=to.min(from + 30)).map(|y| y.to_string()));
            }
        } else if let Some(date) = day_month_year(rest) {
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
            topic: opensanctions_topic(topics.map(&field), sanctions.map(&field).unwrap_or_default(), dataset.map(field).unwrap_or_default()),
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
/// name parts, aliases, the name in its original script, dates of birth
/// (a range as every year it spans) and nationalities; entities with their
/// names and aliases.
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
                    // the name in its original script, as an alias: screened through its reading (issue #45)
                    ("INDIVIDUAL" | "ENTITY", "NAME_ORIGINAL_SCRIPT") if !value.is_empty() && !entry.names.contains(&value) => {
                        entry.names.push(value)
                    }
                    ("INDIVIDUAL_DATE_OF_BIRTH", "YEAR" | "FROM_YEAR") if value.len() == 4 => entry.dates_of_birth.push(value),
                    // a range is every year it spans (at most 30), after its FROM_YEAR
                    ("INDIVIDUAL_DATE_OF_BIRTH", "TO_YEAR") => {
                        let from = entry.dates_of_birth.last().and_then(|d| d.parse::<u32>().ok());
                        if let (Some(from), Ok(to)) = (from, value.parse::<u32>()) {
                            entry.dates_of_birth.extend((from + 1..=to.min(from + 30)).map(|y| y.to_string()));
                        }
                    }
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
    xml_ended(saw_root.then_some(()).ok_or("not a UN consolidated list: no CONSOLIDATED_LIST element"), &path)?;
    Ok(entries)
}

/// The end of an XML list: its root element was seen (else `not_the_format`),
/// and no element is left open (a file cut short).
fn xml_ended(root: Result<(), &str>, open: &[String]) -> Result<(), String> {
    root.map_err(str::to_string)?;
    match open.is_empty() {
        true => Ok(()),
        false => Err(format!("the XML ends inside {}: the file is truncated", open.join("/"))),
    }
}

/// An XML reader over a whole file, with text trimmed.
fn xml_reader(bytes: &[u8]) -> quick_xml::Reader<&[u8]> {
    let mut reader = quick_xml::Reader::from_reader(bytes);
    reader.config_mut().trim_text(true);
    reader
}

/// An element's attribute, unescaped and trimmed; empty when absent.
fn attribute(element: &quick_xml::events::BytesStart<'_>, name: &str) -> String {
    element.try_get_attribute(name).ok().flatten().and_then(|a| a.unescape_value().ok().map(|v| v.trim().to_string())).unwrap_or_default()
}

fn local_name(element: &quick_xml::events::BytesStart<'_>) -> String {
    String::from_utf8_lossy(element.local_name().as_ref()).into_owned()
}

fn push_unique(values: &mut Vec<String>, value: String) {
    if !value.is_empty() && !values.contains(&value) {
        values.push(value);
    }
}

/// The EU Financial Sanctions Files (the FSF XML, namespace
/// `http://eu.europa.ec/fpi/fsd/export`): each `sanctionEntity` with its
/// `subjectType`, strong `nameAlias` names, `birthdate` and `citizenship`
/// attributes, and the `programme` of its `regulation`s. The mapping
/// follows the published schema and OpenSanctions' reader (`zavod/shed/fsf.py`).
pub fn eu_fsf(bytes: &[u8]) -> Result<Vec<ListEntry>, String> {
    let mut reader = xml_reader(bytes);
    let mut entries = Vec::new();
    let mut current: Option<ListEntry> = None;
    let (mut saw_root, mut depth) = (false, 0usize);
    let mut buffer = Vec::new();
    loop {
        let event = reader.read_event_into(&mut buffer).map_err(|e| format!("XML at byte {}: {e}", reader.buffer_position()))?;
        let (element, opens) = match &event {
            Event::Start(e) => (Some(e.clone()), true),
            Event::Empty(e) => (Some(e.clone()), false),
            Event::End(end) => {
                depth = depth.saturating_sub(1);
                if end.local_name().as_ref() == b"sanctionEntity" {
                    let entry = current.take().ok_or("a sanctionEntity closes that never opened")?;
                    if entry.names.is_empty() {
                        return Err(format!("sanctionEntity {} has no name", entry.entity_id));
                    }
                    entries.push(entry);
                }
                (None, false)
            }
            Event::Eof => break,
            _ => (None, false),
        };
        if let Some(element) = element {
            if opens {
                depth += 1;
            }
            match local_name(&element).as_str() {
                "export" => saw_root = true,
                "sanctionEntity" => {
                    let reference = attribute(&element, "euReferenceNumber");
                    let logical = attribute(&element, "logicalId");
                    let entity_id = if !reference.is_empty() { reference } else { format!("logical-{logical}") };
                    if entity_id == "logical-" {
                        return Err("a sanctionEntity without a euReferenceNumber or logicalId".to_string());
                    }
                    current = Some(ListEntry {
                        entity_id,
                        kind: EntryKind::Unknown,
                        names: Vec::new(),
                        dates_of_birth: Vec::new(),
                        nationalities: Vec::new(),
                        programs: String::new(),
                        topic: EntryTopic::Sanction,
                    });
                }
                name => {
                    let Some(entry) = current.as_mut() else { continue };
                    match name {
                        "subjectType" => {
                            entry.kind = match attribute(&element, "code").as_str() {
                                "person" => EntryKind::Individual,
                                "enterprise" => EntryKind::Entity,
                                _ => EntryKind::Unknown,
                            }
                        }
                        // a weak alias (`strong="false"`) is a low-quality name, not matched on
                        "nameAlias" if attribute(&element, "strong") != "false" => {
                            let whole = attribute(&element, "wholeName");
                            let parts = ["firstName", "middleName", "lastName"].map(|a| attribute(&element, a));
                            let name =
                                if whole.is_empty() { parts.iter().filter(|p| !p.is_empty()).cloned().collect::<Vec<_>>().join(" ") } else { whole };
                            push_unique(&mut entry.names, name);
                        }
                        "birthdate" => {
                            let full = attribute(&element, "birthdate");
                            let (year, month, day) =
                                (attribute(&element, "year"), attribute(&element, "monthOfYear"), attribute(&element, "dayOfMonth"));
                            let date = if full.len() == 10 {
                                full
                            } else {
                                let number = |t: &str| t.parse::<u32>().ok().filter(|n| *n > 0);
                                match (year.len() == 4, number(&month), number(&day)) {
                                    (true, Some(m), Some(d)) => format!("{year}-{m:02}-{d:02}"),
                                    (true, Some(m), None) => format!("{year}-{m:02}"),
                                    (true, None, _) => year,
                                    _ => String::new(),
                                }
                            };
                            push_unique(&mut entry.dates_of_birth, date);
                        }
                        "citizenship" => {
                            let code = attribute(&element, "countryIso2Code").to_ascii_uppercase();
                            let code = if code.len() == 2 && code != "00" {
                                Some(code)
                            } else {
                                country_code(&attribute(&element, "countryDescription")).map(str::to_string)
                            };
                            push_unique(&mut entry.nationalities, code.unwrap_or_default());
                        }
                        "regulation" => {
                            let programme = attribute(&element, "programme");
                            if !programme.is_empty() && !entry.programs.split(';').any(|p| p == programme) {
                                if !entry.programs.is_empty() {
                                    entry.programs.push(';');
                                }
                                entry.programs.push_str(&programme);
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        buffer.clear();
    }
    if !saw_root {
        return Err("not an EU Financial Sanctions File: no export element".to_string());
    }
    if depth != 0 || current.is_some() {
        return Err("the XML ends inside an element: the file is truncated".to_string());
    }
    Ok(entries)
}

/// The UK Sanctions List (FCDO's `UK_Sanctions_List.xml`): each
/// `Designation` with its `UniqueID`, `IndividualEntityShip`, `RegimeName`,
/// its `Names` (`Name1`…`Name5` given names, `Name6` the surname; the
/// `Primary Name` first), non-Latin names, and an individual's `DOB`s
/// (`dd/mm/yyyy`, with `dd` or `mm` for a part not known) and
/// `Nationality` names. The mapping follows the FCDO's published list and
/// OpenSanctions' reader (`datasets/gb/fcdo_sanctions`).
pub fn uk_sanctions(bytes: &[u8]) -> Result<Vec<ListEntry>, String> {
    let mut reader = xml_reader(bytes);
    let mut entries = Vec::new();
    let mut path: Vec<String> = Vec::new();
    let mut current: Option<ListEntry> = None;
    // the name being read: its parts by number, and whether it is the primary name
    let mut name_parts: [String; 6] = Default::default();
    let mut name_type = String::new();
    let mut saw_root = false;
    let mut buffer = Vec::new();
    loop {
        let event = reader.read_event_into(&mut buffer).map_err(|e| format!("XML at byte {}: {e}", reader.buffer_position()))?;
        match event {
            Event::Start(start) => {
                let name = local_name(&start);
                match name.as_str() {
                    "Designations" => saw_root = true,
                    "Designation" => {
                        current = Some(ListEntry {
                            entity_id: String::new(),
                            kind: EntryKind::Unknown,
                            names: Vec::new(),
                            dates_of_birth: Vec::new(),
                            nationalities: Vec::new(),
                            programs: String::new(),
                            topic: EntryTopic::Sanction,
                        })
                    }
                    "Name" if path.last().is_some_and(|p| p == "Names") => {
                        name_parts = Default::default();
                        name_type.clear();
                    }
                    _ => {}
                }
                path.push(name);
            }
            Event::End(_) => {
                let closed = path.pop().unwrap_or_default();
                let Some(entry) = current.as_mut() else { continue };
                match closed.as_str() {
                    "Name" if path.last().is_some_and(|p| p == "Names") => {
                        let full = name_parts.iter().filter(|p| !p.is_empty()).cloned().collect::<Vec<_>>().join(" ");
                        if !full.is_empty() && !entry.names.contains(&full) {
                            if name_type.eq_ignore_ascii_case("primary name") {
                                entry.names.insert(0, full);
                            } else {
                                entry.names.push(full);
                            }
                        }
                    }
                    "Designation" => {
                        let entry = current.take().ok_or("a Designation closes that never opened")?;
                        if entry.entity_id.is_empty() || entry.names.is_empty() {
                            return Err(format!("a Designation without a UniqueID or a name ({:?})", entry.entity_id));
                        }
                        entries.push(entry);
                    }
                    _ => {}
                }
            }
            Event::Text(text) => {
                let value = text.unescape().map_err(|e| e.to_string())?.trim().to_string();
                let (Some(entry), Some(tag)) = (current.as_mut(), path.last()) else { continue };
                match tag.as_str() {
                    "UniqueID" => entry.entity_id = value,
                    "IndividualEntityShip" => {
                        entry.kind = match value.to_ascii_lowercase().as_str() {
                            "individual" => EntryKind::Individual,
                            "entity" => EntryKind::Entity,
                            "ship" => EntryKind::Vessel,
                            _ => EntryKind::Unknown,
                        }
                    }
                    "RegimeName" => entry.programs = value,
                    "NameType" => name_type = value,
                    "NameNonLatinScript" => push_unique(&mut entry.names, value),
                    "DOB" => push_unique(&mut entry.dates_of_birth, uk_date(&value).unwrap_or_default()),
                    "Nationality" => push_unique(&mut entry.nationalities, country_code(&value).map(str::to_string).unwrap_or_default()),
                    part => {
                        let number = part.strip_prefix("Name").and_then(|n| n.parse::<usize>().ok()).filter(|n| (1..=6).contains(n));
                        if let (Some(n), true) = (number, path.len() >= 2 && path[path.len() - 2] == "Name") {
                            if let Some(slot) = name_parts.get_mut(n - 1) {
                                *slot = value;
                            }
                        }
                    }
                }
            }
            Event::Eof => break,
            _ => {}
        }
        buffer.clear();
    }
    xml_ended(saw_root.then_some(()).ok_or("not a UK Sanctions List: no Designations element"), &path)?;
    Ok(entries)
}

/// `23/11/1962` → `1962-11-23`; `dd/11/1962` → `1962-11`; `dd/mm/1962` → `1962`.
fn uk_date(text: &str) -> Option<String> {
    let parts: Vec<&str> = text.split('/').map(str::trim).collect();
    let [day, month, year] = parts.as_slice() else { return None };
    let year = (year.len() == 4 && year.bytes().all(|b| b.is_ascii_digit())).then_some(*year)?;
    let number = |t: &str, max: u32| t.parse::<u32>().ok().filter(|n| (1..=max).contains(n));
    // A day the month does not have (31/02) leaves the month: what is certain.
    let real = |m: u32, d: u32| year.parse::<i32>().ok().and_then(|y| chrono::NaiveDate::from_ymd_opt(y, m, d)).is_some();
    Some(match (number(month, 12), number(day, 31)) {
        (Some(m), Some(d)) if real(m, d) => format!("{year}-{m:02}-{d:02}"),
        (Some(m), _) => format!("{year}-{m:02}"),
        (None, _) => year.to_string(),
    })
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

    fn fixture(path: &str) -> Vec<u8> {
        std::fs::read(format!("{}/../conformance/data/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
    }

    #[test]
    fn the_eu_files_are_read_with_strong_names_dates_and_citizenship() {
        let entries = eu_fsf(&fixture("eu-fsf-sample/eu-fsf.xml")).unwrap();
        assert_eq!(entries.len(), 3);
        let person = &entries[0];
        assert_eq!((person.entity_id.as_str(), person.kind), ("EU.9901.11", EntryKind::Individual));
        // the weak alias "Kaz" is left out
        assert_eq!(person.names, vec!["Kazimir Ostapovich Vrublevsky-Tarnov", "Казимир Остапович Врублевский-Тарнов"]);
        assert_eq!(person.dates_of_birth, vec!["1961-07-04"]);
        assert_eq!(person.nationalities, vec!["RU"]);
        assert_eq!(person.programs, "UKR");
        assert_eq!(entries[1].kind, EntryKind::Entity);
        // parts of a name, a partial date, a country by its description
        assert_eq!(entries[2].names, vec!["Oyelaran Adebisi-Whitcombe"]);
        assert_eq!(entries[2].dates_of_birth, vec!["1979-03"]);
        assert_eq!(entries[2].nationalities, vec!["NG"]);
        assert!(entries.iter().all(|e| e.topic == EntryTopic::Sanction));
    }

    #[test]
    fn the_uk_list_is_read_with_its_primary_name_first() {
        let entries = uk_sanctions(&fixture("uk-sanctions-sample/UK_Sanctions_List.xml")).unwrap();
        assert_eq!(entries.len(), 3);
        let person = &entries[0];
        assert_eq!((person.entity_id.as_str(), person.kind), ("RUS9901", EntryKind::Individual));
        assert_eq!(person.names, vec!["Lavrentiy Genrikhovich PROKHODTSEV-LUNIN", "Lavrenty PROKHODTSEV", "Лаврентий Генрихович ПРОХОДЦЕВ-ЛУНИН"]);
        assert_eq!(person.dates_of_birth, vec!["1958-12-09", "1957"]);
        assert_eq!(person.nationalities, vec!["RU"]);
        assert_eq!(person.programs, "The Russia (Sanctions) (EU Exit) Regulations 2019");
        assert_eq!((entries[1].kind, entries[1].names.clone()), (EntryKind::Vessel, vec!["NORTHERN PEARL STAR".to_string()]));
        assert_eq!(entries[2].names, vec!["Mireille ABERNATHY-KOUASSI", "Mireille Ama ABERNATHY-KOUASSI"]);
        assert_eq!((entries[2].dates_of_birth.clone(), entries[2].nationalities.clone()), (vec!["1971-04".to_string()], vec!["CI".to_string()]));
    }

    #[test]
    fn an_eu_or_uk_file_cut_short_or_of_another_format_is_refused() {
        let eu = fixture("eu-fsf-sample/eu-fsf.xml");
        let uk = fixture("uk-sanctions-sample/UK_Sanctions_List.xml");
        assert!(eu_fsf(&eu[..eu.len() / 2]).is_err());
        assert!(uk_sanctions(&uk[..uk.len() / 2]).is_err());
        assert!(eu_fsf(&uk).is_err() && uk_sanctions(&eu).is_err());
        assert!(eu_fsf(b"<html><body>Service Unavailable</body></html>").is_err());
        assert!(uk_sanctions(b"<Designations><Designation><Names><Name><Name6>X</Name6></Name></Names></Designation></Designations>").is_err());
        assert_eq!(uk_date("31/02/1960").as_deref(), Some("1960-02"));
        assert_eq!(uk_date("29/02/1960").as_deref(), Some("1960-02-29"));
        assert_eq!(uk_date("29/02/1961").as_deref(), Some("1961-02"));
        assert_eq!(uk_date("dd/mm/19"), None);
    }

    #[test]
    fn un_individuals_keep_their_original_script_name_and_every_year_of_a_range() {
        let xml = "<CONSOLIDATED_LIST><INDIVIDUALS><INDIVIDUAL><REFERENCE_NUMBER>QDi.1</REFERENCE_NUMBER>\
            <FIRST_NAME>HASSAN</FIRST_NAME><SECOND_NAME>NASRALLAH</SECOND_NAME>\
            <NAME_ORIGINAL_SCRIPT>\u{62d}\u{633}\u{646} \u{646}\u{635}\u{631}\u{627}\u{644}\u{644}\u{647}</NAME_ORIGINAL_SCRIPT>\
            <INDIVIDUAL_DATE_OF_BIRTH><TYPE_OF_DATE>BETWEEN</TYPE_OF_DATE><FROM_YEAR>1960</FROM_YEAR><TO_YEAR>1962</TO_YEAR></INDIVIDUAL_DATE_OF_BIRTH>\
            </INDIVIDUAL><INDIVIDUAL><REFERENCE_NUMBER>QDi.2</REFERENCE_NUMBER><FIRST_NAME>ANN</FIRST_NAME><NAME_ORIGINAL_SCRIPT/>\
            <INDIVIDUAL_DATE_OF_BIRTH><YEAR>1970</YEAR></INDIVIDUAL_DATE_OF_BIRTH></INDIVIDUAL></INDIVIDUALS></CONSOLIDATED_LIST>";
        let entries = un(xml.as_bytes()).expect("reads");
        assert_eq!(entries[0].names, ["HASSAN NASRALLAH", "\u{62d}\u{633}\u{646} \u{646}\u{635}\u{631}\u{627}\u{644}\u{644}\u{647}"]);
        assert_eq!(entries[0].dates_of_birth, ["1960", "1961", "1962"]);
        // the twins: no original-script name adds nothing, a single year stays one
        assert_eq!(entries[1].names, ["ANN"]);
        assert_eq!(entries[1].dates_of_birth, ["1970"]);
    }

    #[test]
    fn dates_in_remarks_take_every_form() {
        assert_eq!(
            ofac_dates_of_birth("DOB 1955; alt. DOB Dec 1956; DOB circa 1960; DOB 01 Jan 1960 to 31 Dec 1962."),
            vec!["1955", "1956-12", "1960", "1960", "1961", "1962"]
        );
        // the twin: a range the wrong way round, or unreadable, gives nothing
        assert!(ofac_dates_of_birth("DOB 1962 to 1960; DOB sometime to 1960").is_empty());
    }
}
