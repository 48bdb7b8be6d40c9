//! A thin layer over quick-xml's writer: elements opened and closed by
//! name, text escaped by the writer, FinCEN's `SeqNum` counted in one place.

use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};
use quick_xml::Writer;

use crate::error::{ApiError, ApiResult};

pub(crate) struct Xml {
    writer: Writer<Vec<u8>>,
    /// the last `SeqNum` given
    seq: u64,
    failed: bool,
}

impl Xml {
    pub(crate) fn new() -> Xml {
        let mut xml = Xml { writer: Writer::new_with_indent(Vec::new(), b' ', 2), seq: 0, failed: false };
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
        let start = BytesStart::new(name).with_attributes(attributes.iter().copied());
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

    /// `<name>text</name>`, the text escaped.
    pub(crate) fn leaf(&mut self, name: &str, text: &str) {
        self.open(name, &[]);
        self.event(Event::Text(BytesText::new(text)));
        self.close(name);
    }

    /// A leaf only when there is a value.
    pub(crate) fn opt_leaf(&mut self, name: &str, text: Option<&str>) {
        if let Some(text) = text.filter(|t| !t.is_empty()) {
            self.leaf(name, text);
        }
    }

    pub(crate) fn finish(self) -> ApiResult<String> {
        if self.failed {
            return Err(ApiError::internal().with_detail("an XML document could not be written".into()));
        }
        String::from_utf8(self.writer.into_inner()).map_err(|_| ApiError::internal())
    }
}
