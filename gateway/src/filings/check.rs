//! The checks of a drafted filing, on the written document itself (read
//! back, not taken from the builder). [`schema`]: every value held to the
//! facets FinCEN's XSDs declare for its element or attribute (the table
//! [`super::facets`], generated from the XSDs) and every character to XML
//! 1.0's `Char`. [`fincen`] adds the user guides' rules that the schema
//! cannot express: no value with leading or trailing spaces, carriage
//! returns, line feeds or tabs (the narrative may hold line breaks); the
//! batch root's counts and total equal to the content; every `SeqNum`
//! unique. [`well_formed`]: the `Char` check alone, for goAML drafts (no
//! goAML schema is committed).

use std::collections::BTreeSet;
use std::sync::OnceLock;

use quick_xml::events::Event;

use super::Problems;

/// The built-in type a simple type restricts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Base {
    String,
    Int,
    Long,
    Decimal,
}

/// A simple type and its facets, as the XSD declares them.
#[derive(Debug)]
pub(crate) struct SimpleType {
    pub name: &'static str,
    pub base: Base,
    pub length: Option<usize>,
    pub min_length: Option<usize>,
    pub max_length: Option<usize>,
    pub total_digits: Option<usize>,
    pub fraction_digits: Option<usize>,
    pub min_inclusive: Option<&'static str>,
    pub max_inclusive: Option<&'static str>,
    pub min_exclusive: Option<&'static str>,
    pub max_exclusive: Option<&'static str>,
    /// (the XSD's pattern, the same as an anchored `regex`)
    pub patterns: &'static [(&'static str, &'static str)],
    pub enumeration: &'static [&'static str],
}

/// One XSD's simple types and the element and attribute declared with each.
#[derive(Debug)]
pub(crate) struct Schema {
    /// the XSD in `conformance/data/fincen-bsa-xml-1.2`, and its sha256 when the table was generated (the drift test's)
    #[cfg_attr(not(test), allow(dead_code))]
    pub file: &'static str,
    #[cfg_attr(not(test), allow(dead_code))]
    pub sha256: &'static str,
    pub types: &'static [SimpleType],
    pub elements: &'static [(&'static str, &'static str)],
    pub attributes: &'static [(&'static str, &'static str)],
    /// elements whose value the schema fixes (an empty one takes it)
    pub fixed: &'static [(&'static str, &'static str)],
}

impl Schema {
    fn type_of(&self, declared: &[(&'static str, &'static str)], name: &str) -> Option<&SimpleType> {
        let (_, type_name) = declared.iter().find(|(n, _)| *n == name)?;
        self.types.iter().find(|t| t.name == *type_name)
    }
}

/// XML 1.0's `Char`: `#x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]`.
pub(crate) fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}')
}

/// The first character of `text` XML 1.0 cannot carry.
pub(crate) fn forbidden_char(text: &str) -> Option<char> {
    text.chars().find(|c| !is_xml_char(*c))
}

/// The compiled patterns of every type, by the pattern's text.
fn pattern(source: &'static str) -> Option<&'static regex::Regex> {
    static COMPILED: OnceLock<Vec<(&'static str, Option<regex::Regex>)>> = OnceLock::new();
    let compiled = COMPILED.get_or_init(|| {
        let mut all: Vec<(&'static str, Option<regex::Regex>)> = Vec::new();
        for schema in [&super::facets::SARX, &super::facets::CTRX] {
            for (_, rust) in schema.types.iter().flat_map(|t| t.patterns.iter()) {
                if !all.iter().any(|(s, _)| s == rust) {
                    all.push((rust, regex::Regex::new(rust).ok()));
                }
            }
        }
        all
    });
    compiled.iter().find(|(s, _)| *s == source).and_then(|(_, r)| r.as_ref())
}

/// An integer or decimal's lexical form: (negative, integer digits, fraction digits), or `None`.
fn number(text: &str) -> Option<(bool, String, String)> {
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let (int, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    if (int.is_empty() && fraction.is_empty()) || !int.bytes().chain(fraction.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let int = int.trim_start_matches('0').to_string();
    let fraction = fraction.trim_end_matches('0').to_string();
    Some((negative && !(int.is_empty() && fraction.is_empty()), int, fraction))
}

/// `a` compared with `b`, both decimals' lexical forms as [`number`] reads them.
fn compare(a: &(bool, String, String), b: &(bool, String, String)) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    let magnitude = a.1.len().cmp(&b.1.len()).then_with(|| a.1.cmp(&b.1)).then_with(|| a.2.cmp(&b.2));
    match (a.0, b.0) {
        (false, true) => Ordering::Greater,
        (true, false) => Ordering::Less,
        (false, false) => magnitude,
        (true, true) => magnitude.reverse(),
    }
}

/// Why the schema refuses `value` for type `t`, if it does.
pub(crate) fn refusal(t: &SimpleType, value: &str) -> Option<String> {
    if let Some(c) = forbidden_char(value) {
        return Some(format!("holds U+{:04X}, a character XML 1.0 cannot carry", u32::from(c)));
    }
    // the built-in numbers collapse white space (XSD's four characters; the XSD step's processor
    // strips Unicode's, as here: a code with such a space around it breaks the guides' rule anyway)
    let value = if t.base == Base::String { value } else { value.trim() };
    let parsed = match t.base {
        Base::String => None,
        Base::Int | Base::Long => {
            let n = number(value).filter(|_| !value.contains('.'));
            let fits = match t.base {
                Base::Int => value.parse::<i32>().is_ok(),
                _ => value.parse::<i64>().is_ok(),
            };
            if n.is_none() || !fits {
                return Some(format!("not an xsd:{} ({})", if t.base == Base::Int { "int" } else { "long" }, t.name));
            }
            n
        }
        Base::Decimal => match number(value) {
            Some(n) => Some(n),
            None => return Some(format!("not an xsd:decimal ({})", t.name)),
        },
    };
    let chars = value.chars().count();
    let outside = t.length.is_some_and(|l| chars != l) || t.min_length.is_some_and(|l| chars < l) || t.max_length.is_some_and(|l| chars > l);
    if t.base == Base::String && outside {
        let (min, max) = (t.length.or(t.min_length).unwrap_or(0), t.length.or(t.max_length).unwrap_or(usize::MAX));
        return Some(format!("{chars} characters, the schema takes {min} to {max} ({})", t.name));
    }
    if let Some(n) = &parsed {
        let digits = n.1.len().max(1) + n.2.len() - usize::from(n.1.is_empty() && !n.2.is_empty());
        if t.total_digits.is_some_and(|d| digits > d) || t.fraction_digits.is_some_and(|d| n.2.len() > d) {
            return Some(format!("too many digits ({})", t.name));
        }
        let bound = |b: Option<&str>, bad: &[std::cmp::Ordering]| b.and_then(number).is_some_and(|b| bad.contains(&compare(n, &b)));
        use std::cmp::Ordering::{Equal, Greater, Less};
        if bound(t.min_inclusive, &[Less])
            || bound(t.max_inclusive, &[Greater])
            || bound(t.min_exclusive, &[Less, Equal])
            || bound(t.max_exclusive, &[Greater, Equal])
        {
            return Some(format!("out of the schema's range ({})", t.name));
        }
    }
    for (xsd, rust) in t.patterns {
        // an untranslatable pattern refuses everything rather than nothing
        if !pattern(rust).is_some_and(|r| r.is_match(value)) {
            return Some(format!("does not match the schema's pattern {xsd} ({})", t.name));
        }
    }
    if !t.enumeration.is_empty() {
        let listed = match &parsed {
            None => t.enumeration.contains(&value),
            Some(n) => t.enumeration.iter().filter_map(|e| number(e)).any(|e| compare(n, &e).is_eq()),
        };
        if !listed {
            return Some(format!("not one of the schema's codes ({})", t.name));
        }
    }
    None
}

/// A value as an XML processor reads it: line ends normalised (XML 1.0 § 2.11).
fn as_parsed(text: &str) -> String {
    text.replace("\r\n", "\n").replace('\r', "\n")
}

fn quoted(value: &str) -> String {
    let shown: String = value.chars().take(40).collect();
    let more = if value.chars().count() > 40 { "…" } else { "" };
    format!("{shown:?}{more}")
}

/// The problems FinCEN's schema would find in the values of a batch: each
/// element's text and each attribute's value against its declared type's
/// facets, every character against XML 1.0's `Char`.
pub(crate) fn schema(xml: &str, schema: &Schema, problems: &mut Problems) {
    let mut reader = quick_xml::Reader::from_str(xml);
    // the open elements, each with its text so far
    let mut open: Vec<(String, String)> = Vec::new();
    let check_element = |name: &str, text: &str, problems: &mut Problems| {
        if let Some(c) = forbidden_char(text) {
            problems.add(&format!("xml.{name}"), format!("holds U+{:04X}, a character XML 1.0 cannot carry", u32::from(c)));
        } else if let Some(t) = schema.type_of(schema.elements, name) {
            let fixed = schema.fixed.iter().find(|(n, _)| *n == name).map(|(_, v)| *v);
            let text = as_parsed(text);
            let why = match fixed {
                Some(fixed) if !text.is_empty() && text != fixed => Some(format!("the schema fixes it to {fixed}")),
                Some(fixed) => refusal(t, if text.is_empty() { fixed } else { &text }),
                None => refusal(t, &text),
            };
            if let Some(why) = why {
                problems.add(&format!("xml.{name}"), format!("{}: {why}", quoted(&text)));
            }
        }
    };
    loop {
        match reader.read_event() {
            Ok(event @ (Event::Start(_) | Event::Empty(_))) => {
                let (Event::Start(e) | Event::Empty(e)) = &event else { continue };
                let name = String::from_utf8_lossy(e.local_name().as_ref()).to_string();
                for attribute in e.attributes() {
                    let Ok(attribute) = attribute else {
                        problems.add(&format!("xml.{name}"), "an attribute is not well-formed");
                        continue;
                    };
                    let key = String::from_utf8_lossy(attribute.key.local_name().as_ref()).to_string();
                    if attribute.key.as_ref() == b"xmlns" || attribute.key.prefix().is_some() {
                        continue;
                    }
                    let value = attribute.unescape_value().map(|v| v.to_string()).unwrap_or_default();
                    if let Some(why) = schema.type_of(schema.attributes, &key).and_then(|t| refusal(t, &as_parsed(&value))) {
                        problems.add(&format!("xml.{name}.{key}"), format!("{}: {why}", quoted(&value)));
                    } else if let Some(c) = forbidden_char(&value) {
                        problems.add(&format!("xml.{name}.{key}"), format!("holds U+{:04X}, a character XML 1.0 cannot carry", u32::from(c)));
                    }
                }
                match event {
                    Event::Start(_) => open.push((name, String::new())),
                    _ => check_element(&name, "", problems),
                }
            }
            Ok(Event::Text(t)) => match t.unescape() {
                Ok(text) => {
                    if let Some((_, so_far)) = open.last_mut() {
                        so_far.push_str(&text);
                    }
                }
                Err(e) => problems.add("xml", format!("not well-formed: {e}")),
            },
            Ok(Event::CData(t)) => {
                if let Some((_, so_far)) = open.last_mut() {
                    so_far.push_str(&String::from_utf8_lossy(&t));
                }
            }
            Ok(Event::End(_)) => {
                if let Some((name, text)) = open.pop() {
                    check_element(&name, &text, problems);
                }
            }
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(e) => {
                problems.add("xml", format!("not well-formed: {e}"));
                return;
            }
        }
    }
}

/// The problems of a goAML report no schema is committed for: its
/// characters held to XML 1.0's `Char`, and the document well-formed.
pub(crate) fn well_formed(xml: &str, problems: &mut Problems) {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut path: Vec<String> = Vec::new();
    loop {
        match reader.read_event() {
            Ok(Event::Start(e)) => path.push(String::from_utf8_lossy(e.local_name().as_ref()).to_string()),
            Ok(Event::End(_)) => {
                path.pop();
            }
            Ok(Event::Text(t)) => {
                let text = t.unescape().map(|v| v.to_string()).unwrap_or_default();
                if let Some(c) = forbidden_char(&text) {
                    let element = path.last().map(String::as_str).unwrap_or("");
                    problems.add(&format!("xml.{element}"), format!("holds U+{:04X}, a character XML 1.0 cannot carry", u32::from(c)));
                }
            }
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(e) => {
                problems.add("xml", format!("not well-formed: {e}"));
                return;
            }
        }
    }
}

/// Elements whose value may hold line breaks.
const PROSE: &[&str] = &["ActivityNarrativeText"];
/// Elements whose values the root's `TotalAmount` sums.
const TOTALS: &[&str] = &["TotalSuspiciousAmountText", "TotalCashInReceiveAmountText", "TotalCashOutAmountText"];

/// The problems of a FinCEN batch: the schema's facets ([`schema`]), then the user guides' rules.
pub(crate) fn fincen(xml: &str, form: &Schema, problems: &mut Problems) {
    schema(xml, form, problems);
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut path: Vec<String> = Vec::new();
    let mut seqs = BTreeSet::new();
    let (mut activities, mut parties, mut total) = (0i64, 0i64, 0i64);
    let mut root: Vec<(String, String)> = Vec::new();
    loop {
        match reader.read_event() {
            Ok(event @ (Event::Start(_) | Event::Empty(_))) => {
                let (Event::Start(e) | Event::Empty(e)) = &event else { continue };
                let name = String::from_utf8_lossy(e.local_name().as_ref()).to_string();
                for attribute in e.attributes().flatten() {
                    let key = String::from_utf8_lossy(attribute.key.as_ref()).to_string();
                    let value = attribute.unescape_value().map(|v| v.to_string()).unwrap_or_default();
                    if key == "SeqNum" && !seqs.insert(value.clone()) {
                        problems.add(&format!("xml.{name}"), format!("SeqNum {value} is used twice"));
                    }
                    if path.is_empty() {
                        root.push((key, value));
                    }
                }
                match (name.as_str(), path.last().map(String::as_str)) {
                    ("Activity", Some("EFilingBatchXML")) => activities += 1,
                    ("Party", Some("Activity")) => parties += 1,
                    _ => {}
                }
                if matches!(event, Event::Start(_)) {
                    path.push(name);
                }
            }
            Ok(Event::End(_)) => {
                path.pop();
            }
            Ok(Event::Text(t)) => {
                let Some(element) = path.last() else { continue };
                let value = t.unescape().map(|v| v.to_string()).unwrap_or_default();
                if value.trim().is_empty() && value.contains('\n') {
                    // indentation between elements
                    continue;
                }
                if !PROSE.contains(&element.as_str()) {
                    if value != value.trim() {
                        problems.add(&format!("xml.{element}"), "a value begins or ends with a space");
                    }
                    if value.contains(['\r', '\n', '\t']) {
                        problems.add(&format!("xml.{element}"), "a value holds a carriage return, line feed or tab");
                    }
                }
                if TOTALS.contains(&element.as_str()) && !value.is_empty() {
                    match value.parse::<i64>() {
                        Ok(v) => total = total.saturating_add(v),
                        Err(_) => problems.add(&format!("xml.{element}"), "not a whole number of dollars"),
                    }
                }
            }
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(e) => {
                problems.add("xml", format!("not well-formed: {e}"));
                return;
            }
        }
    }
    let attribute = |name: &str| root.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
    for (name, counted) in [("ActivityCount", activities), ("PartyCount", parties), ("TotalAmount", total)] {
        if attribute(name) != Some(counted.to_string().as_str()) {
            problems.add(&format!("xml.EFilingBatchXML.{name}"), format!("says {}, the batch holds {counted}", attribute(name).unwrap_or("nothing")));
        }
    }
}
