//! The FinCEN user guides' rules that the schema cannot express, checked on
//! the written document itself (read back, not taken from the builder):
//! no value with leading or trailing spaces, carriage returns, line feeds
//! or tabs (the narrative may hold line breaks); the batch root's counts
//! and total equal to the content; every `SeqNum` unique.

use std::collections::BTreeSet;

use quick_xml::events::Event;

use super::Problems;

/// Elements whose value may hold line breaks.
const PROSE: &[&str] = &["ActivityNarrativeText"];
/// Elements whose values the root's `TotalAmount` sums.
const TOTALS: &[&str] = &["TotalSuspiciousAmountText", "TotalCashInReceiveAmountText", "TotalCashOutAmountText"];

/// The problems of a FinCEN batch.
pub(crate) fn fincen(xml: &str, problems: &mut Problems) {
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
