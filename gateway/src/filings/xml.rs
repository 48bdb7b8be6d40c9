//! A thin layer over quick-xml's writer: elements opened and closed by
//! name, text escaped by the writer, FinCEN's `SeqNum` counted in one place.
//! A character XML 1.0 cannot carry (`Char`: C0 controls but tab, line feed
//! and carriage return, U+FFFE, U+FFFF) is never written: it is left out
//! and named as a problem of the field the value came from (the draft is
//! then invalid), so every document written is well-formed.

use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};
use quick_xml::Writer;

use super::check::{forbidden_char, is_xml_char};
use super::Problems;
use crate::error::{ApiError, ApiResult};

pub(crate) struct Xml {
    writer: Writer<Vec<u8>>,
    /// the last `SeqNum` given
    seq: u64,
    failed: bool,
    /// the values refused a character: (field, the first such character)
    refused: Vec<(String, char)>,
}

/// `text` without the characters XML 1.0 cannot carry; the first one refused is recorded for `field`.
fn carried(refused: &mut Vec<(String, char)>, field: &str, text: &str) -> String {
    if let Some(c) = forbidden_char(text) {
        if !refused.iter().any(|(f, _)| f == field) {
            refused.push((field.to_string(), c));
        }
        return text.chars().filter(|c| is_xml_char(*c)).collect();
    }
    text.to_string()
}

impl Xml {
    pub(crate) fn new() -> Xml {
        let mut xml = Xml { writer: Writer::new_with_indent(Vec::new(), b' ', 2), seq: 0, failed: false, refused: Vec::new() };
        xml.event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)));
        xml
    }

    fn event(&mut self, event: Event<'_>) {
        if self.writer.write_event(event).is_err() {
            self.failed = true;
        }
    }

    /// Opens `name` with these attributes.
    pub(crate) fn open(&mut self, name: &str, attributes: &[(&str, &str)]) {
        let name = carried(&mut self.refused, "xml", name);
        let attributes: Vec<(&str, String)> =
            attributes.iter().map(|(k, v)| (*k, carried(&mut self.refused, &format!("xml.{name}.{k}"), v))).collect();
        let start = BytesStart::new(name.as_str()).with_attributes(attributes.iter().map(|(k, v)| (*k, v.as_str())));
        self.event(Event::Start(start));
    }

    /// Opens `name` with the next `SeqNum`.
    pub(crate) fn open_seq(&mut self, name: &str) {
        self.seq += 1;
        let seq = self.seq.to_string();
        self.open(name, &[("SeqNum", seq.as_str())]);
    }

    pub(crate) fn close(&mut self, name: &str) {
        self.event(Event::End(BytesEnd::new(name)));
    }

    /// `<name>text</name>`, the text escaped; a refused character is named as `xml.{name}`.
    pub(crate) fn leaf(&mut self, name: &str, text: &str) {
        self.leaf_of(&format!("xml.{name}"), name, text);
    }

    /// A leaf whose value is the request's or the settings' `field`: a refused character is named as that field.
    pub(crate) fn leaf_of(&mut self, field: &str, name: &str, text: &str) {
        let text = carried(&mut self.refused, field, text);
        self.open(name, &[]);
        self.event(Event::Text(BytesText::new(&text)));
        self.close(name);
    }

    /// A leaf only when there is a value.
    pub(crate) fn opt_leaf(&mut self, name: &str, text: Option<&str>) {
        if let Some(text) = text.filter(|t| !t.is_empty()) {
            self.leaf(name, text);
        }
    }

    /// [`Xml::opt_leaf`] of `field`'s value.
    pub(crate) fn opt_leaf_of(&mut self, field: &str, name: &str, text: Option<&str>) {
        if let Some(text) = text.filter(|t| !t.is_empty()) {
            self.leaf_of(field, name, text);
        }
    }

    /// The document; each value refused a character named in `problems`.
    pub(crate) fn finish(self, problems: &mut Problems) -> ApiResult<String> {
        for (field, c) in &self.refused {
            problems.add(field, format!("holds U+{:04X}, a character XML 1.0 cannot carry; it was left out of the draft", u32::from(*c)));
        }
        if self.failed {
            return Err(ApiError::internal().with_detail("an XML document could not be written".into()));
        }
        String::from_utf8(self.writer.into_inner()).map_err(|_| ApiError::internal())
    }
}
